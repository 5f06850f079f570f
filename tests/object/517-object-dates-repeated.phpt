--TEST--
object form: repeated dates read back as unserialize() builds them, each own
--DESCRIPTION--
A DateTime or DateTimeImmutable whose array (date, timezone type, timezone)
repeats within a request gets, from its third read on, a copy of the state
the first calls built instead of a parse (php/odate.c). Each value below is
read six times; every read must equal unserialize(serialize()) to the
microsecond, in the same timezone (offset, abbreviation or identifier) and
class, and must be an object of its own: changing one read (modify,
setTimezone, a property of the holder) changes no other read nor the
cache. Dates with a year outside 0000-9999 take the usual call. Dates of
different timezones, and equal dates of the two classes, never stand in
for each other.
--INI--
apc.enable_cli=1
error_reporting=-1
date.timezone=UTC
--FILE--
<?php
final class Stamp
{
    public function __construct(public DateTimeInterface $at, public string $label)
    {
    }
}

function show(DateTimeInterface $d): string
{
    return get_class($d) . ' ' . $d->format('Y-m-d H:i:s.u T P e U');
}

$when = '2026-05-01 10:30:45.123456';
$values = [
    'id' => new DateTimeImmutable($when, new DateTimeZone('Asia/Tokyo')),
    'id-paris' => new DateTimeImmutable($when, new DateTimeZone('Europe/Paris')),
    'mutable' => new DateTime($when, new DateTimeZone('Asia/Tokyo')),
    'offset' => new DateTime('2026-05-01 10:30:45.123456+05:30'),
    'abbr' => new DateTimeImmutable('2026-05-01 10:30:45.123456 EST'),
    'far' => (new DateTime('@0'))->setDate(12345, 1, 2)->setTime(3, 4, 5, 6),
    'negative' => (new DateTimeImmutable('@0'))->setDate(-44, 3, 15)->setTime(12, 0),
    'list' => [
        new DateTimeImmutable($when, new DateTimeZone('Asia/Tokyo')),
        new DateTime($when, new DateTimeZone('Asia/Tokyo')),
        new DateTimeImmutable($when, new DateTimeZone('Asia/Tokyo')),
        new Stamp(new DateTime('2026-05-01 10:30:45.123456+05:30'), 'a'),
        new Stamp(new DateTime('2026-05-01 10:30:45.123456+05:30'), 'b'),
    ],
];
foreach ($values as $k => $v) {
    apcu_store($k, $v);
}

$wrong = 0;
foreach ($values as $k => $v) {
    $want = unserialize(serialize($v));
    $reads = [];
    for ($i = 0; $i < 6; $i++) {
        $reads[$i] = apcu_fetch($k);
        if ($reads[$i] != $want || serialize($reads[$i]) !== serialize($want)) {
            echo "$k read $i: differs\n";
            $wrong++;
        }
    }
    echo "$k: ", is_array($v) ? count($v) . ' dates and stamps' : show($reads[5]), "\n";
    /* Each read its own: change the third and fourth reads. */
    foreach ([2, 3] as $i) {
        $r = $reads[$i];
        $dates = is_array($r) ? $r : [$r];
        foreach ($dates as $j => $d) {
            if ($d instanceof Stamp) {
                $d->label = 'changed';
                $d->at->modify('+1 day');
            } elseif ($d instanceof DateTime) {
                $d->modify('+1 day')->setTimezone(new DateTimeZone('America/New_York'));
            }
        }
    }
    foreach ([0, 1, 4, 5] as $i) {
        if (serialize($reads[$i]) !== serialize($want)) {
            echo "$k read $i: changed by another read\n";
            $wrong++;
        }
    }
    if (serialize(apcu_fetch($k)) !== serialize($want)) {
        echo "$k: the cache changed\n";
        $wrong++;
    }
}
$l = apcu_fetch('list');
echo "list: distinct objects: ", count(array_unique(array_map('spl_object_id', [$l[0], $l[1], $l[2], $l[3]->at, $l[4]->at]))), "\n";
echo "wrong: $wrong\n";
echo "objects: ", json_encode(array_intersect_key(shardcache_info()['objects'], ['serialized' => 0, 'unserialized' => 0])), "\n";
?>
--EXPECT--
id: DateTimeImmutable 2026-05-01 10:30:45.123456 JST +09:00 Asia/Tokyo 1777599045
id-paris: DateTimeImmutable 2026-05-01 10:30:45.123456 CEST +02:00 Europe/Paris 1777624245
mutable: DateTime 2026-05-01 10:30:45.123456 JST +09:00 Asia/Tokyo 1777599045
offset: DateTime 2026-05-01 10:30:45.123456 GMT+0530 +05:30 +05:30 1777611645
abbr: DateTimeImmutable 2026-05-01 10:30:45.123456 EST -05:00 EST 1777649445
far: DateTime 12345-01-02 03:04:05.000006 GMT+0000 +00:00 +00:00 327403479845
negative: DateTimeImmutable -0044-03-15 12:00:00.000000 GMT+0000 +00:00 +00:00 -63549316800
list: 5 dates and stamps
list: distinct objects: 5
wrong: 0
objects: {"serialized":0,"unserialized":0}
