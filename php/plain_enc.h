/*
 * php/plain_enc.h - the plain format's encoder (php/plain_enc.c): plain
 * arrays (no object, no shared reference unless in the memo form) as
 * SC_V_ARRAY data. Its decoder: php/plain_dec.h.
 */
#ifndef SHARDCACHE_PLAIN_ENC_H
#define SHARDCACHE_PLAIN_ENC_H

#include "php.h"
#include "value_fmt.h"

/* apc.serializer=default: arrays holding shared PHP references keep them in
 * the plain format's memo form instead of being refused, as APCu's default
 * serializer keeps them. Set once at module startup, like the serializer. */
void php_sc_plain_set_native_refs(bool on);

/* Encodes the array ht as SC_V_ARRAY data into *out (owned_buf). False:
 * ht is not plain (*out untouched, nothing raised, nothing left
 * allocated); the caller stores it another way. */
bool php_sc_plain_encode(HashTable *ht, php_sc_encoded *out);

/* Appends the plain encoding of ht (no objects, no shared references, never
 * the memo form) at *buf + *len (an emalloc'd buffer of *cap bytes, grown
 * as needed); false: ht is not plain (*len unchanged). *depth: the levels
 * of non-empty arrays in it (unserialize()'s count for max_depth). For the
 * object form (php/oenc.c). */
bool php_sc_plain_encode_append(HashTable *ht, char **buf, size_t *len, size_t *cap, uint32_t *depth);

/* Whether ht holds only nulls, bools, ints, floats, strings and arrays of
 * those (no reference, resource or object anywhere): then
 * php_sc_plain_encode_append takes it, and *depth is the count it would
 * give. False also for what that function may still take (references
 * only their holder sees, resources). Writes nothing: for the object
 * form's zero-copy layouts (php/oenc.c), which hold no more than that. */
bool php_sc_plain_simple(HashTable *ht, uint32_t *depth);

/* Grows the emalloc'd write buffer *buf (*cap bytes, len of them used) so
 * that need more bytes fit: *cap doubled, from first when it is 0. The
 * writers of the plain format and of the object form (php/oenc_buf.h). */
void php_sc_plain_grow(char **buf, size_t *cap, size_t len, size_t need, size_t first);

#endif
