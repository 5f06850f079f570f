/*
 * php/update.h - apcu_inc, apcu_dec and apcu_cas (php/update.c).
 */
#ifndef SHARDCACHE_UPDATE_H
#define SHARDCACHE_UPDATE_H

#include "php.h"

ZEND_FUNCTION(shardcache_inc);
ZEND_FUNCTION(shardcache_dec);
ZEND_FUNCTION(shardcache_cas);

#endif
