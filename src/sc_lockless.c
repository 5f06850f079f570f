/*
 * sc_lockless.c - a store that rewrites its key's entry without the
 * shard's lock (issue 20, item 3).
 *
 * A store that overwrites a scalar (null, bool, int, float) with a scalar
 * of the same type, or a value with bytes (string, array, serialized; not
 * zero-copy, not chained) with one of the same type and the same length,
 * both with no TTL, keeps the entry's memory, its slot, its lengths and
 * everything readers use to find it; only the value and its times change.
 * (Same length, not just "fits": the allocator's requested_bytes figure
 * is computed from val_len when the entry is freed, and the snapshots size
 * their records from it.) Taking the shard's lock and opening the shard's window for that
 * writes two lines every key of the shard shares (the lock, and the head
 * with seq), which processes storing disjoint keys then pass back and forth
 * on every store. This path writes only the entry, the caller's pin slot
 * (a line of its own, sc_pin.c) and the caller's liveness slot (its count):
 *
 *   1. sample the shard's seq (even, else give up);
 *   2. look the key up as a fetch does (the answer goes back to the
 *      caller, whose locked path uses it while seq has not moved); check
 *      the entry qualifies (same vtype, ttl 0, same val_len, not chained,
 *      not zero-copy: else give up, before any shared write), claim a pin
 *      slot, then check seq again (seq_cst): unchanged means no writer
 *      had opened the window, and from here on every writer that would
 *      free, unlink, retype or rewrite the entry under the lock opens the
 *      window first and waits for this pin (sc_shard_write_begin);
 *   3. name the entry in the pin (entry_rel), then claim the entry's
 *      version by compare-and-swap even -> odd (another lockless writer
 *      of the same key holding it: give up, the locked path waits);
 *   4. read the stamp (after the claim: see sc_table_ever_valid), write the
 *      value bytes and the fields, release-store the next even version;
 *   5. count the store in the caller's liveness slot, clear entry_rel,
 *      release the pin.
 * Readers check the entry's version around their copy (sc_read_entry,
 * sc_snapshot.c); what they need from an entry that this path never
 * changes (vtype, ttl, flags, val_len, key, value bytes) they read as
 * before; they copy value bytes only under that version (no zero-copy
 * reader holds a pointer into these entries: SC_ENTRY_ZC ones never
 * qualify). Only entries with ttl 0 qualify, and only stores of ttl 0 over
 * them: the writers that decide from an entry's ttl and ctime outside the
 * window (expiry in sc_evict.c, add_only in sc_cache.c) then never see a
 * ttl that is changing, and an entry this path rewrites never expires.
 *
 * Deletes (sc_lockless_delete) go the same way for entries with ttl 0,
 * at most SC_LOCKLESS_MAX_BYTES of value bytes, neither chained nor
 * zero-copy, and only while at least 1/SC_LOCKLESS_FREE_SHARE of the
 * segment's pages are free in the pool (a kept entry's memory is not free:
 * in a cache short of memory, deletes free at once under the lock): steps
 * 1-3 as above, then, if ttl is still 0, the ttl becomes SC_TTL_GONE
 * (sc_lockless_mark_gone), the shard's kept-entry figure (sc_alloc_lane.gone,
 * the caller's lane) counts it, and the version goes even.
 * The entry stays in its slot with its memory: every reader takes that ttl
 * for an absent key (it reads ttl as before: one aligned word), and a
 * store of the key with the same type and length brings it back here
 * (ttl 0 again, counted as an insert). The locked paths remove kept
 * entries (sc_entry_free uncounts them): a store or delete of the key,
 * expiry and eviction when memory is short (those of every shard before a
 * live entry of any shard is evicted: sc_evict.c), and sc_resize_reserve
 * before a table grows. A delete that finds the key absent, or gone, with the
 * table unchanged during its look answers so without writing anything.
 *
 * Owns: the lockless rewrite of a published entry's value and times, the
 * lockless delete (ttl 0 <-> SC_TTL_GONE), and the counts of the calling
 * thread's liveness slot (sc_live_slot.counts).
 * Locks: none. A pin of the shard (sc_pin.c) keeps the entry from being
 * freed or changed under the lock; the entry's version (sc_entry.ver)
 * keeps readers from trusting a half-written entry; the version's
 * compare-and-swap keeps two lockless writers of one entry apart. The
 * sampled-hit recorder (sc_cache_record_hit, NO_REPAIR lock) may write nhits and
 * atime_after at the same time: statistics, either value is fine.
 * Death: killed before the version is claimed: only the pin is left (a
 * drainer clears it). Killed inside the version window (sc_lockless_fill,
 * sc_lockless_mark_gone, or between a ttl change and its count): the entry
 * stays odd and the pin names it; readers retry, then fall back to the
 * lock (a reader that finds ttl SC_TTL_GONE already answers "absent"
 * without either), open the window, which drains the pins: the dead holder
 * is found (sc_live_gone), and once every pin is drained its entry, still
 * odd, is settled (sc_pin_settle: the key is dropped - its entry made a
 * kept one, SC_TTL_GONE - and the shard's kept entries counted again); the
 * next writer of the shard does the same. A reader that finds an odd entry
 * no pin names (a named segment restarted after such a death) settles it
 * the same way under the lock with the window open. The rest of the shard
 * is untouched. The count of kept entries (sc_alloc_gone_add) is changed
 * inside the window, so that the settling recount covers a death on either
 * side of it. Killed after the release: the store or delete is done, with
 * that count; its per-thread count (sc_live_count, a statistic) comes right
 * after and may be missing.
 */
#include "sc_lockless.h"
#include "sc_shard.h"
#include "sc_pin.h"
#include "sc_entry.h"
#include <string.h>

/* The write itself, inside the entry's version window. Not inlined: the
 * death tests stop a writer here (a gdb breakpoint) and kill it. */
__attribute__((noinline)) void sc_lockless_fill(sc_entry *e, int64_t scalar, const char *data, uint32_t len,
                                                 int64_t now);

__attribute__((noinline)) void sc_lockless_fill(sc_entry *e, int64_t scalar, const char *data, uint32_t len,
                                                 int64_t now)
{
    uint64_t stamp = sc_entry_stamp();

    if (len) {
        memcpy(SC_ENTRY_VAL(e), data, len);
    }
    __atomic_store_n(&e->scalar, scalar, __ATOMIC_RELAXED);
    __atomic_store_n(&e->ctime, now, __ATOMIC_RELAXED);
    __atomic_store_n(&e->mtime_after, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&e->atime_after, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&e->nhits, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&e->stamp, stamp, __ATOMIC_RELAXED);
}

/* The ttls of entries a lockless store or delete may change: 0 (a value
 * that never expires) and SC_TTL_GONE (a key deleted here). */
static inline bool sc_lockless_ttl_ok(uint32_t ttl)
{
    return ttl == 0 || ttl == SC_TTL_GONE;
}

/* The delete itself, inside the entry's version window. Not inlined, for
 * the death tests, as sc_lockless_fill. */
__attribute__((noinline)) void sc_lockless_mark_gone(sc_entry *e);

__attribute__((noinline)) void sc_lockless_mark_gone(sc_entry *e)
{
    __atomic_store_n(&e->ttl, SC_TTL_GONE, __ATOMIC_RELAXED);
}

/* Steps 2 and 3 for e, key's entry as a lookup made after the shard's seq
 * read start (even) found it: pins the shard, checks that seq has not
 * moved, names e in the pin and claims e's version (even -> odd). Returns
 * the pin, with *live, *self (the caller's liveness table and token) and
 * *v (the version's even value before the claim) set; from here on e stays
 * key's entry and no other writer changes it, until sc_lockless_unpin.
 * NULL, with nothing held or written but a pin taken and given back, when
 * any of it fails: no token or pin slot, a writer opened the window since
 * (or has it open), another lockless writer holds e (or a dead one's
 * version is still odd). Inlined: as a call, its out-parameters cost the
 * lockless store and delete about 20 instructions each (instr.sh). */
static inline __attribute__((always_inline)) sc_pin *
sc_lockless_claim(sc_shard *shard, uint64_t start, sc_entry *e, sc_live_table **live, sc_owner *self, uint16_t *v)
{
    sc_pin *pin;

    *live = sc_layout_shard_live(shard);
    *self = sc_live_self(*live);
    pin = *self ? sc_pin_claim(shard, *self) : NULL;
    if (!pin) {
        return NULL;
    }
    /* The claim (seq_cst) comes before this check: if seq has not moved
     * since before the lookup, no writer opened the window meanwhile, so
     * what the lookup found still holds, and every writer from now on
     * waits for the pin before it changes anything. */
    if (__atomic_load_n(&sc_layout_head(shard)->seq, __ATOMIC_SEQ_CST) != start) {
        sc_pin_release(pin);
        return NULL;
    }
    __atomic_store_n(&pin->entry_rel, (int64_t)((uintptr_t)e - (uintptr_t)shard), __ATOMIC_RELAXED);
    *v = __atomic_load_n(&e->ver, __ATOMIC_RELAXED);
    if ((*v & 1) || !__atomic_compare_exchange_n(&e->ver, v, (uint16_t)(*v + 1), false, __ATOMIC_SEQ_CST,
                                                 __ATOMIC_RELAXED)) {
        /* Another lockless writer of this key (or a dead one's): the
         * locked path waits for it, or settles it. */
        __atomic_store_n(&pin->entry_rel, 0, __ATOMIC_RELAXED);
        sc_pin_release(pin);
        return NULL;
    }
    /* The odd version is visible before any field changes. */
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return pin;
}

/* The end of a lockless write: the version is even again; the pin no
 * longer names the entry and is given back. */
static inline void sc_lockless_unpin(sc_pin *pin)
{
    __atomic_store_n(&pin->entry_rel, 0, __ATOMIC_RELAXED);
    sc_pin_release(pin);
}

bool sc_lockless_store(sc_seg *seg, sc_shard *shard, const char *key, uint32_t key_len, uint64_t hash,
                       uint8_t vtype, int64_t scalar, const char *data, uint32_t len, int64_t now,
                       sc_table_seen *seen)
{
    sc_shard_head *head = sc_layout_head(shard);
    uint64_t start = __atomic_load_n(&head->seq, __ATOMIC_ACQUIRE);
    sc_live_table *live;
    sc_owner self;
    sc_pin *pin;
    sc_entry *e;
    uint16_t v;
    bool ok, revived;

    seen->seq = start;
    if (start & 1) {
        return false;
    }
    /* Look first, pin only an entry that qualifies: a store of a new key
     * (or of another type or length) costs one lookup here, no pin, and
     * the caller's locked path uses its answer while seq has not moved. */
    e = (sc_entry *)sc_table_probe_find(seg, &head->table, key, key_len, hash, seen);
    ok = e && e->vtype == vtype && sc_lockless_ttl_ok(__atomic_load_n(&e->ttl, __ATOMIC_RELAXED))
         && e->val_len == len
         && !(__atomic_load_n(&e->flags, __ATOMIC_RELAXED) & (SC_ENTRY_CHAINED | SC_ENTRY_ZC));
    if (!ok) {
        return false;
    }
    /* Pinned and claimed: e stays this key's entry, with this vtype, and
     * ttl 0 or SC_TTL_GONE (only lockless writers change it now, under
     * ver). */
    pin = sc_lockless_claim(shard, start, e, &live, &self, &v);
    if (!pin) {
        return false;
    }
    revived = __atomic_load_n(&e->ttl, __ATOMIC_RELAXED) == SC_TTL_GONE;
    sc_lockless_fill(e, scalar, data, len, now);
    if (revived) {
        __atomic_store_n(&e->ttl, 0, __ATOMIC_RELAXED);
        /* Counted inside the window: a writer killed before the version
         * below is settled and the count done again (sc_pin_settle);
         * one killed after it has counted. */
        sc_alloc_gone_add(&shard->alloc, sc_pin_lane(shard), -1);
    }
    __atomic_store_n(&e->ver, (uint16_t)(v + 2), __ATOMIC_RELEASE);
    sc_live_count(live, self, revived ? SC_LIVE_INSERTS : SC_LIVE_UPDATES);
    sc_lockless_unpin(pin);
    return true;
}

sc_lockless_result sc_lockless_delete(sc_seg *seg, sc_shard *shard, const char *key, uint32_t key_len,
                                      uint64_t hash, sc_table_seen *seen)
{
    sc_shard_head *head = sc_layout_head(shard);
    uint64_t start = __atomic_load_n(&head->seq, __ATOMIC_ACQUIRE);
    sc_live_table *live;
    sc_owner self;
    sc_pin *pin;
    sc_entry *e;
    uint32_t slot = 0, ttl;
    uint16_t v;
    bool deleted;

    seen->seq = start;
    if (start & 1) {
        return SC_LOCKLESS_DECLINED;
    }
    e = (sc_entry *)sc_table_find(seg, &head->table, key, key_len, hash, &slot);
    /* For the caller's locked path (a delete needs no free slot). */
    seen->e = e;
    seen->slot = slot;
    seen->free = SC_NONE;
    ttl = e ? __atomic_load_n(&e->ttl, __ATOMIC_RELAXED) : 0;
    if (!e || ttl == SC_TTL_GONE) {
        /* Absent, or deleted here before, at the moment of the look if
         * the table did not change meanwhile: a reader's answer. */
        return sc_seq_read_valid(&head->seq, start) ? SC_LOCKLESS_NOTFOUND : SC_LOCKLESS_DECLINED;
    }
    if (ttl != 0 || e->val_len > SC_LOCKLESS_MAX_BYTES
        || (__atomic_load_n(&e->flags, __ATOMIC_RELAXED) & (SC_ENTRY_CHAINED | SC_ENTRY_ZC))) {
        return SC_LOCKLESS_DECLINED;
    }
    /* A kept entry holds its memory until the key's next store or memory
     * pressure. Kept while memory is short, such entries make the shards'
     * slabs grow past the live data (new keys cannot use them), and once
     * removed under pressure they leave those slabs part empty, pages no
     * other shard and no large value can have: live entries get evicted
     * that a delete freeing at once would have spared (benchmarks/
     * churn.php; tests/memory/358). So with little free in the pool, the
     * delete takes the locked path and frees. One load of the pool's
     * free-page count, written only when pages change hands. */
    if ((uint64_t)sc_alloc_pool_free_pages(&seg->ac) * SC_LOCKLESS_FREE_SHARE < seg->npages) {
        return SC_LOCKLESS_DECLINED;
    }
    pin = sc_lockless_claim(shard, start, e, &live, &self, &v);
    if (!pin) {
        return SC_LOCKLESS_DECLINED;
    }
    /* ttl is 0 or SC_TTL_GONE (another delete of the key got here first:
     * then this one finds nothing to delete). */
    deleted = __atomic_load_n(&e->ttl, __ATOMIC_RELAXED) == 0;
    if (deleted) {
        sc_lockless_mark_gone(e);
        /* Inside the window, as in sc_lockless_store. */
        sc_alloc_gone_add(&shard->alloc, sc_pin_lane(shard), 1);
    }
    __atomic_store_n(&e->ver, (uint16_t)(v + 2), __ATOMIC_RELEASE);
    if (deleted) {
        sc_live_count(live, self, SC_LIVE_DELETES);
    }
    sc_lockless_unpin(pin);
    return deleted ? SC_LOCKLESS_DONE : SC_LOCKLESS_NOTFOUND;
}

void sc_lockless_open_window(sc_seg *seg, sc_shard *shard, const char *key, uint32_t key_len, uint64_t hash)
{
    uint32_t slot;
    sc_entry *e;

    SC_ASSERT(sc_layout_shard_held(shard));

    sc_shard_write_begin(shard);
    e = (sc_entry *)sc_table_lookup(seg, &sc_layout_head(shard)->table, key, key_len, hash, &slot);
    if (e) {
        /* Still odd with every pin drained: its writer died, and no pin
         * names it any more (a restart of a named segment cleared them). */
        sc_pin_settle(shard, e);
    }
}

void sc_lockless_settle_entry(sc_shard *shard, sc_entry *e)
{
    SC_ASSERT(sc_layout_shard_held(shard));

    sc_shard_write_begin(shard);
    sc_pin_settle(shard, e);
}
