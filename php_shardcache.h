/*
 * php_shardcache.h - the PHP module: module entry, version, the per-thread
 * globals of the glue, and what the glue files (shardcache.c and php/)
 * share.
 */
#ifndef PHP_SHARDCACHE_H
#define PHP_SHARDCACHE_H

#include "sc_cache.h"
#include "sc_fetch.h"

/* ZEND_ASSERT checked in the debug build (php/debug.h). */
#include "php/debug.h"

extern zend_module_entry shardcache_module_entry;
#define phpext_shardcache_ptr &shardcache_module_entry

/* Reported as the extension's version; the APCu identity reports the APCu
 * API level it implements. */
#define PHP_SHARDCACHE_VERSION "0.1.0"
#define PHP_SHARDCACHE_APCU_VERSION "5.1.28"

#ifdef ZTS
# include "TSRM.h"
#endif

/* The longest key of SCG(obj_dates): a date, a timezone type, a timezone. */
#define PHP_SC_ODATE_KEY 96

ZEND_BEGIN_MODULE_GLOBALS(shardcache)
    /* INI: the apc.* settings are shardcache's own entries, or, when APCu is
     * loaded too, copied from APCu's entries at startup. */
    bool enabled;            /* apc.enabled */
    bool enable_cli;         /* apc.enable_cli */
    bool use_request_time;   /* apc.use_request_time */
    bool slam_defense;       /* apc.slam_defense: a store fails when another thread
                                stored the same key this second, as the last
                                key of its shard (sc_cache_store: SC_SLAM) */
    bool coredump_unmap;     /* apc.coredump_unmap (accepted, no effect) */
    zend_long shm_size;      /* apc.shm_size, bytes (APCu's parsing) */
    zend_long entries_hint;  /* apc.entries_hint */
    zend_long ttl;           /* apc.ttl */
    zend_long gc_ttl;        /* apc.gc_ttl (accepted, no effect) */
    zend_long smart;         /* apc.smart (accepted, no effect) */
    double expunge_threshold; /* apc.expunge_threshold, APCu master's (accepted, no effect) */
    zend_long mmap_hugepage_size; /* apc.mmap_hugepage_size: 0, or ask for transparent
                                huge pages on the segment (madvise) */
    const char *mmap_file_mask; /* apc.mmap_file_mask (accepted, no effect: the segment
                                is anonymous, or the file shardcache.segment names) */
    const char *preload_path; /* apc.preload_path */
    const char *serializer_name; /* apc.serializer */
    zend_long shards;        /* shardcache.shards */
    bool apcu_compat;        /* shardcache.apcu_compat */
    char *segment;           /* shardcache.segment: "" = anonymous, else a file (sc_file.h) */
    zend_long segment_mode;  /* shardcache.segment_mode (0600 or 0660) */
    /* This thread's scratch buffer for encoded values being fetched
     * (persistent memory, kept between requests unless above 1 MiB). */
    char *scratch;
    size_t scratch_cap;
    /* Scratch buffers taken away while their value is decoded (the decoder
     * may run user code that fetches again and needs a buffer of its own),
     * innermost last. Listed here, not only on the C stack, so that a fatal
     * error inside the decoder (it longjmps past php_sc_out_to_zval) leaves
     * them reachable: RSHUTDOWN frees them. */
    char **held;
    uint32_t nheld;
    uint32_t held_cap;
    /* This thread is inside a zero-copy epoch (php/zc.c):
     * from its first fetch of a request to the request's end. */
    bool zc_entered;
    /* The request holds (or held) a borrowed zero-copy value: set where one
     * is handed out, php_sc_zc_in_place_at (an array or a string) and
     * php_sc_zc_object_to_zval (an object whose arrays are used in place);
     * cleared at request end. A thread inside an epoch that holds none
     * leaves the epoch at its next store, delete or clear (php_sc_zc_idle),
     * so that a miss or a scalar fetched once does not pin retired memory
     * for ever (CLI workers). */
    bool zc_holding;
    /* This thread's last fetch hits, to find their entries again without
     * the table while their shards do not change (sc_fetch.h). */
    sc_fetch_memos fetch_memos;
    /* php/ocls.c, this request (emptied at its end, when classes may be
     * freed): class entries with their fingerprints (0: the object form
     * does not take the class), and classes by the hash of their name;
     * direct-mapped; skip: stores whose first object is of this class that
     * go straight to serialize() (after one that could not take the form).
     * Counts for shardcache_info()['objects']. */
    struct { void *ce; uint64_t fp; uint32_t skip; } obj_fps[32];
    void *obj_names[32];
    /* php/odate.c, per thread for the request (request memory, freed at
     * its end): states of DateTime objects by the array that built them */
    struct { void *ce; void *time; uint32_t len; char key[PHP_SC_ODATE_KEY]; } obj_dates[8];
    uint32_t obj_dates_hits, obj_dates_misses;
    bool obj_dates_off;      /* dates seldom repeat: no lookups this request */
    zend_long obj_counts[4];
    char *zero_copy;         /* shardcache.zero_copy: auto, 1, 0 */
    zend_long zero_copy_max; /* shardcache.zero_copy_max, bytes (0: a quarter of apc.shm_size) */
    bool isolation;          /* shardcache.isolation: user (true) or off */
    /* Whose entries this thread sees (php/owner.c), set at request start
     * and after posix_setuid / posix_seteuid: */
    uint64_t owner_salt;     /* XORed into every key's hash: owner_id << 24
                                (PHP_SC_OWNER_PUBLIC << 24 while
                                apc.preload_path is loaded: php/owner.c) */
    uint32_t owner_id;       /* the effective uid (isolation on), else 0 */
    uint32_t owner_uid;      /* the effective uid */
    bool owner_all;          /* isolation on and root: clears everything,
                                shardcache_info counts every user */
    bool public_reads;       /* a miss looks for a preloaded entry too */
ZEND_END_MODULE_GLOBALS(shardcache)

/* The data every glue file shares is declared hidden, as -fvisibility=hidden
 * makes its definitions in shardcache.c: another glue file then reads it
 * with one instruction relative to its code, not two (the address from the
 * GOT first). apcu_fetch reads the globals, php_sc_active and
 * php_sc_shared_cache on every call. */
#ifdef __GNUC__
# pragma GCC visibility push(hidden)
#endif
ZEND_EXTERN_MODULE_GLOBALS(shardcache)
#ifdef __GNUC__
# pragma GCC visibility pop
#endif
#define SCG(v) ZEND_MODULE_GLOBALS_ACCESSOR(shardcache, v)

#if defined(ZTS) && defined(COMPILE_DL_SHARDCACHE)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

/* ---- shared between the glue files (shardcache.c and php/) ---- */

#ifdef __GNUC__
# pragma GCC visibility push(hidden)
#endif
extern sc_cache php_sc_shared_cache;     /* this process's handle on the segment */
extern bool php_sc_active;               /* false: every operation finds/stores nothing */
extern char php_sc_seg_refused[320];     /* why shardcache.segment was refused ("" when it was not) */
#ifdef __GNUC__
# pragma GCC visibility pop
#endif

#endif
