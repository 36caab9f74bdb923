"""Recursion: a call of the function being compiled, from its body or from a helper
inlined into it, is a ``Call`` node (son/nodes/memory.py) instead of an inlining; so
is every call of a helper that calls itself (a module function): that helper is parsed
into a graph of its own, once per kinds of its arguments, the call's ``target``.

The call's arguments must have the kinds of the function's parameters (the graph
has one parameter type each: ``f(n - 1)`` for ``n: int``, an array for an array), and
its result is typed by an assumption the whole parse then checks: a first parse types
it TOP (no value yet), so the returns that are not calls give the kind to assume; a
parse whose returns do not fit its assumption starts again under their meet
(``son/frontend/parser.py``, at most five parses, as loops are parsed again).  A result
is a number, a flat tuple of numbers, a 1-D array of one dtype (a fresh array or one
the call was given, the object itself in the interpreter and in a kernel, so writes
through the result reach the argument as in CPython), or a view, 1-D or n-D: its values
(base, start, a 1-D view's length and step, an n-D one's dimensions and strides, below)
given back as a tuple typed ``(array, int, ...)`` (``view_result``), which
``_call_value`` binds to a ``View`` or a ``Grid`` of the call's outputs, so writes
through it reach the base and reads see its elements as numpy's (a fresh 1-D array
meeting a view on another path is the view of all of itself, ``view_of_whole``; an n-D
array is always a ``Grid``); ``may_alias`` (scope.py) counts a
call's result as possibly any other array, the caller's new ones included, and memory is
ordered around the call by its ``CallMem``.  Derivatives through a call that
returns an array are refused (son/grad/forward.py).
A helper is found recursive while it is being inlined (it is on the inlining stack
again): the parse stops (``SeparateHelper``) and starts again with the helper in
``learned[SEPARATE]``, whose calls are then parsed by ``separate_call``.  The graphs
of one top-level parse form its *module*: a dict from (helper, parameter types) to
graph, so each helper is parsed once per signature however often the caller is parsed
again; a cycle between two separate helpers' graphs is refused.

A nested ``def`` that calls itself is parsed the same way in its lifted form (its
captured values as parameters, son/frontend/functions.py ``lift``), keyed by its ``def``
(``function_key``), since the parse makes its ``Local`` anew each time.  Under
``son.parse(..., inline=False)`` every call of a module function of the user's is such
a call where it can be (``kept_call``).  What is refused, with a located error: a
function whose parameters or result are tuples, complex numbers or values that may be
None, or of several kinds on different paths
(arrays of two dtypes), and arguments of other kinds than the parameters' that no
graph of another signature can take (the compiled entry function's own parameters, a
tuple).  A nested ``def`` that calls itself with other kinds (a view of the array it was
given) gets a graph of that signature, as a module function does: its lifted form is
parsed again, keyed by its ``def``.

A 1-D array view (``rec(a[:m])``, ``a[::-1]``, a row or a column of a 2-D array) is
passed as its four values, never as a numpy view: the base array, the start, the
length and the step.  The callee's graph is parsed for a ``ViewSpec`` of the dtype
(signature.py) whose four parameters parser.py ``_bound`` makes a ``View`` (form
``VIEW``, ``grid_form(1)``, in ``Graph.arg_forms``), so the callee reads and writes the
caller's base array through the frontend's own view indexing and every stage below it
sees an array and three ints: the kernel needs no non-contiguous array type, and
writes reach the caller through the base array and ``CallMem`` as for a whole array.
A view and a whole array are two signatures (two graphs); a call of a graph of a view
with a whole array passes the view of all of it.  An n-D array or view (a ``Grid``) is
passed the same way as its base, start, dimensions and strides (``ViewSpec(dtype,
ndim)``, form ``grid_form(ndim)``), bound to a ``Grid`` in the callee; the compiled
function's own n-D parameter (C-contiguous, ``array_form``) takes no view, so its call
with one is a call of the graph of that view signature.
O(arguments) per call, plus one parse of each separate helper per signature."""

from __future__ import annotations

import ast
import contextlib
import contextvars

from ..errors import SonSyntaxError
from ..nodes import Call, CallMem, CallOut, Node, Return, kept
from ..nodes.control import (
    LEAF,
    NONE_ARG,
    FunctionForm,
    GlobalForm,
    form_ndim,
    form_size,
    function_digest,
    grid_form,
)
from ..nodes.types import INT, NONE, NUMBER, TOP, XCTRL, ArrayType, ListType, TupleType
from .functions import Local, function_key
from .names import SEPARATE_PARSE
from .scope import Aggregate, Fn, Grid, Pack, Strided, View, describe, shape
from .signature import ViewSpec
from .source import source_of

#: the form of a view parameter: its base array, start, length and step (parser.py)
VIEW = grid_form(1)

#: the key of ``FunctionParser.learned`` under which the parse keeps what it assumed of
#: a recursive call's result, and whether it made one
RESULT, USED = "recursion result", "recursion used"
#: the key of ``learned`` holding the helpers parsed into graphs of their own
SEPARATE = "separate helpers"

#: the module of the top-level parse in progress: (helper, parameter types) -> its graph
#: (None while it is being parsed)
_MODULE: contextvars.ContextVar[dict | None] = contextvars.ContextVar("son_module", default=None)
#: does the top-level parse in progress inline the calls of the user's helpers (the
#: default), or keep each as a ``Call`` of the helper's graph where it can (``inline=False``)?
_INLINE: contextvars.ContextVar[bool] = contextvars.ContextVar("son_inline", default=True)


#: what the module holds for a helper whose calls are inlined under ``inline=False``
_INLINED = "inlined"


class SeparateHelper(Exception):  # noqa: N818 - a signal to parse again, not an error
    """Raised by a parse that found helper ``fn`` on its inlining stack again: the parse
    starts over with ``fn`` parsed into a graph of its own (``learned[SEPARATE]``)."""

    def __init__(self, fn):
        super().__init__(getattr(fn, "__name__", "helper"))
        self.fn = fn


@contextlib.contextmanager
def module_scope(inline: bool = True):
    """The module of the outermost parse: entered by ``build_graph``; a nested parse (a
    separate helper's) shares its caller's, and its ``inline``."""
    if _MODULE.get() is not None:
        yield
        return
    token, inlining = _MODULE.set({}), _INLINE.set(inline)
    try:
        yield
    finally:
        _MODULE.reset(token)
        _INLINE.reset(inlining)


class Recursion:
    """FunctionParser's recursive calls (a mixin)."""

    def recursive_call(self, e: ast.Call, fn, vals: list[Node] | None) -> Node:
        name = getattr(fn, "__name__", "function")
        if fn is not self.stack[0]:
            if isinstance(fn, Local) and fn.origin is None:
                raise self.error(e, f"recursive call to {name}(), a lambda (son parses functions that "
                                    "call themselves into graphs of their own: write it with def)",
                                 "recursion")
            raise SeparateHelper(fn)
        forms = self.g.arg_forms
        if forms is not None and not all(f in (LEAF, NONE_ARG) or is_view_form(f) or _is_array_form(f)
                                         or isinstance(f, (FunctionForm, GlobalForm)) for f in forms):
            raise self.error(e, f"recursive call to {name}(), whose parameters are tuples or "
                                "complex numbers (son passes recursive calls single values, arrays "
                                "and their views)", "recursion")
        bound = self.bind_arguments(e, fn, fn.src if isinstance(fn, Local) else source_of(fn), vals)
        pforms = [LEAF] * len(bound)
        if forms is not None:  # a function parameter: the graph's own function, passed on
            for (p, v), f in zip(bound, forms):
                if isinstance(f, FunctionForm) and not (isinstance(v, Fn) and len(v.targets) == 1 and
                                                        function_digest(v.targets[0]) == f.digest):
                    raise self.error(e, f"recursive call to {name}() passes another function as {p!r} "
                                        f"than the {f.digest.split()[1]} it was built for", "recursion")
            pforms = [f for f in forms[:len(bound)] if not isinstance(f, FunctionForm)]
            bound = [b for b, f in zip(bound, forms) if not isinstance(f, FunctionForm)]
        types, k = [], 0  # each parameter's type: a view's is its base's
        for f in pforms:
            types.append(NONE if f == NONE_ARG else self.g.params[k][1])  # None: no parameter
            k += form_size(f)
        fit = [_fits_form(v, f, t) for (_p, v), f, t in zip(bound, pforms, types)]
        if not all(fit) and \
                all(not isinstance(v, Aggregate) or _view_kind(v) is not None for _, v in bound):
            return self.separate_call(e, fn, vals)  # other kinds: the graph of that signature
        args = []
        for (p, v), f, t, ok in zip(bound, pforms, types, fit):
            if not ok:
                what = describe(shape(v)) if isinstance(v, Aggregate) else str(v.type.widen())
                kind = t if f in (LEAF, NONE_ARG) else f"an array of {form_ndim(f)} dimensions of {t}"
                raise self.error(e, f"recursive call to {name}() passes {what} as {p!r}, which is "
                                    f"{kind} (a compiled function has one type per parameter)",
                                 "recursion")
            if f == NONE_ARG:  # the graph's constant None: nothing passed
                continue
            if f == LEAF:
                args.append(v)
            elif v.type is TOP:  # a view only on a path the types prove dead
                return self.dead_value()
            else:
                args += _view_values(self.view_of_whole(v) if not isinstance(v, Strided) else v)
        if forms is not None:  # the global arrays it reads: its own parameters, passed on
            n = len(self.g.params) - sum(form_size(f) for f in forms if isinstance(f, GlobalForm))
            args += [self.g.param(i) for i in range(n, len(self.g.params))]
        self.learned[USED] = True
        result = self.learned.get(RESULT, INT)  # TOP in the first parse: see parser.py
        with kept(*args):
            call = self.op(e, Call, self.scope.ctrl, self.scope.mem, *args, result=result)
        return self._call_value(e, call)

    def kept_call(self, e: ast.Call, fn, bound: list[tuple[str, Node]]) -> Node | None:
        """Under ``son.parse(..., inline=False)``, the call ``e`` of the user's module
        function ``fn`` with its parameters ``bound`` as a ``Call`` of its graph
        (``separate_call``); None where the call is inlined: the default, son's own helpers
        (pylib, numpy's functions written in Python), nested functions and lambdas (they
        capture values), and a call whose arguments or result a graph cannot pass (tuples,
        ``*args``, complex numbers, values that may be None, functions)."""
        if _INLINE.get() or isinstance(fn, Local) or getattr(fn, "__module__", "").startswith("son."):
            return None
        if any(isinstance(v, Aggregate) or _kind_of(v) in (None, TOP) for _, v in bound):
            return None
        kinds = tuple(_kind_of(v) for _, v in bound)
        if _MODULE.get().get((fn, kinds), ()) is _INLINED:
            return None
        try:
            return self.separate_call(e, fn, [v for _, v in bound], only_kept=True)
        except SonSyntaxError:  # what its graph cannot give back; an error of the body recurs inlined
            _MODULE.get()[(fn, kinds)] = _INLINED
            return None

    def _call_value(self, e: ast.Call, call: Node):
        """The value of ``call`` (a tuple of its values where it gives several), the
        scope's memory after it."""
        with kept(call):
            self.scope.mem = self.op(e, CallMem, call)
            if not isinstance(call.result, TupleType):
                return call
            outs = []
            for i in range(len(call.result.elems)):
                with kept(*outs):
                    outs.append(self.op(e, CallOut, call, index=i))
            if is_view_result(call.result) and len(outs) == 4:  # base, start, length, step
                return View(self.g, outs[0], outs[1], outs[3], outs[2])
            if is_view_result(call.result):  # base, start, dimensions, strides
                return Grid(self.g, *outs)
            return Pack(self.g, *outs)

    def separate_call(self, e: ast.Call, fn, vals: list[Node] | None, only_kept: bool = False) -> Node:
        """A call of helper ``fn``, which calls itself, as a ``Call`` of its own graph,
        parsed for the kinds of the call's arguments (widened: an int, a float, a bool,
        an array or a list of a dtype, None); also a call of the function being parsed
        with arguments of other kinds than its parameters' (a graph per signature).
        ``only_kept``: a call kept only because ``inline=False`` asks for it, refused
        (``SonSyntaxError``) where the callee never returns: inlined, it tells the caller
        that the code after it is dead, which a call typed by no Return cannot."""
        name = getattr(fn, "__name__", "function")
        src = fn.src if isinstance(fn, Local) else source_of(fn)
        bound = self.bind_arguments(e, fn, src, vals)
        kinds = []
        for p, v in bound:
            t = _view_kind(v) if isinstance(v, Aggregate) else _kind_of(v)
            if t is None:
                what = describe(shape(v)) if isinstance(v, Aggregate) else str(v.type)
                raise self.error(e, f"call of {name}(), which calls itself, passes {what} as {p!r} "
                                    "(son passes a recursive helper single numbers, arrays, "
                                    "their views and lists)", "recursion")
            kinds.append(t)
        if any(t is TOP for t in kinds):
            return self.dead_value()  # an argument only on a path the types prove dead
        callee, result = self.module_graph(e, fn, src, tuple(kinds))
        if only_kept and not any(type(r) is Return and r.inputs[0].type is not XCTRL
                                 for r in callee.stop.inputs):
            raise self.error(e, f"{name}() never returns", "recursion")
        args = [x for _, v in bound for x in (_view_values(v) if isinstance(v, Strided) else
                                               [] if v.type is NONE and not isinstance(v, Aggregate)
                                               else [v])]  # None: the callee's constant, no parameter
        with kept(*args):
            call = self.op(e, Call, self.scope.ctrl, self.scope.mem, *args, result=result, target=callee)
        return self._call_value(e, call)

    def module_graph(self, e: ast.Call, fn, src, kinds: tuple):
        """The graph of helper ``fn`` for parameter types ``kinds`` in this parse's module
        and the type of its result, parsed on first use."""
        from .parser import _result_type, _widen, build_graph

        module = _MODULE.get()
        key = (function_key(fn), kinds)
        if key in module and module[key] is not _INLINED:
            if module[key] is None:
                raise self.error(e, f"{fn.__name__}() is called back from a helper it calls that "
                                    "calls itself too (son parses each recursive helper into its own "
                                    "graph and does not link such cycles yet): merge the two into one "
                                    "recursive function", "recursion")
            return module[key]
        module[key] = None
        deps = [] if self.deps is not None else None
        token = SEPARATE_PARSE.set(True)  # no global arrays in its parameters: names.py
        try:
            g = build_graph(src, self.peephole.enabled, argtypes=list(kinds), deps=deps,
                            rules=self.peephole.rules)
        except SonSyntaxError:
            del module[key]
            raise
        finally:
            SEPARATE_PARSE.reset(token)
        if deps is not None:  # the callee's reads, seen from the caller
            at = self.path + (ast.unparse(e.func),)
            self.deps.extend((at + p, n, v) for p, n, v in deps)
        result = _result_type(g, src, self.peephole.enabled)
        # the kind, never a constant: a call runs for what it writes and raises, and the
        # callee's graph is optimized further (a return of -1 on the only path that returns)
        module[key] = (g, INT if result is None else _widen(result))
        g.result = module[key][1]
        return module[key]


def view_result(rets: list[list[Node]], src, size: int = 4) -> TupleType:
    """The result type of a function whose every live Return gives a view (form
    ``grid_form(k)``, ``size`` values: a 1-D one's base, start, length and step, an n-D
    one's base, start, dimensions and strides, ``rets``): the tuple of the base's array
    type and ints, which ``is_view_result`` tells from a flat tuple of numbers; a
    ``SonSyntaxError`` for views of arrays of several dtypes."""
    base = TOP
    for r in rets:
        base = base.meet(r[0].type)
    if base is not TOP and not isinstance(base, ArrayType):
        raise SonSyntaxError(f"{src.name}() calls itself and returns views of arrays of several dtypes "
                             "(son's recursive calls give a view of one dtype)", src.filename,
                             src.tree.lineno + src.line0, src.tree.col_offset, "recursion")
    return TupleType([base] + [INT] * (size - 1))


def is_view_result(t) -> bool:
    """Is ``t`` a call's result that is a view (``view_result``)?  A flat tuple of
    numbers never holds an array, so an array first says it is one."""
    return isinstance(t, TupleType) and len(t.elems) >= 4 and isinstance(t.elems[0], ArrayType)


def is_view_form(form) -> bool:
    """Is ``form`` a view's (``grid_form(k)``: a parameter or a result)?"""
    return isinstance(form, str) and form.startswith("grid")


def _is_array_form(form) -> bool:
    return isinstance(form, str) and form.startswith("array")


def _kind_of(v: Node):
    """The parameter type a separate helper is parsed with for argument ``v``: its
    kind, widened; TOP for a value of dead code; None for what a call cannot pass."""
    t = v.type
    if t is TOP or t is NONE:
        return t  # None: a parameter of the constant None (``hi=None``, tested ``is None``)
    if isinstance(t, (ArrayType, ListType)):
        return t
    if t is NUMBER or t.kind in ("int", "float", "bool"):
        return t.widen()
    return None


def _view_kind(v: Node):
    """The parameter type a separate helper is parsed with for a view ``v`` of an array,
    a 1-D view or an n-D array (a ``ViewSpec`` of its dtype and dimensions; TOP for a
    view of dead code); None for another aggregate."""
    if not isinstance(v, (View, Grid)):
        return None
    if v.base.type is TOP:
        return TOP
    ndim = v.ndim if isinstance(v, Grid) else 1
    return ViewSpec(v.base.type.dtype, ndim) if isinstance(v.base.type, ArrayType) else None


def _view_values(v: View | Grid) -> list[Node]:
    """What a call passes for view ``v``: its parameter's values, in their order
    (``grid_form(k)``: base, start, a 1-D view's length and step, an n-D one's
    dimensions and strides)."""
    if isinstance(v, Grid):
        return [v.base, v.start, *v.dims, *v.strides]
    return [v.base, v.start, v.length, v.step]


def _fits_form(v: Node, form, t) -> bool:
    """May ``v`` be passed for a parameter of ``form`` and type ``t`` (a view's: its
    base's)?  A one-value parameter takes what ``_fits``; a view parameter a view of an
    array of its dtype, or such an array (the view of all of it)."""
    if form == LEAF:
        return not isinstance(v, Aggregate) and _fits(v, t)
    if form == NONE_ARG:
        return not isinstance(v, Aggregate) and v.type is NONE
    if _is_array_form(form):  # a C-contiguous n-D parameter: a view may be strided, never fits
        return False
    if form != VIEW:  # an n-D view: an n-D array of that dtype
        return isinstance(v, Grid) and v.ndim == form_ndim(form) and isinstance(v.base.type, ArrayType) \
            and v.base.type.dtype == t.dtype
    if isinstance(v, View):
        return isinstance(v.base.type, ArrayType) and v.base.type.dtype == t.dtype
    return v.type is TOP or isinstance(v.type, ArrayType) and not isinstance(v, Aggregate) and \
        v.type.dtype == t.dtype


def _fits(v: Node, t) -> bool:
    """May ``v`` be passed for a parameter of type ``t``?  The same kind (a value only on
    a dead path, TOP, fits anything), an array of the same dtype; an unannotated
    parameter takes any number."""
    if v.type is TOP:
        return True
    if isinstance(t, ArrayType):
        return isinstance(v.type, ArrayType) and v.type.dtype == t.dtype
    if t is NUMBER:
        return v.type.kind in ("int", "float", "bool", "number")
    return v.type.kind == t.kind
