"""raise and try / except / else / finally: each program run on the VM (reference interpreter and
CPU kernel) and compared with CPython running the same source, exception kinds included; and
what no program catches (contract.status.catchable)."""

from __future__ import annotations

import pytest

from gpucc.compiler.batch import compile_batch
from gpucc.contract.image import Program
from gpucc.vm.disasm import disassemble
from tests.oracle.oracle import program_disagreements

RAISES = {
    "raise_each": (  # every class a raise may name, with and without a message
        "def f(k: int) -> int:\n    if k == 0:\n        raise ValueError('bad k')\n    if k == 1:\n        raise IndexError\n"
        "    if k == 2:\n        raise KeyError(k)\n    if k == 3:\n        raise ZeroDivisionError()\n"
        "    if k == 4:\n        raise TypeError('k', 4)\n    if k == 5:\n        raise OverflowError\n"
        "    if k == 6:\n        raise AssertionError('no')\n    if k == 7:\n        raise RuntimeError\n"
        "    if k == 8:\n        raise NotImplementedError('later')\n    if k == 9:\n        raise Exception('any')\n"
        "    return k\n",
        [(k,) for k in range(11)],
    ),
    "message_evaluated": (  # CPython evaluates the message first: its own error wins
        "def f(n: int) -> int:\n    if n < 5:\n        raise ValueError(str(10 // n) + 'x')\n    return n\n",
        [(0,), (2,), (7,)],
    ),
    "raise_in_helper": (
        "def check(xs: list[int], i: int) -> int:\n    if i >= len(xs):\n        raise IndexError('past the end')\n"
        "    return xs[i]\n\ndef f(xs: list[int], i: int) -> int:\n    return check(xs, i) * 2\n",
        [([1, 2], 1), ([1, 2], 2), ([], 0)],
    ),
    "procedure_raises": (
        "def need(ok: bool) -> None:\n    if not ok:\n        raise RuntimeError('no')\n\n"
        "def f(n: int) -> int:\n    need(n > 0)\n    return n\n",
        [(1,), (0,)],
    ),
}

CATCHES = {
    "int_of_str": (
        "def f(s: str) -> int:\n    try:\n        return int(s)\n    except ValueError:\n        return -1\n",
        [("12",), (" 7 ",), ("x",), ("",), ("1_0",)],
    ),
    "index_and_zero": (
        "def f(xs: list[int], i: int) -> int:\n    try:\n        v = 100 // xs[i]\n"
        "    except IndexError:\n        v = -1\n    except ZeroDivisionError:\n        v = -2\n    return v\n",
        [([5, 0], 0), ([5, 0], 1), ([5, 0], 2), ([], 0)],
    ),
    "tuple_of_classes_and_as": (
        "def f(xs: list[int], i: int) -> int:\n    try:\n        return 10 // xs[i]\n"
        "    except (IndexError, ZeroDivisionError) as e:\n        if i > 5:\n            raise e\n        return -1\n",
        [([2], 0), ([0], 0), ([2], 3), ([2], 9)],
    ),
    "unmatched_goes_on": (
        "def f(s: str, i: int) -> int:\n    try:\n        return int(s[i])\n    except ValueError:\n        return -1\n",
        [("12", 1), ("a", 0), ("1", 5)],
    ),
    "across_calls": (
        "def g(n: int) -> int:\n    if n == 3:\n        raise KeyError(n)\n    return 100 // n\n\n"
        "def f(n: int) -> int:\n    total = 0\n    for i in range(n):\n        try:\n            total += g(i)\n"
        "        except ZeroDivisionError:\n            total += 1000\n        except LookupError:\n            total -= 1\n"
        "    return total\n",
        [(0,), (3,), (6,)],
    ),
    "exception_and_bare": (
        "def f(xs: list[int], k: int) -> int:\n    r = 0\n    try:\n        r = xs[k] // (k - 1)\n    except Exception:\n"
        "        r = -1\n    try:\n        assert r > 0\n        r += 10\n    except:\n        r -= 100\n    return r\n",
        [([4, 5, 6], 0), ([4, 5, 6], 1), ([4, 5, 6], 2), ([4, 5, 6], 7)],
    ),
    "else_and_finally": (
        "def f(s: str) -> int:\n    log = []\n    try:\n        n = int(s)\n    except ValueError:\n        log.append(-1)\n"
        "        n = 0\n    else:\n        log.append(n)\n    finally:\n        log.append(99)\n    log.append(n * 2)\n"
        "    return log[0] * 10000 + log[1] * 100 + log[2]\n",
        [("4",), ("x",)],
    ),
    "finally_on_the_way_out": (
        "def g(xs: list[int], i: int) -> int:\n    try:\n        v = xs[i]\n    finally:\n        xs.append(7)\n    return v\n\n"
        "def f(i: int) -> int:\n    xs = [1, 2]\n    try:\n        return g(xs, i) * 10 + len(xs)\n    except IndexError:\n"
        "        return -len(xs)\n",
        [(0,), (1,), (5,)],
    ),
    "finally_raises_again_uncaught": (
        "def f(i: int) -> int:\n    t = 0\n    try:\n        t = 10 // i\n    finally:\n        t += 1\n    return t\n",
        [(2,), (0,)],
    ),
    "nested": (
        "def f(a: int, b: int) -> int:\n    r = 0\n    try:\n        try:\n            r = a // b\n"
        "        except ZeroDivisionError:\n            raise ValueError('b is 0')\n        finally:\n            a += 1\n"
        "    except ValueError:\n        return -a\n    return r * 10 + a\n",
        [(7, 2), (7, 0)],
    ),
    "reraise_bare": (
        "def f(s: str) -> int:\n    n = 0\n    try:\n        n = int(s)\n    except ValueError:\n        if s == 'q':\n"
        "            return -5\n        raise\n    return n\n",
        [("3",), ("q",), ("z",)],
    ),
    "loops_break_continue": (
        "def f(xs: list[str]) -> int:\n    total = 0\n    for s in xs:\n        try:\n            if s == 'stop':\n"
        "                break\n            total += int(s)\n        except ValueError:\n            if s == 'end':\n"
        "                break\n            continue\n        total += 1000\n    i = 0\n    while True:\n        try:\n"
        "            i += 1\n            if i > 3:\n                break\n        except IndexError:\n            pass\n"
        "    return total + i\n",
        [(["1", "x", "2"],), (["1", "stop", "2"],), (["5", "end", "6"],), ([],)],
    ),
    "caught_vm_errors": (
        "def f(s: str, k: int) -> int:\n    o = None\n    if k >= 0:\n        o = k\n    r = 0\n    try:\n        r += ord(s)\n    except TypeError:\n        r -= 1\n"
        "    try:\n        r += o + 1\n    except TypeError:\n        r -= 10\n    try:\n"
        "        r += min([r][:0])\n    except ValueError:\n        r -= 100\n    return r\n",
        [("a", 1), ("ab", -1)],
    ),
    "assert_in_try": (
        "def f(n: int) -> int:\n    try:\n        assert n > 0\n        return n\n    except AssertionError:\n        return 0\n",
        [(3,), (-3,)],
    ),
    "catch_raised_overflow": (
        "def f(n: int) -> int:\n    try:\n        if n > 5:\n            raise OverflowError('big')\n        return n\n"
        "    except ArithmeticError:\n        return -1\n",
        [(3,), (9,)],
    ),
    "cpython_overflow_caught": (  # CPython's own OverflowError (contract.status.OVERFLOW_ERROR) is caught
        "import math\n\ndef f(x: float, k: int) -> float:\n    try:\n        if k == 0:\n            return math.exp(x)\n"
        "        if k == 1:\n            return 2.0 ** x\n        if k == 2:\n            return float(int(x))\n"
        "        if k == 3:\n            return float(round(x))\n        if k == 4:\n            return float(math.floor(x))\n"
        "        if k == 5:\n            return round(x, -308)\n        return float(len(chr(int(x))))\n"
        "    except OverflowError:\n        return -1.0\n",
        [(1000.0, 0), (1.5, 0), (10000.0, 1), (3.0, 1), (float("inf"), 2), (-2.5, 2), (float("-inf"), 3), (2.5, 3),
         (float("inf"), 4), (1.7e308, 5), (1.2e308, 5), (1e10, 6), (65.0, 6)],
    ),
    "cpython_overflow_as_arithmetic_error": (
        "import math\n\ndef f(x: float) -> int:\n    try:\n        return len(str(math.pow(10.0, x)))\n"
        "    except ArithmeticError:\n        return -1\n    except Exception:\n        return -2\n",
        [(2.0,), (400.0,)],
    ),
}

# The VM's own limits are never caught (contract.status.catchable): CPython (the oracle) runs these
# with its int64 overflow and `**`'s ValueError as exceptions no except catches
NEVER_CAUGHT = {
    "int64_overflow": (
        "def f(n: int) -> int:\n    try:\n        return n * n\n    except OverflowError:\n        return -1\n"
        "    except:\n        return -2\n",
        [(3,), (2**40,)],
    ),
    "finite_float_past_int64": (  # CPython's int(1e19) is a big int: gpucc's OverflowError is a limit
        "def f(x: float) -> int:\n    try:\n        return int(x)\n    except OverflowError:\n        return -1\n",
        [(1e3,), (1e19,)],
    ),
    "int_pow_negative": (
        "def f(n: int) -> int:\n    try:\n        return 2 ** n\n    except ValueError:\n        return -1\n",
        [(3,), (-1,)],
    ),
    "returned_none": (
        "def g(n: int) -> int:\n    if n > 0:\n        return n\n\ndef f(n: int) -> int:\n    try:\n        return g(n)\n"
        "    except Exception:\n        return -1\n",
        [(3,), (-1,)],
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
@pytest.mark.parametrize("programs", [RAISES, CATCHES, NEVER_CAUGHT], ids=["raises", "catches", "never_caught"])
def test_exception_programs_match_cpython(programs, backend):
    assert program_disagreements(programs, backend) == []


def test_the_step_limit_is_never_caught():
    from tests.oracle.oracle import vm_outcomes

    src = "def f(n: int) -> int:\n    try:\n        while n > 0:\n            n += 1\n    except Exception:\n        return -1\n    return n\n"
    assert vm_outcomes([src], [(0, "f", (1,))], "cpu", step_limit=1000) == ["step limit"]


def test_a_try_compiles_to_handlers_and_clause_tests():
    src = CATCHES["index_and_zero"][0]
    batch = compile_batch([src])
    assert batch.ok(0), batch.error(0)
    text = disassemble(Program.from_batch(batch))
    for needle in ("SETUP_TRY", "POP_TRY", "EXC_MATCH", "(IndexError)", "(ZeroDivisionError)", "RERAISE"):
        assert needle in text
