/*
 * php/zc_layout.h - the zero-copy layout: what a zero-copy value's bytes
 * hold (php/zc_store.c lays it out, php/zc.c and php/zc_copy.c read it).
 * Header only.
 *
 * A zero-copy value (vtype SC_V_ZC) is stored once, as
 *   [pad: 1..8 bytes, the first holding the count]
 *   [php_sc_zc_hdr, 8-aligned in the segment]
 *   [the value laid out as PHP's immutable zend_array / zend_string, every
 *    pointer pointing inside this layout]
 */
#ifndef SHARDCACHE_ZC_LAYOUT_H
#define SHARDCACHE_ZC_LAYOUT_H

#include "php.h"
#include <stdint.h>
#include <string.h>

#define PHP_SC_ZC_MAGIC UINT32_C(0x5a43314b)      /* "K1CZ" */
#ifdef ZTS
# define PHP_SC_ZC_ZTS 1
#else
# define PHP_SC_ZC_ZTS 0
#endif
/* The PHP ABI that may use a layout in place: version, debug, ZTS. */
#define PHP_SC_ZC_ABI ((uint32_t)PHP_VERSION_ID * 4u + (ZEND_DEBUG ? 2u : 0u) + (PHP_SC_ZC_ZTS ? 1u : 0u))
/* Strings shorter than this are not laid out. */
#define PHP_SC_ZC_MIN_STRING 64
/* Arrays nested deeper than this are not laid out (nor read). */
#define PHP_SC_ZC_MAX_DEPTH 128

/* OBJECT: object-form bytes (php/object.c) at portable_off, portable_len
 * bytes from the header, whose arrays are laid out as in ARRAY. */
enum { PHP_SC_ZC_KIND_ARRAY = 1, PHP_SC_ZC_KIND_STRING = 2, PHP_SC_ZC_KIND_OBJECT = 3 };

typedef struct php_sc_zc_hdr {
    uint32_t magic;
    uint32_t abi;            /* PHP_SC_ZC_ABI of the process that laid it out */
    uint64_t self;           /* address of this header when laid out */
    uint64_t root;           /* the zend_array / zend_string */
    uint32_t portable_off;   /* strings: their bytes; objects: the object form, from this header */
    uint32_t portable_len;   /* strings: their length; objects: the object form's */
    uint8_t portable_vtype;  /* strings: SC_V_STRING; objects: SC_V_SERIALIZED; arrays: 0 (no second form) */
    uint8_t kind;            /* PHP_SC_ZC_KIND_* */
    uint16_t unused;
    uint32_t shape;          /* arrays and objects: php_sc_zc_shape() of the process that laid it out */
} php_sc_zc_hdr;

/* The pad of a zero-copy value stored under a key of key_len bytes: the
 * entry's value starts 64 + key_len bytes into an 8-aligned block, and
 * the pad puts the header on an 8-byte boundary (php_sc_zc_store). A value
 * whose header is not there fails php_sc_zc_in_place_at's address check. */
static zend_always_inline uint32_t php_sc_zc_pad_for(uint32_t key_len)
{
    return 8 - (key_len & 7);
}

/* Copies the header of the value bytes v (len of them, any alignment) into
 * *h and gives its pad; false when the bytes are too short for a pad and a
 * header, or the pad is not 1..8 (the magic is the caller's to check). */
static zend_always_inline bool php_sc_zc_hdr_read(const char *v, size_t len, php_sc_zc_hdr *h, uint8_t *pad)
{
    if (!v || len < 1) {
        return false;
    }
    *pad = (uint8_t)v[0];
    if (*pad < 1 || *pad > 8 || len < *pad + sizeof(*h)) {
        return false;
    }
    memcpy(h, v + *pad, sizeof(*h));
    return true;
}

#endif
