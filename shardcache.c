/*
 * shardcache.c - the PHP module: its entry, the INI settings (apc.* and
 * shardcache.*), the per-thread globals and the module's and requests'
 * start and end, and phpinfo(). The PHP functions are in php/ (store.c,
 * fetch.c, update.c, functions.c, info.c, iterator.c), the segment's
 * start-up in php/segment.c; memory layout, locking and eviction live in
 * src/ behind sc_cache.h. Layers of the glue: php/README.md.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "php_ini.h"
#include "SAPI.h"
#include "ext/standard/info.h"
#include "php_shardcache.h"
#include "php/owner.h"
#include "php/fetch.h"
#include "php/store.h"
#include "php/functions.h"
#include "php/update.h"
#include "php/segment.h"
#include "php/iterator.h"
#include "php/info.h"
#include "php/serializer.h"
#include "php/compat.h"
#include "php/object.h"
#include "php/zc.h"
#include "sc_cache.h"
#include "sc_info.h"

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
static zend_result (*php_sc_prev_post_startup)(void);
static bool php_sc_start_ok;             /* enabled here (apc.enabled, apc.enable_cli) */
char php_sc_seg_refused[320];            /* php_shardcache.h; set by php/segment.c */

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
    php_sc_segment_preload_fresh();
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

/* Whether the cache starts in this process (apc.enabled, and
 * apc.enable_cli in the CLI); *why: why not. */
static bool php_sc_start_allowed(const char **why)
{
    if (!SCG(enabled)) {
        *why = "disabled (apc.enabled=0)";
        return false;
    }
    if (!SCG(enable_cli) && strcmp(sapi_module.name, "cli") == 0) {
        *why = "disabled (apc.enable_cli=0 in the CLI)";
        return false;
    }
    return true;
}

/* The apc.* entries, unless APCu is loaded (then its values are read),
 * and shardcache's own. */
static void php_sc_ini_startup(int type, int module_number)
{
    php_sc_apc_ini_ours = !zend_hash_str_exists(&module_registry, "apcu", sizeof("apcu") - 1);
    if (php_sc_apc_ini_ours) {
        REGISTER_INI_ENTRIES();
    }
    php_sc_register_ini(php_sc_own_ini_entries, module_number, type);
    if (!php_sc_apc_ini_ours) {
        php_sc_read_foreign_apc_ini();
    }
}

static PHP_MINIT_FUNCTION(shardcache)
{
    const char *why_not = NULL;
    uint64_t shm_size;
    bool start;

    php_sc_module_number = module_number;
    php_sc_apcu_names = false;
    php_sc_apcu_identity = NULL;
    php_sc_ini_startup(type, module_number);
    php_sc_active = false;
    start = php_sc_start_allowed(&why_not);
    php_sc_segment_reset(why_not);
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
    shm_size = php_sc_segment_settings();
    php_sc_zc_minit(SCG(zero_copy), SCG(zero_copy_max), shm_size);
    php_sc_obj_minit();
    php_sc_segment_start();
    return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(shardcache)
{
    php_sc_segment_shutdown();
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
        php_sc_segment_resolve();
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
    php_info_print_table_row(2, "shardcache support", php_sc_active ? "enabled" : php_sc_segment_inactive_reason());
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
        php_sc_info_brief f;

        php_sc_info_brief_get(&f);
        php_info_print_table_row(2, "Serializer", php_sc_serializer_describe());
        php_info_print_table_row(2, "Zero-copy", php_sc_zc_on ? "on" : "off");
        if (SCG(preload_path) && *SCG(preload_path)) {
            snprintf(buf, sizeof(buf), "%llu values from %.200s", (unsigned long long)php_sc_segment_preloaded(),
                     SCG(preload_path));
            php_info_print_table_row(2, "Preloaded", buf);
        }
        php_sc_segment_describe(buf, sizeof(buf));
        php_info_print_table_row(2, "Segment", buf);
        php_sc_info_row_u64("Shards", f.nshards);
        php_sc_info_row_u64("Shared memory bytes", php_sc_segment_shm_bytes());
        php_sc_info_row_u64("Data area bytes", f.mem_total);
        php_sc_info_row_u64("Memory used bytes", f.mem_used);
        php_sc_info_row_u64("Memory free bytes", f.mem_free);
        php_sc_info_row_u64("Entries", f.entries);
        php_sc_info_row_u64("Hits", f.hits);
        if (f.segment) {
            php_sc_info_row_u64("Misses", f.misses);
            php_sc_info_row_u64("Inserts", f.inserts);
            php_sc_info_row_u64("Evictions", f.evicted);
        }
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
