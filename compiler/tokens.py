"""Token kinds, keywords and operators of the gpucc language: the lexer's tables.

A token is five parallel array entries: kind, sub (keyword or operator id), start and
end byte offsets in the source, and line (1-based); a string's sub is its prefix (PREFIX_*).
Int literals also carry their value (tok_val).  The tables below are the only place these numbers are defined.
"""

from __future__ import annotations

import numpy as np

# token kinds
KIND_NAMES = ("END", "NEWLINE", "INDENT", "DEDENT", "NAME", "INT", "FLOAT", "STRING", "KEYWORD", "OP")
(TK_END, TK_NEWLINE, TK_INDENT, TK_DEDENT, TK_NAME, TK_INT, TK_FLOAT, TK_STRING, TK_KEYWORD, TK_OP) = range(
    len(KIND_NAMES)
)

# a STRING token's sub: the letters of its prefix, as bits (u and no prefix: 0)
PREFIX_RAW, PREFIX_BYTES, PREFIX_FORMAT = 1, 2, 4

# Python's keywords (all of them, so unsupported ones get a precise error); sub = index.
KEYWORDS = (
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
    "continue", "def", "del", "elif", "else", "except", "finally", "for", "from", "global",
    "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise",
    "return", "try", "while", "with", "yield",
)  # fmt: skip
# keyword ids as plain names (tests/contract/test_named_constants.py keeps them equal to KEYWORDS)
KW_FALSE = 0
KW_NONE = 1
KW_TRUE = 2
KW_AND = 3
KW_AS = 4
KW_ASSERT = 5
KW_ASYNC = 6
KW_AWAIT = 7
KW_BREAK = 8
KW_CLASS = 9
KW_CONTINUE = 10
KW_DEF = 11
KW_DEL = 12
KW_ELIF = 13
KW_ELSE = 14
KW_EXCEPT = 15
KW_FINALLY = 16
KW_FOR = 17
KW_FROM = 18
KW_GLOBAL = 19
KW_IF = 20
KW_IMPORT = 21
KW_IN = 22
KW_IS = 23
KW_LAMBDA = 24
KW_NONLOCAL = 25
KW_NOT = 26
KW_OR = 27
KW_PASS = 28
KW_RAISE = 29
KW_RETURN = 30
KW_TRY = 31
KW_WHILE = 32
KW_WITH = 33
KW_YIELD = 34

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
# operator ids as plain names (tests/contract/test_named_constants.py keeps them equal to OPERATORS)
OP_LPAR = 0
OP_RPAR = 1
OP_LSQB = 2
OP_RSQB = 3
OP_LBRACE = 4
OP_RBRACE = 5
OP_COLON = 6
OP_COMMA = 7
OP_SEMI = 8
OP_DOT = 9
OP_ARROW = 10
OP_ASSIGN = 11
OP_WALRUS = 12
OP_PLUS = 13
OP_MINUS = 14
OP_STAR = 15
OP_SLASH = 16
OP_DSLASH = 17
OP_PERCENT = 18
OP_DSTAR = 19
OP_AT = 20
OP_LSHIFT = 21
OP_RSHIFT = 22
OP_AMP = 23
OP_VBAR = 24
OP_CARET = 25
OP_TILDE = 26
OP_LT = 27
OP_LE = 28
OP_GT = 29
OP_GE = 30
OP_EQ = 31
OP_NE = 32
OP_PLUS_ASSIGN = 33
OP_MINUS_ASSIGN = 34
OP_STAR_ASSIGN = 35
OP_SLASH_ASSIGN = 36
OP_DSLASH_ASSIGN = 37
OP_PERCENT_ASSIGN = 38
OP_DSTAR_ASSIGN = 39
OP_AT_ASSIGN = 40
OP_LSHIFT_ASSIGN = 41
OP_RSHIFT_ASSIGN = 42
OP_AMP_ASSIGN = 43
OP_VBAR_ASSIGN = 44
OP_CARET_ASSIGN = 45
OP_ELLIPSIS = 46


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
