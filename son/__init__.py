"""son: a Sea-of-Nodes optimizer research toolkit for Python.

    g = son.parse(f)                          # one graph, folded while it is built
    print(g)                                  # text IR
    son.interpret(g, 1, 2)                    # reference semantics
    h, stats = son.optimize(g, "sccp")        # global optimistic passes
    son.compare(f)                            # pessimistic vs optimistic, side by side
    s = son.schedule(h)                       # Global Code Motion
    k = son.jit(f)                            # a Numba-compiled kernel
    df = son.grad(f)                          # derivatives: grad, value_and_grad, jvp
    son.explore(f).save("f.html")             # every phase, interactive (inline in Jupyter)

Numba is imported on first compile, so ``import son`` stays cheap.  The layers and
where each concept lives: docs/architecture.md.
"""

import sys
import types
from importlib import import_module

# son.viz installs the drawing hooks on Graph and Schedule; son.grad and son.schedule are
# callable packages: son.grad(f), son.schedule(g) (son._util.callable_package)
from . import config, grad, schedule, viz  # noqa: F401
from .driver import (
    Pipeline,
    compare,
    compile,
    explore,
    jit,
    jvp,
    optimize,
    register_pass,
    trace,
    value_and_grad,
)
from .errors import FallbackWarning, SonError, SonSyntaxError
from .exec.interp import interpret
from .frontend import parse, parse_source
from .nodes import Graph

__version__ = config.__version__

#: public name -> (module that defines it, attribute or None for the module),
#: imported on first access
_LAZY = {
    "examples": ("son.examples", None),
}


def __getattr__(name: str):
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module 'son' has no attribute {name!r}")
    m = import_module(where[0])
    value = m if where[1] is None else getattr(m, where[1])
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | {"debug"})


class _SonModule(types.ModuleType):
    """``son`` itself: ``son.debug`` reads and sets ``son.config.debug``, where the
    library reads it (a module's own globals cannot forward an assignment)."""

    @property
    def debug(self) -> bool:
        """Run the verifier after every stage (see ``son.config``)."""
        return config.debug

    @debug.setter
    def debug(self, value: bool) -> None:
        config.debug = value


sys.modules[__name__].__class__ = _SonModule
del sys, types


__all__ = ["FallbackWarning", "Graph", "Pipeline", "SonError", "SonSyntaxError", "compare", "compile",
           "debug", "explore", "grad", "interpret", "jit", "jvp", "optimize", "parse", "parse_source",
           "register_pass", "schedule", "trace", "value_and_grad", *_LAZY]
