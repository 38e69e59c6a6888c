"""(source, bytecode) pairs for the neural compiler, made by the traditional compiler.

Programs come from the differential fuzzer's generator (neural/gen.py) at the sizes of a
length / nesting curriculum, `CURRICULUM`: each level a gen.Shape, from one statement over
the parameters to the fuzzer's own programs.  A program may be augmented by renaming: every
name that is not a builtin or method gets a fresh one, consistently (the same bytecode: names
leave no trace in it).  All sources of a call are compiled in ONE compile_batch; each pair
holds its source, its unit's bytecode (neural/bytecode.py) and what running it needs.

Deterministic by seed: `make_pairs(seed, ...)` returns the same pairs on every machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from gpucc.compiler import compile_batch
from gpucc.compiler.lexer import lex_source
from gpucc.compiler.tokens import KEYWORDS, TK_NAME
from gpucc.neural.bytecode import UnitCode, unit_code
from gpucc.neural.gen import FUZZ, ProgramGen, Shape
from gpucc.neural.tokenizer import KEPT_NAMES


@dataclass(frozen=True)
class Level:
    name: str
    shape: Shape


# strs stay out of the neural compiler's data for now: its tokenizer has no str constants yet; so do
# the structured types (Shape.structs), loop else / `;` (Shape.loop_else), the modules' forms (Shape.iters) and
# Counter (Shape.collections): the shipped checkpoint never saw them
CURRICULUM = (
    Level("1-stmt", Shape(statements=1, nesting=0, expr_depth=1, helpers=False, prologue=False, lists=False,
                          strs=False)),
    Level("2-stmt-nest1", Shape(statements=2, nesting=1, expr_depth=1, helpers=False, prologue=False, lists=False,
                                strs=False)),
    Level("locals-nest2", Shape(statements=2, nesting=2, expr_depth=2, helpers=False, prologue=True, lists=False,
                                strs=False)),
    Level("fuzz", replace(FUZZ, strs=False, structs=False, loop_else=False, iters=False, collections=False)),
    # the first two levels' statements in functions of 1-4 drawn parameters (int, bool, float,
    # list[int]) and a drawn int, bool or float return type, as real candidates have (gen.Shape.signature)
    Level("sig-1-stmt", Shape(statements=1, nesting=0, expr_depth=1, helpers=False, prologue=False, strs=False,
                              signature=True)),
    Level("sig-2-stmt-nest1", Shape(statements=2, nesting=1, expr_depth=1, helpers=False, prologue=False,
                                    strs=False, signature=True)),
)


@dataclass(frozen=True)
class Pair:
    source: str
    unit: UnitCode
    entry: int  # index of the entry function `f` in the unit
    params: tuple[str, ...]  # its parameter types (gen.GenProgram.params)
    level: int  # index into CURRICULUM
    seed: int  # the generator's seed


_SYLLABLES = ("ka", "lo", "mi", "nu", "pe", "ra", "si", "to", "vu", "ze", "qi", "bo")


def fresh_names(r: random.Random, n: int) -> list[str]:
    """n distinct identifiers that are no keyword, builtin or method name."""
    out: list[str] = []
    while len(out) < n:
        name = "".join(r.choice(_SYLLABLES) for _ in range(r.randint(1, 3))) + r.choice(["", "_", str(r.randrange(10))])
        if name not in out and name not in KEYWORDS and name not in KEPT_NAMES:
            out.append(name)
    return out


def rename(source: str, r: random.Random) -> str:
    """`source` with every non-builtin name replaced by a fresh one (one-to-one)."""
    n, toks = lex_source(source)
    raw = source.encode()
    spans = [(int(toks.start[i]), int(toks.end[i])) for i in range(n) if toks.kind[i] == TK_NAME]
    names = sorted({raw[a:b].decode() for a, b in spans} - KEPT_NAMES)
    mapping = dict(zip(names, fresh_names(r, len(names))))
    out, last = [], 0
    for a, b in spans:
        name = raw[a:b].decode()
        out += [raw[last:a].decode(), mapping.get(name, name)]
        last = b
    return "".join(out) + raw[last:].decode()


def make_pairs(seed: int, per_level: dict[int, int], rename_share: float = 0.5) -> tuple[list[Pair], int]:
    """per_level[level] programs of each curriculum level (a share renamed), compiled in one
    batch -> (the pairs of those that compiled, how many did not)."""
    r = random.Random(seed)
    drafts = []
    for level, n in sorted(per_level.items()):
        for _ in range(n):
            program_seed = r.getrandbits(48)
            program = ProgramGen(program_seed, CURRICULUM[level].shape).program()
            source = rename(program.source, r) if r.random() < rename_share else program.source
            drafts.append((source, program.params, level, program_seed))
    batch = compile_batch([d[0] for d in drafts])
    pairs = [Pair(source, unit_code(batch, u), len(batch.function_names(u)) - 1, params, level, program_seed)
             for u, (source, params, level, program_seed) in enumerate(drafts) if batch.ok(u)]  # fmt: skip
    return pairs, len(drafts) - len(pairs)
