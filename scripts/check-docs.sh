#!/usr/bin/env bash
# Checks that the documentation agrees with the tree it describes.
#
#   scripts/check-docs.sh [--fix] [--only=CHECK,...] [ROOT]   (default: this checkout)
#
# Checks (each prints "ok:   CHECK: ..." or "FAIL: CHECK: ..." per problem):
#   phases  every block of a Markdown file between the lines
#           <!-- phases:begin ... --> and <!-- phases:end --> is exactly the
#           output of `bash scripts/test.sh --list` in a ``` fence: the phase
#           list lives in scripts/test.sh alone, and docs include its output;
#   w32     config.w32 builds the same C files as config.m4 (order aside):
#           config.m4's SHARDCACHE_SOURCES against what config.w32 hands to
#           EXTENSION() and ADD_SOURCES() (string literals or variables
#           holding "a b c" or ["a", "b"].join(" "), each ADD_SOURCES
#           directory taken from its `configure_module_dirname + "\\dir"`);
#   links   every relative link of every Markdown file, [text](path) or
#           [text](path#anchor) or [text](#anchor), names a file that exists
#           and, for an anchor into a Markdown file, a heading of it (GitHub's
#           anchors: lower case, punctuation dropped, spaces as "-", "-1",
#           "-2" for repeats); links inside code are not links;
#   notes   package.xml's <notes> are CHANGELOG.md's newest section
#           (scripts/changelog-notes.sh --check).
#
# --fix rewrites every phases block from the live `scripts/test.sh --list`
# and package.xml's notes from CHANGELOG.md (scripts/changelog-notes.sh),
# then checks. The one command that regenerates every included copy:
#   bash scripts/check-docs.sh --fix
# Last line: "check-docs: N passed, N failed"; exits 1 on any failure.
# Needs bash, sed, grep, diff and perl (perl-base).
set -uo pipefail

fix=0
only="phases,w32,links,notes"
ROOT=""
for arg in "$@"; do
    case "$arg" in
        --fix) fix=1 ;;
        --only=*) only="${arg#--only=}" ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "check-docs: unknown option $arg" >&2; exit 2 ;;
        *) ROOT="$arg" ;;
    esac
done
ROOT="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
ROOT="$(cd "$ROOT" && pwd)" || exit 2
SELF_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

pass=0 failed=0
ok()  { pass=$((pass + 1)); echo "ok:   $*"; }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
wants() { case ",$only," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }

work="$(mktemp -d "${TMPDIR:-/tmp}/shardcache-docs.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# The Markdown files of ROOT, relative to it, one a line.
md_files() {
    if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1 \
        && [ "$(git -C "$ROOT" rev-parse --show-toplevel)" = "$ROOT" ]; then
        git -C "$ROOT" ls-files --cached --others --exclude-standard -- '*.md' \
            | while IFS= read -r f; do [ -f "$ROOT/$f" ] && printf '%s\n' "$f"; done
    else
        (cd "$ROOT" && find . -name '*.md' -not -path './.git/*' -not -path '*/vendor/*' \
            -not -path '*/node_modules/*' | sed 's|^\./||')
    fi | LC_ALL=C sort
}

# ---- phases ----------------------------------------------------------------
# The fenced block every phases block must hold.
phases_block() {
    printf '%s\n' '```'
    cat "$work/list"
    printf '%s\n' '```'
}

check_phases() {
    if ! bash "$ROOT/scripts/test.sh" --list >"$work/list" 2>"$work/list.err"; then
        bad "phases: bash scripts/test.sh --list failed: $(head -c 300 "$work/list.err")"
        return
    fi
    phases_block >"$work/block"
    local f n=0 copies before=$failed
    while IFS= read -r f; do
        grep -q '^<!-- phases:begin' "$ROOT/$f" || continue
        copies=$(grep -c '^<!-- phases:begin' "$ROOT/$f")
        if [ "$(grep -c '^<!-- phases:end -->' "$ROOT/$f")" != "$copies" ]; then
            bad "phases: $f: $copies phases:begin line(s) but $(grep -c '^<!-- phases:end -->' "$ROOT/$f") phases:end"
            continue
        fi
        if [ "$fix" -eq 1 ]; then
            # Keep the marker lines, replace what lies between them.
            awk -v blockfile="$work/block" '
                /^<!-- phases:begin/ { print; while ((getline l < blockfile) > 0) print l; close(blockfile); skip = 1; next }
                /^<!-- phases:end -->/ { skip = 0 }
                !skip { print }' "$ROOT/$f" >"$work/fixed" && cat "$work/fixed" >"$ROOT/$f"
        fi
        # Each block alone, compared with the live list.
        awk -v out="$work/copy." '
            /^<!-- phases:begin/ { n++; inside = 1; next }
            /^<!-- phases:end -->/ { inside = 0; next }
            inside { print > (out n) }' "$ROOT/$f"
        local i=1
        while [ "$i" -le "$copies" ]; do
            touch "$work/copy.$i"
            if diff -u "$work/block" "$work/copy.$i" >"$work/diff"; then
                n=$((n + 1))
            else
                bad "phases: $f (copy $i of $copies) differs from scripts/test.sh --list (fix: bash scripts/check-docs.sh --fix):"
                sed -n '3,12p' "$work/diff" | sed 's/^/      /'
            fi
            rm -f "$work/copy.$i"
            i=$((i + 1))
        done
    done < <(md_files)
    if [ "$n" -eq 0 ] && [ "$failed" -eq "$before" ]; then
        bad "phases: no Markdown file includes the phase list (<!-- phases:begin --> ... <!-- phases:end -->)"
    elif [ "$failed" -eq "$before" ]; then
        ok "phases: $n included copy(ies) of scripts/test.sh --list ($(wc -l <"$work/list") lines) match"
    fi
}

# ---- w32 -------------------------------------------------------------------
check_w32() {
    local m4="$ROOT/config.m4" w32="$ROOT/config.w32"
    [ -f "$m4" ] && [ -f "$w32" ] || { bad "w32: config.m4 or config.w32 missing in $ROOT"; return; }
    # config.m4: the words ending in .c between SHARDCACHE_SOURCES=" and the closing quote.
    perl -0777 -ne '
        /SHARDCACHE_SOURCES="([^"]*)"/ or die "no SHARDCACHE_SOURCES=\"...\" in config.m4\n";
        my $s = $1; $s =~ s/\\\n/ /g;
        print "$_\n" for grep { /\.c$/ } split /\s+/, $s;
    ' "$m4" 2>"$work/m4.err" | LC_ALL=C sort >"$work/m4" || true
    # config.w32: variables, then the EXTENSION / ADD_SOURCES calls.
    perl -0777 -ne '
        my %var;
        my $text = $_;
        $text =~ s{^\s*//[^\n]*}{}mg;
        while ($text =~ /var\s+(\w+)\s*=\s*("(?:[^"\\]|\\.)*"|\[[^\]]*\]\s*\.join\(\s*"\s*"\s*\))\s*;/g) {
            my ($name, $val) = ($1, $2);
            my @w = $val =~ /"((?:[^"\\]|\\.)*)"/g;
            pop @w if $val =~ /^\[/;   # the join separator
            $var{$name} = [ map { split /\s+/ } @w ];
        }
        my @files;
        my $words = sub {
            my $arg = shift; $arg =~ s/^\s+|\s+$//g;
            return $arg =~ /^"(.*)"$/s ? [ split /\s+/, $1 ] : ($var{$arg} // die "config.w32: unknown source list $arg\n");
        };
        while ($text =~ /\bEXTENSION\(\s*"shardcache"\s*,\s*([^,]+),/g) {
            push @files, @{ $words->($1) };
        }
        while ($text =~ /\bADD_SOURCES\(\s*([^,]+),\s*([^,]+),/g) {
            my ($dir, $list) = ($1, $2);
            my $sub = "";
            if ($dir =~ /"((?:[^"\\]|\\.)*)"/) { $sub = $1; $sub =~ s/\\\\/\//g; $sub =~ s/\\/\//g; $sub =~ s{^/+}{}; $sub =~ s{/*$}{/}; $sub = "" if $sub eq "/"; }
            push @files, map { "$sub$_" } @{ $words->($list) };
        }
        print "$_\n" for grep { length } @files;
    ' "$w32" 2>"$work/w32.err" | LC_ALL=C sort >"$work/w32" || true
    if [ -s "$work/m4.err" ] || [ -s "$work/w32.err" ]; then
        bad "w32: cannot read the source lists: $(cat "$work/m4.err" "$work/w32.err" | tr '\n' ' ')"
        return
    fi
    if [ ! -s "$work/m4" ]; then
        bad "w32: config.m4 lists no C file"
        return
    fi
    local only_m4 only_w32 dup
    only_m4=$(LC_ALL=C comm -23 "$work/m4" "$work/w32" | tr '\n' ' ')
    only_w32=$(LC_ALL=C comm -13 "$work/m4" "$work/w32" | tr '\n' ' ')
    dup=$(cat "$work/m4" "$work/w32" | LC_ALL=C sort | uniq -c | awk '$1 > 2 { print $2 }' | tr '\n' ' ')
    dup="$dup$(uniq -d "$work/m4" | tr '\n' ' ')$(uniq -d "$work/w32" | tr '\n' ' ')"
    if [ -n "$only_m4" ]; then bad "w32: in config.m4, not built by config.w32: $only_m4"; fi
    if [ -n "$only_w32" ]; then bad "w32: built by config.w32, not in config.m4: $only_w32"; fi
    if [ -n "$dup" ]; then bad "w32: listed twice: $dup"; fi
    if [ -z "$only_m4$only_w32$dup" ]; then
        ok "w32: config.w32 and config.m4 build the same $(wc -l <"$work/m4") C files"
    fi
}

# ---- links -----------------------------------------------------------------
check_links() {
    md_files >"$work/md"
    local out
    out=$(cd "$ROOT" && perl -e '
        use strict; use warnings;
        my @files = @ARGV;
        my (%slugs, $bad, $n);
        sub text_of {
            my $f = shift;
            open(my $h, "<", $f) or return undef;
            my @l = <$h>; close $h;
            my ($fence, @out) = (undef);
            for (@l) {
                if (/^\s*(```+|~~~+)/) {
                    my $m = $1;
                    if (!defined $fence) { $fence = substr($m, 0, 3); push @out, "\n"; next; }
                    if (substr($m, 0, 3) eq $fence) { $fence = undef; push @out, "\n"; next; }
                }
                push @out, defined $fence ? "\n" : $_;
            }
            return \@out;
        }
        sub slugs_of {
            my $f = shift;
            return $slugs{$f} if $slugs{$f};
            my %s; my %seen;
            my $lines = text_of($f) // [];
            for (@$lines) {
                next unless /^#{1,6}\s+(.*?)\s*#*\s*$/;
                my $h = lc $1;
                $h =~ s/\[([^\]]*)\]\([^)]*\)/$1/g;   # a link keeps its text
                $h =~ s/[^\w\- ]//g;                   # punctuation goes (letters, digits, _ and - stay)
                $h =~ s/ /-/g;
                my $slug = $seen{$h}++ ? "$h-" . ($seen{$h} - 1) : $h;
                $s{$slug} = 1;
            }
            for (@$lines) { $s{$1} = 1 while /<a\s+(?:name|id)="([^"]+)"/g; }
            return $slugs{$f} = \%s;
        }
        for my $f (@files) {
            my $lines = text_of($f) or next;
            my $ln = 0;
            for my $line (@$lines) {
                $ln++;
                (my $t = $line) =~ s/`[^`]*`//g;       # code spans are not links
                while ($t =~ /\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g) {
                    my $target = $1;
                    next if $target =~ m{^[a-zA-Z][a-zA-Z0-9+.-]*:};   # http:, mailto: ...
                    $n++;
                    my ($path, $anchor) = split /#/, $target, 2;
                    my $dir = $f =~ m{^(.*)/} ? $1 : ".";
                    my $dest = length $path ? "$dir/$path" : $f;
                    $dest =~ s{^\./}{};
                    1 while $dest =~ s{(^|/)(?!\.\./)[^/]+/\.\./}{$1};
                    if (!-e $dest) { print "$f:$ln: $target: no such file ($dest)\n"; $bad++; next; }
                    next unless defined $anchor && length $anchor;
                    next unless $dest =~ /\.md$/;
                    if (!slugs_of($dest)->{lc $anchor}) { print "$f:$ln: $target: no heading #$anchor in $dest\n"; $bad++; }
                }
            }
        }
        print "checked $n\n";
    ' $(cat "$work/md"))
    local checked problems
    checked=$(sed -n 's/^checked //p' <<<"$out")
    problems=$(grep -v '^checked ' <<<"$out")
    if [ -n "$problems" ]; then
        while IFS= read -r p; do bad "links: $p"; done <<<"$problems"
    else
        ok "links: ${checked:-0} relative links in $(wc -l <"$work/md") Markdown files resolve"
    fi
}

# ---- notes -----------------------------------------------------------------
check_notes() {
    local notes_sh="$ROOT/scripts/changelog-notes.sh" out
    [ -f "$notes_sh" ] || notes_sh="$SELF_DIR/changelog-notes.sh"
    if [ "$fix" -eq 1 ]; then
        bash "$notes_sh" "$ROOT" >/dev/null || true
    fi
    if out=$(bash "$notes_sh" --check "$ROOT" 2>&1); then
        ok "notes: package.xml's <notes> are CHANGELOG.md's newest section"
    else
        while IFS= read -r p; do bad "notes: $p"; done <<<"$out"
    fi
}

wants phases && check_phases
wants w32 && check_w32
wants links && check_links
wants notes && check_notes

echo "check-docs: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
