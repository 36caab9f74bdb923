"""son's peephole rules: ``DEFAULT_RULES``, a ``RuleSet`` keyed by node class, tried in order.

A rule is a small named function of one node that returns a replacement
node, the node itself after changing it in place (an operand swap), or
None.  Its docstring states the rewrite and when it is valid; tests try the
edge of every rule.  Type conditions use the node's *current* type, which is
pessimistic at parse time and exact after the optimistic passes.

Constant folding and value numbering are not rules: the engine does them for
every node through ``compute()`` and ``key()``.

``@rule(Add)`` registers into ``DEFAULT_RULES``, which every parse and pass
uses unless given another set (``son.parse(f, rules=...)``); a rule defined
again under the same name replaces the old one in place.  To try a rule
without changing every later parse, register it in a copy:
``mine = DEFAULT_RULES.copy(); @mine.rule(Add) ...`` (see ``ruleset.py``).
"""

from __future__ import annotations

import math
from typing import Callable

from ..nodes import (
    EQ,
    GE,
    GT,
    LE,
    LT,
    NE,
    SWAPPED,
    Abs,
    Add,
    BitAnd,
    BitOr,
    BitXor,
    Constant,
    CProj,
    Div,
    FloorDiv,
    If,
    Loop,
    MathCall,
    MathError,
    Max,
    Min,
    Mul,
    Neg,
    Node,
    Not,
    Phi,
    Refine,
    Region,
    Shl,
    Shr,
    Stop,
    Sub,
    ToBool,
    ToFloat,
    ToInt,
    XCtrl,
    ZMul,
    constant,
    unrefined,
)
from ..nodes.fbounds import dominating_facts, math_call_safe
from ..nodes.types import CTRL, XCTRL, bounds
from .ruleset import RuleSet

Rule = Callable[[Node], "Node | None"]

#: son's own rules; the rule set of every parse and pass not given another
DEFAULT_RULES = RuleSet("default")


def rule(*classes: type, first: bool = False) -> Callable[[Rule], Rule]:
    """Register a rule in ``DEFAULT_RULES`` for each of ``classes`` (appended: earlier
    rules win; ``first=True`` puts it before them).  A rule of the same name is replaced
    in place.  Global on purpose: every later parse sees it (``DEFAULT_RULES.remove``
    takes it out); use ``RuleSet.rule`` on a copy to try a rule in one parse only."""
    return DEFAULT_RULES.rule(*classes, first=first)


# ---------------------------------------------------------------- helpers
def K(n: Node, value) -> Constant:
    """A new constant in ``n``'s graph (the engine value-numbers it)."""
    return Constant(n.graph, constant(value))


def is_con(x: Node, value) -> bool:
    """``x`` is the int/bool constant equal to ``value`` (ints only: 0 is not -0.0)."""
    t = x.type
    return t.is_constant and t.kind in ("int", "bool") and t.con == value


def is_fcon(x: Node, value: float) -> bool:
    """``x`` is a numeric constant equal to ``value``, -0.0 told apart from 0.0."""
    t = x.type
    if not t.is_constant or t.kind is None:
        return False
    return float(t.con) == value and math.copysign(1.0, t.con) == math.copysign(1.0, value)


def ints(*xs: Node) -> bool:
    """All of ``xs`` are int64 values (not bool, not float, not unknown)."""
    return all(x.type.kind == "int" for x in xs)


def ints_or_bools(*xs: Node) -> bool:
    return all(x.type.kind in ("int", "bool") for x in xs)


def same_kind(n: Node, x: Node) -> bool:
    """Replacing ``n`` by ``x`` keeps the result's kind and value: an int for an int, a float
    for a float (x*1 for a bool x is the int 1; for an unknown number it may be True)."""
    return n.type.kind == x.type.kind and n.type.kind in ("int", "float")


def _order(x: Node) -> tuple[bool, int]:
    return (type(x) is Constant, x.nid)


# ---------------------------------------------------------------- canonical order
@rule(Add, Mul, BitAnd, BitOr, BitXor, EQ, NE)
def commute(n):
    """a op b -> b op a to put constants right and the older operand left
    (valid: these operators are commutative for ints, bools and IEEE floats)."""
    if _order(n.lhs) > _order(n.rhs):
        n.swap_inputs(1, 2)
        return n


@rule(LT, LE, GT, GE)
def constant_right(n):
    """c < x -> x > c (exact for every kind, NaN included)."""
    if type(n.lhs) is Constant and type(n.rhs) is not Constant:
        return SWAPPED[type(n)](n.graph, n.rhs, n.lhs)


# ---------------------------------------------------------------- add / sub
@rule(Add)
def add_zero(n):
    """x + 0 -> x   (ints only: -0.0 + 0.0 is 0.0, and True + 0 is the int 1)."""
    if ints(n.lhs) and is_con(n.rhs, 0):
        return n.lhs


@rule(Add)
def add_reassociate(n):
    """(x + c1) + c2 -> x + (c1+c2)   (ints: wrap-around addition is associative)."""
    a = n.lhs
    if type(a) is Add and ints(n, a, a.lhs) and type(a.rhs) is Constant and type(n.rhs) is Constant:
        return Add(n.graph, a.lhs, K(n, a.rhs.value + n.rhs.value))


@rule(Add)
def add_constant_out(n):
    """(x + c) + y -> (x + y) + c and y + (x + c) -> (y + x) + c   (ints; moves constants
    outward so that they meet)."""
    for a, y in ((n.lhs, n.rhs), (n.rhs, n.lhs)):
        if type(a) is Add and type(a.rhs) is Constant and type(y) is not Constant and ints(n, a, a.lhs, y):
            return Add(n.graph, Add(n.graph, a.lhs, y), a.rhs)


@rule(Add)
def add_negation(n):
    """x + (-y) -> x - y   (exact in IEEE arithmetic and in wrap-around ints; not for an
    int y under a float sum: -y wraps at INT64_MIN before the conversion)."""
    if type(n.rhs) is Neg and n.type.kind in ("int", "float") and n.rhs.x.type.kind == n.type.kind:
        return Sub(n.graph, n.lhs, n.rhs.x)


@rule(Sub)
def sub_zero(n):
    """x - 0 -> x   (ints and floats alike: x - 0.0 == x even for -0.0 and NaN)."""
    if (is_con(n.rhs, 0) or is_fcon(n.rhs, 0.0)) and same_kind(n, n.lhs):
        return n.lhs


@rule(Sub)
def sub_self(n):
    """x - x -> 0   (ints only: inf - inf is NaN)."""
    if n.lhs is n.rhs and ints(n.lhs):
        return K(n, 0)


@rule(Sub)
def sub_constant(n):
    """x - c -> x + (-c)   (ints: subtraction of a constant is addition mod 2**64)."""
    if type(n.rhs) is Constant and ints(n, n.lhs, n.rhs):
        return Add(n.graph, n.lhs, K(n, -n.rhs.value))


@rule(Sub)
def sub_add_cancel(n):
    """(x + y) - x -> y and (x + y) - y -> x   (ints only)."""
    a = n.lhs
    if type(a) is Add and ints(n, a.lhs, a.rhs):
        if a.lhs is n.rhs:
            return a.rhs
        if a.rhs is n.rhs:
            return a.lhs


@rule(Sub)
def sub_negation(n):
    """x - (-y) -> x + y   (exact in IEEE and in wrap-around ints; y of the result's kind)."""
    if type(n.rhs) is Neg and n.type.kind in ("int", "float") and n.rhs.x.type.kind == n.type.kind:
        return Add(n.graph, n.lhs, n.rhs.x)


# ---------------------------------------------------------------- mul / div
@rule(Mul)
def mul_one(n):
    """x * 1 -> x   (every kind whose result keeps x's kind: 1.0 * x == x in IEEE)."""
    if (is_con(n.rhs, 1) or is_fcon(n.rhs, 1.0)) and same_kind(n, n.lhs):
        return n.lhs


@rule(Mul)
def mul_reassociate(n):
    """(x * c1) * c2 -> x * (c1*c2)   (ints: wrap-around multiplication is associative)."""
    a = n.lhs
    if type(a) is Mul and type(a.rhs) is Constant and type(n.rhs) is Constant and ints(n, a, a.lhs):
        return Mul(n.graph, a.lhs, K(n, a.rhs.value * n.rhs.value))


@rule(Mul)
def mul_minus_one(n):
    """x * -1 -> -x   (ints)."""
    if is_con(n.rhs, -1) and ints(n, n.lhs):
        return Neg(n.graph, n.lhs)


@rule(ZMul)
def zmul_zero(n):
    """p zmul 0 -> 0.0 and 0 zmul d -> 0.0   (an exactly zero factor absorbs the other, inf
    and nan too; the sign of a zero derivative is not kept)."""
    for x in (n.lhs, n.rhs):
        t = x.type
        if t.is_constant and t.kind in ("int", "float", "bool") and t.con == 0:
            return K(n, 0.0)


@rule(ZMul)
def zmul_plain(n):
    """p zmul d -> p * d   for floats when ``p`` is a finite non-zero constant: zmul is then
    IEEE's product, in the kernel's order too."""
    p = n.lhs.type
    if p.kind == "float" and n.rhs.type.kind == "float" and p.is_constant and math.isfinite(p.con) \
            and p.con != 0:
        return Mul(n.graph, n.lhs, n.rhs)


@rule(Div)
def div_one(n):
    """x / 1 -> x   (floats only: for an int x the result is float(x))."""
    if (is_con(n.rhs, 1) or is_fcon(n.rhs, 1.0)) and n.lhs.type.kind == "float":
        return n.lhs


@rule(FloorDiv)
def floordiv_one(n):
    """x // 1 -> x   (ints only: 2.5 // 1 is 2.0)."""
    if is_con(n.rhs, 1) and ints(n, n.lhs):
        return n.lhs


@rule(Neg)
def neg_neg(n):
    """-(-x) -> x   (ints wrap: -(-MIN) == MIN; floats: sign flips are exact)."""
    if type(n.x) is Neg and same_kind(n, n.x.x):
        return n.x.x


# ---------------------------------------------------------------- bitwise
@rule(BitAnd, BitOr)
def and_or_self(n):
    """x & x -> x, x | x -> x   (ints and bools; an unknown number may be a float,
    for which & raises TypeError)."""
    if n.lhs is n.rhs and ints_or_bools(n.lhs) and n.type.kind == n.lhs.type.kind:
        return n.lhs


@rule(BitOr, BitXor)
def or_xor_zero(n):
    """x | 0 -> x, x ^ 0 -> x   (ints)."""
    if is_con(n.rhs, 0) and ints(n, n.lhs):
        return n.lhs


@rule(BitAnd, BitOr)
def bool_absorb(n):
    """x & False -> False, x | True -> True; x & True -> x, x | False -> x   (bools)."""
    if n.type.kind != "bool" or not n.rhs.type.is_constant:
        return None
    absorbing = type(n) is BitOr  # True absorbs |, False absorbs &
    return n.rhs if n.rhs.type.con is absorbing else n.lhs


@rule(BitXor)
def xor_self(n):
    """x ^ x -> 0 (ints) or False (bools)."""
    if n.lhs is n.rhs and ints_or_bools(n.lhs):
        return K(n, False if n.type.kind == "bool" else 0)


@rule(Shl, Shr)
def shift_zero(n):
    """x << 0 -> x, x >> 0 -> x   (ints)."""
    if is_con(n.rhs, 0) and ints(n, n.lhs):
        return n.lhs


# ---------------------------------------------------------------- comparisons
_REFLEXIVE = {EQ: True, LE: True, GE: True, NE: False, LT: False, GT: False}


@rule(EQ, NE, LT, LE, GT, GE)
def compare_self(n):
    """x == x -> True, x < x -> False, ...   (ints and bools: NaN != NaN)."""
    if n.lhs is n.rhs and ints_or_bools(n.lhs):
        return K(n, _REFLEXIVE[type(n)])


_NEGATED = {EQ: NE, NE: EQ, LT: GE, GE: LT, LE: GT, GT: LE}


@rule(Not)
def not_compare(n):
    """not (a == b) -> a != b for any kind; not (a < b) -> a >= b for ints and bools
    (for floats NaN makes a < b and a >= b both false)."""
    c = n.x
    if type(c) in (EQ, NE) or (type(c) in _NEGATED and ints_or_bools(c.lhs, c.rhs)):
        return _NEGATED[type(c)](n.graph, c.lhs, c.rhs)


@rule(Not)
def not_not(n):
    """not not x -> x   (bools only: not not 3 is True)."""
    if type(n.x) is Not and n.x.x.type.kind == "bool":
        return n.x.x


# ---------------------------------------------------------------- casts, min/max
@rule(ToFloat, ToInt, ToBool)
def cast_identity(n):
    """float(x) -> x for a float x; int(x) -> x for an int; bool(x) -> x for a bool."""
    if same_kind(n, n.x):
        return n.x


@rule(Min, Max)
def minmax_self(n):
    """min(x, x) -> x, max(x, x) -> x   (any kind, NaN included)."""
    if n.lhs is n.rhs:
        return n.lhs


@rule(Min, Max)
def minmax_decided_by_ranges(n):
    """min(a, b) -> a where a's int range lies at or below b's (b where above); max
    likewise: ``max(0, max(x, 0))`` -> ``max(x, 0)``.  Ints only (equal ints are one
    value; floats have NaN and -0.0)."""
    if not ints(n.lhs, n.rhs):
        return None
    a, b = bounds(n.lhs.type), bounds(n.rhs.type)
    if a is None or b is None:
        return None
    low, high = (n.lhs, n.rhs) if a[1] <= b[0] else (n.rhs, n.lhs) if b[1] <= a[0] else (None, None)
    if low is None:
        return None
    return low if type(n) is Min else high


@rule(Abs)
def abs_abs(n):
    """abs(abs(x)) -> abs(x)   (ints: abs(MIN) is MIN, and abs of that is MIN again)."""
    if type(n.x) is Abs:
        return n.x


# ---------------------------------------------------------------- control
@rule(CProj)
def proj_dead(n):
    """A projection that cannot be reached becomes dead control."""
    if n.type is XCTRL:
        return XCtrl(n.graph, n.graph.start)


@rule(CProj)
def proj_if_fold(n):
    """An If whose other side is dead: this side is the If's own control."""
    f = n.inputs[0]
    if type(f) is If and n.type is CTRL and f.type.elems[1 - n.index] is XCTRL:
        return f.inputs[0]


def _drop_phis(region: Node, i: int) -> None:
    """Before a Region goes away, replace each of its Phis by its i-th value (on a dead
    region any value will do: every user is dead too)."""
    region.keep()
    for p in region.phis():
        if p.inputs is not None:  # replacing one Phi may have killed another
            p.subsume(p.inputs[i])
    region.unkeep()


@rule(Region)
def region_dead_input(n):
    """Drop predecessors that cannot be reached, and the matching Phi values."""
    if n.building:
        return None
    dead = [i for i, c in enumerate(n.inputs) if i and c.type is XCTRL]
    if not dead or len(dead) == len(n.inputs) - 1:
        return None
    phis = n.phis()
    for i in reversed(dead):
        for p in phis:
            if p.inputs is not None:  # dropping one Phi's value may have killed another Phi
                p.remove_input(i)
        n.remove_input(i)
    return n


@rule(Region)
def region_collapse(n):
    """A Region with one predecessor is that predecessor; its Phis are their value.
    A Region with no live predecessor is dead control."""
    if n.building:
        return None
    live = [c for c in n.inputs[1:] if c.type is not XCTRL]
    if not live:
        _drop_phis(n, 1)
        return XCtrl(n.graph, n.graph.start)
    if len(n.inputs) == 2:
        _drop_phis(n, 1)
        return n.inputs[1]


@rule(Region)
def region_empty_diamond(n):
    """A Region merging the two sides of one If, with no Phi, is the If's own control
    (nothing depends on the side taken).  The If dies with its projections."""
    if len(n.inputs) != 3 or n.phis():
        return None
    t, f = n.inputs[1], n.inputs[2]
    if type(t) is CProj and type(f) is CProj and t.inputs[0] is f.inputs[0] and type(t.inputs[0]) is If:
        return t.inputs[0].inputs[0]


@rule(Loop)
def loop_dead(n):
    """A Loop never entered is dead; one whose back edge is dead is its entry
    (every Phi takes its entry value)."""
    if n.building:
        return None
    if n.entry.type is XCTRL:
        _drop_phis(n, 1)
        return XCtrl(n.graph, n.graph.start)
    if n.back.type is XCTRL:
        _drop_phis(n, 1)
        return n.entry


@rule(Phi)
def phi_same(n):
    """phi(x, x, ..., self) -> x   (every live path brings the same value).  A refinement
    of x (``Refine``, x's value typed by a branch) counts as x, and one of the phi as the
    phi: phi(x, refine(x)) -> x.  Valid: the value is x on every path, and x, used on
    every path into the merge, is available there."""
    r = n.region
    if r.building:
        return None
    if type(r) is Loop and r.inputs[1].type is XCTRL:
        return None  # a loop never entered is dead: its back-edge values depend on n itself,
        # so phi -> (phi + 0) would make a data cycle without a phi (the rules looped on it)
    val = None
    for c, v in zip(r.inputs[1:], n.inputs[1:]):
        v = unrefined(v)
        if v is n or c.type is XCTRL:
            continue
        if val is not None and v is not val:
            return None
        val = v
    return val


@rule(Phi)
def phi_branch_bool(n):
    """phi(True, False) on the merge of an If's two sides -> the If's (bool) predicate;
    phi(False, True) -> its negation.  Valid: the value is exactly which side was taken."""
    r = n.region
    if type(r) is not Region or len(r.inputs) != 3 or n.type.kind != "bool":
        return None
    t, f = r.inputs[1], r.inputs[2]
    if not (type(t) is CProj and type(f) is CProj and t.inputs[0] is f.inputs[0]
            and type(t.inputs[0]) is If and {t.index, f.index} == {0, 1}):
        return None
    vt, vf = n.inputs[1].type, n.inputs[2].type
    if not (vt.is_constant and vf.is_constant and vt.kind == vf.kind == "bool" and vt.con != vf.con):
        return None
    pred = t.inputs[0].pred
    if pred.type.kind != "bool":
        return None
    takes_true = (t.index == 0) == vt.con  # the True value flows in from the If's true side
    return pred if takes_true else Not(n.graph, pred)


def _diamond_if(r: Node) -> tuple[Node, Node] | None:
    """The If whose two sides ``r`` merges, and the side of ``r.inputs[1]`` (0 true, 1
    false); None unless ``r`` is exactly that diamond."""
    if type(r) is not Region or r.building or len(r.inputs) != 3:
        return None
    t, f = r.inputs[1], r.inputs[2]
    if type(t) is CProj and type(f) is CProj and t.inputs[0] is f.inputs[0] \
            and type(t.inputs[0]) is If and {t.index, f.index} == {0, 1}:
        return t.inputs[0], t.index
    return None


def _same_value(a: Node, b: Node) -> bool:
    a, b = unrefined(a), unrefined(b)
    return a is b or (a.type.is_constant and b.type.is_constant and a.type == b.type)


@rule(Phi)
def phi_select(n):
    """phi(p, q) on the merge of ``if p < q`` -> min(q, p); phi(q, p) -> max(p, q); likewise
    for <=, > and >= and for ``q`` off by one where the comparison allows it:
    ``k = n - 1 if k >= n else k`` -> min(k, n - 1).  For ints the one taken is the
    smaller (larger) whichever side equal values take, so the comparison's strictness
    and min's argument order do not matter.  Floats only in the strict forms that are
    Python's own definition: ``x if x < y else y`` is ``min(y, x)`` (x only if x < y),
    so NaN and -0.0 take the same side (``m = a[i] if a[i] > m else m``).  And for ints
    phi(q - p, 0) there -> max(q - p, 0) where q - p cannot wrap (then p < q exactly
    when q - p > 0); phi(0, p - q) likewise.  The diamond then has no Phi and folds
    away: one node instead of two blocks (slices clamp their bounds and lengths this
    way)."""
    found = _diamond_if(n.region)
    if found is None:
        return None
    branch, side = found
    pred = branch.pred
    on_true, on_false = (n.inputs[1], n.inputs[2]) if side == 0 else (n.inputs[2], n.inputs[1])
    if type(pred) in (LT, GT) and all(x.type.kind == "float"
                                      for x in (n, pred.lhs, pred.rhs, on_true, on_false)):
        x, y = pred.lhs, pred.rhs  # Python's min(y, x) is x only if x < y: NaN and -0.0 included
        if _same_float(on_true, x) and _same_float(on_false, y):
            return (Min if type(pred) is LT else Max)(n.graph, y, x)
        if _same_float(on_true, y) and _same_float(on_false, x):
            return (Max if type(pred) is LT else Min)(n.graph, x, y)
        return None
    if type(pred) not in (LT, LE, GT, GE) or not ints(n, pred.lhs, pred.rhs, *n.inputs[1:]):
        return None
    for p, q, op in ((pred.lhs, pred.rhs, type(pred)), (pred.rhs, pred.lhs, SWAPPED[type(pred)])):
        # the value is t where p <= q + k_at else f
        k_at = -1 if op in (LT, GE) else 0
        t, f = (on_true, on_false) if op in (LT, LE) else (on_false, on_true)
        for mine, other, make in ((t, f, Min), (f, t, Max)):
            if _same_value(mine, p):
                k = _offset(other, q)
                if k in (k_at, k_at + 1):
                    bound = q if k == 0 else Add(n.graph, q, K(n, k))
                    return make(n.graph, bound, p) if make is Min else make(n.graph, p, bound)
    small, large = (pred.lhs, pred.rhs) if type(pred) in (LT, LE) else (pred.rhs, pred.lhs)
    for diff, zero, (hi, lo) in ((on_true, on_false, (large, small)), (on_false, on_true, (small, large))):
        if is_con(zero, 0) and _is_difference(diff, hi, lo) and _never_wraps(hi, lo):
            return Max(n.graph, Sub(n.graph, hi, lo), K(n, 0))
    return None


def _same_float(a: Node, b: Node) -> bool:
    """The same float value: one node, or equal constants of one sign (not NaN)."""
    if a is b:
        return True
    ta, tb = a.type, b.type
    return ta.is_constant and tb.is_constant and ta.con == tb.con \
        and math.copysign(1.0, ta.con) == math.copysign(1.0, tb.con)


def _offset(x: Node, q: Node) -> int | None:
    """k in -1, 0, 1 where ``x`` is ``q + k`` and that sum cannot wrap, else None."""
    x = unrefined(x)
    if _same_value(x, q):
        return 0
    if ints(x, q) and x.type.is_constant and unrefined(q).type.is_constant:
        k = x.type.con - unrefined(q).type.con
        return k if abs(k) <= 1 else None
    if type(x) in (Add, Sub) and _same_value(x.lhs, q) and x.rhs.type.is_constant \
            and x.rhs.type.kind == "int" and abs(x.rhs.type.con) == 1:
        k = x.rhs.type.con if type(x) is Add else -x.rhs.type.con
        b = bounds(q.type)  # q, an operand of the test, holds its refined range at the test
        if b is not None and -(1 << 63) <= b[0] + k and b[1] + k < (1 << 63):
            return k
    return None


def _is_difference(d: Node, hi: Node, lo: Node) -> bool:
    """``d`` is ``hi - lo`` (of the values or of their refinements)."""
    return type(d) is Sub and _same_value(d.lhs, hi) and _same_value(d.rhs, lo)


def _never_wraps(hi: Node, lo: Node) -> bool:
    """``hi - lo`` cannot leave int64 on the operands' unrefined ranges."""
    a, b = bounds(hi.type), bounds(lo.type)
    return a is not None and b is not None and -(1 << 63) <= a[0] - b[1] and a[1] - b[0] < (1 << 63)


@rule(Stop)
def stop_dead_exit(n):
    """Stop forgets Returns and Raises that cannot be reached."""
    dead = [i for i, c in enumerate(n.inputs) if c.inputs[0].type is XCTRL]
    if not dead or len(dead) == len(n.inputs):
        return None
    for i in reversed(dead):
        n.remove_input(i)
    return n


@rule(Refine)
def refine_adds_nothing(n):
    """refine(x) -> x where the branch tells nothing new about x (its type is x's: a
    wider x, a float, a fact x's range already implies).  Valid always: a Refine is x."""
    if n.type == n.inputs[1].type:
        return n.inputs[1]
    return None


@rule(MathError)
def math_error_impossible(n):
    """math_error(f(x), x) -> False where f cannot make that error on any value x may
    have: ``exp(-x * x)`` cannot overflow, ``sqrt(a * a + b * b)`` has no domain error,
    ``cos(k / n)`` of ints sees no infinity (son/nodes/fbounds.py).  Valid because the
    bounds hold every non-NaN value of x and a NaN argument is never an error."""
    r = _guarded_call(n)
    return K(n, False) if r is not None and math_call_safe(r, n.which) else None


def _guarded_call(guard: Node) -> Node | None:
    """The one-argument math node that ``math_error`` ``guard`` tests, or None."""
    r = guard.inputs[1]
    if isinstance(r, MathCall) and len(guard.inputs) == 3 and len(r.inputs) == 2 \
            and r.inputs[1] is guard.inputs[2]:
        return r
    return None


@rule(If)
def math_guard_decided_by_a_dominating_test(n):
    """if math_error(f(x), x) -> if False where the tests dominating the guard bound x
    where f cannot fail: ``if x > 0.0: log(x)``, ``if x <= 1.0: return ...`` then
    ``sqrt(x - 1.0)`` (son/nodes/fbounds.py, ``dominating_facts``).  Valid because the
    If's control is reached only where those tests went the way they record."""
    cond = n.inputs[1]
    if type(cond) is not MathError or cond.type.is_constant:
        return None
    r = _guarded_call(cond)
    if r is None:
        return None
    facts = dominating_facts(n.inputs[0])
    if facts and math_call_safe(r, cond.which, facts):
        n.set_input(1, K(n, False))
        return n
    return None
