<?php

/**
 * APCu's iterator class, registered only when the APCu extension itself is
 * not loaded (see php/iterator.c).
 *
 * @generate-class-entries
 */

class APCUIterator implements Iterator
{
    /** @param array|string|null $search */
    public function __construct($search = null, int $format = APC_ITER_ALL, int $chunk_size = 0, int $list = APC_LIST_ACTIVE) {}

    public function rewind(): void {}

    public function next(): void {}

    public function valid(): bool {}

    public function key(): string|int {}

    public function current(): mixed {}

    public function getTotalHits(): int {}

    public function getTotalSize(): int {}

    public function getTotalCount(): int {}
}
