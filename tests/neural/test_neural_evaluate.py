"""neural/evaluate.py: decoded bytecode is verified, then run beside the traditional bytecode
in one launch."""

from __future__ import annotations

from gpucc.compiler import compile_batch
from gpucc.contract import isa as O
from gpucc.neural.bytecode import Function, UnitCode, unit_code
from gpucc.neural.data import Pair
from gpucc.neural.evaluate import judge


def test_judge_tells_right_wrong_and_invalid_bytecode():
    head = "def f(a: int, b: int, c: bool, x: float, y: float) -> int:\n"
    batch = compile_batch([head + "    return a + b\n", head + "    return a - b\n"])
    right, wrong = unit_code(batch, 0), unit_code(batch, 1)
    f = right.functions[0]
    bad = UnitCode((Function(f.nparams, f.nlocals, f.max_stack, f.ret_type, ((O.LOAD_VAR, 99), (O.RETURN, 0))),), ())
    pair = Pair(batch.sources[0], right, 0, ("int", "int", "bool", "float", "float"), 0, 0)
    verdicts = judge([pair] * 4, [right, wrong, bad, None])
    assert [(v.decoded, v.valid, v.functional) for v in verdicts] == [
        (True, True, True), (True, True, False), (True, False, False), (False, False, False)]
