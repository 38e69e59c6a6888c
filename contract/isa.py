"""THE instruction-set table of the gpucc VM: every fact about an instruction is here.

Every instruction is fixed width: one opcode and one int32 operand.  Operands are
small and local so that a model can write bytecode and the verifier can check it:

* ``LOCAL``  a slot index in the current frame (``0 <= slot < nlocals``)
* ``CONST``  an index into the current unit's constant pool
* ``IMM``    an immediate int32 value
* ``JUMP``   a target in instruction units, relative to the current function's entry
* ``FUNC``   an index into the current unit's function table
* ``TYPED_CMP`` a comparison and its operands' types (contract.valuetypes codes), packed by
  :func:`typed_cmp` and split by :func:`typed_cmp_fields` (ASSERT_CMP, COMPARE_NUM,
  LIST_CONTAINS)
* ``NONE``   must be 0

Packed kinds hold two 16-bit fields: ``lo = arg & 0xFFFF`` (unsigned) and ``hi = arg >> 16``
(signed; see :func:`pack`):

* ``LOCAL2``     two slots (lo, hi)
* ``LOCAL_IMM``  a slot (lo) and an immediate (hi, -32768..32767)
* ``IMM_JUMP``   a jump target (lo, as ``JUMP``) and an immediate (hi)
* ``LOCAL_JUMP`` a jump target (lo) and a slot (hi)
* ``LOCAL2_JUMP``    a jump target (lo) and two slots: hi = a + 256 * b (a < 256, b < 128)
* ``LOCAL_IMM_JUMP`` a jump target (lo), a slot and an immediate: hi = slot + 256 * k
  (slot < 256, -128 <= k < 128)

:data:`FIELDS` names each packed kind's fields in the order the assembler and the
disassembler write them; :func:`make_operand` / :func:`operand_fields` convert.

Superinstructions do exactly what a sequence of plain instructions does, as one step: each
one's sequence is in :data:`EXPANSIONS` and its cost is the sequence's, so a program's cost
does not depend on which of them a compiler used.

Each instruction's facts are an :class:`Op`: the table's columns (operand kind, stack effect,
cost, meaning) and the named groups below the rows (KEEPS_ON_JUMP, SLOT_WIDTHS, IMM_MAXES).
The rows come in nine groups, in this order: ``int`` (what the VM kernel's hot loop runs),
``numeric`` (floats and the other int operations), ``list``, ``str``, ``value`` (tuples,
Optional and values of any structured type), ``dict`` (dicts and sets), ``exc`` (raise, try /
except), ``module`` (module code and globals) and ``math`` (the math module); FIRST_NUMERIC,
FIRST_LIST, FIRST_STR, FIRST_VALUE, FIRST_DICT, FIRST_EXC, FIRST_MODULE and FIRST_MATH are where
the last eight begin.  Kernels index per-opcode numpy columns derived from the table (POPS,
PUSHES, COSTS, OPERAND_KIND, KEEPS, SLOT_WIDTH, IMM_MAX, IS_JUMP, IS_FOR_TEST).  The rows
themselves, group by group, and the operand kinds are contract/isa_rows.py's; the opcode
constants (``LOAD_VAR = 3``) are plain assignments in contract/opcodes.py, re-exported here and
checked against the table.

This module imports no numba (the plugin loads it without --gpu-candidates):
contract/jitable.py registers its operand functions for kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gpucc.contract.isa_rows import (  # noqa: F401 - the operand kinds, NO_ARG and NONE_REF re-exported
    _DICT_ROWS,
    _EXC_ROWS,
    _INT_ROWS,
    _LIST_ROWS,
    _MATH_ROWS,
    _MODULE_ROWS,
    _NUMERIC_ROWS,
    _STR_ROWS,
    _VALUE_ROWS,
    ARG_CONST,
    ARG_FUNC,
    ARG_IMM,
    ARG_IMM_JUMP,
    ARG_JUMP,
    ARG_LOCAL,
    ARG_LOCAL2,
    ARG_LOCAL2_JUMP,
    ARG_LOCAL_IMM,
    ARG_LOCAL_IMM_JUMP,
    ARG_LOCAL_JUMP,
    ARG_NONE,
    ARG_TYPED_CMP,
    NO_ARG,
    NONE_REF,
    OPERAND_KINDS,
    VARIABLE,
)
from gpucc.contract.opcodes import *  # noqa: F403 - the opcodes as plain names, checked at the end


@dataclass(frozen=True)
class Op:
    number: int
    name: str
    operand: int  # one of ARG_*
    pops: int  # VARIABLE for CALL and NEW_LIST
    pushes: int
    cost: int  # weight in the deterministic cost model
    doc: str
    group: str  # "int", "numeric", "list", "str", "value", "dict", "exc", "module" or "math"
    keeps: int  # 1 if in KEEPS_ON_JUMP
    slot_width: int  # SLOT_WIDTHS: slots a LOCAL operand names (arg .. arg + width - 1)
    imm_max: int  # IMM_MAXES: the largest IMM operand taken (0 .. imm_max); -1: any int32


# the math functions each IMM operand names (compiler/modules.py, the disassembler)
MATH_MODES = {
    "MATH_FLOAT": ("sqrt", "exp", "log", "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "fabs",
                   "degrees", "radians"),
    "MATH_FLOAT2": ("pow", "atan2", "copysign", "log"),
    "MATH_TO_INT": ("floor", "ceil"),
    "MATH_TEST": ("isnan", "isinf", "isfinite"),
    "MATH_INT": ("isqrt", "factorial"),
    "MATH_INT2": ("gcd", "lcm", "comb", "perm"),
}  # fmt: skip

# Named groups of per-instruction facts (the Op fields keeps, slot_width, imm_max):
# jumps that keep a value falling through does not have: `and` / `or` keep their operand when
# they jump and pop it falling through; FOR_LOOP pushes the counter only when it jumps
KEEPS_ON_JUMP = ("JUMP_IF_FALSE_OR_POP", "JUMP_IF_TRUE_OR_POP", "FOR_LOOP")
# LOCAL operands naming more than one slot: (counter, stop, step) and (list, index)
SLOT_WIDTHS = {"FOR_RANGE": 3, "RANGE_CHECK": 3, "FOR_LIST": 2,
               **{n: 2 for n in ("FOR_DICT_KEYS", "FOR_DICT_VALUES", "FOR_DICT_ITEMS", "FOR_SET")}}
# the for loops' tests: push the next value and skip the next instruction (a JUMP out of the
# loop), or fall through to it pushing nothing
FOR_TESTS = ("FOR_RANGE", "FOR_LIST", "FOR_DICT_KEYS", "FOR_DICT_VALUES", "FOR_DICT_ITEMS", "FOR_SET")
# IMM operands with a range: NEW_LIST's count, LIST_SLICE's bits, the element kinds (0 ints,
# 1 floats, 2 strs: LIST_SUM takes no strs), the str modes (STR_GET's: a str or its code point),
# STR_FROM / STR_TO_NUM's type codes
IMM_MAXES = {"NEW_LIST": 255, "LIST_SLICE": 7, "LIST_SET_SLICE": 7, "LIST_SUM": 1,
             **{n: 2 for n in ("LIST_MIN", "LIST_MAX", "LIST_SORTED", "LIST_SORT", "LIST_EQ")},
             "STR_GET": 1, "STR_FIND": 6, "STR_CASE": 5, "STR_IS": 7, "STR_STRIP": 2, "STR_SPLIT": 1, "STR_PAD": 3,
             "STR_FROM": 3, "STR_TO_NUM": 3, "STR_RADIX": 16, "UNPACK_CHECK": 255, "UNBOX": 1, "DICT_LIST": 3,
             "RAISE": 62, **{n: len(modes) - 1 for n, modes in MATH_MODES.items()}, "MATH_PROD": 1}  # fmt: skip

_GROUPS = (("int", _INT_ROWS), ("numeric", _NUMERIC_ROWS), ("list", _LIST_ROWS), ("str", _STR_ROWS),
           ("value", _VALUE_ROWS), ("dict", _DICT_ROWS), ("exc", _EXC_ROWS), ("module", _MODULE_ROWS),
           ("math", _MATH_ROWS))
TABLE: tuple[Op, ...] = tuple(
    Op(number, *row, group, int(row[0] in KEEPS_ON_JUMP), SLOT_WIDTHS.get(row[0], 1), IMM_MAXES.get(row[0], -1))
    for number, (group, row) in enumerate((group, row) for group, rows in _GROUPS for row in rows)
)
BY_NAME: dict[str, Op] = {op.name: op for op in TABLE}
NUM_OPCODES = len(TABLE)
FIRST_NUMERIC = len(_INT_ROWS)  # the numeric group's first opcode, then the list group's
FIRST_LIST = len(_INT_ROWS) + len(_NUMERIC_ROWS)
FIRST_STR = FIRST_LIST + len(_LIST_ROWS)
FIRST_VALUE = FIRST_STR + len(_STR_ROWS)
FIRST_DICT = FIRST_VALUE + len(_VALUE_ROWS)
FIRST_EXC = FIRST_DICT + len(_DICT_ROWS)
FIRST_MODULE = FIRST_EXC + len(_EXC_ROWS)
FIRST_MATH = FIRST_MODULE + len(_MODULE_ROWS)

# Comparison codes used by ASSERT_CMP operands (and by the compiler's COMPARE nodes).
CMP_NAMES = ("<", "<=", "==", "!=", ">", ">=")
CMP_LT, CMP_LE, CMP_EQ, CMP_NE, CMP_GT, CMP_GE = range(6)
CMP_OPCODES = tuple(BY_NAME[f"COMPARE_{c}"].number for c in ("LT", "LE", "EQ", "NE", "GT", "GE"))

JUMP_KINDS = (ARG_JUMP, ARG_IMM_JUMP, ARG_LOCAL_JUMP, ARG_LOCAL2_JUMP, ARG_LOCAL_IMM_JUMP)
JUMP_OPCODES = tuple(op.number for op in TABLE if op.operand in JUMP_KINDS)
# Instructions after which control never falls through to pc + 1.
TERMINATORS = (BY_NAME["JUMP"].number, BY_NAME["RETURN"].number, BY_NAME["RETURN_VAR"].number,
               BY_NAME["FELL_OFF"].number, BY_NAME["RAISE"].number, BY_NAME["RERAISE"].number,
               BY_NAME["MODULE_END"].number)
FIELD_MIN, FIELD_MAX = -(2**15), 2**15 - 1  # the signed hi field; lo is 0 .. 2**16 - 1
# packed kind -> its fields as written, each an operand kind
FIELDS = {
    ARG_LOCAL2: (ARG_LOCAL, ARG_LOCAL),
    ARG_LOCAL_IMM: (ARG_LOCAL, ARG_IMM),
    ARG_IMM_JUMP: (ARG_IMM, ARG_JUMP),
    ARG_LOCAL_JUMP: (ARG_LOCAL, ARG_JUMP),
    ARG_LOCAL2_JUMP: (ARG_LOCAL, ARG_LOCAL, ARG_JUMP),
    ARG_LOCAL_IMM_JUMP: (ARG_LOCAL, ARG_IMM, ARG_JUMP),
}
PACKED_KINDS = tuple(FIELDS)

# Per-opcode columns for kernels (int64 / int32 numpy arrays indexed by opcode).  VARIABLE pops
# are 0 in POPS: the caller adds the operand's count (CALL: the callee's nparams; NEW_LIST: arg).
POPS = np.array([max(op.pops, 0) for op in TABLE], dtype=np.int64)
PUSHES = np.array([op.pushes for op in TABLE], dtype=np.int64)
COSTS = np.array([op.cost for op in TABLE], dtype=np.int64)
OPERAND_KIND = np.array([op.operand for op in TABLE], dtype=np.int32)
KEEPS = np.array([op.keeps for op in TABLE], dtype=np.int32)
SLOT_WIDTH = np.array([op.slot_width for op in TABLE], dtype=np.int32)
IMM_MAX = np.array([op.imm_max for op in TABLE], dtype=np.int32)
IS_JUMP = np.array([op.operand in JUMP_KINDS for op in TABLE], dtype=np.int32)
IS_FOR_TEST = np.array([op.name in FOR_TESTS for op in TABLE], dtype=np.int32)


def typed_cmp(cmp, ltype, rtype):
    """The TYPED_CMP operand of comparison `cmp` (CMP_*) between values of types ltype, rtype."""
    return cmp + 8 * ltype + 128 * rtype


def typed_cmp_fields(arg):
    """(cmp, ltype, rtype) of a TYPED_CMP operand."""
    return arg & 7, (arg >> 3) & 15, arg >> 7


def typed_values(cmp, ltype, rtype):
    """The int64 constant of a VALUE_CMP / ASSERT_VALUE / VALUE_CONTAINS: comparison `cmp`
    (CMP_*) of values of packed types ltype, rtype (each below 2**28; int32 ones too: rtype is
    widened before its shift)."""
    return cmp | (ltype << 3) | (np.int64(rtype) << 32)


def typed_values_fields(c):
    """(cmp, ltype, rtype) of a typed_values constant."""
    return c & 7, (c >> 3) & 0xFFFFFFF, c >> 32


def pack(lo: int, hi: int) -> int:
    """The int32 operand holding lo (0 .. 65535) and hi (-32768 .. 32767)."""
    if not (0 <= lo <= 0xFFFF and FIELD_MIN <= hi <= FIELD_MAX):
        raise ValueError(f"packed operand fields out of range: lo {lo}, hi {hi}")
    return pack_fields(lo, hi)


def pack_fields(lo, hi):
    """pack() for fields the caller has checked (kernels: no exceptions)."""
    return (hi << 16) | lo


def unpack(arg: int) -> tuple[int, int]:
    """(lo, hi) of a packed operand."""
    return arg & 0xFFFF, arg >> 16


def make_operand(kind: int, *fields: int) -> int:
    """The operand of packed `kind` with `fields` in FIELDS order; ValueError if one does
    not fit."""
    if len(fields) != len(FIELDS[kind]):
        raise ValueError(f"{OPERAND_KINDS[kind]} takes {len(FIELDS[kind])} fields, got {len(fields)}")
    if kind in (ARG_LOCAL2_JUMP, ARG_LOCAL_IMM_JUMP):
        a, b, target = fields
        low, high = (0, 255), (0, 127) if kind == ARG_LOCAL2_JUMP else (-128, 127)
        if not (low[0] <= a <= low[1] and high[0] <= b <= high[1]):
            raise ValueError(f"packed operand fields out of range: {a}, {b}")
        return pack(target, a + 256 * b)
    if kind in (ARG_LOCAL2, ARG_LOCAL_IMM):
        return pack(*fields)
    return pack(fields[1], fields[0])  # (imm or slot, target)


def operand_fields(kind: int, arg: int) -> tuple[int, ...]:
    """The fields of a packed operand, in FIELDS order."""
    lo, hi = unpack(arg)
    if kind in (ARG_LOCAL2_JUMP, ARG_LOCAL_IMM_JUMP):
        return hi & 0xFF, hi >> 8, lo
    return (lo, hi) if kind in (ARG_LOCAL2, ARG_LOCAL_IMM) else (hi, lo)


def jump_target(op, arg):
    """The jump target (relative to the function's entry) of a jump instruction."""
    return arg if OPERAND_KIND[op] == ARG_JUMP else arg & 0xFFFF


def _expansions() -> dict:
    """opcode -> (operand -> [(opcode, operand), ...]) for every superinstruction."""
    n = BY_NAME
    lo, hi = (lambda a: a & 0xFFFF), (lambda a: a >> 16)
    names = ("LOAD_VAR", "LOAD_INT", "STORE_VAR", "BINARY_ADD", "RETURN", "JUMP_IF_FALSE")
    LOAD_VAR, LOAD_INT, STORE_VAR, BINARY_ADD, RETURN, JUMP_IF_FALSE = (n[k].number for k in names)
    out = {
        n["INC_VAR"].number: lambda a: [(LOAD_VAR, a), (LOAD_INT, 1), (BINARY_ADD, 0), (STORE_VAR, a)],
        n["LOAD_VAR2"].number: lambda a: [(LOAD_VAR, lo(a)), (LOAD_VAR, hi(a))],
        n["STORE_LOAD"].number: lambda a: [(STORE_VAR, lo(a)), (LOAD_VAR, hi(a))],
        n["RETURN_VAR"].number: lambda a: [(LOAD_VAR, a), (RETURN, 0)],
        n["ADD_TO_VAR"].number: lambda a: [(LOAD_VAR, lo(a)), (LOAD_INT, hi(a)), (BINARY_ADD, 0), (STORE_VAR, lo(a))],
    }
    for k, b in enumerate(("ADD", "SUB", "MUL", "FLOORDIV", "MOD")):
        op = n[f"BINARY_{b}"].number
        out[n[f"BINARY_{b}_INT"].number] = lambda a, op=op: [(LOAD_INT, a), (op, 0)]
        out[n[f"VAR_{b}_INT"].number] = lambda a, op=op: [(LOAD_VAR, lo(a)), (LOAD_INT, hi(a)), (op, 0)]
    for c in ("LT", "LE", "EQ", "NE", "GT", "GE"):
        cmp = n[f"COMPARE_{c}"].number
        out[n[f"JUMP_IF_NOT_{c}"].number] = lambda a, cmp=cmp: [(cmp, 0), (JUMP_IF_FALSE, a)]
        out[n[f"JUMP_IF_NOT_{c}_INT"].number] = lambda a, cmp=cmp: [(LOAD_INT, hi(a)), (cmp, 0), (JUMP_IF_FALSE, lo(a))]
        for suffix, second in (("VARS", LOAD_VAR), ("VAR_INT", LOAD_INT)):
            kind = n[f"JUMP_IF_NOT_{c}_{suffix}"].operand
            out[n[f"JUMP_IF_NOT_{c}_{suffix}"].number] = lambda a, cmp=cmp, second=second, kind=kind: [
                (LOAD_VAR, operand_fields(kind, a)[0]), (second, operand_fields(kind, a)[1]), (cmp, 0),
                (JUMP_IF_FALSE, operand_fields(kind, a)[2])]  # fmt: skip
    return out


# Superinstruction -> the plain instructions it stands for (a function of its operand).
EXPANSIONS = _expansions()
for _op, _expand in EXPANSIONS.items():  # each costs what its sequence costs
    assert TABLE[_op].cost == sum(TABLE[o].cost for o, _ in _expand(0)), TABLE[_op].name


assert all(globals()[op.name] == op.number for op in TABLE), "opcode constants out of date"
