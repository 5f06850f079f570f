/*
 * sc_cache_fetch.c - fetch and exists, the readers of sc_cache.h.
 *
 * A fetch copies the key's entry under the shard's sequence counter and
 * the entry's own version (a lockless store rewrites the value without
 * the counter: sc_lockless.c) a few times, then falls back to the shard's
 * NO_REPAIR lock. Values go into the caller's sink, decoded by the caller
 * after every lock is released; a zero-copy value is lent in place to a
 * caller inside an epoch (sc_epoch.c). Hits and misses are counted per
 * thread (sc_local) and sampled into the shard's figures.
 *
 * Owns: the calling thread's sc_local read figures; the sampled hit and
 * miss figures of each shard (stats.hits, stats.misses,
 * stats.optimistic_retries) and a sampled hit's entry fields (nhits,
 * atime_after, SC_ENTRY_REFERENCED). Nothing else shared is written.
 * Locks: none for the optimistic copies (the shard's seq, the entry's
 * version); then the NO_REPAIR lock. A sampled hit: the NO_REPAIR lock by
 * trylock. A copy torn by a lockless store under the lock is read again
 * inside the window (sc_lockless_open_window).
 * Death: a fetch killed inside sc_lockless_open_window's window (seq odd)
 * leaves its shard to be repaired by the next locker (sc_shard.c). A fetch
 * or exists killed anywhere else wrote nothing but whole aligned figures
 * under a NO_REPAIR lock, whose death needs no repair.
 *
 * Design: docs/internals.md#sc_cache
 */
#include "sc_cache.h"
#include "sc_shard.h"
#include "sc_entry.h"
#include "sc_lockless.h"

#define SC_OPTIMISTIC_TRIES 4
#define SC_ODD_SPINS 128

/* SC_READ_TORN: the entry was being rewritten by a lockless store
 * (sc_lockless.c) while it was copied: copy again. */
enum { SC_READ_DONE = 0, SC_READ_NEEDBUF = 1, SC_READ_TORN = 2 };

/* Copies e, key's entry as sc_table_find returned it (NULL: none), into
 * out if it is live (bytes into the sink). Runs either with the shard's
 * lock held (NO_REPAIR) or under the sequence counter, in which case the
 * caller validates before trusting anything. */
static inline __attribute__((always_inline)) int sc_cache_read_found(sc_cache *c, const sc_entry *e, const sc_key *key,
                                                               int64_t now, sc_sink *sink, sc_value_out *out,
                                                               sc_status *status)
{
    uint8_t vtype;
    uint32_t val_len, ttl;
    int64_t ctime;
    sc_ever ver;

    if (!e) {
        *status = SC_NOTFOUND;
        return SC_READ_DONE;
    }
    /* The entry's own version: a lockless store rewrites the
     * value and the times without the shard's seq or lock. */
    ver = sc_table_ever_begin(e);
    vtype = e->vtype;
    val_len = e->val_len;
    ttl = e->ttl;
    ctime = e->ctime;
    if (ttl && ((ttl & SC_TTL_EXPIRED) || ctime + (int64_t)ttl < now)) {
        *status = SC_NOTFOUND;
        return SC_READ_DONE;
    }
    out->vtype = vtype;
    out->scalar = __atomic_load_n(&e->scalar, __ATOMIC_RELAXED);
    out->len = 0;
    out->data = NULL;
    out->borrowed = false;
    if (SC_UNLIKELY((sink->borrow >> (vtype & 31)) & 1)
        && (__atomic_load_n(&e->flags, __ATOMIC_RELAXED) & (SC_ENTRY_ZC | SC_ENTRY_CHAINED)) == SC_ENTRY_ZC) {
        /* Zero-copy: the caller is inside an epoch (sc_epoch.c), and the
         * bytes were whole at an even version (a lockless store rewrites
         * them only while nobody is inside one). */
        out->data = sc_seg_ptr(&c->seg, sc_seg_off(&c->seg, e) + sizeof(sc_entry) + key->len, val_len);
        if (!out->data) {
            *status = SC_NOTFOUND;
            return SC_READ_DONE;
        }
        if (SC_UNLIKELY(!sc_table_ever_valid(e, ver))) {
            return SC_READ_TORN;
        }
        out->len = val_len;
        out->borrowed = true;
        *status = SC_OK;
        return SC_READ_DONE;
    }
    if (sc_cache_has_bytes(vtype)) {
        bool want_string = vtype == SC_V_STRING;
        if (!sink->buf || sink->cap < val_len || sink->is_string != want_string) {
            out->len = val_len;
            return SC_READ_NEEDBUF;
        }
        if (!sc_entry_copy_value(&c->seg, e, key->len, sink->buf, val_len)) {
            *status = SC_NOTFOUND;
            return SC_READ_DONE;
        }
        out->data = sink->buf;
        out->len = val_len;
    }
    if (SC_UNLIKELY(!sc_table_ever_valid(e, ver))) {
        return SC_READ_TORN;
    }
    *status = SC_OK;
    return SC_READ_DONE;
}

/* Looks key up and copies its live entry into out: sc_cache_read_found. */
static inline __attribute__((always_inline)) int sc_cache_read_entry(sc_cache *c, const sc_shard_head *head,
                                                               const sc_key *key, uint64_t hash, int64_t now,
                                                               sc_sink *sink, sc_value_out *out, sc_status *status)
{
    uint32_t slot;
    const sc_entry *e = sc_table_find(&c->seg, &head->table, key->str, key->len, hash, &slot);

    return sc_cache_read_found(c, e, key, now, sink, out, status);
}

/* Every SC_HIT_SAMPLE-th hit of a process is recorded in shared memory,
 * under the shard's lock in NO_REPAIR mode (no sequence window: readers do not
 * look at these fields): the entry's hit count and access time, its CLOCK
 * reference bit, and the shard's hit total. Each is a whole aligned field
 * written in one store, statistics that no invariant depends on, so a
 * process killed here leaves nothing to repair: the lock is taken in
 * NO_REPAIR mode, and its death never empties the shard. */
static void sc_cache_record_hit(sc_cache *c, sc_shard *shard, const sc_key *key, uint64_t hash, int64_t now)
{
    uint32_t slot;
    sc_entry *e;

    /* A sample may be dropped: never wait for a busy lock (its holder may
     * be descheduled) on the way out of a fetch. */
    if (!sc_shard_trylock(&c->seg, shard, SC_LOCK_NO_REPAIR)) {
        return;
    }
    e = (sc_entry *)sc_table_lookup(&c->seg, &sc_layout_head(shard)->table, key->str, key->len, hash, &slot);
    if (e) {
        if (e->nhits <= UINT32_MAX - SC_HIT_SAMPLE) {
            e->nhits += SC_HIT_SAMPLE;
        }
        e->atime_after = sc_table_entry_after(e, now);
        e->flags |= SC_ENTRY_REFERENCED;
    }
    shard->stats.hits += SC_HIT_SAMPLE;
    sc_shard_unlock(shard);
}

/* The outcome of a fetch that has read (or not found) its entry: the hit
 * and miss figures, sampled. */
static inline __attribute__((always_inline)) sc_status sc_cache_fetch_done(sc_cache *c, sc_shard *shard,
                                                                     const sc_key *key, uint64_t hash,
                                                                     int64_t now, sc_status status)
{
    if (status == SC_OK) {
        if (SC_UNLIKELY((++sc_local.hits & (SC_HIT_SAMPLE - 1)) == 0)) {
            sc_cache_record_hit(c, shard, key, hash, now);
        }
    } else if (SC_UNLIKELY((++sc_local.misses & (SC_MISS_SAMPLE - 1)) == 0)) {
        __atomic_fetch_add(&shard->stats.misses, SC_MISS_SAMPLE, __ATOMIC_RELAXED);
    }
    return status;
}

/* Whether a reader that found the shard's window odd should go to the
 * lock at once: the window is a restarted named segment's, whose pages
 * only a locker checks (sc_verify.c). A relaxed read with no lock, a hint
 * only: the locker decides. */
static inline bool sc_cache_pending(const sc_shard *shard)
{
    return __atomic_load_n(&shard->verify, __ATOMIC_RELAXED) == SC_VERIFY_PENDING;
}

/* Every try after a first one that did not succeed: optimistic reads while
 * the shard's counter lets them, then under the lock. tries: optimistic
 * tries already spent; retried: the first one failed its check. */
static __attribute__((noinline)) sc_status sc_cache_fetch_slow(sc_cache *c, const sc_key *key, uint64_t hash,
                                                               uint32_t index, int64_t now, sc_sink *sink,
                                                               sc_value_out *out, int tries, bool retried)
{
    sc_shard_head *head = &c->seg.heads[index];
    sc_shard *shard = &c->seg.shards[index]; /* only for its lock and figures */
    sc_status status = SC_NOTFOUND;
    int spins = 0;

    if (retried) {
        sc_local.optimistic_retries++;
        __atomic_fetch_add(&shard->stats.optimistic_retries, 1, __ATOMIC_RELAXED);
    }
    /* Optimistic tries: one repeats while a writer has the shard's window
     * open (seq odd: up to SC_ODD_SPINS spins count as one try), when a
     * writer changed the shard or a lockless store the entry during the
     * copy, and once the sink has a buffer of the size the copy needs.
     * At most SC_OPTIMISTIC_TRIES, then under the lock. */
    while (tries < SC_OPTIMISTIC_TRIES) {
        uint64_t start = sc_seq_read_begin(&head->seq);
        int r;
        if (SC_UNLIKELY(start & 1)) {
            if (sc_cache_pending(shard)) {
                break;
            }
            if (++spins < SC_ODD_SPINS) {
                sc_cpu_relax();
                continue;
            }
            spins = 0;
            tries++;
            continue;
        }
        r = sc_cache_read_entry(c, head, key, hash, now, sink, out, &status);
        if (SC_LIKELY(sc_seq_read_valid(&head->seq, start)) && SC_LIKELY(r != SC_READ_TORN)) {
            if (r == SC_READ_NEEDBUF) {
                /* The length is consistent: get a buffer outside any lock. */
                sink->get(sink, out->vtype, out->len);
                tries++;
                continue;
            }
            return sc_cache_fetch_done(c, shard, key, hash, now, status);
        }
        tries++;
        sc_local.optimistic_retries++;
        __atomic_fetch_add(&shard->stats.optimistic_retries, 1, __ATOMIC_RELAXED);
    }

    sc_local.locked_reads++;
    /* Under the lock the entry stays as it is, but the sink's buffer is
     * got with no lock held: repeats while the value found needs a buffer
     * the sink does not have (another try after the value changed length
     * or type meanwhile). Each turn ends with a buffer of the size just
     * read, so only a writer changing the value between every two turns
     * keeps it going. */
    for (;;) {
        int r;
        sc_shard_lock(&c->seg, shard, SC_LOCK_NO_REPAIR);
        r = sc_cache_read_entry(c, head, key, hash, now, sink, out, &status);
        if (SC_UNLIKELY(r == SC_READ_TORN)) {
            /* The lock does not keep lockless stores out: read inside the
             * window, which waits for them (or settles a dead one's). */
            sc_lockless_open_window(&c->seg, shard, key->str, key->len, hash);
            r = sc_cache_read_entry(c, head, key, hash, now, sink, out, &status);
            sc_shard_write_end(shard);
        }
        sc_shard_unlock(shard);
        if (r != SC_READ_NEEDBUF) {
            break;
        }
        sink->get(sink, out->vtype, out->len);
    }
    return sc_cache_fetch_done(c, shard, key, hash, now, status);
}

/* The rest of a first optimistic try that found e (NULL: not found yet:
 * looked up here; home_seen: sc_fetch_fast has looked at the key's home
 * slot already, so the inline look at it is not repeated) under the
 * counter value start. It is
 * the whole fetch nearly always (an even counter, a value that needs no
 * buffer or fits the one given, no writer meanwhile), and alone it keeps
 * few values live. Anything else goes on in sc_cache_fetch_slow, as the
 * next try. */
static inline __attribute__((always_inline)) sc_status
sc_cache_fetch_first(sc_cache *c, const sc_key *key, const sc_fetch_at *at, int64_t now, sc_sink *sink,
                     sc_value_out *out, bool home_seen)
{
    const sc_shard_head *head = &c->seg.heads[at->index];
    sc_status status = SC_NOTFOUND;
    const sc_entry *e = at->e;
    uint32_t slot;
    int r;

    if (SC_UNLIKELY(at->start & 1)) {
        return sc_cache_fetch_slow(c, key, at->hash, at->index, now, sink, out, 0, false);
    }
    if (!e) {
        /* sc_fetch_fast looked at the home slot already. */
        e = home_seen ? sc_table_lookup(&c->seg, &head->table, key->str, key->len, at->hash, &slot)
                      : sc_table_find(&c->seg, &head->table, key->str, key->len, at->hash, &slot);
    }
    r = sc_cache_read_found(c, e, key, now, sink, out, &status);
    if (SC_UNLIKELY(!sc_seq_read_valid(&head->seq, at->start)) || SC_UNLIKELY(r == SC_READ_TORN)) {
        /* A writer changed the shard, or a lockless store the entry. */
        return sc_cache_fetch_slow(c, key, at->hash, at->index, now, sink, out, 1, true);
    }
    if (SC_UNLIKELY(r == SC_READ_NEEDBUF)) {
        /* The length is consistent: get a buffer outside any lock. */
        sink->get(sink, out->vtype, out->len);
        return sc_cache_fetch_slow(c, key, at->hash, at->index, now, sink, out, 1, false);
    }
    return sc_cache_fetch_done(c, &c->seg.shards[at->index], key, at->hash, now, status);
}

sc_status sc_cache_fetch_at(sc_cache *c, const sc_key *key, const sc_fetch_at *at, int64_t now, sc_sink *sink,
                            sc_value_out *out)
{
    return sc_cache_fetch_first(c, key, at, now, sink, out, true);
}

/* A first try from nothing found yet: sc_cache_fetch_first, which looks
 * at the key's home slot inline. */
sc_status sc_cache_fetch_hashed(sc_cache *c, const sc_key *key, uint64_t hash, uint32_t index, int64_t now,
                                sc_sink *sink, sc_value_out *out)
{
    sc_fetch_at at = {0};

    SC_ASSERT(hash == sc_cache_key_hash(&c->seg, key) && index == sc_seg_shard_index(&c->seg, hash));
    at.hash = hash;
    at.index = index;
    at.start = sc_seq_read_begin(&c->seg.heads[at.index].seq);
    at.now = now;
    return sc_cache_fetch_first(c, key, &at, now, sink, out, false);
}

sc_status sc_cache_fetch(sc_cache *c, const sc_key *key, int64_t now, sc_sink *sink, sc_value_out *out)
{
    uint64_t hash = sc_cache_key_hash(&c->seg, key);

    return sc_cache_fetch_hashed(c, key, hash, sc_seg_shard_index(&c->seg, hash), now, sink, out);
}

/* As a fetch since APCu 5.1.25: a hit or a miss in the (sampled) figures,
 * and a sampled hit sets the entry's access time and reference bit. */
sc_status sc_cache_exists(sc_cache *c, const sc_key *key, int64_t now)
{
    uint64_t hash = sc_cache_key_hash(&c->seg, key);
    uint32_t index = sc_seg_shard_index(&c->seg, hash);
    const sc_shard_head *head = &c->seg.heads[index];
    sc_shard *shard = &c->seg.shards[index];
    int tries;
    bool found;

    /* Repeats while a writer has the shard's window open (seq odd: a spin)
     * or changed the shard during the look (the counter moved): at most
     * SC_OPTIMISTIC_TRIES * SC_ODD_SPINS looks, then one under the lock. */
    for (tries = 0; tries < SC_OPTIMISTIC_TRIES * SC_ODD_SPINS; tries++) {
        uint64_t start = sc_seq_read_begin(&head->seq);
        uint32_t slot;
        const sc_entry *e;
        if (start & 1) {
            if (sc_cache_pending(shard)) {
                break;
            }
            sc_cpu_relax();
            continue;
        }
        e = sc_table_lookup(&c->seg, &head->table, key->str, key->len, hash, &slot);
        found = e && !sc_cache_entry_absent(c, e, now);
        if (sc_seq_read_valid(&head->seq, start)) {
            return sc_cache_fetch_done(c, shard, key, hash, now, found ? SC_OK : SC_NOTFOUND);
        }
    }
    sc_shard_lock(&c->seg, shard, SC_LOCK_NO_REPAIR);
    {
        uint32_t slot;
        const sc_entry *e = sc_table_lookup(&c->seg, &head->table, key->str, key->len, hash, &slot);
        found = e && !sc_cache_entry_absent(c, e, now);
    }
    sc_shard_unlock(shard);
    return sc_cache_fetch_done(c, shard, key, hash, now, found ? SC_OK : SC_NOTFOUND);
}
