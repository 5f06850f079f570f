<?php
/*
 * tests/fpm/fcgi.php - a minimal FastCGI client (the responder role, one
 * request per connection), enough to talk to a php-fpm pool directly.
 *
 *   php fcgi.php SOCKET SCRIPT_FILENAME [QUERY_STRING]
 *
 * Prints the response body (headers dropped); exit status 0 when the
 * request completed with app status 0, 1 otherwise (the reason on stderr).
 */
if ($argc < 3) {
    fwrite(STDERR, "usage: fcgi.php SOCKET SCRIPT [QUERY]\n");
    exit(2);
}
[$sock, $script, $query] = [$argv[1], $argv[2], $argv[3] ?? ''];

function fcgi_record(int $type, string $content, int $id = 1): string
{
    $len = strlen($content);
    $pad = (8 - $len % 8) % 8;
    return pack('CCnnCC', 1, $type, $id, $len, $pad, 0) . $content . str_repeat("\0", $pad);
}

function fcgi_pair(string $k, string $v): string
{
    $enc = fn(int $n) => $n < 128 ? chr($n) : pack('N', $n | 0x80000000);
    return $enc(strlen($k)) . $enc(strlen($v)) . $k . $v;
}

$params = ['SCRIPT_FILENAME' => $script, 'SCRIPT_NAME' => '/' . basename($script), 'REQUEST_METHOD' => 'GET',
           'QUERY_STRING' => $query, 'REQUEST_URI' => '/' . basename($script) . ($query === '' ? '' : "?$query"),
           'SERVER_PROTOCOL' => 'HTTP/1.1', 'GATEWAY_INTERFACE' => 'CGI/1.1', 'SERVER_SOFTWARE' => 'fcgi.php',
           'REMOTE_ADDR' => '127.0.0.1', 'SERVER_ADDR' => '127.0.0.1', 'SERVER_PORT' => '80', 'SERVER_NAME' => 'localhost'];
$body = '';
foreach ($params as $k => $v) {
    $body .= fcgi_pair($k, $v);
}
$c = @stream_socket_client("unix://$sock", $errno, $errstr, 10);
if (!$c) {
    fwrite(STDERR, "fcgi.php: cannot connect to $sock: $errstr\n");
    exit(1);
}
// No read timeout: the answer, or the connection's end (php-fpm closes it
// when the worker dies), ends the wait, however long a loaded machine
// takes; a worker stuck for good is a hang, which the caller's limit ends.
stream_set_timeout($c, -1);
fwrite($c, fcgi_record(1, pack('nCx5', 1, 0))   // BEGIN_REQUEST: responder, no keep-alive
         . fcgi_record(4, $body) . fcgi_record(4, '') . fcgi_record(5, ''));
$out = $err = '';
$status = null;
while (!feof($c)) {
    $h = fread($c, 8);
    if ($h === false || strlen($h) < 8) {
        break;
    }
    $r = unpack('Cversion/Ctype/nid/nlen/Cpad/Creserved', $h);
    $data = '';
    while (strlen($data) < $r['len'] + $r['pad'] && !feof($c)) {
        $data .= fread($c, $r['len'] + $r['pad'] - strlen($data));
    }
    $data = substr($data, 0, $r['len']);
    if ($r['type'] == 6) {
        $out .= $data;
    } elseif ($r['type'] == 7) {
        $err .= $data;
    } elseif ($r['type'] == 3) {
        $status = unpack('Nstatus', $data)['status'];
        break;
    }
}
fclose($c);
$pos = strpos($out, "\r\n\r\n");
echo $pos === false ? $out : substr($out, $pos + 4);
if ($err !== '') {
    fwrite(STDERR, $err);
}
if ($status !== 0) {
    fwrite(STDERR, "fcgi.php: request did not complete (status " . var_export($status, true) . ")\n");
    exit(1);
}
exit(0);
