/*
 * sc_lockless.c - a store that rewrites its key's entry without the
 * shard's lock, and a delete that keeps the entry for the key's next store.
 *
 * What qualifies. A store of ttl 0 over an entry of ttl 0 or SC_TTL_GONE
 * with the same vtype: scalar over scalar, or bytes (string, array,
 * serialized) of the same length, not chained, zero-copy over zero-copy
 * only while no thread is inside an epoch (sc_epoch.h), made by
 * the caller's lane or homed (sc_table_entry_foreign; the caller's locked
 * path moves any other into its lane's slabs), plus the caller's own
 * limits (sc_lockless.h). A delete of such an entry, or of a zero-copy
 * one, with at most SC_LOCKLESS_MAX_BYTES of value, while
 * 1/SC_LOCKLESS_FREE_SHARE of the pool is free. The entry keeps its
 * memory, slot, lengths, key and value bytes.
 *
 * Steps. 1. sample the shard's seq (even, else give up); 2. look the key up
 * as a fetch does, check the entry qualifies, claim a pin slot, check seq
 * again (unchanged: from then on every writer that could free or change
 * the entry waits for the pin); 3. name the entry in the pin (entry_rel) and claim
 * its version even -> odd by compare-and-swap; 4. write the value and
 * times (a delete: ttl 0 -> SC_TTL_GONE), release-store the next even
 * version; 5. count it in the caller's liveness slot, release the pin.
 *
 * Owns: the lockless rewrite of a published entry's value and times, the
 * lockless delete (ttl 0 <-> SC_TTL_GONE), and the counts of the calling
 * thread's liveness slot (sc_live_slot.counts).
 * Locks: none. A pin of the shard (sc_pin.c) keeps the entry from being
 * freed or changed under the lock; the entry's version (sc_entry.ver)
 * keeps readers from trusting a half-written entry and two lockless
 * writers of one entry apart. The sampled-hit recorder (NO_REPAIR lock)
 * may write nhits and atime_after at the same time: either value is fine.
 * Death: before the version claim, only the pin is left (a drainer clears
 * it). Inside the version window (sc_lockless_fill, sc_lockless_mark_gone):
 * the entry stays odd and the pin names it; the next drain of the shard's
 * pins settles it (sc_pin_settle: the key is dropped, the kept entries
 * recounted). After the release: done; only the per-thread count may be
 * missing.
 *
 * Design: docs/internals.md#sc_lockless
 */
#include "sc_lockless.h"
#include "sc_shard.h"
#include "sc_pin.h"
#include "sc_entry.h"
#include "sc_epoch.h"
#include "sc_vtype.h"
#include <string.h>

/* The write itself, inside the entry's version window. Not inlined: the
 * death tests stop a writer here (a gdb breakpoint) and kill it. */
__attribute__((noinline)) void sc_lockless_fill(sc_entry *e, int64_t scalar, const char *data, uint32_t len,
                                                 int64_t now);

__attribute__((noinline)) void sc_lockless_fill(sc_entry *e, int64_t scalar, const char *data, uint32_t len,
                                                 int64_t now)
{
    /* Above the entry's stamp: this thread holds the version, the
     * previous writer's stamp is visible (its release, this claim). */
    uint64_t stamp = sc_entry_stamp_after(__atomic_load_n(&e->stamp, __ATOMIC_RELAXED));

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
 * read start (even) found it: pins the shard (self: the caller's liveness
 * token, lane: its lane, both from sc_live_self_lane), checks that seq has
 * not moved, names e in the pin and claims e's version (even -> odd).
 * Returns the pin, with *v (the version's even value before the claim)
 * set; from here on e stays key's entry and no other writer changes it,
 * until sc_lockless_unpin. NULL, with nothing held or written but a pin
 * taken and given back, when any of it fails: no pin slot, a writer opened
 * the window since (or has it open), another lockless writer holds e (or
 * a dead one's version is still odd). Inlined: as a call, its
 * out-parameters cost the lockless store and delete about 20 instructions
 * each (instr.sh). */
static inline __attribute__((always_inline)) sc_pin *
sc_lockless_claim(sc_shard *shard, uint64_t start, sc_entry *e, sc_owner self, uint32_t lane, uint16_t *v)
{
    sc_pin *pin;

    pin = self ? sc_pin_claim_lane(shard, self, lane) : NULL;
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

/* sc_lockless_store and sc_lockless_store_zc: fixup NULL for a copying
 * value (the constant lets the compiler drop the zero-copy steps there). */
static inline __attribute__((always_inline)) bool
sc_lockless_store_at(sc_seg *seg, sc_shard *shard, const char *key, uint32_t key_len, uint64_t hash, uint8_t vtype,
                     int64_t scalar, const char *data, uint32_t len, int64_t now, sc_lockless_fixup fixup,
                     void *fixup_arg, sc_table_seen *seen)
{
    sc_shard_head *head = sc_layout_head(shard);
    uint64_t start = __atomic_load_n(&head->seq, __ATOMIC_ACQUIRE);
    sc_live_table *live;
    sc_owner self;
    sc_pin *pin;
    sc_entry *e;
    uint32_t lane;
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
    /* A zero-copy value goes only over a zero-copy entry (one piece: never
     * chained), a copying one only over a copying one. */
    ok = e && e->vtype == vtype && sc_lockless_ttl_ok(__atomic_load_n(&e->ttl, __ATOMIC_RELAXED))
         && e->val_len == len
         && (__atomic_load_n(&e->flags, __ATOMIC_RELAXED) & (SC_ENTRY_CHAINED | SC_ENTRY_ZC))
                == (fixup ? SC_ENTRY_ZC : 0);
    /* With retired entries waiting in the shard, a zero-copy store takes
     * the locked path, which frees them once nobody can hold them
     * (sc_epoch_reclaim). A hint read without the lock. */
    ok = ok && !(fixup && __atomic_load_n(&shard->retire.head, __ATOMIC_RELAXED));
    if (!ok) {
        return false;
    }
    live = sc_layout_shard_live(shard);
    self = sc_live_self_lane(live, &lane);
    /* An entry another lane made, not homed yet: the locked path moves it
     * into this lane's slabs (sc_table_entry_foreign). */
    if (sc_table_entry_foreign(e, lane)) {
        return false;
    }
    /* Pinned and claimed: e stays this key's entry, with this vtype, and
     * ttl 0 or SC_TTL_GONE (only lockless writers change it now, under
     * ver). */
    pin = sc_lockless_claim(shard, start, e, self, lane, &v);
    if (!pin) {
        return false;
    }
    /* A zero-copy entry's bytes may be rewritten only while nobody can
     * hold them: no thread inside an epoch after the claim (the check
     * fences first). A thread that enters later reads the tables after,
     * finds the version odd and does not borrow (sc_fetch.h), or finds the
     * new bytes whole. Else the version goes back unchanged, and the
     * locked path makes a new entry and retires this one. */
    if (fixup && sc_epoch_any_reader(seg)) {
        __atomic_store_n(&e->ver, v, __ATOMIC_RELEASE);
        sc_lockless_unpin(pin);
        return false;
    }
    revived = __atomic_load_n(&e->ttl, __ATOMIC_RELAXED) == SC_TTL_GONE;
    sc_lockless_fill(e, scalar, data, len, now);
    if (fixup) {
        fixup(fixup_arg, SC_ENTRY_VAL(e), len);
    }
    if (revived) {
        uint8_t f = __atomic_load_n(&e->flags, __ATOMIC_RELAXED);
        __atomic_store_n(&e->ttl, 0, __ATOMIC_RELAXED);
        /* No other writer changes the entry's fields now (its version is
         * odd). A sampled hit may set SC_ENTRY_REFERENCED under the lock
         * meanwhile: one of the two hint bits may be lost, never a bit
         * that is set before publication. */
        if (!(f & SC_ENTRY_REVIVED)) {
            __atomic_store_n(&e->flags, (uint8_t)(f | SC_ENTRY_REVIVED), __ATOMIC_RELAXED);
        }
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

bool sc_lockless_store(sc_seg *seg, sc_shard *shard, const char *key, uint32_t key_len, uint64_t hash,
                       uint8_t vtype, int64_t scalar, const char *data, uint32_t len, int64_t now,
                       sc_table_seen *seen)
{
    return sc_lockless_store_at(seg, shard, key, key_len, hash, vtype, scalar, data, len, now, NULL, NULL, seen);
}

bool sc_lockless_store_zc(sc_seg *seg, sc_shard *shard, const char *key, uint32_t key_len, uint64_t hash,
                          const char *data, uint32_t len, int64_t now, sc_lockless_fixup fixup, void *fixup_arg,
                          sc_table_seen *seen)
{
    SC_ASSERT(fixup != NULL);

    return sc_lockless_store_at(seg, shard, key, key_len, hash, SC_V_ZC, 0, data, len, now, fixup, fixup_arg, seen);
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
    uint32_t slot = 0, ttl, lane;
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
    /* A zero-copy entry qualifies: the delete changes its ttl only, not a
     * byte a reader may hold, and whoever removes it later releases it
     * (sc_epoch_release_entry). */
    if (ttl != 0 || e->val_len > SC_LOCKLESS_MAX_BYTES
        || (__atomic_load_n(&e->flags, __ATOMIC_RELAXED) & SC_ENTRY_CHAINED)) {
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
    live = sc_layout_shard_live(shard);
    self = sc_live_self_lane(live, &lane);
    pin = sc_lockless_claim(shard, start, e, self, lane, &v);
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
