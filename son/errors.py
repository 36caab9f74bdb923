"""Errors a user can cause.  Internal invariants are asserts (see the verifier)."""

from __future__ import annotations


class SonError(Exception):
    """Base class of every error son reports to its user."""


class SonSyntaxError(SonError):
    """A construct outside son's Python subset, with its source location."""

    def __init__(self, message: str, filename: str = "<unknown>", lineno: int = 0,
                 col: int = 0, construct: str | None = None):
        self.message = message
        self.filename = filename
        self.lineno = lineno
        self.col = col
        self.construct = construct
        where = f"{filename}:{lineno}:{col}: " if lineno else ""  # no source: no position
        super().__init__(f"{where}{message}")


class FallbackWarning(UserWarning):
    """``son.jit`` runs a function in CPython because son cannot compile it (the message
    says why, with the source location); ``fallback="error"`` raises instead."""


class KernelCompileError(SonError):
    """Numba refused the source son generated for a graph (a bug in son's code generator).

    ``source`` is the generated module's text and ``path`` the file it was written to,
    so the kernel can be read, and compiled by hand, to see what Numba objects to."""

    def __init__(self, message: str, source: str, path: str):
        self.source = source
        self.path = path
        super().__init__(message)
