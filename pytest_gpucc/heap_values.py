"""A failed assert's list and str operands as CPython's repr shows them.

A slot holds only a handle to a list or str; its elements live in the job's heap, which stays on
the device.  A launch records the operands' lengths (``<str of 3>``); to show the values, the
job is run again on the reference interpreter (vm/reference.py: deterministic, so it fails the
same way at the same instruction), which keeps its heap, and the two operands are read there.
Replays are for the jobs a report shows (each failing candidate's first failed assert), and
only for jobs of at most REPLAY_STEPS steps: a longer one keeps the lengths.
"""

from __future__ import annotations

from gpucc.contract import status
from gpucc.contract.isa import ASSERT_CMP, typed_cmp_fields
from gpucc.contract.valuetypes import T_LIST_FLOAT, T_LIST_INT, T_LIST_STR, T_STR, bits_to_float

HEAP_TYPES = (T_LIST_INT, T_LIST_FLOAT, T_STR, T_LIST_STR)
REPLAY_STEPS = 200_000  # the reference interpreter runs ~1M steps in a few seconds
REPR_MAX = 240  # pytest's assertion reprs are cut to this many characters


class Replayer:
    """Replays jobs of one launch (program, jobs, limits) on the reference interpreter."""

    def __init__(self, program, jobs, limits):
        self.program, self.jobs, self.limits = program, jobs, limits
        self.prepared = None

    def operands(self, j: int, arg: int) -> tuple[str, str] | None:
        """The reprs of job j's failed ASSERT_CMP operands (typed_cmp `arg`), or None when
        the replay does not end in a failed assert."""
        from gpucc.vm.prepare import prepare_launch
        from gpucc.vm.reference import Job

        if self.prepared is None:  # "cpu": the jitted verifier checks the image's functions
            self.prepared = prepare_launch(self.program, self.jobs, self.limits, "cpu")
        limits, image, job_cols, _ = self.prepared
        job = Job(image, job_cols, limits, j)
        st = job.run()[0]
        if st != status.ASSERT_FAILED or int(image.code[2 * job.pc]) != ASSERT_CMP:
            return None
        _, left, right = typed_cmp_fields(arg)
        a, b = job.stack[job.sp - 2], job.stack[job.sp - 1]
        return shown(decode(job.heap, a, left)), shown(decode(job.heap, b, right))


def wants_replay(op: int, arg: int, job_status: int, steps: int) -> bool:
    """Whether a failed job's report gains from a replay: an assert comparing lists or strs."""
    if job_status != status.ASSERT_FAILED or op != ASSERT_CMP or steps > REPLAY_STEPS:
        return False
    _, left, right = typed_cmp_fields(arg)
    return left in HEAP_TYPES or right in HEAP_TYPES


def decode(heap, value: int, type_code: int):
    """The Python value a slot of `type_code` holds (lists and strs read from `heap`)."""
    if type_code == T_STR:
        return "".join(map(chr, heap.slots(value)))
    if type_code == T_LIST_STR:
        return [decode(heap, h, T_STR) for h in heap.slots(value)]
    if type_code == T_LIST_FLOAT:
        return [bits_to_float(x) for x in heap.slots(value)]
    if type_code == T_LIST_INT:
        return list(heap.slots(value))
    raise ValueError(f"type {type_code} is not kept in the heap")


def shown(value) -> str:
    """repr(value), its middle cut out past REPR_MAX characters as pytest's saferepr does."""
    text = repr(value)
    if len(text) <= REPR_MAX:
        return text
    keep = (REPR_MAX - 3) // 2
    return text[:keep] + "..." + text[len(text) - (REPR_MAX - 3 - keep) :]
