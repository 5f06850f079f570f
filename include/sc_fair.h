/*
 * sc_fair.h - each owner's fair share of memory under eviction
 * (src/sc_fair.c).
 *
 * With isolation (php/owner.c) every entry belongs to an owner, which the
 * glue tells from the entry's hash and key (sc_cache.owner_of). An
 * owner's fair share is the bytes of all entries divided by the number of
 * owners (the storing owner counted). When a store must evict, an entry
 * may go if its owner holds more than its share, if its owner cannot be
 * told, or if it is the storing owner's own while no other owner is above
 * its share. So an owner filling memory takes back memory from the owners
 * above their share, then evicts its own entries, and never those of an
 * owner within its share.
 *
 * The bytes per owner are an estimate in the segment header
 * (sc_fair_survey): a sample of the shards, taken under the global lock,
 * scaled to the whole cache, and lowered by what later evictions remove.
 * Keys spread evenly over shards, so a sample of a few thousand entries is
 * close enough. An estimate older than SC_FAIR_FRESH seconds is not used:
 * a store that must evict then takes a new one first (sc_fair_refresh; one
 * survey every SC_FAIR_FRESH seconds at most, for all processes) and then
 * uses that one, however old it is by the time the store evicts (a
 * process descheduled meanwhile evicts as it would have without the
 * delay). An owner the sample did not see holds too little to be above its
 * share, unless more owners were seen than the estimate names
 * (SC_FAIR_OWNERS): then it is treated as above.
 *
 * Owns: the estimate in the segment header (sc_fair, sc_fair_layout.h)
 * and the choice of victims.
 * Locks: sc_fair_survey runs under the global lock and takes one shard's
 * lock at a time (NO_REPAIR); the estimate is read and lowered with
 * relaxed atomics by evictions under any shard lock (an estimate read
 * half-old chooses a victim less well, nothing worse).
 * Death: a survey killed under a shard lock changed nothing of the shard
 * (it only reads); killed while writing the estimate, it leaves a mixed
 * one, replaced by the next survey within SC_FAIR_FRESH seconds.
 */
#ifndef SC_FAIR_H
#define SC_FAIR_H

#include "sc_layout.h"

/* Seconds an estimate is used for (CLOCK_MONOTONIC). */
#define SC_FAIR_FRESH 2
/* A survey stops after this many entries or this many shards. */
#define SC_FAIR_SAMPLE_ENTRIES 4096
#define SC_FAIR_SAMPLE_SHARDS 64

/* The glue's reading of an entry's owner from its (mixed) hash and key
 * bytes: false when none can be told. */
typedef bool (*sc_fair_owner_fn)(uint64_t hash, const char *key, uint32_t key_len, uint32_t *owner);

/* One store's view: who stores (found from its key on first need). */
typedef struct sc_fair_pass {
    sc_fair *fair;                    /* the segment's (seg->hdr->fair) */
    sc_fair_owner_fn owner_of;
    uint64_t hash;                    /* the stored key's mixed hash */
    const char *key;
    uint32_t key_len;
    bool want_estimate;               /* the store's own shard evicted nothing:
                                         the estimate was not fresh */
    bool surveyed;                    /* the store took an estimate
                                         (sc_fair_refresh): used however old */
    bool caller_known;
    bool caller_valid;                /* false: owner unknown, nothing protected */
    uint32_t caller;
} sc_fair_pass;

/* sc_fair_victim's answers besides an index into the estimate. */
#define SC_FAIR_KEEP (-2)             /* protected: its owner is within its share */
#define SC_FAIR_UNTRACKED (-1)        /* may go; no estimate to lower */

/* Whether the segment's estimate is recent enough to use. No lock. */
bool sc_fair_fresh(const sc_seg *seg);

/* Global lock held, no shard lock: samples shards from fair->cursor and
 * sets the segment's estimate. */
void sc_fair_survey(sc_seg *seg, sc_fair_owner_fn owner_of);

/* Any lock or none: the estimate is no longer fresh (a clear removed
 * entries it counts; an owner it counts as above its share may hold
 * nothing now). */
void sc_fair_forget(sc_seg *seg);

/* No lock held: takes the global lock and a new estimate, unless another
 * process took one meanwhile. */
void sc_fair_refresh(sc_seg *seg, sc_fair_owner_fn owner_of);

/* Shard lock held: whether the store of fp may evict e (SC_FAIR_KEEP: no),
 * and where its owner is in the estimate. fp NULL: every entry may go. */
int sc_fair_victim(sc_fair_pass *fp, const sc_entry *e);

/* e's entry was evicted (idx from sc_fair_victim): its owner's estimate
 * loses its bytes. */
void sc_fair_taken(sc_fair_pass *fp, int idx, uint32_t mem_size);

#endif
