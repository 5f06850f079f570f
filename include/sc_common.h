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
#include <string.h>

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
 * Mixes a 64-bit value into one whose every bit depends on every input
 * bit (the fmix64 finaliser of MurmurHash3, a public-domain constant pair).
 * Unkeyed: it spreads bits, it does not stop chosen collisions (equal
 * inputs give equal outputs); keys are hashed by sc_hash_keyed.
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

/*
 * The keyed hash of a key's bytes (sc_cache_key_hash): a secret of the
 * segment, drawn at random when it is made (sc_header.hash_key), enters
 * every step, so that nobody who lacks it can pick keys whose hashes
 * collide (PHP's own hash of a key can be made to collide at will: "Ez"
 * and "FY").
 * Each step multiplies two 64-bit words, each the input XOR a secret word,
 * and folds the 128-bit product into 64 bits (high XOR low): without the
 * secret the product of a chosen input is unknown, and no way is known to
 * make two inputs collide but chance (it is fast, not a proven
 * pseudo-random function as SipHash is). Keys of up to 16 bytes take one
 * multiply, longer ones one per 16 bytes, each chained to the previous
 * result (so blocks cannot be moved or swapped); one more finishes.
 * Loads are native-endian: the segment's layout id names the byte order
 * (sc_layout_id). Cost: about 20 instructions for a key of up to 16
 * bytes (a SipHash of it would take about 90).
 */
static inline uint64_t sc_hash_fold(uint64_t a, uint64_t b)
{
    __uint128_t p = (__uint128_t)a * b;

    return (uint64_t)p ^ (uint64_t)(p >> 64);
}

static inline uint64_t sc_hash_load8(const char *p)
{
    uint64_t v;

    memcpy(&v, p, 8);
    return v;
}

static inline uint64_t sc_hash_load4(const char *p)
{
    uint32_t v;

    memcpy(&v, p, 4);
    return v;
}

static inline __attribute__((always_inline)) uint64_t sc_hash_keyed(const uint64_t k[4], const char *s, uint32_t len)
{
    uint64_t a, b, acc = k[0] ^ ((uint64_t)len * UINT64_C(0x9e3779b97f4a7c15));

    if (SC_LIKELY(len <= 16)) {
        if (len >= 8) {
            a = sc_hash_load8(s);
            b = sc_hash_load8(s + len - 8);
        } else if (len >= 4) {
            a = sc_hash_load4(s);
            b = sc_hash_load4(s + len - 4);
        } else if (len > 0) {
            a = ((uint64_t)(uint8_t)s[0] << 16) | ((uint64_t)(uint8_t)s[len >> 1] << 8) | (uint8_t)s[len - 1];
            b = 0;
        } else {
            a = b = 0;
        }
    } else {
        /* Every 16-byte block but the last, then the last 16 bytes (which
         * may overlap the block before: the length tells them apart). */
        uint32_t i;
        for (i = 0; i + 16 < len; i += 16) {
            acc = sc_hash_fold(sc_hash_load8(s + i) ^ k[1], sc_hash_load8(s + i + 8) ^ k[2] ^ acc);
        }
        a = sc_hash_load8(s + len - 16);
        b = sc_hash_load8(s + len - 8);
    }
    return sc_hash_fold(sc_hash_fold(a ^ k[1], b ^ k[2] ^ acc) ^ k[3], acc ^ k[0] ^ UINT64_C(0x2d358dccaa6c78a5));
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
