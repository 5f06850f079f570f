<?php
/*
 * tools/metrics.php - shardcache's figures in the Prometheus text exposition
 * format (version 0.0.4).
 *
 * Two uses:
 *   - include it and call shardcache_prometheus(): string;
 *   - put it where the web server runs PHP (same php-fpm pool / Apache as the
 *     application, so it sees the same cache) and scrape it:
 *         scrape_configs:
 *           - job_name: shardcache
 *             metrics_path: /metrics.php
 *             static_configs: [{ targets: ['app.example:80'] }]
 *     Requested directly it prints the metrics (text/plain; version=0.0.4).
 *     Set the environment variable SHARDCACHE_METRICS_TOKEN (php-fpm:
 *     env[SHARDCACHE_METRICS_TOKEN] = ... in the pool) to require
 *     "Authorization: Bearer <token>" (or basic auth with the token as the
 *     password); without it the endpoint is open: it shows counts and sizes,
 *     never keys or values.
 *
 * Figures come from shardcache_info(). Every key is optional: a key the
 * running extension does not report is left out (never reported as 0), and
 * numeric keys this file does not know yet are exported as untyped metrics
 * named after the key, so a newer extension never breaks a scrape.
 *
 * Counters (_total) are shared figures of the cache and only grow until a
 * restart, clear or reset of the segment; the shardcache_process_* gauges
 * are counted by the PHP process that answered the scrape alone (each
 * php-fpm worker has its own), so they are gauges, not counters.
 */

if (!function_exists('shardcache_prometheus')) {

    /**
     * The metrics text. $info: a shardcache_info() result to render instead
     * of the live one (used by tests); the live call also adds shardcache_up
     * and shardcache_build_info.
     */
    function shardcache_prometheus(?array $info = null): string
    {
        // info key => [metric name, type, help]
        static $top = [
            'enabled' => ['shardcache_enabled', 'gauge', 'Whether the cache is enabled in the answering process (1) or not (0).'],
            'shards' => ['shardcache_shards', 'gauge', 'Number of shards (shardcache.shards).'],
            'slots' => ['shardcache_slots', 'gauge', 'Hash table slots of all shards.'],
            'entries' => ['shardcache_entries', 'gauge', 'Entries in the cache (expired entries not yet removed included).'],
            'mem_total' => ['shardcache_memory_total_bytes', 'gauge', 'Size of the shared page pool in bytes.'],
            'mem_used' => ['shardcache_memory_used_bytes', 'gauge', 'Bytes handed out to entries and hash tables.'],
            'mem_entries' => ['shardcache_memory_entries_bytes', 'gauge', 'Bytes handed out to entries alone.'],
            'mem_wasted' => ['shardcache_memory_wasted_bytes', 'gauge', 'Bytes handed out to entries beyond what they need (size-class and page rounding).'],
            'mem_free' => ['shardcache_memory_free_bytes', 'gauge', 'Bytes in free pages of the pool.'],
            'largest_free_run' => ['shardcache_memory_largest_free_run_bytes', 'gauge', 'Largest run of contiguous free pages in bytes.'],
            'free_runs' => ['shardcache_memory_free_runs', 'gauge', 'Runs of contiguous free pages in the pool.'],
            'mem_spare' => ['shardcache_memory_spare_bytes', 'gauge', 'Bytes in empty slabs kept by shards for reuse (given back before anything is evicted).'],
            'spare_runs' => ['shardcache_memory_spare_runs', 'gauge', 'Empty slabs kept by shards for reuse.'],
            'pool_lock_acquisitions' => ['shardcache_pool_lock_acquisitions_total', 'counter', 'Times the page pool lock was taken.'],
            'global_lock_acquisitions' => ['shardcache_global_lock_acquisitions_total', 'counter', 'Times the whole-cache lock was taken (clear, cross-shard eviction).'],
            'slab_refills' => ['shardcache_slab_refills_total', 'counter', 'Slabs taken from the page pool by a shard.'],
            'slab_returns' => ['shardcache_slab_returns_total', 'counter', 'Empty slabs given back to the page pool.'],
            'spare_reuses' => ['shardcache_spare_reuses_total', 'counter', 'Slabs and page runs a shard took from its own spares instead of the page pool.'],
            'expunges' => ['shardcache_expunges_total', 'counter', 'Cross-shard evictions run under the global lock because a store did not fit.'],
            'evicted' => ['shardcache_evictions_total', 'counter', 'Entries evicted to make room.'],
            'expired' => ['shardcache_expired_total', 'counter', 'Expired entries removed.'],
            'nomem' => ['shardcache_nomem_total', 'counter', 'Stores that failed for lack of memory.'],
            'inserts' => ['shardcache_inserts_total', 'counter', 'Entries inserted.'],
            'updates' => ['shardcache_updates_total', 'counter', 'Entries replaced or updated in place.'],
            'deletes' => ['shardcache_deletes_total', 'counter', 'Entries deleted.'],
            'hits' => ['shardcache_hits_total', 'counter', 'Fetch hits recorded in the shards (sampled: grows in steps of the sample rate).'],
            'misses' => ['shardcache_misses_total', 'counter', 'Fetch misses recorded in the shards (sampled).'],
            'repairs' => ['shardcache_repairs_total', 'counter', 'Shards emptied because a process died while writing to them.'],
            'resets' => ['shardcache_resets_total', 'counter', 'Full resets of the cache (a process died leaving the page pool inconsistent).'],
            'lock_waits' => ['shardcache_lock_waits_total', 'counter', 'Shard lock requests that found the lock busy.'],
            'optimistic_retries' => ['shardcache_optimistic_retries_total', 'counter', 'Optimistic reads retried because a writer changed the shard.'],
            'clears' => ['shardcache_clears_total', 'counter', 'Calls of clear_cache that emptied the cache.'],
            'hit_sample' => ['shardcache_hit_sample_rate', 'gauge', 'Hits (misses) one recorded hit (miss) of the shard figures stands for.'],
            'start_time' => ['shardcache_start_time_seconds', 'gauge', 'Unix time the shared segment was created.'],
        ];
        static $large = [
            'runs' => ['shardcache_large_runs', 'gauge', 'Page runs holding one value too big for a slab.'],
            'pages' => ['shardcache_large_pages', 'gauge', 'Pages in runs holding one big value each.'],
        ];
        static $local = [
            'hits' => ['shardcache_process_hits', 'gauge', 'Fetch hits of the PHP process that answered this scrape.'],
            'misses' => ['shardcache_process_misses', 'gauge', 'Fetch misses of the PHP process that answered this scrape.'],
            'optimistic_retries' => ['shardcache_process_optimistic_retries', 'gauge', 'Optimistic reads of this PHP process retried because a writer changed the shard.'],
            'locked_reads' => ['shardcache_process_locked_reads', 'gauge', 'Reads of this PHP process that fell back to the shard read lock.'],
        ];
        static $shard = [
            'entries' => ['shardcache_shard_entries', 'gauge', 'Entries in the shard.'],
            'slots' => ['shardcache_shard_slots', 'gauge', 'Slots of the shard hash table.'],
            'hits' => ['shardcache_shard_hits_total', 'counter', 'Fetch hits recorded in the shard (sampled).'],
            'misses' => ['shardcache_shard_misses_total', 'counter', 'Fetch misses recorded in the shard (sampled).'],
            'tombstones' => ['shardcache_shard_tombstones', 'gauge', 'Deleted-entry markers in the shard hash table.'],
            'inserts' => ['shardcache_shard_inserts_total', 'counter', 'Entries inserted into the shard.'],
            'updates' => ['shardcache_shard_updates_total', 'counter', 'Entries of the shard replaced or updated in place.'],
            'deletes' => ['shardcache_shard_deletes_total', 'counter', 'Entries deleted from the shard.'],
            'expired' => ['shardcache_shard_expired_total', 'counter', 'Expired entries removed from the shard.'],
            'evicted' => ['shardcache_shard_evictions_total', 'counter', 'Entries evicted from the shard.'],
            'nomem' => ['shardcache_shard_nomem_total', 'counter', 'Stores into the shard that failed for lack of memory.'],
            'repairs' => ['shardcache_shard_repairs_total', 'counter', 'Times the shard was emptied because a process died while writing to it.'],
            'pages' => ['shardcache_shard_pages', 'gauge', 'Pool pages owned by the shard (slabs and large runs).'],
            'mem_used' => ['shardcache_shard_memory_used_bytes', 'gauge', 'Bytes handed out to the shard.'],
            'mem_wasted' => ['shardcache_shard_memory_wasted_bytes', 'gauge', 'Bytes handed out to entries of the shard beyond what they need.'],
            'lock_waits' => ['shardcache_shard_lock_waits_total', 'counter', 'Times a process had to wait for the shard lock.'],
            'optimistic_retries' => ['shardcache_shard_optimistic_retries_total', 'counter', 'Optimistic reads of the shard retried because a writer changed it.'],
        ];
        static $class = [
            'slabs' => ['shardcache_class_slabs', 'gauge', 'Slabs of this size class.'],
            'slab_pages' => ['shardcache_class_slab_pages', 'gauge', 'Pages in slabs of this size class.'],
            'objects_total' => ['shardcache_class_objects', 'gauge', 'Objects the slabs of this size class can hold.'],
            'objects_used' => ['shardcache_class_objects_used', 'gauge', 'Objects in use in slabs of this size class.'],
            'bytes_used' => ['shardcache_class_bytes_used', 'gauge', 'Bytes in use in slabs of this size class.'],
        ];

        $live = $info === null;
        $families = [];   // name => [type, help, [[labels, value], ...]]
        $add = function (string $name, string $type, string $help, array $labels, $value) use (&$families) {
            $v = shardcache_prometheus_value($value);
            if ($v === null) {
                return;
            }
            if (!isset($families[$name])) {
                $families[$name] = [$type, $help, []];
            }
            $families[$name][2][] = [$labels, $v];
        };
        // Unknown numeric keys: untyped, named after the key.
        $other = function (string $prefix, string $where, array $known, array $row, array $labels, array $skip = []) use ($add) {
            foreach ($row as $k => $v) {
                if (isset($known[$k]) || in_array($k, $skip, true) || is_array($v) || shardcache_prometheus_value($v) === null) {
                    continue;
                }
                $name = $prefix . preg_replace('/[^a-zA-Z0-9_]/', '_', (string)$k);
                $add($name, 'untyped', "shardcache_info() figure $where" . "[" . json_encode((string)$k) . "].", $labels, $v);
            }
        };

        if ($live) {
            $ok = function_exists('shardcache_info');
            $enabled = $ok && function_exists('shardcache_enabled') && shardcache_enabled();
            $add('shardcache_up', 'gauge', 'Whether the cache is enabled and shardcache_info() answered (1) or not (0).', [], 0);
            $add('shardcache_build_info', 'gauge', 'Version of the shardcache extension.',
                ['version' => (string)phpversion('shardcache')], 1);
            $info = [];
            if ($ok) {
                try {
                    $r = shardcache_info();
                    $info = is_array($r) ? $r : [];
                } catch (\Throwable $e) {
                    $info = [];
                }
            }
            $families['shardcache_up'][2][0][1] = ($enabled && $info) ? '1' : '0';
        }

        foreach ($top as $k => [$name, $type, $help]) {
            if (array_key_exists($k, $info)) {
                $add($name, $type, $help, [], $info[$k]);
            }
        }
        $other('shardcache_', '', $top, $info, [], ['local', 'per_shard', 'classes', 'large']);

        if (isset($info['large']) && is_array($info['large'])) {
            foreach ($large as $k => [$name, $type, $help]) {
                if (array_key_exists($k, $info['large'])) {
                    $add($name, $type, $help, [], $info['large'][$k]);
                }
            }
            $other('shardcache_large_', "['large']", $large, $info['large'], []);
        }

        if (isset($info['local']) && is_array($info['local'])) {
            foreach ($local as $k => [$name, $type, $help]) {
                if (array_key_exists($k, $info['local'])) {
                    $add($name, $type, $help, [], $info['local'][$k]);
                }
            }
            $other('shardcache_process_', "['local']", $local, $info['local'], []);
        }

        if (isset($info['per_shard']) && is_array($info['per_shard'])) {
            // One family at a time (the format wants a family's samples together).
            $unknown = [];
            foreach ($info['per_shard'] as $i => $row) {
                if (is_array($row)) {
                    foreach ($row as $k => $v) {
                        if (!isset($shard[$k])) {
                            $unknown[$k] = true;
                        }
                    }
                }
            }
            foreach ($shard as $k => [$name, $type, $help]) {
                foreach ($info['per_shard'] as $i => $row) {
                    if (is_array($row) && array_key_exists($k, $row)) {
                        $add($name, $type, $help, ['shard' => (string)$i], $row[$k]);
                    }
                }
            }
            foreach (array_keys($unknown) as $k) {
                foreach ($info['per_shard'] as $i => $row) {
                    if (is_array($row) && array_key_exists($k, $row)) {
                        $other('shardcache_shard_', "['per_shard'][n]", [], [$k => $row[$k]], ['shard' => (string)$i]);
                    }
                }
            }
        }

        if (isset($info['classes']) && is_array($info['classes'])) {
            $unknown = [];
            foreach ($info['classes'] as $row) {
                if (is_array($row)) {
                    foreach ($row as $k => $v) {
                        if (!isset($class[$k]) && $k !== 'size') {
                            $unknown[$k] = true;
                        }
                    }
                }
            }
            $label = function ($i, $row) {
                return ['size' => isset($row['size']) && is_scalar($row['size']) ? (string)$row['size'] : "class$i"];
            };
            foreach ($class as $k => [$name, $type, $help]) {
                foreach ($info['classes'] as $i => $row) {
                    if (is_array($row) && array_key_exists($k, $row)) {
                        $add($name, $type, $help, $label($i, $row), $row[$k]);
                    }
                }
            }
            foreach (array_keys($unknown) as $k) {
                foreach ($info['classes'] as $i => $row) {
                    if (is_array($row) && array_key_exists($k, $row)) {
                        $other('shardcache_class_', "['classes'][n]", [], [$k => $row[$k]], $label($i, $row));
                    }
                }
            }
        }

        $out = '';
        foreach ($families as $name => [$type, $help, $samples]) {
            $out .= "# HELP $name " . str_replace(["\\", "\n"], ["\\\\", "\\n"], $help) . "\n";
            $out .= "# TYPE $name $type\n";
            $seen = [];
            foreach ($samples as [$labels, $v]) {
                $l = '';
                if ($labels) {
                    $parts = [];
                    foreach ($labels as $ln => $lv) {
                        $parts[] = $ln . '="' . str_replace(["\\", "\"", "\n"], ["\\\\", "\\\"", "\\n"], $lv) . '"';
                    }
                    $l = '{' . implode(',', $parts) . '}';
                }
                if (isset($seen[$l])) {
                    continue;   // two rows with the same label (e.g. two classes of one size): keep the first
                }
                $seen[$l] = true;
                $out .= "$name$l $v\n";
            }
        }
        return $out;
    }

    /** A sample value as text, or null when the value is not a number. */
    function shardcache_prometheus_value($v): ?string
    {
        if (is_bool($v)) {
            return $v ? '1' : '0';
        }
        if (is_int($v)) {
            return (string)$v;
        }
        if (is_float($v)) {
            if (is_nan($v)) {
                return 'NaN';
            }
            if (is_infinite($v)) {
                return $v > 0 ? '+Inf' : '-Inf';
            }
            $s = var_export($v, true);   // shortest text that reads back as the same float
            return $s;
        }
        if (is_string($v) && is_numeric($v) && trim($v) === $v) {
            return shardcache_prometheus_value($v + 0);
        }
        return null;
    }
}

// Requested directly (not included): serve the metrics.
// (A router script of PHP's built-in server that falls through to this file
// runs first in the same request, so get_included_files() is no guide.)
if (realpath((string)($_SERVER['SCRIPT_FILENAME'] ?? '')) === __FILE__) {
    if (PHP_SAPI !== 'cli') {
        $token = getenv('SHARDCACHE_METRICS_TOKEN');
        if ($token !== false && $token !== '') {
            $auth = $_SERVER['HTTP_AUTHORIZATION'] ?? $_SERVER['REDIRECT_HTTP_AUTHORIZATION'] ?? '';
            $given = null;
            if (stripos($auth, 'Bearer ') === 0) {
                $given = trim(substr($auth, 7));
            } elseif (isset($_SERVER['PHP_AUTH_PW'])) {
                $given = (string)$_SERVER['PHP_AUTH_PW'];
            } elseif (stripos($auth, 'Basic ') === 0) {
                $pair = (string)base64_decode(substr($auth, 6), true);
                $given = substr($pair, (int)strpos($pair, ':') + 1);
            }
            if ($given === null || !hash_equals($token, $given)) {
                http_response_code(401);
                header('WWW-Authenticate: Basic realm="shardcache metrics"');
                header('Content-Type: text/plain; charset=utf-8');
                echo "401 Unauthorized\n";
                return;
            }
        }
        if (!in_array($_SERVER['REQUEST_METHOD'] ?? 'GET', ['GET', 'HEAD'], true)) {
            http_response_code(405);
            header('Allow: GET, HEAD');
            return;
        }
        header('Content-Type: text/plain; version=0.0.4; charset=utf-8');
        header('Cache-Control: no-store');
    }
    echo shardcache_prometheus();
}
