"""Memory order: numpy reads an n-D array's elements for a reduction over all of them,
and lays out a new array, in the order of its operands' memory (order 'K'); son's new
arrays are C-ordered.  ``flat_view`` gives a C-contiguous array's elements as a 1-D view
(another layout refused at run time, or copied where the order does not matter);
``require_c_like_order`` refuses at run time an operand whose order would give numpy's
result another layout."""

from __future__ import annotations

import ast
import itertools

from ..nodes import EQ, GT, LT, NE, Abs, Add, BitAnd, BitOr, Mul, Node, Not, ToInt, kept
from .builtins import _Pins
from .scope import Grid, View


class MemoryOrders:
    """FunctionParser's memory-order checks (a mixin)."""

    def flat_view(self, at: ast.AST, a: Grid, what: str = "reduction", any_order: bool = False,
                  memory_order: bool = False, copy_otherwise: bool = False) -> View:
        """A C-contiguous n-D array's elements in C order, as a 1-D view (for the
        reductions over all of them, which numpy makes in memory order, and ``what``
        else needs them so); another layout is refused at run time, or, where the result
        does not depend on the order numpy reads the elements in (``any_order``: an int
        sum, an argmax, numpy's C-order ravel), read from a C-order copy wherever the
        parse cannot tell that the layout is C's (an argument of any strides).

        ``memory_order``: the reduction reads the elements in the order numpy's reduction
        iterator does (``block_layout``): for an array it reads as one run of memory (a
        transpose, an F-order argument, a C-order one reversed), that run, from the first
        element by a step of +-1; a variance's second pass reads a new array numpy lays
        out in that order too.  Another layout is refused at run time.

        ``copy_otherwise`` (numpy's ``ravel``): a view where the array is C-contiguous at
        run time, else a C-order copy (``view_or_copy``)."""
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
            c_order = bad.type.is_constant and not bad.type.con
            if memory_order and not c_order and not any_order:  # the order numpy's iterator reads in
                with kept(expect):
                    if bad.is_unused():
                        bad.kill()
                view = self.run_view(at, a, what)
                if expect.is_unused():
                    expect.kill()
                return view
            if any_order and not c_order:
                with kept(expect):
                    if bad.is_unused():
                        bad.kill()
                    copy = self.grid_copy(at, a)
                return View(self.g, copy.base, copy.start, self.con(1), expect)
            if copy_otherwise and not c_order:
                with kept(expect):
                    return self.view_or_copy(at, a, bad, expect)
            self.refuse_at_run_time(bad, f"{what} of an array that is not C-contiguous (numpy would "
                                         "follow its memory order, or copy it)")
            return View(self.g, a.base, a.start, self.con(1), expect)

    def view_or_copy(self, at: ast.AST, a: Grid, copy: Node, size: Node) -> View:
        """``a``'s elements in C order as a 1-D view: of a C-order copy of ``a`` where
        ``copy`` is true at run time (only that branch copies), else of ``a``'s base.  The
        merge's base is a Phi of the two arrays, which ``may_alias`` takes for either."""
        def copied() -> View:
            c = self.grid_copy(at, a)
            return View(self.g, c.base, c.start, self.con(1), size)

        with kept(a, size):
            return self.choose(copy, copied, View(self.g, a.base, a.start, self.con(1), size))

    def run_view(self, at: ast.AST, a: Grid, what: str) -> View:
        """``a``'s elements in the order numpy's reduction iterator reads them, where that
        is one run of memory (``block_layout``): the run as a 1-D view; another layout is
        son's run-time refusal."""
        contig, step, size = self.block_layout(at, a)
        try:
            with kept(contig, step, size):
                empty = self.op(at, EQ, size, self.con(0))
                bad = self.op(at, BitAnd, self.op(at, Not, contig), self.op(at, Not, empty))
                self.refuse_at_run_time(bad, f"{what} of an array that numpy reads in no one run of "
                                             "memory (son would have to follow its iterator)")
                return View(self.g, a.base, a.start, step, size)
        finally:
            for x in (contig, step, size):
                x.unkeep()

    def block_layout(self, at: ast.AST, a: Grid) -> tuple[Node, Node, Node]:
        """Does numpy's reduction iterator read ``a`` as one run of its base (its axes
        sorted by stride magnitude and coalesced: each axis of length above 1 strided by
        the next inner one's stride times that one's length, signs included, as numpy's
        reductions never negate strides), the step of that run (+-1: the innermost long
        axis's stride), and the size; kept (the caller unkeeps).  O(ndim! * ndim) nodes
        (6 orders of a 3-D array), folded where the strides are constants."""
        with _Pins(self, at, a) as op:
            long = [op(GT, d, self.con(1)) for d in a.dims]
            unit = [op(BitAnd, long[k], op(EQ, op(Abs, s), self.con(1))) for k, s in enumerate(a.strides)]
            step = self.con(0)
            for u, s in zip(unit, a.strides):  # at most one long axis of a run has |stride| 1
                step = op(Add, step, op(Mul, op(ToInt, u), s))
            step = op(Add, step, op(ToInt, op(EQ, step, self.con(0))))  # no long axis: size <= 1
            contig = self.con(False)
            for order in itertools.permutations(range(a.ndim)):  # the innermost axis first
                ok, expect = self.con(True), step
                for k in order:
                    fits = op(BitOr, op(Not, long[k]), op(EQ, a.strides[k], expect))
                    ok, expect = op(BitAnd, ok, fits), op(Mul, expect, a.dims[k])
                contig = op(BitOr, contig, ok)
            size = self.con(1)
            for d in a.dims:
                size = op(Mul, size, d)
            return contig.keep(), step.keep(), size.keep()

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
