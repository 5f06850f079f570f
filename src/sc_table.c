/*
 * sc_table.c - the open-addressing table of one shard.
 *
 * Layout (one allocation from the shard's allocator): capacity tag bytes,
 * padded to 8, then capacity uint32 slots holding entry offsets >> 3.
 * A tag is EMPTY, TOMB (a deleted slot that probes must pass over) or
 * FULL | 7 hash bits, so a probe compares one byte per slot and touches the
 * slot array and the entry only on a likely match. Probing is linear from
 * hash & (capacity - 1). Capacity is a power of two; used + tombs stays at
 * or below 3/4 of it (up to 15/16 when memory for a bigger table is short),
 * so every probe meets an EMPTY slot.
 *
 * Owns: the layout of a table's memory (tags, slots) and every change to
 * it; no state of its own.
 * Locks: the table and the sc_table fields in the shard are written only by
 * the holder of the shard's REPAIR lock, and only inside the shard's odd
 * sequence window when readers can reach the change. This file never sees
 * a shard: a new table is built in fresh memory (sc_table_rebuild) and
 * handed back; its caller (sc_resize.c) publishes it inside the window and
 * frees the old one after. Readers may run sc_table_lookup with no lock: it
 * bounds-checks everything.
 * Death: a writer killed while changing a table holds the REPAIR lock (and
 * may be inside the window): the next locker repairs the shard
 * (sc_shard_repair.c) from the full slots. sc_table_set writes the slot
 * before the tag, so a full tag never names a stale slot; a cut
 * sc_table_clear_slot leaves the slot full or not; a cut sc_table_rehash
 * leaves every entry in a full slot (at most one in two); a half-built new
 * table is an object no entry refers to, given back with the others.
 * Lookups write nothing.
 */
#include <string.h>
#include "sc_table.h"
#include "sc_seg.h"
#include "sc_alloc.h"

/* For SC_ASSERT: table is a shard's whose REPAIR lock the calling thread
 * holds, inside the shard's window if window (the hook of sc_seg, set where
 * the segment is bound). */
#define SC_TABLE_HELD(seg, table, window) (!(seg)->check_table || (seg)->check_table((seg), (table), (window)))

static inline uint8_t *sc_table_tags(const sc_seg *seg, sc_off off)
{
    return (uint8_t *)(seg->base + off);
}

static inline uint32_t *sc_table_slots(const sc_seg *seg, sc_off off, uint32_t capacity)
{
    return (uint32_t *)(seg->base + off + SC_ALIGN_UP((uint64_t)capacity, 8));
}

/* The probe of sc_table_lookup and sc_table_probe: with free_out (a
 * constant NULL or not in each caller, so the lookup keeps its loop) it
 * also notes the first slot that is not full, where sc_table_free_slot
 * would put a new entry. */
static inline __attribute__((always_inline)) const sc_entry *
sc_table_probe_at(const sc_seg *seg, const sc_table *table, const char *key, uint32_t key_len, uint64_t hash,
                  uint32_t *slot_out, uint32_t *free_out)
{
    const volatile uint8_t *tags;
    const volatile uint32_t *slots;
    uint32_t capacity, mask, idx, n, free = SC_NONE;
    uint8_t want = sc_table_tag_of(hash);

    if (!sc_table_view(seg, table, &tags, &slots, &capacity)) {
        if (free_out) {
            *free_out = SC_NONE;
        }
        return NULL;
    }
    mask = capacity - 1;
    idx = (uint32_t)hash & mask;
    for (n = 0; n < capacity; n++, idx = (idx + 1) & mask) {
        uint8_t tag = tags[idx];
        if (tag == SC_TAG_EMPTY) {
            if (free_out) {
                *free_out = free == SC_NONE ? idx : free;
            }
            return NULL;
        }
        if (tag == want) {
            const sc_entry *e = sc_table_slot_key(seg, slots, idx, key, key_len, hash);
            if (e) {
                *slot_out = idx;
                return e;
            }
        } else if (free_out && tag == SC_TAG_TOMB) {
            free = free == SC_NONE ? idx : free;
        }
    }
    if (free_out) {
        *free_out = free;
    }
    return NULL;
}

const sc_entry *sc_table_lookup(const sc_seg *seg, const sc_table *table, const char *key,
                                uint32_t key_len, uint64_t hash, uint32_t *slot_out)
{
    return sc_table_probe_at(seg, table, key, key_len, hash, slot_out, NULL);
}

const sc_entry *sc_table_probe(const sc_seg *seg, const sc_table *table, const char *key, uint32_t key_len,
                               uint64_t hash, sc_table_seen *seen)
{
    seen->e = sc_table_probe_at(seg, table, key, key_len, hash, &seen->slot, &seen->free);
    return seen->e;
}

sc_entry *sc_table_slot_entry(sc_seg *seg, const sc_table *table, uint32_t slot)
{
    if (!table->off || slot >= table->capacity) {
        return NULL;
    }
    if (!(sc_table_tags(seg, table->off)[slot] & SC_TAG_FULL)) {
        return NULL;
    }
    return (sc_entry *)(seg->base + ((sc_off)sc_table_slots(seg, table->off, table->capacity)[slot] << SC_SLOT_SHIFT));
}

uint32_t sc_table_free_slot(const sc_seg *seg, const sc_table *table, uint64_t hash)
{
    const uint8_t *tags = sc_table_tags(seg, table->off);
    uint32_t mask = table->capacity - 1, idx = (uint32_t)hash & mask;

    SC_ASSERT(SC_TABLE_HELD(seg, table, false));

    while (tags[idx] & SC_TAG_FULL) {
        idx = (idx + 1) & mask;
    }
    return idx;
}

void sc_table_set(sc_seg *seg, sc_table *table, uint32_t slot, uint64_t hash, sc_off entry)
{
    uint8_t *tag = &sc_table_tags(seg, table->off)[slot];

    SC_ASSERT(SC_TABLE_HELD(seg, table, true));

    /* The entry is whole before the slot names it, and the slot before the
     * tag says full: a writer killed between any two of these stores
     * leaves no full tag on a slot that names something else. */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    sc_table_slots(seg, table->off, table->capacity)[slot] = (uint32_t)(entry >> SC_SLOT_SHIFT);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (*tag == SC_TAG_TOMB) {
        table->tombs--;
    }
    if (!(*tag & SC_TAG_FULL)) {
        table->used++;
    }
    *tag = sc_table_tag_of(hash);
}

void sc_table_clear_slot(sc_seg *seg, sc_table *table, uint32_t slot)
{
    uint8_t *tags = sc_table_tags(seg, table->off);
    uint32_t mask = table->capacity - 1;

    SC_ASSERT(SC_TABLE_HELD(seg, table, true));

    table->used--;
    if (tags[(slot + 1) & mask] == SC_TAG_EMPTY) {
        /* Nothing probes past this slot: it and the tombstones before it
         * can become empty again. */
        tags[slot] = SC_TAG_EMPTY;
        slot = (slot - 1) & mask;
        while (tags[slot] == SC_TAG_TOMB) {
            tags[slot] = SC_TAG_EMPTY;
            table->tombs--;
            slot = (slot - 1) & mask;
        }
    } else {
        tags[slot] = SC_TAG_TOMB;
        table->tombs++;
    }
}

bool sc_table_rebuild(sc_seg *seg, sc_shard_alloc *sa, uint16_t owner, uint32_t lane, const sc_table *old,
                      uint32_t new_capacity, sc_table *out)
{
    sc_off new_off, old_off = old->off;
    uint32_t old_capacity = old->capacity, i, used = 0;
    uint8_t *new_tags;
    uint32_t *new_slots;

    SC_ASSERT(!seg->ac.check_shard || seg->ac.check_shard(&seg->ac, sa));

    new_off = sc_alloc(&seg->ac, sa, owner, sc_table_bytes(new_capacity), lane);
    if (!new_off) {
        return false;
    }
    new_tags = sc_table_tags(seg, new_off);
    new_slots = sc_table_slots(seg, new_off, new_capacity);
    memset(new_tags, SC_TAG_EMPTY, new_capacity);
    if (old_off) {
        const uint8_t *old_tags = sc_table_tags(seg, old_off);
        const uint32_t *old_slots = sc_table_slots(seg, old_off, old_capacity);
        uint32_t mask = new_capacity - 1;
        for (i = 0; i < old_capacity; i++) {
            const sc_entry *e;
            uint32_t idx;
            if (!(old_tags[i] & SC_TAG_FULL)) {
                continue;
            }
            e = (const sc_entry *)(seg->base + ((sc_off)old_slots[i] << SC_SLOT_SHIFT));
            idx = (uint32_t)e->hash & mask;
            while (new_tags[idx] != SC_TAG_EMPTY) {
                idx = (idx + 1) & mask;
            }
            new_tags[idx] = old_tags[i];
            new_slots[idx] = old_slots[i];
            used++;
        }
    }
    out->off = new_off;
    out->capacity = new_capacity;
    out->used = used;
    out->tombs = 0;
    out->clock_hand = old->clock_hand & (new_capacity - 1);
    return true;
}

/* One pass of sc_table_rehash from just after slot start: each full
 * slot's entry moves to the first empty slot from its home, if that comes
 * before it. A move writes the new slot (offset, then tag) before it
 * empties the old one: a process killed in between leaves the entry in
 * both, never in none. Returns whether anything moved. */
static bool sc_table_rehash_pass(sc_seg *seg, sc_table *table, uint32_t start)
{
    uint32_t capacity = table->capacity, mask = capacity - 1, n;
    uint8_t *tags = sc_table_tags(seg, table->off);
    uint32_t *slots = sc_table_slots(seg, table->off, capacity);
    bool moved = false;

    for (n = 1; n <= capacity; n++) {
        uint32_t at = (start + n) & mask, to;
        const sc_entry *e;
        if (!(tags[at] & SC_TAG_FULL)) {
            continue;
        }
        e = (const sc_entry *)(seg->base + ((sc_off)slots[at] << SC_SLOT_SHIFT));
        for (to = (uint32_t)e->hash & mask; to != at && tags[to] != SC_TAG_EMPTY; to = (to + 1) & mask) {
        }
        if (to == at) {
            continue;
        }
        slots[to] = slots[at];
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        tags[to] = tags[at];
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
        tags[at] = SC_TAG_EMPTY;
        moved = true;
    }
    return moved;
}

uint32_t sc_table_rehash(sc_seg *seg, sc_table *table)
{
    uint32_t capacity = table->capacity, i, start = 0, used = 0;
    uint8_t *tags = sc_table_tags(seg, table->off);

    SC_ASSERT(SC_TABLE_HELD(seg, table, true));

    /* Start after a slot that was empty before the tombstones go: no
     * probe crosses it, so one pass puts every entry where a probe from
     * its home finds it. Passes repeat until nothing moves (each move
     * brings an entry nearer its home: this ends), which also mends a
     * table that a rehash killed half way left. */
    for (i = 0; i < capacity; i++) {
        if (tags[i] == SC_TAG_EMPTY) {
            start = i;
        }
    }
    for (i = 0; i < capacity; i++) {
        if (tags[i] == SC_TAG_TOMB) {
            tags[i] = SC_TAG_EMPTY;
        }
        used += (tags[i] & SC_TAG_FULL) != 0;
    }
    table->tombs = 0;
    table->used = used;
    while (sc_table_rehash_pass(seg, table, start)) {
    }
    return used;
}

bool sc_table_sane(const sc_seg *seg, const sc_table *table)
{
    sc_off off = table->off, data_off = seg->ac.data_off;
    uint32_t cap = table->capacity;
    uint64_t area = (uint64_t)seg->ac.npages << SC_PAGE_SHIFT;

    if (!off) {
        return !cap && !table->used && !table->tombs;
    }
    return sc_is_pow2(cap) && off % 8 == 0 && off >= data_off && off - data_off < area
           && sc_table_bytes(cap) <= area - (off - data_off)
           && ((uint64_t)table->used + table->tombs) * 16 <= (uint64_t)cap * 15 && table->clock_hand < cap;
}
