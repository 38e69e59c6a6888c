"""Expression parsing for compiler.parser: tokens -> AST nodes, no recursion.

Shunting-yard with an explicit operator stack and operand stack (both in the parser's
int32 scratch array).  Python's precedence, lowest first:

    if-else < or < and < not < comparisons < | < ^ < & < << >> < + - < * / // % < unary - + ~
    < ** < call / atom

`**` groups to the right and binds tighter than a unary operator on its left (-2 ** 2 is
-4), looser than one on its right (2 ** -1).  `a if c else b` is an IFEXP node (body,
cond, orelse): X_IFC waits for `else`, X_IFE for the else-branch; both sit below every
operator, and the else-branch may itself be a conditional expression.

A comparison chain becomes ONE COMPARE node: its first operand, then one CMP_LINK per
operator (the link's child is the right operand).  Calls link their arguments as they
complete, so the operand stack holds at most one operand per pending binary operator.

Both stacks live in the scratch layout of compiler.parser_util.
"""

from __future__ import annotations

from numba.extending import register_jitable

from compiler import errors, nodes, tokens
from compiler.parser_util import (
    MAX_NESTING, S_NOPS, S_NVALS, S_OPS, S_VALS, fail_tok, is_kw, is_op, kw_unsupported, new_node,
)  # fmt: skip
from vm import opcodes

# operator-stack codes; a = node, b = last child for CALL (last argument) and CMP (last link)
# brackets (markers): X_PAREN, X_CALL (calls and methods), X_LIST (list literals), X_SUB
# (subscripts and slices: the node's val counts the colons so far)
X_PAREN, X_CALL, X_CMP, X_NOT, X_NEG, X_POS, X_AND, X_OR, X_IFC, X_IFE, X_INV, X_LIST, X_SUB, X_BIN = range(14)
P_CMP = 4
P_POW = 12

TK_END, TK_NEWLINE, TK_NAME, TK_INT = tokens.TK_END, tokens.TK_NEWLINE, tokens.TK_NAME, tokens.TK_INT
TK_FLOAT, TK_STRING, TK_KEYWORD, TK_OP = tokens.TK_FLOAT, tokens.TK_STRING, tokens.TK_KEYWORD, tokens.TK_OP
T = tokens
N_CALL, N_NAME, N_INT, N_BOOL, N_NONE = nodes.N_CALL, nodes.N_NAME, nodes.N_INT, nodes.N_BOOL, nodes.N_NONE
N_UNARY, N_BINARY, N_BOOLOP = nodes.N_UNARY, nodes.N_BINARY, nodes.N_BOOLOP
N_COMPARE, N_CMP_LINK = nodes.N_COMPARE, nodes.N_CMP_LINK
N_FLOAT, N_IFEXP, N_LIST, N_SUBSCRIPT = nodes.N_FLOAT, nodes.N_IFEXP, nodes.N_LIST, nodes.N_SUBSCRIPT
N_SLICE, N_METHOD = nodes.N_SLICE, nodes.N_METHOD
E_SYNTAX, E_EXPECTED_EXPR, E_EXPECTED_OP = errors.E_SYNTAX, errors.E_EXPECTED_EXPR, errors.E_EXPECTED_OP
E_UNSUPPORTED, E_UNSUPPORTED_KEYWORD = errors.E_UNSUPPORTED, errors.E_UNSUPPORTED_KEYWORD
E_UNSUPPORTED_OPERATOR, E_PROGRAM_TOO_LARGE = errors.E_UNSUPPORTED_OPERATOR, errors.E_PROGRAM_TOO_LARGE
E_NESTING_TOO_DEEP = errors.E_NESTING_TOO_DEEP


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
def _cmp_code(s):
    if s == T.OP_LT:
        return opcodes.CMP_LT
    if s == T.OP_LE:
        return opcodes.CMP_LE
    if s == T.OP_EQ:
        return opcodes.CMP_EQ
    if s == T.OP_NE:
        return opcodes.CMP_NE
    if s == T.OP_GT:
        return opcodes.CMP_GT
    if s == T.OP_GE:
        return opcodes.CMP_GE
    return -1


@register_jitable
def _binop_unsupported(s):
    return s == T.OP_AT


@register_jitable
def _prec(code):
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
def _top(st):
    """Code of the operator on top of the stack, or -1 when empty."""
    return st[S_OPS + 4 * (st[S_NOPS] - 1)] if st[S_NOPS] > 0 else -1


@register_jitable
def _ifc_open(st):
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
def _innermost_marker(st):
    for d in range(st[S_NOPS] - 1, -1, -1):
        code = st[S_OPS + 4 * d]
        if _is_bracket(code):
            return code
    return -1


@register_jitable
def _push_op(st, code, t, a, b):
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
def _push_val(st, node):
    d = st[S_NVALS]
    if d >= MAX_NESTING + 2:
        return False
    st[S_VALS + d] = node
    st[S_NVALS] = d + 1
    return True


@register_jitable
def _pop_val(st):
    st[S_NVALS] -= 1
    return st[S_VALS + st[S_NVALS]]


@register_jitable
def _reduce_top(kind, op, tok, first, next_, val, st):
    """Apply the (non-marker) operator on top of the stack; False when out of nodes."""
    o = S_OPS + 4 * (st[S_NOPS] - 1)
    code, t, a, b = st[o], st[o + 1], st[o + 2], st[o + 3]
    st[S_NOPS] -= 1
    x = _pop_val(st)
    if code == X_CMP:
        first[b] = x
        return _push_val(st, a)
    if code == X_IFE:  # vals: body, cond, orelse
        cond = _pop_val(st)
        body = _pop_val(st)
        node = new_node(kind, op, tok, first, next_, val, st, N_IFEXP, 0, t, 0)
        if node < 0:
            return False
        first[node] = body
        next_[body] = cond
        next_[cond] = x
        return _push_val(st, node)
    if code == X_NOT or code == X_NEG or code == X_POS or code == X_INV:
        un = nodes.UN_NOT if code == X_NOT else (nodes.UN_NEG if code == X_NEG else nodes.UN_POS)
        if code == X_INV:
            un = nodes.UN_INVERT
        node = new_node(kind, op, tok, first, next_, val, st, N_UNARY, un, t, 0)
        if node < 0:
            return False
        first[node] = x
    else:
        left = _pop_val(st)
        if code == X_AND or code == X_OR:
            sub = nodes.BOOL_AND if code == X_AND else nodes.BOOL_OR
            node = new_node(kind, op, tok, first, next_, val, st, N_BOOLOP, sub, t, 0)
        else:
            node = new_node(kind, op, tok, first, next_, val, st, N_BINARY, code - X_BIN, t, 0)
        if node < 0:
            return False
        first[node] = left
        next_[left] = x
    return _push_val(st, node)


@register_jitable
def _reduce_above(kind, op, tok, first, next_, val, st, p):
    """Reduce while the top operator binds at least as tightly as precedence p."""
    while st[S_NOPS] > 0 and _prec(_top(st)) >= p:
        if not _reduce_top(kind, op, tok, first, next_, val, st):
            return False
    return True


@register_jitable
def _slice_part(op, next_, val, st):
    """At `:` or `]` inside the subscript on top of the stack: link the part just completed
    (start, stop or step: the node's val counts the colons before it).  False for a fourth."""
    o = S_OPS + 4 * (st[S_NOPS] - 1)
    node = st[o + 2]
    k = val[node]
    if k > 2:
        return False
    x = _pop_val(st)
    next_[st[o + 3]] = x
    st[o + 3] = x
    op[node] |= 1 << k
    return True


@register_jitable
def _compare_link(kind, op, tok, first, next_, val, st, c, i):
    """Comparison operator c at token i: start a COMPARE or extend the chain on top."""
    if not _reduce_above(kind, op, tok, first, next_, val, st, P_CMP + 1):
        return False
    link = new_node(kind, op, tok, first, next_, val, st, N_CMP_LINK, c, i, 0)
    if link < 0:
        return False
    x = _pop_val(st)
    o = S_OPS + 4 * (st[S_NOPS] - 1)
    if _top(st) == X_CMP:  # extend the chain
        first[st[o + 3]] = x
        next_[st[o + 3]] = link
        st[o + 3] = link
        return True
    cmp = new_node(kind, op, tok, first, next_, val, st, N_COMPARE, 0, i, 0)
    if cmp < 0:
        return False
    first[cmp] = x
    next_[x] = link
    return _push_op(st, X_CMP, i, cmp, link)


@register_jitable
def _close(kind, op, tok, first, next_, val, st):
    """Reduce every operator down to the innermost bracket, completed conditional
    expressions included (at `)`, `,` and the end)."""
    while True:
        if not _reduce_above(kind, op, tok, first, next_, val, st, 1):
            return False
        if _top(st) != X_IFE:
            return True
        if not _reduce_top(kind, op, tok, first, next_, val, st):
            return False


@register_jitable
def _add_arg(first, next_, st):
    """Link the completed operand as the next argument of the CALL on top of the stack."""
    o = S_OPS + 4 * (st[S_NOPS] - 1)
    x = _pop_val(st)
    if st[o + 3] < 0:
        first[st[o + 2]] = x
    else:
        next_[st[o + 3]] = x
    st[o + 3] = x


@register_jitable
def parse_expr(tk, tsub, ts, te, tv, i, kind, op, tok, first, next_, val, st, err):
    """Parse one expression starting at token i.  Returns (node, next token index); node is -1
    on error (err filled).  Stops before the first token that cannot continue it."""
    st[S_NOPS] = 0
    st[S_NVALS] = 0
    expect_operand = True
    while True:
        k = tk[i]
        s = tsub[i]
        if expect_operand:
            node = -1
            if k == TK_NAME:
                if is_op(tk, tsub, i + 1, T.OP_LPAR):
                    node = new_node(kind, op, tok, first, next_, val, st, N_CALL, 0, i, 0)
                    if node < 0:
                        return fail_tok(err, ts, te, i, i, E_PROGRAM_TOO_LARGE, 0), i
                    if is_op(tk, tsub, i + 2, T.OP_RPAR):
                        i += 2
                    else:
                        if not _push_op(st, X_CALL, i, node, -1):
                            return fail_tok(err, ts, te, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
                        i += 2
                        continue
                else:
                    node = new_node(kind, op, tok, first, next_, val, st, N_NAME, 0, i, 0)
            elif k == TK_INT:
                node = new_node(kind, op, tok, first, next_, val, st, N_INT, 0, i, tv[i])
            elif k == TK_FLOAT:
                node = new_node(kind, op, tok, first, next_, val, st, N_FLOAT, 0, i, tv[i])
            elif k == TK_KEYWORD:
                if s == T.KW_TRUE or s == T.KW_FALSE:
                    node = new_node(kind, op, tok, first, next_, val, st, N_BOOL, 0, i, 1 if s == T.KW_TRUE else 0)
                elif s == T.KW_NONE:
                    node = new_node(kind, op, tok, first, next_, val, st, N_NONE, 0, i, 0)
                elif s == T.KW_NOT:
                    top = _top(st)
                    if not (top < 0 or _prec(top) == 0 or top == X_AND or top == X_OR or top == X_NOT):
                        return fail_tok(err, ts, te, i, i, E_SYNTAX, 0), i
                    if not _push_op(st, X_NOT, i, -1, -1):
                        return fail_tok(err, ts, te, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
                    i += 1
                    continue
                elif s == T.KW_LAMBDA:
                    return fail_tok(err, ts, te, i, i, E_UNSUPPORTED, errors.C_LAMBDA), i
                elif kw_unsupported(s):
                    return fail_tok(err, ts, te, i, i, E_UNSUPPORTED_KEYWORD, s), i
                else:
                    return fail_tok(err, ts, te, i, i, E_EXPECTED_EXPR, 0), i
            elif k == TK_OP:
                code = X_PAREN if s == T.OP_LPAR else (X_NEG if s == T.OP_MINUS else X_POS)
                if s == T.OP_TILDE:
                    code = X_INV
                if s == T.OP_LPAR or s == T.OP_MINUS or s == T.OP_PLUS or s == T.OP_TILDE:
                    if s == T.OP_LPAR and is_op(tk, tsub, i + 1, T.OP_RPAR):
                        return fail_tok(err, ts, te, i, i + 1, E_UNSUPPORTED, errors.C_TUPLES), i
                    if not _push_op(st, code, i, -1, -1):
                        return fail_tok(err, ts, te, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
                    i += 1
                    continue
                top = _top(st)
                if (s == T.OP_RPAR and top == X_CALL or s == T.OP_RSQB and top == X_LIST) and is_op(
                        tk, tsub, i - 1, T.OP_COMMA):  # fmt: skip
                    st[S_NOPS] -= 1  # f(a, b,) / [a, b,]: the items are already linked
                    node = st[S_OPS + 4 * st[S_NOPS] + 2]
                elif (s == T.OP_COLON or s == T.OP_RSQB) and top == X_SUB:  # an absent slice part
                    o = S_OPS + 4 * (st[S_NOPS] - 1)
                    sub = st[o + 2]
                    if s == T.OP_RSQB and val[sub] == 0:  # xs[]
                        return fail_tok(err, ts, te, i, i, E_EXPECTED_EXPR, 0), i
                    if s == T.OP_COLON:
                        if val[sub] >= 2:
                            return fail_tok(err, ts, te, i, i, E_SYNTAX, 0), i
                        val[sub] += 1
                        kind[sub] = N_SLICE
                        i += 1
                        continue
                    val[sub] = 0
                    st[S_NOPS] -= 1
                    node = sub
                elif s == T.OP_LSQB:
                    node = new_node(kind, op, tok, first, next_, val, st, N_LIST, 0, i, 0)
                    if node < 0:
                        return fail_tok(err, ts, te, i, i, E_PROGRAM_TOO_LARGE, 0), i
                    if not is_op(tk, tsub, i + 1, T.OP_RSQB):
                        if not _push_op(st, X_LIST, i, node, -1):
                            return fail_tok(err, ts, te, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
                        i += 1
                        continue
                    i += 1  # [] (the node is complete)
                elif s == T.OP_LBRACE:
                    return fail_tok(err, ts, te, i, i, E_UNSUPPORTED, errors.C_DICT_SET), i
                elif s == T.OP_STAR or s == T.OP_DSTAR:
                    return fail_tok(err, ts, te, i, i, E_UNSUPPORTED, errors.C_STARARGS), i
                elif s == T.OP_ELLIPSIS:
                    return fail_tok(err, ts, te, i, i, E_UNSUPPORTED_OPERATOR, s), i
                else:
                    return fail_tok(err, ts, te, i, i, E_EXPECTED_EXPR, 0), i
            elif k == TK_STRING:
                return fail_tok(err, ts, te, i, i, E_UNSUPPORTED, errors.C_STRING), i
            else:
                return fail_tok(err, ts, te, i, i, E_EXPECTED_EXPR, 0), i
            if node < 0:
                return fail_tok(err, ts, te, i, i, E_PROGRAM_TOO_LARGE, 0), i
            if not _push_val(st, node):
                return fail_tok(err, ts, te, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
            i += 1
            expect_operand = False
            continue
        # an operand is complete: an operator, a closing bracket or the end follows
        ok = True
        if k == TK_OP:
            b = bin_code(s)
            c = _cmp_code(s)
            if b >= 0:
                p = _prec(X_BIN + b)
                ok = _reduce_above(kind, op, tok, first, next_, val, st, p + 1 if p == P_POW else p)
                if ok and not _push_op(st, X_BIN + b, i, -1, -1):
                    return fail_tok(err, ts, te, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
            elif c >= 0:
                if not _compare_link(kind, op, tok, first, next_, val, st, c, i):
                    return fail_tok(err, ts, te, i, i, E_PROGRAM_TOO_LARGE, 0), i
            elif s == T.OP_RPAR or s == T.OP_COMMA or s == T.OP_RSQB or (s == T.OP_COLON and _innermost_marker(st) == X_SUB):
                if not _close(kind, op, tok, first, next_, val, st):
                    return fail_tok(err, ts, te, i, i, E_PROGRAM_TOO_LARGE, 0), i
                top = _top(st)
                if top == X_IFC:
                    return fail_tok(err, ts, te, i, i, errors.E_EXPECTED_ELSE, 0), i
                if top < 0:
                    break  # not ours: the statement parser decides
                closes = X_PAREN if s == T.OP_RPAR else (X_LIST if s == T.OP_RSQB else -1)
                if closes == X_PAREN and top != X_PAREN and top != X_CALL or closes == X_LIST and top != X_LIST and top != X_SUB:
                    return fail_tok(err, ts, te, i, i, E_SYNTAX, 0), i  # ( ... ] or [ ... )
                if top == X_PAREN:
                    if s == T.OP_COMMA:
                        return fail_tok(err, ts, te, i, i, E_UNSUPPORTED, errors.C_TUPLES), i
                    st[S_NOPS] -= 1
                    i += 1
                    continue
                if top == X_SUB:
                    if s == T.OP_COMMA:
                        return fail_tok(err, ts, te, i, i, E_UNSUPPORTED, errors.C_TUPLES), i
                    sub = st[S_OPS + 4 * (st[S_NOPS] - 1) + 2]
                    if kind[sub] == N_SUBSCRIPT and s == T.OP_RSQB:  # xs[i]
                        _add_arg(first, next_, st)
                    elif not _slice_part(op, next_, val, st):
                        return fail_tok(err, ts, te, i, i, E_SYNTAX, 0), i
                    if s == T.OP_COLON:
                        if kind[sub] == N_SUBSCRIPT:  # the index just linked is a start
                            kind[sub] = N_SLICE
                            op[sub] = 1
                        if val[sub] >= 2:
                            return fail_tok(err, ts, te, i, i, E_SYNTAX, 0), i
                        val[sub] += 1
                        i += 1
                        expect_operand = True
                        continue
                    val[sub] = 0
                    st[S_NOPS] -= 1
                    _push_val(st, sub)
                    i += 1
                    continue
                _add_arg(first, next_, st)  # X_CALL, X_LIST
                if s != T.OP_COMMA:
                    st[S_NOPS] -= 1
                    _push_val(st, st[S_OPS + 4 * st[S_NOPS] + 2])
                    i += 1
                    continue
            elif s == T.OP_ASSIGN:
                marker = _innermost_marker(st)
                if marker == X_CALL:
                    return fail_tok(err, ts, te, i - 1, i, E_UNSUPPORTED, errors.C_KWARGS), i
                if marker == X_PAREN:
                    return fail_tok(err, ts, te, i, i, E_SYNTAX, 0), i
                break
            elif s == T.OP_WALRUS:
                return fail_tok(err, ts, te, i, i, E_UNSUPPORTED, errors.C_WALRUS), i
            elif s == T.OP_DOT:  # obj.name(args): a METHOD node, its args linked after obj
                if tk[i + 1] != TK_NAME or not is_op(tk, tsub, i + 2, T.OP_LPAR):
                    return fail_tok(err, ts, te, i, i + 1, E_UNSUPPORTED, errors.C_ATTRIBUTES), i
                obj = _pop_val(st)
                node = new_node(kind, op, tok, first, next_, val, st, N_METHOD, 0, i + 1, 0)
                if node < 0:
                    return fail_tok(err, ts, te, i, i, E_PROGRAM_TOO_LARGE, 0), i
                first[node] = obj
                if is_op(tk, tsub, i + 3, T.OP_RPAR):
                    _push_val(st, node)
                    i += 4
                    continue
                if not _push_op(st, X_CALL, i + 1, node, obj):
                    return fail_tok(err, ts, te, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
                i += 3
                expect_operand = True
                continue
            elif s == T.OP_LSQB:  # obj[...]: a SUBSCRIPT (a SLICE once a colon shows)
                obj = _pop_val(st)
                node = new_node(kind, op, tok, first, next_, val, st, N_SUBSCRIPT, 0, i, 0)
                if node < 0:
                    return fail_tok(err, ts, te, i, i, E_PROGRAM_TOO_LARGE, 0), i
                first[node] = obj
                if not _push_op(st, X_SUB, i, node, obj):
                    return fail_tok(err, ts, te, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
            elif s == T.OP_LPAR:
                return fail_tok(err, ts, te, i, i, E_UNSUPPORTED, errors.C_CALL_TARGET), i
            elif _binop_unsupported(s):
                return fail_tok(err, ts, te, i, i, E_UNSUPPORTED_OPERATOR, s), i
            else:
                break
        elif k == TK_KEYWORD:
            if s == T.KW_AND or s == T.KW_OR:
                code = X_AND if s == T.KW_AND else X_OR
                ok = _reduce_above(kind, op, tok, first, next_, val, st, _prec(code))
                if ok and not _push_op(st, code, i, -1, -1):
                    return fail_tok(err, ts, te, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
            elif s == T.KW_IF:  # body if cond else orelse
                ok = _reduce_above(kind, op, tok, first, next_, val, st, 1)
                if ok and not _push_op(st, X_IFC, i, -1, -1):
                    return fail_tok(err, ts, te, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
            elif s == T.KW_ELSE and _ifc_open(st):
                ok = _reduce_above(kind, op, tok, first, next_, val, st, 1)
                if _top(st) != X_IFC:
                    return fail_tok(err, ts, te, i, i, E_SYNTAX, 0), i
                st[S_OPS + 4 * (st[S_NOPS] - 1)] = X_IFE
            elif s == T.KW_FOR and _innermost_marker(st) >= 0:
                return fail_tok(err, ts, te, i, i, E_UNSUPPORTED, errors.C_COMPREHENSION), i
            elif s == T.KW_IN or (s == T.KW_NOT and is_kw(tk, tsub, i + 1, T.KW_IN)):
                c = nodes.CMP_IN if s == T.KW_IN else nodes.CMP_NOT_IN
                if not _compare_link(kind, op, tok, first, next_, val, st, c, i):
                    return fail_tok(err, ts, te, i, i, E_PROGRAM_TOO_LARGE, 0), i
                if c == nodes.CMP_NOT_IN:
                    i += 1
            elif s == T.KW_IS:
                return fail_tok(err, ts, te, i, i, E_UNSUPPORTED_KEYWORD, s), i
            elif s == T.KW_NOT:
                return fail_tok(err, ts, te, i, i, E_SYNTAX, 0), i
            else:
                break
        else:
            break
        if not ok:
            return fail_tok(err, ts, te, i, i, E_PROGRAM_TOO_LARGE, 0), i
        i += 1
        expect_operand = True
    # end of the expression: every bracket must be closed
    if not _close(kind, op, tok, first, next_, val, st):
        return fail_tok(err, ts, te, i, i, E_PROGRAM_TOO_LARGE, 0), i
    if _top(st) == X_IFC:
        return fail_tok(err, ts, te, i, i, errors.E_EXPECTED_ELSE, 0), i
    if st[S_NOPS] > 0:
        if tk[i] == TK_NEWLINE or tk[i] == TK_END:  # never closed (end of file): point at it
            o = S_OPS + 4 * (st[S_NOPS] - 1)
            j = st[o + 1] + (1 if st[o] == X_CALL else 0)
            return fail_tok(err, ts, te, j, j, E_EXPECTED_OP, T.OP_RPAR), i
        return fail_tok(err, ts, te, i, i, E_EXPECTED_OP, T.OP_RPAR), i
    if st[S_NVALS] != 1:
        return fail_tok(err, ts, te, i, i, E_SYNTAX, 0), i
    return st[S_VALS], i
