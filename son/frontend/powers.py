"""numpy's ``a ** b`` of arrays (``**``, ``**=``, ``np.power``): which loop computes each
element (a mixin of ``FunctionParser``, used by ``Ufuncs.arith_chain``).

numpy's float64 power loop takes a fast path when the exponent's step through memory is
zero, that is when one exponent serves every element: for an exponent of 2 it squares
(``x * x``), of 0.5 it takes ``sqrt``, of -1 ``1 / x``, of 0 and 1 it gives 1 and ``x``
(what ``pow`` gives too); other exponents and every exponent with a step call ``pow``.
The three differ from ``pow`` in the last bit of about one element in a thousand, and
at -0.0 and -inf (``sqrt(-0.0)`` is -0.0, ``pow(-0.0, 0.5)`` is 0.0).  Measured on
numpy 2.4 rather than read from its loops (the buffered iterator decides some steps):

- a number as the exponent (a constant, or a value known at run time: a Python or numpy
  scalar) and an array as the base, of any dtype, layout and size: the fast path;
- an array as the exponent: its own step, so ``pow``, where it has the result's size and
  is not a broadcast view; the fast path where it has one element and the result
  several; otherwise (an exponent broadcast along some axes, a view whose step is 0, a
  result of one element) numpy's choice depends on its iterator's buffering and on
  ranks, which son does not follow: it computes ``pow`` and, only where the fast path
  would give another value (another bit pattern), refuses at run time
  (``NotImplementedError``, which son.jit answers by running CPython);
- a number as the base: ``pow``.

An int or bool base is converted to float64 first, as numpy's loop is the float one
(``int_array ** 2.0`` squares the float).  Ints to int powers are ``Ufuncs.power_chain``'s
int loop.

Cost: a constant exponent adds nothing; a run-time one three compares and selects per
element; an array one (a few nodes for the sizes, then) per element one compare per fast
exponent and the refusal's test.
"""

from __future__ import annotations

import ast

from ..nodes import EQ, GE, NE, BitAnd, BitOr, IEEEDiv, IEEEPow, IsNan, Mul, Node, Not, kept
from ..nodes.mathfn import MATH_NODES

#: numpy's fast paths of its float power loop: exponent -> what it computes instead of pow
#: (0 and 1 give what pow gives, and need no test where the exponent is known only at run time)
FAST_POWERS = {2: "square", 0.5: "sqrt", -1: "reciprocal", 0: "one", 1: "itself"}
#: the ones that may differ from pow
_DIFFERENT = (2, 0.5, -1)
AMBIGUOUS_POWER = ("numpy's a ** b for an exponent array broadcast over the base (or a result of one "
                   "element) takes pow or its fast path as its iterator's buffering decides, and the two "
                   "differ here")


class Powers:
    """``FunctionParser``'s float ``**`` of arrays (see the module docstring)."""

    def float_power_chain(self, at: ast.AST, parts: list):
        """The chain of ``base ** exp`` in float64, at least one of them a chain."""
        from .ufuncs import Lazy

        base, exp = parts
        if not isinstance(base, Lazy):
            return self.combine(at, parts, "float64", lambda p, x, y: p.op(
                at, IEEEPow, p.float_of(at, x), p.float_of(at, y)))
        if isinstance(exp, Lazy):
            return self.array_exponent_power(at, parts)
        if exp.type.is_constant and exp.type.con in FAST_POWERS:
            c = exp.type.con
            return self.combine(at, [base], "float64", lambda p, x: p.fast_power(at, p.float_of(at, x), c))
        if exp.type.is_constant:
            return self.combine(at, parts, "float64", lambda p, x, y: p.op(
                at, IEEEPow, p.float_of(at, x), p.float_of(at, y)))
        return self.combine(at, parts, "float64", lambda p, x, y: p.one_exponent_power(
            at, p.float_of(at, x), p.float_of(at, y)))

    def fast_power(self, at: ast.AST, x: Node, c) -> Node:
        """numpy's fast path for float ``x`` to the constant ``c`` (a key of FAST_POWERS)."""
        how = FAST_POWERS[c]
        if how == "square":
            return self.op(at, Mul, x, x)
        if how == "sqrt":
            return self.op(at, MATH_NODES["Sqrt"], x, np=True)
        if how == "reciprocal":
            return self.op(at, IEEEDiv, self.con(1.0), x)
        return self.con(1.0) if how == "one" else x

    def one_exponent_power(self, at: ast.AST, x: Node, y: Node) -> Node:
        """``x ** y`` as numpy's loop computes it for one exponent ``y`` (a float known at
        run time) shared by every element: its fast path where ``y`` is one of
        ``_DIFFERENT``, else ``pow``."""
        with kept(x, y):
            v = self.op(at, IEEEPow, x, y)
            for c in _DIFFERENT:
                with kept(v):
                    fast = self.fast_power(at, x, c)
                    with kept(fast):
                        v = self.choose(self.op(at, EQ, y, self.con(float(c))), fast, v)
        return v

    def array_exponent_power(self, at: ast.AST, parts: list):
        """``base ** exp`` of two chains (see the module docstring)."""
        exp = parts[1]
        flags: list[Node] = []  # [fast, ambiguous], made once the result's shape is known

        def element(p, x, y):
            x, y = p.float_of(at, x), p.float_of(at, y)
            with kept(x, y):
                slow = p.op(at, IEEEPow, x, y).keep()
                fast = p.one_exponent_power(at, x, y).keep()
                p.guard(p.op(at, BitAnd, flags[1], p.bits_differ(at, fast, slow)), NotImplementedError,
                        AMBIGUOUS_POWER)
                v = p.choose(flags[0], fast, slow)
                slow.unkeep()
                fast.unkeep()
                return v

        lz = self.combine(at, parts, "float64", element)
        size, own = self.size_of(at, lz.dims).keep(), self.size_of(at, exp.dims).keep()
        one = self.op(at, EQ, own, self.con(1)).keep()
        fast = self.op(at, BitAnd, one, self.op(at, GE, size, self.con(2))).keep()
        unclear = self.op(at, BitOr, self.op(at, EQ, size, self.con(1)), self.op(at, NE, own, size)).keep()
        for d, s in zip(exp.dims, exp.strides or ()):  # a broadcast view's step of 0
            zero_step = self.op(at, BitAnd, self.op(at, EQ, s, self.con(0)), self.op(at, NE, d, self.con(1)))
            with kept(zero_step):
                wider = self.op(at, BitOr, unclear, zero_step).keep()
            unclear.unkeep()
            unclear = wider
        ambiguous = self.op(at, BitAnd, unclear, self.op(at, Not, fast)).keep()
        for n in (size, own, one, unclear):
            n.unkeep()
        flags += [fast, ambiguous]
        lz.held += flags
        return lz

    def size_of(self, at: ast.AST, dims: list[Node]) -> Node:
        """The product of ``dims``."""
        size = dims[0]
        for d in dims[1:]:
            with kept(size):
                size = self.op(at, Mul, size, d)
        return size

    def bits_differ(self, at: ast.AST, a: Node, b: Node) -> Node:
        """Do floats ``a`` and ``b`` differ as outcomes do (son.fuzz.oracle's ``canon``): by
        bit pattern, any NaN alike (so -0.0 and 0.0 differ)?"""
        with kept(a, b):
            both_nan = self.op(at, BitAnd, self.op(at, IsNan, a), self.op(at, IsNan, b)).keep()
            unequal = self.op(at, BitAnd, self.op(at, NE, a, b), self.op(at, Not, both_nan)).keep()
            sign = MATH_NODES["Copysign"]
            zeros = self.op(at, BitAnd, self.op(at, EQ, a, b), self.op(at, NE, self.op(
                at, sign, self.con(1.0), a), self.op(at, sign, self.con(1.0), b)))
            both_nan.unkeep()
            unequal.unkeep()
            return self.op(at, BitOr, unequal, zeros)
