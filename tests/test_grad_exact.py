"""Gradients as exact as the primal (DESIGN.md "Gradients"): values whose kind changes at
run time (an int-started accumulator made a float by ``* a``) recorded without loss,
and exactly zero adjoints and tangents contributing exactly zero (no ``inf * 0 = nan``
from a path the result does not depend on).

Every function runs through the gradient kernel, the interpreted gradient,
``value_and_grad``, forward mode (``jvp``), forward over reverse (``jvp(grad)``) and
reverse over reverse (``grad(grad)``, through the tapes of the inner gradient's loops),
against forward mode and central differences of CPython.  Arguments are non-integers
away from 0, +-1 and 2: a value truncated to an int there stays whole and hides a bug.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import son
from son.grad.reverse import grad_graph
from son.nodes import Store
from son.nodes.memory import TapeGrow


# ---------------------------------------------------------------- values that change kind
def int_start_product(a):
    out = 1
    for _i in range(3):
        out = out * a
    return out


def int_start_three(a):
    out = 3
    for _i in range(3):
        out = out * a
    return out


def int_start_negative(a):
    out = -2
    for _i in range(3):
        out *= a
    return out


def nested_loops(a):
    out = 1
    for _i in range(2):
        for _j in range(3):
            out = out * a
    return out


def while_loop(a):
    out = 1
    i = 0
    while i < 3:
        out = out * a
        i += 1
    return out


def while_data_dependent(a):
    out = 1
    i = 0
    while out < 10.0 and i < 6:
        out = out * a + 1
        i += 1
    return out


def reciprocal(a):
    out = 1
    for _i in range(3):
        out = a / out + a
    return out


def divided(a):
    out = 5
    for _i in range(3):
        out = out / a
    return out


def max_of_int(a):
    out = 1
    for i in range(4):
        out = out * max(a * i, 1)
    return out


def min_capped(a):
    out = 1
    for _i in range(4):
        out = min(out, 10) * a
    return out


def abs_of_int(a):
    out = -1
    for _i in range(3):
        out = abs(out) * a
    return out


def square_plus(a):
    out = 1
    for _i in range(3):
        out = out * out + a
    return out


def power_plus(a):
    out = 1
    for _i in range(3):
        out = out**2 + a
    return out


def coupled(a):
    x = 1
    y = 2
    for _i in range(3):
        x, y = y * a, x + a
    return x * y


def arms_of_an_if(a):
    out = 1
    for i in range(5):
        if i % 2 == 0:
            out = out * a
        else:
            out = out + 1
    return out


def stored_into_an_array(a):
    r = np.zeros(3)
    out = 1
    for i in range(3):
        out = out * a
        r[i] = out
    return r[2] + r[1] * a


def sum_from_int(a):
    s = 0
    for i in range(4):
        s = s + a * i
    return s * s


def minus_one(a):
    out = 1
    for _i in range(3):
        out = out * a - 1
    return out


def max_of_accumulator(a):
    out = 1
    for _i in range(3):
        out = max(out, a) * a
    return out


def two_parameters(a, b):
    out = 1
    for _i in range(3):
        out = out * a + b
    return out * b


def early_break(a):
    out = 2
    for _i in range(10):
        out = out * a
        if out > 20.0:
            break
    return out


def int_then_float_branch(a):
    out = 1
    for i in range(4):
        out = out * a if i % 2 else out + 2
    return out


def counter_times(a):
    out = 0
    k = 1
    for _i in range(3):
        k = k * a
        out = out + k
    return out


def inner_reset(a):
    t = 0.0
    for i in range(3):
        out = 1
        for _j in range(i + 1):
            out = out * a
        t = t + out
    return t


KIND_CHANGES = [int_start_product, int_start_three, int_start_negative, nested_loops, while_loop,
                while_data_dependent, reciprocal, divided, max_of_int, min_capped, abs_of_int, square_plus,
                power_plus, coupled, arms_of_an_if, stored_into_an_array, sum_from_int, minus_one,
                max_of_accumulator, two_parameters, early_break, int_then_float_branch, counter_times,
                inner_reset]

POINTS = [1.37, -0.63, 2.71]


def _args(f, x: float) -> tuple:
    return (x, 0.45) if f is two_parameters else (x,)


def _fd(f, args: tuple, k: int, h: float = 1e-6) -> float:
    hi, lo = list(args), list(args)
    hi[k] += h
    lo[k] -= h
    return (f(*hi) - f(*lo)) / (2 * h)


def close(a: float, b: float, rel: float = 1e-12) -> bool:
    return a == b or abs(a - b) <= rel * max(1.0, abs(a), abs(b))


@pytest.mark.parametrize("f", KIND_CHANGES, ids=[f.__name__ for f in KIND_CHANGES])
def test_gradient_of_a_value_that_changes_kind_is_exact(f):
    nargs = 2 if f is two_parameters else 1
    grads = [son.grad(f, argnums=k) for k in range(nargs)]
    interp = [son.grad(f, argnums=k, interpret=True) for k in range(nargs)]
    vg = son.value_and_grad(f, argnums=tuple(range(nargs)), interpret=True)
    jvp = son.jvp(f, interpret=True)
    for x in POINTS:
        args = _args(f, x)
        value, gs = vg(*args)
        want = f(*args)
        assert value == want and (type(value) is type(want) or isinstance(want, np.float64))
        for k in range(nargs):
            basis = tuple(1.0 if j == k else 0.0 for j in range(nargs))
            _, tangent = jvp(args, basis)
            assert close(grads[k](*args), tangent), (f.__name__, x, k, grads[k](*args), tangent)
            assert close(interp[k](*args), tangent), (f.__name__, x, k)
            assert close(gs[k], tangent), (f.__name__, x, k)
            assert close(tangent, _fd(f, args, k), 1e-6), (f.__name__, x, k, tangent)


@pytest.mark.parametrize("f", KIND_CHANGES[:8], ids=[f.__name__ for f in KIND_CHANGES[:8]])
def test_forward_over_reverse_of_a_value_that_changes_kind(f):
    """jvp(grad): the gradient again and the second derivative, against central
    differences of the (correct) forward-mode derivative."""
    hvp = son.jvp(son.grad(f, interpret=True), interpret=True)
    jvp = son.jvp(f, interpret=True)

    def d1(x: float) -> float:
        return jvp((x,), (1.0,))[1]

    for x in POINTS:
        g, h = hvp((x,), (1.0,))
        assert close(g, d1(x)), (f.__name__, x, g)
        assert close(h, (d1(x + 1e-6) - d1(x - 1e-6)) / 2e-6, 1e-6), (f.__name__, x, h)


@pytest.mark.parametrize("f", KIND_CHANGES, ids=[f.__name__ for f in KIND_CHANGES])
def test_reverse_over_reverse_of_a_value_that_changes_kind(f):
    """grad(grad) through the loops (and their tapes) of every shape, for every float
    parameter (two_parameters: both second derivatives and the mixed one), equal to
    forward over reverse to rounding."""
    nargs = 2 if f is two_parameters else 1
    for k in range(nargs):
        hvp = son.jvp(son.grad(f, argnums=k, interpret=True), argnums=(k,), interpret=True)
        for j in range(nargs):
            gg = son.grad(son.grad(f, argnums=k, interpret=True), argnums=j, interpret=True)
            mixed = son.jvp(son.grad(f, argnums=k, interpret=True), argnums=(j,), interpret=True)
            for x in POINTS:
                args = _args(f, x)
                want = (hvp if j == k else mixed)(args, (1.0,))[1]
                assert close(gg(*args), want), (f.__name__, k, j, x, gg(*args), want)


@pytest.mark.parametrize("f", [int_start_product, nested_loops, while_data_dependent, arms_of_an_if,
                               stored_into_an_array, early_break])
def test_reverse_over_reverse_compiled(f):
    gg = son.grad(son.grad(f))
    hvp = son.jvp(son.grad(f, interpret=True), interpret=True)
    for x in POINTS:
        assert close(gg(x), hvp((x,), (1.0,))[1]), (f.__name__, x, gg(x))


@pytest.mark.parametrize("f", KIND_CHANGES, ids=[f.__name__ for f in KIND_CHANGES])
def test_no_tape_entry_loses_information(f):
    """Every value stored on a tape has exactly the tape's kind: floats on the float64
    tape, ints and bools on the int64 tape; never an int-or-float."""
    g = son.parse(f, argtypes=[float] * (2 if f is two_parameters else 1))
    rg = grad_graph(g)
    stores = [n for n in rg.nodes() if type(n) is Store and type(n.inputs[2]) is TapeGrow]
    for s in stores:
        dtype, kind = s.inputs[2].type.dtype, s.inputs[4].type.kind
        assert (dtype, kind) in {("float64", "float"), ("int64", "int"), ("int64", "bool")}, (s, dtype, kind)


# ---------------------------------------------------------------- zero adjoints stay zero
def inf_on_the_untaken_path(x0: float, n: int):
    v1 = x0 * math.inf
    if n > 2:
        return v1
    return 10.0 + float(x0 > v1)


def minus_inf_product(x: float, n: int):
    v = x * (x - math.inf)
    if n > 2:
        return v
    return x * 3.0


def log_of_nan(x: float, n: int):
    v = math.log10(x * math.nan)
    if n > 2:
        return v
    return x * x


def divided_by_nan(x: float, n: int):
    v = x / math.nan
    if n > 2:
        return v
    return x * 3.0


def inf_in_a_loop(x: float, n: int):
    s = 0.0
    for i in range(n):
        v = x * math.inf
        if i > 100:
            s = s + v
        else:
            s = s + x * x
    return s


def inf_in_an_int_started_loop(x: float, n: int):
    s = 1
    for i in range(n):
        v = s * math.inf
        s = s * x
        if i > 100:
            s = s + v
    return s


ZERO_ADJOINTS = [(inf_on_the_untaken_path, (0.821, 0)), (minus_inf_product, (0.57, 1)),
                 (log_of_nan, (0.57, 1)), (divided_by_nan, (0.57, 1)), (inf_in_a_loop, (0.57, 4)),
                 (inf_in_an_int_started_loop, (1.37, 3))]


@pytest.mark.parametrize("f, args", ZERO_ADJOINTS, ids=[f.__name__ for f, _ in ZERO_ADJOINTS])
def test_an_exactly_zero_adjoint_contributes_exactly_zero(f, args):
    fd = _fd(f, args, 0)
    assert math.isfinite(fd)
    _, tangent = son.jvp(f, argnums=(0,), interpret=True)(args, (1.0,))
    assert close(tangent, fd, 1e-6), (tangent, fd)
    for g in (son.grad(f), son.grad(f, interpret=True)):
        assert close(g(*args), tangent), (f.__name__, g(*args), tangent)
    value, d = son.value_and_grad(f)(*args)
    assert value == f(*args) and close(d, tangent)
    _, h = son.jvp(son.grad(f, interpret=True), argnums=(0,), interpret=True)(args, (1.0,))
    assert math.isfinite(h), h


def test_a_zero_tangent_contributes_zero_in_forward_mode():
    """d/dx of x * y at y = inf along x: y, and along y with x's tangent 0: x -- the
    zero tangent of the other operand does not make inf * 0 = nan."""
    def f(x: float, y: float):
        return x * y + x

    jf = son.jvp(f, interpret=True)
    assert jf((0.5, math.inf), (0.0, 1.0))[1] == 0.5
    assert jf((0.5, math.inf), (1.0, 0.0))[1] == math.inf


def _math_mix(x):
    return (math.cosh(x) + math.sinh(x) * math.sin(x) - math.log1p(x * x) + math.atan(x)
            + math.sqrt(x * x + 1.0) * math.exp(-x * x) + math.tanh(x) * math.asinh(x))


def test_math_partials_are_the_c_librarys_so_kernel_and_interpreter_agree_exactly():
    """A partial built from a math function is its ``math`` flavour (the C library's, as
    the primal), never numpy's, whose SIMD loops may round differently from the kernel's
    libm call (son.fuzz seed 7125 i4520: an ulp apart for the partial of cosh)."""
    from son.nodes.mathfn import MathCall

    df = son.grad(_math_mix)
    g = df.graph_for(["float"])
    flavours = {(type(n).__name__, n.np) for n in g.live() if isinstance(n, MathCall)}
    assert flavours and all(not np_ or name in ("Floor", "Ceil", "Trunc", "Copysign")
                            for name, np_ in flavours)
    interp = son.grad(_math_mix, interpret=True)
    xs = np.random.default_rng(4520).uniform(-4.0, 4.0, 300)
    assert [df(float(x)) for x in xs] == [interp(float(x)) for x in xs]
