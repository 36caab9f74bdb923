"""Adjoint accumulation, ``xbar += v``, and the clean-up of sums with a zero.

An adjoint that is still its initial 0.0 is assigned, not added to
(``_accumulate``).  Where that is known only once the adjoint loops are sealed (a
web of Phis whose only value is 0.0, ``_fold_phi_webs``), the sum is replaced by its
other operand afterwards (``_drop_zero_sums``; adjoints do not keep the sign of a
zero), and ``phi(a, 0.0) + phi(0.0, b)`` at one merge becomes ``phi(a, b)``
(``_merge_sum``).  O(sums + phis).  See ``son.grad.reverse``."""

from __future__ import annotations

from ..nodes import Add, Constant, Node, Phi, Region
from ..nodes.types import FLOAT
from .ssa import Block


def _is_zero(n: Node) -> bool:
    return type(n) is Constant and n.type.is_con(0.0)


class Accumulation:
    """Adjoint accumulation of ``_Reverse`` (a mixin)."""

    def _accumulate(self, x: Node, blk: Block, v: Node) -> None:
        """``xbar += v`` (``0.0 + v`` is written ``v``: a zero gradient may lose its sign)."""
        b, var = self.b, self.adj_vars[x]
        old = b.read(var, blk)
        if type(v) is Constant and v.type.is_con(0.0):
            return
        if type(old) is Constant and old.type.is_con(0.0):
            b.write(var, blk, v)
        else:
            s = b.node(Add, old, v)
            if Phi in (type(old), type(v)):  # it may turn out to be 0.0 once sealed
                self.sums.append((s, old, v))
            b.write(var, blk, s)

    def _fold_phi_webs(self, roots: list[Node]) -> None:
        """Replace a web of Phis that reach, through Phi operands, a single other value
        by that value (Braun et al.'s redundant Phi SCCs: an adjoint zeroed on every
        path of a loop is ``phi(0.0, phi(..., 0.0))``).  Each Phi is walked at most
        once: O(phis + their operands)."""
        b, done = self.b, set()
        for root in roots:
            root = b.resolve(root)
            if root in done or type(root) is not Phi or root.inputs is None:
                continue
            web, leaves, work = {root}, set(), [root]
            while work and len(leaves) < 2:
                for x in work.pop().inputs[1:]:
                    x = b.resolve(x) if x is not None else None
                    if type(x) is Phi and x.inputs is not None:
                        if x not in web:
                            web.add(x)
                            work.append(x)
                    else:
                        leaves.add(x)
            done |= web
            if len(leaves) != 1 or None in leaves or work:
                continue
            (same,) = leaves
            for x in web:
                b.replaced[x] = same
                x.subsume(same)

    def _drop_zero_sums(self) -> None:
        """``old + v`` where ``old`` or ``v`` was an incomplete Phi that turned out
        trivial, a 0.0, becomes the other operand (as ``_accumulate`` writes ``0.0 + v``
        as ``v`` and skips ``+ 0.0``: adjoints do not keep the sign of a zero).  O(sums)."""
        b = self.b
        self._fold_phi_webs([x for _, old, v in self.sums for x in (old, v) if type(x) is Phi])
        for s, old, v in self.sums:
            old, v = b.resolve(old), b.resolve(v)
            if s.inputs is None or set(s.inputs[1:]) != {old, v}:
                continue
            for zero, other in ((old, v), (v, old)):
                if _is_zero(zero) and other is not s:
                    b.replaced[s] = other
                    s.subsume(other)
                    break
            else:
                merged = self._merge_sum(old, v)
                if merged is not None:
                    b.replaced[s] = merged
                    s.subsume(merged)

    def _merge_sum(self, x: Node, y: Node) -> Node | None:
        """``phi(a1, 0.0) + phi(a2, b2)`` over one (non-loop) Region is ``phi(a1, a2 +
        b2)``: an adjoint moved along one edge and zeroed along another; the additions
        move to the edges that need them (no path runs more than before, the one
        through a zero runs none).  None unless some pair has a zero."""
        if type(x) is not Phi or type(y) is not Phi or x.inputs[0] is not y.inputs[0] \
                or type(x.inputs[0]) is not Region:
            return None
        pairs = list(zip(x.inputs[1:], y.inputs[1:]))
        if any(p is None or q is None for p, q in pairs) or \
                not any(_is_zero(p) or _is_zero(q) for p, q in pairs):
            return None
        b = self.b
        vals = [q if _is_zero(p) else p if _is_zero(q) else b.node(Add, p, q) for p, q in pairs]
        phi = Phi(self.g, x.inputs[0], *vals, assumed=FLOAT)
        phi.type = phi.compute()
        return self.b.pin(phi)
