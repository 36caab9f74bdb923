"""The parser's core: making nodes and wiring control while the graph is built.

``ParserCore`` holds what every construct uses: syntax errors that carry the user's
file and line, node making with the pessimistic peephole applied at once (``op``,
``con``), the split of control on a predicate (``branch``), fault guards (``guard``:
``if pred: raise exc(message)``), exits hooked to Stop, and the merge of scopes at a
``Region``, with a ``Phi`` for each variable that differs (one bound on only some
paths gets a placeholder value and a Phi of its bound flag).  Each operation is O(1)
amortized except ``merge``: O(variables of the merged scopes)."""

from __future__ import annotations

import ast
import linecache
import re

import numpy as np

from ..errors import SonSyntaxError
from ..nodes import (
    Add,
    ArrayLen,
    BitAnd,
    BitOr,
    BitXor,
    Constant,
    CProj,
    Div,
    FloorDiv,
    If,
    Mod,
    Mul,
    Node,
    Not,
    Phi,
    Raise,
    Refine,
    Region,
    Shl,
    Shr,
    Sub,
    XCtrl,
    constant,
    implied_facts,
    kept,
)
from ..nodes.types import BOTTOM, MEM, NONE, NUMBER, TOP, XCTRL, ArrayType, ListType
from .scope import Aggregate, Conflict, Grid, Opt, Pack, Scope, View, flag

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
    "Slice": "slice", "NamedExpr": "assignment expression (:=)",
    "Match": "match statement", "AsyncFor": "async for", "Attribute": "attribute",
}


#: what to write instead of an unsupported construct, where son has an alternative
_INSTEAD = {
    "GeneratorExp": "pass it straight to sum, min, max, any, all or math.prod",
    "SetComp": "test membership with 'in' on a tuple, an array or a range",
    "Set": "test membership with 'in' on a tuple, an array or a range",
    "Dict": "use arrays indexed by int keys",
    "DictComp": "use arrays indexed by int keys",
    "Try": "test before the operation: son raises CPython's exceptions where CPython does",
    "With": "open files and contexts outside the compiled function",
    "JoinedStr": "son computes numbers: return them and format them outside",
    "Global": "pass the value as a parameter and return the new one",
    "Nonlocal": "pass the value as a parameter and return the new one",
    "ClassDef": "use functions, tuples and arrays",
    "Yield": "fill an array, or return a tuple",
    "YieldFrom": "fill an array, or return a tuple",
    "Import": "import at module level: son reads the module's names",
    "ImportFrom": "import at module level: son reads the module's names",
    "NamedExpr": "assign the value on a line of its own first",
    "Match": "write if/elif tests",
    "Starred": "pass or unpack the items one by one",
}


def _kind(x: Node) -> str | None:
    """The scalar kind the frontend checks operands against.  TOP (a value only on
    paths the graph's own types prove dead, as in the raw graph of `if False:`) may
    be anything: it passes as an unknown number."""
    return "number" if x.type is TOP else x.type.kind


_ARRAY_HINT = (" (an unannotated parameter is an int or a float to son: annotate it as "
               "'a: np.ndarray', or give argtypes= or example args=)")


#: the dtypes son takes, as written in Python (``dtype=float``, ``a.astype(np.int64)``)
DTYPES = {float: "float64", np.float64: "float64", int: "int64", np.int64: "int64",
          bool: "bool", np.bool_: "bool"}


def array_hint(x: Node) -> str:
    """What to write where an array is needed and ``x`` is an int-or-float value (an
    unannotated parameter, most likely; ``parameter_hint`` names it)."""
    return _ARRAY_HINT if x.type is NUMBER else ""


def parameter_hint(e: SonSyntaxError, untyped: list[str]) -> SonSyntaxError:
    """``e`` saying how to type the parameters ``untyped`` (those son took as int-or-float
    numbers for want of a type) when it is about a number value: the whole parse's
    catch-all, so that every path that meets such a parameter names the fix."""
    if not untyped or not re.search(r"\bnumber\b", e.message):
        return e
    words = set(re.findall(r"\w+", linecache.getline(e.filename, e.lineno)))
    untyped = [n for n in untyped if n in words] or untyped  # those the failing line reads
    names, first = ", ".join(untyped), untyped[0]
    hint = (f" ({names} {'has' if len(untyped) == 1 else 'have'} no type, so son takes "
            f"{'it' if len(untyped) == 1 else 'them'} as an int or a float: for an array, annotate "
            f"'{first}: np.ndarray', or give son.parse argtypes= or example args=, or the son command "
            f"--argtypes {','.join(n + '=f64[]' for n in untyped)})")
    out = SonSyntaxError(e.message.replace(_ARRAY_HINT, "") + hint, e.filename, e.lineno, e.col,
                         e.construct)
    out.__dict__.update({k: v for k, v in vars(e).items() if k == "statement"})  # see regions.py
    return out


def _is_array(x: Node) -> bool:
    return isinstance(x.type, ArrayType) or x.type is TOP


def whole_array(x: Node) -> bool:
    """A 1-D array node itself (no view, no value of dead code)."""
    return isinstance(x.type, ArrayType) and not isinstance(x, Aggregate)


def is_array_value(x: Node) -> bool:
    """An array or a view of one (a slice, son/frontend/arrays.py)."""
    return _is_array(x) or isinstance(x, View)


def is_list(x) -> bool:
    """A list (son/frontend/lists.py): a node of a list type, no value of the parse."""
    return isinstance(x, Node) and not isinstance(x, Aggregate) and isinstance(x.type, ListType)


#: numpy's TypeError for ``-`` of two bool arrays, or of two numpy bools (``np.ptp``)
BOOL_SUBTRACT = ("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                 "operator, or the logical_xor function instead.")


def promoted(*dtypes: str) -> str:
    """numpy's result dtype of operands of son's ``dtypes`` (bool < int64 < float64)."""
    return max(dtypes, key=("bool", "int64", "float64").index)


def dtype_of(x: Node, default: str = "float64") -> str:
    """The element dtype of an array or a view (``default`` for a value of dead code)."""
    t = (x.base if isinstance(x, (View, Grid)) else x).type
    return t.dtype if isinstance(t, ArrayType) else default


def _number_tuple(v: Node) -> bool:
    """A tuple of numbers (``(i, x)``): what ``best = None`` may become later."""
    return isinstance(v, Pack) and all(
        x.type.kind is not None and not isinstance(x, Aggregate) for x in v.elems)


def _mergeable(v: Node, like: Node) -> bool:
    """Do ``v`` and the aggregate ``like`` merge element by element: of one class and
    length, one target for functions (elements that differ, a number and None say, merge
    in their turn)?"""
    return like.merges_with(v)


def _dead_value(v: Node) -> bool:
    """Is ``v`` a value of a path the types prove dead: TOP, or an aggregate of them?"""
    if isinstance(v, Aggregate):
        return bool(v.elems) and all(_dead_value(x) for x in v.elems)
    return v.type is TOP


def _strip_not(n: Node) -> tuple[Node, bool]:
    """``n`` without its ``Not``s, and whether there was an odd number of them."""
    odd = False
    while type(n) is Not:
        n, odd = n.inputs[1], not odd
    return n, odd


def assigned_names(stmts: list[ast.stmt]) -> list[str]:
    """Local names a block of statements may assign (a nested ``def`` binds its name;
    what its body assigns is its own), in order of appearance.  Each statement's names
    are kept on it (``son_assigned``): a loop parsed again, or inlined once per call,
    walks its statements once.  O(statements) after the first call, O(AST nodes) then."""
    out: dict[str, None] = {}
    for s in stmts:
        names = getattr(s, "son_assigned", None)
        if names is None:
            names = s.son_assigned = tuple(dict.fromkeys(_assigned_in(s)))
        out.update(dict.fromkeys(names))
    return list(out)


def _assigned_in(s: ast.AST):
    for n in _walk_outside_functions(s):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            yield n.id
        elif isinstance(n, ast.FunctionDef):
            yield n.name


def _walk_outside_functions(node: ast.AST):
    """``ast.walk`` in source order that does not enter functions' bodies or lambdas
    (their defaults and the ``def`` node itself are visited)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.extend(reversed(n.args.defaults + n.decorator_list))
        elif isinstance(n, ast.Lambda):
            stack.extend(reversed(n.args.defaults))
        else:
            stack.extend(reversed(list(ast.iter_child_nodes(n))))


class ParserCore:
    """FunctionParser's node making, guards and scope merging (a mixin)."""

    def error(self, at: ast.AST | None, message: str, construct: str | None = None) -> SonSyntaxError:
        line = getattr(at, "lineno", 0) + self.src.line0 if at is not None else self.src.line0 + 1
        col = getattr(at, "col_offset", 0) + self.src.col0 if at is not None else 0
        return SonSyntaxError(message, self.src.filename, line, col, construct)

    def unsupported(self, at: ast.AST, what: str | None = None, instead: str | None = None) -> SonSyntaxError:
        """``unsupported construct: WHAT (INSTEAD)``: ``what`` (default: the node's construct)
        is also the error's ``construct``; ``instead`` says what to write instead."""
        name = what or _CONSTRUCTS.get(type(at).__name__, type(at).__name__)
        if instead is None and what is None:
            instead = _INSTEAD.get(type(at).__name__)
        return self.error(at, f"unsupported construct: {name}" + (f" ({instead})" if instead else ""), name)

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
        with kept(*inputs):
            n = cls(self.g, *inputs, **kw)
        n = self.peep(n)
        if n.type is BOTTOM and all(x is None or x.type is not BOTTOM for x in inputs):
            kinds = " and ".join(str(x.type.widen()) for x in inputs
                                 if x is not None and not x.is_cfg and x.type is not MEM)
            label = _SYMBOL.get(cls, cls.__name__)
            raise self.error(at, f"unsupported operand type(s) for {label}: {kinds}", "operator")
        return n

    def dead(self, s: Scope) -> bool:
        """``s``'s code cannot run: its control is XCtrl or typed dead.  Types are sound
        in the raw parse too (it computes them without rewriting), so both parses skip
        the same statements (``stmts``) and merge the same arms."""
        c = s.ctrl
        return type(c) is XCtrl or c.type is XCTRL

    def branch(self, pred: Node) -> tuple[Node, Node]:
        """Split control on ``pred``: the (true, false) control projections."""
        with kept(pred):
            iff = self.peep(If(self.g, self.scope.ctrl, pred))
        t, f = CProj(self.g, iff, 0), CProj(self.g, iff, 1)
        with kept(t):
            f = self.peep(f)
        with kept(f):
            t = self.peep(t)
        return t, f

    def refine(self, scope: Scope, cond: Node, truth: bool) -> None:
        """On ``scope``'s arm, where ``cond`` has truth ``truth``, rebind every variable
        whose value ``cond`` tests to a ``Refine`` of it (typed by what ``cond``
        implies, son/nodes/refine.py); a refinement that adds nothing folds away.  Only
        with the peephole: the raw parse is the literal translation.  O(facts *
        variables)."""
        if cond.inputs is None or self.dead(scope):
            return
        self.refine_optionals(scope, cond, truth)  # typing, not an optimization: the raw parse too
        if not self.peephole.enabled:
            return
        facts = implied_facts(cond, truth)
        if not facts:
            return
        ctrl = scope.ctrl
        for x, op, y in facts:
            names = [n for n, v in scope.variables().items() if v is x]
            if not names:
                continue
            if not isinstance(y, Node):
                y = self.con(y)
            with kept(x, y):
                r = self.peep(Refine(self.g, ctrl, x, y, op))
            if r is not x:
                for n in names:
                    scope._bind(n, r)  # not set(): the variable's flag stays

    def refine_optionals(self, scope: Scope, cond: Node, truth: bool) -> None:
        """On the arm where ``cond`` has truth ``truth``, rebind each variable whose value
        may be None to None or to its value where ``cond`` decides it: ``cond`` is its
        ``is_none`` flag or the flag's negation (either may be a ``Not`` the peephole
        made: ``is_none`` of ``x = None; if c: x = 1`` is ``not c``), or, on the true
        arm, its truth (``x or d``: a true ``x`` is not None)."""
        base, parity = _strip_not(cond)
        for name, v in scope.variables().items():
            if not isinstance(v, Opt):
                continue
            flag, flag_parity = _strip_not(v.is_none)
            if flag is base:
                scope._bind(name, self.con(None) if truth != (parity != flag_parity) else v.value)
            elif truth and type(cond) is BitAnd and any(
                    _strip_not(x) == (flag, not flag_parity) for x in cond.inputs[1:]):
                scope._bind(name, v.value)  # true, so not None: a conjunct is "not is_none"

    def guard(self, pred: Node, exc: type, message: str) -> bool:
        """``if pred: raise exc(message)``; continue on the false side.
        Returns False when ``pred`` is known false and no guard was needed."""
        if self.peephole.enabled and pred.type.is_constant and not pred.type.con:
            if pred.is_unused():
                pred.kill()
            return False
        t, f = self.branch(pred)
        with kept(f):
            self.exit(Raise(self.g, t, self.scope.mem, exc, message))
        self.scope.ctrl = f
        self.refine(self.scope, pred, False)
        return True

    def fault(self, exc: type, message: str) -> Node:
        """CPython's ``exc`` when (and only if) the code gets here, and a value (TOP) for
        the code after, which is dead."""
        self.guard(self.con(True), exc, message)
        return self.dead_value()

    def dead_value(self) -> Node:
        """A value for code that cannot run: TOP, which stands for any value."""
        return self.peep(Constant(self.g, TOP))

    def choose(self, cond: Node, a, b: Node) -> Node:
        """``a if cond else b``: a branch and a merge.  ``a`` is a value already computed,
        or a function that computes it on the true arm only (code the other must not run)."""
        tmp = self.temp()
        with kept(b, *([] if callable(a) else [a])):
            t, f = self.branch(cond)
            other = self.scope.dup()
            other.ctrl = f
            self.scope.ctrl = t
            value = a() if callable(a) else a  # first: the arm's code may make a new scope
            self.scope.set(tmp, value)
            other.set(tmp, b)
            self.scope = self.merge([self.scope, other])
        v = self.scope.get(tmp)
        with kept(v):
            self.scope.remove(tmp)
        return v

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
            # where the flag is False the variable is unbound and its value a placeholder
            # (a loop's, of the kind it was assumed to have): only bound values count
            vals = [None if f is not None and f.type.is_constant and f.type.con is False else v
                    for v, f in zip(vals, flags)]
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
        (never observed: reads are guarded by the flag); None for arrays.  For tuples of
        one shape, the tuple of their elements' placeholders.  Values of paths the types
        prove dead (TOP, or a tuple of TOPs) do not count."""
        defined = [v for v in defined if not _dead_value(v)] or defined
        if defined and isinstance(defined[0], Aggregate):
            if not all(_mergeable(v, defined[0]) for v in defined):
                return None
            elems = [self.placeholder([v.elems[i] for v in defined]) for i in range(len(defined[0].elems))]
            return None if None in elems else defined[0].rebuilt(elems)
        t = TOP  # values typed TOP sit on paths the types prove dead: they do not count
        for v in defined:
            t = t.meet(v.type.widen())
        if t is NONE:  # None where bound: None stands in (reads are guarded by the flag)
            return self.con(None)
        zero = {"int": 0, "float": 0.0, "bool": False, "number": 0}.get("int" if t is TOP else t.kind)
        return self.con(zero) if zero is not None else None

    def views_of_arrays(self, vals: list[Node]) -> list[Node] | None:
        """Where views meet whole 1-D arrays (``x = a[1:] if c else a * 2.0``), each array
        as the view of all of itself (start 0, step 1), so that the merge is a view; None
        where no view meets an array."""
        if not (any(isinstance(v, View) for v in vals) and any(whole_array(v) for v in vals)):
            return None
        return [self.view_of_whole(v) if whole_array(v) else v for v in vals]

    def view_of_whole(self, a: Node) -> View:
        """The 1-D array ``a`` as the view of all of itself (start 0, step 1)."""
        with kept(a):
            return View(self.g, a, self.con(0), self.con(1), self.peep(ArrayLen(self.g, a)))

    def optionals(self, vals: list[Node], live: list[bool] | None = None) -> list[Node] | None:
        """``vals`` as values that may be None (``Opt``) where None meets numbers, or tuples
        of numbers of one shape, among the values of live paths (``live``: the path of
        each value is not proven dead), else None.  A number or tuple ``v`` is
        ``Opt(False, v)``, None is ``Opt(True, p)`` with ``p`` a placeholder of their kind
        (shape); a value of a dead path stays as it is."""
        live = live or [True] * len(vals)
        seen = [v for v, ok in zip(vals, live) if ok]
        if not any(isinstance(v, Opt) or v.type is NONE for v in seen):
            return None
        numbers = [v.value if isinstance(v, Opt) else v for v in seen
                   if isinstance(v, Opt) or _number_tuple(v) or (v.type.kind is not None
                                                                  and not isinstance(v, Aggregate))]
        if not numbers or any(isinstance(v, Aggregate) and not isinstance(v, Opt) and not _number_tuple(v)
                              or isinstance(v.type, ArrayType) for v in seen):
            return None
        p = self.placeholder(numbers)
        if p is None:
            return None
        return [v if isinstance(v, Opt) or v.type is TOP or not ok
                else Opt(self.g, self.con(True), p) if v.type is NONE
                else Opt(self.g, self.con(False), v) for v, ok in zip(vals, live)]

    def _phi(self, region: Node, vals: list[Node]) -> Node:
        """The merge of ``vals`` at ``region``.  Tuples of one length merge element by
        element, None and numbers as values that may be None (``optionals``); a value of
        a path the types prove dead (its control XCTRL, or the value TOP) stands for
        anything.  Tuples of different lengths, or a tuple and a number, make a Phi typed
        BOTTOM, which ``read`` refuses, naming the variable."""
        if all(v is vals[0] for v in vals):
            return vals[0]
        live = [c is None or c.type is not XCTRL for c in region.inputs[1:]]
        if not any(live):  # a merge in dead code: every value counts
            live = [True] * len(vals)
        vals = (self.optionals(vals, live) or self.unified_functions(vals, live)
                or self.views_of_arrays(vals) or vals)
        lists = [v for v, ok in zip(vals, live) if ok and is_list(v)]
        if len({v.type for v in lists}) > 1:
            self.unify_list_kinds(lists)  # an empty list of a guessed kind learns the other's
        packs = [v for v, ok in zip(vals, live) if ok and isinstance(v, Aggregate)]
        if packs:
            n = len(packs[0].elems)
            if all(_mergeable(v, packs[0]) or v.type is TOP or not ok for v, ok in zip(vals, live)):
                return packs[0].rebuilt([self._phi(region, [
                    v.elems[i] if _mergeable(v, packs[0]) else v for v in vals]) for i in range(n)])
            return Conflict(self.g)  # an aggregate never enters a Phi
        return self.peep(Phi(self.g, region, *vals))
