"""The expression parser's operand handlers (compiler/parser_expr.py's `_operand` dispatch):
names, literals, keywords that start an operand (`lambda` among them), prefix operators and
opening brackets, list and brace displays, slices; and the outcomes every handler of both
dispatchers returns through (OPERAND, OPERATOR, END, FAILED)."""

from __future__ import annotations

from gpucc.compiler import errors, tokens
from gpucc.compiler.errors import (
    E_EXPECTED_EXPR,
    E_NESTING_TOO_DEEP,
    E_PROGRAM_TOO_LARGE,
    E_SYNTAX,
    E_UNSUPPORTED,
    E_UNSUPPORTED_KEYWORD,
    E_UNSUPPORTED_OPERATOR,
)
from gpucc.compiler.nodes import (
    N_BOOL,
    N_CALL,
    N_DICT,
    N_FLOAT,
    N_INT,
    N_LAMBDA,
    N_LIST,
    N_NAME,
    N_NONE,
    N_SET,
    N_SLICE,
    N_STR,
    N_TUPLE,
)  # fmt: skip
from gpucc.compiler.parser_opstack import (
    add_arg,
    push_op,
    push_val,
    top_entry,
    top_op,
)  # fmt: skip
from gpucc.compiler.parser_tables import (
    P_NOT,
    PRECEDENCE,
    PREFIX_OF_OP,
    X_BRACE,
    X_CALL,
    X_LAMBDA,
    X_LIST,
    X_NOT,
    X_PAREN,
    X_SUB,
    X_TUPLE,
)  # fmt: skip
from gpucc.compiler.parser_util import (
    MAX_NESTING,
    O_NODE,
    S_NOPS,
    fail_tok,
    is_op,
    kw_unsupported,
    new_node,
    string_run_end,
)  # fmt: skip
from gpucc.compiler.tokens import TK_FLOAT, TK_INT, TK_KEYWORD, TK_NAME, TK_OP, TK_STRING
from gpucc.contract.jitable import nrt_free

T = tokens

# what the loop does next (a handler's second result)
OPERAND, OPERATOR, END, FAILED = range(4)


# ---------------------------------------------------------------- outcomes shared by the handlers


@nrt_free
def _fail(err, toks, i, j, code, arg):
    """Record error `code` over tokens i..j: the handler's result."""
    fail_tok(err, toks, i, j, code, arg)
    return i, FAILED


@nrt_free
def _too_large(err, toks, i):
    return _fail(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0)


@nrt_free
def _too_deep(err, toks, i):
    return _fail(err, toks, i, i, E_NESTING_TOO_DEEP, MAX_NESTING)


@nrt_free
def _complete(toks, i, st, err, node):
    """Operand `node` ends at token i (node -1: it could not be made)."""
    if node < 0:
        return _too_large(err, toks, i)
    if not push_val(st, node):
        return _too_deep(err, toks, i)
    return i + 1, OPERATOR


@nrt_free
def _open(toks, i, st, err, code, node, at):
    """Operator or bracket `code` at token i (building `node`, or -1); an operand follows at `at`."""
    if not push_op(st, code, i, node, -1):
        return _too_deep(err, toks, i)
    return at, OPERAND


# ---------------------------------------------------------------- operands


@nrt_free
def _operand(toks, i, tree, st, err):
    """An operand, or a prefix operator or bracket before one, starts at token i."""
    k = toks.kind[i]
    if k == TK_NAME:
        return _name(toks, i, tree, st, err)
    if k == TK_INT:
        return _complete(toks, i, st, err, new_node(tree, st, N_INT, 0, i, toks.val[i]))
    if k == TK_FLOAT:
        return _complete(toks, i, st, err, new_node(tree, st, N_FLOAT, 0, i, toks.val[i]))
    if k == TK_KEYWORD:
        return _keyword_operand(toks, i, tree, st, err)
    if k == TK_OP:
        return _operator_operand(toks, i, tree, st, err)
    if k == TK_STRING:
        return _string(toks, i, tree, st, err)
    return _fail(err, toks, i, i, E_EXPECTED_EXPR, 0)


@nrt_free
def _string(toks, i, tree, st, err):
    """A str literal: adjacent literals at i make one STR node (no f-strings, no bytes)."""
    j = string_run_end(toks, i, err, False)
    if j < 0:
        return i, FAILED
    return _complete(toks, j - 1, st, err, new_node(tree, st, N_STR, j - i, i, 0))


@nrt_free
def _name(toks, i, tree, st, err):
    """A NAME, or the CALL `name(args)`."""
    if not is_op(toks, i + 1, T.OP_LPAR):
        return _complete(toks, i, st, err, new_node(tree, st, N_NAME, 0, i, 0))
    node = new_node(tree, st, N_CALL, 0, i, 0)
    if node < 0:
        return _too_large(err, toks, i)
    if is_op(toks, i + 2, T.OP_RPAR):  # name()
        return _complete(toks, i + 2, st, err, node)
    return _open(toks, i, st, err, X_CALL, node, i + 2)


@nrt_free
def _keyword_operand(toks, i, tree, st, err):
    """True, False, None, or the prefix `not`."""
    s = toks.sub[i]
    if s == T.KW_TRUE or s == T.KW_FALSE:
        return _complete(toks, i, st, err, new_node(tree, st, N_BOOL, 0, i, 1 if s == T.KW_TRUE else 0))
    if s == T.KW_NONE:
        return _complete(toks, i, st, err, new_node(tree, st, N_NONE, 0, i, 0))
    if s == T.KW_NOT:
        top = top_op(st)
        if top >= 0 and PRECEDENCE[top] > P_NOT:  # x == not y: `not` after a tighter operator
            return _fail(err, toks, i, i, E_SYNTAX, 0)
        return _open(toks, i, st, err, X_NOT, -1, i + 1)
    if s == T.KW_LAMBDA:
        return _lambda(toks, i, tree, st, err)
    if kw_unsupported(s):
        return _fail(err, toks, i, i, E_UNSUPPORTED_KEYWORD, s)
    return _fail(err, toks, i, i, E_EXPECTED_EXPR, 0)


@nrt_free
def _operator_operand(toks, i, tree, st, err):
    """An operator token where an operand belongs: a prefix operator or `(`, a list literal,
    or a bracket closing an item list whose operand is absent."""
    s = toks.sub[i]
    code = PREFIX_OF_OP[s]
    if code >= 0:
        if code == X_PAREN and is_op(toks, i + 1, T.OP_RPAR):  # (): the empty tuple
            return _complete(toks, i + 1, st, err, new_node(tree, st, N_TUPLE, 0, i, 0))
        return _open(toks, i, st, err, code, -1, i + 1)
    top = top_op(st)
    closes = (s == T.OP_RPAR and (top == X_CALL or top == X_TUPLE) or s == T.OP_RSQB and top == X_LIST
              or s == T.OP_RBRACE and top == X_BRACE)
    if closes and is_op(toks, i - 1, T.OP_COMMA):
        o = top_entry(st)  # f(a, b,) / [a, b,] / (a,): the items are already linked
        st[S_NOPS] -= 1
        return _complete(toks, i, st, err, st[o + O_NODE])
    if (s == T.OP_COLON or s == T.OP_RSQB) and top == X_SUB:
        return _absent_slice_part(toks, i, tree, st, err)
    if s == T.OP_LSQB:
        return _list_literal(toks, i, tree, st, err)
    if s == T.OP_LBRACE:
        return _brace(toks, i, tree, st, err)
    if s == T.OP_STAR or s == T.OP_DSTAR:
        return _fail(err, toks, i, i, E_UNSUPPORTED, errors.C_STARARGS)
    if s == T.OP_ELLIPSIS:
        return _fail(err, toks, i, i, E_UNSUPPORTED_OPERATOR, s)
    return _fail(err, toks, i, i, E_EXPECTED_EXPR, 0)


@nrt_free
def _list_literal(toks, i, tree, st, err):
    """`[` opens a LIST (`[]`: complete at once)."""
    node = new_node(tree, st, N_LIST, 0, i, 0)
    if node < 0:
        return _too_large(err, toks, i)
    if is_op(toks, i + 1, T.OP_RSQB):
        return _complete(toks, i + 1, st, err, node)
    return _open(toks, i, st, err, X_LIST, node, i + 1)


@nrt_free
def _brace(toks, i, tree, st, err):
    """`{` opens a SET, which its first `:` makes a DICT (`{}`: an empty DICT at once); val
    counts the items linked."""
    node = new_node(tree, st, N_DICT if is_op(toks, i + 1, T.OP_RBRACE) else N_SET, 0, i, 0)
    if node < 0:
        return _too_large(err, toks, i)
    if is_op(toks, i + 1, T.OP_RBRACE):
        return _complete(toks, i + 1, st, err, node)
    return _open(toks, i, st, err, X_BRACE, node, i + 1)


@nrt_free
def _brace_item(toks, i, tree, st, err):
    """`,`, `:` or `}` after an item of the display on top: keys and values alternate, a `:`
    after each key."""
    s = toks.sub[i]
    o = top_entry(st)
    node = st[o + O_NODE]
    add_arg(tree, st)
    tree.val[node] += 1
    odd = tree.val[node] % 2 == 1
    if s == T.OP_COLON:
        if not odd or (tree.val[node] > 1 and tree.kind[node] != N_DICT):
            return _fail(err, toks, i, i, E_SYNTAX, 0)
        tree.kind[node] = N_DICT
        return i + 1, OPERAND
    if tree.kind[node] == N_DICT and odd:  # a key without its value
        return _fail(err, toks, i, i, E_SYNTAX, 0)
    if s == T.OP_COMMA:
        return i + 1, OPERAND
    if s != T.OP_RBRACE:
        return _fail(err, toks, i, i, E_SYNTAX, 0)
    st[S_NOPS] -= 1
    return _complete(toks, i, st, err, node)


@nrt_free
def _absent_slice_part(toks, i, tree, st, err):
    """`:` or `]` in the subscript on top where a slice part could be: xs[:b], xs[a::c], xs[a:]."""
    sub = st[top_entry(st) + O_NODE]
    if toks.sub[i] == T.OP_COLON:
        return _slice_colon(toks, i, tree, err, sub)
    if tree.val[sub] == 0:  # xs[]
        return _fail(err, toks, i, i, E_EXPECTED_EXPR, 0)
    return _subscript_end(toks, i, tree, st, err, sub)


@nrt_free
def _slice_colon(toks, i, tree, err, sub):
    """A colon in subscript `sub` (whose val counts its colons): it is a SLICE."""
    if tree.val[sub] >= 2:
        return _fail(err, toks, i, i, E_SYNTAX, 0)
    tree.val[sub] += 1
    tree.kind[sub] = N_SLICE
    return i + 1, OPERAND


@nrt_free
def _subscript_end(toks, i, tree, st, err, sub):
    """`]` ends subscript `sub` (on top of the operator stack): an operand."""
    tree.val[sub] = 0
    st[S_NOPS] -= 1
    return _complete(toks, i, st, err, sub)


@nrt_free
def _lambda(toks, i, tree, st, err):
    """`lambda a, b:` at token i: a LAMBDA node, its parameters as NAMEs (its body follows)."""
    node = new_node(tree, st, N_LAMBDA, 0, i, 0)
    if node < 0:
        return _too_large(err, toks, i)
    last = -1
    j = i + 1
    while not is_op(toks, j, T.OP_COLON):
        if toks.kind[j] != TK_NAME:
            return _fail(err, toks, j, j, E_UNSUPPORTED, errors.C_STARARGS if is_op(toks, j, T.OP_STAR)
                         or is_op(toks, j, T.OP_DSTAR) else errors.C_DEFAULTS)  # fmt: skip
        p = new_node(tree, st, N_NAME, 0, j, 0)
        if p < 0:
            return _too_large(err, toks, j)
        if last < 0:
            tree.first[node] = p
        else:
            tree.next[last] = p
        last = p
        j += 1
        if is_op(toks, j, T.OP_COMMA):
            j += 1
        elif is_op(toks, j, T.OP_ASSIGN):
            return _fail(err, toks, j, j, E_UNSUPPORTED, errors.C_DEFAULTS)
        elif not is_op(toks, j, T.OP_COLON):
            return _fail(err, toks, j, j, E_SYNTAX, 0)
    if not push_op(st, X_LAMBDA, i, node, last):
        return _too_deep(err, toks, i)
    return j + 1, OPERAND
