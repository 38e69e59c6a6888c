"""Pairs of every curriculum level, made once for the neural tests."""

from __future__ import annotations

import pytest

from gpucc.neural.data import CURRICULUM, make_pairs


@pytest.fixture(scope="session")
def pairs():
    made, failed = make_pairs(7, {k: 30 for k in range(len(CURRICULUM))})
    assert failed == 0
    return made
