"""The expression parser's operator-precedence machinery (shunting-yard), used by
compiler.parser_expr.parse_expr: operator codes and their precedence, the operator and
operand stacks, and the reductions that turn stacked operators into AST nodes.

Both stacks live in the parser's int32 scratch array (layout in compiler.parser_util): an
operator entry is 4 ints (code, token, a, b) at S_OPS, an operand is a node index at S_VALS.
`prec` gives each code's binding strength (Python's precedence, see compiler.parser_expr);
`reduce_above` applies every stacked operator that binds at least as tightly as a new one,
`close` reduces down to the innermost bracket.  A comparison chain becomes ONE COMPARE node
(compare_link): its first operand, then one CMP_LINK per operator (the link's child is the
right operand).  Calls, list literals and subscripts link their items as they complete
(add_arg, slice_part).

Kernel bodies (numba subset): nothing allocates, raises or recurses.
"""

from __future__ import annotations

from numba.extending import register_jitable

from gpucc.compiler import nodes, tokens
from gpucc.compiler.nodes import N_BINARY, N_BOOLOP, N_CMP_LINK, N_COMPARE, N_IFEXP, N_UNARY
from gpucc.compiler.parser_util import MAX_NESTING, S_NOPS, S_NVALS, S_OPS, S_VALS, new_node
from gpucc.contract import isa

# operator-stack codes; a = node, b = last child for CALL (last argument) and CMP (last link)
# brackets (markers): X_PAREN, X_CALL (calls and methods), X_LIST (list literals), X_SUB
# (subscripts and slices: the node's val counts the colons so far)
X_PAREN, X_CALL, X_CMP, X_NOT, X_NEG, X_POS, X_AND, X_OR, X_IFC, X_IFE, X_INV, X_LIST, X_SUB, X_BIN = range(14)
P_CMP = 4
P_POW = 12

T = tokens


@register_jitable
def bin_code(s):
    if s == T.OP_PLUS:
        return nodes.BIN_ADD
    if s == T.OP_MINUS:
        return nodes.BIN_SUB
    if s == T.OP_STAR:
        return nodes.BIN_MUL
    if s == T.OP_DSLASH:
        return nodes.BIN_FLOORDIV
    if s == T.OP_PERCENT:
        return nodes.BIN_MOD
    if s == T.OP_SLASH:
        return nodes.BIN_DIV
    if s == T.OP_DSTAR:
        return nodes.BIN_POW
    if s == T.OP_AMP:
        return nodes.BIN_AND
    if s == T.OP_VBAR:
        return nodes.BIN_OR
    if s == T.OP_CARET:
        return nodes.BIN_XOR
    if s == T.OP_LSHIFT:
        return nodes.BIN_LSHIFT
    if s == T.OP_RSHIFT:
        return nodes.BIN_RSHIFT
    return -1


@register_jitable
def cmp_code(s):
    if s == T.OP_LT:
        return isa.CMP_LT
    if s == T.OP_LE:
        return isa.CMP_LE
    if s == T.OP_EQ:
        return isa.CMP_EQ
    if s == T.OP_NE:
        return isa.CMP_NE
    if s == T.OP_GT:
        return isa.CMP_GT
    if s == T.OP_GE:
        return isa.CMP_GE
    return -1


@register_jitable
def binop_unsupported(s):
    return s == T.OP_AT


@register_jitable
def prec(code):
    if code == X_OR:
        return 1
    if code == X_AND:
        return 2
    if code == X_NOT:
        return 3
    if code == X_CMP:
        return P_CMP
    if code == X_NEG or code == X_POS or code == X_INV:
        return 11
    b = code - X_BIN
    if b == nodes.BIN_OR:
        return 5
    if b == nodes.BIN_XOR:
        return 6
    if b == nodes.BIN_AND:
        return 7
    if b == nodes.BIN_LSHIFT or b == nodes.BIN_RSHIFT:
        return 8
    if b == nodes.BIN_ADD or b == nodes.BIN_SUB:
        return 9
    if b == nodes.BIN_POW:
        return P_POW
    if b >= 0:
        return 10
    return 0  # markers, X_IFC, X_IFE


@register_jitable
def top_op(st):
    """Code of the operator on top of the stack, or -1 when empty."""
    return st[S_OPS + 4 * (st[S_NOPS] - 1)] if st[S_NOPS] > 0 else -1


@register_jitable
def ifc_open(st):
    """Whether a conditional expression waits for its `else` inside the innermost bracket."""
    for d in range(st[S_NOPS] - 1, -1, -1):
        code = st[S_OPS + 4 * d]
        if _is_bracket(code):
            return False
        if code == X_IFC:
            return True
    return False


@register_jitable
def _is_bracket(code):
    return code == X_PAREN or code == X_CALL or code == X_LIST or code == X_SUB


@register_jitable
def innermost_marker(st):
    for d in range(st[S_NOPS] - 1, -1, -1):
        code = st[S_OPS + 4 * d]
        if _is_bracket(code):
            return code
    return -1


@register_jitable
def push_op(st, code, t, a, b):
    d = st[S_NOPS]
    if d >= MAX_NESTING:
        return False
    o = S_OPS + 4 * d
    st[o] = code
    st[o + 1] = t
    st[o + 2] = a
    st[o + 3] = b
    st[S_NOPS] = d + 1
    return True


@register_jitable
def push_val(st, node):
    d = st[S_NVALS]
    if d >= MAX_NESTING + 2:
        return False
    st[S_VALS + d] = node
    st[S_NVALS] = d + 1
    return True


@register_jitable
def pop_val(st):
    st[S_NVALS] -= 1
    return st[S_VALS + st[S_NVALS]]


@register_jitable
def _reduce_top(tree, st):
    """Apply the (non-marker) operator on top of the stack; False when out of nodes."""
    first, next_ = tree.first, tree.next
    o = S_OPS + 4 * (st[S_NOPS] - 1)
    code, t, a, b = st[o], st[o + 1], st[o + 2], st[o + 3]
    st[S_NOPS] -= 1
    x = pop_val(st)
    if code == X_CMP:
        first[b] = x
        return push_val(st, a)
    if code == X_IFE:  # vals: body, cond, orelse
        cond = pop_val(st)
        body = pop_val(st)
        node = new_node(tree, st, N_IFEXP, 0, t, 0)
        if node < 0:
            return False
        first[node] = body
        next_[body] = cond
        next_[cond] = x
        return push_val(st, node)
    if code == X_NOT or code == X_NEG or code == X_POS or code == X_INV:
        un = nodes.UN_NOT if code == X_NOT else (nodes.UN_NEG if code == X_NEG else nodes.UN_POS)
        if code == X_INV:
            un = nodes.UN_INVERT
        node = new_node(tree, st, N_UNARY, un, t, 0)
        if node < 0:
            return False
        first[node] = x
    else:
        left = pop_val(st)
        if code == X_AND or code == X_OR:
            sub = nodes.BOOL_AND if code == X_AND else nodes.BOOL_OR
            node = new_node(tree, st, N_BOOLOP, sub, t, 0)
        else:
            node = new_node(tree, st, N_BINARY, code - X_BIN, t, 0)
        if node < 0:
            return False
        first[node] = left
        next_[left] = x
    return push_val(st, node)


@register_jitable
def reduce_above(tree, st, p):
    """Reduce while the top operator binds at least as tightly as precedence p."""
    while st[S_NOPS] > 0 and prec(top_op(st)) >= p:
        if not _reduce_top(tree, st):
            return False
    return True


@register_jitable
def slice_part(tree, st):
    """At `:` or `]` inside the subscript on top of the stack: link the part just completed
    (start, stop or step: the node's val counts the colons before it).  False for a fourth."""
    op, next_, val = tree.op, tree.next, tree.val
    o = S_OPS + 4 * (st[S_NOPS] - 1)
    node = st[o + 2]
    k = val[node]
    if k > 2:
        return False
    x = pop_val(st)
    next_[st[o + 3]] = x
    st[o + 3] = x
    op[node] |= 1 << k
    return True


@register_jitable
def compare_link(tree, st, c, i):
    """Comparison operator c at token i: start a COMPARE or extend the chain on top."""
    if not reduce_above(tree, st, P_CMP + 1):
        return False
    first, next_ = tree.first, tree.next
    link = new_node(tree, st, N_CMP_LINK, c, i, 0)
    if link < 0:
        return False
    x = pop_val(st)
    o = S_OPS + 4 * (st[S_NOPS] - 1)
    if top_op(st) == X_CMP:  # extend the chain
        first[st[o + 3]] = x
        next_[st[o + 3]] = link
        st[o + 3] = link
        return True
    cmp = new_node(tree, st, N_COMPARE, 0, i, 0)
    if cmp < 0:
        return False
    first[cmp] = x
    next_[x] = link
    return push_op(st, X_CMP, i, cmp, link)


@register_jitable
def close(tree, st):
    """Reduce every operator down to the innermost bracket, completed conditional
    expressions included (at `)`, `,` and the end)."""
    while True:
        if not reduce_above(tree, st, 1):
            return False
        if top_op(st) != X_IFE:
            return True
        if not _reduce_top(tree, st):
            return False


@register_jitable
def add_arg(tree, st):
    """Link the completed operand as the next argument of the CALL on top of the stack."""
    o = S_OPS + 4 * (st[S_NOPS] - 1)
    x = pop_val(st)
    if st[o + 3] < 0:
        tree.first[st[o + 2]] = x
    else:
        tree.next[st[o + 3]] = x
    st[o + 3] = x
