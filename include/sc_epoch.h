/*
 * sc_epoch.h - epoch-based reclamation of zero-copy entries: memory that a
 * request may still point into is retired instead of freed, and freed once
 * every thread that could hold a pointer into it has left the epoch it was
 * in. Knows nothing of PHP: a zero-copy entry is only an entry flagged
 * SC_ENTRY_ZC whose bytes must not be reused while readers may hold them.
 * See src/sc_epoch.c.
 */
#ifndef SC_EPOCH_H
#define SC_EPOCH_H

#include "sc_common.h"

/* An entry whose value bytes readers use in place (zero-copy): freed only
 * through the retire list. A free bit of sc_entry.flags (0x01 is
 * SC_ENTRY_REFERENCED, 0x02 SC_ENTRY_CHAINED). Set by the storing writer
 * before the entry is linked; never cleared. */
#define SC_ENTRY_ZC 0x04

/* The vtype of a zero-copy value: the glue's layout (after the codec's
 * vtypes 0..7, sc_value.h); bytes like a string's for everyone else. */
#define SC_V_ZC 8

/* A thread's published epoch, one per liveness slot (same index).
 * epoch: 0 = quiescent (holds no zero-copy pointer), else the global epoch
 * + 1 at its first zero-copy fetch of the request; written only by the
 * thread holding liveness slot i (enter/leave), or set to 0 by a scanner
 * that found the owner gone. owner: the liveness token (sc_live.h) of the
 * thread that published epoch, written by it before epoch. */
typedef struct sc_epoch_slot {
    uint64_t epoch;
    uint64_t owner;
} sc_epoch_slot;

#define SC_EPOCH_SLOTS 1024   /* = SC_LIVE_SLOTS (checked in sc_epoch.c) */

/* In the segment header. Every field is changed with atomic operations
 * only; none needs a lock. */
typedef struct sc_epoch_table {
    _Alignas(SC_CACHELINE) uint64_t global;  /* bumped by each retirement */
    uint64_t safe;          /* every published epoch was >= this at the last
                               scan (monotonic: raised by scanners) */
    int64_t scan_time;      /* second of the last scan (throttle) */
    uint64_t scan_global;   /* global at the last scan (throttle) */
    uint64_t zc_bytes;      /* bytes of zero-copy entries, live and retired */
    uint64_t retired_bytes; /* of which retired, not yet freed */
    uint64_t retired;       /* entries retired since the segment was made */
    uint64_t reclaimed;     /* entries freed from retire lists */
    uint64_t leaked_bytes;  /* pages left out of the pool by a repair while
                               readers were in an epoch (sc_shard.c) */
    uint64_t fork_ack;      /* bumped by a fork child once it has published */
    uint64_t leaves;        /* epochs left (bumped by every sc_epoch_leave) */
    uint64_t scan_leaves;   /* leaves at the last full reclamation pass */
    _Alignas(SC_CACHELINE) sc_epoch_slot slots[SC_EPOCH_SLOTS];
} sc_epoch_table;

/* Per-shard retire list (inside sc_shard, shard write lock held for every
 * field): entries unlinked from the table, oldest first. An entry on the
 * list keeps its memory; its header's stamp holds the retirement epoch and
 * its scalar the offset of the next retired entry (0 = last). */
typedef struct sc_retire_list {
    sc_off head;
    sc_off tail;
    uint64_t bytes;         /* retired bytes of this shard (mem_size) */
    uint64_t zc_bytes;      /* zero-copy bytes of this shard, live and retired */
} sc_retire_list;

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
/* Leaves the epoch (request end; thread end; before unmapping). */
void sc_epoch_leave(struct sc_seg *seg);
bool sc_epoch_inside(void);

/* ---- writers (shard write lock held) ---- */

/* THE hook: an entry no table refers to any more goes away. Ordinary
 * entries are freed at once (sc_entry_free); zero-copy ones are retired. */
void sc_entry_release(struct sc_seg *seg, struct sc_shard *shard, struct sc_entry *e);
/* A new zero-copy entry (before it is linked): flags it and counts it. */
void sc_epoch_adopt(struct sc_seg *seg, struct sc_shard *shard, struct sc_entry *e);
/* Frees retired entries of this shard that nobody can hold any more.
 * force: scan the published epochs now instead of at most once a second.
 * Returns the bytes freed. */
uint64_t sc_epoch_reclaim(struct sc_seg *seg, struct sc_shard *shard, bool force);

/* ---- whole-cache work ---- */

/* No lock held. The zero-copy budget is full: if some thread left its
 * epoch (or a second passed) since the last pass, scans the epochs and
 * frees what nobody can hold in every shard (one shard lock at a time).
 * Returns the bytes freed. */
uint64_t sc_epoch_reclaim_all(struct sc_seg *seg);

/* True when some live thread is inside an epoch (scans every slot; clears
 * the slots of dead owners). */
bool sc_epoch_any_reader(struct sc_seg *seg);
/* How many live threads are inside an epoch now (for the figures). */
uint32_t sc_epoch_count_readers(struct sc_seg *seg);
/* After a reset of every allocator (clear with no reader inside an
 * epoch): forgets every retire list and zero-copy byte. */
void sc_epoch_forget_all(struct sc_seg *seg);
/* The shard's memory is being given up wholesale (repair after a dead
 * writer): true if its pages must be leaked rather than reused because a
 * reader may still hold one of its zero-copy values. Forgets its list. */
bool sc_epoch_shard_must_leak(struct sc_seg *seg, struct sc_shard *shard, uint64_t shard_bytes);
/* Boot of a named segment (no other process maps it): every slot quiescent. */
void sc_epoch_boot(struct sc_seg *seg);

/* Zero-copy bytes (live and retired) now in the segment. */
uint64_t sc_epoch_zc_bytes(const struct sc_seg *seg);

#endif
