"""Run the CUDA backends under the numba CUDA simulator, in a process of their own.

The simulator must be switched on before numba is imported, so tests call this script as
a subprocess and compare what it writes with the CPU backend's results:

    python simrun.py compile SOURCES.json OUT.npz   # every CompiledBatch array
    python simrun.py vm IN.npz OUT.npz              # every Results array, x_threads and
                                                    # x_heap_words (IN: see vm_input; optional
                                                    # x_max_threads caps the threads)
    python simrun.py resident IN.json OUT.npz       # the session's device-resident path: every
                                                    # CompiledBatch and Results array, and the
                                                    # copies counted (IN: see _resident)
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def arrays(obj) -> dict:
    """The numpy array fields of a dataclass instance, by name."""
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj) if hasattr(getattr(obj, f.name), "shape")}


def vm_input(program, jobs, limits) -> dict:
    """What `simrun.py vm` reads: Program fields as p_*, JobTable fields as j_*, limits as l_*."""
    out = {f"p_{k}": v for k, v in arrays(program).items()}
    out.update({f"j_{k}": v for k, v in arrays(jobs).items()})
    out.update({f"l_{f.name}": getattr(limits, f.name) for f in dataclasses.fields(limits)})
    return out


def _vm(path):
    import numpy as np

    from gpucc import vm
    from gpucc.contract.image import JobTable, LaunchLimits, Program

    data = np.load(path)
    pick = lambda prefix: {k[2:]: data[k] for k in data.files if k.startswith(prefix)}  # noqa: E731
    limits = LaunchLimits(**{k: int(v) for k, v in pick("l_").items()})
    if "x_max_threads" in data.files:  # force the grid-stride loop (several jobs per thread)
        from gpucc.vm import cuda as vm_cuda

        vm_cuda.MAX_THREADS = int(data["x_max_threads"])
    results = vm.launch(Program(**pick("p_")), JobTable(**pick("j_")), backend="cuda", limits=limits)
    assert results.meta.get("backend") == "cuda", results.meta
    return {**arrays(results), "x_threads": np.int64(results.meta["threads"]),
            "x_heap_words": np.int64(results.meta["heap_words"])}  # fmt: skip


def _compile(path):
    from gpucc.compiler.batch import compile_batch

    return arrays(compile_batch(json.loads(Path(path).read_text()), backend="cuda"))


def _resident(path):
    """IN: {"sources": [...], "links": [[suite unit, [[test, cases], ...], candidate units], ...],
    "limits": LaunchLimits fields, optional "chunk_instructions"}.  OUT: the batch's arrays
    (code, lines, consts read back outside the count), Results arrays as r_*, and the copies
    as t_compile / t_launch: rows (1 for host->device else 0, bytes) with their labels."""
    import numpy as np

    from gpucc import vm
    from gpucc.compiler import batch_layout
    from gpucc.compiler.cuda_batch import compile_batch_resident
    from gpucc.contract.image import LaunchLimits, Program
    from gpucc.contract.transfer import TransferCounter, is_device_array
    from gpucc.vm.link import SuiteLink, link

    spec = json.loads(Path(path).read_text())
    if "chunk_instructions" in spec:  # force several compile launches
        batch_layout.CHUNK_INSTRUCTIONS = spec["chunk_instructions"]
    counter = TransferCounter()
    batch = compile_batch_resident(spec["sources"], counter)
    assert all(is_device_array(getattr(batch, k)) for k in ("code", "lines", "consts"))
    program = Program.from_batch(batch)
    suites = [SuiteLink(u, [(name, [tuple(c) for c in cases]) for name, cases in tests], cands)
              for u, tests, cands in spec["links"]]  # fmt: skip
    linked = link(batch, program, suites)
    results = vm.launch(program, linked.jobs, backend="cuda", limits=LaunchLimits(**spec["limits"]))
    out = {k: v.copy_to_host() if is_device_array(v) else v for k, v in vars(batch).items() if hasattr(v, "shape")}
    out.update({f"r_{k}": v for k, v in arrays(results).items()})
    for name, log in (("compile", counter.log), ("launch", results.meta["transfer"].log)):
        out[f"t_{name}"] = np.array([(d == "h2d", n) for d, _, n in log], np.int64).reshape(-1, 2)
        out[f"t_{name}_labels"] = np.array([label for _, label, _ in log], dtype=str)
    return out


def main(mode: str, inp: str, out: str) -> None:
    import numpy as np
    from numba import cuda

    assert cuda.jit.__module__.startswith("numba.cuda.simulator"), "the CUDA simulator is not on"
    t0 = time.perf_counter()
    result = {"compile": _compile, "vm": _vm, "resident": _resident}[mode](inp)
    result["_seconds"] = np.float64(time.perf_counter() - t0)
    np.savez(out, **result)


if __name__ == "__main__":
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"  # before numba is imported (main imports it)
    sys.path.insert(0, str(ROOT))
    main(*sys.argv[1:])
