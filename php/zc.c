/*
 * php/zc.c - zero-copy values (glue side).
 *
 * Layout. A zero-copy value (vtype SC_V_ZC) is stored once, as
 *   [pad: 1..8 bytes, the first holding the count]
 *   [php_sc_zc_hdr, 8-aligned in the segment]
 *   [the value laid out as PHP's immutable zend_array / zend_string, every
 *    pointer pointing inside this layout]
 * The layout is built in process memory (buffers kept by the thread from
 * one store to the next, given back at request end) with offsets from the
 * header; the core copies it into the entry and calls php_sc_zc_fixup
 * under the shard lock, before linking it, to turn the offsets into
 * addresses and record the header's own address.
 *
 * Fetch. Inside an epoch (src/sc_epoch.c), a header at the address it was
 * laid out for, written by this PHP ABI (PHP_VERSION_ID, ZTS, debug), is
 * borrowed: the zval points at the immutable value. Otherwise an array is
 * copied with every pointer relocated and bounds-checked (php/zc_copy.c),
 * a string from its bytes. An array laid out by another PHP ABI is copied
 * the same way when its shape (php_sc_zc_shape: the sizes, offsets, flags
 * and type codes the copy reads) is this process's; one of another shape
 * cannot be read, and is absent for this process in every function (the
 * core asks php_sc_zc_unreadable, as it asks whether an entry expired).
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
 * (php_sc_zc_full_at). A thread inside an epoch that holds no borrowed
 * value leaves it at its next write (php_sc_zc_idle).
 *
 * Design: docs/internals.md#php_zc
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <pthread.h>
#include "php.h"
#include "SAPI.h"
#include "zend_hash.h"
#include "php_shardcache.h"
#include "zc.h"
#include "sc_evict.h"
#include "value.h"
#include "object.h"

bool php_sc_zc_on;
uint64_t php_sc_zc_budget;
/* What this process writes into a layout's header (see the knobs above). */
static uint32_t php_sc_zc_write_abi = PHP_SC_ZC_ABI;
static uint32_t php_sc_zc_write_shape;
static uint32_t php_sc_zc_shape_mine;

uint32_t php_sc_zc_shape(void)
{
    const uint64_t parts[] = {
        sizeof(zval), offsetof(zval, value), offsetof(zval, u1.v.type), sizeof(zend_long), sizeof(double),
        IS_UNDEF, IS_NULL, IS_FALSE, IS_TRUE, IS_LONG, IS_DOUBLE, IS_STRING, IS_ARRAY,
        sizeof(zend_array), offsetof(zend_array, u.flags), offsetof(zend_array, arData),
        offsetof(zend_array, nNumUsed), offsetof(zend_array, nNumOfElements),
        offsetof(zend_array, nNextFreeElement), HASH_FLAG_PACKED, HASH_FLAG_UNINITIALIZED,
        sizeof(Bucket), offsetof(Bucket, val), offsetof(Bucket, h), offsetof(Bucket, key),
        sizeof(zend_string), offsetof(zend_string, len), _ZSTR_HEADER_SIZE, sizeof(void *),
    };
    uint32_t h = UINT32_C(0x811c9dc5);
    size_t i;

    for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        h = (h ^ (uint32_t)parts[i]) * UINT32_C(0x01000193);
        h = (h ^ (uint32_t)(parts[i] >> 32)) * UINT32_C(0x01000193);
    }
    return h ? h : 1;
}

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
 * request end (php_sc_zc_request_end). */
ZEND_TLS char *php_sc_zb_kept_mem;
/* Zero-copy values this thread could not borrow and copied (figures:
 * shardcache_info()['zero_copy']['copied'], ['foreign']). */
ZEND_TLS zend_long php_sc_zc_copied;
ZEND_TLS zend_long php_sc_zc_foreign;
/* Zero-copy bytes in the segment when this thread's last layout did not
 * fit the budget (0: none refused since), and that layout's size: until
 * the level drops, values not much smaller are not laid out again. */
ZEND_TLS uint64_t php_sc_zc_full_at;
ZEND_TLS uint64_t php_sc_zc_full_len;
ZEND_TLS size_t php_sc_zb_kept_cap;
ZEND_TLS uint32_t *php_sc_zb_kept_rel;
ZEND_TLS size_t php_sc_zb_kept_relcap;

/* The buffer is laid out as it will sit in the entry: the header (buf)
 * on an 8-byte boundary here as there, so that every zend_array and
 * zend_string is built at an address aligned for it. raw is the malloc'd
 * block (8-aligned), buf = raw + 8, mem = buf - pad. */
#define PHP_SC_ZB_LEAD 8
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

    /* The last string laid out again (a key repeated row after row is
     * usually the same interned string) is shared; others are copied. */
    if (b->last_str == s) {
        return b->last_off;
    }
    off = php_sc_zb_alloc(b, _ZSTR_STRUCT_SIZE(len));
    if (UNEXPECTED(b->failed)) {
        return 0;
    }
    d = (zend_string *)(b->buf + off);
    GC_SET_REFCOUNT(d, 2);
    GC_TYPE_INFO(d) = GC_STRING | (IS_STR_INTERNED << GC_FLAGS_SHIFT);
    ZSTR_H(d) = zend_string_hash_val(s);
    ZSTR_LEN(d) = len;
    memcpy(ZSTR_VAL(d), ZSTR_VAL(s), len);
    ZSTR_VAL(d)[len] = '\0';
    b->last_str = s;
    b->last_off = off;
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

/* Under the shard lock, on the value bytes in the segment. */
static void php_sc_zc_fixup(void *arg, char *dst, size_t len)
{
    php_sc_zc_builder *b = arg;
    char *h = dst + (uint8_t)dst[0];
    size_t i;

    (void)len;
    for (i = 0; i < b->nrel; i++) {
        uint64_t v;
        memcpy(&v, h + b->rel[i], sizeof(v));
        v += (uint64_t)(uintptr_t)h;
        memcpy(h + b->rel[i], &v, sizeof(v));
    }
    ((php_sc_zc_hdr *)h)->self = (uint64_t)(uintptr_t)h;
}

/* Objects: the object form (php/object.c) with its non-empty plain arrays
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

static bool php_sc_zc_store_object(sc_cache *c, const sc_key *key, zval *value, uint32_t ttl, int64_t now, bool add_only,
                                   sc_status *st)
{
    php_sc_zc_builder b;
    php_sc_encoded enc;
    php_sc_zc_hdr *h;
    sc_value_in in = {0};
    uint64_t used = sc_epoch_zc_bytes(&c->seg);
    uint32_t nzc = 0;
    size_t objoff, objlen;

    if (php_sc_zc_full_at && used >= php_sc_zc_full_at) {
        if (!sc_evict_retired(&c->seg) || sc_epoch_zc_bytes(&c->seg) >= php_sc_zc_full_at) {
            return false;
        }
        used = sc_epoch_zc_bytes(&c->seg);
    }
    php_sc_zb_init(&b, php_sc_zc_pad_for(key->len), php_sc_zc_budget);
    php_sc_zb_alloc(&b, sizeof(php_sc_zc_hdr));
    if (!b.failed) {
        memset(b.buf, 0, sizeof(php_sc_zc_hdr));
    }
    memset(&enc, 0, sizeof(enc));
    if (!b.failed && php_sc_obj_encode_zc(value, php_sc_zc_obj_hook, &b, &enc, &nzc) && !b.failed && nzc == 0) {
        /* No array to lay out: the object form as it is (not encoded twice). */
        php_sc_zb_free(&b);
        in.vtype = enc.vtype;
        in.data = enc.data;
        in.len = enc.len;
        *st = sc_cache_store(c, key, &in, ttl, now, add_only);
        php_sc_value_encoded_release(&enc);
        if (*st == SC_OK) {
            php_sc_obj_count_zc_store();
        }
        return *st != SC_TOOBIG && *st != SC_NOMEM;
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
    if (!b.failed && (b.len > UINT32_MAX || used + b.len > php_sc_zc_budget)) {
        if (b.len > UINT32_MAX || !sc_evict_retired(&c->seg) || sc_epoch_zc_bytes(&c->seg) + b.len > php_sc_zc_budget) {
            b.failed = true;
            php_sc_zc_full_at = sc_epoch_zc_bytes(&c->seg);
            if (!php_sc_zc_full_at) {
                php_sc_zc_full_at = 1;
            }
            php_sc_zc_full_len = b.len;
        }
    }
    if (b.failed) {
        php_sc_zb_free(&b);
        return false;
    }
    h = (php_sc_zc_hdr *)b.buf;
    h->magic = PHP_SC_ZC_MAGIC;
    h->abi = php_sc_zc_write_abi;
    h->shape = php_sc_zc_write_shape;
    h->kind = PHP_SC_ZC_KIND_OBJECT;
    h->root = 0;
    h->portable_vtype = SC_V_SERIALIZED;
    h->portable_off = (uint32_t)objoff;
    h->portable_len = (uint32_t)objlen;
    memset(b.mem, 0, b.pad);
    b.mem[0] = (char)b.pad;
    in.vtype = SC_V_ZC;
    in.scalar = 0;
    in.data = b.mem;
    in.len = b.pad + b.len;
    in.fixup = php_sc_zc_fixup;
    in.fixup_arg = &b;
    *st = sc_cache_store(c, key, &in, ttl, now, add_only);
    php_sc_zb_free(&b);
    if (*st == SC_OK) {
        php_sc_obj_count_zc_store();
    }
    return *st != SC_TOOBIG && *st != SC_NOMEM;
}

bool php_sc_zc_store(sc_cache *c, const sc_key *key, zval *value, uint32_t ttl, int64_t now, bool add_only,
                 sc_status *st)
{
    php_sc_zc_builder b;
    php_sc_zc_hdr *h;
    sc_value_in in = {0};
    size_t root;
    uint64_t used = sc_epoch_zc_bytes(&c->seg), est;
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
    /* Budget full (readers that never leave, e.g. CLI workers, pin what
     * is retired): decided before any work, from a lower bound of the
     * layout's size and from the level of the last refusal, so that a
     * store that will take the copying layout does not build this one
     * first. Memory retired by threads that have left since may come back
     * (sc_evict_retired: throttled, cheap when nothing is due). */
    est = is_array ? sizeof(php_sc_zc_hdr) + sizeof(zend_array) + (uint64_t)zend_hash_num_elements(Z_ARRVAL_P(value)) * sizeof(zval)
                   : sizeof(php_sc_zc_hdr) + _ZSTR_STRUCT_SIZE(Z_STRLEN_P(value));
    if (used + est > php_sc_zc_budget || (php_sc_zc_full_at && used >= php_sc_zc_full_at && est * 4 >= php_sc_zc_full_len)) {
        if (!sc_evict_retired(&c->seg)) {
            return false;
        }
        used = sc_epoch_zc_bytes(&c->seg);
        if (used + est > php_sc_zc_budget || (php_sc_zc_full_at && used >= php_sc_zc_full_at && est * 4 >= php_sc_zc_full_len)) {
            return false;
        }
    }
    php_sc_zc_full_at = 0;
    /* The entry's value starts 64 + key_len bytes into an 8-aligned block:
     * the pad puts the header on an 8-byte boundary there. */
    php_sc_zb_init(&b, php_sc_zc_pad_for(key->len), php_sc_zc_budget);
    php_sc_zb_alloc(&b, sizeof(php_sc_zc_hdr));
    if (!b.failed) {
        memset(b.buf, 0, sizeof(php_sc_zc_hdr));
    }
    root = is_array ? php_sc_zb_array(&b, Z_ARRVAL_P(value), 0) : php_sc_zb_string(&b, Z_STR_P(value));
    if (!b.failed && used + b.len > php_sc_zc_budget) {
        /* Full: memory retired by threads that have left since may come
         * back (sc_epoch.c); else the value takes the copying layout. */
        if (!sc_evict_retired(&c->seg) || sc_epoch_zc_bytes(&c->seg) + b.len > php_sc_zc_budget) {
            b.failed = true;
            /* Build nothing more until the level drops below this. */
            php_sc_zc_full_at = sc_epoch_zc_bytes(&c->seg);
            if (!php_sc_zc_full_at) {
                php_sc_zc_full_at = 1;
            }
            php_sc_zc_full_len = b.len;
        }
    }
    if (b.failed) {
        php_sc_zb_free(&b);
        return false;
    }
    php_sc_zb_reloc(&b, offsetof(php_sc_zc_hdr, root), root);
    h = (php_sc_zc_hdr *)b.buf;
    h->magic = PHP_SC_ZC_MAGIC;
    h->abi = php_sc_zc_write_abi;
    h->shape = is_array ? php_sc_zc_write_shape : 0;
    h->kind = is_array ? PHP_SC_ZC_KIND_ARRAY : PHP_SC_ZC_KIND_STRING;
    if (is_array) {
        /* No second, copying form: readers that cannot use the layout in
         * place copy it (php/zc_copy.c). */
        h->portable_vtype = 0;
        h->portable_off = 0;
        h->portable_len = 0;
    } else {
        h->portable_vtype = SC_V_STRING;
        h->portable_off = (uint32_t)(root + offsetof(zend_string, val));
        h->portable_len = (uint32_t)Z_STRLEN_P(value);
    }
    memset(b.mem, 0, b.pad);
    b.mem[0] = (char)b.pad;
    in.vtype = SC_V_ZC;
    in.scalar = 0;
    in.data = b.mem;
    in.len = b.pad + b.len;
    in.fixup = php_sc_zc_fixup;
    in.fixup_arg = &b;
    *st = sc_cache_store(c, key, &in, ttl, now, add_only);
    php_sc_zb_free(&b);
    /* Too big in one piece: the caller stores the copying form. */
    return *st != SC_TOOBIG && *st != SC_NOMEM;
}

/* ---- fetch ---- */

/* Fork child (after src/sc_epoch.c's handler, registered before this
 * one): a child that got no liveness slot keeps what it inherited (a
 * cover holds it) but may not borrow anything new. */
static void php_sc_zc_atfork_child(void)
{
    if (SCG(zc_entered) && !sc_epoch_inside(&php_sc_shared_cache.seg)) {
        SCG(zc_entered) = false;
    }
}

static void php_sc_zc_register_atfork(void)
{
    pthread_atfork(NULL, NULL, php_sc_zc_atfork_child);
}

void php_sc_zc_enter(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;

    if (php_sc_active && sc_epoch_enter(&php_sc_shared_cache.seg)) {
        SCG(zc_entered) = true;
        pthread_once(&once, php_sc_zc_register_atfork);
    }
}

void php_sc_zc_leave(void)
{
    SCG(zc_holding) = false;
    if (SCG(zc_entered)) {
        sc_epoch_leave(&php_sc_shared_cache.seg);
        SCG(zc_entered) = false;
    }
}

void php_sc_zc_request_end(void)
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
    SCG(zc_holding) = false;
    if (SCG(zc_entered)) {
        sc_epoch_leave(&php_sc_shared_cache.seg);
        SCG(zc_entered) = false;
    }
}

int php_sc_zc_to_zval(const sc_value_out *out, zval *dst)
{
    const char *p = out->data;
    php_sc_zc_hdr h;
    uint8_t pad;

    if (php_sc_zc_in_place(out, dst)) {
        return PHP_SC_ZC_COPIED;
    }
    if (!p || out->len < 1) {
        goto bad;
    }
    pad = (uint8_t)p[0];
    if (pad < 1 || pad > 8 || out->len < pad + sizeof(php_sc_zc_hdr)) {
        goto bad;
    }
    memcpy(&h, p + pad, sizeof(h));
    if (h.magic != PHP_SC_ZC_MAGIC) {
        goto bad;
    }
    if (h.kind == PHP_SC_ZC_KIND_STRING) {
        /* The bytes of the string: readable by any PHP. */
        if (h.portable_vtype != SC_V_STRING || h.portable_off > out->len - pad
            || h.portable_len > out->len - pad - h.portable_off) {
            goto bad;
        }
        ZVAL_STRINGL(dst, p + pad + h.portable_off, h.portable_len);
        php_sc_zc_copied++;
        return PHP_SC_ZC_COPIED;
    }
    if (h.kind != PHP_SC_ZC_KIND_ARRAY) {
        goto bad;   /* objects: php_sc_zc_object_to_zval */
    }
    if (h.abi != PHP_SC_ZC_ABI && h.shape != php_sc_zc_shape_mine) {
        /* Laid out by a PHP whose arrays have another shape: its tables
         * cannot be read here. A miss, as APCu treats a value it cannot
         * read (the core leaves it out of every other function too); the
         * value stays for the processes that can. */
        php_sc_zc_foreign++;
        return PHP_SC_ZC_FOREIGN;
    }
    if (php_sc_zc_copy_array(p + pad, out->len - pad, dst)) {
        php_sc_zc_copied++;
        return PHP_SC_ZC_COPIED;
    }
bad:
    php_error_docref(NULL, E_WARNING, "shardcache: a zero-copy value in the cache is corrupt");
    return PHP_SC_ZC_CORRUPT;
}

bool php_sc_zc_object_to_zval(const sc_value_out *out, zval *dst, bool *parse_failed)
{
    const char *p = out->data, *hp;
    php_sc_zc_hdr h;
    size_t hl;
    uint8_t pad;
    bool borrow;

    *parse_failed = false;
    ZVAL_NULL(dst);
    if (!p || out->len < 1) {
        goto bad;
    }
    pad = (uint8_t)p[0];
    if (pad < 1 || pad > 8 || out->len < pad + sizeof(php_sc_zc_hdr)) {
        goto bad;
    }
    hp = p + pad;
    hl = out->len - pad;
    memcpy(&h, hp, sizeof(h));
    if (h.magic != PHP_SC_ZC_MAGIC || h.kind != PHP_SC_ZC_KIND_OBJECT || h.portable_vtype != SC_V_SERIALIZED
        || h.portable_off > hl || h.portable_len > hl - h.portable_off) {
        goto bad;
    }
    if (h.abi != PHP_SC_ZC_ABI && h.shape != php_sc_zc_shape_mine) {
        php_sc_zc_foreign++;
        *parse_failed = true;   /* a miss, as for arrays of another shape */
        return false;
    }
    borrow = out->borrowed && h.self == (uint64_t)(uintptr_t)hp && h.abi == PHP_SC_ZC_ABI;
    if (borrow) {
        SCG(zc_holding) = true;   /* its arrays are handed out in place */
    } else {
        php_sc_zc_copied++;
    }
    return php_sc_value_decode_zc_object(hp + h.portable_off, h.portable_len, dst, hp, hl, borrow, parse_failed)
           == SUCCESS;
bad:
    php_error_docref(NULL, E_WARNING, "shardcache: a zero-copy value in the cache is corrupt");
    return false;
}

bool php_sc_zc_unreadable(const char *value, uint32_t len)
{
    php_sc_zc_hdr h;
    uint8_t pad;

    if (len < 1) {
        return false;
    }
    pad = (uint8_t)value[0];
    if (pad < 1 || pad > 8 || len < pad + sizeof(h)) {
        return false;
    }
    memcpy(&h, value + pad, sizeof(h));
    return h.magic == PHP_SC_ZC_MAGIC && (h.kind == PHP_SC_ZC_KIND_ARRAY || h.kind == PHP_SC_ZC_KIND_OBJECT)
           && h.abi != PHP_SC_ZC_ABI && h.shape != php_sc_zc_shape_mine;
}

void php_sc_zc_info(zval *dst)
{
    zval z;
    sc_epoch_table *t;

    array_init(&z);
    add_assoc_bool(&z, "enabled", php_sc_zc_on);
    add_assoc_long(&z, "budget", (zend_long)php_sc_zc_budget);
    if (php_sc_active) {
        t = &php_sc_shared_cache.seg.hdr->epochs;
        add_assoc_long(&z, "bytes", (zend_long)__atomic_load_n(&t->zc_bytes, __ATOMIC_RELAXED));
        add_assoc_long(&z, "retired_bytes", (zend_long)__atomic_load_n(&t->retired_bytes, __ATOMIC_RELAXED));
        add_assoc_long(&z, "retired", (zend_long)__atomic_load_n(&t->retired, __ATOMIC_RELAXED));
        add_assoc_long(&z, "reclaimed", (zend_long)__atomic_load_n(&t->reclaimed, __ATOMIC_RELAXED));
        /* Pages of repaired shards held back for readers: give back what
         * nobody can hold first, so the figure says what is really held. */
        sc_epoch_poll(&php_sc_shared_cache.seg, true);
        add_assoc_long(&z, "leaked_bytes", (zend_long)sc_epoch_held_bytes(&php_sc_shared_cache.seg));
        add_assoc_long(&z, "repairs_held", (zend_long)__atomic_load_n(&t->repairs_held, __ATOMIC_RELAXED));
        add_assoc_long(&z, "epoch", (zend_long)__atomic_load_n(&t->global, __ATOMIC_RELAXED));
        add_assoc_long(&z, "scans", (zend_long)__atomic_load_n(&t->scans, __ATOMIC_RELAXED));
        add_assoc_long(&z, "readers", (zend_long)sc_epoch_count_readers(&php_sc_shared_cache.seg));
    }
    add_assoc_bool(&z, "inside", SCG(zc_entered));
    add_assoc_long(&z, "copied", php_sc_zc_copied);
    add_assoc_long(&z, "foreign", php_sc_zc_foreign);
    add_assoc_zval(dst, "zero_copy", &z);
}
