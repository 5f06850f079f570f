<?php
namespace Shardcache\SymfonyTests;

/* A backed enum: stored through serialize() by the cache. */
enum Suit: string
{
    case Hearts = 'H';
    case Spades = 'S';
}
