/*
 * sc_segment.c - creates the one shared mapping and lays it out.
 *
 * Layout, all at offsets from the base:
 *   0            sc_header (global lock, page pool, figures, liveness slots)
 *   heads_off    nshards x sc_shard_head (one cache line each, packed)
 *   shards_off   nshards x sc_shard, cache-line aligned
 *   pages_off    npages x sc_page descriptors
 *   data_off     npages pages of SC_PAGE_SIZE bytes (page-aligned)
 * The mapping is anonymous and MAP_SHARED, created once in the parent before
 * workers fork, so every worker sees it at the same address. Nothing here is
 * written after creation except through the locks described in sc_lock.h.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "sc_segment.h"

static uint64_t sc_layout(uint64_t size, uint32_t nshards, uint32_t *npages_out, sc_off *heads_off,
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

int sc_seg_create(sc_seg *seg, uint64_t size, uint32_t nshards, uint32_t entries_hint,
                  char *err, size_t errlen)
{
    sc_off heads_off, shards_off, pages_off, data_off = 0;
    uint32_t npages = 0, i;
    sc_header *hdr;
    void *base;
    uint64_t per_shard;

    memset(seg, 0, sizeof(*seg));
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
        sc_layout(size, nshards, &npages, &heads_off, &shards_off, &pages_off, &data_off);
        if (npages >= (uint64_t)nshards * SC_MIN_PAGES_PER_SHARD) {
            break;
        }
        nshards >>= 1;
    }
    sc_layout(size, nshards, &npages, &heads_off, &shards_off, &pages_off, &data_off);
    if (npages < SC_MIN_PAGES_PER_SHARD) {
        snprintf(err, errlen, "apc.shm_size is too small (at least 1M is needed)");
        return -1;
    }

    base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) {
        snprintf(err, errlen, "cannot map %llu bytes of shared memory", (unsigned long long)size);
        return -1;
    }

    seg->base = base;
    seg->size = size;
    seg->hdr = hdr = base;
    seg->heads = (sc_shard_head *)((char *)base + heads_off);
    seg->shards = (sc_shard *)((char *)base + shards_off);
    seg->pages = (sc_page *)((char *)base + pages_off);
    seg->nshards = nshards;
    seg->npages = npages;

    hdr->magic = SC_MAGIC;
    hdr->size = size;
    hdr->nshards = nshards;
    hdr->npages = npages;
    hdr->heads_off = heads_off;
    hdr->shards_off = shards_off;
    hdr->pages_off = pages_off;
    hdr->data_off = data_off;
    hdr->start_time = (int64_t)time(NULL);
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
    hdr->initial_capacity = (uint32_t)sc_next_pow2(per_shard);

    if (sc_mutex_init(&hdr->global_lock) != 0 || sc_live_init(&hdr->live) != 0) {
        goto lock_failed;
    }
    for (i = 0; i < nshards; i++) {
        sc_shard *shard = &seg->shards[i];
        if (sc_mutex_init(&shard->lock) != 0) {
            goto lock_failed;
        }
        shard->index = i;
        shard->head_rel = (int64_t)((char *)&seg->heads[i] - (char *)shard);
        shard->live_rel = (int64_t)((char *)&hdr->live - (char *)shard);
        sc_alloc_init_shard(&shard->alloc);
    }
    sc_alloc_init_pool(seg);
    if (sc_mutex_init(&hdr->pool.lock) != 0) {
        goto lock_failed;
    }
    return 0;

lock_failed:
    snprintf(err, errlen, "cannot initialise process-shared locks");
    sc_seg_destroy(seg);
    return -1;
}

void sc_seg_destroy(sc_seg *seg)
{
    if (seg->hdr) {
        /* The calling thread's liveness slot first: the kernel can mark a
         * dead owner's lock only while it is mapped. */
        sc_live_leave(&seg->hdr->live);
    }
    if (seg->base) {
        munmap(seg->base, seg->size);
    }
    memset(seg, 0, sizeof(*seg));
}
