/*
 * php/serialized.c - the serialized-value codec (php/serialized.h):
 * serialize() and unserialize(), or the third-party serializer that
 * apc.serializer names (php/serializer.c picks it at startup).
 *
 * Stored bytes (SC_V_SERIALIZED data): serialize() output and one NUL
 * byte, or 0x00 and a third-party serializer's output. Decoding goes to
 * php_var_unserialize() (or the serializer's unserializer) as in APCu and
 * may run user code (autoload, __wakeup, __unserialize).
 */

#include "php.h"
#include "zend_smart_str.h"
#include "ext/standard/php_var.h"
#include "ext/standard/basic_functions.h"
#include "serialized.h"
#include "debug.h"

#if defined(ZTS) && defined(COMPILE_DL_SHARDCACHE)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

/* The apc.serializer in use for values that must be serialized; NULL: php
 * serialize(). Written only at module startup (php_sc_serialized_set_serializer). */
static php_sc_ext_serialize_fn php_sc_ext_ser;
static php_sc_ext_unserialize_fn php_sc_ext_unser;
static void *php_sc_ext_config;

ZEND_EXT_TLS bool php_sc_serialized_parse_failed;

void php_sc_serialized_set_serializer(php_sc_ext_serialize_fn ser, php_sc_ext_unserialize_fn unser, void *config)
{
    if (ser && unser) {
        php_sc_ext_ser = ser;
        php_sc_ext_unser = unser;
        php_sc_ext_config = config;
    } else {
        php_sc_ext_ser = NULL;
        php_sc_ext_unser = NULL;
        php_sc_ext_config = NULL;
    }
}

bool php_sc_serialized_external(void)
{
    return php_sc_ext_ser != NULL;
}

/* Third-party serializer: 0x00, then its bytes. It raises what it raises
 * (igbinary throws for Closure, ...); a failure without an exception is a
 * silent refusal, as in APCu. */
static zend_result php_sc_serialized_encode_ext(zval *value, php_sc_encoded *out)
{
    unsigned char *buf = NULL;
    size_t len = 0;
    char *data;

    if (!php_sc_ext_ser(&buf, &len, value, php_sc_ext_config) || EG(exception) || (buf == NULL && len != 0)) {
        if (buf) {
            efree(buf);
        }
        return FAILURE;
    }
    data = emalloc(len + 1);
    data[0] = '\0';
    if (len) {
        memcpy(data + 1, buf, len);
    }
    if (buf) {
        efree(buf);
    }
    out->vtype = SC_V_SERIALIZED;
    out->owned_buf = data;
    out->data = data;
    out->len = len + 1;
    return SUCCESS;
}

zend_result php_sc_serialized_encode(zval *value, php_sc_encoded *out)
{
    smart_str buf = {0};
    php_serialize_data_t var_hash;

    if (php_sc_ext_ser) {
        return php_sc_serialized_encode_ext(value, out);
    }

    /* Own var_hash even when called from inside __sleep/__serialize. */
    BG(serialize_lock)++;
    PHP_VAR_SERIALIZE_INIT(var_hash);
    php_var_serialize(&buf, value, &var_hash);
    PHP_VAR_SERIALIZE_DESTROY(var_hash);
    BG(serialize_lock)--;

    if (EG(exception) || buf.s == NULL) {
        smart_str_free(&buf);
        return FAILURE;
    }
    smart_str_0(&buf); /* the NUL is part of the stored bytes */

    out->vtype = SC_V_SERIALIZED;
    out->owned_str = buf.s;
    out->data = ZSTR_VAL(buf.s);
    out->len = ZSTR_LEN(buf.s) + 1;
    return SUCCESS;
}

/* ---- decoder ------------------------------------------------------------- */

/* Third-party form: 0x00, then the apc.serializer's bytes. */
static zend_result php_sc_serialized_decode_ext(const char *data, size_t len, zval *out)
{
    ZVAL_NULL(out);
    if (!php_sc_ext_unser) {
        return FAILURE;
    }
    if (!php_sc_ext_unser(out, (unsigned char *) data + 1, len - 1, php_sc_ext_config)) {
        /* As in APCu: a failing unserializer has released what it built. */
        ZVAL_NULL(out);
        php_sc_serialized_parse_failed = true;
        return FAILURE;
    }
    if (EG(exception)) {
        zval_ptr_dtor(out);
        ZVAL_NULL(out);
        return FAILURE;
    }
    if (Z_ISREF_P(out)) {
        zval tmp;
        ZVAL_COPY(&tmp, Z_REFVAL_P(out));
        zval_ptr_dtor(out);
        ZVAL_COPY_VALUE(out, &tmp);
    }
    return SUCCESS;
}

zend_result php_sc_serialized_decode(const char *data, size_t len, zval *out)
{
    const unsigned char *start = (const unsigned char *) data;
    const unsigned char *p = start;
    php_unserialize_data_t var_hash;
    int ok;

    ZEND_ASSERT(len == 0 || data[0] != PHP_SC_OBJ_FORM);   /* the caller's: php/odec.c */
    ZVAL_NULL(out);
    if (len != 0 && data[0] == '\0') {
        return php_sc_serialized_decode_ext(data, len, out);
    }
    if (len == 0 || data[len - 1] != '\0') {
        return FAILURE;
    }
    len--; /* the NUL terminator is not part of the serialized text */

    BG(serialize_lock)++;
    PHP_VAR_UNSERIALIZE_INIT(var_hash);
    ok = php_var_unserialize(out, &p, start + len, &var_hash);
    if (!ok) {
        php_error_docref(NULL, E_NOTICE, "Error at offset %td of %zu bytes", (ptrdiff_t) (p - start), len);
        zval_ptr_dtor(out);
        ZVAL_NULL(out);
    }
    PHP_VAR_UNSERIALIZE_DESTROY(var_hash); /* runs delayed __wakeup/__unserialize */
    BG(serialize_lock)--;

    if (!ok) {
        /* A parse failure, with PHP's notice or an exception thrown during
         * the parse (an autoloader, Serializable::unserialize). */
        php_sc_serialized_parse_failed = true;
        return FAILURE;
    }
    if (EG(exception)) {
        /* Thrown by __wakeup / __unserialize, run after the parse. */
        zval_ptr_dtor(out);
        ZVAL_NULL(out);
        return FAILURE;
    }
    if (Z_ISREF_P(out)) {
        zval tmp;
        ZVAL_COPY(&tmp, Z_REFVAL_P(out));
        zval_ptr_dtor(out);
        ZVAL_COPY_VALUE(out, &tmp);
    }
    return SUCCESS;
}

zend_result php_sc_serialized_decode_php_text(const char *text, size_t len, zval *out)
{
    if (len == 0 || text[0] == '\0' || text[0] == PHP_SC_OBJ_FORM) {
        ZVAL_NULL(out);
        return FAILURE;
    }
    return php_sc_serialized_decode(text, len, out);
}
