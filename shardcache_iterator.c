/*
 * shardcache_iterator.c - the APCUIterator class (placeholder: filled in by
 * the compatibility work).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php.h"
#include "php_shardcache.h"

zend_class_entry *sc_php_iterator_ce = NULL;

void sc_php_iterator_minit(int module_number)
{
    (void)module_number;
}

void sc_php_iterator_delete(zval *iterator, zval *return_value)
{
    (void)iterator;
    RETVAL_FALSE;
}
