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

Calls to plain Python functions are inlined (a call of the compiled function
itself is a ``Call`` node: recursion.py); every construct outside the
subset raises ``SonSyntaxError`` with file, line, column and its name.
The parser recurses over the syntax tree, whose depth CPython itself bounds
(at most 100 nested blocks); graph walks are iterative.  O(size of source)
nodes are built, each peepholed in O(1) amortized.

The parser is ``FunctionParser``, one class made of a mixin per concept, each in
its own module: ``core.py`` (node making, guards, scope merging), ``statements.py``,
``loops.py``, ``expressions.py`` (operators and their fault guards), ``names.py``
(name resolution and the record of outside reads), ``arrays.py``, ``tuples.py`` and
``calls.py`` (builtins, math functions, inlining).  This module holds the class itself and the
entry point ``build_graph``.
"""

from __future__ import annotations

import ast

from .._util import deep_syntax_trees, gc_paused
from ..errors import SonError, SonSyntaxError
from ..nodes import Constant, CProj, Graph, Mul, Node, Proj, Return
from ..nodes.control import COMPLEX, LEAF, NONE_ARG, FunctionForm, SliceForm, array_form, form_size, grid_form
from ..nodes.memory import LENGTH
from ..nodes.rows import rows_arity, rows_form
from ..nodes.types import FLOAT, INT, NONE, NUMBER, TOP, XCTRL, ArrayType, ListType, TupleType, Type, constant
from ..peephole import Peephole
from .arraybuild import ArrayBuilds
from .arrayconv import ArrayConversions
from .arrayextra import ArrayExtra
from .arrayfns import ArrayFunctions
from .arraymethods import ArrayMethods
from .arraymisc import ArrayMisc
from .arraymore import ArrayMore
from .arrayops import ArrayOps
from .arrays import Arrays
from .arrayutils import ArrayUtilities
from .axes import Axes
from .axisreduce import AxisReductions
from .builtins import Builtins
from .calls import Calls
from .complexes import Complexes
from .core import ParserCore, assigned_names, parameter_hint
from .covariance import Covariances
from .einsum import Einsum
from .expressions import Expressions
from .functions import Functions, Local, function_key
from .iteration import Iteration
from .iterators import Iterators
from .linalg import LinearAlgebra
from .listops import MADE_AT, ListOps
from .lists import GUESSED_PARAMS, LIST_GUESSES, ListKindLearned, Lists, param_site
from .loops import Loops, _LoopContext
from .memorder import MemoryOrders
from .names import GLOBAL_VALUES, GLOBALS, MISSING, GlobalArrayLearned, Names
from .ndarrays import NDArrays
from .norms import Norms
from .powers import Powers
from .readonly import ReadOnlyViews, check_read_only
from .recursion import (
    RESULT,
    SEPARATE,
    USED,
    Recursion,
    SeparateHelper,
    is_view_form,
    module_scope,
    view_result,
)
from .regions import OPAQUE, Regions, parse_with_regions
from .scope import Cplx, Fn, Grid, Pack, Scope, Slc, TupleList, View
from .selection import Selection
from .setops import SetOps
from .signature import (
    NDArraySpec,
    RowsSpec,
    SliceSpec,
    ViewSpec,
    function_defaults,
    param_types,
    type_from_spec,
)
from .slicevalues import SliceValues
from .solvers import Solvers
from .source import FunctionSource, parameter_names
from .statements import Statements
from .tuplelists import TupleLists
from .tuples import Tuples
from .ufuncout import UfuncOutputs
from .ufuncs import Ufuncs

__all__ = ["MISSING", "FunctionParser", "assigned_names", "build_graph"]


class FunctionParser(SliceValues, TupleLists, UfuncOutputs, Ufuncs, Powers, ReadOnlyViews, MemoryOrders,
                     ListOps, Regions, Statements, Loops, Iterators, Iteration, Lists, Expressions, Names,
                     NDArrays, Axes, Arrays, ArrayConversions, ArrayBuilds, ArrayMethods, ArrayMore, SetOps,
                     ArrayExtra, ArrayMisc, ArrayUtilities, AxisReductions, ArrayFunctions, ArrayOps,
                     LinearAlgebra, Einsum, Norms, Covariances, Solvers, Selection, Tuples, Complexes,
                     Functions, Recursion, Calls, Builtins, ParserCore):
    """Parses one function body into the shared graph, starting from ``scope``."""

    def __init__(self, graph: Graph, peep: Peephole, src: FunctionSource, scope: Scope,
                 stack: tuple = (), pinned: list[Node] | None = None,
                 learned: dict | None = None, deps: list | None = None, path: tuple = ()):
        self.g = graph
        self.pinned: list[Node] = pinned if pinned is not None else []
        #: whole-array chains waiting for operands to their right (son/frontend/ufuncs.py)
        self.ew_pending: list[list] = []
        self.peephole = peep
        self.src = src
        self.scope = scope
        self.stack = stack + (src.pyfunc,)
        self.returns: list[Scope] = []
        #: the statements of a block after its control dies are not read (``stmts``), in
        #: the compiled function; an inlined helper is read whole: its returns, even dead
        #: ones, give the call's value its shape (a tuple, a complex number, an array),
        #: which the caller's expression still reads where the call never returns
        self.skip_dead = not path
        #: (shape of the value, statement) of each way out of the function, as ``returns``
        self.arities: list[tuple[tuple | None, ast.AST]] = []
        self.loops: list[_LoopContext] = []
        #: while a generator expression's body is parsed, the names it binds (a read of any
        #: other unbound variable there is CPython's NameError, not UnboundLocalError)
        self.generator_names: set[str] | None = None
        self._tmp = 0
        self._locals: set[str] | None = None
        #: what failed loop attempts learned: id(loop statement) -> {variable: type}
        self.learned: dict[int, dict[str, Type]] = learned if learned is not None else {}
        #: when not None, every outside read is appended as (path, dotted name, value or
        #: MISSING); ``path`` is the dotted callee names inlined from the root function to here
        self.deps = deps
        self.path = path



# ==================================================================== entry points
def build_graph(src: FunctionSource, peephole: bool = True, argtypes=None, args=None,
                tracer=None, deps: list | None = None, rules=None, fallback: str = "error",
                inline: bool = True) -> Graph:
    """Parse ``src`` into a new Graph (the body of ``son.parse``); ``deps``, if given,
    receives every read outside the function (see ``FunctionParser.note``); ``rules``
    is the peephole's ``RuleSet`` (None: the default).  ``fallback="region"`` makes each
    statement son cannot express a region CPython runs (regions.py).  ``inline=False``
    keeps each call of the user's module functions a ``Call`` of its graph where it can
    (recursion.py); a separate helper's parse keeps its caller's choice."""
    with gc_paused(), deep_syntax_trees(), module_scope(inline):
        if fallback != "region":
            g = _build_graph(src, peephole, argtypes, args, tracer, deps, rules)
        else:
            def attempt(opaque):
                reads: list | None = [] if deps is not None else None
                g = _build_graph(src, peephole, argtypes, args, tracer, reads, rules, opaque)
                if deps is not None:
                    deps.extend(reads)
                return g

            g = parse_with_regions(attempt, src)
    defaults = function_defaults(src.pyfunc)
    g.defaults = {i: defaults[n] for i, n in enumerate(parameter_names(src.tree)) if n in defaults}
    return g


def _build_graph(src, peephole, argtypes, args, tracer, deps=None, rules=None, opaque=None) -> Graph:
    a = src.tree.args
    where = f"{src.filename}:{src.tree.lineno + src.line0}"
    if a.vararg or a.kwarg:
        fp = FunctionParser.__new__(FunctionParser)
        fp.src = src
        raise fp.error(a.vararg or a.kwarg, "unsupported construct: *args or **kwargs parameters of the "
                       "compiled function (son compiles a function of named parameters: call it from one "
                       "that passes them)", "parameters")
    names = parameter_names(src.tree)
    ann = dict(getattr(src.pyfunc, "__annotations__", {}) or {})
    for x in a.posonlyargs + a.args + a.kwonlyargs:  # string annotations (__future__)
        spec = ann.get(x.arg)
        if isinstance(spec, str):
            try:
                ann[x.arg] = eval(spec, src.globals)  # noqa: S307 - the user's own annotation
            except Exception:
                try:  # a type name son reads, as argtypes=: 'float64[:, :]'
                    type_from_spec(spec, where)
                except SonError:
                    raise SonError(f"{where}: cannot evaluate the annotation {spec!r} of {x.arg!r}") from None
        elif spec is None and x.annotation is not None and src.pyfunc is None:
            ann[x.arg] = eval(ast.unparse(x.annotation), src.globals)  # noqa: S307
    specs = param_types(names, ann, argtypes, args, where, function_defaults(src.pyfunc))
    flat, forms = _flat_params(names, specs)
    # an empty example list is a list of floats until what the function puts in it says
    # otherwise (son/frontend/lists.py learns it as it learns an empty literal's kind)
    guessed = {n for n, a, t in zip(names, args or (), specs)
               if type(a) is list and not a and not isinstance(t, RowsSpec)}
    # A recursive call's result is typed by an assumption, checked once the function is
    # parsed: the first parse types it TOP (no value yet), so the returns that are not
    # calls give the kind to assume next (a bool for is_even, a float for a power); a
    # parse whose returns do not fit its assumption starts again under their meet.
    learned: dict = {RESULT: first_assumption(src)}
    if opaque is not None:
        learned[OPAQUE] = opaque
    untyped = [n for n, t in zip(names, specs) if t is NUMBER]  # named by a number's errors
    attempt = 0
    while attempt < 5:
        try:
            gflat, gforms = _global_params(learned.get(GLOBALS, []), set(names) | {n for n, _ in flat})
            g = _parse_lists(src, peephole, tracer, deps, rules, flat + gflat, forms + gforms, names, learned,
                             where, guessed)
            check_read_only(g)  # son/frontend/readonly.py
        except GlobalArrayLearned as found:  # a parameter more, for the global array it read
            learned.setdefault(GLOBALS, []).append(found.form)
            _restart(learned)
            learned[RESULT] = first_assumption(src)
            continue
        except SeparateHelper as s:  # a helper that calls itself: parse again, calling its graph
            separate = learned.get(SEPARATE, set())
            if function_key(s.fn) in separate:
                raise SonError(f"{where}: {s.fn.__name__}() was inlined after it was made separate") from None
            _restart(learned)
            learned[SEPARATE], learned[RESULT] = separate | {function_key(s.fn)}, first_assumption(src)
            continue
        except SonSyntaxError as e:
            if attempt or not learned.get(USED):
                raise parameter_hint(e, untyped) from None
            _restart(learned)  # the probe could not be parsed with a call of no value
            learned[RESULT] = INT
            attempt += 1
            continue
        if not learned.get(USED):
            return g
        actual = _result_type(g, src, peephole)
        assumed = learned[RESULT]
        if not _unknown(assumed) and (actual is None or actual.meet(assumed) == assumed):
            return g
        attempt += 1
        _restart(learned)
        if actual is None or actual is TOP:
            learned[RESULT] = INT if assumed is TOP else _widen(assumed)
        elif assumed is TOP:
            learned[RESULT] = _widen(actual)
        else:
            learned[RESULT] = _widen(assumed.meet(actual))
    raise SonError(f"{where}: the result type of {src.name}() does not settle")


def _restart(learned: dict) -> None:
    """Forget what a parse learned, except which statements are fallback regions and
    which helpers are parsed separately."""
    kept_ = {k: learned[k] for k in (OPAQUE, SEPARATE, GLOBALS) if k in learned}
    learned.clear()
    learned.update(kept_)


def _parse_lists(src, peephole, tracer, deps, rules, flat, forms, names, learned, where, guessed) -> Graph:
    """``_parse_once``, again while an empty list learns the kind of its first element
    (son/frontend/lists.py): at most one parse per empty list and kind it meets.
    ``guessed``: the parameters that are such lists (an empty example argument)."""
    for _ in range(64):
        learned.pop(LIST_GUESSES, None)
        learned.pop(MADE_AT, None)
        params = [(n, ListType(learned[param_site(n)]) if param_site(n) in learned else t) for n, t in flat]
        learned[GUESSED_PARAMS] = {n for n in guessed if param_site(n) not in learned}
        try:
            return _parse_once(src, peephole, tracer, deps, rules, params, forms, names, learned)
        except ListKindLearned:
            continue
    raise SonError(f"{where}: the element kinds of the lists in {src.name}() do not settle")


def _parse_once(src, peephole, tracer, deps, rules, flat, forms, names, learned) -> Graph:
    g = Graph(src.name, flat)
    if any(f != LEAF for f in forms):
        g.arg_forms = forms
    g.source = (src.filename, src.tree.lineno + src.line0)
    peep = Peephole(g, rules, enabled=peephole, tracer=tracer)
    ctrl = peep.peep(CProj(g, g.start, 0))
    mem = peep.peep(Proj(g, g.start, 1, "mem"))
    scope = Scope(g, ctrl, mem)
    projs = [peep.peep(Proj(g, g.start, 2 + i, name)) for i, (name, _t) in enumerate(g.params)]
    for p in projs:
        if p.name in learned.get(GUESSED_PARAMS, ()):
            learned.setdefault(LIST_GUESSES, {})[p] = (param_site(p.name), True)
    projs = iter(projs)
    pinned: list[Node] = []
    for name, form in zip(names, forms):
        scope.set(name, _bound(g, form, projs, peep, pinned))
    bound = learned[GLOBAL_VALUES] = {}
    for form in forms[len(names):]:  # the global arrays the function reads: names.py
        bound[form.key()] = v = _bound(g, form.form, projs, peep, pinned).keep()
        pinned.append(v)
    if isinstance(src.pyfunc, Local):  # a nested function that calls itself, lifted: its own name
        scope.set(src.name, Fn(g, (src.pyfunc,)))
    parser = FunctionParser(g, peep, src, scope, pinned=pinned, deps=deps, learned=learned)
    out = parser.parse_body()
    parser.exit_returns(out)
    out.drop()
    for c in parser.pinned:
        c.unkeep()
    peep.peep(g.stop)
    g.dce()
    return g


def first_assumption(src) -> Type:
    """What a recursive call's result is assumed to be in the first parse: TOP (no value
    yet), or a tuple of n TOPs where the function returns a tuple of n values written out
    (``return a, b``), so that the call's value can be unpacked before its kinds are
    known."""
    arities = set()
    work = list(src.tree.body)
    while work:
        n = work.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(n, ast.Return) and isinstance(n.value, ast.Tuple) \
                and not any(isinstance(x, ast.Starred) for x in n.value.elts):
            arities.add(len(n.value.elts))
        work.extend(ast.iter_child_nodes(n))
    if len(arities) == 1 and (n := arities.pop()) > 1:
        return TupleType([TOP] * n)
    return TOP


def _unknown(t: Type) -> bool:
    return t is TOP or isinstance(t, TupleType) and any(x is TOP for x in t.elems)


def _widen(t: Type) -> Type:
    return TupleType([x.widen() for x in t.elems]) if isinstance(t, TupleType) else t.widen()


def _result_type(g: Graph, src, peephole: bool) -> Type | None:
    """The type of what a recursive function's live Returns give (None if it never
    returns; NONE if every one gives None, a procedure; an ``ArrayType`` for a 1-D array,
    fresh or an argument, which the caller then holds as the callee left it; a
    ``TupleType`` for a flat tuple of numbers, and ``(array, int, ...)`` for a view, its
    base, start, a 1-D view's length and step or an n-D array's dimensions and strides,
    ``view_result``); a ``SonSyntaxError`` for a result a ``Call`` cannot give: a nested
    tuple, a complex number, a range, values of several kinds, a value on some paths and
    None on others (the raw parse, which cannot tell dead code, leaves out the Returns of
    None there)."""
    rets = [r for r in g.stop.inputs if type(r) is Return and r.inputs[0].type is not XCTRL]
    forms = {r.form for r in rets}
    if len(forms) == 1 and is_view_form(f := forms.pop()):  # a view: base, start, dims, strides
        return view_result([r.inputs[2:] for r in rets], src, form_size(f))
    arity = {len(r.inputs) - 2 for r in rets}
    if any(r.form is not None for r in rets) or len(arity) > 1:
        raise SonSyntaxError(f"{src.name}() calls itself and returns a nested tuple, a complex number, a "
                             "range, an n-D array or tuples of several lengths (son's recursive calls "
                             "give single values, 1-D arrays and their views, and flat tuples of numbers)",
                             src.filename,
                             src.tree.lineno + src.line0, src.tree.col_offset, "recursion")
    if arity and arity.pop() > 1:
        t = None
        for r in rets:
            ts = [v.type for v in r.inputs[2:]]
            if any(x is NONE or x is not TOP and x.kind not in ("int", "float", "bool", "number")
                   for x in ts):
                raise SonSyntaxError(f"{src.name}() calls itself and returns a tuple of other values than "
                                     "numbers (son's recursive calls give flat tuples of numbers)",
                                     src.filename, src.tree.lineno + src.line0, src.tree.col_offset,
                                     "recursion")
            t = TupleType(ts) if t is None else t.meet(TupleType(ts))
        return t
    types = [r.inputs[2].type for r in rets]
    if types and all(t is NONE for t in types):
        return NONE
    if not peephole:
        types = [t for t in types if t is not NONE]
    t = None
    for v in types:
        if v is NONE or v.kind is None and v is not TOP and not isinstance(v, ArrayType):
            raise SonSyntaxError(f"{src.name}() calls itself and returns None on some paths, values of "
                                 "several kinds (arrays of two dtypes, an array or a number) or a value "
                                 "son cannot pass back from a call", src.filename,
                                 src.tree.lineno + src.line0, src.tree.col_offset, "recursion")
        t = v if t is None else t.meet(v)
    return t


def _flat_params(names: list[str], specs: list) -> tuple[list, list]:
    """The graph's parameters (a tuple's elements, a complex number's parts, each its own
    value, named ``p_0``, ``p_re``...) and each Python parameter's ``control.flatten``
    form."""
    used = set(names)
    flat: list = []

    def add(name, spec):
        if spec is NONE:  # None: a constant where read, as a function argument is
            return NONE_ARG
        if isinstance(spec, Type):
            flat.append((name, spec))
            return LEAF
        if isinstance(spec, NDArraySpec):  # its elements in order, then its dimensions
            flat.append((name, ArrayType(spec.dtype)))
            for d in range(spec.ndim):
                flat.append((_fresh(f"{name}_d{d}", used), LENGTH))
            return array_form(spec.ndim)
        if isinstance(spec, ViewSpec) and spec.ndim == 1:  # a recursive helper's view: base, start,
            flat.append((name, ArrayType(spec.dtype)))    # length, step
            flat.extend([(_fresh(f"{name}_start", used), INT), (_fresh(f"{name}_len", used), LENGTH),
                         (_fresh(f"{name}_step", used), INT)])
            return grid_form(1)
        if isinstance(spec, ViewSpec):  # an n-D one: base, start, dimensions, strides
            flat.append((name, ArrayType(spec.dtype)))
            flat.append((_fresh(f"{name}_start", used), INT))
            flat.extend((_fresh(f"{name}_d{d}", used), LENGTH) for d in range(spec.ndim))
            flat.extend((_fresh(f"{name}_s{d}", used), INT) for d in range(spec.ndim))
            return grid_form(spec.ndim)
        if isinstance(spec, FunctionForm):  # a function: no value, a constant where read
            return spec
        if isinstance(spec, RowsSpec):  # a list of tuples: one list per position
            for i, d in enumerate(spec.dtypes):
                flat.append((_fresh(f"{name}_{i}", used), ListType(d)))
            return rows_form(len(spec.dtypes))
        if isinstance(spec, SliceSpec):  # a slice: its parts, each a value or None
            parts = zip(("start", "stop", "step"), spec)
            return SliceForm(add(_fresh(f"{name}_{p}", used), x) for p, x in parts)
        if spec == "complex":
            for part in ("re", "im"):
                add(_fresh(f"{name}_{part}", used), FLOAT)
            return COMPLEX
        return tuple(add(_fresh(f"{name}_{i}", used), x) for i, x in enumerate(spec))

    return flat, [add(n, s) for n, s in zip(names, specs)]


def _global_params(found: list, used: set) -> tuple[list, list]:
    """The graph's parameters for the global arrays the parse found (``GlobalForm``s):
    each array's values (its elements, then an n-D one's dimensions) and the forms."""
    flat: list = []
    for gf in found:
        name = _fresh(f"global_{gf.name}", used)
        flat.append((name, ArrayType(gf.dtype)))
        for d in range(gf.ndim if gf.ndim > 1 else 0):
            flat.append((_fresh(f"{name}_d{d}", used), LENGTH))
    return flat, list(found)


def _fresh(name: str, used: set) -> str:
    while name in used:
        name += "_"
    used.add(name)
    return name


def _bound(g: Graph, form, projs, peep, pinned: list) -> Node:
    """The value a parameter of ``form`` is bound to: its projection, or the tuple,
    complex number, n-D array (a C-order view of its elements) or 1-D view (a recursive
    helper's, ``grid_form(1)``) of the next ones."""
    if form == LEAF:
        return next(projs)
    if isinstance(form, FunctionForm):
        return Fn(g, (form.fn,))
    if form == NONE_ARG:
        none = peep.peep(Constant(g, NONE)).keep()
        pinned.append(none)  # as the parser's constants: unpinned when the parse ends
        return none
    if form == COMPLEX:
        return Cplx(g, next(projs), next(projs))
    if isinstance(form, SliceForm):
        return Slc(g, *[_bound(g, f, projs, peep, pinned) for f in form])
    if rows_arity(form) is not None:
        return TupleList(g, *[next(projs) for _ in range(rows_arity(form))])
    if form == grid_form(1):  # a view (recursion.py): base, start, length, step
        base, start, length, step = (next(projs) for _ in range(4))
        return View(g, base, start, step, length)
    if isinstance(form, str) and form.startswith("grid"):  # an n-D view: base, start, dims, strides
        return Grid(g, *[next(projs) for _ in range(form_size(form))])
    if isinstance(form, str) and form.startswith("array"):
        base = next(projs)
        dims = [next(projs) for _ in range(form_size(form) - 1)]
        one, zero = (peep.peep(Constant(g, constant(v))).keep() for v in (1, 0))
        pinned += [one, zero]  # as the parser's constants: unpinned when the parse ends
        strides = [one]
        for d in reversed(dims[1:]):
            strides.insert(0, peep.peep(Mul(g, d, strides[0])))
        return Grid(g, base, zero, *dims, *strides)
    return Pack(g, *[_bound(g, f, projs, peep, pinned) for f in form])
