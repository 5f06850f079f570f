/*
 * php/oenc.h - the object form's encoder (php/oenc.c; the form:
 * php/object.c).
 */
#ifndef SHARDCACHE_OENC_H
#define SHARDCACHE_OENC_H

#include "php.h"
#include "value_fmt.h"

/* Encodes value (an object, or an array holding objects or shared
 * references) in the object form into *out (SC_V_SERIALIZED, owned_buf).
 * False, *out untouched: the value is not one the form takes (see
 * php/object.c); the caller serializes it, unless an exception is pending
 * (thrown by a __serialize() or __sleep() it called as serialize() calls
 * them, or serialize()'s own for them): then the store fails, as it would
 * in serialize(). An array value must be one the plain format refused
 * (php_sc_plain_encode): its top level is not tried in it again. */
bool php_sc_obj_encode(zval *value, php_sc_encoded *out);

/* php_sc_obj_encode, with plain arrays handed to hook (php_sc_obj_zc_hook:
 * php/value_fmt.h) instead of being
 * written (PHP_SC_O_ZARR); *nzc: how many. Runs no user code (a value
 * that would: false, for the usual store). Counts nothing: the caller
 * calls php_sc_obj_count_zc_store() once it stored the layout. */
bool php_sc_obj_encode_zc(zval *value, php_sc_obj_zc_hook hook, void *ctx, php_sc_encoded *out, uint32_t *nzc);
void php_sc_obj_count_zc_store(void);

#endif
