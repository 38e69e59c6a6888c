import pytest

from pytest_gpucc.session import GpuccSession


@pytest.fixture
def recorded_batches(monkeypatch) -> list[GpuccSession]:
    """Every GpuccSession whose run() completes during the test, in order."""
    batches = []
    run_batch = GpuccSession.run

    def recording_run(self, *args, **kwargs):
        run_batch(self, *args, **kwargs)
        batches.append(self)

    monkeypatch.setattr(GpuccSession, "run", recording_run)
    return batches
