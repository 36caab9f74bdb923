"""Iteration: ``for`` over arrays, ranges and tuples and over ``enumerate``, ``zip`` and
``reversed`` of them; over an n-D array's elements in C order (``a.flat``,
``np.ndenumerate(a)`` with their index tuples) and over index tuples (``np.ndindex``:
numpy's ValueError for a negative dimension), each the k-th item of one counted loop,
its indices ``k``'s C-order digits (``Axes.unravel``); ``sum``, ``min``, ``max``, ``any``,
``all`` and ``math.prod`` of an array, a range or a generator expression; ``min``/``max`` with ``key=`` and
``default=``.

What a loop takes its items from is a *source*: a tuple's items (the body unrolled,
son/frontend/tuples.py), a ``range`` (its own counted loop, son/frontend/loops.py), or
a ``Counted`` sequence: a number of items fixed when the loop starts and the k-th item
built from a hidden counter k.  That is exact for 1-D arrays: their length cannot
change, and CPython's iterator reads ``a[k]`` at each step, so a write in the body is
seen by a later step; k is below the length, so the read needs no bounds guard.

A reduction or a generator expression is a loop built without statements: its body
is a callback, its state hidden variables, and the generator's targets are restored
afterwards (they are local to the generator in Python 3).  The reductions follow
CPython's builtins: ``sum`` adds left to right from ``start``; ``min``/``max`` keep
the first item and replace it by an item whose key compares ``<`` (``>``), raise
ValueError on an empty iterable unless ``default=`` is given, and call ``key`` once
per item; ``any``/``all`` stop at the first decisive item, so what follows it is never
evaluated.  O(size of the body) nodes per loop built."""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..nodes import EQ, GT, LT, Add, ArrayLen, BitAnd, BitOr, Load, Max, Min, Mul, Node, Not, Sub, kept
from ..nodes.types import NONE
from . import pylib
from .core import _is_array, _kind, array_hint, assigned_names, is_array_value, is_list
from .loops import _LoopContext
from .scope import Grid, It, Opt, Pack, Rng, View, flag

#: the reductions of an iterable son builds as loops (``len``, ``tuple``, ``bool`` need
#: a tuple: their result's shape or value is the length)
LOOP_REDUCERS = ("sum", "prod", "min", "max", "any", "all")
#: the keyword arguments each reduction takes
_KEYWORDS = {"sum": ("start",), "prod": ("start",), "min": ("key", "default"),
             "max": ("key", "default"), "any": (), "all": ()}


@dataclass
class Counted:
    """A sequence of ``count`` items, the k-th built by ``item(k)`` for a counter node k;
    ``held`` are the nodes kept while the loop over it is built (``release`` unkeeps).
    A list's items are counted as CPython's iterator counts them: ``count`` is None (or
    a bound fixed at the start) and ``alive(k)``, built at each step, says whether item
    k exists then; ``lst`` is the list when the items are exactly its items."""

    count: Node | None
    item: Callable[[Node], Node]
    held: list[Node] = field(default_factory=list)
    alive: Callable[[Node], Node] | None = None
    lst: Node | None = None
    #: the items are an iterator's: taking one advances it (son/frontend/iterators.py)
    consumes: bool = False

    def release(self) -> None:
        for n in self.held:
            n.unkeep()


class Iteration:
    """FunctionParser's iteration protocol and reductions (a mixin)."""

    # -- sources ----------------------------------------------------------------------
    def iteration_source(self, it: ast.expr) -> list[Node] | Rng | Counted:
        """What ``for _ in it`` takes its items from: a tuple's items, a ``range``, or a
        ``Counted`` sequence (kept until its ``release``)."""
        if isinstance(it, ast.Call) and not self.is_value(it.func):
            fn = self.resolve_quiet(it.func)
            if fn is range:
                return self.call_range(it)
            if fn in (enumerate, zip, reversed):
                return self._combined(it, fn)
            if fn is np.ndindex:
                return self.ndindex_source(it)
            if fn is np.ndenumerate:
                if len(it.args) != 1 or it.keywords:
                    raise self.error(it, "np.ndenumerate() takes one array", "for")
                return self.elements_source(it, self.expr_any(it.args[0]), enumerated=True)
        if isinstance(it, ast.Attribute) and it.attr == "flat" and self.is_value(it.value):
            return self.elements_source(it, self.expr_any(it.value))
        return self._value_source(it, self.expr(it))

    def elements_source(self, it: ast.expr, a: Node, enumerated: bool = False) -> Counted:
        """``a.flat`` and ``np.ndenumerate(a)`` of an array: its elements in C order (with
        their index tuples), each read when the loop reaches it."""
        if isinstance(a, Grid):
            return self.flat_items(it, a, enumerated)
        if not is_array_value(a):
            raise self.unsupported(it, f"{ast.unparse(it)} of {a.type.widen()} (son takes an array)")
        src = self.view_items(it, a) if isinstance(a, View) else self.array_items(it, a)
        if not enumerated:
            return src
        return Counted(src.count, lambda k: self._pair(self.pack([k]), lambda: src.item(k)), src.held)

    def ndindex_source(self, it: ast.Call) -> Counted:
        """``np.ndindex(*shape)`` or ``np.ndindex(shape)``: the index tuples in C order."""
        if it.keywords:
            raise self.unsupported(it, "np.ndindex() with keywords (son takes the dimensions)")
        dims: list[Node] = []
        for x in it.args:  # np.ndindex(n, m), np.ndindex(*a.shape)
            with kept(*dims):
                v = self.expr_any(x.value if isinstance(x, ast.Starred) else x)
            if isinstance(x, ast.Starred) and not isinstance(v, Pack):
                raise self.unsupported(x, "np.ndindex(*dims) of anything but a tuple")
            dims += list(v.elems) if isinstance(x, ast.Starred) else [v]
        if len(it.args) == 1 and not isinstance(it.args[0], ast.Starred) and isinstance(dims[0], Pack):
            dims = list(dims[0].elems)  # np.ndindex(a.shape)
        if any(_kind(d) not in ("int", "bool") for d in dims):
            raise self.unsupported(it, "np.ndindex() of anything but int dimensions")
        return self.index_items(it, dims)

    def _value_source(self, it: ast.expr, v: Node) -> list[Node] | Rng | Counted:
        if isinstance(v, It):
            return self.iterator_source(it, v)
        if isinstance(v, Pack):
            return v.elems
        if isinstance(v, Rng):
            return v
        if isinstance(v, View):
            return self.view_items(it, v)
        if isinstance(v, Grid):
            return self.grid_rows(it, v)
        if _is_array(v):
            return self.array_items(it, v)
        if is_list(v):
            return self.list_items(it, v)
        return self._not_iterable(it, v)

    def array_items(self, at: ast.AST, a: Node) -> Counted:
        """A 1-D array's elements, read when the loop reaches them."""
        a.keep()
        n = self.op(at, ArrayLen, a).keep()
        return Counted(n, lambda k: self.op(at, Load, self.scope.ctrl, self.scope.mem, a, k), [a, n])

    def range_items(self, at: ast.AST, r: Rng) -> Counted:
        """A range's elements: ``start + k * step`` (exact under int64 wrap-around, as the
        element itself is an int64)."""
        r.keep()
        call = ast.copy_location(ast.Call(ast.copy_location(ast.Name("range", ast.Load()), at), [], []), at)
        with kept(r):
            n = self.inline(call, pylib.range_len, list(r.elems)).keep()
        start, step = r.start, r.step
        return Counted(n, lambda k: self.op(at, Add, start, self.op(at, Mul, k, step)), [r, n])

    def counted(self, at: ast.AST, src: list[Node] | Rng | Counted) -> Counted:
        """``src`` as a counted sequence (a tuple of items refused: son unrolls tuples)."""
        if isinstance(src, Rng):
            return self.range_items(at, src)
        if isinstance(src, list):
            raise self.unsupported(at, "a tuple iterated together with an array or a range "
                                       "(son unrolls tuples and counts the others)")
        return src

    def _combined(self, it: ast.Call, fn) -> list[Node] | Counted:
        """``enumerate``, ``zip`` or ``reversed`` of sources."""
        name = fn.__name__
        if any(k.arg != "start" or fn is not enumerate for k in it.keywords):
            raise self.error(it, f"{name}() got an unsupported keyword argument", "for")
        args = it.args
        if fn is enumerate:
            if not 1 <= len(args) + len(it.keywords) <= 2 or not args:
                raise self.error(it, "enumerate() takes an iterable and a start", "for")
        elif fn is reversed:
            if len(args) != 1:
                raise self.error(it, "reversed() takes exactly one argument", "for")
            a = args[0]
            if isinstance(a, ast.Call) and not self.is_value(a.func) \
                    and self.resolve_quiet(a.func) in (enumerate, zip, reversed):
                raise self.error(a, f"'{ast.unparse(a.func)}' object is not reversible (CPython's "
                                    "TypeError)", "for")
        sources = []
        try:
            for a in (args[:1] if fn is enumerate else args):
                src = self.iteration_source(a)
                if isinstance(src, list):
                    src = self.pack(src).keep()
                elif isinstance(src, Rng):
                    src.keep()
                sources.append(src)
            if all(isinstance(s, Pack) for s in sources):
                return self._tuple_combined(it, fn, [s.elems for s in sources])
            counted = [self.counted(it, s.elems if isinstance(s, Pack) else s) for s in sources]
        finally:
            for s in sources:
                if not isinstance(s, Counted):
                    s.unkeep()
        if fn is reversed and counted[0].consumes:
            raise self.error(it, "an iterator is not reversible (CPython's TypeError)", "for")
        if fn is zip and any(c.consumes for c in counted):
            raise self.unsupported(it, "zip() of an iterator (CPython takes an item from it before it finds "
                                       "another iterable exhausted; son's zip counts)",
                                   instead="zip the iterables themselves")
        if fn is reversed:
            return self._reversed(it, counted[0])
        if fn is zip:
            return self._zipped(it, counted)
        start = self.con(0)
        if len(args) + len(it.keywords) == 2:
            with kept(*[n for c in counted for n in c.held]):
                start = self.int_value((args[1:] + [k.value for k in it.keywords])[0])
        src = counted[0]
        start.keep()
        return Counted(src.count,
                       lambda k: self._pair(self.op(it, Add, start, k), lambda: src.item(k)),
                       src.held + [start], alive=src.alive)

    def _pair(self, first: Node, second: Callable[[], Node]) -> Pack:
        with kept(first):
            return self.pack([first, second()])

    def _zipped(self, it: ast.Call, srcs: list[Counted]) -> Counted:
        """``zip``: as many items as the shortest source."""
        if not srcs:
            return Counted(self.con(0).keep(), lambda k: self.pack([]), [])
        n = None
        for s in srcs:
            if s.count is not None:
                n = s.count if n is None else self.op(it, Min, n, s.count)
        if n is not None:
            n.keep()
        lives = [s.alive for s in srcs if s.alive is not None]

        def alive(k):  # CPython's zip asks each iterator in turn: all lists still long enough
            r = lives[0](k)
            for a in lives[1:]:
                with kept(r):
                    r = self.op(it, BitAnd, r, a(k))
            return r

        def item(k):
            vals = []
            with kept(k):
                for s in srcs:
                    vals.append(s.item(k).keep())
            for v in vals:
                v.unkeep()
            return self.pack(vals)

        return Counted(n, item, [h for s in srcs for h in s.held] + ([n] if n is not None else []),
                       alive=alive if lives else None)

    def _reversed(self, it: ast.Call, src: Counted) -> Counted:
        if src.alive is not None:  # a list: from its length at the start, while the index exists
            if src.lst is None:
                raise self.error(it, "'enumerate' object is not reversible", "for")
            n = self.list_len(it, src.lst).keep()
            last = self.op(it, Sub, n, self.con(1)).keep()
            return Counted(n, lambda k: src.item(self.op(it, Sub, last, k)), src.held + [n, last],
                           alive=lambda k: src.alive(self.op(it, Sub, last, k)))
        last = self.op(it, Sub, src.count, self.con(1)).keep()
        return Counted(src.count, lambda k: src.item(self.op(it, Sub, last, k)), src.held + [last])

    def _tuple_combined(self, it: ast.Call, fn, tuples: list[list[Node]]) -> list[Node]:
        if fn is reversed:
            return list(reversed(tuples[0]))
        if fn is zip:
            return [self.pack(list(t)) for t in zip(*tuples)]
        start = 0
        if len(it.args) + len(it.keywords) == 2:
            s = self.expr((it.args[1:] + [k.value for k in it.keywords])[0])
            if not (s.type.is_constant and _kind(s) in ("int", "bool")):
                raise self.unsupported(it, "enumerate() of a tuple with a start that is not a constant int",
                                       instead="add the start to the counter in the loop")
            start = int(s.type.con)
        return [self.pack([self.con(start + j), x]) for j, x in enumerate(tuples[0])]

    def _not_iterable(self, it, v: Node | None = None):
        what = f"a {v.type.widen()} value" if v is not None else ast.unparse(it)
        raise self.unsupported(it, f"for loop over {what} (son iterates over ranges, tuples and 1-D "
                                   "arrays, and enumerate, zip and reversed of them)"
                                   + (array_hint(v) if v is not None else ""))

    # -- loops ------------------------------------------------------------------------
    def counted_loop(self, anchor: ast.AST, at: ast.AST, src: Counted, bind: Callable[[Node], None],
                     body: Callable[[], None], names: list[str]) -> None:
        """A loop over ``src``: ``bind`` the k-th item, then ``body``; ``anchor`` keys what
        failed attempts learn (a syntax node parsed once) and ``names`` are the variables
        the body may bind.  Releases ``src``."""
        if src.alive is not None:
            self._live_loop(anchor, at, src, bind, body, names)
            return
        start, step = self.con(0).keep(), self.con(1).keep()
        src.count.keep()
        self.range_loop(anchor, at, start, src.count, step, bind=lambda k: bind(src.item(k)),
                        body=body, names=names)
        src.release()

    def _live_loop(self, anchor, at, src: Counted, bind, body, names: list[str]) -> None:
        """A loop over a list's items: item k while ``src.alive(k)`` (and k is below
        ``src.count`` if there is one), tested before each step."""
        counter = self.temp()
        self.scope.set(counter, self.con(0))

        def cond():
            k = self.scope.get(counter)
            with kept(k):
                c = src.alive(k)
                if src.count is not None:
                    with kept(c):
                        c = self.op(at, BitAnd, self.op(at, LT, k, src.count), c)
            return c

        def latch():
            self.scope.set(counter, self.op(at, Add, self.scope.get(counter), self.con(1)))

        self.loop(anchor, cond, lambda: bind(src.item(self.scope.get(counter))), latch,
                  names + [counter], body)
        self.scope.remove(counter)
        src.release()

    def generator_loops(self, g: ast.GeneratorExp, on_item: Callable[[Node], None],
                        names: list[str], done: str | None, first: Counted | list[Node]) -> None:
        """Run ``on_item`` on each element of the generator expression ``g`` (``first`` the
        source of its first ``for``, evaluated where ``g`` is made), its targets local to
        it; ``on_item`` may set the hidden bool ``done`` to stop the whole generator
        (``any``/``all``)."""
        targets = [n.id for c in g.generators for n in ast.walk(c.target) if isinstance(n, ast.Name)]
        saved = {n: (self.scope.get(n), self.scope.get(flag(n)), n in self.scope.undefined)
                 for n in dict.fromkeys(targets)}
        held = [v for v, f, _ in saved.values() for v in (v, f) if v is not None]
        for v in held:
            v.keep()
        inner = assigned_names([ast.Expr(g.elt), *[ast.Expr(i) for c in g.generators for i in c.ifs]])
        loop_names = list(dict.fromkeys(names + targets + inner + ([done] if done else [])))
        outer_names = self.generator_names  # the generator's own scope: its targets
        self.generator_names = set(targets) | (outer_names or set())
        try:
            self._generator_level(g, 0, on_item, loop_names, done, first)
        finally:
            self.generator_names = outer_names
        for n, (v, f, undefined) in saved.items():
            if v is None:
                self.scope.remove(n)
                self.scope.remove(flag(n))
            else:
                self.scope.set(n, v)
                if f is not None:
                    self.scope._bind(flag(n), f)
            if undefined:
                self.scope.undefined.add(n)
        for v in held:
            v.unkeep()

    def _generator_level(self, g: ast.GeneratorExp, level: int, on_item, names, done,
                         src: Counted | list[Node] | None = None) -> None:
        comp = g.generators[level]
        if comp.is_async:
            raise self.unsupported(comp, "async comprehension")
        if src is None:
            src = self.iteration_source(comp.iter)
        if not isinstance(src, list):
            src = self.counted(comp.iter, src)

        def body():
            for cond in comp.ifs:
                test = self.condition(cond)
                t, f = self.branch(test)
                skip = self.scope.dup()
                skip.ctrl = f
                self.loops[-1].continues.append(skip)
                self.scope.ctrl = t
                self.refine(self.scope, test, True)
                if self.dead(self.scope):
                    return
            if level + 1 < len(g.generators):
                self._generator_level(g, level + 1, on_item, names, done)
            else:
                on_item(self.expr_any(g.elt))
            if done is not None and not self.dead(self.scope):
                self.break_if(self.scope.get(done))

        if isinstance(src, list):  # a tuple's items: the body once per item
            self.unrolled(src, lambda x: self.assign(comp.target, x), body)
        else:
            self.counted_loop(comp, comp.iter, src, lambda x: self.assign(comp.target, x), body, names)

    def unrolled(self, items: list[Node], bind: Callable[[Node], None], body: Callable[[], None]) -> None:
        """``bind`` then ``body`` once per item, a ``continue`` of the body joining the next
        item and a ``break`` the code after the last (a tuple iterated by a generator)."""
        breaks = []
        with kept(*items):
            for x in items:
                if self.dead(self.scope):
                    break
                bind(x)
                ctx = _LoopContext()
                self.loops.append(ctx)
                body()
                self.loops.pop()
                self.scope = self.merge([self.scope, *ctx.continues])
                breaks.extend(ctx.breaks)
        self.scope = self.merge([self.scope, *breaks])

    def break_if(self, cond: Node) -> None:
        """``if cond: break`` out of the innermost loop being built."""
        t, f = self.branch(cond)
        out = self.scope.dup()
        out.ctrl = t
        self.loops[-1].breaks.append(out)
        self.scope.ctrl = f

    def contained(self, at: ast.AST, x: Node, container: Node) -> Node:
        """``x in a`` for an array or a view (numpy's ``(a == x).any()`` on son's Python
        scalars), a range or an iterator: a loop that stops at the first equal element."""
        if is_list(container):
            return self.list_contains(at, x, container)
        if isinstance(container, Grid):  # every element, in any order: a C-order view (a copy)
            with kept(x):
                flat = self.flat_view(at, container, "'in'", any_order=True)
            with kept(flat):
                return self.contained(at, x, flat)
        if not (is_array_value(container) or isinstance(container, (Rng, It))):
            raise self.unsupported(at, f"'in' on a {container.type.widen()} value (son tests "
                                       "membership in tuples, ranges, arrays and iterators)")
        if _kind(x) is None:
            raise self.unsupported(at, "'in' of a value that is not a number")
        if isinstance(container, Rng) and _kind(x) in ("int", "bool"):  # arithmetic, as CPython
            with kept(x, container):
                call = ast.copy_location(ast.Call(ast.copy_location(ast.Name("range", ast.Load()), at),
                                                  [], []), at)
                return self.inline(call, pylib.range_contains, [*container.elems, x])

        def equal(y: Node) -> Node:  # no identity: numpy's elements and range items are new objects
            return self.compare(at, EQ, x, y)

        if isinstance(container, It) and (is_list(container.seq) or isinstance(container.seq, Pack)):
            def equal(y: Node) -> Node:  # the items themselves: CPython's identity-or-==
                return self.element_eq(at, x, y)
        with kept(x):  # an iterator's items from its position, consumed up to the one found
            src = self.counted(at, self._value_source(at, container))
        found, item = self.temp(), self.temp()
        self.scope.set(found, self.con(False))

        def body():
            eq = equal(self.scope.get(item))
            with kept(eq):
                self.scope.set(found, eq)
            self.break_if(eq)

        with kept(x):
            self.counted_loop(at, at, src, lambda v: self.scope.set(item, v), body, [found, item])
        r = self.scope.get(found)
        with kept(r):
            self.scope.remove(found)
            self.scope.remove(item)
        return r

    # -- reductions -------------------------------------------------------------------
    def reduce_iterable(self, e: ast.Call, name: str, v: Node | None = None) -> Node:
        """``name`` (one of ``LOOP_REDUCERS``) of the call's first argument, an array, a
        range, a tuple or a generator expression (``v`` its value when already evaluated),
        with the call's other arguments."""
        for k in e.keywords:
            if k.arg not in _KEYWORDS[name]:
                raise self.error(e, f"{name}() got an unsupported keyword argument {k.arg!r}", name)
        a0 = e.args[0]
        gen = self.flat_generator(a0) if isinstance(a0, ast.GeneratorExp) else None
        # CPython evaluates a generator's first iterable where the generator is made
        src = self.iteration_source(gen.generators[0].iter if gen else a0) if v is None \
            else self._value_source(a0, v)
        if isinstance(src, list) and gen is None:  # a tuple: every item is already a value
            with kept(*src):
                return self.reduce_items(e, name, src)
        if not isinstance(src, list):
            src = self.counted(a0, src)
        with kept(*(src if isinstance(src, list) else src.held)):
            reducer = _Reducer(self, e, name, self._options(e, name))
        if gen is not None:
            self.generator_loops(gen, reducer.step, reducer.names, reducer.done, first=src)
        else:
            item = self.temp()
            self.counted_loop(e, a0, src, lambda x: self.scope.set(item, x),
                              lambda: reducer.step_and_stop(self.scope.get(item)), reducer.names + [item])
            self.scope.remove(item)
        return reducer.finish()

    def call_key(self, key: ast.expr, x: Node) -> Node:
        """``key(x)`` for ``min``/``max``'s ``key=`` (any callable son can call)."""
        call = ast.copy_location(ast.Call(key, [], []), key)
        return self.call_on(call, [x], [])

    def reduce_items(self, e: ast.Call, name: str, xs: list[Node]) -> Node:
        """``name`` of values already evaluated and kept (a tuple's items, ``min(a, b,
        key=f)``'s arguments): no loop, no early stop (the items have no effects left)."""
        reducer = _Reducer(self, e, name, self._options(e, name))
        for x in xs:
            reducer.step(x)
        return reducer.finish()

    def _options(self, e: ast.Call, name: str) -> dict[str, Node]:
        """The reduction's extra arguments: ``sum``'s and ``prod``'s ``start`` (keyword or
        second positional), ``min``'s and ``max``'s ``key`` (an expression, evaluated per
        call) and ``default``."""
        out = {}
        if name in ("sum", "prod"):
            if len(e.args) > 2:
                raise self.error(e, f"{name}() takes at most 2 arguments", name)
            start = e.args[1:] + [k.value for k in e.keywords if k.arg == "start"]
            if start:
                out["start"] = self.expr(start[0]).keep()
        elif len(e.args) > 1 and name not in ("min", "max"):
            raise self.error(e, f"{name}() takes exactly one argument", name)
        for k in e.keywords:
            if k.arg == "default":
                out["default"] = self.expr_any(k.value).keep()
            elif k.arg == "key" and not (isinstance(k.value, ast.Constant) and k.value.value is None):
                out["key"] = k.value
        if name == "sum" and sys.version_info >= (3, 12):
            out["compensated"] = True
        return out


class _Reducer:
    """The state of one reduction, held in hidden variables of the parser's scope."""

    def __init__(self, p, e: ast.Call, name: str, options: dict):
        self.p, self.e, self.name, self.options = p, e, name, options
        self.acc, self.first, self.best_key = p.temp(), "%first" + p.temp(), "%key" + p.temp()
        self.best = "%best" + p.temp()
        self.done = None
        if name in ("sum", "prod"):
            self.names = [self.acc]
            start = options.get("start") or p.con(0 if name == "sum" else 1)
            p.scope.set(self.acc, start)
        elif name in ("any", "all"):
            self.done = p.temp()
            self.names = [self.acc, self.done]
            p.scope.set(self.acc, p.con(name == "all"))
            p.scope.set(self.done, p.con(False))
        else:
            self.names = [self.first, self.best, self.best_key]
            p.scope.set(self.first, p.con(True))

    def step_and_stop(self, x: Node) -> None:
        self.step(x)
        if self.done is not None and not self.p.dead(self.p.scope):
            self.p.break_if(self.p.scope.get(self.done))

    def step(self, x: Node) -> None:
        p, e = self.p, self.e
        if self.name not in ("any", "all") and (isinstance(x, Opt) or x.type is NONE):
            x = self._number(x)
        if self.name in ("sum", "prod"):
            if "compensated" in self.options and x.type.kind in ("float", "number"):
                raise p.unsupported(e, "sum() of floats (Python 3.12 sums them compensated, "
                                       "which son does not)")
            with kept(x):
                acc = p.scope.get(self.acc)
                p.scope.set(self.acc, p.arith(e, Add if self.name == "sum" else Mul, acc, x))
            return
        if self.name in ("any", "all"):
            t = p.truth(x, e)
            with kept(t):
                p.scope.set(self.acc, p.op(e, BitOr if self.name == "any" else BitAnd,
                                           p.scope.get(self.acc), t))
                p.scope.set(self.done, t if self.name == "any" else p.op(e, Not, t))
            return
        self._best(x)

    def _number(self, x: Node) -> Node:
        """An item that is or may be None: ``sum``'s and ``prod``'s TypeError where it is.
        ``min``/``max`` compare items, but not a lone one (``min([None])`` is None), so
        there it is refused where the code may run; the raw parse cannot tell dead code
        (after an inlined call, say), so there the item is read behind the TypeError."""
        p, e = self.p, self.e
        if self.name in ("min", "max") and p.peephole.enabled and not p.dead(p.scope):
            raise p.unsupported(e, f"{self.name}() of items that are or may be None")
        with kept(x):
            return p.unwrap(x, e) if isinstance(x, Opt) else p.none_operand(e, f"{self.name}() item")

    def _best(self, x: Node) -> None:
        """``min``/``max``: the first item, then an item whose key is below (above) the
        best key so far; ``key`` called once per item, as CPython calls it.  In a loop
        the best item is a variable bound first in the body (a placeholder before it)."""
        p, e = self.p, self.e
        key = self.options.get("key")
        if isinstance(x, Pack) and key is None:  # a tuple compared position by position
            raise p.unsupported(e, f"{self.name}() of tuples without a key (son compares numbers)",
                                instead=f"give one: {self.name}(xs, key=lambda t: t[0])")
        if not isinstance(x, Pack) and _kind(x) is None:
            raise p.unsupported(e, f"{self.name}() of items that are not numbers")
        with kept(x):
            kx = p.call_key(key, x) if key is not None else x
            with kept(kx):
                if _kind(kx) is None:
                    raise p.unsupported(e, f"{self.name}() with a key that does not give numbers")
                first = p.scope.get(self.first)
                old, old_key = p.scope.get(self.best), p.scope.get(self.best_key)
                if old is None or isinstance(x, Pack) and not isinstance(old, Pack):
                    # a tuple's first item; or a loop's first attempt, the best item entered
                    # as a number: the loop learns that it is a tuple and parses again
                    # (loops.py, _Tuple)
                    best, best_key = x, kx
                elif key is None:  # CPython's min(old, x) is the builtin of two values
                    best = p.op(e, Min if self.name == "min" else Max, old, x)
                    with kept(best):
                        best = best_key = p.choose(first, x, best)
                else:
                    better = p.compare(e, LT if self.name == "min" else GT, kx, old_key)
                    with kept(better):
                        better = p.op(e, BitOr, first, better)
                    with kept(better):
                        best = p.choose(better, x, old)
                        with kept(best):
                            best_key = p.choose(better, kx, old_key)
                with kept(best, best_key):
                    p.scope.set(self.best, best)
                    p.scope.set(self.best_key, best_key)
                    p.scope.set(self.first, p.con(False))

    def finish(self) -> Node:
        p, scope = self.p, self.p.scope
        for v in self.options.values():
            if isinstance(v, Node):
                v.unkeep()
        if self.name in ("sum", "prod", "any", "all"):
            v = scope.get(self.acc)
            with kept(v):
                for n in (self.acc, self.done):
                    if n is not None:
                        scope.remove(n)
            return v
        first = scope.get(self.first)
        best = scope.get(self.best)
        default = self.options.get("default")
        with kept(*[x for x in (first, best, default) if x is not None]):
            for n in (self.first, self.best, self.best_key):
                scope.remove(n)
                scope.remove(flag(n))
            if best is None:  # no item at all (an empty tuple)
                return default if default is not None else \
                    p.fault(ValueError, f"{self.name}() arg is an empty sequence")
            if default is not None:
                return p.choose(first, default, best)
            p.guard(first, ValueError, f"{self.name}() arg is an empty sequence")
            return best

