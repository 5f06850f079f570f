--TEST--
dashboard: keys with a NUL byte or invalid UTF-8 can be deleted
--DESCRIPTION--
They are deleted from the key list and from the key's page; the form carries
the key's bytes exactly.
--SKIPIF--
<?php
require __DIR__ . '/../lib/dashboard.inc';
dt_skip();
?>
--FILE--
<?php
require __DIR__ . '/../lib/dashboard.inc';
$srv = new DashboardServer();
$keys = ["nul\0inside", "bad\xff\xfeutf8", "bad\xc3", "plain", "bad\xffsibling"];
foreach ($keys as $k) {
    $srv->request('GET', '/__t/store?hex=' . bin2hex($k));
}
// From the list: delete the first three keys with the forms of their rows.
[$status, , $html] = $srv->request('GET', '/dashboard.php?list=1');
echo "list: $status, forms: ", count(dt_delete_forms($html)), "\n";
$by_key = [];
foreach (dt_delete_forms($html) as $form) {
    $key = isset($form['key_hex']) ? hex2bin($form['key_hex']) : ($form['key'] ?? '');
    if (!in_array($key, $keys, true)) {
        echo "a form names a key that is not in the cache: ", bin2hex($key), "\n";
    }
    $by_key[$key] = $form;
}
for ($i = 0; $i < 3; $i++) {
    [$st] = $srv->request('POST', '/dashboard.php', $by_key[$keys[$i]] ?? []);
    echo 'delete ', bin2hex($keys[$i]), ": $st\n";
}
// From the key's own page.
[$status, , $html] = $srv->request('GET', '/dashboard.php?key=' . rawurlencode($keys[4]));
$forms = dt_delete_forms($html);
echo "details: $status, forms: ", count($forms), "\n";
[$st] = $srv->request('POST', '/dashboard.php', $forms[0]);
echo 'delete ', bin2hex($keys[4]), " from its page: $st\n";
foreach ($keys as $k) {
    [, , $e] = $srv->request('GET', '/__t/exists?hex=' . bin2hex($k));
    echo bin2hex($k), ': ', $e === '1' ? 'still there' : 'deleted', "\n";
}
?>
--EXPECT--
list: 200, forms: 5
delete 6e756c00696e73696465: 303
delete 626164fffe75746638: 303
delete 626164c3: 303
details: 200, forms: 1
delete 626164ff7369626c696e67 from its page: 303
6e756c00696e73696465: deleted
626164fffe75746638: deleted
626164c3: deleted
706c61696e: still there
626164ff7369626c696e67: deleted
