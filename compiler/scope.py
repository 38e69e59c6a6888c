"""Name tables of one unit for the type checker: functions, locals, builtins (kernel bodies).

The function table `fn` is an int32 array with one row per function of the unit and the
columns below; the type checker fills the signature columns, codegen ENTRY and MAX_STACK.
The local table `locs` is an int32[MAX_LOCALS, L_WIDTH] scratch array: (name start, name end,
type, preset) per slot of the function being checked; type -1 = not known yet; preset: the
type its first binding gives it (-1: the value's), kept from one check of the function to
the next (typecheck_base.preset_request).
"""

from __future__ import annotations

from gpucc.compiler import limits
from gpucc.compiler.arrays import fail
from gpucc.compiler.errors import (
    E_DUPLICATE_FUNCTION,
    E_DUPLICATE_PARAM,
    E_NO_FUNCTIONS,
    E_NONE_VALUE,
    E_RESERVED_NAME,
    E_TOO_MANY_FUNCTIONS,
    E_TOO_MANY_LOCALS,
    E_TOO_MANY_PARAMS,
)
from gpucc.compiler.nodes import (
    N_ASSIGN,
    N_AUGASSIGN,
    N_DOCSTRING,
    N_ELLIPSIS,
    N_FOR_LIST,
    N_FOR_RANGE,
    N_FUNCDEF,
    N_IMPORT,
    N_NAME,
    N_PARAM,
    N_UNPACK,
)
from gpucc.compiler.tokens import TK_NAME, _byte_table
from gpucc.contract.jitable import nrt_free
from gpucc.contract.valuetypes import T_NONE

MAX_PARAMS, MAX_LOCALS, MAX_FUNCTIONS = limits.MAX_PARAMS, limits.MAX_LOCALS, limits.MAX_FUNCTIONS

# function-table columns
F_NODE, F_NPARAMS, F_NLOCALS, F_RET, F_IMPORT, F_NAME_S, F_NAME_E, F_ENTRY, F_MAX_STACK, F_PTYPE = range(10)
# after the parameter types: the enclosing function of a nested def (-1 at module level), the
# type checker's progress (typecheck_infer: UNCHECKED, CHECKING, CHECKED) and the function
# whose check waits for this one's (-1: none)
F_PARENT = F_PTYPE + MAX_PARAMS
F_STATE = F_PARENT + 1
F_WAITER = F_STATE + 1
F_WIDTH = F_WAITER + 1
MODULE_ROW = 2  # F_IMPORT of the module code's row (0: a function with a body, 1: an interface stub)
GLOBAL = MAX_LOCALS  # a NAME's slot at or past it: global slot - GLOBAL (its module code's local slot)
L_START, L_END, L_TYPE, L_PRESET = range(4)  # local-table columns (Scratch.locs: int32[MAX_LOCALS, L_WIDTH])
L_CUR = 4  # a local's current version (compiler/typecheck_versions.py)
L_WIDTH = 5
# Scratch.locs rows: the local table (MAX_LOCALS rows), then the unit's globals (its module
# code's local table, kept for its functions: compiler/typecheck_module.py), then one row of
# their count and the mask of the globals functions may read (two int32 halves)
LOCS_ROWS = 2 * MAX_LOCALS + 1

# Python builtins: the supported ones may be called (B_* codes: their index, typing rules in
# compiler/typerules.py); calling any other is E_NOT_CALLABLE_BUILTIN ("not supported yet").
# any, all, list and sum(xs, start) are comprehensions (compiler/comp_scope.py), range a loop's.
SUPPORTED_BUILTINS = ("abs", "min", "max", "int", "float", "bool", "len", "sum", "sorted", "str", "ord", "chr",
                      "reversed", "round", "pow", "print", "bin", "oct", "hex")  # fmt: skip
BUILTINS = SUPPORTED_BUILTINS + (
    "range", "list", "dict", "set", "tuple", "divmod", "all",
    "any", "map", "filter", "zip", "enumerate",
    "isinstance", "type", "input", "open", "repr", "hash", "id", "iter", "next", "format", "exit",
    "quit",
)  # fmt: skip
BUILTIN_BYTES, BUILTIN_LENS = _byte_table(BUILTINS)
B_DICT_CALL, B_SET_CALL = BUILTINS.index("dict"), BUILTINS.index("set")  # constructors (compiler/typecheck_dict.py)
N_SUPPORTED_BUILTINS = len(SUPPORTED_BUILTINS)
(B_ABS, B_MIN, B_MAX, B_INT, B_FLOAT, B_BOOL, B_LEN, B_SUM, B_SORTED, B_STR, B_ORD, B_CHR, B_REVERSED, B_ROUND,
 B_POW, B_PRINT, B_BIN, B_OCT, B_HEX) = range(N_SUPPORTED_BUILTINS)  # fmt: skip
# the str methods by the instruction that does them (in the order of its modes, contract/isa.py)
STR_METHODS = {
    "STR_CASE": ("lower", "upper", "swapcase", "capitalize", "title", "casefold"),
    "STR_IS": ("isdigit", "isalpha", "isalnum", "isspace", "isupper", "islower", "isdecimal", "isnumeric"),
    "STR_STRIP": ("strip", "lstrip", "rstrip"),
    "STR_SPLIT": ("split", "rsplit"),
    "STR_JOIN": ("join",),
    "STR_REPLACE": ("replace",),
    "STR_FIND": ("find", "rfind", "index", "rindex", "count", "startswith", "endswith"),
    "STR_PAD": ("zfill", "center", "ljust", "rjust"),
}
# methods a candidate may call, the list ones first (METHOD nodes: op = 1 + index; typing
# rules in typerules.py, instructions in emit.py)
# the dict and set methods (compiler/typecheck_dict.py, compiler/emit_dict.py)
DICT_METHODS = ("get", "setdefault", "pop", "update", "keys", "values", "items")
SET_METHODS = ("add", "discard", "remove")  # the others: compiler/typecheck_set.py
# the list methods beyond append and sort, last (pop, index, count, remove share a name with a
# dict, str or set method: list_method_code finds the list's)
LIST_METHODS = ("clear", "extend", "pop", "insert", "reverse", "index", "count", "remove", "copy")
METHODS = (("append", "sort") + tuple(m for group in STR_METHODS.values() for m in group) + DICT_METHODS + SET_METHODS
           + LIST_METHODS)  # fmt: skip
(M_APPEND, M_SORT, M_LOWER, M_UPPER, M_SWAPCASE, M_CAPITALIZE, M_TITLE, M_CASEFOLD, M_ISDIGIT, M_ISALPHA, M_ISALNUM,
 M_ISSPACE, M_ISUPPER, M_ISLOWER, M_ISDECIMAL, M_ISNUMERIC, M_STRIP, M_LSTRIP, M_RSTRIP, M_SPLIT, M_RSPLIT, M_JOIN,
 M_REPLACE, M_FIND, M_RFIND, M_INDEX, M_RINDEX, M_COUNT, M_STARTSWITH, M_ENDSWITH, M_ZFILL, M_CENTER, M_LJUST,
 M_RJUST, M_GET, M_SETDEFAULT, M_POP, M_UPDATE, M_KEYS, M_VALUES, M_ITEMS, M_ADD, M_DISCARD, M_REMOVE,
 M_LIST_CLEAR, M_LIST_EXTEND, M_LIST_POP, M_LIST_INSERT, M_LIST_REVERSE, M_LIST_INDEX, M_LIST_COUNT,
 M_LIST_REMOVE, M_LIST_COPY) = range(len(METHODS))  # fmt: skip
METHOD_BYTES, METHOD_LENS = _byte_table(METHODS)
LIST_METHOD_BYTES, LIST_METHOD_LENS = _byte_table(LIST_METHODS)
# Names the language gives a fixed meaning (`for i in range(...)`): never redefined.
RESERVED_BYTES, RESERVED_LENS = _byte_table(("range",))


@nrt_free
def same_name(src, s1, e1, s2, e2):
    if e1 - s1 != e2 - s2:
        return False
    for k in range(e1 - s1):
        if src[s1 + k] != src[s2 + k]:
            return False
    return True


@nrt_free
def table_index(src, s, e, table, lens):
    """Index of src[s:e] among the words of a tokens._byte_table, or -1."""
    for b in range(lens.shape[0]):
        if lens[b] == e - s:
            k = 0
            while k < e - s and table[b, k] == src[s + k]:
                k += 1
            if k == e - s:
                return b
    return -1


@nrt_free
def in_table(src, s, e, table, lens):
    """Whether src[s:e] is one of the words of a tokens._byte_table."""
    return table_index(src, s, e, table, lens) >= 0


@nrt_free
def builtin_code(src, s, e):
    """B_* code (index in BUILTINS) of the name src[s:e], or -1 for a name that is no builtin."""
    return table_index(src, s, e, BUILTIN_BYTES, BUILTIN_LENS)


@nrt_free
def synthetic_builtin(toks, t):
    """The BUILTINS index a call token made by compiler/desugar.py names (its sub), or -1 for a
    token of the source (a lexed name's sub is -1)."""
    return toks.sub[t] if toks.kind[t] == TK_NAME else -1


@nrt_free
def call_builtin(src, toks, tree, n):
    """The BUILTINS index CALL n's name spells (or its synthetic token names), or -1."""
    t = tree.tok[n]
    if synthetic_builtin(toks, t) >= 0:
        return synthetic_builtin(toks, t)
    return builtin_code(src, toks.start[t], toks.end[t])


@nrt_free
def method_code(src, s, e):
    """M_* code of the method named src[s:e], or -1."""
    return table_index(src, s, e, METHOD_BYTES, METHOD_LENS)


@nrt_free
def list_method_code(src, s, e):
    """M_* code of the list method named src[s:e] (scope.LIST_METHODS), or -1."""
    k = table_index(src, s, e, LIST_METHOD_BYTES, LIST_METHOD_LENS)
    return k + M_LIST_CLEAR if k >= 0 else k


@nrt_free
def is_builtin(src, s, e):
    return in_table(src, s, e, BUILTIN_BYTES, BUILTIN_LENS)


@nrt_free
def is_reserved(src, s, e):
    return in_table(src, s, e, RESERVED_BYTES, RESERVED_LENS)


@nrt_free
def find_function(src, fn, nf, s, e):
    for f in range(nf):
        if same_name(src, fn[f, F_NAME_S], fn[f, F_NAME_E], s, e):
            return f
    return -1


@nrt_free
def find_local(src, locs, nloc, s, e):
    for v in range(nloc):
        if same_name(src, locs[v, L_START], locs[v, L_END], s, e):
            return v
    return -1


@nrt_free
def last_child(tree, n):
    first, next_ = tree.first, tree.next
    c = first[n]
    while c != -1 and next_[c] != -1:
        c = next_[c]
    return c


@nrt_free
def loop_else(tree, n):
    """The `else:` BLOCK of loop n (WHILE, FOR_RANGE, FOR_LIST): its last child, after the
    body (and a FOR_LIST's target TUPLE), or -1."""
    c = tree.first[n]
    for _ in range(tree.op[n] if tree.kind[n] == N_FOR_RANGE else 1):  # the header
        c = tree.next[c]
    c = tree.next[c]  # after the body
    if c != -1 and tree.kind[n] == N_FOR_LIST and tree.op[n] == 1:
        c = tree.next[c]
    return c


@nrt_free
def function_body(tree, fn, f):
    """Where the statements of function f begin: its BLOCK; for module code the MODULE, whose
    FUNCDEF children every walk of the module code skips."""
    return 0 if fn[f, F_IMPORT] == MODULE_ROW else last_child(tree, fn[f, F_NODE])


@nrt_free
def is_stub(tree, body):
    """A body that is only `...` (optionally after docstrings): an interface stub."""
    kind, first, next_ = tree.kind, tree.first, tree.next
    c = first[body]
    while c != -1 and kind[c] == N_DOCSTRING:
        c = next_[c]
    return c != -1 and kind[c] == N_ELLIPSIS and next_[c] == -1


@nrt_free
def collect_functions(src, toks, tree, types, err):
    """First pass over the MODULE: one fn row per FUNCDEF (calls may go forward), and one more,
    the last, for the module code when there are statements besides (F_IMPORT MODULE_ROW, F_NODE
    the MODULE: its statements are the MODULE's other children).

    Returns the number of functions, or -1 with err set."""
    tok_start, tok_end = toks.start, toks.end
    kind, op, tok, first, next_ = tree.kind, tree.op, tree.tok, tree.first, tree.next
    slot, fn = types.slot, types.fn
    nf = 0
    module_code = False
    d = first[0]
    while d != -1:
        t = tok[d]
        s, e = tok_start[t], tok_end[t]
        if kind[d] == N_IMPORT:  # a name an import binds (compiler/modules.py)
            d = next_[d]
            continue
        if kind[d] != N_FUNCDEF:
            module_code = True
            d = next_[d]
            continue
        if nf >= fn.shape[0] or nf >= MAX_FUNCTIONS:
            return fail(err, E_TOO_MANY_FUNCTIONS, s, e, MAX_FUNCTIONS)
        if is_reserved(src, s, e):
            return fail(err, E_RESERVED_NAME, s, e, 0)
        if find_function(src, fn, nf, s, e) >= 0:
            return fail(err, E_DUPLICATE_FUNCTION, s, e, 0)
        fn[nf, F_NODE] = d
        fn[nf, F_NAME_S] = s
        fn[nf, F_NAME_E] = e
        fn[nf, F_RET] = op[d]
        fn[nf, F_ENTRY] = 0
        fn[nf, F_MAX_STACK] = 0
        np_ = 0
        c = first[d]
        while c != -1 and kind[c] == N_PARAM:
            ps, pe = tok_start[tok[c]], tok_end[tok[c]]
            if np_ >= MAX_PARAMS:
                return fail(err, E_TOO_MANY_PARAMS, ps, pe, MAX_PARAMS)
            q = first[d]
            while q != c:
                if same_name(src, tok_start[tok[q]], tok_end[tok[q]], ps, pe):
                    return fail(err, E_DUPLICATE_PARAM, ps, pe, 0)
                q = next_[q]
            if op[c] == T_NONE:
                return fail(err, E_NONE_VALUE, ps, pe, 0)
            if is_reserved(src, ps, pe):
                return fail(err, E_RESERVED_NAME, ps, pe, 0)
            fn[nf, F_PTYPE + np_] = op[c]
            slot[c] = np_
            np_ += 1
            c = next_[c]
        for p in range(np_, MAX_PARAMS):
            fn[nf, F_PTYPE + p] = T_NONE
        fn[nf, F_NPARAMS] = np_
        fn[nf, F_PARENT] = -1
        fn[nf, F_STATE] = 0
        if tree.val[d] >= 0:  # a nested def: its enclosing function's row (made before it)
            for g in range(nf):
                if fn[g, F_NODE] == tree.val[d]:
                    fn[nf, F_PARENT] = g
        fn[nf, F_NLOCALS] = np_
        fn[nf, F_IMPORT] = 1 if c != -1 and is_stub(tree, c) else 0
        slot[d] = nf
        nf += 1
        d = next_[d]
    if module_code:
        if nf >= fn.shape[0] or nf >= MAX_FUNCTIONS:
            return fail(err, E_TOO_MANY_FUNCTIONS, 0, 0, MAX_FUNCTIONS)
        for c in range(F_WIDTH):
            fn[nf, c] = 0
        for p in range(MAX_PARAMS):
            fn[nf, F_PTYPE + p] = T_NONE
        fn[nf, F_RET] = T_NONE
        fn[nf, F_IMPORT] = MODULE_ROW
        nf += 1
    if nf == 0:
        return fail(err, E_NO_FUNCTIONS, 0, 0, 0)
    return nf


@nrt_free
def module_row(fn, nf):
    """The function-table row of the unit's module code (its last), or -1."""
    return nf - 1 if nf > 0 and fn[nf - 1, F_IMPORT] == MODULE_ROW else -1


@nrt_free
def _bind_local(src, toks, tree, types, locs, nloc, n, err):
    """Node n (a statement or a target NAME) assigns the name at its token: slot[n] = its
    local's slot, a new one if it has none yet.  Returns the slot count, or -1 with err set."""
    s, e = toks.start[tree.tok[n]], toks.end[tree.tok[n]]
    v = find_local(src, locs, nloc, s, e)
    if v < 0:
        if is_reserved(src, s, e):
            return fail(err, E_RESERVED_NAME, s, e, 0)
        if nloc >= MAX_LOCALS:
            return fail(err, E_TOO_MANY_LOCALS, s, e, MAX_LOCALS)
        locs[nloc, L_START] = s
        locs[nloc, L_END] = e
        locs[nloc, L_TYPE] = -1
        v = nloc
        nloc += 1
    types.slot[n] = v
    return nloc


@nrt_free
def collect_locals(src, toks, tree, types, f, scratch, err):
    """Python scoping: parameters are slots 0..n-1, then every name assigned anywhere in the
    function (assignment, augmented assignment, for target, the names of an unpacking target)
    in order of first appearance.  Sets slot[] of those statements (and target NAMEs) and
    fills the local table; returns the slot count or -1."""
    kind, tok, first, next_ = tree.kind, tree.tok, tree.first, tree.next
    fn, locs, stk = types.fn, scratch.locs, scratch.walk
    d = fn[f, F_NODE]
    nloc = 0
    c = first[d]
    while c != -1 and kind[c] == N_PARAM:
        locs[nloc, L_START] = toks.start[tok[c]]
        locs[nloc, L_END] = toks.end[tok[c]]
        locs[nloc, L_TYPE] = fn[f, F_PTYPE + nloc]
        nloc += 1
        c = next_[c]
    if fn[f, F_IMPORT] == MODULE_ROW:  # module code: the MODULE's statements
        c = d
    # preorder walk of the body in source order: push children, then reverse them (not a def's)
    sp = 0
    stk[sp, 0] = c
    sp += 1
    while sp > 0:
        sp -= 1
        n = stk[sp, 0]
        k = kind[n]
        target = first[n] if k == N_UNPACK else -1  # an unpacking target (a TUPLE)
        if k == N_FOR_LIST and tree.op[n] == 1:
            target = next_[next_[first[n]]]
        if k == N_ASSIGN or k == N_AUGASSIGN or k == N_FOR_RANGE or (k == N_FOR_LIST and tree.op[n] == 0):
            nloc = _bind_local(src, toks, tree, types, locs, nloc, n, err)
        elif target >= 0:  # the target's NAMEs in order (column 1 of the walk stack: the items to visit)
            tsp = sp
            stk[tsp, 1] = first[target]
            tsp += 1
            while tsp > sp and nloc >= 0:
                tsp -= 1
                m = stk[tsp, 1]
                if next_[m] != -1:
                    stk[tsp, 1] = next_[m]
                    tsp += 1
                if kind[m] == N_NAME:
                    nloc = _bind_local(src, toks, tree, types, locs, nloc, m, err)
                elif first[m] != -1:
                    stk[tsp, 1] = first[m]
                    tsp += 1
        if nloc < 0:
            return -1
        lo = sp
        ch = first[n]
        while ch != -1:
            if kind[ch] != N_FUNCDEF:
                stk[sp, 0] = ch
                sp += 1
            ch = next_[ch]
        hi = sp - 1
        while lo < hi:
            stk[lo, 0], stk[hi, 0] = stk[hi, 0], stk[lo, 0]
            lo += 1
            hi -= 1
    return nloc
