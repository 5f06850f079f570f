/*
 * sc_pin.h - pins: how apcu_inc/dec/cas change an int in place without the
 * shard's lock, and how the shard's writers wait for them. See src/sc_pin.c.
 *
 * Owns: the shard's pin slots and the opening of its odd window.
 * Locks: none: slots are claimed by compare-and-swap; writers hold the
 * shard's REPAIR lock when they open the window.
 * Death: a dead holder's pin is cleared by a waiting writer once
 * sc_live_gone says so; an entry it left half written is settled then.
 */
#ifndef SC_PIN_H
#define SC_PIN_H

#include "sc_layout.h"

/* Claims one of the shard's pin slots for the caller (self: its liveness
 * token, never 0; lane: its lane, whose slot is tried first: both from
 * sc_live_self_lane); returns it, or NULL when every slot is busy. The
 * caller must then check that the shard's sequence counter has not moved
 * since it was sampled (even): from there on, until sc_pin_release, no
 * writer frees or reuses what the caller found in the table. */
sc_pin *sc_pin_claim_lane(sc_shard *shard, sc_owner self, uint32_t lane);

/* The calling thread's lane (0 .. SC_PINS - 1): the pin slot it tries
 * first and its allocation lane (sc_alloc, sc_alloc_free) in every shard.
 * Cached per thread and looked up again when the thread's liveness token
 * changes (after a fork the child has a new token, so a lane of its own);
 * 0 when the thread could get no liveness slot (it then shares lane 0). */
uint32_t sc_pin_lane(sc_shard *shard);

static inline void sc_pin_release(sc_pin *pin)
{
    __atomic_store_n(&pin->owner, 0, __ATOMIC_RELEASE);
}

/* The entry an sc_pin.entry_rel names. */
sc_entry *sc_pin_entry(sc_shard *shard, int64_t rel);

/* Inside the shard's odd window with every pin drained (no lockless writer
 * active): if e (an entry of shard) has an odd version, a lockless store or
 * delete died in the middle of it; the key is dropped (the entry made
 * one of a deleted key, ttl SC_TTL_GONE, its version even) and the shard's
 * count of kept deleted entries (sc_alloc_lane.gone) is counted again,
 * since the dead writer may have left it one off. */
void sc_pin_settle(sc_shard *shard, sc_entry *e);

/* Waits for the shard's pins with the window already odd (repair). */
void sc_pin_drain(sc_shard *shard);

#endif
