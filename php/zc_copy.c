/*
 * php/zc_copy.c - reading zero-copy array layouts (php/zc_copy.h): the
 * copying reader, and the shape.
 *
 * A zero-copy array (php/zc_store.c) is stored once, as PHP's
 * immutable zend_array laid out in the segment with absolute pointers for
 * the address its header had when it was stored (php_sc_zc_hdr.self). A
 * process that cannot use it in place (it maps the segment at another
 * address, has zero-copy off, is of another PHP ABI of the same shape, or
 * reads a copy: the iterator) copies it into request memory here: every
 * pointer p of the layout is relocated to p - self + (where the header is
 * here), and checked to fall, with all the bytes read through it, inside
 * the value's bytes. Nothing of the layout is trusted: a pointer out of
 * bounds, an unknown type, nesting deeper than PHP_SC_ZC_MAX_DEPTH or more
 * elements than the bytes can hold (arrays shared or cyclic in a corrupt
 * layout) make the copy fail (the caller warns). Every field is read once
 * with memcpy (the bytes may be unaligned in a copy, and may change under
 * a hostile writer). The hash part of each table is never read: the copy
 * is built by inserting the elements in order, so its chains are PHP's
 * own.
 *
 * Only a process whose arrays have the layout's shape (php_sc_zc_shape)
 * can read it; the caller checks that first.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_hash.h"
#include "zc_copy.h"
#include "php_shardcache.h"

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

typedef struct php_sc_zr {
    const char *h;      /* the header, here */
    size_t len;         /* bytes from the header to the value's end */
    uint64_t self;      /* the header's address when the layout was made */
    size_t left;        /* elements that may still be visited */
} php_sc_zr;

/* The pointer stored at position pos: its offset from the header, if it
 * and `need` bytes from it lie inside the value. */
static bool php_sc_zr_ptr(const php_sc_zr *r, size_t pos, size_t need, size_t *off)
{
    uint64_t v, o;

    if (pos > r->len || r->len - pos < sizeof(v)) {
        return false;
    }
    memcpy(&v, r->h + pos, sizeof(v));
    o = v - r->self;    /* below self: wraps to a huge offset */
    if (o > r->len || r->len - o < need) {
        return false;
    }
    *off = (size_t)o;
    return true;
}

/* The zend_string pointed to from position pos, copied. */
static zend_always_inline zend_string *php_sc_zr_string(const php_sc_zr *r, size_t pos)
{
    size_t off, slen;

    if (!php_sc_zr_ptr(r, pos, _ZSTR_HEADER_SIZE, &off)) {
        return NULL;
    }
    memcpy(&slen, r->h + off + offsetof(zend_string, len), sizeof(slen));
    if (slen > r->len - off - _ZSTR_HEADER_SIZE) {
        return NULL;
    }
    return zend_string_init(r->h + off + _ZSTR_HEADER_SIZE, slen, 0);
}

static bool php_sc_zr_array(php_sc_zr *r, size_t pos, zval *dst, int depth);

/* The zval at position pos (16 bytes inside the value), into dst, for the
 * types php_sc_zr_element does not read itself: null, false, true, an array.
 * False for any other type. */
static bool php_sc_zr_other(php_sc_zr *r, size_t pos, zval *dst, int depth)
{
    switch ((uint8_t)r->h[pos + offsetof(zval, u1.v.type)]) {
    case IS_NULL:
        ZVAL_NULL(dst);
        return true;
    case IS_FALSE:
        ZVAL_FALSE(dst);
        return true;
    case IS_TRUE:
        ZVAL_TRUE(dst);
        return true;
    case IS_ARRAY:
        return php_sc_zr_array(r, pos + offsetof(zval, value), dst, depth + 1);
    default:
        return false;
    }
}

/* The element zval at position pos, into dst: an int, a double or a string
 * in place (the common case, without php_sc_zr_other's call and switch), any
 * other type through php_sc_zr_other. False for an unknown type or a string
 * that fails its checks. The type is written afresh, never copied: the
 * layout's type flags are not trusted. */
static zend_always_inline bool php_sc_zr_element(php_sc_zr *r, size_t pos, zval *dst, int depth)
{
    uint8_t type = (uint8_t)r->h[pos + offsetof(zval, u1.v.type)];

    if (type == IS_LONG) {
        zend_long l;
        memcpy(&l, r->h + pos, sizeof(l));
        ZVAL_LONG(dst, l);
        return true;
    }
    if (type == IS_DOUBLE) {
        double d;
        memcpy(&d, r->h + pos, sizeof(d));
        ZVAL_DOUBLE(dst, d);
        return true;
    }
    if (type == IS_STRING) {
        zend_string *str = php_sc_zr_string(r, pos + offsetof(zval, value));
        if (!str) {
            return false;
        }
        ZVAL_STR(dst, str);
        return true;
    }
    return php_sc_zr_other(r, pos, dst, depth);
}

/* The n slots of a packed table at data into ht (initialized packed),
 * written in place, the counts kept right at every step so that a failure
 * half-way leaves a table zval_ptr_dtor can free. */
static zend_always_inline bool php_sc_zr_packed(php_sc_zr *r, HashTable *ht, size_t data, uint32_t n, int depth)
{
    uint32_t count = 0;
    zval *slots;
    size_t i;

    zend_hash_real_init_packed(ht);
    slots = ht->arPacked;
    for (i = 0; i < n; i++) {
        size_t zpos = data + i * sizeof(zval);
        if ((uint8_t)r->h[zpos + offsetof(zval, u1.v.type)] == IS_UNDEF) {
            ZVAL_UNDEF(&slots[i]);
        } else if (!php_sc_zr_element(r, zpos, &slots[i], depth)) {
            return false;
        } else {
            count++;
        }
        ht->nNumUsed = (uint32_t)i + 1;
        ht->nNumOfElements = count;
        ht->nNextFreeElement = (zend_long)i + 1;
    }
    return true;
}

/* The n buckets of a hash at data into ht (initialized mixed), inserted
 * in order. */
static zend_always_inline bool php_sc_zr_mixed(php_sc_zr *r, HashTable *ht, size_t data, uint32_t n, int depth)
{
    size_t i;
    zval v;

    zend_hash_real_init_mixed(ht);
    for (i = 0; i < n; i++) {
        size_t bpos = data + i * sizeof(Bucket);
        zend_ulong h;
        uint64_t kp;
        if ((uint8_t)r->h[bpos + offsetof(Bucket, val) + offsetof(zval, u1.v.type)] == IS_UNDEF) {
            continue;
        }
        if (!php_sc_zr_element(r, bpos + offsetof(Bucket, val), &v, depth)) {
            return false;
        }
        memcpy(&kp, r->h + bpos + offsetof(Bucket, key), sizeof(kp));
        if (kp) {
            zend_string *k = php_sc_zr_string(r, bpos + offsetof(Bucket, key));
            if (!k) {
                zval_ptr_dtor(&v);
                return false;
            }
            zend_hash_update(ht, k, &v);
            zend_string_release_ex(k, 0);
        } else {
            memcpy(&h, r->h + bpos + offsetof(Bucket, h), sizeof(h));
            zend_hash_index_update(ht, h, &v);
        }
    }
    return true;
}

/* The zend_array pointed to from position pos, copied into dst (an array
 * on success; nothing on failure). */
static bool php_sc_zr_array(php_sc_zr *r, size_t pos, zval *dst, int depth)
{
    zend_array a;
    HashTable *ht;
    size_t off, data, esize;
    uint32_t n;
    bool packed;

    if (depth > PHP_SC_ZC_MAX_DEPTH || !php_sc_zr_ptr(r, pos, sizeof(zend_array), &off)) {
        return false;
    }
    memcpy(&a, r->h + off, sizeof(a));
    if ((HT_FLAGS(&a) & HASH_FLAG_UNINITIALIZED) || a.nNumUsed == 0) {
        array_init(dst);
        if (a.nNextFreeElement > 0) {
            Z_ARRVAL_P(dst)->nNextFreeElement = a.nNextFreeElement;
        }
        return true;
    }
    packed = (HT_FLAGS(&a) & HASH_FLAG_PACKED) != 0;
    esize = packed ? sizeof(zval) : sizeof(Bucket);
    n = a.nNumUsed;
    /* Each element is visited once in a well-formed layout; a layout
     * whose tables are shared or cyclic would be visited again and again. */
    if (n > r->left || n > r->len / esize) {
        return false;
    }
    r->left -= n;
    if (!php_sc_zr_ptr(r, off + offsetof(zend_array, arData), (size_t)n * esize, &data)) {
        return false;
    }
    array_init_size(dst, packed || a.nNumOfElements > n ? n : a.nNumOfElements);
    ht = Z_ARRVAL_P(dst);
    if (!(packed ? php_sc_zr_packed(r, ht, data, n, depth) : php_sc_zr_mixed(r, ht, data, n, depth))) {
        zval_ptr_dtor(dst);
        ZVAL_UNDEF(dst);
        return false;
    }
    if (a.nNextFreeElement > ht->nNextFreeElement) {
        ht->nNextFreeElement = a.nNextFreeElement;
    }
    return true;
}

bool php_sc_zc_copy_array_at(const char *hdr, size_t len, size_t pos, zval *dst)
{
    php_sc_zr r;

    if (len < sizeof(php_sc_zc_hdr)) {
        return false;
    }
    r.h = hdr;
    r.len = len;
    memcpy(&r.self, hdr + offsetof(php_sc_zc_hdr, self), sizeof(r.self));
    r.left = len / sizeof(zval);
    return php_sc_zr_array(&r, pos, dst, 0);
}

bool php_sc_zc_copy_array(const char *hdr, size_t len, zval *dst)
{
    return php_sc_zc_copy_array_at(hdr, len, offsetof(php_sc_zc_hdr, root), dst);
}

bool php_sc_zc_array_at(const char *hdr, size_t len, size_t pos, bool borrow, zval *dst)
{
    if (borrow) {
        uint64_t v;
        ZEND_ASSERT(SCG(zc_holding));   /* a pointer into the segment handed to PHP */
        if (pos > len || len - pos < sizeof(v)) {
            return false;
        }
        memcpy(&v, hdr + pos, sizeof(v));
        Z_ARR_P(dst) = (zend_array *)(uintptr_t)v;
        Z_TYPE_INFO_P(dst) = IS_ARRAY;   /* immutable: not refcounted */
        return true;
    }
    return php_sc_zc_copy_array_at(hdr, len, pos, dst);
}
