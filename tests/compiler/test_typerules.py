"""The type checker's rule tables (compiler/typerules.py) and code tables (compiler/scope.py):
each agrees with the table it is built from, and the numeric rules give CPython's result types."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

from gpucc.compiler import nodes, scope, typerules
from gpucc.compiler.typerules import EMPTY_LIST as T_EMPTY_LIST
from gpucc.compiler.typerules import LIST_FLOAT as T_LIST_FLOAT
from gpucc.compiler.typerules import LIST_INT as T_LIST_INT
from gpucc.compiler.typerules import LIST_STR as T_LIST_STR
from gpucc.compiler.typerules import binary_type, builtin_type, compare_ok, unary_type
from gpucc.contract import isa
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT, T_STR

# rule table, the names its rows follow, the rules by name
TABLES = {
    "binary": (typerules.BINARY_RULES, nodes.BIN_NAMES, typerules._BINARY),
    "unary": (typerules.UNARY_RULES, nodes.UN_NAMES, typerules._UNARY),
    "compare": (typerules.COMPARE_RULES, typerules.COMPARE_NAMES, typerules._COMPARE),
    "builtin": (typerules.BUILTIN_RULES, scope.SUPPORTED_BUILTINS, typerules._BUILTIN),
    "method": (typerules.METHOD_RULES[: -len(scope.LIST_METHODS)], scope.METHODS[: -len(scope.LIST_METHODS)],
               typerules._METHOD),
    "list method": (typerules.METHOD_RULES[-len(scope.LIST_METHODS) :], scope.LIST_METHODS, typerules._LIST_METHOD_ROWS),
}


@pytest.mark.parametrize("which", TABLES)
def test_each_rule_table_agrees_with_its_source_table(which):
    table, names, rules = TABLES[which]
    assert set(rules) == set(names), "a rule for every name, and for no other"
    assert table.shape[0] == len(names)
    for code, name in enumerate(names):
        assert np.array_equal(table[code], np.asarray(rules[name])), (which, name)


def test_compare_names_follow_the_comparison_codes():
    for code, name in enumerate(isa.CMP_NAMES):
        assert typerules.COMPARE_NAMES[code] == name
    assert typerules.COMPARE_NAMES.index("in") == nodes.CMP_IN
    assert typerules.COMPARE_NAMES.index("not in") == nodes.CMP_NOT_IN


def test_builtin_and_method_codes_follow_their_tables():
    assert scope.BUILTINS[: scope.N_SUPPORTED_BUILTINS] == scope.SUPPORTED_BUILTINS
    assert len(set(scope.BUILTINS)) == len(scope.BUILTINS)
    for code, name in enumerate(scope.SUPPORTED_BUILTINS):
        assert getattr(scope, "B_" + name.upper()) == code
    for code, name in enumerate(scope.METHODS):  # the list methods past append / sort: M_LIST_*
        assert getattr(scope, ("M_LIST_" if code >= scope.M_LIST_CLEAR else "M_") + name.upper()) == code


# a value of each numeric type, and the type code of a CPython result
SAMPLES = {T_INT: 3, T_BOOL: True, T_FLOAT: 2.5}
CODES = {int: T_INT, bool: T_BOOL, float: T_FLOAT}


def python_type(expression: str, **values) -> int:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # ~True
        try:
            return CODES[type(eval(expression, {}, values))]
        except TypeError:
            return -1


@pytest.mark.parametrize(("bop", "name"), list(enumerate(nodes.BIN_NAMES)))
def test_binary_numbers_give_cpythons_result_type(bop, name):
    for lt, rt in itertools.product(SAMPLES, repeat=2):
        assert binary_type(bop, lt, rt) == python_type(f"a {name} b", a=SAMPLES[lt], b=SAMPLES[rt]), (lt, name, rt)


@pytest.mark.parametrize(("uop", "name"), list(enumerate(nodes.UN_NAMES)))
def test_unary_numbers_give_cpythons_result_type(uop, name):
    for t, value in SAMPLES.items():
        assert unary_type(uop, t) == python_type(f"{name} a", a=value), (name, t)


def test_list_operands():
    add, mul, sub = nodes.BIN_NAMES.index("+"), nodes.BIN_NAMES.index("*"), nodes.BIN_NAMES.index("-")
    assert binary_type(add, T_LIST_INT, T_EMPTY_LIST) == T_LIST_INT
    assert binary_type(add, T_LIST_INT, T_LIST_FLOAT) == -1
    assert binary_type(mul, T_BOOL, T_LIST_FLOAT) == T_LIST_FLOAT
    assert binary_type(mul, T_LIST_INT, T_FLOAT) == -1
    assert binary_type(sub, T_LIST_INT, T_LIST_INT) == -1
    assert [unary_type(u, T_LIST_INT) for u in range(len(nodes.UN_NAMES))] == [-1, -1, T_BOOL, -1]
    eq, lt = isa.CMP_NAMES.index("=="), isa.CMP_NAMES.index("<")
    assert compare_ok(eq, T_LIST_INT, T_EMPTY_LIST) and compare_ok(lt, T_LIST_INT, T_LIST_INT)  # lexicographic
    assert not compare_ok(lt, T_LIST_INT, T_EMPTY_LIST) and not compare_ok(eq, T_LIST_INT, T_LIST_STR)
    assert compare_ok(nodes.CMP_IN, T_BOOL, T_LIST_FLOAT) and not compare_ok(nodes.CMP_NOT_IN, T_LIST_INT, T_LIST_INT)
    assert not compare_ok(eq, T_LIST_INT, T_INT) and compare_ok(lt, T_BOOL, T_FLOAT)


def test_str_operands():
    add, mul, sub = nodes.BIN_NAMES.index("+"), nodes.BIN_NAMES.index("*"), nodes.BIN_NAMES.index("-")
    assert binary_type(add, T_STR, T_STR) == T_STR and binary_type(add, T_STR, T_INT) == -1
    assert binary_type(mul, T_BOOL, T_STR) == T_STR and binary_type(mul, T_STR, T_FLOAT) == -1
    assert binary_type(sub, T_STR, T_STR) == -1 and binary_type(add, T_LIST_STR, T_EMPTY_LIST) == T_LIST_STR
    assert [unary_type(u, T_STR) for u in range(len(nodes.UN_NAMES))] == [-1, -1, T_BOOL, -1]
    for c in range(len(isa.CMP_NAMES)):
        assert compare_ok(c, T_STR, T_STR) and not compare_ok(c, T_STR, T_INT) and not compare_ok(c, T_FLOAT, T_STR)
    assert compare_ok(nodes.CMP_IN, T_STR, T_STR) and compare_ok(nodes.CMP_NOT_IN, T_STR, T_LIST_STR)
    assert compare_ok(nodes.CMP_IN, T_STR, T_EMPTY_LIST) and not compare_ok(nodes.CMP_IN, T_INT, T_LIST_STR)
    assert not compare_ok(nodes.CMP_IN, T_STR, T_LIST_INT) and not compare_ok(nodes.CMP_IN, T_INT, T_STR)
    eq, lt = isa.CMP_NAMES.index("=="), isa.CMP_NAMES.index("<")
    assert compare_ok(eq, T_LIST_STR, T_LIST_STR) and not compare_ok(eq, T_LIST_STR, T_LIST_INT)
    assert compare_ok(lt, T_LIST_STR, T_LIST_STR) and not compare_ok(lt, T_LIST_STR, T_STR)


def call_type(b: int, *arg_types: int) -> int:
    """builtin_type of a CALL node 0 whose arguments are nodes 1, 2, ... of these types."""
    n = len(arg_types)
    first = np.array([1] + [-1] * n)
    next_ = np.array([-1] + list(range(2, n + 1)) + [-1])
    return builtin_type(b, first, next_, np.array([-1, *arg_types]), 0)


def test_builtin_result_types():
    def bad(lt, rt=None):  # -1 - the argument at fault: the first (node 1), or the second (node 2) of another type
        return -1 - (1 if rt is None else 2)

    expected = [
        (scope.B_ABS, (T_BOOL,), T_INT), (scope.B_ABS, (T_FLOAT,), T_FLOAT), (scope.B_ABS, (T_LIST_INT,), bad(T_LIST_INT)),
        (scope.B_INT, (T_FLOAT,), T_INT), (scope.B_FLOAT, (T_BOOL,), T_FLOAT), (scope.B_BOOL, (T_LIST_FLOAT,), T_BOOL),
        (scope.B_LEN, (T_EMPTY_LIST,), T_INT), (scope.B_LEN, (T_INT,), bad(T_INT)),
        (scope.B_SUM, (T_LIST_FLOAT,), T_FLOAT), (scope.B_SUM, (T_EMPTY_LIST,), T_INT),
        (scope.B_SORTED, (T_LIST_FLOAT,), T_LIST_FLOAT), (scope.B_MIN, (T_LIST_FLOAT,), T_FLOAT),
        (scope.B_MAX, (T_INT,), bad(T_INT)), (scope.B_MAX, (T_INT, T_INT, T_INT), T_INT),
        (scope.B_MIN, (T_FLOAT, T_FLOAT), T_FLOAT), (scope.B_MIN, (T_INT, T_FLOAT), bad(T_INT, T_FLOAT)),
        (scope.B_MAX, (T_LIST_INT, T_LIST_INT), T_LIST_INT), (scope.B_MAX, (T_LIST_INT, T_LIST_STR), bad(0, 0)),
        (scope.B_LEN, (T_STR,), T_INT), (scope.B_INT, (T_STR,), T_INT), (scope.B_FLOAT, (T_STR,), T_FLOAT),
        (scope.B_BOOL, (T_STR,), T_BOOL), (scope.B_STR, (T_FLOAT,), T_STR), (scope.B_STR, (T_STR,), T_STR),
        (scope.B_STR, (T_LIST_STR,), bad(T_LIST_STR)), (scope.B_ORD, (T_STR,), T_INT), (scope.B_ORD, (T_INT,), bad(T_INT)),
        (scope.B_CHR, (T_BOOL,), T_STR), (scope.B_CHR, (T_STR,), bad(T_STR)),
        (scope.B_MIN, (T_STR, T_STR, T_STR), T_STR), (scope.B_MAX, (T_LIST_STR,), T_STR), (scope.B_MIN, (T_STR,), bad(T_STR)),
        (scope.B_MAX, (T_STR, T_INT), bad(T_STR, T_INT)), (scope.B_SUM, (T_LIST_STR,), bad(T_LIST_STR)),
        (scope.B_SORTED, (T_LIST_STR,), T_LIST_STR), (scope.B_SORTED, (T_STR,), bad(T_STR)),
        (scope.B_ABS, (T_STR,), bad(T_STR)),
    ]  # fmt: skip
    for b, args, want in expected:
        assert call_type(b, *args) == want, (scope.SUPPORTED_BUILTINS[b], args)


def test_builtin_arities():
    takes = {
        name: [k for k in range(5) if typerules.builtin_arity_ok(b, k)]
        for b, name in enumerate(scope.SUPPORTED_BUILTINS)
    }
    want = {"min": [1, 2, 3, 4], "max": [1, 2, 3, 4], "pow": [2], "print": [0, 1, 2, 3, 4], "round": [1, 2]}  # print: any
    assert takes == {name: want.get(name, [1]) for name in scope.SUPPORTED_BUILTINS}
