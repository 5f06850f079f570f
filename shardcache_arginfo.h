/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 050a7ead68437cf5feb12c6a167375d53a00c55e */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_shardcache_clear_cache, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

#define arginfo_shardcache_enabled arginfo_shardcache_clear_cache

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_shardcache_store, 0, 1, MAY_BE_ARRAY|MAY_BE_BOOL)
	ZEND_ARG_INFO(0, key)
	ZEND_ARG_TYPE_INFO(0, value, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

#define arginfo_shardcache_add arginfo_shardcache_store

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_shardcache_fetch, 0, 1, IS_MIXED, 0)
	ZEND_ARG_INFO(0, key)
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(1, success, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_shardcache_exists, 0, 1, MAY_BE_ARRAY|MAY_BE_BOOL)
	ZEND_ARG_INFO(0, key)
ZEND_END_ARG_INFO()

#define arginfo_shardcache_delete arginfo_shardcache_exists


ZEND_FUNCTION(shardcache_clear_cache);
ZEND_FUNCTION(shardcache_enabled);
ZEND_FUNCTION(shardcache_store);
ZEND_FUNCTION(shardcache_add);
ZEND_FUNCTION(shardcache_fetch);
ZEND_FUNCTION(shardcache_exists);
ZEND_FUNCTION(shardcache_delete);


static const zend_function_entry ext_functions[] = {
	ZEND_FE(shardcache_clear_cache, arginfo_shardcache_clear_cache)
	ZEND_FE(shardcache_enabled, arginfo_shardcache_enabled)
	ZEND_FE(shardcache_store, arginfo_shardcache_store)
	ZEND_FE(shardcache_add, arginfo_shardcache_add)
	ZEND_FE(shardcache_fetch, arginfo_shardcache_fetch)
	ZEND_FE(shardcache_exists, arginfo_shardcache_exists)
	ZEND_FE(shardcache_delete, arginfo_shardcache_delete)
	ZEND_FE_END
};
