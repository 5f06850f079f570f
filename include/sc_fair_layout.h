/*
 * sc_fair_layout.h - the shared estimate of each owner's bytes (in the
 * segment header) that stores read when they evict under isolation: what
 * sc_layout.h embeds. The functions are in sc_fair.h (src/sc_fair.c).
 *
 * Owns: the layout of sc_fair.
 * Locks: as written next to the struct: a survey writes it under the
 * global lock; evictions lower bytes[] under their shard's lock; all with
 * relaxed atomics.
 * Death: see sc_fair.h.
 */
#ifndef SC_FAIR_LAYOUT_H
#define SC_FAIR_LAYOUT_H

#include "sc_common.h"

/* Owners an estimate names; more make it "overflow". */
#define SC_FAIR_OWNERS 32

/* The estimate of the bytes each owner's entries hold (sc_fair.h).
 *   when: CLOCK_MONOTONIC second of the survey (0: none); n, overflow,
 *       total, owner[], cursor: written by sc_fair_survey under the global
 *       lock (relaxed atomic stores, when last);
 *   bytes[i]: the same, and lowered by an eviction of owner[i]'s entry
 *       under that entry's shard lock (relaxed load and store: two
 *       evictions at once may lower it once).
 * Read by any store that evicts, under its shard's lock, with relaxed
 * atomic loads and no further lock: a reader may see two surveys mixed,
 * which chooses a victim less well and nothing worse. Nothing in it is
 * trusted as an offset or an index without a bound (n is clamped to
 * SC_FAIR_OWNERS, cursor masked by the shard count). */
typedef struct sc_fair {
    int64_t when;
    uint32_t n;                       /* owners named in owner[] */
    uint32_t cursor;                  /* first shard of the next survey */
    uint32_t overflow;                /* 1: more owners were seen than owner[] names */
    uint32_t unused;
    uint64_t total;                   /* estimated bytes of all entries */
    uint32_t owner[SC_FAIR_OWNERS];
    uint64_t bytes[SC_FAIR_OWNERS];   /* estimated bytes of owner[i]'s entries */
} sc_fair;

#endif
