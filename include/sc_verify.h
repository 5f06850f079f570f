/*
 * sc_verify.h - what the first user of a named segment checks, and when:
 * a checksum of the metadata at attach, and each shard's pages at the
 * shard's first lock. See src/sc_verify.c.
 *
 * Owns: the metadata checksum (sc_header.sum), each shard's verify,
 * vhead and body_sum, and the links of the chains (the head field of a
 * shard's runs' first descriptors).
 * Locks: the file's exclusive flock (sc_verify_close, sc_verify_boot:
 * no other process maps the file); a shard's mutex with its window odd
 * (sc_verify_shard's caller, sc_shard.c).
 * Death: see src/sc_verify.c (a check cut short leaves the shard pending:
 * its next locker checks it again).
 */
#ifndef SC_VERIFY_H
#define SC_VERIFY_H

#include "sc_layout.h"

/* The checksum of everything before the data area (header, shard heads,
 * shards, page descriptors with the chains' links), with sc_header's closed
 * and sum read as 0. O(shards + pages / 128): no data page is read. */
uint64_t sc_verify_meta_sum(const sc_seg *seg);

/* The last user of a named segment, as it detaches (the file's exclusive
 * flock held, no lock of the segment held by anybody): links each shard's
 * runs (through sc_page.head of each run's first page) and gives every
 * shard that this run of the segment opened (not pending, window even)
 * the checksum of its pages;
 * every shard is then pending. False, with nothing marked pending that
 * was not before, when the pool waits for a full reset or the runs do not
 * tile the data area: the file is then not to be marked closed. */
bool sc_verify_close(sc_seg *seg);

/* The first user after a restart whose body is trusted (exclusive flock):
 * every pending shard gets an odd window, so that no reader or lockless
 * writer trusts it before its first locker has checked it. */
void sc_verify_boot(sc_seg *seg);

/* Whether the pages of a pending shard are what its body_sum says: its
 * chain of runs is whole (each a slab or large run
 * of this shard, inside the data area, no loop) and the checksum of
 * their bytes matches. The caller holds the shard's mutex, its window
 * odd. Reads the shard's pages only. */
bool sc_verify_shard(const sc_seg *seg, const sc_shard *shard);

#endif
