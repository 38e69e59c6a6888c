"""Both sides of a differential test: what CPython says a call does, and what the VM says.

An outcome is a string: the repr of the returned value, or the exception kind
(`ZeroDivisionError`, ... as contract.status.LABELS names them, e.g. `step limit`).  gpucc's
documented differences are removed on the CPython side: 64-bit ints (every arithmetic result
is checked, `_chk`, so CPython raises OverflowError exactly where the VM must; `1 << huge` too),
`int ** negative int` and complex results are ValueError (`_pow`), and ints are converted to
floats where a float is declared (tests/oracle/tower.py).  Lists: `sum` of ints overflows
where a partial sum leaves int64 (`_sum`), `in`, `==` and a list's index / count / remove
compare values only, never identity (CPython finds the very nan object in a list: `_in`, `_eq`,
`_find`), a list's `+=` extends it in place (`_iadd`), and a list holding nan sorts by the
kernel's documented merge sort (`_sorted`, `_sort`; CPython's timsort elsewhere).  A function
declared to return a value that reaches the end of its body raises `_FellOff` (outcome
`returned None`, the VM's NONE_RETURNED) where CPython would return None.  The errors the VM
raises where CPython would answer (int64 overflow, `**`'s ValueError) are no exceptions a
program catches (contract.status.catchable): here they are BaseExceptions (`_Int64Overflow`,
`_NoAnswer`), and a bare `except:` / `except BaseException:` is `except Exception:`.  `import
math` gives CHECKED_MATH: its int results past int64 are the VM's OverflowError.  Not mapped:
int / int of operands beyond 2**53 (gpucc converts each operand first; the generator never
writes one).
"""

from __future__ import annotations

import ast
import builtins
import copy
import math
import operator
import sys
import types
import typing

from gpucc.compiler import compile_batch
from gpucc.contract.image import LaunchLimits, Program
from gpucc.contract.status import LABELS, NONE_RETURNED, STEP_LIMIT
from gpucc.contract.typecodes import is_heap
from gpucc.contract.valuetypes import render
from gpucc.neural.gen import INT64_MAX, INT64_MIN
from gpucc.vm import launch
from gpucc.vm.asm import make_jobs
from gpucc.vm.reference_lists import merge_sort
from pytest_gpucc.heap_values import Replayer
from tests.oracle.tower import Tower

STEP_LIMIT_LABEL = LABELS[STEP_LIMIT]
NONE_RETURNED_LABEL = LABELS[NONE_RETURNED]


class _Checked(ast.NodeTransformer):
    """Rewrite arithmetic so CPython raises OverflowError where the VM must (any int64
    overflow of an intermediate result), e.g. `a * b` -> `_chk(a * b)`."""

    def __init__(self):
        self.imported = set()  # names `from math import ...` binds: not the builtins (pow)

    def visit_ImportFrom(self, node):
        self.imported.update(a.asname or a.name for a in node.names)
        return node

    def visit_FunctionDef(self, node):
        """Annotations are types (`int | None`), not arithmetic: only the body is rewritten."""
        node.body = [self.visit(statement) for statement in node.body]
        return node

    def visit_BinOp(self, node):
        self.generic_visit(node)
        helper = {ast.Pow: "_pow", ast.LShift: "_lshift"}.get(type(node.op))
        if helper:
            node = ast.Call(ast.Name(helper, ast.Load()), [node.left, node.right], [])
        return ast.Call(ast.Name("_chk", ast.Load()), [node], [])

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Name) and f.id in self.imported:
            return node
        if isinstance(f, ast.Name) and f.id in ("int", "abs"):  # int(1e19): past int64
            return ast.Call(ast.Name("_chk", ast.Load()), [node], [])
        if isinstance(f, ast.Name) and f.id == "pow" and len(node.args) == 2:  # pow(a, b) is a ** b
            return ast.Call(ast.Name("_chk", ast.Load()), [ast.Call(ast.Name("_pow", ast.Load()), node.args, [])], [])
        if isinstance(f, ast.Name) and f.id == "pow" and len(node.args) == 3:  # pow(a, b, m)
            node.func = ast.Name("_pow_mod", ast.Load())
        if isinstance(f, ast.Name) and f.id in ("sum", "sorted"):
            node.func = ast.Name(f"_{f.id}", ast.Load())
        elif isinstance(f, ast.Attribute) and f.attr == "sort":
            return ast.Call(ast.Name("_sort", ast.Load()), [f.value], node.keywords)
        elif isinstance(f, ast.Attribute) and f.attr in ("index", "count", "remove") and len(node.args) == 1:
            return ast.Call(ast.Name("_find", ast.Load()), [f.value, ast.Constant(f.attr), node.args[0]], [])
        return node

    def visit_Compare(self, node):
        """`a in xs`, `a == b` (a single comparison) by value: `_in`, `_eq`."""
        self.generic_visit(node)
        if len(node.ops) != 1:
            return node
        op, helper = type(node.ops[0]), {ast.In: "_in", ast.NotIn: "_in", ast.Eq: "_eq", ast.NotEq: "_eq"}
        if op not in helper:
            return node
        call = ast.Call(ast.Name(helper[op], ast.Load()), [node.left, node.comparators[0]], [])
        return ast.UnaryOp(ast.Not(), call) if op in (ast.NotIn, ast.NotEq) else call

    def visit_ExceptHandler(self, node):
        """`except:` and `except BaseException:` catch what the VM's catch: no limit."""
        self.generic_visit(node)
        if node.type is None or (isinstance(node.type, ast.Name) and node.type.id == "BaseException"):
            node.type = ast.Name("Exception", ast.Load())
        return node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.USub):
            return ast.Call(ast.Name("_chk", ast.Load()), [node], [])
        return node

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        load = copy.deepcopy(node.target)
        for n in ast.walk(load):  # the target read as a value (x, or xs[i])
            if hasattr(n, "ctx"):
                n.ctx = ast.Load()
        if isinstance(node.target, ast.Subscript):
            node.target.value.ctx = ast.Load()
        if isinstance(node.op, ast.Add):  # a list's += extends it in place: _iadd
            return ast.Assign([node.target], ast.Call(ast.Name("_iadd", ast.Load()), [load, node.value], []))
        if type(node.op) in _IN_PLACE:  # a list's *=, a set's |= &= -= ^=, a dict's |= change it in place: _iop
            op = ast.Constant(_IN_PLACE[type(node.op)])
            return ast.Assign([node.target], ast.Call(ast.Name("_iop", ast.Load()), [load, node.value, op], []))
        value = ast.BinOp(load, node.op, node.value)
        return ast.Assign([node.target], self.visit_BinOp(value))


class _Int64Overflow(BaseException):
    """The VM's OverflowError of a result past int64: no program catches it."""


class _NoAnswer(BaseException):
    """The VM's ValueError where CPython answers (`int ** negative int`, a complex result): no
    program catches it."""


def _chk(v):
    if isinstance(v, complex):  # (-8) ** 0.5: gpucc raises ValueError
        raise _NoAnswer
    if isinstance(v, int) and not isinstance(v, bool) and not INT64_MIN <= v <= INT64_MAX:
        raise _Int64Overflow
    return v


def _find(xs, method, x):
    """xs.index / count / remove(x) of a list by value (no identity shortcut, as `_in`); a str's own."""
    if not isinstance(xs, list):
        return getattr(xs, method)(x)
    hits = [k for k, e in enumerate(xs) if _eq(e, x)]
    if method == "count":
        return len(hits)
    if not hits:
        raise ValueError(f"{x!r} is not in list")
    if method == "index":
        return hits[0]
    del xs[hits[0]]
    return None


def _iadd(a, b):
    """a += b: a list extended in place (its aliases see it), anything else a checked a + b."""
    if isinstance(a, list):
        a += b
        return a
    return _chk(a + b)


_IN_PLACE = {ast.Mult: "imul", ast.BitOr: "ior", ast.BitAnd: "iand", ast.Sub: "isub", ast.BitXor: "ixor"}


def _iop(a, b, name):
    """a op= b as CPython runs it (a list, set or dict changed in place), an int result checked."""
    return _chk(getattr(operator, name)(a, b))


def _pow_mod(a, b, m):
    """pow(a, b, m): gpucc's |m| must be an int64 (m == -2**63: OverflowError)."""
    if m == INT64_MIN:
        raise _Int64Overflow
    return pow(a, b, m)


def _pow(a, b):
    """gpucc's int ** negative int is a ValueError (CPython returns a float), and so is a
    negative number to a fractional float power (CPython: a complex, see _chk)."""
    if type(a) in (int, bool) and type(b) in (int, bool) and b < 0:
        raise _NoAnswer
    if type(a) in (int, bool) and type(b) in (int, bool) and abs(a) > 1 and b > 64:
        raise _Int64Overflow  # past int64 (CPython would build the huge int)
    try:
        return a**b
    except OverflowError:  # a complex result too large: gpucc's ValueError comes first
        if isinstance(a + b, float) and a < 0 and not float(b).is_integer():
            raise _NoAnswer from None
        raise


def _sum(xs, start=0):
    """CPython's sum, with every partial sum of ints checked against int64."""
    total = start
    for v in xs:
        total = _chk(total + v)
    return total


def _has_nan(xs) -> bool:
    return any(v != v for v in xs)


def _sorted(xs, key=None, reverse=False):
    xs = list(xs)  # a generator is iterated once
    if key is None and not reverse and _has_nan(xs):
        return merge_sort(xs)
    return sorted(xs, key=key, reverse=reverse)


def _sort(xs, key=None, reverse=False) -> None:
    xs[:] = _sorted(xs, key, reverse)


def _in(a, xs) -> bool:
    if isinstance(xs, str):  # a substring test
        return a in xs
    return any(a == v for v in xs)


def _eq(a, b) -> bool:
    if isinstance(a, list):
        return len(a) == len(b) and all(x == y for x, y in zip(a, b))
    return a == b


def _lshift(a, b):
    """`a << b` past 64 bits is an OverflowError before CPython builds the huge int."""
    if a and b > 64:
        raise _Int64Overflow
    return a << b


class _FellOff(BaseException):
    """Raised where a function declared to return a value reaches the end of its body (CPython
    would return None; the VM ends the job with NONE_RETURNED)."""


def _may_return_none(returns: ast.expr | None) -> bool:
    """A return annotation that admits None: `None`, `Optional[T]`, `T | None`."""
    if isinstance(returns, ast.Constant):
        return returns.value is None
    if isinstance(returns, ast.Subscript):
        return isinstance(returns.value, ast.Name) and returns.value.id == "Optional"
    return isinstance(returns, ast.BinOp) and any(map(_may_return_none, (returns.left, returns.right)))


def _returns_value(node: ast.FunctionDef) -> bool:
    """Whether a `return` of node's own body (nested defs and lambdas aside) gives a value."""
    todo = list(node.body)
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Return) and n.value is not None:
            return True
        if not isinstance(n, (ast.FunctionDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(n))
    return False


def _raise_at_ends(tree: ast.Module) -> ast.Module:
    """Every function whose return annotation admits no None ends with `raise _FellOff`
    (reached only where control falls off its end); without an annotation, every function
    some return of which gives a value (gpucc takes its type: a procedure returns None)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and not _may_return_none(node.returns) and (
                node.returns is not None or _returns_value(node)):  # fmt: skip
            node.body.append(ast.Raise(ast.Call(ast.Name("_FellOff", ast.Load()), [], [])))
    return tree


def _checked_math():
    """CPython's math module as gpucc's programs see it: an int result past int64 is an
    OverflowError (factorial, comb, perm of more than 64 factors without building the int;
    prod at its first partial product past int64, as _sum)."""
    checked = types.ModuleType("math")
    checked.__dict__.update(math.__dict__)

    def ints(f, too_many):
        return lambda *args: _chk(f(*args)) if not too_many(*args) else _chk(2**64)

    checked.factorial = ints(math.factorial, lambda n: n > 20)
    checked.comb = ints(math.comb, lambda n, k: 0 <= k <= n and min(k, n - k) > 64)
    checked.perm = ints(math.perm, lambda n, k: 0 <= k <= n and k > 64)
    for name in ("floor", "ceil", "trunc", "isqrt", "gcd", "lcm"):
        setattr(checked, name, ints(getattr(math, name), lambda *args: False))

    def prod(xs):
        acc = 1
        for v in xs:
            acc = _chk(acc * v)
        return acc

    checked.prod = prod
    return checked


CHECKED_MATH = _checked_math()


def _import(name, *args, **kwargs):
    """The import statement of an oracle program: `math` is CHECKED_MATH."""
    return CHECKED_MATH if name == "math" else __import__(name, *args, **kwargs)


class _OutOfSteps(BaseException):
    """Raised by the line budget of cpython_outcome: CPython's stand-in for the step limit."""


def cpython_namespace(source: str) -> dict:
    """Exec `source` (numeric tower applied, overflow-checked: see Tower and _Checked) and
    return its globals."""
    tree = ast.fix_missing_locations(_raise_at_ends(_Checked().visit(Tower().visit(ast.parse(source)))))
    namespace = {"_chk": _chk, "_iadd": _iadd, "_iop": _iop, "_pow_mod": _pow_mod, "_find": _find, "_pow": _pow, "_lshift": _lshift, "_sum": _sum, "_sorted": _sorted, "_sort": _sort,
                 "_in": _in, "_eq": _eq, "_FellOff": _FellOff,
                 "List": typing.List, "Tuple": typing.Tuple, "Optional": typing.Optional, "Dict": typing.Dict,
                 "Set": typing.Set,  # typing's names gpucc reads
                 "__builtins__": {**builtins.__dict__, "__import__": _import}}  # fmt: skip
    try:
        exec(compile(tree, "<oracle>", "exec"), namespace)
    except BaseException as e:  # module code failed: every call's outcome (the VM runs it in each job)
        namespace["__failed__"] = _outcome(_raise, (e,))
    return namespace


def _raise(e):
    raise e


def cpython_outcome(namespace, fname, args, line_budget: int | None = None) -> str:
    """Call namespace[fname](*args) -> its outcome.  line_budget: stop after that many
    executed lines with outcome `step limit` (for programs that never finish)."""
    if "__failed__" in namespace:
        return namespace["__failed__"]
    if line_budget is None:
        return _outcome(namespace[fname], args)
    left = [line_budget]

    def tracer(frame, event, arg):
        if event == "line":
            left[0] -= 1
            if left[0] < 0:
                raise _OutOfSteps
        return tracer

    sys.settrace(tracer)
    try:
        return _outcome(namespace[fname], args)
    finally:
        sys.settrace(None)


def _outcome(fn, args) -> str:
    try:
        r = fn(*copy.deepcopy(args))  # the caller's lists (and the lists in them) untouched
        if fn.__annotations__.get("return") in (float, "float") and type(r) is int:
            r = float(r)  # gpucc converts an int where a float is declared (the numeric tower)
        return repr(r)
    except _OutOfSteps:
        return STEP_LIMIT_LABEL
    except _FellOff:
        return NONE_RETURNED_LABEL
    except _Int64Overflow:
        return "OverflowError"
    except _NoAnswer:
        return "ValueError"
    except Exception as e:  # the kind is the outcome
        return type(e).__name__


def vm_outcomes(sources, calls, backend="reference", step_limit=200_000, heap_size=LaunchLimits.heap_size) -> list[str]:
    """calls: (unit, function name, args).  All sources compiled in one batch and every call
    of a unit that compiled run in one launch (each job's list heap `heap_size` words); a call
    of a unit that did not compile has the outcome `compile error: <message>`."""
    batch = compile_batch(sources)
    program = Program.from_batch(batch)
    gid = {(u, n): int(batch.func_start[u]) + i for u in range(len(sources)) if batch.ok(u)
           for i, n in enumerate(batch.function_names(u))}  # fmt: skip
    run = [j for j, (u, _, _) in enumerate(calls) if batch.ok(u)]
    out = ["" if batch.ok(u) else f"compile error: {batch.error(u)}" for u, _, _ in calls]
    if run:
        jobs = make_jobs({}, [(gid[calls[j][0], calls[j][1]], calls[j][2]) for j in run])
        limits = LaunchLimits(step_limit=step_limit, heap_size=heap_size)
        res = launch(program, jobs, backend, limits)
        replayer = Replayer(program, jobs, limits)  # a str, tuple, list, dict or set returned: its repr
        for k, j in enumerate(run):
            status, t = int(res.status[k]), int(batch.func_ret_type[gid[calls[j][0], calls[j][1]]])
            if status != 0:
                out[j] = LABELS[status]
            else:
                out[j] = replayer.returned(k, t, cut=False) if is_heap(t) else render(int(res.value[k]), t)
    return out


def cpython_outcomes(sources, calls) -> list[str]:
    """The CPython side of vm_outcomes(sources, calls)."""
    namespaces = [cpython_namespace(src) for src in sources]
    return [cpython_outcome(namespaces[u], fname, args) for u, fname, args in calls]


def disagreements(sources, calls, backend="cpu", step_limit=200_000) -> list[tuple]:
    """(source, function, args, cpython outcome, vm outcome) for every call where they differ."""
    want = cpython_outcomes(sources, calls)
    got = vm_outcomes(sources, calls, backend, step_limit)
    return [(sources[u], f, args, w, g) for (u, f, args), w, g in zip(calls, want, got) if w != g]


def program_disagreements(programs: dict, backend: str) -> list[tuple]:
    """programs: name -> (source, argument tuples), each calling `f`; every program compiled
    in one batch and every call run in one launch.  (name, args, CPython's outcome, the VM's)
    for each call where they differ."""
    sources, calls, expected = [], [], []
    for u, (src, cases) in enumerate(programs.values()):
        sources.append(src)
        for args in cases:  # module code runs for each call, as in each VM job
            calls.append((u, "f", args))
            expected.append(cpython_outcome(cpython_namespace(src), "f", args))
    got = vm_outcomes(sources, calls, backend)
    names = list(programs)
    return [(names[u], a, e, g) for (u, _, a), e, g in zip(calls, expected, got) if e != g]
