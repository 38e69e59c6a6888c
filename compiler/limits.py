"""Fixed capacities of the compiler kernels (they allocate nothing, so sizes are set here)."""

from gpucc.contract.limits import MAX_PARAMS  # noqa: F401 - re-exported

MAX_LOCALS = 64  # slots per function, parameters and hidden loop slots included
MAX_FUNCTIONS = 64  # functions per source
MAX_CONSTS = 1 << 15  # constant-pool entries per source (a str literal takes 1 + its code points)
MAX_NESTING = 64  # block / operator / traversal stack depth
MAX_INDENT = 32  # indentation levels


def token_capacity(n_bytes: int) -> int:
    """Upper bound on tokens (plus INDENT/DEDENT/NEWLINE/END) for a source of n_bytes."""
    return n_bytes + 2 * MAX_INDENT + 8


def node_capacity(n_bytes: int) -> int:
    """Upper bound on AST nodes for a source of n_bytes (compiler/desugar.py's rewrites
    included: a few dozen nodes each, from at least a dozen bytes)."""
    return 2 * n_bytes + 128


def code_capacity(n_bytes: int) -> int:
    """Upper bound on emitted instructions for a source of n_bytes."""
    return 4 * n_bytes + 64


def const_capacity(source: bytes) -> int:
    """Upper bound on constant-pool entries for a source: one per float literal (each has a
    '.', an 'e' or an 'E'), one per int too wide for an immediate (at least ten digits, so a
    tenth of the bytes), and its strs, which lie between its first and last quote (a str
    literal of n code points takes n + 1 entries and at least n + 2 bytes).  A tight bound
    matters: the launch allocates it for every unit, and touching a buffer of one word per
    byte made batch compilation 1.3x slower on one thread and 3x on two."""
    first = min((i for i in (source.find(b"'"), source.find(b'"')) if i >= 0), default=-1)
    strs = max(source.rfind(b"'"), source.rfind(b'"')) - first + 1 if first >= 0 else 0
    floats = source.count(b".") + source.count(b"e") + source.count(b"E")
    return min(MAX_CONSTS, floats + len(source) // 10 + 1 + strs)
