/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: b9f9b95d1a247c1c154791cbc62cf2e815c5445f */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_apcu_clear_cache, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

#define arginfo_apcu_enabled arginfo_apcu_clear_cache

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_apcu_store, 0, 1, MAY_BE_ARRAY|MAY_BE_BOOL)
	ZEND_ARG_INFO(0, key)
	ZEND_ARG_TYPE_INFO(0, value, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

#define arginfo_apcu_add arginfo_apcu_store

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_apcu_fetch, 0, 1, IS_MIXED, 0)
	ZEND_ARG_INFO(0, key)
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(1, success, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_apcu_exists, 0, 1, MAY_BE_ARRAY|MAY_BE_BOOL)
	ZEND_ARG_INFO(0, key)
ZEND_END_ARG_INFO()

#define arginfo_apcu_delete arginfo_apcu_exists


ZEND_FUNCTION(shardcache_clear_cache);
ZEND_FUNCTION(shardcache_enabled);
ZEND_FUNCTION(shardcache_store);
ZEND_FUNCTION(shardcache_add);
ZEND_FUNCTION(shardcache_fetch);
ZEND_FUNCTION(shardcache_exists);
ZEND_FUNCTION(shardcache_delete);


static const zend_function_entry ext_functions[] = {
	ZEND_FALIAS(apcu_clear_cache, shardcache_clear_cache, arginfo_apcu_clear_cache)
	ZEND_FALIAS(apcu_enabled, shardcache_enabled, arginfo_apcu_enabled)
	ZEND_FALIAS(apcu_store, shardcache_store, arginfo_apcu_store)
	ZEND_FALIAS(apcu_add, shardcache_add, arginfo_apcu_add)
	ZEND_FALIAS(apcu_fetch, shardcache_fetch, arginfo_apcu_fetch)
	ZEND_FALIAS(apcu_exists, shardcache_exists, arginfo_apcu_exists)
	ZEND_FALIAS(apcu_delete, shardcache_delete, arginfo_apcu_delete)
	ZEND_FE_END
};
