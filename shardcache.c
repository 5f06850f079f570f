/*
 * shardcache.c - the PHP module: module entry, INI settings and the thin
 * PHP-facing functions. Argument handling and APCu's return shapes live
 * here; memory layout, locking and eviction live in src/ behind sc_cache.h,
 * and value encoding in php/value.c.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include <time.h>
#include <sys/mman.h>
#ifdef ZTS
# include <pthread.h>
#endif
#include "php.h"
#include "php_ini.h"
#include "SAPI.h"
#include "ext/standard/info.h"
#include "php_shardcache.h"
#include "sc_cache.h"
#include "sc_fetch.h"
#include "php/value.h"
#include "php/object.h"
#include "sc_info.h"
#include "sc_file.h"
#include "php/zc.h"

#include "php/shardcache_arginfo.h"
/* The APCu names: their generated table gets a name of its own. */
#define ext_functions php_sc_apcu_functions
#include "php/apcu_arginfo.h"
#undef ext_functions

ZEND_DECLARE_MODULE_GLOBALS(shardcache)

/* Per process: the mapping, inherited by forked workers and shared by the
 * threads of a ZTS process (per-thread state is in SCG() and sc_local). */
sc_cache php_sc_shared_cache;
bool php_sc_active;                      /* the cache is mapped and usable */
static bool php_sc_apcu_names;           /* apcu_* functions are ours */
static bool php_sc_apc_ini_ours;         /* apc.* INI entries are ours */
static zend_module_entry *php_sc_apcu_identity;   /* the "apcu" module we registered, or NULL */
static int php_sc_module_number;
static uint64_t php_sc_shm_bytes;
static uint64_t php_sc_preloaded;        /* values loaded from apc.preload_path */
static const char *php_sc_inactive_reason = "not started";
static zend_result (*php_sc_prev_post_startup)(void);
static bool php_sc_start_ok;             /* enabled here (apc.enabled, apc.enable_cli) */
static bool php_sc_seg_fresh;            /* this process made the segment: preload it */
/* The shardcache.segment value this process has acted on ("" = anonymous),
 * or NULL while a named segment waits for the process that will use it
 * (php_sc_named_deferred): each FPM pool sets its own value in its workers. */
static char *php_sc_seg_resolved;
static bool php_sc_seg_change_warned;
static char php_sc_seg_path[4096];       /* the named segment's file, expanded */
char php_sc_seg_refused[320];            /* php_shardcache.h */
static uint64_t php_sc_req_size;         /* apc.shm_size, shardcache.shards, apc.entries_hint, apc.ttl, */
static uint32_t php_sc_req_shards;       /* resolved at startup for the segment made or mapped later */
static uint32_t php_sc_req_hint;
static uint32_t php_sc_req_ttl;
#ifdef ZTS
static pthread_mutex_t php_sc_attach_lock = PTHREAD_MUTEX_INITIALIZER;
#endif

#define PHP_SC_DEFAULT_SHM_SIZE (INT64_C(32) << 20)
#define PHP_SC_MB INT64_C(1048576)

/* ---- INI ----
 * The apc.* entries are APCu 5.1.28's: same names, defaults, change modes
 * and value checks (ini_get_all('apcu')), plus apc.expunge_threshold of
 * APCu's master (the successor of apc.smart). Those without meaning for
 * shardcache are accepted and ignored (README). apc.shm_segments, which
 * APCu 5.1.25 removed, is not an entry any more: PHP accepts an unknown
 * directive in php.ini or -d silently, as APCu 5.1.28 does. */

/* APCu's apc.shm_size parsing: a quantity with an optional K/M/G suffix;
 * not positive -> the setting is refused (the default stays); below 1M ->
 * read as megabytes, the old syntax, with APCu's warning. Too large for the
 * machine or for shardcache is handled at startup (MINIT). */
static ZEND_INI_MH(php_sc_on_update_shm_size)
{
    zend_long s = zend_ini_parse_quantity_warn(new_value, entry->name);

    (void)mh_arg1; (void)mh_arg2; (void)mh_arg3; (void)stage;
    if (s <= 0) {
        return FAILURE;
    }
    if (s < PHP_SC_MB) {
        php_error_docref(NULL, E_WARNING, "apc.shm_size now uses M/G suffixes, please update your ini files");
        s *= PHP_SC_MB;
    }
    SCG(shm_size) = s;
    return SUCCESS;
}

/* APCu 5.1.28's apc.mmap_hugepage_size check: a quantity, 0 or a power of
 * two; anything else stops PHP's startup with APCu's error (E_CORE_ERROR).
 * Whether the segment can use pages of that size is checked at startup
 * (php_sc_check_hugepage_size); what the setting does here: README. */
static ZEND_INI_MH(php_sc_on_update_mmap_hugepage_size)
{
    zend_long s = zend_ini_parse_quantity_warn(new_value, entry->name);

    (void)mh_arg1; (void)mh_arg2; (void)mh_arg3; (void)stage;
    if (s < 0) {
        php_error_docref(NULL, E_CORE_ERROR, "apc.mmap_hugepage_size must be a positive integer");
        return FAILURE;
    }
    if (s & (s - 1)) {
        php_error_docref(NULL, E_CORE_ERROR, "apc.mmap_hugepage_size must be a power of 2");
        return FAILURE;
    }
    SCG(mmap_hugepage_size) = s;
    return SUCCESS;
}

/* APCu master's apc.expunge_threshold check: a percentage from 0 to 100,
 * else APCu's error (E_CORE_ERROR). Accepted, no effect: shardcache never
 * empties the whole cache to make room (README). */
static ZEND_INI_MH(php_sc_on_update_expunge_threshold)
{
    double t = zend_strtod(ZSTR_VAL(new_value), NULL);

    (void)mh_arg1; (void)mh_arg2; (void)mh_arg3; (void)stage;
    if (t < 0 || t > 100) {
        php_error_docref(NULL, E_CORE_ERROR, "%s must be a value from 0.0 - 100.0", ZSTR_VAL(entry->name));
        return FAILURE;
    }
    SCG(expunge_threshold) = t;
    return SUCCESS;
}

/* shardcache.segment_mode: octal permission bits of a named segment: the
 * owner only (0600) or the owner and this process's group (0660). Every
 * process maps the segment to read and write, so a mode that gives the
 * group (or others) read access alone shares nothing: refused. */
static ZEND_INI_MH(php_sc_on_update_segment_mode)
{
    char *end = NULL;
    zend_long m = ZEND_STRTOL(ZSTR_VAL(new_value), &end, 8);

    (void)entry; (void)mh_arg1; (void)mh_arg2; (void)mh_arg3; (void)stage;
    if (ZSTR_LEN(new_value) == 0 || (end && *end) || (m != 0600 && m != 0660)) {
        php_error_docref(NULL, E_WARNING, "shardcache.segment_mode must be 0600 (the owner) or 0660 (the owner "
                         "and the group: every user of a segment reads and writes it); using the default 0600");
        return FAILURE;
    }
    SCG(segment_mode) = m;
    return SUCCESS;
}

/* shardcache.isolation: user (each Unix user sees its own entries) or off
 * (also 0). */
static ZEND_INI_MH(php_sc_on_update_isolation)
{
    (void)entry; (void)mh_arg1; (void)mh_arg2; (void)mh_arg3; (void)stage;
    if (zend_string_equals_literal(new_value, "user")) {
        SCG(isolation) = true;
    } else if (zend_string_equals_literal(new_value, "off") || zend_string_equals_literal(new_value, "0")
               || ZSTR_LEN(new_value) == 0) {
        /* off in php.ini or -d reaches here as "" (PHP's INI parser). */
        SCG(isolation) = false;
    } else {
        php_error_docref(NULL, E_WARNING, "shardcache.isolation must be user or off");
        return FAILURE;
    }
    return SUCCESS;
}

PHP_INI_BEGIN()
    STD_PHP_INI_BOOLEAN("apc.enabled", "1", PHP_INI_SYSTEM, OnUpdateBool, enabled,
                        zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("apc.shm_size", "32M", PHP_INI_SYSTEM, php_sc_on_update_shm_size, shm_size,
                      zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("apc.entries_hint", "0", PHP_INI_SYSTEM, OnUpdateLong, entries_hint,
                      zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("apc.gc_ttl", "3600", PHP_INI_SYSTEM, OnUpdateLong, gc_ttl,
                      zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("apc.ttl", "0", PHP_INI_SYSTEM, OnUpdateLong, ttl,
                      zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("apc.smart", "0", PHP_INI_SYSTEM, OnUpdateLong, smart,
                      zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("apc.mmap_file_mask", NULL, PHP_INI_SYSTEM, OnUpdateString, mmap_file_mask,
                      zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("apc.mmap_hugepage_size", "0", PHP_INI_SYSTEM, php_sc_on_update_mmap_hugepage_size,
                      mmap_hugepage_size, zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_BOOLEAN("apc.enable_cli", "0", PHP_INI_SYSTEM, OnUpdateBool, enable_cli,
                        zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_BOOLEAN("apc.slam_defense", "0", PHP_INI_SYSTEM, OnUpdateBool, slam_defense,
                        zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("apc.preload_path", NULL, PHP_INI_SYSTEM, OnUpdateString, preload_path,
                      zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_BOOLEAN("apc.coredump_unmap", "0", PHP_INI_SYSTEM, OnUpdateBool, coredump_unmap,
                        zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_BOOLEAN("apc.use_request_time", "0", PHP_INI_ALL, OnUpdateBool, use_request_time,
                        zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("apc.serializer", "php", PHP_INI_SYSTEM, OnUpdateStringUnempty, serializer_name,
                      zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("apc.expunge_threshold", "0.5", PHP_INI_SYSTEM, php_sc_on_update_expunge_threshold,
                      expunge_threshold, zend_shardcache_globals, shardcache_globals)
PHP_INI_END()

static const zend_ini_entry_def php_sc_own_ini_entries[] = {
    STD_PHP_INI_ENTRY("shardcache.shards", "0", PHP_INI_SYSTEM, OnUpdateLong, shards,
                      zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_BOOLEAN("shardcache.apcu_compat", "1", PHP_INI_SYSTEM, OnUpdateBool, apcu_compat,
                        zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("shardcache.segment", "", PHP_INI_SYSTEM, OnUpdateString, segment,
                      zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("shardcache.segment_mode", "0600", PHP_INI_SYSTEM, php_sc_on_update_segment_mode, segment_mode,
                      zend_shardcache_globals, shardcache_globals)
    /* Zero-copy fetches (php/zc.c): auto = on for FPM, CGI,
     * mod_php and LiteSpeed (requests end), off elsewhere (CLI...). */
    STD_PHP_INI_ENTRY("shardcache.zero_copy", "auto", PHP_INI_SYSTEM, OnUpdateString, zero_copy,
                      zend_shardcache_globals, shardcache_globals)
    STD_PHP_INI_ENTRY("shardcache.zero_copy_max", "0", PHP_INI_SYSTEM, OnUpdateLong, zero_copy_max,
                      zend_shardcache_globals, shardcache_globals)
    PHP_INI_ENTRY("shardcache.isolation", "user", PHP_INI_SYSTEM, php_sc_on_update_isolation)
PHP_INI_END()

static void php_sc_register_ini(const zend_ini_entry_def *entries, int module_number, int type)
{
#if PHP_VERSION_ID >= 80300
    zend_register_ini_entries_ex(entries, module_number, type);
#else
    (void)type;
    zend_register_ini_entries(entries, module_number);
#endif
}

static bool php_sc_foreign_bool(const char *name)
{
    return zend_ini_long(name, strlen(name), 0) != 0;
}

/* When APCu is loaded its apc.* entries win (it starts first): copy their
 * values. APCu has already warned about bad values. */
static void php_sc_read_foreign_apc_ini(void)
{
    const char *size = zend_ini_string("apc.shm_size", sizeof("apc.shm_size") - 1, 0);

    SCG(enabled) = php_sc_foreign_bool("apc.enabled");
    SCG(enable_cli) = php_sc_foreign_bool("apc.enable_cli");
    SCG(use_request_time) = php_sc_foreign_bool("apc.use_request_time");
    SCG(slam_defense) = php_sc_foreign_bool("apc.slam_defense");
    SCG(coredump_unmap) = php_sc_foreign_bool("apc.coredump_unmap");
    SCG(mmap_hugepage_size) = zend_ini_long("apc.mmap_hugepage_size", sizeof("apc.mmap_hugepage_size") - 1, 0);
    SCG(entries_hint) = zend_ini_long("apc.entries_hint", sizeof("apc.entries_hint") - 1, 0);
    SCG(ttl) = zend_ini_long("apc.ttl", sizeof("apc.ttl") - 1, 0);
    SCG(gc_ttl) = zend_ini_long("apc.gc_ttl", sizeof("apc.gc_ttl") - 1, 0);
    SCG(smart) = zend_ini_long("apc.smart", sizeof("apc.smart") - 1, 0);
    SCG(mmap_file_mask) = zend_ini_string("apc.mmap_file_mask", sizeof("apc.mmap_file_mask") - 1, 0);
    SCG(preload_path) = zend_ini_string("apc.preload_path", sizeof("apc.preload_path") - 1, 0);
    SCG(serializer_name) = zend_ini_string("apc.serializer", sizeof("apc.serializer") - 1, 0);
    SCG(shm_size) = PHP_SC_DEFAULT_SHM_SIZE;
    if (size && *size) {
        zend_string *str = zend_string_init(size, strlen(size), 0);
        zend_string *err = NULL;
        zend_long s = zend_ini_parse_quantity(str, &err);
        if (err) {
            zend_string_release(err);
        }
        zend_string_release(str);
        if (s > 0) {
            SCG(shm_size) = s < PHP_SC_MB ? s * PHP_SC_MB : s;
        }
    }
}

/* ---- helpers ---- */

/* The cache's clock, APCu's: time(NULL), which reads the kernel's coarse
 * clock (about 1.5 ns a call here, against 26 ns for clock_gettime
 * CLOCK_REALTIME, once per store). PHP's time() reads gettimeofday, the
 * precise clock, so for the few milliseconds after a second turns (one
 * kernel tick) time() can already say t + 1 while an entry stored next is
 * stamped t: a creation_time or mtime is at most one second behind a
 * time() read before the store, never ahead of one read after it. */
int64_t php_sc_now(void)
{
    if (SCG(use_request_time)) {
        return (int64_t)sapi_get_request_time();
    }
    return (int64_t)time(NULL);
}

/* Fills k; false when the key cannot be in the cache (or there is no
 * cache: when disabled every operation finds nothing and stores nothing). */
bool php_sc_make_key(sc_key *k, zend_string *key)
{
    if (UNEXPECTED(!php_sc_active || ZSTR_LEN(key) > UINT32_MAX - 1)) {
        return false;
    }
    k->str = ZSTR_VAL(key);
    k->len = (uint32_t)ZSTR_LEN(key);
    /* The owner's salt makes each user's keys its own (php/owner.c). */
    k->glue_hash = (ZSTR_H(key) ? ZSTR_H(key) : zend_string_hash_val(key)) ^ SCG(owner_salt);
    return true;
}

/* A fetch sink that copies strings straight into a zend_string and other
 * encoded values into the per-thread scratch buffer. */
typedef struct php_sc_sink {
    sc_sink base;
    zend_string *str;
} php_sc_sink;

static char *php_sc_sink_get(sc_sink *sink, uint8_t vtype, size_t len)
{
    php_sc_sink *ps = (php_sc_sink *)sink;

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

/* Puts buf (NULL is fine) on this thread's held list. */
static void php_sc_scratch_hold(char *buf)
{
    if (UNEXPECTED(SCG(nheld) == SCG(held_cap))) {
        uint32_t cap = SCG(held_cap) ? SCG(held_cap) * 2 : 8;
        SCG(held) = perealloc(SCG(held), cap * sizeof(char *), 1);
        SCG(held_cap) = cap;
    }
    SCG(held)[SCG(nheld)++] = buf;
}

/* Frees the buffers a fatal error left on the held list. */
static void php_sc_scratch_release_held(void)
{
    while (SCG(nheld) > 0) {
        char *buf = SCG(held)[--SCG(nheld)];
        if (buf) {
            pefree(buf, 1);
        }
    }
}

/* Turns a fetched value into a zval; consumes the sink's string. On
 * failure, *parse_failed (when given) says whether serialized bytes could
 * not be parsed (php_sc_value_decode_ex). */
static bool php_sc_out_to_zval(php_sc_sink *sink, const sc_value_out *out, zval *dst, bool *parse_failed)
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
    case SC_V_ZC:
        if (UNEXPECTED(php_sc_zc_is_object(out))) {
            goto decode;
        }
        ok = php_sc_zc_to_zval(out, dst) == PHP_SC_ZC_COPIED;
        break;
    case SC_V_STRING: {
        zend_string *s = sink->str;
        sink->str = NULL;
        ZSTR_LEN(s) = out->len;
        ZSTR_VAL(s)[out->len] = '\0';
        ZVAL_STR(dst, s);
        break;
    }
    default:
    decode: {
        /* Decoding may run user code (unserialize hooks) that fetches
         * again: detach the scratch buffer while decoding, keeping it on
         * the held list until the decoder returns (see php_shardcache.h). */
        char *scratch = SCG(scratch);
        size_t cap = SCG(scratch_cap);
        php_sc_scratch_hold(scratch);
        SCG(scratch) = NULL;
        SCG(scratch_cap) = 0;
        bool unparsed;
        ok = out->vtype == SC_V_ZC ? php_sc_zc_object_to_zval(out, dst, &unparsed)
                                   : php_sc_value_decode_ex(out->vtype, out->scalar, out->data, out->len, dst, &unparsed)
                                         == SUCCESS;
        if (parse_failed) {
            *parse_failed = unparsed;
        }
        SCG(nheld)--;
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

bool php_sc_decode(uint8_t vtype, int64_t scalar, const char *data, size_t len, zval *dst)
{
    php_sc_sink sink = {{php_sc_sink_get, NULL, 0, false, 0}, NULL};
    sc_value_out out;

    out.vtype = vtype;
    out.borrowed = false;
    out.scalar = scalar;
    out.data = (char *)data;
    out.len = len;
    if (vtype == SC_V_STRING) {
        ZVAL_STRINGL(dst, data, len);
        return true;
    }
    return php_sc_out_to_zval(&sink, &out, dst, NULL);
}

/* php_sc_fetch_one's results: a miss, a hit, or a hit whose value could not be
 * decoded (an exception or warning is pending, dst is not set). APCu reports
 * the last as found ($success true) too, except when unserialize() could
 * not parse the value (with a notice, or an exception thrown during the
 * parse): that is a miss for APCu ($success false), and here. */
enum { PHP_SC_FETCH_MISS = 0, PHP_SC_FETCH_HIT = 1, PHP_SC_FETCH_UNDECODABLE = 2 };

/* The rest of a hit that is neither an int nor a zero-copy value used in
 * place: decoding, copying. Consumes the sink's string. */
static zend_never_inline int php_sc_fetch_finish(php_sc_sink *sink, const sc_value_out *out, zval *dst)
{
    int r;

    if (out->vtype == SC_V_ZC && !php_sc_zc_is_object(out)) {
        /* Not usable in place: copied; or laid out by another PHP, which
         * cannot read it here: a miss. */
        int z = php_sc_zc_to_zval(out, dst);
        r = z == PHP_SC_ZC_COPIED ? PHP_SC_FETCH_HIT : z == PHP_SC_ZC_FOREIGN ? PHP_SC_FETCH_MISS : PHP_SC_FETCH_UNDECODABLE;
    } else {
        bool parse_failed = false;
        r = php_sc_out_to_zval(sink, out, dst, &parse_failed) ? PHP_SC_FETCH_HIT
            : parse_failed ? PHP_SC_FETCH_MISS : PHP_SC_FETCH_UNDECODABLE;
    }

    if (sink->str) {
        zend_string_efree(sink->str);
    }
    return r;
}

/* The rest of a fetch whose first try declined (r: what sc_fetch_value
 * answered then): a value copied into the sink's buffer (a string is the
 * sink's zend_string), one that sc_cache_fetch_at found, or a miss.
 * Consumes the sink's string. Inlined: as a call of its own, after
 * sc_fetch_value_rest's, it costs a 1 KiB string's fetch 11 instructions
 * more (benchmarks/instr.sh fetch_str_1k). */
static zend_always_inline int php_sc_fetch_rest(int r, php_sc_sink *sink, const sc_value_out *out, zval *dst)
{
    ZEND_ASSERT(r == SC_FAST_COPIED || r == SC_FETCH_FOUND || r == SC_FETCH_MISSED);
    if (EXPECTED(r == SC_FAST_COPIED)) {
        if (EXPECTED(out->vtype == SC_V_STRING)) {
            zend_string *s = sink->str;
            ZSTR_VAL(s)[out->len] = '\0';
            ZVAL_STR(dst, s);
            return PHP_SC_FETCH_HIT;
        }
        return php_sc_fetch_finish(sink, out, dst);
    }
    if (r == SC_FETCH_FOUND) {
        /* sink->str is set only when a try asked for a string buffer (the
         * value may have changed between tries). */
        if (out->vtype == SC_V_LONG && !sink->str) {
            ZVAL_LONG(dst, (zend_long)out->scalar);
            return PHP_SC_FETCH_HIT;
        }
        if (out->vtype == SC_V_ZC && !sink->str && php_sc_zc_in_place(out, dst)) {
            return PHP_SC_FETCH_HIT;
        }
        return php_sc_fetch_finish(sink, out, dst);
    }
    if (UNEXPECTED(sink->str != NULL)) {
        zend_string_efree(sink->str);
    }
    return PHP_SC_FETCH_MISS;
}

/* A hit that sc_fetch_fast returned and that is neither an int nor
 * a zero-copy value used in place: another scalar, or a zero-copy value
 * that must be copied (php_sc_fetch_finish). */
static zend_never_inline int php_sc_fetch_hit_rest(const sc_value_out *out, zval *dst)
{
    php_sc_sink sink = {{php_sc_sink_get, NULL, 0, false, 0}, NULL};

    return php_sc_fetch_finish(&sink, out, dst);
}

/* sc_fetch_calls.borrow: the thread borrows zero-copy values once it
 * entered the epoch (php_sc_zc_borrow_entered). */
static uint32_t php_sc_fetch_borrow(void)
{
    return php_sc_zc_borrow_entered();
}

/* sc_fetch_calls.enter: a fetch found a zero-copy value from outside the
 * epoch (nothing was counted or kept): enters it, when zero-copy is on. */
static bool php_sc_fetch_enter(void)
{
    if (!php_sc_zc_on) {
        return false;
    }
    (void)php_sc_zc_borrow();
    return true;
}

/* sc_fetch_calls.open: the sink of a fetch whose first try declined. */
static void php_sc_fetch_open(sc_sink *sink, uint32_t borrow)
{
    php_sc_sink *ps = (php_sc_sink *)sink;

    ps->base.get = php_sc_sink_get;
    ps->base.buf = NULL;
    ps->base.cap = 0;
    ps->base.is_string = false;
    ps->base.borrow = borrow;
    ps->str = NULL;
}

static const sc_fetch_calls php_sc_fetch_calls = {php_sc_now, php_sc_fetch_borrow, php_sc_fetch_enter,
                                                  php_sc_fetch_open};

/* Fetches one key into dst (now: SC_FETCH_NOW_LATER, or the time to use):
 * sc_fetch_value (sc_fetch.h), inlined into apcu_fetch, whose first try
 * does the commonest fetches (an int, a zero-copy value in place, a miss,
 * of an entry without a ttl) without another call and without the clock.
 * The core's rest of it is a call that is never inlined
 * (sc_fetch_value_rest), so that the first try keeps few values live; the
 * key and how far the first try got go to it by pointer: passed by value,
 * the call copied them with 16-byte loads right after the first try had
 * written them with narrower stores, a failed store forwarding per load,
 * about a tenth of a 1 KiB string's fetch (perf's cpu-clock samples;
 * fetch_str_1k, benchmarks/RESULTS.md). */
static zend_always_inline int php_sc_fetch_key(const sc_key *kp, zval *dst, int64_t now)
{
    php_sc_sink sink;
    sc_value_out out;
    sc_key k = *kp;
    int r;

    r = sc_fetch_value(&php_sc_shared_cache, &k, now, &php_sc_fetch_calls, &SCG(fetch_memos), &sink.base, &out);
    if (EXPECTED(r == SC_FAST_BORROWED)) {
        if (EXPECTED(php_sc_zc_in_place_at(&out, dst, php_sc_zc_pad_for(k.len)))) {
            return PHP_SC_FETCH_HIT;
        }
        return php_sc_fetch_hit_rest(&out, dst);
    }
    if (EXPECTED(r == SC_FAST_LONG)) {
        ZVAL_LONG(dst, (zend_long)out.scalar);
        return PHP_SC_FETCH_HIT;
    }
    if (r == SC_FAST_SCALAR) {
        return php_sc_fetch_hit_rest(&out, dst);
    }
    if (r == SC_FAST_MISS) {
        return PHP_SC_FETCH_MISS;
    }
    return php_sc_fetch_rest(r, &sink, &out, dst);
}

/* A miss of the caller's own key: the key's preloaded entry, if any
 * (php/owner.c). */
static zend_never_inline int php_sc_fetch_public(zend_string *key, zval *dst, int64_t now)
{
    uint64_t before = sc_local.misses;
    sc_key k;
    int r;

    if (!php_sc_make_key(&k, key) || !php_sc_key_public(&k)) {
        return PHP_SC_FETCH_MISS;
    }
    r = php_sc_fetch_key(&k, dst, now);
    /* One fetch counts one hit or one miss: the second lookup's miss, or
     * the first one's when the second hit, is taken back (unless it was
     * the sampled one, already recorded in shared memory). */
    if (r == PHP_SC_FETCH_MISS) {
        if (sc_local.misses == before + 1 && ((before + 1) & (SC_MISS_SAMPLE - 1)) != 0) {
            sc_local.misses = before;
        }
    } else if (before != 0 && (before & (SC_MISS_SAMPLE - 1)) != 0) {
        sc_local.misses--;
    }
    return r;
}

static zend_always_inline int php_sc_fetch_one(zend_string *key, zval *dst, int64_t now)
{
    sc_key k;
    int r;

    if (UNEXPECTED(!php_sc_make_key(&k, key))) {
        return PHP_SC_FETCH_MISS;
    }
    r = php_sc_fetch_key(&k, dst, now);
    if (UNEXPECTED(r == PHP_SC_FETCH_MISS) && UNEXPECTED(SCG(public_reads))) {
        r = php_sc_fetch_public(key, dst, now);
    }
    return r;
}

/* php_sc_fetch_one, called (apcu_fetch of an array, of a key that is not a
 * string). */
static zend_never_inline int php_sc_fetch_one_call(zend_string *key, zval *dst, int64_t now)
{
    return php_sc_fetch_one(key, dst, now);
}

/* A ttl as the core takes it (sc_table.h): positive ones clamped to
 * SC_TTL_MAX (68 years: never, in practice), negative ones mark an entry
 * stored already expired, as APCu keeps it. */
static uint32_t php_sc_clamp_ttl(zend_long ttl)
{
    if (ttl == 0) {
        return 0;
    }
    if (ttl < 0) {
        return SC_TTL_EXPIRED | (ttl < -(zend_long)SC_TTL_MAX ? SC_TTL_MAX : (uint32_t)-ttl);
    }
    return (uint64_t)ttl > SC_TTL_MAX ? SC_TTL_MAX : (uint32_t)ttl;
}

/* Stores one value. Returns false when not stored (a warning or exception
 * has been raised where APCu raises one). */
static bool php_sc_store_one(zend_string *key, zval *value, zend_long ttl, bool add_only, int64_t now)
{
    php_sc_encoded enc;
    sc_value_in in = {0};
    sc_status st;
    sc_key k;

    if (!php_sc_make_key(&k, key)) {
        return false;
    }
    if (add_only && UNEXPECTED(SCG(public_reads))) {
        /* A preloaded entry of the key: the caller sees it, so it exists. */
        sc_key pk = k;
        if (php_sc_key_public(&pk) && sc_cache_exists(&php_sc_shared_cache, &pk, now) == SC_OK) {
            return false;
        }
    }
    ZVAL_DEREF(value);
    php_sc_zc_idle();
    if (php_sc_zc_on && php_sc_zc_may_store(value)
        && php_sc_zc_store(&php_sc_shared_cache, &k, value, php_sc_clamp_ttl(ttl), now, add_only, &st)) {
        return st == SC_OK;
    }
    if (php_sc_value_encode(value, &enc) != SUCCESS) {
        return false;
    }
    in.vtype = enc.vtype;
    in.scalar = enc.scalar;
    in.data = enc.data;
    in.len = enc.len;
    st = sc_cache_store(&php_sc_shared_cache, &k, &in, php_sc_clamp_ttl(ttl), now, add_only);
    php_sc_value_encoded_release(&enc);
    return st == SC_OK;
}

static void php_sc_store_impl(INTERNAL_FUNCTION_PARAMETERS, bool add_only)
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

    now = php_sc_now();
    if (Z_TYPE_P(key) == IS_ARRAY) {
        zend_string *skey;
        zend_ulong ikey;
        zval *v;
        array_init(return_value);
        ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL_P(key), ikey, skey, v) {
            bool stored;
            if (skey) {
                stored = php_sc_store_one(skey, v, ttl, add_only, now);
            } else {
                zend_string *tmp = zend_long_to_str((zend_long)ikey);
                stored = php_sc_store_one(tmp, v, ttl, add_only, now);
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
    RETURN_BOOL(php_sc_store_one(Z_STR_P(key), value, ttl, add_only, now));
}

/* ---- the functions ---- */

ZEND_FUNCTION(shardcache_store)
{
    php_sc_store_impl(INTERNAL_FUNCTION_PARAM_PASSTHRU, false);
}

ZEND_FUNCTION(shardcache_add)
{
    php_sc_store_impl(INTERNAL_FUNCTION_PARAM_PASSTHRU, true);
}

/* apcu_fetch(array). Decoding a value runs user code (__wakeup,
 * __unserialize) that may change the key array or a key behind a
 * reference: the keys are taken first, each with a reference of its own,
 * then fetched. */
static void php_sc_fetch_many(HashTable *in, zval *return_value, int64_t now)
{
    zval *k, found;
    uint32_t n = zend_hash_num_elements(in), count = 0;
    volatile uint32_t i = 0;
    zend_string **keys = n ? safe_emalloc(n, sizeof(zend_string *), 0) : NULL;

    ZEND_HASH_FOREACH_VAL(in, k) {
        ZVAL_DEREF(k);
        if (Z_TYPE_P(k) != IS_STRING) {
            php_error_docref(NULL, E_WARNING, "apc_fetch() expects a string or array of strings.");
            continue;
        }
        keys[count++] = zend_string_copy(Z_STR_P(k));
    } ZEND_HASH_FOREACH_END();
    array_init(return_value);
    zend_try {
        for (; i < count; i++) {
            if (php_sc_fetch_one_call(keys[i], &found, now) == PHP_SC_FETCH_HIT) {
                zend_hash_update(Z_ARRVAL_P(return_value), keys[i], &found);
            }
            zend_string_release(keys[i]);
        }
    } zend_catch {
        for (; i < count; i++) {
            zend_string_release(keys[i]);
        }
        if (keys) {
            efree(keys);
        }
        zend_bailout();
    } zend_end_try();
    if (keys) {
        efree(keys);
    }
}

ZEND_FUNCTION(shardcache_fetch)
{
    zval *key, *success = NULL;
    int r;

    ZEND_PARSE_PARAMETERS_START(1, 2)
        Z_PARAM_ZVAL(key)
        Z_PARAM_OPTIONAL
        Z_PARAM_ZVAL(success)
    ZEND_PARSE_PARAMETERS_END();

    if (success) {
        ZEND_TRY_ASSIGN_REF_FALSE(success);
    }
    if (EXPECTED(Z_TYPE_P(key) == IS_STRING)) {
        r = php_sc_fetch_one(Z_STR_P(key), return_value, SC_FETCH_NOW_LATER);
    } else if (Z_TYPE_P(key) == IS_ARRAY) {
        php_sc_fetch_many(Z_ARRVAL_P(key), return_value, php_sc_now());
        if (success) {
            ZEND_TRY_ASSIGN_REF_TRUE(success);
        }
        return;
    } else {
        zend_string *skey = zval_try_get_string(key);
        if (!skey) {
            RETURN_THROWS();
        }
        r = php_sc_fetch_one_call(skey, return_value, SC_FETCH_NOW_LATER);
        zend_string_release(skey);
    }
    if (r != PHP_SC_FETCH_MISS && success) {
        /* Found, even when decoding it threw (as in APCu). */
        ZEND_TRY_ASSIGN_REF_TRUE(success);
    }
    if (r != PHP_SC_FETCH_HIT) {
        RETURN_FALSE;
    }
}

/* The caller's own entry of key, or its preloaded one. */
static bool php_sc_exists_key(zend_string *key, int64_t now)
{
    sc_key k;

    if (!php_sc_make_key(&k, key)) {
        return false;
    }
    return sc_cache_exists(&php_sc_shared_cache, &k, now) == SC_OK
           || (SCG(public_reads) && php_sc_key_public(&k) && sc_cache_exists(&php_sc_shared_cache, &k, now) == SC_OK);
}

ZEND_FUNCTION(shardcache_exists)
{
    zval *key;
    int64_t now;

    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ZVAL(key)
    ZEND_PARSE_PARAMETERS_END();

    now = php_sc_now();
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
            if (php_sc_exists_key(Z_STR_P(v), now)) {
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
        found = php_sc_exists_key(skey, now);
        zend_string_release(skey);
        RETURN_BOOL(found);
    }
}

#define PHP_SC_DELETE_TYPE_MSG "apc_delete() expects a string, array of strings, or APCIterator instance"

ZEND_FUNCTION(shardcache_delete)
{
    zval *key;
    sc_key k;

    ZEND_PARSE_PARAMETERS_START(1, 1)
        Z_PARAM_ZVAL(key)
    ZEND_PARSE_PARAMETERS_END();

    php_sc_zc_idle();
    if (Z_TYPE_P(key) == IS_ARRAY) {
        zval *v;
        array_init(return_value);
        ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(key), v) {
            ZVAL_DEREF(v);
            if (Z_TYPE_P(v) != IS_STRING) {
                php_error_docref(NULL, E_WARNING, PHP_SC_DELETE_TYPE_MSG);
                Z_TRY_ADDREF_P(v);
                add_next_index_zval(return_value, v);
                continue;
            }
            if (!php_sc_make_key(&k, Z_STR_P(v)) || sc_cache_delete(&php_sc_shared_cache, &k) != SC_OK) {
                Z_TRY_ADDREF_P(v);
                add_next_index_zval(return_value, v);
            }
        } ZEND_HASH_FOREACH_END();
        return;
    }
    if (Z_TYPE_P(key) == IS_STRING) {
        RETURN_BOOL(php_sc_make_key(&k, Z_STR_P(key)) && sc_cache_delete(&php_sc_shared_cache, &k) == SC_OK);
    }
    if (Z_TYPE_P(key) == IS_OBJECT) {
        if (php_sc_iterator_ce && instanceof_function(Z_OBJCE_P(key), php_sc_iterator_ce)) {
            php_sc_iterator_delete(key, return_value);
            return;
        }
        php_error_docref(NULL, E_ERROR, "apc_delete object argument must be instance of APCUIterator.");
        RETURN_FALSE;
    }
    php_error_docref(NULL, E_WARNING, PHP_SC_DELETE_TYPE_MSG);
    RETURN_FALSE;
}

ZEND_FUNCTION(shardcache_clear_cache)
{
    ZEND_PARSE_PARAMETERS_NONE();

    if (php_sc_active) {
        php_sc_zc_idle();
        php_sc_owner_clear();
    }
    RETURN_TRUE;
}

ZEND_FUNCTION(shardcache_enabled)
{
    ZEND_PARSE_PARAMETERS_NONE();

    RETURN_BOOL(php_sc_active);
}

/* inc, dec or cas of a key the caller has no entry of: with a preloaded
 * int of the key (php/owner.c), the caller's own entry is made from it
 * (added: SC_EXISTS when one appeared meanwhile, for the caller to update
 * that one). SC_NOTFOUND: no preloaded entry (or cas compared unequal);
 * SC_BADTYPE: it is not an int. */
static zend_never_inline sc_status php_sc_update_public(const sc_key *k, sc_update_op op, int64_t a, int64_t b, uint32_t ttl,
                                      int64_t now, int64_t *result)
{
    sc_key pk = *k;
    sc_snapshot *snap;
    sc_entry_meta m;
    sc_value_in in = {0};
    uint8_t vtype;
    int64_t base, v;
    sc_status st;

    if (!php_sc_key_public(&pk)) {
        return SC_NOTFOUND;
    }
    snap = sc_snapshot_key(&php_sc_shared_cache, &pk, now, false);
    if (!sc_snapshot_next(snap, &m)) {
        sc_snapshot_free(snap);
        return SC_NOTFOUND;
    }
    vtype = m.vtype;
    base = m.scalar;
    sc_snapshot_free(snap);
    if (vtype != SC_V_LONG) {
        return SC_BADTYPE;
    }
    switch (op) {
    case SC_UPDATE_INC:
        v = (int64_t)((uint64_t)base + (uint64_t)a);
        break;
    case SC_UPDATE_DEC:
        v = (int64_t)((uint64_t)base - (uint64_t)a);
        break;
    default:
        if (base != a) {
            return SC_NOTFOUND;
        }
        v = b;
        break;
    }
    in.vtype = SC_V_LONG;
    in.scalar = v;
    st = sc_cache_store(&php_sc_shared_cache, k, &in, ttl, now, true);
    if (st == SC_OK) {
        *result = v;
    }
    return st == SC_OK ? SC_OK : SC_EXISTS;
}

/* The rest of an update whose key the caller has no entry of, when public
 * entries may exist: the key's preloaded int copied into the caller's own
 * entry, else the update as asked (create). */
static zend_never_inline sc_status php_sc_update_rest(const sc_key *k, sc_update_op op, int64_t a, int64_t b,
                                                      uint32_t ttl, bool create, int64_t now, int64_t *result)
{
    sc_status st = php_sc_update_public(k, op, a, b, ttl, now, result);

    if (st == SC_OK || st == SC_BADTYPE || (st == SC_NOTFOUND && op == SC_UPDATE_CAS)) {
        return st;
    }
    return sc_cache_update(&php_sc_shared_cache, k, op, a, b, ttl, create, now, &SCG(fetch_memos), result);
}

/* sc_cache_update on the caller's own entry, or on its copy of the key's
 * preloaded entry when it has none (php/owner.c). */
static zend_always_inline sc_status php_sc_update_key(const sc_key *k, sc_update_op op, int64_t a, int64_t b,
                                                      uint32_t ttl, bool create, int64_t now, int64_t *result)
{
    sc_status st;

    if (EXPECTED(!SCG(public_reads))) {
        return sc_cache_update(&php_sc_shared_cache, k, op, a, b, ttl, create, now, &SCG(fetch_memos), result);
    }
    st = sc_cache_update(&php_sc_shared_cache, k, op, a, b, ttl, false, now, &SCG(fetch_memos), result);
    return st == SC_NOTFOUND ? php_sc_update_rest(k, op, a, b, ttl, create, now, result) : st;
}

static void php_sc_update_impl(INTERNAL_FUNCTION_PARAMETERS, sc_update_op op)
{
    zend_string *key;
    zend_long step = 1, ttl = 0;
    zval *success = NULL;
    int64_t result, now;
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
    if (!php_sc_make_key(&k, key)) {
        RETURN_FALSE;
    }
    now = php_sc_now();
    if (php_sc_update_key(&k, op, (int64_t)step, 0, php_sc_clamp_ttl(ttl), ttl >= 0, now, &result) != SC_OK) {
        if (ttl < 0) {
            /* A negative ttl creates an entry that is already expired, as in
             * APCu: the key stays unreadable (and the call fails) but the
             * entry is kept, as a store with that ttl keeps it. */
            sc_value_in in = {0};
            in.vtype = SC_V_LONG;
            in.scalar = op == SC_UPDATE_DEC ? (int64_t)(0 - (uint64_t)step) : (int64_t)step;
            in.data = NULL;
            in.len = 0;
            (void)sc_cache_store(&php_sc_shared_cache, &k, &in, php_sc_clamp_ttl(ttl), now, true);
        }
        RETURN_FALSE;
    }
    if (success) {
        ZEND_TRY_ASSIGN_REF_TRUE(success);
    }
    RETURN_LONG((zend_long)result);
}

ZEND_FUNCTION(shardcache_inc)
{
    php_sc_update_impl(INTERNAL_FUNCTION_PARAM_PASSTHRU, SC_UPDATE_INC);
}

ZEND_FUNCTION(shardcache_dec)
{
    php_sc_update_impl(INTERNAL_FUNCTION_PARAM_PASSTHRU, SC_UPDATE_DEC);
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

    RETURN_BOOL(php_sc_make_key(&k, key)
                && php_sc_update_key(&k, SC_UPDATE_CAS, (int64_t)old_value, (int64_t)new_value, 0, false, php_sc_now(),
                                     &result) == SC_OK);
}

/* apcu_entry's callback, and the store of what it returned. zend_try is a
 * setjmp: it sits in a function of its own, where no local is changed after
 * it (in the caller, gcc 16 saw a macro's temporary as possibly clobbered by
 * the longjmp). Returns false when the callback bailed out (a fatal error);
 * the caller then cleans up and bails out again. */
static bool php_sc_entry_compute(zend_fcall_info *fci, zend_fcall_info_cache *fcc, zend_string *key, zend_long ttl,
                                 zval *return_value)
{
    volatile bool ok = true;

    /* Stored as by apcu_add, as APCu does: a value stored for the key while
     * the callback ran (by it, or by a nested apcu_entry) stays. */
    zend_try {
        if (zend_call_function(fci, fcc) == SUCCESS && !EG(exception) && Z_TYPE_P(return_value) != IS_UNDEF) {
            /* Stamped when stored (as APCu): a slow callback must not
             * store a value that is already (nearly) expired. */
            php_sc_store_one(key, return_value, ttl, true, php_sc_now());
        }
    } zend_catch {
        ok = false;
    } zend_end_try();
    return ok;
}

ZEND_FUNCTION(shardcache_entry)
{
    zend_string *key;
    zend_fcall_info fci;
    zend_fcall_info_cache fcc;
    zend_long ttl = 0;
    sc_reservation_ticket ticket;
    php_sc_sink sink = {{php_sc_sink_get, NULL, 0, false, 0}, NULL};
    sc_value_out out;
    zval arg;
    int64_t now;
    sc_key k;
    bool bailed;

    ZEND_PARSE_PARAMETERS_START(2, 3)
        Z_PARAM_STR(key)
        Z_PARAM_FUNC(fci, fcc)
        Z_PARAM_OPTIONAL
        Z_PARAM_LONG(ttl)
    ZEND_PARSE_PARAMETERS_END();

    if (!php_sc_make_key(&k, key)) {
        RETURN_NULL(); /* disabled: APCu returns null without calling back */
    }
    now = php_sc_now();
    php_sc_zc_sink_prepare(&sink.base);
    if (sc_cache_reserve(&php_sc_shared_cache, &k, now, &sink.base, &out, &ticket) == SC_OK) {
        if (EXPECTED(out.vtype == SC_V_LONG)) {
            if (UNEXPECTED(sink.str != NULL)) {
                zend_string_efree(sink.str);    /* asked for by an earlier try */
            }
            RETURN_LONG((zend_long)out.scalar);
        }
        if (!php_sc_out_to_zval(&sink, &out, return_value, NULL)) {
            RETVAL_FALSE;
        }
        return;
    }
    if (UNEXPECTED(SCG(public_reads)) && php_sc_fetch_public(key, return_value, now) != PHP_SC_FETCH_MISS) {
        /* The key's preloaded entry (php/owner.c). */
        sc_cache_release(&php_sc_shared_cache, &ticket);
        if (sink.str) {
            zend_string_efree(sink.str);
        }
        return;
    }
    /* Nothing cached: compute it, with the key reserved for us. */
    ZVAL_STR(&arg, key);
    fci.retval = return_value;
    fci.params = &arg;
    fci.param_count = 1;
    fci.named_params = NULL;
    /* A fatal error in the callback jumps out of it: release the key on
     * the way so that other processes do not wait for it. */
    bailed = !php_sc_entry_compute(&fci, &fcc, key, ttl, return_value);
    sc_cache_release(&php_sc_shared_cache, &ticket);
    if (sink.str) {
        zend_string_efree(sink.str);
    }
    if (bailed) {
        zend_bailout();
    }
}

/* ---- module ---- */

/* apc.preload_path, into the public entries (isolation on: php/owner.c). */
static uint64_t php_sc_preload(void)
{
    uint64_t saved = php_sc_owner_preload_begin(), n;

    n = php_sc_compat_preload(SCG(preload_path));
    php_sc_owner_preload_end(saved);
    return n;
}

/* After every extension has started (every serializer has registered):
 * unless APCu itself is loaded, take the APCu identity (the "apcu" module,
 * the apcu_* names, APCUIterator); then choose the serializer and preload. */
static zend_result php_sc_post_startup(void)
{
    if (php_sc_prev_post_startup && php_sc_prev_post_startup() != SUCCESS) {
        return FAILURE;
    }
    if (SCG(apcu_compat) && !zend_hash_str_exists(&module_registry, "apcu", sizeof("apcu") - 1)) {
        zend_module_entry *self = zend_hash_str_find_ptr(&module_registry, "shardcache", sizeof("shardcache") - 1);
        zend_module_entry *saved = EG(current_module);
        php_sc_apcu_identity = php_sc_compat_register_identity(php_sc_module_number);
        /* The apcu_* functions belong to the "apcu" module, as with APCu. */
        EG(current_module) = php_sc_apcu_identity ? php_sc_apcu_identity : self;
        php_sc_apcu_names = zend_register_functions(NULL, php_sc_apcu_functions, NULL, MODULE_PERSISTENT) == SUCCESS;
        EG(current_module) = saved;
        (void)php_sc_compat_alias_iterator();
    }
    if (php_sc_start_ok) {
        php_sc_serializer_select(SCG(serializer_name));
    }
    php_sc_owner_startup();
    if (php_sc_active && php_sc_seg_fresh && SCG(preload_path) && *SCG(preload_path)) {
        php_sc_preloaded = php_sc_preload();
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
    /* A thread that ends (ZTS) gives its liveness slot back; after module
     * shutdown (the main thread, and NTS) the segment is gone: no-op. */
    sc_cache_thread_done(&php_sc_shared_cache);
    if (shardcache_globals->scratch) {
        pefree(shardcache_globals->scratch, 1);
        shardcache_globals->scratch = NULL;
    }
    while (shardcache_globals->nheld > 0) {
        char *buf = shardcache_globals->held[--shardcache_globals->nheld];
        if (buf) {
            pefree(buf, 1);
        }
    }
    if (shardcache_globals->held) {
        pefree(shardcache_globals->held, 1);
        shardcache_globals->held = NULL;
    }
}

/* Named segments are mapped by the process that uses them, not by a parent
 * that forks workers and then changes their user and settings: an FPM
 * master or an Apache parent would make the file as root, and each FPM pool
 * applies its own php_admin_value[shardcache.segment] in its workers only,
 * after the fork. There the first request of each worker maps it (RINIT);
 * elsewhere (CLI, php-cgi, embed, threaded servers) startup does. A
 * "request" with no server context in those SAPIs is not one: opcache's
 * preload script runs so in the FPM master (or a child it forks as
 * opcache.preload_user) and must not map a pool's segment there. */
static bool php_sc_named_deferred(void)
{
    return strcmp(sapi_module.name, "fpm-fcgi") == 0 || strcmp(sapi_module.name, "apache2handler") == 0
           || strcmp(sapi_module.name, "litespeed") == 0;
}

/* APCu 5.1.28 maps its segment with MAP_HUGETLB when apc.mmap_hugepage_size
 * is set, and stops PHP's startup when apc.shm_size is not a multiple of it
 * or the size is no page size (1 byte): the same errors here, so that a
 * php.ini that starts here starts under APCu too. */
static void php_sc_check_hugepage_size(void)
{
    zend_long hp = SCG(mmap_hugepage_size);

    if (hp <= 0) {
        return;
    }
    if (SCG(shm_size) % hp) {
        zend_error_noreturn(E_CORE_ERROR, "apc.shm_size must be a multiple of apc.mmap_hugepage_size");
    }
    if (hp == 1) {
        zend_error_noreturn(E_CORE_ERROR, "Invalid hugepage size: " ZEND_LONG_FMT, hp);
    }
}

/* apc.mmap_hugepage_size set: ask the kernel for transparent huge pages on
 * the segment (anonymous or named: both are shmem). Best effort: no
 * MAP_HUGETLB, nothing reserved, an error is ignored; whether the kernel
 * uses them follows /sys/kernel/mm/transparent_hugepage/shmem_enabled (or
 * the tmpfs's huge= option). Only the mapping's advice changes: the layout,
 * the locks and what a process sees stay the same. */
static void php_sc_advise_hugepages(void)
{
#ifdef MADV_HUGEPAGE
    if (SCG(mmap_hugepage_size) > 0 && php_sc_shared_cache.seg.base) {
        (void)madvise(php_sc_shared_cache.seg.base, (size_t)php_sc_shared_cache.seg.size, MADV_HUGEPAGE);
    }
#endif
}

static bool php_sc_start_cache(uint64_t size, uint32_t shards, bool auto_shards, uint32_t hint, uint32_t ttl);

/* The named segment was refused (why: err): this process makes an
 * anonymous segment of its own instead, so that a path another user took
 * first (or any other fault) cannot switch the cache off; the warning,
 * phpinfo() and shardcache_info()'s segment_refused say so. Nobody else
 * maps that segment: its entries live as long as this process. */
static bool php_sc_start_private(const char *err, int level)
{
    php_sc_seg_path[0] = '\0';
    snprintf(php_sc_seg_refused, sizeof(php_sc_seg_refused), "%s", err);
    php_error_docref(NULL, level, "shardcache: %s; this process uses a private anonymous segment instead "
                     "(its entries are not shared with other processes)", err);
    if (!php_sc_start_cache(php_sc_req_size, php_sc_req_shards, SCG(shards) == 0, php_sc_req_hint,
                            php_sc_req_ttl)) {
        return false;
    }
    php_sc_shared_cache.slam_defense = SCG(slam_defense);
    php_sc_owner_bind(&php_sc_shared_cache);
    php_sc_advise_hugepages();
    php_sc_seg_fresh = true;
    php_sc_inactive_reason = NULL;
    php_sc_active = true;
    return true;
}

/* Maps the named segment `value` (a shardcache.segment value). Warnings are
 * startup warnings at startup and ordinary ones in a request. */
static bool php_sc_attach_named(const char *value, int level)
{
    char *path = php_sc_seg_path, err[320];
    sc_file_opts opts;
    sc_file_result res;

    if (sc_file_expand(value, path, sizeof(php_sc_seg_path)) != 0) {
        snprintf(err, sizeof(err), "shardcache.segment \"%.200s\" is not valid (%%u, %%U, %%p and %%%% are the "
                 "only %% forms)", value);
        return php_sc_start_private(err, level);
    }
    opts.path = path;
    opts.mode = (unsigned)SCG(segment_mode);
    opts.version = PHP_SHARDCACHE_VERSION;
    opts.size = php_sc_req_size;
    opts.nshards = php_sc_req_shards;
    opts.entries_hint = php_sc_req_hint;
    opts.per_process = sc_file_per_process(value);
    if (sc_cache_attach(&php_sc_shared_cache, &opts, php_sc_req_ttl, &res, err, sizeof(err)) != 0) {
        return php_sc_start_private(err, level);
    }
    if (res.note[0]) {
        php_error_docref(NULL, level, "shardcache: %s", res.note);
    }
    php_sc_shared_cache.slam_defense = SCG(slam_defense);
    php_sc_owner_bind(&php_sc_shared_cache);
    /* Another PHP build may share the file: its zero-copy arrays of
     * another shape are absent here, in every function. */
    php_sc_shared_cache.unreadable = php_sc_zc_unreadable;
    php_sc_shm_bytes = php_sc_shared_cache.seg.size;
    php_sc_advise_hugepages();
    php_sc_seg_fresh = res.created;
    php_sc_inactive_reason = NULL;
    php_sc_active = true;
    return true;
}

/* The first request of a process whose named segment waits (see
 * php_sc_named_deferred), or whose pool asked for another segment than the
 * parent's. Later requests compare one string. */
static void php_sc_resolve_segment(void)
{
    const char *want = SCG(segment) ? SCG(segment) : "";

    if (EXPECTED(php_sc_seg_resolved != NULL && strcmp(want, php_sc_seg_resolved) == 0)) {
        return;
    }
    if (SG(server_context) == NULL && php_sc_named_deferred()) {
        return;
    }
#ifdef ZTS
    pthread_mutex_lock(&php_sc_attach_lock);
#endif
    if (php_sc_seg_resolved == NULL) {
        if (*want) {
            if (php_sc_attach_named(want, E_WARNING) && php_sc_seg_fresh && SCG(preload_path) && *SCG(preload_path)) {
                php_sc_preloaded = php_sc_preload();
            }
        } else {
            php_error_docref(NULL, E_WARNING, "shardcache: shardcache.segment is set at startup but empty for "
                             "this worker: an anonymous segment can only be made before workers start; "
                             "the cache is disabled in this process");
            php_sc_inactive_reason = "disabled: no segment for this worker";
        }
        php_sc_seg_resolved = pestrdup(want, 1);
    } else if (php_sc_seg_resolved[0] == '\0' && *want && !php_sc_seg_change_warned) {
        /* The parent made an anonymous segment; this worker's pool names a
         * file: leave the parent's mapping (in this process only). */
        php_sc_seg_change_warned = true;
        if (php_sc_active) {
            sc_cache_shutdown(&php_sc_shared_cache);
            php_sc_active = false;
        }
        if (php_sc_attach_named(want, E_WARNING) && php_sc_seg_fresh && SCG(preload_path) && *SCG(preload_path)) {
            php_sc_preloaded = php_sc_preload();
        }
        pefree(php_sc_seg_resolved, 1);
        php_sc_seg_resolved = pestrdup(want, 1);
    } else if (!php_sc_seg_change_warned) {
        php_sc_seg_change_warned = true;
        php_error_docref(NULL, E_WARNING, "shardcache: shardcache.segment changed to \"%s\" after this process set "
                         "up \"%s\"; keeping the first", want, php_sc_seg_resolved);
    }
#ifdef ZTS
    pthread_mutex_unlock(&php_sc_attach_lock);
#endif
}

/* The shard count when shardcache.shards is 0 (the default): one shard per
 * 512 KiB of segment, a power of two from 64 to 1024 (32M: 64, 128M: 256,
 * 512M and more: 1024). A writer that is descheduled while it holds its
 * shard's lock stalls every other writer of that shard for a time slice;
 * worker pools run many more processes than cores, so the count follows the
 * segment (which grows with the pool) rather than the cores. */
static zend_long php_sc_default_shards(uint64_t shm_size)
{
    zend_long shards = 64;

    while (shards < 1024 && ((uint64_t)shards << 1) * (UINT64_C(512) << 10) <= shm_size) {
        shards <<= 1;
    }
    return shards;
}

/* Maps the segment: size from apc.shm_size, falling back to 32M with a
 * warning when that size is above shardcache's limit or cannot be mapped.
 * auto_shards: the shard count was derived from the size (shardcache.shards
 * = 0), so a fallback derives it again from the size actually mapped. */
static bool php_sc_start_cache(uint64_t size, uint32_t shards, bool auto_shards, uint32_t hint, uint32_t ttl)
{
    char err[256];
    int rc;

    if (size >= SC_MAX_SEGMENT) {
        php_error_docref(NULL, E_CORE_WARNING, "shardcache: apc.shm_size must be below %lluG; using 32M",
                         (unsigned long long)(SC_MAX_SEGMENT >> 30));
        size = PHP_SC_DEFAULT_SHM_SIZE;
        if (auto_shards) {
            shards = (uint32_t)php_sc_default_shards(size);
        }
    }
    rc = sc_cache_init(&php_sc_shared_cache, size, shards, hint, ttl, err, sizeof(err));
    if (rc == SC_LAYOUT_HINT_TOO_LARGE) {
        /* APCu stops PHP's startup with this error. */
        zend_error_noreturn(E_CORE_ERROR, "%s", err);
    }
    if (rc != 0) {
        if (size == PHP_SC_DEFAULT_SHM_SIZE) {
            php_error_docref(NULL, E_CORE_WARNING, "shardcache: %s; the cache is disabled", err);
            php_sc_inactive_reason = "disabled: the shared memory could not be set up";
            return false;
        }
        php_error_docref(NULL, E_CORE_WARNING, "shardcache: %s; using apc.shm_size=32M", err);
        size = PHP_SC_DEFAULT_SHM_SIZE;
        if (auto_shards) {
            shards = (uint32_t)php_sc_default_shards(size);
        }
        if (sc_cache_init(&php_sc_shared_cache, size, shards, hint, ttl, err, sizeof(err)) != 0) {
            php_error_docref(NULL, E_CORE_WARNING, "shardcache: %s; the cache is disabled", err);
            php_sc_inactive_reason = "disabled: the shared memory could not be set up";
            return false;
        }
    }
    php_sc_shm_bytes = size;
    return true;
}

static PHP_MINIT_FUNCTION(shardcache)
{
    uint64_t shm_size;
    zend_long shards, hint, ttl;
    bool start = false;

    php_sc_module_number = module_number;
    php_sc_apcu_names = false;
    php_sc_apcu_identity = NULL;
    php_sc_preloaded = 0;
    php_sc_apc_ini_ours = !zend_hash_str_exists(&module_registry, "apcu", sizeof("apcu") - 1);
    if (php_sc_apc_ini_ours) {
        REGISTER_INI_ENTRIES();
    }
    php_sc_register_ini(php_sc_own_ini_entries, module_number, type);
    if (!php_sc_apc_ini_ours) {
        php_sc_read_foreign_apc_ini();
    }

    php_sc_active = false;
    php_sc_seg_fresh = false;
    php_sc_seg_change_warned = false;
    php_sc_seg_refused[0] = '\0';
    if (php_sc_seg_resolved) {
        pefree(php_sc_seg_resolved, 1);
        php_sc_seg_resolved = NULL;
    }
    if (!SCG(enabled)) {
        php_sc_inactive_reason = "disabled (apc.enabled=0)";
    } else if (!SCG(enable_cli) && strcmp(sapi_module.name, "cli") == 0) {
        php_sc_inactive_reason = "disabled (apc.enable_cli=0 in the CLI)";
    } else {
        start = true;
    }
    /* Serializer extensions starting after us register through the hook, as
     * with APCu (which, when loaded, publishes it itself; like APCu, only
     * when the cache is enabled). */
    php_sc_start_ok = start;
    php_sc_serializer_minit(module_number, start && php_sc_apc_ini_ours);

    php_sc_iterator_minit(module_number);
    php_sc_info_minit(module_number);

    php_sc_prev_post_startup = zend_post_startup_cb;
    zend_post_startup_cb = php_sc_post_startup;

    php_sc_zc_on = false;
    if (!start) {
        return SUCCESS;
    }
    shm_size = SCG(shm_size) > 0 ? (uint64_t)SCG(shm_size) : (uint64_t)PHP_SC_DEFAULT_SHM_SIZE;
    shards = SCG(shards);
    if (shards != 0 && (shards < 1 || shards > 4096 || (shards & (shards - 1)) != 0)) {
        shards = php_sc_default_shards(shm_size);
        php_error_docref(NULL, E_CORE_WARNING,
                         "shardcache: shardcache.shards must be 0 (automatic) or a power of two from 1 to 4096; "
                         "using " ZEND_LONG_FMT, shards);
    } else if (shards == 0) {
        shards = php_sc_default_shards(shm_size);
    }
    hint = SCG(entries_hint) > 0 ? SCG(entries_hint) : 4096;
    if (hint > (zend_long)(1 << 30)) {
        hint = 1 << 30;
    }
    ttl = SCG(ttl) > 0 ? SCG(ttl) : 0;
    if (ttl > (zend_long)UINT32_MAX) {
        ttl = (zend_long)UINT32_MAX;
    }
    if (shm_size >= SC_MAX_SEGMENT) {
        php_error_docref(NULL, E_CORE_WARNING, "shardcache: apc.shm_size must be below %lluG; using 32M",
                         (unsigned long long)(SC_MAX_SEGMENT >> 30));
        shm_size = PHP_SC_DEFAULT_SHM_SIZE;
        if (SCG(shards) == 0) {
            shards = php_sc_default_shards(shm_size);
        }
    }
    php_sc_check_hugepage_size();
    php_sc_zc_minit(SCG(zero_copy), SCG(zero_copy_max), shm_size);
    php_sc_obj_minit();
    php_sc_req_size = shm_size;
    php_sc_req_shards = (uint32_t)shards;
    php_sc_req_hint = (uint32_t)hint;
    php_sc_req_ttl = (uint32_t)ttl;
    if (SCG(segment) && *SCG(segment)) {
        if (php_sc_named_deferred()) {
            php_sc_inactive_reason = "waiting for the first request to map shardcache.segment";
            return SUCCESS;
        }
        php_sc_seg_resolved = pestrdup(SCG(segment), 1);
        php_sc_attach_named(SCG(segment), E_CORE_WARNING);
        return SUCCESS;
    }
    php_sc_seg_resolved = pestrdup("", 1);
    if (!php_sc_start_cache(shm_size, (uint32_t)shards, SCG(shards) == 0, (uint32_t)hint, (uint32_t)ttl)) {
        return SUCCESS;
    }
    php_sc_advise_hugepages();
    php_sc_seg_fresh = true;
    php_sc_shared_cache.slam_defense = SCG(slam_defense);
    php_sc_owner_bind(&php_sc_shared_cache);
    php_sc_inactive_reason = NULL;
    php_sc_active = true;
    return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(shardcache)
{
    if (php_sc_active) {
        sc_cache_shutdown(&php_sc_shared_cache);
        php_sc_active = false;
    }
    if (php_sc_seg_resolved) {
        pefree(php_sc_seg_resolved, 1);
        php_sc_seg_resolved = NULL;
    }
    if (zend_post_startup_cb == php_sc_post_startup) {
        zend_post_startup_cb = php_sc_prev_post_startup;
    }
    php_sc_owner_shutdown();
    UNREGISTER_INI_ENTRIES();
    return SUCCESS;
}

static PHP_RINIT_FUNCTION(shardcache)
{
    (void)type;
    (void)module_number;
#if defined(ZTS) && defined(COMPILE_DL_SHARDCACHE)
    ZEND_TSRMLS_CACHE_UPDATE();
#endif
    php_sc_owner_refresh();
    if (php_sc_start_ok) {
        php_sc_resolve_segment();
    }
    return SUCCESS;
}

/* After every module's request shutdown and the executor's: nothing of
 * the request can point into the segment any more. */
static ZEND_MODULE_POST_ZEND_DEACTIVATE_D(shardcache)
{
    php_sc_obj_request_end();
    if (php_sc_active) {
        php_sc_zc_request_end();
    }
    return SUCCESS;
}

static PHP_RSHUTDOWN_FUNCTION(shardcache)
{
    (void)type;
    (void)module_number;
    /* A fatal error while a value was decoded left its buffer held. */
    php_sc_scratch_release_held();
    /* Do not keep a huge scratch buffer between requests. */
    if (SCG(scratch_cap) > (1u << 20)) {
        pefree(SCG(scratch), 1);
        SCG(scratch) = NULL;
        SCG(scratch_cap) = 0;
    }
    return SUCCESS;
}

static void php_sc_info_row_u64(const char *name, uint64_t v)
{
    char buf[32];

    snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
    php_info_print_table_row(2, name, buf);
}

static PHP_MINFO_FUNCTION(shardcache)
{
    char buf[256];

    php_info_print_table_start();
    php_info_print_table_row(2, "shardcache support", php_sc_active ? "enabled" : php_sc_inactive_reason);
    php_info_print_table_row(2, "Version", PHP_SHARDCACHE_VERSION);
    if (php_sc_apcu_names) {
        bool iterator = php_sc_iterator_ce
                        && zend_hash_str_find_ptr(CG(class_table), "apcuiterator", sizeof("apcuiterator") - 1)
                               == php_sc_iterator_ce;
        snprintf(buf, sizeof(buf), "registered: apcu_* functions%s, extension name \"apcu\" %s",
                 iterator ? ", APCUIterator" : "",
                 php_sc_apcu_identity ? "(version " PHP_SHARDCACHE_APCU_VERSION ")" : "not taken");
        php_info_print_table_row(2, "APCu names", buf);
    } else if (!SCG(apcu_compat)) {
        php_info_print_table_row(2, "APCu names", "not registered (shardcache.apcu_compat=0): use shardcache_*");
    } else {
        php_info_print_table_row(2, "APCu names", "not registered: the APCu extension is loaded; use shardcache_*");
    }
    php_info_print_table_row(2, "apc.* settings",
                             php_sc_apc_ini_ours ? (php_sc_apcu_identity ? "shardcache's (listed under apcu)" : "shardcache's")
                                             : "read from the APCu extension's entries");
    if (php_sc_active) {
        sc_cache_figures f;
        uint64_t lh, lm;

        /* Hits and misses are recorded one in sc_info_hit_sample() per
         * thread; add this thread's not yet recorded ones. */
        sc_cache_figures_get(&php_sc_shared_cache, &f);
        sc_info_local_unrecorded(&php_sc_shared_cache, &lh, &lm);
        php_info_print_table_row(2, "Serializer", php_sc_serializer_describe());
        php_info_print_table_row(2, "Zero-copy", php_sc_zc_on ? "on" : "off");
        if (SCG(preload_path) && *SCG(preload_path)) {
            snprintf(buf, sizeof(buf), "%llu values from %.200s", (unsigned long long)php_sc_preloaded,
                     SCG(preload_path));
            php_info_print_table_row(2, "Preloaded", buf);
        }
        if (php_sc_shared_cache.seg.named) {
            snprintf(buf, sizeof(buf), "%.200s (file, %llu boots)", php_sc_seg_path,
                     (unsigned long long)php_sc_shared_cache.seg.hdr->boots);
            php_info_print_table_row(2, "Segment", buf);
        } else if (php_sc_seg_refused[0]) {
            snprintf(buf, sizeof(buf), "anonymous, private to this process: shardcache.segment refused: %.180s",
                     php_sc_seg_refused);
            php_info_print_table_row(2, "Segment", buf);
        } else {
            php_info_print_table_row(2, "Segment", "anonymous");
        }
        php_sc_info_row_u64("Shards", f.nshards);
        php_sc_info_row_u64("Shared memory bytes", php_sc_shm_bytes);
        php_sc_info_row_u64("Data area bytes", f.mem_total);
        php_sc_info_row_u64("Memory used bytes", f.mem_used);
        php_sc_info_row_u64("Memory free bytes", f.mem_free);
        php_sc_info_row_u64("Entries", php_sc_info_entries_seen(f.entries));
        php_sc_info_row_u64("Hits", f.hits + lh);
        php_sc_info_row_u64("Misses", f.misses + lm);
        php_sc_info_row_u64("Inserts", f.inserts);
        php_sc_info_row_u64("Evictions", f.evicted);
    }
    php_info_print_table_end();
    DISPLAY_INI_ENTRIES();
}

/* When APCu is loaded too it starts first, so that its apc.* settings
 * exist when shardcache reads them. */
static const zend_module_dep php_sc_module_deps[] = {
    ZEND_MOD_OPTIONAL("apcu")
    ZEND_MOD_END
};

zend_module_entry shardcache_module_entry = {
    STANDARD_MODULE_HEADER_EX,
    NULL,
    php_sc_module_deps,
    "shardcache",
    ext_functions,
    PHP_MINIT(shardcache),
    PHP_MSHUTDOWN(shardcache),
    PHP_RINIT(shardcache),
    PHP_RSHUTDOWN(shardcache),
    PHP_MINFO(shardcache),
    PHP_SHARDCACHE_VERSION,
    PHP_MODULE_GLOBALS(shardcache),
    PHP_GINIT(shardcache),
    PHP_GSHUTDOWN(shardcache),
    ZEND_MODULE_POST_ZEND_DEACTIVATE_N(shardcache),
    STANDARD_MODULE_PROPERTIES_EX
};

#ifdef COMPILE_DL_SHARDCACHE
# ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
# endif
ZEND_GET_MODULE(shardcache)
#endif
