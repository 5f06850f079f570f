/*
 * php/iterator.h - the APCUIterator class (php/iterator.c).
 */
#ifndef SHARDCACHE_ITERATOR_H
#define SHARDCACHE_ITERATOR_H

#include "php.h"

/* The class (NULL: not registered, APCu is loaded). */
extern zend_class_entry *php_sc_iterator_ce;
void php_sc_iterator_minit(int module_number);
/* apcu_delete($iterator): deletes the entries the iterator has not yet
 * yielded; return_value: the keys that could not be deleted. */
void php_sc_iterator_delete(zval *iterator, zval *return_value);

#endif
