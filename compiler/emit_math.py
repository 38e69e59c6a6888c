"""Code generation of the math module's calls (compiler/modules.py): each argument made what
the function takes, then its instruction (contract.isa's math group).  Kernel bodies.
"""

from __future__ import annotations

from gpucc.compiler.emit import emit
from gpucc.compiler.modules import LOG, LOG_BASE, MATH_FLOATS, MATH_MODE, MATH_OPCODE, MATH_RULES
from gpucc.compiler.typerules import element_type
from gpucc.contract import isa as O
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_FLOAT


@nrt_free
def _by_argument(opc):
    """Whether function opc's instruction depends on its one argument's type: floor, ceil and
    trunc of an int are the int itself, prod takes its list's element kind."""
    return opc == O.MATH_TO_INT or opc == O.FLOAT_TO_INT or opc == O.MATH_PROD


@nrt_free
def emit_math_arg(out, k, t, line):
    """After an argument (of type t) of math function k: an int or bool made a float where the
    function takes floats; the instruction of a function _by_argument."""
    opc = MATH_RULES[k, MATH_OPCODE]
    if MATH_RULES[k, MATH_FLOATS] == 1 and t != T_FLOAT:
        emit(out, O.INT_TO_FLOAT, 0, line)
    if opc == O.MATH_PROD:
        emit(out, opc, 1 if element_type(t) == T_FLOAT else 0, line)
    elif _by_argument(opc) and t == T_FLOAT:
        emit(out, opc, MATH_RULES[k, MATH_MODE], line)


@nrt_free
def emit_math_end(out, k, nargs, line):
    """After the last of nargs arguments of math function k: its instruction (log(x, base):
    MATH_FLOAT2's)."""
    opc = MATH_RULES[k, MATH_OPCODE]
    if _by_argument(opc):
        return
    if k == LOG and nargs == 2:
        emit(out, O.MATH_FLOAT2, LOG_BASE, line)
    else:
        emit(out, opc, MATH_RULES[k, MATH_MODE], line)
