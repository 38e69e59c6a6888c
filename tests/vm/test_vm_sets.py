"""The in-place set instructions (SET_IOR .. SET_POP, vm/reference_set.py): hand-assembled programs
leave a set in CPython's order after each (dummies and resizes included), and every backend agrees
with the reference interpreter on status, value, cost and steps (valuecheck.run)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from valuecheck import B, F, I, L, Tu, build, run

from gpucc.contract import typecodes as T

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
PAIR = Tu(I, I)
KEYS = {
    I: st.integers(-40, 40).map(lambda x: x * 8) | st.integers(-9, 9) | st.sampled_from([2**61 - 1, -(2**63), -1, -2]),
    F: st.sampled_from([0.0, -0.0, 1.0, 0.5, -1.5, 2.0**53, 1e300, float("inf"), 3.25, 16.0]),
    B: st.booleans(),
    PAIR: st.tuples(st.integers(-5, 5), st.integers(-5, 5)),
}
IN_PLACE = {"SET_IOR": "__ior__", "SET_IAND": "__iand__", "SET_ISUB": "__isub__", "SET_IXOR": "__ixor__"}
METHOD = {"SET_IOR": "update", "SET_IAND": "intersection_update", "SET_ISUB": "difference_update",
          "SET_IXOR": "symmetric_difference_update"}  # fmt: skip


def elements(kt, most=30):
    return st.lists(KEYS[kt], max_size=most)


def a_set(xs, gone, kt) -> tuple[list[str], set]:
    """Lines leaving set(xs) less the elements of `gone` (dummies) in local 0, and CPython's."""
    c = T.set_of(kt)
    lines = [".local s", *build(list(xs), L(kt)), f"SET_FROM {c}", "STORE_VAR 0"]
    s = set(xs)
    for x in gone:
        lines += ["LOAD_VAR 0", *build(x, kt), f"SET_DISCARD {c}"]
        s.discard(x)
    return lines, s


def listed(lines: list[str]) -> list[str]:
    return lines + ["LOAD_VAR 0", "DICT_LIST 3"]


cases_of = st.sampled_from(list(KEYS)).flatmap(
    lambda kt: st.tuples(st.just(kt), elements(kt), elements(kt, 12), elements(kt)))


@SETTINGS
@given(cases_of)
def test_in_place_operators_keep_cpythons_table(case):
    kt, xs, gone, ys = case
    c = T.set_of(kt)
    cases, want = [], []
    for op, dunder in IN_PLACE.items():
        lines, s = a_set(xs, gone, kt)
        lines += ["LOAD_VAR 0", *build(list(ys), L(kt)), f"SET_FROM {c}", f"{op} {c}"]
        getattr(s, dunder)(set(ys))
        cases.append(listed(lines))
        want.append(("OK", list(s)))
        lines, s = a_set(xs, gone, kt)  # s op= s
        cases.append(listed(lines + ["LOAD_VAR 0", "LOAD_VAR 0", f"{op} {c}"]))
        getattr(s, dunder)(s)
        want.append(("OK", list(s)))
    assert run(cases, [L(kt)] * len(cases)) == want


@SETTINGS
@given(cases_of)
def test_methods_of_lists_and_dicts_take_cpythons_paths(case):
    kt, xs, gone, ys = case
    cases, want = [], []
    keys = list(dict.fromkeys(ys))
    for op, method in METHOD.items():
        for const, operand, arg in ((T.list_of(kt), ys, ys), (T.dict_of(kt, I), keys, dict.fromkeys(ys))):
            lines, s = a_set(xs, gone, kt)
            cases.append(listed(lines + ["LOAD_VAR 0", *build(list(operand), L(kt)), f"{op} {const}"]))
            getattr(s, method)(arg)
            want.append(("OK", list(s)))
    lines, s = a_set(xs, gone, kt)
    cases.append(lines + ["LOAD_VAR 0", *build(list(ys), L(kt)), f"SET_INTERSECT {T.list_of(kt)}", "DICT_LIST 3"])
    want.append(("OK", list(s.intersection(ys))))
    assert run(cases, [L(kt)] * len(cases)) == want


@SETTINGS
@given(cases_of, st.integers(1, 12))
def test_pop_follows_cpythons_finger(case, pops):
    kt, xs, gone, ys = case
    c = T.set_of(kt)
    lines, s = a_set(xs, gone, kt)
    popped = []
    for k in range(pops):
        if k == pops // 2:  # a change in between: the finger stays
            lines += ["LOAD_VAR 0", *build(list(ys), L(kt)), f"SET_FROM {c}", f"SET_IOR {c}"]
            s |= set(ys)
        lines += ["LOAD_VAR 0", f"SET_POP {c}"]
        popped.append(s.pop() if s else None)
    lines += [f"NEW_LIST {pops}"]  # the popped elements
    if None in popped:
        assert run([lines], [L(kt)]) == [("KEY_ERROR", None)]
        return
    assert run([lines, listed(lines + ["POP_TOP"])], [L(kt)] * 2) == [("OK", popped), ("OK", list(s))]


@SETTINGS
@given(cases_of)
def test_proper_subset(case):
    kt, xs, _, ys = case
    c = T.set_of(kt)
    a = [*build(list(xs), L(kt)), f"SET_FROM {c}"]
    b = [*build(list(ys), L(kt)), f"SET_FROM {c}"]
    both = [*build(list(xs + ys), L(kt)), f"SET_FROM {c}"]
    cases = [a + b + [f"SET_LT {c}"], a + both + [f"SET_LT {c}"], a + a + [f"SET_LT {c}"]]
    sa, sb = set(xs), set(ys)
    assert run(cases, [B] * 3) == [("OK", sa < sb), ("OK", sa < sa | sb), ("OK", False)]


def test_pop_of_an_empty_set_and_a_bad_constant():
    c = T.set_of(I)
    cases = [["NEW_SET", f"SET_POP {c}"], ["NEW_SET", "NEW_SET", f"SET_IOR {T.INT}", "LOAD_INT 0"]]
    assert run(cases, [I, I]) == [("KEY_ERROR", None), ("INVALID_BYTECODE", None)]


def test_a_bad_operand_fails_before_the_in_place_copy_is_made():
    # benchmarks/fuzz_bytecode.py --seed 14, program 53550: SET_IXOR copied its set's table, then
    # found the operand no set (INVALID_BYTECODE with the copy's heap peak), where the reference
    # read the operand first: every backend now copies first (valuecheck.run compares the peaks)
    for form in (T.set_of(I), T.list_of(I)):
        cases = [[*build([1, 2, 3], L(I)), f"SET_FROM {T.set_of(I)}", "LOAD_INT 100000", f"{op} {form}",
                  "LOAD_INT 0"] for op in IN_PLACE]  # fmt: skip
        assert run(cases, [I] * len(cases)) == [("INVALID_BYTECODE", None)] * len(cases)
