"""Reverse mode (son/grad/reverse.py): gradients through branches, data-dependent loops,
nested loops, early exits and arrays, checked against central finite differences on
CPython and against closed forms, through the interpreter, after SCCP, and through a
handful of compiled kernels; second derivatives by reverse-over-reverse (through
branches, and through loops whose tapes it differentiates) and forward-over-reverse."""

from __future__ import annotations

import math

import numpy as np
import pytest
from grad_corpus import dot, sum_squares  # the reductions, written once

import son
from son.errors import SonError
from son.grad.reverse import grad_graph, tape_plan
from son.nodes import Loop, Phi, Return, Store
from son.nodes.memory import TapeGrow


# ---------------------------------------------------------------- the functions
def straight(x, y):
    return x * y + math.sin(x) / (1.0 + y * y) - math.exp(-x) * 3.0


def piecewise(x, y):
    if x > y:
        r = x * y * math.sin(x)
    elif x > 0.0:
        r = math.exp(x) * y
    else:
        r = y * y * x
    return r


def while_data(x):
    s = x
    while s < 100.0:
        s = s * s + 1.0
    return s


def branch_in_loop(x, n):
    s = 0.0
    i = 0
    while i < n:
        if s > 3.0:
            s = s * x
        else:
            s = s + math.sin(x)
        i += 1
    return s


def nested(x, n):
    s = 0.0
    for i in range(n):
        for j in range(i):
            s = s + x * j
    return s


def nested_return(x, n):
    s = 0.0
    for i in range(n):
        for j in range(i):
            s = s + x * j
            if s > 50.0:
                return s * x
    return s


def loop_break(x, n):
    s = 1.0
    for _i in range(n):
        s = s * x
        if s > 10.0:
            break
    return s


def loop_return(x, n):
    s = 1.0
    for _i in range(n):
        s = s * x + 0.5
        if s > 10.0:
            return s * 2.0
    return s


def loop_in_branch(x, n):
    s = x
    if x > 0.0:
        for _i in range(n):
            s = s * 1.1 + x
    else:
        s = s * s
    return s


def loop_continue(x, n):
    s = 0.0
    for i in range(n):
        if i % 2 == 0:
            continue
        s = s + x * i
    return s


def inner_while_break(x, n):
    s = 0.0
    for i in range(n):
        j = 0
        while True:
            s = s + x
            j += 1
            if j > i:
                break
        s = s * 0.9
    return s


def branch_loop_nest(x, n):
    s = 1.0
    for i in range(n):
        if s > 2.0:
            for _j in range(i):
                s = s * 0.5 + x
                if s < 0.1:
                    break
        else:
            s = s + x * x
    return s


def rnn(w, xs, h0):
    h = h0
    for i in range(len(xs)):
        h = math.tanh(w * h + xs[i])
    return h


def horner(c, x):
    r = 0.0
    for i in range(len(c)):
        r = r * x + c[i]
    return r


def newton_sqrt(x):
    y = x
    for _i in range(30):
        y = 0.5 * (y + x / y)
    return y


def written_then_read(a, x):
    t = np.zeros(len(a))
    for i in range(len(a)):
        t[i] = a[i] * x
    s = 0.0
    for i in range(len(a)):
        s += t[i] * t[i]
        t[i] = 0.0
    return s


def logsumexp(a):
    m = a[0]
    for i in range(len(a)):
        m = max(m, a[i])
    s = 0.0
    for i in range(len(a)):
        s += math.exp(a[i] - m)
    return m + math.log(s)


# ---------------------------------------------------------------- the oracle
def _copy(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def central_difference(f, args, i, h=1e-6):
    """d f / d args[i] by central differences on CPython (arrays element by element)."""
    def at(delta, k=None):
        a = _copy(args)
        if k is None:
            a[i] += delta
        else:
            a[i][k] += delta
        return f(*a)

    if isinstance(args[i], np.ndarray):
        return np.array([(at(h * max(1.0, abs(args[i][k])), k) - at(-h * max(1.0, abs(args[i][k])), k))
                         / (2 * h * max(1.0, abs(args[i][k]))) for k in range(len(args[i]))])
    step = h * max(1.0, abs(args[i]))
    return (at(step) - at(-step)) / (2 * step)


def close(got, want, tol=1e-5):
    return np.allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float), rtol=tol, atol=tol)


def check(f, args, argnums, run=None):
    """value_and_grad through ``run`` (default: the interpreter) against CPython and FD."""
    g = son.parse(f, args=tuple(args))
    gg = grad_graph(g, tuple(argnums), True)
    run = run or (lambda graph, *a: son.interpret(graph, *a))
    out = run(gg, *_copy(args))
    assert len(out) == 1 + len(argnums)
    assert close(out[0], f(*_copy(args)), 1e-12)
    for k, i in enumerate(argnums):
        want = central_difference(f, args, i)
        assert close(out[1 + k], want), (f.__name__, i, out[1 + k], want)
        if isinstance(args[i], np.ndarray):
            assert isinstance(out[1 + k], np.ndarray) and out[1 + k].dtype == np.float64
        else:
            assert type(out[1 + k]) is float
    return gg, out


RNG = np.random.default_rng(5)
A5, B5 = RNG.normal(size=5), RNG.normal(size=5)

CASES = [
    (straight, (0.7, -0.4), (0, 1)),
    (piecewise, (0.5, 0.2), (0, 1)),
    (piecewise, (0.1, 0.2), (0, 1)),
    (piecewise, (-0.5, 0.3), (0, 1)),
    (while_data, (1.5,), (0,)),
    (while_data, (3.5,), (0,)),
    (branch_in_loop, (1.1, 7), (0,)),
    (nested, (0.7, 6), (0,)),
    (nested_return, (0.7, 6), (0,)),
    (nested_return, (2.0, 10), (0,)),
    (loop_break, (1.7, 9), (0,)),
    (loop_break, (1.1, 4), (0,)),
    (loop_return, (1.7, 9), (0,)),
    (loop_return, (1.1, 3), (0,)),
    (loop_in_branch, (0.5, 4), (0,)),
    (loop_in_branch, (-0.5, 4), (0,)),
    (loop_continue, (0.5, 7), (0,)),
    (inner_while_break, (0.3, 5), (0,)),
    (branch_loop_nest, (0.7, 8), (0,)),
    (dot, (A5, B5), (0, 1)),
    (sum_squares, (A5,), (0,)),
    (rnn, (0.7, A5, 0.1), (0, 1, 2)),
    (horner, (A5, 0.9), (0, 1)),
    (newton_sqrt, (2.0,), (0,)),
    (written_then_read, (A5, 1.3), (0, 1)),
    (logsumexp, (A5,), (0,)),
]


@pytest.mark.parametrize("f,args,argnums", CASES, ids=[f"{c[0].__name__}-{k}" for k, c in enumerate(CASES)])
def test_gradient_matches_finite_differences(f, args, argnums):
    check(f, args, argnums)


@pytest.mark.parametrize("f,args,argnums", [CASES[1], CASES[6], CASES[9], CASES[12], CASES[19], CASES[21]],
                         ids=lambda c: getattr(c, "__name__", None))
def test_gradient_after_sccp(f, args, argnums):
    def run(graph, *a):
        h, _ = son.optimize(graph, "sccp")
        return son.interpret(h, *a)

    check(f, args, argnums, run)


@pytest.mark.parametrize("f,args,argnums", [CASES[6], CASES[9], CASES[19], CASES[21]],
                         ids=lambda c: getattr(c, "__name__", None))
def test_gradient_kernel(f, args, argnums):
    """A handful compiled by Numba (the schedule goes through the structured code
    generator: adjoint loops with dispatch, tapes, adjoint arrays)."""
    def run(graph, *a):
        h, _ = son.optimize(graph, "sccp")
        return son.compile(h)(*a)

    check(f, args, argnums, run)


# ---------------------------------------------------------------- closed forms
def test_closed_forms():
    _, (v, ga, gb) = check(dot, (A5, B5), (0, 1))
    assert np.array_equal(ga, B5) and np.array_equal(gb, A5)
    _, (v, g) = check(sum_squares, (A5,), (0,))
    assert np.allclose(g, 2 * A5, rtol=1e-15, atol=0)
    _, (v, gc, gx) = check(horner, (A5, 0.9), (0, 1))
    n = len(A5)
    assert np.allclose(gc, [0.9 ** (n - 1 - k) for k in range(n)], rtol=1e-14)
    want = sum((n - 1 - k) * A5[k] * 0.9 ** (n - 2 - k) for k in range(n - 1))
    assert math.isclose(gx, want, rel_tol=1e-12)
    _, (v, g) = check(newton_sqrt, (2.0,), (0,))
    assert math.isclose(g, 0.5 / math.sqrt(2.0), rel_tol=1e-12)
    _, (v, g) = check(nested, (0.7, 6), (0,))
    assert g == sum(j for i in range(6) for j in range(i))


def test_gradient_without_value_and_with_one_argnum_is_a_single_value():
    g = grad_graph(son.parse(straight, argtypes=(float, float)), (1,), False)
    assert len(g.returns()[0].values) == 1
    assert close(son.interpret(g, 0.7, -0.4), central_difference(straight, [0.7, -0.4], 1))


def test_input_graph_untouched_and_result_verifies():
    g = son.parse(branch_in_loop, argtypes=(float, int))
    before = str(g)
    gg = grad_graph(g, (0,), True)
    assert str(g) == before
    gg.verify()
    son.schedule(gg).check()


def two_returns(x, y):
    if x > y:
        return x * y
    return math.exp(x) * y


def test_several_return_blocks_are_joined():
    """A graph with one Return per path (the frontend joins them; passes may not)."""
    g = son.parse(two_returns, argtypes=(float, float))
    r = g.returns()[0]
    region, mem, value = r.inputs[0], r.inputs[1], r.inputs[2]
    for i, c in enumerate(region.inputs[1:]):
        m = mem.inputs[i + 1] if type(mem) is Phi and mem.inputs[0] is region else mem
        g.stop.add_input(Return(g, c, m, value.inputs[i + 1]))
    g.stop.remove_input(g.stop.inputs.index(r))
    g.dce()
    g.verify()
    assert len(g.returns()) == 2
    gg = grad_graph(g, (0, 1), True)
    for x, y in [(0.5, 0.2), (0.1, 0.3)]:
        want = (x * y, y, x) if x > y else (math.exp(x) * y, math.exp(x) * y, math.exp(x))
        assert close(son.interpret(gg, x, y), want, 1e-14)


# ---------------------------------------------------------------- structure
def test_loops_are_reversed_not_unrolled():
    """The gradient of a loop has one adjoint Loop per primal loop, whatever n is."""
    g = son.parse(nested_return, argtypes=(float, int))
    gg = grad_graph(g, (0,), False)
    assert sum(type(n) is Loop for n in gg.nodes()) == 2 * sum(type(n) is Loop for n in g.nodes()) == 4


def test_values_that_do_not_reach_the_result_get_no_adjoint():
    def f(x):
        n = int(math.sin(x) * 10.0)  # depends on x, but reaches the result only as an int
        return x * float(n)

    gg = grad_graph(son.parse(f, argtypes=(float,)), (0,), False)
    assert son.interpret(gg, 0.3) == float(int(math.sin(0.3) * 10.0))
    assert not any(type(n).__name__ == "Cos" for n in gg.nodes())


def test_long_straight_line_gradient_is_iterative_and_linear():
    """1,500 sequential branches (about 13,000 nodes): no recursion, built in seconds."""
    lines = ["def big(x, y):", "    s = x"]
    for k in range(1500):
        lines += [f"    if s > {k % 7}.5:", "        s = s * 0.999 + y", "    else:",
                  f"        s = s + x * {k % 3}.25"]
    lines.append("    return s")
    src = "\n".join(lines) + "\n"
    g = son.parse_source(src, "big", argtypes=(float, float))
    gg = grad_graph(g, (0, 1), False)
    ns: dict = {}
    exec(compile(src, "<big>", "exec"), ns)
    got = son.interpret(gg, 0.3, 0.2)
    assert close(got, [central_difference(ns["big"], [0.3, 0.2], i) for i in (0, 1)], 1e-4)


def test_loop_free_gradient_has_no_tape():
    gg = grad_graph(son.parse(piecewise, argtypes=(float, float)), (0, 1), False)
    assert not any(type(n) in (TapeGrow, Store) for n in gg.nodes())


def test_tape_bytes_per_iteration():
    a = np.ones(4)
    plan = tape_plan(son.parse(dot, args=(a, a)), (0, 1))
    # nothing: the index i is the induction variable, recomputed from the adjoint loop's
    # trip count; a[i], b[i] are re-loaded (no Store can write a or b); the trip count
    # of the outermost loop stays in a variable
    assert plan == {}
    plan = tape_plan(son.parse(branch_in_loop, argtypes=(float, int)), (0,))
    # true side: the partial s of s*x and the merge index; false side: the merge index
    # (cos(x) is computed once, outside the loop); the header: nothing (a trip count)
    assert sorted(plan.values()) == [8, 16]
    plan = tape_plan(son.parse(rnn, args=(0.5, a, 0.1)), (0, 1, 2))
    # the partials h (of w*h) and 1 - tanh^2 (xs[i] is re-loaded)
    assert sum(plan.values()) == 16
    plan = tape_plan(son.parse(nested, argtypes=(float, int)), (0,))
    # the inner loop's trip count, once per outer iteration (j is recomputed)
    assert list(plan.values()) == [8]


def test_tapes_grow_beyond_their_first_capacity():
    a = RNG.normal(size=100)
    check(rnn, (0.7, a, 0.1), (0, 1, 2))
    check(horner, (a, 0.9), (0, 1))


# ---------------------------------------------------------------- higher order
def test_reverse_over_reverse_on_branching_code():
    g1 = grad_graph(son.parse(piecewise, argtypes=(float, float)), (0,), False)
    g2 = grad_graph(g1, (0, 1), False)
    d1 = lambda x, y: son.interpret(g1, x, y)  # noqa: E731
    for args in [(0.5, 0.2), (0.1, 0.2), (-0.5, 0.3)]:
        h = son.interpret(g2, *args)
        assert close(h, [central_difference(d1, list(args), 0), central_difference(d1, list(args), 1)])


def test_forward_over_reverse_hessian_vector_product_on_a_loop():
    jvp_graph = pytest.importorskip("son.grad.forward").jvp_graph
    g1 = grad_graph(son.parse(branch_in_loop, argtypes=(float, int)), (0,), False)
    h = jvp_graph(g1, (0,))
    d1 = lambda x, n: son.interpret(g1, x, n)  # noqa: E731
    value, hvp = son.interpret(h, 1.1, 7, 1.0)
    assert close(value, d1(1.1, 7))
    assert close(hvp, central_difference(d1, [1.1, 7], 0))


def test_reverse_over_reverse_through_a_loop_that_records_on_tapes():
    """The inner gradient pushes on and pops from its tapes; the outer one gives the
    tape family (NewArray, TapeGrow, Phis) one adjoint array: equal to forward over
    reverse, and to central differences of the gradient."""
    jvp_graph = pytest.importorskip("son.grad.forward").jvp_graph
    g1 = grad_graph(son.parse(branch_in_loop, argtypes=(float, int)), (0,), False)
    assert any(type(n) is TapeGrow for n in g1.nodes())
    g2 = grad_graph(g1, (0,), False)
    h = jvp_graph(g1, (0,))
    d1 = lambda x, n: son.interpret(g1, x, n)  # noqa: E731
    for x, n in [(1.1, 7), (0.3, 40), (-0.8, 3), (2.0, 0)]:
        d2 = son.interpret(g2, x, n)
        assert d2 == pytest.approx(son.interpret(h, x, n, 1.0)[1], rel=1e-12, abs=1e-12)
        assert close(d2, central_difference(d1, [x, n], 0))


# ---------------------------------------------------------------- errors
def test_integer_argnum_is_an_error_naming_the_parameter():
    with pytest.raises(SonError, match="'n'"):
        grad_graph(son.parse(branch_in_loop, argtypes=(float, int)), (1,), False)


def test_array_allocated_in_a_loop_is_refused():
    def f(x, n):
        s = 0.0
        for i in range(n):
            t = np.zeros(2)
            t[0] = x * i
            s += t[0]
        return s

    with pytest.raises(SonError, match="allocated inside a loop"):
        grad_graph(son.parse(f, argtypes=(float, int)), (0,), False)


def test_int_result_is_refused():
    def f(x):
        return int(x)

    with pytest.raises(SonError, match="float result"):
        grad_graph(son.parse(f, argtypes=(float,)), (0,), False)


# ---------------------------------------------------------------- cheap gradients
# What the backward sweep recomputes instead of taping (trip counts, induction
# variables, re-loads of arrays no later Store can write, cheap partials from one
# recorded leaf) must give the same gradients; the tape sizes say it was recomputed.
def strided(a, x):
    s = 0.0
    for i in range(len(a) - 1, 0, -2):
        s += a[i] * a[i - 1] * x
    return s


def gather(a, idx, x):
    s = 0.0
    for i in range(len(idx)):
        s += a[idx[i]] * x
    return s


def triangle(a):
    s = 0.0
    for i in range(len(a)):
        for j in range(i + 1, len(a), 2):
            s += a[i] * a[j]
    return s


def read_then_written(a, x):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * x
        a[i] = s
    return s


def written_param(a, b, x):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * x
        b[i] = s
    return s


IDX = np.array([3, 0, 4, 4, 1, -2], dtype=np.int64)
CHEAP_CASES = [
    (strided, (A5, 0.8), (0, 1), {}),
    (gather, (A5, IDX, 0.8), (0, 2), {}),
    # the inner loop's trip count, once per outer iteration; i and j are recomputed
    (triangle, (A5,), (0,), [8]),
    # a[i] is written after it is read: the backward sweep cannot re-load it
    (read_then_written, (A5, 0.8), (0, 1), [8]),
    # a Store into parameter b may write a (they may be one array): a[i] is taped
    (written_param, (A5, B5, 0.8), (0, 2), [8]),
    # Newton: 1/y and -(x/y)/y are both rebuilt from y, the only value taped
    (newton_sqrt, (2.0,), (0,), [8]),
    # max(m, a[i]): both partials are rebuilt from m; exp(a[i] - m) is taped
    (logsumexp, (A5,), (0,), [8, 8]),
]


@pytest.mark.parametrize("f,args,argnums,tape", CHEAP_CASES, ids=[c[0].__name__ for c in CHEAP_CASES])
def test_recomputed_values_give_the_same_gradient(f, args, argnums, tape):
    check(f, args, argnums)
    plan = tape_plan(son.parse(f, args=args), argnums)
    assert (plan if tape == {} else sorted(plan.values())) == tape


def test_recomputed_values_in_a_kernel():
    run = lambda graph, *a: son.compile(graph)(*a)  # noqa: E731
    check(triangle, (A5,), (0,), run)
    check(gather, (A5, IDX, 0.8), (0, 2), run)


@pytest.mark.parametrize("f,args,argnums", [(dot, (A5, B5), (0, 1)), (horner, (A5, 0.9), (0, 1)),
                                            (rnn, (0.7, A5, 0.1), (0, 1, 2)), (nested, (0.7, 6), (0,))],
                         ids=lambda c: getattr(c, "__name__", None))
def test_adjoint_sums_add_no_zero(f, args, argnums):
    """An adjoint that is 0.0 on every path into a sum (a Phi web of zeros once the
    adjoint loops are sealed) is dropped from it: no ``x + 0.0`` is left."""
    gg = grad_graph(son.parse(f, args=args), argnums, False)
    zero_sums = [n for n in gg.nodes() if type(n).__name__ == "Add"
                 and any(x is not None and x.type.is_con(0.0) and type(x).__name__ == "Constant"
                         for x in n.inputs[1:])]
    assert zero_sums == []


def test_counted_loop_reserves_its_tape_once_before_the_loop():
    """horner's loop runs len(c) times: the tape gets room for all of them on the
    entry edge (a TapeGrow outside the loop), the push inside checks capacity only;
    a loop left early by a break (reserved too much) is still exact."""
    from son.schedule import schedule

    a = RNG.normal(size=300)
    gg, _ = check(horner, (a, 0.9), (0, 1), lambda graph, *x: son.compile(graph)(*x))
    s = schedule(gg)
    grows = [s.block_of[n].depth for n in gg.nodes() if type(n) is TapeGrow]
    assert sorted(grows) == [0, 1]
    check(loop_break, (1.7, 9), (0,))


def sum_ax2(x, a):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * x * x
    return s


def test_reverse_over_reverse_through_a_loop_without_tapes():
    """The gradient of sum(a[i] * x * x) records nothing (a[i] is re-loaded), so it
    can be differentiated again in reverse mode: d2/dx2 = 2 * sum(a)."""
    g1 = grad_graph(son.parse(sum_ax2, args=(1.5, A5)), (0,), False)
    assert not any(type(n) is TapeGrow for n in g1.nodes())
    g2 = grad_graph(g1, (0, 1), False)
    d2x, d2a = son.interpret(g2, 1.5, A5)
    assert close(d2x, 2.0 * A5.sum()) and close(d2a, np.full(5, 2.0 * 1.5))
