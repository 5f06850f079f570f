/*
 * sc_pin.c - pins: in-place int updates without the shard's lock, and the
 * writers' wait for them.
 *
 * Owns: the shard's pin slots (sc_shard.pins), sc_shard_head.pins_used,
 * and the opening of the shard's odd window (sc_shard_write_begin).
 *
 * apcu_inc on one hot key from many processes must not serialise on the
 * shard's mutex. An updater instead claims one of the shard's SC_PINS pin
 * slots (compare-and-swap 0 -> its liveness token, each slot on its own cache line),
 * finds the entry under the sequence counter as a fetch does, and changes
 * the int with one atomic read-modify-write. While a pin is held, no writer
 * frees or reuses memory the pin holder found, because:
 *
 *   updater: claim slot (seq_cst) ... lookup ... load seq (seq_cst), must
 *            equal the even value sampled before claiming
 *   writer:  seq += 1 (seq_cst RMW, window now odd) ... load pins_used and
 *            the slots (seq_cst), wait until each is 0
 *
 * Of two such sequences, at least one sees the other's write: either the
 * updater sees the counter moved and gives up (releasing the slot at once),
 * or the writer sees the slot held and waits before changing anything.
 * Updaters that sample the counter while it is odd never claim a slot.
 * pins_used (set once by the first updater of the shard, before its first
 * claim) lets shards that never had an updater skip the slot loads.
 *
 * Death: a thread killed while holding a pin leaves its liveness token
 * (sc_live.h: a slot and a generation, not a pid) in the slot. A waiting
 * writer spins briefly, then asks sc_live_gone whether the token's owner
 * still holds its liveness slot - a trylock of a robust mutex, which needs
 * no /proc, works across users and cannot be fooled by a recycled pid - and
 * clears the slot for it if not; a pin holder that is merely descheduled is
 * waited for (sched_yield). The update itself is one atomic instruction, so
 * a killed updater never leaves a torn int.
 *
 * Locks: none of its own. Writers call sc_shard_write_begin with the shard's
 * REPAIR lock held; the liveness check only trylocks.
 */
#include <sched.h>
#include "sc_pin.h"

#define SC_PIN_SPINS 256

sc_pin *sc_pin_claim(sc_shard *shard, sc_owner self)
{
    uint32_t first = (uint32_t)self % SC_PINS;
    uint32_t i;

    if (SC_UNLIKELY(!__atomic_load_n(&sc_head(shard)->pins_used, __ATOMIC_RELAXED))) {
        __atomic_store_n(&sc_head(shard)->pins_used, 1, __ATOMIC_SEQ_CST);
    }
    for (i = 0; i < SC_PINS; i++) {
        sc_pin *pin = &shard->pins[(first + i) % SC_PINS];
        sc_owner expected = 0;

        if (__atomic_load_n(&pin->owner, __ATOMIC_RELAXED) == 0
            && __atomic_compare_exchange_n(&pin->owner, &expected, self, false, __ATOMIC_SEQ_CST,
                                           __ATOMIC_RELAXED)) {
            return pin;
        }
    }
    return NULL;
}

static void sc_pin_wait(sc_live_table *live, sc_pin *pin)
{
    unsigned spins = 0;
    sc_owner holder;

    while ((holder = __atomic_load_n(&pin->owner, __ATOMIC_SEQ_CST)) != 0) {
        if (++spins < SC_PIN_SPINS) {
            sc_cpu_relax();
            continue;
        }
        spins = 0;
        if (sc_live_gone(live, holder)) {
            /* Died holding the pin: its update was one atomic instruction,
             * done or not done; only the slot is left to free. */
            __atomic_compare_exchange_n(&pin->owner, &holder, 0, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
        } else {
            sched_yield();
        }
    }
}

void sc_pin_drain(sc_shard *shard)
{
    uint32_t i;

    if (!__atomic_load_n(&sc_head(shard)->pins_used, __ATOMIC_SEQ_CST)) {
        return;
    }
    for (i = 0; i < SC_PINS; i++) {
        sc_pin_wait(sc_shard_live(shard), &shard->pins[i]);
    }
}

void sc_shard_write_begin(sc_shard *shard)
{
    /* A locked RMW: the odd value is visible before the slots are read. */
    __atomic_fetch_add(&sc_head(shard)->seq, 1, __ATOMIC_SEQ_CST);
    sc_pin_drain(shard);
}
