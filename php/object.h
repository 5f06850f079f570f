/*
 * php/object.h - the native object form: values holding objects stored as
 * class names and property values instead of serialize() text, fetched
 * back as unserialize() would give them (php/object.c).
 */
#ifndef SHARDCACHE_OBJECT_H
#define SHARDCACHE_OBJECT_H

#include "php.h"
#include "value_fmt.h"

/* Encodes value (an object, or an array holding objects or shared
 * references) in the object form into *out (SC_V_SERIALIZED, owned_buf).
 * False, with nothing raised and *out untouched: the value is not one the
 * form takes (see php/object.c); the caller serializes it. Runs no user
 * code. An array value must be one the plain format refused. */
bool php_sc_obj_encode(zval *value, php_sc_encoded *out);

/* Decodes object-form data (len bytes, first byte PHP_SC_OBJ_FORM) into
 * *out: natively when every class is loaded and unchanged since the store,
 * else through unserialize() of the equivalent serialize() text (autoload,
 * __PHP_Incomplete_Class, changed classes: unserialize()'s result). */
zend_result php_sc_obj_decode(const char *data, size_t len, zval *out);

/* Zero-copy layouts (php/zc_store.c): lays out the plain, non-empty array ht
 * in the layout being built and gives the position, from the layout's
 * header, of a pointer to it; false: it cannot (the store gives up the
 * layout). */
typedef bool (*php_sc_obj_zc_hook)(void *ctx, HashTable *ht, uint32_t *pos);

/* php_sc_obj_encode, with plain arrays handed to hook instead of being
 * written (PHP_SC_O_ZARR); *nzc: how many. Counts nothing: the caller
 * calls php_sc_obj_count_zc_store() once it stored the layout. */
bool php_sc_obj_encode_zc(zval *value, php_sc_obj_zc_hook hook, void *ctx, php_sc_encoded *out, uint32_t *nzc);
void php_sc_obj_count_zc_store(void);

/* php_sc_obj_decode of object-form bytes inside a zero-copy layout whose
 * header is at zc_hdr (zc_len bytes from there): its arrays are used in
 * place (borrow) or copied (php_sc_zc_copy_array_at, php/zc_copy.h). */
zend_result php_sc_obj_decode_zc(const char *data, size_t len, zval *out, const char *zc_hdr, size_t zc_len, bool borrow);

/* MINIT: reads the test-only knob SHARDCACHE_TEST_OBJ_TEXT (1: every fetch
 * takes the unserialize() path, so that tests can compare both). */
void php_sc_obj_minit(void);

/* shardcache_info()['objects']: this thread's counts of values stored in
 * the form (stored), values holding objects left to serialize()
 * (serialized), and fetches built natively (native) or through
 * unserialize() (unserialized). */
void php_sc_obj_info(zval *dst);

/* Request end: forgets the classes looked up this request. */
void php_sc_obj_request_end(void);

#endif
