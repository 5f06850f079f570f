/*
 * fuzz/fuzz_cache.c - libFuzzer target over the shardcache core (every C
 * file in src/: the core has no PHP in it). Built by fuzz/build.sh with
 * ASan + UBSan.
 *
 * Each input is a program: a header picks the segment size (1..4 MB, so
 * that stores evict), the shard count, apc.entries_hint and apc.ttl, and
 * three switches: isolation (owners: the core's fair share of memory under
 * eviction, sc_fair.c), zero-copy values, slam defense; then every
 * following group of bytes is one operation - store, add, fetch, exists,
 * delete, inc, dec, cas, entry (reserve / store / release), clear,
 * snapshot of a key or a shard, a jump of the clock, a store made by
 * another thread, a fill (one owner stores values of 1 to 32 KiB over
 * many of its keys: memory runs out, stores evict), entering or leaving
 * the epoch, turning slam defense on or off - on one of 48 keys of one
 * of 4 owners. Some keys are long, one
 * is empty, some share their PHP hash on purpose (so that they collide in
 * the table and only the key bytes tell them apart).
 *
 * The fetches are apcu_fetch's: sc_fetch_value (sc_fetch.h), the one
 * sequence the glue calls (its first try, the copy, sc_cache_fetch_at),
 * with this file's clock, epoch and sink as its calls, the time given or
 * read when needed; one fetch in twelve is sc_cache_fetch instead, which
 * must answer the same. inc and dec use the thread's memos of fetches
 * every other time, as the glue's do.
 *
 * Owners are the glue's (php/owner.c): an owner's salt, owner << 24, is
 * mixed into the key's hash, so two owners' keys of the same bytes are two
 * entries; with isolation on, sc_cache.owner_of finds the owner again from
 * an entry's hash and key bytes (none for the colliding keys, whose hash
 * is not their bytes' hash: entries of no known owner).
 *
 * Zero-copy values (vtype SC_V_ZC, at least 8 bytes) are stored with a
 * fixup, as the glue's layouts are: it writes the address the bytes are
 * placed at into their first 8 bytes (the glue's layouts hold pointers
 * into themselves). A borrowed value's first 8 bytes must be its own
 * address; a copied one's, an address inside the segment; the rest must
 * be the model's bytes. While the thread is inside its epoch, every value
 * it borrowed is kept (up to HELD) and compared with its first reading
 * after every operation: replaced, deleted, evicted or cleared, its bytes
 * must stay as they were until the thread leaves the epoch (sc_epoch.c).
 *
 * A model (a plain array per owner and key) runs beside the cache and
 * every answer is checked against it:
 *  - a hit must return exactly the model's value (type, scalar, bytes);
 *  - a miss is allowed only when the model says the key is absent or
 *    expired, or when the cache may have removed it since the model's
 *    value was written: its figures (evicted + expired + repairs + resets
 *    + clears) changed since then;
 *  - add/inc/cas/delete results must agree with the model in the same way;
 *  - snapshots may only show keys and values the model allows;
 *  - with slam defense on, a store is refused (SC_SLAM) exactly when the
 *    last store into the key's shard was of the same key, in the same
 *    second, by another thread (the model keeps each shard's last store).
 * Any disagreement aborts (a crash for libFuzzer), after printing what went
 * wrong. ASan/UBSan catch memory errors and undefined behaviour on the way.
 *
 * Each input gets a fresh segment (mapped and unmapped here), so a failing
 * input reproduces on its own: fuzz/run.sh --repro FILE (FUZZ_TRACE=1 prints
 * every operation, its arguments, the model's view and the result).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "sc_cache.h"
#include "sc_epoch.h"
#include "sc_fetch.h"
#include "sc_vtype.h"

#define NKEYS 48
#define NOWNERS 4
#define MAX_VALUE (320 * 1024)
#define MAX_SHARDS 256
#define HELD 8                  /* borrowed values kept while inside the epoch */
#define ZC_MIN 8                /* a zero-copy value's bytes: its address first */

typedef struct model_entry {
    bool present;           /* a value was stored and not deleted / cleared */
    uint8_t vtype;
    int64_t scalar;
    uint8_t *data;          /* malloc'd value bytes (vtypes with bytes) */
    size_t len;
    uint32_t ttl;
    int64_t ctime;
    uint64_t epoch;         /* removal figures when it was written */
} model_entry;

/* The last store into a shard while slam defense was on (sc_shard.slam_*). */
typedef struct slam_record {
    uint64_t hash;
    uint32_t len;
    uint32_t tid;
    int64_t time;
    bool set;
    bool unsure;            /* a store may or may not have been made since */
} slam_record;

/* What slam defense must answer a store: never refused, refused, either
 * (the shard's last store is not known). */
enum { SLAM_NO, SLAM_YES, SLAM_MAYBE };

/* A value borrowed while inside the epoch, and its bytes then. */
typedef struct held_value {
    const char *p;
    size_t len;
    uint8_t *copy;
} held_value;

typedef struct reader {
    const uint8_t *p;
    size_t left;
} reader;

/* A sink backed by malloc: mem is its buffer (freed when a new one is got
 * or the sink is opened again). */
typedef struct fsink {
    sc_sink base;
    char *mem;
} fsink;

static char key_buf[NKEYS][400];
static uint32_t key_len[NKEYS];
static uint64_t key_hash[NKEYS];
static model_entry model[NOWNERS][NKEYS];
static slam_record slam[MAX_SHARDS];
static held_value held[HELD];
static uint32_t nheld;
static int64_t now;
static uint64_t op_no;
static bool trace;          /* FUZZ_TRACE=1: print every operation (for reproducing) */
static bool zc_on;          /* this input stores zero-copy values and enters the epoch */
static uint32_t my_tid;
static sc_cache *cur;       /* the cache of this input (for the calls below) */
static sc_fetch_memos memos;

#define TRACE(...) do { if (trace) { fprintf(stderr, "op %llu: ", (unsigned long long)op_no); \
        fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

#define FAIL(...) do { \
        fprintf(stderr, "fuzz_cache: op %llu: ", (unsigned long long)op_no); \
        fprintf(stderr, __VA_ARGS__); \
        fputc('\n', stderr); \
        abort(); \
    } while (0)

static uint8_t rd8(reader *r)
{
    if (!r->left) {
        return 0;
    }
    r->left--;
    return *r->p++;
}

static uint16_t rd16(reader *r)
{
    uint16_t v = rd8(r);
    return (uint16_t)(v | (rd8(r) << 8));
}

static uint64_t rd64(reader *r)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) {
        v |= (uint64_t)rd8(r) << (8 * i);
    }
    return v;
}

/* ---- keys and owners ---- */

/* PHP's DJBX33A with the high bit set, as zend_string hashes are. */
static uint64_t key_string_hash(const char *s, size_t len)
{
    uint64_t h = 5381;
    for (size_t i = 0; i < len; i++) {
        h = h * 33 + (uint8_t)s[i];
    }
    return h | UINT64_C(0x8000000000000000);
}

static void setup_keys(void)
{
    for (int i = 0; i < NKEYS; i++) {
        int n;
        if (i == 0) {
            n = 0;                                           /* the empty key */
        } else if (i % 11 == 0) {
            n = snprintf(key_buf[i], sizeof(key_buf[i]), "long-%d-", i);
            memset(key_buf[i] + n, 'L', 300);                /* 300+ bytes */
            n += 300;
        } else if (i % 7 == 0) {
            n = snprintf(key_buf[i], sizeof(key_buf[i]), "nul%c%d", 0, i);   /* NUL inside */
        } else {
            n = snprintf(key_buf[i], sizeof(key_buf[i]), "key:%d", i);
        }
        key_len[i] = (uint32_t)n;
        /* keys 40..47 all share one hash: collisions */
        key_hash[i] = i >= 40 ? UINT64_C(0x8000000000001234) : key_string_hash(key_buf[i], (size_t)n);
    }
}

/* An owner's salt, as php/owner.c makes it. */
static uint64_t owner_salt(int o)
{
    return (uint64_t)o << 24;
}

static sc_key mkkey(int o, int i)
{
    sc_key k;
    k.str = key_buf[i];
    k.len = key_len[i];
    k.glue_hash = key_hash[i] ^ owner_salt(o);
    sc_cache_writer((uint32_t)o);     /* the owner of the keys this thread writes next */
    return k;
}

/* The hash this glue gives the key bytes (key_hash: the colliding keys'
 * is not their string hash). */
static uint64_t fuzz_key_hash(const char *key, uint32_t len)
{
    for (int i = 0; i < NKEYS; i++) {
        if (key_len[i] == len && memcmp(key_buf[i], key, len) == 0) {
            return key_hash[i];
        }
    }
    return key_string_hash(key, len);
}

/* sc_cache.owner_of, as php/owner.c's: the salt from the hash and the key
 * bytes' own hash, as this glue makes it. */
static bool fuzz_owner_of(uint64_t hash, const char *key, uint32_t len, uint32_t *owner)
{
    uint64_t salt = sc_cache_glue_hash(&cur->seg, hash, key, len) ^ fuzz_key_hash(key, len);

    if (salt & ~(UINT64_C(0xffffffff) << 24)) {
        return false;
    }
    *owner = (uint32_t)(salt >> 24);
    return true;
}

static uint32_t shard_of(const sc_cache *c, const sc_key *k)
{
    return sc_seg_shard_index(&c->seg, sc_cache_key_hash(&c->seg, k));
}

/* ---- the model ---- */

static uint64_t removal_epoch(sc_cache *c)
{
    sc_cache_figures f;
    sc_cache_figures_get(c, &f);
    return f.evicted + f.expired + f.repairs + f.resets + f.clears;
}

static bool has_bytes(uint8_t vtype)
{
    return vtype == SC_V_STRING || vtype == SC_V_ARRAY || vtype == SC_V_SERIALIZED || vtype == SC_V_ZC;
}

static bool model_expired(const model_entry *m)
{
    return m->ttl && m->ctime + (int64_t)m->ttl < now;
}

/* The model's view of a key: 0 = certainly absent, 1 = present and certainly
 * still there, 2 = present unless the cache removed it since. */
static int model_state(sc_cache *c, int o, int i)
{
    const model_entry *m = &model[o][i];
    if (!m->present || model_expired(m)) {
        return 0;
    }
    return removal_epoch(c) == m->epoch ? 1 : 2;
}

static void model_forget(int o, int i)
{
    free(model[o][i].data);
    memset(&model[o][i], 0, sizeof(model[o][i]));
}

static void model_forget_all(void)
{
    for (int o = 0; o < NOWNERS; o++) {
        for (int i = 0; i < NKEYS; i++) {
            model_forget(o, i);
        }
    }
}

static void model_set(sc_cache *c, int o, int i, const sc_value_in *v, uint32_t ttl)
{
    model_entry *m = &model[o][i];
    model_forget(o, i);
    m->present = true;
    m->vtype = v->vtype;
    m->scalar = v->scalar;
    m->len = v->len;
    if (v->len) {
        m->data = malloc(v->len);
        memcpy(m->data, v->data, v->len);
    }
    m->ttl = ttl;
    m->ctime = now;
    m->epoch = removal_epoch(c);
}

/* Whether a store of k by thread tid is to be refused now: the shard's
 * last store (made with slam defense on) was of k, this second, by
 * another thread. */
static int slam_expected(const sc_cache *c, const sc_key *k, uint32_t tid)
{
    const slam_record *s = &slam[shard_of(c, k)];

    if (!c->slam_defense) {
        return SLAM_NO;
    }
    if (s->unsure) {
        return SLAM_MAYBE;
    }
    return s->set && s->time == now && s->hash == sc_cache_key_hash(&c->seg, k) && s->len == k->len && s->tid != tid
               ? SLAM_YES
               : SLAM_NO;
}

/* The store of k by thread tid succeeded (made with slam defense on: the
 * shard's last store) or may have (unsure). */
static void slam_stored(const sc_cache *c, const sc_key *k, uint32_t tid, bool unsure)
{
    slam_record *s = &slam[shard_of(c, k)];

    if (!c->slam_defense) {
        return;
    }
    s->hash = sc_cache_key_hash(&c->seg, k);
    s->len = k->len;
    s->tid = tid;
    s->time = now;
    s->set = true;
    s->unsure = unsure;
}

/* A store's answer st against slam defense (expected: slam_expected's,
 * asked before the store). */
static void slam_check(const sc_cache *c, const sc_key *k, uint32_t tid, int expected, sc_status st,
                       const char *what)
{
    if (st == SC_SLAM && expected == SLAM_NO) {
        FAIL("%s: refused as a slam, but the shard's last store was not of this key this second by another "
             "thread", what);
    }
    if (expected == SLAM_YES && st != SC_SLAM && st != SC_TOOBIG) {
        FAIL("%s: status %d, but the shard's last store was of this key this second by another thread", what, st);
    }
    if (st == SC_OK) {
        slam_stored(c, k, tid, false);
    }
}

/* ---- values ---- */

static bool in_segment(const sc_cache *c, uint64_t p, size_t len)
{
    uint64_t base = (uint64_t)(uintptr_t)c->seg.base;
    return p >= base && p - base <= c->seg.size && len <= c->seg.size - (p - base);
}

static void check_value(sc_cache *c, int o, int i, const char *what, const sc_value_out *out)
{
    const model_entry *m = &model[o][i];
    size_t from = 0;

    if (out->vtype != m->vtype) {
        FAIL("%s key %d/%d: type %u, model has %u", what, o, i, out->vtype, m->vtype);
    }
    if (out->borrowed && m->vtype != SC_V_ZC) {
        FAIL("%s key %d/%d: borrowed, but not a zero-copy value", what, o, i);
    }
    if (m->vtype == SC_V_ZC && out->len == m->len && m->len >= ZC_MIN) {
        /* The fixup's address: where the bytes are (borrowed), or were
         * when copied (inside the segment). */
        uint64_t at;
        memcpy(&at, out->data, sizeof(at));
        if (out->borrowed ? at != (uint64_t)(uintptr_t)out->data : !in_segment(c, at, out->len)) {
            FAIL("%s key %d/%d: a zero-copy value's address %#llx, its bytes are at %p (%s)", what, o, i,
                 (unsigned long long)at, (const void *)out->data, out->borrowed ? "borrowed" : "copied");
        }
        from = ZC_MIN;
    }
    if (has_bytes(m->vtype)) {
        if (out->len != m->len || (m->len > from && memcmp(out->data + from, m->data + from, m->len - from) != 0)) {
            FAIL("%s key %d/%d: %zu value bytes differ from the model's %zu", what, o, i, out->len, m->len);
        }
    } else if (m->vtype == SC_V_LONG || m->vtype == SC_V_DOUBLE) {
        if (out->scalar != m->scalar) {
            FAIL("%s key %d/%d: scalar %lld, model has %lld", what, o, i, (long long)out->scalar,
                 (long long)m->scalar);
        }
    }
}

/* A fetch-like answer (hit with out, or miss) against the model. */
static void check_lookup(sc_cache *c, int o, int i, const char *what, sc_status st, const sc_value_out *out)
{
    int ms = model_state(c, o, i);
    if (st == SC_OK) {
        if (ms == 0) {
            FAIL("%s key %d/%d: hit, but the model says absent%s", what, o, i,
                 model[o][i].present ? " (expired)" : "");
        }
        if (out) {
            check_value(c, o, i, what, out);
        }
    } else if (st == SC_NOTFOUND) {
        if (ms == 1) {
            FAIL("%s key %d/%d: miss, but the model has it and nothing was removed since", what, o, i);
        }
        if (ms == 2) {
            model_forget(o, i);   /* gone: the cache has dropped it (an expired entry may still be
                                     there, so that one is kept: delete may still find it) */
        }
    } else {
        FAIL("%s key %d/%d: status %d", what, o, i, st);
    }
}

/* The value of a zero-copy store's fixup: the address its bytes are at. */
static void zc_fixup(void *arg, char *dst, size_t len)
{
    uint64_t at = (uint64_t)(uintptr_t)dst;
    (void)arg;
    if (len >= ZC_MIN) {
        memcpy(dst, &at, sizeof(at));
    }
}

/* Value bytes for (key, op): deterministic, different per write. */
static uint8_t value_bytes[MAX_VALUE];

static void make_value(reader *r, sc_value_in *v)
{
    uint8_t t = rd8(r);
    size_t len = 0;

    v->vtype = (uint8_t)(zc_on && t >= 224 ? SC_V_ZC : t % 8);
    v->scalar = 0;
    v->data = NULL;
    v->len = 0;
    v->fixup = NULL;
    v->fixup_arg = NULL;
    if (v->vtype == SC_V_LONG || v->vtype == SC_V_DOUBLE) {
        v->scalar = (int64_t)rd64(r);
    } else if (has_bytes(v->vtype)) {
        uint8_t sz = rd8(r);
        uint16_t n = rd16(r);
        if (sz < 150) {
            len = n % 256;                                  /* small slabs */
        } else if (sz < 220) {
            len = n % 8192;
        } else if (sz < 250) {
            len = 8192 + n % 40000;                         /* big slabs, page runs */
        } else {
            len = 40000 + (size_t)n * 4 % (MAX_VALUE - 40000);   /* large runs, chains */
        }
        if (v->vtype == SC_V_ZC) {
            len = len < ZC_MIN ? ZC_MIN : len;
            v->fixup = zc_fixup;
        }
        for (size_t j = 0; j < len; j++) {
            value_bytes[j] = (uint8_t)(op_no * 131 + j * 7 + (j >> 8));
        }
        v->data = (const char *)value_bytes;
        v->len = len;
    }
}

/* ---- the epoch and the values borrowed inside it ---- */

static void held_drop(void)
{
    for (uint32_t j = 0; j < nheld; j++) {
        free(held[j].copy);
    }
    nheld = 0;
}

static void held_keep(const sc_value_out *out)
{
    held_value *h;

    if (nheld < HELD) {
        h = &held[nheld++];
    } else {
        h = &held[op_no % HELD];
        free(h->copy);
    }
    h->p = out->data;
    h->len = out->len;
    h->copy = malloc(out->len ? out->len : 1);
    memcpy(h->copy, out->data, out->len);
}

/* Every value borrowed since the thread entered the epoch is as it was. */
static void held_check(void)
{
    for (uint32_t j = 0; j < nheld; j++) {
        if (memcmp(held[j].p, held[j].copy, held[j].len) != 0) {
            FAIL("a value borrowed inside the epoch (%zu bytes at %p) changed before the thread left it",
                 held[j].len, (const void *)held[j].p);
        }
    }
}

/* Each shard's bytes per owner (sc_fair.h) are those of the entries its
 * table holds, whatever the operations did (no operation is under way). */
static void fair_check(sc_cache *c)
{
    sc_seg *seg = &c->seg;

    for (uint32_t k = 0; k < seg->nshards; k++) {
        sc_shard *shard = &seg->shards[k];
        const sc_table *table = &sc_layout_head(shard)->table;
        uint64_t bytes[SC_FAIR_SLOTS] = {0};
        for (uint32_t slot = 0; table->off && slot < table->capacity; slot++) {
            const sc_entry *e = sc_table_slot_entry(seg, table, slot);
            if (e) {
                bytes[sc_fair_entry_slot(seg, e)] += e->mem_size;
            }
        }
        for (uint32_t i = 0; i < SC_FAIR_SLOTS; i++) {
            if (bytes[i] != shard->fair.bytes[i]) {
                FAIL("shard %u counts %llu bytes for owner slot %u, its entries hold %llu", k,
                     (unsigned long long)shard->fair.bytes[i], i, (unsigned long long)bytes[i]);
            }
        }
    }
}

static void epoch_leave(sc_cache *c)
{
    held_drop();
    sc_epoch_leave(&c->seg);
}

/* ---- sc_fetch_value's calls ---- */

static int64_t fuzz_clock(void)
{
    return now;
}

static uint32_t fuzz_borrow(void)
{
    return zc_on && sc_epoch_inside(&cur->seg) ? UINT32_C(1) << SC_V_ZC : 0;
}

static bool fuzz_enter(void)
{
    if (!zc_on) {
        return false;
    }
    (void)sc_epoch_enter(&cur->seg);
    return true;
}

static char *fsink_get(sc_sink *s, uint8_t vtype, size_t len)
{
    fsink *f = (fsink *)s;
    free(f->mem);
    f->mem = malloc(len ? len : 1);
    s->buf = f->mem;
    s->cap = len;
    s->is_string = vtype == SC_V_STRING;
    return s->buf;
}

static void fsink_open(sc_sink *s, uint32_t borrow)
{
    fsink *f = (fsink *)s;
    free(f->mem);
    f->mem = NULL;
    s->get = fsink_get;
    s->buf = NULL;
    s->cap = 0;
    s->is_string = false;
    s->borrow = borrow;
}

static const sc_fetch_calls fuzz_calls = {fuzz_clock, fuzz_borrow, fuzz_enter, fsink_open};

/* A fetch as apcu_fetch makes it (sc_fetch_value), as a status. */
static sc_status fetch_value(sc_cache *c, const sc_key *k, bool clock_later, fsink *sink, sc_value_out *out)
{
    int r = sc_fetch_value(c, k, clock_later ? SC_FETCH_NOW_LATER : now, &fuzz_calls, &memos, &sink->base, out);

    switch (r) {
    case SC_FAST_LONG: case SC_FAST_SCALAR: case SC_FAST_BORROWED: case SC_FAST_COPIED: case SC_FETCH_FOUND:
        if (out->borrowed) {
            held_keep(out);
        }
        return SC_OK;
    case SC_FAST_MISS: case SC_FETCH_MISSED:
        return SC_NOTFOUND;
    default:
        FAIL("sc_fetch_value answered %d", r);
    }
}

/* ---- operations ---- */

typedef struct fuzz_op {
    sc_cache *c;
    reader *r;
    fsink *sink;            /* for sc_cache_fetch and sc_cache_reserve */
    fsink *fetch_sink;      /* for sc_fetch_value */
    int o, i;               /* owner, key */
    sc_key k;
} fuzz_op;

/* apcu_store of v for key i of owner o, checked. */
static void store_checked(sc_cache *c, int o, int i, const sc_value_in *v, uint32_t ttl)
{
    sc_key k = mkkey(o, i);
    int slam_exp = slam_expected(c, &k, my_tid);
    sc_status st = sc_cache_store(c, &k, v, ttl, now, false);

    TRACE("store key %d/%d type %u len %zu ttl %u -> %d", o, i, v->vtype, v->len, ttl, st);
    slam_check(c, &k, my_tid, slam_exp, st, "store");
    if (st == SC_OK) {
        model_set(c, o, i, v, ttl);
    } else if (st != SC_NOMEM && st != SC_TOOBIG && st != SC_SLAM) {
        FAIL("store key %d/%d: status %d", o, i, st);
    }
    /* on failure the old value stays (or was evicted): the model keeps it */
}

static void op_store(fuzz_op *op)
{
    sc_value_in v;
    uint8_t t = rd8(op->r);

    make_value(op->r, &v);
    store_checked(op->c, op->o, op->i, &v, t < 200 ? 0 : (uint32_t)(t - 199));
}

/* One owner stores values of 1 to 32 KiB (of a type with bytes) over up to
 * all its keys from key i on: memory fills, and stores evict (with
 * isolation, the other owners' entries above their share first). */
static void op_fill(fuzz_op *op)
{
    uint8_t n = (uint8_t)(rd8(op->r) % NKEYS + 1), b = rd8(op->r);
    sc_value_in v = {0};

    v.vtype = (uint8_t)((b & 0x80) && zc_on ? SC_V_ZC : SC_V_STRING + b % 3);
    v.fixup = v.vtype == SC_V_ZC ? zc_fixup : NULL;
    v.len = (size_t)1024 << (b % 6);
    v.data = (const char *)value_bytes;
    TRACE("fill: owner %d, %u keys from %d, type %u, %zu bytes each", op->o, n, op->i, v.vtype, v.len);
    for (uint8_t j = 0; j < n; j++) {
        memset(value_bytes, (int)(op_no * 29 + j), v.len);
        store_checked(op->c, op->o, (op->i + j) % NKEYS, &v, 0);
    }
}

static void op_add(fuzz_op *op)
{
    sc_value_in v;
    int ms;
    int slam_exp = slam_expected(op->c, &op->k, my_tid);
    sc_status st;

    make_value(op->r, &v);
    ms = model_state(op->c, op->o, op->i);
    st = sc_cache_store(op->c, &op->k, &v, 0, now, true);
    TRACE("add key %d/%d type %u len %zu (model %d) -> %d", op->o, op->i, v.vtype, v.len, ms, st);
    slam_check(op->c, &op->k, my_tid, slam_exp, st, "add");
    if (st == SC_OK) {
        if (ms == 1) {
            FAIL("add key %d/%d: succeeded over a live entry", op->o, op->i);
        }
        model_set(op->c, op->o, op->i, &v, 0);
    } else if (st == SC_EXISTS) {
        if (ms == 0) {
            FAIL("add key %d/%d: EXISTS, but the model says absent", op->o, op->i);
        }
    } else if (st != SC_NOMEM && st != SC_TOOBIG && st != SC_SLAM) {
        FAIL("add key %d/%d: status %d", op->o, op->i, st);
    }
}

static void op_fetch(fuzz_op *op, bool through_value)
{
    sc_value_out out;
    sc_status st;

    if (through_value) {
        st = fetch_value(op->c, &op->k, rd8(op->r) & 1, op->fetch_sink, &out);
    } else {
        st = sc_cache_fetch(op->c, &op->k, now, &op->sink->base, &out);
    }
    TRACE("%s key %d/%d (model %d) -> %d%s", through_value ? "fetch" : "sc_cache_fetch", op->o, op->i,
          model_state(op->c, op->o, op->i), st, st == SC_OK && out.borrowed ? " borrowed" : "");
    check_lookup(op->c, op->o, op->i, "fetch", st, st == SC_OK ? &out : NULL);
}

static void op_delete(fuzz_op *op)
{
    int ms = model_state(op->c, op->o, op->i);
    sc_status st = sc_cache_delete(op->c, &op->k);

    TRACE("delete key %d/%d (model %d) -> %d", op->o, op->i, ms, st);
    if (st == SC_OK && !model[op->o][op->i].present) {
        FAIL("delete key %d/%d: found, but the model says it was never stored or deleted", op->o, op->i);
    }
    if (st == SC_NOTFOUND && ms == 1) {
        FAIL("delete key %d/%d: not found, but the model has it", op->o, op->i);
    }
    model_forget(op->o, op->i);
}

static int64_t apply_update(sc_update_op uop, int64_t cur_value, int64_t a)
{
    return uop == SC_UPDATE_INC ? (int64_t)((uint64_t)cur_value + (uint64_t)a)
                                : (int64_t)((uint64_t)cur_value - (uint64_t)a);
}

static void op_incdec(fuzz_op *op, sc_update_op uop)
{
    model_entry *m = &model[op->o][op->i];
    int64_t a = (int64_t)(int8_t)rd8(op->r), res = 0;
    bool create = rd8(op->r) & 1;
    int slam_exp = slam_expected(op->c, &op->k, my_tid);
    uint32_t ttl = rd8(op->r) > 240 ? 2 : 0;
    const char *name = uop == SC_UPDATE_INC ? "inc" : "dec";
    sc_status st;
    int ms;

    if (rd8(op->r) > 250) {
        a = (int64_t)rd64(op->r);        /* wrap-around */
    }
    ms = model_state(op->c, op->o, op->i);
    st = sc_cache_update(op->c, &op->k, uop, a, 0, ttl, create, now, (op_no & 1) ? &memos : NULL, &res);
    TRACE("%s key %d/%d by %lld create %d ttl %u (model %d) -> %d, %lld", name, op->o, op->i, (long long)a, create,
          ttl, ms, st, (long long)res);
    if (st == SC_OK) {
        bool from_model = ms != 0 && m->vtype == SC_V_LONG && res == apply_update(uop, m->scalar, a);
        bool from_zero = ms != 1 && create && res == apply_update(uop, 0, a);
        if (!from_model && !from_zero) {
            FAIL("%s key %d/%d by %lld: result %lld fits neither the model (%s, %lld) nor a new entry", name, op->o,
                 op->i, (long long)a, (long long)res, ms ? "present" : "absent", (long long)m->scalar);
        }
        if (from_model) {
            m->scalar = res;
            if (from_zero && ms == 2) {
                /* Updated in place, or created by an add (the model's 0
                 * was evicted): the shard's last store is not known. */
                slam_stored(op->c, &op->k, my_tid, true);
            }
        } else {
            sc_value_in nv = {SC_V_LONG, res, NULL, 0, NULL, NULL};
            /* Created by an add: the shard's last store for slam defense. */
            slam_check(op->c, &op->k, my_tid, slam_exp, st, name);
            model_set(op->c, op->o, op->i, &nv, ttl);
        }
    } else if (st == SC_BADTYPE) {
        if (ms == 0 || m->vtype == SC_V_LONG) {
            FAIL("%s key %d/%d: BADTYPE, but the model has %s", name, op->o, op->i, ms ? "an int" : "nothing");
        }
    } else if (st == SC_NOTFOUND) {
        if (create || ms == 1) {
            FAIL("%s key %d/%d: NOTFOUND (create %d, model %d)", name, op->o, op->i, create, ms);
        }
        if (ms == 2) {
            model_forget(op->o, op->i);
        }
    } else if (st == SC_SLAM || st == SC_NOMEM) {
        /* The add that creates a missing key was refused, or found no
         * memory. */
        slam_check(op->c, &op->k, my_tid, slam_exp, st, name);
    } else {
        FAIL("%s key %d/%d: status %d", name, op->o, op->i, st);
    }
}

static void op_cas(fuzz_op *op)
{
    model_entry *m = &model[op->o][op->i];
    int64_t res = 0;
    int64_t old = rd8(op->r) & 1 && m->present ? m->scalar : (int64_t)(int8_t)rd8(op->r);
    int64_t nv = (int64_t)rd64(op->r);
    int ms = model_state(op->c, op->o, op->i);
    sc_status st = sc_cache_update(op->c, &op->k, SC_UPDATE_CAS, old, nv, 0, false, now, NULL, &res);

    TRACE("cas key %d/%d %lld -> %lld (model %d) -> %d", op->o, op->i, (long long)old, (long long)nv, ms, st);
    if (st == SC_OK) {
        if (ms == 0 || m->vtype != SC_V_LONG || m->scalar != old) {
            FAIL("cas key %d/%d: swapped, but the model (%d) does not hold %lld", op->o, op->i, ms, (long long)old);
        }
        m->scalar = nv;
    } else if (st == SC_NOTFOUND) {
        if (ms == 1 && m->vtype == SC_V_LONG && m->scalar == old) {
            FAIL("cas key %d/%d: refused, but the model holds %lld", op->o, op->i, (long long)old);
        }
    } else if (st == SC_BADTYPE) {
        if (ms == 0 || m->vtype == SC_V_LONG) {
            FAIL("cas key %d/%d: BADTYPE, but the model has %s", op->o, op->i, ms ? "an int" : "nothing");
        }
    } else {
        FAIL("cas key %d/%d: status %d", op->o, op->i, st);
    }
}

/* apcu_entry: reserve, store as add, release. */
static void op_entry(fuzz_op *op)
{
    sc_reservation_ticket ticket;
    sc_value_out out;
    sc_value_in v;
    sc_status st = sc_cache_reserve(op->c, &op->k, now, &op->sink->base, &out, &ticket);
    int slam_exp, ms;

    TRACE("entry key %d/%d (model %d) -> %d", op->o, op->i, model_state(op->c, op->o, op->i), st);
    if (st == SC_OK) {
        check_lookup(op->c, op->o, op->i, "entry", st, &out);
        return;
    }
    check_lookup(op->c, op->o, op->i, "entry", st, NULL);
    make_value(op->r, &v);
    ms = model_state(op->c, op->o, op->i);
    slam_exp = slam_expected(op->c, &op->k, my_tid);
    st = sc_cache_store(op->c, &op->k, &v, 0, now, true);
    TRACE("entry store key %d/%d type %u len %zu -> %d", op->o, op->i, v.vtype, v.len, st);
    slam_check(op->c, &op->k, my_tid, slam_exp, st, "entry store");
    if (st == SC_OK) {
        model_set(op->c, op->o, op->i, &v, 0);
    } else if (st == SC_EXISTS && ms == 0) {
        FAIL("entry key %d/%d: store found an entry the model does not have", op->o, op->i);
    }
    sc_cache_release(op->c, &ticket);
}

/* Which owner and key a snapshot's entry is: -1 when none of ours. */
static int snapshot_key(const sc_entry_meta *meta, int *owner)
{
    for (int i = 0; i < NKEYS; i++) {
        if (meta->key_len != key_len[i] || memcmp(meta->key, key_buf[i], key_len[i]) != 0) {
            continue;
        }
        for (int o = 0; o < NOWNERS; o++) {
            sc_key k = mkkey(o, i);
            if (sc_cache_key_hash(&cur->seg, &k) == meta->hash) {
                *owner = o;
                return i;
            }
        }
    }
    return -1;
}

static void check_snapshot_entry(sc_cache *c, const sc_entry_meta *meta, const char *what)
{
    const model_entry *m;
    size_t from;
    int o = 0, i = snapshot_key(meta, &o);

    if (i < 0) {
        FAIL("%s: an entry with a key that was never stored (%u bytes)", what, meta->key_len);
    }
    m = &model[o][i];
    if (model_state(c, o, i) == 0) {
        FAIL("%s: key %d/%d is in the cache, but the model says absent", what, o, i);
    }
    if (meta->vtype != m->vtype) {
        FAIL("%s: key %d/%d has type %u, model %u", what, o, i, meta->vtype, m->vtype);
    }
    from = meta->vtype == SC_V_ZC && m->len >= ZC_MIN ? ZC_MIN : 0;
    if (meta->value && has_bytes(meta->vtype)
        && (meta->value_len != m->len
            || (m->len > from && memcmp(meta->value + from, m->data + from, m->len - from)))) {
        FAIL("%s: key %d/%d value differs from the model", what, o, i);
    }
    if ((meta->vtype == SC_V_LONG || meta->vtype == SC_V_DOUBLE) && meta->scalar != m->scalar) {
        FAIL("%s: key %d/%d scalar differs from the model", what, o, i);
    }
}

static void op_snapshot(fuzz_op *op)
{
    sc_entry_meta meta;
    sc_snapshot *snap;

    if (rd8(op->r) & 1) {
        int n = 0;
        snap = sc_snapshot_key(op->c, &op->k, now, true);
        while (snap && sc_snapshot_next(snap, &meta)) {
            check_snapshot_entry(op->c, &meta, "key snapshot");
            n++;
        }
        sc_snapshot_free(snap);
        if (snap && n == 0 && model_state(op->c, op->o, op->i) == 1) {
            FAIL("key snapshot of key %d/%d: empty, but the model has it", op->o, op->i);
        }
    } else {
        uint32_t s = rd8(op->r) % sc_cache_nshards(op->c);
        snap = sc_snapshot_shard(op->c, s, now, rd8(op->r) & 1);
        while (snap && sc_snapshot_next(snap, &meta)) {
            check_snapshot_entry(op->c, &meta, "shard snapshot");
        }
        sc_snapshot_free(snap);
    }
}

/* A store made by another thread (its own thread id, liveness slot and
 * sc_local), so that slam defense has another storer to refuse. */
typedef struct other_store {
    sc_cache *c;
    const sc_key *k;
    const sc_value_in *v;
    sc_status st;
    uint32_t tid;
    int o;                  /* the key's owner: the thread's writer */
} other_store;

static void *other_store_run(void *arg)
{
    other_store *s = arg;
    s->tid = (uint32_t)syscall(SYS_gettid);
    sc_cache_writer((uint32_t)s->o);
    s->st = sc_cache_store(s->c, s->k, s->v, 0, now, false);
    sc_cache_thread_done(s->c);
    return NULL;
}

static void op_other_store(fuzz_op *op)
{
    sc_value_in v;
    other_store s = {op->c, &op->k, &v, SC_OK, 0, op->o};
    pthread_t t;

    make_value(op->r, &v);
    if (pthread_create(&t, NULL, other_store_run, &s) != 0) {
        return;
    }
    pthread_join(t, NULL);
    TRACE("store by thread %u key %d/%d type %u len %zu -> %d", s.tid, op->o, op->i, v.vtype, v.len, s.st);
    /* Its thread's id is known once it ran; nothing else ran meanwhile. */
    slam_check(op->c, &op->k, s.tid, slam_expected(op->c, &op->k, s.tid), s.st, "store by another thread");
    if (s.st == SC_OK) {
        model_set(op->c, op->o, op->i, &v, 0);
    } else if (s.st != SC_NOMEM && s.st != SC_TOOBIG && s.st != SC_SLAM) {
        FAIL("store by another thread, key %d/%d: status %d", op->o, op->i, s.st);
    }
}

/* Rare switches: the epoch, slam defense, clear. */
static void op_switch(fuzz_op *op)
{
    uint8_t what = rd8(op->r);

    if (what < 16) {
        TRACE("clear");
        sc_cache_clear(op->c);
        model_forget_all();
    } else if (what < 48) {
        op->c->slam_defense = !op->c->slam_defense;
        TRACE("slam defense %s", op->c->slam_defense ? "on" : "off");
    } else if (what < 112 && zc_on) {
        TRACE("enter the epoch: %d", sc_epoch_enter(&op->c->seg));
    } else if (what < 176) {
        TRACE("leave the epoch");
        epoch_leave(op->c);
    }
}

static void run_op(sc_cache *c, reader *r, fsink *sink, fsink *fetch_sink)
{
    uint8_t opcode = rd8(r), kb = rd8(r);
    fuzz_op op = {c, r, sink, fetch_sink, kb / NKEYS % NOWNERS, kb % NKEYS, {0}};

    op.k = mkkey(op.o, op.i);
    op_no++;
    switch (opcode % 20) {
    case 0: case 1: case 2:
        op_store(&op);
        break;
    case 3:
        op_add(&op);
        break;
    case 4: case 5:
        op_fetch(&op, true);
        break;
    case 6:
        op_fetch(&op, opcode & 0x80);
        break;
    case 7:
        check_lookup(c, op.o, op.i, "exists", sc_cache_exists(c, &op.k, now), NULL);
        TRACE("exists key %d/%d", op.o, op.i);
        break;
    case 8:
        op_delete(&op);
        break;
    case 9:
        op_incdec(&op, SC_UPDATE_INC);
        break;
    case 10:
        op_incdec(&op, SC_UPDATE_DEC);
        break;
    case 11:
        op_cas(&op);
        break;
    case 12:
        op_entry(&op);
        break;
    case 13:
        op_snapshot(&op);
        break;
    case 14:
        now += rd8(r) % 4;
        TRACE("time is now %lld", (long long)now);
        break;
    case 15:
        op_switch(&op);
        break;
    case 16:
        if (opcode < 64) {
            op_other_store(&op);
        } else {
            op_fill(&op);
        }
        break;
    default:                             /* 17..19: more fetches */
        op_fetch(&op, true);
        break;
    }
    held_check();
    fair_check(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool keys_ready;
    static const uint32_t shard_choice[8] = {1, 2, 4, 8, 16, 64, 64, 256};
    reader r = {data, size};
    sc_cache c;
    char err[256];
    uint64_t seg_size;
    uint32_t nshards;
    uint8_t flags;
    fsink sink = {{fsink_get, NULL, 0, false, 0}, NULL}, fetch_sink = {{fsink_get, NULL, 0, false, 0}, NULL};

    if (!keys_ready) {
        const char *t = getenv("FUZZ_TRACE");
        trace = t && *t && *t != '0';
        setup_keys();
        keys_ready = true;
    }
    my_tid = (uint32_t)syscall(SYS_gettid);
    seg_size = (uint64_t)(1 + rd8(&r) % 4) << 20;
    nshards = shard_choice[rd8(&r) % 8];
    if (sc_cache_init(&c, seg_size, nshards, 64 + rd8(&r) * 16, rd8(&r) % 3, err, sizeof(err)) != 0) {
        FAIL("init (%llu bytes, %u shards): %s", (unsigned long long)seg_size, nshards, err);
    }
    /* Isolation (3 in 4 inputs), zero-copy values (3 in 4), slam defense
     * from the start (1 in 4; op_switch turns it on and off). */
    flags = rd8(&r);
    c.owner_of = (flags & 3) ? fuzz_owner_of : NULL;
    sc_cache_seg_owners(&c, fuzz_owner_of);
    zc_on = (flags & 12) != 0;
    c.slam_defense = (flags & 48) == 48;
    cur = &c;
    now = 1700000000;
    op_no = 0;
    TRACE("segment %llu bytes, %u shards, isolation %d, zero-copy %d, slam defense %d",
          (unsigned long long)seg_size, nshards, c.owner_of != NULL, zc_on, c.slam_defense);
    memset(model, 0, sizeof(model));
    memset(slam, 0, sizeof(slam));
    while (r.left) {
        run_op(&c, &r, &sink, &fetch_sink);
    }
    /* Every key the model is sure about must still be there, with its value. */
    for (int o = 0; o < NOWNERS; o++) {
        for (int i = 0; i < NKEYS; i++) {
            sc_key k = mkkey(o, i);
            sc_value_out out;
            sc_status st = fetch_value(&c, &k, false, &fetch_sink, &out);
            check_lookup(&c, o, i, "final fetch", st, st == SC_OK ? &out : NULL);
            model_forget(o, i);
        }
    }
    held_check();
    epoch_leave(&c);
    free(sink.mem);
    free(fetch_sink.mem);
    sc_cache_shutdown(&c);
    cur = NULL;
    return 0;
}
