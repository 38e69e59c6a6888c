"""One unit through every phase: `compile_unit`, the kernel body both launchers run on the
bundles (compiler/arrays.py) they build from per-unit slices: compiler/batch.py once per
prange iteration, compiler/cuda_batch.py once per thread.

Also what the launchers size a unit's arrays with (the capacity formulas as jittable
functions, the parser's scratch) and the fingerprint of the sources their bodies compile from.
"""

from __future__ import annotations

from numba.extending import register_jitable

from gpucc.compiler import limits
from gpucc.compiler.arrays import clear_error
from gpucc.compiler.codegen import codegen
from gpucc.compiler.lexer import lex
from gpucc.compiler.parser import parse, scratch_size
from gpucc.compiler.typecheck import typecheck
from gpucc.contract.cachekey import source_fingerprint
from gpucc.contract.jitable import nrt_free

PARSER_SCRATCH = scratch_size(0)

# numba's cache only watches a launcher's own file: the launchers close over a fingerprint of
# every module their body may be compiled from (numba hashes closure variables into the key).
FINGERPRINT = source_fingerprint("compiler/*.py", "contract/*.py")

# jittable capacity formulas (same functions as the host uses)
token_capacity = register_jitable(limits.token_capacity)
node_capacity = register_jitable(limits.node_capacity)


@nrt_free
def compile_unit(buf, lo, hi, toks, tree, types, out, scratch, err):
    """All phases for the source buf[lo:hi] on the unit's bundles (sizes: limits.py
    capacities, PARSER_SCRATCH, typecheck.scratch_rows).  Returns the number of functions
    (instructions: out.cg[CG_PC], constants: out.cg[CG_NCONST]), or -1 with err set."""
    clear_error(err)
    n_tok = lex(buf, lo, hi, toks, err)
    if n_tok < 0:
        return -1
    src = buf[lo:hi]
    n_nodes = parse(src, toks, n_tok, tree, scratch.parse, err)
    if n_nodes < 0:
        return -1
    nf = typecheck(src, toks, tree, n_nodes, types, scratch, err)
    if nf < 0:
        return -1
    if codegen(src, toks, tree, types, nf, out, scratch, err) < 0:
        return -1
    return nf
