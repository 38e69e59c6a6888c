"""The str instructions in plain Python: the spec vm/kernel_str.py and vm/kernel_text.py must
match bit for bit.

What each instruction computes is CPython's own str method (or int(), str(), float()) on its
operands as Python strs; the heap (vm/reference_lists.Heap) is modelled word for word, so
MemoryError and bad operands happen at the same points as in the kernel.  The rules
vm/kernel_str.py documents, in the order they apply: every str operand must be a valid
handle holding code points 0 .. 0x10FFFF (STR_GET and STR_ORD: a valid handle), an optional
one may be NO_ARG, else INVALID_BYTECODE; then the instruction's own errors; then the new
strs it allocates (MEMORY_LIMIT).  The extra costs are the kernel's (its module doc).
"""

from __future__ import annotations

from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT, bits_to_float, float_to_bits
from gpucc.vm.kernel_heap import HEADER, PLAIN, RAW, REFS
from gpucc.vm.reference_heap import Heap
from gpucc.vm.reference_numeric import Stop, int64, python_op
from gpucc.vm.strconv import FLOAT_REPR_SCRATCH, PARSE_FLOAT_SCRATCH

FIND = ("find", "rfind", "index", "rindex", "count", "startswith", "endswith")
CASE = ("lower", "upper", "swapcase", "capitalize", "title", "casefold")
IS = ("isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower", "isdecimal", "isnumeric")
STRIP = ("strip", "lstrip", "rstrip")
SPLIT = ("split", "rsplit")
PAD = ("zfill", "center", "ljust", "rjust")
MAX_REPR = 24  # STR_FROM of a float: its RAW block, MAX_REPR words and its scratch
FROM = {T_INT: str, T_BOOL: lambda x: str(x != 0), T_FLOAT: lambda x: repr(bits_to_float(x))}


def text(heap: Heap, h: int) -> str:
    """Str h as a Python str; INVALID_BYTECODE for a bad handle or a code point outside Unicode."""
    points = heap.slots(h)
    if not all(0 <= c <= 0x10FFFF for c in points):
        raise Stop(S.INVALID_BYTECODE)
    return "".join(map(chr, points))


def optional(heap: Heap, h: int) -> str | None:
    return None if h == O.NO_ARG else text(heap, h)


def new_str(heap: Heap, s: str) -> int:
    return heap.new([ord(c) for c in s], PLAIN)


def fits(heap: Heap, n: int) -> None:
    """MEMORY_LIMIT when a str of n code points can never fit (before Python builds a huge one)."""
    if HEADER + n > heap.limit:
        raise Stop(S.MEMORY_LIMIT)


def search(mode: int, s: str, sub: str) -> tuple[int, int]:
    """(result, cost) of STR_FIND `mode` (STR_CONTAINS: find) of sub in s."""
    name = FIND[mode]
    try:
        found = getattr(s, name)(sub)
    except ValueError:  # index / rindex of an absent sub
        raise Stop(S.VALUE_ERROR) from None
    if name in ("startswith", "endswith"):
        return int(found), len(sub) if len(sub) <= len(s) else 0
    if name == "count" or found < 0:
        return found, len(s)
    return found, (len(s) - found if name in ("rfind", "rindex") else found + len(sub))


def to_number(heap: Heap, type_code: int, s: str) -> int:
    """The slot value of int(s) / float(s) (float: a RAW block for its scratch, released after)."""
    if type_code not in (T_INT, T_FLOAT):
        raise Stop(S.INVALID_BYTECODE)
    if type_code == T_FLOAT:
        heap.scratch(PARSE_FLOAT_SCRATCH)
    try:
        return int64(int(s)) if type_code == T_INT else float_to_bits(float(s))
    except ValueError:
        raise Stop(S.VALUE_ERROR) from None


def split(heap: Heap, mode: int, s: str, sep: str | None, maxsplit: int) -> tuple[int, int]:
    """(handle, cost) of s.split / s.rsplit: the list first, then its parts in the order found."""
    if sep == "":
        raise Stop(S.VALUE_ERROR)
    parts = getattr(s, SPLIT[mode])(sep, maxsplit)
    xs = heap.new([0] * len(parts), REFS)
    d, _, _ = heap.header(xs)
    order = range(len(parts)) if mode == 0 else reversed(range(len(parts)))
    for k in order:
        heap.words[d + k] = new_str(heap, parts[k])
    return xs, sum(map(len, parts)) + len(parts)


def execute(job, op: int, arg: int) -> int:
    """Run str instruction op on a vm.reference.Job; returns its extra cost."""
    heap: Heap = job.heap
    pops = O.TABLE[op].pops
    job.need(pops, 1)
    args = job.stack[job.sp - pops : job.sp]
    job.sp -= pops
    if op == O.LOAD_STR:
        u = job.unit
        lo, hi = int(job.image.unit_const_start[u]), int(job.image.unit_const_start[u + 1])
        n = int(job.image.consts[lo + arg]) if 0 <= arg < hi - lo else -1
        if not 0 <= n <= hi - lo - arg - 1:
            raise Stop(S.INVALID_BYTECODE)
        job.push(heap.new([int(c) for c in job.image.consts[lo + arg + 1 : lo + arg + 1 + n]], PLAIN))
        return n
    if op in (O.STR_GET, O.STR_ORD):
        points = heap.slots(args[0])
        if op == O.STR_ORD:
            if len(points) != 1:
                raise Stop(S.TYPE_ERROR)
            job.push(points[0])
            return 0
        i = args[1]
        if not -len(points) <= i < len(points):
            raise Stop(S.INDEX_ERROR)
        if arg:  # ord(s[i]): the code point itself
            job.push(points[i])
            return 0
        job.push(heap.new([points[i]], PLAIN))
        return 1
    if op == O.STR_CHR:
        result = python_op(chr, args[0])  # ValueError; OverflowError past a C int
    elif op == O.STR_FROM:  # a float's digits go to a RAW block first, released after the new str
        if arg not in FROM:  # (an int's or bool's are written into the new str: no RAW block)
            raise Stop(S.INVALID_BYTECODE)
        tmp = heap.alloc(MAX_REPR + FLOAT_REPR_SCRATCH, RAW) if arg == T_FLOAT else None
        result = FROM[arg](args[0])
        h = new_str(heap, result)
        if tmp is not None:
            heap.release(tmp)
        job.push(h)
        return len(result)
    elif op == O.STR_JOIN:
        sep = text(heap, args[0])
        result = sep.join([text(heap, x) for x in heap.slots(args[1])])
    else:
        s = text(heap, args[0])
        if op == O.STR_IS:
            job.push(int(getattr(s, IS[arg])()))
            return len(s)
        if op == O.STR_TO_NUM:
            job.push(to_number(heap, arg, s))
            return len(s)
        if op == O.STR_CASE:
            result = getattr(s, CASE[arg])()
        elif op == O.STR_PAD:
            width, fill = args[1], optional(heap, args[2])
            if fill is not None and arg == 0:
                raise Stop(S.INVALID_BYTECODE)  # zfill takes no fill
            if fill is not None and len(fill) != 1:
                raise Stop(S.TYPE_ERROR)
            fits(heap, max(width, len(s)))
            result = s.zfill(width) if arg == 0 else getattr(s, PAD[arg])(width, fill or " ")
        elif op == O.STR_STRIP:
            result = getattr(s, STRIP[arg])(optional(heap, args[1]))
        elif op == O.STR_SPLIT:
            h, cost = split(heap, arg, s, optional(heap, args[1]), args[2])
            job.push(h)
            return cost
        else:
            other = text(heap, args[1])
            if op == O.STR_CONTAINS:  # a in b
                i, cost = search(0, other, s)
                job.push(int(i >= 0))
                return cost
            if op == O.STR_FIND:
                i, cost = search(arg, s, other)
                job.push(i)
                return cost
            result = s.replace(other, text(heap, args[2]), args[3])  # STR_REPLACE
    job.push(new_str(heap, result))
    return len(result)
