"""README's "Options" table has a row for every command-line and ini option the plugin registers,
and no row for one it does not."""

import re
from pathlib import Path

from pytest_gpucc import plugin

README = Path(__file__).resolve().parents[2] / "README.md"


class Registered:
    """Stands in for pytest's parser and option group: keeps the names registered."""

    def __init__(self):
        self.names = set()

    def getgroup(self, *args, **kwargs):
        return self

    def addoption(self, *names, **kwargs):
        self.names.add(names[0])

    def addini(self, name, *args, **kwargs):
        self.names.add(name)


def table_options() -> set[str]:
    """The first name in backquotes of each row of the Options table (``ini `x` `` rows give x)."""
    text = README.read_text(encoding="utf-8")
    start = text.index("### Options\n")
    table = text[start : text.index("\n#", start + 1)]
    return {re.search(r"`([^` ]+)", line.split("|")[1]).group(1) for line in table.splitlines() if line.startswith("| ")
            and not line.startswith("| option")}  # fmt: skip


def test_the_options_table_names_every_option():
    registered = Registered()
    plugin.pytest_addoption(registered)
    assert "--gpucc-problems" in registered.names
    assert table_options() == registered.names
