"""Code generator, the parts every for loop is made of (statements, compiler/codegen_loops.py;
comprehension clauses, compiler/codegen_comp.py): the loop's frame columns, its top (the
entry jump to the test, the value the test pushed stored in the loop variable or unpacked
into its target's names, as an unpacking assignment's) and its bottom (the test: FOR_LOOP
over a range, FOR_LIST over a list or a str).  Kernel bodies.
"""

from __future__ import annotations

from gpucc.compiler.emit import CG_DEPTH, CG_ENTRY, CG_PC, emit, emit_convert, patch
from gpucc.compiler.nodes import N_BOOL, N_INT, N_NAME, N_UNARY, N_WHILE, UN_NOT
from gpucc.compiler.typecheck_base import S_A, S_B, S_C, S_NODE, is_const_true
from gpucc.compiler.typecheck_calls import count_from
from gpucc.compiler.typerules import is_list
from gpucc.contract import isa as O
from gpucc.contract.isa import DUP_TOP, FOR_LIST, FOR_LOOP, FOR_RANGE, JUMP, LOAD_INT, STORE_VAR, STR_CHR
from gpucc.contract.jitable import nrt_free, pack_fields

# a loop's frame columns on a walk (the statement walk, a comprehension's clause frames),
# besides S_NODE and S_STATE:
LOOP_TOP = S_A  # the pc of the loop's top (absolute, as cg[CG_PC])
LOOP_EXIT = S_B  # the jumps to its exit (break)
LOOP_TEST = S_C  # the jumps to its test (the entry jump, continue); -1 in `while True`

JUMP_FIELD_MAX = 0xFFFF  # the largest jump target of a packed operand's lo field (FOR_LOOP)


@nrt_free
def tested_at_bottom(tree, n):
    """A loop tested at the bottom: `for` and every `while` but `while True`."""
    return tree.kind[n] != N_WHILE or not is_const_true(tree, tree.first[n])


@nrt_free
def open_loop(tree, out, stk, top, n, line):
    """The loop's frame, and its entry jump to the test when it has one."""
    stk[top, LOOP_EXIT] = -1
    stk[top, LOOP_TEST] = emit(out, JUMP, -1, line) if tested_at_bottom(tree, n) else -1
    stk[top, LOOP_TOP] = out.cg[CG_PC]


@nrt_free
def store_loop_variable(out, slot, chars, line):
    """At a for loop's top: store the value its test jumped here with (chars: a code point of
    a str, stored as a 1-char str)."""
    out.cg[CG_DEPTH] += 1
    if chars:
        emit(out, STR_CHR, 0, line)
    emit(out, STORE_VAR, slot, line)


@nrt_free
def _step_or_exit(out, stk, top, opc, slots, loop_top, line):
    """The long form of a for loop's test: opc (FOR_RANGE / FOR_LIST: push the next value
    and skip the next instruction, or fall through at the end); JUMP exit; JUMP top."""
    cg = out.cg
    emit(out, opc, slots, line)
    cg[CG_DEPTH] -= 1  # falling through pushes nothing
    stk[top, LOOP_EXIT] = emit(out, JUMP, stk[top, LOOP_EXIT], line)
    cg[CG_DEPTH] += 1
    emit(out, JUMP, loop_top, line)


@nrt_free
def nonzero_literal(tree, n):
    """A range() step known not to be zero (no RANGE_CHECK needed)."""
    kind = tree.kind
    if kind[n] == N_UNARY and tree.op[n] != UN_NOT:
        n = tree.first[n]
    return (kind[n] == N_INT or kind[n] == N_BOOL) and tree.val[n] != 0


@nrt_free
def close_range_loop(out, stk, top, h, line):
    """The bottom of the loop of frame top over the range in slots h .. h + 2: its test (the
    continues' target), FOR_LOOP (or the long form), its exit (the breaks' target)."""
    loop_top = stk[top, LOOP_TOP] - out.cg[CG_ENTRY]
    patch(out, stk[top, LOOP_TEST])
    if loop_top <= JUMP_FIELD_MAX:
        emit(out, FOR_LOOP, pack_fields(loop_top, h), line)
    else:
        _step_or_exit(out, stk, top, FOR_RANGE, h, loop_top, line)
    out.cg[CG_DEPTH] -= 1  # falls through with nothing pushed
    patch(out, stk[top, LOOP_EXIT])


@nrt_free
def close_list_loop(out, stk, top, h, opc, line):
    """The bottom of the loop of frame top over the list, str, dict or set in slots h, h + 1
    (close_range_loop's), with its for test opc (FOR_LIST, FOR_DICT_*, FOR_SET)."""
    patch(out, stk[top, LOOP_TEST])
    _step_or_exit(out, stk, top, opc, h, stk[top, LOOP_TOP] - out.cg[CG_ENTRY], line)
    out.cg[CG_DEPTH] -= 1
    patch(out, stk[top, LOOP_EXIT])


@nrt_free
def emit_unpack_value(target, tree, types, out, stk, sp, line):
    """The value on top (of type type[target]) into the target's names, as CPython assigns
    them (left to right, depth first): a list's length checked first (UNPACK_CHECK), each item
    got (LIST_GET; DUP_TOP before all but the last) and stored (or unpacked further).  Walk
    stack rows from sp: (node, the next item)."""
    kind, first, next_ = tree.kind, tree.first, tree.next
    top = sp
    stk[top, S_NODE] = target
    stk[top, S_A] = first[target]
    stk[top, S_B] = 0
    top += 1
    if is_list(types.type[target]):
        emit(out, O.UNPACK_CHECK, count_from(next_, first[target]), line)
    while top > sp:
        c = stk[top - 1, S_A]
        if c == -1:
            top -= 1
            continue
        i = stk[top - 1, S_B]
        stk[top - 1, S_A] = next_[c]
        stk[top - 1, S_B] = i + 1
        if next_[c] != -1:
            emit(out, DUP_TOP, 0, line)
        emit(out, LOAD_INT, i, line)
        emit(out, O.LIST_GET, 0, line)
        if kind[c] == N_NAME:
            emit_convert(out, tree.val[c], types.type[c], line)
            emit(out, STORE_VAR, types.slot[c], line)
        else:
            if is_list(types.type[c]):
                emit(out, O.UNPACK_CHECK, count_from(next_, first[c]), line)
            stk[top, S_NODE] = c
            stk[top, S_A] = first[c]
            stk[top, S_B] = 0
            top += 1
