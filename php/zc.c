/*
 * php/zc.c - zero-copy values, the fetch side (php/zc.h): the epoch a
 * borrowing thread is inside, and a zero-copy value into a zval. The
 * layout: php/zc_layout.h; the store: php/zc_store.c.
 *
 * Fetch. Inside an epoch (the core's sc_cache_zc_enter: src/sc_epoch.c), a
 * header at the address it was laid out for, written by this PHP ABI
 * (PHP_VERSION_ID, ZTS, debug), is borrowed: the zval points at the
 * immutable value. Otherwise an array is copied with every pointer
 * relocated and bounds-checked (php/zc_copy.c), a string from its bytes.
 * An array laid out by another PHP ABI is copied the same way when its
 * shape (php_sc_zc_shape: the sizes, offsets, flags and type codes the
 * copy reads) is this process's; one of another shape cannot be read, and
 * is absent for this process in every function (the core asks
 * php_sc_zc_unreadable, as it asks whether an entry expired). An object's
 * layout is the object form (php/odec.c) with its arrays borrowed or
 * copied the same way.
 *
 * A thread inside an epoch that holds no borrowed value leaves it at its
 * next write (php_sc_zc_idle), and every thread at its request's end.
 *
 * Design: docs/internals.md#php_zc
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <pthread.h>
#include "php.h"
#include "zc.h"
#include "php_shardcache.h"
#include "zc_copy.h"
#include "owner.h"
#include "value.h"

/* Zero-copy values this thread could not borrow and copied, and values of
 * another shape it could not read (figures:
 * shardcache_info()['zero_copy']['copied'], ['foreign']). */
ZEND_TLS zend_long php_sc_zc_copied;
ZEND_TLS zend_long php_sc_zc_foreign;

/* Fork child (after src/sc_epoch.c's handler, registered before this
 * one): a child that got no liveness slot keeps what it inherited (a
 * cover holds it) but may not borrow anything new. */
static void php_sc_zc_atfork_child(void)
{
    if (SCG(zc_entered) && !sc_cache_zc_inside(&php_sc_shared_cache)) {
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

    ZEND_ASSERT(!SCG(zc_entered));   /* the callers' test (php/zc.h) */
    if (php_sc_active && sc_cache_zc_enter(&php_sc_shared_cache)) {
        SCG(zc_entered) = true;
        pthread_once(&once, php_sc_zc_register_atfork);
    }
}

void php_sc_zc_leave(void)
{
    SCG(zc_holding) = false;
    if (SCG(zc_entered)) {
        sc_cache_zc_leave(&php_sc_shared_cache);
        SCG(zc_entered) = false;
    }
}

void php_sc_zc_request_end(void)
{
    php_sc_zc_store_request_end();
    php_sc_zc_leave();
}

int php_sc_zc_to_zval(const sc_value_out *out, zval *dst)
{
    const char *p = out->data;
    php_sc_zc_hdr h;
    uint8_t pad;

    if (php_sc_zc_in_place(out, dst)) {
        return PHP_SC_ZC_SET;   /* the value itself, not a copy */
    }
    if (!php_sc_zc_hdr_read(p, out->len, &h, &pad) || h.magic != PHP_SC_ZC_MAGIC) {
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
        return PHP_SC_ZC_SET;
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
        return PHP_SC_ZC_SET;
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
    if (!php_sc_zc_hdr_read(p, out->len, &h, &pad)) {
        goto bad;
    }
    hp = p + pad;
    hl = out->len - pad;
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
        SCG(zc_holding) = true;   /* its arrays are handed out in place (php_sc_zc_array_at) */
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

    if (!php_sc_zc_hdr_read(value, len, &h, &pad)) {
        return false;
    }
    return h.magic == PHP_SC_ZC_MAGIC && (h.kind == PHP_SC_ZC_KIND_ARRAY || h.kind == PHP_SC_ZC_KIND_OBJECT)
           && h.abi != PHP_SC_ZC_ABI && h.shape != php_sc_zc_shape_mine;
}

void php_sc_zc_info(zval *dst)
{
    zval z;
    sc_cache_zc_figures f;

    array_init(&z);
    add_assoc_bool(&z, "enabled", php_sc_zc_on);
    add_assoc_long(&z, "budget", (zend_long)php_sc_zc_budget);
    /* The segment's zero-copy figures move with every user's values: not a
     * tenant's to read (php/info.c). */
    if (php_sc_active && !php_sc_owner_tenant()) {
        sc_cache_zc_figures_get(&php_sc_shared_cache, &f);
        add_assoc_long(&z, "bytes", (zend_long)f.bytes);
        add_assoc_long(&z, "retired_bytes", (zend_long)f.retired_bytes);
        add_assoc_long(&z, "retired", (zend_long)f.retired);
        add_assoc_long(&z, "reclaimed", (zend_long)f.reclaimed);
        add_assoc_long(&z, "leaked_bytes", (zend_long)f.held_bytes);
        add_assoc_long(&z, "repairs_held", (zend_long)f.repairs_held);
        add_assoc_long(&z, "epoch", (zend_long)f.epoch);
        add_assoc_long(&z, "scans", (zend_long)f.scans);
        add_assoc_long(&z, "readers", (zend_long)f.readers);
    }
    add_assoc_bool(&z, "inside", SCG(zc_entered));
    add_assoc_long(&z, "copied", php_sc_zc_copied);
    add_assoc_long(&z, "foreign", php_sc_zc_foreign);
    add_assoc_zval(dst, "zero_copy", &z);
}
