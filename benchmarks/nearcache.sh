#!/usr/bin/env bash
# Benchmark of Shardcache\NearCache (benchmarks/nearcache.php): a hot key's
# get() through NearCache vs phpredis GET alone vs Symfony's
# ChainAdapter(APCu, Redis), and the invalidation delay under load, against a
# private redis-server on a free port. Installs what it needs
# (tests/nearcache/setup.sh, then the Composer packages of tests/nearcache).
#
#   scripts/bench.sh nearcache [options]   (sets up and builds first)
#   benchmarks/nearcache.sh [--rounds=5] [--seconds=1] [--load=2] [--writes=400]
#   benchmarks/nearcache.sh --cluster [--rounds=5] [--seconds=1]
#       (benchmarks/nearcache-cluster.php: local hit vs \RedisCluster GET on a
#       private 3+3 node Redis Cluster)
set -euo pipefail
case "${1:-}" in -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;; esac
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SO="${SO:-$ROOT/modules/shardcache.so}"
[ -f "$SO" ] || { echo "bench-nearcache: $SO not found (build it: scripts/bench.sh nearcache)" >&2; exit 1; }
bash "$ROOT/tests/nearcache/setup.sh" >/dev/null
cd "$ROOT/tests/nearcache"
export COMPOSER_ALLOW_SUPERUSER=1 COMPOSER_NO_INTERACTION=1
if [ ! -f vendor/autoload.php ] || [ composer.json -nt vendor/autoload.php ]; then
    composer update --no-interaction --no-progress --prefer-dist </dev/null >&2
    touch vendor/autoload.php
fi
cd "$ROOT"
COMMON=(-d extension=igbinary.so -d extension=redis.so -d extension=posix.so -d memory_limit=512M)
SC=(-n -d "extension=$SO" -d apc.enable_cli=1 -d apc.shm_size=64M "${COMMON[@]}")
AP=(-n -d extension=apcu.so -d apc.enable_cli=1 -d apc.shm_size=64M "${COMMON[@]}")
NEARCACHE_PHP_ARGS="$(php -n -r 'echo json_encode(array_slice($argv, 1));' -- "${SC[@]}")"
NEARCACHE_APCU_ARGS="$(php -n -r 'echo json_encode(array_slice($argv, 1));' -- "${AP[@]}")"
export NEARCACHE_PHP_ARGS NEARCACHE_APCU_ARGS
if [ "${1:-}" = --cluster ]; then
    shift
    exec php "${SC[@]}" benchmarks/nearcache-cluster.php "$@"
fi
exec php "${SC[@]}" benchmarks/nearcache.php "$@"
