/*
 * php/object.c - the native object form.
 *
 * A value holding objects (or an array holding shared PHP references) is
 * stored as the same graph serialize() would write, in binary: class names
 * and property values instead of text, so that a fetch creates each object
 * without its constructor (object_init_ex) and writes its property slots
 * directly instead of parsing text. The result is what
 * unserialize(serialize($v)) gives: the same objects twice are one object,
 * references stay references where unserialize() makes them, cycles stay
 * cycles.
 *
 * Which objects: instances of classes whose whole chain is user classes
 * (or stdClass), with no __serialize, __unserialize, __sleep, __wakeup or
 * Serializable, not abstract, anonymous or #[NotSerializable], without
 * property hooks (8.4), not lazy (8.4), and with no dynamic property
 * unless the class allows them (#[AllowDynamicProperties], stdClass);
 * enum cases; and DateTime, DateTimeImmutable and DateTimeZone themselves,
 * kept as the array of scalars their __serialize() returns and rebuilt by
 * their __unserialize() (php_sc_ocls_unser). One object of any other
 * class (a subclass of those, DateInterval, ArrayObject, Closure, a class
 * with __wakeup, ...) sends the whole value to serialize(), as before; so
 * does apc.serializer set to a third-party serializer, a recursive array,
 * and a serialize_precision below 17.
 *
 * Layout (SC_V_SERIALIZED data):
 *   u8 PHP_SC_OBJ_FORM, u8 version, u32 targets, u32 classes, u32 levels
 *   (how deep objects and non-empty arrays nest: unserialize_max_depth),
 *   per class: u8 kind (0 class, 1 enum, 2 rebuilt by __unserialize),
 *     u32 name length, the name,
 *     u64 fingerprint (php_sc_ocls_fp); classes also u32 slots, u32 bytes,
 *     then per declared slot u32 length and the mangled property name
 *     (0xffffffff: a slot without a property),
 *   one value (tags below; scalars as in php/value_fmt.h).
 * "Targets" are what a later PHP_SC_O_OBJREF / PHP_SC_O_REFTO can name:
 * every object and enum case, and each value marked PHP_SC_O_TARGET (the
 * first place of a shared reference), numbered in the order they start.
 *
 * Fetch. The classes are looked up without autoloading, and each one's
 * fingerprint (its name, parents, interfaces, flags, and per declared slot
 * the property's name, declaring class, flags and type) must equal the
 * stored one; then the value is built natively, running no user code. Any
 * class not loaded or changed, an enum case whose value is not evaluated
 * yet, or anything odd in the bytes: everything built is dropped (no
 * destructor runs) and the serialize() text of the stored graph is made
 * from the bytes and given to unserialize(), which autoloads, calls
 * unserialize_callback_func, gives __PHP_Incomplete_Class, maps changed
 * properties and raises exactly what unserialize() raises.
 *
 * Design: docs/design.md
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_smart_str.h"
#include "zend_interfaces.h"
#include "zend_exceptions.h"
#include "ext/standard/php_var.h"
#include "ext/standard/basic_functions.h"
#include "ext/date/php_date.h"
#include "php_shardcache.h"
#include "value_fmt.h"
#include "plain_enc.h"
#include "plain_dec.h"
#include "serialized.h"
#include "object.h"
#include "zc_copy.h"

#include <math.h>

#if defined(ZTS) && defined(COMPILE_DL_SHARDCACHE)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

/* Tags of the object form (beside the scalar tags of value_fmt.h). */
enum {
    PHP_SC_O_PLAIN  = 0x20,   /* one array in the plain format */
    PHP_SC_O_LIST   = 0x21,   /* u32 n, then n values (keys 0..n-1) */
    PHP_SC_O_HASH   = 0x22,   /* u32 n, then n (key, value) */
    PHP_SC_O_OBJ    = 0x23,   /* u32 class, u32 n, u32 m, (u32 slot, value) x n, (key, value) x m */
    PHP_SC_O_ENUM   = 0x24,   /* u32 class, u32 length, the case name */
    PHP_SC_O_OBJREF = 0x25,   /* u32 target: that object again (serialize()'s r:) */
    PHP_SC_O_REFTO  = 0x26,   /* u32 target: a reference to it (serialize()'s R:) */
    PHP_SC_O_TARGET = 0x27,   /* the next value is a target */
    PHP_SC_O_KSTR   = 0x28,   /* key: u32 length, bytes (keys also PHP_SC_K_I32/I64) */
    PHP_SC_O_ZARR   = 0x29,   /* zero-copy layout only: u32 position (from its header) of
                                 the pointer to an immutable array laid out there */
    PHP_SC_O_UOBJ   = 0x2a    /* u32 class, u32 n, (key, scalar value) x n: an object
                                 rebuilt by its __unserialize() from that array */
};

#define PHP_SC_OBJ_VERSION 1
#define PHP_SC_OBJ_NOSLOT UINT32_C(0xffffffff)
enum { PHP_SC_OCLS_CLASS = 0, PHP_SC_OCLS_ENUM = 1, PHP_SC_OCLS_UNSER = 2 };

/* This thread's figures (shardcache_info()['objects']), in the module
 * globals (ZTS: per thread, off the static TLS block a module may not grow). */
#define php_sc_obj_stored  SCG(obj_counts)[0]   /* values stored in the form */
#define php_sc_obj_refused SCG(obj_counts)[1]   /* values with objects left to serialize() */
#define php_sc_obj_native  SCG(obj_counts)[2]   /* fetches built natively */
#define php_sc_obj_text    SCG(obj_counts)[3]   /* fetches through unserialize() */

void php_sc_obj_info(zval *dst)
{
    zval z;
    array_init_size(&z, 4);
    add_assoc_long(&z, "stored", php_sc_obj_stored);
    add_assoc_long(&z, "serialized", php_sc_obj_refused);
    add_assoc_long(&z, "native", php_sc_obj_native);
    add_assoc_long(&z, "unserialized", php_sc_obj_text);
    add_assoc_zval(dst, "objects", &z);
}

/* Test-only (SHARDCACHE_TEST_OBJ_TEXT=1): every fetch takes the text path. */
static bool php_sc_obj_force_text;

/* DateTime, DateTimeImmutable, DateTimeZone (php_sc_ocls_unser): internal
 * classes, the same for the whole process, set at module start (ext/date
 * starts before any shared extension). */
static zend_class_entry *php_sc_date_ces[3];

void php_sc_obj_minit(void)
{
    const char *v = getenv("SHARDCACHE_TEST_OBJ_TEXT");
    php_sc_obj_force_text = v && strcmp(v, "1") == 0;
    php_sc_date_ces[0] = php_date_get_immutable_ce();
    php_sc_date_ces[1] = php_date_get_date_ce();
    php_sc_date_ces[2] = php_date_get_timezone_ce();
}

/* ---- classes --------------------------------------------------------------- */

/* Per thread, for this request (classes are never freed inside one; the
 * tables are emptied at its end): fingerprints by class, classes by name
 * (SCG(obj_fps), SCG(obj_names)). */
#define PHP_SC_OCLS_SLOTS 32

void php_sc_obj_request_end(void)
{
    memset(SCG(obj_fps), 0, sizeof(SCG(obj_fps)));
    memset(SCG(obj_names), 0, sizeof(SCG(obj_names)));
}

static zend_always_inline uint64_t php_sc_fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    size_t i;
    for (i = 0; i < n; i++) {
        h = (h ^ s[i]) * UINT64_C(0x100000001b3);
    }
    return h;
}

static zend_always_inline uint64_t php_sc_fnv_str(uint64_t h, zend_string *s)
{
    uint64_t n = ZSTR_LEN(s);
    h = php_sc_fnv(h, &n, sizeof(n));
    return php_sc_fnv(h, ZSTR_VAL(s), ZSTR_LEN(s));
}

static zend_always_inline uint64_t php_sc_fnv_u64(uint64_t h, uint64_t v)
{
    return php_sc_fnv(h, &v, sizeof(v));
}

/* Internal classes whose instances the form keeps as the array their
 * __serialize() returns, rebuilt at fetch by __unserialize() with it, as
 * unserialize() rebuilds them: DateTime, DateTimeImmutable and
 * DateTimeZone themselves (not their subclasses), whose state is that
 * array of scalars and whose __unserialize() runs no user code. */
static zend_always_inline bool php_sc_ocls_unser(const zend_class_entry *ce)
{
    return ce->type == ZEND_INTERNAL_CLASS
           && (ce == php_sc_date_ces[0] || ce == php_sc_date_ces[1] || ce == php_sc_date_ces[2]);
}

/* Whether the form takes instances of ce, and its fingerprint (0: no). */
static uint64_t php_sc_ocls_compute(zend_class_entry *ce)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    zend_class_entry *c;
    uint32_t i;

    if (!(ce->ce_flags & ZEND_ACC_LINKED)) {
        return 0;
    }
    if (php_sc_ocls_unser(ce)) {
        /* Its __serialize() array's shape is the PHP version's. */
        if (!ce->__serialize || !ce->__unserialize) {
            return 0;
        }
        h = php_sc_fnv_u64(h, 0x75);
        h = php_sc_fnv_u64(h, PHP_VERSION_ID);
        h = php_sc_fnv_str(h, ce->name);
        return h ? h : 1;
    }
    if (ce->ce_flags & ZEND_ACC_ENUM) {
        h = php_sc_fnv_u64(h, 0xe);
        h = php_sc_fnv_str(h, ce->name);
        return h ? h : 1;
    }
    if (ce->ce_flags & (ZEND_ACC_INTERFACE | ZEND_ACC_TRAIT | ZEND_ACC_EXPLICIT_ABSTRACT_CLASS
                        | ZEND_ACC_IMPLICIT_ABSTRACT_CLASS | ZEND_ACC_ANON_CLASS | ZEND_ACC_NOT_SERIALIZABLE)) {
        return 0;
    }
    for (c = ce; c; c = c->parent) {
        if ((c->type != ZEND_USER_CLASS && c != zend_standard_class_def) || c->create_object) {
            return 0;
        }
        if (c->__serialize || c->__unserialize || c->serialize || c->unserialize) {
            return 0;
        }
    }
    if (zend_hash_exists(&ce->function_table, ZSTR_KNOWN(ZEND_STR_SLEEP))
        || zend_hash_exists(&ce->function_table, ZSTR_KNOWN(ZEND_STR_WAKEUP))) {
        return 0;
    }
#if PHP_VERSION_ID >= 80400
    if (ce->num_hooked_props) {
        return 0;
    }
#endif
    h = php_sc_fnv_str(h, ce->name);
    h = php_sc_fnv_u64(h, ce->ce_flags & (ZEND_ACC_ALLOW_DYNAMIC_PROPERTIES | ZEND_ACC_NO_DYNAMIC_PROPERTIES
#ifdef ZEND_ACC_READONLY_CLASS
                                          | ZEND_ACC_READONLY_CLASS
#endif
                                          ));
    for (c = ce->parent; c; c = c->parent) {
        h = php_sc_fnv_str(h, c->name);
    }
    h = php_sc_fnv_u64(h, ce->num_interfaces);
    for (i = 0; i < ce->num_interfaces; i++) {
        h = php_sc_fnv_str(h, ce->interfaces[i]->name);
    }
    h = php_sc_fnv_u64(h, (uint64_t) ce->default_properties_count);
    for (i = 0; i < (uint32_t) ce->default_properties_count; i++) {
        zend_property_info *info = ce->properties_info_table[i];
        if (!info) {
            h = php_sc_fnv_u64(h, 0x5107);
            continue;
        }
        h = php_sc_fnv_str(h, info->name);
        h = php_sc_fnv_str(h, info->ce->name);
        h = php_sc_fnv_u64(h, info->flags);
        h = php_sc_fnv_u64(h, (uint64_t) info->offset);
        if (ZEND_TYPE_IS_SET(info->type)) {
            zend_string *t = zend_type_to_string(info->type);
            h = php_sc_fnv_str(h, t);
            zend_string_release(t);
        } else {
            h = php_sc_fnv_u64(h, 0x7e);
        }
    }
    return h ? h : 1;
}

static zend_always_inline uint64_t php_sc_ocls_fp(zend_class_entry *ce)
{
    uint32_t i = ((uintptr_t) ce >> 4) & (PHP_SC_OCLS_SLOTS - 1);
    if (EXPECTED(SCG(obj_fps)[i].ce == ce)) {
        return SCG(obj_fps)[i].fp;
    }
    SCG(obj_fps)[i].fp = php_sc_ocls_compute(ce);
    SCG(obj_fps)[i].ce = ce;
    SCG(obj_fps)[i].skip = 0;
    return SCG(obj_fps)[i].fp;
}

/* Values whose first object is of class ce held something the form does
 * not take last time (a DateTime inside an entity, ...): the next 15 such
 * stores go to serialize() at once instead of walking as far again; the
 * 16th tries again. Only speed depends on it: serialize() is exact too. */
#define PHP_SC_OCLS_SKIP 15

static zend_always_inline bool php_sc_ocls_skip(zend_class_entry *ce)
{
    uint32_t i = ((uintptr_t) ce >> 4) & (PHP_SC_OCLS_SLOTS - 1);
    if (SCG(obj_fps)[i].ce == ce && SCG(obj_fps)[i].skip) {
        SCG(obj_fps)[i].skip--;
        return true;
    }
    return false;
}

static void php_sc_ocls_refused(zend_class_entry *ce)
{
    uint32_t i = ((uintptr_t) ce >> 4) & (PHP_SC_OCLS_SLOTS - 1);
    if (SCG(obj_fps)[i].ce == ce) {
        SCG(obj_fps)[i].skip = PHP_SC_OCLS_SKIP;
    }
}

/* The loaded class of that exact name (no autoload), or NULL. */
static zend_class_entry *php_sc_ocls_find(const char *name, size_t len, uint64_t hash)
{
    void **slot = &SCG(obj_names)[(hash ^ (hash >> 17)) & (PHP_SC_OCLS_SLOTS - 1)];
    zend_class_entry *ce = *slot;
    zend_string *zs;

    if (EXPECTED(ce && ZSTR_LEN(ce->name) == len && memcmp(ZSTR_VAL(ce->name), name, len) == 0)) {
        return ce;
    }
    if (len == 0 || memchr(name, '\0', len)) {
        return NULL;
    }
    zs = zend_string_init(name, len, 0);
    ce = zend_lookup_class_ex(zs, NULL, ZEND_FETCH_CLASS_NO_AUTOLOAD);
    zend_string_release(zs);
    if (!ce || !(ce->ce_flags & ZEND_ACC_LINKED) || (ce->ce_flags & ZEND_ACC_ANON_CLASS)) {
        return NULL;
    }
    if (ZSTR_LEN(ce->name) == len && memcmp(ZSTR_VAL(ce->name), name, len) == 0) {
        *slot = ce;
    }
    return ce;
}

/* ---- encoder --------------------------------------------------------------- */

typedef struct php_sc_oenc {
    char *buf;
    size_t len, cap;
    HashTable memo;            /* object or reference (address) -> target id */
    uint32_t ntargets;
    zend_class_entry **cls;    /* classes in the order of their first use */
    uint32_t ncls, clscap;
    uint32_t depth;
    uint32_t level, max_level; /* unserialize()'s nesting: objects and non-empty arrays */
    bool not_plain;            /* the top array is known not to be plain */
    php_sc_obj_zc_hook zc;     /* zero-copy layout: lays out plain arrays (NULL: none) */
    void *zc_ctx;
    uint32_t nzc;              /* arrays laid out so */
} php_sc_oenc;

static zend_never_inline void php_sc_oenc_grow(php_sc_oenc *e, size_t need)
{
    size_t cap = e->cap ? e->cap : 256;
    while (cap - e->len < need) {
        cap *= 2;
    }
    e->buf = erealloc(e->buf, cap);
    e->cap = cap;
}

static zend_always_inline char *php_sc_oenc_reserve(php_sc_oenc *e, size_t need)
{
    if (UNEXPECTED(e->cap - e->len < need)) {
        php_sc_oenc_grow(e, need);
    }
    return e->buf + e->len;
}

static zend_always_inline void php_sc_oenc_u8(php_sc_oenc *e, uint8_t v)
{
    *php_sc_oenc_reserve(e, 1) = (char) v;
    e->len++;
}

static zend_always_inline void php_sc_oenc_tag_u32(php_sc_oenc *e, uint8_t tag, uint32_t v)
{
    char *p = php_sc_oenc_reserve(e, 5);
    p[0] = (char) tag;
    php_sc_store_u32(p + 1, v);
    e->len += 5;
}

static zend_always_inline void php_sc_oenc_u32(php_sc_oenc *e, uint32_t v)
{
    char *p = php_sc_oenc_reserve(e, 4);
    php_sc_store_u32(p, v);
    e->len += 4;
}

static zend_always_inline bool php_sc_oenc_str(php_sc_oenc *e, uint8_t tag, const char *s, size_t n)
{
    char *p;
    if (n > UINT32_MAX - 16) {
        return false;
    }
    p = php_sc_oenc_reserve(e, 5 + n);
    p[0] = (char) tag;
    php_sc_store_u32(p + 1, (uint32_t) n);
    memcpy(p + 5, s, n);
    e->len += 5 + n;
    return true;
}

static zend_always_inline void php_sc_oenc_long(php_sc_oenc *e, zend_long lv, uint8_t t8, uint8_t t32, uint8_t t64)
{
    e->len += php_sc_fmt_put_long(php_sc_oenc_reserve(e, 9), lv, t8, t32, t64);
}

/* The target id of ptr, or (first time) -1 after giving it the next id. */
static zend_always_inline zend_long php_sc_oenc_memo(php_sc_oenc *e, const void *ptr)
{
    zval *found = zend_hash_index_find(&e->memo, (zend_ulong) (uintptr_t) ptr);
    zval id;

    if (found) {
        return Z_LVAL_P(found);
    }
    ZVAL_LONG(&id, (zend_long) e->ntargets++);
    zend_hash_index_add_new(&e->memo, (zend_ulong) (uintptr_t) ptr, &id);
    return -1;
}

static uint32_t php_sc_oenc_class(php_sc_oenc *e, zend_class_entry *ce)
{
    uint32_t i;
    for (i = 0; i < e->ncls; i++) {
        if (e->cls[i] == ce) {
            return i;
        }
    }
    if (e->ncls == e->clscap) {
        e->clscap = e->clscap ? e->clscap * 2 : 8;
        e->cls = safe_erealloc(e->cls, e->clscap, sizeof(*e->cls), 0);
    }
    e->cls[e->ncls] = ce;
    return e->ncls++;
}

static bool php_sc_oenc_value(php_sc_oenc *e, zval *zv);

static bool php_sc_oenc_array(php_sc_oenc *e, HashTable *ht)
{
    size_t mark = e->len;
    zend_ulong h;
    zend_string *key;
    zval *val;
    bool ok = true;
    uint32_t levels;

    /* No object and no shared reference inside: the plain format. */
    php_sc_oenc_u8(e, PHP_SC_O_PLAIN);
    if (e->not_plain) {
        e->not_plain = false;   /* php/value.c tried the top array already */
        e->len = mark;
    } else if (php_sc_plain_encode_append(ht, &e->buf, &e->len, &e->cap, &levels)) {
        if (e->level + levels > e->max_level) {
            e->max_level = e->level + levels;
        }
        if (e->zc && zend_hash_num_elements(ht)) {
            /* In a zero-copy layout: the array itself, immutable. */
            uint32_t pos;
            e->len = mark;
            if (!e->zc(e->zc_ctx, ht, &pos)) {
                return false;
            }
            php_sc_oenc_tag_u32(e, PHP_SC_O_ZARR, pos);
            e->nzc++;
        }
        return true;
    }
    e->len = mark;
    if (GC_IS_RECURSIVE(ht)) {
        return false;   /* serialize() writes N; there: leave it to it */
    }
    if (!(GC_FLAGS(ht) & GC_IMMUTABLE)) {
        GC_PROTECT_RECURSION(ht);
    }
    if (zend_hash_num_elements(ht) && ++e->level > e->max_level) {
        e->max_level = e->level;
    }
    if (zend_array_is_list(ht)) {
        php_sc_oenc_tag_u32(e, PHP_SC_O_LIST, zend_hash_num_elements(ht));
        ZEND_HASH_FOREACH_VAL(ht, val) {
            if (!php_sc_oenc_value(e, val)) {
                ok = false;
                break;
            }
        } ZEND_HASH_FOREACH_END();
    } else {
        php_sc_oenc_tag_u32(e, PHP_SC_O_HASH, zend_hash_num_elements(ht));
        ZEND_HASH_FOREACH_KEY_VAL(ht, h, key, val) {
            if (key) {
                if (!php_sc_oenc_str(e, PHP_SC_O_KSTR, ZSTR_VAL(key), ZSTR_LEN(key))) {
                    ok = false;
                    break;
                }
            } else {
                php_sc_oenc_long(e, (zend_long) h, 0, PHP_SC_K_I32, PHP_SC_K_I64);
            }
            if (!php_sc_oenc_value(e, val)) {
                ok = false;
                break;
            }
        } ZEND_HASH_FOREACH_END();
    }
    if (!(GC_FLAGS(ht) & GC_IMMUTABLE)) {
        GC_UNPROTECT_RECURSION(ht);
    }
    if (zend_hash_num_elements(ht)) {
        e->level--;
    }
    return ok;
}

/* An object of a php_sc_ocls_unser class (already given its target id):
 * the array its __serialize() returns, taken only when every key is a
 * string or an int and every value a scalar (no object or reference whose
 * identity unserialize() would have to keep). */
static zend_never_inline bool php_sc_oenc_unser(php_sc_oenc *e, zend_object *obj)
{
    zend_class_entry *ce = obj->ce;
    zval data, *val;
    zend_ulong h;
    zend_string *key;
    bool ok = true;

    if (!php_sc_ocls_fp(ce) || EG(exception)) {
        return false;
    }
#if PHP_VERSION_ID >= 80400
    if (zend_object_is_lazy(obj)) {
        return false;
    }
#endif
    ZVAL_UNDEF(&data);
    zend_call_known_instance_method_with_0_params(ce->__serialize, obj, &data);
    if (EG(exception)) {
        /* (an object never initialized: serialize() throws it again) */
        zend_clear_exception();
        zval_ptr_dtor(&data);
        return false;
    }
    if (Z_TYPE(data) != IS_ARRAY || zend_hash_num_elements(Z_ARRVAL(data)) > UINT32_MAX / 2) {
        zval_ptr_dtor(&data);
        return false;
    }
    if (++e->depth > PHP_SC_VALUE_MAX_DEPTH) {
        zval_ptr_dtor(&data);
        return false;
    }
    if (++e->level > e->max_level) {
        e->max_level = e->level;
    }
    php_sc_oenc_tag_u32(e, PHP_SC_O_UOBJ, php_sc_oenc_class(e, ce));
    php_sc_oenc_u32(e, zend_hash_num_elements(Z_ARRVAL(data)));
    ZEND_HASH_FOREACH_KEY_VAL(Z_ARRVAL(data), h, key, val) {
        if (Z_TYPE_P(val) > IS_STRING) {
            ok = false;
            break;
        }
        if (key) {
            ok = php_sc_oenc_str(e, PHP_SC_O_KSTR, ZSTR_VAL(key), ZSTR_LEN(key));
        } else {
            php_sc_oenc_long(e, (zend_long) h, 0, PHP_SC_K_I32, PHP_SC_K_I64);
        }
        if (!ok || !php_sc_oenc_value(e, val)) {
            ok = false;
            break;
        }
    } ZEND_HASH_FOREACH_END();
    zval_ptr_dtor(&data);
    e->depth--;
    e->level--;
    return ok;
}

/* An object not met before in this value (already given its target id). */
static bool php_sc_oenc_object(php_sc_oenc *e, zend_object *obj)
{
    zend_class_entry *ce = obj->ce;
    uint32_t count, ndecl = 0, ndyn = 0, i;
    size_t decl_at;
    bool dyn_seen = false;


    if (ce->ce_flags & ZEND_ACC_ENUM) {
        zval *name;
        if (!php_sc_ocls_fp(ce)) {
            return false;
        }
        name = OBJ_PROP_NUM(obj, 0);   /* a case's name (zend_enum.h's zend_enum_fetch_case_name) */
        if (Z_TYPE_P(name) != IS_STRING) {
            return false;
        }
        php_sc_oenc_tag_u32(e, PHP_SC_O_ENUM, php_sc_oenc_class(e, ce));
        php_sc_oenc_u32(e, (uint32_t) Z_STRLEN_P(name));
        memcpy(php_sc_oenc_reserve(e, Z_STRLEN_P(name)), Z_STRVAL_P(name), Z_STRLEN_P(name));
        e->len += Z_STRLEN_P(name);
        return true;
    }
    if (obj->handlers != &std_object_handlers) {
        return php_sc_ocls_unser(ce) && php_sc_oenc_unser(e, obj);
    }
    if (!php_sc_ocls_fp(ce)) {
        return false;
    }
#if PHP_VERSION_ID >= 80400
    if (zend_object_is_lazy(obj)) {
        return false;
    }
#endif
    count = (uint32_t) ce->default_properties_count;
    php_sc_oenc_tag_u32(e, PHP_SC_O_OBJ, php_sc_oenc_class(e, ce));
    decl_at = e->len;
    php_sc_oenc_u32(e, 0);
    php_sc_oenc_u32(e, 0);
    if (++e->depth > PHP_SC_VALUE_MAX_DEPTH) {
        return false;
    }
    if (++e->level > e->max_level) {
        e->max_level = e->level;
    }
    if (obj->properties) {
        /* serialize()'s order: the properties table's (declared slots
         * first, then dynamic properties in the order they were made). */
        zend_ulong h;
        zend_string *key;
        zval *val;
        ZEND_HASH_FOREACH_KEY_VAL(obj->properties, h, key, val) {
            (void) h;
            if (!key) {
                return false;
            }
            if (Z_TYPE_P(val) == IS_INDIRECT) {
                zval *slot = Z_INDIRECT_P(val);
                uintptr_t idx;
                if (Z_TYPE_P(slot) == IS_UNDEF) {
                    continue;
                }
                idx = (uintptr_t) (slot - obj->properties_table);
                if (dyn_seen || slot < obj->properties_table || idx >= count || !ce->properties_info_table[idx]) {
                    return false;
                }
                php_sc_oenc_u32(e, (uint32_t) idx);
                if (!php_sc_oenc_value(e, slot)) {
                    return false;
                }
                ndecl++;
            } else {
                if (Z_TYPE_P(val) == IS_UNDEF) {
                    continue;
                }
                if (!(ce->ce_flags & ZEND_ACC_ALLOW_DYNAMIC_PROPERTIES)) {
                    return false;
                }
                dyn_seen = true;
                if (!php_sc_oenc_str(e, PHP_SC_O_KSTR, ZSTR_VAL(key), ZSTR_LEN(key))
                    || !php_sc_oenc_value(e, val)) {
                    return false;
                }
                ndyn++;
            }
        } ZEND_HASH_FOREACH_END();
    } else {
        for (i = 0; i < count; i++) {
            zval *slot = OBJ_PROP_NUM(obj, i);
            if (Z_TYPE_P(slot) == IS_UNDEF || !ce->properties_info_table[i]) {
                continue;
            }
            php_sc_oenc_u32(e, i);
            if (!php_sc_oenc_value(e, slot)) {
                return false;
            }
            ndecl++;
        }
    }
    php_sc_store_u32(e->buf + decl_at, ndecl);
    php_sc_store_u32(e->buf + decl_at + 4, ndyn);
    e->depth--;
    e->level--;
    return true;
}

static bool php_sc_oenc_value(php_sc_oenc *e, zval *zv)
{
    if (Z_TYPE_P(zv) == IS_REFERENCE) {
        zval *inner = Z_REFVAL_P(zv);
        if (Z_REFCOUNT_P(zv) == 1) {
            zv = inner;   /* held here only: a plain value to serialize() too */
        } else {
            /* As serialize(): a reference to an object counts as the object. */
            const void *key = Z_TYPE_P(inner) == IS_OBJECT ? (const void *) Z_OBJ_P(inner) : (const void *) Z_REF_P(zv);
            zend_long id = php_sc_oenc_memo(e, key);
            if (id >= 0) {
                php_sc_oenc_tag_u32(e, PHP_SC_O_REFTO, (uint32_t) id);
                return true;
            }
            if (Z_TYPE_P(inner) == IS_OBJECT) {
                return php_sc_oenc_object(e, Z_OBJ_P(inner));
            }
            php_sc_oenc_u8(e, PHP_SC_O_TARGET);
            zv = inner;
        }
    }
    switch (Z_TYPE_P(zv)) {
        case IS_NULL:
            php_sc_oenc_u8(e, PHP_SC_T_NULL);
            return true;
        case IS_FALSE:
            php_sc_oenc_u8(e, PHP_SC_T_FALSE);
            return true;
        case IS_TRUE:
            php_sc_oenc_u8(e, PHP_SC_T_TRUE);
            return true;
        case IS_LONG:
            php_sc_oenc_long(e, Z_LVAL_P(zv), PHP_SC_T_I8, PHP_SC_T_I32, PHP_SC_T_I64);
            return true;
        case IS_DOUBLE: {
            uint64_t bits;
            double d = Z_DVAL_P(zv);
            char *p = php_sc_oenc_reserve(e, 9);
            memcpy(&bits, &d, 8);
            p[0] = (char) PHP_SC_T_DOUBLE;
            php_sc_store_u64(p + 1, bits);
            e->len += 9;
            return true;
        }
        case IS_STRING:
            return php_sc_oenc_str(e, PHP_SC_T_STR32, Z_STRVAL_P(zv), Z_STRLEN_P(zv));
        case IS_ARRAY: {
            bool ok;
            if (++e->depth > PHP_SC_VALUE_MAX_DEPTH) {
                return false;
            }
            ok = php_sc_oenc_array(e, Z_ARRVAL_P(zv));
            e->depth--;
            return ok;
        }
        case IS_OBJECT: {
            zend_long id = php_sc_oenc_memo(e, Z_OBJ_P(zv));
            if (id >= 0) {
                php_sc_oenc_tag_u32(e, PHP_SC_O_OBJREF, (uint32_t) id);
                return true;
            }
            return php_sc_oenc_object(e, Z_OBJ_P(zv));
        }
        default:
            return false;
    }
}

/* The bytes of a class's slot names in the header: per declared slot a
 * u32 length and the mangled name. */
static uint32_t php_sc_ocls_slot_bytes(const zend_class_entry *ce)
{
    uint32_t n = (uint32_t) ce->default_properties_count, j, bytes = 0;
    for (j = 0; j < n; j++) {
        zend_property_info *info = ce->properties_info_table[j];
        bytes += 4 + (info ? (uint32_t) ZSTR_LEN(info->name) : 0);
    }
    return bytes;
}

static bool php_sc_obj_encode_impl(zval *value, php_sc_encoded *out, php_sc_obj_zc_hook zc, void *zc_ctx, uint32_t *nzc,
                                   bool not_plain)
{
    php_sc_oenc e;
    size_t hlen;
    uint32_t i;
    bool ok;
    char *data, *p;

    /* serialize() rounds floats to serialize_precision digits. */
    if (PG(serialize_precision) != -1 && PG(serialize_precision) < 17) {
        return false;
    }
    /* The class of the first object in sight (the value, or the first
     * object element of the array): refused just before, give up now. */
    {
        zval *first = NULL, *v;
        if (Z_TYPE_P(value) == IS_OBJECT) {
            first = value;
        } else if (Z_TYPE_P(value) == IS_ARRAY) {
            ZEND_HASH_FOREACH_VAL(Z_ARRVAL_P(value), v) {
                ZVAL_DEREF(v);
                if (Z_TYPE_P(v) == IS_OBJECT) {
                    first = v;
                    break;
                }
            } ZEND_HASH_FOREACH_END();
        }
        if (first && php_sc_ocls_skip(Z_OBJCE_P(first))) {
            if (!zc) {
                php_sc_obj_refused++;
            }
            return false;
        }
    }
    memset(&e, 0, sizeof(e));
    e.zc = zc;
    e.zc_ctx = zc_ctx;
    e.not_plain = not_plain;
    zend_hash_init(&e.memo, 8, NULL, NULL, 0);
    ok = php_sc_oenc_value(&e, value);
    zend_hash_destroy(&e.memo);
    if (!ok) {
        if (!zc) {
            /* (a zero-copy attempt may fail for room: not the class's doing) */
            if (e.ncls) {
                php_sc_ocls_refused(e.cls[0]);
            }
            php_sc_obj_refused++;
        }
        if (e.buf) {
            efree(e.buf);
        }
        if (e.cls) {
            efree(e.cls);
        }
        return false;
    }

    /* The header (its size first, then written in place before the body). */
    hlen = 14;
    for (i = 0; i < e.ncls; i++) {
        zend_class_entry *ce = e.cls[i];
        hlen += 5 + ZSTR_LEN(ce->name) + 16;
        if (!(ce->ce_flags & ZEND_ACC_ENUM) && !php_sc_ocls_unser(ce)) {
            hlen += 8 + php_sc_ocls_slot_bytes(ce);
        }
    }
    data = emalloc(hlen + e.len);
    p = data;
    p[0] = (char) PHP_SC_OBJ_FORM;
    p[1] = (char) PHP_SC_OBJ_VERSION;
    php_sc_store_u32(p + 2, e.ntargets);
    php_sc_store_u32(p + 6, e.ncls);
    php_sc_store_u32(p + 10, e.max_level);
    p += 14;
    for (i = 0; i < e.ncls; i++) {
        zend_class_entry *ce = e.cls[i];
        bool is_enum = (ce->ce_flags & ZEND_ACC_ENUM) != 0, is_unser = !is_enum && php_sc_ocls_unser(ce);
        p[0] = (char) (is_enum ? PHP_SC_OCLS_ENUM : is_unser ? PHP_SC_OCLS_UNSER : PHP_SC_OCLS_CLASS);
        php_sc_store_u32(p + 1, (uint32_t) ZSTR_LEN(ce->name));
        memcpy(p + 5, ZSTR_VAL(ce->name), ZSTR_LEN(ce->name));
        p += 5 + ZSTR_LEN(ce->name);
        php_sc_store_u64(p, (uint64_t) zend_string_hash_val(ce->name));
        php_sc_store_u64(p + 8, php_sc_ocls_fp(ce));
        p += 16;
        if (!is_enum && !is_unser) {
            uint32_t n = (uint32_t) ce->default_properties_count, j;
            php_sc_store_u32(p, n);
            php_sc_store_u32(p + 4, php_sc_ocls_slot_bytes(ce));
            p += 8;
            for (j = 0; j < n; j++) {
                zend_property_info *info = ce->properties_info_table[j];
                php_sc_store_u32(p, info ? (uint32_t) ZSTR_LEN(info->name) : PHP_SC_OBJ_NOSLOT);
                p += 4;
                if (info) {
                    memcpy(p, ZSTR_VAL(info->name), ZSTR_LEN(info->name));
                    p += ZSTR_LEN(info->name);
                }
            }
        }
    }
    ZEND_ASSERT((size_t) (p - data) == hlen);
    if (e.cls) {
        efree(e.cls);
    }
    memcpy(p, e.buf, e.len);
    out->vtype = SC_V_SERIALIZED;
    out->owned_buf = data;
    out->data = data;
    out->len = hlen + e.len;
    efree(e.buf);
    if (nzc) {
        *nzc = e.nzc;
    }
    return true;
}

bool php_sc_obj_encode(zval *value, php_sc_encoded *out)
{
    if (!php_sc_obj_encode_impl(value, out, NULL, NULL, NULL, Z_TYPE_P(value) == IS_ARRAY)) {
        return false;
    }
    php_sc_obj_stored++;
    return true;
}

bool php_sc_obj_encode_zc(zval *value, php_sc_obj_zc_hook hook, void *ctx, php_sc_encoded *out, uint32_t *nzc)
{
    return php_sc_obj_encode_impl(value, out, hook, ctx, nzc, false);
}

void php_sc_obj_count_zc_store(void)
{
    php_sc_obj_stored++;
}

/* ---- reading --------------------------------------------------------------- */

typedef struct php_sc_ocls_in {
    uint8_t kind;
    const char *name;
    uint32_t name_len;
    uint64_t hash, fp;
    uint32_t nslots;
    const unsigned char *slots;   /* nslots x (u32 length, name) */
    zend_class_entry *ce;         /* native decode: the live class */
} php_sc_ocls_in;

typedef struct php_sc_ohead {
    uint32_t ntargets, ncls, levels;
    php_sc_ocls_in *cls;
    const unsigned char *body, *end;
    const char *zc_hdr;     /* zero-copy layout: its header, and bytes from there */
    size_t zc_len;
    bool zc_borrow;         /* its arrays are used in place */
} php_sc_ohead;

/* PHP_SC_O_ZARR: the immutable array in place, or a copy of it. */
static bool php_sc_ozarr(const php_sc_ohead *h, uint32_t pos, zval *out)
{
    if (!h->zc_hdr) {
        return false;
    }
    if (h->zc_borrow) {
        uint64_t v;
        if (pos > h->zc_len || h->zc_len - pos < sizeof(v)) {
            return false;
        }
        memcpy(&v, h->zc_hdr + pos, sizeof(v));
        Z_ARR_P(out) = (zend_array *) (uintptr_t) v;
        Z_TYPE_INFO_P(out) = IS_ARRAY;   /* immutable: not refcounted */
        return true;
    }
    return php_sc_zc_copy_array_at(h->zc_hdr, h->zc_len, pos, out);
}

#define PHP_SC_OLEFT(p, end) ((size_t) ((end) - (p)))

/* Reads the header; false: malformed. h->cls is local (up to
 * PHP_SC_OHEAD_LOCAL classes) or emalloc'd (php_sc_ohead_free). */
#define PHP_SC_OHEAD_LOCAL 8
static bool php_sc_ohead_read(const char *data, size_t len, php_sc_ohead *h, php_sc_ocls_in *local)
{
    const unsigned char *p = (const unsigned char *) data, *end = p + len;
    uint32_t i;

    h->cls = NULL;
    if (len < 14 || p[0] != PHP_SC_OBJ_FORM || p[1] != PHP_SC_OBJ_VERSION) {
        return false;
    }
    h->ntargets = php_sc_load_u32(p + 2);
    h->ncls = php_sc_load_u32(p + 6);
    h->levels = php_sc_load_u32(p + 10);
    p += 14;
    /* Each class takes 21 bytes at least, each target 5. */
    if (h->ncls > PHP_SC_OLEFT(p, end) / 21 || h->ntargets > PHP_SC_OLEFT(p, end) / 5 + 1) {
        return false;
    }
    h->cls = h->ncls <= PHP_SC_OHEAD_LOCAL ? local : safe_emalloc(h->ncls, sizeof(php_sc_ocls_in), 0);
    for (i = 0; i < h->ncls; i++) {
        php_sc_ocls_in *c = &h->cls[i];
        if (PHP_SC_OLEFT(p, end) < 5) {
            goto bad;
        }
        c->kind = p[0];
        c->name_len = php_sc_load_u32(p + 1);
        p += 5;
        if (c->kind > PHP_SC_OCLS_UNSER || c->name_len == 0 || PHP_SC_OLEFT(p, end) < (size_t) c->name_len + 16) {
            goto bad;
        }
        c->name = (const char *) p;
        p += c->name_len;
        c->hash = php_sc_load_u64(p);
        c->fp = php_sc_load_u64(p + 8);
        p += 16;
        c->nslots = 0;
        c->slots = NULL;
        c->ce = NULL;
        if (c->kind == PHP_SC_OCLS_CLASS) {
            uint32_t bytes;
            if (PHP_SC_OLEFT(p, end) < 8) {
                goto bad;
            }
            c->nslots = php_sc_load_u32(p);
            bytes = php_sc_load_u32(p + 4);
            p += 8;
            if (PHP_SC_OLEFT(p, end) < bytes || c->nslots > bytes / 4) {
                goto bad;
            }
            c->slots = p;
            p += bytes;
        }
    }
    h->body = p;
    h->end = end;
    return true;
bad:
    if (h->cls != local) {
        efree(h->cls);
    }
    h->cls = NULL;
    return false;
}

/* The mangled name of declared slot idx of class c (text path). */
static bool php_sc_ocls_slot_name(const php_sc_ocls_in *c, uint32_t idx, const unsigned char *end, const char **name,
                                  uint32_t *len)
{
    const unsigned char *p = c->slots;
    uint32_t i, n;

    if (idx >= c->nslots) {
        return false;
    }
    for (i = 0;; i++) {
        if (PHP_SC_OLEFT(p, end) < 4) {
            return false;
        }
        n = php_sc_load_u32(p);
        p += 4;
        if (n == PHP_SC_OBJ_NOSLOT) {
            if (i == idx) {
                return false;
            }
            continue;
        }
        if (PHP_SC_OLEFT(p, end) < n) {
            return false;
        }
        if (i == idx) {
            *name = (const char *) p;
            *len = n;
            return true;
        }
        p += n;
    }
}

/* ---- native decode ---------------------------------------------------------- */

typedef struct php_sc_otarget {
    zval *zv;                   /* where the target was decoded */
    zend_property_info *info;   /* the typed property that slot is, or NULL */
} php_sc_otarget;

#define PHP_SC_OKEYS 8

typedef struct php_sc_odec {
    const unsigned char *p, *end;
    php_sc_ohead *h;
    php_sc_otarget *t;
    uint32_t nt;
    zend_object **made;         /* objects created, for the failure path */
    uint32_t nmade;
    uint32_t depth;
    uint32_t kmask;             /* which keys[] are set */
    zend_string *keys[PHP_SC_OKEYS];   /* string keys read last, held (php_sc_odec_key) */
} php_sc_odec;

/* The string key of len bytes at p, a new reference: the same string as
 * the last such key of its slot when equal (the date classes' arrays, rows
 * of a list, repeat their keys), else a new one that takes the slot. */
static zend_always_inline zend_string *php_sc_odec_key(php_sc_odec *d, const unsigned char *p, uint32_t len)
{
    uint32_t i = (len * 7u + (len ? p[0] : 0u)) & (PHP_SC_OKEYS - 1);
    zend_string *k;

    if (d->kmask & (UINT32_C(1) << i)) {
        k = d->keys[i];
        if (ZSTR_LEN(k) == len && memcmp(ZSTR_VAL(k), p, len) == 0) {
            return zend_string_copy(k);
        }
        zend_string_release(k);
    }
    k = zend_string_init((const char *) p, len, 0);
    d->keys[i] = zend_string_copy(k);
    d->kmask |= UINT32_C(1) << i;
    return k;
}

static bool php_sc_odec_value(php_sc_odec *d, zval *out, zend_property_info *info);

static zend_always_inline bool php_sc_odec_u32(php_sc_odec *d, uint32_t *v)
{
    if (UNEXPECTED(PHP_SC_OLEFT(d->p, d->end) < 4)) {
        return false;
    }
    *v = php_sc_load_u32(d->p);
    d->p += 4;
    return true;
}

/* A property's value when it is an int, a float or a string, read here
 * instead of through php_sc_odec_value: 1 done, 0 malformed, -1 another
 * tag (nothing read). */
static zend_always_inline int php_sc_odec_scalar(php_sc_odec *d, zval *out)
{
    const unsigned char *p = d->p;
    size_t left = PHP_SC_OLEFT(p, d->end);
    uint32_t n;

    if (UNEXPECTED(left < 1)) {
        return 0;
    }
    switch (p[0]) {
        case PHP_SC_T_I8:
            if (UNEXPECTED(left < 2)) {
                return 0;
            }
            ZVAL_LONG(out, (zend_long) (int8_t) p[1]);
            d->p = p + 2;
            return 1;
        case PHP_SC_T_I32:
            if (UNEXPECTED(left < 5)) {
                return 0;
            }
            ZVAL_LONG(out, (zend_long) (int32_t) php_sc_load_u32(p + 1));
            d->p = p + 5;
            return 1;
        case PHP_SC_T_DOUBLE: {
            uint64_t bits;
            double v;
            if (UNEXPECTED(left < 9)) {
                return 0;
            }
            bits = php_sc_load_u64(p + 1);
            memcpy(&v, &bits, 8);
            ZVAL_DOUBLE(out, v);
            d->p = p + 9;
            return 1;
        }
        case PHP_SC_T_STR32:
            if (UNEXPECTED(left < 5)) {
                return 0;
            }
            n = php_sc_load_u32(p + 1);
            if (UNEXPECTED(left - 5 < n)) {
                return 0;
            }
            ZVAL_STR(out, zend_string_init_fast((const char *) p + 5, n));
            d->p = p + 5 + n;
            return 1;
        default:
            return -1;
    }
}

static zend_always_inline bool php_sc_odec_push(php_sc_odec *d, zval *zv, zend_property_info *info)
{
    if (UNEXPECTED(d->nt >= d->h->ntargets)) {
        return false;
    }
    d->t[d->nt].zv = zv;
    d->t[d->nt].info = info;
    d->nt++;
    return true;
}

static bool php_sc_odec_array(php_sc_odec *d, zval *out, bool list)
{
    uint32_t n, i;
    HashTable *ht;

    if (!php_sc_odec_u32(d, &n) || n > PHP_SC_OLEFT(d->p, d->end) || n >= HT_MAX_SIZE) {
        return false;
    }
    if (n == 0) {
        ZVAL_EMPTY_ARRAY(out);
        return true;
    }
    /* Sized once: slots handed to targets never move. */
    array_init_size(out, n);
    ht = Z_ARRVAL_P(out);
    zend_hash_real_init_mixed(ht);
    HT_ALLOW_COW_VIOLATION(ht);
    for (i = 0; i < n; i++) {
        zval *slot;
        if (list) {
            slot = zend_hash_index_add(ht, i, &EG(uninitialized_zval));
        } else {
            uint8_t k;
            if (PHP_SC_OLEFT(d->p, d->end) < 1) {
                return false;
            }
            k = *d->p++;
            if (k == PHP_SC_O_KSTR) {
                uint32_t len;
                zend_string *key;
                if (!php_sc_odec_u32(d, &len) || PHP_SC_OLEFT(d->p, d->end) < len) {
                    return false;
                }
                key = php_sc_odec_key(d, d->p, len);
                d->p += len;
                slot = zend_symtable_find(ht, key) ? NULL : zend_symtable_add_new(ht, key, &EG(uninitialized_zval));
                zend_string_release(key);
            } else if (k == PHP_SC_K_I32) {
                uint32_t v;
                if (!php_sc_odec_u32(d, &v)) {
                    return false;
                }
                slot = zend_hash_index_add(ht, (zend_ulong) (zend_long) (int32_t) v, &EG(uninitialized_zval));
            } else if (k == PHP_SC_K_I64 && PHP_SC_OLEFT(d->p, d->end) >= 8) {
                slot = zend_hash_index_add(ht, (zend_ulong) php_sc_load_u64(d->p), &EG(uninitialized_zval));
                d->p += 8;
            } else {
                return false;
            }
        }
        if (!slot || !php_sc_odec_value(d, slot, NULL)) {
            return false;
        }
    }
    return true;
}

static bool php_sc_odec_object(php_sc_odec *d, zval *out, zend_property_info *info)
{
    uint32_t cidx, ndecl, ndyn, i;
    php_sc_ocls_in *c;
    zend_class_entry *ce;
    zend_object *obj;
    int sc;

    if (!php_sc_odec_u32(d, &cidx) || cidx >= d->h->ncls) {
        return false;
    }
    c = &d->h->cls[cidx];
    ce = c->ce;
    if (c->kind != PHP_SC_OCLS_CLASS || ++d->depth > PHP_SC_VALUE_MAX_DEPTH) {
        return false;
    }
    if (!php_sc_odec_push(d, out, info) || object_init_ex(out, ce) != SUCCESS) {
        return false;
    }
    obj = Z_OBJ_P(out);
    d->made[d->nmade++] = obj;   /* at most one per target */
    if (!php_sc_odec_u32(d, &ndecl) || ndecl > (uint32_t) ce->default_properties_count || !php_sc_odec_u32(d, &ndyn)) {
        return false;
    }
    for (i = 0; i < ndecl; i++) {
        uint32_t idx;
        zval *slot;
        zend_property_info *pi;
        if (!php_sc_odec_u32(d, &idx) || idx >= (uint32_t) ce->default_properties_count
            || (pi = ce->properties_info_table[idx]) == NULL) {
            return false;
        }
        slot = OBJ_PROP_NUM(obj, idx);
        if (Z_REFCOUNTED_P(slot)) {
            zval_ptr_dtor(slot);
        }
        ZVAL_NULL(slot);
        sc = php_sc_odec_scalar(d, slot);
        if (sc > 0) {
            continue;
        }
        if (sc == 0) {
            return false;
        }
        if (!ZEND_TYPE_IS_SET(pi->type)) {
            pi = NULL;
        }
        if (!php_sc_odec_value(d, slot, pi)) {
            return false;
        }
        if (pi && Z_ISREF_P(slot)) {
            ZEND_REF_ADD_TYPE_SOURCE(Z_REF_P(slot), pi);
        }
    }
    if (ndyn) {
        HashTable *props;
        if (!(ce->ce_flags & ZEND_ACC_ALLOW_DYNAMIC_PROPERTIES) || ndyn > PHP_SC_OLEFT(d->p, d->end)) {
            return false;
        }
        props = zend_std_get_properties(obj);
        zend_hash_extend(props, zend_hash_num_elements(props) + ndyn, 0);
        for (i = 0; i < ndyn; i++) {
            uint32_t len;
            zend_string *key;
            zval *slot;
            if (PHP_SC_OLEFT(d->p, d->end) < 1 || *d->p++ != PHP_SC_O_KSTR || !php_sc_odec_u32(d, &len)
                || PHP_SC_OLEFT(d->p, d->end) < len) {
                return false;
            }
            key = zend_string_init((const char *) d->p, len, 0);
            d->p += len;
            slot = zend_hash_add(props, key, &EG(uninitialized_zval));
            zend_string_release(key);
            if (!slot || !php_sc_odec_value(d, slot, NULL)) {
                return false;
            }
        }
    }
    d->depth--;
    return true;
}

/* PHP_SC_O_UOBJ: the object made without its constructor, then its
 * __unserialize() called with the array, as unserialize() does (which
 * calls it once the whole value is built: nothing here runs user code, so
 * no one sees the difference). It throwing, or a value that is not a
 * scalar: false (the text path gives what unserialize() gives). */
static zend_never_inline bool php_sc_odec_unser(php_sc_odec *d, zval *out, zend_property_info *info)
{
    uint32_t cidx;
    php_sc_ocls_in *c;
    zend_object *obj;
    zval data, *val;
    bool ok;

    if (!php_sc_odec_u32(d, &cidx) || cidx >= d->h->ncls) {
        return false;
    }
    c = &d->h->cls[cidx];
    if (c->kind != PHP_SC_OCLS_UNSER || ++d->depth > PHP_SC_VALUE_MAX_DEPTH) {
        return false;
    }
    if (!php_sc_odec_push(d, out, info) || object_init_ex(out, c->ce) != SUCCESS) {
        return false;
    }
    obj = Z_OBJ_P(out);
    d->made[d->nmade++] = obj;   /* at most one per target */
    ZVAL_NULL(&data);
    ok = php_sc_odec_array(d, &data, false);
    if (ok) {
        ZEND_HASH_FOREACH_VAL(Z_ARRVAL(data), val) {
            if (Z_TYPE_P(val) > IS_STRING) {
                ok = false;
                break;
            }
        } ZEND_HASH_FOREACH_END();
    }
    if (ok) {
        zend_call_known_instance_method_with_1_params(c->ce->__unserialize, obj, NULL, &data);
        if (UNEXPECTED(EG(exception))) {
            zend_clear_exception();
            ok = false;
        }
    }
    zval_ptr_dtor(&data);
    d->depth--;
    return ok;
}

static bool php_sc_odec_enum(php_sc_odec *d, zval *out, zend_property_info *info)
{
    uint32_t cidx, len;
    php_sc_ocls_in *c;
    zend_class_constant *cc;

    if (!php_sc_odec_u32(d, &cidx) || cidx >= d->h->ncls || !php_sc_odec_u32(d, &len)
        || PHP_SC_OLEFT(d->p, d->end) < len) {
        return false;
    }
    c = &d->h->cls[cidx];
    if (c->kind != PHP_SC_OCLS_ENUM) {
        return false;
    }
    cc = zend_hash_str_find_ptr(CE_CONSTANTS_TABLE(c->ce), (const char *) d->p, len);
    d->p += len;
    /* A case not evaluated yet is left to unserialize(), which evaluates it. */
    if (!cc || !(ZEND_CLASS_CONST_FLAGS(cc) & ZEND_CLASS_CONST_IS_CASE) || Z_TYPE(cc->value) != IS_OBJECT) {
        return false;
    }
    ZVAL_COPY(out, &cc->value);
    return php_sc_odec_push(d, out, info);
}

static bool php_sc_odec_value(php_sc_odec *d, zval *out, zend_property_info *info)
{
    uint8_t tag;
    uint32_t n;

    if (UNEXPECTED(d->p >= d->end)) {
        return false;
    }
    tag = *d->p++;
    switch (tag) {
        case PHP_SC_T_NULL:
            ZVAL_NULL(out);
            return true;
        case PHP_SC_T_FALSE:
            ZVAL_FALSE(out);
            return true;
        case PHP_SC_T_TRUE:
            ZVAL_TRUE(out);
            return true;
        case PHP_SC_T_I8:
            if (PHP_SC_OLEFT(d->p, d->end) < 1) {
                return false;
            }
            ZVAL_LONG(out, (zend_long) (int8_t) *d->p);
            d->p++;
            return true;
        case PHP_SC_T_I32:
            if (!php_sc_odec_u32(d, &n)) {
                return false;
            }
            ZVAL_LONG(out, (zend_long) (int32_t) n);
            return true;
        case PHP_SC_T_I64:
            if (PHP_SC_OLEFT(d->p, d->end) < 8) {
                return false;
            }
            ZVAL_LONG(out, (zend_long) (int64_t) php_sc_load_u64(d->p));
            d->p += 8;
            return true;
        case PHP_SC_T_DOUBLE: {
            uint64_t bits;
            double v;
            if (PHP_SC_OLEFT(d->p, d->end) < 8) {
                return false;
            }
            bits = php_sc_load_u64(d->p);
            memcpy(&v, &bits, 8);
            ZVAL_DOUBLE(out, v);
            d->p += 8;
            return true;
        }
        case PHP_SC_T_STR32:
            if (!php_sc_odec_u32(d, &n) || PHP_SC_OLEFT(d->p, d->end) < n) {
                return false;
            }
            ZVAL_STR(out, zend_string_init_fast((const char *) d->p, n));
            d->p += n;
            return true;
        case PHP_SC_O_PLAIN:
            return php_sc_plain_decode_at(&d->p, d->end, out) == SUCCESS;
        case PHP_SC_O_ZARR:
            return php_sc_odec_u32(d, &n) && php_sc_ozarr(d->h, n, out);
        case PHP_SC_O_LIST:
        case PHP_SC_O_HASH: {
            bool ok;
            if (++d->depth > PHP_SC_VALUE_MAX_DEPTH) {
                return false;
            }
            ok = php_sc_odec_array(d, out, tag == PHP_SC_O_LIST);
            d->depth--;
            return ok;
        }
        case PHP_SC_O_OBJ:
            return php_sc_odec_object(d, out, info);
        case PHP_SC_O_ENUM:
            return php_sc_odec_enum(d, out, info);
        case PHP_SC_O_UOBJ:
            return php_sc_odec_unser(d, out, info);
        case PHP_SC_O_OBJREF: {
            zval *z;
            if (!php_sc_odec_u32(d, &n) || n >= d->nt) {
                return false;
            }
            z = d->t[n].zv;
            if (z == out) {
                return false;
            }
            ZVAL_DEREF(z);
            if (Z_TYPE_P(z) != IS_OBJECT) {
                return false;
            }
            ZVAL_COPY(out, z);
            return true;
        }
        case PHP_SC_O_REFTO: {
            zval *z;
            if (!php_sc_odec_u32(d, &n) || n >= d->nt) {
                return false;
            }
            z = d->t[n].zv;
            if (z == out || (Z_ISREF_P(z) && Z_REFVAL_P(z) == out)) {
                return false;
            }
            if (!Z_ISREF_P(z)) {
                ZVAL_NEW_REF(z, z);
                if (d->t[n].info) {
                    ZEND_REF_ADD_TYPE_SOURCE(Z_REF_P(z), d->t[n].info);
                }
            }
            ZVAL_COPY(out, z);
            return true;
        }
        case PHP_SC_O_TARGET:
            if (d->p < d->end && (*d->p == PHP_SC_O_TARGET || *d->p == PHP_SC_O_REFTO || *d->p == PHP_SC_O_OBJ
                                  || *d->p == PHP_SC_O_ENUM || *d->p == PHP_SC_O_OBJREF || *d->p == PHP_SC_O_UOBJ)) {
                return false;
            }
            return php_sc_odec_push(d, out, info) && php_sc_odec_value(d, out, info);
        default:
            return false;
    }
}

/* Every class loaded, of the stored shape, and the value built: true. */
static bool php_sc_odec_native(php_sc_ohead *h, zval *out)
{
    php_sc_otarget tbuf[16];
    zend_object *mbuf[16];
    php_sc_odec d;
    uint32_t i;
    bool ok;

    /* Deeper than unserialize() goes: its warning, through it. NTS reads
     * the setting where unserialize() does (BG()); ZTS builds read it by
     * name, BG() read 0 there (tests/api/422). */
#ifdef ZTS
    zend_long max_depth = zend_ini_long("unserialize_max_depth", sizeof("unserialize_max_depth") - 1, 0);
#else
    zend_long max_depth = BG(unserialize_max_depth);
#endif

    if (max_depth > 0 && h->levels > (uint64_t) max_depth) {
        return false;
    }
    for (i = 0; i < h->ncls; i++) {
        php_sc_ocls_in *c = &h->cls[i];
        c->ce = php_sc_ocls_find(c->name, c->name_len, c->hash);
        if (!c->ce || php_sc_ocls_fp(c->ce) != c->fp
            || (c->kind == PHP_SC_OCLS_ENUM) != ((c->ce->ce_flags & ZEND_ACC_ENUM) != 0)
            || (c->kind == PHP_SC_OCLS_UNSER) != php_sc_ocls_unser(c->ce)
            || (c->kind == PHP_SC_OCLS_CLASS && c->nslots != (uint32_t) c->ce->default_properties_count)) {
            return false;
        }
    }
    d.p = h->body;
    d.end = h->end;
    d.h = h;
    d.nt = 0;
    d.nmade = 0;
    d.depth = 0;
    d.kmask = 0;
    d.t = h->ntargets <= 16 ? tbuf : safe_emalloc(h->ntargets, sizeof(php_sc_otarget), 0);
    d.made = h->ntargets <= 16 ? mbuf : safe_emalloc(h->ntargets, sizeof(zend_object *), 0);
    ZVAL_NULL(out);
    ok = php_sc_odec_value(&d, out, NULL) && d.p == d.end;
    if (!ok) {
        /* Nothing of it was seen: drop it without running a destructor. */
        for (i = 0; i < d.nmade; i++) {
            GC_ADD_FLAGS(d.made[i], IS_OBJ_DESTRUCTOR_CALLED);
        }
        zval_ptr_dtor(out);
        ZVAL_NULL(out);
    }
    if (UNEXPECTED(d.kmask)) {
        for (i = 0; i < PHP_SC_OKEYS; i++) {
            if (d.kmask & (UINT32_C(1) << i)) {
                zend_string_release(d.keys[i]);
            }
        }
    }
    if (d.t != tbuf) {
        efree(d.t);
    }
    if (d.made != mbuf) {
        efree(d.made);
    }
    return ok;
}

/* ---- serialize() text of the stored graph --------------------------------------- */

typedef struct php_sc_otext {
    const unsigned char *p, *end;
    php_sc_ohead *h;
    smart_str s;
    uint32_t n;          /* serialize()'s count of values so far */
    uint32_t *tn;        /* target id -> its number in the text */
    uint32_t nt;
    uint32_t depth;
} php_sc_otext;

static bool php_sc_otext_value(php_sc_otext *x);

static uint32_t php_sc_count_values(HashTable *ht)
{
    uint32_t n = 0;
    zval *v;
    ZEND_HASH_FOREACH_VAL(ht, v) {
        n++;
        if (Z_TYPE_P(v) == IS_ARRAY) {
            n += php_sc_count_values(Z_ARRVAL_P(v));
        }
    } ZEND_HASH_FOREACH_END();
    return n;
}

static zend_always_inline bool php_sc_otext_u32(php_sc_otext *x, uint32_t *v)
{
    if (PHP_SC_OLEFT(x->p, x->end) < 4) {
        return false;
    }
    *v = php_sc_load_u32(x->p);
    x->p += 4;
    return true;
}

static void php_sc_otext_str(smart_str *s, const char *v, size_t n)
{
    smart_str_appendl(s, "s:", 2);
    smart_str_append_unsigned(s, n);
    smart_str_appendl(s, ":\"", 2);
    smart_str_appendl(s, v, n);
    smart_str_appendl(s, "\";", 2);
}

static bool php_sc_otext_key(php_sc_otext *x)
{
    uint8_t k;
    uint32_t v;

    if (PHP_SC_OLEFT(x->p, x->end) < 1) {
        return false;
    }
    k = *x->p++;
    if (k == PHP_SC_O_KSTR) {
        if (!php_sc_otext_u32(x, &v) || PHP_SC_OLEFT(x->p, x->end) < v) {
            return false;
        }
        php_sc_otext_str(&x->s, (const char *) x->p, v);
        x->p += v;
        return true;
    }
    smart_str_appendl(&x->s, "i:", 2);
    if (k == PHP_SC_K_I32) {
        if (!php_sc_otext_u32(x, &v)) {
            return false;
        }
        smart_str_append_long(&x->s, (zend_long) (int32_t) v);
    } else if (k == PHP_SC_K_I64 && PHP_SC_OLEFT(x->p, x->end) >= 8) {
        smart_str_append_long(&x->s, (zend_long) (int64_t) php_sc_load_u64(x->p));
        x->p += 8;
    } else {
        return false;
    }
    smart_str_appendc(&x->s, ';');
    return true;
}

static bool php_sc_otext_target(php_sc_otext *x)
{
    if (x->nt >= x->h->ntargets) {
        return false;
    }
    x->tn[x->nt++] = x->n;
    return true;
}

static bool php_sc_otext_value(php_sc_otext *x)
{
    uint8_t tag;
    uint32_t v, i;

    if (x->p >= x->end || ++x->depth > PHP_SC_VALUE_MAX_DEPTH * 2) {
        return false;
    }
    tag = *x->p++;
    if (tag == PHP_SC_O_TARGET) {
        bool ok;
        if (x->p >= x->end || *x->p == PHP_SC_O_TARGET || *x->p == PHP_SC_O_REFTO) {
            return false;
        }
        x->n++;
        ok = php_sc_otext_target(x);
        x->n--;   /* the value that follows counts itself */
        x->depth--;
        return ok && php_sc_otext_value(x);
    }
    if (tag != PHP_SC_O_REFTO) {
        x->n++;
    }
    switch (tag) {
        case PHP_SC_T_NULL:
            smart_str_appendl(&x->s, "N;", 2);
            break;
        case PHP_SC_T_FALSE:
            smart_str_appendl(&x->s, "b:0;", 4);
            break;
        case PHP_SC_T_TRUE:
            smart_str_appendl(&x->s, "b:1;", 4);
            break;
        case PHP_SC_T_I8:
            if (PHP_SC_OLEFT(x->p, x->end) < 1) {
                return false;
            }
            smart_str_appendl(&x->s, "i:", 2);
            smart_str_append_long(&x->s, (zend_long) (int8_t) *x->p++);
            smart_str_appendc(&x->s, ';');
            break;
        case PHP_SC_T_I32:
            if (!php_sc_otext_u32(x, &v)) {
                return false;
            }
            smart_str_appendl(&x->s, "i:", 2);
            smart_str_append_long(&x->s, (zend_long) (int32_t) v);
            smart_str_appendc(&x->s, ';');
            break;
        case PHP_SC_T_I64:
            if (PHP_SC_OLEFT(x->p, x->end) < 8) {
                return false;
            }
            smart_str_appendl(&x->s, "i:", 2);
            smart_str_append_long(&x->s, (zend_long) (int64_t) php_sc_load_u64(x->p));
            smart_str_appendc(&x->s, ';');
            x->p += 8;
            break;
        case PHP_SC_T_DOUBLE: {
            uint64_t bits;
            double d;
            if (PHP_SC_OLEFT(x->p, x->end) < 8) {
                return false;
            }
            bits = php_sc_load_u64(x->p);
            memcpy(&d, &bits, 8);
            x->p += 8;
            smart_str_appendl(&x->s, "d:", 2);
            if (zend_isnan(d)) {
                smart_str_appendl(&x->s, "NAN", 3);
            } else if (zend_isinf(d)) {
                smart_str_appends(&x->s, d > 0 ? "INF" : "-INF");
            } else {
                /* As serialize() writes it by default: every digit it needs. */
                smart_str_append_double(&x->s, d, -1, false);
            }
            smart_str_appendc(&x->s, ';');
            break;
        }
        case PHP_SC_T_STR32:
            if (!php_sc_otext_u32(x, &v) || PHP_SC_OLEFT(x->p, x->end) < v) {
                return false;
            }
            php_sc_otext_str(&x->s, (const char *) x->p, v);
            x->p += v;
            break;
        case PHP_SC_O_PLAIN:
        case PHP_SC_O_ZARR: {
            zval tmp;
            php_serialize_data_t vh;
            zend_long precision = PG(serialize_precision);
            if (tag == PHP_SC_O_PLAIN ? php_sc_plain_decode_at(&x->p, x->end, &tmp) != SUCCESS
                                      : !php_sc_otext_u32(x, &v) || !php_sc_ozarr(x->h, v, &tmp)) {
                return false;
            }
            /* Floats as they are stored: every digit. */
            PG(serialize_precision) = -1;
            PHP_VAR_SERIALIZE_INIT(vh);
            php_var_serialize(&x->s, &tmp, &vh);
            PHP_VAR_SERIALIZE_DESTROY(vh);
            PG(serialize_precision) = precision;
            x->n += php_sc_count_values(Z_ARRVAL(tmp));
            zval_ptr_dtor(&tmp);
            break;
        }
        case PHP_SC_O_LIST:
        case PHP_SC_O_HASH:
            if (!php_sc_otext_u32(x, &v) || v > PHP_SC_OLEFT(x->p, x->end)) {
                return false;
            }
            smart_str_appendl(&x->s, "a:", 2);
            smart_str_append_unsigned(&x->s, v);
            smart_str_appendl(&x->s, ":{", 2);
            for (i = 0; i < v; i++) {
                if (tag == PHP_SC_O_LIST) {
                    smart_str_appendl(&x->s, "i:", 2);
                    smart_str_append_unsigned(&x->s, i);
                    smart_str_appendc(&x->s, ';');
                } else if (!php_sc_otext_key(x)) {
                    return false;
                }
                if (!php_sc_otext_value(x)) {
                    return false;
                }
            }
            smart_str_appendc(&x->s, '}');
            break;
        case PHP_SC_O_OBJ: {
            php_sc_ocls_in *c;
            uint32_t ndecl, ndyn;
            if (!php_sc_otext_u32(x, &v) || v >= x->h->ncls || x->h->cls[v].kind != PHP_SC_OCLS_CLASS
                || !php_sc_otext_target(x) || !php_sc_otext_u32(x, &ndecl)) {
                return false;
            }
            c = &x->h->cls[v];
            if (!php_sc_otext_u32(x, &ndyn)) {
                return false;
            }
            smart_str_appendl(&x->s, "O:", 2);
            smart_str_append_unsigned(&x->s, c->name_len);
            smart_str_appendl(&x->s, ":\"", 2);
            smart_str_appendl(&x->s, c->name, c->name_len);
            smart_str_appendl(&x->s, "\":", 2);
            smart_str_append_unsigned(&x->s, (size_t) ndecl + ndyn);
            smart_str_appendl(&x->s, ":{", 2);
            for (i = 0; i < ndecl; i++) {
                const char *name;
                uint32_t len;
                if (!php_sc_otext_u32(x, &v) || !php_sc_ocls_slot_name(c, v, x->end, &name, &len)) {
                    return false;
                }
                php_sc_otext_str(&x->s, name, len);
                if (!php_sc_otext_value(x)) {
                    return false;
                }
            }
            for (i = 0; i < ndyn; i++) {
                if (PHP_SC_OLEFT(x->p, x->end) < 1 || *x->p != PHP_SC_O_KSTR || !php_sc_otext_key(x)
                    || !php_sc_otext_value(x)) {
                    return false;
                }
            }
            smart_str_appendc(&x->s, '}');
            break;
        }
        case PHP_SC_O_UOBJ: {
            php_sc_ocls_in *c;
            uint32_t n;
            if (!php_sc_otext_u32(x, &v) || v >= x->h->ncls || x->h->cls[v].kind != PHP_SC_OCLS_UNSER
                || !php_sc_otext_target(x) || !php_sc_otext_u32(x, &n) || n > PHP_SC_OLEFT(x->p, x->end)) {
                return false;
            }
            c = &x->h->cls[v];
            smart_str_appendl(&x->s, "O:", 2);
            smart_str_append_unsigned(&x->s, c->name_len);
            smart_str_appendl(&x->s, ":\"", 2);
            smart_str_appendl(&x->s, c->name, c->name_len);
            smart_str_appendl(&x->s, "\":", 2);
            smart_str_append_unsigned(&x->s, n);
            smart_str_appendl(&x->s, ":{", 2);
            for (i = 0; i < n; i++) {
                if (!php_sc_otext_key(x) || !php_sc_otext_value(x)) {
                    return false;
                }
            }
            smart_str_appendc(&x->s, '}');
            break;
        }
        case PHP_SC_O_ENUM: {
            php_sc_ocls_in *c;
            if (!php_sc_otext_u32(x, &v) || v >= x->h->ncls || x->h->cls[v].kind != PHP_SC_OCLS_ENUM
                || !php_sc_otext_target(x) || !php_sc_otext_u32(x, &i) || PHP_SC_OLEFT(x->p, x->end) < i) {
                return false;
            }
            c = &x->h->cls[v];
            smart_str_appendl(&x->s, "E:", 2);
            smart_str_append_unsigned(&x->s, (size_t) c->name_len + 1 + i);
            smart_str_appendl(&x->s, ":\"", 2);
            smart_str_appendl(&x->s, c->name, c->name_len);
            smart_str_appendc(&x->s, ':');
            smart_str_appendl(&x->s, (const char *) x->p, i);
            smart_str_appendl(&x->s, "\";", 2);
            x->p += i;
            break;
        }
        case PHP_SC_O_OBJREF:
        case PHP_SC_O_REFTO:
            if (!php_sc_otext_u32(x, &v) || v >= x->nt) {
                return false;
            }
            smart_str_appendl(&x->s, tag == PHP_SC_O_OBJREF ? "r:" : "R:", 2);
            smart_str_append_unsigned(&x->s, x->tn[v]);
            smart_str_appendc(&x->s, ';');
            break;
        default:
            return false;
    }
    x->depth--;
    return true;
}

static zend_result php_sc_odec_text(php_sc_ohead *h, zval *out)
{
    php_sc_otext x;
    zend_result rc;
    bool ok;

    memset(&x, 0, sizeof(x));
    x.p = h->body;
    x.end = h->end;
    x.h = h;
    x.tn = safe_emalloc(h->ntargets ? h->ntargets : 1, sizeof(uint32_t), 0);
    BG(serialize_lock)++;
    ok = php_sc_otext_value(&x) && x.p == x.end;
    BG(serialize_lock)--;
    efree(x.tn);
    if (!ok || !x.s.s) {
        smart_str_free(&x.s);
        ZVAL_NULL(out);
        return FAILURE;
    }
    smart_str_appendc(&x.s, '\0');   /* stored serialized text ends in one */
    rc = php_sc_serialized_decode_php_text(ZSTR_VAL(x.s.s), ZSTR_LEN(x.s.s), out);
    smart_str_free(&x.s);
    return rc;
}

zend_result php_sc_obj_decode(const char *data, size_t len, zval *out)
{
    return php_sc_obj_decode_zc(data, len, out, NULL, 0, false);
}

zend_result php_sc_obj_decode_zc(const char *data, size_t len, zval *out, const char *zc_hdr, size_t zc_len, bool borrow)
{
    php_sc_ocls_in local[PHP_SC_OHEAD_LOCAL];
    php_sc_ohead h;
    zend_result rc;

    ZVAL_NULL(out);
    if (!php_sc_ohead_read(data, len, &h, local)) {
        return FAILURE;
    }
    h.zc_hdr = zc_hdr;
    h.zc_len = zc_len;
    h.zc_borrow = borrow;
    if (!php_sc_obj_force_text && php_sc_odec_native(&h, out)) {
        php_sc_obj_native++;
        if (h.cls != local) {
            efree(h.cls);
        }
        if (Z_ISREF_P(out)) {
            zval tmp;
            ZVAL_COPY(&tmp, Z_REFVAL_P(out));
            zval_ptr_dtor(out);
            ZVAL_COPY_VALUE(out, &tmp);
        }
        return SUCCESS;
    }
    php_sc_obj_text++;
    rc = php_sc_odec_text(&h, out);
    if (h.cls != local) {
        efree(h.cls);
    }
    return rc;
}
