/*
 * sc_epoch_layout.h - the shared structs of zero-copy reclamation (the
 * epoch table in the segment header, a shard's retire list) and the entry
 * flag and vtype of zero-copy values: what sc_layout.h embeds. The
 * functions are in sc_epoch.h (src/sc_epoch.c).
 *
 * Owns: the layout of sc_epoch_table, sc_epoch_slot and sc_retire_list.
 * Locks: as written next to each struct: the epoch table mostly with
 * atomics (held sets: the pool lock; reset_open: the global lock), a retire
 * list under its shard's REPAIR lock.
 * Death: see sc_epoch.h.
 */
#ifndef SC_EPOCH_LAYOUT_H
#define SC_EPOCH_LAYOUT_H

#include "sc_common.h"

/* An entry whose value bytes readers use in place (zero-copy): freed only
 * through the retire list. A free bit of sc_entry.flags (0x01 is
 * SC_ENTRY_REFERENCED, 0x02 SC_ENTRY_CHAINED). Set by the storing writer
 * before the entry is linked; never cleared. */
#define SC_ENTRY_ZC 0x04


/* A thread's published epoch, one per liveness slot (same index).
 *   epoch: 0 = quiescent (holds no zero-copy pointer), else the global
 *       epoch + 1 at its first zero-copy fetch of the request. Written with
 *       atomic stores, no lock, only by the thread holding liveness slot i
 *       (sc_epoch_enter, sc_epoch_leave, the fork child's publish); zeroed
 *       at boot of a named segment (sc_epoch_boot, exclusive flock). A slot
 *       whose owner is gone keeps its value: scans skip it (sc_live_gone).
 *   owner: the liveness token (sc_live.h) of the thread that published
 *       epoch; written by it, relaxed, before epoch.
 * Both read with atomic loads and no lock by scanners. */
typedef struct sc_epoch_slot {
    uint64_t epoch;
    uint64_t owner;
} sc_epoch_slot;

/* A set of page runs held back from the pool after a repair (see
 * sc_epoch_table.held). stamp: the retirement epoch (0 = unused); pages:
 * pages tagged for the set (may undercount by one run if the repairer was
 * killed mid-walk). */
typedef struct sc_held_set {
    uint64_t stamp;
    uint64_t pages;
} sc_held_set;

#define SC_HELD_SETS 16
/* Allocator owner tags of held sets: above every shard index (at most 4096
 * shards, sc_layout.c). */
#define SC_HELD_TAG0 0xFF00

#define SC_EPOCH_SLOTS 1024   /* = SC_LIVE_SLOTS (checked in sc_epoch.c) */

/* Fork covers (sc_epoch_table.covers, sc_epoch_cover.h): cell i holds
 * (adds << 48) | epoch, epoch the oldest epoch of the fork children that
 * held values inherited inside it, without an epoch slot of their own,
 * since the cell was last empty (0: empty), adds a count of the holders
 * added, modulo 2^16, that only grows (it is kept when the cell is
 * emptied: a cell changes at every add). A holder holds a read lock on
 * byte SC_EPOCH_COVER_LOCK_BASE + i of the segment's lock file (a named
 * segment's file; an anonymous one's memfd), or a pin (cover_pins[i])
 * when it could take no lock. A cell whose byte nobody locks and that no
 * pin holds covers nothing: whoever sees that clears it. */
#define SC_EPOCH_COVERS 64
#define SC_EPOCH_COVER_SHIFT 48
#define SC_EPOCH_COVER_LOCK_BASE (UINT64_C(1) << 40)

/* In the segment header. Who writes each field:
 *   global: atomic increment (seq_cst) by every retirement
 *       (sc_epoch_release_entry, shard REPAIR lock), by a repair that holds
 *       pages (sc_epoch_shard_hold) and by a full reset with readers
 *       inside (sc_epoch_reset_holding). Read by anybody, no lock.
 *   safe: raised by compare-and-swap by any scanner (sc_epoch_scan), no
 *       lock; never lowered.
 *   scan_time, scan_global, scan_leaves, blocker*: relaxed stores by any
 *       scanner, no lock; throttle hints only, a lost store costs one
 *       more scan. scans: relaxed increment by scanners (figures).
 *   zc_bytes, retired_bytes: atomic add / saturating subtract by writers
 *       under their shard's REPAIR lock (adopt, retire, reclaim, hold;
 *       zc_bytes also by the held-set pass under the pool lock);
 *       zeroed by a full reset (sc_epoch_forget_all: global lock and every
 *       shard lock). retired, reclaimed, repairs_held: atomic add under
 *       the same shard lock. Statistics; read relaxed with no lock.
 *   fork_ack: atomic increment (seq_cst) by a fork child or a coverless
 *       thread once it has published its own epoch, before it gives up
 *       its cover (no lock); scans that saw it change retry (sc_epoch_scan).
 *   covers[]: compare-and-swap, no lock: a parent forking inside an
 *       epoch adds its child (prepare handler, after taking the cell's
 *       lock or pin); emptied (epoch 0, adds kept) by whoever finds the
 *       cell's byte unlocked and no pin (sc_epoch_cover.c). Read by
 *       scanners. Zeroed at boot of a named segment.
 *   cover_pins[]: atomic add by a parent whose child's hold could take no
 *       lock, atomic saturating subtract by that child once it has
 *       published or leaves. Zeroed at boot of a named segment.
 *   leaves: atomic increment by every sc_epoch_leave, no lock.
 *   held_mask, held[]: under the pool lock in walk mode (a set taken by
 *       sc_epoch_shard_hold, given back by the held-set pass), or by the
 *       clearer of a full reset (global lock and every shard lock:
 *       sc_epoch_forget_all, held set 0 in sc_epoch_reset_holding); atomic
 *       stores. Read with relaxed loads and no lock, to see whether any
 *       set waits.
 *   reset_open: plain stores by the clearer (global lock and every shard
 *       lock held), read by the next clearer (below).
 *   slots[]: see sc_epoch_slot. */
typedef struct sc_epoch_table {
    _Alignas(SC_CACHELINE) uint64_t global;  /* bumped by each retirement */
    uint64_t safe;          /* every published epoch was >= this at the last
                               scan (monotonic: raised by scanners) */
    int64_t scan_time;      /* second of the last scan (throttle) */
    uint64_t scan_global;   /* global at the last scan (throttle) */
    uint64_t zc_bytes;      /* bytes of zero-copy entries, live and retired,
                               and of the pages in held sets */
    uint64_t retired_bytes; /* of which retired, not yet freed */
    uint64_t retired;       /* entries retired since the segment was made */
    uint64_t reclaimed;     /* entries freed from retire lists */
    uint64_t repairs_held;  /* repairs whose pages went to a held set */
    uint64_t fork_ack;      /* bumped by a fork child once it has published */
    uint64_t leaves;        /* epochs left (bumped by every sc_epoch_leave) */
    uint64_t scan_leaves;   /* leaves at the last full reclamation pass */
    /* The slot whose epoch was the minimum at the last scan (index + 1;
     * 0: none, or the minimum came from elsewhere), its epoch and owner:
     * while that reader is still inside with the same epoch, a new scan
     * can raise nothing (sc_epoch_blocked). Relaxed stores by scanners,
     * no lock; hints only (a stale one costs a scan, or waits one second). */
    uint64_t blocker;
    uint64_t blocker_epoch;
    uint64_t blocker_owner;
    uint64_t scans;         /* scans of the epoch slots (figures) */
    /* Held sets: the pages of shards repaired while readers were inside an
     * epoch (sc_epoch_shard_hold). Set i's runs carry the allocator owner
     * tag SC_HELD_TAG0 + i; they go back to the pool once every published
     * epoch is > held[i].stamp. held_mask: bit i set while set i is in
     * use. Forgotten by a full reset of the pool. */
    uint64_t covers[SC_EPOCH_COVERS];
    /* Bit c: cell c of covers may be nonzero. Set (atomic OR, seq_cst) by
     * the parent before it adds a child to the cell; never cleared but at
     * boot of a named segment. Scanners read only the cells it names. */
    uint64_t cover_mask;
    /* Holders of each cover cell that hold no lock (see covers). */
    uint32_t cover_pins[SC_EPOCH_COVERS];
    uint32_t held_mask;
    /* 1 from the start of a full reset that holds pages for readers
     * (sc_epoch_reset_collect, before any table is emptied) until the
     * pool has been rebuilt with them held (sc_epoch_reset_holding), or
     * until a reset with no reader left. Found set by the next reset: the
     * one before died inside, having emptied tables, retire lists or held
     * sets that said which pages readers hold: every page is held. */
    uint32_t reset_open;
    sc_held_set held[SC_HELD_SETS];
    /* Which slots may hold an epoch: bit i % 64 of inside[i / 64].bits for
     * slot i (each word on a line of its own: threads entering and leaving
     * write 16 lines, not one). Set by slot i's thread (atomic OR,
     * seq_cst) before it publishes a nonzero epoch there; cleared by it
     * (atomic AND) after it stored 0 there. A clear bit therefore means:
     * slot i's epoch is 0, or its thread publishes after whoever read the
     * bit and reads every table after that. A set bit says nothing more
     * (a dead thread's stays set until the slot's next holder leaves an
     * epoch). Zeroed at boot of a named segment. Read by scanners, no lock, so that they look at
     * the slots of threads that entered, not at all SC_EPOCH_SLOTS. */
    struct {
        _Alignas(SC_CACHELINE) uint64_t bits;
    } inside[SC_EPOCH_SLOTS / 64];
    _Alignas(SC_CACHELINE) sc_epoch_slot slots[SC_EPOCH_SLOTS];
} sc_epoch_table;

/* Per-shard retire list (inside sc_shard, shard REPAIR lock held for every
 * field): entries unlinked from the table, oldest first. An entry on the
 * list keeps its memory; its header's stamp holds the retirement epoch and
 * its scalar the offset of the next retired entry (0 = last). */
/* sc_retire_list.bytes of a shard repaired (table dropped) while readers
 * were inside and the pool waited for a full reset (head 0): that reset
 * keeps every run the shard owns out of the pool (sc_epoch.c). */
#define SC_RETIRE_HOLD_RUNS UINT64_MAX

typedef struct sc_retire_list {
    sc_off head;
    sc_off tail;
    uint64_t bytes;         /* retired bytes of this shard (mem_size) */
    uint64_t zc_bytes;      /* zero-copy bytes of this shard, live and retired */
} sc_retire_list;

#endif
