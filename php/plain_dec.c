/*
 * php/plain_dec.c - the plain format's decoder (php/plain_dec.h):
 * SC_V_ARRAY data, written by php/plain_enc.c (possibly in another
 * process), back into a fresh request-local array that never points into
 * the bytes it came from. A repeated string value (PHP_SC_T_SREF, see
 * PHP_SC_SRING) comes back as the zend_string made for its first
 * occurrence, shared by refcount.
 *
 * Decode is defensive: every count and length is checked against the
 * bytes left, nesting is bounded, malformed input is refused with nothing
 * leaked; it runs no user code.
 *
 * Format and rules: docs/internals.md#php_value
 */

#include "php.h"
#include "plain_dec.h"
#include "debug.h"

#include <string.h>

#if defined(ZTS) && defined(COMPILE_DL_SHARDCACHE)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

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
    size_t scount;                    /* string values counted (PHP_SC_SRING) */
    zend_string *sring[PHP_SC_SRING]; /* entries < scount are set */
    php_sc_memo_in *memo;             /* NULL unless the memo form */
    bool in_ref;                  /* decoding the value of a ref */
} php_sc_rbuf;

#define PHP_SC_LEFT(r) ((size_t) ((r)->end - (r)->p))

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

/* A string value of n bytes at s, remembered in the ring when counted. */
static zend_always_inline void php_sc_dec_str(php_sc_rbuf *r, const unsigned char *s, size_t n, zval *out)
{
    zend_string *str = zend_string_init_fast((const char *) s, n);

    if (n >= PHP_SC_SRING_MIN) {
        r->sring[r->scount++ & (PHP_SC_SRING - 1)] = str;
    }
    ZVAL_STR(out, str);
}

/* PHP_SC_T_SREF's entry at p (false: missing or not written yet). */
static zend_always_inline bool php_sc_dec_sref(php_sc_rbuf *r, const unsigned char *p, zval *out)
{
    if (UNEXPECTED(p >= r->end || *p >= r->scount)) {
        return false;
    }
    ZVAL_STR_COPY(out, r->sring[*p]);
    return true;
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
            if (tag == PHP_SC_T_STR8) {
                php_sc_dec_str(r, r->p, n, out);
            } else {
                ZVAL_STR(out, zend_string_init_fast((const char *) r->p, n));
            }
            r->p += n;
            return SUCCESS;
        case PHP_SC_T_SREF:
            if (!php_sc_dec_sref(r, r->p, out)) {
                return FAILURE;
            }
            r->p += 1;
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
 * skip the call to php_sc_dec_value, its frame and its jump table (a call
 * per element costs a third of a 100-element array's decode). Anything else, or an
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
        php_sc_dec_str(r, p + 2, n, out);
        r->p = p + 2 + n;
        return true;
    }
    if (p[0] == PHP_SC_T_SREF && php_sc_dec_sref(r, p + 1, out)) {
        r->p = p + 2;
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

/* One element of a hash under the int key h (a duplicate: false). */
static zend_always_inline bool php_sc_dec_index_entry(php_sc_rbuf *r, HashTable *ht, zend_long h, uint32_t depth)
{
    zval tmp;

    return php_sc_dec_element(r, &tmp, depth) == SUCCESS && php_sc_add_index(ht, h, &tmp);
}

/* One element of a hash under the string key key (the table takes its own
 * reference). */
static zend_always_inline bool php_sc_dec_str_entry(php_sc_rbuf *r, HashTable *ht, zend_string *key, uint32_t depth)
{
    zval tmp;

    if (php_sc_dec_element(r, &tmp, depth) != SUCCESS) {
        return false;
    }
    _zend_hash_append(ht, key, &tmp);
    return true;
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

    /* At most n inserts into a table sized for >= n: no resize ever
     * happens, which _zend_hash_append relies on. */
    ZEND_ASSERT(ht->nTableSize >= n);
    for (i = 0; i < n; i++) {
        unsigned char ktag;
        zend_long h;
        zend_string *key;
        bool ok;

        if (PHP_SC_LEFT(r) < 1) {
            goto fail;
        }
        ktag = *r->p++;
        switch (ktag) {
            case PHP_SC_K_I32:
                if (PHP_SC_LEFT(r) < 4) {
                    goto fail;
                }
                h = (zend_long) (int32_t) php_sc_load_u32(r->p);
                r->p += 4;
                if (!php_sc_dec_index_entry(r, ht, h, depth)) {
                    goto fail;
                }
                break;
            case PHP_SC_K_I64:
                if (PHP_SC_LEFT(r) < 8 || !php_sc_i64_to_long((int64_t) php_sc_load_u64(r->p), &h)) {
                    goto fail;
                }
                r->p += 8;
                if (!php_sc_dec_index_entry(r, ht, h, depth)) {
                    goto fail;
                }
                break;
            case PHP_SC_K_STR8:
            case PHP_SC_K_STR32:
                if (!php_sc_dec_key_str(r, ktag == PHP_SC_K_STR32, depth, &key)) {
                    goto fail;
                }
                ok = php_sc_dec_str_entry(r, ht, key, depth);
                zend_string_release(key);
                if (!ok) {
                    goto fail;
                }
                break;
            case PHP_SC_K_SLOT:
                if (PHP_SC_LEFT(r) < 1 || !r->kc_ready || depth < 2 || *r->p >= PHP_SC_KEYSLOTS
                        || (key = r->kc[*r->p]) == NULL) {
                    goto fail;
                }
                r->p++;
                if (!php_sc_dec_str_entry(r, ht, key, depth)) {
                    goto fail;
                }
                break;
            default:
                goto fail;
        }
    }
    return php_sc_dec_array_close(r, out, id, SUCCESS);

fail:
    return php_sc_dec_array_close(r, out, id, FAILURE);
}

zend_result php_sc_plain_decode_at(const unsigned char **p, const unsigned char *end, zval *out)
{
    php_sc_rbuf r;
    zend_result rc;

    r.p = *p;
    r.end = end;
    r.kc_ready = 0;
    r.scount = 0;
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

zend_result php_sc_plain_decode(const char *data, size_t len, zval *out)
{
    php_sc_rbuf r;
    php_sc_memo_in memo;
    zend_result rc;

    if (data == NULL || len < 1) {
        ZVAL_NULL(out);
        return FAILURE;
    }
    r.p = (const unsigned char *) data;
    r.end = r.p + len;
    r.kc_ready = 0;
    r.scount = 0;
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
        ZVAL_NULL(out);
        return FAILURE;
    }
    return SUCCESS;
}
