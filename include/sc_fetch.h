/*
 * sc_fetch.h - a fetch as apcu_fetch makes it (sc_fetch_value), its
 * first try inlined into the caller.
 *
 * sc_fetch_value is the one sequence every fetch of the glue goes
 * through, and the fuzzer's (fuzz/fuzz_cache.c): sc_fetch_fast, once
 * more after the caller entered its epoch when that found a zero-copy
 * value it could not borrow yet, then sc_fetch_copy, then
 * sc_cache_fetch_at. The caller gives the clock, the way into its epoch
 * and its sink as calls (sc_fetch_calls) and makes what it needs of the
 * value (a zval, for the glue) from the answer.
 *
 * sc_fetch_fast does what nearly every fetch of a hot key amounts
 * to, in one straight line: the key's entry (found again from the thread's
 * memo of its last hits while the entry's shard has not changed, else at
 * the key's home slot), a value that needs no copying (a scalar, or a
 * zero-copy value the caller may borrow), or an absent key (an empty home
 * slot) or an expired entry. It reads the clock only for an entry with a
 * ttl (the caller gives the clock, or the time to use). The fetch whose
 * hit or miss is the one in SC_HIT_SAMPLE (SC_MISS_SAMPLE) recorded in
 * shared memory it hands on. Anything else it declines, having changed
 * nothing, and says how far it got (sc_fetch_at): the caller goes on with
 * sc_cache_fetch_at (sc_cache.c), which does the rest of the first try
 * from there and every later try, as sc_cache_fetch does. The result is
 * the same as sc_cache_fetch's for the same time: only the moment the
 * clock is read differs (after the entry is found instead of before), and
 * whether it is read at all.
 *
 * Safety is sc_cache_fetch's: everything is read under the shard's
 * sequence counter and trusted only once the counter is found unchanged;
 * every offset read from shared memory is bounds-checked before use (the
 * table once, the entry's header once, then the key and the value bytes
 * together, which lie after it: one check of the entry's extent); a
 * scalar is read under the entry's version (a lockless store may rewrite
 * it, sc_lockless.c); a borrowed zero-copy value is taken at an even
 * version (a lockless store rewrites an SC_ENTRY_ZC entry only while no
 * thread is inside an epoch) and stays valid while the caller is inside
 * its epoch (sc_epoch.c), which the borrow mask says.
 *
 * sc_fetch_copy goes on from where sc_fetch_fast declined at an entry
 * whose bytes must be copied (a string, an array in the compact format, a
 * serialized value) and copies them into the caller's buffer in the same
 * straight line, under the same counter value and the entry's version, as
 * sc_cache_fetch_at's first try would; it too declines anything else,
 * counting nothing, and the caller goes on with sc_cache_fetch_at.
 *
 * Owns: nothing shared; the calling thread's sc_local hit and miss counts
 * (as sc_cache.c).
 * Locks: sc_fetch_fast and sc_fetch_copy none: they write nothing shared,
 * take no lock, never wait; what sc_fetch_value goes on with is
 * sc_cache_fetch_at's (sc_cache.c: the shard's NO_REPAIR lock at worst).
 * Death: sc_fetch_fast and sc_fetch_copy leave nothing to repair; the
 * rest is sc_cache_fetch_at's (sc_cache.c).
 */
#ifndef SC_FETCH_H
#define SC_FETCH_H

#include "sc_cache.h"
#include "sc_vtype.h"
#include <string.h>

/* What sc_fetch_fast, sc_fetch_copy and sc_fetch_value answer. The last
 * two come from sc_fetch_value only, after sc_cache_fetch_at: a hit (out
 * as sc_cache_fetch's) or a miss. SC_FAST_COPIED, SC_FETCH_FOUND and
 * SC_FETCH_MISSED: the caller's sink was opened (sc_fetch_calls.open) and
 * may hold buffers of the caller's. */
enum {
    SC_FAST_NO = 0, SC_FAST_MISS, SC_FAST_LONG, SC_FAST_SCALAR, SC_FAST_BORROWED, SC_FAST_COPIED,
    SC_FETCH_FOUND, SC_FETCH_MISSED
};

/* A time not read yet (sc_fetch_fast, sc_fetch_at.now). */
#define SC_FETCH_NOW_LATER INT64_MAX

/* Where one first try is, for sc_fetch_fast and its steps (all inlined:
 * the compiler keeps these in registers): the key's memo, the shard and
 * its counter when the try began, the entry found and what was read of
 * it. */
typedef struct sc_fetch_try {
    sc_fetch_memo *m;           /* the key's place in the thread's memos */
    const sc_shard_head *head;
    const sc_entry *e;
    const sc_seg *seg;
    uint64_t hash;              /* the key's hash; 0: not computed yet */
    uint64_t start;             /* the shard's counter when the try began */
    int64_t now;                /* the time, or SC_FETCH_NOW_LATER */
    uint32_t index;             /* the shard */
    uint32_t val_len;
    uint8_t vtype;
    bool remembered;            /* e came from the memo */
} sc_fetch_try;

/* A step's answer when the try goes on (never returned by sc_fetch_fast). */
#define SC_FAST_GO_ON (-1)

/* Declines: nothing counted or changed; at says how far the try got (e,
 * vtype, len: the entry and what was read of it, or NULL, 0, 0). A mixed
 * hash that is 0 is computed again, to 0. */
static inline __attribute__((always_inline)) int
sc_fetch_fast_decline(const sc_key *key, const sc_fetch_try *t, const sc_entry *e, uint8_t vtype, uint32_t len,
                      sc_fetch_at *at)
{
    at->hash = t->hash ? t->hash : sc_cache_key_hash(t->seg, key);
    at->index = t->index;
    at->start = t->start;
    at->e = e;
    at->vtype = vtype;
    at->val_len = len;
    at->now = t->now;
    return SC_FAST_NO;
}

/* A miss (the key absent, or its entry expired), counted once the counter
 * confirms it; the miss that is recorded in shared memory declines. */
static inline __attribute__((always_inline)) int
sc_fetch_fast_missed(const sc_key *key, const sc_fetch_try *t, const sc_entry *e, uint8_t vtype, uint32_t len,
                     sc_fetch_at *at)
{
    if (sc_seq_read_valid(&t->head->seq, t->start)
        && SC_LIKELY(((sc_local.misses + 1) & (SC_MISS_SAMPLE - 1)) != 0)) {
        sc_local.misses++;
        return SC_FAST_MISS;
    }
    return sc_fetch_fast_decline(key, t, e, vtype, len, at);
}

/* A hit (code), counted and remembered once the counter confirms it all;
 * the hit that is recorded in shared memory (it needs the clock) is left
 * to sc_cache_fetch_at. */
static inline __attribute__((always_inline)) int
sc_fetch_fast_commit(const sc_key *key, const sc_fetch_try *t, int code, sc_fetch_at *at)
{
    if (SC_UNLIKELY(!sc_seq_read_valid(&t->head->seq, t->start))
        || SC_UNLIKELY(((sc_local.hits + 1) & (SC_HIT_SAMPLE - 1)) == 0)) {
        return sc_fetch_fast_decline(key, t, t->e, t->vtype, t->val_len, at);
    }
    sc_local.hits++;
    if (!t->remembered) {
        t->m->glue_hash = key->glue_hash;
        t->m->key_len = key->len;
        t->m->index = t->index;
        t->m->seq = t->start;
        t->m->e = t->e;
    }
    return code;
}

/* Whether the thread's memo of key still holds (see sc_fetch_memos): the
 * same key, and its shard's counter unchanged since. Sets t's shard,
 * counter and entry from a memo of the same key either way. */
static inline __attribute__((always_inline)) bool sc_fetch_fast_recall(const sc_seg *seg, const sc_key *key,
                                                                       sc_fetch_try *t)
{
    const sc_fetch_memo *m = t->m;

    if (m->glue_hash != key->glue_hash || m->key_len != key->len) {
        return false;
    }
    t->index = m->index;
    t->head = &seg->heads[t->index];
    t->start = sc_seq_read_begin(&t->head->seq);
    t->e = m->e;
    return t->start == m->seq && sc_table_key_equal(SC_ENTRY_KEY(t->e), key->str, key->len);
}

/* The key's entry at its home slot (t->e, t->val_len; SC_FAST_GO_ON), an
 * absent key (an empty home slot: SC_FAST_MISS, counted), or a decline:
 * the entry is elsewhere, or something read was out of bounds (a torn
 * read: the counter then fails). */
static inline __attribute__((always_inline)) int sc_fetch_fast_home(const sc_seg *seg, const sc_key *key,
                                                                    sc_fetch_try *t, sc_fetch_at *at)
{
    sc_off off, eoff;
    uint32_t capacity, idx;
    uint64_t slots_at;
    uint8_t tag;
    const sc_entry *e;

    t->hash = sc_cache_key_hash(seg, key);
    t->index = sc_seg_shard_index(seg, t->hash);
    t->head = &seg->heads[t->index];
    t->start = sc_seq_read_begin(&t->head->seq);
    off = __atomic_load_n(&t->head->table.off, __ATOMIC_RELAXED);
    capacity = __atomic_load_n(&t->head->table.capacity, __ATOMIC_RELAXED);
    if (SC_UNLIKELY(t->start & 1)) {
        return sc_fetch_fast_decline(key, t, NULL, 0, 0, at);
    }
    /* The home slot's tag and slot, inside the segment: the slot lies
     * after the tag (idx < capacity <= the tags' 8-aligned size; with a
     * torn capacity of 0, 4 * idx >= idx), so checking the slot's end
     * checks both. A shard without a table (off 0) has no key
     * (sc_table_lookup finds none). A capacity that is not a power of two
     * (only a torn read gives one, and the counter then fails) at worst
     * picks another slot: the entry's hash and key, compared in full,
     * keep the answer right. */
    idx = (uint32_t)t->hash & (capacity - 1);
    slots_at = SC_ALIGN_UP((uint64_t)capacity, 8);
    if (SC_UNLIKELY(off == 0)) {
        tag = SC_TAG_EMPTY;
    } else if (SC_UNLIKELY(off > seg->size || slots_at + (uint64_t)idx * 4 + 4 > seg->size - off)) {
        return sc_fetch_fast_decline(key, t, NULL, 0, 0, at);
    } else {
        tag = ((const volatile uint8_t *)(seg->base + off))[idx];
    }
    if (SC_UNLIKELY(tag != sc_table_tag_of(t->hash))) {
        /* An empty home slot ends every probe: the key is absent. */
        if (tag == SC_TAG_EMPTY) {
            return sc_fetch_fast_missed(key, t, NULL, 0, 0, at);
        }
        return sc_fetch_fast_decline(key, t, NULL, 0, 0, at);
    }
    eoff = (sc_off)((const volatile uint32_t *)(seg->base + off + slots_at))[idx] << SC_SLOT_SHIFT;
    /* The header (the segment is far larger than one), then the key and
     * the value bytes behind it. */
    if (SC_UNLIKELY(eoff == 0 || eoff > seg->size - sizeof(sc_entry))) {
        return sc_fetch_fast_decline(key, t, NULL, 0, 0, at);
    }
    e = (const sc_entry *)(seg->base + eoff);
    t->val_len = e->val_len;
    if (SC_UNLIKELY(e->hash != t->hash || e->key_len != key->len
                    || (uint64_t)key->len + t->val_len > seg->size - eoff - sizeof(sc_entry)
                    || !sc_table_key_equal(SC_ENTRY_KEY(e), key->str, key->len))) {
        return sc_fetch_fast_decline(key, t, NULL, 0, 0, at);
    }
    t->e = e;
    return SC_FAST_GO_ON;
}

/* A zero-copy value's bytes in the segment, borrowed (SC_FAST_BORROWED).
 * One even version is enough: the caller is inside its epoch (the borrow
 * mask says so), so a lockless rewrite that had not claimed the entry
 * before this load sees the caller and gives up (sc_lockless_store), and
 * one that had is odd here or done. */
static inline __attribute__((always_inline)) int sc_fetch_fast_borrow(const sc_key *key, const sc_fetch_try *t,
                                                                      uint32_t borrow, sc_value_out *out,
                                                                      sc_fetch_at *at)
{
    const sc_entry *e = t->e;

    SC_ASSERT(t->vtype == SC_V_ZC);
    if (SC_UNLIKELY(!(borrow & (UINT32_C(1) << SC_V_ZC)))
        || SC_UNLIKELY((__atomic_load_n(&e->flags, __ATOMIC_RELAXED) & (SC_ENTRY_ZC | SC_ENTRY_CHAINED))
                       != SC_ENTRY_ZC)
        || SC_UNLIKELY(__atomic_load_n(&e->ver, __ATOMIC_ACQUIRE) & 1)) {
        return sc_fetch_fast_decline(key, t, e, t->vtype, t->val_len, at);
    }
    out->scalar = 0;
    out->data = (char *)SC_ENTRY_KEY(e) + key->len;
    out->len = t->val_len;
    out->borrowed = true;
    return sc_fetch_fast_commit(key, t, SC_FAST_BORROWED, at);
}

/* A scalar (SC_FAST_LONG, SC_FAST_SCALAR), read under the entry's version
 * (a lockless store may rewrite it, sc_lockless.c). */
static inline __attribute__((always_inline)) int sc_fetch_fast_scalar(const sc_key *key, const sc_fetch_try *t,
                                                                      sc_value_out *out, sc_fetch_at *at)
{
    sc_ever ver = sc_table_ever_begin(t->e);

    SC_ASSERT(t->vtype <= SC_V_DOUBLE);
    out->scalar = __atomic_load_n(&t->e->scalar, __ATOMIC_RELAXED);
    if (SC_UNLIKELY(!sc_table_ever_valid(t->e, ver))) {
        return sc_fetch_fast_decline(key, t, t->e, t->vtype, t->val_len, at);
    }
    out->data = NULL;
    out->len = 0;
    out->borrowed = false;
    /* Two calls, each with its constant: the caller's test of the result
     * then folds into this one. */
    if (t->vtype == SC_V_LONG) {
        return sc_fetch_fast_commit(key, t, SC_FAST_LONG, at);
    }
    return sc_fetch_fast_commit(key, t, SC_FAST_SCALAR, at);
}

/* SC_FAST_LONG, SC_FAST_SCALAR (another scalar), SC_FAST_BORROWED (a
 * zero-copy value's bytes in the segment): a hit, counted; out holds the
 * value. SC_FAST_MISS: the key is absent, the miss is counted.
 * SC_FAST_NO: nothing counted or changed; at says how far it got, for
 * sc_cache_fetch_at. now: the time to use, or SC_FETCH_NOW_LATER: clock()
 * when an entry's ttl needs it. borrow: as sc_sink.borrow. memos: the
 * calling thread's (sc_fetch_memos, sc_cache.h). */
static inline __attribute__((always_inline)) int
sc_fetch_fast(sc_cache *c, const sc_key *key, int64_t now, int64_t (*clock)(void), uint32_t borrow,
              sc_fetch_memos *memos, sc_value_out *out, sc_fetch_at *at)
{
    sc_fetch_try t;
    uint32_t ttl;
    int r;

    t.m = &memos->m[key->glue_hash & (SC_FETCH_MEMOS - 1)];
    t.seg = &c->seg;
    t.hash = 0;
    t.now = now;
    if (SC_UNLIKELY(memos->gen != c->gen)) {
        sc_cache_memos_reset(memos, c->gen);
    }
    t.remembered = sc_fetch_fast_recall(&c->seg, key, &t);
    if (t.remembered) {
        /* Its extent was checked with this header (the counter has not
         * moved since). */
        t.val_len = t.e->val_len;
    } else {
        r = sc_fetch_fast_home(&c->seg, key, &t, at);
        if (r != SC_FAST_GO_ON) {
            return r;
        }
    }
    t.vtype = t.e->vtype;
    ttl = t.e->ttl;
    if (SC_UNLIKELY(ttl != 0)) {
        if (t.now == SC_FETCH_NOW_LATER) {
            t.now = clock();
        }
        if ((ttl & SC_TTL_EXPIRED) || t.e->ctime + (int64_t)ttl < t.now) {
            return sc_fetch_fast_missed(key, &t, t.e, t.vtype, t.val_len, at);
        }
    }
    out->vtype = t.vtype;
    if (t.vtype == SC_V_ZC) {
        return sc_fetch_fast_borrow(key, &t, borrow, out, at);
    }
    if (SC_LIKELY(t.vtype <= SC_V_DOUBLE)) {
        return sc_fetch_fast_scalar(key, &t, out, at);
    }
    return sc_fetch_fast_decline(key, &t, t.e, t.vtype, t.val_len, at);    /* bytes to copy */
}

/* After sc_fetch_fast declined at an entry whose bytes are to be copied
 * (at->e set, at->vtype SC_V_STRING, SC_V_ARRAY or SC_V_SERIALIZED):
 * copies its at->val_len bytes into buf (at least that long) and confirms
 * them as sc_cache_fetch_at's first try would, with at->now as the time.
 * SC_FAST_COPIED: a hit, counted and remembered (memos: the calling
 * thread's); out holds the value, its data in buf. SC_FAST_NO: nothing
 * counted or changed but buf: the caller goes on with sc_cache_fetch_at
 * from at. It declines the hit that is recorded in shared memory, an
 * entry whose value changed type or length, a chained or zero-copy entry,
 * and an entry with a ttl when at->now was not read (a lockless store set
 * one since the first try). Bounds: the value's bytes are checked again
 * against the segment (a header read while a writer changed it may give
 * any length); nothing read is trusted before the entry's version and
 * the shard's counter are found unchanged. */
static inline __attribute__((always_inline)) int
sc_fetch_copy(sc_cache *c, const sc_key *key, const sc_fetch_at *at, sc_fetch_memos *memos, char *buf,
              sc_value_out *out)
{
    const sc_seg *seg = &c->seg;
    const sc_entry *e = at->e;
    const char *src;
    uint32_t ttl, val_len = at->val_len;
    int64_t scalar;
    sc_ever ver;

    SC_ASSERT(e && (at->vtype == SC_V_STRING || at->vtype == SC_V_ARRAY || at->vtype == SC_V_SERIALIZED));
    if (SC_UNLIKELY(((sc_local.hits + 1) & (SC_HIT_SAMPLE - 1)) == 0)) {
        return SC_FAST_NO;
    }
    ver = sc_table_ever_begin(e);
    ttl = e->ttl;
    if (SC_UNLIKELY(ttl != 0)
        && (at->now == SC_FETCH_NOW_LATER || (ttl & SC_TTL_EXPIRED) || e->ctime + (int64_t)ttl < at->now)) {
        return SC_FAST_NO;
    }
    if (SC_UNLIKELY(e->vtype != at->vtype || e->val_len != val_len
                    || (__atomic_load_n(&e->flags, __ATOMIC_RELAXED) & (SC_ENTRY_ZC | SC_ENTRY_CHAINED)) != 0)) {
        return SC_FAST_NO;
    }
    src = sc_seg_ptr(seg, sc_seg_off(seg, e) + sizeof(sc_entry) + key->len, val_len);
    if (SC_UNLIKELY(!src)) {
        return SC_FAST_NO;
    }
    scalar = __atomic_load_n(&e->scalar, __ATOMIC_RELAXED);
    memcpy(buf, src, val_len);
    if (SC_UNLIKELY(!sc_table_ever_valid(e, ver))
        || SC_UNLIKELY(!sc_seq_read_valid(&seg->heads[at->index].seq, at->start))) {
        return SC_FAST_NO;
    }
    sc_local.hits++;
    {
        /* As sc_fetch_fast_commit: the counter confirmed this header. */
        sc_fetch_memo *m = &memos->m[key->glue_hash & (SC_FETCH_MEMOS - 1)];
        m->glue_hash = key->glue_hash;
        m->key_len = key->len;
        m->index = at->index;
        m->seq = at->start;
        m->e = e;
    }
    out->vtype = at->vtype;
    out->scalar = scalar;
    out->data = buf;
    out->len = val_len;
    out->borrowed = false;
    return SC_FAST_COPIED;
}

/* What sc_fetch_value asks of its caller besides the key: the same for
 * every fetch of the caller (a static const object, so that the compiler
 * calls these directly). */
typedef struct sc_fetch_calls {
    /* The time (sc_cache_fetch's now), read only when an entry's ttl or
     * the rest of the fetch needs it. */
    int64_t (*clock)(void);
    /* The borrow mask now (as sc_sink.borrow): not 0 only while the
     * caller is inside its epoch. Cheap: asked at the start of every
     * fetch. */
    uint32_t (*borrow)(void);
    /* NULL, or called when the first try found a zero-copy value that the
     * caller, outside its epoch, could not borrow: false when the caller
     * never borrows; true after it tried to enter its epoch: borrow is
     * asked again and the first try made again. */
    bool (*enter)(void);
    /* Makes *sink ready for a fetch whose first try declined: get set,
     * buf NULL, cap 0, is_string false, borrow as given (and whatever the
     * caller keeps beside them). Called at most once per fetch. */
    void (*open)(sc_sink *sink, uint32_t borrow);
} sc_fetch_calls;

/* sc_fetch_value once sc_fetch_fast declined (at): the sink opened, a
 * value to copy copied by sc_fetch_copy when it can, else
 * sc_cache_fetch_at, with the time read now if the first try did not.
 * Never inlined: the first try, inlined into the caller, stays as short
 * as it is alone. */
static __attribute__((noinline, unused)) int sc_fetch_value_rest(sc_cache *c, const sc_key *key,
                                                                 const sc_fetch_at *at,
                                                                 const sc_fetch_calls *calls,
                                                                 sc_fetch_memos *memos, sc_sink *sink,
                                                                 sc_value_out *out)
{
    int64_t now = at->now;
    uint32_t borrow = calls->borrow();

    calls->open(sink, borrow);
    /* A value to copy: its buffer now, for the length the first try saw
     * (if that changed, the core asks again), so that the rest of that try
     * can copy it instead of asking for one and trying again; most often
     * sc_fetch_copy does that rest, without the clock. A zero-copy value
     * the caller may not borrow is copied too. */
    if (at->e) {
        if (at->vtype == SC_V_STRING || at->vtype == SC_V_ARRAY || at->vtype == SC_V_SERIALIZED) {
            sink->get(sink, at->vtype, at->val_len);
            if (SC_LIKELY(sc_fetch_copy(c, key, at, memos, sink->buf, out) == SC_FAST_COPIED)) {
                return SC_FAST_COPIED;
            }
        } else if (at->vtype == SC_V_ZC && !borrow) {
            sink->get(sink, at->vtype, at->val_len);
        }
    }
    if (now == SC_FETCH_NOW_LATER) {
        now = calls->clock();
    }
    return sc_cache_fetch_at(c, key, at, now, sink, out) == SC_OK ? SC_FETCH_FOUND : SC_FETCH_MISSED;
}

/* A fetch of key as apcu_fetch makes it, with the same result as
 * sc_cache_fetch's for the same time. now: the time to use, or
 * SC_FETCH_NOW_LATER (calls->clock() when needed). memos: the calling
 * thread's (sc_fetch_memos). sink: opened by calls->open only when the
 * first try declines (its contents are not read before). Answers
 * SC_FAST_LONG, SC_FAST_SCALAR, SC_FAST_BORROWED (out holds the value),
 * SC_FAST_MISS, or, once the sink was opened, SC_FAST_COPIED and
 * SC_FETCH_FOUND (out holds the value; bytes in the sink's buffer unless
 * out->borrowed) or SC_FETCH_MISSED. Never SC_FAST_NO. */
static inline __attribute__((always_inline)) int sc_fetch_value(sc_cache *c, const sc_key *key, int64_t now,
                                                                const sc_fetch_calls *calls,
                                                                sc_fetch_memos *memos, sc_sink *sink,
                                                                sc_value_out *out)
{
    sc_fetch_at at;
    int r = sc_fetch_fast(c, key, now, calls->clock, calls->borrow(), memos, out, &at);

    if (SC_UNLIKELY(r == SC_FAST_NO) && at.vtype == SC_V_ZC && !calls->borrow() && calls->enter
        && calls->enter()) {
        /* A zero-copy value, found from outside the epoch (nothing was
         * counted or kept): entered, look again from the start. */
        r = sc_fetch_fast(c, key, now, calls->clock, calls->borrow(), memos, out, &at);
    }
    if (SC_LIKELY(r != SC_FAST_NO)) {
        return r;
    }
    r = sc_fetch_value_rest(c, key, &at, calls, memos, sink, out);
    /* The rest's answers are these three: said to the compiler, so that
     * the caller's tests for the first try's answers fold away on this
     * path. */
    SC_ASSERT(r == SC_FAST_COPIED || r == SC_FETCH_FOUND || r == SC_FETCH_MISSED);
    if (r < SC_FAST_COPIED || r > SC_FETCH_MISSED) {
        __builtin_unreachable();
    }
    return r;
}

#endif
