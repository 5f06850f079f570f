# scripts/provision/lib.sh - shell code shared by the machine builders of
# scripts/provision/ (chroot.sh, debian-root.sh, php-zts.sh, apcu.sh,
# apcu-suite.sh). It sources scripts/lib.sh (sc_help, sc_missing_pkgs,
# sc_apt_install ...).
#
#   . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
#
# (bash; defines the functions and settings below, runs nothing.)
#
# Settings, from the environment:
#   SC_CACHE_DIR        SHARDCACHE_CACHE_DIR, default /opt/shardcache: the
#                       cache of slow builds (roots, PHP and APCu builds,
#                       downloads), outside the clone
#   SC_MIRROR           SC_DEBIAN_MIRROR, default http://deb.debian.org/debian
#   SC_SECURITY_MIRROR  SC_DEBIAN_SECURITY_MIRROR, default
#                       http://deb.debian.org/debian-security
#
# Functions:
#   sc_debian_sort               stdin: lines "VERSION [REST]"; stdout: the
#                                same lines, the newest VERSION first
#                                (dpkg --compare-versions)
#   sc_apt_lists DIR LOG LINE... apt state of its own under DIR: DIR/sources.list
#                                holds the LINEs (e.g. "deb-src URL SUITE
#                                main"), the package lists and apt's cache
#                                live in DIR; sets the array SC_APT_OPTS
#                                (the apt-get / apt-cache options that use
#                                them, Valid-Until not checked) and runs
#                                apt-get update, its output in LOG, under an
#                                flock of DIR/lock (two runs would fight over
#                                apt's lock of the lists folder). Returns
#                                apt-get's status. The system's apt sources
#                                are neither read nor changed.
#   sc_lock PATH                 waits for, then holds for the rest of the
#                                script, an exclusive flock of PATH.lock
#                                (file descriptor 9; PATH's folder is made)
#   sc_debootstrap TAG ROOTFS SUITE MIRROR [ARG...]
#                                a minimal SUITE root made by debootstrap in
#                                ROOTFS.new (a leftover one is removed first;
#                                ARGs go to debootstrap, e.g. --include=...;
#                                debootstrap itself is installed when
#                                missing); on failure prints the ends of its
#                                logs and returns 1
#   sc_root_install TMP ROOTFS KEY START
#                                stamps the root TMP with KEY (and the seconds
#                                since START) in TMP/.shardcache-stamp, then
#                                puts it in the place of ROOTFS
#   sc_chroot_run ROOT CMD       CMD (bash -c) inside ROOT, in a private mount
#                                namespace with /proc, /dev and /dev/shm
#                                mounted (gone when CMD ends), with a clean
#                                environment (PATH, HOME, LANG, TERM, CI,
#                                NO_INTERACTION, DEBIAN_FRONTEND)

# shellcheck source=../lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

SC_CACHE_DIR="${SHARDCACHE_CACHE_DIR:-/opt/shardcache}"
SC_MIRROR="${SC_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SC_SECURITY_MIRROR="${SC_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"

sc_debian_sort() {
    local lines=() i j t
    mapfile -t lines
    # Insertion sort by dpkg --compare-versions (a handful of versions).
    for ((i = 1; i < ${#lines[@]}; i++)); do
        for ((j = i; j > 0; j--)); do
            dpkg --compare-versions "${lines[j]%% *}" gt "${lines[j-1]%% *}" || break
            t="${lines[j]}"; lines[j]="${lines[j-1]}"; lines[j-1]="$t"
        done
    done
    [ "${#lines[@]}" -eq 0 ] || printf '%s\n' "${lines[@]}"
}

sc_apt_lists() {
    local dir="$1" log="$2" rc=0; shift 2
    mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
    SC_APT_OPTS=(-o Dir::Etc::SourceList="$dir/sources.list" -o Dir::Etc::SourceParts=-
                 -o Dir::State::Lists="$dir/lists" -o Dir::Cache="$dir/cache"
                 -o Acquire::Check-Valid-Until=false -o Acquire::Languages=none)
    exec 8>"$dir/lock"
    flock 8
    printf '%s\n' "$@" >"$dir/sources.list.new"
    mv "$dir/sources.list.new" "$dir/sources.list"
    apt-get "${SC_APT_OPTS[@]}" -qq update </dev/null >"$log" 2>&1 || rc=$?
    exec 8>&-
    return "$rc"
}

sc_lock() {
    mkdir -p "$(dirname "$1")"
    exec 9>"$1.lock"
    flock 9
}

sc_debootstrap() {
    local tag="$1" rootfs="$2" tmp="$2.new" suite="$3" mirror="$4"; shift 4
    if ! command -v debootstrap >/dev/null 2>&1; then
        sc_apt_install "$tag" debootstrap >&2 || return 1
    fi
    rm -rf "$tmp"
    echo "$tag: debootstrap $suite into $rootfs (a few minutes)" >&2
    if ! debootstrap --variant=minbase "$@" "$suite" "$tmp" "$mirror" >"$tmp.log" 2>&1; then
        tail -n 30 "$tmp.log" >&2
        [ -f "$tmp/debootstrap/debootstrap.log" ] && tail -n 30 "$tmp/debootstrap/debootstrap.log" >&2
        return 1
    fi
    rm -f "$tmp.log"
}

sc_root_install() {
    local tmp="$1" rootfs="$2"
    { echo "$3"; echo "setup_seconds=$(( $(date +%s) - $4 ))"; } >"$tmp/.shardcache-stamp"
    rm -rf "$rootfs"
    mv "$tmp" "$rootfs"
}

sc_chroot_run() {
    # unshare -m: the mounts exist only in this private namespace, so nothing
    # is left mounted if the command is killed. -f: the chroot'ed shell is a
    # child that sees the new namespace.
    unshare -m -f --propagation private bash -c '
        set -e
        r="$1"; shift
        mount -t proc proc "$r/proc"
        mount --rbind /dev "$r/dev"
        mkdir -p "$r/dev/shm" && mount -t tmpfs -o mode=1777 tmpfs "$r/dev/shm"
        exec chroot "$r" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            HOME=/root LANG=C.UTF-8 TERM=dumb NO_INTERACTION=1 CI="${CI:-}" DEBIAN_FRONTEND=noninteractive \
            /bin/bash -c "$1"
    ' run "$@"
}
