"""vm/strconv.py against CPython: str(int), int(s), repr(float), float(s) on edge values and
hypothesis-generated ones (numba CPU), and on a sample as plain Python."""

from __future__ import annotations

import struct
from decimal import Decimal, localcontext

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from numba import njit

from gpucc.contract.status import OK, OVERFLOW, VALUE_ERROR
from gpucc.contract.valuetypes import T_BOOL, T_FLOAT, T_INT
from gpucc.vm import strconv
from gpucc.vm.kernel_text import repr_length
from gpucc.vm.strconv import int_repr

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
# characters int() and float() treat specially, and some they reject
ALPHABET = "0123456789_+-. \t\n\x0b\x0c\r\x1c\x1f\x7f\xa0\u3000\u2028\x85٣٠۹߁१𝟎𝟗¹½ⅷ" + "eEinfatyINFATY\x00xj,"


def codes(s: str) -> np.ndarray:
    return np.array([ord(c) for c in s], np.int64)


@njit
def _int_repr(v):
    buf = np.zeros(24, np.int64)
    n = strconv.int_repr(v, buf, 2)
    return buf[2 : 2 + n].copy()


@njit
def _parse_int(buf):
    return strconv.parse_int(buf, 0, len(buf))


def int_oracle(s: str) -> tuple[int, int]:
    try:
        v = int(s)
    except ValueError:
        return VALUE_ERROR, 0
    return (OK, v) if INT64_MIN <= v <= INT64_MAX else (OVERFLOW, 0)


def text(buf) -> str:
    return "".join(map(chr, buf))


INT_EDGES = [0, 1, -1, 9, 10, -10, 99, 100, INT64_MAX, INT64_MIN, INT64_MIN + 1, 10**18, -(10**18), 10**19 // 10]


@settings(max_examples=3000, deadline=None)
@given(st.integers(INT64_MIN, INT64_MAX))
@example(INT64_MIN)
def test_int_repr_is_str(v):
    assert text(_int_repr(v)) == str(v)


def test_int_repr_edges():
    for v in INT_EDGES:
        assert text(_int_repr(v)) == str(v)


PARSE_INT_EDGES = ["0", "-0", "+0", "00", "1_000", "1__0", "_1", "1_", " 1 ", "\u3000-١٢\u2028", "+", "-", "",
                   " ", "1 2", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
                   "-9223372036854775809", "0" * 4300 + "1", "0" * 4299 + "1", "1" * 4301 + "x", "0x10", "1.0",
                   "１２", "𝟏𝟐", "²", "٣_٣", "\x1c7\x1f", "7\x00", "+-1", "- 1", "1e3"]  # fmt: skip


@settings(max_examples=5000, deadline=None)
@given(st.text(ALPHABET, max_size=12) | st.integers().map(str) | st.text(max_size=8))
@example("")
def test_parse_int_is_int(s):
    assert tuple(_parse_int(codes(s))) == int_oracle(s), repr(s)


def test_parse_int_edges():
    for s in PARSE_INT_EDGES:
        assert tuple(_parse_int(codes(s))) == int_oracle(s), repr(s)


@settings(max_examples=2000, deadline=None)
@given(st.integers(-(2**70), 2**70), st.lists(st.sampled_from(["", "_", " ", "\u3000"]), max_size=4))
def test_parse_int_with_underscores_and_spaces(v, seps):
    digits = str(abs(v))
    s = "-" * (v < 0) + "".join(d + (seps[i % len(seps)] if seps and i % 3 == 1 else "") for i, d in enumerate(digits))
    for x in (s, f" {s}\t", f"{s}_"):
        assert tuple(_parse_int(codes(x))) == int_oracle(x), repr(x)


def test_ints_as_plain_python():
    for v in INT_EDGES:
        buf = np.zeros(24, np.int64)
        assert text(buf[: strconv.int_repr(v, buf, 0)]) == str(v)
    for s in PARSE_INT_EDGES:
        assert strconv.parse_int(codes(s), 0, len(s)) == int_oracle(s), repr(s)


def bits_of(x: float) -> int:
    return struct.unpack("<q", struct.pack("<d", x))[0]


def float_of(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<q", bits))[0]


@njit
def _float_repr(bits):
    buf = np.zeros(40, np.int64)
    scratch = np.zeros(strconv.FLOAT_REPR_SCRATCH, np.int64)
    n = strconv.float_repr(bits, buf, 3, scratch)
    return buf[3 : 3 + n].copy()


FLOAT_EDGES = [0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 0.3, 1 / 3, 2 / 3, 1e16, 1e15, 9999999999999998.0, 1.5e-07, 1e-05,
               0.0001, 0.001, 1e22, 1e23, 9007199254740993.0, 2.0**53, 5e-324, -5e-324, 1e-323,
               2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308, -1.7976931348623157e308,
               float("inf"), float("-inf"), float("nan"), -float("nan"), 123456789012345678.0, 0.5, 100.0, 1e100,
               12345678901234567.0, 1.2345678901234567e-5, 4.35, 2.675, 5e-310, 2.0**-1022, 2.0**1023, 1e300]  # fmt: skip


@settings(max_examples=20000, deadline=None)
@given(st.integers(INT64_MIN, INT64_MAX) | st.floats().map(bits_of))
def test_float_repr_is_repr(bits):
    assert text(_float_repr(bits)) == repr(float_of(bits)), (bits, float_of(bits))


def test_float_repr_edges():
    for x in FLOAT_EDGES:
        assert text(_float_repr(bits_of(x))) == repr(x), x


@njit
def _parse_float(buf):
    return strconv.parse_float(buf, 0, len(buf), np.zeros(strconv.PARSE_FLOAT_SCRATCH, np.int64))


def float_oracle(s: str) -> tuple[int, int]:
    try:
        return OK, bits_of(float(s))
    except ValueError:
        return VALUE_ERROR, 0


PARSE_FLOAT_EDGES = ["0", "-0", "+0.0", "-0e5", "0.1", "1e22", "1e23", "9007199254740993", "9007199254740993.0000001",
                     "5e-324", "4.9e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400", "-1e-400",
                     "1.7976931348623157e308", "1.7976931348623158e308", "1.7976931348623159e308", "1e309", "-1e999",
                     "2.2250738585072011e-308", "2.2250738585072012e-308", "inf", "-Inf", "+INFINITY", "infinity",
                     "iNfInItY", "infinit", "infx", "nan", "-nan", "NaN", "+nan", "nan1", "-", "+", ".", "", " ", "e5",
                     ".e5", "1.", ".5", "-.5", "1e", "1e+", "1e-", "1e+5", "1E5", "1e5.0", "1..5", "1.5.", "1_000.5",
                     "1_000.000_1e1_0", "1__0", "_1", "1_", "1_.5", "1._5", "1e_5", "1_e5", "1e5_", "0x10", "1.5j",
                     " \t1.5\n", "\u3000١٫٥", "١.٥", "\x1c1.5", "1.5\x00", "1 5", "1e1000000000000000000000",
                     "0e1000000000000000000000", "0." + "0" * 400 + "1e400", "1" * 900 + "e-900", "1" * 900,
                     "0.000001", "123456789012345678901234567890", "1" + "0" * 22 + "1", "9" * 17, "8.5",
                     "0.30000000000000004", "179769313486231580793728971405303415079934132710037826936173778980444968"
                     "29292223837486004519591453413733640000e230", "4.4501477170144023e-308"]  # fmt: skip


@settings(max_examples=10000, deadline=None)
@given(st.text(ALPHABET, max_size=14) | st.floats().map(repr) | st.text(max_size=6))
@example("")
def test_parse_float_is_float(s):
    assert tuple(_parse_float(codes(s))) == float_oracle(s), repr(s)


def test_parse_float_edges():
    for s in PARSE_FLOAT_EDGES:
        assert tuple(_parse_float(codes(s))) == float_oracle(s), repr(s)


@st.composite
def decimal_texts(draw):
    """A double or a value about half an ulp off it, to 1..40 significant digits (many digits take the exact path)."""
    x = draw(st.floats(allow_nan=False, allow_infinity=False))
    step = draw(st.sampled_from([0, 1, -1]))
    digits = draw(st.integers(1, 40))
    near = float.fromhex(x.hex()) if step == 0 else (x + (abs(x) * 2**-53 * step))
    text = f"{near:.{digits}e}"
    return draw(st.sampled_from([text, text.replace("e", "0000e"), text.upper(), "-" + text.lstrip("-")]))


@settings(max_examples=10000, deadline=None)
@given(decimal_texts() | st.integers(-(2**80), 2**80).map(str))
def test_parse_float_rounds_correctly(s):
    assert tuple(_parse_float(codes(s))) == float_oracle(s), s


def test_halfway_cases_round_to_even():
    """The exact midpoints of neighbouring doubles (up to 767 digits), and one unit of their last digit off."""
    bits_list = [0, 1, 2**52 - 1, 2**52, 2**53 + 1, bits_of(1.0), bits_of(1e23), bits_of(1.7976931348623157e308) - 1]
    bits_list += np.random.default_rng(8).integers(0, 0x7FEFFFFFFFFFFFFF, 300).tolist()
    with localcontext(prec=1200):
        for bits in bits_list:
            half = (Decimal(float_of(bits)) + Decimal(float_of(bits + 1))) / 2
            for s in (str(half), str(half.next_plus()), str(half.next_minus()), f"{half:e}"):
                assert tuple(_parse_float(codes(s))) == float_oracle(s), s


def test_floats_as_plain_python():
    scratch = np.zeros(strconv.FLOAT_REPR_SCRATCH, np.int64)
    for x in FLOAT_EDGES + np.random.default_rng(3).integers(INT64_MIN, INT64_MAX, 200).view(np.float64).tolist():
        buf = np.zeros(32, np.int64)
        assert text(buf[: strconv.float_repr(bits_of(x), buf, 0, scratch)]) == repr(x)
    for s in PARSE_FLOAT_EDGES + [repr(x) for x in FLOAT_EDGES]:
        assert strconv.parse_float(codes(s), 0, len(s), scratch) == float_oracle(s), repr(s)


@pytest.mark.parametrize("x", [0, 5, 9, 10, 99, 100, -1, -9, -10, -99, -100, 12345, 2**63 - 1, -(2**63), 10**18,
                               -(10**18)])
def test_repr_length_counts_what_int_repr_writes(x):
    """STR_FROM of an int sizes its str by repr_length before int_repr writes into it."""
    buf = np.zeros(24, np.int64)
    assert repr_length(x, T_INT) == int_repr(x, buf, 0) == len(str(x))


def test_repr_length_of_bools_and_other_types():
    assert (repr_length(1, T_BOOL), repr_length(0, T_BOOL), repr_length(0, T_FLOAT)) == (4, 5, -1)
