/*
 * php/zc_store.c - zero-copy values, the store side (php/zc_store.h): the
 * settings, and the layouts a store builds (php/zc_layout.h).
 *
 * The layout is built in process memory (buffers kept by the thread from
 * one store to the next, given back at request end) with offsets from the
 * header; the core copies it into the entry and calls php_sc_zc_fixup
 * under the shard lock, before linking it, to turn the offsets into
 * addresses and record the header's own address. An object takes the
 * object form (php/oenc.c) with its plain arrays laid out beside it.
 *
 * Test-only knobs, read at module start: SHARDCACHE_TEST_ZC_ABI and
 * SHARDCACHE_TEST_ZC_SHAPE (decimal) are written into this process's
 * layouts instead of its own ABI and shape, so that one build can play a
 * second PHP on a named segment (tests/zero-copy/420). Do not set them in
 * production.
 *
 * Budget (shardcache.zero_copy_max): checked before any work from a lower
 * bound of the size, and again with the real size; a thread that found it
 * full builds nothing of that size again until the level drops
 * (php_sc_zc_full_at).
 *
 * Design: docs/internals.md#php_zc
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "SAPI.h"
#include "zend_hash.h"
#include "zc_store.h"
#include "debug.h"
#include "zc_copy.h"
#include "oenc.h"
#include "value.h"

bool php_sc_zc_on;
uint64_t php_sc_zc_budget;
uint32_t php_sc_zc_shape_mine;
/* What this process writes into a layout's header (see the knobs above). */
static uint32_t php_sc_zc_write_abi = PHP_SC_ZC_ABI;
static uint32_t php_sc_zc_write_shape;

static uint32_t php_sc_zc_env_u32(const char *name, uint32_t dflt)
{
    const char *v = getenv(name);

    return v && *v ? (uint32_t)strtoul(v, NULL, 10) : dflt;
}

/* ---- settings ---- */

void php_sc_zc_minit(const char *setting, zend_long max_bytes, uint64_t shm_size)
{
    /* php.ini's parser turns off, no, false and none into "" (an unset
     * entry is "auto", its default): "" is off, not auto. */
    if (!setting || strcasecmp(setting, "auto") == 0) {
        /* On where requests end (the epoch is released every request);
         * off where a process may run for ever without a request end. */
        const char *n = sapi_module.name;
        php_sc_zc_on = strcmp(n, "fpm-fcgi") == 0 || strcmp(n, "apache2handler") == 0 || strcmp(n, "cgi-fcgi") == 0
                   || strcmp(n, "litespeed") == 0;
    } else {
        php_sc_zc_on = strcmp(setting, "1") == 0 || strcasecmp(setting, "on") == 0 || strcasecmp(setting, "yes") == 0
                   || strcasecmp(setting, "true") == 0;
    }
    php_sc_zc_budget = max_bytes > 0 ? (uint64_t)max_bytes : shm_size / 4;
    php_sc_zc_write_abi = php_sc_zc_env_u32("SHARDCACHE_TEST_ZC_ABI", PHP_SC_ZC_ABI);
    php_sc_zc_shape_mine = php_sc_zc_shape();
    php_sc_zc_write_shape = php_sc_zc_env_u32("SHARDCACHE_TEST_ZC_SHAPE", php_sc_zc_shape_mine);
}

/* ---- layout ---- */

/* The builder's buffers are kept by the thread from one store to the next
 * (so a store allocates nothing in the common case) and given back at
 * request end (php_sc_zc_store_request_end). */
ZEND_TLS char *php_sc_zb_kept_mem;
ZEND_TLS size_t php_sc_zb_kept_cap;
ZEND_TLS uint32_t *php_sc_zb_kept_rel;
ZEND_TLS size_t php_sc_zb_kept_relcap;
/* Zero-copy bytes in the segment when this thread's last layout did not
 * fit the budget (0: none refused since), and that layout's size: until
 * the level drops, values not much smaller are not laid out again. */
ZEND_TLS uint64_t php_sc_zc_full_at;
ZEND_TLS uint64_t php_sc_zc_full_len;

/* The buffer is laid out as it will sit in the entry: the header (buf)
 * on an 8-byte boundary here as there, so that every zend_array and
 * zend_string is built at an address aligned for it. raw is the malloc'd
 * block (8-aligned), buf = raw + 8, mem = buf - pad. */
#define PHP_SC_ZB_LEAD 8
#define PHP_SC_ZB_STR_SLOTS 64

typedef struct php_sc_zc_builder {
    char *raw;              /* the allocation: cap bytes */
    char *mem;              /* the value's bytes: pad, then the layout */
    char *buf;              /* mem + pad = raw + PHP_SC_ZB_LEAD: the header; offsets count from here */
    size_t pad;             /* 1..8 bytes before the header (see above) */
    size_t len, cap;        /* len: layout bytes (a multiple of 8); cap: bytes of raw */
    uint32_t *rel;          /* positions (from the header) of pointers to relocate */
    size_t nrel, relcap;
    zend_string *last_str;  /* the last string laid out, and where */
    size_t last_off;
    /* strings laid out, by hash: the offset of one per slot (0: none);
     * a string equal to it is laid out once */
    uint32_t str_off[PHP_SC_ZB_STR_SLOTS];
    uint64_t limit;         /* give up above this many bytes */
    bool failed;
} php_sc_zc_builder;

static void php_sc_zb_init(php_sc_zc_builder *b, size_t pad, uint64_t limit)
{
    memset(b, 0, sizeof(*b));
    b->pad = pad;
    b->limit = limit;
    b->raw = php_sc_zb_kept_mem;
    b->cap = php_sc_zb_kept_cap;
    b->rel = php_sc_zb_kept_rel;
    b->relcap = php_sc_zb_kept_relcap;
    php_sc_zb_kept_mem = NULL;   /* taken while this store runs */
    php_sc_zb_kept_cap = 0;
    php_sc_zb_kept_rel = NULL;
    php_sc_zb_kept_relcap = 0;
    b->buf = b->raw ? b->raw + PHP_SC_ZB_LEAD : NULL;
    b->mem = b->raw ? b->buf - pad : NULL;
}

static void php_sc_zb_free(php_sc_zc_builder *b)
{
    /* Kept for the next store unless big (then given back now). */
    if (b->raw && b->cap <= 256 * 1024 && !php_sc_zb_kept_mem) {
        php_sc_zb_kept_mem = b->raw;
        php_sc_zb_kept_cap = b->cap;
    } else if (b->raw) {
        pefree(b->raw, 1);
    }
    if (b->rel && b->relcap <= 64 * 1024 && !php_sc_zb_kept_rel) {
        php_sc_zb_kept_rel = b->rel;
        php_sc_zb_kept_relcap = b->relcap;
    } else if (b->rel) {
        pefree(b->rel, 1);
    }
}

static zend_never_inline void php_sc_zb_grow(php_sc_zc_builder *b, size_t need)
{
    size_t cap = b->cap ? b->cap : 4096;

    while (cap < need) {
        cap *= 2;
    }
    b->raw = perealloc(b->raw, cap, 1);
    b->cap = cap;
    b->buf = b->raw + PHP_SC_ZB_LEAD;
    b->mem = b->buf - b->pad;
}

/* size bytes at the end of the layout (8-aligned); the caller writes
 * every byte of them, the alignment tail is zeroed here. */
static zend_always_inline size_t php_sc_zb_alloc(php_sc_zc_builder *b, size_t size)
{
    size_t off = b->len;
    size_t end = off + ZEND_MM_ALIGNED_SIZE_EX(size, 8);

    if (UNEXPECTED(end > b->limit || end > UINT32_MAX)) {
        b->failed = true;
        return 0;
    }
    if (UNEXPECTED(PHP_SC_ZB_LEAD + end > b->cap)) {
        php_sc_zb_grow(b, PHP_SC_ZB_LEAD + end);
    }
    if (end != off) {
        memset(b->buf + end - 8, 0, 8);
    }
    b->len = end;
    return off;
}

static zend_never_inline void php_sc_zb_rel_grow(php_sc_zc_builder *b)
{
    b->relcap = b->relcap ? b->relcap * 2 : 256;
    b->rel = perealloc(b->rel, b->relcap * sizeof(uint32_t), 1);
}

/* The pointer at position pos holds an offset from the header. */
static zend_always_inline void php_sc_zb_reloc(php_sc_zc_builder *b, size_t pos, size_t target)
{
    uint64_t v = target;

    memcpy(b->buf + pos, &v, sizeof(v));
    if (UNEXPECTED(b->nrel == b->relcap)) {
        php_sc_zb_rel_grow(b);
    }
    b->rel[b->nrel++] = (uint32_t)pos;
}

static size_t php_sc_zb_string(php_sc_zc_builder *b, zend_string *s)
{
    zend_string *d;
    size_t off, len = ZSTR_LEN(s);
    zend_ulong h;
    uint32_t slot;

    /* The last string laid out again (a key repeated row after row is
     * usually the same interned string), or one equal to a string of the
     * same hash slot (keys of alternating rows), is shared; others are
     * copied. Layout strings are immutable: sharing one changes nothing
     * for a reader. */
    if (b->last_str == s) {
        return b->last_off;
    }
    h = zend_string_hash_val(s);
    slot = (uint32_t) (h & (PHP_SC_ZB_STR_SLOTS - 1));
    off = b->str_off[slot];
    if (off) {
        d = (zend_string *)(b->buf + off);
        if (ZSTR_H(d) == h && ZSTR_LEN(d) == len && memcmp(ZSTR_VAL(d), ZSTR_VAL(s), len) == 0) {
            b->last_str = s;
            b->last_off = off;
            return off;
        }
    }
    off = php_sc_zb_alloc(b, _ZSTR_STRUCT_SIZE(len));
    if (UNEXPECTED(b->failed)) {
        return 0;
    }
    d = (zend_string *)(b->buf + off);
    GC_SET_REFCOUNT(d, 2);
    GC_TYPE_INFO(d) = GC_STRING | (IS_STR_INTERNED << GC_FLAGS_SHIFT);
    ZSTR_H(d) = h;
    ZSTR_LEN(d) = len;
    memcpy(ZSTR_VAL(d), ZSTR_VAL(s), len);
    ZSTR_VAL(d)[len] = '\0';
    b->last_str = s;
    b->last_off = off;
    if (off <= UINT32_MAX) {
        b->str_off[slot] = (uint32_t) off;
    }
    return off;
}

static size_t php_sc_zb_array(php_sc_zc_builder *b, HashTable *ht, int depth);

/* Rewrites the zval at position pos (a copy of src) to point into the
 * layout: strings and arrays (scalars need nothing: php_sc_zb_elem). */
static zend_never_inline void php_sc_zb_zval(php_sc_zc_builder *b, size_t pos, zval *src, int depth)
{
    size_t t;
    zval *dst;

    switch (Z_TYPE_P(src)) {
    case IS_STRING:
        t = php_sc_zb_string(b, Z_STR_P(src));
        if (b->failed) {
            return;
        }
        dst = (zval *)(b->buf + pos);
        Z_TYPE_INFO_P(dst) = IS_INTERNED_STRING_EX;
        php_sc_zb_reloc(b, pos + offsetof(zval, value), t);
        return;
    case IS_ARRAY:
        t = php_sc_zb_array(b, Z_ARRVAL_P(src), depth + 1);
        if (b->failed) {
            return;
        }
        dst = (zval *)(b->buf + pos);
        Z_TYPE_INFO_P(dst) = IS_ARRAY;  /* not refcounted: immutable */
        php_sc_zb_reloc(b, pos + offsetof(zval, value), t);
        return;
    default:
        b->failed = true;   /* objects, references, resources: not here */
        return;
    }
}

/* An element: undef, null, bool, int and float are right as copied. */
static zend_always_inline void php_sc_zb_elem(php_sc_zc_builder *b, size_t pos, zval *src, int depth)
{
    if (Z_TYPE_P(src) > IS_DOUBLE) {
        php_sc_zb_zval(b, pos, src, depth);
    }
}

static size_t php_sc_zb_array(php_sc_zc_builder *b, HashTable *ht, int depth)
{
    size_t off, doff, data_size, hash_size, i, n;
    bool packed = HT_IS_PACKED(ht);
    zend_array *a;

    if (depth > PHP_SC_ZC_MAX_DEPTH) {
        b->failed = true;
        return 0;
    }
    off = php_sc_zb_alloc(b, sizeof(zend_array));
    if (b->failed) {
        return 0;
    }
    memset(b->buf + off, 0, sizeof(zend_array));
    if (HT_FLAGS(ht) & HASH_FLAG_UNINITIALIZED || ht->nNumUsed == 0) {
        /* Empty: a table of its own (two free hash slots), no pointer out
         * of the layout. */
        doff = php_sc_zb_alloc(b, HT_HASH_SIZE(HT_MIN_MASK));
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
        php_sc_zb_reloc(b, off + offsetof(zend_array, arData), doff + HT_HASH_SIZE(HT_MIN_MASK));
        return off;
    }
    hash_size = HT_HASH_SIZE(ht->nTableMask);
    data_size = packed ? HT_PACKED_USED_SIZE(ht) : HT_USED_SIZE(ht);
    doff = php_sc_zb_alloc(b, data_size);
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
    php_sc_zb_reloc(b, off + offsetof(zend_array, arData), doff + hash_size);

    n = ht->nNumUsed;
    if (packed) {
        zval *src = ht->arPacked;
        size_t pos = doff + hash_size;
        for (i = 0; i < n && !b->failed; i++, pos += sizeof(zval)) {
            php_sc_zb_elem(b, pos, &src[i], depth);
        }
    } else {
        Bucket *p = ht->arData;
        size_t bpos = doff + hash_size;
        for (i = 0; i < n && !b->failed; i++, p++, bpos += sizeof(Bucket)) {
            if (Z_TYPE(p->val) == IS_UNDEF) {
                continue;
            }
            if (p->key) {
                size_t k = php_sc_zb_string(b, p->key);
                if (b->failed) {
                    break;
                }
                php_sc_zb_reloc(b, bpos + offsetof(Bucket, key), k);
            }
            php_sc_zb_elem(b, bpos + offsetof(Bucket, val), &p->val, depth);
        }
    }
    return off;
}

/* sc_value_in.fixup: called by the core under the shard lock, on the
 * value bytes in the segment (dst, before the entry is linked): every
 * offset from the header becomes an address, and the header records its
 * own. */
static void php_sc_zc_fixup(void *arg, char *dst, size_t len)
{
    php_sc_zc_builder *b = arg;
    char *h = dst + (uint8_t)dst[0];
    size_t i;

    (void)len;
    ZEND_ASSERT((uint8_t)dst[0] == b->pad);   /* the bytes php_sc_zb_store handed over */
    for (i = 0; i < b->nrel; i++) {
        uint64_t v;
        memcpy(&v, h + b->rel[i], sizeof(v));
        v += (uint64_t)(uintptr_t)h;
        memcpy(h + b->rel[i], &v, sizeof(v));
    }
    ((php_sc_zc_hdr *)h)->self = (uint64_t)(uintptr_t)h;
}

/* Objects: the object form (php/oenc.c) with its non-empty plain arrays
 * laid out here, each reached through an 8-byte pointer slot. */
static bool php_sc_zc_obj_hook(void *ctx, HashTable *ht, uint32_t *pos)
{
    php_sc_zc_builder *b = ctx;
    size_t root, slot;

    root = php_sc_zb_array(b, ht, 0);
    if (b->failed) {
        return false;
    }
    slot = php_sc_zb_alloc(b, sizeof(uint64_t));
    if (b->failed || slot > UINT32_MAX) {
        b->failed = true;
        return false;
    }
    php_sc_zb_reloc(b, slot, root);
    *pos = (uint32_t)slot;
    return true;
}

/* ---- store ---- */

/* A layout of its header only, zeroed (or failed: b->failed). */
static void php_sc_zb_start(php_sc_zc_builder *b, const sc_key *key)
{
    /* The entry's value starts 64 + key_len bytes into an 8-aligned block:
     * the pad puts the header on an 8-byte boundary there. */
    php_sc_zb_init(b, php_sc_zc_pad_for(key->len), php_sc_zc_budget);
    php_sc_zb_alloc(b, sizeof(php_sc_zc_hdr));
    if (!b->failed) {
        memset(b->buf, 0, sizeof(php_sc_zc_hdr));
    }
}

/* Whether a layout of est bytes (a lower bound) is above the budget, with
 * used bytes in use, or not much smaller than the last one refused while
 * the level has not dropped below that refusal's. */
static zend_always_inline bool php_sc_zc_over(uint64_t used, uint64_t est)
{
    return used + est > php_sc_zc_budget
           || (php_sc_zc_full_at && used >= php_sc_zc_full_at && est * 4 >= php_sc_zc_full_len);
}

/* Budget full (readers that never leave, e.g. CLI workers, pin what is
 * retired): decided before any work, from a lower bound of the layout's
 * size (est) and from the level of the last refusal, so that a store that
 * will take the copying layout does not build this one first. Memory
 * retired by threads that have left since may come back
 * (sc_cache_zc_reclaim: throttled, cheap when nothing is due). True: room
 * for it, *used the bytes in use. */
static bool php_sc_zc_room(sc_cache *c, uint64_t est, uint64_t *used)
{
    *used = sc_cache_zc_bytes(c);
    if (!php_sc_zc_over(*used, est)) {
        return true;
    }
    if (!sc_cache_zc_reclaim(c)) {
        return false;
    }
    *used = sc_cache_zc_bytes(c);
    return !php_sc_zc_over(*used, est);
}

/* The layout b, built, against the budget (used: the bytes in use when it
 * began): when it does not fit, memory retired by threads that have left
 * since may come back (sc_cache_zc_reclaim); else b fails (the value takes
 * the copying form) and this thread builds nothing more until the level
 * drops below the present one. */
static void php_sc_zb_budget(sc_cache *c, php_sc_zc_builder *b, uint64_t used)
{
    if (b->failed || (b->len <= UINT32_MAX && used + b->len <= php_sc_zc_budget)) {
        return;
    }
    if (b->len > UINT32_MAX || !sc_cache_zc_reclaim(c) || sc_cache_zc_bytes(c) + b->len > php_sc_zc_budget) {
        b->failed = true;
        php_sc_zc_full_at = sc_cache_zc_bytes(c);
        if (!php_sc_zc_full_at) {
            php_sc_zc_full_at = 1;
        }
        php_sc_zc_full_len = b->len;
    }
}

/* Fills the header of b (zeroed by php_sc_zb_start; root set apart). */
static void php_sc_zb_head(php_sc_zc_builder *b, uint8_t kind, uint32_t shape, uint8_t portable_vtype, uint32_t off,
                           uint32_t len)
{
    php_sc_zc_hdr *h = (php_sc_zc_hdr *)b->buf;

    h->magic = PHP_SC_ZC_MAGIC;
    h->abi = php_sc_zc_write_abi;
    h->shape = shape;
    h->kind = kind;
    h->portable_vtype = portable_vtype;
    h->portable_off = off;
    h->portable_len = len;
}

/* Stores the finished layout b as key's value (the core calls
 * php_sc_zc_fixup on it in place) and gives b's buffers back. */
static sc_status php_sc_zb_store(sc_cache *c, const sc_key *key, php_sc_zc_builder *b, uint32_t ttl, int64_t now,
                                 bool add_only)
{
    sc_value_in in = {0};
    sc_status st;

    memset(b->mem, 0, b->pad);
    b->mem[0] = (char)b->pad;
    in.vtype = SC_V_ZC;
    in.scalar = 0;
    in.data = b->mem;
    in.len = b->pad + b->len;
    in.fixup = php_sc_zc_fixup;
    in.fixup_arg = b;
    st = sc_cache_store(c, key, &in, ttl, now, add_only);
    php_sc_zb_free(b);
    return st;
}

/* An object without an array to lay out: the object form as it is (not
 * encoded twice), stored the usual way; enc is released. */
static bool php_sc_zc_store_form(sc_cache *c, const sc_key *key, php_sc_encoded *enc, uint32_t ttl, int64_t now,
                                 bool add_only, sc_status *st)
{
    sc_value_in in = {0};

    in.vtype = enc->vtype;
    in.data = enc->data;
    in.len = enc->len;
    *st = sc_cache_store(c, key, &in, ttl, now, add_only);
    php_sc_value_encoded_release(enc);
    if (*st == SC_OK) {
        php_sc_obj_count_zc_store();
    }
    return *st != SC_TOOBIG && *st != SC_NOMEM;
}

static bool php_sc_zc_store_object(sc_cache *c, const sc_key *key, zval *value, uint32_t ttl, int64_t now, bool add_only,
                                   sc_status *st)
{
    php_sc_zc_builder b;
    php_sc_encoded enc;
    uint64_t used = sc_cache_zc_bytes(c);
    uint32_t nzc = 0;
    size_t objoff, objlen;

    if (php_sc_zc_full_at && used >= php_sc_zc_full_at) {
        if (!sc_cache_zc_reclaim(c) || sc_cache_zc_bytes(c) >= php_sc_zc_full_at) {
            return false;
        }
        used = sc_cache_zc_bytes(c);
    }
    php_sc_zb_start(&b, key);
    memset(&enc, 0, sizeof(enc));
    if (!b.failed && php_sc_obj_encode_zc(value, php_sc_zc_obj_hook, &b, &enc, &nzc) && !b.failed && nzc == 0) {
        php_sc_zb_free(&b);
        return php_sc_zc_store_form(c, key, &enc, ttl, now, add_only, st);
    }
    if (b.failed || !enc.data || nzc == 0) {
        /* Not the object form (or no room): the usual store. */
        php_sc_value_encoded_release(&enc);
        php_sc_zb_free(&b);
        return false;
    }
    objlen = enc.len;
    objoff = php_sc_zb_alloc(&b, objlen);
    if (!b.failed) {
        memcpy(b.buf + objoff, enc.data, enc.len);
    }
    php_sc_value_encoded_release(&enc);
    php_sc_zb_budget(c, &b, used);
    if (b.failed) {
        php_sc_zb_free(&b);
        return false;
    }
    php_sc_zb_head(&b, PHP_SC_ZC_KIND_OBJECT, php_sc_zc_write_shape, SC_V_SERIALIZED, (uint32_t)objoff, (uint32_t)objlen);
    *st = php_sc_zb_store(c, key, &b, ttl, now, add_only);
    if (*st == SC_OK) {
        php_sc_obj_count_zc_store();
    }
    return *st != SC_TOOBIG && *st != SC_NOMEM;
}

bool php_sc_zc_store(sc_cache *c, const sc_key *key, zval *value, uint32_t ttl, int64_t now, bool add_only,
                 sc_status *st)
{
    php_sc_zc_builder b;
    size_t root;
    uint64_t used, est;
    bool is_array = Z_TYPE_P(value) == IS_ARRAY;

    if (!php_sc_zc_on) {
        return false;
    }
    if (Z_TYPE_P(value) == IS_OBJECT) {
        return php_sc_zc_store_object(c, key, value, ttl, now, add_only, st);
    }
    if (is_array ? zend_hash_num_elements(Z_ARRVAL_P(value)) == 0
                 : (Z_TYPE_P(value) != IS_STRING || Z_STRLEN_P(value) < PHP_SC_ZC_MIN_STRING)) {
        return false;
    }
    est = is_array ? sizeof(php_sc_zc_hdr) + sizeof(zend_array) + (uint64_t)zend_hash_num_elements(Z_ARRVAL_P(value)) * sizeof(zval)
                   : sizeof(php_sc_zc_hdr) + _ZSTR_STRUCT_SIZE(Z_STRLEN_P(value));
    if (!php_sc_zc_room(c, est, &used)) {
        return false;
    }
    php_sc_zc_full_at = 0;
    php_sc_zb_start(&b, key);
    root = is_array ? php_sc_zb_array(&b, Z_ARRVAL_P(value), 0) : php_sc_zb_string(&b, Z_STR_P(value));
    php_sc_zb_budget(c, &b, used);
    if (b.failed) {
        php_sc_zb_free(&b);
        return false;
    }
    php_sc_zb_reloc(&b, offsetof(php_sc_zc_hdr, root), root);
    if (is_array) {
        /* No second, copying form: readers that cannot use the layout in
         * place copy it (php/zc_copy.c). */
        php_sc_zb_head(&b, PHP_SC_ZC_KIND_ARRAY, php_sc_zc_write_shape, 0, 0, 0);
    } else {
        php_sc_zb_head(&b, PHP_SC_ZC_KIND_STRING, 0, SC_V_STRING, (uint32_t)(root + offsetof(zend_string, val)),
                       (uint32_t)Z_STRLEN_P(value));
    }
    *st = php_sc_zb_store(c, key, &b, ttl, now, add_only);
    /* Too big in one piece: the caller stores the copying form. */
    return *st != SC_TOOBIG && *st != SC_NOMEM;
}

void php_sc_zc_store_request_end(void)
{
    if (php_sc_zb_kept_mem) {
        pefree(php_sc_zb_kept_mem, 1);
        php_sc_zb_kept_mem = NULL;
        php_sc_zb_kept_cap = 0;
    }
    if (php_sc_zb_kept_rel) {
        pefree(php_sc_zb_kept_rel, 1);
        php_sc_zb_kept_rel = NULL;
        php_sc_zb_kept_relcap = 0;
    }
}
