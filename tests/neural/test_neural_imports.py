"""torch stays optional: the plugin and the torch-free half of gpucc.neural never import it."""

from __future__ import annotations

import subprocess
import sys


def test_the_plugin_and_the_data_side_do_not_import_torch():
    code = ("import sys, pytest_gpucc.plugin, gpucc.neural.data, gpucc.neural.evaluate, gpucc.neural.tokenizer\n"
            "print('torch' in sys.modules)")  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
