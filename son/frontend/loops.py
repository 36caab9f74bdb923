"""Loops: ``while`` and ``for ... in range(...)``, built as *Simple* builds them.

A ``Loop`` gets a ``Phi`` for every variable its body may assign; the body is parsed
once with each Phi's back-edge value unknown, its type assumed to be the entry
value's kind, and then the back edge is closed.  If the closed loop proves an
assumption wrong (an int that becomes a float), the attempt is thrown away and the
loop parsed again under the wider type; what an attempt learns is kept per loop
statement, so the lattice's height (3) bounds the attempts.  A variable the body binds
before reading it enters as a placeholder whose kind is guessed from the syntax
(son/frontend/kindguess.py: ``x = xs[i]`` is a float), so most loops are parsed once;
a wrong guess costs one attempt, as a wrong kind always did.  ``range`` loops count
with a hidden induction variable and, where a step could carry it past int64, a
hidden flag computed before stepping.  O(body) per attempt."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ..nodes import (
    EQ,
    GT,
    LT,
    ULT,
    Add,
    BitAnd,
    BitOr,
    CProj,
    If,
    Loop,
    Never,
    Node,
    Phi,
    Raise,
    Sub,
    kept,
)
from ..nodes.types import (
    BOOL,
    BOTTOM,
    CTRL,
    FLOAT,
    INT,
    INT64_MAX,
    INT64_MIN,
    NONE,
    NUMBER,
    TOP,
    Type,
    bounds,
)
from .core import assigned_names, whole_array
from .kindguess import guess_kinds
from .scope import Aggregate, Fn, Opt, Pack, Rng, Scope, View, describe, flag, shape


@dataclass
class _LoopContext:
    breaks: list[Scope] = field(default_factory=list)
    continues: list[Scope] = field(default_factory=list)


#: a loop variable bound first in the body whose back edge is an int or a float under one
#: placeholder kind: the kind to try next
_PLACEHOLDER_NEXT = {None: FLOAT, FLOAT: BOOL}
#: the placeholder's type for a kind guessed from the loop's syntax (son/frontend/kindguess.py)
_GUESSED = {"float": FLOAT, "bool": BOOL}
#: the placeholder value of each kind (a variable unbound on entry to a loop)
_ZERO = {"int": 0, "float": 0.0, "bool": False, "number": 0}


class _TypeAssumptionFailed(Exception):
    pass


@dataclass(frozen=True)
class _Optional:
    """What a failed attempt learned of a variable that is None on entry to a loop and
    a number after its body (or the reverse): carry it as a value that may be None,
    whose value has kind ``kind``; or, with ``kinds``, a tuple of numbers of those
    kinds (``best = None`` before a loop that sets ``best = (i, x)``)."""
    kind: Type | None
    kinds: tuple | None = None

    def placeholder(self, p) -> Node:
        """The value standing in where the variable is None (parser ``p`` makes it)."""
        if self.kinds is not None:
            return Pack(p.g, *[p.con(_ZERO.get(k.kind, 0)) for k in self.kinds])
        return p.con(_ZERO.get(self.kind.kind, 0))


@dataclass(frozen=True, eq=False)
class _Functions:
    """What a failed attempt learned of a function value a loop's body rebinds to other
    functions: carry it as a value of all of ``targets`` (a selector and their captured
    values)."""
    targets: tuple


class _AsView:
    """What a failed attempt learned of a variable that is a whole 1-D array on entry to
    a loop and a view after its body (``x = x[1:]``): enter the array as the view of all
    of itself."""


AS_VIEW = _AsView()


@dataclass(frozen=True)
class _Tuple:
    """What a failed attempt learned of a variable unbound on entry to a loop that its
    body binds to a tuple of numbers: enter it as a tuple of placeholders of ``kinds``."""
    kinds: tuple


def _tuple_of_numbers(v) -> _Tuple | None:
    """``v``'s element kinds where it is a tuple (``Pack``) of numbers, else None."""
    if type(v) is not Pack or not v.elems or any(
            isinstance(x, Aggregate) or x.type.widen().kind not in ("int", "float", "bool", "number")
            for x in v.elems):
        return None
    return _Tuple(tuple(x.type.widen() for x in v.elems))


class Loops:
    """FunctionParser's loops (a mixin)."""

    def stmt_While(self, s):
        def cond():
            return self.condition(s.test)

        self.loop(s, cond, None, None, assigned_names(s.body))

    def stmt_For(self, s):
        gen = self.as_generator(s.iter)
        if gen is not None:  # for y in map(f, xs): over xs, y = f(x) first; filter: continue first
            self.stmt_For(_loop_of_generator(s, gen))
            return
        src = self.iteration_source(s.iter)
        if isinstance(src, list):
            self.unrolled_for(s, src)
            return
        if not isinstance(s.target, (ast.Name, ast.Tuple, ast.List)):
            raise self.unsupported(s.target, "for loop target that is not a name or a tuple of names",
                                   instead="loop over a name and assign from it in the body")
        if isinstance(src, Rng) and isinstance(s.target, ast.Name):
            bounds = src.start.keep(), src.stop.keep(), src.step.keep()
            if src.is_unused():
                src.kill()
            self.range_loop(s, s.iter, *bounds)
            return
        src = self.counted(s.iter, src)
        targets = [n.id for n in ast.walk(s.target) if isinstance(n, ast.Name)]
        self.counted_loop(s, s.iter, src, lambda x: self.assign(s.target, x), None,
                          assigned_names(s.body) + targets)

    def range_bounds(self, it: ast.Call) -> tuple[Node, Node, Node]:
        """``range(...)``'s start, stop and step, each kept (the caller unkeeps them),
        after the guard of a zero step."""
        if it.keywords or not 1 <= len(it.args) <= 3:
            raise self.error(it, "range() takes 1 to 3 positional arguments", "range")
        # kept at once (a later bound's folding may kill a shared constant); each checked as
        # an int after all are evaluated, as CPython's range() does
        bounds = [v.keep() for v in self.exprs(it.args, any_value=True)]
        for i, a in enumerate(it.args):
            checked = self.as_int_argument(a, bounds[i]).keep()
            bounds[i].unkeep()
            bounds[i] = checked
        start, stop, step = (self.con(0), bounds[0], self.con(1)) if len(bounds) == 1 else (
            bounds[0], bounds[1], bounds[2] if len(bounds) == 3 else self.con(1))
        for b in (start, stop, step):
            b.keep()
        for b in bounds:
            b.unkeep()
        self.guard(self.op(it, EQ, step, self.con(0)), ValueError, "range() arg 3 must not be zero")
        return start, stop, step

    def range_loop(self, s, it, start: Node, stop: Node, step: Node, bind=None, body=None,
                   names: list[str] | None = None) -> None:
        """``for s.target in range(start, stop, step)`` (the bounds kept; unkept here); or,
        with ``bind``, a counted loop whose counter ``bind`` turns into the loop's
        variables, ``body`` (a callback) its body and ``names`` what they may bind."""
        counter = self.temp()
        self.scope.set(counter, start)
        zero = self.con(0)
        sb, tb = bounds(step.type), bounds(stop.type)
        sign = (True if sb[0] > 0 else False if sb[1] < 0 else None) if sb is not None else None
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
        # The lattice decides where no step can: an element i < stop rising is at most
        # stop.hi - 1, and i + step then at most stop.hi - 1 + step.hi (falling alike), so
        # a step of 1, or any step whose stop's range leaves room for it, needs no flag.
        needs_flag = not (sign is not None and tb is not None and (
            tb[1] - 1 + sb[1] <= INT64_MAX if sign else tb[0] + 1 + sb[0] >= INT64_MIN))
        more = None
        if needs_flag:
            more = self.temp()
            self.scope.set(more, before(start, stop))

        def follows(i):
            """another element of the range follows i (an element): the distance d = stop - i
            (never 0) exceeds the step, rising, or is below it, falling.  Read unsigned, a d
            that wrapped (a true distance past int64) is above every rising step and below
            every falling one, so one unsigned compare decides it either way."""
            d = self.op(it, Sub, stop, i)
            with kept(d):
                if sign is not None:
                    r = self.op(it, ULT, step, d) if sign else self.op(it, ULT, d, step)
                else:
                    rising = self.op(it, BitAnd, up, self.op(it, ULT, step, d)).keep()
                    falling = self.op(it, BitAnd, self.op(it, LT, step, zero), self.op(it, ULT, d, step))
                    rising.unkeep()
                    r = self.op(it, BitOr, rising, falling)
            return r

        def cond():
            return self.scope.get(more) if more else before(self.scope.get(counter), stop)

        def prologue():
            if bind is not None:
                bind(self.scope.get(counter))
            else:
                self.scope.set(s.target.id, self.scope.get(counter))

        def latch():
            i = self.scope.get(counter)
            if more:
                self.scope.set(more, follows(i))
            self.scope.set(counter, self.op(it, Add, i, step))

        names = names if names is not None else assigned_names(s.body) + [s.target.id]
        self.loop(s, cond, prologue, latch, names + [counter] + ([more] if more else []), body)
        self.scope.remove(counter)
        if more:
            self.scope.remove(more)
        for b in (start, stop, step, up):
            if b is not None:
                b.unkeep()

    def loop(self, s, cond, prologue, latch, names: list[str], body=None) -> None:
        """Build a loop; retried with wider Phi types if the body breaks the assumption.
        Its body is ``s.body`` or, given, the callback ``body``; ``s`` (parsed once) keys
        what failed attempts learn.

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
        stmts = s.body if body is None and isinstance(getattr(s, "body", None), list) else []
        guessed = guess_kinds(stmts, [n for n in names if entry.get(n) is None and n not in assumed], entry)
        for _attempt in range(8):
            self.scope = entry.dup()
            carried, fresh = [], {}
            for n in dict.fromkeys(names):
                if self.scope.get(n) is None:
                    learned = assumed.get(n)
                    if n.startswith("$") or learned is BOTTOM or isinstance(learned, _Functions):
                        continue
                    if isinstance(learned, _Tuple):  # bound to a tuple in the body
                        zeros = [self.con(_ZERO.get(k.kind, 0)) for k in learned.kinds]
                        self.scope.set(n, Pack(self.g, *zeros))
                        self.scope._bind(flag(n), self.con(False))
                        fresh[n] = None
                        carried.append(n)
                        carried.append(flag(n))
                        continue
                    optional = isinstance(learned, _Optional)
                    kind = None if optional and learned.kinds else \
                        (learned.kind if optional else learned or _GUESSED.get(guessed.get(n), INT)).kind
                    if _ZERO.get(kind) is None and not (optional and learned.kinds):
                        continue
                    # unbound on entry (its flag says so): a value of its kind, or of a
                    # value that may be None where an attempt learned that it is one
                    v = Opt(self.g, self.con(True), learned.placeholder(self)) if optional else \
                        self.con(_ZERO[kind])
                    self.scope.set(n, v)
                    self.scope._bind(flag(n), self.con(False))
                    fresh[n] = kind
                carried.append(n)
                if self.scope.get(flag(n)) is not None:
                    carried.append(flag(n))
            try:
                exit_scope, ctx = self._loop_once(s, cond, prologue, latch, carried, fresh, assumed, body)
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
        if getattr(s, "orelse", None):
            self.stmts(s.orelse)
        self.scope = self.merge([self.scope, *ctx.breaks])

    def _forget_in_other_loops(self, name: str, assumed: dict) -> None:
        """Drop what loops other than the one learning in ``assumed`` learned about
        ``name`` (a nested loop took the placeholder's kind for the variable's own)."""
        for key, other in self.learned.items():
            if type(key) is int and isinstance(other, dict) and other is not assumed:
                other.pop(name, None)

    def _as_learned(self, name: str, v: Node, assumed: dict) -> Node:
        """``v``, the value of loop variable (or tuple element) ``name`` on entry, as a value
        that may be None where a failed attempt learned that it is one."""
        learned = assumed.get(name)
        if learned is AS_VIEW and whole_array(v):
            return self.view_of_whole(v)
        if isinstance(learned, _Functions) and isinstance(v, Fn):
            return self.widened_function(v, list(learned.targets), [v]) or v
        if not isinstance(learned, _Optional) or isinstance(v, Opt):
            return v
        return Opt(self.g, self.con(v.type is NONE), learned.placeholder(self) if v.type is NONE else v)

    def _carry(self, loop, name: str, v: Aggregate, phis: dict, assumed: dict) -> Aggregate:
        """A tuple (or a value that may be None) carried around ``loop``: the same of Phis,
        one per element (recursively), entered in ``phis`` as ``name#0``, ``name#1``, ..."""
        elems = []
        for i, x in enumerate(v.elems):
            sub = f"{name}#{i}"
            x = self._as_learned(sub, x, assumed)
            if isinstance(x, Aggregate):
                elems.append(self._carry(loop, sub, x, phis, assumed))
            else:
                phis[sub] = Phi(self.g, loop, x, None, assumed=assumed.get(sub))
                elems.append(phis[sub])
        return v.rebuilt(elems)

    def _close(self, s, var: str, name: str, pack: Aggregate, v, phis: dict, assumed: dict) -> bool:
        """Give the element Phis of a carried tuple their back-edge values, the elements of
        ``v``, which must be a tuple of the same shape (else a located error naming ``var``).
        True if an element met None on one side and a number on the other: the loop is
        parsed again, carrying it as a value that may be None."""
        if v is not None and v.type is TOP and not isinstance(v, Aggregate):
            v = pack.rebuilt([v] * len(pack.elems))  # a value of a dead path: any will do
        if isinstance(pack, View) and v is not None and whole_array(v):
            v = self.view_of_whole(v)  # an array after the body: the view of all of it
        if isinstance(pack, Opt) and v is not None and not isinstance(v, Opt):
            v = (self.optionals([pack, v]) or [None, v])[1]  # None or a number: as a value that may be None
        if isinstance(pack, Fn) and isinstance(v, Fn) and not pack.merges_with(v):
            union = list(pack.targets) + [t for t in v.targets if not any(t is u for u in pack.targets)]
            if len(union) > len(pack.targets):  # other functions after the body: parse again
                assumed[name] = _Functions(tuple(union))
                return True
            v = self.widened_function(v, union, [pack]) or v  # fewer: the entry's selector covers them
        if type(pack) is Pack and name == var and (v is not None and v.type is NONE or isinstance(v, Opt)):
            tup = _tuple_of_numbers(pack)  # a tuple on entry, None after the body: parse again,
            if tup is not None:  # carrying it as a tuple that may be None
                assumed[name] = _Optional(None, tup.kinds)
                return True
        if not isinstance(v, Aggregate) or not pack.merges_with(v):
            raise self.error(s, f"variable {var!r} is {describe(shape(pack))} when the loop starts "
                                f"and {describe(shape(v)) if v is not None else 'unbound'} after its "
                                "body; son needs one type per variable", "variable")
        failed = False
        for i, (p, x) in enumerate(zip(pack.elems, v.elems)):
            sub = f"{name}#{i}"
            if isinstance(p, Aggregate):
                failed |= self._close(s, var, sub, p, x, phis, assumed)
                continue
            optional = _becomes_optional(p.inputs[1], x)
            if optional is not None:
                assumed[sub] = optional
                failed = True
            elif isinstance(x, Aggregate):
                raise self.error(s, f"variable {var!r} holds a number when the loop starts where it "
                                    "holds a tuple after its body; son needs one type per variable",
                                 "variable")
            else:
                phis[sub].set_input(2, x)
        return failed

    def _loop_once(self, s, cond, prologue, latch, carried, fresh, assumed, body=None):
        loop = Loop(self.g, self.scope.ctrl)
        loop.type = loop.compute()
        self.scope.ctrl = loop
        phis: dict[str, Phi] = {}
        tuples: dict[str, Aggregate] = {}
        for name in ["$mem", *carried]:
            v = self.scope.mem if name == "$mem" else self.scope.get(name)
            if name != "$mem":
                v = self._as_learned(name, v, assumed)
            if isinstance(v, Aggregate):  # pinned until closed: the body may rebind the variable
                tuples[name] = self._carry(loop, name, v, phis, assumed).keep()
                self.scope._bind(name, tuples[name])
                continue
            p = Phi(self.g, loop, v, None, assumed=assumed.get(name))
            phis[name] = p
            if name == "$mem":
                self.scope.mem = p
            else:
                self.scope._bind(name, p)  # not set(): the variable's flag stays
        test = cond()
        t, f = self.branch(test)
        exit_scope = self.scope.dup()
        exit_scope.ctrl = f
        self.scope.ctrl = t
        self.refine(self.scope, test, True)
        self.refine(exit_scope, test, False)
        ctx = _LoopContext()
        self.loops.append(ctx)
        if prologue:
            prologue()
        if body is not None:
            body()
        else:
            self.stmts(s.body)
        self.loops.pop()
        self.scope = self.merge([self.scope, *ctx.continues])
        if latch and not self.dead(self.scope):
            latch()
        exits_dead = self.dead(exit_scope) and all(self.dead(b) for b in ctx.breaks)
        infinite = exits_dead and not self.dead(self.scope)
        if infinite:
            # an infinite loop: give Stop a (never taken) path to it, as Click does
            self.guard(self.peep(Never(self.g)), RuntimeError, "left an infinite loop")
        back = self.scope
        loop.set_input(2, back.ctrl)
        failed = False
        for name, p in phis.items():
            if "#" in name or p.inputs is None:  # a tuple's element: closed with its tuple below;
                continue  # or a Phi of a loop in dead code that the body's folding killed (seed 47125 i15502)
            v = back.mem if name == "$mem" else back.get(name)
            if v is None and name.startswith("$def:"):
                v = self.con(True)  # the body bound the variable on every path to the back edge
            optional = _becomes_optional(p.inputs[1], v) if name != "$mem" else None
            if optional is not None:  # None on one side, a number on the other: parse again
                assumed[name] = optional
                failed = True
                continue
            if isinstance(v, View) and whole_array(p.inputs[1]):  # an array on entry, a view
                assumed[name] = AS_VIEW  # after the body: parse again, entering it as a view
                failed = True
                continue
            tup = _tuple_of_numbers(v) if name in fresh else None
            if tup is not None:  # a tuple after the body: parse again, entering it as a
                assumed[name] = tup  # tuple of placeholders
                failed = True
                continue
            p.set_input(2, v)
        for name, pack in tuples.items():
            failed |= self._close(s, name, name, pack, back.get(name), phis, assumed)
        for pack in tuples.values():
            pack.unkeep()
        back.drop()
        self.scope = None
        for name, p in phis.items():
            if p.inputs is None or p.inputs[2] is None:
                continue
            a = p.assumed if p.assumed is not None else p.inputs[1].type.widen()
            actual = p.inputs[1].type.meet(p.inputs[2].type)
            if actual.meet(a) != a:
                if name in fresh:
                    # bound first in the loop: its kind is the back edge's; none for arrays.
                    # An int or a float there may come from the placeholder itself (a running
                    # min(best, x) of floats or bools): a float, then a bool placeholder is
                    # tried before the variable is taken for an int or a float.
                    back = p.inputs[2].type.widen()
                    if back is NUMBER:
                        tried = assumed.get(name) or (FLOAT if fresh[name] == "float" else None)
                        back = _PLACEHOLDER_NEXT.get(tried, NUMBER)
                        if back is not NUMBER:  # what nested loops learned under the old one
                            self._forget_in_other_loops(name, assumed)
                    assumed[name] = back if back.kind else BOTTOM
                else:
                    assumed[name] = a.meet(actual).widen()
                failed = True
        if failed:
            exit_scope.drop()
            for b in ctx.breaks:
                b.drop()
            raise _TypeAssumptionFailed
        mem_phi = phis["$mem"]
        self.peephole.iterate([loop, *[p for p in phis.values() if p.inputs is not None]])
        if (not infinite and self.dead(exit_scope) and all(self.dead(b) for b in ctx.breaks)
                and loop.inputs is not None
                and loop.type is CTRL and loop.back is not None and loop.back.type is CTRL):
            # the back edge narrowed the phis until the exit test is decided (x = 2 - x
            # under x > 0 stays 1): an infinite loop after all, which needs the never
            # taken exit above, or Stop would not reach it and it would vanish.  Memory
            # at the back edge: the memory phi's input there (folded: no store in the loop)
            mem = mem_phi.inputs[2] if mem_phi.inputs is not None else exit_scope.mem
            iff = If(self.g, loop.back, Never(self.g))
            t, f = CProj(self.g, iff, 0), CProj(self.g, iff, 1)
            loop.set_input(2, f)
            self.exit(Raise(self.g, t, mem, RuntimeError, "left an infinite loop"))
        return exit_scope, ctx


def _becomes_optional(entry: Node, back: Node | None) -> _Optional | None:
    """A loop variable that enters as None and leaves the body a number, a tuple of
    numbers or a value that may be None, or enters a number and leaves None: what to
    carry it as."""
    if back is None or isinstance(entry, Aggregate):
        return None
    if entry.type in (NONE, TOP):
        tup = _tuple_of_numbers(back.value if isinstance(back, Opt) else back)
        if tup is not None and (entry.type is NONE or isinstance(back, Opt)):
            return _Optional(None, tup.kinds)
    number = lambda v: v.type.kind is not None and not isinstance(v, Aggregate)  # noqa: E731
    if entry.type in (NONE, TOP) and isinstance(back, Opt):  # TOP: entered from dead code
        return _Optional(back.value.type.widen())
    if entry.type is NONE and number(back):
        return _Optional(back.type.widen())
    if number(entry) and (back.type is NONE or isinstance(back, Opt)):
        return _Optional(entry.type.widen())
    return None


def _loop_of_generator(s: ast.For, gen: ast.GeneratorExp) -> ast.For:
    """``for T in (elt for x in xs if c): body`` as ``for x in xs: if not c: continue;
    T = elt; body`` (a ``map`` or ``filter`` made a generator, ``as_generator``)."""
    (comp,) = gen.generators

    def at(node):
        return ast.copy_location(node, s.iter)

    head: list[ast.stmt] = [at(ast.If(at(ast.UnaryOp(ast.Not(), c)), [at(ast.Continue())], []))
                            for c in comp.ifs]
    head.append(at(ast.Assign([s.target], gen.elt)))
    return ast.copy_location(ast.For(comp.target, comp.iter, head + s.body, s.orelse), s)

