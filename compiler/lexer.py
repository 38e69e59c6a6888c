"""Lexer: source bytes -> token arrays (phase 1 of the compiler).

`lex` is a kernel body (numba subset, allocates nothing, never raises).  It follows
Python's tokenizer for what the gpucc language needs: NEWLINE at logical line ends,
INDENT/DEDENT from an indentation stack, implicit line joining inside brackets,
backslash continuation, comments, int/float/string literals, keywords and operators.

Token fields (compiler.tokens): kind, sub (keyword / operator index, a string's prefix
letters PREFIX_*, else -1), start and
end byte offsets relative to `lo`, 1-based line, val (int literals: the value).
The indentation stack lives in the INDENT tokens themselves: an INDENT's val is its
column + (its column with tabs of width 1) << 32, and its sub is the token index of the
enclosing INDENT (-1 for column 0).
INDENT and DEDENT tokens are empty spans at the first character of their line.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from gpucc.compiler import errors, limits, tokens
from gpucc.compiler.arrays import ERR_END, ERR_START, ERR_WIDTH, Tokens, clear_error, fail
from gpucc.compiler.errors import (
    E_BAD_CHAR,
    E_BAD_DEDENT,
    E_NESTING_TOO_DEEP,
    E_PROGRAM_TOO_LARGE,
    E_SYNTAX,
    E_TAB_ERROR,
    E_UNTERMINATED_STRING,
)
from gpucc.compiler.lexer_literals import (
    BSLASH,
    CR,
    DOT,
    DQUOTE,
    FF,
    HASH,
    NL,
    SP,
    SQUOTE,
    TAB,
    check_string,
    is_digit,
    is_name_char,
    is_name_start,
    is_string_prefix,
    match_table,
    prefix_flags,
    scan_number,
    scan_string,
    utf8_len,
)  # fmt: skip
from gpucc.compiler.tokens import (
    KEYWORD_BYTES,
    KEYWORD_LENS,
    OP_LBRACE,
    OP_LPAR,
    OP_LSQB,
    OP_RBRACE,
    OP_RPAR,
    OP_RSQB,
    OPERATOR_BYTES,
    OPERATOR_LENS,
    TK_DEDENT,
    TK_END,
    TK_INDENT,
    TK_KEYWORD,
    TK_NAME,
    TK_NEWLINE,
    TK_OP,
    TK_STRING,
)
from gpucc.contract.cachekey import source_fingerprint
from gpucc.contract.jitable import nrt_free

N_KEYWORDS, N_OPERATORS = len(tokens.KEYWORDS), len(tokens.OPERATORS)
MAX_INDENT = limits.MAX_INDENT


@nrt_free
def _put(toks, n, kind, sub, start, end, line, val):
    """Write token n (offsets relative to the unit's start)."""
    toks.kind[n] = kind
    toks.sub[n] = sub
    toks.start[n] = start
    toks.end[n] = end
    toks.line[n] = line
    toks.val[n] = val


@nrt_free
def lex(src, lo, hi, toks, err):
    """Tokenize src[lo:hi] into toks (Tokens); returns the token count (last token TK_END) or
    -1 (err set)."""
    tok_kind, tok_sub, tok_start, tok_end, tok_line, tok_val = toks
    cap = tok_kind.shape[0]
    clear_error(err)
    for p in range(lo, hi):  # NUL is refused by Python, a lone CR is a line end: refuse both
        if src[p] == 0 or (src[p] == CR and (p + 1 >= hi or src[p + 1] != NL)):
            return fail(err, E_BAD_CHAR, p - lo, p - lo + 1, 0)
    n = 0
    pos = lo
    line = 1
    depth = 0  # open brackets
    indent_top = -1  # token index of the innermost open INDENT
    cur_indent = 0
    cur_alt = 0
    n_indent = 0
    at_line_start = True
    line_has_tokens = False
    while True:
        if at_line_start and depth == 0:
            col = 0
            alt = 0  # the column with tabs of width 1: the two must agree (Python's TabError)
            p = pos
            while p < hi:
                c = src[p]
                if c == SP:
                    col += 1
                    alt += 1
                elif c == TAB:
                    col = (col // 8 + 1) * 8
                    alt += 1
                elif c == FF:
                    col = 0
                    alt = 0
                else:
                    break
                p += 1
            if p >= hi:
                pos = p
                break
            c = src[p]
            if c == HASH:
                while p < hi and src[p] != NL:
                    p += 1
                pos = p
                continue  # the newline is handled below as a blank line
            if c == NL or c == CR:
                if c == NL:
                    line += 1
                pos = p + 1
                continue
            at_line_start = False
            if col > cur_indent:
                if alt <= cur_alt:
                    return fail(err, E_TAB_ERROR, p - lo, p - lo + 1, 0)
                if n_indent >= MAX_INDENT:
                    return fail(err, E_NESTING_TOO_DEEP, p - lo, p - lo + 1, MAX_INDENT)
                if n >= cap:
                    return fail(err, E_PROGRAM_TOO_LARGE, p - lo, p - lo + 1, 0)
                _put(toks, n, TK_INDENT, indent_top, p - lo, p - lo, line, col + (np.int64(alt) << 32))
                indent_top = n
                n += 1
                n_indent += 1
                cur_indent = col
                cur_alt = alt
            while col < cur_indent:
                if n >= cap:
                    return fail(err, E_PROGRAM_TOO_LARGE, p - lo, p - lo + 1, 0)
                _put(toks, n, TK_DEDENT, -1, p - lo, p - lo, line, 0)
                n += 1
                indent_top = tok_sub[indent_top]
                cur_indent = (tok_val[indent_top] & 0xFFFFFFFF) if indent_top >= 0 else 0
                cur_alt = (tok_val[indent_top] >> 32) if indent_top >= 0 else 0
                n_indent -= 1
                if col > cur_indent:
                    return fail(err, E_BAD_DEDENT, p - lo, p - lo + 1, 0)
            if alt != cur_alt:
                return fail(err, E_TAB_ERROR, p - lo, p - lo + 1, 0)
            pos = p
            continue
        if pos >= hi:
            break
        c = src[pos]
        if c == SP or c == TAB or c == FF or c == CR:
            pos += 1
            continue
        if c == HASH:
            while pos < hi and src[pos] != NL:
                pos += 1
            continue
        if c == NL:
            if depth == 0:
                if line_has_tokens:
                    if n >= cap:
                        return fail(err, E_PROGRAM_TOO_LARGE, pos - lo, pos - lo + 1, 0)
                    _put(toks, n, TK_NEWLINE, -1, pos - lo, pos - lo + 1, line, 0)
                    n += 1
                    line_has_tokens = False
                at_line_start = True
            pos += 1
            line += 1
            continue
        if c == BSLASH:
            skip = 2 if pos + 1 < hi and src[pos + 1] == NL else 0
            if pos + 2 < hi and src[pos + 1] == CR and src[pos + 2] == NL:
                skip = 3
            if skip == 0:
                return fail(err, E_BAD_CHAR, pos - lo, pos - lo + 1, 0)
            if pos + skip >= hi:  # continuation into the end of the file
                return fail(err, E_SYNTAX, pos - lo, pos - lo + 1, 0)
            pos += skip
            line += 1
            continue
        # a real token starts at pos
        if n >= cap:
            return fail(err, E_PROGRAM_TOO_LARGE, pos - lo, pos - lo + 1, 0)
        start = pos
        kind = -1
        sub = -1
        value = np.int64(0)
        tok_line[n] = line
        if is_name_start(c) or c == SQUOTE or c == DQUOTE:
            p = pos  # past a name, or a string prefix (none before a bare quote)
            while p < hi and is_name_char(src[p]):
                p += 1
            if p < hi and (src[p] == SQUOTE or src[p] == DQUOTE) and (p == pos or is_string_prefix(src, pos, p)):
                end, nl = scan_string(src, p, hi)
                if end < 0:
                    return fail(err, E_UNTERMINATED_STRING, start - lo, -end - 1 - lo, 0)
                code, e0, e1 = check_string(src, start, p, end)
                if code != 0:
                    return fail(err, code, e0 - lo, e1 - lo, 0)
                kind = TK_STRING
                sub = prefix_flags(src, start, p)
                pos = end
                line += nl
            else:
                kind = TK_NAME
                sub = match_table(src, pos, hi, KEYWORD_BYTES, KEYWORD_LENS, N_KEYWORDS, p - pos)
                if sub >= 0:
                    kind = TK_KEYWORD
                pos = p
        elif is_digit(c) or (c == DOT and pos + 1 < hi and is_digit(src[pos + 1])):
            end, kind, value, code = scan_number(src, pos, hi)
            if code != 0:
                return fail(err, code, start - lo, end - lo, 0)
            pos = end
        else:
            for length in range(3, 0, -1):
                sub = match_table(src, pos, hi, OPERATOR_BYTES, OPERATOR_LENS, N_OPERATORS, length)
                if sub >= 0:
                    kind = TK_OP
                    pos += length
                    break
            if kind < 0:
                end = min(pos + (utf8_len(c) if c >= 0x80 else 1), hi)
                return fail(err, E_BAD_CHAR, start - lo, end - lo, 0)
            if sub == OP_LPAR or sub == OP_LSQB or sub == OP_LBRACE:
                depth += 1
            elif (sub == OP_RPAR or sub == OP_RSQB or sub == OP_RBRACE) and depth > 0:
                depth -= 1
        tok_kind[n] = kind
        tok_sub[n] = sub
        tok_start[n] = start - lo
        tok_end[n] = pos - lo
        tok_val[n] = value
        n += 1
        line_has_tokens = True
    # end of input: final NEWLINE, close every block, END
    if n + n_indent + 2 > cap:
        return fail(err, E_PROGRAM_TOO_LARGE, hi - lo, hi - lo, 0)
    if line_has_tokens:
        _put(toks, n, TK_NEWLINE, -1, hi - lo, hi - lo, line, 0)
        n += 1
    for _ in range(n_indent + 1):
        _put(toks, n, TK_DEDENT, -1, hi - lo, hi - lo, line, 0)
        n += 1
    tok_kind[n - 1] = TK_END
    return n


# ---------------------------------------------------------------- host side


class LexError(Exception):
    """A compile error found while tokenizing; `.error` is the rendered CompileError."""

    def __init__(self, error: errors.CompileError, span: tuple[int, int] = (0, 0)):
        super().__init__(str(error))
        self.error = error
        self.code = error.code
        self.span = span  # byte offsets [start, end) as the kernel reported them


def _make_lex_all(fp):
    @njit(cache=True)
    def lex_all(src, toks, err):
        return lex(src, 0, src.shape[0], toks, err) + 0 * len(fp)

    return lex_all


_lex_all = _make_lex_all(source_fingerprint(
    "compiler/lexer.py", "compiler/lexer_literals.py", "compiler/arrays.py", "compiler/tokens.py", "compiler/errors.py",
    "compiler/limits.py", "contract/limits.py",
))  # fmt: skip


def token_arrays(n_bytes: int) -> Tokens:
    """Fresh Tokens sized for a source of n_bytes."""
    cap = limits.token_capacity(n_bytes)
    i32 = [np.zeros(cap, dtype=np.int32) for _ in range(5)]
    return Tokens(*i32, np.zeros(cap, dtype=np.int64))


def lex_source(source: str, filename: str = "<candidate>") -> tuple[int, Tokens]:
    """Run the compiled lexer on one source; returns (token count, Tokens)."""
    src = np.frombuffer(source.encode(), dtype=np.uint8)
    toks = token_arrays(len(src))
    err = np.zeros(ERR_WIDTH, dtype=np.int32)
    n = _lex_all(src, toks, err)
    if n < 0:
        raise LexError(errors.render_record(source, err, filename), (int(err[ERR_START]), int(err[ERR_END])))
    return int(n), toks


def tokenize(source: str) -> list[tuple[str, str]]:
    """(kind name, token text) for every token: a readable view for tests and debugging."""
    n, toks = lex_source(source)
    raw = source.encode()
    return [(tokens.KIND_NAMES[toks.kind[i]], raw[toks.start[i] : toks.end[i]].decode()) for i in range(n)]
