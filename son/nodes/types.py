"""The type lattice shared by every stage (Click's lattice, one element per node).

    TOP                          no value yet (optimistic start)
     |
    constants                    int 3, float -0.0, bool True, None
     |
    int ranges                   int[0, 9]: an inclusive range within int64
     |
    INT  FLOAT  BOOL             the kinds' bottoms (INT is int[min, max])
      \\   |   /
       NUMBER                    "an int or a float, decided at run time"
         |
      BOTTOM                     anything (a type error if a node needs more)

Control has ``XCTRL`` (dead) above ``CTRL`` (reachable); an ``If`` and ``Start``
have tuple types; memory has ``MEM``; arrays have one element per dtype.

Elements are immutable and interned by value, so ``==`` is structural and cheap.
Float constants compare by bit pattern (``-0.0 != 0.0``, ``nan == nan``, ``-nan != nan``): the
lattice must distinguish values that Python prints differently.
``meet`` is commutative, associative and idempotent (tested with hypothesis).

Integer ranges.  An int element is an inclusive range ``[lo, hi]`` within
int64 (``int_range``): a constant int is the range of width one (it is
``is_constant`` with ``con`` its value, printed as the number), ``INT`` is
``[INT64_MIN, INT64_MAX]`` (printed ``int``), any other range prints as
``int[lo, hi]`` with ``min``/``max`` for the int64 limits.  The meet of two
ranges is their hull.  The lattice is therefore 2**64 levels high over the
ints: the optimistic passes widen loop phis (``widen_range``) so that they
settle in a bounded number of steps.

Bools stay their own kind: ``True`` is not ``1`` (kernels return exactly what
CPython returns, and a phi of a bool and an int is a NUMBER that codegen
tags).  Where a bool is *used as an int* (arithmetic, comparison with an int,
``int(b)``), the nodes read it through ``bounds``, which gives ``BOOL`` the
range ``[0, 1]``: ``(a < b) + 0`` is ``int[0, 1]`` and ``(a < b) < 3`` folds
to ``True``.
"""

from __future__ import annotations

import bisect
import math

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
_MASK = (1 << 64) - 1


def wrap64(v: int) -> int:
    """Two's-complement wrap of a Python int into int64."""
    v &= _MASK
    return v - (1 << 64) if v >> 63 else v


def _con_key(v):
    """A hashable key that tells apart every value Python tells apart."""
    if type(v) is float:
        if math.isnan(v):  # the sign is observable (copysign); other payload bits are not
            return ("f", "-nan" if math.copysign(1.0, v) < 0 else "nan")
        return ("f", v.hex())
    return (type(v).__name__, v)


class Type:
    """A lattice element. Subclasses add payload; all are immutable."""

    __slots__ = ("name", "_key", "_hash")

    def __init__(self, name: str, key=None):
        self.name = name
        self._key = key if key is not None else (name,)
        self._hash = hash(self._key)

    # -- identity -----------------------------------------------------------------
    def __eq__(self, other):
        return self is other or (isinstance(other, Type) and self._key == other._key)

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return self.name

    __str__ = __repr__

    # -- queries ------------------------------------------------------------------
    is_constant = False
    kind = None  # 'int' | 'float' | 'bool' | 'number' for scalars, else None
    con = None

    @property
    def is_int(self) -> bool:
        return self.kind == "int"

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    @property
    def is_bool(self) -> bool:
        return self.kind == "bool"

    @property
    def is_scalar(self) -> bool:
        return self.kind is not None

    def is_con(self, value) -> bool:
        """True if this is exactly the constant ``value`` (same Python type)."""
        return self.is_constant and _con_key(self.con) == _con_key(value)

    def widen(self) -> Type:
        """The least element above BOTTOM that keeps the kind (constants drop)."""
        return self

    # -- lattice ------------------------------------------------------------------
    def meet(self, other: Type) -> Type:
        if self == other:
            return self
        if self is TOP:
            return other
        if other is TOP:
            return self
        if self is BOTTOM or other is BOTTOM:
            return BOTTOM
        r = self._meet(other)
        if r is None:
            r = other._meet(self)
        return r if r is not None else BOTTOM

    def _meet(self, other: Type) -> Type | None:
        """Meet with a different, non-TOP/BOTTOM element; None if unrelated."""
        if {self, other} == {CTRL, XCTRL}:
            return CTRL
        return None

    def isa(self, other: Type) -> bool:
        """True if ``self`` is at least as precise as ``other`` (self ⊒ other)."""
        return self.meet(other) == other


class ScalarType(Type):
    """int / float / bool / number, either a constant or the kind's bottom; an int is
    an inclusive range ``[lo, hi]`` (build ranges with ``int_range``; ``lo`` and ``hi``
    are None for the other kinds)."""

    __slots__ = ("kind", "con", "is_constant", "lo", "hi")

    def __init__(self, kind: str, con=None, constant: bool = False, lo: int | None = None,
                 hi: int | None = None):
        if kind == "int":
            if constant:
                lo = hi = con
            elif lo is None:
                lo, hi = INT64_MIN, INT64_MAX
            assert INT64_MIN <= lo <= hi <= INT64_MAX, (lo, hi)
            constant = lo == hi
            con = lo if constant else None
            super().__init__(_fmt_con(con) if constant else _fmt_range(lo, hi), ("i", lo, hi))
        else:
            name = kind if not constant else _fmt_con(con)
            super().__init__(name, ("s", kind, constant, _con_key(con) if constant else None))
        self.kind = kind
        self.con = con
        self.is_constant = constant
        self.lo = lo
        self.hi = hi

    def widen(self) -> Type:
        return _KIND_BOTTOM[self.kind]

    def _meet(self, other):
        if not isinstance(other, ScalarType):
            return None
        if self.kind == other.kind:
            if self.kind == "int":  # the hull of the two ranges
                return int_range(min(self.lo, other.lo), max(self.hi, other.hi))
            return _KIND_BOTTOM[self.kind]
        return NUMBER


class NoneType_(Type):
    """The type of Python's None (a function with no value to return)."""

    __slots__ = ()
    is_constant = True
    con = None


class ArrayType(Type):
    """A 1-D numpy array with a fixed element dtype ('float64', 'int64', 'bool')."""

    __slots__ = ("dtype",)

    def __init__(self, dtype: str):
        super().__init__(f"{dtype}[]", ("a", dtype))
        self.dtype = dtype

    @property
    def elem(self) -> ScalarType:
        return {"float64": FLOAT, "int64": INT, "bool": BOOL}[self.dtype]


class ListType(Type):
    """A Python list whose elements are all of one kind: 'float64', 'int64', 'bool'
    (named as numpy's dtypes so lists and arrays share the element tables), or lists of
    one ``ListType`` (a list of rows).  Its length and elements live in memory: a list is
    read and written through the memory state."""

    __slots__ = ("dtype",)

    def __init__(self, dtype):
        inner = dtype.name if isinstance(dtype, ListType) else _ELEM_NAMES[dtype]
        super().__init__(f"list[{inner}]", ("l", dtype))
        self.dtype = dtype

    @property
    def elem(self) -> Type:
        if isinstance(self.dtype, ListType):
            return self.dtype
        return {"float64": FLOAT, "int64": INT, "bool": BOOL}[self.dtype]


_ELEM_NAMES = {"float64": "float", "int64": "int", "bool": "bool"}


class TupleType(Type):
    """Multi-valued nodes: Start (ctrl, mem, args...) and If (true, false)."""

    __slots__ = ("elems",)

    def __init__(self, elems):
        elems = tuple(elems)
        super().__init__("(" + ", ".join(map(str, elems)) + ")", ("t", elems))
        self.elems = elems

    def _meet(self, other):
        if isinstance(other, TupleType) and len(other.elems) == len(self.elems):
            return TupleType(a.meet(b) for a, b in zip(self.elems, other.elems))
        return None


def _fmt_con(v) -> str:
    return repr(v)


def _fmt_bound(v: int) -> str:
    return "min" if v == INT64_MIN else "max" if v == INT64_MAX else str(v)


def _fmt_range(lo: int, hi: int) -> str:
    if lo == INT64_MIN and hi == INT64_MAX:
        return "int"
    return f"int[{_fmt_bound(lo)}, {_fmt_bound(hi)}]"


TOP = Type("top")
BOTTOM = Type("bottom")
CTRL = Type("ctrl")
XCTRL = Type("~ctrl")
MEM = Type("mem")
NONE = NoneType_("None")
INT = ScalarType("int")
FLOAT = ScalarType("float")
BOOL = ScalarType("bool")
NUMBER = ScalarType("number")
_KIND_BOTTOM = {"int": INT, "float": FLOAT, "bool": BOOL, "number": NUMBER}

IF_BOTH = TupleType((CTRL, CTRL))
IF_TRUE = TupleType((CTRL, XCTRL))
IF_FALSE = TupleType((XCTRL, CTRL))
IF_NEITHER = TupleType((XCTRL, XCTRL))


def constant(v) -> Type:
    """The lattice constant of a Python value (ints are wrapped to int64)."""
    t = type(v)
    if t is bool:
        return ScalarType("bool", v, True)
    if t is int:
        return ScalarType("int", wrap64(v), True)
    if t is float:
        return ScalarType("float", v, True)
    if v is None:
        return NONE
    raise TypeError(f"no lattice constant for {v!r}")


def int_range(lo: int, hi: int) -> ScalarType:
    """The int element ``[lo, hi]`` (inclusive); ``INT`` where the range may leave int64
    (an operation whose exact result may wrap is unknown, never assumed not to wrap)."""
    if lo < INT64_MIN or hi > INT64_MAX or (lo == INT64_MIN and hi == INT64_MAX):
        return INT
    t = _RANGES.get((lo, hi))
    if t is None:
        if len(_RANGES) >= _RANGES_KEPT:
            _RANGES.clear()  # a cache, not a registry: elements compare by value
        t = _RANGES[lo, hi] = ScalarType("int", lo=lo, hi=hi)
    return t


#: recently built ranges, so that the passes' meets and computes mostly reuse elements
_RANGES: dict[tuple[int, int], ScalarType] = {}
_RANGES_KEPT = 4096


def bounds(t: Type) -> tuple[int, int] | None:
    """``(lo, hi)`` of the values of ``t`` read as ints: an int's range, a bool as 0 or 1
    (``BOOL`` is ``(0, 1)``); None for other types (floats, unknown numbers, TOP)."""
    if t.kind == "int":
        return t.lo, t.hi
    if t.kind == "bool":
        return (int(t.con), int(t.con)) if t.is_constant else (0, 1)
    return None


def widen_range(old: Type, new: Type, thresholds: list[int] | None = None) -> Type:
    """Widening for a loop phi whose type went from ``old`` down to ``new``: each end of
    an int range that moved goes to its int64 limit (``[0, 3]`` then ``[0, 4]`` gives
    ``[0, max]``), so a phi can only widen twice more -- or, given ``thresholds`` (a
    sorted list: the program's int constants, ``widening_thresholds``), to the nearest
    threshold beyond it, so ``k = min(k + 1, 10)`` settles at ``[0, 10]`` (a pass gives
    thresholds to a phi's first ``THRESHOLD_WIDENINGS`` widenings only, so it still
    widens a bounded number of times).  Other types are returned as they are (their
    lattice is a few levels high).  O(log thresholds)."""
    if old.kind != "int" or new.kind != "int":
        return new
    lo, hi = new.lo, new.hi
    if lo < old.lo:
        i = bisect.bisect_right(thresholds, lo) - 1 if thresholds else -1
        lo = thresholds[i] if i >= 0 else INT64_MIN
    if hi > old.hi:
        i = bisect.bisect_left(thresholds, hi) if thresholds else 0
        hi = thresholds[i] if thresholds and i < len(thresholds) else INT64_MAX
    return int_range(lo, hi)


def widening_thresholds(nodes) -> list[int]:
    """The thresholds ``widen_range`` may stop at: the int constants among ``nodes``,
    sorted (a bound a loop test implies, ``i < 10`` giving 10 after ``i + 1``, is
    found by the narrowing that follows widening).  O(N + C log C)."""
    return sorted({int(n.type.con) for n in nodes if n.type.kind == "int" and n.type.is_constant})


#: widenings of a loop phi that may stop at a program constant (``widen_range``)
THRESHOLD_WIDENINGS = 2
#: growths of a loop phi's int range an optimistic pass accepts before it widens the
#: moving end to the int64 limit (``widen_range``)
WIDEN_AFTER = 2
#: narrowings of a loop phi's int range a fixpoint accepts whatever their size; later
#: ones only if they at least halve the number of values (``narrowing_accepted``)
FREE_NARROWINGS = 2


def narrowing_accepted(old: Type, new: Type, count: int) -> bool:
    """May a loop phi's type rise from ``old`` to the more precise ``new``, after
    ``count`` earlier narrowings in this fixpoint?  Always for other types than int
    ranges (their lattice is a few levels high); for ranges, the first
    ``FREE_NARROWINGS``, then only a narrowing that at least halves the number of
    values, so a phi narrows at most ``FREE_NARROWINGS + 64`` times: no "death march"
    of ``[-10, max]``, ``[-10, max - 1]``, ... one value per visit.  Refusing keeps
    ``old``, which stays sound (less precise than ``compute()`` allows)."""
    if old.kind != "int" or new.kind != "int" or count < FREE_NARROWINGS:
        return True
    return 2 * (new.hi - new.lo + 1) <= old.hi - old.lo + 1
