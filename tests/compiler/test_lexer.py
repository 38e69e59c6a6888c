"""compiler.lexer: token streams, literals, offsets, errors (compiled kernel unless noted)."""

from __future__ import annotations

import numpy as np
import pytest

from gpucc.compiler import errors, lexer, limits, nodes, tokens
from gpucc.compiler.arrays import ERR_WIDTH
from gpucc.compiler.lexer import LexError, lex_source, tokenize


def kinds(source):
    return [k for k, _ in tokenize(source)]


def lex_error(source):
    with pytest.raises(LexError) as info:
        tokenize(source)
    return info.value.error


def test_function_token_stream():
    src = "def f(a: int) -> int:\n    return a // 2\n"
    assert tokenize(src) == [
        ("KEYWORD", "def"), ("NAME", "f"), ("OP", "("), ("NAME", "a"), ("OP", ":"), ("NAME", "int"),
        ("OP", ")"), ("OP", "->"), ("NAME", "int"), ("OP", ":"), ("NEWLINE", "\n"),
        ("INDENT", ""), ("KEYWORD", "return"), ("NAME", "a"), ("OP", "//"), ("INT", "2"),
        ("NEWLINE", "\n"), ("DEDENT", ""), ("END", ""),
    ]  # fmt: skip


def test_empty_and_blank_sources():
    assert tokenize("") == [("END", "")]
    assert tokenize("\n\n   \n# only a comment\n") == [("END", "")]


def test_final_newline_added_and_all_blocks_closed():
    assert kinds("if a:\n    if b:\n        c") == [
        "KEYWORD", "NAME", "OP", "NEWLINE", "INDENT", "KEYWORD", "NAME", "OP", "NEWLINE",
        "INDENT", "NAME", "NEWLINE", "DEDENT", "DEDENT", "END",
    ]  # fmt: skip


def test_several_dedents_at_once_and_comment_lines_ignored():
    src = "a:\n  b:\n    c\n      # deeper comment\n\n  # shallower comment\nd\n"
    assert kinds(src) == [
        "NAME", "OP", "NEWLINE", "INDENT", "NAME", "OP", "NEWLINE", "INDENT", "NAME", "NEWLINE",
        "DEDENT", "DEDENT", "NAME", "NEWLINE", "END",
    ]  # fmt: skip


def test_tabs_count_to_next_multiple_of_eight_and_must_be_consistent():
    assert kinds("a:\n\tb:\n\t\tc\n\td\n").count("INDENT") == 2
    # a tab and eight spaces are both column 8, but not with tabs of width 1: Python's TabError
    err = lex_error("a:\n\tb\n        c\n")
    assert (err.code, err.line) == (errors.E_TAB_ERROR, 3)
    err = lex_error("a:\n        b\n  \tc\n")
    assert (err.code, err.line) == (errors.E_TAB_ERROR, 3)
    err = lex_error("a:\n\tb\n    c\n")
    assert (err.code, err.line, err.col) == (errors.E_BAD_DEDENT, 3, 5)


def test_implicit_joining_and_backslash_continuation():
    assert kinds("x = (1 +\n     2)\n") == ["NAME", "OP", "OP", "INT", "OP", "INT", "OP", "NEWLINE", "END"]
    assert kinds("x = 1 + \\\n    2\n") == ["NAME", "OP", "INT", "OP", "INT", "NEWLINE", "END"]
    assert kinds("x = 1 + \\\r\n    2\r\n") == ["NAME", "OP", "INT", "OP", "INT", "NEWLINE", "END"]
    err = lex_error("x = 1 \\ 2\n")
    assert (err.code, err.col) == (errors.E_BAD_CHAR, 7)
    err = lex_error("x = 1 \\\n")  # continued into the end of the file
    assert (err.code, err.col) == (errors.E_SYNTAX, 7)


def test_line_numbers_follow_strings_and_continuations():
    src = 's = """a\nb\nc"""\nx = (1,\n 2)\ny = 1 + \\\n 3\nz\n'
    n, (kind, _sub, start, _end, line, _val) = lex_source(src)
    by_text = {src[start[i] : start[i] + 1]: int(line[i]) for i in range(n) if kind[i] == tokens.TK_NAME}
    assert by_text == {"s": 1, "x": 4, "y": 6, "z": 8}


@pytest.mark.parametrize(
    "text, value",
    [("0", 0), ("42", 42), ("1_000_000", 1_000_000), ("0x1F", 31), ("0XfF", 255), ("0o17", 15),
     ("0b1011", 11), ("0x_ff", 255), ("000", 0), ("9223372036854775807", 2**63 - 1),
     ("0x7fff_ffff_ffff_ffff", 2**63 - 1)],
)  # fmt: skip
def test_int_literals(text, value):
    n, (kind, _sub, _start, _end, _line, val) = lex_source(text)
    assert kind[0] == tokens.TK_INT and int(val[0]) == value == eval(text)


@pytest.mark.parametrize("text", ["9223372036854775808", "0x8000000000000000", "99999999999999999999999"])
def test_int_too_large(text):
    err = lex_error(f"x = {text}\n")
    assert (err.code, err.col) == (errors.E_INT_TOO_LARGE, 5)
    assert text in err.message


@pytest.mark.parametrize("text", ["1.5", "1e3", ".5", "1.", "1E-3", "1_0.5", "1.5e+2", "0.1", "123456789012345.6",
                                  "1e22", "1e-22", "0e999", "2.5E-3"])  # fmt: skip
def test_float_literals(text):
    assert tokenize(text)[0] == ("FLOAT", text)


@pytest.mark.parametrize("text", ["1.5", "1e3", ".5", "1.", "1E-3", "1_0.5", "1.5e+2", "0.1", "123456789012345.6",
                                  "1e22", "1e-22", "0e999", "2.5E-3", "3.141592653589793", "9007199254740991.0"])  # fmt: skip
def test_float_literal_values_are_exact(text):
    """The literal's value is CPython's (correctly rounded), in a float slot's bits."""
    from gpucc.compiler.syntax_tree import parse_source
    from gpucc.contract.valuetypes import bits_to_float

    tree = parse_source(f"def f() -> float:\n    return {text}\n")
    values = [bits_to_float(int(v)) for k, v in zip(tree.kind, tree.val) if k == nodes.N_FLOAT]
    assert values == [float(text)]


@pytest.mark.parametrize("text, code", [("3j", errors.E_COMPLEX_LITERAL), ("1e300", errors.E_FLOAT_LITERAL),
                                        ("1.2345678901234567", errors.E_FLOAT_LITERAL), ("1e-23", errors.E_FLOAT_LITERAL)])  # fmt: skip
def test_float_literals_outside_the_exact_parser(text, code):
    err = lex_error(f"x = {text}\n")
    assert (err.code, err.col) == (code, 5)


@pytest.mark.parametrize("text", ["3j", "1.5J", "1e3j"])
def test_complex_literals_are_named(text):
    err = lex_error(f"x = {text}\n")
    assert (err.code, err.col, err.message) == (errors.E_COMPLEX_LITERAL, 5, f"complex literals ({text}): not supported by gpucc")


@pytest.mark.parametrize("text", ["1__0", "1_", "0x", "0b2", "007", "12abc", "1e", "0x1g", "1.2.3"])
def test_bad_number_literals(text):
    err = lex_error(f"x = {text}\n")
    assert (err.code, err.col) == (errors.E_BAD_NUMBER, 5)


@pytest.mark.parametrize(
    "text",
    ["'a'", '"a"', "''", "'''a\n'b'\n'''", '"""x"""', r"'it\'s'", r'"\\"', "r'\\d'", "b'x'", "Rb'x'",
     "f'{x}'", "BR'x'", "u'x'", "'é'"],
)  # fmt: skip
def test_string_literals(text):
    assert tokenize(text + "\n") == [("STRING", text), ("NEWLINE", "\n"), ("END", "")]


@pytest.mark.parametrize("text", ["'abc", '"abc\n"', "'''abc", "'abc\\'", "'''a''"])
def test_unterminated_strings(text):
    err = lex_error(text)
    assert (err.code, err.line, err.col) == (errors.E_UNTERMINATED_STRING, 1, 1)


def test_keywords_and_names():
    n, (kind, sub, start, end, _line, _val) = lex_source("if iffy None True not_ _x Return")
    got = [(tokens.KIND_NAMES[kind[i]], int(sub[i])) for i in range(n - 2)]
    assert got == [
        ("KEYWORD", tokens.KW_IF), ("NAME", -1), ("KEYWORD", tokens.KW_NONE), ("KEYWORD", tokens.KW_TRUE),
        ("NAME", -1), ("NAME", -1), ("NAME", -1),
    ]  # fmt: skip


def test_every_keyword_and_operator_round_trips():
    for i, word in enumerate(tokens.KEYWORDS):
        n, (kind, sub, *_) = lex_source(word)
        assert (kind[0], sub[0]) == (tokens.TK_KEYWORD, i)
    for i, text in enumerate(tokens.OPERATORS):
        n, (kind, sub, start, end, *_) = lex_source(f"a {text} b")
        assert (kind[1], sub[1], end[1] - start[1]) == (tokens.TK_OP, i, len(text))


def test_operators_match_greedily():
    assert [t for _, t in tokenize("a//=b**=c->d...e<=f!=g>>=h")][:-2] == [
        "a", "//=", "b", "**=", "c", "->", "d", "...", "e", "<=", "f", "!=", "g", ">>=", "h",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "src, col, text",
    [("a $ b", 3, "$"), ("a ? b", 3, "?"), ("a ! b", 3, "!"), ("x = `y`", 5, "`"), ("é = 1", 1, "é"),
     ("x = 1\x00", 6, "\x00"), ("x = 1\ry = 2", 6, "\r")],
)  # fmt: skip
def test_bad_characters(src, col, text):
    err = lex_error(src)
    assert (err.code, err.col) == (errors.E_BAD_CHAR, col)
    assert repr(text) in err.message


def test_non_ascii_allowed_in_strings_and_comments():
    assert kinds("s = 'héllo'  # ünïcode\n") == ["NAME", "OP", "STRING", "NEWLINE", "END"]


def test_indentation_deeper_than_limit():
    deep = "".join(" " * d + "if x:\n" for d in range(limits.MAX_INDENT + 2))
    err = lex_error(deep)
    assert err.code == errors.E_NESTING_TOO_DEEP
    assert err.line == limits.MAX_INDENT + 2


def test_token_capacity_exceeded_is_an_error_not_a_crash():
    # alternating indent / dedent: more tokens than bytes (never happens in sensible code)
    err = lex_error("a\n b\n" * 200)
    assert err.code == errors.E_PROGRAM_TOO_LARGE


def test_offsets_are_relative_to_lo_and_plain_python_matches_compiled():
    body = "def f(x: int) -> int:\n    return x + 0x10\n"
    blob = np.frombuffer(("#" * 7 + "\n" + body + "tail").encode(), dtype=np.uint8)
    lo, hi = 8, 8 + len(body)
    toks = lexer.token_arrays(hi - lo)
    err = np.zeros(ERR_WIDTH, dtype=np.int32)
    n = lexer.lex(blob, lo, hi, toks, err)  # plain Python run of the kernel body
    expected_n, expected = lex_source(body)
    assert n == expected_n
    for got, want in zip(toks, expected):
        assert np.array_equal(got[:n], want[:n])
