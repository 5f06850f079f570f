/*
 * php/plain_dec.h - the plain format's decoder (php/plain_dec.c):
 * SC_V_ARRAY data back into an array. Its encoder: php/plain_enc.h.
 */
#ifndef SHARDCACHE_PLAIN_DEC_H
#define SHARDCACHE_PLAIN_DEC_H

#include "php.h"
#include "value_fmt.h"

/* Decodes SC_V_ARRAY data (len bytes; one array, in the memo form or not,
 * and nothing after it) into *out, a fresh array owned by the caller.
 * Malformed input: FAILURE with *out NULL, never a crash or over-read. */
zend_result php_sc_plain_decode(const char *data, size_t len, zval *out);

/* Reads one plain array (never the memo form) at *p, not past end, and
 * advances *p past it; FAILURE: *out NULL, *p unchanged. For the object
 * form (php/odec.c, php/otext.c). */
zend_result php_sc_plain_decode_at(const unsigned char **p, const unsigned char *end, zval *out);

#endif
