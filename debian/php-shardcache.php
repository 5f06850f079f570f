mod shardcache.ini
