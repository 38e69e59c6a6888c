"""Static types of gpucc values: one table shared by the compiler, the VM and the reports.

Every value lives in one int64 slot: ints as themselves, bools as 0/1, floats as the bits
of their IEEE double (vm.floats.f2b / b2f convert), lists and strs as handles into the job's
heap (a str is a list of code points, vm/kernel_heap.py).
"""

from __future__ import annotations

import struct

# number order is the table order; name as written in annotations
_ROWS = ["None", "int", "bool", "float", "list[int]", "list[float]", "str", "list[str]"]

T_NONE, T_INT, T_BOOL, T_FLOAT, T_LIST_INT, T_LIST_FLOAT, T_STR, T_LIST_STR = range(len(_ROWS))
TYPE_NAMES = tuple(_ROWS)
# T_ERROR marks an expression whose type could not be computed (compile errors only).
T_ERROR = 99


def render(value: int, type_code: int) -> str:
    """Python repr of a slot value of the given type; a list (whose elements a slot cannot
    show: failing asserts record a list operand's length) as ``<list of N>``."""
    if type_code in (T_LIST_INT, T_LIST_FLOAT, T_LIST_STR):
        return f"<list of {int(value)}>"
    if type_code == T_STR:
        return f"<str of {int(value)}>"
    if type_code == T_BOOL:
        return "True" if value else "False"
    if type_code == T_NONE:
        return "None"
    if type_code == T_FLOAT:
        return repr(bits_to_float(value))
    return str(int(value))


def float_to_bits(x: float) -> int:
    """The int64 slot value of a float (its IEEE double bits)."""
    return struct.unpack("<q", struct.pack("<d", float(x)))[0]


def bits_to_float(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<q", int(bits)))[0]


def slot_value(v) -> int:
    """The int64 slot holding Python value v (int, bool or float)."""
    return float_to_bits(v) if isinstance(v, float) else int(v)
