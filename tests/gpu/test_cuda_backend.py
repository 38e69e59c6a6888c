"""Backend selection and wiring: cuda_available(), `--gpucc-backend auto|cuda`, lazy imports,
and the plugin end to end on the cuda backend under the CUDA simulator."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from gpusim import ROOT

from gpucc.vm.devices import cuda_available
from pytest_gpucc.session import backend_name

SUITE = """\
def gcd(a: int, b: int) -> int:
    ...


@cases([(12, 18, 6), (7, 5, 1), (0, 9, 9)])
def test_table(a: int, b: int, want: int) -> None:
    assert gcd(a, b) == want


def test_symmetric() -> None:
    for a in range(1, 5):
        assert gcd(a, 6) == gcd(6, a)
"""
CANDIDATES = {
    "rec.py": "def gcd(a: int, b: int) -> int:\n    if b == 0:\n        return a\n    return gcd(b, a % b)\n",
    "fast.py": "def gcd(a: int, b: int) -> int:\n    while b != 0:\n        r = a % b\n        a = b\n        b = r\n    return a\n",
    "sub.py": "def gcd(a: int, b: int) -> int:\n    if a == 0:\n        return b\n    while b != 0:\n"
    "        if a > b:\n            a -= b\n        else:\n            b -= a\n    return a\n",
    "wrong.py": "def gcd(a: int, b: int) -> int:\n    return 3\n",
    "forever.py": "def gcd(a: int, b: int) -> int:\n    while True:\n        a += 1\n",
    "divzero.py": "def gcd(a: int, b: int) -> int:\n    return a // (b - b)\n",
}


def _python(code: str, sim: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    if sim:
        env["NUMBA_ENABLE_CUDASIM"] = "1"
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout.strip()


def test_auto_is_cuda_only_with_a_usable_device():
    assert backend_name("auto") == ("cuda" if cuda_available() else "cpu")
    assert backend_name("cpu") == "cpu" and backend_name("cuda") == "cuda"
    # the simulator is not a device: auto stays on the cpu under it
    assert _python("from pytest_gpucc.session import backend_name; print(backend_name('auto'))", sim=True) == "cpu"


def test_cuda_available_never_raises_without_numba_cuda():
    code = "import sys; sys.modules['numba.cuda'] = None\nfrom gpucc.vm.devices import cuda_available; print(cuda_available())"
    assert _python(code, sim=False) == "False"


def test_cpu_runs_never_import_numba_cuda():
    code = (
        "import sys\nfrom gpucc.compiler.batch import compile_batch\nfrom gpucc import vm\nimport pytest_gpucc.plugin\n"
        "from gpucc.contract.image import JobTable, Program\n"
        "b = compile_batch(['def f() -> int:\\n    return 1\\n'])\n"
        "vm.launch(Program.from_batch(b), JobTable.empty(), 'cpu')\n"
        "print(sorted(m for m in sys.modules if m.startswith('numba.cuda') or m in ('cupy', 'torch')))"
    )
    assert _python(code, sim=False) == "[]"


def _plugin_json(tmp_path: Path, backend: str) -> dict:
    (tmp_path / "suite_gcd.py").write_text(SUITE)
    (tmp_path / "gcd_candidates").mkdir(exist_ok=True)
    for name, text in CANDIDATES.items():
        (tmp_path / "gcd_candidates" / name).write_text(text)
    out = tmp_path / f"{backend}.json"
    args = ["-p", "no:cacheprovider", "--gpu-candidates", "--gpucc-backend", backend,
            "--gpucc-step-limit", "3000", "--gpucc-json", str(out), str(tmp_path)]  # fmt: skip
    code = f"import sys, pytest; sys.exit(pytest.main({args!r}))"
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1" if backend == "cuda" else "0"}
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr  # 1: some candidates failed
    assert f"backend {backend}" in proc.stdout, proc.stdout
    report = json.loads(out.read_text())
    assert report.pop("backend") == backend
    device = report.pop("device")  # the machine's CPU, or the simulator
    assert device == "numba CUDA simulator" if backend == "cuda" else device.endswith(" cores"), device
    report.pop("timings")
    transfer = report.pop("transfer")
    if backend == "cpu":
        assert transfer == {"host_to_device_bytes": 0, "device_to_host_bytes": 0, "transfers": 0, "note": "no device"}
    else:  # sources up, results (68 bytes a job) and tables down; vm/cuda.py lists each copy
        assert transfer["device_to_host_bytes"] > 68 * report["jobs"] > 0, transfer
        assert transfer["host_to_device_bytes"] > sum(len(t) for t in CANDIDATES.values()) + len(SUITE), transfer
        assert transfer["transfers"] > 20, transfer
    return report


def test_plugin_on_simulated_cuda_reports_what_cpu_reports(tmp_path: Path):
    cpu = _plugin_json(tmp_path, "cpu")
    suite = cpu["suites"][0]
    assert suite["passed"] == 3 and suite["fastest"] == "fast.py"  # a real ranking, not a trivial one
    assert _plugin_json(tmp_path, "cuda") == cpu
