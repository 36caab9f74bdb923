"""The generator's lists (a mixin of ``son.fuzz.generator._Gen``).

About ``LIST_SHARE`` of the programs (never the mixed-kind or unannotated ones: an int
local there may hold a float, which a list of ints refuses) give ``f`` one to three
list locals ``l0``, ``l1``, ... of one element kind each (int, float or bool, tracked
in ``Func.lists``), made from a literal, ``[v] * n``, a comprehension over a range,
an array or another list (filters, a second ``for``; the source now and then a
``map`` of a lambda or a ``filter`` of one or of None), ``list(range(...))``,
``list(array)``, ``sorted(...)``, a copy or a slice of a list, or an empty list (an
annotated one, or a bare ``[]`` whose first ``append`` teaches son its kind).

Statements: ``append``, ``insert``, ``extend`` and ``+=`` (of literals, ranges,
arrays, comprehensions, slices and lists), ``*=``, ``pop()``/``pop(i)`` into a local,
``remove``, ``clear``, ``reverse``, ``sort`` (with a ``key=``: a builtin, a lambda,
a math function), item assignment and augmented assignment, slice assignment
(``xs[i:j] = ...``, extended slices too) and ``del xs[i]``, ``del xs[i:j:k]``,
rebinding and aliasing (``l1 = l0``: both names see every change), and ``for``
over a list, ``enumerate``/``zip``/``reversed`` of lists.  Reads and searches are
mostly guarded (``if xs:``, ``if v in xs:``) so that a run usually goes on;
unguarded ones raise IndexError or ValueError now and then, as CPython does.
Expressions: ``xs[i]``, ``len``, ``sum``/``min``/``max``/``any``/``all`` of lists and
of generator expressions over them (or over a ``map``/``filter`` of them; a generator
bound to a name in one statement and reduced in the next), ``in``, ``==`` and the orderings, ``index``,
``count``, ``bool``, ``np.sum(np.array(xs))`` (``dtype=np.int64`` or not),
slices measured, summed or indexed.  A program may return a list, alone or in a
tuple.

About ``ROWS_SHARE`` of the programs with lists also get a list of tuples ``t0``
(positions of kinds int, float and bool, tracked in ``Func.rows``): a literal, an
annotated or a bare ``[]`` then appended, ``list(zip(...))`` of lists or an
``enumerate`` comprehension; then ``append``, ``insert``, ``extend``, ``+=``, ``pop``
(an item of the tuple into a local), item assignment, ``del``, ``reverse``, ``sort``
and ``sorted``, ``for a, b in t0`` (and with ``enumerate``), and reads: ``t0[i][j]``,
``len``, ``in`` and ``==``.

Kinds stay exact: a float list only ever receives float expressions, and no element
may be a local that may be None.  Sizes stay small: inside a loop a list grows by a
bounded amount per iteration (no ``xs + ys``, ``xs * n``, ``extend`` by a whole list
or a comprehension whose size is a product there), and outside loops at most
``GROWTH`` operations multiply a size; a ``for`` over a list counts ``fuel`` (an
``append`` in its body makes it longer).  Float sums are left out where CPython sums
them compensated (``loopgen._FLOAT_SUMS``).

Dead code: son refuses lists merged (and elements of unknown kind) on paths its types
prove dead, so a program with lists has no unconditional ``return``, ``break`` or
``continue`` before other statements and no ``if`` on a constant (the oracle counts a
refusal on a line CPython never reaches as ``refused``: a statement that always raises
still makes such lines).  A comprehension's filter tests its variable against a
parameter (one son folds to False leaves the list's kind a guess).  O(size of the
program).
"""

from __future__ import annotations

from .gradgen import Func, choice, indent
from .loopgen import _FLOAT_SUMS

#: the share of the ordinary programs whose ``f`` has list locals
LIST_SHARE = 0.5
#: operations outside loops that may multiply a list's size (``xs * 2``, ``xs + ys``, ...)
GROWTH = 2
#: the return kinds of a list, by element kind
LIST_RETURNS = {"list_int": "int", "list_float": "float", "list_bool": "bool"}
#: the share of the programs with lists that also get a list of tuples
ROWS_SHARE = 0.35
#: the position kinds of a list of tuples
_ROW_KINDS = [("int", "float"), ("int", "int"), ("float", "bool"), ("int", "float", "int")]
#: the array dtype whose elements are of a kind
_DTYPE = {"int": "int64", "float": "float64"}


class ListPrograms:
    """List locals, statements and expressions (``rng``, ``expr``, ``block``, ``fresh``,
    ``literal`` and ``loop_body`` are the generator's)."""

    growth = 0

    def list_locals(self, fn: Func, body: list[str]) -> list[str]:
        """Maybe give ``f`` list locals (see the module docstring): their lines after
        ``body``; sometimes ``f`` then returns one of them."""
        r = self.rng
        if self.mixed or self.untyped or r.random() > LIST_SHARE:
            return []
        if any(s.startswith("m0 = np.") and "(-1" in s for s in body):
            # son types what follows a certain ValueError as unknown, and refuses such a value
            # in a list: (xs[0] if p else x) is 'an int or a float' there
            return []
        self.growth = GROWTH
        out: list[str] = []
        for i in range(r.choice([1, 1, 2, 3])):
            k = choice(r, [("int", 4), ("float", 3), ("bool", 1)])
            name = f"l{i}"
            x = r.random()
            if x < 0.12:
                out.append(f"{name}: list[{k}] = []")
            elif x < 0.22:  # the kind is learned from the first append
                out += [f"{name} = []", f"{name}.append({self.element(fn, k, 2)})"]
            else:
                out.append(f"{name} = {self.list_expr(fn, k, 2)}")
            fn.lists.append((name, k))
        out += self.row_locals(fn)
        if fn.ret in ("int", "float", "bool") and r.random() < 0.3:
            ret = f"list_{r.choice(fn.lists)[1]}"
            fn.ret = ret if r.random() < 0.6 else (fn.ret, ret)
        return out

    # ------------------------------------------------------------------ values
    def item(self, fn: Func, kind: str, depth: int) -> str:
        """An expression of ``kind`` that reads no local that may be None (son refuses
        None in a list, and in a search of one)."""
        optionals, fn.optionals = fn.optionals, []
        try:
            return self.expr(fn, kind, depth)
        finally:
            fn.optionals = optionals

    def element(self, fn: Func, kind: str, depth: int) -> str:
        """An element for a list of ``kind`` (``min``/``max`` of floats or bools included:
        son types them float or bool, tests/test_lists.py)."""
        return self.item(fn, kind, depth)

    def lists_of(self, fn: Func, kind: str | None = None) -> list[str]:
        return [n for n, k in fn.lists if kind is None or k == kind]

    def list_expr(self, fn: Func, kind: str, depth: int) -> str:
        """A new list of ``kind``; in a loop one whose size is bounded by a constant or
        by the size of a list that exists (so a loop cannot multiply a size)."""
        r = self.rng
        same = self.lists_of(fn, kind)
        arrays = [a for a, d in fn.arrays if d == _DTYPE.get(kind)]
        top = not fn.loops and self.growth > 0
        form = choice(r, [("literal", 3), ("repeat", 2), ("comp", 4), ("range", 1 if kind == "int" else 0),
                          ("array", 1 if arrays else 0), ("sorted", 1), ("copy", 2 if same else 0),
                          ("concat", 1 if same and top else 0), ("cond", 1 if depth > 0 else 0)])
        d = max(depth - 1, 0)
        if form == "literal":
            return f"[{', '.join(self.element(fn, kind, d) for _ in range(r.randint(1, 4)))}]"
        if form == "repeat":
            n = r.choice(["0", "1", "2", "3", "-1", f"({self.item(fn, 'int', 1)} % 4)"])
            v = self.element(fn, kind, d)
            return f"[{v}] * {n}" if r.random() < 0.7 else f"{n} * [{v}]"
        if form == "comp":
            return self.comprehension(fn, kind, depth)
        if form == "range":
            return f"list({self.small_range(fn)})"
        if form == "array":
            return f"list({self.sliced(fn, r.choice(arrays))})"
        if form == "sorted":
            src = r.choice(same) if same and r.random() < 0.7 else self.list_expr(fn, kind, d)
            rev = r.choice(["", "", ", reverse=True", ", reverse=False",
                            f", reverse={self.item(fn, 'bool', 1)}"])
            key = f", key={self.sort_key(kind)}" if r.random() < 0.4 else ""
            return f"sorted({src}{key}{rev})"
        if form == "copy":
            s = r.choice(same)
            return r.choice([f"{s}.copy()", f"list({s})", f"{s}[:]", self.list_slice(fn, s)])
        if form == "concat":
            self.growth -= 1
            s = r.choice(same)
            if r.random() < 0.4:
                return f"{s} * {r.choice(['0', '1', '2', '-1'])}"
            return f"{s} + {r.choice(same) if r.random() < 0.5 else self.list_expr(fn, kind, d)}"
        a, b = self.list_expr(fn, kind, d), self.list_expr(fn, kind, d)
        return f"({a} if {self.item(fn, 'bool', 1)} else {b})"

    def small_range(self, fn: Func) -> str:
        r = self.rng
        if r.random() < 0.3:
            return f"range({self.item(fn, 'int', 1)} % 6)"
        a, b = r.randint(-3, 3), r.randint(-2, 7)
        return r.choice([f"range({max(b, 0)})", f"range({a}, {b})", f"range({b}, {a}, -1)",
                         f"range({a}, {b}, 2)"])

    def list_slice(self, fn: Func, s: str) -> str:
        """``s[i:j:k]``: absent, negative and out-of-range bounds, negative steps."""
        r = self.rng
        b = lambda: r.choice(["", "1", "-1", "2", "-2", "10", "-10", f"{self.item(fn, 'int', 1)} % 4"])  # noqa: E731
        return f"{s}[{b()}:{b()}{r.choice(['', '', ':2', ':-1', ':-2', ':3'])}]"

    def comprehension(self, fn: Func, kind: str, depth: int, bounded: bool = False) -> str:
        """``[e for x in <range, array or list> [for y in range(k)] [if c]]`` (``bounded``:
        not over a list, so its size is bounded by a constant)."""
        r = self.rng
        x = self.fresh(fn, "c")
        src = r.random()
        arrays = fn.arrays
        if src < 0.3 and fn.lists and not bounded:
            name, k = r.choice(fn.lists)
            it, k = self.iterated(name, k, depth)
            clauses, bound, bounded = [f"for {x} in {it}"], [(x, k)], False
        elif src < 0.5 and arrays:
            a, dt = r.choice(arrays)
            it, k = self.iterated(self.sliced(fn, a), self._element(dt), depth)
            clauses, bound, bounded = [f"for {x} in {it}"], [(x, k)], True
        else:
            it, k = self.iterated(self.small_range(fn), "int", depth)
            clauses, bound, bounded = [f"for {x} in {it}"], [(x, k)], True
        if r.random() < 0.15 and (bounded or (not fn.loops and self.growth > 0)):
            if not bounded:
                self.growth -= 1
            y = self.fresh(fn, "c")
            clauses.append(f"for {y} in range({r.randint(0, 3)})")
            bound.append((y, "int"))
        for v, k in bound:
            fn.vars[k].append(v)
        elt = self.element(fn, kind, max(depth - 1, 1))
        if r.random() < 0.4 and (cond := self.condition(fn, *bound[0])):
            clauses.append(f"if {cond}")
        for v, k in bound:
            fn.vars[k].remove(v)
        return f"[{elt} {' '.join(clauses)}]"

    def iterated(self, src: str, k: str, depth: int) -> tuple[str, str]:
        """What a ``for`` clause iterates: ``src`` (items of kind ``k``), or now and then a
        ``map`` of a lambda or a ``filter`` over it (son's ``Functions.as_generator``), and
        the kind of its items.  Both keep a bounded source bounded."""
        r = self.rng
        x = r.random()
        if x < 0.1:
            out = k if k != "bool" and r.random() < 0.6 else r.choice(["int", "float"])
            return f"map({self.lambda_of(out, [k], depth)}, {src})", out
        if x < 0.18:
            test = "None" if r.random() < 0.4 else self.lambda_of("bool", [k], depth)
            return f"filter({test}, {src})", k
        return src, k

    def condition(self, fn: Func, x: str, k: str) -> str | None:
        """A comprehension's filter: ``x`` (of kind ``k``) tested against a parameter of
        ``f`` (None: there is none).  A filter son's peephole folds to False (a constant,
        or ``c > 5`` for ``c`` in ``range(3)``) leaves the element unparsed and the list's
        kind a guess (float), which son then refuses to merge with an int list."""
        r = self.rng
        params = [v for v in fn.vars[k] if v[0] in "nxp" and v[1:].isdigit()]
        if not params:
            return None
        p = r.choice(params)
        if k == "bool":
            return r.choice([f"{x} != {p}", f"{x} == {p}", f"{x} or {p}", f"{p} and not {x}"])
        return f"{x} {r.choice(['<', '<=', '>', '>=', '==', '!='])} {p}"

    def list_value(self, fn: Func, kind: str, depth: int) -> str:
        """A list returned by ``f``: mostly one of its list locals."""
        same = self.lists_of(fn, kind)
        if same and self.rng.random() < 0.7:
            return self.rng.choice(same)
        return self.list_expr(fn, kind, depth)

    def list_index(self, fn: Func, s: str) -> tuple[str, str | None]:
        """An index into list ``s`` and the condition under which it is in range (None:
        it may raise IndexError)."""
        r = self.rng
        x = r.random()
        loopvars = [v for v in fn.vars["int"] if v.startswith("i")]
        if x < 0.35:
            return f"{self.item(fn, 'int', 1)} % len({s})", s
        if x < 0.6:
            j = r.choice([0, -1, 1, -2, 2])
            return str(j), (s if j in (0, -1) else f"len({s}) > {j}" if j > 0 else f"len({s}) >= {-j}")
        if x < 0.75 and loopvars:
            iv = r.choice(loopvars)
            return iv, f"-len({s}) <= {iv} < len({s})"
        if x < 0.9:
            return r.choice([f"len({s}) - 1", f"-len({s})"]), s
        return self.item(fn, "int", 1), None

    def guarded(self, cond: str | None, lines: list[str]) -> list[str]:
        """``lines`` under ``if cond:`` (mostly: now and then they may raise)."""
        if cond is None or self.rng.random() < 0.12:
            return lines
        return [f"if {cond}:"] + indent(lines)

    # ------------------------------------------------------------------ expressions
    def list_scalar(self, fn: Func, kind: str, depth: int) -> str | None:
        """An expression of ``kind`` that reads a list (None: none fits)."""
        r = self.rng
        name, k = r.choice(fn.lists)
        form = choice(r, [("read", 4 if k == kind else 0), ("len", 3 if kind == "int" else 0),
                          ("reduce", 3), ("search", 2 if kind != "float" else 0),
                          ("slice", 1 if kind == "int" else 0), ("gen", 2),
                          ("compare", 2 if kind == "bool" else 0), ("array", 1 if kind != "bool" else 0)])
        if form == "array":  # an empty list of ints without dtype=: numpy's float64, refused at run time
            dtype = ", dtype=np.int64" if k != "float" and r.random() < 0.6 else ""
            total = f"np.sum(np.{r.choice(['array', 'asarray'])}({name}{dtype}))"
            return total if (kind == "float") == (k == "float") else f"{kind}({total})"
        if form == "read":
            i, cond = self.list_index(fn, name)
            if cond is None or r.random() < 0.15:
                return f"{name}[{i}]"
            return f"({name}[{i}] if {cond} else {self.item(fn, kind, 1)})"
        if form == "len":
            return f"len({name})"
        if form == "slice":
            s = self.list_slice(fn, name)
            return r.choice([f"len({s})", f"len({s})"] + ([f"sum({s})"] if k != "float" else []))
        if form == "search":
            v = self.element(fn, k, 1)
            if kind == "bool":
                return f"({v} {r.choice(['in', 'not in'])} {name})"
            if r.random() < 0.5:
                return f"{name}.count({v})"
            if r.random() < 0.15:
                return f"{name}.index({v})"  # a ValueError now and then
            return f"({name}.index({v}) if {v} in {name} else -1)"
        if form == "compare":
            other = self.lists_of(fn, k)
            rhs = r.choice(other) if r.random() < 0.5 else self.list_expr(fn, k, 0)
            op = r.choice(['==', '!=', '<', '<=', '>', '>='])
            return r.choice([f"({name} {op} {rhs})", f"bool({name})", f"(not {name})"])
        if form == "gen":
            return self.list_reduction(fn, kind, depth, self.list_generator(fn, name, k, kind, depth))
        return self.list_reduction(fn, kind, depth, name, k)

    def list_generator(self, fn: Func, name: str, k: str, kind: str, depth: int) -> str:
        """``(e for x in <list, enumerate or reversed of it> [for y in range(n)] [if c])``
        with an element of ``kind`` for sum/min/max, of bool for any/all."""
        r = self.rng
        x = self.fresh(fn, "g")
        bound = [(x, k)]
        form = r.random()
        if form < 0.2:
            i = self.fresh(fn, "i")
            clauses = [f"for {i}, {x} in enumerate({name})"]
            bound.append((i, "int"))
        elif form < 0.3:
            clauses = [f"for {x} in reversed({name})"]
        else:
            it, k = self.iterated(name, k, depth)
            bound = [(x, k)]
            clauses = [f"for {x} in {it}"]
        if r.random() < 0.1:
            y = self.fresh(fn, "g")
            clauses.append(f"for {y} in range({r.randint(1, 3)})")
            bound.append((y, "int"))
        for v, kk in bound:
            fn.vars[kk].append(v)
        elt = self.item(fn, kind, max(depth - 1, 1))
        if r.random() < 0.35 and (cond := self.condition(fn, x, k)):
            clauses.append(f"if {cond}")
        for v, kk in bound:
            fn.vars[kk].remove(v)
        return f"({elt} {' '.join(clauses)})"

    def list_reduction(self, fn: Func, kind: str, depth: int, src: str, k: str | None = None) -> str:
        """sum/min/max (of ``kind``) or any/all (bool) of a list or a generator expression
        (``k``: the element kind of a list, None for a generator of ``kind``)."""
        r = self.rng
        k = kind if k is None else k
        if kind == "bool":
            if k == "bool" and r.random() < 0.3:
                return f"{r.choice(['min', 'max'])}({src}, default={self.item(fn, 'bool', 1)})"
            return f"{r.choice(['any', 'all'])}({src})"
        if k != kind and not (kind == "int" and k == "bool"):  # sum of bools is an int
            if kind == "float" and k == "int":
                return f"float(sum({src}))"
            return f"len({src})" if kind == "int" and not src.startswith("(") else None
        sums = kind == "int" or _FLOAT_SUMS
        name = choice(r, [("sum", 3 if sums else 0), ("min", 2 if k == kind else 0),
                          ("max", 2 if k == kind else 0)])
        if name == "sum":
            start = "0.0" if kind == "float" else r.choice(["", "", self.item(fn, "int", 1)])
            return f"sum({src}{', ' + start if start else ''})"
        extra = f", default={self.item(fn, kind, 1)}" if r.random() < 0.6 else ""
        return f"{name}({src}{extra})"

    # ------------------------------------------------------------------ statements
    def list_source(self, fn: Func, kind: str) -> str:
        """What ``extend`` and ``+=`` take: bounded inside a loop (see the module
        docstring), any list of ``kind`` outside."""
        r = self.rng
        same = self.lists_of(fn, kind)
        arrays = [a for a, d in fn.arrays if d == _DTYPE.get(kind)]
        x = r.random()
        if same and not fn.loops and self.growth > 0 and x < 0.3:
            self.growth -= 1
            return r.choice(same)
        if same and x < 0.5:
            return f"{r.choice(same)}[{r.choice([':2', '-2:', ':3', '1:3', ':1'])}]"
        if kind == "int" and x < 0.6:
            return self.small_range(fn)
        if arrays and x < 0.7:
            return r.choice(arrays)
        if x < 0.85:
            return self.comprehension(fn, kind, 1, bounded=True)
        return f"[{', '.join(self.element(fn, kind, 1) for _ in range(r.randint(1, 3)))}]"

    def list_stmt(self, fn: Func, depth: int, ed: int) -> list[str]:
        """A statement on a list local."""
        r = self.rng
        if fn.rows and r.random() < 0.3:
            return self.row_stmt(fn, depth, ed)
        name, k = r.choice(fn.lists)
        top = not fn.loops
        form = choice(r, [("append", 5), ("insert", 2), ("extend", 2), ("iadd", 1),
                          ("imul", 1 if top and self.growth > 0 else 0), ("pop", 3), ("remove", 1),
                          ("clear", 1), ("reverse", 1), ("sort", 1), ("set", 3), ("aug", 2),
                          ("del", 1), ("rebind", 2), ("alias", 1), ("for", 4 if depth > 0 else 0),
                          ("read", 2), ("keysort", 1), ("setslice", 2), ("delslice", 1)])
        if form == "keysort":
            rev = r.choice(["", ", reverse=True", f", reverse={self.item(fn, 'bool', 1)}"])
            return [f"{name}.sort(key={self.sort_key(k)}{rev})"]
        if form == "setslice":
            return [f"{name}[{self.slice_text(name)}] = {self.slice_value(fn, name, k)}"]
        if form == "delslice":
            return [f"del {name}[{self.slice_text(name)}]"]
        if form == "append":
            return [f"{name}.append({self.element(fn, k, ed)})"]
        if form == "insert":
            i = r.choice(["0", "-1", f"len({name})", "100", "-100", self.item(fn, "int", 1)])
            return [f"{name}.insert({i}, {self.element(fn, k, ed)})"]
        if form == "extend":
            return [f"{name}.extend({self.list_source(fn, k)})"]
        if form == "iadd":
            return [f"{name} += {self.list_source(fn, k)}"]
        if form == "imul":
            self.growth -= 1
            return [f"{name} *= {r.choice(['0', '1', '2', '-1'])}"]
        if form == "pop":
            targets = [v for v in fn.mutable if self.kind_of(fn, v) == k]
            i, cond = self.list_index(fn, name) if r.random() < 0.4 else ("", name)
            call = f"{name}.pop({i})"
            return self.guarded(cond, [f"{r.choice(targets)} = {call}" if targets else call])
        if form == "remove":
            v = self.element(fn, k, 1)
            return self.guarded(f"{v} in {name}", [f"{name}.remove({v})"])
        if form == "clear":
            return [f"{name}.clear()"] if r.random() < 0.3 else [f"{name}.reverse()"]
        if form == "reverse":
            return [f"{name}.reverse()"]
        if form == "sort":
            return [r.choice([f"{name}.sort()", f"{name}.sort(reverse=True)",
                              f"{name}.sort(reverse={self.item(fn, 'bool', 1)})"])]
        if form in ("set", "aug", "del"):
            i, cond = self.list_index(fn, name)
            if form == "del":
                line = f"del {name}[{i}]"
            elif form == "aug" and k != "bool":
                ops = ["+", "-", "*"] + (["//", "%"] if k == "int" else ["/"])
                line = f"{name}[{i}] {r.choice(ops)}= {self.element(fn, k, ed)}"
            elif form == "aug":
                line = f"{name}[{i}] = not {name}[{i}]"
            else:
                line = f"{name}[{i}] = {self.element(fn, k, ed)}"
            return self.guarded(cond, [line])
        if form == "alias":
            others = [n for n in self.lists_of(fn, k) if n != name]
            if others:
                return [f"{r.choice(others)} = {name}"]
        if form == "for":
            return self.list_for(fn, depth, name, k)
        if form == "read":
            targets = [v for v in fn.mutable if self.kind_of(fn, v) in ("int", "float", "bool")]
            if targets:
                v = r.choice(targets)
                kind = self.kind_of(fn, v)
                if r.random() < 0.2:  # a generator bound to a name, consumed by the next statement
                    gen = self.fresh(fn, "gen")
                    total = self.list_reduction(fn, kind, ed, gen)
                    return [f"{gen} = {self.list_generator(fn, name, k, kind, ed)}", f"{v} = {total}"]
                return [f"{v} = {self.list_scalar(fn, kind, ed) or self.item(fn, 'int', 1)}"]
        return [f"{name} = {self.list_expr(fn, k, ed)}"]

    # ------------------------------------------------------------------ lists of tuples
    def row(self, fn: Func, kinds: tuple, depth: int) -> str:
        """A tuple of ``kinds``."""
        return "(" + ", ".join(self.element(fn, k, depth) for k in kinds) + ")"

    def row_locals(self, fn: Func) -> list[str]:
        """Maybe a list of tuples ``t0`` (see the module docstring)."""
        r = self.rng
        if r.random() > ROWS_SHARE:
            return []
        kinds = r.choice(_ROW_KINDS)
        name, x = "t0", r.random()
        cols = [self.lists_of(fn, k) for k in kinds]
        if x < 0.2:
            out = [f"{name}: list[tuple[{', '.join(kinds)}]] = []"]
        elif x < 0.35:
            out = [f"{name} = []", f"{name}.append({self.row(fn, kinds, 2)})"]
        elif x < 0.55 and all(cols):
            out = [f"{name} = list(zip({', '.join(r.choice(c) for c in cols)}))"]
        elif x < 0.7 and kinds[0] == "int" and len(kinds) == 2 and cols[1]:
            out = [f"{name} = [(i, v) for i, v in enumerate({r.choice(cols[1])})]"]
        else:
            out = [f"{name} = [{', '.join(self.row(fn, kinds, 1) for _ in range(r.randint(1, 3)))}]"]
        fn.rows.append((name, kinds))
        return out

    def row_stmt(self, fn: Func, depth: int, ed: int) -> list[str]:
        """A statement on a list of tuples."""
        r = self.rng
        name, kinds = r.choice(fn.rows)
        form = choice(r, [("append", 5), ("insert", 2), ("extend", 1), ("pop", 2), ("set", 2), ("del", 1),
                          ("reverse", 1), ("sort", 2), ("for", 3 if depth > 0 else 0), ("read", 4)])
        if form == "append":
            return [f"{name}.append({self.row(fn, kinds, ed)})"]
        if form == "insert":
            i = r.choice(["0", "-1", f"len({name})", "100", "-100", self.item(fn, "int", 1)])
            return [f"{name}.insert({i}, {self.row(fn, kinds, ed)})"]
        if form == "extend":
            rows = ", ".join(self.row(fn, kinds, 1) for _ in range(r.randint(0, 2)))
            return [r.choice([f"{name}.extend([{rows}])", f"{name} += [{rows}]"])]
        if form == "reverse":
            return [f"{name}.reverse()"]
        if form == "sort":
            return [r.choice([f"{name}.sort()", f"{name}.sort(reverse=True)", f"{name} = sorted({name})",
                              f"{name}.sort(reverse={self.item(fn, 'bool', 1)})"])]
        if form in ("pop", "set", "del"):
            i, cond = self.list_index(fn, name) if form != "pop" or r.random() < 0.4 else ("", name)
            if form == "set":
                return self.guarded(cond, [f"{name}[{i}] = {self.row(fn, kinds, ed)}"])
            if form == "del":
                if r.random() < 0.3:  # one slice out of every position
                    return [f"del {name}[{self.slice_text(name)}]"]
                return self.guarded(cond, [f"del {name}[{i}]"])
            j = r.randrange(len(kinds))
            targets = [v for v in fn.mutable if self.kind_of(fn, v) == kinds[j]]
            call = f"{name}.pop({i})"
            return self.guarded(cond, [f"{r.choice(targets)} = {call}[{j}]" if targets else call])
        if form == "for":
            xs = [self.fresh(fn, "el") for _ in kinds]
            bound = list(zip(xs, kinds))
            if r.random() < 0.3:
                i = self.fresh(fn, "i")
                head = f"for {i}, ({', '.join(xs)}) in enumerate({name}):"
                bound.append((i, "int"))
            else:
                head = f"for {', '.join(xs)} in {r.choice([name, f'reversed({name})'])}:"
            return self.loop_body(fn, depth, None, [head], fuel=True, bound=tuple(bound))
        targets = [v for v in fn.mutable if self.kind_of(fn, v) in ("int", "float", "bool")]
        if not targets:
            return [f"{name}.append({self.row(fn, kinds, ed)})"]
        v = r.choice(targets)
        k = self.kind_of(fn, v)
        if k in kinds and r.random() < 0.2:  # the best tuple by one position
            j = r.choice([n for n, x in enumerate(kinds) if x == k])
            best = f"{r.choice(['min', 'max'])}({name}, key=lambda t: t[{r.randrange(len(kinds))}]"
            return [f"{v} = {best}, default={self.row(fn, kinds, 1)})[{j}]"]
        if k in kinds and r.random() < 0.6:
            i, cond = self.list_index(fn, name)
            j = r.choice([n for n, x in enumerate(kinds) if x == k])
            return self.guarded(cond, [f"{v} = {name}[{i}][{j}]"])
        if k == "int":
            return [f"{v} = len({name})"]
        if k == "bool":
            return [f"{v} = " + r.choice([f"{self.row(fn, kinds, 1)} in {name}", f"{name} == {name}[::-1]",
                                          f"bool({name})"])]
        return [f"{name}.append({self.row(fn, kinds, ed)})"]

    def sort_key(self, k: str) -> str:
        """A key function for a list of kind ``k``: a builtin, a lambda or a math function."""
        return self.rng.choice({"int": ["abs", "lambda v: v % 3", "lambda v: -v", "float"],
                                "float": ["abs", "lambda v: -v", "lambda v: v * v", "math.floor", "int"],
                                "bool": ["lambda v: not v", "int", "abs"]}[k])

    def slice_text(self, name: str) -> str:
        """The bounds of a slice of list ``name``: plain (any lengths) or extended."""
        r = self.rng
        b = ["", "", "0", "1", "-1", "2", "-2", f"len({name})", "100"]
        if r.random() < 0.7:
            return f"{r.choice(b)}:{r.choice(b)}"
        return f"{r.choice(b)}:{r.choice(b)}:{r.choice(['2', '-1', '-2', '3', '1'])}"

    def slice_value(self, fn: Func, name: str, k: str) -> str:
        """What a slice of ``name`` is given: a few elements, a slice or copy of a list of
        its kind, or the list itself (bounded growth per statement)."""
        r = self.rng
        x = r.random()
        if x < 0.5:
            return f"[{', '.join(self.element(fn, k, 1) for _ in range(r.randint(0, 3)))}]"
        if x < 0.8:
            return f"{r.choice(self.lists_of(fn, k))}[{r.choice([':2', '::-1', '1:3', ':'])}]"
        return name if not fn.loops else f"{name}[:2]"

    def list_for(self, fn: Func, depth: int, name: str, k: str) -> list[str]:
        """``for`` over a list, ``enumerate``/``reversed`` of one, ``zip`` of it with a list,
        an array or a range, an iterator of one; fuel counted (the body may lengthen the list)."""
        r = self.rng
        x = self.fresh(fn, "el")
        form = r.choice(["plain", "plain", "enumerate", "zip", "reversed", "iterator"])
        if form == "iterator":
            return self.iterator_for(fn, depth, name, k, fuel=True)
        if form == "enumerate":
            i = self.fresh(fn, "i")
            start = r.choice(["", ", 1", ", -2"])
            head, bound = f"for {i}, {x} in enumerate({name}{start}):", [(i, "int"), (x, k)]
        elif form == "zip":
            y = self.fresh(fn, "el")
            pick = r.random()
            if pick < 0.5:
                other, k2 = r.choice(fn.lists)
            elif pick < 0.7 and fn.arrays:
                other, dt = r.choice(fn.arrays)
                k2 = self._element(dt)
            else:
                other, k2 = self.small_range(fn), "int"
            head, bound = f"for {x}, {y} in zip({name}, {other}):", [(x, k), (y, k2)]
        elif form == "reversed":
            head, bound = f"for {x} in reversed({name}):", [(x, k)]
        else:
            head, bound = f"for {x} in {name}:", [(x, k)]
        return self.loop_body(fn, depth, None, [head], fuel=True, bound=tuple(bound))
