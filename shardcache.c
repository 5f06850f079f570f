/*
 * shardcache.c - the PHP module: module entry, INI settings and the thin
 * PHP-facing functions. Argument handling and APCu's return shapes live
 * here; memory layout, locking and eviction live in src/ behind sc_cache.h,
 * and value encoding in src/sc_value.c.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <time.h>
#include "php.h"
#include "php_ini.h"
#include "SAPI.h"
#include "ext/standard/info.h"
#include "php_shardcache.h"
#include "sc_cache.h"
#include "sc_value.h"

#include "shardcache_arginfo.h"
/* The APCu names: their generated table gets a name of its own. */
#define ext_functions sc_apcu_functions
#include "shardcache_apcu_arginfo.h"
#undef ext_functions

ZEND_DECLARE_MODULE_GLOBALS(shardcache)

/* Per process: the mapping, inherited by forked workers. */
sc_cache sc_shared_cache;
bool sc_active;                      /* the cache is mapped and usable */
static bool sc_apcu_names;           /* apcu_* functions are ours */
static bool sc_apc_ini_ours;         /* apc.* INI entries are ours */
static uint64_t sc_shm_bytes;
static zend_result (*sc_prev_post_startup)(void);

#define SC_DEFAULT_SHM_SIZE (UINT64_C(32) << 20)

/* ---- INI ---- */

PHP_INI_BEGIN()
    STD_PHP_INI_BOOLEAN("apc.enabled", "1", PHP_INI_SYSTEM, OnUpdateBool, enabled,
                        zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_BOOLEAN("apc.enable_cli", "0", PHP_INI_SYSTEM, OnUpdateBool, enable_cli,
                        zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("apc.shm_size", "32M", PHP_INI_SYSTEM, OnUpdateString, shm_size,
                      zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("apc.entries_hint", "4096", PHP_INI_SYSTEM, OnUpdateLong, entries_hint,
                      zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("apc.ttl", "0", PHP_INI_SYSTEM, OnUpdateLong, ttl,
                      zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("apc.gc_ttl", "3600", PHP_INI_SYSTEM, OnUpdateLong, gc_ttl,
                      zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_BOOLEAN("apc.use_request_time", "0", PHP_INI_ALL, OnUpdateBool, use_request_time,
                        zend_shardcache_globals, shardcache_globals)
PHP_INI_END()

static const zend_ini_entry_def sc_own_ini_entries[] = {
    STD_PHP_INI_ENTRY("shardcache.shards", "64", PHP_INI_SYSTEM, OnUpdateLong, shards,
                      zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_BOOLEAN("shardcache.apcu_compat", "1", PHP_INI_SYSTEM, OnUpdateBool, apcu_compat,
                        zend_shardcache_globals, shardcache_globals)
PHP_INI_END()

static void sc_register_ini(const zend_ini_entry_def *entries, int module_number, int type)
{
#if PHP_VERSION_ID >= 80300
    zend_register_ini_entries_ex(entries, module_number, type);
#else
    (void)type;
    zend_register_ini_entries(entries, module_number);
#endif
}

/* Parses "32M", "1G", "65536": digits and an optional K, M or G. */
static bool sc_parse_size(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    const char *p = s;

    if (!s || !*s) {
        return false;
    }
    while (*p == ' ') {
        p++;
    }
    if (*p < '0' || *p > '9') {
        return false;
    }
    while (*p >= '0' && *p <= '9') {
        if (v > (UINT64_MAX - 9) / 10) {
            return false;
        }
        v = v * 10 + (uint64_t)(*p++ - '0');
    }
    switch (*p) {
    case 'k': case 'K': v <<= 10; p++; break;
    case 'm': case 'M': v <<= 20; p++; break;
    case 'g': case 'G': v <<= 30; p++; break;
    default: break;
    }
    while (*p == ' ') {
        p++;
    }
    if (*p) {
        return false;
    }
    *out = v;
    return true;
}

/* When APCu is loaded first its apc.* entries win: read the values there. */
static void sc_read_foreign_apc_ini(void)
{
    SCG(enabled) = zend_ini_long((char *)"apc.enabled", sizeof("apc.enabled") - 1, 0) != 0;
    SCG(enable_cli) = zend_ini_long((char *)"apc.enable_cli", sizeof("apc.enable_cli") - 1, 0) != 0;
    SCG(shm_size) = zend_ini_string((char *)"apc.shm_size", sizeof("apc.shm_size") - 1, 0);
    SCG(entries_hint) = zend_ini_long((char *)"apc.entries_hint", sizeof("apc.entries_hint") - 1, 0);
    SCG(ttl) = zend_ini_long((char *)"apc.ttl", sizeof("apc.ttl") - 1, 0);
    SCG(gc_ttl) = zend_ini_long((char *)"apc.gc_ttl", sizeof("apc.gc_ttl") - 1, 0);
    SCG(use_request_time) = zend_ini_long((char *)"apc.use_request_time", sizeof("apc.use_request_time") - 1, 0) != 0;
}

/* ---- helpers ---- */

int64_t sc_now(void)
{
    if (SCG(use_request_time)) {
        return (int64_t)sapi_get_request_time();
    }
    return (int64_t)time(NULL);
}

/* Fills k; false when the key cannot be in the cache (or there is no
 * cache: when disabled every operation finds nothing and stores nothing). */
bool sc_make_key(sc_key *k, zend_string *key)
{
    if (UNEXPECTED(!sc_active || ZSTR_LEN(key) > UINT32_MAX - 1)) {
        return false;
    }
    k->str = ZSTR_VAL(key);
    k->len = (uint32_t)ZSTR_LEN(key);
    k->php_hash = ZSTR_H(key) ? ZSTR_H(key) : zend_string_hash_val(key);
    return true;
}

/* A fetch sink that copies strings straight into a zend_string and other
 * encoded values into the per-thread scratch buffer. */
typedef struct sc_php_sink {
    sc_sink base;
    zend_string *str;
} sc_php_sink;

static char *sc_php_sink_get(sc_sink *sink, uint8_t vtype, size_t len)
{
    sc_php_sink *ps = (sc_php_sink *)sink;

    if (vtype == SC_V_STRING) {
        if (ps->str) {
            zend_string_efree(ps->str);
        }
        ps->str = zend_string_alloc(len, 0);
        sink->buf = ZSTR_VAL(ps->str);
        sink->cap = len;
        sink->is_string = true;
    } else {
        if (SCG(scratch_cap) < len || !SCG(scratch)) {
            size_t cap = len < 256 ? 256 : len;
            SCG(scratch) = perealloc(SCG(scratch), cap, 1);
            SCG(scratch_cap) = cap;
        }
        sink->buf = SCG(scratch);
        sink->cap = SCG(scratch_cap);
        sink->is_string = false;
    }
    return sink->buf;
}

/* Turns a fetched value into a zval; consumes the sink's string. */
static bool sc_out_to_zval(sc_php_sink *sink, const sc_value_out *out, zval *dst)
{
    bool ok = true;

    switch (out->vtype) {
    case SC_V_NULL:
        ZVAL_NULL(dst);
        break;
    case SC_V_FALSE:
        ZVAL_FALSE(dst);
        break;
    case SC_V_TRUE:
        ZVAL_TRUE(dst);
        break;
    case SC_V_LONG:
        ZVAL_LONG(dst, (zend_long)out->scalar);
        break;
    case SC_V_DOUBLE: {
        double d;
        memcpy(&d, &out->scalar, sizeof(d));
        ZVAL_DOUBLE(dst, d);
        break;
    }
    case SC_V_STRING: {
        zend_string *s = sink->str;
        sink->str = NULL;
        ZSTR_LEN(s) = out->len;
        ZSTR_VAL(s)[out->len] = '\0';
        ZVAL_STR(dst, s);
        break;
    }
    default: {
        /* Decoding may run user code (unserialize hooks) that fetches
         * again: detach the scratch buffer while decoding. */
        char *scratch = SCG(scratch);
        size_t cap = SCG(scratch_cap);
        SCG(scratch) = NULL;
        SCG(scratch_cap) = 0;
        ok = sc_value_decode(out->vtype, out->scalar, out->data, out->len, dst) == SUCCESS;
        if (SCG(scratch)) {
            pefree(scratch, 1);
        } else {
            SCG(scratch) = scratch;
            SCG(scratch_cap) = cap;
        }
        break;
    }
    }
    return ok;
}

bool sc_php_decode(uint8_t vtype, int64_t scalar, const char *data, size_t len, zval *dst)
{
    sc_php_sink sink = {{sc_php_sink_get, NULL, 0, false}, NULL};
    sc_value_out out;

    out.vtype = vtype;
    out.scalar = scalar;
    out.data = (char *)data;
    out.len = len;
    if (vtype == SC_V_STRING) {
        ZVAL_STRINGL(dst, data, len);
        return true;
    }
    return sc_out_to_zval(&sink, &out, dst);
}

/* Fetches one key into dst. Returns false on a miss. */
static bool sc_fetch_one(zend_string *key, zval *dst, int64_t now)
{
    sc_php_sink sink = {{sc_php_sink_get, NULL, 0, false}, NULL};
    sc_value_out out;
    sc_key k;
    bool ok;

    ok = sc_make_key(&k, key) && sc_cache_fetch(&sc_shared_cache, &k, now, &sink.base, &out) == SC_OK
         && sc_out_to_zval(&sink, &out, dst);
    if (sink.str) {
        zend_string_efree(sink.str);
    }
    return ok;
}

static uint32_t sc_clamp_ttl(zend_long ttl)
{
    if (ttl <= 0) {
        return 0;
    }
    return (uint64_t)ttl > UINT32_MAX ? UINT32_MAX : (uint32_t)ttl;
}

/* Stores one value. Returns false when not stored (a warning or exception
 * has been raised where APCu raises one). */
static bool sc_store_one(zend_string *key, zval *value, zend_long ttl, bool add_only, int64_t now)
{
    sc_encoded enc;
    sc_value_in in;
    sc_status st;
    sc_key k;

    if (!sc_make_key(&k, key)) {
        return false;
    }
    ZVAL_DEREF(value);
    if (sc_value_encode(value, &enc) != SUCCESS) {
        return false;
    }
    if (ttl < 0) {
        /* Expired as soon as stored, as in APCu: it replaces any entry (or,
         * for add, any expired one) and is never seen. */
        sc_value_encoded_release(&enc);
        if (add_only) {
            return sc_cache_exists(&sc_shared_cache, &k, now) != SC_OK;
        }
        sc_cache_delete(&sc_shared_cache, &k);
        return true;
    }
    in.vtype = enc.vtype;
    in.scalar = enc.scalar;
    in.data = enc.data;
    in.len = enc.len;
    st = sc_cache_store(&sc_shared_cache, &k, &in, sc_clamp_ttl(ttl), now, add_only);
    sc_value_encoded_release(&enc);
    return st == SC_OK;
}

static void sc_store_impl(INTERNAL_FUNCTION_PARAMETERS, bool add_only)
{
    zval *key, *value = NULL;
    zend_long ttl = 0;
    int64_t now;

    ZEND_PARSE_PARAMETERS_START(1, 3)
        Z_PARAM_ZVAL(key)
        Z_PARAM_OPTIONAL
        Z_PARAM_ZVAL(value)
        Z_PARAM_LONG(ttl)
    ZEND_PARSE_PARAMETERS_END();

    now = sc_now();
    if (Z_TYPE_P(key) == IS_ARRAY) {
        zend_string *skey;
        zend_ulong ikey;
        zval *v;
        array_init(return_value);
        ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL_P(key), ikey, skey, v) {
            bool stored;
            if (skey) {
                stored = sc_store_one(skey, v, ttl, add_only, now);
            } else {
                zend_string *tmp = zend_long_to_str((zend_long)ikey);
                stored = sc_store_one(tmp, v, ttl, add_only, now);
                zend_string_release_ex(tmp, 0);
            }
            if (!stored) {
                if (skey) {
                    add_assoc_long_ex(return_value, ZSTR_VAL(skey), ZSTR_LEN(skey), -1);
                } else {
                    add_index_long(return_value, ikey, -1);
                }
            }
        } ZEND_HASH_FOREACH_END();
        return;
    }
    if (Z_TYPE_P(key) != IS_STRING) {
        php_error_docref(NULL, E_WARNING,
                         "apc_store expects key parameter to be a string or an array of key/value pairs.");
        RETURN_FALSE;
    }
    if (!value) {
        RETURN_FALSE;
    }
    RETURN_BOOL(sc_store_one(Z_STR_P(key), value, ttl, add_only, now));
}

/* ---- the functions ---- */

ZEND_FUNCTION(shardcache_store)
{
    sc_store_impl(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

ZEND_FUNCTION(shardcache_add)
{
    sc_store_impl(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

ZEND_FUNCTION(shardcache_fetch)
{
    zval *key, *success = NULL;
    int64_t now;

    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_ZVAL(key)
        Z_PARAM_OPTIONAL
        Z_PARAM_ZVAL(success)
    ZEND_PARSE_PARAMETERS_END();

    if (success) {
        ZEND_TRY_ASSIGN_REF_FALSE(success);
    }
    now = sc_now();
    if (Z_TYPE_P(key) == IS_ARRAY) {
        zval *k, found;
        array_init(return_value);
        ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(key), k) {
            ZVAL_DEREF(k);
            if (Z_TYPE_P(k) != IS_STRING) {
                php_error_docref(NULL, E_WARNING, "apc_fetch() expects a string or array of strings.");
                continue;
            }
            if (sc_fetch_one(Z_STR_P(k), &found, now)) {
                zend_hash_update(Z_ARRVAL_P(return_value), Z_STR_P(k), &found);
            }
        } ZEND_HASH_FOREACH_END();
        if (success) {
            ZEND_TRY_ASSIGN_REF_TRUE(success);
        }
        return;
    }
    if (EXPECTED(Z_TYPE_P(key) == IS_STRING)) {
        if (!sc_fetch_one(Z_STR_P(key), return_value, now)) {
            RETURN_FALSE;
        }
        if (success) {
            ZEND_TRY_ASSIGN_REF_TRUE(success);
        }
        return;
    }
    {
        zend_string *skey = zval_try_get_string(key);
        bool hit;
        if (!skey) {
            RETURN_THROWS();
        }
        hit = sc_fetch_one(skey, return_value, now);
        zend_string_release(skey);
        if (!hit) {
            RETURN_FALSE;
        }
        if (success) {
            ZEND_TRY_ASSIGN_REF_TRUE(success);
        }
    }
}

ZEND_FUNCTION(shardcache_exists)
{
    zval *key;
    int64_t now;
    sc_key k;

    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ZVAL(key)
    ZEND_PARSE_PARAMETERS_END();

    now = sc_now();
    if (Z_TYPE_P(key) == IS_ARRAY) {
        zval *v, t;
        array_init(return_value);
        ZVAL_TRUE(&t);
        ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(key), v) {
            ZVAL_DEREF(v);
            if (Z_TYPE_P(v) != IS_STRING) {
                php_error_docref(NULL, E_WARNING, "apc_exists() expects a string or array of strings.");
                continue;
            }
            if (sc_make_key(&k, Z_STR_P(v)) && sc_cache_exists(&sc_shared_cache, &k, now) == SC_OK) {
                zend_hash_update(Z_ARRVAL_P(return_value), Z_STR_P(v), &t);
            }
        } ZEND_HASH_FOREACH_END();
        return;
    }
    {
        zend_string *skey = zval_try_get_string(key);
        bool found;
        if (!skey) {
            RETURN_THROWS();
        }
        found = sc_make_key(&k, skey) && sc_cache_exists(&sc_shared_cache, &k, now) == SC_OK;
        zend_string_release(skey);
        RETURN_BOOL(found);
    }
}

#define SC_DELETE_TYPE_MSG "apc_delete() expects a string, array of strings, or APCIterator instance"

ZEND_FUNCTION(shardcache_delete)
{
    zval *key;
    sc_key k;

    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ZVAL(key)
    ZEND_PARSE_PARAMETERS_END();

    if (Z_TYPE_P(key) == IS_ARRAY) {
        zval *v;
        array_init(return_value);
        ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(key), v) {
            ZVAL_DEREF(v);
            if (Z_TYPE_P(v) != IS_STRING) {
                php_error_docref(NULL, E_WARNING, SC_DELETE_TYPE_MSG);
                Z_TRY_ADDREF_P(v);
                add_next_index_zval(return_value, v);
                continue;
            }
            if (!sc_make_key(&k, Z_STR_P(v)) || sc_cache_delete(&sc_shared_cache, &k) != SC_OK) {
                Z_TRY_ADDREF_P(v);
                add_next_index_zval(return_value, v);
            }
        } ZEND_HASH_FOREACH_END();
        return;
    }
    if (Z_TYPE_P(key) == IS_STRING) {
        RETURN_BOOL(sc_make_key(&k, Z_STR_P(key)) && sc_cache_delete(&sc_shared_cache, &k) == SC_OK);
    }
    if (Z_TYPE_P(key) == IS_OBJECT) {
        if (sc_php_iterator_ce && instanceof_function(Z_OBJCE_P(key), sc_php_iterator_ce)) {
            sc_php_iterator_delete(key, return_value);
            return;
        }
        php_error_docref(NULL, E_ERROR, "apc_delete object argument must be instance of APCUIterator.");
        RETURN_FALSE;
    }
    php_error_docref(NULL, E_WARNING, SC_DELETE_TYPE_MSG);
    RETURN_FALSE;
}

ZEND_FUNCTION(shardcache_clear_cache)
{
    ZEND_PARSE_PARAMETERS_NONE();

    if (sc_active) {
        sc_cache_clear(&sc_shared_cache);
    }
    RETURN_TRUE;
}

ZEND_FUNCTION(shardcache_enabled)
{
    ZEND_PARSE_PARAMETERS_NONE();

    RETURN_BOOL(sc_active);
}

static void sc_update_impl(INTERNAL_FUNCTION_PARAMETERS, sc_update_op op)
{
    zend_string *key;
    zend_long step = 1, ttl = 0;
    zval *success = NULL;
    int64_t result;
    sc_key k;

    ZEND_PARSE_PARAMETERS_START(1, 4)
        Z_PARAM_STR(key)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(step)
        Z_PARAM_ZVAL(success)
        Z_PARAM_LONG(ttl)
    ZEND_PARSE_PARAMETERS_END();

    if (success) {
        ZEND_TRY_ASSIGN_REF_FALSE(success);
    }
    /* A negative ttl creates an entry that is already expired, as in APCu:
     * a missing key stays missing and the call fails. */
    if (!sc_make_key(&k, key)
        || sc_cache_update(&sc_shared_cache, &k, op, (int64_t)step, 0, sc_clamp_ttl(ttl), ttl >= 0, sc_now(), &result)
               != SC_OK) {
        RETURN_FALSE;
    }
    if (success) {
        ZEND_TRY_ASSIGN_REF_TRUE(success);
    }
    RETURN_LONG((zend_long)result);
}

ZEND_FUNCTION(shardcache_inc)
{
    sc_update_impl(INTERNAL_FUNCTION_PARAM_PASSTHRU, SC_UPDATE_INC);
}

ZEND_FUNCTION(shardcache_dec)
{
    sc_update_impl(INTERNAL_FUNCTION_PARAM_PASSTHRU, SC_UPDATE_DEC);
}

ZEND_FUNCTION(shardcache_cas)
{
    zend_string *key;
    zend_long old_value, new_value;
    int64_t result;
    sc_key k;

    ZEND_PARSE_PARAMETERS_START(3, 3)
        Z_PARAM_STR(key)
        Z_PARAM_LONG(old_value)
        Z_PARAM_LONG(new_value)
    ZEND_PARSE_PARAMETERS_END();

    RETURN_BOOL(sc_make_key(&k, key)
                && sc_cache_update(&sc_shared_cache, &k, SC_UPDATE_CAS, (int64_t)old_value, (int64_t)new_value, 0,
                                   false, sc_now(), &result) == SC_OK);
}

ZEND_FUNCTION(shardcache_entry)
{
    zend_string *key;
    zend_fcall_info fci;
    zend_fcall_info_cache fcc;
    zend_long ttl = 0;
    sc_reservation_ticket ticket;
    sc_php_sink sink = {{sc_php_sink_get, NULL, 0, false}, NULL};
    sc_value_out out;
    zval arg;
    int64_t now;
    sc_key k;

    ZEND_PARSE_PARAMETERS_START(2, 3)
        Z_PARAM_STR(key)
        Z_PARAM_FUNC(fci, fcc)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(ttl)
    ZEND_PARSE_PARAMETERS_END();

    if (!sc_make_key(&k, key)) {
        RETURN_NULL(); /* disabled: APCu returns null without calling back */
    }
    now = sc_now();
    if (sc_cache_reserve(&sc_shared_cache, &k, now, &sink.base, &out, &ticket) == SC_OK) {
        if (!sc_out_to_zval(&sink, &out, return_value)) {
            RETVAL_FALSE;
        }
        return;
    }
    /* Nothing cached: compute it, with the key reserved for us. */
    ZVAL_STR(&arg, key);
    fci.retval = return_value;
    fci.params = &arg;
    fci.param_count = 1;
    fci.named_params = NULL;
    /* Stored as by apcu_add, as APCu does: a value stored for the key while
     * the callback ran (by it, or by a nested apcu_entry) stays. */
    if (zend_call_function(&fci, &fcc) == SUCCESS && !EG(exception) && Z_TYPE_P(return_value) != IS_UNDEF) {
        sc_store_one(key, return_value, ttl, true, now);
    }
    sc_cache_release(&sc_shared_cache, &ticket);
    if (sink.str) {
        zend_string_efree(sink.str);
    }
}

/* ---- module ---- */

/* After every extension has started: take the apcu_* names unless APCu
 * itself is loaded. */
static zend_result sc_post_startup(void)
{
    if (sc_prev_post_startup && sc_prev_post_startup() != SUCCESS) {
        return FAILURE;
    }
    if (SCG(apcu_compat) && !zend_hash_str_exists(&module_registry, "apcu", sizeof("apcu") - 1)) {
        zend_module_entry *self = zend_hash_str_find_ptr(&module_registry, "shardcache", sizeof("shardcache") - 1);
        zend_module_entry *saved = EG(current_module);
        EG(current_module) = self;
        sc_apcu_names = zend_register_functions(NULL, sc_apcu_functions, NULL, MODULE_PERSISTENT) == SUCCESS;
        EG(current_module) = saved;
    }
    return SUCCESS;
}

static PHP_GINIT_FUNCTION(shardcache)
{
#if defined(COMPILE_DL_SHARDCACHE) && defined(ZTS)
    ZEND_TSRMLS_CACHE_UPDATE();
#endif
    memset(shardcache_globals, 0, sizeof(*shardcache_globals));
}

static PHP_GSHUTDOWN_FUNCTION(shardcache)
{
    if (shardcache_globals->scratch) {
        pefree(shardcache_globals->scratch, 1);
        shardcache_globals->scratch = NULL;
    }
}

static PHP_MINIT_FUNCTION(shardcache)
{
    char err[256];
    uint64_t size = SC_DEFAULT_SHM_SIZE;
    zend_long shards, hint, ttl;

    sc_apc_ini_ours = !zend_hash_str_exists(&module_registry, "apcu", sizeof("apcu") - 1);
    if (sc_apc_ini_ours) {
        REGISTER_INI_ENTRIES();
    }
    sc_register_ini(sc_own_ini_entries, module_number, type);
    if (!sc_apc_ini_ours) {
        sc_read_foreign_apc_ini();
    }

    sc_php_iterator_minit(module_number);
    sc_php_info_minit(module_number);

    sc_prev_post_startup = zend_post_startup_cb;
    zend_post_startup_cb = sc_post_startup;

    sc_active = false;
    if (!SCG(enabled) || (!SCG(enable_cli) && strcmp(sapi_module.name, "cli") == 0)) {
        return SUCCESS;
    }
    if (SCG(shm_size) && !sc_parse_size(SCG(shm_size), &size)) {
        php_error_docref(NULL, E_CORE_WARNING,
                         "shardcache: apc.shm_size '%s' is not a size (use a number with an optional K, M or G); using 32M",
                         SCG(shm_size));
        size = SC_DEFAULT_SHM_SIZE;
    }
    shards = SCG(shards);
    if (shards < 1 || shards > 4096 || (shards & (shards - 1)) != 0) {
        php_error_docref(NULL, E_CORE_WARNING,
                         "shardcache: shardcache.shards must be a power of two from 1 to 4096; using 64");
        shards = 64;
    }
    hint = SCG(entries_hint) > 0 ? SCG(entries_hint) : 4096;
    if (hint > (zend_long)(1 << 30)) {
        hint = 1 << 30;
    }
    ttl = SCG(ttl) > 0 ? SCG(ttl) : 0;
    if (ttl > (zend_long)UINT32_MAX) {
        ttl = (zend_long)UINT32_MAX;
    }
    if (sc_cache_init(&sc_shared_cache, size, (uint32_t)shards, (uint32_t)hint, (uint32_t)ttl,
                      err, sizeof(err)) != 0) {
        php_error_docref(NULL, E_CORE_WARNING, "shardcache: %s; the cache is disabled", err);
        return SUCCESS;
    }
    sc_shm_bytes = size;
    sc_active = true;
    return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(shardcache)
{
    if (sc_active) {
        sc_cache_shutdown(&sc_shared_cache);
        sc_active = false;
    }
    if (zend_post_startup_cb == sc_post_startup) {
        zend_post_startup_cb = sc_prev_post_startup;
    }
    UNREGISTER_INI_ENTRIES();
    return SUCCESS;
}

static PHP_RSHUTDOWN_FUNCTION(shardcache)
{
    (void)type;
    (void)module_number;
    /* Do not keep a huge scratch buffer between requests. */
    if (SCG(scratch_cap) > (1u << 20)) {
        pefree(SCG(scratch), 1);
        SCG(scratch) = NULL;
        SCG(scratch_cap) = 0;
    }
    return SUCCESS;
}

static PHP_MINFO_FUNCTION(shardcache)
{
    char buf[64];

    (void)zend_module;
    php_info_print_table_start();
    php_info_print_table_row(2, "shardcache support", sc_active ? "enabled" : "disabled");
    php_info_print_table_row(2, "Version", PHP_SHARDCACHE_VERSION);
    php_info_print_table_row(2, "APCu function names",
                             sc_apcu_names ? "registered (apcu_*)"
                                           : "not registered: APCu is loaded or shardcache.apcu_compat=0; use shardcache_*");
    if (sc_active) {
        snprintf(buf, sizeof(buf), "%u", sc_shared_cache.seg.nshards);
        php_info_print_table_row(2, "Shards", buf);
        snprintf(buf, sizeof(buf), "%llu", (unsigned long long)sc_shm_bytes);
        php_info_print_table_row(2, "Shared memory bytes", buf);
    }
    php_info_print_table_end();
    DISPLAY_INI_ENTRIES();
}

/* When APCu is loaded too it starts first, so that its apc.* settings
 * exist when shardcache reads them. */
static const zend_module_dep sc_module_deps[] = {
    ZEND_MOD_OPTIONAL("apcu")
    ZEND_MOD_END
};

zend_module_entry shardcache_module_entry = {
    STANDARD_MODULE_HEADER_EX,
    NULL,
    sc_module_deps,
    "shardcache",
    ext_functions,
    PHP_MINIT(shardcache),
    PHP_MSHUTDOWN(shardcache),
    NULL,
    PHP_RSHUTDOWN(shardcache),
    PHP_MINFO(shardcache),
    PHP_SHARDCACHE_VERSION,
    PHP_MODULE_GLOBALS(shardcache),
    PHP_GINIT(shardcache),
    PHP_GSHUTDOWN(shardcache),
    NULL,
    STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_SHARDCACHE
# ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
# endif
ZEND_GET_MODULE(shardcache)
#endif
