"""Fixed capacities of the compiler kernels (they allocate nothing, so sizes are set here)."""

from gpucc.contract.limits import MAX_PARAMS  # noqa: F401 - re-exported

MAX_LOCALS = 64  # slots per function, parameters and hidden loop slots included
MAX_FUNCTIONS = 64  # functions per source
MAX_CONSTS = 256  # constant-pool entries per source
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
