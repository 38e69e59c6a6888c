"""vm/unicode.py against this CPython's str methods, for every code point (numba CPU), and on
a sample as plain Python; tests/gpu/test_cuda_text.py runs them under the CUDA simulator."""

from __future__ import annotations

import unicodedata

import numpy as np
import pytest
from numba import njit

from gpucc.vm import unicode as u

WHICH = {u.LOWER_CASE: str.lower, u.UPPER_CASE: str.upper, u.TITLE_CASE: str.title, u.FOLD: str.casefold}
N = u.MAX_CODE_POINT + 1


@njit
def _all_facts(n):
    """Every code point's flags, decimal value and four mappings (n, c0, c1, c2)."""
    flags = np.zeros(n, np.int64)
    decimals = np.zeros(n, np.int64)
    maps = np.zeros((n, 4, 4), np.int64)
    for cp in range(n):
        flags[cp] = u.char_flags(cp)
        decimals[cp] = u.decimal_value(cp)
        for k in range(4):
            m = u.case_mapping(cp, k + 1)
            for j in range(4):
                maps[cp, k, j] = m[j]
    return flags, decimals, maps


@pytest.fixture(scope="module")
def facts():
    return _all_facts(N)


def expected_flags(c: str) -> int:
    """The flag bits as CPython's str methods use them (Objects/unicodeobject.c)."""
    cased = (c + "a").title()[-1] == "a"  # title(): a letter after a cased char is lowered
    # lower()'s final sigma: Σ after cased + case-ignorables, before no cased (skipping ignorables)
    ignorable = ("A" + c + "Σ").lower()[-1] == "ς" and ("AΣ" + c).lower()[1] == "ς"
    bits = {
        u.ALPHA: c.isalpha(), u.DECIMAL: c.isdecimal(), u.DIGIT: c.isdigit(), u.NUMERIC: c.isnumeric(),
        u.SPACE: c.isspace(), u.UPPER: c.isupper(), u.LOWER: c.islower(), u.CASED: cased,
        u.CASE_IGNORABLE: ignorable, u.TITLECASE: c.istitle() and not c.isupper(),
    }  # fmt: skip
    return sum(bit for bit, on in bits.items() if on)


def test_tables_are_this_pythons_unicode_version():
    assert u.UNIDATA_VERSION == unicodedata.unidata_version, "regenerate: python -m gpucc.vm.unicode_gen"


def test_flags_and_decimals_of_every_code_point(facts):
    flags, decimals, _ = facts
    bad = [hex(cp) for cp in range(N) if flags[cp] != expected_flags(chr(cp))]
    assert not bad, bad[:20]
    bad = [hex(cp) for cp in range(N) if decimals[cp] != (int(chr(cp)) if chr(cp).isdecimal() else -1)]
    assert not bad, bad[:20]


@pytest.mark.parametrize("which", list(WHICH))
def test_case_mapping_of_every_code_point(facts, which):
    maps = facts[2][:, which - 1]
    method = WHICH[which]
    bad = []
    for cp in range(N):
        want = [ord(x) for x in method(chr(cp))]
        n = maps[cp, 0]
        if list(maps[cp, 1 : 1 + n]) != want or any(maps[cp, 1 + n :]):
            bad.append(hex(cp))
    assert not bad, bad[:20]


def test_famous_cases_and_outside_code_points_as_plain_python():
    assert u.case_mapping(ord("ß"), u.UPPER_CASE) == (2, ord("S"), ord("S"), 0)
    assert u.case_mapping(ord("İ"), u.LOWER_CASE) == (2, ord("i"), 0x307, 0)
    assert u.case_mapping(ord("ŉ"), u.UPPER_CASE) == (2, 0x2BC, ord("N"), 0)
    assert u.case_mapping(0x390, u.UPPER_CASE) == (3, 0x399, 0x308, 0x301)
    assert u.case_mapping(ord("ǆ"), u.TITLE_CASE) == (1, ord("ǅ"), 0, 0)
    assert u.char_flags(ord("ǅ")) & u.TITLECASE and u.decimal_value(ord("٣")) == 3
    for cp in (-1, N, 2**40):
        assert u.char_flags(cp) == 0 and u.decimal_value(cp) == -1
        assert u.case_mapping(cp, u.FOLD) == (1, cp, 0, 0)


def test_plain_python_agrees_on_a_sample(facts):
    flags, decimals, maps = facts
    for cp in np.random.default_rng(12).integers(0, N, 3000).tolist() + list(range(0x250)):
        assert u.char_flags(cp) == flags[cp] and u.decimal_value(cp) == decimals[cp], hex(cp)
        for k in range(4):
            assert tuple(u.case_mapping(cp, k + 1)) == tuple(maps[cp, k]), (hex(cp), k)
