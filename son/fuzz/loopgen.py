"""The generator's loops and iteration (a mixin of ``son.fuzz.generator._Gen``).

``for ... in range`` with 1-3 arguments and negative steps, ``while``; ``for`` over
arrays and over ``enumerate``, ``zip`` and ``reversed`` of arrays and ranges, over an
iterator of an array or a list that the body advances too (``next(it, default)``); and the
reductions ``sum``, ``min``, ``max``, ``any``, ``all`` and ``math.prod`` of arrays and
of generator expressions (filters, two ``for`` clauses, ``key=``, ``default=``,
``start``).  Termination: a loop over a literal range or an array is bounded by
construction (an array's length cannot change), every other loop counts ``fuel``.
Kinds stay exact: a float sum starts at ``0.0`` (``sum`` of an empty float array is
the int 0), and float sums are left out where CPython sums them compensated (3.12).

Recursion: some programs' ``f``, and some helpers, call themselves (outside loops, their conditions
and comprehensions, so the calls per level stay few: seed 32125 i6208 made 80 per level and ran out
of time, and so did seed 20261201 i192 through a ``while`` condition) in expressions of its
result's kind, with
an int parameter ``n`` one or two smaller and the other parameters as they are (never
assigned in such a program); its first statement returns at once unless ``1 <= n <= 4``,
so a call chain is at most four deep (far from any recursion limit).  A function that
returns a flat tuple calls itself for one of its items (``h0(q0 - 1, q1)[1]``).
"""

from __future__ import annotations

import ast
import sys

from .gradgen import Func, choice, helper_args, indent

#: loop iterations a program may run in total (see son/fuzz/generator.py)
FUEL = 40

#: float sums: CPython 3.12 adds them compensated, which son refuses to imitate
_FLOAT_SUMS = sys.version_info < (3, 12)


class LoopPrograms:
    """Loops, iteration and reductions (``rng``, ``expr``, ``block``, ``fresh`` and
    ``lambda_of`` are the generator's)."""

    def fuel(self) -> list[str]:
        return ["fuel += 1", f"if fuel > {FUEL}:", "    break"]

    def conditional(self, fn: Func, kind: str, depth: int) -> str:
        """``(a if c else b)``, or now and then a select that son turns into min/max
        (peephole ``phi_select``: ``x if x < y else y``, the running extremum of a loop)
        with its edges: ``<=`` on floats (NaN and -0.0 pick another side), a bound off by
        one or two, a clamped difference."""
        r, e = self.rng, self.expr
        if r.random() < 0.6:
            return f"({e(fn, kind, depth)} if {e(fn, 'bool', depth)} else {e(fn, kind, depth)})"
        x, y = (r.choice(fn.vars[kind]) if fn.vars[kind] and r.random() < 0.7 else e(fn, kind, depth)
                for _ in range(2))
        op = r.choice(["<", ">", "<=", ">="])
        forms = [f"({x} if {x} {op} {y} else {y})", f"({y} if {x} {op} {y} else {x})"]
        if kind == "int":
            k = r.choice(["1", "2"])
            forms += [f"({y} - {k} if {x} {op} {y} else {x})", f"({y} + {k} if {x} {op} {y} else {x})",
                      f"({y} - {x} if {x} {op} {y} else 0)", f"(0 if {x} {op} {y} else {x} - {y})"]
        return r.choice(forms)

    def loop_body(self, fn: Func, depth: int, ivar: str | None, head: list[str], fuel: bool,
                  bound: tuple = ()) -> list[str]:
        """``head`` and a body in which the int ``ivar`` and the ``bound`` (name, kind)
        pairs are readable (never assigned)."""
        fn.loops += 1
        bound = ([(ivar, "int")] if ivar else []) + list(bound)
        for v, k in bound:
            fn.vars[k].append(v)
        body = (self.fuel() if fuel else []) + self.block(fn, depth - 1, self.rng.randint(1, 4))
        for v, k in bound:
            fn.vars[k].remove(v)
        fn.loops -= 1
        return head + indent(body)

    def for_stmt(self, fn: Func, depth: int) -> list[str]:
        r = self.rng
        iv = self.fresh(fn, "i")
        x = r.random()
        arrs = [a for a, _ in fn.arrays]
        if arrs and x < 0.3:
            return self.iter_for(fn, depth)
        accs = [v for v in fn.mutable if v in fn.vars["float"]]
        if arrs and accs and not self.mixed and x < 0.35:  # a dot product, perhaps of arrays of
            # two lengths or one off: an effect-free loop, its IndexError tested before it runs
            a, b, v = r.choice(arrs), r.choice(arrs), r.choice(accs)
            off = r.choice(["", "", " + 1", " - 1", " + 2"])
            return [f"for {iv} in range(len({a})):", f"    {v} += {a}[{iv}] * {b}[{iv}{off}]"]
        if arrs and not self.mixed and x < 0.4:  # over an array: bounded by its length
            a = r.choice(arrs)
            args = r.choice([f"len({a})", f"1, len({a}) - 1", f"len({a}) - 1, -1, -1", f"0, len({a}), 2",
                             f"{r.randint(-2, 2)}, len({a}) + {r.randint(-2, 1)}"])
            return self.loop_body(fn, depth, iv, [f"for {iv} in range({args}):"], fuel=False)
        if x < 0.55:  # a short literal range: bounded without fuel
            a, b = r.randint(-3, 3), r.randint(-3, 6)
            step = r.choice([1, 1, 2, -1, -2, 3])
            if step < 0:
                a, b = b, a
            args = f"{a}, {b}" + (f", {step}" if step != 1 else "") if r.random() < 0.7 else str(max(b, 0))
            return self.loop_body(fn, depth, iv, [f"for {iv} in range({args}):"], fuel=False)
        n = r.randint(1, 3)
        parts = [self.expr(fn, "int", 1) for _ in range(n)]
        if self.mixed:  # an int local may hold a float: son refuses a float range() bound statically
            parts = [f"int({p})" for p in parts]
        if n == 3 and r.random() < 0.5:
            parts[2] = r.choice(["-1", "-2", "-3", "2"])
        return self.loop_body(fn, depth, iv, [f"for {iv} in range({', '.join(parts)}):"], fuel=True)

    def while_stmt(self, fn: Func, depth: int) -> list[str]:
        fn.loops += 1  # the condition runs every round: no recursive call in it
        cond = self.expr(fn, "bool", 2) if self.rng.random() < 0.8 else "True"
        fn.loops -= 1
        return self.loop_body(fn, depth, None, [f"while {cond}:"], fuel=True)

    # ------------------------------------------------------------------ iteration
    def _element(self, dtype: str) -> str:
        return "float" if dtype == "float64" else "int"

    def sliced(self, fn: Func, a: str) -> str:
        """``a`` or a slice of it (a view): absent, negative, out-of-range bounds and
        negative steps, bounds that are expressions, a slice of a slice, a slice object."""
        r = self.rng
        if r.random() < 0.6:
            return a
        b = lambda: r.choice(["", "1", "-1", "2", "-3", "10", "-10"]  # noqa: E731
                             + ([] if self.mixed else [f"{self.expr(fn, 'int', 1)} % 5"]))
        step = r.choice(["", "", ":2", ":-1", ":-2", ":3"])
        lo, hi = b(), b()
        out = f"{a}[{lo}:{hi}{step}]"
        if r.random() < 0.15:  # a slice object: slice(lo, hi, step), None for what is absent
            out = f"{a}[slice({lo or None}, {hi or None}, {step[1:] or None})]"
        return f"{out}[{b()}:]" if r.random() < 0.15 else out

    def slice_store(self, fn: Func, depth: int) -> list[str]:
        """``a[i:j:k] = <number>`` or ``= <another array or view>`` (numpy's ValueError
        where the lengths differ and the source has more than one element)."""
        r = self.rng
        a, dt = r.choice(fn.arrays)
        target = self.sliced(fn, a)
        if target == a:
            target = f"{a}[{r.choice(['1:', ':-1', '::2', '::-1', '1:3'])}]"
        if r.random() < 0.6:
            k = "int" if dt == "int64" else r.choice(["float", "int"])
            return [f"{target} = {self.expr(fn, k, depth)}"]
        same = [b for b, d in fn.arrays if d == dt]
        return [f"{target} = {self.sliced(fn, r.choice(same))}"]

    def iter_for(self, fn: Func, depth: int) -> list[str]:
        """``for`` over an array, ``enumerate``/``reversed`` of one, ``zip`` of two or of a
        range and an array, an iterator of one (bounded by the array's length: no fuel)."""
        r = self.rng
        a, dt = r.choice(fn.arrays)
        x = self.fresh(fn, "el")
        k = self._element(dt)
        form = r.choice(["plain", "plain", "enumerate", "zip", "reversed", "range", "iterator"])
        a = self.sliced(fn, a)
        if form == "iterator":
            return self.iterator_for(fn, depth, a, k, fuel=False)
        if form == "enumerate":
            i = self.fresh(fn, "i")
            start = r.choice(["", ", 1", ", -2", ", start=3"] + ([] if self.mixed else
                                                                [f", {self.expr(fn, 'int', 1)}"]))
            head, bound = f"for {i}, {x} in enumerate({a}{start}):", [(i, "int"), (x, k)]
        elif form == "zip":
            b, dt2 = r.choice(fn.arrays)
            y = self.fresh(fn, "el")
            head = f"for {x}, {y} in zip({a}, {self.sliced(fn, b)}):"
            bound = [(x, k), (y, self._element(dt2))]
        elif form == "reversed":
            head, bound = f"for {x} in reversed({a}):", [(x, k)]
        elif form == "range":
            i = self.fresh(fn, "i")
            lo, hi = r.randint(-3, 3), r.randint(-3, 9)
            step = r.choice(["", ", 2", ", -1"])
            if step == ", -1":
                lo, hi = hi, lo
            head, bound = f"for {i}, {x} in zip(range({lo}, {hi}{step}), {a}):", [(i, "int"), (x, k)]
        else:
            head, bound = f"for {x} in {a}:", [(x, k)]
        return self.loop_body(fn, depth, None, [head], fuel=False, bound=tuple(bound))

    def iterator_for(self, fn: Func, depth: int, a: str, k: str, fuel: bool) -> list[str]:
        """``for`` over an iterator of ``a`` (items of kind ``k``) that takes a second item
        with ``next(it, default)`` each step, so the loop sees every other item."""
        it, x, y = self.fresh(fn, "it"), self.fresh(fn, "el"), self.fresh(fn, "el")
        head = [f"{it} = iter({a})", f"for {x} in {it}:", f"    {y} = next({it}, {self.literal(k)})"]
        return self.loop_body(fn, depth, None, head, fuel=fuel, bound=((x, k), (y, k)))

    def reduction(self, fn: Func, kind: str, depth: int) -> str | None:
        """A reduction of ``kind`` over an array or a generator expression."""
        r = self.rng
        a, dt = r.choice(fn.arrays)
        a = self.sliced(fn, a)
        k = self._element(dt)
        if kind == "bool":
            name = r.choice(["any", "all"])
            if r.random() < 0.25:  # numpy's, as a function or a method
                return r.choice([f"np.{name}({a})", f"{a}.{name}()"])
            return f"{name}({r.choice([a, self.generator(fn, 'bool', depth)])})"
        if kind == "int" and r.random() < 0.25:  # numpy's exact int results
            forms = [f"np.argmax({a})", f"{a}.argmin()", f"len(np.copy({a}))"]
            if not (self.mixed or self.untyped):  # an int may be a float: arange's dtype would vary
                forms.append(f"np.arange(int({self.expr(fn, 'int', 1)}) % 6)[-1]")
            if k == "int":
                forms += [f"np.sum({a})", f"{a}.sum()"]
            return r.choice(forms)
        if kind == "float" and k == "int":
            src = self.generator(fn, "float", depth)  # float items from an int array
        elif kind == "int" and k == "float":
            src = self.generator(fn, "int", depth)
        else:
            src = a if r.random() < 0.5 else self.generator(fn, kind, depth)
        name = choice(r, [("sum", 3 if kind == "int" or _FLOAT_SUMS else 0), ("min", 2), ("max", 2),
                          ("prod", 1 if kind == "float" else 0)])
        if name == "sum":
            start = "0.0" if kind == "float" else r.choice(["", "", self.expr(fn, "int", 1)])
            return f"sum({src}{', ' + start if start else ''})"
        if name == "prod":
            return f"math.prod({src}, start=1.0)"
        extra = ""
        if r.random() < 0.4:
            extra = f", default={self.expr(fn, kind, 1)}"
        if r.random() < 0.3:
            extra += f", key={r.choice(['abs', self.lambda_of(kind, [kind], depth)])}"
        return f"{name}({src}{extra})"

    def generator(self, fn: Func, kind: str, depth: int) -> str:
        """``(expr for g in <array or range> [for h in <array>] [if cond])``, the element an
        expression of ``kind`` that may read the targets and the enclosing variables."""
        r = self.rng
        a, dt = r.choice(fn.arrays)
        g = self.fresh(fn, "g")
        clauses, bound = [], []
        same = [(t, ks[0]) for t, ks in fn.pairs if ks[0] == ks[1] and ks[0] != "bool"]
        if same and r.random() < 0.2:  # over a tuple local: unrolled
            t, k = r.choice(same)
            clauses.append(f"for {g} in {t}")
            bound.append((g, k))
        elif r.random() < 0.2:
            clauses.append(f"for {g} in range(len({a}))")
            bound.append((g, "int"))
        else:
            clauses.append(f"for {g} in {self.sliced(fn, a)}")
            bound.append((g, self._element(dt)))
        if r.random() < 0.15:
            b, dt2 = r.choice(fn.arrays)
            h = self.fresh(fn, "g")
            clauses.append(f"for {h} in {b}")
            bound.append((h, self._element(dt2)))
        for v, k in bound:
            fn.vars[k].append(v)
        # no locals that may be None in the items: son refuses min/max of such items
        optionals, fn.optionals = fn.optionals, []
        fn.loops += 1  # the items and the test run once per item: no recursive call in them
        elt = self.expr(fn, kind, max(depth - 1, 1))
        if r.random() < 0.4:
            clauses.append(f"if {self.expr(fn, 'bool', 1)}")
        fn.loops -= 1
        fn.optionals = optionals
        for v, k in bound:
            fn.vars[k].remove(v)
        lazy = _as_map_or_filter(elt, clauses)
        return lazy if lazy is not None else f"({elt} {' '.join(clauses)})"

    # ------------------------------------------------------------------ recursion
    def recursion(self, fn: Func, params: list[tuple[str, str]], name: str = "f",
                  share: float = 0.12) -> list[str]:
        """Maybe (``share``) make function ``name`` recursive (see the module docstring):
        its first lines.  A helper that calls itself is a graph of its own in son."""
        r = self.rng
        ints = [n for n, k in params if k == "int"]
        pair = isinstance(fn.ret, tuple) and len(fn.ret) > 1 and all(k in ("int", "float", "bool")
                                                                    for k in fn.ret)
        if not ints or not (fn.ret in ("int", "float", "bool") or pair) or self.mixed or self.untyped \
                or fn.optionals or fn.lists or r.random() > share:  # (a None son cannot prove dead)
            return []
        n = r.choice(ints)
        for p, _ in params:  # never assigned: what the calls pass keeps its parameter's type
            if p in fn.mutable:
                fn.mutable.remove(p)
        self.recursive = (fn, n, params, name)
        first = f"({', '.join(self.literal(k) for k in fn.ret)})" if pair else self.literal(fn.ret)
        return [f"if {n} < 1 or {n} > 4:", f"    return {first}"]

    def recursive_call(self, fn: Func, depth: int) -> str:
        """``f(...)`` (or the helper's name) with the decreasing parameter one or two
        smaller."""
        _, n, params, name = self.recursive
        args = []
        for p, k in params:
            if p == n:
                args.append(f"{n} - {self.rng.choice([1, 1, 2])}")
            elif k == "float" and self.rng.random() < 0.3:
                args.append(f"({p} * 0.5)")
            else:
                args.append(p)
        if name == "f":
            return f"f({', '.join(args)})"
        return f"{name}({helper_args([k for _, k in params], args)})"


#: names a lambda of a generated ``map`` or ``filter`` may read besides its parameter
_MODULE_NAMES = {"math", "np", "cmath", "operator", "functools", "abs", "min", "max", "int", "float",
                 "bool", "round", "len", "sum", "any", "all", "divmod", "pow", "True", "False", "None"}


def _as_map_or_filter(elt: str, clauses: list[str]) -> str | None:
    """The generator expression ``(elt for g in xs [if c])`` as ``map(lambda g: elt, xs)``
    or ``map(lambda g: elt, filter(lambda g: c, xs))`` (son reads both as that generator
    expression), where it has one ``for`` and its lambdas would read only ``g`` (a closure
    over a variable the function rebinds is a son refusal); decided by the text, so the
    random streams stay as they were."""
    if not clauses[0].startswith("for ") or len(clauses) > 2 or (
            len(clauses) == 2 and not clauses[1].startswith("if ")):
        return None
    g, xs = clauses[0][4:].split(" in ", 1)
    parts = [elt] + [c[3:] for c in clauses[1:]]
    for part in parts:
        names = {n.id for n in ast.walk(ast.parse(part, mode="eval")) if isinstance(n, ast.Name)}
        if not names <= {g} | _MODULE_NAMES:
            return None
    src = xs if len(clauses) == 1 else f"filter(lambda {g}: {parts[1]}, {xs})"
    return f"map(lambda {g}: {elt}, {src})"

