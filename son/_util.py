"""Small helpers shared by the stages."""

from __future__ import annotations

import gc
import sys
from contextlib import contextmanager

#: Python frames the frontend may use: it recurses over the syntax tree, whose
#: depth CPython's own parser bounds (a few thousand for a long `a+b+...`)
FRONTEND_RECURSION_LIMIT = 60_000


@contextmanager
def gc_paused():
    """Pause Python's cyclic garbage collector while a stage builds a large graph.

    Nodes point at each other both ways, so every node is part of a cycle and
    the collector's full passes over a growing heap make graph building
    quadratic (measured: 40% of parse time at 10^5 nodes).  The collector
    resumes afterwards and frees the garbage (dropped graphs, dead cycles) then.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextmanager
def deep_syntax_trees():
    """Let the frontend recurse as deep as any tree ``ast.parse`` accepts.

    Only the syntax-tree walk recurses (graph walks are iterative); CPython 3.11
    runs Python-to-Python calls without growing the C stack, so a high limit
    is safe here.
    """
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, FRONTEND_RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def callable_package(module_name: str, fn) -> None:
    """Make the (already imported) module ``module_name`` callable: ``module(...)`` calls
    ``fn(...)``.  This is how ``son.grad`` and ``son.schedule`` are both the package and
    the user's entry point, without a function shadowing the package's name: attribute
    reads (``son.grad.reverse``) are the package's own, a call is ``fn``'s.  The module's
    class becomes a subclass of ``ModuleType`` made for it."""
    module = sys.modules[module_name]
    cls = type(f"CallablePackage[{module_name}]", (type(module),),
               {"__call__": staticmethod(fn), "__slots__": ()})
    module.__class__ = cls
