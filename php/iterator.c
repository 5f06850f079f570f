/*
 * php/iterator.c - the APCUIterator class and the APC_ITER_* and
 * APC_LIST_* constants, registered only when the APCu extension itself is
 * not loaded (they would clash) and shardcache.apcu_compat is on.
 *
 * Order: the entries come in the order they were stored, across shards (as
 * APCu's own tests expect; stores of different processes within one tick
 * of the coarse clock, 1 to 10 ms, in either order). At its first fetch an
 * iterator makes its walk list: the key and store stamp (sc_entry.stamp:
 * the coarse monotonic clock, strictly increasing per thread, nothing
 * shared written for it) of every matching
 * live entry - from a snapshot of each shard without values
 * (sc_snapshot.c: copies made under the shard's lock), or, for a search by
 * a list of keys, from a direct lookup of each listed key - sorted by stamp
 * (ties, possible between shards, by key bytes). Then it turns that list
 * into items - key plus the array current() returns - a chunk at a time, as
 * APCu does: a fetch collects matching entries while it has collected no
 * more than chunk_size of them (so a chunk holds chunk_size + 1 items when
 * that many are left, like APCu's). Each entry is looked up again when its
 * chunk is fetched (with its value when the format asks for it), so an entry
 * deleted, replaced or cleared since the list was made is not yielded from a
 * later chunk (as in APCu, the current chunk's items stay). Values are
 * decoded (php_sc_decode) only after every lock is released; nothing here
 * runs PHP code under a cache lock.
 *
 * Like APCu, apcu_delete($iterator) deletes the entries of the chunks the
 * iterator has not fetched yet (everything, for an iterator not iterated
 * yet), and the totals (getTotalCount/Hits/Size) are computed once over the
 * whole cache, whatever the list, and then kept.
 *
 * Figures: num_hits are the hits recorded in the entry, which are sampled
 * (one fetch in 32 of each process records 32 hits, see sc_cache.c), so they
 * are multiples of 32; ref_count and deletion_time are always 0, and the
 * deleted list is always empty: shardcache never keeps a deleted entry
 * around (readers copy under a sequence check instead). Times are Unix
 * seconds.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php.h"
#include "zend_interfaces.h"
#include "zend_exceptions.h"
#include "ext/pcre/php_pcre.h"
#include "iterator.h"
#include "php_shardcache.h"
#include "key.h"
#include "owner.h"
#include "fetch.h"
#include "sc_cache.h"
#include "iterator_arginfo.h"

/* APCu's values. */
#define PHP_SC_LIST_ACTIVE 1
#define PHP_SC_LIST_DELETED 2
#define PHP_SC_ITER_TYPE (1 << 0)
#define PHP_SC_ITER_KEY (1 << 1)
#define PHP_SC_ITER_VALUE (1 << 2)
#define PHP_SC_ITER_NUM_HITS (1 << 3)
#define PHP_SC_ITER_MTIME (1 << 4)
#define PHP_SC_ITER_CTIME (1 << 5)
#define PHP_SC_ITER_DTIME (1 << 6)
#define PHP_SC_ITER_ATIME (1 << 7)
#define PHP_SC_ITER_REFCOUNT (1 << 8)
#define PHP_SC_ITER_MEM_SIZE (1 << 9)
#define PHP_SC_ITER_TTL (1 << 10)
#define PHP_SC_ITER_NONE 0
#define PHP_SC_ITER_ALL ((zend_long)0xffffffffLL)

#define PHP_SC_DEFAULT_CHUNK 100

zend_class_entry *php_sc_iterator_ce = NULL;
static zend_object_handlers php_sc_it_handlers;

typedef struct php_sc_it_item {
    zend_string *key;
    zval info;              /* what current() returns */
} php_sc_it_item;

/* One entry of the walk list. */
typedef struct php_sc_it_ref {
    uint64_t stamp;
    zend_string *key;
} php_sc_it_ref;

typedef struct php_sc_iterator {
    bool initialized;
    bool totals_done;
    bool fetching;          /* inside php_sc_it_fetch, which may run user code */
    zend_long format;
    zend_long chunk_size;
    zend_long list;
    /* search: a regex or a set of keys (or neither) */
    zend_string *regex;
    pcre_cache_entry *pce;
    pcre2_match_data *match_data;
    HashTable *search_keys;
    /* position: the walk list (made at the first fetch), and the next entry */
    bool listed;
    php_sc_it_ref *walk;
    uint32_t nwalk;
    uint32_t walk_pos;
    sc_snapshot *snap;      /* the entry being made into an item */
    /* the chunk fetched last */
    php_sc_it_item *items;
    uint32_t nitems;
    uint32_t items_cap;
    uint32_t idx;
    /* totals */
    zend_long total_hits;
    zend_long total_size;
    zend_long total_count;
    zend_object std;
} php_sc_iterator;

static inline php_sc_iterator *php_sc_it_from_obj(zend_object *obj)
{
    return (php_sc_iterator *)((char *)obj - offsetof(php_sc_iterator, std));
}

#define PHP_SC_IT_THIS() php_sc_it_from_obj(Z_OBJ_P(ZEND_THIS))

/* Whether it may be used now: not while it fills its chunk, since decoding
 * a value may run user code (__wakeup, __unserialize) that calls back into
 * it. Throws when not. */
static bool php_sc_it_idle(const php_sc_iterator *it)
{
    if (it->fetching) {
        zend_throw_error(NULL, "APCUIterator cannot be used while it reads entries");
        return false;
    }
    return true;
}

/* Whether it was constructed and is idle. Throws when not. */
static bool php_sc_it_usable(const php_sc_iterator *it)
{
    if (!it->initialized) {
        zend_throw_error(NULL, "Trying to use uninitialized APCUIterator");
        return false;
    }
    return php_sc_it_idle(it);
}

/* ---- state ---- */

static void php_sc_it_clear_items(php_sc_iterator *it)
{
    uint32_t i;

    for (i = 0; i < it->nitems; i++) {
        zend_string_release(it->items[i].key);
        zval_ptr_dtor(&it->items[i].info);
    }
    it->nitems = 0;
    it->idx = 0;
}

static void php_sc_it_reset_position(php_sc_iterator *it)
{
    uint32_t i;

    php_sc_it_clear_items(it);
    for (i = 0; i < it->nwalk; i++) {
        if (it->walk[i].key) {
            zend_string_release(it->walk[i].key);
        }
    }
    if (it->walk) {
        efree(it->walk);
        it->walk = NULL;
    }
    it->nwalk = 0;
    it->walk_pos = 0;
    it->listed = false;
    sc_snapshot_free(it->snap);
    it->snap = NULL;
}

/* Drops everything the constructor set up. */
static void php_sc_it_release(php_sc_iterator *it)
{
    php_sc_it_reset_position(it);
    if (it->items) {
        efree(it->items);
        it->items = NULL;
    }
    it->items_cap = 0;
    it->fetching = false;
    if (it->match_data) {
        pcre2_match_data_free(it->match_data);
        it->match_data = NULL;
    }
    if (it->pce) {
        php_pcre_pce_decref(it->pce);
        it->pce = NULL;
    }
    if (it->regex) {
        zend_string_release(it->regex);
        it->regex = NULL;
    }
    if (it->search_keys) {
        zend_hash_destroy(it->search_keys);
        FREE_HASHTABLE(it->search_keys);
        it->search_keys = NULL;
    }
    it->initialized = false;
}

static zend_object *php_sc_it_create(zend_class_entry *ce)
{
    php_sc_iterator *it = zend_object_alloc(sizeof(php_sc_iterator), ce);

    memset(it, 0, offsetof(php_sc_iterator, std));
    zend_object_std_init(&it->std, ce);
    object_properties_init(&it->std, ce);
    it->std.handlers = &php_sc_it_handlers;
    return &it->std;
}

static void php_sc_it_free(zend_object *obj)
{
    php_sc_it_release(php_sc_it_from_obj(obj));
    zend_object_std_dtor(obj);
}

/* The values held in the current chunk are visible to the cycle collector. */
static HashTable *php_sc_it_get_gc(zend_object *obj, zval **table, int *n)
{
    php_sc_iterator *it = php_sc_it_from_obj(obj);
    zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
    uint32_t i;

    for (i = 0; i < it->nitems; i++) {
        zend_get_gc_buffer_add_zval(buf, &it->items[i].info);
    }
    zend_get_gc_buffer_use(buf, table, n);
    return zend_std_get_properties(obj);
}

/* ---- matching and items ---- */

static bool php_sc_it_matches(php_sc_iterator *it, const sc_entry_meta *m)
{
    if (it->search_keys) {
        return zend_hash_str_exists(it->search_keys, m->key, m->key_len);
    }
    if (it->pce) {
        return pcre2_match(php_pcre_pce_re(it->pce), (PCRE2_SPTR)m->key, m->key_len, 0, 0, it->match_data,
                           php_pcre_mctx()) >= 0;
    }
    return true;
}

static bool php_sc_it_wants_values(const php_sc_iterator *it)
{
    return (it->format & PHP_SC_ITER_VALUE) != 0;
}

/* Builds current()'s array for one entry, in APCu's key order. */
static void php_sc_it_build_info(php_sc_iterator *it, const sc_entry_meta *m, zend_string *key, zval *info)
{
    HashTable *ht;
    zval zv;

    array_init(info);
    ht = Z_ARRVAL_P(info);
    if (it->format & PHP_SC_ITER_TYPE) {
        ZVAL_INTERNED_STR(&zv, ZSTR_KNOWN(ZEND_STR_USER));
        zend_hash_str_add_new(ht, "type", sizeof("type") - 1, &zv);
    }
    if (it->format & PHP_SC_ITER_KEY) {
        ZVAL_STR_COPY(&zv, key);
        zend_hash_str_add_new(ht, "key", sizeof("key") - 1, &zv);
    }
    if (it->format & PHP_SC_ITER_VALUE) {
        ZVAL_UNDEF(&zv);
        if (!php_sc_decode(m->vtype, m->scalar, m->value, m->value_len, &zv)) {
            zval_ptr_dtor(&zv);
            ZVAL_NULL(&zv);
        }
        zend_hash_str_add_new(ht, "value", sizeof("value") - 1, &zv);
    }
    if (it->format & PHP_SC_ITER_NUM_HITS) {
        add_assoc_long_ex(info, "num_hits", sizeof("num_hits") - 1, (zend_long)m->nhits);
    }
    if (it->format & PHP_SC_ITER_MTIME) {
        add_assoc_long_ex(info, "mtime", sizeof("mtime") - 1, (zend_long)m->mtime);
    }
    if (it->format & PHP_SC_ITER_CTIME) {
        add_assoc_long_ex(info, "creation_time", sizeof("creation_time") - 1, (zend_long)m->ctime);
    }
    if (it->format & PHP_SC_ITER_DTIME) {
        add_assoc_long_ex(info, "deletion_time", sizeof("deletion_time") - 1, 0);
    }
    if (it->format & PHP_SC_ITER_ATIME) {
        add_assoc_long_ex(info, "access_time", sizeof("access_time") - 1, (zend_long)m->atime);
    }
    if (it->format & PHP_SC_ITER_REFCOUNT) {
        add_assoc_long_ex(info, "ref_count", sizeof("ref_count") - 1, 0);
    }
    if (it->format & PHP_SC_ITER_MEM_SIZE) {
        add_assoc_long_ex(info, "mem_size", sizeof("mem_size") - 1, (zend_long)m->mem_size);
    }
    if (it->format & PHP_SC_ITER_TTL) {
        add_assoc_long_ex(info, "ttl", sizeof("ttl") - 1, (zend_long)m->ttl);
    }
}

/* ---- the walk list ---- */

/* A listed key's figures (for a key-list iterator: no shard is copied).
 * Only m's numbers are valid afterwards: its key and value pointed into the
 * snapshot, which is freed. */
static bool php_sc_it_lookup(zend_string *key, int64_t now, sc_entry_meta *m)
{
    sc_snapshot *snap = php_sc_owner_snapshot_key(key, now, false, m);

    if (!snap) {
        return false;
    }
    sc_snapshot_free(snap);
    return true;
}

static void php_sc_it_walk_add(php_sc_iterator *it, uint32_t *cap, uint64_t stamp, zend_string *key)
{
    if (it->nwalk == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        it->walk = safe_erealloc(it->walk, *cap, sizeof(php_sc_it_ref), 0);
    }
    it->walk[it->nwalk].stamp = stamp;
    it->walk[it->nwalk].key = key;
    it->nwalk++;
}

static int php_sc_it_walk_cmp(const void *a, const void *b)
{
    const php_sc_it_ref *x = a, *y = b;
    size_t n;
    int c;

    if (x->stamp != y->stamp) {
        return x->stamp < y->stamp ? -1 : 1;
    }
    n = ZSTR_LEN(x->key) < ZSTR_LEN(y->key) ? ZSTR_LEN(x->key) : ZSTR_LEN(y->key);
    c = memcmp(ZSTR_VAL(x->key), ZSTR_VAL(y->key), n);
    if (c != 0) {
        return c;
    }
    return ZSTR_LEN(x->key) < ZSTR_LEN(y->key) ? -1 : ZSTR_LEN(x->key) > ZSTR_LEN(y->key);
}

/* Makes the walk list: every live entry that matches the search, in store
 * order. No values are copied here. */
static void php_sc_it_make_walk(php_sc_iterator *it, int64_t now)
{
    uint32_t cap = 0, n, i;
    sc_entry_meta m;

    it->listed = true;
    if (!php_sc_active) {
        return;
    }
    if (it->search_keys) {
        /* A key list: look each key up (APCu: instant; no shard is copied). */
        zend_string *key;
        ZEND_HASH_FOREACH_STR_KEY(it->search_keys, key) {
            if (key && php_sc_it_lookup(key, now, &m)) {
                php_sc_it_walk_add(it, &cap, m.stamp, zend_string_copy(key));
            }
        } ZEND_HASH_FOREACH_END();
    } else {
        n = sc_cache_nshards(&php_sc_shared_cache);
        for (i = 0; i < n; i++) {
            /* NULL (out of memory) reads as an empty shard. */
            sc_snapshot *snap = sc_snapshot_shard(&php_sc_shared_cache, i, now, false);
            while (sc_snapshot_next(snap, &m)) {
                if (php_sc_owner_listed(&m, now) && php_sc_it_matches(it, &m)) {
                    php_sc_it_walk_add(it, &cap, m.stamp, zend_string_init(m.key, m.key_len, 0));
                }
            }
            sc_snapshot_free(snap);
        }
    }
    if (it->nwalk > 1) {
        qsort(it->walk, it->nwalk, sizeof(php_sc_it_ref), php_sc_it_walk_cmp);
    }
}

/*
 * Replaces the current chunk with the next one. keys_only: the items get
 * keys but no arrays (for deleting). Returns the number of items.
 */
static uint32_t php_sc_it_fetch(php_sc_iterator *it, bool keys_only)
{
    bool with_values = !keys_only && php_sc_it_wants_values(it);
    int64_t now;
    sc_entry_meta m;

    php_sc_it_clear_items(it);
    if (it->list != PHP_SC_LIST_ACTIVE) {
        return 0; /* the deleted list is always empty */
    }
    now = php_sc_now();
    if (!it->listed) {
        php_sc_it_make_walk(it, now);
    }
    it->fetching = true;
    while ((zend_long)it->nitems <= it->chunk_size && it->walk_pos < it->nwalk) {
        zend_string *key = it->walk[it->walk_pos].key;
        zval info;
        it->walk[it->walk_pos].key = NULL;
        it->walk_pos++;
        if (keys_only) {
            ZVAL_NULL(&info);
        } else {
            /* Look the entry up again: it may be gone, or replaced. */
            if (!(it->snap = php_sc_owner_snapshot_key(key, now, with_values, &m))) {
                zend_string_release(key);
                continue;
            }
        }
        if (it->nitems == it->items_cap) {
            uint32_t cap = it->items_cap ? it->items_cap * 2 : 16;
            it->items = safe_erealloc(it->items, cap, sizeof(php_sc_it_item), 0);
            it->items_cap = cap;
        }
        if (!keys_only) {
            /* May run user code (decoding), with no lock held. */
            php_sc_it_build_info(it, &m, key, &info);
            sc_snapshot_free(it->snap);
            it->snap = NULL;
        }
        /* Only a complete item is counted (and seen by the cycle collector). */
        it->items[it->nitems].key = key;
        ZVAL_COPY_VALUE(&it->items[it->nitems].info, &info);
        it->nitems++;
        if (EG(exception)) {
            break; /* decoding ran user code that threw: stop here */
        }
    }
    it->fetching = false;
    it->idx = 0;
    return it->nitems;
}

static void php_sc_it_totals(php_sc_iterator *it)
{
    uint32_t n = php_sc_active ? sc_cache_nshards(&php_sc_shared_cache) : 0, i;
    int64_t now = php_sc_now();
    sc_entry_meta m;

    it->total_hits = it->total_size = it->total_count = 0;
    if (it->search_keys) {
        /* A key list: look each key up instead of copying every shard. */
        zend_string *key;
        ZEND_HASH_FOREACH_STR_KEY(it->search_keys, key) {
            if (key && php_sc_it_lookup(key, now, &m)) {
                it->total_hits += (zend_long)m.nhits;
                it->total_size += (zend_long)m.mem_size;
                it->total_count++;
            }
        } ZEND_HASH_FOREACH_END();
        n = 0;
    }
    for (i = 0; i < n; i++) {
        sc_snapshot *snap = sc_snapshot_shard(&php_sc_shared_cache, i, now, false);
        while (sc_snapshot_next(snap, &m)) {
            if (php_sc_owner_listed(&m, now) && php_sc_it_matches(it, &m)) {
                it->total_hits += (zend_long)m.nhits;
                it->total_size += (zend_long)m.mem_size;
                it->total_count++;
            }
        }
        sc_snapshot_free(snap);
    }
    it->totals_done = true;
}

/* ---- methods ---- */

ZEND_METHOD(APCUIterator, __construct)
{
    php_sc_iterator *it = PHP_SC_IT_THIS();
    zval *search = NULL;
    zend_long format = PHP_SC_ITER_ALL, chunk_size = 0, list = PHP_SC_LIST_ACTIVE;

    ZEND_PARSE_PARAMETERS_START(0, 4)
        Z_PARAM_OPTIONAL
        Z_PARAM_ZVAL_OR_NULL(search)
        Z_PARAM_LONG(format)
        Z_PARAM_LONG(chunk_size)
        Z_PARAM_LONG(list)
    ZEND_PARSE_PARAMETERS_END();
    if (!php_sc_it_idle(it)) {
        RETURN_THROWS();
    }

    /* The checks in APCu 5.1.22's order. */
    if (chunk_size < 0) {
        php_error_docref(NULL, E_ERROR, "APCUIterator chunk size must be 0 or greater");
        return;
    }
    if (!php_sc_active) {
        zend_throw_error(NULL, "APC must be enabled to use APCUIterator");
        RETURN_THROWS();
    }
    if (format > PHP_SC_ITER_ALL) {
        php_error_docref(NULL, E_ERROR, "APCUIterator format is invalid");
        return;
    }
    if (list != PHP_SC_LIST_ACTIVE && list != PHP_SC_LIST_DELETED) {
        php_error_docref(NULL, E_WARNING, "APCUIterator invalid list type");
        return;
    }

    /* A second call starts over (a refused one, as in APCu, changes nothing). */
    php_sc_it_release(it);
    it->format = format;
    it->chunk_size = chunk_size == 0 ? PHP_SC_DEFAULT_CHUNK : chunk_size;
    it->list = list;
    it->totals_done = false;
    if (search) {
        ZVAL_DEREF(search);
    }
    if (search && Z_TYPE_P(search) == IS_STRING && Z_STRLEN_P(search)) {
        pcre_cache_entry *pce = pcre_get_compiled_regex_cache(Z_STR_P(search));
        if (!pce) {
            php_error_docref(NULL, E_ERROR, "Could not compile regular expression: %s", Z_STRVAL_P(search));
            return;
        }
        it->match_data = pcre2_match_data_create_from_pattern(php_pcre_pce_re(pce), php_pcre_gctx());
        if (!it->match_data) {
            zend_throw_error(NULL, "Could not allocate memory for regular expression matching");
            RETURN_THROWS();
        }
        php_pcre_pce_incref(pce);
        it->pce = pce;
        it->regex = zend_string_copy(Z_STR_P(search));
    } else if (search && Z_TYPE_P(search) == IS_ARRAY) {
        /* The string values of the array are the keys to look for. */
        zval *v, t;
        ALLOC_HASHTABLE(it->search_keys);
        zend_hash_init(it->search_keys, zend_hash_num_elements(Z_ARRVAL_P(search)), NULL, NULL, 0);
        ZVAL_TRUE(&t);
        ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(search), v) {
            ZVAL_DEREF(v);
            if (Z_TYPE_P(v) == IS_STRING) {
                zend_hash_update(it->search_keys, Z_STR_P(v), &t);
            }
        } ZEND_HASH_FOREACH_END();
    }
    it->initialized = true;
}

ZEND_METHOD(APCUIterator, rewind)
{
    php_sc_iterator *it = PHP_SC_IT_THIS();

    ZEND_PARSE_PARAMETERS_NONE();
    if (!php_sc_it_usable(it)) {
        RETURN_THROWS();
    }

    php_sc_it_reset_position(it);
    php_sc_it_fetch(it, false);
}

ZEND_METHOD(APCUIterator, valid)
{
    php_sc_iterator *it = PHP_SC_IT_THIS();

    ZEND_PARSE_PARAMETERS_NONE();
    if (!php_sc_it_usable(it)) {
        RETURN_THROWS();
    }

    if (it->idx == it->nitems) {
        php_sc_it_fetch(it, false);
    }
    RETURN_BOOL(it->nitems != 0);
}

ZEND_METHOD(APCUIterator, current)
{
    php_sc_iterator *it = PHP_SC_IT_THIS();

    ZEND_PARSE_PARAMETERS_NONE();
    if (!php_sc_it_usable(it)) {
        RETURN_THROWS();
    }

    if (it->idx == it->nitems && php_sc_it_fetch(it, false) == 0) {
        zend_throw_error(NULL, "Cannot call current() on invalid iterator");
        RETURN_THROWS();
    }
    RETURN_COPY(&it->items[it->idx].info);
}

ZEND_METHOD(APCUIterator, key)
{
    php_sc_iterator *it = PHP_SC_IT_THIS();

    ZEND_PARSE_PARAMETERS_NONE();
    if (!php_sc_it_usable(it)) {
        RETURN_THROWS();
    }

    if (it->idx == it->nitems && php_sc_it_fetch(it, false) == 0) {
        zend_throw_error(NULL, "Cannot call key() on invalid iterator");
        RETURN_THROWS();
    }
    RETURN_STR_COPY(it->items[it->idx].key);
}

ZEND_METHOD(APCUIterator, next)
{
    php_sc_iterator *it = PHP_SC_IT_THIS();

    ZEND_PARSE_PARAMETERS_NONE();
    if (!php_sc_it_usable(it)) {
        RETURN_THROWS();
    }

    if (it->nitems != 0 && it->idx < it->nitems) {
        it->idx++;
    }
}

ZEND_METHOD(APCUIterator, getTotalHits)
{
    php_sc_iterator *it = PHP_SC_IT_THIS();

    ZEND_PARSE_PARAMETERS_NONE();
    if (!php_sc_it_usable(it)) {
        RETURN_THROWS();
    }

    if (!it->totals_done) {
        php_sc_it_totals(it);
    }
    RETURN_LONG(it->total_hits);
}

ZEND_METHOD(APCUIterator, getTotalSize)
{
    php_sc_iterator *it = PHP_SC_IT_THIS();

    ZEND_PARSE_PARAMETERS_NONE();
    if (!php_sc_it_usable(it)) {
        RETURN_THROWS();
    }

    if (!it->totals_done) {
        php_sc_it_totals(it);
    }
    RETURN_LONG(it->total_size);
}

ZEND_METHOD(APCUIterator, getTotalCount)
{
    php_sc_iterator *it = PHP_SC_IT_THIS();

    ZEND_PARSE_PARAMETERS_NONE();
    if (!php_sc_it_usable(it)) {
        RETURN_THROWS();
    }

    if (!it->totals_done) {
        php_sc_it_totals(it);
    }
    RETURN_LONG(it->total_count);
}

/* ---- apcu_delete($iterator) ---- */

void php_sc_iterator_delete(zval *iterator, zval *return_value)
{
    php_sc_iterator *it = php_sc_it_from_obj(Z_OBJ_P(iterator));
    sc_key k;
    uint32_t i;

    if (!php_sc_it_usable(it)) {
        RETURN_THROWS();
    }
    /* As APCu: every chunk not fetched yet, from where the iterator is. */
    while (php_sc_it_fetch(it, true) > 0) {
        for (i = 0; i < it->nitems; i++) {
            if (php_sc_make_key(&k, it->items[i].key)) {
                sc_cache_delete(&php_sc_shared_cache, &k);
            }
        }
        it->idx = it->nitems;
    }
    RETURN_TRUE;
}

/* ---- registration ---- */

static bool php_sc_apcu_names_wanted(void)
{
    zend_ini_entry *ini;

    if (zend_hash_str_exists(&module_registry, "apcu", sizeof("apcu") - 1)) {
        return false;
    }
    ini = zend_hash_str_find_ptr(EG(ini_directives), "shardcache.apcu_compat", sizeof("shardcache.apcu_compat") - 1);
    return !ini || !ini->value || zend_ini_parse_bool(ini->value);
}

void php_sc_iterator_minit(int module_number)
{
    if (!php_sc_apcu_names_wanted()) {
        return;
    }

    REGISTER_LONG_CONSTANT("APC_LIST_ACTIVE", PHP_SC_LIST_ACTIVE, CONST_PERSISTENT | CONST_CS);
    REGISTER_LONG_CONSTANT("APC_LIST_DELETED", PHP_SC_LIST_DELETED, CONST_PERSISTENT | CONST_CS);
    REGISTER_LONG_CONSTANT("APC_ITER_TYPE", PHP_SC_ITER_TYPE, CONST_PERSISTENT | CONST_CS);
    REGISTER_LONG_CONSTANT("APC_ITER_KEY", PHP_SC_ITER_KEY, CONST_PERSISTENT | CONST_CS);
    REGISTER_LONG_CONSTANT("APC_ITER_VALUE", PHP_SC_ITER_VALUE, CONST_PERSISTENT | CONST_CS);
    REGISTER_LONG_CONSTANT("APC_ITER_NUM_HITS", PHP_SC_ITER_NUM_HITS, CONST_PERSISTENT | CONST_CS);
    REGISTER_LONG_CONSTANT("APC_ITER_MTIME", PHP_SC_ITER_MTIME, CONST_PERSISTENT | CONST_CS);
    REGISTER_LONG_CONSTANT("APC_ITER_CTIME", PHP_SC_ITER_CTIME, CONST_PERSISTENT | CONST_CS);
    REGISTER_LONG_CONSTANT("APC_ITER_DTIME", PHP_SC_ITER_DTIME, CONST_PERSISTENT | CONST_CS);
    REGISTER_LONG_CONSTANT("APC_ITER_ATIME", PHP_SC_ITER_ATIME, CONST_PERSISTENT | CONST_CS);
    REGISTER_LONG_CONSTANT("APC_ITER_REFCOUNT", PHP_SC_ITER_REFCOUNT, CONST_PERSISTENT | CONST_CS);
    REGISTER_LONG_CONSTANT("APC_ITER_MEM_SIZE", PHP_SC_ITER_MEM_SIZE, CONST_PERSISTENT | CONST_CS);
    REGISTER_LONG_CONSTANT("APC_ITER_TTL", PHP_SC_ITER_TTL, CONST_PERSISTENT | CONST_CS);
    REGISTER_LONG_CONSTANT("APC_ITER_NONE", PHP_SC_ITER_NONE, CONST_PERSISTENT | CONST_CS);
    REGISTER_LONG_CONSTANT("APC_ITER_ALL", PHP_SC_ITER_ALL, CONST_PERSISTENT | CONST_CS);

    php_sc_iterator_ce = register_class_APCUIterator(zend_ce_iterator);
    php_sc_iterator_ce->create_object = php_sc_it_create;

    memcpy(&php_sc_it_handlers, zend_get_std_object_handlers(), sizeof(php_sc_it_handlers));
    php_sc_it_handlers.offset = offsetof(php_sc_iterator, std);
    php_sc_it_handlers.free_obj = php_sc_it_free;
    php_sc_it_handlers.clone_obj = NULL;
    php_sc_it_handlers.get_gc = php_sc_it_get_gc;
}
