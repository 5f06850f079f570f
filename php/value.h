/*
 * php/value.h - value encoding (zval <-> bytes stored in shared
 * memory), on the PHP side of the extension: the core (src/, include/)
 * never sees a zval, only the sc_vtype tag (include/sc_vtype.h), a scalar
 * and a byte string. See php/value.c for the byte format and its
 * invariants.
 */
#ifndef SHARDCACHE_VALUE_H
#define SHARDCACHE_VALUE_H

#include "php.h"
#include <stdint.h>
#include "sc_vtype.h"

/* A third-party serializer, with APCu's calling convention (apc_serializer.h):
 * both return non-zero on success; serialize hands back an emalloc'd buffer. */
typedef int (*php_sc_ext_serialize_fn)(unsigned char **buf, size_t *buf_len, const zval *value, void *config);
typedef int (*php_sc_ext_unserialize_fn)(zval *value, unsigned char *buf, size_t buf_len, void *config);

typedef struct php_sc_encoded {
    uint8_t vtype;
    int64_t scalar;        /* SC_V_LONG: the value; SC_V_DOUBLE: the IEEE bits (memcpy) */
    const char *data;      /* bytes for STRING/ARRAY/SERIALIZED (NULL otherwise) */
    size_t len;
    /* private to php/value.c: what to free in php_sc_value_encoded_release */
    zend_string *owned_str;
    char *owned_buf;
} php_sc_encoded;

/* Arrays nested deeper than this are not put in the SC_V_ARRAY format;
 * they are stored as SC_V_SERIALIZED instead (as APCu does for every array).
 * SC_V_ARRAY data nested deeper than this is rejected by the decoder. */
#define PHP_SC_VALUE_MAX_DEPTH 512

/* Encodes value. For strings, data points into the zend_string (no copy; caller keeps value alive).
   On refusal returns FAILURE having raised exactly what APCu 5.1.22 raises for that input
   (warning, or exception propagated from serialize(): closures, anonymous classes, throwing __sleep/__serialize ...). */
zend_result php_sc_value_encode(zval *value, php_sc_encoded *out);
void php_sc_value_encoded_release(php_sc_encoded *enc);

/* Decodes into *out (a fresh zval owned by the caller). data was produced by php_sc_value_encode
   (possibly in another process), but treat it defensively: malformed input -> FAILURE with *out = NULL, never a crash or over-read. */
zend_result php_sc_value_decode(uint8_t vtype, int64_t scalar, const char *data, size_t len, zval *out);
/* The same, saying of a FAILURE whether serialized bytes could not be
   parsed (*parse_failed: php_var_unserialize or apc.serializer's
   unserializer returned failure, with a notice or an exception; APCu then
   reports the key as not found) rather than their parse succeeding and a
   __wakeup or __unserialize run after it throwing (APCu: found). */
zend_result php_sc_value_decode_ex(uint8_t vtype, int64_t scalar, const char *data, size_t len, zval *out,
                                   bool *parse_failed);

/* Values that must be serialized (objects, ...) go through ser/unser instead of
 * php serialize() from now on; NULL restores php serialize(). Called once at
 * module startup, before any value is stored, and never while requests run:
 * every process sharing the segment then decodes with the serializer that
 * encoded (the choice is inherited across fork). */
void php_sc_value_set_serializer(php_sc_ext_serialize_fn ser, php_sc_ext_unserialize_fn unser, void *config);

/* apc.serializer=default: arrays holding shared PHP references keep them in
 * the native format (its memo form) instead of going through serialize(), as
 * APCu's default serializer keeps them. Set once at module startup, like the
 * serializer. */
void php_sc_value_set_native_refs(bool on);

/* Wraps text that is already php serialize() output (one value, len bytes)
 * as an SC_V_SERIALIZED value, whatever serializer is in use; it is
 * unserialized when fetched. Used by apc.preload_path for values that cannot
 * be built outside a request (objects). */
zend_result php_sc_value_wrap_php_serialized(const char *text, size_t len, php_sc_encoded *out);

/* The native object form (php/object.c) shares these with php/value.c. */
/* Appends the plain native encoding of ht (no objects, no shared
 * references) at *buf + *len (an emalloc'd buffer of *cap bytes, grown as
 * needed); false: ht is not plain (*len unchanged). *depth: the levels of
 * non-empty arrays in it (unserialize()'s count for max_depth). */
bool php_sc_value_plain_encode(HashTable *ht, char **buf, size_t *len, size_t *cap, uint32_t *depth);
/* Reads one plain array at *p (advanced past it). */
zend_result php_sc_value_plain_decode(const unsigned char **p, const unsigned char *end, zval *out);
/* php_sc_obj_decode_zc with php_sc_value_decode_ex's *parse_failed. */
zend_result php_sc_value_decode_zc_object(const char *data, size_t len, zval *out, const char *zc_hdr, size_t zc_len,
                                          bool borrow, bool *parse_failed);
/* unserialize()s text (serialize() output and one NUL byte, len bytes in
 * all) as a stored SC_V_SERIALIZED value is. */
zend_result php_sc_value_decode_php_text(const char *text, size_t len, zval *out);

#endif
