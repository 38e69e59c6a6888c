"""neural/tokenizer.py: round trips (source -> tokens -> ids -> tokens; bytecode -> ids ->
bytecode), the vocabulary from the ISA table, placeholders and labels."""

from __future__ import annotations

import pytest

from gpucc.compiler import compile_batch
from gpucc.contract import isa as O
from gpucc.neural import tokenizer as tk
from gpucc.neural.bytecode import program_of, unit_code
from gpucc.vm.verify import verify


def test_the_vocabulary_has_every_opcode_of_the_isa_once():
    assert [t for t in tk.VOCAB if t in O.BY_NAME] == [op.name for op in O.TABLE]
    assert len(set(tk.VOCAB)) == len(tk.VOCAB)


def test_source_round_trip(pairs):
    for p in pairs:
        src = tk.encode_source(p.source)
        assert tk.tokens(tk.ids(list(src.tokens))) == list(src.tokens)


def test_bytecode_round_trip_through_ids(pairs):
    encoded = 0
    for p in pairs:
        src = tk.encode_source(p.source)
        try:
            toks = tk.encode_unit(p.unit, src)
        except tk.Unencodable:
            assert p.level == 3, p.source  # only the fuzzer's programs may exceed a capacity
            continue
        assert tk.decode_unit(tk.tokens(tk.ids(toks)), src) == p.unit
        encoded += 1
    assert encoded >= 0.9 * len(pairs)


def test_names_and_literals_are_placeholders():
    src = tk.encode_source("def f(a: int) -> float:\n    big = a + 70000 + 5\n    return big * 2.5 + abs(-70000)\n")
    assert src.tokens[:4] == ("def", "V0", "(", "V1")
    assert src.names == ("f", "a", "big")
    assert "abs" in src.tokens and "n5" in src.tokens
    assert src.tokens.count("L0") == 2 and src.literals[0] == ("int", 70000)
    assert src.tokens[src.tokens.index("L1") - 1] == "<f>"


def test_float_zero_has_its_own_class_because_the_compiler_loads_it_as_an_immediate():
    source = "def f(x: float) -> float:\n    return x * 0.0 + 2.5\n"
    src = tk.encode_source(source)
    assert src.tokens[src.tokens.index("L0") - 1] == "<f0>" and src.tokens[src.tokens.index("L1") - 1] == "<f>"
    toks = tk.encode_unit(unit_code(compile_batch([source]), 0), src)
    assert "LOAD_INT n0" in " ".join(toks) and "LOAD_CONST L1" in " ".join(toks)  # 0.0's bits are 0; 2.5's are not


def test_jumps_become_labels_resolved_after_decoding(pairs):
    p = next(p for p in pairs if any(op in O.JUMP_OPCODES for op, _ in p.unit.functions[-1].code))
    src = tk.encode_source(p.source)
    toks = tk.encode_unit(p.unit, src)
    assert "J0" in toks and tk.LABEL in toks
    labels = [t for t in toks if t.startswith("J") and t[1:].isdigit()]
    first = list(dict.fromkeys(labels))  # in order of first appearance: J0, J1, ...
    assert first == [f"J{k}" for k in range(len(first))] == [toks[i + 1] for i, t in enumerate(toks) if t == tk.LABEL]
    assert verify(program_of([tk.decode_unit(toks, src)])) == []


@pytest.mark.parametrize("cut", [
    lambda t: t[:3],  # a header cut short
    lambda t: t[:4],  # a function without instructions
    lambda t: ["LOAD_VAR"] + t,  # no FN first
    lambda t: [x if x != "J0" or t[i - 1] == tk.LABEL else "J99" for i, x in enumerate(t)],  # an undefined label
    lambda t: t + [tk.LABEL, "J0", "RETURN"],  # a label defined twice
    lambda t: t[:5] + ["def"] + t[5:],  # a source token among instructions
])  # fmt: skip
def test_malformed_tokens_raise_decode_error(pairs, cut):
    p = next(p for p in pairs if any(op in O.JUMP_OPCODES for op, _ in p.unit.functions[-1].code))
    src = tk.encode_source(p.source)
    with pytest.raises(tk.DecodeError):
        tk.decode_unit(cut(tk.encode_unit(p.unit, src)), src)
