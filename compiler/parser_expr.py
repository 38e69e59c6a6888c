"""Expression parsing for compiler.parser: tokens -> AST nodes, no recursion.

Shunting-yard with an explicit operator stack and operand stack, both in the parser's int32
scratch array (compiler.parser_util's layout); the operator codes, their precedence and the
token -> operator maps are compiler.parser_tables', the stacks and the reductions
compiler.parser_opstack's.  Python's precedence, lowest first:

    if-else < or < and < not < comparisons < | < ^ < & < << >> < + - < * / // % < unary - + ~
    < ** < call / atom

`**` groups to the right and binds tighter than a unary operator on its left (-2 ** 2 is
-4), looser than one on its right (2 ** -1).  `a if c else b` is an IFEXP node (body,
cond, orelse): X_IFC waits for `else`, X_IFE for the else-branch; both sit below every
operator, and the else-branch may itself be a conditional expression.

Comprehensions and generator expressions are compiler.parser_comp's.

A comparison chain becomes ONE COMPARE node: its first operand, then one CMP_LINK per
operator (the link's child is the right operand).  Calls link their arguments as they
complete, so the operand stack holds at most one operand per pending binary operator.

`parse_expr` alternates between two dispatchers: `_operand` (one handler per token kind that
can start an operand) and `_after_operand` (one handler per operator, bracket or keyword that
can follow one).  Every handler takes the token index and returns the next one with what the
loop does next: OPERAND, OPERATOR, END (the token is not the expression's) or FAILED (err set).
The operand handlers and those outcomes are compiler/parser_operands.py's; the handlers after
an operand are here.
"""

from __future__ import annotations

from gpucc.compiler import errors, tokens
from gpucc.compiler.errors import (
    E_EXPECTED_OP,
    E_PROGRAM_TOO_LARGE,
    E_SYNTAX,
    E_UNSUPPORTED,
    E_UNSUPPORTED_OPERATOR,
)
from gpucc.compiler.nodes import (
    CMP_IN,
    CMP_IS,
    CMP_IS_NOT,
    CMP_NOT_IN,
    N_ATTR,
    N_KWARG,
    N_METHOD,
    N_NAME,
    N_SUBSCRIPT,
    N_TUPLE,
)  # fmt: skip
from gpucc.compiler.parser_comp import close_comprehension, next_clause, open_comprehension
from gpucc.compiler.parser_operands import (
    END,
    FAILED,
    OPERAND,
    OPERATOR,
    _brace_item,
    _complete,
    _fail,
    _open,
    _operand,
    _slice_colon,
    _subscript_end,
    _too_deep,
    _too_large,
)  # fmt: skip
from gpucc.compiler.parser_opstack import (
    add_arg,
    close,
    compare_link,
    ifc_open,
    innermost_marker,
    pop_val,
    push_op,
    reduce_above,
    slice_part,
    top_entry,
    top_op,
)  # fmt: skip
from gpucc.compiler.parser_tables import (
    COMPARE_OF_OP,
    INFIX_OF_KW,
    INFIX_OF_OP,
    P_OR,
    P_POW,
    PRECEDENCE,
    X_BRACE,
    X_CALL,
    X_COMP,
    X_IFC,
    X_IFE,
    X_KWARG,
    X_LIST,
    X_PAREN,
    X_SUB,
    X_TUPLE,
)  # fmt: skip
from gpucc.compiler.parser_util import (
    O_CODE,
    O_NODE,
    O_TOKEN,
    S_NOPS,
    S_NVALS,
    S_VALS,
    fail_tok,
    is_kw,
    is_op,
    new_node,
)  # fmt: skip
from gpucc.compiler.tokens import TK_END, TK_KEYWORD, TK_NAME, TK_NEWLINE, TK_OP
from gpucc.contract.jitable import nrt_free

T = tokens


@nrt_free
def parse_expr(toks, i, tree, st, err):
    """Parse one expression starting at token i.  Returns (node, next token index); node is -1
    on error (err filled).  Stops before the first token that cannot continue it."""
    st[S_NOPS] = 0
    st[S_NVALS] = 0
    want = OPERAND
    while want == OPERAND or want == OPERATOR:
        if want == OPERAND:
            i, want = _operand(toks, i, tree, st, err)
        else:
            i, want = _after_operand(toks, i, tree, st, err)
    if want == FAILED:
        return -1, i
    return _finish(toks, i, tree, st, err)


# ---------------------------------------------------------------- after an operand


@nrt_free
def _after_operand(toks, i, tree, st, err):
    """An operand is complete: an operator, a bracket, a keyword or the end follows at token i."""
    k = toks.kind[i]
    s = toks.sub[i]
    if k == TK_KEYWORD:
        return _keyword_after_operand(toks, i, tree, st, err)
    if k != TK_OP:
        return i, END
    if INFIX_OF_OP[s] >= 0:
        return _infix(toks, i, tree, st, err, INFIX_OF_OP[s])
    if COMPARE_OF_OP[s] >= 0:
        return _compare(toks, i, tree, st, err, COMPARE_OF_OP[s], i + 1)
    if s == T.OP_RPAR or s == T.OP_COMMA or s == T.OP_RSQB or s == T.OP_RBRACE:
        return _item_end(toks, i, tree, st, err)
    if s == T.OP_COLON and (innermost_marker(st) == X_SUB or innermost_marker(st) == X_BRACE):
        return _item_end(toks, i, tree, st, err)
    if s == T.OP_DOT:
        return _method(toks, i, tree, st, err)
    if s == T.OP_LSQB:
        return _subscript(toks, i, tree, st, err)
    if s == T.OP_ASSIGN:
        marker = innermost_marker(st)
        if marker == X_CALL:
            return _keyword_argument(toks, i, tree, st, err)
        if marker == X_PAREN:
            return _fail(err, toks, i, i, E_SYNTAX, 0)
        return i, END  # the statement's `=`
    if s == T.OP_WALRUS:
        return _fail(err, toks, i, i, E_UNSUPPORTED, errors.C_WALRUS)
    if s == T.OP_LPAR:
        return _fail(err, toks, i, i, E_UNSUPPORTED, errors.C_CALL_TARGET)
    if s == T.OP_AT:
        return _fail(err, toks, i, i, E_UNSUPPORTED_OPERATOR, s)
    return i, END


@nrt_free
def _keyword_after_operand(toks, i, tree, st, err):
    """and, or, if, else, in, not in, is, is not after an operand."""
    s = toks.sub[i]
    if INFIX_OF_KW[s] >= 0:
        return _infix(toks, i, tree, st, err, INFIX_OF_KW[s])
    if (s == T.KW_FOR or s == T.KW_IF) and innermost_marker(st) == X_COMP:
        return _clause_starts(i, next_clause(toks, i, tree, st, err))
    if s == T.KW_FOR and innermost_marker(st) >= 0:
        return _clause_starts(i, open_comprehension(toks, i, tree, st, err))
    if s == T.KW_IF:  # body if cond else orelse
        if not reduce_above(tree, st, P_OR):
            return _too_large(err, toks, i)
        return _open(toks, i, st, err, X_IFC, -1, i + 1)
    if s == T.KW_ELSE and ifc_open(st):
        return _else(toks, i, tree, st, err)
    if s == T.KW_IN:
        return _compare(toks, i, tree, st, err, CMP_IN, i + 1)
    if s == T.KW_NOT and is_kw(toks, i + 1, T.KW_IN):
        return _compare(toks, i, tree, st, err, CMP_NOT_IN, i + 2)
    if s == T.KW_IS and is_kw(toks, i + 1, T.KW_NOT):
        return _compare(toks, i, tree, st, err, CMP_IS_NOT, i + 2)
    if s == T.KW_IS:
        return _compare(toks, i, tree, st, err, CMP_IS, i + 1)
    if s == T.KW_NOT:
        return _fail(err, toks, i, i, E_SYNTAX, 0)
    return i, END


@nrt_free
def _keyword_argument(toks, i, tree, st, err):
    """`name=` at token i - 1 inside a call's parentheses: a KWARG node (its value follows)."""
    x = st[S_VALS + st[S_NVALS] - 1]
    if top_op(st) != X_CALL or tree.kind[x] != N_NAME or tree.tok[x] != i - 1:
        return _fail(err, toks, i, i, E_SYNTAX, 0)  # f(a + b=1): not Python
    pop_val(st)
    tree.kind[x] = N_KWARG
    return _open(toks, i, st, err, X_KWARG, x, i + 1)


@nrt_free
def _clause_starts(i, at):
    """A comprehension clause's expression starts at token `at` (-1: failed at token i)."""
    if at < 0:
        return i, FAILED
    return at, OPERAND


@nrt_free
def _infix(toks, i, tree, st, err, code):
    """Binary operator `code` (X_BIN + BIN_*, X_AND, X_OR) at token i."""
    p = PRECEDENCE[code]
    if not reduce_above(tree, st, p + 1 if p == P_POW else p):  # ** groups to the right
        return _too_large(err, toks, i)
    return _open(toks, i, st, err, code, -1, i + 1)


@nrt_free
def _compare(toks, i, tree, st, err, c, at):
    """Comparison c (CMP_*) at token i; its right operand starts at `at`."""
    if not compare_link(tree, st, c, i):
        return _too_large(err, toks, i)
    return at, OPERAND


@nrt_free
def _else(toks, i, tree, st, err):
    """`else` of the conditional expression on top: X_IFC becomes X_IFE."""
    reduced = reduce_above(tree, st, P_OR)
    if top_op(st) != X_IFC:
        return _fail(err, toks, i, i, E_SYNTAX, 0)
    st[top_entry(st) + O_CODE] = X_IFE
    if not reduced:
        return _too_large(err, toks, i)
    return i + 1, OPERAND


@nrt_free
def _method(toks, i, tree, st, err):
    """obj.name(args): a METHOD node, its args linked after obj; obj.name: an ATTR node."""
    if toks.kind[i + 1] != TK_NAME:
        return _fail(err, toks, i, i + 1, E_UNSUPPORTED, errors.C_ATTRIBUTES)
    obj = pop_val(st)
    if not is_op(toks, i + 2, T.OP_LPAR):  # math.pi (the type checker's: no other attribute is served)
        node = new_node(tree, st, N_ATTR, 0, i + 1, 0)
        if node >= 0:
            tree.first[node] = obj
        return _complete(toks, i + 1, st, err, node)
    node = new_node(tree, st, N_METHOD, 0, i + 1, 0)
    if node < 0:
        return _too_large(err, toks, i)
    tree.first[node] = obj
    if is_op(toks, i + 3, T.OP_RPAR):  # obj.name()
        return _complete(toks, i + 3, st, err, node)
    if not push_op(st, X_CALL, i + 1, node, obj):
        return _too_deep(err, toks, i)
    return i + 3, OPERAND


@nrt_free
def _subscript(toks, i, tree, st, err):
    """obj[...]: a SUBSCRIPT (a SLICE once a colon shows)."""
    obj = pop_val(st)
    node = new_node(tree, st, N_SUBSCRIPT, 0, i, 0)
    if node < 0:
        return _too_large(err, toks, i)
    tree.first[node] = obj
    if not push_op(st, X_SUB, i, node, obj):
        return _too_deep(err, toks, i)
    return i + 1, OPERAND


@nrt_free
def _item_end(toks, i, tree, st, err):
    """`)`, `,`, `]` (or a subscript's `:`) after an operand: it ends an item of the innermost
    bracket, or the whole expression when no bracket is open."""
    s = toks.sub[i]
    if not close(tree, st):
        return _too_large(err, toks, i)
    top = top_op(st)
    if top == X_IFC:
        return _fail(err, toks, i, i, errors.E_EXPECTED_ELSE, 0)
    if top < 0:
        return i, END  # not ours: the statement parser decides
    if top == X_COMP:
        node = close_comprehension(toks, i, tree, st, err)
        return (i, FAILED) if node < 0 else _complete(toks, i, st, err, node)
    parens = top == X_PAREN or top == X_CALL or top == X_TUPLE
    if s == T.OP_RPAR and not parens or s == T.OP_RSQB and top != X_LIST and top != X_SUB:
        return _fail(err, toks, i, i, E_SYNTAX, 0)  # ( ... ] or [ ... )
    if top == X_BRACE:
        return _brace_item(toks, i, tree, st, err)
    if s == T.OP_RBRACE:
        return _fail(err, toks, i, i, E_SYNTAX, 0)  # ( ... }
    if top == X_PAREN and s == T.OP_COMMA:  # (a, ...: a tuple
        o = top_entry(st)
        node = new_node(tree, st, N_TUPLE, 0, st[o + O_TOKEN], 0)
        if node < 0:
            return _too_large(err, toks, i)
        st[o + O_CODE] = X_TUPLE
        st[o + O_NODE] = node
    elif top == X_PAREN:
        st[S_NOPS] -= 1
        return i + 1, OPERATOR
    if top == X_SUB:
        return _subscript_part(toks, i, tree, st, err)
    add_arg(tree, st)  # X_CALL, X_LIST, X_TUPLE
    if s == T.OP_COMMA:
        return i + 1, OPERAND
    o = top_entry(st)
    st[S_NOPS] -= 1
    return _complete(toks, i, st, err, st[o + O_NODE])


@nrt_free
def _subscript_part(toks, i, tree, st, err):
    """`:` or `]` after an index or slice part of the subscript on top."""
    s = toks.sub[i]
    if s == T.OP_COMMA:
        return _fail(err, toks, i, i, E_UNSUPPORTED, errors.C_TUPLES)
    sub = st[top_entry(st) + O_NODE]
    if tree.kind[sub] == N_SUBSCRIPT and s == T.OP_RSQB:  # xs[i]
        add_arg(tree, st)
    elif not slice_part(tree, st):
        return _fail(err, toks, i, i, E_SYNTAX, 0)
    if s == T.OP_COLON:
        return _slice_colon(toks, i, tree, err, sub)
    return _subscript_end(toks, i, tree, st, err, sub)


# ---------------------------------------------------------------- the end


@nrt_free
def _finish(toks, i, tree, st, err):
    """The expression ends before token i: every bracket must be closed.  (node, i)."""
    if not close(tree, st):
        return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0), i
    if top_op(st) == X_IFC:
        return fail_tok(err, toks, i, i, errors.E_EXPECTED_ELSE, 0), i
    if st[S_NOPS] > 0:
        if toks.kind[i] == TK_NEWLINE or toks.kind[i] == TK_END:  # never closed (end of file): point at it
            o = top_entry(st)
            j = st[o + O_TOKEN] + (1 if st[o + O_CODE] == X_CALL else 0)
            return fail_tok(err, toks, j, j, E_EXPECTED_OP, T.OP_RPAR), i
        return fail_tok(err, toks, i, i, E_EXPECTED_OP, T.OP_RPAR), i
    if st[S_NVALS] != 1:
        return fail_tok(err, toks, i, i, E_SYNTAX, 0), i
    return st[S_VALS], i
