"""Loop versioning (son/sccp/versioning.py): a counted loop whose bounds checks one test
before it proves gets a copy without them; the checked copy keeps CPython's IndexError at
the same iteration, after the same stores.  CPython is the oracle, for the interpreter
on the versioned graph and for the kernel."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import canon, copy_args
from hypothesis import given, settings
from hypothesis import strategies as st

import son
from son.nodes import Loop, OutOfBounds
from son.sccp.versioning import version_loops

EDGY = st.one_of(st.integers(-4, 4), st.sampled_from([-2**63, -2**62, 2**62, 2**63 - 1]),
                 st.integers(-2**63, 2**63 - 1))


def saxpy(alpha, x, y):
    for i in range(len(x)):
        y[i] = alpha * x[i] + y[i]
    return 0


def dot(a, b):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s


def shifted(a, out, lo, hi):
    for i in range(lo, hi):
        out[i + 1] = a[i - 2] + a[i]
    return out


def based(a, out, k, n):
    for i in range(n):
        out[i] = a[i + k]
    return 0


def strided(a, out, s, k, n):
    t = 0.0
    for i in range(n):
        t += a[i * s + k]
        out[i] = t
    return t


def matmul(a, b, c, n):
    for i in range(n):
        for j in range(n):
            s = 0.0
            for k in range(n):
                s += a[i * n + k] * b[k * n + j]
            c[i * n + j] = s
    return 0


def early_exit(a, b, n):
    s = 0.0
    for i in range(n):
        if a[i] > 2.0:
            return s
        s += b[i]
    return -s


def _kernel_graph(fn, argtypes):
    g, _ = son.optimize(son.parse(fn, argtypes=argtypes))
    return g


def _outcome(call, args):
    """The value or the exception's type, and the arrays afterwards (a raise keeps the
    stores made before it)."""
    args = copy_args(args)
    try:
        with np.errstate(all="ignore"):
            r = ("ok", canon(call(*args)))
    except son.SonError:
        raise
    except Exception as e:  # noqa: BLE001 - the exception type is the outcome
        r = ("raise", type(e))
    return r, tuple(canon(a) for a in args if isinstance(a, np.ndarray))


CASES = [
    (saxpy, ["float", "float64[]", "float64[]"], 1),
    (dot, ["float64[]", "float64[]"], 1),
    (shifted, ["float64[]", "float64[]", "int", "int"], 3),
    (based, ["float64[]", "float64[]", "int", "int"], 2),
    (strided, ["float64[]", "float64[]", "int", "int", "int"], 2),
    (matmul, ["float64[]", "float64[]", "float64[]", "int"], 2),
    (early_exit, ["float64[]", "float64[]", "int"], 2),
]
ARGTYPES = {fn: argtypes for fn, argtypes, _ in CASES}


@pytest.mark.parametrize("fn, argtypes, checks", CASES)
def test_the_fast_copy_has_no_bounds_checks(fn, argtypes, checks):
    g = _kernel_graph(fn, argtypes)
    loops = sum(type(n) is Loop for n in g.live())
    oob = sum(type(n) is OutOfBounds for n in g.live())
    info = version_loops(g)
    g.verify()
    assert info == {"versioned": 1, "predicated": 0, "checks": checks}
    assert sum(type(n) is Loop for n in g.live()) == loops + 1
    assert sum(type(n) is OutOfBounds for n in g.live()) == oob  # only in the checked copy


def test_a_loop_without_a_provable_check_is_not_copied():
    def reversed_sum(a, b):
        s = 0.0
        for i in range(len(a)):
            s += b[len(a) - 1 - i]  # not s * i + b: no predicate
        return s

    g = _kernel_graph(reversed_sum, ["float64[]", "float64[]"])
    assert version_loops(g) == {"versioned": 0, "predicated": 0, "checks": 0}


def _arrays(n, m):
    return np.linspace(-1.0, 3.0, n), np.zeros(m)


#: son's default pipeline, then loop versioning (kernels version only loops with signed indices)
VERSIONED = "peephole,sccp,guards,version-loops"
KERNELS = {fn: son.jit(fn, pipeline=VERSIONED) for fn in ARGTYPES}


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 7), m=st.integers(0, 7), lo=EDGY, hi=st.integers(-3, 9), k=EDGY, s=EDGY,
       count=st.one_of(st.integers(-2, 9), EDGY))
def test_versioned_graphs_and_kernels_agree_with_cpython(n, m, lo, hi, k, s, count):
    a, out = _arrays(n, m)
    calls = [
        (saxpy, (2.0, a, out)),
        (dot, (a, out)),
        (shifted, (a, out, lo, hi)),
        (based, (a, out, k, count)),
        (strided, (a, out, s, k, min(count, 9))),
        (early_exit, (a, out, count)),
    ]
    wraps = {strided: [i * s + k for i in range(min(count, 9))], based: [i + k for i in range(min(count, 9))],
             shifted: [lo - 2] if lo < hi else []}
    for fn, args in calls:
        if any(not -2**63 <= x < 2**63 for x in wraps.get(fn, ())):
            continue  # an index past int64: son's ints wrap (DESIGN.md), numpy raises OverflowError
        g = _kernel_graph(fn, ARGTYPES[fn])
        version_loops(g)
        want = _outcome(fn, args)
        assert _outcome(lambda *xs, g=g: son.interpret(g, *xs), args) == want, fn.__name__
        assert _outcome(KERNELS[fn], args) == want, fn.__name__


@settings(max_examples=25, deadline=None)
@given(n=st.integers(0, 4), extra=st.integers(-3, 3))
def test_matmul_versioned_agrees_with_cpython(n, extra):
    size = max(n * n + extra, 0)
    a, b, c = np.arange(float(size)), np.arange(float(size)) - 2.0, np.zeros(size)
    g = _kernel_graph(matmul, ["float64[]", "float64[]", "float64[]", "int"])
    version_loops(g)
    args = (a, b, c, n)
    assert _outcome(lambda *xs: son.interpret(g, *xs), args) == _outcome(matmul, args)


@pytest.mark.parametrize("fn, args", [
    (saxpy, (2.0, np.arange(6.0), np.zeros(4))),  # y too short: IndexError at i = 4, y[:4] written
    (shifted, (np.arange(6.0), np.zeros(6), 2, 6)),  # out[6]: IndexError after four stores
    (strided, (np.arange(6.0), np.zeros(3), 2, 1, 3)),  # a[5], then a[7]: after three
    (strided, (np.arange(6.0), np.zeros(3), 2**62, 0, 3)),  # i * s wraps: never in bounds past 0
    (strided, (np.arange(4.0), np.zeros(3), -3, 0, 3)),  # a[-6]: a negative stride is checked
    (strided, (np.arange(4.0), np.zeros(3), 0, 3, 3)),  # a[3] three times
    (based, (np.arange(6.0), np.zeros(6), -2, 5)),  # negative indices: Python's, checked
    (matmul, (np.arange(4.0), np.arange(4.0), np.zeros(4), 2)),
    (matmul, (np.arange(4.0), np.arange(3.0), np.zeros(4), 2)),
    (dot, (np.arange(5.0), np.arange(5.0))),
])
def test_kernels_keep_cpythons_exception_and_stores(fn, args):
    assert _outcome(son.jit(fn, pipeline=VERSIONED), args) == _outcome(fn, args)


def test_a_pipeline_that_names_the_pass_compiles_the_versioned_graph():
    k = son.jit(dot, pipeline=VERSIONED)
    a = np.arange(3.0)
    assert k(a, a) == dot(a, a)
    assert sum(type(n) is Loop for n in k.graph.live()) == 2
    plain = son.jit(dot)
    plain(a, a)
    assert sum(type(n) is Loop for n in plain.graph.live()) == 1  # not by default


def test_kernels_version_the_loops_whose_indices_may_be_negative():
    """son.jit's exact kernels version a loop whose checked indices the lattice does not
    prove non-negative (matmul's i * n + k): the copy reads them unsigned (numba then
    skips its negative-index test); dot's index i is a counter, its loop is not copied."""
    mm = son.jit(matmul)
    a = np.arange(4.0)
    c = np.zeros(4)
    mm(a, a, c, 2)
    want = np.zeros(4)
    matmul(a, a, want, 2)
    assert (c == want).all()
    assert mm.source.count("for ") == 2  # the inner loop and its copy
    assert "unsigned(" in mm.source and "raise IndexError" in mm.source
    d = son.jit(dot)
    d(a, a)
    assert d.source.count("for ") + d.source.count("while ") == 1


def test_versioning_a_versioned_graph_again_copies_nothing():
    g = _kernel_graph(matmul, ARGTYPES[matmul])
    assert version_loops(g)["versioned"] == 1
    loops = sum(type(n) is Loop for n in g.live())
    assert version_loops(g) == {"versioned": 0, "predicated": 0, "checks": 0}  # the checked copy: left alone
    assert sum(type(n) is Loop for n in g.live()) == loops


# ---------------------------------------------------------------- predication
def pair_dot(a, b, c):
    s = 0.0
    for i in range(len(a)):
        s += b[i] * c[i + 1]  # two checks, one exception
    return s


def exp_dot(a, b):
    s = 0.0
    for i in range(len(a)):
        s += math.exp(a[i]) * b[i]  # exp may overflow first: another fault
    return s


def dot_until(a, b):
    s = 0.0
    for i in range(len(a)):
        if a[i] > 2.0:
            break  # later iterations may never run
        s += a[i] * b[i]
    return s


def from_lo(a, b, lo):
    s = 0.0
    for i in range(lo, len(a)):
        s += b[i]  # a negative start reads b from its end
    return s


PREDICATION = [
    (dot, ["float64[]", "float64[]"], 1),
    (pair_dot, ["float64[]", "float64[]", "float64[]"], 1),
    (saxpy, [float, "float64[]", "float64[]"], 0),  # its stores before the raise are seen
    (exp_dot, ["float64[]", "float64[]"], 0),
    (dot_until, ["float64[]", "float64[]"], 0),
    (from_lo, ["float64[]", "float64[]", int], 0),
]


@pytest.mark.parametrize("fn, argtypes, predicated", PREDICATION, ids=[c[0].__name__ for c in PREDICATION])
def test_an_effect_free_loop_raises_before_it_runs_where_an_iteration_would(fn, argtypes, predicated):
    """A kernel's loop with no effect but its bounds checks' IndexError, which leaves only
    by its test, tests once before it runs (``if runs and not predicate: raise``) and runs
    without checks: nothing it did is visible after the raise, so raising early cannot be
    told apart.  Stores, another fault, a break or a start that may be negative keep the
    checks.  The kernel and the interpreter on the predicated graph agree with CPython."""
    g = _kernel_graph(fn, argtypes)
    assert version_loops(g, signed_only=True)["predicated"] == predicated
    g.verify()
    k = son.jit(fn, fallback="error")
    rng = np.random.default_rng(1)
    for n, m in [(0, 0), (0, 2), (3, 3), (3, 2), (3, 4), (2, 0), (4, 5)]:
        arrays = [rng.standard_normal(n) * 3.0] + [rng.standard_normal(m)
                                                   for t in argtypes[1:] if t is not int]
        if fn is saxpy:
            arrays = [2.0, rng.standard_normal(n), rng.standard_normal(m)]
        if fn is exp_dot and n:
            arrays[0][-1] = 800.0  # exp overflows at the last iteration
        for extra in ([-2**63, -m - 1, -1, 0, 2] if int in argtypes else [None]):
            args = tuple(arrays) + (() if extra is None else (extra,))
            want = _outcome(fn, args)
            assert _outcome(k, args) == want, (n, m, extra)
            assert _outcome(lambda *a: son.interpret(g, *a), args) == want, (n, m, extra)
    if predicated:
        loop = k.source[k.source.index("for "):]
        assert "raise IndexError" in k.source and "raise IndexError" not in loop
