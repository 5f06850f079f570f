/*
 * php/value.h - value encoding (zval <-> bytes stored in shared
 * memory), on the PHP side of the extension: the core (src/, include/)
 * never sees a zval, only the sc_vtype tag (include/sc_vtype.h), a scalar
 * and a byte string. See php/value.c for the stored forms and which value
 * takes which.
 */
#ifndef SHARDCACHE_VALUE_H
#define SHARDCACHE_VALUE_H

#include "php.h"
#include <stdint.h>
#include "sc_vtype.h"
#include "value_fmt.h"

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
/* php_sc_obj_decode_zc (php/odec.h) with php_sc_value_decode_ex's
 * *parse_failed: an object's zero-copy layout (php/zc.c). */
zend_result php_sc_value_decode_zc_object(const char *data, size_t len, zval *out, const char *zc_hdr, size_t zc_len,
                                          bool borrow, bool *parse_failed);

/* Wraps text that is already php serialize() output (one value, len bytes)
 * as an SC_V_SERIALIZED value, whatever serializer is in use; it is
 * unserialized when fetched. Used by apc.preload_path for values that cannot
 * be built outside a request (objects). */
zend_result php_sc_value_wrap_php_serialized(const char *text, size_t len, php_sc_encoded *out);

#endif
