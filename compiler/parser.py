"""Parser: token arrays -> AST arrays (phase 2 of the compiler).

`parse` is a kernel body (numba subset, allocates nothing, never raises, no recursion):
statements are parsed with an explicit block stack (compound statements here, one-line ones
by compiler.parser_simple), expressions by compiler.parser_expr.parse_expr.  The output layout is compiler.nodes'.  Node indices
are NOT in pre-order (an operator node is created after its operands); walk the tree
through first/next_.  Every construct outside the language is rejected with an error
code and the byte span of the tokens at fault.

Host side: compiler.syntax_tree (parse_source(source) -> Ast, ParseError, dump(ast)).
"""

from __future__ import annotations

from gpucc.compiler import errors, nodes, tokens
from gpucc.compiler import parser_util as pu
from gpucc.compiler.arrays import clear_error, fail, fail_types
from gpucc.compiler.desugar import desugar
from gpucc.compiler.errors import E_EXPECTED_OP, E_PROGRAM_TOO_LARGE, E_SYNTAX, E_UNSUPPORTED, E_UNSUPPORTED_KEYWORD
from gpucc.compiler.parser_expr import parse_expr
from gpucc.compiler.parser_simple import expression_statement, name_statement, simple_statement, statement_node
from gpucc.compiler.parser_module import import_statement, main_block_end
from gpucc.compiler.parser_targets import for_target
from gpucc.compiler.parser_try import raise_statement, try_clause, try_statement
from gpucc.compiler.parser_types import annotation
from gpucc.compiler.parser_util import (
    B_LAST,
    B_OWNER,
    B_SINGLE_LINE,
    MAX_NESTING,
    S_COUNT,
    S_NBLK,
    WORD_RANGE,
    append_statement,
    append_to_module,
    enclosing_function,
    fail_tok,
    is_kw,
    is_op,
    kw_unsupported,
    new_node,
    push_block,
    string_run_end,
    top_block,
    word_is,
)  # fmt: skip
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_INT

T = tokens
TK_END, TK_NEWLINE, TK_INDENT, TK_DEDENT = T.TK_END, T.TK_NEWLINE, T.TK_INDENT, T.TK_DEDENT
TK_NAME, TK_STRING, TK_KEYWORD, TK_OP = T.TK_NAME, T.TK_STRING, T.TK_KEYWORD, T.TK_OP
N = nodes


def scratch_size(n_tokens: int) -> int:
    """Entries of the int32 `stack` scratch array parse() needs (independent of n_tokens:
    nesting is bounded by compiler.limits.MAX_NESTING)."""
    return pu.SCRATCH_SIZE


@nrt_free
def _open_body(toks, i, tree, st, err, owner):
    """After a header's ':' (token i-1): a BLOCK, pushed on the block stack.  Returns (block,
    next token) with block -1 on error.  `if x: stmt` gives a single-line block."""
    tk = toks.kind
    single = 1
    t = i
    if tk[i] == TK_NEWLINE:
        if tk[i + 1] != TK_INDENT:
            return fail_tok(err, toks, i + 1, i + 1, errors.E_EXPECTED_INDENT, 0), i
        single = 0
        t = i + 1
    if st[S_NBLK] >= MAX_NESTING:
        return fail_tok(err, toks, t, t, errors.E_NESTING_TOO_DEEP, MAX_NESTING), i
    blk = new_node(tree, st, N.N_BLOCK, 0, t, 0)
    if blk < 0:
        return fail_tok(err, toks, t, t, E_PROGRAM_TOO_LARGE, 0), i
    push_block(st, blk, owner, single)
    return blk, (i if single else i + 2)


@nrt_free
def _header(toks, i, tree, st, err, node):
    """`cond :` body of an if / elif / while whose keyword is token i-1: links cond and the
    block under node.  Returns the next token or -1."""
    first, next_ = tree.first, tree.next
    cond, i = parse_expr(toks, i, tree, st, err)
    if cond < 0:
        return -1
    if not is_op(toks, i, T.OP_COLON):
        return fail_tok(err, toks, i, i, E_EXPECTED_OP, T.OP_COLON)
    first[node] = cond
    blk, i = _open_body(toks, i + 1, tree, st, err, node)
    next_[cond] = blk
    return i if blk >= 0 else -1


@nrt_free
def _after_block(src, toks, i, tree, st, err, owner):
    """A block of `owner` just closed: attach an elif / else that follows.  Returns next token."""
    tk, tsub = toks.kind, toks.sub
    kind, first, next_ = tree.kind, tree.first, tree.next
    if owner >= 0 and (kind[owner] == N.N_TRY or kind[owner] == N.N_EXCEPT or kind[owner] == N.N_TRY_ELSE
                       or kind[owner] == N.N_FINALLY):  # fmt: skip
        clause, j = try_clause(src, toks, i, tree, st, err, owner)
        if clause < 0 or j < 0:
            return j
        blk, j = _open_body(toks, j, tree, st, err, clause)
        first[clause] = blk
        return j if blk >= 0 else -1
    if owner < 0 or tk[i] != TK_KEYWORD:
        return i
    s = tsub[i]
    k = kind[owner]
    if k == N.N_IF and (s == T.KW_ELIF or s == T.KW_ELSE):
        body = next_[first[owner]]
        if s == T.KW_ELIF:
            node = new_node(tree, st, N.N_IF, 0, i, 0)
            if node < 0:
                return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0)
            next_[body] = node
            return _header(toks, i + 1, tree, st, err, node)
        if not is_op(toks, i + 1, T.OP_COLON):
            return fail_tok(err, toks, i + 1, i + 1, E_EXPECTED_OP, T.OP_COLON)
        blk, j = _open_body(toks, i + 2, tree, st, err, -1)
        next_[body] = blk
        return j if blk >= 0 else -1
    if (k == N.N_WHILE or k == N.N_FOR_RANGE or k == N.N_FOR_LIST) and s == T.KW_ELSE:  # the loop's last child
        if not is_op(toks, i + 1, T.OP_COLON):
            return fail_tok(err, toks, i + 1, i + 1, E_EXPECTED_OP, T.OP_COLON)
        c = first[owner]
        while next_[c] != -1:
            c = next_[c]
        blk, j = _open_body(toks, i + 2, tree, st, err, -1)
        next_[c] = blk
        return j if blk >= 0 else -1
    return i


@nrt_free
def _funcdef(src, toks, i, tree, st, err):
    """`def name(p: T = default, ...) -> T:` body, `def` at token i (annotations may be left
    out: NO_TYPE; inside a function: a nested def, val = its enclosing FUNCDEF, else -1).
    Returns the next token or -1."""
    tk = toks.kind
    op, first, next_ = tree.op, tree.first, tree.next
    if tk[i + 1] != TK_NAME:
        return fail_tok(err, toks, i + 1, i + 1, errors.E_EXPECTED_NAME, 0)
    if not is_op(toks, i + 2, T.OP_LPAR):
        return fail_tok(err, toks, i + 2, i + 2, E_EXPECTED_OP, T.OP_LPAR)
    fn = new_node(tree, st, N.N_FUNCDEF, N.NO_TYPE, i + 1, 0)  # op: the return type, N.NO_TYPE until annotated
    if fn < 0:
        return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0)
    last = -1
    j = i + 3
    while not is_op(toks, j, T.OP_RPAR):
        if is_op(toks, j, T.OP_STAR) or is_op(toks, j, T.OP_DSTAR):
            return fail_tok(err, toks, j, j, E_UNSUPPORTED, errors.C_STARARGS)
        if is_op(toks, j, T.OP_SLASH):
            return fail_tok(err, toks, j, j, errors.E_UNSUPPORTED_OPERATOR, T.OP_SLASH)
        if tk[j] != TK_NAME:
            return fail_tok(err, toks, j, j, errors.E_EXPECTED_NAME, 0)
        t, after = N.NO_TYPE, j + 1  # no annotation: typed from the call sites (typecheck_infer.py)
        if is_op(toks, j + 1, T.OP_COLON):
            t, after = annotation(src, toks, j + 2, err)
            if t < 0:
                return -1
        p = new_node(tree, st, N.N_PARAM, t, j, 0)
        if p < 0:
            return fail_tok(err, toks, j, j, E_PROGRAM_TOO_LARGE, 0)
        if is_op(toks, after, T.OP_ASSIGN):  # a default value: the PARAM's child (compiler/desugar.py)
            default, after = parse_expr(toks, after + 1, tree, st, err)
            if default < 0:
                return -1
            first[p] = default
        if last < 0:
            first[fn] = p
        else:
            next_[last] = p
        last = p
        j = after
        if is_op(toks, j, T.OP_COMMA):
            j += 1
        elif not is_op(toks, j, T.OP_RPAR):
            return fail_tok(err, toks, j, j, E_EXPECTED_OP, T.OP_RPAR)
    j += 1
    if is_op(toks, j, T.OP_ARROW):
        t, j = annotation(src, toks, j + 1, err)
        if t < 0:
            return -1
        op[fn] = t
    if not is_op(toks, j, T.OP_COLON):
        return fail_tok(err, toks, j, j, E_EXPECTED_OP, T.OP_COLON)
    tree.val[fn] = enclosing_function(tree, st)
    append_to_module(tree, st, fn)  # a nested def too: hoisted, its scope checked by typecheck_infer
    blk, j = _open_body(toks, j + 1, tree, st, err, fn)
    if blk < 0:
        return -1
    if last < 0:
        first[fn] = blk
    else:
        next_[last] = blk
    return j


@nrt_free
def _for(src, toks, i, tree, st, err):
    """`for NAME in range(a[, b[, c]]):` body, `for TARGET in iterable:` body (TARGET a
    NAME or a tuple of them, parser_targets.for_target), `for` at token i.  Returns next
    token or -1."""
    tk = toks.kind
    op, first, next_ = tree.op, tree.first, tree.next
    target, r = -1, i + 3
    if tk[i + 1] != TK_NAME or not is_kw(toks, i + 2, T.KW_IN):
        target, r = for_target(toks, i + 1, tree, st, 0, err)
        if target < 0:
            return -1
        r += 1
    is_range = tk[r] == TK_NAME and word_is(src, toks, r, WORD_RANGE) and is_op(toks, r + 1, T.OP_LPAR)
    if is_range and target >= 0 and tree.kind[target] == N.N_TUPLE:  # CPython: TypeError (an int unpacked)
        items = 0
        c = tree.first[target]
        while c != -1:
            items += 1
            c = next_[c]
        return fail_types(err, errors.E_UNPACK, toks.start[i + 1], toks.end[r - 2], items, T_INT)
    name = i + 1 if target < 0 else tree.tok[target]  # the loop variable (or the target's first token)
    if target >= 0 and tree.kind[target] == N.N_TUPLE or not is_range:
        node = new_node(tree, st, N.N_FOR_LIST, 0, name, 0)
        if node < 0:
            return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0)
        if target >= 0 and tree.kind[target] == N.N_TUPLE:
            op[node] = 1
        e, j = parse_expr(toks, r, tree, st, err)
        if e < 0:
            return -1
        if not is_op(toks, j, T.OP_COLON):
            return fail_tok(err, toks, j, j, E_EXPECTED_OP, T.OP_COLON)
        first[node] = e
        append_statement(tree, st, node)
        blk, j = _open_body(toks, j + 1, tree, st, err, node)
        next_[e] = blk
        if op[node] == 1:
            next_[blk] = target
        return j if blk >= 0 else -1
    node = new_node(tree, st, N.N_FOR_RANGE, 0, name, 0)
    if node < 0:
        return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0)
    nargs = 0
    last = -1
    j = r + 2
    while not is_op(toks, j, T.OP_RPAR):
        e, j = parse_expr(toks, j, tree, st, err)
        if e < 0:
            return -1
        if last < 0:
            first[node] = e
        else:
            next_[last] = e
        last = e
        nargs += 1
        if is_op(toks, j, T.OP_COMMA):
            j += 1
        elif is_op(toks, j, T.OP_ASSIGN):
            return fail_tok(err, toks, j - 1, j, E_UNSUPPORTED, errors.C_KWARGS)
        elif not is_op(toks, j, T.OP_RPAR):
            return fail_tok(err, toks, j, j, E_EXPECTED_OP, T.OP_RPAR)
    if nargs < 1 or nargs > 3 or not is_op(toks, j + 1, T.OP_COLON):
        return fail_tok(err, toks, r, j + 1, E_UNSUPPORTED, errors.C_FOR_NOT_RANGE)
    op[node] = nargs
    append_statement(tree, st, node)
    blk, j = _open_body(toks, j + 2, tree, st, err, node)
    next_[last] = blk
    return j if blk >= 0 else -1


@nrt_free
def _keyword_statement(src, toks, i, tree, st, err):
    """A statement at keyword token i: if, while, for, return, assert, pass, break, continue;
    an error for def, elif, else and the keywords outside the language; else an expression
    statement (True, not x, ...).  Returns the next token or -1."""
    s = toks.sub[i]
    if s == T.KW_IF or s == T.KW_WHILE or s == T.KW_FOR or s == T.KW_TRY:
        if st[top_block(st) + B_SINGLE_LINE] == 1:  # `if a: while b: ...` is not Python either
            return fail_tok(err, toks, i, i, E_SYNTAX, 0)
        if s == T.KW_TRY:
            node, j = try_statement(toks, i, tree, st, err)
            if node < 0:
                return -1
            blk, j = _open_body(toks, j, tree, st, err, node)
            tree.first[node] = blk
            return j if blk >= 0 else -1
        if s == T.KW_FOR:
            return _for(src, toks, i, tree, st, err)
        node = statement_node(toks, i, tree, st, err, N.N_IF if s == T.KW_IF else N.N_WHILE, 0, i)
        if node < 0:
            return -1
        return _header(toks, i + 1, tree, st, err, node)
    if s == T.KW_RETURN:
        bare = toks.kind[i + 1] == TK_NEWLINE or is_op(toks, i + 1, T.OP_SEMI)
        return simple_statement(toks, i + 1, tree, st, err, N.N_RETURN, 0, i, -1 if bare else i + 1)
    if s == T.KW_ASSERT:
        return simple_statement(toks, i + 1, tree, st, err, N.N_ASSERT, 0, i, i + 1)
    if s == T.KW_PASS or s == T.KW_BREAK or s == T.KW_CONTINUE:
        nk = N.N_PASS if s == T.KW_PASS else (N.N_BREAK if s == T.KW_BREAK else N.N_CONTINUE)
        return simple_statement(toks, i + 1, tree, st, err, nk, 0, i, -1)
    if s == T.KW_DEL:  # del d[k]
        return simple_statement(toks, i + 1, tree, st, err, N.N_DELETE, 0, i, i + 1)
    if s == T.KW_DEF:
        return _funcdef(src, toks, i, tree, st, err)
    if s == T.KW_RAISE:
        return raise_statement(src, toks, i, tree, st, err)
    if (s == T.KW_IMPORT or s == T.KW_FROM) and st[top_block(st) + B_SINGLE_LINE] == 0:  # compiler/parser_module.py
        return import_statement(src, toks, i, tree, st, err)
    if s == T.KW_ELIF or s == T.KW_ELSE or s == T.KW_EXCEPT or s == T.KW_FINALLY:
        return fail_tok(err, toks, i, i, E_SYNTAX, 0)
    if kw_unsupported(s) and s != T.KW_AWAIT and s != T.KW_YIELD:
        return fail_tok(err, toks, i, i, E_UNSUPPORTED_KEYWORD, s)
    return expression_statement(toks, i, tree, st, err)


@nrt_free
def _statement(src, toks, i, tree, st, err):
    """One statement inside a function body at token i.  Returns the next token or -1."""
    tk = toks.kind
    k = tk[i]
    s = toks.sub[i]
    if k == TK_KEYWORD:
        return _keyword_statement(src, toks, i, tree, st, err)
    if k == TK_NAME:
        return name_statement(src, toks, i, tree, st, err)
    if k == TK_OP and s == T.OP_AT:
        return fail_tok(err, toks, i, i, E_UNSUPPORTED, errors.C_DECORATORS)
    if k == TK_OP and s == T.OP_ELLIPSIS and tk[i + 1] == TK_NEWLINE:
        return simple_statement(toks, i + 1, tree, st, err, N.N_ELLIPSIS, 0, i, -1)
    if k == TK_STRING:
        j = string_run_end(toks, i, err, True)
        if j < 0:
            return -1
        if tk[j] == TK_NEWLINE or is_op(toks, j, T.OP_SEMI):
            return simple_statement(toks, j, tree, st, err, N.N_DOCSTRING, 0, i, -1)
    return expression_statement(toks, i, tree, st, err)


@nrt_free
def _module_statement(src, toks, i, tree, st, err):
    """A top-level statement: `def`; imports (compiler/parser_module.py); a docstring and the
    `if __name__ == "__main__":` block, which make no node; any other statement as in a
    function body (the unit's module code)."""
    tk = toks.kind
    if is_kw(toks, i, T.KW_DEF):
        return _funcdef(src, toks, i, tree, st, err)
    if is_op(toks, i, T.OP_AT):
        return fail_tok(err, toks, i, i, E_UNSUPPORTED, errors.C_DECORATORS)
    if is_kw(toks, i, T.KW_IMPORT) or is_kw(toks, i, T.KW_FROM):
        return import_statement(src, toks, i, tree, st, err)
    if tk[i] == TK_STRING:
        j = string_run_end(toks, i, err, True)
        if j < 0:
            return -1
        if tk[j] == TK_NEWLINE:
            return j + 1
    if is_kw(toks, i, T.KW_LAMBDA):
        return fail_tok(err, toks, i, i, E_UNSUPPORTED_KEYWORD, T.KW_LAMBDA)
    j = main_block_end(src, toks, i)
    if j >= 0:
        return j
    return _statement(src, toks, i, tree, st, err)


@nrt_free
def _compound_keyword(toks, i):
    """Token i starts a compound statement (never after a `;`, as in CPython)."""
    if toks.kind[i] == TK_OP:
        return toks.sub[i] == T.OP_AT
    if toks.kind[i] != TK_KEYWORD:
        return False
    s = toks.sub[i]
    return (s == T.KW_IF or s == T.KW_WHILE or s == T.KW_FOR or s == T.KW_TRY or s == T.KW_DEF
            or s == T.KW_CLASS or s == T.KW_WITH or s == T.KW_ELIF or s == T.KW_ELSE
            or s == T.KW_EXCEPT or s == T.KW_FINALLY)  # fmt: skip


@nrt_free
def parse(src, toks, n_tok, tree, stack, err):
    """Build the syntax tree (Tree) of one unit's n_tok tokens (src: that unit's bytes; stack:
    the parser's scratch, scratch_size entries).  Returns the node count, or -1 with err set."""
    tk, st = toks.kind, stack
    clear_error(err)
    st[S_COUNT] = 0
    if tree.kind.shape[0] < 1 or n_tok < 1:
        return fail(err, E_PROGRAM_TOO_LARGE, 0, 0, 0)
    new_node(tree, st, N.N_MODULE, 0, 0, 0)
    st[S_NBLK] = 0
    push_block(st, 0, -1, 0)  # the module's
    i = 0
    while True:
        k = tk[i]
        if k == TK_END:
            if st[S_NBLK] != 1:
                return fail_tok(err, toks, i, i, E_SYNTAX, 0)
            return desugar(src, toks, n_tok, tree, st, err)
        if k == TK_DEDENT:
            if st[S_NBLK] <= 1:
                return fail_tok(err, toks, i, i, E_SYNTAX, 0)
            owner = st[top_block(st) + B_OWNER]
            st[S_NBLK] -= 1
            i = _after_block(src, toks, i + 1, tree, st, err, owner)
            if i < 0:
                return -1
            continue
        if k == TK_INDENT:
            return fail_tok(err, toks, i, i, errors.E_UNEXPECTED_INDENT, 0)
        if k == TK_NEWLINE:
            return fail_tok(err, toks, i, i, E_SYNTAX, 0)
        if st[S_NBLK] == 1:
            i = _module_statement(src, toks, i, tree, st, err)
        else:
            i = _statement(src, toks, i, tree, st, err)
        if i < 0:
            return -1
        if is_op(toks, i - 1, T.OP_SEMI):  # `a = 1; b = 2`: another simple statement, same block
            if _compound_keyword(toks, i):
                return fail_tok(err, toks, i, i, E_SYNTAX, 0)
            continue
        d = top_block(st)
        if st[d + B_SINGLE_LINE] == 1 and st[d + B_LAST] >= 0:  # a single-line block ends with its statement
            st[S_NBLK] -= 1
            i = _after_block(src, toks, i, tree, st, err, st[d + B_OWNER])
            if i < 0:
                return -1
