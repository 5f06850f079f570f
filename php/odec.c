/*
 * php/odec.c - the object form's decoder (php/odec.h): reads the head,
 * finds the classes, and builds the value natively, running no user code
 * until it is built; then the __unserialize() and __wakeup() calls that
 * unserialize() delays, in its order (php_sc_odec_calls); when
 * it cannot (a class not loaded or changed, ...: php/object.c), the value
 * comes through unserialize() instead (php/otext.c).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_interfaces.h"
#include "zend_exceptions.h"
#include "ext/standard/basic_functions.h"
#include "odec.h"
#include "debug.h"
#include "ocls.h"
#include "object.h"
#include "odate.h"
#include "otext.h"
#include "plain_dec.h"
#include "serialized.h"

#if defined(ZTS) && defined(COMPILE_DL_SHARDCACHE)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

/* ---- the head ------------------------------------------------------------- */

/* Reads the head; false: malformed (nothing to free). h->cls is local (up
 * to PHP_SC_OHEAD_LOCAL classes) or emalloc'd (the caller frees it when it
 * is not local). */
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

/* ---- native decode ---------------------------------------------------------- */

typedef struct php_sc_otarget {
    zval *zv;                   /* where the target was decoded */
    zend_property_info *info;   /* the typed property that slot is, or NULL */
} php_sc_otarget;

#define PHP_SC_OKEYS 8

/* A call unserialize() delays to the end (var_push_dtor's
 * VAR_UNSERIALIZE_FLAG, VAR_WAKEUP_FLAG): the object (held) and, for
 * __unserialize(), its array; __wakeup() when data is undef. */
typedef struct php_sc_ocall {
    zend_object *obj;
    zval data;
} php_sc_ocall;

typedef struct php_sc_odec {
    const unsigned char *p, *end;
    php_sc_ohead *h;
    php_sc_otarget *t;
    uint32_t nt;
    zend_object **made;         /* objects created, for the failure path */
    uint32_t nmade;
    uint32_t depth;
    php_sc_ocall *calls;        /* delayed calls, in the order unserialize() makes them */
    uint32_t ncalls, callcap;
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

/* Delays obj's __unserialize(data) (data moved in) or, data NULL, its
 * __wakeup(), as unserialize() does once the object's data is read. */
static zend_never_inline void php_sc_odec_delay(php_sc_odec *d, zend_object *obj, zval *data)
{
    php_sc_ocall *c;

    if (d->ncalls == d->callcap) {
        d->callcap = d->callcap ? d->callcap * 2 : 8;
        d->calls = safe_erealloc(d->calls, d->callcap, sizeof(php_sc_ocall), 0);
    }
    c = &d->calls[d->ncalls++];
    GC_ADDREF(obj);
    c->obj = obj;
    if (data) {
        ZVAL_COPY_VALUE(&c->data, data);
        ZVAL_UNDEF(data);
    } else {
        ZVAL_UNDEF(&c->data);
    }
}

/* The delayed calls, made (run: the value is built) or dropped, as
 * unserialize()'s var_destroy: in order, each object released after its
 * call; after one fails (an exception), the rest are not called and
 * their objects get no destructor call. */
static void php_sc_odec_calls(php_sc_odec *d, bool run)
{
    bool failed = !run;
    uint32_t i;

    for (i = 0; i < d->ncalls; i++) {
        php_sc_ocall *c = &d->calls[i];
        zend_object *obj = c->obj;
        if (failed) {
            GC_ADD_FLAGS(obj, IS_OBJ_DESTRUCTOR_CALLED);
        } else if (Z_ISUNDEF(c->data)) {
            zend_function *fn = zend_hash_find_ptr(&obj->ce->function_table, ZSTR_KNOWN(ZEND_STR_WAKEUP));
            zval retval;
            ZVAL_UNDEF(&retval);
            BG(serialize_lock)++;
            if (fn) {
                zend_call_known_instance_method(fn, obj, &retval, 0, NULL);
            }
            if (!fn || Z_ISUNDEF(retval)) {
                failed = true;
                GC_ADD_FLAGS(obj, IS_OBJ_DESTRUCTOR_CALLED);
            }
            BG(serialize_lock)--;
            zval_ptr_dtor(&retval);
        } else {
            zval param;
            ZVAL_COPY(&param, &c->data);
            BG(serialize_lock)++;
            zend_call_known_instance_method_with_1_params(obj->ce->__unserialize, obj, NULL, &param);
            if (EG(exception)) {
                failed = true;
                GC_ADD_FLAGS(obj, IS_OBJ_DESTRUCTOR_CALLED);
            }
            BG(serialize_lock)--;
            zval_ptr_dtor(&param);
        }
        OBJ_RELEASE(obj);
        zval_ptr_dtor(&c->data);
    }
    d->ncalls = 0;
}

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
    ZEND_ASSERT(ht->nTableSize >= n);
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

/* The ndyn dynamic properties of obj, (key, value) each. */
static zend_always_inline bool php_sc_odec_dyn(php_sc_odec *d, zend_object *obj, uint32_t ndyn)
{
    HashTable *props;
    uint32_t i;

    if (!(obj->ce->ce_flags & ZEND_ACC_ALLOW_DYNAMIC_PROPERTIES) || ndyn > PHP_SC_OLEFT(d->p, d->end)) {
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
    return true;
}

/* A declared property's value into slot (NULL before); pi its property,
 * whose type, if it has one, a reference there takes as a source. */
static zend_always_inline bool php_sc_odec_typed(php_sc_odec *d, zval *slot, zend_property_info *pi)
{
    if (!ZEND_TYPE_IS_SET(pi->type)) {
        pi = NULL;
    }
    if (!php_sc_odec_value(d, slot, pi)) {
        return false;
    }
    if (pi && Z_ISREF_P(slot)) {
        ZEND_REF_ADD_TYPE_SOURCE(Z_REF_P(slot), pi);
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
    ZEND_ASSERT(d->nmade < d->nt);   /* at most one per target */
    d->made[d->nmade++] = obj;
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
        if (!php_sc_odec_typed(d, slot, pi)) {
            return false;
        }
    }
    if (ndyn && !php_sc_odec_dyn(d, obj, ndyn)) {
        return false;
    }
    if (UNEXPECTED(c->wakeup)) {
        php_sc_odec_delay(d, obj, NULL);
    }
    d->depth--;
    return true;
}

/* A failing decode drops data, built in part: the objects made so far get
 * no destructor call (php_sc_odec_native drops the rest so). */
static void php_sc_odec_drop_tmp(php_sc_odec *d, zval *data)
{
    uint32_t i;

    for (i = 0; i < d->nmade; i++) {
        GC_ADD_FLAGS(d->made[i], IS_OBJ_DESTRUCTOR_CALLED);
    }
    zval_ptr_dtor(data);
    ZVAL_NULL(data);
}

/* The class index at d->p (of the given kind), one level deeper, and a new
 * object of that class made without its constructor at out (a target,
 * counted as made); NULL when the bytes or the depth say no. */
static zend_always_inline zend_object *php_sc_odec_new_object(php_sc_odec *d, zval *out, zend_property_info *info,
                                                              uint8_t kind, php_sc_ocls_in **cls)
{
    uint32_t cidx;
    php_sc_ocls_in *c;
    zend_object *obj;

    if (!php_sc_odec_u32(d, &cidx) || cidx >= d->h->ncls) {
        return NULL;
    }
    c = &d->h->cls[cidx];
    if (c->kind != kind || ++d->depth > PHP_SC_VALUE_MAX_DEPTH) {
        return NULL;
    }
    if (!php_sc_odec_push(d, out, info) || object_init_ex(out, c->ce) != SUCCESS) {
        return NULL;
    }
    obj = Z_OBJ_P(out);
    ZEND_ASSERT(d->nmade < d->nt);   /* at most one per target */
    d->made[d->nmade++] = obj;
    *cls = c;
    return obj;
}

/* A date class's __unserialize(data) made at once (data released); an
 * exception (bytes a date does not take) fails the native build, and the
 * text path gives what unserialize() gives. */
static zend_never_inline bool php_sc_odec_date_now(php_sc_odec *d, php_sc_ocls_in *c, zend_object *obj, zval *data)
{
    bool ok = true;
    php_sc_odate_ref ref;

    /* The state an equal array built earlier this request, copied; else
     * the call. */
    if (!php_sc_odate_copy(obj, Z_ARRVAL_P(data), &ref)) {
        zend_call_known_instance_method_with_1_params(c->ce->__unserialize, obj, NULL, data);
        if (UNEXPECTED(EG(exception))) {
            zend_clear_exception();
            ok = false;
        } else {
            php_sc_odate_keep(obj, &ref);
        }
    }
    zval_ptr_dtor(data);
    d->depth--;
    return ok;
}

/* PHP_SC_O_UOBJ: the object made without its constructor, its array read
 * and its __unserialize() call delayed, as unserialize() does. A date
 * class's value that is not a scalar: false (the text path gives what
 * unserialize() gives). */
static zend_never_inline bool php_sc_odec_unser(php_sc_odec *d, zval *out, zend_property_info *info)
{
    php_sc_ocls_in *c;
    zend_object *obj = php_sc_odec_new_object(d, out, info, PHP_SC_OCLS_UNSER, &c);
    zval data, *val;

    if (!obj) {
        return false;
    }
    ZVAL_NULL(&data);
    if (!php_sc_odec_array(d, &data, false)) {
        php_sc_odec_drop_tmp(d, &data);
        return false;
    }
    if (Z_TYPE(data) != IS_ARRAY) {
        return false;
    }
    if (php_sc_ocls_date(c->ce)) {
        ZEND_HASH_FOREACH_VAL(Z_ARRVAL(data), val) {
            if (Z_TYPE_P(val) > IS_STRING) {
                php_sc_odec_drop_tmp(d, &data);
                return false;
            }
        } ZEND_HASH_FOREACH_END();
        /* No user call delayed yet: none can see this object before its
         * call in either order, and the date classes' own __unserialize
         * runs no user code, so it runs now (its array freed at once). */
        if (d->ncalls == 0) {
            return php_sc_odec_date_now(d, c, obj, &data);
        }
    }
    php_sc_odec_delay(d, obj, &data);
    d->depth--;
    return true;
}

/* One property of PHP_SC_O_SOBJ: declared slot idx, or (PHP_SC_OBJ_NOSLOT)
 * a dynamic property by name, and its value. */
static bool php_sc_odec_sprop(php_sc_odec *d, zend_object *obj)
{
    zend_class_entry *ce = obj->ce;
    zend_property_info *pi;
    uint32_t idx, len;
    zend_string *key;
    zval *slot;

    if (!php_sc_odec_u32(d, &idx)) {
        return false;
    }
    if (idx != PHP_SC_OBJ_NOSLOT) {
        if (idx >= (uint32_t) ce->default_properties_count || (pi = ce->properties_info_table[idx]) == NULL) {
            return false;
        }
        slot = OBJ_PROP_NUM(obj, idx);
        if (Z_REFCOUNTED_P(slot)) {
            zval_ptr_dtor(slot);
        }
        ZVAL_NULL(slot);
        if (!php_sc_odec_typed(d, slot, pi)) {
            return false;
        }
        return true;
    }
    if (!(ce->ce_flags & ZEND_ACC_ALLOW_DYNAMIC_PROPERTIES) || !php_sc_odec_u32(d, &len)
        || PHP_SC_OLEFT(d->p, d->end) < len) {
        return false;
    }
    key = zend_string_init((const char *) d->p, len, 0);
    d->p += len;
    /* (a name a declared property has: unserialize() maps it; the text path) */
    slot = zend_hash_find(&ce->properties_info, key) ? NULL : zend_hash_add(zend_std_get_properties(obj), key, &EG(uninitialized_zval));
    zend_string_release(key);
    return slot && php_sc_odec_value(d, slot, NULL);
}

/* PHP_SC_O_SOBJ: an object of a class with __sleep(), the properties it
 * named; its __wakeup() delayed, as unserialize() does. */
static zend_never_inline bool php_sc_odec_sobj(php_sc_odec *d, zval *out, zend_property_info *info)
{
    uint32_t n, i;
    php_sc_ocls_in *c;
    zend_object *obj = php_sc_odec_new_object(d, out, info, PHP_SC_OCLS_CLASS, &c);

    if (!obj) {
        return false;
    }
    if (!php_sc_odec_u32(d, &n) || n > PHP_SC_OLEFT(d->p, d->end)) {
        return false;
    }
    for (i = 0; i < n; i++) {
        if (!php_sc_odec_sprop(d, obj)) {
            return false;
        }
    }
    if (c->wakeup) {
        php_sc_odec_delay(d, obj, NULL);
    }
    d->depth--;
    return true;
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

/* ---- one value ------------------------------------------------------------ */

static zend_always_inline bool php_sc_odec_i8(php_sc_odec *d, zval *out)
{
    if (PHP_SC_OLEFT(d->p, d->end) < 1) {
        return false;
    }
    ZVAL_LONG(out, (zend_long) (int8_t) *d->p);
    d->p++;
    return true;
}

static zend_always_inline bool php_sc_odec_i64(php_sc_odec *d, zval *out)
{
    if (PHP_SC_OLEFT(d->p, d->end) < 8) {
        return false;
    }
    ZVAL_LONG(out, (zend_long) (int64_t) php_sc_load_u64(d->p));
    d->p += 8;
    return true;
}

static zend_always_inline bool php_sc_odec_double(php_sc_odec *d, zval *out)
{
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

static zend_always_inline bool php_sc_odec_str(php_sc_odec *d, zval *out)
{
    uint32_t n;

    if (!php_sc_odec_u32(d, &n) || PHP_SC_OLEFT(d->p, d->end) < n) {
        return false;
    }
    ZVAL_STR(out, zend_string_init_fast((const char *) d->p, n));
    d->p += n;
    return true;
}

/* PHP_SC_O_LIST, PHP_SC_O_HASH: one level deeper. */
static zend_always_inline bool php_sc_odec_nested(php_sc_odec *d, zval *out, bool list)
{
    bool ok;

    if (++d->depth > PHP_SC_VALUE_MAX_DEPTH) {
        return false;
    }
    ok = php_sc_odec_array(d, out, list);
    d->depth--;
    return ok;
}

/* PHP_SC_O_OBJREF: the object of an earlier target again. */
static zend_always_inline bool php_sc_odec_objref(php_sc_odec *d, zval *out)
{
    uint32_t n;
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

/* PHP_SC_O_REFTO: a PHP reference to an earlier target, made a reference
 * (typed by the property it sits in) the first time. */
static zend_always_inline bool php_sc_odec_refto(php_sc_odec *d, zval *out)
{
    uint32_t n;
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

/* PHP_SC_O_TARGET: the value that follows is a target (never a second
 * mark, a reference, or an object or enum case, which are targets of
 * their own). */
static zend_always_inline bool php_sc_odec_target(php_sc_odec *d, zval *out, zend_property_info *info)
{
    if (d->p < d->end && (*d->p == PHP_SC_O_TARGET || *d->p == PHP_SC_O_REFTO || *d->p == PHP_SC_O_OBJ
                          || *d->p == PHP_SC_O_ENUM || *d->p == PHP_SC_O_OBJREF || *d->p == PHP_SC_O_UOBJ
                          || *d->p == PHP_SC_O_SOBJ)) {
        return false;
    }
    return php_sc_odec_push(d, out, info) && php_sc_odec_value(d, out, info);
}

/* One value into out; info: the typed property out is, or NULL. */
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
            return php_sc_odec_i8(d, out);
        case PHP_SC_T_I32:
            if (!php_sc_odec_u32(d, &n)) {
                return false;
            }
            ZVAL_LONG(out, (zend_long) (int32_t) n);
            return true;
        case PHP_SC_T_I64:
            return php_sc_odec_i64(d, out);
        case PHP_SC_T_DOUBLE:
            return php_sc_odec_double(d, out);
        case PHP_SC_T_STR32:
            return php_sc_odec_str(d, out);
        case PHP_SC_O_PLAIN:
            return php_sc_plain_decode_at(&d->p, d->end, out) == SUCCESS;
        case PHP_SC_O_ZARR:
            return php_sc_odec_u32(d, &n) && php_sc_ohead_zarr(d->h, n, out);
        case PHP_SC_O_LIST:
        case PHP_SC_O_HASH:
            return php_sc_odec_nested(d, out, tag == PHP_SC_O_LIST);
        case PHP_SC_O_OBJ:
            return php_sc_odec_object(d, out, info);
        case PHP_SC_O_ENUM:
            return php_sc_odec_enum(d, out, info);
        case PHP_SC_O_UOBJ:
            return php_sc_odec_unser(d, out, info);
        case PHP_SC_O_SOBJ:
            return php_sc_odec_sobj(d, out, info);
        case PHP_SC_O_OBJREF:
            return php_sc_odec_objref(d, out);
        case PHP_SC_O_REFTO:
            return php_sc_odec_refto(d, out);
        case PHP_SC_O_TARGET:
            return php_sc_odec_target(d, out, info);
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
        c->wakeup = c->kind == PHP_SC_OCLS_CLASS
                    && zend_hash_exists(&c->ce->function_table, ZSTR_KNOWN(ZEND_STR_WAKEUP));
    }
    d.p = h->body;
    d.end = h->end;
    d.h = h;
    d.nt = 0;
    d.nmade = 0;
    d.depth = 0;
    d.kmask = 0;
    d.calls = NULL;
    d.ncalls = d.callcap = 0;
    d.t = h->ntargets <= 16 ? tbuf : safe_emalloc(h->ntargets, sizeof(php_sc_otarget), 0);
    d.made = h->ntargets <= 16 ? mbuf : safe_emalloc(h->ntargets, sizeof(zend_object *), 0);
    ZVAL_NULL(out);
    ok = php_sc_odec_value(&d, out, NULL) && d.p == d.end;
    if (!ok) {
        /* Nothing of it was seen: drop it without running a destructor. */
        for (i = 0; i < d.nmade; i++) {
            GC_ADD_FLAGS(d.made[i], IS_OBJ_DESTRUCTOR_CALLED);
        }
        php_sc_odec_calls(&d, false);
        zval_ptr_dtor(out);
        ZVAL_NULL(out);
    } else if (d.ncalls) {
        /* Built: the delayed calls, the first user code this fetch runs. */
        php_sc_odec_calls(&d, true);
    }
    if (d.calls) {
        efree(d.calls);
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

zend_result php_sc_obj_decode(const char *data, size_t len, zval *out)
{
    return php_sc_obj_decode_zc(data, len, out, NULL, 0, false);
}

zend_result php_sc_obj_decode_zc(const char *data, size_t len, zval *out, const char *zc_hdr, size_t zc_len, bool borrow)
{
    php_sc_ocls_in local[PHP_SC_OHEAD_LOCAL];
    php_sc_ohead h;
    zend_result rc;

    ZEND_ASSERT(!borrow || (zc_hdr && SCG(zc_holding)));   /* arrays in place: the request holds them */
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
        /* An exception thrown by a delayed call fails the fetch, as it
         * fails unserialize() there. */
        return php_sc_serialized_finish(out);
    }
    php_sc_obj_text++;
    rc = php_sc_otext_decode(&h, out);
    if (h.cls != local) {
        efree(h.cls);
    }
    return rc;
}
