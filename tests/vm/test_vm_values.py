"""The value instructions (VALUE_CMP, ASSERT_VALUE, VALUE_CONTAINS, VALUE_MIN / MAX / SORTED /
SORT, UNPACK_CHECK, BOX, UNBOX): hand-assembled programs over values of every structured type
give what CPython gives on the same values, with the costs and the malformed-operand endings
vm/reference_value.py documents; every backend agreeing (valuecheck.run)."""

from __future__ import annotations

import operator

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from valuecheck import S_, B, F, I, L, N, Opt, Tu, build, cpython, fresh, reference_results, run
from vmcheck import heap_for, launch_all

from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract import typecodes as T
from gpucc.contract.image import JobTable, LaunchLimits, job_arrays
from gpucc.contract.isa import typed_values
from gpucc.contract.limits import MAX_IMPORTS, MAX_PARAMS
from gpucc.contract.pool import argument_slots, value_type
from gpucc.vm.asm import assemble_named
from gpucc.vm.prepare import prepare_launch
from gpucc.vm.reference import Job
from gpucc.vm.reference_value import python_value

OPS = (operator.lt, operator.le, operator.eq, operator.ne, operator.gt, operator.ge)
LEAVES = {
    I: st.sampled_from([-1, 0, 1, 2, 2**53 + 1, 2**63 - 1, -(2**63)]),
    B: st.booleans(),
    F: st.sampled_from([0.0, -0.0, 1.0, 2.0, -1.5, 2.0**53, float("inf"), float("-inf"), float("nan")]),
    S_: st.sampled_from(["", "a", "ab", "b", "é", "😀", "a😀"]),
    N: st.none(),
}
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))


@st.composite
def types(draw, depth: int = 3) -> int:
    """A packed type of at most 7 nibbles: leaves, lists, tuples, Optionals."""
    kind = draw(st.integers(0, 3 if depth > 0 else 0))
    if kind == 0:
        return draw(st.sampled_from(list(LEAVES)))
    if kind == 1:
        t = L(draw(types(depth - 1)))
    elif kind == 2:
        t = T.tuple_of(draw(st.lists(types(depth - 1), max_size=3)))
    else:
        t = Opt(draw(types(depth - 1)))
    return t if t != T.TOO_DEEP else draw(st.sampled_from(list(LEAVES)))


@st.composite
def relative(draw, t: int) -> int:
    """A type compared with t in real code: t itself, or other number types at its leaves,
    an Optional around it or a part of it."""
    h = T.head(t)
    if draw(st.integers(0, 2)) == 0:
        r = t
    elif h in (I, B, F):
        r = draw(st.sampled_from([I, B, F]))
    elif h == T.LIST:
        r = L(draw(relative(T.element(t))))
    elif h == T.TUPLE:
        r = T.tuple_of([draw(relative(T.field(t, k))) for k in range(T.arity(t))])
    elif h == T.OPTIONAL:
        r = draw(st.sampled_from([t, T.element(t)]))
    else:
        r = t
    if draw(st.integers(0, 5)) == 0:
        r = Opt(r)
    return r if T.width(r) and r != T.TOO_DEEP else t


def values(t: int):
    """Values of packed type t (small domains, so that values often share prefixes)."""
    h = T.head(t)
    if h in LEAVES:
        return LEAVES[h]
    if h == T.LIST:
        return st.lists(values(T.element(t)), max_size=3)
    if h == T.TUPLE:
        return st.tuples(*[values(T.field(t, k)) for k in range(T.arity(t))])
    return st.none() | values(T.element(t))


@st.composite
def pairs(draw) -> tuple[int, object, int, object]:
    ta = draw(types())
    tb = draw(relative(ta))
    a = draw(values(ta))
    b = a if ta == tb and draw(st.booleans()) else draw(values(tb))
    return ta, a, tb, b


def compare_case(cmp: int, ta: int, a, tb: int, b) -> list[str]:
    return build(a, ta) + build(b, tb) + [f"VALUE_CMP {typed_values(cmp, ta, tb)}"]


@SETTINGS
@given(st.lists(pairs(), min_size=1, max_size=8))
def test_value_cmp_is_cpythons_comparison(cases):
    calls = [(cmp, *case) for case in cases for cmp in range(6)]
    got = run([compare_case(cmp, ta, a, tb, b) for cmp, ta, a, tb, b in calls], [B] * len(calls))
    for (cmp, ta, a, tb, b), result in zip(calls, got):
        want = cpython(OPS[cmp], fresh(a), fresh(b))
        assert result == want, (T.name(ta), a, O.CMP_NAMES[cmp], T.name(tb), b)


@SETTINGS
@given(pairs())
def test_assert_value_fails_as_the_comparison_is_false(case):
    ta, a, tb, b = case
    calls = [build(a, ta) + build(b, tb) + [f"ASSERT_VALUE {typed_values(cmp, ta, tb)}", "LOAD_INT 7"]
             for cmp in range(6)]  # fmt: skip
    for cmp, (status, value) in enumerate(run(calls, [I] * 6)):
        want = cpython(OPS[cmp], fresh(a), fresh(b))
        assert (status, value) == (("OK", 7) if want == ("OK", True) else
                                   ("ASSERT_FAILED", None) if want[0] == "OK" else want)  # fmt: skip


@SETTINGS
@given(st.lists(pairs(), min_size=1, max_size=6))
def test_value_contains_is_cpythons_in(cases):
    calls, wants = [], []
    for ta, a, tb, b in cases:  # b in sequences holding a (of a's type) or a and b
        for seq, ts in (([], L(ta)), ([a], L(ta)), ([a, a], L(ta)), ((a, b), Tu(ta, tb)), ((), Tu())):
            if ts != T.TOO_DEEP:
                calls.append(build(b, tb) + build(seq, ts) + [f"VALUE_CONTAINS {typed_values(O.CMP_EQ, tb, ts)}"])
                wants.append(cpython(operator.contains, fresh(seq), fresh(b)))
    assert run(calls, [B] * len(calls)) == wants


def orderable(t: int) -> bool:
    """Types of list elements CPython sorts without TypeError (the list type fitting 7 nibbles)."""
    return "None" not in T.name(t) and "Optional" not in T.name(t) and L(t) != T.TOO_DEEP


@SETTINGS
@given(st.lists(types(2).filter(orderable), min_size=1, max_size=4), st.data())
def test_min_max_sorted_sort_are_cpythons(element_types, data):
    calls, wants, result_types = [], [], []
    for t in element_types:
        xs = data.draw(st.lists(values(t).filter(lambda v: "nan" not in repr(v)), max_size=6))
        for name, f in (("VALUE_MIN", min), ("VALUE_MAX", max), ("VALUE_SORTED", sorted)):
            calls.append(build(xs, L(t)) + [f"{name} {t}"])
            wants.append(cpython(f, xs))
            result_types.append(L(t) if name == "VALUE_SORTED" else t)
        calls.append(build(xs, L(t)) + ["DUP_TOP", f"VALUE_SORT {t}"])  # the sorted list stays
        wants.append(("OK", sorted(xs)))
        result_types.append(L(t))
    got = run(calls, result_types)
    assert [(s, repr(v)) for s, v in got] == [(s, repr(v)) for s, v in wants]  # -0.0 vs 0.0: the first extreme


def test_min_max_keep_the_first_extreme_and_sorts_are_stable():
    xs = [(1, 0.0), (0, 0.0), (1, -0.0), (0, -0.0), (1, 0.0)]
    t = Tu(I, F)
    got = run([build(xs, L(t)) + [f"{op} {t}"] for op in ("VALUE_MIN", "VALUE_MAX", "VALUE_SORTED")], [t, t, L(t)])
    assert [repr(v) for _, v in got] == [repr(min(xs)), repr(max(xs)), repr(sorted(xs))]
    assert repr(got[2][1]) == "[(0, 0.0), (0, -0.0), (1, 0.0), (1, -0.0), (1, 0.0)]"


def test_orderings_with_none_are_type_errors_as_in_cpython():
    ot = Opt(I)
    cases = [
        (O.CMP_LT, ot, None, ot, None), (O.CMP_EQ, ot, None, ot, None), (O.CMP_LE, N, None, N, None),
        (O.CMP_LT, L(ot), [None], L(ot), [None]), (O.CMP_LT, L(ot), [None, 1], L(ot), [None, 2]),
        (O.CMP_LT, L(ot), [None], L(ot), [1]), (O.CMP_NE, L(ot), [None], L(ot), [1]),
        (O.CMP_GT, Tu(I, ot), (1, None), Tu(I, ot), (0, None)), (O.CMP_GE, ot, 3, I, 3),
    ]  # fmt: skip
    got = run([compare_case(*c) for c in cases], [B] * len(cases))
    assert got == [cpython(OPS[cmp], a, b) for cmp, _, a, _, b in cases]
    assert [s for s, _ in got] == ["TYPE_ERROR", "OK", "TYPE_ERROR", "OK", "OK", "TYPE_ERROR", "OK", "OK", "OK"]
    sorts = [build([None, 1], L(ot)) + [f"{op} {ot}"] for op in ("VALUE_MIN", "VALUE_SORTED")]
    assert [s for s, _ in run(sorts, [ot, L(ot)])] == ["TYPE_ERROR", "TYPE_ERROR"]
    assert run([build([None], L(ot)) + [f"VALUE_MAX {ot}"]], [ot]) == [("OK", None)]  # one element: no comparison


def test_comparison_costs_are_the_pairs_visited():
    li = L(I)
    cases = [
        (O.CMP_EQ, I, 1, F, 1.0, 0),  # scalars: no pairs
        (O.CMP_EQ, L(li), [[1, 2], [3]], L(li), [[1, 2], [3]], 2 + 2 + 1),  # outer pairs, then each inner's
        (O.CMP_EQ, L(li), [[1, 2], [3]], L(li), [[1, 2], [3, 4]], 2 + 2),  # [3] vs [3, 4]: lengths, no pairs
        (O.CMP_LT, L(li), [[1, 2], [3]], L(li), [[1, 2], [3, 4]], 2 + 2 + 1),  # ... but an ordering walks them
        (O.CMP_LT, Tu(S_, I), ("abc", 1), Tu(S_, I), ("abd", 0), 1 + 3),  # the first field differs at its 3rd point
        (O.CMP_NE, Tu(S_, I), ("abc", 1), Tu(S_, I), ("ab", 1), 1),  # str lengths differ: no points
        (O.CMP_EQ, Opt(I), None, Opt(I), 1, 0),  # None against a value
    ]  # fmt: skip
    builds = [build(a, ta) + build(b, tb) for _, ta, a, tb, b, _ in cases]
    compared = reference_results([code + [f"VALUE_CMP {typed_values(c[0], c[1], c[3])}"] for code, c in zip(builds, cases)])
    popped = reference_results([code + ["POP_TOP"] for code in builds])
    for j, case in enumerate(cases):
        assert compared.cost[j] - popped.cost[j] == O.TABLE[O.VALUE_CMP].cost - O.TABLE[O.POP_TOP].cost + case[-1], j


def test_unpack_check_box_unbox():
    cases = [
        build([1, 2], L(I)) + ["UNPACK_CHECK 2", "LIST_LEN"],
        build([1, 2], L(I)) + ["UNPACK_CHECK 3"],
        build((1, "a"), Tu(I, S_)) + ["UNPACK_CHECK 2", "LIST_LEN"],
        build(-5, I) + ["BOX", "UNBOX 1"],
        build(2.5, Opt(F)) + ["UNBOX 1"],
        [f"LOAD_INT {O.NONE_REF}", "UNBOX 1"],
        [f"LOAD_INT {O.NONE_REF}", "UNBOX 0"],
        build([3], Opt(L(I))) + ["UNBOX 0", "LIST_LEN"],
    ]
    got = run(cases, [I, I, I, I, F, I, I, I])
    assert got == [("OK", 2), ("VALUE_ERROR", None), ("OK", 2), ("OK", -5), ("OK", 2.5), ("TYPE_ERROR", None),
                   ("TYPE_ERROR", None), ("OK", 1)]  # fmt: skip


BAD_TYPES = [
    -1, 2**28, 4, 5, 7, 13,  # out of range, unused nibbles (7, 13: a defaultdict, a Counter: no value instruction takes them)
    I | (I << 4),  # nibbles past the type's end
    T.OPTIONAL | (T.OPTIONAL << 4) | (I << 8), T.OPTIONAL | (N << 4),  # Optional[Optional[int]], Optional[None]
    T.set_of(I), T.dict_of(I, I),  # not yet
]  # fmt: skip


def test_malformed_types_and_values_are_invalid_bytecode():
    two = build(1, I) * 2
    cases = [two + [f"VALUE_CMP {typed_values(O.CMP_EQ, t, I)}"] for t in BAD_TYPES]
    cases += [two + [f"VALUE_CMP {typed_values(O.CMP_EQ, I, t)}"] for t in BAD_TYPES]
    cases += [two + [f"VALUE_CMP {typed_values(6, I, I)}"]]  # no comparison 6
    lists = build([1], L(I)) * 2
    cases += [build([[1]], L(L(I))) + [f"VALUE_MIN {t}"] for t in BAD_TYPES]
    cases += [
        lists + [f"VALUE_CMP {typed_values(O.CMP_EQ, L(T.UNKNOWN), L(T.UNKNOWN))}"],  # elements of no type
        build((1, 2), Tu(I, I)) * 2 + [f"VALUE_CMP {typed_values(O.CMP_LT, Tu(I, I, I), Tu(I, I, I))}"],  # arity
        build([1, 2], L(I)) * 2 + [f"VALUE_CMP {typed_values(O.CMP_EQ, L(Opt(I)), L(Opt(I)))}"],  # 1, 2: no boxes
        lists[:2] + ["LOAD_INT 5", f"VALUE_CMP {typed_values(O.CMP_EQ, L(I), L(I))}"],  # 5: no list's handle
        build(1, I) + lists[:2] + [f"VALUE_CONTAINS {typed_values(O.CMP_LT, I, L(I))}"],  # `in` is ==
        build("a", S_) * 2 + [f"VALUE_CONTAINS {typed_values(O.CMP_EQ, S_, S_)}"],  # `in` a str: STR_CONTAINS
        ["LOAD_INT 9", "UNBOX 1"], ["LOAD_INT 0", "UNPACK_CHECK 1"],
    ]
    got = run(cases, [B] * len(cases))
    assert [s for s, _ in got] == ["INVALID_BYTECODE"] * len(cases)
    unknown = [lists + [f"VALUE_CMP {typed_values(O.CMP_EQ, L(T.UNKNOWN), L(I))}"]]  # an element of `[]`'s type
    assert run(unknown, [B]) == [("INVALID_BYTECODE", None)]
    empty = [["NEW_LIST 0", "NEW_LIST 0", f"VALUE_CMP {typed_values(O.CMP_EQ, L(T.UNKNOWN), L(I))}"]]
    assert run(empty, [B]) == [("OK", True)]


def test_sort_buffer_and_new_lists_need_heap_room():
    xs = [(2, "b"), (1, "a")]
    t = Tu(I, S_)
    sorts = [build(xs, L(t)) + ["DUP_TOP", f"VALUE_SORT {t}"], build(xs, L(t)) + [f"VALUE_SORTED {t}"]]
    # the values take 5 blocks of 1 + 7 words (40), all live; the sort's buffer 1 + 2 more, sorted's 8 + 3
    assert [s for s, _ in run(sorts, [L(t)] * 2, LaunchLimits(heap_size=heap_for(42)))] == ["MEMORY_LIMIT"] * 2
    assert [s for s, _ in run(sorts, [L(t)] * 2, LaunchLimits(heap_size=heap_for(43)))] == ["OK", "MEMORY_LIMIT"]
    assert run(sorts, [L(t)] * 2, LaunchLimits(heap_size=heap_for(51))) == [("OK", sorted(xs))] * 2
    box = [build(1, I) + ["BOX", "UNBOX 1"]]
    assert run(box, [I], LaunchLimits(heap_size=6)) == [("MEMORY_LIMIT", None)]


@pytest.mark.parametrize("cmp", range(6))
def test_failed_assert_value_keeps_its_operands_and_adds_its_walk(cmp):
    a, b = [1, 2, 3], [1, 2, 4]
    holds = OPS[cmp](a, b)
    r = reference_results([build(a, L(I)) + build(b, L(I)) + [f"ASSERT_VALUE {typed_values(cmp, L(I), L(I))}",
                                                             "LOAD_INT 0"]])  # fmt: skip
    assert S.NAMES[r.status[0]] == ("OK" if holds else "ASSERT_FAILED")
    if not holds:
        assert r.fail_op[0] == O.ASSERT_VALUE and r.fail_lhs[0] != r.fail_rhs[0]  # the two handles


# -- job arguments of any type (contract/pool.py)

ARGUMENTS = [
    (Tu(I, S_), (3, "hé")), (L(Tu(I, S_)), [(1, "a"), (2, "")]), (L(L(I)), [[1, 2], [], [3]]),
    (L(B), [True, False]), (Opt(I), None), (Opt(I), -4), (Opt(F), 0.5), (Opt(S_), "x"), (L(Opt(I)), [None, 7, None]),
    (Tu(Opt(S_), I), (None, 2)), (L(L(L(L(L(L(S_)))))), [[[[[["deep"]]]]], []]), (Tu(), ()), (L(S_), ["", "ab"]),
    (Opt(L(Tu(I, F))), [(1, 2.5)]), (Tu(L(I), Opt(S_)), ([], "t")), (Tu(L(B), Opt(B)), ([True], False)),
]  # fmt: skip


def typed_jobs(program_names, cases) -> JobTable:
    """Jobs calling f(x) for each (packed type, value) case, each value passed as its type."""
    pool, rows, bits = [], [], []
    for t, v in cases:
        row, b = argument_slots([v], pool, [t])
        rows.append(row + [0] * (MAX_PARAMS - 1))
        bits.append(b)
    n = len(cases)
    return JobTable(func=np.full(n, program_names["f"], np.int32), link=np.full(n, -1, np.int32),
                    args=np.array(rows, np.int64), links=np.zeros((0, MAX_IMPORTS), np.int32),
                    pool=np.array(pool, np.int64), arg_lists=np.array(bits, np.int32))  # fmt: skip


def test_arguments_of_any_type_arrive_as_their_values():
    for t, v in ARGUMENTS:  # equal to the same value built by the program, on every backend
        program, names = assemble_named(".func f x\n    LOAD_VAR x\n" + "".join(f"    {x}\n" for x in build(v, t))
                                        + f"    VALUE_CMP {typed_values(O.CMP_EQ, t, t)}\n    RETURN\n")  # fmt: skip
        jobs = typed_jobs(names, [(t, v)])
        assert launch_all(program, jobs, plain=True).value.tolist() == [1], T.name(t)
        lim, image, cols, _ = prepare_launch(program, jobs, LaunchLimits(), "reference")
        job = Job(image, cols, lim, 0)
        assert job.run()[0] == S.OK and repr(python_value(job.heap, job.stack[0], t)) == repr(v), T.name(t)


def test_untyped_arguments_take_the_types_of_their_values():
    cases = [((1, "a"), Tu(I, S_)), ([[1], [2.5], []], L(L(F))), ([None, 1], L(Opt(I))), ([], L(T.UNKNOWN)),
             ([[], []], L(L(T.UNKNOWN))), (["a", None], L(Opt(S_))), ([True, 2], L(I))]  # fmt: skip
    assert [T.name(value_type(v)) for v, _ in cases] == [T.name(t) for _, t in cases]
    with pytest.raises(ValueError, match="is not int"):
        argument_slots([[1, "a"]], [])
    with pytest.raises(ValueError, match="is not list"):
        argument_slots([5], [], [L(I)])
    with pytest.raises(ValueError, match="set"):
        argument_slots([{1}], [])


def test_pool_objects_are_checked_before_any_job_runs():
    program, names = assemble_named(".func f x\n    LOAD_VAR x\n    RETURN\n")
    deep = L(L(L(L(L(L(S_))))))
    jobs = typed_jobs(names, [(deep, [[[[[["x"]]]]]])])
    job_arrays(jobs)  # 7 objects deep: fine
    outer = int(jobs.args[0, 0])
    for offset, word, message in ((outer + 1, outer, "deeper than 7"),  # the list holds itself
                                  (outer + 1, len(jobs.pool), "outside jobs.pool"),
                                  (outer, -1 - (1 | 2 << 32), "outside jobs.pool"),  # a mask bit past its length
                                  (outer, -1 - len(jobs.pool), "outside jobs.pool")):  # fmt: skip
        bad = typed_jobs(names, [(deep, [[[[[["x"]]]]]])])
        bad.pool[offset] = word
        with pytest.raises(ValueError, match=message):
            job_arrays(bad)
    none = typed_jobs(names, [(L(Opt(S_)), [None])])
    assert none.pool.tolist() == [-1 - 1, O.NONE_REF] and launch_all(program, none).status.tolist() == [S.OK]


def test_arguments_that_do_not_fit_the_heap_are_memory_limit():
    program, names = assemble_named(".func f x\n    LOAD_VAR x\n    RETURN\n")
    jobs = typed_jobs(names, [(L(Tu(I, S_)), [(1, "a"), (2, "b")])])  # 1 + 2 * 2 blocks of 1 + 7 words
    assert launch_all(program, jobs, LaunchLimits(heap_size=heap_for(39))).status.tolist() == [S.MEMORY_LIMIT]
    assert launch_all(program, jobs, LaunchLimits(heap_size=heap_for(40))).status.tolist() == [S.OK]


def test_disassembly_names_the_compared_types():
    from gpucc.vm.disasm import disassemble

    t = L(Tu(I, S_))
    text = "".join(f"    {x}\n" for x in (f"VALUE_CMP {typed_values(O.CMP_LT, t, t)}",
                                         f"VALUE_CONTAINS {typed_values(O.CMP_EQ, I, L(F))}", f"VALUE_SORT {t}",
                                         "VALUE_MAX 5", f"ASSERT_VALUE {typed_values(O.CMP_EQ, I, I) | 1 << 31}"))
    shown = disassemble(assemble_named(".func f\n" + text + "    LOAD_INT 0\n    RETURN\n")[0])
    for meaning in ("(< list[tuple[int, str]])", "(== int list[float])", "(list[tuple[int, str]])", "(bad type 5)",
                    f"(bad comparison {typed_values(O.CMP_EQ, I, I) | 1 << 31})"):
        assert meaning in shown
