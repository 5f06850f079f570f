/*
 * php/ocls.c - the object form's classes (php/ocls.h): which classes the
 * form takes (php/object.c says which), their fingerprints, the
 * properties a __sleep() selects, and the classes a stored value names,
 * looked up without autoloading.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "ext/date/php_date.h"
#include "ext/spl/spl_array.h"
#include "ext/spl/spl_dllist.h"
#include "ext/spl/spl_fixedarray.h"
#include "ext/spl/spl_observer.h"
#include "ocls.h"
#include "debug.h"

#if defined(ZTS) && defined(COMPILE_DL_SHARDCACHE)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

/* The caches of php_shardcache.h have PHP_SC_OCLS_SLOTS slots. */
_Static_assert(sizeof(((zend_shardcache_globals *) 0)->obj_fps) / sizeof(((zend_shardcache_globals *) 0)->obj_fps[0])
                   == PHP_SC_OCLS_SLOTS,
               "SCG(obj_fps) has PHP_SC_OCLS_SLOTS slots");
_Static_assert(sizeof(((zend_shardcache_globals *) 0)->obj_names) / sizeof(((zend_shardcache_globals *) 0)->obj_names[0])
                   == PHP_SC_OCLS_SLOTS,
               "SCG(obj_names) has PHP_SC_OCLS_SLOTS slots");

zend_class_entry *php_sc_ocls_native_ces[PHP_SC_OCLS_NATIVE];

void php_sc_ocls_minit(void)
{
    zend_class_entry *native[PHP_SC_OCLS_NATIVE] = {
        php_date_get_immutable_ce(), php_date_get_date_ce(), php_date_get_timezone_ce(),
        php_date_get_interval_ce(), php_date_get_period_ce(),
        spl_ce_ArrayObject, spl_ce_ArrayIterator, spl_ce_RecursiveArrayIterator,
        spl_ce_SplObjectStorage, spl_ce_SplDoublyLinkedList, spl_ce_SplQueue, spl_ce_SplStack,
        spl_ce_SplFixedArray,
    };
    uint32_t i;

    for (i = 0; i < PHP_SC_OCLS_NATIVE; i++) {
        ZEND_ASSERT(native[i] && native[i]->__serialize && native[i]->__unserialize);
        php_sc_ocls_native_ces[i] = native[i];
    }
    ZEND_ASSERT(native[PHP_SC_OCLS_DATE_END - 1] == php_date_get_timezone_ce());
    ZEND_ASSERT(native[PHP_SC_OCLS_SPL_FIRST] == spl_ce_ArrayObject && native[PHP_SC_OCLS_SPL_FIRST - 1] == php_date_get_period_ce());
}

/* The index of ce in php_sc_ocls_native_ces; PHP_SC_OCLS_NATIVE: not
 * there. */
static uint32_t php_sc_ocls_native_index(const zend_class_entry *ce)
{
    uint32_t i;

    for (i = 0; i < PHP_SC_OCLS_NATIVE && php_sc_ocls_native_ces[i] != ce; i++) {
    }
    return i;
}

bool php_sc_ocls_spl(const zend_class_entry *ce)
{
    uint32_t i = php_sc_ocls_native_index(php_sc_ocls_internal_root(ce));

    return i >= PHP_SC_OCLS_SPL_FIRST && i < PHP_SC_OCLS_NATIVE;
}

void php_sc_ocls_request_end(void)
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

/* php_sc_ocls_compute for a user class with __serialize() or
 * __unserialize() (h: the hash so far). Kept as its __serialize() array,
 * or (__unserialize() alone) as the array of properties serialize()
 * writes, and rebuilt by __unserialize(): the class itself does not shape
 * the result, its name and parents are the fingerprint. __serialize()
 * alone (unserialize() sets properties from its array), and
 * __unserialize() with __sleep(): 0, left to serialize(). */
static uint64_t php_sc_ocls_compute_unser(zend_class_entry *ce, uint64_t h)
{
    zend_class_entry *c;

    if (!ce->__unserialize) {
        return 0;
    }
    if (!ce->__serialize) {
#if PHP_VERSION_ID >= 80400
        if (ce->num_hooked_props) {
            return 0;
        }
#endif
        if (zend_hash_exists(&ce->function_table, ZSTR_KNOWN(ZEND_STR_SLEEP))) {
            return 0;
        }
    }
    h = php_sc_fnv_u64(h, ce->__serialize ? 0x5e : 0x5f);
    for (c = ce; c; c = c->parent) {
        h = php_sc_fnv_str(h, c->name);
    }
    return h ? h : 1;
}

/* php_sc_ocls_compute for a class whose chain holds an internal class
 * (h: the hash so far): one of php_sc_ocls_native_ces or a user subclass
 * of one (its own __serialize() and __unserialize(), or user ones: then
 * stored as a user class's pair is). The array's shape is the PHP
 * version's; the fingerprint is that version, the chain's names, and
 * whether __serialize() is a user function. */
static uint64_t php_sc_ocls_compute_native(zend_class_entry *ce, uint64_t h)
{
    zend_class_entry *c;

    if (php_sc_ocls_native_index(php_sc_ocls_internal_root(ce)) == PHP_SC_OCLS_NATIVE || !ce->__serialize || !ce->__unserialize) {
        return 0;
    }
#if PHP_VERSION_ID >= 80400
    for (c = ce; c; c = c->parent) {
        if (c->type == ZEND_USER_CLASS && c->num_hooked_props) {
            return 0;
        }
    }
#endif
    h = php_sc_fnv_u64(h, 0x75);
    h = php_sc_fnv_u64(h, PHP_VERSION_ID);
    h = php_sc_fnv_u64(h, ce->__serialize->type);
    for (c = ce; c; c = c->parent) {
        h = php_sc_fnv_str(h, c->name);
    }
    return h ? h : 1;
}

uint64_t php_sc_ocls_compute(zend_class_entry *ce)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    zend_class_entry *c;
    uint32_t i;

    ZEND_ASSERT(php_sc_ocls_native_ces[0] && php_sc_ocls_native_ces[PHP_SC_OCLS_NATIVE - 1]);   /* MINIT ran */
    if (!(ce->ce_flags & ZEND_ACC_LINKED)) {
        return 0;
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
    if (php_sc_ocls_internal_root(ce)) {
        return php_sc_ocls_compute_native(ce, h);
    }
    for (c = ce; c; c = c->parent) {
        if ((c->type != ZEND_USER_CLASS && c != zend_standard_class_def) || c->create_object) {
            return 0;
        }
        if (c->serialize || c->unserialize) {
            return 0;   /* Serializable: its C: form is left to serialize() */
        }
    }
    if (ce->__serialize || ce->__unserialize) {
        return php_sc_ocls_compute_unser(ce, h);
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
    /* __sleep() picks what the store writes, __wakeup() runs at fetch. */
    if (zend_hash_exists(&ce->function_table, ZSTR_KNOWN(ZEND_STR_SLEEP))) {
        h = php_sc_fnv_u64(h, 0x51ee9);
    }
    if (zend_hash_exists(&ce->function_table, ZSTR_KNOWN(ZEND_STR_WAKEUP))) {
        h = php_sc_fnv_u64(h, 0x3a4e);
    }
    return h ? h : 1;
}

/* __sleep() named key, found in props (serialize()'s lookup): its value
 * added to sel, its declared slot (or PHP_SC_OBJ_NOSLOT) to slots. */
static zend_result php_sc_ocls_sleep_add(HashTable *sel, uint32_t *slots, HashTable *props, zend_string *key,
                                         zend_string *name, zend_object *obj)
{
    zval *val = zend_hash_find(props, key);
    uint32_t slot = PHP_SC_OBJ_NOSLOT;

    if (!val) {
        return FAILURE;
    }
    if (Z_TYPE_P(val) == IS_INDIRECT) {
        val = Z_INDIRECT_P(val);
        if (Z_TYPE_P(val) == IS_UNDEF) {
            return zend_get_typed_property_info_for_slot(obj, val) ? SUCCESS : FAILURE;
        }
        slot = (uint32_t) (val - obj->properties_table);
    }
    if (!zend_hash_add(sel, key, val)) {
        /* (serialize()'s level: a notice up to 8.2) */
        php_error_docref(NULL, PHP_VERSION_ID >= 80300 ? E_WARNING : E_NOTICE,
                         "\"%s\" is returned from __sleep() multiple times", ZSTR_VAL(name));
        return SUCCESS;
    }
    Z_TRY_ADDREF_P(val);
    slots[zend_hash_num_elements(sel) - 1] = slot;
    return SUCCESS;
}

bool php_sc_ocls_sleep_select(HashTable *sel, uint32_t *slots, zend_object *obj, zval *zobj, HashTable *names)
{
    zend_class_entry *ce = obj->ce;
    HashTable *props = zend_get_properties_for(zobj, ZEND_PROP_PURPOSE_SERIALIZE);
    zval *name_val;
    bool ok = true;

    ZEND_HASH_FOREACH_VAL_IND(names, name_val) {
        zend_string *name, *tmp_name, *mangled;
        zend_result found;
        int i;

        ZVAL_DEREF(name_val);
        if (Z_TYPE_P(name_val) != IS_STRING) {
            php_error_docref(NULL, E_WARNING,
                             "%s::__sleep() should return an array only containing the names of instance-variables to serialize",
                             ZSTR_VAL(ce->name));
        }
        name = zval_get_tmp_string(name_val, &tmp_name);
        found = php_sc_ocls_sleep_add(sel, slots, props, name, name, obj);
        /* Then as private to the class, then as protected. */
        for (i = 0; i < 2 && found == FAILURE && !EG(exception); i++) {
            mangled = i == 0 ? zend_mangle_property_name(ZSTR_VAL(ce->name), ZSTR_LEN(ce->name), ZSTR_VAL(name),
                                                         ZSTR_LEN(name), ce->type & ZEND_INTERNAL_CLASS)
                             : zend_mangle_property_name("*", 1, ZSTR_VAL(name), ZSTR_LEN(name),
                                                         ce->type & ZEND_INTERNAL_CLASS);
            found = php_sc_ocls_sleep_add(sel, slots, props, mangled, name, obj);
            zend_string_release(mangled);
        }
        if (found == FAILURE && EG(exception)) {
            zend_tmp_string_release(tmp_name);
            ok = false;
            break;
        }
        if (found == FAILURE) {
            php_error_docref(NULL, E_WARNING, "\"%s\" returned as member variable from __sleep() but does not exist",
                             ZSTR_VAL(name));
        }
        zend_tmp_string_release(tmp_name);
    } ZEND_HASH_FOREACH_END();
    zend_release_properties(props);
    return ok && !EG(exception);
}

void php_sc_ocls_refused(zend_class_entry *ce)
{
    uint32_t i = php_sc_ocls_slot(ce);

    /* (another class of the value may have taken ce's slot meanwhile:
     * ce takes it back, so that the skip is not lost) */
    (void) php_sc_ocls_fp(ce);
    ZEND_ASSERT(SCG(obj_fps)[i].ce == ce);
    SCG(obj_fps)[i].skip = PHP_SC_OCLS_SKIP;
}

zend_class_entry *php_sc_ocls_lookup(const char *name, size_t len, void **slot)
{
    zend_class_entry *ce;
    zend_string *zs;

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
