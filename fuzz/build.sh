#!/usr/bin/env bash
# Builds the libFuzzer target fuzz/fuzz_cache.c over the shardcache core
# (every src/*.c, against the real include/ headers: the core has no PHP in
# it, scripts/check-core.sh sees to that) with clang,
# -fsanitize=fuzzer,address,undefined and -DSC_DEBUG (the core's SC_ASSERT
# rules, include/README.md). Output: fuzz/out/fuzz_cache
# (fuzz/out/ is build output, not source).
#
#   fuzz/build.sh            build (installs clang-14 and libclang-rt-14-dev
#                            with apt-get when missing; needs root)
#
# Environment: CC (default: clang-14, else clang), FUZZ_OUT (default fuzz/out).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${FUZZ_OUT:-$ROOT/fuzz/out}"
mkdir -p "$OUT"

find_cc() {
    if [ -n "${CC:-}" ] && command -v "$CC" >/dev/null 2>&1; then echo "$CC"; return; fi
    for c in clang-14 clang; do
        if command -v "$c" >/dev/null 2>&1; then echo "$c"; return; fi
    done
}

# clang and its libFuzzer / sanitizer runtimes (Debian bookworm: libclang-rt-14-dev).
have_fuzzer() {
    local cc="$1"
    [ -n "$cc" ] || return 1
    echo 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) { (void)d; (void)n; return 0; }' \
        | "$cc" -x c -fsanitize=fuzzer,address,undefined -o "$OUT/.probe" - >/dev/null 2>&1
}
CCBIN="$(find_cc || true)"
if ! have_fuzzer "$CCBIN"; then
    echo "fuzz/build.sh: installing clang-14 and libclang-rt-14-dev"
    SUDO=()
    [ "$(id -u)" -ne 0 ] && SUDO=(sudo -n)
    export DEBIAN_FRONTEND=noninteractive
    "${SUDO[@]}" apt-get update -qq </dev/null
    "${SUDO[@]}" apt-get install -y -qq -o Dpkg::Use-Pty=0 clang-14 libclang-rt-14-dev </dev/null >/dev/null
    CCBIN="$(find_cc)"
    have_fuzzer "$CCBIN" || { echo "fuzz/build.sh: $CCBIN cannot link -fsanitize=fuzzer" >&2; exit 1; }
fi
rm -f "$OUT/.probe"

srcs=("$ROOT"/src/*.c)

echo "fuzz/build.sh: $CCBIN, ${#srcs[@]} core files -> $OUT/fuzz_cache"
"$CCBIN" -std=c11 -D_GNU_SOURCE -DSC_DEBUG -g -O1 -fno-omit-frame-pointer -Wall -Wextra \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I "$ROOT/include" \
    "${srcs[@]}" "$ROOT/fuzz/fuzz_cache.c" -o "$OUT/fuzz_cache"
echo "fuzz/build.sh: ok"
