/*
 * php/oenc_buf.h - the object form's encoder's state (php/oenc.c): the
 * buffer it writes, the targets and classes it numbered, what it keeps
 * alive, and the primitives that write the form's tags and numbers
 * (php/value_fmt.h) into that buffer. Per store, in request memory; no
 * shared state.
 */
#ifndef SHARDCACHE_OENC_BUF_H
#define SHARDCACHE_OENC_BUF_H

#include "php.h"
#include "value_fmt.h"
#include "plain_enc.h"

typedef struct php_sc_oenc {
    char *buf;
    size_t len, cap;
    HashTable memo;            /* object or reference (address) -> target id */
    uint32_t ntargets;
    zend_class_entry **cls;    /* classes in the order of their first use */
    uint32_t ncls, clscap;
    uint32_t depth;
    uint32_t level, max_level; /* unserialize()'s nesting: objects and non-empty arrays */
    bool not_plain;            /* the top array is known not to be plain */
    bool no_shared_refs;       /* a shared reference refuses the value (igbinary) */
    /* zero-copy layout: lays out plain arrays (NULL: none; php_sc_obj_zc_hook) */
    php_sc_obj_zc_hook zc;
    void *zc_ctx;
    uint32_t nzc;              /* arrays laid out so */
    /* Values whose objects run user code when stored (__serialize(),
     * __sleep(): php_sc_ocls_user_code): the first such object met stops
     * the walk (restart); a dry walk, running none, checks that the form
     * takes all it can see; then the real walk (checked) calls them, once
     * each, as serialize() would, keeping what it met alive (kept) as
     * serialize()'s table does, so that no address is reused meanwhile. */
    bool dry, checked, restart;
    zval *kept;
    uint32_t nkept, keptcap;
} php_sc_oenc;

static zend_always_inline char *php_sc_oenc_reserve(php_sc_oenc *e, size_t need)
{
    if (UNEXPECTED(e->cap - e->len < need)) {
        php_sc_plain_grow(&e->buf, &e->cap, e->len, need, 256);
    }
    return e->buf + e->len;
}

static zend_always_inline void php_sc_oenc_u8(php_sc_oenc *e, uint8_t v)
{
    *php_sc_oenc_reserve(e, 1) = (char) v;
    e->len++;
}

static zend_always_inline void php_sc_oenc_tag_u32(php_sc_oenc *e, uint8_t tag, uint32_t v)
{
    char *p = php_sc_oenc_reserve(e, 5);
    p[0] = (char) tag;
    php_sc_store_u32(p + 1, v);
    e->len += 5;
}

static zend_always_inline void php_sc_oenc_u32(php_sc_oenc *e, uint32_t v)
{
    char *p = php_sc_oenc_reserve(e, 4);
    php_sc_store_u32(p, v);
    e->len += 4;
}

static zend_always_inline bool php_sc_oenc_str(php_sc_oenc *e, uint8_t tag, const char *s, size_t n)
{
    char *p;
    if (n > UINT32_MAX - 16) {
        return false;
    }
    p = php_sc_oenc_reserve(e, 5 + n);
    e->len += php_sc_fmt_put_str32(p, tag, s, n);
    return true;
}

static zend_always_inline void php_sc_oenc_long(php_sc_oenc *e, zend_long lv, uint8_t t8, uint8_t t32, uint8_t t64)
{
    e->len += php_sc_fmt_put_long(php_sc_oenc_reserve(e, 9), lv, t8, t32, t64);
}

/* The target id of ptr, or (first time) -1 after giving it the next id. */
static zend_always_inline zend_long php_sc_oenc_memo(php_sc_oenc *e, const void *ptr)
{
    /* Keyed by the address with its high bits folded into the low ones
     * (two xor-shifts: still one key per address): objects of one size
     * lie a bin size apart, and the table's buckets go by the low bits. */
    zend_ulong k = (zend_ulong) (uintptr_t) ptr;
    zval *found;
    zval id;

    k ^= k >> 9;
    k ^= k >> 17;
    found = zend_hash_index_find(&e->memo, k);
    if (found) {
        return Z_LVAL_P(found);
    }
    ZVAL_LONG(&id, (zend_long) e->ntargets++);
    zend_hash_index_add_new(&e->memo, k, &id);
    return -1;
}

/* zv (an object, a reference, or the array a native class's __serialize()
 * returned) stays alive until the store ends, so that no object made
 * meanwhile takes an address the walk numbered. */
static zend_never_inline void php_sc_oenc_keep(php_sc_oenc *e, zval *zv)
{
    if (e->nkept == e->keptcap) {
        e->keptcap = e->keptcap ? e->keptcap * 2 : 16;
        e->kept = safe_erealloc(e->kept, e->keptcap, sizeof(zval), 0);
    }
    ZVAL_COPY(&e->kept[e->nkept], zv);
    e->nkept++;
}

static uint32_t php_sc_oenc_class(php_sc_oenc *e, zend_class_entry *ce)
{
    uint32_t i;
    for (i = 0; i < e->ncls; i++) {
        if (e->cls[i] == ce) {
            return i;
        }
    }
    if (e->ncls == e->clscap) {
        e->clscap = e->clscap ? e->clscap * 2 : 8;
        e->cls = safe_erealloc(e->cls, e->clscap, sizeof(*e->cls), 0);
    }
    e->cls[e->ncls] = ce;
    return e->ncls++;
}

#endif
