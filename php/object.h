/*
 * php/object.h - the native object form: values holding objects stored as
 * class names and property values instead of serialize() text, fetched
 * back as unserialize() would give them (php/object.c describes it). Its
 * state: the test knob, this thread's figures, the request's caches. The
 * encoder: php/oenc.h; the decoder: php/odec.h.
 */
#ifndef SHARDCACHE_OBJECT_H
#define SHARDCACHE_OBJECT_H

#include "php.h"
#include "php_shardcache.h"

/* MINIT: reads the test-only knob SHARDCACHE_TEST_OBJ_TEXT (1: every fetch
 * takes the unserialize() path, so that tests can compare both) and finds
 * the date classes (php/ocls.c). */
void php_sc_obj_minit(void);

/* The knob, as MINIT read it. */
extern bool php_sc_obj_force_text;

/* shardcache_info()['objects']: this thread's counts of values stored in
 * the form (stored), values holding objects left to serialize()
 * (serialized), and fetches built natively (native) or through
 * unserialize() (unserialized). */
void php_sc_obj_info(zval *dst);

/* This thread's figures, in the module globals (ZTS: per thread, off the
 * static TLS block a module may not grow). */
#define php_sc_obj_stored  SCG(obj_counts)[0]   /* values stored in the form */
#define php_sc_obj_refused SCG(obj_counts)[1]   /* values with objects left to serialize() */
#define php_sc_obj_native  SCG(obj_counts)[2]   /* fetches built natively */
#define php_sc_obj_text    SCG(obj_counts)[3]   /* fetches through unserialize() */

/* Request end: forgets the classes looked up this request. */
void php_sc_obj_request_end(void);

#endif
