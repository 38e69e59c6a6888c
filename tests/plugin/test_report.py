"""Outcomes, ranking and summaries from fabricated job records (no compiler, no VM)."""

from gpucc.contract import status as st
from gpucc.contract.isa import ASSERT_CMP, ASSERT_TRUE, CMP_EQ, CMP_LT, typed_cmp
from gpucc.contract.valuetypes import T_BOOL, T_INT
from pytest_gpucc import report as r


def job(status=st.OK, cost=10, **kw):
    return r.JobRecord("test_t", 0, "test_t(a=1)", [1], status, cost=cost, steps=cost, **kw)


def passing(name, cost):
    return r.from_jobs("suite_x.py", name, name, [job(cost=cost), job(cost=cost)], 1000)


def test_assert_failure_shows_line_and_values():
    bad = job(st.ASSERT_FAILED, location="suite_x.py:7", source_line="assert f(a) == 6", lhs=3, rhs=6,
              arg=typed_cmp(CMP_EQ, T_INT, T_INT), op=ASSERT_CMP)
    o = r.from_jobs("suite_x.py", "c.py", "c.py", [job(), bad], 1000)
    assert o.status == r.FAILED and o.cost == 20
    assert o.reason == "test_t(a=1): assert f(a) == 6, where 3 == 6"
    assert "suite_x.py:7: in test_t(a=1)\n>   assert f(a) == 6\nE   AssertionError: where 3 == 6" in o.detail
    assert "(1 of 2 test cases failed)" in o.detail
    flag = job(st.ASSERT_FAILED, lhs=1, rhs=0, arg=typed_cmp(CMP_LT, T_BOOL, T_BOOL), op=ASSERT_CMP)
    assert r.assert_where(flag) == "where True < False"
    # ASSERT_TRUE's operand is 0: only the failing opcode tells it from a comparison
    assert r.assert_where(job(st.ASSERT_FAILED, arg=0, op=ASSERT_TRUE)) == "assertion is false"


def test_timeout_and_runtime_error_reasons():
    o = r.from_jobs("s", "c", "c", [job(st.STEP_LIMIT, location="c.py:3")], 500)
    assert o.status == r.TIMEOUT and "did not finish within 500 steps (the deterministic timeout)" in o.reason
    o = r.from_jobs("s", "c", "c", [job(st.ZERO_DIVISION, location="c.py:4", source_line="return a % b")], 500)
    assert o.status == r.ERROR and o.reason == "test_t(a=1): ZeroDivisionError at c.py:4"
    assert ">   return a % b" in o.detail


def test_a_function_falling_off_its_end_is_named_with_its_def_line():
    fell = job(st.NONE_RETURNED, location="c.py:2", source_line="def gcd(a: int, b: int) -> int:")
    o = r.from_jobs("s", "c", "c", [fell], 500)
    what = "gcd returned None (reached the end of its body without return)"
    assert o.status == r.ERROR and o.reason == f"test_t(a=1): {what} at c.py:2"
    assert f"c.py:2: in test_t(a=1)\n>   def gcd(a: int, b: int) -> int:\nE   {what}" in o.detail


def test_ranking_speedup_and_rejection():
    outs = [passing("slow", 300), r.from_error("s", "bad", "bad", r.COMPILE_ERROR, "bad:1:1: error: x\n  y"),
            passing("fast", 100), passing("mid", 150)]
    s = r.summarize("suite_x.py", outs, task="x")
    assert [o.name for o in s.ranked] == ["fast", "mid", "slow"]
    assert [o.rank for o in outs] == [3, None, 1, 2]
    assert s.speedup == 3.0 and outs[1].rejected and not outs[0].rejected
    lines = r.summary_lines([s], "HEADER")
    assert lines[0] == "HEADER" and lines[1] == "suite_x.py (task x): 3/4 candidates passed"
    assert any("fastest: fast cost 200 \u2014 3.00x faster than the slowest passing (slow)" in x for x in lines)
    assert "  rejected:" in lines and "    bad: compile error: bad:1:1: error: x" in lines
    strict = r.summarize("suite_x.py", outs, strict=True)
    assert not any(o.rejected for o in strict.outcomes)
    doc = r.to_json([s], {"launches": 1})
    assert doc["launches"] == 1 and doc["suites"][0]["fastest"] == "fast"
    cand = doc["suites"][0]["candidates"][0]
    assert cand["rank"] == 3 and cand["tests"][0]["cases"][0]["status"] == "OK"


def test_no_passing_candidate_nothing_rejected():
    outs = [r.from_error("s", "a", "a", r.LINK_ERROR, "a: does not define 'f'")]
    s = r.summarize("s", outs)
    assert s.fastest is None and s.speedup is None and not outs[0].rejected
    lines = r.summary_lines([s], "H")
    assert "  no candidate passed" in lines and "  failed:" in lines


def test_heap_values_are_cut_in_the_middle_as_pytest_cuts_reprs():
    from pytest_gpucc.heap_values import REPR_MAX, shown

    assert shown("ab") == "'ab'" and shown([1, 2]) == "[1, 2]"
    long = shown(list(range(1000)))
    assert len(long) == REPR_MAX and long.startswith("[0, 1, 2") and long.endswith("998, 999]") and "..." in long
