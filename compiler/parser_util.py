"""Helpers shared by the statement parser (compiler.parser, compiler.parser_simple) and the
expression parser (compiler.parser_expr, compiler.parser_opstack): the scratch-array layout,
node allocation, the block stack, error recording, token tests and docstrings.  Numba
subset: nothing allocates or raises.
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler import errors, limits, nodes, tokens
from gpucc.compiler.arrays import fail
from gpucc.compiler.errors import E_SYNTAX, E_UNSUPPORTED
from gpucc.contract.jitable import nrt_free

T = tokens
TK_NAME, TK_STRING, TK_KEYWORD, TK_OP = T.TK_NAME, T.TK_STRING, T.TK_KEYWORD, T.TK_OP
MAX_NESTING = limits.MAX_NESTING

# a block-stack entry: one per open block (compiler.parser)
B_NODE = 0  # the BLOCK node (the MODULE for the module's entry)
B_LAST = 1  # its last statement so far, -1 before the first
B_OWNER = 2  # the statement whose block it is (FUNCDEF, IF, WHILE, FOR_*), -1 for an else block and the module
B_SINGLE_LINE = 3  # 1 for the block of `if x: stmt`, which ends with its one statement
B_WIDTH = 4

# an operator-stack entry: one per pending operator or open bracket (compiler.parser_opstack)
O_CODE = 0  # the operator's X_* code (compiler.parser_tables)
O_TOKEN = 1  # its token
O_NODE = 2  # the node it builds while open (CALL, METHOD, LIST, SUBSCRIPT or SLICE, COMPARE); -1 for the
#             other operators, whose node is made when they are reduced
O_LAST = 3  # that node's last child linked so far (argument, element, slice part, CMP_LINK; at first the
#             object of a METHOD or subscript), -1 before the first
O_WIDTH = 4

# scratch layout (int32): counters, block stack, operator stack, operand stack
S_COUNT, S_NOPS, S_NVALS, S_NBLK = 0, 1, 2, 3  # nodes made; entries on the operator, operand, block stacks
S_BLOCK = 4  # the block stack: MAX_NESTING entries of B_WIDTH
S_OPS = S_BLOCK + B_WIDTH * MAX_NESTING  # the operator stack: MAX_NESTING entries of O_WIDTH
S_VALS = S_OPS + O_WIDTH * MAX_NESTING  # the operand stack: MAX_NESTING + 2 nodes
S_NTOK = S_VALS + MAX_NESTING + 2  # tokens so far, the desugaring pass's synthetic ones included
SCRATCH_SIZE = S_NTOK + 1

N_FUNCDEF = nodes.N_FUNCDEF

WORD_RANGE = np.frombuffer(b"range", dtype=np.uint8)


@nrt_free
def fail_tok(err, toks, i, j, code, arg):
    """Record error `code` spanning tokens i..j (inclusive); returns -1."""
    return fail(err, code, toks.start[i], max(toks.end[j], toks.start[i]), arg)


@nrt_free
def new_node(tree, st, k, o, t, v):
    """Append a node; returns its index, or -1 when the node arrays are full."""
    n = st[S_COUNT]
    if n >= tree.kind.shape[0]:
        return -1
    tree.kind[n] = k
    tree.op[n] = o
    tree.tok[n] = t
    tree.first[n] = -1
    tree.next[n] = -1
    tree.val[n] = v
    st[S_COUNT] = n + 1
    return n


@nrt_free
def link_child(tree, parent, last, c):
    """Link node c after `last` among parent's children (-1: as the first); returns c."""
    if last < 0:
        tree.first[parent] = c
    else:
        tree.next[last] = c
    return c


@nrt_free
def top_block(st):
    """Offset in st of the innermost open block's entry (its columns: B_*)."""
    return S_BLOCK + B_WIDTH * (st[S_NBLK] - 1)


@nrt_free
def push_block(st, blk, owner, single):
    """Open block node blk of statement `owner` (single: 1 for a single-line block)."""
    d = S_BLOCK + B_WIDTH * st[S_NBLK]
    st[d + B_NODE] = blk
    st[d + B_LAST] = -1
    st[d + B_OWNER] = owner
    st[d + B_SINGLE_LINE] = single
    st[S_NBLK] += 1


@nrt_free
def _append(tree, st, d, node):
    """Append statement node to the block of block-stack entry d."""
    if st[d + B_LAST] < 0:
        tree.first[st[d + B_NODE]] = node
    else:
        tree.next[st[d + B_LAST]] = node
    st[d + B_LAST] = node


@nrt_free
def append_statement(tree, st, node):
    """Append statement node to the innermost open block."""
    _append(tree, st, top_block(st), node)


@nrt_free
def append_to_module(tree, st, node):
    """Append a FUNCDEF to the module's statements, whatever block is open (a nested def is
    hoisted: compiler/typecheck_infer.py checks where its name is visible)."""
    _append(tree, st, S_BLOCK, node)  # the module's entry: the first on the block stack


@nrt_free
def enclosing_function(tree, st):
    """The FUNCDEF whose body (or a block inside it) is the innermost open block, or -1."""
    for b in range(st[S_NBLK] - 1, 0, -1):
        owner = st[S_BLOCK + B_WIDTH * b + B_OWNER]
        if owner >= 0 and tree.kind[owner] == N_FUNCDEF:
            return owner
    return -1


@nrt_free
def is_op(toks, i, sub):
    return toks.kind[i] == TK_OP and toks.sub[i] == sub


@nrt_free
def is_kw(toks, i, sub):
    return toks.kind[i] == TK_KEYWORD and toks.sub[i] == sub


@nrt_free
def kw_unsupported(s):
    """Keywords outside the language (lambda excepted: it is reported as a construct)."""
    return (
        s == T.KW_AS or s == T.KW_ASYNC or s == T.KW_AWAIT or s == T.KW_CLASS
        or s == T.KW_FROM or s == T.KW_GLOBAL or s == T.KW_IMPORT or s == T.KW_NONLOCAL
        or s == T.KW_WITH or s == T.KW_YIELD
    )  # fmt: skip


@nrt_free
def word_is(src, toks, i, word):
    s = toks.start[i]
    if toks.end[i] - s != word.shape[0]:
        return False
    for j in range(word.shape[0]):
        if src[s + j] != word[j]:
            return False
    return True


@nrt_free
def string_run_end(toks, i, err, docstring):
    """Token after the adjacent string literals at i, or -1 (err set): f-strings run code and
    bytes mixed with str is a SyntaxError; a value (not a no-op docstring) is no bytes."""
    j = i
    is_bytes = (toks.sub[i] & T.PREFIX_BYTES) != 0
    while toks.kind[j] == TK_STRING:
        if toks.sub[j] & T.PREFIX_FORMAT:
            return fail_tok(err, toks, j, j, E_UNSUPPORTED, errors.C_FSTRING)
        if ((toks.sub[j] & T.PREFIX_BYTES) != 0) != is_bytes:
            return fail_tok(err, toks, j, j, E_SYNTAX, 0)
        j += 1
    if is_bytes and not docstring:
        return fail_tok(err, toks, i, j - 1, E_UNSUPPORTED, errors.C_BYTES)
    return j
