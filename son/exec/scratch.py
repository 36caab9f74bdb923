"""Scratch arrays: temporaries a kernel takes from buffers kept between its calls.

A kernel that makes arrays of n elements per call gets fresh memory from ``malloc``
each time, and once the arrays are large (several MB) glibc maps and unmaps them, so
every call pays a page fault per 4 KB it writes.  Measured on ``benchmarks/arrays.py``
(c), a gradient that keeps a residual and its adjoint (2 x 8 MB): 9.2 ms per call,
2.5 ms with the same code given buffers it had before.  A kernel's *scratch arrays*
are therefore carved from one buffer the caller keeps (memory planning across calls):

- ``scratch_slots(schedule)``: the ``NewArray`` nodes in no loop (each runs at most
  once per call, so two never share memory) whose array never leaves the call: every
  use, through Phis and refinements, reads or writes its elements or its length, or is
  a ``PairwiseSum`` reading it.  A returned or stored array, an argument of a call or of
  a fallback region, a tape, is not scratch.  None in a recursive kernel (its calls
  would carve from one buffer).  O(N).
- The kernel takes two more parameters, ``_son_buf`` (uint8) and ``_son_meta`` (int64:
  bytes carved in this call, bytes this call wanted).  ``_son_scratch_<dtype>`` carves
  an array (at a multiple of 64 bytes) when it fits and else allocates one, as
  ``np.empty`` would (a negative length raises numpy's ValueError), recording the size
  wanted; ``np.zeros``/``np.ones`` are filled each call.
- ``Scratch`` (used by ``Kernel``) gives each call in flight its own buffer (two
  threads, or a call that re-enters the kernel from a fallback region, never share
  one) and grows it after a call that wanted more; the kernel zeroes the counts first.  The buffer holds the
  largest call's arrays (up to ``KEEP_LIMIT`` bytes) until the kernel is dropped.
  O(1) per call.

A kernel without scratch arrays is unchanged (its dispatcher is called directly); one
with them costs about 0.5 us more per call (the binding), and saves a page fault per
4 KB of its arrays once they are large.
"""

from __future__ import annotations

import re

import numpy as np

from ..nodes import ArrayLen, Call, Load, NewArray, PairwiseSum, Phi, Refine, Store
from ..nodes.types import ArrayType

__all__ = ["HOIST_LIMIT", "SCRATCH_HELPERS", "SCRATCH_MARK", "SCRATCH_PARAMS", "Scratch", "hoisted_array",
           "hoisted_slots", "scratch_array", "scratch_slots", "scratch_used"]

#: the line of a kernel's source saying it takes scratch buffers
SCRATCH_MARK = "# son: scratch arrays "
#: the parameters a kernel with scratch arrays takes after its own (uint8 and int64 arrays)
SCRATCH_PARAMS = ["_son_buf", "_son_meta"]
#: carved arrays start at multiples of this many bytes from the buffer's start
_ALIGN = 64
#: a buffer is not kept past this many bytes (the next call allocates its arrays afresh)
KEEP_LIMIT = 1 << 30
_FILLS = {"empty": 0, "zeros": 1, "ones": 2}


def scratch_slots(schedule) -> dict:
    """{NewArray node: fill code} of the schedule's scratch arrays (module docstring)."""
    block_of = schedule.block_of
    if any(type(n) is Call for n in block_of):
        return {}
    out = {}
    for n in block_of:
        if type(n) is NewArray and block_of[n].depth == 0 and _stays(n):
            out[n] = _FILLS[n.fill]
    return out


#: the most elements an array made in a loop may have to be made once before it
HOIST_LIMIT = 8192


def hoisted_slots(schedule) -> dict:
    """{NewArray node: variable} of the arrays made in a loop that the function makes once,
    at its start, and each round of the loop reuses: a constant length of at most
    ``HOIST_LIMIT`` elements, and an array that never leaves its round (every use reads
    or writes its elements or its length, or sums it; no Phi carries it to the next round
    or out of a merge, so no two rounds' arrays are ever alive together).  An
    ``np.empty`` array's contents are unspecified, so the last round's do as well; a
    ``np.zeros``/``np.ones`` array is filled again each round.  numpy's pairwise sum in a
    loop (two stacks per sum, 64 floats and 384 ints) is the case that made this
    measurable.  O(N)."""
    block_of = schedule.block_of
    out = {}
    for n in block_of:
        if type(n) is NewArray and block_of[n].depth > 0 and _stays(n, phis=False):
            t = n.inputs[1].type
            if t.is_constant and t.kind == "int" and 0 <= t.con <= HOIST_LIMIT:
                out[n] = f"_hoisted{len(out)}"
    return out


def hoisted_array(n, state) -> str | None:
    """The text that takes hoisted array ``n`` (refilled for np.zeros/np.ones), or None
    where ``n`` is not one of the function's hoisted arrays (``state.hoisted``)."""
    name = getattr(state, "hoisted", {}).get(n)
    if name is None:
        return None
    if n.fill == "empty":
        return name
    state.helpers.add("_son_fill")
    return f"_son_fill({name}, {_FILLS[n.fill] - 1})"


def _stays(a, phis: bool = True) -> bool:
    """Does every use of array ``a`` (through refinements, and Phis unless ``phis`` is
    false) only read or write its elements or length?  O(uses reached)."""
    seen, work = {a}, [a]
    while work:
        x = work.pop()
        for u in x.outputs:
            if type(u) is Phi and not phis:
                return False
            if type(u) in (Phi, Refine) and isinstance(u.type, ArrayType):
                if u not in seen:
                    seen.add(u)
                    work.append(u)
            elif type(u) in (Load, Store):
                if any(u.inputs[i] is x for i in range(len(u.inputs)) if i != 2):
                    return False  # a stored value (an array in a list): it leaves
            elif type(u) is not ArrayLen and type(u) is not PairwiseSum:
                return False
    return True


_HELPER = '''
def _son_scratch_{name}(buf, meta, n, fill):
    at = meta[0]
    if 0 <= n <= (len(buf) - at) // {itemsize}:
        size = n * {itemsize}
        a = buf[at:at + size].view(np.{dtype})
        meta[0] = at + (size + {align} - 1) // {align} * {align}
    else:
        a = np.empty(n, dtype=np.{dtype})
    meta[1] = meta[1] + (n * {itemsize} + {align} - 1) // {align} * {align}
    if fill == 1:
        a[:] = 0
    elif fill == 2:
        a[:] = 1
    return a
'''

#: a hoisted np.zeros/np.ones array filled again (``hoisted_array``)
FILL_HELPER = '''
def _son_fill(a, v):
    a[:] = v
    return a
'''

#: helper name -> its source, one per dtype (``view`` takes the dtype at compile time)
SCRATCH_HELPERS = {f"_son_scratch_{d}": _HELPER.format(name=d, dtype="bool_" if d == "bool" else d,
                                                        itemsize=np.dtype(d).itemsize, align=_ALIGN)
                   for d in ("float64", "int64", "bool")}


def scratch_array(n, length: str, state) -> str | None:
    """The text that takes scratch array ``n`` (a ``NewArray``) of ``length`` elements,
    or None where ``n`` is not one of the function's scratch arrays (``state.scratch``)."""
    fill = getattr(state, "scratch", {}).get(n)
    if fill is None:
        return None
    state.helpers.add(f"_son_scratch_{n.dtype}")
    return f"_son_scratch_{n.dtype}({', '.join(SCRATCH_PARAMS)}, {length}, {fill})"


def scratch_used(source: str) -> bool:
    return re.search("^" + re.escape(SCRATCH_MARK), source, re.M) is not None


class Scratch:
    """The buffers of one kernel (module docstring): a stack of (buffer, counts) pairs,
    one per call in flight; ``list.pop`` and ``append`` are atomic, so two threads, or a
    call and one re-entering the kernel, never hold the same pair."""

    __slots__ = ("_free",)

    def __init__(self):
        self._free: list = []

    def bind(self, fn):
        """``fn`` called with a buffer after its arguments, which is grown after a call
        that wanted more.  O(1) per call."""
        free = self._free

        def call(*args):
            try:  # (the kernel zeroes the counts)
                buf, meta = free.pop()
            except IndexError:
                buf, meta = np.empty(0, dtype=np.uint8), np.zeros(2, dtype=np.int64)
            try:
                return fn(*args, buf, meta)
            finally:
                wanted = int(meta[1])
                if len(buf) < wanted <= KEEP_LIMIT:
                    buf = np.empty(wanted, dtype=np.uint8)
                free.append((buf, meta))

        return call
