/*
 * sc_resize.h - keeping room in a shard's table: growing or rehashing it
 * and publishing the result inside the shard's write window. See
 * src/sc_resize.c.
 *
 * Owns: when a shard's table is rebuilt, and its publication.
 * Locks: the caller holds the shard's REPAIR lock; publication inside the
 * odd window.
 * Death: the next locker empties the shard (sc_shard.c).
 */
#ifndef SC_RESIZE_H
#define SC_RESIZE_H

#include "sc_layout.h"

/* Shard REPAIR lock held. Makes room for one more entry: grows or rehashes
 * the table if needed. Returns false only if the table is full and no
 * memory could be had. */
bool sc_resize_reserve(sc_seg *seg, sc_shard *shard);

#endif
