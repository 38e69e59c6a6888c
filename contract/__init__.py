"""What the compiler and the VM share and neither owns: the ISA table (isa.py), value types,
result statuses, capacities, the Program image and job table layout, and the control-flow /
stack-depth walk over a function's bytecode (flow.py).  Imports neither `compiler` nor `vm`.

PYTEST_DONT_REWRITE: pytest marks an installed plugin's packages for assertion rewriting; these
are imported before pytester's in-process runs start, so rewriting would only warn.
"""
