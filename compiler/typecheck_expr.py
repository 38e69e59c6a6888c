"""Type checker, expressions: the types of expression trees (a part of phase 3, see
compiler/typecheck.py; calls are compiler/typecheck_calls.py, the rules compiler/typerules.py).

`type_expr` walks an expression in postorder on the walk stack (no recursion) and types each
node, its children typed, with the handler of its kind (`node_type` picks it).  Kernel bodies.
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.arrays import fail
from gpucc.compiler.errors import (
    E_CLOSURE,
    E_NESTING_TOO_DEEP,
    E_OPERAND_TYPES,
    E_SYNTAX,
    E_TYPE_MISMATCH,
    E_UNBOUND,
    E_UNDEFINED_NAME,
    E_UNSUPPORTED,
    E_VOID_VALUE,
)
from gpucc.compiler.limits import MAX_NESTING
from gpucc.compiler.narrowing import as_optional, enter_child, narrowed_type, start_expr
from gpucc.compiler.nodes import (
    N_ATTR,
    N_BINARY,
    N_BOOL,
    N_BOOLOP,
    N_CALL,
    N_CMP_LINK,
    N_COMP,
    N_COMP_FOR,
    N_COMP_IF,
    N_COMPARE,
    N_DICT,
    N_FLOAT,
    N_IFEXP,
    N_INT,
    N_KWARG,
    N_LAMBDA,
    N_LIST,
    N_METHOD,
    N_NAME,
    N_NONE,
    N_SET,
    N_SLICE,
    N_STR,
    N_SUBSCRIPT,
    N_TUPLE,
    N_UNARY,
    UN_NEG,
    UN_NOT,
)
from gpucc.compiler.scope import F_NODE, F_PARENT, L_TYPE, find_local
from gpucc.compiler.typecheck_versions import local_of
from gpucc.compiler.typecheck_base import (  # noqa: F401 - S_C, S_STATE, is_const_true: codegen's, as before
    S_A,
    S_B,
    S_C,
    S_NODE,
    S_STATE,
    UNBOX_LATE,
    ZERO,
    bit,
    can_unbox,
    expr_fail,
    expr_fail_types,
    is_const_true,
    node_fail,
    node_fail_types,
    unboxed,
    widen_request,
)  # fmt: skip
from gpucc.compiler.modules import find_import
from gpucc.compiler.typecheck_calls import resolve_call, type_call, type_method
from gpucc.compiler.typecheck_deque import deque_display_type
from gpucc.compiler.typecheck_counter import NOT_COUNTER_METHOD, counter_operator
from gpucc.compiler.typecheck_comp import truth_only, type_comp_name, type_comprehension
from gpucc.compiler.typecheck_dict import bad_key, dict_subscript_type, display_type
from gpucc.compiler.typecheck_import import imported_constant, resolve_attribute
from gpucc.compiler.typecheck_module import NOT_GLOBAL, type_global
from gpucc.compiler.typerules import (
    COMPARE_RULES,
    IDENTITY,
    ORDERING,
    binary_type,
    compare_ok,
    converts,
    element_type,
    is_deque,
    is_counter,
    is_dict,
    is_integral,
    is_optional,
    is_set,
    is_sized,
    is_tuple,
    join,
    list_literal_type,
    unary_type,
)  # fmt: skip
from gpucc.contract.jitable import (
    nrt_free,
    type_append_field,
    type_arity,
    type_field,
    type_tuple_start,
    type_width,
)
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT, T_NONE, T_STR

NOT_CONSTANT = -(2**62)  # constant_index of an index that is no literal

# an expression frame (type_expr), after S_NODE:
X_TRUTH = S_A  # 1: only the node's truth value is used (a condition, the operand of `not`)
X_CHILD = S_B  # the next child to type; -1 once all are typed


@nrt_free
def child_truth(tree, n, c, truth):
    """Whether only the truth value of child c of n is used: the operands of and / or are
    used as n is; the operand of `not`, the condition of `a if cond else b`, a
    comprehension's `if` clause and the element of any / all for their truth."""
    k = tree.kind[n]
    if k == N_BOOLOP:
        return truth
    if k == N_COMP_IF or k == N_COMP:
        return truth_only(tree, n, c)
    if (k == N_UNARY and tree.op[n] == UN_NOT) or (k == N_IFEXP and c == tree.next[tree.first[n]]):
        return 1
    return 0


@nrt_free
def _open_frame(n, truth, src, toks, tree, types, scope, scratch, sp, err):
    """Push n's frame at sp, its children to type next; a call's callee is resolved first
    (compiler/typecheck_calls.py).  Returns sp + 1, or -1 with err set."""
    stk = scratch.walk
    if (tree.kind[n] == N_METHOD or tree.kind[n] == N_ATTR) and resolve_attribute(src, toks, tree, types, scope,
                                                                                   scratch, n, err) < 0:  # fmt: skip
        return -1
    stk[sp, S_NODE] = n
    stk[sp, X_TRUTH] = truth
    stk[sp, X_CHILD] = tree.first[n]
    if tree.kind[n] == N_CALL and resolve_call(src, toks, tree, types, scope, scratch, n, err) < 0:
        return -1
    if tree.kind[n] == N_KWARG or tree.kind[n] == N_LAMBDA:  # what compiler/desugar.py did not take
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_KWARGS if tree.kind[n] == N_KWARG
                         else errors.C_LAMBDA)  # fmt: skip
    return sp + 1


@nrt_free
def type_expr(root, truth, void_ok, src, toks, tree, types, scope, mask, scratch, sp0, err):
    """Type the expression at root (postorder walk on the walk stack above sp0; mask: the
    locals definitely assigned here).

    truth: only its truth value is used; void_ok: root may be a call of a `-> None` function.
    Returns the root's type, -1 with err set, or -2 - v: check the function again with local
    v widened (see typecheck_base.widen_request)."""
    next_, type_, stk = tree.next, types.type, scratch.walk
    start_expr(root, scratch)
    sp = _open_frame(root, truth, src, toks, tree, types, scope, scratch, sp0, err)
    if sp < 0:
        return -1
    while sp > sp0:
        top = sp - 1
        n = stk[top, S_NODE]
        c = stk[top, X_CHILD]
        if c != -1:  # type the next child first
            if sp >= stk.shape[0]:
                return node_fail(err, E_NESTING_TOO_DEEP, toks, tree, n, MAX_NESTING)
            stk[top, X_CHILD] = next_[c]
            enter_child(n, c, src, toks, tree, types, scope, scratch, sp)
            sp = _open_frame(c, child_truth(tree, n, c, stk[top, X_TRUTH]), src, toks, tree, types, scope, scratch,
                             sp, err)  # fmt: skip
            if sp < 0:
                return -1
            continue
        sp = top
        t = node_type(n, stk[top, X_TRUTH], src, toks, tree, types, scope, mask, scratch, top, err)
        if t < 0:
            return t
        void = tree.kind[n] == N_CALL or tree.kind[n] == N_METHOD
        if t == T_NONE and void and not (void_ok and n == root):  # a list method, a `-> None` function
            return node_fail(err, E_VOID_VALUE, toks, tree, n, 0)
        if bad_key(t):  # a dict or set annotated with keys no hash serves
            return expr_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_KEY_TYPE)
        type_[n] = t
    return type_[root]


@nrt_free
def node_type(n, truth, src, toks, tree, types, scope, mask, scratch, sp, err):
    """The type of expression node n, its children typed (truth: only its truth value is
    used; walk stack rows from sp free); -1 with err set, or a widen request (-2 - v)."""
    k = tree.kind[n]
    if k == N_INT:
        return T_INT
    if k == N_BOOL:
        return T_BOOL
    if k == N_COMPARE:
        return _type_compare(n, toks, tree, types, scratch, err)
    if k == N_NAME:
        return _type_name(n, src, toks, tree, types, scope, mask, scratch, err)
    if k == N_FLOAT:
        return T_FLOAT
    if k == N_STR:
        return T_STR
    if (k == N_UNARY or k == N_BINARY) and is_counter(types.type[tree.first[n]]):  # compiler/typecheck_counter.py
        g = counter_operator(src, toks, tree, types, scope.nf, n, err)
        if g != NOT_COUNTER_METHOD:
            return -1 if g < 0 else type_call(toks, tree, types, scope, scratch, n, err)
    if k == N_UNARY:
        return _type_unary(n, toks, tree, types, err)
    if k == N_BINARY:
        return _type_binary(n, toks, tree, types, err)
    if k == N_IFEXP:
        return _type_ifexp(n, toks, tree, types, err)
    if k == N_LIST:
        return _type_list(n, toks, tree, types, err)
    if k == N_DICT or k == N_SET:
        t = display_type(tree, types, n)
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, -1 - t) if t < 0 else t
    if k == N_TUPLE:
        return _type_tuple(n, toks, tree, types, err)
    if (k == N_SUBSCRIPT or k == N_SLICE) and (is_dict(types.type[tree.first[n]]) or is_set(types.type[tree.first[n]])):
        return dict_subscript_type(n, toks, tree, types, scratch.locs, err)
    if k == N_SLICE and is_deque(types.type[tree.first[n]]):  # CPython: TypeError
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_DEQUE_FORM)
    if k == N_SUBSCRIPT or k == N_SLICE:
        return _type_subscript(n, toks, tree, types, err)
    if k == N_METHOD:
        return type_method(src, toks, tree, types, scope, scratch, n, err)
    if k == N_BOOLOP:
        return _type_boolop(n, truth, toks, tree, types, scope, err)
    if k == N_CMP_LINK:  # its operand's (COMPARE checks the pair)
        return types.type[tree.first[n]]
    if k == N_CALL:
        return type_call(toks, tree, types, scope, scratch, n, err)
    if k == N_COMP or k == N_COMP_FOR or k == N_COMP_IF:
        return type_comprehension(n, toks, tree, types, scratch, sp, err)
    if k == N_NONE:
        return T_NONE
    return node_fail(err, E_SYNTAX, toks, tree, n, 0)


@nrt_free
def _type_compare(n, toks, tree, types, scratch, err):
    """`a < b <= c`: each link's pair is a comparison gpucc has; a bool.  An Optional left
    operand of an ordering is unboxed after its right one ran (UNBOX_LATE, as _type_binary);
    a narrowed read compared with None compares as its Optional (narrowing.as_optional)."""
    first, next_, type_ = tree.first, tree.next, types.type
    left = first[n]
    link = next_[left]
    while link != -1:
        rule = COMPARE_RULES[tree.op[link]]
        if rule == ORDERING:  # None < x: TypeError
            _unbox_late(tree, types, left)
            type_[link] = unboxed(tree, types, first[link])
        elif rule == IDENTITY or tree.kind[left] == N_NONE or tree.kind[first[link]] == N_NONE:
            as_optional(left, tree, types, scratch)
            type_[link] = as_optional(first[link], tree, types, scratch)
        if not compare_ok(tree.op[link], type_[left], type_[link]):
            return node_fail_types(err, E_OPERAND_TYPES, toks, tree, link, type_[left], type_[link])
        left = first[link]
        link = next_[link]
    return T_BOOL


@nrt_free
def _type_name(n, src, toks, tree, types, scope, mask, scratch, err):
    """A local, definitely assigned here: its type (slot[n] = its slot); or a comprehension's
    variable (op set: compiler/comp_scope.py bound it)."""
    if tree.op[n] != 0:
        return type_comp_name(n, toks, tree, types, scratch, err)
    locs = scratch.locs
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    v = local_of(n, src, toks, tree, scope.nloc, locs, scratch.masks)
    if v < 0:  # a global (compiler/typecheck_module.py); in a nested def a name of the enclosing
        # function is Python's closure (not served); or no name
        t = type_global(n, src, locs, s, e, types, err)
        if t != NOT_GLOBAL:
            return t
        imp = find_import(src, toks, tree, s, e, types.fn[scope.f, F_NODE])
        if imp >= 0:  # from math import pi
            return imported_constant(tree, n, imp, s, e, err)
        return fail(err, E_CLOSURE if types.fn[scope.f, F_PARENT] >= 0 else E_UNDEFINED_NAME, s, e, 0)
    if (mask & bit(v)) == ZERO or locs[v, L_TYPE] < 0:
        return fail(err, E_UNBOUND, s, e, 0)
    types.slot[n] = v
    return narrowed_type(n, v, locs[v, L_TYPE], tree, scratch)


@nrt_free
def _type_unary(n, toks, tree, types, err):
    ct = types.type[tree.first[n]] if tree.op[n] == UN_NOT else unboxed(tree, types, tree.first[n])
    t = unary_type(tree.op[n], ct)
    if t < 0:
        return node_fail_types(err, E_OPERAND_TYPES, toks, tree, n, ct, ct)
    return t


@nrt_free
def _type_binary(n, toks, tree, types, err):
    left = tree.first[n]
    lt, rt = _unbox_late(tree, types, left), unboxed(tree, types, tree.next[left])
    t = binary_type(tree.op[n], lt, rt)
    if t < 0:
        return node_fail_types(err, E_OPERAND_TYPES, toks, tree, n, lt, rt)
    return t


@nrt_free
def _unbox_late(tree, types, left):
    """The type of a left operand where its T is needed: an Optional[T] is unboxed after the
    right operand ran (UNBOX_LATE: CPython evaluates both before raising TypeError on None)."""
    if is_optional(types.type[left]) and can_unbox(tree.kind[left]):
        unboxed(tree, types, left)
        tree.val[left] = UNBOX_LATE
    return types.type[left]


@nrt_free
def _type_ifexp(n, toks, tree, types, err):
    """`a if cond else b`: a's and b's type, where they differ the one both join
    (typeshapes.join: `[]` takes the other's type, None and T give Optional[T]); a float and
    an int or bool give a float."""
    first, next_ = tree.first, tree.next
    bt, ot = types.type[first[n]], types.type[next_[next_[first[n]]]]
    t = join(bt, ot)
    if t < 0 and (bt == T_FLOAT or ot == T_FLOAT) and converts(T_FLOAT, bt) and converts(T_FLOAT, ot):
        t = T_FLOAT
    if t < 0:
        return node_fail_types(err, E_OPERAND_TYPES, toks, tree, n, bt, ot)
    return t


@nrt_free
def _type_list(n, toks, tree, types, err):
    t = list_literal_type(tree.first, tree.next, types.type, n)
    if t < 0:
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, -1 - t)
    return deque_display_type(tree, n, t)


@nrt_free
def _type_tuple(n, toks, tree, types, err):
    """(a, b, ...): the tuple of its items' types (a located error if it is too large)."""
    c = tree.first[n]
    arity = 0
    while c != -1:
        arity += 1
        c = tree.next[c]
    t, used = type_tuple_start(arity), 2
    c = tree.first[n]
    while c != -1 and arity <= 15:
        t = type_append_field(t, used, types.type[c])
        used += type_width(types.type[c])
        c = tree.next[c]
    if arity > 15 or t < 0:
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_TYPE_TOO_LARGE)
    return t


@nrt_free
def _type_subscript(n, toks, tree, types, err):
    """`xs[i]` (the element type) and `xs[a:b:c]` (the list's type), of a list, a str or a
    tuple (`t[k]` of a constant k: field k; of any int: the fields' one type; slices: a
    tuple whose fields are all of one type): integral indexes."""
    first, next_, type_ = tree.first, tree.next, types.type
    ot = unboxed(tree, types, first[n])
    c = next_[first[n]]
    while c != -1:
        if not is_integral(unboxed(tree, types, c)):
            return expr_fail_types(err, E_TYPE_MISMATCH, toks, tree, c, T_INT, type_[c])
        c = next_[c]
    if not is_sized(ot):
        return node_fail_types(err, E_OPERAND_TYPES, toks, tree, n, ot, T_INT)
    k = constant_index(tree, next_[first[n]])
    if is_tuple(ot) and tree.kind[n] == N_SUBSCRIPT and -type_arity(ot) <= k < type_arity(ot):
        return type_field(ot, k if k >= 0 else k + type_arity(ot))
    if is_tuple(ot) and (tree.kind[n] == N_SLICE or element_type(ot) < 0):
        return node_fail(err, E_UNSUPPORTED, toks, tree, n, errors.C_TUPLE_INDEX)
    return element_type(ot) if tree.kind[n] == N_SUBSCRIPT else ot


@nrt_free
def constant_index(tree, c):
    """The value of index expression c if it is an int literal or a negated one, else
    NOT_CONSTANT."""
    kind = tree.kind
    if kind[c] == N_INT:
        return tree.val[c]
    if kind[c] == N_UNARY and tree.op[c] == UN_NEG and kind[tree.first[c]] == N_INT:
        return -tree.val[tree.first[c]]
    return NOT_CONSTANT


@nrt_free
def _type_boolop(n, truth, toks, tree, types, scope, err):
    """`a and b`, `a or b`: the operands' type, which must be one unless only the truth value
    is used (then int, any will do); an int local among float operands is widened."""
    first, next_ = tree.first, tree.next
    lt, rt = types.type[first[n]], types.type[next_[first[n]]]
    if lt == rt:
        return lt
    if truth != 0:
        return T_INT
    r = widen_request(tree, types, first[n], scope.widen)
    if r <= -2:  # an int local here holds floats too
        return r
    return node_fail_types(err, E_OPERAND_TYPES, toks, tree, n, lt, rt)
