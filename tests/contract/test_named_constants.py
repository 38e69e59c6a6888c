"""The table modules' constants are plain assignments (grep and go-to-definition find them);
each must equal its row's position in the table.  On a mismatch the test prints the block to
paste in place of the old one."""

from __future__ import annotations

import pytest

from gpucc.compiler import errors, nodes, tokens
from gpucc.contract import isa, status
from gpucc.vm import verify

# module, [(name, value)] as the table says
TABLES = {
    "contract/opcodes.py": (isa, [(op.name, op.number) for op in isa.TABLE]),
    "contract/status.py": (status, [(name, i) for i, name in enumerate(status.NAMES)]),
    "compiler/tokens.py keywords": (tokens, [("KW_" + k.upper(), i) for i, k in enumerate(tokens.KEYWORDS)]),
    "compiler/tokens.py operators": (
        tokens,
        [("OP_" + tokens._OP_IDENT[o], i) for i, o in enumerate(tokens.OPERATORS)],
    ),
    "compiler/errors.py constructs": (errors, [(ident, i) for i, (ident, _) in enumerate(errors._CONSTRUCT_ROWS)]),
    "compiler/errors.py codes": (errors, [(name, i) for i, name in enumerate(errors.NAMES)]),
    "compiler/nodes.py": (nodes, [("N_" + k, i) for i, k in enumerate(nodes.KIND_NAMES)]),
    "vm/verify.py problems": (verify, [(name, i) for i, name in enumerate(verify.PROBLEM_NAMES)]),
}


@pytest.mark.parametrize("where", TABLES)
def test_plain_names_equal_the_table(where):
    module, rows = TABLES[where]
    wrong = [name for name, value in rows if getattr(module, name, None) != value]
    block = "\n".join(f"{name} = {value}" for name, value in rows)
    assert not wrong, f"{where}: {wrong} differ from the table; the names should read:\n{block}"


def test_no_module_fills_its_namespace_at_run_time():
    """No `globals().update(...)`: a name a module uses is written where it is defined."""
    from pathlib import Path

    root = Path(isa.__file__).resolve().parent.parent
    offenders = [str(p.relative_to(root)) for d in ("compiler", "vm", "contract", "neural")
                 for p in (root / d).glob("*.py") if "globals().update" in p.read_text()]  # fmt: skip
    assert offenders == []
