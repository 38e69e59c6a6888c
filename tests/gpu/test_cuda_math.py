"""The math instructions through the CUDA launcher under the simulator (vm/kernel_math.py on
the CUDA path; the simulator's math is Python's, so the results equal the CPU's bit for bit
here: on a device libdevice may differ in the last place, README's deliberate differences)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from gpusim import assert_same_arrays, simulate
from simrun import arrays, vm_input

from gpucc import vm
from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract.image import LaunchLimits
from gpucc.contract.valuetypes import float_to_bits
from gpucc.vm.asm import assemble_named, make_jobs

FLOATS = [0.0, -0.0, 0.5, -0.5, 2.0, -7.5, 1e-300, 1e308, math.inf, -math.inf, math.nan, 709.8, 3.0]
PAIRS = [(2.0, 0.5), (-8.0, 1.0 / 3), (0.0, -1.0), (8.0, 1.0), (-2.0, 3.0), (math.nan, 0.0), (5.0, math.inf)]
INTS = [(0, 0), (12, 18), (-4, 6), (2**62, 2), (20, 21), (60, 30), (-(2**63), 0), (5, -1), (21, 3)]


def _program():
    """f1 k x: MATH_FLOAT / TO_INT / TEST of float x; f2 k x y: MATH_FLOAT2 / ISCLOSE; i1 / i2:
    the int functions; p: prod of a list.  One function per instruction and mode."""
    text, calls = [], []
    for op, modes in O.MATH_MODES.items():
        for k in range(len(modes)):
            name = f"{op.lower()}_{k}"
            two = op in ("MATH_FLOAT2", "MATH_INT2")
            text.append(f".func {name} a{' b' if two else ''}\n    LOAD_VAR a\n{'    LOAD_VAR b' if two else ''}\n"
                        f"    {op} {k}\n    RETURN\n")  # fmt: skip
            if op in ("MATH_INT", "MATH_INT2"):
                calls += [(name, pair if two else pair[:1]) for pair in INTS]
            elif two:
                calls += [(name, (float_to_bits(x), float_to_bits(y))) for x, y in PAIRS if not (k == 0 and x > 1e300)]
            else:
                calls += [(name, (float_to_bits(x),)) for x in FLOATS]
    text.append(".func close a b\n    LOAD_VAR a\n    LOAD_VAR b\n    MATH_ISCLOSE\n    RETURN\n")
    calls += [("close", (float_to_bits(x), float_to_bits(y))) for x, y in PAIRS]
    text.append(".func prod xs\n    LOAD_VAR xs\n    MATH_PROD 0\n    RETURN\n")
    calls += [("prod", (xs,)) for xs in ([], [3, -4, 5], [2**40, 2**40])]
    program, names = assemble_named("".join(text))
    return program, make_jobs(names, calls)


def test_simulated_math_matches_cpu(tmp_path: Path):
    program, jobs = _program()
    limits = LaunchLimits(step_limit=100, stack_size=16, max_depth=2, heap_size=64)
    expected = vm.launch(program, jobs, "cpu", limits)
    assert {S.OK, S.VALUE_ERROR, S.OVERFLOW, S.ZERO_DIVISION} <= set(expected.status.tolist())
    got = simulate("vm", tmp_path, {**vm_input(program, jobs, limits), "x_max_threads": np.int64(64)})
    assert_same_arrays(arrays(expected), got)
