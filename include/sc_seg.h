/*
 * sc_seg.h - the process-local handle of a mapped segment and the
 * offset <-> pointer helpers every module uses. It names the shared
 * structs (sc_header, sc_shard_head, sc_shard) without defining them: their
 * layout is in sc_layout.h, which only the modules that touch shards
 * include. Made and filled by src/sc_layout.c (sc_layout_format, sc_layout_bind).
 *
 * Owns: nothing shared; the handle is process memory, written once when the
 * segment is mapped (owner_of: by the glue right after) and read-only
 * afterwards (every thread of a ZTS process
 * shares it; a forked child inherits it with the mapping, at the same
 * address).
 * Locks: none.
 * Death: nothing to repair (nothing shared is written here).
 */
#ifndef SC_SEG_H
#define SC_SEG_H

#include "sc_common.h"
#include "sc_alloc.h"

struct sc_header;
struct sc_shard_head;
struct sc_shard;
struct sc_table;

/* The glue's reading of an entry's owner from its (mixed) hash and key
 * bytes: false when none can be told (sc_fair.h). */
typedef bool (*sc_fair_owner_fn)(uint64_t hash, const char *key, uint32_t key_len, uint32_t *owner);

/* Process-local handle. A forked process inherits it with the mapping (same
 * address). Other processes that map a named segment (sc_file.c) have
 * their own handle, and their mapping may sit at another address: shared
 * data never holds a pointer, only offsets from the base (or, for sc_layout_head,
 * from the referring structure). */
typedef struct sc_seg {
    char *base;
    uint64_t size;
    struct sc_header *hdr;
    struct sc_shard_head *heads;
    struct sc_shard *shards;
    sc_page *pages;
    uint32_t nshards;
    uint32_t npages;
    int fd;                  /* named segment: the open file (holds a shared flock); else -1 */
    bool named;
    int opener;              /* named: pid of the process that opened fd (a forked child shares its flock) */
    /* Anonymous: a memfd made with the segment (inherited with it by
     * forked children), whose record locks hold fork covers
     * (sc_epoch_cover.h); -1 when none could be made. Named: unused
     * (the covers lock the segment's file, fd). */
    int cover_fd;
    uint64_t hash_key[4];    /* sc_header.hash_key, copied by sc_layout_bind */
    sc_alloc_ctx ac;         /* the allocator's view of this mapping (sc_alloc.h) */
    /* For SC_ASSERT only (sc_common.h), set by sc_layout_bind (NULL: not
     * checked): whether table is a shard's (in its head) whose REPAIR lock
     * the calling thread holds, with the shard's window open if window. */
    bool (*check_table)(const struct sc_seg *seg, const struct sc_table *table, bool window);
    /* Set by the glue right after the segment is mapped, before any
     * operation (NULL: every entry's owner is SC_FAIR_NONE): the owner of
     * an entry, by which each shard counts its bytes per owner (sc_fair.h).
     * Every process that maps one segment must read owners alike. */
    sc_fair_owner_fn owner_of;
} sc_seg;

/* Bounds-checked translation of an offset read from shared memory. */
static inline void *sc_seg_ptr(const sc_seg *seg, sc_off off, uint64_t len)
{
    if (SC_UNLIKELY(off == 0 || off > seg->size || len > seg->size - off)) {
        return NULL;
    }
    return seg->base + off;
}

static inline sc_off sc_seg_off(const sc_seg *seg, const void *p)
{
    return (sc_off)((const char *)p - seg->base);
}

static inline uint32_t sc_seg_shard_index(const sc_seg *seg, uint64_t hash)
{
    return (uint32_t)(hash >> 32) & (seg->nshards - 1);
}

#endif
