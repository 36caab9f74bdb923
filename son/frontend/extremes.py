"""numpy's elementwise ``np.maximum``, ``np.minimum``, ``np.fmax``, ``np.fmin`` and
``np.clip`` of two (three) numbers, written in the Python son compiles and inlined per
element of a whole-array chain (son/frontend/composites.py ``EXTREMES``) or of numbers:
NaN wins (loses, for fmax and fmin), and where numpy's SIMD kernels decide which of two
zeros of different signs to return, NotImplementedError instead of a guess.  O(1)
each."""

from __future__ import annotations

import math


def maximum_float(x, y):
    return _either_float(x, y, True)


def minimum_float(x, y):
    return _either_float(x, y, False)


def _either_float(x, y, larger):
    """numpy's maximum (``larger``) or minimum of two floats: NaN wins; of two zeros of
    different signs numpy's SIMD kernels return either, by the operands' layout:
    NotImplementedError there."""
    if x != x:
        return x
    if y != y:
        return y
    if x == y and x == 0.0 and math.copysign(1.0, x) != math.copysign(1.0, y):
        raise NotImplementedError("np.maximum/minimum/clip of 0.0 and -0.0 (numpy's result depends on "
                                  "its SIMD kernels)")
    return x if (x >= y if larger else x <= y) else y


def fmax_float(x, y):
    return _ignoring_nan(x, y, True)


def fmin_float(x, y):
    return _ignoring_nan(x, y, False)


def _ignoring_nan(x, y, larger):
    """numpy's fmax (``larger``) or fmin of two floats: a NaN loses to a number."""
    if x != x:
        return y
    if y != y:
        return x
    return _either_float(x, y, larger)


def clip_float(x, lo, hi):
    """numpy's clip of floats: ``minimum(maximum(x, lo), hi)``, NaN winning (measured
    against numpy on arrays, views and bounds of every kind of value)."""
    return minimum_float(maximum_float(x, lo), hi)


def clip_int(x, lo, hi):
    return minimum_int(maximum_int(x, lo), hi)


def maximum_int(x, y):
    return x if x >= y else y


def minimum_int(x, y):
    return x if x <= y else y


def maximum_bool(x, y):
    return x or y


def minimum_bool(x, y):
    return x and y
