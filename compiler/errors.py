"""Compile error codes (one table) and their rendering as messages with a caret.

Compiler phases run as numba kernels: they never raise.  They return an error code
plus the byte span [start, end) of the offending source and one int argument (two for a
type mismatch); the host turns that into a message here.  Placeholders in a template:

    {text}      the source text of the span
    {arg}       the int argument
    {keyword} {operator} {construct}   decoded from arg
    {expected} {got}   types (contract.typecodes, named as annotations): arg and arg2

New codes are appended (a code's number is its index in _ROWS).
"""

from __future__ import annotations

from dataclasses import dataclass

from gpucc.compiler import tokens
from gpucc.contract import typecodes

# Constructs outside the language that the parser names in E_UNSUPPORTED (arg = index).
_CONSTRUCT_ROWS = [
    ("C_KWARGS", "keyword arguments"),
    ("C_DEFAULTS", "default parameter values other than literals (int, float, bool, str, None, tuples of them)"),
    ("C_STARARGS", "*args / **kwargs"),
    ("C_TUPLES", "tuples"),
    ("C_LISTS", "list literals"),
    ("C_SUBSCRIPTS", "subscripts"),
    ("C_ATTRIBUTES", "attribute access"),
    ("C_WHILE_ELSE", "while ... else"),
    ("C_FOR_ELSE", "for ... else"),
    ("C_DECORATORS", "decorators"),
    ("C_CHAINED_ASSIGN", "chained assignments"),
    ("C_ASSIGN_TARGET", "assignments to anything but a name"),
    ("C_NESTED_DEF", "nested functions"),
    ("C_MODULE_STATEMENT", "statements at module level (only def)"),
    ("C_SEMICOLON", "semicolons"),
    ("C_LAMBDA", "lambdas"),
    ("C_IFEXP", "conditional expressions"),
    ("C_COMPREHENSION", "comprehensions"),
    ("C_DICT_SET", "dicts and sets"),
    ("C_FOR_NOT_RANGE", "for loops over anything but range()"),
    ("C_CALL_TARGET", "calls of anything but a function name"),
    ("C_FLOAT", "float literals"),
    ("C_FSTRING", "f-strings"),
    ("C_WALRUS", "assignment expressions (:=)"),
    ("C_BARE_ANNOTATION", "annotations without a value"),
    ("C_ASSERT_MESSAGE", "assert messages"),
    ("C_LIST_AUGASSIGN", "augmented assignment to a list or set but xs += ys, xs *= n and a set's s |= t, s &= t, "
     "s -= t, s ^= t (t a set of s's type)"),
    ("C_SUBSCRIPT_AUGASSIGN",
     "augmented assignment to a subscript of anything but a name or a subscript, or with a call in it"),
    ("C_METHOD", "methods other than the list, str, dict and set methods of the README"),
    ("C_BYTES", "bytes literals"),
    ("C_STR_SETITEM", "item assignment to a str (strs are immutable)"),
    ("C_MIXED_LIST", "lists mixing elements of different types (but ints among floats, None among values)"),
    ("C_GENERATOR", "generator expressions but as the one argument of sum, any, all, min, max, sorted, list or "
     "str.join"),
    ("C_REVERSED", "reversed() but as the iterable of a for loop or a comprehension"),
    ("C_ROUND_DIGITS", "round() with ndigits"),
    ("C_TUPLE_INDEX", "a tuple indexed by anything but a constant, or sliced, when its fields differ in type"),
    ("C_TYPE_TOO_LARGE",
     "types this large (at most 7 parts, constructors and leaves: list[tuple[int, int, int, int]])"),
    ("C_OPTIONAL_TRUTH", "the truth value of None or an Optional (test `x is not None` first)"),
    ("C_BUILTIN_FORM", "this form of map, filter, enumerate, zip or key= (map / filter: a name or a one-parameter "
     "lambda and one iterable; enumerate: two names or a value; zip: 2 or 3 iterables; key: a name or a "
     "one-parameter lambda; xs.sort(key=...) of a name)"),
    ("C_KEY_TYPE", "dict keys and set elements of this type (keys: int, bool, float, str, or tuples of those)"),
    ("C_GET_SCALAR", "d.get(k) without a default on a dict of numbers or bools (give one: d.get(k, 0))"),
    ("C_DICT_ARGUMENTS", "dict() and set() with keywords or more than one argument"),
    ("C_DEL_TARGET", "del of anything but a dict's item (del d[k])"),
    ("C_FINALLY_EXIT", "return, break or continue leaving a try that has a finally, or in its finally"),
    ("C_RAISE_FROM", "raise ... from"),
    ("C_MODULE_VALUE", "a module, or a module's function, as a value (call the function: math.sqrt(x))"),
    ("C_ISINSTANCE_CLASS", "isinstance of a class but int, float, bool, str, list, tuple, dict, set or a tuple of "
     "them"),
    ("C_FOLD_PLACE", "functools.reduce, itertools.accumulate or groupby where its statement does not run it exactly "
     "once (in a lambda, a comprehension past its first iterable, a conditional expression, and / or, a while "
     "condition), or as a value"),
    ("C_ITERTOOLS_FORM", "this form of itertools (permutations, combinations and combinations_with_replacement of "
     "one iterable and an int literal r from 1 to 5; product of iterables and repeat= an int literal, at most 11 "
     "names; chain of iterables)"),
    ("C_COUNTER_FORM", "this form of collections.Counter (Counter() or Counter(iterable) of a list, str, tuple, set "
     "or range; Counter(mapping) and Counter(a=1) are not built)"),
    ("C_ISINSTANCE_FLOAT", "isinstance of a float against int or float (CPython keeps an int where gpucc converts it to a "
     "declared float, so the answer is not known when compiled)"),
    ("C_DEQUE_FORM", "this form of collections.deque (deque(iterable) of a list, str, tuple, set, dict or range, deque(); "
     "maxlen, q.sort(), q.pop(i), slices of a deque and a deque where a list is declared are not built)"),
    ("C_DEFAULTDICT_FORM", "this form of collections.defaultdict (defaultdict(f) of a factory f among int, float, bool, "
     "str, list, set and dict; defaultdict() without a factory, other factories and lambdas are not built)"),
    ("C_DICT_AS_SEQUENCE", "a dict where a builtin rewritten as a loop over positions wants a sequence (sorted, min "
     "or max with key=, enumerate, zip: use d.keys() or d.items())"),
]
CONSTRUCTS = tuple(r[1] for r in _CONSTRUCT_ROWS)
# construct ids as plain names (tests/contract/test_named_constants.py keeps them equal to the rows)
C_KWARGS = 0
C_DEFAULTS = 1
C_STARARGS = 2
C_TUPLES = 3
C_LISTS = 4
C_SUBSCRIPTS = 5
C_ATTRIBUTES = 6
C_WHILE_ELSE = 7
C_FOR_ELSE = 8
C_DECORATORS = 9
C_CHAINED_ASSIGN = 10
C_ASSIGN_TARGET = 11
C_NESTED_DEF = 12
C_MODULE_STATEMENT = 13
C_SEMICOLON = 14
C_LAMBDA = 15
C_IFEXP = 16
C_COMPREHENSION = 17
C_DICT_SET = 18
C_FOR_NOT_RANGE = 19
C_CALL_TARGET = 20
C_FLOAT = 21
C_FSTRING = 22
C_WALRUS = 23
C_BARE_ANNOTATION = 24
C_ASSERT_MESSAGE = 25
C_LIST_AUGASSIGN = 26
C_SUBSCRIPT_AUGASSIGN = 27
C_METHOD = 28
C_BYTES = 29
C_STR_SETITEM = 30
C_MIXED_LIST = 31
C_GENERATOR = 32
C_REVERSED = 33
C_ROUND_DIGITS = 34
C_TUPLE_INDEX = 35
C_TYPE_TOO_LARGE = 36
C_OPTIONAL_TRUTH = 37
C_BUILTIN_FORM = 38
C_KEY_TYPE = 39
C_GET_SCALAR = 40
C_DICT_ARGUMENTS = 41
C_DEL_TARGET = 42
C_FINALLY_EXIT = 43
C_RAISE_FROM = 44
C_MODULE_VALUE = 45
C_ISINSTANCE_CLASS = 46
C_FOLD_PLACE = 47
C_ITERTOOLS_FORM = 48
C_COUNTER_FORM = 49
C_ISINSTANCE_FLOAT = 50
C_DEQUE_FORM = 51
C_DEFAULTDICT_FORM = 52
C_DICT_AS_SEQUENCE = 53

# name, message template
_ROWS = [
    ("E_OK", "no error"),
    ("E_BAD_CHAR", "invalid character {text!r} in source"),
    ("E_BAD_DEDENT", "unindent does not match any outer indentation level"),
    ("E_UNEXPECTED_INDENT", "unexpected indent"),
    ("E_EXPECTED_INDENT", "expected an indented block"),
    ("E_UNTERMINATED_STRING", "unterminated string literal"),
    ("E_INT_TOO_LARGE", "integer literal {text} does not fit in 64 bits"),
    ("E_UNSUPPORTED_KEYWORD", "'{keyword}' is not supported by gpucc"),
    ("E_UNSUPPORTED_OPERATOR", "operator '{operator}' is not supported by gpucc"),
    ("E_UNSUPPORTED", "{construct}: not supported by gpucc"),
    ("E_SYNTAX", "invalid syntax"),
    ("E_EXPECTED_OP", "expected '{operator}'"),
    ("E_EXPECTED_NAME", "expected a name"),
    ("E_EXPECTED_EXPR", "expected an expression"),
    ("E_EXPECTED_NEWLINE", "expected end of line"),
    ("E_EXPECTED_TYPE", "expected a type: int, float, bool, str, None, list[T], tuple[T1, T2], dict[K, V], set[T] "
     "or Optional[T]"),
    ("E_UNKNOWN_TYPE", "unknown type '{text}': expected int, float, bool, str, None, list[T], tuple[T1, T2], "
     "dict[K, V], set[T] or Optional[T]"),
    ("E_MISSING_ANNOTATION", "parameter '{text}' needs a type annotation"),
    ("E_MISSING_RETURN_ANNOTATION", "function '{text}' needs a return annotation (-> type)"),
    ("E_UNDEFINED_NAME", "name '{text}' is not defined"),
    ("E_UNBOUND", "local variable '{text}' may be used before it is assigned"),
    ("E_TYPE_MISMATCH", "type mismatch: expected {expected}, got {got}"),
    ("E_OPERAND_TYPES", "unsupported operand types for '{text}': {expected} and {got}"),
    ("E_CALL_ARITY", "'{text}' takes {expected_count} argument(s), {got_count} given"),
    ("E_UNKNOWN_FUNCTION", "'{text}' is not a function defined in this file"),
    ("E_RETURN_TYPE", "return type mismatch: expected {expected}, got {got}"),
    ("E_BREAK_OUTSIDE_LOOP", "'{text}' outside loop"),
    ("E_RETURN_OUTSIDE_FUNCTION", "'return' outside function"),
    ("E_DUPLICATE_FUNCTION", "function '{text}' is defined more than once"),
    ("E_DUPLICATE_PARAM", "duplicate parameter '{text}'"),
    ("E_TOO_MANY_LOCALS", "too many local variables (limit {arg})"),
    ("E_TOO_MANY_PARAMS", "too many parameters (limit {arg})"),
    ("E_TOO_MANY_FUNCTIONS", "too many functions (limit {arg})"),
    ("E_TOO_MANY_CONSTANTS", "too many constants (limit {arg})"),
    ("E_PROGRAM_TOO_LARGE", "program too large for the compiler's buffers ({text})"),
    ("E_NESTING_TOO_DEEP", "nesting too deep (limit {arg})"),
    ("E_NOT_CALLABLE_BUILTIN", "built-in '{text}' is not supported yet"),
    ("E_VOID_VALUE", "'{text}' returns None and has no value to use"),
    ("E_NO_FUNCTIONS", "no function definitions found"),
    ("E_BAD_NUMBER", "invalid number literal '{text}'"),
    ("E_NONE_VALUE", "None is only allowed as a return value (-> None, return None)"),
    ("E_TAB_ERROR", "inconsistent use of tabs and spaces in indentation"),
    ("E_BAD_ESCAPE", "invalid escape sequence '{text}' in string literal"),
    ("E_NOT_A_FUNCTION", "'{text}' is a local variable here, not a function"),
    ("E_RESERVED_NAME", "'{text}' cannot be redefined in gpucc"),
    ("E_COMPLEX_LITERAL", "complex literals ({text}): not supported by gpucc"),
    ("E_FLOAT_LITERAL", "float literal {text} needs more than gpucc's exact literal parsing: at most 15 "
     "significant digits and a decimal exponent within +-22"),
    ("E_EXPECTED_ELSE", "expected 'else' in the conditional expression"),
    ("E_BUILTIN_ARGS", "'{text}' takes {expected_count} argument(s), {got_count} given"),
    ("E_UNPACK", "cannot unpack a value of type {got} into {arg} names"),
    ("E_NEVER_CALLED", "cannot infer the types of '{text}': it has parameters without annotations and no call "
     "in this file"),
    ("E_RETURN_UNKNOWN", "cannot infer the return type of '{text}': it is called before any of its returns "
     "(annotate it: -> type)"),
    ("E_CLOSURE", "'{text}' is not defined here (a nested def may read its own names and its enclosing function's, "
     "and be called there)"),
    ("E_KEYWORD", "'{text}' is no parameter of the function called, or it is given twice"),
    ("E_UNKNOWN_EXCEPTION", "'{text}' is not an exception gpucc can raise or catch: the built-in ValueError, "
     "IndexError, KeyError, ZeroDivisionError, TypeError, OverflowError, AssertionError, RuntimeError, "
     "NotImplementedError, Exception (and ArithmeticError, LookupError, BaseException in except); "
     "exception classes of its own are not supported"),
    ("E_RERAISE", "'{text}' outside an except clause, or not its exception: only the exception an except "
     "clause caught can be raised again"),
    ("E_UNKNOWN_MODULE", "module '{text}' is not supported by gpucc (it has math, sys, bisect, heapq, functools, "
     "itertools, collections; typing's names are annotations)"),
    ("E_MODULE_NAME", "module-level name '{text}' is read by a function but not assigned by module code before "
     "its first call of a function (or at its end)"),
    ("E_TYPE_AT_JOIN", "type mismatch: expected {expected}, got {got}: this local changes type where both of its "
     "types meet (a loop around it, or a use after its block: a later branch, an except clause, after the if "
     "or try, or module code), and gpucc gives a name one type there: give the new value a name of its own"),
    ("E_MODULE_MEMBER", "'{text}' is not supported by gpucc yet (the names each module offers: README, the language "
     "reference)"),
]

NAMES = tuple(r[0] for r in _ROWS)
TEMPLATES = tuple(r[1] for r in _ROWS)
# error codes as plain names (tests/contract/test_named_constants.py keeps them equal to the rows)
E_OK = 0
E_BAD_CHAR = 1
E_BAD_DEDENT = 2
E_UNEXPECTED_INDENT = 3
E_EXPECTED_INDENT = 4
E_UNTERMINATED_STRING = 5
E_INT_TOO_LARGE = 6
E_UNSUPPORTED_KEYWORD = 7
E_UNSUPPORTED_OPERATOR = 8
E_UNSUPPORTED = 9
E_SYNTAX = 10
E_EXPECTED_OP = 11
E_EXPECTED_NAME = 12
E_EXPECTED_EXPR = 13
E_EXPECTED_NEWLINE = 14
E_EXPECTED_TYPE = 15
E_UNKNOWN_TYPE = 16
E_MISSING_ANNOTATION = 17
E_MISSING_RETURN_ANNOTATION = 18
E_UNDEFINED_NAME = 19
E_UNBOUND = 20
E_TYPE_MISMATCH = 21
E_OPERAND_TYPES = 22
E_CALL_ARITY = 23
E_UNKNOWN_FUNCTION = 24
E_RETURN_TYPE = 25
E_BREAK_OUTSIDE_LOOP = 26
E_RETURN_OUTSIDE_FUNCTION = 27
E_DUPLICATE_FUNCTION = 28
E_DUPLICATE_PARAM = 29
E_TOO_MANY_LOCALS = 30
E_TOO_MANY_PARAMS = 31
E_TOO_MANY_FUNCTIONS = 32
E_TOO_MANY_CONSTANTS = 33
E_PROGRAM_TOO_LARGE = 34
E_NESTING_TOO_DEEP = 35
E_NOT_CALLABLE_BUILTIN = 36
E_VOID_VALUE = 37
E_NO_FUNCTIONS = 38
E_BAD_NUMBER = 39
E_NONE_VALUE = 40
E_TAB_ERROR = 41
E_BAD_ESCAPE = 42
E_NOT_A_FUNCTION = 43
E_RESERVED_NAME = 44
E_COMPLEX_LITERAL = 45
E_FLOAT_LITERAL = 46
E_EXPECTED_ELSE = 47
E_BUILTIN_ARGS = 48
E_UNPACK = 49
E_NEVER_CALLED = 50
E_RETURN_UNKNOWN = 51
E_CLOSURE = 52
E_KEYWORD = 53
E_UNKNOWN_EXCEPTION = 54
E_RERAISE = 55
E_UNKNOWN_MODULE = 56
E_MODULE_NAME = 57
E_TYPE_AT_JOIN = 58
E_MODULE_MEMBER = 59


def _type_name(code: int) -> str:
    return typecodes.name(code) if 0 <= code and typecodes.width(code) > 0 else "?"


@dataclass(frozen=True)
class CompileError:
    """A rendered compile error: what and where, ready to print."""

    code: int
    message: str
    line: int  # 1-based
    col: int  # 1-based
    source_line: str
    filename: str = "<candidate>"

    def format(self) -> str:
        caret = " " * (self.col - 1) + "^"
        return f"{self.filename}:{self.line}:{self.col}: error: {self.message}\n    {self.source_line}\n    {caret}"

    def __str__(self) -> str:
        return self.format()


def message(source: str, code: int, start: int, end: int, arg: int, arg2: int = 0) -> str:
    """The message text for an error code (no location)."""
    src = source.encode()
    text = src[max(0, start) : max(start, end)].decode(errors="replace")
    fields = {
        "text": text,
        "arg": arg,
        "keyword": tokens.KEYWORDS[arg] if 0 <= arg < len(tokens.KEYWORDS) else text,
        "operator": tokens.OPERATORS[arg] if 0 <= arg < len(tokens.OPERATORS) else text,
        "construct": CONSTRUCTS[arg] if 0 <= arg < len(CONSTRUCTS) else text,
        "expected": _type_name(arg),
        "got": _type_name(arg2),
        "expected_count": arg // 256,
        "got_count": arg % 256,
    }
    template = TEMPLATES[code] if 0 <= code < len(TEMPLATES) else f"compile error {code}"
    return template.format(**fields)


def render(source: str, code: int, start: int, end: int, arg: int, filename: str = "<candidate>",
           arg2: int = 0) -> CompileError:
    """Turn a compiler kernel's (code, byte span, arg) into a located message."""
    src = source.encode()
    start = min(max(0, start), len(src))
    line_start = src.rfind(b"\n", 0, start) + 1
    line_end = src.find(b"\n", start)
    line_end = len(src) if line_end < 0 else line_end
    line = src.count(b"\n", 0, start) + 1
    col = len(src[line_start:start].decode(errors="replace")) + 1
    return CompileError(
        code=code,
        message=message(source, code, start, end, arg, arg2),
        line=line,
        col=col,
        source_line=src[line_start:line_end].decode(errors="replace"),
        filename=filename,
    )


def render_record(source: str, err, filename: str = "<candidate>") -> CompileError:
    """render() of an error record (compiler.arrays: code, start, end, arg, arg2)."""
    code, start, end, arg, arg2 = (int(x) for x in err[:5])
    return render(source, code, start, end, arg, filename, arg2)
