"""The kernel's functions that take the job's arrays are compiled without numba's reference
counting (contract.jitable.nrt_free): with it, every call increfs and decrefs each array argument
atomically, which made every heap instruction (through kernel_frames.heap_op) about twice as slow
(benchmarks/RESULTS.md, "List code three times slower than before issue 12")."""

from __future__ import annotations

import ast
from pathlib import Path

VM = Path(__file__).resolve().parents[2] / "vm"
JOB_ARRAYS = {"stack", "heap", "walk", "consts", "frames", "buf", "scratch", "s"}  # s: a bigdecimal
# none: run_job too, whose reference counting increfed and decrefed every array of its four
# bundles once per job (empty jobs 1.8x fec3820's time, benchmarks/RESULTS.md, session 26)
WITH_NRT: set[str] = set()


def kernel_functions():
    for path in sorted([*VM.glob("kernel*.py"), VM / "strconv.py", VM / "bigdecimal.py"]):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and node.decorator_list:
                yield path.name, node


def test_functions_taking_job_arrays_are_nrt_free():
    with_nrt = sorted(
        f"{name}:{fn.name}"
        for name, fn in kernel_functions()
        if {a.arg for a in fn.args.args} & JOB_ARRAYS
        and any(ast.unparse(d) == "register_jitable" for d in fn.decorator_list)
        and fn.name not in WITH_NRT
    )
    assert with_nrt == [], "compile these with contract.jitable.nrt_free (they allocate nothing)"


def test_the_scan_sees_the_heap_instructions():
    names = {fn.name: [ast.unparse(d) for d in fn.decorator_list] for _, fn in kernel_functions()}
    heap_instructions = ("heap_op", "list_op", "list_access", "str_op", "dict_op", "value_op", "math_op")
    for name in (*heap_instructions, "int_repr", "dec_shift", "run_job", "arguments", "operands"):
        assert names[name] == ["nrt_free"], name
