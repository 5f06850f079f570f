/*
 * sc_table.h - entries and the per-shard open-addressing table. See
 * src/sc_table.c for the layout and invariants.
 */
#ifndef SC_TABLE_H
#define SC_TABLE_H

#include "sc_common.h"

/* Tag bytes: one per slot. */
#define SC_TAG_EMPTY 0x00
#define SC_TAG_TOMB 0x01
#define SC_TAG_FULL 0x80       /* | 7 bits of the hash */

static inline uint8_t sc_tag_of(uint64_t hash)
{
    return (uint8_t)(SC_TAG_FULL | (hash >> 57));
}

/* An entry: header, then the key bytes, then the value bytes. Entries are
 * immutable once published in a table, except for in-place integer updates
 * (one aligned 8-byte store, see sc_update.c) and the sampled hit figures. */
typedef struct sc_entry {
    uint64_t hash;        /* mixed hash of the key */
    uint32_t key_len;
    uint32_t val_len;     /* values of 4 GiB or more are refused (SC_TOOBIG) */
    uint8_t vtype;        /* sc_vtype of the value */
    uint8_t flags;        /* SC_ENTRY_* */
    uint16_t reserved;
    uint32_t ttl;         /* seconds after ctime the entry expires; 0 = never */
    int64_t scalar;       /* int value or double bits for scalar vtypes */
    int64_t ctime;        /* Unix time the value was stored */
    int64_t mtime;        /* Unix time of the last modification */
    int64_t atime;        /* Unix time of the last access recorded by a writer */
    uint32_t nhits;       /* hits recorded by writers (sampled) */
    uint32_t mem_size;    /* bytes allocated for the entry, saturating at
                             UINT32_MAX (sc_snapshot.c then derives it) */
    /* key bytes, then value bytes */
} sc_entry;

/* Set when a sampled hit was recorded; cleared by the CLOCK hand. */
#define SC_ENTRY_REFERENCED 0x01

#define SC_ENTRY_KEY(e) ((char *)(e) + sizeof(sc_entry))
#define SC_ENTRY_VAL(e) ((char *)(e) + sizeof(sc_entry) + (e)->key_len)

/* Table state of a shard (inside sc_shard, on the line readers read).
 * Written only inside the shard's odd sequence window. */
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

#endif

struct sc_seg;
struct sc_shard;

/*
 * Finds key's entry. Never faults and always terminates, even while a writer
 * changes the table: every offset read is bounds-checked. The answer is
 * trustworthy only if the caller holds the shard lock or validates the
 * shard's sequence counter afterwards. Returns NULL when absent.
 */
const sc_entry *sc_table_lookup(const struct sc_seg *seg, const sc_table *table, const char *key,
                                uint32_t key_len, uint64_t hash, uint32_t *slot_out);

/* Writers (shard write lock held). */

/* Makes room for one more entry: grows or rehashes the table if needed.
 * Returns false only if the table is full and no memory could be had. */
bool sc_table_reserve(struct sc_seg *seg, struct sc_shard *shard);
/* Slot where a new entry for hash should go (after sc_table_reserve). */
uint32_t sc_table_free_slot(const struct sc_seg *seg, const sc_table *table, uint64_t hash);
/* Inside the odd sequence window: */
void sc_table_set(struct sc_seg *seg, sc_table *table, uint32_t slot, uint64_t hash, sc_off entry);
void sc_table_clear_slot(struct sc_seg *seg, sc_table *table, uint32_t slot);

/* Entry in a slot, or NULL if the slot is not full. */
sc_entry *sc_table_slot_entry(struct sc_seg *seg, const sc_table *table, uint32_t slot);
