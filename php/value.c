/*
 * php/value.c - values (zval <-> bytes): which codec stores a value, and
 * the decode of each stored form.
 *
 * The glue's side of every stored value (the core never sees a zval). It
 * turns a PHP value into a (vtype, scalar, bytes) triple that the cache
 * copies into shared memory, and turns such a triple back into a fresh
 * request-local zval. A decoded value never points into the bytes it came
 * from (zero-copy values are php/zc.c's, not this file's).
 *
 * Top level (sc_vtype): NULL/FALSE/TRUE no data; LONG scalar = the value;
 * DOUBLE scalar = the IEEE-754 bits; STRING data = the raw bytes; ARRAY
 * data = one array in the plain format (php/plain_enc.c); SERIALIZED
 * data = php serialize() output and one NUL byte, 0x00 and a third-party
 * serializer's output (apc.serializer: php/serialized.c), or the object
 * form (PHP_SC_OBJ_FORM first: php/object.c).
 *
 * What goes where (php_sc_value_encode):
 *  - an array holding no object and no shared PHP reference, nested up to
 *    PHP_SC_VALUE_MAX_DEPTH levels: the plain format; with
 *    apc.serializer=default, one holding shared references too (its memo
 *    form);
 *  - any other array, and an object: the object form, which gives back
 *    what unserialize(serialize()) would, when the form takes the value
 *    (php/object.c lists what it refuses: a class it does not take, a
 *    recursive array, serialize_precision below 17, a third-party
 *    serializer other than igbinary, a shared reference under igbinary,
 *    ...);
 *  - else serialize(), or the third-party serializer, as APCu stores
 *    every such value;
 *  - a resource: APCu's warning, nothing stored (inside an array it is
 *    serialize()'s int 0, as in APCu).
 *
 * Decode: the plain format runs no user code; the object form's native
 * decode runs the __unserialize() and __wakeup() calls unserialize()
 * would, once the value is built; serialized text goes to
 * php_var_unserialize() as in APCu and may run user code, and so does the
 * object form when one of its classes is not loaded or changed
 * (php/otext.c).
 *
 * Format and rules: docs/internals.md#php_value
 */

#include "php.h"
#include "value.h"
#include "plain_enc.h"
#include "plain_dec.h"
#include "serialized.h"
#include "oenc.h"
#include "odec.h"

#include <string.h>

#if defined(ZTS) && defined(COMPILE_DL_SHARDCACHE)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

/* An array that is not plain, or an object: the object form where it
 * takes the value, else serialize() or the third-party serializer. An
 * exception thrown by __serialize() or __sleep() fails the store, as it
 * fails serialize(). */
static zend_result php_sc_value_encode_graph(zval *value, php_sc_encoded *out)
{
    if (php_sc_obj_encode(value, out)) {
        return SUCCESS;
    }
    if (UNEXPECTED(EG(exception))) {
        return FAILURE;
    }
    return php_sc_serialized_encode(value, out);
}

zend_result php_sc_value_encode(zval *value, php_sc_encoded *out)
{
    memset(out, 0, sizeof(*out));
    ZVAL_DEREF(value);

    switch (Z_TYPE_P(value)) {
        case IS_UNDEF:
        case IS_NULL:
            out->vtype = SC_V_NULL;
            return SUCCESS;
        case IS_FALSE:
            out->vtype = SC_V_FALSE;
            return SUCCESS;
        case IS_TRUE:
            out->vtype = SC_V_TRUE;
            return SUCCESS;
        case IS_LONG:
            out->vtype = SC_V_LONG;
            out->scalar = (int64_t) Z_LVAL_P(value);
            return SUCCESS;
        case IS_DOUBLE: {
            double d = Z_DVAL_P(value);
            out->vtype = SC_V_DOUBLE;
            memcpy(&out->scalar, &d, sizeof(d));
            return SUCCESS;
        }
        case IS_STRING:
            out->vtype = SC_V_STRING;
            out->data = Z_STRVAL_P(value);
            out->len = Z_STRLEN_P(value);
            return SUCCESS;
        case IS_RESOURCE:
            php_error_docref(NULL, E_WARNING, "Cannot store resources in apcu cache");
            return FAILURE;
        case IS_ARRAY:
            if (php_sc_plain_encode(Z_ARRVAL_P(value), out)) {
                return SUCCESS;
            }
            /* Objects or shared references inside: the object form keeps
             * them as unserialize() would give them back. */
            return php_sc_value_encode_graph(value, out);
        case IS_OBJECT:
            return php_sc_value_encode_graph(value, out);
        default: /* serialize() decides */
            return php_sc_serialized_encode(value, out);
    }
}

void php_sc_value_encoded_release(php_sc_encoded *enc)
{
    if (enc->owned_str) {
        zend_string_release(enc->owned_str);
        enc->owned_str = NULL;
    }
    if (enc->owned_buf) {
        efree(enc->owned_buf);
        enc->owned_buf = NULL;
    }
    enc->data = NULL;
    enc->len = 0;
}

zend_result php_sc_value_wrap_php_serialized(const char *text, size_t len, php_sc_encoded *out)
{
    char *data;

    memset(out, 0, sizeof(*out));
    if (len == 0 || text[0] == '\0') {
        return FAILURE;
    }
    data = emalloc(len + 1);
    memcpy(data, text, len);
    data[len] = '\0';
    out->vtype = SC_V_SERIALIZED;
    out->owned_buf = data;
    out->data = data;
    out->len = len + 1;
    return SUCCESS;
}

zend_result php_sc_value_decode_ex(uint8_t vtype, int64_t scalar, const char *data, size_t len, zval *out,
                                   bool *parse_failed)
{
    bool saved = php_sc_serialized_parse_failed;
    zend_result rc;

    php_sc_serialized_parse_failed = false;
    rc = php_sc_value_decode(vtype, scalar, data, len, out);
    *parse_failed = rc != SUCCESS && php_sc_serialized_parse_failed;
    php_sc_serialized_parse_failed = saved;
    return rc;
}

zend_result php_sc_value_decode_zc_object(const char *data, size_t len, zval *out, const char *zc_hdr, size_t zc_len,
                                          bool borrow, bool *parse_failed)
{
    bool saved = php_sc_serialized_parse_failed;
    zend_result rc;

    php_sc_serialized_parse_failed = false;
    rc = php_sc_obj_decode_zc(data, len, out, zc_hdr, zc_len, borrow);
    *parse_failed = rc != SUCCESS && php_sc_serialized_parse_failed;
    php_sc_serialized_parse_failed = saved;
    return rc;
}

zend_result php_sc_value_decode(uint8_t vtype, int64_t scalar, const char *data, size_t len, zval *out)
{
    switch (vtype) {
        case SC_V_NULL:
            ZVAL_NULL(out);
            return SUCCESS;
        case SC_V_FALSE:
            ZVAL_FALSE(out);
            return SUCCESS;
        case SC_V_TRUE:
            ZVAL_TRUE(out);
            return SUCCESS;
        case SC_V_LONG: {
            zend_long lv;
            if (!php_sc_i64_to_long(scalar, &lv)) {
                break;
            }
            ZVAL_LONG(out, lv);
            return SUCCESS;
        }
        case SC_V_DOUBLE: {
            double d;
            memcpy(&d, &scalar, sizeof(d));
            ZVAL_DOUBLE(out, d);
            return SUCCESS;
        }
        case SC_V_STRING:
            if (data == NULL && len != 0) {
                break;
            }
            ZVAL_STR(out, len ? zend_string_init_fast(data, len) : ZSTR_EMPTY_ALLOC());
            return SUCCESS;
        case SC_V_ARRAY:
            return php_sc_plain_decode(data, len, out);
        case SC_V_SERIALIZED:
            if (data == NULL) {
                break;
            }
            if (len != 0 && data[0] == PHP_SC_OBJ_FORM) {
                return php_sc_obj_decode(data, len, out);
            }
            return php_sc_serialized_decode(data, len, out);
        default:
            break;
    }
    ZVAL_NULL(out);
    return FAILURE;
}
