"""Capacities the compiler, the linker and the VM agree on."""

MAX_PARAMS = 8  # parameters per function, and arguments per VM job
MAX_IMPORTS = 8  # interface functions one suite may declare (a link row's width)
