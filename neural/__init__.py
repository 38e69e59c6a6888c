"""The neural compiler: a small transformer that writes a unit's VM bytecode.

gen.py, gen_expr.py, gen_lists.py, gen_str.py: the random program generator (shared with the
differential fuzzer, tests/oracle); data.py: (source, bytecode) pairs from the traditional
compiler by curriculum level; bytecode.py: a unit's bytecode as plain lists; tokenizer.py:
source and bytecode tokens; model.py: the transformer (torch); train.py: `python -m
gpucc.neural.train`; sample.py: k grammar-constrained samples; evaluate.py: decoded bytecode
verified and run beside the traditional bytecode; checkpoint.py: checkpoints and whether they
match the ISA (shipped_compiler.npz: the package's own); compile.py: the neural compiler as the
plugin's `--gpucc-compiler neural` uses it.

torch is imported by model.py, train.py and sample.py only, and by checkpoint.load /
compile.NeuralCompiler.load when called (`pip install ".[neural]"`): the plugin imports this
package's torch-free modules, and those only in neural mode.

PYTEST_DONT_REWRITE: pytest marks an installed plugin's packages for assertion rewriting; these
are imported before pytester's in-process runs start, so rewriting would only warn.
"""
