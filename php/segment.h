/*
 * php/segment.h - the segment of this process (php/segment.c): chosen and
 * mapped at startup (MINIT) or by a worker's first request (RINIT).
 */
#ifndef SHARDCACHE_SEGMENT_H
#define SHARDCACHE_SEGMENT_H

#include "php.h"

/* apc.shm_size's default, and the size used when the asked one fails. */
#define PHP_SC_DEFAULT_SHM_SIZE (INT64_C(32) << 20)

/* MINIT, first: forgets the segment settings of an earlier start of the
 * module in this process. why_inactive (NULL: keep the last one) is what
 * phpinfo() says while the cache is not active. */
void php_sc_segment_reset(const char *why_inactive);
/* MINIT, the cache enabled: resolves apc.shm_size, shardcache.shards,
 * apc.entries_hint and apc.ttl (a warning for each out of range) and
 * checks apc.mmap_hugepage_size against the size (APCu's startup errors);
 * kept for the segment made or mapped later. Returns the size. */
uint64_t php_sc_segment_settings(void);
/* MINIT, after php_sc_segment_settings: makes the anonymous segment, or
 * maps the named one, or leaves it to each worker's first request. */
void php_sc_segment_start(void);
/* RINIT: maps a named segment that waits for this process, or the one
 * this worker's pool names instead of the parent's. */
void php_sc_segment_resolve(void);
/* After every extension started (every serializer registered):
 * apc.preload_path into the segment, when this process made it. */
void php_sc_segment_preload_fresh(void);
/* MSHUTDOWN: unmaps the segment. */
void php_sc_segment_shutdown(void);

/* For phpinfo(): why the cache is not active (while it is not), the
 * segment's size as mapped, the values apc.preload_path loaded, and which
 * segment this is (a named file, an anonymous or a private one). */
const char *php_sc_segment_inactive_reason(void);
uint64_t php_sc_segment_shm_bytes(void);
uint64_t php_sc_segment_preloaded(void);
void php_sc_segment_describe(char *buf, size_t len);

#endif
