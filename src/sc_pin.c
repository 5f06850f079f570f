/*
 * sc_pin.c - pins: in-place int updates without the shard's lock, and the
 * writers' wait for them.
 *
 * Owns: the shard's pin slots (sc_shard.pins), sc_shard_head.pins_used,
 * the opening of the shard's odd window (sc_shard_write_begin), and the
 * settling of an entry a lockless store left half written (sc_pin_settle).
 *
 * Protocol. An updater claims a pin slot (compare-and-swap 0 -> its
 * liveness token; its lane's slot first), looks the entry up under the
 * sequence counter and changes the int with one atomic read-modify-write.
 *
 *   updater: claim slot (seq_cst) ... lookup ... load seq (seq_cst), must
 *            equal the even value sampled before claiming
 *   writer:  seq += 1 (seq_cst RMW: the window is odd) ... load pins_used
 *            and the slots (seq_cst), wait until each is 0
 *
 * One of the two sees the other's write: the updater gives up, or the
 * writer waits. pins_used lets shards never pinned skip the slot loads.
 *
 * Locks: none of its own. Writers call sc_shard_write_begin with the
 * shard's REPAIR lock held; the liveness check only trylocks.
 * Death: a killed pin holder leaves its token in the slot; a waiting
 * writer asks sc_live_gone and clears it (a descheduled holder is waited
 * for). The update is one atomic instruction: no torn int. A dead lockless
 * writer that named an entry (entry_rel) leaves it to be settled once every
 * pin is drained: still odd, sc_pin_settle drops the key; even, the store
 * was complete or never began.
 *
 * Design: docs/internals.md#sc_pin
 */
#include <sched.h>
#include "sc_pin.h"

#define SC_PIN_SPINS 256

uint32_t sc_pin_lane(sc_shard *shard)
{
    return sc_live_my_lane(sc_layout_shard_live(shard)) % SC_PINS;
}

sc_pin *sc_pin_claim_lane(sc_shard *shard, sc_owner self, uint32_t lane)
{
    uint32_t first = lane % SC_PINS, i;

    SC_ASSERT(lane == sc_pin_lane(shard));

    if (SC_UNLIKELY(!__atomic_load_n(&sc_layout_head(shard)->pins_used, __ATOMIC_RELAXED))) {
        __atomic_store_n(&sc_layout_head(shard)->pins_used, 1, __ATOMIC_SEQ_CST);
    }
    for (i = 0; i < SC_PINS; i++) {
        uint32_t k = (first + i) % SC_PINS;
        sc_pin *pin = &shard->pins[k];
        sc_owner expected = 0;

        if (__atomic_load_n(&pin->owner, __ATOMIC_RELAXED) == 0
            && __atomic_compare_exchange_n(&pin->owner, &expected, self, false, __ATOMIC_SEQ_CST,
                                           __ATOMIC_RELAXED)) {
            return pin;
        }
    }
    return NULL;
}

sc_entry *sc_pin_entry(sc_shard *shard, int64_t rel)
{
    return (sc_entry *)((uintptr_t)shard + (uintptr_t)rel);
}

/* Counts the shard's entries with ttl SC_TTL_GONE and makes its lanes'
 * figures say so. Inside the window with every pin drained and the shard's
 * lock held: nobody else changes the figures or those ttls meanwhile. This
 * file has only the shard in hand: the segment starts with its header,
 * whose liveness table the shard knows (live_rel). The table may be one a
 * dead writer left half changed (a repair drains the pins before it
 * repairs the shard): every offset is checked against the segment's size,
 * as readers check them. */
static void sc_pin_gone_recount(sc_shard *shard)
{
    const sc_header *hdr = (const sc_header *)((const char *)sc_layout_shard_live(shard) - offsetof(sc_header, live));
    const char *base = (const char *)hdr;
    const sc_table *table = &sc_layout_head(shard)->table;
    uint64_t size = hdr->size, cap = table->capacity, off = table->off;
    const uint8_t *tags;
    const uint32_t *slots;
    uint32_t i, l;
    int64_t n = 0;

    SC_ASSERT(sc_layout_in_window(shard));

    if (off && sc_is_pow2((uint32_t)cap) && off < size && sc_table_bytes((uint32_t)cap) <= size - off) {
        tags = (const uint8_t *)(base + off);
        slots = (const uint32_t *)(base + off + SC_ALIGN_UP(cap, 8));
        for (i = 0; i < cap; i++) {
            sc_off eoff = (sc_off)slots[i] << SC_SLOT_SHIFT;
            if ((tags[i] & SC_TAG_FULL) && eoff && eoff <= size - sizeof(sc_entry)
                && ((const sc_entry *)(base + eoff))->ttl == SC_TTL_GONE) {
                n++;
            }
        }
    }
    for (l = 0; l < SC_ALLOC_LANES; l++) {
        __atomic_store_n(&shard->alloc.lanes[l].gone, l == 0 ? n : 0, __ATOMIC_RELAXED);
    }
}

void sc_pin_settle(sc_shard *shard, sc_entry *e)
{
    uint16_t v = __atomic_load_n(&e->ver, __ATOMIC_RELAXED);

    SC_ASSERT(sc_layout_in_window(shard));

    if (!(v & 1)) {
        return;
    }
    /* Torn by a writer that died: the key is dropped - made an entry of a
     * deleted key (SC_TTL_GONE, as a lockless delete leaves it), which no
     * fetch, exists, update or listing returns, which the entries figure
     * leaves out (recounted below), and which the next store of the key
     * replaces or brings back (a lockless store rewrites every byte of
     * the value) and memory pressure or a growing table removes.
     * Removing it from the table here is not possible: the caller of
     * sc_shard_write_begin may hold this very entry (a store replacing
     * it, a delete) and free it afterwards. A dead delete or store may
     * have changed ttl (0 <-> SC_TTL_GONE) and counted it, or not yet:
     * count again. */
    e->ttl = SC_TTL_GONE;
    __atomic_store_n(&e->ver, (uint16_t)(v + 1), __ATOMIC_RELEASE);
    sc_pin_gone_recount(shard);
}

/* Waits until the pin is free. Returns the entry a holder found dead was
 * rewriting without the lock (its entry_rel), or 0. */
static int64_t sc_pin_wait(sc_live_table *live, sc_pin *pin)
{
    unsigned spins = 0;
    sc_owner holder;
    int64_t torn = 0;

    /* Repeats while somebody holds the pin: a holder is inside one int
     * update or one lockless store, so it lets go soon, or is found dead
     * (looked at every SC_PIN_SPINS spins, yielding the CPU otherwise)
     * and the pin is taken from it. */
    while ((holder = __atomic_load_n(&pin->owner, __ATOMIC_SEQ_CST)) != 0) {
        if (++spins < SC_PIN_SPINS) {
            sc_cpu_relax();
            continue;
        }
        spins = 0;
        if (sc_live_gone(live, holder)) {
            /* Died holding the pin. An int update was one atomic
             * instruction, done or not done; a lockless store may have
             * died inside its entry's version window: remember the entry,
             * settled once every other pin is drained. */
            int64_t rel = __atomic_load_n(&pin->entry_rel, __ATOMIC_ACQUIRE);
            __atomic_store_n(&pin->entry_rel, 0, __ATOMIC_RELAXED);
            if (__atomic_compare_exchange_n(&pin->owner, &holder, 0, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED)
                && rel) {
                torn = rel;
            }
        } else {
            sched_yield();
        }
    }
    return torn;
}

void sc_pin_drain(sc_shard *shard)
{
    int64_t torn[SC_PINS];
    uint32_t i, n = 0;

    SC_ASSERT(sc_layout_in_window(shard));

    if (!__atomic_load_n(&sc_layout_head(shard)->pins_used, __ATOMIC_SEQ_CST)) {
        return;
    }
    for (i = 0; i < SC_PINS; i++) {
        int64_t rel = sc_pin_wait(sc_layout_shard_live(shard), &shard->pins[i]);
        if (rel) {
            torn[n++] = rel;
        }
    }
    /* Every pin is free and the window is odd: no lockless store is under
     * way, so an odd entry version now is a dead writer's. */
    for (i = 0; i < n; i++) {
        sc_pin_settle(shard, sc_pin_entry(shard, torn[i]));
    }
}
