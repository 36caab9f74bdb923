"""``son.Pipeline``: one value, resolved in one place, accepted by every entry point.

Every way of writing a pipeline (a name, a pass string, a sequence, a
``Pipeline``) must mean the same thing in ``son.optimize``, ``son.compare``,
``son.trace``, ``son.jit``, ``son.grad`` and the CLI, and an unknown name must fail
the same way in all of them.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from test_cli import son_cli

import son
from son.driver import PIPELINES, Pipeline
from son.nodes import Constant, OutOfBounds, Shl
from son.nodes.types import constant
from son.peephole import DEFAULT_RULES

SPECS = [*PIPELINES, "", "peephole,sccp", "combined-only,dce", ("sccp", "dce"),
         Pipeline.of("combined").but(name="mine")]


def loop_sum(a, n):
    s = 0.0
    for i in range(n):
        if i % 2 == 0:
            s += a * i
        else:
            s -= 1.0
    return s + 2.0 * 3.0


def _args():
    return 1.25, 7


@pytest.mark.parametrize("spec", SPECS, ids=str)
def test_every_pipeline_works_in_every_entry_point(spec):
    expected = loop_sum(*_args())
    g = son.parse(loop_sum, argtypes=["float", "int"])
    h, stats = son.optimize(g, spec)
    assert son.interpret(h, *_args()) == expected
    assert len(stats) == len(Pipeline.of(spec).passes)
    row = son.compare(loop_sum, [spec], argtypes=["float", "int"])
    assert son.interpret(row.rows[0].graph, *_args()) == expected
    t = son.trace(loop_sum, spec, snapshots=False, argtypes=["float", "int"])
    assert son.interpret(t.final, *_args()) == expected
    assert son.jit(loop_sum, pipeline=spec)(*_args()) == expected
    d = son.grad(loop_sum, pipeline=spec)(*_args())
    assert math.isclose(d, sum(i for i in range(7) if i % 2 == 0))


@pytest.mark.parametrize("spec", ["none", "peephole", "sccp", "combined", "peephole,sccp"])
def test_every_pipeline_works_in_the_cli(spec, tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text("def f(a, n):\n    s = 0\n    for i in range(n):\n        s += a * i\n    return s\n")
    r = son_cli("run", f"{prog}:f", "3", "4", "--pipeline", spec)
    assert r.returncode == 0 and r.stdout.strip() == "18"
    r = son_cli("ir", f"{prog}:f", "--pipeline", spec)
    assert r.returncode == 0 and "return" in r.stdout


def test_a_named_pipeline_says_how_to_parse():
    none, peep = Pipeline.of("none"), Pipeline.of("peephole")
    assert (none.peephole, none.passes) == (False, ())
    assert peep.peephole and [p.name for p in peep.passes] == ["peephole"]
    # any other string: passes on the raw parse
    p = Pipeline.of("peephole,sccp")
    assert not p.peephole and [x.name for x in p.passes] == ["peephole", "sccp"]
    assert Pipeline.of(None) == Pipeline.of(son.driver.DEFAULT_PIPELINE)
    assert Pipeline.of(p) is p


@pytest.mark.parametrize("call", [
    lambda: son.optimize(son.parse(loop_sum), "nosuch"),
    lambda: son.compare(loop_sum, ["nosuch"]),
    lambda: son.trace(loop_sum, "nosuch"),
    lambda: son.jit(loop_sum, pipeline="nosuch"),
    lambda: son.grad(loop_sum, pipeline="nosuch"),
    lambda: son.value_and_grad(loop_sum, pipeline="sccp,nosuch"),
])
def test_an_unknown_pipeline_fails_the_same_way_everywhere(call):
    with pytest.raises(son.SonError) as e:
        call()
    msg = str(e.value)
    assert "unknown pipeline or pass 'nosuch'" in msg
    assert all(name in msg for name in PIPELINES) and "combined-only" in msg


def test_the_cli_gives_the_same_message(tmp_path):
    prog = tmp_path / "prog.py"
    prog.write_text("def f(a):\n    return a + 1\n")
    r = son_cli("run", f"{prog}:f", "3", "--pipeline", "nosuch")
    assert r.returncode == 2 and "unknown pipeline or pass 'nosuch'" in r.stderr


def oob(a, i):
    return a[i]


def test_kernel_semantics_travel_with_the_pipeline():
    a = np.arange(3.0)
    with pytest.raises(IndexError):
        son.jit(oob)(a, 5)
    unchecked = Pipeline.of("sccp").but(boundscheck=False)
    k = son.jit(oob, pipeline=unchecked)
    assert k(a, 1) == 1.0 and k.pipeline.boundscheck is False
    checks = lambda g: sum(type(n) is OutOfBounds for n in g.live())  # noqa: E731
    assert checks(k.graph) == 0 and checks(son.jit(oob).graph_for(["float64[]", "int"])) == 1
    # jit's keyword wins over the pipeline's field
    assert son.jit(oob, pipeline=unchecked, boundscheck=True).pipeline.boundscheck is True


def shl4(a):
    return a << 4


def test_rules_travel_with_the_pipeline():
    """A pipeline carrying a rule set parses and optimizes with it, and nothing else does."""
    mine = DEFAULT_RULES.copy("mine")

    @mine.rule(Shl, first=True)
    def shl_is_wrong(n):  # a deliberately wrong rule: x << c -> 16
        if type(n.inputs[2]) is Constant:
            return Constant(n.graph, constant(16))
        return None

    p = Pipeline.of("sccp").but(rules=mine)
    assert son.interpret(p.build(shl4, argtypes=["int"]), 3) == 16
    assert son.jit(shl4, pipeline=p)(3) == 16
    # nothing else sees it
    assert son.interpret(Pipeline.of("sccp").build(shl4, argtypes=["int"]), 3) == 48
    assert son.jit(shl4)(3) == 48 and son.interpret(son.parse(shl4), 3) == 48
