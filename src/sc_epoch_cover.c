/*
 * sc_epoch_cover.c - fork covers: the zero-copy values a fork child
 * inherits stay valid from before the fork until the child has published
 * the epoch in a slot of its own, whatever the parent does meanwhile and
 * however late the child runs, and the cover ends with the last process
 * that needs it, by the kernel's hand.
 *
 * Owns: the cover cells (sc_epoch_table.covers, cover_pins, cover_mask)
 * and the calling process's open file descriptions that hold cover locks.
 *
 * How a cover is held. The forking thread (prepare handler) opens a new
 * description of the segment's lock file (the named segment's file, or the
 * memfd made with an anonymous segment, reopened through /proc/self/fd:
 * the only way to a new description of an inode that has no path), takes
 * a read lock (F_OFD_SETLK) on the cell's byte, then adds its epoch to the
 * cell. A description belongs to every process that has a copy of it, so
 * the fork gives the child the lock, and the kernel releases it when the
 * last copy is closed: the parent closes its copy right after fork()
 * returns (parent handler), the child once it has published in a slot of
 * its own (or left its epoch), and any process at death or exec
 * (O_CLOEXEC). So the lock is held exactly while some process that may
 * hold the inherited values lives, and never longer:
 *   - fork() failed (EAGAIN, ENOMEM): only the parent had the description;
 *     its handler closes it and finds the cell unheld: cleared at once;
 *   - the child killed before its handler ran, or while it has no slot:
 *     its death closes the description; the next look clears the cell;
 *   - the parent killed between prepare and the fork: the same.
 * Whoever looks at a cell (a scan, sc_epoch_any_reader, a holder giving
 * its share up) asks the kernel (F_OFD_GETLK through its own description
 * of the file, one that never holds a cover lock) whether any other
 * description locks the byte. Nobody, and no pin: the cell is emptied.
 *
 * Emptying without losing a holder. A new holder locks first, then adds
 * (the add bumps the cell's add count, so the cell's word changes). The
 * emptier reads the word, then asks the kernel, then reads the pins, then
 * swaps the word it read for empty. A holder counted in that word locked
 * before it added, so before the question: it is seen, unless it already
 * closed, which it does only once it needs no cover. A holder that adds
 * after the read changes the word and the swap fails. (It could only be
 * missed if the cell saw exactly 65,536 adds between the emptier's read
 * and its swap.)
 *
 * Pins. A holder that could not take a lock (no lock file: memfd_create
 * failed; /proc not mounted; out of descriptors) pins the cell instead
 * (cover_pins, before its add); its child unpins once published or left.
 * A pinned cell is never emptied: a fork that failed or a child killed
 * before its handler then leaves the cell held, as a reader that never
 * leaves (shardcache.zero_copy_max bounds it).
 *
 * A process forked from a holder (a coverless child that forks) closes
 * its copy of the holder's description (sc_epoch_cover_forget). A process
 * forked by another thread between one thread's prepare and parent
 * handlers keeps a copy until it exits or execs: the cell may stay held
 * that long, never shorter than it must.
 *
 * Locks: no lock of the cache: compare-and-swap on the cells and pins; the
 * kernel's record locks on bytes 2^40 + cell of the lock file (none of
 * the file's flocks: record locks and flocks do not meet).
 * Death: see above: a death closes every description of the dead process;
 * a cell whose holders are all gone is emptied by the next look. A death
 * between a pin and its add, or with a pin taken, leaves the pin.
 *
 * Design: docs/internals.md#sc_epoch
 */
#include "sc_epoch_cover.h"
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#define SC_EPOCH_COVER_MASK ((UINT64_C(1) << SC_EPOCH_COVER_SHIFT) - 1)

_Static_assert(SC_EPOCH_COVERS == 64, "one bit of cover_mask a cell");

static void sc_epoch_cover_lockdesc(struct flock *fl, short type, uint32_t c)
{
    fl->l_type = type;
    fl->l_whence = SEEK_SET;
    fl->l_start = (off_t)(SC_EPOCH_COVER_LOCK_BASE + c);
    fl->l_len = 1;
    fl->l_pid = 0;
}

/* A new description of the lock file with a read lock on cell c's byte,
 * or -1. */
static int sc_epoch_cover_lock(int lock_fd, uint32_t c)
{
    char path[32];
    struct flock fl;
    int fd;

    if (lock_fd < 0) {
        return -1;
    }
    snprintf(path, sizeof(path), "/proc/self/fd/%d", lock_fd);
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        return -1;
    }
    sc_epoch_cover_lockdesc(&fl, F_RDLCK, c);
    if (fcntl(fd, F_OFD_SETLK, &fl) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Whether a description other than lock_fd's locks cell c's byte. True
 * when the kernel cannot tell (no lock file, an error): a cell is then
 * never emptied by this process. */
static bool sc_epoch_cover_locked(int lock_fd, uint32_t c)
{
    struct flock fl;

    if (lock_fd < 0) {
        return true;
    }
    sc_epoch_cover_lockdesc(&fl, F_WRLCK, c);
    if (fcntl(lock_fd, F_OFD_GETLK, &fl) != 0) {
        return true;
    }
    return fl.l_type != F_UNLCK;
}

void sc_epoch_cover_add(sc_epoch_table *t, int lock_fd, uint32_t c, uint64_t epoch, sc_epoch_hold *h)
{
    uint64_t w, nw, e;

    SC_ASSERT(c < SC_EPOCH_COVERS && epoch != 0);

    h->cell = c;
    h->fd = sc_epoch_cover_lock(lock_fd, c);
    if (h->fd < 0) {
        __atomic_fetch_add(&t->cover_pins[c], 1, __ATOMIC_SEQ_CST);
    }
    __atomic_fetch_or(&t->cover_mask, UINT64_C(1) << c, __ATOMIC_SEQ_CST);
    if (epoch > SC_EPOCH_COVER_MASK) {
        epoch = 1;  /* never in practice: covers everything */
    }
    w = __atomic_load_n(&t->covers[c], __ATOMIC_SEQ_CST);
    /* Repeats while another thread changed the cell between the load and
     * the swap. */
    do {
        e = w & SC_EPOCH_COVER_MASK;
        if (!e || epoch < e) {
            e = epoch;
        }
        nw = (((w >> SC_EPOCH_COVER_SHIFT) + 1) << SC_EPOCH_COVER_SHIFT) | e;
    } while (!__atomic_compare_exchange_n(&t->covers[c], &w, nw, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
}

uint64_t sc_epoch_cover_epoch(sc_epoch_table *t, int lock_fd, uint32_t c)
{
    uint64_t w = 0, e = 0;
    uint32_t tries;

    SC_ASSERT(c < SC_EPOCH_COVERS);

    /* Repeats while the cell changes between the read and the swap (an
     * add, or another emptier): at most 4 times, then it counts. */
    for (tries = 0; tries < 4; tries++) {
        w = __atomic_load_n(&t->covers[c], __ATOMIC_SEQ_CST);
        e = w & SC_EPOCH_COVER_MASK;
        if (!e) {
            return 0;
        }
        if (sc_epoch_cover_locked(lock_fd, c) || __atomic_load_n(&t->cover_pins[c], __ATOMIC_SEQ_CST)) {
            return e;
        }
        if (__atomic_compare_exchange_n(&t->covers[c], &w, w & ~SC_EPOCH_COVER_MASK, false, __ATOMIC_SEQ_CST,
                                        __ATOMIC_SEQ_CST)) {
            return 0;
        }
    }
    return e;
}

void sc_epoch_cover_parent_done(sc_epoch_table *t, int lock_fd, sc_epoch_hold *h)
{
    if (h->fd < 0) {
        return;     /* pinned: the child unpins */
    }
    close(h->fd);
    h->fd = -1;
    sc_epoch_cover_epoch(t, lock_fd, h->cell);
}

void sc_epoch_cover_release(sc_epoch_table *t, int lock_fd, sc_epoch_hold *h)
{
    uint32_t old, nv;

    if (h->fd >= 0) {
        close(h->fd);
        h->fd = -1;
    } else {
        old = __atomic_load_n(&t->cover_pins[h->cell], __ATOMIC_SEQ_CST);
        /* Repeats while another holder changed the pins between the load
         * and the swap; ends at 0. */
        do {
            nv = old ? old - 1 : 0;
        } while (old && !__atomic_compare_exchange_n(&t->cover_pins[h->cell], &old, nv, false, __ATOMIC_SEQ_CST,
                                                     __ATOMIC_SEQ_CST));
    }
    sc_epoch_cover_epoch(t, lock_fd, h->cell);
}

void sc_epoch_cover_forget(sc_epoch_hold *h)
{
    if (h->fd >= 0) {
        close(h->fd);
        h->fd = -1;
    }
}
