"""Host-side types of suite and problem-file values: annotations read as packed types
(contract/typecodes.py), Python values checked against them (@cases rows, problem files'
literals), and the one type literal values share (types inferred from tests)."""

from __future__ import annotations

import ast

from gpucc.contract import typecodes as T

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
_LEAVES = {"int": T.INT, "float": T.FLOAT, "bool": T.BOOL, "str": T.STR, "None": T.NONE}
_PYTHON = {T.INT: int, T.FLOAT: float, T.BOOL: bool, T.STR: str}
_WORDS = {T.INT: "int", T.FLOAT: "float", T.BOOL: "bool", T.STR: "str"}


class NoType(ValueError):
    """Values, or an annotation, of no type the gpucc language has; the message says why."""


def packed_type(annotation: str | None) -> int | None:
    """The packed type an annotation names: int, float, bool, str, None, list[T], tuple[T, ...]
    (fixed length), Optional[T], T | None, typing's List / Tuple / Optional; None for anything
    else (dict, set, a bare list, a type deeper than a code holds)."""
    if not annotation:
        return None
    try:
        t = _type(ast.parse(annotation, mode="eval").body)
    except (SyntaxError, NoType):
        return None
    return t if t >= 0 else None


def _type(node: ast.expr) -> int:
    if isinstance(node, ast.Constant) and node.value is None:
        return T.NONE
    if isinstance(node, ast.Name) and node.id in _LEAVES:
        return _LEAVES[node.id]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        parts = [_type(node.left), _type(node.right)]
        if T.NONE in parts:
            return T.optional_of(parts[0] if parts[1] == T.NONE else parts[1])
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        kind = node.value.id.lower()
        if kind == "tuple" and not any(isinstance(a, ast.Constant) and a.value is Ellipsis for a in args):
            return T.tuple_of([_type(a) for a in args])
        if kind in ("list", "optional") and len(args) == 1:
            inner = _type(args[0])
            return T.list_of(inner) if kind == "list" else T.optional_of(inner)
    raise NoType(ast.unparse(node))


def check_value(v, t: int, what: str = ""):
    """v as a value of packed type t (an int becomes a float where a float is expected, in
    containers too); ValueError saying what is wrong with it (after `what`)."""
    h = T.head(t)
    if h == T.OPTIONAL:
        return None if v is None else check_value(v, T.element(t), what)
    if h == T.NONE:
        if v is not None:
            raise ValueError(f"{what}{v!r} is not None")
        return v
    if h in _PYTHON:
        if h == T.FLOAT and type(v) is int:  # an int where a float is expected, as in Python
            v = float(v)
        if type(v) is not _PYTHON[h]:
            raise ValueError(f"{what}{v!r} is not {_WORDS[h]}")
        if h == T.INT and not INT64_MIN <= v <= INT64_MAX:
            raise ValueError(f"{what}{v} does not fit in 64 bits")
        return v
    if h == T.LIST and type(v) is list:
        return [check_value(x, T.element(t), f"{v!r}: element ") for x in v]
    if h == T.TUPLE and type(v) is tuple and len(v) == T.arity(t):
        return tuple(check_value(x, T.field(t, i), f"{v!r}: field ") for i, x in enumerate(v))
    if h == T.DICT and type(v) is dict:
        k, w = dict_key(t), T.value_of(t)
        return {check_value(a, k, f"{v!r}: key "): check_value(b, w, f"{v!r}: value ") for a, b in v.items()}
    raise ValueError(f"{what}{v!r} is not {T.name(t)}")


def literal_type(value) -> int:
    """The packed type of a literal value (a list's elements joined); NoType when it has none."""
    if value is None:
        return T.NONE
    for t, kind in _PYTHON.items():
        if type(value) is kind:
            return t
    if type(value) is tuple:
        return _fits(T.tuple_of([literal_type(v) for v in value]), value)
    if type(value) is list:
        elements = {literal_type(v) for v in value}
        return _fits(T.list_of(join(elements, _show(value)) if elements else T.UNKNOWN), value)
    if type(value) is dict:  # its keys' type and its values' (unknown for {})
        keys, values = ({literal_type(x) for x in xs} for xs in (value.keys(), value.values()))
        k, v = (join(ts, _show(value)) if ts else T.UNKNOWN for ts in (keys, values))
        return _fits(T.dict_of(k, v), value)
    raise NoType(f"{_show(value)} is a {type(value).__name__}, which gpucc does not have")


def _fits(t: int, value) -> int:
    if t < 0:
        raise NoType(f"{_show(value)} is nested deeper than a gpucc type can be")
    return t


def join(types: set[int], what: str) -> int:
    """The one type values of all `types` (not empty) have: an int with floats is a float, None
    with a T an Optional[T], `[]`'s unknown element any element type; NoType naming `what`
    otherwise."""
    out = T.UNKNOWN
    for t in sorted(types):
        out = _join2(out, t)
        if out is None:
            names = ", ".join(sorted(T.name(t) for t in types))
            raise NoType(f"{what} has values of several types ({names})")
    return out


def _join2(a: int, b: int) -> int | None:
    if a == b or b == T.UNKNOWN:
        return a
    if a == T.UNKNOWN:
        return b
    if {a, b} == {T.INT, T.FLOAT}:
        return T.FLOAT
    if T.NONE in (a, b):
        return T.optional_of(b if a == T.NONE else a)
    if T.head(a) == T.OPTIONAL or T.head(b) == T.OPTIONAL:
        inner = _join2(*(T.element(x) if T.head(x) == T.OPTIONAL else x for x in (a, b)))
        return None if inner is None else T.optional_of(inner)
    if T.head(a) == T.head(b) == T.LIST:
        inner = _join2(T.element(a), T.element(b))
        return None if inner is None else T.list_of(inner)
    if T.head(a) == T.head(b) == T.DICT:
        k, v = _join2(dict_key(a), dict_key(b)), _join2(T.value_of(a), T.value_of(b))
        return None if None in (k, v) else T.dict_of(k, v)
    if T.head(a) == T.head(b) == T.TUPLE and T.arity(a) == T.arity(b):
        fields = [_join2(T.field(a, i), T.field(b, i)) for i in range(T.arity(a))]
        return None if None in fields else T.tuple_of(fields)
    return None


def dict_key(t: int) -> int:
    """The key type of dict type t."""
    k = T.element(t)
    return k & ((1 << 4 * T.width(k)) - 1)


def has_unknown(t: int) -> bool:
    """Whether type t has a part no value said (the element type of only empty lists)."""
    return "?" in T.name(t)


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
