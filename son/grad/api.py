"""The user API: ``son.grad``, ``son.value_and_grad``, ``son.jvp``.

    df = son.grad(f)                   # df(x, y) == d f / d x
    vg = son.value_and_grad(f, (0, 1)) # vg(x, y) == (f(x, y), (df/dx, df/dy))
    jf = son.jvp(f)                    # jf((x, y), (dx, dy)) == (f(x, y), directional derivative)

``f`` is a plain Python function (son's subset), a ``son.jit`` function, or another
grad / value_and_grad / jvp function (so ``son.jvp(son.grad(f))`` is a Hessian-vector
product).  Like ``son.jit`` the result specializes lazily on the types of each call's
arguments: the primal graph for those types (``inner.graph_for(argtypes)``: parse and
the default pipeline for a plain function), the transform (``reverse.grad_graph`` or
``forward.jvp_graph``), the default pipeline again, then ``son.compile`` (schedule, code
generation, Numba, the kernel caches of ``son.exec.jit``) -- or the reference
interpreter with ``interpret=True``.  One specialization per argument-type signature.

``.graph``, ``.schedule``, ``.source`` are those of the last specialization called,
``.py_func`` the innermost Python function, ``graph_for(argtypes)`` the transformed,
optimized graph for the primal's parameter types (for jvp too: the tangent
parameters follow from them).

Argument numbers: an int gives the gradient itself, a tuple a tuple of gradients
(``value_and_grad``: ``(value, grad)`` resp. ``(value, (grads...))``).  Only float and
float64-array parameters can be differentiated (an int argument is a ``SonError``: pass
``2.0``, not ``2``).  ``jvp(f, argnums=None)`` takes a tangent for every parameter.

Costs: a call with a known signature is a dict lookup on the argument types, the
argument conversion and the kernel call; a new signature costs a parse, two pipelines,
the transform (O(N + E)) and a Numba compile.
"""

from __future__ import annotations

import functools
import time
from importlib import import_module
from typing import Any, Callable

import numpy as np

from .. import config
from ..errors import SonError
from ..exec.jit import JitFunction
from ..nodes import Graph

__all__ = ["GradFunction", "grad", "jvp", "value_and_grad"]


def _key(args: tuple) -> tuple:
    return tuple([(a.dtype, a.ndim) if type(a) is np.ndarray else type(a) for a in args])


def _inner(fn, pipeline, boundscheck: bool):
    """What a transform differentiates: anything with ``graph_for``, else ``son.jit(fn)``."""
    if hasattr(fn, "graph_for") and hasattr(fn, "py_func"):
        return fn
    if not callable(fn) or not hasattr(fn, "__code__"):
        raise SonError(f"son.grad/value_and_grad/jvp differentiate a Python function or a son.jit / "
                       f"son.grad / son.jvp function, not {fn!r}")
    return JitFunction(fn, pipeline, boundscheck)


def _argnums(argnums, what: str) -> tuple[tuple[int, ...], bool]:
    """(argnums as a tuple, whether one int was given)."""
    if isinstance(argnums, (int, np.integer)) and not isinstance(argnums, bool):
        return (int(argnums),), True
    if isinstance(argnums, (tuple, list)) and argnums and all(
            isinstance(k, (int, np.integer)) and not isinstance(k, bool) for k in argnums):
        return tuple(int(k) for k in argnums), False
    raise SonError(f"{what}: argnums must be an int or a non-empty tuple of ints, not {argnums!r}")


class GradFunction:
    """A function transformed by ``son.grad``, ``son.value_and_grad`` or ``son.jvp``
    (``mode`` 'grad', 'value_and_grad', 'jvp'); see the module docstring."""

    def __init__(self, fn, mode: str, argnums, interpret: bool, pipeline: str | None, boundscheck: bool):
        self.mode = mode
        self.inner = _inner(fn, pipeline, boundscheck)
        self.py_func = self.inner.py_func
        if argnums is None:
            self.argnums, self.single = None, False
        else:
            self.argnums, self.single = _argnums(argnums, f"son.{mode}({self.py_func.__name__})")
        self.interpret = interpret
        self.pipeline = pipeline
        self.boundscheck = boundscheck
        self._graphs: dict[tuple, Graph] = {}
        self._runners: dict[tuple, Callable] = {}
        self._last: tuple | None = None  # (graph, kernel or None)
        self._kernels: dict[tuple, Any] = {}
        functools.update_wrapper(self, self.py_func, updated=())

    # ------------------------------------------------------------------ graphs
    def _nvalues(self, graph: Graph) -> int:
        rets = graph.returns()
        return len(rets[0].values) if rets else 1

    def graph_for(self, argtypes) -> Graph:
        """The transformed, optimized graph for primal parameter types ``argtypes``."""
        from ..passes import DEFAULT_PIPELINE, optimize

        key = tuple(argtypes)
        g = self._graphs.get(key)
        if g is not None:
            return g
        primal = self.inner.graph_for(key)
        if self._nvalues(primal) != 1 and self.mode != "jvp":
            raise SonError(f"son.{self.mode}({self.py_func.__name__}): the function returns "
                           f"{self._nvalues(primal)} values; a gradient needs one scalar output")
        argnums = self.argnums if self.argnums is not None else tuple(range(len(primal.params)))
        if self.mode == "jvp":
            from .forward import jvp_graph

            g = jvp_graph(primal, argnums)
        else:
            from .reverse import grad_graph

            g = grad_graph(primal, argnums, with_value=self.mode == "value_and_grad")
        if config.debug:
            g.verify()
        pipeline = DEFAULT_PIPELINE if self.pipeline is None else self.pipeline
        g, _ = optimize(g, pipeline, inplace=True)
        self._graphs[key] = g
        return g

    # ------------------------------------------------------------------ calls
    def __call__(self, *args, **kwargs):
        if kwargs:
            raise SonError(f"{self.py_func.__name__}: son.{self.mode} functions take positional arguments "
                           f"only (got {', '.join(kwargs)} by keyword)")
        if self.mode == "jvp":
            return self._call_jvp(*args)
        key = _key(args)
        run = self._runners.get(key)
        if run is None:
            run = self._specialize(args, key, args)
        return run(*args)

    def _call_jvp(self, *args):
        if len(args) != 2 or not all(isinstance(a, (tuple, list)) for a in args):
            raise SonError(f"{self.py_func.__name__}: a son.jvp function takes two tuples, "
                           "(primals, tangents)")
        primals, tangents = tuple(args[0]), tuple(args[1])
        nt = len(primals) if self.argnums is None else len(self.argnums)
        if len(tangents) != nt:
            raise SonError(f"{self.py_func.__name__}: {nt} tangents expected (one per "
                           f"{'argument' if self.argnums is None else 'argnum'}), got {len(tangents)}")
        flat = primals + tangents
        key = _key(flat)
        run = self._runners.get(key)
        if run is None:
            run = self._specialize(primals, key, flat)
        return run(*flat)

    def _specialize(self, primals: tuple, key: tuple, flat: tuple) -> Callable:
        from ..frontend.signature import type_of_value

        names = self.py_func.__code__.co_varnames[:len(primals)]
        types = tuple(type_of_value(a, f"{self.py_func.__name__}(): argument {n!r}")
                      for n, a in zip(names, primals))
        t0 = time.perf_counter()
        g = self.graph_for(types)
        if self.interpret:
            from ..exec.interp import interpret

            def raw(*a, g=g):
                return interpret(g, *a)

            kernel = None
        else:
            from ..exec.jit import compile as compile_graph

            kernel = compile_graph(g, boundscheck=self.boundscheck)
            kernel.stats = dict(kernel.stats, transform_s=time.perf_counter() - t0)
            kernel.check(flat)  # a SonError naming a wrong argument, before any call
            raw = kernel
        run = self._shape(raw, self._nvalues(self.inner.graph_for(types)))
        self._runners[key] = run
        self._kernels[key] = kernel
        self._last = (g, kernel)
        return run

    def _shape(self, raw: Callable, nprimal: int) -> Callable:
        """Wrap the flat results of the graph into what the user gets."""
        mode, single = self.mode, self.single
        if mode == "jvp":
            if nprimal == 1:
                return lambda *a: tuple(raw(*a))
            return lambda *a: (lambda r: (tuple(r[:nprimal]), tuple(r[nprimal:])))(raw(*a))
        if mode == "grad":
            if single:
                return raw
            if len(self.argnums) == 1:
                return lambda *a: (raw(*a),)
            return lambda *a: tuple(raw(*a))
        if single:
            return lambda *a: tuple(raw(*a))
        return lambda *a: (lambda r: (r[0], tuple(r[1:])))(raw(*a))

    # ------------------------------------------------------------------ views
    def _latest(self) -> tuple:
        if self._last is None:
            raise SonError(f"son.{self.mode}({self.py_func.__name__}) has not been called yet: it "
                           "specializes on the first call, for the types of its arguments")
        return self._last

    @property
    def graph(self) -> Graph:
        return self._latest()[0]

    @property
    def schedule(self):
        g, k = self._latest()
        if k is not None:
            return k.schedule
        from ..schedule import schedule as make_schedule

        return make_schedule(g)

    @property
    def source(self) -> str:
        g, k = self._latest()
        if k is None:
            raise SonError(f"son.{self.mode}({self.py_func.__name__}, interpret=True) runs in the "
                           "interpreter: there is no kernel source")
        return k.source

    @property
    def kernels(self) -> dict:
        return dict(self._kernels)

    def __repr__(self) -> str:
        return f"<son.{self.mode} {self.py_func.__qualname__}: {len(self._runners)} specializations>"


def _make(mode: str, default_argnums):
    def make(fn: Callable | None = None, argnums=default_argnums, *, interpret: bool = False,
             pipeline: str | None = None, boundscheck: bool = True):
        if fn is None:
            return lambda f: GradFunction(f, mode, argnums, interpret, pipeline, boundscheck)
        return GradFunction(fn, mode, argnums, interpret, pipeline, boundscheck)

    return make


class _Entry:
    """A public entry point (``son.grad`` ...): calling it transforms a function; reading
    any other attribute reads the ``son.grad`` package (``son.grad.forward`` after
    ``import son.grad.forward``), since this object shadows the package's name in ``son``."""

    def __init__(self, name: str, fn: Callable, doc: str):
        self.__name__ = self.__qualname__ = name
        self.__doc__ = doc
        self._fn = fn

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        pkg = import_module("son.grad")
        try:
            return getattr(pkg, name)
        except AttributeError:
            pass
        try:
            return import_module(f"son.grad.{name}")
        except ModuleNotFoundError:
            raise AttributeError(f"son.grad has no attribute {name!r}") from None

    def __repr__(self) -> str:
        return f"<son.{self.__name__}>"


grad = _Entry("grad", _make("grad", 0), """son.grad(fn, argnums=0, *, interpret=False, pipeline=None,
boundscheck=True): the gradient of scalar-valued ``fn`` with respect to parameter
``argnums`` (an int: the gradient; a tuple: a tuple of gradients), by reverse mode.""")
value_and_grad = _Entry("value_and_grad", _make("value_and_grad", 0), """son.value_and_grad(fn, argnums=0,
...): ``(fn(*args), gradient)`` in one sweep; see ``son.grad``.""")
jvp = _Entry("jvp", _make("jvp", None), """son.jvp(fn, argnums=None, ...): ``jf(primals, tangents) ->
(fn(*primals), directional derivative)`` by forward mode; one tangent per parameter
(argnums None) or per argnum.""")
