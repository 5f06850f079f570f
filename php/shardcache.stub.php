<?php

/**
 * The functions shardcache always registers. The same functions under the
 * apcu_* names are in php/apcu.stub.php.
 *
 * @generate-function-entries
 */

function shardcache_clear_cache(): bool {}

function shardcache_enabled(): bool {}

/** @param array|string $key */
function shardcache_store($key, mixed $value = UNKNOWN, int $ttl = 0): array|bool {}

/** @param array|string $key */
function shardcache_add($key, mixed $value = UNKNOWN, int $ttl = 0): array|bool {}

/**
 * @param array|string $key
 * @param bool $success
 */
function shardcache_fetch($key, &$success = null): mixed {}

/** @param array|string $key */
function shardcache_exists($key): array|bool {}

/** @param array|string $key */
function shardcache_delete($key): array|bool {}

/**
 * @param bool $success
 */
function shardcache_inc(string $key, int $step = 1, &$success = null, int $ttl = 0): int|false {}

/**
 * @param bool $success
 */
function shardcache_dec(string $key, int $step = 1, &$success = null, int $ttl = 0): int|false {}

function shardcache_cas(string $key, int $old, int $new): bool {}

function shardcache_entry(string $key, callable $callback, int $ttl = 0): mixed {}

function shardcache_cache_info(bool $limited = false): array|false {}

function shardcache_key_info(string $key): ?array {}

function shardcache_sma_info(bool $limited = false): array|false {}

/** shardcache's own figures: shards, memory, allocator, per-process counters. */
function shardcache_info(): array {}
