/*
 * php/compat.h - the APCu identity (the "apcu" module, APCUIterator) and
 * apc.preload_path (php/compat.c).
 */
#ifndef SHARDCACHE_COMPAT_H
#define SHARDCACHE_COMPAT_H

#include "php.h"

/* Registers a module named "apcu" (version PHP_SHARDCACHE_APCU_VERSION) that
 * owns the apc.* INI entries of module own_module_number; returns it, or NULL
 * when the name is taken. Called in post-startup only. */
zend_module_entry *php_sc_compat_register_identity(int own_module_number);
/* Adds the class alias APCUIterator for php_sc_iterator_ce when the name is free. */
bool php_sc_compat_alias_iterator(void);
/* Loads every *.data file of path into the cache as APCu does at startup;
 * returns how many values were stored. */
uint64_t php_sc_compat_preload(const char *path);

#endif
