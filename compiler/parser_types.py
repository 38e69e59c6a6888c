"""Type annotations for compiler.parser: tokens -> a contract.typecodes packed code, no recursion.

    T := int | float | bool | str | None
       | list[T] | tuple[T, ...] | Optional[T]      (typing's List, Tuple, Optional alike)
       | dict[T, T] | set[T]                         (typing's Dict, Set alike)
       | T | None                                   (Optional[T])

A packed code lists its constructors in prefix order, which is the order the tokens come in:
each one's nibbles are appended as it is read (a tuple's arity nibble is filled in at its `]`).
Optional wraps a type once it is complete (at `]`, or at `| None`): the type's nibbles move up
one to make room in front.  The open brackets are a stack of frames packed in one int64
(FRAME_BITS each: what opened it, the nibble where its type starts, the fields so far).  A
type past typecodes.MAX_NIBBLES is the located error "types this large".  Kernel bodies.
"""

from __future__ import annotations

import numpy as np

from gpucc.compiler import errors, tokens
from gpucc.compiler.errors import E_EXPECTED_OP, E_EXPECTED_TYPE, E_UNKNOWN_TYPE, E_UNSUPPORTED
from gpucc.compiler.parser_util import fail_tok, is_kw, is_op
from gpucc.compiler.typeshapes import keys_ok
from gpucc.contract import typecodes
from gpucc.contract.jitable import nrt_free

T = tokens
TK_NAME = T.TK_NAME
MAX_NIBBLES = typecodes.MAX_NIBBLES

# the words of a type, each with the nibble it writes (a leaf) or the bracket it opens
_LEAF_WORDS = (("int", typecodes.INT), ("bool", typecodes.BOOL), ("float", typecodes.FLOAT), ("str", typecodes.STR))
OPENS_LIST, OPENS_TUPLE, OPENS_OPTIONAL, OPENS_DICT, OPENS_SET = 1, 2, 3, 4, 5
_BRACKET_WORDS = (("list", OPENS_LIST), ("List", OPENS_LIST), ("tuple", OPENS_TUPLE), ("Tuple", OPENS_TUPLE),
                  ("Optional", OPENS_OPTIONAL), ("dict", OPENS_DICT), ("Dict", OPENS_DICT), ("set", OPENS_SET),
                  ("Set", OPENS_SET))  # fmt: skip
_WORDS = _LEAF_WORDS + _BRACKET_WORDS
WORD_LEN = max(len(w) for w, _ in _WORDS)
WORD_BYTES = np.array([list(w.encode().ljust(WORD_LEN, b"\0")) for w, _ in _WORDS], dtype=np.uint8)
WORD_LENS = np.array([len(w) for w, _ in _WORDS], dtype=np.int32)
WORD_MEANING = np.array([m for _, m in _WORDS], dtype=np.int32)
N_LEAF_WORDS = len(_LEAF_WORDS)

# a frame: what opened it (OPENS_*), the nibble its type starts at, the fields read so far
FRAME_BITS = 10  # what opened it: 3 bits, its start: 3, its fields: 4
FRAME_MASK = (1 << FRAME_BITS) - 1
MAX_FRAMES = 6  # a frame's type takes a nibble at least, and the innermost type a leaf: deeper ones are too large


@nrt_free
def _word(src, toks, i):
    """Index of the type word at token i in _WORDS, or -1."""
    if toks.kind[i] != TK_NAME:
        return -1
    s, n = toks.start[i], toks.end[i] - toks.start[i]
    for w in range(WORD_LENS.shape[0]):
        if WORD_LENS[w] == n:
            k = 0
            while k < n and WORD_BYTES[w, k] == src[s + k]:
                k += 1
            if k == n:
                return w
    return -1


@nrt_free
def _wrap_optional(code, used, start):
    """Code with its last type (nibbles start .. used) made Optional: (code, used); Optional[None]
    is None and Optional[Optional[T]] is Optional[T]."""
    t = code >> (4 * start)
    if t == typecodes.NONE or (t & 15) == typecodes.OPTIONAL:
        return code, used
    low = code & ((1 << (4 * start)) - 1)
    return low | (((t << 4) | typecodes.OPTIONAL) << (4 * start)), used + 1


@nrt_free
def _too_large(err, toks, i, j):
    return fail_tok(err, toks, i, j, E_UNSUPPORTED, errors.C_TYPE_TOO_LARGE), j


@nrt_free
def annotation(src, toks, i, err):
    """The annotation at token i: (its type code, the token after it), or (-1, i) with err set."""
    code = 0
    used = 0  # nibbles written
    frames = np.int64(0)
    depth = 0
    j = i
    while True:
        start = used  # a type starts at token j
        w = _word(src, toks, j)
        if w >= 0 and w >= N_LEAF_WORDS and is_op(toks, j + 1, T.OP_LSQB):
            opens = WORD_MEANING[w]
            if depth >= MAX_FRAMES:
                return _too_large(err, toks, i, j)
            frames |= np.int64(opens | (start << 3)) << np.int64(FRAME_BITS * depth)
            depth += 1
            if opens == OPENS_LIST or opens == OPENS_DICT or opens == OPENS_SET:
                code |= (typecodes.LIST if opens == OPENS_LIST else typecodes.DICT if opens == OPENS_DICT
                         else typecodes.SET) << (4 * used)  # fmt: skip
                used += 1
            elif opens == OPENS_TUPLE:
                code |= typecodes.TUPLE << (4 * used)
                used += 2  # the arity nibble is written at `]`
            j += 2
            if used > MAX_NIBBLES:
                return _too_large(err, toks, i, j - 1)
            continue
        if w >= 0 and w < N_LEAF_WORDS:
            code |= WORD_MEANING[w] << (4 * used)
        elif not is_kw(toks, j, T.KW_NONE):  # None: nibble 0
            kind = toks.kind[j]
            unknown = kind == TK_NAME or kind == T.TK_STRING or kind == T.TK_KEYWORD
            return fail_tok(err, toks, j, j, E_UNKNOWN_TYPE if unknown else E_EXPECTED_TYPE, 0), i
        used += 1
        j += 1
        if used > MAX_NIBBLES:
            return _too_large(err, toks, i, j - 1)
        while True:  # a type from nibble `start` is complete: `| None`, then the brackets it closes
            if is_op(toks, j, T.OP_VBAR) and is_kw(toks, j + 1, T.KW_NONE):
                code, used = _wrap_optional(code, used, start)
                j += 2
                if used > MAX_NIBBLES:
                    return _too_large(err, toks, i, j - 1)
                continue
            if depth == 0:
                if not keys_ok(code):  # dict[list[int], int]: no hash serves such keys
                    return fail_tok(err, toks, i, j - 1, E_UNSUPPORTED, errors.C_KEY_TYPE), i
                return code, j
            shift = np.int64(FRAME_BITS * (depth - 1))
            frame = (frames >> shift) & FRAME_MASK
            opens, fstart, fields = frame & 7, (frame >> 3) & 7, frame >> 6
            more = opens == OPENS_TUPLE or opens == OPENS_DICT and fields == 0  # a dict's value type follows
            if more and is_op(toks, j, T.OP_COMMA) and not is_op(toks, j + 1, T.OP_RSQB):
                frames += np.int64(1 << 6) << shift  # one more field
                j += 1
                break
            if opens == OPENS_DICT and fields == 0:
                return fail_tok(err, toks, j, j, E_EXPECTED_OP, T.OP_COMMA), i
            if is_op(toks, j, T.OP_COMMA) and is_op(toks, j + 1, T.OP_RSQB):  # tuple[int,]
                j += 1
            if not is_op(toks, j, T.OP_RSQB):
                return fail_tok(err, toks, j, j, E_EXPECTED_OP, T.OP_RSQB), i
            j += 1
            depth -= 1
            frames &= ~(np.int64(FRAME_MASK) << shift)
            if opens == OPENS_TUPLE:
                code |= (fields + 1) << (4 * (fstart + 1))
            elif opens == OPENS_OPTIONAL:
                code, used = _wrap_optional(code, used, fstart)
                if used > MAX_NIBBLES:
                    return _too_large(err, toks, i, j - 1)
            start = fstart
