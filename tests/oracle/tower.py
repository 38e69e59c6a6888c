"""The numeric tower on the CPython side: where gpucc converts an int (or bool) to a float,
rewrite the source so CPython converts it too.

gpucc documents (PEP 484's numeric tower) that an int where a float is declared is converted:
a parameter annotated `float`, the value of a `-> float` function, a local annotated `float` or
one that is assigned a float anywhere in its function (a "widened" local), the int branch
of a conditional expression whose other branch is a float, and an int element of a
`list[float]` (a literal's, an appended or a stored one; `sum` of an empty `list[float]` or
generator of floats is 0.0).  CPython keeps the int, so `//`, overflow and repr would differ; `Tower().visit(tree)`
wraps each such value in `float(...)` (identity on a float), after typing names the way gpucc's
checker does (see `expr_type`; a local `xs = []` is a `list[float]` if a float is appended to it
or stored in it anywhere).

Nothing else is mapped here: `1 if c else True` (int and bool branches) stays unconverted.
"""

from __future__ import annotations

import ast

BITWISE = (ast.BitAnd, ast.BitOr, ast.BitXor)
WIDE = ("float", "list[float]")  # the types an int-typed local can widen to


def list_of(*types: str) -> str:
    """The type of a list built from elements (or lists) of `types`: float if any is."""
    return "list[float]" if any(t in ("float", "list[float]") for t in types) else "list[int]"


def expr_type(node: ast.expr, names: dict[str, str], funcs: dict[str, str]) -> str:
    """"int", "bool", "float", "list[int]" or "list[float]": the gpucc type of `node` (unknown
    names count as int)."""
    t = lambda n: expr_type(n, names, funcs)
    if isinstance(node, ast.Constant):
        return {bool: "bool", float: "float"}.get(type(node.value), "int")
    if isinstance(node, ast.Name):
        return names.get(node.id, "int")
    if isinstance(node, ast.List):
        return list_of(*map(t, node.elts))
    if isinstance(node, ast.Subscript):
        lt = t(node.value)
        return lt if isinstance(node.slice, ast.Slice) else lt[5:-1]
    if isinstance(node, ast.BinOp):
        lt, rt = t(node.left), t(node.right)
        if lt.startswith("list") or rt.startswith("list"):
            return list_of(*(x for x in (lt, rt) if x.startswith("list")))
        if isinstance(node.op, ast.Div) or "float" in (lt, rt):
            return "float"
        return "bool" if isinstance(node.op, BITWISE) and lt == rt == "bool" else "int"
    if isinstance(node, ast.UnaryOp):
        if isinstance(node.op, ast.Not):
            return "bool"
        return "float" if t(node.operand) == "float" else "int"
    if isinstance(node, ast.IfExp):
        bt, ot = t(node.body), t(node.orelse)
        if bt.startswith("list"):
            return list_of(bt, ot)
        return "float" if "float" in (bt, ot) else bt
    if isinstance(node, ast.BoolOp):  # one type in a value; only the truth counts otherwise
        first = t(node.values[0])
        return list_of(*map(t, node.values)) if first.startswith("list") else first
    if isinstance(node, ast.Compare):
        return "bool"
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)):  # its targets are names of its own
        inner = dict(names)
        for g in node.generators:
            it = expr_type(g.iter, inner, funcs)
            if isinstance(g.target, ast.Name):  # names unpacked from tuples are unknown: int
                inner[g.target.id] = it[5:-1] if it.startswith("list") else "int"
        return list_of(expr_type(node.elt, inner, funcs))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        f = node.func.id
        if f in ("int", "float", "bool", "range"):
            return f
        if f in ("any", "all"):
            return "bool"
        if f in ("abs", "min", "max", "sum"):
            ats = [t(a) for a in node.args[: 2 if f == "sum" else 1]]  # sum(xs, start)
            return "float" if any(at in ("float", "list[float]") for at in ats) else "int"
        if f == "sorted":
            return t(node.args[0])
        return funcs.get(f, "int")
    return "int"


def _annotation(node) -> str | None:
    return ast.unparse(node) if isinstance(node, (ast.Name, ast.Subscript)) else None


def _list_store(node: ast.AST) -> tuple[str, ast.expr] | None:
    """(name, value) of `name.append(value)` or `name[i] = value`, else None."""
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
        f = node.value.func
        if isinstance(f, ast.Attribute) and f.attr == "append" and isinstance(f.value, ast.Name):
            return f.value.id, node.value.args[0]
    if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Subscript):
        target = node.targets[0].value
        if isinstance(target, ast.Name):
            return target.id, node.value
    return None


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
                target, t = node.target.id, expr_type(node.iter, names, funcs)
                t = "int" if t == "range" else t[5:-1]
            elif (store := _list_store(node)) and names.get(store[0]) == "list[int]":
                target, t = store[0], list_of(expr_type(store[1], names, funcs))
            elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                target, t = node.targets[0].id, expr_type(node.value, names, funcs)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
                target = node.target.id
                t = expr_type(ast.BinOp(node.target, node.op, node.value), names, funcs)
            else:
                continue
            if target in fixed or names.get(target) in WIDE:
                continue
            if t in WIDE or target not in names:
                changed = True
                names[target] = t
    return names


def _to_float(node: ast.expr) -> ast.expr:
    if isinstance(node, ast.Constant) and node.value is None:  # `None if c else n` of an Optional[float]
        return node
    return ast.Call(ast.Name("float", ast.Load()), [node], [])


class Tower(ast.NodeTransformer):
    """Wrap every int that gpucc converts to a float in `float(...)` (module docstring)."""

    def __init__(self):
        self.funcs: dict[str, str] = {}
        self.names: dict[str, str] = {}
        self.ret = ""

    def visit_Module(self, node):
        self.funcs = {f.name: _annotation(f.returns) or "None" for f in ast.walk(node) if isinstance(f, ast.FunctionDef)}
        return self.generic_visit(node)

    def visit_FunctionDef(self, node):
        outer = self.names, self.ret  # a nested def's names are its own
        self.names, self.ret = local_types(node, self.funcs), self.funcs[node.name]
        self.generic_visit(node)
        floats = [a.arg for a in node.args.args if self.names[a.arg] == "float"]
        self.names, self.ret = outer
        convert = [ast.Assign([ast.Name(p, ast.Store())], _to_float(ast.Name(p, ast.Load()))) for p in floats]
        node.body = convert + node.body
        return node

    def _float_name(self, target) -> bool:
        return isinstance(target, ast.Name) and self.names.get(target.id) == "float"

    def _float_list(self, node: ast.expr) -> bool:
        return expr_type(node, self.names, self.funcs) == "list[float]"

    def visit_Assign(self, node):
        self.generic_visit(node)
        target = node.targets[0]
        element = isinstance(target, ast.Subscript) and not isinstance(target.slice, ast.Slice)  # not xs[a:b] = ys
        if self._float_name(target) or (element and self._float_list(target.value)):
            node.value = _to_float(node.value)
        return node

    def visit_List(self, node):
        self.generic_visit(node)
        if self._float_list(node):
            node.elts = [_to_float(e) for e in node.elts]
        return node

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and f.attr == "append" and self._float_list(f.value):
            node.args = [_to_float(node.args[0])]
        if isinstance(f, ast.Attribute) and f.attr == "insert" and len(node.args) == 2 and self._float_list(f.value):
            node.args = [node.args[0], _to_float(node.args[1])]
        if isinstance(f, ast.Name) and f.id == "sum" and self._float_list(node.args[0]):
            return _to_float(node)  # sum of an empty list[float] (or generator of floats) is 0.0
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
