/*
 * sc_file.c - named segments: the segment in a file that unrelated
 * processes map (every worker of an FPM pool, a CLI run as the pool's user)
 * and that outlives them (a warm restart).
 *
 * Owns: opening, checking, creating, replacing and mapping the file, and
 * clearing the per-process state a previous run left in it. The layout is
 * sc_layout.c's; nothing here is used after the mapping is made.
 *
 * Creation. Made under a temporary name with a random part in the same
 * directory (O_EXCL), sized (posix_fallocate), formatted, then moved to
 * the path without replacing anything (renameat2 RENAME_NOREPLACE; link
 * and unlink where the filesystem lacks it): of two processes starting at
 * once one wins, the other maps the winner's file.
 * Trust (the checks are sc_file_trust.c's). Every directory above the
 * path must be owned by root or this user and writable by nobody else
 * unless sticky (sc_file_trust_dirs). The path is opened with O_NOFOLLOW
 * and O_NONBLOCK (a FIFO does not block) and refused unless it is a
 * regular file with one link, owned by this user or root, within the
 * configured mode and, when group-shared, in this process's group
 * (sc_file_trust_check). A file whose identity or geometry is not
 * exactly ours (sc_file_trust_header) is never read further: a new
 * segment is renamed over it.
 * Boot. Every process that maps the file holds a shared flock. One that
 * gets the exclusive flock instead is the first user since a restart: it
 * trusts the body only as sc_file_boot_trusted says (else it starts the
 * segment afresh in the same file), clears pins, reservations and stale
 * locks, counts the boot in hdr->boots, then takes the shared flock.
 * Later attachers check the shard constants and locks (sc_file_body_sane)
 * and replace a file that fails. Replacing is serialised by a flock on
 * ".<name>.lock" beside the file. The last user to detach gives each
 * shard it used a checksum of its pages, stores a checksum of the
 * metadata and marks the file closed (sc_file_detach, sc_verify.c); the
 * next first user checks the metadata at attach and each shard at its
 * first lock, so a start reads what it uses, not the whole file.
 * "%p" segments are private files with no name.
 *
 * Locks: only flocks on the file. The shared one is held as long as the
 * mapping (sc_layout_destroy closes the file; the kernel drops it when the
 * process ends); the exclusive one only while making or clearing.
 * Death: a process that dies while making a segment leaves a temporary
 * file (".<pid>.<n>.new" next to the path) that nobody maps; one that dies
 * while clearing at boot releases the exclusive flock with its life, and
 * the next process does the (idempotent) clearing again.
 *
 * Design: docs/internals.md#sc_file
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "sc_file.h"
#include "sc_file_trust.h"
#include "sc_epoch.h"
#include "sc_alloc.h"
#include "sc_verify.h"

/* mmap of the whole file. Test-only knob: SHARDCACHE_TEST_AVOID_ADDR (an
 * address, hex) reserves that range with a blocker first, so that the
 * segment is mapped elsewhere than where another process (its creator)
 * has it (tests/zero-copy/310: the copying path of zero-copy values).
 * Nothing else reads it; an unset or unparsable value does nothing. */
#ifndef MAP_FIXED_NOREPLACE
# define MAP_FIXED_NOREPLACE 0x100000   /* Linux >= 4.17; older kernels take it as a hint */
#endif
static void *sc_file_mmap(size_t size, int fd)
{
    const char *avoid = getenv("SHARDCACHE_TEST_AVOID_ADDR");
    void *blocker = MAP_FAILED, *base;

    if (avoid && *avoid) {
        char *end;
        unsigned long long a = strtoull(avoid, &end, 16);
        if (*end == '\0' && a && (a & 4095) == 0) {
            blocker = mmap((void *)(uintptr_t)a, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
                           -1, 0);
        }
    }
    base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (blocker != MAP_FAILED) {
        munmap(blocker, size);
    }
    return base;
}

#define SC_ATTACH_TRIES 16

/* ---- path expansion ---- */

static int sc_file_append(char *out, size_t outlen, size_t *pos, const char *s)
{
    size_t n = strlen(s);

    if (*pos + n >= outlen) {
        return -1;
    }
    memcpy(out + *pos, s, n);
    *pos += n;
    out[*pos] = '\0';
    return 0;
}

int sc_file_expand(const char *in, char *out, size_t outlen)
{
    size_t pos = 0;
    char buf[64];

    if (outlen == 0) {
        return -1;
    }
    out[0] = '\0';
    for (; *in; in++) {
        if (*in != '%') {
            if (pos + 1 >= outlen) {
                return -1;
            }
            out[pos++] = *in;
            out[pos] = '\0';
            continue;
        }
        in++;
        switch (*in) {
        case '%':
            snprintf(buf, sizeof(buf), "%%");
            break;
        case 'U':
            snprintf(buf, sizeof(buf), "%lu", (unsigned long)geteuid());
            break;
        case 'p':
            snprintf(buf, sizeof(buf), "%lu", (unsigned long)getpid());
            break;
        case 'u': {
            struct passwd pw, *found = NULL;
            char pwbuf[1024];
            if (getpwuid_r(geteuid(), &pw, pwbuf, sizeof(pwbuf), &found) == 0 && found
                && strchr(found->pw_name, '/') == NULL) {
                snprintf(buf, sizeof(buf), "%s", found->pw_name);
            } else {
                snprintf(buf, sizeof(buf), "%lu", (unsigned long)geteuid());
            }
            break;
        }
        default:
            return -1;
        }
        if (sc_file_append(out, outlen, &pos, buf) != 0) {
            return -1;
        }
    }
    return 0;
}

bool sc_file_per_process(const char *in)
{
    for (; *in; in++) {
        if (*in == '%') {
            if (in[1] == 'p') {
                return true;
            }
            if (in[1] == '\0') {
                return false;
            }
            in++;
        }
    }
    return false;
}

/* ---- making a segment ---- */

static int sc_file_lock(int fd, int op)
{
    int rc;

    /* Repeats only when a signal interrupted the wait (EINTR). */
    do {
        rc = flock(fd, op);
    } while (rc != 0 && errno == EINTR);
    return rc;
}

/* Sizes the open file fd (empty, its exclusive flock held) for a new
 * segment with this process's settings, maps and formats it into seg.
 * -1 with err (nothing mapped). */
static int sc_file_format_fd(sc_seg *seg, int fd, const sc_file_opts *o, const char *name, char *err,
                             size_t errlen)
{
    sc_layout_plan plan;
    void *base;
    int rc;

    if (sc_layout_plan_make(&plan, o->size, o->nshards, o->entries_hint, err, errlen) != 0) {
        return -1;
    }
    rc = posix_fallocate(fd, 0, (off_t)plan.size);
    if (rc != 0) {
        snprintf(err, errlen, "cannot size %s to %llu bytes: %s", name, (unsigned long long)plan.size,
                 strerror(rc));
        return -1;
    }
    base = sc_file_mmap(plan.size, fd);
    if (base == MAP_FAILED) {
        snprintf(err, errlen, "cannot map %s: %s", name, strerror(errno));
        return -1;
    }
    seg->fd = fd;
    seg->named = true;
    seg->opener = (int)getpid();
    if (sc_layout_format(seg, base, &plan, o->nshards, o->entries_hint, o->version) != 0) {
        snprintf(err, errlen, "cannot initialise process-shared locks");
        munmap(base, plan.size);
        memset(seg, 0, sizeof(*seg));
        seg->fd = -1;
        return -1;
    }
    return 0;
}

typedef enum { SC_MAKE_LINK, SC_MAKE_RENAME, SC_MAKE_PRIVATE } sc_file_make_mode;

/* Creates the file that becomes the segment under a new temporary name
 * beside the path (tmp, PATH_MAX bytes): its fd, or -1 with err. A random
 * part in the name: another user who can write the directory cannot take
 * the name first (O_EXCL would fail on his file). */
static int sc_file_make_temp(const sc_file_opts *o, char *tmp, char *err, size_t errlen)
{
    static unsigned counter;
    int fd, tries = 0;

    /* Repeats while the name is taken (EEXIST: a name left by a process
     * that died, or one someone chose to block): a new name each time, at
     * most 8. */
    do {
        uint32_t r = 0;
        if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
            r = (uint32_t)(uintptr_t)&r ^ (uint32_t)getpid() * 2654435761u ^ (uint32_t)tries;
        }
        if ((size_t)snprintf(tmp, PATH_MAX, "%s.%lu.%u.%08x.new", o->path, (unsigned long)getpid(),
                             __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED), r) >= PATH_MAX) {
            snprintf(err, errlen, "%s: path too long", o->path);
            return -1;
        }
        fd = open(tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, (mode_t)(o->mode & 0777));
    } while (fd < 0 && errno == EEXIST && ++tries < 8);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
    }
    return fd;
}

/* Makes a formatted segment file under a temporary name, holding its
 * exclusive flock, and links it to the path (SC_MAKE_RENAME: renames it
 * over whatever is there; SC_MAKE_PRIVATE: removes the name at once, so
 * that the file lives only as long as this process's mapping). Returns the
 * open fd and the mapping in seg; -1 with err; -2 when (link mode) the path
 * appeared meanwhile or the temporary file vanished: the caller starts
 * over. */
static int sc_file_make(sc_seg *seg, const sc_file_opts *o, sc_file_make_mode mode, char *err, size_t errlen)
{
    char tmp[PATH_MAX];
    int fd, rc;

    fd = sc_file_make_temp(o, tmp, err, errlen);
    if (fd < 0) {
        return -1;
    }
    if (mode == SC_MAKE_PRIVATE) {
        unlink(tmp);
    }
    /* The umask must not narrow (or anything widen) the configured mode;
     * a group-shared file belongs to this process's group (not to the
     * directory's, which a setgid directory would give it). */
    if (((o->mode & 0060) && fchown(fd, (uid_t)-1, getegid()) != 0) || fchmod(fd, (mode_t)(o->mode & 0777)) != 0
        || sc_file_lock(fd, LOCK_EX) != 0) {
        snprintf(err, errlen, "cannot set up %s: %s", tmp, strerror(errno));
        goto fail_unlink;
    }
    if (sc_file_format_fd(seg, fd, o, tmp, err, errlen) != 0) {
        goto fail_unlink;
    }
    if (mode == SC_MAKE_PRIVATE) {
        return 0;
    }
    if (mode == SC_MAKE_RENAME) {
        rc = rename(tmp, o->path);
    } else {
        /* No other name of the file is visible at any time: a process
         * that opens the path sees one link. Filesystems without
         * RENAME_NOREPLACE get link and unlink (two names for a moment:
         * sc_file_trust_check tells the opener to look again). */
        rc = renameat2(AT_FDCWD, tmp, AT_FDCWD, o->path, RENAME_NOREPLACE);
        if (rc != 0 && (errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP)) {
            rc = link(tmp, o->path);
            if (rc == 0 || errno == EEXIST) {
                int saved = errno;
                unlink(tmp);
                errno = saved;
            }
        } else if (rc != 0 && errno == EEXIST) {
            unlink(tmp);
            errno = EEXIST;
        }
    }
    if (rc != 0) {
        int saved = errno;
        munmap(seg->base, seg->size);
        memset(seg, 0, sizeof(*seg));
        seg->fd = -1;
        /* EEXIST: another process linked its segment first; ENOENT: our
         * temporary file was removed under us. Either way: start over. */
        if (mode == SC_MAKE_LINK && (saved == EEXIST || saved == ENOENT)) {
            close(fd);
            return -2;
        }
        snprintf(err, errlen, "cannot %s %s: %s", mode == SC_MAKE_RENAME ? "rename a new segment to"
                 : "link a new segment to", o->path, strerror(saved));
        goto fail_unlink;
    }
    return 0;

fail_unlink:
    if (mode != SC_MAKE_PRIVATE) {
        unlink(tmp);
    }
    close(fd);
    memset(seg, 0, sizeof(*seg));
    seg->fd = -1;
    return -1;
}

/* Replacing an untrusted file is serialised by an exclusive flock on a
 * lock file beside it (".<name>.lock", never removed: a lock file that
 * is removed can be locked by two processes at once, one on each inode).
 * It outlives the rename: whoever takes it next opens the path again and
 * finds the replacement. -1 with err. */
static int sc_file_replace_lock(const sc_file_opts *o, char *err, size_t errlen)
{
    char lockpath[PATH_MAX];
    const char *slash = strrchr(o->path, '/');
    struct stat st;
    int fd;

    if ((size_t)snprintf(lockpath, sizeof(lockpath), "%.*s/.%s.lock", (int)(slash - o->path), o->path, slash + 1)
        >= sizeof(lockpath)) {
        snprintf(err, errlen, "%s: path too long", o->path);
        return -1;
    }
    /* O_NONBLOCK: a FIFO another user put at the name must not block the
     * open (it is then refused as not a regular file). */
    fd = open(lockpath, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, (mode_t)(o->mode & 0777));
    if (fd < 0) {
        snprintf(err, errlen, "cannot open %s: %s", lockpath, strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0 || sc_file_trust_check(&st, lockpath, o->mode, err, errlen) != 0) {
        if (!err[0]) {
            snprintf(err, errlen, "cannot stat %s: %s", lockpath, strerror(errno));
        }
        close(fd);
        return -1;
    }
    if (st.st_uid == geteuid() && ((unsigned)st.st_mode & 0777) != (o->mode & 0777)) {
        (void)fchmod(fd, (mode_t)(o->mode & 0777));
    }
    if (sc_file_lock(fd, LOCK_EX) != 0) {
        snprintf(err, errlen, "cannot lock %s: %s", lockpath, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

/* ---- what a process may trust of a mapped body ---- */

/* The kernel's boot id: a file's pages that were never written back are
 * lost only with the kernel that cached them. "" when it cannot be read. */
static void sc_file_kernel_boot(char *out, size_t outlen)
{
    int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
    ssize_t n = -1;

    if (fd >= 0) {
        n = read(fd, out, outlen - 1);
        close(fd);
    }
    if (n <= 0) {
        n = 0;
    }
    out[n] = '\0';
    out[strcspn(out, "\n")] = '\0';
}

/* What every process checks before it uses a mapped segment whose header
 * passed sc_file_trust_header: the constants each shard keeps about
 * itself (its index and where its head and the liveness table are: a
 * wrong one sends every store and info call of that shard astray), the
 * liveness table's size, and that every lock is still a robust
 * process-shared mutex (a damaged one would make its holder's death block
 * every later process for ever). O(shards + liveness slots), no lock, no
 * write. false with why in note. */
static bool sc_file_body_sane(const sc_seg *seg, char *note, size_t notelen)
{
    const sc_header *hdr = seg->hdr;
    uint32_t i;

    if (hdr->live.nslots != SC_LIVE_SLOTS) {
        snprintf(note, notelen, "its liveness table is damaged (%u slots)", hdr->live.nslots);
        return false;
    }
    if (!sc_mutex_sane(&hdr->global_lock) || !sc_mutex_sane(&hdr->pool.lock)) {
        snprintf(note, notelen, "its global or pool lock is damaged");
        return false;
    }
    for (i = 0; i < SC_LIVE_SLOTS; i++) {
        if (!sc_mutex_sane(&hdr->live.slots[i].lock)) {
            snprintf(note, notelen, "the lock of its liveness slot %u is damaged", i);
            return false;
        }
    }
    for (i = 0; i < seg->nshards; i++) {
        const sc_shard *shard = &seg->shards[i];
        if (shard->index != i || shard->head_rel != (int64_t)((char *)&seg->heads[i] - (char *)shard)
            || shard->live_rel != (int64_t)((char *)&hdr->live - (char *)shard)) {
            snprintf(note, notelen, "the constants of its shard %u are damaged", i);
            return false;
        }
        if (!sc_mutex_sane(&shard->lock)) {
            snprintf(note, notelen, "the lock of its shard %u is damaged", i);
            return false;
        }
    }
    return true;
}

/* The first user after a restart (exclusive flock held, the body mapped):
 * whether the body may be trusted as the previous run left it. A file its
 * last user closed is trusted only if its metadata checksum still matches
 * (then everything before the data area is byte for byte what that user
 * left, with no lock held; each shard's pages are checked at its first
 * lock: sc_verify.c). A file whose
 * users stopped without closing it (killed, or stopped by php-fpm's fast
 * shutdown) is trusted only under the kernel that ran them (its page cache
 * is then what they wrote: a crash of a holder is repaired by the next
 * locker as in a running pool) and when its locks and constants pass
 * sc_file_body_sane and its shard tables sc_table_sane. false with why in
 * note. */
static bool sc_file_boot_trusted(const sc_seg *seg, const char *kboot, char *note, size_t notelen)
{
    const sc_header *hdr = seg->hdr;

    if (hdr->closed == SC_CLOSED_MARK) {
        if (sc_verify_meta_sum(seg) != hdr->sum) {
            snprintf(note, notelen, "it was changed after its last user closed it");
            return false;
        }
        return true;
    }
    if (!kboot[0] || strncmp(hdr->kernel_boot, kboot, sizeof(hdr->kernel_boot)) != 0) {
        snprintf(note, notelen, "its last users did not close it and the machine has restarted since");
        return false;
    }
    if (!sc_file_body_sane(seg, note, notelen)) {
        return false;
    }
    /* Nobody else maps it: the shard tables hold still. A shard left with
     * its window odd is repaired by its next locker, which checks its
     * table itself and empties it if that fails, or, when its check is
     * pending (sc_verify.c), checks its pages first (sc_shard.c); every
     * other table is used as it is. */
    for (uint32_t i = 0; i < seg->nshards; i++) {
        if (!(seg->heads[i].seq & 1) && !sc_table_sane(seg, &seg->heads[i].table)) {
            snprintf(note, notelen, "the table of its shard %u is damaged", i);
            return false;
        }
    }
    /* A pool writer that died mid-change (or a damaged dirty word) leaves
     * lists that cannot be followed: the pool waits for its full reset,
     * which rebuilds it from the pages in use. Otherwise its lists must be
     * whole. */
    if (hdr->pool.dirty) {
        __atomic_store_n(&seg->hdr->needs_reset, 1, __ATOMIC_RELEASE);
    } else if (!sc_alloc_pool_sane(&seg->ac)) {
        snprintf(note, notelen, "its page pool is damaged");
        return false;
    }
    return true;
}

/* ---- a restart: nobody else has the segment mapped ---- */

static void sc_file_boot_clear(sc_seg *seg, sc_file_result *res)
{
    sc_header *hdr = seg->hdr;
    uint32_t i, j;

    res->stale_locks += sc_mutex_reclaim_stale(&hdr->global_lock);
    res->stale_locks += sc_mutex_reclaim_stale(&hdr->pool.lock);
    for (i = 0; i < seg->nshards; i++) {
        sc_shard *shard = &seg->shards[i];
        res->stale_locks += sc_mutex_reclaim_stale(&shard->lock);
        for (j = 0; j < SC_PINS; j++) {
            __atomic_store_n(&shard->pins[j].owner, 0, __ATOMIC_RELAXED);
            shard->pins[j].entry_rel = 0;
        }
        for (j = 0; j < SC_RESERVATIONS; j++) {
            shard->reservations[j].hash = 0;
            shard->reservations[j].owner = 0;
        }
    }
    /* Liveness slots held by threads of the previous run: marked owner-died
     * so that the next sc_live_self or sc_live_gone takes them as free. */
    for (i = 0; i < hdr->live.nslots && i < SC_LIVE_SLOTS; i++) {
        res->stale_locks += sc_mutex_reclaim_stale(&hdr->live.slots[i].lock);
    }
    /* Nobody of the previous run holds a zero-copy value any more. */
    sc_epoch_boot(seg);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    res->booted = true;
}

/* What differs between the segment's settings and ours ("" when nothing). */
static void sc_file_compare_settings(const sc_header *hdr, const sc_file_opts *o, sc_file_result *res)
{
    if (hdr->req_size == o->size && hdr->req_shards == o->nshards && hdr->req_hint == o->entries_hint) {
        return;
    }
    res->mismatch = true;
    snprintf(res->note, sizeof(res->note),
             "%s was made with apc.shm_size=%llu, shardcache.shards=%u, apc.entries_hint=%u; this process asks "
             "for %llu, %u, %u: using the segment as it is",
             o->path, (unsigned long long)hdr->req_size, hdr->req_shards, hdr->req_hint,
             (unsigned long long)o->size, o->nshards, o->entries_hint);
}

/* ---- attach ---- */

/* A process with a segment of its own (%p): a file with no name, so that
 * nothing outlives the process; a file left at the path under this pid
 * (by a process that had the pid before) is removed, never read. */
static int sc_file_attach_private(sc_seg *seg, const sc_file_opts *o, sc_file_result *res, char *err,
                                  size_t errlen)
{
    struct stat st;

    if (lstat(o->path, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid()) {
        unlink(o->path);
    }
    if (sc_file_make(seg, o, SC_MAKE_PRIVATE, err, errlen) != 0) {
        return -1;
    }
    res->created = true;
    res->booted = true;
    seg->hdr->boots = 1;
    sc_file_lock(seg->fd, LOCK_SH);
    return 0;
}

/* The first user after a restart whose body is not to be trusted: the
 * segment starts afresh in the same file (exclusive flock held: nobody
 * else maps it), with this process's settings. fd is kept; seg is
 * remapped. -1 with err (seg unmapped, fd not closed). */
static int sc_file_reformat(sc_seg *seg, int fd, const sc_file_opts *o, char *err, size_t errlen)
{
    uint64_t boots = seg->hdr->boots;

    munmap(seg->base, seg->size);
    memset(seg, 0, sizeof(*seg));
    seg->fd = -1;
    if (ftruncate(fd, 0) != 0) {
        snprintf(err, errlen, "cannot empty %s: %s", o->path, strerror(errno));
        return -1;
    }
    if (sc_file_format_fd(seg, fd, o, o->path, err, errlen) != 0) {
        return -1;
    }
    seg->hdr->boots = boots;
    return 0;
}

/* What one look at the path came to (sc_file_attach_once and its steps). */
enum {
    SC_ATTACH_FAILED = -1,      /* err says why */
    SC_ATTACH_MAPPED = 0,       /* the segment at the path, mapped and checked */
    SC_ATTACH_MADE,             /* a new segment made and mapped (linked or renamed to the path) */
    SC_ATTACH_GO_ON,            /* a step's answer: the next step */
    SC_ATTACH_AGAIN,            /* the path changed meanwhile: look again */
    SC_ATTACH_PAUSE,            /* our file under a second name, or replaced since the open: look
                                   again after a pause (err says why, for the last look) */
    SC_ATTACH_LOCKED            /* took the replacement lock: the same look again */
};

/* Opens the path, checks the file and flocks it: exclusive when nobody
 * else has it mapped (*exclusive), else shared. SC_ATTACH_GO_ON with *fd
 * and the file's *st, still the file at the path. A path with no file is
 * made here (SC_ATTACH_MADE, or SC_ATTACH_AGAIN when another process made
 * it first: then theirs is the one to map). */
static int sc_file_attach_open(sc_seg *seg, const sc_file_opts *o, int *fd, struct stat *st, bool *exclusive,
                               char *err, size_t errlen)
{
    struct stat now;
    int made;

    *fd = open(o->path, O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (*fd < 0) {
        if (errno == ELOOP) {
            snprintf(err, errlen, "%s is a symbolic link", o->path);
            return SC_ATTACH_FAILED;
        }
        if (errno != ENOENT) {
            snprintf(err, errlen, "cannot open %s: %s", o->path, strerror(errno));
            return SC_ATTACH_FAILED;
        }
        made = sc_file_make(seg, o, SC_MAKE_LINK, err, errlen);
        return made == -2 ? SC_ATTACH_AGAIN : made == 0 ? SC_ATTACH_MADE : SC_ATTACH_FAILED;
    }
    if (fstat(*fd, st) != 0) {
        snprintf(err, errlen, "cannot stat %s: %s", o->path, strerror(errno));
        close(*fd);
        return SC_ATTACH_FAILED;
    }
    made = sc_file_trust_check(st, o->path, o->mode, err, errlen);
    if (made != 0) {
        /* -2: our file with a second name (being linked into place by
         * another process of ours: sc_file_make's link and unlink), or a
         * file replaced since the open. */
        close(*fd);
        return made == -2 ? SC_ATTACH_PAUSE : SC_ATTACH_FAILED;
    }
    if (flock(*fd, LOCK_EX | LOCK_NB) == 0) {
        *exclusive = true;
    } else if (sc_file_lock(*fd, LOCK_SH) == 0) {
        *exclusive = false;
    } else {
        snprintf(err, errlen, "cannot lock %s: %s", o->path, strerror(errno));
        close(*fd);
        return SC_ATTACH_FAILED;
    }
    /* The path may have been replaced while we waited for the lock. */
    if (lstat(o->path, &now) != 0 || now.st_ino != st->st_ino || now.st_dev != st->st_dev || fstat(*fd, st) != 0) {
        close(*fd);
        return SC_ATTACH_AGAIN;
    }
    return SC_ATTACH_GO_ON;
}

/* The first user after a restart (exclusive flock on fd, its segment
 * mapped): trusts the body or starts it afresh, counts the boot, then
 * shares the flock. */
static int sc_file_attach_boot(sc_seg *seg, int fd, const char *kboot, const sc_file_opts *o,
                               sc_file_result *res, char *err, size_t errlen)
{
    char why[sizeof(res->note)];

    SC_ASSERT(seg->hdr != NULL && seg->fd == fd);
    if (!sc_file_boot_trusted(seg, kboot, why, sizeof(why))) {
        if (sc_file_reformat(seg, fd, o, err, errlen) != 0) {
            return SC_ATTACH_FAILED;
        }
        snprintf(res->note, sizeof(res->note), "%.100s was started afresh: %.180s", o->path, why);
        res->created = true;
        res->booted = true;
    } else {
        sc_verify_boot(seg);
        sc_file_boot_clear(seg, res);
    }
    seg->hdr->boots++;
    memcpy(seg->hdr->kernel_boot, kboot, sizeof(seg->hdr->kernel_boot));
    __atomic_store_n(&seg->hdr->closed, 0, __ATOMIC_SEQ_CST);
    sc_file_lock(fd, LOCK_SH);
    sc_file_compare_settings(seg->hdr, o, res);
    return SC_ATTACH_MAPPED;
}

/* Maps the segment in fd (flocked; st: its stat) when it is to be
 * trusted: SC_ATTACH_MAPPED (seg->fd is fd), SC_ATTACH_FAILED, or
 * SC_ATTACH_GO_ON: not trusted, nothing mapped, res->note says why. fd is
 * never closed here. */
static int sc_file_attach_map(sc_seg *seg, int fd, const struct stat *st, bool exclusive, const char *kboot,
                              const sc_file_opts *o, sc_file_result *res, char *err, size_t errlen)
{
    sc_header hdr;
    void *base;

    if ((uint64_t)st->st_size < sizeof(sc_header)) {
        snprintf(res->note, sizeof(res->note), "it is too short (%llu bytes)", (unsigned long long)st->st_size);
        return SC_ATTACH_GO_ON;
    }
    if (pread(fd, &hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr)) {
        snprintf(res->note, sizeof(res->note), "its header cannot be read");
        return SC_ATTACH_GO_ON;
    }
    if (!sc_file_trust_header(&hdr, (uint64_t)st->st_size, o->version, res->note, sizeof(res->note))) {
        return SC_ATTACH_GO_ON;
    }
    base = sc_file_mmap((size_t)st->st_size, fd);
    if (base == MAP_FAILED) {
        snprintf(err, errlen, "cannot map %s: %s", o->path, strerror(errno));
        return SC_ATTACH_FAILED;
    }
    seg->fd = fd;
    seg->named = true;
    seg->opener = (int)getpid();
    sc_layout_bind(seg, base);
    if (exclusive) {
        return sc_file_attach_boot(seg, fd, kboot, o, res, err, errlen);
    }
    /* A segment others map: what a live pool must trust is its peers, who
     * change the body under its locks; what a mapping process can check
     * cheaply is checked. */
    if (sc_file_body_sane(seg, res->note, sizeof(res->note))) {
        if (__atomic_load_n(&seg->hdr->closed, __ATOMIC_RELAXED) != 0) {
            __atomic_store_n(&seg->hdr->closed, 0, __ATOMIC_SEQ_CST);
        }
        sc_file_compare_settings(seg->hdr, o, res);
        return SC_ATTACH_MAPPED;
    }
    munmap(seg->base, seg->size);
    memset(seg, 0, sizeof(*seg));
    seg->fd = -1;
    return SC_ATTACH_GO_ON;
}

/* The file in fd (flocked) is not to be trusted (res->note says why).
 * Replacing is serialised: without the replacement lock (*lockfd < 0),
 * takes it and answers SC_ATTACH_LOCKED, to look at the path again
 * (another process may have replaced it meanwhile: then its segment is
 * the one to map). With it, makes a new segment and renames it to the
 * path (SC_ATTACH_MADE). Closes fd. */
static int sc_file_attach_replace(sc_seg *seg, int fd, const sc_file_opts *o, int *lockfd, sc_file_result *res,
                                  char *err, size_t errlen)
{
    char why[sizeof(res->note)];

    if (*lockfd < 0) {
        close(fd);
        res->note[0] = '\0';
        *lockfd = sc_file_replace_lock(o, err, errlen);
        return *lockfd < 0 ? SC_ATTACH_FAILED : SC_ATTACH_LOCKED;
    }
    snprintf(why, sizeof(why), "%s", res->note);
    /* Keep the old file's lock until the new file is in place: whoever
     * waits for it then finds the path changed. */
    if (sc_file_make(seg, o, SC_MAKE_RENAME, err, errlen) != 0) {
        close(fd);
        return SC_ATTACH_FAILED;
    }
    close(fd);
    snprintf(res->note, sizeof(res->note), "%.100s was replaced by a new segment: %.180s", o->path, why);
    res->replaced = true;
    return SC_ATTACH_MADE;
}

/* One look at the path: open it (or make it), map it if trusted, else
 * replace it. kboot: this boot's id; *lockfd: the replacement lock, once
 * taken (kept until sc_file_attach returns). */
static int sc_file_attach_once(sc_seg *seg, const sc_file_opts *o, const char *kboot, int *lockfd,
                               sc_file_result *res, char *err, size_t errlen)
{
    struct stat st;
    bool exclusive = false;
    int fd, r = sc_file_attach_open(seg, o, &fd, &st, &exclusive, err, errlen);

    if (r != SC_ATTACH_GO_ON) {
        return r;
    }
    r = sc_file_attach_map(seg, fd, &st, exclusive, kboot, o, res, err, errlen);
    if (r == SC_ATTACH_FAILED) {
        close(fd);
    }
    if (r != SC_ATTACH_GO_ON) {
        return r;
    }
    return sc_file_attach_replace(seg, fd, o, lockfd, res, err, errlen);
}

int sc_file_attach(sc_seg *seg, const sc_file_opts *o, sc_file_result *res, char *err, size_t errlen)
{
    char kboot[sizeof(((sc_header *)0)->kernel_boot)];
    int looks = 0, lockfd = -1, r;

    memset(seg, 0, sizeof(*seg));
    seg->fd = -1;
    memset(res, 0, sizeof(*res));
    if (errlen) {
        err[0] = '\0';
    }
    sc_alloc_init_process();
    if (!o->path || o->path[0] != '/') {
        snprintf(err, errlen, "shardcache.segment must be an absolute path");
        return -1;
    }
    if (o->mode != 0600 && o->mode != 0660) {
        snprintf(err, errlen, "shardcache.segment_mode must be 0600 or 0660");
        return -1;
    }
    if (sc_file_trust_dirs(o->path, err, errlen) != 0) {
        return -1;
    }
    if (o->per_process) {
        return sc_file_attach_private(seg, o, res, err, errlen);
    }
    sc_file_kernel_boot(kboot, sizeof(kboot));
    /* Repeats while the path changes under this process (other processes
     * make, link or replace the file meanwhile): at most SC_ATTACH_TRIES
     * looks, a pause of 1 ms after a look that found a file being linked
     * into place. The look after this process took the replacement lock
     * is the same look again and not counted; the lock is kept, so that
     * happens once. */
    for (;;) {
        r = sc_file_attach_once(seg, o, kboot, &lockfd, res, err, errlen);
        if (r == SC_ATTACH_LOCKED) {
            continue;
        }
        if (r != SC_ATTACH_AGAIN && r != SC_ATTACH_PAUSE) {
            break;
        }
        if (++looks == SC_ATTACH_TRIES) {
            if (r == SC_ATTACH_AGAIN) {
                snprintf(err, errlen, "%s kept changing while it was being opened", o->path);
            }
            r = SC_ATTACH_FAILED;
            break;
        }
        if (r == SC_ATTACH_PAUSE) {
            struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
            err[0] = '\0';
        }
    }
    if (r == SC_ATTACH_MADE) {
        res->created = true;
        res->booted = true;
        seg->hdr->boots = 1;
        memcpy(seg->hdr->kernel_boot, kboot, sizeof(kboot));
        sc_file_lock(seg->fd, LOCK_SH);
    }
    if (lockfd >= 0) {
        close(lockfd);
    }
    return r == SC_ATTACH_FAILED ? -1 : 0;
}

void sc_file_detach(sc_seg *seg)
{
    struct stat st;

    if (seg->named && seg->hdr && seg->fd >= 0) {
        sc_header *hdr = seg->hdr;
        /* Nothing of this process is used after this. */
        sc_live_leave(&hdr->live);
        if (seg->opener == (int)getpid() && fstat(seg->fd, &st) == 0 && st.st_nlink > 0
            && flock(seg->fd, LOCK_EX | LOCK_NB) == 0) {
            /* The last user: nobody else maps the file. Closed only when
             * every shard could be given its checksum. */
            if (sc_verify_close(seg)) {
                hdr->sum = sc_verify_meta_sum(seg);
                __atomic_store_n(&hdr->closed, SC_CLOSED_MARK, __ATOMIC_SEQ_CST);
            } else if (__atomic_load_n(&hdr->closed, __ATOMIC_RELAXED) != 0) {
                __atomic_store_n(&hdr->closed, 0, __ATOMIC_SEQ_CST);
            }
            sc_file_lock(seg->fd, LOCK_SH);
        } else if (__atomic_load_n(&hdr->closed, __ATOMIC_RELAXED) != 0) {
            __atomic_store_n(&hdr->closed, 0, __ATOMIC_SEQ_CST);
        }
    }
    sc_layout_destroy(seg);
}
