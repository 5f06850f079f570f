/*
 * php/odate.h - the object form's decoder (php/odec.c) builds DateTime and
 * DateTimeImmutable objects by their own __unserialize(), which parses the
 * date string each time. php/odate.c keeps, per thread and for the
 * request, the state such a call built from a given array, and gives an
 * equal array's object a copy of that state instead: what the date
 * extension's own clone makes, the same result as the call.
 */
#ifndef SHARDCACHE_ODATE_H
#define SHARDCACHE_ODATE_H

#include "php.h"
#include "php_shardcache.h"

/* What php_sc_odate_copy left for php_sc_odate_keep. */
typedef struct php_sc_odate_ref {
    uint32_t slot;
    bool keep;      /* the slot waits for the state of this call */
} php_sc_odate_ref;

/* obj: a DateTime or DateTimeImmutable (the classes themselves) made
 * without its constructor and not yet given a state; data: the array its
 * __unserialize() would get. True: obj has the state an earlier call built
 * from an equal array this request (data is not used further). False: the
 * caller makes the call, then, if it succeeded, php_sc_odate_keep(obj,
 * ref) (data seen before: its state is kept for the next).
 * php_sc_odate_find and php_sc_odate_kept: their work past the checks
 * inlined here. */
bool php_sc_odate_find(zend_object *obj, HashTable *data, php_sc_odate_ref *ref);
void php_sc_odate_kept(zend_object *obj, const php_sc_odate_ref *ref);

#if defined(ZTS) && defined(COMPILE_DL_SHARDCACHE)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

static zend_always_inline bool php_sc_odate_copy(zend_object *obj, HashTable *data, php_sc_odate_ref *ref)
{
    ref->keep = false;
    /* (dates that seldom repeat: no lookups this request) */
    return !SCG(obj_dates_off) && php_sc_odate_find(obj, data, ref);
}

static zend_always_inline void php_sc_odate_keep(zend_object *obj, const php_sc_odate_ref *ref)
{
    if (UNEXPECTED(ref->keep)) {
        php_sc_odate_kept(obj, ref);
    }
}

/* Request end: frees what was kept. */
void php_sc_odate_request_end(void);

#endif
