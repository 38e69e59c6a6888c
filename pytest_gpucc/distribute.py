"""pytest-xdist: whole suite files per worker, each worker's share known before it launches.

xdist's ``--dist loadfile`` keeps a file's items on one worker, but hands files out one or two
at a time, so a worker never knows all its candidates before it must compile them.  With
``--gpu-candidates`` and a ``load``, ``loadfile`` or ``loadscope`` distribution (``-n N`` alone
means ``load``), this module replaces xdist's scheduler (hook ``pytest_xdist_make_scheduler``)
with :class:`SuiteScheduling`: every file goes, up front, to the worker that
:func:`assign_files` names, a pure function of the collection that each worker also computes,
so each worker compiles exactly its own suites' candidates in one batch and launches once.
Other distributions (``each``, ``loadgroup``, ``worksteal``) are left alone: each worker then
compiles every candidate it collected (still one launch per worker, but repeated work).

Only :func:`register` runs without xdist; the scheduler's import of xdist is lazy.
"""

from __future__ import annotations

import pytest

SHARED_DISTRIBUTIONS = ("load", "loadfile", "loadscope")
ASSIGNED = "gpucc_files_assigned"  # the workerinput key that tells a worker its files are assigned


def file_of(nodeid: str) -> str:
    """The file part of a node id (what xdist's loadfile groups by)."""
    return nodeid.split("::", 1)[0]


def assign_files(nodeids: list[str], workers: int) -> dict[str, int]:
    """Each file's worker index: the files, most items first (ties in collection order),
    each to the worker with the fewest items so far (ties: the lowest index)."""
    counts: dict[str, int] = {}
    for nodeid in nodeids:
        counts[file_of(nodeid)] = counts.get(file_of(nodeid), 0) + 1
    load = [0] * workers
    owner = {}
    for path, n in sorted(counts.items(), key=lambda kv: -kv[1]):
        w = min(range(workers), key=lambda i: (load[i], i))
        owner[path] = w
        load[w] += n
    return owner


def shares_files(config) -> bool:
    """Whether this (controller's) run gives each xdist worker the files :func:`assign_files` names."""
    return bool(config.getoption("gpu_candidates")) and config.getoption("dist", "no") in SHARED_DISTRIBUTIONS


def my_share(session, items: list) -> list:
    """The items of `items` this process runs: on an xdist worker whose files are assigned up
    front, those in its files; otherwise all of them."""
    workerinput = getattr(session.config, "workerinput", None)
    if workerinput is None or not workerinput.get(ASSIGNED):  # (a worker's own options say dist "no")
        return list(items)
    owner = assign_files([i.nodeid for i in session.items], workerinput["workercount"])
    index = _index(workerinput["workerid"])
    return [i for i in items if owner.get(file_of(i.nodeid)) == index]


def _index(workerid: str) -> int | None:
    return int(workerid[2:]) if workerid.startswith("gw") and workerid[2:].isdigit() else None


def register(config) -> None:
    """Add the scheduler hook when xdist distributes this run."""
    if shares_files(config):
        config.pluginmanager.register(SchedulerHook(), "gpucc-xdist")


class SchedulerHook:
    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node):
        node.workerinput[ASSIGNED] = True

    @pytest.hookimpl(tryfirst=True, optionalhook=True)
    def pytest_xdist_make_scheduler(self, config, log):
        return make_scheduler(config, log)


def make_scheduler(config, log):
    """xdist's LoadFileScheduling, with every file assigned before any worker runs."""
    from xdist.scheduler import LoadFileScheduling

    class SuiteScheduling(LoadFileScheduling):
        def schedule(self) -> None:
            by_index = {_index(n.workerinput["workerid"]): n for n in self.nodes}
            if self.collection is not None or sorted(by_index) != list(range(len(self.nodes))):
                return super().schedule()  # a node added later, or ids not gw0..gwN-1: xdist decides
            if not self._check_nodes_have_same_collection():
                self.log("**Different tests collected, aborting run**")
                return
            self.collection = list(next(iter(self.registered_collections.values())))
            files: dict[str, dict[str, bool]] = {}
            for nodeid in self.collection:
                files.setdefault(file_of(nodeid), {})[nodeid] = False
            owner = assign_files(self.collection, len(self.nodes))
            for path, work_unit in sorted(files.items(), key=lambda kv: owner[kv[0]]):
                self.workqueue[path] = work_unit
                self._assign_work_unit(by_index[owner[path]])  # sends this file's items to its worker
            for node in self.nodes:
                node.shutdown()  # everything is sent: each worker runs its files, then stops

    return SuiteScheduling(config, log)
