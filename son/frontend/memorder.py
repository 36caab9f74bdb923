"""Memory order: numpy reads an n-D array's elements for a reduction over all of them,
and lays out a new array, in the order of its operands' memory (order 'K'); son's new
arrays are C-ordered.  ``flat_view`` gives a C-contiguous array's elements as a 1-D view
(another layout refused at run time, or copied where the order does not matter);
``require_c_like_order`` refuses at run time an operand whose order would give numpy's
result another layout."""

from __future__ import annotations

import ast

from ..nodes import EQ, GT, LT, NE, Abs, BitAnd, BitOr, Mul, Not, kept
from .scope import Grid, View


class MemoryOrders:
    """FunctionParser's memory-order checks (a mixin)."""

    def flat_view(self, at: ast.AST, a: Grid, what: str = "reduction", any_order: bool = False) -> View:
        """A C-contiguous n-D array's elements in C order, as a 1-D view (for the
        reductions over all of them, which numpy makes in memory order, and ``what``
        else needs them so); another layout is refused at run time, or, where the result
        does not depend on the order numpy reads the elements in (``any_order``: an int
        sum, an argmax, numpy's C-order ravel), read from a C-order copy wherever the
        parse cannot tell that the layout is C's (an argument of any strides)."""
        with kept(a):
            expect = self.con(1)
            bad = self.con(False)
            for d, s in zip(reversed(a.dims), reversed(a.strides)):
                with kept(expect, bad):
                    off = self.op(at, BitAnd, self.op(at, NE, s, expect), self.op(at, GT, d, self.con(1)))
                    with kept(off):
                        bad = self.op(at, BitOr, bad, off)
                    with kept(bad):
                        expect = self.op(at, Mul, expect, d)
            with kept(bad, expect):
                empty = self.op(at, EQ, expect, self.con(0))
                with kept(empty):
                    bad = self.op(at, BitAnd, bad, self.op(at, Not, empty))
            if any_order and not (bad.type.is_constant and not bad.type.con):
                with kept(expect):
                    if bad.is_unused():
                        bad.kill()
                    copy = self.grid_copy(at, a)
                return View(self.g, copy.base, copy.start, self.con(1), expect)
            self.refuse_at_run_time(bad, f"{what} of an array that is not C-contiguous (numpy would "
                                         "follow its memory order, or copy it)")
            return View(self.g, a.base, a.start, self.con(1), expect)

    def require_c_like_order(self, at: ast.AST, grids: list[Grid]) -> None:
        """numpy gives a new array the memory order of its n-D operands (order 'K'); son's
        are C-ordered, the same where no n-D operand's strides grow in magnitude from one
        axis to the next (over the axes longer than 1: slices of C arrays do not; numpy
        orders the axes by the strides' magnitudes, so a reversed axis keeps C order) and
        none is 0 there.  Another order (a transpose) is refused at run time."""
        for g in grids:
            with kept(g):
                long = [self.op(at, GT, d, self.con(1)).keep() for d in g.dims]
                size = [self.op(at, Abs, s).keep() for s in g.strides]
                bad = self.con(False)
                for j in range(g.ndim):
                    with kept(bad):  # axis j broadcast, or before a longer-strided axis k
                        t = self.op(at, EQ, size[j], self.con(0))
                        bad = self.op(at, BitOr, bad, self.op(at, BitAnd, long[j], t))
                    for k in range(j + 1, g.ndim):
                        with kept(bad):
                            t = self.op(at, BitAnd, long[k], self.op(at, LT, size[j], size[k]))
                            bad = self.op(at, BitOr, bad, self.op(at, BitAnd, long[j], t))
                for x in long + size:
                    x.unkeep()
                for d in g.dims:  # an empty array has no order
                    with kept(bad):
                        bad = self.op(at, BitAnd, bad, self.op(at, NE, d, self.con(0)))
                self.refuse_at_run_time(bad, "a whole-array expression of an n-D array whose memory order "
                                             "is not C's (numpy would give the result that order)")
