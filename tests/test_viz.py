"""son.viz: dot options, schedule drawings, graph diffs, networkx export, Jupyter hooks.

Every drawing is handed to Graphviz (``dot`` is installed here and in CI) and the
SVG is read back: the node titles in the SVG are the nodes the dot text declared.
"""

from __future__ import annotations

import os
import re
import subprocess
import xml.etree.ElementTree as ET

import corpus
import corpus_suites
import networkx as nx
import pytest

import son
from son.nodes import CFGNode, Constant, If, Loop, Phi, constant, ir
from son.schedule import schedule
from son.viz import Diff, diff, edge_class, schedule_dot, svg, to_dot, to_networkx
from son.viz import jupyter as viz_jupyter
from son.viz.dot import EDGE_STYLE

son.debug = True

#: a loop, a branch, an array store (memory Phis) and fault guards: every node kind
LOOP_BRANCH_STORE = '''
def double_positives(a: np.ndarray, n: int) -> float:
    s = 0.0
    for i in range(n):
        if a[i] > 0.0:
            a[i] = a[i] * 2.0
        s += a[i]
    return s - 1.0
'''

FOLDS = '''
def folds(a: int):
    return (2 * 3 + a - a) * 1 + 0
'''

SVG_NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def graph():
    return son.parse_source(LOOP_BRANCH_STORE)


@pytest.fixture(scope="module")
def sched(graph):
    return schedule(graph)


# ---------------------------------------------------------------- helpers
def edges(dot: str) -> list[tuple[str, str, str]]:
    """(definition, user, attributes) of every edge line of ``dot``."""
    return re.findall(r"^\s*(\w+) -> (\w+)(?: \[(.*)\])?;$", dot, re.M)


def node_attrs(dot: str) -> dict[str, str]:
    return dict(re.findall(r"^\s*(\w+) \[(label=.*)\];$", dot, re.M))


def rendered(dot: str) -> ET.Element:
    """Graphviz's SVG of ``dot``, parsed; fails on any error or warning of ``dot``."""
    r = subprocess.run(["dot", "-Tsvg"], input=dot.encode(), capture_output=True, timeout=60)
    assert r.returncode == 0 and not r.stderr, r.stderr.decode()
    return ET.fromstring(r.stdout)


def svg_titles(root: ET.Element, kind: str) -> list[str]:
    """The titles of the SVG groups of class ``kind`` (node, edge, cluster)."""
    return [g.find(f"{SVG_NS}title").text for g in root.iter(f"{SVG_NS}g") if g.get("class") == kind]


def colour(attrs: str) -> str:
    """The ``color`` attribute (not ``fontcolor``/``fillcolor``) of an attribute list."""
    (c,) = re.findall(r'(?:^|, )color="(#\w+)"', attrs)
    return c


def check_styles(g: son.Graph, dot: str) -> set[str]:
    """Every node and edge of ``dot`` follows the conventions; returns the edge classes seen."""
    by_name = {f"n{n.nid}": n for n in g.nodes()}
    for name, attrs in node_attrs(dot).items():
        n = by_name[name]
        assert attrs.startswith(f'label="%{n.nid} {"mod" if n.label == "%" else n.label}'), attrs
        assert ("shape=box" in attrs) == n.is_cfg, n
        if type(n) is Constant:
            assert "fontsize=9" in attrs
        if type(n) is Phi:
            assert 'fillcolor="#fff4cc"' in attrs
    seen = set()
    for a, b, attrs in edges(dot):
        cls = edge_class(by_name[a], by_name[b])
        want = {"control": "style=bold", "anchor": "style=dotted", "memory": "style=dashed",
                "data": "style=solid"}[cls]
        assert want in attrs, (a, b, attrs)
        seen.add(cls)
    return seen


# ---------------------------------------------------------------- to_dot options
def test_every_node_kind_and_edge_class_is_drawn_with_its_style(graph):
    dot = to_dot(graph, types=True)
    assert check_styles(graph, dot) == {"control", "anchor", "memory", "data"}
    kinds = {type(n) for n in graph.nodes()}
    assert {Loop, If, Phi, Constant} <= kinds and any(type(n).__name__ == "Store" for n in graph.nodes())
    root = rendered(dot)
    assert sorted(svg_titles(root, "node")) == sorted(f"n{n.nid}" for n in graph.nodes())


def test_hide_constants_leaves_out_exactly_the_constants_and_their_edges(graph):
    dot = to_dot(graph, hide_constants=True)
    kept = [n for n in graph.nodes() if type(n) is not Constant]
    assert len(kept) < len(graph.nodes())
    assert set(node_attrs(dot)) == {f"n{n.nid}" for n in kept}
    want = sorted((f"n{x.nid}", f"n{n.nid}") for n in kept for x in n.inputs
                  if x is not None and type(x) is not Constant)
    assert sorted((a, b) for a, b, _ in edges(dot)) == want
    check_styles(graph, dot)
    assert sorted(svg_titles(rendered(dot), "node")) == sorted(f"n{n.nid}" for n in kept)


def test_cfg_only_keeps_cfg_nodes_and_control_edges(graph):
    dot = to_dot(graph, cfg_only=True)
    cfg = [n for n in graph.nodes() if n.is_cfg]
    assert set(node_attrs(dot)) == {f"n{n.nid}" for n in cfg}
    assert all(isinstance(n, CFGNode) for n in cfg)
    assert check_styles(graph, dot) == {"control"}
    want = sorted((f"n{x.nid}", f"n{n.nid}") for n in cfg for x in n.inputs if x is not None and x.is_cfg)
    assert sorted((a, b) for a, b, _ in edges(dot)) == want
    rendered(dot)


def test_schedule_clusters_nodes_by_block(graph, sched):
    dot = to_dot(graph, types=True, schedule=sched)
    check_styles(graph, dot)
    clusters = re.findall(r"subgraph cluster_B(\d+) \{\n    label=\"B(\d+)  depth (\d+)\";.*?\n(.*?)\n  \}",
                          dot, re.S)
    by_id = {b.id: b for b in sched.blocks}
    placed = set()
    for cid, lid, depth, body in clusters:
        b = by_id[int(cid)]
        assert int(lid) == b.id and int(depth) == b.depth
        members = set(re.findall(r"^\s*(n\d+) \[", body, re.M))
        assert members == {f"n{n.nid}" for n in graph.nodes() if sched.block_of.get(n) is b}
        placed |= members
    assert {int(c[0]) for c in clusters} == {b.id for b in sched.blocks}
    assert max(b.depth for b in sched.blocks) == 1  # the loop's blocks say so
    # every node is declared once: in its block's cluster, or outside (Stop)
    assert sorted(node_attrs(dot)) == sorted(f"n{n.nid}" for n in graph.nodes())
    assert {n for n in graph.nodes() if f"n{n.nid}" not in placed} == {graph.stop}
    root = rendered(dot)
    assert sorted(svg_titles(root, "cluster")) == sorted(f"cluster_B{b.id}" for b in sched.blocks)


def test_render_and_svg_pass_options_on(graph, tmp_path):
    text = svg(graph, cfg_only=True)
    root = ET.fromstring(text.encode())
    assert sorted(svg_titles(root, "node")) == sorted(f"n{n.nid}" for n in graph.nodes() if n.is_cfg)
    p = son.viz.render(graph, tmp_path / "g.dot", format="dot", hide_constants=True)
    assert p.read_text() == to_dot(graph, hide_constants=True)


# ---------------------------------------------------------------- schedule_dot
def test_schedule_dot_lists_blocks_branches_back_edges_and_moves(sched):
    dot = schedule_dot(sched)
    boxes = dict(re.findall(r"^\s*B(\d+) \[label=\"(.*?)\"", dot, re.M))
    assert set(map(int, boxes)) == {b.id for b in sched.blocks}
    found = {(int(a[1:]), int(b[1:])): attrs for a, b, attrs in edges(dot)}
    assert set(found) == {(b.id, s.id) for b in sched.blocks for s in b.succs}
    backs = 0
    for b in sched.blocks:
        lines = boxes[str(b.id)].split("\\l")
        assert lines[0].startswith(f"B{b.id}  ") and lines[0].endswith(f"depth {b.depth}")
        for p in b.phis:  # each phi is listed under the title
            assert any(line.startswith(f"%{p.nid} = phi(") for line in lines)
        for n in b.nodes:
            assert any(line.startswith(f"%{n.nid} = ") for line in lines)
        if type(b.term) is If:
            assert 'label="T' in found[(b.id, b.succs[0].id)] and 'label="F' in found[(b.id, b.succs[1].id)]
        for s in b.succs:
            attrs = found[(b.id, s.id)]
            is_back = type(s.head) is Loop and s.head.back in b.cfg  # the Loop's back-edge input
            assert ("back" in attrs) == is_back, (b, s)
            if is_back:
                backs += 1
                # on a back edge each loop phi takes its back-edge input (Phi input 2)
                for p in s.phis:
                    v = p.inputs[2]
                    text = v.label if type(v) is Constant else f"%{v.nid}"
                    assert f"%{p.nid} <- {text}" in attrs
    assert backs == 1
    assert len(svg_titles(rendered(dot), "node")) == len(sched.blocks)


def test_schedule_svg_hook_draws_blocks(sched):
    text = viz_jupyter.schedule_svg(sched)
    assert text is not None
    assert len(svg_titles(ET.fromstring(text.encode()), "node")) == len(sched.blocks)


# ---------------------------------------------------------------- diff
def test_diff_of_raw_and_peephole_colours_exactly_the_changed_nodes():
    raw = son.parse_source(FOLDS, peephole=False)
    opt, _ = son.optimize(raw, "peephole")
    assert ir(raw) == "return (((((2*3)+a)-a)*1)+0)" and ir(opt) == "return 6"
    d = diff(raw, opt)
    raw_ids = {n.nid for n in raw.nodes()}
    opt_ids = {n.nid for n in opt.nodes()}
    assert d.removed == raw_ids - opt_ids and d.added == opt_ids - raw_ids and not d.retyped
    # all arithmetic, its constants and the unused parameter go; one constant 6 comes
    gone = {n.label for n in raw.nodes() if n.nid in d.removed}
    assert gone == {"a", "2", "3", "*", "+", "-", "1", "0"}
    (new,) = [n for n in opt.nodes() if n.nid in d.added]
    assert type(new) is Constant and new.value == 6
    dot = d.to_dot()
    attrs = node_attrs(dot)
    assert set(attrs) == {f"n{i}" for i in raw_ids | opt_ids}
    for i in raw_ids | opt_ids:
        a = attrs[f"n{i}"]
        if i in d.removed:
            assert colour(a) == "#c62828" and "dashed" in a
        elif i in d.added:
            assert colour(a) == "#2e7d32" and "dashed" not in a
        else:
            assert colour(a) == "#9e9e9e"
    for a, b, e in edges(dot):
        ia, ib = int(a[1:]), int(b[1:])
        if ia in d.removed or ib in d.removed:
            assert colour(e) == "#c62828"
        elif ia in d.added or ib in d.added:
            assert colour(e) == "#2e7d32"
        else:
            assert colour(e) == "#9e9e9e"
    # the Return's value edge changed: the old one red, the new one green
    ret = next(n for n in opt.nodes() if n.label == "Return")
    into_ret = {a: e for a, b, e in edges(dot) if b == f"n{ret.nid}" and 'headlabel="2"' in e}
    assert colour(into_ret[f"n{new.nid}"]) == "#2e7d32"
    assert len(into_ret) == 2
    root = rendered(dot)
    assert sorted(svg_titles(root, "node")) == sorted(attrs)
    assert "1 added" in dot and f"{len(d.removed)} removed" in dot
    assert str(d).splitlines()[1] == f"added:   %{new.nid}"


def test_diff_marks_retyped_nodes_with_old_and_new_type():
    g = son.parse_source('''
def f(a: int, b: int):
    return a * b + 1
''')
    h = g.copy()
    mul = next(n for n in h.nodes() if n.label == "*")
    mul.type = constant(42)  # what an analysis that proved the product would record
    d = diff(g, h)
    assert d.retyped == {mul.nid} and not d.removed and not d.added
    attrs = node_attrs(d.to_dot())[f"n{mul.nid}"]
    assert colour(attrs) == "#e67e00" and "int -> 42" in attrs
    assert isinstance(d, Diff) and d._repr_svg_().lstrip().startswith("<?xml")


def test_diff_of_unrelated_graphs_keeps_clashing_ids_apart():
    a = son.parse_source(FOLDS, peephole=False)
    b = son.parse_source("def g(x: float):\n    return x * x\n")
    d = diff(a, b)
    both = {n.nid for n in a.nodes()} & {n.nid for n in b.nodes()}
    clash = {i for i in both if i in d.removed and i in d.added}
    a_by, b_by = {n.nid: n for n in a.nodes()}, {n.nid: n for n in b.nodes()}
    assert clash == {i for i in both if type(a_by[i]) is not type(b_by[i])} != set()
    dot = d.to_dot()
    for i in clash:
        assert f"b{i}" in node_attrs(dot) and f"a{i}" in node_attrs(dot)
    rendered(dot)


# ---------------------------------------------------------------- networkx
def test_networkx_export_has_node_and_edge_attributes(graph, sched):
    G = graph.to_networkx(sched)
    assert isinstance(G, nx.MultiDiGraph)
    assert G.graph["name"] == "double_positives" and G.graph["start"] == graph.start.nid
    nodes = graph.nodes()
    assert set(G.nodes) == {n.nid for n in nodes}
    for n in nodes:
        d = G.nodes[n.nid]
        b = sched.block_of.get(n)
        assert d == {"kind": type(n).__name__, "label": n.label, "type": str(n.type), "is_cfg": n.is_cfg,
                     "block": b.id if b is not None else None}
    want = sorted((x.nid, n.nid, i, edge_class(x, n)) for n in nodes for i, x in enumerate(n.inputs)
                  if x is not None)
    got = sorted((u, v, d["index"], d["cls"]) for u, v, d in G.edges(data=True))
    assert got == want
    assert "block" not in to_networkx(graph).nodes[graph.start.nid]


def test_networkx_keeps_parallel_edges_of_a_square():
    g = son.parse_source("def sq(x: float):\n    return x * x\n")
    G = to_networkx(g)
    mul = next(n for n in g.nodes() if n.label == "*")
    x = g.param(0)
    assert G.number_of_edges(x.nid, mul.nid) == 2
    assert sorted(d["index"] for d in G.get_edge_data(x.nid, mul.nid).values()) == [1, 2]


def test_networkx_dominators_of_the_cfg_agree_with_the_schedule(graph, sched):
    G = to_networkx(graph)
    cfg = G.subgraph(n for n, d in G.nodes(data=True) if d["is_cfg"])
    idom = nx.immediate_dominators(cfg, graph.start.nid)
    by_id = {n.nid: n for n in graph.nodes()}
    checked = 0
    for b in sched.blocks[1:]:
        # walk up the node-level dominator tree until it leaves b: that is b's idom block
        x = b.head.nid
        while sched.block_of[by_id[x]] is b:
            x = idom[x]
        assert sched.block_of[by_id[x]] is b.idom, b
        checked += 1
    assert checked == len(sched.blocks) - 1 >= 5
    # Stop is reached from Start through control alone, and the data edges are acyclic
    # apart from the loop phis' back-edge inputs
    assert nx.has_path(cfg, graph.start.nid, graph.stop.nid)
    data = nx.DiGraph((u, v) for u, v, d in G.edges(data=True)
                      if d["cls"] != "control" and not (G.nodes[v]["kind"] == "Phi" and d["index"] == 2
                                                         and type(by_id[v].region) is Loop))
    order = {n: k for k, n in enumerate(nx.topological_sort(data))}
    assert all(order[u] < order[v] for u, v in data.edges)


# ---------------------------------------------------------------- Jupyter hooks
def test_graph_repr_svg_is_inline_svg_with_types(graph):
    text = graph._repr_svg_()
    root = ET.fromstring(text.encode())
    assert sorted(svg_titles(root, "node")) == sorted(f"n{n.nid}" for n in graph.nodes())
    assert "float64[]" in text  # types are shown


def test_graph_repr_svg_falls_back_to_text_without_dot_or_when_large(graph, monkeypatch, tmp_path):
    monkeypatch.setattr(viz_jupyter, "INLINE_LIMIT", len(graph) - 1)
    assert graph._repr_svg_() is None
    monkeypatch.setattr(viz_jupyter, "INLINE_LIMIT", len(graph))
    monkeypatch.setenv("PATH", str(tmp_path))
    assert graph._repr_svg_() is None


# ---------------------------------------------------------------- the whole corpus
def test_every_corpus_function_renders_in_every_mode():
    """dot 2.43 hangs or crashes on some clustered layouts (ordering=in, rank=same):
    every corpus graph is drawn in every mode, each within a time limit."""
    fns = [c.fn for c in corpus.CASES + corpus_suites.CASES]
    texts = []
    for fn in fns:
        raw = son.parse(fn, peephole=False)
        g, _ = son.optimize(raw, "peephole")
        s = schedule(g)
        texts += [to_dot(g, schedule=s), schedule_dot(s), diff(raw, g).to_dot(types=True)]
    # one dot process lays out many graphs; the limit turns a hang into a failure
    batch = 60
    for k in range(0, len(texts), batch):
        chunk = texts[k:k + batch]
        r = subprocess.run(["dot", "-Tsvg"], input="".join(chunk).encode(), capture_output=True, timeout=120)
        assert r.returncode == 0 and not r.stderr, r.stderr.decode()
        assert r.stdout.count(b"</svg>") == len(chunk)
    assert len(texts) == 3 * len(fns) >= 600


# ---------------------------------------------------------------- render timeout
def test_render_and_svg_give_up_after_the_timeout_naming_the_size(graph, monkeypatch, tmp_path):
    from son.viz import render

    fake = tmp_path / "dot"  # a Graphviz that never finishes
    fake.write_text("#!/bin/sh\nsleep 30\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:{os.environ['PATH']}")
    n_nodes, n_edges = len(graph), to_dot(graph).count(" -> ")
    with pytest.raises(son.SonError) as e:
        render(graph, tmp_path / "out" / "g.svg", timeout=0.3)
    msg = str(e.value)
    assert f"drawing double_positives ({n_nodes} nodes, {n_edges} edges) within 0.3 s" in msg
    assert "cfg_only=True" in msg and "hide_constants=True" in msg
    assert not (tmp_path / "out" / "g.svg").exists()
    with pytest.raises(son.SonError, match=r"\d+ nodes, \d+ edges\) within 0.2 s"):
        svg(graph, cfg_only=True, timeout=0.2)
    monkeypatch.setattr(viz_jupyter, "INLINE_TIMEOUT", 0.2)
    assert viz_jupyter.graph_svg(graph) is None  # Jupyter shows the text repr instead


def test_render_within_the_timeout_draws(graph, tmp_path):
    from son.viz import render

    path = render(graph, tmp_path / "g.svg", timeout=60)
    assert ET.fromstring(path.read_bytes()).tag.endswith("svg")


# ---------------------------------------------------------------- reading a drawing: anchors, mod, the key
_MOD = "def f(a: int, b: int):\n    return (a % b) + 3\n"


def test_starts_edges_to_constants_and_parameters_are_not_drawn_as_control_flow():
    g = son.parse_source(_MOD)
    dot = to_dot(g)
    by_name = {f"n{n.nid}": n for n in g.nodes()}
    from_start = {by_name[b]: attrs for a, b, attrs in edges(dot) if by_name[a] is g.start}
    anchored = [n for n in from_start if not n.is_cfg]
    assert {type(n) for n in anchored} >= {Constant, type(g.param(0))}
    for n in anchored:
        assert "style=dotted" in from_start[n] and "bold" not in from_start[n], (n, from_start[n])
    assert any(n.is_cfg and "style=bold" in a for n, a in from_start.items())  # Start -> its Ctrl
    G = to_networkx(g)
    assert G.get_edge_data(g.start.nid, g.param(0).nid)[0]["cls"] == "anchor"


def test_the_modulo_operator_never_reads_as_a_node_id():
    dot = to_dot(son.parse_source(_MOD))
    labels = re.findall(r'label="(%\d+ [^"]*)"', dot)
    assert any(lb.endswith(" mod") for lb in labels), labels
    assert not [lb for lb in labels if re.match(r"%\d+ %", lb)], labels


def test_operand_index_labels_turn_to_either_side_of_their_edges():
    labelled = [a for _, _, a in edges(to_dot(son.parse_source(_MOD))) if "headlabel" in a]
    sides = {re.search(r'headlabel="(\d+)"', a)[1]: re.search(r"labelangle=(-?\d+)", a)[1] for a in labelled}
    assert sides["1"] != sides["2"]


def test_the_legend_keys_every_edge_style_and_node_colour_and_moves_no_node(graph):
    from son.viz.dot import EDGE_ATTRS, legend_label

    plain, keyed = to_dot(graph, types=True), to_dot(graph, types=True, legend=True)
    assert "control flow" not in plain and "label=<" not in plain
    key = legend_label()
    assert f"label={key}" in keyed
    for what in ("control flow", "anchor", "memory", "data", "Phi", "CFG node", "constant", "mod"):
        assert what in key, what
    for cls in ("control", "anchor", "memory"):  # each coloured as its edges are
        assert EDGE_ATTRS[cls]["color"].strip('"') in key, cls
    for fill in ('"#e8eefc"', '"#fff4cc"'):  # CFG boxes and Phis, as the nodes are filled
        assert f"BGCOLOR={fill}" in key
    assert [ln for ln in keyed.splitlines() if "label=<" not in ln] == plain.splitlines()
    root = rendered(keyed)
    assert "control flow" in ET.tostring(root, encoding="unicode")
    assert sorted(svg_titles(root, "node")) == sorted(f"n{n.nid}" for n in graph.nodes())


def test_the_legend_is_on_in_jupyter_and_in_son_dot_and_drawn_alone_by_legend(graph, tmp_path, capsys):
    from son.__main__ import main
    from son.viz import legend

    assert "control flow" in viz_jupyter.graph_svg(graph)
    prog = tmp_path / "prog.py"
    prog.write_text(_MOD)
    assert main(["dot", f"{prog}:f"]) == 0
    assert "control flow" in capsys.readouterr().out
    assert main(["dot", f"{prog}:f", "--no-legend"]) == 0
    assert "control flow" not in capsys.readouterr().out
    alone = legend()
    for cls in ("control", "anchor", "memory", "data"):
        assert f'label="{cls}", {EDGE_STYLE[cls]}' in alone, cls
    rendered(alone)
