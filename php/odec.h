/*
 * php/odec.h - the object form's decoder (php/odec.c; the form:
 * php/object.c).
 */
#ifndef SHARDCACHE_ODEC_H
#define SHARDCACHE_ODEC_H

#include "php.h"

/* Decodes object-form data (len bytes, first byte PHP_SC_OBJ_FORM) into
 * *out: natively when every class is loaded and unchanged since the store,
 * else through unserialize() of the equivalent serialize() text (autoload,
 * __PHP_Incomplete_Class, changed classes: unserialize()'s result). */
zend_result php_sc_obj_decode(const char *data, size_t len, zval *out);

/* php_sc_obj_decode of object-form bytes inside a zero-copy layout whose
 * header is at zc_hdr (zc_len bytes from there): its arrays are used in
 * place (borrow: the caller set SCG(zc_holding)) or copied
 * (php_sc_zc_array_at). */
zend_result php_sc_obj_decode_zc(const char *data, size_t len, zval *out, const char *zc_hdr, size_t zc_len, bool borrow);

#endif
