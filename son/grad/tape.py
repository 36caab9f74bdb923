"""Tapes: the growable stacks on which reverse mode records what a loop's forward
iterations leave for the backward sweep (Tangent's stacks; Innes, "Don't Unroll
Adjoint").

There are two tapes, one float64 and one int64 (ints, bools as 0/1, and the
predecessor indices of control merges).  Each is an ``(array, count)`` pair held in
two variables of the SSA builder (``son.grad.ssa``), so that loops carry them as
ordinary Phis.  A push is ``TapeGrow`` (the same array while it has room, else a copy
with twice the capacity) + ``Store`` + ``count + 1``; a pop is ``count - 1`` + ``Load``.
A kernel tests the capacity inline and calls the copying helper only when the tape is
full (calling it on every push cost 2-4x the whole push: measured on a dot product).
The array starts with 16 empty slots, allocated at the function's entry only if some
push needs it.  Pops happen in the exact reverse order of pushes, which the reverse
transform guarantees by construction (see ``son.grad.reverse``).

Before a counted loop reverse mode reserves room for all its iterations at once
(``_reserve`` in ``son.grad.recording``: one ``TapeGrow`` with a larger count), so such
a loop's pushes never copy the tape.

Tapes can be differentiated (reverse over reverse, ``son.grad(son.grad(f))``): to the
outer transform a tape is an ordinary float64 array family -- the ``NewArray``, its
loop Phis and its ``TapeGrow``s -- with one adjoint array; a push (a Store) and a pop
(a Load) get the adjoints of any Store and Load.  That relies on two properties kept
here: a tape is used linearly (one builder variable: once grown, the old version is
never touched again), and ``TapeGrow`` copies the elements that existed unchanged, so
the adjoint of a grow is the identity on them and one adjoint array, as long as the
largest version, serves every version (see "Reverse over reverse" in
``son.grad.reverse``).  Forward over reverse grows a tangent tape alongside
(``TANGENT_ARRAY_NODES`` in ``son.grad.forward``).

Costs: a push or pop is O(1) amortized (growth doubles); memory is 8 bytes per
recorded value, at most twice the number recorded plus 16 slots per tape, or what a
counted loop reserved (its trip count times its pushes per iteration, at most 2**22
slots; slots a loop left early never fills are never touched, so never paged in).
"""

from __future__ import annotations

from ..nodes import NE, Add, ArrayType, Load, NewArray, Store, Sub
from ..nodes.memory import TapeGrow
from ..nodes.types import INT
from .ssa import Block, Builder

__all__ = ["Tapes"]

#: tape name -> numpy dtype of its array
DTYPES = {"f": "float64", "i": "int64"}


class Tapes:
    """The two tapes of one reverse-mode graph, threaded through ``builder``;
    ``mem`` is the builder variable holding the memory state."""

    def __init__(self, builder: Builder, mem: str = "mem"):
        self.b = builder
        self.mem = mem
        self.pushes = {"f": 0, "i": 0}
        for k, dtype in DTYPES.items():
            builder.declare(f"$tape:{k}", ArrayType(dtype), self._allocator(dtype))
            builder.declare(f"$tape:{k}:n", INT, lambda: builder.const(0))

    def _allocator(self, dtype: str):
        def make():
            b = self.b
            return b.raw(NewArray, b.entry_ctrl, b.const(16), dtype=dtype, fill="empty")

        return make

    @staticmethod
    def kind_of(value) -> str:
        """The tape a value goes on: 'f' for floats, 'i' for ints and bools."""
        return "f" if value.type.kind == "float" else "i"

    def push(self, blk: Block, value) -> str:
        """Push ``value`` at the end of ``blk``; returns the tape it went on."""
        assert value.type.kind in ("float", "int", "bool"), \
            f"tape push of {value!r} of type {value.type}: no tape holds it exactly"
        b, k = self.b, self.kind_of(value)
        arr, n = b.read(f"$tape:{k}", blk), b.read(f"$tape:{k}:n", blk)
        mem = b.read(self.mem, blk)
        grown = b.raw(TapeGrow, blk.ctrl, mem, arr, n)
        b.write(self.mem, blk, b.raw(Store, blk.ctrl, mem, grown, n, value))
        b.write(f"$tape:{k}", blk, grown)
        b.write(f"$tape:{k}:n", blk, b.node(Add, n, b.const(1)))
        self.pushes[k] += 1
        return k

    def pop(self, blk: Block, k: str, as_bool: bool = False):
        """Pop the top of tape ``k`` at ``blk``'s current position."""
        b = self.b
        n = b.node(Sub, b.read(f"$tape:{k}:n", blk), b.const(1))
        b.write(f"$tape:{k}:n", blk, n)
        v = b.raw(Load, blk.ctrl, b.read(self.mem, blk), b.read(f"$tape:{k}", blk), n)
        if as_bool:
            v = b.node(NE, v, b.const(0))
        return v

