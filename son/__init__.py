"""son: a Sea-of-Nodes optimizer research toolkit for Python.

    g = son.parse(f)                          # one graph, folded while it is built
    print(g)                                  # text IR
    son.interpret(g, 1, 2)                    # reference semantics
    h, stats = son.optimize(g, "sccp")        # global optimistic passes
    son.compare(f)                            # pessimistic vs optimistic, side by side
    s = son.schedule(h)                       # Global Code Motion
    k = son.jit(f)                            # a Numba-compiled kernel
    df = son.grad(f)                          # derivatives: grad, value_and_grad, jvp

Stages that pull in heavy dependencies (Numba) are imported on first use, so
``import son`` stays cheap.
"""

from importlib import import_module

from .errors import SonError, SonSyntaxError
from .exec.interp import interpret
from .frontend import parse, parse_source
from .grad import grad, jvp, value_and_grad  # son.grad the function shadows the subpackage, as below
from .nodes import Graph
from .schedule import schedule  # the function shadows the subpackage's name on purpose
from .trace import trace  # likewise

#: run the verifier after every stage (tests turn it on)
debug = False

__version__ = "0.1.0"

#: public name -> (module that defines it, attribute or None for the module),
#: imported on first access
_LAZY = {
    "optimize": ("son.passes", "optimize"),
    "compare": ("son.passes", "compare"),
    "register_pass": ("son.passes", "register_pass"),
    "examples": ("son.examples", None),
    "compile": ("son.exec.jit", "compile"),
    "jit": ("son.exec.jit", "jit"),
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
    return sorted(set(globals()) | set(_LAZY))


__all__ = ["Graph", "SonError", "SonSyntaxError", "debug", "grad", "interpret", "jvp", "parse",
           "parse_source", "schedule", "trace", "value_and_grad", *_LAZY]
