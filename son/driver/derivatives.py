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
generation, Numba, the kernel caches of ``son.exec.kernel``) -- or the reference
interpreter with ``interpret=True``.  One specialization per argument-type signature.

``.graph``, ``.schedule``, ``.source`` are those of the last specialization called,
``.py_func`` the innermost Python function, ``graph_for(argtypes)`` the transformed,
optimized graph for the primal's parameter types (for jvp too: the tangent
parameters follow from them).

Argument numbers: an int gives the gradient itself, a tuple a tuple of gradients
(``value_and_grad``: ``(value, grad)`` resp. ``(value, (grads...))``).  Only float,
float64-array and ``list[float]`` parameters can be differentiated (an int argument is a
``SonError``: pass ``2.0``, not ``2``); a list's gradient or tangent is a list, and one
list passed as two arguments is refused (``_distinct_lists``).  An n-D array is its flat
base and dimensions in the graph (``Graph.arg_forms``): argnums are mapped to the flat
parameters (``_graph_argnums``), its gradient is given its shape (``_reshaped``) and its
tangent is flattened (``_flat_tangent``); a tuple or complex argument is passed but is
not an argnum.  ``jvp(f, argnums=None)`` takes a tangent for every parameter.

Costs: a call with a known signature is a dict lookup on the argument types, the
argument conversion and the kernel call; a new signature costs a parse, two pipelines,
the transform (O(N + E)) and a Numba compile.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Sequence

import numpy as np

from .. import config
from ..errors import SonError
from ..grad.forward import jvp_graph
from ..grad.reverse import grad_graph
from ..nodes import Graph
from ..nodes.control import LEAF, NONE_ARG, FunctionForm, GlobalForm, form_size
from ..nodes.rows import rows_arity
from .kernels import JitFunction, compile_with
from .pipeline import Pipeline
from .specialize import Specialized, _is_function, type_key

__all__ = ["GradFunction", "grad", "jvp", "value_and_grad"]


def _inner(fn, pipeline: Pipeline):
    """What a transform differentiates: anything with ``graph_for``, else ``son.jit(fn)``."""
    if hasattr(fn, "graph_for") and hasattr(fn, "py_func"):
        return fn
    if not callable(fn) or not hasattr(fn, "__code__"):
        raise SonError(f"son.grad/value_and_grad/jvp differentiate a Python function or a son.jit / "
                       f"son.grad / son.jvp function, not {fn!r}")
    return JitFunction(fn, pipeline)


def _argnums(argnums, what: str) -> tuple[tuple[int, ...], bool]:
    """(argnums as a tuple, whether one int was given)."""
    if isinstance(argnums, (int, np.integer)) and not isinstance(argnums, bool):
        return (int(argnums),), True
    if isinstance(argnums, (tuple, list)) and argnums and all(
            isinstance(k, (int, np.integer)) and not isinstance(k, bool) for k in argnums):
        return tuple(int(k) for k in argnums), False
    raise SonError(f"{what}: argnums must be an int or a non-empty tuple of ints, not {argnums!r}")


class GradFunction(Specialized):
    """A function transformed by ``son.grad``, ``son.value_and_grad`` or ``son.jvp``
    (``mode`` 'grad', 'value_and_grad', 'jvp'); see the module docstring."""

    def __init__(self, fn, mode: str, argnums, interpret: bool, pipeline: Pipeline):
        self.mode = mode
        self.what = f"son.{mode}"
        self.inner = _inner(fn, pipeline)
        super().__init__(self.inner.py_func)
        if argnums is None:
            self.argnums, self.single = None, False
        else:
            self.argnums, self.single = _argnums(argnums, f"son.{mode}({self.py_func.__name__})")
        self.interpret = interpret
        self.pipeline = pipeline
        self._graphs: dict[tuple, Graph] = {}
        self._runners: dict[tuple, Callable] = {}
        self._kernels: dict[tuple, Any] = {}
        #: son.jvp with argnums=None called with defaults left out: the jvp of the given ones
        self._siblings: dict[int, GradFunction] = {}

    # ------------------------------------------------------------------ graphs
    def _nvalues(self, graph: Graph) -> int:
        rets = graph.returns()
        return len(rets[0].values) if rets else 1

    def graph_for(self, argtypes) -> Graph:
        """The transformed, optimized graph for primal parameter types ``argtypes``."""
        key = tuple(argtypes)
        g = self._graphs.get(key)
        if g is not None:
            return g
        # a son.jit function parses for the transforms (float sums with their surrogates);
        # a transform's graph is differentiated again as it is
        primal = (self.inner.graph_for(key, surrogates=True) if isinstance(self.inner, JitFunction)
                  else self.inner.graph_for(key))
        if self._nvalues(primal) != 1 and self.mode != "jvp":
            raise SonError(f"son.{self.mode}({self.py_func.__name__}): the function returns "
                           f"{self._nvalues(primal)} values; a gradient needs one scalar output")
        argnums = self._graph_argnums(primal)
        if self.mode == "jvp":
            g = jvp_graph(primal, argnums)
        else:
            g = grad_graph(primal, argnums, with_value=self.mode == "value_and_grad")
        if config.debug:
            g.verify()
        g, _ = self.pipeline.optimize(g, inplace=True)
        self._graphs[key] = g
        return g

    def _graph_argnums(self, primal: Graph) -> tuple[int, ...]:
        """The argnums (all parameters for None) as indices of ``primal``'s flat
        parameters: an n-D array argument is its 1-D base, then its dimensions
        (``Graph.arg_forms``); a tuple or complex argument is refused as an argnum."""
        forms = primal.arg_forms
        if forms is None:
            return self.argnums if self.argnums is not None else tuple(range(len(primal.params)))
        offsets = np.cumsum([0] + [form_size(f) for f in forms]).tolist()
        out = []
        # by default every parameter but a function (the graph is built for it: FunctionForm)
        every = [k for k, f in enumerate(forms)
                 if not isinstance(f, (FunctionForm, GlobalForm)) and f != NONE_ARG]
        for k in self.argnums if self.argnums is not None else every:
            if not -len(forms) <= k < len(forms):
                raise SonError(f"son.{self.mode}({self.py_func.__name__}): argnum {k} is not a parameter "
                               f"index ({len(forms)} parameters)")
            f = forms[k]
            if isinstance(f, str) and f.startswith("grid"):  # an argument of other strides than C's
                raise SonError(f"son.{self.mode}({self.py_func.__name__}): argnum {k} is an n-D array "
                               "that is not C-contiguous; derivatives are taken with respect to "
                               "C-contiguous arrays (np.ascontiguousarray(a) copies it)")
            if not (f == LEAF or isinstance(f, str) and f.startswith("array")):
                what = ("a list of tuples" if rows_arity(f) is not None else "a function"
                        if isinstance(f, FunctionForm) else "None" if f == NONE_ARG
                        else "a tuple or a complex number")
                raise SonError(f"son.{self.mode}({self.py_func.__name__}): argnum {k} is {what}; "
                               "derivatives are taken with respect to floats and float arrays (pass "
                               "its parts as parameters)")
            out.append(offsets[k % len(forms)])
        return tuple(out)

    # ------------------------------------------------------------------ calls
    def __call__(self, *args, **kwargs):
        if self.mode == "jvp":
            if kwargs:
                raise SonError(f"{self.py_func.__name__}: a son.jvp function takes two tuples, "
                               "(primals, tangents), not keywords")
            return self._call_jvp(*args)
        if kwargs or len(args) != self.nparams:
            args = self.bind(args, kwargs)
        key = type_key(args)
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
        full = self.bind(primals, {}) if len(primals) < self.nparams else primals
        if self.argnums is None and not all(_is_function(a) for a in full[len(primals):]):
            # values left to their defaults: constants, the tangents are the given ones'
            sibling = self._siblings.get(len(primals))
            if sibling is None:
                sibling = self._siblings[len(primals)] = GradFunction(
                    self.inner, "jvp", tuple(range(len(primals))), self.interpret, self.pipeline)
            return sibling._call_jvp(full, tangents)
        primals = full  # functions left to their defaults: the graph is built for them, no tangent
        if len(tangents) != nt:
            raise SonError(f"{self.py_func.__name__}: {nt} tangents expected (one per "
                           f"{'argument' if self.argnums is None else 'argnum'}), got {len(tangents)}")
        ks = range(len(primals)) if self.argnums is None else self.argnums
        if any(_is_nd(primals[k]) for k in ks if -len(primals) <= k < len(primals)):
            tangents = tuple(_flat_tangent(primals[k], t, self.py_func.__name__) if _is_nd(primals[k]) else t
                             for k, t in zip(ks, tangents))
        flat = primals + tangents
        key = type_key(flat)
        run = self._runners.get(key)
        if run is None:
            run = self._specialize(primals, key, flat)
        return run(*flat)

    def _specialize(self, primals: tuple, key: tuple, flat: tuple) -> Callable:
        types = self.argument_types(primals)
        t0 = time.perf_counter()
        g = self.graph_for(types)
        if self.interpret:
            from ..exec.interp import interpret

            def raw(*a, g=g):
                return interpret(g, *a)

            kernel = None
        else:
            kernel = compile_with(g, self.pipeline)
            kernel.stats = dict(kernel.stats, transform_s=time.perf_counter() - t0)
            kernel.check(flat)  # a SonError naming a wrong argument, before any call
            raw = kernel
        run = self._shape(raw, self._nvalues(self.inner.graph_for(types)))
        nd = [i for i, k in enumerate(self.argnums or ()) if -len(primals) <= k < len(primals)
              and _is_nd(primals[k])]
        if nd and self.mode != "jvp":
            run = _reshaped(run, self.argnums, nd, self.single, self.mode == "value_and_grad")
        if sum(type(a) is list for a in flat) > 1:
            run = _distinct_lists(run, f"son.{self.mode}({self.py_func.__name__})")
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


def _is_nd(a) -> bool:
    return type(a) is np.ndarray and a.ndim > 1


def _flat_tangent(primal: np.ndarray, t, name: str):
    """An n-D tangent as the flat parameter the forward-mode graph takes."""
    if type(t) is not np.ndarray or t.shape != primal.shape:
        raise SonError(f"{name}: the tangent of a {primal.shape} array must be a numpy array of that "
                       f"shape, got {getattr(t, 'shape', type(t).__name__)}")
    return np.ascontiguousarray(t, dtype=np.float64).reshape(-1)


def _reshaped(run: Callable, argnums: tuple, nd: list[int], single: bool, with_value: bool) -> Callable:
    """``run`` with the gradient of each n-D argnum (positions ``nd`` among ``argnums``)
    reshaped from the flat adjoint of its elements to the argument's shape."""
    def shaped(*args):
        out = run(*args)
        if single:
            return (out[0], out[1].reshape(args[argnums[0]].shape)) if with_value else \
                out.reshape(args[argnums[0]].shape)
        grads = list(out[1] if with_value else out)
        for i in nd:
            grads[i] = grads[i].reshape(args[argnums[i]].shape)
        return (out[0], tuple(grads)) if with_value else tuple(grads)

    return shaped


def _distinct_lists(run: Callable, what: str) -> Callable:
    """``run`` refusing one list passed as two arguments (a primal and a tangent too): the
    transforms give each list argument its own tangent or adjoint list, so two names for
    one list would give a wrong derivative.  O(arguments) per call."""
    def checked(*args):
        ids = [id(a) for a in args if type(a) is list]
        if len(set(ids)) != len(ids):
            raise SonError(f"{what}: one list is passed as two arguments; derivatives need distinct "
                           "lists (pass a copy, list(xs))")
        return run(*args)

    return checked


def _make(mode: str, default_argnums, doc: str):
    def make(fn: Callable | None = None, argnums=default_argnums, *, interpret: bool = False,
             pipeline: str | Sequence | Pipeline | None = None, boundscheck: bool | None = None):
        p = Pipeline.of(pipeline, boundscheck=boundscheck)
        if fn is None:
            return lambda f: GradFunction(f, mode, argnums, interpret, p)
        return GradFunction(fn, mode, argnums, interpret, p)

    make.__name__ = make.__qualname__ = mode
    make.__doc__ = doc
    return make


grad = _make("grad", 0, """son.grad(fn, argnums=0, *, interpret=False, pipeline=None,
boundscheck=None): the gradient of scalar-valued ``fn`` with respect to parameter
``argnums`` (an int: the gradient; a tuple: a tuple of gradients), by reverse mode.""")
value_and_grad = _make("value_and_grad", 0, """son.value_and_grad(fn, argnums=0, ...): ``(fn(*args),
gradient)`` in one sweep; see ``son.grad``.""")
jvp = _make("jvp", None, """son.jvp(fn, argnums=None, ...): ``jf(primals, tangents) -> (fn(*primals),
directional derivative)`` by forward mode; one tangent per parameter (argnums None) or per
argnum.""")
