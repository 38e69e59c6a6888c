"""The dict and set instructions (NEW_DICT .. SET_EQ): hand-assembled programs give what CPython
gives on the same keys, sets iterate in CPython's order, and every backend agrees with the
reference interpreter on status, value, cost and steps (valuecheck.run: cpu kernel, plain
kernel, reference)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from valuecheck import S_, B, F, I, L, Tu, build, reference_results, run
from vmcheck import launch_all, outcome

from gpucc.contract import isa as O
from gpucc.contract import typecodes as T
from gpucc.contract.image import LaunchLimits
from gpucc.vm.asm import assemble_named, make_jobs
from gpucc.vm.verify import verify

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
KEYS = {
    I: st.integers(-40, 40) | st.sampled_from([2**61 - 1, 2**61, -(2**63), 2**63 - 1, -1, -2]),
    F: st.sampled_from([0.0, -0.0, 1.0, 0.5, -1.5, 2.0**53, 1e300, float("inf"), float("-inf"), 3.25]),
    B: st.booleans(),
    S_: st.sampled_from(["", "a", "b", "ab", "é", "😀"]),
}
PAIR = Tu(I, I)
KEYS[PAIR] = st.tuples(st.integers(-5, 5), st.integers(-5, 5))
ORDERED = (I, F, B, PAIR)  # CPython's set order is deterministic for these


def elements(kt):
    return st.lists(KEYS[kt], max_size=30)


def set_of(xs, kt) -> list[str]:
    """Lines pushing set(xs) (SET_FROM of a list)."""
    return build(list(xs), L(kt)) + [f"SET_FROM {T.set_of(kt)}"]


def as_list(lines: list[str], mode: int = 3) -> list[str]:
    return lines + [f"DICT_LIST {mode}"]


@SETTINGS
@given(st.sampled_from(ORDERED).flatmap(lambda kt: st.tuples(st.just(kt), elements(kt), elements(kt))))
def test_sets_iterate_and_combine_in_cpythons_order(case):
    kt, xs, ys = case
    a, b = set_of(xs, kt), set_of(ys, kt)
    c = f"{T.set_of(kt)}"
    ops = ["SET_OR", "SET_AND", "SET_SUB", "SET_XOR"]
    cases = [as_list(a)] + [as_list(a + b + [f"{op} {c}"]) for op in ops]
    cases += [as_list(b + a + [f"{op} {c}"]) for op in ops]
    sa, sb = set(xs), set(ys)
    want = [list(sa), list(sa | sb), list(sa & sb), list(sa - sb), list(sa ^ sb)]
    want += [list(sb | sa), list(sb & sa), list(sb - sa), list(sb ^ sa)]
    got = run(cases, [L(kt)] * len(cases))
    assert got == [("OK", w) for w in want]


@SETTINGS
@given(elements(I), st.lists(st.tuples(st.booleans(), st.integers(-30, 30)), max_size=40))
def test_adds_and_discards_keep_cpythons_table(xs, edits):
    c = T.set_of(I)
    lines = set_of(xs, I)
    s = set(xs)
    for add, x in edits:
        lines += ["DUP_TOP", f"LOAD_CONST {x}", f"{'SET_ADD' if add else 'SET_DISCARD'} {c}"]
        s.add(x) if add else s.discard(x)
    assert run([as_list(lines)], [L(I)]) == [("OK", list(s))]


@SETTINGS
@given(st.sampled_from(list(KEYS)).flatmap(lambda kt: st.tuples(st.just(kt), elements(kt), elements(kt))))
def test_membership_subset_equality_and_remove(case):
    kt, xs, ys = case
    c = T.set_of(kt)
    a, b = set_of(xs, kt), set_of(ys, kt)
    probe = ys[0] if ys else KEYS_DEFAULT[kt]
    cases = [build(probe, kt) + a + [f"SET_CONTAINS {c}"], a + b + [f"SET_LE {c}"], a + b + [f"SET_EQ {c}"],
             a + ["DUP_TOP"] + build(probe, kt) + [f"SET_REMOVE {c}", "COLL_LEN"], a + a[:0] + ["COLL_LEN"]]
    sa, sb = set(xs), set(ys)
    want = [("OK", probe in sa), ("OK", sa <= sb), ("OK", sa == sb),
            ("OK", len(sa) - 1) if probe in sa else ("KEY_ERROR", None), ("OK", len(sa))]
    assert run(cases, [B, B, B, I, I]) == want


KEYS_DEFAULT = {I: 0, F: 0.0, B: False, S_: "", PAIR: (0, 0)}


def dict_program(ops: list[tuple], kt: int, vt: int) -> tuple[list[str], dict, tuple[str, object] | None]:
    """Lines running `ops` on a new dict of type dict[kt, vt] (kept in local 0), and CPython's
    dict after them (or the error they end with)."""
    c = T.dict_of(kt, vt)
    lines, d = ["NEW_DICT", "STORE_VAR 0"], {}
    for op, *args in ops:
        if op == "set":
            k, v = args
            lines += build(v, vt) + ["LOAD_VAR 0"] + build(k, kt) + [f"DICT_SET {c}"]
            d[k] = v
        elif op in ("del", "pop"):
            lines += ["LOAD_VAR 0"] + build(args[0], kt) + [f"DICT_{op.upper()} {c}"] + (["POP_TOP"] if op == "pop" else [])
            if args[0] not in d:
                return lines, d, ("KEY_ERROR", None)
            del d[args[0]]
        else:  # setdefault
            k, v = args
            lines += ["LOAD_VAR 0"] + build(k, kt) + build(v, vt) + [f"DICT_SETDEFAULT {c}", "POP_TOP"]
            d.setdefault(k, v)
    return lines, d, None


@SETTINGS
@given(st.sampled_from([I, F, B, S_]).flatmap(lambda kt: st.lists(st.one_of(
    st.tuples(st.just("set"), KEYS[kt], st.integers(-9, 9)), st.tuples(st.just("del"), KEYS[kt]),
    st.tuples(st.just("pop"), KEYS[kt]), st.tuples(st.just("setdefault"), KEYS[kt], st.integers(-9, 9))),
    max_size=40).map(lambda ops: (kt, ops))))  # fmt: skip
def test_dicts_keep_insertion_order_through_sets_and_deletes(case):
    kt, ops = case
    lines, d, error = dict_program(ops, kt, I)
    c = T.dict_of(kt, I)
    probe = next(iter(d), KEYS_DEFAULT[kt])
    cases = [["LOAD_VAR 0", f"DICT_LIST {m}"] for m in range(3)] + [
        ["LOAD_VAR 0"] + build(probe, kt) + [f"DICT_GET {c}"],
        ["LOAD_VAR 0"] + build(probe, kt) + ["LOAD_INT -99", f"DICT_GET_DEFAULT {c}"],
        build(probe, kt) + ["LOAD_VAR 0", f"DICT_CONTAINS {c}"],
        ["LOAD_VAR 0", "COLL_LEN"],
    ]
    got = run([[".local x", *lines, *body] for body in cases], [L(kt), L(I), L(Tu(kt, I)), I, I, B, I])
    if error:
        assert all(g == error for g in got)
        return
    want = [("OK", list(d)), ("OK", list(d.values())), ("OK", list(d.items())),
            ("OK", d[probe]) if probe in d else ("KEY_ERROR", None), ("OK", d.get(probe, -99)), ("OK", probe in d),
            ("OK", len(d))]
    assert got == want


def test_tuple_keys():
    c = T.dict_of(PAIR, S_)
    lines = ["NEW_DICT", "STORE_VAR 0"]
    for k, v in (((1, 2), "a"), ((2, 1), "b"), ((1, 2), "c")):
        lines += build(v, S_) + ["LOAD_VAR 0"] + build(k, PAIR) + [f"DICT_SET {c}"]
    cases = [[".local d", *lines, "LOAD_VAR 0"] + build(k, PAIR) + [f"DICT_GET {c}"] for k in ((1, 2), (2, 1), (2, 2))]
    assert run(cases, [S_] * 3) == [("OK", "c"), ("OK", "b"), ("KEY_ERROR", None)]


def loop(op: str, body: str, setup: str) -> str:
    """A function summing what FOR op yields from the object `setup` leaves in local o."""
    return f"""
.func f
    .local o it state total
    {setup}
    STORE_VAR o
    LOAD_VAR o
    STORE_VAR it
top: {op} it
    JUMP done
    {body}
    JUMP top
done: LOAD_VAR total
    RETURN
"""


def ints_dict(pairs) -> str:
    c = T.dict_of(I, I)
    lines = ["NEW_DICT", "STORE_VAR o"]
    for k, v in pairs:
        lines += [f"LOAD_INT {v}", "LOAD_VAR o", f"LOAD_INT {k}", f"DICT_SET {c}"]
    return "\n    ".join(lines + ["LOAD_VAR o"])


ADD = "LOAD_VAR total\n    BINARY_ADD\n    STORE_VAR total"


@pytest.mark.parametrize("op, body, want", [
    ("FOR_DICT_KEYS", ADD, ("OK", 1 + 2 + 30)),
    ("FOR_DICT_VALUES", ADD, ("OK", 10 + 20 + 7)),
    ("FOR_DICT_ITEMS", "LOAD_INT 1\n    LIST_GET\n    " + ADD, ("OK", 37)),
    # deleting or adding while iterating: CPython's RuntimeError; assigning an existing key is fine
    ("FOR_DICT_KEYS", f"LOAD_VAR o\n    ROT_TWO\n    DICT_DEL {T.dict_of(I, I)}", ("RUNTIME_ERROR", None)),
    ("FOR_DICT_KEYS", f"POP_TOP\n    LOAD_INT 5\n    LOAD_VAR o\n    LOAD_INT 99\n    DICT_SET {T.dict_of(I, I)}",
     ("RUNTIME_ERROR", None)),
    ("FOR_DICT_KEYS", f"LOAD_INT 5\n    ROT_TWO\n    LOAD_VAR o\n    ROT_TWO\n    DICT_SET {T.dict_of(I, I)}",
     ("OK", 0)),
])  # fmt: skip
def test_for_dict_loops(op, body, want):
    text = loop(op, body, ints_dict([(1, 10), (2, 20), (30, 7)]))
    results = reference_results_text(text)
    assert results == want


def reference_results_text(text: str):
    """(status name, value) of f() in `text`, every backend agreeing."""
    program, names = assemble_named(text)
    r = launch_all(program, make_jobs(names, [("f", ())]), LaunchLimits(), plain=True)
    return outcome(r, 0)


def test_for_set_loops_in_table_order_and_sees_size_changes():
    setup = "\n    ".join(set_of([33, 1, 17], I))
    order = "LOAD_VAR total\n    LOAD_INT 100\n    BINARY_MUL\n    BINARY_ADD\n    STORE_VAR total"
    total = 0
    for x in set([33, 1, 17]):  # CPython's order: 33, then 1 and 17 probing past it
        total = x + 100 * total
    assert reference_results_text(loop("FOR_SET", order, setup)) == ("OK", total) == ("OK", 330117)
    grow = f"LOAD_VAR o\n    ROT_TWO\n    LOAD_INT 1000\n    BINARY_ADD\n    SET_ADD {T.set_of(I)}"
    assert reference_results_text(loop("FOR_SET", grow, setup)) == ("RUNTIME_ERROR", None)


def test_update_and_dict_equality():
    c = T.dict_of(S_, L(I))
    a = ["NEW_DICT", "DUP_TOP", "STORE_VAR 0"]
    for k, v in (("x", [1]), ("y", [2, 3])):
        a += build(v, L(I)) + ["LOAD_VAR 0"] + build(k, S_) + [f"DICT_SET {c}"]
    b = ["NEW_DICT", "DUP_TOP", "STORE_VAR 1"]
    for k, v in (("y", [2, 3]), ("x", [1])):
        b += build(v, L(I)) + ["LOAD_VAR 1"] + build(k, S_) + [f"DICT_SET {c}"]
    cases = [[".local p q", *a, *b, f"DICT_EQ {c}"],
             [".local p q", *a, "POP_TOP", *b, "POP_TOP", "LOAD_VAR 1", "LOAD_VAR 0", f"DICT_UPDATE {c}", "LOAD_VAR 1"],
             [".local p q", *a, *b, "POP_TOP", "LOAD_VAR 0"] + build([4], L(I)) + ["ROT_TWO"] + build("x", S_)
             + [f"DICT_SET {c}", "LOAD_VAR 1", f"DICT_EQ {c}"]]  # fmt: skip
    got = run(cases, [B, T.dict_of(S_, L(I)), B])
    assert got == [("OK", True), ("OK", {"y": [2, 3], "x": [1]}), ("OK", False)]


def test_costs_count_probes_hashes_and_resizes():
    c = T.set_of(I)
    small = reference_results([set_of([1], I)])
    big = reference_results([set_of(list(range(40)), I)])
    strs = reference_results([set_of(["abcdefgh"], S_)])
    assert int(big.cost[0]) > int(small.cost[0]) + 40  # the adds, and the resizes moving elements
    assert int(strs.cost[0]) >= int(reference_results([set_of(["a"], S_)]).cost[0]) + 7  # code points hashed
    assert c


@pytest.mark.parametrize("body", [
    "LOAD_INT 0\n    LOAD_INT 1\n    DICT_GET 7",  # a constant that is no dict type
    f"NEW_LIST 0\n    LOAD_INT 1\n    DICT_GET {T.dict_of(I, I)}",  # a list where a dict should be
    f"NEW_DICT\n    LOAD_INT 1\n    SET_ADD {T.set_of(I)}",  # a dict where a set should be
    f"NEW_SET\n    LOAD_INT 1\n    SET_ADD {T.set_of(L(I))}",  # an unhashable element type
    "LOAD_INT 5\n    COLL_LEN",
])  # fmt: skip
def test_malformed_operands_are_invalid_bytecode(body):
    assert run([[line.strip() for line in body.split("\n")]], [I]) == [("INVALID_BYTECODE", None)]


def test_memory_limit_while_growing():
    got = run([set_of(list(range(200)), I)], [T.set_of(I)], limits=LaunchLimits(heap_size=600))
    assert got == [("MEMORY_LIMIT", None)]


def test_verifier_wants_a_jump_after_a_for_test():
    program, _ = assemble_named(".func f a b\n    .nlocals 2\n    .stack 4\n    FOR_SET 0\n    LOAD_INT 0\n    RETURN\n")
    assert any("FOR_SET must be followed by a JUMP" in p for p in verify(program)), verify(program)
    program, _ = assemble_named(".func f a b\n    .nlocals 2\n    .stack 4\nl: FOR_DICT_KEYS 1\n    JUMP l\n    RETURN\n")
    assert any("operand 1 is out of range" in p for p in verify(program))
    assert O.IS_FOR_TEST[O.FOR_DICT_ITEMS]


def test_assert_keyed_fails_keeping_its_operands():
    c = T.set_of(I)
    same = set_of([1, 2], I) + set_of([2, 1], I) + [f"ASSERT_KEYED {c}", "LOAD_INT 7"]
    differ = set_of([1, 2], I) + set_of([3], I) + [f"ASSERT_KEYED {c}", "LOAD_INT 7"]
    d = T.dict_of(I, S_)
    dicts = ["NEW_DICT", "DUP_TOP"] + build("a", S_) + ["ROT_TWO", "LOAD_INT 1", f"DICT_SET {d}", "NEW_DICT",
                                                       f"ASSERT_KEYED {d}", "LOAD_INT 7"]  # fmt: skip
    assert run([same, differ, dicts], [I, I, I]) == [("OK", 7), ("ASSERT_FAILED", None), ("ASSERT_FAILED", None)]
    r = reference_results([differ])
    assert (int(r.fail_op[0]), int(r.fail_lhs[0]) >= 0, int(r.fail_rhs[0]) > int(r.fail_lhs[0])) == (O.ASSERT_KEYED,
                                                                                                    True, True)


def _counts(slot: int, pairs, c: int) -> list[str]:
    """Lines pushing a new dict of type c holding pairs (also in local slot)."""
    lines = ["NEW_DICT", "DUP_TOP", f"STORE_VAR {slot}"]
    for k, v in pairs:
        lines += [f"LOAD_INT {v}", f"LOAD_VAR {slot}"] + build(k, S_) + [f"DICT_SET {c}"]
    return lines


@pytest.mark.parametrize("a, b, equal", [
    ({"x": 1, "y": 0}, {"x": 1}, True), ({"x": 1}, {"x": 2}, False), ({}, {"z": 0}, True),
    ({"x": 1, "z": 0}, {"w": 0, "x": 1}, True), ({"x": 1}, {}, False), ({"é": -1}, {"é": -1, "😀": 0}, True),
])  # fmt: skip
def test_counter_equality_counts_a_missing_key_as_zero(a, b, equal):
    """DICT_EQ and ASSERT_KEYED of a Counter's type (the COUNTER head): CPython 3.10's ==; of a
    dict's, dict ==; a returned Counter reads back as one (its repr: most common first)."""
    from collections import Counter

    assert (Counter(a) == Counter(b)) == equal
    c, d = T.counter_of(S_), T.dict_of(S_, I)
    pushed = [".local p q", *_counts(0, a.items(), c), *_counts(1, b.items(), c)]
    cases = [pushed + [f"DICT_EQ {c}"], pushed + [f"DICT_EQ {d}"], pushed + [f"ASSERT_KEYED {c}", "LOAD_INT 7"],
             pushed + ["POP_TOP"]]  # fmt: skip
    got = run(cases, [B, B, I, c])
    assert got[:3] == [("OK", equal), ("OK", a == b), ("OK", 7) if equal else ("ASSERT_FAILED", None)]
    assert got[3] == ("OK", Counter(a)) and repr(got[3][1]) == repr(Counter(a))
