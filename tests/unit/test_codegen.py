"""Code generator: golden disassembly, verifier-clean output, and VM results == CPython.

Golden files live in tests/golden (NAME.py -> NAME.dis); regenerate them after an intended
change with GPUCC_UPDATE_GOLDEN=1 and review the diff.
"""

from __future__ import annotations

import ast
import os
import random
from pathlib import Path

import pytest

from compiler import compile_batch, compile_source
from vm import launch, opcodes
from vm.asm import make_jobs
from vm.disasm import disassemble
from vm.image import LaunchLimits, Program
from vm.status import LABELS
from vm.valuetypes import render
from vm.verify import verify

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


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
    ops = [opcodes.TABLE[o].name for o, _ in batch.code]
    assert ops.count("LOAD_CONST") == 3 and "UNARY_NEG" not in ops
    assert [tuple(x) for x in batch.code[-2:]] == [(opcodes.BINARY_SUB_INT, 7), (opcodes.RETURN, 0)]


def test_unreachable_code_is_not_emitted():
    batch, _ = build("def f(x: int) -> int:\n    return 1\n    x = 2\n    return x\n")
    assert [tuple(x) for x in batch.code] == [(opcodes.LOAD_INT, 1), (opcodes.RETURN, 0)]


def test_range_check_only_for_non_literal_steps():
    src = "def f(n: int, s: int) -> int:\n    t = 0\n    for i in range(0, n, {}):\n        t += i\n    return t\n"
    for step, expect in (("2", 0), ("-1", 0), ("s", 1), ("0", 1)):
        batch, _ = build(src.format(step))
        assert sum(int(o) == opcodes.RANGE_CHECK for o, _ in batch.code) == expect, step


def test_lines_follow_the_source():
    batch, _ = build("def f(x: int) -> int:\n    y = x * x\n\n    return y + 1\n")
    ops = [opcodes.TABLE[o].name for o, _ in batch.code]
    assert ops == ["LOAD_VAR2", "BINARY_MUL", "STORE_LOAD", "BINARY_ADD_INT", "RETURN"]
    assert list(batch.lines) == [2, 2, 2, 4, 4]  # STORE_LOAD y, y (lines 2 and 4) keeps the store's


def _ops(batch) -> list[str]:
    return [opcodes.TABLE[o].name for o, _ in batch.code]


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


class _Checked(ast.NodeTransformer):
    """Rewrite arithmetic so CPython raises OverflowError where the VM must (any int64
    overflow of an intermediate result), e.g. `a * b` -> `_chk(a * b)`."""

    def visit_BinOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Pow):
            node = ast.Call(ast.Name("_pow", ast.Load()), [node.left, node.right], [])
        return ast.Call(ast.Name("_chk", ast.Load()), [node], [])

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id in ("int", "abs"):  # int(1e19): past int64
            return ast.Call(ast.Name("_chk", ast.Load()), [node], [])
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.USub):
            return ast.Call(ast.Name("_chk", ast.Load()), [node], [])
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        value = ast.BinOp(ast.Name(node.target.id, ast.Load()), node.op, node.value)
        return ast.Assign([ast.Name(node.target.id, ast.Store())], self.visit_BinOp(value))


def _chk(v):
    if isinstance(v, complex):  # (-8) ** 0.5: gpucc raises ValueError
        raise ValueError
    if isinstance(v, int) and not isinstance(v, bool) and not INT64_MIN <= v <= INT64_MAX:
        raise OverflowError
    return v


def _pow(a, b):
    """gpucc's int ** negative int is a ValueError (CPython returns a float)."""
    if isinstance(a, int) and isinstance(b, int) and b < 0:
        raise ValueError
    return a**b


def cpython_outcome(namespace, fname, args) -> str:
    fn = namespace[fname]
    try:
        r = fn(*args)
        if fn.__annotations__.get("return") in (float, "float") and type(r) is int:
            r = float(r)  # gpucc converts an int where a float is declared (the numeric tower)
        return repr(r)
    except Exception as e:  # the kind is the outcome
        return type(e).__name__


def cpython_namespace(source: str) -> dict:
    tree = ast.fix_missing_locations(_Checked().visit(ast.parse(source)))
    namespace = {"_chk": _chk, "_pow": _pow}
    exec(compile(tree, "<oracle>", "exec"), namespace)
    return namespace


def vm_outcomes(sources, calls, backend="reference"):
    """calls: (unit, function name, args).  All sources compiled in one batch and every
    call run in one launch."""
    batch = compile_batch(sources)
    for u in range(len(sources)):
        assert batch.ok(u), str(batch.error(u))
    program = Program.from_batch(batch)
    gid = {(u, n): int(batch.func_start[u]) + i for u in range(len(sources)) for i, n in enumerate(batch.function_names(u))}
    jobs = make_jobs({}, [(gid[(u, f)], args) for u, f, args in calls])
    res = launch(program, jobs, backend, LaunchLimits(step_limit=200_000))
    out = []
    for j, (u, f, _) in enumerate(calls):
        status = int(res.status[j])
        out.append(render(int(res.value[j]), int(batch.func_ret_type[gid[(u, f)]])) if status == 0 else LABELS[status])
    return out


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


class _Gen:
    """Random well-typed programs over int/bool locals: expressions, if/elif/else, bounded
    loops with break/continue, augmented assignment, helper calls, asserts."""

    def __init__(self, seed: int):
        self.r = random.Random(seed)

    def int_expr(self, depth: int) -> str:
        r = self.r
        if depth <= 0 or r.random() < 0.3:
            return r.choice(["a", "b", "x", "y", str(r.randint(-9, 9)), "3000000000", "h(a, x)"])
        k = r.randrange(6)
        if k == 0:
            return f"-{self.int_expr(depth - 1)}"
        if k == 1:
            return f"({self.int_expr(depth - 1)} and {self.int_expr(depth - 1)})"
        op = r.choice(["+", "-", "*", "//", "%", "+", "-"])
        return f"({self.int_expr(depth - 1)} {op} {self.int_expr(depth - 1)})"

    def bool_expr(self, depth: int, truth: bool = False) -> str:
        """truth: only the truth value is used (mixed int/bool `and`/`or` allowed)."""
        r = self.r
        if depth <= 0 or r.random() < 0.2:
            return r.choice(["c", "True", "False", "p"])
        k = r.randrange(5)
        if k == 0:
            return f"not {self.bool_expr(depth - 1, True)}"
        if k == 1:
            return f"({self.bool_expr(depth - 1, truth)} {r.choice(['and', 'or'])} {self.bool_expr(depth - 1, truth)})"
        if k == 2 and truth:
            return f"({self.int_expr(depth - 1)} {r.choice(['and', 'or'])} {self.bool_expr(depth - 1, True)})"
        ops = [r.choice(["<", "<=", "==", "!=", ">", ">="]) for _ in range(r.randint(1, 3))]
        parts = [self.int_expr(depth - 1) for _ in range(len(ops) + 1)]
        return "(" + " ".join(p for pair in zip(parts, ops + [""]) for p in pair).strip() + ")"

    def block(self, indent: int, depth: int, in_loop: bool) -> list[str]:
        r, pad, out = self.r, "    " * indent, []
        for _ in range(r.randint(1, 3)):
            k = r.randrange(9 if depth > 0 else 4)
            if k == 0:
                out.append(f"{pad}x = {self.int_expr(2)}")
            elif k == 1:
                out.append(f"{pad}y {r.choice(['+=', '-=', '*=', '//=', '%='])} {self.int_expr(1)}")
            elif k == 2:
                out.append(f"{pad}c = {self.bool_expr(2)}")
            elif k == 3:
                out.append(f"{pad}assert {self.bool_expr(1, True)}")
                out.append(f"{pad}y = y + ({self.bool_expr(1)})")
            elif k == 4:
                out.append(f"{pad}if {self.bool_expr(2, True)}:")
                out += self.block(indent + 1, depth - 1, in_loop)
                if r.random() < 0.5:
                    out.append(f"{pad}elif {self.int_expr(1)}:")
                    out += self.block(indent + 1, depth - 1, in_loop)
                if r.random() < 0.5:
                    out.append(f"{pad}else:")
                    out += self.block(indent + 1, depth - 1, in_loop)
            elif k == 5:
                out.append(f"{pad}for i in range({r.choice(['3', 'b % 5', '-2, 4', 'x % 7, -3, -2'])}):")
                out += self.block(indent + 1, depth - 1, True)
                out.append(f"{pad}    x = x + i")
            elif k == 6:
                n = f"n{indent}"
                out.append(f"{pad}{n} = 0")
                out.append(f"{pad}while {n} < 4:")
                out.append(f"{pad}    {n} += 1")
                out += self.block(indent + 1, depth - 1, True)
            elif k == 7 and in_loop:
                out.append(f"{pad}if {self.bool_expr(1, True)}:")
                out.append(f"{pad}    {r.choice(['break', 'continue'])}")
            else:
                out.append(f"{pad}if {self.bool_expr(1, True)}:")
                out.append(f"{pad}    return {self.int_expr(2)}")
        return out

    def program(self) -> str:
        lines = ["def h(u: int, v: int) -> int:", "    return u * 3 - v // 2", ""]
        lines += ["def f(a: int, b: int, c: bool) -> int:", "    x = a", "    y = 1", "    p = a > b"]
        lines += self.block(1, 3, False)
        lines.append(f"    return {self.int_expr(2)}")
        return "\n".join(lines) + "\n"


def test_random_programs_match_cpython():
    args = [(0, 0, False), (3, -7, True), (-20, 5, False), (2**40, 3, True), (7, 7, True)]
    sources = [_Gen(seed).program() for seed in range(150)]
    calls, expected = [], []
    for u, src in enumerate(sources):
        ns = cpython_namespace(src)
        for a in args:
            calls.append((u, "f", a))
            expected.append(cpython_outcome(ns, "f", a))
    got = vm_outcomes(sources, calls, "cpu")
    mismatches = [(sources[u], a, e, g) for (u, _, a), e, g in zip(calls, expected, got) if e != g]
    assert not mismatches, mismatches[0]
