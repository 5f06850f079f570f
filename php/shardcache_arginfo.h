/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: ccb535dddae387eb10bbe9e87f7ee99e487f63bd */

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

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_shardcache_inc, 0, 1, MAY_BE_LONG|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, step, IS_LONG, 0, "1")
	ZEND_ARG_INFO_WITH_DEFAULT_VALUE(1, success, "null")
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

#define arginfo_shardcache_dec arginfo_shardcache_inc

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_shardcache_cas, 0, 3, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, old, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, new, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_shardcache_entry, 0, 2, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, callback, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, ttl, IS_LONG, 0, "0")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_MASK_EX(arginfo_shardcache_cache_info, 0, 0, MAY_BE_ARRAY|MAY_BE_FALSE)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, limited, _IS_BOOL, 0, "false")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_shardcache_key_info, 0, 1, IS_ARRAY, 1)
	ZEND_ARG_TYPE_INFO(0, key, IS_STRING, 0)
ZEND_END_ARG_INFO()

#define arginfo_shardcache_sma_info arginfo_shardcache_cache_info

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_shardcache_info, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()


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
ZEND_FUNCTION(shardcache_info);


static const zend_function_entry ext_functions[] = {
	ZEND_FE(shardcache_clear_cache, arginfo_shardcache_clear_cache)
	ZEND_FE(shardcache_enabled, arginfo_shardcache_enabled)
	ZEND_FE(shardcache_store, arginfo_shardcache_store)
	ZEND_FE(shardcache_add, arginfo_shardcache_add)
	ZEND_FE(shardcache_fetch, arginfo_shardcache_fetch)
	ZEND_FE(shardcache_exists, arginfo_shardcache_exists)
	ZEND_FE(shardcache_delete, arginfo_shardcache_delete)
	ZEND_FE(shardcache_inc, arginfo_shardcache_inc)
	ZEND_FE(shardcache_dec, arginfo_shardcache_dec)
	ZEND_FE(shardcache_cas, arginfo_shardcache_cas)
	ZEND_FE(shardcache_entry, arginfo_shardcache_entry)
	ZEND_FE(shardcache_cache_info, arginfo_shardcache_cache_info)
	ZEND_FE(shardcache_key_info, arginfo_shardcache_key_info)
	ZEND_FE(shardcache_sma_info, arginfo_shardcache_sma_info)
	ZEND_FE(shardcache_info, arginfo_shardcache_info)
	ZEND_FE_END
};
