"""Code generator: golden disassembly, verifier-clean output, and VM results == CPython.

Golden files live in tests/golden (NAME.py -> NAME.dis); regenerate them after an intended
change with GPUCC_UPDATE_GOLDEN=1 and review the diff.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from gpucc.compiler import compile_source
from gpucc.contract import isa
from gpucc.contract.image import Program
from gpucc.neural.gen import INT64_MAX, INT64_MIN, ProgramGen
from gpucc.vm.disasm import disassemble
from gpucc.vm.verify import verify
from tests.oracle.oracle import cpython_namespace, cpython_outcome, disagreements, vm_outcomes

GOLDEN = Path(__file__).resolve().parent.parent / "golden"


def build(source: str):
    batch = compile_source(source)
    assert batch.ok(0), str(batch.error(0))
    return batch, Program.from_batch(batch)


@pytest.mark.parametrize("name", sorted(p.stem for p in GOLDEN.glob("*.py")))
def test_golden_disassembly(name):
    batch, program = build((GOLDEN / f"{name}.py").read_text())
    names = dict(enumerate(batch.function_names(0)))
    text = disassemble(program, names=names)
    golden = GOLDEN / f"{name}.dis"
    if os.environ.get("GPUCC_UPDATE_GOLDEN"):
        golden.write_text(text)
    assert text == golden.read_text()


@pytest.mark.parametrize("name", sorted(p.stem for p in GOLDEN.glob("*.py")))
def test_output_verifies_with_tight_max_stack(name):
    _, program = build((GOLDEN / f"{name}.py").read_text())
    assert verify(program) == []
    for g in range(len(program.func_entry)):  # one slot less than max_stack is too little
        if program.func_import[g] < 0:
            program.func_max_stack[g] -= 1
            assert verify(program) != []
            program.func_max_stack[g] += 1


def test_literals_pool_and_folding():
    src = "def f() -> int:\n    a = 3000000000\n    b = -3000000000\n    c = 3000000000\n    return a + b + c - 7\n"
    batch, program = build(src)
    assert list(batch.consts) == [3000000000, -3000000000]  # deduplicated, negatives folded
    ops = [isa.TABLE[o].name for o, _ in batch.code]
    assert ops.count("LOAD_CONST") == 3 and "UNARY_NEG" not in ops
    assert [tuple(x) for x in batch.code[-2:]] == [(isa.BINARY_SUB_INT, 7), (isa.RETURN, 0)]


def test_unreachable_code_is_not_emitted():
    batch, _ = build("def f(x: int) -> int:\n    return 1\n    x = 2\n    return x\n")
    assert [tuple(x) for x in batch.code] == [(isa.LOAD_INT, 1), (isa.RETURN, 0)]


# functions whose end is reachable (CPython returns None there)
FELL_OFF_ENDS = [
    "def f(c: bool) -> int:\n    if c:\n        return 1\n",
    "def f() -> int:\n    while True:\n        break\n",
    "def f(n: int) -> int:\n    for i in range(n):\n        return i\n",
    'def f() -> int:\n    """only a docstring"""\n',
]


@pytest.mark.parametrize("source", FELL_OFF_ENDS)
def test_a_typed_function_whose_end_is_reachable_ends_with_fell_off_on_its_def_line(source):
    batch, program = build(source)
    assert tuple(batch.code[-1]) == (isa.FELL_OFF, 0) and batch.lines[-1] == 1
    assert verify(program) == []


def test_no_fell_off_where_the_end_is_unreachable_or_the_function_returns_none():
    closed = "def f(c: bool) -> int:\n    if c:\n        return 1\n    else:\n        return 2\n"
    loop = "def f() -> int:\n    while True:\n        return 3\n"
    for source in (closed, loop):
        assert isa.FELL_OFF not in [op for op, _ in build(source)[0].code]
    batch, _ = build("def f(c: bool) -> None:\n    if c:\n        return\n")
    assert [tuple(x) for x in batch.code[-2:]] == [(isa.LOAD_INT, 0), (isa.RETURN, 0)]


def test_range_check_only_for_non_literal_steps():
    src = "def f(n: int, s: int) -> int:\n    t = 0\n    for i in range(0, n, {}):\n        t += i\n    return t\n"
    for step, expect in (("2", 0), ("-1", 0), ("s", 1), ("0", 1)):
        batch, _ = build(src.format(step))
        assert sum(int(o) == isa.RANGE_CHECK for o, _ in batch.code) == expect, step


def test_lines_follow_the_source():
    batch, _ = build("def f(x: int) -> int:\n    y = x * x\n\n    return y + 1\n")
    ops = [isa.TABLE[o].name for o, _ in batch.code]
    assert ops == ["LOAD_VAR2", "BINARY_MUL", "STORE_LOAD", "BINARY_ADD_INT", "RETURN"]
    assert list(batch.lines) == [2, 2, 2, 4, 4]  # STORE_LOAD y, y (lines 2 and 4) keeps the store's


def _ops(batch) -> list[str]:
    return [isa.TABLE[o].name for o, _ in batch.code]


def test_superinstructions_never_swallow_a_jump_target():
    # `a and b`: the JUMP_IF_FALSE_OR_POP lands on RETURN, so LOAD_VAR b; RETURN stays apart
    batch, _ = build("def f(a: int, b: int) -> int:\n    return a and b\n")
    assert _ops(batch) == ["LOAD_VAR", "JUMP_IF_FALSE_OR_POP", "LOAD_VAR", "RETURN"]
    batch, _ = build("def f(a: int, b: int) -> int:\n    return b\n")
    assert _ops(batch) == ["RETURN_VAR"]


def test_loops_test_at_the_bottom_and_branch_on_conditions():
    src = ("def f(n: int) -> int:\n    t = 0\n    for i in range(n):\n        if i > 3 and not i == 7:\n"
           "            continue\n        t += 2\n    while t < n or t == 1:\n        t = t * 3\n    return t\n")
    batch, _ = build(src)
    ops = _ops(batch)
    assert ops.count("FOR_LOOP") == 1 and "FOR_RANGE" not in ops  # one test per iteration
    assert ops.count("JUMP") == 2  # into each loop's test, once
    assert not {"COMPARE_GT", "COMPARE_EQ", "UNARY_NOT", "JUMP_IF_FALSE_OR_POP"} & set(ops)  # branches, no values
    assert ops[-1] == "RETURN_VAR" and "ADD_TO_VAR" in ops


@pytest.mark.parametrize("k", [32767, 32768, -32768, -32769, 2**31 - 1])
def test_packed_immediates_only_when_they_fit(k):
    src = f"def f(x: int) -> int:\n    y = x - {k}\n    x += {k}\n    if x < {k}:\n        return y\n    return x * {k}\n"
    batch, _ = build(src)
    ops = _ops(batch)
    fits = -(2**15) <= k < 2**15
    assert ("VAR_SUB_INT" in ops) == fits and ("JUMP_IF_NOT_LT_INT" in ops) == fits
    assert ("ADD_TO_VAR" in ops) == fits  # x += k
    ns = cpython_namespace(src)
    args = [(0,), (k,), (-k,), (2**40,), (INT64_MAX,)]
    assert vm_outcomes([src], [(0, "f", a) for a in args], "cpu") == [cpython_outcome(ns, "f", a) for a in args]


def test_huge_functions_fall_back_where_jump_targets_do_not_fit_16_bits():
    src = ("def f(n: int) -> int:\n    t = n\n" + "    t = (t * 3 + n) % 1000003\n" * 8300 +
           "    for i in range(n):\n        if t == 5:\n            continue\n        t += i\n"
           "    while t > 7:\n        t = t // 3\n    return t\n")  # fmt: skip
    batch, program = build(src)  # the loop starts past 65535 instructions (before fusing)
    assert verify(program) == []
    tail = _ops(batch)[-20:]
    assert "FOR_RANGE" in tail and "FOR_LOOP" not in tail and "JUMP_IF_NOT_NE_INT" not in tail
    ns = cpython_namespace(src)
    args = [(0,), (3,), (10,)]
    assert vm_outcomes([src], [(0, "f", a) for a in args], "cpu") == [cpython_outcome(ns, "f", a) for a in args]


def test_code_too_long_for_the_peephole_scratch_is_left_unfused():
    src = "def f(a: int, b: int) -> bool:\n    return a" + "<b" * 300 + "\n"  # 2.5 instructions per byte
    batch, program = build(src)
    assert "LOAD_VAR2" not in _ops(batch) and verify(program) == []
    ns = cpython_namespace(src)
    args = [(1, 2), (2, 1)]
    assert vm_outcomes([src], [(0, "f", a) for a in args], "cpu") == [cpython_outcome(ns, "f", a) for a in args]


# ---------------------------------------------------------------- VM result == CPython


PROGRAMS = {
    "arith": (
        "def f(a: int, b: int) -> int:\n    return a // b + a % b * 3 - -a\n",
        [(7, 2), (-7, 2), (7, -2), (-7, -2), (0, 5), (5, 0), (INT64_MIN, -1), (INT64_MAX, 1), (2**40, 2**30)],
    ),
    "bools": (
        "def f(a: bool, b: bool) -> int:\n    return a + b * 2 + -a + +b + (not a) * 10\n",
        [(False, False), (True, False), (False, True), (True, True)],
    ),
    "unary_bool": ("def f(a: bool) -> int:\n    return +a\n", [(True,), (False,)]),
    "boolop_values": (
        "def f(a: int, b: int) -> int:\n    return a and b or a - b\n",
        [(0, 0), (0, 3), (2, 0), (2, 3), (-1, -1)],
    ),
    "short_circuit": (
        "def f(a: int) -> bool:\n    return a != 0 and 10 // a > 1 or a == 0\n",
        [(0,), (1,), (20,), (-3,)],
    ),
    "mixed_truth": (
        "def f(n: int, flag: bool) -> int:\n    if n and flag or not n and not flag:\n        return 1\n    return 0\n",
        [(0, False), (0, True), (3, False), (3, True)],
    ),
    "chain": (
        "def f(a: int, b: int, c: int) -> bool:\n    return a < b <= c != a\n",
        [(1, 2, 3), (1, 2, 2), (2, 1, 3), (1, 1, 1), (3, 4, 3), (-1, 0, 0)],
    ),
    "chain_calls_once": (
        "def g(x: int) -> int:\n    assert x < 100\n    return x * 2\n\n"
        "def f(a: int) -> bool:\n    return 0 < g(a) < g(a + 40) < 150\n",
        [(1,), (30,), (0,), (60,)],
    ),
    "loops": ((GOLDEN / "loops.py").read_text(), [(0,), (1,), (7,), (30,), (100,)], "loops"),
    "gcd": ((GOLDEN / "gcd.py").read_text(), [(12, 18), (17, 5), (0, 9), (9, 0), (-12, 18)], "gcd"),
    "fib": ((GOLDEN / "fib.py").read_text(), [(0,), (1,), (10,), (18,)], "fib", "is_even"),
    "ranges": (
        "def f(a: int, b: int, s: int) -> int:\n    t = 0\n    for i in range(a, b, s):\n        t = t * 3 + i\n    return t\n",
        [(0, 10, 1), (10, 0, -3), (0, 10, 0), (5, 5, 1), (-5, 5, 4), (0, 3, -1)],
    ),
    "range_overflow_end": (
        "def f(a: int) -> int:\n    n = 0\n    for i in range(a, 9223372036854775807, 4611686018427387904):\n        n += 1\n    return n\n",
        [(0,), (INT64_MAX - 1,)],
    ),
    "loop_var_after_loop": (
        "def f(n: int) -> int:\n    i = -1\n    for i in range(n):\n        pass\n    return i\n",
        [(0,), (4,)],
    ),
    "asserts": (
        "def f(x: int, ok: bool) -> int:\n    assert x >= 0\n    assert ok == True\n    assert 0 < x < 100\n    return x\n",
        [(5, True), (-1, True), (5, False), (0, True), (100, True)],
    ),
    "overflow": (
        "def f(a: int, b: int) -> int:\n    x = a * b\n    x += 1\n    return x - 1\n",
        [(2**31, 2**31), (2**32, 2**31), (INT64_MAX, 1), (-(2**62), 2), (-(2**62), -2)],
    ),
    "while_else_paths": (
        "def f(n: int) -> int:\n    while True:\n        if n > 100:\n            r = n\n            break\n"
        "        n = n * 2 + 1\n    return r\n",
        [(0,), (50,), (101,)],
    ),
    "fell_off": (
        "def g(c: bool) -> int:\n    if c:\n        return 1\n\ndef f(a: int) -> int:\n    return g(a > 0) + 1\n"
        "\ndef h(a: int) -> float:\n    for i in range(a):\n        return 0.5\n",
        [(1,), (0,)],
        "f",
        "h",
    ),
    "none_function": (
        "def check(x: int) -> None:\n    assert x != 3\n\ndef f(x: int) -> int:\n    check(x)\n    return x\n\n"
        "def g(x: int) -> None:\n    if x > 0:\n        return\n    return check(x)\n",
        [(1,), (3,)],
        "f",
        "g",
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_vm_matches_cpython(backend):
    """PROGRAMS: name -> (source, argument tuples, functions to call (default f))."""
    sources, calls, expected = [], [], []
    for u, (src, cases, *fnames) in enumerate(PROGRAMS.values()):
        sources.append(src)
        ns = cpython_namespace(src)
        for fname in fnames or ["f"]:
            for args in cases:
                calls.append((u, fname, args))
                expected.append(cpython_outcome(ns, fname, args))
    assert vm_outcomes(sources, calls, backend) == expected


# ---------------------------------------------------------------- random programs


def test_random_programs_match_cpython():
    """A fixed sample of neural/gen.py programs; tests/compiler/test_differential.py draws
    more with hypothesis, and benchmarks/fuzz_differential.py is the long run."""
    programs = [ProgramGen(seed).program() for seed in range(150)]
    r = random.Random(0)
    calls = [(u, p.entry, args) for u, p in enumerate(programs) for args in p.inputs(r, 5)]
    mismatches = disagreements([p.source for p in programs], calls, "cpu")
    assert not mismatches, mismatches[0]
