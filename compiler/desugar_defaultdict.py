"""Desugaring, collections.defaultdict (a part of compiler/desugar.py's pass; kernel bodies):

    defaultdict(f)               an empty DICT display marked with its factory f (tree.val
                                 DD_MARK - f: typecheck_defaultdict.display_type types it)

f is a name among typecheck_defaultdict.FACTORIES (int, float, bool, str, list, set, dict);
any other argument, or more than one, is a located error (C_DEFAULTDICT_FORM), as is
defaultdict() without one (typecheck_import.desugared_left).
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.desugar_folds import desugared_call
from gpucc.compiler.errors import E_UNSUPPORTED
from gpucc.compiler.modules import DEFAULTDICT_MEMBER
from gpucc.compiler.nodes import N_DICT, N_NAME
from gpucc.compiler.parser_util import fail_tok
from gpucc.compiler.scope import table_index
from gpucc.compiler.typecheck_defaultdict import DD_MARK, FACTORY_BYTES, FACTORY_LENS
from gpucc.contract.jitable import nrt_free


@nrt_free
def is_defaultdict_call(src, toks, tree, n):
    return desugared_call(src, toks, tree, n)[0] == DEFAULTDICT_MEMBER


@nrt_free
def defaultdict_call(src, toks, tree, n, err):
    """CALL (or METHOD) n of defaultdict made its marked display.  0, or -1 with err set."""
    a = desugared_call(src, toks, tree, n)[1]
    f = -1
    if tree.kind[a] == N_NAME and tree.next[a] == -1:
        t = tree.tok[a]
        f = table_index(src, toks.start[t], toks.end[t], FACTORY_BYTES, FACTORY_LENS)
    if f < 0:
        return fail_tok(err, toks, tree.tok[n], tree.tok[n], E_UNSUPPORTED, errors.C_DEFAULTDICT_FORM)
    tree.kind[n] = N_DICT
    tree.first[n] = -1
    tree.val[n] = DD_MARK - f
    return 0
