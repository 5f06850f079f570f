/*
 * php/odate.c - states of DateTime and DateTimeImmutable objects built by
 * __unserialize() this request, by the array that built them (php/odate.h).
 *
 * Per thread (SCG(obj_dates), PHP_SC_ODATE_SLOTS slots, direct-mapped by
 * the hash of the key), in request memory; no shared state. A key is the
 * class, the date string, the timezone type and the timezone of the
 * array, and is kept only when the array holds exactly those three
 * entries and the date is an absolute "YYYY-MM-DD HH:MM:SS.uuuuuu" (what
 * __serialize() writes), so that the state cannot depend on the time of
 * the call. A key seen the first time is kept alone; the second time, the
 * state the call built is kept with it; from the third, objects get a copy
 * of it. A kept state is a timelib_time copied as the date extension's
 * clone copies it: the struct, its own copy of the abbreviation, and the
 * timezone data shared with the date extension's cache for the request.
 */
#include "odate.h"
#include "debug.h"
#include "ocls.h"
#include "ext/date/php_date.h"

#define PHP_SC_ODATE_SLOTS 8
#define PHP_SC_ODATE_DATE_LEN 26
/* After this many lookups that found no key, with repeats fewer than a
 * quarter of them, the request stops looking (SCG(obj_dates_off)): the
 * dates of its values seldom repeat, and each lookup and kept copy would
 * only add to the call. */
#define PHP_SC_ODATE_TRIAL 16

/* Whether s is "YYYY-MM-DD HH:MM:SS.uuuuuu". */
static bool php_sc_odate_absolute(const zend_string *s)
{
    static const char form[] = "dddd-dd-dd dd:dd:dd.dddddd";
    size_t i;

    if (ZSTR_LEN(s) != PHP_SC_ODATE_DATE_LEN) {
        return false;
    }
    for (i = 0; i < PHP_SC_ODATE_DATE_LEN; i++) {
        char c = ZSTR_VAL(s)[i];
        if (form[i] == 'd' ? (c < '0' || c > '9') : c != form[i]) {
            return false;
        }
    }
    return true;
}

/* The php_date_obj whose std is obj. */
static zend_always_inline php_date_obj *php_sc_odate_obj(zend_object *obj)
{
    return (php_date_obj *) ((char *) obj - offsetof(php_date_obj, std));
}

/* The key of data into key (PHP_SC_ODATE_KEY bytes); its length, 0 when
 * data does not have the form kept: "date", "timezone_type" and
 * "timezone", in the order __serialize() writes them. */
static uint32_t php_sc_odate_key(HashTable *data, char *key)
{
    const Bucket *b;
    const zval *date, *type, *tz;
    size_t n;

    if (HT_IS_PACKED(data) || data->nNumUsed != 3 || zend_hash_num_elements(data) != 3) {
        return 0;
    }
    b = data->arData;
    if (!b[0].key || !zend_string_equals_literal(b[0].key, "date")
        || !b[1].key || !zend_string_equals_literal(b[1].key, "timezone_type")
        || !b[2].key || !zend_string_equals_literal(b[2].key, "timezone")) {
        return 0;
    }
    date = &b[0].val;
    type = &b[1].val;
    tz = &b[2].val;
    if (Z_TYPE_P(date) != IS_STRING || Z_TYPE_P(type) != IS_LONG || Z_TYPE_P(tz) != IS_STRING
        || Z_LVAL_P(type) < 1 || Z_LVAL_P(type) > 3
        || Z_STRLEN_P(tz) > PHP_SC_ODATE_KEY - PHP_SC_ODATE_DATE_LEN - 1
        || !php_sc_odate_absolute(Z_STR_P(date))) {
        return 0;
    }
    memcpy(key, Z_STRVAL_P(date), PHP_SC_ODATE_DATE_LEN);
    key[PHP_SC_ODATE_DATE_LEN] = (char) ('0' + Z_LVAL_P(type));
    n = PHP_SC_ODATE_DATE_LEN + 1;
    memcpy(key + n, Z_STRVAL_P(tz), Z_STRLEN_P(tz));
    return (uint32_t) (n + Z_STRLEN_P(tz));
}

static zend_always_inline uint32_t php_sc_odate_slot(const zend_class_entry *ce, const char *key, uint32_t len)
{
    return (uint32_t) ((zend_inline_hash_func(key, len) ^ ((uintptr_t) ce >> 4)) & (PHP_SC_ODATE_SLOTS - 1));
}

/* A copy of t, as the date extension's clone makes it. */
static timelib_time *php_sc_odate_dup(const timelib_time *t)
{
    timelib_time *c = emalloc(sizeof(*c));

    *c = *t;
    if (t->tz_abbr) {
        c->tz_abbr = estrdup(t->tz_abbr);
    }
    return c;
}

static void php_sc_odate_free(timelib_time *t)
{
    if (t->tz_abbr) {
        efree(t->tz_abbr);
    }
    efree(t);
}

bool php_sc_odate_find(zend_object *obj, HashTable *data, php_sc_odate_ref *ref)
{
    char key[PHP_SC_ODATE_KEY];
    uint32_t len, slot;
    php_date_obj *d;
    timelib_time *t;

    if (!php_sc_ocls_datetime(obj->ce) || (len = php_sc_odate_key(data, key)) == 0) {
        return false;
    }
    slot = php_sc_odate_slot(obj->ce, key, len);
    t = SCG(obj_dates)[slot].time;
    if (SCG(obj_dates)[slot].ce != obj->ce || SCG(obj_dates)[slot].len != len
        || memcmp(SCG(obj_dates)[slot].key, key, len) != 0) {
        /* First seen: its key only (a state is kept when it repeats). */
        if (t) {
            php_sc_odate_free(t);
            SCG(obj_dates)[slot].time = NULL;
        }
        SCG(obj_dates)[slot].ce = obj->ce;
        SCG(obj_dates)[slot].len = len;
        memcpy(SCG(obj_dates)[slot].key, key, len);
        /* Dates that seldom repeat: not looked up again this request. */
        if (++SCG(obj_dates_misses) >= PHP_SC_ODATE_TRIAL && SCG(obj_dates_hits) < SCG(obj_dates_misses) / 4) {
            SCG(obj_dates_off) = true;
        }
        return false;
    }
    SCG(obj_dates_hits)++;
    if (!t) {
        /* Seen once before: the call, and its state kept. */
        ref->keep = true;
        ref->slot = slot;
        return false;
    }
    d = php_sc_odate_obj(obj);
    ZEND_ASSERT(d->time == NULL);   /* made without its constructor */
    d->time = php_sc_odate_dup(t);
    return true;
}

void php_sc_odate_kept(zend_object *obj, const php_sc_odate_ref *ref)
{
    php_date_obj *d = php_sc_odate_obj(obj);

    ZEND_ASSERT(ref->slot < PHP_SC_ODATE_SLOTS && SCG(obj_dates)[ref->slot].ce == obj->ce
                && SCG(obj_dates)[ref->slot].time == NULL);
    if (d->time) {
        SCG(obj_dates)[ref->slot].time = php_sc_odate_dup(d->time);
    }
}

void php_sc_odate_request_end(void)
{
    uint32_t i;

    for (i = 0; i < PHP_SC_ODATE_SLOTS; i++) {
        if (SCG(obj_dates)[i].time) {
            php_sc_odate_free(SCG(obj_dates)[i].time);
        }
    }
    memset(SCG(obj_dates), 0, sizeof(SCG(obj_dates)));
    SCG(obj_dates_hits) = 0;
    SCG(obj_dates_misses) = 0;
    SCG(obj_dates_off) = false;
}

_Static_assert(sizeof(((zend_shardcache_globals *) 0)->obj_dates) / sizeof(((zend_shardcache_globals *) 0)->obj_dates[0])
                   == PHP_SC_ODATE_SLOTS,
               "SCG(obj_dates) has PHP_SC_ODATE_SLOTS slots");
