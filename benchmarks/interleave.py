"""Compare two checkouts side by side: run the same benchmark in each, alternating, and print
each timed row's median per checkout and their ratio.

    python -m benchmarks.interleave --old ../base --rounds 7 -- -m benchmarks.bench_vm --repeats 3

Each checkout runs with its own interpreter (`<checkout>/.venv/bin/python` when it exists) in
its own directory, so each imports its own code and numba cache.  Rounds alternate old/new
(old first on odd rounds, new first on even ones) so that drift in the machine's load falls on
both.  A round's rows are the lines `harness.row` prints ("  <label>  <t> ms ..."); the ratio
is new / old (below 1: the new checkout is faster).  One warm-up run per checkout first (numba
compiles on a cold cache).

`--per TEXT` also divides each row by the row of the same run and section whose label contains
TEXT (e.g. "CPython": the VM's time per unit of CPython time in that very run), so that load
from other processes, which slows both rows of one run alike, cancels out of the ratio.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROW = re.compile(r"^  (\S.*?)\s+([0-9.]+) ms")


def interpreter(checkout: Path) -> str:
    venv = checkout / ".venv" / "bin" / "python"
    return str(venv) if venv.exists() else sys.executable


def run(checkout: Path, args: list[str]) -> dict[str, float]:
    """Timed rows (label -> ms) of one run of the benchmark in `checkout`; the section headers
    (unindented lines) prefix the labels so that rows of different workloads stay apart."""
    out = subprocess.run([interpreter(checkout), *args], cwd=checkout, capture_output=True, text=True, check=True)
    rows, section = {}, ""
    for line in out.stdout.splitlines():
        m = ROW.match(line)
        if m:
            rows[f"{section}{m[1].strip()}"] = float(m[2])
        elif line and not line.startswith(" "):
            section = line.split(":")[0] + ": "
    return rows


def relative(rows: dict[str, float], per: str) -> dict[str, float]:
    """Each row divided by the row of its section whose label contains `per` (keys "... / per")."""
    out = {}
    for label, ms in rows.items():
        section = label.split(": ")[0] + ": " if ": " in label else ""
        base = [v for k, v in rows.items() if k.startswith(section) and per in k]
        if base and per not in label:
            out[f"{label} / {per}"] = ms / base[0]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", type=Path, required=True, help="the checkout to compare against")
    ap.add_argument("--new", type=Path, default=Path.cwd(), help="the checkout under test (default: here)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--per", metavar="TEXT", help="also compare rows relative to the row whose label contains TEXT")
    ap.add_argument("bench", nargs=argparse.REMAINDER, help="-- then the benchmark's python arguments")
    a = ap.parse_args(argv)
    args = a.bench[1:] if a.bench[:1] == ["--"] else a.bench
    if not args:
        ap.error("give the benchmark after --, e.g. -- -m benchmarks.bench_vm --repeats 3")
    sides = {"old": a.old.resolve(), "new": a.new.resolve()}
    for side, checkout in sides.items():
        print(f"warm-up {side}: {checkout}", flush=True)
        run(checkout, args)
    samples: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
    for r in range(a.rounds):
        order = ("old", "new") if r % 2 == 0 else ("new", "old")
        for side in order:
            rows = run(sides[side], args)
            if a.per:
                rows.update(relative(rows, a.per))
            for label, ms in rows.items():
                samples[side].setdefault(label, []).append(ms)
        print(f"round {r + 1}/{a.rounds} done", flush=True)
    print(f"\nmedians over {a.rounds} interleaved rounds (ms; rows '/ {a.per}' are ratios); ratio = new / old")
    print(f"  {'row':<64} {'old':>10} {'new':>10} {'ratio':>7}")
    for label in samples["old"]:
        if label in samples["new"]:
            old, new = statistics.median(samples["old"][label]), statistics.median(samples["new"][label])
            print(f"  {label:<64} {old:10.4g} {new:10.4g} {new / old:7.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
