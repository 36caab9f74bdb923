"""The statement tree of a generated function and its rendering as Python source.

The structurer (``structure.py``) and the mixed-value code (``mixed.py``) build
a tree of statement lists: strings, ``_If`` (a test with two lists), ``_While``
(``while True:``, or a counted ``for ... in range`` with an ``else``), ``_Exit``
(a statement control does not fall past: ``break``, ``continue``, ``return``,
``raise``), ``_Comment``, ``_Set`` (a selector or flag assignment, dropped if
nothing reads it) and ``_Lazy`` (decided once the whole function is
structured).  ``_finish`` resolves the lazy statements, drops tests that do
nothing, unread selectors and the redundant ``continue`` at the end of a loop
body, and computes which ``if`` statements can fall through; ``_render`` writes
the lines, with ``elif`` chains, ``if not`` for empty then-branches and the
else-branch hoisted after an ``if`` that cannot fall through.

Costs: both passes are iterative (explicit stacks, no Python recursion, whatever
the nesting) and linear in the size of the code.
"""

from __future__ import annotations

from typing import Callable

from ..errors import SonError
from .emit import _ATOM, _balanced_outer

#: Python rejects more than 100 indentation levels
_MAX_INDENT = 95


# ====================================================================== statements
class _If:
    __slots__ = ("cond", "then", "orelse", "falls")

    def __init__(self, cond: str):
        self.cond = cond
        self.then: list = []
        self.orelse: list = []
        self.falls = True


class _While:
    """A loop: ``while True:``, or with ``head`` (``for v5 in range(n):``) a counted loop
    whose ``orelse`` runs when the range is exhausted (Python's ``for ... else``).
    ``breaks`` counts the ``break`` statements of the body."""

    __slots__ = ("body", "breaks", "head", "orelse")

    def __init__(self):
        self.body: list = []
        self.breaks = 0
        self.head: str | None = None
        self.orelse: list = []


class _Exit:
    """A statement after which control does not fall through."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text


class _Comment(str):
    """A comment line: not a statement (a list of comments alone needs ``pass``)."""


class _Set(str):
    """An assignment to a selector or flag variable ``var`` (dropped if nothing reads it)."""

    var = ""

    @classmethod
    def of(cls, var: str, value: int) -> _Set:
        s = cls(f"{var} = {value}")
        s.var = var
        return s


class _Lazy:
    """A statement decided once the whole function is structured (``fn() -> str | None``)."""

    __slots__ = ("fn",)

    def __init__(self, fn: Callable[[], str | None]):
        self.fn = fn


def _falls(stmts: list) -> bool:
    k = len(stmts) - 1
    while k >= 0 and type(stmts[k]) is _Comment:
        k -= 1
    if k < 0:
        return True
    s = stmts[k]
    t = type(s)
    if t is _Exit:
        return False
    if t is _If:
        return s.falls
    if t is _While:
        return s.breaks > 0 or (s.head is not None and _falls(s.orelse))
    return True


# ====================================================================== tree passes
def _walk_lists(body: list) -> list[list]:
    """Every statement list of the tree, parents before children (iterative)."""
    out, stack = [], [body]
    while stack:
        lst = stack.pop()
        out.append(lst)
        for s in lst:
            t = type(s)
            if t is _If:
                stack.append(s.then)
                stack.append(s.orelse)
            elif t is _While:
                stack.append(s.body)
                stack.append(s.orelse)
    return out


def _empty(lst: list) -> bool:
    return all(type(x) is _Comment for x in lst)


def _prune(lists: list[list]) -> None:
    """Children before parents: drop tests whose branches do nothing (the condition is
    pure) and the comments of lists that hold nothing else."""
    for lst in reversed(lists):
        lst[:] = [x for x in lst if not (type(x) is _If and _empty(x.then) and _empty(x.orelse))]
        if _empty(lst):
            lst.clear()


def _finish(body: list) -> None:
    """Resolve lazy statements, drop what does nothing (empty tests, selectors nobody
    reads), drop the ``continue`` that ends a loop body, and compute which ``if``
    statements can fall through.  O(size of the code)."""
    lists = _walk_lists(body)
    for lst in lists:
        resolved = []
        for s in lst:
            if type(s) is _Lazy:
                s = s.fn()
                if s is None:
                    continue
            resolved.append(s)
        lst[:] = resolved
    _prune(lists)
    lists = _walk_lists(body)
    read = {s.cond.split(" ", 1)[0] for lst in lists for s in lst if type(s) is _If}
    for lst in lists:
        lst[:] = [x for x in lst if not (type(x) is _Set and x.var not in read)]
    _prune(lists)
    lists = _walk_lists(body)
    # tail positions of loop bodies: a trailing `continue` there is implicit
    stack = [s.body for lst in lists for s in lst if type(s) is _While]
    while stack:
        lst = stack.pop()
        k = len(lst) - 1
        while k >= 0 and type(lst[k]) is _Comment:
            k -= 1
        if k < 0:
            continue
        last = lst[k]
        if type(last) is _Exit and last.text == "continue":
            del lst[k]
        elif type(last) is _If:
            stack.append(last.then)
            stack.append(last.orelse)
    for lst in reversed(lists):
        for s in lst:
            if type(s) is _If:
                s.falls = _falls(s.then) or _falls(s.orelse)


def _negate(cond: str) -> str:
    if cond.startswith("not ") and _balanced_outer(cond[4:]):
        return cond[4:]
    if _ATOM.match(cond) and not cond.startswith("("):
        return f"not {cond}"
    return f"not ({cond})"


def _render(body: list, indent: int) -> list[str]:
    """The lines of a statement tree, with ``elif`` chains, ``if not`` for an empty
    then-branch and the else-branch hoisted after a then-branch that cannot fall through.
    Iterative: the stack holds statement lists still to print and literal lines."""
    lines: list[str] = []
    stack: list[tuple] = [(body, 0, indent)]
    while stack:
        top = stack.pop()
        if type(top) is str:
            lines.append(top)
            continue
        lst, i, ind = top
        if ind > _MAX_INDENT:
            raise SonError("control flow nested too deeply to be written as Python source "
                           f"(more than {_MAX_INDENT} levels)")
        pad = "    " * ind
        if i == 0 and _empty(lst):
            lines.append(pad + "pass")
            continue
        if i >= len(lst):
            continue
        s = lst[i]
        stack.append((lst, i + 1, ind))
        t = type(s)
        if isinstance(s, str):
            lines.extend(pad + line for line in s.split("\n"))
        elif t is _Exit:
            lines.append(pad + s.text)
        elif t is _While and s.head is None:
            lines.append(pad + "while True:")
            stack.append((s.body, 0, ind + 1))
        elif t is _While:
            lines.append(pad + s.head)
            if _empty(s.orelse):
                pass
            elif s.breaks:
                stack.append((s.orelse, 0, ind + 1))
                stack.append(f"{pad}else:")
            else:  # no break: what runs after the range is exhausted runs after the loop
                stack.append((s.orelse, 0, ind))
            stack.append((s.body, 0, ind + 1))
        elif t is _If:
            cond, then, orelse = s.cond, s.then, s.orelse
            if _empty(then):
                cond, then, orelse = _negate(cond), orelse, []
            lines.append(f"{pad}if {cond}:")
            pieces: list[tuple] = [(then, 0, ind + 1)]
            if _empty(orelse):
                pass
            elif not _falls(then):
                pieces.append((orelse, 0, ind))  # hoisted: printed after the if
            else:
                while len(orelse) == 1 and type(orelse[0]) is _If:
                    e = orelse[0]
                    cond, then, orelse = e.cond, e.then, e.orelse
                    if _empty(then):
                        cond, then, orelse = _negate(cond), orelse, []
                    pieces.append(f"{pad}elif {cond}:")
                    pieces.append((then, 0, ind + 1))
                if not _empty(orelse):
                    pieces.append(f"{pad}else:")
                    pieces.append((orelse, 0, ind + 1))
            stack.extend(reversed(pieces))
    return lines
