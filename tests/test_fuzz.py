"""The differential fuzzer (son.fuzz): generator, oracle, shrinking, campaigns.

The fixed-seed campaign runs 500 generated programs through CPython and every
stage (raw and peephole parses, the ``peephole``, ``sccp``, ``combined`` and a
user pipeline under the interpreter, and a bounds-checked Numba kernel) and
asserts that all agree.  The other tests check that the oracle can fail: a
deliberately wrong pass is caught, shrunk to a few lines and written as a
regression case that fails the same way.
"""

from __future__ import annotations

import ast
import math
import os
import re
import runpy
import subprocess
import sys
import tempfile
import textwrap
import time
import warnings

import numpy as np
import pytest

import son
from son.driver.passes import PASSES
from son.fuzz import PIPELINES, check, generate
from son.fuzz.campaign import run
from son.fuzz.oracle import DEVIATIONS, _Runtime, canon, expected_outcomes, reached_lines
from son.fuzz.shrinker import args_literal, regression_text, shrink
from son.nodes import Constant
from son.nodes.types import constant

CAMPAIGN_SEED = 20261123
CAMPAIGN_N = 500
#: the default run's campaign (the slow suite runs CAMPAIGN_N)
CAMPAIGN_QUICK = 50


def test_generator_is_reproducible_from_seed_and_index():
    a, b, c = generate(5, 7), generate(5, 7), generate(5, 8)
    assert a.source == b.source and args_literal(a.args) == args_literal(b.args)
    assert a.source != c.source


def test_generator_covers_the_subset():
    """Over a few hundred programs every construct the generator promises appears."""
    text = "\n".join(generate(11, i).source for i in range(300))
    for construct in ("while ", "for ", "range(", "break", "continue", "elif ", "else:", "return",
                      " if ", " and ", " or ", "not ", "math.", "np.zeros(", "np.ones(", "np.empty(",
                      "len(", "h0(", "h1(", "//", "%", "<<", "**", "npt.NDArray[np.int64]", "np.ndarray",
                      "9223372036854775807", "-0.0", "math.inf", ", -1):"):
        assert construct in text, construct
    tree = ast.parse(text)
    assert any(isinstance(n, ast.Tuple) and isinstance(n.ctx, ast.Store) for n in ast.walk(tree))
    assert any(isinstance(n, ast.Compare) and len(n.ops) == 2 for n in ast.walk(tree))
    args = [a for i in range(300) for t in generate(11, i).args for a in t]
    assert any(isinstance(a, float) and math.isnan(a) for a in args)
    assert any(isinstance(a, np.ndarray) and len(a) == 0 for a in args)
    ints = {a for a in args if type(a) is int}
    assert 2 ** 63 - 1 in ints and -2 ** 63 in ints
    # helpers that call themselves with a smaller int (a graph of their own in son)
    helpers = [d for d in tree.body if isinstance(d, ast.FunctionDef) and d.name.startswith("h")]
    assert any(isinstance(c, ast.Call) and getattr(c.func, "id", None) == d.name
               for d in helpers for c in ast.walk(d))


def test_generated_programs_terminate_under_cpython():
    for i in range(40):
        p = generate(12, i)
        outcomes, _ = expected_outcomes(p.source, p.args)
        assert len(outcomes) == len(p.args)


def test_oracle_carries_son_semantics_for_each_documented_deviation():
    rt = _Runtime()
    assert rt.binop("*", 2 ** 62, 2) == -2 ** 63 and rt.wraps == 1  # int64 wrap-around
    assert rt.binop("<<", 1, 200) == 0
    with pytest.raises(NotImplementedError):
        rt.binop("**", 2, -1)  # int ** negative int: a float in CPython
    with pytest.raises(NotImplementedError):
        rt.binop("**", -8.0, 0.5)  # complex in CPython
    with pytest.raises(NotImplementedError):
        rt.binop("**", -2 ** 63, 2.5e15 + 0.5)  # CPython's complex pow overflows first
    with pytest.raises(OverflowError):
        rt.to_int(1e300)
    assert type(rt.item(np.float64(1.5))) is float
    assert set(DEVIATIONS.values()) <= set(dir(rt))


def test_abs_of_a_complex_nan_does_not_depend_on_an_earlier_overflow():
    # seed 28125 i6701: CPython's abs() of a complex NaN reads a stale errno, so the
    # oracle expected OverflowError after an argument tuple whose math.pow overflowed
    src = ("import math\n\ndef f(x: float):\n    z = abs(complex(math.nan, x))\n"
           "    return z + math.pow(x, 2.0)\n")
    outcomes, _ = expected_outcomes(src, [(1e308,), (1.0,)])
    assert outcomes[0] == ("raise", "OverflowError")
    assert outcomes[1] == ("ok", canon(math.nan), ())
    assert check(src, [(1e308,), (1.0,)], kernel=False).status == "ok"


def test_oracle_expects_wrapped_ints_from_cpython():
    src = "def f(n: int):\n    return n * 4 + 1\n"
    outcomes, wraps = expected_outcomes(src, [(2 ** 62,), (3,)])
    assert outcomes[0] == ("ok", ("int", 1), ()) and outcomes[1] == ("ok", ("int", 13), ())
    assert wraps == 1


def test_oracle_reads_int_as_a_dtype_where_it_is_one():
    """``int`` passed as a value is son's int64 conversion (``key=int``), but in
    ``a.astype(int)`` and ``dtype=int`` it is numpy's dtype: seed 8 i25 was a mismatch
    (the oracle called ``astype`` with its hook)."""
    src = ("import numpy as np\n\ndef f(a: np.ndarray):\n"
           "    return a.astype(int).sum() + np.array([1.5], dtype=int)[0]\n")
    outcomes, _ = expected_outcomes(src, [(np.array([2, 3], dtype=np.int64),)])
    assert outcomes[0][:2] == ("ok", ("int", 6))


def test_array_arguments_are_compared_after_the_call():
    src = "import numpy as np\n\ndef f(a: np.ndarray, i: int):\n    a[i] = 2.5\n    return i\n"
    r = check(src, [(np.zeros(3), 1), (np.zeros(2), 5), (np.zeros(0), -1)], kernel=False)
    assert r.status == "ok", r.failures


def test_the_deadline_bounds_the_whole_check():
    """A stage past the deadline ends the check: no later stage runs without one (a
    Pythran program made check(timeout=45) run past 100 s)."""
    import time

    src = "def f(n: int):\n    s = 0\n    for i in range(n):\n        s += i * i % 7\n    return s\n"
    t = time.perf_counter()
    r = check(src, [(300_000,)], timeout=1.0)  # CPython: 0.1 s; son.interpret: some seconds
    assert time.perf_counter() - t < 5.0
    assert r.status == "crash" and len(r.failures) == 1 and "Timeout" in r.failures[0].got


def test_a_builtin_the_program_rebinds_is_not_instrumented_as_the_builtin():
    """``from numpy import round``: the oracle expected the builtin's int (Pythran's
    np_round tests), where CPython and son give numpy's float."""
    src = "from numpy import round\n\ndef f(a: float):\n    return round(a) + 0.25\n"
    assert expected_outcomes(src, [(2.5,)], "f")[0][0] == ("ok", canon(2.25), ())
    assert check(src, [(0.5,), (2.5,)]).status == "ok"


def test_syntax_errors_are_generator_rejects():
    r = check("def f(n: int):\n    return {n}\n", [(1,)], kernel=False)
    assert r.status == "reject" and "set" in r.detail.lower()


def _seven_is_eight(g: son.Graph) -> dict:
    """A wrong pass: every int constant 7 becomes 8."""
    sevens = [n for n in g.nodes() if type(n) is Constant and n.type.is_constant
              and type(n.type.con) is int and n.type.con == 7]
    for n in sevens:
        n.subsume(Constant(g, constant(8)))
    return {"changed": len(sevens)}


BUGGY = '''
def helper(q):
    return q + 1

def f(n: int, x: float):
    a = n + 1
    b = x * 2.0
    for i in range(3):
        a += i
        if b > 100.0:
            b = b - 1.0
    while b < 0.0:
        b += 10.0
    c = helper(a) * 7
    return c + 1
'''


@pytest.fixture
def buggy_stage(monkeypatch):
    son.register_pass("fuzz-test-seven-is-eight", _seven_is_eight, replace=True)
    monkeypatch.setitem(PIPELINES, "buggy", son.Pipeline.of("fuzz-test-seven-is-eight").but(peephole=True))
    yield
    # a test's pass must not outlive it in the registry
    PASSES.pop("fuzz-test-seven-is-eight", None)


def test_a_wrong_pass_is_caught_and_shrunk_to_a_regression(buggy_stage, tmp_path):
    args = [(3, 1.5), (-2, -7.0), (0, 0.0)]
    r = check(BUGGY, args, kernel=False)
    assert r.status == "mismatch" and r.failures[0].stage == "buggy"
    small, small_args, failure = shrink(BUGGY, args, kernel=False)
    assert failure is not None and failure.signature == ("mismatch", "buggy")
    body = next(n for n in ast.parse(small).body if isinstance(n, ast.FunctionDef) and n.name == "f").body
    assert len(body) <= 2 and "helper" not in small and len(small_args) == 1
    path = tmp_path / "case.py"
    path.write_text(regression_text(small, small_args, failure, "test"))
    again = check(path.read_text(), runpy.run_path(str(path))["ARGS"], kernel=False)
    assert [f.signature for f in again.failures] == [("mismatch", "buggy")]


def _sleeps(g: son.Graph) -> dict:
    """A pass that takes its time (changes nothing)."""
    time.sleep(2.0)
    return {"changed": 0}


def test_a_timeout_is_reported_unshrunk(monkeypatch):
    """Whether a candidate runs out of time depends on the load: the program comes back
    whole, after one check rather than a budget of timeouts."""
    son.register_pass("fuzz-test-sleeps", _sleeps, replace=True)
    monkeypatch.setitem(PIPELINES, "slow", son.Pipeline.of("fuzz-test-sleeps"))
    try:
        t0 = time.perf_counter()
        small, small_args, failure = shrink(BUGGY, [(3, 1.5), (0, 0.0)], kernel=False, timeout=0.2)
        took = time.perf_counter() - t0
    finally:
        PASSES.pop("fuzz-test-sleeps", None)
    assert failure is not None and failure.signature == ("crash", "timeout", "Timeout")
    assert small == BUGGY and small_args == [(3, 1.5), (0, 0.0)]
    assert took < 10  # one check of at most 6 * 0.2 s, not 300 of 0.2 s


def test_canon_tells_a_0d_array_from_its_element_and_from_a_1_element_array():
    zero_d = canon(np.array(2.5))
    assert zero_d == ("array", "float64", ("float", (2.5).hex()))
    assert zero_d != canon(2.5) and zero_d != canon(np.array([2.5]))
    assert canon(np.array(math.nan)) == canon(np.array(-math.nan)) != canon(np.array(1, dtype=np.int64))


def test_parallel_campaign_counts_every_program():
    t = run(4, seed=3, jobs=2, kernel=False, out=None, grad=False)
    assert t.programs == 4 and t.counts["ok"] + t.counts["refused"] == 4, t.report()


def test_workers_that_reach_their_quota_are_replaced():
    """Two workers of two programs each check seven programs: each one that ends is
    replaced while the other is still producing results, and no program is lost."""
    t = run(7, seed=3, jobs=2, kernel=False, out=None, per_worker=2, grad=False)
    assert t.programs == 7 and sorted(t.indices) == list(range(7)), t.report()


@pytest.mark.parametrize("n", [CAMPAIGN_QUICK, pytest.param(CAMPAIGN_N, marks=pytest.mark.slow)])
def test_fixed_seed_campaign_agrees_in_every_stage(tmp_path, n):
    """``n`` programs through every stage, kernels included: the default run's share
    (about 5 minutes on one core of a 2-core machine) and, in the slow suite, 500 (about
    20 minutes: most of it Numba compiling a kernel per program)."""
    # a kernel may take half a minute to compile (program 48: 36 s beside one other process), and the
    # suite runs one worker per core: a per-program timeout of a minute would fail on load
    t = run(n, seed=CAMPAIGN_SEED, jobs=0, kernel=True, out=tmp_path, grad=False, timeout=600.0)
    report = t.report()
    print(report)
    assert t.programs == n
    assert not t.failures and not t.rejects, report
    # documented kernel refusals (son.fuzz.oracle.REFUSALS, e.g. a value that is an array
    # on one path and a number on another) stay rare
    assert t.counts["refused"] <= n // 10, report
    assert t.counts["ok"] + t.counts["refused"] == n
    assert t.wrapped > 0  # the campaign does exercise int64 wrap-around


SMOOTH = '''
import math

def f(x: float, n: int, y: float):
    s = 0.0
    for i in range(n):
        s += math.sin(x * i) * y
    if x > 1.0:
        s = s + math.exp(-x) * y
    return s / (1.0 + y * y)
'''


def test_grad_oracle_agrees_with_finite_differences_on_a_smooth_program():
    from son.fuzz.grad import available, check_grad

    assert available()
    r = check_grad(SMOOTH, [(0.5, 3, 2.0), (1.5, 4, -0.75), (2.0, 0, 1.25)])
    assert r.status == "ok" and r.failures == []
    # every partial of every point compared reverse against forward and against the stencil
    assert r.counts["points"] == 3 and r.counts["modes"] == r.counts["fd"] == 6
    assert r.counts["value"] == 3 and r.counts["singular"] == 0


POWER = "def f(x: float, y: float):\n    return x * x * y + y\n"
POWER_ARGS = [(1.5, -0.75), (-2.25, 0.37)]


@pytest.fixture
def wrong_mode(monkeypatch):
    """``wrong_mode(name, factor)``: son's transform ``name`` becomes the real one with its
    derivatives scaled by ``factor`` (a wrong rule in one mode, or in both)."""
    real = {name: getattr(son, name) for name in ("grad", "value_and_grad", "jvp")}

    def scaled(name: str, factor: float) -> None:
        def make(fn, argnums, **kw):
            df = real[name](fn, argnums, **kw)
            if name == "grad":
                return lambda *a: tuple(factor * g for g in df(*a))
            if name == "value_and_grad":
                return lambda *a: (lambda v, g: (v, tuple(factor * x for x in g)))(*df(*a))
            return lambda p, t: (lambda v, d: (v, factor * d))(*df(p, t))

        monkeypatch.setattr(son, name, make)

    return scaled


def test_grad_oracle_catches_reverse_mode_disagreeing_with_forward(wrong_mode):
    from son.fuzz.grad import check_grad

    wrong_mode("grad", 1.25)
    wrong_mode("value_and_grad", 1.25)
    r = check_grad(POWER, POWER_ARGS)
    assert [f.stage for f in r.failures] == ["grad-vs-jvp", "grad-vs-jvp"], r.failures
    assert "finite differences" in str(r.failures[0])


def test_grad_oracle_says_when_forward_mode_is_the_wrong_one(wrong_mode):
    from son.fuzz.grad import check_grad

    wrong_mode("jvp", 0.5)
    r = check_grad(POWER, POWER_ARGS)
    assert [f.stage for f in r.failures] == ["jvp-vs-fd", "jvp-vs-fd"], r.failures


def test_grad_oracle_catches_a_rule_both_modes_share(wrong_mode):
    from son.fuzz.grad import check_grad

    for name in ("grad", "value_and_grad", "jvp"):
        wrong_mode(name, 1.1)  # well above the stencil's error
    r = check_grad(POWER, POWER_ARGS)
    assert [f.stage for f in r.failures] == ["grad-vs-fd", "grad-vs-fd"], r.failures


def test_grad_oracle_compares_value_and_grad_with_cpython(monkeypatch):
    from son.fuzz.grad import check_grad

    real = son.value_and_grad

    def off_by_a_bit(fn, argnums, **kw):
        vg = real(fn, argnums, **kw)
        return lambda *a: (lambda v, g: (v + 1e-9, g))(*vg(*a))

    monkeypatch.setattr(son, "value_and_grad", off_by_a_bit)
    r = check_grad(POWER, POWER_ARGS[:1])
    assert [f.stage for f in r.failures] == ["grad-value"], r.failures


def test_grad_oracle_does_not_flag_correct_gradients_at_kinks_and_branches():
    from son.fuzz.grad import check_grad

    src = ("def f(x: float, y: float):\n    if x > y:\n        return max(x, 0.5) * y\n"
           "    return abs(x - 0.25) + min(x * y, 1.5)\n")
    r = check_grad(src, [(0.5, 0.3), (0.25, 1.5), (-0.6, 2.5), (1.5, 1.5)])
    assert r.status == "ok" and not r.failures, r.failures
    assert r.counts["modes"] == 8 and 0 < r.counts["fd"] < 8  # the stencil declines the kinks


def test_grad_oracle_allows_the_rounding_of_cancelling_terms():
    """Reverse and forward mode sum the same terms in different orders: where terms of
    1e16 cancel (seed 3125 i3163: reverse mode adds 1, 1e16 and -1e16 to x's adjoint and
    gets 0; forward mode gets 1) they agree only to that scale.  The same gradient off
    by far more than that scale's rounding is still a failure."""
    from son.fuzz.grad import _classify, check_grad

    src = "def f(x0: float):\n    acc1 = x0 - x0\n    return x0 + 1e+16 * acc1\n"
    r = check_grad(src, [(1.5,), (0.337,)])
    assert not r.failures and r.counts["modes"] == 2, r.failures
    assert _classify(0.0, 1.0, None, False, 1.5, 1.5, peak=1.5) == ("grad-vs-jvp", _classify(
        0.0, 1.0, None, False, 1.5, 1.5)[1])                       # no large term: a failure
    assert _classify(0.0, 1.0, None, False, 1.5, 1.5, peak=1.5e16) == "modes"


def test_grad_oracle_knows_where_floats_run_out():
    """Seed 3125: a derivative term that overflows in one mode's order (reverse mode
    multiplies by 1e308 first, forward mode last) is singular, not a failure; and a
    float ``//`` whose quotient is beyond 2**52 is the identity on it (every such float
    is an integer), so finite differences see the quotient's slope where son's
    documented derivative of ``//`` is 0: no stencil there."""
    from son.fuzz.grad import check_grad

    overflow = ("def f(x1: float):\n    b1 = x1 * (1 / x1)\n    return b1 * 1e+308\n")
    r = check_grad(overflow, [(0.5,)])
    assert not r.failures and r.counts["singular-partials"] == 1, r.failures
    coarse = "def f(x0: float):\n    x0 += 1e+308 // x0\n    return x0\n"
    r = check_grad(coarse, [(1.5,)])
    assert not r.failures and r.counts["modes"] == 1 and r.counts["fd"] == 0, (r.failures, r.counts)
    r = check_grad("def f(x0: float):\n    return x0 + 7.0 // x0\n", [(1.5,)])
    assert not r.failures and r.counts["fd"] == 1  # an ordinary floor keeps its stencil
    origin = "import math\n\ndef f(x0: float):\n    a = x0 - x0\n    return math.atan2(a, 0)\n"  # 5125 i4598
    r = check_grad(origin, [(1.5,)])  # atan2's partials at the origin are 0/0: reverse nan, forward 0
    assert not r.failures and r.counts["singular-partials"] == 1, r.failures
    sawtooth = "import math\n\ndef f(x0: float):\n    return math.fmod(x0, 1e-320)\n"  # seed 4125 i1988
    r = check_grad(sawtooth, [(1.5,)])
    assert not r.failures and r.counts["modes"] == 1 and r.counts["fd"] == 0, (r.failures, r.counts)
    poles = "import math\n\ndef f(x0: float):\n    return math.lgamma(4294967296 / x0)\n"  # 44125 i1862
    r = check_grad(poles, [(-1.5,)])  # a pole every unit of the argument: the stencil spans thousands
    assert not r.failures and r.counts["modes"] == 1 and r.counts["fd"] == 0, (r.failures, r.counts)
    r = check_grad("import math\n\ndef f(x0: float):\n    return math.sin(x0 * 3.0)\n", [(1.5,)])
    assert not r.failures and r.counts["fd"] == 1  # a sine of a small argument keeps its stencil


def test_grad_oracle_still_catches_an_inf_partial_times_a_zero_adjoint(monkeypatch):
    """The singular classes above must not hide the class they were built beside: with
    the strong zero replaced by IEEE's product, x * inf on an untaken path makes the
    reverse-mode gradient nan, and the oracle says so."""
    from son.fuzz.grad import check_grad
    from son.nodes import ZMul

    src = ("import math\n\ndef f(n0: int, x0: float):\n    u1 = x0 * math.inf\n    if n0 > 2:\n"
           "        return u1\n    u1 = 0 > u1\n    return 0.0 + u1\n")
    assert not check_grad(src, [(2, -1.7)]).failures
    monkeypatch.setattr(ZMul, "eval", lambda self, p, d: float(p) * float(d))
    r = check_grad(src, [(2, -1.7)])
    assert [f.stage for f in r.failures] == ["grad-vs-jvp"], r.failures


def test_grad_oracle_classifies_singular_points():
    """A point whose CPython run meets an infinity is singular: equal infinities and a
    disagreement nothing can arbitrate are counted apart, not failures."""
    from son.fuzz.grad import _classify, check_grad

    r = check_grad("import math\n\ndef f(x: float):\n    return x * math.inf\n", [(1.5,), (-0.75,)])
    assert not r.failures and r.counts["points"] == r.counts["singular"] == 2
    assert r.counts["singular-partials"] == 2 and r.counts["modes"] == 0
    nan, inf = math.nan, math.inf
    assert _classify(nan, 0.0, None, True, 1.5, 10.0) == "singular"
    assert _classify(inf, inf, None, True, 1.5, 10.0) == "singular"
    assert _classify(nan, 0.0, 0.0, True, 1.5, 10.0)[0] == "grad-vs-jvp"   # the stencil sides with jvp
    assert _classify(0.0, nan, 0.0, True, 1.5, 10.0)[0] == "jvp-vs-fd"     # ... with grad
    assert _classify(nan, 0.0, None, False, 1.5, 10.0)[0] == "grad-vs-jvp"  # nothing singular
    assert _classify(3.0, 3.0 * (1 + 1e-14), None, False, 1.5, 10.0) == "modes"
    assert _classify(3.0, 3.0 * (1 + 1e-9), None, False, 1.5, 10.0)[0] == "grad-vs-jvp"
    assert _classify(3.0, 3.0, 3.0 + 1e-7, False, 1.5, 10.0) == "fd"


def test_grad_oracle_compares_the_compiled_gradient_with_the_interpreted_one(monkeypatch):
    from son.fuzz.grad import check_grad

    r = check_grad(POWER, POWER_ARGS, compiled=True)
    assert not r.failures and r.counts["kernel"] == 2
    real = son.grad

    def negated_kernel(fn, argnums, interpret=False, **kw):
        df = real(fn, argnums, interpret=interpret, **kw)
        return df if interpret else (lambda *a: tuple(-g for g in df(*a)))

    monkeypatch.setattr(son, "grad", negated_kernel)
    r = check_grad(POWER, POWER_ARGS, compiled=True)
    assert [f.stage for f in r.failures] == ["grad-kernel", "grad-kernel"], r.failures


def test_a_wrong_gradient_is_shrunk_to_a_regression_case_that_rechecks_it(wrong_mode, tmp_path):
    from son.fuzz.grad import check_grad

    wrong_mode("grad", 1.25)
    wrong_mode("value_and_grad", 1.25)
    args = [(1.5, 3, -0.75), (0.37, 1, 2.3)]
    small, small_args, failure = shrink(SMOOTH, args, kernel=False, grad=True)
    assert failure is not None and failure.signature == ("mismatch", "grad-vs-jvp")
    assert len(small) < len(SMOOTH) and len(small_args) == 1
    assert all(a not in (0.0, 1.0, -1.0) for a in small_args[0] if type(a) is float)
    path = tmp_path / "case.py"
    path.write_text(regression_text(small, small_args, failure, "test", oracle="grad"))
    case = runpy.run_path(str(path))
    assert case["ORACLE"] == "grad"
    assert [f.signature for f in check_grad(path.read_text(), case["ARGS"]).failures] == [failure.signature]


def test_generator_makes_most_programs_gradient_comparable():
    """Under the gradient oracle at least 40% of the programs compare reverse mode
    against forward mode at some point (the primal-only mix: about 10%)."""
    from son.fuzz.grad import check_grad

    n = 150
    compared = sum(check_grad(p.source, p.args).counts["modes"] > 0
                   for p in (generate(31, i) for i in range(n)))
    assert compared >= 0.4 * n, compared


def test_gradient_programs_leave_the_other_indices_as_they_were():
    """The gradient mix replaces a share of the indices by gradient programs, deterministically;
    every other index gives the program of the primal-only mix."""
    from son.fuzz.arguments import GRAD_FLOAT_ARGS

    same = changed = 0
    for i in range(60):
        a, b, c = generate(9, i), generate(9, i), generate(9, i, grad=False)
        assert a.source == b.source and args_literal(a.args) == args_literal(b.args)
        same += a.source == c.source
        changed += a.source != c.source
    assert same > 15 and changed > 15
    text = "\n".join(generate(9, i).source for i in range(200))
    for shape in ("acc1 = 1\n", "* math.inf", "float(", "max(", "min(", "abs(", "while ", "range(n0)",
                  "acc2 = ", "**"):
        assert shape in text, shape
    floats = [x for i in range(200) for t in generate(9, i).args for x in t if type(x) is float]
    assert sum(x in GRAD_FLOAT_ARGS for x in floats) > len(floats) // 3


def test_campaign_reports_how_far_the_gradient_oracle_got():
    t = run(6, seed=777, jobs=0, kernel=False, out=None)
    report = t.report()
    assert t.grad["checked"] >= 4 and t.grad["modes"] >= 1, report
    assert "compared reverse vs forward" in report and "singular" in report


def test_oracle_reads_numpy_reductions_as_python_scalars():
    # seed 32125 i3912: 7 >> b.sum() with a negative sum is numpy's 0 on an int64, Python's
    # ValueError on the int son reads (decisions.md, numpy's array functions)
    src = ("import numpy as np\nimport numpy.typing as npt\n\n"
           "def f(b: npt.NDArray[np.int64]):\n    return 7 >> b.sum(), 7 >> np.sum(b)\n")
    args = [(np.array([-6], dtype=np.int64),), (np.array([1, 1], dtype=np.int64),)]
    outcomes, _ = expected_outcomes(src, args)
    assert outcomes[0] == ("raise", "ValueError") and outcomes[1][0] == "ok"
    assert check(src, args, kernel=False).status == "ok"


def test_oracle_reads_a_reduction_method_of_a_numpy_call_as_a_python_scalar():
    # seed 47125 i2960: np.sqrt(b).min() / 0.0 is numpy's nan on a float64, Python's
    # ZeroDivisionError on the float son reads; the hook skipped methods of `np.` calls
    src = ("import numpy as np\nimport numpy.typing as npt\n\n"
           "def f(b: npt.NDArray[np.int64]):\n    return np.sqrt(b).min() / 0.0\n")
    args = [(np.array([-2], dtype=np.int64),)]
    assert expected_outcomes(src, args)[0] == [("raise", "ZeroDivisionError")]
    assert check(src, args, kernel=False).status == "ok"


def test_gradient_oracle_skips_a_documented_run_time_refusal():
    # seed 47125 i7840: son.grad raised son's NotImplementedError for a sort of a list with
    # a NaN, where CPython ran; the gradient oracle counted it as a crash
    from son.fuzz.grad import check_grad

    src = "import math\n\ndef f(x: float):\n    xs = sorted([x, math.nan])\n    return x * 2.0 + len(xs)\n"
    g = check_grad(src, [(1.5,), (2.5,)])
    assert not g.failures and g.counts["declined"] == 2, g


def test_oracle_wraps_abs_passed_as_a_value():
    # seed 32125 i4059: max(..., key=abs) over an int64 that wrapped to -2**63: son's abs
    # wraps it back (int64), CPython's builtin passed as a value gave 2**63
    src = ("import numpy as np\nimport numpy.typing as npt\n\n"
           "def f(b: npt.NDArray[np.int64]):\n    return max((g + g for g in b), key=abs)\n")
    args = [(np.array([8, 2 ** 62], dtype=np.int64),)]
    assert expected_outcomes(src, args)[0] == [("ok", ("int", 16), (canon(args[0][0]),))]
    assert check(src, args, kernel=False).status == "ok"


def test_oracle_checks_int_and_round_passed_as_values():
    # seed 47125 i1419: sorted(..., key=int) of 1e308: son's int() raises OverflowError beyond
    # int64 (decisions.md), CPython's builtin passed as a value gave a 309-digit key
    src = "def f(x: float):\n    return len(sorted([x, 1.0], key=int)), tuple(map(round, (x, 1.5)))\n"
    assert expected_outcomes(src, [(1e308,)])[0] == [("raise", "OverflowError")]
    assert expected_outcomes(src, [(2.5,)])[0][0][0] == "ok"
    assert check(src, [(1e308,), (2.5,), (-7.5,)], kernel=False).status == "ok"


def test_a_deadline_inside_a_numba_compile_is_a_timeout_not_a_code_generator_bug():
    # the deadline's exception used to be an Exception: son.exec.kernel wrapped it, raised
    # in a Numba compile, as "a bug in son's code generator".  In a child process: an
    # interrupted compile may leave Numba unusable in its process.
    code = textwrap.dedent("""
        import math, son
        from son.fuzz.oracle import _deadline, _Timeout
        son.compile(son.parse_source("def w(x: float):\\n    return x + 1.0\\n"))(1.0)  # numba warm
        body = "".join(f"    x = math.sin(x * {1 + k / 100!r}) + math.sqrt(abs(x) + {k}.5)\\n"
                       for k in range(60))
        g = son.parse_source(f"import math\\n\\n\\ndef f(x: float):\\n{body}    return x\\n")
        try:
            with _deadline(0.5):  # son writes the source in ~0.05 s; numba takes seconds
                son.compile(g)
            print("compiled in time")
        except _Timeout:
            print("timeout")
        except Exception as e:
            print("wrapped:", type(e).__name__, e)
    """)
    env = dict(os.environ, SON_CACHE_DIR=tempfile.mkdtemp())  # no kernel in any cache
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert out.stdout.strip() == "timeout", out.stdout + out.stderr


def _hanging_worker(tasks, results, slots, slot, *rest):
    """A campaign worker stuck where no deadline reaches it (as in a compiled loop)."""
    import signal
    import time

    started = rest[-1]
    slots[slot], started[slot] = tasks.get(), time.time()
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])
    time.sleep(3600)


def test_campaign_kills_a_worker_that_hangs_and_counts_a_crash(tmp_path):
    # seed 47125 on a 16-core machine: a worker gave no answer for minutes and the
    # campaign never ended; the driver now kills it after HANG_TIMEOUTS timeouts
    from son.fuzz import campaign
    from son.fuzz.provenance import Source

    totals = campaign.Totals(seed=3)
    campaign._run_parallel(totals, 2, 3, 1, 40, False, None, False, 0.25, None, False, str(tmp_path),
                           10, Source.capture(), worker=_hanging_worker)
    assert totals.counts["crash"] == 2 and sorted(totals.indices) == [40, 41]
    assert all("killed" in f["failure"] for f in totals.failures)


def test_generator_makes_programs_with_lists():
    """A good share of the ordinary programs have list locals, and over a few hundred
    programs every list construct the generator promises (son.fuzz.listgen) appears."""
    sources = [generate(11, i, grad=False).source for i in range(300)]
    with_lists = [s for s in sources if "    l0" in s]
    assert len(with_lists) >= 60
    text = "\n".join(with_lists)
    for construct in (".append(", ".insert(", ".extend(", ".pop(", ".remove(", ".sort(", ".reverse()",
                      "sorted(", "list(range(", "del l", "] * ", " in l", "for el", "enumerate(l",
                      "zip(l", "reversed(l", ".index(", ".count(", "len(l", ": list[", "return l"):
        assert construct in text, construct
    tree = ast.parse(text)
    assert any(isinstance(n, ast.ListComp) for n in ast.walk(tree))
    assert any(isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Subscript) for n in ast.walk(tree))


def test_oracle_runs_lists_as_son_does():
    """``xs += it`` changes the list in place (an alias sees it), a list's element wraps
    as an int64 under ``xs[i] += v``, and ``list(array)`` holds Python scalars."""
    src = ("import numpy as np\nimport numpy.typing as npt\n\n"
           "def f(n: int, b: npt.NDArray[np.int64]):\n    xs = [n, 1]\n    ys = xs\n    xs += range(2)\n"
           "    xs[0] += n\n    s = 0\n    for x in list(b):\n        s += x // n\n    return ys, s\n")
    args = [(2 ** 62, np.array([3], dtype=np.int64)), (0, np.array([3], dtype=np.int64))]
    outcomes, wraps = expected_outcomes(src, args)
    assert outcomes[0] == ("ok", canon(([-2 ** 63, 1, 0, 1], 0)), (canon(args[0][1]),)) and wraps == 1
    assert outcomes[1] == ("raise", "ZeroDivisionError")  # numpy's int64 // 0 would give 0
    assert check(src, args, kernel=False).status == "ok"


def test_son_declining_a_nan_identity_question_is_a_refusal():
    """son raises NotImplementedError where CPython's answer depends on whether two NaNs
    are one object: that argument tuple is not compared, the program counts as refused."""
    src = "def f(x: float):\n    xs = [x, 1.0]\n    return x in xs\n"
    r = check(src, [(math.nan,), (2.0,)], kernel=False)
    assert r.status == "refused" and r.declined == {0} and "NotImplementedError" in r.detail, r.failures


def test_oracle_keeps_an_unbound_local_read_by_an_item_update_a_local():
    """The oracle runs ``xs[i] -= t`` as a hook given ``lambda: t``, which makes ``t`` a
    free variable: unbound, that is NameError, where the program raises UnboundLocalError
    (seed 20261123 i288, once the generator wrote lists of tuples)."""
    src = "def f(n: int):\n    if n > 5:\n        t = 1\n    xs = [n]\n    xs[0] -= t\n    return xs\n"
    assert expected_outcomes(src, [(1,)])[0][0] == ("raise", "UnboundLocalError")
    assert check(src, [(1,), (7,)], kernel=False).status == "ok"


def test_a_refusal_on_a_line_cpython_never_reaches_is_not_a_generator_reject():
    # son skips what it proves dead (after a return), so only lines the arguments never
    # reach are left: refused there, a reject where an argument reaches them
    assert check("def f(n: int):\n    return n\n    return {n}\n", [(1,)], kernel=False).status == "ok"
    dead = check("def f(n: int):\n    if n > 5:\n        return {n}\n    return n\n", [(1,)],
                 kernel=False)
    assert dead.status == "refused" and "never reaches" in dead.detail
    live = check("def f(n: int):\n    if n > 5:\n        return {n}\n    return n\n", [(1,), (9,)],
                 kernel=False)
    assert live.status == "reject"
    # an augmented assignment's rewrite keeps its own line, not the function's span
    raises = "def f(n: int):\n    n += 1\n    m = 1 >> -n\n    return [n, m]\n"
    assert reached_lines(raises, [(5,)]) == {1, 2, 3}


def test_generator_writes_whole_array_expressions():
    """About a quarter of the ordinary programs with arrays write numpy's whole-array
    expressions (son.fuzz.arraygen): chains of operators, ufuncs and np.where over arrays,
    views and scalars, reductions, in-place updates with overlapping views, arrays of
    ints and bools, array results; their array arguments may not broadcast."""
    programs = [generate(12, i, grad=False) for i in range(600)]
    whole = [p for p in programs if "\n    r0 = " in p.source]
    with_arrays = [p for p in programs if "np.ndarray" in p.source or "npt.NDArray" in p.source
                   or "m0 = np." in p.source]
    assert 0.15 * len(with_arrays) <= len(whole) <= 0.4 * len(with_arrays)
    text = "\n".join(p.source for p in whole)
    for construct in ("np.where(", "np.sqrt(", "np.floor(", "np.isfinite(", "np.abs(", "np.sum(", ".sum()",
                      ".mean()", "np.argm", "np.any(", " ** 0.5", " // ", " % ", " & ", "(~", "[::-1]",
                      "[1:]", "[:-1]", "[::2]", "[:1]", " += ", " &= ", " > ", "return ("):
        assert construct in text, construct
    lengths = [{len(a) for a in t if isinstance(a, np.ndarray)} for p in whole for t in p.args]
    assert any(len(s) > 1 and min(s) > 1 for s in lengths)  # lengths that do not broadcast
    assert sum(len(s) == 1 for s in lengths) > len(lengths) / 2
    for p in [p for p in whole if p.index in (6, 8, 14, 15)]:
        assert check(p.source, p.args).status == "ok", p.label


def test_generator_writes_recursive_helpers_that_return_arrays(monkeypatch):
    """son.fuzz.recarraygen: some programs call ``ra0``, which calls itself and returns a
    fresh array, its argument, either, a merge of its calls' arrays, or a view of its
    argument, some passing views to the recursive call or given one; the others are the
    programs they were without it; the oracle agrees on one of each form."""
    import son.fuzz.recarraygen as rag

    programs = [generate(7, i) for i in range(400)]
    forms = {"argument": "return ra0(a, n - 1)", "fresh": "out = ra0(", "mixed": "r = ra0(",
             "merge": "lo = ra0(", "concatenate": "np.concatenate((ra0(", "swap": "a[0], a[-1] = a[-1]",
             "view halves": "lo = ra0(a[:m], n - 1)", "tail": "return a[1:]",
             "turn mixed": "        return a[", "turn": "return ra0(a[:], n - 1)",
             "2-D views": "return rb0(m["}
    found = {k: [p for p in programs if text in p.source] for k, text in forms.items()}
    found["given a view"] = [p for p in programs if re.search(r"rv0 = ra0\(\w+\[::-1\], ", p.source)]
    assert all(found.values()), {k: len(v) for k, v in found.items()}
    assert all("rv0 = ra0(" in p.source for v in found.values() for p in v)
    monkeypatch.setattr(rag, "RECURSIVE_ARRAY_SHARE", 0.0)
    for p in programs[:120]:
        q = generate(7, p.index)
        assert "def ra0" not in q.source and ("def ra0" in p.source or q.source == p.source), p.label
    monkeypatch.undo()
    for v in found.values():
        assert check(v[0].source, v[0].args).status == "ok", v[0].label


def test_oracle_runs_whole_array_expressions_as_numpy_does():
    """``a += b`` changes the array in place (its alias sees it), an overlapping update
    reads its source first, numpy's warnings are no outcome, np.mean reads as a Python
    float (whose division by zero raises), an int array to a negative power raises."""
    src = ("import numpy as np\nimport numpy.typing as npt\n\n"
           "def f(a: np.ndarray, b: npt.NDArray[np.int64], k: int):\n    c = a\n    c += 1.0\n"
           "    a[1:] -= a[:-1]\n    if k == 0:\n        return a.mean() / 0.0\n    if k == 1:\n"
           "        return np.sum(b ** -1)\n    return np.sum(a / 0.0) + np.sum(b // 0) + np.mean(a[:0])\n")
    b = np.array([3], dtype=np.int64)
    args = [(np.array([1.0, 2.0]), b, 2), (np.array([]), b, 0), (np.array([1.0]), b, 1)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        outcomes, _ = expected_outcomes(src, args)
    assert outcomes[0] == ("ok", canon(math.nan), (canon(np.array([2.0, 1.0])), canon(b)))
    assert outcomes[1] == ("raise", "ZeroDivisionError") and outcomes[2] == ("raise", "ValueError")
    assert check(src.replace("    a[1:] -= a[:-1]\n", ""), args, kernel=False).status == "ok"



def test_generator_never_calls_a_recursive_function_where_a_loop_repeats_it():
    """A function's call of itself in its loop's body, a ``while`` test or a comprehension
    runs once per round at every level: calls grow as rounds to the depth (seed 20261201
    i192 made 70,000 calls through ``while f(x0, n0 - 1, ...)`` and ran out of time); the
    generator puts them only where each level runs them a few times."""
    recursive = 0
    for p in [generate(20261201, i) for i in range(600)]:
        for d in [d for d in ast.walk(ast.parse(p.source)) if isinstance(d, ast.FunctionDef)]:
            def calls_itself(part: ast.AST) -> bool:
                return any(isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id == d.name
                           for c in ast.walk(part))
            recursive += calls_itself(d)
            repeated = [n.test for n in ast.walk(d) if isinstance(n, ast.While)]
            repeated += [s for n in ast.walk(d) if isinstance(n, (ast.While, ast.For)) for s in n.body]
            repeated += [n for n in ast.walk(d) if isinstance(n, (ast.GeneratorExp, ast.ListComp))]
            for part in repeated:
                assert not calls_itself(part), (p.label, ast.unparse(part))
    assert recursive > 20
