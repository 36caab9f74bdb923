"""son: a Sea-of-Nodes optimizer research toolkit for Python.

    g = son.parse(f)            # one graph, folded while it is built
    print(g)                    # text IR
    son.interpret(g, 1, 2)      # reference semantics
"""

from .errors import SonError, SonSyntaxError
from .exec.interp import interpret
from .frontend import parse, parse_source
from .nodes import Graph

#: run the verifier after every stage (tests turn it on)
debug = False

__version__ = "0.1.0"

__all__ = ["Graph", "SonError", "SonSyntaxError", "debug", "interpret", "parse", "parse_source"]
