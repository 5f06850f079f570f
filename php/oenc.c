/*
 * php/oenc.c - the object form's encoder (php/oenc.h): a value holding
 * objects, or an array holding shared PHP references, written as the graph
 * serialize() would write, in binary (the form and what it takes:
 * php/object.c). The user code it runs is what serialize() would run:
 * __serialize() and __sleep() (php_sc_ocls_user_code), called once each
 * in serialize()'s order after a dry walk found the rest taken; the date
 * classes' __serialize() runs none.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_interfaces.h"
#include "zend_exceptions.h"
#include "ext/standard/basic_functions.h"
#include "oenc.h"
#include "debug.h"
#include "oenc_buf.h"
#include "ocls.h"
#include "object.h"
#include "plain_enc.h"
#include "serialized.h"

#if defined(ZTS) && defined(COMPILE_DL_SHARDCACHE)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

static bool php_sc_oenc_value(php_sc_oenc *e, zval *zv);

/* The dry walk's array: only what may hold objects or references is
 * walked (nothing is written that counts). */
static zend_never_inline bool php_sc_oenc_dry_array(php_sc_oenc *e, HashTable *ht)
{
    zval *val;
    bool ok = true;

    if (GC_IS_RECURSIVE(ht)) {
        return false;
    }
    if (!(GC_FLAGS(ht) & GC_IMMUTABLE)) {
        GC_PROTECT_RECURSION(ht);
    }
    ZEND_HASH_FOREACH_VAL(ht, val) {
        if (Z_TYPE_P(val) > IS_STRING && !php_sc_oenc_value(e, val)) {
            ok = false;
            break;
        }
    } ZEND_HASH_FOREACH_END();
    if (!(GC_FLAGS(ht) & GC_IMMUTABLE)) {
        GC_UNPROTECT_RECURSION(ht);
    }
    return ok;
}

/* The plain, non-empty array ht (levels: its nesting, unserialize()'s
 * count) handed to the zero-copy layout, which lays it out immutable. */
static bool php_sc_oenc_zarr(php_sc_oenc *e, HashTable *ht, uint32_t levels)
{
    uint32_t pos;

    if (e->level + levels > e->max_level) {
        e->max_level = e->level + levels;
    }
    if (!e->zc(e->zc_ctx, ht, &pos)) {
        return false;
    }
    php_sc_oenc_tag_u32(e, PHP_SC_O_ZARR, pos);
    e->nzc++;
    return true;
}

static bool php_sc_oenc_array(php_sc_oenc *e, HashTable *ht)
{
    size_t mark = e->len;
    zend_ulong h;
    zend_string *key;
    zval *val;
    bool ok = true;
    uint32_t levels;

    if (UNEXPECTED(e->dry)) {
        return php_sc_oenc_dry_array(e, ht);
    }
    if (e->zc && !e->not_plain && zend_hash_num_elements(ht) && php_sc_plain_simple(ht, &levels)) {
        /* In a zero-copy layout: the array itself, immutable. Known plain
         * without writing it. */
#if ZEND_DEBUG
        size_t scratch = e->len;
        uint32_t written;
        ZEND_ASSERT(php_sc_plain_encode_append(ht, &e->buf, &scratch, &e->cap, &written) && written == levels);
#endif
        return php_sc_oenc_zarr(e, ht, levels);
    }
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
            /* (a reference only its holder sees, a resource: the layout
             * refuses them) */
            e->len = mark;
            return php_sc_oenc_zarr(e, ht, 0);
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

/* PHP_SC_O_UOBJ: class ce and data, the array its __serialize() returned
 * (scalars: every value must be a scalar, as the date classes' are). */
static bool php_sc_oenc_uobj(php_sc_oenc *e, zend_class_entry *ce, HashTable *data, bool scalars)
{
    zval *val;
    zend_ulong h;
    zend_string *key;
    size_t count_at;
    uint32_t n = 0;
    bool ok = true;

    if (zend_hash_num_elements(data) > UINT32_MAX / 2 || ++e->depth > PHP_SC_VALUE_MAX_DEPTH) {
        return false;
    }
    if (++e->level > e->max_level) {
        e->max_level = e->level;
    }
    php_sc_oenc_tag_u32(e, PHP_SC_O_UOBJ, php_sc_oenc_class(e, ce));
    count_at = e->len;
    php_sc_oenc_u32(e, 0);
    /* (properties: an uninitialized typed one left out, as serialize() does) */
    ZEND_HASH_FOREACH_KEY_VAL_IND(data, h, key, val) {
        if (Z_TYPE_P(val) == IS_UNDEF) {
            continue;
        }
        if (scalars && Z_TYPE_P(val) > IS_STRING) {
            return false;
        }
        if (key) {
            ok = php_sc_oenc_str(e, PHP_SC_O_KSTR, ZSTR_VAL(key), ZSTR_LEN(key));
        } else {
            php_sc_oenc_long(e, (zend_long) h, 0, PHP_SC_K_I32, PHP_SC_K_I64);
        }
        if (!ok || !php_sc_oenc_value(e, val) || ++n > UINT32_MAX / 2) {
            return false;
        }
    } ZEND_HASH_FOREACH_END();
    php_sc_store_u32(e->buf + count_at, n);
    e->depth--;
    e->level--;
    return true;
}

/* A user class with __unserialize() and neither __serialize() nor
 * __sleep() (already given its target id): serialize() writes its
 * properties (mangled names, uninitialized typed ones left out) and
 * unserialize() gives them to __unserialize() as one array; that array is
 * kept (PHP_SC_O_UOBJ). No user code runs; igbinary's round trip gives
 * __unserialize() the same array. */
static zend_never_inline bool php_sc_oenc_props_unser(php_sc_oenc *e, zend_object *obj)
{
    HashTable *props;
    bool ok;

    ZEND_ASSERT(obj->ce->__unserialize && !php_sc_ocls_user_code(obj->ce) && obj->handlers == &std_object_handlers);
    props = zend_std_get_properties_for(obj, ZEND_PROP_PURPOSE_SERIALIZE);
    ok = props && php_sc_oenc_uobj(e, obj->ce, props, false);
    zend_release_properties(props);
    return ok;
}

static bool php_sc_oenc_magic(php_sc_oenc *e, zend_object *obj);

/* An object of an internal class of php_sc_ocls_native_ces or a user
 * subclass of one (already given its target id): the array its own
 * __serialize() returns, which runs no user code (for the date classes
 * themselves, taken only when every value is a scalar); a user
 * __serialize(): as a user class's (php_sc_oenc_magic). */
static zend_never_inline bool php_sc_oenc_native(php_sc_oenc *e, zend_object *obj)
{
    zend_class_entry *ce = obj->ce;
    zval data;
    bool date, ok;

    ZEND_ASSERT(e->ntargets > 0);
    if (!php_sc_ocls_fp(ce) || EG(exception)) {
        return false;
    }
#if PHP_VERSION_ID >= 80400
    if (zend_object_is_lazy(obj)) {
        return false;
    }
#endif
    if (UNEXPECTED(php_sc_ocls_user_code(ce))) {
        return php_sc_oenc_magic(e, obj);
    }
    if (e->no_shared_refs && !e->zc && php_sc_ocls_spl(ce)) {
        /* igbinary builds an SPL collection's rows faster than the form's
         * copying decoder (each row a plain chunk of its own): left to it.
         * A zero-copy layout reads them faster still. */
        return false;
    }
    ZVAL_UNDEF(&data);
    zend_call_known_instance_method_with_0_params(ce->__serialize, obj, &data);
    if (EG(exception)) {
        /* (an object never initialized: serialize() throws it again) */
        zend_clear_exception();
        zval_ptr_dtor(&data);
        return false;
    }
    date = php_sc_ocls_date(ce);
    ok = Z_TYPE(data) == IS_ARRAY && php_sc_oenc_uobj(e, ce, Z_ARRVAL(data), date);
    if (ok && !date) {
        /* What it returned may hold objects made for it (DatePeriod's):
         * alive until the store ends, so that no later object reuses an
         * address the walk numbered, as serialize() keeps them. */
        php_sc_oenc_keep(e, &data);
    }
    zval_ptr_dtor(&data);
    return ok;
}

/* An enum case (already given its target id): its class and case name. */
static zend_always_inline bool php_sc_oenc_enum(php_sc_oenc *e, zend_object *obj)
{
    zend_class_entry *ce = obj->ce;
    zval *name;

    ZEND_ASSERT(e->ntargets > 0);
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

/* The properties of obj, which has a properties table, in serialize()'s
 * order: the table's (declared slots first, then dynamic properties in
 * the order they were made); *ndecl and *ndyn counted up. */
static zend_always_inline bool php_sc_oenc_props(php_sc_oenc *e, zend_object *obj, uint32_t count, uint32_t *ndecl,
                                                 uint32_t *ndyn)
{
    zend_class_entry *ce = obj->ce;
    bool dyn_seen = false;
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
            (*ndecl)++;
        } else {
            if (Z_TYPE_P(val) == IS_UNDEF) {
                continue;
            }
            if (!(ce->ce_flags & ZEND_ACC_ALLOW_DYNAMIC_PROPERTIES)) {
                return false;
            }
            dyn_seen = true;
            if (!php_sc_oenc_str(e, PHP_SC_O_KSTR, ZSTR_VAL(key), ZSTR_LEN(key)) || !php_sc_oenc_value(e, val)) {
                return false;
            }
            (*ndyn)++;
        }
    } ZEND_HASH_FOREACH_END();
    return true;
}

/* A user class with __serialize() and __unserialize() (already given its
 * target id): __serialize() called as serialize() calls it; its array
 * kept (PHP_SC_O_UOBJ). It throwing or returning no array: serialize()'s
 * exception, the store fails. */
static bool php_sc_oenc_user_unser(php_sc_oenc *e, zend_object *obj)
{
    zend_class_entry *ce = obj->ce;
    zval data, hold;
    bool ok;

    ZVAL_OBJ_COPY(&hold, obj);
    ZVAL_UNDEF(&data);
    BG(serialize_lock)++;
    zend_call_known_instance_method_with_0_params(ce->__serialize, obj, &data);
    BG(serialize_lock)--;
    if (EG(exception)) {
        ok = false;
    } else if (Z_TYPE(data) != IS_ARRAY) {
        zend_type_error("%s::__serialize() must return an array", ZSTR_VAL(ce->name));
        ok = false;
    } else {
        ok = php_sc_oenc_uobj(e, ce, Z_ARRVAL(data), false);
    }
    zval_ptr_dtor(&data);
    zval_ptr_dtor(&hold);
    return ok;
}

/* PHP_SC_O_SOBJ: the properties selected, in __sleep()'s order. */
static bool php_sc_oenc_sleep_write(php_sc_oenc *e, zend_class_entry *ce, HashTable *sel, const uint32_t *slots)
{
    zend_string *key;
    zval *val;
    uint32_t i = 0;

    if (++e->depth > PHP_SC_VALUE_MAX_DEPTH) {
        return false;
    }
    if (++e->level > e->max_level) {
        e->max_level = e->level;
    }
    php_sc_oenc_tag_u32(e, PHP_SC_O_SOBJ, php_sc_oenc_class(e, ce));
    php_sc_oenc_u32(e, zend_hash_num_elements(sel));
    ZEND_HASH_FOREACH_STR_KEY_VAL(sel, key, val) {
        uint32_t slot = slots[i++];
        if (slot != PHP_SC_OBJ_NOSLOT) {
            if (slot >= (uint32_t) ce->default_properties_count || !ce->properties_info_table[slot]) {
                return false;
            }
            php_sc_oenc_u32(e, slot);
        } else {
            php_sc_oenc_u32(e, PHP_SC_OBJ_NOSLOT);
            if (!key || ZSTR_LEN(key) > UINT32_MAX - 16) {
                return false;
            }
            php_sc_oenc_u32(e, (uint32_t) ZSTR_LEN(key));
            memcpy(php_sc_oenc_reserve(e, ZSTR_LEN(key)), ZSTR_VAL(key), ZSTR_LEN(key));
            e->len += ZSTR_LEN(key);
        }
        if (!php_sc_oenc_value(e, val)) {
            return false;
        }
    } ZEND_HASH_FOREACH_END();
    e->depth--;
    e->level--;
    return true;
}

/* A user class with __sleep() (already given its target id): __sleep()
 * called as serialize() calls it, the properties it names kept. It not
 * returning an array: serialize()'s warning, and null in the object's
 * place (PHP_SC_O_TARGET, null: its number stays taken). */
static bool php_sc_oenc_sleep(php_sc_oenc *e, zend_object *obj)
{
    zend_class_entry *ce = obj->ce;
    zend_function *fn = zend_hash_find_ptr(&ce->function_table, ZSTR_KNOWN(ZEND_STR_SLEEP));
    zval names, hold;
    HashTable sel;
    uint32_t *slots;
    bool ok;

    ZVAL_OBJ_COPY(&hold, obj);
    ZVAL_UNDEF(&names);
    BG(serialize_lock)++;
    zend_call_known_instance_method(fn, obj, &names, 0, NULL);
    BG(serialize_lock)--;
    if (Z_ISUNDEF(names) || EG(exception)) {
        zval_ptr_dtor(&names);
        zval_ptr_dtor(&hold);
        return false;
    }
    if (Z_TYPE(names) != IS_ARRAY) {
        zval_ptr_dtor(&names);
        php_error_docref(NULL, E_WARNING,
                         "%s::__sleep() should return an array only containing the names of instance-variables to serialize",
                         ZSTR_VAL(ce->name));
        zval_ptr_dtor(&hold);
        php_sc_oenc_u8(e, PHP_SC_O_TARGET);
        php_sc_oenc_u8(e, PHP_SC_T_NULL);
        return !EG(exception);
    }
    zend_hash_init(&sel, zend_hash_num_elements(Z_ARRVAL(names)), NULL, ZVAL_PTR_DTOR, 0);
    slots = safe_emalloc(zend_hash_num_elements(Z_ARRVAL(names)) + 1, sizeof(uint32_t), 0);
    ok = php_sc_ocls_sleep_select(&sel, slots, obj, &hold, Z_ARRVAL(names)) && php_sc_oenc_sleep_write(e, ce, &sel, slots);
    efree(slots);
    zend_hash_destroy(&sel);
    zval_ptr_dtor(&names);
    zval_ptr_dtor(&hold);
    return ok;
}

/* The dry walk: every property of an object with __sleep(), whichever it
 * names. */
static bool php_sc_oenc_dry_props(php_sc_oenc *e, zend_object *obj)
{
    zval *val;
    uint32_t i;

    if (++e->depth > PHP_SC_VALUE_MAX_DEPTH) {
        return false;
    }
    if (obj->properties) {
        ZEND_HASH_FOREACH_VAL_IND(obj->properties, val) {
            if (!php_sc_oenc_value(e, val)) {
                return false;
            }
        } ZEND_HASH_FOREACH_END();
    } else {
        for (i = 0; i < (uint32_t) obj->ce->default_properties_count; i++) {
            val = OBJ_PROP_NUM(obj, i);
            if (Z_TYPE_P(val) != IS_UNDEF && !php_sc_oenc_value(e, val)) {
                return false;
            }
        }
    }
    e->depth--;
    return true;
}

/* An object whose class runs user code when stored (php_sc_ocls_user_code;
 * already given its target id). */
static zend_never_inline bool php_sc_oenc_magic(php_sc_oenc *e, zend_object *obj)
{
    if (e->zc || e->no_shared_refs) {
        /* A zero-copy layout (which may give up for room and store again)
         * or igbinary's round trip: left to the usual store, before any
         * user code ran. */
        return false;
    }
    if (e->dry) {
        /* What __serialize() returns is seen when it runs. */
        return obj->ce->__serialize || php_sc_oenc_dry_props(e, obj);
    }
    if (!e->checked) {
        e->restart = true;
        return false;
    }
    return obj->ce->__serialize ? php_sc_oenc_user_unser(e, obj) : php_sc_oenc_sleep(e, obj);
}

/* An object not met before in this value (already given its target id). */
static bool php_sc_oenc_object(php_sc_oenc *e, zend_object *obj)
{
    zend_class_entry *ce = obj->ce;
    uint32_t count, ndecl = 0, ndyn = 0, i;
    size_t decl_at;

    ZEND_ASSERT(e->ntargets > 0);
    if (UNEXPECTED(e->checked) && (ce->ce_flags & ZEND_ACC_NOT_SERIALIZABLE)) {
        /* Met after user code ran (what a __serialize() returned): what
         * serialize() does there, so that nothing is called twice. */
        zend_throw_exception_ex(NULL, 0, "Serialization of '%s' is not allowed", ZSTR_VAL(ce->name));
        return false;
    }
    if (ce->ce_flags & ZEND_ACC_ENUM) {
        return php_sc_oenc_enum(e, obj);
    }
    if (obj->handlers != &std_object_handlers) {
        return php_sc_oenc_native(e, obj);
    }
    if (!php_sc_ocls_fp(ce)) {
        return false;
    }
#if PHP_VERSION_ID >= 80400
    if (zend_object_is_lazy(obj)) {
        return false;
    }
#endif
    if (UNEXPECTED(php_sc_ocls_user_code(ce))) {
        return php_sc_oenc_magic(e, obj);
    }
    if (UNEXPECTED(ce->__unserialize != NULL)) {
        return php_sc_oenc_props_unser(e, obj);
    }
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
        if (!php_sc_oenc_props(e, obj, count, &ndecl, &ndyn)) {
            return false;
        }
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
        } else if (e->no_shared_refs) {
            return false;
        } else {
            /* As serialize(): a reference to an object counts as the object. */
            const void *key = Z_TYPE_P(inner) == IS_OBJECT ? (const void *) Z_OBJ_P(inner) : (const void *) Z_REF_P(zv);
            zend_long id = php_sc_oenc_memo(e, key);
            if (id >= 0) {
                php_sc_oenc_tag_u32(e, PHP_SC_O_REFTO, (uint32_t) id);
                return true;
            }
            if (UNEXPECTED(e->checked)) {
                php_sc_oenc_keep(e, zv);
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
            if (UNEXPECTED(e->checked)) {
                php_sc_oenc_keep(e, zv);
            }
            return php_sc_oenc_object(e, Z_OBJ_P(zv));
        }
        case IS_RESOURCE:
            /* serialize() writes i:0 (a third-party serializer: its own). */
            if (php_sc_serialized_external()) {
                return false;
            }
            php_sc_oenc_long(e, 0, PHP_SC_T_I8, PHP_SC_T_I32, PHP_SC_T_I64);
            return true;
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

/* Whether the class of the first object in sight (the value, or the first
 * object element of the array) was refused just before: the store gives
 * up at once (php_sc_ocls_skip). *first: that class (or NULL). */
static zend_always_inline bool php_sc_oenc_skip(zval *value, zend_class_entry **first_ce)
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
    *first_ce = first ? Z_OBJCE_P(first) : NULL;
    return first && php_sc_ocls_skip(Z_OBJCE_P(first));
}

/* The head's size: 14 bytes, then per class its kind, name, hash and
 * fingerprint, and for a class (not an enum or a date class) its slots. */
static zend_always_inline size_t php_sc_oenc_head_size(const php_sc_oenc *e)
{
    size_t hlen = 14;
    uint32_t i;

    for (i = 0; i < e->ncls; i++) {
        zend_class_entry *ce = e->cls[i];
        hlen += 5 + ZSTR_LEN(ce->name) + 16;
        if (!(ce->ce_flags & ZEND_ACC_ENUM) && !php_sc_ocls_unser(ce)) {
            hlen += 8 + php_sc_ocls_slot_bytes(ce);
        }
    }
    return hlen;
}

/* Writes class ce's part of the head at p; returns its end. */
static zend_always_inline char *php_sc_oenc_head_class(zend_class_entry *ce, char *p)
{
    bool is_enum = (ce->ce_flags & ZEND_ACC_ENUM) != 0, is_unser = !is_enum && php_sc_ocls_unser(ce);
    uint32_t n, j;

    p[0] = (char) (is_enum ? PHP_SC_OCLS_ENUM : is_unser ? PHP_SC_OCLS_UNSER : PHP_SC_OCLS_CLASS);
    php_sc_store_u32(p + 1, (uint32_t) ZSTR_LEN(ce->name));
    memcpy(p + 5, ZSTR_VAL(ce->name), ZSTR_LEN(ce->name));
    p += 5 + ZSTR_LEN(ce->name);
    php_sc_store_u64(p, (uint64_t) zend_string_hash_val(ce->name));
    php_sc_store_u64(p + 8, php_sc_ocls_fp(ce));
    p += 16;
    if (is_enum || is_unser) {
        return p;
    }
    n = (uint32_t) ce->default_properties_count;
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
    return p;
}

/* Writes the head (php_sc_oenc_head_size bytes) at p; returns its end. */
static zend_always_inline char *php_sc_oenc_head_write(const php_sc_oenc *e, char *p)
{
    uint32_t i;

    p[0] = (char) PHP_SC_OBJ_FORM;
    p[1] = (char) PHP_SC_OBJ_VERSION;
    php_sc_store_u32(p + 2, e->ntargets);
    php_sc_store_u32(p + 6, e->ncls);
    php_sc_store_u32(p + 10, e->max_level);
    p += 14;
    for (i = 0; i < e->ncls; i++) {
        p = php_sc_oenc_head_class(e->cls[i], p);
    }
    return p;
}

/* The walk failed: what it made is dropped; outside a zero-copy layout
 * (whose attempt may fail for room, not the class's doing) the first
 * class is skipped for the next stores and the value counted as refused. */
static void php_sc_oenc_drop(php_sc_oenc *e, bool zc)
{
    if (!zc) {
        if (e->ncls) {
            php_sc_ocls_refused(e->cls[0]);
        }
        php_sc_obj_refused++;
    }
    if (e->buf) {
        efree(e->buf);
    }
    if (e->cls) {
        efree(e->cls);
    }
}

static void php_sc_oenc_start(php_sc_oenc *e, php_sc_obj_zc_hook zc, void *zc_ctx, bool not_plain, bool no_shared_refs)
{
    memset(e, 0, sizeof(*e));
    e->zc = zc;
    e->zc_ctx = zc_ctx;
    e->not_plain = not_plain;
    e->no_shared_refs = no_shared_refs;
    zend_hash_init(&e->memo, 8, NULL, NULL, 0);
}

/* What the walk kept alive, released (serialize()'s table, destroyed). */
static void php_sc_oenc_unkeep(php_sc_oenc *e)
{
    uint32_t i;

    for (i = 0; i < e->nkept; i++) {
        zval_ptr_dtor(&e->kept[i]);
    }
    if (e->kept) {
        efree(e->kept);
    }
    e->kept = NULL;
    e->nkept = e->keptcap = 0;
}

/* Drops what a walk wrote and starts e afresh with the same settings. */
static void php_sc_oenc_restart(php_sc_oenc *e, php_sc_obj_zc_hook zc, void *zc_ctx, bool not_plain,
                                bool no_shared_refs)
{
    zend_hash_destroy(&e->memo);
    if (e->buf) {
        efree(e->buf);
    }
    if (e->cls) {
        efree(e->cls);
    }
    php_sc_oenc_start(e, zc, zc_ctx, not_plain, no_shared_refs);
}

/* The walk met an object that runs user code when stored, before any ran:
 * a dry walk (calling none) checks the rest, then the real walk calls
 * them. Failing after they ran (what __serialize() returned is not taken,
 * or an exception: serialize()'s exception, the store fails). */
static bool php_sc_oenc_again(php_sc_oenc *e, zval *value, bool not_plain)
{
    php_sc_obj_zc_hook zc = e->zc;
    void *zc_ctx = e->zc_ctx;
    bool no_shared_refs = e->no_shared_refs, ok;

    ZEND_ASSERT(!zc && !e->dry && !e->checked);   /* php_sc_oenc_magic restarts only these */
    php_sc_oenc_restart(e, zc, zc_ctx, not_plain, no_shared_refs);
    e->dry = true;
    ok = php_sc_oenc_value(e, value);
    if (!ok) {
        return false;
    }
    php_sc_oenc_restart(e, zc, zc_ctx, not_plain, no_shared_refs);
    e->checked = true;
    return php_sc_oenc_value(e, value);
}

static bool php_sc_obj_encode_impl(zval *value, php_sc_encoded *out, php_sc_obj_zc_hook zc, void *zc_ctx, uint32_t *nzc,
                                   bool not_plain)
{
    php_sc_oenc e;
    size_t hlen;
    bool ok;
    char *data, *p;
    php_sc_obj_form_use use = php_sc_serialized_obj_form_use();
    zend_class_entry *first;

    if (use == PHP_SC_OBJ_FORM_NONE) {
        return false;
    }
    /* serialize() rounds floats to serialize_precision digits. */
    if (PG(serialize_precision) != -1 && PG(serialize_precision) < 17) {
        return false;
    }
    if (php_sc_oenc_skip(value, &first)) {
        if (!zc) {
            php_sc_obj_refused++;
        }
        return false;
    }
    php_sc_oenc_start(&e, zc, zc_ctx, not_plain, use == PHP_SC_OBJ_FORM_NO_SHARED_REFS);
    if (first && !zc && use != PHP_SC_OBJ_FORM_NO_SHARED_REFS && php_sc_ocls_fp(first) && php_sc_ocls_user_code(first)) {
        /* The first object runs user code: straight to the dry walk. */
        ok = false;
        e.restart = true;
    } else {
        ok = php_sc_oenc_value(&e, value);
    }
    if (!ok && e.restart) {
        ok = php_sc_oenc_again(&e, value, not_plain);
    }
    php_sc_oenc_unkeep(&e);
    zend_hash_destroy(&e.memo);
    if (!ok) {
        php_sc_oenc_drop(&e, zc != NULL);
        return false;
    }
    ZEND_ASSERT(e.buf && e.level == 0 && e.depth == 0);   /* a whole value, every level closed */

    /* The head (its size first, then written in place before the body). */
    hlen = php_sc_oenc_head_size(&e);
    data = emalloc(hlen + e.len);
    p = php_sc_oenc_head_write(&e, data);
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
