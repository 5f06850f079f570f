/*
 * php/value_fmt.h - the byte format's building blocks shared by
 * php/value.c (arrays) and php/object.c (the object form): the tags and
 * the little-endian helpers. Internal to the glue's value encoding.
 */
#ifndef SHARDCACHE_VALUE_FMT_H
#define SHARDCACHE_VALUE_FMT_H

#include "php.h"
#include <stdint.h>
#include <string.h>

/* ---- tags ---------------------------------------------------------------- */

enum {
    PHP_SC_T_NULL   = 0x00,
    PHP_SC_T_FALSE  = 0x01,
    PHP_SC_T_TRUE   = 0x02,
    PHP_SC_T_I8     = 0x03,
    PHP_SC_T_I32    = 0x04,
    PHP_SC_T_I64    = 0x05,
    PHP_SC_T_DOUBLE = 0x06,
    PHP_SC_T_STR8   = 0x07,
    PHP_SC_T_STR32  = 0x08,
    PHP_SC_T_LIST   = 0x09,
    PHP_SC_T_HASH   = 0x0a,
    PHP_SC_T_REF    = 0x0b,   /* memo form only: a new PHP reference, then its value */
    PHP_SC_T_REFID  = 0x0c,   /* memo form only: id:u32, the same reference again */
    PHP_SC_T_ARRID  = 0x0d,   /* memo form only: id:u32, the same array again */
    PHP_SC_T_MEMO   = 0x0e,   /* first byte of the memo form, then one array */

    PHP_SC_K_I32    = 0x10,
    PHP_SC_K_I64    = 0x11,
    PHP_SC_K_STR8   = 0x12,
    PHP_SC_K_STR32  = 0x13,
    PHP_SC_K_SLOT   = 0x14
};

/* Key slots: inside nested hashes (depth >= 2) keys repeat a lot (lists of
 * rows/records). Encoder and decoder both keep a direct-mapped table of the
 * last string key (length >= 2) seen in each slot, slot = php_sc_key_slot(hash),
 * updated identically on every full key written/read at depth >= 2. A key equal
 * to its slot's current key is written as PHP_SC_K_SLOT + slot number: decode then
 * costs a refcount (no allocation, no compare) and the decoded rows share their
 * key strings as PHP's own arrays would. The tables hold borrowed pointers:
 * keys of the arrays being read/built, alive for the whole call (on decode
 * failure everything is freed and nothing is looked up any more). */
#define PHP_SC_KEYSLOTS 64

static zend_always_inline uint32_t php_sc_key_slot(zend_ulong h)
{
    return (uint32_t) ((h ^ (h >> 16)) & (PHP_SC_KEYSLOTS - 1));
}

/* ---- little-endian helpers ----------------------------------------------- */

static zend_always_inline uint32_t php_sc_le32(uint32_t v)
{
#ifdef WORDS_BIGENDIAN
    return ((v & 0xffu) << 24) | ((v & 0xff00u) << 8) | ((v >> 8) & 0xff00u) | (v >> 24);
#else
    return v;
#endif
}

static zend_always_inline uint64_t php_sc_le64(uint64_t v)
{
#ifdef WORDS_BIGENDIAN
    return ((uint64_t) php_sc_le32((uint32_t) v) << 32) | php_sc_le32((uint32_t) (v >> 32));
#else
    return v;
#endif
}


static zend_always_inline uint32_t php_sc_load_u32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return php_sc_le32(v);
}

static zend_always_inline uint64_t php_sc_load_u64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return php_sc_le64(v);
}

static zend_always_inline void php_sc_store_u32(char *p, uint32_t v)
{
    v = php_sc_le32(v);
    memcpy(p, &v, 4);
}

static zend_always_inline void php_sc_store_u64(char *p, uint64_t v)
{
    v = php_sc_le64(v);
    memcpy(p, &v, 8);
}

/* An integer at p (9 bytes free) in the fewest bytes its tags allow: tag
 * t8 and one byte (t8 0: none), t32 and four, or t64 and eight. Returns
 * the bytes written. */
static zend_always_inline size_t php_sc_fmt_put_long(char *p, zend_long lv, uint8_t t8, uint8_t t32, uint8_t t64)
{
    int64_t v = (int64_t) lv;

    if (t8 && v >= INT8_MIN && v <= INT8_MAX) {
        p[0] = (char) t8;
        p[1] = (char) (int8_t) v;
        return 2;
    }
    if (v >= INT32_MIN && v <= INT32_MAX) {
        p[0] = (char) t32;
        php_sc_store_u32(p + 1, (uint32_t) (int32_t) v);
        return 5;
    }
    p[0] = (char) t64;
    php_sc_store_u64(p + 1, (uint64_t) v);
    return 9;
}

#endif
