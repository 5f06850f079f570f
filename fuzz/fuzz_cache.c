/*
 * fuzz/fuzz_cache.c - libFuzzer target over the shardcache core (every C
 * file in src/: the core has no PHP in it). Built by fuzz/build.sh with
 * ASan + UBSan.
 *
 * Each input is a program: a header picks the segment size (1..4 MB, so that
 * stores evict) and the shard count, then every following group of bytes is
 * one operation - store, add, fetch, exists, delete, inc, dec, cas,
 * entry (reserve / store / release), clear, snapshot of a key or a shard,
 * or a jump of the clock - on one of 48 keys. Some keys are long, one is
 * empty, some share their PHP hash on purpose (so that they collide in the
 * table and only the key bytes tell them apart).
 *
 * A model (a plain array per key) runs beside the cache and every answer is
 * checked against it:
 *  - a hit must return exactly the model's value (type, scalar, bytes);
 *  - a miss is allowed only when the model says the key is absent or expired,
 *    or when the cache may have removed it since the model's value was
 *    written: its figures (evicted + expired + repairs + resets + clears)
 *    changed since then;
 *  - add/inc/cas/delete results must agree with the model in the same way;
 *  - snapshots may only show keys and values the model allows.
 * Any disagreement aborts (a crash for libFuzzer), after printing what went
 * wrong. ASan/UBSan catch memory errors and undefined behaviour on the way.
 *
 * Each input gets a fresh segment (mapped and unmapped here), so a failing
 * input reproduces on its own: fuzz/run.sh --repro FILE (FUZZ_TRACE=1 prints
 * every operation, its arguments, the model's view and the result).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sc_cache.h"
#include "sc_vtype.h"

#define NKEYS 48
#define MAX_VALUE (320 * 1024)

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

typedef struct reader {
    const uint8_t *p;
    size_t left;
} reader;

static char key_buf[NKEYS][400];
static uint32_t key_len[NKEYS];
static uint64_t key_hash[NKEYS];
static model_entry model[NKEYS];
static int64_t now;
static uint64_t op_no;
static bool trace;          /* FUZZ_TRACE=1: print every operation (for reproducing) */

#define TRACE(...) do { if (trace) { fprintf(stderr, "op %llu: ", (unsigned long long)op_no); \
        fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

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

static sc_key mkkey(int i)
{
    sc_key k;
    k.str = key_buf[i];
    k.len = key_len[i];
    k.glue_hash = key_hash[i];
    return k;
}

static uint64_t removal_epoch(sc_cache *c)
{
    sc_cache_figures f;
    sc_cache_figures_get(c, &f);
    return f.evicted + f.expired + f.repairs + f.resets + f.clears;
}

#define FAIL(...) do { \
        fprintf(stderr, "fuzz_cache: op %llu: ", (unsigned long long)op_no); \
        fprintf(stderr, __VA_ARGS__); \
        fputc('\n', stderr); \
        abort(); \
    } while (0)

static bool has_bytes(uint8_t vtype)
{
    return vtype == SC_V_STRING || vtype == SC_V_ARRAY || vtype == SC_V_SERIALIZED;
}

static bool model_expired(const model_entry *m)
{
    return m->ttl && m->ctime + (int64_t)m->ttl < now;
}

/* The model's view of a key: 0 = certainly absent, 1 = present and certainly
 * still there, 2 = present unless the cache removed it since. */
static int model_state(sc_cache *c, int i)
{
    const model_entry *m = &model[i];
    if (!m->present || model_expired(m)) {
        return 0;
    }
    return removal_epoch(c) == m->epoch ? 1 : 2;
}

static void model_forget(int i)
{
    free(model[i].data);
    memset(&model[i], 0, sizeof(model[i]));
}

static void model_set(sc_cache *c, int i, const sc_value_in *v, uint32_t ttl)
{
    model_forget(i);
    model[i].present = true;
    model[i].vtype = v->vtype;
    model[i].scalar = v->scalar;
    model[i].len = v->len;
    if (v->len) {
        model[i].data = malloc(v->len);
        memcpy(model[i].data, v->data, v->len);
    }
    model[i].ttl = ttl;
    model[i].ctime = now;
    model[i].epoch = removal_epoch(c);
}

/* ---- a sink backed by malloc ---- */

typedef struct fsink {
    sc_sink base;
} fsink;

static char *fsink_get(sc_sink *s, uint8_t vtype, size_t len)
{
    (void)vtype;
    free(s->buf);
    s->buf = malloc(len ? len : 1);
    s->cap = len;
    s->is_string = vtype == SC_V_STRING;
    return s->buf;
}

static void check_value(int i, const char *what, const sc_value_out *out)
{
    const model_entry *m = &model[i];
    if (out->vtype != m->vtype) {
        FAIL("%s key %d: type %u, model has %u", what, i, out->vtype, m->vtype);
    }
    if (has_bytes(m->vtype)) {
        if (out->len != m->len || (m->len && memcmp(out->data, m->data, m->len) != 0)) {
            FAIL("%s key %d: %zu value bytes differ from the model's %zu", what, i, out->len, m->len);
        }
    } else if (m->vtype == SC_V_LONG || m->vtype == SC_V_DOUBLE) {
        if (out->scalar != m->scalar) {
            FAIL("%s key %d: scalar %lld, model has %lld", what, i, (long long)out->scalar, (long long)m->scalar);
        }
    }
}

/* A fetch-like answer (hit with out, or miss) against the model. */
static void check_lookup(sc_cache *c, int i, const char *what, sc_status st, const sc_value_out *out)
{
    int ms = model_state(c, i);
    if (st == SC_OK) {
        if (ms == 0) {
            FAIL("%s key %d: hit, but the model says absent%s", what, i,
                 model[i].present ? " (expired)" : "");
        }
        if (out) {
            check_value(i, what, out);
        }
    } else if (st == SC_NOTFOUND) {
        if (ms == 1) {
            FAIL("%s key %d: miss, but the model has it and nothing was removed since", what, i);
        }
        if (ms == 2) {
            model_forget(i);   /* gone: the cache has dropped it (an expired entry may still be
                                  there, so that one is kept: delete may still find it) */
        }
    } else {
        FAIL("%s key %d: status %d", what, i, st);
    }
}

/* Value bytes for (key, op): deterministic, different per write. */
static uint8_t value_bytes[MAX_VALUE];

static void make_value(reader *r, sc_value_in *v)
{
    uint8_t t = rd8(r);
    size_t len = 0;

    v->vtype = (uint8_t)(t % 8);
    v->scalar = 0;
    v->data = NULL;
    v->len = 0;
    switch (v->vtype) {
    case SC_V_LONG:
        v->scalar = (int64_t)rd64(r);
        break;
    case SC_V_DOUBLE:
        v->scalar = (int64_t)rd64(r);
        break;
    case SC_V_STRING:
    case SC_V_ARRAY:
    case SC_V_SERIALIZED: {
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
        for (size_t j = 0; j < len; j++) {
            value_bytes[j] = (uint8_t)(op_no * 131 + j * 7 + (j >> 8));
        }
        v->data = (const char *)value_bytes;
        v->len = len;
        break;
    }
    default:
        break;
    }
}

static void check_snapshot_entry(sc_cache *c, const sc_entry_meta *meta, const char *what)
{
    int i;
    for (i = 0; i < NKEYS; i++) {
        if (meta->key_len == key_len[i] && memcmp(meta->key, key_buf[i], key_len[i]) == 0) {
            break;
        }
    }
    if (i == NKEYS) {
        FAIL("%s: an entry with a key that was never stored (%u bytes)", what, meta->key_len);
    }
    if (model_state(c, i) == 0) {
        FAIL("%s: key %d is in the cache, but the model says absent", what, i);
    }
    if (meta->vtype != model[i].vtype) {
        FAIL("%s: key %d has type %u, model %u", what, i, meta->vtype, model[i].vtype);
    }
    if (meta->value && has_bytes(meta->vtype)
        && (meta->value_len != model[i].len || (model[i].len && memcmp(meta->value, model[i].data, model[i].len)))) {
        FAIL("%s: key %d value differs from the model", what, i);
    }
    if (!has_bytes(meta->vtype) && (meta->vtype == SC_V_LONG || meta->vtype == SC_V_DOUBLE)
        && meta->scalar != model[i].scalar) {
        FAIL("%s: key %d scalar differs from the model", what, i);
    }
}

static int64_t apply_update(sc_update_op op, int64_t cur, int64_t a)
{
    return op == SC_UPDATE_INC ? (int64_t)((uint64_t)cur + (uint64_t)a) : (int64_t)((uint64_t)cur - (uint64_t)a);
}

static void run_op(sc_cache *c, reader *r, fsink *sink)
{
    uint8_t opcode = rd8(r);
    int i = rd8(r) % NKEYS;
    sc_key k = mkkey(i);
    sc_value_out out;
    sc_value_in v = {0};
    sc_status st;
    int ms;

    op_no++;
    switch (opcode % 16) {
    case 0: case 1: case 2: {            /* store */
        uint8_t t = rd8(r);
        uint32_t ttl = t < 200 ? 0 : (uint32_t)(t - 199);
        make_value(r, &v);
        st = sc_cache_store(c, &k, &v, ttl, now, false);
        TRACE("store key %d type %u len %zu ttl %u -> %d", i, v.vtype, v.len, ttl, st);
        if (st == SC_OK) {
            model_set(c, i, &v, ttl);
        } else if (st != SC_NOMEM && st != SC_TOOBIG) {
            FAIL("store key %d: status %d", i, st);
        }
        /* on failure the old value stays (or was evicted): the model keeps it */
        break;
    }
    case 3: {                            /* add */
        make_value(r, &v);
        ms = model_state(c, i);
        st = sc_cache_store(c, &k, &v, 0, now, true);
        TRACE("add key %d type %u len %zu (model %d) -> %d", i, v.vtype, v.len, ms, st);
        if (st == SC_OK) {
            if (ms == 1) {
                FAIL("add key %d: succeeded over a live entry", i);
            }
            model_set(c, i, &v, 0);
        } else if (st == SC_EXISTS) {
            if (ms == 0) {
                FAIL("add key %d: EXISTS, but the model says absent", i);
            }
        } else if (st != SC_NOMEM && st != SC_TOOBIG) {
            FAIL("add key %d: status %d", i, st);
        }
        break;
    }
    case 4: case 5: case 6:              /* fetch */
        st = sc_cache_fetch(c, &k, now, &sink->base, &out);
        TRACE("fetch key %d (model %d) -> %d", i, model_state(c, i), st);
        check_lookup(c, i, "fetch", st, st == SC_OK ? &out : NULL);
        break;
    case 7:                              /* exists */
        st = sc_cache_exists(c, &k, now);
        TRACE("exists key %d (model %d) -> %d", i, model_state(c, i), st);
        check_lookup(c, i, "exists", st, NULL);
        break;
    case 8:                              /* delete */
        ms = model_state(c, i);
        st = sc_cache_delete(c, &k);
        TRACE("delete key %d (model %d) -> %d", i, ms, st);
        if (st == SC_OK && !model[i].present) {
            FAIL("delete key %d: found, but the model says it was never stored or deleted", i);
        }
        if (st == SC_NOTFOUND && ms == 1) {
            FAIL("delete key %d: not found, but the model has it", i);
        }
        model_forget(i);
        break;
    case 9: case 10: {                   /* inc / dec */
        sc_update_op op = opcode % 16 == 9 ? SC_UPDATE_INC : SC_UPDATE_DEC;
        int64_t a = (int64_t)(int8_t)rd8(r);
        int64_t res = 0;
        bool create = rd8(r) & 1;
        uint32_t ttl = rd8(r) > 240 ? 2 : 0;
        if (rd8(r) > 250) {
            a = (int64_t)rd64(r);        /* wrap-around */
        }
        ms = model_state(c, i);
        st = sc_cache_update(c, &k, op, a, 0, ttl, create, now, NULL, &res);
        TRACE("%s key %d by %lld create %d ttl %u (model %d) -> %d, %lld", op == SC_UPDATE_INC ? "inc" : "dec", i,
              (long long)a, create, ttl, ms, st, (long long)res);
        if (st == SC_OK) {
            bool from_model = ms != 0 && model[i].vtype == SC_V_LONG
                              && res == apply_update(op, model[i].scalar, a);
            bool from_zero = ms != 1 && create && res == apply_update(op, 0, a);
            if (!from_model && !from_zero) {
                FAIL("%s key %d by %lld: result %lld fits neither the model (%s, %lld) nor a new entry",
                     op == SC_UPDATE_INC ? "inc" : "dec", i, (long long)a, (long long)res,
                     ms ? "present" : "absent", (long long)model[i].scalar);
            }
            if (from_model) {
                model[i].scalar = res;
            } else {
                sc_value_in nv = {SC_V_LONG, res, NULL, 0, NULL, NULL};
                model_set(c, i, &nv, ttl);
            }
        } else if (st == SC_BADTYPE) {
            if (ms == 0 || model[i].vtype == SC_V_LONG) {
                FAIL("inc key %d: BADTYPE, but the model has %s", i, ms ? "an int" : "nothing");
            }
        } else if (st == SC_NOTFOUND) {
            if (create || ms == 1) {
                FAIL("inc key %d: NOTFOUND (create %d, model %d)", i, create, ms);
            }
            if (ms == 2) {
                model_forget(i);
            }
        } else if (st != SC_NOMEM) {
            FAIL("inc key %d: status %d", i, st);
        }
        break;
    }
    case 11: {                           /* cas */
        int64_t res = 0;
        int64_t old = rd8(r) & 1 && model[i].present ? model[i].scalar : (int64_t)(int8_t)rd8(r);
        int64_t nv = (int64_t)rd64(r);
        ms = model_state(c, i);
        st = sc_cache_update(c, &k, SC_UPDATE_CAS, old, nv, 0, false, now, NULL, &res);
        TRACE("cas key %d %lld -> %lld (model %d) -> %d", i, (long long)old, (long long)nv, ms, st);
        if (st == SC_OK) {
            if (ms == 0 || model[i].vtype != SC_V_LONG || model[i].scalar != old) {
                FAIL("cas key %d: swapped, but the model (%d) does not hold %lld", i, ms, (long long)old);
            }
            model[i].scalar = nv;
        } else if (st == SC_NOTFOUND) {
            if (ms == 1 && model[i].vtype == SC_V_LONG && model[i].scalar == old) {
                FAIL("cas key %d: refused, but the model holds %lld", i, (long long)old);
            }
        } else if (st == SC_BADTYPE) {
            if (ms == 0 || model[i].vtype == SC_V_LONG) {
                FAIL("cas key %d: BADTYPE, but the model has %s", i, ms ? "an int" : "nothing");
            }
        } else {
            FAIL("cas key %d: status %d", i, st);
        }
        break;
    }
    case 12: {                           /* entry: reserve, store as add, release */
        sc_reservation_ticket ticket;
        st = sc_cache_reserve(c, &k, now, &sink->base, &out, &ticket);
        TRACE("entry key %d (model %d) -> %d", i, model_state(c, i), st);
        if (st == SC_OK) {
            check_lookup(c, i, "entry", st, &out);
            break;
        }
        check_lookup(c, i, "entry", st, NULL);
        make_value(r, &v);
        ms = model_state(c, i);
        st = sc_cache_store(c, &k, &v, 0, now, true);
        TRACE("entry store key %d type %u len %zu -> %d", i, v.vtype, v.len, st);
        if (st == SC_OK) {
            model_set(c, i, &v, 0);
        } else if (st == SC_EXISTS && ms == 0) {
            FAIL("entry key %d: store found an entry the model does not have", i);
        }
        sc_cache_release(c, &ticket);
        break;
    }
    case 13:                             /* snapshot of a key or a shard */
        if (rd8(r) & 1) {
            sc_snapshot *snap = sc_snapshot_key(c, &k, now, true);
            sc_entry_meta meta;
            int n = 0;
            while (snap && sc_snapshot_next(snap, &meta)) {
                check_snapshot_entry(c, &meta, "key snapshot");
                n++;
            }
            sc_snapshot_free(snap);
            if (snap && n == 0 && model_state(c, i) == 1) {
                FAIL("key snapshot of key %d: empty, but the model has it", i);
            }
        } else {
            uint32_t s = rd8(r) % sc_cache_nshards(c);
            sc_snapshot *snap = sc_snapshot_shard(c, s, now, rd8(r) & 1);
            sc_entry_meta meta;
            while (snap && sc_snapshot_next(snap, &meta)) {
                check_snapshot_entry(c, &meta, "shard snapshot");
            }
            sc_snapshot_free(snap);
        }
        break;
    case 14:                             /* time passes */
        now += rd8(r) % 4;
        TRACE("time is now %lld", (long long)now);
        break;
    case 15:                             /* clear, rarely */
        if (rd8(r) < 16) {
            TRACE("clear");
            sc_cache_clear(c);
            for (int j = 0; j < NKEYS; j++) {
                model_forget(j);
            }
        }
        break;
    }
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
    fsink sink = {{fsink_get, NULL, 0, false, 0}};

    if (!keys_ready) {
        const char *t = getenv("FUZZ_TRACE");
        trace = t && *t && *t != '0';
        setup_keys();
        keys_ready = true;
    }
    seg_size = (uint64_t)(1 + rd8(&r) % 4) << 20;
    nshards = shard_choice[rd8(&r) % 8];
    if (sc_cache_init(&c, seg_size, nshards, 64 + rd8(&r) * 16, rd8(&r) % 3, err, sizeof(err)) != 0) {
        FAIL("init (%llu bytes, %u shards): %s", (unsigned long long)seg_size, nshards, err);
    }
    now = 1700000000;
    op_no = 0;
    TRACE("segment %llu bytes, %u shards", (unsigned long long)seg_size, nshards);
    memset(model, 0, sizeof(model));
    while (r.left) {
        run_op(&c, &r, &sink);
    }
    /* Every key the model is sure about must still be there, with its value. */
    for (int i = 0; i < NKEYS; i++) {
        sc_key k = mkkey(i);
        sc_value_out out;
        sc_status st = sc_cache_fetch(&c, &k, now, &sink.base, &out);
        check_lookup(&c, i, "final fetch", st, st == SC_OK ? &out : NULL);
        model_forget(i);
    }
    free(sink.base.buf);
    sc_cache_shutdown(&c);
    return 0;
}
