/*
 * sc_common.h - small definitions shared by every part of the shardcache core.
 *
 * Everything that lives in the shared segment refers to other shared things by
 * byte offsets from the segment base (sc_off), never by pointers, so that any
 * offset read from shared memory can be bounds-checked before it is used
 * (sc_seg_ptr in sc_seg.h). Offset 0 is the segment header, so 0 also
 * serves as "no object".
 *
 * Owns: nothing shared (constants, sc_off, sc_status, hashing helpers).
 * Locks: none.
 * Death: nothing to repair.
 */
#ifndef SC_COMMON_H
#define SC_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define SC_CACHELINE 64
#define SC_NONE UINT32_MAX

#define SC_LIKELY(x) __builtin_expect(!!(x), 1)
#define SC_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* SC_ASSERT(cond): a rule the comments state (a lock held, a window open),
 * checked when the core is built with -DSC_DEBUG (scripts/build.sh --debug,
 * tests/asan/run.sh, fuzz/build.sh): a false cond prints the file, line,
 * function and cond to stderr and aborts. Without SC_DEBUG it is
 * ((void)0): cond is not compiled. The checkers it calls are in sc_lock.h
 * (sc_mutex_held_by_me) and sc_layout.h (sc_layout_shard_held ...);
 * include/README.md, "Rules that run". */
#ifdef SC_DEBUG
#include <stdio.h>
#include <stdlib.h>
static inline __attribute__((noreturn, cold)) void sc_assert_fail(const char *cond, const char *file, int line,
                                                                  const char *func)
{
    fprintf(stderr, "shardcache: %s:%d: %s: assertion failed: %s\n", file, line, func, cond);
    fflush(stderr);
    abort();
}
#define SC_ASSERT(cond) (SC_LIKELY(cond) ? (void)0 : sc_assert_fail(#cond, __FILE__, __LINE__, __func__))
#else
#define SC_ASSERT(cond) ((void)0)
#endif

#define SC_ALIGN_UP(x, a) (((x) + ((a) - 1)) & ~((uint64_t)(a) - 1))

typedef uint64_t sc_off;

/* Result of a cache operation, mapped to PHP semantics by the glue. */
typedef enum sc_status {
    SC_OK = 0,
    SC_NOTFOUND,   /* no live entry for the key */
    SC_EXISTS,     /* add: a live entry already exists */
    SC_NOMEM,      /* nothing could be evicted to make room */
    SC_TOOBIG,     /* the entry can never fit in this segment */
    SC_BADTYPE,    /* inc/dec/cas on a value that is not an int */
    SC_SLAM        /* apc.slam_defense: another process stored the key this second */
} sc_status;

/*
 * Mixes PHP's cached string hash (DJBX33A, which collides trivially and has
 * weak low bits) into a 64-bit value whose every bit depends on every input
 * bit (the fmix64 finaliser of MurmurHash3, a public-domain constant pair).
 */
static inline uint64_t sc_hash_mix(uint64_t h)
{
    h ^= h >> 33;
    h *= UINT64_C(0xff51afd7ed558ccd);
    h ^= h >> 33;
    h *= UINT64_C(0xc4ceb9fe1a85ec53);
    h ^= h >> 33;
    return h;
}

/* The inverse of sc_hash_mix (each step of the mix is a bijection of the
 * 64-bit words): sc_hash_unmix(sc_hash_mix(h)) == h. The glue uses it to
 * tell which owner an entry's hash was mixed for (php/owner.c). */
static inline uint64_t sc_hash_unmix(uint64_t h)
{
    h ^= h >> 33;
    h *= UINT64_C(0x9cb4b2f8129337db);
    h ^= h >> 33;
    h *= UINT64_C(0x4f74430c22a54005);
    h ^= h >> 33;
    return h;
}

static inline uint64_t sc_next_pow2(uint64_t v)
{
    if (v <= 1) {
        return 1;
    }
    return UINT64_C(1) << (64 - __builtin_clzll(v - 1));
}

static inline bool sc_is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

static inline void sc_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#endif
