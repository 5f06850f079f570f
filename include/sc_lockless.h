/*
 * sc_lockless.h - a store that rewrites the key's entry without the shard's
 * lock, touching only the entry and the caller's own lines. See
 * src/sc_lockless.c.
 *
 * Owns: the lockless rewrite of a published entry, and the lockless delete
 * that keeps the entry for the key's next store.
 * Locks: none: a pin of the shard (sc_pin.h) and the entry's version
 * (sc_entry.ver).
 * Death: a writer killed inside the entry's version window leaves it odd;
 * the next drain of the shard's pins settles it (the key is dropped).
 */
#ifndef SC_LOCKLESS_H
#define SC_LOCKLESS_H

#include "sc_layout.h"

/* Largest value (bytes) written this way: slab-sized, so the entry's
 * version window stays short. */
#define SC_LOCKLESS_MAX_BYTES 4096

/* A delete keeps the entry (sc_lockless_delete) only while at least
 * 1/SC_LOCKLESS_FREE_SHARE of the segment's pages are free in the pool;
 * below that it frees at once, under the lock. */
#define SC_LOCKLESS_FREE_SHARE 4

/* sc_value_in.fixup (sc_cache.h): turns a zero-copy layout written at dst
 * into absolute pointers. */
typedef void (*sc_lockless_fixup)(void *arg, char *dst, size_t len);

/* Stores (vtype, scalar, data[len]) with ttl 0 at `now` over key's entry
 * in shard if that entry holds a value of the same vtype and the same
 * length, ttl 0 or SC_TTL_GONE (its key deleted by sc_lockless_delete:
 * the store brings it back, counted as an insert), neither chained nor
 * zero-copy, and no writer (shard window or another lockless store) is
 * active: then true, the store is done and counted. False, with nothing
 * written, in every other case: the caller takes the locked path, with
 * what this path's lookup found in *seen (seq odd: no lookup was made;
 * see sc_table_seen). The caller leaves out zero-copy values, len >
 * SC_LOCKLESS_MAX_BYTES, add_only, slam defense and apc.ttl (idle_ttl). */
bool sc_lockless_store(sc_seg *seg, sc_shard *shard, const char *key, uint32_t key_len, uint64_t hash,
                       uint8_t vtype, int64_t scalar, const char *data, uint32_t len, int64_t now,
                       sc_table_seen *seen);

/* The same for a zero-copy layout (vtype SC_V_ZC; fixup, not NULL, is run
 * on the bytes once written, as sc_value_in.fixup): only over a zero-copy
 * entry of the same length, and only while no thread is inside an epoch
 * (sc_epoch_any_reader, looked at with the entry's version odd) and no
 * retired entry waits in the shard; false otherwise, as above. */
bool sc_lockless_store_zc(sc_seg *seg, sc_shard *shard, const char *key, uint32_t key_len, uint64_t hash,
                          const char *data, uint32_t len, int64_t now, sc_lockless_fixup fixup, void *fixup_arg,
                          sc_table_seen *seen);

/* What a lockless delete did. */
typedef enum sc_lockless_result {
    SC_LOCKLESS_DONE,       /* the key was there and is deleted */
    SC_LOCKLESS_NOTFOUND,   /* the key was not there (or already deleted) */
    SC_LOCKLESS_DECLINED    /* nothing written: take the locked path */
} sc_lockless_result;

/* Deletes key from shard without the shard's lock when its entry has ttl 0,
 * at most SC_LOCKLESS_MAX_BYTES of value bytes, is not chained, no writer
 * is active and the pool has free pages to spare (SC_LOCKLESS_FREE_SHARE):
 * the entry's ttl becomes SC_TTL_GONE (sc_table.h) under its version, and
 * the entry stays in its slot with its memory and value bytes until a
 * store of the key brings it back (sc_lockless_store, sc_lockless_store_zc)
 * or the locked paths remove it (sc_epoch_release_entry). Answers
 * NOTFOUND, with nothing written, for a key that is absent or gone when
 * the table did not change during the look. Counted in the caller's
 * liveness slot (SC_LIVE_DELETES) and in the shard's kept-entry figure
 * (sc_alloc_lane.gone). Its lookup goes back in *seen, as
 * sc_lockless_store's does (free: SC_NONE). */
sc_lockless_result sc_lockless_delete(sc_seg *seg, sc_shard *shard, const char *key, uint32_t key_len,
                                      uint64_t hash, sc_table_seen *seen);

/* The shard's lock held (either mode), by a reader that found key's entry
 * mid-rewrite: opens the shard's window (sc_shard_write_begin: waits for
 * every lockless writer, settles a dead one's entry), then settles key's
 * entry if it is still odd. The caller reads, then closes the window
 * (sc_shard_write_end). Nothing a reader can copy changes until then. If
 * the caller dies inside, the next locker finds seq odd and empties the
 * shard (sc_shard.c). */
void sc_lockless_open_window(sc_seg *seg, sc_shard *shard, const char *key, uint32_t key_len, uint64_t hash);
/* Same for one entry already found (snapshots): e stays valid. */
void sc_lockless_settle_entry(sc_shard *shard, sc_entry *e);

#endif
