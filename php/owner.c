/*
 * php/owner.c - isolation by Unix user (shardcache.isolation): whose
 * entries a process sees.
 *
 * With isolation on (the default), every key belongs to the effective uid
 * of the process that stores it: the glue mixes the owner into the key's
 * hash (php_sc_make_key: the PHP hash of the key XOR the owner's salt,
 * (uint64)owner << 24, before the core XORs in its keyed hash of the key
 * bytes: sc_cache_key_hash). Two users' entries of
 * one key are two different keys to the core: different hashes, so a
 * lookup by one user never matches the other's entry (the core matches
 * an entry only when its 64-bit hash and its key bytes are both equal;
 * equal bytes have equal PHP and keyed hashes, and the salts of two
 * owners differ, so the hashes differ). fetch, exists, store, add, delete, inc,
 * dec, cas, entry and key_info therefore reach only the caller's entries,
 * at no cost beyond one XOR when the key is made.
 *
 * Owners: the effective uid; uid 0 has salt 0 (the namespace of root and
 * of every process with isolation off, whose keys hash as without
 * isolation); PHP_SC_OWNER_PUBLIC for the entries apc.preload_path loads
 * at startup with isolation on: every user reads them (after a miss of
 * its own key), nobody writes them (a store or update makes the caller's
 * own entry, which hides the preloaded one from that user; inc, dec and
 * cas start from the preloaded value); only root's apcu_clear_cache
 * removes them.
 *
 * The listings (apcu_cache_info, APCUIterator, shardcache_info's figures)
 * walk the shards and keep the entries whose owner is the caller's (or
 * public): the owner of an entry is found again from its hash and key
 * (sc_cache_glue_hash of the hash, XOR the PHP hash of the key bytes, is
 * the salt). A non-root caller's apcu_clear_cache deletes its own entries
 * only; root's (isolation on) empties the whole cache.
 *
 * The caller's owner is read with geteuid() at each request start (RINIT:
 * FPM workers change user after the fork, before their first request) and
 * after posix_setuid / posix_seteuid (their handlers are wrapped here), per
 * thread in ZTS (module globals).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include <unistd.h>
#include "php.h"
#include "owner.h"
#include "php_shardcache.h"
#include "key.h"
#include "sc_cache.h"

static zif_handler php_sc_orig_setuid;
static zif_handler php_sc_orig_seteuid;

static inline uint64_t php_sc_salt(uint32_t owner)
{
    return (uint64_t)owner << 24;
}

/* The owner whose salt made an entry's hash from its key bytes (false:
 * none). Also sc_seg.owner_of and sc_cache.owner_of, for the core's
 * count of each owner's bytes and fair share of memory under eviction
 * (sc_fair.h). */
static bool php_sc_owner_of_entry(uint64_t hash, const char *key, uint32_t key_len, uint32_t *owner)
{
    uint64_t salt = sc_cache_glue_hash(&php_sc_shared_cache.seg, hash, key, key_len)
                    ^ (uint64_t)zend_hash_func(key, key_len);

    if (salt & ~php_sc_salt(UINT32_MAX)) {
        return false;
    }
    *owner = (uint32_t)(salt >> 24);
    return true;
}

bool php_sc_owner_of(const sc_entry_meta *m, uint32_t *owner)
{
    return php_sc_owner_of_entry(m->hash, m->key, m->key_len, owner);
}

void php_sc_owner_refresh(void)
{
    uid_t uid = geteuid();

    SCG(owner_uid) = (uint32_t)uid;
    if (SCG(isolation)) {
        SCG(owner_id) = (uint32_t)uid;
        SCG(owner_all) = uid == 0;
    } else {
        SCG(owner_id) = 0;
        SCG(owner_all) = false;
    }
    SCG(owner_salt) = php_sc_salt(SCG(owner_id));
    sc_cache_writer(SCG(owner_id));
    /* Whichever process loaded apc.preload_path (the FPM master for the
     * anonymous segment, the first worker of a pool for a named one), it
     * loaded public entries if isolation is on. */
    SCG(public_reads) = SCG(isolation) && SCG(preload_path) && *SCG(preload_path);
}

static ZEND_NAMED_FUNCTION(php_sc_posix_setuid)
{
    php_sc_orig_setuid(INTERNAL_FUNCTION_PARAM_PASSTHRU);
    php_sc_owner_refresh();
}

static ZEND_NAMED_FUNCTION(php_sc_posix_seteuid)
{
    php_sc_orig_seteuid(INTERNAL_FUNCTION_PARAM_PASSTHRU);
    php_sc_owner_refresh();
}

static zif_handler php_sc_wrap(const char *name, size_t len, zif_handler ours)
{
    zend_function *f = zend_hash_str_find_ptr(CG(function_table), name, len);
    zif_handler orig;

    if (!f || f->type != ZEND_INTERNAL_FUNCTION) {
        return NULL;
    }
    orig = f->internal_function.handler;
    f->internal_function.handler = ours;
    return orig;
}

static void php_sc_unwrap(const char *name, size_t len, zif_handler orig)
{
    zend_function *f;

    if (orig && (f = zend_hash_str_find_ptr(CG(function_table), name, len)) && f->type == ZEND_INTERNAL_FUNCTION) {
        f->internal_function.handler = orig;
    }
}

void php_sc_owner_startup(void)
{
    php_sc_orig_setuid = php_sc_wrap("posix_setuid", sizeof("posix_setuid") - 1, php_sc_posix_setuid);
    php_sc_orig_seteuid = php_sc_wrap("posix_seteuid", sizeof("posix_seteuid") - 1, php_sc_posix_seteuid);
    php_sc_owner_refresh();
}

void php_sc_owner_shutdown(void)
{
    php_sc_unwrap("posix_setuid", sizeof("posix_setuid") - 1, php_sc_orig_setuid);
    php_sc_unwrap("posix_seteuid", sizeof("posix_seteuid") - 1, php_sc_orig_seteuid);
    php_sc_orig_setuid = php_sc_orig_seteuid = NULL;
}

uint64_t php_sc_owner_preload_begin(void)
{
    uint64_t saved = SCG(owner_salt);

    /* Outside a preload, the salt is the caller's owner's. */
    ZEND_ASSERT(saved == php_sc_salt(SCG(owner_id)));
    if (SCG(isolation)) {
        SCG(owner_salt) = php_sc_salt(PHP_SC_OWNER_PUBLIC);
        sc_cache_writer(PHP_SC_OWNER_PUBLIC);
    }
    return saved;
}

void php_sc_owner_preload_end(uint64_t saved)
{
    SCG(owner_salt) = saved;
    sc_cache_writer((uint32_t)(saved >> 24));
}

bool php_sc_key_public(sc_key *k)
{
    if (!SCG(public_reads)) {
        return false;
    }
    k->glue_hash ^= SCG(owner_salt) ^ php_sc_salt(PHP_SC_OWNER_PUBLIC);
    return true;
}


void php_sc_owner_bind(sc_cache *c)
{
    /* Every process counts each owner's bytes alike (sc_fair.h), whatever
     * its own isolation setting; only with isolation do its stores spare
     * the owners within their share. */
    sc_cache_seg_owners(c, php_sc_owner_of_entry);
    c->owner_of = SCG(isolation) ? php_sc_owner_of_entry : NULL;
}

bool php_sc_owner_visible(const sc_entry_meta *m, uint32_t *owner)
{
    uint32_t o;

    if (!php_sc_owner_of(m, &o)) {
        return false;
    }
    if (owner) {
        *owner = o;
    }
    return o == SCG(owner_id) || o == PHP_SC_OWNER_PUBLIC;
}

bool php_sc_owner_tenant(void)
{
    return SCG(isolation) && !SCG(owner_all);
}

/* A preloaded entry as a tenant sees it: every user's reads of it record
 * their hits and access time in it, so a tenant gets neither (0 hits, the
 * access time is its mtime). */
static void php_sc_owner_scrub(sc_entry_meta *m, uint32_t owner)
{
    if (owner == PHP_SC_OWNER_PUBLIC && owner != SCG(owner_id) && php_sc_owner_tenant()) {
        m->nhits = 0;
        m->atime = m->mtime;
    }
}

bool php_sc_owner_listed(sc_entry_meta *m, int64_t now)
{
    uint32_t o;
    sc_key k;

    if (!php_sc_owner_visible(m, &o)) {
        return false;
    }
    if (o != PHP_SC_OWNER_PUBLIC || o == SCG(owner_id)) {
        return true;
    }
    php_sc_owner_scrub(m, o);
    /* A preloaded entry that the caller's own entry of the key hides. */
    k.str = m->key;
    k.len = m->key_len;
    k.glue_hash = (uint64_t)zend_hash_func(m->key, m->key_len) ^ SCG(owner_salt);
    return sc_cache_exists(&php_sc_shared_cache, &k, now) != SC_OK;
}

sc_snapshot *php_sc_owner_snapshot_key(zend_string *key, int64_t now, bool with_values, sc_entry_meta *m)
{
    sc_snapshot *snap;
    sc_key k;

    if (!php_sc_make_key(&k, key)) {
        return NULL;
    }
    snap = sc_snapshot_key(&php_sc_shared_cache, &k, now, with_values);
    if (sc_snapshot_next(snap, m)) {
        return snap;
    }
    sc_snapshot_free(snap);
    if (!php_sc_key_public(&k)) {
        return NULL;
    }
    snap = sc_snapshot_key(&php_sc_shared_cache, &k, now, with_values);
    if (sc_snapshot_next(snap, m)) {
        php_sc_owner_scrub(m, PHP_SC_OWNER_PUBLIC);
        return snap;
    }
    sc_snapshot_free(snap);
    return NULL;
}

void php_sc_owner_clear(void)
{
    uint32_t n = sc_cache_nshards(&php_sc_shared_cache), i;
    sc_entry_meta m;

    /* owner_all: isolation on and root (php_sc_owner_refresh). */
    ZEND_ASSERT(!SCG(owner_all) || (SCG(isolation) && SCG(owner_uid) == 0));
    if (SCG(owner_all)) {
        sc_cache_clear(&php_sc_shared_cache);
        return;
    }
    /* The caller's entries, shard by shard, each deleted by its key (the
     * snapshot is a copy: the shard's lock is not held while deleting). */
    for (i = 0; i < n; i++) {
        sc_snapshot *snap = sc_snapshot_shard(&php_sc_shared_cache, i, SC_ANY_TIME, false);
        while (sc_snapshot_next(snap, &m)) {
            uint32_t o;
            sc_key k;
            if (php_sc_owner_of(&m, &o) && o == SCG(owner_id)) {
                k.str = m.key;
                k.len = m.key_len;
                k.glue_hash = (uint64_t)zend_hash_func(m.key, m.key_len) ^ SCG(owner_salt);
                (void)sc_cache_delete(&php_sc_shared_cache, &k);
            }
        }
        sc_snapshot_free(snap);
    }
}
