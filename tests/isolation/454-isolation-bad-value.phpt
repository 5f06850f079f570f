--TEST--
shardcache.isolation: a value other than user or off is refused with a warning; the default (user) stays
--INI--
apc.enable_cli=1
shardcache.isolation=bogus
--FILE--
<?php
var_dump(ini_get('shardcache.isolation'), shardcache_info()['isolation'], ini_get_all('shardcache')['shardcache.isolation']);
?>
--EXPECT--
Warning: PHP Startup: shardcache.isolation must be user or off in Unknown on line 0
string(4) "user"
string(4) "user"
array(3) {
  ["global_value"]=>
  string(4) "user"
  ["local_value"]=>
  string(4) "user"
  ["access"]=>
  int(4)
}
