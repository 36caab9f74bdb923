"""The ``Node`` base class: ordered inputs, exact users, one edge-setting method.

Invariant, kept at every moment: ``y in x.outputs`` with multiplicity k exactly
when ``x`` occurs k times in ``y.inputs``.  ``outputs`` is an insertion-ordered
dict ``{user: multiplicity}`` so that dropping a use is O(1) even on hubs such
as a constant with 10^5 users.  Every input change goes through
``set_input`` / ``add_input`` / ``remove_input`` / ``subsume``, which fix both
directions, forget the node's value-numbering key (it changes with the
inputs) and kill inputs that lost their last user.  ``kill`` is iterative.

A node is *dead* when it has no users and no pins; ``keep``/``unkeep`` pin a
node that the frontend still holds in a Python variable, and ``with kept(a, b):``
pins nodes for the duration of a block.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from .types import BOTTOM, TOP, TupleType, Type, constant

if TYPE_CHECKING:
    from .graph import Graph

#: exceptions whose raising by ``eval`` means "do not fold this constant"
FOLD_ERRORS = (ArithmeticError, ValueError, IndexError, TypeError)


class kept:  # lower case: it reads as a function, ``with kept(a, b):``
    """Pin ``nodes`` (None entries are skipped) while the ``with`` block runs, so that
    a rewrite inside it cannot kill a node the caller still holds.  A class, not a
    generator: the frontend enters one per node it makes."""

    __slots__ = ("nodes",)

    def __init__(self, *nodes: Node | None):
        self.nodes = nodes

    def __enter__(self) -> None:
        for n in self.nodes:
            if n is not None:
                n.keep()

    def __exit__(self, *exc) -> None:
        for n in self.nodes:
            if n is not None:
                n.unkeep()


class Node:
    __slots__ = ("graph", "nid", "inputs", "outputs", "type", "_gvn_key", "_pins")

    #: CFG nodes carry control; they are never value-numbered
    is_cfg = False
    #: nodes that may be value-numbered (no side effect, no identity)
    is_gvn = True
    #: commutative binary nodes get a canonical operand order
    commutative = False
    #: the value depends on the memory state ``inputs[1]`` (a Load): it must run before
    #: any node that overwrites that state
    reads_memory = False
    #: the node changes memory (a Store, a Call, a list method): it hangs from its control,
    #: runs exactly once where it stands, and is never folded, merged or moved
    writes_memory = False
    #: the node makes a new object (an array, a list): two of them are never one
    allocates = False

    def __init__(self, graph: Graph, *inputs: Node | None):
        self.graph = graph
        self.nid = graph.new_id()
        self.inputs: list[Node | None] = []
        self.outputs: dict[Node, int] = {}
        self.type: Type = BOTTOM
        self._gvn_key = None
        self._pins = 0
        for x in inputs:
            self.add_input(x)
        self.type = self.compute()

    # ------------------------------------------------------------------ naming
    @property
    def label(self) -> str:
        return type(self).__name__

    def payload(self) -> tuple:
        """Data besides the inputs that makes this node what it is (GVN, copy)."""
        return ()

    def key(self) -> tuple:
        return (type(self), self.payload(), tuple(x.nid if x is not None else -1 for x in self.inputs))

    def __repr__(self) -> str:
        return f"%{self.nid}:{self.label}"

    # ------------------------------------------------------------------ edges
    @property
    def ctrl(self) -> Node | None:
        return self.inputs[0] if self.inputs else None

    @property
    def dead(self) -> bool:
        return self.inputs is None

    def users(self) -> Iterator[Node]:
        return iter(list(self.outputs))

    def _add_use(self, user: Node) -> None:
        self.outputs[user] = self.outputs.get(user, 0) + 1

    def _del_use(self, user: Node) -> None:
        k = self.outputs[user] - 1
        if k:
            self.outputs[user] = k
        else:
            del self.outputs[user]

    def is_unused(self) -> bool:
        return not self.outputs and not self._pins

    def keep(self) -> Node:
        self._pins += 1
        return self

    def unkeep(self) -> Node:
        self._pins -= 1
        return self

    def duplicate(self, inputs: list[Node | None]) -> Node:
        """A new node of this node's class, payload and type, with a new id and ``inputs``:
        for passes that copy code (loop versioning).  O(slots + inputs)."""
        c = object.__new__(type(self))
        copy_slots(self, c)
        c.nid = self.graph.new_id()
        c.inputs, c.outputs, c._gvn_key, c._pins = [], {}, None, 0
        for x in inputs:
            c.add_input(x)
        return c

    def forget_key(self) -> None:
        """Drop this node from the graph's value-numbering table (its key changes)."""
        if self._gvn_key is not None:
            if self.graph.gvn.get(self._gvn_key) is self:
                del self.graph.gvn[self._gvn_key]
            self._gvn_key = None

    def set_input(self, i: int, new: Node | None) -> None:
        """The one way to change an input: fixes both edge directions."""
        old = self.inputs[i]
        if old is new:
            return
        self.forget_key()
        if new is not None:
            new._add_use(self)
        self.inputs[i] = new
        if old is not None:
            old._del_use(self)
            if old.is_unused():
                old.kill()

    def swap_inputs(self, i: int, j: int) -> None:
        """Exchange two inputs (the users' counts do not change)."""
        self.forget_key()
        ins = self.inputs
        ins[i], ins[j] = ins[j], ins[i]

    def add_input(self, new: Node | None) -> None:
        self.forget_key()
        if new is not None:
            new._add_use(self)
        self.inputs.append(new)

    def remove_input(self, i: int) -> None:
        self.forget_key()
        old = self.inputs.pop(i)
        if old is not None:
            old._del_use(self)
            if old.is_unused():
                old.kill()

    def subsume(self, new: Node) -> None:
        """Make every user of ``self`` use ``new`` instead, then kill ``self``."""
        assert new is not self
        new.keep()
        for user in list(self.outputs):
            user.forget_key()
            ins = user.inputs
            for i, x in enumerate(ins):
                if x is self:
                    ins[i] = new
                    new._add_use(user)
            del self.outputs[user]
        if self.is_unused():
            self.kill()
        new.unkeep()

    def kill(self) -> None:
        """Remove this unused node and, iteratively, every input it kept alive."""
        stack = [self]
        while stack:
            n = stack.pop()
            if n.inputs is None or not n.is_unused():
                continue
            n.forget_key()
            ins, n.inputs = n.inputs, None
            for x in ins:
                if x is not None:
                    x._del_use(n)
                    if x.is_unused():
                        stack.append(x)

    # ------------------------------------------------------------------ types
    def compute(self) -> Type:
        """This node's type from its inputs' types (shared by peephole and SCCP)."""
        ts = [x.type for x in self.inputs[1:]]
        if TOP in ts:
            return TOP
        if ts and all(t.is_constant for t in ts):
            try:
                return constant(self.eval(*[t.con for t in ts]))
            except FOLD_ERRORS:
                pass
        return self.result_type(*ts)

    def result_type(self, *ts: Type) -> Type:
        """The type for non-constant inputs ``ts`` (BOTTOM means a type error)."""
        return BOTTOM

    def eval(self, *values):
        """The reference semantics on Python values; raising means 'faults'."""
        raise TypeError(f"{self.label} has no value semantics")


class TupleOut(Node):
    """Value ``index`` of a node whose value is a tuple (``inputs[1]``: a call of a
    function that gives several values, a fallback region's live-outs): pure, never
    value-numbered (its input is not)."""

    __slots__ = ("index",)
    is_gvn = False

    def __init__(self, graph, source, index: int):
        self.index = index
        super().__init__(graph, None, source)

    def payload(self):
        return (self.index,)

    def compute(self) -> Type:
        t = self.inputs[1].type
        if isinstance(t, TupleType) and self.index < len(t.elems):
            return t.elems[self.index]
        return TOP

    def eval(self, values):
        return values[self.index]


def copy_slots(src: Node, dst: Node) -> None:
    """Copy every slot of ``src`` (its class's and its bases') that is set onto ``dst``."""
    for cls in type(src).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if hasattr(src, slot):
                setattr(dst, slot, getattr(src, slot))
