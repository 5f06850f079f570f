/*
 * php/serialized.h - the serialized-value codec: SC_V_SERIALIZED data that
 * is serialize() text (and one NUL byte) or a third-party serializer's
 * bytes (0x00 first), and the apc.serializer in use (php/serialized.c).
 * The object form, the third kind of SC_V_SERIALIZED data, is
 * php/object.c's.
 */
#ifndef SHARDCACHE_SERIALIZED_H
#define SHARDCACHE_SERIALIZED_H

#include "php.h"
#include "value_fmt.h"

/* A third-party serializer, with APCu's calling convention (apc_serializer.h):
 * both return non-zero on success; serialize hands back an emalloc'd buffer. */
typedef int (*php_sc_ext_serialize_fn)(unsigned char **buf, size_t *buf_len, const zval *value, void *config);
typedef int (*php_sc_ext_unserialize_fn)(zval *value, unsigned char *buf, size_t buf_len, void *config);

/* Values that must be serialized go through ser/unser instead of php
 * serialize(), and none takes the object form; NULL: php serialize().
 * Called once at module startup, before any value is stored, and never
 * while requests run: every process sharing the segment then decodes with
 * the serializer that encoded (the choice is inherited across fork). */
void php_sc_serialized_set_serializer(php_sc_ext_serialize_fn ser, php_sc_ext_unserialize_fn unser, void *config);
/* Whether a third-party serializer is in use (set above). */
bool php_sc_serialized_external(void);

/* Encodes value with the serializer in use into *out (SC_V_SERIALIZED,
 * owned_str or owned_buf). FAILURE: it raised what it raises (a warning,
 * or an exception from serialize(): closures, anonymous classes, throwing
 * __sleep/__serialize ...) or refused silently. */
zend_result php_sc_serialized_encode(zval *value, php_sc_encoded *out);

/* Decodes SC_V_SERIALIZED data of len bytes that is not in the object form
 * (the caller hands that to php/odec.c) into *out; may run user code.
 * FAILURE: *out is NULL, and php_sc_serialized_parse_failed is set when
 * the bytes could not be parsed. */
zend_result php_sc_serialized_decode(const char *data, size_t len, zval *out);
/* unserialize()s text (serialize() output and one NUL byte, len bytes in
 * all) as a stored SC_V_SERIALIZED value is; FAILURE for anything else. */
zend_result php_sc_serialized_decode_php_text(const char *text, size_t len, zval *out);

/* Set by the decoders above when serialized bytes could not be parsed
 * (php_var_unserialize or apc.serializer's unserializer returned failure,
 * with a notice or an exception), never cleared by them: the caller
 * (php_sc_value_decode_ex) saves it, clears it, reads it after the decode
 * and restores it, so that a fetch made by user code inside one decode
 * does not set it for the outer one. */
extern ZEND_EXT_TLS bool php_sc_serialized_parse_failed;

#endif
