/*
 * sc_layout.c - creates the one shared mapping and lays it out.
 *
 * Layout, all at offsets from the base:
 *   0            sc_header (global lock, page pool, figures, liveness slots)
 *   heads_off    nshards x sc_shard_head (one cache line each, packed)
 *   shards_off   nshards x sc_shard, cache-line aligned
 *   pages_off    npages x sc_page descriptors
 *   data_off     npages pages of SC_PAGE_SIZE bytes (page-aligned)
 * By default the mapping is anonymous and MAP_SHARED, created once in the
 * parent before workers fork, so every worker sees it at the same address.
 * A named segment (shardcache.segment) is a file mapped by unrelated
 * processes, possibly at different addresses; sc_file.c opens, checks
 * and maps it and uses sc_layout_plan_make / sc_layout_format / sc_layout_bind from
 * here.
 *
 * Owns: the layout (offsets of everything, the layout id) and the one-time
 * formatting of a segment (with the keyed hash's secret, drawn at random:
 * sc_header.hash_key); mapping and unmapping an anonymous one; filling
 * the process-local handle (sc_seg, with the allocator's sc_alloc_ctx and
 * a copy of the secret).
 * Locks: none. Formatting happens before any other process can see the
 * segment; after that nothing here writes shared memory except
 * sc_layout_destroy giving back the thread's liveness slot (sc_live.c).
 * Death: a process that dies while formatting leaves only a private mapping
 * (anonymous) or a temporary file no process maps, never a half-made
 * segment at the configured path (named).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#ifdef __linux__
# include <sys/random.h>
#endif
#include <time.h>
#include <unistd.h>
#include "sc_layout.h"

static uint64_t sc_layout_compute(uint64_t size, uint32_t nshards, uint32_t *npages_out, sc_off *heads_off,
                          sc_off *shards_off, sc_off *pages_off, sc_off *data_off)
{
    uint64_t fixed, npages;

    *heads_off = SC_ALIGN_UP(sizeof(sc_header), SC_CACHELINE);
    *shards_off = SC_ALIGN_UP(*heads_off + (uint64_t)nshards * sizeof(sc_shard_head), SC_CACHELINE);
    *pages_off = SC_ALIGN_UP(*shards_off + (uint64_t)nshards * sizeof(sc_shard), SC_CACHELINE);
    fixed = *pages_off + SC_PAGE_SIZE; /* room for aligning the data area */
    if (size <= fixed) {
        *npages_out = 0;
        return 0;
    }
    npages = (size - fixed) / (SC_PAGE_SIZE + sizeof(sc_page));
    if (npages > UINT32_MAX - 1) {
        npages = UINT32_MAX - 1;
    }
    *data_off = SC_ALIGN_UP(*pages_off + npages * sizeof(sc_page), SC_PAGE_SIZE);
    while (npages > 0 && *data_off + (npages << SC_PAGE_SHIFT) > size) {
        npages--;
        *data_off = SC_ALIGN_UP(*pages_off + npages * sizeof(sc_page), SC_PAGE_SIZE);
    }
    *npages_out = (uint32_t)npages;
    return npages;
}

int sc_layout_plan_make(sc_layout_plan *plan, uint64_t size, uint32_t nshards, uint32_t entries_hint,
                     char *err, size_t errlen)
{
    uint64_t per_shard;
    uint32_t npages = 0;

    memset(plan, 0, sizeof(*plan));
    if (!sc_is_pow2(nshards) || nshards > 4096) {
        snprintf(err, errlen, "shardcache.shards must be a power of two between 1 and 4096");
        return -1;
    }
    if (size >= SC_MAX_SEGMENT) {
        snprintf(err, errlen, "apc.shm_size must be below 32G");
        return -1;
    }
    /* Fewer shards when the segment is too small to give each a few pages. */
    while (nshards > 1) {
        sc_layout_compute(size, nshards, &npages, &plan->heads_off, &plan->shards_off, &plan->pages_off,
                  &plan->data_off);
        if (npages >= (uint64_t)nshards * SC_MIN_PAGES_PER_SHARD) {
            break;
        }
        nshards >>= 1;
    }
    sc_layout_compute(size, nshards, &npages, &plan->heads_off, &plan->shards_off, &plan->pages_off, &plan->data_off);
    if (npages < SC_MIN_PAGES_PER_SHARD) {
        snprintf(err, errlen, "apc.shm_size is too small (at least 1M is needed)");
        return -1;
    }
    /* As APCu: refuse to start when the segment cannot even hold one table
     * slot per hinted entry (APCu's slot array stops growing near 2^20
     * entries, so larger hints are judged as 2^20; a slot costs 5 bytes here,
     * 8 in APCu, so what starts with APCu starts here). Otherwise the first
     * tables are made smaller when needed (initial_capacity) and grow. */
    {
        uint32_t hint = entries_hint > SC_HINT_JUDGED ? SC_HINT_JUDGED : entries_hint;
        uint64_t bytes = sc_table_bytes(hint);
        if (bytes > ((uint64_t)npages << SC_PAGE_SHIFT)) {
            snprintf(err, errlen, "Unable to allocate %llu bytes of shared memory for cache structures. "
                     "Either apc.shm_size is too small or apc.entries_hint too large", (unsigned long long)bytes);
            return SC_LAYOUT_HINT_TOO_LARGE;
        }
    }
    plan->size = size;
    plan->nshards = nshards;
    plan->npages = npages;
    per_shard = entries_hint / nshards;
    per_shard = per_shard + per_shard / 3;  /* room below the 3/4 load limit */
    if (per_shard < 16) {
        per_shard = 16;
    }
    /* The first tables may take at most 1/8 of the data area. */
    while (per_shard > 16 && sc_table_bytes((uint32_t)sc_next_pow2(per_shard)) * nshards
                                 > ((uint64_t)npages << SC_PAGE_SHIFT) / 8) {
        per_shard >>= 1;
    }
    if (per_shard > (UINT64_C(1) << 24)) {
        per_shard = UINT64_C(1) << 24;
    }
    plan->initial_capacity = (uint32_t)sc_next_pow2(per_shard);
    return 0;
}

bool sc_layout_holds_none(const sc_seg *seg)
{
    int tid = sc_lock_tid();
    uint32_t i;

    if (!sc_mutex_free_of(&seg->hdr->global_lock, tid) || !sc_mutex_free_of(&seg->hdr->pool.lock, tid)) {
        return false;
    }
    for (i = 0; i < seg->nshards; i++) {
        if (!sc_mutex_free_of(&seg->shards[i].lock, tid) || seg->heads[i].frozen == (uint32_t)tid) {
            return false;
        }
    }
    return true;
}

bool sc_layout_global_held(const sc_seg *seg)
{
    return sc_mutex_held_by_me(&seg->hdr->global_lock);
}

bool sc_layout_holds_every_shard(const sc_seg *seg, bool window)
{
    int tid = sc_lock_tid();
    uint32_t i;

    for (i = 0; i < seg->nshards; i++) {
        const sc_shard *shard = &seg->shards[i];
        if ((!sc_mutex_held_by(&shard->lock, tid) && sc_layout_head(shard)->frozen != (uint32_t)tid) || !shard->dirty
            || (window && !sc_layout_window_open(shard))) {
            return false;
        }
    }
    return true;
}

/* The hooks of sc_alloc_ctx and sc_seg (SC_ASSERT): the allocator and the
 * table code see no shard, so these find it. ac is always the one inside
 * an sc_seg (seg->ac). */
static const sc_seg *sc_layout_seg_of(const sc_alloc_ctx *ac)
{
    return (const sc_seg *)((const char *)ac - offsetof(sc_seg, ac));
}

static bool sc_layout_check_shard(const sc_alloc_ctx *ac, const sc_shard_alloc *sa)
{
    const sc_seg *seg = sc_layout_seg_of(ac);
    const sc_shard *shard = (const sc_shard *)((const char *)sa - offsetof(sc_shard, alloc));
    uintptr_t i = ((uintptr_t)shard - (uintptr_t)seg->shards) / sizeof(sc_shard);

    return i < seg->nshards && &seg->shards[i] == shard && sc_layout_shard_repair_held(shard);
}

static bool sc_layout_check_all(const sc_alloc_ctx *ac)
{
    const sc_seg *seg = sc_layout_seg_of(ac);

    return sc_layout_global_held(seg) && sc_layout_holds_every_shard(seg, false);
}

static bool sc_layout_check_table(const sc_seg *seg, const sc_table *table, bool window)
{
    const sc_shard_head *head = (const sc_shard_head *)((const char *)table - offsetof(sc_shard_head, table));
    uintptr_t i = ((uintptr_t)head - (uintptr_t)seg->heads) / sizeof(sc_shard_head);
    const sc_shard *shard;

    if (i >= seg->nshards || &seg->heads[i] != head) {
        return false;
    }
    shard = &seg->shards[i];
    return sc_layout_shard_repair_held(shard) && (!window || sc_layout_window_open(shard));
}

void sc_layout_bind(sc_seg *seg, void *base)
{
    sc_header *hdr = base;

    seg->base = base;
    seg->size = hdr->size;
    seg->hdr = hdr;
    seg->heads = (sc_shard_head *)((char *)base + hdr->heads_off);
    seg->shards = (sc_shard *)((char *)base + hdr->shards_off);
    seg->pages = (sc_page *)((char *)base + hdr->pages_off);
    seg->nshards = hdr->nshards;
    seg->npages = hdr->npages;
    memcpy(seg->hash_key, hdr->hash_key, sizeof(seg->hash_key));
    seg->ac.base = base;
    seg->ac.data_off = hdr->data_off;
    seg->ac.data = (char *)base + hdr->data_off;
    seg->ac.pages = seg->pages;
    seg->ac.pool = &hdr->pool;
    seg->ac.needs_reset = &hdr->needs_reset;
    seg->ac.npages = hdr->npages;
    seg->ac.nshards = hdr->nshards;
    seg->ac.check_shard = sc_layout_check_shard;
    seg->ac.check_all = sc_layout_check_all;
    seg->check_table = sc_layout_check_table;
}

/* The keyed hash's secret (sc_header.hash_key): the kernel's random bytes;
 * where none can be had (no getrandom, no /dev/urandom), a mix of the
 * clocks, the pid and an address, which is guessable but still differs
 * from segment to segment. */
static void sc_layout_draw_key(uint64_t *key, size_t len)
{
    size_t got = 0;
    struct timespec ts;
    uint64_t x;
    size_t i;

#ifdef __linux__
    while (got < len) {
        ssize_t n = getrandom((char *)key + got, len - got, 0);
        if (n <= 0) {
            if (n < 0 && errno == EINTR) {
                continue;
            }
            break;
        }
        got += (size_t)n;
    }
#endif
    if (got < len) {
        int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
        while (fd >= 0 && got < len) {
            ssize_t n = read(fd, (char *)key + got, len - got);
            if (n <= 0 && !(n < 0 && errno == EINTR)) {
                break;
            }
            got += n > 0 ? (size_t)n : 0;
        }
        if (fd >= 0) {
            close(fd);
        }
    }
    if (got == len) {
        return;
    }
    clock_gettime(CLOCK_MONOTONIC, &ts);
    x = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ ((uint64_t)getpid() << 40) ^ (uint64_t)(uintptr_t)key;
    clock_gettime(CLOCK_REALTIME, &ts);
    x ^= (uint64_t)ts.tv_nsec * UINT64_C(0x9e3779b97f4a7c15);
    for (i = 0; i < len / 8; i++) {
        x += UINT64_C(0x9e3779b97f4a7c15);
        key[i] ^= sc_hash_mix(x);
    }
}

int sc_layout_format(sc_seg *seg, void *base, const sc_layout_plan *plan, uint32_t req_shards,
                  uint32_t req_hint, const char *version)
{
    sc_header *hdr = base;
    uint32_t i;

    hdr->magic = SC_MAGIC;
    hdr->format = SC_FORMAT;
    hdr->header_bytes = (uint32_t)sizeof(sc_header);
    hdr->layout = sc_layout_id();
    if (version) {
        snprintf(hdr->version, sizeof(hdr->version), "%s", version);
    }
    hdr->req_size = plan->size;
    hdr->req_shards = req_shards;
    hdr->req_hint = req_hint;
    hdr->size = plan->size;
    hdr->nshards = plan->nshards;
    hdr->npages = plan->npages;
    hdr->heads_off = plan->heads_off;
    hdr->shards_off = plan->shards_off;
    hdr->pages_off = plan->pages_off;
    hdr->data_off = plan->data_off;
    hdr->start_time = (int64_t)time(NULL);
    hdr->initial_capacity = plan->initial_capacity;
    sc_layout_draw_key(hdr->hash_key, sizeof(hdr->hash_key));
    sc_layout_bind(seg, base);

    if (sc_mutex_init(&hdr->global_lock) != 0 || sc_live_init(&hdr->live) != 0) {
        return -1;
    }
    for (i = 0; i < plan->nshards; i++) {
        sc_shard *shard = &seg->shards[i];
        if (sc_mutex_init(&shard->lock) != 0) {
            return -1;
        }
        shard->index = i;
        shard->head_rel = (int64_t)((char *)&seg->heads[i] - (char *)shard);
        shard->live_rel = (int64_t)((char *)&hdr->live - (char *)shard);
        shard->vhead = SC_NONE;
        sc_alloc_init_shard(&shard->alloc);
    }
    sc_alloc_init_pool(&seg->ac);
    if (sc_mutex_init(&hdr->pool.lock) != 0) {
        return -1;
    }
    return 0;
}

int sc_layout_create(sc_seg *seg, uint64_t size, uint32_t nshards, uint32_t entries_hint,
                  char *err, size_t errlen)
{
    sc_layout_plan plan;
    void *base;

    int rc;

    memset(seg, 0, sizeof(*seg));
    seg->fd = -1;
    rc = sc_layout_plan_make(&plan, size, nshards, entries_hint, err, errlen);
    if (rc != 0) {
        return rc;
    }
    base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
        snprintf(err, errlen, "cannot map %llu bytes of shared memory", (unsigned long long)size);
        return -1;
    }
    if (sc_layout_format(seg, base, &plan, nshards, entries_hint, NULL) != 0) {
        snprintf(err, errlen, "cannot initialise process-shared locks");
        munmap(base, size);
        memset(seg, 0, sizeof(*seg));
        seg->fd = -1;
        return -1;
    }
    /* The file whose record locks hold fork covers (sc_epoch_cover.c);
     * without one, covers are pinned. */
    seg->cover_fd = memfd_create("shardcache-covers", MFD_CLOEXEC);
    return 0;
}

/* FNV-1a over the sizes and places of everything shared. */
static uint64_t sc_layout_mix_in(uint64_t h, uint64_t v)
{
    int i;

    for (i = 0; i < 8; i++) {
        h ^= (v >> (i * 8)) & 0xff;
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

uint64_t sc_layout_id(void)
{
    const union { uint32_t u; uint8_t b[4]; } order = {UINT32_C(0x01020304)};
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    const uint64_t parts[] = {
        sizeof(void *), sizeof(long), order.b[0], _Alignof(max_align_t),
        SC_PAGE_SHIFT, SC_NCLASSES, SC_MAX_SMALL, SC_NBINS, SC_CACHELINE, SC_SLOT_SHIFT,
        SC_RESERVATIONS, SC_RESERVATION_KEY, SC_PINS, SC_MIN_PAGES_PER_SHARD,
        sizeof(sc_mutex), sizeof(pthread_mutex_t),
        sizeof(sc_header), offsetof(sc_header, size), offsetof(sc_header, boots),
        offsetof(sc_header, nshards), offsetof(sc_header, npages), offsetof(sc_header, initial_capacity),
        offsetof(sc_header, heads_off), offsetof(sc_header, data_off), offsetof(sc_header, start_time),
        offsetof(sc_header, needs_reset), offsetof(sc_header, global_lock), offsetof(sc_header, pool),
        offsetof(sc_header, fair), sizeof(sc_fair), SC_FAIR_SLOTS, offsetof(sc_shard, fair),
        sizeof(sc_pool), offsetof(sc_pool, bin_head), offsetof(sc_pool, free_pages), offsetof(sc_pool, op),
        offsetof(sc_shard, pending_off), offsetof(sc_shard, pending_set),
        sizeof(sc_shard_head), offsetof(sc_shard_head, seq), offsetof(sc_shard_head, table),
        offsetof(sc_shard_head, pins_used),
        sizeof(sc_shard), offsetof(sc_shard, lock), offsetof(sc_shard, dirty), offsetof(sc_shard, head_rel),
        offsetof(sc_shard, live_rel), SC_ENTRY_LANE_MASK, SC_ENTRY_HOMED,
        offsetof(sc_shard, alloc), offsetof(sc_shard, stats), offsetof(sc_shard, reservations),
        offsetof(sc_shard, pins), offsetof(sc_shard_head, frozen),
        sizeof(sc_shard_alloc), offsetof(sc_shard_alloc, lanes), offsetof(sc_shard_alloc, spare_head),
        SC_ALLOC_LANES, sizeof(sc_alloc_lane), offsetof(sc_shard_alloc, lane_steals),
        offsetof(sc_shard_alloc, kept_pages),
        sizeof(sc_shard_stats), offsetof(sc_shard_stats, repairs), offsetof(sc_alloc_lane, used_bytes),
        offsetof(sc_shard_head, inserts),
        sizeof(sc_reservation), sizeof(sc_pin), offsetof(sc_pin, entry_rel), offsetof(sc_entry, ver),
        offsetof(sc_live_slot, counts), SC_LIVE_NCOUNTS, offsetof(sc_alloc_lane, gone), SC_TTL_GONE,
        offsetof(sc_live_table, slots),
        sizeof(sc_table), offsetof(sc_table, off), offsetof(sc_table, capacity),
        sizeof(sc_page), offsetof(sc_page, run), offsetof(sc_page, next),
        sizeof(sc_entry), offsetof(sc_entry, key_len), offsetof(sc_entry, scalar), offsetof(sc_entry, mem_size),
        offsetof(sc_entry, mtime_after), offsetof(sc_entry, stamp), sizeof(sc_live_slot), SC_LIVE_SLOTS,
        sizeof(sc_chunk), offsetof(sc_chunk, len), SC_MAX_CHUNKS, SC_ENTRY_CHAINED, SC_ENTRY_REFERENCED, SC_ENTRY_REVIVED,
        offsetof(sc_header, epochs), offsetof(sc_epoch_table, held), offsetof(sc_epoch_table, slots),
        offsetof(sc_epoch_table, inside),
        offsetof(sc_epoch_table, reset_open), offsetof(sc_epoch_table, cover_pins), SC_EPOCH_COVER_LOCK_BASE,
        SC_HELD_SETS, SC_HELD_TAG0,
        offsetof(sc_header, closed), offsetof(sc_header, sum), offsetof(sc_header, kernel_boot),
        offsetof(sc_shard, verify), offsetof(sc_shard, vhead), offsetof(sc_shard, body_sum), SC_VERIFY_PENDING,
        offsetof(sc_page, head),
        offsetof(sc_header, hash_key), sizeof(((sc_header *)0)->hash_key),
    };
    size_t i;

    for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
        h = sc_layout_mix_in(h, parts[i]);
    }
    return h;
}

void sc_layout_destroy(sc_seg *seg)
{
    if (seg->hdr) {
        /* The calling thread's liveness slot first: the kernel can mark a
         * dead owner's lock only while it is mapped. */
        sc_live_leave(&seg->hdr->live);
    }
    if (seg->base) {
        munmap(seg->base, seg->size);
    }
    if (seg->named && seg->fd >= 0) {
        close(seg->fd);
    }
    if (!seg->named && seg->base && seg->cover_fd >= 0) {
        close(seg->cover_fd);
    }
    memset(seg, 0, sizeof(*seg));
    seg->fd = -1;
}
