"""Peephole pass: fuse short instruction sequences of one function into superinstructions.

`optimize` is a kernel body (no allocation: three int32 scratch arrays are passed in).  It
runs on codegen's output for one function, in place:

1. mark every jump target (and both successors of FOR_RANGE / FOR_LIST);
2. scan once, replacing each sequence of a pattern below by its superinstruction unless a
   jump lands inside it (on its first instruction is fine), compacting the code, recording
   each old index's new index, and measuring the operand stack's depth;
3. rewrite jump operands through the recorded map.

A superinstruction does what its sequence does and costs what it costs (contract.isa), so a
program's results and costs do not depend on this pass; only `steps` shrink.  The fused
instruction takes the source line of the sequence's instruction that can fail (or decide).

Patterns, longest first at each index (x, y: slots; k: a LOAD_INT operand; c: a comparison;
packed operands need k in -32768..32767 and jump targets below 65536, the _VARS / _VAR_INT
ones x < 256, y < 128, -128 <= k < 128):
    LOAD_VAR x; LOAD_VAR y; COMPARE_c; JUMP_IF_FALSE t    -> JUMP_IF_NOT_c_VARS x, y, t
    LOAD_VAR x; LOAD_INT k; COMPARE_c; JUMP_IF_FALSE t    -> JUMP_IF_NOT_c_VAR_INT x, k, t
    (and with JUMP_IF_TRUE: the negated comparison, as below)
    LOAD_VAR x; LOAD_INT 1; BINARY_ADD; STORE_VAR x       -> INC_VAR x
    LOAD_VAR x; LOAD_INT k; BINARY_ADD|SUB; STORE_VAR x   -> ADD_TO_VAR x, +k|-k
    LOAD_VAR x; LOAD_INT k; BINARY_<op>                   -> VAR_<op>_INT x, k
    LOAD_VAR x; LOAD_VAR y                                -> LOAD_VAR2 x, y
    LOAD_VAR x; RETURN                                    -> RETURN_VAR x
    STORE_VAR x; LOAD_VAR y                               -> STORE_LOAD x, y
                              (unless LOAD_VAR y starts one of the 4-instruction patterns)
    LOAD_INT k; COMPARE_c; JUMP_IF_FALSE t                -> JUMP_IF_NOT_c_INT k, t
    LOAD_INT k; COMPARE_c; JUMP_IF_TRUE t                 -> JUMP_IF_NOT_<not c>_INT k, t
    LOAD_INT k; BINARY_<op>                               -> BINARY_<op>_INT k
    COMPARE_c; JUMP_IF_FALSE t                            -> JUMP_IF_NOT_c t
    COMPARE_c; JUMP_IF_TRUE t                             -> JUMP_IF_NOT_<not c> t
(`not c` on ints: < >=, <= >, == !=; in CMP order that is 5 - c.)

The function's max operand-stack depth is measured again (fusing can lower it): `depths`
walks the control-flow graph like vm.verify, and each new instruction's depth after it
counts (a superinstruction needs no room beyond its own stack effect).
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from gpucc.compiler.scope import F_NPARAMS
from gpucc.contract import isa as O

POPS, PUSHES = O.stack_effects()
# 1: the operand is a jump target, 2: its lo field is (the packed jump kinds of contract.isa)
JUMP_KIND = np.array([1 if op.operand == O.ARG_JUMP else 2 if op.number in O.JUMP_OPCODES else 0
                      for op in O.TABLE], dtype=np.int8)  # fmt: skip
# jumps that keep a value falling through drops (and/or; FOR_LOOP pushes its counter only jumping)
KEEPS = np.array([op.number in (O.JUMP_IF_FALSE_OR_POP, O.JUMP_IF_TRUE_OR_POP, O.FOR_LOOP) for op in O.TABLE], np.int8)
LOAD_VAR, LOAD_INT, STORE_VAR, BINARY_ADD, BINARY_SUB = O.LOAD_VAR, O.LOAD_INT, O.STORE_VAR, O.BINARY_ADD, O.BINARY_SUB
BINARY_MOD, BINARY_ADD_INT, VAR_ADD_INT, COMPARE_LT, COMPARE_GE = (
    O.BINARY_MOD, O.BINARY_ADD_INT, O.VAR_ADD_INT, O.COMPARE_LT, O.COMPARE_GE)  # fmt: skip
INC_VAR, ADD_TO_VAR, LOAD_VAR2 = O.INC_VAR, O.ADD_TO_VAR, O.LOAD_VAR2
STORE_LOAD, RETURN_VAR = O.STORE_LOAD, O.RETURN_VAR
JUMP_IF_FALSE, JUMP_IF_TRUE, JUMP_IF_NOT_LT, JUMP_IF_NOT_LT_INT = (
    O.JUMP_IF_FALSE, O.JUMP_IF_TRUE, O.JUMP_IF_NOT_LT, O.JUMP_IF_NOT_LT_INT)  # fmt: skip
JUMP_IF_NOT_LT_VARS, JUMP_IF_NOT_LT_VAR_INT = O.JUMP_IF_NOT_LT_VARS, O.JUMP_IF_NOT_LT_VAR_INT
JUMP, RETURN, CALL, FOR_RANGE, FOR_LIST, NEW_LIST = O.JUMP, O.RETURN, O.CALL, O.FOR_RANGE, O.FOR_LIST, O.NEW_LIST
HI_MIN, HI_MAX, LO_MAX = O.FIELD_MIN, O.FIELD_MAX, 0xFFFF

# the patterns rely on these opcode runs being parallel (table order)
_BIN = ("ADD", "SUB", "MUL", "FLOORDIV", "MOD")
_CMP = ("LT", "LE", "EQ", "NE", "GT", "GE")
_RUNS = [[f"BINARY_{b}{s}" for b in _BIN] for s in ("", "_INT")] + [[f"VAR_{b}_INT" for b in _BIN]]
_RUNS += [[f"COMPARE_{c}" for c in _CMP]]
_RUNS += [[f"JUMP_IF_NOT_{c}{s}" for c in _CMP] for s in ("", "_INT", "_VARS", "_VAR_INT")]
for _names in _RUNS:
    _first = O.BY_NAME[_names[0]].number
    assert [O.BY_NAME[x].number for x in _names] == list(range(_first, _first + len(_names))), _names


@register_jitable
def pack(lo, hi):
    """A packed operand (contract.isa.pack) as an int32 value."""
    return (hi << 16) | lo


@register_jitable
def _window(code, lo, r, n, tgt):
    """Opcodes and operands at old indices r .. r + 3; -1 past the end or from the first jump
    target after r on (nothing may be fused across it)."""
    o1, o2, o3 = -1, -1, -1
    a1, a2, a3 = 0, 0, 0
    o0 = code[lo + r, 0]
    a0 = code[lo + r, 1]
    if r + 1 < n and tgt[r + 1] == 0:
        o1 = code[lo + r + 1, 0]
        a1 = code[lo + r + 1, 1]
        if r + 2 < n and tgt[r + 2] == 0:
            o2 = code[lo + r + 2, 0]
            a2 = code[lo + r + 2, 1]
            if r + 3 < n and tgt[r + 3] == 0:
                o3 = code[lo + r + 3, 0]
                a3 = code[lo + r + 3, 1]
    return o0, o1, o2, o3, a0, a1, a2, a3


@register_jitable
def match_var(code, lo, r, n, tgt):
    """match() for a LOAD_VAR at old index r."""
    _, op1, op2, op3, a0, a1, a2, a3 = _window(code, lo, r, n, tgt)
    if (op1 == LOAD_VAR or op1 == LOAD_INT) and COMPARE_LT <= op2 <= COMPARE_GE:
        if (op3 == JUMP_IF_FALSE or op3 == JUMP_IF_TRUE) and 0 <= a3 <= LO_MAX and a0 <= 255:
            c = op2 - COMPARE_LT if op3 == JUMP_IF_FALSE else 5 - (op2 - COMPARE_LT)
            if op1 == LOAD_VAR and a1 <= 127:
                return JUMP_IF_NOT_LT_VARS + c, pack(a3, a0 + 256 * a1), 4, 2
            if op1 == LOAD_INT and -128 <= a1 <= 127:
                return JUMP_IF_NOT_LT_VAR_INT + c, pack(a3, a0 + 256 * a1), 4, 2
    if op1 == LOAD_INT and HI_MIN <= a1 <= HI_MAX and BINARY_ADD <= op2 <= BINARY_MOD:
        if op3 == STORE_VAR and a3 == a0:
            if op2 == BINARY_ADD and a1 == 1:
                return INC_VAR, a0, 4, 2
            if op2 == BINARY_ADD or (op2 == BINARY_SUB and a1 != HI_MIN):
                return ADD_TO_VAR, pack(a0, a1 if op2 == BINARY_ADD else -a1), 4, 2
        return op2 - BINARY_ADD + VAR_ADD_INT, pack(a0, a1), 3, 2
    if op1 == LOAD_VAR:
        return LOAD_VAR2, pack(a0, a1), 2, 0
    if op1 == RETURN:
        return RETURN_VAR, a0, 2, 1
    return LOAD_VAR, a0, 1, 0


@register_jitable
def match(code, lo, r, n, tgt):
    """(opcode, operand, length, line offset) of what replaces the instructions from old
    index r (relative to lo; n in all): a superinstruction, or the instruction itself."""
    op0, op1, op2, _, a0, a1, a2, _ = _window(code, lo, r, n, tgt)
    if op0 == LOAD_VAR:
        return match_var(code, lo, r, n, tgt)
    if op0 == STORE_VAR and op1 == LOAD_VAR:
        # not when the LOAD_VAR starts a 4-instruction pattern: that one saves more
        if match_var(code, lo, r + 1, n, tgt)[2] < 4:
            return STORE_LOAD, pack(a0, a1), 2, 0
    elif op0 == LOAD_INT:
        if COMPARE_LT <= op1 <= COMPARE_GE and (op2 == JUMP_IF_FALSE or op2 == JUMP_IF_TRUE):
            if HI_MIN <= a0 <= HI_MAX and 0 <= a2 <= LO_MAX:
                c = op1 - COMPARE_LT if op2 == JUMP_IF_FALSE else 5 - (op1 - COMPARE_LT)
                return JUMP_IF_NOT_LT_INT + c, pack(a2, a0), 3, 1
        if BINARY_ADD <= op1 <= BINARY_MOD:
            return op1 - BINARY_ADD + BINARY_ADD_INT, a0, 2, 1
    elif COMPARE_LT <= op0 <= COMPARE_GE:
        if op1 == JUMP_IF_FALSE:
            return JUMP_IF_NOT_LT + op0 - COMPARE_LT, a1, 2, 0
        if op1 == JUMP_IF_TRUE:
            return JUMP_IF_NOT_LT + 5 - (op0 - COMPARE_LT), a1, 2, 0
    return op0, a0, 1, 0


@register_jitable
def target_of(op, arg):
    """Jump target of a jump instruction (its operand, or the lo field of a packed one)."""
    return arg if JUMP_KIND[op] == 1 else arg & LO_MAX


@register_jitable
def depths(code, lo, n, fn, dep, work):
    """dep[i]: operand-stack depth before old index i, walking the control-flow graph as
    vm.verify does (-1: unreachable); work is the walk's scratch stack."""
    for i in range(n):
        dep[i] = -1
    dep[0] = 0
    work[0] = 0
    n_work = 1
    while n_work > 0:
        n_work -= 1
        i = work[n_work]
        op = code[lo + i, 0]
        arg = code[lo + i, 1]
        after = dep[i] - _pops(op, arg, fn) + PUSHES[op]
        for s in range(2):  # successors: the next instruction, a jump target
            nxt = i + 1
            d = after
            if s == 0:
                if op == JUMP or op == RETURN or op == RETURN_VAR:
                    continue
                if JUMP_KIND[op] != 0:
                    d = after - KEEPS[op]  # falling through pops what a jump keeps
                elif op == FOR_RANGE or op == FOR_LIST:
                    d = after - 1  # the exit JUMP, with nothing pushed
            elif JUMP_KIND[op] != 0:
                nxt = target_of(op, arg)
            elif op == FOR_RANGE or op == FOR_LIST:
                nxt = i + 2
            else:
                continue
            if 0 <= nxt < n and dep[nxt] < 0:
                dep[nxt] = d
                work[n_work] = nxt
                n_work += 1


@register_jitable
def _pops(op, arg, fn):
    """Values instruction (op, arg) pops: CALL its callee's arity, NEW_LIST its operand."""
    if op == CALL:
        return fn[arg, F_NPARAMS]
    if op == NEW_LIST:
        return arg
    return POPS[op]


@register_jitable
def optimize(code, lines, lo, hi, fn, tgt, dep, work):
    """Fuse the function at code[lo:hi] in place.  Returns (new length, max operand-stack
    depth), or (hi - lo, -1) untouched when the scratch (tgt, dep, work: int32, one entry
    per instruction and one more) is too small.  fn: the unit's function table (CALL arity)."""
    n = hi - lo
    if n + 1 > min(tgt.shape[0], dep.shape[0], work.shape[0]):
        return n, -1
    depths(code, lo, n, fn, dep, work)
    for i in range(n + 1):
        tgt[i] = 0
    for i in range(n):
        op = code[lo + i, 0]
        t = target_of(op, code[lo + i, 1])
        if JUMP_KIND[op] != 0 and 0 <= t < n:
            tgt[t] = 1
        elif (op == FOR_RANGE or op == FOR_LIST) and i + 2 < n:
            tgt[i + 1] = 1
            tgt[i + 2] = 1
    r = 0
    w = 0
    deepest = 0
    while r < n:
        opc, arg, k, li = match(code, lo, r, n, tgt)
        pops = _pops(opc, arg, fn)
        deepest = max(deepest, max(dep[r], 0) - pops + PUSHES[opc])
        lines[lo + w] = lines[lo + r + li]
        code[lo + w, 0] = opc
        code[lo + w, 1] = arg
        for q in range(r, r + k):
            tgt[q] = w  # from here on tgt maps old indices to new ones
        w += 1
        r += k
    for i in range(w):
        op = code[lo + i, 0]
        t = target_of(op, code[lo + i, 1])
        if JUMP_KIND[op] != 0 and 0 <= t < n:
            code[lo + i, 1] = tgt[t] if JUMP_KIND[op] == 1 else (code[lo + i, 1] & ~LO_MAX) | tgt[t]
    return w, deepest
