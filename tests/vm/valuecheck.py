"""Helpers of the value-instruction tests: Python values of packed types (contract/typecodes.py)
as hand-assembled code building them, programs of one job per case, and CPython's verdict on
the same values as (status name, Python value)."""

from __future__ import annotations

import math

from vmcheck import launch_all

from gpucc import vm
from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract import typecodes as T
from gpucc.contract.image import LaunchLimits
from gpucc.contract.valuetypes import float_to_bits
from gpucc.vm.asm import assemble_named, make_jobs
from gpucc.vm.prepare import prepare_launch
from gpucc.vm.reference import Job
from gpucc.vm.reference_value import python_value

I, B, F, S_, N = T.INT, T.BOOL, T.FLOAT, T.STR, T.NONE
L, Tu, Opt = T.list_of, (lambda *fs: T.tuple_of(list(fs))), T.optional_of
ERRORS = {TypeError: "TYPE_ERROR", ValueError: "VALUE_ERROR", IndexError: "INDEX_ERROR"}


def build(value, t: int) -> list[str]:
    """Assembly lines pushing `value` of packed type t (lists, tuples and strs built new)."""
    h = T.head(t)
    if h == T.OPTIONAL:
        if value is None:
            return [f"LOAD_INT {O.NONE_REF}"]
        inner = T.element(t)
        return build(value, inner) + ([] if T.is_heap(inner) else ["BOX"])
    if h == T.NONE:
        return [f"LOAD_INT {O.NONE_REF}"]
    if h in (T.INT, T.BOOL):
        return [f"LOAD_CONST {int(value)}"]
    if h == T.FLOAT:
        return [f"LOAD_CONST {float_to_bits(value)}"]
    if h == T.STR:
        return [f"LOAD_STR {value!r}"]
    lines = []
    for k, x in enumerate(value):
        lines += build(x, T.field(t, k) if h == T.TUPLE else T.element(t))
    return lines + [f"NEW_LIST {len(value)}"]


def program(cases: list[list[str]]):
    """(Program, JobTable) of one function per case (its lines leave one value to return)."""
    text = "".join(f".func c{i}\n" + "".join(f"    {line}\n" for line in body) + "    RETURN\n"
                   for i, body in enumerate(cases))  # fmt: skip
    prog, names = assemble_named(text)
    return prog, make_jobs(names, [(f"c{i}", ()) for i in range(len(cases))])


def run(cases: list[list[str]], result_types: list[int], limits: LaunchLimits | None = None,
        kernels: bool = True) -> list[tuple[str, object]]:  # fmt: skip
    """[(status name, Python value or None)] of each case on the reference interpreter, its
    result read from the job's heap as result_types[i]; with `kernels`, every backend
    (vmcheck.launch_all: the cpu kernel, the plain kernel) agreeing with it."""
    limits = limits or LaunchLimits()
    prog, jobs = program(cases)
    if kernels:
        launch_all(prog, jobs, limits, plain=True)
    lim, image, cols, _ = prepare_launch(prog, jobs, limits, "reference")
    out = []
    for j, t in enumerate(result_types):
        job = Job(image, cols, lim, j)
        st, value, _, _ = job.run()
        out.append((S.NAMES[st], python_value(job.heap, value, t) if st == S.OK else None))
    return out


def reference_results(cases: list[list[str]], limits: LaunchLimits | None = None):
    """The reference interpreter's Results of the cases (status, value, cost...)."""
    prog, jobs = program(cases)
    return vm.launch(prog, jobs, "reference", limits or LaunchLimits())


def cpython(f, *args) -> tuple[str, object]:
    """(status name, value) of f(*args) in CPython."""
    try:
        return "OK", f(*args)
    except tuple(ERRORS) as e:
        return ERRORS[type(e)], None


def fresh(value):
    """`value` with every nan a new float object: CPython's identity shortcut (`[x] == [x]`
    for the very same nan) is the one thing the VM's nan does not have (vm/reference_value.py)."""
    if isinstance(value, float) and math.isnan(value):
        return float("nan")
    if isinstance(value, (list, tuple)):
        return type(value)(fresh(x) for x in value)
    return value
