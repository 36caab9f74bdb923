"""The Graph and its nodes: def-use symmetry through every edit, immediate and
iterative killing of dead nodes, ``copy``, ``dce`` of dead cycles, the verifier
catching each broken invariant, and deterministic printing."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import pytest

import son
from son.nodes import (
    Add,
    Constant,
    CProj,
    Graph,
    Loop,
    Mul,
    Neg,
    Phi,
    Proj,
    Region,
    Return,
    Sub,
    VerifyError,
    ir,
)
from son.nodes.types import CTRL, INT, NUMBER, constant

BRANCHY = """
def f(a: int, b: float, n: int):
    s = 0.0
    i = 0
    while i < n:
        if a > i:
            s = s + b * i
        else:
            s = s - math.sqrt(b * b + 1.0)
        i += 1
    return s + a // 3
"""


def attached_edges_are_symmetric(g) -> None:
    """Our own check (independent of the verifier): inputs and outputs agree with
    multiplicity on every attached node, and no attached node is killed."""
    for n in g.attached():
        assert n.inputs is not None
        for x in set(x for x in n.inputs if x is not None):
            assert x.inputs is not None, f"{n!r} uses killed {x!r}"
            assert x.outputs.get(n, 0) == n.inputs.count(x), (n, x)
        for u, k in n.outputs.items():
            assert u.inputs is not None and u.inputs.count(n) == k, (n, u)


def function(params, value_of):
    """A hand-built ``def f(params): return value_of(*param projections)``."""
    g = Graph("f", params)
    ctrl, mem = CProj(g, g.start, 0), Proj(g, g.start, 1, "mem")
    ps = [Proj(g, g.start, 2 + i, name) for i, (name, _) in enumerate(params)]
    ret = Return(g, ctrl, mem, value_of(g, *ps))
    g.stop.add_input(ret)
    return g, ret, ps


# ---------------------------------------------------------------- edits keep edges exact
def test_set_input_moves_the_use_and_kills_the_orphan():
    g, ret, (a, b) = function([("a", INT), ("b", INT)], lambda g, a, b: Add(g, Neg(g, a), b))
    add = ret.value
    neg = add.lhs
    add.set_input(1, b)
    assert neg.dead and neg not in a.outputs  # killed at once, its use of a dropped
    assert add.inputs[1:] == [b, b] and b.outputs[add] == 2
    attached_edges_are_symmetric(g)
    g.verify()
    assert son.interpret(g, 5, 4) == 8


def test_set_input_to_the_same_node_is_a_no_op():
    g, ret, (a,) = function([("a", INT)], lambda g, a: Neg(g, a))
    before = dict(a.outputs)
    ret.value.set_input(1, a)
    assert a.outputs == before
    g.verify()


def test_dead_expression_tree_dies_with_its_last_use():
    g, ret, (a, b) = function([("a", INT), ("b", INT)],
                              lambda g, a, b: Mul(g, Add(g, a, Constant(g, constant(7))), Sub(g, b, a)))
    tree = [ret.value, ret.value.lhs, ret.value.rhs, ret.value.lhs.rhs]
    ret.set_input(2, b)
    assert all(n.dead for n in tree)
    assert not a.outputs and a.dead  # a was used only inside the tree, and is not pinned
    assert set(b.outputs) == {ret}
    attached_edges_are_symmetric(g)
    g.verify()
    assert ir(g) == "return b"


def test_pinned_node_survives_losing_its_users():
    g, ret, (a, b) = function([("a", INT), ("b", INT)], lambda g, a, b: Neg(g, a))
    neg = ret.value.keep()
    ret.set_input(2, b)
    assert not neg.dead and not neg.outputs
    neg.unkeep()
    assert neg.is_unused()
    neg.kill()
    assert neg.dead and not a.outputs


def test_add_and_remove_input_keep_edges_exact():
    g = Graph("f", [("a", INT)])
    a = Proj(g, g.start, 2, "a").keep()
    n = Add(g, a, a).keep()
    assert a.outputs[n] == 2
    n.add_input(a)
    assert a.outputs[n] == 3
    n.remove_input(3)
    n.remove_input(2)
    assert a.outputs[n] == 1 and n.inputs == [None, a]
    k = Constant(g, constant(4))
    n.add_input(k)
    n.remove_input(2)
    assert k.dead  # its only use went away
    attached_edges_are_symmetric(g)


def test_subsume_redirects_every_use_with_multiplicity():
    g, ret, (a,) = function([("a", INT)], lambda g, a: Mul(g, Neg(g, a), Neg(g, a)))
    n1, n2 = ret.value.lhs, ret.value.rhs
    n1.subsume(n2)
    assert n1.dead
    assert ret.value.inputs[1:] == [n2, n2] and n2.outputs[ret.value] == 2
    assert a.outputs == {n2: 1}
    attached_edges_are_symmetric(g)
    g.verify()
    assert son.interpret(g, 3) == 9


def test_subsume_by_a_node_whose_only_use_it_was():
    g, ret, (a,) = function([("a", INT)], lambda g, a: Neg(g, Neg(g, a)))
    outer = ret.value
    outer.subsume(outer.x.x)  # -(-a) -> a: the inner Neg dies with outer
    assert ret.value is a and outer.dead
    attached_edges_are_symmetric(g)
    g.verify()
    assert ir(g) == "return a"


def test_region_remove_input_with_its_phi():
    g = son.parse_source("def f(a: int):\n    if a > 0:\n        x = 1\n    else:\n        x = 2\n"
                         "    return x")
    (region,) = [n for n in g.nodes() if type(n) is Region]
    (phi,) = [p for p in region.phis() if p.type != son.nodes.MEM]
    phi.remove_input(2)
    region.remove_input(2)
    attached_edges_are_symmetric(g)
    g.dce()
    g.verify()


# ---------------------------------------------------------------- kill is iterative
def test_kill_of_a_long_chain_is_iterative():
    g = Graph("f", [("a", INT)])
    a = Proj(g, g.start, 2, "a").keep()
    x = a
    chain = []
    for _ in range(100_000):
        x = Neg(g, x)
        chain.append(x)
    x.kill()
    assert all(n.dead for n in chain)
    assert not a.outputs and not a.dead


def test_dropping_the_last_use_of_a_long_chain_is_iterative():
    def deep(g, a):
        x = a
        for _ in range(100_000):
            x = Neg(g, x)
        return x

    g, ret, (a,) = function([("a", INT)], deep)
    ret.set_input(2, Constant(g, constant(0)))
    assert len(g.attached()) < 10
    g.verify()


# ---------------------------------------------------------------- copy
def _shape(g):
    out = {}
    for n in g.nodes():
        out[n.nid] = (type(n), n.label, n.type, n.payload(),
                      tuple(x.nid if x is not None else None for x in n.inputs),
                      tuple(sorted((u.nid, k) for u, k in n.outputs.items())))
    return out


def test_copy_preserves_ids_labels_types_and_structure():
    g = son.parse_source(BRANCHY)
    c = g.copy()
    assert _shape(c) == _shape(g)
    assert c.start.nid == g.start.nid and c.stop.nid == g.stop.nid
    assert c.params == g.params and c.name == g.name and c.rule_hits == g.rule_hits
    assert str(c) == str(g)
    assert not (set(c.nodes()) & set(g.nodes()))
    assert all(n.graph is c for n in c.nodes())
    assert all(v.graph is c for v in c.gvn.values())
    c.verify()
    for args in [(3, 0.5, 5), (-1, -2.0, 3), (2, float("nan"), 0)]:
        assert repr(son.interpret(c, *args)) == repr(son.interpret(g, *args))


def test_copy_is_independent_of_the_original():
    g = son.parse_source("def f(a: int, b: int): return (a + 1) * b")
    text = str(g)
    c = g.copy()
    (ret,) = c.returns()
    ret.set_input(2, c.param(1))
    c.rule_hits["made_up"] += 1
    c.dce()
    c.verify()
    assert ir(c) == "return b"
    assert str(g) == text and "made_up" not in g.rule_hits
    g.verify()
    assert son.interpret(g, 2, 5) == 15
    # new nodes in the copy take fresh ids that the original does not have
    n = Neg(c, c.param(1))
    assert n.nid >= g._next_id


# ---------------------------------------------------------------- dce
def _with_dead_cycle():
    g, ret, (a,) = function([("a", INT)], lambda g, a: Neg(g, a))
    entry = ret.inputs[0]
    loop = Loop(g, entry, None)
    phi = Phi(g, loop, a, None)
    inc = Add(g, phi, Constant(g, constant(1)))
    phi.set_input(2, inc)
    loop.set_input(2, loop)  # a self loop: nothing reaches Stop from here
    return g, [loop, phi, inc]


def test_dce_removes_a_dead_cycle():
    g, cycle = _with_dead_cycle()
    assert all(not n.dead for n in cycle)  # each keeps the other alive: kill cannot see it
    with pytest.raises(VerifyError):
        g.verify()
    removed = g.dce()
    assert removed >= len(cycle)
    assert all(n.dead for n in cycle)
    assert not (set(cycle) & g.attached())
    attached_edges_are_symmetric(g)
    g.verify()
    assert son.interpret(g, 4) == -4


def test_dce_on_a_clean_graph_removes_nothing():
    g = son.parse_source(BRANCHY)
    before = _shape(g)
    assert g.dce() == 0
    assert _shape(g) == before


# ---------------------------------------------------------------- the verifier
def test_verifier_accepts_parsed_graphs():
    son.parse_source(BRANCHY).verify()


def test_verifier_catches_an_asymmetric_edge():
    g, ret, (a, b) = function([("a", INT), ("b", INT)], lambda g, a, b: Add(g, a, a))
    ret.value.inputs[2] = b  # bypasses set_input: b does not know, a still counts two uses
    with pytest.raises(VerifyError, match="user"):
        g.verify()


def test_verifier_catches_a_missing_output():
    g, ret, (a,) = function([("a", INT)], lambda g, a: Neg(g, a))
    del a.outputs[ret.value]
    with pytest.raises(VerifyError):
        g.verify()


def test_verifier_catches_phi_arity_mismatch():
    g = son.parse_source("def f(a: int):\n    if a > 0:\n        x = a\n    else:\n        x = -a\n"
                         "    return x")
    phi = next(n for n in g.nodes() if type(n) is Phi and n.type == INT)
    phi.add_input(phi.inputs[1])
    with pytest.raises(VerifyError, match="Phi"):
        g.verify()


def test_verifier_catches_a_type_more_precise_than_compute():
    g = son.parse_source("def f(a: int, b: int): return a + b")
    (ret,) = g.returns()
    ret.value.type = constant(3)
    with pytest.raises(VerifyError, match="precise"):
        g.verify()


def test_verifier_allows_a_type_less_precise_than_compute():
    g = son.parse_source("def f(a: int, b: int): return a + b")
    (ret,) = g.returns()
    ret.value.type = NUMBER
    g.verify()


def test_verifier_catches_a_dead_attached_node():
    g = son.parse_source("def f(a: int): return a + 1")
    Neg(g, g.param(0))  # built, never used: attached through a's outputs, not live
    with pytest.raises(VerifyError, match="dead"):
        g.verify()
    g.dce()
    g.verify()


def test_verifier_catches_a_non_exit_at_stop():
    g = son.parse_source("def f(a: int): return a + 1")
    g.stop.add_input(g.param(0))
    with pytest.raises(VerifyError, match="Stop"):
        g.verify()


def test_verifier_catches_data_as_control():
    g, ret, (a,) = function([("a", INT)], lambda g, a: Neg(g, a))
    ret.set_input(0, a)
    with pytest.raises(VerifyError, match="control"):
        g.verify()


def test_verifier_reports_a_killed_node_still_in_use():
    """A use of a killed node (inputs None) is a broken invariant the verifier names,
    not a crash inside the graph walk."""
    g, ret, (a,) = function([("a", INT)], lambda g, a: Neg(g, Neg(g, a)))
    inner = ret.value.x
    inner.inputs = None  # as if killed while still used
    with pytest.raises(VerifyError):
        g.verify()


def test_parse_runs_the_verifier_in_debug_mode(monkeypatch):
    calls = []
    real = Graph.verify
    monkeypatch.setattr(Graph, "verify", lambda self: (calls.append(self), real(self)))
    monkeypatch.setattr(son, "debug", True)
    son.parse_source("def f(a: int): return a")
    assert len(calls) == 1
    monkeypatch.setattr(son, "debug", False)
    son.parse_source("def f(a: int): return a")
    assert len(calls) == 1


# ---------------------------------------------------------------- walks and views
def test_nodes_are_live_in_id_order():
    g = son.parse_source(BRANCHY)
    ids = [n.nid for n in g.nodes()]
    assert ids == sorted(ids) and len(ids) == len(set(ids)) == len(g)
    assert g.start in g.nodes() and g.stop in g.nodes()
    assert set(g.nodes()) == g.live()


def test_graph_views():
    g = son.parse_source("def f(a: int, b: float): return a + b")
    assert g.return_type == son.nodes.FLOAT
    assert [type(r) for r in g.returns()] == [Return]
    assert g.param(0).name == "a" and g.param(1).name == "b"
    g2 = son.parse_source("def f(a: int, b: float): return b")
    assert g2.param(0) is None
    assert g.stop.type == CTRL
    assert repr(g).startswith("<Graph f:")


# ---------------------------------------------------------------- printing
def test_printing_is_deterministic():
    g1, g2 = son.parse_source(BRANCHY), son.parse_source(BRANCHY)
    assert str(g1) == str(g2) and ir(g1) == ir(g2) and ir(g1, types=True) == ir(g2, types=True)
    assert str(g1.copy()) == str(g1)


def test_printing_does_not_depend_on_hash_seed():
    code = ("import son\nsrc = " + repr(BRANCHY) +
            "\ng = son.parse_source(src)\nprint(g)\nprint(son.nodes.ir(g, types=True))\n"
            "print(sorted(son.parse_source(src).rule_hits.items()))")
    outs = []
    for seed in ("1", "12345"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        outs.append(r.stdout)
    assert outs[0] == outs[1] and "return" in outs[0]


def test_header_lists_parameters_and_return_type():
    g = son.parse_source("def f(a: int, b): return a")
    head = str(g).splitlines()[0]
    assert head == "def f(a: int, b: number) -> int:"


def test_rule_hits_are_a_counter():
    g = son.parse_source("def f(a: int): return a + 0")
    assert isinstance(g.rule_hits, Counter)
    assert g.rule_hits["add_zero"] == 1
