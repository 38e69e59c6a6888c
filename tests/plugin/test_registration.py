"""What the plugin registers and imports: the session plugin object under its name for the run
only, and nothing (and no numba, torch or cupy) without --gpu-candidates (import cycles:
tests/test_architecture.py)."""

import subprocess
import sys
from pathlib import Path

import pytest_gpucc
from pytest_gpucc.session_plugin import PLUGIN_NAME, SessionPlugin

PACKAGE = Path(pytest_gpucc.__file__).parent


class Probe:
    """Keeps the run's config, what was registered under the session plugin's name during the
    run, and which plugins implemented pytest_collect_file then."""

    def __init__(self):
        self.config = None
        self.during_run = None
        self.collecting = []

    def pytest_configure(self, config):
        self.config = config

    def pytest_sessionfinish(self, session):
        pm = session.config.pluginmanager
        self.during_run = pm.get_plugin(PLUGIN_NAME)
        self.collecting = [impl.plugin for impl in pm.hook.pytest_collect_file.get_hookimpls()]


def test_session_plugin_is_registered_for_the_run_only(project):
    probe = Probe()
    result = project.runpytest_inprocess("--gpu-candidates", "--gpucc-step-limit=5000", "-p", "no:cacheprovider",
                                         plugins=[probe])  # fmt: skip
    assert result.ret == 0
    plugin = probe.during_run
    assert isinstance(plugin, SessionPlugin) and plugin in probe.collecting  # its methods are the hooks
    assert probe.config.pluginmanager.get_plugin(PLUGIN_NAME) is None  # unregistered at unconfigure
    assert plugin not in [impl.plugin for impl in probe.config.pluginmanager.hook.pytest_collect_file.get_hookimpls()]


def test_without_gpu_candidates_nothing_is_registered_or_imported(tmp_path):
    (tmp_path / "test_plain.py").write_text("def test_ok():\n    pass\n")
    (tmp_path / "suite_gcd.py").write_text("not collected without --gpu-candidates\n")
    code = ("import sys, pytest\n"
            "class Probe:\n"
            "    def pytest_sessionfinish(self, session):\n"
            "        pm = session.config.pluginmanager\n"
            f"        print('loaded:', pm.has_plugin('gpucc'), 'registered:', pm.get_plugin({PLUGIN_NAME!r}))\n"
            "code = pytest.main(['-q', '-p', 'no:cacheprovider'], plugins=[Probe()])\n"
            "print('heavy:', sorted(m for m in ('numba', 'torch', 'cupy') if m in sys.modules), int(code))")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert "loaded: True registered: None" in out.stdout and "heavy: [] 0" in out.stdout, out.stdout + out.stderr
    assert "1 passed" in out.stdout
