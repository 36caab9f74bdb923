"""The oracle's part for programs with fallback regions (``son.fuzz.fallbackgen``).

A program declares that it has regions with the module line ``SON_FALLBACK = "region"``
(``fallback_of``); ``son.fuzz.oracle.check`` then parses it with
``fallback="region"``, counts a ``SonSyntaxError`` son raises about a region
(construct ``"fallback"``: a value son cannot pass across, a live-out whose kind it
cannot tell) as a refusal, and compares more than a call's result:

* what the call printed (``contextlib.redirect_stdout``; a kernel's regions print
  through ``numba.objmode``, so from CPython too);
* the message of an exception the program's own class raised, or an ``AssertionError``
  (son's compiled code raises builtin exceptions with messages of its own, so the type
  alone is compared for those);
* the module's scalar globals after the call (the ``CALLS`` counter a region
  increments): ``Effects`` sets them back to their values after the module ran before
  every call of every stage, so each call starts from the same state as CPython's.

Every graph stage runs the regions in the namespace of its own parse (found from a
``PyRegion``'s code; a graph whose regions were all removed as dead changes no global);
the ``jit`` stage (``jitted``) runs ``son.jit`` of the function with its default
fallback, as a user would, in a namespace of its own.  O(args) calls per stage.
"""

from __future__ import annotations

import ast
import contextlib
import io
import itertools
import linecache
import warnings
from typing import Callable

import son
from son.errors import FallbackWarning, SonSyntaxError
from son.nodes.opaque import RERAISE, PyRegion

from .oracle import _outcome, _Runtime, canon, instrument

__all__ = ["MARKER", "Effects", "expected", "fallback_of", "is_refusal", "jitted", "namespace_of"]

#: the module variable that marks a program with regions
MARKER = "SON_FALLBACK"
_SCALARS = (int, float, bool, str)
_FILES = itertools.count()


def fallback_of(source: str) -> str:
    """``"region"`` for a program with the line ``SON_FALLBACK = "region"``, else ``"error"``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return "error"
    for s in tree.body:
        if isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == MARKER for t in s.targets) \
                and isinstance(s.value, ast.Constant) and s.value.value == "region":
            return "region"
    return "error"


def is_refusal(e: SonSyntaxError) -> bool:
    """Is ``e`` son refusing to make a fallback region (a located error it documents)?"""
    return e.construct == "fallback"


def _told(e: BaseException) -> bool:
    """Is ``e``'s message compared: the program's own exception class, or an assert's."""
    return type(e).__module__ != "builtins" or type(e) is AssertionError


class Effects:
    """A call's effects besides its result (see the module docstring); ``initial``: the
    module's scalar globals after it ran, before any call."""

    def __init__(self, module: dict):
        self.initial = {k: v for k, v in module.items() if type(v) in _SCALARS and not k.startswith("__")}

    def outcome(self, namespace: dict | None) -> Callable:
        """``outcome(call, args)``: ``oracle._outcome``'s tuple, the exception's message where
        it is compared, the printed text and the globals of ``namespace`` after the call
        (None: a stage that cannot change them)."""

        def run(call, args) -> tuple:
            if namespace is not None:
                namespace.update(self.initial)
            caught: list[BaseException] = []

            def traced(*a):
                try:
                    return call(*a)
                except Exception as e:
                    caught.append(e)
                    raise

            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                out = _outcome(traced, args)
            if out[0] == "raise" and caught and _told(caught[-1]):
                out = out + (str(caught[-1]),)
            after = self.initial if namespace is None else namespace
            return out + (buf.getvalue(), tuple((k, canon(after.get(k))) for k in sorted(self.initial)))

        return run


def expected(source: str, args: list[tuple], name: str = "f") -> tuple[list[tuple], int, Effects]:
    """CPython's outcomes (``oracle.expected_outcomes``, with the effects), the int64
    wrap-arounds met and the ``Effects`` to compare the stages with."""
    rt = _Runtime()
    ns = {"__rt": rt, "__name__": "__son_fuzz__"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(instrument(source), "<son-fuzz>", "exec", dont_inherit=True), ns)  # noqa: S102
    effects = Effects(ns)
    run = effects.outcome(ns)
    return [run(ns[name], a) for a in args], rt.wraps, effects


def namespace_of(g: son.Graph) -> dict | None:
    """The module namespace a graph's regions run in (None: it has none left)."""
    for n in g.nodes():
        if type(n) is PyRegion and n.code is not RERAISE:
            return n.code.fn.__globals__
    return None


@contextlib.contextmanager
def jitted(source: str, name: str = "f"):
    """``(son.jit(f), its module namespace)`` for the program's function, defined in a
    module of its own whose source ``inspect`` can read; its warnings (the regions that
    fall back) are not outcomes.  ``.kernels`` is empty after a call where son ran the
    whole function in CPython (``.fallbacks`` says why)."""
    filename = f"<son-fuzz-jit-{next(_FILES)}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    try:
        ns: dict = {"__name__": "__son_fuzz_jit__"}
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(source, filename, "exec", dont_inherit=True), ns)  # noqa: S102
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FallbackWarning)
            yield son.jit(ns[name]), ns
    finally:
        linecache.cache.pop(filename, None)
