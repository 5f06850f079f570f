/*
 * sc_file_trust.c - the trust checks of a named segment (sc_file.c): the
 * directories above its path, the file at the path (owner, links, mode,
 * group), and its header (magic, format, layout, version, geometry). A
 * file that fails is never mapped or read further.
 *
 * Owns: nothing: it reads stat results and a copy of a header, and writes
 * only the caller's err or note.
 * Locks: none (the file's flocks are sc_file.c's).
 * Death: nothing shared is written here: nothing to repair.
 *
 * Design: docs/internals.md#sc_file
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sc_file_trust.h"

/* Why a file at a segment's path (fstat of the open fd) may not be used by
 * this process, or NULL when it may. A segment is trusted only if its
 * owner is trusted: this process's user or root (a file another user made
 * could be read and written by him through his own mapping). It must be a
 * regular file with one name (another name elsewhere could be another
 * user's handle on it), no permission bit beyond mode, and, when its group
 * may use it (mode 0660), this process's group: members of any other
 * group are not the ones shardcache.segment_mode shares with. */
static const char *sc_file_trust_why(const struct stat *st, unsigned mode)
{
    unsigned have = (unsigned)st->st_mode & 07777;

    if (!S_ISREG(st->st_mode)) {
        return "not a regular file";
    }
    if (st->st_uid != geteuid() && st->st_uid != 0) {
        return "owner";
    }
    if (st->st_nlink != 1) {
        return "links";
    }
    if (have & ~mode) {
        return "mode";
    }
    if ((have & 0060) && st->st_gid != getegid()) {
        return "group";
    }
    return NULL;
}

/* 0 when this process may use the file; -1 with the reason in err; -2
 * when the only fault is a second name on a file of this user, as there
 * is for a moment while a segment is linked into place, or no name at
 * all, as for a file replaced since it was opened (the caller may look
 * again). */
int sc_file_trust_check(const struct stat *st, const char *path, unsigned mode, char *err, size_t errlen)
{
    const char *why = sc_file_trust_why(st, mode);

    if (!why) {
        return 0;
    }
    if (strcmp(why, "owner") == 0) {
        snprintf(err, errlen, "%s is owned by uid %lu, not by this process's user (uid %lu) or root", path,
                 (unsigned long)st->st_uid, (unsigned long)geteuid());
    } else if (strcmp(why, "links") == 0) {
        snprintf(err, errlen, "%s has %lu hard links (a segment has one)", path, (unsigned long)st->st_nlink);
        /* No link: the file was renamed over (replaced) after this
         * process opened the path; the path names another file now. */
        return st->st_nlink == 0 || (st->st_uid == geteuid() && st->st_nlink == 2) ? -2 : -1;
    } else if (strcmp(why, "mode") == 0) {
        snprintf(err, errlen, "%s has mode %04o, wider than shardcache.segment_mode %04o", path,
                 (unsigned)st->st_mode & 07777, mode);
    } else if (strcmp(why, "group") == 0) {
        snprintf(err, errlen, "%s is shared with group %lu, not with this process's group (gid %lu)", path,
                 (unsigned long)st->st_gid, (unsigned long)getegid());
    } else {
        snprintf(err, errlen, "%s is %s", path, why);
    }
    return -1;
}

/* The directories from / down to the one holding path (symbolic links
 * resolved) must be owned by root or this process's user, and writable by
 * nobody else unless sticky (group-writable is allowed for this process's
 * group): whoever may replace names in one of them may take the segment's
 * path away (the file itself is checked after it is opened; this check
 * makes a directory where other users can do that an error at startup,
 * not a surprise later). 0, or -1 with err. */
int sc_file_trust_dirs(const char *path, char *err, size_t errlen)
{
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(path, '/');
    size_t n = (size_t)(slash - path), i;

    if (n == 0) {
        n = 1; /* the root directory */
    }
    if (n >= sizeof(dir)) {
        snprintf(err, errlen, "%s: path too long", path);
        return -1;
    }
    memcpy(dir, path, n);
    dir[n] = '\0';
    if (!realpath(dir, real)) {
        snprintf(err, errlen, "cannot use the directory of %s: %s", path, strerror(errno));
        return -1;
    }
    n = strlen(real);
    for (i = 0; i <= n; i++) {
        struct stat st;
        const char *at = "/";
        char c = real[i];

        if (i > 0) {
            if (c != '/' && c != '\0') {
                continue;
            }
            real[i] = '\0';
            at = real;
        }
        if (stat(at, &st) != 0) {
            snprintf(err, errlen, "cannot use the directory %s: %s", at, strerror(errno));
            return -1;
        }
        if (st.st_uid != 0 && st.st_uid != geteuid()) {
            snprintf(err, errlen, "the directory %s is owned by uid %lu, not by root or this process's user "
                     "(uid %lu): its owner could take the segment's path away", at, (unsigned long)st.st_uid,
                     (unsigned long)geteuid());
            return -1;
        }
        if (!(st.st_mode & S_ISVTX)
            && ((st.st_mode & S_IWOTH) || ((st.st_mode & S_IWGRP) && st.st_gid != getegid()))) {
            snprintf(err, errlen, "the directory %s is writable by other users (mode %04o) and not sticky: they "
                     "could replace the segment", at, (unsigned)st.st_mode & 07777);
            return -1;
        }
        if (i > 0) {
            real[i] = c;
        }
    }
    return 0;
}

/* Whether the header at hdr (file_size bytes in the file, at least
 * sizeof(sc_header)) is a segment this build may use as it is. On false,
 * why is in note. */
bool sc_file_trust_header(const sc_header *hdr, uint64_t file_size, const char *version, char *note,
                          size_t notelen)
{
    sc_layout_plan plan;
    char perr[128];

    if (hdr->magic != SC_MAGIC) {
        snprintf(note, notelen, "it is not a shardcache segment, or was made on a machine of another byte order");
        return false;
    }
    if (hdr->format != SC_FORMAT || hdr->header_bytes != sizeof(sc_header) || hdr->layout != sc_layout_id()) {
        snprintf(note, notelen, "it has another layout (format %u, layout %016llx; this build: format %u, layout %016llx)",
                 hdr->format, (unsigned long long)hdr->layout, (unsigned)SC_FORMAT,
                 (unsigned long long)sc_layout_id());
        return false;
    }
    if (strncmp(hdr->version, version ? version : "", SC_VERSION_LEN) != 0) {
        snprintf(note, notelen, "it was made by shardcache %.*s (this is %s)", SC_VERSION_LEN, hdr->version,
                 version ? version : "");
        return false;
    }
    if (hdr->size != file_size || hdr->nshards == 0
        || sc_layout_plan_make(&plan, hdr->size, hdr->req_shards, hdr->req_hint, perr, sizeof(perr)) != 0
        || plan.nshards != hdr->nshards || plan.npages != hdr->npages || plan.heads_off != hdr->heads_off
        || plan.shards_off != hdr->shards_off || plan.pages_off != hdr->pages_off
        || plan.data_off != hdr->data_off || plan.initial_capacity != hdr->initial_capacity) {
        snprintf(note, notelen, "its geometry is inconsistent (size %llu, file %llu bytes)",
                 (unsigned long long)hdr->size, (unsigned long long)file_size);
        return false;
    }
    return true;
}
