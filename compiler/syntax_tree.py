"""Host side of the parser: `parse_source` runs the compiled lexer + parser on one source and
returns an `Ast` (or raises ParseError); `dump` writes it as a readable S-expression for golden
tests and debugging.

Dump format: statements one per line, indented by nesting; expressions inline:
`(FUNCDEF f -> int (PARAM a int) (BLOCK ...))`, `(ASSIGN x: int (BINARY + a 1))`,
`(UNARY - a)`, `(BOOLOP and a b)`, `(COMPARE a < b <= c)`, `(CALL f a b)`,
`(COMP list (FOR x xs) (IF c) e)`, atoms bare (a str literal as the repr of its value).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import numpy as np
from numba import njit

from gpucc.compiler import errors, limits, nodes
from gpucc.compiler.arrays import ERR_END, ERR_START, ERR_WIDTH, Tree
from gpucc.compiler.lexer import LexError, lex_source
from gpucc.compiler.parser import parse, scratch_size
from gpucc.contract import status as S
from gpucc.contract.cachekey import source_fingerprint
from gpucc.contract.isa import CMP_NAMES as _VM_CMP_NAMES

CMP_NAMES = (*_VM_CMP_NAMES, "in", "not in", "is", "is not")  # with nodes.CMP_IN ... CMP_IS_NOT
from gpucc.contract.typecodes import name as type_name
from gpucc.contract.valuetypes import bits_to_float


class ParseError(LexError):
    """A compile error found by the lexer or the parser; `.error` is the CompileError."""


@dataclass
class Ast:
    """One parsed source: node arrays (compiler.nodes layout) and the token arrays they index."""

    source: str
    n_nodes: int
    kind: np.ndarray
    op: np.ndarray
    tok: np.ndarray
    first: np.ndarray
    next_: np.ndarray
    val: np.ndarray
    n_tokens: int
    tok_kind: np.ndarray
    tok_sub: np.ndarray
    tok_start: np.ndarray
    tok_end: np.ndarray
    tok_line: np.ndarray
    tok_val: np.ndarray

    def children(self, i: int) -> list[int]:
        out, c = [], int(self.first[i])
        while c >= 0:
            out.append(c)
            c = int(self.next_[c])
        return out

    def text(self, i: int) -> str:
        """Source text of node i's token."""
        t = int(self.tok[i])
        return self.source.encode()[self.tok_start[t] : self.tok_end[t]].decode()

    def line(self, i: int) -> int:
        return int(self.tok_line[self.tok[i]])

    def kind_name(self, i: int) -> str:
        return nodes.KIND_NAMES[self.kind[i]]


def _make_parse_one(fp):
    @njit(cache=True)
    def parse_one(src, toks, n_tok, tree, stack, err):
        return parse(src, toks, n_tok, tree, stack, err) + 0 * len(fp)

    return parse_one


_parse_one = _make_parse_one(source_fingerprint(
    "compiler/parser*.py",
    "compiler/arrays.py", "compiler/tokens.py", "compiler/nodes.py", "compiler/errors.py", "compiler/limits.py",
    "contract/isa*.py", "contract/opcodes.py", "contract/valuetypes.py", "contract/limits.py", "contract/typecodes.py", "contract/jitable.py",
))  # fmt: skip


def parse_source(source: str, filename: str = "<candidate>") -> Ast:
    """Lex and parse one source with the compiled kernels; raises ParseError on a compile error."""
    try:
        n_tok, toks = lex_source(source, filename)
    except LexError as e:
        raise ParseError(e.error, e.span) from None
    src = np.frombuffer(source.encode(), dtype=np.uint8)
    tree = tree_arrays(len(src))
    stack = np.zeros(scratch_size(n_tok), dtype=np.int32)
    err = np.zeros(ERR_WIDTH, dtype=np.int32)
    n = _parse_one(src, toks, n_tok, tree, stack, err)
    if n < 0:
        raise ParseError(errors.render_record(source, err, filename), (int(err[ERR_START]), int(err[ERR_END])))
    return Ast(source, int(n), *tree, n_tok, *toks)


def tree_arrays(n_bytes: int) -> Tree:
    """A fresh Tree sized for a source of n_bytes."""
    cap = limits.node_capacity(n_bytes)
    return Tree(*[np.zeros(cap, dtype=np.int32) for _ in range(5)], np.zeros(cap, dtype=np.int64))


def _expr(a: Ast, i: int) -> str:
    k = nodes.KIND_NAMES[a.kind[i]]
    kids = a.children(i)
    if k == "INT":
        return str(int(a.val[i]))
    if k == "BOOL":
        return "True" if a.val[i] else "False"
    if k == "NONE":
        return "None"
    if k == "NAME":
        return a.text(i)
    if k == "UNARY":
        return f"(UNARY {nodes.UN_NAMES[a.op[i]]} {_expr(a, kids[0])})"
    if k == "BINARY":
        return f"(BINARY {nodes.BIN_NAMES[a.op[i]]} {_expr(a, kids[0])} {_expr(a, kids[1])})"
    if k == "BOOLOP":
        return f"(BOOLOP {nodes.BOOL_NAMES[a.op[i]]} {_expr(a, kids[0])} {_expr(a, kids[1])})"
    if k == "COMPARE":
        parts = [_expr(a, kids[0])]
        for link in kids[1:]:
            parts += [CMP_NAMES[a.op[link]], _expr(a, a.children(link)[0])]
        return "(COMPARE " + " ".join(parts) + ")"
    if k == "CALL":
        return "(CALL " + " ".join([a.text(i)] + [_expr(a, c) for c in kids]) + ")"
    if k == "FLOAT":
        return repr(bits_to_float(int(a.val[i])))
    if k == "IFEXP":
        return f"(IFEXP {_expr(a, kids[1])} {_expr(a, kids[0])} {_expr(a, kids[2])})"
    if k in ("LIST", "TUPLE", "DICT", "SET"):
        return f"({k}" + "".join(" " + _expr(a, c) for c in kids) + ")"
    if k == "SUBSCRIPT":
        return f"(SUBSCRIPT {_expr(a, kids[0])} {_expr(a, kids[1])})"
    if k == "SLICE":
        parts, it = [], iter(kids[1:])
        for bit in range(3):
            parts.append(_expr(a, next(it)) if a.op[i] >> bit & 1 else "None")
        return f"(SLICE {_expr(a, kids[0])} " + " ".join(parts) + ")"
    if k == "METHOD":
        return f"(METHOD {a.text(i)} " + " ".join(_expr(a, c) for c in kids) + ")"
    if k == "COMP":  # its clauses, then its element
        return f"(COMP {nodes.COMP_NAMES[a.op[i]]} " + " ".join(_expr(a, c) for c in kids) + ")"
    if k == "COMP_FOR":
        return f"(FOR {a.text(i)} " + " ".join(_expr(a, c) for c in kids) + ")"
    if k == "COMP_IF":
        return f"(IF {_expr(a, kids[0])})"
    if k == "STR":  # the adjacent literals' value
        raw, t = a.source.encode(), int(a.tok[i])
        parts = (raw[a.tok_start[j] : a.tok_end[j]].decode() for j in range(t, t + a.op[i]))
        return repr("".join(ast.literal_eval(p) for p in parts))
    return f"(?{k})"


def _stmt(a: Ast, i: int, depth: int, out: list[str]) -> None:
    k = nodes.KIND_NAMES[a.kind[i]]
    kids = a.children(i)
    pad = "  " * depth
    if k in ("MODULE", "BLOCK"):
        out.append(f"{pad}({k}")
        for c in kids:
            _stmt(a, c, depth + 1, out)
        out[-1] += ")"
        return
    if k == "FUNCDEF":
        params = " ".join(f"(PARAM {a.text(p)} {type_name(a.op[p])})" for p in kids[:-1])
        head = f"{pad}(FUNCDEF {a.text(i)} -> {type_name(a.op[i])}" + (f" {params}" if params else "")
        out.append(head)
        _stmt(a, kids[-1], depth + 1, out)
        out[-1] += ")"
        return
    if k in ("TRY", "EXCEPT", "TRY_ELSE", "FINALLY"):
        head = k
        if k == "EXCEPT":  # the statuses it catches, and `as e`
            head += " " + "|".join(S.LABELS[s] for s in S.RAISABLE if a.op[i] >> s & 1)
            t = int(a.val[i])
            head += f" as {a.source.encode()[a.tok_start[t] : a.tok_end[t]].decode()}" if t >= 0 else ""
        out.append(f"{pad}({head}")
        for c in kids:
            _stmt(a, c, depth + 1, out)
        out[-1] += ")"
        return
    if k in ("IF", "WHILE", "FOR_RANGE", "FOR_LIST"):
        if k == "FOR_LIST" and a.op[i] == 1:  # a tuple target: the last child
            head = f"({k} {_expr(a, kids[2])} {_expr(a, kids[0])}"
            blocks = kids[1:2]
        elif k in ("FOR_RANGE", "FOR_LIST"):
            head = f"({k} {a.text(i)} " + " ".join(_expr(a, c) for c in kids[:-1])
            blocks = kids[-1:]
        else:
            head = f"({k} {_expr(a, kids[0])}"
            blocks = kids[1:]
        out.append(pad + head)
        for b in blocks:
            _stmt(a, b, depth + 1, out)
        out[-1] += ")"
        return
    if k == "ASSIGN":
        ann = "" if a.op[i] == nodes.NO_TYPE else f": {type_name(a.op[i])}"
        out.append(f"{pad}(ASSIGN {a.text(i)}{ann} {_expr(a, kids[0])})")
    elif k == "SETITEM":
        how = "=" if a.op[i] < 0 else nodes.BIN_NAMES[a.op[i]] + "="
        out.append(f"{pad}(SETITEM {_expr(a, kids[0])} {how} {_expr(a, kids[1])})")
    elif k == "AUGASSIGN":
        out.append(f"{pad}(AUGASSIGN {a.text(i)} {nodes.BIN_NAMES[a.op[i]]}= {_expr(a, kids[0])})")
    elif k == "DELETE":
        out.append(f"{pad}(DELETE {_expr(a, kids[0])})")
    elif k == "RAISE":
        what = S.LABELS[a.op[i]] if a.op[i] >= 0 else "again"
        out.append(f"{pad}(RAISE {what}" + "".join(" " + _expr(a, c) for c in kids) + ")")
    elif k == "UNPACK":
        out.append(f"{pad}(UNPACK {_expr(a, kids[0])} {_expr(a, kids[1])})")
    else:  # EXPR_STMT RETURN ASSERT BREAK CONTINUE PASS DOCSTRING ELLIPSIS
        out.append(f"{pad}({k}" + "".join(" " + _expr(a, c) for c in kids) + ")")


def dump(a: Ast) -> str:
    """Indented S-expression of the whole tree (see the module docstring)."""
    out: list[str] = []
    _stmt(a, 0, 0, out)
    return "\n".join(out)
