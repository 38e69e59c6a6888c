"""Peephole pass: fuse short instruction sequences of one function into superinstructions.

`optimize` is a kernel body (no allocation: three int32 scratch arrays are passed in).  It
runs on codegen's output for one function, in place:

1. mark every jump target (and both successors of a for test, isa.FOR_TESTS);
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

The function's max operand-stack depth is measured again (fusing can lower it): the
control-flow walk of contract.flow (the verifier's) gives each instruction's depth, and each
new instruction's depth after it counts (a superinstruction needs no room beyond its own
stack effect).
"""

from __future__ import annotations

from gpucc.compiler.scope import F_NPARAMS
from gpucc.contract import isa as O
from gpucc.contract.flow import FLOW_OK, pops_of, stack_depths
from gpucc.contract.isa import (
    ADD_TO_VAR,
    ARG_JUMP,
    BINARY_ADD,
    BINARY_ADD_INT,
    BINARY_MOD,
    BINARY_SUB,
    COMPARE_GE,
    COMPARE_LT,
    INC_VAR,
    IS_FOR_TEST,
    IS_JUMP,
    JUMP_IF_FALSE,
    JUMP_IF_NOT_LT,
    JUMP_IF_NOT_LT_INT,
    JUMP_IF_NOT_LT_VAR_INT,
    JUMP_IF_NOT_LT_VARS,
    JUMP_IF_TRUE,
    LOAD_INT,
    LOAD_VAR,
    LOAD_VAR2,
    OPERAND_KIND,
    PUSHES,
    RETURN,
    RETURN_VAR,
    STORE_LOAD,
    STORE_VAR,
    VAR_ADD_INT,
)
from gpucc.contract.jitable import jump_target, nrt_free, pack_fields

HI_MIN, HI_MAX, LO_MAX = O.FIELD_MIN, O.FIELD_MAX, 0xFFFF
MAX_STACK = 1 << 30  # the walk here measures depths; it bounds nothing

# the patterns rely on these opcode runs being parallel (table order)
_BIN = ("ADD", "SUB", "MUL", "FLOORDIV", "MOD")
_CMP = ("LT", "LE", "EQ", "NE", "GT", "GE")
_RUNS = [[f"BINARY_{b}{s}" for b in _BIN] for s in ("", "_INT")] + [[f"VAR_{b}_INT" for b in _BIN]]
_RUNS += [[f"COMPARE_{c}" for c in _CMP]]
_RUNS += [[f"JUMP_IF_NOT_{c}{s}" for c in _CMP] for s in ("", "_INT", "_VARS", "_VAR_INT")]
for _names in _RUNS:
    _first = O.BY_NAME[_names[0]].number
    assert [O.BY_NAME[x].number for x in _names] == list(range(_first, _first + len(_names))), _names


@nrt_free
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


@nrt_free
def match_var(code, lo, r, n, tgt):
    """match() for a LOAD_VAR at old index r."""
    _, op1, op2, op3, a0, a1, a2, a3 = _window(code, lo, r, n, tgt)
    if (op1 == LOAD_VAR or op1 == LOAD_INT) and COMPARE_LT <= op2 <= COMPARE_GE:
        if (op3 == JUMP_IF_FALSE or op3 == JUMP_IF_TRUE) and 0 <= a3 <= LO_MAX and a0 <= 255:
            c = op2 - COMPARE_LT if op3 == JUMP_IF_FALSE else 5 - (op2 - COMPARE_LT)
            if op1 == LOAD_VAR and a1 <= 127:
                return JUMP_IF_NOT_LT_VARS + c, pack_fields(a3, a0 + 256 * a1), 4, 2
            if op1 == LOAD_INT and -128 <= a1 <= 127:
                return JUMP_IF_NOT_LT_VAR_INT + c, pack_fields(a3, a0 + 256 * a1), 4, 2
    if op1 == LOAD_INT and HI_MIN <= a1 <= HI_MAX and BINARY_ADD <= op2 <= BINARY_MOD:
        if op3 == STORE_VAR and a3 == a0:
            if op2 == BINARY_ADD and a1 == 1:
                return INC_VAR, a0, 4, 2
            if op2 == BINARY_ADD or (op2 == BINARY_SUB and a1 != HI_MIN):
                return ADD_TO_VAR, pack_fields(a0, a1 if op2 == BINARY_ADD else -a1), 4, 2
        return op2 - BINARY_ADD + VAR_ADD_INT, pack_fields(a0, a1), 3, 2
    if op1 == LOAD_VAR:
        return LOAD_VAR2, pack_fields(a0, a1), 2, 0
    if op1 == RETURN:
        return RETURN_VAR, a0, 2, 1
    return LOAD_VAR, a0, 1, 0


@nrt_free
def match(code, lo, r, n, tgt):
    """(opcode, operand, length, line offset) of what replaces the instructions from old
    index r (relative to lo; n in all): a superinstruction, or the instruction itself."""
    op0, op1, op2, _, a0, a1, a2, _ = _window(code, lo, r, n, tgt)
    if op0 == LOAD_VAR:
        return match_var(code, lo, r, n, tgt)
    if op0 == STORE_VAR and op1 == LOAD_VAR:
        # not when the LOAD_VAR starts a 4-instruction pattern: that one saves more
        if match_var(code, lo, r + 1, n, tgt)[2] < 4:
            return STORE_LOAD, pack_fields(a0, a1), 2, 0
    elif op0 == LOAD_INT:
        if COMPARE_LT <= op1 <= COMPARE_GE and (op2 == JUMP_IF_FALSE or op2 == JUMP_IF_TRUE):
            if HI_MIN <= a0 <= HI_MAX and 0 <= a2 <= LO_MAX:
                c = op1 - COMPARE_LT if op2 == JUMP_IF_FALSE else 5 - (op1 - COMPARE_LT)
                return JUMP_IF_NOT_LT_INT + c, pack_fields(a2, a0), 3, 1
        if BINARY_ADD <= op1 <= BINARY_MOD:
            return op1 - BINARY_ADD + BINARY_ADD_INT, a0, 2, 1
    elif COMPARE_LT <= op0 <= COMPARE_GE:
        if op1 == JUMP_IF_FALSE:
            return JUMP_IF_NOT_LT + op0 - COMPARE_LT, a1, 2, 0
        if op1 == JUMP_IF_TRUE:
            return JUMP_IF_NOT_LT + 5 - (op0 - COMPARE_LT), a1, 2, 0
    return op0, a0, 1, 0


@nrt_free
def optimize(code, lines, lo, hi, fn, tgt, dep, work):
    """Fuse the function at code[lo:hi] in place.  Returns (new length, max operand-stack
    depth), or (hi - lo, -1) untouched when the scratch (tgt, dep, work: int32, one entry
    per instruction and one more) is too small.  fn: the unit's function table (CALL arity)."""
    n = hi - lo
    if n + 1 > min(tgt.shape[0], dep.shape[0], work.shape[0]):
        return n, -1
    arity = fn[:, F_NPARAMS]
    if stack_depths(code[lo:hi, 0], code[lo:hi, 1], arity, MAX_STACK, dep, work)[0] != FLOW_OK:
        return n, -1  # left as it is, for the verifier to report
    for i in range(n + 1):
        tgt[i] = 0
    for i in range(n):
        op = code[lo + i, 0]
        t = jump_target(op, code[lo + i, 1])
        if IS_JUMP[op] and 0 <= t < n:
            tgt[t] = 1
        elif IS_FOR_TEST[op] and i + 2 < n:
            tgt[i + 1] = 1
            tgt[i + 2] = 1
    r = 0
    w = 0
    deepest = 0
    while r < n:
        opc, arg, k, li = match(code, lo, r, n, tgt)
        pops = pops_of(opc, arg, arity)
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
        t = jump_target(op, code[lo + i, 1])
        if IS_JUMP[op] and 0 <= t < n:
            code[lo + i, 1] = tgt[t] if OPERAND_KIND[op] == ARG_JUMP else (code[lo + i, 1] & ~LO_MAX) | tgt[t]
    return w, deepest
