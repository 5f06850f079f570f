/*
 * shardcache_zerocopy.c - zero-copy values (glue side).
 *
 * A zero-copy value (vtype SC_V_ZC) is stored as
 *   [pad: 1..8 bytes, the first holding the count]
 *   [sc_zc_hdr, 8-aligned in the segment]
 *   [the value laid out as PHP's immutable zend_array / zend_string, every
 *    pointer pointing inside this layout]
 *   [arrays: the value's copying form (the codec's SC_V_ARRAY bytes)]
 * The layout is built in process memory with offsets from the header; the
 * core copies it into the entry and calls sc_zc_fixup under the shard lock,
 * before linking it, to turn the offsets into addresses (the relocation
 * list says where they are) and to record the header's own address.
 *
 * A fetch inside an epoch (src/sc_epoch.c) borrows the bytes: if the header
 * sits at the address it was laid out for (same mapping: forked children of
 * the creator of an anonymous segment; a named segment mapped elsewhere is
 * not) and the PHP ABI that laid it out is this one (PHP_VERSION_ID, ZTS,
 * debug), the zval points at the immutable value: no copy, nothing
 * allocated. Otherwise (another address or ABI, zero-copy off here, or a
 * copy made by the iterator) the copying form is decoded as usual.
 *
 * Arrays: of null, bool, int, float, string and such arrays (no objects, no
 * PHP references), copied table by table as opcache persists literal
 * arrays: the hash part and the used buckets as they are, then every key
 * and value rewritten to point into the layout; flags IMMUTABLE and
 * NOT_COLLECTABLE, no destructor, so PHP never counts, frees or changes
 * them, and any change in the request separates (copy-on-write). Strings
 * of at least SC_ZC_MIN_STRING bytes: an interned string with its hash
 * precomputed (so that no reader ever writes to it).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "SAPI.h"
#include "zend_hash.h"
#include "php_shardcache.h"
#include "shardcache_zerocopy.h"
#include "shardcache_value.h"
#include "sc_evict.h"

bool sc_zc_on;
uint64_t sc_zc_budget;

/* ---- settings ---- */

void sc_zc_minit(const char *setting, zend_long max_bytes, uint64_t shm_size)
{
    /* php.ini's parser turns off, no, false and none into "" (an unset
     * entry is "auto", its default): "" is off, not auto. */
    if (!setting || strcasecmp(setting, "auto") == 0) {
        /* On where requests end (the epoch is released every request);
         * off where a process may run for ever without a request end. */
        const char *n = sapi_module.name;
        sc_zc_on = strcmp(n, "fpm-fcgi") == 0 || strcmp(n, "apache2handler") == 0 || strcmp(n, "cgi-fcgi") == 0
                   || strcmp(n, "litespeed") == 0;
    } else {
        sc_zc_on = strcmp(setting, "1") == 0 || strcasecmp(setting, "on") == 0 || strcasecmp(setting, "yes") == 0
                   || strcasecmp(setting, "true") == 0;
    }
    sc_zc_budget = max_bytes > 0 ? (uint64_t)max_bytes : shm_size / 4;
}

/* ---- layout ---- */

typedef struct sc_zc_builder {
    char *buf;
    size_t len, cap;
    uint32_t *rel;          /* positions (from the header) of pointers to relocate */
    size_t nrel, relcap;
    zend_string *last_str;  /* the last string laid out, and where */
    size_t last_off;
    uint64_t limit;         /* give up above this many bytes */
    bool failed;
} sc_zc_builder;

static size_t sc_zb_alloc(sc_zc_builder *b, size_t size)
{
    size_t off = ZEND_MM_ALIGNED_SIZE_EX(b->len, 8);
    size_t end = off + ZEND_MM_ALIGNED_SIZE_EX(size, 8);

    if (end > b->limit || end > UINT32_MAX) {
        b->failed = true;
        return 0;
    }
    if (end > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < end) {
            cap *= 2;
        }
        b->buf = erealloc(b->buf, cap);
        b->cap = cap;
    }
    memset(b->buf + b->len, 0, end - b->len);   /* padding and fields left 0 */
    b->len = end;
    return off;
}

/* The pointer at position pos holds an offset from the header. */
static void sc_zb_reloc(sc_zc_builder *b, size_t pos, size_t target)
{
    uint64_t v = target;

    memcpy(b->buf + pos, &v, sizeof(v));
    if (b->nrel == b->relcap) {
        b->relcap = b->relcap ? b->relcap * 2 : 64;
        b->rel = erealloc(b->rel, b->relcap * sizeof(uint32_t));
    }
    b->rel[b->nrel++] = (uint32_t)pos;
}

static size_t sc_zb_string(sc_zc_builder *b, zend_string *s)
{
    zend_string *d;
    size_t off;

    /* The last string laid out again (a key repeated row after row is
     * usually the same interned string) is shared; others are copied. */
    if (b->last_str == s) {
        return b->last_off;
    }
    off = sc_zb_alloc(b, _ZSTR_STRUCT_SIZE(ZSTR_LEN(s)));
    if (b->failed) {
        return 0;
    }
    d = (zend_string *)(b->buf + off);
    GC_SET_REFCOUNT(d, 2);
    GC_TYPE_INFO(d) = GC_STRING | (IS_STR_INTERNED << GC_FLAGS_SHIFT);
    ZSTR_H(d) = zend_string_hash_val(s);
    ZSTR_LEN(d) = ZSTR_LEN(s);
    memcpy(ZSTR_VAL(d), ZSTR_VAL(s), ZSTR_LEN(s));
    ZSTR_VAL(d)[ZSTR_LEN(s)] = '\0';
    b->last_str = s;
    b->last_off = off;
    return off;
}

static size_t sc_zb_array(sc_zc_builder *b, HashTable *ht, int depth);

/* Rewrites the zval at position pos (a copy of src) to point into the
 * layout. */
static void sc_zb_zval(sc_zc_builder *b, size_t pos, zval *src, int depth)
{
    size_t t;
    zval *dst;

    switch (Z_TYPE_P(src)) {
    case IS_UNDEF:
    case IS_NULL:
    case IS_FALSE:
    case IS_TRUE:
    case IS_LONG:
    case IS_DOUBLE:
        return;
    case IS_STRING:
        t = sc_zb_string(b, Z_STR_P(src));
        if (b->failed) {
            return;
        }
        dst = (zval *)(b->buf + pos);
        Z_TYPE_INFO_P(dst) = IS_INTERNED_STRING_EX;
        sc_zb_reloc(b, pos + offsetof(zval, value), t);
        return;
    case IS_ARRAY:
        t = sc_zb_array(b, Z_ARRVAL_P(src), depth + 1);
        if (b->failed) {
            return;
        }
        dst = (zval *)(b->buf + pos);
        Z_TYPE_INFO_P(dst) = IS_ARRAY;  /* not refcounted: immutable */
        sc_zb_reloc(b, pos + offsetof(zval, value), t);
        return;
    default:
        b->failed = true;   /* objects, references, resources: not here */
        return;
    }
}

static size_t sc_zb_array(sc_zc_builder *b, HashTable *ht, int depth)
{
    size_t off, doff, data_size, hash_size, i;
    bool packed = HT_IS_PACKED(ht);
    zend_array *a;

    if (depth > SC_ZC_MAX_DEPTH) {
        b->failed = true;
        return 0;
    }
    off = sc_zb_alloc(b, sizeof(zend_array));
    if (b->failed) {
        return 0;
    }
    if (HT_FLAGS(ht) & HASH_FLAG_UNINITIALIZED || ht->nNumUsed == 0) {
        /* Empty: a table of its own (two free hash slots), no pointer out
         * of the layout. */
        doff = sc_zb_alloc(b, HT_HASH_SIZE(HT_MIN_MASK));
        if (b->failed) {
            return 0;
        }
        memset(b->buf + doff, 0xff, HT_HASH_SIZE(HT_MIN_MASK));
        a = (zend_array *)(b->buf + off);
        GC_SET_REFCOUNT(a, 2);
        GC_TYPE_INFO(a) = GC_ARRAY | ((IS_ARRAY_IMMUTABLE | GC_NOT_COLLECTABLE) << GC_FLAGS_SHIFT);
        HT_FLAGS(a) = HASH_FLAG_UNINITIALIZED;
        a->nTableMask = HT_MIN_MASK;
        a->nTableSize = HT_MIN_SIZE;
        a->nNextFreeElement = ht->nNextFreeElement;
        sc_zb_reloc(b, off + offsetof(zend_array, arData), doff + HT_HASH_SIZE(HT_MIN_MASK));
        return off;
    }
    hash_size = HT_HASH_SIZE(ht->nTableMask);
    data_size = packed ? HT_PACKED_USED_SIZE(ht) : HT_USED_SIZE(ht);
    doff = sc_zb_alloc(b, data_size);
    if (b->failed) {
        return 0;
    }
    memcpy(b->buf + doff, HT_GET_DATA_ADDR(ht), data_size);
    a = (zend_array *)(b->buf + off);
    GC_SET_REFCOUNT(a, 2);
    GC_TYPE_INFO(a) = GC_ARRAY | ((IS_ARRAY_IMMUTABLE | GC_NOT_COLLECTABLE) << GC_FLAGS_SHIFT);
    HT_FLAGS(a) = (HT_FLAGS(ht) & HASH_FLAG_PACKED) | HASH_FLAG_STATIC_KEYS;
    a->nTableMask = ht->nTableMask;
    a->nNumUsed = ht->nNumUsed;
    a->nNumOfElements = ht->nNumOfElements;
    a->nTableSize = ht->nTableSize;
    a->nInternalPointer = 0;
    a->nNextFreeElement = ht->nNextFreeElement;
    a->pDestructor = NULL;
    sc_zb_reloc(b, off + offsetof(zend_array, arData), doff + hash_size);

    for (i = 0; i < ht->nNumUsed && !b->failed; i++) {
        if (packed) {
            sc_zb_zval(b, doff + hash_size + i * sizeof(zval), &ht->arPacked[i], depth);
        } else {
            Bucket *p = &ht->arData[i];
            size_t bpos = doff + hash_size + i * sizeof(Bucket);
            if (Z_TYPE(p->val) == IS_UNDEF) {
                continue;
            }
            if (p->key) {
                size_t k = sc_zb_string(b, p->key);
                if (b->failed) {
                    break;
                }
                sc_zb_reloc(b, bpos + offsetof(Bucket, key), k);
            }
            sc_zb_zval(b, bpos + offsetof(Bucket, val), &p->val, depth);
        }
    }
    return off;
}

static void sc_zb_free(sc_zc_builder *b)
{
    if (b->buf) {
        efree(b->buf);
    }
    if (b->rel) {
        efree(b->rel);
    }
}

/* Under the shard lock, on the value bytes in the segment. */
static void sc_zc_fixup(void *arg, char *dst, size_t len)
{
    sc_zc_builder *b = arg;
    char *h = dst + (uint8_t)dst[0];
    size_t i;

    (void)len;
    for (i = 0; i < b->nrel; i++) {
        uint64_t v;
        memcpy(&v, h + b->rel[i], sizeof(v));
        v += (uint64_t)(uintptr_t)h;
        memcpy(h + b->rel[i], &v, sizeof(v));
    }
    ((sc_zc_hdr *)h)->self = (uint64_t)(uintptr_t)h;
}

bool sc_zc_store(sc_cache *c, const sc_key *key, zval *value, uint32_t ttl, int64_t now, bool add_only,
                 sc_status *st)
{
    sc_zc_builder b;
    sc_zc_hdr *h;
    sc_encoded enc;
    sc_value_in in = {0};
    size_t root, pad, poff = 0;
    uint64_t used = sc_epoch_zc_bytes(&c->seg);
    char *blob;
    bool is_array = Z_TYPE_P(value) == IS_ARRAY;

    if (!sc_zc_on) {
        return false;
    }
    if (is_array ? zend_hash_num_elements(Z_ARRVAL_P(value)) == 0
                 : (Z_TYPE_P(value) != IS_STRING || Z_STRLEN_P(value) < SC_ZC_MIN_STRING)) {
        return false;
    }
    memset(&b, 0, sizeof(b));
    b.limit = sc_zc_budget;
    sc_zb_alloc(&b, sizeof(sc_zc_hdr));
    root = is_array ? sc_zb_array(&b, Z_ARRVAL_P(value), 0) : sc_zb_string(&b, Z_STR_P(value));
    if (!b.failed && used + 2 * b.len > sc_zc_budget) {
        /* Full (the copying form takes about as much again): memory
         * retired by threads that have left since may come back
         * (sc_epoch.c); else the value takes the copying layout. */
        if (!sc_evict_retired(&c->seg) || sc_epoch_zc_bytes(&c->seg) + 2 * b.len > sc_zc_budget) {
            b.failed = true;
        }
    }
    if (b.failed) {
        sc_zb_free(&b);
        return false;
    }
    memset(&enc, 0, sizeof(enc));
    if (is_array) {
        /* The copying form, for readers that cannot use the layout. An
         * encoder refusal raises nothing for these shapes; fall back. */
        if (sc_value_encode(value, &enc) != SUCCESS) {
            sc_zb_free(&b);
            return false;
        }
        poff = sc_zb_alloc(&b, enc.len);
        if (b.failed) {
            sc_value_encoded_release(&enc);
            sc_zb_free(&b);
            return false;
        }
        memcpy(b.buf + poff, enc.data, enc.len);
    }
    sc_zb_reloc(&b, offsetof(sc_zc_hdr, root), root);
    h = (sc_zc_hdr *)b.buf;
    h->magic = SC_ZC_MAGIC;
    h->abi = SC_ZC_ABI;
    h->kind = is_array ? SC_ZC_KIND_ARRAY : SC_ZC_KIND_STRING;
    if (is_array) {
        h->portable_vtype = enc.vtype;
        h->portable_off = (uint32_t)poff;
        h->portable_len = (uint32_t)enc.len;
    } else {
        h->portable_vtype = SC_V_STRING;
        h->portable_off = (uint32_t)(root + offsetof(zend_string, val));
        h->portable_len = (uint32_t)Z_STRLEN_P(value);
    }
    sc_value_encoded_release(&enc);

    /* The entry's value starts 64 + key_len bytes into an 8-aligned block. */
    pad = 8 - (key->len & 7);
    blob = emalloc(pad + b.len);
    memset(blob, 0, pad);
    blob[0] = (char)pad;
    memcpy(blob + pad, b.buf, b.len);
    in.vtype = SC_V_ZC;
    in.scalar = 0;
    in.data = blob;
    in.len = pad + b.len;
    in.fixup = sc_zc_fixup;
    in.fixup_arg = &b;
    *st = sc_cache_store(c, key, &in, ttl, now, add_only);
    efree(blob);
    sc_zb_free(&b);
    /* Too big in one piece: the caller stores the copying form. */
    return *st != SC_TOOBIG && *st != SC_NOMEM;
}

/* ---- fetch ---- */

void sc_zc_enter(void)
{
    if (sc_active && sc_epoch_enter(&sc_shared_cache.seg)) {
        SCG(zc_entered) = true;
    }
}

void sc_zc_request_end(void)
{
    if (SCG(zc_entered)) {
        sc_epoch_leave(&sc_shared_cache.seg);
        SCG(zc_entered) = false;
    }
}

bool sc_zc_to_zval(const sc_value_out *out, zval *dst)
{
    const char *p = out->data;
    sc_zc_hdr h;
    uint8_t pad;

    if (!p || out->len < 1) {
        return false;
    }
    pad = (uint8_t)p[0];
    if (pad < 1 || pad > 8 || out->len < pad + sizeof(sc_zc_hdr)) {
        return false;
    }
    memcpy(&h, p + pad, sizeof(h));
    if (h.magic != SC_ZC_MAGIC || h.portable_off > out->len - pad
        || h.portable_len > out->len - pad - h.portable_off) {
        return false;
    }
    if (sc_zc_in_place(out, dst)) {
        return true;
    }
    if (h.portable_vtype == SC_V_STRING) {
        ZVAL_STRINGL(dst, p + pad + h.portable_off, h.portable_len);
        return true;
    }
    return sc_php_decode(h.portable_vtype, 0, p + pad + h.portable_off, h.portable_len, dst);
}

void sc_zc_info(zval *dst)
{
    zval z;
    sc_epoch_table *t;

    array_init(&z);
    add_assoc_bool(&z, "enabled", sc_zc_on);
    add_assoc_long(&z, "budget", (zend_long)sc_zc_budget);
    if (sc_active) {
        t = &sc_shared_cache.seg.hdr->epochs;
        add_assoc_long(&z, "bytes", (zend_long)__atomic_load_n(&t->zc_bytes, __ATOMIC_RELAXED));
        add_assoc_long(&z, "retired_bytes", (zend_long)__atomic_load_n(&t->retired_bytes, __ATOMIC_RELAXED));
        add_assoc_long(&z, "retired", (zend_long)__atomic_load_n(&t->retired, __ATOMIC_RELAXED));
        add_assoc_long(&z, "reclaimed", (zend_long)__atomic_load_n(&t->reclaimed, __ATOMIC_RELAXED));
        /* Pages of repaired shards held back for readers: give back what
         * nobody can hold first, so the figure says what is really held. */
        sc_epoch_poll(&sc_shared_cache.seg, true);
        add_assoc_long(&z, "leaked_bytes", (zend_long)sc_epoch_held_bytes(&sc_shared_cache.seg));
        add_assoc_long(&z, "repairs_held", (zend_long)__atomic_load_n(&t->repairs_held, __ATOMIC_RELAXED));
        add_assoc_long(&z, "epoch", (zend_long)__atomic_load_n(&t->global, __ATOMIC_RELAXED));
        add_assoc_long(&z, "readers", (zend_long)sc_epoch_count_readers(&sc_shared_cache.seg));
    }
    add_assoc_bool(&z, "inside", SCG(zc_entered));
    add_assoc_zval(dst, "zero_copy", &z);
}
