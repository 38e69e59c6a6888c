"""The parser's tables: operator-stack codes, precedence levels, and what each operator token
and each operator-stack code means, as module-level numpy arrays (numba treats global arrays
as compile-time constants; kernels index them instead of walking if-chains).

Built from the source tables: compiler.tokens' OPERATORS and KEYWORDS, compiler.nodes' BIN_NAMES,
UN_NAMES and BOOL_NAMES, contract.isa's CMP_NAMES.  tests/compiler/test_parser_tables.py checks that
each array agrees with its source.  -1 in a map means "not one of these".
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler import nodes, tokens
from gpucc.contract import isa

# ------------------------------------------------------------------ operator-stack codes (X_*)
# Brackets (markers): X_PAREN, X_CALL (calls and methods), X_LIST (list literals), X_SUB
# (subscripts and slices), X_TUPLE (a parenthesized tuple, once its first comma shows), X_BRACE
# (a dict or set display).
# X_IFC is `body if` waiting for its `else`, X_IFE `... else` waiting for the else-branch.
# X_BIN + b is the binary operator nodes.BIN_* b.  X_COMP is a comprehension's clauses (a
# bracket too: compiler/parser_comp.py), above the X_LIST or X_CALL whose element it follows.
X_PAREN, X_CALL, X_CMP, X_NOT, X_NEG, X_POS, X_AND, X_OR, X_IFC, X_IFE, X_INV, X_LIST, X_SUB, X_TUPLE, X_BRACE, X_BIN = (
    range(16))  # fmt: skip
X_COMP = X_BIN + len(nodes.BIN_NAMES)
# X_KWARG: `name=` waiting for its value (a call's argument); X_LAMBDA: `lambda a, b:` waiting
# for its body.  Both end with the item (`,` `)`), reduced as X_IFE is: no operator reduces them.
X_KWARG = X_COMP + 1
X_LAMBDA = X_KWARG + 1
N_CODES = X_LAMBDA + 1

# ------------------------------------------------------------------ precedence, loosest first
# Python's: if-else < or < and < not < comparisons < | < ^ < & < << >> < + - < * / // % < unary
# - + ~ < **.  P_NONE: brackets and conditional expressions, which no operator reduces.
P_NONE, P_OR, P_AND, P_NOT, P_CMP, P_BITOR, P_BITXOR, P_BITAND, P_SHIFT, P_SUM, P_TERM, P_UNARY, P_POW = range(13)

BINARY_PRECEDENCE = {"|": P_BITOR, "^": P_BITXOR, "&": P_BITAND, "<<": P_SHIFT, ">>": P_SHIFT, "+": P_SUM,
                     "-": P_SUM, "*": P_TERM, "/": P_TERM, "//": P_TERM, "%": P_TERM, "**": P_POW}  # fmt: skip
# the unary operators by their nodes.UN_NAMES spelling
UNARY_CODES = {"-": X_NEG, "+": X_POS, "not": X_NOT, "~": X_INV}
# the boolean operators by their nodes.BOOL_NAMES spelling
BOOLOP_CODES = {"and": X_AND, "or": X_OR}


def _table(size, entries):
    """int32[size] of -1 but for the (index, value) entries given."""
    table = np.full(size, -1, dtype=np.int32)
    for index, value in entries:
        table[index] = value
    return table


def _precedence():
    levels = {X_OR: P_OR, X_AND: P_AND, X_NOT: P_NOT, X_CMP: P_CMP, X_NEG: P_UNARY, X_POS: P_UNARY, X_INV: P_UNARY}
    levels.update({X_BIN + b: BINARY_PRECEDENCE[name] for b, name in enumerate(nodes.BIN_NAMES)})
    return np.array([levels.get(code, P_NONE) for code in range(N_CODES)], dtype=np.int32)


# ------------------------------------------------------------------ per operator-stack code
# PRECEDENCE[code]: how tightly the operator binds (P_*)
PRECEDENCE = _precedence()
# the node an operator becomes when reduced: kind (N_UNARY, N_BOOLOP, N_BINARY) and op (its
# UN_*, BOOL_* or BIN_* code); -1 for the codes reduced otherwise (X_CMP, X_IFE) or never
NODE_KIND = _table(N_CODES, [(UNARY_CODES[u], nodes.N_UNARY) for u in nodes.UN_NAMES]
                   + [(BOOLOP_CODES[b], nodes.N_BOOLOP) for b in nodes.BOOL_NAMES]
                   + [(X_BIN + b, nodes.N_BINARY) for b in range(len(nodes.BIN_NAMES))])  # fmt: skip
NODE_OP = _table(N_CODES, [(UNARY_CODES[u], i) for i, u in enumerate(nodes.UN_NAMES)]
                 + [(BOOLOP_CODES[b], i) for i, b in enumerate(nodes.BOOL_NAMES)]
                 + [(X_BIN + b, b) for b in range(len(nodes.BIN_NAMES))])  # fmt: skip

# ------------------------------------------------------------------ per token (tokens.OP_* / KW_*)
_N_OPS = len(tokens.OPERATORS)
_N_KWS = len(tokens.KEYWORDS)
# an operator token before an operand: X_PAREN for `(`, the unary operator's code for - + ~
PREFIX_OF_OP = _table(_N_OPS, [(tokens.OPERATORS.index("("), X_PAREN)]
                      + [(tokens.OPERATORS.index(u), x) for u, x in UNARY_CODES.items() if u in tokens.OPERATORS])  # fmt: skip
# an operator token after an operand: the binary operator's code (X_BIN + BIN_*)
INFIX_OF_OP = _table(_N_OPS, [(tokens.OPERATORS.index(name), X_BIN + b) for b, name in enumerate(nodes.BIN_NAMES)])
# a keyword after an operand: X_AND / X_OR
INFIX_OF_KW = _table(_N_KWS, [(tokens.KEYWORDS.index(b), x) for b, x in BOOLOP_CODES.items()])
# a comparison operator token: its contract.isa CMP_* code
COMPARE_OF_OP = _table(_N_OPS, [(tokens.OPERATORS.index(name), c) for c, name in enumerate(isa.CMP_NAMES)])
# an augmented assignment token (`+=` .. `^=`): the BIN_* code of its operator, or
# AUGMENTED_UNSUPPORTED when that operator is outside the language (`@=`)
AUGMENTED_UNSUPPORTED = -2


def _augmented(s):
    name = tokens.OPERATORS[s][:-1]  # `+=` -> `+`
    return nodes.BIN_NAMES.index(name) if name in nodes.BIN_NAMES else AUGMENTED_UNSUPPORTED


AUGMENTED_OF_OP = _table(_N_OPS, [(s, _augmented(s)) for s in range(tokens.OP_PLUS_ASSIGN, tokens.OP_CARET_ASSIGN + 1)])
