/*
 * php/compat.c - what makes shardcache pass for APCu 5.1 when APCu
 * itself is not loaded, and apc.preload_path.
 *
 * The APCu identity (shardcache.apcu_compat=1, the default): a second module
 * entry named "apcu", version PHP_SHARDCACHE_APCU_VERSION, registered in
 * post-startup when no extension holds that name (so a real APCu, loaded in
 * either order, always keeps it). extension_loaded('apcu'),
 * phpversion('apcu'), get_extension_funcs('apcu'), ini_get_all('apcu') and
 * `php --ri apcu` then answer as with APCu: the apcu_* functions (registered
 * by shardcache.c) and the apc.* INI entries belong to it. It declares a
 * dependency on shardcache, which also tells it apart from the real APCu.
 * APCu's constants and the APCUIterator class are listed under it as well.
 * It has no functions, globals, MINIT or request hooks of its own; its MINFO
 * and MSHUTDOWN live in this file, which stays mapped until after it is
 * destroyed (modules are destroyed in reverse order of registration, and it
 * is registered after shardcache). Its MSHUTDOWN hands the apc.* INI entries
 * back to shardcache, whose MSHUTDOWN unregisters them.
 *
 * apc.preload_path: at startup every file "<key>.data" of that directory is
 * loaded with add semantics and no ttl, in alphabetical order, as APCu's
 * apc_cache_preload() does: the contents are one serialize()d value (bytes
 * after it are ignored), files that are empty, unreadable or not one valid
 * value are skipped without a message. Unlike APCu, which crashes on them,
 * values holding objects or PHP references are not built at startup (there
 * is no request, hence no object store): their serialized text is stored as
 * it is and unserialized when fetched. Everything else is unserialized at
 * startup and stored like apcu_store() would store it.
 * Runs in post-startup, single process, before workers fork: no locking
 * beyond what the cache functions take.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include <ctype.h>
#include <stdio.h>
#include <sys/stat.h>
#include "php.h"
#include "php_ini.h"
#include "php_scandir.h"
#include "zend_exceptions.h"
#include "ext/standard/info.h"
#include "ext/standard/php_var.h"
#include "compat.h"
#include "php_shardcache.h"
#include "key.h"
#include "iterator.h"
#include "serializer.h"
#include "value.h"

/* ---- the "apcu" module ---- */

static int php_sc_own_module_number;
static zend_module_entry *php_sc_identity;   /* in module_registry; NULL: not registered */

/* Moves the apc.* INI entries of module `from` to module `to`. */
static void php_sc_move_apc_ini(int from, int to)
{
    zend_ini_entry *ini;

    ZEND_HASH_FOREACH_PTR(EG(ini_directives), ini) {
        if (ini->module_number == from && ZSTR_LEN(ini->name) > 4 && memcmp(ZSTR_VAL(ini->name), "apc.", 4) == 0) {
            ini->module_number = to;
        }
    } ZEND_HASH_FOREACH_END();
}

/* Moves APCu's constants (APC_ITER_*, APC_LIST_*, the serializer hook) of
 * module `from` to module `to`; persistent constants are only listed by
 * module, never unregistered by it. */
static void php_sc_move_apc_constants(int from, int to)
{
    zend_constant *c;

    ZEND_HASH_FOREACH_PTR(EG(zend_constants), c) {
        if (c->name && (int)ZEND_CONSTANT_MODULE_NUMBER(c) == from
            && ((ZSTR_LEN(c->name) > 4 && memcmp(ZSTR_VAL(c->name), "APC_", 4) == 0)
                || (ZSTR_LEN(c->name) > 5 && memcmp(ZSTR_VAL(c->name), "\0apc_", 5) == 0))) {
            ZEND_CONSTANT_SET_FLAGS(c, ZEND_CONSTANT_FLAGS(c), to);
        }
    } ZEND_HASH_FOREACH_END();
}

static PHP_MSHUTDOWN_FUNCTION(php_sc_identity)
{
    (void)type;
    php_sc_move_apc_ini(module_number, php_sc_own_module_number);
    php_sc_identity = NULL;
    return SUCCESS;
}

/* APCu's own table, with its wording, then where it really comes from. */
static PHP_MINFO_FUNCTION(php_sc_identity)
{
    char names[256];

    php_info_print_table_start();
    php_info_print_table_row(2, "APCu Support", php_sc_active ? "Enabled" : "Disabled");
    php_info_print_table_row(2, "Version", PHP_SHARDCACHE_APCU_VERSION);
    php_info_print_table_row(2, "APCu Debugging", "Disabled");
    php_info_print_table_row(2, "MMAP Support", "Enabled");
    php_info_print_table_row(2, "MMAP File Mask", SCG(mmap_file_mask));
    if (php_sc_active) {
        php_sc_serializer_names(names, sizeof(names));
        php_info_print_table_row(2, "Serialization Support", names);
    } else {
        php_info_print_table_row(2, "Serialization Support", "Disabled");
    }
    php_info_print_table_row(2, "Provided by", "shardcache " PHP_SHARDCACHE_VERSION);
    php_info_print_table_end();
    DISPLAY_INI_ENTRIES();
}

static const zend_module_dep php_sc_identity_deps[] = {
    ZEND_MOD_REQUIRED("shardcache")
    ZEND_MOD_END
};

static zend_module_entry php_sc_identity_entry = {
    STANDARD_MODULE_HEADER_EX,
    NULL,
    php_sc_identity_deps,
    "apcu",
    NULL,                       /* the apcu_* names are added by shardcache.c */
    NULL,
    PHP_MSHUTDOWN(php_sc_identity),
    NULL,
    NULL,
    PHP_MINFO(php_sc_identity),
    PHP_SHARDCACHE_APCU_VERSION,
    STANDARD_MODULE_PROPERTIES
};

zend_module_entry *php_sc_compat_register_identity(int own_module_number)
{
    zend_module_entry *m;

    if (php_sc_identity || zend_hash_str_exists(&module_registry, "apcu", sizeof("apcu") - 1)) {
        return NULL;
    }
    php_sc_own_module_number = own_module_number;
    m = zend_register_internal_module(&php_sc_identity_entry);
    if (!m) {
        return NULL;
    }
    if (zend_startup_module_ex(m) != SUCCESS) {
        /* Cannot happen (shardcache, its only dependency, has started); the
         * entry stays registered but unstarted, which module shutdown skips. */
        return NULL;
    }
    php_sc_identity = m;
    php_sc_move_apc_ini(own_module_number, m->module_number);
    php_sc_move_apc_constants(own_module_number, m->module_number);
    /* APCUIterator (php/iterator.c registers it under that name when
     * the identity is on) is listed under "apcu" too. */
    if (php_sc_iterator_ce && php_sc_iterator_ce->type == ZEND_INTERNAL_CLASS
        && zend_string_equals_literal_ci(php_sc_iterator_ce->name, "APCUIterator")) {
        php_sc_iterator_ce->info.internal.module = m;
    }
    return m;
}

bool php_sc_compat_alias_iterator(void)
{
    if (!php_sc_iterator_ce
        || zend_hash_str_exists(CG(class_table), "apcuiterator", sizeof("apcuiterator") - 1)) {
        return false;
    }
    return zend_register_class_alias_ex("APCUIterator", sizeof("APCUIterator") - 1, php_sc_iterator_ce, true)
           == SUCCESS;
}

/* ---- apc.preload_path ---- */

/*
 * Checks that [p, end) starts with one value in php serialize() format and
 * finds where it ends. *needs_request is set when the value holds objects,
 * enums or references (O: C: E: R: r:), which cannot be built at startup.
 * The grammar is that of ext/standard/var_unserializer.re, minus the long
 * obsolete forms; anything else is refused.
 */
typedef struct php_sc_scan {
    const char *p;
    const char *end;
    bool needs_request;
} php_sc_scan;

#define PHP_SC_SCAN_MAX_DEPTH 4096   /* unserialize_max_depth's default */

static bool php_sc_scan_char(php_sc_scan *s, char c)
{
    if (s->p < s->end && *s->p == c) {
        s->p++;
        return true;
    }
    return false;
}

/* Unsigned decimal, at least one digit, at most what fits in the input. */
static bool php_sc_scan_uint(php_sc_scan *s, size_t *out)
{
    size_t v = 0;
    const char *start = s->p;

    while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
        if (v > ((size_t)1 << 48)) {
            return false;
        }
        v = v * 10 + (size_t)(*s->p - '0');
        s->p++;
    }
    *out = v;
    return s->p > start;
}

/* Any number of digits, at least one (i: saturates, as PHP does). */
static bool php_sc_scan_digits(php_sc_scan *s)
{
    const char *start = s->p;

    while (s->p < s->end && *s->p >= '0' && *s->p <= '9') {
        s->p++;
    }
    return s->p > start;
}

static bool php_sc_scan_skip(php_sc_scan *s, size_t n)
{
    if ((size_t)(s->end - s->p) < n) {
        return false;
    }
    s->p += n;
    return true;
}

/* "<len>:"<len bytes>"" as in s:, O:, C:, E: */
static bool php_sc_scan_quoted(php_sc_scan *s)
{
    size_t len;

    return php_sc_scan_uint(s, &len) && php_sc_scan_char(s, ':') && php_sc_scan_char(s, '"') && php_sc_scan_skip(s, len)
           && php_sc_scan_char(s, '"');
}

/* S: strings: len characters, each a byte or a \xx hex escape. */
static bool php_sc_scan_escaped(php_sc_scan *s)
{
    size_t len, i;

    if (!php_sc_scan_uint(s, &len) || !php_sc_scan_char(s, ':') || !php_sc_scan_char(s, '"')) {
        return false;
    }
    for (i = 0; i < len; i++) {
        if (s->p >= s->end) {
            return false;
        }
        if (*s->p == '\\') {
            if (!php_sc_scan_skip(s, 3) || !isxdigit((unsigned char)s->p[-2]) || !isxdigit((unsigned char)s->p[-1])) {
                return false;
            }
        } else {
            s->p++;
        }
    }
    return php_sc_scan_char(s, '"');
}

static bool php_sc_scan_value(php_sc_scan *s, uint32_t depth);

/* n (key value) pairs then '}'; keys are ints or strings. */
static bool php_sc_scan_members(php_sc_scan *s, size_t n, uint32_t depth)
{
    size_t i;

    if (!php_sc_scan_char(s, '{')) {
        return false;
    }
    for (i = 0; i < n; i++) {
        if (s->p >= s->end || (*s->p != 'i' && *s->p != 's' && *s->p != 'S')) {
            return false;
        }
        if (!php_sc_scan_value(s, depth) || !php_sc_scan_value(s, depth)) {
            return false;
        }
    }
    return php_sc_scan_char(s, '}');
}

static bool php_sc_scan_value(php_sc_scan *s, uint32_t depth)
{
    size_t n;
    char t;

    if (depth > PHP_SC_SCAN_MAX_DEPTH || s->end - s->p < 2) {
        return false;
    }
    t = *s->p++;
    if (t == 'N') {
        return php_sc_scan_char(s, ';');
    }
    if (!php_sc_scan_char(s, ':')) {
        return false;
    }
    switch (t) {
    case 'b':
        return (php_sc_scan_char(s, '0') || php_sc_scan_char(s, '1')) && php_sc_scan_char(s, ';');
    case 'i':
        if (!php_sc_scan_char(s, '-')) {
            php_sc_scan_char(s, '+');
        }
        return php_sc_scan_digits(s) && php_sc_scan_char(s, ';');
    case 'd': {
        const char *start = s->p;
        while (s->p < s->end && *s->p != ';') {
            if (!strchr("0123456789.eE+-INFA", *s->p)) {
                return false;
            }
            s->p++;
        }
        return s->p > start && php_sc_scan_char(s, ';');
    }
    case 's':
        return php_sc_scan_quoted(s) && php_sc_scan_char(s, ';');
    case 'S':
        return php_sc_scan_escaped(s) && php_sc_scan_char(s, ';');
    case 'a':
        return php_sc_scan_uint(s, &n) && php_sc_scan_char(s, ':') && php_sc_scan_members(s, n, depth + 1);
    case 'O':
        s->needs_request = true;
        return php_sc_scan_quoted(s) && php_sc_scan_char(s, ':') && php_sc_scan_uint(s, &n) && php_sc_scan_char(s, ':')
               && php_sc_scan_members(s, n, depth + 1);
    case 'C':
        s->needs_request = true;
        return php_sc_scan_quoted(s) && php_sc_scan_char(s, ':') && php_sc_scan_uint(s, &n) && php_sc_scan_char(s, ':')
               && php_sc_scan_char(s, '{') && php_sc_scan_skip(s, n) && php_sc_scan_char(s, '}');
    case 'E':
        s->needs_request = true;
        return php_sc_scan_quoted(s) && php_sc_scan_char(s, ';');
    case 'R':
    case 'r':
        /* only inside an array or object, as in PHP */
        if (depth == 0) {
            return false;
        }
        s->needs_request = true;
        return php_sc_scan_uint(s, &n) && php_sc_scan_char(s, ';');
    default:
        return false;
    }
}

/* Reads a regular file whole into an emalloc'd, NUL-terminated buffer. */
static char *php_sc_read_file(const char *file, size_t *len)
{
    struct stat st;
    FILE *fp;
    char *buf;

    if (VCWD_STAT(file, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0
        || (uint64_t)st.st_size > (uint64_t)UINT32_MAX) {
        return NULL;
    }
    fp = VCWD_FOPEN(file, "rb");
    if (!fp) {
        return NULL;
    }
    buf = emalloc((size_t)st.st_size + 1);
    *len = fread(buf, 1, (size_t)st.st_size, fp);
    fclose(fp);
    if (*len == 0) {
        efree(buf);
        return NULL;
    }
    buf[*len] = '\0';
    return buf;
}

/* Turns one file's contents into the value to store; false: skip the file. */
static bool php_sc_preload_encode(const char *buf, size_t len, zval *tmp, php_sc_encoded *enc)
{
    php_sc_scan s = {buf, buf + len, false};
    php_unserialize_data_t var_hash;
    const unsigned char *p = (const unsigned char *)buf;
    int ok;

    ZVAL_UNDEF(tmp);
    if (!php_sc_scan_value(&s, 0)) {
        return false;
    }
    if (s.needs_request) {
        return php_sc_value_wrap_php_serialized(buf, (size_t)(s.p - buf), enc) == SUCCESS;
    }
    PHP_VAR_UNSERIALIZE_INIT(var_hash);
    ok = php_var_unserialize(tmp, &p, (const unsigned char *)buf + len, &var_hash);
    PHP_VAR_UNSERIALIZE_DESTROY(var_hash);
    if (!ok || EG(exception)) {
        zval_ptr_dtor(tmp);
        ZVAL_UNDEF(tmp);
        return false;
    }
    if (php_sc_value_encode(tmp, enc) != SUCCESS) {
        zval_ptr_dtor(tmp);
        ZVAL_UNDEF(tmp);
        return false;
    }
    return true;
}

uint64_t php_sc_compat_preload(const char *path)
{
    struct dirent **names = NULL;
    uint64_t stored = 0;
    int64_t now = (int64_t)time(NULL);
    int n, i;

    if (!php_sc_active || !path || !*path) {
        return 0;
    }
    n = php_scandir(path, &names, NULL, php_alphasort);
    for (i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        size_t nlen = strlen(name);
        char file[MAXPATHLEN];
        char *buf;
        size_t len;
        zval tmp;
        php_sc_encoded enc;

        if (nlen < 5 || strcmp(name + nlen - 5, ".data") != 0
            || (size_t)snprintf(file, sizeof(file), "%s%c%s", path, DEFAULT_SLASH, name) >= sizeof(file)) {
            free(names[i]);
            continue;
        }
        buf = php_sc_read_file(file, &len);
        if (buf) {
            if (php_sc_preload_encode(buf, len, &tmp, &enc)) {
                zend_string *key = zend_string_init(name, nlen - 5, 0);
                sc_value_in in = {0};
                sc_key k;

                in.vtype = enc.vtype;
                in.scalar = enc.scalar;
                in.data = enc.data;
                in.len = enc.len;
                if (php_sc_make_key(&k, key) && sc_cache_store(&php_sc_shared_cache, &k, &in, 0, now, true) == SC_OK) {
                    stored++;
                }
                zend_string_release(key);
                php_sc_value_encoded_release(&enc);
                zval_ptr_dtor(&tmp);
            }
            efree(buf);
        }
        free(names[i]);
    }
    if (names) {
        free(names);
    }
    if (EG(exception)) {
        zend_clear_exception();
    }
    return stored;
}
