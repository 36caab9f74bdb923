"""``son.explore``: the phases and their records in Python, the CLI, and the page driven
in a real browser (headless Chromium through Selenium).

The browser test is never skipped: without Chromium, its driver or Selenium it fails
and says to run ``scripts/setup.sh`` (CI runs it)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import son
from son.examples import EXAMPLES

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


def sqrt_sum(a):
    total = 0.0
    for i in range(len(a)):
        v = a[i]
        x = v
        while abs(x * x - v) > 1e-12 * v:
            x = 0.5 * (x + v / x)
        total += x
    return total


def scaled_sum(x: np.ndarray, n: int):
    s = 0.0
    k = 2 * 3
    for i in range(n):
        s += x[i] * k
    return s + 0 * n


def line_of(fn, text: str) -> int:
    """The file line of ``fn``'s source line that contains ``text``."""
    import inspect

    lines, first = inspect.getsourcelines(fn)
    return first + next(k for k, ln in enumerate(lines) if text in ln)


def check_records(x: son.driver.Explorer) -> None:
    """Every phase's edges join nodes of that phase; a diff names nodes of the phases it compares."""
    for ph in x.phases:
        if ph["nodes"] is None:
            assert ph["text"], ph["name"]
            continue
        ids = {r["id"] for r in ph["nodes"]}
        for r in ph["nodes"]:
            assert all(src in ids for src, _i, _cls in r["in"]), (ph["name"], r)
            assert r["origin"]
        if "diff" in ph:
            assert set(ph["diff"]["added"]) <= ids
            assert not {r["id"] for r in ph["diff"]["removed"]} & ids


# ------------------------------------------------------------------ Python level
@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_explore_opens_on_every_example(example):
    x = son.explore(example.fn)
    names = [p["name"] for p in x.phases]
    assert names[0] == "raw parse" and names[-2:] == ["schedule", "kernel"]
    assert [p["name"] for p in x.phases if p["group"] == "pass"] == ["sccp", "guards"]
    assert f"def {example.name}(" in x.phase("kernel")["text"]
    assert x.source.startswith(f"def {example.name}(")
    check_records(x)
    page = x.html()
    assert '<script type="application/json" id="son-data">' in page
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page), "the page must not fetch anything"
    data = json.loads(page.split('id="son-data">', 1)[1].split("</script>", 1)[0])
    assert [p["name"] for p in data["phases"]] == names


def test_explore_a_gradient_graph():
    a = np.linspace(0.5, 40.0, 8)
    df = son.grad(sqrt_sum)
    df(a)
    x = son.explore(df.graph)
    assert [p["name"] for p in x.phases] == ["graph", "sccp", "guards", "schedule", "kernel"]
    graph = x.phase("graph")
    assert len(graph["nodes"]) > 100
    assert len(graph["loops"]) >= 4  # two primal loops, replayed backwards
    assert all("block" in r for r in graph["nodes"] if r["cls"] != "Stop")
    assert "def sqrt_sum_grad(" in x.phase("kernel")["text"]
    assert "def sqrt_sum(a):" in x.source  # the primal's source, found through graph.source
    check_records(x)


def test_nodes_carry_their_source_line_and_what_made_them():
    x = son.explore(scaled_sum)
    raw = x.phase("raw parse")
    mul = next(r for r in raw["nodes"] if r["label"] == "*" and r["type"] == "float")
    assert mul["line"] == line_of(scaled_sum, "s += x[i] * k")
    assert mul["origin"] == "raw parse"
    loads = [r for r in x.phase("guards")["nodes"] if r["cls"] == "Load"]
    assert loads and all(r["line"] == line_of(scaled_sum, "s += x[i] * k") for r in loads)
    assert x.phase("guards")["loops"], "the for loop is listed for the collapse filter"


def test_parse_time_rewrites_come_in_batches_by_statement_and_diff_against_each_other():
    from son.examples import flip_flop

    x = son.explore(flip_flop)
    batches = [p for p in x.phases if p["name"].startswith("parse: line ")]
    assert len(batches) >= 2
    assert {s[2] for b in batches for s in b["steps"]} == {"sub_constant", "phi_same"}
    # a later batch diffs against the earlier one (one parse, the same node ids); the raw
    # parse is a parse of its own and is diffed against nothing
    assert "diff" not in x.phase("raw parse") and "diff" not in batches[0]
    assert batches[1]["diff"]["against"] == batches[0]["name"]
    sccp = x.phase("sccp")
    assert sccp["diff"]["removed"], "sccp folds the loop's Phi away"
    # n -= 1 is parsed as n - 1, which the rule sub_constant rewrites to n + -1
    plus = next(r for r in sccp["nodes"] if r["label"] == "+")
    assert plus["origin"] == f"parse: line {line_of(flip_flop, 'n -= 1')}, rule sub_constant"
    assert plus["line"] == line_of(flip_flop, "n -= 1")


def test_explore_takes_a_pipeline_and_a_source_text():
    src = textwrap.dedent("""
        def f(a: int, c: bool):
            if c:
                x = 5
            else:
                x = 2 + 3
            return x + a - a
    """)
    x = son.explore(src, "none")
    assert [p["name"] for p in x.phases] == ["raw parse", "schedule", "kernel"]
    x = son.explore(src, "peephole")
    assert [p["name"] for p in x.phases if p["group"] == "pass"] == ["peephole"]
    assert x.source.startswith("\ndef f(") or x.source.startswith("def f(")
    with pytest.raises(son.SonError, match="unknown pipeline"):
        son.explore(src, "no-such-pass")


def test_save_writes_the_page_and_jupyter_gets_an_iframe(tmp_path):
    x = son.explore(scaled_sum)
    path = x.save(tmp_path / "deep" / "f.html")
    assert path.read_text().startswith("<!DOCTYPE html>")
    html = x._repr_html_()
    assert html.startswith("<iframe srcdoc=") and "son-data" in html


def test_cli_explore_writes_the_page(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text("def total(x, n):\n    s = 0.0\n    for i in range(n):\n        s += x[i]\n"
                    "    return s\n")
    out = tmp_path / "total.html"
    r = subprocess.run([sys.executable, "-m", "son", "explore", f"{prog}:total", "--argtypes",
                        "x=f64[],n=int", "-o", str(out)], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"wrote {out} (6 phases: raw parse, ")
    assert 'id="son-data"' in out.read_text()
    r = subprocess.run([sys.executable, "-m", "son", "explore", f"{prog}:total", "-o", "x.svg"],
                       capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 2 and "name the output .html" in r.stderr


# ------------------------------------------------------------------ in a browser
@pytest.fixture(scope="module")
def browser():
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not Path(p).exists() and not shutil.which(Path(p).name)]
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        missing.append("the selenium package")
    if missing:
        pytest.fail(f"the explorer's browser test needs {', '.join(missing)}: run 'bash scripts/setup.sh' "
                    "(Debian's chromium and chromium-driver, and pip install -e .[test])")
    options = Options()
    options.binary_location = CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver_path = CHROMEDRIVER if Path(CHROMEDRIVER).exists() else shutil.which("chromedriver")
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    yield driver
    driver.quit()


def shown(driver) -> list[int | str]:
    return driver.execute_script("return window.sonExplorer.shown()")


def drawn(driver, css: str = "g.node") -> set[str]:
    return {e.get_attribute("data-id") for e in driver.find_elements("css selector", css)}


def click_phase(driver, name: str) -> None:
    for e in driver.find_elements("css selector", ".phase"):
        if e.text.split(" (")[0] == name:
            e.click()
            return
    raise AssertionError(f"no phase {name!r}")


def test_the_page_in_a_browser(browser, tmp_path):
    from selenium.webdriver.support.ui import Select

    x = son.explore(scaled_sum)
    page = x.save(tmp_path / "scaled_sum.html")
    browser.get(page.as_uri())
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors
    # it opens on the last pass, every node drawn
    guards = x.phase("guards")
    assert browser.find_element("css selector", ".phase.current").text.startswith("guards")
    assert sorted(shown(browser)) == sorted(r["id"] for r in guards["nodes"])
    assert drawn(browser) == {str(r["id"]) for r in guards["nodes"]}

    # click a node: its inputs and users are highlighted, the panel shows its type, origin and line
    add = next(r for r in guards["nodes"] if r["label"] == "+" and r["type"] == "float")
    browser.find_element("css selector", f'g.node[data-id="{add["id"]}"]').click()
    assert browser.find_element("id", "info-head").text == f'%{add["id"]} +'
    assert browser.find_element("id", "info-type").text == "type float"
    assert browser.find_element("id", "info-origin").text.startswith("made by ")
    assert browser.find_element("id", "info-line").text == f"source line {add['line']}"
    assert add["line"] == line_of(scaled_sum, "s += x[i] * k")
    assert drawn(browser, "g.node.selected") == {str(add["id"])}
    assert drawn(browser, "g.node.input") == {str(i) for i, _k, _c in add["in"]}
    users = {str(r["id"]) for r in guards["nodes"] if any(i == add["id"] for i, _k, _c in r["in"])}
    assert users and drawn(browser, "g.node.user") == users
    hl = browser.find_elements("css selector", "#source .ln.hl")
    assert [e.get_attribute("data-line") for e in hl] == [str(add["line"])]
    assert "s += x[i] * k" in hl[0].text

    # the neighbourhood of the selected node: itself, its inputs and its users
    hops = browser.find_element("id", "hops")
    hops.clear()
    hops.send_keys("1")
    assert {str(i) for i in shown(browser)} == {str(add["id"])} | users | drawn(browser, "g.node.input")
    hops.clear()
    hops.send_keys("0")
    assert len(shown(browser)) == len(guards["nodes"])

    # switch phases: the raw parse has more nodes, and its own constants
    click_phase(browser, "raw parse")
    raw = x.phase("raw parse")
    assert browser.find_element("id", "status").text.startswith(f"raw parse: {len(raw['nodes'])} of ")
    assert drawn(browser) == {str(r["id"]) for r in raw["nodes"]}
    assert len(raw["nodes"]) > len(guards["nodes"])

    # filters: constants hidden, then control only
    browser.find_element("id", "f-const").click()
    consts = {str(r["id"]) for r in raw["nodes"] if r["kind"] == "const"}
    assert consts and not drawn(browser) & consts
    assert drawn(browser) == {str(r["id"]) for r in raw["nodes"]} - consts
    browser.find_element("id", "f-const").click()
    browser.find_element("id", "f-ctrl").click()
    assert drawn(browser) == {str(r["id"]) for r in raw["nodes"] if r["kind"] == "cfg"}
    browser.find_element("id", "f-ctrl").click()

    # collapse the loop into one box
    loop = raw["loops"][0]["id"]
    inside = {str(r["id"]) for r in raw["nodes"] if loop in r.get("loops", [])}
    Select(browser.find_element("id", "f-loop")).select_by_value(str(loop))
    assert drawn(browser, "g.node.loopbox") == {f"L{loop}"}
    assert not drawn(browser) & inside
    assert browser.find_element("css selector", "g.node.loopbox").text.replace("\n", " ") == \
        f"loop %{loop} {len(inside)} nodes"
    Select(browser.find_element("id", "f-loop")).select_by_value("")

    # one block of the schedule
    click_phase(browser, "schedule")
    sched = x.phase("schedule")
    body = max(sched["blocks"], key=lambda b: len(b["nodes"]))
    Select(browser.find_element("id", "f-block")).select_by_value(str(body["id"]))
    assert drawn(browser) == {str(i) for i in body["nodes"]}
    assert "B" in browser.find_element("id", "text").text  # the block listing
    Select(browser.find_element("id", "f-block")).select_by_value("")

    # diff: what sccp removed, drawn as removed nodes, and what it retyped
    click_phase(browser, "sccp")
    browser.find_element("id", "f-diff").click()
    diff = x.phase("sccp")["diff"]
    assert drawn(browser, "g.node.removed") == {str(r["id"]) for r in diff["removed"]}
    assert drawn(browser, "g.node.added") == {str(i) for i in diff["added"]}
    assert "diff against " in browser.find_element("id", "status").text
    browser.find_element("id", "f-diff").click()

    # search by label and by id
    search = browser.find_element("id", "search")
    search.send_keys("Phi")
    phis = {str(r["id"]) for r in x.phase("sccp")["nodes"] if r["cls"] == "Phi"}
    assert phis and drawn(browser, "g.node.match") == phis
    search.clear()
    search.send_keys(f"%{add['id']}\n")
    assert drawn(browser, "g.node.selected") == {str(add["id"])}

    # the kernel phase shows the generated source instead of a graph
    click_phase(browser, "kernel")
    assert "def scaled_sum(" in browser.find_element("id", "text").text
    assert not browser.find_element("id", "graph").is_displayed()
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]


def test_a_gradient_graph_in_a_browser_is_made_readable_by_filters(browser, tmp_path):
    a = np.linspace(0.5, 40.0, 8)
    df = son.grad(sqrt_sum)
    df(a)
    x = son.explore(df.graph)
    browser.get(x.save(tmp_path / "grad.html").as_uri())
    guards = x.phase("guards")
    assert len(shown(browser)) == len(guards["nodes"]) > 100
    from selenium.webdriver.support.ui import Select

    # every outermost loop folded to one box: the forward loop and the backward (adjoint) loop
    Select(browser.find_element("id", "f-loop")).select_by_value("all")
    outermost = {r["loops"][-1] for r in guards["nodes"] if r.get("loops")}
    assert len(outermost) >= 2
    assert drawn(browser, "g.node.loopbox") == {f"L{h}" for h in outermost}
    folded = len(shown(browser))
    assert folded < len(guards["nodes"]) // 2
    browser.find_element("id", "f-const").click()
    assert len(shown(browser)) < folded
    Select(browser.find_element("id", "f-loop")).select_by_value("")
    browser.find_element("id", "f-const").click()
    # or the nodes within two hops of one node
    mul = next(r for r in guards["nodes"] if r["label"] == "*")
    browser.find_element("css selector", f'g.node[data-id="{mul["id"]}"]').click()
    hops = browser.find_element("id", "hops")
    hops.clear()
    hops.send_keys("2")
    near = len(shown(browser))
    assert mul["id"] in shown(browser) and 3 <= near < 40
    browser.save_screenshot(str(tmp_path / "grad.png"))
    assert not [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
