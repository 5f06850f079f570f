/*
 * sc_file_trust.h - whether a named segment's file may be used: its
 * directories, the file itself and its header. See src/sc_file_trust.c.
 *
 * Owns: nothing (checks only: stat calls and reads of a header copy).
 * Locks: none.
 * Death: nothing to repair.
 */
#ifndef SC_FILE_TRUST_H
#define SC_FILE_TRUST_H

#include <sys/stat.h>
#include "sc_layout.h"

/* 0 when this process may use the file st (fstat of the open path); -1
 * with the reason in err; -2 when the caller may look again (a second
 * name of a moment, or a file replaced since it was opened). */
int sc_file_trust_check(const struct stat *st, const char *path, unsigned mode, char *err, size_t errlen);

/* 0 when every directory from / down to path's is safe from other users;
 * -1 with the reason in err. */
int sc_file_trust_dirs(const char *path, char *err, size_t errlen);

/* Whether the header copy hdr, of a file of file_size bytes, is a segment
 * this build (version) may use as it is; on false, why is in note. */
bool sc_file_trust_header(const sc_header *hdr, uint64_t file_size, const char *version, char *note,
                          size_t notelen);

#endif
