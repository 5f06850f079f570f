/*
 * php/otext.c - the object form through unserialize() (php/otext.h): the
 * serialize() text of the stored graph, made from the bytes, handed to
 * unserialize(), which autoloads, calls unserialize_callback_func, gives
 * __PHP_Incomplete_Class, maps changed properties and raises exactly what
 * unserialize() raises. The fetch takes this path when the native decode
 * (php/odec.c) cannot build the value (php/object.c says when).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "zend_smart_str.h"
#include "ext/standard/php_var.h"
#include "ext/standard/basic_functions.h"
#include "otext.h"
#include "plain_dec.h"
#include "serialized.h"

#if defined(ZTS) && defined(COMPILE_DL_SHARDCACHE)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

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

/* The mangled name of declared slot idx of class c (text path). */
static bool php_sc_ocls_slot_name(const php_sc_ocls_in *c, uint32_t idx, const unsigned char *end, const char **name,
                                  uint32_t *len)
{
    const unsigned char *p = c->slots;
    uint32_t i, n;

    if (idx >= c->nslots) {
        return false;
    }
    /* Each slot's name in turn, up to slot idx (bounded by end). */
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

static void php_sc_otext_long(smart_str *s, zend_long v)
{
    smart_str_appendl(s, "i:", 2);
    smart_str_append_long(s, v);
    smart_str_appendc(s, ';');
}

/* A float: every digit (serialize() at serialize_precision -1). */
static bool php_sc_otext_double(php_sc_otext *x)
{
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
    return true;
}

/* The scalar tags: null, false, true, the ints, a float, a string. */
static bool php_sc_otext_scalar(php_sc_otext *x, uint8_t tag)
{
    uint32_t v;

    switch (tag) {
        case PHP_SC_T_NULL:
            smart_str_appendl(&x->s, "N;", 2);
            return true;
        case PHP_SC_T_FALSE:
            smart_str_appendl(&x->s, "b:0;", 4);
            return true;
        case PHP_SC_T_TRUE:
            smart_str_appendl(&x->s, "b:1;", 4);
            return true;
        case PHP_SC_T_I8:
            if (PHP_SC_OLEFT(x->p, x->end) < 1) {
                return false;
            }
            php_sc_otext_long(&x->s, (zend_long) (int8_t) *x->p++);
            return true;
        case PHP_SC_T_I32:
            if (!php_sc_otext_u32(x, &v)) {
                return false;
            }
            php_sc_otext_long(&x->s, (zend_long) (int32_t) v);
            return true;
        case PHP_SC_T_I64:
            if (PHP_SC_OLEFT(x->p, x->end) < 8) {
                return false;
            }
            php_sc_otext_long(&x->s, (zend_long) (int64_t) php_sc_load_u64(x->p));
            x->p += 8;
            return true;
        case PHP_SC_T_DOUBLE:
            return php_sc_otext_double(x);
        case PHP_SC_T_STR32:
            if (!php_sc_otext_u32(x, &v) || PHP_SC_OLEFT(x->p, x->end) < v) {
                return false;
            }
            php_sc_otext_str(&x->s, (const char *) x->p, v);
            x->p += v;
            return true;
        default:
            return false;
    }
}

/* PHP_SC_O_PLAIN, PHP_SC_O_ZARR: the array decoded, then serialize()d. */
static bool php_sc_otext_plain(php_sc_otext *x, uint8_t tag)
{
    zval tmp;
    php_serialize_data_t vh;
    zend_long precision = PG(serialize_precision);
    uint32_t v;

    if (tag == PHP_SC_O_PLAIN ? php_sc_plain_decode_at(&x->p, x->end, &tmp) != SUCCESS
                              : !php_sc_otext_u32(x, &v) || !php_sc_ohead_zarr(x->h, v, &tmp)) {
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
    return true;
}

/* PHP_SC_O_LIST, PHP_SC_O_HASH. */
static bool php_sc_otext_array(php_sc_otext *x, uint8_t tag)
{
    uint32_t v, i;

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
    return true;
}

/* The class index after an object's tag: a class of the head of that
 * kind, the object a target; false otherwise. */
static bool php_sc_otext_class(php_sc_otext *x, uint8_t kind, php_sc_ocls_in **c)
{
    uint32_t v;

    if (!php_sc_otext_u32(x, &v) || v >= x->h->ncls || x->h->cls[v].kind != kind || !php_sc_otext_target(x)) {
        return false;
    }
    *c = &x->h->cls[v];
    return true;
}

/* O:<name length>:"<name>":<count>:{ */
static void php_sc_otext_object_open(php_sc_otext *x, const php_sc_ocls_in *c, size_t count)
{
    smart_str_appendl(&x->s, "O:", 2);
    smart_str_append_unsigned(&x->s, c->name_len);
    smart_str_appendl(&x->s, ":\"", 2);
    smart_str_appendl(&x->s, c->name, c->name_len);
    smart_str_appendl(&x->s, "\":", 2);
    smart_str_append_unsigned(&x->s, count);
    smart_str_appendl(&x->s, ":{", 2);
}

/* PHP_SC_O_OBJ: declared slots by their mangled names, then dynamic
 * properties. */
static bool php_sc_otext_object(php_sc_otext *x)
{
    php_sc_ocls_in *c;
    uint32_t ndecl, ndyn, v, i;

    if (!php_sc_otext_class(x, PHP_SC_OCLS_CLASS, &c) || !php_sc_otext_u32(x, &ndecl) || !php_sc_otext_u32(x, &ndyn)) {
        return false;
    }
    php_sc_otext_object_open(x, c, (size_t) ndecl + ndyn);
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
        if (PHP_SC_OLEFT(x->p, x->end) < 1 || *x->p != PHP_SC_O_KSTR || !php_sc_otext_key(x) || !php_sc_otext_value(x)) {
            return false;
        }
    }
    smart_str_appendc(&x->s, '}');
    return true;
}

/* PHP_SC_O_UOBJ: the array for __unserialize(), as serialize() writes an
 * object with __serialize(). */
static bool php_sc_otext_uobj(php_sc_otext *x)
{
    php_sc_ocls_in *c;
    uint32_t n, i;

    if (!php_sc_otext_class(x, PHP_SC_OCLS_UNSER, &c) || !php_sc_otext_u32(x, &n) || n > PHP_SC_OLEFT(x->p, x->end)) {
        return false;
    }
    php_sc_otext_object_open(x, c, n);
    for (i = 0; i < n; i++) {
        if (!php_sc_otext_key(x) || !php_sc_otext_value(x)) {
            return false;
        }
    }
    smart_str_appendc(&x->s, '}');
    return true;
}

/* PHP_SC_O_SOBJ: the properties __sleep() named, in its order: declared
 * slots by their mangled names, dynamic ones by theirs. */
static bool php_sc_otext_sobj(php_sc_otext *x)
{
    php_sc_ocls_in *c;
    uint32_t n, v, i, len;
    const char *name;

    if (!php_sc_otext_class(x, PHP_SC_OCLS_CLASS, &c) || !php_sc_otext_u32(x, &n) || n > PHP_SC_OLEFT(x->p, x->end)) {
        return false;
    }
    php_sc_otext_object_open(x, c, n);
    for (i = 0; i < n; i++) {
        if (!php_sc_otext_u32(x, &v)) {
            return false;
        }
        if (v != PHP_SC_OBJ_NOSLOT) {
            if (!php_sc_ocls_slot_name(c, v, x->end, &name, &len)) {
                return false;
            }
        } else {
            if (!php_sc_otext_u32(x, &len) || PHP_SC_OLEFT(x->p, x->end) < len) {
                return false;
            }
            name = (const char *) x->p;
            x->p += len;
        }
        php_sc_otext_str(&x->s, name, len);
        if (!php_sc_otext_value(x)) {
            return false;
        }
    }
    smart_str_appendc(&x->s, '}');
    return true;
}

/* PHP_SC_O_ENUM: E:<length>:"<class>:<case>"; */
static bool php_sc_otext_enum(php_sc_otext *x)
{
    php_sc_ocls_in *c;
    uint32_t len;

    if (!php_sc_otext_class(x, PHP_SC_OCLS_ENUM, &c) || !php_sc_otext_u32(x, &len) || PHP_SC_OLEFT(x->p, x->end) < len) {
        return false;
    }
    smart_str_appendl(&x->s, "E:", 2);
    smart_str_append_unsigned(&x->s, (size_t) c->name_len + 1 + len);
    smart_str_appendl(&x->s, ":\"", 2);
    smart_str_appendl(&x->s, c->name, c->name_len);
    smart_str_appendc(&x->s, ':');
    smart_str_appendl(&x->s, (const char *) x->p, len);
    smart_str_appendl(&x->s, "\";", 2);
    x->p += len;
    return true;
}

/* PHP_SC_O_OBJREF, PHP_SC_O_REFTO: r: or R: and the target's number. */
static bool php_sc_otext_ref(php_sc_otext *x, uint8_t tag)
{
    uint32_t v;

    if (!php_sc_otext_u32(x, &v) || v >= x->nt) {
        return false;
    }
    smart_str_appendl(&x->s, tag == PHP_SC_O_OBJREF ? "r:" : "R:", 2);
    smart_str_append_unsigned(&x->s, x->tn[v]);
    smart_str_appendc(&x->s, ';');
    return true;
}

/* PHP_SC_O_TARGET: the value that follows is a target, numbered as the
 * value it is (never a second mark or a reference). */
static bool php_sc_otext_marked(php_sc_otext *x)
{
    bool ok;

    if (x->p >= x->end || *x->p == PHP_SC_O_TARGET || *x->p == PHP_SC_O_REFTO) {
        return false;
    }
    x->n++;
    ok = php_sc_otext_target(x);
    x->n--;   /* the value that follows counts itself */
    return ok && php_sc_otext_value(x);
}

/* One value's text; x->n counts it (serialize()'s numbering of values, which
 * r: and R: name), except a reference, which serialize() does not count. */
static bool php_sc_otext_value(php_sc_otext *x)
{
    uint8_t tag;
    bool ok;

    if (x->p >= x->end || ++x->depth > PHP_SC_VALUE_MAX_DEPTH * 2) {
        return false;
    }
    tag = *x->p++;
    if (tag == PHP_SC_O_TARGET) {
        x->depth--;
        return php_sc_otext_marked(x);
    }
    if (tag != PHP_SC_O_REFTO) {
        x->n++;
    }
    switch (tag) {
        case PHP_SC_O_PLAIN:
        case PHP_SC_O_ZARR:
            ok = php_sc_otext_plain(x, tag);
            break;
        case PHP_SC_O_LIST:
        case PHP_SC_O_HASH:
            ok = php_sc_otext_array(x, tag);
            break;
        case PHP_SC_O_OBJ:
            ok = php_sc_otext_object(x);
            break;
        case PHP_SC_O_UOBJ:
            ok = php_sc_otext_uobj(x);
            break;
        case PHP_SC_O_SOBJ:
            ok = php_sc_otext_sobj(x);
            break;
        case PHP_SC_O_ENUM:
            ok = php_sc_otext_enum(x);
            break;
        case PHP_SC_O_OBJREF:
        case PHP_SC_O_REFTO:
            ok = php_sc_otext_ref(x, tag);
            break;
        default:
            ok = php_sc_otext_scalar(x, tag);
            break;
    }
    if (!ok) {
        return false;
    }
    x->depth--;
    return true;
}

zend_result php_sc_otext_decode(php_sc_ohead *h, zval *out)
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
