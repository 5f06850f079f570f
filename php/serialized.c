/*
 * php/serialized.c - the serialized-value codec (php/serialized.h):
 * serialize() and unserialize(), or the third-party serializer that
 * apc.serializer names (php/serializer.c picks it at startup).
 *
 * Stored bytes (SC_V_SERIALIZED data): serialize() output and one NUL
 * byte, or the third-party form: 0x00, the serializer's name, 0x00, and
 * that serializer's output. Decoding goes to php_var_unserialize() as in
 * APCu, or to the unserializer of the serializer that the value names,
 * when this process has it (any serializer registered here, not only the
 * one in use); and may run user code (autoload, __wakeup, __unserialize).
 * A value that names a serializer this process does not have is one it
 * cannot read: on a named segment, which processes with another
 * apc.serializer may share, the core treats it as absent in every
 * function (php_sc_serialized_foreign, through sc_cache.unreadable), and
 * a fetch that meets it anyway is a miss.
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

/* The apc.serializer in use for values that must be serialized (NULL:
 * php serialize()), with its name; and the serializers this process
 * decodes with, that one first. Written only at module startup
 * (php_sc_serialized_set_serializer, php_sc_serialized_add_reader), read
 * afterwards. */
static php_sc_ext_serialize_fn php_sc_ext_ser;
static void *php_sc_ext_config;
static const char *php_sc_ext_name;
static size_t php_sc_ext_name_len;
/* Its values' first bytes (0x00, the name, 0x00) when they fit here, for
 * the decode of the commonest third-party values in one compare; else
 * php_sc_ext_head_len is 0. */
#define PHP_SC_EXT_HEAD_MAX 64
static char php_sc_ext_head[PHP_SC_EXT_HEAD_MAX];
static size_t php_sc_ext_head_len;

typedef struct php_sc_ext_reader {
    const char *name;       /* as registered: not empty, no NUL byte */
    size_t name_len;
    php_sc_ext_unserialize_fn unserialize;
    void *config;
} php_sc_ext_reader;

#define PHP_SC_EXT_READERS 24
static php_sc_ext_reader php_sc_ext_readers[PHP_SC_EXT_READERS];
static int php_sc_ext_nreaders;

ZEND_EXT_TLS bool php_sc_serialized_parse_failed;

void php_sc_serialized_set_serializer(const char *name, php_sc_ext_serialize_fn ser, php_sc_ext_unserialize_fn unser,
                                      void *config)
{
    php_sc_ext_ser = NULL;
    php_sc_ext_config = NULL;
    php_sc_ext_name = NULL;
    php_sc_ext_name_len = 0;
    php_sc_ext_head_len = 0;
    php_sc_ext_nreaders = 0;
    if (name && *name && ser && unser) {
        php_sc_ext_ser = ser;
        php_sc_ext_config = config;
        php_sc_ext_name = name;
        php_sc_ext_name_len = strlen(name);
        php_sc_serialized_add_reader(name, unser, config);
        if (php_sc_ext_name_len + 2 <= PHP_SC_EXT_HEAD_MAX) {
            php_sc_ext_head[0] = '\0';
            memcpy(php_sc_ext_head + 1, name, php_sc_ext_name_len);
            php_sc_ext_head[php_sc_ext_name_len + 1] = '\0';
            php_sc_ext_head_len = php_sc_ext_name_len + 2;
        }
    }
}

void php_sc_serialized_add_reader(const char *name, php_sc_ext_unserialize_fn unser, void *config)
{
    size_t len = name ? strlen(name) : 0;
    int i;

    if (len == 0 || !unser) {
        return;
    }
    for (i = 0; i < php_sc_ext_nreaders; i++) {
        if (php_sc_ext_readers[i].name_len == len && memcmp(php_sc_ext_readers[i].name, name, len) == 0) {
            return;   /* the first one of a name stays: the one in use comes first */
        }
    }
    if (php_sc_ext_nreaders < PHP_SC_EXT_READERS) {
        php_sc_ext_readers[php_sc_ext_nreaders].name = name;
        php_sc_ext_readers[php_sc_ext_nreaders].name_len = len;
        php_sc_ext_readers[php_sc_ext_nreaders].unserialize = unser;
        php_sc_ext_readers[php_sc_ext_nreaders].config = config;
        php_sc_ext_nreaders++;
    }
}

bool php_sc_serialized_external(void)
{
    return php_sc_ext_ser != NULL;
}

php_sc_obj_form_use php_sc_serialized_obj_form_use(void)
{
    if (php_sc_ext_ser == NULL) {
        return PHP_SC_OBJ_FORM_ANY;
    }
    if (php_sc_ext_name_len == 8 && memcmp(php_sc_ext_name, "igbinary", 8) == 0) {
        return PHP_SC_OBJ_FORM_NO_SHARED_REFS;
    }
    return PHP_SC_OBJ_FORM_NONE;
}

/* The serializer that the third-party form at data (len bytes, data[0] is
 * 0x00) names, or NULL when this process has none of that name (or the
 * bytes name none). Reads at most the bytes of the longest name it knows
 * and two more, whatever len is: the core calls it on entries under a
 * shard's lock, and on bytes that a writer may be changing. */
static const php_sc_ext_reader *php_sc_serialized_reader(const char *data, size_t len)
{
    int i;

    for (i = 0; i < php_sc_ext_nreaders; i++) {
        const php_sc_ext_reader *r = &php_sc_ext_readers[i];
        if (len >= r->name_len + 2 && data[1 + r->name_len] == '\0' && memcmp(data + 1, r->name, r->name_len) == 0) {
            return r;
        }
    }
    return NULL;
}

bool php_sc_serialized_foreign(const char *data, size_t len)
{
    return len != 0 && data[0] == '\0' && php_sc_serialized_reader(data, len) == NULL;
}

/* Third-party serializer: 0x00, its name, 0x00, then its bytes. It
 * raises what it raises (igbinary throws for Closure, ...); a failure
 * without an exception is a silent refusal, as in APCu. */
static zend_result php_sc_serialized_encode_ext(zval *value, php_sc_encoded *out)
{
    unsigned char *buf = NULL;
    size_t len = 0, head = php_sc_ext_name_len + 2;
    char *data;

    if (!php_sc_ext_ser(&buf, &len, value, php_sc_ext_config) || EG(exception) || (buf == NULL && len != 0)) {
        if (buf) {
            efree(buf);
        }
        return FAILURE;
    }
    data = safe_emalloc(1, len, head);
    data[0] = '\0';
    memcpy(data + 1, php_sc_ext_name, php_sc_ext_name_len);
    data[head - 1] = '\0';
    if (len) {
        memcpy(data + head, buf, len);
    }
    if (buf) {
        efree(buf);
    }
    out->vtype = SC_V_SERIALIZED;
    out->owned_buf = data;
    out->data = data;
    out->len = len + head;
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

/* Third-party form: 0x00, the serializer's name, 0x00, its bytes. A
 * serializer this process does not have cannot be parsed: a miss. */
static zend_result php_sc_serialized_decode_ext(const char *data, size_t len, zval *out)
{
    const php_sc_ext_reader *r;
    size_t head;

    /* The serializer in use (the first reader) first, in one compare. */
    if (EXPECTED(php_sc_ext_head_len != 0) && len >= php_sc_ext_head_len
        && memcmp(data, php_sc_ext_head, php_sc_ext_head_len) == 0) {
        ZEND_ASSERT(php_sc_ext_nreaders > 0);   /* set with the head (php_sc_serialized_set_serializer) */
        r = &php_sc_ext_readers[0];
    } else {
        r = php_sc_serialized_reader(data, len);
    }
    ZVAL_NULL(out);
    if (!r) {
        php_sc_serialized_parse_failed = true;
        return FAILURE;
    }
    head = r->name_len + 2;
    if (!r->unserialize(out, (unsigned char *) data + head, len - head, r->config)) {
        /* As in APCu: a failing unserializer has released what it built. */
        ZVAL_NULL(out);
        php_sc_serialized_parse_failed = true;
        return FAILURE;
    }
    return php_sc_serialized_finish(out);
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
    /* An exception thrown by __wakeup / __unserialize, run after the
     * parse, fails the decode. */
    return php_sc_serialized_finish(out);
}

zend_result php_sc_serialized_decode_php_text(const char *text, size_t len, zval *out)
{
    if (len == 0 || text[0] == '\0' || text[0] == PHP_SC_OBJ_FORM) {
        ZVAL_NULL(out);
        return FAILURE;
    }
    return php_sc_serialized_decode(text, len, out);
}
