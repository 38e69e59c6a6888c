"""Desugaring, collections.defaultdict and Counter() (a part of compiler/desugar.py's pass;
kernel bodies):

    defaultdict(f)               an empty DICT display marked with its factory f (tree.val
                                 DD_MARK - f: typecheck_defaultdict.display_type types it)
    Counter()                    an empty DICT display marked COUNTER_MARK (a Counter)

f is a name among typecheck_defaultdict.FACTORIES (int, float, bool, str, list, set, dict);
any other argument, more than one or none is a located error (C_DEFAULTDICT_FORM).
"""

from __future__ import annotations

from gpucc.compiler import errors
from gpucc.compiler.desugar_folds import called_member
from gpucc.compiler.errors import E_UNSUPPORTED
from gpucc.compiler.modules import COUNTER_MEMBER, DEFAULTDICT_MEMBER
from gpucc.compiler.nodes import N_NAME
from gpucc.compiler.parser_util import fail_tok
from gpucc.compiler.scope import table_index
from gpucc.compiler.typecheck_defaultdict import COUNTER_MARK, DD_MARK, FACTORY_BYTES, FACTORY_LENS, made_empty
from gpucc.contract.jitable import nrt_free


@nrt_free
def is_collections_call(src, toks, tree, n):
    """Whether node n calls defaultdict, or Counter without arguments."""
    k, a = called_member(src, toks, tree, n)
    return k == DEFAULTDICT_MEMBER or (k == COUNTER_MEMBER and a == -1)


@nrt_free
def collections_call(src, toks, tree, n, err):
    """CALL (or METHOD) n of defaultdict or Counter made its marked display.  0, or -1 with
    err set."""
    k, a = called_member(src, toks, tree, n)
    if k == COUNTER_MEMBER:
        return made_empty(tree, n, COUNTER_MARK)
    f = -1
    if a != -1 and tree.kind[a] == N_NAME and tree.next[a] == -1:
        t = tree.tok[a]
        f = table_index(src, toks.start[t], toks.end[t], FACTORY_BYTES, FACTORY_LENS)
    if f < 0:
        return fail_tok(err, toks, tree.tok[n], tree.tok[n], E_UNSUPPORTED, errors.C_DEFAULTDICT_FORM)
    return made_empty(tree, n, DD_MARK - f)
