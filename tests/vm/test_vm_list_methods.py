"""The list methods beyond append / sort (LIST_CLEAR .. LIST_SET_SLICE, VALUE_INDEX / COUNT /
REMOVE), STR_RADIX and FLOAT_ROUND: hand-assembled programs give what Python's own methods give,
with the costs vm/kernel_list_methods.py documents, the same on the reference, the cpu backend and
the plain kernel (statuses, values and costs: vmcheck.launch_all)."""

from __future__ import annotations

import math
import random
import struct

import pytest
from vmcheck import MAX, MIN, outcome, run_asm

from gpucc.contract import status as S
from gpucc.contract import typecodes as T
from gpucc.contract.image import LaunchLimits
from gpucc.contract.isa import BY_NAME, CMP_EQ, TABLE, typed_values

# digest xs: t = (t * 31 + x) % 1000003 over the elements, plus the length
DIGEST = """
.func digest xs
    .local it i t
    LOAD_VAR xs
    STORE_VAR it
    LOAD_INT 0
    STORE_VAR i
loop: FOR_LIST it
    JUMP done
    LOAD_VAR t
    LOAD_INT 31
    BINARY_MUL
    BINARY_ADD
    LOAD_INT 1000003
    BINARY_MOD
    STORE_VAR t
    JUMP loop
done: LOAD_VAR t
    LOAD_VAR xs
    LIST_LEN
    BINARY_ADD
    RETURN
"""
EQ_INT = typed_values(CMP_EQ, T.INT, T.list_of(T.INT))


def digest(xs: list[int]) -> int:
    t = 0
    for x in xs:
        t = (t * 31 + x) % 1000003
    return t + len(xs)


def _method(body: str) -> str:
    return f".func f xs ys i\n{body}\n    LOAD_VAR xs\n    CALL digest\n    RETURN\n" + DIGEST


PROGRAMS = {  # name: (assembly, what Python does to xs given ys, i)
    "clear": ("    LOAD_VAR xs\n    LIST_CLEAR", lambda xs, ys, i: xs.clear()),
    "extend": ("    LOAD_VAR xs\n    LOAD_VAR ys\n    LIST_EXTEND", lambda xs, ys, i: xs.extend(ys)),
    "extend_self": ("    LOAD_VAR xs\n    LOAD_VAR xs\n    LIST_EXTEND", lambda xs, ys, i: xs.extend(xs)),
    "pop": ("    LOAD_VAR xs\n    LOAD_VAR i\n    LIST_POP\n    POP_TOP", lambda xs, ys, i: xs.pop(i)),
    "insert": ("    LOAD_VAR xs\n    LOAD_VAR i\n    LOAD_INT 7\n    LIST_INSERT", lambda xs, ys, i: xs.insert(i, 7)),
    "reverse": ("    LOAD_VAR xs\n    LIST_REVERSE", lambda xs, ys, i: xs.reverse()),
    "remove": (f"    LOAD_VAR xs\n    LOAD_VAR i\n    VALUE_REMOVE {EQ_INT}", lambda xs, ys, i: xs.remove(i)),
    **{f"set_slice_{arg}": ("    LOAD_VAR ys\n    LOAD_VAR xs\n    LOAD_VAR i\n    LOAD_INT 3\n    LOAD_INT -2\n"
                            f"    LIST_SET_SLICE {arg}",
                            lambda xs, ys, i, arg=arg: xs.__setitem__(slice(i if arg & 1 else None, 3 if arg & 2 else None,
                                                                            -2 if arg & 4 else None), ys))
       for arg in range(8)},
    "set_slice_self": ("    LOAD_VAR xs\n    LOAD_VAR xs\n    LOAD_VAR i\n    LOAD_INT 0\n    LOAD_INT 0\n"
                       "    LIST_SET_SLICE 1", lambda xs, ys, i: xs.__setitem__(slice(i, None), xs)),
}  # fmt: skip
ERRORS = {IndexError: "INDEX_ERROR", ValueError: "VALUE_ERROR"}
LISTS = [[], [1], [1, 2, 3], [3, 1, 3, 2], list(range(9))]


def _python(change, xs, ys, i):
    xs = list(xs)
    try:
        change(xs, ys, i)
    except tuple(ERRORS) as e:
        return ERRORS[type(e)], None
    return "OK", digest(xs)


@pytest.mark.parametrize("name", PROGRAMS)
def test_list_methods_do_what_python_does(name):
    body, change = PROGRAMS[name]
    calls = [("f", (xs, ys, i)) for xs in LISTS for ys in ([], [5, 6]) for i in (-5, -1, 0, 1, 3, 10)]
    results, _ = run_asm(_method(body), calls, plain=True)
    got = [outcome(results, j) for j in range(len(calls))]
    assert got == [_python(change, *args) for _, args in calls]


FINDS = """
.func find xs x
    LOAD_VAR2 xs, x
    VALUE_INDEX {c}
    LOAD_INT 100
    BINARY_MUL
    LOAD_VAR2 xs, x
    VALUE_COUNT {c}
    BINARY_ADD
    RETURN
.func count xs x
    LOAD_VAR2 xs, x
    VALUE_COUNT {c}
    RETURN
"""


def test_index_count_remove_cost_the_elements_they_compare():
    results, _ = run_asm(FINDS.format(c=EQ_INT), [("count", ([], 1)), ("count", ([1, 2, 1, 1], 1)),
                                                    ("find", ([4, 5, 6], 6)), ("find", ([4, 5, 6], 4)),
                                                    ("find", ([4], 9))], plain=True)  # fmt: skip
    assert [outcome(results, j) for j in range(5)] == [("OK", 0), ("OK", 3), ("OK", 201), ("OK", 1),
                                                       ("VALUE_ERROR", None)]  # fmt: skip
    assert results.cost[1] - results.cost[0] == 4  # one per element compared
    assert results.cost[2] - results.cost[3] == 2  # index stops at its match: 3 compared, not 1


def test_growth_and_moves_cost_the_elements_they_touch():
    calls = [("f", (list(range(4)), [9] * k, 0)) for k in (0, 1, 2)]
    results, _ = run_asm(_method("    LOAD_VAR xs\n    LOAD_VAR ys\n    LIST_EXTEND"), calls)
    base = results.cost[0]  # extend by nothing (the digest's loop differs by its elements)
    loop = (results.cost[2] - results.cost[1]) - 1  # one more element digested, one more appended
    assert results.cost[1] - base == loop + 1 + 4  # the fifth element grows the list: 4 copied


def test_a_full_heap_is_a_memory_limit():
    text = _method("    LOAD_VAR xs\n    LOAD_VAR xs\n    LIST_EXTEND")
    # the allocator's 2 words, xs and ys (a header word, 3 + 4 each), the grown data (a header
    # word + 8), the collector's bitmap word (vm/kernel_heap.py)
    need = 2 + 2 * (1 + 3 + 4) + (1 + 8) + 1
    for size, want in ((need, "OK"), (need - 1, "MEMORY_LIMIT")):
        results, _ = run_asm(text, [("f", ([1, 2, 3, 4], [], 0))], limits=LaunchLimits(heap_size=size), plain=True)
        assert S.NAMES[results.status[0]] == want, size


RADIX = """
.func f i b
    LOAD_VAR i
    STR_RADIX {arg}
    LIST_LEN
    LOAD_INT 1000
    BINARY_MUL
    LOAD_VAR i
    STR_RADIX {arg}
    LOAD_VAR b
    LIST_GET
    BINARY_ADD
    RETURN
"""


@pytest.mark.parametrize("arg, fn", [(2, bin), (8, oct), (16, hex)])
def test_radix_spells_bin_oct_hex(arg, fn):
    values = [0, 1, -1, 7, 8, 255, -256, MAX, MIN, 2**40 + 3]
    calls = [("f", (v, k)) for v in values for k in (0, 2, -1)]
    results, _ = run_asm(RADIX.format(arg=arg), calls, plain=True)
    assert [outcome(results, j)[1] for j in range(len(calls))] == [len(fn(v)) * 1000 + ord(fn(v)[k]) for _, (v, k) in calls]


def test_radix_of_another_base_is_invalid_bytecode():
    results, _ = run_asm(RADIX.format(arg=10), [("f", (5, 0))], plain=True)
    assert S.NAMES[results.status[0]] == "INVALID_BYTECODE"


def _bits(x: float) -> int:
    return struct.unpack("<q", struct.pack("<d", x))[0]


ROUND = ".func f x n\n    LOAD_VAR2 x, n\n    FLOAT_ROUND\n    RETURN\n"


def test_round_is_cpythons_to_the_bit():
    rng = random.Random(71)
    xs = [2.675, 0.5, 1.5, -2.5, 0.125, 1e300, 5e-324, 1.7976931348623157e308, math.inf, -0.0, 0.1 + 0.2]
    xs += [rng.uniform(-1, 1) * 10.0 ** rng.randrange(-30, 30) for _ in range(150)]
    calls = [("f", (_bits(x), n)) for x in xs for n in (rng.randrange(-5, 17), rng.randrange(-330, 330))]
    results, _ = run_asm(ROUND, calls, plain=True)
    for j, (_, (b, n)) in enumerate(calls):
        x = struct.unpack("<d", struct.pack("<q", b))[0]
        try:
            assert outcome(results, j) == ("OK", _bits(round(x, n))), (x, n)
        except OverflowError:
            assert outcome(results, j) == ("OVERFLOW_ERROR", None), (x, n)


def test_round_needs_its_scratch_in_the_free_heap():
    results, _ = run_asm(ROUND, [("f", (_bits(2.5), 0)), ("f", (_bits(math.nan), 0))], limits=LaunchLimits(heap_size=100))
    assert [S.NAMES[s] for s in results.status] == ["MEMORY_LIMIT", "OK"]  # nan needs no digits


@pytest.mark.parametrize("op", ["LIST_CLEAR", "LIST_EXTEND", "LIST_POP", "LIST_INSERT", "LIST_REVERSE",
                                "LIST_SET_SLICE 7", f"VALUE_INDEX {EQ_INT}", f"VALUE_REMOVE {EQ_INT}"])
def test_random_handles_never_crash(op):
    """Slot values that are no list's handle are INVALID_BYTECODE or behave the same on every
    backend: the kernel never reads or writes outside its heap."""
    pops = TABLE[BY_NAME[op.split()[0]].number].pops
    loads = "\n".join(f"    LOAD_VAR {'abcde'[k]}" for k in range(pops))
    text = f".func f a b c d e\n    LOAD_INT 5\n    LOAD_INT -6\n    NEW_LIST 2\n    POP_TOP\n{loads}\n    {op}\n" \
           "    LOAD_INT 1\n    RETURN\n"  # fmt: skip
    rng = random.Random(op)
    near = [-1, 0, 1, 2, 3, 5, 7, 8, 10, 11, 20, MAX, MIN]
    calls = [("f", tuple(rng.choice(near) for _ in range(5))) for _ in range(150)]
    results, _ = run_asm(text, calls, limits=LaunchLimits(heap_size=64), plain=True)
    assert S.INVALID_BYTECODE in set(results.status.tolist())


def test_a_malformed_find_constant_is_invalid_bytecode():
    bad = typed_values(CMP_EQ, T.INT, T.INT)  # not a list
    results, _ = run_asm(FINDS.format(c=bad), [("count", ([1], 1))], plain=True)
    assert S.NAMES[results.status[0]] == "INVALID_BYTECODE"
