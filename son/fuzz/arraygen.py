"""The generator's whole-array expressions (a mixin of ``son.fuzz.generator._Gen``).

About ``ARRAY_SHARE`` of the ordinary programs that have array parameters or an array
local (drawn from the seed and index by a stream of their own, so the other programs
are exactly those of a generator without this module; never the mixed-kind,
unannotated or recursive ones, whose scalars son may not type) write numpy's
elementwise expressions on whole arrays (son/frontend/ufuncs.py):

* chains of ``+ - * / // %`` on float, int and bool arrays, views (``a[1:]``, ``a[:-1]``,
  ``a[::2]``, ``a[::-1]``, ``a[:1]``...) and the program's scalars, with numpy 2's
  result dtypes; ``//``, ``%``, ``& | ^``, ``~`` and ``**`` (small and, rarely,
  negative exponents) on int arrays, and on bool arrays to constants but 2; ``**`` of
  float arrays to the exponents numpy computes exactly (``FAST_POWERS``: constants, a
  number known at run time, a one-element array; int arrays to 2.0, 0.5, -1.0); unary ``-``;
  ``abs``/``np.abs``, ``np.sqrt``,
  ``np.floor``/``ceil``/``trunc``, ``np.maximum``/``minimum``/``fmax``/``fmin``/``clip``,
  ``np.logaddexp``/``logaddexp2``, ``np.deg2rad``/``rad2deg``/``reciprocal``,
  ``np.isnan``/``isinf``/``isfinite``/``signbit``/``isposinf``/``isneginf``,
  ``np.nan_to_num``, ``np.positive``, ``np.fix``, ``np.spacing``, ``np.conj``,
  ``np.float_power``, ``np.ldexp``, ``np.gcd``/``lcm``, ``np.left_shift``/``right_shift``,
  ``np.invert``, the shift operators ``<<`` and ``>>``; comparisons (and ``np.greater``, ...),
  ``np.logical_and``/``or``/``xor`` of any kinds,
  ``& | ^ ~`` of bool arrays and ``np.where``;
* reductions of chains in scalar expressions anywhere in the program (``np.sum``,
  ``a.sum()``, ``np.mean``/``a.mean()`` of floats, ``np.max``/``min``, ``np.prod``,
  ``np.var``/``a.std()`` (``ddof=``), ``np.cumsum(...)[-1]``, ``np.diff(...).sum()``,
  ``np.median``, ``np.sort(...)[0]``, ``np.count_nonzero``, ``np.searchsorted`` (of sorted
  and unsorted arrays), ``np.allclose``/``np.isclose``, ``np.round``, ``np.sign``,
  ``np.ptp``, ``np.roll``, ``np.square``, ``np.flip``, ``np.repeat``, ``np.tile``,
  ``np.unique``, ``np.interp``, ``np.argwhere``, ``np.cross``, ``np.vstack``,
  ``np.percentile``/``np.quantile``, ``np.arange(..., dtype=float)``, ``np.convolve`` of
  ints, ``np.gradient``, ``np.histogram``, methods (``c.repeat(k)``, ``c.clip(lo, hi)``...),
  ``np.bincount``, ``np.digitize``, ``np.take``, ``np.unravel_index``, ``np.trapezoid``,
  ``np.average(weights=)``, ``np.vander``, ``np.stack``/``column_stack``/``meshgrid`` summed,
  ``np.unique`` with ``return_index``/``return_inverse``/``return_counts``, pieces of
  ``np.split``/``np.array_split``, ``np.linalg.norm`` of orders 0, 1 and ±inf,
  ``np.any``/``all``, ``argmax``/
  ``argmin``, an element of a chain), and chains centred on their own reductions
  (``a - a.mean()``, ``a - np.mean(a, keepdims=True)``: reductions kept as an array of
  one element, broadcast back);
* conversions: ``c.astype(...)`` of a chain of another dtype (never a float to int64,
  which numpy leaves to the machine where it does not fit), ``np.array``/``np.asarray``
  of a chain (with ``dtype=``) and ``np.array`` of the program's numbers, of nested
  displays of them and of two chains, summed;
* selections: a chain indexed by a mask of its group or by indices made in bounds
  (``(a * 2)[b > 0]``, ``a[np.abs(k) % max(len(a), 1)]``), reduced; the selected
  elements of an array set or updated (``a[m] = x``, ``a[k] += a * 2``);
* rearrangements, reduced: ``np.concatenate``, ``np.argsort(..., kind='stable')``,
  ``np.nonzero``, ``np.flatnonzero``; sums and means over one axis of a chain made a
  column or a row (``c.reshape(-1, 1).sum(axis=0)``: numpy sums a column pairwise);
* 2-D arrays (son/fuzz/gridgen.py): columns broadcast against rows, ``np.outer`` and
  matrix products, combined and read back as chains and scalars; 2-D locals whose views
  are assigned;
* statements: array locals ``r0``, ``r1``... bound to chains at the top of ``f`` (float
  and int ones join ``Func.arrays``, so the rest of the generator indexes, stores
  into, iterates and reduces them; bool ones are masks, read by the chains), rebound
  to chains of their dtype later or to a view of their length (``r0 = a0[::-1]``,
  ``r0 = a0[::-1] if p else r0 * 2.0``: in a branch or a loop a view meets a whole
  array), in-place updates (``a += ...``, ``a[1:] -= a[:-1]``, ``np.add(a, b, out=a)``:
  overlapping views of one array included) and scalar locals set to reductions;
* and a result that is an array, alone or in a tuple (``ARRAY_RETURNS``).

Lengths: every array and view belongs to a *group* of arrays that have one length
(the parameters, given one length in ``SAME_LENGTHS`` of the argument tuples by
``common_lengths``; ``m0``; ``a[1:]`` of a group one shorter...), and a chain's
operands come from one group, except that an operand is any array with probability
``MISFIT``: numpy's ValueError for lengths that do not broadcast is then an outcome
the oracle compares.  Left out, as son does not claim them exact (docs/decisions.md):
``np.exp``/``log``/``sin``... of arrays and float arrays to other powers (numpy's own
SIMD loops), float ``//`` and ``%``, 3-D arrays.  O(size of the program).
"""

from __future__ import annotations

import random
import re

import numpy as np

from .gradgen import Func, choice
from .gridgen import GRID_CHAINS, GRID_SCALARS, GRID_STATEMENTS, GridPrograms
from .recarraygen import RecursiveArrays

#: the share of the programs with arrays that write whole-array expressions (a quarter
#: of them once the mixed-kind, unannotated and recursive ones are left out)
ARRAY_SHARE = 0.35
#: the share of argument tuples of such a program whose array arguments have one length
SAME_LENGTHS = 0.75
#: the probability that a chain's operand is any array of its dtype (may not broadcast)
MISFIT = 0.06
#: exponents of a float array that numpy computes as son does (square, sqrt, reciprocal...)
FAST_POWERS = ["2", "0.5", "-1", "0", "1"]
#: the return kinds of an array, by dtype
ARRAY_RETURNS = {"array_float": "float64", "array_int": "int64", "array_bool": "bool"}
_KIND = {"float64": "float", "int64": "int", "bool": "bool"}
#: the share of chains that convert one of another dtype (``c.astype(...)``, ``np.array``)
CASTS = 0.05
#: what ``astype`` converts to each dtype exactly (a float to int64 is the machine's
#: cast where it does not fit, which son refuses to guess: NotImplementedError)
_CASTS = {"float64": (["int64", "bool"], ["np.float64", "float"]),
          "int64": (["bool", "int64"], ["np.int64", "int"]),
          "bool": (["float64", "int64"], ["bool", "np.bool_"])}
_CMP = ["<", "<=", ">", ">=", "==", "!="]
_CMP_UFUNCS = {"<": "less", "<=": "less_equal", ">": "greater", ">=": "greater_equal", "==": "equal",
               "!=": "not_equal"}
_SIDES = ["'left'", "'right'"]
#: the ufunc each augmented assignment's operator calls (``a op= b`` is ``np.f(a, b, out=a)``)
_UFUNC_OF = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "//": "floor_divide",
             "%": "remainder", "&": "bitwise_and", "|": "bitwise_or", "^": "bitwise_xor"}


def constant_slice(r) -> str:
    """``s:t`` with constant bounds either side of 0, or absent, and beyond short lengths:
    son computes such slices in closed form (son/frontend/arrays.py ``closed_slice``)."""
    def bound():
        return r.choice(["", "", str(r.randint(-6, 6)), str(r.randint(-2, 2))])
    return f"{bound()}:{bound()}"


#: a bare array or view (``a0``, ``r1[::-1]``), and what makes one a new array
_VIEW = re.compile(r"\w+(\[[^\]]*\])?")
_NEW = {"float64": ["* 1.0", "+ 0.0", "/ 1"], "int64": ["* 1", "+ 0", "| 0"], "bool": ["& True", "| False"]}


def common_lengths(rng: random.Random, args: list[tuple]) -> list[tuple]:
    """``args`` with the arrays of a share ``SAME_LENGTHS`` of the tuples cut or repeated to
    the length of the tuple's first array (``np.resize``)."""
    out = []
    for t in args:
        arrays = [a for a in t if isinstance(a, np.ndarray)]
        if arrays and rng.random() < SAME_LENGTHS:
            n = len(arrays[0])
            t = tuple(np.resize(a, n) if isinstance(a, np.ndarray) else a for a in t)
        out.append(t)
    return out


class ArrayPrograms(GridPrograms, RecursiveArrays):
    """Whole-array chains, statements and reductions (``rng``, ``item``, ``leaf``,
    ``literal`` and ``index`` are the generator's); 2-D ones from son/fuzz/gridgen.py."""

    #: set by ``generate``: this program may write whole-array expressions
    whole = False
    #: bool array locals: (name, group)
    masks: list = []
    #: array name -> its group (parameters: "P"; an unknown name is a group of its own)
    groups: dict = {}
    #: while a chain is written (its scalars are leaves, never reductions of other chains)
    in_chain = False

    def arrays_on(self, fn: Func) -> bool:
        return self.whole and bool(fn.arrays) and not (self.mixed or self.untyped or self.recursive
                                                       or self.in_chain)

    def group_of(self, a: str) -> str:
        return self.groups.get(a, "P" if a[0] in "ab" else a)

    def views(self, fn: Func) -> list[tuple[str, str, str]]:
        """(expression, dtype, group) of every array, mask and view of one."""
        out = []
        for a, dt in fn.arrays + [(m, "bool") for m, _ in self.masks]:
            g = self.group_of(a)
            out += [(a, dt, g), (a, dt, g), (f"{a}[::-1]", dt, g), (f"{a}[1:]", dt, g + "-1"),
                    (f"{a}[:-1]", dt, g + "-1"), (f"{a}[:0:-1]", dt, g + "-1"), (f"{a}[::2]", dt, g + "/2"),
                    (f"{a}[::-2]", dt, g + "/2"), (f"{a}[1::2]", dt, g + "//2"), (f"{a}[:1]", dt, "1")]
        return out

    # ------------------------------------------------------------------ chains
    def scalar(self, fn: Func, kind: str) -> str:
        """A scalar operand: a leaf of the program (no local that may be None: son
        refuses one beside an array)."""
        optionals, fn.optionals = fn.optionals, []
        try:
            return self.leaf(fn, kind)
        finally:
            fn.optionals = optionals

    def operand(self, fn: Func, dt: str, g: str) -> str:
        """An array or view of dtype ``dt`` in group ``g`` (one of another dtype converted
        by an operator where the group has none; any array at all with ``MISFIT``)."""
        r = self.rng
        views = self.views(fn)
        if r.random() < MISFIT and (anywhere := [e for e, d, _ in views if d == dt]):
            return r.choice(anywhere)
        own = [e for e, d, gg in views if d == dt and gg == g]
        if own and r.random() < 0.85:
            return r.choice(own)
        e, d = r.choice([(e, d) for e, d, gg in views if gg == g])
        if d == dt:
            return e
        if dt == "float64":
            return r.choice([f"({e} * {self.scalar(fn, 'float')})", f"({e} / {self.scalar(fn, 'int')})"]
                            + ([f"np.sqrt({e})"] if d == "int64" else []))
        if dt == "int64" and d == "bool":
            return f"({e} {r.choice(['+', '*'])} {self.scalar(fn, 'int')})"
        if dt == "int64":
            return f"(({e} {r.choice(_CMP)} {self.scalar(fn, _KIND[d])}) * {self.scalar(fn, 'int')})"
        return f"({e} {r.choice(_CMP)} {self.scalar(fn, _KIND[d])})"

    def chain(self, fn: Func, dt: str, g: str, depth: int) -> str:
        """An elementwise expression of numpy dtype ``dt`` whose arrays are of group ``g``."""
        r = self.rng
        if depth <= 0 or r.random() < 0.25:
            return self.operand(fn, dt, g)
        was, self.in_chain = self.in_chain, True
        try:
            if r.random() < CASTS:
                return self.cast(fn, dt, g, depth - 1)
            if dt != "bool" and r.random() < GRID_CHAINS:
                return self.from_grid(fn, dt, g, depth - 1)
            return getattr(self, f"chain_{_KIND[dt]}")(fn, g, depth - 1)
        finally:
            self.in_chain = was

    def cast(self, fn: Func, dt: str, g: str, depth: int) -> str:
        """A chain of dtype ``dt`` converted from another (``c.astype(float)``), or an
        array copied or taken as it is (``np.array(c)``, ``np.asarray(c, dtype=...)``)."""
        r = self.rng
        sources, names = _CASTS[dt]
        x = r.random()
        if x < 0.6:
            return f"({self.chain(fn, r.choice(sources), g, depth)}).astype({r.choice(names)})"
        if x < 0.8:
            return f"np.{r.choice(['array', 'asarray'])}({self.chain(fn, dt, g, depth)})"
        src = self.chain(fn, r.choice(sources), g, depth)
        return f"np.{r.choice(['array', 'asarray'])}({src}, dtype={r.choice(names)})"

    def made(self, fn: Func, dt: str, g: str, depth: int) -> str:
        """A chain that makes a new array (never a bare view, which son cannot merge with an
        array where a name or a result may hold either)."""
        e = self.chain(fn, dt, g, depth)
        if not _VIEW.fullmatch(e):
            return e
        return f"({e} {self.rng.choice(_NEW[dt])})"

    def _either(self, a: str, op: str, b: str) -> str:
        return f"({a} {op} {b})" if self.rng.random() < 0.6 else f"({b} {op} {a})"

    def chain_float(self, fn: Func, g: str, d: int) -> str:
        r = self.rng
        c = lambda: self.chain(fn, "float64", g, d)  # noqa: E731
        form = choice(r, [("arith", 6), ("scalar", 4), ("mixed", 2), ("unary", 3), ("power", 1),
                          ("where", 1), ("centre", 1), ("extreme", 1)])
        op = r.choice(["+", "-", "*", "/"] * 3 + ["//", "%"])  # floats: IEEE's for a zero divisor
        if form == "extreme":  # (two zeros of different signs: son's NotImplementedError, a refusal)
            other = c() if r.random() < 0.6 else self.scalar(fn, r.choice(["float", "int"]))
            if r.random() < 0.3:
                return f"np.clip({c()}, {self.scalar(fn, 'float')}, {other})"
            if r.random() < 0.15:  # an int exponent (numpy's TypeError for a float one)
                exponent = self.chain(fn, "int64", g, d) if r.random() < 0.5 else self.scalar(fn, "int")
                return f"np.ldexp({c()}, {exponent})"
            name = r.choice(["maximum", "minimum", "fmax", "fmin", "logaddexp", "logaddexp2", "float_power"])
            return f"np.{name}({c()}, {other})"
        if form == "arith":
            return f"({c()} {op} {c()})"
        if form == "scalar":
            return self._either(c(), op, self.scalar(fn, r.choice(["float", "float", "int", "bool"])))
        if form == "mixed":
            ints = self.chain(fn, "int64", g, d)
            if r.random() < 0.3:
                other = self.chain(fn, "int64", g, d) if r.random() < 0.5 else self.scalar(fn, "int")
                return f"({ints} / {other})"
            return self._either(c(), op, ints)
        if form == "unary":
            f = r.choice(["-", "abs", "np.abs", "np.sqrt", "np.floor", "np.ceil", "np.trunc", "np.deg2rad",
                          "np.rad2deg", "np.reciprocal", "np.nan_to_num", "np.positive", "np.fix",
                          "np.spacing", "np.conj"])
            return f"(-{c()})" if f == "-" else f"{f}({c()})"
        if form == "power":  # one exponent for every element: numpy's fast paths (son/frontend/powers.py)
            x, fast = r.random(), ["2.0", "0.5", "-1.0"]
            if x < 0.5:
                return f"({c()} ** {r.choice(FAST_POWERS)})"
            if x < 0.65:  # an int array's elements as floats, squared as floats
                return f"({self.chain(fn, 'int64', g, d)} ** {r.choice(fast)})"
            if x < 0.85:  # a number known at run time
                y, z = r.sample(fast + ["0.0", "1.0"], 2)
                return f"({c()} ** ({y} if {self.scalar(fn, 'bool')} else {z}))"
            return f"np.power({c()}, np.array([{r.choice(fast)}]))"  # an exponent array of one element
        if form == "where":
            other = c() if r.random() < 0.6 else self.scalar(fn, "float")
            return f"np.where({self.chain(fn, 'bool', g, d)}, {c()}, {other})"
        if r.random() < 0.25:  # a reduction kept as an array of one element, broadcast back
            kept = r.choice(["np.mean({}, keepdims=True)", "({}).sum(keepdims=True)",
                             "np.max({}, axis=0, keepdims=True)", "np.std({}, axis=None, keepdims=True)"])
            return f"({c()} {op} {kept.format(c())})"
        return f"({c()} {op} {self.reduced(fn, 'float', g, d)})"

    def chain_int(self, fn: Func, g: str, d: int) -> str:
        r = self.rng
        c = lambda: self.chain(fn, "int64", g, d)  # noqa: E731
        form = choice(r, [("arith", 6), ("scalar", 4), ("bits", 2), ("unary", 2), ("power", 1),
                          ("where", 1), ("mask", 1), ("centre", 1), ("extreme", 1)])
        op = r.choice(["+", "-", "*", "+", "-", "*", "//", "%"])
        if form == "extreme":
            other = c() if r.random() < 0.6 else self.scalar(fn, r.choice(["int", "bool"]))
            return f"np.{r.choice(['maximum', 'minimum'])}({c()}, {other})"
        if form == "arith":
            return f"({c()} {op} {c()})"
        if form == "scalar":
            return self._either(c(), op, self.scalar(fn, r.choice(["int", "int", "bool"])))
        if form == "bits":
            other = c() if r.random() < 0.6 else self.scalar(fn, "int")
            if r.random() < 0.3:  # numpy's integer ufuncs: shifts by any count, gcd/lcm of any sign
                return f"np.{r.choice(['gcd', 'lcm', 'left_shift', 'right_shift'])}({c()}, {other})"
            return f"({c()} {r.choice(['&', '|', '^', '&', '|', '^', '<<', '>>'])} {other})"
        if form == "unary":
            f = r.choice(["-", "~", "abs", "np.abs", "np.floor", "np.invert", "np.fix"])
            return f"({f}{c()})" if f in "-~" else f"{f}({c()})"
        if form == "power":  # numpy's ValueError for a negative exponent
            k = choice(r, [("2", 4), ("3", 2), ("0", 1), (f"({self.scalar(fn, 'int')} & 3)", 2), ("-1", 1),
                           (c(), 1)])
            if r.random() < 0.15:  # a bool array to a constant power but 2 (numpy's int8 square)
                return f"({self.chain(fn, 'bool', g, d)} ** {r.choice(['3', '1', '0'])})"
            return f"({c()} ** {k})"
        if form == "where":
            other = c() if r.random() < 0.6 else self.scalar(fn, "int")
            return f"np.where({self.chain(fn, 'bool', g, d)}, {c()}, {other})"
        if form == "mask":  # bools count as ints: True + 1 is 2
            return self._either(self.chain(fn, "bool", g, d), r.choice(["+", "*", "-"]), c())
        if r.random() < 0.25:  # a reduction kept as an array of one element, broadcast back
            kept = r.choice(["np.sum({}, keepdims=True)", "({}).min(keepdims=True)",
                             "np.argmax({}, keepdims=True)", "np.prod({} > 0, axis=0, keepdims=True)"])
            return f"({c()} {r.choice(['+', '-'])} {kept.format(c())})"
        return f"({c()} {r.choice(['+', '-'])} {self.reduced(fn, 'int', g, d)})"

    def chain_bool(self, fn: Func, g: str, d: int) -> str:
        r = self.rng
        c = lambda: self.chain(fn, "bool", g, d)  # noqa: E731
        form = choice(r, [("cmp", 6), ("logic", 3), ("not", 1), ("pred", 2), ("where", 1)])
        if form == "cmp":
            dt = r.choice(["float64", "float64", "int64"])
            other = r.choice([self.chain(fn, r.choice(["float64", "int64"]), g, d),
                              self.scalar(fn, r.choice(["float", "int"]))])
            op, left = r.choice(_CMP), self.chain(fn, dt, g, d)
            if r.random() < 0.25:  # the comparison's ufunc
                return f"np.{_CMP_UFUNCS[op]}({left}, {other})"
            return f"({left} {op} {other})"
        if form == "logic":
            other = c() if r.random() < 0.7 else self.scalar(fn, "bool")
            if r.random() < 0.25:  # numpy's logical ufuncs take numbers of any kind
                other = other if r.random() < 0.5 else self.chain(fn, r.choice(["float64", "int64"]), g, d)
                return f"np.logical_{r.choice(['and', 'or', 'xor'])}({c()}, {other})"
            return f"({c()} {r.choice(['&', '|', '^', '==', '!='])} {other})"
        if form == "not":
            return f"(~{c()})"
        if form == "pred":
            return f"np.{r.choice(['isnan', 'isinf', 'isfinite', 'signbit', 'isposinf', 'isneginf'])}" \
                   f"({self.chain(fn, 'float64', g, d)})"
        return f"np.where({c()}, {c()}, {c()})"

    def reduced(self, fn: Func, kind: str, g: str, depth: int) -> str:
        """A scalar of ``kind`` reduced from a chain of group ``g``."""
        r = self.rng
        if r.random() < GRID_SCALARS:
            return self.grid_reduced(fn, kind, g, depth)
        if kind in ("float", "int") and r.random() < 0.12:  # a selection, reduced
            return f"np.sum({self.selection(fn, {'float': 'float64', 'int': 'int64'}[kind], g, depth)})"
        if kind in ("float", "int") and r.random() < 0.08:  # a rearrangement, reduced
            dt = {"float": "float64", "int": "int64"}[kind]
            c, other = self.chain(fn, dt, g, depth), self.chain(fn, r.choice(["int64", "bool", dt]), g, depth)
            if kind == "float":
                return f"np.sum(np.concatenate(({c}, {other})))"
            return r.choice([f"np.argsort({c}, kind='stable')[{r.choice(['0', '-1'])}]",
                             f"len(np.flatnonzero({other}))", f"np.sum(np.nonzero({c})[0])",
                             f"np.sum(np.concatenate(({c}, {other})))"])
        if kind in ("float", "int") and r.random() < 0.06:  # son/frontend/arraymore.py's functions
            return self.more_reduced(fn, kind, g, depth)
        if kind in ("float", "int") and r.random() < 0.04:  # son/frontend/arrayextra.py's functions
            return self.extra_reduced(fn, kind, g, depth)
        if kind in ("float", "int") and r.random() < 0.04:  # son/frontend/setops.py's functions
            return self.setops_reduced(fn, kind, g, depth)
        if kind in ("float", "int") and r.random() < 0.04:  # an array of the program's numbers
            kinds = [r.choice([kind, kind, "int", "bool"]) for _ in range(r.randint(1, 4))]
            items = ", ".join(self.scalar(fn, k) for k in kinds)
            made = f"np.array(({items},))" if r.random() < 0.5 else f"np.array([{items}])"
            if r.random() < 0.3:  # a nested display: a 2-D array of the numbers, or of two chains
                two = [self.chain(fn, "float64", g, depth) for _ in range(2)]
                nested = f"np.array([[{items}], [{items}]])"
                made = nested if r.random() < 0.6 else f"np.array([{', '.join(two)}])"
            return f"np.sum({made})" if kind == "float" else f"np.sum({made}.astype(np.int64))"
        if kind == "float":
            c = self.chain(fn, "float64", g, depth)
            digits = r.choice(["0", "1", "2", "-1", "c0" if "c0" in fn.vars["int"] else "3"])
            shift = self.scalar(fn, "int")
            if r.random() < 0.06:  # over one axis of a column or a row (numpy's loop order decides)
                return r.choice([f"({c}).reshape(-1, 1).sum(axis=0)[0]",
                                 f"np.mean(({c}).reshape(-1, 1), axis=0)[0]",
                                 f"np.sum(({c}).reshape(1, -1), axis=1)[0]"])
            return r.choice([f"np.sum({c})", f"{c}.sum()", f"np.mean({c})", f"{c}.mean()", f"np.max({c})",
                             f"{c}.min()", f"np.prod({c})", f"np.var({c})", f"{c}.std()",
                             f"np.var({c}, ddof={r.choice([1, 2])})", f"np.cumsum({c})[-1]",
                             f"np.diff({c}).sum()", f"np.median({c})", f"np.sort({c})[0]",
                             f"np.sum(np.round({c}, {digits}))", f"np.sum(np.sign({c}))", f"np.ptp({c})",
                             f"np.sum(np.roll({c}, {shift}))", f"np.sum(np.square({c}))", f"np.flip({c})[0]",
                             f"np.flip({c}, (({shift}) % 2 - 1,))[0]", f"np.var({c}, keepdims=True)[0]",
                             f"math.fsum({c})", f"math.dist({c}, {c}[::-1])",
                             f"np.sum(({c})[{constant_slice(r)}])"])
        if kind == "int":
            x = r.random()
            if x < 0.3:
                c = self.chain(fn, r.choice(["float64", "int64", "bool"]), g, depth)
                return f"np.{r.choice(['argmax', 'argmin'])}({c})" if r.random() < 0.7 else f"{c}.argmax()"
            if x < 0.4:
                if r.random() < 0.2:  # a slice with constant bounds, perhaps beyond the length
                    c = self.chain(fn, r.choice(["float64", "int64", "bool"]), g, depth)
                    return f"len(({c})[{constant_slice(r)}])"
                return f"{self.chain(fn, 'int64', g, depth)}[{r.choice(['0', '-1', '1'])}]"
            if x < 0.5:
                return f"np.{r.choice(['max', 'min'])}({self.chain(fn, 'int64', g, depth)})"
            c = self.chain(fn, r.choice(["int64", "int64", "bool"]), g, depth)
            if x < 0.6:
                return r.choice([f"np.prod({c})", f"{c}.cumsum()[{r.choice(['0', '-1'])}]",
                                 f"np.count_nonzero({c})", f"np.ptp({c})",  # of bools: TypeError
                                 f"np.searchsorted({c}, {self.scalar(fn, 'int')}, side={r.choice(_SIDES)})",
                                 f"np.sum(np.searchsorted(np.sort({c}), {c}))"])
            return f"np.sum({c})" if r.random() < 0.6 else f"{c}.sum()"
        if r.random() < 0.1:  # numpy's closeness test of two chains (NaN, infinities and all)
            a = self.chain(fn, "float64", g, depth)
            b = self.chain(fn, r.choice(["float64", "int64"]), g, depth)
            return r.choice([f"np.allclose({a}, {b})", f"np.isclose({a}, {b}, equal_nan=True).any()",
                             f"np.allclose({a}, {b}, rtol=0.5, atol=0.0)"])
        c = self.chain(fn, r.choice(["bool", "bool", "float64", "int64"]), g, depth)
        name = r.choice(["any", "all"])
        return f"np.{name}({c})" if r.random() < 0.6 else f"{c}.{name}()"

    def more_reduced(self, fn: Func, kind: str, g: str, depth: int) -> str:
        """A scalar of ``kind`` from ``np.repeat``, ``np.tile``, ``np.unique``, ``np.interp``,
        ``np.argwhere``, ``np.cross``, ``np.vstack``, ``np.percentile``/``np.quantile`` or
        ``np.arange(dtype=float)`` of chains of group ``g``."""
        r = self.rng
        dt = {"float": "float64", "int": "int64"}[kind]
        c, other = self.chain(fn, dt, g, depth), self.chain(fn, r.choice(["int64", "bool", dt]), g, depth)
        k = r.choice(["0", "1", "2", "3", f"abs({self.scalar(fn, 'int')}) % 3"])
        picks = [f"np.sum(np.repeat({c}, {k}))", f"np.sum(np.tile({c}, {k}))",
                 f"np.sum(np.repeat({c}, np.abs({self.chain(fn, 'int64', g, depth)}) % 3))",
                 f"np.sum(np.cross(np.concatenate(({c}, np.ones(3, dtype=np.{dt})))[:3], "
                 f"np.concatenate(({other}, np.ones(3, dtype=np.int64)))[:3]))",
                 f"np.sum(np.vstack(({c}, {other})))"]
        if kind == "float":
            xp = self.chain(fn, r.choice(["float64", "int64"]), g, depth)
            q = r.choice(["0", "25", "50.0", "100", "37.5", "99.9"])
            picks += [f"np.sum(np.unique({c}))", f"np.percentile({c}, {q})", f"np.quantile({c}, {q} / 100)",
                      f"np.interp({self.scalar(fn, 'float')}, np.sort({xp}), {c})",
                      f"np.sum(np.interp({other}, {xp}, {c}, left=0.0))",
                      f"np.sum(np.arange(abs({self.scalar(fn, 'int')}) % 9, dtype=float))"]
        else:
            picks += [f"len(np.unique({other}))", f"np.sum(np.unique({c}))", f"np.sum(np.argwhere({other}))",
                      f"len(np.argwhere({c}))", f"np.quantile({c}, {r.choice(['0', '1'])})"]
        return r.choice(picks)

    def setops_reduced(self, fn: Func, kind: str, g: str, depth: int) -> str:
        """A scalar of ``kind`` from numpy's set routines and array edits (``np.isin``,
        ``np.union1d``, ``np.intersect1d``, ``np.setdiff1d``, ``np.ediff1d``, ``np.extract``,
        ``np.array_equal``, ``np.delete``, ``np.insert``, ``np.count_nonzero(axis=)``,
        ``a.take``) of chains of group ``g``."""
        r = self.rng
        dt = {"float": "float64", "int": "int64"}[kind]
        c = self.chain(fn, dt, g, depth)
        other = self.chain(fn, r.choice(["int64", "bool", dt, "float64"]), g, depth)
        i = r.choice(["0", "-1", "1", f"abs({self.scalar(fn, 'int')}) % 3"])
        picks = [f"np.sum(np.union1d({c}, {other}))", f"np.sum(np.intersect1d({c}, {other}))",
                 f"np.sum(np.setdiff1d({c}, {other}))", f"np.sum(np.ediff1d({c}))",
                 f"np.sum(np.extract({other}, {c}))", f"np.sum(np.delete({c}, {i}))",
                 f"np.sum(np.delete({c}, slice({i}, None, {r.choice(['1', '2', '-1'])})))",
                 f"np.sum(np.insert({c}, {i}, {self.scalar(fn, 'int' if kind == 'int' else 'float')}))",
                 f"np.sum(({c}).take(np.arange(len({c})) % 2))"]
        if kind == "int":
            picks += [f"np.count_nonzero(np.isin({c}, {other}, invert={r.choice(['True', 'False'])}))",
                      f"int(np.array_equal({c}, {other}))", f"len(np.union1d({other}, {c}))",
                      f"np.count_nonzero(({other}).reshape(-1, 1), axis=0)[0]",
                      f"np.sum(np.ediff1d({c}, to_end={other}, to_begin=[1]))"]
        else:
            picks += [f"np.sum(np.ediff1d({c}, to_begin={self.scalar(fn, 'float')}, to_end={other}))",
                      f"np.sum(np.insert({c}, {i}, {other}))",
                      f"float(np.array_equal({c}, ({c})[::-1], equal_nan=True))"]
        return r.choice(picks)

    def extra_reduced(self, fn: Func, kind: str, g: str, depth: int) -> str:
        """A scalar of ``kind`` from ``np.convolve``/``np.correlate`` (of ints: numpy's float
        convolution is BLAS's order, docs/decisions.md), ``np.gradient``, ``np.histogram``, a
        numpy function's method form (``c.repeat(k)``...) or son/frontend/arraymisc.py's
        functions (``np.nanvar``, ``np.tri``...) of chains of group ``g``."""
        r = self.rng
        number = r.choice(["int64", "float64"])
        c = self.chain(fn, number, g, depth)
        bins = r.choice(["1", "3", "10", f"abs({self.scalar(fn, 'int')}) % 5"])
        if kind == "int":
            ints = self.chain(fn, "int64", g, depth)
            other = self.chain(fn, r.choice(["int64", "bool"]), g, depth)
            mode = r.choice(["", ", 'same'", ", 'valid'", ", mode='full'"])
            k = r.choice(["0", "2", f"abs({self.scalar(fn, 'int')}) % 3"])
            split = r.choice(["split", "array_split"])
            return r.choice([f"np.sum(np.convolve({ints}, {other}{mode}))",
                             f"np.convolve({other}, {ints}{mode})[0]",
                             f"np.sum(np.histogram({c}, {bins})[0])",
                             f"np.histogram({c}, {bins}, ({self.scalar(fn, 'float')}, "
                             f"{self.scalar(fn, r.choice(['float', 'int']))}))[0][-1]",
                             f"np.sum(({ints}).repeat({k}))", f"({ints}).cumprod()[-1]",
                             f"np.sum(({c}).nonzero()[0])",
                             f"({ints}).searchsorted({self.scalar(fn, 'int')})",
                             f"np.sum(np.bincount(np.abs({ints}) % 7))",
                             f"np.argmax(np.bincount(np.abs({ints}) % 5, minlength={k}))",
                             f"np.sum(np.digitize({c}, np.sort({self.chain(fn, number, g, depth)})))",
                             f"np.take({ints}, {self.scalar(fn, 'int')})",
                             f"np.unravel_index(abs({self.scalar(fn, 'int')}) % 6, (2, 3))[1]",
                             f"np.unique({c}, return_index=True, return_counts=True)[{r.choice([1, 2])}][-1]",
                             f"np.sum(np.unique({ints}, return_inverse=True)[1])",
                             f"np.sum(np.{split}({ints}, [{k}])[{r.randint(0, 1)}])",
                             f"len(np.array_split({c}, {r.choice([1, 2, 3])})[0])",
                             f"np.sum(np.vander({ints}, {r.choice(['2', '4', k])}))",
                             # son/frontend/arraymisc.py's functions (correlate: arrayextra.py)
                             f"np.sum(np.correlate({ints}, {other}{mode}))",
                             f"np.correlate({other}, {ints}{mode})[-1]", f"np.nancumsum({other})[-1]",
                             f"np.sum(np.diagflat({other}, {k}))", f"np.sum(np.resize({ints}, ({k}, 2)))",
                             f"np.sum(np.tri(abs({self.scalar(fn, 'int')}) % 5, {r.choice(['3', 'None'])}, "
                             f"{r.choice(['0', '-1', k])}, dtype=int))",
                             f"np.sum(np.broadcast_to({ints}, (2, len({ints})))[1])"])
        h = self.scalar(fn, r.choice(["float", "int"]))
        floats = self.chain(fn, "float64", g, depth)
        return r.choice([f"np.sum(np.gradient({c}))", f"np.gradient({c}, {h})[-1]",
                         f"np.sum(np.histogram({c}, {bins})[1])",
                         f"np.histogram({c}, {bins}, (-1.5, {self.scalar(fn, 'float')}))[1][-1]",
                         f"np.sum(({floats}).clip(-1.0, 1.0))", f"np.sum(({floats}).round(1))",
                         f"np.sum(({c}).repeat(2))", f"np.trapezoid({floats})", f"np.trapezoid({c}, dx={h})",
                         f"np.average({floats}, weights=np.abs({c}) + 1.0)",
                         f"np.sum(np.{r.choice(['vstack', 'column_stack', 'stack'])}(({floats}, {c})))",
                         f"np.sum(np.meshgrid({floats}, {c})[{r.choice([0, 1])}])",
                         f"np.linalg.norm({floats}, {r.choice(['1', '0', 'np.inf', '-np.inf'])})",
                         f"np.sum(np.array_split({floats}, {r.choice([2, 3])})[-1])",
                         f"np.vander({c}, {r.choice(['3', 'None'])}, "
                         f"increasing={r.choice(['True', 'False'])})[0, -1]",
                         # son/frontend/arraymisc.py's functions
                         f"np.nanvar({floats})", f"np.nanstd({c}, ddof={r.choice([0, 1, 2])})",
                         f"np.nancumsum({floats})[-1]", f"np.nancumprod({c})[0]",
                         f"np.sum(np.unwrap({floats}))",
                         f"np.sum(np.logspace(-1.0, {h}, {r.choice(['0', '3', '5'])}, "
                         f"base={r.choice(['10.0', '2', '0.5'])}))",
                         f"np.sum(np.diagflat({floats}, -1))", f"np.sum(np.resize({c}, 5))",
                         f"np.sum(np.tri(3, 4, {r.choice(['0', '-2', '1'])}))"])

    def selection(self, fn: Func, dt: str, g: str, depth: int) -> str:
        """A chain indexed by a mask of its group (``(a * 2)[b > 0]``) or by indices made
        in bounds by ``% len`` (``a[np.abs(k) % len(a)]``; numpy's IndexError where it is
        empty), a new array."""
        r = self.rng
        c = self.chain(fn, dt, g, depth)
        if r.random() < 0.6:
            return f"({c})[{self.chain(fn, 'bool', g, depth)}]"
        return f"({c})[np.abs({self.chain(fn, 'int64', g, depth)}) % max(len({c}), 1)]"

    def pick_group(self, fn: Func) -> str:
        return self.rng.choice([self.group_of(a) for a, _ in fn.arrays] + [g for _, g in self.masks])

    # ------------------------------------------------------------------ the generator's hooks
    def array_scalar(self, fn: Func, kind: str, depth: int) -> str | None:
        """A reduction of a chain, as a scalar expression of ``kind`` (None when the
        program writes no whole-array expressions)."""
        if kind not in _KIND.values() or not self.arrays_on(fn):
            return None
        return self.reduced(fn, kind, self.pick_group(fn), min(depth, 2))

    def array_value(self, fn: Func, kind: str, depth: int) -> str:
        """A returned array of the kind ``kind`` (of ``ARRAY_RETURNS``)."""
        return self.made(fn, ARRAY_RETURNS[kind], self.pick_group(fn), min(depth, 2))

    def array_locals(self, fn: Func) -> list[str]:
        """Maybe make this program one with whole-array expressions: its array locals
        (their lines), and maybe an array result; first, maybe, a call of a recursive
        helper that returns an array (son.fuzz.recarraygen)."""
        r = self.rng
        out = self.recursive_array(fn)
        if not self.arrays_on(fn):
            self.whole = False
            return out
        self.masks, self.groups = [], dict([self.result_group] if out else [])
        for i in range(r.choice([1, 1, 2, 3])):
            dt = choice(r, [("float64", 2), ("int64", 1), ("bool", 1)])
            g = self.pick_group(fn)
            name = f"r{i}"
            out.append(f"{name} = {self.made(fn, dt, g, r.randint(1, 3))}")
            self.groups[name] = g
            if dt == "bool":
                self.masks.append((name, g))
            else:
                fn.arrays.append((name, dt))
        if fn.ret in ("int", "float", "bool") and r.random() < 0.3:
            ret = r.choice(list(ARRAY_RETURNS))
            fn.ret = ret if r.random() < 0.5 else (fn.ret, ret)
        return out

    def array_stmt(self, fn: Func, ed: int) -> list[str]:
        """An in-place update of an array or a view of one, an array local rebound to a
        chain of its dtype and group, or a scalar local set to a reduction."""
        r = self.rng
        x = r.random()
        targets = [(a, dt) for a, dt in fn.arrays] + [(m, "bool") for m, _ in self.masks]
        a, dt = r.choice(targets)
        g = self.group_of(a)
        d = min(ed, 2)
        if x < 0.5:
            view, vg = a, g
            if r.random() < 0.4:
                view, _, vg = r.choice([v for v in self.views(fn) if v[0].startswith(f"{a}[")])
            op = r.choice({"float64": ["+", "-", "*", "/", "+", "*"], "bool": ["&", "|", "^"],
                           "int64": ["+", "-", "*", "//", "%", "&", "|", "^"]}[dt])
            src = self.chain(fn, dt, vg, d) if r.random() < 0.7 else self.scalar(fn, _KIND[dt])
            if dt == "float64" and r.random() < 0.2:
                src = self.chain(fn, r.choice(["int64", "bool"]), vg, d)  # a safe cast: int into float
            if r.random() < 0.3:  # the source overlaps the target: numpy reads it first
                view, src = r.choice([(f"{a}[1:]", f"{a}[:-1]"), (f"{a}[:-1]", f"{a}[1:]"), (f"{a}[::-1]", a),
                                      (f"{a}[1:]", f"{a}[:0:-1]"), (a, f"{a}[::-1]")])
                kin = [b for b, bdt in fn.arrays if bdt == dt and b != a and self.group_of(b) == g]
                if kin and r.random() < 0.4:  # another array of its length, which ``a`` may have
                    # been rebound to (``a = b if p else b * 2.0``): numpy reads it first too
                    b = r.choice(kin)
                    view, src = r.choice([(f"{a}[1:]", f"{b}[:-1]"), (f"{a}[:-1]", f"{b}[1:]"),
                                          (f"{a}[::-1]", b)])
            if r.random() < 0.15:  # the ufunc with an output array: numpy's in-place update
                fn_name = _UFUNC_OF[op]
                out = f"out={view}" if r.random() < 0.5 else view
                return [f"np.{fn_name}({view}, {src}, {out})"]
            return [f"{view} {op}= {src}"]
        if x < 0.6 and dt != "bool":  # selected elements set or updated
            k = _KIND[dt]
            where = (self.chain(fn, "bool", g, d) if r.random() < 0.6
                     else f"np.abs({self.chain(fn, 'int64', g, d)}) % max(len({a}), 1)")
            value = self.scalar(fn, k) if r.random() < 0.7 else self.made(fn, dt, g, d)
            op = "" if r.random() < 0.6 else r.choice(["+", "-", "*"])
            return [f"{a}[{where}] {op}= {value}"]
        if x < 0.75 and any(n == a for n in self.groups):
            same = [v for v, vdt, vg in self.views(fn) if vdt == dt and vg == g and v != a]
            if same and r.random() < 0.5:  # a view of its length (in a branch or loop it meets an array)
                view = r.choice(same)
                if r.random() < 0.5:
                    return [f"{a} = {view}"]
                return [f"{a} = {view} if {self.scalar(fn, 'bool')} else {self.made(fn, dt, g, d)}"]
            return [f"{a} = {self.made(fn, dt, g, d + 1)}"]
        scalars = [v for v in fn.mutable if any(v in fn.vars[k] for k in ("int", "float", "bool"))]
        if not scalars:
            return [f"{a} = {self.made(fn, dt, g, d)}"] if a in self.groups else ["pass"]
        v = r.choice(scalars)
        kind = next(k for k in ("int", "float", "bool") if v in fn.vars[k])
        if dt != "bool" and r.random() < GRID_STATEMENTS:  # a 2-D local's views assigned
            return self.grid_stmt(fn, dt, g, d, v, kind)
        return [f"{v} = {self.reduced(fn, kind, self.pick_group(fn), d)}"]
