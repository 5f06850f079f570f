/*
 * sc_layout.h - the layout of the shared segment: the header, the shard
 * heads and the shards (the aggregate of every module's shared structs),
 * and making or binding a segment. The process-local handle (sc_seg) and
 * the offset helpers are in sc_seg.h. See src/sc_layout.c.
 *
 * Owns: the layout of every shared struct that is not a module's own
 * (header, shard heads, shards, figures, reservations, pins).
 * Locks: each struct below opens with a block saying, field by field, who
 * writes it under which lock or window and who may read it with no lock.
 * Death: per field, in those blocks; the repairs are in sc_shard.c
 * (a shard), sc_alloc.c (the pool) and sc_file.c (a restart).
 */
#ifndef SC_LAYOUT_H
#define SC_LAYOUT_H

#include "sc_common.h"
#include "sc_lock.h"
#include "sc_live.h"
#include "sc_epoch_layout.h"
#include "sc_fair_layout.h"
#include "sc_alloc.h"
#include "sc_seg.h"
#include "sc_table.h"

#define SC_MAGIC UINT64_C(0x3148435344524853) /* "SHRDSCH1" */
#define SC_MIN_PAGES_PER_SHARD 8

/*
 * Terms used in the lock blocks below (see sc_lock.h and sc_shard.h):
 *   REPAIR lock    the shard's mutex taken with SC_LOCK_REPAIR (its holder
 *                  sets shard->dirty: if it dies, the next locker empties
 *                  the shard).
 *   NO_REPAIR lock the same mutex taken with SC_LOCK_NO_REPAIR (dirty stays
 *                  clear: its death leaves nothing to repair). Exclusive
 *                  too: it excludes REPAIR holders and other NO_REPAIR ones.
 *   window         the shard's odd sequence window (sc_shard_write_begin ..
 *                  sc_shard_write_end, REPAIR lock held): what optimistic
 *                  readers and pin holders can reach changes only inside.
 *   no lock        a plain or atomic access by anybody, at any time.
 */

/* Figures of one shard (in sc_shard). No invariant depends on them: they
 * are read without a lock by sc_cache_figures_get and under the NO_REPAIR
 * lock by sc_info.c, and may be a moment old. The counts every store or
 * delete changes (inserts, updates, deletes) are in the shard's head
 * instead (sc_shard_head), on the line the store writes anyway.
 * The figures readers and lockers bump atomically (misses, lock_waits,
 * optimistic_retries, sampled hits) come first, on a line away from the
 * allocator's counters that follow (see sc_shard).
 *   expired, evicted, resizes, repairs, cleanups:
 *       REPAIR lock, plain ++ (repairs: by the locker that repaired).
 *   nomem: atomic add with no lock after a store gave up for lack of
 *       pages (sc_cache_store), and plain ++ under the REPAIR lock when the
 *       table could not grow; the two may race and lose a count.
 *   hits: NO_REPAIR lock, taken with trylock by one fetch in SC_HIT_SAMPLE
 *       (sc_cache_record_hit), plain +=.
 *   misses: atomic add, no lock (one miss in SC_MISS_SAMPLE).
 *   optimistic_retries: atomic add, no lock (a fetch that retried).
 *   lock_waits: atomic add by a locker (either mode) right after it got
 *       the lock it had to wait for.
 * All are zeroed, except repairs, by sc_cache_clear (global lock and every
 * shard's REPAIR lock held). A process that dies while bumping one loses
 * at most that count. */
typedef struct sc_shard_stats {
    uint64_t misses;       /* sampled: SC_MISS_SAMPLE per recorded miss */
    uint64_t lock_waits;   /* lock requests that found the lock busy */
    uint64_t optimistic_retries; /* optimistic reads that had to start over */
    uint64_t hits;         /* sampled: SC_HIT_SAMPLE per recorded hit */
    uint64_t expired;      /* entries removed because their TTL passed */
    uint64_t evicted;      /* live entries removed to make room */
    uint64_t resizes;
    uint64_t nomem;        /* stores refused for lack of memory */
    uint64_t repairs;      /* times the shard was repaired after a holder died */
    uint64_t cleanups;     /* sweeps for expired entries when memory was short
                              (APCu's cleanups: sc_evict_expired) */
} sc_shard_stats;

/* A key whose value apcu_entry() is computing (owner 0 = free), in the
 * shard's reservations[] (sc_reserve.c): its hash (sc_cache_key_hash,
 * which holds the owner's salt), its length and its first
 * SC_RESERVATION_KEY bytes (all of a key that short).
 *   hash, owner, key_len, key: claimed, taken over and released under the shard's
 *       NO_REPAIR lock (a holder killed halfway leaves at worst a slot
 *       whose owner is gone, which the next caller takes over); read under
 *       that lock. Cleared with no lock by the first user of a named
 *       segment after a restart (sc_file.c, exclusive flock held).
 *   wake: a futex word; bumped atomically (release) by whoever stores the
 *       value or releases the slot, read atomically with no lock by the
 *       waiters, who sleep on it. */
#define SC_RESERVATION_KEY 104
typedef struct sc_reservation {
    uint64_t hash;
    sc_owner owner;        /* liveness token of the computing thread (sc_live.h) */
    uint32_t wake;
    uint32_t key_len;
    char key[SC_RESERVATION_KEY];
} sc_reservation;

#define SC_RESERVATIONS 8

/* A pin slot (sc_pin.c): the liveness token (sc_live.h) of a thread
 * changing an int of the shard in place without its lock, or storing over
 * an entry without it (sc_lockless.c), or 0.
 *   owner: no lock. Set 0 -> token by its claimer with a compare-and-swap,
 *       cleared by it (release store), or by a REPAIR lock holder waiting
 *       in sc_shard_write_begin with a compare-and-swap once sc_live_gone
 *       says the token's owner is gone; read (seq_cst) by those writers.
 *       Cleared by the first user of a named segment after a restart.
 *   entry_rel: the entry a lockless store is rewriting, in bytes
 *       from the shard (the segment's mappings differ between processes),
 *       or 0. Written by the owner only (relaxed): set before it claims the
 *       entry's version, cleared after it released it, both while it holds
 *       the pin. Read by a drainer that found the owner gone, before it
 *       clears owner: that entry's version, if still odd once every pin is
 *       drained, was left odd by the dead writer (sc_pin.c settles it).
 *       Cleared with owner after a restart.
 * Each on its own cache line so that pin holders in different slots do not
 * share a line. */
typedef struct sc_pin {
    _Alignas(SC_CACHELINE) sc_owner owner;
    int64_t entry_rel;
} sc_pin;

#define SC_PINS 8
_Static_assert(SC_PINS == SC_LIVE_LANES, "one pin slot per lane");
_Static_assert(SC_ALLOC_LANES == SC_LIVE_LANES, "one allocation lane per pin lane (sc_pin_lane)");

/* The line every fetch reads: a shard's sequence counter and its table.
 * The heads of all shards sit packed in one array, away from the rest of
 * each shard, so that a request whose fetches land in many shards touches
 * a few pages of heads instead of one page per shard (a TLB miss each
 * after every context switch).
 *   seq: REPAIR lock; made odd by sc_shard_write_begin (seq_cst add) and
 *       even again by sc_shard_write_end (release store). Read with no lock
 *       by every optimistic reader and pin claimer (acquire / seq_cst).
 *       Odd with no REPAIR holder means a writer died inside its window:
 *       the next locker repairs the shard.
 *   table: REPAIR lock, inside the window (sc_resize.c, sc_cache.c,
 *       sc_evict.c, repair and clear). Read with no lock by optimistic
 *       readers (every offset bounds-checked, the result trusted only once
 *       seq confirms it) and under either lock mode.
 *   frozen: the thread id of a clear that owns the shard without holding
 *       its mutex (sc_shard_freeze: window open, dirty set), or 0. Written
 *       under the shard's mutex by that clear, which holds the global lock
 *       from before it sets frozen until after it clears it; also cleared
 *       under the mutex and the global lock by a locker that finds it set
 *       while holding the global lock (its freezer is dead: that locker
 *       repairs the shard). Read under the mutex by every locker (the line
 *       it reads anyway); no optimistic reader looks at it (the odd seq
 *       is what keeps them out).
 *   pins_used: no lock; set once 0 -> 1 by the first pin claimer of the
 *       shard (seq_cst store, before its first claim), never cleared. Read
 *       by writers (seq_cst) to skip the pin slots of shards never pinned.
 *   inserts, updates, deletes: REPAIR lock, plain ++, outside
 *       the window (no reader looks at them); here because every store
 *       and delete writes seq anyway, so counting takes no other shared
 *       line. Read as the other figures (sc_shard_stats). Zeroed by clear,
 *       kept by a repair. */
typedef struct sc_shard_head {
    _Alignas(SC_CACHELINE) uint64_t seq;
    sc_table table;
    uint32_t pins_used;    /* set once a pin was taken: writers check pins */
    uint32_t frozen;       /* thread id of the clear that owns the shard, or 0 */
    uint64_t inserts;
    uint64_t updates;
    uint64_t deletes;
} sc_shard_head;

_Static_assert(sizeof(sc_shard_head) == SC_CACHELINE, "a shard head is one cache line");

/* One shard. The lock sits alone on its cache line (with what only its
 * holder reads) so that writers taking it do not disturb optimistic
 * readers of the head, nor the lockless writers and pin holders (who read
 * where the head and the liveness table are: head_rel and live_rel, on
 * the slam line, which no store writes while slam defense is off).
 *   lock: the shard's robust mutex (sc_shard.c), in either mode.
 *   dirty: written by the lock holder only: set right after taking the
 *       lock in REPAIR mode, cleared right before unlocking and by a locker
 *       that found the previous owner dead (after repairing); 2
 *       (SC_SHARD_DIRTY_CLEAR, sc_shard.c) while a clear has the shard
 *       frozen, so that its death empties the shard. Read only by lockers
 *       that were told the previous owner died.
 *   pending_off, pending_cap, pending_set: the publication record of a
 *       new table (sc_resize.c, REPAIR lock): its offset and capacity are
 *       written, then pending_set = 1, then the table in the head, then
 *       pending_set = 0. Read by the repair after a death
 *       (sc_shard_repair.c), which publishes that table again when
 *       pending_set is 1 (used and tombs it counts itself). Cleared by a
 *       repair that empties the shard (sc_shard.c). On the lock's line:
 *       only the holder reads or writes them.
 *   index, head_rel, live_rel: written once when the segment is made
 *       (sc_layout_format, one process), read with no lock afterwards.
 *   verify, vhead, body_sum: named segments only (sc_verify.c). Written
 *       by the last user of the file as it detaches (exclusive flock: no
 *       other process maps it) and by the locker that checks a pending
 *       shard (mutex held, window odd); read by every locker (verify, on
 *       the line it has just written) and by the first user after a
 *       restart; read with a relaxed load and no lock, as a hint, by
 *       fetches that found the window odd (sc_cache.c: straight to the
 *       lock). Zero in an anonymous segment.
 *   alloc: REPAIR lock (sc_alloc.c), reset by repair and clear. Its figures
 *       (the lanes' used_bytes, requested_bytes, nobjects; spare_reuses,
 *       spare_pages) are read with relaxed atomic loads and no lock by
 *       figures and eviction.
 *   stats: see sc_shard_stats.
 *   reservations: see sc_reservation (NO_REPAIR lock, not the REPAIR one).
 *   slam_*: REPAIR lock, read and written only by stores with
 *       apc.slam_defense on.
 *   pins: see sc_pin (no lock). */
typedef struct sc_shard {
    _Alignas(SC_CACHELINE) sc_mutex lock;
    uint32_t dirty;        /* a REPAIR holder has the lock (see sc_shard.c) */
    /* Named segments (sc_verify.c): SC_VERIFY_PENDING while the shard's
     * pages are as the last user of the file left them and not yet checked
     * against body_sum; vhead: the first of its runs (page index, SC_NONE:
     * none), linked through their head descriptors' head fields. */
    uint32_t verify;
    uint32_t vhead;
    uint32_t pending_set;  /* pending_off, pending_cap name a table being published */
    uint64_t body_sum;
    sc_off pending_off;    /* the table sc_resize.c is publishing: its memory */
    uint32_t pending_cap;  /* and its capacity */
    /* -- state of the lock's holders, each field under the lock named
     *    above; nothing an optimistic reader looks at. stats, then alloc:
     *    the counters every allocation and free writes are its lanes',
     *    each lane on lines of its own with nothing readers bump (checked
     *    below) -- */
    _Alignas(SC_CACHELINE) sc_shard_stats stats;
    sc_shard_alloc alloc;
    sc_reservation reservations[SC_RESERVATIONS];
    /* apc.slam_defense (sc_cache.c): the last key stored in this shard -
     * its hash and length - the second it was stored (the "now" of
     * the store) and the thread that stored it. A writer dying here leaves
     * a stale record, which only matters for the rest of that second. */
    uint64_t slam_hash;
    uint32_t slam_len;
    uint32_t slam_owner;
    int64_t slam_time;
    /* -- written once, read with no lock by everybody: on the slam line,
     *    which only stores with apc.slam_defense on write (they take the
     *    lock: no lockless store or pin holder runs alongside them) -- */
    uint32_t index;
    /* Where this shard's head is, in bytes from the shard itself (see
     * sc_layout_head). */
    int64_t head_rel;
    /* Where the segment's liveness table is, in bytes from the shard (for
     * the writers' pin wait, which has only the shard in hand). */
    int64_t live_rel;
    sc_pin pins[SC_PINS];
    /* Zero-copy entries unlinked but maybe still in use (sc_epoch.c);
     * shard REPAIR lock. */
    sc_retire_list retire;
    /* Each owner's bytes in this shard (sc_fair_layout.h): written under
     * the REPAIR lock by whoever links or unlinks an entry, read by
     * evicting stores of any shard with no lock. */
    _Alignas(SC_CACHELINE) sc_fair_shard fair;
} sc_shard;

/* Every allocation and free writes its lane's figures and reads its lane's
 * lists: each lane on lines of its own. */
_Static_assert(sizeof(sc_alloc_lane) % SC_CACHELINE == 0 && offsetof(sc_shard, alloc.lanes) % SC_CACHELINE == 0,
               "each allocation lane must sit on cache lines of its own");
/* The fields lockless writers read share no line with the lock. */
_Static_assert(offsetof(sc_shard, index) / SC_CACHELINE == offsetof(sc_shard, slam_hash) / SC_CACHELINE
                   && offsetof(sc_shard, live_rel) / SC_CACHELINE == offsetof(sc_shard, slam_hash) / SC_CACHELINE
                   && offsetof(sc_shard, slam_hash) >= SC_CACHELINE,
               "index, head_rel and live_rel sit on the slam line");

/* The head of a shard whose lock or writer state the caller already has in
 * hand. (A fetch goes from the hash to seg->heads directly, without reading
 * the sc_shard at all.) */
static inline sc_shard_head *sc_layout_head(const sc_shard *shard)
{
    return (sc_shard_head *)((uintptr_t)shard + (uintptr_t)shard->head_rel);
}

/* The shard's entries as the info functions count them: its full slots,
 * less the entries of keys deleted without the lock and kept for their
 * next store (sc_alloc_lane.gone). A moment old without the lock. */
static inline uint32_t sc_layout_shard_entries(const sc_shard *shard)
{
    uint64_t used = __atomic_load_n(&sc_layout_head(shard)->table.used, __ATOMIC_RELAXED);
    uint64_t gone = sc_alloc_gone(&shard->alloc);

    return used > gone ? (uint32_t)(used - gone) : 0;
}

static inline sc_live_table *sc_layout_shard_live(const sc_shard *shard)
{
    return (sc_live_table *)((uintptr_t)shard + (uintptr_t)shard->live_rel);
}

/* Checkers for SC_ASSERT (sc_common.h): exact for the calling thread.
 * The REPAIR lock is the shard's mutex held with dirty set (only a REPAIR
 * holder sets it), or the shard frozen by the caller (sc_shard_freeze: it
 * owns the shard as the holder would, dirty set); the window is open when
 * seq is odd (by the caller, if it holds the lock: a dead writer's odd seq
 * is repaired by the next locker). */
static inline bool sc_layout_shard_held(const sc_shard *shard)
{
    return sc_mutex_held_by_me(&shard->lock) || sc_layout_head(shard)->frozen == (uint32_t)sc_lock_tid();
}

static inline bool sc_layout_shard_repair_held(const sc_shard *shard)
{
    return sc_layout_shard_held(shard) && shard->dirty;
}

static inline bool sc_layout_window_open(const sc_shard *shard)
{
    return __atomic_load_n(&sc_layout_head(shard)->seq, __ATOMIC_RELAXED) & 1;
}

/* The calling thread holds the shard's lock (either mode), window open. */
static inline bool sc_layout_in_window(const sc_shard *shard)
{
    return sc_layout_shard_held(shard) && sc_layout_window_open(shard);
}

/* The calling thread holds the REPAIR lock, no window open. */
static inline bool sc_layout_repair_no_window(const sc_shard *shard)
{
    return sc_layout_shard_repair_held(shard) && !sc_layout_window_open(shard);
}

/* The calling thread holds none of the segment's locks (global, pool,
 * any shard's). */
bool sc_layout_holds_none(const sc_seg *seg);
/* The calling thread holds every shard's REPAIR lock or froze the shard
 * (window: and every shard's window is open). */
bool sc_layout_holds_every_shard(const sc_seg *seg, bool window);
/* The calling thread holds the global lock. */
bool sc_layout_global_held(const sc_seg *seg);

/* The segment's identity: what a process checks before it trusts a segment
 * file made by another process (sc_file.c). Bump SC_FORMAT whenever the
 * meaning of shared data changes without its layout changing. */
#define SC_FORMAT 3
#define SC_VERSION_LEN 32
#define SC_CLOSED_MARK UINT32_C(0x434c4f53) /* "CLOS" */
/* sc_shard.verify of a shard whose pages wait for their check (sc_verify.c). */
#define SC_VERIFY_PENDING UINT32_C(0x56455249) /* "VERI" */

/* The segment header at offset 0.
 *   identity, requested settings, layout (magic .. initial_capacity,
 *       heads_off .. data_off, start_time, hash_key): written once by the process
 *       that makes the segment, before any other process can map it
 *       (sc_layout_format); read with no lock afterwards.
 *   boots: named segments only; bumped by the first user after a restart,
 *       holding the file's exclusive flock (no other process maps it).
 *   closed, sum, kernel_boot: named segments only (sc_file.c). closed and
 *       sum are written by a process that detaches holding the file's
 *       exclusive flock (the last user: closed = SC_CLOSED_MARK, sum = the
 *       checksum of everything before the data area, sc_verify.c), and
 *       closed is cleared (atomic store) by every process that maps the
 *       file before it uses it. kernel_boot (the
 *       kernel's boot id) is written by the maker and by the first user
 *       after a restart, exclusive flock held. Read only by the first user
 *       after a restart, to decide whether the body may be trusted.
 *   clears: global lock (sc_cache_clear). expunges, evict_cursor: global
 *       lock (sc_evict_global). global_lock_count: whoever holds the global
 *       lock. Read with no lock by the figures (approximate).
 *   resets: atomic add with no lock (sc_cache_reset), read with no lock.
 *   needs_reset: atomic, no lock: set (release) by a pool locker that
 *       found the pool's previous writer dead or the runs no longer tiling
 *       the area (sc_alloc.c), cleared by sc_alloc_reset_pool (global lock,
 *       every shard frozen and the pool lock held); read (acquire) by
 *       every store and every pool locker.
 *   global_lock: the whole-cache lock (clear, cross-shard eviction).
 *       Order: global -> shard locks in increasing index -> pool. A clear
 *       holds it while it keeps shards frozen (sc_shard_freeze): a locker
 *       that holds it and finds a shard frozen knows the freezer is dead.
 *   pool: see sc_pool (sc_alloc.h): the pool lock.
 *   live: see sc_live_table (sc_live.h): each slot's own lock.
 * A process that dies holding the global lock leaves the figures above
 * at most one count short; the shards it froze, or the one whose lock it
 * also held, are repaired by their next lockers (sc_shard.c), the pool by
 * the full reset. */
typedef struct sc_header {
    /* -- identity: same place in every version -- */
    uint64_t magic;          /* SC_MAGIC, in the writer's byte order */
    uint32_t format;         /* SC_FORMAT */
    uint32_t header_bytes;   /* sizeof(sc_header) */
    uint64_t layout;         /* sc_layout_id(): sizes, offsets, pointer size */
    char version[SC_VERSION_LEN]; /* the maker's software version (named segments) */
    /* -- what the maker asked for (apc.shm_size, shardcache.shards,
     *    apc.entries_hint) before any adjustment: later processes compare
     *    their own settings with these -- */
    uint64_t req_size;
    uint32_t req_shards;
    uint32_t req_hint;
    /* -- the layout -- */
    uint64_t size;           /* bytes mapped */
    uint32_t nshards;        /* power of two */
    uint32_t npages;
    uint32_t initial_capacity;  /* first table size of a shard */
    sc_off heads_off;
    sc_off shards_off;
    sc_off pages_off;
    sc_off data_off;         /* page i starts at data_off + (i << SC_PAGE_SHIFT) */
    int64_t start_time;      /* Unix time the segment was created */
    /* The secret of the keyed hash of key bytes (sc_hash_keyed,
     * sc_cache_key_hash): random, drawn by the maker; never leaves the
     * segment (each process copies it into its sc_seg). */
    uint64_t hash_key[4];
    /* Named segments: incremented by a process that maps the file while no
     * other process has it mapped (it holds the file's exclusive flock), after
     * it cleared the per-process state a previous run left (sc_file.c). */
    uint64_t boots;
    uint64_t clears;         /* apcu_clear_cache calls */
    uint64_t expunges;       /* whole-cache evictions */
    uint32_t evict_cursor;   /* next shard the global evictor visits */
    uint32_t needs_reset;    /* the pool was left inconsistent: clear everything */
    uint64_t resets;         /* full resets after a crash */
    uint64_t global_lock_count; /* acquisitions of global_lock (under it) */
    /* Named segments: whether the last user detached cleanly, the file's
     * checksum then, and the boot id of the kernel that last booted the
     * segment (sc_file.c: what a restart may trust). */
    uint32_t closed;         /* SC_CLOSED_MARK, or 0 while in use */
    uint32_t unused_closed;
    uint64_t sum;            /* checksum of everything before data_off, closed and sum read as 0
                                (sc_verify_meta_sum); each shard's pages have their own (body_sum) */
    char kernel_boot[40];    /* /proc/sys/kernel/random/boot_id, or "" */
    _Alignas(SC_CACHELINE) sc_mutex global_lock;
    _Alignas(SC_CACHELINE) sc_pool pool;
    /* Liveness slots (sc_live.c): part of the header, so a change of their
     * count or size moves every offset after it (heads_off is sizeof-based). */
    _Alignas(SC_CACHELINE) sc_live_table live;
    /* Epochs of zero-copy readers (sc_epoch.c): atomics only. */
    _Alignas(SC_CACHELINE) sc_epoch_table epochs;
    /* The owners' slots of the bytes each shard counts per owner, for
     * eviction under isolation (sc_fair.c): written as sc_fair_layout.h
     * says. */
    _Alignas(SC_CACHELINE) sc_fair fair;
} sc_header;

/* Hints above this many entries are judged as this many when deciding
 * whether the segment can index them (see sc_layout_plan_make). */
#define SC_HINT_JUDGED (UINT32_C(1) << 20)
/* sc_layout_plan_make's (and sc_layout_create's) result when the tables for
 * entries_hint cannot fit. */
#define SC_LAYOUT_HINT_TOO_LARGE (-2)

/* Where everything goes in a segment of `size` bytes asked to have
 * `nshards` shards (fewer when the segment is small) and room for
 * `entries_hint` entries. */
typedef struct sc_layout_plan {
    uint64_t size;
    uint32_t nshards;
    uint32_t npages;
    uint32_t initial_capacity;
    sc_off heads_off, shards_off, pages_off, data_off;
} sc_layout_plan;

/* -1 (or SC_LAYOUT_HINT_TOO_LARGE) with a message in err when no segment
 * can have these settings. */
int sc_layout_plan_make(sc_layout_plan *plan, uint64_t size, uint32_t nshards, uint32_t entries_hint,
                     char *err, size_t errlen);
/* Lays a new segment out in base (plan->size bytes, zero-filled, mapped by
 * this process only) and fills seg. -1 when a lock cannot be initialised. */
int sc_layout_format(sc_seg *seg, void *base, const sc_layout_plan *plan, uint32_t req_shards,
                  uint32_t req_hint, const char *version);
/* Fills seg from the header of a segment already checked by the caller. */
void sc_layout_bind(sc_seg *seg, void *base);
/* A number that changes when the size or the place of any shared field
 * changes, or the pointer size or byte order differ (sc_file.c). */
uint64_t sc_layout_id(void);

/* Maps and formats an anonymous segment. On failure returns -1 (or
 * SC_LAYOUT_HINT_TOO_LARGE) with a message in err. */
int sc_layout_create(sc_seg *seg, uint64_t size, uint32_t nshards, uint32_t entries_hint,
                  char *err, size_t errlen);
/* Unmaps (and closes the file of a named segment: its flock goes with it). */
void sc_layout_destroy(sc_seg *seg);

static inline sc_shard *sc_layout_shard_for(const sc_seg *seg, uint64_t hash)
{
    return &seg->shards[sc_seg_shard_index(seg, hash)];
}

#endif
