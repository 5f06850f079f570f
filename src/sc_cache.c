/*
 * sc_cache.c - store, delete and clear (fetch and exists: sc_cache_fetch.c).
 *
 * A key's hash (sc_cache_key_hash) picks its shard ((hash >> 32) &
 * (nshards - 1)), its first slot (low bits) and its tag (top 7 bits).
 *
 * Writers take the shard's REPAIR lock, build outside the window what
 * readers cannot reach yet, and change what they can reach inside it. A
 * replaced or deleted entry is freed after the unlink (zero-copy entries
 * are retired: sc_epoch_release_entry).
 * Readers (fetch, exists) write nothing shared: they copy under the
 * sequence counter (fetch also under the entry's version) a few times,
 * then fall back to the NO_REPAIR lock. Values are copied into a sink and
 * decoded by the caller after every lock is released.
 * Clear takes the global lock, then freezes every shard in index order
 * (sc_shard_freeze: its REPAIR lock taken, its window opened, the shard
 * marked frozen, its mutex released again), resets the tables and the
 * allocator, and thaws them. It never holds more than one shard's mutex:
 * a dead thread's robust mutexes are released by the kernel only up to
 * 2048 of them (newest first), and shardcache.shards goes up to 4096.
 * With the global lock, the pool lock and the thread's liveness slot, a
 * clear holds at most four robust mutexes; so does every other operation
 * (one shard at a time: eviction across shards, the retired-entry sweep,
 * the info functions and the iterator's snapshots). While a shard is
 * frozen, its lockers wait on the global lock, optimistic readers and pin
 * claimers see its odd window; so a clear is still one step for every
 * other process: after it returns, nothing stored before it began is
 * there. The full reset after a death in the pool (hdr->needs_reset) runs
 * the same way.
 *
 * Owns: what the tables hold (slots, entries) as store, delete and clear
 * change them; the slam_defense record of each shard; the header's clears
 * and resets figures; the calling thread's sc_local figures.
 * Locks: store and delete: the shard's REPAIR lock, reachable changes in
 * the window (except sc_lockless.c's stores and deletes without the lock).
 * fetch and exists: none, then the NO_REPAIR lock. A sampled hit: the
 * NO_REPAIR lock by trylock. Clear and the full reset: the global lock,
 * every shard frozen in index order, the pool lock inside.
 * Death: a store or delete killed under the REPAIR lock leaves its shard
 * to be repaired by the next locker (sc_shard_repair.c: every entry it can
 * prove whole is kept; at most the key in flight is lost). A fetch killed inside
 * sc_lockless_open_window's window (seq odd) likewise. A fetch or exists
 * killed anywhere else wrote nothing shared. A clear killed halfway leaves
 * the shards it froze (and the one whose mutex it held) to their next
 * lockers, which repair them, a half-reset pool flagged for the full
 * reset, and the global lock to its next locker.
 *
 * Design: docs/internals.md#sc_cache
 */
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "sc_cache.h"
#include "sc_file.h"
#include "sc_shard.h"
#include "sc_entry.h"
#include "sc_evict.h"
#include "sc_fair.h"
#include "sc_resize.h"
#include "sc_vtype.h"
#include "sc_pin.h"
#include "sc_epoch.h"
#include "sc_inplace.h"
#include "sc_lockless.h"

/* This thread's statistics (see sc_cache.h). */
_Thread_local sc_local_stats sc_local SC_TLS_FAST;

#define SC_STORE_ROUNDS 3       /* cross-shard evictions a store may ask for */

/* Mappings made by this process so far (sc_cache.gen). */
static uint64_t sc_cache_gens;

int sc_cache_init(sc_cache *c, uint64_t size, uint32_t nshards, uint32_t entries_hint, uint32_t idle_ttl,
                  char *err, size_t errlen)
{
    memset(c, 0, sizeof(*c));
    c->idle_ttl = idle_ttl;
    c->gen = __atomic_add_fetch(&sc_cache_gens, 1, __ATOMIC_RELAXED);
    return sc_layout_create(&c->seg, size, nshards, entries_hint, err, errlen);
}

int sc_cache_attach(sc_cache *c, const sc_file_opts *opts, uint32_t idle_ttl, sc_file_result *res,
                    char *err, size_t errlen)
{
    memset(c, 0, sizeof(*c));
    c->idle_ttl = idle_ttl;
    c->gen = __atomic_add_fetch(&sc_cache_gens, 1, __ATOMIC_RELAXED);
    return sc_file_attach(&c->seg, opts, res, err, errlen);
}

void sc_cache_shutdown(sc_cache *c)
{
    if (c->seg.hdr) {
        sc_epoch_leave(&c->seg);
    }
    sc_file_detach(&c->seg);       /* gives this thread's liveness slot back first */
}

void sc_cache_thread_done(sc_cache *c)
{
    if (c->seg.hdr) {
        sc_epoch_leave(&c->seg);
        sc_live_leave(&c->seg.hdr->live);
    }
}

/* ---- store ---- */

/* Who stores, for apc.slam_defense: the kernel's id of the calling thread
 * (the pid in a single-threaded process), unique among live threads. */
static uint32_t sc_cache_slam_owner(void)
{
    return (uint32_t)syscall(SYS_gettid);
}

/* Shard REPAIR lock held. */
static bool sc_cache_slam_refused(const sc_shard *shard, uint64_t hash, uint32_t len, int64_t now, uint32_t owner)
{
    SC_ASSERT(sc_layout_shard_repair_held(shard));

    return shard->slam_time == now && shard->slam_hash == hash && shard->slam_len == len && shard->slam_owner != owner;
}

/* Shard REPAIR lock held. */
static void sc_cache_slam_record(sc_shard *shard, uint64_t hash, uint32_t len, int64_t now, uint32_t owner)
{
    SC_ASSERT(sc_layout_shard_repair_held(shard));

    shard->slam_hash = hash;
    shard->slam_len = len;
    shard->slam_time = now;
    shard->slam_owner = owner;
}

/* A store is done (shard REPAIR lock held): count it as an insert or an
 * update, and remember it for slam defense. */
static inline void sc_cache_store_counted(sc_cache *c, sc_shard *shard, uint64_t hash, uint32_t len, int64_t now,
                                          uint32_t owner, bool inserted)
{
    SC_ASSERT(sc_layout_shard_repair_held(shard));
    if (inserted) {
        sc_layout_head(shard)->inserts++;
    } else {
        sc_layout_head(shard)->updates++;
    }
    if (c->slam_defense) {
        sc_cache_slam_record(shard, hash, len, now, owner);
    }
}

/* Makes the entry, evicting from this shard when memory is short: expired
 * entries first, then (for small entries, whose slabs this shard owns)
 * others in CLOCK order - unless first_round and another shard keeps
 * entries of deleted keys (sc_lockless.c): then none, and the caller's
 * sc_evict_global removes those before anything is evicted. Shard REPAIR
 * lock held. */
static sc_off sc_cache_make_entry(sc_cache *c, sc_shard *shard, uint64_t hash, const sc_key *key,
                            const sc_value_in *value, uint32_t ttl, int64_t now, uint32_t lane,
                            bool first_round, sc_fair_pass *fp)
{
    sc_seg *seg = &c->seg;
    uint64_t size = sizeof(sc_entry) + (uint64_t)key->len + value->len;
    sc_off off;

    SC_ASSERT(sc_layout_shard_repair_held(shard));

#define SC_MAKE() sc_entry_create(seg, shard, hash, key->str, key->len, value->vtype, value->scalar, \
                                  value->data, (uint32_t)value->len, ttl, now, lane)
    off = SC_MAKE();
    if (off) {
        return off;
    }
    if (shard->retire.head && sc_epoch_reclaim(seg, shard, true)) {   /* zero-copy (sc_epoch.c) */
        off = SC_MAKE();
        if (off) {
            return off;
        }
    }
    if (sc_alloc_flush_spares(&seg->ac, &shard->alloc)) {
        off = SC_MAKE();
        if (off) {
            return off;
        }
    }
    if (sc_evict_expired(seg, shard, now, c->idle_ttl)) {
        off = SC_MAKE();
    }
    if (size <= SC_MAX_SMALL && !off && first_round && sc_evict_gone_elsewhere(seg, shard)) {
        return 0;
    }
    if (size <= SC_MAX_SMALL) {
        /* Entries of the same size class free exactly what is needed;
         * others only help once a whole slab of theirs empties. */
        uint32_t usable = (uint32_t)sc_alloc_usable(size);
        /* Evicting a zero-copy entry that a reader may hold frees nothing
         * yet (it is retired): with retired entries pinned here, evict a
         * few and then let the caller evict across the cache instead of
         * emptying this shard. */
        uint32_t left = 16;
        /* Each turn evicts one entry in CLOCK order (first of the same
         * size class, then any) and tries again: until the entry is made,
         * the table is empty, nothing more may go (sc_evict_clock evicts
         * none: the rest is within its owners' share), or, with retired
         * entries waiting here, after 16 turns. */
#define SC_EVICT_MORE() (!shard->retire.head || left-- > 0)
        while (!off && SC_EVICT_MORE() && sc_layout_head(shard)->table.used
               && sc_evict_clock(seg, shard, 1, usable, fp)) {
            off = SC_MAKE();
        }
        while (!off && SC_EVICT_MORE() && sc_layout_head(shard)->table.used && sc_evict_clock(seg, shard, 1, 0, fp)) {
            off = SC_MAKE();
        }
#undef SC_EVICT_MORE
    }
#undef SC_MAKE
    return off;
}

/* A store's or delete's last lookup of its key (sc_table_seen). The first
 * runs before the lock (sc_lockless_store, sc_lockless_delete), later ones
 * under it. While the
 * shard's counter still has the value seen->seq, no writer has opened the
 * shard's window since, and every change to the table is made inside it
 * (a new or replaced slot, a delete, an eviction, a resize, a repair, a
 * clear): the answer still holds, and the locked path need not probe
 * again (for an absent key, nor look for a free slot). */

/* The lockless store of value (sc_lockless.c), copying or zero-copy as
 * its layout says: true when done. */
static inline __attribute__((always_inline)) bool sc_cache_store_lockless(sc_seg *seg, sc_shard *shard,
                                                                       const sc_key *key, uint64_t hash,
                                                                       const sc_value_in *value, int64_t now,
                                                                       sc_table_seen *seen)
{
    return SC_LIKELY(!value->fixup)
               ? value->vtype != SC_V_ZC
                     && sc_lockless_store(seg, shard, key->str, key->len, hash, value->vtype, value->scalar,
                                          value->data, (uint32_t)value->len, now, seen)
               : value->vtype == SC_V_ZC
                     && sc_lockless_store_zc(seg, shard, key->str, key->len, hash, value->data, (uint32_t)value->len,
                                             now, value->fixup, value->fixup_arg, seen);
}

/* Whether seen still holds. Shard REPAIR lock held: nobody else moves the
 * counter now; the acquire fence orders a lookup made before the lock
 * (with no lock) before this check, as for an optimistic reader. */
static inline bool sc_cache_seen_holds(const sc_shard_head *head, const sc_table_seen *seen)
{
    return !(seen->seq & 1) && sc_seq_read_valid(&head->seq, seen->seq);
}

/* Key's entry (and its slot in *slot): seen's answer while it holds, else
 * a new lookup, kept in seen. Shard REPAIR lock held (seq is even: a
 * locker that found it odd repaired the shard). */
static inline const sc_entry *sc_cache_seen_find(sc_seg *seg, const sc_shard_head *head, const sc_key *key,
                                            uint64_t hash, sc_table_seen *seen, uint32_t *slot)
{
    SC_ASSERT(seg->check_table == NULL || seg->check_table(seg, &head->table, false));
    SC_ASSERT(!(__atomic_load_n(&head->seq, __ATOMIC_RELAXED) & 1));
    if (!sc_cache_seen_holds(head, seen)) {
        seen->seq = __atomic_load_n(&head->seq, __ATOMIC_RELAXED);
        sc_table_probe(seg, &head->table, key->str, key->len, hash, seen);
    }
    *slot = seen->slot;
    return seen->e;
}

/* One store: its arguments and what its steps found, handed from step to
 * step (all inlined into sc_cache_store). */
typedef struct sc_cache_store_op {
    sc_cache *c;
    const sc_key *key;
    const sc_value_in *value;
    sc_shard *shard;
    sc_table_seen *seen;        /* the store's last lookup of its key */
    sc_fair_pass *fp;           /* isolation: whose entries may go; NULL: anybody's */
    uint64_t hash;
    int64_t now;
    uint32_t ttl;
    uint32_t owner;             /* the storing thread for slam defense (0: off) */
    uint32_t lane;              /* the allocation lane (sc_pin_lane) */
    uint32_t fair_slot;         /* the key's owner's slot (sc_fair_key_slot) */
    bool add_only;
    bool lockless;              /* the lockless store may be tried */
    bool sweep;                 /* set when done: every shard's retired entries can go */
} sc_cache_store_op;

/* sc_cache_store's steps answer a sc_status, or one of these. */
enum {
    SC_STORE_GO_ON = -1,        /* not done: the next step */
    SC_STORE_NO_ROOM = -2       /* no memory for the entry: evict (lock released), try again */
};

/* What the store may end with before it makes an entry (shard REPAIR lock
 * held; first: the first round): SC_SLAM, SC_EXISTS for an add over a
 * live entry, SC_OK when the lockless store or the in-place store did
 * it; else SC_STORE_GO_ON. */
static inline __attribute__((always_inline)) int sc_cache_store_shortcut(sc_cache_store_op *op, bool first)
{
    sc_seg *seg = &op->c->seg;
    sc_shard *shard = op->shard;
    sc_shard_head *head = sc_layout_head(shard);
    const sc_value_in *value = op->value;
    const sc_entry *old;
    uint32_t slot;

    SC_ASSERT(sc_layout_shard_repair_held(shard));
    if (op->c->slam_defense && sc_cache_slam_refused(shard, op->hash, op->key->len, op->now, op->owner)) {
        return SC_SLAM;
    }
    if (op->add_only) {
        old = sc_cache_seen_find(seg, head, op->key, op->hash, op->seen, &slot);
        if (old && !sc_cache_entry_absent(op->c, old, op->now)) {
            return SC_EXISTS;
        }
    }
    if (SC_UNLIKELY(shard->retire.head != 0)) {
        sc_epoch_reclaim(seg, shard, false);
    }
    /* The lockless try met a writer's window (or the table changed after
     * its look): the same try again, now that no window can open. Else a
     * store over an entry it could rewrite makes a new one, and with many
     * processes each such store opens the window that makes the next ones
     * decline too. Lockless writers do not take the lock, so holding it
     * while pinned waits for nobody. */
    if (first && op->lockless && !sc_cache_seen_holds(head, op->seen)
        && sc_cache_store_lockless(seg, shard, op->key, op->hash, value, op->now, op->seen)) {
        return SC_OK;
    }
    /* A scalar over a scalar is written into the entry that holds the key
     * (sc_inplace.c): no allocation, no free, no slot; unless another lane
     * made it and it is not homed: then it moves into this lane's slabs
     * (the next steps). */
    if (first && !sc_cache_has_bytes(value->vtype) && value->len == 0) {
        old = sc_cache_seen_find(seg, head, op->key, op->hash, op->seen, &slot);
        if (old && !sc_cache_has_bytes(old->vtype) && !sc_table_entry_foreign(old, op->lane)) {
            sc_inplace_result r = sc_inplace_store(shard, (sc_entry *)old, value->vtype, value->scalar, op->ttl,
                                                   op->now, op->add_only);
            if (r == SC_INPLACE_EXISTS) {
                return SC_EXISTS;
            }
            if (r != SC_INPLACE_NO) {
                sc_cache_store_counted(op->c, shard, op->hash, op->key->len, op->now, op->owner,
                                       r == SC_INPLACE_INSERTED);
                return SC_OK;
            }
        }
    }
    return SC_STORE_GO_ON;
}

/* The key's slot for the new entry when the key has none (shard REPAIR
 * lock held): SC_NOMEM when the table is full of live entries and can
 * grow neither by resizing nor by evicting in this shard (the pool has no
 * run for a larger table: the caller evicts across the cache and tries
 * again). */
static inline __attribute__((always_inline)) sc_status sc_cache_store_slot(sc_cache_store_op *op, uint32_t *slot)
{
    sc_seg *seg = &op->c->seg;
    sc_shard *shard = op->shard;
    sc_shard_head *head = sc_layout_head(shard);

    SC_ASSERT(sc_layout_shard_repair_held(shard));
    if (!sc_resize_reserve(seg, shard)) {
        /* The table is full of live entries and cannot grow: make room in
         * it by evicting some of this shard's entries. */
        sc_evict_clock(seg, shard, (head->table.capacity >> 4) + 1, 0, op->fp);
        if (!sc_resize_reserve(seg, shard)) {
            return SC_NOMEM;
        }
    }
    /* The look found where the key would go, unless the table changed
     * since (a resize above). */
    *slot = op->seen->free != SC_NONE && sc_cache_seen_holds(head, op->seen)
                ? op->seen->free
                : sc_table_free_slot(seg, &head->table, op->hash);
    return SC_OK;
}

/* Links the new entry at off in the key's slot, in place of the key's
 * old entry if any, and releases the old one (shard REPAIR lock held).
 * SC_EXISTS for an add that finds a live entry after all (the new entry
 * is given back), SC_STORE_NO_ROOM when the table has no slot for the key
 * (the new entry is given back: the caller evicts and tries again). */
static inline __attribute__((always_inline)) int sc_cache_store_link(sc_cache_store_op *op, sc_off off)
{
    sc_seg *seg = &op->c->seg;
    sc_shard *shard = op->shard;
    sc_entry *ne = (sc_entry *)(seg->base + off);
    const sc_entry *old;
    uint32_t slot;
    bool old_gone;

    SC_ASSERT(sc_layout_shard_repair_held(shard));
    /* Eviction may have removed the old entry: look again, unless the
     * shard is unchanged since the last look (seen). */
    old = sc_cache_seen_find(seg, sc_layout_head(shard), op->key, op->hash, op->seen, &slot);
    if (old && op->add_only && !sc_cache_entry_absent(op->c, old, op->now)) {
        sc_entry_free(seg, shard, ne);
        return SC_EXISTS;
    }
    if (!old && sc_cache_store_slot(op, &slot) != SC_OK) {
        sc_entry_free(seg, shard, ne);
        return SC_STORE_NO_ROOM;
    }
    /* A key that lived in another lane's slabs (or moved before) stays
     * where it lands now, whoever stores it next (SC_ENTRY_HOMED). */
    if (old && (old->flags & SC_ENTRY_HOMED || sc_table_entry_lane(old->flags) != op->lane % SC_ALLOC_LANES)) {
        ne->flags |= SC_ENTRY_HOMED;
    }
    if (op->value->fixup) {
        op->value->fixup(op->value->fixup_arg, SC_ENTRY_VAL(ne), op->value->len);
        sc_epoch_adopt(seg, shard, ne);
    }
    sc_shard_write_begin(shard);
    /* Lockless stores and deletes are drained: old's ttl holds still. A
     * key deleted without the lock (SC_TTL_GONE) counts as absent; for an
     * add, one that a lockless store brought back since the check above
     * is there after all. */
    if (SC_UNLIKELY(op->add_only) && old && !sc_cache_entry_absent(op->c, old, op->now)) {
        sc_shard_write_end(shard);
        /* Never published; release, not free: a zero-copy one was adopted
         * above (its bytes are counted as such). */
        sc_epoch_release_entry(seg, shard, ne);
        return SC_EXISTS;
    }
    old_gone = old && old->ttl == SC_TTL_GONE;
    if (old_gone) {
        /* Not published yet: see SC_ENTRY_REVIVED. */
        ne->flags |= SC_ENTRY_REVIVED;
    }
    sc_table_set(seg, &sc_layout_head(shard)->table, slot, op->hash, off);
    sc_shard_write_end(shard);
    /* The key's owner holds the new entry's bytes instead of the old's
     * (one key, one owner), before the lock is released (sc_fair.h). */
    sc_fair_count(shard, op->fair_slot, (uint64_t)ne->mem_size - (old ? (uint64_t)old->mem_size : 0));

    op->sweep = old && sc_epoch_release_entry(seg, shard, (sc_entry *)old);
    sc_cache_store_counted(op->c, shard, op->hash, op->key->len, op->now, op->owner, !old || old_gone);
    return SC_OK;
}

/* One round of the locked store (shard REPAIR lock held; first: the
 * first round): its answer, or SC_STORE_NO_ROOM when no memory was found
 * for the entry. */
static inline __attribute__((always_inline)) int sc_cache_store_round(sc_cache_store_op *op, bool first)
{
    sc_seg *seg = &op->c->seg;
    sc_off off;
    int r;

    SC_ASSERT(sc_layout_shard_repair_held(op->shard));
    r = sc_cache_store_shortcut(op, first);
    if (r != SC_STORE_GO_ON) {
        return r;
    }
    off = sc_cache_make_entry(op->c, op->shard, op->hash, op->key, op->value, op->ttl, op->now, op->lane, first,
                              op->fp);
    if (!off) {
        return SC_STORE_NO_ROOM;
    }
    if (op->value->fixup && (((sc_entry *)(seg->base + off))->flags & SC_ENTRY_CHAINED)) {
        /* A zero-copy layout needs one piece: the caller stores the
         * value's copying form instead. */
        sc_entry_free(seg, op->shard, (sc_entry *)(seg->base + off));
        return SC_TOOBIG;
    }
    return sc_cache_store_link(op, off);
}

sc_status sc_cache_store(sc_cache *c, const sc_key *key, const sc_value_in *value, uint32_t ttl,
                         int64_t now, bool add_only)
{
    sc_seg *seg = &c->seg;
    uint64_t size = sizeof(sc_entry) + (uint64_t)key->len + value->len;
    sc_table_seen seen = {.seq = 1};
    sc_fair_pass fpass, *fp = NULL;
    sc_cache_store_op op;
    uint32_t round = 0;
    int r;

    if (size > sc_alloc_max_request(&seg->ac) || value->len > UINT32_MAX) {
        return SC_TOOBIG;
    }
    if (SC_UNLIKELY(__atomic_load_n(&seg->hdr->needs_reset, __ATOMIC_ACQUIRE))) {
        sc_cache_reset(c);
    }
    op.c = c;
    op.key = key;
    op.value = value;
    op.hash = sc_cache_key_hash(seg, key);
    op.shard = sc_layout_shard_for(seg, op.hash);
    op.seen = &seen;
    op.now = now;
    op.ttl = ttl;
    op.add_only = add_only;
    op.sweep = false;
    /* A value over one of the same type and length, neither with a TTL,
     * is written into the entry without the shard's lock (sc_lockless.c;
     * a zero-copy one only while nobody reads zero-copy values);
     * everything else, and whatever that path declines, goes on under
     * the lock, with what this lookup found (seen). */
    op.lockless = !add_only && !c->slam_defense && !c->idle_ttl && ttl == 0 && value->len <= SC_LOCKLESS_MAX_BYTES;
    if (op.lockless && sc_cache_store_lockless(seg, op.shard, key, op.hash, value, now, &seen)) {
        return SC_OK;
    }
    op.owner = c->slam_defense ? sc_cache_slam_owner() : 0;
    op.lane = sc_pin_lane(op.shard);
    op.fair_slot = sc_fair_key_slot(seg, op.hash, key->str, key->len);
    if (c->owner_of) {
        /* Isolation: evictions spare the owners within their share. */
        fp = &fpass;
        sc_fair_begin(fp, seg, op.fair_slot);
    }
    op.fp = fp;
    /* Under the shard's REPAIR lock, taken and released once per round.
     * Repeats while the entry finds no memory, after each of at most
     * SC_STORE_ROUNDS evictions across the cache (pages freed by one may
     * be taken by other processes before this one gets back to them).
     * Each eviction asks for twice the pages of the one before, starting
     * from the entry's own: free pages scattered in short runs hold a
     * chained value only with room to spare, and a table that must grow
     * needs pages besides the entry's. */
    for (;;) {
        sc_shard_lock(seg, op.shard, SC_LOCK_REPAIR);
        r = sc_cache_store_round(&op, round == 0);
        sc_shard_unlock(op.shard);
        if (r != SC_STORE_NO_ROOM) {
            break;
        }
        if (round == SC_STORE_ROUNDS) {
            __atomic_fetch_add(&op.shard->stats.nomem, 1, __ATOMIC_RELAXED);
            return SC_NOMEM;
        }
        sc_evict_global(seg, c->idle_ttl, (uint32_t)(((size + SC_PAGE_SIZE - 1) >> SC_PAGE_SHIFT) << round), now, fp);
        round++;
    }
    if (SC_UNLIKELY(op.sweep)) {
        /* Nobody inside an epoch: what other shards retired goes now. */
        sc_evict_reclaimable(seg);
    }
    return (sc_status)r;
}

/* ---- delete, clear ---- */

sc_status sc_cache_delete(sc_cache *c, const sc_key *key)
{
    sc_seg *seg = &c->seg;
    uint64_t hash = sc_cache_key_hash(&c->seg, key);
    sc_shard *shard = sc_layout_shard_for(seg, hash);
    sc_shard_head *head = sc_layout_head(shard);
    sc_table_seen seen = {.seq = 1};
    uint32_t slot;
    const sc_entry *e;
    bool gone, sweep;
    sc_lockless_result r;

    /* A small value with no TTL is deleted without the lock (its
     * entry kept for the key's next store), and an absent key answered
     * without it (sc_lockless.c). */
    r = sc_lockless_delete(seg, shard, key->str, key->len, hash, &seen);
    if (r != SC_LOCKLESS_DECLINED) {
        return r == SC_LOCKLESS_DONE ? SC_OK : SC_NOTFOUND;
    }
    sc_shard_lock(&c->seg, shard, SC_LOCK_REPAIR);
    /* The lockless try met a writer's window: again, now that none can
     * open (as in sc_cache_store: a delete that frees the entry makes the
     * key's next store make a new one under the lock). */
    if (!sc_cache_seen_holds(head, &seen)
        && (r = sc_lockless_delete(seg, shard, key->str, key->len, hash, &seen)) != SC_LOCKLESS_DECLINED) {
        sc_shard_unlock(shard);
        return r == SC_LOCKLESS_DONE ? SC_OK : SC_NOTFOUND;
    }
    /* What the lockless path's lookup found, while the table is unchanged
     * since: no second lookup for the values it declines (a TTL, big
     * values, a cache short of memory). */
    e = sc_cache_seen_find(seg, head, key, hash, &seen, &slot);
    if (!e) {
        sc_shard_unlock(shard);
        return SC_NOTFOUND;
    }
    sc_shard_write_begin(shard);
    /* Lockless deletes are drained: a key one of them deleted (its entry
     * kept) is not there, but its entry goes now. */
    gone = e->ttl == SC_TTL_GONE;
    sc_table_clear_slot(seg, &head->table, slot);
    sc_shard_write_end(shard);
    sc_fair_count(shard, sc_fair_key_slot(seg, hash, key->str, key->len), -(uint64_t)e->mem_size);
    sweep = sc_epoch_release_entry(seg, shard, (sc_entry *)e);
    if (!gone) {
        head->deletes++;
    }
    sc_shard_unlock(shard);
    if (SC_UNLIKELY(sweep)) {
        sc_evict_reclaimable(seg);
    }
    return gone ? SC_NOTFOUND : SC_OK;
}

/* Clear while a reader may hold zero-copy values (sc_epoch.c): every entry
 * goes through sc_epoch_release_entry and the allocators keep their state, so
 * that retired memory is not handed out again. Every shard lock held, every
 * window open. */
static void sc_cache_clear_entries(sc_seg *seg)
{
    uint32_t i, slot;

    SC_ASSERT(sc_layout_holds_every_shard(seg, true));

    for (i = 0; i < seg->nshards; i++) {
        sc_shard *shard = &seg->shards[i];
        sc_table *table = &sc_layout_head(shard)->table;
        for (slot = 0; table->off && slot < table->capacity; slot++) {
            sc_entry *e = sc_table_slot_entry(seg, table, slot);
            if (e) {
                sc_table_clear_slot(seg, table, slot);
                sc_epoch_release_entry(seg, shard, e);
            }
        }
    }
}

void sc_cache_clear(sc_cache *c)
{
    sc_seg *seg = &c->seg;
    uint32_t i;
    bool keep_memory, holding = false;
    uint8_t *hold = NULL;

    uint32_t tid = (uint32_t)sc_lock_tid();

    sc_mutex_lock(&seg->hdr->global_lock);
    seg->hdr->global_lock_count++;
    /* Every shard is owned at once, one mutex held at a time (see the
     * head of this file). */
    for (i = 0; i < seg->nshards; i++) {
        sc_shard_freeze(seg, &seg->shards[i], tid);
    }
    /* Every window is open: a reader entering an epoch from now on finds
     * nothing to hold; one already inside is seen by this scan. */
    keep_memory = sc_epoch_zc_bytes(seg) && sc_epoch_any_reader(seg) && !seg->hdr->needs_reset;
    if (keep_memory) {
        sc_cache_clear_entries(seg);
    } else {
        /* The pool is reset: the pages readers may hold are kept out of it. */
        holding = sc_epoch_reset_collect(seg, &hold);
    }
    for (i = 0; i < seg->nshards; i++) {
        sc_shard *shard = &seg->shards[i];
        uint64_t repairs = shard->stats.repairs;
        if (!keep_memory) {
            memset(&sc_layout_head(shard)->table, 0, sizeof(sc_layout_head(shard)->table));
            sc_alloc_init_shard(&shard->alloc);
        }
        /* As in APCu, clearing starts the hit, miss and insert counts over
         * (repairs are kept: they tell about crashes, not about use). */
        memset(&shard->stats, 0, sizeof(shard->stats));
        shard->stats.repairs = repairs;
        sc_fair_zero_shard(shard);
        sc_layout_head(shard)->inserts = 0;
        sc_layout_head(shard)->updates = 0;
        sc_layout_head(shard)->deletes = 0;
    }
    /* Every window is open and drained: no lockless store is under way. */
    sc_live_counts_clear(&seg->hdr->live);
    if (holding) {
        sc_epoch_reset_holding(seg, hold);
    } else if (!keep_memory) {
        sc_alloc_reset_pool(&seg->ac);
        sc_epoch_forget_all(seg);
    }
    seg->hdr->clears++;
    for (i = seg->nshards; i-- > 0;) {
        sc_shard_thaw(&seg->shards[i]);
    }
    sc_mutex_unlock(&seg->hdr->global_lock);
}

void sc_cache_reset(sc_cache *c)
{
    __atomic_fetch_add(&c->seg.hdr->resets, 1, __ATOMIC_RELAXED);
    sc_cache_clear(c);
}

void sc_cache_figures_get(sc_cache *c, sc_cache_figures *f)
{
    sc_seg *seg = &c->seg;
    uint32_t i;

    memset(f, 0, sizeof(*f));
    for (i = 0; i < seg->nshards; i++) {
        sc_shard *s = &seg->shards[i];
        f->entries += sc_layout_shard_entries(s);
        f->slots += __atomic_load_n(&sc_layout_head(s)->table.capacity, __ATOMIC_RELAXED);
        sc_alloc_figures af;
        sc_alloc_figures_get(&s->alloc, &af);
        f->mem_used += af.used_bytes;
        f->mem_requested += af.requested_bytes;
        f->spare_reuses += __atomic_load_n(&s->alloc.spare_reuses, __ATOMIC_RELAXED);
        f->lane_steals += __atomic_load_n(&s->alloc.lane_steals, __ATOMIC_RELAXED);
        f->inserts += sc_layout_head(s)->inserts;
        f->updates += sc_layout_head(s)->updates;
        f->deletes += sc_layout_head(s)->deletes;
        f->expired += s->stats.expired;
        f->evicted += s->stats.evicted;
        f->nomem += s->stats.nomem;
        f->repairs += s->stats.repairs;
        f->lock_waits += __atomic_load_n(&s->stats.lock_waits, __ATOMIC_RELAXED);
        f->optimistic_retries += __atomic_load_n(&s->stats.optimistic_retries, __ATOMIC_RELAXED);
        f->hits += s->stats.hits;
        f->misses += __atomic_load_n(&s->stats.misses, __ATOMIC_RELAXED);
    }
    /* Lockless stores and deletes (sc_lockless.c). */
    f->updates += sc_live_total(&seg->hdr->live, SC_LIVE_UPDATES);
    f->inserts += sc_live_total(&seg->hdr->live, SC_LIVE_INSERTS);
    f->deletes += sc_live_total(&seg->hdr->live, SC_LIVE_DELETES);
    f->mem_total = (uint64_t)seg->npages << SC_PAGE_SHIFT;
    f->mem_free = (uint64_t)sc_alloc_pool_free_pages(&seg->ac) << SC_PAGE_SHIFT;
    f->pool_locks = seg->hdr->pool.lock_count;
    f->global_locks = seg->hdr->global_lock_count;
    f->slab_refills = seg->hdr->pool.slab_refills;
    f->slab_returns = seg->hdr->pool.slab_returns;
    f->expunges = seg->hdr->expunges;
    f->clears = seg->hdr->clears;
    f->resets = seg->hdr->resets;
    f->start_time = seg->hdr->start_time;
    f->nshards = seg->nshards;
}
