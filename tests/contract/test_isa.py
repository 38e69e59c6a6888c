"""contract.isa: every per-instruction fact in one table, its derived columns, the typed-compare
operand pair, and contract.flow's stack-depth walk (shared by the verifier and the peephole)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from numba import njit

from gpucc.contract import flow, isa
from gpucc.contract.jitable import typed_cmp, typed_cmp_fields
from gpucc.contract.valuetypes import TYPE_NAMES


def test_groups_are_contiguous_int_numeric_list_str_value_dict_exc_module_math():
    groups = [op.group for op in isa.TABLE]
    assert groups == sorted(groups, key=("int", "numeric", "list", "str", "value", "dict", "exc", "module", "math").index)
    assert isa.TABLE[isa.FIRST_NUMERIC].group == "numeric" and isa.TABLE[isa.FIRST_NUMERIC - 1].group == "int"
    assert isa.TABLE[isa.FIRST_LIST].group == "list" and isa.TABLE[isa.FIRST_LIST - 1].group == "numeric"
    assert isa.TABLE[isa.FIRST_STR].group == "str" and isa.TABLE[isa.FIRST_STR - 1].group == "list"
    assert isa.TABLE[isa.FIRST_VALUE].group == "value" and isa.TABLE[isa.FIRST_VALUE - 1].group == "str"
    assert isa.TABLE[isa.FIRST_DICT].group == "dict" and isa.TABLE[isa.FIRST_DICT - 1].group == "value"
    assert isa.TABLE[isa.FIRST_EXC].group == "exc" and isa.TABLE[isa.FIRST_EXC - 1].group == "dict"
    assert isa.TABLE[isa.FIRST_MODULE].group == "module" and isa.TABLE[isa.FIRST_MODULE - 1].group == "exc"
    assert isa.TABLE[isa.FIRST_MATH].group == "math" and isa.TABLE[isa.FIRST_MATH - 1].group == "module"
    assert isa.TABLE[isa.BINARY_AND].group == "numeric" and isa.TABLE[isa.NEW_LIST].group == "list"
    assert [op.name for op in isa.TABLE if isa.IS_FOR_TEST[op.number]] == list(isa.FOR_TESTS)


def test_columns_are_the_table_fields():
    for op in isa.TABLE:
        assert isa.OPERAND_KIND[op.number] == op.operand
        assert isa.POPS[op.number] == max(op.pops, 0) and isa.PUSHES[op.number] == op.pushes
        assert isa.COSTS[op.number] == op.cost
        assert isa.KEEPS[op.number] == op.keeps and isa.SLOT_WIDTH[op.number] == op.slot_width
        assert isa.IMM_MAX[op.number] == op.imm_max
        assert isa.IS_JUMP[op.number] == (op.number in isa.JUMP_OPCODES)


def test_named_groups_name_real_rows_of_the_right_kind():
    for name in isa.KEEPS_ON_JUMP:
        assert isa.BY_NAME[name].number in isa.JUMP_OPCODES
    for name in isa.SLOT_WIDTHS:
        assert isa.BY_NAME[name].operand == isa.ARG_LOCAL
    for name in isa.IMM_MAXES:
        assert isa.BY_NAME[name].operand == isa.ARG_IMM
    assert {op.name for op in isa.TABLE if op.operand == isa.ARG_TYPED_CMP} == {"ASSERT_CMP", "COMPARE_NUM",
                                                                                 "LIST_CONTAINS"}  # fmt: skip


@njit
def _jitted_round_trip(cmp, lt, rt):
    return typed_cmp_fields(typed_cmp(cmp, lt, rt))


def test_typed_cmp_round_trips_in_python_and_in_kernels():
    seen = set()
    for cmp, lt, rt in itertools.product(range(len(isa.CMP_NAMES)), range(len(TYPE_NAMES)), range(len(TYPE_NAMES))):
        arg = isa.typed_cmp(cmp, lt, rt)
        assert 0 <= arg < 2**31 and arg not in seen
        seen.add(arg)
        assert isa.typed_cmp_fields(arg) == (cmp, lt, rt) == _jitted_round_trip(cmp, lt, rt)


def _walk(code, arity=(), max_stack=8):
    ops = np.array([isa.BY_NAME[name].number for name, _ in code], np.int32)
    args = np.array([arg for _, arg in code], np.int32)
    depth, work = np.zeros(len(code), np.int32), np.zeros(len(code), np.int32)
    result = flow.stack_depths(ops, args, np.array(arity, np.int32), max_stack, depth, work)
    return result, depth.tolist()


def test_stack_depths_of_a_branching_function():
    # 0: LOAD_INT; 1: JUMP_IF_FALSE 4; 2: LOAD_INT; 3: RETURN; 4: LOAD_INT 2; 5: RETURN
    code = [("LOAD_INT", 1), ("JUMP_IF_FALSE", 4), ("LOAD_INT", 1), ("RETURN", 0), ("LOAD_INT", 2), ("RETURN", 0)]
    assert _walk(code) == ((flow.FLOW_OK, -1, 0, 0), [0, 1, 0, 1, 0, 1])


def test_stack_depths_keeps_on_jump_and_calls_pop_their_arity():
    # `a or b`: JUMP_IF_TRUE_OR_POP keeps its operand when it jumps, pops it falling through
    code = [("LOAD_INT", 1), ("JUMP_IF_TRUE_OR_POP", 3), ("LOAD_INT", 2), ("CALL", 0), ("RETURN", 0)]
    assert _walk(code, arity=[1]) == ((flow.FLOW_OK, -1, 0, 0), [0, 1, 0, 1, 1])


@pytest.mark.parametrize(("code", "problem"), [
    ([("POP_TOP", 0), ("RETURN", 0)], (flow.FLOW_UNDERFLOW, 0, 0, 1)),
    ([("LOAD_INT", 1), ("LOAD_INT", 1), ("LOAD_INT", 1), ("RETURN", 0)], (flow.FLOW_OVERFLOW, 2, 3, 2)),
    ([("LOAD_INT", 1), ("LOAD_INT", 1), ("JUMP_IF_FALSE", 4), ("LOAD_INT", 1), ("RETURN", 0)],
     (flow.FLOW_JOIN, 4, 1, 2)),
    ([("LOAD_INT", 1), ("POP_TOP", 0)], (flow.FLOW_FALLS_OFF, 1, 0, 0)),
])  # fmt: skip
def test_stack_depths_reports_the_first_problem(code, problem):
    assert _walk(code, max_stack=2)[0] == problem
