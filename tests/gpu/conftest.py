"""CUDA tests: tests marked `gpu` need a real device and are skipped, with the reason, without one."""

from __future__ import annotations

import pytest


def _device_reason() -> str | None:
    from gpucc.vm.devices import cuda_available

    return None if cuda_available() else "no usable CUDA device (numba-cuda missing, no driver or no GPU)"


def pytest_collection_modifyitems(config, items):
    gpu_items = [item for item in items if item.get_closest_marker("gpu")]
    reason = _device_reason() if gpu_items else None
    for item in gpu_items:
        if reason:
            item.add_marker(pytest.mark.skip(reason=reason))
