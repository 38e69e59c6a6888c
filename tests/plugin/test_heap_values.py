"""pytest_gpucc.heap_values: a failed ASSERT_VALUE's operands and a job's returned value of any
type shown as CPython's repr, read from a replay on the reference interpreter (hand-assembled
jobs, as a launch records them)."""

from gpucc import vm
from gpucc.contract import status as st
from gpucc.contract import typecodes as T
from gpucc.contract.image import LaunchLimits
from gpucc.contract.isa import ASSERT_VALUE, CMP_EQ, typed_values
from gpucc.vm.asm import assemble_named, make_jobs
from pytest_gpucc import report as r
from pytest_gpucc.heap_values import Replayer, compared, placeholder, wants_replay

PAIRS = T.list_of(T.tuple_of([T.INT, T.STR]))
OPT = T.optional_of(T.list_of(T.BOOL))
TEXT = f"""
.func check xs
    LOAD_VAR xs
    LOAD_INT 1
    LOAD_STR "it's"
    NEW_LIST 2
    NEW_LIST 1
    ASSERT_VALUE {typed_values(CMP_EQ, PAIRS, PAIRS)}
    LOAD_INT 0
    RETURN
.func flags n
    LOAD_VAR n
    JUMP_IF_FALSE none
    LOAD_INT 1
    LOAD_INT 0
    NEW_LIST 2
    RETURN
none: LOAD_INT -1
    RETURN
"""


def launched(calls):
    program, names = assemble_named(TEXT)
    program.func_ret_type[names["flags"]] = OPT
    jobs = make_jobs(names, calls)
    limits = LaunchLimits()
    return program, jobs, vm.launch(program, jobs, "cpu", limits), Replayer(program, jobs, limits)


def test_a_failed_assert_value_shows_both_operands_as_repr():
    program, jobs, res, replayer = launched([("check", ([(1, "it's"), (2, "é")],)), ("check", ([(1, "it's")],))])
    assert res.status.tolist() == [st.ASSERT_FAILED, st.OK] and res.fail_op[0] == ASSERT_VALUE
    constant = replayer.constant(int(res.fail_unit[0]), int(res.fail_arg[0]))
    types = compared(ASSERT_VALUE, int(res.fail_arg[0]), constant)
    assert types == (CMP_EQ, PAIRS, PAIRS) and wants_replay(ASSERT_VALUE, types, st.ASSERT_FAILED, 10)
    shown = replayer.operands(0, types)
    assert shown == ("[(1, \"it's\"), (2, 'é')]", "[(1, \"it's\")]")
    record = r.JobRecord("check", 0, "check(...)", [], st.ASSERT_FAILED, op=ASSERT_VALUE, arg=int(res.fail_arg[0]),
                         constant=constant, lhs=int(res.fail_lhs[0]), rhs=int(res.fail_rhs[0]))  # fmt: skip
    assert r.assert_where(record) == "where <list[tuple[int, str]]> == <list[tuple[int, str]]>"  # not replayed
    record.shown = shown
    assert r.assert_where(record) == "where [(1, \"it's\"), (2, 'é')] == [(1, \"it's\")]"
    record.constant = None  # the constants stayed on the device: nothing to say what was compared
    assert r.assert_where(record) == "assertion is false"


def test_returned_values_of_any_type_are_their_repr():
    program, jobs, res, replayer = launched([("flags", (1,)), ("flags", (0,))])
    assert res.status.tolist() == [st.OK, st.OK]
    assert [replayer.returned(j, OPT) for j in range(2)] == ["[True, False]", "None"]
    records = [r.JobRecord("flags", j, "flags(...)", [], st.OK, value=int(res.value[j]), ret_type=OPT) for j in range(2)]
    assert [r.returned(x) for x in records] == ["<Optional[list[bool]]>", "None"]  # no replay: the type
    records[0].returned = replayer.returned(0, OPT)
    assert r._job_json(records[0])["returned"] == "[True, False]"
    records[0].heap_peak_words = int(res.heap_peak_words[0])  # the session copies it from the Results
    assert r._job_json(records[0])["heap_peak_words"] == res.heap_peak_words[0] > 0  # a list and a box
    outcome = r.CandidateOutcome("s", "c.py", "c.py", r.PASSED, jobs=records)
    assert r.candidate_json(outcome)["heap_peak_words"] == res.heap_peak_words.max()
    assert placeholder(3, T.INT) == "3" and placeholder(2, T.STR, op=-1) == "<str>"
    assert r.returned(r.JobRecord("t", 0, "t()", [], st.OK, value=0, ret_type=T.NONE)) == "None"


def test_counters_show_as_cpythons_repr():
    """A failed `==` of Counters (ASSERT_KEYED) and a returned Counter: most common first, as
    CPython's repr (collections.Counter, compiler/typecheck_counter.py)."""
    from gpucc.compiler.batch import compile_batch
    from gpucc.contract.image import Program
    from gpucc.contract.isa import ASSERT_KEYED

    src = ("from collections import Counter\n\n\ndef same(s: str) -> None:\n    assert Counter(s) == Counter('abb')\n\n\n"
           "def counts(s: str):\n    return Counter(s)\n")  # fmt: skip
    batch = compile_batch([src])
    assert batch.ok(0), batch.error(0)
    program = Program.from_batch(batch)
    names = {n: i for i, n in enumerate(batch.function_names(0))}
    jobs = make_jobs(names, [("same", ("aab",)), ("counts", ("xyy",)), ("same", ("bab",))])
    limits = LaunchLimits()
    res, replayer = vm.launch(program, jobs, "cpu", limits), Replayer(program, jobs, limits)
    assert res.status.tolist() == [st.ASSERT_FAILED, st.OK, st.OK] and res.fail_op[0] == ASSERT_KEYED
    types = compared(ASSERT_KEYED, int(res.fail_arg[0]), replayer.constant(int(res.fail_unit[0]), int(res.fail_arg[0])))
    assert T.name(types[1]) == "Counter[str]" and wants_replay(ASSERT_KEYED, types, st.ASSERT_FAILED, 10)
    assert replayer.operands(0, types) == ("Counter({'a': 2, 'b': 1})", "Counter({'b': 2, 'a': 1})")
    ret = int(program.func_ret_type[names["counts"]])
    assert replayer.returned(1, ret) == "Counter({'y': 2, 'x': 1})" and placeholder(0, ret, op=-1) == "<Counter[str]>"


def test_defaultdicts_show_as_cpythons_repr():
    """A failed `==` of defaultdicts (ASSERT_KEYED), one against a dict (both shown as dicts: one
    type names both operands) and a returned defaultdict: CPython's repr, its factory named by
    its value type (compiler/typecheck_defaultdict.py)."""
    from gpucc.compiler.batch import compile_batch
    from gpucc.contract.image import Program
    from gpucc.contract.isa import ASSERT_KEYED

    src = ("from collections import defaultdict\n\n\ndef groups(s: str):\n    d = defaultdict(list)\n"
           "    for ch in s:\n        d[ch].append(len(d))\n    return d\n\n\n"
           "def same(s: str) -> None:\n    assert groups(s) == groups('ab')\n\n\n"
           "def plain(s: str) -> None:\n    d = defaultdict(int)\n    d[s] += 1\n    assert d == {'a': 1}\n")  # fmt: skip
    batch = compile_batch([src])
    assert batch.ok(0), batch.error(0)
    program = Program.from_batch(batch)
    names = {n: i for i, n in enumerate(batch.function_names(0))}
    jobs = make_jobs(names, [("same", ("ba",)), ("groups", ("xyx",)), ("plain", ("b",))])
    limits = LaunchLimits()
    res, replayer = vm.launch(program, jobs, "cpu", limits), Replayer(program, jobs, limits)
    assert res.status.tolist() == [st.ASSERT_FAILED, st.OK, st.ASSERT_FAILED] and res.fail_op[0] == ASSERT_KEYED
    types = compared(ASSERT_KEYED, int(res.fail_arg[0]), replayer.constant(int(res.fail_unit[0]), int(res.fail_arg[0])))
    assert T.name(types[1]) == "defaultdict[str, list[int]]" and wants_replay(ASSERT_KEYED, types, st.ASSERT_FAILED, 10)
    assert replayer.operands(0, types) == ("defaultdict(<class 'list'>, {'b': [1], 'a': [2]})",
                                           "defaultdict(<class 'list'>, {'a': [1], 'b': [2]})")
    ret = int(program.func_ret_type[names["groups"]])
    assert replayer.returned(1, ret) == "defaultdict(<class 'list'>, {'x': [1, 2], 'y': [2]})"
    assert placeholder(0, ret, op=-1) == "<defaultdict[str, list[int]]>"
    types = compared(ASSERT_KEYED, int(res.fail_arg[2]), replayer.constant(int(res.fail_unit[2]), int(res.fail_arg[2])))
    assert replayer.operands(2, types) == ("{'b': 1}", "{'a': 1}")
