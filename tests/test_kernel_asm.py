"""benchmarks/kernel_asm.py's report on a small hand-written listing: the dispatch found in both
forms of the step test, its stack-slot operands counted, each handler's path back to it."""

from __future__ import annotations

from benchmarks import kernel_asm
from gpucc.contract import isa

HEAD = """\
_ZN5gpucc2vm6kernel7run_jobB2v1:
\tmovabsq\t$NRT_incref, %rax
\tcallq\t*%rax
\tcallq\t*%rax
.LBB3_1:
\tmovq\t%rcx, %rdx
"""
DISPATCH = {
    "dec": "\tincq\t%rbp\n.LBB3_2:\n\taddq\t$-1, %r15\n\tjae\t.LBB3_9\n",
    "test": "\tincq\t%rbp\n.LBB3_2:\n\ttestq\t%r15, %r15\n\tje\t.LBB3_9\n",
}
TAIL = """\
\tmovslq\t(%r11,%rbp,8), %r12
\tmovq\t16(%rsp), %rax
\taddq\t(%rax,%r12,8), %r8
\tleal\t-1(%r12), %edx
\tmovabsq\t$.LJTI3_0, %rsi
\tjmpq\t*(%rsi,%rdx,8)
.LBB3_3:
\tmovq\t24(%rsp), %rax
\tmovq\t(%rax,%rbx,8), %rax
\tjmp\t.LBB3_4
.LBB3_5:
\tmovq\t%rbx, (%r13,%r14,8)
\tjmp\t.LBB3_2
.LBB3_4:
\tmovq\t%rax, (%r13,%r14,8)
\tincq\t%r14
\tcmpq\t$0, %rax
\tjl\t.LBB3_9
\tjmp\t.LBB3_2
.LBB3_9:
\tmovabsq\t$NRT_decref, %rax
\tretq
.LJTI3_0:
"""


def listing(tmp_path, step: str) -> str:
    load_var = isa.LOAD_VAR - 1
    table = "".join(f"\t.quad\t{'.LBB3_3' if k == load_var else '.LBB3_5'}\n" for k in range(80))
    path = tmp_path / f"{step}.s"
    path.write_text(HEAD + DISPATCH[step] + TAIL + table)
    return str(path)


def test_report_finds_the_dispatch_and_the_handlers(tmp_path, capsys):
    for step in DISPATCH:
        kernel_asm.report(listing(tmp_path, step), verbose=True)
        out = capsys.readouterr().out
        assert "at entry: 2 NRT_incref calls in a row" in out and "NRT_decref: 1 call sites" in out
        assert "the dispatch (from 4 lines before the step test to the indirect jump), 1 stack-slot operands" in out
        rows = {line.split()[0]: line.split()[1:] for line in out.splitlines() if line.startswith("  ") and len(line.split()) == 3}
        assert rows["LOAD_VAR"] == ["8", "1"]  # through .LBB3_4 back to the dispatch, not to the error exit
        assert rows["LOAD_INT"] == ["2", "0"]
