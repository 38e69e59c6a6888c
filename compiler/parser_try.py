"""`raise` and `try` / `except` / `else` / `finally` for compiler.parser (kernel bodies: nothing
allocates, raises or recurses).

The exception classes are contract.status' EXCEPTION_CLASSES, looked up by name here: a raise
takes the status its class raises (RAISE's op), an except clause the statuses its classes
catch (EXCEPT's op, a bit each).  Any other name is E_UNKNOWN_EXCEPTION: classes of a
program's own stay out.  A TRY's clauses come as the blocks before them close
(compiler.parser's `_after_block` hands over the owner of the block that closed).
"""

from __future__ import annotations

from gpucc.compiler import errors, nodes, tokens
from gpucc.compiler.errors import E_EXPECTED_OP, E_PROGRAM_TOO_LARGE, E_SYNTAX, E_UNSUPPORTED
from gpucc.compiler.parser_expr import parse_expr
from gpucc.compiler.parser_simple import end_of_statement, simple_statement, statement_node
from gpucc.compiler.parser_util import B_LAST, fail_tok, is_kw, is_op, new_node, top_block
from gpucc.compiler.scope import table_index
from gpucc.compiler.tokens import TK_NAME, TK_NEWLINE, _byte_table
from gpucc.contract.jitable import nrt_free
from gpucc.contract.status import EXCEPTION_MASKS, EXCEPTION_NAMES, EXCEPTION_STATUS, RAISABLE_MASK

T = tokens
N = nodes
EXCEPTION_BYTES, EXCEPTION_LENS = _byte_table(EXCEPTION_NAMES)
_STATUS = EXCEPTION_STATUS  # by class: the status a raise of it raises, -1 none
_MASKS = EXCEPTION_MASKS  # by class: the statuses an except of it catches


@nrt_free
def exception_class(src, toks, i):
    """Index of the exception class named by token i in contract.status.EXCEPTION_CLASSES, or -1."""
    if toks.kind[i] != TK_NAME:
        return -1
    return table_index(src, toks.start[i], toks.end[i], EXCEPTION_BYTES, EXCEPTION_LENS)


@nrt_free
def raise_statement(src, toks, i, tree, st, err):
    """`raise` (again), `raise e`, `raise E`, `raise E(args)`, `raise` at token i.  Returns the
    next token or -1."""
    if toks.kind[i + 1] == TK_NEWLINE or is_op(toks, i + 1, T.OP_SEMI):
        return simple_statement(toks, i + 1, tree, st, err, N.N_RAISE, -1, i, -1)
    node = statement_node(toks, i, tree, st, err, N.N_RAISE, -1, i)
    if node < 0:
        return -1
    e, j = parse_expr(toks, i + 1, tree, st, err)
    if e < 0:
        return -1
    tree.first[node] = e
    if is_kw(toks, j, T.KW_FROM):
        return fail_tok(err, toks, j, j, E_UNSUPPORTED, errors.C_RAISE_FROM)
    k = tree.kind[e]
    c = exception_class(src, toks, tree.tok[e]) if k == N.N_NAME or k == N.N_CALL else -1
    if c >= 0 and _STATUS[c] >= 0:
        tree.op[node] = _STATUS[c]
    elif k != N.N_NAME or c >= 0:  # `raise e` of an except clause's name: the type checker's
        return fail_tok(err, toks, tree.tok[e], tree.tok[e], errors.E_UNKNOWN_EXCEPTION, 0)
    return end_of_statement(toks, j, err)


@nrt_free
def try_statement(toks, i, tree, st, err):
    """`try:` at token i: the TRY node; its body opens next.  Returns (node, next token)."""
    if not is_op(toks, i + 1, T.OP_COLON):
        return fail_tok(err, toks, i + 1, i + 1, E_EXPECTED_OP, T.OP_COLON), i
    node = statement_node(toks, i, tree, st, err, N.N_TRY, 0, i)
    return node, i + 2


@nrt_free
def _except_header(src, toks, i, tree, node, err):
    """`except [E | (E1, E2, ...)] [as e]:` at token i (tree.op[node]: the statuses caught,
    val: e's token).  Returns the token after the ':' or -1."""
    j = i + 1
    mask = 0
    if is_op(toks, j, T.OP_COLON):
        mask = RAISABLE_MASK
    else:
        group = is_op(toks, j, T.OP_LPAR)
        if group:
            j += 1
        while True:
            c = exception_class(src, toks, j)
            if c < 0:
                if toks.kind[j] != TK_NAME:
                    return fail_tok(err, toks, j, j, errors.E_EXPECTED_NAME, 0)
                return fail_tok(err, toks, j, j, errors.E_UNKNOWN_EXCEPTION, 0)
            mask |= _MASKS[c]
            j += 1
            if not group or is_op(toks, j, T.OP_RPAR):
                break
            if not is_op(toks, j, T.OP_COMMA):
                return fail_tok(err, toks, j, j, E_EXPECTED_OP, T.OP_RPAR)
            j += 1
            if is_op(toks, j, T.OP_RPAR):
                break
        if group:
            j += 1
        if is_kw(toks, j, T.KW_AS):
            if toks.kind[j + 1] != TK_NAME:
                return fail_tok(err, toks, j + 1, j + 1, errors.E_EXPECTED_NAME, 0)
            tree.val[node] = j + 1
            j += 2
    tree.op[node] = mask
    if not is_op(toks, j, T.OP_COLON):
        return fail_tok(err, toks, j, j, E_EXPECTED_OP, T.OP_COLON)
    return j + 1


@nrt_free
def try_clause(src, toks, i, tree, st, err, owner):
    """A block of TRY statement owner (its body) or of one of its clauses (EXCEPT, TRY_ELSE,
    FINALLY) closed at token i: parse the clause that follows, if any, as (clause node, the
    token after its ':'); (-1, i) when the statement is complete; (-1, -1) with err set.
    The caller opens the clause's block."""
    kind = tree.kind
    k = kind[owner]
    t = st[top_block(st) + B_LAST]  # the TRY: the statement the closed block belongs to
    s = toks.sub[i] if toks.kind[i] == T.TK_KEYWORD else -1
    after_body = k == N.N_TRY
    if s == T.KW_EXCEPT and (after_body or k == N.N_EXCEPT):
        if k == N.N_EXCEPT and tree.op[owner] == RAISABLE_MASK and _bare(toks, tree, owner):
            return -1, fail_tok(err, toks, tree.tok[owner], tree.tok[owner], E_SYNTAX, 0)  # `except:` must be last
        clause = new_node(tree, st, N.N_EXCEPT, 0, i, -1)
    elif s == T.KW_ELSE and k == N.N_EXCEPT:
        clause = new_node(tree, st, N.N_TRY_ELSE, 0, i, -1)
    elif s == T.KW_FINALLY and k != N.N_FINALLY:
        clause = new_node(tree, st, N.N_FINALLY, 0, i, -1)
    elif after_body:  # CPython: expected 'except' or 'finally' block
        return -1, fail_tok(err, toks, i, i, E_SYNTAX, 0)
    else:
        return -1, i
    if clause < 0:
        return -1, fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0)
    last = tree.first[t]
    while tree.next[last] != -1:
        last = tree.next[last]
    tree.next[last] = clause
    if kind[clause] == N.N_EXCEPT:
        return clause, _except_header(src, toks, i, tree, clause, err)
    if not is_op(toks, i + 1, T.OP_COLON):
        return -1, fail_tok(err, toks, i + 1, i + 1, E_EXPECTED_OP, T.OP_COLON)
    return clause, i + 2


@nrt_free
def _bare(toks, tree, clause):
    """Whether EXCEPT clause was written `except:` (no class)."""
    return is_op(toks, tree.tok[clause] + 1, T.OP_COLON)
