"""The expression parser's operator-precedence machinery (shunting-yard), used by
compiler.parser_expr: the operator and operand stacks, and the reductions that turn stacked
operators into AST nodes.

Both stacks live in the parser's int32 scratch array (compiler.parser_util: an operator entry's
columns are O_CODE, O_TOKEN, O_NODE, O_LAST; an operand is a node index at S_VALS).  The codes,
their precedence and the nodes they become are compiler.parser_tables'.  `reduce_above` applies
every stacked operator that binds at least as tightly as a new one, `close` reduces down to the
innermost bracket.  A comparison chain becomes ONE COMPARE node (compare_link): its first
operand, then one CMP_LINK per operator (the link's child is the right operand).  Calls, list
literals and subscripts link their items as they complete (add_arg, slice_part).

Kernel bodies (numba subset): nothing allocates, raises or recurses.
"""

from __future__ import annotations

from gpucc.compiler.nodes import N_CMP_LINK, N_COMPARE, N_IFEXP, N_UNARY
from gpucc.compiler.parser_tables import (
    NODE_KIND,
    NODE_OP,
    P_CMP,
    P_OR,
    PRECEDENCE,
    X_BRACE,
    X_CALL,
    X_CMP,
    X_COMP,
    X_IFC,
    X_IFE,
    X_KWARG,
    X_LAMBDA,
    X_LIST,
    X_PAREN,
    X_SUB,
    X_TUPLE,
)  # fmt: skip
from gpucc.compiler.parser_util import (
    MAX_NESTING,
    O_CODE,
    O_LAST,
    O_NODE,
    O_TOKEN,
    O_WIDTH,
    S_NOPS,
    S_NVALS,
    S_OPS,
    S_VALS,
    new_node,
)  # fmt: skip
from gpucc.contract.jitable import nrt_free


@nrt_free
def top_entry(st):
    """Offset in st of the operator stack's top entry (its columns: O_*)."""
    return S_OPS + O_WIDTH * (st[S_NOPS] - 1)


@nrt_free
def top_op(st):
    """Code of the operator on top of the stack, or -1 when empty."""
    return st[top_entry(st) + O_CODE] if st[S_NOPS] > 0 else -1


@nrt_free
def _is_bracket(code):
    return (code == X_PAREN or code == X_CALL or code == X_LIST or code == X_SUB or code == X_TUPLE
            or code == X_COMP or code == X_BRACE)


@nrt_free
def ifc_open(st):
    """Whether a conditional expression waits for its `else` inside the innermost bracket."""
    for d in range(st[S_NOPS] - 1, -1, -1):
        code = st[S_OPS + O_WIDTH * d + O_CODE]
        if _is_bracket(code):
            return False
        if code == X_IFC:
            return True
    return False


@nrt_free
def innermost_marker(st):
    """Code of the innermost open bracket, or -1."""
    for d in range(st[S_NOPS] - 1, -1, -1):
        code = st[S_OPS + O_WIDTH * d + O_CODE]
        if _is_bracket(code):
            return code
    return -1


@nrt_free
def push_op(st, code, t, node, last):
    """Push operator `code` of token t (node, last: its O_NODE, O_LAST); False when full."""
    d = st[S_NOPS]
    if d >= MAX_NESTING:
        return False
    o = S_OPS + O_WIDTH * d
    st[o + O_CODE] = code
    st[o + O_TOKEN] = t
    st[o + O_NODE] = node
    st[o + O_LAST] = last
    st[S_NOPS] = d + 1
    return True


@nrt_free
def push_val(st, node):
    d = st[S_NVALS]
    if d >= MAX_NESTING + 2:
        return False
    st[S_VALS + d] = node
    st[S_NVALS] = d + 1
    return True


@nrt_free
def pop_val(st):
    st[S_NVALS] -= 1
    return st[S_VALS + st[S_NVALS]]


@nrt_free
def _reduce_compare(tree, st, node, last, right):
    """A comparison chain ends: its last link takes the right operand."""
    tree.first[last] = right
    return push_val(st, node)


@nrt_free
def _reduce_conditional(tree, st, t, orelse):
    """`body if cond else orelse`: the operands below are cond and body."""
    first, next_ = tree.first, tree.next
    cond = pop_val(st)
    body = pop_val(st)
    node = new_node(tree, st, N_IFEXP, 0, t, 0)
    if node < 0:
        return False
    first[node] = body
    next_[body] = cond
    next_[cond] = orelse
    return push_val(st, node)


@nrt_free
def _reduce_operator(tree, st, code, t, right):
    """A unary, boolean or binary operator becomes its node (parser_tables.NODE_KIND, NODE_OP)."""
    first, next_ = tree.first, tree.next
    kind = NODE_KIND[code]
    if kind == N_UNARY:
        node = new_node(tree, st, kind, NODE_OP[code], t, 0)
        if node < 0:
            return False
        first[node] = right
        return push_val(st, node)
    left = pop_val(st)
    node = new_node(tree, st, kind, NODE_OP[code], t, 0)
    if node < 0:
        return False
    first[node] = left
    next_[left] = right
    return push_val(st, node)


@nrt_free
def _reduce_top(tree, st):
    """Apply the (non-bracket) operator on top of the stack to the operands; False when out of
    nodes."""
    o = top_entry(st)
    code = st[o + O_CODE]
    st[S_NOPS] -= 1
    x = pop_val(st)
    if code == X_CMP:
        return _reduce_compare(tree, st, st[o + O_NODE], st[o + O_LAST], x)
    if code == X_IFE:
        return _reduce_conditional(tree, st, st[o + O_TOKEN], x)
    if code == X_KWARG or code == X_LAMBDA:  # the value or body: the node's last child
        if st[o + O_LAST] < 0:
            tree.first[st[o + O_NODE]] = x
        else:
            tree.next[st[o + O_LAST]] = x
        return push_val(st, st[o + O_NODE])
    return _reduce_operator(tree, st, code, st[o + O_TOKEN], x)


@nrt_free
def reduce_above(tree, st, p):
    """Reduce while the top operator binds at least as tightly as precedence p."""
    while st[S_NOPS] > 0 and PRECEDENCE[top_op(st)] >= p:
        if not _reduce_top(tree, st):
            return False
    return True


@nrt_free
def slice_part(tree, st):
    """At `:` or `]` inside the subscript on top of the stack: link the part just completed
    (start, stop or step: the node's val counts the colons before it).  False for a fourth."""
    op, next_, val = tree.op, tree.next, tree.val
    o = top_entry(st)
    node = st[o + O_NODE]
    k = val[node]
    if k > 2:
        return False
    x = pop_val(st)
    next_[st[o + O_LAST]] = x
    st[o + O_LAST] = x
    op[node] |= 1 << k
    return True


@nrt_free
def compare_link(tree, st, c, i):
    """Comparison operator c at token i: start a COMPARE or extend the chain on top."""
    if not reduce_above(tree, st, P_CMP + 1):
        return False
    first, next_ = tree.first, tree.next
    link = new_node(tree, st, N_CMP_LINK, c, i, 0)
    if link < 0:
        return False
    x = pop_val(st)
    if top_op(st) == X_CMP:  # extend the chain
        o = top_entry(st)
        first[st[o + O_LAST]] = x
        next_[st[o + O_LAST]] = link
        st[o + O_LAST] = link
        return True
    cmp = new_node(tree, st, N_COMPARE, 0, i, 0)
    if cmp < 0:
        return False
    first[cmp] = x
    next_[x] = link
    return push_op(st, X_CMP, i, cmp, link)


@nrt_free
def close(tree, st):
    """Reduce every operator down to the innermost bracket, completed conditional
    expressions, keyword arguments and lambdas included (at `)`, `,` and the end)."""
    while True:
        if not reduce_above(tree, st, P_OR):
            return False
        if top_op(st) != X_IFE and top_op(st) != X_KWARG and top_op(st) != X_LAMBDA:
            return True
        if not _reduce_top(tree, st):
            return False


@nrt_free
def add_arg(tree, st):
    """Link the completed operand as the next item of the bracket on top of the stack (a
    call's argument, a list's or tuple's element, a subscript's index)."""
    o = top_entry(st)
    x = pop_val(st)
    if st[o + O_LAST] < 0:
        tree.first[st[o + O_NODE]] = x
    else:
        tree.next[st[o + O_LAST]] = x
    st[o + O_LAST] = x
