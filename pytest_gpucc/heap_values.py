"""Values in a job's heap as CPython's repr shows them: a failed assert's operands, a job's
returned value.

A slot holds only a handle to a str, list, tuple, dict or set (or a box: an Optional scalar); its
elements live in the job's heap, which stays on the device.  A launch records a failed
ASSERT_CMP's operands as lengths (``<str of 3>``) and a failed ASSERT_VALUE's as their slots;
to show the values, the job is run again on the reference interpreter (vm/reference.py:
deterministic, so it ends the same way at the same instruction), which keeps its heap, and the
values are read there (vm.reference_value.python_value).  Replays are for the jobs a report
shows (each failing candidate's first failed assert) and for jobs returning a heap value (the
JSON's "returned"), and only for jobs of at most REPLAY_STEPS steps: a longer one keeps the
placeholder (``<list of 3>``, ``<list[tuple[int, str]]>``).  A replay costs what running the
job in plain Python costs: about a second per million steps.
"""

from __future__ import annotations

from gpucc.contract import status
from gpucc.contract import typecodes as T
from gpucc.contract.image import is_device_array
from gpucc.contract.isa import (
    ASSERT_CMP,
    ASSERT_KEYED,
    ASSERT_VALUE,
    CMP_EQ,
    NONE_REF,
    typed_cmp_fields,
    typed_values_fields,
)
from gpucc.contract.valuetypes import T_LIST_FLOAT, T_LIST_INT, T_LIST_STR, render

REPLAY_STEPS = 200_000  # the reference interpreter runs ~1M steps in a few seconds
REPR_MAX = 240  # pytest's assertion reprs are cut to this many characters
# the flat list kinds of ASSERT_CMP's operands as packed types (the others are the same codes)
_PACKED = {T_LIST_INT: T.list_of(T.INT), T_LIST_FLOAT: T.list_of(T.FLOAT), T_LIST_STR: T.list_of(T.STR)}


def compared(op: int, arg: int, constant: int | None) -> tuple[int, int, int] | None:
    """(cmp, left type, right type) of a failed ASSERT_CMP (operand arg, flat kinds),
    ASSERT_VALUE (its typed_values constant) or ASSERT_KEYED (its type), as packed types; None
    for anything else."""
    if op == ASSERT_CMP:
        cmp, left, right = typed_cmp_fields(arg)
        return cmp, _PACKED.get(left, left), _PACKED.get(right, right)
    if op == ASSERT_VALUE and constant is not None:
        return typed_values_fields(constant)
    if op == ASSERT_KEYED and constant is not None:  # == of dicts or sets of one type
        return CMP_EQ, constant, constant
    return None


def placeholder(slot: int, t: int, op: int = ASSERT_VALUE) -> str:
    """What a slot of packed type t shows without its heap: a scalar's repr, None, or for a heap
    value its length (ASSERT_CMP records lengths: ``<list of 3>``) or its type."""
    h = T.head(t)
    if h in (T.NONE, T.INT, T.BOOL, T.FLOAT):
        return render(slot, h)
    if h == T.OPTIONAL and slot == NONE_REF:
        return "None"
    if op == ASSERT_CMP:
        return f"<{'str' if h == T.STR else 'list'} of {slot}>"
    return f"<{T.name(t)}>"


class Replayer:
    """Replays jobs of one launch (program, jobs, limits) on the reference interpreter."""

    def __init__(self, program, jobs, limits):
        self.program, self.jobs, self.limits = program, jobs, limits
        self.prepared = None

    def constant(self, unit: int, arg: int) -> int | None:
        """consts[arg] of `unit` (a VALUE_* operand); None when the constants stay on the device."""
        consts = self.program.consts
        if is_device_array(consts) or not 0 <= unit < len(self.program.unit_const_start) - 1:
            return None
        return int(consts[int(self.program.unit_const_start[unit]) + arg])

    def _run(self, j: int):
        """(status, value, the finished reference Job) of job j; None when the program is on the
        device."""
        from gpucc.vm.prepare import prepare_launch
        from gpucc.vm.reference import Job

        if is_device_array(self.program.code):
            return None
        if self.prepared is None:  # "cpu": the jitted verifier checks the image's functions
            self.prepared = prepare_launch(self.program, self.jobs, self.limits, "cpu")
        limits, image, job_cols, _ = self.prepared
        job = Job(image, job_cols, limits, j)
        st, result, _, _ = job.run()
        return st, result, job

    def operands(self, j: int, types: tuple[int, int, int]) -> tuple[str, str] | None:
        """The reprs of job j's failed assert operands (`types`: compared()'s), or None when the
        replay does not end in a failed ASSERT_CMP / ASSERT_VALUE."""
        ran = self._run(j)
        if ran is None or ran[0] != status.ASSERT_FAILED:
            return None
        job = ran[2]
        if int(job.image.code[2 * job.pc]) not in (ASSERT_CMP, ASSERT_VALUE, ASSERT_KEYED):
            return None
        _, left, right = types
        a, b = job.stack[job.sp - 2], job.stack[job.sp - 1]
        return shown(value(job.heap, a, left)), shown(value(job.heap, b, right))

    def returned(self, j: int, t: int, cut: bool = True) -> str | None:
        """The repr of the value job j returns (packed type t; `cut`: as pytest shows it), or None
        when it does not."""
        ran = self._run(j)
        if ran is None or ran[0] != status.OK:
            return None
        v = value(ran[2].heap, ran[1], t)
        return shown(v) if cut else repr(v)


def value(heap, slot: int, t: int):
    """The Python value slot of packed type t holds, read from a replayed job's heap."""
    from gpucc.vm.reference_value import python_value

    return python_value(heap, slot, t)


def wants_replay(op: int, types: tuple[int, int, int] | None, job_status: int, steps: int) -> bool:
    """Whether a failed job's report gains from a replay: an assert comparing heap values."""
    if job_status != status.ASSERT_FAILED or types is None or steps > REPLAY_STEPS:
        return False
    return op in (ASSERT_CMP, ASSERT_VALUE, ASSERT_KEYED) and (T.is_heap(types[1]) or T.is_heap(types[2]))


def shown(value) -> str:
    """repr(value), its middle cut out past REPR_MAX characters as pytest's saferepr does."""
    text = repr(value)
    if len(text) <= REPR_MAX:
        return text
    keep = (REPR_MAX - 3) // 2
    return text[:keep] + "..." + text[len(text) - (REPR_MAX - 3 - keep) :]
