/*
 * sc_cache.h - the cache operations the PHP glue calls. Knows nothing of
 * zvals or requests: keys are byte strings with PHP's hash, values are a
 * type tag (sc_vtype.h), a scalar and a byte string produced by the
 * glue (php/value.c).
 *
 * Owns: the process-local sc_cache (the mapping and the settings, shared by
 * a process's threads) and the thread-local sc_local figures; declares the
 * cache operations of sc_cache.c, sc_update.c, sc_reserve.c and
 * sc_snapshot.c.
 * Locks: every operation takes and releases its own locks; none is held
 * when it returns (an apcu_entry reservation is a slot, not a lock).
 * Death: see those files: a writer's death makes the next locker repair
 * its shard (at most the key in flight lost), a reader's leaves nothing.
 */
#ifndef SC_CACHE_H
#define SC_CACHE_H

#include "sc_common.h"
#include "sc_vtype.h"
#include <string.h>
#include "sc_layout.h"
#include "sc_evict.h"

/* One hit (miss) in this many per process is recorded in shared memory;
 * shared hit counts are multiples of it. Powers of two. */
#define SC_HIT_SAMPLE 32
#define SC_MISS_SAMPLE 32

/* The owner whose salt (glue_hash) is in every key the calling thread
 * stores or deletes from now on: by it each shard counts the bytes of the
 * entries it links and unlinks per owner (sc_fair.h). The glue calls it
 * whenever the thread's salt changes; a key's entries must read back this
 * owner through seg.owner_of. */
static inline void sc_cache_writer(uint32_t owner)
{
    sc_fair_here.want = SC_FAIR_TAG | owner;
}

typedef struct sc_key {
    const char *str;
    uint32_t len;
    uint64_t glue_hash;     /* the key string's hash as the glue computed it (with its owner's
                               salt: php/owner.c); the core adds its keyed
                               hash of the bytes (sc_cache_key_hash) */
} sc_key;

/* The hash the core files key under (sc_entry.hash): the glue's hash XOR
 * the segment's keyed hash of the key bytes (sc_hash_keyed, with the
 * secret sc_layout_format drew). Keys whose glue hashes collide (PHP's
 * hash collides at will) get unrelated hashes; equal bytes of two owners
 * keep the difference of their salts. */
static inline __attribute__((always_inline)) uint64_t sc_cache_key_hash(const sc_seg *seg, const sc_key *key)
{
    return key->glue_hash ^ sc_hash_keyed(seg->hash_key, key->str, key->len);
}

/* The glue hash an entry of hash and key bytes was filed with (the
 * inverse of sc_cache_key_hash): php/owner.c finds the owner's salt in it. */
static inline uint64_t sc_cache_glue_hash(const sc_seg *seg, uint64_t hash, const char *key, uint32_t len)
{
    return hash ^ sc_hash_keyed(seg->hash_key, key, len);
}

typedef struct sc_value_in {
    uint8_t vtype;
    int64_t scalar;
    const char *data;
    size_t len;
    /* Zero-copy values (sc_epoch.h): when set, the entry is made in one
     * piece (SC_TOOBIG otherwise), flagged SC_ENTRY_ZC, and fixup is called
     * on its value bytes in place, under the shard lock, before the entry is
     * linked (it turns the relative layout into absolute pointers). */
    void (*fixup)(void *arg, char *dst, size_t len);
    void *fixup_arg;
} sc_value_in;

/*
 * Where a fetch copies value bytes. The core calls get() - never while it
 * holds a lock - when buf cannot take a value of len bytes of that type;
 * get() must set buf, cap and is_string. Strings (is_string) are copied into
 * their own buffer so the glue can hand it to PHP without another copy.
 */
typedef struct sc_sink {
    char *(*get)(struct sc_sink *sink, uint8_t vtype, size_t len);
    char *buf;
    size_t cap;
    bool is_string;
    /* Bit v set: a zero-copy entry (SC_ENTRY_ZC) of vtype v is not copied;
     * out->data points at its bytes in the segment (out->borrowed). Only
     * for a caller inside an epoch (sc_epoch_enter) for the whole time it
     * uses the pointer. */
    uint32_t borrow;
} sc_sink;

typedef struct sc_value_out {
    uint8_t vtype;
    bool borrowed;          /* data points into the segment (see sc_sink) */
    int64_t scalar;
    char *data;             /* the sink's buffer, len bytes */
    size_t len;
} sc_value_out;

/* Statistics of the calling thread: every thread of a ZTS process, and
 * every forked process, has its own copy (C11 thread-local storage; two
 * threads of one process share a pid and an sc_cache but never these). */
typedef struct sc_local_stats {
    uint64_t hits;
    uint64_t misses;
    uint32_t reservations_held;    /* apcu_entry nesting in this thread */
    uint64_t optimistic_retries;
    uint64_t locked_reads;
} sc_local_stats;

/* initial-exec: read on every fetch; a direct %fs-relative access instead
 * of a __tls_get_addr call (40 bytes of the static TLS surplus that glibc
 * keeps for modules loaded with dlopen). */
#define SC_TLS_FAST __attribute__((tls_model("initial-exec")))
extern _Thread_local sc_local_stats sc_local SC_TLS_FAST;

/* One per process (the mapping), shared by all its threads. */
typedef struct sc_cache {
    sc_seg seg;
    uint32_t idle_ttl;      /* apc.ttl: entries idle this long go first */
    bool slam_defense;      /* apc.slam_defense (see sc_cache_store) */
    /* This mapping among the ones the process has made (from 1, one more
     * per sc_cache_init or sc_cache_attach): what a thread remembered of
     * another mapping (sc_fetch_memos) is never used with this one. */
    uint64_t gen;
    /* Set by the glue for a named segment (which other PHP builds, and
     * processes with another serializer, may share), else NULL: whether a
     * value of type vtype (one that sc_cache_vtype_checked names) whose
     * bytes are value (len of them readable, any alignment; read with no
     * lock they may be torn, and the caller's sequence check decides) is
     * one this process cannot read. Such an entry is absent for this
     * process in every operation, as an expired one is
     * (sc_cache_entry_absent); it stays for the others. Reads only value. */
    bool (*unreadable)(uint8_t vtype, const char *value, uint32_t len);
    /* Set by the glue when entries have owners (isolation), else NULL:
     * the owner of an entry from its hash and key (as seg.owner_of).
     * Stores that evict then spare the owners within their fair share
     * (sc_fair.h). */
    sc_fair_owner_fn owner_of;
} sc_cache;

/* Whether c->unreadable is asked about values of vtype: zero-copy
 * layouts (of another PHP build) and serialized values (of another
 * serializer). */
static inline bool sc_cache_vtype_checked(uint8_t vtype)
{
    return vtype == SC_V_ZC || vtype == SC_V_SERIALIZED;
}

/* Whether a value of vtype has bytes after its key (the others are a
 * scalar only). */
static inline bool sc_cache_has_bytes(uint8_t vtype)
{
    return vtype == SC_V_STRING || vtype == SC_V_ARRAY || vtype == SC_V_SERIALIZED || vtype == SC_V_ZC;
}

/* Whether e holds no value for this process at now: expired or deleted
 * (sc_evict_is_expired), or a value it cannot read (c->unreadable). e was
 * found in a table of c's segment, under the lock or optimistically (then
 * only bytes inside the segment are read, and the caller checks seq after). */
static inline bool sc_cache_entry_absent(const sc_cache *c, const sc_entry *e, int64_t now)
{
    uint8_t vtype;

    if (sc_evict_is_expired(e, now)) {
        return true;
    }
    if (SC_UNLIKELY(c->unreadable != NULL) && sc_cache_vtype_checked(vtype = e->vtype)) {
        const char *v = (const char *)(e + 1) + e->key_len;
        uint64_t at = (uint64_t)(v - c->seg.base), len = e->val_len;
        if (at >= c->seg.size) {
            return false;
        }
        if (len > c->seg.size - at) {
            len = c->seg.size - at;
        }
        return c->unreadable(vtype, v, (uint32_t)len);
    }
    return false;
}

typedef struct sc_cache_figures {
    uint64_t entries;
    uint64_t mem_used;      /* bytes handed out to entries and tables */
    uint64_t mem_requested; /* bytes entries need: mem_used - this = waste */
    uint64_t mem_total;     /* bytes of the data area */
    uint64_t mem_free;      /* bytes in free pages */
    uint64_t inserts, updates, deletes, expired, evicted, nomem;
    uint64_t pool_locks, slab_refills, slab_returns, spare_reuses;
    uint64_t lane_steals;   /* partial slabs one allocation lane took from another */
    uint64_t global_locks;  /* acquisitions of the whole-cache lock */
    uint64_t expunges, clears;
    uint64_t repairs;       /* shards repaired after a writer died */
    uint64_t lock_waits;    /* shard lock requests that found it busy */
    uint64_t optimistic_retries;
    uint64_t hits, misses;  /* sampled totals */
    uint64_t resets;        /* full resets after a crash in the page pool */
    int64_t start_time;
    uint32_t nshards;
    uint64_t slots;
} sc_cache_figures;

typedef enum sc_update_op {
    SC_UPDATE_INC,   /* value += a; a missing key starts from 0 */
    SC_UPDATE_DEC,   /* value -= a; a missing key starts from 0 */
    SC_UPDATE_CAS    /* value = b if value == a; never inserts */
} sc_update_op;

/* An entry's figures and bytes, copied out of shared memory. */
typedef struct sc_entry_meta {
    uint64_t hash;          /* the entry's hash (sc_entry.hash) */
    const char *key;
    uint32_t key_len;
    uint8_t vtype;
    int64_t scalar;
    const char *value;      /* NULL unless values were asked for */
    uint64_t value_len;
    int64_t ttl;            /* as stored: negative for an entry stored expired */
    int64_t ctime, mtime, atime;
    uint32_t nhits;
    uint64_t mem_size;
    uint64_t stamp;         /* store order (sc_entry.stamp) */
} sc_entry_meta;

/* A process-local copy of one shard's entries (see sc_snapshot.c). */
typedef struct sc_snapshot sc_snapshot;

/* What apcu_entry holds while its callback runs. */
typedef struct sc_reservation_ticket {
    uint32_t shard;
    uint32_t slot;          /* SC_NONE: nothing reserved */
} sc_reservation_ticket;

int sc_cache_init(sc_cache *c, uint64_t size, uint32_t nshards, uint32_t entries_hint, uint32_t idle_ttl,
                  char *err, size_t errlen);
/* A named segment (shardcache.segment): opens, creates or replaces the file
 * and maps it (sc_file.h says when it is refused). */
struct sc_file_opts;
struct sc_file_result;
int sc_cache_attach(sc_cache *c, const struct sc_file_opts *opts, uint32_t idle_ttl,
                    struct sc_file_result *res, char *err, size_t errlen);
void sc_cache_shutdown(sc_cache *c);
/* A thread that used the cache ends (ZTS): gives its liveness slot back. */
void sc_cache_thread_done(sc_cache *c);

/* Expiry: ttl seconds after now (0 = never; SC_TTL_EXPIRED | n: stored
 * already expired, see sc_table.h). add_only: fail with SC_EXISTS
 * when a live entry exists. With c->slam_defense, fails with SC_SLAM when
 * the last key stored in the key's shard is this key, stored in the same
 * second (now) by another thread or process (APCu's apc.slam_defense, with
 * a last key per shard instead of one for the whole cache). */
sc_status sc_cache_store(sc_cache *c, const sc_key *key, const sc_value_in *value, uint32_t ttl,
                         int64_t now, bool add_only);
sc_status sc_cache_fetch(sc_cache *c, const sc_key *key, int64_t now, sc_sink *sink, sc_value_out *out);
/* sc_cache_fetch for a caller that has mixed the key's hash already
 * (hash: sc_cache_key_hash(&c->seg, key), the shard it names: index). */
sc_status sc_cache_fetch_hashed(sc_cache *c, const sc_key *key, uint64_t hash, uint32_t index, int64_t now,
                                sc_sink *sink, sc_value_out *out);
/* How far a fetch's first try got (sc_fetch.h): the key's hash, the shard,
 * the shard's counter when the try began (odd: it read nothing else), and
 * the key's entry when it was found in its home slot (NULL: not found
 * there, or not looked for), with its type and length as read then (not
 * confirmed: a hint for the buffer the value needs), and the time if it
 * needed it. */
typedef struct sc_fetch_at {
    uint64_t hash;
    uint64_t start;
    const struct sc_entry *e;
    uint32_t index;
    uint32_t val_len;
    uint8_t vtype;
    int64_t now;            /* the time it read, or SC_FETCH_NOW_LATER (sc_fetch.h) */
} sc_fetch_at;
/* sc_cache_fetch, going on from what sc_fetch_fast found (at) as if
 * that were its own first try: the same result for the same now. */
sc_status sc_cache_fetch_at(sc_cache *c, const sc_key *key, const sc_fetch_at *at, int64_t now, sc_sink *sink,
                            sc_value_out *out);
sc_status sc_cache_exists(sc_cache *c, const sc_key *key, int64_t now);
sc_status sc_cache_delete(sc_cache *c, const sc_key *key);
void sc_cache_clear(sc_cache *c);
/* Clear after a crash left the page pool inconsistent (counted in resets). */
void sc_cache_reset(sc_cache *c);
void sc_cache_figures_get(sc_cache *c, sc_cache_figures *f);

/* What a thread remembers of its last hits (process memory, one table per
 * thread, never shared): a key (its glue hash and length), the shard, the
 * shard's counter when the hit was confirmed, and the entry. While the
 * shard's counter still has that value no writer has changed the shard
 * since (every change readers can reach moves it, and it never goes back
 * within a mapping), so the entry is still the one live entry of its key,
 * with the same header, and lies where it was bounds-checked: the hash
 * mix, the table and the entry's bounds need not be looked at again
 * (what a lockless store or delete changes without moving the counter -
 * the value, the times, ttl 0 <-> SC_TTL_GONE - is read again). The
 * key is still compared in full (another key may have the same hash and
 * length), and everything else is read and confirmed as on the long way.
 * gen ties the table to one mapping (sc_cache.gen): a table filled for
 * another one, or all zero (a new thread), is emptied first. */
#define SC_FETCH_MEMOS 64
typedef struct sc_fetch_memo {
    uint64_t glue_hash;     /* 0: empty (PHP's string hashes are never 0) */
    uint64_t seq;           /* the shard's counter when the hit was confirmed (even) */
    const sc_entry *e;
    uint32_t key_len;
    uint32_t index;         /* the shard */
} sc_fetch_memo;
typedef struct sc_fetch_memos {
    uint64_t gen;
    sc_fetch_memo m[SC_FETCH_MEMOS];
} sc_fetch_memos;

static inline void sc_cache_memos_reset(sc_fetch_memos *memos, uint64_t gen)
{
    memset(memos, 0, sizeof(*memos));
    memos->gen = gen;
}

/* inc/dec/cas in place, atomic for the key (sc_update.c). On SC_OK the new
 * int is in *result; SC_BADTYPE when the entry is not an int; SC_NOTFOUND
 * for a missing key that may not be created (cas, or !create), or when cas
 * compared unequal. A created entry expires after ttl seconds (0: never).
 * memos: the calling thread's memo of recent hits (sc_fetch_memos), read
 * and filled as a fetch does; NULL: none. */
sc_status sc_cache_update(sc_cache *c, const sc_key *key, sc_update_op op, int64_t a, int64_t b, uint32_t ttl,
                          bool create, int64_t now, sc_fetch_memos *memos, int64_t *result);

/* apcu_entry (sc_reserve.c): fetches key; on a miss reserves it so that
 * other processes asking for the same key wait until sc_cache_release().
 * Returns SC_OK with the value in out (nothing reserved), or SC_NOTFOUND
 * with *ticket set: the caller computes the value, stores it, and releases
 * the ticket (even when the computation failed). ticket->slot == SC_NONE
 * means the caller computes without a reservation (nested or contended). */
sc_status sc_cache_reserve(sc_cache *c, const sc_key *key, int64_t now, sc_sink *sink, sc_value_out *out,
                           sc_reservation_ticket *ticket);
void sc_cache_release(sc_cache *c, sc_reservation_ticket *ticket);

/* Snapshots (sc_snapshot.c): copies of the entries of one shard, or of one
 * key, taken under the shard lock and read after it is released. */
uint32_t sc_cache_nshards(const sc_cache *c);
sc_snapshot *sc_snapshot_shard(sc_cache *c, uint32_t shard, int64_t now, bool with_values);
sc_snapshot *sc_snapshot_key(sc_cache *c, const sc_key *key, int64_t now, bool with_values);
bool sc_snapshot_next(sc_snapshot *snap, sc_entry_meta *meta);
void sc_snapshot_free(sc_snapshot *snap);

/* The mapping behind c, for the glue (sc_cache_seg.c), which reads no
 * field of the segment itself: its size as mapped (0: none), whether it is
 * a named segment file, how many times that file was booted (0: not one),
 * and the kernel asked for transparent huge pages on it (best effort;
 * nothing when c maps nothing or the platform has no MADV_HUGEPAGE). */
uint64_t sc_cache_seg_size(const sc_cache *c);
bool sc_cache_seg_named(const sc_cache *c);
uint64_t sc_cache_seg_boots(const sc_cache *c);
void sc_cache_seg_advise_hugepages(sc_cache *c);
/* Right after c maps its segment, before any operation: how this process
 * reads an entry's owner, by which every shard counts its bytes per owner
 * (sc_seg.owner_of, sc_fair.h). */
void sc_cache_seg_owners(sc_cache *c, sc_fair_owner_fn owner_of);

/* ---- zero-copy values: the epoch and its figures, for the glue
 * (sc_cache_zc.c; the reclamation itself: sc_epoch.h) ---- */

/* The figures of shardcache_info()['zero_copy'], read with relaxed loads
 * (each may be a moment old; they need not agree with each other). */
typedef struct sc_cache_zc_figures {
    uint64_t bytes;         /* zero-copy bytes, live and retired (sc_cache_zc_bytes) */
    uint64_t retired_bytes; /* of which retired, not freed yet */
    uint64_t retired;       /* entries retired since the segment was made */
    uint64_t reclaimed;     /* entries freed from retire lists */
    uint64_t held_bytes;    /* pages of repaired shards held back for readers */
    uint64_t repairs_held;  /* repairs whose pages were held back */
    uint64_t epoch;         /* the global epoch */
    uint64_t scans;         /* scans of the published epochs */
    uint32_t readers;       /* live threads inside an epoch now */
} sc_cache_zc_figures;

/* No lock. The calling thread enters an epoch unless it is in one (true),
 * or cannot (false: every liveness slot is taken; it must copy). After
 * true, pointers into zero-copy values read from c stay valid until
 * sc_cache_zc_leave (sc_epoch_enter). */
bool sc_cache_zc_enter(sc_cache *c);
/* No lock. Whether the calling thread is inside an epoch of its own: false
 * for a fork child that inherited one but got no liveness slot (what it
 * holds stays valid; it may borrow nothing new) (sc_epoch_inside). */
bool sc_cache_zc_inside(const sc_cache *c);
/* No lock. The calling thread leaves its epoch: it holds no pointer into a
 * zero-copy value any more (request end, thread end) (sc_epoch_leave). */
void sc_cache_zc_leave(sc_cache *c);
/* No lock. Zero-copy bytes (live and retired) now in c, with the pages
 * held for readers after repairs: what shardcache.zero_copy_max bounds
 * (sc_epoch_zc_bytes). */
uint64_t sc_cache_zc_bytes(const sc_cache *c);
/* No lock held by the caller (it takes one shard lock at a time). The
 * zero-copy budget is full: if a rescan of the epochs is due, frees every
 * retired value nobody can hold any more. Returns the bytes freed, 0 when
 * none (sc_evict_retired). */
uint64_t sc_cache_zc_reclaim(sc_cache *c);
/* No lock held by the caller. Fills *f; first gives back the held pages
 * nobody can hold any more (sc_epoch_poll, forced, which may take the pool
 * lock), so that held_bytes says what is really held. */
void sc_cache_zc_figures_get(sc_cache *c, sc_cache_zc_figures *f);

#endif
