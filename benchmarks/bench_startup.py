"""What the plugin adds to a pytest run: cold (empty numba cache) vs warm start.

    python -m benchmarks.bench_startup [--repeats 3]

Runs, as subprocesses from the repository root:
  baseline  `pytest -q -p no:cacheprovider examples/`  (plugin off: collects nothing, exit 5)
  cold      `pytest -q --gpu-candidates examples/` with NUMBA_CACHE_DIR set to a new empty dir
  warm      the same again with that (now filled) cache
and prints the cold time and medians of the others and warm - baseline, the plugin's warm overhead.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GPUCC = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--gpu-candidates", "examples/"]
BASELINE = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "examples/"]


def timed(cmd: list[str], env: dict, expect: int) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != expect:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}, expected {expect}:\n{proc.stdout[-2000:]}")
    return elapsed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    baseline = statistics.median(timed(BASELINE, base_env, 5) for _ in range(a.repeats))
    with tempfile.TemporaryDirectory() as cache:  # one cold run: it takes minutes
        env = dict(base_env, NUMBA_CACHE_DIR=cache)
        cold = timed(GPUCC, env, 0)
        warm = statistics.median(timed(GPUCC, env, 0) for _ in range(a.repeats))
    print(f"pytest without the plugin active   {baseline:7.2f} s")
    print(f"--gpu-candidates examples/, cold   {cold:7.2f} s   (empty numba cache: compiles compiler + VM)")
    print(f"--gpu-candidates examples/, warm   {warm:7.2f} s   (adds {warm - baseline:.2f} s to the run)")


if __name__ == "__main__":
    main()
