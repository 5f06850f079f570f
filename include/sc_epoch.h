/*
 * sc_epoch.h - epoch-based reclamation of zero-copy entries: memory that a
 * request may still point into is retired instead of freed, and freed once
 * every thread that could hold a pointer into it has left the epoch it was
 * in. Knows nothing of PHP: a zero-copy entry is only an entry flagged
 * SC_ENTRY_ZC whose bytes must not be reused while readers may hold them.
 * See src/sc_epoch.c.
 *
 * Owns: the functions over the epoch table and the retire lists
 * (structs in sc_epoch_layout.h).
 * Locks: readers take none; retiring and reclaiming run under the shard's
 * REPAIR lock; the epoch table is changed with atomics only.
 * Death: a dead reader's epoch is released once its liveness slot reads as
 * gone, a dead fork child's cover once the kernel released its lock
 * (sc_epoch_cover.h); a writer dying mid-retire leaves its shard to
 * sc_shard.c's repair.
 */
#ifndef SC_EPOCH_H
#define SC_EPOCH_H

#include "sc_common.h"
#include "sc_epoch_layout.h"

struct sc_seg;
struct sc_shard;
struct sc_entry;
struct sc_live_table;

/* ---- readers (no lock) ---- */

/* The calling thread enters an epoch (publishes it) unless it is in one.
 * False when it cannot (every liveness slot is taken): it must then copy.
 * After true, pointers into zero-copy entries read from a table stay valid
 * until sc_epoch_leave. */
bool sc_epoch_enter(struct sc_seg *seg);
/* True when the calling thread is inside an epoch published in a slot of
 * its own (it may borrow). False for a fork child that inherited an epoch
 * but got no liveness slot: what it inherited stays valid (a cover holds
 * it), but it must copy until sc_epoch_enter says true again. */
bool sc_epoch_inside(const struct sc_seg *seg);
/* Leaves the epoch (request end; thread end; before unmapping). */
void sc_epoch_leave(struct sc_seg *seg);

/* ---- writers (shard REPAIR lock held) ---- */

/* THE hook: an entry no table refers to any more goes away. Ordinary
 * entries are freed at once (sc_entry_free); zero-copy ones too while no
 * thread is inside an epoch (sc_epoch_any_reader), else retired. True
 * when it found nobody inside while retired bytes are left in the cache:
 * every shard's retired entries can go now (the caller, once it holds no
 * lock: sc_evict_reclaimable). */
bool sc_epoch_release_entry(struct sc_seg *seg, struct sc_shard *shard, struct sc_entry *e);
/* A new zero-copy entry (before it is linked): flags it and counts it. */
void sc_epoch_adopt(struct sc_seg *seg, struct sc_shard *shard, struct sc_entry *e);
/* Frees retired entries of this shard that nobody can hold any more.
 * force: scan the published epochs now instead of at most once a second.
 * Returns the bytes freed. */
uint64_t sc_epoch_reclaim(struct sc_seg *seg, struct sc_shard *shard, bool force);

/* ---- whole-cache work ---- */

/* No lock held. True when some thread left its epoch (or a second or 64
 * retirements passed) since the last pass: then the epochs were just
 * scanned, and every shard's sc_epoch_reclaim frees what nobody can hold
 * (sc_evict_retired does that pass). */
bool sc_epoch_rescan_due(struct sc_seg *seg);
/* No lock: whether the shard's oldest retired entry can be freed now (a
 * hint, read without the lock: the pass locks only such shards). */
bool sc_epoch_reclaimable(struct sc_seg *seg, struct sc_shard *shard);

/* True when some live thread is inside an epoch, or a fork child holds
 * inherited values (scans the slots whose inside bit is set, and the fork
 * covers; clears the liveness slots of dead owners). Full fence first:
 * false means no thread can hold anything unlinked before the call. */
bool sc_epoch_any_reader(struct sc_seg *seg);
/* How many live threads are inside an epoch now (for the figures). */
uint32_t sc_epoch_count_readers(struct sc_seg *seg);
/* After a reset of every allocator (clear with no reader inside an
 * epoch): forgets every retire list and zero-copy byte. */
void sc_epoch_forget_all(struct sc_seg *seg);
/* Full reset of the pool while live readers may hold zero-copy values
 * (needs_reset: the pool was left half-changed by a dead writer; the
 * caller holds the global lock and every shard lock, every window open).
 * Before the tables are emptied: true when some live reader is inside an
 * epoch and zero-copy values or held sets exist (or a reset before died
 * inside); *bitmap (malloc'd; NULL if out of memory or after such a death:
 * every page) then marks the pages of every zero-copy entry, linked or
 * retired, and of every held set. After the tables are
 * emptied, sc_epoch_reset_holding resets the pool with those pages kept
 * out of it, as held set 0 (given back once every reader inside now has
 * left: sc_epoch_poll), forgets the rest like sc_epoch_forget_all and
 * frees the bitmap. */
bool sc_epoch_reset_collect(struct sc_seg *seg, uint8_t **bitmap);
void sc_epoch_reset_holding(struct sc_seg *seg, uint8_t *bitmap);
/* The shard's memory is being given up wholesale (repair after a dead
 * writer; its table is already empty): true if its pages were moved to a
 * held set because a reader may still hold one of its zero-copy values
 * (the caller must then not give them back itself); false if the caller
 * gives them back now. Forgets the shard's retire list either way. */
bool sc_epoch_shard_hold(struct sc_seg *seg, struct sc_shard *shard);
/* A shard repaired with its entries kept (sc_shard_repair.c; REPAIR lock,
 * window open): its retire list is replaced by the n zero-copy entries at
 * ret (ascending offsets, none in the repaired table, each an object the
 * allocator counts in use; n is 0 when no reader was inside an epoch, and
 * the old list's entries then went back with the shard's other
 * unreferenced objects), retired now with one new stamp; its zero-copy
 * bytes become zc_kept (those of the zero-copy entries it kept) plus
 * theirs; the segment's figures follow. */
void sc_epoch_shard_retire_kept(struct sc_seg *seg, struct sc_shard *shard, uint64_t zc_kept, const sc_off *ret,
                                uint32_t n);
/* Any lock or none but the pool lock: when held sets wait, scans the
 * published epochs (at most once a second or every 64 retirements unless
 * force) and gives back the sets nobody can hold. Returns the bytes. */
uint64_t sc_epoch_poll(struct sc_seg *seg, bool force);
/* Bytes of repaired shards' pages held back now (the held sets). */
uint64_t sc_epoch_held_bytes(const struct sc_seg *seg);
/* Boot of a named segment (no other process maps it): every slot quiescent. */
void sc_epoch_boot(struct sc_seg *seg);

/* Zero-copy bytes (live and retired) now in the segment, with the pages
 * held for readers after repairs (what shardcache.zero_copy_max bounds). */
uint64_t sc_epoch_zc_bytes(const struct sc_seg *seg);

#endif
