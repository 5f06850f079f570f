#!/usr/bin/env bash
# Checks the titles of the phpt tests (the --TEST-- section of every
# tests/**/*.phpt, trimmed, as run-tests.php prints it in its summary); no
# PHP needed. Fails (exit 1) with one line per offending file when:
#   - a title is longer than 80 characters (bytes; the titles are ASCII):
#     a title says what the test proves in one line a summary can show,
#     the detail goes in the test's --DESCRIPTION-- section, which
#     run-tests.php accepts and ignores;
#   - two tests have the same title (the later file is named, with the
#     first one that has it).
# Prints "check-titles: ok (N tests)" otherwise.
#
#   scripts/check-titles.sh [ROOT]     (default: this checkout)
set -euo pipefail

ROOT="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
cd "$ROOT"
MAX=80

mapfile -d '' files < <(find tests -name '*.phpt' -type f -print0 | LC_ALL=C sort -z)
if [ "${#files[@]}" -eq 0 ]; then
    echo "check-titles: no tests/**/*.phpt under $ROOT" >&2
    exit 1
fi

# One pass over all files (the duplicates need them all): a title is every
# line from the one after "--TEST--" up to the next "--SECTION--" line,
# joined by newlines and trimmed of surrounding white space.
LC_ALL=C awk -v max="$MAX" '
    function problem(msg) { print "check-titles: " msg > "/dev/stderr"; bad = 1 }
    function finish() {
        if (file == "" || !has_test) return
        t = title
        sub(/^[ \t\r\n]+/, "", t); sub(/[ \t\r\n]+$/, "", t)
        n++
        if (length(t) > max)
            problem(sprintf("%s: title is %d characters (over %d)", file, length(t), max))
        if (t in seen)
            problem(sprintf("%s: same title as %s", file, seen[t]))
        else
            seen[t] = file
    }
    FNR == 1 {
        finish()
        file = FILENAME; title = ""; has_test = ($0 == "--TEST--"); in_title = has_test
        if (!has_test) problem(file ": does not start with --TEST--")
        next
    }
    in_title && /^--[A-Z_]+--[ \t\r]*$/ { in_title = 0; next }
    in_title { title = (title == "" ? $0 : title "\n" $0) }
    END {
        finish()
        if (bad) exit 1
        printf "check-titles: ok (%d tests)\n", n
    }
' "${files[@]}"
