"""Character classes and literal scanners of the lexer (numba subset, used by compiler.lexer).

Each scanner takes the source bytes and a position and returns where the literal ends plus
what it found; none allocates or raises.
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler.errors import (
    E_BAD_CHAR,
    E_BAD_ESCAPE,
    E_BAD_NUMBER,
    E_COMPLEX_LITERAL,
    E_FLOAT_LITERAL,
    E_INT_TOO_LARGE,
)
from gpucc.compiler.tokens import PREFIX_BYTES, PREFIX_FORMAT, PREFIX_RAW, TK_FLOAT, TK_INT
from gpucc.contract.jitable import nrt_free

INT64_MAX = np.int64(9223372036854775807)
MANTISSA_LIMIT = np.int64(2**53)
POW10 = np.array([10.0**k for k in range(23)], dtype=np.float64)  # each exact
BAD_FLOAT = np.int64(-1)  # never a literal's bits: literals are >= 0 (their sign is an operator)
# bytes (also used by compiler.lexer)
NL, CR, TAB, FF, SP, HASH, BSLASH, DOT, USCORE = 10, 13, 9, 12, 32, 35, 92, 46, 95
SQUOTE, DQUOTE = 39, 34


@nrt_free
def _lower(c):
    return c + 32 if 65 <= c <= 90 else c


@nrt_free
def is_digit(c):
    return 48 <= c <= 57


@nrt_free
def _digit_value(c):
    """Value of a digit in any base up to 16, or 99."""
    if 48 <= c <= 57:
        return c - 48
    c = _lower(c)
    if 97 <= c <= 102:
        return c - 87
    return 99


@nrt_free
def is_name_start(c):
    return (65 <= c <= 90) or (97 <= c <= 122) or c == USCORE


@nrt_free
def is_name_char(c):
    return is_name_start(c) or is_digit(c)


@nrt_free
def is_string_prefix(src, start, end):
    """True for r, b, u, f, br, rb, fr, rf in any case."""
    if end - start == 1:
        c = _lower(src[start])
        return c == 114 or c == 98 or c == 117 or c == 102
    if end - start == 2:
        a = _lower(src[start])
        b = _lower(src[start + 1])
        if a == 114:
            return b == 98 or b == 102
        return (a == 98 or a == 102) and b == 114
    return False


@nrt_free
def prefix_flags(src, start, q):
    """The PREFIX_* bits of the string prefix src[start:q] (r, b, f in any case; u: none)."""
    flags = 0
    for p in range(start, q):
        c = _lower(src[p])
        if c == 114:
            flags |= PREFIX_RAW
        elif c == 98:
            flags |= PREFIX_BYTES
        elif c == 102:
            flags |= PREFIX_FORMAT
    return flags


@nrt_free
def match_table(src, start, hi, table, lens, count, length):
    """Index of the table row of exactly `length` bytes equal to src[start:start+length], or -1."""
    if start + length > hi:
        return -1
    for r in range(count):
        if lens[r] != length:
            continue
        same = True
        for j in range(length):
            if table[r, j] != src[start + j]:
                same = False
                break
        if same:
            return r
    return -1


@nrt_free
def scan_string(src, q, hi):
    """End of the string literal whose opening quote is at q (exclusive) and the number of
    newlines inside it; end = -pos - 1 where it is unterminated (pos: where scanning stopped)."""
    quote = src[q]
    triple = q + 2 < hi and src[q + 1] == quote and src[q + 2] == quote
    p = q + 3 if triple else q + 1
    lines = 0
    while p < hi:
        c = src[p]
        if c == BSLASH:
            if p + 1 < hi and src[p + 1] == NL:
                lines += 1
            elif p + 2 < hi and src[p + 1] == CR and src[p + 2] == NL:
                lines += 1
                p += 1
            p += 2
            continue
        if c == NL:
            if not triple:
                return -p - 1, lines
            lines += 1
        elif c == quote:
            if not triple:
                return p + 1, lines
            if p + 2 < hi and src[p + 1] == quote and src[p + 2] == quote:
                return p + 3, lines
        p += 1
    return -min(p, hi) - 1, lines


@nrt_free
def _hex_digits(src, p, hi, count):
    for j in range(p, p + count):
        if j >= hi or _digit_value(src[j]) >= 16:
            return False
    return True


@nrt_free
def check_string(src, start, q, end):
    """Validate the literal src[start:end] (prefix up to the quote at q) as CPython does when
    it builds the value: returns (error code, span start, span end), code 0 when valid."""
    raw = False
    is_bytes = False
    for p in range(start, q):
        c = _lower(src[p])
        raw = raw or c == 114
        is_bytes = is_bytes or c == 98
    p = q
    while p < end:
        c = src[p]
        if c >= 0x80 and is_bytes:
            return E_BAD_CHAR, p, min(p + utf8_len(c), end)
        if c == BSLASH and not raw:
            x = src[p + 1]
            need = 0
            if x == 120:  # \xhh
                need = 2
            elif (x == 117 or x == 85 or x == 78) and not is_bytes:  # \uhhhh \Uhhhhhhhh \N{name}
                need = 4 if x == 117 else 8
                if x == 78:  # a name the kernel cannot look up: refuse
                    return E_BAD_ESCAPE, p, p + 2
                if x == 85 and _hex_digits(src, p + 2, end, 8):
                    value = 0
                    for j in range(p + 2, p + 10):
                        value = value * 16 + _digit_value(src[j])
                    if value > 0x10FFFF:
                        return E_BAD_ESCAPE, p, p + 10
            if need > 0 and not _hex_digits(src, p + 2, end - 1, need):
                return E_BAD_ESCAPE, p, min(p + 2 + need, end)
            p += 2
            continue
        p += 1
    return 0, 0, 0


# the one-character escapes \\ \' \" \a \b \f \n \r \t \v: the letter, its code point
ESCAPE_LETTERS = np.array([92, 39, 34, 97, 98, 102, 110, 114, 116, 118], dtype=np.int32)
ESCAPE_VALUES = np.array([92, 39, 34, 7, 8, 12, 10, 13, 9, 11], dtype=np.int64)


@nrt_free
def _escape(src, p, end):
    """The escape sequence whose backslash is at p (a literal check_string accepted): (code
    point, its end); code point -1 for a backslash-newline (nothing), and for an unknown
    escape the backslash itself (the next character is read as it is)."""
    x = src[p + 1]
    for j in range(ESCAPE_LETTERS.shape[0]):
        if x == ESCAPE_LETTERS[j]:
            return ESCAPE_VALUES[j], p + 2
    if x == NL:
        return -1, p + 2
    if x == CR:  # CR LF
        return -1, p + 3
    if 48 <= x <= 55:  # up to three octal digits
        value = 0
        q = p + 1
        while q < end and q < p + 4 and 48 <= src[q] <= 55:
            value = value * 8 + (src[q] - 48)
            q += 1
        return value, q
    need = 2 if x == 120 else (4 if x == 117 else (8 if x == 85 else 0))
    if need == 0:
        return BSLASH, p + 1
    value = 0
    for q in range(p + 2, p + 2 + need):
        value = value * 16 + _digit_value(src[q])
    return value, p + 2 + need


@nrt_free
def utf8_char(src, p):
    """The code point of the UTF-8 sequence at p and where it ends (src is valid UTF-8)."""
    c = np.int64(src[p])
    n = utf8_len(c)
    if n == 1:
        return c, p + 1
    value = c & (0x7F >> n)
    for q in range(p + 1, p + n):
        value = (value << 6) | (np.int64(src[q]) & 0x3F)
    return value, p + n


@nrt_free
def string_code_points(src, start, end, out, k):
    """Decode the str literal src[start:end] (one token check_string accepted, not bytes) as
    CPython does: its code points go to out[k], out[k + 1], ... (those past out's end are
    only counted).  Returns how many there are."""
    q = start
    raw = False
    while src[q] != SQUOTE and src[q] != DQUOTE:
        raw = raw or _lower(src[q]) == 114
        q += 1
    quotes = 3 if q + 2 < end - 1 and src[q + 1] == src[q] and src[q + 2] == src[q] else 1
    p = q + quotes
    stop = end - quotes
    n = 0
    while p < stop:
        c = np.int64(src[p])
        if c == BSLASH and not raw:
            c, p = _escape(src, p, stop)
        elif c == CR:  # CR LF in the source is a newline
            c = NL
            p += 2
        else:
            c, p = utf8_char(src, p)
        if c >= 0:
            if k + n < out.shape[0]:
                out[k + n] = c
            n += 1
    return n


@nrt_free
def _scan_digits(src, p, hi, base):
    """Skip digits of `base` with single '_' separators between digits; returns (end, ok)."""
    ok = True
    prev_digit = False
    while p < hi:
        c = src[p]
        if c == USCORE:
            if not prev_digit:
                ok = False
            prev_digit = False
        elif _digit_value(c) < base:
            prev_digit = True
        else:
            break
        p += 1
    return p, ok and prev_digit


@nrt_free
def float_literal_bits(src, start, end):
    """The IEEE double bits of the decimal float literal src[start:end], correctly rounded,
    or BAD_FLOAT when it is outside the exact fast path: digits * 10**e with the digits
    (trailing zeros dropped) below 2**53 and |e| <= 22 is one correctly rounded operation."""
    digits = np.int64(0)
    exp10 = 0
    p = start
    seen_dot = False
    while p < end and src[p] != 101 and src[p] != 69:  # up to e / E
        c = src[p]
        if c == DOT:
            seen_dot = True
        elif c != USCORE:
            d = np.int64(c) - 48
            if digits > (MANTISSA_LIMIT - 1 - d) // 10:  # past 2**53: outside the exact path
                if d != 0:
                    return BAD_FLOAT
                if not seen_dot:
                    exp10 += 1  # a trailing integer zero
            else:
                digits = digits * 10 + d
                if seen_dot:
                    exp10 -= 1
        p += 1
    if p < end:  # the exponent
        p += 1
        sign = 1
        if src[p] == 43 or src[p] == 45:
            sign = -1 if src[p] == 45 else 1
            p += 1
        e = 0
        while p < end:
            if src[p] != USCORE:
                e = min(e * 10 + (np.int64(src[p]) - 48), 100000)
            p += 1
        exp10 += sign * e
    if digits == 0:
        return np.int64(0)
    while digits % 10 == 0 and exp10 < 0:
        digits //= 10
        exp10 += 1
    if exp10 < -22 or exp10 > 22:
        return BAD_FLOAT
    x = np.float64(digits)
    if exp10 >= 0:
        x = x * POW10[exp10]
    else:
        x = x / POW10[-exp10]
    return np.float64(x).view(np.int64)


@nrt_free
def scan_number(src, p, hi):
    """Scan a numeric literal at p.  Returns (end, kind, value, error) with kind TK_INT or
    TK_FLOAT and error one of 0, E_BAD_NUMBER, E_INT_TOO_LARGE."""
    start = p
    base = 10
    if src[p] == 48 and p + 1 < hi:
        x = _lower(src[p + 1])
        if x == 120:
            base = 16
        elif x == 111:
            base = 8
        elif x == 98:
            base = 2
    kind = TK_INT
    ok = True
    if base != 10:
        p += 2
        if p < hi and src[p] == USCORE:  # 0x_ff is legal
            p += 1
        p, ok = _scan_digits(src, p, hi, base)
    else:
        if src[p] != DOT:
            p, ok = _scan_digits(src, p, hi, 10)
        if p < hi and src[p] == DOT:
            kind = TK_FLOAT
            p += 1
            if p < hi and is_digit(src[p]):
                p, ok2 = _scan_digits(src, p, hi, 10)
                ok = ok and ok2
        if p < hi and (src[p] == 101 or src[p] == 69):  # e E
            kind = TK_FLOAT
            p += 1
            if p < hi and (src[p] == 43 or src[p] == 45):
                p += 1
            p, ok2 = _scan_digits(src, p, hi, 10)
            ok = ok and ok2
        if p < hi and (src[p] == 106 or src[p] == 74):  # j J: imaginary
            kind = TK_FLOAT
            p += 1
    while p < hi and (is_name_char(src[p]) or src[p] == DOT):  # 12abc, 0x1g, 1.2.3
        ok = False
        p += 1
    if not ok:
        return p, kind, 0, E_BAD_NUMBER
    if kind == TK_FLOAT:
        if src[p - 1] == 106 or src[p - 1] == 74:
            return p, kind, 0, E_COMPLEX_LITERAL
        bits = float_literal_bits(src, start, p)
        if bits == BAD_FLOAT:
            return p, kind, 0, E_FLOAT_LITERAL
        return p, kind, bits, 0
    value = np.int64(0)
    q = start + 2 if base != 10 else start
    leading_zero = base == 10 and src[start] == 48
    while q < p:
        d = _digit_value(src[q])
        q += 1
        if d >= base:
            continue
        if leading_zero and d != 0:  # 007 is not Python 3
            return p, kind, 0, E_BAD_NUMBER
        if value > (INT64_MAX - d) // base:
            return p, kind, 0, E_INT_TOO_LARGE
        value = value * base + d
    return p, kind, value, 0


@nrt_free
def utf8_len(c):
    if 0xC0 <= c < 0xE0:
        return 2
    if 0xE0 <= c < 0xF0:
        return 3
    if 0xF0 <= c < 0xF8:
        return 4
    return 1
