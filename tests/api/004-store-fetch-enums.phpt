--TEST--
apcu_store/apcu_fetch round-trip enums, and an enum case stays the same case
--DESCRIPTION--
Pure and backed enums, alone, in arrays and in objects; identity is
preserved.
--SKIPIF--
<?php if (!function_exists('apcu_store')) die('skip apcu functions not available'); ?>
--INI--
apc.enable_cli=1
--FILE--
<?php
enum Pure { case A; case B; }
enum Suit: string { case Hearts = 'H'; case Spades = 'S'; }
enum Num: int { case One = 1; case Two = 2; }
class Holder { public function __construct(public Suit $suit, public array $list) {} }

var_dump(apcu_store('pure', Pure::B));
var_dump(apcu_store('suit', Suit::Hearts));
var_dump(apcu_store('list', [Pure::A, Suit::Spades, 'k' => Num::Two, 'nested' => [Num::One, Num::One]]));
var_dump(apcu_store('obj', new Holder(Suit::Spades, [Pure::A])));

$p = apcu_fetch('pure');
var_dump($p, $p === Pure::B, $p instanceof UnitEnum);
$s = apcu_fetch('suit');
var_dump($s, $s === Suit::Hearts, $s->value);
$l = apcu_fetch('list');
var_dump($l);
var_dump($l[0] === Pure::A, $l[1] === Suit::Spades, $l['k'] === Num::Two, $l['nested'][0] === $l['nested'][1]);
$o = apcu_fetch('obj');
var_dump($o->suit === Suit::Spades, $o->list[0] === Pure::A);
var_dump(apcu_fetch(['pure', 'suit']) === ['pure' => Pure::B, 'suit' => Suit::Hearts]);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
enum(Pure::B)
bool(true)
bool(true)
enum(Suit::Hearts)
bool(true)
string(1) "H"
array(4) {
  [0]=>
  enum(Pure::A)
  [1]=>
  enum(Suit::Spades)
  ["k"]=>
  enum(Num::Two)
  ["nested"]=>
  array(2) {
    [0]=>
    enum(Num::One)
    [1]=>
    enum(Num::One)
  }
}
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
