"""Static types of gpucc values: one table shared by the compiler, the VM and the reports.

Every value lives in one int64 slot: ints as themselves, bools as 0/1.
"""

from __future__ import annotations

# number order is the table order; name as written in annotations
_ROWS = ["None", "int", "bool"]

T_NONE, T_INT, T_BOOL = range(len(_ROWS))
TYPE_NAMES = tuple(_ROWS)
# T_ERROR marks an expression whose type could not be computed (compile errors only).
T_ERROR = 99


def render(value: int, type_code: int) -> str:
    """Python repr of a slot value of the given type."""
    if type_code == T_BOOL:
        return "True" if value else "False"
    if type_code == T_NONE:
        return "None"
    return str(int(value))
