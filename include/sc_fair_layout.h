/*
 * sc_fair_layout.h - what the segment keeps of each owner's bytes, which
 * stores read when they evict under isolation: the owners' slot table
 * (in the segment header) and each shard's bytes per slot (in sc_shard).
 * What sc_layout.h embeds; the functions are in sc_fair.h (src/sc_fair.c).
 *
 * Owns: the layout of sc_fair and of sc_shard.fair.
 * Locks: as written next to the fields: a slot is claimed once with a
 * compare-and-swap; a shard's bytes are written under its REPAIR lock.
 * Death: see sc_fair.h.
 */
#ifndef SC_FAIR_LAYOUT_H
#define SC_FAIR_LAYOUT_H

#include "sc_common.h"

/* Slots of owners a segment counts: slot 0 holds the entries whose owner
 * cannot be told (SC_FAIR_NONE), the last one every owner that found the
 * others taken (SC_FAIR_OVERFLOW); an owner in between has a slot of its
 * own. */
#define SC_FAIR_SLOTS 64
#define SC_FAIR_NONE 0u
#define SC_FAIR_OVERFLOW (SC_FAIR_SLOTS - 1u)
/* A claimed slot's tag: this bit, or'ed with the owner. */
#define SC_FAIR_TAG (UINT64_C(1) << 32)

/* The owners' slots (sc_fair.h).
 *   tag[i]: 0 (free) or SC_FAIR_TAG | owner: claimed by the first store of
 *       that owner with a compare-and-swap from 0 (slots are claimed in
 *       order, so an owner is in at most one), never changed after while
 *       the segment lives (a new or reformatted segment starts with none).
 *       tag[SC_FAIR_NONE] and tag[SC_FAIR_OVERFLOW] stay 0.
 * Read by anybody with relaxed atomic loads; nothing in it is an offset,
 * and an owner is looked for only among tags. */
typedef struct sc_fair {
    uint64_t tag[SC_FAIR_SLOTS];
} sc_fair;

/* A shard's bytes per slot (sc_shard.fair): bytes[i] is the sum of the
 * mem_size of the entries in the shard's table whose owner has slot i.
 * Written (relaxed atomic stores) only under the shard's REPAIR lock,
 * together with the table change it follows; read by evicting stores of
 * any shard with relaxed loads and no lock (a moment old). */
typedef struct sc_fair_shard {
    uint64_t bytes[SC_FAIR_SLOTS];
} sc_fair_shard;

#endif
