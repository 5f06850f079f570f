/*
 * php/debug.h - the glue's assertions. Glue invariants (what a comment
 * says must hold) are ZEND_ASSERT(cond). PHP checks ZEND_ASSERT only in
 * its own debug builds; elsewhere cond is an assumption for the
 * optimizer. The debug build of shardcache (SC_DEBUG: scripts/build.sh
 * --debug) checks them on a release PHP too, as the core's SC_ASSERT
 * (sc_common.h): a false cond prints the file, line, function and cond,
 * and aborts. Every glue file that asserts includes this header (or
 * php_shardcache.h, which does), after php.h (scripts/check-glue.sh).
 */
#ifndef PHP_SC_DEBUG_H
#define PHP_SC_DEBUG_H

#include "php.h"
#include "sc_cache.h"

#if defined(SC_DEBUG) && !ZEND_DEBUG
# undef ZEND_ASSERT
# define ZEND_ASSERT(c) SC_ASSERT(c)
#endif

#endif
