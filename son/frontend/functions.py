"""Functions as values of the parse: nested ``def``s, lambdas, closures and
higher-order calls, all inlined (the seed design, MindIR, treats a function as a value).

A function value is an ``Fn`` (son/frontend/scope.py): its ``target`` is what a call
through it runs -- a Python function or builtin read from the globals (``newton(f,
df, x0)`` with ``f`` a global function), or a ``Local``, a ``def`` nested in the
function or a ``lambda``.  A ``Local`` captures the values of the enclosing function's
variables it reads, where it is made (MindIR's value capture); they are the ``Fn``'s
elements, so a function value merges, is carried by loops and is passed to helpers
like a tuple, and it never reaches the graph.  Python's closures read a variable when
they are called, not when they are made; the two agree when the variable is bound
once, so a closure over a variable the enclosing function binds more than once is a
located error, as is one over a variable not yet bound where the function is made.

A call through an ``Fn`` inlines its target with the captured values bound (a Python
object goes through the ordinary call path: ``f = math.sin; f(x)`` is ``math.sin(x)``),
so everything downstream -- SCCP, GCM, kernels, both gradient modes -- sees straight-line
code.  ``map(f, t)`` over tuples is the tuple of the calls; ``functools.reduce(f, t[,
init])`` their left fold.  A nested ``def`` that calls itself is lambda-lifted (``lift``:
its captured values become parameters after its own) and parsed into a graph of its own
like a module function that calls itself (son/frontend/recursion.py); a lambda cannot
name itself, and a nested function that reads its own name other than to call it is a
located error.
O(size of the inlined bodies) nodes per call, as any inlined call.
"""

from __future__ import annotations

import ast
import copy
import functools
from dataclasses import dataclass

from ..nodes import Node, kept
from ..nodes.types import ListType
from .core import assigned_names, is_array_value
from .scope import Fn, Pack
from .source import FunctionSource, parameter_names, parameters_bound


@dataclass(eq=False)
class Local:
    """A nested ``def`` or a ``lambda``: its source (names resolved as the enclosing
    function's) and the names of the enclosing variables it captures, in order.

    A nested ``def`` that calls itself has ``lifted``: the same function with its captured
    variables as extra parameters after its own (lambda lifting), whose calls of itself
    pass them on (``lift``); son parses it into a graph of its own, as a module function
    that calls itself.  ``origin`` is the ``def`` of the user's syntax tree, the same in
    every parse (a ``Local`` is made anew each time its ``def`` is parsed): the key of
    its graph."""

    src: FunctionSource
    captured: tuple[str, ...]
    origin: ast.AST | None = None
    lifted: Local | None = None

    @property
    def __name__(self) -> str:  # noqa: A003 - read like a function's, in messages
        return self.src.tree.name


def function_key(fn):
    """What identifies function ``fn`` across the parses of one function: a Python
    function itself, a nested function's ``def``."""
    return fn.origin if isinstance(fn, Local) and fn.origin is not None else fn


def lift(local: Local) -> Local:
    """``local`` (a nested ``def`` that calls itself) with its captured variables as
    parameters after its own, passed on by keyword at each call of itself by name; its
    defaults stay with its own parameters.  O(size of the body)."""
    fdef = copy.deepcopy(local.src.tree)
    fdef.args.args += [ast.copy_location(ast.arg(c), fdef) for c in local.captured]
    for n in ast.walk(fdef):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == fdef.name:
            n.keywords += [ast.copy_location(ast.keyword(c, ast.copy_location(ast.Name(c, ast.Load()), n)), n)
                           for c in local.captured]
    s = local.src
    defaults = s.defaults + (None,) * len(local.captured) if s.defaults else ()
    src = FunctionSource(fdef, s.filename, s.line0, s.col0, s.globals, s.closure, defaults,
                         kwdefaults=s.kwdefaults)
    lifted = Local(src, (), local.origin)
    src.pyfunc = lifted
    return lifted


def _free_names(fdef: ast.FunctionDef | ast.Lambda) -> list[str]:
    """Names ``fdef``'s body reads and does not bind (its parameters, its assignments), in
    order of first appearance.  O(size of the body)."""
    body = fdef.body if isinstance(fdef.body, list) else [fdef.body]
    own = parameters_bound(fdef.args) | set(assigned_names(body))
    out: dict[str, None] = {}
    for s in body:
        for n in ast.walk(s):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in own:
                out[n.id] = None
    return list(out)


def _binding_counts(body: list[ast.stmt]) -> dict[str, int]:
    """How many places bind each name in a function body (assignments, loop targets,
    ``def``s), not looking into nested functions' bodies.  O(size of the body)."""
    counts: dict[str, int] = {}
    stack: list[ast.AST] = list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            counts[n.id] = counts.get(n.id, 0) + 1
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            counts[n.name] = counts.get(n.name, 0) + 1
            continue
        if isinstance(n, ast.Lambda):
            continue
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            counts[n.target.id] = counts.get(n.target.id, 0) + 1
        stack.extend(ast.iter_child_nodes(n))
    return counts


def _only_called(fdef: ast.FunctionDef, at: ast.AST, parser) -> None:
    """A nested function that calls itself reads its own name only to call it (its lifted
    form passes its captured values at those calls): a located error otherwise."""
    calls = {id(n.func) for n in ast.walk(fdef) if isinstance(n, ast.Call)}
    for n in ast.walk(fdef):
        if isinstance(n, ast.Name) and n.id == fdef.name and id(n) not in calls:
            raise parser.error(n, f"{fdef.name}() reads its own name other than to call it (son parses a "
                                  "nested function that calls itself into a graph of its own, which "
                                  "cannot be a value in its own body)", "recursion")


class Functions:
    """FunctionParser's function values (a mixin)."""

    def stmt_FunctionDef(self, s: ast.FunctionDef):
        if s.decorator_list:
            raise self.unsupported(s.decorator_list[0], "a decorator on a nested function",
                                   instead="define it without one")
        self.scope.set(s.name, self.make_local(s, s))

    def expr_Lambda(self, e: ast.Lambda):
        fdef = ast.FunctionDef(name="<lambda>", args=e.args, body=[ast.Return(e.body)], decorator_list=[],
                               returns=None, type_comment=None)
        ast.copy_location(fdef, e)
        ast.copy_location(fdef.body[0], e.body)
        return self.make_local(fdef, e)

    def make_local(self, fdef: ast.FunctionDef, at: ast.AST) -> Fn:
        """The ``Fn`` of a nested ``def`` or a lambda, capturing the enclosing variables it
        reads (their values here)."""
        a = fdef.args
        if a.kwarg:
            raise self.unsupported(at, "a **kwargs parameter of a nested function",
                                   instead="give it named parameters")
        defaults, kwdefaults = [], {}
        for d, p in [(d, None) for d in a.defaults] + list(zip(a.kw_defaults, a.kwonlyargs)):
            if d is None:
                continue  # a keyword-only parameter without a default
            try:
                value = ast.literal_eval(d)
            except ValueError:
                raise self.unsupported(d, "a default value of a nested function that is not a "
                                          "literal", instead="pass the value as an argument") from None
            if p is None:
                defaults.append(value)
            else:
                kwdefaults[p.arg] = value
        counts = self._bindings()
        enclosing = self.local_names
        captured, values = [], []
        recursive = False
        own_free = None
        for name in _free_names(fdef):
            if name not in enclosing:
                if own_free is None:
                    own_free = set(_free_names(self.src.tree)) if hasattr(self.src.tree, "args") else set()
                if name not in own_free or self.scope.get(name) is None:
                    continue  # a global, a builtin or a closure cell: read as the function's
                # else a value this (nested) function captured itself, captured again: a
                # function two levels in reads the outermost one's local
            if isinstance(at, ast.FunctionDef) and name == fdef.name:
                recursive = True  # it calls itself: lifted below
                continue
            if counts.get(name, 0) + (name in self._params()) > 1:
                raise self.error(at, f"{fdef.name}() reads {name!r}, which {self.src.name}() binds more "
                                     "than once; son captures a variable's value where the function is "
                                     "made (Python reads it at the call): bind it once", "closure")
            v = self.scope.get(name)
            if v is None:
                raise self.error(at, f"{fdef.name}() reads {name!r}, which is not bound where the "
                                     "function is made", "closure")
            captured.append(name)
            values.append(v)
        src = FunctionSource(fdef, self.src.filename, self.src.line0, self.src.col0, self.src.globals,
                             self.src.closure, tuple(defaults), kwdefaults=kwdefaults)
        local = Local(src, tuple(captured), at)
        src.pyfunc = local  # the recursion check compares the inlining stack's functions
        if recursive:
            if a.vararg:
                raise self.unsupported(a.vararg, f"*args of {fdef.name}(), a nested function that calls "
                                                 "itself", instead="pass a tuple")
            _only_called(fdef, at, self)
            local.lifted = lift(local)
        return Fn(self.g, (local,), *values)

    def _bindings(self) -> dict[str, int]:
        counts = getattr(self, "_binding_memo", None)
        if counts is None:
            counts = self._binding_memo = _binding_counts(self.src.tree.body)
        return counts

    def _params(self) -> set[str]:
        return parameters_bound(self.src.tree.args)

    def call_value(self, e: ast.Call, f: Fn) -> Node:
        """``e``, a call whose callee is the function value ``f``: its target inlined, or
        for a value that is one of several functions, a test of the selector per target
        (the arguments evaluated once, before)."""
        if len(f.targets) > 1:
            return self.call_chosen(e, f)
        (t,) = f.targets
        if isinstance(t, Local) and t.lifted is not None:  # its captured values as arguments
            with kept(f):
                vals = [v for _, v in self.bind_arguments(e, t, t.src, None)]
            npos = len(t.src.tree.args.posonlyargs) + len(t.src.tree.args.args)  # captured go after these
            with kept(*vals):
                return self.inline(e, t.lifted, vals[:npos] + list(f.elems) + vals[npos:],
                                   env=[(t.__name__, Fn(self.g, (t.lifted,)))])
        if isinstance(t, Local):
            with kept(f):
                return self.inline(e, t, env=list(zip(t.captured, f.elems)))
        return self.call_object(e, t, ast.unparse(e.func))

    def call_chosen(self, e: ast.Call, f: Fn) -> Node:
        """``T0(args) if S == id0 else T1(args) if ...``, each ``Ti`` the function value of
        one target with its captured values, ``S`` the selector."""
        with kept(f):
            vals = self.exprs(e.args, any_value=True)
        names: list[str] = []
        with kept(f, *vals):
            for v in [f, *vals, *(Fn(self.g, (t,), *f.captures(i)) for i, t in enumerate(f.targets))]:
                names.append(self.temp())
                self.scope.set(names[-1], v)
        fname, args, singles = names[0], names[1:1 + len(vals)], names[1 + len(vals):]

        def name(n):
            return ast.copy_location(ast.Name(n, ast.Load()), e)

        sel = ast.copy_location(ast.Attribute(name(fname), "$selector", ast.Load()), e)
        expr = ast.copy_location(ast.Call(name(singles[-1]), [name(a) for a in args], e.keywords), e)
        for t, single in zip(reversed(f.targets[:-1]), reversed(singles[:-1])):
            test = ast.copy_location(ast.Compare(sel, [ast.Eq()], [ast.Constant(self.target_id(t))]), e)
            call = ast.copy_location(ast.Call(name(single), [name(a) for a in args], e.keywords), e)
            expr = ast.copy_location(ast.IfExp(test, call, expr), e)
        try:
            return self.expr_any(expr)
        finally:
            for n in names:
                self.scope.remove(n)

    def target_id(self, target) -> int:
        """The selector value that stands for ``target`` in this parse (one numbering for
        the function and every helper inlined into it)."""
        ids = self.learned.setdefault("function ids", {})
        return ids.setdefault(id(target), (len(ids), target))[0]

    def unified_functions(self, vals: list[Node], live: list[bool]) -> list[Node] | None:
        """``vals`` with every function value widened to the union of their targets, when
        function values of different targets meet at a merge (and nothing but them and
        values of dead paths); else None.  O(values * targets)."""
        fns = [v for v in vals if isinstance(v, Fn)]
        if len(fns) < 2 or all(f.merges_with(fns[0]) for f in fns) or not all(
                isinstance(v, Fn) or not ok for v, ok in zip(vals, live)):
            return None
        union: list = []
        for f in fns:
            union.extend(t for t in f.targets if not any(t is u for u in union))
        out = []
        for v in vals:
            out.append(self.widened_function(v, union, fns) if isinstance(v, Fn) else v)
            if out[-1] is None:
                return None
        return out

    def widened_function(self, f: Fn, union: list, fns: list[Fn]) -> Fn | None:
        """``f`` as a value of the targets ``union``: its selector (the id of its one
        target), its captured values, and placeholders of the others' kinds (constants,
        so valid on any path; None where one is an array)."""
        elems = [f.selector if f.selector is not None else self.con(self.target_id(f.targets[0]))]
        for t in union:
            mine = next((i for i, u in enumerate(f.targets) if u is t), None)
            if mine is not None:
                elems.extend(f.captures(mine))
                continue
            theirs = [g.captures(next(i for i, u in enumerate(g.targets) if u is t))
                      for g in fns if any(u is t for u in g.targets)]
            for k in range(len(getattr(t, "captured", ()))):
                p = self.placeholder([c[k] for c in theirs])
                if p is None:
                    return None
                elems.append(p)
        return Fn(self.g, tuple(union), *elems)

    def callee_value(self, e: ast.Call) -> Fn | None:
        """The function value ``e`` calls, when its callee is an expression of the function
        (a local variable, a subscript, a call, a lambda), else None (a global name or a
        module attribute: resolved as the function's global)."""
        f = e.func
        if isinstance(f, ast.Name) and not (self.scope.get(f.id) is not None or f.id in self.local_names):
            return None
        if isinstance(f, ast.Attribute):
            return None
        v = self.expr_any(f)
        if not isinstance(v, Fn):
            hint = ""
            if isinstance(f, ast.Name) and f.id in parameter_names(self.src.tree):
                hint = ("; a parameter that is a function is built for the function passed: give an "
                        "example one, son.parse(fn, args=(...)), or call the son.jit function with it")
            raise self.error(e, f"{ast.unparse(f)!r} is not a function (son calls functions and the "
                                f"builtins it knows{hint})", "call")
        return v

    def call_map(self, e: ast.Call, name: str) -> Node:
        """``map(f, t1, t2...)`` over tuples: the tuple of the calls (it is as long as the
        shortest, as ``zip``)."""
        if len(e.args) < 2 or e.keywords:
            raise self.error(e, "map() takes a function and one or more tuples", name)
        f, *ts = self.exprs(e.args, any_value=True)
        with kept(f, *ts):
            if not isinstance(f, Fn) or not all(isinstance(t, Pack) for t in ts):
                raise self.unsupported(e, "map() of other than a function and tuples (son maps over "
                                          "tuples, which it unrolls)")
            n = min(len(t.elems) for t in ts)
            out = []
            try:
                for i in range(n):
                    out.append(self.call_with(e, f, [t.elems[i] for t in ts]).keep())
            finally:
                for v in out:
                    v.unkeep()
            return self.pack(out)

    def as_generator(self, it: ast.expr) -> ast.GeneratorExp | None:
        """``map(f, xs, ...)`` or ``filter(p, xs)`` (``filter(None, xs)``) where something
        iterates it (a reduction, ``list``, ``sorted``, a ``for``): the generator expression
        that yields the same items, ``(f(x0, x1) for x0, x1 in zip(xs, ys))`` or ``(x0 for x0
        in xs if p(x0))``, a map or filter of a map or filter one generator (not a filter of
        a map, whose items it would compute twice); None for any other expression.  Only
        where ``f`` is a name, a module attribute or a lambda, whose value cannot change
        while the items are made, so evaluating it per item is evaluating it once.
        O(size of ``it``)."""
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and not it.keywords
                and len(it.args) >= 2 and not any(isinstance(a, ast.Starred) for a in it.args)):
            return None
        if self.is_value(it.func):
            return None  # a local named map
        fn = self.resolve_quiet(it.func)
        f, *its = it.args
        if fn is filter and len(its) == 1 and isinstance(f, ast.Constant) and f.value is None:
            test = None
        elif (fn is map or fn is filter and len(its) == 1) and isinstance(
                f, (ast.Name, ast.Attribute, ast.Lambda)):
            test = f
        else:
            return None
        if len(its) > 1 and self.resolve_quiet(ast.Name("zip", ast.Load())) is not zip:
            return None

        def at(node):
            return ast.copy_location(node, it)

        inner = self.as_generator(its[0]) if len(its) == 1 else None
        if inner is not None:  # map(f, map(g, xs)), filter(p, filter(q, xs)): one generator
            (comp,) = inner.generators
            if fn is map:
                return at(ast.GeneratorExp(at(ast.Call(f, [inner.elt], [])), inner.generators))
            if not isinstance(inner.elt, ast.Name):
                return None  # a filter of a map would compute each item twice
            test = inner.elt if test is None else at(ast.Call(test, [inner.elt], []))
            return at(ast.GeneratorExp(inner.elt, [ast.comprehension(comp.target, comp.iter,
                                                                     comp.ifs + [test], 0)]))
        names = [self.temp() for _ in its]
        load = [at(ast.Name(n, ast.Load())) for n in names]
        target = at(ast.Name(names[0], ast.Store())) if len(its) == 1 else at(
            ast.Tuple([at(ast.Name(n, ast.Store())) for n in names], ast.Store()))
        source = its[0] if len(its) == 1 else at(ast.Call(at(ast.Name("zip", ast.Load())), its, []))
        if fn is map:
            elt, ifs = at(ast.Call(f, load, [])), []
        else:
            elt, ifs = load[0], [load[0] if test is None else at(ast.Call(test, [load[0]], []))]
        return at(ast.GeneratorExp(elt, [ast.comprehension(target, source, ifs, 0)]))

    def flat_generator(self, g: ast.GeneratorExp) -> ast.GeneratorExp:
        """``g`` with each ``for T in map(f, xs) if c`` among its generators written as the
        generator ``as_generator`` makes of the map or filter, then ``for T in (elt,) if
        c`` (a 1-tuple, unrolled: ``T`` bound once per item); ``g`` itself where none is.
        O(size of ``g``)."""
        comps: list[ast.comprehension] = []
        changed = False
        for comp in g.generators:
            inner = self.as_generator(comp.iter) if not comp.is_async else None
            if inner is None:
                comps.append(comp)
                continue
            changed = True
            one = ast.copy_location(ast.Tuple([inner.elt], ast.Load()), comp.iter)
            comps += [*inner.generators, ast.comprehension(comp.target, one, comp.ifs, 0)]
        return ast.copy_location(ast.GeneratorExp(g.elt, comps), g) if changed else g

    def call_reduce(self, e: ast.Call, name: str) -> Node:
        """``functools.reduce(f, t[, initial])`` over a tuple (the left fold, unrolled), a
        1-D array or a list (a loop, ``reduce_items``); CPython's TypeError for an empty
        one without ``initial`` where it is reached."""
        if not 2 <= len(e.args) <= 3 or e.keywords:
            raise self.error(e, "reduce() takes a function, a tuple and an optional initial value", name)
        f, t, *init = self.exprs(e.args, any_value=True)
        with kept(f, t, *init):
            if isinstance(f, Fn) and (is_array_value(t) or isinstance(t.type, ListType)):
                # an array or a list: the fold as a loop over its items
                return self.inline(e, reduce_items, [f, t, *init]) if init else \
                    self.inline(e, reduce_items_no_initial, [f, t])
            if not isinstance(f, Fn) or not isinstance(t, Pack):
                raise self.unsupported(e, "reduce() of other than a function and a tuple, array or list",
                                       instead="write the fold as a for loop")
            items = init + list(t.elems)
            if not items:
                return self.fault(TypeError, "reduce() of empty iterable with no initial value")
            acc = items[0].keep()
            try:
                for x in items[1:]:
                    nxt = self.call_with(e, f, [acc, x]).keep()
                    acc.unkeep()
                    acc = nxt
            finally:
                acc.unkeep()
            return acc

    def call_with(self, e: ast.Call, f: Fn, vals: list[Node]) -> Node:
        """A call of ``f`` on values already evaluated (``map``, ``reduce``): ``call_on``
        with the function value bound to a temporary the call names."""
        fname = self.temp()
        self.scope.set(fname, f)
        call = ast.copy_location(ast.Call(ast.copy_location(ast.Name(fname, ast.Load()), e), [], []), e)
        v = self.call_on(call, vals, [], any_value=True)
        with kept(v):
            self.scope.remove(fname)
        return v


#: callee -> handler(parser, call, name as written)
FUNCTION_CALLS: dict = {
    map: lambda p, e, n: p.call_map(e, n),
    functools.reduce: lambda p, e, n: p.call_reduce(e, n),
}



# ---------------------------------------------------------------- inlined (son's Python)
def reduce_items(f, xs, acc):
    """``functools.reduce(f, xs, acc)`` of an array or a list."""
    for x in xs:
        acc = f(acc, x)
    return acc


def reduce_items_no_initial(f, xs):
    """``functools.reduce(f, xs)``: its first item, then the fold of the others."""
    if len(xs) == 0:
        raise TypeError("reduce() of empty iterable with no initial value")
    acc = xs[0]
    for i in range(1, len(xs)):
        acc = f(acc, xs[i])
    return acc
