"""The type rules of the gpucc language: which operand types an operator, builtin or method
takes and what it gives (kernel bodies: pure functions of type codes, for the type checker).

The rules per operator, builtin and method are tables (module-level arrays, constants to
numba), one row per code in the order of its source table: nodes.BIN_NAMES / UN_NAMES,
COMPARE_NAMES, scope.SUPPORTED_BUILTINS / METHODS; a test keeps each equal to its source.

Types are contract.typecodes' packed codes (compiler/typeshapes.py: their joins and
comparisons); EMPTY_LIST (a list of UNKNOWN) is the type of `[]` before its context (an
annotation, a parameter, the other operand) gives it one; it never reaches the VM.  Error
results are -1 (builtin_type: -1 - the argument at fault).
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler.errors import C_MIXED_LIST, C_TYPE_TOO_LARGE
from gpucc.compiler.nodes import BIN_AND, BIN_NAMES, BIN_OR, BIN_POW, BIN_SUB, BIN_XOR, UN_NAMES
from gpucc.compiler.scope import B_REVERSED, B_ROUND, B_SORTED, LIST_METHODS, METHODS, STR_METHODS, SUPPORTED_BUILTINS
from gpucc.compiler.typeshapes import (  # noqa: F401 - LIST_FLOAT, LIST_INT, converts: the rules' too
    EMPTY_LIST,
    LIST_FLOAT,
    LIST_INT,
    LIST_STR,
    comparable,
    converts,
    has_keyed,
    is_number,
    is_optional,
    is_tuple,
    join,
    orderable,
    subtree,
    tuple_concat,
    tuple_fields_type,
)
from gpucc.contract.isa import CMP_GE, CMP_GT, CMP_LE, CMP_LT, CMP_NAMES
from gpucc.contract.jitable import nrt_free, type_is_heap, type_list_of, type_value_of
from gpucc.contract.typecodes import COUNTER, DEFAULTDICT, DEQUE, DICT, LIST, NONE, SET
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT, T_NONE, T_STR  # a scalar's type code is its flat code

# what an operand or argument must be (A_*); what the result is: a type code, or a rule R_*
# on the operand type t
A_ANY, A_NUMBER, A_INTEGRAL, A_LIST = range(4)
A_LIST_OR_NUMBERS = 4  # min / max: one list, or numbers (or other orderable values) all of one type
A_SCALAR = 5  # a number or a str
A_SIZED = 6  # a list, a tuple or a str
A_NUMBER_LIST = 7  # a list of numbers
A_STR = 8  # a str
A_VALUES = 9  # any number of values of any types (print: evaluated, the output dropped)
R_ARG = -1  # t itself
R_ELEMENT = -2  # the element type of the list t
R_NUMERIC = -3  # a float stays a float, an int or bool gives an int (abs, -x)
R_SUM = -4  # the sum of the list t's elements: a float of floats, else an int
R_POWER = -5  # pow(a, b): a ** b's type (the second argument a number too)

# binary operators: what they do to numbers (NUM_*) and to lists and strs (LISTS_*)
NUM_ARITH = 0  # a float if either is one, else an int
NUM_TRUE_DIV = 1  # a float
NUM_BITWISE = 2  # ints and bools only: a bool of two bools, else an int
NUM_SHIFT = 3  # ints and bools only: an int
LISTS_NONE, LISTS_CONCAT, LISTS_REPEAT = range(3)  # -, list + list, list * int and int * list (strs alike)
BINARY_NUMBERS, BINARY_LISTS = range(2)  # columns of BINARY_RULES
_BINARY = {
    "+": (NUM_ARITH, LISTS_CONCAT), "-": (NUM_ARITH, LISTS_NONE), "*": (NUM_ARITH, LISTS_REPEAT),
    "//": (NUM_ARITH, LISTS_NONE), "%": (NUM_ARITH, LISTS_NONE), "/": (NUM_TRUE_DIV, LISTS_NONE),
    "**": (NUM_ARITH, LISTS_NONE), "&": (NUM_BITWISE, LISTS_NONE), "|": (NUM_BITWISE, LISTS_NONE),
    "^": (NUM_BITWISE, LISTS_NONE), "<<": (NUM_SHIFT, LISTS_NONE), ">>": (NUM_SHIFT, LISTS_NONE),
}  # fmt: skip

# unary operators: (operand, result)
UNARY_ARG, UNARY_RESULT = range(2)  # columns of UNARY_RULES
_UNARY = {"-": (A_NUMBER, R_NUMERIC), "+": (A_NUMBER, R_NUMERIC), "not": (A_ANY, T_BOOL), "~": (A_INTEGRAL, T_INT)}

# comparison operators: contract.isa's six, then nodes.CMP_IN / CMP_NOT_IN, CMP_IS / CMP_IS_NOT
COMPARE_NAMES = CMP_NAMES + ("in", "not in", "is", "is not")
ORDERING = 0  # values with an order: numbers with numbers, strs, lists and tuples of one shape
EQUALITY = 1  # numbers with numbers, values of one shape (typeshapes.comparable)
MEMBERSHIP = 2  # a value in a list or tuple of values it compares with, a str in a str
IDENTITY = 3  # None with None, an Optional or a value in the heap (`x is None`)
_COMPARE = {"<": ORDERING, "<=": ORDERING, "==": EQUALITY, "!=": EQUALITY, ">": ORDERING, ">=": ORDERING,
            "in": MEMBERSHIP, "not in": MEMBERSHIP, "is": IDENTITY, "is not": IDENTITY}  # fmt: skip

# supported builtins: (the arguments the message names, the argument, the result)
BUILTIN_NARGS, BUILTIN_ARG, BUILTIN_RESULT = range(3)  # columns of BUILTIN_RULES
_BUILTIN = {
    "abs": (1, A_NUMBER, R_NUMERIC), "min": (2, A_LIST_OR_NUMBERS, R_ARG),
    "max": (2, A_LIST_OR_NUMBERS, R_ARG), "int": (1, A_SCALAR, T_INT), "float": (1, A_SCALAR, T_FLOAT),
    "bool": (1, A_ANY, T_BOOL), "len": (1, A_SIZED, T_INT), "sum": (1, A_NUMBER_LIST, R_SUM),
    "sorted": (1, A_LIST, R_ARG), "str": (1, A_SCALAR, T_STR), "ord": (1, A_STR, T_INT),
    "chr": (1, A_INTEGRAL, T_STR), "reversed": (1, A_SIZED, R_ARG), "round": (1, A_NUMBER, T_INT),
    "pow": (2, A_NUMBER, R_POWER), "print": (0, A_VALUES, T_NONE),
    **{b: (1, A_INTEGRAL, T_STR) for b in ("bin", "oct", "hex")},
}  # fmt: skip

# methods: (the receiver, the fewest and most arguments, the type each argument converts to
# (-1: none; A_ELEMENT: the list's element type), the result)
RECEIVER_LIST, RECEIVER_STR, RECEIVER_DICT, RECEIVER_SET = range(4)
A_ELEMENT = -2  # a list's element type, a dict's key type, a set's element type
A_VALUE = -3  # a dict's value type
A_SAME = -4  # the receiver's type
# the results of the dict and set methods that depend on the receiver's type
MR_VALUE, MR_GET, MR_KEYS, MR_VALUES, MR_ITEMS = -2, -3, -4, -5, -6
MR_ELEMENT, MR_SAME = -7, -8  # the list methods': an element (pop), the receiver's type (copy)
METHOD_RECEIVER, METHOD_MIN_ARGS, METHOD_MAX_ARGS, METHOD_ARG, METHOD_RESULT = 0, 1, 2, 3, 6  # columns of METHOD_RULES
_STR_METHOD_SHAPES = {  # the instruction's methods: (fewest, most arguments, their types, result)
    "STR_CASE": (0, 0, (), T_STR), "STR_IS": (0, 0, (), T_BOOL), "STR_STRIP": (0, 1, (T_STR,), T_STR),
    "STR_SPLIT": (0, 2, (T_STR, T_INT), LIST_STR), "STR_JOIN": (1, 1, (LIST_STR,), T_STR),
    "STR_REPLACE": (2, 3, (T_STR, T_STR, T_INT), T_STR), "STR_FIND": (1, 1, (T_STR,), T_INT),
    "STR_PAD": (1, 2, (T_INT, T_STR), T_STR),
}  # fmt: skip


def _method_row(receiver, fewest, most, args, result):
    return (receiver, fewest, most, *args, *([-1] * (3 - len(args))), result)


_METHOD = {"append": _method_row(RECEIVER_LIST, 1, 1, (A_ELEMENT,), T_NONE),
           "sort": _method_row(RECEIVER_LIST, 0, 0, (), T_NONE),
           **{m: _method_row(RECEIVER_STR, *_STR_METHOD_SHAPES[opname]) for opname, group in STR_METHODS.items()
              for m in group}}  # fmt: skip
_METHOD.update({
    "get": _method_row(RECEIVER_DICT, 1, 2, (A_ELEMENT, A_VALUE), MR_GET),
    "setdefault": _method_row(RECEIVER_DICT, 2, 2, (A_ELEMENT, A_VALUE), MR_VALUE),
    "pop": _method_row(RECEIVER_DICT, 1, 2, (A_ELEMENT, A_VALUE), MR_VALUE),
    "update": _method_row(RECEIVER_DICT, 1, 1, (A_SAME,), T_NONE),
    "keys": _method_row(RECEIVER_DICT, 0, 0, (), MR_KEYS),
    "values": _method_row(RECEIVER_DICT, 0, 0, (), MR_VALUES),
    "items": _method_row(RECEIVER_DICT, 0, 0, (), MR_ITEMS),
    **{m: _method_row(RECEIVER_SET, 1, 1, (A_ELEMENT,), T_NONE) for m in ("add", "discard", "remove")},
})  # fmt: skip
_LIST_METHOD = {"clear": (0, 0, (), T_NONE), "extend": (1, 1, (A_SAME,), T_NONE), "pop": (0, 1, (T_INT,), MR_ELEMENT),
                "insert": (2, 2, (T_INT, A_ELEMENT), T_NONE), "reverse": (0, 0, (), T_NONE),
                "index": (1, 1, (A_ELEMENT,), T_INT), "count": (1, 1, (A_ELEMENT,), T_INT),
                "remove": (1, 1, (A_ELEMENT,), T_NONE), "copy": (0, 0, (), MR_SAME)}  # fmt: skip
for _m in ("startswith", "endswith"):  # STR_FIND's tests
    _METHOD[_m] = _METHOD[_m][:METHOD_RESULT] + (T_BOOL,)


def rule_table(names, rules):
    """int32 array of rules[name] for each name, in the order of names (a row or a value each)."""
    return np.array([rules[name] for name in names], dtype=np.int32)


BINARY_RULES = rule_table(BIN_NAMES, _BINARY)
UNARY_RULES = rule_table(UN_NAMES, _UNARY)
COMPARE_RULES = rule_table(COMPARE_NAMES, _COMPARE)
BUILTIN_RULES = rule_table(SUPPORTED_BUILTINS, _BUILTIN)
_LIST_METHOD_ROWS = {m: _method_row(RECEIVER_LIST, *r) for m, r in _LIST_METHOD.items()}
METHOD_RULES = np.concatenate((rule_table(METHODS[: -len(LIST_METHODS)], _METHOD), rule_table(LIST_METHODS, _LIST_METHOD_ROWS)))


@nrt_free
def is_list(t):
    """A list, or a deque (a list whose type has the DEQUE head: compiler/typecheck_deque.py)."""
    return (t & 15) == LIST or (t & 15) == DEQUE


@nrt_free
def is_deque(t):
    return (t & 15) == DEQUE


@nrt_free
def list_view(t):
    """t, a deque's type made its list's (the list instructions' operand kinds)."""
    return t ^ DEQUE ^ LIST if (t & 15) == DEQUE else t


@nrt_free
def is_dict(t):
    """A dict, a Counter (a dict whose missing keys count 0) or a defaultdict."""
    return (t & 15) == DICT or (t & 15) == COUNTER or (t & 15) == DEFAULTDICT


@nrt_free
def is_defaultdict(t):
    return (t & 15) == DEFAULTDICT


@nrt_free
def as_dict(t):
    """Type t, a defaultdict's as the dict it is."""
    return t ^ DEFAULTDICT ^ DICT if is_defaultdict(t) else t


@nrt_free
def keyed_join(a, b):
    """The type == of dicts or sets of types a and b compares as: their join; a defaultdict and
    a dict of its keys and values as dicts."""
    j = join(a, b)
    return j if j >= 0 else join(as_dict(a), as_dict(b))


@nrt_free
def is_counter(t):
    return (t & 15) == COUNTER


@nrt_free
def is_set(t):
    return (t & 15) == SET


@nrt_free
def is_sized(t):
    """A list, a tuple, a str (a str is a list of code points: len, slices, truth, +, *), a
    dict or a set (len, truth, iteration)."""
    return is_list(t) or is_tuple(t) or t == T_STR or is_dict(t) or is_set(t)


@nrt_free
def is_integral(t):
    return t == T_INT or t == T_BOOL


@nrt_free
def element_type(t):
    """The type of the items of list, str or tuple t (`[]`'s: int; a tuple's if its fields
    are of one type, else -1)."""
    if t == T_STR:
        return T_STR
    if is_tuple(t):
        return tuple_fields_type(t)
    if is_dict(t):  # its keys
        return subtree(t, 1)
    return T_INT if t == EMPTY_LIST else t >> 4


@nrt_free
def takes(arg, t):
    """Whether an operand or argument of type t is what arg (A_*) asks for."""
    if arg == A_NUMBER:
        return is_number(t)
    if arg == A_INTEGRAL:
        return is_integral(t)
    if arg == A_LIST:  # a dict's keys or a set's elements too
        return (is_list(t) or is_dict(t) or is_set(t)) and orderable(element_type(t))
    if arg == A_SCALAR:
        return is_number(t) or t == T_STR
    if arg == A_SIZED:
        return is_sized(t)
    if arg == A_NUMBER_LIST:
        return (is_list(t) or is_dict(t) or is_set(t)) and is_number(element_type(t))
    if arg == A_STR:
        return t == T_STR
    return True  # A_ANY: any value has a truth (None's is false, an Optional's None's or its T's)


@nrt_free
def result_type(result, t):
    """The type `result` (a type code, or an R_* rule) gives for an operand or argument of type t."""
    if result >= 0:
        return result
    if result == R_ELEMENT:
        return element_type(t)
    if result == R_SUM:
        return T_FLOAT if element_type(t) == T_FLOAT else T_INT
    if result == R_ARG and (is_dict(t) or is_set(t)):  # sorted(d): a list of its keys
        return type_list_of(element_type(t))
    if result == R_NUMERIC and t != T_FLOAT:
        return T_INT
    return t


@nrt_free
def binary_type(bop, lt, rt):
    """Result type of `lt <bop> rt` (nodes.BIN_* code), or -1 when Python's result type is
    not one gpucc has: an int mixed with a float is a float, bools act as ints except that
    & | ^ of two bools is a bool; list + list, list * int and int * list are lists (strs
    alike), tuple + tuple a tuple."""
    lists = BINARY_RULES[bop, BINARY_LISTS]
    if lt == T_STR or rt == T_STR:
        if lists == LISTS_CONCAT and lt == rt:
            return T_STR
        if lists == LISTS_REPEAT and (is_integral(lt) or is_integral(rt)):
            return T_STR
        return -1
    if is_tuple(lt) or is_tuple(rt):
        return tuple_concat(lt, rt) if lists == LISTS_CONCAT and is_tuple(lt) and is_tuple(rt) else -1
    if is_set(lt) or is_set(rt) or is_dict(lt) or is_dict(rt):  # | & - ^ of two sets of one type
        set_op = bop == BIN_OR or bop == BIN_AND or bop == BIN_SUB or bop == BIN_XOR
        return join(lt, rt) if set_op and is_set(lt) and is_set(rt) and join(lt, rt) >= 0 else -1
    if is_list(lt) or is_list(rt):
        if lists == LISTS_CONCAT and is_list(lt) and is_list(rt):
            return join(lt, rt)
        if lists == LISTS_REPEAT and is_list(lt) and is_integral(rt):
            return lt
        if lists == LISTS_REPEAT and is_list(rt) and is_integral(lt):
            return rt
        return -1
    if not is_number(lt) or not is_number(rt):
        return -1
    numbers = BINARY_RULES[bop, BINARY_NUMBERS]
    f = lt == T_FLOAT or rt == T_FLOAT
    if numbers == NUM_BITWISE or numbers == NUM_SHIFT:
        if f:
            return -1
        return T_BOOL if numbers == NUM_BITWISE and lt == T_BOOL and rt == T_BOOL else T_INT
    if numbers == NUM_TRUE_DIV or f:
        return T_FLOAT
    return T_INT


@nrt_free
def unary_type(uop, t):
    """Result type of `<uop> t` (nodes.UN_* code), or -1 for an operand it does not take."""
    if not takes(UNARY_RULES[uop, UNARY_ARG], t):
        return -1
    return result_type(UNARY_RULES[uop, UNARY_RESULT], t)


@nrt_free
def compare_ok(cmp, lt, rt):
    """Whether `lt <cmp> rt` is a comparison gpucc has: numbers with numbers, strs with strs,
    values of one shape (typeshapes.comparable: == / != of any, the orderings of values with
    an order), `x in xs` / `not in` of a value in a list or tuple of values it compares
    with, and of a str in a str; `x is None`, `x == None` of an Optional (or None, or a value
    in the heap)."""
    rule = COMPARE_RULES[cmp]
    if rule == IDENTITY or (lt == NONE or rt == NONE) and rule == EQUALITY:
        other = rt if lt == NONE else lt
        return (lt == NONE or rt == NONE) and (other == NONE or is_optional(other) or type_is_heap(other))
    if is_dict(lt) or is_dict(rt) or is_set(lt) or is_set(rt):
        return dict_compare_ok(rule, cmp, lt, rt)
    if has_keyed(lt) or has_keyed(rt):  # a list or tuple holding dicts or sets: not compared here
        return False
    if rule == MEMBERSHIP:
        if rt == T_STR:
            return lt == T_STR
        if is_tuple(rt):
            return True
        return is_list(rt) and (rt == EMPTY_LIST or comparable(lt, element_type(rt)))
    if not comparable(lt, rt):
        return False
    return rule == EQUALITY or (orderable(lt) and orderable(rt) and lt != EMPTY_LIST and rt != EMPTY_LIST)


@nrt_free
def dict_compare_ok(rule, cmp, lt, rt):
    """Comparisons with a dict or set: `k in d` (k converts to the keys' type), `x in s`, == and
    != of one type (`{}` and `set()` take the other's), and the subset tests <= and >= of sets."""
    if rule == MEMBERSHIP:
        return (is_dict(rt) or is_set(rt)) and converts(element_type(rt), lt)
    if rule == IDENTITY:
        return False
    j = keyed_join(lt, rt)
    if j < 0 or (is_dict(j) and has_keyed(type_value_of(j))):  # values that are dicts or sets: not compared
        return False
    return rule == EQUALITY or (is_set(lt) and (cmp == CMP_LE or cmp == CMP_GE or cmp == CMP_LT or cmp == CMP_GT))


@nrt_free
def builtin_arity_ok(b, nargs):
    """Whether supported builtin b (scope.B_*) takes nargs arguments: as many as the message
    names; min / max also one list or more than two values."""
    if nargs == BUILTIN_RULES[b, BUILTIN_NARGS] or BUILTIN_RULES[b, BUILTIN_ARG] == A_VALUES:
        return True
    if b == B_ROUND and nargs == 2:  # round(x, n) of a float x
        return True
    return BUILTIN_RULES[b, BUILTIN_ARG] == A_LIST_OR_NUMBERS and nargs >= 1


@nrt_free
def builtin_type(b, first, next_, type_, n):
    """Result type of a call n of supported builtin b (scope.B_*), or -1 - c for an argument c
    of a type it does not take (min / max: one list, or several values of one type with an
    order, numbers or not: c the first argument of another type than the first)."""
    c = first[n]
    t = type_[c]
    arg, result = BUILTIN_RULES[b, BUILTIN_ARG], BUILTIN_RULES[b, BUILTIN_RESULT]
    if arg == A_VALUES:
        return result
    if arg == A_LIST_OR_NUMBERS and next_[c] == -1:  # min(xs) / max(xs)
        arg, result = A_LIST, R_ELEMENT
    if arg == A_LIST_OR_NUMBERS:
        if not orderable(t) or t == EMPTY_LIST:
            return -1 - c
        c = next_[c]
        while c != -1:  # min, max of several values of one type
            if type_[c] != t:
                return -1 - c
            c = next_[c]
    elif not takes(arg, t) or (b == B_REVERSED and (is_dict(t) or is_set(t))):
        return -1 - c
    if result == R_POWER:
        c = next_[c]
        return binary_type(BIN_POW, t, type_[c]) if is_number(type_[c]) else -1 - c
    if b == B_ROUND and next_[c] != -1:  # round(x, n): x a float (an int's is no float), n an int
        if t != T_FLOAT:
            return -1 - c
        return T_FLOAT if type_[next_[c]] == T_INT else -1 - next_[c]
    if (b == B_SORTED or b == B_REVERSED) and is_deque(t):  # sorted(q), reversed(q): a list
        return list_view(t)
    return result_type(result, t)


@nrt_free
def element_join(e, t):
    """The element type of a list literal whose elements so far are of type e (-1: none yet)
    with one more of type t: the same, ints among floats (made floats), None among T
    (Optional[T]), `[]` with other lists; -1 if they do not mix."""
    if e < 0 or e == t:
        return t
    if (e == T_FLOAT and is_integral(t)) or (t == T_FLOAT and is_integral(e)):
        return T_FLOAT
    if is_number(e) and is_number(t):  # a bool among ints: CPython keeps True, a list[int] would not
        return -1
    return join(e, t)


@nrt_free
def list_literal_type(first, next_, type_, n):
    """Type of the list literal n from its elements' types (element_join): `[]` for none;
    -1 - construct code (errors.C_*) for elements that do not mix or a type too large."""
    e = -1
    c = first[n]
    while c != -1:
        e = element_join(e, type_[c])
        if e < 0:
            return -1 - C_MIXED_LIST
        c = next_[c]
    if e < 0:
        return EMPTY_LIST
    t = type_list_of(e)
    return t if t >= 0 else -1 - C_TYPE_TOO_LARGE
