/*
 * sc_fair.h - each owner's fair share of memory under eviction
 * (src/sc_fair.c).
 *
 * With isolation (php/owner.c) every entry belongs to an owner, which the
 * glue tells from the entry's hash and key (sc_seg.owner_of). An owner's
 * fair share is the segment's bytes (its pages; all entries' bytes if they
 * count more) divided by the number of owners that hold any (the storing
 * owner counted). When a store must evict, an
 * entry may go if its owner holds more than its share, if its owner cannot
 * be told, or if it is the storing owner's own while no other owner is
 * above its share. So an owner filling memory takes back memory from the
 * owners above their share, then evicts its own entries, and never those
 * of an owner within its share.
 *
 * The bytes per owner are counted exactly: each shard keeps the bytes of
 * its entries per owner slot (sc_shard.fair), changed by whoever links or
 * unlinks an entry, under the shard's REPAIR lock that the change already
 * takes: a store (its new entry, less the one it replaces), a delete, an
 * eviction or expiry (sc_evict_drop), a clear (zero), a repair
 * (sc_fair_recount_shard). Entries rewritten in place (lockless stores,
 * inc/dec/cas, in-place scalars) keep their size; an entry deleted without
 * the lock keeps its memory and stays counted until it is dropped; a
 * resize moves entries between tables and changes no count. A store that
 * evicts sums every shard's bytes per owner, with no lock (a moment old).
 *
 * Owner slots (sc_fair_layout.h): an owner gets the first free slot at its
 * first entry, with a compare-and-swap, and keeps it while the segment
 * lives. Owners are Unix users (and the preload's public owner), which
 * only the administrator creates: a tenant has one uid and so takes one
 * slot, however it stores. When the 62 owner slots are taken, later
 * owners share the overflow slot, which counts as one owner: together
 * they get one share, and lose entries to others only while together
 * above it; the owners with slots of their own keep their guarantee.
 *
 * Owns: the owners' slots (sc_header.fair), each shard's bytes per slot
 * (sc_shard.fair) and the choice of victims.
 * Locks: a shard's bytes are written under its REPAIR lock only, read by
 * anybody with relaxed atomics; slots are claimed with a compare-and-swap.
 * Death: a process killed under a shard's REPAIR lock, after changing the
 * table and before its count, leaves the shard to be repaired by the next
 * locker, which recounts the shard's bytes from the entries the repair
 * keeps (sc_fair_recount_shard); a count is never written outside that
 * lock, so no death leaves one wrong past the repair. A process killed
 * after claiming a slot leaves it claimed, holding no bytes.
 */
#ifndef SC_FAIR_H
#define SC_FAIR_H

#include "sc_layout.h"

/* One store's view of the owners' bytes while it evicts. */
typedef struct sc_fair_pass {
    sc_seg *seg;
    uint32_t caller;                  /* the storing owner's slot (SC_FAIR_NONE:
                                         not told, nothing protected) */
    bool summed;                      /* bytes[] and what follows are set */
    bool others_over;                 /* an owner other than the caller is above share */
    uint32_t nslots;                  /* slots summed: 0 .. nslots-1, and the overflow one */
    uint64_t share;                   /* the segment's bytes (or total) / owners
                                         holding bytes (caller counted) */
    uint64_t total;
    uint64_t bytes[SC_FAIR_SLOTS];    /* each slot's bytes, summed over the shards,
                                         less what this pass took since */
} sc_fair_pass;

/* sc_fair_victim's answers besides a slot. */
#define SC_FAIR_KEEP (-2)             /* protected: its owner is within its share */
#define SC_FAIR_UNTRACKED (-1)        /* may go; its owner cannot be told */

/* No lock needed: owner's slot, claimed now if it has none
 * (SC_FAIR_OVERFLOW when every slot is taken); sc_fair_slot first tries
 * the slot the thread found last. */
uint32_t sc_fair_slot_find(sc_seg *seg, uint32_t owner);

/* Any lock or none: the slot of e's owner as seg->owner_of reads it
 * (SC_FAIR_NONE when none can be told). */
uint32_t sc_fair_entry_slot(sc_seg *seg, const sc_entry *e);

/* The calling thread's: the owner whose salt is in every key it stores or
 * deletes (sc_cache_writer; the glue sets it whenever its salt changes),
 * and the slot it found last (checked against the segment before use).
 * Initial-exec, as sc_local: read by every store. */
typedef struct sc_fair_local {
    uint64_t want;                    /* SC_FAIR_TAG | the writer */
    uint32_t last;                    /* below SC_FAIR_OVERFLOW */
} sc_fair_local;
extern _Thread_local sc_fair_local sc_fair_here __attribute__((tls_model("initial-exec")));

static inline uint32_t sc_fair_slot(sc_seg *seg, uint32_t owner)
{
    uint32_t s = sc_fair_here.last;

    SC_ASSERT(s < SC_FAIR_OVERFLOW);
    if (SC_LIKELY(__atomic_load_n(&seg->hdr->fair.tag[s], __ATOMIC_RELAXED) == (SC_FAIR_TAG | owner))) {
        return s;
    }
    return sc_fair_slot_find(seg, owner);
}

/* The slot of the entries of a key the calling thread stores or deletes
 * (hash: the key's mixed hash, for the check that such an entry reads
 * back the writer as its owner). */
static inline uint32_t sc_fair_key_slot(sc_seg *seg, uint64_t hash, const char *key, uint32_t key_len)
{
    uint32_t told;

    (void)hash;
    (void)key;
    (void)key_len;
    (void)told;
    if (!seg->owner_of) {
        return SC_FAIR_NONE;
    }
    /* The key's entries read back the owner the glue names. */
    SC_ASSERT(seg->owner_of(hash, key, key_len, &told) && (SC_FAIR_TAG | told) == sc_fair_here.want);
    if (SC_LIKELY(__atomic_load_n(&seg->hdr->fair.tag[sc_fair_here.last], __ATOMIC_RELAXED) == sc_fair_here.want)) {
        return sc_fair_here.last;
    }
    return sc_fair_slot_find(seg, (uint32_t)sc_fair_here.want);
}

/* Shard REPAIR lock held: slot's bytes in the shard change by delta
 * (modulo 2^64: a decrease is a wrapped negative). */
static inline void sc_fair_count(sc_shard *shard, uint32_t slot, uint64_t delta)
{
    uint64_t *b = &shard->fair.bytes[slot];

    SC_ASSERT(slot < SC_FAIR_SLOTS);
    __atomic_store_n(b, __atomic_load_n(b, __ATOMIC_RELAXED) + delta, __ATOMIC_RELAXED);
}

/* Shard REPAIR lock held: the shard holds no entry (a clear). */
void sc_fair_zero_shard(sc_shard *shard);

/* Shard lock held (a repair's), the table sane: sets the shard's bytes per slot
 * from the entries its table holds. A repair calls it once it has settled
 * which entries the shard keeps, before it releases the lock. */
void sc_fair_recount_shard(sc_seg *seg, sc_shard *shard);

/* A store's pass; caller: the slot of the stored key's owner
 * (sc_fair_key_slot). */
static inline void sc_fair_begin(sc_fair_pass *fp, sc_seg *seg, uint32_t caller)
{
    fp->seg = seg;
    fp->caller = caller;
    fp->summed = false;
}

/* Any lock: the pass sums every shard's bytes again at its next use. */
static inline void sc_fair_stale(sc_fair_pass *fp)
{
    if (fp) {
        fp->summed = false;
    }
}

/* Shard REPAIR lock held: whether the store of fp may evict e (SC_FAIR_KEEP:
 * no), and e's owner's slot (or SC_FAIR_UNTRACKED). fp NULL: every entry
 * may go. */
int sc_fair_victim(sc_fair_pass *fp, const sc_entry *e);

/* e's entry was evicted (slot from sc_fair_victim): the pass's view of its
 * owner loses its bytes (the shard's count is lowered by sc_evict_drop). */
void sc_fair_taken(sc_fair_pass *fp, int slot, uint32_t mem_size);

#endif
