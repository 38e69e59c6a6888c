"""Generate vm/unicode_tables.npz, the tables of vm/unicode.py, from this CPython's own str
methods (building them at import would cost about a second):

    python -m gpucc.vm.unicode_gen   # rewrites vm/unicode_tables.npz

Each code point's record holds its flags (vm/unicode.py's bits, plus its decimal value) and
its four full case mappings; equal records are stored once, found through a three-level index
(CPython's splitbins, Tools/unicode/makeunicodedata.py, applied twice).
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import numpy as np

TABLES = Path(__file__).with_name("unicode_tables.npz")
MAX_CODE_POINT = 0x10FFFF

# char_flags bits (vm/unicode.py exports them); a decimal's value is at DECIMAL_SHIFT
ALPHA, DECIMAL, DIGIT, NUMERIC, SPACE, UPPER, LOWER, CASED, CASE_IGNORABLE, TITLECASE = (1 << i for i in range(10))
DECIMAL_SHIFT = 12
# a record: its flags, then its mappings in case_mapping's `which` order (vm/unicode.py)
LOWER_CASE, UPPER_CASE, TITLE_CASE, FOLD = 1, 2, 3, 4
RECORD_WIDTH = 5


def flags(c: str) -> int:
    """c's flag bits as the str methods see them (the oracle tests/vm/test_unicode.py checks)."""
    cased = (c + "a").title()[-1] == "a"  # title() lowers a letter after a cased char
    # 'AcΣ' lowers Σ to final ς iff c is case-ignorable or cased; 'AΣc' iff ignorable or uncased
    ignorable = ("A" + c + "Σ").lower()[-1] == "ς" and ("AΣ" + c).lower()[1] == "ς"
    bits = [
        (c.isalpha(), ALPHA), (c.isdecimal(), DECIMAL), (c.isdigit(), DIGIT), (c.isnumeric(), NUMERIC),
        (c.isspace(), SPACE), (c.isupper(), UPPER), (c.islower(), LOWER), (cased, CASED),
        (ignorable, CASE_IGNORABLE), (unicodedata.category(c) == "Lt", TITLECASE),
    ]  # fmt: skip
    decimal = int(c) if c.isdecimal() else 0
    return sum(bit for on, bit in bits if on) | decimal << DECIMAL_SHIFT


def record(cp: int, extended: list[int], known: dict) -> tuple:
    c = chr(cp)
    fields = [flags(c)]
    for mapped in (c.lower(), c.upper(), c.title(), c.casefold()):  # fields LOWER_CASE .. FOLD
        if len(mapped) == 1:
            fields.append((ord(mapped) - cp) << 2 | 1)
            continue
        points = tuple(map(ord, mapped))
        if points not in known:
            known[points] = len(extended)
            extended.extend(points)
        fields.append(known[points] << 2 | len(points))
    return tuple(fields)


def split(t: list[int], shift: int) -> tuple[list[int], list[int]]:
    """(index, blocks): t cut into blocks of 1 << shift, equal blocks stored once, with
    t[i] == blocks[(index[i >> shift] << shift) + (i & mask)] (CPython's splitbins step)."""
    index, blocks, seen = [], [], {}
    for i in range(0, len(t), 1 << shift):
        block = tuple(t[i : i + (1 << shift)])
        if block not in seen:
            seen[block] = len(blocks)
            blocks.extend(block)
        index.append(seen[block] >> shift)
    return index, blocks


def three_levels(t: list[int]) -> tuple[list[int], list[int], list[int], int, int]:
    """(index1, index2, index3, shift1, shift2) of least total size: split twice (three levels
    keep the tables well inside CUDA's 64 KiB of constant memory; two would not)."""
    best = None
    for shift1 in range(4, 12):
        index1, blocks = split(t, shift1)
        for shift2 in range(2, 8):
            index2, index3 = split(blocks, shift2)
            size = sum(len(x) * _width(x) for x in (index1, index2, index3))
            if best is None or size < best[0]:
                best = size, index1, index2, index3, shift1, shift2
    return best[1:]


def _width(values: list[int]) -> int:
    return 1 if max(values) < 256 else 2 if max(values) < 65536 else 4


def _array(values: list[int]) -> np.ndarray:
    return np.array(values, {1: np.uint8, 2: np.uint16, 4: np.int32}[_width(values)])


def build() -> dict[str, np.ndarray]:
    extended, known, records, ids = [], {}, {}, []
    for cp in range(MAX_CODE_POINT + 1):
        rec = record(cp, extended, known)
        ids.append(records.setdefault(rec, len(records)))
    index1, index2, index3, shift1, shift2 = three_levels(ids)
    return {
        "version": np.array([int(p) for p in unicodedata.unidata_version.split(".")], np.int32),
        "shifts": np.array([shift1, shift2], np.int32),
        "index1": _array(index1),
        "index2": _array(index2),
        "index3": _array(index3),
        "records": np.array(list(records), np.int32).ravel(),
        "extended": np.array(extended, np.int32),
    }


if __name__ == "__main__":
    tables = build()
    np.savez(TABLES, **tables)
    sizes = ", ".join(f"{k} {v.nbytes} B" for k, v in tables.items())
    print(f"{TABLES}: Unicode {unicodedata.unidata_version}, Python {sys.version.split()[0]}: {sizes}", file=sys.stderr)
