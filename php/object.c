/*
 * php/object.c - the native object form: what it is, and its state
 * (settings, figures, the request's caches).
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
 * (or stdClass), with no Serializable, not abstract, anonymous or
 * #[NotSerializable], without property hooks (8.4), not lazy (8.4), and
 * with no dynamic property unless the class allows them
 * (#[AllowDynamicProperties], stdClass); enum cases; and the internal
 * classes of php_sc_ocls_native_ces (the date classes, DateInterval,
 * DatePeriod, the SPL collections) and user subclasses of them, kept as
 * the array their own __serialize() returns (for DateTime,
 * DateTimeImmutable and DateTimeZone themselves, only an array of
 * scalars), which runs no user code, and rebuilt by __unserialize()
 * (php_sc_ocls_unser); a subclass with a user __serialize() (Carbon) as
 * a user class with the pair. User classes with __serialize() and __unserialize()
 * are kept as the array __serialize() returns (any value, in the form);
 * with __sleep(), as the properties it names, in its order (serialize()'s
 * lookup and warnings); both called at the store once each, in
 * serialize()'s order, after a dry walk that runs no user code found the
 * rest of the value taken (php/oenc.c; what it cannot see, an object the
 * form does not take in what a __serialize() returned, sends the value
 * to serialize() after those calls, which then run twice). At fetch __unserialize() and
 * __wakeup() are called once the value is built, in the order
 * unserialize() delays them to; an exception stops the rest (their
 * objects get no destructor call) and fails the fetch, as it fails
 * unserialize(). A user class with __unserialize() and neither
 * __serialize() nor __sleep() is kept as the array of properties
 * serialize() writes (mangled names), given to its __unserialize() as
 * unserialize() gives it; no user code runs at its store. A class with
 * __serialize() but no __unserialize(), with __unserialize() and
 * __sleep(), Serializable, one object of any other internal class
 * (SplMinHeap, Exception, Closure, ...) or of a user class extending one
 * sends the whole value to serialize(); so does
 * apc.serializer set to a third-party serializer other than igbinary
 * (under igbinary: a shared PHP reference, which igbinary's round trip
 * keeps otherwise, and an object whose store runs user code;
 * php_sc_serialized_obj_form_use; and a resource, which serialize() and
 * the form otherwise write as int 0), a recursive array,
 * nesting deeper than PHP_SC_VALUE_MAX_DEPTH, and a serialize_precision
 * below 17.
 *
 * Layout (SC_V_SERIALIZED data):
 *   u8 PHP_SC_OBJ_FORM, u8 version, u32 targets, u32 classes, u32 levels
 *   (how deep objects and non-empty arrays nest: unserialize_max_depth),
 *   per class: u8 kind (0 class: __wakeup() called if it has one, 1 enum,
 *     2 rebuilt by __unserialize),
 *     u32 name length, the name, u64 the name's hash (zend_string's),
 *     u64 fingerprint (php_sc_ocls_fp); classes also u32 slots, u32 bytes
 *     (of what follows), then per declared slot u32 length and the
 *     mangled property name (0xffffffff: a slot without a property),
 *   one value (tags PHP_SC_O_* and the scalar tags, php/value_fmt.h).
 * "Targets" are what a later PHP_SC_O_OBJREF / PHP_SC_O_REFTO can name:
 * every object and enum case, and each value marked PHP_SC_O_TARGET (the
 * first place of a shared reference), numbered in the order they start.
 *
 * Fetch. The classes are looked up without autoloading, and each one's
 * fingerprint (its name, parents, interfaces, flags, whether it has
 * __sleep and __wakeup, and per declared slot the property's name,
 * declaring class, flags and type; for a class with __serialize and
 * __unserialize its name and parents) must equal the stored one; then the
 * value is built natively, running no user code until the delayed calls
 * above. Any
 * class not loaded or changed, an enum case whose value is not evaluated
 * yet, or anything odd in the bytes: everything built is dropped (no
 * destructor runs) and the serialize() text of the stored graph is made
 * from the bytes and given to unserialize(), which autoloads, calls
 * unserialize_callback_func, gives __PHP_Incomplete_Class, maps changed
 * properties and raises exactly what unserialize() raises.
 *
 * The modules: php/ocls.c (classes), php/oenc.c (store), php/odec.c
 * (fetch, native), php/otext.c (fetch through unserialize()).
 *
 * Design: docs/design.md
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif

#include "php.h"
#include "object.h"
#include "ocls.h"
#include "odate.h"

#if defined(ZTS) && defined(COMPILE_DL_SHARDCACHE)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

bool php_sc_obj_force_text;

void php_sc_obj_minit(void)
{
    const char *v = getenv("SHARDCACHE_TEST_OBJ_TEXT");
    php_sc_obj_force_text = v && strcmp(v, "1") == 0;
    php_sc_ocls_minit();
}

void php_sc_obj_request_end(void)
{
    php_sc_ocls_request_end();
    php_sc_odate_request_end();
}

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
