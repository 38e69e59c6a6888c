"""CPython's own parser as the oracle for compiler.parser: Python's `ast` of a program in the
gpucc subset, written in compiler.syntax_tree's format (whitespace-normalized)."""

from __future__ import annotations

import ast

_BIN = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%", ast.Div: "/", ast.Pow: "**",
        ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>"}  # fmt: skip
_UN = {ast.USub: "-", ast.UAdd: "+", ast.Not: "not", ast.Invert: "~"}
_CMP = {ast.Lt: "<", ast.LtE: "<=", ast.Eq: "==", ast.NotEq: "!=", ast.Gt: ">", ast.GtE: ">=", ast.In: "in",
        ast.NotIn: "not in"}  # fmt: skip


class NotInSubset(Exception):
    """A form this oracle does not spell (it covers the first language: ints, floats, bools, lists)."""


def _type(node) -> str:
    if node is None:  # no annotation: gpucc's tree has none either, this dump spells annotated code only
        raise NotInSubset("a parameter or return without an annotation")
    if isinstance(node, ast.Subscript):
        return f"list[{node.slice.id}]"
    return "None" if isinstance(node, ast.Constant) else node.id


def _expr(e) -> str:
    if isinstance(e, ast.Constant):
        return repr(e.value) if isinstance(e.value, (float, str)) else str(e.value)
    if isinstance(e, ast.IfExp):
        return f"(IFEXP {_expr(e.test)} {_expr(e.body)} {_expr(e.orelse)})"
    if isinstance(e, ast.List):
        return "(LIST" + "".join(" " + _expr(x) for x in e.elts) + ")"
    if isinstance(e, ast.Subscript) and isinstance(e.slice, ast.Slice):
        parts = [_expr(p) if p is not None else "None" for p in (e.slice.lower, e.slice.upper, e.slice.step)]
        return f"(SLICE {_expr(e.value)} " + " ".join(parts) + ")"
    if isinstance(e, ast.Subscript):
        return f"(SUBSCRIPT {_expr(e.value)} {_expr(e.slice)})"
    if isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute):
        return f"(METHOD {e.func.attr} " + " ".join([_expr(e.func.value)] + [_expr(a) for a in e.args]) + ")"
    if isinstance(e, ast.Name):
        return e.id
    if isinstance(e, ast.UnaryOp):
        return f"(UNARY {_UN[type(e.op)]} {_expr(e.operand)})"
    if isinstance(e, ast.BinOp):
        return f"(BINARY {_BIN[type(e.op)]} {_expr(e.left)} {_expr(e.right)})"
    if isinstance(e, ast.BoolOp):
        name = "and" if isinstance(e.op, ast.And) else "or"
        out = _expr(e.values[0])
        for v in e.values[1:]:
            out = f"(BOOLOP {name} {out} {_expr(v)})"
        return out
    if isinstance(e, ast.Compare):
        parts = [_expr(e.left)]
        for o, c in zip(e.ops, e.comparators):
            parts += [_CMP[type(o)], _expr(c)]
        return "(COMPARE " + " ".join(parts) + ")"
    if isinstance(e, ast.Call):
        return "(CALL " + " ".join([e.func.id] + [_expr(a) for a in e.args]) + ")"
    raise NotInSubset(f"{ast.dump(e)}")


def _block(body, lines) -> str:
    return "(BLOCK " + " ".join(_stmt(s, lines) for s in body) + ")"


def _stmt(s, lines) -> str:
    if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Subscript):
        return f"(SETITEM {_expr(s.targets[0])} = {_expr(s.value)})"
    if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Subscript):
        return f"(SETITEM {_expr(s.target)} {_BIN[type(s.op)]}= {_expr(s.value)})"
    if isinstance(s, ast.Assign) and isinstance(s.targets[0], ast.Name) and len(s.targets) == 1:
        return f"(ASSIGN {s.targets[0].id} {_expr(s.value)})"
    if isinstance(s, ast.AnnAssign):
        return f"(ASSIGN {s.target.id}: {_type(s.annotation)} {_expr(s.value)})"
    if isinstance(s, ast.AugAssign):
        return f"(AUGASSIGN {s.target.id} {_BIN[type(s.op)]}= {_expr(s.value)})"
    if isinstance(s, ast.Expr):
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value, (str, bytes)):
            return "(DOCSTRING)"
        if isinstance(s.value, ast.Constant) and s.value.value is Ellipsis:
            return "(ELLIPSIS)"
        return f"(EXPR_STMT {_expr(s.value)})"
    if isinstance(s, ast.If):
        out = f"(IF {_expr(s.test)} {_block(s.body, lines)}"
        if s.orelse:
            first = s.orelse[0]
            is_elif = isinstance(first, ast.If) and lines[first.lineno - 1][first.col_offset :].startswith("elif")
            out += " " + (_stmt(first, lines) if is_elif else _block(s.orelse, lines))
        return out + ")"
    if isinstance(s, ast.While):
        return f"(WHILE {_expr(s.test)} {_block(s.body, lines)})"
    if isinstance(s, ast.For) and not (isinstance(s.iter, ast.Call) and getattr(s.iter.func, "id", "") == "range"):
        return f"(FOR_LIST {s.target.id} {_expr(s.iter)} {_block(s.body, lines)})"
    if isinstance(s, ast.For):
        args = " ".join(_expr(a) for a in s.iter.args)
        return f"(FOR_RANGE {s.target.id} {args} {_block(s.body, lines)})"
    if isinstance(s, ast.Return):
        return "(RETURN)" if s.value is None else f"(RETURN {_expr(s.value)})"
    if isinstance(s, ast.Assert):
        return f"(ASSERT {_expr(s.test)})"
    if isinstance(s, (ast.Break, ast.Continue, ast.Pass)):
        return f"({type(s).__name__.upper()})"
    raise NotInSubset(f"{ast.dump(s)}")


def oracle_dump(source: str) -> str:
    """compiler.syntax_tree.dump's output for `source`, computed from CPython's ast, whitespace-normalized."""
    lines = source.split("\n")
    parts = []
    for f in ast.parse(source).body:
        if isinstance(f, ast.Expr) and isinstance(f.value, ast.Constant) and isinstance(f.value.value, (str, bytes)):
            after = lines[f.end_lineno - 1].encode()[f.end_col_offset :].decode(errors="ignore")  # offsets: UTF-8
            if not after.lstrip(" \t").startswith(";"):
                continue  # a module docstring (or a later string statement) ending its line: no node, as gpucc's
            # parser; one followed by `;` is parsed as any statement (a DOCSTRING node, as in a block)
        if not isinstance(f, ast.FunctionDef):  # module code: a statement as in a block
            parts.append(_stmt(f, lines))
            continue
        params = "".join(f" (PARAM {a.arg} {_type(a.annotation)})" for a in f.args.args)
        parts.append(f"(FUNCDEF {f.name} -> {_type(f.returns)}{params} {_block(f.body, lines)})")
    return "(MODULE" + "".join(" " + x for x in parts) + ")"


def normalized(dump_text: str) -> str:
    return " ".join(dump_text.split())
