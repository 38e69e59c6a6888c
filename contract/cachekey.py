"""Cache keys for numba's on-disk cache of the compiler and VM kernels.

numba's cache only watches the file that defines a cached function; a launcher closes over
`source_fingerprint(...)` of every module its body is compiled from (numba hashes closure
variables into the key), so editing any of them recompiles it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

# the folder holding compiler/, vm/ and contract/ (the repository, or site-packages/gpucc)
ROOT = Path(__file__).resolve().parent.parent


def source_fingerprint(*paths: str) -> str:
    """sha256 of the files at `paths` (relative to ROOT; a path may be a glob like
    "compiler/*.py"), in the order given (a glob's matches sorted)."""
    files = []
    for p in paths:
        files += sorted(ROOT.glob(p)) if "*" in p else [ROOT / p]
    return hashlib.sha256(b"".join(f.read_bytes() for f in files)).hexdigest()
