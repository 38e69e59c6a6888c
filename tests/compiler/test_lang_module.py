"""Module-level code (issue 12 item 6): constants, tables, statements and print at module level,
run once per job before the tests as CPython runs a module on import; each program run on the
VM (reference interpreter and CPU kernel) and compared with CPython; linked suites and
candidates with module code of their own; and what stays out."""

from __future__ import annotations

import pytest

from gpucc import vm
from gpucc.compiler.batch import compile_batch
from gpucc.contract import status as S
from gpucc.contract.image import Program
from gpucc.vm.link import SuiteLink, link
from tests.oracle.oracle import program_disagreements

PROGRAMS = {
    "constants": (
        "MOD = 10**9 + 7\nVOWELS = 'aeiou'\nPRIMES = [2, 3, 5]\nROMAN = [(1000, 'M'), (900, 'CM'), (500, 'D')]\n\n"
        "def f(n: int) -> int:\n    v = sum(1 for c in 'education' if c in VOWELS)\n"
        "    return (n * n) % MOD + v + PRIMES[n % 3] + ROMAN[n % 3][0] + len(ROMAN[1][1])\n",
        [(0,), (4,), (10**9,)],
    ),
    "statements": (
        "from typing import List\nimport typing\n\nTABLE = []\nfor i in range(5):\n    TABLE.append(i * i)\n"
        "if len(TABLE) > 3:\n    LIMIT = 100\nelse:\n    LIMIT = 0\nn_seen = 0\nwhile n_seen < 3:\n    n_seen += 1\n"
        "a, b = 1, 2\nprint('table', TABLE, a + b)\n\n"
        "def f(k: int) -> int:\n    return TABLE[k] + LIMIT + n_seen + a * 10 + b\n\n"
        "if __name__ == '__main__':\n    print(f(2))\n    x = input()\n",
        [(0,), (4,), (5,)],
    ),
    "helpers_at_module_level": (
        "def square(x: int) -> int:\n    return x * x\n\nSQUARES = [square(i) for i in range(6)]\n"
        "TOTAL = sum(SQUARES)\n\ndef f(i: int) -> int:\n    return SQUARES[i] * 1000 + TOTAL\n",
        [(2,), (5,), (6,)],
    ),
    "a_mutable_global": (
        "SEEN: list[int] = []\n\ndef note(x: int) -> None:\n    SEEN.append(x)\n\n"
        "def f(n: int) -> int:\n    for i in range(n):\n        note(i)\n    return len(SEEN) * 100 + sum(SEEN)\n",
        [(0,), (3,)],
    ),
    "assigning_makes_it_local": (  # CPython: a name assigned in a function is local there
        "X = 5\n\ndef f(n: int) -> int:\n    X = n + 1\n    return X * 2\n\ndef g() -> int:\n    return X\n",
        [(1,), (7,)],
    ),
    "module_code_raises": (
        "LIMIT = int('12')\nif LIMIT > 10:\n    CAP = 10\nelse:\n    raise ValueError('limit')\n\n"
        "def f(n: int) -> int:\n    return min(n, CAP)\n",
        [(3,), (30,)],
    ),
    "module_code_fails": (
        "XS = [1, 2]\nY = XS[5]\n\ndef f(n: int) -> int:\n    return n + Y\n",
        [(1,)],
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_module_code_matches_cpython(backend):
    assert program_disagreements(PROGRAMS, backend) == []


SUITE = """
def f(n: int) -> int:
    ...


BASE = 100


def test_f(n: int, want: int) -> None:
    assert f(n) + BASE == want + BASE
    assert OFFSETS[n] == n


OFFSETS = [i for i in range(5)]
"""


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_a_suite_and_its_candidates_each_run_their_module_code(backend):
    candidates = [
        "STEP = 3\n\ndef f(n: int) -> int:\n    return n * STEP\n",  # right
        "def f(n: int) -> int:\n    return n * 3\n",  # right, no module code
        "STEP = 2\n\ndef f(n: int) -> int:\n    return n * STEP\n",  # wrong
        "STEP = 3 // 0\n\ndef f(n: int) -> int:\n    return n * STEP\n",  # its module code fails
    ]
    batch = compile_batch([SUITE] + candidates)
    assert all(batch.ok(u) for u in range(len(batch))), [str(batch.error(u)) for u in range(len(batch))]
    program = Program.from_batch(batch)
    tests = [("test_f", [(0, 0), (2, 6), (4, 12)])]
    jobs = link(batch, program, [SuiteLink(0, tests, [1, 2, 3, 4])]).jobs
    results = vm.launch(program, jobs, backend)
    status = results.status.reshape(4, 3)
    assert (status[0] == S.OK).all() and (status[1] == S.OK).all()
    assert list(status[2]) == [S.OK, S.ASSERT_FAILED, S.ASSERT_FAILED]
    assert (status[3] == S.ZERO_DIVISION).all() and (results.fail_unit.reshape(4, 3)[3] == 4).all()
    assert results.cost.reshape(4, 3)[0, 0] > results.cost.reshape(4, 3)[1, 0]  # its module code is its cost


@pytest.mark.parametrize(
    "src, message",
    [
        ("import re\n\ndef f(n: int) -> int:\n    return n\n", "module 're' is not supported by gpucc"),
        ("from collections import OrderedDict\n\ndef f(n: int) -> int:\n    return n\n", "'OrderedDict' is not supported"),
        ("X = 1\nreturn X\n\ndef f(n: int) -> int:\n    return n\n", "'return' outside function"),
        ("def f(n: int) -> int:\n    return n + Y\n\nZ = f(1)\nY = 2\n",
         "module-level name 'Y' is read by a function but not assigned by module code before its first call"),
        ("def f(n: int) -> int:\n    return n + W\n", "name 'W' is not defined"),
        ("X = 1\n\ndef f(n: int) -> int:\n    global X\n    X = n\n    return X\n", "'global' is not supported"),
    ],
)  # fmt: skip
def test_what_stays_out_is_located(src, message):
    batch = compile_batch([src])
    assert not batch.ok(0)
    assert message in str(batch.error(0)), str(batch.error(0))


def test_the_verifier_and_the_vm_check_globals_and_module_ends():
    from gpucc.contract import isa
    from gpucc.vm.asm import make_jobs
    from gpucc.vm.verify import verify

    src = "X = 40\n\ndef f(n: int) -> int:\n    return n + X\n"
    batch = compile_batch([src])
    program = Program.from_batch(batch)
    assert verify(program) == [] and list(batch.function_names(0)) == ["f", "<module>"]
    jobs = make_jobs({}, [(0, (2,))])
    assert vm.launch(program, jobs, "reference").value[0] == 42
    ops = [int(op) for op, _ in program.code]
    load = ops.index(isa.LOAD_GLOBAL)
    program.code[load, 1] = 1  # the module code has one local: X
    assert any("LOAD_GLOBAL operand 1 is out of range" in p for p in verify(program))
    program.code[load] = (isa.MODULE_END, 0)  # module code's end in a function: no job runs past it
    for backend in ("reference", "cpu"):
        assert vm.launch(program, jobs, backend).status[0] == S.INVALID_BYTECODE
