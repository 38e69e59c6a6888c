"""Code generator, comprehensions: COMP, COMP_FOR and COMP_IF nodes as loops (a part of
emit_expr's walk, compiler/codegen_expr.py, which calls `emit_comprehension` per visit; slots
from compiler/comp_scope.py, types from compiler/typecheck_comp.py).

The COMP's frame starts its consumer and walks its first clause; each clause's frame walks
the clause after it (the next frame up), the last one the element, so the clauses nest as
Python runs them:

    start                               NEW_LIST 0; STORE acc   (sum: 0; min / max: flag 0)
    <xs>; STORE h; LOAD_INT 0; STORE h+1; JUMP test1
    top1: STORE x                       (a str's code point as a 1-char str first)
      <c>; JUMP_IF_FALSE skip           `if c`
        LOAD_VAR acc; <e>; LIST_APPEND  the step: what the consumer does with the element
      skip:
    test1: FOR_LIST h; JUMP exit1; JUMP top1      (a range: FOR_LOOP, as a for statement's)
    exit1: finish                       LOAD_VAR acc

The steps: a list appends; sum adds into acc (`acc + e`, in the result's type: the numeric
tower); any / all jump out of every loop at the first element whose truth decides, as CPython
stops there; min / max of numbers keep the first element, then fold it with INT_MIN2 /
FLOAT_MIN2 (Python's order of comparison, so nan and ties come out as CPython's); of strs
they collect a list for LIST_MIN / LIST_MAX.  An empty min / max is LIST_MIN of an empty list:
its ValueError.  A bare COMP (`any(xs)`, `sum(xs, start)`, `list(s)`) is one loop over its
iterable, the element its value, in one visit once the iterable (and start) are pushed.
Nothing stays on the operand stack across the loops, so the jumps out keep its depth.
Kernel bodies.
"""

from __future__ import annotations

from gpucc.compiler.comp_scope import ACC, FLAG, REVERSED_RANGE, VARS, is_bare
from gpucc.compiler.emit import (
    CG_DEPTH,
    DONE,
    element_kind,
    emit,
    emit_arith,
    emit_convert,
    emit_truth,
    emit_typed,
    patch,
)
from gpucc.compiler.emit_dict import for_test
from gpucc.compiler.loop_code import (
    close_list_loop,
    close_range_loop,
    emit_unpack_value,
    nonzero_literal,
    open_loop,
    store_loop_variable,
)  # fmt: skip
from gpucc.compiler.nodes import (
    BIN_ADD,
    BIN_SUB,
    COMP_ALL,
    COMP_ANY,
    COMP_DICT,
    COMP_LIST,
    COMP_MAX,
    COMP_MIN,
    COMP_SET,
    COMP_SUM,
    N_COMP,
    N_COMP_FOR,
)  # fmt: skip
from gpucc.compiler.typecheck_base import S_A, S_NODE
from gpucc.compiler.typecheck_comp import comprehension_element
from gpucc.compiler.typerules import LIST_STR
from gpucc.contract import isa as O
from gpucc.contract.isa import (
    JUMP,
    JUMP_IF_FALSE,
    JUMP_IF_TRUE,
    LOAD_INT,
    LOAD_VAR,
    POP_TOP,
    ROT_THREE,
    ROT_TWO,
    STORE_VAR,
)
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_FLOAT, T_INT, T_STR

# a COMP frame's column besides S_NODE and S_STATE: any / all, the jumps of the deciding elements
C_DECIDED = S_A
# a range clause's frame, before its loop opens: the argument evaluated last
R_ARG = S_A


@nrt_free
def _collects(tree, types, comp):
    """Whether comp's elements go into a new list: a list, or min / max of strs."""
    op = tree.op[comp]
    if op == COMP_LIST:
        return True
    return (op == COMP_MIN or op == COMP_MAX) and comprehension_element(tree, types, comp) == T_STR


@nrt_free
def _start(comp, tree, types, out, line):
    """Before the loops: the accumulator's first value."""
    op, acc = tree.op[comp], tree.val[comp] + ACC
    if op == COMP_SET or op == COMP_DICT:
        emit(out, O.NEW_SET if op == COMP_SET else O.NEW_DICT, 0, line)
        emit(out, STORE_VAR, acc, line)
    elif _collects(tree, types, comp):
        emit(out, O.NEW_LIST, 0, line)
        emit(out, STORE_VAR, acc, line)
    elif op == COMP_SUM and not (is_bare(tree, comp) and tree.next[tree.first[comp]] != -1):
        emit(out, LOAD_INT, 0, line)  # 0 and 0.0 have the same bits
        emit(out, STORE_VAR, acc, line)
    elif op == COMP_MIN or op == COMP_MAX:
        emit(out, LOAD_INT, 0, line)
        emit(out, STORE_VAR, tree.val[comp] + FLAG, line)


@nrt_free
def _before_element(comp, tree, types, out, line):
    """What the step needs below the element: the list or the sum so far."""
    op = tree.op[comp]
    if _collects(tree, types, comp) or op == COMP_SUM or op == COMP_SET or op == COMP_DICT:
        emit(out, LOAD_VAR, tree.val[comp] + ACC, line)


@nrt_free
def _fold(comp, tree, types, out, e, line):
    """min / max of numbers, the element on top: the first is kept, later ones folded."""
    acc, flag = tree.val[comp] + ACC, tree.val[comp] + FLAG
    emit(out, LOAD_VAR, flag, line)
    later = emit(out, JUMP_IF_TRUE, -1, line)
    emit(out, LOAD_INT, 1, line)
    emit(out, STORE_VAR, flag, line)
    emit(out, STORE_VAR, acc, line)
    done = emit(out, JUMP, -1, line)
    patch(out, later)
    out.cg[CG_DEPTH] += 1  # the element, as JUMP_IF_TRUE left it
    emit(out, LOAD_VAR, acc, line)
    emit(out, ROT_TWO, 0, line)  # acc e: e replaces acc only when it is smaller / larger
    is_max = 1 if tree.op[comp] == COMP_MAX else 0
    if e == T_FLOAT:
        emit(out, O.FLOAT_MAX2 if is_max else O.FLOAT_MIN2, 0, line)
    else:
        emit(out, O.INT_MAX2 if is_max else O.INT_MIN2, 0, line)
    emit(out, STORE_VAR, acc, line)
    patch(out, done)


@nrt_free
def _step(comp, decided, tree, types, out, line, err):
    """The element is on top: the consumer takes it.  Returns any / all's chain `decided`
    with the jump this element's deciding truth takes."""
    op, e = tree.op[comp], comprehension_element(tree, types, comp)
    if op == COMP_SET:
        emit_typed(out, O.SET_ADD, types.type[comp], line, err)
    elif op == COMP_DICT:  # d k v: the pair's values, no tuple
        emit(out, ROT_THREE, 0, line)
        emit_typed(out, O.DICT_SET, types.type[comp], line, err)
    elif _collects(tree, types, comp):
        emit(out, O.LIST_APPEND, 0, line)
    elif op == COMP_SUM:
        emit_arith(out, BIN_ADD, types.type[comp], e, line)
        emit(out, STORE_VAR, tree.val[comp] + ACC, line)
    elif op == COMP_ANY or op == COMP_ALL:
        emit_truth(out, e, line)
        decided = emit(out, JUMP_IF_TRUE if op == COMP_ANY else JUMP_IF_FALSE, decided, line)
    else:
        _fold(comp, tree, types, out, e, line)
    return decided


@nrt_free
def _finish(comp, decided, tree, types, out, line):
    """After the loops: push the result."""
    op, acc = tree.op[comp], tree.val[comp] + ACC
    if op == COMP_ANY or op == COMP_ALL:
        emit(out, LOAD_INT, 0 if op == COMP_ANY else 1, line)  # no element decided
        end = emit(out, JUMP, -1, line)
        patch(out, decided)
        out.cg[CG_DEPTH] -= 1
        emit(out, LOAD_INT, 1 if op == COMP_ANY else 0, line)
        patch(out, end)
        return
    if (op == COMP_MIN or op == COMP_MAX) and not _collects(tree, types, comp):
        emit(out, LOAD_VAR, tree.val[comp] + FLAG, line)
        seen = emit(out, JUMP_IF_TRUE, -1, line)
        emit(out, O.NEW_LIST, 0, line)  # no element: min([])'s ValueError
        emit(out, O.LIST_MIN, 0, line)
        emit(out, POP_TOP, 0, line)
        patch(out, seen)
    emit(out, LOAD_VAR, acc, line)
    if (op == COMP_MIN or op == COMP_MAX) and _collects(tree, types, comp):
        emit(out, O.LIST_MAX if op == COMP_MAX else O.LIST_MIN, element_kind(LIST_STR), line)


@nrt_free
def _owner(tree, stk, top):
    """The walk row of the COMP whose clause has the frame at row top."""
    j = top - 1
    while tree.kind[stk[j, S_NODE]] != N_COMP:
        j -= 1
    return j


@nrt_free
def _next(n, owner, tree, types, out, stk, line):
    """Clause n's loop is open (or its condition tested): walk what follows it."""
    nxt = tree.next[n]
    if tree.next[nxt] == -1:  # the element
        _before_element(stk[owner, S_NODE], tree, types, out, line)
    return nxt


@nrt_free
def _after_next(n, owner, tree, types, out, stk, line, err):
    """What follows clause n is walked: after the element, the consumer's step."""
    if tree.next[tree.next[n]] == -1:
        stk[owner, C_DECIDED] = _step(stk[owner, S_NODE], stk[owner, C_DECIDED], tree, types, out, line, err)


@nrt_free
def _list_clause(n, st, top, tree, types, out, stk, line, err):
    """`for x in xs` (a list, a str, a dict, a set: emit_dict.for_test; `for a, (b, c) in xs`:
    the element unpacked): xs into the hidden slots, the loop around the rest."""
    h = types.slot[n] + 1
    owner = _owner(tree, stk, top)
    opc, it = for_test(tree, types, tree.first[n])
    if st == 0:
        return it
    if st == 1:
        emit(out, STORE_VAR, h, line)
        emit(out, LOAD_INT, 0, line)
        emit(out, STORE_VAR, h + 1, line)
        open_loop(tree, out, stk, top, n, line)
        if tree.val[n] > 0:  # for a, (b, c) in xs: the element into the target's names
            out.cg[CG_DEPTH] += 1
            emit_unpack_value(tree.val[n], tree, types, out, stk, top + 1, line)
        else:
            store_loop_variable(out, types.slot[n], types.type[tree.first[n]] == T_STR, line)
        return _next(n, owner, tree, types, out, stk, line)
    _after_next(n, owner, tree, types, out, stk, line, err)
    close_list_loop(out, stk, top, h, opc, line)
    return DONE


@nrt_free
def _range_target(nargs, reverse, a):
    """The hidden slot (0 counter, 1 stop, 2 step) argument a of range(nargs args) goes to;
    reversed(range(n)) is range(n - 1, -1, -1), reversed(range(a, b)) range(b - 1, a - 1, -1)."""
    if reverse:
        return 0 if a == nargs - 1 else 1
    return 1 if nargs == 1 else a


@nrt_free
def _range_constants(nargs, reverse, h, out, line):
    """The hidden range slots no argument gives: a start of 0, a step of 1 (-1 reversed), the
    stop -1 of reversed(range(n))."""
    if reverse:
        if nargs == 1:
            emit(out, LOAD_INT, -1, line)
            emit(out, STORE_VAR, h + 1, line)
        emit(out, LOAD_INT, -1, line)
        emit(out, STORE_VAR, h + 2, line)
        return
    if nargs == 1:
        emit(out, LOAD_INT, 0, line)
        emit(out, STORE_VAR, h, line)
    if nargs < 3:
        emit(out, LOAD_INT, 1, line)
        emit(out, STORE_VAR, h + 2, line)


@nrt_free
def _range_clause(n, st, top, tree, types, out, stk, line, err):
    """`for x in range(args)` / `reversed(range(args))`: the arguments in order, each into its
    hidden slot (reversed: less one), RANGE_CHECK for a step that may be 0, the loop."""
    h = types.slot[n] + 1
    nargs = tree.op[n] & (REVERSED_RANGE - 1)
    reverse = (tree.op[n] & REVERSED_RANGE) != 0
    owner = _owner(tree, stk, top)
    if st == 0:
        _range_constants(nargs, reverse, h, out, line)
        stk[top, R_ARG] = tree.first[n]
        return tree.first[n]
    if st <= nargs:
        if reverse:
            emit(out, LOAD_INT, 1, line)
            emit_arith(out, BIN_SUB, T_INT, T_INT, line)
        emit(out, STORE_VAR, h + _range_target(nargs, reverse, st - 1), line)
        if st < nargs:
            stk[top, R_ARG] = tree.next[stk[top, R_ARG]]
            return stk[top, R_ARG]
        if nargs == 3 and not nonzero_literal(tree, stk[top, R_ARG]):
            emit(out, O.RANGE_CHECK, h, line)
        open_loop(tree, out, stk, top, n, line)
        store_loop_variable(out, types.slot[n], False, line)
        return _next(n, owner, tree, types, out, stk, line)
    _after_next(n, owner, tree, types, out, stk, line, err)
    close_range_loop(out, stk, top, h, line)
    return DONE


@nrt_free
def _if_clause(n, st, top, tree, types, out, stk, line, err):
    """`if c`: what follows runs only where c is true (its jump skips it)."""
    owner = _owner(tree, stk, top)
    if st == 0:
        return tree.first[n]
    if st == 1:
        emit_truth(out, types.type[tree.first[n]], line)
        stk[top, S_A] = emit(out, JUMP_IF_FALSE, -1, line)
        return _next(n, owner, tree, types, out, stk, line)
    _after_next(n, owner, tree, types, out, stk, line, err)
    patch(out, stk[top, S_A])
    return DONE


@nrt_free
def _bare_loop(n, top, tree, types, out, stk, line, err):
    """A bare COMP, its iterable in the hidden slots (and start in acc): the loop, the
    element its value, and the result."""
    var = tree.val[n] + VARS
    open_loop(tree, out, stk, top, n, line)
    store_loop_variable(out, var, types.type[tree.first[n]] == T_STR, line)
    _before_element(n, tree, types, out, line)
    emit(out, LOAD_VAR, var, line)
    decided = _step(n, -1, tree, types, out, line, err)
    close_list_loop(out, stk, top, var + 1, for_test(tree, types, tree.first[n])[0], line)
    _finish(n, decided, tree, types, out, line)


@nrt_free
def _comp(n, st, top, tree, types, out, stk, line, err):
    """The COMP: its consumer's start, its first clause (or, bare, its iterable and start),
    its result."""
    first = tree.first[n]
    if st == 0:
        stk[top, C_DECIDED] = -1
        _start(n, tree, types, out, line)
        return for_test(tree, types, first)[1] if is_bare(tree, n) else first
    if not is_bare(tree, n):
        _finish(n, stk[top, C_DECIDED], tree, types, out, line)
        return DONE
    h = tree.val[n] + VARS + 1
    start = tree.next[first]
    if st == 1:
        emit(out, STORE_VAR, h, line)
        emit(out, LOAD_INT, 0, line)
        emit(out, STORE_VAR, h + 1, line)
        if start != -1:
            return start
    else:  # sum(xs, start)
        emit_convert(out, types.type[n], types.type[start], line)
        emit(out, STORE_VAR, tree.val[n] + ACC, line)
    _bare_loop(n, top, tree, types, out, stk, line, err)
    return DONE


@nrt_free
def emit_comprehension(n, st, top, tree, types, out, stk, line, err):
    """Visit st of a COMP, COMP_FOR or COMP_IF node (its frame at row top of stk): emit what
    is due and answer the node to evaluate next, or DONE."""
    k = tree.kind[n]
    if k == N_COMP:
        return _comp(n, st, top, tree, types, out, stk, line, err)
    if k == N_COMP_FOR and tree.op[n] == 0:
        return _list_clause(n, st, top, tree, types, out, stk, line, err)
    if k == N_COMP_FOR:
        return _range_clause(n, st, top, tree, types, out, stk, line, err)
    return _if_clause(n, st, top, tree, types, out, stk, line, err)

