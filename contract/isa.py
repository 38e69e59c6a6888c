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
PUSHES, COSTS, OPERAND_KIND, KEEPS, SLOT_WIDTH, IMM_MAX, IS_JUMP, IS_FOR_TEST).  The opcode
constants (``LOAD_VAR = 3``) are plain assignments at the end, checked against the table.

This module imports no numba (the plugin loads it without --gpu-candidates):
contract/jitable.py registers its operand functions for kernels.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# operand kinds
OPERAND_KINDS = ("NONE", "LOCAL", "CONST", "IMM", "JUMP", "FUNC", "TYPED_CMP", "LOCAL2", "LOCAL_IMM", "IMM_JUMP",
                 "LOCAL_JUMP", "LOCAL2_JUMP", "LOCAL_IMM_JUMP")  # fmt: skip
(ARG_NONE, ARG_LOCAL, ARG_CONST, ARG_IMM, ARG_JUMP, ARG_FUNC, ARG_TYPED_CMP, ARG_LOCAL2, ARG_LOCAL_IMM,
 ARG_IMM_JUMP, ARG_LOCAL_JUMP, ARG_LOCAL2_JUMP, ARG_LOCAL_IMM_JUMP) = range(len(OPERAND_KINDS))  # fmt: skip

# Pseudo stack effect: CALL pops the callee's parameter count, NEW_LIST its operand.
VARIABLE = -1


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


# name, operand kind, pops, pushes, cost, meaning
_INT_ROWS = [    ("NOP", ARG_NONE, 0, 0, 1, "do nothing"),
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
    ("ASSERT_CMP", ARG_TYPED_CMP, 2, 0, 1, "pop b, a; AssertionError unless a <cmp> b (cmp, types: typed_cmp_fields(arg))"),
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
    # register-style superinstructions with packed operands (lo, hi)
    ("LOAD_VAR2", ARG_LOCAL2, 0, 2, 2, "push local lo, then local hi"),
    ("STORE_LOAD", ARG_LOCAL2, 1, 1, 2, "pop into local lo, then push local hi"),
    ("RETURN_VAR", ARG_LOCAL, 0, 0, 3, "return local arg (LOAD_VAR arg + RETURN)"),
    ("VAR_ADD_INT", ARG_LOCAL_IMM, 0, 1, 3, "push local lo + hi; OverflowError outside int64"),
    ("VAR_SUB_INT", ARG_LOCAL_IMM, 0, 1, 3, "push local lo - hi; OverflowError outside int64"),
    ("VAR_MUL_INT", ARG_LOCAL_IMM, 0, 1, 4, "push local lo * hi; OverflowError outside int64"),
    ("VAR_FLOORDIV_INT", ARG_LOCAL_IMM, 0, 1, 6, "push local lo // hi; ZeroDivisionError, OverflowError"),
    ("VAR_MOD_INT", ARG_LOCAL_IMM, 0, 1, 6, "push local lo % hi; ZeroDivisionError"),
    ("ADD_TO_VAR", ARG_LOCAL_IMM, 0, 0, 4, "local lo += hi; OverflowError outside int64"),
    ("JUMP_IF_NOT_LT_INT", ARG_IMM_JUMP, 1, 0, 3, "pop a; jump to lo unless a < hi"),
    ("JUMP_IF_NOT_LE_INT", ARG_IMM_JUMP, 1, 0, 3, "pop a; jump to lo unless a <= hi"),
    ("JUMP_IF_NOT_EQ_INT", ARG_IMM_JUMP, 1, 0, 3, "pop a; jump to lo unless a == hi"),
    ("JUMP_IF_NOT_NE_INT", ARG_IMM_JUMP, 1, 0, 3, "pop a; jump to lo unless a != hi"),
    ("JUMP_IF_NOT_GT_INT", ARG_IMM_JUMP, 1, 0, 3, "pop a; jump to lo unless a > hi"),
    ("JUMP_IF_NOT_GE_INT", ARG_IMM_JUMP, 1, 0, 3, "pop a; jump to lo unless a >= hi"),
    (
        "FOR_LOOP",
        ARG_LOCAL_JUMP,
        0,
        1,
        1,
        "the bottom test of a for loop over slots hi, hi+1, hi+2 (counter, stop, step): if the "
        "counter is inside the range push it, advance the counter and jump to lo; else fall "
        "through pushing nothing",
    ),
    # compare locals (or a local and a small immediate) and branch: the loop and if tests
    ("JUMP_IF_NOT_LT_VARS", ARG_LOCAL2_JUMP, 0, 0, 4, "jump unless local a < local b"),
    ("JUMP_IF_NOT_LE_VARS", ARG_LOCAL2_JUMP, 0, 0, 4, "jump unless local a <= local b"),
    ("JUMP_IF_NOT_EQ_VARS", ARG_LOCAL2_JUMP, 0, 0, 4, "jump unless local a == local b"),
    ("JUMP_IF_NOT_NE_VARS", ARG_LOCAL2_JUMP, 0, 0, 4, "jump unless local a != local b"),
    ("JUMP_IF_NOT_GT_VARS", ARG_LOCAL2_JUMP, 0, 0, 4, "jump unless local a > local b"),
    ("JUMP_IF_NOT_GE_VARS", ARG_LOCAL2_JUMP, 0, 0, 4, "jump unless local a >= local b"),
    ("JUMP_IF_NOT_LT_VAR_INT", ARG_LOCAL_IMM_JUMP, 0, 0, 4, "jump unless local x < k"),
    ("JUMP_IF_NOT_LE_VAR_INT", ARG_LOCAL_IMM_JUMP, 0, 0, 4, "jump unless local x <= k"),
    ("JUMP_IF_NOT_EQ_VAR_INT", ARG_LOCAL_IMM_JUMP, 0, 0, 4, "jump unless local x == k"),
    ("JUMP_IF_NOT_NE_VAR_INT", ARG_LOCAL_IMM_JUMP, 0, 0, 4, "jump unless local x != k"),
    ("JUMP_IF_NOT_GT_VAR_INT", ARG_LOCAL_IMM_JUMP, 0, 0, 4, "jump unless local x > k"),
    ("JUMP_IF_NOT_GE_VAR_INT", ARG_LOCAL_IMM_JUMP, 0, 0, 4, "jump unless local x >= k"),]
_NUMERIC_ROWS = [    # ints beyond + - * // %: bitwise, shifts, power, abs / min / max, truth
    ("BINARY_AND", ARG_NONE, 2, 1, 1, "int a & b"),
    ("BINARY_OR", ARG_NONE, 2, 1, 1, "int a | b"),
    ("BINARY_XOR", ARG_NONE, 2, 1, 1, "int a ^ b"),
    ("BINARY_LSHIFT", ARG_NONE, 2, 1, 1, "int a << b; ValueError if b < 0, OverflowError outside int64"),
    ("BINARY_RSHIFT", ARG_NONE, 2, 1, 1, "int a >> b (floor); ValueError if b < 0"),
    ("UNARY_INVERT", ARG_NONE, 1, 1, 1, "int ~a"),
    ("BINARY_POW", ARG_NONE, 2, 1, 4, "int a ** b; ValueError if b < 0, OverflowError outside int64"),
    ("INT_ABS", ARG_NONE, 1, 1, 1, "int abs(a); OverflowError for -(2**63)"),
    ("INT_MIN2", ARG_NONE, 2, 1, 1, "int min(a, b)"),
    ("INT_MAX2", ARG_NONE, 2, 1, 1, "int max(a, b)"),
    ("INT_TRUTH", ARG_NONE, 1, 1, 1, "bool(a) of an int"),
    # floats (IEEE doubles as their bits in a slot), Python's semantics
    ("INT_TO_FLOAT", ARG_NONE, 1, 1, 1, "float(a) of an int (round to nearest)"),
    ("FLOAT_TO_INT", ARG_NONE, 1, 1, 1, "int(a) of a float (toward 0); ValueError nan, OverflowError outside int64"),
    ("FLOAT_TRUTH", ARG_NONE, 1, 1, 1, "bool(a) of a float (a != 0.0)"),
    ("FLOAT_ADD", ARG_NONE, 2, 1, 1, "float a + b"),
    ("FLOAT_SUB", ARG_NONE, 2, 1, 1, "float a - b"),
    ("FLOAT_MUL", ARG_NONE, 2, 1, 2, "float a * b"),
    ("FLOAT_DIV", ARG_NONE, 2, 1, 4, "float a / b; ZeroDivisionError"),
    ("FLOAT_FLOORDIV", ARG_NONE, 2, 1, 4, "float a // b (floor); ZeroDivisionError"),
    ("FLOAT_MOD", ARG_NONE, 2, 1, 4, "float a % b (sign of b); ZeroDivisionError"),
    ("FLOAT_POW", ARG_NONE, 2, 1, 4, "float a ** b; ZeroDivisionError 0.0 ** -x, ValueError (-a) ** fraction, "
     "OverflowError"),
    ("FLOAT_NEG", ARG_NONE, 1, 1, 1, "float -a"),
    ("FLOAT_ABS", ARG_NONE, 1, 1, 1, "float abs(a)"),
    ("FLOAT_MIN2", ARG_NONE, 2, 1, 1, "float min(a, b): b if b < a else a (Python's order for nan)"),
    ("FLOAT_MAX2", ARG_NONE, 2, 1, 1, "float max(a, b): b if b > a else a"),
    ("COMPARE_NUM", ARG_TYPED_CMP, 2, 1, 1, "a <cmp> b of the operand types in arg (exact for int vs float)"),
    ("FELL_OFF", ARG_NONE, 0, 0, 1, "end the job with NONE_RETURNED: a function declared to return a value reached "
     "the end of its body (CPython would return None)"),]
# a list value is a handle into the job's heap (vm/kernel_heap.py); `float` operands
# (IMM 0 / 1) say whether the elements are floats.  Ops touching n elements add n to the
# cost (the table cost is the base) -- see vm/kernel_lists.py
_LIST_ROWS = [    ("NEW_LIST", ARG_IMM, VARIABLE, 1, 2, "pop arg values (pushed first to last) into a new list"),
    ("LIST_GET", ARG_NONE, 2, 1, 1, "xs[i] (negative i counts from the end); IndexError"),
    ("LIST_SET", ARG_NONE, 3, 0, 1, "xs[i] = v (pops v, xs, i: v is evaluated first, as in Python); IndexError"),
    ("LIST_LEN", ARG_NONE, 1, 1, 1, "len(xs)"),
    ("LIST_APPEND", ARG_NONE, 2, 0, 2, "xs.append(v) (pops xs, v); MemoryError past the heap"),
    ("LIST_CONTAINS", ARG_TYPED_CMP, 2, 1, 2, "x in xs (pops x, xs): == of x's and the elements' types in arg"),
    ("LIST_SUM", ARG_IMM, 1, 1, 2, "sum(xs) from 0, left to right; OverflowError (ints)"),
    ("LIST_MIN", ARG_IMM, 1, 1, 2, "min(xs); ValueError if empty"),
    ("LIST_MAX", ARG_IMM, 1, 1, 2, "max(xs); ValueError if empty"),
    ("LIST_SORTED", ARG_IMM, 1, 1, 4, "a new list: sorted(xs) (stable, by <)"),
    ("LIST_SORT", ARG_IMM, 1, 0, 4, "xs.sort() in place (stable, by <)"),
    ("LIST_SLICE", ARG_IMM, 4, 1, 3, "xs[start:stop:step] (pops xs, start, stop, step; arg bits 1, 2, 4: "
     "which are given, the others are None); ValueError for step 0"),
    ("LIST_CONCAT", ARG_NONE, 2, 1, 3, "a new list xs + ys"),
    ("LIST_REPEAT", ARG_NONE, 2, 1, 3, "a new list xs * n (n <= 0: empty)"),
    ("LIST_EQ", ARG_IMM, 2, 1, 2, "xs == ys (arg 1: compare elements as floats)"),
    ("FOR_LIST", ARG_LOCAL, 0, 1, 1, "slots arg, arg+1 hold list, index: if index < len(list) push "
     "list[index], advance the index and skip the next instruction; else fall through (a JUMP out)"),
    ("LIST_CLEAR", ARG_NONE, 1, 0, 2, "xs.clear() (pops xs): its length 0, its block kept"),
    ("LIST_EXTEND", ARG_NONE, 2, 0, 2, "xs.extend(ys), xs += ys (pops xs, ys: a list of xs's elements, maybe xs): ys's "
     "elements appended in order; MemoryError past the heap"),
    ("LIST_POP", ARG_NONE, 2, 1, 2, "xs.pop(i) (pops xs, i; pop() is pop(-1)): removes and pushes xs[i] (negative i "
     "counts from the end), the later elements moved down; IndexError when empty or out of range"),
    ("LIST_INSERT", ARG_NONE, 3, 0, 2, "xs.insert(i, v) (pops xs, i, v): i clamped to 0 .. len(xs) as CPython's "
     "(negative counts from the end), the later elements moved up; MemoryError past the heap"),
    ("LIST_REVERSE", ARG_NONE, 1, 0, 2, "xs.reverse() in place (pops xs)"),
    ("LIST_SET_SLICE", ARG_IMM, 5, 0, 3, "xs[start:stop:step] = ys (pops ys, xs, start, stop, step; arg as LIST_SLICE's; "
     "ys a list of xs's elements, copied first when it is xs): a slice of step 1 replaced by ys (xs grows or "
     "shrinks), an extended one's elements assigned in order; ValueError for step 0 or an extended slice of "
     "another length; MemoryError past the heap"),]

# A str is a list (same heap header, vm/kernel_heap.py) whose elements are Unicode code points;
# the list instructions serve it where Python's meaning is the same (len, slices, +, *, ==,
# FOR_LIST gives code points).  A list[str] is a list of str handles.  An optional str
# operand not given is pushed as -1 (NO_ARG).  Ops touching n code points add n to the cost.
_STR_ROWS = [
    ("LOAD_STR", ARG_CONST, 0, 1, 2, "a new str of the code points consts[arg + 1 .. arg + 1 + consts[arg])"),
    ("STR_GET", ARG_NONE, 2, 1, 2, "s[i] (pops s, i) as a new 1-char str; IndexError"),
    ("STR_CHR", ARG_NONE, 1, 1, 2, "chr(i) as a new 1-char str; ValueError unless 0 <= i <= 0x10FFFF "
     "(OverflowError past a C int, as CPython)"),
    ("STR_ORD", ARG_NONE, 1, 1, 1, "ord(s); TypeError unless len(s) == 1"),
    ("STR_CONTAINS", ARG_NONE, 2, 1, 2, "a in b (pops a, b): substring test (the empty str is in every str)"),
    ("STR_FIND", ARG_IMM, 2, 1, 2, "pops s, sub: arg 0 s.find(sub), 1 rfind, 2 index, 3 rindex (ValueError when "
     "absent), 4 count (non-overlapping), 5 startswith (bool), 6 endswith (bool)"),
    ("STR_CASE", ARG_IMM, 1, 1, 2, "a new str: arg 0 s.lower(), 1 upper, 2 swapcase, 3 capitalize, 4 title, "
     "5 casefold (Unicode full case mappings, as CPython)"),
    ("STR_IS", ARG_IMM, 1, 1, 2, "bool: arg 0 s.isdigit(), 1 isalpha, 2 isalnum, 3 isspace, 4 isupper, 5 islower, "
     "6 isdecimal, 7 isnumeric (Unicode properties, as CPython)"),
    ("STR_STRIP", ARG_IMM, 2, 1, 2, "a new str (pops s, chars or NO_ARG: whitespace): arg 0 s.strip(chars), "
     "1 lstrip, 2 rstrip"),
    ("STR_SPLIT", ARG_IMM, 3, 1, 3, "a new list[str] (pops s, sep or NO_ARG: runs of whitespace, maxsplit: -1 "
     "none): arg 0 s.split(sep, maxsplit), 1 rsplit; ValueError for an empty sep"),
    ("STR_JOIN", ARG_NONE, 2, 1, 3, "sep.join(xs) (pops sep, xs: a list[str]) as a new str"),
    ("STR_REPLACE", ARG_NONE, 4, 1, 3, "s.replace(old, new, count) (pops s, old, new, count: -1 all) as a new str"),
    ("STR_PAD", ARG_IMM, 3, 1, 2, "a new str (pops s, width, fill: a 1-char str or NO_ARG: ' '): arg 0 "
     "s.zfill(width) (fill NO_ARG), 1 center, 2 ljust, 3 rjust; TypeError unless len(fill) == 1"),
    ("STR_FROM", ARG_IMM, 1, 1, 3, "str(x) as a new str, x of type arg (contract.valuetypes: int, bool, float; "
     "a float as CPython's repr, the shortest that reads back)"),
    ("STR_TO_NUM", ARG_IMM, 1, 1, 3, "int(s) (arg T_INT) or float(s) (arg T_FLOAT), parsed as CPython does "
     "(whitespace, sign, '_'); ValueError"),
    ("STR_RADIX", ARG_IMM, 1, 1, 3, "a new str of int i in base arg, as CPython: 2 bin(i) '-0b101', 8 oct '0o17', "
     "16 hex '0xff' (lower case)"),
    ("FLOAT_ROUND", ARG_NONE, 2, 1, 4, "round(x, n) of a float x (pops x, n): CPython's correctly rounded result (the "
     "exact decimal rounded half to even, then the nearest double); OverflowError when that is past the largest "
     "double; its scratch is the free heap, as STR_FROM's (MemoryError)"),]
NO_ARG = -1  # an optional str operand not given (STR_STRIP, STR_SPLIT, STR_PAD)

# Structured values (static types: contract/typecodes.py).  A tuple is a list object (same heap
# header) of fixed length, never written after it is built: LIST_GET, LIST_LEN, FOR_LIST and
# LIST_SLICE serve it.  A list[bool] holds 0 / 1, a list of lists, strs or tuples holds handles.
# Optional[T]: None is NONE_REF; a T in the heap is its handle, a scalar T is boxed (the handle
# of a 1-element list).  The types an instruction works on are one constant: VALUE_* ops whose
# CONST operand names `typed_values(cmp, ltype, rtype)` (ltype, rtype packed type codes) or, for
# MIN / MAX / SORT / SORTED, the element's packed type code.  Constants are untrusted like all
# bytecode: a malformed type code ends the job with INVALID_BYTECODE.  Cost: base plus the
# elements and code points visited, as for lists.
_VALUE_ROWS = [
    ("VALUE_CMP", ARG_CONST, 2, 1, 2, "pop b, a; push a <cmp> b (cmp, a's type, b's type: typed_values_fields("
     "consts[arg])): == / != deep equality of any values (int vs float exact, as COMPARE_NUM), the four "
     "orderings lexicographic over tuples, lists and strs; TypeError when an ordering meets None"),
    ("ASSERT_VALUE", ARG_CONST, 2, 0, 2, "pop b, a; AssertionError unless a <cmp> b, as VALUE_CMP"),
    ("VALUE_CONTAINS", ARG_CONST, 2, 1, 2, "x in xs (pops x, xs: a list or tuple; consts[arg] = typed_values(CMP_EQ, "
     "x's type, xs's type)): any element == x, as VALUE_CMP"),
    ("VALUE_MIN", ARG_CONST, 1, 1, 2, "min(xs), xs a list of element type consts[arg], by VALUE_CMP's <; ValueError "
     "if empty"),
    ("VALUE_MAX", ARG_CONST, 1, 1, 2, "max(xs), as VALUE_MIN"),
    ("VALUE_SORTED", ARG_CONST, 1, 1, 4, "a new list sorted(xs) (stable, by VALUE_CMP's <; element type consts[arg])"),
    ("VALUE_SORT", ARG_CONST, 1, 0, 4, "xs.sort() in place (stable, by VALUE_CMP's <; element type consts[arg])"),
    ("UNPACK_CHECK", ARG_IMM, 1, 1, 1, "ValueError unless len(top) == arg (the top stays): `a, b = xs` of a list"),
    ("BOX", ARG_NONE, 1, 1, 2, "a new 1-element box holding the top (a scalar as an Optional value)"),
    ("UNBOX", ARG_IMM, 1, 1, 1, "an Optional value as its T: TypeError if it is NONE_REF (None); arg 1: T is a "
     "scalar, push the value in the box; arg 0: the handle stays"),
    ("VALUE_INDEX", ARG_CONST, 2, 1, 2, "xs.index(x) (pops xs, x; consts[arg] = typed_values(CMP_EQ, x's type, xs's "
     "type)): the first k with xs[k] == x, as VALUE_CMP; ValueError when none"),
    ("VALUE_COUNT", ARG_CONST, 2, 1, 2, "xs.count(x), as VALUE_INDEX: how many elements == x"),
    ("VALUE_REMOVE", ARG_CONST, 2, 0, 2, "xs.remove(x), as VALUE_INDEX: the first element == x deleted, the later "
     "ones moved down; ValueError when none"),]
NONE_REF = -1  # None as an Optional value (no handle is negative)

# Dicts and sets (vm/reference_dict.py and reference_set.py are the spec, vm/kernel_keyed.py the
# kernel's; the heap layout of the objects is vm/kernel_dict.py's and vm/kernel_set.py's doc).  CONST operands name the dict's or set's
# packed type code (contract/typecodes.py): its key / element type says how keys hash and
# compare (int, bool, float, str, or a tuple of those); a malformed one is INVALID_BYTECODE.
# A dict iterates in insertion order, a set in CPython's table order (its hash, probing and
# resizing rules).  Cost: base plus the table slots probed, the code points and fields hashed,
# the entries moved by a resize and the elements visited.
_DICT_ROWS = [
    ("NEW_DICT", ARG_NONE, 0, 1, 3, "push a new empty dict"),
    ("DICT_SET", ARG_CONST, 3, 0, 2, "d[k] = v (pops v, d, k: v is evaluated first, as in Python)"),
    ("DICT_GET", ARG_CONST, 2, 1, 2, "d[k] (pops d, k); KeyError"),
    ("DICT_GET_DEFAULT", ARG_CONST, 3, 1, 2, "d.get(k, default) (pops d, k, default)"),
    ("DICT_CONTAINS", ARG_CONST, 2, 1, 2, "k in d (pops k, d)"),
    ("DICT_DEL", ARG_CONST, 2, 0, 2, "del d[k] (pops d, k); KeyError"),
    ("DICT_POP", ARG_CONST, 2, 1, 2, "d.pop(k) (pops d, k); KeyError"),
    ("DICT_POP_DEFAULT", ARG_CONST, 3, 1, 2, "d.pop(k, default) (pops d, k, default)"),
    ("DICT_SETDEFAULT", ARG_CONST, 3, 1, 2, "d.setdefault(k, default) (pops d, k, default)"),
    ("DICT_UPDATE", ARG_CONST, 2, 0, 2, "d.update(e) (pops d, e: a dict of d's type), e's entries in order"),
    ("DICT_EQ", ARG_CONST, 2, 1, 2, "a == b of dicts (pops a, b): the same keys, == values (as VALUE_CMP)"),
    ("COLL_LEN", ARG_NONE, 1, 1, 1, "len(x) of a dict or set"),
    ("DICT_LIST", ARG_IMM, 1, 1, 3, "a new list of a dict's arg 0 keys, 1 values, 2 (key, value) tuples, in order; "
     "3 a set's elements, in its table's order"),
    ("FOR_DICT_KEYS", ARG_LOCAL, 0, 1, 1, "slots arg, arg+1 hold a dict and the loop's state: push the next key "
     "and skip the next instruction, or fall through at the end (a JUMP out); RuntimeError when the dict "
     "changed size since the loop began"),
    ("FOR_DICT_VALUES", ARG_LOCAL, 0, 1, 1, "as FOR_DICT_KEYS, pushing the next value"),
    ("FOR_DICT_ITEMS", ARG_LOCAL, 0, 1, 2, "as FOR_DICT_KEYS, pushing a new (key, value) tuple"),
    ("FOR_SET", ARG_LOCAL, 0, 1, 1, "as FOR_DICT_KEYS over a set's elements in table order"),
    ("NEW_SET", ARG_NONE, 0, 1, 3, "push a new empty set"),
    ("SET_FROM", ARG_CONST, 1, 1, 3, "set(xs) of a list xs: its elements added in order"),
    ("SET_ADD", ARG_CONST, 2, 0, 2, "s.add(x) (pops s, x)"),
    ("SET_DISCARD", ARG_CONST, 2, 0, 2, "s.discard(x) (pops s, x)"),
    ("SET_REMOVE", ARG_CONST, 2, 0, 2, "s.remove(x) (pops s, x); KeyError"),
    ("SET_CONTAINS", ARG_CONST, 2, 1, 2, "x in s (pops x, s)"),
    ("SET_OR", ARG_CONST, 2, 1, 3, "a new set a | b (pops a, b), built as CPython's set_or"),
    ("SET_AND", ARG_CONST, 2, 1, 3, "a new set a & b, as CPython's set_intersection"),
    ("SET_SUB", ARG_CONST, 2, 1, 3, "a new set a - b, as CPython's set_difference"),
    ("SET_XOR", ARG_CONST, 2, 1, 3, "a new set a ^ b, as CPython's set_symmetric_difference"),
    ("SET_LE", ARG_CONST, 2, 1, 2, "a <= b of sets (pops a, b): a.issubset(b)"),
    ("SET_EQ", ARG_CONST, 2, 1, 2, "a == b of sets"),
    ("ASSERT_KEYED", ARG_CONST, 2, 0, 2, "pop b, a (dicts or sets of type consts[arg]); AssertionError unless a == b "
     "(DICT_EQ, SET_EQ), both operands then left on the stack for the failure record"),
    # in place, as CPython (vm/reference_set.py): t is a set when consts[arg] is a set type, a list
    # of elements when a list type (CPython's path for an iterable), a dict's keys list when a dict type
    ("SET_IOR", ARG_CONST, 2, 0, 3, "s |= t, s.update(t) (pops s, t): set_update_internal (set_merge; a dict's keys "
     "after one resize; a list's elements added in order)"),
    ("SET_IAND", ARG_CONST, 2, 0, 3, "s &= t, s.intersection_update(t) (pops s, t): s takes SET_INTERSECT's table"),
    ("SET_ISUB", ARG_CONST, 2, 0, 3, "s -= t, s.difference_update(t) (pops s, t): t's elements discarded, then the "
     "table resized when more than a quarter of it are dummies; s -= s clears s"),
    ("SET_IXOR", ARG_CONST, 2, 0, 3, "s ^= t, s.symmetric_difference_update(t) (pops s, t): t's elements toggled in "
     "t's order (a list's: in the order of a new set of it); s ^= s clears s"),
    ("SET_INTERSECT", ARG_CONST, 2, 1, 3, "a new set s.intersection(t) (pops s, t): t's elements in s, in t's order"),
    ("SET_LT", ARG_CONST, 2, 1, 2, "a < b of sets (pops a, b): len(a) < len(b) and a <= b"),
    ("SET_POP", ARG_CONST, 1, 1, 2, "s.pop(): the first element from s's finger on, which then follows it; "
     "KeyError when s is empty"),
]

# Exceptions (contract/status.py: RAISABLE, catchable).  A handler is a row of the job's
# frames table (from its end: calls and open handlers together hold fewer than max_depth rows,
# RECURSION_LIMIT past it): the absolute pc it jumps to, the operand-stack pointer and the
# call depth at SETUP_TRY.  A catchable status ends no job while a handler is open: the
# innermost is popped, the frames above its depth are left (the job's cost attribution follows),
# the operand stack is cut back to its pointer, the exception value is pushed and the handler
# runs.  An exception value is status | g << 8 | pc << 32: the status and where it was raised
# (global function g, absolute pc), so that RERAISE ends a job with the first failure record.
# A RETURN drops the handlers its frame opened.
_EXC_ROWS = [
    ("RAISE", ARG_IMM, 0, 0, 1, "raise status arg (one of status.RAISABLE; INVALID_BYTECODE for another)"),
    ("RERAISE", ARG_NONE, 1, 0, 1, "pop an exception value and raise it again (INVALID_BYTECODE unless its status is "
     "status.RAISABLE, its function and pc exist)"),
    ("SETUP_TRY", ARG_JUMP, 0, 0, 1, "open a handler: a catchable status raised before its POP_TRY jumps to arg "
     "with the operand stack as here and the exception value pushed"),
    ("POP_TRY", ARG_NONE, 0, 0, 1, "close the innermost handler, opened by this frame (INVALID_BYTECODE if none)"),
    ("EXC_MATCH", ARG_IMM, 1, 1, 1, "pop an exception value; push whether bit `its status` of arg is set (an except "
     "clause's classes: status.EXCEPTION_MASKS)"),]

# Module code (a unit's statements outside its functions) is the unit's last function, marked
# contract.image.MODULE_CODE in func_import.  A job runs the candidate's module code, then the
# suite's, then its function, each frame at depth 0 above the one before: a module code's
# frame stays, its locals are the unit's globals, which the unit's functions read by LOAD_GLOBAL.
_MODULE_ROWS = [
    ("LOAD_GLOBAL", ARG_IMM, 0, 1, 1, "push global arg of the running unit: local slot arg of its module code's frame "
     "(arg < that function's nlocals)"),
    ("MODULE_END", ARG_NONE, 0, 0, 1, "the end of module code: its frame stays (the unit's globals); the next module "
     "code, or the job's function, starts above it"),]

# The math module (compiler/modules.py): CPython's math functions on the value on top.  A float
# function's result is the platform libm's (as CPython's on the same machine); the errors are
# CPython's: ValueError outside the domain, OverflowError when the result overflows.
_MATH_ROWS = [
    ("MATH_FLOAT", ARG_IMM, 1, 1, 4, "the float math.f(x) of the float x on top, f by arg: 0 sqrt, 1 exp, 2 log, "
     "3 log2, 4 log10, 5 sin, 6 cos, 7 tan, 8 asin, 9 acos, 10 atan, 11 fabs, 12 degrees, 13 radians"),
    ("MATH_FLOAT2", ARG_IMM, 2, 1, 4, "pop y, x; the float of arg: 0 math.pow(x, y), 1 atan2(x, y), 2 copysign(x, y), "
     "3 log(x, y) (ZeroDivisionError for y == 1.0)"),
    ("MATH_TO_INT", ARG_IMM, 1, 1, 1, "the int math.floor(x) (arg 0) or math.ceil(x) (arg 1) of the float x on top; "
     "ValueError nan, OverflowError inf and outside int64"),
    ("MATH_TEST", ARG_IMM, 1, 1, 1, "the bool of the float on top: arg 0 math.isnan, 1 isinf, 2 isfinite"),
    ("MATH_ISCLOSE", ARG_NONE, 2, 1, 2, "pop b, a; math.isclose(a, b) (rel_tol 1e-09, abs_tol 0.0)"),
    ("MATH_INT", ARG_IMM, 1, 1, 2, "the int of the int n on top: arg 0 math.isqrt(n), 1 factorial(n) (cost + n); "
     "ValueError if n < 0, OverflowError past int64"),
    ("MATH_INT2", ARG_IMM, 2, 1, 2, "pop b, a; the int of arg: 0 math.gcd(a, b), 1 lcm, 2 comb(a, b), 3 perm(a, b) "
     "(cost + the factors multiplied); ValueError for comb / perm of a negative, OverflowError past int64"),
    ("MATH_PROD", ARG_IMM, 1, 1, 2, "math.prod(xs) from 1, left to right (arg 1: floats; cost + n); OverflowError "
     "(ints: at the first partial product past int64)"),]
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
# 1 floats, 2 strs: LIST_SUM takes no strs), the str modes, STR_FROM / STR_TO_NUM's type codes
IMM_MAXES = {"NEW_LIST": 255, "LIST_SLICE": 7, "LIST_SET_SLICE": 7, "LIST_SUM": 1,
             **{n: 2 for n in ("LIST_MIN", "LIST_MAX", "LIST_SORTED", "LIST_SORT", "LIST_EQ")},
             "STR_FIND": 6, "STR_CASE": 5, "STR_IS": 7, "STR_STRIP": 2, "STR_SPLIT": 1, "STR_PAD": 3,
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


# The opcodes as plain names (generated from TABLE; tests/contract/test_isa.py prints this block
# anew when a row is added or moved).
NOP = 0
LOAD_CONST = 1
LOAD_INT = 2
LOAD_VAR = 3
STORE_VAR = 4
POP_TOP = 5
DUP_TOP = 6
ROT_TWO = 7
ROT_THREE = 8
BINARY_ADD = 9
BINARY_SUB = 10
BINARY_MUL = 11
BINARY_FLOORDIV = 12
BINARY_MOD = 13
UNARY_NEG = 14
UNARY_NOT = 15
COMPARE_LT = 16
COMPARE_LE = 17
COMPARE_EQ = 18
COMPARE_NE = 19
COMPARE_GT = 20
COMPARE_GE = 21
JUMP = 22
JUMP_IF_FALSE = 23
JUMP_IF_TRUE = 24
JUMP_IF_FALSE_OR_POP = 25
JUMP_IF_TRUE_OR_POP = 26
FOR_RANGE = 27
RANGE_CHECK = 28
CALL = 29
RETURN = 30
ASSERT_TRUE = 31
ASSERT_CMP = 32
JUMP_IF_NOT_LT = 33
JUMP_IF_NOT_LE = 34
JUMP_IF_NOT_EQ = 35
JUMP_IF_NOT_NE = 36
JUMP_IF_NOT_GT = 37
JUMP_IF_NOT_GE = 38
BINARY_ADD_INT = 39
BINARY_SUB_INT = 40
BINARY_MUL_INT = 41
BINARY_FLOORDIV_INT = 42
BINARY_MOD_INT = 43
INC_VAR = 44
LOAD_VAR2 = 45
STORE_LOAD = 46
RETURN_VAR = 47
VAR_ADD_INT = 48
VAR_SUB_INT = 49
VAR_MUL_INT = 50
VAR_FLOORDIV_INT = 51
VAR_MOD_INT = 52
ADD_TO_VAR = 53
JUMP_IF_NOT_LT_INT = 54
JUMP_IF_NOT_LE_INT = 55
JUMP_IF_NOT_EQ_INT = 56
JUMP_IF_NOT_NE_INT = 57
JUMP_IF_NOT_GT_INT = 58
JUMP_IF_NOT_GE_INT = 59
FOR_LOOP = 60
JUMP_IF_NOT_LT_VARS = 61
JUMP_IF_NOT_LE_VARS = 62
JUMP_IF_NOT_EQ_VARS = 63
JUMP_IF_NOT_NE_VARS = 64
JUMP_IF_NOT_GT_VARS = 65
JUMP_IF_NOT_GE_VARS = 66
JUMP_IF_NOT_LT_VAR_INT = 67
JUMP_IF_NOT_LE_VAR_INT = 68
JUMP_IF_NOT_EQ_VAR_INT = 69
JUMP_IF_NOT_NE_VAR_INT = 70
JUMP_IF_NOT_GT_VAR_INT = 71
JUMP_IF_NOT_GE_VAR_INT = 72
BINARY_AND = 73
BINARY_OR = 74
BINARY_XOR = 75
BINARY_LSHIFT = 76
BINARY_RSHIFT = 77
UNARY_INVERT = 78
BINARY_POW = 79
INT_ABS = 80
INT_MIN2 = 81
INT_MAX2 = 82
INT_TRUTH = 83
INT_TO_FLOAT = 84
FLOAT_TO_INT = 85
FLOAT_TRUTH = 86
FLOAT_ADD = 87
FLOAT_SUB = 88
FLOAT_MUL = 89
FLOAT_DIV = 90
FLOAT_FLOORDIV = 91
FLOAT_MOD = 92
FLOAT_POW = 93
FLOAT_NEG = 94
FLOAT_ABS = 95
FLOAT_MIN2 = 96
FLOAT_MAX2 = 97
COMPARE_NUM = 98
FELL_OFF = 99
NEW_LIST = 100
LIST_GET = 101
LIST_SET = 102
LIST_LEN = 103
LIST_APPEND = 104
LIST_CONTAINS = 105
LIST_SUM = 106
LIST_MIN = 107
LIST_MAX = 108
LIST_SORTED = 109
LIST_SORT = 110
LIST_SLICE = 111
LIST_CONCAT = 112
LIST_REPEAT = 113
LIST_EQ = 114
FOR_LIST = 115
LIST_CLEAR = 116
LIST_EXTEND = 117
LIST_POP = 118
LIST_INSERT = 119
LIST_REVERSE = 120
LIST_SET_SLICE = 121
LOAD_STR = 122
STR_GET = 123
STR_CHR = 124
STR_ORD = 125
STR_CONTAINS = 126
STR_FIND = 127
STR_CASE = 128
STR_IS = 129
STR_STRIP = 130
STR_SPLIT = 131
STR_JOIN = 132
STR_REPLACE = 133
STR_PAD = 134
STR_FROM = 135
STR_TO_NUM = 136
STR_RADIX = 137
FLOAT_ROUND = 138
VALUE_CMP = 139
ASSERT_VALUE = 140
VALUE_CONTAINS = 141
VALUE_MIN = 142
VALUE_MAX = 143
VALUE_SORTED = 144
VALUE_SORT = 145
UNPACK_CHECK = 146
BOX = 147
UNBOX = 148
VALUE_INDEX = 149
VALUE_COUNT = 150
VALUE_REMOVE = 151
NEW_DICT = 152
DICT_SET = 153
DICT_GET = 154
DICT_GET_DEFAULT = 155
DICT_CONTAINS = 156
DICT_DEL = 157
DICT_POP = 158
DICT_POP_DEFAULT = 159
DICT_SETDEFAULT = 160
DICT_UPDATE = 161
DICT_EQ = 162
COLL_LEN = 163
DICT_LIST = 164
FOR_DICT_KEYS = 165
FOR_DICT_VALUES = 166
FOR_DICT_ITEMS = 167
FOR_SET = 168
NEW_SET = 169
SET_FROM = 170
SET_ADD = 171
SET_DISCARD = 172
SET_REMOVE = 173
SET_CONTAINS = 174
SET_OR = 175
SET_AND = 176
SET_SUB = 177
SET_XOR = 178
SET_LE = 179
SET_EQ = 180
ASSERT_KEYED = 181
SET_IOR = 182
SET_IAND = 183
SET_ISUB = 184
SET_IXOR = 185
SET_INTERSECT = 186
SET_LT = 187
SET_POP = 188
RAISE = 189
RERAISE = 190
SETUP_TRY = 191
POP_TRY = 192
EXC_MATCH = 193
LOAD_GLOBAL = 194
MODULE_END = 195
MATH_FLOAT = 196
MATH_FLOAT2 = 197
MATH_TO_INT = 198
MATH_TEST = 199
MATH_ISCLOSE = 200
MATH_INT = 201
MATH_INT2 = 202
MATH_PROD = 203

assert all(globals()[op.name] == op.number for op in TABLE), "opcode constants out of date"
