"""The assembler (text -> Program, job tables) and the disassembler (Program -> text)."""

from __future__ import annotations

import numpy as np
import pytest

from gpucc.contract import isa as O
from gpucc.contract.limits import MAX_IMPORTS
from gpucc.contract.valuetypes import T_BOOL
from gpucc.vm.asm import AsmError, assemble, assemble_named, make_jobs
from gpucc.vm.disasm import disassemble

SRC = """\
.unit suite
.import solve x
.func test_solve
    LOAD_INT 3
    CALL solve
    LOAD_CONST 10**12
    ASSERT_CMP ==
    LOAD_INT 1
    RETURN
.unit cand
.func solve x
.returns bool
.local c e s
    LOAD_VAR x
    LOAD_INT 0
    JUMP_IF_NOT_LT neg
    LOAD_INT 1
    RETURN
neg: RANGE_CHECK c
loop: FOR_RANGE c
    JUMP loop
    LOAD_VAR x
    UNARY_NEG
    RETURN
"""

EXPECTED = """unit 0: code [0, 6), 1 constants

function 0 solve(1 param) -> int: import #0

function 1 test_solve(0 params, 0 locals, max stack 2) -> int
   4          0  LOAD_INT                          3
   5          1  CALL                              0  (solve, import #0)
   6          2  LOAD_CONST                        0  (1000000000000)
   7          3  ASSERT_CMP                      138  (== int)
   8          4  LOAD_INT                          1
   9          5  RETURN                            0

unit 1: code [6, 17), 0 constants

function 2 cand.solve(1 param, 4 locals, max stack 2) -> bool
  14          6  LOAD_VAR                          0
  15          7  LOAD_INT                          0
  16          8  JUMP_IF_NOT_LT                    5  (to 11)
  17          9  LOAD_INT                          1
  18         10  RETURN                            0
  19   >>    11  RANGE_CHECK                       1  (counter, stop, step in slots 1..3)
  20   >>    12  FOR_RANGE                         1  (counter, stop, step in slots 1..3)
  21         13  JUMP                              6  (to 12)
  22         14  LOAD_VAR                          0
  23         15  UNARY_NEG                         0
  24         16  RETURN                            0
"""


def test_disassembly_of_a_small_program():
    program, names = assemble_named(SRC)
    assert disassemble(program, names={0: "solve", 1: "test_solve", 2: "cand.solve"}) == EXPECTED
    assert disassemble(program, unit=0).startswith("unit 0: code [0, 6)\x2c 1 constants\n\nfunction 0 (1 param)")
    assert "unit 1" not in disassemble(program, unit=0)


def test_disassembly_never_fails_on_garbage():
    program = assemble(".func f\n LOAD_INT 0\n RETURN\n")
    program.code[0] = (O.NUM_OPCODES + 5, -5)
    program.code[1] = (O.LOAD_CONST, 7)
    text = disassemble(program)
    assert f"<opcode {O.NUM_OPCODES + 5}>" in text and "no such constant" in text


def test_assembler_tables():
    program, names = assemble_named(SRC)
    assert names == {"suite.solve": 0, "suite.test_solve": 1, "test_solve": 1, "cand.solve": 2}
    assert list(program.func_import) == [0, -1, -1]
    assert list(program.func_nparams) == [1, 0, 1] and list(program.func_nlocals) == [1, 0, 4]
    assert list(program.func_entry) == [0, 0, 6] and program.func_ret_type[2] == T_BOOL
    assert list(program.unit_code_start) == [0, 6, 17] and list(program.consts) == [10**12]
    assert list(program.unit_func_start) == [0, 2, 3] and list(program.unit_const_start) == [0, 1, 1]
    assert program.code.dtype == np.int32 and program.code.shape == (17, 2)
    assert program.lines[0] == 4


def test_constants_are_interned_per_unit_and_operands_may_be_raw():
    program = assemble(".func f\n LOAD_CONST -2**63\n LOAD_CONST 5\n LOAD_CONST -2**63\n LOAD_VAR @7\n"
                       " ASSERT_CMP != bool\n RETURN\n")  # fmt: skip
    assert list(program.consts) == [-(2**63), 5]
    assert [int(a) for a in program.code[:, 1]] == [0, 1, 0, 7, O.typed_cmp(3, T_BOOL, T_BOOL), 0]


PACKED = """
.func f a b
.local c e s
top: LOAD_VAR2 a, b
    VAR_MOD_INT a, -7
    STORE_LOAD b, a
    ADD_TO_VAR b, 32767
    JUMP_IF_NOT_GE_INT -32768, top
    JUMP_IF_NOT_NE_VARS b, a, done
    JUMP_IF_NOT_LT_VAR_INT a, -128, done
    FOR_LOOP c, top
done: RETURN_VAR a
"""


def test_packed_operands_round_trip_field_by_field():
    program = assemble(PACKED)
    fields = [O.operand_fields(O.TABLE[op].operand, int(arg)) for op, arg in program.code[:8]]
    assert fields == [(0, 1), (0, -7), (1, 0), (1, 32767), (-32768, 0), (1, 0, 8), (0, -128, 8), (2, 0)]
    text = disassemble(program)
    for shown in ("(slot 0, slot 1)", "(slot 0, -7)", "(-32768, to 0)", "(slot 1, slot 0, to 8)",
                  "(slot 0, -128, to 8)", "(counter, stop, step in slots 2..4, to 0)"):  # fmt: skip
        assert shown in text
    assert text.count(">>") == 2


@pytest.mark.parametrize(
    "text, message",
    [
        (".func f a\n VAR_ADD_INT a\n", "VAR_ADD_INT needs 2 comma-separated operands"),
        (".func f a\n VAR_ADD_INT a, 40000\n", "out of range"),
        (".func f a\nx: JUMP_IF_NOT_EQ_VAR_INT a, 128, x\n", "out of range"),
        (".func f a\nx: JUMP_IF_NOT_EQ_VARS a, 200, x\n", "out of range"),
        (".func f a\n JUMP_IF_NOT_EQ_INT 1, nowhere\n", "unknown label 'nowhere'"),
    ],
)
def test_packed_operand_errors(text, message):
    with pytest.raises(AsmError, match=message):
        assemble(text)


@pytest.mark.parametrize(
    "text, message",
    [
        (".func f\n FROB 1\n", "line 2: unknown instruction 'FROB'"),
        (".func f\n JUMP nowhere\n", "unknown label 'nowhere'"),
        (".func f\n CALL g\n", "unknown function 'g'"),
        (".func f\n RETURN 5\n", "RETURN takes no operand"),
        (".func f\n LOAD_INT\n", "LOAD_INT needs an operand (IMM)"),
        (".func f\n LOAD_INT x\n", "expected an integer, got 'x'"),
        (".func f\n ASSERT_CMP <> int\n", "expected a comparison and a type"),
        (" NOP\n", "instruction outside a function body"),
        (".stack 3\n", ".stack outside a function"),
        (".func f\n.returns dict\n", "bad directive"),
        (".import g\n NOP\n", "instruction outside a function body"),
        ("".join(f".import g{i}\n" for i in range(MAX_IMPORTS + 1)), "more than"),
    ],
)
def test_assembler_errors_name_the_line(text, message):
    with pytest.raises(AsmError, match=message.replace("(", r"\(").replace(")", r"\)")):
        assemble(text)


def test_make_jobs():
    program, names = assemble_named(SRC)
    jobs = make_jobs(names, [("test_solve", ()), (2, (True, -4)), ("cand.solve", (5,), 1)], links=[["cand.solve"], [2]])
    assert list(jobs.func) == [1, 2, 2] and list(jobs.link) == [0, 0, 1]
    assert list(jobs.args[1, :3]) == [1, -4, 0]
    assert list(jobs.links[0, :2]) == [2, -1] and jobs.links.shape == (2, MAX_IMPORTS)
    assert list(make_jobs(names, [("test_solve", ())]).link) == [-1]
