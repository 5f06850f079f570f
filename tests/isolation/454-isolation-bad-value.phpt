--TEST--
shardcache.isolation: another value is refused with a warning, user stays
--DESCRIPTION--
A value other than user or off is refused with a warning; the default (user)
stays.
--INI--
apc.enable_cli=1
shardcache.isolation=bogus
--FILE--
<?php
$all = ini_get_all('shardcache')['shardcache.isolation'];
// (PHP 8.6 adds builtin_default_value to ini_get_all's rows: the fields
// every version has.)
var_dump(ini_get('shardcache.isolation'), shardcache_info()['isolation'], $all['global_value'], $all['local_value'],
         $all['access']);
?>
--EXPECT--
Warning: PHP Startup: shardcache.isolation must be user or off in Unknown on line 0
string(4) "user"
string(4) "user"
string(4) "user"
string(4) "user"
int(4)
