"""numpy's sort and median of 1-D arrays, written in the Python son compiles and inlined
where they are called (son/frontend/arrayfns.py dispatches to them).

numpy sorts floats with NaN last; its sort is not stable (introsort, or SIMD sorts on
AVX-512), so among equal keys only ``0.0`` and ``-0.0`` can be told apart in the result:
where both occur son raises ``NotImplementedError`` rather than guess their order.
Everything else has one sorted order, which son's bottom-up merge sort of the indices
(stable, iterative, ``n log n`` comparisons, one buffer) gives; ``np.argsort``
(son/frontend/arrayops.py) is that order.  ``np.median`` is numpy's: the
mean of the middle element or of the two middle ones (a sum from ``0.0``, in order, as
numpy's pairwise sum of fewer than 8), NaN where the array holds one, NaN for an empty
array.
O(n log n) time, O(n) memory."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["index_order", "median_float", "median_int", "sort_bool", "sort_float", "sort_int"]


def _zeros_of_both_signs(a):
    pos = False
    neg = False
    for i in range(len(a)):
        x = a[i]
        if x == 0.0:
            if math.copysign(1.0, x) > 0:
                pos = True
            else:
                neg = True
    return pos and neg


def _merged(src, dst, keys):
    """Sort the indices ``src`` by their ``keys`` (stable, bottom-up merges between
    ``src`` and ``dst``); the buffer that holds the result.  ``y`` goes before ``x`` only
    if ``y < x`` or ``x`` alone is NaN, so NaNs go last (ints are never NaN)."""
    n = len(src)
    width = 1
    while width < n:
        i = 0
        while i < n:
            mid = min(i + width, n)
            hi = min(i + 2 * width, n)
            lo = i
            r = mid
            for k in range(i, hi):
                take_left = lo < mid
                if take_left and r < hi:
                    y = keys[src[r]]
                    x = keys[src[lo]]
                    take_left = not (y < x or (y == y and x != x))
                if take_left:
                    dst[k] = src[lo]
                    lo += 1
                else:
                    dst[k] = src[r]
                    r += 1
            i += 2 * width
        src, dst = dst, src
        width *= 2
    return src


def sort_float(a, signed_zeros):
    """A sorted copy of float array ``a``: NaN last.  ``signed_zeros``: the caller sees the
    signs of its zeros (np.sort; not np.median, whose sums from 0.0 erase them)."""
    if signed_zeros and _zeros_of_both_signs(a):
        raise NotImplementedError("np.sort of 0.0 and -0.0 (their order depends on numpy's sort kernels)")
    order = index_order(a, True)
    out = np.empty(len(a))
    for i in range(len(a)):
        out[i] = a[order[i]]
    return out


def sort_int(a, signed_zeros):
    """A sorted copy of int array ``a``."""
    order = index_order(a, True)
    out = np.empty(len(a), dtype=np.int64)
    for i in range(len(a)):
        out[i] = a[order[i]]
    return out


def sort_bool(a, signed_zeros):
    """A sorted copy of bool array ``a``: its Falses, then its Trues."""
    n = len(a)
    falses = 0
    for i in range(n):
        if not a[i]:
            falses += 1
    out = np.empty(n, dtype=np.bool_)
    for i in range(n):
        out[i] = i >= falses
    return out


def median_float(s):
    """numpy's median of the sorted floats ``s`` (NaN last)."""
    n = len(s)
    if n == 0 or s[n - 1] != s[n - 1]:
        return math.nan
    if n % 2 == 1:
        return 0.0 + s[n // 2]  # numpy's mean of one element: -0.0 becomes 0.0
    return (0.0 + s[n // 2 - 1] + s[n // 2]) / 2.0


def median_int(s):
    """numpy's median of the sorted ints ``s``: a float (numpy's mean of them as floats)."""
    n = len(s)
    if n == 0:
        return math.nan
    if n % 2 == 1:
        return 0.0 + float(s[n // 2])
    return (0.0 + float(s[n // 2 - 1]) + float(s[n // 2])) / 2.0


def index_order(a, stable):
    """``np.argsort(a)``: the indices of ``a`` in the order of a stable sort (NaN last).
    Not ``stable`` (numpy's default kinds): NotImplementedError where two keys are equal,
    whose order numpy's sort kernels choose."""
    n = len(a)
    src = np.empty(n, dtype=np.int64)
    for i in range(n):
        src[i] = i
    order = _merged(src, np.empty(n, dtype=np.int64), a)
    if not stable:
        for k in range(1, n):
            x = a[order[k - 1]]
            y = a[order[k]]
            if x == y or (x != x and y != y):
                raise NotImplementedError("np.argsort of equal elements (numpy's default sort kernels choose "
                                          "their order): pass kind='stable'")
    return order
