"""The job's heap in plain Python: the spec vm/kernel_heap.py (allocation) and vm/kernel_gc.py
(the collector) must match word for word.

The heap is modelled word for word where a job can see it: block headers (size | kind << 32),
list headers and elements at the kernel's addresses, so handles, MemoryError and bad handles
come out the same.  The allocator's state (hp, the next-fit cursor, the peak) and the
collector's marks are attributes and Python sets here, not heap words.  The rules, as
vm/kernel_heap.py documents them: next-fit allocation (the first FREE block from the cursor
big enough, split when 2 words or more are left over, else the top bumped up to `limit`); a
collection keeps every object reachable from the roots (stack words naming an object block)
through `handles`, each run of the other blocks becomes one FREE block, a run at the top
lowers it, the cursor returns to the first block.
"""

from __future__ import annotations

from gpucc.contract import status as S
from gpucc.contract.valuetypes import bits_to_float
from gpucc.vm.kernel_heap import (
    DATA,
    FIRST_BLOCK,
    FIRST_OBJECT,
    FREE,
    HEADER,
    KIND_SHIFT,
    LAST_KIND,
    MIN_CAP,
    MIN_HEAP,
    PLAIN,
    RAW,
    REFS,
    SIZE_MASK,
)
from gpucc.vm.reference_numeric import Stop


class Heap:
    """One job's heap of `size` words (at least MIN_HEAP, as the launchers give)."""

    def __init__(self, size: int):
        self.size = max(size, MIN_HEAP)
        self.limit = self.size - self.size // 65 - 1  # the kernel's bitmap takes the rest
        self.words = [0] * self.limit
        self.hp = self.cursor = self.peak = FIRST_BLOCK

    @property
    def peak_words(self) -> int:
        return self.peak - FIRST_BLOCK

    # -- blocks
    def block(self, b: int) -> tuple[int, int]:
        """(size, kind) of the block at b; kind 0 for a header that is no block's below hp."""
        w = self.words[b]
        size, kind = w & SIZE_MASK, (w >> KIND_SHIFT) & 0xFF
        if w < 0 or not FREE <= kind <= LAST_KIND or size > self.hp - b - 1:
            return 0, 0
        return size, kind

    def blocks(self) -> dict[int, tuple[int, int]]:
        """address -> (size, kind) of every block below hp, checked (INVALID_BYTECODE if corrupt)."""
        out, b = {}, FIRST_BLOCK
        while b < self.hp:
            size, kind = self.block(b)
            if not kind:
                raise Stop(S.INVALID_BYTECODE)
            out[b + 1] = (size, kind)
            b += 1 + size
        return out

    def set_block(self, b: int, size: int, kind: int) -> None:
        self.words[b] = size | kind << KIND_SHIFT

    def alloc(self, n: int, kind: int) -> int:
        """Address of a new block of at least n payload words of `kind` (its words the caller's);
        MEMORY_LIMIT when it does not fit (or a header on the way is corrupt)."""
        if n < 0:
            raise Stop(S.MEMORY_LIMIT)
        c = self.cursor
        while c < self.hp:
            size, k = self.block(c)
            if not k:
                raise Stop(S.MEMORY_LIMIT)
            if k == FREE and size >= n:
                if size - n >= 2:
                    self.set_block(c + 1 + n, size - n - 1, FREE)
                    size = n
                self.set_block(c, size, kind)
                self.cursor = c + 1 + size
                return c + 1
            c += 1 + size
        if n > self.limit - self.hp - 1:
            raise Stop(S.MEMORY_LIMIT)
        self.set_block(self.hp, n, kind)
        p = self.hp + 1
        self.hp = self.cursor = p + n
        self.peak = max(self.peak, self.hp)
        return p

    def release(self, p: int) -> None:
        """Give back an instruction's RAW block p."""
        b, size = p - 1, self.words[p - 1] & SIZE_MASK
        self.set_block(b, size, FREE)
        self.cursor = min(self.cursor, b)
        if b + 1 + size == self.hp:
            self.hp = b

    def scratch(self, n: int) -> None:
        """Allocate and release a RAW block of n words (the kernel's scratch for a computation
        the reference does in Python): MEMORY_LIMIT when it does not fit."""
        self.release(self.alloc(n, RAW))

    # -- lists
    def header(self, h: int) -> tuple[int, int, int]:
        """(d, len, cap) of handle h; INVALID_BYTECODE for anything but a list's handle."""
        if not FIRST_BLOCK <= h <= self.hp - HEADER:
            raise Stop(S.INVALID_BYTECODE)
        n, cap, d = self.words[h : h + HEADER]
        if not (0 <= n <= cap and FIRST_BLOCK <= d <= self.hp and cap <= self.hp - d):
            raise Stop(S.INVALID_BYTECODE)
        return d, n, cap

    def new(self, values: list[int], kind: int) -> int:
        """Handle of a new list (block kind PLAIN or REFS) holding slot values `values`."""
        n = len(values)
        cap = max(n, MIN_CAP)
        if cap > self.limit:
            raise Stop(S.MEMORY_LIMIT)
        h = self.alloc(HEADER + cap, kind)
        self.words[h : h + HEADER + cap] = [n, cap, h + HEADER] + values + [0] * (cap - n)
        return h

    def kind(self, *hs: int) -> int:
        """The kind of a list copied from lists hs: PLAIN when all of theirs are."""
        plain = all(h >= 1 and (self.words[h - 1] >> KIND_SHIFT) & 0xFF == PLAIN for h in hs)
        return PLAIN if plain else REFS

    def slots(self, h: int) -> list[int]:
        d, n, _ = self.header(h)
        return self.words[d : d + n]

    def values(self, h: int, is_float: bool) -> list:
        """The elements of list h as Python values (floats when is_float)."""
        return [bits_to_float(w) for w in self.slots(h)] if is_float else self.slots(h)

    def grow(self, h: int, need: int) -> int:
        """List h made to hold `need` elements: its elements moved to a new DATA block of twice
        its capacity (at least `need`, at least MIN_CAP) when they do not fit; the elements copied."""
        d, n, cap = self.header(h)
        if need <= cap:
            return 0
        new_cap = max(2 * cap, need, MIN_CAP)
        nd = self.alloc(new_cap, DATA)
        self.words[nd : nd + new_cap] = self.words[d : d + n] + [0] * (new_cap - n)
        self.words[h + 1], self.words[h + 2] = new_cap, nd
        return n

    def append(self, h: int, v: int) -> int:
        """xs.append(v); the elements copied when it grew."""
        _, n, _ = self.header(h)
        copied = self.grow(h, n + 1)
        d, _, _ = self.header(h)
        self.words[d + n] = v
        self.words[h] = n + 1
        return copied

    # -- the collector
    def handles(self, p: int, size: int, kind: int, blocks: dict) -> tuple[int | None, list[int]]:
        """(the DATA block object p keeps alive or None, the words of p that are handles where
        they name an object): vm/kernel_gc.py's trace.  INVALID_BYTECODE for a corrupt header."""
        if kind not in (PLAIN, REFS):
            return None, []
        if size < HEADER:
            raise Stop(S.INVALID_BYTECODE)
        n, cap, d = self.words[p : p + HEADER]
        own = None
        if not 0 <= n <= cap:
            raise Stop(S.INVALID_BYTECODE)
        if d == p + HEADER:
            if cap > size - HEADER:
                raise Stop(S.INVALID_BYTECODE)
        elif not d < self.hp or blocks.get(d, (0, 0))[1] != DATA or cap > blocks[d][0]:
            raise Stop(S.INVALID_BYTECODE)
        else:
            own = d
        return own, (self.words[d : d + n] if kind == REFS else [])

    def collect(self, roots: list[int]) -> None:
        """Free every block no root reaches (roots: the job's stack below sp)."""
        blocks = self.blocks()
        objects = {p for p, (_, kind) in blocks.items() if kind >= FIRST_OBJECT and p < self.hp}
        live: set[int] = set()
        todo = [v for v in roots if v in objects]
        while todo:
            p = todo.pop()
            if p in live:
                continue
            live.add(p)
            own, words = self.handles(p, *blocks[p], blocks)
            if own is not None:
                live.add(own)
            todo += [v for v in words if v in objects and v not in live]
        end, run = FIRST_BLOCK, None
        for p, (size, _) in blocks.items():  # in address order
            if p in live:
                if run is not None:
                    self.set_block(run, p - 1 - run - 1, FREE)
                    run = None
                end = p + size
            elif run is None:
                run = p - 1
        self.hp, self.cursor = end, FIRST_BLOCK
