"""``son.parse`` and ``son.parse_source``: the frontend's public entry points."""

from __future__ import annotations

import linecache
import math
from typing import Callable

import numpy as np

from .. import config
from .._util import deep_syntax_trees, gc_paused
from ..errors import SonError, SonSyntaxError
from ..nodes import Graph
from .parser import build_graph
from .source import source_from_text, source_of


def _verify_if_debug(g: Graph) -> Graph:
    if config.debug:
        g.verify()
    return g


def parse(fn: Callable, peephole: bool = True, argtypes=None, args=None, tracer=None,
          deps: list | None = None, rules=None, fallback: str = "error", inline: bool = True) -> Graph:
    """Build the graph of Python function ``fn`` (defined in a file or a notebook cell).

    Parameter types come from ``argtypes`` (a sequence or a dict by name), else
    from example arguments ``args``, else from annotations, else they are an
    unknown number.  ``peephole=False`` gives the raw graph; ``rules`` is the
    peephole's ``RuleSet`` (default: ``son.peephole.DEFAULT_RULES``, son's own
    rules); ``tracer(rule, old, new)`` is called for every rewrite.  ``deps``, if
    given, receives one ``(path, name, value)`` per read outside the function
    (globals, closure cells, builtins, module attributes; ``path`` names the
    inlined callees it was read in).  ``fallback="region"`` makes every statement son
    cannot express a node that CPython runs (a ``PyRegion``, son/frontend/regions.py)
    instead of an error; the default, "error", raises ``SonSyntaxError``.  ``inline=False``
    keeps each call of a module-level helper a ``Call`` of the helper's own graph where
    the call passes and returns single values, arrays or flat tuples of numbers (the
    ``inline`` pass inlines them later); the default inlines every helper while parsing,
    except those that call themselves (son/frontend/recursion.py).
    """
    _check_fallback(fallback)
    with gc_paused():  # ast.parse of a large function also builds many objects
        src = source_of(fn)
    return _verify_if_debug(build_graph(src, peephole, argtypes, args, tracer, deps, rules, fallback,
                                        inline))


def _check_fallback(fallback: str) -> None:
    if fallback not in ("error", "region"):
        raise SonError(f"son.parse: fallback must be 'region' or 'error', not {fallback!r}")


_COUNTER = [0]


def parse_source(text: str, name: str | None = None, peephole: bool = True, argtypes=None,
                 args=None, globals: dict | None = None, filename: str | None = None,
                 tracer=None, rules=None, fallback: str = "error", inline: bool = True) -> Graph:
    """Build the graph of function ``name`` (default: the last one) defined in ``text``.

    The text is executed as a module (with ``math``, ``np`` and ``numpy``
    available) so that helper functions and constants it defines can be
    inlined and folded.  ``tracer``, ``rules``, ``fallback`` and ``inline`` are those of
    ``son.parse``.
    """
    _check_fallback(fallback)
    if filename is None:
        _COUNTER[0] += 1
        filename = f"<son-source-{_COUNTER[0]}>"
    namespace = {"math": math, "np": np, "numpy": np, "__name__": "__son_source__"}
    if globals:
        namespace.update(globals)
    with gc_paused():
        src_from_text = source_from_text(text, name, namespace, filename)  # syntax errors first
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    try:
        with deep_syntax_trees():  # CPython's compiler counts its depth against the limit
            code = compile(text, filename, "exec")
    except SyntaxError as e:
        raise SonSyntaxError(f"Python syntax error: {e.msg}", filename, e.lineno or 0,
                             (e.offset or 1) - 1, "syntax") from None
    exec(code, namespace)  # noqa: S102 - the user's own code
    src_from_text.pyfunc = namespace.get(src_from_text.name)
    src_from_text.defaults = getattr(src_from_text.pyfunc, "__defaults__", None) or ()
    src_from_text.kwdefaults = dict(getattr(src_from_text.pyfunc, "__kwdefaults__", None) or {})
    return _verify_if_debug(build_graph(src_from_text, peephole, argtypes, args, tracer,
                                        rules=rules, fallback=fallback, inline=inline))
