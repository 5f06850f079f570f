/*
 * sc_entry.h - making, reading and freeing entries (src/sc_entry.c). The
 * entry format itself (sc_entry, sc_chunk) is in sc_table.h.
 *
 * Owns: the bytes of entries (see sc_table.h for who writes which field).
 * Locks: create and free: the shard's REPAIR lock; copy: no lock needed.
 * Death: a writer's death makes the next locker repair the shard
 * (sc_shard_repair.c).
 */
#ifndef SC_ENTRY_H
#define SC_ENTRY_H

#include "sc_layout.h"

/* Shard REPAIR lock held. Allocates and fills a new entry (not yet in any
 * table) from the caller's allocation lane (sc_pin_lane). Returns its
 * offset, or 0 when the memory is not there (nothing is evicted here). */
sc_off sc_entry_create(sc_seg *seg, sc_shard *shard, uint64_t hash, const char *key, uint32_t key_len,
                       uint8_t vtype, int64_t scalar, const char *value, uint32_t value_len, uint32_t ttl,
                       int64_t now, uint32_t lane);

/* A store's stamp (sc_entry.stamp): the coarse monotonic clock, strictly
 * increasing within the calling thread. Take it under the shard's REPAIR
 * lock, as sc_entry_create does, so that a shard's stamps follow its
 * stores; a lockless store (sc_lockless_fill) takes it with no lock,
 * inside its entry's version window. */
uint64_t sc_entry_stamp(void);

/* sc_entry_stamp, also above prev: a rewrite of an entry in place passes
 * the entry's stamp, so that no rewrite repeats a stamp the entry had
 * (sc_table_ever_valid). */
uint64_t sc_entry_stamp_after(uint64_t prev);

/* Shard REPAIR lock held: frees an entry that no table refers to any more.
 * Callers that unlink entries use sc_epoch_release_entry (sc_epoch.h), which
 * retires zero-copy entries instead. */
void sc_entry_free(sc_seg *seg, sc_shard *shard, sc_entry *e);

/* Copies len value bytes of e into dst. Safe without a lock (every offset is
 * bounds-checked); the bytes are meaningful only once the shard's sequence
 * counter (or the lock) confirms them. False when something is out of
 * bounds or inconsistent. */
bool sc_entry_copy_value(const sc_seg *seg, const sc_entry *e, uint32_t key_len, char *dst, uint64_t len);

#endif
