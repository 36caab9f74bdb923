"""numpy's float sum, bit for bit, in one place: the algorithm and the node that runs it.

``pairwise_sum(a)`` is numpy's ``pairwise_sum`` written in the Python son compiles.
The frontend inlines it where a program sums floats (son/frontend/arrayfns.py: its
loops become the graph's, and a whole-array chain is summed without a temporary); the
interpreter runs it on numpy arrays; kernels compile it with Numba (``HELPERS`` in
son/exec/emit.py), so all three agree by construction.

``PairwiseSum(ctrl, mem, base, start, step, length)`` is the sum of the 1-D view
``base[start + k * step]``, k < length, read in memory state ``mem``: one node where
the inlined algorithm would be dozens of blocks.  Only the parse for the derivative
transforms makes it, as the value of a ``GradVia`` whose derivative is a sum in order
(son/frontend/arrayfns.py): the gradient then neither records nor walks back the
algorithm's explicit stack, and drops the node when nothing needs the value.

Cost: O(length) additions, O(1) extra memory (two small stacks)."""

from __future__ import annotations

import numpy as np

from .node import Node
from .types import BOTTOM, FLOAT, TOP, ArrayType, Type

__all__ = ["PairwiseSum", "block_sum", "pairwise_blocks", "pairwise_sum"]


class PairwiseSum(Node):
    """numpy's sum of the float view ``base[start + k * step]``, ``k < length``."""

    __slots__ = ()
    is_gvn = True  # same control, memory and view: the same sum
    reads_memory = True

    def __init__(self, graph, ctrl, mem, base, start, step, length):
        super().__init__(graph, ctrl, mem, base, start, step, length)

    @property
    def label(self) -> str:
        return "pairwise sum"

    def compute(self) -> Type:
        ts = [x.type for x in self.inputs[2:]]
        if TOP in ts:
            return TOP
        return FLOAT if isinstance(ts[0], ArrayType) and ts[0].dtype == "float64" else BOTTOM

    def eval(self, mem, base, start, step, length):
        return float(pairwise_sum(base[start::step][:length]))


def pairwise_sum(a):
    """numpy's sum of a float array: ``0.0 +`` its pairwise sum (numpy's
    ``pairwise_sum``: fewer than 8 elements added in order; up to 128 in 8 running sums
    combined as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), the rest in order; more split at
    half, rounded down to a multiple of 8, and the halves' sums added).  The recursion
    runs on explicit stacks: the blocks still to sum (start, length, depth in the split
    tree), and the sums of left halves waiting for their right half with their depth (a
    block's sum meets its left sibling's at the top of the stack when the depths agree).
    The split tree is at most 57 deep (its leaves hold 64 or more of at most 2**63
    elements), so ``todo`` holds the blocks from its front (at most 58 triples) and the
    waiting sums' depths from its back (at most 57).  Checked bit for bit against numpy
    on arrays of every length and stride (tests/test_ufuncs.py).  One allocation for up
    to 128 elements, two beyond."""
    return pairwise_blocks(a, np.empty(64))  # before any branch: gradients take no float array made in one


def pairwise_blocks(a, sums):
    """``pairwise_sum`` of ``a`` with ``sums`` (64 floats) for the waiting sums."""
    n = len(a)
    if n <= 128:
        return 0.0 + block_sum(a, 0, n)
    todo = np.empty(3 * 128, dtype=np.int64)
    todo[0] = 0
    todo[1] = n
    todo[2] = 0
    top = 1
    done = 0
    while top > 0:
        top -= 1
        s = todo[3 * top]
        m = todo[3 * top + 1]
        d = todo[3 * top + 2]
        if m > 128:
            h = m // 2
            h -= h % 8
            todo[3 * top] = s + h  # the right half, summed after the left one
            todo[3 * top + 1] = m - h
            todo[3 * top + 2] = d + 1
            todo[3 * top + 3] = s
            todo[3 * top + 4] = h
            todo[3 * top + 5] = d + 1
            top += 2
            continue
        v = block_sum(a, s, m)
        while done > 0 and todo[3 * 128 - done] == d:  # depths of the waiting sums, from the end
            done -= 1
            v = sums[done] + v
            d -= 1
        sums[done] = v
        done += 1
        todo[3 * 128 - done] = d
    return 0.0 + sums[0]


def block_sum(a, s, m):
    """numpy's pairwise_sum of the ``m <= 128`` elements from ``s`` (no split)."""
    if m < 8:
        t = 0.0
        for i in range(m):
            t += a[s + i]
        return t
    r0 = a[s]
    r1 = a[s + 1]
    r2 = a[s + 2]
    r3 = a[s + 3]
    r4 = a[s + 4]
    r5 = a[s + 5]
    r6 = a[s + 6]
    r7 = a[s + 7]
    end = m - m % 8
    for i in range(8, end, 8):
        r0 += a[s + i]
        r1 += a[s + i + 1]
        r2 += a[s + i + 2]
        r3 += a[s + i + 3]
        r4 += a[s + i + 4]
        r5 += a[s + i + 5]
        r6 += a[s + i + 6]
        r7 += a[s + i + 7]
    v = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    for i in range(end, m):
        v += a[s + i]
    return v
