"""THE instruction-set table of the gpucc VM.

Every instruction is fixed width: one opcode and one int32 operand.  Operands are
small and local so that a model can write bytecode and the verifier can check it:

* ``LOCAL``  a slot index in the current frame (``0 <= slot < nlocals``)
* ``CONST``  an index into the current unit's constant pool
* ``IMM``    an immediate int32 value
* ``JUMP``   a target in instruction units, relative to the current function's entry
* ``FUNC``   an index into the current unit's function table
* ``ASSERT`` ``cmp + 8 * type`` (the comparison of a failed assert and its operands' type)
* ``NONE``   must be 0

Everything else (opcode constants, the disassembler, the verifier, the stack
effects used by codegen, instruction costs) is derived from :data:`TABLE`.
"""

from __future__ import annotations

from dataclasses import dataclass

# operand kinds
OPERAND_KINDS = ("NONE", "LOCAL", "CONST", "IMM", "JUMP", "FUNC", "ASSERT")
(ARG_NONE, ARG_LOCAL, ARG_CONST, ARG_IMM, ARG_JUMP, ARG_FUNC, ARG_ASSERT) = range(len(OPERAND_KINDS))

# Pseudo stack effect: CALL pops the callee's parameter count.
VARIABLE = -1


@dataclass(frozen=True)
class Op:
    number: int
    name: str
    operand: int  # one of ARG_*
    pops: int  # VARIABLE for CALL
    pushes: int
    cost: int  # weight in the deterministic cost model
    doc: str


# name, operand kind, pops, pushes, cost, meaning
_ROWS = [
    ("NOP", ARG_NONE, 0, 0, 1, "do nothing"),
    ("LOAD_CONST", ARG_CONST, 0, 1, 1, "push consts[arg]"),
    ("LOAD_INT", ARG_IMM, 0, 1, 1, "push the immediate arg"),
    ("LOAD_VAR", ARG_LOCAL, 0, 1, 1, "push local slot arg"),
    ("STORE_VAR", ARG_LOCAL, 1, 0, 1, "pop into local slot arg"),
    ("POP_TOP", ARG_NONE, 1, 0, 1, "drop the top of stack"),
    ("DUP_TOP", ARG_NONE, 1, 2, 1, "a -> a a"),
    ("ROT_TWO", ARG_NONE, 2, 2, 1, "a b -> b a"),
    ("ROT_THREE", ARG_NONE, 3, 3, 1, "a b c -> c a b"),
    ("BINARY_ADD", ARG_NONE, 2, 1, 1, "int a + b; OverflowError outside int64"),
    ("BINARY_SUB", ARG_NONE, 2, 1, 1, "int a - b; OverflowError outside int64"),
    ("BINARY_MUL", ARG_NONE, 2, 1, 2, "int a * b; OverflowError outside int64"),
    ("BINARY_FLOORDIV", ARG_NONE, 2, 1, 4, "int a // b (floor); ZeroDivisionError, OverflowError"),
    ("BINARY_MOD", ARG_NONE, 2, 1, 4, "int a % b (sign of b); ZeroDivisionError"),
    ("UNARY_NEG", ARG_NONE, 1, 1, 1, "int -a; OverflowError for -(2**63)"),
    ("UNARY_NOT", ARG_NONE, 1, 1, 1, "bool not a"),
    ("COMPARE_LT", ARG_NONE, 2, 1, 1, "a < b"),
    ("COMPARE_LE", ARG_NONE, 2, 1, 1, "a <= b"),
    ("COMPARE_EQ", ARG_NONE, 2, 1, 1, "a == b"),
    ("COMPARE_NE", ARG_NONE, 2, 1, 1, "a != b"),
    ("COMPARE_GT", ARG_NONE, 2, 1, 1, "a > b"),
    ("COMPARE_GE", ARG_NONE, 2, 1, 1, "a >= b"),
    ("JUMP", ARG_JUMP, 0, 0, 1, "pc = entry + arg"),
    ("JUMP_IF_FALSE", ARG_JUMP, 1, 0, 1, "pop; jump if it is false"),
    ("JUMP_IF_TRUE", ARG_JUMP, 1, 0, 1, "pop; jump if it is true"),
    ("JUMP_IF_FALSE_OR_POP", ARG_JUMP, 1, 1, 1, "if top is false jump (keep it), else pop (`and`)"),
    ("JUMP_IF_TRUE_OR_POP", ARG_JUMP, 1, 1, 1, "if top is true jump (keep it), else pop (`or`)"),
    (
        "FOR_RANGE",
        ARG_LOCAL,
        0,
        1,
        1,
        "slots arg, arg+1, arg+2 hold counter, stop, step: if the counter is inside the range "
        "push it, advance the counter and skip the next instruction; else fall through to the "
        "next instruction (a JUMP out of the loop) pushing nothing",
    ),
    ("RANGE_CHECK", ARG_LOCAL, 0, 0, 1, "ValueError if the step in slot arg+2 is 0"),
    ("CALL", ARG_FUNC, VARIABLE, 1, 5, "call unit function arg with its nparams arguments"),
    ("RETURN", ARG_NONE, 1, 0, 2, "return the top of stack to the caller"),
    ("ASSERT_TRUE", ARG_NONE, 1, 0, 1, "pop; AssertionError if false"),
    ("ASSERT_CMP", ARG_ASSERT, 2, 0, 1, "pop b, a; AssertionError unless a <cmp> b (cmp = arg % 8)"),
    # Superinstructions (optional peepholes for codegen).  Each costs what the sequence it
    # replaces costs, so a candidate's cost does not depend on whether they were used.
    ("JUMP_IF_NOT_LT", ARG_JUMP, 2, 0, 2, "pop b, a; jump unless a < b (COMPARE_LT + JUMP_IF_FALSE)"),
    ("JUMP_IF_NOT_LE", ARG_JUMP, 2, 0, 2, "pop b, a; jump unless a <= b"),
    ("JUMP_IF_NOT_EQ", ARG_JUMP, 2, 0, 2, "pop b, a; jump unless a == b"),
    ("JUMP_IF_NOT_NE", ARG_JUMP, 2, 0, 2, "pop b, a; jump unless a != b"),
    ("JUMP_IF_NOT_GT", ARG_JUMP, 2, 0, 2, "pop b, a; jump unless a > b"),
    ("JUMP_IF_NOT_GE", ARG_JUMP, 2, 0, 2, "pop b, a; jump unless a >= b"),
    ("BINARY_ADD_INT", ARG_IMM, 1, 1, 2, "a + arg (LOAD_INT arg + BINARY_ADD)"),
    ("BINARY_SUB_INT", ARG_IMM, 1, 1, 2, "a - arg (LOAD_INT arg + BINARY_SUB)"),
    ("BINARY_MUL_INT", ARG_IMM, 1, 1, 3, "a * arg (LOAD_INT arg + BINARY_MUL)"),
    ("BINARY_FLOORDIV_INT", ARG_IMM, 1, 1, 5, "a // arg (LOAD_INT arg + BINARY_FLOORDIV)"),
    ("BINARY_MOD_INT", ARG_IMM, 1, 1, 5, "a % arg (LOAD_INT arg + BINARY_MOD)"),
    ("INC_VAR", ARG_LOCAL, 0, 0, 4, "local slot arg += 1 (LOAD_VAR, LOAD_INT 1, BINARY_ADD, STORE_VAR)"),
]

TABLE: tuple[Op, ...] = tuple(Op(i, *row) for i, row in enumerate(_ROWS))
BY_NAME: dict[str, Op] = {op.name: op for op in TABLE}
NUM_OPCODES = len(TABLE)

# Module-level int constants (LOAD_CONST = 1, ...), usable from numba-compiled code.
globals().update({op.name: op.number for op in TABLE})

# Comparison codes used by ASSERT_CMP operands (and by the compiler's COMPARE nodes).
CMP_NAMES = ("<", "<=", "==", "!=", ">", ">=")
CMP_LT, CMP_LE, CMP_EQ, CMP_NE, CMP_GT, CMP_GE = range(6)
CMP_OPCODES = tuple(BY_NAME[n].number for n in ("COMPARE_LT", "COMPARE_LE", "COMPARE_EQ", "COMPARE_NE", "COMPARE_GT", "COMPARE_GE"))

JUMP_OPCODES = tuple(op.number for op in TABLE if op.operand == ARG_JUMP)
# Instructions after which control never falls through to pc + 1.
TERMINATORS = (BY_NAME["JUMP"].number, BY_NAME["RETURN"].number)


def cost_table():
    """int64 numpy array: cost of each opcode (index = opcode number)."""
    import numpy as np

    return np.array([op.cost for op in TABLE], dtype=np.int64)
