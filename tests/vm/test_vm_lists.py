"""The list instructions: every backend agrees (vmcheck) and each one does what Python's list
operation does, on edge inputs and random lists; the heap's limits and bad handles."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from vmcheck import MAX, MIN, heap_for, launch_all, line_of, outcome, run_asm

from gpucc.contract import status as S
from gpucc.contract.image import LaunchLimits, job_arrays
from gpucc.contract.isa import BY_NAME, TABLE
from gpucc.contract.valuetypes import T_LIST_FLOAT, T_LIST_INT, bits_to_float, float_to_bits, render
from gpucc.vm.asm import assemble_named, make_jobs
from gpucc.vm.kernel_heap import FIRST_BLOCK
from gpucc.vm.verify import verify

RESULT = """
.func at {params} k
{body}
    LOAD_VAR k
    LIST_GET
    RETURN
.func len {params}
{body}
    LIST_LEN
    RETURN
"""


def result_lists(body: str, params: str, calls, is_float=False, limits=None):
    """Run `body` (it leaves a list on the stack) once per call; [(status, the list)] with the
    list read back element by element (None unless OK), every backend agreeing."""
    text = RESULT.format(params=params, body=body)
    lens, _ = run_asm(text, [("len", args) for args in calls], limits=limits, plain=True)
    out, reads = [], []
    for j, args in enumerate(calls):
        st, n = outcome(lens, j)
        out.append((st, [] if st == "OK" else None))
        reads += [(j, ("at", (*args, k))) for k in range(n or 0)]
    if reads:
        elems, _ = run_asm(text, [call for _, call in reads], limits=limits)
        for (j, _), v, st in zip(reads, elems.value, elems.status):
            assert st == S.OK
            out[j][1].append(bits_to_float(int(v)) if is_float else int(v))
    return out


def same_floats(xs, ys) -> bool:
    """Bit-equal lists of floats (-0.0 is not 0.0; any nan equals any nan)."""
    return len(xs) == len(ys) and all(
        (math.isnan(x) and math.isnan(y)) or float_to_bits(x) == float_to_bits(y) for x, y in zip(xs, ys))


def values(results) -> list:
    return [outcome(results, j) for j in range(len(results.status))]


# -- indexing, length, NEW_LIST


def test_new_list_get_set_len_follow_python():
    text = """
.func get xs i
    LOAD_VAR2 xs, i
    LIST_GET
    RETURN
.func set_then_sum xs i v
    LOAD_VAR v
    LOAD_VAR2 xs, i
    LIST_SET
    LOAD_VAR xs
    LIST_SUM 0
    RETURN
.func literal
    LOAD_INT 7
    LOAD_INT 8
    LOAD_INT 9
    NEW_LIST 3
    LOAD_INT -3
    LIST_GET
    RETURN
.func empty_len
    NEW_LIST 0
    LIST_LEN
    RETURN
"""
    lists = [[], [5], [1, 2, 3]]
    calls, want = [], []
    for xs, i in itertools.product(lists, range(-5, 5)):
        calls += [("get", (xs, i)), ("set_then_sum", (xs, i, 100))]
        ok = -len(xs) <= i < len(xs)
        want += [("OK", xs[i]) if ok else ("INDEX_ERROR", None)]
        changed = list(xs)
        if ok:
            changed[i] = 100
        want += [("OK", sum(changed)) if ok else ("INDEX_ERROR", None)]
    calls += [("literal", ()), ("empty_len", ())]
    want += [("OK", 7), ("OK", 0)]
    results, _ = run_asm(text, calls, plain=True)
    assert values(results) == want
    # NEW_LIST 3 costs its table cost + 3 elements (4 LOAD_INT, LIST_GET and RETURN: 4 + 1 + 2 more)
    assert results.cost[-2] == TABLE[BY_NAME["NEW_LIST"].number].cost + 3 + 7


# -- slices


def test_slices_match_python_for_every_sign_and_absent_part():
    rng = random.Random(5)
    bounds = [None, 0, 1, -1, 2, -2, 3, -4, 6, -7, 9, MAX, MIN]
    steps = [None, 1, -1, 2, -2, 3, -3, MAX, MIN, 0]
    calls, want = [], []
    for n in (0, 1, 5, 7):
        xs = [rng.randrange(-50, 50) for _ in range(n)]
        for start, stop, step in itertools.product(bounds, bounds, steps):
            if rng.random() < 0.6:  # a sample keeps the run short; every kind still occurs
                continue
            arg = (start is not None) | (stop is not None) << 1 | (step is not None) << 2
            calls.append((xs, arg, start or 0, stop or 0, step or 0))
            want.append(("VALUE_ERROR", None) if step == 0 else ("OK", xs[start:stop:step]))
    bodies = {}
    for c in calls:
        bodies.setdefault(c[1], []).append(c)
    got = {}
    for arg, group in bodies.items():
        body = f"    LOAD_VAR xs\n    LOAD_VAR a\n    LOAD_VAR b\n    LOAD_VAR c\n    LIST_SLICE {arg}"
        for c, r in zip(group, result_lists(body, "xs a b c", [(c[0], c[2], c[3], c[4]) for c in group])):
            got[id(c)] = r
    assert [got[id(c)] for c in calls] == want
    assert {c[1] for c in calls} == set(range(8))


# -- sum, min, max


def test_sum_ints_overflows_at_the_first_partial_sum_past_int64():
    text = ".func s xs\n    LOAD_VAR xs\n    LIST_SUM 0\n    RETURN\n"
    cases = [[], [1, 2, 3], [MAX, 1, -1], [MIN, -1], [MAX, -1, 1], [MIN, MAX], [-5] * 10]
    results, _ = run_asm(text, [("s", (xs,)) for xs in cases], plain=True)
    assert values(results) == [("OK", 0), ("OK", 6), ("OVERFLOW", None), ("OVERFLOW", None), ("OK", MAX),
                               ("OK", -1), ("OK", -50)]  # fmt: skip
    assert results.cost[1] == results.cost[0] + 3  # one more per element


FLOAT_LISTS = [[], [0.1] * 10, [1e308, 1e308, -1e308], [-0.0], [-0.0, 0.0], [0.0, -0.0], [math.nan, 1.0],
               [1.0, math.nan, -1.0], [math.inf, -math.inf], [2.5, -1.5, 7.0, -0.0], [5e-324, -5e-324]]  # fmt: skip


@pytest.mark.parametrize("op", ["LIST_SUM", "LIST_MIN", "LIST_MAX"])
def test_float_sum_min_max_are_pythons(op):
    text = f".func f xs\n    LOAD_VAR xs\n    {op} 1\n    RETURN\n"
    results, _ = run_asm(text, [("f", (xs,)) for xs in FLOAT_LISTS])  # (plain numpy raises on inf)
    fold = {"LIST_SUM": lambda xs: sum(xs, 0.0), "LIST_MIN": min, "LIST_MAX": max}[op]
    for xs, (st, v) in zip(FLOAT_LISTS, values(results)):
        if not xs and op != "LIST_SUM":
            assert st == "VALUE_ERROR"
            continue
        assert st == "OK" and same_floats([bits_to_float(v)], [fold(xs)]), (op, xs)


def test_int_min_max_and_empty():
    text = ".func lo xs\n    LOAD_VAR xs\n    LIST_MIN 0\n    RETURN\n.func hi xs\n    LOAD_VAR xs\n    LIST_MAX 0\n    RETURN\n"
    lists = [[], [3], [4, MIN, MAX, 0], [2, 2, -7]]
    results, _ = run_asm(text, [(f, (xs,)) for xs in lists for f in ("lo", "hi")])
    want = [(("OK", f(xs)) if xs else ("VALUE_ERROR", None)) for xs in lists for f in (min, max)]
    assert values(results) == want


# -- sorting


@pytest.mark.parametrize("in_place", [False, True])
def test_sort_equals_python_sorted_on_random_int_lists(in_place):
    rng = random.Random(1)
    lists = [[], [1], [MAX, MIN, 0]] + [[rng.randrange(-5, 5) for _ in range(rng.randrange(2, 40))] for _ in range(12)]
    body = "    LOAD_VAR xs\n    DUP_TOP\n    LIST_SORT 0" if in_place else "    LOAD_VAR xs\n    LIST_SORTED 0"
    got = result_lists(body, "xs", [(xs,) for xs in lists])
    assert got == [("OK", sorted(xs)) for xs in lists]


def test_sort_is_stable_for_equal_floats_and_agrees_with_python_without_nan():
    rng = random.Random(2)
    lists = [[0.0, -0.0, 0.0, -0.0, -1.0], [-0.0, 0.0] * 5, [math.inf, -0.0, 5e-324, 0.0, -math.inf]]
    lists += [[rng.choice([-0.0, 0.0, 1.5, -2.0, 3.25]) for _ in range(rng.randrange(2, 30))] for _ in range(8)]
    got = result_lists("    LOAD_VAR xs\n    LIST_SORTED 1", "xs", [(xs,) for xs in lists], is_float=True)
    for xs, (st, ys) in zip(lists, got):
        assert st == "OK" and same_floats(ys, sorted(xs)), xs  # sorted() is stable: -0.0 / 0.0 keep their order


def test_sort_with_nan_keeps_every_element_and_backends_agree():
    xs = [3.0, math.nan, 1.0, -math.nan, 2.0, math.nan, 0.5]
    [(st, ys)] = result_lists("    LOAD_VAR xs\n    LIST_SORTED 1", "xs", [(xs,)], is_float=True)
    assert st == "OK" and len(ys) == len(xs) and sum(math.isnan(y) for y in ys) == 3
    assert sorted(y for y in ys if not math.isnan(y)) == [0.5, 1.0, 2.0, 3.0]


def test_sort_costs_n_log_n_and_releases_its_buffer():
    text = """
.func sorted_cost xs
    LOAD_VAR xs
    LIST_SORTED 0
    LIST_LEN
    RETURN
.func buffer_released xs
    .local ys
    LOAD_VAR xs
    LIST_SORTED 0
    STORE_VAR ys
    NEW_LIST 0
    RETURN
"""
    xs = list(range(10, 0, -1))
    results, _ = run_asm(text, [("sorted_cost", (xs,)), ("sorted_cost", ([],)), ("buffer_released", (xs,))])
    base = results.cost[1]  # the same instructions on an empty list
    assert results.cost[0] - base == 10 + 10 * 4  # the copy + 4 merge passes of 10
    # the argument's block (1 + 3 + 10) and the sorted copy's from the first block on: the next
    # list's block starts right after them (its handle one word further, past its block header)
    assert outcome(results, 2) == ("OK", FIRST_BLOCK + 2 * (1 + 3 + 10) + 1)


# -- contains, equality, concatenation, repetition


def test_contains_uses_equality_of_the_operand_types():
    text = """
.func has_int x xs
    LOAD_VAR2 x, xs
    LIST_CONTAINS == int int
    RETURN
.func has_in_floats x xs
    LOAD_VAR2 x, xs
    LIST_CONTAINS == int float
    RETURN
.func has_float x xs
    LOAD_VAR2 x, xs
    LIST_CONTAINS == float float
    RETURN
"""
    fb = float_to_bits
    calls = [("has_int", (3, [1, 2, 3])), ("has_int", (4, [1, 2, 3])), ("has_int", (1, [])),
             ("has_in_floats", (2**53 + 1, [float(2**53)])), ("has_in_floats", (2, [0.5, 2.0])),
             ("has_float", (fb(-0.0), [1.0, 0.0])), ("has_float", (fb(math.nan), [math.nan]))]  # fmt: skip
    results, _ = run_asm(text, calls, plain=True)
    assert [v for _, v in values(results)] == [1, 0, 0, 0, 1, 1, 0]  # nan is never found
    assert results.cost[0] - results.cost[2] == 3 and results.cost[1] - results.cost[2] == 3  # compared up to the match


def test_list_eq_concat_repeat():
    text = """
.func eq xs ys
    LOAD_VAR2 xs, ys
    LIST_EQ 0
    RETURN
.func feq xs ys
    LOAD_VAR2 xs, ys
    LIST_EQ 1
    RETURN
"""
    calls = [("eq", ([1, 2], [1, 2])), ("eq", ([1, 2], [1, 3])), ("eq", ([], [])), ("eq", ([1], [1, 1])),
             ("feq", ([-0.0, 1.5], [0.0, 1.5])), ("feq", ([math.nan], [math.nan]))]  # fmt: skip
    results, _ = run_asm(text, calls)
    assert [v for _, v in values(results)] == [1, 0, 1, 0, 1, 0]
    cat = result_lists("    LOAD_VAR2 xs, ys\n    LIST_CONCAT", "xs ys", [([1, 2], [3]), ([], []), ([], [4, 5])])
    assert cat == [("OK", [1, 2, 3]), ("OK", []), ("OK", [4, 5])]
    reps = [([1, 2], 3), ([1, 2], 0), ([1, 2], -5), ([], 10**6), ([7], 1), ([1, 2], MAX), ([9], 5000)]
    got = result_lists("    LOAD_VAR2 xs, n\n    LIST_REPEAT", "xs n", reps)
    assert got[:5] == [("OK", xs * n) for xs, n in reps[:5]]
    assert got[5] == ("MEMORY_LIMIT", None) and got[6] == ("OK", [9] * 5000)


# -- append, the heap, list arguments


APPEND = """
.func grow n k
    .local xs i
    NEW_LIST 0
    STORE_VAR xs
    LOAD_INT 0
    STORE_VAR i
loop: LOAD_VAR2 i, n
    JUMP_IF_NOT_LT done
    LOAD_VAR2 xs, i
    LIST_APPEND
    INC_VAR i
    JUMP loop
done: LOAD_VAR2 xs, k
    LIST_GET
    RETURN
"""


def test_append_grows_past_the_initial_capacity():
    calls = [("grow", (20, k)) for k in (0, 3, 4, 5, 19, -1, 20)] + [("grow", (4, 0)), ("grow", (5, 0))]
    results, _ = run_asm(APPEND, calls, plain=True)
    assert values(results)[:7] == [("OK", 0), ("OK", 3), ("OK", 4), ("OK", 5), ("OK", 19), ("OK", 19),
                                   ("INDEX_ERROR", None)]  # fmt: skip
    # 20 appends grow the list 4 -> 8 -> 16 -> 32, copying 4 + 8 + 16 elements
    per_append = (results.cost[8] - results.cost[7]) - 4  # the fifth append copies 4
    assert results.cost[0] - results.cost[7] == 16 * per_append + 4 + 8 + 16


def test_append_costs_the_elements_it_copies():
    results, _ = run_asm(APPEND, [("grow", (4, 0)), ("grow", (5, 0)), ("grow", (6, 0))])
    one_more = results.cost[2] - results.cost[1]  # an append without growth: the loop body
    assert results.cost[1] - results.cost[0] == one_more + 4  # the fifth append copies 4


def test_memory_limit_with_a_tiny_heap():
    text = """
.func two
    NEW_LIST 0
    NEW_LIST 0
    LIST_CONCAT
    RETURN
.func take xs
    LOAD_VAR xs
    LIST_LEN
    RETURN
"""
    calls = [("two", ()), ("take", ([1, 2, 3],)), ("take", (list(range(12)),)), ("grow", (4, 0)), ("grow", (5, 0))]
    text += APPEND
    # NEW_LIST 0 takes a block of 1 + 3 + 4 words, a 12-element argument 1 + 3 + 12, the fifth
    # append 1 + 8 more; two's lists stay on the stack, so its collection frees nothing
    for heap_size, want in ((heap_for(15), ["MEMORY_LIMIT", "OK", "MEMORY_LIMIT", "OK", "MEMORY_LIMIT"]),
                            (heap_for(24), ["OK"] * 5), (0, ["MEMORY_LIMIT"] * 5)):
        results, _ = run_asm(text, calls, limits=LaunchLimits(heap_size=heap_size), plain=True)
        assert [S.NAMES[s] for s in results.status] == want, heap_size
    # a list argument that does not fit ends the job before its first instruction
    results, _ = run_asm(text, [("take", (list(range(20)),))], limits=LaunchLimits(heap_size=16))
    assert outcome(results, 0) == ("MEMORY_LIMIT", None) and results.fail_line[0] == -1 and results.steps[0] == 0


def test_list_arguments_come_from_the_pool():
    program, names = assemble_named(".func f xs y ys\n    LOAD_VAR ys\n    LIST_SUM 1\n    RETURN\n")
    jobs = make_jobs(names, [("f", ([1, 2], 5, [0.5, 0.25])), ("f", ([], True, [1.0]))])  # floats as floats: no types here
    assert jobs.arg_lists.tolist() == [0b101, 0b101]
    assert jobs.pool[jobs.args[0, 0] : jobs.args[0, 0] + 3].tolist() == [2, 1, 2] and jobs.args[0, 1] == 5
    results = launch_all(program, jobs)
    assert bits_to_float(int(results.value[0])) == 0.75 and bits_to_float(int(results.value[1])) == 1.0
    bad = make_jobs(names, [("f", ([1], 0, [2]))])
    bad.args[0, 2] = len(bad.pool) - 1  # its length word would be the last pool word, its element outside
    with pytest.raises(ValueError, match="outside jobs.pool"):
        job_arrays(bad)
    bad.arg_lists[0] = 1 << 30
    with pytest.raises(ValueError, match="arg_lists"):
        job_arrays(bad)
    with pytest.raises(ValueError, match="heap_size"):
        launch_all(program, jobs, LaunchLimits(heap_size=-1))


def test_str_and_list_of_str_arguments_become_heap_lists_of_code_points():
    # f(s, xs, i) = len(xs[i]) * 1000 + xs[i][0] + len(s): the strs of xs are lists of their own
    text = """
.func f s xs i
    LOAD_VAR xs
    LOAD_VAR i
    LIST_GET
    LIST_LEN
    LOAD_INT 1000
    BINARY_MUL
    LOAD_VAR xs
    LOAD_VAR i
    LIST_GET
    LOAD_INT 0
    LIST_GET
    BINARY_ADD
    LOAD_VAR s
    LIST_LEN
    BINARY_ADD
    RETURN
"""
    calls = [("f", ("hé", ["ab", "", "\U0001F600z"], 2)), ("f", ("", ["x"], 0)), ("f", ("s", ["", "q"], 0))]
    results, _ = run_asm(text, calls, plain=True)
    assert [outcome(results, j) for j in range(3)] == [("OK", 2000 + 0x1F600 + 2), ("OK", 1000 + ord("x")),
                                                       ("INDEX_ERROR", None)]  # fmt: skip
    # every str is its own heap list: 1 + 3 + 4 words each, the outer list first
    results, _ = run_asm(text, calls[:1], limits=LaunchLimits(heap_size=heap_for(4 * 8 - 1)))
    assert outcome(results, 0) == ("MEMORY_LIMIT", None)
    bad = make_jobs(assemble_named(text)[1], calls[:1])
    outer = bad.args[0, 1]
    bad.pool[outer + 1] = len(bad.pool)  # an inner str's offset outside the pool
    with pytest.raises(ValueError, match="outside jobs.pool"):
        job_arrays(bad)


# -- FOR_LIST


def test_for_list_sees_appends_made_inside_the_loop():
    text = """
.func walk xs limit
    .local it i s
    LOAD_VAR xs
    STORE_VAR it
loop: FOR_LIST it
    JUMP done
    DUP_TOP
    LOAD_VAR s
    BINARY_ADD
    STORE_VAR s
    LOAD_VAR xs
    LIST_LEN
    LOAD_VAR limit
    JUMP_IF_NOT_LT skip
    LOAD_VAR xs
    ROT_TWO
    BINARY_ADD_INT 1
    LIST_APPEND
    JUMP loop
skip: POP_TOP
    JUMP loop
done: LOAD_VAR s
    RETURN
"""

    def python(xs, limit):
        xs, s = list(xs), 0
        for x in xs:
            s += x
            if len(xs) < limit:
                xs.append(x + 1)
        return s

    cases = [([], 5), ([1], 5), ([3, 1], 9), ([5, 6, 7], 2), ([1, 2], 40)]
    results, _ = run_asm(text, [("walk", c) for c in cases], plain=True)
    assert values(results) == [("OK", python(*c)) for c in cases]


# -- list comparisons in ASSERT_CMP / COMPARE_NUM


def test_list_equality_in_compare_and_assert_records_lengths():
    text = """
.func cmp xs ys
    LOAD_VAR2 xs, ys
    COMPARE_NUM != list[int] list[float]
    RETURN
.func check xs ys
    LOAD_VAR2 xs, ys
    ASSERT_CMP == list[int] list[int]
    LOAD_INT 1
    RETURN
.func bad xs ys
    LOAD_VAR2 xs, ys
    COMPARE_NUM < list[int] list[int]
    RETURN
.func mixed xs y
    LOAD_VAR2 xs, y
    ASSERT_CMP == list[int] int
    LOAD_INT 1
    RETURN
"""
    calls = [("cmp", ([1, 2], [1.0, 2.0])), ("cmp", ([1], [1.5])), ("check", ([1, 2], [1, 2])),
             ("check", ([1, 2, 3], [1, 2])), ("bad", ([1], [1])), ("mixed", ([1], 1))]  # fmt: skip
    results, _ = run_asm(text, calls, plain=True)
    assert values(results) == [("OK", 0), ("OK", 1), ("OK", 1), ("ASSERT_FAILED", None), ("INVALID_BYTECODE", None),
                               ("INVALID_BYTECODE", None)]  # fmt: skip
    assert (results.fail_lhs[3], results.fail_rhs[3]) == (3, 2)
    assert results.fail_line[3] == line_of(text, "ASSERT_CMP == list[int] list[int]")
    assert render(3, T_LIST_INT) == "<list of 3>" and render(0, T_LIST_FLOAT) == "<list of 0>"


# -- the verifier and bad handles


@pytest.mark.parametrize("body, problem", [
    ("LOAD_INT 1\n    NEW_LIST 256\n    RETURN", "operand 256 is out of range"),
    ("NEW_LIST 0\n    LIST_SUM 2\n    RETURN", "operand 2 is out of range"),
    ("NEW_LIST 0\n    NEW_LIST 0\n    LOAD_INT 0\n    LOAD_INT 0\n    LIST_SLICE 8\n    RETURN", "out of range"),
    ("LOAD_INT 1\n    NEW_LIST 2\n    RETURN", "pops 2 of a stack of 1"),
    ("FOR_LIST 0\n    LOAD_INT 0\n    RETURN", "FOR_LIST must be followed by a JUMP"),
    ("l: FOR_LIST 1\n    JUMP l\n    RETURN", "operand 1 is out of range"),
])  # fmt: skip
def test_verifier_checks_list_operands(body, problem):
    program, _ = assemble_named(f".func f a b\n    .nlocals 2\n    .stack 4\n    {body}\n")
    assert any(problem in p for p in verify(program)), verify(program)


GARBAGE_OPS = ["LIST_GET", "LIST_SET", "LIST_LEN", "LIST_APPEND", "LIST_CONTAINS == int int", "LIST_SUM 1",
               "LIST_MIN 0", "LIST_MAX 1", "LIST_SORTED 1", "LIST_SORT 0", "LIST_SLICE 7", "LIST_CONCAT",
               "LIST_REPEAT", "LIST_EQ 1", "COMPARE_NUM == list[int] list[float]"]  # fmt: skip


@pytest.mark.parametrize("op", GARBAGE_OPS)
def test_random_handles_never_crash(op):
    """Slot values that are no list's handle (or point into a list's data) are INVALID_BYTECODE
    or behave the same on every backend: the kernel never reads or writes outside its heap."""
    name = op.split()[0]
    pops = TABLE[BY_NAME[name].number].pops
    loads = "\n".join(f"    LOAD_VAR {'abcd'[k]}" for k in range(pops))
    text = f"""
.func f a b c d
    LOAD_INT 5
    LOAD_INT -6
    NEW_LIST 2
    LOAD_INT 1
    NEW_LIST 1
    LIST_CONCAT
    POP_TOP
{loads}
    {op}
    LOAD_INT 1
    RETURN
"""
    rng = random.Random(name)
    near = [-1, 0, 1, 2, 3, 5, 7, 8, 10, 11, 12, 13, 14, 20, 21, 22, 30, MAX, MIN, 2**40]
    calls = [("f", tuple(rng.choice(near) for _ in range(4))) for _ in range(150)]
    results, _ = run_asm(text, calls, limits=LaunchLimits(heap_size=64), plain=True)
    statuses = set(results.status.tolist())
    assert S.INVALID_BYTECODE in statuses and statuses <= set(range(len(S.NAMES)))


def test_random_programs_with_lists_agree_on_every_backend():
    """Straight-line mixes of list instructions on argument lists: cpu == reference == plain."""
    rng = random.Random(11)
    ops = ["LIST_LEN", "LIST_SUM 0", "LIST_MIN 0", "LIST_MAX 0", "LIST_CONTAINS == int int"]
    for _ in range(6):
        lines = ["    LOAD_VAR xs"]
        for _ in range(6):
            kind = rng.randrange(5)
            if kind == 0:
                lines += ["    LOAD_VAR ys", "    LIST_CONCAT"]
            elif kind == 1:
                lines += ["    LIST_SORTED 0"]
            elif kind == 2:
                lines += ["    LOAD_VAR i", "    LOAD_VAR j", "    LOAD_VAR k", f"    LIST_SLICE {rng.randrange(8)}"]
            elif kind == 3:
                lines += ["    DUP_TOP", "    LOAD_VAR i", "    LIST_APPEND"]
            else:
                lines += ["    LOAD_INT 2", "    LIST_REPEAT"]
        lines += ["    LOAD_VAR i", "    ROT_TWO", rng.choice(ops[4:]), "    RETURN"] if rng.random() < 0.5 else [
            f"    {rng.choice(ops[:4])}", "    RETURN"]  # fmt: skip
        text = ".func f xs ys i j k\n" + "\n".join(lines) + "\n"
        calls = [("f", ([rng.randrange(-9, 9) for _ in range(rng.randrange(6))], [rng.randrange(-9, 9)],
                        rng.randrange(-8, 8), rng.randrange(-8, 8), rng.choice([-2, -1, 1, 3, 0])))
                 for _ in range(20)]  # fmt: skip
        results, _ = run_asm(text, calls, limits=LaunchLimits(heap_size=300), plain=True)
        assert not (results.status == S.INVALID_BYTECODE).any()
        assert np.isin(results.status, [S.OK, S.VALUE_ERROR, S.MEMORY_LIMIT, S.OVERFLOW]).all()
