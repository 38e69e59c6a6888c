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
    """Upper bound on AST nodes for a source of n_bytes."""
    return 2 * n_bytes + 16


def code_capacity(n_bytes: int) -> int:
    """Upper bound on emitted instructions for a source of n_bytes."""
    return 4 * n_bytes + 64


def const_capacity(n_bytes: int) -> int:
    """Upper bound on constant-pool entries for a source of n_bytes: an int or float constant
    comes from a literal of at least 2 bytes, a str literal of n code points (n + 1 entries)
    from at least n + 2 bytes (its quotes), and identical ones share their entries."""
    return min(MAX_CONSTS, n_bytes + 1)
