/*
 * php/zc.h - zero-copy values: arrays and strings laid out in
 * the segment as PHP's own immutable arrays and strings, returned by a
 * fetch without a copy (php/zc.c; reclamation: src/sc_epoch.c).
 */
#ifndef SHARDCACHE_ZEROCOPY_H
#define SHARDCACHE_ZEROCOPY_H

#include "php.h"
#include "sc_cache.h"
#include "sc_epoch.h"
#include "sc_vtype.h"
#include "php_shardcache.h"

/* The layout's header (see php/zc.c). */
#define PHP_SC_ZC_MAGIC UINT32_C(0x5a43314b)      /* "K1CZ" */
#ifdef ZTS
# define PHP_SC_ZC_ZTS 1
#else
# define PHP_SC_ZC_ZTS 0
#endif
#define PHP_SC_ZC_ABI ((uint32_t)PHP_VERSION_ID * 4u + (ZEND_DEBUG ? 2u : 0u) + (PHP_SC_ZC_ZTS ? 1u : 0u))
#define PHP_SC_ZC_MIN_STRING 64
#define PHP_SC_ZC_MAX_DEPTH 128

/* OBJECT: object-form bytes (php/object.c) at portable_off, portable_len
 * bytes from the header, whose arrays are laid out as in ARRAY. */
enum { PHP_SC_ZC_KIND_ARRAY = 1, PHP_SC_ZC_KIND_STRING = 2, PHP_SC_ZC_KIND_OBJECT = 3 };

typedef struct php_sc_zc_hdr {
    uint32_t magic;
    uint32_t abi;            /* PHP_SC_ZC_ABI of the process that laid it out */
    uint64_t self;           /* address of this header when laid out */
    uint64_t root;           /* the zend_array / zend_string */
    uint32_t portable_off;   /* strings: their bytes, from this header */
    uint32_t portable_len;   /* strings: their length */
    uint8_t portable_vtype;  /* strings: SC_V_STRING; arrays: 0 (no second form) */
    uint8_t kind;            /* PHP_SC_ZC_KIND_* */
    uint16_t unused;
    uint32_t shape;          /* arrays: php_sc_zc_shape() of the process that laid it out */
} php_sc_zc_hdr;

/* A number that stands for every size, offset, flag and type code of PHP's
 * zval, zend_array, Bucket and zend_string that the copying reader
 * (php/zc_copy.c) reads, never 0. Builds of another PHP_SC_ZC_ABI (8.2 and
 * 8.4, NTS and ZTS, debug) with the same shape read each other's arrays by
 * copying them; an array of another shape cannot be read here. */
uint32_t php_sc_zc_shape(void);

/* shardcache.zero_copy resolved for this process (MINIT): on, off. */
extern bool php_sc_zc_on;
/* Bytes zero-copy values (live and retired) may take at most. */
extern uint64_t php_sc_zc_budget;

/* MINIT: resolves shardcache.zero_copy ("auto", "1", "0") for this SAPI and
 * the budget (shardcache.zero_copy_max; 0 = a quarter of shm_size). */
void php_sc_zc_minit(const char *setting, zend_long max_bytes, uint64_t shm_size);

/* Whether value may take the zero-copy layout at all (a non-empty array,
 * an object, a string of PHP_SC_ZC_MIN_STRING bytes or more): inlined, so
 * that a store of anything else does not call php_sc_zc_store. */
static zend_always_inline bool php_sc_zc_may_store(const zval *value)
{
    switch (Z_TYPE_P(value)) {
    case IS_ARRAY:
        return zend_hash_num_elements(Z_ARRVAL_P(value)) != 0;
    case IS_OBJECT:
        return true;
    case IS_STRING:
        return Z_STRLEN_P(value) >= PHP_SC_ZC_MIN_STRING;
    default:
        return false;
    }
}

/* Store: when value can and should be zero-copy, lays it out, stores it and
 * returns true with *st set; false: the caller stores it the usual way. */
bool php_sc_zc_store(sc_cache *c, const sc_key *key, zval *value, uint32_t ttl, int64_t now, bool add_only,
                 sc_status *st);

void php_sc_zc_enter(void);

/* sc_cache.unreadable (sc_cache.h): the value bytes (any alignment, len
 * bytes that can be read) are an array layout of another shape. */
bool php_sc_zc_unreadable(const char *value, uint32_t len);

/* Fetch: makes the sink borrow zero-copy entries when this thread may
 * (enters the request's epoch at its first call). */
static zend_always_inline void php_sc_zc_sink_prepare(sc_sink *sink)
{
    if (php_sc_zc_on) {
        if (UNEXPECTED(!SCG(zc_entered))) {
            php_sc_zc_enter();
        }
        if (SCG(zc_entered)) {
            sink->borrow = UINT32_C(1) << SC_V_ZC;
        }
    }
}

/* The same, as the borrow mask itself (sc_sink.borrow). */
static zend_always_inline uint32_t php_sc_zc_borrow(void)
{
    if (php_sc_zc_on) {
        if (UNEXPECTED(!SCG(zc_entered))) {
            php_sc_zc_enter();
        }
        if (EXPECTED(SCG(zc_entered))) {
            return UINT32_C(1) << SC_V_ZC;
        }
    }
    return 0;
}

/* The borrow mask of a thread already inside its epoch; 0 (enters
 * nothing) otherwise: a fetch looks first, and enters (php_sc_zc_borrow)
 * only when what it found is a zero-copy value, so that fetches of ints
 * and other copied values never write the epoch slot. */
static zend_always_inline uint32_t php_sc_zc_borrow_entered(void)
{
    return php_sc_zc_on && EXPECTED(SCG(zc_entered)) ? UINT32_C(1) << SC_V_ZC : 0;
}

/* Leaves the epoch (see php_sc_zc_idle). */
void php_sc_zc_leave(void);

/* Writers (store, delete, clear) call this first: a thread inside an
 * epoch that holds no borrowed value (it fetched only misses, scalars or
 * copies this request; or it is the fork child of such a parent) leaves
 * it, or it would pin every value retired until its request ends, which
 * for a CLI worker is never. Its next fetch enters again. */
static zend_always_inline void php_sc_zc_idle(void)
{
    if (UNEXPECTED(SCG(zc_entered)) && !SCG(zc_holding)) {
        php_sc_zc_leave();
    }
}

/* A value of vtype SC_V_ZC (borrowed or copied) into dst: the immutable
 * value itself when usable here, else a copy of it in request memory
 * (arrays: php/zc_copy.c, also those of another PHP ABI of the same
 * shape). PHP_SC_ZC_FOREIGN: an array of another shape, which this process
 * cannot read (the caller reports a miss; dst is not set; the core never
 * hands such a value out: php_sc_zc_unreadable). PHP_SC_ZC_CORRUPT: the bytes are not a valid layout
 * (a warning was raised; dst is not set). */
enum { PHP_SC_ZC_CORRUPT = -1, PHP_SC_ZC_FOREIGN = 0, PHP_SC_ZC_COPIED = 1 };
int php_sc_zc_to_zval(const sc_value_out *out, zval *dst);

/* Whether a value of vtype SC_V_ZC holds an object (kind OBJECT): those
 * are decoded by php_sc_zc_object_to_zval, which may run user code
 * (unserialize() of a changed class), like a serialized value. */
static zend_always_inline bool php_sc_zc_is_object(const sc_value_out *out)
{
    php_sc_zc_hdr h;
    uint8_t pad;

    if (!out->data || out->len < 1) {
        return false;
    }
    pad = (uint8_t)out->data[0];
    if (pad < 1 || pad > 8 || out->len < pad + sizeof(h)) {
        return false;
    }
    memcpy(&h, out->data + pad, sizeof(h));
    return h.magic == PHP_SC_ZC_MAGIC && h.kind == PHP_SC_ZC_KIND_OBJECT;
}

/* An object's layout into dst (see php_sc_obj_decode_zc). False: not
 * decoded; *parse_failed as php_sc_value_decode_ex says it (a layout of
 * another shape: true, a miss); a corrupt layout warns. */
bool php_sc_zc_object_to_zval(const sc_value_out *out, zval *dst, bool *parse_failed);

/* Copies the array layout whose header is at hdr (len bytes from there to
 * the value's end; any alignment) into dst, relocating and bounds-checking
 * every pointer. False (dst not set): not a valid layout. Same shape only
 * (php_sc_zc_shape). */
bool php_sc_zc_copy_array(const char *hdr, size_t len, zval *dst);
/* The same for the array pointed to from position pos of the layout. */
bool php_sc_zc_copy_array_at(const char *hdr, size_t len, size_t pos, zval *dst);

/* The fetch's fast case: a borrowed value laid out at this address by this
 * PHP, whose header is pad bytes into it, returned in place. False: use
 * php_sc_zc_to_zval. Any other code that hands a pointer into the segment to
 * PHP must set SCG(zc_holding) as this does (see php_shardcache.h). */
static zend_always_inline bool php_sc_zc_in_place_at(const sc_value_out *out, zval *dst, uint32_t pad)
{
    const php_sc_zc_hdr *h;

    /* borrowed: only a sink that php_sc_zc_sink_prepare let borrow (zero-copy
     * on, inside an epoch) gets a pointer into the segment. */
    if (!out->borrowed || out->len < pad + sizeof(php_sc_zc_hdr)) {
        return false;
    }
    h = (const php_sc_zc_hdr *)(out->data + pad);   /* 8-aligned in the segment */
    if (UNEXPECTED(h->self != (uint64_t)(uintptr_t)h || h->abi != PHP_SC_ZC_ABI || h->magic != PHP_SC_ZC_MAGIC
                   || h->kind == PHP_SC_ZC_KIND_OBJECT)) {
        return false;   /* objects: php_sc_zc_to_zval */
    }
    SCG(zc_holding) = true;   /* every borrowed value handed out passes here */
    if (h->kind == PHP_SC_ZC_KIND_ARRAY) {
        Z_ARR_P(dst) = (zend_array *)(uintptr_t)h->root;
        Z_TYPE_INFO_P(dst) = IS_ARRAY;
    } else {
        ZVAL_INTERNED_STR(dst, (zend_string *)(uintptr_t)h->root);
    }
    return true;
}

/* The same, the pad read from the value's first byte (1..8). */
static zend_always_inline bool php_sc_zc_in_place(const sc_value_out *out, zval *dst)
{
    uint8_t pad;

    if (!out->borrowed || out->len < 8 + sizeof(php_sc_zc_hdr)) {
        return false;
    }
    pad = (uint8_t)out->data[0];
    if (pad < 1 || pad > 8) {
        return false;
    }
    return php_sc_zc_in_place_at(out, dst, pad);
}

/* The pad of a zero-copy value stored under a key of key_len bytes: the
 * entry's value starts 64 + key_len bytes into an 8-aligned block, and
 * the pad puts the header on an 8-byte boundary (php_sc_zc_store). A value
 * whose header is not there fails php_sc_zc_in_place_at's address check. */
static zend_always_inline uint32_t php_sc_zc_pad_for(uint32_t key_len)
{
    return 8 - (key_len & 7);
}

/* Request end (post-deactivate: after the request's memory is gone). */
void php_sc_zc_request_end(void);

/* For shardcache_info(): figures of the epoch table. */
void php_sc_zc_info(zval *dst);

#endif
