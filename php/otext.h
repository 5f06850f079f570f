/*
 * php/otext.h - the object form through unserialize() (php/otext.c): what
 * a fetch gives when the native decode (php/odec.c) cannot build the value.
 */
#ifndef SHARDCACHE_OTEXT_H
#define SHARDCACHE_OTEXT_H

#include "php.h"
#include "ocls.h"

/* The value of the object-form bytes whose head h describes (read by
 * php/odec.c), through unserialize() of its serialize() text, into *out;
 * may run user code (autoload, __wakeup, __unserialize). FAILURE: *out is
 * NULL (malformed bytes, or what unserialize() refused: then
 * php_sc_serialized_parse_failed may be set). */
zend_result php_sc_otext_decode(php_sc_ohead *h, zval *out);

#endif
