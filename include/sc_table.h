/*
 * sc_table.h - the entry format (sc_entry, sc_chunk) and the per-shard
 * open-addressing table: lookup, slot changes, rebuild. See src/sc_table.c
 * for the layout and invariants.
 *
 * Owns: the layout of entries and of table memory; no state of its own.
 * Locks: written under the shard's REPAIR lock (inside the odd window when
 * readers can reach the change), read with no lock by optimistic readers;
 * the field blocks below say which field is written how.
 * Death: see src/sc_table.c (the next locker repairs the shard).
 */
#ifndef SC_TABLE_H
#define SC_TABLE_H

#include "sc_common.h"
#include "sc_alloc.h"
#include "sc_seg.h"
#include <string.h>

/* Tag bytes: one per slot. */
#define SC_TAG_EMPTY 0x00
#define SC_TAG_TOMB 0x01
#define SC_TAG_FULL 0x80       /* | 7 bits of the hash */

static inline uint8_t sc_table_tag_of(uint64_t hash)
{
    return (uint8_t)(SC_TAG_FULL | (hash >> 57));
}

/* An entry: header, then the key bytes, then the value bytes (or, with
 * SC_ENTRY_CHAINED, a chunk list: sc_entry.c). Allocated from its shard's
 * slabs and filled under the shard's REPAIR lock before any table refers to
 * it; freed under that lock after no table does. Once published:
 *   hash, key_len, val_len, vtype, ttl, mem_size, the key: never written
 *       again (ttl: except by sc_pin_settle, and between 0 and
 *       SC_TTL_GONE by a lockless delete or store under the entry's
 *       version, below); read with no lock by optimistic readers
 *       (bounds-checked, trusted once the shard's seq confirms).
 *   ctime, stamp, the value bytes (and scalar, nhits, atime_after,
 *       mtime_after, besides their writers below): rewritten in place by a
 *       store of the same type and length, under the shard's window
 *       (sc_inplace.c, scalars) or under the entry's version (ver below,
 *       sc_lockless.c).
 *   scalar (SC_V_LONG): changed in place by apcu_inc/dec/cas with one
 *       atomic read-modify-write, under a pin (no lock) or under the
 *       NO_REPAIR lock (sc_update.c); read atomically with no lock.
 *   mtime_after: relaxed atomic store by those same updaters; relaxed
 *       atomic load by anybody.
 *   nhits, atime_after, flags & SC_ENTRY_REFERENCED: the sampled hit, one
 *       fetch in SC_HIT_SAMPLE, under the shard's NO_REPAIR lock taken with
 *       trylock (sc_cache_record_hit); REFERENCED is cleared by the CLOCK hand
 *       under the REPAIR lock (sc_evict.c). Read under either lock mode.
 *   flags & (SC_ENTRY_CHAINED | SC_ENTRY_LANE_MASK | SC_ENTRY_HOMED): set
 *       before publication, never changed; read (relaxed atomic) with no
 *       lock.
 *   ttl, when a dead lockless writer's entry is settled: inside the
 *       shard's window with every pin drained (sc_pin_settle).
 *   ver: the entry's own sequence counter; odd while a writer
 *       that holds no shard lock rewrites the entry (sc_lockless.c).
 *       0 when the entry is made. Changed only by: a lockless store or
 *       delete (compare-and-swap even -> odd under a pin, then a release
 *       store of the next even value); a writer inside the shard's odd
 *       window (sc_inplace.c, or sc_pin_settle after a lockless writer
 *       died: every pin drained, so no lockless writer is active). A
 *       lockless store rewrites only the value bytes (same length), scalar,
 *       ctime, mtime_after, atime_after, nhits, stamp and ttl (SC_TTL_GONE
 *       -> 0), of entries whose ttl is 0 or SC_TTL_GONE; a lockless delete
 *       only ttl (0 -> SC_TTL_GONE); never vtype, flags, val_len, mem_size
 *       or the key: readers that need only those (apcu_inc's type check,
 *       the allocator) need no version check, and readers of ttl alone
 *       (exists, the expiry checks) read one aligned word: the key is
 *       there or not at that moment.
 *       Readers of the rest (fetch, snapshots) read ver before and after
 *       (sc_table_ever_begin / sc_table_ever_valid), with the stamp as a guard
 *       against the 16-bit counter wrapping (see sc_table_ever_valid).
 *   Retired (a zero-copy entry unlinked while readers may hold its value:
 *       sc_epoch.c): no table refers to it; it waits on its shard's retire
 *       list, whose fields are under the shard's REPAIR lock. Its stamp is
 *       then the retirement epoch and its scalar the offset of the next
 *       retired entry (0 = last), both written by sc_epoch_release_entry;
 *       the value bytes stay as they were for the readers that hold them. */
typedef struct sc_entry {
    uint64_t hash;        /* hash of the key (sc_cache_key_hash) */
    uint32_t key_len;
    uint32_t val_len;     /* values of 4 GiB or more are refused (SC_TOOBIG) */
    uint8_t vtype;        /* sc_vtype of the value */
    uint8_t flags;        /* SC_ENTRY_* */
    uint16_t ver;         /* entry version: odd while being rewritten (above) */
    uint32_t ttl;         /* seconds after ctime the entry expires; 0 = never;
                             SC_TTL_EXPIRED | n: stored already expired (ttl -n) */
    int64_t scalar;       /* int value or double bits for scalar vtypes;
                             retired: the next retired entry (above) */
    int64_t ctime;        /* Unix time the value was stored */
    uint32_t mtime_after; /* last modification: seconds after ctime
                             (sc_table_entry_mtime) */
    uint32_t atime_after; /* last access recorded by a writer: seconds after
                             ctime (sc_table_entry_atime) */
    uint32_t nhits;       /* hits recorded by writers (sampled) */
    uint32_t mem_size;    /* bytes allocated for the entry, saturating at
                             UINT32_MAX (sc_snapshot.c then derives it) */
    uint64_t stamp;       /* when it was stored: CLOCK_MONOTONIC_COARSE ns,
                             strictly increasing per thread and per entry
                             (sc_entry.c); orders
                             APCUIterator's walk across shards; retired:
                             the retirement epoch (above) */
    /* key bytes, then value bytes */
} sc_entry;

/* The header stays at 64 bytes (one cache line before the key): the two
 * later times are kept as offsets from ctime. */
_Static_assert(sizeof(sc_entry) == 64, "sc_entry header must stay one cache line");

/* Seconds from the entry's ctime to now, as stored in mtime_after and
 * atime_after: 0 when now is earlier (apc.use_request_time), saturating. */
static inline uint32_t sc_table_entry_after(const sc_entry *e, int64_t now)
{
    int64_t d = now - e->ctime;
    return d <= 0 ? 0 : (d >= (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)d);
}

static inline int64_t sc_table_entry_mtime(const sc_entry *e)
{
    return e->ctime + (int64_t)__atomic_load_n(&e->mtime_after, __ATOMIC_RELAXED);
}

static inline int64_t sc_table_entry_atime(const sc_entry *e)
{
    return e->ctime + (int64_t)e->atime_after;
}

/* Entry ttls: 0 never expires, 1..SC_TTL_MAX seconds after ctime. A store
 * with a negative ttl -n keeps an entry that is expired from the start, as
 * APCu does (it is counted, listed by the info functions and deletable, but
 * never fetched): its ttl is SC_TTL_EXPIRED | n. */
#define SC_TTL_MAX UINT32_C(0x7fffffff)
#define SC_TTL_EXPIRED UINT32_C(0x80000000)
/* The ttl of an entry whose key was deleted without the shard's lock
 * (sc_lockless.c): the key is gone - expired from the start, and, unlike
 * entries stored already expired (SC_TTL_EXPIRED | n with n >= 1), hidden
 * from the info functions too - but the entry stays in its slot with its
 * memory, so that a store of the same key with a value of the same type
 * and length brings it back without the lock. Removed like an expired
 * entry (expiry, eviction, a store or delete of its key under the lock),
 * and before a table grows (sc_resize.c). */
#define SC_TTL_GONE SC_TTL_EXPIRED
/* A "now" that no entry is expired at (the info functions list them all,
 * except those whose key is gone: SC_TTL_GONE). */
#define SC_ANY_TIME INT64_MIN

/* The signed ttl an entry was stored with. */
static inline int64_t sc_table_ttl_signed(uint32_t ttl)
{
    return (ttl & SC_TTL_EXPIRED) ? -(int64_t)(ttl & SC_TTL_MAX) : (int64_t)ttl;
}

/* Set when a sampled hit was recorded; cleared by the CLOCK hand. */
#define SC_ENTRY_REFERENCED 0x01
/* Set on entries whose value lives in separate page runs (chunks, made
 * and freed by sc_entry.c): the value bytes are then an array of sc_chunk. */
#define SC_ENTRY_CHAINED 0x02
/* The allocation lane (sc_pin_lane, mod SC_ALLOC_LANES) of the store
 * that made the entry, in bits 3-5: set before publication (sc_entry.c),
 * never changed. A lockless store (sc_lockless.c) rewrites only the
 * entries of its own lane, or homed ones: the entries of one lane sit in
 * that lane's slabs, so two processes that store their own keys write
 * lines of their own, never a line that also holds the other's entry. */
#define SC_ENTRY_LANE_SHIFT 3
#define SC_ENTRY_LANE_MASK 0x38
/* Set before publication on an entry made by a store that replaced an
 * entry of another lane (sc_cache_store): its key was moved once into
 * the storing lane's slabs; from then on stores of every lane rewrite it
 * in place (a key that several processes store moves at most once). */
#define SC_ENTRY_HOMED 0x40
/* Set on an entry that brought a deleted key back: by the lockless store
 * that revives an entry kept by a lockless delete (SC_TTL_GONE; inside its
 * version window, pin held: sc_lockless.c), or before publication on the
 * entry a locked store makes over such a kept entry (sc_cache_store).
 * Cleared by the sweep that makes table room (sc_evict_gone with grace,
 * REPAIR lock, window open): a kept entry marked so is spared once, so
 * that keys stored and deleted over and over keep their entries (and stay
 * lockless) while kept entries of keys never stored again still go. */
#define SC_ENTRY_REVIVED 0x80
_Static_assert((SC_ENTRY_LANE_MASK >> SC_ENTRY_LANE_SHIFT) + 1 == SC_ALLOC_LANES, "a lane fits the flags' lane bits");

static inline uint32_t sc_table_entry_lane(uint8_t flags)
{
    return (uint32_t)(flags & SC_ENTRY_LANE_MASK) >> SC_ENTRY_LANE_SHIFT;
}

/* Whether a store from lane should move e into its own slabs instead of
 * rewriting it where it is. */
static inline bool sc_table_entry_foreign(const sc_entry *e, uint32_t lane)
{
    uint8_t f = __atomic_load_n(&e->flags, __ATOMIC_RELAXED);

    return !(f & SC_ENTRY_HOMED) && sc_table_entry_lane(f) != lane % SC_ALLOC_LANES;
}

/* At most this many chunks per value. */
#define SC_MAX_CHUNKS 1024

/* One chunk record of a chained value (the value bytes of the entry hold
 * a count and an array of these): written with the entry, never changed;
 * read with no lock (each offset and length bounds-checked). */
typedef struct sc_chunk {
    sc_off off;
    uint64_t len;
} sc_chunk;


/* Entry versions. A reader that copies an entry's rewritable
 * fields (see ver above) with no lock, or with a NO_REPAIR lock (which does
 * not keep lockless stores out), takes a token first and checks it after:
 *
 *   t = sc_table_ever_begin(e); ...copy... ; if (!sc_table_ever_valid(e, t)) retry
 *
 * Why the stamp too: ver has 16 bits and wraps after 32768 stores. A
 * reader descheduled between its two checks while exactly a multiple of
 * 32768 stores went by would see the same ver. Every lockless store also
 * writes the stamp, taken after it claimed the entry (so after the
 * previous store of the entry released it) and above the entry's stamp
 * then (sc_entry_stamp_after), as is an in-place store's (sc_inplace.c,
 * inside the window): an entry's stamp only grows, so a rewrite between
 * the two checks always changes it. (A 64-bit version would need 6 more
 * bytes; the header is one cache line, full.) */
typedef struct sc_ever {
    uint64_t stamp;
    uint16_t ver;
} sc_ever;

static inline sc_ever sc_table_ever_begin(const sc_entry *e)
{
    sc_ever t;

    t.ver = __atomic_load_n(&e->ver, __ATOMIC_ACQUIRE);
    t.stamp = __atomic_load_n(&e->stamp, __ATOMIC_RELAXED);
    return t;
}

/* True when nothing a lockless store writes changed since sc_table_ever_begin
 * (and no store was under way then). */
static inline bool sc_table_ever_valid(const sc_entry *e, sc_ever t)
{
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return !(t.ver & 1) && __atomic_load_n(&e->ver, __ATOMIC_RELAXED) == t.ver
           && __atomic_load_n(&e->stamp, __ATOMIC_RELAXED) == t.stamp;
}

#define SC_ENTRY_KEY(e) ((char *)(e) + sizeof(sc_entry))
#define SC_ENTRY_VAL(e) ((char *)(e) + sizeof(sc_entry) + (e)->key_len)

/* Table state of a shard (sc_shard_head.table, on the line readers read).
 *   every field: written only by the shard's REPAIR lock holder, inside the
 *       shard's odd sequence window (off and capacity: by sc_resize.c,
 *       repair and clear; used and tombs: by every slot change;
 *       clock_hand: by the evictor). Read with no lock by optimistic
 *       readers (off and capacity with relaxed atomic loads, bounds-checked)
 *       and under either lock mode. */
typedef struct sc_table {
    sc_off off;           /* tags[capacity] then uint32 slots[capacity]; 0 = none */
    uint32_t capacity;    /* power of two, or 0 */
    uint32_t used;        /* full slots */
    uint32_t tombs;       /* tombstone slots */
    uint32_t clock_hand;  /* next slot the evictor looks at */
} sc_table;

static inline uint64_t sc_table_bytes(uint32_t capacity)
{
    return SC_ALIGN_UP((uint64_t)capacity, 8) + (uint64_t)capacity * 4;
}

/* Entry offsets are stored in 4-byte slots in units of 8 bytes. */
#define SC_SLOT_SHIFT 3
#define SC_MAX_SEGMENT (UINT64_C(1) << (32 + SC_SLOT_SHIFT))

/* Short keys are compared in place with at most two loads of 8, 4 or 1
 * bytes a side (the two may overlap: up to 16 bytes); 17 to 64 bytes 8 at
 * a time and the last 8; longer ones by memcmp. */
static inline __attribute__((always_inline)) bool sc_table_key_equal(const char *a, const char *b, uint32_t len)
{
    uint64_t x, y, x2, y2;
    uint32_t u, v, u2, v2;

    if (len >= 8) {
        uint32_t i;
        if (len <= 16) {
            memcpy(&x, a, 8);
            memcpy(&y, b, 8);
            memcpy(&x2, a + len - 8, 8);
            memcpy(&y2, b + len - 8, 8);
            return ((x ^ y) | (x2 ^ y2)) == 0;
        }
        if (len > 64) {
            return memcmp(a, b, len) == 0;
        }
        for (i = 0; i + 8 < len; i += 8) {
            memcpy(&x, a + i, 8);
            memcpy(&y, b + i, 8);
            if (x != y) {
                return false;
            }
        }
        memcpy(&x2, a + len - 8, 8);
        memcpy(&y2, b + len - 8, 8);
        return x2 == y2;
    }
    if (len >= 4) {
        memcpy(&u, a, 4);
        memcpy(&v, b, 4);
        memcpy(&u2, a + len - 4, 4);
        memcpy(&v2, b + len - 4, 4);
        return ((u ^ v) | (u2 ^ v2)) == 0;
    }
    switch (len) {
    case 3:
        if (a[2] != b[2]) {
            return false;
        }
        /* fall through */
    case 2:
        if (a[1] != b[1]) {
            return false;
        }
        /* fall through */
    case 1:
        return a[0] == b[0];
    default:
        return true;
    }
}

/*
 * Finds key's entry. Never faults and always terminates, even while a writer
 * changes the table: every offset read is bounds-checked. The answer is
 * trustworthy only if the caller holds the shard lock or validates the
 * shard's sequence counter afterwards. Returns NULL when absent.
 */
const sc_entry *sc_table_lookup(const sc_seg *seg, const sc_table *table, const char *key,
                                uint32_t key_len, uint64_t hash, uint32_t *slot_out);

/* A lookup's answer, kept by a writer to use again (sc_cache.c): the key's
 * entry e (NULL: absent) and its slot, or for an absent key free, the slot
 * a new entry would take (the one sc_table_free_slot would return for
 * this table: the first slot of the probe that is not full; SC_NONE: no
 * table, or none seen); and seq, the shard's counter value it was made
 * under (odd: no answer), set by the caller. */
typedef struct sc_table_seen {
    uint64_t seq;
    const sc_entry *e;
    uint32_t slot;
    uint32_t free;
} sc_table_seen;

/* sc_table_lookup, with the answer in *seen (all but seq). Trustworthy on
 * the same terms. */
const sc_entry *sc_table_probe(const sc_seg *seg, const sc_table *table, const char *key, uint32_t key_len,
                               uint64_t hash, sc_table_seen *seen);

/* The table's tag and slot arrays and its capacity, read with no lock:
 * false when they do not describe a table inside the segment (none yet,
 * or read mid-change: the caller's sequence check catches that). */
static inline __attribute__((always_inline)) bool
sc_table_view(const sc_seg *seg, const sc_table *table, const volatile uint8_t **tags,
              const volatile uint32_t **slots, uint32_t *capacity)
{
    sc_off off = __atomic_load_n(&table->off, __ATOMIC_RELAXED);
    uint32_t cap = __atomic_load_n(&table->capacity, __ATOMIC_RELAXED);

    if (SC_UNLIKELY(!off || !sc_is_pow2(cap) || !sc_seg_ptr(seg, off, sc_table_bytes(cap)))) {
        return false;
    }
    *tags = (const volatile uint8_t *)(seg->base + off);
    *slots = (const volatile uint32_t *)(seg->base + off + SC_ALIGN_UP((uint64_t)cap, 8));
    *capacity = cap;
    return true;
}

/* The entry slot idx refers to, if it is key's (hash, length and bytes
 * compared), else NULL. The caller checked the slot's tag. */
static inline __attribute__((always_inline)) const sc_entry *
sc_table_slot_key(const sc_seg *seg, const volatile uint32_t *slots, uint32_t idx, const char *key,
                  uint32_t key_len, uint64_t hash)
{
    sc_off eoff = (sc_off)slots[idx] << SC_SLOT_SHIFT;
    const sc_entry *e = sc_seg_ptr(seg, eoff, sizeof(sc_entry) + (uint64_t)key_len);

    if (SC_LIKELY(e && e->hash == hash && e->key_len == key_len && sc_table_key_equal(SC_ENTRY_KEY(e), key, key_len))) {
        return e;
    }
    return NULL;
}

/* The same, for the fetch path: the key's home slot is looked at inline
 * (most keys are found there), anything else by sc_table_lookup. */
static inline __attribute__((always_inline)) const sc_entry *
sc_table_find(const sc_seg *seg, const sc_table *table, const char *key, uint32_t key_len, uint64_t hash,
              uint32_t *slot_out)
{
    const volatile uint8_t *tags;
    const volatile uint32_t *slots;
    uint32_t capacity, idx;

    if (SC_LIKELY(sc_table_view(seg, table, &tags, &slots, &capacity))) {
        idx = (uint32_t)hash & (capacity - 1);
        if (SC_LIKELY(tags[idx] == sc_table_tag_of(hash))) {
            const sc_entry *e = sc_table_slot_key(seg, slots, idx, key, key_len, hash);
            if (SC_LIKELY(e != NULL)) {
                *slot_out = idx;
                return e;
            }
        }
    }
    return sc_table_lookup(seg, table, key, key_len, hash, slot_out);
}

/* sc_table_probe with the key's home slot looked at inline, as
 * sc_table_find: an empty home slot (the common case for a new key) ends
 * the probe there, and is where the key would go. */
static inline __attribute__((always_inline)) const sc_entry *
sc_table_probe_find(const sc_seg *seg, const sc_table *table, const char *key, uint32_t key_len, uint64_t hash,
                    sc_table_seen *seen)
{
    const volatile uint8_t *tags;
    const volatile uint32_t *slots;
    uint32_t capacity, idx;

    if (SC_LIKELY(sc_table_view(seg, table, &tags, &slots, &capacity))) {
        uint8_t tag;
        idx = (uint32_t)hash & (capacity - 1);
        tag = tags[idx];
        if (tag == SC_TAG_EMPTY) {
            seen->e = NULL;
            seen->free = idx;
            return NULL;
        }
        if (SC_LIKELY(tag == sc_table_tag_of(hash))) {
            const sc_entry *e = sc_table_slot_key(seg, slots, idx, key, key_len, hash);
            if (SC_LIKELY(e != NULL)) {
                seen->e = e;
                seen->slot = idx;
                return e;
            }
        }
    }
    return sc_table_probe(seg, table, key, key_len, hash, seen);
}

/* Whether a shard's table, as found in a segment that nobody else maps
 * (by the first user after an unclean stop: sc_file.c), can be used as it
 * is: none (off, capacity, used and tombs all 0), or a power-of-
 * two capacity whose tags and slots lie whole in the data area, with used +
 * tombs within 15/16 of it and the clock hand inside it. Reads the sc_table
 * fields only, not the tags or the entries. */
bool sc_table_sane(const sc_seg *seg, const sc_table *table);

/* Writers (shard REPAIR lock held). */

/* Builds a table of new_capacity holding every entry of *old, in memory
 * from the shard's allocator (sa, owner, lane: sc_alloc), and describes it in
 * *out (no tombstones, old's clock hand). Publishes nothing: the caller
 * stores *out over the shard's table inside its odd sequence window, then
 * frees old->off. False when there is no memory. */
bool sc_table_rebuild(sc_seg *seg, sc_shard_alloc *sa, uint16_t owner, uint32_t lane, const sc_table *old,
                      uint32_t new_capacity, sc_table *out);

/* Inside the odd sequence window: drops the tombstones in place, with no
 * memory of any kind: each entry moves at most once, towards its home
 * slot. Counts used again (returned) and sets tombs to 0. A process killed
 * inside leaves every entry in at least one full slot (at most one in two:
 * the same offset, which the shard's repair drops once) and may leave an
 * entry behind an empty slot that a probe from its home stops at: the
 * repair (sc_shard_repair.c) runs this again, which puts it back. */
uint32_t sc_table_rehash(sc_seg *seg, sc_table *table);

/* Slot where a new entry for hash should go (after sc_resize_reserve). */
uint32_t sc_table_free_slot(const sc_seg *seg, const sc_table *table, uint64_t hash);
/* Inside the odd sequence window: */
void sc_table_set(sc_seg *seg, sc_table *table, uint32_t slot, uint64_t hash, sc_off entry);
void sc_table_clear_slot(sc_seg *seg, sc_table *table, uint32_t slot);

/* Entry in a slot, or NULL if the slot is not full. */
sc_entry *sc_table_slot_entry(sc_seg *seg, const sc_table *table, uint32_t slot);

#endif
