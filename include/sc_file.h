/*
 * sc_file.h - named segments: a segment kept in a file (shardcache.segment)
 * that unrelated processes map, and that outlives them. See src/sc_file.c.
 *
 * Owns: the segment file: making, checking, mapping, clearing at boot.
 * Locks: flocks on the file only (shared while mapped, exclusive while
 * making or clearing).
 * Death: a temporary file nobody maps, or a clearing the next process
 * redoes (see src/sc_file.c).
 */
#ifndef SC_FILE_H
#define SC_FILE_H

#include "sc_layout.h"

typedef struct sc_file_opts {
    const char *path;        /* absolute path of the file */
    unsigned mode;           /* 0600 or 0660: permission bits of a new file; wider bits are refused */
    const char *version;     /* software version written into a new segment and required of an old one */
    uint64_t size;           /* apc.shm_size for a new segment */
    uint32_t nshards;        /* shardcache.shards (resolved, not 0) for a new segment */
    uint32_t entries_hint;   /* apc.entries_hint for a new segment */
    bool per_process;        /* the path names this process only (%p): a private file, never left at the path */
} sc_file_opts;

typedef struct sc_file_result {
    bool created;            /* this process made the segment (new or replacing one) */
    bool replaced;           /* an untrusted segment was at the path and was replaced */
    bool booted;             /* no other process had it mapped: per-process state was cleared */
    bool mismatch;           /* the segment was made with other settings (note says which) */
    uint32_t stale_locks;    /* locks a vanished holder left without the kernel's owner-died mark */
    char note[320];          /* why it was replaced, or what differs; "" when nothing */
} sc_file_result;

/* Opens or creates the named segment and maps it into seg. Returns 0, or -1
 * with the reason in err (nothing is mapped and no file is kept open then).
 * Refused: a directory above the path owned by another user than root or
 * this one, or writable by others (by a group other than this process's)
 * without the sticky bit; a file that is a symbolic link, not a regular
 * file, has more than one link, is owned by another user than this one or
 * root, has permission bits beyond opts->mode, or is group-shared with
 * another group than this process's. */
int sc_file_attach(sc_seg *seg, const sc_file_opts *opts, sc_file_result *res, char *err,
                      size_t errlen);

/* Unmaps a named segment (sc_layout_destroy). The last user (it gets the
 * file's exclusive flock, and opened the file itself: not a forked child)
 * first gives every shard it used the checksum of its pages, stores the
 * metadata's checksum and marks the file closed (sc_verify_close), so
 * that the next first user may trust the metadata at once and each
 * shard once checked; any other detacher marks it not closed. An
 * anonymous segment is only unmapped. */
void sc_file_detach(sc_seg *seg);

/* Whether a shardcache.segment value names a file per process ("%p"). */
bool sc_file_per_process(const char *in);

/* Expands a shardcache.segment value: "%u" -> the effective user's name (or
 * uid when it has none), "%U" -> the effective uid, "%p" -> the pid (a
 * segment per process: for test runs), "%%" -> "%". -1 when the result
 * does not fit or another "%x" is used. */
int sc_file_expand(const char *in, char *out, size_t outlen);

#endif
