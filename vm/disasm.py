"""Disassembler: a Program as text, like `python -m dis`.

    function 1 fact(1 param, 2 locals, max stack 2) -> int
       3         12  JUMP_IF_NOT_LT_VAR_INT      131075  (slot 0, 2, to 15)
       4         13  LOAD_INT                         1
                 14  RETURN                           0
       5     >>  15  ...

Columns: source line (when it changes), `>>` on jump targets, absolute pc, opcode, raw
operand and its meaning: constants by value (LOAD_STR: its str), jumps as absolute targets,
calls by callee, ASSERT_CMP by comparison and operand type, packed operands field by field,
RAISE by the exception it raises, EXC_MATCH by the ones it matches.
"""

from __future__ import annotations

from gpucc.contract import isa as O
from gpucc.contract import status as S
from gpucc.contract import typecodes
from gpucc.contract.image import MODULE_CODE, function_ends
from gpucc.contract.valuetypes import TYPE_NAMES


def disassemble(program, unit: int | None = None, names: dict[int, str] | None = None) -> str:
    """Text of every unit (or of `unit`); `names` maps global function ids to names."""
    names = names or {}
    ends = function_ends(program)
    out = []
    for u in range(program.n_units) if unit is None else [unit]:
        c_lo, c_hi = int(program.unit_code_start[u]), int(program.unit_code_start[u + 1])
        k_lo, k_hi = int(program.unit_const_start[u]), int(program.unit_const_start[u + 1])
        out += ([""] if out else []) + [f"unit {u}: code [{c_lo}, {c_hi}), {k_hi - k_lo} constants"]
        for g in range(int(program.unit_func_start[u]), int(program.unit_func_start[u + 1])):
            out += _function(program, g, int(ends[g]), names)
    return "\n".join(out) + "\n"


def _function(p, g: int, end: int, names: dict[int, str]) -> list[str]:
    n_params, n_locals = int(p.func_nparams[g]), int(p.func_nlocals[g])
    ret = int(p.func_ret_type[g])
    ret_name = typecodes.name(ret) if ret >= 0 and typecodes.width(ret) > 0 else f"type {ret}"
    plural = lambda n, w: f"{n} {w}{'' if n == 1 else 's'}"  # noqa: E731
    name = names.get(g, "") or ("<module>" if p.func_import[g] == MODULE_CODE else "")
    head = f"{name}({plural(n_params, 'param')}"
    if p.func_import[g] >= 0:
        return ["", f"function {g} {head}) -> {ret_name}: import #{int(p.func_import[g])}"]
    head += f", {plural(n_locals, 'local')}, max stack {int(p.func_max_stack[g])}) -> {ret_name}"
    entry = int(p.func_entry[g])
    targets = {entry + O.jump_target(int(p.code[pc, 0]), int(p.code[pc, 1]))
               for pc in range(entry, end) if int(p.code[pc, 0]) in O.JUMP_OPCODES}  # fmt: skip
    lines = ["", f"function {g} {head}"]
    last_line = None
    for pc in range(entry, end):
        op, arg = int(p.code[pc, 0]), int(p.code[pc, 1])
        line = int(p.lines[pc])
        shown = f"{line:>4}" if line != last_line else "    "
        last_line = line
        name = O.TABLE[op].name if 0 <= op < O.NUM_OPCODES else f"<opcode {op}>"
        meaning = _meaning(p, g, op, arg, entry, names)
        mark = ">>" if pc in targets else "  "
        lines.append(f"{shown}   {mark} {pc:>5}  {name:<24}{arg:>11}" + (f"  ({meaning})" if meaning else ""))
    return lines


def _meaning(p, g: int, op: int, arg: int, entry: int, names: dict[int, str]) -> str:
    if not 0 <= op < O.NUM_OPCODES:
        return ""
    kind = O.TABLE[op].operand
    u = int(p.func_unit[g])
    if kind == O.ARG_CONST:
        k, end = int(p.unit_const_start[u]) + arg, int(p.unit_const_start[u + 1])
        if not (0 <= arg and k < end):
            return "no such constant"
        if op >= O.FIRST_VALUE:
            return _value_types(op, int(p.consts[k]))
        if op != O.LOAD_STR:
            return repr(int(p.consts[k]))
        points = [int(c) for c in p.consts[k + 1 : k + 1 + max(0, int(p.consts[k]))]]
        well_formed = 0 <= p.consts[k] <= end - k - 1 and all(0 <= c <= 0x10FFFF for c in points)
        return repr("".join(map(chr, points))) if well_formed else "no such str"
    if kind == O.ARG_JUMP:
        return f"to {entry + arg}"
    modes = O.MATH_MODES.get(O.TABLE[op].name, ())
    if 0 <= arg < len(modes):
        return f"math.{modes[arg]}"
    if kind in O.PACKED_KINDS:
        fields = O.operand_fields(kind, arg)
        forms = {O.ARG_LOCAL: "slot {}", O.ARG_IMM: "{}", O.ARG_JUMP: "to {}"}
        shown = [forms[k].format(f + entry if k == O.ARG_JUMP else f) for k, f in zip(O.FIELDS[kind], fields)]
        if op == O.FOR_LOOP:
            shown[0] = f"counter, stop, step in slots {fields[0]}..{fields[0] + 2}"
        return ", ".join(shown)
    if kind == O.ARG_FUNC:
        callee = int(p.unit_func_start[u]) + arg
        if not 0 <= arg or callee >= int(p.unit_func_start[u + 1]):
            return "no such function"
        imp = int(p.func_import[callee])
        return names.get(callee, f"function {callee}") + (f", import #{imp}" if imp >= 0 else "")
    if kind == O.ARG_TYPED_CMP:
        cmp, left, right = O.typed_cmp_fields(arg)
        if cmp < len(O.CMP_NAMES) and left < len(TYPE_NAMES) and 0 <= right < len(TYPE_NAMES):
            types = TYPE_NAMES[left] if left == right else f"{TYPE_NAMES[left]} {TYPE_NAMES[right]}"
            return f"{O.CMP_NAMES[cmp]} {types}"
        return "bad comparison"
    if op in (O.FOR_RANGE, O.RANGE_CHECK):
        return f"counter, stop, step in slots {arg}..{arg + 2}"
    if op in (O.RAISE, O.EXC_MATCH):  # a status, a mask of them
        raised = [s for s in S.RAISABLE if (arg == s if op == O.RAISE else (arg >> s) & 1)]
        return " | ".join(S.LABELS[s] for s in raised) or "no such exception"
    return ""


def _value_types(op: int, c: int) -> str:
    """A value instruction's constant: `== list[int] list[int]` (typed_values) or the element type."""
    named = lambda t: typecodes.name(t) if 0 <= t < 1 << 28 and typecodes.width(t) else None  # noqa: E731
    if op in (O.VALUE_CMP, O.ASSERT_VALUE, O.VALUE_CONTAINS, O.VALUE_INDEX, O.VALUE_COUNT, O.VALUE_REMOVE):
        cmp, left, right = O.typed_values_fields(c)
        if cmp < len(O.CMP_NAMES) and named(left) and named(right) and O.typed_values(cmp, left, right) == c:
            return f"{O.CMP_NAMES[cmp]} {named(left)}" + ("" if left == right else f" {named(right)}")
        return f"bad comparison {c}"
    return named(c) or f"bad type {c}"
