"""Strs (str, list[str]): literals, operators, comparisons, indexing, slicing, loops, the
builtins and the methods -- each form compiled and run on the VM against CPython on the same
source.  A program's `f` returns an int (a str's digest, see DIGEST), as a job's result
cannot show a str; its strs come from literals chosen by the int arguments."""

from __future__ import annotations

import warnings

import pytest

from gpucc.compiler import limits
from gpucc.compiler.batch import compile_batch
from gpucc.contract import typecodes
from tests.oracle.oracle import program_disagreements

# every program starts with these: a str's digest (its code points hashed), and sample strs
DIGEST = """\
def digest(s: str) -> int:
    h = len(s)
    for ch in s:
        h = (h * 1000003 + ord(ch)) % 2147483647
    return h


def words(n: int) -> str:
    xs = ["", "a", "Hello, World", "  x y  ", "\\u00c4\\u00d6\\u00fc \\u00df", "12_3", "a,b,,c", "\\U0001f600!", "Ab Cd"]
    return xs[n % len(xs)]


"""
CASES = [(n,) for n in range(9)]

PROGRAMS = {
    "literals": (
        "def f(n: int) -> int:\n"
        "    a = 'it''s' \"x\" + '\\n\\t\\r\\\\\\'\\\"\\a\\b\\f\\v\\0\\101\\x41\\u00e9\\U0001F600'\n"
        "    b = '''tri\nple''' + \"\"\"q\"q\"\"\" + r'\\n\\'' + R\"\\d\" + u'u' + U'\\u0394'\n"
        "    c = 'back\\\nslash' + 'h\u00e9\u4e2d\U0001f600'\n"
        "    return digest(a) * 3 + digest(b) * 5 + digest(c) * 7 + n\n",
        [(0,)],
    ),
    "concat_repeat": (
        "def f(n: int) -> int:\n    s = words(n)\n    t = s + '|' + s * 2 + 3 * s + s * (n - 4) + (n - 5) * s\n"
        "    u = ''\n    u += s\n    u += 'z'\n    u *= 2\n    return digest(t) + digest(u)\n",
        CASES,
    ),
    "compare": (
        "def f(n: int, m: int) -> int:\n    a = words(n)\n    b = words(m)\n    r = 0\n"
        "    if a < b:\n        r += 1\n    if a <= b:\n        r += 2\n    if a == b:\n        r += 4\n"
        "    if a != b:\n        r += 8\n    if a > b:\n        r += 16\n    if a >= b:\n        r += 32\n"
        "    if '' <= a < b <= 'zz':\n        r += 64\n    c = a > b\n    while a == 'a':\n        a = 'b'\n"
        "        r += 128\n    return r + 256 * (a < b) + 512 * c\n",
        [(n, m) for n in range(9) for m in (0, 1, 2, 8)],
    ),
    "contains": (
        "def f(n: int, m: int) -> int:\n    a = words(n)\n    b = words(m)\n    xs = ['a', 'Ab Cd', '']\n"
        "    return (a in b) + 2 * (a not in b) + 4 * (a in xs) + 8 * (b not in xs) + 16 * ('' in a) + 32 * (a in [])\n",
        [(n, m) for n in (0, 1, 2, 8) for m in range(9)],
    ),
    "index": (
        "def f(n: int, i: int) -> int:\n    s = words(n)\n    return digest(s[i]) + digest(s[-1] + s[0])\n",
        [(n, i) for n in (1, 2, 4, 7) for i in (0, 1, -2, 5, -20)] + [(0, 0)],
    ),
    "slices": (
        "def f(n: int, a: int, b: int, c: int) -> int:\n    s = words(n)\n"
        "    return digest(s[a:b:c]) + digest(s[a:]) * 3 + digest(s[:b]) * 5 + digest(s[::-1]) * 7 + len(s[:])\n",
        [(2, 1, 8, 2), (2, -3, 100, 1), (4, 5, 0, -1), (7, 0, 1, 1), (0, 0, 1, 1), (2, 0, 3, 0)],
    ),
    "len_truth": (
        "def f(n: int) -> int:\n    s = words(n)\n    r = len(s) * 100\n    if s:\n        r += 1\n    if not s:\n"
        "        r += 2\n    t = s or 'empty'\n    u = s and 'full'\n    return r + 4 * bool(s) + digest(t) + digest(u)\n",
        CASES,
    ),
    "iterate": (
        "def f(n: int) -> int:\n    s = words(n)\n    t = ''\n    k = 0\n    for ch in s:\n        t = ch + t\n"
        "        if ch == ' ':\n            k += 1\n    return digest(t) * 10 + k\n",
        CASES,
    ),
    "ord_chr": (
        "def f(n: int) -> int:\n    return ord(chr(n)) + digest(chr(n) + chr(n + 1))\n",
        [(65,), (0,), (233,), (0x1F600,), (0x10FFFF,), (-1,), (0x110000,)],
    ),
    "ord_of_long_str": ("def f(n: int) -> int:\n    return ord(words(n))\n", [(1,), (0,), (2,)]),
    "ord_of_index": (  # ord(s[i]) is one instruction; through a conditional it stays two
        "def f(n: int, i: int) -> int:\n    s = words(n)\n    t = words(n + 1)\n"
        "    return ord(s[i]) * 3 + ord((s if i > 0 else t)[i]) + ord(s[i] if i % 2 else t[-i]) * 5 + ord(s[i:i + 1])\n",
        [(n, i) for n in (1, 2, 4, 7) for i in (0, 1, -2, 5, -20)] + [(0, 0)],
    ),
    "str_of_numbers": (
        "def f(n: int, x: float) -> int:\n    return digest(str(n)) + digest(str(n > 0)) * 3 + digest(str(x)) * 5"
        " + digest(str('s')) * 7\n",
        [(0, 0.0), (-17, 1.5), (9223372036854775807, 1e100), (3, -0.0), (1, 0.1)],
    ),
    "numbers_of_str": (
        "def f(n: int) -> int:\n    xs = ['12', ' -7 ', '1_000', '+0', 'x', '', '3.5', '1e3', '00']\n"
        "    return int(xs[n])\n",
        CASES,
    ),
    "float_of_str": (
        "def f(n: int) -> float:\n    xs = ['12', ' -7.25 ', '1_000.5', '1e3', 'inf', '-nan', 'x', '.5', '1.5e-3']\n"
        "    return float(xs[n])\n",
        CASES,
    ),
    "min_max": (
        "def f(n: int, m: int) -> int:\n    a = words(n)\n    b = words(m)\n    xs = [a, b, 'm']\n"
        "    return digest(min(a, b)) + digest(max(a, b, 'k')) * 3 + digest(min(xs)) * 5 + digest(max(xs)) * 7\n",
        [(n, m) for n in (0, 1, 2, 4) for m in (1, 3, 8)],
    ),
    "min_of_empty": ("def f(n: int) -> int:\n    xs: list[str] = []\n    return len(min(xs))\n", [(0,)]),
    "sorting": (
        "def f(n: int) -> int:\n    xs = [words(n), 'b', words(n + 1), 'B', 'a', '', words(n + 2)]\n    ys = sorted(xs)\n"
        "    xs.sort()\n    assert xs == ys\n    r = 0\n    for y in ys:\n        r = r * 7 + digest(y)\n"
        "    return r % 1000000007 + (xs == ['b']) + 2 * (xs != ys) + 4 * ([] == xs)\n",
        CASES,
    ),
    "list_of_str": (
        "def f(n: int, i: int) -> int:\n    xs: list[str] = []\n    for k in range(n):\n        xs.append(words(k))\n"
        "    ys = xs[1:] + ['end'] * 2\n    zs = ['q', words(n)]\n    zs[0] = zs[1] + '!'\n    zs[1] += '?'\n"
        "    t = ''\n    for y in ys + zs:\n        t = t + y + '/'\n    return digest(t) + digest(xs[i]) + len(ys)\n",
        [(3, 0), (5, -1), (9, 4), (2, 2)],
    ),
    "join_list_param": (
        "def cat(xs: list[str], sep: str) -> str:\n    return sep.join(xs)\n\n"
        "def f(n: int) -> int:\n    return digest(cat([words(n), 'x', words(n + 1)], ', ')) + digest(cat([], '-'))\n",
        CASES,
    ),
    "case": (
        "def f(n: int) -> int:\n    s = words(n) + ' \\u0130\\u00df\\u01c5 hELLo wORLD1 \\u03a3a\\u03a3'\n"
        "    return (digest(s.lower()) + digest(s.upper()) * 2 + digest(s.swapcase()) * 3 + digest(s.capitalize()) * 4"
        " + digest(s.title()) * 5 + digest(s.casefold()) * 6) % 1000000007\n",
        CASES,
    ),
    "predicates": (
        "def f(n: int) -> int:\n    xs = [words(n), '123', '\\u0661\\u00b2', '\\u2155', 'abc', 'ABC', 'aB1', ' \\t\\n', '']\n"
        "    r = 0\n    for s in xs:\n"
        "        r = r * 3 + s.isdigit() + 2 * s.isalpha() + 4 * s.isalnum() + 8 * s.isspace() + 16 * s.isupper()"
        " + 32 * s.islower() + 64 * s.isdecimal() + 128 * s.isnumeric()\n"
        "        r = r % 1000000007\n    return r\n",
        CASES,
    ),
    "strip": (
        "def f(n: int) -> int:\n    s = words(n) + ' \\t'\n    return digest(s.strip()) + digest(s.lstrip()) * 2 + digest(s.rstrip()) * 3"
        " + digest(s.strip('a ')) * 4 + digest(s.lstrip('H')) * 5 + digest(s.rstrip('\\t d')) * 6 + digest(s.strip(''))\n",
        CASES,
    ),
    "split": (
        "def j(xs: list[str]) -> int:\n    return digest('|'.join(xs)) * 100 + len(xs)\n\n"
        "def f(n: int, k: int) -> int:\n    s = words(n) + ' a  b '\n"
        "    return (j(s.split()) + j(s.split(',')) * 2 + j(s.split(' ', k)) * 3 + j(s.rsplit()) * 4"
        " + j(s.rsplit(',', k)) * 5 + j(s.split('a,')) * 6 + j(s.rsplit(' ', k))) % 1000000007\n",
        [(n, k) for n in range(9) for k in (-1, 0, 1, 2)],
    ),
    "split_empty_sep": ("def f(n: int) -> int:\n    return len(words(n).split(''))\n", [(2,)]),
    "replace": (
        "def f(n: int, k: int) -> int:\n    s = words(n)\n"
        "    return digest(s.replace('l', 'LL')) + digest(s.replace('', '-', k)) * 3 + digest(s.replace('a', '', k)) * 5\n",
        [(n, k) for n in range(9) for k in (-1, 0, 1, 5)],
    ),
    "find": (
        "def f(n: int, m: int) -> int:\n    s = words(n) + 'aXa'\n    t = words(m)\n"
        "    return (s.find(t) + 100 * s.rfind(t) + 10000 * s.count(t) + 1000000 * s.startswith(t)"
        " + 10000000 * s.endswith(t) + 100000000 * s.find('a') + 1000000000 * s.count('a'))\n",
        [(n, m) for n in range(9) for m in (0, 1, 6)],
    ),
    "index_found": (
        "def f(n: int) -> int:\n    s = words(n) + 'a'\n    return s.index('a') * 100 + s.rindex('a')\n",
        CASES,
    ),
    "index_absent": ("def f(n: int) -> int:\n    return words(n).index('#')\n", [(2,)]),
    "rindex_absent": ("def f(n: int) -> int:\n    return words(n).rindex('#')\n", [(2,)]),
    "pad": (
        "def f(n: int, w: int) -> int:\n    s = words(n)\n"
        "    return (digest(s.zfill(w)) + digest(s.center(w)) * 2 + digest(s.ljust(w)) * 3 + digest(s.rjust(w)) * 4"
        " + digest(s.center(w, '*')) * 5 + digest(s.ljust(w, '\\u00e9')) * 6 + digest('-42'.zfill(w)) * 7"
        " + digest('+7'.zfill(w))) % 1000000007\n",
        [(n, w) for n in range(9) for w in (-1, 0, 5, 12)],
    ),
    "pad_long_fill": ("def f(n: int) -> int:\n    return len(words(n).center(9, 'ab'))\n", [(2,)]),
    "methods_chain": (
        "def f(n: int) -> int:\n    s = words(n)\n    return digest(s.strip().lower().replace(' ', '_').upper()[1:].zfill(4))\n",
        CASES,
    ),
    "assert_str": (
        "def g(s: str) -> str:\n    return s.upper() + '!'\n\n"
        "def f(n: int) -> int:\n    assert g(words(n)) == 'A!'\n    assert words(n) < 'b'\n    assert words(n) in 'xa'\n"
        "    return 1\n",
        [(1,), (2,), (0,)],
    ),
    "empty_list_of_strs": (
        "def tokens(text: str) -> list[str]:\n    out = []\n    word = ''\n    for ch in text + ' ':\n"
        "        if ch == ' ' or ch == ',':\n            if word:\n                out.append(word)\n"
        "            word = ''\n        else:\n            word += ch\n    return out\n\n"
        "def none() -> list[str]:\n    xs = []\n    return xs\n\n"
        "def count(xs: list[str]) -> int:\n    return len(xs)\n\n"
        "def f(n: int) -> int:\n    ys = []\n    parts = []\n    return count(tokens(words(n))) * 100 + count(ys) + len(none())"
        " + digest('+'.join(parts) + '|'.join(tokens(words(n))))\n",
        CASES,
    ),
    "str_params_and_returns": (
        "def shout(s: str, k: int) -> str:\n    if k <= 0:\n        return s\n    return shout(s + '!', k - 1)\n\n"
        "def f(n: int) -> int:\n    return digest(shout(words(n), n))\n",
        CASES,
    ),
}


@pytest.mark.parametrize("backend", ["reference", "cpu"])
def test_str_programs_match_cpython(backend):
    programs = {name: (DIGEST + src, cases) for name, (src, cases) in PROGRAMS.items()}
    assert program_disagreements(programs, backend) == []


ERRORS = [
    ("return len(f'{x}')", "f-strings: not supported by gpucc"),
    ("return len(b'x')", "bytes literals: not supported by gpucc"),
    ("return len('a' b'x')", "invalid syntax"),
    ("return len('\\N{DIGIT ONE}')", "invalid escape sequence '\\N'"),
    ("s = 'ab'\n    s[0] = 'c'\n    return 0", "item assignment to a str (strs are immutable): not supported by gpucc"),
    ("return len('a' + 1)", "unsupported operand types for '+': str and int"),
    ("return len('a' - 'b')", "unsupported operand types for '-': str and str"),
    ("return len('a' * 'b')", "unsupported operand types for '*': str and str"),
    ("return len('a' * 1.5)", "unsupported operand types for '*': str and float"),
    ("return 'a' < 1", "unsupported operand types for '<': str and int"),
    ("return 'a' == 1", "unsupported operand types for '==': str and int"),
    ("return 1 in ['a']", "unsupported operand types for 'in': int and list[str]"),
    ("return 'a' in [1]", "unsupported operand types for 'in': str and list[int]"),
    ("return len([1, 'a'])", "lists mixing elements of different types"),
    ("return len(['a', 1.5])", "lists mixing elements of different types"),
    ("return len(min('abc'))", "unsupported operand types for 'min': str and str"),
    ("return len(min('a', 1))", "unsupported operand types for 'min': str and int"),
    ("return sum(['a'])", "unsupported operand types for 'sum': list[str] and list[str]"),
    ("return abs('a')", "unsupported operand types for 'abs': str and str"),
    ("return ord(1)", "unsupported operand types for 'ord': int and int"),
    ("return len(chr('a'))", "unsupported operand types for 'chr': str and str"),
    ("return len(str([1]))", "unsupported operand types for 'str': list[int] and list[int]"),
    ("return len(sorted('cba'))", "unsupported operand types for 'sorted': str and str"),
    ("return len('a'.format(1))", "methods other than the list, str, dict and set methods of the README"),
    ("s = 'a'\n    s.append('b')\n    return 0", "methods other than the list, str, dict and set methods"),
    ("xs = ['a']\n    return len(xs.upper())", "methods other than the list, str, dict and set methods"),
    ("return len(x.upper())", "unsupported operand types for 'upper': int and int"),
    ("return len('a'.strip('b', 'c'))", "'strip' takes 1 argument(s), 2 given"),
    ("return len('a'.replace('b'))", "'replace' takes 2 argument(s), 1 given"),
    ("return 'a'.find(1)", "type mismatch: expected str, got int"),
    ("return len('a'.zfill('3'))", "type mismatch: expected int, got str"),
    ("return len(','.join([1]))", "type mismatch: expected list[str], got list[int]"),
    ("return len('a b'.split(maxsplit=1))", "keyword arguments: not supported by gpucc"),
    ("'a'.upper()\n    xs = ['a']\n    xs.append(1)\n    return 0", "type mismatch: expected str, got int"),
    ("xs = []\n    xs.append(1)\n    xs.append('a')\n    return 0", "type mismatch: expected str, got int"),
    ("xs = []\n    xs.append('a')\n    xs.append(1.5)\n    return 0", "type mismatch: expected str, got float"),
    ("xs = [1]\n    return len(','.join(xs))", "type mismatch: expected list[str], got list[int]"),
    ("s: str = 1\n    return 0", "type mismatch: expected str, got int"),
    ("s = 'a'\n    s -= 'b'\n    return 0", "str and str"),
    ("return len('a'.upper)", "attribute access: not supported by gpucc"),
    ("return 'a'.upper()", "return type mismatch: expected int, got str"),
]


@pytest.mark.parametrize("body, message", ERRORS, ids=[e[0] for e in ERRORS])
def test_str_errors_are_named_and_located(body, message):
    src = f"def f(x: int) -> int:\n    {body}\n"
    batch = compile_batch([src])
    assert not batch.ok(0)
    err = batch.error(0)
    assert message in err.message, err.format()
    assert err.line >= 2


def test_str_annotations_everywhere():
    src = (
        "def stub(s: str, xs: list[str]) -> list[str]:\n    ...\n\n"
        "def f(s: str, xs: list[str]) -> str:\n    t: str = s\n    ys: list[str] = xs\n    return t + ys[0]\n"
    )
    batch = compile_batch([src])
    assert batch.ok(0), batch.error(0)
    str_list = typecodes.list_of(typecodes.STR)  # signatures are contract.typecodes codes
    assert list(batch.func_param_types[1][:2]) == [typecodes.STR, str_list] and int(batch.func_ret_type[0]) == str_list


def test_ord_of_an_index_is_one_instruction_unless_a_jump_meets_it():
    """ord(s[i]): STR_GET 1 (the code point, no 1-char str); where the argument is no plain
    index (a conditional's two STR_GETs meet at the ord) STR_GET 0 and STR_ORD stay."""
    from gpucc.contract.image import Program
    from gpucc.vm.disasm import disassemble

    def ops(body):
        batch = compile_batch([f"def f(s: str, t: str, i: int) -> int:\n    return {body}\n"])
        assert batch.ok(0), batch.error(0)
        return [line.split()[-2:] for line in disassemble(Program.from_batch(batch)).splitlines() if "STR_" in line]

    assert ops("ord(s[i])") == [["STR_GET", "1"]]
    assert ops("ord(s[i] if i else t[0])") == [["STR_GET", "0"], ["STR_GET", "0"], ["STR_ORD", "0"]]


def test_identical_literals_share_their_pool_entries():
    batch = compile_batch(["def f() -> int:\n    return len('abc' + 'abc' + 'ab' 'c' + '' + '')\n"])
    assert batch.ok(0), batch.error(0)
    assert batch.consts.tolist() == [0, 3, 97, 98, 99]


def test_the_constant_pool_takes_string_heavy_code():
    lines = "".join(f"    xs.append('word number {i} of many')\n" for i in range(800))
    batch = compile_batch([f"def f() -> int:\n    xs: list[str] = []\n{lines}    return len(xs)\n"])
    assert batch.ok(0), batch.error(0)
    assert len(batch.consts) > 800 * 20


LITERALS = [
    "''", '""', "''''''", "'abc'", '"it\'s"', "'a\\'b\\\"c'", "'\\n\\t\\r\\\\\\a\\b\\f\\v'", "'\\0\\7\\101\\1234\\777'",
    "'\\x41\\xff\\x00'", "'\\u00e9\\u4e2d\\uFFFF\\ud800'", "'\\U0001F600\\U0010ffff\\U00000041'", "'\\d\\q\\8\\ '",
    "'back\\\nslash'", "'''tri\nple \"q\" 'q' ''' '''\\\n'''", '"""a""b"""', "r'\\n\\'\\\\'", "R\"\\d\\\n\"", "u'\\u0394'",
    "U'x'", "'h\u00e9\u4e2d\U0001f600'", "'a' \"b\" '''c''' r'\\d'", "'''\r\n'''", "'''a\r\nb'''",
]  # fmt: skip


@pytest.mark.parametrize("literal", LITERALS, ids=range(len(LITERALS)))
def test_literals_decode_as_cpython(literal):
    """The pool holds each literal's length and code points, as CPython reads the literal."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # '\d': an invalid escape keeps its backslash
        value = eval(literal)
    batch = compile_batch([f"def f() -> int:\n    return len({literal})\n"])
    assert batch.ok(0), batch.error(0)
    assert batch.consts.tolist() == [len(value), *map(ord, value)]


def test_a_pool_past_its_capacity_is_a_located_error():
    src = "def f() -> int:\n    x = len('ok')\n    return x + len('" + "a" * limits.MAX_CONSTS + "')\n"
    batch = compile_batch([src])
    err = batch.error(0)
    assert err.message == f"too many constants (limit {limits.MAX_CONSTS})"
    assert (err.line, err.col) == (3, 20)
