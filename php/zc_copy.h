/*
 * php/zc_copy.h - reading zero-copy array layouts (php/zc_copy.c): the
 * copying reader, for a process that cannot use a layout in place, and
 * the shape that says which processes can read one.
 */
#ifndef SHARDCACHE_ZC_COPY_H
#define SHARDCACHE_ZC_COPY_H

#include "php.h"
#include "zc_layout.h"

/* A number that stands for every size, offset, flag and type code of PHP's
 * zval, zend_array, Bucket and zend_string that the copying reader
 * reads, never 0. Builds of another PHP_SC_ZC_ABI (8.2 and 8.4, NTS and
 * ZTS, debug) with the same shape read each other's arrays by copying
 * them; an array of another shape cannot be read here. */
uint32_t php_sc_zc_shape(void);

/* Copies the array layout whose header is at hdr (len bytes from there to
 * the value's end; any alignment) into dst, relocating and bounds-checking
 * every pointer. False (dst not set): not a valid layout. Same shape only
 * (php_sc_zc_shape: the caller checks it). */
bool php_sc_zc_copy_array(const char *hdr, size_t len, zval *dst);
/* The same for the array pointed to from position pos of the layout. */
bool php_sc_zc_copy_array_at(const char *hdr, size_t len, size_t pos, zval *dst);

/* The array pointed to from position pos of the layout whose header is at
 * hdr (len bytes from there): borrow, the immutable array itself (the
 * layout is this process's, at its address, and the request holds it:
 * SCG(zc_holding)); else a copy (php_sc_zc_copy_array_at). False: pos out
 * of bounds, or not a valid layout. */
bool php_sc_zc_array_at(const char *hdr, size_t len, size_t pos, bool borrow, zval *dst);

#endif
