"""Token kinds, keywords and operators of the gpucc language: the lexer's tables.

A token is five parallel array entries: kind, sub (keyword or operator id), start and
end byte offsets in the source, and line (1-based).  Int literals also carry their
value (tok_val).  The tables below are the only place these numbers are defined.
"""

from __future__ import annotations

import numpy as np

# token kinds
KIND_NAMES = ("END", "NEWLINE", "INDENT", "DEDENT", "NAME", "INT", "FLOAT", "STRING", "KEYWORD", "OP")
(TK_END, TK_NEWLINE, TK_INDENT, TK_DEDENT, TK_NAME, TK_INT, TK_FLOAT, TK_STRING, TK_KEYWORD, TK_OP) = range(
    len(KIND_NAMES)
)

# Python's keywords (all of them, so unsupported ones get a precise error); sub = index.
KEYWORDS = (
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
    "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
    "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
    "return", "try", "while", "with", "yield",
)  # fmt: skip
globals().update({"KW_" + k.upper(): i for i, k in enumerate(KEYWORDS)})

# Python's operators and delimiters, longest first within a shared prefix is NOT required:
# the lexer matches greedily (3, then 2, then 1 character).  sub = index.
OPERATORS = (
    "(", ")", "[", "]", "{", "}", ":", ",", ";", ".", "->", "=", ":=",
    "+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "^", "~",
    "<", "<=", ">", ">=", "==", "!=",
    "+=", "-=", "*=", "/=", "//=", "%=", "**=", "@=", "<<=", ">>=", "&=", "|=", "^=",
    "...",
)  # fmt: skip
_OP_IDENT = {
    "(": "LPAR", ")": "RPAR", "[": "LSQB", "]": "RSQB", "{": "LBRACE", "}": "RBRACE",
    ":": "COLON", ",": "COMMA", ";": "SEMI", ".": "DOT", "->": "ARROW", "=": "ASSIGN",
    ":=": "WALRUS", "+": "PLUS", "-": "MINUS", "*": "STAR", "/": "SLASH", "//": "DSLASH",
    "%": "PERCENT", "**": "DSTAR", "@": "AT", "<<": "LSHIFT", ">>": "RSHIFT", "&": "AMP",
    "|": "VBAR", "^": "CARET", "~": "TILDE", "<": "LT", "<=": "LE", ">": "GT", ">=": "GE",
    "==": "EQ", "!=": "NE", "+=": "PLUS_ASSIGN", "-=": "MINUS_ASSIGN", "*=": "STAR_ASSIGN",
    "/=": "SLASH_ASSIGN", "//=": "DSLASH_ASSIGN", "%=": "PERCENT_ASSIGN",
    "**=": "DSTAR_ASSIGN", "@=": "AT_ASSIGN", "<<=": "LSHIFT_ASSIGN", ">>=": "RSHIFT_ASSIGN",
    "&=": "AMP_ASSIGN", "|=": "VBAR_ASSIGN", "^=": "CARET_ASSIGN", "...": "ELLIPSIS",
}  # fmt: skip
globals().update({"OP_" + _OP_IDENT[o]: i for i, o in enumerate(OPERATORS)})


def _byte_table(words):
    """2-D uint8 array, one zero-padded row per word, plus an int32 array of lengths."""
    width = max(len(w) for w in words)
    table = np.zeros((len(words), width), dtype=np.uint8)
    for i, w in enumerate(words):
        table[i, : len(w)] = np.frombuffer(w.encode(), dtype=np.uint8)
    return table, np.array([len(w) for w in words], dtype=np.int32)


# Byte tables for matching in numba-compiled code (global arrays are compile-time constants).
KEYWORD_BYTES, KEYWORD_LENS = _byte_table(KEYWORDS)
OPERATOR_BYTES, OPERATOR_LENS = _byte_table(OPERATORS)
