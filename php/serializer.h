/*
 * php/serializer.h - apc.serializer: the serializers registered, and the
 * one in use (php/serializer.c).
 */
#ifndef SHARDCACHE_SERIALIZER_H
#define SHARDCACHE_SERIALIZER_H

#include "php.h"

/* php_sc_serializer_minit() empties the registry and, with publish_hook
 * (APCu not loaded, cache enabled), publishes APCu's registration hook
 * (the "\0apc_register_serializer-0" constant); php_sc_serializer_select()
 * picks the serializer named by apc.serializer once every extension has
 * started. */
void php_sc_serializer_minit(int module_number, bool publish_hook);
void php_sc_serializer_select(const char *name);
/* For phpinfo(): the serializer in use, and the names registered ("php, igbinary"). */
const char *php_sc_serializer_describe(void);
void php_sc_serializer_names(char *buf, size_t len);

#endif
