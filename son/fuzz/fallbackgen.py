"""The generator's fallback regions (a mixin of ``son.fuzz.generator._Gen``): statements
son cannot express, which ``son.parse(..., fallback="region")`` makes ``PyRegion`` nodes
that CPython runs (issue 23, son/frontend/regions.py).

About ``REGION_SHARE`` of the ordinary programs (drawn from the seed and index by a
stream of their own; never the mixed-kind, unannotated or recursive ones, nor gradient
programs, and only in ``f``: a helper's statements are never regions) get them.  Such a
program declares itself with a module line ``SON_FALLBACK = "region"`` (the oracle then
parses it with fallback regions and compares printed output, the exception's message
and the module's globals too: son.fuzz.regioncheck), a global call counter ``CALLS``
and an exception class ``FuzzError``.  The first statement of ``f``'s body is a region
that sets up what the others use: ``global CALLS`` and ``CALLS += 1``; the dicts
``seen`` (int keys -> counts) and ``last`` (int keys -> int values) and the string
``tag``, which live only in regions (son keeps them in the call's frame); and the
live-outs ``cnt_py`` (int), ``len_py`` (int) and ``quo_py`` (float), typed by the syntax of
their first value, which the rest of ``f`` reads as ordinary locals.  Later regions,
anywhere in ``f`` (in loops and branches too):

* ``print`` of live values, of f-strings (``{x:.3f}``), of ``tag``;
* dict bookkeeping: ``seen[k] = seen.get(k, 0) + 1``, ``last[k] = v``,
  ``cnt_py = seen.get(k, 0)``, ``cnt_py: int = last.get(k, -1)``, ``cnt_py = len(seen)``;
  ``pyv = last.get(k, x)`` on one arm of an ``if`` whose other arm is compiled code (the
  kind of ``pyv`` is unknown, so every statement binding it runs with CPython);
* ``try: quo_py = a / b except ZeroDivisionError: quo_py = <literal>`` (sometimes ``finally``;
  in a loop, sometimes a count bumped first and a handler that ends in ``continue`` or
  ``break``, whose variables the loop goes on with, as a ``finally`` on the way out
  leaves them);
* strings built and measured: ``tag = tag + str(x)``, ``len_py = len(str(x))``;
* ``raise FuzzError(f"...")`` under a compiled condition; ``assert`` with an f-string;
* ``CALLS += 1`` and ``cnt_py: int = CALLS``;
* ``return len(tag)`` (or ``float(...)``, a comparison) under a condition, when ``f``
  returns a scalar: a region that ends the function;
* a list of ``f``'s changed in place (``append``, ``insert``, ``pop``, ``sort``,
  ``reverse``, ``+=``, an item assigned or deleted), sometimes in a ``try`` or followed
  by a ``raise`` (son gives a region a copy of the list and its items back after it,
  also when it raises);
* a view or an n-D array of one of ``f``'s arrays (``vw1 = a[1::2]``,
  ``vw1 = a.reshape(1, -1).T``, compiled) printed or written into by a region
  (``np.copyto(vw1, vw1[::-1].copy())``, ``vw1 += 1``), which compiled code then reads
  through the array.

Region code reads only names and literals and does no int arithmetic but ``+ 1`` on
counts, so CPython runs it exactly as the oracle's instrumented copy does (son's int64
wrap-around and its other documented deviations never arise in it).  A share
``REFUSE_SHARE`` of the regions are ones son must refuse with a located
``SonSyntaxError`` (a value that may be None printed; a live-out whose kind nothing
tells, ``u = seen.get(k, 0)`` read by compiled code): the oracle counts those programs as
refusals.  Tuples, complex numbers and lists of numbers printed cross into regions (son
passes tuples' leaves, a copy of a list).  O(size of the program).
"""

from __future__ import annotations

from .gradgen import Func, choice

#: the share of the ordinary programs that get fallback regions (about 15% have them: the
#: mixed-kind, unannotated and recursive ones never do)
REGION_SHARE = 0.2
#: the share of later regions that son must refuse (a located error)
REFUSE_SHARE = 0.04
#: the module lines of a program with regions (before ``f``)
HEADER = 'SON_FALLBACK = "region"\nCALLS = 0\n\n\nclass FuzzError(Exception):\n    pass\n\n\n'
#: the live-outs the first region sets up: name -> (kind, first value)
LIVE_OUTS = {"cnt_py": ("int", "len(seen)"), "len_py": ("int", "len(tag)"),
             "quo_py": ("float", "float(len(last))")}


class FallbackPrograms:
    """Fallback regions (``rng``, ``expr``, ``kind_of`` and ``block`` are the generator's)."""

    #: set by ``generate``: this program's ``f`` may have fallback regions
    fallback = False
    #: the regions written so far (the first one sets up the others' names)
    regions = 0

    def regions_on(self, fn: Func) -> bool:
        return self.fallback and not (self.mixed or self.untyped or self.recursive)

    def region_weight(self, fn: Func) -> int:
        """The weight of a region among ``stmt``'s choices (the first statement of ``f``
        is always the set-up region)."""
        if not self.regions_on(fn):
            return 0
        return 10 ** 6 if self.regions == 0 else 3

    def fallback_header(self) -> str:
        """The module lines a program with regions needs (empty for the others)."""
        return HEADER if self.regions else ""

    # ------------------------------------------------------------------ statements
    def region_stmt(self, fn: Func, depth: int) -> list[str]:
        self.regions += 1
        if self.regions == 1:
            return self.setup_region(fn)
        r = self.rng
        if r.random() < REFUSE_SHARE:
            refused = self.refused_region(fn)
            if refused:
                return refused
        kind = choice(r, [("print", 5), ("dict", 5), ("try", 4), ("string", 3), ("raise", 2), ("assert", 2),
                          ("global", 2), ("return", 1 if fn.ret in ("int", "float", "bool") else 0),
                          ("view", 6 if fn.arrays else 0), ("list", 5 if fn.lists else 0)])
        return getattr(self, f"region_{kind}")(fn)

    def setup_region(self, fn: Func) -> list[str]:
        r = self.rng
        out = ["global CALLS", "CALLS += 1", "seen = {}", "last = {}"]
        out.append(f"tag = {self.rg_fstring(fn)}" if r.random() < 0.7 else 'tag = ""')
        for name, (_kind, value) in LIVE_OUTS.items():
            out.append(f"{name} = {value}")
        if r.random() < 0.5:
            out.append(self.rg_print_line(fn))
        for name, (kind, _) in LIVE_OUTS.items():
            fn.vars[kind].append(name)
            fn.mutable.append(name)
        return out

    def rg_names(self, fn: Func, kinds=("int", "float", "bool")) -> list[str]:
        return [v for k in kinds for v in fn.vars[k]]

    def rg_pick(self, fn: Func, kinds=("int", "float", "bool")) -> str:
        vs = self.rg_names(fn, kinds)
        if not vs:
            return {"int": "3", "float": "0.5", "bool": "True"}[self.rng.choice(kinds)]
        return self.rng.choice(vs)

    def rg_fstring(self, fn: Func) -> str:
        r = self.rng
        parts = []
        for _ in range(r.randint(1, 3)):
            v = self.rg_pick(fn)
            spec = r.choice(["", "", ":.3f", ":g", ":>8"]) if self.rg_kind(fn, v) == "float" else ""
            parts.append(f"{v}={{{v}{spec}}}")
        return 'f"' + " ".join(parts) + '"'

    def rg_kind(self, fn: Func, v: str) -> str | None:
        return next((k for k, vs in fn.vars.items() if v in vs), None)

    def rg_print_line(self, fn: Func) -> str:
        r = self.rng
        x = r.random()
        if x < 0.35:
            return f"print({self.rg_fstring(fn)})"
        if x < 0.5:
            return r.choice(["print(tag)", "print(len(seen), len(last), sep=':')", "print('calls', CALLS)"])
        if x < 0.6 and fn.arrays:
            return f"print({r.choice(fn.arrays)[0]})"
        vs = [self.rg_pick(fn) for _ in range(r.randint(1, 3))]
        return f"print({r.choice(['', repr(r.choice(['at', 'i', 'x=']))  + ', '])}{', '.join(vs)})"

    def region_print(self, fn: Func) -> list[str]:
        return [self.rg_print_line(fn) for _ in range(self.rng.choice([1, 1, 2]))]

    def region_dict(self, fn: Func) -> list[str]:
        r = self.rng
        k = self.rg_pick(fn, ("int", "bool"))
        if r.random() < 0.12:  # a value of a kind son cannot tell on one path, compiled on the other:
            x = self.rg_pick(fn, ("float",))  # all of pyv's bindings run with CPython (its frame)
            return [f"if {k}:", f"    pyv = {x}", "else:", f"    pyv = last.get({k}, {x})",
                    "quo_py = float(pyv) + quo_py"]
        x = r.random()
        if x < 0.35:
            return [f"seen[{k}] = seen.get({k}, 0) + 1"]
        if x < 0.55:
            return [f"last[{k}] = {self.rg_pick(fn, ('int',))}"]
        if x < 0.75:
            return [f"cnt_py = seen.get({k}, 0)"]
        if x < 0.9:
            return [f"cnt_py: int = last.get({k}, {r.choice(['-1', '0', '7'])})"]
        return [r.choice(["cnt_py = len(seen)", "cnt_py = len(last) + len(seen)"])]

    def region_try(self, fn: Func) -> list[str]:
        r = self.rng
        a, b = self.rg_pick(fn, ("int", "float")), self.rg_pick(fn, ("int", "float"))
        if r.random() < 0.2:
            b = r.choice(["0", "0.0"])
        op = "/" if r.random() < 0.8 or "float" not in (self.rg_kind(fn, a), self.rg_kind(fn, b)) \
            else "%"
        exc = r.choice(["ZeroDivisionError", "ZeroDivisionError", "(ZeroDivisionError, OverflowError)",
                        "ArithmeticError"])
        out = ["try:", f"    quo_py = {a} {op} {b}", f"except {exc}:",
               f"    quo_py = {r.choice(['-1.0', '0.0', 'math.inf'])}"]
        if fn.loops and r.random() < 0.3:  # the handler leaves the round: the loop goes on with
            # the variables as the region left them (a count bumped before the fault)
            leave = f"    {r.choice(['continue', 'break'])}"
            if r.random() < 0.5:  # the handler runs
                out[1] = f"    quo_py = {a} {op} 0"
            out = out[:1] + ["    cnt_py = cnt_py + 1"] + out[1:] + [leave]
            if r.random() < 0.4:  # a finally on the way out changes what the loop goes on with
                out += ["finally:", "    cnt_py = cnt_py * 3 + 1"]
            return out
        if r.random() < 0.2:
            out += ["finally:", "    seen[-1] = seen.get(-1, 0) + 1"]
        return out

    def region_string(self, fn: Func) -> list[str]:
        r = self.rng
        x = r.random()
        if x < 0.35:
            return [f"len_py = len(str({self.rg_pick(fn)}))"]
        if x < 0.6:
            return [f"tag = tag + str({self.rg_pick(fn)})", "len_py = len(tag)"]
        if x < 0.8:
            return [f"len_py = len({self.rg_fstring(fn)})"]
        return [f"tag = {self.rg_fstring(fn)}"]

    def rg_condition(self, fn: Func) -> str:
        ints = self.rg_names(fn, ("int",))
        if ints and self.rng.random() < 0.7:
            return f"{self.rng.choice(ints)} == {self.rng.choice(['0', '1', '3', '-1', '7'])}"
        return self.expr(fn, "bool", 1)

    def region_raise(self, fn: Func) -> list[str]:
        return [f"if {self.rg_condition(fn)}:", f"    raise FuzzError({self.rg_fstring(fn)})"]

    def region_assert(self, fn: Func) -> list[str]:
        ints = self.rg_names(fn, ("int",))
        cond = f"{self.rng.choice(ints)} != {self.rng.choice(['0', '3', '-1'])}" if ints else "CALLS < 5"
        return [f"assert {cond}, {self.rg_fstring(fn)}"]

    def region_global(self, fn: Func) -> list[str]:
        return ["CALLS += 1"] + (["cnt_py: int = CALLS"] if self.rng.random() < 0.5 else [])

    def region_return(self, fn: Func) -> list[str]:
        value = {"int": self.rng.choice(["len(tag)", "len(seen)", f"len(str({self.rg_pick(fn)}))"]),
                 "float": f"float(len(tag) + {self.rng.choice(['0', '1', 'len(last)'])})",
                 "bool": self.rng.choice(["len(seen) > 0", "tag == ''", "CALLS > 1"])}[fn.ret]
        return [f"if {self.rg_condition(fn)}:", f"    return {value}"]

    def region_view(self, fn: Func) -> list[str]:
        """A view or n-D array of an array, made by compiled code, used in a region."""
        r = self.rng
        a, dt = r.choice(fn.arrays)
        fn.fresh += 1
        v = f"vw{fn.fresh}"
        made = r.choice([f"{a}[1::2]", f"{a}[::-1]", f"{a}[:-1]", f"{a}[2:]", f"{a}[::3]",
                         f"{a}.reshape(-1, 1)", f"{a}.reshape(1, -1)", f"{a}.reshape(1, -1).T"])
        uses = [f"print({v}, {v}.shape)", f"np.copyto({v}, {v}[::-1].copy())", f"{v}[...] = {v}[::-1]"]
        if dt != "bool":
            uses.append(f"{v} += {'1' if dt == 'int64' else '0.5'}")
        return [f"{v} = {made}", r.choice(uses)]

    def region_list(self, fn: Func) -> list[str]:
        """A region that changes one of ``f``'s lists in place (son gives it a copy and
        its items back after), sometimes raising once it has."""
        r = self.rng
        xs, k = r.choice(fn.lists)
        optionals = {o for o, _ in fn.optionals}
        values = [v for v in fn.vars[k] if v not in optionals]
        v = r.choice(values) if values and r.random() < 0.7 else {"int": "-3", "float": "0.25",
                                                                   "bool": "False"}[k]
        change = r.choice([[f"{xs}.append({v})"], [f"{xs}.insert({r.choice(['0', '-1', '2'])}, {v})"],
                           [f"if {xs}:", f"    {xs}.pop()"], [f"{xs}.sort()"], [f"{xs}.reverse()"],
                           [f"{xs} += [{v}]"], [f"if {xs}:", f"    {xs}[-1] = {v}"],
                           [f"if len({xs}) > 1:", f"    del {xs}[0]"], [f"{xs}.sort(reverse=True)"]])
        x = r.random()
        if x < 0.2:  # changed, then maybe an exception out of the region
            return change + [f"if {self.rg_condition(fn)}:", f"    raise FuzzError(f'{{len({xs})}}')"]
        if x < 0.35:  # changed, then maybe an exception caught in the region
            return (["try:"] + ["    " + c for c in change]
                    + [f"    if {self.rg_condition(fn)}:", "        raise FuzzError('x')",
                       "except FuzzError:", f"    {xs}.append({v})"])
        if x < 0.5:
            return change + [f"print({xs})"]
        return change

    def refused_region(self, fn: Func) -> list[str] | None:
        """A region son must refuse with a located error, or None."""
        r = self.rng
        others = [t for t, _ in fn.pairs] + [o for o, _ in fn.optionals] + fn.complexes + \
            [v for v, _ in fn.lists]
        if others and r.random() < 0.5:  # an optional cannot cross (a tuple, complex, list of numbers can)
            return [f"print({r.choice(others)})"]
        targets = [v for v in fn.mutable if self.rg_kind(fn, v) == "int" and v not in LIVE_OUTS]
        if not targets:
            return None
        fn.fresh += 1
        u = f"unk{fn.fresh}"
        # its kind: no annotation, no kind before, the syntax of .get says nothing
        return [f"{u} = seen.get({self.rg_pick(fn, ('int',))}, 0)", f"{r.choice(targets)} = {u}"]
