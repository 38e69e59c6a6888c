"""Samples for the harness benchmark, made by mutating HumanEval canonical solutions (no model).

:func:`mutants` gives N completions of one problem, deterministic in (seed, task_id, index):
each is the canonical solution's body with one mutation of a kind drawn from :data:`KINDS`,
re-printed by :func:`ast.unparse` as a function body (what a model's completion is):

* ``operator swap``: one ``+ - * // %``, comparison or ``and`` / ``or`` swapped for a neighbour;
* ``off by one``: one int literal or ``range()`` stop moved by 1;
* ``wrong constant``: one number replaced by another (0, 1, -1, 2, twice it, it + 10);
* ``deleted line``: one statement removed (``pass`` where its block would be empty);
* ``slow but correct``: a loop of 100, 1,000 or 10,000 additions that changes nothing first;
* ``infinite loop``: ``while True: pass`` before one of the body's top-level statements;
* ``exception``: a ZeroDivisionError, an IndexError or ``assert False`` before one of them.

A kind that finds nothing to mutate in a body (no number, no operator) falls back to the next.
"""

from __future__ import annotations

import ast
import copy
import random

KINDS = ("operator swap", "off by one", "wrong constant", "deleted line", "slow but correct", "infinite loop",
         "exception")  # fmt: skip
SWAPS = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Add, ast.FloorDiv: ast.Mod, ast.Mod: ast.FloorDiv,
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.And: ast.Or, ast.Or: ast.And,
}  # fmt: skip
SPINS = (100, 1_000, 10_000)
RAISES = ("_z = 0\n_z = 1 // _z", "_xs = [0]\n_y = _xs[1]", "assert False")


def mutants(prompt: str, canonical: str, entry: str, task_id: str, n: int, seed: int,
            kinds: tuple[str, ...] = KINDS) -> list[tuple[str, str]]:  # fmt: skip
    """`n` (kind, completion) pairs for one problem, of the given `kinds` (default: all)."""
    body = entry_body(prompt, canonical, entry)
    out = []
    for i in range(n):
        rng = random.Random(f"{seed}:{task_id}:{i}")  # a str seed: the same in every process
        start = rng.randrange(len(kinds))
        for kind in kinds[start:] + kinds[:start]:
            mutated = MUTATE[kind](copy.deepcopy(body), rng)
            if mutated is not None:
                out.append((kind, completion(mutated)))
                break
    return out


def entry_body(prompt: str, canonical: str, entry: str) -> list[ast.stmt]:
    """The statements of the entry point in ``prompt + canonical``, its docstring left out."""
    node = [n for n in ast.parse(prompt + canonical).body if isinstance(n, ast.FunctionDef) and n.name == entry][-1]
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    return body


def completion(body: list[ast.stmt]) -> str:
    text = ast.unparse(ast.Module(body=body or [ast.Pass()], type_ignores=[]))
    return "".join(f"    {line}\n" for line in text.splitlines())


def _pick(body: list[ast.stmt], rng: random.Random, fits) -> ast.AST | None:
    found = [node for stmt in body for node in ast.walk(stmt) if fits(node)]
    return rng.choice(found) if found else None


def _swap(body, rng):
    def fits(node):
        ops = _ops(node)
        return bool(ops) and any(type(op) in SWAPS for op in ops)

    node = _pick(body, rng, fits)
    if node is None:
        return None
    ops = _ops(node)
    i = rng.choice([i for i, op in enumerate(ops) if type(op) in SWAPS])
    swapped = SWAPS[type(ops[i])]()
    if isinstance(node, ast.Compare):
        node.ops[i] = swapped
    else:
        node.op = swapped
    return body


def _ops(node: ast.AST) -> list:
    if isinstance(node, ast.Compare):
        return node.ops
    if isinstance(node, (ast.BinOp, ast.AugAssign, ast.BoolOp)):
        return [node.op]
    return []


def _is_int(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def _is_number(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


def _off_by_one(body, rng):
    def fits(node):
        return _is_int(node) or _is_range(node)

    node = _pick(body, rng, fits)
    if node is None:
        return None
    delta = rng.choice((-1, 1))
    if _is_int(node):
        node.value += delta
    else:
        stop = 0 if len(node.args) == 1 else 1
        op = ast.Add() if delta > 0 else ast.Sub()
        node.args[stop] = ast.BinOp(node.args[stop], op, ast.Constant(1))
    return body


def _is_range(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range" and node.args


def _wrong_constant(body, rng):
    node = _pick(body, rng, _is_number)
    if node is None:
        return None
    v = node.value
    choices = [c for c in (0, 1, -1, 2, v * 2, v + 10) if c != v]
    node.value = type(v)(rng.choice(choices))
    return body


def _delete_line(body, rng):
    blocks = [b for stmt in body for node in ast.walk(stmt) for b in _blocks(node)] + [body]
    statements = [(b, i) for b in blocks for i in range(len(b))]
    block, i = rng.choice(statements)
    del block[i]
    if not block and block is not body:
        block.append(ast.Pass())
    return body


def _blocks(node: ast.AST) -> list[list[ast.stmt]]:
    """The statement lists of `node` (a body, an else branch, ...)."""
    found = []
    for name in ("body", "orelse", "finalbody"):
        block = getattr(node, name, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            found.append(block)
    return found


def _slow(body, rng):
    spin = rng.choice(SPINS)
    return ast.parse(f"_spin = 0\nfor _i in range({spin}):\n    _spin += _i").body + body


def _infinite(body, rng):
    return _insert(body, rng, "while True:\n    pass")


def _exception(body, rng):
    return _insert(body, rng, rng.choice(RAISES))


def _insert(body, rng, text: str):
    at = rng.randrange(len(body)) if body else 0  # before a statement: never after the last return
    return body[:at] + ast.parse(text).body + body[at:]


MUTATE = {
    "operator swap": _swap, "off by one": _off_by_one, "wrong constant": _wrong_constant,
    "deleted line": _delete_line, "slow but correct": _slow, "infinite loop": _infinite, "exception": _exception,
}  # fmt: skip
