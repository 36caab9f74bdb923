"""Found by son.fuzz (seed=28125 index=939): refused, "unsupported comparison between
float and (top, top)": after ``if True: return``, a loop variable entered from dead code
(TOP) and left the body a value that may be None, which made a Phi over the aggregate
(an aggregate must never enter a Phi).  The loop now learns to carry it as a value that
may be None (son/frontend/loops.py ``_becomes_optional``), an aggregate meeting a single
value around a loop is a located refusal, and a comparison with a dead value gives a
dead value."""

# ruff: noqa  (a generated program)

import cmath
import functools
import math
import operator

import numpy as np
import numpy.typing as npt


def h0(q0, q1):
    w0 = q0
    w1 = q1
    fuel = 0
    w0 = (w0 * -5)
    w0 /= math.radians(float(-3))
    w1 = q0
    w1 = max(q0, 0.0)
    return True


def h1(q0, q1):
    fuel = 0
    if math.isclose((1e16 + 1.0), math.pow(math.nan, -1.0)):
        return (1e-320, -1.5)
    return ((2.5 if False else -0.0), 3.0)
    return (((1.0 ** -1.0) if q1 else math.sin(1e16)), ((2.5 * 1.0) - 1e308))


def f(n1: int, n2: int, n0: int, x0: float, p0: bool):
    fuel = 0
    v0 = (6 + math.nan)
    v1 = x0
    o0 = None
    c0 = 8
    v0 = operator.mul((o0 % n0), (math.nan + math.pi))
    for i1 in range(n1, 9, -2):
        fuel += 1
        if fuel > 40:
            break
        v0 = v0
        v0 = (o0 if o0 is not None else x0)
        n2 = i1
    if True:
        return (((c0 * 2) == (n2 - 6)),)
    if n2 != 7:
        o0 = -1.5 if (False or p0) else None
        n1 //= (lambda u0: 255)(c0)
    elif ((x0 if p0 else x0) <= v0):
        if (n0 <= (n1 - n2)):
            pass
        else:
            pass
    return ((255 <= n1 != -4),)

ARGS = [(1, 6, 5, -8.742, True, ), (-16, -19, 18, -2.234, False, ), (-7, 17, 3, 7.547, True, ), (-20, -1, -20, 2.5, True, ), (0, -1, 4611686018427387904, 9.817, True, )]

