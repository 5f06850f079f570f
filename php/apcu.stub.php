<?php

/**
 * The APCu names of shardcache's functions, registered only when the APCu
 * extension itself is not loaded.
 *
 * @generate-function-entries
 */

/** @alias shardcache_clear_cache */
function apcu_clear_cache(): bool {}

/** @alias shardcache_enabled */
function apcu_enabled(): bool {}

/**
 * @param array|string $key
 * @alias shardcache_store
 */
function apcu_store($key, mixed $value = UNKNOWN, int $ttl = 0): array|bool {}

/**
 * @param array|string $key
 * @alias shardcache_add
 */
function apcu_add($key, mixed $value = UNKNOWN, int $ttl = 0): array|bool {}

/**
 * @param array|string $key
 * @param bool $success
 * @alias shardcache_fetch
 */
function apcu_fetch($key, &$success = null): mixed {}

/**
 * @param array|string $key
 * @alias shardcache_exists
 */
function apcu_exists($key): array|bool {}

/**
 * @param array|string $key
 * @alias shardcache_delete
 */
function apcu_delete($key): array|bool {}

/**
 * @param bool $success
 * @alias shardcache_inc
 */
function apcu_inc(string $key, int $step = 1, &$success = null, int $ttl = 0): int|false {}

/**
 * @param bool $success
 * @alias shardcache_dec
 */
function apcu_dec(string $key, int $step = 1, &$success = null, int $ttl = 0): int|false {}

/** @alias shardcache_cas */
function apcu_cas(string $key, int $old, int $new): bool {}

/** @alias shardcache_entry */
function apcu_entry(string $key, callable $callback, int $ttl = 0): mixed {}

/** @alias shardcache_cache_info */
function apcu_cache_info(bool $limited = false): array|false {}

/** @alias shardcache_key_info */
function apcu_key_info(string $key): ?array {}

/** @alias shardcache_sma_info */
function apcu_sma_info(bool $limited = false): array|false {}
