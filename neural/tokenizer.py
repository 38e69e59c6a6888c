"""Tokens for the neural compiler: a source and its unit's bytecode as one shared vocabulary.

Source side (gpucc's own lexer, compiler.lexer): keywords, operators and the builtin and method
names stand for themselves; NEWLINE / INDENT / DEDENT as `<nl>` / `<indent>` / `<dedent>`, a
string (a docstring) as `<str>`.  Every other name becomes a positional placeholder `V<k>` (the
k-th distinct name in order of first appearance), so a model copies names through and renaming
changes nothing.  An int literal 0 .. 255 is the number token `n<v>`; any other int literal or
float literal is a size class (`<i16>`, `<i32>`, `<i64>`, `<f>`; `<f0>` for 0.0, the one float
whose bits fit an immediate: what decides whether it fits an instruction's immediate) and the
placeholder `L<k>` (the k-th distinct literal value).

Bytecode side (one per unit, see neural/bytecode.py): per function `FN`, its parameter and slot
counts and return type (`T:int`, ...; its operand stack depth is not written: decoding derives
it with contract.flow's walk), then each instruction as its opcode name (the vocabulary has
every row of contract.isa.TABLE) and its operand in fields by operand kind: a slot s as the name
placeholder `V<base + s>`, where base is the placeholder of the function's first parameter (so a
parameter's or a local's slot is mostly spelled as its name, a copy); a count or function index
as `n<v>`; a value (IMM) as `n<v>` / `NEG n<v>` when small, else the literal it
comes from (`L<k>` or `NEG L<k>`); a constant (CONST) as its value, literal first (the pool is
rebuilt in order of first use, as the compiler interns it); a comparison as `cmp:<op>` and its
operand types; a jump as a symbolic label `J<k>`, numbered in order of first appearance in the
function's tokens (a jump's reference or its target's marker), and a jump target as the marker
`<label> J<k>` before its instruction; labels resolve to pcs after decoding.  So a forward jump
names the next new label, and a marker names the pending label it ends (or a new one: a loop's
head): no count of the labels in between is needed.

`encode_source` / `encode_unit` make token lists (Unencodable past a capacity: many names,
labels or literals, a value with no short form), `ids` / `tokens` map them to integers and
back, and `decode_unit` reads model output back into a UnitCode, raising DecodeError on
anything malformed.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpucc.compiler.lexer import tokenize
from gpucc.compiler.scope import BUILTINS, METHODS
from gpucc.compiler.tokens import KEYWORDS, OPERATORS
from gpucc.contract import isa as O
from gpucc.contract import typecodes
from gpucc.contract.valuetypes import TYPE_NAMES, bits_to_float, float_to_bits
from gpucc.neural.bytecode import Function, UnitCode, max_stack

FORMAT = 4  # the token format below: a checkpoint of another format reads tokens differently (retrain)
MAX_NAMES = 64  # distinct names per source
MAX_LITERALS = 64  # distinct placeholder literals per source
MAX_LABELS = 128  # jump targets per function
SMALL = 256  # n0 .. n255

PAD, SEP, EOS = "<pad>", "<sep>", "<eos>"
NEWLINE, INDENT, DEDENT, STRING = "<nl>", "<indent>", "<dedent>", "<str>"
INT_CLASSES = (("<i16>", 2**15), ("<i32>", 2**31), ("<i64>", 2**63))  # by the magnitude a literal fits in
FLOAT = "<f>"
FLOAT_ZERO = "<f0>"  # 0.0: its bits are 0, so the compiler loads it as LOAD_INT 0 (format 3 spelled it <f>)
NEG, FN, LABEL = "NEG", "FN", "<label>"
CMP_TOKENS = tuple(f"cmp:{c}" for c in O.CMP_NAMES)
TYPE_TOKENS = tuple(f"T:{t}" for t in TYPE_NAMES)
# a function's return type (contract.typecodes) is written as the token of its flat kind
STATIC_OF_KIND = {typecodes.runtime_kind(t): t for t in (*typecodes.LEAVES, *map(typecodes.list_of, (
    typecodes.INT, typecodes.FLOAT, typecodes.STR)))}  # fmt: skip
KEPT_NAMES = frozenset(BUILTINS + METHODS)

VOCAB: tuple[str, ...] = (
    (PAD, SEP, EOS, NEWLINE, INDENT, DEDENT, STRING, FLOAT, FLOAT_ZERO, NEG, FN, LABEL)
    + tuple(c for c, _ in INT_CLASSES) + KEYWORDS + OPERATORS + BUILTINS + tuple(dict.fromkeys(METHODS))  # list.pop, dict.pop: one
    + tuple(f"V{k}" for k in range(MAX_NAMES)) + tuple(f"L{k}" for k in range(MAX_LITERALS))
    + tuple(f"n{v}" for v in range(SMALL)) + tuple(f"J{k}" for k in range(MAX_LABELS))
    + CMP_TOKENS + TYPE_TOKENS + tuple(op.name for op in O.TABLE)
)  # fmt: skip
ID = {t: i for i, t in enumerate(VOCAB)}
assert len(ID) == len(VOCAB), "a token is spelled twice"
PAD_ID, SEP_ID, EOS_ID = ID[PAD], ID[SEP], ID[EOS]


class Unencodable(ValueError):
    """A source or unit outside the tokenizer's capacities."""


class DecodeError(ValueError):
    """Tokens that are not a well-formed unit."""


@dataclass(frozen=True)
class Source:
    tokens: tuple[str, ...]
    names: tuple[str, ...]  # V<k> -> name
    literals: tuple[tuple[str, int], ...]  # L<k> -> ("int" | "float", slot value)


def _literal_class(kind: str, value: int) -> str:
    if kind == "float":
        return FLOAT_ZERO if value == 0 else FLOAT
    return next(c for c, bound in INT_CLASSES if -bound <= value < bound)


def encode_source(source: str) -> Source:
    """The source's tokens and its placeholder tables (LexError if gpucc cannot lex it)."""
    out, names, literals = [], {}, {}
    for kind, text in tokenize(source):
        if kind in ("KEYWORD", "OP") or (kind == "NAME" and text in KEPT_NAMES):
            out.append(text)
        elif kind == "NAME":
            out.append(f"V{names.setdefault(text, len(names))}")
        elif kind in ("NEWLINE", "INDENT", "DEDENT"):
            out.append({"NEWLINE": NEWLINE, "INDENT": INDENT, "DEDENT": DEDENT}[kind])
        elif kind == "STRING":
            out.append(STRING)
        elif kind == "INT" and int(text, 0) < SMALL:
            out.append(f"n{int(text, 0)}")
        elif kind in ("INT", "FLOAT"):
            lit = ("int", int(text, 0)) if kind == "INT" else ("float", float_to_bits(float(text.replace("_", ""))))
            out += [_literal_class(*lit), f"L{literals.setdefault(lit, len(literals))}"]
    if len(names) > MAX_NAMES or len(literals) > MAX_LITERALS:
        raise Unencodable(f"{len(names)} names, {len(literals)} literals (at most {MAX_NAMES}, {MAX_LITERALS})")
    return Source(tuple(out), tuple(names), tuple(literals))


# ------------------------------------------------------------------ bytecode -> tokens


def negated(kind: str, value: int) -> int:
    """The slot value of -v for a value of this kind (a float's bits)."""
    return float_to_bits(-bits_to_float(value)) if kind == "float" else -value


def _value(v: int, src: Source, literal_first: bool) -> list[str]:
    small = [f"n{v}"] if 0 <= v < SMALL else [NEG, f"n{-v}"] if -SMALL < v < 0 else []
    literal = []
    for k, (kind, value) in enumerate(src.literals):
        if value == v:
            literal = [f"L{k}"]
            break
        if negated(kind, value) == v and not literal:
            literal = [NEG, f"L{k}"]
    chosen = (literal or small) if literal_first else (small or literal)
    if not chosen:
        raise Unencodable(f"value {v} is neither small nor a literal of the source")
    return chosen


def _small(v: int) -> str:
    if not 0 <= v < SMALL:
        raise Unencodable(f"{v} does not fit n0 .. n{SMALL - 1}")
    return f"n{v}"


def _fields(kind: int, arg: int) -> list[tuple[int, int]]:
    """(field kind, value) of each of an operand's fields."""
    if kind in O.PACKED_KINDS:
        return list(zip(O.FIELDS[kind], O.operand_fields(kind, arg)))
    return [(kind, arg)]


def slot_bases(src: Source) -> list[int]:
    """Per `def` of the source, in order: the placeholder index its slot 0 is spelled with (its
    first parameter's; a function without parameters: its name's plus one)."""
    t = src.tokens
    return [int(t[i + 3][1:]) if t[i + 3].startswith("V") else int(t[i + 1][1:]) + 1
            for i in range(len(t) - 3) if t[i] == "def" and t[i + 1].startswith("V")]  # fmt: skip


def _slot(v: int, base: int) -> str:
    if not 0 <= base + v < MAX_NAMES:
        raise Unencodable(f"slot {v} from V{base} is past V{MAX_NAMES - 1}")
    return f"V{base + v}"


def encode_unit(unit: UnitCode, src: Source) -> list[str]:
    """The unit's tokens (see the module docstring); Unencodable if it does not fit."""
    out = []
    pool, bases = unit.consts, slot_bases(src)
    if len(bases) != len(unit.functions):
        raise Unencodable(f"{len(unit.functions)} functions, {len(bases)} defs in the source")
    for fn, base in zip(unit.functions, bases):
        targets = {O.jump_target(op, arg) for op, arg in fn.code if op in O.JUMP_OPCODES}
        if len(targets) > MAX_LABELS or (targets and max(targets) >= len(fn.code)):
            raise Unencodable("too many jump targets, or one outside the function")
        label: dict[int, int] = {}  # target pc -> k, in order of first appearance
        kind = typecodes.runtime_kind(fn.ret_type)
        if kind < 0:
            raise Unencodable(f"return type {typecodes.name(fn.ret_type)} has no token")
        out += [FN, _small(fn.nparams), _small(fn.nlocals), TYPE_TOKENS[kind]]
        for pc, (op, arg) in enumerate(fn.code):
            if pc in targets:
                out += [LABEL, f"J{label.setdefault(pc, len(label))}"]
            out.append(O.TABLE[op].name)
            for kind, v in _fields(O.TABLE[op].operand, arg):
                if kind == O.ARG_NONE and v != 0:
                    raise Unencodable(f"{O.TABLE[op].name} has operand {v}")
                if kind == O.ARG_LOCAL:
                    out.append(_slot(v, base))
                elif kind == O.ARG_FUNC:
                    out.append(_small(v))
                elif kind == O.ARG_IMM:
                    out += _value(v, src, literal_first=False)
                elif kind == O.ARG_CONST:
                    out += _value(pool[v], src, literal_first=True)
                elif kind == O.ARG_JUMP:
                    out.append(f"J{label.setdefault(v, len(label))}")
                elif kind == O.ARG_TYPED_CMP:
                    cmp, left, right = O.typed_cmp_fields(v)
                    out += [CMP_TOKENS[cmp], TYPE_TOKENS[left], TYPE_TOKENS[right]]
    return out


# ------------------------------------------------------------------ tokens -> bytecode


class _Reader:
    def __init__(self, toks: list[str], src: Source):
        self.toks, self.i, self.src = toks, 0, src

    def peek(self) -> str | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> str:
        if self.i >= len(self.toks):
            raise DecodeError("ends in the middle of an instruction")
        self.i += 1
        return self.toks[self.i - 1]

    def numbered(self, prefix: str, limit: int) -> int:
        t = self.take()
        if not (t.startswith(prefix) and t[len(prefix) :].isdigit() and int(t[len(prefix) :]) < limit):
            raise DecodeError(f"expected {prefix}<k>, got {t!r}")
        return int(t[len(prefix) :])

    def small(self) -> int:
        return self.numbered("n", SMALL)

    def slot(self, base: int) -> int:
        v = self.numbered("V", MAX_NAMES) - base
        if v < 0:
            raise DecodeError(f"V{v + base} is below this function's slot 0 (V{base})")
        return v

    def value(self) -> int:
        negate = self.peek() == NEG
        self.i += negate
        if (self.peek() or "").startswith("L"):
            k = self.numbered("L", len(self.src.literals))
            kind, v = self.src.literals[k]
            return negated(kind, v) if negate else v
        v = self.small()
        return -v if negate else v

    def one_of(self, table: tuple[str, ...]) -> int:
        t = self.take()
        if t not in table:
            raise DecodeError(f"expected one of {table[0]} ..., got {t!r}")
        return table.index(t)


def _operand(r: _Reader, kind: int, pool: list[int], labels: list[int], base: int) -> int:
    """One instruction's operand; a jump field holds its label index until labels resolve."""
    fields = []
    for field in O.FIELDS.get(kind, (kind,)):
        if field == O.ARG_LOCAL:
            fields.append(r.slot(base))
        elif field == O.ARG_FUNC:
            fields.append(r.small())
        elif field == O.ARG_IMM:
            fields.append(r.value())
        elif field == O.ARG_CONST:
            v = r.value()
            if not -(2**63) <= v < 2**63:
                raise DecodeError(f"constant {v} does not fit int64")
            if v not in pool:
                pool.append(v)
            fields.append(pool.index(v))
        elif field == O.ARG_JUMP:
            fields.append(r.numbered("J", MAX_LABELS))
            labels.append(fields[-1])
        elif field == O.ARG_TYPED_CMP:
            fields.append(O.typed_cmp(r.one_of(CMP_TOKENS), r.one_of(TYPE_TOKENS), r.one_of(TYPE_TOKENS)))
        else:
            fields.append(0)
    try:
        arg = fields[0] if kind not in O.PACKED_KINDS else O.make_operand(kind, *fields)
    except ValueError as e:
        raise DecodeError(str(e)) from None
    if not -(2**31) <= arg < 2**31:
        raise DecodeError(f"operand {arg} does not fit int32")
    return arg


def _resolve(kind: int, arg: int, at: dict[int, int]) -> int:
    """The operand with its label index replaced by the label's pc."""
    if kind == O.ARG_JUMP:
        return at[arg]
    fields = list(O.operand_fields(kind, arg))
    fields[O.FIELDS[kind].index(O.ARG_JUMP)] = at[fields[O.FIELDS[kind].index(O.ARG_JUMP)]]
    return O.make_operand(kind, *fields)


def decode_unit(toks: list[str], src: Source) -> UnitCode:
    """The UnitCode these tokens (no <sep> / <eos>) spell; DecodeError if they are malformed."""
    r, functions, pool, bases = _Reader(list(toks), src), [], [], slot_bases(src)
    while r.peek() is not None:
        if r.take() != FN:
            raise DecodeError("a function must start with FN")
        if len(functions) >= len(bases):
            raise DecodeError(f"more functions than the source's {len(bases)} defs")
        nparams, nlocals, ret_type = r.small(), r.small(), STATIC_OF_KIND[r.one_of(TYPE_TOKENS)]
        code, at, labels = [], {}, []  # at: label -> pc; labels: each jump's label
        while r.peek() not in (None, FN):
            while r.peek() == LABEL:
                r.take()
                k = r.numbered("J", MAX_LABELS)
                if k in at:
                    raise DecodeError(f"label J{k} defined twice")
                at[k] = len(code)
            op = O.BY_NAME.get(r.take())
            if op is None:
                raise DecodeError(f"expected an opcode, got {r.toks[r.i - 1]!r}")
            code.append((op.number, _operand(r, op.operand, pool, labels, bases[len(functions)])))
        if not code:
            raise DecodeError("a function without instructions")
        if any(k not in at for k in labels) or any(pc >= len(code) for pc in at.values()):
            raise DecodeError("a jump to an undefined label, or a label past the last instruction")
        code = [(op, _resolve(O.TABLE[op].operand, arg, at) if op in O.JUMP_OPCODES else arg) for op, arg in code]
        functions.append([nparams, nlocals, ret_type, tuple(code)])
    arities = [f[0] for f in functions]
    if any(op == O.CALL and not 0 <= arg < len(functions) for f in functions for op, arg in f[3]):
        raise DecodeError("a CALL of a function the unit does not have")
    return UnitCode(tuple(Function(p, n, max_stack(code, arities), t, code) for p, n, t, code in functions), tuple(pool))


def ids(toks: list[str]) -> list[int]:
    return [ID[t] for t in toks]


def tokens(token_ids) -> list[str]:
    return [VOCAB[int(i)] for i in token_ids]
