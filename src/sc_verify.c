/*
 * sc_verify.c - what the first user of a named segment checks before it
 * trusts what the previous users left, at a cost that does not grow with
 * the data: a checksum of the metadata when the file is mapped, and each
 * shard's pages when the shard is first locked.
 *
 * What is guarded against: bytes of a closed file that changed while no
 * process mapped it (a torn write-back at a power loss, a damaged disk,
 * a tool or a person writing the file). Its owner could as well change
 * it while it is mapped; what the checks promise is that damage is never
 * used: no wrong value is returned, no damaged structure followed.
 *
 * What is checked when:
 *   - At the last detach (sc_verify_close, exclusive flock): every shard
 *     this run of the segment opened gets body_sum, the checksum of the
 *     pages of its runs (slabs and large runs: its table, entries,
 *     chunks, free objects); every shard's runs are linked from its vhead
 *     through the head field of each run's first descriptor (unused
 *     there otherwise); every shard is marked pending. Then
 *     sc_file.c stores sc_verify_meta_sum, the checksum of everything
 *     before the data area (the header, the heads, the shards with their
 *     sums and chain heads, the page descriptors with the links), and marks
 *     the file closed. Shards nobody opened keep their sum: nothing could
 *     change their pages (below), so it still holds.
 *   - At attach by the first user after a restart (sc_file.c): the
 *     metadata checksum must match, else the segment starts afresh; then
 *     every pending shard gets an odd window (sc_verify_boot). O(shards +
 *     pages / 128) bytes read, whatever the size of the data.
 *   - At a pending shard's first lock (sc_shard.c, any mode, any
 *     process): sc_verify_shard hashes the shard's runs, following the
 *     chain; a match ends the window (the shard is used as it is), a
 *     mismatch or a broken chain empties the shard, as the repair after a
 *     dead writer does (its runs found again through the descriptors,
 *     which the metadata checksum vouched for).
 * Why nothing damaged is used in between: every read of a shard's pages
 * starts from its head, and an odd window sends every optimistic reader,
 * pin holder and lockless writer to the lock (they check the window
 * before trusting what they read); every locker goes through the check.
 * The pages of a pending shard change only through its lock: the pool
 * lock holder reads a neighbour's descriptor only to see it is not free,
 * and a full reset or a clear takes every shard's lock first. So the sum
 * made at close holds until the check, and the data of shards nobody
 * locks is never read. Free runs hold nothing anybody reads (a slab or a
 * table is written before use). Damage after the check, while the pool
 * runs, is the pool's owner's to avoid, as in a pool that never stopped.
 * A segment whose users stopped without closing it is not checked this
 * way (sc_file.c: trusted under the same kernel, as a running pool);
 * its pending shards stay pending and are checked at their first lock.
 *
 * Owns: sc_header.sum's value, sc_shard's verify, vhead and body_sum,
 * and the head field of the first descriptor of a shard's runs.
 * Locks: the file's exclusive flock for sc_verify_close and
 * sc_verify_boot; the shard's mutex with its window odd for
 * sc_verify_shard (read only).
 * Death: a last user killed in sc_verify_close leaves the file not
 * closed, and shards marked pending may have a chain cut short: their
 * check fails and empties them. A locker killed during the check (which
 * only reads) leaves the shard pending: its next locker checks again; one
 * killed while it empties a shard that failed leaves it to be repaired by
 * the next locker (sc_shard.c).
 *
 * Design: docs/internals.md#sc_file
 */
#include "sc_verify.h"

/* A checksum of words (xxHash64's round on four lanes). */
typedef struct sc_verify_hash {
    uint64_t v[4];
    uint64_t n;
} sc_verify_hash;

#define SC_VERIFY_P1 UINT64_C(0x9E3779B185EBCA87)
#define SC_VERIFY_P2 UINT64_C(0xC2B2AE3D27D4EB4F)
/* sc_shard.verify while sc_verify_close sums the shard (then pending). */
#define SC_VERIFY_SUMMING UINT32_C(0x53554d4d) /* "SUMM" */

static inline uint64_t sc_verify_round(uint64_t acc, uint64_t w)
{
    acc += w * SC_VERIFY_P2;
    acc = (acc << 31) | (acc >> 33);
    return acc * SC_VERIFY_P1;
}

static void sc_verify_start(sc_verify_hash *st, uint64_t seed)
{
    st->v[0] = SC_VERIFY_P1 + seed;
    st->v[1] = SC_VERIFY_P2;
    st->v[2] = seed;
    st->v[3] = UINT64_C(0x165667B19E3779F9) ^ seed;
    st->n = 0;
}

static void sc_verify_words(sc_verify_hash *st, const uint64_t *w, size_t n)
{
    size_t i = 0;

    for (; i < n && (st->n & 3); i++, st->n++) {
        st->v[st->n & 3] = sc_verify_round(st->v[st->n & 3], w[i]);
    }
    for (; i + 4 <= n; i += 4, st->n += 4) {
        st->v[0] = sc_verify_round(st->v[0], w[i]);
        st->v[1] = sc_verify_round(st->v[1], w[i + 1]);
        st->v[2] = sc_verify_round(st->v[2], w[i + 2]);
        st->v[3] = sc_verify_round(st->v[3], w[i + 3]);
    }
    for (; i < n; i++, st->n++) {
        st->v[st->n & 3] = sc_verify_round(st->v[st->n & 3], w[i]);
    }
}

static uint64_t sc_verify_end(const sc_verify_hash *st)
{
    uint64_t h = st->n;
    int i;

    for (i = 0; i < 4; i++) {
        h = (h ^ sc_verify_round(0, st->v[i])) * SC_VERIFY_P1 + UINT64_C(0x85EBCA77C2B2AE63);
    }
    h ^= h >> 29;
    h *= SC_VERIFY_P2;
    return h ^ (h >> 32);
}

uint64_t sc_verify_meta_sum(const sc_seg *seg)
{
    const uint64_t zero[2] = {0, 0};
    const uint64_t *w = (const uint64_t *)(const void *)seg->base;
    size_t at = offsetof(sc_header, closed) / 8, after = (offsetof(sc_header, sum) + 8) / 8;
    sc_verify_hash st;

    _Static_assert(offsetof(sc_header, closed) % 8 == 0 && offsetof(sc_header, sum) == offsetof(sc_header, closed) + 8,
                   "closed and sum are the two words the checksum skips");
    SC_ASSERT(seg->hdr->data_off % 8 == 0 && seg->hdr->data_off <= seg->size);
    sc_verify_start(&st, 0);
    sc_verify_words(&st, w, at);
    sc_verify_words(&st, zero, 2);
    sc_verify_words(&st, w + after, seg->hdr->data_off / 8 - after);
    return sc_verify_end(&st);
}

/* The checksum of one run (page p, run pages): its place and its bytes.
 * A shard's sum adds those of its runs (any order). */
static uint64_t sc_verify_run(const sc_seg *seg, uint32_t p, uint32_t run)
{
    sc_verify_hash st;

    sc_verify_start(&st, ((uint64_t)p << 32) | run);
    sc_verify_words(&st, (const uint64_t *)(const void *)(seg->ac.data + ((uint64_t)p << SC_PAGE_SHIFT)),
                    ((size_t)run << SC_PAGE_SHIFT) / 8);
    return sc_verify_end(&st);
}

/* Whether the runs tile the data area (each head's run inside it, no
 * inner page where a run starts). Reads the descriptors only. */
static bool sc_verify_tiled(const sc_seg *seg)
{
    uint32_t p = 0;

    while (p < seg->npages) {
        const sc_page *d = &seg->pages[p];
        if (d->run == 0 || d->run > seg->npages - p || d->kind == SC_PAGE_INNER) {
            return false;
        }
        p += d->run;
    }
    return true;
}

bool sc_verify_close(sc_seg *seg)
{
    uint32_t i, p = 0;

    if (__atomic_load_n(&seg->hdr->needs_reset, __ATOMIC_ACQUIRE) || seg->hdr->pool.dirty || !sc_verify_tiled(seg)) {
        return false;
    }
    /* A shard with its window odd was left by a writer that died inside
     * it: its next locker empties it (sc_shard.c); it is not summed. */
    for (i = 0; i < seg->nshards; i++) {
        sc_shard *shard = &seg->shards[i];
        if (shard->verify != SC_VERIFY_PENDING) {
            bool odd = __atomic_load_n(&seg->heads[i].seq, __ATOMIC_RELAXED) & 1;
            shard->verify = odd ? 0 : SC_VERIFY_SUMMING;
            shard->body_sum = 0;
        }
        shard->vhead = SC_NONE;
    }
    while (p < seg->npages) {
        const sc_page *d = &seg->pages[p];
        uint32_t run = d->run;
        if ((d->kind == SC_PAGE_SLAB || d->kind == SC_PAGE_LARGE) && d->owner < seg->nshards) {
            sc_shard *shard = &seg->shards[d->owner];
            if (shard->verify == SC_VERIFY_SUMMING) {
                shard->body_sum += sc_verify_run(seg, p, run);
            }
            seg->pages[p].head = shard->vhead;
            shard->vhead = p;
        }
        p += run;
    }
    for (i = 0; i < seg->nshards; i++) {
        if (seg->shards[i].verify == SC_VERIFY_SUMMING) {
            seg->shards[i].verify = SC_VERIFY_PENDING;
        }
    }
    return true;
}

void sc_verify_boot(sc_seg *seg)
{
    uint32_t i;

    for (i = 0; i < seg->nshards; i++) {
        uint64_t *seq = &seg->heads[i].seq;
        if (seg->shards[i].verify == SC_VERIFY_PENDING && !(*seq & 1)) {
            __atomic_store_n(seq, *seq + 1, __ATOMIC_SEQ_CST);
        }
    }
}

bool sc_verify_shard(const sc_seg *seg, const sc_shard *shard)
{
    uint64_t sum = 0, steps = 0;
    uint32_t p = shard->vhead;

    SC_ASSERT(sc_mutex_held_by_me(&shard->lock) && sc_layout_window_open(shard));
    while (p != SC_NONE) {
        const sc_page *d;
        if (p >= seg->npages || ++steps > seg->npages) {
            return false;
        }
        d = &seg->pages[p];
        if ((d->kind != SC_PAGE_SLAB && d->kind != SC_PAGE_LARGE) || d->owner != shard->index || d->run == 0
            || d->run > seg->npages - p) {
            return false;
        }
        sum += sc_verify_run(seg, p, d->run);
        p = d->head;
    }
    return sum == shard->body_sum;
}
