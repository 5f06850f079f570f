/*
 * php/ocls.h - the object form's classes (php/ocls.c): which classes the
 * form takes and their fingerprints, the properties a __sleep() selects,
 * the classes a stored value names,
 * looked up without autoloading (both cached per thread for the request),
 * and the head of object-form bytes (its class table) as the two readers,
 * php/odec.c and php/otext.c, share it. The form: php/object.c.
 */
#ifndef SHARDCACHE_OCLS_H
#define SHARDCACHE_OCLS_H

#include "php.h"
#include "php_shardcache.h"
#include "value_fmt.h"
#include "zc_copy.h"

/* Per thread, for this request (classes are never freed inside one; the
 * tables are emptied at its end: php_sc_ocls_request_end): fingerprints by
 * class, classes by name (SCG(obj_fps), SCG(obj_names), of this many
 * slots each, direct-mapped). */
#define PHP_SC_OCLS_SLOTS 32

/* The internal classes the form keeps, with their user subclasses, as the
 * array their __serialize() returns, rebuilt by __unserialize() with it:
 * DateTimeImmutable, DateTime, DateTimeZone (php_sc_ocls_date), DateInterval, DatePeriod, ArrayObject,
 * ArrayIterator, RecursiveArrayIterator, SplObjectStorage,
 * SplDoublyLinkedList, SplQueue, SplStack and SplFixedArray. Their own
 * __serialize() runs no user code (it reads their state and properties);
 * unserialize() makes each of them with object_init_ex() and hands that
 * array to __unserialize(), which the fetch does too. Set by
 * php_sc_ocls_minit. */
#define PHP_SC_OCLS_NATIVE 13
extern zend_class_entry *php_sc_ocls_native_ces[PHP_SC_OCLS_NATIVE];
/* php_sc_ocls_native_ces below this index: the three date classes of
 * php_sc_ocls_date; from this index on: the SPL collections. */
#define PHP_SC_OCLS_DATE_END 3
#define PHP_SC_OCLS_SPL_FIRST 5

/* The first class of ce's chain that is neither a user class nor
 * stdClass; NULL: none (a user class, or one extending stdClass). */
static zend_always_inline const zend_class_entry *php_sc_ocls_internal_root(const zend_class_entry *ce)
{
    while (ce && (ce->type == ZEND_USER_CLASS || ce == zend_standard_class_def)) {
        ce = ce->parent;
    }
    return ce;
}

/* MINIT (ext/date starts before any shared extension): the date classes. */
void php_sc_ocls_minit(void);
/* Request end: forgets the classes looked up this request. */
void php_sc_ocls_request_end(void);

/* DateTimeImmutable and DateTime themselves (not their subclasses): the
 * classes of php_sc_ocls_native_ces whose state is a timelib_time. */
static zend_always_inline bool php_sc_ocls_datetime(const zend_class_entry *ce)
{
    return ce == php_sc_ocls_native_ces[0] || ce == php_sc_ocls_native_ces[1];
}

/* The internal classes whose instances the form keeps as the array their
 * __serialize() returns: DateTime, DateTimeImmutable and DateTimeZone
 * themselves (not their subclasses), whose state is that array of scalars
 * and whose __serialize() and __unserialize() run no user code. */
static zend_always_inline bool php_sc_ocls_date(const zend_class_entry *ce)
{
    return ce->type == ZEND_INTERNAL_CLASS
           && (php_sc_ocls_datetime(ce) || ce == php_sc_ocls_native_ces[2]);
}

/* Classes whose instances the form keeps as an array handed at fetch to
 * __unserialize(), called when the whole value is built, as unserialize()
 * rebuilds them: the internal classes of php_sc_ocls_native_ces and their
 * subclasses, user classes with __serialize() and __unserialize(), and
 * user classes with __unserialize() alone (their properties). Only for a
 * class the form takes (php_sc_ocls_fp not 0): all of those with an
 * __unserialize() are such classes. */
static zend_always_inline bool php_sc_ocls_unser(const zend_class_entry *ce)
{
    return ce->__unserialize != NULL;
}

/* Whether ce is an SPL collection of php_sc_ocls_native_ces or a user
 * subclass of one. */
bool php_sc_ocls_spl(const zend_class_entry *ce);

/* Whether storing an instance of ce (a class the form takes) runs user
 * code: its __serialize() when that is a user function, else its __sleep()
 * (which serialize() ignores when there is a __serialize()). */
static zend_always_inline bool php_sc_ocls_user_code(const zend_class_entry *ce)
{
    return ce->type == ZEND_USER_CLASS
           && (ce->__serialize ? ce->__serialize->type == ZEND_USER_FUNCTION
                               : zend_hash_exists(&ce->function_table, ZSTR_KNOWN(ZEND_STR_SLEEP)));
}

/* Whether the form takes instances of ce, and its fingerprint (0: no): its
 * name, parents, interfaces, flags, and per declared slot the property's
 * name, declaring class, flags and type. Uncached: php_sc_ocls_fp. */
uint64_t php_sc_ocls_compute(zend_class_entry *ce);

static zend_always_inline uint32_t php_sc_ocls_slot(const zend_class_entry *ce)
{
    return ((uintptr_t) ce >> 4) & (PHP_SC_OCLS_SLOTS - 1);
}

/* php_sc_ocls_compute(ce), from this request's cache. */
static zend_always_inline uint64_t php_sc_ocls_fp(zend_class_entry *ce)
{
    uint32_t i = php_sc_ocls_slot(ce);
    if (EXPECTED(SCG(obj_fps)[i].ce == ce)) {
        return SCG(obj_fps)[i].fp;
    }
    SCG(obj_fps)[i].fp = php_sc_ocls_compute(ce);
    SCG(obj_fps)[i].ce = ce;
    SCG(obj_fps)[i].skip = 0;
    return SCG(obj_fps)[i].fp;
}

/* The properties of obj (zobj: a zval of it) that names, __sleep()'s
 * array, selects, as serialize() selects them (php_var_serialize_class:
 * the name, then mangled private to the class, then protected; an
 * uninitialized typed property skipped; its warnings for a name that is
 * not a string or no property, its notice for a name twice): their values
 * added to sel (its keys the mangled names), and per value its declared
 * slot or PHP_SC_OBJ_NOSLOT to slots (room for every name). False: an
 * exception is pending. */
bool php_sc_ocls_sleep_select(HashTable *sel, uint32_t *slots, zend_object *obj, zval *zobj, HashTable *names);

/* Values whose first object is of class ce held something the form does
 * not take last time (a DateTime inside an entity, ...): the next 15 such
 * stores go to serialize() at once instead of walking as far again; the
 * 16th tries again. Only speed depends on it: serialize() is exact too. */
#define PHP_SC_OCLS_SKIP 15

/* Whether this store of a value whose first object is of class ce goes to
 * serialize() at once (counts the skip down). */
static zend_always_inline bool php_sc_ocls_skip(zend_class_entry *ce)
{
    uint32_t i = php_sc_ocls_slot(ce);
    if (SCG(obj_fps)[i].ce == ce && SCG(obj_fps)[i].skip) {
        SCG(obj_fps)[i].skip--;
        return true;
    }
    return false;
}

/* A value whose first class is ce was refused: skip the next stores. */
void php_sc_ocls_refused(zend_class_entry *ce);

/* php_sc_ocls_find when the class is not in its slot of the cache: looks
 * it up and, when found under that exact name, puts it in *slot. */
zend_class_entry *php_sc_ocls_lookup(const char *name, size_t len, void **slot);

/* The loaded class of that exact name (no autoload), or NULL; hash: the
 * name's hash as stored. */
static zend_always_inline zend_class_entry *php_sc_ocls_find(const char *name, size_t len, uint64_t hash)
{
    void **slot = &SCG(obj_names)[(hash ^ (hash >> 17)) & (PHP_SC_OCLS_SLOTS - 1)];
    zend_class_entry *ce = *slot;

    if (EXPECTED(ce && ZSTR_LEN(ce->name) == len && memcmp(ZSTR_VAL(ce->name), name, len) == 0)) {
        return ce;
    }
    return php_sc_ocls_lookup(name, len, slot);
}

/* ---- the head of stored bytes, as read ---------------------------------- */

#define PHP_SC_OLEFT(p, end) ((size_t) ((end) - (p)))

/* One class of the head. */
typedef struct php_sc_ocls_in {
    uint8_t kind;                 /* PHP_SC_OCLS_* */
    const char *name;
    uint32_t name_len;
    uint64_t hash, fp;
    uint32_t nslots;
    const unsigned char *slots;   /* nslots x (u32 length, name) */
    zend_class_entry *ce;         /* native decode: the live class */
    bool wakeup;                  /* native decode: ce has __wakeup() (a class) */
} php_sc_ocls_in;

/* The head (read by php/odec.c), and where the body lies. */
typedef struct php_sc_ohead {
    uint32_t ntargets, ncls, levels;
    php_sc_ocls_in *cls;
    const unsigned char *body, *end;
    const char *zc_hdr;     /* zero-copy layout: its header, and bytes from there */
    size_t zc_len;
    bool zc_borrow;         /* its arrays are used in place */
} php_sc_ohead;

/* PHP_SC_O_ZARR at pos: the immutable array of h's zero-copy layout, in
 * place or copied (php_sc_zc_array_at); false when h is in no layout. */
static zend_always_inline bool php_sc_ohead_zarr(const php_sc_ohead *h, uint32_t pos, zval *out)
{
    return h->zc_hdr && php_sc_zc_array_at(h->zc_hdr, h->zc_len, pos, h->zc_borrow, out);
}

#endif
