"""The arguments of the fuzz generator's programs (son/fuzz/generator.py): the special
values they favour (int64 edges, signed zeros, NaN, infinities, subnormals), the moderate
floats of gradient programs, strided 1-D views, and the literal that writes a float back
into a program."""

from __future__ import annotations

import math
import random

import numpy as np

from ..nodes.control import strided_parts, view_of

INT64_MAX = 2 ** 63 - 1
INT64_MIN = -2 ** 63

INT_ARGS = [0, 1, -1, 2, 3, 7, -8, 100, 2 ** 31, 2 ** 62, INT64_MAX, INT64_MIN, INT64_MIN + 1]
FLOAT_ARGS = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -3.75, 1e308, -1e308, 5e-324, math.nan, math.inf,
              -math.inf, 1e16 + 1]

#: float arguments of gradient programs: moderate and not integral (0, +-1 and 2 hide a
#: derivative truncated to an int: 1 * 1 * 1 is exact on an int tape)
GRAD_FLOAT_ARGS = [0.37, 0.821, 1.5, -1.25, 2.75, -0.6, 1.1, 3.3, -2.4, 0.73, -1.7, 2.3, 1.35, -0.45]
#: ... and a few that make a point singular (an infinite or NaN intermediate)
GRAD_SPECIAL_ARGS = [math.inf, -math.inf, math.nan, 0.0, 1e300]


#: the probability that a 1-D array argument is a strided view (``x[::2]``, ``x[::-1]``)
STRIDED = 0.15


def step_of(a: np.ndarray) -> int:
    """The step of a 1-D array in elements (1 for a contiguous one, and for one of at
    most one element, whose stride numpy does not keep to the step)."""
    if a.ndim != 1 or len(a) <= 1 or not a.itemsize:
        return 1
    return a.strides[0] // a.itemsize


def strided(values: np.ndarray, step: int) -> np.ndarray:
    """``values`` as a view of step ``step`` of a new base array (each value ``|step|``
    times in it): what a caller passing ``x[::2]`` or ``x[::-1]`` gives."""
    if step == 1:
        return values.copy()
    base = np.repeat(values[::-1] if step < 0 else values, abs(step))
    return base[::step]


def fresh_copy(a: np.ndarray) -> np.ndarray:
    """A copy of ``a`` with ``a``'s steps (``a.copy()`` would make it contiguous): an n-D
    one laid out as ``a`` is, over a copy of the memory ``a`` spans."""
    if a.ndim == 1:
        return strided(a, step_of(a))
    if a.flags.c_contiguous:
        return a.copy()
    flat, start, *rest = strided_parts(a, "fresh_copy")
    return view_of(flat.copy(), start, rest[:a.ndim], rest[a.ndim:])


def float_literal(x: float) -> str:
    if math.isnan(x):
        return "math.nan"
    if math.isinf(x):
        return "math.inf" if x > 0 else "-math.inf"
    return repr(x)


def generate_args(rng: random.Random, params: list[tuple[str, str]], count: int,
                  grad: bool = False) -> list[tuple]:
    """``count`` argument tuples for parameters of the given kinds; ``grad``: those of a
    gradient program (moderate non-integral floats, small ints)."""

    def one(k: str):
        if grad and k == "float":
            if rng.random() < 0.08:
                return rng.choice(GRAD_SPECIAL_ARGS)
            if rng.random() < 0.6:
                return rng.choice(GRAD_FLOAT_ARGS)
            x = round(rng.uniform(0.2, 3.6), 3)
            return (x if min(abs(x - 1), abs(x - 2), abs(x - 3)) > 0.05 else x + 0.125) * rng.choice([1, -1])
        if grad and k == "int":
            return rng.choice([0, 1, 2, 3, 3, 4, 5, -1])
        if k == "int":
            return rng.choice(INT_ARGS) if rng.random() < 0.6 else rng.randint(-20, 20)
        if k == "float":
            return rng.choice(FLOAT_ARGS) if rng.random() < 0.6 else round(rng.uniform(-10, 10), 3)
        if k == "bool":
            return rng.random() < 0.5
        n = rng.choice([0, 1, 3, 5, 8])
        if k == "float64":
            a = np.array([rng.choice(FLOAT_ARGS[:10]) if rng.random() < 0.3
                          else round(rng.uniform(-5, 5), 2) for _ in range(n)], dtype=np.float64)
        else:
            a = np.array([rng.choice(INT_ARGS) if rng.random() < 0.2 else rng.randint(-9, 9)
                          for _ in range(n)], dtype=np.int64)
        if rng.random() < STRIDED:
            return strided(a, rng.choice([-1, 2, -2, 3]))
        return a

    return [tuple(one(k) for _, k in params) for _ in range(count)]
