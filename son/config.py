"""Switches that every layer reads: the bottom of son's import graph.

Library modules read these at call time (``from .. import config`` then
``if config.debug:``), never at import time, so that setting a switch takes
effect for the next call.  Users set them through the root package
(``son.debug = True`` forwards here) or here directly; nothing in this module
imports the rest of son.
"""

#: run the verifier after every stage (tests and the fuzz campaign turn it on)
debug: bool = False

#: how many recursive calls deep a function may go before RecursionError (the
#: interpreter and the kernels; CPython's default limit counts every frame, the
#: caller's too, so it raises a little earlier); read when a kernel is generated
recursion_limit: int = 1000

#: what ``son.jit`` does with a function (or argument types) it cannot compile:
#: "region" compiles what it can and runs each statement it cannot express with CPython
#: (a fallback region, son/frontend/regions.py), warning once with the lines and why, and
#: where even that fails runs the whole function in CPython as "function" does;
#: "function" runs the whole function in CPython and warns once (``son.FallbackWarning``,
#: with son's reason); "error" raises son's error (``SonSyntaxError`` with its location)
fallback: str = "region"

#: son's version: part of the kernel cache's key; setup.cfg reads it from here
__version__ = "0.1.0"
