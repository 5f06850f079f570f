<?php
/*
 * benchmarks/web/pages/noop.php - no cache call at all: the latency floor of
 * the server and the load generator on this machine, to read the other
 * pages' p99 against.
 */
header('Content-Type: text/plain');
echo "ok\n";
