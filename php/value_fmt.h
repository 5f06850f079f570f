/*
 * php/value_fmt.h - the byte formats' building blocks, shared by the
 * codecs of the glue's value encoding (php/value.c and the modules it
 * calls): what an encoder hands the store (php_sc_encoded), the tags of
 * the plain format (php/plain_enc.c, php/plain_dec.c; with its key slots
 * and string value ring) and of the object
 * form (php/object.c; with its zero-copy hook type), and the
 * little-endian helpers. Header only.
 */
#ifndef SHARDCACHE_VALUE_FMT_H
#define SHARDCACHE_VALUE_FMT_H

#include "php.h"
#include <stdint.h>
#include <string.h>
#include "sc_vtype.h"

/* An encoded value: what php_sc_value_encode gives the store. */
typedef struct php_sc_encoded {
    uint8_t vtype;
    int64_t scalar;        /* SC_V_LONG: the value; SC_V_DOUBLE: the IEEE bits (memcpy) */
    const char *data;      /* bytes for STRING/ARRAY/SERIALIZED (NULL otherwise) */
    size_t len;
    /* what php_sc_value_encoded_release frees (set by the encoders) */
    zend_string *owned_str;
    char *owned_buf;
} php_sc_encoded;

/* Arrays nested deeper than this are not put in the SC_V_ARRAY format;
 * they are stored as SC_V_SERIALIZED instead (as APCu does for every array).
 * SC_V_ARRAY data nested deeper than this is rejected by the decoder; the
 * object form bounds its nesting by it too. */
#define PHP_SC_VALUE_MAX_DEPTH 512

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
    PHP_SC_T_SREF   = 0x0f,   /* idx:u8, a string value again (see PHP_SC_SRING) */

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

/* String value ring: string values repeat too (the same 'GET', handler
 * names, patterns in every row). Every string value written as
 * PHP_SC_T_STR8 with a length of at least PHP_SC_SRING_MIN takes the next
 * sequence number s; encoder and decoder count them identically, and the
 * decoder keeps the string it made for s in ring entry s % PHP_SC_SRING.
 * A later value equal to one of the last PHP_SC_SRING such strings is
 * written as PHP_SC_T_SREF + its entry: decode then costs a refcount and
 * the rows share that zend_string, as APCu's fetch gives them. A PHP_SC_T_SREF
 * takes no sequence number; an entry not yet written (idx >= count) is
 * refused. The ring holds borrowed pointers: strings of the value being
 * built, alive for the whole call (on failure nothing is looked up any more).
 * The encoder finds repeats through a direct-mapped table of
 * PHP_SC_SMEMO entries keyed by the string's length and first and last
 * bytes (php/plain_enc.c); a collision only costs a repeat written in full. */
#define PHP_SC_SRING 256
#define PHP_SC_SRING_MIN 2
#define PHP_SC_SMEMO_BITS 7
#define PHP_SC_SMEMO (1u << PHP_SC_SMEMO_BITS)

/* ---- the object form (php/object.c describes it) ------------------------ */

/* First byte of SC_V_SERIALIZED data in the object form (serialize() text
 * never starts with it; a third-party serializer's bytes start with 0x00). */
#define PHP_SC_OBJ_FORM 0x01
#define PHP_SC_OBJ_VERSION 1
/* A declared slot without a property, in a class's slot names. */
#define PHP_SC_OBJ_NOSLOT UINT32_C(0xffffffff)
/* What a class of the head is: a class (its __wakeup(), if any, called
 * once the value is built), an enum, or one rebuilt by its __unserialize()
 * (php_sc_ocls_unser). */
enum { PHP_SC_OCLS_CLASS = 0, PHP_SC_OCLS_ENUM = 1, PHP_SC_OCLS_UNSER = 2 };

/* Tags of the object form's values (beside the scalar tags above). */
enum {
    PHP_SC_O_PLAIN  = 0x20,   /* one array in the plain format */
    PHP_SC_O_LIST   = 0x21,   /* u32 n, then n values (keys 0..n-1) */
    PHP_SC_O_HASH   = 0x22,   /* u32 n, then n (key, value) */
    PHP_SC_O_OBJ    = 0x23,   /* u32 class, u32 n, u32 m, (u32 slot, value) x n, (key, value) x m */
    PHP_SC_O_ENUM   = 0x24,   /* u32 class, u32 length, the case name */
    PHP_SC_O_OBJREF = 0x25,   /* u32 target: that object again (serialize()'s r:) */
    PHP_SC_O_REFTO  = 0x26,   /* u32 target: a reference to it (serialize()'s R:) */
    PHP_SC_O_TARGET = 0x27,   /* the next value is a target */
    PHP_SC_O_KSTR   = 0x28,   /* key: u32 length, bytes (keys also PHP_SC_K_I32/I64) */
    PHP_SC_O_ZARR   = 0x29,   /* zero-copy layout only: u32 position (from its header) of
                                 the pointer to an immutable array laid out there */
    PHP_SC_O_UOBJ   = 0x2a,   /* u32 class, u32 n, (key, value) x n: an object rebuilt
                                 by its __unserialize() from that array (the date
                                 classes: scalar values only) */
    PHP_SC_O_SOBJ   = 0x2b    /* u32 class, u32 n, then n x (u32 slot, value) or
                                 (PHP_SC_OBJ_NOSLOT, u32 length, name, value): the
                                 properties __sleep() named, in its order */
};

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

/* v as a zend_long; false when it does not fit (32-bit builds). */
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

/* tag, the u32 length n (n <= UINT32_MAX) and the n bytes of s, at p
 * (5 + n bytes free there); returns 5 + n. */
static zend_always_inline size_t php_sc_fmt_put_str32(char *p, uint8_t tag, const char *s, size_t n)
{
    p[0] = (char) tag;
    php_sc_store_u32(p + 1, (uint32_t) n);
    memcpy(p + 5, s, n);
    return 5 + n;
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

/* The object form's zero-copy stores (php/oenc.c, called by
 * php/zc_store.c): lays out the plain, non-empty array ht in the layout
 * being built and gives the position, from the layout's header, of a
 * pointer to it; false: it cannot (the store gives up the layout). */
typedef bool (*php_sc_obj_zc_hook)(void *ctx, HashTable *ht, uint32_t *pos);

#endif
