/*
 * php/info.c - apcu_cache_info, apcu_key_info, apcu_sma_info (and
 * their shardcache_* names) and shardcache_info.
 *
 * Everything is read through the core's copy-out interfaces - snapshots
 * (sc_snapshot.c) for entries, sc_info.c for shard, pool and allocator
 * figures - so every lock is released before a PHP array is built.
 *
 * What the APCu figures mean here:
 *  - num_hits / num_misses: the totals the shards record, which are sampled
 *    (each process records every 32nd hit or miss as 32), plus this
 *    process's hits and misses not recorded yet. Per-entry num_hits (and
 *    apcu_key_info's hits) are the sampled counts alone: multiples of 32.
 *  - num_inserts: stores that inserted or replaced an entry (those that
 *    rewrote a scalar without the shard lock are counted per thread and
 *    appear in the totals only, not in shardcache_info's per-shard rows);
 *    num_entries
 *    counts entries still in the tables (expired ones not removed yet
 *    included); cleanups (APCu 5.1.25+): passes that removed expired
 *    entries from a shard because a store found no room, summed over the
 *    shards (APCu counts its cache-wide passes); defragmentations: always 0
 *    (slabs per size class and page runs merged when freed: nothing is ever
 *    moved); expunges: whole-cache evictions; mem_size: bytes held by
 *    entries. num_slots: table slots of all shards; slot_distribution:
 *    shard index => live entries in that shard (each table slot holds at
 *    most one entry, so a shard is what APCu's slot chain is).
 *  - cache_list and apcu_key_info include entries past their TTL that are
 *    still in the tables, as APCu's do; APCUIterator skips them.
 *  - ref_count, deletion_time, refs: always 0; deleted_list: always empty.
 *  - apcu_sma_info: one segment; seg_size is the page area, avail_mem the
 *    bytes in free page runs, block_lists[0] those runs by offset (bytes
 *    from the start of the segment).
 *  - Times are Unix seconds (APCu 5.1.22 reports a monotonic clock here).
 * Unlike APCu, apcu_clear_cache does not reset these counters: they count
 * from the creation of the segment (start_time).
 *
 * What a tenant reads (php_sc_owner_tenant: isolation on, not root): only
 * figures of its own entries, of its own process, or segment-wide figures
 * that no other user's store, fetch or delete moves, so that no figure
 * tells it what another user does:
 *  - apcu_cache_info: the cache list, num_entries, mem_size, num_hits
 *    (its entries' hits), num_inserts (its entry count), num_misses 0,
 *    slot_distribution: its own entries (preloaded ones show 0 hits:
 *    php/owner.c); cleanups and expunges 0; num_slots the shards' first
 *    tables (sc_info_initial_slots), whatever the tables have grown to.
 *  - apcu_sma_info: avail_mem in steps of 1/PHP_SC_INFO_FREE_STEPS of the
 *    data area (php_sc_info_free_seen), block_lists one block of that size
 *    at offset 0.
 *  - shardcache_info: php_sc_info_tenant; no per_shard rows, classes,
 *    large runs or segment counters.
 *  - apcu_key_info: its own entries only (php/owner.c).
 * Root (isolation on) and processes with isolation off read everything.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php.h"
#include "info.h"
#include "php_shardcache.h"
#include "owner.h"
#include "zc.h"
#include "object.h"
#include "sc_cache.h"
#include "sc_info.h"

/* ---- helpers ---- */

/* A tenant reads free memory rounded down to a step of this fraction of
 * the data area (whole pages): another user's stores and deletes move what
 * it reads only when they cross a step. */
#define PHP_SC_INFO_FREE_STEPS 64

static uint64_t php_sc_info_free_seen(uint64_t free_bytes, uint64_t total_bytes)
{
    uint64_t step = (total_bytes / PHP_SC_INFO_FREE_STEPS) & ~(uint64_t)(SC_PAGE_SIZE - 1);

    if (!php_sc_owner_tenant()) {
        return free_bytes;
    }
    if (step == 0) {
        step = SC_PAGE_SIZE;
    }
    return free_bytes - free_bytes % step;
}

/* As in APCu, the cache list and apcu_key_info show entries whose TTL has
 * passed but which are still in the table (APCUIterator skips them): a
 * snapshot "at" the earliest time sees every entry as live. */
#define PHP_SC_PHP_ANY_TIME SC_ANY_TIME

/* Bytes handed out to entries beyond what they need (size-class rounding,
 * page rounding of large values). */
static uint64_t php_sc_wasted(const sc_info_shard *s)
{
    return s->mem_entries > s->mem_requested ? s->mem_entries - s->mem_requested : 0;
}

typedef struct php_sc_totals {
    sc_info_shard sum;
    uint64_t lockless_updates;   /* in sum.updates too */
    uint64_t lockless_inserts;   /* in sum.inserts too */
    uint64_t lockless_deletes;   /* in sum.deletes too */
    uint32_t nshards;
} php_sc_totals;

static void php_sc_sum_shards(php_sc_totals *t, zval *per_shard)
{
    uint32_t i;
    sc_info_shard s;

    memset(t, 0, sizeof(*t));
    t->nshards = sc_cache_nshards(&php_sc_shared_cache);
    for (i = 0; i < t->nshards; i++) {
        sc_info_shard_get(&php_sc_shared_cache, i, &s);
        t->sum.entries += s.entries;
        t->sum.slots += s.slots;
        t->sum.tombstones += s.tombstones;
        t->sum.pages += s.pages;
        t->sum.mem_used += s.mem_used;
        t->sum.mem_entries += s.mem_entries;
        t->sum.mem_requested += s.mem_requested;
        t->sum.objects += s.objects;
        t->sum.inserts += s.inserts;
        t->sum.updates += s.updates;
        t->sum.deletes += s.deletes;
        t->sum.expired += s.expired;
        t->sum.evicted += s.evicted;
        t->sum.nomem += s.nomem;
        t->sum.repairs += s.repairs;
        t->sum.cleanups += s.cleanups;
        t->sum.lock_waits += s.lock_waits;
        t->sum.optimistic_retries += s.optimistic_retries;
        t->sum.hits += s.hits;
        t->sum.misses += s.misses;
        if (per_shard) {
            zval row;
            array_init_size(&row, 14);
            add_assoc_long(&row, "entries", (zend_long)s.entries);
            add_assoc_long(&row, "slots", (zend_long)s.slots);
            add_assoc_long(&row, "hits", (zend_long)s.hits);
            add_assoc_long(&row, "misses", (zend_long)s.misses);
            add_assoc_long(&row, "inserts", (zend_long)s.inserts);
            add_assoc_long(&row, "evicted", (zend_long)s.evicted);
            add_assoc_long(&row, "pages", (zend_long)s.pages);
            add_assoc_long(&row, "mem_used", (zend_long)s.mem_used);
            add_assoc_long(&row, "updates", (zend_long)s.updates);
            add_assoc_long(&row, "deletes", (zend_long)s.deletes);
            add_assoc_long(&row, "expired", (zend_long)s.expired);
            add_assoc_long(&row, "nomem", (zend_long)s.nomem);
            add_assoc_long(&row, "tombstones", (zend_long)s.tombstones);
            add_assoc_long(&row, "repairs", (zend_long)s.repairs);
            add_assoc_long(&row, "lock_waits", (zend_long)s.lock_waits);
            add_assoc_long(&row, "optimistic_retries", (zend_long)s.optimistic_retries);
            add_assoc_long(&row, "mem_wasted", (zend_long)php_sc_wasted(&s));
            add_next_index_zval(per_shard, &row);
        }
    }
    /* Stores and deletes made without a shard lock are counted per thread,
     * not per shard (sc_lockless.c): in the totals, not in the per-shard
     * rows. */
    t->lockless_updates = sc_info_lockless(&php_sc_shared_cache, SC_LIVE_UPDATES);
    t->lockless_inserts = sc_info_lockless(&php_sc_shared_cache, SC_LIVE_INSERTS);
    t->lockless_deletes = sc_info_lockless(&php_sc_shared_cache, SC_LIVE_DELETES);
    t->sum.updates += t->lockless_updates;
    t->sum.inserts += t->lockless_inserts;
    t->sum.deletes += t->lockless_deletes;
}

/* ---- apcu_cache_info ---- */

/* What the caller sees of the entries (php/owner.c): its own and the
 * preloaded ones not hidden by its own. */
typedef struct php_sc_view {
    uint64_t all;           /* entries walked */
    uint64_t entries;       /* those the caller sees */
    uint64_t mem;           /* their mem_size */
    uint64_t hits;          /* their recorded hits */
} php_sc_view;

/* Walks every shard: counts what the caller sees into *v and, when
 * cache_list is not NULL, lists it (and its shards in slot_distribution). */
static void php_sc_cache_list(php_sc_view *v, zval *cache_list, zval *slot_distribution)
{
    uint32_t n = sc_cache_nshards(&php_sc_shared_cache), i;
    sc_entry_meta m;

    memset(v, 0, sizeof(*v));
    for (i = 0; i < n; i++) {
        sc_snapshot *snap = sc_snapshot_shard(&php_sc_shared_cache, i, PHP_SC_PHP_ANY_TIME, false);
        zend_long in_shard = 0;
        while (sc_snapshot_next(snap, &m)) {
            zval row;
            v->all++;
            if (!php_sc_owner_listed(&m, PHP_SC_PHP_ANY_TIME)) {
                continue;
            }
            v->entries++;
            v->mem += m.mem_size;
            v->hits += m.nhits;
            in_shard++;
            if (!cache_list) {
                continue;
            }
            array_init_size(&row, 9);
            add_assoc_stringl(&row, "info", m.key, m.key_len);
            add_assoc_long(&row, "ttl", (zend_long)m.ttl);
            add_assoc_double(&row, "num_hits", (double)m.nhits);
            add_assoc_long(&row, "mtime", (zend_long)m.mtime);
            add_assoc_long(&row, "creation_time", (zend_long)m.ctime);
            add_assoc_long(&row, "deletion_time", 0);
            add_assoc_long(&row, "access_time", (zend_long)m.atime);
            add_assoc_long(&row, "ref_count", 0);
            add_assoc_long(&row, "mem_size", (zend_long)m.mem_size);
            add_next_index_zval(cache_list, &row);
        }
        sc_snapshot_free(snap);
        if (in_shard && slot_distribution) {
            add_index_long(slot_distribution, i, in_shard);
        }
    }
}

void php_sc_info_brief_get(php_sc_info_brief *b)
{
    sc_cache_figures f;
    uint64_t lh, lm;
    php_sc_view v;

    memset(b, 0, sizeof(*b));
    sc_cache_figures_get(&php_sc_shared_cache, &f);
    b->nshards = f.nshards;
    b->mem_total = f.mem_total;
    if (php_sc_owner_tenant()) {
        sc_info_pool pool;
        php_sc_cache_list(&v, NULL, NULL);
        sc_info_pool_get(&php_sc_shared_cache, false, &pool);
        b->mem_used = v.mem;
        b->mem_free = php_sc_info_free_seen((pool.free_pages + pool.spare_pages) << SC_PAGE_SHIFT,
                                            pool.total_pages << SC_PAGE_SHIFT);
        sc_info_pool_free(&pool);
        b->entries = v.entries;
        b->hits = v.hits;
        return;
    }
    /* Hits and misses are recorded one in sc_info_hit_sample() per thread;
     * add this thread's not yet recorded ones. */
    sc_info_local_unrecorded(&php_sc_shared_cache, &lh, &lm);
    b->segment = true;
    b->mem_used = f.mem_used;
    b->mem_free = f.mem_free;
    b->entries = f.entries;
    if (!SCG(owner_all)) {
        php_sc_cache_list(&v, NULL, NULL);
        if (v.entries != v.all) {
            b->entries = v.entries;
        }
    }
    b->hits = f.hits + lh;
    b->misses = f.misses + lm;
    b->inserts = f.inserts;
    b->evicted = f.evicted;
}

ZEND_FUNCTION(shardcache_cache_info)
{
    bool limited = false, tenant;
    sc_cache_figures f;
    php_sc_totals t;
    php_sc_view v;
    uint64_t local_hits, local_misses;
    zval cache_list, slots;

    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_BOOL(limited)
    ZEND_PARSE_PARAMETERS_END();

    if (!php_sc_active) {
        php_error_docref(NULL, E_WARNING,
                         "No APC info available.  Perhaps APC is not enabled? Check apc.enabled in your ini file");
        RETURN_FALSE;
    }
    tenant = php_sc_owner_tenant();
    sc_cache_figures_get(&php_sc_shared_cache, &f);
    memset(&t, 0, sizeof(t));
    if (!tenant) {
        php_sc_sum_shards(&t, NULL);
    } else {
        /* Figures of the whole segment that other users' activity moves. */
        f.expunges = 0;
    }
    sc_info_local_unrecorded(&php_sc_shared_cache, &local_hits, &local_misses);
    if (!limited) {
        array_init(&cache_list);
        array_init(&slots);
    }
    php_sc_cache_list(&v, limited ? NULL : &cache_list, limited ? NULL : &slots);

    array_init(return_value);
    add_assoc_long(return_value, "num_slots", (zend_long)(tenant ? sc_info_initial_slots(&php_sc_shared_cache)
                                                                 : sc_info_nominal_slots(&php_sc_shared_cache)));
    add_assoc_long(return_value, "ttl", (zend_long)php_sc_shared_cache.idle_ttl);
    if (!tenant && v.entries == v.all) {
        /* The caller sees every entry: the cache's own figures. */
        add_assoc_double(return_value, "num_hits", (double)(t.sum.hits + local_hits));
        add_assoc_double(return_value, "num_misses", (double)(t.sum.misses + local_misses));
        add_assoc_double(return_value, "num_inserts", (double)(t.sum.inserts + t.sum.updates));
        add_assoc_long(return_value, "num_entries", (zend_long)t.sum.entries);
    } else {
        /* A tenant, or other users' entries exist: only what the caller's
         * own entries record (php/owner.c). */
        add_assoc_double(return_value, "num_hits", (double)v.hits);
        add_assoc_double(return_value, "num_misses", 0);
        add_assoc_double(return_value, "num_inserts", (double)v.entries);
        add_assoc_long(return_value, "num_entries", (zend_long)v.entries);
    }
    add_assoc_long(return_value, "cleanups", (zend_long)t.sum.cleanups);
    add_assoc_long(return_value, "defragmentations", 0);
    add_assoc_long(return_value, "expunges", (zend_long)f.expunges);
    add_assoc_long(return_value, "start_time", (zend_long)f.start_time);
    add_assoc_double(return_value, "mem_size", (double)(!tenant && v.entries == v.all ? t.sum.mem_entries : v.mem));
    add_assoc_string(return_value, "memory_type", "mmap");
    if (!limited) {
        zval deleted_list;
        array_init(&deleted_list);
        add_assoc_zval(return_value, "cache_list", &cache_list);
        add_assoc_zval(return_value, "deleted_list", &deleted_list);
        add_assoc_zval(return_value, "slot_distribution", &slots);
    }
}

/* ---- apcu_key_info ---- */

ZEND_FUNCTION(shardcache_key_info)
{
    zend_string *key;
    sc_snapshot *snap;
    sc_entry_meta m;

    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_STR(key)
    ZEND_PARSE_PARAMETERS_END();

    snap = php_sc_owner_snapshot_key(key, PHP_SC_PHP_ANY_TIME, false, &m);
    if (!snap) {
        RETURN_NULL();
    }
    array_init_size(return_value, 7);
    add_assoc_long(return_value, "hits", (zend_long)m.nhits);
    add_assoc_long(return_value, "access_time", (zend_long)m.atime);
    add_assoc_long(return_value, "mtime", (zend_long)m.mtime);
    add_assoc_long(return_value, "creation_time", (zend_long)m.ctime);
    add_assoc_long(return_value, "deletion_time", 0);
    add_assoc_long(return_value, "ttl", (zend_long)m.ttl);
    add_assoc_long(return_value, "refs", 0);
    sc_snapshot_free(snap);
}

/* ---- apcu_sma_info ---- */

ZEND_FUNCTION(shardcache_sma_info)
{
    bool limited = false, tenant;
    sc_info_pool pool;
    uint64_t total, avail;

    ZEND_PARSE_PARAMETERS_START(0, 1)
        Z_PARAM_OPTIONAL
        Z_PARAM_BOOL(limited)
    ZEND_PARSE_PARAMETERS_END();

    if (!php_sc_active) {
        php_error_docref(NULL, E_WARNING, "No APC SMA info available.  Perhaps APC is disabled via apc.enabled?");
        RETURN_FALSE;
    }
    tenant = php_sc_owner_tenant();
    if (!sc_info_pool_get(&php_sc_shared_cache, !limited && !tenant, &pool)) {
        zend_throw_error(NULL, "Out of memory while listing the free blocks");
        RETURN_THROWS();
    }
    total = pool.total_pages << SC_PAGE_SHIFT;
    /* Free pages and the shards' spare slabs: both take stores without
     * evicting anything; block_lists lists both. A tenant reads them
     * rounded (php_sc_info_free_seen), as one block at offset 0. */
    avail = php_sc_info_free_seen((pool.free_pages + pool.spare_pages) << SC_PAGE_SHIFT, total);
    array_init(return_value);
    add_assoc_long(return_value, "num_seg", 1);
    add_assoc_double(return_value, "seg_size", (double)total);
    add_assoc_double(return_value, "avail_mem", (double)avail);
    if (!limited) {
        zval lists, blocks;
        uint64_t i;
        array_init(&lists);
        array_init_size(&blocks, (uint32_t)(pool.nruns < 1024 ? pool.nruns : 1024));
        for (i = 0; i < pool.nruns; i++) {
            zval b;
            array_init_size(&b, 2);
            add_assoc_long(&b, "size", (zend_long)pool.runs[i].size);
            add_assoc_long(&b, "offset", (zend_long)pool.runs[i].offset);
            add_next_index_zval(&blocks, &b);
        }
        if (tenant && avail) {
            zval b;
            array_init_size(&b, 2);
            add_assoc_long(&b, "size", (zend_long)avail);
            add_assoc_long(&b, "offset", 0);
            add_next_index_zval(&blocks, &b);
        }
        add_next_index_zval(&lists, &blocks);
        add_assoc_zval(return_value, "block_lists", &lists);
    }
    sc_info_pool_free(&pool);
}

/* ---- shardcache_info ---- */

static void php_sc_info_local(zval *dst)
{
    zval local;

    array_init_size(&local, 5);
    add_assoc_long(&local, "hits", (zend_long)sc_local.hits);
    add_assoc_long(&local, "misses", (zend_long)sc_local.misses);
    add_assoc_long(&local, "optimistic_retries", (zend_long)sc_local.optimistic_retries);
    add_assoc_long(&local, "locked_reads", (zend_long)sc_local.locked_reads);
    add_assoc_long(&local, "liveness_full_scans", (zend_long)sc_info_live_failed_scans());
    add_assoc_zval(dst, "local", &local);
}

/* shardcache_info's isolation figures (php/owner.c): isolation, owner_uid
 * and users (uid => entries, mem_size; "preload" for the preloaded
 * entries): every user for root with isolation on, else the caller's own
 * and the preloaded ones. per_shard: the segment's figures (not a
 * tenant's: NULL); when other users' entries exist and the caller may not
 * count them, entries and mem_entries, and each per_shard row's entries,
 * count only what the caller sees. */
static void php_sc_info_users(zval *dst, zval *per_shard)
{
    uint32_t n = php_sc_active ? sc_cache_nshards(&php_sc_shared_cache) : 0, i;
    uint64_t all = 0, seen = 0, mem = 0;
    zend_long *in_shard = n ? ecalloc(n, sizeof(zend_long)) : NULL;
    sc_entry_meta m;
    zval users;

    array_init(&users);
    for (i = 0; i < n; i++) {
        sc_snapshot *snap = sc_snapshot_shard(&php_sc_shared_cache, i, SC_ANY_TIME, false);
        while (sc_snapshot_next(snap, &m)) {
            uint32_t o;
            bool visible;
            zval *row, *f;
            all++;
            if (!php_sc_owner_of(&m, &o)) {
                continue;
            }
            visible = o == SCG(owner_id) || o == PHP_SC_OWNER_PUBLIC;
            if (visible) {
                seen++;
                mem += m.mem_size;
                in_shard[i]++;
            } else if (!SCG(owner_all)) {
                continue;
            }
            row = o == PHP_SC_OWNER_PUBLIC ? zend_hash_str_find(Z_ARRVAL(users), "preload", sizeof("preload") - 1)
                                           : zend_hash_index_find(Z_ARRVAL(users), (zend_ulong)o);
            if (!row) {
                zval r;
                array_init_size(&r, 2);
                add_assoc_long(&r, "entries", 0);
                add_assoc_long(&r, "mem_size", 0);
                row = o == PHP_SC_OWNER_PUBLIC ? zend_hash_str_update(Z_ARRVAL(users), "preload", sizeof("preload") - 1, &r)
                                               : zend_hash_index_update(Z_ARRVAL(users), (zend_ulong)o, &r);
            }
            f = zend_hash_str_find(Z_ARRVAL_P(row), "entries", sizeof("entries") - 1);
            Z_LVAL_P(f)++;
            f = zend_hash_str_find(Z_ARRVAL_P(row), "mem_size", sizeof("mem_size") - 1);
            Z_LVAL_P(f) += (zend_long)m.mem_size;
        }
        sc_snapshot_free(snap);
    }
    if (per_shard && !SCG(owner_all) && seen != all) {
        /* Other users' entries exist: count only the caller's. */
        add_assoc_long(dst, "entries", (zend_long)seen);
        add_assoc_long(dst, "mem_entries", (zend_long)mem);
        for (i = 0; i < n; i++) {
            zval *row = zend_hash_index_find(Z_ARRVAL_P(per_shard), i);
            if (row) {
                add_assoc_long(row, "entries", in_shard[i]);
            }
        }
    }
    if (in_shard) {
        efree(in_shard);
    }
    add_assoc_string(dst, "isolation", SCG(isolation) ? "user" : "off");
    add_assoc_long(dst, "owner_uid", (zend_long)SCG(owner_uid));
    add_assoc_zval(dst, "users", &users);
}

/* shardcache_info for a tenant (php_sc_owner_tenant): its own entries
 * (entries, mem_used and mem_entries their bytes, hits their sampled
 * hits), free memory in steps (php_sc_info_free_seen), its process's
 * figures, and segment figures that no other user's store, fetch or delete
 * moves (size, shards, clears, resets, start time). No per-shard rows,
 * size classes, large runs or segment counters. */
static void php_sc_info_tenant(zval *rv)
{
    sc_cache_figures f;
    sc_info_pool pool;
    php_sc_view v;

    memset(&f, 0, sizeof(f));
    memset(&pool, 0, sizeof(pool));
    memset(&v, 0, sizeof(v));
    if (php_sc_active) {
        sc_cache_figures_get(&php_sc_shared_cache, &f);
        sc_info_pool_get(&php_sc_shared_cache, false, &pool);
        php_sc_cache_list(&v, NULL, NULL);
    }
    array_init(rv);
    add_assoc_bool(rv, "enabled", php_sc_active);
    add_assoc_string(rv, "segment_refused", php_sc_seg_refused);
    add_assoc_string(rv, "view", "user");
    add_assoc_long(rv, "shards", (zend_long)f.nshards);
    add_assoc_long(rv, "entries", (zend_long)v.entries);
    add_assoc_long(rv, "mem_total", (zend_long)(pool.total_pages << SC_PAGE_SHIFT));
    add_assoc_long(rv, "mem_used", (zend_long)v.mem);
    add_assoc_long(rv, "mem_entries", (zend_long)v.mem);
    add_assoc_long(rv, "mem_free", (zend_long)php_sc_info_free_seen((pool.free_pages + pool.spare_pages) << SC_PAGE_SHIFT,
                                                                     pool.total_pages << SC_PAGE_SHIFT));
    add_assoc_long(rv, "hits", (zend_long)v.hits);
    add_assoc_long(rv, "hit_sample", (zend_long)sc_info_hit_sample());
    add_assoc_long(rv, "clears", (zend_long)f.clears);
    add_assoc_long(rv, "resets", (zend_long)f.resets);
    add_assoc_long(rv, "start_time", (zend_long)f.start_time);
    php_sc_info_local(rv);
    php_sc_zc_info(rv);
    php_sc_obj_info(rv);
    php_sc_info_users(rv, NULL);
    sc_info_pool_free(&pool);
}

ZEND_FUNCTION(shardcache_info)
{
    sc_cache_figures f;
    php_sc_totals t;
    sc_info_pool pool;
    zval per_shard, classes, large;
    uint32_t i;

    ZEND_PARSE_PARAMETERS_NONE();

    if (php_sc_owner_tenant()) {
        php_sc_info_tenant(return_value);
        return;
    }

    memset(&f, 0, sizeof(f));
    memset(&t, 0, sizeof(t));
    memset(&pool, 0, sizeof(pool));
    array_init(&per_shard);
    array_init(&classes);
    if (php_sc_active) {
        sc_cache_figures_get(&php_sc_shared_cache, &f);
        php_sc_sum_shards(&t, &per_shard);
        sc_info_pool_get(&php_sc_shared_cache, false, &pool);
    }

    array_init(return_value);
    add_assoc_bool(return_value, "enabled", php_sc_active);
    add_assoc_string(return_value, "segment_refused", php_sc_seg_refused);
    add_assoc_string(return_value, "view", "segment");
    add_assoc_long(return_value, "shards", (zend_long)t.nshards);
    add_assoc_long(return_value, "slots", (zend_long)t.sum.slots);
    add_assoc_long(return_value, "entries", (zend_long)t.sum.entries);
    add_assoc_long(return_value, "mem_total", (zend_long)(pool.total_pages << SC_PAGE_SHIFT));
    add_assoc_long(return_value, "mem_used", (zend_long)t.sum.mem_used);
    add_assoc_long(return_value, "mem_entries", (zend_long)t.sum.mem_entries);
    add_assoc_long(return_value, "mem_wasted", (zend_long)php_sc_wasted(&t.sum));
    add_assoc_long(return_value, "mem_free", (zend_long)(pool.free_pages << SC_PAGE_SHIFT));
    add_assoc_long(return_value, "largest_free_run", (zend_long)pool.largest_free_run);
    add_assoc_long(return_value, "free_runs", (zend_long)pool.free_runs);
    add_assoc_long(return_value, "mem_spare", (zend_long)(pool.spare_pages << SC_PAGE_SHIFT));
    add_assoc_long(return_value, "spare_runs", (zend_long)pool.spare_runs);
    add_assoc_long(return_value, "pool_lock_acquisitions", (zend_long)f.pool_locks);
    add_assoc_long(return_value, "global_lock_acquisitions", (zend_long)f.global_locks);
    add_assoc_long(return_value, "slab_refills", (zend_long)f.slab_refills);
    add_assoc_long(return_value, "slab_returns", (zend_long)f.slab_returns);
    add_assoc_long(return_value, "spare_reuses", (zend_long)f.spare_reuses);
    add_assoc_long(return_value, "lane_steals", (zend_long)f.lane_steals);
    add_assoc_long(return_value, "expunges", (zend_long)f.expunges);
    add_assoc_long(return_value, "evicted", (zend_long)t.sum.evicted);
    add_assoc_long(return_value, "expired", (zend_long)t.sum.expired);
    add_assoc_long(return_value, "nomem", (zend_long)t.sum.nomem);
    add_assoc_long(return_value, "inserts", (zend_long)t.sum.inserts);
    add_assoc_long(return_value, "updates", (zend_long)t.sum.updates);
    add_assoc_long(return_value, "deletes", (zend_long)t.sum.deletes);
    add_assoc_long(return_value, "lockless_updates", (zend_long)t.lockless_updates);
    add_assoc_long(return_value, "lockless_inserts", (zend_long)t.lockless_inserts);
    add_assoc_long(return_value, "lockless_deletes", (zend_long)t.lockless_deletes);
    add_assoc_long(return_value, "hits", (zend_long)t.sum.hits);
    add_assoc_long(return_value, "misses", (zend_long)t.sum.misses);
    add_assoc_long(return_value, "hit_sample", (zend_long)sc_info_hit_sample());
    add_assoc_long(return_value, "clears", (zend_long)f.clears);
    add_assoc_long(return_value, "repairs", (zend_long)t.sum.repairs);
    add_assoc_long(return_value, "lock_waits", (zend_long)t.sum.lock_waits);
    add_assoc_long(return_value, "optimistic_retries", (zend_long)t.sum.optimistic_retries);
    add_assoc_long(return_value, "resets", (zend_long)f.resets);
    add_assoc_long(return_value, "start_time", (zend_long)f.start_time);
    php_sc_info_local(return_value);
    php_sc_zc_info(return_value);
    php_sc_obj_info(return_value);
    php_sc_info_users(return_value, &per_shard);
    add_assoc_zval(return_value, "per_shard", &per_shard);

    if (php_sc_active) {
        for (i = 0; i < SC_NCLASSES; i++) {
            const sc_info_class *k = &pool.classes[i];
            zval row;
            array_init_size(&row, 6);
            add_assoc_long(&row, "size", (zend_long)k->size);
            add_assoc_long(&row, "slab_pages", (zend_long)k->slab_pages);
            add_assoc_long(&row, "objects_used", (zend_long)k->objects_used);
            add_assoc_long(&row, "bytes_used", (zend_long)(k->objects_used * k->size));
            add_assoc_long(&row, "slabs", (zend_long)k->slabs);
            add_assoc_long(&row, "objects_total", (zend_long)k->objects_total);
            add_next_index_zval(&classes, &row);
        }
    }
    add_assoc_zval(return_value, "classes", &classes);
    array_init_size(&large, 2);
    add_assoc_long(&large, "runs", (zend_long)pool.large_runs);
    add_assoc_long(&large, "pages", (zend_long)pool.large_pages);
    add_assoc_zval(return_value, "large", &large);
    sc_info_pool_free(&pool);
}

void php_sc_info_minit(int module_number)
{
    (void)module_number;
}
