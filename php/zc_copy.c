/*
 * php/zc_copy.c - the copying reader of zero-copy array layouts.
 *
 * A zero-copy array (php/zc.c) is stored once, as PHP's
 * immutable zend_array laid out in the segment with absolute pointers for
 * the address its header had when it was stored (php_sc_zc_hdr.self). A
 * process that cannot use it in place (it maps the segment at another
 * address, has zero-copy off, or reads a copy: the iterator) copies it
 * into request memory here: every pointer p of the layout is relocated to
 * p - self + (where the header is here), and checked to fall, with all the
 * bytes read through it, inside the value's bytes. Nothing of the layout
 * is trusted: a pointer out of bounds, an unknown type, nesting deeper
 * than PHP_SC_ZC_MAX_DEPTH or more elements than the bytes can hold (arrays
 * shared or cyclic in a corrupt layout) make the copy fail (the caller
 * warns and returns false). Every field is read once with memcpy (the
 * bytes may be unaligned in a copy, and may change under a hostile
 * writer). The hash part of each table is never read: the copy is built
 * by inserting the elements in order, so its chains are PHP's own.
 *
 * Only a process of the same PHP ABI (PHP_SC_ZC_ABI) can read a layout; the
 * caller checks that first.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_hash.h"
#include "zc.h"

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

/* The zend_array pointed to from position pos, copied into dst (an array
 * on success; nothing on failure). */
static bool php_sc_zr_array(php_sc_zr *r, size_t pos, zval *dst, int depth)
{
    zend_array a;
    HashTable *ht;
    size_t off, data, esize, i;
    uint32_t n;
    bool packed;
    zval v;

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
    if (packed) {
        /* Written in place, the counts kept right at every step so that a
         * failure half-way leaves a table zval_ptr_dtor can free. */
        uint32_t count = 0;
        zval *slots;
        zend_hash_real_init_packed(ht);
        slots = ht->arPacked;
        for (i = 0; i < n; i++) {
            size_t zpos = data + i * sizeof(zval);
            if ((uint8_t)r->h[zpos + offsetof(zval, u1.v.type)] == IS_UNDEF) {
                ZVAL_UNDEF(&slots[i]);
            } else if (!php_sc_zr_element(r, zpos, &slots[i], depth)) {
                goto bad;
            } else {
                count++;
            }
            ht->nNumUsed = (uint32_t)i + 1;
            ht->nNumOfElements = count;
            ht->nNextFreeElement = (zend_long)i + 1;
        }
    } else {
        zend_hash_real_init_mixed(ht);
        for (i = 0; i < n; i++) {
            size_t bpos = data + i * sizeof(Bucket);
            zend_ulong h;
            uint64_t kp;
            if ((uint8_t)r->h[bpos + offsetof(Bucket, val) + offsetof(zval, u1.v.type)] == IS_UNDEF) {
                continue;
            }
            if (!php_sc_zr_element(r, bpos + offsetof(Bucket, val), &v, depth)) {
                goto bad;
            }
            memcpy(&kp, r->h + bpos + offsetof(Bucket, key), sizeof(kp));
            if (kp) {
                zend_string *k = php_sc_zr_string(r, bpos + offsetof(Bucket, key));
                if (!k) {
                    zval_ptr_dtor(&v);
                    goto bad;
                }
                zend_hash_update(ht, k, &v);
                zend_string_release_ex(k, 0);
            } else {
                memcpy(&h, r->h + bpos + offsetof(Bucket, h), sizeof(h));
                zend_hash_index_update(ht, h, &v);
            }
        }
    }
    if (a.nNextFreeElement > ht->nNextFreeElement) {
        ht->nNextFreeElement = a.nNextFreeElement;
    }
    return true;
bad:
    zval_ptr_dtor(dst);
    ZVAL_UNDEF(dst);
    return false;
}

bool php_sc_zc_copy_array(const char *hdr, size_t len, zval *dst)
{
    php_sc_zr r;

    if (len < sizeof(php_sc_zc_hdr)) {
        return false;
    }
    r.h = hdr;
    r.len = len;
    memcpy(&r.self, hdr + offsetof(php_sc_zc_hdr, self), sizeof(r.self));
    r.left = len / sizeof(zval);
    return php_sc_zr_array(&r, offsetof(php_sc_zc_hdr, root), dst, 0);
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
