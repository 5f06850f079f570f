/*
 * sc_snapshot.c - copies of entries for the info functions and APCUIterator.
 *
 * A snapshot is one malloc'd buffer holding, for each entry of a shard (or
 * for one key), its figures, its key and optionally its value bytes. It is
 * filled while the shard's lock is held (NO_REPAIR mode) - nothing in there can fail by
 * jumping out (malloc reports failure by returning NULL) - and read after
 * the lock is released, so no PHP code ever runs under a cache lock.
 *
 * Owns: nothing shared; the snapshot buffers (process memory).
 * Locks: the shard's NO_REPAIR lock while copying one shard or one key;
 * each entry's copy is checked against its version (lockless stores,
 * sc_lockless.c, are not kept out by the lock), and made inside the
 * shard's window when a lockless writer is slow or died.
 * Death: nothing to repair (nothing shared is written; NO_REPAIR mode),
 * except when killed inside that window: the next locker then finds the
 * counter odd and repairs the shard (sc_shard.c), which has nothing half
 * done to drop.
 *
 * Buffer: a sequence of records, each an sc_snap_rec header, the key bytes
 * and the value bytes, padded to 8.
 */
#include <stdlib.h>
#include <string.h>
#include "sc_cache.h"
#include "sc_shard.h"
#include "sc_entry.h"
#include "sc_evict.h"
#include "sc_lockless.h"
#include "sc_pin.h"

/* The figures are kept as an sc_entry_meta whose pointers are filled in by
 * sc_snapshot_next (the buffer may move while it grows). */
typedef struct sc_snap_rec {
    uint64_t rec_size;      /* bytes of this record, padded (a record holds a
                               whole value: 64-bit, values near 4 GiB) */
    uint8_t has_value;
    sc_entry_meta meta;     /* value_len: bytes copied (0 without values) */
} sc_snap_rec;

struct sc_snapshot {
    const sc_seg *seg;
    char *buf;
    size_t len;
    size_t cap;
    size_t pos;
    bool failed;
};

static uint64_t sc_snapshot_rec_size(const sc_entry *e, bool with_values)
{
    return SC_ALIGN_UP(sizeof(sc_snap_rec) + (uint64_t)e->key_len + (with_values ? (uint64_t)e->val_len : 0), 8);
}

/* Bytes the entry holds. The header's 32-bit figure saturates; beyond it
 * the entry is at least its header, key and value in whole pages. */
static uint64_t sc_snapshot_entry_mem(const sc_entry *e)
{
    if (e->mem_size < UINT32_MAX) {
        return e->mem_size;
    }
    return SC_ALIGN_UP(sizeof(sc_entry) + (uint64_t)e->key_len + e->val_len, SC_PAGE_SIZE);
}

static void sc_snapshot_add(sc_snapshot *snap, const sc_entry *e, bool with_values)
{
    uint64_t need = sc_snapshot_rec_size(e, with_values);
    sc_snap_rec *rec;
    char *p;

    if (snap->failed) {
        return;
    }
    if (need > SIZE_MAX - snap->len) {
        snap->failed = true;
        return;
    }
    if (snap->len + need > snap->cap) {
        size_t cap = snap->cap ? snap->cap * 2 : 4096;
        char *nb;
        while (cap < snap->len + need) {
            cap *= 2;
        }
        nb = realloc(snap->buf, cap);
        if (!nb) {
            snap->failed = true;
            return;
        }
        snap->buf = nb;
        snap->cap = cap;
    }
    rec = (sc_snap_rec *)(snap->buf + snap->len);
    memset(rec, 0, sizeof(*rec));
    rec->rec_size = need;
    rec->meta.hash = e->hash;
    rec->meta.key_len = e->key_len;
    rec->meta.vtype = e->vtype;
    rec->meta.scalar = e->scalar;
    rec->meta.ttl = sc_table_ttl_signed(e->ttl);
    rec->meta.nhits = e->nhits;
    rec->meta.mem_size = sc_snapshot_entry_mem(e);
    rec->meta.ctime = e->ctime;
    rec->meta.mtime = sc_table_entry_mtime(e);
    rec->meta.atime = sc_table_entry_atime(e);
    rec->meta.stamp = e->stamp;
    p = (char *)(rec + 1);
    memcpy(p, SC_ENTRY_KEY(e), e->key_len);
    if (with_values) {
        rec->has_value = 1;
        rec->meta.value_len = e->val_len;
        if (!sc_entry_copy_value(snap->seg, e, e->key_len, p + e->key_len, e->val_len)) {
            rec->meta.value_len = 0;
            rec->has_value = 0;
        }
    }
    snap->len += need;
}

#define SC_SNAP_TRIES 64

/* Adds e, copied whole: the shard's NO_REPAIR lock keeps out every writer
 * but a lockless store (sc_lockless.c), so the copy is checked against the
 * entry's version and made again; an entry that stays odd (a slow or dead
 * lockless writer) is copied inside the shard's window, which waits for
 * the writer or settles what a dead one left (sc_lockless_settle_entry). */
static void sc_snapshot_add_whole(sc_snapshot *snap, sc_shard *shard, const sc_entry *e, int64_t now,
                              bool with_values)
{
    int tries;

    /* Repeats while a lockless store is rewriting the entry (its version
     * odd, or moved during the copy): SC_SNAP_TRIES copies at most. */
    for (tries = 0; tries < SC_SNAP_TRIES; tries++) {
        size_t len = snap->len;
        sc_ever ver = sc_table_ever_begin(e);
        if (!(ver.ver & 1)) {
            sc_snapshot_add(snap, e, with_values);
            if (snap->failed || sc_table_ever_valid(e, ver)) {
                return;
            }
            snap->len = len;
        }
        sc_cpu_relax();
    }
    sc_lockless_settle_entry(shard, (sc_entry *)e);
    if (!sc_evict_is_expired(e, now)) {
        sc_snapshot_add(snap, e, with_values);
    }
    sc_shard_write_end(shard);
}

static sc_snapshot *sc_snapshot_new(const sc_seg *seg)
{
    sc_snapshot *snap = calloc(1, sizeof(sc_snapshot));

    if (snap) {
        snap->seg = seg;
    }
    return snap;
}

/* The snapshot, or NULL (and freed) when memory ran out while filling it. */
static sc_snapshot *sc_snapshot_done(sc_snapshot *snap)
{
    if (snap->failed) {
        sc_snapshot_free(snap);
        return NULL;
    }
    return snap;
}

uint32_t sc_cache_nshards(const sc_cache *c)
{
    return c->seg.nshards;
}

sc_snapshot *sc_snapshot_shard(sc_cache *c, uint32_t index, int64_t now, bool with_values)
{
    sc_seg *seg = &c->seg;
    sc_shard *shard;
    const sc_table *table;
    sc_snapshot *snap;
    uint32_t slot;

    if (index >= seg->nshards || !(snap = sc_snapshot_new(seg))) {
        return NULL;
    }
    shard = &seg->shards[index];
    table = &seg->heads[index].table;
    sc_shard_lock(&c->seg, shard, SC_LOCK_NO_REPAIR);
    for (slot = 0; slot < table->capacity; slot++) {
        const sc_entry *e = sc_table_slot_entry(seg, table, slot);
        if (e && !sc_cache_entry_absent(c, e, now)) {
            sc_snapshot_add_whole(snap, shard, e, now, with_values);
        }
    }
    sc_shard_unlock(shard);
    return sc_snapshot_done(snap);
}

sc_snapshot *sc_snapshot_key(sc_cache *c, const sc_key *key, int64_t now, bool with_values)
{
    sc_seg *seg = &c->seg;
    uint64_t hash = sc_cache_key_hash(&c->seg, key);
    sc_shard *shard = sc_layout_shard_for(seg, hash);
    sc_snapshot *snap = sc_snapshot_new(seg);
    const sc_entry *e;
    uint32_t slot;

    if (!snap) {
        return NULL;
    }
    sc_shard_lock(&c->seg, shard, SC_LOCK_NO_REPAIR);
    e = sc_table_lookup(seg, &sc_layout_head(shard)->table, key->str, key->len, hash, &slot);
    if (e && !sc_cache_entry_absent(c, e, now)) {
        sc_snapshot_add_whole(snap, shard, e, now, with_values);
    }
    sc_shard_unlock(shard);
    return sc_snapshot_done(snap);
}

bool sc_snapshot_next(sc_snapshot *snap, sc_entry_meta *meta)
{
    const sc_snap_rec *rec;
    const char *p;

    if (!snap || snap->pos >= snap->len) {
        return false;
    }
    rec = (const sc_snap_rec *)(snap->buf + snap->pos);
    p = (const char *)(rec + 1);
    *meta = rec->meta;
    meta->key = p;
    meta->value = rec->has_value ? p + rec->meta.key_len : NULL;
    snap->pos += (size_t)rec->rec_size;
    return true;
}

void sc_snapshot_free(sc_snapshot *snap)
{
    if (snap) {
        free(snap->buf);
        free(snap);
    }
}
