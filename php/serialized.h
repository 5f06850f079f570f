/*
 * php/serialized.h - the serialized-value codec: SC_V_SERIALIZED data that
 * is serialize() text (and one NUL byte) or a third-party serializer's
 * bytes (0x00, its name and 0x00 first), the apc.serializer in use and the
 * serializers this process can decode with (php/serialized.c).
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

/* Values that must be serialized go through ser/unser, the serializer
 * registered as name (not empty, no NUL byte, a string that lives as long
 * as the module), instead of php serialize(), and none takes the object
 * form; name NULL: php serialize(). Also forgets every decoder that
 * php_sc_serialized_add_reader gave, and makes this one the first. Called
 * at module startup, before any value is stored, and never while requests
 * run (the choice is inherited across fork). */
void php_sc_serialized_set_serializer(const char *name, php_sc_ext_serialize_fn ser, php_sc_ext_unserialize_fn unser,
                                      void *config);
/* One more serializer this process can decode values with, besides the
 * one in use: a value stored by another process with that apc.serializer
 * (on a named segment) is decoded with unser. The first one given for a
 * name stays. Module startup only, after php_sc_serialized_set_serializer. */
void php_sc_serialized_add_reader(const char *name, php_sc_ext_unserialize_fn unser, void *config);
/* Whether a third-party serializer is in use (set above). */
bool php_sc_serialized_external(void);
/* What the object form (php/object.c) may stand in for, given the
 * serializer in use: every value it takes under php serialize(); under
 * igbinary, whose round trip gives the same objects, arrays and cycles
 * but keeps a shared PHP reference where unserialize() may not (and the
 * other way round), only values with no shared reference; under any
 * other serializer, nothing. */
typedef enum {
    PHP_SC_OBJ_FORM_ANY,
    PHP_SC_OBJ_FORM_NO_SHARED_REFS,
    PHP_SC_OBJ_FORM_NONE
} php_sc_obj_form_use;
php_sc_obj_form_use php_sc_serialized_obj_form_use(void);
/* Whether SC_V_SERIALIZED data (len bytes, any alignment, possibly being
 * changed by a writer: it reads only a few bytes from its start) is in
 * the third-party form of a serializer this process does not have: a
 * value it cannot decode. No PHP state is used: safe under the core's
 * locks, and for every thread. */
bool php_sc_serialized_foreign(const char *data, size_t len);

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

/* Drops a PHP reference a decoder left at the top of *out, keeping the
 * value it refers to (a reference stays only inside a value). */
static zend_always_inline void php_sc_serialized_unref(zval *out)
{
    if (Z_ISREF_P(out)) {
        zval tmp;
        ZVAL_COPY(&tmp, Z_REFVAL_P(out));
        zval_ptr_dtor(out);
        ZVAL_COPY_VALUE(out, &tmp);
    }
}

/* The end of a decode that succeeded but may have run user code
 * (__wakeup, __unserialize, a serializer's callbacks): FAILURE, with *out
 * released and NULL, when that code threw; else SUCCESS with *out's top
 * reference dropped (php_sc_serialized_unref). */
static zend_always_inline zend_result php_sc_serialized_finish(zval *out)
{
    if (EG(exception)) {
        zval_ptr_dtor(out);
        ZVAL_NULL(out);
        return FAILURE;
    }
    php_sc_serialized_unref(out);
    return SUCCESS;
}

/* Set by the decoders above when serialized bytes could not be parsed
 * (php_var_unserialize or apc.serializer's unserializer returned failure,
 * with a notice or an exception), never cleared by them: the caller
 * (php_sc_value_decode_ex) saves it, clears it, reads it after the decode
 * and restores it, so that a fetch made by user code inside one decode
 * does not set it for the outer one. */
extern ZEND_EXT_TLS bool php_sc_serialized_parse_failed;

#endif
