"""What ``son.jit`` and ``son.grad`` functions share: lazy specialization per argument types.

A specialized function is called like the Python function it wraps.  The first
call with a new combination of argument types (``type_key``) builds what runs
for those types; later calls cost one dict lookup on the key.  The last
specialization built is what ``.graph``, ``.schedule``, ``.source`` show.
"""

from __future__ import annotations

import functools
import inspect
from typing import Callable

import numpy as np

from ..errors import SonError
from ..frontend.signature import type_of_value
from ..nodes.control import function_digest
from ..nodes.types import Type

__all__ = ["Specialized", "type_key"]


def type_key(args: tuple) -> tuple:
    """The specialization key of a call: each argument's Python type, an array's
    (dtype, ndim, whether an n-D one is C-contiguous: son reads another layout through
    its strides, ``ViewSpec``), a tuple's the key of its elements (a slice's: of its
    parts), a list's the types of its items (one, for a list son takes), a function's
    digest (the graph is built for that function: ``son.nodes.control.FunctionForm``).
    O(arguments + list items)."""
    return tuple([_array_key(a) if type(a) is np.ndarray else (tuple, type_key(a)) if type(a) is tuple
                  else (slice, type_key((a.start, a.stop, a.step))) if type(a) is slice
                  else (list, frozenset(map(type, a))) if type(a) is list
                  else (FUNCTION, function_digest(a)) if _is_function(a) else type(a) for a in args])


def _array_key(a: np.ndarray) -> tuple:
    return a.dtype, a.ndim, a.ndim > 1 and a.flags.c_contiguous


#: the first item of a function argument's key
FUNCTION = "function"


def _is_function(a) -> bool:
    return callable(a) and not isinstance(a, (int, float, complex, np.generic))


class Specialized:
    """Base of ``JitFunction`` and ``GradFunction``: the wrapped function, the error
    messages both give, the son types of a call's arguments."""

    #: how the user made it, for messages: 'son.jit', 'son.grad', ...
    what = "son.jit"

    def __init__(self, fn: Callable):
        self.py_func = fn
        self._last = None
        self._signature = None
        #: parameters of the function: a call with fewer (or with keywords) is bound first;
        #: every call of a function with keyword-only parameters is (-1)
        code = getattr(fn, "__code__", None)
        self.nparams = -1 if getattr(code, "co_kwonlyargcount", 0) else getattr(code, "co_argcount", 0)
        functools.update_wrapper(self, fn, updated=())

    def bind(self, args: tuple, kwargs: dict) -> tuple:
        """The call's arguments as one positional tuple: keywords in their places (the
        keyword-only parameters after the others, as son's graph takes them), omitted
        parameters given their defaults (Python's own binding, with its TypeError for a
        call that does not fit).  Called only off the fast path (keywords, or fewer
        arguments than parameters)."""
        sig = self._signature
        if sig is None:
            sig = self._signature = inspect.signature(self.py_func)
        b = sig.bind(*args, **kwargs)
        b.apply_defaults()
        kwonly = [p.name for p in sig.parameters.values() if p.kind is p.KEYWORD_ONLY]
        return b.args + tuple(b.kwargs[k] for k in kwonly)

    def argument_types(self, args: tuple) -> tuple[Type, ...]:
        """The son types of the first ``len(args)`` parameters, from these arguments (a
        ``SonError`` naming an argument son cannot type)."""
        names = self.py_func.__code__.co_varnames[:len(args)]
        return tuple(type_of_value(a, f"{self.py_func.__name__}(): argument {n!r}")
                     for n, a in zip(names, args))

    def _latest(self):
        if self._last is None:
            raise SonError(f"{self.what}({self.py_func.__name__}) has not been called yet: it compiles "
                           "on the first call, for the types of its arguments")
        return self._last
