--TEST--
APCUIterator: class shape, signatures and constants of APCu 5.1.22
--DESCRIPTION--
Class shape, method signatures and the APC_ITER_* / APC_LIST_* constants of
APCu 5.1.22.
--SKIPIF--
<?php if (!class_exists('APCUIterator')) die('skip APCUIterator not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
foreach (['APC_LIST_ACTIVE', 'APC_LIST_DELETED', 'APC_ITER_TYPE', 'APC_ITER_KEY', 'APC_ITER_VALUE',
          'APC_ITER_NUM_HITS', 'APC_ITER_MTIME', 'APC_ITER_CTIME', 'APC_ITER_DTIME', 'APC_ITER_ATIME',
          'APC_ITER_REFCOUNT', 'APC_ITER_MEM_SIZE', 'APC_ITER_TTL', 'APC_ITER_NONE', 'APC_ITER_ALL'] as $c) {
    echo $c, ' = ', var_export(constant($c), true), "\n";
}
// constants APCu 5.1.22 does not define
foreach (['APC_ITER_FILENAME', 'APC_ITER_DEVICE', 'APC_ITER_INODE', 'APC_ITER_MD5', 'APC_ITER_MTIME_ALL'] as $c) {
    echo $c, ': ', var_export(defined($c), true), "\n";
}
var_dump(class_exists('APCIterator'));

$c = new ReflectionClass('APCUIterator');
var_dump($c->getName(), $c->isInternal(), $c->isFinal(), $c->isAbstract(), $c->getParentClass(),
         $c->getInterfaceNames(), $c->isIterable(), $c->isCloneable(), $c->getConstants(), $c->getProperties());
foreach ($c->getMethods() as $m) {
    $ps = [];
    foreach ($m->getParameters() as $p) {
        $s = ($p->hasType() ? $p->getType() . ' ' : '') . '$' . $p->getName();
        if ($p->isOptional()) {
            $s .= ' = ' . ($p->isDefaultValueConstant() ? $p->getDefaultValueConstantName()
                                                         : var_export($p->getDefaultValue(), true));
        }
        $ps[] = $s;
    }
    echo $m->isPublic() ? 'public ' : '?', $m->isStatic() ? 'static ' : '', $m->getName(), '(', implode(', ', $ps), ')',
         $m->hasReturnType() ? ': ' . $m->getReturnType() : '',
         $m->hasTentativeReturnType() ? ' tentative: ' . $m->getTentativeReturnType() : '', "\n";
}
?>
--EXPECT--
APC_LIST_ACTIVE = 1
APC_LIST_DELETED = 2
APC_ITER_TYPE = 1
APC_ITER_KEY = 2
APC_ITER_VALUE = 4
APC_ITER_NUM_HITS = 8
APC_ITER_MTIME = 16
APC_ITER_CTIME = 32
APC_ITER_DTIME = 64
APC_ITER_ATIME = 128
APC_ITER_REFCOUNT = 256
APC_ITER_MEM_SIZE = 512
APC_ITER_TTL = 1024
APC_ITER_NONE = 0
APC_ITER_ALL = 4294967295
APC_ITER_FILENAME: false
APC_ITER_DEVICE: false
APC_ITER_INODE: false
APC_ITER_MD5: false
APC_ITER_MTIME_ALL: false
bool(false)
string(12) "APCUIterator"
bool(true)
bool(false)
bool(false)
bool(false)
array(2) {
  [0]=>
  string(8) "Iterator"
  [1]=>
  string(11) "Traversable"
}
bool(true)
bool(false)
array(0) {
}
array(0) {
}
public __construct($search = NULL, int $format = APC_ITER_ALL, int $chunk_size = 0, int $list = APC_LIST_ACTIVE)
public rewind(): void
public next(): void
public valid(): bool
public key(): string|int
public current(): mixed
public getTotalHits(): int
public getTotalSize(): int
public getTotalCount(): int
