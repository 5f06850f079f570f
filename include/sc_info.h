/*
 * sc_info.h - read-only figures of the cache for the info functions
 * (apcu_cache_info, apcu_sma_info, shardcache_info): one shard's counters,
 * and a walk of the page pool (free runs, slabs by size class, large runs).
 * Everything is copied into process memory under the lock that protects it
 * and handed back after the lock is released. See src/sc_info.c.
 *
 * Owns: nothing shared (it only reads).
 * Locks: the shard lock in NO_REPAIR mode; the pool lock as a walker.
 * Death: nothing to repair.
 */
#ifndef SC_INFO_H
#define SC_INFO_H

#include "sc_cache.h"

/* One shard, copied under its lock. */
typedef struct sc_info_shard {
    uint64_t entries;       /* full table slots (expired entries not yet removed count) */
    uint64_t slots;         /* table capacity */
    uint64_t tombstones;
    uint64_t pages;         /* pages owned: slabs and large runs */
    uint64_t mem_used;      /* bytes handed out: entries and the table */
    uint64_t mem_entries;   /* bytes handed out to entries only */
    uint64_t mem_requested; /* bytes the entries need (mem_entries minus this: waste) */
    uint64_t objects;       /* allocations live: entries and the table */
    uint64_t inserts, updates, deletes, expired, evicted, nomem, repairs;
    uint64_t cleanups;      /* sweeps for expired entries when memory was short */
    uint64_t hits, misses;  /* sampled (see sc_info_hit_sample) */
    uint64_t lock_waits;    /* lock requests that found the lock busy */
    uint64_t optimistic_retries; /* lock-free reads that had to start over */
} sc_info_shard;

/* One size class, summed over every shard's slabs. */
typedef struct sc_info_class {
    uint32_t size;          /* object size in bytes */
    uint64_t slabs;
    uint64_t slab_pages;    /* pages in those slabs */
    uint64_t objects_used;
    uint64_t objects_total; /* objects those slabs can hold */
} sc_info_class;

/* A free run of the pool, in bytes from the segment base. */
typedef struct sc_info_run {
    uint64_t offset;
    uint64_t size;
} sc_info_run;

typedef struct sc_info_pool {
    bool walked;            /* false: the pool could not be walked (a crashed
                               holder left it for a full reset); only the
                               counters below the line are filled in */
    uint64_t free_runs;
    uint64_t largest_free_run;  /* bytes */
    uint64_t large_runs;        /* runs holding one large object */
    uint64_t large_pages;
    uint64_t spare_pages;       /* empty slabs kept by shards for reuse */
    uint64_t spare_runs;
    sc_info_class classes[SC_NCLASSES];
    sc_info_run *runs;          /* malloc'd (with_runs): nruns free runs and
                                   spares, by offset */
    uint64_t nruns;
    /* ---- */
    uint64_t total_pages;
    uint64_t free_pages;
} sc_info_pool;

/* Copies shard i's figures (its lock is taken for reading). */
void sc_info_shard_get(sc_cache *c, uint32_t shard, sc_info_shard *out);

/* Slots of every shard's table, a shard with no table yet counted with the
 * size its first table will have (read without locks: a statistic). */
uint64_t sc_info_nominal_slots(const sc_cache *c);

/* Slots of every shard's first table: the number of shards times the
 * first table's size, whatever the tables have grown to since (a figure no
 * store or delete moves). */
uint64_t sc_info_initial_slots(const sc_cache *c);

/* Stores and deletes made without a shard lock (sc_lockless.c) since the
 * last clear, all processes: counted per thread (sc_live_slot.counts), so
 * they are in no shard's figures; add them to the totals. what:
 * SC_LIVE_UPDATES (stores over a value), SC_LIVE_INSERTS (stores over a
 * key deleted without the lock), SC_LIVE_DELETES. */
uint64_t sc_info_lockless(const sc_cache *c, unsigned what);

/* Walks the page pool under the pool lock. with_runs: also list the free
 * runs (malloc'd; release with sc_info_pool_free). Returns false only when
 * memory for the run list could not be had. */
bool sc_info_pool_get(sc_cache *c, bool with_runs, sc_info_pool *out);
void sc_info_pool_free(sc_info_pool *p);

/* How many hits (and misses) one recorded hit (miss) in the shard figures
 * stands for, and how many of the calling thread's hits and misses are not in the
 * shard figures yet. */
uint32_t sc_info_hit_sample(void);
void sc_info_local_unrecorded(const sc_cache *c, uint64_t *hits, uint64_t *misses);
/* How many times the calling thread found every liveness slot held
 * (sc_live_failed_scans). */
uint64_t sc_info_live_failed_scans(void);

#endif
