"""The parser's scope: the current control, memory and local variables.

As in Click's *Simple*, a scope is a (frontend-only) node whose inputs are
``[ctrl, mem, var...]``: the values a Python variable names stay alive
through ordinary def-use edges, and when a peephole replaces one of them
(a Phi collapsing, say) ``subsume`` updates the scope like any other user.
A scope is pinned while the parser holds it and killed when dropped.

A variable that is bound on some paths only is still a variable: where it may
be unbound the scope also holds its definedness flag (``flag(name)``), and
reading it is guarded by ``if not flag: raise UnboundLocalError``, which is
exactly what CPython does.  ``undefined`` keeps the names for which no flag
can be made (arrays: there is no placeholder array value).

The other frontend-only nodes are the ``Aggregate`` values: a tuple (``Pack``), a
value that may be None (``Opt``), a complex number (``Cplx``) and a list of tuples
(``TupleList``: one graph list per tuple position), their inputs the elements
(son/frontend/tuples.py, complexes.py, tuplelists.py); they never reach the finished graph.
"""

from __future__ import annotations

from ..nodes import NewArray, Node, Proj, Start
from ..nodes.types import BOTTOM, ArrayType, TupleType


def flag(name: str) -> str:
    """The hidden bool variable that says whether ``name`` is bound (present only
    where that may be false: after a merge of a path that binds it and one that
    does not, or in a loop that binds it first)."""
    return "$def:" + name


class Scope(Node):
    __slots__ = ("names", "undefined")
    is_gvn = False

    def __init__(self, graph, ctrl: Node, mem: Node):
        super().__init__(graph, ctrl, mem)
        self.keep()
        #: variable name -> input index
        self.names: dict[str, int] = {}
        #: names bound on some paths into here but not on all
        self.undefined: set[str] = set()

    @property
    def label(self) -> str:
        return "Scope"

    def compute(self):
        return BOTTOM

    # -- control and memory -----------------------------------------------------
    @property
    def ctrl(self) -> Node:
        return self.inputs[0]

    @ctrl.setter
    def ctrl(self, c: Node) -> None:
        self.set_input(0, c)

    @property
    def mem(self) -> Node:
        return self.inputs[1]

    @mem.setter
    def mem(self, m: Node) -> None:
        self.set_input(1, m)

    # -- variables ----------------------------------------------------------------
    def get(self, name: str) -> Node | None:
        i = self.names.get(name)
        return self.inputs[i] if i is not None else None

    def set(self, name: str, value: Node) -> None:
        """Bind ``name``; a user variable bound here is defined, so its flag goes."""
        self._bind(name, value)
        if not name.startswith("$"):
            self.undefined.discard(name)
            self.remove(flag(name))

    def _bind(self, name: str, value: Node) -> None:
        i = self.names.get(name)
        if i is None:
            self.names[name] = len(self.inputs)
            self.add_input(value)
        else:
            self.set_input(i, value)

    def remove(self, name: str) -> None:
        """Forget a (temporary) variable; its slot stays as a None input."""
        i = self.names.pop(name, None)
        if i is not None:
            self.set_input(i, None)

    def variables(self) -> dict[str, Node]:
        return {k: self.inputs[i] for k, i in self.names.items()}

    def dup(self) -> Scope:
        s = Scope(self.graph, self.ctrl, self.mem)
        for name, value in self.variables().items():
            s._bind(name, value)
        s.undefined = set(self.undefined)
        return s

    def drop(self) -> None:
        """Release the scope; values only it kept alive die with it."""
        self.unkeep()
        if self.is_unused() and self.inputs is not None:
            self.kill()


class Aggregate(Node):
    """A value made of several graph values while parsing (``inputs[0]`` is None, the
    elements follow): merged element by element at branches, carried by loops as one Phi
    per element, passed to inlined helpers; never in the finished graph.  Never
    value-numbered (two equal ones may be bound to different variables and it does not
    matter which one a read finds)."""

    __slots__ = ()
    is_gvn = False

    def __init__(self, graph, *elems: Node):
        super().__init__(graph, None, *elems)

    @property
    def elems(self) -> list[Node]:
        return self.inputs[1:]

    @property
    def label(self) -> str:
        return type(self).__name__

    def compute(self):
        return TupleType(x.type for x in self.inputs[1:])

    def rebuilt(self, elems) -> Aggregate:
        """An aggregate like this one (its class, its payload) of other elements."""
        return type(self)(self.graph, *elems)

    def merges_with(self, other: Node) -> bool:
        """Do this aggregate and ``other`` merge element by element (``ParserCore._phi``):
        of one class and length, and for a function value one target?"""
        return type(other) is type(self) and len(other.elems) == len(self.elems)


class Pack(Aggregate):
    """A tuple (son/frontend/tuples.py)."""

    __slots__ = ()


class ArrayList(Pack):
    """numpy's list of arrays (``np.split``'s result, son/frontend/arraybuild.py): held as a
    tuple of the parse, so it is indexed, unpacked, iterated and measured as one; what
    would tell a list from a tuple (returning it, comparing it, joining it to a tuple) is
    refused where written."""

    __slots__ = ()


class TupleList(Aggregate):
    """A list of k-tuples of numbers (son/frontend/tuplelists.py): the elements are k
    lists of the graph, one per tuple position, changed in lockstep (always of one
    length), so that item i is the tuple of their items i.  Two names for one list of
    tuples hold the same k lists, so each sees the other's changes, as in CPython."""

    __slots__ = ()

    @property
    def lists(self) -> list[Node]:
        return self.inputs[1:]

    @property
    def dtype(self) -> tuple:
        """The element kind of each position (``("int64", "float64")``)."""
        return tuple(x.type.dtype if hasattr(x.type, "dtype") else "float64" for x in self.inputs[1:])


class Opt(Aggregate):
    """A value that may be None: the elements are ``[is_none, value]`` (``value`` a
    placeholder of its kind where ``is_none`` holds).  Made where None and a number
    merge (``ParserCore._phi``); read through ``Tuples.unwrap`` (a TypeError where it is
    None)."""

    __slots__ = ()

    @property
    def is_none(self) -> Node:
        return self.inputs[1]

    @property
    def value(self) -> Node:
        return self.inputs[2]


class Cplx(Aggregate):
    """A complex number: the elements are its real and imaginary parts, floats
    (son/frontend/complexes.py)."""

    __slots__ = ()

    @property
    def re(self) -> Node:
        return self.inputs[1]

    @property
    def im(self) -> Node:
        return self.inputs[2]


class Rng(Aggregate):
    """A ``range`` object: the elements are its start, stop and step, ints (the step
    checked nonzero where it was made)."""

    __slots__ = ()

    @property
    def start(self) -> Node:
        return self.inputs[1]

    @property
    def stop(self) -> Node:
        return self.inputs[2]

    @property
    def step(self) -> Node:
        return self.inputs[3]


class It(Aggregate):
    """An iterator (son/frontend/iterators.py): the elements are its cell, a one-element
    int64 array holding the index of the next item, and the iterable it walks."""

    __slots__ = ()

    @property
    def cell(self) -> Node:
        return self.inputs[1]

    @property
    def seq(self) -> Node:
        return self.inputs[2]


class Slc(Aggregate):
    """A slice object (son/frontend/slicevalues.py): the elements are its start, stop and
    step, each an int, None, or an int that may be None."""

    __slots__ = ()


class Strided(Aggregate):
    """An array seen through a start and strides (``View``, ``Grid``): its first two
    elements are the 1-D base array of the graph and the index in it of the first
    element, so every view of one array reads and writes the one base, in memory order."""

    __slots__ = ()

    @property
    def base(self) -> Node:
        return self.inputs[1]

    @property
    def start(self) -> Node:
        return self.inputs[2]


class View(Strided):
    """A 1-D basic slice of an array, as numpy makes one (son/frontend/arrays.py): the
    elements are the base array, the view's first index in it, its step and its length
    (ints).  Element k is ``base[start + k * step]``."""

    __slots__ = ()

    @property
    def step(self) -> Node:
        return self.inputs[3]

    @property
    def length(self) -> Node:
        return self.inputs[4]


class Grid(Strided):
    """An n-D array (2-D or 3-D) or a view of one, as numpy holds it
    (son/frontend/ndarrays.py): the elements are a 1-D base array, the index of element
    ``(0, 0, ...)`` in it, the ``ndim`` dimensions and the ``ndim`` strides (in elements,
    any sign).  Element ``(i, j, ...)`` is ``base[start + i*s0 + j*s1 + ...]``."""

    __slots__ = ()

    @property
    def ndim(self) -> int:
        return (len(self.inputs) - 3) // 2

    @property
    def dims(self) -> list[Node]:
        return self.inputs[3:3 + self.ndim]

    @property
    def strides(self) -> list[Node]:
        return self.inputs[3 + self.ndim:]


class Chain(Aggregate):
    """A whole-array expression not made an array (son/frontend/ufuncs.py's ``Lazy``,
    the payload) passed to one of son's own reductions written in Python
    (son/frontend/arrayfns.py), which reads ``len(a)`` and ``a[k]`` of it: each ``a[k]``
    builds the chain's element k where it is read, so the reduction makes no
    temporary array.  The elements are the nodes the chain keeps alive."""

    __slots__ = ("lazy",)

    def __init__(self, graph, lazy, *elems: Node):
        self.lazy = lazy
        super().__init__(graph, *elems)

    def rebuilt(self, elems) -> Chain:
        return Chain(self.graph, self.lazy, *elems)

    def merges_with(self, other: Node) -> bool:
        return isinstance(other, Chain) and other.lazy is self.lazy


class Fn(Aggregate):
    """A function as a value (son/frontend/functions.py).  ``targets`` are what a call may
    run: Python functions or builtins, or ``functions.Local``s (a nested ``def``, a
    lambda) with captured values.  With one target the elements are its captured values;
    with several (a merge of different functions) the first element is the selector, the
    chosen target's id (``Functions.target_id``), and each target's captured values
    follow in turn (placeholders where it is not the one chosen)."""

    __slots__ = ("targets",)

    def __init__(self, graph, targets: tuple, *elems: Node):
        self.targets = targets
        super().__init__(graph, *elems)

    @property
    def label(self) -> str:
        return "Fn " + "|".join(getattr(t, "__name__", str(t)) for t in self.targets)

    @property
    def selector(self) -> Node | None:
        return self.inputs[1] if len(self.targets) > 1 else None

    def captures(self, i: int) -> list[Node]:
        """The captured values of target ``i``."""
        at = 1 if len(self.targets) > 1 else 0
        for t in self.targets[:i]:
            at += len(getattr(t, "captured", ()))
        return self.elems[at:at + len(getattr(self.targets[i], "captured", ()))]

    def rebuilt(self, elems) -> Fn:
        return Fn(self.graph, self.targets, *elems)

    def merges_with(self, other: Node) -> bool:
        return super().merges_with(other) and len(other.targets) == len(self.targets) and all(
            a is b for a, b in zip(other.targets, self.targets))


class Conflict(Aggregate):
    """The merge of values that do not merge: aggregates of different shapes (a tuple and
    a number, two functions): typed BOTTOM, so ``read`` and the conditional
    expressions refuse it where it is used, naming the variable; never in the graph."""

    __slots__ = ()

    def compute(self):
        return BOTTOM


def shape(v: Node):
    """None for a single value, "array" for a whole 1-D array, "grid<k>" for a k-D
    array or view, "optional" for a value that may be None, "complex" for a complex
    number, "range", "iterator", "slice" or "function" for those objects, "conflict" for
    values that do not merge, else (a tuple) the tuple of its elements' shapes."""
    named = _SHAPES.get(type(v))
    if named is not None:
        return named
    if isinstance(v, Grid):
        return f"grid{v.ndim}"
    if isinstance(v, TupleList):
        return f"rows{len(v.elems)}"
    if isinstance(v, Pack):
        return tuple(shape(x) for x in v.elems)
    return "array" if isinstance(v.type, ArrayType) and not isinstance(v, Aggregate) else None


#: the aggregates whose shape is a name (``shape``)
_SHAPES = {Opt: "optional", Cplx: "complex", Rng: "range", Conflict: "conflict", It: "iterator", Slc: "slice",
           Fn: "function", View: "view"}


def compatible(a, b) -> bool:
    """Do values of shapes ``a`` and ``b`` merge (``ParserCore._phi``): the same shape,
    a value and one that may be None, an array and a view (the array seen as a view of
    all of itself), or tuples of one length whose elements merge?"""
    if a == b or {a, b} == {None, "optional"} or {a, b} == {"array", "view"}:
        return True
    a, b = (None if x == "array" else x for x in (a, b))
    if a == b or {a, b} == {None, "optional"}:
        return True
    return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and all(
        compatible(x, y) for x, y in zip(a, b))


def describe(s) -> str:
    if s == "optional":
        return "a value that may be None"
    if s == "complex":
        return "a complex number"
    if s == "conflict":
        return "values of different kinds on different paths (a tuple and a number, two functions...)"
    if s in ("range", "iterator", "slice"):
        return f"a{'n' if s == 'iterator' else ''} {s}"
    if s == "function":
        return "a function"
    if s == "view":
        return "an array view (a slice)"
    if s == "array":
        return "an array"
    if isinstance(s, str) and s.startswith("rows"):
        return f"a list of {s[4:]}-tuples"
    if isinstance(s, str) and s.startswith("grid"):
        return f"a {s[4:]}-D array"
    return "a single value" if s is None else f"a tuple of {len(s)}"


def base_of(a: Node) -> Node:
    """The base array of an array, a view or an n-D array."""
    return a.base if isinstance(a, (Grid, View)) else a


def may_alias(a: Node, b: Node) -> bool:
    """May the arrays (or views, or bases) ``a`` and ``b`` share memory?  Not where one's
    base is an array this function made and the other's is another such array or a
    parameter.  Any other base may be that very array: a Phi of it (``b if c else a``),
    a call's result (a recursive helper may return the array it is given)."""
    x, y = base_of(a), base_of(b)
    if x is y:
        return True
    return not (isinstance(x, NewArray) and _fresh_or_param(y)
                or isinstance(y, NewArray) and _fresh_or_param(x))


def _fresh_or_param(x: Node) -> bool:
    """Is base ``x`` an array this function made, or one of its parameters (never an
    array the function makes)?"""
    return isinstance(x, NewArray) or type(x) is Proj and type(x.inputs[0]) is Start


def layout(p, a: Node) -> tuple[Node, Node, list[Node]]:
    """The base, the start and the strides of an array, a view or an n-D array (``p``
    the parser that makes the constants)."""
    if isinstance(a, Grid):
        return a.base, a.start, list(a.strides)
    if isinstance(a, View):
        return a.base, a.start, [a.step]
    return a, p.con(0), [p.con(1)]
