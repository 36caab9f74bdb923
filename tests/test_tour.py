"""The `son tour` command, the CLI's error handling, and the dot renderer."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import graphviz
import pytest

import son
from son.__main__ import main
from son.nodes import MEM, Constant, Phi, Proj, Region, Store
from son.viz import edge_class, render, svg, to_dot
from son.viz.dot import quote

son.debug = True

#: a loop, a branch, an array store (so a memory Phi) and fault guards: every edge class
LOOP_BRANCH_STORE = '''
def double_positives(a: np.ndarray, n: int) -> float:
    s = 0.0
    for i in range(n):
        if a[i] > 0.0:
            a[i] = a[i] * 2.0
        s += a[i]
    return s - 1.0
'''


@pytest.fixture(scope="module")
def graph():
    return son.parse_source(LOOP_BRANCH_STORE)


def _edges(dot: str) -> list[tuple[int, int, str]]:
    """(def id, user id, attributes) for every edge line of ``dot``."""
    found = re.findall(r"^\s*n(\d+) -> n(\d+) \[(.*)\];$", dot, re.M)
    return [(int(a), int(b), attrs) for a, b, attrs in found]


def _node_attrs(dot: str) -> dict[int, str]:
    return {int(i): attrs for i, attrs in re.findall(r"^\s*n(\d+) \[(.*)\];$", dot, re.M)}


# ---------------------------------------------------------------- son tour
def test_tour_runs_draws_svg_and_agrees_with_cpython(tmp_path):
    out = tmp_path / "drawings"
    r = subprocess.run([sys.executable, "-m", "son", "tour", "--out", str(out)],
                       capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stderr
    text = (out / "tour.svg").read_text()
    assert text.startswith("<?xml") and "<svg" in text
    root = ET.fromstring(text.encode())
    assert root.tag.endswith("svg")
    assert "tour_example" in text  # the graph's name is the drawing's title
    m = re.search(r"^(\d+)/(\d+) agree with CPython$", r.stdout, re.M)
    assert m and m.group(1) == m.group(2) and int(m.group(2)) >= 5, r.stdout
    rows = [line.split() for line in r.stdout.splitlines() if line.rstrip().endswith((" yes", " NO"))]
    assert len(rows) == int(m.group(2)) and all(row[-1] == "yes" for row in rows)
    # the peephole graph is printed with fewer nodes than the raw one
    raw = int(re.search(r"raw graph .*: (\d+) nodes", r.stdout).group(1))
    opt = int(re.search(r"parse-time peephole .*: (\d+) nodes", r.stdout).group(1))
    assert opt < raw
    assert re.search(r"^rule hits: .*fold \d+", r.stdout, re.M)
    # the comparison: the optimistic passes prove `sign` constant, the peephole cannot
    table = {m.group(1): [int(x) for x in m.group(2).split()]
             for m in re.finditer(r"^(none|peephole|sccp|combined) +((?:\d+ +){6})", r.stdout, re.M)}
    assert set(table) == {"none", "peephole", "sccp", "combined"}
    assert table["sccp"][3] < table["peephole"][3]  # fewer phis
    # the Numba kernel's source is structured: the counted `while i < n` loop is a `for`
    # over a range, no block dispatch
    assert "@njit" in r.stdout and re.search(r"for v\d+ in range\(n\):", r.stdout) and "blk" not in r.stdout


def test_tour_default_out_dir_is_out_in_the_current_directory(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["tour"]) == 0
    assert (tmp_path / "out" / "tour.svg").is_file()
    assert "agree with CPython" in capsys.readouterr().out


def test_cli_user_error_is_one_line_and_exit_2(tmp_path, capsys):
    (tmp_path / "blocker").write_text("a file, not a directory")
    assert main(["tour", "--out", str(tmp_path / "blocker" / "sub")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("son: error: cannot create output directory") and err.count("\n") == 1


def test_tour_help_describes_every_step_the_tour_runs(capsys):
    with pytest.raises(SystemExit):
        main(["tour", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for step in ("raw parse", "parse-time peephole", "son.compare", "DIR/tour.svg", "Global Code Motion",
                 "Numba kernel", "against CPython"):
        assert step in text, step


def test_no_command_prints_help_and_exits_2(capsys):
    r = subprocess.run([sys.executable, "-m", "son"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr.startswith("usage: son") and "tour" in r.stderr and "options:" in r.stderr
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().err


def test_render_without_dot_names_the_fix(graph, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot here
    with pytest.raises(son.SonError, match=r"dot.*scripts/setup\.sh.*apt-get install graphviz"):
        render(graph, tmp_path / "g.svg")
    assert not (tmp_path / "g.svg").exists()


def test_render_rejects_unknown_format(graph, tmp_path):
    with pytest.raises(son.SonError, match="unknown output format 'svgg'"):
        render(graph, tmp_path / "g.svgg", format="svgg")


# ---------------------------------------------------------------- to_dot
def test_dot_is_rendered_by_graphviz(graph, tmp_path):
    text = graphviz.Source(to_dot(graph, types=True)).pipe(format="svg").decode()
    assert ET.fromstring(text.encode()).tag.endswith("svg")
    assert svg(graph).lstrip().startswith("<?xml")
    p = render(graph, tmp_path / "sub" / "g.png", format="png")
    assert p.read_bytes().startswith(b"\x89PNG")


def test_dot_has_every_live_node_and_edge_once(graph):
    dot = to_dot(graph)
    nodes = graph.nodes()
    assert set(_node_attrs(dot)) == {n.nid for n in nodes}
    want = sorted((x.nid, n.nid) for n in nodes for x in n.inputs if x is not None)
    assert sorted((a, b) for a, b, _ in _edges(dot)) == want


def test_control_edges_bold_memory_dashed_data_thin(graph):
    dot = to_dot(graph)
    by_id = {n.nid: n for n in graph.nodes()}
    seen = set()
    for a, b, attrs in _edges(dot):
        x = by_id[a]
        if x.is_cfg and by_id[b].is_cfg:
            assert "style=bold" in attrs, (x, by_id[b])
            seen.add("control")
        elif x.is_cfg:  # an anchor: Start's edge to a constant or a parameter is no control flow
            assert "style=dotted" in attrs and "bold" not in attrs, (x, by_id[b])
            seen.add("anchor")
        elif x.type == MEM:
            assert "style=dashed" in attrs, (x, by_id[b])
            seen.add("memory")
        else:
            assert "style=solid" in attrs and "bold" not in attrs and "dashed" not in attrs
            seen.add("data")
    assert seen == {"control", "anchor", "memory", "data"}


def test_memory_producers_are_classified_memory(graph):
    kinds = {type(n): edge_class(n) for n in graph.nodes() if type(n) in (Store, Phi, Proj)}
    assert kinds[Store] == "memory"
    mem_phis = [n for n in graph.nodes() if type(n) is Phi and n.type == MEM]
    assert mem_phis and all(edge_class(p) == "memory" for p in mem_phis)
    mem0 = next(u for u in graph.start.outputs if type(u) is Proj and u.index == 1)
    assert edge_class(mem0) == "memory"
    arr = graph.param(0)
    assert edge_class(arr) == "data"  # an array is a value, not the memory state


def test_cfg_nodes_are_boxes_constants_small_phis_beside_their_region(graph):
    dot = to_dot(graph)
    attrs = _node_attrs(dot)
    for n in graph.nodes():
        assert (f"%{n.nid} {n.label}" in attrs[n.nid]) or type(n) is Constant
        assert ("shape=box" in attrs[n.nid]) == n.is_cfg, n
        if type(n) is Constant:
            assert "fontsize=9" in attrs[n.nid]
    ranks = [set(map(int, re.findall(r"n(\d+);", line))) for line in dot.splitlines() if "rank=same" in line]
    regions = [n for n in graph.nodes() if isinstance(n, Region) and n.phis()]
    assert len(regions) == 2  # the loop and the if's merge
    for r in regions:
        assert {r.nid, *(p.nid for p in r.phis())} in ranks


def test_types_are_shown_only_when_asked(graph):
    loop_phi = next(n for n in graph.nodes() if type(n) is Phi and n.type == MEM)
    assert f'label="%{loop_phi.nid} Phi\\nmem"' in to_dot(graph, types=True)
    assert f'label="%{loop_phi.nid} Phi"' in to_dot(graph)


def test_operand_order_is_labelled(graph):
    sub = next(n for n in graph.nodes() if n.label == "-")
    labels = {a: attrs for a, b, attrs in _edges(to_dot(graph)) if b == sub.nid}
    assert 'headlabel="1"' in labels[sub.inputs[1].nid]
    assert 'headlabel="2"' in labels[sub.inputs[2].nid]


def test_labels_are_escaped_and_shown_verbatim():
    text = 'a "b" \\ c\nd'
    assert quote(text) == '"a \\"b\\" \\\\ c\\nd"'
    drawn = graphviz.Source(f"digraph {{ x [label={quote(text)}]; }}").pipe(format="svg").decode()
    assert '>a &quot;b&quot; \\ c</text>' in drawn and ">d</text>" in drawn
