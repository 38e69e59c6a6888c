"""Helpers of the plugin tests: a small gpucc project written into a pytester directory."""

import json

GCD_SUITE = '''\
def gcd(a: int, b: int) -> int:
    ...


@cases([(12, 18, 6), (7, 5, 1), (0, 9, 9)])
def test_table(a: int, b: int, want: int) -> None:
    assert gcd(a, b) == want


def test_symmetric() -> None:
    for a in range(1, 12):
        assert gcd(a, 6) == gcd(6, a)
'''

GCD_CANDIDATES = {
    "fast.py": "def gcd(a: int, b: int) -> int:\n    while b != 0:\n        r = a % b\n        a = b\n        b = r\n    return a\n",
    "slow.py": "def gcd(a: int, b: int) -> int:\n    if a == 0:\n        return b\n    while b != 0:\n"
               "        if a > b:\n            a -= b\n        else:\n            b -= a\n    return a\n",
    "wrong.py": "def gcd(a: int, b: int) -> int:\n    return 3\n",
    "forever.py": "def gcd(a: int, b: int) -> int:\n    while True:\n        a += 1\n",
    "listy.py": "def gcd(a: int, b: int) -> int:\n    xs = {[a, b]}\n    return a\n",
    "divzero.py": "def gcd(a: int, b: int) -> int:\n    return a // (b - b)\n",
    "misnamed.py": "def gcd2(a: int, b: int) -> int:\n    return a\n",
}


def write_project(pytester, suite=GCD_SUITE, candidates=None, name="gcd"):
    pytester.makefile(".py", **{f"suite_{name}": suite})
    folder = pytester.path / f"{name}_candidates"
    folder.mkdir(exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    for fname, text in (GCD_CANDIDATES if candidates is None else candidates).items():
        (folder / fname).write_text(text)


def run(pytester, *args):
    """Run pytest in-process with --gpu-candidates and --gpucc-json; return (result, json)."""
    out = pytester.path / "gpucc.json"
    result = pytester.runpytest_inprocess("--gpu-candidates", f"--gpucc-json={out}", "-p", "no:cacheprovider", *args)
    return result, (json.loads(out.read_text()) if out.exists() else None)
