"""The neural compiler (in progress): a small transformer that writes a unit's VM bytecode.

gen.py, gen_expr.py, gen_lists.py: the random program generator (shared with the differential
fuzzer, tests/oracle); data.py: (source, bytecode) pairs from the traditional compiler by
curriculum level; bytecode.py: a unit's bytecode as plain lists; tokenizer.py: source and
bytecode tokens; model.py: the transformer (torch); train.py: `python -m gpucc.neural.train`;
evaluate.py: decoded bytecode verified and run beside the traditional bytecode.

Only model.py and train.py import torch (`pip install ".[neural]"`); the plugin imports none of
this package.

PYTEST_DONT_REWRITE: pytest marks an installed plugin's packages for assertion rewriting; these
are imported before pytester's in-process runs start, so rewriting would only warn.
"""
