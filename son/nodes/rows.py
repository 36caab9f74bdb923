"""Lists of tuples at a graph's boundary: the calling convention of their columns.

Inside a graph a list of k-tuples is k lists of numbers changed in lockstep, its
*columns* (son/frontend/tuplelists.py).  A parameter or a result that is one has the
``Return.form``/``Graph.arg_forms`` leaf ``rows_form(k)``: the caller's list of tuples
is split into k new Python lists before the call (``columns``), and a result's columns
are zipped back into a list of tuples (``rows``).

CPython's callee changes the caller's list itself, so ``written_back`` wraps a call:
it splits each list-of-tuples argument once (``flatten`` takes those columns), and when
the call ends, normally or by an exception, it writes the columns back into the
caller's list (``xs[:] = zip(*columns)``: the same list object, changed as CPython's
callee would have changed it).  A result whose columns are exactly an argument's
columns is that argument (``return xs`` gives the caller's own list, as CPython).  One
list passed as two parameters is refused (its columns would be two copies that do not
see each other's changes).  O(items * k) per call.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar

from ..errors import SonError

_ROWS = re.compile(r"rows(\d+)")
#: id(argument) -> (argument, its columns) for the call under way (``written_back``)
_CALL: ContextVar[dict | None] = ContextVar("son_rows_call", default=None)


def rows_form(k: int) -> str:
    """The form of a parameter or result that is a list of k-tuples: its k columns."""
    return f"rows{k}"


def rows_arity(form) -> int | None:
    """k for a ``rows_form(k)``, else None."""
    m = _ROWS.fullmatch(form) if isinstance(form, str) else None
    return int(m.group(1)) if m else None


def columns(a, k: int, where: str) -> list[list]:
    """The k columns of ``a``, a Python list of k-tuples (those ``written_back`` made for
    it during its call); ``SonError`` for anything else.  The columns' element kinds are
    checked where they are passed, as any list's."""
    made = (_CALL.get() or {}).get(id(a))
    if made is not None and made[0] is a:
        return made[1]
    if type(a) is not list:
        raise SonError(f"{where}(): expected a list of {k}-tuples, got {type(a).__name__}")
    for i, t in enumerate(a):
        if type(t) is not tuple or len(t) != k:
            raise SonError(f"{where}(): expected a list of {k}-tuples, got {type(t).__name__} {t!r} "
                           f"at index {i}")
    return [[t[j] for t in a] for j in range(k)]


def rows(cols: list):
    """The list of tuples whose columns are ``cols``: the caller's own list where these
    are the columns of one of its arguments."""
    for a, made in (_CALL.get() or {}).values():
        if len(made) == len(cols) and all(x is y for x, y in zip(made, cols)):
            return a
    return list(zip(*cols))


def _row_arguments(forms: list, args) -> list:
    """The arguments whose form is a ``rows_form`` (a tuple's nested ones too)."""
    out, stack = [], list(zip(forms, args))
    while stack:
        f, a = stack.pop()
        if rows_arity(f) is not None:
            out.append((f, a))
        elif isinstance(f, tuple) and type(a) is tuple and len(a) == len(f):
            stack.extend(zip(f, a))
    return out


@contextmanager
def written_back(forms: list | None, args, where: str):
    """Around one call of a graph whose parameters have ``forms``: each list-of-tuples
    argument split once into its columns, written back into it when the call ends."""
    found = _row_arguments(forms, args) if forms is not None and len(forms) == len(args) else []
    if not found:
        yield
        return
    made: dict = {}
    for f, a in found:
        if id(a) in made:
            raise SonError(f"{where}(): one list of tuples passed as two parameters (son splits each "
                           "into lists of its columns, which would not see each other's changes): "
                           "pass a copy, list(xs)")
        made[id(a)] = (a, columns(a, rows_arity(f), where))
    token = _CALL.set(made)
    try:
        yield
    finally:
        _CALL.reset(token)
        for a, cols in made.values():
            a[:] = zip(*cols)
