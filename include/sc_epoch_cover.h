/*
 * sc_epoch_cover.h - fork covers: what keeps the zero-copy values a fork
 * child inherited valid from the fork until it has an epoch slot of its
 * own. A cover cell (sc_epoch_table.covers) holds the oldest epoch of its
 * holders; each holder also holds a read lock (an open file description
 * lock) on the cell's byte of the segment's lock file, and the cell counts
 * only while such a lock is held, so the kernel ends a cover when its last
 * holder closes or dies, forked or not. See src/sc_epoch_cover.c.
 *
 * Owns: the cover cells, their pins (sc_epoch_table.cover_pins) and
 * cover_mask; the calling process's open file descriptions that hold a
 * cell's lock (sc_epoch_hold).
 * Locks: none of the cache's: compare-and-swap on the cells, the kernel's
 * record locks on the lock file.
 * Death: a holder's death closes its descriptions, which releases its
 * lock; the next look at the cell clears it (a pinned holder, one that
 * could not take a lock, keeps its pin for good).
 */
#ifndef SC_EPOCH_COVER_H
#define SC_EPOCH_COVER_H

#include "sc_common.h"
#include "sc_epoch_layout.h"

/* One holder's share of a cover: the cell, and the open file description
 * (its own, made for this holder) whose read lock on the cell's byte
 * keeps the cell alive, or -1 when no lock could be had (then a pin of
 * the cell holds it instead). Process memory: a fork child inherits the
 * description with the parent's copy of this struct. */
typedef struct sc_epoch_hold {
    int fd;
    uint32_t cell;
} sc_epoch_hold;

/* Before a fork inside epoch: adds a holder of epoch to cell c of t and
 * fills *h. lock_fd: the calling process's descriptor of the segment's
 * lock file (-1: none; the holder is pinned). */
void sc_epoch_cover_add(sc_epoch_table *t, int lock_fd, uint32_t c, uint64_t epoch, sc_epoch_hold *h);
/* The parent after the fork, whether it succeeded or not: closes its copy
 * of the description (a child holds its own) and clears the cell if
 * nobody holds it (the fork failed). A pinned hold is the child's to drop. */
void sc_epoch_cover_parent_done(sc_epoch_table *t, int lock_fd, sc_epoch_hold *h);
/* The holder (the fork child) has published the epoch elsewhere, or
 * holds nothing any more: gives its share up and clears the cell if
 * nobody else holds it. */
void sc_epoch_cover_release(sc_epoch_table *t, int lock_fd, sc_epoch_hold *h);
/* A process forked from a holder: closes its copy of the holder's
 * description without touching the cell (the holder still holds it). */
void sc_epoch_cover_forget(sc_epoch_hold *h);

/* The epoch cell c covers now, 0 when nobody holds it (a cell whose
 * holders are all gone is cleared: one fcntl when the cell is not empty).
 * No lock; for scanners, after their fence. */
uint64_t sc_epoch_cover_epoch(sc_epoch_table *t, int lock_fd, uint32_t c);

/* Runs the statement after it for each cover cell c that cover_mask names. */
#define SC_EPOCH_FOR_COVERS(t, c)                                                                   \
    for (uint64_t sc_m_ = __atomic_load_n(&(t)->cover_mask, __ATOMIC_SEQ_CST); sc_m_; sc_m_ &= sc_m_ - 1) \
        if (((c) = (uint32_t)__builtin_ctzll(sc_m_)), 1)

#endif
