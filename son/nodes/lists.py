"""Lists: Python lists of one element kind, objects in memory like arrays.

  NewList(ctrl, length, value)     ``[value] * length``: a new list (an identity)
  ListLen(ctrl, mem, list)         its length in memory state ``mem``
  ListOp(ctrl, mem, list, args...) a method that changes the list (``append``,
                                   ``insert``, ``pop``, ``sort``, ``reverse``,
                                   ``clear``; ``grow(k, v)`` appends ``v`` k times,
                                   reverse mode's undoing of a clear): the next
                                   memory state

An element is read and written with the arrays' ``Load`` and ``Store`` (a list is
indexed as an array is, after the same bounds guard); its length changes, so unlike
``ArrayLen`` the length is read from memory.  A ``ListOp`` is ordered like a Store:
it hangs from its control and overwrites the memory state it takes, so no pass moves
a read of the list across it.  ``pop`` here only removes: the frontend reads the
element with a Load first and checks the index with a guard, so no node faults.
"""

from __future__ import annotations

from ..errors import SonError
from .control import Return
from .memory import LENGTH, Load, Store
from .node import Node
from .types import BOTTOM, MEM, TOP, ListType, Type, bounds

#: the methods a ListOp may call, with their operand counts (after the list)
LIST_METHODS = {"append": 1, "insert": 2, "pop": 1, "sort": 0, "sort_reverse": 0, "reverse": 0,
                "clear": 0, "grow": 2}


class NewList(Node):
    """``[value] * length`` with elements of ``dtype`` (a negative length: empty)."""

    __slots__ = ("dtype",)
    is_gvn = False  # two lists are two objects
    allocates = True

    def __init__(self, graph, ctrl, length, value, dtype: str):
        self.dtype = dtype
        super().__init__(graph, ctrl, length, value)

    def payload(self):
        return (self.dtype,)

    @property
    def label(self) -> str:
        return f"new {ListType(self.dtype)}"

    def compute(self) -> Type:
        n, v = self.inputs[1].type, self.inputs[2].type
        if n is TOP or v is TOP:
            return TOP
        return ListType(self.dtype) if n.kind in ("int", "bool") else BOTTOM

    def eval(self, length, value):
        return [value] * length


class ListLen(Node):
    """The length of a list in a memory state."""

    __slots__ = ()
    is_gvn = True  # same control, memory and list: the same length
    reads_memory = True

    def __init__(self, graph, ctrl, mem, lst):
        super().__init__(graph, ctrl, mem, lst)

    @property
    def label(self) -> str:
        return "list len"

    def compute(self) -> Type:
        t = self.inputs[2].type
        if t is TOP:
            return TOP
        return LENGTH if isinstance(t, ListType) else BOTTOM

    def eval(self, mem, lst):
        return len(lst)


class ListOp(Node):
    """A method of ``list`` called for its effect; its value is the next memory state.
    ``pop`` takes an index already made non-negative and checked."""

    __slots__ = ("method",)
    is_gvn = False
    writes_memory = True

    def __init__(self, graph, ctrl, mem, lst, *args, method: str):
        assert LIST_METHODS[method] == len(args), (method, args)
        self.method = method
        super().__init__(graph, ctrl, mem, lst, *args)

    def payload(self):
        return (self.method,)

    @property
    def label(self) -> str:
        return f"list.{self.method}"

    def compute(self) -> Type:
        return MEM

    def eval(self, mem, lst, *args):
        m = self.method
        if m == "sort_reverse":
            lst.sort(reverse=True)
        elif m == "grow":  # (count, value): reverse mode's undoing of a clear
            lst.extend([args[1]] * args[0])
        else:
            getattr(lst, m)(*args)


_ELEMENT_TYPES = {"float64": (float, "float"), "int64": (int, "int"), "bool": (bool, "bool")}


def list_converter(where: str, t: ListType):
    """A check that an argument is a Python list of exactly ``t``'s element kind (an int
    in a list of floats is refused, as son's lists never hold one), returning it as it is:
    the callee's changes are the caller's, as in CPython.  O(len) per call."""
    want, name = _ELEMENT_TYPES[t.dtype]

    def check(a):
        if type(a) is not list:
            raise SonError(f"{where} must be a list of {name}s, got {type(a).__name__}")
        for i, x in enumerate(a):
            if type(x) is not want:
                raise SonError(f"{where} must be a list of {name}s, got {type(x).__name__} {x!r} at "
                               f"index {i} (son's lists hold one kind of element)")
            if want is int and not -(1 << 63) <= x < (1 << 63):
                raise SonError(f"{where}: item {i} = {x} does not fit in int64")
        return a

    return check


def fixed_length(n: Node) -> Node | None:
    """For ``ListLen(ctrl, mem, L)`` of a new list ``L`` whose length nothing changes (no
    ``ListOp`` on it, never merged by a Phi or passed to a call), the node that is its
    length, whatever the memory state; else None.  Only sound on a finished graph (a
    parse adds users as it goes): for passes, not for the parse-time peephole.
    O(users of L)."""
    lst = n.inputs[2]
    if type(lst) is not NewList:
        return None
    length = lst.inputs[1]
    b = bounds(length.type)
    if b is None or b[0] < 0:
        return None  # a negative repeat count makes an empty list: not this node's value
    for u, k in lst.outputs.items():
        if not ((type(u) in (ListLen, Load, Store) and u.inputs[2] is lst and k == 1) or type(u) is Return):
            return None
    return length
