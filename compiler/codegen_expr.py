"""Code generator, expressions: expression values (a part of phase 4, see compiler/codegen.py;
conditions compiled as branches are compiler/codegen_branch.py).  The emitter, its jump
chains and the instruction choices are compiler/emit.py.

Kernel bodies (numba subset, no recursion).  `emit_expr` pushes an expression's value with a
postorder walk on an explicit stack (Scratch.walk rows above sp0): a short dispatcher calls
the handler of the node's kind, which emits what is due at this visit and answers the child
to evaluate next, DONE or STAY.  `k + x` and `k * x` with a literal k are emitted as
`x + k`, `x * k`, and `k < x` (no chain) as `x > k`: same result, same cost, and the
peephole pass can fuse the literal.
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler.codegen_comp import emit_comprehension
from gpucc.compiler.emit_set import emit_set_call, emit_set_method_step, set_call_of
from gpucc.compiler.typecheck_set import FIRST_SET_METHOD
from gpucc.compiler.emit import (  # noqa: F401 - DONE: the statement walk's too, as before
    CG_DEPTH,
    DONE,
    STAY,
    emit,
    emit_arith,
    emit_compare,
    emit_convert,
    emit_int,
    emit_method,
    emit_truth,
    emit_unary,
    float_op,
    method_argument,
    needs_truth,
    patch,
    set_last_operand,
)  # fmt: skip
from gpucc.compiler.emit_builtins import emit_builtin_arg, emit_builtin_end
from gpucc.compiler.emit_dict import (
    emit_comparison,
    emit_constructor,
    emit_display_step,
    emit_keyed_method,
    emit_set_operator,
    emit_subscript_key,
    is_keyed,
    method_argument_type,
)
from gpucc.compiler.emit_math import emit_math_arg, emit_math_end
from gpucc.compiler.emit_tables import DECIDING_TRUTH, JUMP_IF, JUMP_IF_OR_POP, METHOD_OPCODES, MIRRORED
from gpucc.compiler.isinstance import B_ISINSTANCE, IS_NOT_NONE, instance_answer
from gpucc.compiler.modules import FIRST_MODULE_CODE
from gpucc.compiler.nodes import (
    BIN_ADD,
    BIN_MUL,
    CMP_IN,
    CMP_IS_NOT,
    N_BINARY,
    N_BOOL,
    N_BOOLOP,
    N_CALL,
    N_COMP,
    N_COMP_FOR,
    N_COMP_IF,
    N_COMPARE,
    N_DICT,
    N_FLOAT,
    N_IFEXP,
    N_INT,
    N_LIST,
    N_METHOD,
    N_NAME,
    N_NONE,
    N_SET,
    N_SLICE,
    N_STR,
    N_SUBSCRIPT,
    N_TUPLE,
    N_UNARY,
    PAIR,
    UN_NEG,
)
from gpucc.compiler.scope import B_DICT_CALL, B_ORD, B_SET_CALL, F_NPARAMS, F_PTYPE, GLOBAL
from gpucc.compiler.typecheck import S_A, S_B, S_C, S_NODE, S_STATE
from gpucc.compiler.typecheck_base import UNBOX_LATE, UNBOXED, can_unbox
from gpucc.compiler.typerules import element_type, is_dict, is_set, is_sized
from gpucc.contract import isa as O
from gpucc.contract.isa import (
    CALL,
    DUP_TOP,
    JUMP,
    JUMP_IF_FALSE,
    JUMP_IF_FALSE_OR_POP,
    LOAD_INT,
    LOAD_VAR,
    POP_TOP,
    POPS,
    ROT_THREE,
    ROT_TWO,
)
from gpucc.contract.jitable import nrt_free, type_is_heap
from gpucc.contract.valuetypes import T_FLOAT, T_NONE, T_STR

SIGN_BIT = np.int64(-(2**63))  # a float literal's bits XOR this: its negation


# emit_expr's frame columns besides S_NODE and S_STATE (the visits so far), by node kind:
E_CHILD = S_A  # LIST, SLICE, METHOD, CALL: the child evaluated last
E_ELSE = S_A  # IFEXP: the jump to the else value
E_END = S_B  # IFEXP: the jump past it
E_SKIP = S_A  # BOOLOP: the jump that skips the right operand (the left one decides)
E_LINK = S_A  # COMPARE: the CMP_LINK compared next
E_LEFT = S_C  # COMPARE: that link's left operand
E_CLEANUP = S_B  # COMPARE: the jumps of a chain decided early (to its cleanup)


@nrt_free
def _literal(tree, n):
    """An int or bool literal, or a negated int literal (codegen folds it)."""
    kind = tree.kind
    if kind[n] == N_UNARY and tree.op[n] == UN_NEG:
        n = tree.first[n]
        return kind[n] == N_INT
    return kind[n] == N_INT or kind[n] == N_BOOL


@nrt_free
def _next_child(tree, stk, top, n, st):
    """The child of node n to evaluate next (the first at visit 0, else the one after
    E_CHILD), recorded in E_CHILD; DONE after the last."""
    c = tree.first[n] if st == 0 else tree.next[stk[top, E_CHILD]]
    if c != -1:
        stk[top, E_CHILD] = c
    return c


@nrt_free
def _unary(n, st, toks, tree, types, out, err, line):
    """-x, +x, not x, ~x; a negated int or float literal is folded into one constant."""
    c, uop, kind, val = tree.first[n], tree.op[n], tree.kind, tree.val
    if st > 0:
        emit_unary(out, uop, types.type[c], line)
    elif uop == UN_NEG and kind[c] == N_INT:
        emit_int(out, -val[c], line, err, toks.start[tree.tok[n]], toks.end[tree.tok[c]])
    elif uop == UN_NEG and kind[c] == N_FLOAT:
        emit_int(out, val[c] ^ SIGN_BIT, line, err, toks.start[tree.tok[n]], toks.end[tree.tok[c]])
    else:
        return c
    return DONE


@nrt_free
def _binary(n, st, tree, types, out, line, err):
    """a op b; floats: each operand converted after it is pushed; lists and strs: + and *."""
    type_ = types.type
    bop, c = tree.op[n], tree.first[n]
    r = tree.next[c]
    lt, rt = type_[c], type_[r]
    to_float = float_op(bop, lt, rt) and not is_sized(type_[n])
    # k + x as x + k (k * xs as xs * k)
    swap = not to_float and (bop == BIN_ADD or bop == BIN_MUL) and _literal(tree, c)
    if st == 0:
        return r if swap else c
    late = not swap and can_unbox(tree.kind[c]) and tree.val[c] == UNBOX_LATE  # an Optional left operand, checked
    # once the right one ran (a literal's val is its value)
    if st == 1:
        if to_float and not late:
            emit_convert(out, T_FLOAT, lt, line)
        return c if swap else r
    if is_set(type_[n]):  # a | b, a & b, a - b, a ^ b
        emit_set_operator(out, bop, type_[n], line, err)
        return DONE
    if late:
        _unbox_under(out, lt, line, to_float)
    emit_arith(out, bop, rt if swap else lt, lt if swap else rt, line)  # the types as pushed
    return DONE


@nrt_free
def _unbox_under(out, t, line, to_float):
    """The Optional under the top value as its T (of type t), converted to a float if
    to_float: ROT_TWO, UNBOX, ROT_TWO."""
    emit(out, ROT_TWO, 0, line)
    emit(out, O.UNBOX, 0 if type_is_heap(t) else 1, line)
    if to_float:
        emit_convert(out, T_FLOAT, t, line)
    emit(out, ROT_TWO, 0, line)


@nrt_free
def unbox_late(out, tree, left, t, line):
    """A comparison's left operand (of type t), under its right one: an Optional marked
    UNBOX_LATE is unboxed now, once the right one ran (fuzz finding F9)."""
    if can_unbox(tree.kind[left]) and tree.val[left] == UNBOX_LATE:
        _unbox_under(out, t, line, False)


@nrt_free
def _list(n, st, top, tree, types, out, stk, line):
    """[a, b, ...] and (a, b, ...): the elements (converted for a list[float]), then NEW_LIST
    count (a tuple is a list object too)."""
    type_ = types.type
    if st > 0 and tree.kind[n] == N_LIST:
        emit_convert(out, element_type(type_[n]), type_[stk[top, E_CHILD]], line)
    c = _next_child(tree, stk, top, n, st)
    if c == DONE and not (tree.kind[n] == N_TUPLE and tree.val[n] == PAIR):  # a dict comprehension's pair stays two values
        emit(out, O.NEW_LIST, st, line)
        out.cg[CG_DEPTH] -= st
    return c


@nrt_free
def _display(n, st, top, tree, types, out, stk, line, err):
    """{k: v, ...} / {a, ...}: NEW_DICT / NEW_SET, then each item inserted (emit_display_step)."""
    t = types.type[n]
    if st == 0:
        emit(out, O.NEW_SET if tree.kind[n] == N_SET else O.NEW_DICT, 0, line)
    k = st - 1
    done = types.type[stk[top, E_CHILD]] if st > 0 else 0
    c = _next_child(tree, stk, top, n, st)
    emit_display_step(out, t, k, done, c != DONE, line, err)
    return c


@nrt_free
def _slice(n, st, top, tree, out, stk, line):
    """obj[start:stop:step]: obj, then the three parts (LOAD_INT 0 for absent ones)."""
    if st > 3:
        emit(out, O.LIST_SLICE, tree.op[n], line)
        return DONE
    if st > 0 and ((tree.op[n] >> (st - 1)) & 1) == 0:
        emit(out, LOAD_INT, 0, line)
        return STAY
    return _next_child(tree, stk, top, n, st)


@nrt_free
def _method(n, st, top, tree, types, out, stk, line, err):
    """obj.name(args): the receiver, the arguments (append's converted to the element type),
    -1 for each optional one not given (contract.isa NO_ARG: a str's default, or an int's
    "all"), the instruction.  xs.append(v) and xs.sort() push nothing (statements only)."""
    type_ = types.type
    obj = tree.first[n]
    keyed = is_keyed(type_[obj])
    if keyed and tree.op[n] > FIRST_SET_METHOD:  # s.union(t), ...: compiler/emit_set.py
        child = stk[top, E_CHILD]
        c = _next_child(tree, stk, top, n, st)
        emit_set_method_step(out, tree, types, n, st, child, c == DONE, line, err)
        return c
    if st > 1:
        m = tree.op[n] - 1
        want = method_argument_type(m, st - 2, type_[obj]) if keyed else method_argument(m, st - 2, type_[obj])
        emit_convert(out, want, type_[stk[top, E_CHILD]], line)
    c = _next_child(tree, stk, top, n, st)
    if c == DONE and keyed:
        emit_keyed_method(out, tree.op[n] - 1, type_[obj], st - 1, line, err)
    elif c == DONE:
        m = tree.op[n] - 1
        for _ in range(POPS[METHOD_OPCODES[m]] - st):
            emit(out, LOAD_INT, O.NO_ARG, line)
        emit_method(out, m, type_[obj], line, err)
    return c


@nrt_free
def _call(n, st, top, tree, types, out, stk, line, err):
    """f(args) / builtin(args): after each argument its conversion (a function of the unit)
    or the builtin's work on it, then CALL (a function of the unit)."""
    type_, slot, fn = types.type, types.slot, types.fn
    builtin = tree.op[n] - 1  # -1: a function of the unit
    if builtin == B_SET_CALL or builtin == B_DICT_CALL:  # set(), set(xs), dict()
        c = _next_child(tree, stk, top, n, st)
        if c == DONE:
            arg = type_[tree.first[n]] if st > 0 else 0
            emit_constructor(out, builtin == B_SET_CALL, st, type_[n], arg, line, err)
        return c
    if builtin == B_ISINSTANCE:  # x, then the answer (compiler/isinstance.py: the INT after x is the mask)
        x = tree.first[n]
        if st == 0:
            return x
        _isinstance(out, instance_answer(type_[x], tree.val[tree.next[x]]), type_[x], line, err)
        return DONE
    if st > 0:
        a = stk[top, E_CHILD]
        if builtin < 0:
            emit_convert(out, fn[slot[n], F_PTYPE + st - 1], type_[a], line)
        elif builtin >= FIRST_MODULE_CODE:
            emit_math_arg(out, builtin - FIRST_MODULE_CODE, type_[a], line)
        elif builtin == B_ORD and tree.kind[a] == N_SUBSCRIPT and type_[tree.first[a]] == T_STR:
            set_last_operand(out, 1)  # ord(s[i]): s[i]'s STR_GET pushes the code point (no str made)
        else:
            several = tree.next[tree.first[n]] != -1
            emit_builtin_arg(out, builtin, st - 1, several, type_[a], type_[n], line, err)
    c = _next_child(tree, stk, top, n, st)
    if c == DONE and builtin < 0:
        emit(out, CALL, slot[n], line)
        out.cg[CG_DEPTH] -= fn[slot[n], F_NPARAMS]
    elif c == DONE and builtin >= FIRST_MODULE_CODE:
        emit_math_end(out, builtin - FIRST_MODULE_CODE, st, line)
    elif c == DONE:
        emit_builtin_end(out, builtin, st, type_[n], line, err)
    return c


@nrt_free
def _isinstance(out, answer, t, line, err):
    """isinstance's answer after x: `x is not None`, or x dropped and the constant."""
    if answer == IS_NOT_NONE:
        emit(out, LOAD_INT, O.NONE_REF, line)
        emit_compare(out, CMP_IS_NOT, t, T_NONE, line, err)
    else:
        emit(out, O.POP_TOP, 0, line)
        emit(out, LOAD_INT, answer, line)


@nrt_free
def _ifexp(n, st, top, tree, types, out, stk, line):
    """`body if cond else orelse` (children: body, cond, orelse): cond; JUMP_IF_FALSE else;
    body; JUMP end; else: orelse; end: (each value converted to the result's type)."""
    type_, next_ = types.type, tree.next
    body = tree.first[n]
    cond = next_[body]
    orelse = next_[cond]
    if st == 0:
        return cond
    if st == 1:
        emit_truth(out, type_[cond], line)
        stk[top, E_ELSE] = emit(out, JUMP_IF_FALSE, -1, line)
        return body
    if st == 2:
        emit_convert(out, type_[n], type_[body], line)
        stk[top, E_END] = emit(out, JUMP, -1, line)
        patch(out, stk[top, E_ELSE])
        out.cg[CG_DEPTH] -= 1  # the else value starts without the body's
        return orelse
    emit_convert(out, type_[n], type_[orelse], line)
    patch(out, stk[top, E_END])
    return DONE


@nrt_free
def _boolop(n, st, top, tree, types, out, stk, line):
    """a and b / a or b as values.  Operands of different types (a truth-only use): each as
    its truth value; two that are not their own truth value (floats, lists): DUP_TOP, the
    truth test and a plain jump, as the _OR_POP jumps test the value itself."""
    type_ = types.type
    c = tree.first[n]
    lt, rt = type_[c], type_[tree.next[c]]
    if st == 0:
        return c
    if st == 1:
        decides = DECIDING_TRUTH[tree.op[n]]
        if lt == rt and needs_truth(lt):
            emit(out, DUP_TOP, 0, line)
            emit_truth(out, lt, line)
            stk[top, E_SKIP] = emit(out, JUMP_IF[decides], -1, line)
            emit(out, POP_TOP, 0, line)
        else:
            if lt != rt:
                emit_truth(out, lt, line)
            stk[top, E_SKIP] = emit(out, JUMP_IF_OR_POP[decides], -1, line)
            out.cg[CG_DEPTH] -= 1  # popped when falling through (kept when jumping)
        return tree.next[c]
    if lt != rt:
        emit_truth(out, rt, line)
    patch(out, stk[top, E_SKIP])
    return DONE


@nrt_free
def _compare(n, st, top, tree, types, out, stk, line, err):
    """a < b < c like CPython: a; b; DUP_TOP; ROT_THREE; COMPARE; JUMP_IF_FALSE_OR_POP
    cleanup; c; COMPARE; JUMP end; cleanup: ROT_TWO; POP_TOP; end:.  `k < x` with a literal
    k (no chain) is emitted as `x > k`.  An Optional left operand of an ordering is unboxed
    once its right one ran (UNBOX_LATE, fuzz finding F9)."""
    type_, first, next_ = types.type, tree.first, tree.next
    c = first[n]
    link = next_[c]
    swap = next_[link] == -1 and _literal(tree, c) and tree.op[link] < CMP_IN and not _literal(tree, first[link])
    if st == 0:
        stk[top, E_LINK] = link
        stk[top, E_CLEANUP] = -1
        stk[top, E_LEFT] = c
        return first[link] if swap else c
    if st == 1:
        return c if swap else first[stk[top, E_LINK]]
    if swap:
        emit_comparison(out, MIRRORED[tree.op[link]], type_[link], type_[c], line, err)
        return DONE
    link = stk[top, E_LINK]
    left = stk[top, E_LEFT]
    lt = type_[left]
    unbox_late(out, tree, left, lt, line)
    if next_[link] != -1:  # more links: keep the right operand for the next comparison
        emit(out, DUP_TOP, 0, line)
        emit(out, ROT_THREE, 0, line)
        emit_comparison(out, tree.op[link], lt, type_[link], line, err)
        stk[top, E_CLEANUP] = emit(out, JUMP_IF_FALSE_OR_POP, stk[top, E_CLEANUP], line)
        out.cg[CG_DEPTH] -= 1
        stk[top, E_LINK] = next_[link]
        stk[top, E_LEFT] = first[link]
        stk[top, S_STATE] = 2  # visit again after the next right operand
        return first[next_[link]]
    emit_comparison(out, tree.op[link], lt, type_[link], line, err)
    if stk[top, E_CLEANUP] != -1:
        end = emit(out, JUMP, -1, line)
        patch(out, stk[top, E_CLEANUP])
        out.cg[CG_DEPTH] += 1  # the cleanup path holds (b, result)
        emit(out, ROT_TWO, 0, line)
        emit(out, POP_TOP, 0, line)
        patch(out, end)
    return DONE


@nrt_free
def emit_expr(root, toks, tree, types, out, scratch, sp0, err):
    """Emit an expression that pushes the value of `root` (a postorder walk on the walk
    stack above row sp0)."""
    kind, tok, val = tree.kind, tree.tok, tree.val
    stk = scratch.walk
    sp = sp0
    stk[sp, S_NODE] = root
    stk[sp, S_STATE] = 0
    sp += 1
    while sp > sp0:
        top = sp - 1
        n = stk[top, S_NODE]
        st = stk[top, S_STATE]
        stk[top, S_STATE] = st + 1
        k = kind[n]
        line = toks.line[tok[n]]
        nxt = DONE
        if k == N_INT or k == N_BOOL or k == N_FLOAT:
            emit_int(out, val[n], line, err, toks.start[tok[n]], toks.end[tok[n]])
        elif k == N_NONE:
            emit(out, LOAD_INT, O.NONE_REF, line)
        elif k == N_STR:
            emit(out, O.LOAD_STR, val[n], line)
        elif k == N_NAME and types.slot[n] >= GLOBAL:  # a global (compiler/typecheck_module.py)
            emit(out, O.LOAD_GLOBAL, types.slot[n] - GLOBAL, line)
        elif k == N_NAME:
            emit(out, LOAD_VAR, types.slot[n], line)
        elif k == N_UNARY:
            nxt = _unary(n, st, toks, tree, types, out, err, line)
        elif k == N_BINARY:
            nxt = _binary(n, st, tree, types, out, line, err)
        elif k == N_LIST or k == N_TUPLE:
            nxt = _list(n, st, top, tree, types, out, stk, line)
        elif k == N_SUBSCRIPT:
            if st < 2:
                nxt = _next_child(tree, stk, top, n, st)
            elif is_dict(types.type[tree.first[n]]):
                emit_subscript_key(out, types.type[tree.first[n]], types.type[tree.next[tree.first[n]]], line, err)
            else:
                emit(out, O.STR_GET if types.type[tree.first[n]] == T_STR else O.LIST_GET, 0, line)
        elif k == N_DICT or k == N_SET:
            nxt = _display(n, st, top, tree, types, out, stk, line, err)
        elif k == N_SLICE:
            nxt = _slice(n, st, top, tree, out, stk, line)
        elif k == N_METHOD:
            nxt = _method(n, st, top, tree, types, out, stk, line, err)
        elif k == N_IFEXP:
            nxt = _ifexp(n, st, top, tree, types, out, stk, line)
        elif k == N_BOOLOP:
            nxt = _boolop(n, st, top, tree, types, out, stk, line)
        elif k == N_COMPARE:
            nxt = _compare(n, st, top, tree, types, out, stk, line, err)
        elif k == N_CALL:
            nxt = _call(n, st, top, tree, types, out, stk, line, err)
        elif k == N_COMP and set_call_of(toks, tree, types, n) >= 0:  # set(s), set(d): compiler/emit_set.py
            nxt = emit_set_call(n, st, toks, tree, types, out, line, err)
        elif k == N_COMP or k == N_COMP_FOR or k == N_COMP_IF:
            nxt = emit_comprehension(n, st, top, tree, types, out, stk, line, err)
        if nxt == DONE:
            sp -= 1
            if can_unbox(k) and tree.val[n] == UNBOXED:  # an Optional used as its T
                emit(out, O.UNBOX, 0 if type_is_heap(types.type[n]) else 1, line)
        elif nxt != STAY:
            stk[sp, S_NODE] = nxt
            stk[sp, S_STATE] = 0
            sp += 1
