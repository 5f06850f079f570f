dnl config.m4 for the shardcache extension
dnl
dnl Build:  phpize && ./configure --enable-shardcache && make

PHP_ARG_ENABLE([shardcache],
  [whether to enable shardcache support],
  [AS_HELP_STRING([--enable-shardcache],
    [Enable shardcache (sharded shared-memory user cache, APCu compatible)])],
  [no])

if test "$PHP_SHARDCACHE" != "no"; then
  dnl ---------------------------------------------------------------------
  dnl Source files. Edit this list when adding/removing C files.
  dnl Paths are relative to the extension root.
  dnl ---------------------------------------------------------------------
  SHARDCACHE_SOURCES="shardcache.c \
    php/fetch.c \
    php/store.c \
    php/functions.c \
    php/update.c \
    php/segment.c \
    php/iterator.c \
    php/info.c \
    php/owner.c \
    php/serializer.c \
    php/compat.c \
    php/value.c \
    php/plain_enc.c \
    php/plain_dec.c \
    php/serialized.c \
    php/object.c \
    php/ocls.c \
    php/odate.c \
    php/oenc.c \
    php/odec.c \
    php/otext.c \
    php/zc.c \
    php/zc_store.c \
    php/zc_copy.c \
    src/sc_layout.c \
    src/sc_file.c \
    src/sc_file_trust.c \
    src/sc_verify.c \
    src/sc_lock.c \
    src/sc_alloc.c \
    src/sc_alloc_repair.c \
    src/sc_table.c \
    src/sc_resize.c \
    src/sc_evict.c \
    src/sc_fair.c \
    src/sc_cache.c \
    src/sc_cache_fetch.c \
    src/sc_cache_zc.c \
    src/sc_shard.c \
    src/sc_shard_repair.c \
    src/sc_entry.c \
    src/sc_inplace.c \
    src/sc_lockless.c \
    src/sc_update.c \
    src/sc_pin.c \
    src/sc_live.c \
    src/sc_reserve.c \
    src/sc_snapshot.c \
    src/sc_cache_seg.c \
    src/sc_info.c \
    src/sc_epoch.c \
    src/sc_epoch_cover.c"

  dnl -std=c11 alone hides POSIX/GNU declarations (mmap flags, pthread
  dnl robust mutexes, clock_gettime) in files that include system headers
  dnl before php.h, so _GNU_SOURCE is defined for every translation unit.
  dnl php_config.h guards its own #define _GNU_SOURCE, so this is warning-free.
  dnl -falign-functions=64: every function starts on a cache line, so a
  dnl change to one function no longer moves the others' code against the
  dnl CPU's 64-byte fetch and op-cache windows. Without it, builds that
  dnl differ only in code a workload never runs measured up to 5% apart on
  dnl it (fetch_obj_small; figures in the commit that added it); it adds about 7 KB of padding (text 150 KB -> 157 KB).
  SHARDCACHE_CFLAGS="-std=c11 -D_GNU_SOURCE -Wall -Wextra -fvisibility=hidden -falign-functions=64 -DZEND_ENABLE_STATIC_TSRMLS_CACHE=1"

  dnl Process-shared mutexes live in libpthread on older glibc
  dnl (on glibc >= 2.34 they are in libc and this is a no-op).
  PHP_CHECK_LIBRARY(pthread, pthread_mutexattr_setpshared,
  [
    PHP_ADD_LIBRARY(pthread, 1, SHARDCACHE_SHARED_LIBADD)
  ], [
    AC_CHECK_FUNC(pthread_mutexattr_setpshared, [],
      [AC_MSG_ERROR([shardcache needs pthread_mutexattr_setpshared()])])
  ])
  PHP_SUBST(SHARDCACHE_SHARED_LIBADD)

  dnl PHP's own headers are system headers to us: with -Wall -Wextra, PHP
  dnl 8.5's headers warn on their own (an unused parameter in an inline
  dnl function of zend_operators.h), which is no warning of our code. In a
  dnl phpize build, INCLUDES is `php-config --includes` (every directory
  dnl below php-config --include-dir) at this point; -isystem instead of -I
  dnl for those. Our own directories (added below) stay -I, and -I
  dnl directories are searched before -isystem ones.
  if test -n "$phpincludedir"; then
    INCLUDES=`echo " $INCLUDES" | sed "s@ -I$phpincludedir@ -isystem $phpincludedir@g; s@^ @@"`
  fi

  PHP_NEW_EXTENSION(shardcache, $SHARDCACHE_SOURCES, $ext_shared,, $SHARDCACHE_CFLAGS)

  PHP_ADD_INCLUDE([$ext_srcdir/include])
  PHP_ADD_BUILD_DIR([$ext_builddir/src])
  PHP_ADD_BUILD_DIR([$ext_builddir/php])
fi
