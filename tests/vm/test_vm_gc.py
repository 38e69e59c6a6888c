"""The job heap's garbage collector (vm/kernel_gc.py, vm/reference_heap.py): programs that
allocate far more than their heap run as CPython runs them while their live data fits, end with
the memory limit when it does not, and the kernel agrees with the reference word for word
(every Results array, heap_peak_words too) after collections with nested lists, strs, tuples
and Optionals live in callers' frames and on the operand stack."""

from __future__ import annotations

import random

import numpy as np
from vmcheck import launch_all, run_asm

from gpucc.compiler.batch import compile_batch
from gpucc.contract import status as S
from gpucc.contract.image import LaunchLimits, Program
from gpucc.contract.valuetypes import render
from gpucc.vm.asm import make_jobs
from gpucc.vm.kernel_gc import collect
from gpucc.vm.kernel_heap import FIRST_BLOCK, PLAIN, RAW, REFS, alloc, limit, new_list, release, start
from gpucc.vm.reference_heap import Heap
from gpucc.vm.reference_numeric import Stop
from tests.oracle.oracle import cpython_namespace, cpython_outcome

STRINGS = """
def f(n: int) -> int:
    s = ""
    for i in range(n):
        s = s + str(i % 10)
        if len(s) > 8:
            s = s[1:]
    return len(s) * 1000 + ord(s[0])
"""
LISTS = """
def f(n: int) -> int:
    total = 0
    for i in range(n):
        xs = [j * i for j in range(8)]
        xs.append(i)
        total = (total + sum(xs) + len(xs)) % 1000003
    return total
"""
GROWING = """
def f(n: int) -> int:
    xs: List[str] = []
    for i in range(n):
        xs.append(str(i))
    return len(xs)
"""
NESTED = """
def churn(k: int) -> str:
    s = ""
    for i in range(k):
        s = str(i) + "."
    return s


def pairs(n: int) -> List[Tuple[int, str]]:
    out: List[Tuple[int, str]] = []
    for i in range(n):
        out.append((i, str(i) * 2))
        churn(30)
    return out


def deep(n: int, m: Optional[int], w: Optional[str]) -> int:
    grid = [[i * j for j in range(n)] for i in range(n)]
    names = pairs(n)
    label = names[n - 1][1] + churn(400)
    total = len(label) + grid[n - 1][n - 1] + len(names[2][1])
    if m is not None:
        total += m
    if w is not None:
        total += len(w + churn(300))
    if names[1] < names[2]:
        total += 1000
    return total + sorted(names)[n - 1][0] + len(grid)


def f(n: int) -> int:
    return deep(n, n * 2, "abc") + len(churn(200) + str(deep(n, None, None)))
"""


def run_program(source: str, args: tuple, limits: LaunchLimits):
    """(Results of f(*args) on the cpu kernel, checked equal to the reference, its outcome rendered)."""
    batch = compile_batch([source])
    assert batch.ok(0), batch.error(0)
    names = batch.function_names(0)
    g = int(batch.func_start[0]) + names.index("f")
    results = launch_all(Program.from_batch(batch), make_jobs({}, [(g, args)]), limits)
    st = int(results.status[0])
    return results, render(int(results.value[0]), int(batch.func_ret_type[g])) if st == S.OK else S.LABELS[st]


def cpython(source: str, args: tuple) -> str:
    return cpython_outcome(cpython_namespace(source), "f", args)


def test_a_string_building_loop_of_100000_iterations_runs_in_a_small_heap():
    limits = LaunchLimits(step_limit=3_000_000, heap_size=600)
    results, got = run_program(STRINGS, (100_000,), limits)
    assert got == cpython(STRINGS, (100_000,))
    assert 0 < results.heap_peak_words[0] < limits.heap_size


def test_collections_change_no_cost_or_step():
    small, got = run_program(STRINGS, (3000,), LaunchLimits(heap_size=600))
    roomy, want = run_program(STRINGS, (3000,), LaunchLimits(heap_size=400_000))
    assert got == want and (small.cost[0], small.steps[0]) == (roomy.cost[0], roomy.steps[0])
    assert roomy.heap_peak_words[0] > 50 * 600 > small.heap_peak_words[0]  # it collected, many times


def test_a_list_rebuilding_loop_runs_in_a_small_heap():
    limits = LaunchLimits(step_limit=3_000_000, heap_size=400)
    results, got = run_program(LISTS, (20_000,), limits)
    assert got == cpython(LISTS, (20_000,))
    assert results.heap_peak_words[0] < limits.heap_size


def test_live_data_that_outgrows_the_heap_is_the_memory_limit():
    limits = LaunchLimits(heap_size=2000)
    _, small = run_program(GROWING, (50,), limits)
    assert small == cpython(GROWING, (50,)) == "50"
    results, big = run_program(GROWING, (400,), limits)
    assert results.status[0] == S.MEMORY_LIMIT
    assert cpython(GROWING, (400,)) == "400"  # CPython's heap is bigger; what fits, fits
    assert results.heap_peak_words[0] <= limits.heap_size


def test_nested_values_live_across_collections_in_frames_and_on_the_operand_stack():
    # churn's garbage is many times the heap: every call below collects, with grid / names /
    # Optional boxes in deep's and f's frames and `names[n - 1][1]`, `w` on the operand stack
    limits = LaunchLimits(step_limit=2_000_000, heap_size=3000)
    for n in (3, 6):
        results, got = run_program(NESTED, (n,), limits)
        assert got == cpython(NESTED, (n,))
    roomy, _ = run_program(NESTED, (6,), LaunchLimits(step_limit=2_000_000, heap_size=200_000))
    assert roomy.heap_peak_words[0] > 3 * limits.heap_size  # without collections it would not fit


def test_the_plain_kernel_agrees_after_collections():
    limits = LaunchLimits(step_limit=400_000, heap_size=1500)
    batch = compile_batch([NESTED])
    g = int(batch.func_start[0]) + batch.function_names(0).index("f")
    launch_all(Program.from_batch(batch), make_jobs({}, [(g, (4,)), (g, (5,))]), limits, plain=True)


def test_heap_peak_words_is_the_highest_block_word():
    text = """
.func f n
    LOAD_VAR n
    NEW_LIST 1
    RETURN
.func g
    LOAD_INT 0
    RETURN
"""
    results, _ = run_asm(text, [("f", (5,)), ("g", ())], plain=True)
    assert results.heap_peak_words.tolist() == [1 + 3 + 4, 0]  # a block header, len cap d, 4 elements


def test_a_corrupt_block_header_is_invalid_bytecode():
    # a list [1, 1, 2]'s elements read as a list header (len 1, cap 1, data at 2) through the
    # forged handle 6: LIST_SET then overwrites the first block's header; the collection that
    # the loop's garbage forces finds it
    text = """
.func f
    .local i
    LOAD_INT 1
    LOAD_INT 1
    LOAD_INT 2
    NEW_LIST 3
    POP_TOP
    LOAD_INT 12345
    LOAD_INT 6
    LOAD_INT 0
    LIST_SET
loop: NEW_LIST 0
    POP_TOP
    JUMP loop
"""
    results, _ = run_asm(text, [("f", ())], limits=LaunchLimits(step_limit=10_000, heap_size=300), plain=True)
    assert results.status[0] == S.INVALID_BYTECODE


def test_kernel_allocator_and_collector_match_the_reference_heap():
    """Random allocations, releases, appends and collections (with random roots) on the kernel's
    functions and on vm/reference_heap.Heap: the same addresses, words, hp and failures."""
    rng = random.Random(7)
    for _ in range(40):
        size = rng.choice([64, 200, 700])
        heap = np.zeros(size, np.int64)  # as the reference's words start
        hp = start(heap)
        ref = Heap(size)
        live: list[int] = []
        for _ in range(300):
            what = rng.random()
            if what < 0.6:
                n, kind = rng.randrange(0, 12), rng.choice([PLAIN, REFS])
                h, hp = new_list(heap, hp, np.int64(n), kind)
                values = [rng.choice(live + [0, 5, -1]) if kind == REFS and live else rng.randrange(50) for _ in range(n)]
                try:
                    want = ref.new(values, kind)
                except Stop as stop:
                    assert stop.status == S.MEMORY_LIMIT and h == -1
                    continue
                assert h == want
                heap[h + 3 : h + 3 + n] = values
                live.append(h)
            elif what < 0.7:
                n = rng.randrange(0, 20)
                p, hp = alloc(heap, hp, np.int64(n), RAW)
                try:
                    want = ref.alloc(n, RAW)
                except Stop:
                    assert p == -1
                    continue
                assert p == want
                hp = release(heap, hp, p)
                ref.release(want)
            else:
                roots = np.array(rng.sample(live, min(len(live), 3)) + [rng.randrange(size)], np.int64)
                st, hp = collect(heap, hp, roots, len(roots))
                assert st == S.OK
                ref.collect(roots.tolist())
                live = [h for h in live if h in set(roots.tolist())]  # (what they reach lives too)
            assert hp == ref.hp and heap[0] == ref.cursor
            assert heap[FIRST_BLOCK:hp].tolist() == ref.words[FIRST_BLOCK:hp]
        assert hp <= limit(heap)
