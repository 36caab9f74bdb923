"""Teaching examples: small functions that show what each pass can and cannot prove.

Each example is an ordinary function plus, in ``EXAMPLES``, what every
pipeline of ``son.compare`` is expected to prove about its result: the
constant the function is shown to return, or ``None`` where the pipeline
(rightly) proves nothing.  The differences between columns are the lesson:

    >>> import son
    >>> print(son.compare(son.examples.flip_flop))       # only the optimistic passes find 1

Pipelines (see ``son.driver.PIPELINES``): ``none`` is the raw parse,
``peephole`` the (pessimistic) peephole, while parsing and as a pass, ``sccp`` and ``combined``
the optimistic passes after it, ``sccp-only`` SCCP's rewrite without the
cleanup peephole (what constant propagation alone proves).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

DEBUG = False


# ------------------------------------------------------------- the peephole suffices
def constant_expression(a: int):
    """Parse-time folding: ``2*3`` is 6, ``a - a`` is 0 for ints, ``*1`` and ``+0`` vanish."""
    return (2 * 3 + a - a) * 1 + 0


def commuted_sum(a: int, b: int):
    """Value numbering (with a canonical operand order) sees ``a + b`` and ``b + a`` as
    one node, and ``x - x`` is 0: the peephole finds 0.  Constant propagation alone
    (``sccp-only``) does not: neither sum is a constant."""
    return (a + b) - (b + a)


def dead_debug_branch(a: int):
    """A global constant that is False folds while parsing: the branch and its code vanish."""
    if DEBUG:
        a = a * 1000 + 7
    return a - a + 1


def same_on_both_sides(a: int, c: bool):
    """Both arms assign the same constant: the merge's Phi has equal inputs and folds."""
    if c:
        x = 5
    else:
        x = 2 + 3
    return x + a - a


def nan_is_not_equal(x: float):
    """IEEE: a NaN compares unequal to itself, so ``n == n or n < n`` folds to False
    when n is the constant NaN (the same test on an unknown float could not fold)."""
    n = math.nan
    return (n == n or n < n) and x > 0.0


def wrap_around(a: int):
    """int64 wraps: 2**62 + 2**62 is -2**63, folded exactly as the kernel computes it."""
    big = 4611686018427387904
    return big + big + a * 0


def comparison_of_comparison(a: int, b: int):
    """Int ranges: a bool used as an int is 0 or 1, so ``(a < b) < 3`` is True whatever a
    and b are (the result stays the bool True, as in CPython)."""
    return (a < b) < 3


# ------------------------------------------------------------- only optimism helps
def flip_flop(n: int):
    """``x = 2 - x`` starting from 1 stays 1. The peephole meets the loop Phi before
    its back edge and must assume the worst; SCCP assumes Top, finds 1 on the back
    edge, and the assumption holds."""
    x = 1
    while n > 0:
        x = 2 - x
        n -= 1
    return x


def stuck_at_one(n: int):
    """``x != 1`` can only be true if x was ever not 1: optimistically the branch is
    unreachable, so x stays 1 (Wegman and Zadeck's classic)."""
    x = 1
    while n > 0:
        if x != 1:
            x = 2
        n -= 1
    return x


def nested_flip_flop(n: int, m: int):
    """Constants through two nested loops' Phis: the inner loop leaves y at 3, so the
    outer loop's x stays 0."""
    x = 0
    i = 0
    while i < n:
        y = 3
        j = 0
        while j < m:
            y = 6 - y
            j += 1
        x = x + y - 3
        i += 1
    return x


def twin_inductions(a: int, n: int):
    """x and y start equal and step equally, so ``x - y`` is 0 — but only if one
    assumes x == y at the loop head, which makes ``x != y`` false, which keeps them
    equal. Constants alone cannot see it; Click's combined analysis (constants +
    reachability + congruence, all optimistic) does."""
    x = y = a
    while n > 0:
        if x != y:
            x = x + 7
        x += 1
        y += 1
        n -= 1
    return x - y


def alternating_sign(n: int):
    """``s = -s`` from 1 is -1 or 1: optimistically the loop Phi's int range is [-1, 1],
    so ``s * s`` lies in [-1, 1] and ``s * s <= 1`` is True.  The peephole meets the Phi
    with an unknown int, and the negation of an unknown int is unknown (``-min`` wraps
    to min): it proves nothing."""
    s = 1
    while n > 0:
        s = -s
        n -= 1
    return s * s <= 1


def toggle_bit(n: int):
    """``k = 1 - k`` from 0 is 0 or 1: only the optimistic passes see the range [0, 1]
    (``1 - k`` for an unknown k may wrap) and fold ``k < 2`` to True."""
    k = 0
    while n > 0:
        k = 1 - k
        n -= 1
    return k < 2


# ------------------------------------------------------------- nothing may fold
def float_minus_self(x: float):
    """``x - x`` is not 0.0 for floats: inf - inf and NaN - NaN are NaN. Nobody folds it."""
    return x - x


def float_times_zero(x: float):
    """``x * 0.0`` is -0.0 for negative x and NaN for inf: not an identity."""
    return x * 0.0


def division_by_zero(a: int):
    """Division by zero raises at run time and is never folded, by any pass."""
    d = a - a
    return 10 // d


def counting_loop(n: int):
    """A loop-carried sum is not a constant (it depends on the trip count): optimism is
    not unrolling, and every pipeline keeps the loop."""
    s = 0
    i = 0
    while i < n:
        s += 2
        i += 1
    return s


def saturating_counter(n: int):
    """``k = min(k + 1, 10)`` never goes below 0.  The pessimistic peephole starts from
    ``k``'s full range and cannot narrow it; the optimistic passes let k's range grow
    from [0, 0] and, when it keeps growing, widen it to the program's constant 10
    instead of the int64 limit, where ``k + 1`` would wrap: [0, 10], so ``k >= 0``."""
    k = 0
    while n > 0:
        k = min(k + 1, 10)
        n -= 1
    return k >= 0


def _twice(x):
    return 2 * x


def _half(x):
    return x // 2


def function_in_a_loop(n: int):
    """Calls linked by optimism: ``g`` starts as ``_twice`` and becomes ``_half`` only
    where ``k > 0``, and k stays 0.  The parse holds ``g`` as a choice between the two
    functions (a loop Phi of which one it is) and the call as both, selected at run time;
    the peephole must keep both, the optimistic passes prove the choice never changes
    and link the call to ``_twice``: ``g(3)`` is 6."""
    g = _twice
    k = 0
    for _ in range(n):
        if k > 0:
            g = _half
        k = k * 2
    return g(3)


@dataclass(frozen=True)
class Example:
    fn: Callable
    #: pipeline -> the constant the function is proven to return, or None (not proven)
    proves: dict

    @property
    def name(self) -> str:
        return self.fn.__name__

    @property
    def doc(self) -> str:
        return " ".join((self.fn.__doc__ or "").split())


_NOT = None
EXAMPLES: list[Example] = [
    Example(constant_expression, {"none": _NOT, "peephole": 6, "sccp": 6, "combined": 6}),
    Example(commuted_sum, {"none": _NOT, "sccp-only": _NOT, "peephole": 0, "sccp": 0, "combined": 0}),
    Example(dead_debug_branch, {"none": _NOT, "peephole": 1, "sccp": 1, "combined": 1}),
    Example(same_on_both_sides, {"none": _NOT, "peephole": 5, "sccp": 5, "combined": 5}),
    Example(nan_is_not_equal, {"peephole": False, "sccp": False, "combined": False}),
    Example(wrap_around, {"none": _NOT, "peephole": -(2**63), "sccp": -(2**63), "combined": -(2**63)}),
    Example(comparison_of_comparison, {"none": _NOT, "peephole": True, "sccp": True, "combined": True}),
    Example(alternating_sign, {"none": _NOT, "peephole": _NOT, "sccp": True, "combined": True}),
    Example(toggle_bit, {"none": _NOT, "peephole": _NOT, "sccp": True, "combined": True}),
    Example(flip_flop, {"none": _NOT, "peephole": _NOT, "sccp": 1, "combined": 1}),
    Example(stuck_at_one, {"none": _NOT, "peephole": _NOT, "sccp": 1, "combined": 1}),
    Example(nested_flip_flop, {"none": _NOT, "peephole": _NOT, "sccp": 0, "combined": 0}),
    Example(twin_inductions, {"none": _NOT, "peephole": _NOT, "sccp": _NOT, "combined": 0}),
    Example(float_minus_self, {"none": _NOT, "peephole": _NOT, "sccp": _NOT, "combined": _NOT}),
    Example(float_times_zero, {"none": _NOT, "peephole": _NOT, "sccp": _NOT, "combined": _NOT}),
    Example(division_by_zero, {"none": _NOT, "peephole": _NOT, "sccp": _NOT, "combined": _NOT}),
    Example(counting_loop, {"none": _NOT, "peephole": _NOT, "sccp": _NOT, "combined": _NOT}),
    Example(saturating_counter, {"none": _NOT, "peephole": _NOT, "sccp": True, "combined": True}),
    Example(function_in_a_loop, {"none": _NOT, "peephole": _NOT, "sccp": 6, "combined": 6}),
]

BY_NAME: dict[str, Example] = {e.name: e for e in EXAMPLES}


def returned_constant(graph):
    """The constant every Return of ``graph`` returns, or None if some return is not
    a constant (or the returns disagree)."""
    from .nodes import Constant

    values = set()
    for r in graph.returns():
        if len(r.values) != 1:
            return None
        v = r.value
        if type(v) is not Constant:
            return None
        values.add((type(v.type.con), v.type.con))
    if len(values) != 1:
        return None
    return values.pop()[1]
