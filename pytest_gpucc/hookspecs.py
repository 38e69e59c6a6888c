"""pytest-gpucc's own pluggy hooks, for harnesses and plugins that consume its results.

Implement them in a ``conftest.py``, a plugin, or an object passed to ``pytest.main(plugins=[...])``
(that is what :func:`pytest_gpucc.api.run` does)::

    def pytest_gpucc_results(config, results):
        best = {s.task: s.fastest.name for s in results.summaries if s.fastest}
"""

import pytest


@pytest.hookspec
def pytest_gpucc_results(config, results):
    """Called once per run with its final results, after every candidate ran.

    :param pytest.Config config: the run's config.
    :param pytest_gpucc.report.RunResults results: every suite's :class:`~pytest_gpucc.report.SuiteSummary`
        (outcomes in collection order; ``ranked``: the passing ones, fastest first) and the run's
        ``info`` (backend, launches, jobs, timings).

    Called from ``pytest_sessionfinish`` of the process that holds the whole run's results: the
    controller under pytest-xdist (never a worker); not called when gpucc is off or its batch
    did not run.  An implementation may add JSON-serializable keys to ``results.info``: they
    are written to the ``--gpucc-json`` file (``pass_at_k`` is added that way).
    """
