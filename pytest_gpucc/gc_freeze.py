"""CPython's full garbage-collector passes kept off the objects a run holds to its end.

A ``--gpu-candidates`` run holds about sixty objects per candidate (its item, its three reports,
its outcome, jobs and payload) until the process ends: pytest's config, and with it every item
and report, stays reachable from the modules its assertion-rewriting hook imported.  Every full
pass of the collector traverses all of them: the passes allocation triggers while the items
report (every ~1,200 items, each longer than the last), pytest's own ``gc.collect()`` when it
unconfigures, and the interpreter's sweeps at exit (issue #11: 20,000 samples spent 3.4 s of
CPU in the first two and 4.8 s in the sweeps, after pytest had returned).

:class:`FrozenRun` (one per run) moves the objects alive at a few points to the collector's
permanent generation (``gc.freeze``), after a collection of the young generations (so garbage
is not kept): when the batch has run (collection finished) and every :data:`FREEZE_EVERY`
reported items.  A config cleanup moves them back (``gc.unfreeze``) after pytest's own cleanups,
so an in-process caller (:func:`pytest_gpucc.api.run` in a loop) keeps nothing frozen after a
run.  A large run (one that reported FREEZE_EVERY items) also freezes every object at interpreter
exit (``atexit``, registered once per process), so the exit sweeps skip what the operating
system takes back anyway: what is still alive then in a reference cycle is not finalized
(CPython does not promise that either); a smaller run leaves the exit as it is.
"""

from __future__ import annotations

import atexit
import gc

import pytest

FREEZE_EVERY = 1000  # reported items between freezes
_exit_hook: list = []  # the atexit registration, once per process


def freeze() -> None:
    gc.collect(1)  # the young generations' garbage first: only what lives on is frozen
    gc.freeze()


class FrozenRun:
    """The plugin object of one run (see the module docstring)."""

    def __init__(self):
        self.reported = 0

    def pytest_configure(self, config):
        # registered from pytest-gpucc's own pytest_configure, which pytest calls before its
        # built-in plugins' (registered first, called last): this cleanup runs after theirs, so
        # unraisableexception's gc.collect() still skips the frozen objects
        config.add_cleanup(gc.unfreeze)

    @pytest.hookimpl(trylast=True)  # after the session plugin ran the batch
    def pytest_collection_finish(self, session):
        freeze()

    def pytest_runtest_logfinish(self):
        self.reported += 1
        if self.reported % FREEZE_EVERY == 0:
            freeze()
            if not _exit_hook:
                _exit_hook.append(atexit.register(gc.freeze))
