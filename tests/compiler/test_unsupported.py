"""Everything outside the gpucc language is a named compile error with its caret on the
offending token: every construct of compiler/errors.py's table, every keyword the parser
rejects and every rejected operator, through the whole batch compiler.  And nothing the
language has (floats, `/`, `**`, bitwise operators, conditional expressions) is rejected."""

from __future__ import annotations

import functools
import io
import tokenize

import pytest

from gpucc.compiler import errors, tokens
from gpucc.compiler.batch import compile_batch
from gpucc.compiler.parser_util import kw_unsupported

BODY = "def f(x: int) -> int:\n    "

# (snippet, message, caret column).  A snippet is the body of `def f(x: int) -> int:`, or a
# whole file when it starts with '!'.
CONSTRUCTS = [
    ("return abs(x=1)", "keyword arguments: not supported by gpucc", 12),
    ("for i in range(stop=3):\n        pass", "keyword arguments: not supported by gpucc", 20),
    ("!def f(x: list[int] = []) -> int:\n    pass", "default parameter values other than literals (int, float, bool, "
     "str, None, tuples of them): not supported by gpucc", 7),
    ("!def f(x=abs(1)) -> int:\n    pass", "default parameter values other than literals (int, float, bool, str, None, "
     "tuples of them): not supported by gpucc", 7),
    ("return g(*x)", "*args / **kwargs: not supported by gpucc", 14),
    ("return g(**x)", "*args / **kwargs: not supported by gpucc", 14),
    ("!def f(*args: int) -> int:\n    pass", "*args / **kwargs: not supported by gpucc", 7),
    ("!def f(**kw: int) -> int:\n    pass", "*args / **kwargs: not supported by gpucc", 7),
    ("for a, b in range(3):\n        pass", "cannot unpack a value of type int into 2 names", 9),
    ("return (i for i in range(3))", "generator expressions but as the one argument of sum, any, all, min, max, sorted, "
     "list or str.join: not supported by gpucc", 15),
    ("y = reversed([x])", "reversed() but as the iterable of a for loop or a comprehension: not supported by gpucc", 9),
    ("!def f(a: int) -> bool:\n    return isinstance(a, complex)",
     "isinstance of a class but int, float, bool, str, list, tuple, dict, set or a tuple of them: not supported by gpucc", 26),
    ("!def f(a: float) -> bool:\n    return isinstance(a, float)",
     "isinstance of a float against int or float (CPython keeps an int where gpucc converts it to a declared float, so "
     "the answer is not known when compiled): not supported by gpucc", 12),
    ("!from functools import reduce\ndef f(xs: list[int]) -> int:\n    g = reduce\n    return 1",
     "functools.reduce, itertools.accumulate or groupby where its statement does not run it exactly once (in a lambda, a "
     "comprehension past its first iterable, a conditional expression, and / or, a while condition), or as a value: "
     "not supported by gpucc", 9),
    ("!from itertools import permutations\ndef f(xs: list[int]) -> int:\n    return len(list(permutations(xs)))",
     "this form of itertools (permutations, combinations and combinations_with_replacement of one iterable and an int "
     "literal r from 1 to 5; product of iterables and repeat= an int literal, at most 11 names; chain of iterables): "
     "not supported by gpucc", 21),
    ("!def f(xs: set[int]) -> int:\n    xs |= [1]\n    return 0",
     "augmented assignment to a list or set but xs += ys, xs *= n and a set's s |= t, s &= t, s -= t, s ^= t (t a "
     "set of s's type): not supported by gpucc", 5),
    ("!import math\ndef f(x: float) -> float:\n    g = math.sqrt\n    return x",
     "a module, or a module's function, as a value (call the function: math.sqrt(x)): not supported by gpucc", 9),
    ("!from collections import Counter\ndef f(d: dict[int, int]) -> None:\n    Counter(d).update(d)",
     "this form of collections.Counter (Counter() or Counter(iterable) of a list, str, tuple, set or range; "
     "Counter(mapping) and Counter(a=1) are not built): not supported by gpucc", 5),
    ("!def f(d: dict[int, int]) -> int:\n    return max(d, key=lambda k: d[k])",
     "a dict where a builtin rewritten as a loop over positions wants a sequence (sorted, min or max with key=, "
     "enumerate, zip: use d.keys() or d.items()): not supported by gpucc", 12),
    ("!from collections import defaultdict\ndef f() -> int:\n    return len(defaultdict(lambda: 1))",
     "this form of collections.defaultdict (defaultdict(f) of a factory f among int, float, bool, str, list, set "
     "and dict; defaultdict() without a factory, other factories and lambdas are not built): not supported by gpucc",
     16),
    ("!def f(xs: list[int]) -> int:\n    xs[len(xs) - 1] += 1\n    return 0",
     "augmented assignment to a subscript of anything but a name or a subscript, or with a call in it: not supported "
     "by gpucc", 5),
    ("!def f(x: list[tuple[int, int, int, int, int]]) -> int:\n    return 0", "types this large (at most 7 parts, "
     "constructors and leaves: list[tuple[int, int, int, int]]): not supported by gpucc", 10),
    ("!def f(i: int) -> int:\n    t = (1, 'a')\n    return t[i]", "a tuple indexed by anything but a constant, or "
     "sliced, when its fields differ in type: not supported by gpucc", 13),
    ("!def f(xs: list[int]) -> int:\n    return xs.lower(1)", "methods other than the list, str, dict and set methods of the README: not supported by gpucc", 15),
    ("!def f(xs: list[int]) -> int:\n    return xs.upper()", "methods other than the list, str, dict and set methods of the README: not supported by gpucc", 15),
    ("!def f(s: str) -> int:\n    return len(s.format(1))", "methods other than the list, str, dict and set methods of the README: not supported by gpucc", 18),
    ("return x[0:1, 2]", "tuples: not supported by gpucc", 17),
    ("return x.real", "attribute access: not supported by gpucc", 13),
    ("@dec\n    def g() -> int:\n        pass", "decorators: not supported by gpucc", 5),
    ("!@dec\ndef f() -> int:\n    pass", "decorators: not supported by gpucc", 1),
    ("x = y = 1", "chained assignments: not supported by gpucc", 11),
    ("f(x) = 1", "assignments to anything but a name: not supported by gpucc", 5),
    ("(x) += 1", "assignments to anything but a name: not supported by gpucc", 5),
    ("return len(list(map(abs, [x], [x])))", "this form of map, filter, enumerate, zip or key= (map / filter: a name "
     "or a one-parameter lambda and one iterable; enumerate: two names or a value; zip: 2 or 3 iterables; key: a "
     "name or a one-parameter lambda; xs.sort(key=...) of a name): not supported by gpucc", 21),
    ("return lambda: 1", "lambdas: not supported by gpucc", 12),
    ("return f(i for i in range(3))", "generator expressions but as the one argument of sum, any, all, min, max, sorted, "
     "list or str.join: not supported by gpucc", 16),
    ("!def f(x: set[list[int]]) -> int:\n    return 0", "dict keys and set elements of this type (keys: int, bool, "
     "float, str, or tuples of those): not supported by gpucc", 10),
    ("return len({(x, [x]): 1})", "dict keys and set elements of this type (keys: int, bool, float, str, or tuples "
     "of those): not supported by gpucc", 16),
    ("!def f(d: dict[int, int]) -> int:\n    return d.get(1)", "d.get(k) without a default on a dict of numbers or "
     "bools (give one: d.get(k, 0)): not supported by gpucc", 14),
    ("return len(set([x], [x]))", "dict() and set() with keywords or more than one argument: not supported by gpucc",
     16),
    ("del x", "del of anything but a dict's item (del d[k]): not supported by gpucc", 5),
    ("!def f(s: set[int]) -> int:\n    s += s\n    return 0",
     "augmented assignment to a list or set but xs += ys, xs *= n and a set's s |= t, s &= t, s -= t, s ^= t (t a "
     "set of s's type): not supported by gpucc", 5),
    ("for i in range():\n        pass", "for loops over anything but range(): not supported by gpucc", 14),
    ("for i in range(1, 2, 3, 4):\n        pass", "for loops over anything but range(): not supported by gpucc", 14),
    ("for i in range(3)[1]:\n        pass", "for loops over anything but range(): not supported by gpucc", 14),
    ("return f(x)(x)", "calls of anything but a function name: not supported by gpucc", 16),
    ("return len(f'{x}')", "f-strings: not supported by gpucc", 16),
    ("return len('a' F'b')", "f-strings: not supported by gpucc", 20),
    ("f'doc {x}'", "f-strings: not supported by gpucc", 5),
    ("return len(b'abc')", "bytes literals: not supported by gpucc", 16),
    ("return len(b'a' B'b')", "bytes literals: not supported by gpucc", 16),
    ("!def f(s: str) -> int:\n    s[0] = 'a'\n    return 0", "item assignment to a str (strs are immutable): not supported by gpucc",
     5),
    ("return len([1, 'a'])", "lists mixing elements of different types (but ints among floats, None among values): "
     "not supported by gpucc", 16),
    ("return len(['a', 1.5])", "lists mixing elements of different types (but ints among floats, None among values): "
     "not supported by gpucc", 16),
    ("return (y := 1)", "assignment expressions (:=): not supported by gpucc", 15),
    ("x: int", "annotations without a value: not supported by gpucc", 5),
    ("assert x, 'message'", "assert messages: not supported by gpucc", 13),
    ("try:\n        return 1\n    finally:\n        pass", "return, break or continue leaving a try that has a finally, or "
     "in its finally: not supported by gpucc", 9),
    ("for i in range(x):\n        try:\n            pass\n        finally:\n            break",
     "return, break or continue leaving a try that has a finally, or in its finally: not supported by gpucc", 13),
    ("raise ValueError from None", "raise ... from: not supported by gpucc", 22),
    # modules: an import of a module or a name gpucc does not have
    ("!import re", "module 're' is not supported by gpucc (it has math, sys, bisect, heapq, functools, "
     "itertools, collections; typing's names are annotations)", 8),
    ("!from os import path", "module 'os' is not supported by gpucc (it has math, sys, bisect, heapq, functools, "
     "itertools, collections; typing's names are annotations)", 6),
    ("import os", "module 'os' is not supported by gpucc (it has math, sys, bisect, heapq, functools, "
     "itertools, collections; typing's names are annotations)", 12),
    ("!from math import fsum", "'fsum' is not supported by gpucc yet (the names each module offers: README, the "
     "language reference)", 18),
    # exceptions of a program's own, and raising again what no except clause caught
    ("raise MyError('x')", "'MyError' is not an exception gpucc can raise or catch: the built-in ValueError, IndexError, "
     "KeyError, ZeroDivisionError, TypeError, OverflowError, AssertionError, RuntimeError, NotImplementedError, "
     "Exception (and ArithmeticError, LookupError, BaseException in except); exception classes of its own are not "
     "supported", 11),
    ("try:\n        pass\n    except MyError:\n        pass", "'MyError' is not an exception gpucc can raise or catch: the "
     "built-in ValueError, IndexError, KeyError, ZeroDivisionError, TypeError, OverflowError, AssertionError, "
     "RuntimeError, NotImplementedError, Exception (and ArithmeticError, LookupError, BaseException in except); "
     "exception classes of its own are not supported", 12),
    ("raise", "'raise' outside an except clause, or not its exception: only the exception an except clause caught can "
     "be raised again", 5),
    ("try:\n        pass\n    except ValueError as e:\n        raise x", "'x' outside an except clause, or not its "
     "exception: only the exception an except clause caught can be raised again", 15),
    ("!from collections import deque\ndef f(xs: list[int]) -> None:\n    deque(xs).sort()",
     "this form of collections.deque (deque(iterable) of a list, str, tuple, set, dict or range, deque(); maxlen, "
     "q.sort(), q.pop(i), slices of a deque and a deque where a list is declared are not built): not supported by "
     "gpucc", 15),
]  # fmt: skip

KEYWORDS = [
    ("if x: import math", "'import' is not supported by gpucc", 11),  # in a function: not a one-line block's
    ("if x: from math import pi", "'from' is not supported by gpucc", 11),
    ("class A:\n        pass", "'class' is not supported by gpucc", 5),
    ("with x:\n        pass", "'with' is not supported by gpucc", 5),
    ("as y", "'as' is not supported by gpucc", 5),
    ("global y", "'global' is not supported by gpucc", 5),
    ("nonlocal y", "'nonlocal' is not supported by gpucc", 5),
    ("yield x", "'yield' is not supported by gpucc", 5),
    ("x = (yield)", "'yield' is not supported by gpucc", 10),
    ("return await x", "'await' is not supported by gpucc", 12),
    ("async with x:\n        pass", "'async' is not supported by gpucc", 5),
    ("!class A:\n    pass", "'class' is not supported by gpucc", 1),
    ("!async def f() -> int:\n    pass", "'async' is not supported by gpucc", 1),
    ("!with x:\n    pass", "'with' is not supported by gpucc", 1),
    ("!global y", "'global' is not supported by gpucc", 1),
    ("!lambda: 1", "'lambda' is not supported by gpucc", 1),
]  # fmt: skip

SYNTAX = [  # CPython rejects these too
    ("!x = 1\nreturn x", "'return' outside function", 1),
    ("except E:\n        pass", "invalid syntax", 5),
    ("finally:\n        pass", "invalid syntax", 5),
    ("try:\n        pass\n    x = 1", "invalid syntax", 5),
    ("try:\n        pass\n    except:\n        pass\n    except ValueError:\n        pass", "invalid syntax", 5),
]  # fmt: skip

OPERATORS = [
    ("return x @ x", "operator '@' is not supported by gpucc", 14),
    ("x @= x", "operator '@=' is not supported by gpucc", 7),
    ("x = ...", "operator '...' is not supported by gpucc", 9),
    ("return g(...)", "operator '...' is not supported by gpucc", 14),
    ("!def f(a: int, /) -> int:\n    pass", "operator '/' is not supported by gpucc", 15),
]  # fmt: skip

REJECTED = CONSTRUCTS + KEYWORDS + SYNTAX + OPERATORS

# Rejected snippets that CPython rejects too; every other one is valid Python outside the subset.
NOT_PYTHON = {"f(x) = 1", "nonlocal y", "return await x", "as y", "async with x:\n        pass"} | {s for s, _, _ in SYNTAX}

# Constructs of errors.py's table that the language has now: nothing may report them.
NOW_SUPPORTED = {"conditional expressions", "float literals", "list literals", "subscripts", "comprehensions",
                 "the truth value of None or an Optional (test `x is not None` first)", "nested functions",
                 "dicts and sets", "statements at module level (only def)", "round() with ndigits", "while ... else",
                 "for ... else", "semicolons"}  # fmt: skip

# Every form these once-unsupported features take; it must compile.
SUPPORTED = """\
def g(a: int, b: int) -> int:
    return a


def f(x: int) -> int:
    y = x / 2 + x * 2 - x // 3 + x % 5 + 1.5 + .25 + 3. + 2e-3 + 1_000.5 + x ** 2 + 2.0 ** 0.5
    z = (x & 3) | (x ^ 5) | ~x | (x << 2) | (x >> 1)
    z += 1
    z -= 1
    z *= 2
    z //= 3
    z %= 7
    z &= 15
    z |= 16
    z ^= 1
    z <<= 1
    z >>= 1
    z **= 2
    y /= 3
    b = x > 0 and not x == 1 or x != 2 <= x < 9 >= x
    z += sum(i * j for i in range(x) for j in reversed(range(i)) if i > j) + len([c for c in str(x) if c != "1"])
    b = b or any(i > 2 for i in [x]) and all([x]) and max(i for i in [x]) == min(list([x]))
    d = {x: [x], 2: []}
    d[x] += [1]
    del d[2]; z += 1;
    for i in range(x):
        z += i
    else:
        z -= 1
    s = {x, 1} | {k for k in d} & set([x]) - {2} ^ {3}
    z += len({k: d[k] for k in d} if s <= {1} else d) + (x in s) + len(d.keys()) + sum(v[0] for v in d.values())
    return z + g(x, x) if b else int(y) - abs(x) + min(x, 1) + max(x, 2, 3) + int(float(x)) + bool(x)


def h(xs: list[int], x: float) -> float:
    xs += [1]
    xs.extend(xs.copy())
    xs.insert(0, xs.pop() + xs.pop(0) + xs.index(1) + xs.count(1))
    xs.remove(1)
    xs.reverse()
    xs[1:2] = [3, 4]
    xs[::2] = sorted(xs[::2])
    xs.clear()
    t = tuple(sorted([x, x + 1]))
    return round(x, 2) + len(bin(len(xs)) + oct(2) + hex(3)) + len(set("ab")) + len(dict(zip("ab", [1, 2]))) + t[0]
"""


def source_of(snippet: str) -> str:
    return snippet[1:] + "\n" if snippet.startswith("!") else BODY + snippet + "\n"


@functools.lru_cache(maxsize=1)
def compiled():
    """One batch for every rejected snippet (unit i = REJECTED[i]) and SUPPORTED (the last unit)."""
    return compile_batch([source_of(s) for s, _, _ in REJECTED] + [SUPPORTED])


@pytest.mark.parametrize("index", range(len(REJECTED)), ids=[r[0].split("\n")[0] for r in REJECTED])
def test_rejected_with_its_name_and_caret(index):
    snippet, message, col = REJECTED[index]
    source = source_of(snippet)
    batch = compiled()
    assert not batch.ok(index)
    err = batch.error(index)
    assert (err.message, err.col) == (message, col), err.format()
    assert err.source_line == source.split("\n")[err.line - 1]
    assert err.format().split("\n")[2] == "    " + " " * (col - 1) + "^"
    if snippet not in NOT_PYTHON:
        compile(source, "<test>", "exec")  # valid Python: outside the subset, not a typo


def test_every_construct_of_the_error_table_has_a_case():
    messages = {m for _, m, _ in CONSTRUCTS}
    named = {c for c in errors.CONSTRUCTS if f"{c}: not supported by gpucc" in messages}
    assert named == set(errors.CONSTRUCTS) - NOW_SUPPORTED


def test_every_rejected_keyword_has_a_case():
    rejected = {k for i, k in enumerate(tokens.KEYWORDS) if kw_unsupported(i)} | {"lambda"}
    named = {m.split("'")[1] for _, m, _ in KEYWORDS}
    assert named == rejected


def test_every_operator_is_used_by_a_compiling_program_or_a_rejected_one():
    def operators(source):
        toks = tokenize.generate_tokens(io.StringIO(source).readline)
        return {t.string for t in toks if t.type == tokenize.OP}

    used = operators(SUPPORTED).union(*(operators(source_of(s)) for s, _, _ in REJECTED))
    assert set(tokens.OPERATORS) - used == set()


def test_supported_forms_compile_and_are_never_called_unsupported():
    batch = compiled()
    assert batch.ok(len(REJECTED)), batch.error(len(REJECTED))
    for construct in NOW_SUPPORTED:
        assert not any(construct in m for _, m, _ in REJECTED)
