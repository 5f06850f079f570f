#!/usr/bin/env bash
# Squatting a named segment's path: another unprivileged local user puts
# something at the path a pool's user will use before that user's first
# process starts (after a reboot, or after the file was removed to empty
# the cache), in a directory every user may write (world-writable and
# sticky, like /dev/shm), with the documented path syntax
# (shardcache.segment=DIR/shardcache-%u). Two users are created for the
# run (useradd; removed at the end): the victim sc-sq-victim and the
# attacker sc-sq-attacker, both members of the group sc-sq-shared.
#
#   tests/segment/squat.sh [--so=PATH]
#
# Each attempt, one pass/fail each: the victim's process (run under a 20 s
# timeout: nothing may block it) warns with the expected reason, maps
# nothing of the attacker's, and still has a working cache (a private
# segment: its store and fetch answer exactly); what the attacker left is
# unchanged (byte for byte) and holds nothing of the victim's.
#   empty-file       an empty file, mode 0666
#   unreadable-file  an empty file, mode 0600 (the victim cannot open it)
#   link-to-victim   a symbolic link to a file of the victim's (unchanged)
#   dangling-link    a symbolic link to a missing path (not created)
#   fifo             a FIFO (the open must not block)
#   group-file       an empty file of group sc-sq-shared, mode 0660, the
#                    victim on segment_mode=0660
#   valid-segment    a segment the attacker made with shardcache at the
#                    victim's path (group sc-sq-shared, mode 0660, holding
#                    a planted entry): refused with segment_mode 0600 and
#                    0660, and with 0660 when the victim's own group is
#                    sc-sq-shared; the victim never sees the planted entry,
#                    the attacker never sees the victim's
#   lock-fifo        the victim's own segment needs replacing (cut short)
#                    and the attacker put a FIFO at its lock file
#                    (.NAME.lock): refused without blocking
#   recovered        once root removed what the attacker left, the victim's
#                    processes share one segment file again
#   private-dir      the documented setup: a directory of the victim's
#                    (mode 0700, as systemd's RuntimeDirectory= makes it):
#                    the attacker cannot put anything there; the victim's
#                    processes share the segment
# Last line: "N passed, N failed"; exit status 0 only when none failed.
# Needs root (useradd, runuser).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
. "$ROOT/scripts/lib.sh"
sc_so_option segment-squat "$0" "$@"

PASS=0
FAIL=0
abort() { echo "segment-squat: $*" >&2; echo "$PASS passed, $((FAIL + 1)) failed"; exit 1; }

[ "$(id -u)" -eq 0 ] || abort "needs root (creates two users and runs PHP as them)"
[ -f "$SO" ] || abort "$SO not found (build it: bash scripts/build.sh)"
PHP="${PHP:-php}"
command -v "$PHP" >/dev/null || abort "$PHP not found"

VICTIM=sc-sq-victim ATTACKER=sc-sq-attacker SHARED=sc-sq-shared
MADE_USERS=() MADE_GROUP=0
TMP="" SHM=""
cleanup() {
    [ -n "$SHM" ] && rm -rf "$SHM"
    [ -n "$TMP" ] && rm -rf "$TMP"
    local u
    for u in ${MADE_USERS[@]+"${MADE_USERS[@]}"}; do userdel "$u" 2>/dev/null; done
    [ "$MADE_GROUP" = 1 ] && groupdel "$SHARED" 2>/dev/null
    return 0
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if ! getent group "$SHARED" >/dev/null; then
    groupadd --system "$SHARED" || abort "cannot create group $SHARED"
    MADE_GROUP=1
fi
for u in "$VICTIM" "$ATTACKER"; do
    if ! id -u "$u" >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin -G "$SHARED" "$u" || abort "cannot create user $u"
        MADE_USERS+=("$u")
    fi
done
VUID="$(id -u "$VICTIM")"

# Everything the users read: the extension, in a directory they can reach.
TMP="$(mktemp -d /tmp/sc-squat.XXXXXX)" || abort "cannot make a directory in /tmp"
chmod 755 "$TMP"
cp "$SO" "$TMP/shardcache.so" && chmod 644 "$TMP/shardcache.so" || abort "cannot copy $SO"
# The victim's own files (a link target), out of the attacker's reach.
mkdir -m 700 "$TMP/victim-home" && echo "the victim's own data" >"$TMP/victim-home/notes" \
    && chown -R "$VICTIM:" "$TMP/victim-home" || abort "cannot make the victim's directory"
# The segments' directory: world-writable and sticky, like /dev/shm.
SHM="$(mktemp -d /dev/shm/sc-squat.XXXXXX)" || abort "cannot make a directory in /dev/shm"
chmod 1777 "$SHM"
TPL="$SHM/shardcache-%u"
SEG="$SHM/shardcache-$VICTIM"

# php USER [-g GROUP] -- ARGS...: PHP with shardcache as USER (its primary
# group, or GROUP), under a 20 s timeout; stdout and stderr together, the
# exit status 124 when it ran out of time
php_as() {
    local user="$1"; shift
    local grp=()
    if [ "$1" = -g ]; then grp=(-g "$2"); shift 2; fi
    [ "$1" = -- ] && shift
    runuser -u "$user" "${grp[@]}" -- timeout 20 "$PHP" -n -d "extension=$TMP/shardcache.so" -d apc.enable_cli=1 \
        -d display_errors=stderr -d error_reporting=-1 -d log_errors=0 "$@" 2>&1
}
# The victim's process: stores its secret, reads it back, and looks for
# the attacker's planted entry.
VCODE='$r = shardcache_info()["segment_refused"];
echo "refused=", $r === "" ? "no" : "yes", " store=", var_export(apcu_store("secret", "pw-123"), true),
     " fetch=", var_export(apcu_fetch("secret"), true), " planted=", var_export(apcu_fetch("planted"), true), "\n";'
victim() { php_as "$VICTIM" "$@" -d "shardcache.segment=$TPL" -r "$VCODE"; }
as_attacker() { runuser -u "$ATTACKER" -- "$@"; }
digest() { [ -e "$1" ] || [ -L "$1" ] && { stat -c '%F %U:%G %a %s' "$1"; [ -f "$1" ] && md5sum <"$1" | cut -c1-32; } | tr '\n' ' '; }
fresh() { rm -rf "$SEG" "$SHM/.shardcache-$VICTIM.lock" "$SHM/planted"; }

WORKS="refused=yes store=true fetch='pw-123' planted=false"
# attempt NAME REASON [victim args...]: the victim runs once; its warning
# must carry REASON, its cache must work, the path must be as it was.
attempt() {
    local name="$1" reason="$2"; shift 2
    local before after out rc
    before="$(digest "$SEG")"
    out="$(victim "$@")"; rc=$?
    after="$(digest "$SEG")"
    local ok=1
    if [ "$rc" -eq 0 ] && [ "$(echo "$out" | tail -n 1)" = "$WORKS" ] && [ "$before" = "$after" ] \
        && grep -q "Warning: PHP Startup: shardcache: .*$reason.*this process uses a private anonymous segment instead" <<<"$out"; then
        ok=0
    fi
    sc_check "$name" "$ok" "exit $rc; $(echo "$out" | tr '\n' ' ' | sed "s|$SHM|SHM|g"); path before: ${before:-none}; after: ${after:-none}"
}

# ---- empty-file, unreadable-file --------------------------------------------
fresh; as_attacker install -m 0666 /dev/null "$SEG"
attempt empty-file "is owned by uid $(id -u "$ATTACKER"), not by this process's user (uid $VUID) or root"
fresh; as_attacker install -m 0600 /dev/null "$SEG"
attempt unreadable-file "cannot open $SEG: Permission denied"

# ---- link-to-victim, dangling-link ------------------------------------------
fresh; as_attacker ln -s "$TMP/victim-home/notes" "$SEG"
notes_before="$(md5sum <"$TMP/victim-home/notes")"
attempt link-to-victim "$SEG is a symbolic link"
[ "$(md5sum <"$TMP/victim-home/notes")" = "$notes_before" ]
sc_check "link-to-victim: the link's target is unchanged" $?
fresh; as_attacker ln -s "$SHM/planted" "$SEG"
attempt dangling-link "$SEG is a symbolic link"
[ ! -e "$SHM/planted" ]; sc_check "dangling-link: nothing was created through the link" $?

# ---- fifo ---------------------------------------------------------------------
fresh; as_attacker mkfifo -m 0666 "$SEG"
attempt fifo "$SEG is not a regular file"

# ---- group-file -----------------------------------------------------------------
fresh; as_attacker sg "$SHARED" -c "install -m 0660 /dev/null '$SEG'"
attempt group-file "is owned by uid $(id -u "$ATTACKER")" -d shardcache.segment_mode=0660

# ---- valid-segment ----------------------------------------------------------------
fresh
made="$(php_as "$ATTACKER" -g "$SHARED" -d "shardcache.segment=$SEG" -d shardcache.segment_mode=0660 \
    -r 'var_dump(apcu_store("planted", "evil"));')"
[ "$made" = "bool(true)" ] && [ "$(stat -c '%U:%G %a' "$SEG")" = "$ATTACKER:$SHARED 660" ]
sc_check "valid-segment: the attacker made a segment at the victim's path" $? "$made; $(stat -c '%U:%G %a %s' "$SEG" 2>&1)"
owned="is owned by uid $(id -u "$ATTACKER"), not by this process's user (uid $VUID) or root"
attempt "valid-segment (victim: segment_mode 0600)" "$owned"
attempt "valid-segment (victim: segment_mode 0660)" "$owned" -d shardcache.segment_mode=0660
before="$(digest "$SEG")"
out="$(php_as "$VICTIM" -g "$SHARED" -d "shardcache.segment=$TPL" -d shardcache.segment_mode=0660 -r "$VCODE")"
[ "$(echo "$out" | tail -n 1)" = "$WORKS" ] && grep -q "$owned" <<<"$out" && [ "$(digest "$SEG")" = "$before" ]
sc_check "valid-segment (victim: segment_mode 0660, group $SHARED)" $? "$(echo "$out" | tr '\n' ' ' | sed "s|$SHM|SHM|g")"
seen="$(php_as "$ATTACKER" -g "$SHARED" -d "shardcache.segment=$SEG" -d shardcache.segment_mode=0660 \
    -r 'var_dump(apcu_fetch("planted"), apcu_fetch("secret"), apcu_cache_info()["num_entries"]);' | tr '\n' ' ')"
[ "$seen" = 'string(4) "evil" bool(false) int(1) ' ]
sc_check "valid-segment: the attacker's segment holds nothing of the victim's" $? "$seen"

# ---- lock-fifo --------------------------------------------------------------------
fresh
out="$(victim)"
[ "$out" = "refused=no store=true fetch='pw-123' planted=false" ] && [ "$(stat -c '%U %a' "$SEG")" = "$VICTIM 600" ]
sc_check "lock-fifo: the victim made its own segment" $? "$out; $(stat -c '%U %a' "$SEG" 2>&1)"
truncate -s 100 "$SEG"
as_attacker mkfifo -m 0666 "$SHM/.shardcache-$VICTIM.lock"
attempt lock-fifo "$SHM/.shardcache-$VICTIM.lock is not a regular file"

# ---- recovered ----------------------------------------------------------------------
fresh
one="$(victim)"
two="$(php_as "$VICTIM" -d "shardcache.segment=$TPL" -r 'echo var_export(apcu_fetch("secret"), true), " ", shardcache_info()["segment_refused"] === "" ? "named" : "refused", "\n";')"
[ "$one" = "refused=no store=true fetch='pw-123' planted=false" ] && [ "$two" = "'pw-123' named" ]
sc_check recovered $? "first: $one; second: $two"

# ---- private-dir ----------------------------------------------------------------------
RUN="$TMP/run"
mkdir -m 755 "$RUN" && install -d -m 700 -o "$VICTIM" -g "$VICTIM" "$RUN/$VICTIM"
PSEG="$RUN/$VICTIM/segment"
tries=""
as_attacker touch "$PSEG" 2>/dev/null && tries+="file "
as_attacker ln -s /dev/null "$PSEG" 2>/dev/null && tries+="link "
as_attacker mkfifo "$PSEG" 2>/dev/null && tries+="fifo "
one="$(php_as "$VICTIM" -d "shardcache.segment=$RUN/%u/segment" -r "$VCODE")"
two="$(php_as "$VICTIM" -d "shardcache.segment=$RUN/%u/segment" -r 'var_dump(apcu_fetch("secret"));')"
[ -z "$tries" ] && [ "$one" = "refused=no store=true fetch='pw-123' planted=false" ] && [ "$two" = 'string(6) "pw-123"' ] \
    && [ "$(stat -c '%U %a' "$PSEG")" = "$VICTIM 600" ]
sc_check private-dir $? "attacker managed: ${tries:-nothing}; victim: $one; again: $two; $(stat -c '%U %a' "$PSEG" 2>&1)"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
