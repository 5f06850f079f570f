/*
 * sc_cache_seg.c - what the glue may know of the mapping behind an
 * sc_cache: its size, whether it is a named segment file and how many
 * times that file was booted, and the kernel's advice on its pages; and
 * the one thing the glue tells the handle, how to read an entry's owner.
 * The glue reads no field of the segment itself.
 *
 * Owns: nothing shared; the advice on this process's mapping (madvise),
 * and the handle's owner_of (process memory, set once mapped).
 * Locks: none. The size and named flag are this process's (sc_seg), set
 * when it maps the segment; hdr->boots changes only under the file's
 * exclusive flock, while no other process maps the file (sc_layout.h), so
 * a process that maps it reads it with no lock.
 * Death: nothing to undo: reads, and advice that dies with the mapping.
 */
#include <sys/mman.h>
#include "sc_cache.h"

uint64_t sc_cache_seg_size(const sc_cache *c)
{
    return c->seg.base ? c->seg.size : 0;
}

bool sc_cache_seg_named(const sc_cache *c)
{
    return c->seg.base && c->seg.named;
}

uint64_t sc_cache_seg_boots(const sc_cache *c)
{
    return sc_cache_seg_named(c) ? c->seg.hdr->boots : 0;
}

void sc_cache_seg_advise_hugepages(sc_cache *c)
{
#ifdef MADV_HUGEPAGE
    if (c->seg.base) {
        (void)madvise(c->seg.base, (size_t)c->seg.size, MADV_HUGEPAGE);
    }
#else
    (void)c;
#endif
}

void sc_cache_seg_owners(sc_cache *c, sc_fair_owner_fn owner_of)
{
    c->seg.owner_of = owner_of;
}
