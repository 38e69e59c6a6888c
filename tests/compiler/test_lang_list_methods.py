"""The list methods beyond append / sort, `xs += ys`, bin / oct / hex, round(x, n) and the
constructors set(e) / dict(e) / tuple(e) of any iterable: the VM (reference interpreter and CPU
kernel) gives what CPython gives on the same source, exceptions included; what stays outside the
language is a located compile error."""

from __future__ import annotations

import math

import pytest

from gpucc.compiler.batch import compile_batch
from tests.oracle.oracle import program_disagreements

# a str or list as one int, so the oracle compares them (its outcomes render flat values)
CODE = ("def code(s: str) -> int:\n    t = len(s)\n    for c in s:\n        t = (t * 131 + ord(c)) % 1000000007\n"
        "    return t\n"
        "def h(xs: list[int]) -> int:\n    t = len(xs)\n    for x in xs:\n        t = (t * 31 + x) % 1000000007\n"
        "    return t\n")  # fmt: skip
LISTS = [([1, 2, 3], 1), ([], 0), ([4], -1), ([1, 2, 1], 10), ([3, 1, 3], -2), ([5, 1], 3), ([2, 2, 2, 2, 2], 2)]


def _f(body: str, sig: str = "xs: list[int], i: int", ret: str = "int") -> str:
    return CODE + f"def f({sig}) -> {ret}:\n" + "".join(f"    {line}\n" for line in body.split("\n"))


PROGRAMS = {
    "clear": (_f("ys = xs\nxs.clear()\nxs.append(i)\nreturn h(ys) * 10 + len(xs)"), LISTS),
    "extend": (_f("ys = [0]\nys.extend(xs)\nys.extend(ys)\nys.extend([])\nreturn h(ys)"), LISTS),
    "extend_grows": (_f("ys = []\nfor k in range(i):\n    ys.extend(xs)\nreturn h(ys)"),
                     [([1, 2, 3], 9), ([7], 30), ([], 4)]),
    "pop": (_f("a = xs.pop()\nreturn a * 1000 + h(xs)"), LISTS),
    "pop_index": (_f("a = xs.pop(i)\nreturn a * 1000 + h(xs)"), LISTS),
    "pop_statement": (_f("xs.pop(0)\nreturn h(xs)"), LISTS),
    "insert": (_f("xs.insert(i, 9)\nxs.insert(-100, 8)\nxs.insert(100, 7)\nreturn h(xs)"), LISTS),
    "insert_grows": (_f("for k in range(i):\n    xs.insert(k // 2, k)\nreturn h(xs)"), [([1], 12), ([], 5)]),
    "reverse": (_f("ys = xs\nxs.reverse()\nreturn h(ys)"), LISTS),
    "index": (_f("return xs.index(i)"), LISTS),
    "count": (_f("return xs.count(i) * 10 + xs.count(2)"), LISTS),
    "remove": (_f("xs.remove(i)\nreturn h(xs)"), LISTS),
    "copy": (_f("ys = xs.copy()\nys.append(7)\nreturn h(ys) * 10 + len(xs)"), LISTS),
    "iadd_aliases": (_f("zs = xs\nzs += [5, i]\nzs += zs\nreturn h(xs)"), LISTS),
    "iadd_empty_local": (_f("ret = []\nfor k in range(i):\n    ret += [k * k]\nreturn h(ret)"), [([], 5), ([], 0)]),
    "iadd_tuples": (_f("ans = []\nfor k in range(i):\n    ans += [(k, k + 1)]\nreturn len(ans) + ans[-1][1]"),
                    [([], 4), ([], 1), ([], 0)]),
    "iadd_floats": (_f("ys = [0.5]\nys += [1.5, 2.0]\nreturn sum(ys)", "xs: list[int]", "float"), [([],)]),
    "floats": (_f("ys = [1.5, -0.0, 2.0]\nys.insert(1, i)\na = ys.pop()\nreturn a + ys.index(i) + ys.count(0.0)",
                  "i: int", "float"), [(0,), (2,), (-3,)]),
    "strs": (_f("ws = s.split()\nws.remove('b')\nws.insert(0, 'z')\nw = ws.pop(1)\nws.reverse()\n"
                "return code(' '.join(ws)) + ws.index('z') + ws.count('a') + code(w)", "s: str"),
             [("a b c a",), ("b a",), ("a c",), ("b",)]),
    "nested": (_f("m = [[1], [2, 3], []]\nm.remove([2, 3])\nm.insert(0, xs)\nm.extend([[4]])\n"
                  "return m.index(xs) + m.count([]) * 10 + len(m) * 100 + h(m.pop())"), LISTS),
    "tuples": (_f("ps = [(1, 'a'), (2, 'b')]\nps.remove((2, 'b'))\nreturn ps.count((1, 'a')) + len(ps)", "i: int"),
               [(0,)]),
    "methods_of_a_subscript": (_f("m = [xs, [1]]\nm[0].extend(m[1])\nm[1].clear()\nreturn h(xs) + len(m[1])"), LISTS),
    "radix": (_f("return code(bin(i)) + code(oct(i)) * 3 + code(hex(i)) * 7 + code(bin(True))", "i: int"),
              [(0,), (1,), (-1,), (255,), (-255,), (2**63 - 1,), (-(2**63),), (8,), (4096,)]),
    "round": (_f("return round(x, n)", "x: float, n: int", "float"),
              [(2.675, 2), (-0.5, 0), (0.5, 0), (1.5, 0), (-2.5, 0), (123.456, -1), (0.125, 2), (1e300, -301),
               (1.7976931348623157e308, -308), (5e-324, 323), (math.nan, 2), (math.inf, -3), (0.1 + 0.2, 16),
               (2.5, 400), (-0.0, 3), (15.0, -1), (25.0, -1), (1234.5678, -400)]),
    "round_keyword": (_f("return round(x, ndigits=2) + round(x)", "x: float", "float"), [(1.005,), (-7.125,)]),
    "set_of_str": (_f("return len(set(s.lower())) * 10 + int(set(s) == set('cba'))", "s: str"),
                   [("abc",), ("aAbB",), ("",), ("abcabc",)]),
    "set_of_iterables": (_f("d = {1: 2, 3: 2}\nreturn len(set(range(i))) + len(set(d)) * 10 + len(set(d.values())) * 100"
                            " + len(set(d.items())) * 1000 + len(set(xs)) * 10000"), LISTS),
    "dict_of_pairs": (_f("d = dict([(c, ord(c)) for c in s])\nreturn sum(d.values()) * 100 + len(d)", "s: str"),
                      [("abca",), ("",), ("zz",)]),
    "dict_of_zip": (_f("d = dict(zip(xs, range(len(xs))))\nreturn sum(d.values()) * 100 + len(d) + sum(d)"), LISTS),
    "dict_later_keys_win": (_f("d = dict([(1, 'a'), (2, 'b'), (1, 'c')])\nreturn code(d[1]) + len(d)", "i: int"),
                            [(0,)]),
    "set_slice": (_f("ys = xs\nxs[1:i] = [7, 8, 9]\nys[:1] = []\nxs[i:] = xs\nreturn h(ys)"), LISTS),
    "set_slice_extended": (_f("l = list(xs)\nl[::3] = sorted(l[::3])\nl[::-1] = l\nreturn h(l)"),
                           [([5, 6, 3, 4, 8, 9, 2], 0), ([], 0), ([1], 0), ([3, 2, 1, 0, -1, -2, -3], 0)]),
    "set_slice_errors": (_f("xs[::i] = [1, 2]\nreturn h(xs)"), LISTS),
    "set_slice_grows": (_f("for k in range(i):\n    xs[k:k] = xs\nreturn h(xs)"), [([1, 2], 4), ([], 3), ([5], 6)]),
    "tuple_of_display": (_f("t = tuple(sorted([y, x]))\nu = tuple([x, y, x + y])\nv = tuple()\n"
                            "return t[0] * 100 + t[1] + u[2] * 10000 + len(v)", "x: int, y: int"),
                         [(1, 2), (5, -3)]),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_list_method_programs_match_cpython(backend):
    assert program_disagreements(PROGRAMS, backend) == []


@pytest.mark.parametrize(
    "src, message",
    [
        ("def f(s: set[int]) -> int:\n    s &= [1]\n    return 0\n", "augmented assignment to a list or set but xs += ys"),
        ("def f(s: set[int]) -> int:\n    s |= (1,)\n    return 0\n", "augmented assignment to a list or set"),
        ("def f(xs: list[int]) -> int:\n    xs += [1.5]\n    return 0\n", "type mismatch: expected list[int], got list[float]"),
        ("def f(xs: list[int]) -> int:\n    xs.extend(['a'])\n    return 0\n", "type mismatch: expected list[int], got list[str]"),
        ("def f(xs: list[int]) -> int:\n    return xs.index(1, 2)\n", "'index' takes 1 argument(s), 2 given"),
        ("def f(xs: list[int]) -> int:\n    return xs.pop(1.5)\n", "type mismatch: expected int, got float"),
        ("def f(xs: list[int]) -> int:\n    xs.insert(0)\n    return 0\n", "'insert' takes 2 argument(s), 1 given"),
        ("def f(xs: list[int]) -> int:\n    xs.remove('a')\n    return 0\n", "type mismatch: expected int, got str"),
        ("def f(s: str) -> int:\n    s.reverse()\n    return 0\n", "methods other than"),
        ("def f(x: int) -> float:\n    return round(x, 2)\n", "unsupported operand types for 'round'"),
        ("def f(x: float) -> str:\n    return bin(x)\n", "unsupported operand types for 'bin'"),
        ("def f(xs: list[int]) -> tuple[int, int]:\n    return tuple(xs)\n", "built-in 'tuple' is not supported yet"),
        ("def f(s: str) -> int:\n    s[0:1] = 'a'\n    return 0\n", "str"),
        ("def f(xs: list[int]) -> int:\n    xs[0:1] = [1.5]\n    return 0\n", "type mismatch: expected list[int], got list[float]"),
        ("def f(xs: list[int]) -> int:\n    xs[0:1] += [1]\n    return 0\n", "assignments to anything but a name"),
    ],
)
def test_list_method_errors_are_named(src, message):
    batch = compile_batch([src])
    assert not batch.ok(0)
    assert message in str(batch.error(0)), str(batch.error(0))
