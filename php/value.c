/*
 * php/value.c - value encoder (zval <-> bytes).
 *
 * The glue's side of every stored value (the core never sees a zval). It
 * turns a PHP value into a (vtype, scalar, bytes) triple that the cache
 * copies into shared memory, and turns such a triple back into a fresh
 * request-local zval. A decoded value never points into the bytes it came
 * from.
 *
 * Top level (sc_vtype): NULL/FALSE/TRUE no data; LONG scalar = the value;
 * DOUBLE scalar = the IEEE-754 bits; STRING data = the raw bytes; ARRAY
 * data = one value in the native format (tags PHP_SC_T_*); SERIALIZED
 * data = php serialize() output and one NUL byte, or 0x00 and a
 * third-party serializer's output (apc.serializer).
 *
 * What goes where: plain arrays (null, bool, int, float, string, arrays,
 * up to PHP_SC_VALUE_MAX_DEPTH levels) take the native format; arrays with
 * shared PHP references take its memo form (apc.serializer=default) or
 * serialize(); objects and anything else are serialize()d, as in APCu.
 *
 * Decode is defensive: every count and length is checked against the
 * bytes left, nesting is bounded, malformed input is refused with nothing
 * leaked; the native decode runs no user code. SERIALIZED data goes to
 * php_var_unserialize() as in APCu and may run user code.
 *
 * Format and rules: docs/internals.md#php_value
 */

#include "php.h"
#include "zend_smart_str.h"
#include "ext/standard/php_var.h"
#include "ext/standard/basic_functions.h"
#include "value.h"

#include <string.h>

#if defined(ZTS) && defined(COMPILE_DL_SHARDCACHE)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

#include "value_fmt.h"
#include "object.h"

/* ---- encoder ------------------------------------------------------------- */

/* The apc.serializer in use for values that must be serialized; NULL: php
 * serialize(). Written only at module startup (php_sc_value_set_serializer). */
static php_sc_ext_serialize_fn php_sc_ext_ser;
static php_sc_ext_unserialize_fn php_sc_ext_unser;
static void *php_sc_ext_config;

typedef struct php_sc_wbuf {
    char *buf;
    size_t len;
    size_t cap;
    bool kc_ready;
    zend_string *kc[PHP_SC_KEYSLOTS];
    /* memo form only: arrays and references seen, by address -> id */
    HashTable *memo_arrays;
    HashTable *memo_refs;
    /* the deepest non-empty array written (the top one is 1) */
    uint32_t max_depth;
} php_sc_wbuf;

/* Result of the native (SC_V_ARRAY) walk: OK, "give up, serialize it", or
 * "start over in the memo form" (a shared reference was met). */
#define PHP_SC_ENC_OK       0
#define PHP_SC_ENC_FALLBACK 1
#define PHP_SC_ENC_MEMO     2

/* apc.serializer=default: shared references take the memo form. Written
 * only at module startup (php_sc_value_set_native_refs). */
static bool php_sc_native_refs;

void php_sc_value_set_native_refs(bool on)
{
    php_sc_native_refs = on;
}


static void php_sc_wbuf_grow(php_sc_wbuf *w, size_t need)
{
    size_t cap = w->cap ? w->cap : 64;
    while (cap - w->len < need) {
        cap *= 2;
    }
    w->buf = erealloc(w->buf, cap);
    w->cap = cap;
}

static zend_always_inline char *php_sc_wbuf_reserve(php_sc_wbuf *w, size_t need)
{
    if (UNEXPECTED(w->cap - w->len < need)) {
        php_sc_wbuf_grow(w, need);
    }
    return w->buf + w->len;
}

static zend_always_inline void php_sc_put_u8(php_sc_wbuf *w, uint8_t v)
{
    *php_sc_wbuf_reserve(w, 1) = (char) v;
    w->len += 1;
}

static zend_always_inline void php_sc_put_long(php_sc_wbuf *w, zend_long lv, uint8_t t8, uint8_t t32, uint8_t t64)
{
    w->len += php_sc_fmt_put_long(php_sc_wbuf_reserve(w, 9), lv, t8, t32, t64);
}

/* Memo form: the id of ptr in table, or (first time) a new id and -1. */
static zend_always_inline zend_long php_sc_memo_id(HashTable *table, const void *ptr)
{
    zval *found = zend_hash_index_find(table, (zend_ulong) (uintptr_t) ptr);
    zval id;

    if (found) {
        return Z_LVAL_P(found);
    }
    ZVAL_LONG(&id, (zend_long) zend_hash_num_elements(table));
    zend_hash_index_add_new(table, (zend_ulong) (uintptr_t) ptr, &id);
    return -1;
}

static zend_always_inline void php_sc_put_id(php_sc_wbuf *w, uint8_t tag, zend_long id)
{
    char *p = php_sc_wbuf_reserve(w, 5);
    p[0] = (char) tag;
    php_sc_store_u32(p + 1, (uint32_t) id);
    w->len += 5;
}

/* Writes a length-prefixed byte string with tag t8 (u8 length) or t32 (u32 length). */
static zend_always_inline int php_sc_put_bytes(php_sc_wbuf *w, const char *s, size_t n, uint8_t t8, uint8_t t32)
{
    char *p;
    if (n <= UINT8_MAX) {
        p = php_sc_wbuf_reserve(w, 2 + n);
        p[0] = (char) t8;
        p[1] = (char) (uint8_t) n;
        memcpy(p + 2, s, n);
        w->len += 2 + n;
        return PHP_SC_ENC_OK;
    }
    if (n > UINT32_MAX) {
        return PHP_SC_ENC_FALLBACK;
    }
    p = php_sc_wbuf_reserve(w, 5 + n);
    p[0] = (char) t32;
    php_sc_store_u32(p + 1, (uint32_t) n);
    memcpy(p + 5, s, n);
    w->len += 5 + n;
    return PHP_SC_ENC_OK;
}

/* String key: tag, length, the zend hash (so decode need not rehash), bytes. */
static zend_always_inline int php_sc_put_key(php_sc_wbuf *w, zend_string *key, uint32_t depth)
{
    size_t n = ZSTR_LEN(key);
    zend_ulong h = zend_string_hash_val(key);
    char *p;
    if (depth > 1 && n > 1) {
        uint32_t slot = php_sc_key_slot(h);
        zend_string *k;
        if (!w->kc_ready) {
            memset(w->kc, 0, sizeof(w->kc));
            w->kc_ready = 1;
        }
        k = w->kc[slot];
        if (k && (k == key || zend_string_equal_content(k, key))) {
            p = php_sc_wbuf_reserve(w, 2);
            p[0] = (char) PHP_SC_K_SLOT;
            p[1] = (char) (uint8_t) slot;
            w->len += 2;
            return PHP_SC_ENC_OK;
        }
        w->kc[slot] = key;
    }
    if (n <= UINT8_MAX) {
        p = php_sc_wbuf_reserve(w, 10 + n);
        p[0] = (char) PHP_SC_K_STR8;
        p[1] = (char) (uint8_t) n;
        php_sc_store_u64(p + 2, (uint64_t) h);
        memcpy(p + 10, ZSTR_VAL(key), n);
        w->len += 10 + n;
        return PHP_SC_ENC_OK;
    }
    if (n > UINT32_MAX) {
        return PHP_SC_ENC_FALLBACK;
    }
    p = php_sc_wbuf_reserve(w, 13 + n);
    p[0] = (char) PHP_SC_K_STR32;
    php_sc_store_u32(p + 1, (uint32_t) n);
    php_sc_store_u64(p + 5, (uint64_t) h);
    memcpy(p + 13, ZSTR_VAL(key), n);
    w->len += 13 + n;
    return PHP_SC_ENC_OK;
}

static int php_sc_enc_array(php_sc_wbuf *w, HashTable *ht, uint32_t depth);

static int php_sc_enc_zval(php_sc_wbuf *w, zval *zv, uint32_t depth)
{
again:
    switch (Z_TYPE_P(zv)) {
        case IS_NULL:
            php_sc_put_u8(w, PHP_SC_T_NULL);
            return PHP_SC_ENC_OK;
        case IS_FALSE:
            php_sc_put_u8(w, PHP_SC_T_FALSE);
            return PHP_SC_ENC_OK;
        case IS_TRUE:
            php_sc_put_u8(w, PHP_SC_T_TRUE);
            return PHP_SC_ENC_OK;
        case IS_LONG:
            php_sc_put_long(w, Z_LVAL_P(zv), PHP_SC_T_I8, PHP_SC_T_I32, PHP_SC_T_I64);
            return PHP_SC_ENC_OK;
        case IS_DOUBLE: {
            uint64_t bits;
            char *p = php_sc_wbuf_reserve(w, 9);
            double d = Z_DVAL_P(zv);
            memcpy(&bits, &d, 8);
            p[0] = (char) PHP_SC_T_DOUBLE;
            php_sc_store_u64(p + 1, bits);
            w->len += 9;
            return PHP_SC_ENC_OK;
        }
        case IS_STRING:
            return php_sc_put_bytes(w, Z_STRVAL_P(zv), Z_STRLEN_P(zv), PHP_SC_T_STR8, PHP_SC_T_STR32);
        case IS_ARRAY:
            return php_sc_enc_array(w, Z_ARRVAL_P(zv), depth + 1);
        case IS_REFERENCE:
            /* A reference only its holder sees is a plain value to serialize()
             * too; any other reference may be shared inside the value. */
            if (Z_REFCOUNT_P(zv) != 1) {
                zend_long id;
                if (!w->memo_refs) {
                    return php_sc_native_refs ? PHP_SC_ENC_MEMO : PHP_SC_ENC_FALLBACK;
                }
                id = php_sc_memo_id(w->memo_refs, Z_REF_P(zv));
                if (id >= 0) {
                    php_sc_put_id(w, PHP_SC_T_REFID, id);
                    return PHP_SC_ENC_OK;
                }
                php_sc_put_u8(w, PHP_SC_T_REF);
                return php_sc_enc_zval(w, Z_REFVAL_P(zv), depth);
            }
            zv = Z_REFVAL_P(zv);
            goto again;
        case IS_RESOURCE:
            /* What the native format cannot hold goes to the serializer in
             * use, as with APCu: igbinary (with its notice) gives NULL. */
            if (php_sc_ext_ser) {
                return PHP_SC_ENC_FALLBACK;
            }
            /* serialize() writes resources as i:0; APCu fetches int(0). */
            php_sc_put_u8(w, PHP_SC_T_I8);
            php_sc_put_u8(w, 0);
            return PHP_SC_ENC_OK;
        default: /* IS_OBJECT, IS_INDIRECT, anything unexpected */
            return PHP_SC_ENC_FALLBACK;
    }
}

static int php_sc_enc_array(php_sc_wbuf *w, HashTable *ht, uint32_t depth)
{
    uint32_t n = zend_hash_num_elements(ht);
    zend_ulong h;
    zend_string *key;
    zval *val;
    char *p;

    if (depth > PHP_SC_VALUE_MAX_DEPTH) {
        return PHP_SC_ENC_FALLBACK;
    }
    if (w->memo_arrays) {
        zend_long id = php_sc_memo_id(w->memo_arrays, ht);
        if (id >= 0) {
            php_sc_put_id(w, PHP_SC_T_ARRID, id);
            return PHP_SC_ENC_OK;
        }
    }

    p = php_sc_wbuf_reserve(w, 5);
    php_sc_store_u32(p + 1, n);
    w->len += 5;

    if (n == 0) {
        p[0] = (char) PHP_SC_T_LIST;
        return PHP_SC_ENC_OK;
    }
    if (depth > w->max_depth) {
        w->max_depth = depth;
    }

    if (zend_array_is_list(ht)) {
        p[0] = (char) PHP_SC_T_LIST;
        ZEND_HASH_FOREACH_VAL(ht, val) {
            int rc = php_sc_enc_zval(w, val, depth);
            if (rc != PHP_SC_ENC_OK) {
                return rc;
            }
        } ZEND_HASH_FOREACH_END();
        return PHP_SC_ENC_OK;
    }

    p[0] = (char) PHP_SC_T_HASH;
    ZEND_HASH_FOREACH_KEY_VAL(ht, h, key, val) {
        int rc;
        if (key) {
            if (php_sc_put_key(w, key, depth) != PHP_SC_ENC_OK) {
                return PHP_SC_ENC_FALLBACK;
            }
        } else {
            php_sc_put_long(w, (zend_long) h, 0, PHP_SC_K_I32, PHP_SC_K_I64);
        }
        rc = php_sc_enc_zval(w, val, depth);
        if (rc != PHP_SC_ENC_OK) {
            return rc;
        }
    } ZEND_HASH_FOREACH_END();
    return PHP_SC_ENC_OK;
}


bool php_sc_value_plain_encode(HashTable *ht, char **buf, size_t *len, size_t *cap, uint32_t *depth)
{
    php_sc_wbuf w;
    int rc;

    w.buf = *buf;
    w.len = *len;
    w.cap = *cap;
    w.kc_ready = 0;
    w.memo_arrays = NULL;
    w.memo_refs = NULL;
    w.max_depth = 0;
    rc = php_sc_enc_array(&w, ht, 1);
    *depth = w.max_depth;
    *buf = w.buf;
    *cap = w.cap;
    if (rc != PHP_SC_ENC_OK) {
        return false;   /* *len unchanged: what was written is dropped */
    }
    *len = w.len;
    return true;
}

void php_sc_value_set_serializer(php_sc_ext_serialize_fn ser, php_sc_ext_unserialize_fn unser, void *config)
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

/* Third-party serializer: 0x00, then its bytes. It raises what it raises
 * (igbinary throws for Closure, ...); a failure without an exception is a
 * silent refusal, as in APCu. */
static zend_result php_sc_value_serialize_ext(zval *value, php_sc_encoded *out)
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

static zend_result php_sc_value_serialize(zval *value, php_sc_encoded *out)
{
    smart_str buf = {0};
    php_serialize_data_t var_hash;

    if (php_sc_ext_ser) {
        return php_sc_value_serialize_ext(value, out);
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
        case IS_ARRAY: {
            HashTable *ht = Z_ARRVAL_P(value);
            php_sc_wbuf w;
            int rc;
            w.len = 0;
            w.kc_ready = 0;
            w.memo_arrays = NULL;
            w.memo_refs = NULL;
            w.max_depth = 0;
            w.cap = 32 + (size_t) zend_hash_num_elements(ht) * 16;
            w.buf = emalloc(w.cap);
            rc = php_sc_enc_array(&w, ht, 1);
            if (rc == PHP_SC_ENC_MEMO) {
                /* Shared references: again, keeping identities. */
                HashTable arrays, refs;
                zend_hash_init(&arrays, 8, NULL, NULL, 0);
                zend_hash_init(&refs, 8, NULL, NULL, 0);
                w.memo_arrays = &arrays;
                w.memo_refs = &refs;
                w.len = 0;
                w.kc_ready = 0;
                php_sc_put_u8(&w, PHP_SC_T_MEMO);
                rc = php_sc_enc_array(&w, ht, 1);
                zend_hash_destroy(&arrays);
                zend_hash_destroy(&refs);
            }
            if (rc == PHP_SC_ENC_OK) {
                out->vtype = SC_V_ARRAY;
                out->owned_buf = w.buf;
                out->data = w.buf;
                out->len = w.len;
                return SUCCESS;
            }
            efree(w.buf);
            /* Objects or shared references inside: the object form keeps
             * them as unserialize() would give them back. */
            if (!php_sc_ext_ser && php_sc_obj_encode(value, out)) {
                return SUCCESS;
            }
            return php_sc_value_serialize(value, out);
        }
        case IS_OBJECT:
            if (!php_sc_ext_ser && php_sc_obj_encode(value, out)) {
                return SUCCESS;
            }
            return php_sc_value_serialize(value, out);
        default: /* serialize() decides */
            return php_sc_value_serialize(value, out);
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

/* ---- decoder ------------------------------------------------------------- */

/* Memo form: what array #id / reference #id decoded to (borrowed: the
 * decoded value holds them), and whether array #id is complete. */
typedef struct php_sc_memo_in {
    zval *arrays;
    bool *done;
    uint32_t narrays, arrays_cap;
    zend_reference **refs;
    uint32_t nrefs, refs_cap;
} php_sc_memo_in;

typedef struct php_sc_rbuf {
    const unsigned char *p;
    const unsigned char *end;
    bool kc_ready;
    zend_string *kc[PHP_SC_KEYSLOTS]; /* see PHP_SC_KEYSLOTS */
    php_sc_memo_in *memo;             /* NULL unless the memo form */
    bool in_ref;                  /* decoding the value of a ref */
} php_sc_rbuf;

#define PHP_SC_LEFT(r) ((size_t) ((r)->end - (r)->p))

static zend_always_inline int php_sc_i64_to_long(int64_t v, zend_long *out)
{
#if SIZEOF_ZEND_LONG < 8
    if (v < ZEND_LONG_MIN || v > ZEND_LONG_MAX) {
        return 0;
    }
#endif
    *out = (zend_long) v;
    return 1;
}

static zend_result php_sc_dec_list(php_sc_rbuf *r, zval *out, uint32_t depth);
static zend_result php_sc_dec_hash(php_sc_rbuf *r, zval *out, uint32_t depth);

static zend_result php_sc_dec_value(php_sc_rbuf *r, zval *out, uint32_t depth);

/* Memo form: array out (just made, not filled yet) gets the next id. */
static uint32_t php_sc_memo_add_array(php_sc_rbuf *r, zval *out)
{
    php_sc_memo_in *m = r->memo;

    if (m->narrays == m->arrays_cap) {
        m->arrays_cap = m->arrays_cap ? m->arrays_cap * 2 : 8;
        m->arrays = safe_erealloc(m->arrays, m->arrays_cap, sizeof(zval), 0);
        m->done = safe_erealloc(m->done, m->arrays_cap, sizeof(bool), 0);
    }
    ZVAL_COPY_VALUE(&m->arrays[m->narrays], out);
    m->done[m->narrays] = false;
    return m->narrays++;
}

static zend_always_inline int php_sc_dec_id(php_sc_rbuf *r, uint32_t limit, uint32_t *id)
{
    if (PHP_SC_LEFT(r) < 4) {
        return 0;
    }
    *id = php_sc_load_u32(r->p);
    r->p += 4;
    return *id < limit;
}

/* PHP_SC_T_REF, PHP_SC_T_REFID, PHP_SC_T_ARRID (memo form only). */
static zend_result php_sc_dec_memo_value(php_sc_rbuf *r, unsigned char tag, zval *out, uint32_t depth)
{
    php_sc_memo_in *m = r->memo;
    uint32_t id;

    if (!m) {
        return FAILURE;
    }
    switch (tag) {
        case PHP_SC_T_REF: {
            zend_reference *ref;
            zend_result rc;
            bool outer = r->in_ref;
            if (outer) {
                return FAILURE; /* a reference never holds a reference */
            }
            ZVAL_NEW_EMPTY_REF(out);
            ref = Z_REF_P(out);
            ZVAL_NULL(&ref->val);
            if (m->nrefs == m->refs_cap) {
                m->refs_cap = m->refs_cap ? m->refs_cap * 2 : 8;
                m->refs = safe_erealloc(m->refs, m->refs_cap, sizeof(zend_reference *), 0);
            }
            m->refs[m->nrefs++] = ref;
            r->in_ref = true;
            rc = php_sc_dec_value(r, &ref->val, depth);
            r->in_ref = false;
            if (rc != SUCCESS) {
                ZVAL_NULL(&ref->val);
                zval_ptr_dtor(out);
                return FAILURE;
            }
            return SUCCESS;
        }
        case PHP_SC_T_REFID:
            if (r->in_ref || !php_sc_dec_id(r, m->nrefs, &id)) {
                return FAILURE;
            }
            GC_ADDREF(m->refs[id]);
            ZVAL_REF(out, m->refs[id]);
            return SUCCESS;
        case PHP_SC_T_ARRID:
            /* An array still being built only as a reference's value. */
            if (!php_sc_dec_id(r, m->narrays, &id) || (!m->done[id] && !r->in_ref)) {
                return FAILURE;
            }
            ZVAL_COPY(out, &m->arrays[id]);
            return SUCCESS;
        default:
            return FAILURE;
    }
}

/* Reads a length (u8 or u32 per tag) and checks the bytes are there. */
static zend_always_inline int php_sc_dec_len(php_sc_rbuf *r, int wide, size_t *len)
{
    size_t n;
    if (wide) {
        if (PHP_SC_LEFT(r) < 4) {
            return 0;
        }
        n = php_sc_load_u32(r->p);
        r->p += 4;
    } else {
        if (PHP_SC_LEFT(r) < 1) {
            return 0;
        }
        n = *r->p++;
    }
    if (PHP_SC_LEFT(r) < n) {
        return 0;
    }
    *len = n;
    return 1;
}

/* Reads a string key (after its tag) into a new reference in *key. */
static zend_always_inline int php_sc_dec_key_str(php_sc_rbuf *r, int wide, uint32_t depth, zend_string **key)
{
    size_t n;
    zend_ulong h;
    const char *s;
    zend_string *k, **slot = NULL;

    if (wide) {
        if (PHP_SC_LEFT(r) < 12) {
            return 0;
        }
        n = php_sc_load_u32(r->p);
        r->p += 4;
    } else {
        if (PHP_SC_LEFT(r) < 9) {
            return 0;
        }
        n = *r->p++;
    }
    h = (zend_ulong) php_sc_load_u64(r->p);
    r->p += 8;
    if (PHP_SC_LEFT(r) < n) {
        return 0;
    }
    s = (const char *) r->p;
    r->p += n;

    if (n <= 1) {
        *key = zend_string_init_fast(s, n); /* interned, hash already set */
        return 1;
    }
    if (depth > 1) {
        if (!r->kc_ready) {
            memset(r->kc, 0, sizeof(r->kc));
            r->kc_ready = 1;
        }
        slot = &r->kc[php_sc_key_slot(h)];
    }
    k = zend_string_alloc(n, 0);
    memcpy(ZSTR_VAL(k), s, n);
    ZSTR_VAL(k)[n] = '\0';
    /* The stored hash is trusted: a wrong one (corrupt input) can only make
     * the key unfindable, never unsafe. 0 means "compute it". */
    ZSTR_H(k) = h;
    if (slot) {
        *slot = k;
    }
    *key = k;
    return 1;
}

static zend_result php_sc_dec_value(php_sc_rbuf *r, zval *out, uint32_t depth)
{
    unsigned char tag;
    size_t n;

    if (UNEXPECTED(r->p >= r->end)) {
        return FAILURE;
    }
    tag = *r->p++;
    switch (tag) {
        case PHP_SC_T_NULL:
            ZVAL_NULL(out);
            return SUCCESS;
        case PHP_SC_T_FALSE:
            ZVAL_FALSE(out);
            return SUCCESS;
        case PHP_SC_T_TRUE:
            ZVAL_TRUE(out);
            return SUCCESS;
        case PHP_SC_T_I8:
            if (PHP_SC_LEFT(r) < 1) {
                return FAILURE;
            }
            ZVAL_LONG(out, (zend_long) (int8_t) *r->p);
            r->p += 1;
            return SUCCESS;
        case PHP_SC_T_I32:
            if (PHP_SC_LEFT(r) < 4) {
                return FAILURE;
            }
            ZVAL_LONG(out, (zend_long) (int32_t) php_sc_load_u32(r->p));
            r->p += 4;
            return SUCCESS;
        case PHP_SC_T_I64: {
            zend_long lv;
            if (PHP_SC_LEFT(r) < 8 || !php_sc_i64_to_long((int64_t) php_sc_load_u64(r->p), &lv)) {
                return FAILURE;
            }
            ZVAL_LONG(out, lv);
            r->p += 8;
            return SUCCESS;
        }
        case PHP_SC_T_DOUBLE: {
            uint64_t bits;
            double d;
            if (PHP_SC_LEFT(r) < 8) {
                return FAILURE;
            }
            bits = php_sc_load_u64(r->p);
            memcpy(&d, &bits, 8);
            ZVAL_DOUBLE(out, d);
            r->p += 8;
            return SUCCESS;
        }
        case PHP_SC_T_STR8:
        case PHP_SC_T_STR32:
            if (!php_sc_dec_len(r, tag == PHP_SC_T_STR32, &n)) {
                return FAILURE;
            }
            ZVAL_STR(out, zend_string_init_fast((const char *) r->p, n));
            r->p += n;
            return SUCCESS;
        case PHP_SC_T_LIST:
        case PHP_SC_T_HASH: {
            zend_result rc;
            bool in_ref = r->in_ref;
            r->in_ref = false; /* the elements are not the ref's value */
            rc = tag == PHP_SC_T_LIST ? php_sc_dec_list(r, out, depth + 1) : php_sc_dec_hash(r, out, depth + 1);
            r->in_ref = in_ref;
            return rc;
        }
        case PHP_SC_T_REF:
        case PHP_SC_T_REFID:
        case PHP_SC_T_ARRID:
            return php_sc_dec_memo_value(r, tag, out, depth);
        default:
            return FAILURE;
    }
}

/* Reads the u32 element count of a list/hash and bounds it by the input left
 * (min_elem_size bytes per element) and by what a HashTable can hold. */
static zend_always_inline int php_sc_dec_count(php_sc_rbuf *r, size_t min_elem_size, uint32_t *count)
{
    uint32_t n;
    if (PHP_SC_LEFT(r) < 4) {
        return 0;
    }
    n = php_sc_load_u32(r->p);
    r->p += 4;
    if ((size_t) n > PHP_SC_LEFT(r) / min_elem_size || n > HT_MAX_SIZE) {
        return 0;
    }
    *count = n;
    return 1;
}

/* What php_sc_dec_array_open found. */
typedef enum php_sc_dec_open {
    PHP_SC_DEC_OPEN_FAILED,   /* too deep or a count the input cannot hold */
    PHP_SC_DEC_OPEN_EMPTY,    /* an empty array, already in out: nothing to read */
    PHP_SC_DEC_OPEN_FILL      /* out is a real array sized for *n: fill it */
} php_sc_dec_open;

/* The start shared by lists and hashes: the depth check, the element count
 * (each element takes at least min_elem_size bytes of input), the array
 * itself (packed or mixed) and its place in the reference memo (*memo_id,
 * for php_sc_dec_array_close). */
static zend_always_inline php_sc_dec_open php_sc_dec_array_open(php_sc_rbuf *r, zval *out, uint32_t depth, size_t min_elem_size,
                                                        bool packed, uint32_t *n, uint32_t *memo_id)
{
    *memo_id = 0;
    if (depth > PHP_SC_VALUE_MAX_DEPTH || !php_sc_dec_count(r, min_elem_size, n)) {
        return PHP_SC_DEC_OPEN_FAILED;
    }
    if (*n == 0) {
        ZVAL_EMPTY_ARRAY(out);
        if (r->memo) {
            r->memo->done[php_sc_memo_add_array(r, out)] = true;
        }
        return PHP_SC_DEC_OPEN_EMPTY;
    }
    array_init_size(out, *n);
    if (packed) {
        zend_hash_real_init_packed(Z_ARRVAL_P(out));
    } else {
        zend_hash_real_init_mixed(Z_ARRVAL_P(out));
    }
    if (r->memo) {
        *memo_id = php_sc_memo_add_array(r, out);
    }
    return PHP_SC_DEC_OPEN_FILL;
}

/* The end shared by lists and hashes: a finished array is marked done in
 * the memo; a failed one is released and out left null. */
static zend_result php_sc_dec_array_close(php_sc_rbuf *r, zval *out, uint32_t memo_id, zend_result rc)
{
    if (rc != SUCCESS) {
        zval_ptr_dtor(out);
        ZVAL_NULL(out);
    } else if (r->memo) {
        r->memo->done[memo_id] = true;
    }
    return rc;
}

/* The elements most arrays hold, read in place: small ints and short strings
 * skip the call to php_sc_dec_value, its frame and its jump table (one call per
 * element was a third of a 100-element array's decode). Anything else, or an
 * input that ends early, returns false with nothing read, and the caller
 * takes php_sc_dec_value, which does every check again. */
static zend_always_inline bool php_sc_dec_common_value(php_sc_rbuf *r, zval *out)
{
    const unsigned char *p = r->p;
    size_t left = (size_t) (r->end - p);
    size_t n;

    if (UNEXPECTED(left < 2)) {
        return false;
    }
    if (p[0] == PHP_SC_T_I8) {
        ZVAL_LONG(out, (zend_long) (int8_t) p[1]);
        r->p = p + 2;
        return true;
    }
    if (p[0] == PHP_SC_T_I32 && left >= 5) {
        ZVAL_LONG(out, (zend_long) (int32_t) php_sc_load_u32(p + 1));
        r->p = p + 5;
        return true;
    }
    if (p[0] == PHP_SC_T_STR8 && (n = p[1]) <= left - 2) {
        ZVAL_STR(out, zend_string_init_fast((const char *) p + 2, n));
        r->p = p + 2 + n;
        return true;
    }
    return false;
}

/* One element of a list or hash: the common ones in place, the rest
 * through php_sc_dec_value. */
static zend_always_inline zend_result php_sc_dec_element(php_sc_rbuf *r, zval *out, uint32_t depth)
{
    return php_sc_dec_common_value(r, out) ? SUCCESS : php_sc_dec_value(r, out, depth);
}

static zend_result php_sc_dec_list(php_sc_rbuf *r, zval *out, uint32_t depth)
{
    php_sc_dec_open opened;
    uint32_t n, i, id;
    HashTable *ht;
    zend_result rc = SUCCESS;

    if ((opened = php_sc_dec_array_open(r, out, depth, 1, true, &n, &id)) != PHP_SC_DEC_OPEN_FILL) {
        return opened == PHP_SC_DEC_OPEN_EMPTY ? SUCCESS : FAILURE;
    }
    ht = Z_ARRVAL_P(out);
    ZEND_HASH_FILL_PACKED(ht) {
        for (i = 0; i < n; i++) {
            zval tmp;
            if (UNEXPECTED(php_sc_dec_element(r, &tmp, depth) != SUCCESS)) {
                rc = FAILURE;
                break;
            }
            ZEND_HASH_FILL_ADD(&tmp);
        }
    } ZEND_HASH_FILL_END();

    return php_sc_dec_array_close(r, out, id, rc);
}


/* Int keys are checked for duplicates (a corrupt input must not reach the
 * engine's add_new assertion in debug builds); string keys are appended
 * unchecked for speed: a duplicate string key in corrupt input gives an odd
 * but memory-safe array. */
static zend_always_inline int php_sc_add_index(HashTable *ht, zend_long h, zval *val)
{
    if (UNEXPECTED(zend_hash_index_add(ht, (zend_ulong) h, val) == NULL)) {
        zval_ptr_dtor(val);
        return 0;
    }
    return 1;
}

static zend_result php_sc_dec_hash(php_sc_rbuf *r, zval *out, uint32_t depth)
{
    php_sc_dec_open opened;
    uint32_t n, i, id;
    HashTable *ht;

    if ((opened = php_sc_dec_array_open(r, out, depth, 2, false, &n, &id)) != PHP_SC_DEC_OPEN_FILL) {
        return opened == PHP_SC_DEC_OPEN_EMPTY ? SUCCESS : FAILURE;
    }
    ht = Z_ARRVAL_P(out);

    /* Exactly n inserts into a table sized for >= n: no resize ever happens,
     * which _zend_hash_append relies on. */
    for (i = 0; i < n; i++) {
        zval tmp;
        unsigned char ktag;

        if (PHP_SC_LEFT(r) < 1) {
            goto fail;
        }
        ktag = *r->p++;
        switch (ktag) {
            case PHP_SC_K_I32: {
                zend_long h;
                if (PHP_SC_LEFT(r) < 4) {
                    goto fail;
                }
                h = (zend_long) (int32_t) php_sc_load_u32(r->p);
                r->p += 4;
                if (php_sc_dec_element(r, &tmp, depth) != SUCCESS) {
                    goto fail;
                }
                if (!php_sc_add_index(ht, h, &tmp)) {
                    goto fail;
                }
                break;
            }
            case PHP_SC_K_I64: {
                zend_long h;
                if (PHP_SC_LEFT(r) < 8 || !php_sc_i64_to_long((int64_t) php_sc_load_u64(r->p), &h)) {
                    goto fail;
                }
                r->p += 8;
                if (php_sc_dec_element(r, &tmp, depth) != SUCCESS) {
                    goto fail;
                }
                if (!php_sc_add_index(ht, h, &tmp)) {
                    goto fail;
                }
                break;
            }
            case PHP_SC_K_STR8:
            case PHP_SC_K_STR32: {
                zend_string *key;
                if (!php_sc_dec_key_str(r, ktag == PHP_SC_K_STR32, depth, &key)) {
                    goto fail;
                }
                if (php_sc_dec_element(r, &tmp, depth) != SUCCESS) {
                    zend_string_release(key);
                    goto fail;
                }
                _zend_hash_append(ht, key, &tmp);
                zend_string_release(key);
                break;
            }
            case PHP_SC_K_SLOT: {
                zend_string *key;
                if (PHP_SC_LEFT(r) < 1 || !r->kc_ready || depth < 2 || *r->p >= PHP_SC_KEYSLOTS
                        || (key = r->kc[*r->p]) == NULL) {
                    goto fail;
                }
                r->p++;
                if (php_sc_dec_element(r, &tmp, depth) != SUCCESS) {
                    goto fail;
                }
                _zend_hash_append(ht, key, &tmp); /* takes its own reference */
                break;
            }
            default:
                goto fail;
        }
    }
    return php_sc_dec_array_close(r, out, id, SUCCESS);

fail:
    return php_sc_dec_array_close(r, out, id, FAILURE);
}

/* Set by the decoders below when serialized bytes could not be parsed
 * (see php_sc_value_decode_ex); saved and restored around each decode, so
 * that a fetch made by user code inside one decode does not set it for
 * the outer one. */
ZEND_TLS bool php_sc_parse_failed;

/* Third-party form: 0x00, then the apc.serializer's bytes. */
static zend_result php_sc_dec_serialized_ext(const char *data, size_t len, zval *out)
{
    ZVAL_NULL(out);
    if (!php_sc_ext_unser) {
        return FAILURE;
    }
    if (!php_sc_ext_unser(out, (unsigned char *) data + 1, len - 1, php_sc_ext_config)) {
        /* As in APCu: a failing unserializer has released what it built. */
        ZVAL_NULL(out);
        php_sc_parse_failed = true;
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

static zend_result php_sc_dec_serialized(const char *data, size_t len, zval *out)
{
    const unsigned char *start = (const unsigned char *) data;
    const unsigned char *p = start;
    php_unserialize_data_t var_hash;
    int ok;

    ZVAL_NULL(out);
    if (len != 0 && data[0] == '\0') {
        return php_sc_dec_serialized_ext(data, len, out);
    }
    if (len != 0 && data[0] == PHP_SC_OBJ_FORM) {
        return php_sc_obj_decode(data, len, out);
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
        php_sc_parse_failed = true;
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

zend_result php_sc_value_decode_php_text(const char *text, size_t len, zval *out)
{
    if (len == 0 || text[0] == '\0' || text[0] == PHP_SC_OBJ_FORM) {
        ZVAL_NULL(out);
        return FAILURE;
    }
    return php_sc_dec_serialized(text, len, out);
}

zend_result php_sc_value_plain_decode(const unsigned char **p, const unsigned char *end, zval *out)
{
    php_sc_rbuf r;
    zend_result rc;

    r.p = *p;
    r.end = end;
    r.kc_ready = 0;
    r.memo = NULL;
    r.in_ref = false;
    if (r.p >= r.end || (*r.p != PHP_SC_T_LIST && *r.p != PHP_SC_T_HASH)) {
        ZVAL_NULL(out);
        return FAILURE;
    }
    rc = php_sc_dec_value(&r, out, 0);
    if (rc != SUCCESS) {
        ZVAL_NULL(out);
        return FAILURE;
    }
    *p = r.p;
    return SUCCESS;
}

zend_result php_sc_value_decode_ex(uint8_t vtype, int64_t scalar, const char *data, size_t len, zval *out,
                                   bool *parse_failed)
{
    bool saved = php_sc_parse_failed;
    zend_result rc;

    php_sc_parse_failed = false;
    rc = php_sc_value_decode(vtype, scalar, data, len, out);
    *parse_failed = rc != SUCCESS && php_sc_parse_failed;
    php_sc_parse_failed = saved;
    return rc;
}

zend_result php_sc_value_decode_zc_object(const char *data, size_t len, zval *out, const char *zc_hdr, size_t zc_len,
                                          bool borrow, bool *parse_failed)
{
    bool saved = php_sc_parse_failed;
    zend_result rc;

    php_sc_parse_failed = false;
    rc = php_sc_obj_decode_zc(data, len, out, zc_hdr, zc_len, borrow);
    *parse_failed = rc != SUCCESS && php_sc_parse_failed;
    php_sc_parse_failed = saved;
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
        case SC_V_ARRAY: {
            php_sc_rbuf r;
            php_sc_memo_in memo;
            zend_result rc;
            if (data == NULL || len < 1) {
                break;
            }
            r.p = (const unsigned char *) data;
            r.end = r.p + len;
            r.kc_ready = 0;
            r.memo = NULL;
            r.in_ref = false;
            if (*r.p == PHP_SC_T_MEMO) {
                memset(&memo, 0, sizeof(memo));
                r.memo = &memo;
                r.p++;
            }
            /* Only an array may sit at the top, and nothing after it. */
            rc = r.p < r.end && (*r.p == PHP_SC_T_LIST || *r.p == PHP_SC_T_HASH) ? php_sc_dec_value(&r, out, 0) : FAILURE;
            if (rc == SUCCESS && r.p != r.end) {
                zval_ptr_dtor(out);
                rc = FAILURE;
            }
            if (r.memo) {
                if (memo.arrays) {
                    efree(memo.arrays);
                    efree(memo.done);
                }
                if (memo.refs) {
                    efree(memo.refs);
                }
            }
            if (rc != SUCCESS) {
                break;
            }
            return SUCCESS;
        }
        case SC_V_SERIALIZED:
            if (data == NULL) {
                break;
            }
            if (len != 0 && data[0] == PHP_SC_OBJ_FORM) {
                return php_sc_obj_decode(data, len, out);
            }
            return php_sc_dec_serialized(data, len, out);
        default:
            break;
    }
    ZVAL_NULL(out);
    return FAILURE;
}
