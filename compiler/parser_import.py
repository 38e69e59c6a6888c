"""Parser, imports at module level: `import m [as a], ...` and `from m import x [as a], ...`
(names in parentheses too).  Each bound name is an IMPORT node, a MODULE child
(compiler/nodes.py); a module outside compiler/modules.py's table, a dotted or relative one,
`*`, or a name the module does not have are located errors.  Kernel bodies.
"""

from __future__ import annotations

from gpucc.compiler import tokens as T
from gpucc.compiler.errors import E_EXPECTED_NAME, E_MODULE_NAME, E_PROGRAM_TOO_LARGE, E_SYNTAX, E_UNSUPPORTED_MODULE
from gpucc.compiler.modules import member_code, module_code
from gpucc.compiler.nodes import N_IMPORT
from gpucc.compiler.parser_simple import end_of_statement
from gpucc.compiler.parser_util import append_statement, fail_tok, is_kw, is_op, new_node
from gpucc.compiler.tokens import TK_NAME
from gpucc.contract.jitable import nrt_free


@nrt_free
def _module(src, toks, i, err):
    """The module code of the module named at token i, or -1 (err set)."""
    if toks.kind[i] != TK_NAME:
        return fail_tok(err, toks, i, i, E_UNSUPPORTED_MODULE if is_op(toks, i, T.OP_DOT) else E_EXPECTED_NAME, 0)
    m = module_code(src, toks.start[i], toks.end[i])
    if m < 0 or is_op(toks, i + 1, T.OP_DOT):  # os, os.path, math.x
        j = i
        while is_op(toks, j + 1, T.OP_DOT) and toks.kind[j + 2] == TK_NAME:
            j += 2
        return fail_tok(err, toks, i, j, E_UNSUPPORTED_MODULE, 0)
    return m


@nrt_free
def _bind(src, toks, i, tree, st, err, m, member):
    """One bound name at token i (`x` or `x as a`): its IMPORT node.  Returns the next token."""
    if toks.kind[i] != TK_NAME:
        return fail_tok(err, toks, i, i, E_EXPECTED_NAME, 0)
    bound = i
    j = i + 1
    if is_kw(toks, j, T.KW_AS):
        if toks.kind[j + 1] != TK_NAME:
            return fail_tok(err, toks, j + 1, j + 1, E_EXPECTED_NAME, 0)
        bound = j + 1
        j += 2
    node = new_node(tree, st, N_IMPORT, m, bound, member)
    if node < 0:
        return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0)
    append_statement(tree, st, node)
    return j


@nrt_free
def import_statement(src, toks, i, tree, st, err):
    """`import ...` or `from ... import ...` at token i.  Returns the next token or -1."""
    if is_kw(toks, i, T.KW_IMPORT):
        j = i + 1
        while True:
            m = _module(src, toks, j, err)
            if m < 0:
                return -1
            j = _bind(src, toks, j, tree, st, err, m, -1)
            if j < 0:
                return -1
            if not is_op(toks, j, T.OP_COMMA):
                return end_of_statement(toks, j, err)
            j += 1
    m = _module(src, toks, i + 1, err)
    if m < 0:
        return -1
    if not is_kw(toks, i + 2, T.KW_IMPORT):
        return fail_tok(err, toks, i + 2, i + 2, E_SYNTAX, 0)
    j = i + 3
    paren = is_op(toks, j, T.OP_LPAR)
    j += 1 if paren else 0
    while True:
        if toks.kind[j] != TK_NAME:
            return fail_tok(err, toks, j, j, E_MODULE_NAME if is_op(toks, j, T.OP_STAR) else E_EXPECTED_NAME, 0)
        k = member_code(src, toks.start[j], toks.end[j])
        if k < 0:
            return fail_tok(err, toks, j, j, E_MODULE_NAME, 0)
        j = _bind(src, toks, j, tree, st, err, m, k)
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
