/*
 * php/segment.c - the segment of this process: which one it maps (the
 * anonymous one, made at startup, or the named file shardcache.segment
 * names, mapped at startup or by each worker's first request), with which
 * size, shards, entries hint and ttl, a private anonymous one when the
 * named one is refused, huge pages, and apc.preload_path into a segment
 * this process made. Sets php_sc_shared_cache and php_sc_active
 * (php_shardcache.h).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#ifdef ZTS
# include <pthread.h>
#endif
#include "php.h"
#include "SAPI.h"
#include "segment.h"
#include "php_shardcache.h"
#include "owner.h"
#include "compat.h"
#include "zc.h"
#include "serialized.h"
#include "sc_cache.h"
#include "sc_file.h"

static uint64_t php_sc_shm_bytes;        /* the segment's size, as mapped */
static uint64_t php_sc_preloaded;        /* values loaded from apc.preload_path */
static const char *php_sc_inactive_reason = "not started";
static bool php_sc_seg_fresh;            /* this process made the segment: preload it */
/* The shardcache.segment value this process has acted on ("" = anonymous),
 * or NULL while a named segment waits for the process that will use it
 * (php_sc_named_deferred): each FPM pool sets its own value in its workers. */
static char *php_sc_seg_resolved;
static bool php_sc_seg_change_warned;
static char php_sc_seg_path[4096];       /* the named segment's file, expanded */
static uint64_t php_sc_req_size;         /* apc.shm_size, shardcache.shards, apc.entries_hint, apc.ttl, */
static uint32_t php_sc_req_shards;       /* resolved at startup for the segment made or mapped later */
static uint32_t php_sc_req_hint;
static uint32_t php_sc_req_ttl;
#ifdef ZTS
static pthread_mutex_t php_sc_attach_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

/* apc.preload_path, into the public entries (isolation on: php/owner.c). */
static uint64_t php_sc_preload(void)
{
    uint64_t saved = php_sc_owner_preload_begin(), n;

    n = php_sc_compat_preload(SCG(preload_path));
    php_sc_owner_preload_end(saved);
    return n;
}

/* apc.preload_path into the segment, when this process made it. */
void php_sc_segment_preload_fresh(void)
{
    if (php_sc_active && php_sc_seg_fresh && SCG(preload_path) && *SCG(preload_path)) {
        php_sc_preloaded = php_sc_preload();
    }
}

/* Named segments are mapped by the process that uses them, not by a parent
 * that forks workers and then changes their user and settings: an FPM
 * master or an Apache parent would make the file as root, and each FPM pool
 * applies its own php_admin_value[shardcache.segment] in its workers only,
 * after the fork. There the first request of each worker maps it (RINIT);
 * elsewhere (CLI, php-cgi, embed, threaded servers) startup does. A
 * "request" with no server context in those SAPIs is not one: opcache's
 * preload script runs so in the FPM master (or a child it forks as
 * opcache.preload_user) and must not map a pool's segment there. */
static bool php_sc_named_deferred(void)
{
    return strcmp(sapi_module.name, "fpm-fcgi") == 0 || strcmp(sapi_module.name, "apache2handler") == 0
           || strcmp(sapi_module.name, "litespeed") == 0;
}

/* APCu 5.1.28 maps its segment with MAP_HUGETLB when apc.mmap_hugepage_size
 * is set, and stops PHP's startup when apc.shm_size is not a multiple of it
 * or the size is no page size (1 byte): the same errors here, so that a
 * php.ini that starts here starts under APCu too. */
static void php_sc_check_hugepage_size(void)
{
    zend_long hp = SCG(mmap_hugepage_size);

    if (hp <= 0) {
        return;
    }
    if (SCG(shm_size) % hp) {
        zend_error_noreturn(E_CORE_ERROR, "apc.shm_size must be a multiple of apc.mmap_hugepage_size");
    }
    if (hp == 1) {
        zend_error_noreturn(E_CORE_ERROR, "Invalid hugepage size: " ZEND_LONG_FMT, hp);
    }
}

/* apc.mmap_hugepage_size set: ask the kernel for transparent huge pages on
 * the segment (anonymous or named: both are shmem). Best effort: no
 * MAP_HUGETLB, nothing reserved, an error is ignored; whether the kernel
 * uses them follows /sys/kernel/mm/transparent_hugepage/shmem_enabled (or
 * the tmpfs's huge= option). Only the mapping's advice changes: the layout,
 * the locks and what a process sees stay the same. */
static void php_sc_advise_hugepages(void)
{
    if (SCG(mmap_hugepage_size) > 0) {
        sc_cache_seg_advise_hugepages(&php_sc_shared_cache);
    }
}

/* The shard count when shardcache.shards is 0 (the default): one shard per
 * 512 KiB of segment, a power of two from 64 to 1024 (32M: 64, 128M: 256,
 * 512M and more: 1024). A writer that is descheduled while it holds its
 * shard's lock stalls every other writer of that shard for a time slice;
 * worker pools run many more processes than cores, so the count follows the
 * segment (which grows with the pool) rather than the cores. */
static zend_long php_sc_default_shards(uint64_t shm_size)
{
    zend_long shards = 64;

    while (shards < 1024 && ((uint64_t)shards << 1) * (UINT64_C(512) << 10) <= shm_size) {
        shards <<= 1;
    }
    return shards;
}

/* Maps the segment: size from apc.shm_size, falling back to 32M with a
 * warning when that size is above shardcache's limit or cannot be mapped.
 * auto_shards: the shard count was derived from the size (shardcache.shards
 * = 0), so a fallback derives it again from the size actually mapped. */
static bool php_sc_start_cache(uint64_t size, uint32_t shards, bool auto_shards, uint32_t hint, uint32_t ttl)
{
    char err[256];
    int rc;

    if (size >= SC_MAX_SEGMENT) {
        php_error_docref(NULL, E_CORE_WARNING, "shardcache: apc.shm_size must be below %lluG; using 32M",
                         (unsigned long long)(SC_MAX_SEGMENT >> 30));
        size = PHP_SC_DEFAULT_SHM_SIZE;
        if (auto_shards) {
            shards = (uint32_t)php_sc_default_shards(size);
        }
    }
    rc = sc_cache_init(&php_sc_shared_cache, size, shards, hint, ttl, err, sizeof(err));
    if (rc == SC_LAYOUT_HINT_TOO_LARGE) {
        /* APCu stops PHP's startup with this error. */
        zend_error_noreturn(E_CORE_ERROR, "%s", err);
    }
    if (rc != 0) {
        if (size == PHP_SC_DEFAULT_SHM_SIZE) {
            php_error_docref(NULL, E_CORE_WARNING, "shardcache: %s; the cache is disabled", err);
            php_sc_inactive_reason = "disabled: the shared memory could not be set up";
            return false;
        }
        php_error_docref(NULL, E_CORE_WARNING, "shardcache: %s; using apc.shm_size=32M", err);
        size = PHP_SC_DEFAULT_SHM_SIZE;
        if (auto_shards) {
            shards = (uint32_t)php_sc_default_shards(size);
        }
        if (sc_cache_init(&php_sc_shared_cache, size, shards, hint, ttl, err, sizeof(err)) != 0) {
            php_error_docref(NULL, E_CORE_WARNING, "shardcache: %s; the cache is disabled", err);
            php_sc_inactive_reason = "disabled: the shared memory could not be set up";
            return false;
        }
    }
    php_sc_shm_bytes = size;
    return true;
}

/* The segment is mapped (fresh: by this process, which preloads it): this
 * process's settings on the handle, then every operation may use it. */
static void php_sc_segment_ready(bool fresh)
{
    ZEND_ASSERT(sc_cache_seg_size(&php_sc_shared_cache) > 0);
    php_sc_shared_cache.slam_defense = SCG(slam_defense);
    php_sc_owner_bind(&php_sc_shared_cache);
    php_sc_advise_hugepages();
    php_sc_seg_fresh = fresh;
    php_sc_inactive_reason = NULL;
    php_sc_active = true;
}

/* The named segment was refused (why: err): this process makes an
 * anonymous segment of its own instead, so that a path another user took
 * first (or any other fault) cannot switch the cache off; the warning,
 * phpinfo() and shardcache_info()'s segment_refused say so. Nobody else
 * maps that segment: its entries live as long as this process. */
static bool php_sc_start_private(const char *err, int level)
{
    php_sc_seg_path[0] = '\0';
    snprintf(php_sc_seg_refused, sizeof(php_sc_seg_refused), "%s", err);
    php_error_docref(NULL, level, "shardcache: %s; this process uses a private anonymous segment instead "
                     "(its entries are not shared with other processes)", err);
    if (!php_sc_start_cache(php_sc_req_size, php_sc_req_shards, SCG(shards) == 0, php_sc_req_hint,
                            php_sc_req_ttl)) {
        return false;
    }
    ZEND_ASSERT(!sc_cache_seg_named(&php_sc_shared_cache));
    php_sc_segment_ready(true);
    return true;
}

/* sc_cache.unreadable for a named segment: values that another process
 * sharing the file stored and this one cannot read. Zero-copy arrays of
 * another PHP build's shape (php_sc_zc_unreadable), and values serialized
 * by an apc.serializer this process does not have
 * (php_sc_serialized_foreign). */
static bool php_sc_segment_unreadable(uint8_t vtype, const char *value, uint32_t len)
{
    if (vtype == SC_V_SERIALIZED) {
        return php_sc_serialized_foreign(value, len);
    }
    return vtype == SC_V_ZC && php_sc_zc_unreadable(value, len);
}

/* Maps the named segment `value` (a shardcache.segment value). Warnings are
 * startup warnings at startup and ordinary ones in a request. */
static bool php_sc_attach_named(const char *value, int level)
{
    char *path = php_sc_seg_path, err[320];
    sc_file_opts opts;
    sc_file_result res;

    if (sc_file_expand(value, path, sizeof(php_sc_seg_path)) != 0) {
        snprintf(err, sizeof(err), "shardcache.segment \"%.200s\" is not valid (%%u, %%U, %%p and %%%% are the "
                 "only %% forms)", value);
        return php_sc_start_private(err, level);
    }
    opts.path = path;
    opts.mode = (unsigned)SCG(segment_mode);
    opts.version = PHP_SHARDCACHE_VERSION;
    opts.size = php_sc_req_size;
    opts.nshards = php_sc_req_shards;
    opts.entries_hint = php_sc_req_hint;
    opts.per_process = sc_file_per_process(value);
    if (sc_cache_attach(&php_sc_shared_cache, &opts, php_sc_req_ttl, &res, err, sizeof(err)) != 0) {
        return php_sc_start_private(err, level);
    }
    if (res.note[0]) {
        php_error_docref(NULL, level, "shardcache: %s", res.note);
    }
    /* Another PHP build may share the file, and processes with another
     * apc.serializer: their zero-copy arrays of another shape, and their
     * values of a serializer this process does not have, are absent here,
     * in every function. */
    php_sc_shared_cache.unreadable = php_sc_segment_unreadable;
    php_sc_shm_bytes = sc_cache_seg_size(&php_sc_shared_cache);
    ZEND_ASSERT(sc_cache_seg_named(&php_sc_shared_cache));
    php_sc_segment_ready(res.created);
    return true;
}

/* The first request of a process whose named segment waits (see
 * php_sc_named_deferred), or whose pool asked for another segment than the
 * parent's. Later requests compare one string. */
void php_sc_segment_resolve(void)
{
    const char *want = SCG(segment) ? SCG(segment) : "";

    if (EXPECTED(php_sc_seg_resolved != NULL && strcmp(want, php_sc_seg_resolved) == 0)) {
        return;
    }
    if (SG(server_context) == NULL && php_sc_named_deferred()) {
        return;
    }
#ifdef ZTS
    pthread_mutex_lock(&php_sc_attach_lock);
#endif
    if (php_sc_seg_resolved == NULL) {
        /* A named segment waits for this process: nothing is mapped yet. */
        ZEND_ASSERT(!php_sc_active);
        if (*want) {
            if (php_sc_attach_named(want, E_WARNING)) {
                php_sc_segment_preload_fresh();
            }
        } else {
            php_error_docref(NULL, E_WARNING, "shardcache: shardcache.segment is set at startup but empty for "
                             "this worker: an anonymous segment can only be made before workers start; "
                             "the cache is disabled in this process");
            php_sc_inactive_reason = "disabled: no segment for this worker";
        }
        php_sc_seg_resolved = pestrdup(want, 1);
    } else if (php_sc_seg_resolved[0] == '\0' && *want && !php_sc_seg_change_warned) {
        /* The parent made an anonymous segment; this worker's pool names a
         * file: leave the parent's mapping (in this process only). */
        php_sc_seg_change_warned = true;
        if (php_sc_active) {
            sc_cache_shutdown(&php_sc_shared_cache);
            php_sc_active = false;
        }
        if (php_sc_attach_named(want, E_WARNING)) {
            php_sc_segment_preload_fresh();
        }
        pefree(php_sc_seg_resolved, 1);
        php_sc_seg_resolved = pestrdup(want, 1);
    } else if (!php_sc_seg_change_warned) {
        php_sc_seg_change_warned = true;
        php_error_docref(NULL, E_WARNING, "shardcache: shardcache.segment changed to \"%s\" after this process set "
                         "up \"%s\"; keeping the first", want, php_sc_seg_resolved);
    }
#ifdef ZTS
    pthread_mutex_unlock(&php_sc_attach_lock);
#endif
}

void php_sc_segment_reset(const char *why_inactive)
{
    php_sc_preloaded = 0;
    php_sc_seg_fresh = false;
    php_sc_seg_change_warned = false;
    php_sc_seg_refused[0] = '\0';
    if (php_sc_seg_resolved) {
        pefree(php_sc_seg_resolved, 1);
        php_sc_seg_resolved = NULL;
    }
    if (why_inactive) {
        php_sc_inactive_reason = why_inactive;
    }
}

uint64_t php_sc_segment_settings(void)
{
    uint64_t shm_size;
    zend_long shards, hint, ttl;

    shm_size = SCG(shm_size) > 0 ? (uint64_t)SCG(shm_size) : (uint64_t)PHP_SC_DEFAULT_SHM_SIZE;
    shards = SCG(shards);
    if (shards != 0 && (shards < 1 || shards > 4096 || (shards & (shards - 1)) != 0)) {
        shards = php_sc_default_shards(shm_size);
        php_error_docref(NULL, E_CORE_WARNING,
                         "shardcache: shardcache.shards must be 0 (automatic) or a power of two from 1 to 4096; "
                         "using " ZEND_LONG_FMT, shards);
    } else if (shards == 0) {
        shards = php_sc_default_shards(shm_size);
    }
    hint = SCG(entries_hint) > 0 ? SCG(entries_hint) : 4096;
    if (hint > (zend_long)(1 << 30)) {
        hint = 1 << 30;
    }
    ttl = SCG(ttl) > 0 ? SCG(ttl) : 0;
    if (ttl > (zend_long)UINT32_MAX) {
        ttl = (zend_long)UINT32_MAX;
    }
    if (shm_size >= SC_MAX_SEGMENT) {
        php_error_docref(NULL, E_CORE_WARNING, "shardcache: apc.shm_size must be below %lluG; using 32M",
                         (unsigned long long)(SC_MAX_SEGMENT >> 30));
        shm_size = PHP_SC_DEFAULT_SHM_SIZE;
        if (SCG(shards) == 0) {
            shards = php_sc_default_shards(shm_size);
        }
    }
    php_sc_check_hugepage_size();
    php_sc_req_size = shm_size;
    php_sc_req_shards = (uint32_t)shards;
    php_sc_req_hint = (uint32_t)hint;
    php_sc_req_ttl = (uint32_t)ttl;
    return shm_size;
}

void php_sc_segment_start(void)
{
    /* After php_sc_segment_reset: nothing chosen, nothing mapped. */
    ZEND_ASSERT(php_sc_seg_resolved == NULL && !php_sc_active);
    if (SCG(segment) && *SCG(segment)) {
        if (php_sc_named_deferred()) {
            php_sc_inactive_reason = "waiting for the first request to map shardcache.segment";
            return;
        }
        php_sc_seg_resolved = pestrdup(SCG(segment), 1);
        php_sc_attach_named(SCG(segment), E_CORE_WARNING);
        return;
    }
    php_sc_seg_resolved = pestrdup("", 1);
    if (php_sc_start_cache(php_sc_req_size, php_sc_req_shards, SCG(shards) == 0, php_sc_req_hint, php_sc_req_ttl)) {
        php_sc_segment_ready(true);
    }
}

void php_sc_segment_shutdown(void)
{
    if (php_sc_active) {
        sc_cache_shutdown(&php_sc_shared_cache);
        php_sc_active = false;
    }
    if (php_sc_seg_resolved) {
        pefree(php_sc_seg_resolved, 1);
        php_sc_seg_resolved = NULL;
    }
}

const char *php_sc_segment_inactive_reason(void)
{
    return php_sc_inactive_reason;
}

uint64_t php_sc_segment_shm_bytes(void)
{
    return php_sc_shm_bytes;
}

uint64_t php_sc_segment_preloaded(void)
{
    return php_sc_preloaded;
}

void php_sc_segment_describe(char *buf, size_t len)
{
    if (sc_cache_seg_named(&php_sc_shared_cache)) {
        snprintf(buf, len, "%.200s (file, %llu boots)", php_sc_seg_path,
                 (unsigned long long)sc_cache_seg_boots(&php_sc_shared_cache));
    } else if (php_sc_seg_refused[0]) {
        snprintf(buf, len, "anonymous, private to this process: shardcache.segment refused: %.180s",
                 php_sc_seg_refused);
    } else {
        snprintf(buf, len, "anonymous");
    }
}
