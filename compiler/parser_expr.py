"""Expression parsing for compiler.parser: tokens -> AST nodes, no recursion.

Shunting-yard with an explicit operator stack and operand stack, both in the parser's
int32 scratch array (the layout of compiler.parser_util); the operator codes, their
precedence, the stacks and the reductions are compiler.parser_opstack's.  Python's
precedence, lowest first:

    if-else < or < and < not < comparisons < | < ^ < & < << >> < + - < * / // % < unary - + ~
    < ** < call / atom

`**` groups to the right and binds tighter than a unary operator on its left (-2 ** 2 is
-4), looser than one on its right (2 ** -1).  `a if c else b` is an IFEXP node (body,
cond, orelse): X_IFC waits for `else`, X_IFE for the else-branch; both sit below every
operator, and the else-branch may itself be a conditional expression.

A comparison chain becomes ONE COMPARE node: its first operand, then one CMP_LINK per
operator (the link's child is the right operand).  Calls link their arguments as they
complete, so the operand stack holds at most one operand per pending binary operator.
"""

from __future__ import annotations

from numba.extending import register_jitable

from gpucc.compiler import errors, nodes, tokens
from gpucc.compiler.errors import (
    E_EXPECTED_EXPR,
    E_EXPECTED_OP,
    E_NESTING_TOO_DEEP,
    E_PROGRAM_TOO_LARGE,
    E_SYNTAX,
    E_UNSUPPORTED,
    E_UNSUPPORTED_KEYWORD,
    E_UNSUPPORTED_OPERATOR,
)
from gpucc.compiler.nodes import N_BOOL, N_CALL, N_FLOAT, N_INT, N_LIST, N_METHOD, N_NAME, N_NONE, N_SLICE, N_SUBSCRIPT
from gpucc.compiler.parser_opstack import (
    P_POW,
    X_AND,
    X_BIN,
    X_CALL,
    X_IFC,
    X_IFE,
    X_INV,
    X_LIST,
    X_NEG,
    X_NOT,
    X_OR,
    X_PAREN,
    X_POS,
    X_SUB,
    add_arg,
    bin_code,
    binop_unsupported,
    close,
    cmp_code,
    compare_link,
    ifc_open,
    innermost_marker,
    pop_val,
    prec,
    push_op,
    push_val,
    reduce_above,
    slice_part,
    top_op,
)  # fmt: skip
from gpucc.compiler.parser_util import (
    MAX_NESTING,
    S_NOPS,
    S_NVALS,
    S_OPS,
    S_VALS,
    fail_tok,
    is_kw,
    is_op,
    kw_unsupported,
    new_node,
)  # fmt: skip
from gpucc.compiler.tokens import TK_END, TK_FLOAT, TK_INT, TK_KEYWORD, TK_NAME, TK_NEWLINE, TK_OP, TK_STRING

T = tokens


@register_jitable
def parse_expr(toks, i, tree, st, err):
    """Parse one expression starting at token i.  Returns (node, next token index); node is -1
    on error (err filled).  Stops before the first token that cannot continue it."""
    tk, tsub, tv = toks.kind, toks.sub, toks.val
    kind, op, first, val = tree.kind, tree.op, tree.first, tree.val
    st[S_NOPS] = 0
    st[S_NVALS] = 0
    expect_operand = True
    while True:
        k = tk[i]
        s = tsub[i]
        if expect_operand:
            node = -1
            if k == TK_NAME:
                if is_op(toks, i + 1, T.OP_LPAR):
                    node = new_node(tree, st, N_CALL, 0, i, 0)
                    if node < 0:
                        return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0), i
                    if is_op(toks, i + 2, T.OP_RPAR):
                        i += 2
                    else:
                        if not push_op(st, X_CALL, i, node, -1):
                            return fail_tok(err, toks, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
                        i += 2
                        continue
                else:
                    node = new_node(tree, st, N_NAME, 0, i, 0)
            elif k == TK_INT:
                node = new_node(tree, st, N_INT, 0, i, tv[i])
            elif k == TK_FLOAT:
                node = new_node(tree, st, N_FLOAT, 0, i, tv[i])
            elif k == TK_KEYWORD:
                if s == T.KW_TRUE or s == T.KW_FALSE:
                    node = new_node(tree, st, N_BOOL, 0, i, 1 if s == T.KW_TRUE else 0)
                elif s == T.KW_NONE:
                    node = new_node(tree, st, N_NONE, 0, i, 0)
                elif s == T.KW_NOT:
                    top = top_op(st)
                    if not (top < 0 or prec(top) == 0 or top == X_AND or top == X_OR or top == X_NOT):
                        return fail_tok(err, toks, i, i, E_SYNTAX, 0), i
                    if not push_op(st, X_NOT, i, -1, -1):
                        return fail_tok(err, toks, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
                    i += 1
                    continue
                elif s == T.KW_LAMBDA:
                    return fail_tok(err, toks, i, i, E_UNSUPPORTED, errors.C_LAMBDA), i
                elif kw_unsupported(s):
                    return fail_tok(err, toks, i, i, E_UNSUPPORTED_KEYWORD, s), i
                else:
                    return fail_tok(err, toks, i, i, E_EXPECTED_EXPR, 0), i
            elif k == TK_OP:
                code = X_PAREN if s == T.OP_LPAR else (X_NEG if s == T.OP_MINUS else X_POS)
                if s == T.OP_TILDE:
                    code = X_INV
                if s == T.OP_LPAR or s == T.OP_MINUS or s == T.OP_PLUS or s == T.OP_TILDE:
                    if s == T.OP_LPAR and is_op(toks, i + 1, T.OP_RPAR):
                        return fail_tok(err, toks, i, i + 1, E_UNSUPPORTED, errors.C_TUPLES), i
                    if not push_op(st, code, i, -1, -1):
                        return fail_tok(err, toks, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
                    i += 1
                    continue
                top = top_op(st)
                closes_item_list = s == T.OP_RPAR and top == X_CALL or s == T.OP_RSQB and top == X_LIST
                if closes_item_list and is_op(toks, i - 1, T.OP_COMMA):
                    st[S_NOPS] -= 1  # f(a, b,) / [a, b,]: the items are already linked
                    node = st[S_OPS + 4 * st[S_NOPS] + 2]
                elif (s == T.OP_COLON or s == T.OP_RSQB) and top == X_SUB:  # an absent slice part
                    o = S_OPS + 4 * (st[S_NOPS] - 1)
                    sub = st[o + 2]
                    if s == T.OP_RSQB and val[sub] == 0:  # xs[]
                        return fail_tok(err, toks, i, i, E_EXPECTED_EXPR, 0), i
                    if s == T.OP_COLON:
                        if val[sub] >= 2:
                            return fail_tok(err, toks, i, i, E_SYNTAX, 0), i
                        val[sub] += 1
                        kind[sub] = N_SLICE
                        i += 1
                        continue
                    val[sub] = 0
                    st[S_NOPS] -= 1
                    node = sub
                elif s == T.OP_LSQB:
                    node = new_node(tree, st, N_LIST, 0, i, 0)
                    if node < 0:
                        return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0), i
                    if not is_op(toks, i + 1, T.OP_RSQB):
                        if not push_op(st, X_LIST, i, node, -1):
                            return fail_tok(err, toks, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
                        i += 1
                        continue
                    i += 1  # [] (the node is complete)
                elif s == T.OP_LBRACE:
                    return fail_tok(err, toks, i, i, E_UNSUPPORTED, errors.C_DICT_SET), i
                elif s == T.OP_STAR or s == T.OP_DSTAR:
                    return fail_tok(err, toks, i, i, E_UNSUPPORTED, errors.C_STARARGS), i
                elif s == T.OP_ELLIPSIS:
                    return fail_tok(err, toks, i, i, E_UNSUPPORTED_OPERATOR, s), i
                else:
                    return fail_tok(err, toks, i, i, E_EXPECTED_EXPR, 0), i
            elif k == TK_STRING:
                return fail_tok(err, toks, i, i, E_UNSUPPORTED, errors.C_STRING), i
            else:
                return fail_tok(err, toks, i, i, E_EXPECTED_EXPR, 0), i
            if node < 0:
                return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0), i
            if not push_val(st, node):
                return fail_tok(err, toks, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
            i += 1
            expect_operand = False
            continue
        # an operand is complete: an operator, a closing bracket or the end follows
        ok = True
        if k == TK_OP:
            b = bin_code(s)
            c = cmp_code(s)
            if b >= 0:
                p = prec(X_BIN + b)
                ok = reduce_above(tree, st, p + 1 if p == P_POW else p)
                if ok and not push_op(st, X_BIN + b, i, -1, -1):
                    return fail_tok(err, toks, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
            elif c >= 0:
                if not compare_link(tree, st, c, i):
                    return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0), i
            elif s == T.OP_RPAR or s == T.OP_COMMA or s == T.OP_RSQB or (s == T.OP_COLON and innermost_marker(st) == X_SUB):
                if not close(tree, st):
                    return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0), i
                top = top_op(st)
                if top == X_IFC:
                    return fail_tok(err, toks, i, i, errors.E_EXPECTED_ELSE, 0), i
                if top < 0:
                    break  # not ours: the statement parser decides
                closes = X_PAREN if s == T.OP_RPAR else (X_LIST if s == T.OP_RSQB else -1)
                if closes == X_PAREN and top != X_PAREN and top != X_CALL or closes == X_LIST and top != X_LIST and top != X_SUB:
                    return fail_tok(err, toks, i, i, E_SYNTAX, 0), i  # ( ... ] or [ ... )
                if top == X_PAREN:
                    if s == T.OP_COMMA:
                        return fail_tok(err, toks, i, i, E_UNSUPPORTED, errors.C_TUPLES), i
                    st[S_NOPS] -= 1
                    i += 1
                    continue
                if top == X_SUB:
                    if s == T.OP_COMMA:
                        return fail_tok(err, toks, i, i, E_UNSUPPORTED, errors.C_TUPLES), i
                    sub = st[S_OPS + 4 * (st[S_NOPS] - 1) + 2]
                    if kind[sub] == N_SUBSCRIPT and s == T.OP_RSQB:  # xs[i]
                        add_arg(tree, st)
                    elif not slice_part(tree, st):
                        return fail_tok(err, toks, i, i, E_SYNTAX, 0), i
                    if s == T.OP_COLON:
                        if kind[sub] == N_SUBSCRIPT:  # the index just linked is a start
                            kind[sub] = N_SLICE
                            op[sub] = 1
                        if val[sub] >= 2:
                            return fail_tok(err, toks, i, i, E_SYNTAX, 0), i
                        val[sub] += 1
                        i += 1
                        expect_operand = True
                        continue
                    val[sub] = 0
                    st[S_NOPS] -= 1
                    push_val(st, sub)
                    i += 1
                    continue
                add_arg(tree, st)  # X_CALL, X_LIST
                if s != T.OP_COMMA:
                    st[S_NOPS] -= 1
                    push_val(st, st[S_OPS + 4 * st[S_NOPS] + 2])
                    i += 1
                    continue
            elif s == T.OP_ASSIGN:
                marker = innermost_marker(st)
                if marker == X_CALL:
                    return fail_tok(err, toks, i - 1, i, E_UNSUPPORTED, errors.C_KWARGS), i
                if marker == X_PAREN:
                    return fail_tok(err, toks, i, i, E_SYNTAX, 0), i
                break
            elif s == T.OP_WALRUS:
                return fail_tok(err, toks, i, i, E_UNSUPPORTED, errors.C_WALRUS), i
            elif s == T.OP_DOT:  # obj.name(args): a METHOD node, its args linked after obj
                if tk[i + 1] != TK_NAME or not is_op(toks, i + 2, T.OP_LPAR):
                    return fail_tok(err, toks, i, i + 1, E_UNSUPPORTED, errors.C_ATTRIBUTES), i
                obj = pop_val(st)
                node = new_node(tree, st, N_METHOD, 0, i + 1, 0)
                if node < 0:
                    return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0), i
                first[node] = obj
                if is_op(toks, i + 3, T.OP_RPAR):
                    push_val(st, node)
                    i += 4
                    continue
                if not push_op(st, X_CALL, i + 1, node, obj):
                    return fail_tok(err, toks, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
                i += 3
                expect_operand = True
                continue
            elif s == T.OP_LSQB:  # obj[...]: a SUBSCRIPT (a SLICE once a colon shows)
                obj = pop_val(st)
                node = new_node(tree, st, N_SUBSCRIPT, 0, i, 0)
                if node < 0:
                    return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0), i
                first[node] = obj
                if not push_op(st, X_SUB, i, node, obj):
                    return fail_tok(err, toks, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
            elif s == T.OP_LPAR:
                return fail_tok(err, toks, i, i, E_UNSUPPORTED, errors.C_CALL_TARGET), i
            elif binop_unsupported(s):
                return fail_tok(err, toks, i, i, E_UNSUPPORTED_OPERATOR, s), i
            else:
                break
        elif k == TK_KEYWORD:
            if s == T.KW_AND or s == T.KW_OR:
                code = X_AND if s == T.KW_AND else X_OR
                ok = reduce_above(tree, st, prec(code))
                if ok and not push_op(st, code, i, -1, -1):
                    return fail_tok(err, toks, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
            elif s == T.KW_IF:  # body if cond else orelse
                ok = reduce_above(tree, st, 1)
                if ok and not push_op(st, X_IFC, i, -1, -1):
                    return fail_tok(err, toks, i, i, E_NESTING_TOO_DEEP, MAX_NESTING), i
            elif s == T.KW_ELSE and ifc_open(st):
                ok = reduce_above(tree, st, 1)
                if top_op(st) != X_IFC:
                    return fail_tok(err, toks, i, i, E_SYNTAX, 0), i
                st[S_OPS + 4 * (st[S_NOPS] - 1)] = X_IFE
            elif s == T.KW_FOR and innermost_marker(st) >= 0:
                return fail_tok(err, toks, i, i, E_UNSUPPORTED, errors.C_COMPREHENSION), i
            elif s == T.KW_IN or (s == T.KW_NOT and is_kw(toks, i + 1, T.KW_IN)):
                c = nodes.CMP_IN if s == T.KW_IN else nodes.CMP_NOT_IN
                if not compare_link(tree, st, c, i):
                    return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0), i
                if c == nodes.CMP_NOT_IN:
                    i += 1
            elif s == T.KW_IS:
                return fail_tok(err, toks, i, i, E_UNSUPPORTED_KEYWORD, s), i
            elif s == T.KW_NOT:
                return fail_tok(err, toks, i, i, E_SYNTAX, 0), i
            else:
                break
        else:
            break
        if not ok:
            return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0), i
        i += 1
        expect_operand = True
    # end of the expression: every bracket must be closed
    if not close(tree, st):
        return fail_tok(err, toks, i, i, E_PROGRAM_TOO_LARGE, 0), i
    if top_op(st) == X_IFC:
        return fail_tok(err, toks, i, i, errors.E_EXPECTED_ELSE, 0), i
    if st[S_NOPS] > 0:
        if tk[i] == TK_NEWLINE or tk[i] == TK_END:  # never closed (end of file): point at it
            o = S_OPS + 4 * (st[S_NOPS] - 1)
            j = st[o + 1] + (1 if st[o] == X_CALL else 0)
            return fail_tok(err, toks, j, j, E_EXPECTED_OP, T.OP_RPAR), i
        return fail_tok(err, toks, i, i, E_EXPECTED_OP, T.OP_RPAR), i
    if st[S_NVALS] != 1:
        return fail_tok(err, toks, i, i, E_SYNTAX, 0), i
    return st[S_VALS], i
