"""Is a decoded unit right?  Exact match (the traditional compiler's tokens) and functional
match (the VM runs it on the same inputs as the traditional compiler's bytecode, in ONE launch,
with the same outcome on every job).

Bytecode from a model is untrusted: each decoded unit goes through vm.verify on its own first
and only the units that verify are linked into the launch (the launch verifies again).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from gpucc.contract.image import LaunchLimits
from gpucc.contract.status import OK
from gpucc.neural.bytecode import UnitCode, program_of
from gpucc.neural.data import Pair
from gpucc.neural.gen import random_arg
from gpucc.vm import launch
from gpucc.vm.asm import make_jobs
from gpucc.vm.verify import verify

CASES = 8  # inputs per program
STEP_LIMIT = 100_000  # generated programs finish in far fewer steps


@dataclass(frozen=True)
class Verdict:
    decoded: bool  # the tokens spelled a unit
    valid: bool  # it passed vm.verify and has the entry function with the right header
    functional: bool  # every job's outcome equals the traditional bytecode's


def verified(unit: UnitCode | None, pair: Pair) -> bool:
    if unit is None or len(unit.functions) != len(pair.unit.functions):
        return False
    want, got = pair.unit.functions[pair.entry], unit.functions[pair.entry]
    return (got.nparams, got.ret_type) == (want.nparams, want.ret_type) and not verify(program_of([unit]))


def judge(pairs: list[Pair], units: list[UnitCode | None], seed: int = 0) -> list[Verdict]:
    """A verdict for each pair's decoded unit (None: the tokens did not decode)."""
    valid = [verified(u, p) for u, p in zip(units, pairs)]
    runnable = [i for i, ok in enumerate(valid) if ok]
    program = program_of([pairs[i].unit for i in runnable] + [units[i] for i in runnable])
    starts, r, calls = program.unit_func_start, random.Random(seed), []
    for k, i in enumerate(runnable):
        args = [tuple(random_arg(r, t) for t in pairs[i].params) for _ in range(CASES)]
        for side in (k, len(runnable) + k):  # the traditional unit, then the decoded one
            calls += [(int(starts[side]) + pairs[i].entry, a) for a in args]
    functional = [False] * len(pairs)
    if calls:
        res = launch(program, make_jobs({}, calls), "cpu", LaunchLimits(step_limit=STEP_LIMIT))
        status, value = (a.reshape(len(runnable), 2, CASES) for a in (res.status, res.value))
        same = (status[:, 0] == status[:, 1]) & ((status[:, 0] != OK) | (value[:, 0] == value[:, 1]))  # (runnable, CASES)
        for k, i in enumerate(runnable):
            functional[i] = bool(same[k].all())
    return [Verdict(u is not None, v, f) for u, v, f in zip(units, valid, functional)]
