"""Python ``ast`` -> Sea-of-Nodes graph, with the pessimistic peephole applied to
every node as it is made (Click's parse-time optimization).

Control flow is built the way *Simple* builds it: the parser holds a
``Scope`` (control, memory, variables); ``if`` splits it into two and merges
them with a ``Region`` and ``Phi``s; a loop makes a ``Loop`` with a Phi for
every variable its body assigns, parses the body once, then closes the
back edge.  While the body is parsed a loop Phi's back-edge value is unknown:
its type is assumed to be the entry value's kind (int stays int), and if the
closed loop proves that wrong (an int variable that becomes a float) the loop
is parsed again under the wider assumption — so no rule ever fires on a
type it was not entitled to.

Runtime faults become explicit control: ``a / b`` is preceded by
``If(b == 0) -> Raise ZeroDivisionError``, every array access by a bounds
guard, every ``math`` call by a domain/range guard.  The guards are ordinary
nodes: a guard whose condition folds to False disappears.

Calls to plain Python functions are inlined; every construct outside the
subset raises ``SonSyntaxError`` with file, line, column and its name.
The parser recurses over the syntax tree, whose depth CPython itself bounds
(at most 100 nested blocks); graph walks are iterative.  O(size of source)
nodes are built, each peepholed in O(1) amortized.
"""

from __future__ import annotations

import ast
import math
import types as pytypes
from dataclasses import dataclass, field

import numpy as np

from .._util import deep_syntax_trees, gc_paused
from ..errors import SonError, SonSyntaxError
from ..nodes import (
    EQ,
    GE,
    GT,
    LE,
    LT,
    NE,
    Abs,
    Add,
    ArrayLen,
    BitAnd,
    BitOr,
    BitXor,
    Constant,
    CProj,
    Div,
    FloorDiv,
    Graph,
    If,
    Invert,
    IsFinite,
    IsFloat,
    IsInf,
    IsNan,
    Load,
    Loop,
    Max,
    Min,
    Mod,
    Mul,
    Neg,
    Never,
    NewArray,
    Node,
    Not,
    OutOfBounds,
    Phi,
    Proj,
    Raise,
    Region,
    Return,
    Shl,
    Shr,
    Store,
    Sub,
    ToBool,
    ToFloat,
    ToInt,
    XCtrl,
    constant,
)
from ..nodes.mathfn import (
    DOMAIN_ERROR,
    INT_OF_NAN,
    INT_OUT_OF_RANGE,
    MATH_FUNCTIONS,
    MATH_NODES,
    POW_RANGE_ERROR,
    RANGE_ERROR,
    MathError,
    math_guards,
)
from ..nodes.types import BOTTOM, INT, MEM, NONE, TOP, XCTRL, ArrayType, Type
from ..peephole import Peephole
from .scope import Scope, flag
from .signature import param_types
from .source import FunctionSource, source_of

#: numpy functions with integer loops: an int argument gives an int result (floor,
#: ceil, trunc since numpy 2.x; fmod always, C's remainder, 0 for a zero divisor)
_NP_INT_LOOPS = {"Fmod": "C's integer remainder (0 for a zero divisor)"}
if np.floor(np.int64(1)).dtype.kind != "f":
    _NP_INT_LOOPS.update(dict.fromkeys(("Floor", "Ceil", "Trunc"), "the integer itself"))

_BINOPS = {ast.Add: Add, ast.Sub: Sub, ast.Mult: Mul, ast.Div: Div, ast.FloorDiv: FloorDiv,
           ast.Mod: Mod, ast.Pow: None, ast.BitAnd: BitAnd, ast.BitOr: BitOr, ast.BitXor: BitXor,
           ast.LShift: Shl, ast.RShift: Shr}
_CMPOPS = {ast.Eq: EQ, ast.NotEq: NE, ast.Lt: LT, ast.LtE: LE, ast.Gt: GT, ast.GtE: GE}
_SYMBOL = {Add: "+", Sub: "-", Mul: "*", Div: "/", FloorDiv: "//", Mod: "%", BitAnd: "&",
           BitOr: "|", BitXor: "^", Shl: "<<", Shr: ">>"}

#: names of unsupported syntax, for messages
_CONSTRUCTS = {
    "Try": "try statement", "TryStar": "try statement", "With": "with statement",
    "AsyncWith": "async with", "ClassDef": "class definition",
    "FunctionDef": "nested function definition", "AsyncFunctionDef": "async function",
    "Lambda": "lambda", "ListComp": "list comprehension", "SetComp": "set comprehension",
    "DictComp": "dict comprehension", "GeneratorExp": "generator expression", "Yield": "yield",
    "YieldFrom": "yield from", "Await": "await", "Global": "global statement",
    "Nonlocal": "nonlocal statement", "Delete": "del statement", "Import": "import statement",
    "ImportFrom": "import statement", "JoinedStr": "f-string", "FormattedValue": "f-string",
    "Starred": "starred expression", "List": "list", "Dict": "dict", "Set": "set",
    "Tuple": "tuple value", "Slice": "slice", "NamedExpr": "assignment expression (:=)",
    "Match": "match statement", "AsyncFor": "async for", "Attribute": "attribute",
}

_DTYPES = {float: "float64", np.float64: "float64", int: "int64", np.int64: "int64",
           bool: "bool", np.bool_: "bool"}
_INT64_LIMIT = 9223372036854775808.0  # 2**63


@dataclass
class _LoopContext:
    breaks: list[Scope] = field(default_factory=list)
    continues: list[Scope] = field(default_factory=list)


class _TypeAssumptionFailed(Exception):
    pass


def _kind(x: Node) -> str | None:
    """The scalar kind the frontend checks operands against.  TOP (a value only on
    paths the graph's own types prove dead, as in the raw graph of `if False:`) may
    be anything: it passes as an unknown number."""
    return "number" if x.type is TOP else x.type.kind


def _is_array(x: Node) -> bool:
    return isinstance(x.type, ArrayType) or x.type is TOP


def assigned_names(stmts: list[ast.stmt]) -> list[str]:
    """Local names a block of statements may assign, in order of appearance."""
    out: dict[str, None] = {}
    for s in stmts:
        for n in ast.walk(s):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                out[n.id] = None
    return list(out)


class FunctionParser:
    """Parses one function body into the shared graph, starting from ``scope``."""

    def __init__(self, graph: Graph, peep: Peephole, src: FunctionSource, scope: Scope,
                 stack: tuple = (), pinned: list[Node] | None = None,
                 learned: dict | None = None, deps: list | None = None, path: tuple = ()):
        self.g = graph
        self.pinned: list[Node] = pinned if pinned is not None else []
        self.peephole = peep
        self.src = src
        self.scope = scope
        self.stack = stack + (src.pyfunc,)
        self.returns: list[Scope] = []
        #: (number of values, statement) of each way out of the function, as ``returns``
        self.arities: list[tuple[int, ast.AST]] = []
        self.loops: list[_LoopContext] = []
        self._tmp = 0
        self._locals: set[str] | None = None
        #: what failed loop attempts learned: id(loop statement) -> {variable: type}
        self.learned: dict[int, dict[str, Type]] = learned if learned is not None else {}
        #: when not None, every outside read is appended as (path, dotted name, value or
        #: MISSING); ``path`` is the dotted callee names inlined from the root function to here
        self.deps = deps
        self.path = path

    def note(self, name: str, value) -> None:
        """Record that the parse read ``name`` (in this function's namespace) as ``value``."""
        if self.deps is not None:
            self.deps.append((self.path, name, value))

    # ================================================================ errors
    def error(self, at: ast.AST | None, message: str, construct: str | None = None) -> SonSyntaxError:
        line = getattr(at, "lineno", 0) + self.src.line0 if at is not None else self.src.line0 + 1
        col = getattr(at, "col_offset", 0) + self.src.col0 if at is not None else 0
        return SonSyntaxError(message, self.src.filename, line, col, construct)

    def unsupported(self, at: ast.AST, what: str | None = None) -> SonSyntaxError:
        name = what or _CONSTRUCTS.get(type(at).__name__, type(at).__name__)
        return self.error(at, f"unsupported construct: {name}", name)

    # ================================================================ node making
    def peep(self, n: Node) -> Node:
        return self.peephole.peep(n)

    def con(self, value) -> Node:
        """A constant, pinned until the parse ends: the parser often holds a constant
        in a Python variable while a folding user of the same (shared) node dies."""
        c = self.peep(Constant(self.g, constant(value)))
        if not c._pins:
            c.keep()
            self.pinned.append(c)
        return c

    def xctrl(self) -> Node:
        return self.peep(XCtrl(self.g, self.g.start))

    def op(self, at: ast.AST, cls: type, *inputs: Node, **kw) -> Node:
        """Make, peephole and type-check one data node."""
        for x in inputs:
            if x is not None:
                x.keep()
        n = cls(self.g, *inputs, **kw)
        for x in inputs:
            if x is not None:
                x.unkeep()
        n = self.peep(n)
        if n.type is BOTTOM and all(x is None or x.type is not BOTTOM for x in inputs):
            kinds = " and ".join(str(x.type.widen()) for x in inputs
                                 if x is not None and not x.is_cfg and x.type is not MEM)
            label = _SYMBOL.get(cls, cls.__name__)
            raise self.error(at, f"unsupported operand type(s) for {label}: {kinds}", "operator")
        return n

    def dead(self, s: Scope) -> bool:
        c = s.ctrl
        return type(c) is XCtrl or (self.peephole.enabled and c.type is XCTRL)

    def branch(self, pred: Node) -> tuple[Node, Node]:
        """Split control on ``pred``: the (true, false) control projections."""
        pred.keep()
        iff = self.peep(If(self.g, self.scope.ctrl, pred))
        pred.unkeep()
        t, f = CProj(self.g, iff, 0), CProj(self.g, iff, 1)
        t.keep()
        f = self.peep(f).keep()
        t.unkeep()
        t = self.peep(t)
        f.unkeep()
        return t, f

    def guard(self, pred: Node, exc: type, message: str) -> bool:
        """``if pred: raise exc(message)``; continue on the false side.
        Returns False when ``pred`` is known false and no guard was needed."""
        if self.peephole.enabled and pred.type.is_constant and not pred.type.con:
            if pred.is_unused():
                pred.kill()
            return False
        t, f = self.branch(pred)
        f.keep()
        self.exit(Raise(self.g, t, self.scope.mem, exc, message))
        self.scope.ctrl = f.unkeep()
        return True

    def exit(self, r: Node) -> None:
        """Hook a Return or Raise to Stop unless it cannot be reached."""
        r = self.peep(r)
        if type(r.inputs[0]) is XCtrl or (self.peephole.enabled and r.inputs[0].type is XCTRL):
            r.kill()
        else:
            self.g.stop.add_input(r)

    def temp(self) -> str:
        self._tmp += 1
        return f"${self._tmp}"

    # ================================================================ scopes
    def merge(self, scopes: list[Scope]) -> Scope:
        """Join scopes at a Region; variables that differ get Phis."""
        live = [s for s in scopes if not self.dead(s)]
        for s in scopes:
            if s not in live and s is not scopes[0]:
                s.drop()
        if not live:
            return scopes[0]
        if scopes[0] not in live:
            scopes[0].drop()
        if len(live) == 1:
            return live[0]
        region = Region(self.g, *[s.ctrl for s in live])
        region.type = region.compute()
        out = Scope(self.g, region, self._phi(region, [s.mem for s in live]))
        all_names: dict[str, None] = {}
        for s in live:
            all_names.update(dict.fromkeys(s.names))
        for name in all_names:
            if name.startswith("$def:"):
                continue  # merged with its variable
            vals = [s.get(name) for s in live]
            flags = [s.get(flag(name)) for s in live]
            if all(v is not None for v in vals) and all(f is None for f in flags):
                out.set(name, self._phi(region, vals))
                continue
            if name.startswith("$"):
                continue  # a temporary of one path only
            dummy = self.placeholder([v for v in vals if v is not None])
            if dummy is None:
                out.undefined.add(name)
                continue
            out.set(name, self._phi(region, [v if v is not None else dummy for v in vals]))
            out._bind(flag(name), self._phi(region, [
                self.con(False) if v is None else f if f is not None else self.con(True)
                for v, f in zip(vals, flags)]))
        for s in live:
            out.undefined |= s.undefined
            s.drop()
        out.ctrl = self.peep(region)
        return out

    def placeholder(self, defined: list[Node]) -> Node | None:
        """A value of the defined values' kind for the paths where a variable is unbound
        (never observed: reads are guarded by the flag); None for arrays."""
        t = TOP  # values typed TOP sit on paths the types prove dead: they do not count
        for v in defined:
            t = t.meet(v.type.widen())
        zero = {"int": 0, "float": 0.0, "bool": False, "number": 0}.get("int" if t is TOP else t.kind)
        return self.con(zero) if zero is not None else None

    def _phi(self, region: Node, vals: list[Node]) -> Node:
        if all(v is vals[0] for v in vals):
            return vals[0]
        return self.peep(Phi(self.g, region, *vals))

    # ================================================================ statements
    def parse_body(self) -> Scope:
        """Parse the whole function; returns the merged exit scope (value in '$ret')."""
        self.stmts(self.src.tree.body)
        if not self.dead(self.scope):
            self.scope.set("$ret", self.con(None))
            self.returns.append(self.scope)
            self.arities.append((1, self.src.tree.body[-1]))  # falling off the end: None
        else:
            self.scope.drop()
        self.scope = None
        if not self.returns:
            s = Scope(self.g, self.xctrl(), self.g.start)
            s.set("$ret", self.con(None))
            return s
        return self.merge(self.returns)

    def stmts(self, body: list[ast.stmt]) -> None:
        for s in body:
            method = getattr(self, "stmt_" + type(s).__name__, None)
            if method is None:
                raise self.unsupported(s)
            method(s)

    def stmt_Pass(self, s):
        pass

    def stmt_Expr(self, s):
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return  # a docstring
        v = self.expr(s.value)
        if v.is_unused():
            v.kill()

    def stmt_Assign(self, s):
        if isinstance(s.value, ast.Tuple) and any(isinstance(t, ast.Tuple) for t in s.targets):
            vals = self.exprs(s.value.elts)
            for v in vals:
                v.keep()
            for t in s.targets:
                self.assign_tuple(t, vals, s)
            for v in vals:
                v.unkeep()
            return
        v = self.expr(s.value).keep()
        for t in s.targets:
            self.assign(t, v)
        v.unkeep()

    def assign_tuple(self, target, vals, s):
        if not isinstance(target, ast.Tuple):
            raise self.unsupported(s.value, "tuple value")
        if len(target.elts) != len(vals):
            raise self.error(target, f"cannot unpack {len(vals)} values into {len(target.elts)} targets")
        for t, v in zip(target.elts, vals):
            self.assign(t, v)

    def stmt_AnnAssign(self, s):
        if s.value is not None:
            self.assign(s.target, self.expr(s.value))

    def assign(self, target: ast.expr, v: Node) -> None:
        if isinstance(target, ast.Name):
            self.scope.set(target.id, v)
        elif isinstance(target, ast.Subscript):
            v.keep()
            arr, idx = self.subscript_parts(target)
            self.store(target, arr, idx, v)
            v.unkeep()
        elif isinstance(target, ast.Tuple):
            raise self.unsupported(target, "tuple unpacking of a non-tuple value")
        else:
            raise self.unsupported(target, f"assignment to {type(target).__name__.lower()}")

    def stmt_AugAssign(self, s):
        if isinstance(s.target, ast.Name):
            cur = self.read(s.target.id, s.target)
            new = self.binop(s, type(s.op), cur, s.value)  # may replace self.scope
            self.scope.set(s.target.id, new)
        elif isinstance(s.target, ast.Subscript):
            arr, idx = self.subscript_parts(s.target)
            arr.keep(), idx.keep()
            cur = self.load(s.target, arr, idx)
            new = self.binop(s, type(s.op), cur, s.value)
            self.store(s.target, arr, idx, new)
            arr.unkeep(), idx.unkeep()
        else:
            raise self.unsupported(s.target, "augmented assignment target")

    def stmt_Return(self, s):
        if isinstance(s.value, ast.Tuple) and s.value.elts and not any(
                isinstance(x, ast.Starred) for x in s.value.elts):
            vals = self.exprs(s.value.elts)  # ``return a, b``: a Return with several values
        else:
            vals = [self.expr(s.value) if s.value is not None else self.con(None)]
        r = self.scope.dup()
        for j, v in enumerate(vals):
            r.set(_ret(j), v)
        self.returns.append(r)
        self.arities.append((len(vals), s))
        self.scope.ctrl = self.xctrl()

    def return_values(self, out: Scope) -> list[Node]:
        """The values the merged exit scope ``out`` returns: one, or a tuple's elements.
        Every ``return`` of a function gives the same number of values (a typed graph has one
        result type), else ``SonSyntaxError`` at the first that differs."""
        k, first = self.arities[0] if self.arities else (1, None)
        for n, s in self.arities:
            if n != k:
                what = lambda m: "a single value" if m == 1 else f"a tuple of {m}"
                raise self.error(s, f"this return gives {what(n)} but the return at line "
                                 f"{first.lineno + self.src.line0} gives {what(k)}; son needs one "
                                 "result type", "return")
        return [out.get(_ret(j)) for j in range(k)]

    def stmt_If(self, s):
        cond = self.truth(self.expr(s.test), s.test)
        t, f = self.branch(cond)
        other = self.scope.dup()
        other.ctrl = f
        self.scope.ctrl = t
        self.stmts(s.body)
        then = self.scope
        self.scope = other
        self.stmts(s.orelse)
        self.scope = self.merge([then, self.scope])

    def stmt_Assert(self, s):
        msg = ""
        if s.msg is not None:
            if not (isinstance(s.msg, ast.Constant) and isinstance(s.msg.value, str)):
                raise self.unsupported(s.msg, "assert message that is not a string literal")
            msg = s.msg.value
        ok = self.truth(self.expr(s.test), s.test)
        self.guard(self.op(s, Not, ok), AssertionError, msg)

    def stmt_Raise(self, s):
        exc, msg = s.exc, ""
        if isinstance(exc, ast.Call):
            if len(exc.args) > 1 or exc.keywords or (exc.args and not (
                    isinstance(exc.args[0], ast.Constant) and isinstance(exc.args[0].value, str))):
                raise self.unsupported(exc, "raise with arguments other than one string literal")
            msg = exc.args[0].value if exc.args else ""
            exc = exc.func
        cls = self.resolve(exc) if exc is not None else None
        if not (isinstance(cls, type) and issubclass(cls, Exception) and cls.__module__ == "builtins"):
            raise self.unsupported(s, "raise of anything but a builtin exception class")
        self.exit(Raise(self.g, self.scope.ctrl, self.scope.mem, cls, msg))
        self.scope.ctrl = self.xctrl()

    def stmt_Break(self, s):
        if not self.loops:
            raise self.error(s, "'break' outside loop", "break")
        self.loops[-1].breaks.append(self.scope.dup())
        self.scope.ctrl = self.xctrl()

    def stmt_Continue(self, s):
        if not self.loops:
            raise self.error(s, "'continue' not properly in loop", "continue")
        self.loops[-1].continues.append(self.scope.dup())
        self.scope.ctrl = self.xctrl()

    # ---------------------------------------------------------------- loops
    def stmt_While(self, s):
        def cond():
            return self.truth(self.expr(s.test), s.test)

        self.loop(s, cond, None, None, assigned_names(s.body))

    def stmt_For(self, s):
        it = s.iter
        if not (isinstance(it, ast.Call) and self.resolve_quiet(it.func) is range):
            raise self.unsupported(it, "for loop over anything but range(...)")
        if not isinstance(s.target, ast.Name):
            raise self.unsupported(s.target, "for loop target that is not a name")
        if it.keywords or not 1 <= len(it.args) <= 3:
            raise self.error(it, "range() takes 1 to 3 positional arguments", "range")
        bounds = []
        for a in it.args:  # kept at once: a later bound's folding may kill a shared constant
            bounds.append(self.int_value(a).keep())
        start, stop, step = (self.con(0), bounds[0], self.con(1)) if len(bounds) == 1 else (
            bounds[0], bounds[1], bounds[2] if len(bounds) == 3 else self.con(1))
        for b in (start, stop, step):
            b.keep()
        for b in bounds:
            b.unkeep()
        self.guard(self.op(it, EQ, step, self.con(0)), ValueError, "range() arg 3 must not be zero")
        counter = self.temp()
        self.scope.set(counter, start)
        zero = self.con(0)
        sign = step.type.con > 0 if step.type.is_constant else None
        up = None if sign is not None else self.op(it, GT, step, zero).keep()

        def before(i, bound):
            """i comes before bound in the range's direction: i < bound, or i > bound"""
            if sign is not None:
                return self.op(it, LT if sign else GT, i, bound)
            rising = self.op(it, BitAnd, up, self.op(it, LT, i, bound))
            falling = self.op(it, BitAnd, self.op(it, LT, step, zero), self.op(it, GT, i, bound))
            return self.op(it, BitOr, rising, falling)

        # The hidden step past range's last element may leave int64 (range(0, M, M) with
        # M = INT64_MAX wraps to a negative counter and loops again).  Where a step can
        # pass INT64_MAX/MIN (all but steps of +-1 and constants whose sum fits) the
        # latch asks, before stepping, whether another element follows i and carries the
        # answer to the header in a hidden flag.  It does when the distance d = stop - i
        # exceeds the step (is below it, stepping down), or when d wrapped, being more
        # than any step; no intermediate leaves int64 except d, in that one case.  The
        # counter stays a plain induction variable (start + k*step) for later passes.
        if step.type.is_constant and stop.type.is_constant:
            needs_flag = not -2**63 <= stop.type.con + step.type.con < 2**63
        else:
            needs_flag = not (step.type.is_constant and abs(step.type.con) == 1)
        more = None
        if needs_flag:
            more = self.temp()
            self.scope.set(more, before(start, stop))

        def follows(i):
            """another element of the range follows i (an element)"""
            d = self.op(it, Sub, stop, i).keep()
            rising = lambda: self.op(it, BitOr, self.op(it, GT, d, step), self.op(it, LT, d, zero))
            falling = lambda: self.op(it, BitOr, self.op(it, LT, d, step), self.op(it, GT, d, zero))
            if sign is not None:
                r = (rising if sign else falling)()
            else:
                r = self.op(it, BitOr, self.op(it, BitAnd, up, rising()),
                            self.op(it, BitAnd, self.op(it, LT, step, zero), falling()))
            d.unkeep()
            return r

        def cond():
            return self.scope.get(more) if more else before(self.scope.get(counter), stop)

        def prologue():
            self.scope.set(s.target.id, self.scope.get(counter))

        def latch():
            i = self.scope.get(counter)
            if more:
                self.scope.set(more, follows(i))
            self.scope.set(counter, self.op(it, Add, i, step))

        self.loop(s, cond, prologue, latch,
                  assigned_names(s.body) + [s.target.id, counter] + ([more] if more else []))
        self.scope.remove(counter)
        if more:
            self.scope.remove(more)
        for b in (start, stop, step, up):
            if b is not None:
                b.unkeep()

    def loop(self, s, cond, prologue, latch, names: list[str]) -> None:
        """Build a loop; retried with wider Phi types if the body breaks the assumption.

        Every variable the body binds is carried by a Phi; one that is unbound on
        entry enters as a placeholder of its kind with its flag False.  What a
        failed attempt learns is kept per loop, so re-parsing an enclosing loop
        does not repeat it."""
        entry = self.scope
        assumed = self.learned.setdefault(id(s), {})
        # an attempt's exits are the nodes made after this id (the peephole engine's
        # watermark): the peephole may drop an earlier exit (a raise that became
        # unreachable) while the loop is parsed, so a count of Stop's inputs would be off
        first_new_id, n_returns = self.g._next_id, len(self.returns)
        for _attempt in range(8):
            self.scope = entry.dup()
            carried, fresh = [], set()
            for n in dict.fromkeys(names):
                if self.scope.get(n) is None:
                    if n.startswith("$") or assumed.get(n) is BOTTOM:
                        continue
                    kind = (assumed.get(n) or INT).kind
                    zero = {"int": 0, "float": 0.0, "bool": False, "number": 0}.get(kind)
                    if zero is None:
                        continue
                    self.scope.set(n, self.con(zero))
                    self.scope._bind(flag(n), self.con(False))
                    fresh.add(n)
                carried.append(n)
                if self.scope.get(flag(n)) is not None:
                    carried.append(flag(n))
            try:
                exit_scope, ctx = self._loop_once(s, cond, prologue, latch, carried, fresh, assumed)
                break
            except _TypeAssumptionFailed:
                stop = self.g.stop
                for i in range(len(stop.inputs) - 1, -1, -1):
                    if stop.inputs[i] is not None and stop.inputs[i].nid >= first_new_id:
                        stop.remove_input(i)
                for r in self.returns[n_returns:]:
                    r.drop()
                del self.returns[n_returns:]
                del self.arities[n_returns:]
        else:  # pragma: no cover - the lattice has height 3
            raise self.error(s, "loop variable types do not settle")
        entry.drop()
        exit_scope.undefined |= {n for n in names if n not in carried and not n.startswith("$")
                                 and exit_scope.get(n) is None}
        self.scope = exit_scope
        if s.orelse:
            self.stmts(s.orelse)
        self.scope = self.merge([self.scope, *ctx.breaks])

    def _loop_once(self, s, cond, prologue, latch, carried, fresh, assumed):
        loop = Loop(self.g, self.scope.ctrl)
        loop.type = loop.compute()
        self.scope.ctrl = loop
        phis: dict[str, Phi] = {}
        for name in ["$mem", *carried]:
            v = self.scope.mem if name == "$mem" else self.scope.get(name)
            p = Phi(self.g, loop, v, None, assumed=assumed.get(name))
            phis[name] = p
            if name == "$mem":
                self.scope.mem = p
            else:
                self.scope._bind(name, p)  # not set(): the variable's flag stays
        t, f = self.branch(cond())
        exit_scope = self.scope.dup()
        exit_scope.ctrl = f
        self.scope.ctrl = t
        ctx = _LoopContext()
        self.loops.append(ctx)
        if prologue:
            prologue()
        self.stmts(s.body)
        self.loops.pop()
        self.scope = self.merge([self.scope, *ctx.continues])
        if latch and not self.dead(self.scope):
            latch()
        if self.dead(exit_scope) and all(self.dead(b) for b in ctx.breaks) and not self.dead(self.scope):
            # an infinite loop: give Stop a (never taken) path to it, as Click does
            self.guard(self.peep(Never(self.g)), RuntimeError, "left an infinite loop")
        back = self.scope
        loop.set_input(2, back.ctrl)
        for name, p in phis.items():
            v = back.mem if name == "$mem" else back.get(name)
            if v is None and name.startswith("$def:"):
                v = self.con(True)  # the body bound the variable on every path to the back edge
            p.set_input(2, v)
        back.drop()
        self.scope = None
        failed = False
        for name, p in phis.items():
            if p.inputs is None or p.inputs[2] is None:
                continue
            a = p.assumed if p.assumed is not None else p.inputs[1].type.widen()
            actual = p.inputs[1].type.meet(p.inputs[2].type)
            if actual.meet(a) != a:
                if name in fresh:
                    # bound first in the loop: its kind is the back edge's; none for arrays
                    back = p.inputs[2].type.widen()
                    assumed[name] = back if back.kind else BOTTOM
                else:
                    assumed[name] = a.meet(actual).widen()
                failed = True
        if failed:
            exit_scope.drop()
            for b in ctx.breaks:
                b.drop()
            raise _TypeAssumptionFailed
        self.peephole.iterate([loop, *[p for p in phis.values() if p.inputs is not None]])
        return exit_scope, ctx

    # ================================================================ expressions
    def expr(self, e: ast.expr) -> Node:
        method = getattr(self, "expr_" + type(e).__name__, None)
        if method is None:
            raise self.unsupported(e)
        return method(e)

    def exprs(self, es: list[ast.expr]) -> list[Node]:
        """Evaluate left to right, keeping earlier values alive while later ones are built."""
        out = []
        for e in es:
            out.append(self.expr(e).keep())
        for v in out:
            v.unkeep()
        return out

    def expr_Constant(self, e):
        v = e.value
        if isinstance(v, (bool, int, float)) or v is None:
            if type(v) is int and not -(1 << 63) <= v < (1 << 63):
                raise self.error(e, f"integer literal {v} does not fit in int64", "int literal")
            return self.con(v)
        what = {str: "string literal", bytes: "bytes literal", complex: "complex literal"}.get(
            type(v), f"{type(v).__name__} literal")
        raise self.unsupported(e, what)

    def read(self, name: str, at: ast.AST) -> Node:
        v = self.scope.get(name)
        if v is not None:
            if v.type is BOTTOM:
                raise self.error(at, f"variable {name!r} holds values of different types on "
                                     "different paths", "variable")
            bound = self.scope.get(flag(name))
            if bound is not None:
                v.keep()
                self.guard(self.op(at, Not, bound), UnboundLocalError,
                           f"cannot access local variable {name!r} where it is not associated "
                           "with a value")
                self.scope.remove(flag(name))  # bound from here on
                v.unkeep()
            return v
        if name in self.scope.undefined:
            raise self.error(at, f"variable {name!r} may be used before it is assigned", "variable")
        if name in self.local_names:  # bound on no path here: CPython raises when it gets here
            self.guard(self.con(True), UnboundLocalError,
                       f"cannot access local variable {name!r} where it is not associated with a value")
            return self.peep(Constant(self.g, TOP))  # a value for the code after: it is dead
        return self.global_value(name, at)

    @property
    def local_names(self) -> set[str]:
        names = self._locals
        if names is None:
            names = set(assigned_names(self.src.tree.body))
            names |= {a.arg for a in self.src.tree.args.args}
            self._locals = names
        return names

    def global_value(self, name: str, at: ast.AST) -> Node:
        try:
            v = self.src.lookup(name)
        except KeyError:
            self.note(name, MISSING)
            # CPython raises NameError when (and only if) the read is reached
            self.guard(self.con(True), NameError, f"name {name!r} is not defined")
            return self.peep(Constant(self.g, TOP))  # a value for the code after: it is dead
        self.note(name, v)
        return self.constant_value(v, name, at)

    def constant_value(self, v, name: str, at: ast.AST) -> Node:
        """A global (or module attribute) read as a constant: an int must fit int64, as a
        literal must (folded, it would wrap silently), and a numpy scalar must be one whose
        arithmetic is son's (int64, float64, bool): an ``np.float32`` or ``np.uint64``
        global computes in its own dtype under CPython."""
        if isinstance(v, np.generic) and type(v) not in (np.int64, np.float64, np.bool_) \
                and isinstance(v, (np.integer, np.floating, np.bool_)):
            raise self.error(at, f"global {name!r} is a numpy {type(v).__name__}; son computes only with "
                                 "int64, float64 and bool (convert it: int(...), float(...))", "global")
        if isinstance(v, (bool, int, float, np.bool_, np.integer, np.floating)) or v is None:
            v = v.item() if isinstance(v, np.generic) else v
            if type(v) is int and not -(1 << 63) <= v < (1 << 63):
                raise self.error(at, f"global {name!r} is the int {v}, which is outside int64 (son's "
                                     "ints are int64; a literal that large is refused too)", "global")
            return self.con(v)
        raise self.error(at, f"{name!r} is a {type(v).__name__}; son reads only int, float and "
                             "bool globals as values", "global")

    def expr_Name(self, e):
        return self.read(e.id, e)

    def expr_Attribute(self, e):
        root = e.value
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root is not e.value and (
                self.scope.get(root.id) is not None or root.id in self.local_names):
            raise self.unsupported(e, f"attribute .{e.attr} of a local value")
        if isinstance(e.value, ast.Name) and self.scope.get(e.value.id) is not None:
            arr = self.read(e.value.id, e.value)
            if isinstance(arr.type, ArrayType) and e.attr == "size":
                return self.op(e, ArrayLen, arr)
            raise self.unsupported(e, f"attribute .{e.attr} of a local value")
        obj = self.resolve(e)
        return self.constant_value(obj, ast.unparse(e), e)

    def binop(self, at, astop: type, lhs: Node, rhs_ast: ast.expr | Node) -> Node:
        lhs.keep()
        rhs = rhs_ast if isinstance(rhs_ast, Node) else self.expr(rhs_ast)
        lhs.unkeep()
        if astop is ast.MatMult or astop not in _BINOPS:
            raise self.unsupported(at, "matrix multiplication operator @")
        cls = _BINOPS[astop]
        return self.arith(at, cls, lhs, rhs)

    def arith(self, at, cls, a: Node, b: Node) -> Node:
        """``a op b`` with its fault guard (zero divisor, negative shift or exponent)."""
        for x in (a, b):
            if _kind(x) is None:
                sym = "**" if cls is None else _SYMBOL[cls]
                raise self.error(at, f"unsupported operand type(s) for {sym}: {a.type.widen()} and "
                                     f"{b.type.widen()}", "operator")
        a.keep(), b.keep()
        try:
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
        finally:
            a.unkeep(), b.unkeep()

    def no_float_guard(self, at, symbol: str, *xs: Node) -> bool:
        """``if isfloat(x): raise TypeError`` for operands of unknown kind under an
        int-only operator (bitwise, shifts, ~); True if a guard was needed."""
        guarded = False
        for x in dict.fromkeys(xs):
            if x.type.kind == "number":
                guarded |= self.guard(self.op(at, IsFloat, x), TypeError,
                                      f"unsupported operand type for {symbol}: 'float'")
        return guarded

    def power(self, at, a: Node, b: Node) -> Node:
        from ..nodes import Pow

        ka, kb = a.type.kind, b.type.kind
        ints = ka in ("int", "bool") and kb in ("int", "bool")
        negative_int = kb in ("int", "bool") and b.type.is_constant and b.type.con < 0
        if negative_int and ka in ("int", "bool", "number"):
            # CPython: int ** negative int is float(a) ** float(b), whatever a's static kind
            # (a float base is unchanged by ToFloat); then the float rules below apply
            a = self.op(at, ToFloat, a)
        elif ints:
            if self.guard(self.op(at, LT, b, self.con(0)), ValueError,
                          "int ** negative int has no int64 value"):
                return self.op(at, Pow, a, b, ctrl=self.scope.ctrl)
            return self.op(at, Pow, a, b)
        a.keep(), b.keep()
        if "float" not in (a.type.kind, b.type.kind):  # an unknown kind: both sets of guards
            both_int = self.op(at, Not, self.op(at, BitOr, self.op(at, IsFloat, a), self.op(at, IsFloat, b)))
            self.guard(self.op(at, BitAnd, both_int, self.op(at, LT, b, self.con(0))), ValueError,
                       "int ** negative int has no int64 value")
        zero = self.con(0.0)
        negative_finite = self.op(at, BitAnd, self.op(at, LT, b, zero), self.op(at, IsFinite, b))
        self.guard(self.op(at, BitAnd, self.op(at, EQ, a, zero), negative_finite),
                   ZeroDivisionError, "0.0 cannot be raised to a negative power")
        if b.type.kind not in ("int", "bool"):  # an int exponent is never fractional (CPython
            # compares float(b), an integer beyond 2**53 too, not b with its truncated float)
            bf = self.op(at, ToFloat, b) if b.type.kind == "number" else b
            fractional = self.op(at, BitAnd, self.op(at, IsFinite, bf),
                                 self.op(at, NE, bf, self.op(at, MATH_NODES["Trunc"], bf, np=True)))
            negative_base = self.op(at, BitAnd, self.op(at, LT, a, zero), self.op(at, IsFinite, a))
            self.guard(self.op(at, BitAnd, negative_base, fractional), ValueError,
                       "negative number cannot be raised to a fractional power")
        r = self.op(at, Pow, a, b, ctrl=self.scope.ctrl).keep()
        self.guard(self.op(at, MathError, r, a, b, which="range"), OverflowError, POW_RANGE_ERROR)
        a.unkeep(), b.unkeep()
        return r.unkeep()

    def expr_BinOp(self, e):
        lhs = self.expr(e.left)
        return self.binop(e, type(e.op), lhs, e.right)

    def expr_UnaryOp(self, e):
        o = e.operand
        if isinstance(e.op, ast.USub) and isinstance(o, ast.Constant) and type(o.value) is int \
                and o.value == 1 << 63:
            return self.con(-(1 << 63))  # INT64_MIN written as a literal
        x = self.expr(e.operand)
        if isinstance(e.op, ast.Not):
            return self.op(e, Not, self.truth(x, e.operand))
        if _kind(x) is None:
            raise self.error(e, f"bad operand type for unary operator: {x.type.widen()}", "operator")
        if isinstance(e.op, ast.USub):
            return self.op(e, Neg, x)
        if isinstance(e.op, ast.UAdd):
            return self.op(e, ToInt, x) if x.type.kind == "bool" else x
        if x.type.kind == "float":
            raise self.error(e, "bad operand type for unary ~: 'float'", "operator")
        x.keep()
        ctrl = self.scope.ctrl if self.no_float_guard(e, "~", x) else None
        return self.op(e, Invert, x.unkeep(), ctrl=ctrl)

    def truth(self, v: Node, at: ast.AST) -> Node:
        """The bool a value stands for in a condition (Python truthiness)."""
        k = _kind(v)
        if k == "bool":
            return v
        if k is not None:
            return self.op(at, ToBool, v)
        if v.type is NONE:
            return self.con(False)
        raise self.error(at, f"the truth value of a {v.type} value is ambiguous", "condition")

    def short_circuit(self, first: Node, rest, is_and: bool) -> Node:
        """Python's ``a and b`` / ``a or b`` value, with short-circuit control flow.
        ``rest`` is a list of callables producing the later operands."""
        tmp = self.temp()
        self.scope.set(tmp, first)
        for make in rest:
            t, f = self.branch(self.truth(self.scope.get(tmp), None))
            short = self.scope.dup()
            short.ctrl = f if is_and else t
            self.scope.ctrl = t if is_and else f
            v = make()  # may replace self.scope
            self.scope.set(tmp, v)
            self.scope = self.merge([self.scope, short])
        v = self.scope.get(tmp).keep()
        self.scope.remove(tmp)
        return v.unkeep()

    def expr_BoolOp(self, e):
        first = self.expr(e.values[0])
        return self.short_circuit(first, [lambda v=v: self.expr(v) for v in e.values[1:]],
                                  isinstance(e.op, ast.And))

    def expr_Compare(self, e):
        for op in e.ops:
            if type(op) not in _CMPOPS:
                name = {ast.Is: "'is'", ast.IsNot: "'is not'", ast.In: "'in'", ast.NotIn: "'not in'"}
                raise self.unsupported(e, f"comparison with {name[type(op)]}")
        if len(e.ops) == 1:
            left, right = self.exprs([e.left, e.comparators[0]])
            return self.compare(e, _CMPOPS[type(e.ops[0])], left, right)
        left = self.expr(e.left)
        # a < b < c: b is evaluated once, c only if a < b
        prev = self.temp()
        self.scope.set(prev, left)

        def step(op, comp):
            def make():
                r = self.expr(comp).keep()
                v = self.compare(e, _CMPOPS[type(op)], self.scope.get(prev), r)
                self.scope.set(prev, r.unkeep())
                return v
            return make

        first = step(e.ops[0], e.comparators[0])()
        v = self.short_circuit(first, [step(o, c) for o, c in zip(e.ops[1:], e.comparators[1:])], True)
        self.scope.remove(prev)
        return v

    def compare(self, at, cls, a: Node, b: Node) -> Node:
        if _kind(a) is None or _kind(b) is None:
            raise self.error(at, f"unsupported comparison between {a.type.widen()} and "
                                 f"{b.type.widen()}", "comparison")
        return self.op(at, cls, a, b)

    def expr_IfExp(self, e):
        cond = self.truth(self.expr(e.test), e.test)
        t, f = self.branch(cond)
        tmp = self.temp()
        other = self.scope.dup()
        other.ctrl = f
        self.scope.ctrl = t
        v = self.expr(e.body)  # may replace self.scope
        self.scope.set(tmp, v)
        then = self.scope
        self.scope = other
        v = self.expr(e.orelse)
        self.scope.set(tmp, v)
        self.scope = self.merge([then, self.scope])
        v = self.scope.get(tmp).keep()
        self.scope.remove(tmp)
        return v.unkeep()

    # ---------------------------------------------------------------- arrays
    def expr_Subscript(self, e):
        v = e.value
        if isinstance(v, ast.Attribute) and v.attr == "shape" and isinstance(v.value, ast.Name):
            arr = self.read(v.value.id, v.value)
            if isinstance(arr.type, ArrayType) and isinstance(e.slice, ast.Constant) \
                    and e.slice.value in (0, -1):
                return self.op(e, ArrayLen, arr)
            raise self.unsupported(e, "shape of anything but a 1-D array")
        arr, idx = self.subscript_parts(e)
        return self.load(e, arr, idx)

    def subscript_parts(self, e: ast.Subscript) -> tuple[Node, Node]:
        if isinstance(e.slice, (ast.Slice, ast.Tuple)):
            raise self.unsupported(e.slice, "slice" if isinstance(e.slice, ast.Slice)
                                   else "multi-dimensional index")
        arr, idx = self.exprs([e.value, e.slice])
        if not _is_array(arr):
            raise self.error(e.value, f"subscript of a {arr.type.widen()} value (son indexes 1-D "
                                      "numpy arrays)", "subscript")
        if _kind(idx) not in ("int", "number"):
            raise self.error(e.slice, f"array index must be an int, not {idx.type.widen()}", "subscript")
        return arr, idx

    def bounds_guard(self, at, arr: Node, idx: Node) -> Node | None:
        arr.keep(), idx.keep()
        guarded = False
        if idx.type.kind == "number":
            guarded = self.guard(self.op(at, IsFloat, idx), IndexError,
                                 "only integers are valid array indices")
        n = self.op(at, ArrayLen, arr)
        guarded |= self.guard(self.op(at, OutOfBounds, idx, n), IndexError, "index out of range")
        arr.unkeep(), idx.unkeep()
        return self.scope.ctrl if guarded else None

    def load(self, at, arr: Node, idx: Node) -> Node:
        ctrl = self.bounds_guard(at, arr, idx) or self.scope.ctrl
        return self.op(at, Load, ctrl, self.scope.mem, arr, idx)

    def store(self, at, arr: Node, idx: Node, value: Node) -> None:
        if _kind(value) is None:
            raise self.error(at, f"cannot store a {value.type} value in an array", "store")
        value.keep()
        ctrl = self.bounds_guard(at, arr, idx) or self.scope.ctrl
        value.unkeep()
        self.scope.mem = self.op(at, Store, ctrl, self.scope.mem, arr, idx, value)

    # ---------------------------------------------------------------- calls
    def resolve_quiet(self, e: ast.expr):
        try:
            return self.resolve(e)
        except SonSyntaxError:
            return None

    def resolve(self, e: ast.expr):
        """The Python object a (dotted) name outside the function denotes."""
        if isinstance(e, ast.Name):
            if self.scope is not None and (self.scope.get(e.id) is not None or e.id in self.local_names):
                raise self.error(e, f"{e.id!r} is a local variable, not a function or module", "call")
            try:
                v = self.src.lookup(e.id)
            except KeyError:
                self.note(e.id, MISSING)
                raise self.error(e, f"name {e.id!r} is not defined", "name") from None
            self.note(e.id, v)
            return v
        if isinstance(e, ast.Attribute):
            base = self.resolve(e.value)
            try:
                v = getattr(base, e.attr)
            except AttributeError:
                self.note(ast.unparse(e), MISSING)
                raise self.error(e, f"{ast.unparse(e.value)} has no attribute {e.attr!r}",
                                 "attribute") from None
            self.note(ast.unparse(e), v)
            return v
        raise self.unsupported(e, f"call of a {type(e).__name__.lower()} expression")

    def expr_Call(self, e):
        if any(isinstance(a, ast.Starred) for a in e.args) or any(k.arg is None for k in e.keywords):
            raise self.unsupported(e, "call with *args or **kwargs")
        fn = self.resolve(e.func)
        name = ast.unparse(e.func)
        handler = _CALLS.get(_key(fn))
        if handler is not None:
            return handler(self, e, name)
        if _key(fn) in MATH_FUNCTIONS:
            cls, np_flavour = MATH_FUNCTIONS[fn]
            return self.call_math(e, cls, np_flavour, name)
        if isinstance(fn, pytypes.FunctionType):
            return self.inline(e, fn)
        if fn is range:
            raise self.unsupported(e, "range() outside a for loop")
        raise self.unsupported(e, f"call to {name}()")

    def args(self, e: ast.Call, name: str, lo: int, hi: int, keywords=()) -> list[Node]:
        for k in e.keywords:
            if k.arg not in keywords:
                raise self.error(e, f"{name}() got an unsupported keyword argument {k.arg!r}", name)
        if not lo <= len(e.args) <= hi:
            want = f"{lo}" if lo == hi else f"{lo} to {hi}"
            raise self.error(e, f"{name}() takes {want} positional arguments ({len(e.args)} given)", name)
        vals = self.exprs(e.args)
        for v in vals:
            if _kind(v) is None and not _is_array(v):
                raise self.error(e, f"{name}() of a {v.type} value", name)
        return vals

    def scalars(self, e, name, vals):
        for v in vals:
            if _kind(v) is None:
                raise self.error(e, f"{name}() takes numbers, not {v.type}", name)
        return vals

    def call_math(self, e, cls, np_flavour: bool, name: str) -> Node:
        xs = self.scalars(e, name, self.args(e, name, cls.arity, cls.arity))
        if np_flavour and cls.__name__ in _NP_INT_LOOPS and all(_kind(x) != "float" for x in xs):
            # numpy computes these on ints in the ints' dtype, not as floats
            if cls.__name__ != "Fmod" and all(_kind(x) in ("int", "bool") for x in xs):
                return xs[0]  # np.floor(3) is np.int64(3), np.ceil(True) np.True_: the value itself
            what = "ints" if cls.__name__ == "Fmod" else "an int"
            raise self.error(e, f"{name}() of {what} (or a value that may be one) computes in numpy's "
                                f"integer dtype, {_NP_INT_LOOPS[cls.__name__]}; son computes it for floats: "
                                "convert with float(...) first", name)
        for x in xs:
            x.keep()
        r = self.op(e, cls, *xs, np=np_flavour).keep()
        if not np_flavour:
            for which, exc in math_guards(cls):
                self.guard(self.op(e, MathError, r, *xs, which=which), exc,
                           RANGE_ERROR if exc is OverflowError else DOMAIN_ERROR)
        for x in xs:
            x.unkeep()
        return r.unkeep()

    def call_log(self, e, name):
        if len(e.args) != 2:
            return self.call_math(e, MATH_NODES["Log"], False, name)
        x, base = self.scalars(e, name, self.args(e, name, 2, 2))
        base.keep()
        lx = self.math1(e, "Log", x).keep()
        lb = self.math1(e, "Log", base.unkeep())
        lx.unkeep()
        return self.arith(e, Div, lx, lb)

    def math1(self, e, cls_name, x):
        cls = MATH_NODES[cls_name]
        x.keep()
        r = self.op(e, cls, x).keep()
        self.guard(self.op(e, MathError, r, x, which="any"), ValueError, DOMAIN_ERROR)
        x.unkeep()
        return r.unkeep()

    def to_int(self, at, x: Node) -> Node:
        """``int(x)`` with CPython's faults: NaN -> ValueError, beyond int64 -> OverflowError
        (for an unknown number too: the checks are false on ints)."""
        if _kind(x) not in ("float", "number"):
            return self.op(at, ToInt, x)
        x.keep()
        self.guard(self.op(at, IsNan, x), ValueError, INT_OF_NAN)
        out = self.op(at, BitOr, self.op(at, LT, x, self.con(-_INT64_LIMIT)),
                      self.op(at, GE, x, self.con(_INT64_LIMIT)))
        self.guard(out, OverflowError, INT_OUT_OF_RANGE)
        x.unkeep()
        return self.op(at, ToInt, x, ctrl=self.scope.ctrl)

    def call_rounding(self, e, name, cls_name):
        (x,) = self.scalars(e, name, self.args(e, name, 1, 1))
        if x.type.kind in ("int", "bool"):
            return self.op(e, ToInt, x)
        return self.to_int(e, self.op(e, MATH_NODES[cls_name], x, np=True))

    def call_minmax(self, e, name, cls):
        if len(e.args) < 2:
            raise self.unsupported(e, f"{name}() of fewer than two arguments (iterables are not supported)")
        vals = self.scalars(e, name, self.args(e, name, 2, 1 << 30))
        acc = vals[0]
        for v in vals:
            v.keep()
        for v in vals[1:]:
            acc = self.op(e, cls, acc, v)
        for v in vals:
            v.unkeep()
        return acc

    def call_new_array(self, e, name, fill):
        if len(e.args) != 1:
            raise self.error(e, f"{name}() takes one length argument", name)
        dtype = "float64"
        for k in e.keywords:
            if k.arg != "dtype":
                raise self.error(e, f"{name}() got an unsupported keyword argument {k.arg!r}", name)
            obj = self.resolve(k.value)
            dtype = _DTYPES.get(obj)
            if dtype is None:
                raise self.error(k.value, f"unsupported dtype {ast.unparse(k.value)} (use float, "
                                          "int, bool or the numpy equivalents)", name)
        shape = e.args[0]
        if isinstance(shape, ast.Tuple):
            if len(shape.elts) != 1:
                raise self.unsupported(shape, "multi-dimensional array")
            shape = shape.elts[0]
        n = self.int_value(shape).keep()
        self.guard(self.op(e, LT, n, self.con(0)), ValueError, "negative dimensions are not allowed")
        return self.op(e, NewArray, self.scope.ctrl, n.unkeep(), dtype=dtype, fill=fill)

    def int_value(self, e: ast.expr) -> Node:
        v = self.expr(e)
        if _kind(v) not in ("int", "bool", "number"):
            raise self.error(e, f"expected an int, got {v.type.widen()}", "int")
        if v.type.kind == "number":  # CPython refuses a float here (range, np.zeros): TypeError
            v.keep()
            self.guard(self.op(e, IsFloat, v), TypeError,
                       "'float' object cannot be interpreted as an integer")
            v.unkeep()
        return v

    def call_cast(self, e, name, kind):
        if not e.args:
            return self.con({"float": 0.0, "int": 0, "bool": False}[kind])
        (x,) = self.scalars(e, name, self.args(e, name, 1, 1))
        if kind == "float":
            return self.op(e, ToFloat, x)
        if kind == "int":
            return self.to_int(e, x)
        return self.truth(x, e)

    def call_len(self, e, name):
        (a,) = self.args(e, name, 1, 1)
        if not _is_array(a):
            raise self.error(e, f"len() of a {a.type.widen()} value", "len")
        return self.op(e, ArrayLen, a)

    def call_pow(self, e, name):
        a, b = self.args(e, name, 2, 2)
        return self.arith(e, None, a, b)

    def call_unary(self, e, name, cls):
        (x,) = self.scalars(e, name, self.args(e, name, 1, 1))
        return self.op(e, cls, x)

    def inline(self, e: ast.Call, fn) -> Node:
        if fn in self.stack:
            raise self.error(e, f"recursive call to {fn.__name__}() (son inlines calls; recursion "
                                "is not supported)", "recursion")
        src = source_of(fn)
        params = [a.arg for a in src.tree.args.args]
        a = src.tree.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            raise self.error(e, f"{fn.__name__}() has *args, **kwargs or keyword-only parameters",
                             "call")
        if len(e.args) > len(params):
            raise self.error(e, f"{fn.__name__}() takes {len(params)} arguments "
                                f"({len(e.args)} given)", "call")
        vals = self.exprs(e.args + [k.value for k in e.keywords])
        bound = dict(zip(params, vals[:len(e.args)]))
        for k, v in zip(e.keywords, vals[len(e.args):]):
            if k.arg not in params or k.arg in bound:
                raise self.error(e, f"{fn.__name__}() got an unexpected or repeated argument "
                                    f"{k.arg!r}", "call")
            bound[k.arg] = v
        defaults = dict(zip(params[len(params) - len(src.defaults):], src.defaults))
        callee = Scope(self.g, self.scope.ctrl, self.scope.mem)
        for p in params:
            if p in bound:
                callee.set(p, bound[p])
            elif p in defaults:
                callee.set(p, self.constant_value(defaults[p], p, e))
            else:
                raise self.error(e, f"{fn.__name__}() missing argument {p!r}", "call")
        sub = FunctionParser(self.g, self.peephole, src, callee, self.stack, self.pinned,
                             self.learned, self.deps, self.path + (ast.unparse(e.func),))
        out = sub.parse_body()
        if len(sub.return_values(out)) != 1:
            out.drop()
            raise self.unsupported(e, "call of a function that returns a tuple")
        self.scope.ctrl = out.ctrl
        self.scope.mem = out.mem
        v = out.get("$ret").keep()
        out.drop()
        return v.unkeep()


def _ret(j: int) -> str:
    """The scope variable holding a return's ``j``-th value."""
    return "$ret" if j == 0 else f"$ret:{j}"


#: what ``FunctionParser.note`` records for a name that is not defined
MISSING = object()


def _key(fn):
    try:
        hash(fn)
        return fn
    except TypeError:
        return id(fn)


_CALLS: dict = {
    abs: lambda p, e, n: p.call_unary(e, n, Abs),
    np.abs: lambda p, e, n: p.call_unary(e, n, Abs),
    np.absolute: lambda p, e, n: p.call_unary(e, n, Abs),
    min: lambda p, e, n: p.call_minmax(e, n, Min),
    max: lambda p, e, n: p.call_minmax(e, n, Max),
    float: lambda p, e, n: p.call_cast(e, n, "float"),
    np.float64: lambda p, e, n: p.call_cast(e, n, "float"),
    int: lambda p, e, n: p.call_cast(e, n, "int"),
    np.int64: lambda p, e, n: p.call_cast(e, n, "int"),
    bool: lambda p, e, n: p.call_cast(e, n, "bool"),
    np.bool_: lambda p, e, n: p.call_cast(e, n, "bool"),
    len: lambda p, e, n: p.call_len(e, n),
    pow: lambda p, e, n: p.call_pow(e, n),
    math.log: lambda p, e, n: p.call_log(e, n),
    math.floor: lambda p, e, n: p.call_rounding(e, n, "Floor"),
    math.ceil: lambda p, e, n: p.call_rounding(e, n, "Ceil"),
    math.trunc: lambda p, e, n: p.call_rounding(e, n, "Trunc"),
    math.isnan: lambda p, e, n: p.call_unary(e, n, IsNan),
    math.isinf: lambda p, e, n: p.call_unary(e, n, IsInf),
    math.isfinite: lambda p, e, n: p.call_unary(e, n, IsFinite),
    np.isnan: lambda p, e, n: p.call_unary(e, n, IsNan),
    np.isinf: lambda p, e, n: p.call_unary(e, n, IsInf),
    np.isfinite: lambda p, e, n: p.call_unary(e, n, IsFinite),
    np.zeros: lambda p, e, n: p.call_new_array(e, n, "zeros"),
    np.ones: lambda p, e, n: p.call_new_array(e, n, "ones"),
    np.empty: lambda p, e, n: p.call_new_array(e, n, "empty"),
}


# ==================================================================== entry points
def build_graph(src: FunctionSource, peephole: bool = True, argtypes=None, args=None,
                tracer=None, deps: list | None = None, rules=None) -> Graph:
    """Parse ``src`` into a new Graph (the body of ``son.parse``); ``deps``, if given,
    receives every read outside the function (see ``FunctionParser.note``); ``rules``
    is the peephole's ``RuleSet`` (None: the default)."""
    with gc_paused(), deep_syntax_trees():
        return _build_graph(src, peephole, argtypes, args, tracer, deps, rules)


def _build_graph(src, peephole, argtypes, args, tracer, deps=None, rules=None) -> Graph:
    a = src.tree.args
    where = f"{src.filename}:{src.tree.lineno + src.line0}"
    if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
        bad = a.vararg or a.kwarg or (a.kwonlyargs or a.posonlyargs)[0]
        fp = FunctionParser.__new__(FunctionParser)
        fp.src = src
        raise fp.error(bad if isinstance(bad, ast.AST) else src.tree,
                       "unsupported construct: *args, **kwargs, keyword-only or positional-only "
                       "parameters", "parameters")
    names = [x.arg for x in a.args]
    ann = dict(getattr(src.pyfunc, "__annotations__", {}) or {})
    for x in a.args:  # annotations written as strings, or from `from __future__ import annotations`
        spec = ann.get(x.arg)
        if isinstance(spec, str):
            try:
                ann[x.arg] = eval(spec, src.globals)  # noqa: S307 - the user's own annotation
            except Exception:
                raise SonError(f"{where}: cannot evaluate the annotation {spec!r} of {x.arg!r}") from None
        elif spec is None and x.annotation is not None and src.pyfunc is None:
            ann[x.arg] = eval(ast.unparse(x.annotation), src.globals)  # noqa: S307
    types = param_types(names, ann, argtypes, args, where)
    g = Graph(src.name, list(zip(names, types)))
    g.source = (src.filename, src.tree.lineno + src.line0)
    peep = Peephole(g, rules, enabled=peephole, tracer=tracer)
    ctrl = peep.peep(CProj(g, g.start, 0))
    mem = peep.peep(Proj(g, g.start, 1, "mem"))
    scope = Scope(g, ctrl, mem)
    for i, (name, _t) in enumerate(g.params):
        scope.set(name, peep.peep(Proj(g, g.start, 2 + i, name)))
    parser = FunctionParser(g, peep, src, scope, deps=deps)
    out = parser.parse_body()
    rets = parser.return_values(out)
    if not parser.dead(out):
        parser.exit(Return(g, out.ctrl, out.mem, *rets))
    out.drop()
    for c in parser.pinned:
        c.unkeep()
    peep.peep(g.stop)
    g.dce()
    return g
