"""The named data of the compiler: bundles of the arrays its phases pass along, and the
error record every phase writes.

A bundle is a namedtuple of arrays, one level deep: numba passes it through @njit, prange
bodies, register_jitable calls and CUDA kernels as it passes the arrays themselves (a field
read is resolved at compile time).  Each phase takes the bundles it reads and the ones it
writes; loops read the fields they use into locals first.  The phases are compiled without
numba's reference counting (contract.jitable.nrt_free: they allocate nothing and return no
array); only the launchers and the unit_* view makers below, which return arrays, keep it.

One unit (the launchers build these from per-unit slices, compiler/unit.py runs the phases):

    Tokens   the lexer's output, one entry per token (compiler/tokens.py): kind, sub, byte
             start and end (relative to the unit), line, val
    Tree     the parser's syntax tree, one entry per node (compiler/nodes.py): kind, op,
             tok, first, next, val (the type checker also writes val, see typecheck.py)
    Types    the type checker's results: per node type and slot, the function table fn
             (compiler/scope.py columns; codegen fills the entry and stack columns)
    Output   codegen's output: code (opcode, operand), lines, consts and its state cg
             (compiler/emit.py CG_* columns: instruction and constant counts among them)
    Scratch  working space: parse (the parser's counters and stacks, parser_util layout),
             walk (the traversal stack of the type checker and codegen, typecheck_base S_*
             columns, also the peephole pass's scratch), masks (definite assignment per
             walk row), locs (the local table of the function being checked, scope L_*)
    err      the error record, int32[ERR_WIDTH]: code, byte start, byte end, argument, and a
             second argument (a type mismatch: the expected type, then the one got)
    Scope    (not arrays) the type checker's view of the function it checks

One launch (compiler/batch.py on the CPU, compiler/cuda_batch.py on CUDA):

    Regions      per unit u, where its regions start: [u] .. [u + 1] of src (the source
                 bytes), code (and lines), consts, fn (function-table rows)
    BatchOutput  what the units write: code, lines, consts, fn at their regions, counts
                 (int64[n, 3]: instructions, constants, functions) and errs (one error
                 record per unit)

and on CUDA, where the launch preallocates every unit's scratch:

    ScratchRegions  per unit u, its regions [u] .. [u + 1] of the token, node and walk rows
    DeviceScratch   the launch's scratch: tok_rows, tok_val (unit_tokens), node_rows,
                    node_val (unit_tree, unit_types), walk, masks (walk rows), and one row
                    per unit of parse, locs and cg
"""

from __future__ import annotations

from collections import namedtuple

from numba.extending import register_jitable

from gpucc.contract.jitable import nrt_free

Tokens = namedtuple("Tokens", ("kind", "sub", "start", "end", "line", "val"))
Tree = namedtuple("Tree", ("kind", "op", "tok", "first", "next", "val"))
Types = namedtuple("Types", ("type", "slot", "fn"))
Output = namedtuple("Output", ("code", "lines", "consts", "cg"))
Scratch = namedtuple("Scratch", ("parse", "walk", "masks", "locs"))

# the type checker's view of the function it checks (scalars, fixed for one pass over it):
# the unit's function count, the function's local slots, its index (fn row: its return type),
# the bits of the locals checked as floats (typecheck.py's widening) and of the `[]` locals
# checked as list[str]
Scope = namedtuple("Scope", ("nf", "nloc", "f", "widen", "strs"))

Regions = namedtuple("Regions", ("src", "code", "consts", "fn"))
BatchOutput = namedtuple("BatchOutput", ("code", "lines", "consts", "fn", "counts", "errs"))
COUNT_CODE, COUNT_CONSTS, COUNT_FUNCTIONS = range(3)  # columns of BatchOutput.counts
ScratchRegions = namedtuple("ScratchRegions", ("tok", "node", "row"))
DeviceScratch = namedtuple("DeviceScratch", ("tok_rows", "tok_val", "node_rows", "node_val", "walk", "masks",
                                             "parse", "locs", "cg"))  # fmt: skip

# the error record
ERR_CODE, ERR_START, ERR_END, ERR_ARG, ERR_ARG2 = range(5)
ERR_WIDTH = 5


@nrt_free
def fail(err, code, start, end, arg):
    """Record an error: its code, the byte span [start, end) at fault and an argument for the
    message (compiler/errors.py).  The first error recorded wins; returns -1."""
    return fail_types(err, code, start, end, arg, 0)


@nrt_free
def fail_types(err, code, start, end, expected, got):
    """fail() with two arguments: the types of a mismatch (packed type codes), expected then got."""
    if err[ERR_CODE] == 0:
        err[ERR_CODE] = code
        err[ERR_START] = start
        err[ERR_END] = end
        err[ERR_ARG] = expected
        err[ERR_ARG2] = got
    return -1


@nrt_free
def clear_error(err):
    for j in range(ERR_WIDTH):
        err[j] = 0


@register_jitable
def unit_tokens(rows, val, lo, hi):
    """Tokens lo:hi of int32 rows (kind, sub, start, end, line) and int64 val."""
    return Tokens(rows[0, lo:hi], rows[1, lo:hi], rows[2, lo:hi], rows[3, lo:hi], rows[4, lo:hi], val[lo:hi])


@register_jitable
def unit_tree(rows, val, lo, hi):
    """Nodes lo:hi of int32 rows (kind, op, tok, first, next, type, slot) and int64 val."""
    return Tree(rows[0, lo:hi], rows[1, lo:hi], rows[2, lo:hi], rows[3, lo:hi], rows[4, lo:hi], val[lo:hi])


@register_jitable
def unit_types(rows, lo, hi, fn):
    """Types of nodes lo:hi (rows 5 and 6 of unit_tree's rows) with the function table fn."""
    return Types(rows[5, lo:hi], rows[6, lo:hi], fn)


TOKEN_ROWS = 5  # int32 rows of unit_tokens
NODE_ROWS = 7  # int32 rows of unit_tree and unit_types
