/*
 * sc_fetch.h - the fetch's first try, inlined into the glue's apcu_fetch.
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
 * Locks: none: it writes nothing shared, takes no lock, never waits.
 * Death: nothing to repair (nothing shared is written).
 */
#ifndef SC_FETCH_H
#define SC_FETCH_H

#include "sc_cache.h"
#include "sc_vtype.h"
#include <string.h>

enum { SC_FAST_NO = 0, SC_FAST_MISS, SC_FAST_LONG, SC_FAST_SCALAR, SC_FAST_BORROWED, SC_FAST_COPIED };

/* A time not read yet (sc_fetch_fast, sc_fetch_at.now). */
#define SC_FETCH_NOW_LATER INT64_MAX

/* The memo of a thread's last hits: sc_fetch_memos (sc_cache.h). */


/* SC_FAST_LONG, SC_FAST_SCALAR (another scalar), SC_FAST_BORROWED (a
 * zero-copy value's bytes in the segment): a hit, counted; out holds the
 * value. SC_FAST_MISS: the key is absent, the miss is counted.
 * SC_FAST_NO: nothing counted or changed; at says how far it got, for
 * sc_cache_fetch_at. now: the time to use, or SC_FETCH_NOW_LATER: clock()
 * when an entry's ttl needs it. borrow: as sc_sink.borrow. memos: the
 * calling thread's (see above). */
static inline __attribute__((always_inline)) int
sc_fetch_fast(sc_cache *c, const sc_key *key, int64_t now, int64_t (*clock)(void), uint32_t borrow,
                    sc_fetch_memos *memos, sc_value_out *out, sc_fetch_at *at)
{
    const sc_seg *seg = &c->seg;
    sc_fetch_memo *m = &memos->m[key->glue_hash & (SC_FETCH_MEMOS - 1)];
    const sc_shard_head *head;
    uint64_t start;
    uint32_t index, val_len;
    uint8_t vtype;
    const sc_entry *e;
    bool remembered = false;
    uint64_t hash = 0;
    uint32_t ttl;

/* Declines, saying how far it got (hash: 0 when not computed yet; a
 * mixed hash that is 0 is computed again, to 0). */
#define SC_FAST_DECLINE(entry, vt, len) \
    do { \
        at->hash = hash ? hash : sc_hash_mix(key->glue_hash); at->index = index; at->start = start; \
        at->e = (entry); at->vtype = (vt); at->val_len = (len); at->now = now; \
        return SC_FAST_NO; \
    } while (0)
/* A miss (absent or expired), counted once the counter confirms it. */
#define SC_FAST_MISSED(entry, vt, len) \
    do { \
        if (sc_seq_read_valid(&head->seq, start) \
            && SC_LIKELY(((sc_local.misses + 1) & (SC_MISS_SAMPLE - 1)) != 0)) { \
            sc_local.misses++; \
            return SC_FAST_MISS; \
        } \
        SC_FAST_DECLINE(entry, vt, len); \
    } while (0)

    if (SC_UNLIKELY(memos->gen != c->gen)) {
        sc_cache_memos_reset(memos, c->gen);
    }
    if (m->glue_hash == key->glue_hash && m->key_len == key->len) {
        index = m->index;
        head = &seg->heads[index];
        start = sc_seq_read_begin(&head->seq);
        e = m->e;
        remembered = start == m->seq && sc_table_key_equal(SC_ENTRY_KEY(e), key->str, key->len);
    }
    if (!remembered) {
        sc_off off, eoff;
        uint32_t capacity, idx;
        uint64_t slots_at;
        uint8_t tag;

        hash = sc_hash_mix(key->glue_hash);
        index = sc_seg_shard_index(seg, hash);
        head = &seg->heads[index];
        start = sc_seq_read_begin(&head->seq);
        off = __atomic_load_n(&head->table.off, __ATOMIC_RELAXED);
        capacity = __atomic_load_n(&head->table.capacity, __ATOMIC_RELAXED);
        if (SC_UNLIKELY(start & 1)) {
            SC_FAST_DECLINE(NULL, 0, 0);
        }
        /* The home slot's tag and slot, inside the segment: the slot lies
         * after the tag (idx < capacity <= the tags' 8-aligned size; with
         * a torn capacity of 0, 4 * idx >= idx), so checking the slot's
         * end checks both. A shard without a table (off 0) has no key
         * (sc_table_lookup finds none). A capacity that is not a power of
         * two (only a torn read gives one, and the counter then fails) at
         * worst picks another slot: the entry's hash and key, compared in
         * full, keep the answer right. */
        idx = (uint32_t)hash & (capacity - 1);
        slots_at = SC_ALIGN_UP((uint64_t)capacity, 8);
        if (SC_UNLIKELY(off == 0)) {
            tag = SC_TAG_EMPTY;
        } else if (SC_UNLIKELY(off > seg->size || slots_at + (uint64_t)idx * 4 + 4 > seg->size - off)) {
            SC_FAST_DECLINE(NULL, 0, 0);
        } else {
            tag = ((const volatile uint8_t *)(seg->base + off))[idx];
        }
        if (SC_UNLIKELY(tag != sc_table_tag_of(hash))) {
            /* An empty home slot ends every probe: the key is absent. */
            if (tag == SC_TAG_EMPTY) {
                SC_FAST_MISSED(NULL, 0, 0);
            }
            SC_FAST_DECLINE(NULL, 0, 0);
        }
        eoff = (sc_off)((const volatile uint32_t *)(seg->base + off + slots_at))[idx] << SC_SLOT_SHIFT;
        /* The header (the segment is far larger than one), then the key
         * and the value bytes behind it. */
        if (SC_UNLIKELY(eoff == 0 || eoff > seg->size - sizeof(sc_entry))) {
            SC_FAST_DECLINE(NULL, 0, 0);
        }
        e = (const sc_entry *)(seg->base + eoff);
        val_len = e->val_len;
        if (SC_UNLIKELY(e->hash != hash || e->key_len != key->len
                        || (uint64_t)key->len + val_len > seg->size - eoff - sizeof(sc_entry)
                        || !sc_table_key_equal(SC_ENTRY_KEY(e), key->str, key->len))) {
            SC_FAST_DECLINE(NULL, 0, 0);
        }
    } else {
        /* Its extent was checked with this header (the counter has not
         * moved since). */
        val_len = e->val_len;
    }
    vtype = e->vtype;
    ttl = e->ttl;
    if (SC_UNLIKELY(ttl != 0)) {
        if (now == SC_FETCH_NOW_LATER) {
            now = clock();
        }
        if ((ttl & SC_TTL_EXPIRED) || e->ctime + (int64_t)ttl < now) {
            SC_FAST_MISSED(e, vtype, val_len);
        }
    }

/* Counts the hit and returns code, once the counter confirms it all, and
 * remembers it; the hit that is recorded in shared memory (it needs the
 * clock) is left to sc_cache_fetch_at. */
#define SC_FAST_COMMIT(code) \
    do { \
        if (SC_UNLIKELY(!sc_seq_read_valid(&head->seq, start)) \
            || SC_UNLIKELY(((sc_local.hits + 1) & (SC_HIT_SAMPLE - 1)) == 0)) { \
            SC_FAST_DECLINE(e, vtype, val_len); \
        } \
        sc_local.hits++; \
        if (!remembered) { \
            m->glue_hash = key->glue_hash; m->key_len = key->len; m->index = index; m->seq = start; m->e = e; \
        } \
        return (code); \
    } while (0)

    out->vtype = vtype;
    if (vtype == SC_V_ZC) {
        /* One even version is enough: the caller is inside its epoch (the
         * borrow mask says so), so a lockless rewrite that had not claimed
         * the entry before this load sees the caller and gives up
         * (sc_lockless_store), and one that had is odd here or done. */
        if (SC_UNLIKELY(!(borrow & (UINT32_C(1) << SC_V_ZC)))
            || SC_UNLIKELY((__atomic_load_n(&e->flags, __ATOMIC_RELAXED) & (SC_ENTRY_ZC | SC_ENTRY_CHAINED))
                           != SC_ENTRY_ZC)
            || SC_UNLIKELY(__atomic_load_n(&e->ver, __ATOMIC_ACQUIRE) & 1)) {
            SC_FAST_DECLINE(e, vtype, val_len);
        }
        out->scalar = 0;
        out->data = (char *)SC_ENTRY_KEY(e) + key->len;
        out->len = val_len;
        out->borrowed = true;
        SC_FAST_COMMIT(SC_FAST_BORROWED);
    }
    if (SC_LIKELY(vtype <= SC_V_DOUBLE)) {
        sc_ever ver = sc_table_ever_begin(e);
        out->scalar = __atomic_load_n(&e->scalar, __ATOMIC_RELAXED);
        if (SC_UNLIKELY(!sc_table_ever_valid(e, ver))) {
            SC_FAST_DECLINE(e, vtype, val_len);
        }
        out->data = NULL;
        out->len = 0;
        out->borrowed = false;
        SC_FAST_COMMIT(vtype == SC_V_LONG ? SC_FAST_LONG : SC_FAST_SCALAR);
    }
    SC_FAST_DECLINE(e, vtype, val_len);     /* bytes to copy */
#undef SC_FAST_COMMIT
#undef SC_FAST_MISSED
#undef SC_FAST_DECLINE
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
        /* As SC_FAST_COMMIT: the counter confirmed this header. */
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

#endif
