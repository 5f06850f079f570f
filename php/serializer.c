/*
 * php/serializer.c - apc.serializer.
 *
 * APCu lets serializer extensions (igbinary, msgpack ...) register
 * themselves: it publishes the address of its registration function in the
 * persistent constant "\0apc_register_serializer-0", and such an extension
 * (apc_serializer.h, compiled into it) looks the constant up in its MINIT and
 * calls the function with a name and two functions. When APCu itself is not
 * loaded shardcache publishes the same constant, pointing at its own
 * registry, so the same extensions plug into shardcache unchanged.
 *
 * Which serializer is used is decided once, in post-startup (after every
 * MINIT, so after every registration, and before any value is stored or a
 * worker forks), and handed to the codecs (php/serialized.c,
 * php/plain_enc.c):
 *   "php"      php serialize() (APCu's default)
 *   "default"  APCu's own format: plain arrays natively, objects through
 *              php serialize(). Under either name shardcache stores plain
 *              arrays in its plain format, and objects (and arrays holding
 *              objects or shared PHP references) in its object form where
 *              the form takes them (php/object.c), else through serialize();
 *              "default" also keeps arrays holding shared references in the
 *              plain format's memo form (php_sc_plain_set_native_refs), as
 *              APCu's default serializer keeps them
 *   a registered name          that serializer, for what must be serialized
 *                              (no object form then)
 *   anything else              as "default", silently, as in APCu
 * Two fallbacks for load orders where the registration cannot reach us:
 *   - APCu loaded too: serializers registered with APCu, found through its
 *     exported apc_find_serializer();
 *   - igbinary started before shardcache (its MINIT found no constant): its
 *     exported C API (igbinary_serialize / igbinary_unserialize).
 *
 * Every serializer this process has (registered, or igbinary's C API)
 * also decodes: a value in the third-party form names the serializer that
 * wrote it (php/serialized.c), so a process on a named segment shared with
 * processes of another apc.serializer decodes their values when it has
 * their serializer, and finds them absent when it has not.
 *
 * Invariants: the registry is written only during module startup (MINITs run
 * one at a time) and read afterwards; the choice never changes after
 * post-startup (forked workers inherit it).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php.h"
#include "serializer.h"
#include "php_shardcache.h"
#include "serialized.h"
#include "plain_enc.h"

/* APCu's ABI (apc_serializer.h, ABI "0"). */
#define PHP_SC_APC_SERIALIZER_CONSTANT "\000apc_register_serializer-0"
#define PHP_SC_MAX_SERIALIZERS 16

typedef struct php_sc_apc_serializer {   /* APCu's apc_serializer_t */
    const char *name;
    php_sc_ext_serialize_fn serialize;
    php_sc_ext_unserialize_fn unserialize;
    void *config;
} php_sc_apc_serializer;

static php_sc_apc_serializer php_sc_serializers[PHP_SC_MAX_SERIALIZERS];
static int php_sc_nserializers;

/* What is in use, for phpinfo(). */
static char php_sc_serializer_desc[160] = "php";

/* The function the constant points at: APCu's _apc_register_serializer()
 * signature and return value (1: registered, 0: refused). */
static int php_sc_register_serializer(const char *name, php_sc_ext_serialize_fn serialize, php_sc_ext_unserialize_fn unserialize,
                                  void *config)
{
    int i;

    if (!name || !*name || !serialize || !unserialize) {
        return 0;
    }
    for (i = 0; i < php_sc_nserializers; i++) {
        if (strcmp(php_sc_serializers[i].name, name) == 0) {
            return 1; /* the first registration of a name stays, as in APCu */
        }
    }
    if (php_sc_nserializers >= PHP_SC_MAX_SERIALIZERS) {
        return 0;
    }
    php_sc_serializers[php_sc_nserializers].name = name;
    php_sc_serializers[php_sc_nserializers].serialize = serialize;
    php_sc_serializers[php_sc_nserializers].unserialize = unserialize;
    php_sc_serializers[php_sc_nserializers].config = config;
    php_sc_nserializers++;
    return 1;
}

void php_sc_serializer_minit(int module_number, bool publish_hook)
{
    /* A restart without unloading the module must not keep the previous
     * run's registrations (they point into extensions that may have moved). */
    memset(php_sc_serializers, 0, sizeof(php_sc_serializers));
    php_sc_nserializers = 0;
    php_sc_serialized_set_serializer(NULL, NULL, NULL, NULL);
    snprintf(php_sc_serializer_desc, sizeof(php_sc_serializer_desc), "php");
    if (!publish_hook) {
        return;
    }
    zend_register_long_constant(PHP_SC_APC_SERIALIZER_CONSTANT, sizeof(PHP_SC_APC_SERIALIZER_CONSTANT) - 1,
                                (zend_long)(uintptr_t)&php_sc_register_serializer, CONST_PERSISTENT, module_number);
}

/* ---- fallbacks ---- */

static void *php_sc_module_symbol(const char *module, const char *symbol)
{
#ifdef DL_FETCH_SYMBOL
    zend_module_entry *m = zend_hash_str_find_ptr(&module_registry, module, strlen(module));
    if (!m) {
        return NULL;
    }
    /* A statically built extension has no handle: its symbols are global. */
    return (void *)DL_FETCH_SYMBOL(m->handle, symbol);
#else
    (void)module;
    (void)symbol;
    return NULL;
#endif
}

/* igbinary's C API (igbinary.h): 0 on success. */
static int (*php_sc_igb_serialize)(uint8_t **ret, size_t *ret_len, zval *z);
static int (*php_sc_igb_unserialize)(const uint8_t *buf, size_t buf_len, zval *z);

static int php_sc_igbinary_serialize(unsigned char **buf, size_t *buf_len, const zval *value, void *config)
{
    (void)config;
    return php_sc_igb_serialize(buf, buf_len, (zval *)value) == 0;
}

static int php_sc_igbinary_unserialize(zval *value, unsigned char *buf, size_t buf_len, void *config)
{
    (void)config;
    if (php_sc_igb_unserialize(buf, buf_len, value) == 0) {
        return 1;
    }
    zval_ptr_dtor(value);
    ZVAL_NULL(value);
    return 0;
}

static bool php_sc_serializer_registered(const char *name)
{
    int i;

    for (i = 0; i < php_sc_nserializers; i++) {
        if (strcmp(php_sc_serializers[i].name, name) == 0) {
            return true;
        }
    }
    return false;
}

static bool php_sc_igbinary_api_available(void)
{
    return php_sc_module_symbol("igbinary", "igbinary_serialize") && php_sc_module_symbol("igbinary", "igbinary_unserialize");
}

/* ---- the choice ---- */

/* Every serializer this process has, besides the one in use (given
 * first), decodes the values that other processes stored with it on a
 * shared named segment: the ones registered here, and igbinary through its
 * C API when it did not register. (Serializers registered with APCu when
 * APCu is loaded too are found by name only: the one in use.) */
static void php_sc_serializer_add_readers(void)
{
    int i;

    for (i = 0; i < php_sc_nserializers; i++) {
        php_sc_serialized_add_reader(php_sc_serializers[i].name, php_sc_serializers[i].unserialize,
                                     php_sc_serializers[i].config);
    }
    if (!php_sc_serializer_registered("igbinary") && php_sc_igbinary_api_available()) {
        php_sc_igb_serialize = (int (*)(uint8_t **, size_t *, zval *))php_sc_module_symbol("igbinary", "igbinary_serialize");
        php_sc_igb_unserialize =
            (int (*)(const uint8_t *, size_t, zval *))php_sc_module_symbol("igbinary", "igbinary_unserialize");
        php_sc_serialized_add_reader("igbinary", php_sc_igbinary_unserialize, NULL);
    }
}

void php_sc_serializer_select(const char *name)
{
    const php_sc_apc_serializer *found = NULL;
    php_sc_apc_serializer from_apcu;
    int i;

    php_sc_serialized_set_serializer(NULL, NULL, NULL, NULL);
    php_sc_plain_set_native_refs(false);
    if (!name || !*name || strcmp(name, "php") == 0) {
        snprintf(php_sc_serializer_desc, sizeof(php_sc_serializer_desc), "php");
        php_sc_serializer_add_readers();
        return;
    }
    if (strcmp(name, "default") == 0) {
        snprintf(php_sc_serializer_desc, sizeof(php_sc_serializer_desc), "default");
        php_sc_plain_set_native_refs(true);
        php_sc_serializer_add_readers();
        return;
    }
    for (i = 0; i < php_sc_nserializers; i++) {
        if (strcmp(php_sc_serializers[i].name, name) == 0) {
            found = &php_sc_serializers[i];
            snprintf(php_sc_serializer_desc, sizeof(php_sc_serializer_desc), "%s", name);
            break;
        }
    }
    if (!found) {
        /* APCu loaded too: serializers registered with it. */
        php_sc_apc_serializer *(*find)(const char *) =
            (php_sc_apc_serializer * (*)(const char *)) php_sc_module_symbol("apcu", "apc_find_serializer");
        php_sc_apc_serializer *s = find ? find(name) : NULL;
        if (s && s->serialize && s->unserialize) {
            from_apcu = *s;
            found = &from_apcu;
            snprintf(php_sc_serializer_desc, sizeof(php_sc_serializer_desc), "%s (registered with APCu)", name);
        }
    }
    if (!found && strcmp(name, "igbinary") == 0) {
        /* igbinary started first and found nothing to register with. */
        php_sc_igb_serialize = (int (*)(uint8_t **, size_t *, zval *))php_sc_module_symbol("igbinary", "igbinary_serialize");
        php_sc_igb_unserialize =
            (int (*)(const uint8_t *, size_t, zval *))php_sc_module_symbol("igbinary", "igbinary_unserialize");
        if (php_sc_igb_serialize && php_sc_igb_unserialize) {
            from_apcu.name = "igbinary";
            from_apcu.serialize = php_sc_igbinary_serialize;
            from_apcu.unserialize = php_sc_igbinary_unserialize;
            from_apcu.config = NULL;
            found = &from_apcu;
            snprintf(php_sc_serializer_desc, sizeof(php_sc_serializer_desc), "igbinary (through its C API)");
        }
    }
    if (!found) {
        snprintf(php_sc_serializer_desc, sizeof(php_sc_serializer_desc), "default (apc.serializer '%.100s' is not registered)",
                 name);
        php_sc_plain_set_native_refs(true);
        php_sc_serializer_add_readers();
        return;
    }
    php_sc_serialized_set_serializer(found->name, found->serialize, found->unserialize, found->config);
    php_sc_serializer_add_readers();
}

const char *php_sc_serializer_describe(void)
{
    return php_sc_serializer_desc;
}

void php_sc_serializer_names(char *buf, size_t len)
{
    size_t used;
    int i;

    if (len == 0) {
        return;
    }
    snprintf(buf, len, "php");
    for (i = 0; i < php_sc_nserializers; i++) {
        used = strlen(buf);
        if (strcmp(php_sc_serializers[i].name, "php") != 0 && used < len) {
            snprintf(buf + used, len - used, ", %s", php_sc_serializers[i].name);
        }
    }
    /* igbinary that started before us found no hook to register with, but
     * apc.serializer=igbinary still works through its C API: list it too,
     * whatever the load order. */
    if (!php_sc_serializer_registered("igbinary") && php_sc_igbinary_api_available()) {
        used = strlen(buf);
        if (used < len) {
            snprintf(buf + used, len - used, ", igbinary");
        }
    }
}
