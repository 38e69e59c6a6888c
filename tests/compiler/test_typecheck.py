"""Type checker: one test per error code it emits (with the caret checked), and programs it
must accept (Python scoping, definite assignment, reachability, exact types)."""

from __future__ import annotations

import pytest

from gpucc.compiler import compile_source, errors, limits

H = "def h(a: int, b: int) -> int:\n    return a\n\n"  # a helper some cases call
V = "def v(a: int) -> None:\n    pass\n\n"  # a `-> None` helper

# (error name, source, text the caret must point at, its occurrence: 1 = first, -1 = last)
CASES = [
    ("E_UNDEFINED_NAME", "def f() -> int:\n    return zz + 1\n", "zz", 1),
    ("E_UNDEFINED_NAME", "def f() -> int:\n    return f\n", "f", -1),
    ("E_UNBOUND", "def f(c: bool) -> int:\n    if c:\n        x = 1\n    return x\n", "x", -1),
    ("E_UNBOUND", "def f(n: int) -> int:\n    for i in range(n):\n        y = i\n    return y\n", "y", -1),
    ("E_UNBOUND", "def f(n: int) -> int:\n    while n > 0:\n        z = 1\n        n -= 1\n    return z\n", "z", -1),
    ("E_UNBOUND", "def f() -> int:\n    k += 1\n    return 0\n", "k", 1),
    ("E_UNBOUND", "def f() -> int:\n    x = x + 1\n    return x\n", "x", 2),
    ("E_UNBOUND", "def f() -> int:\n    return 1\n    return w\n    w = 2\n", "w", 1),
    ("E_TYPE_MISMATCH", "def f() -> int:\n    x: int = 1\n    x: str = 'a'\n    return x\n", "x: str", 1),
    ("E_TYPE_AT_JOIN", "def f() -> int:\n    x = 1\n    for i in range(2):\n        x = True\n    return x\n", "True", 1),
    ("E_TYPE_MISMATCH", "def f() -> int:\n    x: bool = 1\n    return 0\n", "1", 1),
    ("E_TYPE_MISMATCH", "def f() -> int:\n    x = 1\n    x: bool = False\n    return 0\n", "x", 2),
    ("E_TYPE_MISMATCH", "def f(flag: bool) -> int:\n    flag += 1\n    return 0\n", "flag", 2),
    ("E_TYPE_MISMATCH", "def f(flag: bool) -> int:\n    for flag in range(3):\n        pass\n    return 0\n", "flag", 2),
    ("E_TYPE_MISMATCH", H + "def f() -> int:\n    return h(1, 2 > 1)\n", "2 > 1", 1),
    ("E_OPERAND_TYPES", "def f(a: int, b: bool) -> int:\n    x = a and b\n    return 0\n", "and", 1),
    ("E_OPERAND_TYPES", "def f(a: int, b: bool) -> bool:\n    return b or a\n", "or", 1),
    ("E_CALL_ARITY", H + "def f() -> int:\n    return h(1)\n", "h", -1),
    ("E_UNKNOWN_FUNCTION", "def f() -> int:\n    return g(1)\n", "g", 1),
    ("E_NOT_CALLABLE_BUILTIN", "def f(a: int) -> int:\n    return hash(a)\n", "hash", 1),
    ("E_RETURN_TYPE", "def f() -> int:\n    return True\n", "True", 1),
    ("E_RETURN_TYPE", "def f() -> bool:\n    return\n", "return", -1),
    ("E_RETURN_TYPE", "def f() -> None:\n    return 1 + 2\n", "1 + 2", 1),
    ("E_RETURN_TYPE", "def f() -> int:\n    return None\n", "None", -1),
    ("E_BREAK_OUTSIDE_LOOP", "def f() -> int:\n    break\n", "break", 1),
    ("E_BREAK_OUTSIDE_LOOP", "def f(c: bool) -> None:\n    if c:\n        continue\n", "continue", 1),
    ("E_DUPLICATE_FUNCTION", "def f() -> int:\n    return 1\n\ndef f() -> int:\n    return 2\n", "f(", -1),
    ("E_DUPLICATE_PARAM", "def f(a: int, a: int) -> int:\n    return a\n", "a", 2),
    ("E_VOID_VALUE", V + "def f() -> int:\n    return v(1) + 1\n", "v", -1),
    ("E_VOID_VALUE", V + "def f() -> None:\n    x = v(1)\n", "v", -1),
    ("E_NO_FUNCTIONS", "# nothing here\n", "#", 1),
    ("E_NONE_VALUE", "def f() -> int:\n    x: None = None\n    return 0\n", "x", 1),
    ("E_NONE_VALUE", "def f(a: None) -> int:\n    return 0\n", "a", 1),
    ("E_NOT_A_FUNCTION", H + "def f(h: int) -> int:\n    return h(1, 2)\n", "h(1", 1),
    ("E_NOT_A_FUNCTION", H + "def f() -> int:\n    x = h(1, 2)\n    h = 3\n    return x\n", "h(1", 1),
    ("E_RESERVED_NAME", "def range(n: int) -> int:\n    return n\n", "range", 1),
    ("E_RESERVED_NAME", "def f(range: int) -> int:\n    return 0\n", "range", 1),
    ("E_RESERVED_NAME", "def f() -> int:\n    range = 3\n    return 0\n", "range", 1),
]


def _caret_target(source: str, text: str, occurrence: int) -> tuple[int, int]:
    starts = [i for i in range(len(source)) if source.startswith(text, i)]
    at = starts[occurrence - 1 if occurrence > 0 else occurrence]
    line = source.count("\n", 0, at) + 1
    return line, at - (source.rfind("\n", 0, at) + 1) + 1


def compile_error(source: str) -> errors.CompileError:
    batch = compile_source(source)
    assert not batch.ok(0), "expected a compile error"
    return batch.error(0, "cand.py")


@pytest.mark.parametrize(("name", "source", "text", "occurrence"), CASES)
def test_error_code_and_caret(name, source, text, occurrence):
    err = compile_error(source)
    assert errors.NAMES[err.code] == name, err.format()
    assert (err.line, err.col) == _caret_target(source, text, occurrence), err.format()
    assert err.format().startswith(f"cand.py:{err.line}:{err.col}: error: ")


def test_every_emitted_code_has_a_case():
    emitted = {
        "E_UNDEFINED_NAME", "E_UNBOUND", "E_TYPE_MISMATCH", "E_OPERAND_TYPES", "E_CALL_ARITY",
        "E_UNKNOWN_FUNCTION", "E_NOT_CALLABLE_BUILTIN", "E_RETURN_TYPE",
        "E_BREAK_OUTSIDE_LOOP", "E_DUPLICATE_FUNCTION", "E_DUPLICATE_PARAM", "E_VOID_VALUE",
        "E_NO_FUNCTIONS", "E_NONE_VALUE", "E_NOT_A_FUNCTION", "E_RESERVED_NAME",
    }  # fmt: skip
    assert emitted <= {c[0] for c in CASES}


def test_messages_name_types_and_counts():
    def message(source):
        return compile_error(source).message

    assert message("def f() -> int:\n    x: bool = 1\n    return 0\n") == "type mismatch: expected bool, got int"
    assert "for 'and': int and bool" in message("def f(a: int, b: bool) -> bool:\n    return a and b\n")
    assert "'h' takes 2 argument(s), 1 given" in message(H + "def f() -> int:\n    return h(1)\n")
    assert "built-in 'hash' is not supported yet" in message("def f(a: int) -> int:\n    return hash(a)\n")
    assert "expected int, got None" in message("def f() -> int:\n    return\n")


def _params(n: int) -> str:
    return ", ".join(f"p{i}: int" for i in range(n))


def test_limits():
    many_params = f"def f({_params(limits.MAX_PARAMS + 1)}) -> int:\n    return 0\n"
    err = compile_error(many_params)
    assert err.code == errors.E_TOO_MANY_PARAMS and err.col == many_params.index(f"p{limits.MAX_PARAMS}:") + 1

    body = "".join(f"    v{i} = {i}\n" for i in range(limits.MAX_LOCALS + 1))
    err = compile_error("def f() -> int:\n" + body + "    return 0\n")
    assert err.code == errors.E_TOO_MANY_LOCALS and err.line == limits.MAX_LOCALS + 2

    # named locals fit, but the hidden slots of a loop do not
    body = "".join(f"    v{i} = {i}\n" for i in range(limits.MAX_LOCALS - 2))
    err = compile_error("def f() -> int:\n" + body + "    for v0 in range(3):\n        pass\n    return 0\n")
    assert err.code == errors.E_TOO_MANY_LOCALS and err.line == limits.MAX_LOCALS

    funcs = "".join(f"def f{i}() -> int:\n    return {i}\n" for i in range(limits.MAX_FUNCTIONS + 1))
    err = compile_error(funcs)
    assert err.code == errors.E_TOO_MANY_FUNCTIONS and err.line == 2 * limits.MAX_FUNCTIONS + 1

    consts = "".join(f"    x = {3_000_000_000 + i}\n" for i in range(limits.MAX_CONSTS + 1))
    err = compile_error("def f() -> int:\n    x = 0\n" + consts + "    return x\n")
    assert err.code == errors.E_TOO_MANY_CONSTANTS and err.line == limits.MAX_CONSTS + 3


def test_the_first_error_is_reported_after_the_walk_goes_on():
    """A failed statement does not end the check (a later one may widen a local it reads);
    with no such widening the first error is the one reported, not a later one."""
    src = "def f(xs: list[int], fs: list[float]) -> int:\n    q = xs + fs\n    r = 1 + True\n    s = xs and 1\n    return q\n"
    err = compile_error(src)
    assert (errors.NAMES[err.code], err.line) == ("E_OPERAND_TYPES", 2), err.format()
    widened = "def f(u: int, fs: list[float]) -> float:\n    z = u\n    q = [z] + fs\n    if q:\n        z = fs[0]\n    return q[0]\n"
    assert compile_source(widened).ok(0)  # z holds floats (assigned one later): [z] is a list[float]
    # an error that ends the walk at once (a for target's type) does not replace the first either
    ends = "def f(fs: list[float]) -> int:\n    y: int = 1.5\n    for x in fs:\n        pass\n    for x in range(3):\n        pass\n    return 0\n"
    assert compile_error(ends).line == 2, compile_error(ends).format()


ACCEPTED = [
    # definite assignment through both branches, elif chains, loops left by break
    "def f(c: bool) -> int:\n    if c:\n        x = 1\n    else:\n        x = 2\n    return x\n",
    "def f(n: int) -> int:\n    if n > 0:\n        x = 1\n    elif n < 0:\n        x = -1\n    else:\n        return 0\n    return x\n",
    "def f(n: int) -> int:\n    while True:\n        if n > 3:\n            r = n\n            break\n        n += 1\n    return r\n",
    "def f(n: int) -> int:\n    while 1:\n        n += 1\n        if n > 9:\n            return n\n",
    "def f(n: int) -> int:\n    for i in range(n):\n        if i > 2:\n            x = i\n            return x\n    return -1\n",
    # a branch ending in continue/break contributes nothing to the join
    "def f(n: int) -> int:\n    t = 0\n    for i in range(n):\n        if i == 2:\n            continue\n        else:\n            y = i\n        t += y\n    return t\n",
    # params are locals; reassignment with the same type; annotated first assignment
    "def f(a: int) -> int:\n    a = a + 1\n    b: bool = a > 2\n    b = not b\n    return a\n",
    # bool arithmetic gives int; comparisons of bool and int; mixed and/or as a condition
    "def f(a: bool, n: int) -> int:\n    x = a + a * 2 - -a\n    if a == 1 and n or not n and a:\n        return x\n    return n\n",
    # forward and mutual calls; -> None functions as statements and as `return v()`
    "def f(n: int) -> bool:\n    return g(n)\n\ndef g(n: int) -> bool:\n    return n == 0 or f(n - 1)\n",
    V + "def f() -> None:\n    v(1)\n    return v(2)\n",
    # stubs: `...` alone or after a docstring
    'def f(x: int) -> int:\n    ...\n\ndef g(x: int) -> int:\n    """doc"""\n    ...\n',
]


@pytest.mark.parametrize("source", ACCEPTED)
def test_accepted(source):
    batch = compile_source(source)
    assert batch.ok(0), str(batch.error(0))


def test_function_table():
    src = (
        "def f(a: int, b: bool) -> bool:\n    x = 1\n    for i in range(a):\n        for j in range(i):\n"
        "            x += j\n    for k in range(3):\n        pass\n    return b\n\n"
        "def stub(n: int) -> int:\n    ...\n"
    )
    batch = compile_source(src)
    assert batch.ok(0)
    assert batch.function_names(0) == ["f", "stub"]
    assert list(batch.func_nparams) == [2, 1]
    # a b x i j k + two loop nesting levels of 3 hidden slots (sibling loops share them)
    assert list(batch.func_nlocals) == [6 + 6, 1]
    assert list(batch.func_ret_type) == [2, 1]
    assert list(batch.func_param_types[0][:3]) == [1, 2, 0]
    assert list(batch.func_is_import) == [0, 1]
    assert batch.func_entry[1] == batch.code_start[1] - batch.code_start[0]  # stub: no code


def test_frame_columns_are_distinct_and_fit_the_walk_stack():
    from gpucc.compiler import narrowing, typecheck_expr, typecheck_frames, typecheck_versions
    from gpucc.compiler.typecheck_base import S_NODE, S_STATE, WALK_WIDTH

    frames = {
        "expression": (S_NODE, typecheck_expr.X_TRUTH, typecheck_expr.X_CHILD),
        "block": (S_NODE, S_STATE, typecheck_frames.BLOCK_NEXT),
        "if / loop": (S_NODE, S_STATE, typecheck_frames.LIVE_AT_JOIN, typecheck_frames.LIVE_BEFORE),
    }
    for name, columns in frames.items():
        assert len(set(columns)) == len(columns) and max(columns) < WALK_WIDTH, name
    masks = (typecheck_frames.MASK_BEFORE, typecheck_frames.MASK_JOIN, narrowing.NN_BEFORE, narrowing.NN_JOIN,
             narrowing.NODE_NN, narrowing.FACT_TRUE, narrowing.FACT_FALSE, typecheck_versions.VERSION,
             typecheck_versions.SPLIT)  # fmt: skip
    assert sorted(masks) == list(range(typecheck_frames.MASK_WIDTH))
