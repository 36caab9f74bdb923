"""Whole-array expressions: numpy's elementwise operators and ufuncs on arrays, views
and n-D arrays, with numpy's broadcasting and result dtypes, as loops of the graph.

An operator whose operand is an array computes nothing by itself while the
expression is parsed: it is a ``Lazy`` of the parse, the result's shape and a function
that builds one element from its index.  A chain such as ``np.sqrt(x * x + y * y) * w``
is therefore one loop and one new array, with no temporary for ``x * x`` or the sum
(NNVM's FuseOps for elementwise chains, done while parsing).  The chain becomes an
array (``materialize``: one allocation, one loop nest in C order) where its value
leaves the expression: bound to a name, returned, passed on, indexed, reduced.
Operands are evaluated left to right as Python does; before an operand that may have
an effect (any call but a ufunc's) is evaluated, the chains waiting to its left are
materialized, so that operand cannot change an array they read before they read it.

Each element follows numpy 2 (NEP 50: a Python scalar takes the array's dtype): ``bool +
bool`` is ``or`` and ``bool * bool`` ``and``; ``/`` divides as floats with IEEE results
(``1/0`` is inf, no ZeroDivisionError); an int array's ``//`` and ``%`` give 0 for a
zero divisor, a float array's Python's results but IEEE's for a zero divisor
(son/frontend/composites.py, which also writes the ufuncs that are no single node:
``np.maximum``, ``np.logaddexp``, ``np.sinc``, ...); a float ``a ** b`` takes numpy's
fast paths (``np.square``, ``np.sqrt``, ...) where numpy's loop does
(son/frontend/powers.py); an int to a negative int power is numpy's ValueError;
comparisons of ints with floats compare float64 values; a ufunc of floats (``np.sqrt``,
``np.exp``, ...) gives NaN where ``math`` raises. Refused with a located error, where
numpy's result would be of a dtype son does not have or depends on a value known only at
run time: ``//`` and ``%`` of bools, a float ufunc of a bool array (float16).
``bool - bool`` and ``-`` of a bool array are numpy's TypeError where they run.
Broadcasting follows numpy: shapes aligned on the right, a dimension of 1 stretched,
numpy's ValueError where two differ otherwise. An n-D operand must be C-contiguous where
the chain is made into an array (numpy would give the result another memory order, which
a later sum would see): ``NotImplementedError`` otherwise.

O(nodes of the chain) nodes per materialized chain; each element costs the chain's
operations, its loads and no bounds check (the indices are in range by construction).
"""

from __future__ import annotations

import ast
from collections.abc import Callable

import numpy as np

from ..nodes import (
    EQ,
    GE,
    GT,
    LE,
    LT,
    NE,
    Abs,
    Add,
    BitAnd,
    BitOr,
    BitXor,
    FloorDiv,
    IEEEDiv,
    Invert,
    IsFinite,
    IsInf,
    IsNan,
    Load,
    Max,
    Mod,
    Mul,
    Neg,
    NewArray,
    Node,
    Not,
    Pow,
    Store,
    Sub,
    ToFloat,
    ToInt,
    kept,
)
from ..nodes.mathfn import MATH_FUNCTIONS
from ..nodes.types import TOP, ArrayType, bounds
from .arrayfns import gradient_parse
from .composites import COMPOSITES, EXTREMES, ElementFunctions
from .core import BOOL_SUBTRACT, _kind, dtype_of
from .scope import Chain, Grid, View, layout, may_alias

_KIND = {"float64": "float", "int64": "int", "bool": "bool"}
_DTYPE = {v: k for k, v in _KIND.items()}
_BINARY = {ast.Add: Add, ast.Sub: Sub, ast.Mult: Mul, ast.Div: IEEEDiv, ast.FloorDiv: FloorDiv,
           ast.Mod: Mod, ast.Pow: Pow, ast.BitAnd: BitAnd, ast.BitOr: BitOr, ast.BitXor: BitXor}
#: the shift operators: numpy's ufuncs (son/frontend/composites.py)
_SHIFTS = {ast.LShift: np.left_shift, ast.RShift: np.right_shift}
_OPERATORS = {*_BINARY, *_SHIFTS}
_COMPARE = {ast.Eq: EQ, ast.NotEq: NE, ast.Lt: LT, ast.LtE: LE, ast.Gt: GT, ast.GtE: GE}
_SYMBOL = {Add: "+", Sub: "-", Mul: "*", IEEEDiv: "/", FloorDiv: "//", Mod: "%", Pow: "**", BitAnd: "&",
           BitOr: "|", BitXor: "^"}
#: ufuncs of one or two arrays that are the scalar nodes elementwise (bool results)
_PREDICATES = {np.isnan: IsNan, np.isinf: IsInf, np.isfinite: IsFinite}
_ABS = (abs, np.abs, np.absolute)
#: numpy's operator ufuncs, of an array: the operator's chain (``np.power(a, c)`` takes the
#: fast paths of ``a ** c`` for a scalar exponent, as numpy's loop does)
_ARITH = {np.add: Add, np.subtract: Sub, np.multiply: Mul, np.divide: IEEEDiv, np.floor_divide: FloorDiv,
          np.remainder: Mod, np.power: Pow, np.bitwise_and: BitAnd, np.bitwise_or: BitOr,
          np.bitwise_xor: BitXor}
#: numpy 2's np.floor of an int array is the array itself (int64); earlier numpys gave floats
_INT_ROUNDING_IS_IDENTITY = np.floor(np.int64(1)).dtype.kind != "f"


class Lazy:
    """An elementwise chain being parsed: its shape (``dims``, kept nodes), numpy's
    result ``dtype``, ``item(parser, idx)`` building the element at an index tuple in
    that parser's scope (the one parsing, an inlined callee's too), the n-D arrays it
    reads (``grids``, for the memory-order check) and the nodes it keeps alive."""

    __slots__ = ("dims", "dtype", "item", "grids", "held", "is_leaf", "bases", "strides")

    def __init__(self, dims: list[Node], dtype: str, item: Callable[[list[Node]], Node],
                 grids: list[Grid], held: list[Node], is_leaf: bool = False, bases: tuple = (),
                 strides: list[Node] | None = None):
        self.dims, self.dtype, self.item, self.grids, self.held = dims, dtype, item, grids, held
        #: reads an array as it is (nothing to compute before an operand to its right)
        self.is_leaf = is_leaf
        #: a leaf's steps through its base, one per dimension (None for a computed chain)
        self.strides = strides
        #: the base arrays it reads
        self.bases = bases

    @property
    def kind(self) -> str:
        return _KIND[self.dtype]

    def release(self) -> None:
        for n in self.held:
            n.unkeep()
        self.held = []


def _is_array(v) -> bool:
    """An array, a view or an n-D array; not a value of dead code (TOP), which the
    scalar paths take."""
    return isinstance(v, (View, Grid)) or (isinstance(v, Node) and isinstance(v.type, ArrayType))


def _is_arrayish(v) -> bool:
    return isinstance(v, Lazy) or _is_array(v)


def _pure(e: ast.expr) -> bool:
    """Can evaluating ``e`` change an array (or anything) a pending chain reads?  No call
    but a ufunc-looking one (``np.x(...)``, ``abs``), no assignment expression."""
    for x in ast.walk(e):
        if isinstance(x, (ast.NamedExpr, ast.Lambda, ast.ListComp, ast.GeneratorExp, ast.Await)):
            return False
        if isinstance(x, ast.Call):
            f = x.func
            if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in
                    ("np", "numpy") or isinstance(f, ast.Name) and f.id == "abs"):
                return False
    return True


class Ufuncs(ElementFunctions):
    """FunctionParser's whole-array expressions (a mixin, ahead of Expressions, Calls
    and Statements in the parser's bases: it takes their operators on arrays)."""

    # -- entry points -------------------------------------------------------------------
    def expr_BinOp(self, e):
        return self.materialized(e, self.ew_binop(e))

    def expr_UnaryOp(self, e):
        if not isinstance(e.op, (ast.USub, ast.UAdd, ast.Invert)):
            return super().expr_UnaryOp(e)
        return self.materialized(e, self.ew_unary(e))

    def expr_Compare(self, e):
        if len(e.ops) != 1 or type(e.ops[0]) not in _COMPARE:
            return super().expr_Compare(e)
        return self.materialized(e, self.ew_compare(e))

    def call_object(self, e: ast.Call, fn, name: str) -> Node:
        if getattr(e, "son_rebound", False) or not self.is_ufunc(fn):
            return super().call_object(e, fn, name)
        if isinstance(fn, np.ufunc) and (len(e.args) > fn.nin or any(k.arg == "out" for k in e.keywords)):
            return self.ufunc_into(e, fn, name)
        return self.materialized(e, self.ew_call(e, fn, name))

    def stmt_AugAssign(self, s):
        t = s.target
        if isinstance(t, ast.Subscript) and (spelled := self.spelled_slices(t)) is not t:
            try:  # x[s] += v of a slice value s: x[lo:hi:step] += v
                self.stmt_AugAssign(ast.copy_location(ast.AugAssign(spelled, s.op, s.value), s))
                return
            finally:
                self.drop_spelled(spelled)
        if isinstance(t, ast.Name) and type(s.op) in _OPERATORS:
            cur = self.scope.get(t.id)
            if cur is not None and _is_array(cur):
                self.in_place(s, self.read(t.id, t))
                return
        items = t.slice.elts if isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Tuple) else \
            [getattr(t, "slice", None)]
        sliced = any(isinstance(x, ast.Slice) for x in items)
        if isinstance(t, ast.Subscript) and type(s.op) in _OPERATORS and sliced:
            base = self.expr(t.value)
            with kept(base):
                if isinstance(base, Grid):
                    view = self.grid_pick(t, base)
                elif _is_array(base) and isinstance(t.slice, ast.Slice):
                    view = self.slice_view(t, base)
                else:
                    raise self.unsupported(t, "augmented assignment to a slice of anything but an array")
            with kept(view):
                self.in_place(s, view)
            return
        super().stmt_AugAssign(s)

    # -- operands -----------------------------------------------------------------------
    def ew_operand(self, e: ast.expr, any_value: bool = False):
        """``e``'s value: a ``Lazy`` for an elementwise chain, else its node (with
        ``any_value``, one that may be None as it is: ``expr_any``)."""
        if isinstance(e, ast.BinOp):
            return self.ew_binop(e)
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, (ast.USub, ast.UAdd, ast.Invert)):
            return self.ew_unary(e)
        if isinstance(e, ast.Compare) and len(e.ops) == 1 and type(e.ops[0]) in _COMPARE:
            return self.ew_compare(e)
        if isinstance(e, ast.Call) and not e.keywords and not any(isinstance(a, ast.Starred) for a in e.args):
            fn = self.ufunc_of(e)
            if fn is not None:
                return self.ew_call(e, fn, ast.unparse(e.func))
        if not _pure(e):
            self.force_pending(e)
        return self.expr_any(e) if any_value else self.expr(e)

    def ufunc_of(self, e: ast.Call):
        """The ufunc ``e`` calls (a dotted global name), else None."""
        if not isinstance(e.func, (ast.Name, ast.Attribute)) or self.is_value(e.func):
            return None
        fn = self.resolve_quiet(e.func)  # None: the ordinary call path says why
        return fn if self.is_ufunc(fn) else None

    @staticmethod
    def is_ufunc(fn) -> bool:
        try:
            if fn in _ABS or fn in _PREDICATES or fn is np.where or fn in EXTREMES or fn in _ARITH \
                    or fn in COMPOSITES:
                return True
            spec = MATH_FUNCTIONS.get(fn)
        except TypeError:  # unhashable
            return False
        return spec is not None and spec[1]

    def pending(self) -> list:
        """The operands waiting, each in a one-item holder, while those to their right are
        evaluated (the parser's ``ew_pending``)."""
        return self.ew_pending

    def force_pending(self, at: ast.AST) -> None:
        """Materialize every chain waiting for an operand to its right (that operand
        may write an array the chain reads)."""
        for holder in self.pending():
            v = holder[0]
            if isinstance(v, Lazy) and not v.is_leaf:
                holder[0] = self.temporary(at, v)

    def operands(self, es: list[ast.expr], any_value: bool = False) -> list:
        """The operands of one operator or ufunc, left to right; each waits (pending,
        kept) while those to its right are evaluated."""
        vals, stack = [], self.pending()
        try:
            for x in es:
                v = self.ew_operand(x, any_value)
                if isinstance(v, Node):
                    v.keep()
                holder = [v]
                stack.append(holder)
                vals.append(holder)
        finally:
            del stack[len(stack) - len(vals):]
        out = [h[0] for h in vals]
        for v in out:
            if isinstance(v, Node):
                v.unkeep()
        return out

    # -- chains -------------------------------------------------------------------------
    def leaf(self, at: ast.AST, a: Node) -> Lazy:
        """An array, a view or an n-D array as a chain's operand."""
        if isinstance(a, Grid):
            base, start, dims, strides, grids = a.base, a.start, list(a.dims), list(a.strides), [a]
            dtype = dtype_of(base)  # (float64 for a value of dead code)
        elif isinstance(a, View):
            base, start, dims, strides, grids = a.base, a.start, [a.length], [a.step], []
            dtype = dtype_of(a)
        else:
            base, start, strides, grids = a, self.con(0), [self.con(1)], []
            dims = [self.length(at, a)]
            dtype = dtype_of(a)
        held = [base, start, *dims, *strides, *grids]
        for n in held:
            n.keep()

        def item(p, idx):
            k = start
            for i, s in zip(idx, strides):
                with kept(k):
                    k = p.op(at, Add, k, p.op(at, Mul, i, s))
            with kept(k):
                return p.op(at, Load, p.scope.ctrl, p.scope.mem, base, k)

        return Lazy(dims, dtype, item, grids, held, is_leaf=True, bases=(base,), strides=strides)

    def scalar_kind(self, at: ast.AST, x: Node, symbol: str) -> str:
        k = _kind(x)
        if k is None:
            raise self.error(at, f"unsupported operand type(s) for {symbol}: an array and {x.type.widen()}",
                             "operator")
        if k == "number":
            if x.type is TOP:  # a value of dead code (a name unbound there): a kind every operator
                return "int"  # takes with an array of any dtype (a float is refused by & | ^)
            raise self.unsupported(at, f"an array {symbol} a value that may be an int or a float (numpy's "
                                       "result dtype would depend on it: convert it with float() or int())")
        return k

    def broadcast(self, at: ast.AST, parts: list) -> tuple[list[Node], list]:
        """The shape numpy broadcasts ``parts`` (chains and scalars) to, with numpy's
        ValueError where two dimensions differ and neither is 1; and for each part a
        function from an index of that shape to the part's element."""
        rank = max(len(p.dims) for p in parts if isinstance(p, Lazy))
        dims: list[Node | None] = [None] * rank
        for p in parts:
            if not isinstance(p, Lazy):
                continue
            for j, d in enumerate(p.dims):
                axis = rank - len(p.dims) + j
                cur = dims[axis]
                if cur is None or cur is d:
                    dims[axis] = d if cur is d else d.keep()  # each dimension kept once, here
                    continue
                with kept(cur, d):
                    one_a = self.op(at, EQ, cur, self.con(1)).keep()
                    stretch = self.op(at, BitOr, one_a, self.op(at, EQ, d, self.con(1)))
                    bad = self.op(at, BitAnd, self.op(at, NE, cur, d), self.op(at, Not, stretch))
                    self.guard(bad, ValueError, "operands could not be broadcast together")
                    # d where cur is 1, else cur: a max of lengths times 0 or 1 has a length's range
                    keep_cur = self.op(at, Mul, cur, self.op(at, ToInt, self.op(at, Not, one_a))).keep()
                    dims[axis] = self.op(at, Max, keep_cur, self.op(at, Mul, d, self.op(at, ToInt, one_a)))
                    keep_cur.unkeep()
                    one_a.unkeep()
                dims[axis].keep()
                cur.unkeep()
        readers = []
        for p in parts:
            if not isinstance(p, Lazy):
                readers.append(lambda q, idx, x=p: x)
                continue
            factors = []
            for j, d in enumerate(p.dims):
                axis = rank - len(p.dims) + j
                if d is dims[axis]:
                    factors.append(None)  # the same length: the same index
                elif d.type.is_constant and d.type.con == 1:
                    factors.append(self.con(0).keep())  # released with the part, as the others
                else:
                    factors.append(self.op(at, ToInt, self.op(at, NE, d, self.con(1))).keep())
            p.held += [f for f in factors if f is not None]

            def read(q, idx, p=p, factors=factors):
                own, scaled = idx[len(idx) - len(p.dims):], []
                try:  # each index kept while the next is made
                    for i, f in zip(own, factors):
                        scaled.append((i if f is None else q.op(at, Mul, i, f)).keep())
                    return p.item(q, scaled)
                finally:
                    for i in scaled:
                        i.unkeep()

            readers.append(read)
        return dims, readers

    def combine(self, at: ast.AST, parts: list, dtype: str, element) -> Lazy:
        """The chain whose element is ``element(at, *elements of parts)``."""
        dims, readers = self.broadcast(at, parts)
        held = [d for d in dims]  # kept by broadcast
        grids, bases = [], ()
        for p in parts:
            if isinstance(p, Lazy):
                held += p.held
                grids += p.grids
                bases += p.bases
            else:
                p.keep()
                held.append(p)

        def item(p, idx):
            xs = []
            try:
                for r in readers:
                    xs.append(r(p, idx).keep())
                return element(p, *xs)
            finally:
                for x in xs:
                    x.unkeep()

        return Lazy(dims, dtype, item, grids, held, bases=bases)

    def materialized(self, at: ast.AST, v):
        """A chain's value as an array; anything else as it is."""
        if not isinstance(v, Lazy):
            return v
        return self.materialize(at, v)

    def materialize(self, at: ast.AST, lz: Lazy, escapes: bool = True) -> Node:
        """A new C-order array of the chain's elements (a 1-D array, else a ``Grid``):
        one allocation, one loop per dimension.  Where the array ``escapes`` (it is the
        expression's value, not a temporary son reads once) its n-D operands must be in
        C-like order, as numpy would then give it the same memory order."""
        if escapes:
            self.require_c_like_order(at, lz.grids)
        size = lz.dims[0]
        for d in lz.dims[1:]:
            with kept(size):
                size = self.op(at, Mul, size, d)
        with kept(size):
            base = self.op(at, NewArray, self.scope.ctrl, size, dtype=lz.dtype, fill="empty").keep()
        out = base if len(lz.dims) == 1 else self.c_order(at, base, self.con(0), list(lz.dims)).keep()

        def store(idx):
            x = lz.item(self, idx)
            with kept(x):
                to = self.flat_index(at, out, idx) if isinstance(out, Grid) else idx[0]
                with kept(to):
                    self.scope.mem = self.op(at, Store, self.scope.ctrl, self.scope.mem, base, to, x)

        self.grid_loops(at, list(lz.dims), store)
        lz.release()
        out.unkeep()
        if out is not base:
            base.unkeep()
        return out

    def temporary(self, at: ast.AST, lz: Lazy) -> Lazy:
        """The chain made an array that only son reads, as an operand (it stands for
        the chain's operands in the memory-order check of what it flows into)."""
        grids = lz.grids
        out = self.leaf(at, self.materialize(at, lz, escapes=False))
        out.grids = grids
        return out

    def chain_item(self, e: ast.Subscript, a: Chain) -> Node:
        """``a[k]`` of a chain passed to son's own reductions: element k, built here (k
        is in range there: no bounds check)."""
        k = self.expr(e.slice)
        with kept(k):
            return a.lazy.item(self, [k])

    def fused_reduction(self, e: ast.expr, fn, value: ast.expr):
        """``np.sum(chain)``, ``np.mean(chain)`` of a 1-D float chain, reading each element
        where the sum reads it (no temporary); None for anything else, whose value is
        then the array ``value`` makes (evaluated here, returned as the second item).
        In a parse for the derivative transforms the chain is also made an array for the
        sum's value (``float_sum``), which the gradient drops when nothing needs it."""
        v = self.ew_operand(value)
        if not (isinstance(v, Lazy) and len(v.dims) == 1 and v.dtype == "float64"):
            return None, self.materialized(value, v)
        chain = Chain(self.g, v, *v.held).keep()
        try:
            if gradient_parse():
                arr = self.materialize(e, v, escapes=False).keep()
                try:
                    total = self.float_sum(e, arr, surrogate=chain)
                finally:
                    arr.unkeep()
            else:
                total = self.float_sum(e, chain)
            if fn is np.mean:
                with kept(total):
                    total = self.op(e, IEEEDiv, total, self.op(e, ToFloat, v.dims[0]))
        finally:
            chain.unkeep()
            if chain.is_unused():
                chain.kill()
            v.release()
        return total, None

    # -- operators ----------------------------------------------------------------------
    def ew_binop(self, e: ast.BinOp):
        a, b = self.operands([e.left, e.right])
        if not (_is_arrayish(a) or _is_arrayish(b)):
            return self.binop(e, type(e.op), a, b)
        if isinstance(e.op, ast.MatMult):
            return self.matmul(e, [a, b], "matmul")
        if type(e.op) not in _OPERATORS:
            raise self.unsupported(e, f"operator {type(e.op).__name__} on arrays")
        return self.operator_chain(e, type(e.op), [self.as_part(e, x) for x in (a, b)])

    def operator_chain(self, at: ast.AST, operator: type, parts: list) -> Lazy:
        """The chain of the Python operator ``operator`` (an ``ast`` operator class of
        ``_OPERATORS``) on ``parts``."""
        shift = _SHIFTS.get(operator)
        if shift is not None:
            return self.composite_chain(at, shift, shift.__name__, parts)
        return self.arith_chain(at, _BINARY[operator], parts)

    def composite_chain(self, at: ast.AST, fn, name: str, parts: list) -> Lazy:
        """The chain of the ``COMPOSITES`` ufunc ``fn`` on ``parts``."""
        kinds = self.kinds(at, parts, name)
        return self.combine(at, parts, self.composite_dtype(fn, kinds),
                            lambda p, *xs: p.composite(at, fn, name, list(xs), kinds))

    def as_part(self, at: ast.AST, x):
        if isinstance(x, Lazy):
            return x
        if _is_array(x):
            return self.leaf(at, x)
        return x

    def kinds(self, at: ast.AST, parts: list, symbol: str) -> list[str]:
        return [p.kind if isinstance(p, Lazy) else self.scalar_kind(at, p, symbol) for p in parts]

    def arith_chain(self, at: ast.AST, op: type, parts: list) -> Lazy:
        sym = _SYMBOL[op]
        ka, kb = self.kinds(at, parts, sym)
        both_bool = ka == kb == "bool"
        floats = "float" in (ka, kb)
        if op is Sub and both_bool:  # numpy's TypeError where (and only if) the code runs
            self.fault(TypeError, BOOL_SUBTRACT)
            return self.combine(at, parts, "int64", lambda p, x, y: p.dead_value())
        if op in (FloorDiv, Mod) and both_bool:
            raise self.unsupported(at, f"{sym} of bool arrays (numpy's result is int8)")
        if op in (FloorDiv, Mod) and floats:
            return self.combine(at, parts, "float64", lambda p, x, y: p.float_division(at, op, x, y))
        if op in (BitAnd, BitOr, BitXor) and floats:
            raise self.error(at, f"ufunc for {sym} not supported for float arrays", "operator")
        if op is IEEEDiv:
            return self.combine(at, parts, "float64", lambda p, x, y: self.op(
                at, IEEEDiv, self.float_of(at, x), self.float_of(at, y)))
        if op is Pow:
            return self.power_chain(at, parts, ka, kb)
        if both_bool and op in (Add, Mul, BitAnd, BitOr, BitXor):
            logical = {Add: BitOr, Mul: BitAnd}.get(op, op)
            return self.combine(at, parts, "bool", lambda p, x, y: self.op(at, logical, x, y))
        if op in (FloorDiv, Mod):  # ints: 0 for a zero divisor, as numpy
            def divide(p, x, y):
                zero = self.op(at, EQ, y, self.con(0)).keep()
                with kept(x, y):
                    q = self.op(at, op, self.int_of(at, x), self.op(at, Add, self.int_of(at, y),
                                                                    self.op(at, ToInt, zero)))
                with kept(q):
                    r = self.op(at, Mul, q, self.op(at, ToInt, self.op(at, Not, zero)))
                zero.unkeep()
                return r
            return self.combine(at, parts, "int64", divide)
        kind = "float" if floats else "int"
        conv = self.float_of if floats else self.int_of
        return self.combine(at, parts, _DTYPE[kind],
                            lambda p, x, y: self.op(at, op, conv(at, x), conv(at, y)))

    def power_chain(self, at: ast.AST, parts: list, ka: str, kb: str) -> Lazy:
        base, exp = parts
        if ka == kb == "bool":
            raise self.unsupported(at, "** of bools (numpy's result is int8)")
        if ka == "bool" and kb == "int" and not isinstance(exp, Lazy) and not (
                exp.type.is_constant and exp.type.con != 2):  # numpy: b ** 2 is np.square(b), int8
            raise self.unsupported(at, "a bool array to an int power that may be 2 (numpy squares it as "
                                       "int8 then, into int64 otherwise)")
        if ka != "float" and kb != "float":  # ints: numpy's ValueError for a negative exponent
            def ipow(p, x, y):
                with kept(x, y):
                    y = p.int_of(at, y)
                    with kept(y):
                        p.guard(p.op(at, LT, y, p.con(0)), ValueError,
                                "Integers to negative integer powers are not allowed.")
                        return p.op(at, Pow, p.int_of(at, x), y, ctrl=p.scope.ctrl)
            # the guard is in the loop: made an array at once, so no later operand
            # can raise first where numpy raised this
            return self.temporary(at, self.combine(at, parts, "int64", ipow))
        return self.float_power_chain(at, parts)  # son/frontend/powers.py

    def float_of(self, at: ast.AST, x: Node) -> Node:
        return x if x.type.kind == "float" else self.op(at, ToFloat, x)

    def int_of(self, at: ast.AST, x: Node) -> Node:
        return self.op(at, ToInt, x) if x.type.kind == "bool" else x

    def ew_unary(self, e: ast.UnaryOp):
        if isinstance(e.op, ast.USub) and isinstance(e.operand, ast.Constant):
            return super().expr_UnaryOp(e)  # a negative literal (INT64_MIN among them)
        (x,) = self.operands([e.operand])
        if not _is_arrayish(x):
            return self.unary_on(e, x)
        part = self.as_part(e, x)
        k = part.kind
        if isinstance(e.op, ast.Invert):
            if k == "float":
                raise self.error(e, "ufunc 'invert' not supported for float arrays", "operator")
            cls = Not if k == "bool" else Invert
            return self.combine(e, [part], part.dtype, lambda p, v: self.op(e, cls, v))
        if k == "bool":  # numpy's TypeError where (and only if) the code runs
            part.release()
            return self.fault(TypeError, "The numpy boolean negative, the `-` operator, is not supported, "
                                         "use the `~` operator or the logical_not function instead.")
        if isinstance(e.op, ast.UAdd):
            return part
        return self.combine(e, [part], part.dtype, lambda p, v: self.op(e, Neg, v))

    def ew_compare(self, e: ast.Compare):
        a, b = self.operands([e.left, e.comparators[0]], any_value=True)
        cls = _COMPARE[type(e.ops[0])]
        if not (_is_arrayish(a) or _is_arrayish(b)):
            return self.compare(e, cls, a, b)
        parts = [self.as_part(e, x) for x in (a, b)]
        ka, kb = self.kinds(e, parts, "comparison")
        conv = self.float_of if "float" in (ka, kb) else (lambda at, x: x)
        return self.combine(e, parts, "bool", lambda p, x, y: self.op(e, cls, conv(e, x), conv(e, y)))

    # -- ufuncs ---------------------------------------------------------------------------
    def int32_exponent(self, e: ast.Call, n: Node) -> None:
        """``np.ldexp(array, n)`` with a number ``n``: numpy's loop for a float array takes
        an int32 exponent, so a Python int ``n`` outside int32 raises OverflowError, and
        a numpy int64 (an element read, a reduction) picks the int64 loop and does not;
        son's ints do not say which, so there it raises NotImplementedError (son.jit then
        runs the call in CPython).  Nothing where ``n``'s range lies in int32."""
        if n.type.kind not in ("int", "bool"):
            return  # a float exponent: refused with the operands' kinds
        b = bounds(n.type)
        if b is not None and -(1 << 31) <= b[0] and b[1] < (1 << 31):
            return
        with kept(n):
            outside = self.op(e, BitOr, self.op(e, LT, n, self.con(-(1 << 31))),
                              self.op(e, GE, n, self.con(1 << 31)))
            self.guard(outside, NotImplementedError, "np.ldexp(array, n) with n outside int32: numpy "
                       "raises OverflowError for a Python int there and not for a numpy int")

    def ew_call(self, e: ast.Call, fn, name: str):
        if e.keywords:
            raise self.error(e, f"{name}() with keyword arguments on arrays", name)
        arity = 3 if fn in (np.where, np.clip) else 2 if fn in EXTREMES or fn in _ARITH else 1 \
            if fn in _ABS or fn in _PREDICATES else COMPOSITES[fn].arity if fn in COMPOSITES \
            else MATH_FUNCTIONS[fn][0].arity
        if len(e.args) != arity:
            return super().call_object(e, fn, name)
        vals = self.operands(list(e.args))
        if fn in _ARITH:  # of numbers: numpy scalars, whose rules are not Python's
            if not any(_is_arrayish(v) for v in vals):
                raise self.unsupported(e, f"{name}() of numbers (numpy's scalar rules: write the "
                                          "operator)")
            return self.arith_chain(e, _ARITH[fn], [self.as_part(e, v) for v in vals])
        if (fn in EXTREMES or fn in COMPOSITES) and not any(_is_arrayish(v) for v in vals):  # of numbers
            kinds = [self.scalar_kind(e, v, name) for v in vals]
            return (self.extreme if fn in EXTREMES else self.composite)(e, fn, name, vals, kinds)
        if not any(_is_arrayish(v) for v in vals):
            for v in vals:
                if isinstance(v, Node):
                    v.keep()
            try:
                return self.call_on(e, vals, [])
            finally:
                for v in vals:
                    if isinstance(v, Node):
                        v.unkeep()
        if fn is np.ldexp and isinstance(vals[1], Node) and not _is_arrayish(vals[1]):
            self.int32_exponent(e, vals[1])
        parts = [self.as_part(e, v) for v in vals]
        kinds = self.kinds(e, parts, name)
        if fn is np.where:
            return self.where_chain(e, parts, kinds)
        if fn in EXTREMES:
            return self.combine(e, parts, _DTYPE[self.extreme_kind(e, fn, name, kinds)],
                                lambda p, *xs: p.extreme(e, fn, name, list(xs), kinds))
        if fn in COMPOSITES:
            return self.composite_chain(e, fn, name, parts)
        if fn in _ABS:
            return self.combine(e, parts, parts[0].dtype, lambda p, x: self.op(e, Abs, x))
        if fn in _PREDICATES:
            cls = _PREDICATES[fn]
            return self.combine(e, parts, "bool", lambda p, x: self.op(e, cls, x) if x.type.kind == "float"
                                else self.con(fn is np.isfinite))
        cls = MATH_FUNCTIONS[fn][0]
        if cls.__name__ in ("Floor", "Ceil", "Trunc") and kinds[0] != "float" and _INT_ROUNDING_IS_IDENTITY:
            return parts[0]  # numpy 2: the ints (the bools) themselves
        if "bool" in kinds:
            raise self.unsupported(e, f"{name}() of a bool array (numpy computes it in float16)")
        if cls.__name__ == "Fmod" and "float" not in kinds:
            raise self.unsupported(e, f"{name}() of int arrays (C's integer remainder)")
        return self.combine(e, parts, "float64",
                            lambda p, *xs: self.op(e, cls, *(self.float_of(e, x) for x in xs), np=True))

    # -- in place -----------------------------------------------------------------------
    def in_place(self, s: ast.AugAssign, target: Node) -> None:
        """``a += b`` for an array ``a``: numpy's ufunc with ``a`` as its output, so every
        name of ``a`` (and its base) sees the new values.  ``b`` is made an array first
        where it reads arrays (numpy's result where the two overlap); its shape must
        broadcast to ``a``'s, and the result's kind be one ``a`` holds."""
        with kept(target):
            (b,) = self.operands([s.value])
            if _is_arrayish(b):
                b = self.as_part(s, b)
                if any(may_alias(target, x) for x in b.bases):
                    b = self.temporary(s, b)  # read before any write, as numpy does
            else:
                b.keep()
            try:
                part = self.leaf(s, target)
                lz = self.operator_chain(s, type(s.op), [part, b])
            finally:
                if isinstance(b, Node):
                    b.unkeep()
        if len(lz.dims) != len(part.dims):
            lz.release()
            raise self.error(s, "non-broadcastable output operand (the result has more dimensions than the "
                                "array assigned to)", "operator")
        own = _KIND[dtype_of(target.base if isinstance(target, Grid) else target)]
        if lz.kind != own and not (own == "float" or (own == "int" and lz.kind == "bool")):
            lz.release()
            raise self.error(s, f"numpy cannot cast the result ({lz.dtype}) into the {_DTYPE[own]} array "
                                "it is assigned to in place", "operator")
        with kept(target):
            for d, want in zip(lz.dims, part.dims):
                if d is not want:
                    with kept(d, want):
                        self.guard(self.op(s, NE, d, want), ValueError,
                                   "non-broadcastable output operand")
            base, start, strides = layout(self, target)

            def store(idx):
                x = lz.item(self, idx)
                with kept(x):
                    x = self.float_of(s, x) if own == "float" else self.int_of(s, x) if own == "int" else x
                    with kept(x):
                        k = start
                        for i, st in zip(idx, strides):
                            with kept(k):
                                k = self.op(s, Add, k, self.op(s, Mul, i, st))
                        with kept(k):
                            self.scope.mem = self.op(s, Store, self.scope.ctrl, self.scope.mem, base, k, x)

            self.grid_loops(s, list(part.dims), store)
            lz.release()  # part's nodes too: the chain holds them

