<?php
// tests/fpm/seg.php - the page of tests/fpm/segments.sh: one cache
// operation per request, answered as one line.
//   ?op=store&k=K&v=V   "stored" | "not stored"
//   ?op=fetch&k=K       the value, or "miss"
//   ?op=storefetch&k=K&v=V  stores, then fetches: the value, or "miss"
//   ?op=whoami          "user=<name> enabled=<0|1> segment=<phpinfo Segment row> pid=<pid>"
$k = $_GET['k'] ?? '';
switch ($_GET['op'] ?? '') {
    case 'store':
        echo apcu_store($k, $_GET['v'] ?? '') ? 'stored' : 'not stored';
        break;
    case 'storefetch':
        // both in one request: one worker's answer, whatever segment it has
        $v = apcu_store($k, $_GET['v'] ?? '') ? apcu_fetch($k, $ok) : null;
        echo !empty($ok) ? $v : 'miss';
        break;
    case 'fetch':
        $v = apcu_fetch($k, $ok);
        echo $ok ? $v : 'miss';
        break;
    case 'whoami':
        ob_start();
        (new ReflectionExtension('shardcache'))->info();
        // text (CLI) or HTML (a web SAPI) phpinfo
        $info = html_entity_decode(strip_tags(str_replace('</td><td', "</td> => <td", ob_get_clean())));
        preg_match('/^\s*Segment\s*=>\s*(.*?)\s*$/m', $info, $m);
        $user = function_exists('posix_getpwuid') ? posix_getpwuid(posix_geteuid())['name'] : get_current_user();
        printf('user=%s enabled=%d segment=%s pid=%d', $user, apcu_enabled(), $m[1] ?? '-', getmypid());
        break;
    default:
        echo 'bad op';
}
