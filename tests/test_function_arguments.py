"""Functions passed to the compiled function (``integrate(f, a, b, n)``, ``newton(f, df,
x0)``, ``fold(op, a, init)``): son builds the graph for the function given, as numba
specializes on a dispatcher's type (son/nodes/control.py ``FunctionForm``).

The parameter becomes a constant function value, as a global function is, so the call
through it is inlined and folded with the rest; the kernel takes no value for it.
``son.jit`` keys its kernels on the function's digest (its code and captured values),
so two closures of one ``def`` with other captured values get their own kernels, and a
kernel or graph built for one function refuses another.  CPython is the oracle
(hypothesis inputs) in the interpreter, the kernel and the gradient."""

from __future__ import annotations

import math
import operator
import warnings

import numba
import numpy as np
import pytest
from conftest import run_python, run_son
from hypothesis import given, settings
from hypothesis import strategies as st

import son
from son.errors import SonError
from son.nodes.control import function_digest

FLOATS = st.floats(-20.0, 20.0, allow_nan=False)


def bump(x):
    return math.exp(-x * x) * math.cos(3.0 * x)


@numba.njit
def nb_cube(x):
    return x * x * x


def integrate(f, a: float, b: float, n: int):
    h = (b - a) / n
    s = 0.5 * (f(a) + f(b))
    for i in range(1, n):
        s += f(a + i * h)
    return s * h


def newton(f, df, x0: float):
    x = x0
    for _ in range(30):
        d = df(x)
        if d == 0.0:
            break
        x = x - f(x) / d
    return x


def fold(op, a, init: float):
    acc = init
    for i in range(len(a)):
        acc = op(acc, a[i])
    return acc


def scaler(k):
    return lambda x: x * k


FUNCTIONS = [bump, nb_cube, math.sin, abs, scaler(2.5), scaler(-1.0), lambda x: x - 1.0]


@pytest.mark.parametrize("fn", FUNCTIONS, ids=lambda f: getattr(f, "__qualname__", str(f)))
def test_a_function_argument_compiles_for_that_function_and_agrees_with_cpython(fn):
    k = son.jit(integrate, fallback="error")
    g = son.parse(integrate, args=(fn, 0.0, 1.0, 4))
    assert [n for n, _ in g.params] == ["a", "b", "n"], "a function is no value of the graph"

    @settings(max_examples=25, deadline=None)
    @given(FLOATS, FLOATS, st.integers(-3, 40))
    def check(a, b, n):
        want = run_python(integrate, (fn, a, b, n))
        assert run_son(g, (fn, a, b, n)) == want, "interpreter"
        assert run_python(k, (fn, a, b, n)) == want, "kernel"

    check()


def test_closures_with_other_captured_values_get_their_own_kernels():
    k = son.jit(integrate, fallback="error")
    two, three = scaler(2.0), scaler(3.0)
    assert function_digest(two) != function_digest(three)
    assert k(two, 0.0, 1.0, 10) == integrate(two, 0.0, 1.0, 10)
    assert k(three, 0.0, 1.0, 10) == integrate(three, 0.0, 1.0, 10)
    assert len(k.kernels) == 2
    k(scaler(2.0), 0.0, 1.0, 10)  # another closure of the same value: the same kernel
    assert len(k.kernels) == 2


def test_several_function_arguments_and_operator_functions():
    f, df = (lambda x: x * x - 2.0), (lambda x: 2.0 * x)
    assert son.jit(newton, fallback="error")(f, df, 1.0) == newton(f, df, 1.0)
    a = np.array([3.0, -1.5, 7.25, 0.5])
    for op in (operator.add, operator.mul, max, min):
        assert son.jit(fold, fallback="error")(op, a, 1.0) == fold(op, a, 1.0)


def test_a_graph_or_kernel_built_for_one_function_refuses_another():
    g = son.parse(integrate, args=(bump, 0.0, 1.0, 4))
    k = son.compile(g)
    for run in (lambda *a: son.interpret(g, *a), k):
        assert run(bump, 0.0, 1.0, 8) == integrate(bump, 0.0, 1.0, 8)
        with pytest.raises(SonError, match="built for the function .*bump"):
            run(math.cos, 0.0, 1.0, 8)


def test_gradients_take_the_function_as_given_and_refuse_it_as_an_argnum():
    a, b, n = 0.25, 1.5, 12
    d = son.grad(integrate, argnums=(1, 2))(bump, a, b, n)
    eps = 1e-6
    fd_a = (integrate(bump, a + eps, b, n) - integrate(bump, a - eps, b, n)) / (2 * eps)
    fd_b = (integrate(bump, a, b + eps, n) - integrate(bump, a, b - eps, n)) / (2 * eps)
    assert d == pytest.approx((fd_a, fd_b), rel=1e-6, abs=1e-8)
    with pytest.raises(SonError, match="argnum 0 is a function"):
        son.grad(integrate)(bump, a, b, n)


def test_a_function_son_cannot_read_runs_the_caller_in_cpython_with_a_warning():
    class Square:
        def __call__(self, x):
            return x * x

    k = son.jit(integrate)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert k(Square(), 0.0, 1.0, 10) == integrate(Square(), 0.0, 1.0, 10)
    assert any(isinstance(x.message, son.FallbackWarning) for x in w)


def test_a_function_parameter_without_an_example_says_how_to_give_one():
    with pytest.raises(son.SonSyntaxError, match=r"'f' is not a function .*give an example one"):
        son.parse(integrate)


def _double(x):
    return 2.0 * x + 1.0


def _shift(x):
    return x - 3.0


def with_default(n: int, x: float, g=_double):
    if n <= 0:
        return g(x)
    return with_default(n - 1, x * 0.5) + g(1.0)


def test_a_parameter_whose_default_is_a_function_is_built_for_it():
    """Omitted, it is the default the graph was built for (the interpreter and the kernel
    take it or nothing); the function's own recursive call passes it on; son.jit builds
    another kernel for another function."""
    g = son.parse(with_default)
    assert [n for n, _ in g.params] == ["n", "x"]
    k = son.compile(g)
    for args in ((3, 2.0), (0, -1.5), (3, 2.0, _double)):
        assert son.interpret(g, *args) == with_default(*args)
        assert k(*args) == with_default(*args)
    with pytest.raises(SonError, match="built for the function"):
        k(3, 2.0, _shift)
    j = son.jit(apply_default, fallback="error")
    assert j(2.0, _shift) == apply_default(2.0, _shift)
    assert j(2.0) == apply_default(2.0)
    assert len(j.kernels) == 2


def apply_default(x: float, g=_double):
    return g(x) * g(-x)


def test_derivatives_leave_a_function_default_out_of_primals_and_tangents():
    """The gradient oracle's calls (son.fuzz.grad), with ``g`` left to its default: found
    by son.fuzz (seed 112701 i271, 'N parameters but N-1 argtypes')."""
    x, eps = 0.7, 1e-6
    value, tangent = son.jvp(apply_default)((x,), (1.0,))
    assert value == apply_default(x)
    fd = (apply_default(x + eps) - apply_default(x - eps)) / (2 * eps)
    assert tangent == pytest.approx(fd, rel=1e-6)
    assert son.grad(apply_default)(x) == pytest.approx(fd, rel=1e-6)


def test_argtypes_may_name_the_function_a_parameter_is_built_for():
    g = son.parse(integrate, argtypes=[math.cos, float, float, int])
    assert [n for n, _ in g.params] == ["a", "b", "n"]
    assert son.interpret(g, math.cos, 0.0, 1.0, 10) == integrate(math.cos, 0.0, 1.0, 10)


def test_a_redefined_function_whose_nested_constant_changed_gets_its_own_kernel():
    """Two functions of one name and module (a notebook cell run again) differ only in a
    constant of a lambda they make: their digests differ, so son.jit never runs the
    kernel built for the first on the second."""
    ns1, ns2 = {}, {}
    exec("def f(x):\n    g = lambda y: y * 2.0\n    return g(x)\n", ns1)  # noqa: S102
    exec("def f(x):\n    g = lambda y: y * 3.0\n    return g(x)\n", ns2)  # noqa: S102
    assert function_digest(ns1["f"]) != function_digest(ns2["f"])
