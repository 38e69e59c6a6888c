"""The Unicode facts Python's str methods use, for the VM kernel bodies (numba subset): each
code point's flags (isalpha .. isspace, the case properties) and full case mappings, exactly
as this CPython's str methods see them (Objects/unicodectype.c).

The tables are generated from CPython's own str methods by vm/unicode_gen.py and shipped as
vm/unicode_tables.npz; numba freezes them into the compiled code (CUDA: constant memory).
A code point outside 0..0x10FFFF has no flags and maps to itself.
"""

from __future__ import annotations

import numpy as np
from numba.extending import register_jitable

from gpucc.vm.unicode_gen import (  # noqa: F401 - the flag bits and `which` codes are this module's API
    ALPHA,
    CASE_IGNORABLE,
    CASED,
    DECIMAL,
    DECIMAL_SHIFT,
    DIGIT,
    FOLD,
    LOWER,
    LOWER_CASE,
    MAX_CODE_POINT,
    NUMERIC,
    RECORD_WIDTH,
    SPACE,
    TABLES,
    TITLE_CASE,
    TITLECASE,
    UPPER,
    UPPER_CASE,
)

with np.load(TABLES) as _tables:
    UNIDATA_VERSION = ".".join(map(str, _tables["version"]))
    SHIFT1, SHIFT2 = map(int, _tables["shifts"])
    INDEX1 = _tables["index1"]
    INDEX2 = _tables["index2"]
    INDEX3 = _tables["index3"]
    RECORDS = _tables["records"]
    EXTENDED = _tables["extended"]
MASK1 = (1 << SHIFT1) - 1
MASK2 = (1 << SHIFT2) - 1


@register_jitable
def _record(cp):
    """Offset of cp's record in RECORDS; -1 outside the code points."""
    if cp < 0 or cp > MAX_CODE_POINT:
        return np.int64(-1)
    at = (np.int64(INDEX1[cp >> SHIFT1]) << SHIFT1) + (cp & MASK1)
    at = (np.int64(INDEX2[at >> SHIFT2]) << SHIFT2) + (at & MASK2)
    return np.int64(INDEX3[at]) * RECORD_WIDTH


@register_jitable
def char_flags(cp):
    """cp's flag bits (ALPHA .. TITLECASE); its decimal value above DECIMAL_SHIFT."""
    rec = _record(cp)
    if rec < 0:
        return np.int64(0)
    return np.int64(RECORDS[rec]) & ((1 << DECIMAL_SHIFT) - 1)


@register_jitable
def decimal_value(cp):
    """cp's value as a decimal digit (int('٣') == 3), or -1 if it is not one."""
    rec = _record(cp)
    if rec < 0:
        return np.int64(-1)
    flags = np.int64(RECORDS[rec])
    if flags & DECIMAL == 0:
        return np.int64(-1)
    return flags >> DECIMAL_SHIFT


@register_jitable
def case_mapping(cp, which):
    """(n, c0, c1, c2): cp's full mapping (which: LOWER_CASE, UPPER_CASE, TITLE_CASE or FOLD)
    is the n code points c0[, c1[, c2]] (unused ones 0): 'ß' upper is (2, 'S', 'S', 0)."""
    rec = _record(cp)
    if rec < 0:
        return np.int64(1), np.int64(cp), np.int64(0), np.int64(0)
    field = np.int64(RECORDS[rec + which])
    n = field & 3
    if n == 1:
        return np.int64(1), cp + (field >> 2), np.int64(0), np.int64(0)
    at = field >> 2
    last = np.int64(EXTENDED[at + 2]) if n == 3 else np.int64(0)
    return n, np.int64(EXTENDED[at]), np.int64(EXTENDED[at + 1]), last
