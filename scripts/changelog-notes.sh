#!/usr/bin/env bash
# Writes package.xml's <notes> from the newest release section of
# CHANGELOG.md, or checks that they agree.
#
#   scripts/changelog-notes.sh [--check] [ROOT]     (default: this checkout)
#
# The newest section is the first "## " heading of CHANGELOG.md and the lines
# up to the next "## " heading. Its heading must start with package.xml's
# release version ("## 0.1.0 ..."). <notes> gets the section's lines without
# the heading, leading and trailing blank lines dropped, with &, < and >
# escaped for XML; nothing else in package.xml changes.
#
# --check changes nothing: it prints what differs and exits 1 when the notes
# are not the section, or the versions disagree. Without it the notes are
# rewritten (exit 0, "changelog-notes: package.xml's notes written").
# Needs perl (perl-base, part of every Debian system).
set -euo pipefail

check=0
ROOT=""
for arg in "$@"; do
    case "$arg" in
        --check) check=1 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "changelog-notes: unknown option $arg" >&2; exit 2 ;;
        *) ROOT="$arg" ;;
    esac
done
ROOT="${ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"

[ -f "$ROOT/CHANGELOG.md" ] || { echo "changelog-notes: no CHANGELOG.md in $ROOT" >&2; exit 2; }
[ -f "$ROOT/package.xml" ] || { echo "changelog-notes: no package.xml in $ROOT" >&2; exit 2; }

CHECK="$check" perl -e '
    use strict; use warnings;
    my ($changelog, $xmlfile) = @ARGV;
    my $check = $ENV{CHECK};
    sub slurp { my $f = shift; open(my $h, "<", $f) or die "changelog-notes: $f: $!\n"; local $/; my $t = <$h>; close $h; return $t; }
    my @lines = split /\n/, slurp($changelog), -1;
    my ($heading, @body);
    for my $l (@lines) {
        if ($l =~ /^## /) { last if defined $heading; $heading = $l; next; }
        push @body, $l if defined $heading;
    }
    defined $heading or die "changelog-notes: CHANGELOG.md has no \"## \" section\n";
    shift @body while @body && $body[0] =~ /^\s*$/;
    pop @body while @body && $body[-1] =~ /^\s*$/;
    my $notes = join("\n", @body);
    $notes =~ s/&/&amp;/g; $notes =~ s/</&lt;/g; $notes =~ s/>/&gt;/g;

    my $xml = slurp($xmlfile);
    my ($release) = $xml =~ m{<version>\s*<release>([^<]+)</release>}s
        or die "changelog-notes: package.xml has no <version><release>\n";
    my $bad = 0;
    my ($version) = $heading =~ /^##\s+v?([0-9][^\s]*)/;
    if (!defined $version || $version ne $release) {
        print STDERR "changelog-notes: CHANGELOG.md newest section \"$heading\" is not release $release of package.xml\n";
        $bad = 1;
    }
    $xml =~ m{( *)<notes>(.*?)</notes>}s or die "changelog-notes: package.xml has no <notes>\n";
    my ($indent, $old) = ($1, $2);
    (my $old_trim = $old) =~ s/^\s*\n//; $old_trim =~ s/\s+$//;
    if ($check) {
        if ($old_trim ne $notes) {
            print STDERR "changelog-notes: package.xml <notes> differ from CHANGELOG.md \"$heading\" (run: bash scripts/changelog-notes.sh)\n";
            my @a = split /\n/, $old_trim, -1; my @b = split /\n/, $notes, -1;
            for my $i (0 .. ($#a > $#b ? $#a : $#b)) {
                my ($x, $y) = ($a[$i] // "(none)", $b[$i] // "(none)");
                next if $x eq $y;
                print STDERR "  line ", $i + 1, ": package.xml: $x\n  line ", $i + 1, ": CHANGELOG.md: $y\n";
                last;
            }
            $bad = 1;
        }
        exit($bad ? 1 : 0);
    }
    exit 1 if $bad;
    $xml =~ s{( *)<notes>.*?</notes>}{$indent<notes>\n$notes\n$indent</notes>}s;
    open(my $h, ">", $xmlfile) or die "changelog-notes: $xmlfile: $!\n";
    print $h $xml; close $h;
    print "changelog-notes: package.xml'"'"'s notes written from \"$heading\"\n";
' "$ROOT/CHANGELOG.md" "$ROOT/package.xml"
