"""The numeric tower on the CPython side: where gpucc converts an int (or bool) to a float,
rewrite the source so CPython converts it too.

gpucc documents (PEP 484's numeric tower) that an int where a float is declared is converted:
a parameter annotated `float`, the value of a `-> float` function, a local annotated `float` or
one that is assigned a float anywhere in its function (a "widened" local), and the int branch
of a conditional expression whose other branch is a float.  CPython keeps the int, so `//`,
overflow and repr would differ; `Tower().visit(tree)` wraps each such value in `float(...)`
(identity on a float), after typing names the way gpucc's checker does (see `expr_type`).

Nothing else is mapped here: `1 if c else True` (int and bool branches) stays unconverted.
"""

from __future__ import annotations

import ast

BITWISE = (ast.BitAnd, ast.BitOr, ast.BitXor)


def expr_type(node: ast.expr, names: dict[str, str], funcs: dict[str, str]) -> str:
    """"int", "bool" or "float": the gpucc type of `node` (unknown names count as int)."""
    t = lambda n: expr_type(n, names, funcs)
    if isinstance(node, ast.Constant):
        return {bool: "bool", float: "float"}.get(type(node.value), "int")
    if isinstance(node, ast.Name):
        return names.get(node.id, "int")
    if isinstance(node, ast.BinOp):
        lt, rt = t(node.left), t(node.right)
        if isinstance(node.op, ast.Div) or "float" in (lt, rt):
            return "float"
        return "bool" if isinstance(node.op, BITWISE) and lt == rt == "bool" else "int"
    if isinstance(node, ast.UnaryOp):
        if isinstance(node.op, ast.Not):
            return "bool"
        return "float" if t(node.operand) == "float" else "int"
    if isinstance(node, ast.IfExp):
        return "float" if "float" in (t(node.body), t(node.orelse)) else t(node.body)
    if isinstance(node, ast.BoolOp):  # one type in a value; only the truth counts otherwise
        return t(node.values[0])
    if isinstance(node, ast.Compare):
        return "bool"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        f = node.func.id
        if f in ("int", "float", "bool"):
            return f
        if f in ("abs", "min", "max"):
            return "float" if t(node.args[0]) == "float" else "int"
        return funcs.get(f, "int")
    return "int"


def _annotation(node) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def local_types(fn: ast.FunctionDef, funcs: dict[str, str]) -> dict[str, str]:
    """Name -> type in `fn`: parameters and annotated locals as declared; another local has
    the type of its first assignment, or float if any assignment (augmented ones included)
    stores a float (repeated until no local widens further)."""
    names = {a.arg: _annotation(a.annotation) or "int" for a in fn.args.args}
    fixed = set(names)
    for node in ast.walk(fn):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = _annotation(node.annotation) or "int"
            fixed.add(node.target.id)
    changed = True
    while changed:
        changed = False
        for node in ast.walk(fn):
            if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
                target, t = node.target.id, "int"
            elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                target, t = node.targets[0].id, expr_type(node.value, names, funcs)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                target = node.target.id
                t = expr_type(ast.BinOp(node.target, node.op, node.value), names, funcs)
            else:
                continue
            if target in fixed or names.get(target) == "float":
                continue
            if t == "float" or target not in names:
                changed = changed or t == "float" or target not in names
                names[target] = t
    return names


def _to_float(node: ast.expr) -> ast.expr:
    return ast.Call(ast.Name("float", ast.Load()), [node], [])


class Tower(ast.NodeTransformer):
    """Wrap every int that gpucc converts to a float in `float(...)` (module docstring)."""

    def __init__(self):
        self.funcs: dict[str, str] = {}
        self.names: dict[str, str] = {}
        self.ret = ""

    def visit_Module(self, node):
        self.funcs = {f.name: _annotation(f.returns) or "None" for f in node.body if isinstance(f, ast.FunctionDef)}
        return self.generic_visit(node)

    def visit_FunctionDef(self, node):
        self.names, self.ret = local_types(node, self.funcs), self.funcs[node.name]
        self.generic_visit(node)
        floats = [a.arg for a in node.args.args if self.names[a.arg] == "float"]
        convert = [ast.Assign([ast.Name(p, ast.Store())], _to_float(ast.Name(p, ast.Load()))) for p in floats]
        node.body = convert + node.body
        return node

    def _float_name(self, target) -> bool:
        return isinstance(target, ast.Name) and self.names.get(target.id) == "float"

    def visit_Assign(self, node):
        self.generic_visit(node)
        if self._float_name(node.targets[0]):
            node.value = _to_float(node.value)
        return node

    def visit_AnnAssign(self, node):
        self.generic_visit(node)
        if node.value is not None and self._float_name(node.target):
            node.value = _to_float(node.value)
        return node

    def visit_Return(self, node):
        self.generic_visit(node)
        if node.value is not None and self.ret == "float":
            node.value = _to_float(node.value)
        return node

    def visit_IfExp(self, node):
        self.generic_visit(node)
        if expr_type(node, self.names, self.funcs) == "float":
            node.body, node.orelse = _to_float(node.body), _to_float(node.orelse)
        return node
