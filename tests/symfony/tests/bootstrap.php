<?php
/* The symfony client suite's bootstrap: its Composer packages, then the checks and the
 * base test class shared with the other client suite (tests/lib/client-bootstrap.php). */
require __DIR__ . '/../vendor/autoload.php';
require __DIR__ . '/../../lib/client-bootstrap.php';
