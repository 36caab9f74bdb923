"""``son.jit`` and ``son.compile``: a Python function or a graph to a Numba kernel.

    k = son.compile(graph)           # drop checks if asked -> the backend, cached
    k(a, 3)

    @son.jit                         # like numba.njit, for son's subset
    def f(a, n): ...

``jit`` specializes lazily: the first call with a new combination of argument
types builds the graph with those types (``Pipeline.build``: parse, passes),
drops the checks its pipeline's semantics leave out, and compiles
(``son.exec.kernel.compile_kernel``); later calls with the same types cost one
dict lookup on the argument types before Numba's own dispatch.  A second
process finds the kernel through the disk index (``son.driver.index``).

Costs: argument checking is O(arguments) per call; a specialization is one
parse, the pipeline, ``schedule`` and ``generate`` (each O(N + E) in practice)
and Numba's compile (dominant: tens to hundreds of milliseconds).
"""

from __future__ import annotations

import contextlib
import time
import warnings
from typing import Any, Callable, Sequence

import numpy as np

from .. import config
from ..errors import FallbackWarning, SonError
from ..exec.kernel import Kernel, compile_kernel
from ..frontend import gradient_surrogates
from ..nodes import Graph, ListOp, NewArray, NewList, Phi, PyRegion, Refine, Store
from ..nodes.control import GlobalForm
from ..nodes.opaque import RERAISE
from .index import index_key, index_load, index_store
from .passes import kernel_graph
from .pipeline import Pipeline
from .specialize import FUNCTION, Specialized, type_key

__all__ = ["JitFunction", "compile", "jit"]


def compile(graph: Graph, boundscheck: bool = True, wrap: bool = True,  # noqa: A001
            math_errors: bool = True) -> Kernel:
    """Schedule ``graph``, generate its source and compile it with Numba (cached in memory
    and on disk).  ``boundscheck=False`` removes the IndexError guards of array accesses
    (unchecked, as ``numba.njit``; the ``drop-bounds-checks`` pass); ``wrap=False`` lets
    LLVM assume int64 ``+ - *`` never overflow (numba.njit's assumption: an overflow is
    then undefined, not the wrap-around of DESIGN.md); ``math_errors=False`` drops the
    checks that make ``math.*`` and ``int(float)`` raise as in CPython (numba.njit's IEEE
    nan/inf instead; the ``drop-math-checks`` pass).  Parameter types must be known (int,
    float, bool, 1-D float64/int64/bool arrays)."""
    t0 = time.perf_counter()
    g = kernel_graph(graph, boundscheck, math_errors)
    return compile_kernel(g, wrap, {"boundscheck_transform_s": time.perf_counter() - t0},
                          prepare=lambda callee: kernel_graph(callee, boundscheck, math_errors))


def compile_with(graph: Graph, p: Pipeline) -> Kernel:
    """``compile`` with the kernel semantics of pipeline ``p`` (son.jit, son.grad)."""
    return compile(graph, boundscheck=p.boundscheck, wrap=p.wrap, math_errors=p.math_errors)


class JitFunction(Specialized):
    """``son.jit(fn)``: call it like ``fn``; each new combination of argument types is
    parsed, optimized and compiled once.  ``graph``, ``schedule``, ``source`` and ``stats``
    are those of the last specialization; ``kernels`` maps argument types to kernels;
    ``pipeline`` is the ``Pipeline`` it runs."""

    def __init__(self, fn: Callable, pipeline: Pipeline, fallback: str | None = None):
        super().__init__(fn)
        self.pipeline = pipeline
        if fallback not in (None, "region", "function", "error"):
            raise SonError(f"son.jit: fallback must be 'region', 'function' or 'error', not {fallback!r}")
        self.fallback = fallback
        #: argument types -> why son runs the function in CPython for them
        self.fallbacks: dict[tuple, str] = {}
        self.kernels: dict[tuple, Kernel] = {}
        self._dispatch: dict[tuple, Any] = {}
        self._graphs: dict[tuple, Graph] = {}
        #: argument types of calls a kernel refused at run time and CPython ran (``_replay``)
        self.replayed: set[tuple] = set()

    def __call__(self, *args, **kwargs):
        if kwargs or len(args) != self.nparams:
            args = self.bind(args, kwargs)
        key = type_key(args)
        disp = self._dispatch.get(key) or self._specialize_or_fall_back(args, key)
        kernel = self.kernels.get(key)
        if kernel is not None and not kernel.stats.get("replayable") and _any_read_only(args):
            return self._in_cpython(key, args, "an argument array is read-only, which numpy refuses to write "
                                               "and the kernel would write", stacklevel=3)
        try:
            return disp(*args)
        except NotImplementedError as e:  # a run-time refusal, not a placeholder: see _replay
            return self._replay(key, args, e)
        except Exception as e:
            kernel = self.kernels.get(key)  # None: the function runs in CPython (a fallback)
            if kernel is not None and _is_numba_typing_error(e):
                kernel.check(args)  # raises SonError saying which argument is wrong
            raise

    def _replay(self, key: tuple, args: tuple, e: NotImplementedError):
        """A kernel raised NotImplementedError (son's refusal at run time, where numpy's
        answer depends on what son does not model, or numba's): the call again in CPython,
        with one warning per argument types, where the kernel writes no memory it did not
        allocate (``replayable``: the arguments are as they were); else the error."""
        k = self.kernels.get(key)
        if (self.fallback or config.fallback) == "error" or k is None or not k.stats.get("replayable"):
            raise e
        return self._in_cpython(key, args, f"its kernel raised NotImplementedError ({e})")

    def _in_cpython(self, key: tuple, args: tuple, why: str, stacklevel: int = 4):
        """The call run by CPython, with one FallbackWarning per argument types
        (``stacklevel``: the frames up to the caller of ``__call__``)."""
        if key not in self.replayed:
            self.replayed.add(key)
            name = getattr(self.py_func, "__qualname__", repr(self.py_func))
            warnings.warn(f"son.jit({name}) ran a call in CPython: {why}", FallbackWarning,
                          stacklevel=stacklevel)
        return self.py_func(*args)

    def _specialize_or_fall_back(self, args: tuple, key: tuple) -> Callable:
        """The kernel for these argument types, or (fallback "function") the Python
        function itself where son cannot compile it, with one warning saying why;
        fallback "region" compiles with fallback regions where it can (one warning
        listing them) and falls back to the function where it cannot."""
        mode = self.fallback or config.fallback
        if mode == "error":
            return self._specialize(args, key)
        try:
            k = self._specialize(args, key, "region" if mode == "region" else "error")
        except SonError as e:
            reason = str(e)
        else:
            regions = k.stats.get("fallback_regions")
            if regions:
                self.fallbacks[key] = "; ".join(f"{where}: {why}" for where, why in regions)
                name = getattr(self.py_func, "__qualname__", repr(self.py_func))
                warnings.warn(f"son.jit({name}) runs {len(regions)} region(s) in CPython: "
                              f"{self.fallbacks[key]}", FallbackWarning, stacklevel=3)
            return k
        self.fallbacks[key] = reason
        self._dispatch[key] = self.py_func
        name = getattr(self.py_func, "__qualname__", repr(self.py_func))
        warnings.warn(f"son.jit({name}) runs in CPython for these argument types: {reason}",
                      FallbackWarning, stacklevel=3)
        return self.py_func

    def _specialize(self, args: tuple, key: tuple, fallback: str = "error") -> Kernel:
        p = self.pipeline
        t0 = time.perf_counter()
        structured = any(k is complex or type(k) is tuple and (k[0] is tuple or k[0] is FUNCTION)
                         for k in key)
        ikey = None if structured else index_key(self.py_func, key, p)  # the index keeps flat types
        k = index_load(ikey, self.py_func, args, self._rebuild) if ikey else None
        if k is not None:
            k.stats = dict(k.stats, index_s=time.perf_counter() - t0, pipeline=p.name)
        else:
            deps: list | None = [] if ikey else None
            graph = p.parse(self.py_func, args=list(args), deps=deps, fallback=fallback)
            t1 = time.perf_counter()
            graph = p.optimize_module(graph)  # and the module's other graphs, fresh from this parse
            t2 = time.perf_counter()
            regions = [n.code for n in graph.nodes() if type(n) is PyRegion and n.code is not RERAISE]
            k = compile_with(graph, p)
            k.stats = dict(k.stats, parse_s=t1 - t0, optimize_s=t2 - t1, pipeline=p.name,
                           replayable=replayable(graph),
                           fallback_regions=[(c.where, c.why) for c in sorted(regions, key=_first_line)])
            # a region's code lives in this process only, and so does a global array
            if ikey and not regions and not any(isinstance(f, GlobalForm) for f in graph.arg_forms or ()):
                index_store(ikey, self.py_func, deps, k)
        k.check(args)
        self.kernels[key] = k
        self._last = k
        self._dispatch[key] = k if _needs_conversion(k, args) else k.direct
        return k

    def graph_for(self, argtypes, *, surrogates: bool = False) -> Graph:
        """The optimized graph (before any check is dropped) that this function compiles
        for parameter types ``argtypes`` (son types, or what ``son.parse``'s ``argtypes=``
        takes); built without compiling, cached per types.  The graph is shared:
        transform a copy (``son.grad`` does) rather than changing it.  ``surrogates``:
        the graph the derivative transforms take, parsed under
        ``son.frontend.gradient_surrogates()`` (float sums as ``GradVia`` nodes)."""
        key = (tuple(argtypes), surrogates)
        g = self._graphs.get(key)
        if g is None:
            fallback = "region" if (self.fallback or config.fallback) == "region" else "error"
            with gradient_surrogates() if surrogates else contextlib.nullcontext():
                g = self._graphs[key] = self.pipeline.build(self.py_func, argtypes=list(argtypes),
                                                            fallback=fallback)
        return g

    def _rebuild(self, params: list) -> tuple:
        """``(graph, schedule)`` of a kernel the index found, rebuilt when first read."""
        from ..schedule import schedule as make_schedule

        p = self.pipeline
        g = kernel_graph(p.build(self.py_func, argtypes=[t for _, t in params]), p.boundscheck,
                        p.math_errors)
        return g, make_schedule(g)

    @property
    def graph(self) -> Graph:
        return self._latest().graph

    @property
    def schedule(self):
        return self._latest().schedule

    @property
    def source(self) -> str:
        return self._latest().source

    @property
    def stats(self) -> dict:
        return self._latest().stats

    def __repr__(self) -> str:
        return f"<son.jit {self.py_func.__qualname__}: {len(self.kernels)} specializations>"


def _first_line(code) -> tuple[int, int]:
    return code.lines


def replayable(graph: Graph) -> bool:
    """Can a call of ``graph``'s kernel that raised be made again, in CPython, with the
    same arguments?  Where it writes no memory it did not allocate: every Store and
    ListOp writes an array or a list the graph makes (through Phis and refinements), and
    it has no region or call (either may write anything).  O(nodes)."""
    for n in graph.nodes():
        if not n.writes_memory:
            continue
        if type(n) not in (Store, ListOp):
            return False
        stack, seen = [n.inputs[2]], set()
        while stack:
            x = stack.pop()
            if x is None or id(x) in seen:
                continue
            seen.add(id(x))
            if type(x) is Phi:
                stack.extend(x.inputs[1:])
            elif type(x) is Refine:
                stack.append(x.inputs[1])
            elif type(x) not in (NewArray, NewList):
                return False
    return True


def _needs_conversion(k: Kernel, args: tuple) -> bool:
    """Can calls with these argument types go straight to numba's dispatcher?  Only if
    the kernel would pass every argument on unchanged (same Python type) and return what
    numba returns (no mixed int-or-float value to convert), and takes no list (the
    dispatcher cannot type an empty one: ``Kernel.__call__`` calls the compiled entry)."""
    return k.converts_result or any(type(c) is not type(a) or type(a) is list
                                    for c, a in zip(k.check(args), args))


def _is_numba_typing_error(e: Exception) -> bool:
    from numba.core.errors import TypingError

    return isinstance(e, (TypingError, OverflowError))


def jit(fn: Callable | None = None, *, pipeline: str | Sequence | Pipeline | None = None,
        boundscheck: bool | None = None, wrap: bool | None = None, math_errors: bool | None = None,
        fallback: str | None = None):
    """Compile ``fn`` with son on its first call for each combination of argument types
    (ints, floats, bools, 1-D float64/int64/bool arrays).  Use as ``@son.jit`` or
    ``@son.jit(pipeline="peephole", boundscheck=False)``; ``pipeline`` is anything
    ``son.Pipeline.of`` takes (default ``DEFAULT_PIPELINE``).  ``boundscheck=False``,
    ``wrap=False`` and ``math_errors=False`` (None: the pipeline's, which default to
    True) trade son's exact semantics for numba.njit's (see ``son.compile``); all three
    together compile what numba.njit compiles.  ``fallback`` (None: ``son.config.fallback``,
    "region") says what a function son cannot compile does: "region" compiles the rest and
    runs each statement son cannot express in CPython (inside the kernel, through
    ``numba.objmode``; ``stats["fallback_regions"]`` lists them), "function" runs the
    whole function in CPython; either warns once per argument types with son's located
    reasons (``son.FallbackWarning``; ``.fallbacks`` lists them), and "region" falls back to
    "function" where it cannot make a region; "error" raises son's error."""
    p = Pipeline.of(pipeline, boundscheck=boundscheck, wrap=wrap, math_errors=math_errors)
    if fn is None:
        return lambda f: JitFunction(_callable(f), p, fallback)
    return JitFunction(_callable(fn), p, fallback)


def _callable(fn):
    if not callable(fn):
        raise SonError(f"son.jit decorates a function, not {fn!r}")
    return fn


def _any_read_only(args) -> bool:
    """Is an array among ``args`` (or in a tuple among them) one numpy will not write
    (``np.broadcast_to``'s view, ``a.diagonal()``, ``flags.writeable`` cleared)?  Lists
    are not searched: son's lists hold numbers and tuples of numbers."""
    stack = list(args)
    while stack:
        a = stack.pop()
        if isinstance(a, np.ndarray):
            if not a.flags.writeable:
                return True
        elif isinstance(a, tuple):
            stack.extend(a)
    return False
