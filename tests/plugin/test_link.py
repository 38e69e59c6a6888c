"""vm.link on a hand-made CompiledBatch: interface resolution, link errors, job order."""

import numpy as np

from gpucc.compiler.batch import CompiledBatch
from gpucc.contract.image import Program
from gpucc.contract.limits import MAX_PARAMS
from gpucc.contract.valuetypes import T_BOOL, T_INT, T_NONE
from gpucc.vm.link import SuiteLink, link


def fake_batch(units):
    """units: list of None (a compile error) or [(name, param types, ret type, is_import)]."""
    sources, fstart, names, params, rets, imports, nparams = [], [0], [], [], [], [], []
    for funcs in units:
        funcs = funcs or []
        sources.append(" ".join(f[0] for f in funcs))
        pos = 0
        for name, ptypes, ret, imp in funcs:
            names.append((pos, pos + len(name)))
            pos += len(name) + 1
            params.append(list(ptypes) + [0] * (MAX_PARAMS - len(ptypes)))
            nparams.append(len(ptypes))
            rets.append(ret)
            imports.append(int(imp))
        fstart.append(len(names))
    n, f = len(units), len(names)
    i32 = lambda x: np.array(x, np.int32)  # noqa: E731
    return CompiledBatch(
        sources=sources, error_code=i32([0 if u else 9 for u in units]), error_start=i32([0] * n),
        error_end=i32([0] * n), error_arg=i32([0] * n), error_arg2=i32([0] * n), code=np.zeros((0, 2), np.int32),
        lines=i32([]), code_start=np.zeros(n + 1, np.int64), consts=np.zeros(0, np.int64),
        const_start=np.zeros(n + 1, np.int64), func_entry=i32([0] * f), func_nparams=i32(nparams),
        func_nlocals=i32(nparams), func_max_stack=i32([0] * f), func_ret_type=i32(rets),
        func_param_types=np.array(params, np.int32).reshape(f, MAX_PARAMS), func_is_import=i32(imports),
        func_name_start=i32([a for a, _ in names]), func_name_end=i32([b for _, b in names]),
        func_start=np.array(fstart, np.int64),
    )  # fmt: skip


II_I = ([T_INT, T_INT], T_INT)
SUITE = [("helper", [T_INT], T_INT, 0), ("f", *II_I, 1), ("g", [T_INT], T_BOOL, 1),
         ("test_a", [], T_NONE, 0), ("test_b", [T_INT, T_BOOL], T_NONE, 0)]  # fmt: skip
GOOD = [("g", [T_INT], T_BOOL, 0), ("f", *II_I, 0)]


def test_link_resolves_by_name_and_orders_jobs_candidate_major():
    units = [SUITE, GOOD, [("f", *II_I, 0)], [("f", [T_INT, T_BOOL], T_INT, 0), ("g", [T_INT], T_BOOL, 0)],
             None, [("f", *II_I, 1), ("g", [T_INT], T_BOOL, 0)], list(GOOD)]  # fmt: skip
    batch = fake_batch(units)
    tests = [("test_a", [()]), ("test_b", [(5, True), (-2, False)])]
    linked = link(batch, Program.from_batch(batch), [SuiteLink(0, tests, [1, 2, 3, 4, 5, 6])])
    assert set(linked.ranges) == {(0, 1), (0, 6)}
    assert "does not define 'g' (the suite's interface: g(int) -> bool)" in linked.errors[(0, 2)]
    assert "defines f(int, bool) -> int, but the suite's interface is f(int, int) -> int" in linked.errors[(0, 3)]
    assert "'f' has no body" in linked.errors[(0, 5)]
    assert (0, 4) not in linked.errors  # compile errors are not link errors
    jobs = linked.jobs
    assert len(jobs) == 6 and linked.ranges[(0, 1)] == (0, 3) and linked.ranges[(0, 6)] == (3, 6)
    assert list(linked.job_unit) == [1, 1, 1, 6, 6, 6]
    assert list(linked.job_test) == [0, 1, 1] * 2 and list(linked.job_case) == [0, 0, 1] * 2
    assert list(jobs.func) == [3, 4, 4] * 2  # global ids of test_a, test_b in unit 0
    assert jobs.args[1, :3].tolist() == [5, 1, 0] and jobs.args[2, :2].tolist() == [-2, 0]
    # imports in order f, g -> the candidate's f, g (global ids)
    f1, g1 = batch.func_start[1] + 1, batch.func_start[1]
    assert jobs.links[jobs.link[0], :2].tolist() == [f1, g1] and (jobs.links[:, 2:] == -1).all()
    assert jobs.link[3] != jobs.link[0]


def test_suite_that_does_not_compile_links_nothing():
    batch = fake_batch([None, GOOD])
    linked = link(batch, Program.from_batch(batch), [SuiteLink(0, [("test_a", [()])], [1])])
    assert len(linked.jobs) == 0 and not linked.ranges and not linked.errors


def test_list_arguments_go_into_the_pool_once_for_every_candidate():
    from gpucc.contract.image import job_arrays
    from gpucc.contract.typecodes import FLOAT, list_of
    from gpucc.contract.valuetypes import float_to_bits

    suite = [("f", [list_of(T_INT)], T_INT, 1), ("test_l", [T_INT, list_of(T_INT), list_of(FLOAT)], T_NONE, 0)]
    batch = fake_batch([suite, [("f", [list_of(T_INT)], T_INT, 0)], [("f", [list_of(T_INT)], T_INT, 0)]])
    tests = [("test_l", [(7, [1, 2], [0.5]), (8, [], [])])]
    jobs = link(batch, Program.from_batch(batch), [SuiteLink(0, tests, [1, 2])]).jobs
    assert jobs.arg_lists.tolist() == [0b110] * 4 and jobs.args[:, 0].tolist() == [7, 8, 7, 8]
    assert jobs.pool.tolist() == [2, 1, 2, 1, float_to_bits(0.5), 0, 0]
    assert jobs.args[:2, 1:3].tolist() == [[0, 3], [5, 6]] and (jobs.args[2:, 1:3] == jobs.args[:2, 1:3]).all()
    job_arrays(jobs)  # the offsets are inside the pool


def test_arguments_of_any_type_go_into_the_pool_as_the_test_types_them():
    from gpucc.contract.image import job_arrays
    from gpucc.contract.isa import NONE_REF
    from gpucc.contract.typecodes import STR, list_of, optional_of, tuple_of

    pairs, maybe = list_of(tuple_of([T_INT, STR])), optional_of(T_INT)
    suite = [("f", [pairs], maybe, 1), ("test_p", [pairs, maybe], T_NONE, 0)]
    batch = fake_batch([suite, [("f", [pairs], maybe, 0)]])
    tests = [("test_p", [([(1, "a")], None), ([], 5)])]
    jobs = link(batch, Program.from_batch(batch), [SuiteLink(0, tests, [1])]).jobs
    assert jobs.arg_lists.tolist() == [0b01, 0b11] and jobs.args[0, 1] == NONE_REF  # None: a slot; 5: a box
    # "a" (2 words), the tuple (1, "a") with its field 1 an offset, the list of tuple offsets; [], the box [1, 5]
    assert jobs.pool.tolist() == [1, ord("a"), -1 - (2 | 0b10 << 32), 1, 0, -1 - 1, 2, -1, 1, 5]
    assert jobs.args[:, 0].tolist() == [5, 7] and jobs.args[1, 1] == 8
    job_arrays(jobs)
