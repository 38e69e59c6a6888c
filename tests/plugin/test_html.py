"""HTML reports (pytest-html): the ranked tables, the run info, escaping, and a real browser."""

from __future__ import annotations

import json
import math
import os
import shutil
from html.parser import HTMLParser

import pytest
from browser import dump_dom, find_chromium, screenshot
from gpucc_project import GCD_CANDIDATES, run, write_project
from neural_standin import RIGHT, SUITE, TWO_FUNCTIONS, WRONG, StandIn

from pytest_gpucc import neural_mode
from pytest_gpucc.html_report import NEURAL_HEADER

pytest.importorskip("pytest_html")  # a dev dependency; the plugin itself works without it

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
DASH = "\u2014"


class Node:
    def __init__(self, tag: str, attrs: dict):
        self.tag, self.attrs, self.children = tag, attrs, []

    def classes(self) -> list[str]:
        return (self.attrs.get("class") or "").split()

    def find_all(self, tag: str | None = None, cls: str | None = None) -> list[Node]:
        found = []
        for c in self.children:
            if isinstance(c, Node):
                if (tag is None or c.tag == tag) and (cls is None or cls in c.classes()):
                    found.append(c)
                found += c.find_all(tag, cls)
        return found

    def text(self) -> str:
        """The visible text (elements with the `hidden` attribute left out)."""
        return "".join(c if isinstance(c, str) else "" if "hidden" in c.attrs else c.text() for c in self.children)


class Tree(HTMLParser):
    """A small DOM of an HTML document: enough to read tables back."""

    def __init__(self, text: str):
        super().__init__()
        self.root = Node("#document", {})
        self.stack = [self.root]
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs))
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, 0, -1):
            if self.stack[i].tag == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        self.stack[-1].children.append(data)


def rows(table: Node) -> list[list[str]]:
    return [[td.text().strip() for td in tr.find_all("td")] for tr in table.find_all("tbody")[0].find_all("tr")]


def rows_of(table: Node) -> list[list[str]]:
    return [[td.text().strip() for td in tr.find_all("td")] for tr in table.find_all("tr")]


def data_blob(tree: Tree) -> str:
    """pytest-html's test data: the JSON its script builds the results table from."""
    return next(n.attrs["data-jsonblob"] for n in tree.root.find_all() if "data-jsonblob" in n.attrs)


def html_report(gpucc, *args, name="report.html"):
    """Run with --html; return (result, gpucc JSON, the report file's path)."""
    path = gpucc.path / name
    result, doc = run(gpucc, f"--html={path}", "--self-contained-html", *args)
    return result, doc, path


def test_ranked_table_and_run_info(project):
    project.makepyfile(test_plain="def test_ok():\n    pass\n")  # an ordinary test in the same run
    result, doc, path = html_report(project)
    assert result.ret == 0, result.stdout.str()
    tree = Tree(path.read_text(encoding="utf-8"))
    (suite,) = tree.root.find_all("div", "gpucc-suite")
    assert suite.attrs["data-suite"] == "suite_gcd.py"
    assert suite.find_all("h3")[0].text() == "suite_gcd.py (task gcd): 2/7 candidates passed"
    want = {c["name"]: c for c in doc["suites"][0]["candidates"]}
    got = rows(suite.find_all("table", "gpucc-ranking")[0])
    ranked, failing = got[:2], got[2:]
    # passing candidates first, in cost order, with their JSON cost and rank
    assert [r[1] for r in ranked] == ["fast.py", "slow.py"]
    costs = [int(r[3]) for r in ranked]
    assert costs == [want["fast.py"]["cost"], want["slow.py"]["cost"]] and costs[0] < costs[1]
    assert [r[0] for r in ranked] == ["1", "2"] and ranked[0][4] == "1.00x"
    assert ranked[1][4] == f"{costs[1] / costs[0]:.2f}x"
    bars = [bar.find_all("div")[0].attrs["style"] for bar in suite.find_all("div", "gpucc-bar")]
    assert bars == [f"width: {100 * costs[0] / costs[1]:.1f}%", "width: 100.0%"]
    # then the failing ones, each with its status and the reason the JSON gives
    assert sorted(r[1] for r in failing) == sorted(set(GCD_CANDIDATES) - {"fast.py", "slow.py"})
    for r in failing:
        assert r[0] == DASH and r[2] == f"rejected: {want[r[1]]['status']}"
        assert r[6].startswith(want[r[1]]["reason"])
    assert "where 3 == 6" in next(r[6] for r in failing if r[1] == "wrong.py")
    # the run: backend, device, launches, timings
    info = dict(rows_of(tree.root.find_all("table", "gpucc-run")[0]))
    assert info["backend"] == "cpu" and info["launches"] == "1" and info["jobs"] == str(doc["jobs"])
    assert info["device"] == doc["device"] and "cores" in info["device"]
    assert all(f"{phase} " in info["timings"] for phase in ("collect", "compile", "link", "launch", "report"))
    # pytest-html's own table: one column more per gpucc field, in every row (the plain test's too)
    table = json.loads(data_blob(tree))
    heads = tree.root.find_all("thead")[-1].find_all("th")
    assert [h.text() for h in heads][2:5] == ["Rank", "gpucc status", "Cost"]
    cells = {tid: t[0]["resultsTableRow"] for tid, t in table["tests"].items()}
    assert len(cells) == 8 and all(len(c) == len(heads) for c in cells.values())
    assert "col-gpuccRank\"><span hidden>00000000000000000001</span>1<" in cells["suite_gcd.py::fast.py"][2]
    assert ">rejected: failed<" in cells["suite_gcd.py::wrong.py"][3]
    assert {r[7] for r in got} == {"traditional"}  # Compiled by
    assert not tree.root.find_all("table", "gpucc-neural")  # no sample table in traditional mode


def test_neural_mode_shows_the_path_and_the_samples(gpucc, monkeypatch):
    monkeypatch.setitem(neural_mode._compilers, None, StandIn())  # known samples (neural_standin.py)
    write_project(gpucc, suite=SUITE, name="double", candidates={
        "right.py": RIGHT, "wrong.py": WRONG, "two_functions.py": TWO_FUNCTIONS,
        "setty.py": "def double(x: int) -> int:\n    return len(f'{x}')\n"})  # fmt: skip
    result, doc, path = html_report(gpucc, "--gpucc-compiler", "neural", "--gpucc-neural-k", "3")
    assert result.ret == 0, result.stdout.str()
    tree = Tree(path.read_text(encoding="utf-8"))
    (suite,) = tree.root.find_all("div", "gpucc-suite")
    ranking = {r[1]: r for r in rows(suite.find_all("table", "gpucc-ranking")[0])}
    assert {n: (r[2], r[7]) for n, r in ranking.items()} == {
        "right.py": ("passed", "neural"), "wrong.py": ("passed", "neural"), "two_functions.py": ("passed", "neural"),
        "setty.py": ("rejected: compile error", "traditional")}  # fmt: skip
    header = [th.text() for th in suite.find_all("table", "gpucc-neural")[0].find_all("th")]
    assert header == list(NEURAL_HEADER)
    got = {r[0]: r[1:] for r in rows(suite.find_all("table", "gpucc-neural")[0])}
    # valid / passing / faithful of k = 3, p_correct, k_99, eq. 7, measured, the traditional verdict
    assert [math.ceil(math.log(0.01) / math.log(1 - p)) for p in (2 / 3, 1 / 3)] == [5, 12]
    assert got["right.py"] == ["neural", "2/3", "2", "2", "0.67", "5", "0.96", "1", "passed"]
    assert got["wrong.py"] == ["neural", "2/3", "1", "1", "0.33", "12", "0.70", "1", "failed"]
    assert got["two_functions.py"] == ["neural", "1/3", "1", "1", "0.33", "12", "0.70", "1", "passed"]
    assert got["setty.py"][0] == "traditional" and got["setty.py"][1].startswith("no samples: the traditional front end")
    # the same figures as the JSON's
    neural = {c["name"]: c["neural"] for c in doc["suites"][0]["candidates"]}
    assert neural["wrong.py"]["faithful"] == 1 and neural["wrong.py"]["compiled_by"] == "neural"
    assert neural["setty.py"]["compiled_by"] == "traditional"
    # pytest-html's own table: the gpucc status says which path
    cells = {tid: t[0]["resultsTableRow"] for tid, t in json.loads(data_blob(tree))["tests"].items()}
    assert ">passed (neural)<" in cells["suite_double.py::wrong.py"][3]
    assert ">rejected: compile error (traditional)<" in cells["suite_double.py::setty.py"][3]



def test_candidate_text_is_escaped(gpucc):
    sources = {"<B>slow.py": GCD_CANDIDATES["slow.py"], "<b>fast.py": GCD_CANDIDATES["fast.py"],
               "<i>listy.py": GCD_CANDIDATES["listy.py"]}  # fmt: skip
    write_project(gpucc, candidates=sources)
    result, _, path = html_report(gpucc)
    assert result.ret == 0, result.stdout.str()
    tree = Tree(path.read_text(encoding="utf-8"))
    assert not any(tree.root.find_all(tag) for tag in "bi")  # no candidate's markup became HTML
    got = rows(tree.root.find_all("table", "gpucc-ranking")[0])
    assert [r[1] for r in got] == ["<b>fast.py", "<B>slow.py", "<i>listy.py"]
    assert "gcd_candidates/<i>listy.py:2:" in got[2][6]  # the compile error names the file
    # pytest-html puts test ids into its table unescaped: the row hook escapes candidates' ids
    tests = json.loads(data_blob(tree))["tests"]
    row = tests["suite_gcd.py::<b>fast.py"][0]["resultsTableRow"]
    assert row[1] == '<td class="col-testId">suite_gcd.py::&lt;b&gt;fast.py</td>'
    # the slow one's row is rendered first, yet has its rank in the whole suite
    assert row[2].endswith(">1</td>") and tests["suite_gcd.py::<B>slow.py"][0]["resultsTableRow"][2].endswith(">2</td>")


def test_off_without_pytest_html(project):
    project.makeconftest(
        "def pytest_sessionfinish(session):\n"
        "    has = session.config.pluginmanager.has_plugin('gpucc-html')\n"
        "    session.config.pluginmanager.get_plugin('terminalreporter').write_line(f'gpucc-html: {has}')\n"
    )
    result, doc = run(project, "-p", "no:html")
    assert result.ret == 0 and doc["suites"][0]["fastest"] == "fast.py"
    result.stdout.fnmatch_lines(["gpucc-html: False"])
    result, _, _ = html_report(project)  # and with pytest-html, the hooks are there
    result.stdout.fnmatch_lines(["gpucc-html: True"])


def gpucc_content(path) -> tuple[dict, dict]:
    """What gpucc put in a report: each suite's ranking rows, and each test's gpucc cells."""
    tree = Tree(path.read_text(encoding="utf-8"))
    suites = {d.attrs["data-suite"]: rows(d.find_all("table", "gpucc-ranking")[0]) for d in tree.root.find_all("div", "gpucc-suite")}
    cells = {tid: t[0]["resultsTableRow"][2:5] for tid, t in json.loads(data_blob(tree))["tests"].items()}
    return suites, cells


def test_same_report_with_xdist(project):
    write_project(project, name="other")  # two suite files: one per worker
    alone, _, path = html_report(project, name="alone.html")
    spread, _, xpath = html_report(project, "-n", "2", "-p", "no:benchmark", name="xdist.html")
    assert alone.ret == spread.ret == 0, spread.stdout.str()
    suites, cells = gpucc_content(path)
    assert set(suites) == {"suite_gcd.py", "suite_other.py"} and len(cells) == 2 * len(GCD_CANDIDATES)
    assert gpucc_content(xpath) == (suites, cells)  # ranks computed on the workers, the same


CHROMIUM = find_chromium()


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary on PATH (Debian: apt-get install chromium)")
def test_report_in_headless_chromium(project, tmp_path):
    result, _, path = html_report(project)
    assert result.ret == 0, result.stdout.str()
    url = path.as_uri() + "?sort=gpuccRank"  # pytest-html's script sorts its table by our Rank column
    dom = Tree(dump_dom(CHROMIUM, url, tmp_path / "profile"))
    # pytest-html 4 builds its results table in JavaScript: the file itself has no such rows
    assert not Tree(path.read_text(encoding="utf-8")).root.find_all("td", "col-testId")
    built = [(tb.find_all("td", "col-testId")[0].text(), tb.find_all("td", "col-gpuccRank")[0].text())
             for tb in dom.root.find_all("tbody", "results-table-row") if "id" in tb.attrs]  # not the <template>
    assert len(built) == len(GCD_CANDIDATES)
    assert built[:2] == [("suite_gcd.py::fast.py", "1"), ("suite_gcd.py::slow.py", "2")]
    assert all(rank == DASH for _, rank in built[2:])
    ranking = rows(dom.root.find_all("table", "gpucc-ranking")[0])
    assert [r[1] for r in ranking[:2]] == ["fast.py", "slow.py"] and int(ranking[0][3]) < int(ranking[1][3])
    png = screenshot(CHROMIUM, url, tmp_path / "gpucc-report.png", tmp_path / "profile")
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000  # a rendered page, not a blank one
    artifacts = os.environ.get("GPUCC_ARTIFACTS")
    if artifacts:
        os.makedirs(artifacts, exist_ok=True)
        shutil.copy(png, artifacts)
        shutil.copy(path, artifacts)
