"""The generator's tuple locals (a mixin of ``son.fuzz.generator._Gen``).

A function may hold tuple locals of two elements, each of one pair of kinds for its
whole life (``pr0 = (x, n)``): rebound, unpacked, looped over, read by element (a
constant or run-time index, a negative one), swapped, sliced out of ``t + t``, unpacked
with a starred target (``a, *st0 = pr0``: a new list).  A share
of the programs also hold a tuple local that may be None (``q0 = None``): set to a
tuple, to None, to either by a test, or, the common pattern, the best pair so far
(``if q0 is None or x > q0[1]: q0 = (i, x)``, at any depth, in loops); it is read only
behind a test (``q0[1] if q0 is not None else v``, ``if q0 is not None: a, b = q0``),
so the oracle compares what son carries around branches and loops, never a
TypeError.  Each method is O(the expressions it writes)."""

from __future__ import annotations

from .gradgen import KINDS, Func, helper_args, indent

#: the share of functions that hold a tuple local that may be None
MAYBE_PAIRS = 0.3


class PairPrograms:
    """The generator's tuple locals (a mixin: ``rng``, ``expr``, ``block``, ``fresh``,
    ``kind_of`` and ``helpers`` are the generator's)."""

    def pair_locals(self, fn: Func) -> list[str]:
        """Lines binding the function's tuple locals at its top."""
        r = self.rng
        body = []
        for i in range(r.choice([0, 0, 1, 2])):  # tuple locals, each of one shape for its whole life
            ks = (r.choice(KINDS), r.choice(KINDS))
            t = f"pr{i}"
            body.append(f"{t} = {self.pair(fn, ks, 2)}")
            fn.pairs.append((t, ks))
        if r.random() < MAYBE_PAIRS:
            ks = (r.choice(KINDS), r.choice(KINDS))
            body.append("q0 = None" if r.random() < 0.7 else f"q0 = {self.pair(fn, ks, 1)}")
            fn.maybe_pairs.append(("q0", ks))
        return body

    def pair_leaf(self, fn: Func, kind: str) -> str | None:
        """An element of a tuple local of ``kind`` (None: the caller picks another leaf)."""
        r = self.rng
        holding = [(t, ks) for t, ks in fn.pairs if kind in ks]
        if holding and r.random() < 0.2:
            t, ks = r.choice(holding)
            j = ks.index(kind) if ks[0] != ks[1] else r.randint(0, 1)
            if ks[0] == ks[1] and not self.mixed and r.random() < 0.3:  # an index known at run time
                return f"{t}[{r.choice(fn.vars['int'] or ['1'])} % 2]"
            return f"{t}[{r.choice([str(j), str(j - 2)])}]"
        maybe = [(t, ks) for t, ks in fn.maybe_pairs if kind in ks]
        if maybe and r.random() < 0.2:
            t, ks = r.choice(maybe)
            other = r.choice(fn.vars[kind]) if fn.vars[kind] else self.literal(kind)
            return f"({t}[{ks.index(kind)}] if {t} is not None else {other})"
        return None

    def pair(self, fn: Func, ks: tuple[str, str], depth: int) -> str:
        """A tuple expression with elements of kinds ``ks``."""
        r = self.rng
        same = [t for t, k in fn.pairs if k == ks]
        x = r.random()
        if same and x < 0.25:
            return r.choice(same)
        if same and x < 0.4:
            return (f"({r.choice(same)} if {self.expr(fn, 'bool', 1)} else "
                    f"({self.expr(fn, ks[0], depth)}, {self.expr(fn, ks[1], depth)}))")
        if same and ks[0] == ks[1] and x < 0.5:
            t = r.choice(same)
            return f"({t}[1], {t}[0])" if r.random() < 0.5 else f"(({t} + {t})[1:3])"
        helpers = [h for h in self.helpers if h[2] == ks]
        if helpers and x < 0.65:
            name, hparams, _ = r.choice(helpers)
            return f"{name}({helper_args(hparams, [self.expr(fn, k, depth) for k in hparams])})"
        return f"({self.expr(fn, ks[0], depth)}, {self.expr(fn, ks[1], depth)})"

    def pair_stmt(self, fn: Func, depth: int, ed: int) -> list[str]:
        """A statement on a tuple local: rebind it, unpack it, loop over it."""
        r = self.rng
        if fn.maybe_pairs and (not fn.pairs or r.random() < 0.5):
            return self.maybe_pair_stmt(fn, ed)
        t, ks = r.choice(fn.pairs)
        x = r.random()
        if x < 0.25 and depth > 0 and ks[0] == ks[1]:  # for v in t: the body once per element
            v = self.fresh(fn, "e")
            fn.vars[ks[0]].append(v)
            fn.loops += 1
            body = self.block(fn, depth - 1, r.randint(1, 3))
            fn.loops -= 1
            fn.vars[ks[0]].remove(v)
            head = f"for {v} in {r.choice([t, f'reversed({t})', f'{t}[::-1]'])}:"
            return [head] + indent(body)
        if x < 0.45:
            firsts = [v for v in fn.mutable if self.kind_of(fn, v) == ks[0]]
            seconds = [v for v in fn.mutable if self.kind_of(fn, v) == ks[1]]
            if firsts and seconds and (a := r.choice(firsts)) != (b := r.choice(seconds)):
                return [f"{a}, {b} = {t}"]
        if x < 0.6:  # a starred target: the new list of the elements between the others
            return self.starred_unpack(fn, t, ks)
        return [f"{t} = {self.pair(fn, ks, ed)}"]

    def starred_unpack(self, fn: Func, t: str, ks: tuple) -> list[str]:
        """``a, *s = t``, ``*s, b = t`` or ``a, *s, b = t`` (an empty list), the list's
        length then added to an int local."""
        r = self.rng
        s = self.fresh(fn, "st")
        firsts = [v for v in fn.mutable if self.kind_of(fn, v) == ks[0]]
        seconds = [v for v in fn.mutable if self.kind_of(fn, v) == ks[1]]
        x = r.random()
        if x < 0.4 and firsts:
            lines = [f"{r.choice(firsts)}, *{s} = {t}"]
        elif x < 0.8 and seconds:
            lines = [f"*{s}, {r.choice(seconds)} = {t}"]
        elif firsts and seconds and (a := r.choice(firsts)) != (b := r.choice(seconds)):
            lines = [f"{a}, *{s}, {b} = {t}"]
        else:
            return [f"*{s}, = {t}" if ks[0] == ks[1] else f"{t} = {t}"]
        ints = [v for v in fn.mutable if self.kind_of(fn, v) == "int"]
        return lines + ([f"{r.choice(ints)} += len({s})"] if ints else [])

    def maybe_pair_stmt(self, fn: Func, ed: int) -> list[str]:
        """A statement on a tuple local that may be None: set it (to the best pair so far
        among others), or unpack it behind a test."""
        r = self.rng
        t, ks = r.choice(fn.maybe_pairs)
        x = r.random()
        made = f"({self.expr(fn, ks[0], ed)}, {self.expr(fn, ks[1], ed)})"
        if x < 0.35:  # the best pair so far, by its second element
            return [f"if {t} is None or {self.expr(fn, ks[1], ed)} {r.choice(['>', '<', '>='])} {t}[1]:",
                    f"    {t} = {made}"]
        if x < 0.5:
            firsts = [v for v in fn.mutable if self.kind_of(fn, v) == ks[0]]
            seconds = [v for v in fn.mutable if self.kind_of(fn, v) == ks[1]]
            if firsts and seconds and (a := r.choice(firsts)) != (b := r.choice(seconds)):
                return [f"if {t} is not None:", f"    {a}, {b} = {t}"]
        if x < 0.65:
            return [f"{t} = None"]
        if x < 0.8:
            return [f"{t} = {made} if {self.expr(fn, 'bool', 1)} else None"]
        return [f"{t} = {made}"]
