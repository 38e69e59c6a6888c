"""A small assembler: write VM bytecode by hand (tests, the neural path's targets).

    .unit suite                  # starts a unit (one is implied before the first function)
    .import solve x              # an interface stub: name and parameter names
    .func test_solve             # a function: name and parameter names
    .local i acc                 # more local slots (named)
    .stack 4                     # max operand stack (computed from the code when omitted)
    .nlocals 6                   # force the slot count (for deliberately bad code)
    .returns bool                # return type (int when omitted)
    loop:                        # a label (may also prefix an instruction: `loop: LOAD_VAR i`)
        FOR_RANGE 0              # operands: a slot name or number (LOCAL), an int value
        LOAD_CONST 10**20        #   interned in the unit's pool (CONST), an int (IMM), a label
        CALL solve               #   (JUMP), a function of this unit (FUNC), `== [int|bool]`
        ASSERT_CMP ==            #   (ASSERT); `@N` gives any operand raw
        LOAD_STR "a#b\n"         # a Python str literal: its length and code points in the pool
        VAR_ADD_INT i, 5         # packed operands: their fields (contract.isa.FIELDS), comma
        JUMP_IF_NOT_LT_VARS i, n, loop  # separated, each written as its own kind
    # comments run to the end of the line

Each instruction's source line is its line in the text.  `assemble_named` also returns
{"unit.func": global id} (and {"func": id} for names unique across units); `make_jobs`
turns (function name, args) pairs into a JobTable.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

import numpy as np

from gpucc.contract import isa as O
from gpucc.contract import typecodes
from gpucc.contract.flow import pops_of
from gpucc.contract.image import JobTable, Program, image_arrays
from gpucc.contract.limits import MAX_IMPORTS, MAX_PARAMS
from gpucc.contract.pool import argument_slots
from gpucc.contract.valuetypes import T_INT, TYPE_NAMES

UNCOMPUTED = 1 << 16  # provisional max_stack while the real one is measured
# `.returns T`: T as an annotation names it -> its contract.typecodes code (the flat types)
RETURN_TYPES = {typecodes.name(t): t for t in (*typecodes.LEAVES, *map(typecodes.list_of, (T_INT, typecodes.FLOAT,
                                                                                           typecodes.STR)))}  # fmt: skip


class AsmError(ValueError):
    def __init__(self, lineno: int, msg: str):
        super().__init__(f"line {lineno}: {msg}")


@dataclass
class _Func:
    name: str
    params: list[str]
    is_import: bool
    locals: list[str] = field(default_factory=list)
    nlocals: int | None = None
    stack: int | None = None
    ret: int = T_INT
    labels: dict[str, int] = field(default_factory=dict)
    body: list[tuple[str, str, int]] = field(default_factory=list)  # (opname, operand, line)


@dataclass
class _Unit:
    name: str
    funcs: list[_Func] = field(default_factory=list)


_POWER = re.compile(r"(-?)(\d+)\*\*(\d+)(?:([+-])(\d+))?")


def _int(text: str, lineno: int) -> int:
    """An int literal (0x / 0o / 0b / _ allowed), or `[-]B**E[+-]C` such as -2**63."""
    text = text.replace(" ", "")
    if m := _POWER.fullmatch(text):
        sign, base, exp, add_sign, add = m.groups()
        v = int(base) ** int(exp) * (-1 if sign else 1)
        return v + (int(add) * (-1 if add_sign == "-" else 1) if add else 0)
    try:
        return int(text, 0)
    except ValueError:
        raise AsmError(lineno, f"expected an integer, got {text!r}") from None


# a comment: `#` to the end of the line, outside a str literal
_COMMENT = re.compile(r"""^((?:[^#"']|"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')*)#.*""")


def _str_constant(text: str, lineno: int, pool: list[int]) -> int:
    """The pool index of str literal `text` as LOAD_STR reads it: its length, then its code
    points (an equal run already in the pool is shared)."""
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        value = None
    if not isinstance(value, str):
        raise AsmError(lineno, f"LOAD_STR needs a str literal, got {text!r}")
    run = [len(value)] + [ord(c) for c in value]
    for k in range(len(pool) - len(run) + 1):
        if pool[k : k + len(run)] == run:
            return k
    pool += run
    return len(pool) - len(run)


def _parse(text: str) -> list[_Unit]:
    units: list[_Unit] = []
    func = None
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = _COMMENT.sub(r"\1", raw).strip()
        if line.startswith("."):
            word, *rest = line.split()
            if word == ".unit":
                units.append(_Unit(rest[0] if rest else f"unit{len(units)}"))
                func = None
            elif word in (".func", ".import"):
                if not units:
                    units.append(_Unit("unit0"))
                if not rest:
                    raise AsmError(lineno, f"{word} needs a name")
                func = _Func(rest[0], rest[1:], word == ".import")
                units[-1].funcs.append(func)
            elif func is None:
                raise AsmError(lineno, f"{word} outside a function")
            elif word == ".local":
                func.locals += rest
            elif word in (".stack", ".nlocals") and len(rest) == 1:
                setattr(func, word[1:], _int(rest[0], lineno))
            elif word == ".returns" and len(rest) == 1 and rest[0] in RETURN_TYPES:
                func.ret = RETURN_TYPES[rest[0]]
            else:
                raise AsmError(lineno, f"bad directive {line!r}")
            continue
        while m := re.match(r"(\w+):\s*", line):
            if func is None or func.is_import:
                raise AsmError(lineno, "label outside a function body")
            func.labels[m.group(1)] = len(func.body)
            line = line[m.end() :]
        if line:
            if func is None or func.is_import:
                raise AsmError(lineno, "instruction outside a function body")
            name, operand = (line.split(None, 1) + [""])[:2]
            if name not in O.BY_NAME:
                raise AsmError(lineno, f"unknown instruction {name!r}")
            func.body.append((name, operand.strip(), lineno))
    return units


# an instruction whose operand kind is a packed field's kind (the field is parsed as its operand)
_AS_FIELD = {O.ARG_LOCAL: O.TABLE[O.LOAD_VAR], O.ARG_IMM: O.TABLE[O.LOAD_INT], O.ARG_JUMP: O.TABLE[O.JUMP]}


def _operand(op: O.Op, text: str, lineno: int, func: _Func, unit: _Unit, pool: list[int]) -> int:
    if text.startswith("@"):
        return _int(text[1:], lineno)
    kind = op.operand
    if kind == O.ARG_NONE:
        if text:
            raise AsmError(lineno, f"{op.name} takes no operand")
        return 0
    if not text:
        raise AsmError(lineno, f"{op.name} needs an operand ({O.OPERAND_KINDS[kind]})")
    if kind in O.PACKED_KINDS:
        parts = [t.strip() for t in text.split(",")]
        if len(parts) != len(O.FIELDS[kind]):
            raise AsmError(lineno, f"{op.name} needs {len(O.FIELDS[kind])} comma-separated operands, got {text!r}")
        fields = [_operand(_AS_FIELD[k], t, lineno, func, unit, pool) for k, t in zip(O.FIELDS[kind], parts)]
        try:
            return O.make_operand(kind, *fields)
        except ValueError as e:
            raise AsmError(lineno, str(e)) from None
    if kind == O.ARG_LOCAL:
        slots = func.params + func.locals
        return slots.index(text) if text in slots else _int(text, lineno)
    if op.number == O.LOAD_STR:
        return _str_constant(text, lineno, pool)
    if kind == O.ARG_CONST:
        v = _int(text, lineno)
        if v not in pool:
            pool.append(v)
        return pool.index(v)
    if kind == O.ARG_JUMP:
        if text not in func.labels:
            raise AsmError(lineno, f"unknown label {text!r}")
        return func.labels[text]
    if kind == O.ARG_FUNC:
        names = [f.name for f in unit.funcs]
        if text not in names:
            raise AsmError(lineno, f"unknown function {text!r} in unit {unit.name}")
        return names.index(text)
    if kind == O.ARG_TYPED_CMP:
        cmp, *types = text.split()
        types = (types or [TYPE_NAMES[T_INT]]) * (2 if len(types) < 2 else 1)
        if cmp not in O.CMP_NAMES or len(types) != 2 or not all(t in TYPE_NAMES for t in types):
            raise AsmError(lineno, f"expected a comparison and a type (or two types), got {text!r}")
        return O.typed_cmp(O.CMP_NAMES.index(cmp), TYPE_NAMES.index(types[0]), TYPE_NAMES.index(types[1]))
    return _int(text, lineno)  # IMM


def assemble_named(text: str) -> tuple[Program, dict[str, int]]:
    """Assemble `text`; also return {"unit.func": global id, "func": id if unique}."""
    code, lines, consts, funcs = [], [], [], []
    starts = {"code": [0], "const": [0], "func": [0]}
    names: dict[str, int] = {}
    for u, unit in enumerate(_parse(text)):
        pool: list[int] = []
        n_imports = 0
        for func in unit.funcs:
            g = len(funcs)
            names[f"{unit.name}.{func.name}"] = g
            names[func.name] = -1 if func.name in names else g
            n_locals = func.nlocals if func.nlocals is not None else len(func.params) + len(func.locals)
            imp = -1
            if func.is_import:
                imp, n_imports = n_imports, n_imports + 1
                if imp >= MAX_IMPORTS:
                    raise AsmError(0, f"unit {unit.name}: more than {MAX_IMPORTS} imports")
            stack = 0 if func.is_import else (UNCOMPUTED if func.stack is None else func.stack)
            funcs.append((len(code), len(func.params), n_locals, stack, func.ret, u, imp))
            for name, operand, lineno in func.body:
                op = O.BY_NAME[name]
                code.append((op.number, _operand(op, operand, lineno, func, unit, pool)))
                lines.append(lineno)
        consts += pool
        for key, n in (("code", len(code)), ("const", len(consts)), ("func", len(funcs))):
            starts[key].append(n)
    cols = np.array(funcs, dtype=np.int64).reshape(-1, 7).T
    i32 = lambda a: np.ascontiguousarray(a, dtype=np.int32)  # noqa: E731
    program = Program(
        code=i32(np.array(code, dtype=np.int64).reshape(-1, 2)), lines=i32(lines),
        consts=np.array(consts, dtype=np.int64), func_entry=i32(cols[0]), func_nparams=i32(cols[1]),
        func_nlocals=i32(cols[2]), func_max_stack=i32(cols[3]), func_ret_type=i32(cols[4]),
        func_unit=i32(cols[5]), func_import=i32(cols[6]), unit_code_start=i32(starts["code"]),
        unit_const_start=i32(starts["const"]), unit_func_start=i32(starts["func"]),
    )  # fmt: skip
    _measure_stacks(program)
    return program, {k: v for k, v in names.items() if v >= 0}


def _measure_stacks(program: Program) -> None:
    """Replace each provisional max_stack by the deepest stack the code reaches."""
    from gpucc.vm.verify import check_function

    image = image_arrays(program)
    depth_at, work = np.empty(len(program.code), np.int32), np.empty(len(program.code), np.int32)
    for g in np.flatnonzero(program.func_max_stack == UNCOMPUTED):
        if check_function(g, image, depth_at, work)[0] != 0:
            continue  # not analysable: keep the provisional value; verify() says why
        deepest = 0
        for pc in range(int(program.func_entry[g]), int(image.func_end[g])):
            op, arg = (int(x) for x in program.code[pc])
            if depth_at[pc] >= 0:
                pops = int(pops_of(op, arg, program.func_nparams[int(program.unit_func_start[program.func_unit[g]]):]))
                deepest = max(deepest, int(depth_at[pc]), int(depth_at[pc]) - pops + int(O.PUSHES[op]))
        program.func_max_stack[g] = deepest


def assemble(text: str) -> Program:
    """Assemble `text` (see the module doc) into a Program."""
    return assemble_named(text)[0]


def make_jobs(names: dict[str, int], calls, links=()) -> JobTable:
    """A JobTable from `calls`: (function, args) or (function, args, link row) tuples.

    Functions are names from `assemble_named` or global ids; args are values of any type
    (contract.pool.value_type reads their types; objects go into the table's pool).
    `links` rows list, per import ordinal, the function that resolves it.  A call without a
    link row uses row 0 when there are links, else -1."""
    gid = lambda f: names[f] if isinstance(f, str) else int(f)  # noqa: E731
    calls = list(calls)
    args = np.zeros((len(calls), MAX_PARAMS), dtype=np.int64)
    func = np.zeros(len(calls), dtype=np.int32)
    link = np.full(len(calls), 0 if links else -1, dtype=np.int32)
    arg_lists = np.zeros(len(calls), dtype=np.int32)
    pool: list[int] = []
    for j, call in enumerate(calls):
        func[j] = gid(call[0])
        row, arg_lists[j] = argument_slots(call[1], pool)
        args[j, : len(row)] = row
        if len(call) > 2:
            link[j] = call[2]
    table = np.full((len(links), MAX_IMPORTS), -1, dtype=np.int32)
    for r, row in enumerate(links):
        table[r, : len(row)] = [gid(f) for f in row]
    return JobTable(func=func, link=link, args=args, links=table, pool=np.array(pool, np.int64), arg_lists=arg_lists)
