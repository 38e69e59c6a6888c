"""Building blocks of the desugaring pass (compiler/desugar.py): new nodes and the names only
the compiler can write.  Kernel bodies (numba subset): nothing allocates, raises or recurses.

A hidden name (a loop counter, a list evaluated once) is a synthetic NAME token past the
lexer's: its span src[j:e] (e the end of the construct's token, j a small variant) holds a
line break or a space, so no name in the source equals it, and no other construct's does
(each construct ends at its own byte).  A call of a builtin the source does not spell (`len`
in `enumerate(xs)`'s loop) is a synthetic token over the construct's own name whose sub is
the builtin's BUILTINS index (a lexed name's sub is -1): scope.call_builtin reads it.
"""

from __future__ import annotations

from gpucc.compiler.limits import MAX_NESTING
from gpucc.compiler.nodes import N_CALL, N_COMP_FOR, N_INT, N_KWARG, N_LAMBDA, N_LIST, N_NAME, N_SUBSCRIPT
from gpucc.compiler.errors import E_PROGRAM_TOO_LARGE
from gpucc.compiler.parser_util import S_COUNT, S_NTOK, S_VALS, fail_tok, new_node
from gpucc.compiler.scope import same_name
from gpucc.compiler.tokens import TK_NAME
from gpucc.contract.jitable import nrt_free

WALK_DEPTH = MAX_NESTING  # pending siblings a preorder walk keeps (the operand stack's size at least)
# what a rewrite may take at most: nodes and synthetic tokens (checked before it starts)
NODES_PER_REWRITE = 64
TOKENS_PER_REWRITE = 24


@nrt_free
def room(tree, toks, st):
    """Whether one more rewrite fits in the node and token arrays."""
    nodes_fit = st[S_COUNT] + NODES_PER_REWRITE <= tree.kind.shape[0]
    return nodes_fit and st[S_NTOK] + TOKENS_PER_REWRITE <= toks.kind.shape[0]


@nrt_free
def no_room(toks, tree, n, err):
    """The rewrite at node n does not fit: -1 with err set."""
    return fail_tok(err, toks, tree.tok[n], tree.tok[n], E_PROGRAM_TOO_LARGE, 0)


@nrt_free
def token(toks, st, start, end, line, sub):
    """A synthetic NAME token (room() was checked)."""
    t = st[S_NTOK]
    toks.kind[t] = TK_NAME
    toks.sub[t] = sub
    toks.start[t] = start
    toks.end[t] = end
    toks.line[t] = line
    toks.val[t] = 0
    st[S_NTOK] = t + 1
    return t


@nrt_free
def hidden(toks, st, origin, j):
    """The token of hidden name j of the construct at token origin: the source's bytes j ..
    origin's end, a text no identifier has while it holds a space or a newline (j 0 .. 7 for the
    desugarings of any statement; up to 11 for itertools and the folds, which follow an import
    line, so the text always holds its newline)."""
    return token(toks, st, j, toks.end[origin], toks.line[origin], -1)


@nrt_free
def node(tree, st, kind, op, tok, val):
    return new_node(tree, st, kind, op, tok, val)


@nrt_free
def kids(tree, p, a, b, c):
    """Node p's children: a, b, c (-1: fewer); returns p."""
    tree.first[p] = a
    if a >= 0:
        tree.next[a] = b
    if b >= 0:
        tree.next[b] = c
    if c >= 0:
        tree.next[c] = -1
    return p


@nrt_free
def chain(tree, a, b):
    """Statement or clause b follows a; returns b."""
    tree.next[a] = b
    return b


@nrt_free
def name(tree, st, t):
    return node(tree, st, N_NAME, 0, t, 0)


@nrt_free
def int_lit(tree, st, t, v):
    return node(tree, st, N_INT, 0, t, v)


@nrt_free
def builtin_call(tree, toks, st, b, origin, a, c):
    """A call of builtin b (BUILTINS index) with arguments a[, c], located at token origin."""
    t = token(toks, st, toks.start[origin], toks.end[origin], toks.line[origin], b)
    return kids(tree, node(tree, st, N_CALL, 0, t, 0), a, c, -1)


@nrt_free
def subscript(tree, st, t, obj, index):
    return kids(tree, node(tree, st, N_SUBSCRIPT, 0, t, 0), obj, index, -1)


@nrt_free
def bind_clause(tree, st, t, value):
    """`for <token t> in [value]`: a clause that binds a name to one value."""
    one = kids(tree, node(tree, st, N_LIST, 0, tree.tok[value], 0), value, -1, -1)
    return kids(tree, node(tree, st, N_COMP_FOR, 0, t, 0), one, -1, -1)


@nrt_free
def clause(tree, st, t, iterable):
    """`for <token t> in iterable`."""
    return kids(tree, node(tree, st, N_COMP_FOR, 0, t, 0), iterable, -1, -1)


@nrt_free
def preorder_next(tree, st, base, root, x, sp):
    """The node after x in a preorder walk of root's subtree (-1 at its end) and the walk's
    stack size (its stack: st[base ...]); sp -1 when the stack is full."""
    if tree.first[x] != -1:
        if x != root and tree.next[x] != -1:
            if sp >= WALK_DEPTH:
                return -1, -1
            st[base + sp] = tree.next[x]
            sp += 1
        return tree.first[x], sp
    if x != root and tree.next[x] != -1:
        return tree.next[x], sp
    if sp > 0:
        return st[base + sp - 1], sp - 1
    return -1, sp


@nrt_free
def rename(src, toks, tree, st, root, old, new):
    """Every NAME spelled as token old in the subtree at root takes token new (a lambda's
    parameter made a hidden name).  False where a comprehension or lambda inside binds that
    name again (or the subtree is nested deeper than WALK_DEPTH)."""
    s, e = toks.start[old], toks.end[old]
    x, sp = root, 0  # the walk's stack: the parser's operand stack
    while x != -1:
        k = tree.kind[x]
        same = same_name(src, toks.start[tree.tok[x]], toks.end[tree.tok[x]], s, e)
        if k == N_NAME and same:
            tree.tok[x] = new
        elif (k == N_COMP_FOR and (same or tree.val[x] > 0)) or k == N_LAMBDA:
            return False
        x, sp = preorder_next(tree, st, S_VALS, root, x, sp)
        if sp < 0:
            return False
    return True


@nrt_free
def has_kwargs(tree, n):
    """Whether node n has a KWARG child."""
    c = tree.first[n]
    while c != -1:
        if tree.kind[c] == N_KWARG:
            return True
        c = tree.next[c]
    return False


@nrt_free
def keyword_named(src, toks, tree, c, word):
    """Whether KWARG c is named `word` (a bytes array)."""
    s, e = toks.start[tree.tok[c]], toks.end[tree.tok[c]]
    if e - s != word.shape[0]:
        return False
    for i in range(e - s):
        if src[s + i] != word[i]:
            return False
    return True


@nrt_free
def become(tree, n, kind, op, a, b):
    """Node n (kept where its parent links it) becomes kind / op with children a, b."""
    tree.kind[n] = kind
    tree.op[n] = op
    kids(tree, n, a, b, -1)
