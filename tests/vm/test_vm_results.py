"""What a result says: the failing instruction's opcode (fail_op) and cost attribution
(a linked job's cost is the candidate's work only; steps count everything)."""

from __future__ import annotations

from vmcheck import launch_all, line_of, outcome, run_asm

from gpucc.contract import isa as O
from gpucc.contract.image import LaunchLimits
from gpucc.vm.asm import assemble_named, make_jobs


def cost(*names: str) -> int:
    """Table cost of executing the named instructions once each."""
    return sum(O.BY_NAME[n].cost for n in names)


FAILS = """
.func cmp a b
    LOAD_VAR a
    LOAD_VAR b
    ASSERT_CMP <
    LOAD_INT 1
    RETURN
.func truth a
    LOAD_VAR a
    ASSERT_TRUE
    LOAD_INT 1
    RETURN
.func div a
    LOAD_VAR a
    BINARY_FLOORDIV_INT 0
    RETURN
.func spin
top: NOP
    JUMP top
"""


def test_fail_op_names_the_failing_instruction():
    calls = [("cmp", (1, 2)), ("cmp", (2, 1)), ("truth", (0,)), ("div", (5,)), ("spin", ()), (999, ())]
    results, _ = run_asm(FAILS, calls, limits=LaunchLimits(step_limit=101), plain=True)
    assert [outcome(results, j)[0] for j in range(6)] == [
        "OK", "ASSERT_FAILED", "ASSERT_FAILED", "ZERO_DIVISION", "STEP_LIMIT", "INVALID_BYTECODE"]
    names = [O.TABLE[op].name if op >= 0 else None for op in results.fail_op]
    # OK and a job that never ran an instruction: none; the step limit: the next one (not run)
    assert names == [None, "ASSERT_CMP", "ASSERT_TRUE", "BINARY_FLOORDIV_INT", "JUMP", None]
    assert results.fail_line[4] == line_of(FAILS, "JUMP top")


LINKED = """
.unit suite
.import solve x
.func test_once x
    LOAD_VAR x
    CALL solve
    LOAD_VAR x
    BINARY_MUL_INT 2
    ASSERT_CMP ==
    LOAD_INT 1
    RETURN
.func test_thrice x
    LOAD_VAR x
    CALL solve
    CALL solve
    CALL solve
    RETURN
.func test_spin x
    LOAD_VAR x
    CALL solve
top: JUMP top
.unit good
.func solve x
    LOAD_VAR x
    BINARY_MUL_INT 2
    RETURN
.unit helped
.func helper x
    LOAD_VAR x
    RETURN
.func solve x
    LOAD_VAR x
    CALL helper
    BINARY_ADD_INT 0
    BINARY_MUL_INT 2
    RETURN
.unit overflows
.func solve x
    LOAD_VAR x
    LOAD_CONST 2**62
    BINARY_MUL
    RETURN
"""
GOOD = cost("LOAD_VAR", "BINARY_MUL_INT", "RETURN")
HELPED = cost("LOAD_VAR", "CALL", "LOAD_VAR", "RETURN", "BINARY_ADD_INT", "BINARY_MUL_INT", "RETURN")


def test_a_linked_jobs_cost_is_the_candidates_work_only():
    links = [["good.solve"], ["helped.solve"], ["overflows.solve"]]
    calls = [("test_once", (3,), 0), ("test_once", (3,), 1), ("test_thrice", (1,), 0), ("test_thrice", (1,), 1),
             ("test_once", (3,), 2), ("test_spin", (1,), 0), ("suite.solve", (5,), 1)]  # fmt: skip
    results, _ = run_asm(LINKED, calls, links=links, limits=LaunchLimits(step_limit=200), plain=True)
    assert [outcome(results, j) for j in (0, 1, 2, 3, 6)] == [("OK", 1), ("OK", 1), ("OK", 8), ("OK", 8), ("OK", 10)]
    assert [outcome(results, j)[0] for j in (4, 5)] == ["OVERFLOW", "STEP_LIMIT"]
    # the suite's CALL counts to the suite, the candidate's RETURN to the candidate
    assert list(results.cost[:4]) == [GOOD, HELPED, 3 * GOOD, 3 * HELPED]
    assert results.steps[0] == 3 + 7  # steps count every instruction
    # a failure inside the candidate: what ran of it; suite work after it returned: nothing
    assert results.cost[4] == cost("LOAD_VAR", "LOAD_CONST", "BINARY_MUL")
    assert results.cost[5] == GOOD and results.steps[5] == 200
    # a job naming the stub itself runs the candidate from the suite's unit: all counted
    assert results.cost[6] == HELPED


def test_an_unlinked_job_counts_every_instruction():
    program, names = assemble_named(LINKED)
    jobs = make_jobs(names, [("good.solve", (4,)), ("test_once", (3,))], links=[["good.solve"]])
    jobs.link[:] = -1  # a direct call (benchmarks): test_once then cannot resolve its import
    results = launch_all(program, jobs)
    assert outcome(results, 0) == ("OK", 8) and results.cost[0] == GOOD
    assert outcome(results, 1)[0] == "INVALID_BYTECODE"
    assert results.cost[1] == cost("LOAD_VAR", "CALL") and results.fail_op[1] == O.CALL
    # with a link row only code outside the job's own unit counts: the suite's test pays
    # for the candidate, a candidate's function called directly is its own unit (nothing)
    jobs.link[:] = 0
    results = launch_all(program, jobs)
    assert outcome(results, 1) == ("OK", 1) and results.steps[1] == 3 + 7
    assert list(results.cost) == [0, GOOD]
