"""The code generator's operator -> instruction tables (compiler/emit_tables.py) agree with their
source tables: each entry is the instruction of contract/isa.py whose meaning is that
operator (its doc says so), and -1 exactly where the instruction set has none."""

from __future__ import annotations

import operator
import re

import pytest

from gpucc.compiler import emit_tables, nodes, scope
from gpucc.contract import isa


def _doc(opc: int) -> str:
    return isa.TABLE[opc].doc


def test_binary_operators():
    no_int, no_float = {"/"}, {"&", "|", "^", "<<", ">>"}  # `/` is always float; no float bit operations
    for b, sym in enumerate(nodes.BIN_NAMES):
        for table, kind, missing in ((emit_tables.BIN_OPCODES, "int", no_int),
                                     (emit_tables.FLOAT_OPCODES, "float", no_float)):  # fmt: skip
            if sym in missing:
                assert table[b] == -1, (kind, sym)
            else:
                assert _doc(table[b]).startswith(f"{kind} a {sym} b"), (kind, sym, isa.TABLE[table[b]].name)


def test_unary_operators():
    want = {"-": ("int -a", "float -a"), "+": (None, None), "not": ("bool not a", "bool not a"), "~": ("int ~a", None)}
    for u, sym in enumerate(nodes.UN_NAMES):
        for table, doc in zip((emit_tables.UNARY_OPCODES, emit_tables.FLOAT_UNARY_OPCODES), want[sym]):
            assert (table[u] == -1) if doc is None else _doc(table[u]).startswith(doc), sym


def test_comparisons_and_their_mirror():
    for c, sym in enumerate(isa.CMP_NAMES):
        assert _doc(emit_tables.CMP_OPCODES[c]) == f"a {sym} b"
    ops = {"<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne, ">": operator.gt,
           ">=": operator.ge}  # fmt: skip
    for c, sym in enumerate(isa.CMP_NAMES):
        mirrored = ops[isa.CMP_NAMES[emit_tables.MIRRORED[c]]]
        assert all(ops[sym](a, b) == mirrored(b, a) for a in range(-2, 3) for b in range(-2, 3)), sym


def test_and_or_jumps():
    python = {"and": lambda a, b: a and b, "or": lambda a, b: a or b}
    for b, name in enumerate(nodes.BOOL_NAMES):
        decides = emit_tables.DECIDING_TRUTH[b]  # a left value of this truth is the result, the other is not
        assert python[name](decides, 7) == decides and python[name](1 - decides, 7) == 7
        assert f"(`{name}`)" in _doc(emit_tables.JUMP_IF_OR_POP[decides])
    for truth, word in enumerate(("false", "true")):
        assert _doc(emit_tables.JUMP_IF[truth]) == f"pop; jump if it is {word}"
        assert _doc(emit_tables.JUMP_IF_OR_POP[truth]).startswith(f"if top is {word} jump (keep it)")


@pytest.mark.parametrize("b", range(scope.N_SUPPORTED_BUILTINS))
def test_builtins(b):
    name = scope.BUILTINS[b]
    # "int abs(a)", "int(a) of a float", "len(xs)", "ord(s)", "str(x) ...": the builtin applied to that argument
    columns = ((emit_tables.ON_NUMBER, "int"), (emit_tables.ON_FLOAT, "float"), (emit_tables.ON_LIST, "list"),
               (emit_tables.ON_STR, "str"))  # fmt: skip
    for column, arg in columns:
        opc = emit_tables.BUILTIN_OPCODES[b, column]
        if opc < 0 or isa.TABLE[opc].group == "str":
            continue
        said = rf"{arg} {name}\(a\)|{name}\(a\) of an? {arg}" if arg in ("int", "float") else rf".*{name}\(xs\)"
        assert re.match(said, _doc(opc)), (name, arg, _doc(opc))
        assert (isa.TABLE[opc].group == "list") == (column in (emit_tables.ON_LIST, emit_tables.ON_STR))
        assert isa.OPERAND_KIND[opc] == isa.ARG_NONE or isa.IMM_MAX[opc] >= 1  # builtin_operand: an element kind
    for result, kind in enumerate(("int", "float")):
        opc = emit_tables.FOLD_OPCODES[b, result]
        assert (opc >= 0) == (name in ("min", "max"))
        assert opc < 0 or _doc(opc).startswith(f"{kind} {name}(a, b)")


def test_str_builtins():
    str_ops = {(scope.BUILTINS[b], column, isa.TABLE[emit_tables.BUILTIN_OPCODES[b, column]].name)
               for b in range(scope.N_SUPPORTED_BUILTINS) for column in range(4)
               if emit_tables.BUILTIN_OPCODES[b, column] >= 0
               and isa.TABLE[emit_tables.BUILTIN_OPCODES[b, column]].group == "str"}  # fmt: skip
    assert str_ops == {("int", emit_tables.ON_STR, "STR_TO_NUM"), ("float", emit_tables.ON_STR, "STR_TO_NUM"),
                       ("str", emit_tables.ON_NUMBER, "STR_FROM"), ("str", emit_tables.ON_FLOAT, "STR_FROM"),
                       ("ord", emit_tables.ON_STR, "STR_ORD"), ("chr", emit_tables.ON_NUMBER, "STR_CHR"),
                       *((b, emit_tables.ON_NUMBER, "STR_RADIX") for b in ("bin", "oct", "hex"))}  # fmt: skip
    for name, _, op in str_ops:
        assert f"{name}(" in isa.BY_NAME[op].doc or f" {name} " in isa.BY_NAME[op].doc


def test_methods():
    for m, name in enumerate(scope.METHODS):
        opc, mode = emit_tables.METHOD_OPCODES[m], emit_tables.METHOD_MODES[m]
        if m >= scope.M_LIST_CLEAR:  # the other list methods: copy is xs[:], the rest name their instruction
            assert (opc, mode) == (isa.LIST_SLICE, 0) if name == "copy" else f"xs.{name}(" in _doc(opc), name
            continue
        if name in scope.DICT_METHODS + scope.SET_METHODS:  # compiler/emit_dict.py's
            assert opc == -1
            continue
        doc = _doc(opc)
        if isa.TABLE[opc].group == "list":
            assert f"xs.{name}(" in doc
            assert isa.OPERAND_KIND[opc] == isa.ARG_NONE or (mode < 0 and isa.IMM_MAX[opc] >= 2)  # an element kind
        elif isa.OPERAND_KIND[opc] == isa.ARG_IMM:  # "arg 0 s.lower(), 1 upper, ...": the mode names the method
            assert re.search(rf"\b{mode} (s\.)?{name}\b", doc), (name, mode, doc)
            assert 0 <= mode <= isa.IMM_MAX[opc]
        else:
            assert f".{name}(" in doc and mode == 0
