"""Calls: builtins and ``math``/numpy functions become nodes with their domain and range
guards; calls to plain Python functions are inlined.

``expr_Call`` resolves the callee (``names.py``) and dispatches on the object: the
``_CALLS`` table for builtins (``abs``, ``min``, ``int``, ``len``, ``np.zeros``, ...),
``MATH_FUNCTIONS`` for the math library, and otherwise inlines the function by
parsing its body with a new ``FunctionParser`` on the caller's control and memory
(recursion is refused).  O(1) nodes per call besides its arguments; an inlined call
costs its callee's parse."""

from __future__ import annotations

import ast
import math
import types as pytypes

import numpy as np

from ..nodes import (
    GE,
    LT,
    Abs,
    BitOr,
    Div,
    FloorDiv,
    IsFinite,
    IsInf,
    IsNan,
    Max,
    Min,
    Mod,
    Node,
    ToFloat,
    ToInt,
    kept,
)
from ..nodes.mathfn import (
    DOMAIN_ERROR,
    INT_OF_NAN,
    INT_OUT_OF_RANGE,
    MATH_FUNCTIONS,
    MATH_NODES,
    RANGE_ERROR,
    MathError,
    math_guards,
)
from ..nodes.types import NONE, TOP
from . import pylib
from .arraybuild import BUILD_CALLS
from .arrayconv import CONVERSION_CALLS
from .arrayextra import EXTRA_CALLS
from .arrayfns import NUMPY_CALLS
from .arraymethods import SEARCH_CALLS
from .arraymisc import MISC_CALLS
from .arraymore import MORE_CALLS
from .arrayops import ARRAY_OPS
from .arrayutils import UTILITY_CALLS
from .builtins import BUILTIN_CALLS, float_literal
from .complexes import COMPLEX_CALLS
from .core import _kind, array_hint, is_array_value, is_list
from .covariance import COVARIANCE_CALLS
from .einsum import EINSUM_CALLS
from .functions import FUNCTION_CALLS, Local, function_key
from .iteration import LOOP_REDUCERS
from .iterators import ITERATOR_CALLS
from .linalg import LINALG_CALLS
from .lists import LIST_CALLS
from .norms import NORM_CALLS
from .recursion import SEPARATE
from .scope import Chain, Cplx, Grid, It, Opt, Pack, Rng, Scope, TupleList
from .setops import SETOPS_CALLS
from .slicevalues import SLICE_CALLS
from .solvers import SOLVER_CALLS
from .source import source_of

#: numpy functions with integer loops: an int argument gives an int result (floor,
#: ceil, trunc since numpy 2.x; fmod always, C's remainder, 0 for a zero divisor)
_NP_INT_LOOPS = {"Fmod": "C's integer remainder (0 for a zero divisor)"}
if np.floor(np.int64(1)).dtype.kind != "f":
    _NP_INT_LOOPS.update(dict.fromkeys(("Floor", "Ceil", "Trunc"), "the integer itself"))

_INT64_LIMIT = 9223372036854775808.0  # 2**63


class Calls:
    """FunctionParser's calls, builtins and math functions (a mixin)."""

    def expr_Call(self, e):
        if any(k.arg is None for k in e.keywords):
            raise self.unsupported(e, "call with **kwargs",
                                   instead="pass the arguments by name or by position")
        if any(isinstance(a, ast.Starred) for a in e.args):
            return self.starred_call(e)
        v = self.list_or_array_method(e)
        if v is None:
            v = self.value_method(e)
        if v is not None:
            return v
        f = self.callee_value(e)
        if f is not None:
            return self.call_value(e, f)
        if isinstance(e.func, ast.Attribute) and self.is_value(e.func.value):  # a method son lacks
            v = self.expr_any(e.func.value)
            what = f"a {v.ndim}-D array" if isinstance(v, Grid) else (
                "a tuple" if isinstance(v, Pack) else str(getattr(v, "type", "value")))
            raise self.error(e, f"{what} has no method {e.func.attr}() in son", ast.unparse(e.func))
        return self.call_object(e, self.resolve(e.func), ast.unparse(e.func))

    def call_object(self, e: ast.Call, fn, name: str) -> Node:
        """The call ``e`` of the Python object ``fn`` (a global, a module attribute, the
        target of a function value), written ``name``."""
        if e.args and _key(fn) in _ITERATING and (gen := self.as_generator(e.args[0])) is not None:
            e = ast.copy_location(ast.Call(e.func, [gen, *e.args[1:]], e.keywords), e)  # map, filter
        reducer = _REDUCERS.get(_key(fn))
        if reducer in LOOP_REDUCERS and e.args and not getattr(e, "son_rebound", False) and (
                len(e.args) == 1 or reducer in ("sum", "prod") or e.keywords):
            if len(e.args) > 1 and reducer in ("min", "max"):  # min(a, b, key=f)
                if any(k.arg == "default" for k in e.keywords):
                    raise self.error(e, f"cannot specify a default for {name}() with multiple "
                                        "positional arguments", name)
                vals = self.scalars(e, name, self.exprs(e.args))
                with kept(*vals):
                    return self.reduce_items(e, reducer, vals)
            if not isinstance(e.args[0], ast.GeneratorExp):
                v = self.expr_any(e.args[0])
                if isinstance(v, Opt):
                    v = self.unwrap(v, e.args[0])
                if isinstance(v, Grid) and reducer in ("sum", "prod"):  # its rows: arrays
                    with kept(v):
                        return self.rows_reduced(e, reducer, v)
                if not (isinstance(v, (Pack, Rng, TupleList, It)) or is_array_value(v) or is_list(v)):
                    if isinstance(v, Node) and v.type is not TOP and _kind(v) in ("number", "int", "float"):
                        kind = str(v.type.widen())
                        raise self.error(e, f"{name}() of {'an' if kind[0] in 'aeiou' else 'a'} {kind} "
                                            "value (son takes an array, a "
                                            f"list, a tuple, a range or a generator expression)"
                                            f"{array_hint(v)}", name)
                    return self.call_on(e, [v], e.args[1:])
                with kept(v):
                    return self.reduce_iterable(e, reducer, v)
            return self.reduce_iterable(e, reducer)
        if reducer is not None and e.args and len(e.args) == 1 and not getattr(e, "son_rebound", False):
            if isinstance(e.args[0], ast.GeneratorExp):
                raise self.unsupported(e.args[0], f"generator expression passed to {name}() (son "
                                                  "reduces one with sum, min, max, any, all, math.prod)")
            v = self.expr_any(e.args[0])
            if reducer == "bool" and not e.keywords:
                return self.truth(v, e)  # None is false, a value that may be None too
            if reducer == "len" and isinstance(v, Rng):
                with kept(v):
                    return self.inline(e, pylib.range_len, v.elems)
            if isinstance(v, Opt):
                v = self.unwrap(v, e.args[0])
            if isinstance(v, Pack):
                return self.reduce_tuple(e, reducer, v)
            return self.call_on(e, [v], e.args[1:])
        handler = _CALLS.get(_key(fn))
        if handler is not None:
            return handler(self, e, name)
        if fn is math.hypot and len(e.args) != 2:  # CPython's vector_norm on a tuple (pylib)
            vals = self.scalars(e, name, self.args(e, name, 0, 1 << 30, ()))
            with kept(*vals):
                floats = [self.op(e, ToFloat, v) if _kind(v) != "float" else v for v in vals]
                with kept(*floats):
                    return self.inline(e, pylib.hypot_n, [self.pack(floats)])
        if _key(fn) in MATH_FUNCTIONS:
            cls, np_flavour = MATH_FUNCTIONS[fn]
            return self.call_math(e, cls, np_flavour, name)
        if isinstance(fn, pytypes.FunctionType):
            return self.inline(e, fn)
        if isinstance(getattr(fn, "py_func", None), pytypes.FunctionType):  # numba.njit, son.jit
            return self.inline(e, fn.py_func)
        if fn is range:
            return self.call_range(e)
        raise self.unsupported(e, f"call to {name}()")

    def arity(self, e: ast.Call, name: str, lo: int, hi: int, keywords=()) -> None:
        """Check the call's keywords and its number of positional arguments, evaluating
        nothing."""
        for k in e.keywords:
            if k.arg not in keywords:
                raise self.error(e, f"{name}() got an unsupported keyword argument {k.arg!r}", name)
        if not lo <= len(e.args) <= hi:
            want = f"{lo}" if lo == hi else f"{lo} to {hi}"
            raise self.error(e, f"{name}() takes {want} positional arguments ({len(e.args)} given)", name)

    def args(self, e: ast.Call, name: str, lo: int, hi: int, keywords=()) -> list[Node]:
        """The positional arguments' values, after ``arity``'s checks."""
        self.arity(e, name, lo, hi, keywords)
        return self.checked_args(e, name, self.exprs(e.args, any_value=True), e.args)

    def checked_args(self, e: ast.Call, name: str, vals: list[Node], at: list[ast.expr]) -> list[Node]:
        """Evaluated arguments ``vals`` (of expressions ``at``) read as values: one that may
        be None through ``unwrap``, None itself CPython's TypeError where the call is
        reached, anything but a number, an array or a list a located error."""
        vals = list(vals)
        for i, v in enumerate(vals):
            if isinstance(v, Opt):
                with kept(*vals):
                    vals[i] = self.unwrap(v, at[i])
        for i, v in enumerate(vals):
            if v.type is NONE:  # CPython's TypeError where the call is reached
                with kept(*vals):
                    vals[i] = self.none_operand(e, f"argument of {name}()")
            elif _kind(v) is None and not (is_array_value(v) or is_list(v)
                                           or isinstance(v, (Cplx, Grid, Chain, TupleList))):
                raise self.error(e, f"{name}() of a {v.type} value", name)
        return vals

    def scalars(self, e, name, vals):
        for v in vals:
            if _kind(v) is None:
                what = "a complex number" if isinstance(v, Cplx) else str(v.type)
                raise self.error(e, f"{name}() takes numbers, not {what}", name)
        return vals

    def call_math(self, e, cls, np_flavour: bool, name: str) -> Node:
        xs = self.scalars(e, name, self.args(e, name, cls.arity, cls.arity))
        if np_flavour and cls.__name__ in _NP_INT_LOOPS and all(
                _kind(x) != "float" and x.type is not TOP for x in xs):  # TOP: dead code, any kind
            # numpy computes these on ints in the ints' dtype, not as floats
            if cls.__name__ != "Fmod" and all(_kind(x) in ("int", "bool") for x in xs):
                return xs[0]  # np.floor(3) is np.int64(3), np.ceil(True) np.True_: the value itself
            what = "ints" if cls.__name__ == "Fmod" else "an int"
            raise self.error(e, f"{name}() of {what} (or a value that may be one) computes in numpy's "
                                f"integer dtype, {_NP_INT_LOOPS[cls.__name__]}; son computes it for floats: "
                                "convert with float(...) first", name)
        with kept(*xs):
            r = self.op(e, cls, *xs, np=np_flavour)
            with kept(r):
                if not np_flavour:
                    for which, exc in math_guards(cls):
                        self.guard(self.op(e, MathError, r, *xs, which=which), exc,
                                   RANGE_ERROR if exc is OverflowError else DOMAIN_ERROR)
        return r

    def call_log(self, e, name):
        if len(e.args) != 2:
            return self.call_math(e, MATH_NODES["Log"], False, name)
        x, base = self.scalars(e, name, self.args(e, name, 2, 2))
        with kept(base):
            lx = self.math1(e, "Log", x)
        with kept(lx):
            lb = self.math1(e, "Log", base)
        return self.arith(e, Div, lx, lb)

    def math1(self, e, cls_name, x):
        cls = MATH_NODES[cls_name]
        with kept(x):
            r = self.op(e, cls, x)
            with kept(r):
                self.guard(self.op(e, MathError, r, x, which="any"), ValueError, DOMAIN_ERROR)
        return r

    def to_int(self, at, x: Node) -> Node:
        """``int(x)`` with CPython's faults: NaN -> ValueError, beyond int64 -> OverflowError
        (for an unknown number too: the checks are false on ints)."""
        if _kind(x) not in ("float", "number"):
            return self.op(at, ToInt, x)
        with kept(x):
            self.guard(self.op(at, IsNan, x), ValueError, INT_OF_NAN)
            out = self.op(at, BitOr, self.op(at, LT, x, self.con(-_INT64_LIMIT)),
                          self.op(at, GE, x, self.con(_INT64_LIMIT)))
            self.guard(out, OverflowError, INT_OUT_OF_RANGE)
        return self.op(at, ToInt, x, ctrl=self.scope.ctrl)

    def call_rounding(self, e, name, cls_name):
        (x,) = self.scalars(e, name, self.args(e, name, 1, 1))
        if x.type.kind in ("int", "bool"):
            return self.op(e, ToInt, x)
        return self.to_int(e, self.op(e, MATH_NODES[cls_name], x, np=True))

    def call_minmax(self, e, name, cls):
        if len(e.args) < 2:
            raise self.unsupported(e, f"{name}() of fewer than two arguments",
                                   instead="give two or more numbers, or one array, list, tuple, range "
                                           "or generator expression")
        vals = self.scalars(e, name, self.args(e, name, 2, 1 << 30))
        acc = vals[0]
        with kept(*vals):
            for v in vals[1:]:
                acc = self.op(e, cls, acc, v)
        return acc

    def call_cast(self, e, name, kind):
        if not e.args:
            return self.con({"float": 0.0, "int": 0, "bool": False}[kind])
        if kind == "float" and len(e.args) == 1 and isinstance(e.args[0], ast.Constant) \
                and type(e.args[0].value) is str:
            return float_literal(self, e)
        (x,) = self.args(e, name, 1, 1)
        if kind == "bool" and isinstance(x, Cplx):
            return self.complex_truth(e, x)
        self.scalars(e, name, [x])
        if kind == "float":
            return self.op(e, ToFloat, x)
        if kind == "int":
            return self.to_int(e, x)
        return self.truth(x, e)

    def call_pow(self, e, name):
        vals = self.args(e, name, 2, 3)
        if len(vals) == 2:
            return self.arith(e, None, *vals)
        if any(_kind(v) == "float" for v in vals):  # CPython's TypeError, known here
            raise self.error(e, "pow() 3rd argument not allowed unless all arguments are integers", name)
        vals = self.int_args(e, name, vals)
        with kept(*vals):
            return self.inline(e, pylib.pow3, vals)

    def call_unary(self, e, name, cls):
        (x,) = self.args(e, name, 1, 1)
        if cls is Abs and isinstance(x, Cplx):
            return self.complex_abs(e, x)
        self.scalars(e, name, [x])
        return self.op(e, cls, x)

    def inline(self, e: ast.Call, fn, vals: list[Node] | None = None, env=()) -> Node:
        """Parse ``fn``'s body on the caller's control and memory, its parameters bound
        to the call's arguments (``vals`` when the caller has evaluated them) and the
        names of ``env`` (``(name, value)``: a nested function's captured values) to
        theirs; the value it returns (a tuple for ``return a, b``).  ``fn`` is a Python
        function or a ``functions.Local``."""
        if fn in self.stack:
            return self.recursive_call(e, fn, vals)
        if function_key(fn) in self.learned.get(SEPARATE, ()):
            return self.separate_call(e, fn, vals)
        src = fn.src if isinstance(fn, Local) else source_of(fn)
        bound = self.bind_arguments(e, fn, src, vals)
        call = self.kept_call(e, fn, bound)
        if call is not None:
            return call
        callee = Scope(self.g, self.scope.ctrl, self.scope.mem)
        for name, v in env:
            callee.set(name, v)
        with kept(*[v for _, v in bound]):
            for p, v in bound:
                callee.set(p, v)
        sub = type(self)(self.g, self.peephole, src, callee, self.stack, self.pinned,
                             self.learned, self.deps, self.path + (ast.unparse(e.func),))
        out = sub.parse_body()
        value = sub.return_value(out)
        self.scope.ctrl = out.ctrl
        self.scope.mem = out.mem
        with kept(value):
            out.drop()
        return value

    def bind_arguments(self, e: ast.Call, fn, src, vals: list[Node] | None) -> list[tuple[str, Node]]:
        """Each parameter of ``fn`` and its value in the call ``e``, in the order of
        ``source.parameter_names`` (``*args`` after the positional ones, a tuple): the
        positional arguments, the keywords, the defaults; CPython's errors for a wrong
        count or name, located at the call.  ``vals``, when the caller has evaluated the
        arguments: the positional ones, or (son's own calls: a kept call's graph, a
        lifted function) a value for every parameter in that order."""
        a = src.tree.args
        name = fn.__name__
        if a.kwarg:
            raise self.error(e, f"{name}() has a **kwargs parameter (son binds named parameters and "
                                "*args)", "call")
        positional = [x.arg for x in a.posonlyargs + a.args]
        kwonly = [x.arg for x in a.kwonlyargs]
        defaults = dict(zip(positional[len(positional) - len(src.defaults):], src.defaults))
        defaults.update(src.kwdefaults)
        if vals is not None and a.vararg is None and len(vals) > len(positional):
            positional, kwonly = positional + kwonly, []  # every parameter, in order
        keywords = e.keywords if vals is None else []
        npos = len(e.args) if vals is None else len(vals)
        if npos > len(positional) and a.vararg is None:
            raise self.error(e, f"{name}() takes {len(positional)} positional arguments "
                                f"({npos} given)", "call")
        if vals is None:
            vals = self.exprs(e.args + [k.value for k in e.keywords], any_value=True)
        bound = dict(zip(positional, vals[:npos]))
        extra = list(vals[len(positional):npos])
        allowed = {x.arg for x in a.args} | set(kwonly)
        for k, v in zip(keywords, vals[npos:]):
            if k.arg not in allowed or k.arg in bound:
                raise self.error(e, f"{name}() got an unexpected, repeated or positional-only "
                                    f"argument {k.arg!r}", "call")
            bound[k.arg] = v
        out = []
        with kept(*bound.values(), *extra):
            for p in positional + kwonly:
                if p in bound:
                    out.append((p, bound[p]))
                elif p in defaults:
                    out.append((p, self.constant_value(defaults[p], p, e)))
                else:
                    raise self.error(e, f"{name}() missing argument {p!r}", "call")
            if a.vararg is not None:
                out.insert(len(positional), (a.vararg.arg, self.pack(extra)))
        return out

    def starred_call(self, e: ast.Call) -> Node:
        """``f(a, *p)``: the arguments evaluated left to right, a tuple's elements spliced
        in; then the call on those values."""
        return self.call_on(e, self.spliced(e.args), [])

    def call_on(self, e: ast.Call, vals: list[Node], rest: list[ast.expr], any_value: bool = False) -> Node:
        """The call ``e`` with its first positional arguments already evaluated to ``vals``
        (each bound to a temporary the call reads) and ``rest`` the ones after them; with
        ``any_value``, a result that may be None stays as it is."""
        names = []
        for v in vals:
            names.append(self.temp())
            self.scope.set(names[-1], v)
        args = [ast.copy_location(ast.Name(n, ast.Load()), e) for n in names]
        call = ast.copy_location(ast.Call(e.func, args + rest, e.keywords), e)
        call.son_rebound = True  # its first arguments are evaluated: not again through here
        v = self.expr_any(call) if any_value else self.expr(call)
        with kept(v):
            for n in names:
                self.scope.remove(n)
        return v

    def call_range(self, e: ast.Call) -> Rng:
        """``range(...)`` as a value: its bounds, the zero step refused as CPython does."""
        start, stop, step = self.range_bounds(e)
        r = Rng(self.g, start, stop, step)
        for b in (start, stop, step):
            b.unkeep()
        return r

    def range_item(self, e: ast.Subscript, r: Rng) -> Node:
        """``r[i]``: CPython's IndexError outside ``-len(r) <= i < len(r)``."""
        if isinstance(e.slice, ast.Slice):
            raise self.unsupported(e.slice, "slice of a range",
                                   instead="write the range with the bounds and step you need")
        with kept(r):
            i = self.int_value(e.slice)
            with kept(i):
                return self.inline(ast.copy_location(ast.Call(e.value, [], []), e), pylib.range_item,
                                   [*r.elems, i])

    def rows_reduced(self, e: ast.Call, reducer: str, a: Grid) -> Node:
        """``sum(a)`` (``math.prod(a)``) of an n-D array: CPython adds (multiplies) its rows
        to ``start`` one by one, each ``+`` numpy's, so the value is an array; with no
        rows it is ``start``, a number, son's run-time refusal (one kind per value)."""
        given = e.args[1:] + [k.value for k in e.keywords if k.arg == "start"]
        if len(given) > 1 or any(k.arg != "start" for k in e.keywords):
            raise self.error(e, f"{reducer}() takes an iterable and a start", reducer)
        start = self.expr(given[0]) if given else self.con(0 if reducer == "sum" else 1)
        with kept(start):
            return self.inline(e, rows_sum if reducer == "sum" else rows_prod, [a, start])

    def call_divmod(self, e, name):
        a, b = self.scalars(e, name, self.args(e, name, 2, 2))
        with kept(a, b):
            q = self.arith(e, FloorDiv, a, b)
            with kept(q):
                return self.pack([q, self.arith(e, Mod, a, b)])


def _key(fn):
    try:
        hash(fn)
        return fn
    except TypeError:
        return id(fn)


#: builtins that take one tuple (``reduce_tuple``)
#: the builtins whose first argument is iterated: a ``map`` or ``filter`` there is the
#: generator expression that yields its items (``Functions.as_generator``)
_ITERATING = {sum, min, max, any, all, math.prod, list, sorted}
_REDUCERS = {len: "len", min: "min", max: "max", sum: "sum", any: "any", all: "all",
             math.prod: "prod", tuple: "tuple", bool: "bool"}

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
    divmod: lambda p, e, n: p.call_divmod(e, n),
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
    **BUILTIN_CALLS,
    **NUMPY_CALLS,
    **CONVERSION_CALLS,
    **SEARCH_CALLS,
    **UTILITY_CALLS,
    **ARRAY_OPS,
    **LINALG_CALLS,
    **EINSUM_CALLS,
    **NORM_CALLS,
    **COVARIANCE_CALLS,
    **SOLVER_CALLS,
    **COMPLEX_CALLS,
    **FUNCTION_CALLS,
    **LIST_CALLS,
    **MORE_CALLS,  # after NUMPY_CALLS: np.arange with dtype=
    **EXTRA_CALLS,
    **MISC_CALLS,
    **BUILD_CALLS,  # np.vstack/hstack/average of more than the tables above take
    **ITERATOR_CALLS,
    **SLICE_CALLS,
    **SETOPS_CALLS,  # last: np.count_nonzero with axis= (without: SEARCH_CALLS' own)
}


# ---------------------------------------------------------------- inlined (son's Python)
def rows_sum(a, start):
    """``sum`` of an n-D array: ``start + a[0] + a[1] + ...``, a new array each step."""
    if len(a) == 0:
        raise NotImplementedError("sum() of an array with no rows is its start, a number; son's sum of "
                                  "rows is an array")
    total = start + a[0]
    for k in range(1, len(a)):
        total = total + a[k]
    return total


def rows_prod(a, start):
    """``math.prod`` of an n-D array: ``start * a[0] * a[1] * ...``."""
    if len(a) == 0:
        raise NotImplementedError("math.prod() of an array with no rows is its start, a number; son's "
                                  "product of rows is an array")
    total = start * a[0]
    for k in range(1, len(a)):
        total = total * a[k]
    return total
