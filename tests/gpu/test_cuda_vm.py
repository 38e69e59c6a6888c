"""The CUDA VM launcher (vm/cuda.py) gives the CPU launcher's Results, array for array.

Simulator runs happen in a subprocess (tests/gpu/simrun.py); the job table mixes every
ending a job can have (OK, failed asserts, overflow, division by zero, recursion depth,
step limit, a raise; exceptions caught and run through finally) and is linked the way the plugin links suites and candidates."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from gpusim import assert_same_arrays, simulate
from simrun import arrays, vm_input

from gpucc import vm
from gpucc.compiler.batch import compile_batch
from gpucc.contract import status as S
from gpucc.contract.image import JobTable, LaunchLimits, Program
from gpucc.vm.kernel_heap import MIN_HEAP
from gpucc.vm.link import SuiteLink, link

SUITE = """
def f(n: int) -> int:
    ...


def test_value(n: int, want: int) -> None:
    assert f(n) == want


def test_positive() -> None:
    assert f(3) > 0 and f(2) < f(3) and BIT == 32


BIT = 2**5  # module code: run before each test, as the candidate's
"""
CASES = [(0, 0), (1, 1), (4, 10), (10, 55), (30, 465)]
BODIES = [
    "s = 0\n    for i in range(n + 1):\n        s += i\n    return s",  # right
    "if n <= 0:\n        return 0\n    return n + f(n - 1)",  # right, until the depth limit
    "return n * (n + 1) // 2 * 4611686018427387904",  # overflow
    "return n * (n + 1) // (2 * (n // 4))",  # division by zero for n < 4
    "while n >= 0:\n        n += 0\n    return n",  # step limit
    "return n",  # wrong
    "return n * (n + 1) // HALF\n\n\nHALF = 2",  # right, a global of its module code
    "try:\n        return n * (n + 1) // 2 + 0 // (n - 4)\n    except ZeroDivisionError:\n        return 10",  # caught: right
    "if n > 9:\n        raise ValueError\n    t = 0\n    try:\n        t = f(n - 1) + n if n > 0 else 0\n"
    "    finally:\n        n += 1\n    return t",  # raised, through a finally at each depth
    "return {n}",  # compile error: skipped by the linker
]
LIMITS = LaunchLimits(step_limit=400, stack_size=128, max_depth=12)


def _program():
    sources = [SUITE] + [f"def f(n: int) -> int:\n    {b}\n" for b in BODIES]
    batch = compile_batch(sources)
    program = Program.from_batch(batch)
    tests = [("test_value", CASES), ("test_positive", [()])]
    return program, link(batch, program, [SuiteLink(0, tests, list(range(1, len(sources))))]).jobs


def test_simulated_launch_matches_cpu(tmp_path: Path):
    program, jobs = _program()
    expected = vm.launch(program, jobs, "cpu", LIMITS)
    endings = set(expected.status.tolist())
    assert {S.OK, S.ASSERT_FAILED, S.OVERFLOW, S.ZERO_DIVISION, S.RECURSION_LIMIT, S.STEP_LIMIT, S.VALUE_ERROR} <= endings
    got = simulate("vm", tmp_path, vm_input(program, jobs, LIMITS))
    assert_same_arrays(arrays(expected), got)
    assert (got["x_heap_words"], got["x_threads"]) == (MIN_HEAP, len(jobs))  # no lists: no heap, a thread per job


def test_simulated_grid_stride_and_empty_launch(tmp_path: Path):
    program, jobs = _program()
    expected = vm.launch(program, jobs, "cpu", LIMITS)
    got = simulate("vm", tmp_path, {**vm_input(program, jobs, LIMITS), "x_max_threads": np.int64(5)})
    assert_same_arrays(arrays(expected), got)  # 5 threads, about 7 jobs each
    empty = simulate("vm", tmp_path, vm_input(program, JobTable.empty(), LIMITS))
    assert all(empty[k].shape == (0,) for k in arrays(expected))


def test_unknown_backend_names_the_valid_ones():
    program, jobs = _program()
    with pytest.raises(ValueError, match="cpu, cuda, reference"):
        vm.launch(program, jobs, "tpu", LIMITS)


@pytest.mark.gpu
def test_device_launch_matches_cpu():
    program, jobs = _program()
    for limits in (LIMITS, LaunchLimits()):
        assert_same_arrays(arrays(vm.launch(program, jobs, "cpu", limits)), arrays(vm.launch(program, jobs, "cuda", limits)))


def test_simulated_launch_with_lists_matches_cpu(tmp_path: Path):
    """List arguments from the pool, the per-thread heap column, MEMORY_LIMIT and bad handles."""
    from gpucc.vm.asm import assemble_named, make_jobs

    program, names = assemble_named("""
.func f xs n
    LOAD_VAR xs
    LOAD_VAR n
    LIST_REPEAT
    LIST_SORTED 0
    DUP_TOP
    LOAD_INT 1
    LIST_APPEND
    LOAD_INT -1
    LIST_GET
    RETURN
.func g xs
    LOAD_VAR xs
    LIST_SUM 0
    RETURN
""")
    calls = [("f", ([3, 1, 2], k)) for k in (0, 1, 2, 50)] + [("g", ([5, 6],)), ("g", (7,))]
    jobs = make_jobs(names, calls)
    jobs.arg_lists[-1] = 0  # g(7): 7 is no list's handle
    limits = LaunchLimits(step_limit=100, stack_size=32, max_depth=4, heap_size=200)
    expected = vm.launch(program, jobs, "cpu", limits)
    assert {S.OK, S.MEMORY_LIMIT, S.INVALID_BYTECODE} <= set(expected.status.tolist())
    got = simulate("vm", tmp_path, {**vm_input(program, jobs, limits), "x_max_threads": np.int64(2)})
    assert_same_arrays(arrays(expected), got)
    assert got["x_heap_words"] == limits.heap_size


def test_simulated_launch_with_strs_matches_cpu(tmp_path: Path):
    """Every str instruction (and FELL_OFF, strs in the list instructions, a bad handle, a heap
    too small) under the simulator: the Unicode tables and strconv's scratch on the device."""
    from gpucc.vm.asm import assemble_named, make_jobs

    program, names = assemble_named("""
.func f s t n
    .local u
    LOAD_VAR s
    STR_CASE 4
    LOAD_VAR t
    LOAD_STR "+"
    LOAD_INT 2
    STR_REPLACE
    LOAD_VAR t
    LOAD_VAR n
    LOAD_STR "*"
    STR_PAD 1
    LIST_CONCAT
    STORE_VAR u
    LOAD_STR "-"
    LOAD_VAR u
    LOAD_INT -1
    LOAD_INT -1
    STR_SPLIT 1
    DUP_TOP
    LIST_SORT 2
    STR_JOIN
    LOAD_VAR u
    LOAD_INT -1
    STR_STRIP 0
    LIST_CONCAT
    LOAD_VAR n
    STR_FROM 1
    LIST_CONCAT
    LOAD_INT 7
    INT_TO_FLOAT
    STR_FROM 3
    LOAD_VAR n
    STR_CHR
    LIST_CONCAT
    LIST_CONCAT
    STORE_VAR u
    LOAD_VAR2 u, t
    STR_FIND 4
    LOAD_VAR u
    STR_IS 4
    BINARY_ADD
    LOAD_VAR2 t, u
    STR_CONTAINS
    BINARY_ADD
    LOAD_VAR u
    LOAD_INT 0
    STR_GET 0
    STR_ORD
    BINARY_ADD
    LOAD_VAR u
    LOAD_INT -1
    STR_GET 1
    BINARY_ADD
    LOAD_VAR u
    LIST_LEN
    BINARY_ADD
    LOAD_STR "-12"
    STR_TO_NUM 1
    BINARY_ADD
    LOAD_STR " 2_5.5e1 "
    STR_TO_NUM 3
    FLOAT_TO_INT
    BINARY_ADD
    LOAD_VAR2 s, t
    COMPARE_NUM < str
    BINARY_ADD
    RETURN
.func g x
    LOAD_VAR x
    JUMP_IF_FALSE end
    LOAD_INT 1
    RETURN
end: FELL_OFF
""")
    calls = [("f", (list(map(ord, s)), list(map(ord, t)), n))
             for s, t, n in [("ǅa σΣ straße", "a b", 9), ("", "", 0), ("İ😀 ", "Σ", 66), ("x", "yy", 5000)]]
    jobs = make_jobs(names, calls + [("g", (1,)), ("g", (0,))])
    jobs.arg_lists[2] = 0b010  # s = 0: no str's handle
    limits = LaunchLimits(step_limit=200, stack_size=32, max_depth=4, heap_size=4000)
    expected = vm.launch(program, jobs, "cpu", limits)
    assert {S.OK, S.INVALID_BYTECODE, S.MEMORY_LIMIT, S.NONE_RETURNED} <= set(expected.status.tolist())
    got = simulate("vm", tmp_path, {**vm_input(program, jobs, limits), "x_max_threads": np.int64(3)})
    assert_same_arrays(arrays(expected), got)


def test_simulated_launch_with_values_matches_cpu(tmp_path: Path):
    """Every value instruction under the simulator (the comparison walk's scratch column):
    nested lists and tuples compared, searched, sorted; None and boxes; a TypeError, a failed
    ASSERT_VALUE, a malformed type, a heap too small; a list of tuples as an argument."""
    from gpucc.contract import typecodes as T
    from gpucc.contract.isa import CMP_EQ, CMP_LT, typed_values
    from gpucc.vm.asm import assemble_named, make_jobs

    pair = T.tuple_of([T.INT, T.STR])
    pairs, ints, oint = T.list_of(pair), T.list_of(T.list_of(T.INT)), T.optional_of(T.INT)
    program, names = assemble_named(f"""
.func f n
    .local xs
    LOAD_VAR n
    LOAD_STR "b"
    NEW_LIST 2
    LOAD_INT 1
    LOAD_STR "a"
    NEW_LIST 2
    LOAD_VAR n
    LOAD_STR "a"
    NEW_LIST 2
    NEW_LIST 3
    STORE_VAR xs
    LOAD_VAR xs
    VALUE_SORTED {pair}
    LOAD_VAR xs
    VALUE_CMP {typed_values(CMP_LT, pairs, pairs)}
    LOAD_VAR xs
    VALUE_MAX {pair}
    LOAD_VAR xs
    VALUE_CONTAINS {typed_values(CMP_EQ, pair, pairs)}
    BINARY_ADD
    LOAD_VAR xs
    DUP_TOP
    VALUE_SORT {pair}
    UNPACK_CHECK 3
    LIST_LEN
    BINARY_ADD
    LOAD_VAR n
    BOX
    UNBOX 1
    BINARY_ADD
    LOAD_INT 1
    NEW_LIST 1
    NEW_LIST 1
    LOAD_VAR n
    NEW_LIST 1
    NEW_LIST 1
    ASSERT_VALUE {typed_values(CMP_LT, ints, ints)}
    RETURN
.func g n
    LOAD_VAR n
    BOX
    LOAD_INT -1
    VALUE_CMP {typed_values(CMP_LT, oint, oint)}
    RETURN
.func h n
    LOAD_VAR n
    LOAD_VAR n
    VALUE_CMP {T.list_of(T.INT) | 1 << 31}
    RETURN
.func k xs
    LOAD_VAR xs
    VALUE_MAX {pair}
    LOAD_INT 1
    LIST_GET
    LIST_LEN
    RETURN
""")
    calls = [("f", (n,)) for n in (0, 1, 2, 5)] + [("g", (1,)), ("h", (1,)), ("k", ([(2, "bc"), (1, "a")],))]
    jobs = make_jobs(names, calls)
    for heap_size, endings in ((16384, {S.OK, S.ASSERT_FAILED, S.TYPE_ERROR, S.INVALID_BYTECODE}), (60, {S.MEMORY_LIMIT})):
        limits = LaunchLimits(step_limit=200, stack_size=32, max_depth=4, heap_size=heap_size)
        expected = vm.launch(program, jobs, "cpu", limits)
        assert endings <= set(expected.status.tolist())
        got = simulate("vm", tmp_path, {**vm_input(program, jobs, limits), "x_max_threads": np.int64(2)})
        assert_same_arrays(arrays(expected), got)


def test_simulated_launch_with_list_methods_matches_cpu(tmp_path: Path):
    """The list methods (clear, extend, pop, insert, reverse, slice assignment, index / count /
    remove), bin / oct / hex and round(x, n) under the simulator: growth in the heap column,
    round's scratch in the free heap, IndexError / ValueError, a heap too small."""
    from gpucc.contract import typecodes as T
    from gpucc.contract.isa import CMP_EQ, typed_values
    from gpucc.vm.asm import assemble_named, make_jobs

    eq = typed_values(CMP_EQ, T.INT, T.list_of(T.INT))
    program, names = assemble_named(f"""
.func f xs i
    LOAD_VAR xs
    LOAD_VAR xs
    LIST_EXTEND
    LOAD_VAR xs
    LOAD_VAR i
    LOAD_INT 9
    LIST_INSERT
    LOAD_VAR xs
    LIST_REVERSE
    LOAD_VAR xs
    LOAD_VAR xs
    LOAD_INT 1
    LOAD_INT 0
    LOAD_INT 2
    LIST_SET_SLICE 1
    LOAD_VAR xs
    LOAD_INT 9
    VALUE_REMOVE {eq}
    LOAD_VAR xs
    LOAD_VAR i
    LIST_POP
    LOAD_VAR xs
    LOAD_VAR i
    VALUE_INDEX {eq}
    BINARY_ADD
    LOAD_VAR xs
    LOAD_INT 1
    VALUE_COUNT {eq}
    BINARY_ADD
    LOAD_VAR i
    STR_RADIX 16
    LIST_LEN
    BINARY_ADD
    LOAD_VAR xs
    LIST_LEN
    BINARY_ADD
    LOAD_VAR xs
    LIST_CLEAR
    RETURN
.func g x n
    LOAD_VAR2 x, n
    FLOAT_ROUND
    RETURN
""")
    bits = lambda x: int(np.float64(x).view(np.int64))  # noqa: E731
    calls = [("f", (xs, i)) for xs, i in [([1, 2, 3], 1), ([3, 1, 3, 2, 1], -2), ([], 0), ([5] * 100, 3), ([1, 2], 5)]]
    calls += [("g", (bits(x), n)) for x, n in [(2.675, 2), (-2.5, 0), (1.7976931348623157e308, -308), (0.1, 400)]]
    jobs = make_jobs(names, calls)
    limits = LaunchLimits(step_limit=200, stack_size=32, max_depth=4, heap_size=900)
    expected = vm.launch(program, jobs, "cpu", limits)
    assert {S.OK, S.INDEX_ERROR, S.VALUE_ERROR, S.MEMORY_LIMIT, S.OVERFLOW_ERROR} <= set(expected.status.tolist())
    got = simulate("vm", tmp_path, {**vm_input(program, jobs, limits), "x_max_threads": np.int64(3)})
    assert_same_arrays(arrays(expected), got)
def simulate_collecting(tmp_path: Path, source: str, ns: tuple, steps: int, heap_size: int, factor: int) -> None:
    """f(n) for each n of ns in a heap of heap_size words: every job OK, the last one allocating
    more than factor heaps (so it collected), the simulator's Results equal the CPU's."""
    from gpucc.vm.asm import make_jobs

    batch = compile_batch([source])
    program = Program.from_batch(batch)
    g = int(batch.func_start[0]) + batch.function_names(0).index("f")
    jobs = make_jobs({}, [(g, (n,)) for n in ns])
    limits = LaunchLimits(step_limit=steps, stack_size=64, max_depth=4, heap_size=heap_size)
    expected = vm.launch(program, jobs, "cpu", limits)
    assert expected.status.tolist() == [S.OK] * len(ns)
    roomy = vm.launch(program, jobs, "cpu", LaunchLimits(step_limit=steps, heap_size=100_000))
    assert roomy.heap_peak_words[-1] > factor * limits.heap_size  # it collected
    assert roomy.value.tolist() == expected.value.tolist()
    got = simulate("vm", tmp_path, {**vm_input(program, jobs, limits), "x_max_threads": np.int64(2)})
    assert_same_arrays(arrays(expected), got)


def test_simulated_launch_collects_the_heap(tmp_path: Path):
    """Jobs whose garbage is many times their heap (strs, lists of tuples, an Optional box live
    across collections): the simulator's Results equal the CPU's, heap_peak_words too."""
    source = """
def f(n: int) -> int:
    keep = [(i, str(i)) for i in range(3)]
    o: Optional[int] = n
    s = ""
    for i in range(n):
        s = s[-3:] + str(i)
    if o is not None:
        return len(s) + len(keep[2][1]) + o
    return 0
"""
    simulate_collecting(tmp_path, source, (2, 40, 120), 5000, 250, 4)


def test_simulated_launch_collects_with_a_dict_live(tmp_path: Path):
    """A dict of str keys to tuples and a set live across collections of str and dict garbage:
    the simulator's Results equal the CPU's (the dict blocks traced on the device as on the CPU)."""
    source = """
from typing import Dict, Set, Tuple


def f(n: int) -> int:
    d: Dict[str, Tuple[int, str]] = {"a": (1, "x")}
    seen: Set[int] = {n}
    s = ""
    for i in range(n):
        junk = {i: str(i), i + 1: "y"}
        s = s[-3:] + junk[i]
        if i % 9 == 0:
            d[str(i)] = (i, s)
            seen.add(i)
    return len(d) * 1000 + len(seen) * 100 + d["a"][0] + len(s)
"""
    simulate_collecting(tmp_path, source, (2, 30, 60), 20_000, 700, 3)
