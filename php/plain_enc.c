/*
 * php/plain_enc.c - the plain format's encoder (php/plain_enc.h): arrays
 * of null, bool, int, float, string and arrays, up to
 * PHP_SC_VALUE_MAX_DEPTH levels, as SC_V_ARRAY data (tags PHP_SC_T_* of
 * php/value_fmt.h); arrays holding shared PHP references in its memo form
 * when php_sc_plain_set_native_refs said so; a resource as serialize()
 * writes it, int 0, unless a third-party serializer is in use. Anything
 * else (an object, a shared reference otherwise, a resource then, an
 * array too deep, a string or key longer than 4 GiB) is refused, and
 * php/value.c stores the value another way.
 * A string value repeated within the value is written once and then as
 * PHP_SC_T_SREF (the ring of php/value_fmt.h, PHP_SC_SRING).
 * Runs no user code.
 *
 * Format and rules: docs/internals.md#php_value
 */

#include "php.h"
#include "plain_enc.h"
#include "serialized.h"

#include <string.h>

#if defined(ZTS) && defined(COMPILE_DL_SHARDCACHE)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

/* A string value met (PHP_SC_SRING): its hash as the memo keys it, the
 * string (borrowed: the value being stored holds it) and its sequence number. */
typedef struct php_sc_smemo {
    uint64_t h;
    zend_string *s;
    size_t seq;
} php_sc_smemo;

typedef struct php_sc_wbuf {
    char *buf;
    size_t len;
    size_t cap;
    bool kc_ready;
    zend_string *kc[PHP_SC_KEYSLOTS];
    /* string values written (PHP_SC_SRING): the count, and the memo,
     * whose entries are set where their bit in sm_used is (so that the
     * table needs no clearing) */
    size_t scount;
    uint64_t sm_used[PHP_SC_SMEMO / 64];
    php_sc_smemo sm[PHP_SC_SMEMO];
    /* memo form only: arrays and references seen, by address -> id */
    HashTable *memo_arrays;
    HashTable *memo_refs;
    /* the deepest non-empty array written (the top one is 1) */
    uint32_t max_depth;
} php_sc_wbuf;

/* Result of the walk: OK, "give up: not plain" (the value is stored
 * another way), or "start over in the memo form" (a shared reference was
 * met). */
#define PHP_SC_ENC_OK       0
#define PHP_SC_ENC_FALLBACK 1
#define PHP_SC_ENC_MEMO     2

/* apc.serializer=default: shared references take the memo form. Written
 * only at module startup (php_sc_plain_set_native_refs). */
static bool php_sc_native_refs;

void php_sc_plain_set_native_refs(bool on)
{
    php_sc_native_refs = on;
}

void php_sc_plain_grow(char **buf, size_t *cap, size_t len, size_t need, size_t first)
{
    size_t c = *cap ? *cap : first;
    while (c - len < need) {
        c *= 2;
    }
    *buf = erealloc(*buf, c);
    *cap = c;
}

static zend_always_inline char *php_sc_wbuf_reserve(php_sc_wbuf *w, size_t need)
{
    if (UNEXPECTED(w->cap - w->len < need)) {
        php_sc_plain_grow(&w->buf, &w->cap, w->len, need, 64);
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
    w->len += php_sc_fmt_put_str32(p, t32, s, n);
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

/* The memo's key for n >= 2 bytes at s: their length and first and last
 * (up to) 8 bytes, mixed. Equal strings get equal keys; the string itself
 * (it may sit in memory shared with other processes) is only read. */
static zend_always_inline uint64_t php_sc_smemo_key(const char *s, size_t n)
{
    uint64_t a, b;

    if (n >= 8) {
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
    } else if (n >= 4) {
        uint32_t x, y;
        memcpy(&x, s, 4);
        memcpy(&y, s + n - 4, 4);
        a = x;
        b = y;
    } else {
        uint16_t x;
        memcpy(&x, s, 2);
        a = x;
        b = (unsigned char) s[n - 1];
    }
    return (a ^ ((b << 29) | (b >> 35)) ^ (uint64_t) n) * UINT64_C(0x9e3779b97f4a7c15);
}

/* A string value: PHP_SC_T_SREF when it equals one of the last
 * PHP_SC_SRING counted strings, else its bytes (counted when long enough).
 * Values of the top array (depth 1) are counted but neither looked up nor
 * remembered: repeats live in rows (nested arrays), and a flat array of
 * distinct strings then pays nothing for the memo. */
static zend_always_inline int php_sc_put_str(php_sc_wbuf *w, zend_string *s, uint32_t depth)
{
    size_t n = ZSTR_LEN(s);
    uint64_t h;
    uint32_t slot;
    php_sc_smemo *e;
    char *p;

    if (n < PHP_SC_SRING_MIN || n > UINT8_MAX) {
        return php_sc_put_bytes(w, ZSTR_VAL(s), n, PHP_SC_T_STR8, PHP_SC_T_STR32);
    }
    if (depth < 2) {
        w->scount++;   /* numbered as the decoder numbers it */
        return php_sc_put_bytes(w, ZSTR_VAL(s), n, PHP_SC_T_STR8, PHP_SC_T_STR32);
    }
    h = php_sc_smemo_key(ZSTR_VAL(s), n);
    slot = (uint32_t) (h >> (64 - PHP_SC_SMEMO_BITS));
    e = &w->sm[slot];
    if ((w->sm_used[slot >> 6] >> (slot & 63) & 1) && e->h == h && w->scount - e->seq <= PHP_SC_SRING
            && (e->s == s || zend_string_equal_content(e->s, s))) {
        p = php_sc_wbuf_reserve(w, 2);
        p[0] = (char) PHP_SC_T_SREF;
        p[1] = (char) (uint8_t) (e->seq & (PHP_SC_SRING - 1));
        w->len += 2;
        return PHP_SC_ENC_OK;
    }
    w->sm_used[slot >> 6] |= UINT64_C(1) << (slot & 63);
    e->h = h;
    e->s = s;
    e->seq = w->scount++;
    p = php_sc_wbuf_reserve(w, 2 + n);
    p[0] = (char) PHP_SC_T_STR8;
    p[1] = (char) (uint8_t) n;
    memcpy(p + 2, ZSTR_VAL(s), n);
    w->len += 2 + n;
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
            return php_sc_put_str(w, Z_STR_P(zv), depth);
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
            /* What the plain format cannot hold goes to the serializer in
             * use, as with APCu: igbinary (with its notice) gives NULL. */
            if (php_sc_serialized_external()) {
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

/* A walk's buffer at its start: nothing written, no string or key
 * remembered, no memo (the memo form sets its own). */
static void php_sc_wbuf_start(php_sc_wbuf *w, char *buf, size_t len, size_t cap)
{
    w->buf = buf;
    w->len = len;
    w->cap = cap;
    w->kc_ready = 0;
    w->scount = 0;
    memset(w->sm_used, 0, sizeof(w->sm_used));
    w->memo_arrays = NULL;
    w->memo_refs = NULL;
    w->max_depth = 0;
}

bool php_sc_plain_encode_append(HashTable *ht, char **buf, size_t *len, size_t *cap, uint32_t *depth)
{
    php_sc_wbuf w;
    int rc;

    php_sc_wbuf_start(&w, *buf, *len, *cap);
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

static bool php_sc_plain_simple_at(HashTable *ht, uint32_t depth, uint32_t *levels)
{
    zend_string *key;
    zval *val;

    /* The checks of php_sc_enc_array and php_sc_put_key, in their order. */
    if (depth > PHP_SC_VALUE_MAX_DEPTH) {
        return false;
    }
    if (zend_hash_num_elements(ht) == 0) {
        return true;
    }
    if (depth > *levels) {
        *levels = depth;
    }
    ZEND_HASH_FOREACH_STR_KEY_VAL(ht, key, val) {
        if (UNEXPECTED(key && ZSTR_LEN(key) > UINT32_MAX)) {
            return false;
        }
        if (Z_TYPE_P(val) <= IS_DOUBLE) {
            continue;
        }
        if (Z_TYPE_P(val) == IS_STRING) {
            if (UNEXPECTED(Z_STRLEN_P(val) > UINT32_MAX)) {
                return false;
            }
        } else if (Z_TYPE_P(val) != IS_ARRAY || !php_sc_plain_simple_at(Z_ARRVAL_P(val), depth + 1, levels)) {
            return false;
        }
    } ZEND_HASH_FOREACH_END();
    return true;
}

bool php_sc_plain_simple(HashTable *ht, uint32_t *depth)
{
    *depth = 0;
    return php_sc_plain_simple_at(ht, 1, depth);
}

bool php_sc_plain_encode(HashTable *ht, php_sc_encoded *out)
{
    php_sc_wbuf w;
    size_t cap = 32 + (size_t) zend_hash_num_elements(ht) * 16;
    int rc;

    php_sc_wbuf_start(&w, emalloc(cap), 0, cap);
    rc = php_sc_enc_array(&w, ht, 1);
    if (rc == PHP_SC_ENC_MEMO) {
        /* Shared references: again, keeping identities. */
        HashTable arrays, refs;
        zend_hash_init(&arrays, 8, NULL, NULL, 0);
        zend_hash_init(&refs, 8, NULL, NULL, 0);
        php_sc_wbuf_start(&w, w.buf, 0, w.cap);
        w.memo_arrays = &arrays;
        w.memo_refs = &refs;
        php_sc_put_u8(&w, PHP_SC_T_MEMO);
        rc = php_sc_enc_array(&w, ht, 1);
        zend_hash_destroy(&arrays);
        zend_hash_destroy(&refs);
    }
    if (rc != PHP_SC_ENC_OK) {
        efree(w.buf);
        return false;
    }
    out->vtype = SC_V_ARRAY;
    out->owned_buf = w.buf;
    out->data = w.buf;
    out->len = w.len;
    return true;
}
