"""Jumps, loops, the step limit, asserts, calls, recursion, links and the launch limits."""

from __future__ import annotations

import time

import numba
import numpy as np
import pytest
from vmcheck import MAX, MIN, launch_all, line_of, outcome, run_asm

from gpucc import vm
from gpucc.contract import status as S
from gpucc.contract.image import JobTable, LaunchLimits
from gpucc.vm.asm import assemble_named, make_jobs

SUM_RANGE = """
.func sum_range start stop step
.local total i c e s
    LOAD_VAR start
    STORE_VAR c
    LOAD_VAR stop
    STORE_VAR e
    LOAD_VAR step
    STORE_VAR s
    RANGE_CHECK c
top: FOR_RANGE c
    JUMP done
    STORE_VAR i
    LOAD_VAR total
    LOAD_VAR i
    BINARY_ADD
    STORE_VAR total
    JUMP top
done:
    LOAD_VAR total
    RETURN
"""


@pytest.mark.parametrize(
    "start, stop, step",
    [(0, 10, 1), (0, 0, 1), (5, 0, 1), (10, 0, -1), (10, 0, -3), (-5, 5, 2), (0, 10, 100),
     (MAX - 5, MAX, 2), (MIN + 5, MIN, -2), (MAX - 2, MAX, MAX)],
)  # fmt: skip
def test_for_range_matches_python_range(start, stop, step):
    results, _ = run_asm(SUM_RANGE, [("sum_range", (start, stop, step))], plain=True)
    total = sum(range(start, stop, step))
    assert outcome(results, 0) == (("OK", total) if MIN <= total <= MAX else ("OVERFLOW", None))


def test_range_step_zero_is_value_error():
    results, _ = run_asm(SUM_RANGE, [("sum_range", (0, 10, 0))])
    assert outcome(results, 0) == ("VALUE_ERROR", None)
    assert results.fail_line[0] == line_of(SUM_RANGE, "RANGE_CHECK")


SHORT_CIRCUIT = """
.func and_ a b       # a and b (Python's value semantics)
    LOAD_VAR a
    JUMP_IF_FALSE_OR_POP end
    LOAD_VAR b
end: RETURN
.func or_ a b
    LOAD_VAR a
    JUMP_IF_TRUE_OR_POP end
    LOAD_VAR b
end: RETURN
.func pick a         # 10 if a else 20, via JUMP_IF_TRUE
    LOAD_VAR a
    JUMP_IF_TRUE yes
    LOAD_INT 20
    RETURN
yes: LOAD_INT 10
    RETURN
.func max_ a b
    LOAD_VAR a
    LOAD_VAR b
    JUMP_IF_NOT_GT other
    LOAD_VAR a
    RETURN
other: LOAD_VAR b
    RETURN
"""


def test_conditional_jumps_and_short_circuit_values():
    calls = [("and_", (0, 5)), ("and_", (3, 5)), ("or_", (0, 5)), ("or_", (3, 5)),
             ("pick", (0,)), ("pick", (-1,)), ("max_", (2, 9)), ("max_", (9, 2)), ("max_", (4, 4))]  # fmt: skip
    results, _ = run_asm(SHORT_CIRCUIT, calls, plain=True)
    assert [int(v) for v in results.value] == [0, 5, 5, 3, 20, 10, 9, 9, 4]


@pytest.mark.parametrize("cmp, py", [("LT", "<"), ("LE", "<="), ("EQ", "=="), ("NE", "!="), ("GT", ">"), ("GE", ">=")])
def test_compare_and_jump_superinstructions(cmp, py):
    text = f".func f a b\n LOAD_VAR a\n LOAD_VAR b\n JUMP_IF_NOT_{cmp} no\n LOAD_INT 1\n RETURN\nno: LOAD_INT 0\n RETURN\n"
    pairs = [(a, b) for a in (-1, 0, 1) for b in (-1, 0, 1)]
    results, _ = run_asm(text, [("f", p) for p in pairs])
    assert [int(v) for v in results.value] == [int(eval(f"{a} {py} {b}")) for a, b in pairs]


INFINITE = """
.func spin
top: NOP
    JUMP top
"""


@pytest.mark.parametrize("backend, limit", [("cpu", 10_000_001), ("all", 10_001)])
def test_step_limit_stops_an_infinite_loop_quickly_and_exactly(backend, limit):
    if numba.config.DISABLE_JIT:
        limit = min(limit, 10_001)  # plain Python is slow
    program, names = assemble_named(INFINITE)
    jobs, limits = make_jobs(names, [("spin", ())] * 4), LaunchLimits(step_limit=limit)
    t = time.perf_counter()
    results = vm.launch(program, jobs, "cpu", limits) if backend == "cpu" else launch_all(program, jobs, limits, True)
    assert time.perf_counter() - t < 10
    assert set(results.status) == {S.STEP_LIMIT}
    assert set(results.steps) == {limit}
    assert set(results.fail_line) == {line_of(INFINITE, "JUMP")}  # the next one, not run: a JUMP
    assert set(results.cost) == {limit}


def test_a_job_may_use_exactly_step_limit_instructions():
    text = ".func f\n LOAD_INT 1\n LOAD_INT 2\n BINARY_ADD\n RETURN\n"
    for limit, want in ((4, "OK"), (3, "STEP_LIMIT"), (0, "STEP_LIMIT")):
        results, _ = run_asm(text, [("f", ())], limits=LaunchLimits(step_limit=limit))
        assert outcome(results, 0)[0] == want
        assert results.steps[0] == min(limit, 4)


ASSERTS = """
.func check a b
    LOAD_VAR a
    LOAD_VAR b
    ASSERT_CMP <=
    LOAD_VAR a
    ASSERT_TRUE
    LOAD_VAR b
    RETURN
.func check_bool a b
    LOAD_VAR a
    LOAD_VAR b
    ASSERT_CMP == bool
    LOAD_INT 1
    RETURN
"""


def test_failed_asserts_record_line_and_operands():
    results, names = run_asm(ASSERTS, [("check", (1, 2)), ("check", (3, 2)), ("check", (0, 2)), ("check_bool", (1, 0))],
                             plain=True)  # fmt: skip
    assert outcome(results, 0) == ("OK", 2)
    assert outcome(results, 1) == ("ASSERT_FAILED", None)
    assert (results.fail_line[1], results.fail_lhs[1], results.fail_rhs[1], results.fail_arg[1]) == (
        line_of(ASSERTS, "ASSERT_CMP <="), 3, 2, 1 + 8 + 128)
    assert (results.fail_line[2], results.fail_lhs[2], results.fail_arg[2]) == (line_of(ASSERTS, "ASSERT_TRUE"), 0, 0)
    assert (results.fail_line[3], results.fail_lhs[3], results.fail_rhs[3], results.fail_arg[3]) == (
        line_of(ASSERTS, "ASSERT_CMP == bool"), 1, 0, 2 + 16 + 256)
    assert list(results.fail_unit) == [-1, 0, 0, 0]
    assert results.fail_line[0] == -1


RECURSION = """
.func fact n
    LOAD_VAR n
    LOAD_INT 2
    JUMP_IF_NOT_LT rec
    LOAD_INT 1
    RETURN
rec: LOAD_VAR n
    LOAD_VAR n
    BINARY_SUB_INT 1
    CALL fact
    BINARY_MUL
    RETURN
.func is_even n      # mutual recursion
    LOAD_VAR n
    JUMP_IF_TRUE go
    LOAD_INT 1
    RETURN
go: LOAD_VAR n
    BINARY_SUB_INT 1
    CALL is_odd
    RETURN
.func is_odd n
    LOAD_VAR n
    JUMP_IF_TRUE go
    LOAD_INT 0
    RETURN
go: LOAD_VAR n
    BINARY_SUB_INT 1
    CALL is_even
    RETURN
.func fat n          # a frame of 40 slots per call
.nlocals 40
    LOAD_VAR n
    JUMP_IF_FALSE base
    LOAD_VAR n
    BINARY_SUB_INT 1
    CALL fat
    RETURN
base: LOAD_INT 7
    RETURN
"""


def test_recursion_results_and_costs():
    results, _ = run_asm(RECURSION, [("fact", (n,)) for n in range(22)] + [("is_even", (n,)) for n in range(6)],
                         plain=True)  # fmt: skip
    for n in range(21):
        assert outcome(results, n) == ("OK", __import__("math").factorial(n))
    assert outcome(results, 21) == ("OVERFLOW", None)
    assert [int(v) for v in results.value[22:]] == [1, 0, 1, 0, 1, 0]
    assert results.cost[5] > results.cost[4] > results.cost[0]


def test_recursion_limit_counts_frames():
    limits = LaunchLimits(max_depth=10)
    results, _ = run_asm(RECURSION, [("is_even", (9,)), ("is_even", (10,))], limits=limits, plain=True)
    assert outcome(results, 0) == ("OK", 0)  # 10 frames: is_even(9) .. is_odd(0)
    assert outcome(results, 1) == ("RECURSION_LIMIT", None)
    assert results.fail_line[1] in (line_of(RECURSION, "CALL is_odd"), line_of(RECURSION, "CALL is_even"))


def test_stack_limit_is_reached_before_the_recursion_limit_with_big_frames():
    limits = LaunchLimits(stack_size=400, max_depth=1000)
    results, _ = run_asm(RECURSION, [("fat", (5,)), ("fat", (20,))], limits=limits)
    assert outcome(results, 0) == ("OK", 7)
    assert outcome(results, 1) == ("STACK_LIMIT", None)
    assert results.fail_line[1] == line_of(RECURSION, "CALL fat")


def test_entry_limits():
    results, _ = run_asm(RECURSION, [("fat", (0,))], limits=LaunchLimits(stack_size=40))
    assert outcome(results, 0) == ("STACK_LIMIT", None)
    assert (results.fail_line[0], results.fail_unit[0]) == (-1, -1)
    with pytest.raises(ValueError, match="max_depth"):
        run_asm(RECURSION, [("fat", (0,))], limits=LaunchLimits(max_depth=0))


LINKED = """
.unit suite
.import solve x
.func test_solve x want
    LOAD_VAR x
    CALL solve
    LOAD_VAR want
    ASSERT_CMP ==
    LOAD_INT 1
    RETURN
.unit good
.func solve x
    LOAD_VAR x
    BINARY_MUL_INT 2
    RETURN
.unit bad
.func helper
    LOAD_INT 0
    RETURN
.func solve x
    LOAD_VAR x
    CALL helper
    BINARY_ADD
    RETURN
.unit wrong_arity
.func solve x y
    LOAD_VAR x
    RETURN
"""


def test_imports_resolve_through_the_jobs_link_row():
    links = [["good.solve"], ["bad.solve"], ["wrong_arity.solve"], ["suite.solve"]]
    calls = [("test_solve", (4, 8), 0), ("test_solve", (4, 8), 1), ("test_solve", (4, 8), 2),
             ("test_solve", (4, 8), 3), ("test_solve", (4, 8), -1), ("test_solve", (4, 8), 9)]  # fmt: skip
    results, names = run_asm(LINKED, calls, links=links, plain=True)
    assert [outcome(results, j)[0] for j in range(6)] == [
        "OK", "ASSERT_FAILED", "INVALID_BYTECODE", "INVALID_BYTECODE", "INVALID_BYTECODE", "INVALID_BYTECODE"]
    assert (results.fail_lhs[1], results.fail_rhs[1], results.fail_unit[1]) == (4, 8, 0)  # the suite's assert
    assert set(results.fail_line[2:]) == {line_of(LINKED, "CALL solve")}
    # a job may name a stub itself: it runs what the link row resolves it to
    results, _ = run_asm(LINKED, [("suite.solve", (21,), 0)], links=links)
    assert outcome(results, 0) == ("OK", 42)


def test_a_failing_job_does_not_affect_the_others():
    program, names = assemble_named(RECURSION + INFINITE)
    calls = [("fact", (5,)), ("spin", ()), ("fact", (25,)), ("fact", (6,)), (999, ()), ("is_even", (4,))]
    results = vm.launch(program, make_jobs(names, calls), "cpu", LaunchLimits(step_limit=10_000))
    assert [outcome(results, j) for j in range(len(calls))] == [
        ("OK", 120), ("STEP_LIMIT", None), ("OVERFLOW", None), ("OK", 720), ("INVALID_BYTECODE", None), ("OK", 1)]
    assert results.steps[4] == 0 and results.fail_line[4] == -1


def test_launch_dispatch_and_empty_launches():
    program, names = assemble_named(RECURSION)
    for backend in vm.BACKENDS:
        r = vm.launch(program, JobTable.empty(), backend)
        assert len(r.status) == 0 and r.meta["backend"] == backend
    with pytest.raises(ValueError, match="valid backends: " + ", ".join(vm.BACKENDS)):
        vm.launch(program, JobTable.empty(), "cuda-but-not-yet")
    bad = make_jobs(names, [("fact", (3,))])
    bad.args = np.zeros((1, 3), np.int64)
    with pytest.raises(ValueError, match="args"):
        vm.launch(program, bad)
