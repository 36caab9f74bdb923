"""Expressions: constants, operators, comparisons, ``and``/``or``, conditional
expressions and truth values.

Each operator gets the guard of its runtime fault before the node (a zero divisor,
a negative shift count, ``**``'s domain and range errors, a float operand of a
bitwise operator whose kind is unknown until run time); ``and``, ``or``, chained
comparisons and ``x if c else y`` are short-circuit control flow with a merge.
Evaluation is left to right, earlier values kept alive while later ones are built.
O(1) nodes per operator, O(operands) for a chain."""

from __future__ import annotations

import ast

from ..nodes import (
    EQ,
    GE,
    GT,
    LE,
    LT,
    NE,
    Add,
    BitAnd,
    BitOr,
    BitXor,
    Div,
    FloorDiv,
    Invert,
    IsFinite,
    IsFloat,
    Load,
    Mod,
    Mul,
    Neg,
    Node,
    Not,
    Shl,
    Shr,
    Sub,
    ToBool,
    ToFloat,
    ToInt,
    kept,
)
from ..nodes.mathfn import DOMAIN_ERROR, MATH_NODES, POW_RANGE_ERROR, RANGE_ERROR, MathError
from ..nodes.types import BOTTOM, NONE
from .core import _SYMBOL, _dead_value, _kind, is_array_value, is_list
from .scope import Aggregate, Cplx, Grid, Opt, Pack, Rng, describe, shape

#: ``**``'s results that are not of its typed kind, CPython's float and complex number:
#: the documented run-time refusal, which son.jit answers by running the call in CPython
_INT_POW_REFUSED = "int ** negative int is a float in CPython; son's int ** int gives ints"
_COMPLEX_POW_REFUSED = ("a negative float to a fractional power is a complex number in CPython; "
                        "son's float ** float gives floats")

_BINOPS = {ast.Add: Add, ast.Sub: Sub, ast.Mult: Mul, ast.Div: Div, ast.FloorDiv: FloorDiv,
           ast.Mod: Mod, ast.Pow: None, ast.BitAnd: BitAnd, ast.BitOr: BitOr, ast.BitXor: BitXor,
           ast.LShift: Shl, ast.RShift: Shr}


class In:
    """``x in p`` (not a node: ``compare`` resolves it on the tuple's elements)."""


class NotIn:
    """``x not in p``."""


class Is:
    """``x is None`` (only None is compared by identity)."""


class IsNot:
    """``x is not None``."""


_CMPOPS = {ast.Eq: EQ, ast.NotEq: NE, ast.Lt: LT, ast.LtE: LE, ast.Gt: GT, ast.GtE: GE,
           ast.In: In, ast.NotIn: NotIn, ast.Is: Is, ast.IsNot: IsNot}


class Expressions:
    """FunctionParser's expressions and operators (a mixin)."""

    def expr(self, e: ast.expr) -> Node:
        """The value of ``e`` where a number, tuple or array is needed: one that may be
        None is read through ``unwrap`` (TypeError where it is None)."""
        v = self.expr_any(e)
        return self.unwrap(v, e) if isinstance(v, Opt) else v

    def expr_any(self, e: ast.expr) -> Node:
        """The value of ``e`` as it is, a value that may be None included (for what
        binds, returns, merges or tests values: assignments, ``return``, ``is None``)."""
        method = getattr(self, "expr_" + type(e).__name__, None)
        if method is None:
            raise self.unsupported(e)
        return method(e)

    def condition(self, e: ast.expr) -> Node:
        """The truth of ``e`` in a test (None is false)."""
        return self.truth(self.expr_any(e), e)

    def exprs(self, es: list[ast.expr], any_value: bool = False) -> list[Node]:
        """Evaluate left to right, keeping earlier values alive while later ones are built;
        with ``any_value``, values that may be None stay as they are, else they are read
        through ``unwrap`` once every one is evaluated, as CPython evaluates a call's
        arguments before the call finds None among them (seed 47125 i9375)."""
        out = []
        for e in es:
            out.append(self.expr_any(e).keep())
        if not any_value:
            for i, (e, v) in enumerate(zip(es, out)):
                if isinstance(v, Opt):
                    out[i] = self.unwrap(v, e).keep()
                    v.unkeep()
        for v in out:
            v.unkeep()
        return out

    def expr_Constant(self, e):
        v = e.value
        if isinstance(v, (bool, int, float)) or v is None:
            if type(v) is int and not -(1 << 63) <= v < (1 << 63):
                raise self.error(e, f"integer literal {v} does not fit in int64", "int literal")
            return self.con(v)
        if isinstance(v, complex):
            return self.complex_constant(v)
        what = {str: "string literal", bytes: "bytes literal"}.get(
            type(v), f"{type(v).__name__} literal")
        raise self.unsupported(e, what)

    def int_value(self, e: ast.expr) -> Node:
        return self.as_int_argument(e, self.expr(e))

    def as_int_argument(self, e: ast.expr, v: Node) -> Node:
        """``v``, the value of argument ``e``, where CPython takes an int: TypeError for None
        or a float where reached, a located error for what is never one."""
        if isinstance(v, Opt):
            v = self.unwrap(v, e)
        if v.type is NONE:  # range(None), np.zeros(None): CPython's TypeError where reached
            return self.none_operand(e, "int argument")
        if _kind(v) not in ("int", "bool", "number"):
            raise self.error(e, f"expected an int, got {v.type.widen()}", "int")
        if v.type.kind == "number":  # CPython refuses a float here (range, np.zeros): TypeError
            with kept(v):
                self.guard(self.op(e, IsFloat, v), TypeError,
                           "'float' object cannot be interpreted as an integer")
        return v

    def binop(self, at, astop: type, lhs: Node, rhs_ast: ast.expr | Node) -> Node:
        with kept(lhs):
            rhs = rhs_ast if isinstance(rhs_ast, Node) else self.expr(rhs_ast)
        if astop is ast.MatMult or astop not in _BINOPS:
            if isinstance(at, ast.AugAssign):
                raise self.unsupported(at, "in-place matrix product @=", instead="write a = a @ b")
            raise self.unsupported(at, "operator @ of anything but numpy arrays",
                                   instead="write a * b for numbers: @ multiplies 1-D and 2-D arrays")
        cls = _BINOPS[astop]
        return self.arith(at, cls, lhs, rhs)

    def arith(self, at, cls, a: Node, b: Node) -> Node:
        """``a op b`` with its fault guard (zero divisor, negative shift or exponent)."""
        if a.type is NONE or b.type is NONE:
            return self.none_operand(at, "operand")
        if isinstance(a, Cplx) or isinstance(b, Cplx):
            return self.complex_arith(at, cls, a, b)
        if isinstance(a, Pack) or isinstance(b, Pack):
            return self.tuple_arith(at, cls, a, b)
        if is_list(a) or is_list(b):
            return self.list_arith(at, {Add: ast.Add, Mul: ast.Mult}.get(cls), a, b)
        for x in (a, b):
            if _kind(x) is None:
                sym = "**" if cls is None else _SYMBOL[cls]
                a_is, b_is = (describe(shape(v)) if isinstance(v, Aggregate) else "a value whose kind "
                              "differs by path" if v.type is BOTTOM else v.type.widen() for v in (a, b))
                raise self.error(at, f"unsupported operand type(s) for {sym}: {a_is} and {b_is}", "operator")
        with kept(a, b):
            if cls is None:
                return self.power(at, a, b)
            ctrl = None
            if cls in (BitAnd, BitOr, BitXor, Shl, Shr) and self.no_float_guard(at, _SYMBOL[cls], a, b):
                ctrl = self.scope.ctrl
            if cls in (Div, FloorDiv, Mod):
                if self.guard(self.op(at, EQ, b, self.con(0)), ZeroDivisionError, "division by zero"):
                    ctrl = self.scope.ctrl
            elif cls in (Shl, Shr):
                if self.guard(self.op(at, LT, b, self.con(0)), ValueError, "negative shift count"):
                    ctrl = self.scope.ctrl
            return self.op(at, cls, a, b, ctrl=ctrl)

    def no_float_guard(self, at, symbol: str, *xs: Node) -> bool:
        """``if isfloat(x): raise TypeError`` for operands of unknown kind under an
        int-only operator (bitwise, shifts, ~); True if a guard was needed."""
        guarded = False
        for x in dict.fromkeys(xs):
            if x.type.kind == "number":
                guarded |= self.guard(self.op(at, IsFloat, x), TypeError,
                                      f"unsupported operand type for {symbol}: 'float'")
        return guarded

    def power(self, at, a: Node, b: Node, library: bool = False) -> Node:
        """``a ** b`` with CPython's faults; with ``library``, ``math.pow(a, b)``: both
        operands floats, its zero-to-a-negative-power and fractional-power errors a
        ValueError ("math domain error"), its overflow "math range error".  Where
        CPython's ``**`` gives a value of another kind (an int to a negative int
        power met at run time, a negative float to a fractional power), son raises
        NotImplementedError: son.jit then runs the call in CPython."""
        from ..nodes import Pow

        if library:
            with kept(a, b):
                a = self.op(at, ToFloat, a)
            with kept(a):
                b = self.op(at, ToFloat, b)

        ka, kb = a.type.kind, b.type.kind
        ints = ka in ("int", "bool") and kb in ("int", "bool")
        negative_int = kb in ("int", "bool") and b.type.is_constant and b.type.con < 0
        if negative_int and ka in ("int", "bool", "number"):
            # CPython: int ** negative int is float(a) ** float(b), whatever a's static kind
            # (a float base is unchanged by ToFloat); then the float rules below apply
            a = self.op(at, ToFloat, a)
        elif ints:
            if self.guard(self.op(at, LT, b, self.con(0)), NotImplementedError, _INT_POW_REFUSED):
                return self.op(at, Pow, a, b, ctrl=self.scope.ctrl)
            return self.op(at, Pow, a, b)
        with kept(a, b):
            if "float" not in (a.type.kind, b.type.kind):  # an unknown kind: both sets of guards
                both_int = self.op(at, Not, self.op(at, BitOr, self.op(at, IsFloat, a),
                                                    self.op(at, IsFloat, b)))
                negative = self.op(at, LT, b, self.con(0))
                self.guard(self.op(at, BitAnd, both_int, negative), NotImplementedError, _INT_POW_REFUSED)
            zero = self.con(0.0)
            negative_finite = self.op(at, BitAnd, self.op(at, LT, b, zero), self.op(at, IsFinite, b))
            self.guard(self.op(at, BitAnd, self.op(at, EQ, a, zero), negative_finite),
                       *((ValueError, DOMAIN_ERROR) if library
                         else (ZeroDivisionError, "0.0 cannot be raised to a negative power")))
            if b.type.kind not in ("int", "bool"):  # an int exponent is never fractional (CPython
                # compares float(b), an integer beyond 2**53 too, not b with its truncated float)
                bf = self.op(at, ToFloat, b) if b.type.kind == "number" else b
                fractional = self.op(at, BitAnd, self.op(at, IsFinite, bf),
                                     self.op(at, NE, bf, self.op(at, MATH_NODES["Trunc"], bf, np=True)))
                negative_base = self.op(at, BitAnd, self.op(at, LT, a, zero), self.op(at, IsFinite, a))
                fault = (ValueError, DOMAIN_ERROR) if library else (NotImplementedError, _COMPLEX_POW_REFUSED)
                self.guard(self.op(at, BitAnd, negative_base, fractional), *fault)
            r = self.op(at, Pow, a, b, ctrl=self.scope.ctrl)
            with kept(r):
                self.guard(self.op(at, MathError, r, a, b, which="range"), OverflowError,
                           RANGE_ERROR if library else POW_RANGE_ERROR)
        return r

    def expr_BinOp(self, e):
        lhs = self.expr(e.left)
        return self.binop(e, type(e.op), lhs, e.right)

    def expr_UnaryOp(self, e):
        o = e.operand
        if isinstance(e.op, ast.USub) and isinstance(o, ast.Constant) and type(o.value) is int \
                and o.value == 1 << 63:
            return self.con(-(1 << 63))  # INT64_MIN written as a literal
        if isinstance(e.op, ast.Not):
            return self.op(e, Not, self.condition(e.operand))
        return self.unary_on(e, self.expr(e.operand))

    def unary_on(self, e: ast.UnaryOp, x: Node) -> Node:
        """``-x``, ``+x``, ``~x`` of the evaluated operand ``x``."""
        if isinstance(x, Cplx) and isinstance(e.op, (ast.USub, ast.UAdd)):
            return self.complex_negate(e, x, isinstance(e.op, ast.USub))
        if x.type is NONE:
            return self.none_operand(e, "operand")
        if _kind(x) is None:
            raise self.error(e, f"bad operand type for unary operator: {x.type.widen()}", "operator")
        if isinstance(e.op, ast.USub):
            return self.op(e, Neg, x)
        if isinstance(e.op, ast.UAdd):
            return self.op(e, ToInt, x) if x.type.kind == "bool" else x
        if x.type.kind == "float":
            raise self.error(e, "bad operand type for unary ~: 'float'", "operator")
        with kept(x):
            ctrl = self.scope.ctrl if self.no_float_guard(e, "~", x) else None
        return self.op(e, Invert, x, ctrl=ctrl)

    def truth(self, v: Node, at: ast.AST) -> Node:
        """The bool a value stands for in a condition (Python truthiness)."""
        k = _kind(v)
        if k == "bool":
            return v
        if k is not None:
            return self.op(at, ToBool, v)
        if v.type is NONE:
            return self.con(False)
        if isinstance(v, Opt):
            with kept(v):
                t = self.truth(v.value, at)
                return self.op(at, BitAnd, self.op(at, Not, v.is_none), t)
        if isinstance(v, Cplx):
            return self.complex_truth(at, v)
        if isinstance(v, Rng):  # not empty
            with kept(v):
                zero = self.con(0)
                s, a, b = v.step, v.start, v.stop
                up = self.op(at, BitAnd, self.op(at, GT, s, zero), self.op(at, LT, a, b))
                with kept(up):
                    down = self.op(at, BitAnd, self.op(at, LT, s, zero), self.op(at, GT, a, b))
                return self.op(at, BitOr, up, down)
        if isinstance(v, Pack):
            return self.con(bool(v.elems))
        if is_list(v):  # not empty
            with kept(v):
                return self.op(at, GT, self.list_len(at, v), self.con(0))
        if isinstance(v, Grid) or is_array_value(v):
            return self.array_truth(at, v)
        raise self.error(at, f"the truth value of a {v.type} value is ambiguous", "condition")

    def array_truth(self, at: ast.AST, v: Node) -> Node:
        """``bool(a)`` of an array: numpy's ValueError unless it has one element, then that
        element's truth."""
        with kept(v):
            g = v if isinstance(v, Grid) else self.as_grid(at, v)
            with kept(g):
                size = self.flat_size(at, g)
                with kept(size):
                    self.guard(self.op(at, EQ, size, self.con(0)), ValueError,
                               "The truth value of an empty array is ambiguous. Use `array.size > 0` to "
                               "check that an array is not empty.")
                    self.guard(self.op(at, GT, size, self.con(1)), ValueError,
                               "The truth value of an array with more than one element is ambiguous. Use "
                               "a.any() or a.all()")
                x = self.op(at, Load, self.scope.ctrl, self.scope.mem, g.base, g.start)
            return self.truth(x, at)

    def short_circuit(self, first: Node, rest, is_and: bool, at: ast.AST | None = None) -> Node:
        """Python's ``a and b`` / ``a or b`` value, with short-circuit control flow.
        ``rest`` is a list of callables producing the later operands."""
        tmp = self.temp()
        self.scope.set(tmp, first)
        for make in rest:
            cond = self.truth(self.scope.get(tmp), None)
            t, f = self.branch(cond)
            short = self.scope.dup()
            short.ctrl = f if is_and else t
            self.scope.ctrl = t if is_and else f
            self.refine(self.scope, cond, is_and)
            if cond.inputs is not None:  # `x or d` where x is true: x is not None (typing only:
                self.refine_optionals(short, cond, not is_and)  # range facts there would grow the graph)
            v = make()  # may replace self.scope
            self.scope.set(tmp, v)
            self.scope = self.merge([self.scope, short])
        v = self.scope.get(tmp)
        if v.type is BOTTOM:  # a tuple on one side, a number or None on the other
            raise self.error(at, "this 'and'/'or' gives values of different types on its two sides (a "
                                 "tuple and a number or None); son needs one type", "boolean operation")
        with kept(v):
            self.scope.remove(tmp)
        return v

    def expr_BoolOp(self, e):
        first = self.expr_any(e.values[0])
        return self.short_circuit(first, [lambda v=v: self.expr_any(v) for v in e.values[1:]],
                                  isinstance(e.op, ast.And), e)

    def expr_Compare(self, e):
        if len(e.ops) == 1:
            left, right = self.exprs([e.left, e.comparators[0]], any_value=True)
            return self.compare(e, _CMPOPS[type(e.ops[0])], left, right)
        left = self.expr_any(e.left)
        # a < b < c: b is evaluated once, c only if a < b
        prev = self.temp()
        self.scope.set(prev, left)

        def step(op, comp):
            def make():
                r = self.expr_any(comp)
                with kept(r):
                    v = self.compare(e, _CMPOPS[type(op)], self.scope.get(prev), r)
                self.scope.set(prev, r)
                return v
            return make

        first = step(e.ops[0], e.comparators[0])()
        v = self.short_circuit(first, [step(o, c) for o, c in zip(e.ops[1:], e.comparators[1:])], True)
        self.scope.remove(prev)
        return v

    def compare(self, at, cls, a: Node, b: Node) -> Node:
        if cls in (Is, IsNot):
            return self.identity(at, a, b, cls is IsNot)
        if cls in (EQ, NE) and any(isinstance(x, Opt) or x.type is NONE for x in (a, b)):
            return self.none_equality(at, a, b, cls is NE)
        if cls in (In, NotIn):  # the element as it is (None == 0 is False), the container read
            with kept(a, b):
                if isinstance(b, Opt):
                    b = self.unwrap(b, at)
            if b.type is NONE:
                return self.none_operand(at, "container")
            return self.contains(at, a, b, cls is NotIn)
        with kept(a, b):
            if isinstance(a, Opt):
                a = self.unwrap(a, at)
            with kept(a):
                if isinstance(b, Opt):
                    b = self.unwrap(b, at)
        if a.type is NONE or b.type is NONE:
            return self.none_operand(at, "comparison")
        if isinstance(a, Cplx) or isinstance(b, Cplx):
            return self.complex_compare(at, cls, a, b)
        if isinstance(a, Pack) or isinstance(b, Pack):
            return self.tuple_compare(at, cls, a, b)
        if is_list(a) or is_list(b):
            return self.list_compare(at, cls, a, b)
        if _kind(a) is None or _kind(b) is None:
            if _dead_value(a) or _dead_value(b):  # a value of a path the types prove dead
                return self.dead_value()
            raise self.error(at, f"unsupported comparison between {a.type.widen()} and "
                                 f"{b.type.widen()}", "comparison")
        return self.op(at, cls, a, b)

    def expr_IfExp(self, e):
        cond = self.condition(e.test)
        t, f = self.branch(cond)
        tmp = self.temp()
        other = self.scope.dup()
        other.ctrl = f
        self.scope.ctrl = t
        self.refine(self.scope, cond, True)
        self.refine(other, cond, False)
        v = self.expr_any(e.body)  # may replace self.scope
        self.scope.set(tmp, v)
        then = self.scope
        self.scope = other
        v = self.expr_any(e.orelse)
        self.scope.set(tmp, v)
        self.scope = self.merge([then, self.scope])
        v = self.scope.get(tmp)
        if v.type is BOTTOM:  # a tuple on one side, a number or None on the other
            raise self.error(e, "this conditional expression gives values of different types on its two "
                                "sides (a tuple and a number or None); son needs one type", "conditional")
        with kept(v):
            self.scope.remove(tmp)
        return v
