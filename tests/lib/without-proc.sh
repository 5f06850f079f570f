#!/usr/bin/env bash
# Runs a command with /proc hidden: in a private mount namespace (unshare
# --mount) an empty tmpfs is mounted over /proc, as in a php-fpm pool with
# `chroot =` or a minimal container. Needs root (CAP_SYS_ADMIN). Pids and
# everything else are shared with the rest of the machine.
#
#   tests/lib/without-proc.sh COMMAND [ARGS...]
#   tests/lib/without-proc.sh --check     exit 0 when this can work here
set -uo pipefail

if [ "${1:-}" = --check ]; then
    [ "$(id -u)" = 0 ] && command -v unshare >/dev/null \
        && unshare --mount --propagation private -- sh -c 'mount -t tmpfs -o size=64k noproc /proc && [ ! -e /proc/self ]' \
            2>/dev/null
    exit $?
fi
if [ $# -eq 0 ] || [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
    sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 2
fi
exec unshare --mount --propagation private -- \
    sh -c 'mount -t tmpfs -o size=64k noproc /proc || exit 125; exec "$@"' without-proc "$@"
