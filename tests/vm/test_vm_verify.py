"""The verifier: accepts good programs, rejects each kind of bad one, and gates execution."""

from __future__ import annotations

import numpy as np
import pytest
from vmcheck import launch_all, outcome

from gpucc.contract import isa as O
from gpucc.contract.image import JobTable, image_arrays
from gpucc.vm.asm import assemble, assemble_named, make_jobs
from gpucc.vm.verify import PROBLEM_NAMES, function_checks, verify, verify_jobs

GOOD = """
.unit suite
.import solve x
.func test x
.local i c e s
    LOAD_VAR x
    CALL solve
    LOAD_VAR x
    ASSERT_CMP >=
    LOAD_INT 0
    STORE_VAR c
    LOAD_INT 3
    STORE_VAR e
    LOAD_INT 1
    STORE_VAR s
    RANGE_CHECK c
top: FOR_RANGE c
    JUMP done
    STORE_VAR i
    LOAD_VAR i
    LOAD_INT 1
    JUMP_IF_FALSE_OR_POP skip
    LOAD_INT 2
skip: POP_TOP
    POP_TOP
    JUMP top
done: LOAD_INT 1
    RETURN
.unit cand
.func solve x
    LOAD_VAR x
    DUP_TOP
    BINARY_MUL
    RETURN
"""


def test_accepts_a_good_program_and_measures_max_stack():
    program = assemble(GOOD)
    assert verify(program) == []
    assert list(program.func_max_stack) == [0, 2, 2]
    assert verify_jobs(program, make_jobs({"t": 1, "s": 2}, [("t", (3,))], links=[["s"]])) == []


def bad(body: str, header: str = ".func f a", **patch) -> list[str]:
    program = assemble(f"{header}\n{body}\n.func other\n LOAD_INT 0\n RETURN\n")
    for name, (index, value) in patch.items():
        getattr(program, name)[index] = value
    return verify(program)


@pytest.mark.parametrize(
    "body, patch, message",
    [
        (" LOAD_INT 1\n RETURN", {"code": ((0, 0), 250)}, "unknown opcode 250"),
        (" LOAD_VAR @1\n RETURN", {}, "LOAD_VAR operand 1 is out of range"),
        (" LOAD_VAR @-1\n RETURN", {}, "LOAD_VAR operand -1"),
        (" LOAD_CONST @0\n RETURN", {}, "LOAD_CONST operand 0"),
        (" LOAD_INT 0\n JUMP_IF_FALSE @9\n LOAD_INT 1\n RETURN", {}, "JUMP_IF_FALSE operand 9"),
        (" CALL @2\n RETURN", {}, "CALL operand 2"),
        (" LOAD_INT 1\n LOAD_INT 1\n ASSERT_CMP @6\n LOAD_INT 1\n RETURN", {}, "ASSERT_CMP operand 6"),
        (" LOAD_INT 1\n LOAD_INT 1\n ASSERT_CMP @120\n LOAD_INT 1\n RETURN", {}, "ASSERT_CMP operand 120"),
        (" NOP @3\n LOAD_INT 1\n RETURN", {}, "NOP operand 3"),
        (".nlocals 3\n FOR_RANGE 1\n JUMP x\n POP_TOP\nx: LOAD_INT 1\n RETURN", {}, "FOR_RANGE operand 1"),
        (".nlocals 3\n RANGE_CHECK 1\n LOAD_INT 1\n RETURN", {}, "RANGE_CHECK operand 1"),
        (".nlocals 3\n FOR_RANGE 0\n NOP\n LOAD_INT 1\n RETURN", {}, "FOR_RANGE must be followed by a JUMP"),
        (".nlocals 3\n LOAD_INT 1\n FOR_RANGE 0", {}, "FOR_RANGE must be followed by a JUMP inside"),
        (" LOAD_INT 1\n BINARY_ADD\n RETURN", {}, "BINARY_ADD pops 2 of a stack of 1"),
        (" LOAD_INT 1\n CALL g\n RETURN\n.func g x y\n LOAD_INT 0\n RETURN", {}, "CALL pops 2 of a stack of 1"),
        (".stack 1\n LOAD_INT 1\n LOAD_INT 2\n BINARY_ADD\n RETURN", {}, "LOAD_INT makes the stack 2 deep, above max_stack 1"),
        (" LOAD_VAR a\n JUMP_IF_TRUE x\n LOAD_INT 5\nx: LOAD_INT 1\n RETURN", {}, "reached with stack depths"),
        (" LOAD_INT 1\n JUMP_IF_TRUE_OR_POP x\nx: RETURN", {}, "reached with stack depths 0 and 1"),
        (" LOAD_INT 1\n POP_TOP", {}, "POP_TOP falls off the end"),
        (" LOAD_INT 1\n JUMP_IF_FALSE @0", {}, "JUMP_IF_FALSE falls off the end"),
        # packed operands: every slot field inside nlocals, every target inside the function
        (f" LOAD_VAR2 @{O.pack(0, 1)}\n RETURN", {}, f"LOAD_VAR2 operand {O.pack(0, 1)}"),
        (f" LOAD_VAR2 @{O.pack(0, -1)}\n RETURN", {}, f"LOAD_VAR2 operand {O.pack(0, -1)}"),
        (f" LOAD_INT 1\n STORE_LOAD @{O.pack(1, 0)}\n RETURN", {}, f"STORE_LOAD operand {O.pack(1, 0)}"),
        (f" VAR_ADD_INT @{O.pack(3, 1)}\n RETURN", {}, f"VAR_ADD_INT operand {O.pack(3, 1)}"),
        (f" ADD_TO_VAR @{O.pack(1, 1)}\n RETURN_VAR a", {}, f"ADD_TO_VAR operand {O.pack(1, 1)}"),
        (" RETURN_VAR @1", {}, "RETURN_VAR operand 1"),
        (f" LOAD_INT 1\n JUMP_IF_NOT_EQ_INT @{O.pack(9, 0)}\n RETURN_VAR a", {}, "JUMP_IF_NOT_EQ_INT operand 9"),
        (f".nlocals 3\n FOR_LOOP @{O.pack(0, 1)}\n RETURN_VAR a", {}, f"FOR_LOOP operand {O.pack(0, 1)}"),
        (f" JUMP_IF_NOT_LT_VARS @{O.pack(0, 256)}\n RETURN_VAR a", {}, f"JUMP_IF_NOT_LT_VARS operand {O.pack(0, 256)}"),
        (f" JUMP_IF_NOT_LT_VAR_INT @{O.pack(0, 1)}\n RETURN_VAR a", {}, f"_VAR_INT operand {O.pack(0, 1)}"),
        (f" JUMP_IF_NOT_LT_VAR_INT @{O.pack(7, 0)}\n RETURN_VAR a", {}, f"_VAR_INT operand {O.pack(7, 0)}"),
        (".nlocals 3\nx: FOR_LOOP 0, x\n RETURN_VAR a", {}, "reached with stack depths 0 and 1"),
        (" VAR_MUL_INT a, 2\n ADD_TO_VAR a, 1", {}, "ADD_TO_VAR falls off the end"),
    ],
)
def test_rejects_each_kind_of_bad_function(body, patch, message):
    problems = bad(body, **patch)
    assert any(message in p for p in problems), problems
    assert all(p.startswith("unit 0 function 0:") for p in problems)


def test_every_problem_code_is_exercised_by_the_table_above():
    messages = " ".join(str(p) for p in test_rejects_each_kind_of_bad_function.pytestmark[0].args[1])
    for name, needle in zip(PROBLEM_NAMES[2:], ["unknown opcode", "out of range", "FOR_RANGE must", "pops",
                                                  "above max_stack", "stack depths", "falls off"]):  # fmt: skip
        assert needle in messages, name
    assert "has no code" in verify(assemble(".func a\n.func b\n LOAD_INT 0\n RETURN"))[0]


def test_layout_and_image_problems():
    program = assemble(".func a\n LOAD_INT 0\n RETURN\n.func b\n LOAD_INT 1\n RETURN\n")
    program.func_entry[1] = 1  # b now starts inside a, and a has no RETURN
    problems = verify(program)
    assert any("falls off" in p for p in problems)
    program = assemble(".func a\n LOAD_INT 0\n RETURN\n.func b\n LOAD_INT 1\n RETURN\n")
    program.func_entry[0] = 1
    assert any("must start at pc 0" in p for p in verify(program))
    program = assemble(".func a\n LOAD_INT 0\n RETURN\n")
    program.func_unit[0] = 3
    assert verify(program)[0].startswith("malformed image: func_unit")
    program = assemble(".func a\n LOAD_INT 0\n RETURN\n")
    program.func_nparams[0] = 9
    assert verify(program)[0].startswith("malformed image")


def test_verify_one_unit_only():
    program = assemble(".unit a\n.func f\n LOAD_INT 0\n RETURN\n.unit b\n.func g\n POP_TOP\n LOAD_INT 0\n RETURN\n")
    assert verify(program, unit=0) == []
    assert verify(program, unit=1) and verify(program) == verify(program, unit=1)


def test_jit_and_plain_checkers_agree():
    program = assemble(GOOD + "\n.func broken\n LOAD_INT 1\n BINARY_ADD\n RETURN\n")
    image = image_arrays(program)
    assert (function_checks(image) == function_checks(image, jit=False)).all()
    assert function_checks(image)[3, 0] == PROBLEM_NAMES.index("V_UNDERFLOW")


def test_unverified_functions_never_run():
    text = """
.func main x
    LOAD_VAR x
    JUMP_IF_FALSE skip
    CALL broken
    RETURN
skip: LOAD_INT 7
    RETURN
.func broken
    POP_TOP
    LOAD_INT 1
    RETURN
"""
    program, names = assemble_named(text)
    results = launch_all(program, make_jobs(names, [("main", (0,)), ("main", (1,)), ("broken", ())]), plain=False)
    assert [outcome(results, j)[0] for j in range(3)] == ["OK", "INVALID_BYTECODE", "INVALID_BYTECODE"]
    assert results.fail_line[1] == 5 and results.fail_line[2] == -1  # at the CALL; before any instruction


def test_verify_jobs_reports_bad_links():
    program, names = assemble_named(GOOD + ".func wrong x y\n LOAD_INT 0\n RETURN\n")
    jobs = make_jobs(names, [("test", (1,), 0), ("test", (1,), 1), ("test", (1,), 2), ("test", (1,), 5)],
                     links=[["suite.solve"], ["wrong"], [names["cand.solve"]]])  # fmt: skip
    jobs.func = np.append(jobs.func, 99).astype(np.int32)
    jobs.link = np.append(jobs.link, 0).astype(np.int32)
    jobs.args = np.vstack([jobs.args, jobs.args[:1]])
    problems = verify_jobs(program, jobs)
    assert any("link row 0" in p and "not a function with a body" in p for p in problems)
    assert any("link row 1" in p and "takes 2 arguments" in p for p in problems)
    assert not any("link row 2" in p for p in problems)
    assert any("job 3" in p and "no link row" in p for p in problems)
    assert any("job 4: function 99 does not exist" in p for p in problems)
    assert verify_jobs(program, JobTable.empty()) == []
