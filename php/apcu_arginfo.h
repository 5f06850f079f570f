/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: e187901cc4c345c2d2ab1502fd1d2910616c13a9 */

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

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_apcu_inc, 0, 1, MAY_BE_LONG|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, step, IS_LONG, 0, "1")
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(1, success, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

#define arginfo_apcu_dec arginfo_apcu_inc

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_apcu_cas, 0, 3, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, old, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, new, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_apcu_entry, 0, 2, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, callback, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_apcu_cache_info, 0, 0, MAY_BE_ARRAY|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, limited, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_apcu_key_info, 0, 1, IS_ARRAY, 1)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_apcu_sma_info arginfo_apcu_cache_info


ZEND_FUNCTION(shardcache_clear_cache);
ZEND_FUNCTION(shardcache_enabled);
ZEND_FUNCTION(shardcache_store);
ZEND_FUNCTION(shardcache_add);
ZEND_FUNCTION(shardcache_fetch);
ZEND_FUNCTION(shardcache_exists);
ZEND_FUNCTION(shardcache_delete);
ZEND_FUNCTION(shardcache_inc);
ZEND_FUNCTION(shardcache_dec);
ZEND_FUNCTION(shardcache_cas);
ZEND_FUNCTION(shardcache_entry);
ZEND_FUNCTION(shardcache_cache_info);
ZEND_FUNCTION(shardcache_key_info);
ZEND_FUNCTION(shardcache_sma_info);


static const zend_function_entry ext_functions[] = {
	ZEND_FALIAS(apcu_clear_cache, shardcache_clear_cache, arginfo_apcu_clear_cache)
	ZEND_FALIAS(apcu_enabled, shardcache_enabled, arginfo_apcu_enabled)
	ZEND_FALIAS(apcu_store, shardcache_store, arginfo_apcu_store)
	ZEND_FALIAS(apcu_add, shardcache_add, arginfo_apcu_add)
	ZEND_FALIAS(apcu_fetch, shardcache_fetch, arginfo_apcu_fetch)
	ZEND_FALIAS(apcu_exists, shardcache_exists, arginfo_apcu_exists)
	ZEND_FALIAS(apcu_delete, shardcache_delete, arginfo_apcu_delete)
	ZEND_FALIAS(apcu_inc, shardcache_inc, arginfo_apcu_inc)
	ZEND_FALIAS(apcu_dec, shardcache_dec, arginfo_apcu_dec)
	ZEND_FALIAS(apcu_cas, shardcache_cas, arginfo_apcu_cas)
	ZEND_FALIAS(apcu_entry, shardcache_entry, arginfo_apcu_entry)
	ZEND_FALIAS(apcu_cache_info, shardcache_cache_info, arginfo_apcu_cache_info)
	ZEND_FALIAS(apcu_key_info, shardcache_key_info, arginfo_apcu_key_info)
	ZEND_FALIAS(apcu_sma_info, shardcache_sma_info, arginfo_apcu_sma_info)
	ZEND_FE_END
};
