"""The gradient corpus: plain Python functions in son's frontend subset, each with
a safe argument generator, the arguments to differentiate, and oracles.

Every entry of ``CASES`` is a ``GradCase``:

* ``fn`` — a module-level function (``inspect`` reads its source) written with
  ``math.*``; floats and 1-D float64 arrays are the differentiated inputs, ints
  are trip counts, indices and other non-differentiated arguments;
* ``args(rng)`` — arguments drawn from a *safe domain*: away from kinks (``abs``,
  ``min``/``max``, branch conditions, ``//`` and ``%`` discontinuities, changes
  of a data-dependent trip count) by a margin far larger than any finite
  difference step, and away from domain edges (``log``, ``sqrt``, ``**``);
* ``argnums`` — the positions differentiated (a tuple; the tests also use the
  int form for single arguments);
* ``closed`` — the closed-form gradient ``closed(*args) -> tuple`` aligned with
  ``argnums``, where one is known; ``hvp`` — the closed-form Hessian-vector
  product ``hvp(args, v) -> array or float`` w.r.t. ``argnums[0]``;
* ``ag`` — whether ``autograd`` can differentiate the same source (see
  ``autograd_version``); where it cannot, ``ag_why`` says why (in-place array
  writes, ``//`` on a traced value);
* ``rules`` and ``shapes`` — which derivative rules and control shapes the
  entry exercises (``test_grad.py`` checks that every rule and shape of
  issue 5 is covered);
* ``order2`` — which second-order checks apply: ``"grad"`` (``son.grad`` of
  ``son.grad``; straight-line and branching code with a scalar first argnum),
  ``"hvp"`` (``son.jvp`` of ``son.grad``; any smooth function, loops included;
  where the hvp argument is a float, ``son.grad`` of ``son.grad`` through the loops
  too, ``LOOP_GRAD2`` in ``test_grad.py``),
  or ``""`` (none: the gradient is piecewise constant, or there is nothing new
  to learn).

The autograd versions are the same code objects re-bound to a namespace in
which ``math`` is ``autograd.numpy``, so the two versions cannot drift apart.
"""

from __future__ import annotations

import builtins
import math
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

# ================================================================== the functions
# ---------------------------------------------------------------- straight line


def poly_mix(x, y):
    return x * y + x - y * y + 3.0 * x * x * x


def quotient(x, y):
    return (x + 1.0) / (y * y + 1.0)


def negate(x, y):
    return -(x * y) + -x


def power_const(x):
    return x ** 3.5 + x ** 2


def power_var(x, y):
    return x ** y


def power_int_exp(x, k):
    return x ** k + 2.0 * x


def trig(x):
    return math.sin(x) * math.cos(2.0 * x) + math.tan(x / 3.0)


def exp_log(x, y):
    return math.exp(x / 2.0) * math.log(y) + math.log(x * x + 1.0)


def sqrt_tanh(x):
    return math.sqrt(x * x + 1.0) * math.tanh(x)


def abs_product(x, y):
    return abs(x - y) * x


def min_max(x, y):
    return min(x, y) * 2.0 + max(x * x, y)


def floordiv_mod(x, y):
    return x // 1.5 + (x % y) * y


def mod_only(x, y):
    return (x % y) * (x % y)


def casts(x, n):
    return float(n) * x + float(int(x)) * x


def unused_param(x, y):
    return x * x + 1.0


def fan_out(x):
    a = x * x
    b = a * a
    c = b * a
    return c + a


def chain(x):
    return math.exp(math.sin(math.sqrt(x)))


def _square(v):
    return v * v


def inlined_call(x, y):
    return _square(math.sin(x)) + _square(x * y)


def reassign(x):
    y = x
    y = y * 2.0
    y = y + x
    y = y * y
    return y


# ---------------------------------------------------------------- branches
def huber(x):
    if x < -1.0:
        return -x - 0.5
    elif x < 1.0:
        return 0.5 * x * x
    else:
        return x - 0.5


def branch_phi(x, y):
    if x > y:
        z = x * y
    else:
        z = x + y
    return z * z


def select_expr(x, y):
    return (x * x if x > 0.0 else -x) + (y if y > x else x * y)


def elif_chain(x):
    if x < -1.0:
        r = math.exp(x)
    elif x < 1.0:
        r = math.sin(x) + 1.0
    elif x < 3.0:
        r = x * x
    else:
        r = math.log(x) * 3.0
    return r * x


def nested_if(x, y):
    if x > 0.0:
        if y > 0.0:
            r = x * y
        else:
            r = x - y * y
    else:
        r = x * x * y
    return r + x


def and_or(x, y):
    if x > 0.0 and y > 0.0:
        return x * y
    if x < -1.0 or y < -1.0:
        return x + y
    return x * x + y * y


def early_return(x):
    if x > 2.0:
        return math.log(x)
    return x * x * 0.25


def clamp(x, lo, hi):
    return max(lo, min(x, hi)) * x


# ---------------------------------------------------------------- loops
def while_halve(x):
    n = 0
    while x > 1.0:
        x = x * 0.5
        n += 1
    return x * x + n


def while_grow(x, y):
    s = x
    k = 0
    while s < y:
        s = s * 1.3 + 0.1
        k += 1
    return s * x + k


def for_power(x, n):
    p = 1.0
    for _ in range(n):
        p = p * x
    return p


def nested_loops(a):
    s = 0.0
    for i in range(len(a)):
        for j in range(len(a)):
            s += a[i] * a[j] * float((i - j) * (i - j))
    return s


def nested_while(x, n):
    s = 1.0
    i = 0
    while i < n:
        j = 0
        while j < i:
            s = s * x + 0.5
            j += 1
        i += 1
    return s


def break_loop(a):
    s = 0.0
    for i in range(len(a)):
        if a[i] < 0.0:
            break
        s += a[i] * a[i]
    return s


def break_while(x):
    y = 1.0
    k = 0
    while k < 100:
        y = y * x
        if y > 10.0:
            break
        k += 1
    return y + k


def return_in_loop(a, t):
    for i in range(len(a)):
        if a[i] > t:
            return a[i] * t
    return t * t


def continue_loop(a):
    s = 0.0
    for i in range(len(a)):
        if a[i] < 0.0:
            continue
        s += math.exp(a[i])
    return s


def loop_in_branch(x, n):
    if x > 0.0:
        for _ in range(n):
            x = math.sin(x) + x
    else:
        x = -x * x
    return x


def branch_in_loop(a):
    s = 0.0
    for i in range(len(a)):
        if a[i] > 0.5:
            s += a[i] * a[i]
        elif a[i] > -0.5:
            s += math.sin(a[i])
        else:
            s -= a[i]
    return s


def countdown(x, n):
    while n > 0:
        x = x * x * 0.5 + 0.1
        n -= 1
    return x


def float_counter(x, n):
    s = 0.0
    for i in range(n):
        s += x * float(i) + x * x
    return s


# ---------------------------------------------------------------- reductions
def dot(a, b):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * b[i]
    return s


def sum_squares(a):
    s = 0.0
    for i in range(len(a)):
        s += a[i] * a[i]
    return s


def sum_cubes(a):
    s = 0.0
    for i in range(len(a)):
        s += a[i] ** 3
    return s


def abs_sum(a):
    s = 0.0
    for i in range(len(a)):
        s += abs(a[i])
    return s


def log_sum_exp(a):
    m = a[0]
    for i in range(1, len(a)):
        m = max(m, a[i])
    s = 0.0
    for i in range(len(a)):
        s += math.exp(a[i] - m)
    return m + math.log(s)


def softmax_xent(a, k):
    m = a[0]
    for i in range(1, len(a)):
        m = max(m, a[i])
    s = 0.0
    for i in range(len(a)):
        s += math.exp(a[i] - m)
    return m + math.log(s) - a[k]


def spread(a):
    hi = a[0]
    lo = a[0]
    for i in range(1, len(a)):
        hi = max(hi, a[i])
        lo = min(lo, a[i])
    return hi - lo


def leaky_relu_sum(a):
    s = 0.0
    for i in range(len(a)):
        s += a[i] if a[i] > 0.0 else 0.1 * a[i]
    return s


def log_norm(a):
    s = 0.0
    for i in range(len(a)):
        s += math.log(1.0 + a[i] * a[i])
    return math.sqrt(s)


def horner(c, x):
    acc = 0.0
    for i in range(len(c)):
        acc = acc * x + c[i]
    return acc


def rnn(xs, w, u):
    h = 0.0
    for i in range(len(xs)):
        h = math.tanh(w * h + u * xs[i] + 0.1)
    return h * h


def rnn_weights(xs, ws):
    h = 0.5
    for i in range(len(xs)):
        h = math.tanh(ws[0] * h + ws[1] * xs[i] + ws[2])
    return h


def newton_sqrt(a):
    x = a
    k = 0
    while abs(x * x - a) > 1e-12 * a and k < 60:
        x = 0.5 * (x + a / x)
        k += 1
    return x


def newton_cubic(c):
    x = 1.0
    for _ in range(30):
        x = x - (x * x * x + x - c) / (3.0 * x * x + 1.0)
    return x


# ---------------------------------------------------------------- array writes
def smooth(a):
    y = np.zeros(len(a))
    for i in range(1, len(a) - 1):
        y[i] = (a[i - 1] + a[i] + a[i + 1]) / 3.0
    s = 0.0
    for i in range(len(y)):
        s += y[i] * y[i]
    return s


def cumsum_squares(a):
    c = np.zeros(len(a))
    c[0] = a[0]
    for i in range(1, len(a)):
        c[i] = c[i - 1] + a[i]
    s = 0.0
    for i in range(len(c)):
        s += c[i] * c[i]
    return s


def write_then_read(a):
    b = np.zeros(len(a))
    for i in range(len(a)):
        b[i] = a[i] * a[i]
    s = 0.0
    n = len(a)
    for i in range(n):
        s += b[i] * b[n - 1 - i]
    return s


def square_in_place(a):
    for i in range(len(a)):
        a[i] = a[i] * a[i]
    s = 0.0
    for i in range(len(a)):
        s += a[i]
    return s


def overwrite_scalar_array(x, n):
    b = np.ones(n)
    for i in range(n):
        b[i] = b[i] * x + float(i)
    for i in range(n):
        b[i] = b[i] * b[i]
    s = 0.0
    for i in range(n):
        s += b[i]
    return s


# ================================================================== argument generators
def _away(rng, lo, hi, bad, margin):
    """A float in [lo, hi] at least ``margin`` from every value of ``bad``."""
    for _ in range(10_000):
        v = float(rng.uniform(lo, hi))
        if all(abs(v - b) > margin for b in bad):
            return v
    raise AssertionError("no safe value")


def _arr(rng, n, lo=-1.0, hi=1.0, avoid=(), margin=0.1, distinct=False):
    """A float64 array with every element at least ``margin`` from ``avoid``;
    with ``distinct`` the elements are also ``margin`` apart (no ties for max/min)."""
    out = []
    for _ in range(n):
        out.append(_away(rng, lo, hi, list(avoid) + (out if distinct else []), margin))
    return np.array(out)


def _u(lo, hi):
    return lambda rng: (float(rng.uniform(lo, hi)),)


def _frac_ok(v, margin=0.1):
    f = v - math.floor(v)
    return margin < f < 1.0 - margin


def _floordiv_args(rng):
    while True:
        x, y = float(rng.uniform(0.5, 4.0)), float(rng.uniform(0.6, 1.5))
        if _frac_ok(x / 1.5) and _frac_ok(x / y):
            return x, y


def _mod_args(rng):
    while True:
        x, y = float(rng.uniform(-3.0, 3.0)), float(rng.uniform(0.6, 1.5))
        if _frac_ok(x / y):
            return x, y


def _halve_args(rng):
    x = float(rng.uniform(0.3, 40.0))
    while any(abs(x - 2.0 ** k) < 0.1 * 2.0 ** k for k in range(7)):
        x = float(rng.uniform(0.3, 40.0))
    return (x,)


def _grow_count(x, y):
    s, k = x, 0
    while s < y:
        s, k = s * 1.3 + 0.1, k + 1
    return s, k


def _grow_args(rng):
    """Away from a change of the trip count: ``s`` crosses ``y`` by a margin."""
    while True:
        x, y = float(rng.uniform(0.2, 1.0)), float(rng.uniform(1.5, 6.0))
        s, k = _grow_count(x, y)
        prev = (s - 0.1) / 1.3
        if s - y > 0.2 and y - prev > 0.2:
            return x, y


def _break_while_args(rng):
    while True:
        x = float(rng.uniform(1.2, 3.0))
        k = math.log(10.0) / math.log(x)
        if abs(k - round(k)) > 0.1:
            return (x,)


def _newton_args(rng):
    return (float(rng.uniform(0.5, 9.0)),)


# ================================================================== closed forms
def _sign(v):
    return 1.0 if v > 0 else -1.0


def _huber_d(x):
    return -1.0 if x < -1.0 else (x if x < 1.0 else 1.0)


def _elif_d(x):
    if x < -1.0:
        return math.exp(x) * x + math.exp(x)
    if x < 1.0:
        return math.cos(x) * x + math.sin(x) + 1.0
    if x < 3.0:
        return 3.0 * x * x
    return 3.0 / x * x + 3.0 * math.log(x)


def _halve_d(x):
    n = 0
    while x > 1.0:
        x, n = x * 0.5, n + 1
    return (2.0 * x * 0.5 ** n,)


def _lse_grad(a):
    p = np.exp(a - a.max())
    return p / p.sum()


def _lse_hvp(args, v):
    p = _lse_grad(args[0])
    return p * v - p * (p @ v)


def _xent_grad(a, k):
    g = _lse_grad(a)
    g[k] -= 1.0
    return (g,)


def _nested_w(n):
    i = np.arange(n)
    return ((i[:, None] - i[None, :]) ** 2).astype(float)


def _break_loop_d(a):
    g = np.zeros_like(a)
    for i in range(len(a)):
        if a[i] < 0.0:
            break
        g[i] = 2.0 * a[i]
    return (g,)


def _prefix(a):
    """1.0 on the elements before the first negative one, 0.0 from there on."""
    return np.cumprod(a >= 0.0).astype(float)


def _return_in_loop_d(a, t):
    ga = np.zeros_like(a)
    for i in range(len(a)):
        if a[i] > t:
            ga[i] = t
            return ga, float(a[i])
    return ga, 2.0 * t


def _branch_in_loop_d(a):
    return (np.where(a > 0.5, 2.0 * a, np.where(a > -0.5, np.cos(a), -1.0)),)


def _horner_d(c, x):
    n = len(c)
    gc = np.array([x ** (n - 1 - i) for i in range(n)])
    gx = sum(c[i] * (n - 1 - i) * x ** (n - 2 - i) for i in range(n - 1))
    return gc, gx


def _horner_hvp_x(args, v):
    c, x = args
    n = len(c)
    return v * sum(c[i] * (n - 1 - i) * (n - 2 - i) * x ** (n - 3 - i) for i in range(n - 2))


def _smooth_d(a):
    n = len(a)
    s = np.zeros((n, n))
    for i in range(1, n - 1):
        s[i, i - 1:i + 2] = 1.0 / 3.0
    return (2.0 * s.T @ (s @ a),)


def _cumsum_d(a):
    c = np.cumsum(a)
    return (2.0 * np.cumsum(c[::-1])[::-1],)


def _wtr_d(a):
    b = a * a
    return (4.0 * a * b[::-1],)


def _overwrite_d(x, n):
    i = np.arange(n, dtype=float)
    return (float(np.sum(2.0 * (x + i))),)


def _spread_d(a):
    g = np.zeros_like(a)
    g[int(np.argmax(a))] += 1.0
    g[int(np.argmin(a))] -= 1.0
    return (g,)


def _log_norm_d(a):
    s = float(np.sum(np.log1p(a * a)))
    return (a / (1.0 + a * a) / math.sqrt(s),)


def _countdown_d(x, n):
    d = 1.0
    for _ in range(n):
        d = d * x
        x = x * x * 0.5 + 0.1
    return (d,)


def _newton_cubic_d(c):
    x = 1.0
    for _ in range(60):
        x = x - (x * x * x + x - c) / (3.0 * x * x + 1.0)
    return (1.0 / (3.0 * x * x + 1.0),)


# ================================================================== the table
@dataclass
class GradCase:
    fn: Callable
    args: Callable[[np.random.Generator], tuple]
    argnums: tuple[int, ...]
    rules: tuple[str, ...]
    shapes: tuple[str, ...]
    closed: Callable[..., tuple] | None = None
    hvp: Callable[[tuple, object], object] | None = None
    ag: bool = True
    ag_why: str = ""
    order2: str = "hvp"
    hvp_arg: int | None = None
    compiled: bool = False

    @property
    def name(self) -> str:
        return self.fn.__name__


def _c(fn, args, argnums, rules, shapes, **kw) -> GradCase:
    return GradCase(fn, args, argnums, tuple(rules.split()), tuple(shapes.split()), **kw)


_NO_AG_WRITES = "autograd cannot differentiate through in-place array writes"


def _ints(*ns):
    """An int argument drawn from ``ns``."""
    return lambda rng: int(rng.choice(ns))


CASES: list[GradCase] = [
    # straight line
    _c(poly_mix, lambda r: (float(r.uniform(-2, 2)), float(r.uniform(-2, 2))), (0, 1), "add sub mul",
       "straight", closed=lambda x, y: (y + 1.0 + 9.0 * x * x, x - 2.0 * y), order2="grad",
       hvp=lambda a, v: 18.0 * a[0] * v),
    _c(quotient, lambda r: (float(r.uniform(-2, 2)), float(r.uniform(-2, 2))), (0, 1), "div add mul",
       "straight", closed=lambda x, y: (1.0 / (y * y + 1.0), -(x + 1.0) * 2.0 * y / (y * y + 1.0) ** 2),
       order2="grad", hvp=lambda a, v: 0.0 * v),
    _c(negate, lambda r: (float(r.uniform(-2, 2)), float(r.uniform(-2, 2))), (0, 1), "neg mul add",
       "straight", closed=lambda x, y: (-y - 1.0, -x), order2="grad"),
    _c(power_const, _u(0.3, 3.0), (0,), "pow add", "straight",
       closed=lambda x: (3.5 * x ** 2.5 + 2.0 * x,), order2="grad",
       hvp=lambda a, v: (8.75 * a[0] ** 1.5 + 2.0) * v),
    _c(power_var, lambda r: (float(r.uniform(0.3, 3.0)), float(r.uniform(-2, 2))), (0, 1), "pow", "straight",
       closed=lambda x, y: (y * x ** (y - 1.0), x ** y * math.log(x)), order2="grad"),
    _c(power_int_exp, lambda r: (float(r.uniform(-2, 2)), _ints(1, 2, 3, 4)(r)), (0,), "pow cast", "straight",
       closed=lambda x, k: (k * x ** (k - 1) + 2.0,), order2="grad",
       hvp=lambda a, v: a[1] * (a[1] - 1) * a[0] ** (a[1] - 2) * v if a[1] >= 2 else 0.0 * v),
    _c(trig, _u(-1.2, 1.2), (0,), "sin cos tan mul div", "straight",
       closed=lambda x: (math.cos(x) * math.cos(2 * x) - 2.0 * math.sin(x) * math.sin(2 * x)
                         + 1.0 / (3.0 * math.cos(x / 3.0) ** 2),), order2="grad"),
    _c(exp_log, lambda r: (float(r.uniform(-2, 2)), float(r.uniform(0.3, 4.0))), (0, 1), "exp log div",
       "straight", closed=lambda x, y: (0.5 * math.exp(x / 2) * math.log(y) + 2 * x / (x * x + 1),
                                        math.exp(x / 2) / y), order2="grad"),
    _c(sqrt_tanh, _u(-2, 2), (0,), "sqrt tanh", "straight",
       closed=lambda x: (x / math.sqrt(x * x + 1) * math.tanh(x)
                         + math.sqrt(x * x + 1) * (1 - math.tanh(x) ** 2),), order2="grad"),
    _c(abs_product, lambda r: (float(r.uniform(-2, 2)), float(r.uniform(-2, 2))), (0, 1), "abs sub mul",
       "straight", closed=lambda x, y: (_sign(x - y) * x + abs(x - y), -_sign(x - y) * x), order2="grad"),
    _c(min_max, lambda r: (float(r.uniform(-2, 2)), float(r.uniform(-2, 2))), (0, 1), "min max mul",
       "straight",
       closed=lambda x, y: ((2.0 if x < y else 0.0) + (2 * x if x * x > y else 0.0),
                            (0.0 if x < y else 2.0) + (0.0 if x * x > y else 1.0)), order2="grad"),
    _c(floordiv_mod, _floordiv_args, (0, 1), "floordiv mod mul", "straight",
       closed=lambda x, y: (y, (x % y) - y * math.floor(x / y)), ag=False,
       ag_why="autograd has no // on traced values", order2="grad"),
    _c(mod_only, _mod_args, (0, 1), "mod mul", "straight",
       closed=lambda x, y: (2.0 * (x % y), -2.0 * (x % y) * math.floor(x / y)), order2="grad"),
    _c(casts, lambda r: (_away(r, -3, 3, range(-3, 4), 0.1), _ints(1, 2, 5)(r)), (0,), "cast mul add",
       "straight", closed=lambda x, n: (float(n) + float(int(x)),), order2="grad"),
    _c(unused_param, lambda r: (float(r.uniform(-2, 2)), float(r.uniform(-2, 2))), (0, 1), "mul add",
       "straight", closed=lambda x, y: (2.0 * x, 0.0), order2="grad"),
    _c(fan_out, _u(-1.5, 1.5), (0,), "mul add", "straight",
       closed=lambda x: (6.0 * x ** 5 + 2.0 * x,), order2="grad",
       hvp=lambda a, v: (30.0 * a[0] ** 4 + 2.0) * v),
    _c(chain, _u(0.2, 4.0), (0,), "sqrt sin exp", "straight",
       closed=lambda x: (math.cos(math.sqrt(x)) * math.exp(math.sin(math.sqrt(x))) / (2 * math.sqrt(x)),),
       order2="grad"),
    _c(inlined_call, lambda r: (float(r.uniform(-2, 2)), float(r.uniform(-2, 2))), (0, 1), "sin mul add",
       "straight call", closed=lambda x, y: (2 * math.sin(x) * math.cos(x) + 2 * x * y * y, 2 * x * x * y),
       order2="grad"),
    _c(reassign, _u(-2, 2), (0,), "mul add", "straight", closed=lambda x: (18.0 * x,), order2="grad",
       hvp=lambda a, v: 18.0 * v),
    # branches
    _c(huber, lambda r: (_away(r, -3, 3, (-1.0, 1.0), 0.1),), (0,), "neg sub mul", "branch piecewise return",
       closed=lambda x: (_huber_d(x),), order2="grad",
       hvp=lambda a, v: (1.0 if -1.0 < a[0] < 1.0 else 0.0) * v),
    _c(branch_phi, lambda r: _pair_away(r, lambda x, y: x - y), (0, 1), "phi mul add", "branch",
       closed=lambda x, y: ((2 * x * y * y, 2 * x * x * y) if x > y else (2 * (x + y), 2 * (x + y))),
       order2="grad"),
    _c(select_expr, lambda r: _pair_away(r, lambda x, y: x, lambda x, y: y - x), (0, 1), "select mul neg",
       "select", closed=lambda x, y: ((2 * x if x > 0 else -1.0) + (0.0 if y > x else y),
                                     1.0 if y > x else x), order2="grad"),
    _c(elif_chain, lambda r: (_away(r, -3, 5, (-1.0, 1.0, 3.0), 0.1),), (0,), "exp sin log mul phi",
       "branch elif",
       closed=lambda x: (_elif_d(x),), order2="grad"),
    _c(nested_if, lambda r: _pair_away(r, lambda x, y: x, lambda x, y: y), (0, 1), "mul sub",
       "branch nested_if",
       closed=lambda x, y: ((y + 1, x) if x > 0 and y > 0 else
                            ((2.0, -2 * y) if x > 0 else (2 * x * y + 1, x * x))), order2="grad"),
    _c(and_or, lambda r: _pair_away(r, lambda x, y: x, lambda x, y: y, lambda x, y: x + 1,
                                    lambda x, y: y + 1),
       (0, 1), "mul add", "branch short_circuit return", order2="grad"),
    _c(early_return, lambda r: (_away(r, 0.3, 5, (2.0,), 0.1),), (0,), "log mul", "branch return",
       closed=lambda x: (1.0 / x if x > 2.0 else 0.5 * x,), order2="grad"),
    _c(clamp, lambda r: (_away(r, -3, 3, (-1.0, 1.0), 0.1), -1.0, 1.0), (0, 1, 2), "min max mul", "straight",
       closed=lambda x, lo, hi: ((2 * x if lo < x < hi else (lo if x < lo else hi)),
                                 x if x < lo else 0.0, x if x > hi else 0.0), order2="grad"),
    # loops
    _c(while_halve, _halve_args, (0,), "mul phi", "while data_trip", closed=_halve_d),
    _c(while_grow, _grow_args, (0, 1), "mul add phi", "while data_trip"),
    _c(for_power, lambda r: (float(r.uniform(-1.5, 1.5)), _ints(0, 1, 3, 6)(r)), (0,), "mul phi", "for",
       closed=lambda x, n: (n * x ** (n - 1) if n else 0.0,),
       hvp=lambda a, v: (a[1] * (a[1] - 1) * a[0] ** (a[1] - 2) if a[1] >= 2 else 0.0) * v, compiled=True),
    _c(nested_loops, lambda r: (_arr(r, 5),), (0,), "read mul cast", "nested_loops reduction",
       closed=lambda a: (2.0 * _nested_w(len(a)) @ a,), hvp=lambda a, v: 2.0 * _nested_w(len(v)) @ v),
    _c(nested_while, lambda r: (float(r.uniform(-1.2, 1.2)), _ints(0, 2, 4)(r)), (0,), "mul add phi",
       "nested_loops while"),
    _c(break_loop, lambda r: (_arr(r, 6, -0.5, 2.0, avoid=(0.0,)),), (0,), "read mul", "for break",
       closed=_break_loop_d, hvp=lambda a, v: 2.0 * _prefix(a[0]) * v),
    _c(break_while, _break_while_args, (0,), "mul phi", "while break"),
    _c(return_in_loop, lambda r: (_arr(r, 5, avoid=(0.3,)), 0.3), (0, 1), "read mul", "for return_in_loop",
       closed=_return_in_loop_d),
    _c(continue_loop, lambda r: (_arr(r, 6, avoid=(0.0,)),), (0,), "read exp", "for continue",
       closed=lambda a: (np.where(a < 0, 0.0, np.exp(a)),),
       hvp=lambda a, v: np.where(a[0] < 0, 0.0, np.exp(a[0])) * v),
    _c(loop_in_branch, lambda r: (_away(r, -1.5, 1.5, (0.0,), 0.1), _ints(1, 3)(r)), (0,), "sin add neg mul",
       "loop_in_branch"),
    _c(branch_in_loop, lambda r: (_arr(r, 7, -1.5, 1.5, avoid=(-0.5, 0.5)),), (0,), "read mul sin sub phi",
       "branch_in_loop elif", closed=_branch_in_loop_d, compiled=True),
    _c(countdown, lambda r: (float(r.uniform(-1.0, 1.0)), _ints(0, 1, 4)(r)), (0,), "mul add",
       "while int_trip", closed=_countdown_d),
    _c(float_counter, lambda r: (float(r.uniform(-2, 2)), _ints(0, 3, 5)(r)), (0,), "cast mul add", "for",
       closed=lambda x, n: (n * (n - 1) / 2.0 + 2.0 * n * x,), hvp=lambda a, v: 2.0 * a[1] * v),
    # reductions
    _c(dot, lambda r: (_arr(r, 6), _arr(r, 6)), (0, 1), "read mul add", "reduction dot",
       closed=lambda a, b: (b.copy(), a.copy()), hvp=lambda a, v: 0.0 * v, compiled=True),
    _c(sum_squares, lambda r: (_arr(r, 6),), (0,), "read mul add", "reduction",
       closed=lambda a: (2.0 * a,), hvp=lambda a, v: 2.0 * v),
    _c(sum_cubes, lambda r: (_arr(r, 6),), (0,), "read pow", "reduction",
       closed=lambda a: (3.0 * a * a,), hvp=lambda a, v: 6.0 * a[0] * v),
    _c(abs_sum, lambda r: (_arr(r, 6, avoid=(0.0,)),), (0,), "read abs", "reduction",
       closed=lambda a: (np.sign(a),), order2=""),
    _c(log_sum_exp, lambda r: (_arr(r, 6, -2, 2, distinct=True),), (0,), "read max exp log sub",
       "reduction lse", closed=lambda a: (_lse_grad(a),), hvp=_lse_hvp, compiled=True),
    _c(softmax_xent, lambda r: (_arr(r, 6, -2, 2, distinct=True), _ints(0, 2, 5)(r)), (0,),
       "read max exp log sub", "reduction xent", closed=_xent_grad, hvp=_lse_hvp),
    _c(spread, lambda r: (_arr(r, 6, -2, 2, distinct=True),), (0,), "read min max sub", "reduction",
       closed=_spread_d, order2=""),
    _c(leaky_relu_sum, lambda r: (_arr(r, 6, avoid=(0.0,)),), (0,), "read select mul", "reduction select",
       closed=lambda a: (np.where(a > 0, 1.0, 0.1),), order2=""),
    _c(log_norm, lambda r: (_arr(r, 5, 0.2, 1.5),), (0,), "read log sqrt", "reduction", closed=_log_norm_d),
    _c(horner, lambda r: (_arr(r, 5), float(r.uniform(-1.5, 1.5))), (0, 1), "read mul add", "for horner",
       closed=_horner_d, hvp=_horner_hvp_x, hvp_arg=1),
    _c(rnn, lambda r: (_arr(r, 6), float(r.uniform(-1, 1)), float(r.uniform(-1, 1))), (0, 1, 2),
       "read tanh mul add", "for rnn", compiled=True),
    _c(rnn_weights, lambda r: (_arr(r, 6), _arr(r, 3)), (0, 1), "read tanh mul add", "for rnn"),
    _c(newton_sqrt, _newton_args, (0,), "div mul abs sub", "while newton",
       closed=lambda a: (0.5 / math.sqrt(a),), hvp=lambda a, v: -0.25 * a[0] ** -1.5 * v, compiled=True),
    _c(newton_cubic, _u(-3, 3), (0,), "div mul sub", "for newton", closed=_newton_cubic_d),
    # array writes
    _c(smooth, lambda r: (_arr(r, 7),), (0,), "read write div add", "writes stencil", closed=_smooth_d,
       ag=False, ag_why=_NO_AG_WRITES,
       hvp=lambda a, v: np.array(_smooth_d(v)[0]), compiled=True),
    _c(cumsum_squares, lambda r: (_arr(r, 6),), (0,), "read write add", "writes", closed=_cumsum_d,
       ag=False, ag_why=_NO_AG_WRITES,
       hvp=lambda a, v: np.array(_cumsum_d(v)[0])),
    _c(write_then_read, lambda r: (_arr(r, 6),), (0,), "read write mul", "writes", closed=_wtr_d,
       ag=False, ag_why=_NO_AG_WRITES),
    _c(square_in_place, lambda r: (_arr(r, 5),), (0,), "read write mul", "writes param_write",
       closed=lambda a: (2.0 * a,), ag=False, ag_why=_NO_AG_WRITES,
       hvp=lambda a, v: 2.0 * v),
    _c(overwrite_scalar_array, lambda r: (float(r.uniform(-2, 2)), _ints(1, 4)(r)), (0,),
       "read write mul add cast", "writes", closed=_overwrite_d, ag=False,
       ag_why=_NO_AG_WRITES,
       hvp=lambda a, v: 2.0 * a[1] * v),
]


def _pair_away(rng, *kinks, lo=-2.0, hi=2.0, margin=0.1):
    """``(x, y)`` with every ``kink(x, y)`` at least ``margin`` from 0."""
    for _ in range(10_000):
        x, y = float(rng.uniform(lo, hi)), float(rng.uniform(lo, hi))
        if all(abs(k(x, y)) > margin for k in kinks):
            return x, y
    raise AssertionError("no safe pair")


BY_NAME = {c.name: c for c in CASES}

#: what issue 5 asks the corpus to cover
RULES = ("add sub mul div floordiv mod pow neg sin cos tan exp log sqrt tanh abs min max cast read write "
         "phi select").split()
SHAPES = ("straight branch elif while data_trip nested_loops break return_in_loop loop_in_branch "
          "reduction dot lse xent horner rnn newton piecewise").split()


# ================================================================== autograd versions
def _ag_float(v):
    from autograd.tracer import Box

    return v if isinstance(v, Box) else builtins.float(v)


def _ag_int(v):
    from autograd.tracer import getval

    return builtins.int(getval(v))


_AG_CACHE: dict[str, Callable] = {}


def autograd_version(case: GradCase) -> Callable:
    """``case.fn`` re-bound so that autograd can trace it: ``math`` is
    ``autograd.numpy``, ``float``/``int`` accept traced values, and the corpus
    helpers it calls are re-bound the same way."""
    if not case.ag:
        raise ValueError(f"{case.name}: {case.ag_why}")
    if not _AG_CACHE:
        import autograd.numpy as anp

        mod = sys.modules[__name__]
        ns = dict(vars(mod))
        ns["math"] = types.SimpleNamespace(
            sin=anp.sin, cos=anp.cos, tan=anp.tan, exp=anp.exp, log=anp.log, sqrt=anp.sqrt,
            tanh=anp.tanh, floor=anp.floor, pi=math.pi)
        ns["np"] = anp
        ns["float"] = _ag_float
        ns["int"] = _ag_int
        for k, v in vars(mod).items():
            if isinstance(v, types.FunctionType) and v.__module__ == __name__:
                ns[k] = types.FunctionType(v.__code__, ns, v.__name__, v.__defaults__, v.__closure__)
        _AG_CACHE.update({k: v for k, v in ns.items() if isinstance(v, types.FunctionType)})
    return _AG_CACHE[case.name]


# ================================================================== oracles
def copy_args(args) -> list:
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


def fd_grad(fn: Callable, args, argnums, h: float = 1e-3) -> tuple:
    """Fourth-order central differences of ``fn`` (run by CPython) w.r.t. each of
    ``argnums``: a float for a float argument, an array for an array argument.
    The step is relative (``h * max(1, |x|)``); the error is O(h^4) + O(eps / h)."""

    def at(i, j, delta):
        a = copy_args(args)
        if isinstance(a[i], np.ndarray):
            a[i][j] += delta
        else:
            a[i] = a[i] + delta
        return fn(*a)

    out = []
    for i in argnums:
        x = args[i]
        flat = x if isinstance(x, np.ndarray) else np.array([x])
        g = np.empty(len(flat))
        for j in range(len(flat)):
            s = h * max(1.0, abs(float(flat[j])))
            g[j] = (-at(i, j, 2 * s) + 8 * at(i, j, s) - 8 * at(i, j, -s) + at(i, j, -2 * s)) / (12 * s)
        out.append(g if isinstance(x, np.ndarray) else float(g[0]))
    return tuple(out)


def fd_directional(fn: Callable, args, argnums, tangents, h: float = 1e-3):
    """Fourth-order central difference of ``t -> fn(args + t * tangents)`` at 0
    (the tangents are aligned with ``argnums``); ``fn`` may return an array."""

    def at(t):
        a = copy_args(args)
        for i, v in zip(argnums, tangents):
            a[i] = a[i] + t * v
        return np.asarray(fn(*a), dtype=float)

    return (-at(2 * h) + 8 * at(h) - 8 * at(-h) + at(-2 * h)) / (12 * h)


def autograd_grad(case: GradCase, args, argnums=None) -> tuple:
    """autograd's gradient of the same source w.r.t. ``argnums`` (default: the case's)."""
    import warnings

    import autograd

    f = autograd_version(case)
    out = []
    for i in argnums or case.argnums:
        with warnings.catch_warnings():  # "Output seems independent of input" is an answer here
            warnings.simplefilter("ignore", UserWarning)
            g = autograd.grad(f, i)(*copy_args(args))
        out.append(np.asarray(g, dtype=float) if isinstance(args[i], np.ndarray) else float(g))
    return tuple(out)


def reference_grad(case: GradCase, args) -> tuple:
    """The best available gradient: closed form, else autograd, else finite differences."""
    if case.closed is not None:
        return tuple(case.closed(*copy_args(args)))
    if case.ag:
        return autograd_grad(case, args)
    return fd_grad(case.fn, args, case.argnums)


def hvp_arg(case: GradCase) -> int:
    """The argument whose Hessian-vector product the second-order tests take."""
    return case.argnums[0] if case.hvp_arg is None else case.hvp_arg


def reference_hvp(case: GradCase, args, v):
    """H v for the argument ``hvp_arg(case)``: the closed form if given, else central
    differences of the closed-form (or autograd, or finite-difference) gradient."""
    k = hvp_arg(case)
    if case.hvp is not None:
        return case.hvp(copy_args(args), v)
    single = GradCase(case.fn, case.args, (k,), case.rules, case.shapes, ag=case.ag)
    if case.closed is not None:
        pos = case.argnums.index(k)
        single.closed = lambda *a: (case.closed(*a)[pos],)
    return fd_directional(lambda *a: reference_grad(single, a)[0], args, (k,), (v,))


def random_tangent(rng: np.random.Generator, x):
    """A tangent of the shape of ``x`` (a float or a float64 array)."""
    if isinstance(x, np.ndarray):
        return rng.uniform(-1.0, 1.0, len(x))
    return float(rng.uniform(-1.0, 1.0))
