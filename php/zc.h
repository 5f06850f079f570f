/*
 * php/zc.h - zero-copy values: arrays and strings laid out in the segment
 * as PHP's own immutable arrays and strings, returned by a fetch without a
 * copy. This header is the fetch side (php/zc.c): the epoch a borrowing
 * thread is inside, and the inline helpers of the fetch's fast path. The
 * store side and the settings: php/zc_store.h (included here); the
 * layout: php/zc_layout.h; reclamation: the core (sc_cache_zc_*,
 * src/sc_epoch.c).
 */
#ifndef SHARDCACHE_ZEROCOPY_H
#define SHARDCACHE_ZEROCOPY_H

#include "php.h"
#include "sc_cache.h"
#include "sc_vtype.h"
#include "php_shardcache.h"
#include "zc_layout.h"
#include "zc_store.h"

/* Enters the request's epoch (SCG(zc_entered)) unless every liveness slot
 * is taken (then the thread copies). */
void php_sc_zc_enter(void);

/* For sc_cache.unreadable (sc_cache.h; php/segment.c): the bytes of an
 * SC_V_ZC value (any alignment, len bytes that can be read) are an array
 * or object layout of another shape. */
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

/* Leaves the epoch, holding nothing (see php_sc_zc_idle). */
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
 * value itself when usable here (php_sc_zc_in_place), else a copy of it
 * in request memory (arrays: php/zc_copy.c, also those of another PHP ABI
 * of the same shape). PHP_SC_ZC_SET: dst is set, to the value itself or
 * to a copy. PHP_SC_ZC_FOREIGN: an array of another shape, which this
 * process cannot read (the caller reports a miss; dst is not set; the
 * core never hands such a value out: php_sc_zc_unreadable).
 * PHP_SC_ZC_CORRUPT: the bytes are not a valid layout (a warning was
 * raised; dst is not set). Not for objects (php_sc_zc_object_to_zval). */
enum { PHP_SC_ZC_CORRUPT = -1, PHP_SC_ZC_FOREIGN = 0, PHP_SC_ZC_SET = 1 };
int php_sc_zc_to_zval(const sc_value_out *out, zval *dst);

/* Whether a value of vtype SC_V_ZC holds an object (kind OBJECT): those
 * are decoded by php_sc_zc_object_to_zval, which may run user code
 * (unserialize() of a changed class), like a serialized value. */
static zend_always_inline bool php_sc_zc_is_object(const sc_value_out *out)
{
    php_sc_zc_hdr h;
    uint8_t pad;

    return php_sc_zc_hdr_read(out->data, out->len, &h, &pad) && h.magic == PHP_SC_ZC_MAGIC
           && h.kind == PHP_SC_ZC_KIND_OBJECT;
}

/* An object's layout into dst (see php_sc_obj_decode_zc). False: not
 * decoded; *parse_failed as php_sc_value_decode_ex says it (a layout of
 * another shape: true, a miss); a corrupt layout warns. */
bool php_sc_zc_object_to_zval(const sc_value_out *out, zval *dst, bool *parse_failed);

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
    ZEND_ASSERT(SCG(zc_entered));
    h = (const php_sc_zc_hdr *)(out->data + pad);   /* 8-aligned in the segment */
    if (UNEXPECTED(h->self != (uint64_t)(uintptr_t)h || h->abi != PHP_SC_ZC_ABI || h->magic != PHP_SC_ZC_MAGIC
                   || h->kind == PHP_SC_ZC_KIND_OBJECT)) {
        return false;   /* objects: php_sc_zc_to_zval */
    }
    /* Every borrowed array or string handed out passes here (an object's
     * arrays handed out in place: php_sc_zc_object_to_zval sets it too). */
    SCG(zc_holding) = true;
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

/* Request end (post-deactivate: after the request's memory is gone):
 * gives back the store's buffers and leaves the epoch. */
void php_sc_zc_request_end(void);

/* For shardcache_info(): settings, figures of the epoch table, and this
 * thread's counts. */
void php_sc_zc_info(zval *dst);

#endif
