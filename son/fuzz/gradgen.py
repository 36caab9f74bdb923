"""The fuzz generator's gradient programs (``GradPrograms``, a mixin of its generator)
and the small pieces both kinds of program share: a function's scope while it is
written (``Func``), weighted choice and indentation.

A gradient program is a float function of a few float parameters (and maybe an int
count and a bool) built from *shapes*: an accumulator round a loop whose trip count
may depend on the input, two coupled accumulators, a value that may become infinite,
a comparison that picks between expressions, a branch, a math call, a float list
changed in a loop by index writes and methods and reduced, and (in a share of the
programs drawn as ``arraygen`` draws its own) a float array chain reduced by ``np.sum``.  Every shape
reaches the result, so every part of the program is differentiated.  Each method is
O(its lines)."""

from __future__ import annotations

import random

KINDS = ("int", "float", "bool")


def choice(rng: random.Random, weighted: list[tuple[str, int]]) -> str:
    return rng.choices([w[0] for w in weighted], [w[1] for w in weighted])[0]


def indent(lines: list[str]) -> list[str]:
    return ["    " + s for s in lines]


class Func:
    """Scope of one function being generated: variables by kind, loop depth."""

    def __init__(self, ret: str):
        self.ret = ret
        self.vars: dict[str, list[str]] = {k: [] for k in KINDS}
        self.arrays: list[tuple[str, str]] = []      # (name, dtype) readable arrays
        self.mutable: list[str] = []                  # locals that statements may assign
        self.pairs: list[tuple[str, tuple[str, str]]] = []  # tuple locals: (name, element kinds)
        self.maybe_pairs: list[tuple[str, tuple[str, str]]] = []  # tuple locals that may be None
        self.optionals: list[tuple[str, str]] = []    # locals that may be None: (name, kind)
        self.complexes: list[str] = []                # complex locals
        self.lists: list[tuple[str, str]] = []        # list locals: (name, element kind)
        self.rows: list[tuple[str, tuple]] = []       # lists of tuples: (name, position kinds)
        self.loops = 0
        self.fresh = 0


class GradPrograms:
    """The generator's gradient programs (a mixin: ``rng``, ``expr``, ``block`` and
    ``fresh`` are the generator's)."""

    def grad_main(self) -> tuple[list[str], list[tuple[str, str]]]:
        """A gradient program's ``f`` (see the module docstring) and its parameters."""
        r = self.rng
        fn = Func("float")
        params = [(f"x{i}", "float") for i in range(r.choice([1, 1, 2, 2, 3]))]
        if r.random() < 0.5:
            params.append(("n0", "int"))
        if r.random() < 0.15:
            params.append(("p0", "bool"))
        r.shuffle(params)
        for name, k in params:
            fn.vars[k].append(name)
        body = ["fuel = 0"]
        made: list[str] = []
        for _ in range(r.randint(1, 3)):
            shape = choice(r, [("acc", 6), ("coupled", 2), ("inf", 2), ("cmp", 2), ("branch", 2),
                                ("math", 2), ("list", 2)])
            lines, v = getattr(self, f"grad_{shape}")(fn)
            body += lines
            fn.vars["float"].append(v)  # an int-started accumulator too: int or float at run time
            fn.mutable.append(v)
            made.append(v)
        if self.whole:  # a share ``arraygen.ARRAY_SHARE`` of the programs (a stream of its own)
            lines, v = self.grad_array(fn)
            body += lines
            made.append(v)
        self.budget = r.choice([0, 0, 1, 2, 3])  # a few ordinary statements among the shapes
        if self.budget:
            body += self.block(fn, 2, self.budget)
        terms = made + r.sample([p for p, k in params if k == "float"], r.choice([0, 0, 1]))
        r.shuffle(terms)
        if r.random() < 0.2:
            terms.append(self.expr(fn, "float", 2))
        ret = terms[0]
        for t in terms[1:]:  # every shape reaches the result
            ret += f" {r.choice(['+', '+', '*', '-'])} {t}"
        body.append(f"return {ret}")
        untyped = r.random() < 0.15  # unannotated: son's 'number' kind, specialized on the call
        sig = ", ".join(n if untyped and k != "bool" else f"{n}: {k}" for n, k in params)
        return [f"def f({sig}):"] + indent(body), params

    def _x(self, fn: Func) -> str:
        return self.rng.choice([v for v in fn.vars["float"] if v.startswith("x")])

    def _grad_loop(self, fn: Func, body: list[str]) -> list[str]:
        """``body`` (which may read the loop variable ``i{k}`` named by ``{i}``) in a short
        loop: a literal range, ``range(n0)``, a counted while loop or two nested ranges."""
        r = self.rng
        iv = self.fresh(fn, "i")
        body = [s.replace("{i}", iv) for s in body]
        kinds = ["range", "range", "while", "nested"] + (["param"] if "n0" in fn.vars["int"] else [])
        kind = r.choice(kinds)
        if r.random() < 0.2:  # an early exit
            body = body + [f"if {iv} > 1:", f"    {r.choice(['break', 'continue'])}"]
        if kind == "range":
            return [f"for {iv} in range({r.randint(2, 4)}):"] + indent(body)
        if kind == "param":
            return [f"for {iv} in range(n0):"] + indent(body)
        if kind == "while":
            # the count first: a 'continue' must not skip it
            return [f"{iv} = 0", f"while {iv} < {r.randint(2, 4)}:"] + indent([f"{iv} += 1"] + body)
        jv = self.fresh(fn, "j")
        inner = [f"for {jv} in range({r.randint(1, 3)}):"] + indent(body)
        return [f"for {iv} in range(2):"] + indent(inner)

    def grad_acc(self, fn: Func) -> tuple[list[str], str]:
        """An accumulator started at an int literal, updated with a float in a loop."""
        r = self.rng
        acc, x = self.fresh(fn, "acc"), self._x(fn)
        y = self._x(fn)
        updates = [f"{acc} = {acc} * {x}", f"{acc} = {acc} / {x}", f"{acc} = {x} / {acc} + {x}",
                   f"{acc} = max({x} * {{i}}, 1)", f"{acc} = min({acc}, 10) * {x}",
                   f"{acc} = abs({acc}) * {x}", f"{acc} = {acc} * {acc} + {x}", f"{acc} = {acc} ** 2 + {x}",
                   f"{acc} *= {x}", f"{acc} = {acc} + {y} * {{i}}", f"{acc} = math.sin({acc}) * {x}",
                   f"{acc} = max({acc}, {x}) - {y}", f"{acc} = min({acc} * {x}, {acc} + {y})",
                   f"{acc} = {acc} * {x} + 1", f"{acc} = {acc} - {y} / ({x} + 4.5)"]
        step = [r.choice(updates) for _ in range(r.choice([1, 1, 2]))]
        x = r.random()
        if x < 0.35:  # the two arms of an if: a float update and an int one
            cond = r.choice(["{i} % 2 == 0", f"{self._x(fn)} > {r.choice(['0.5', '-0.3', '1.2'])}",
                             f"{acc} > {r.choice(['1', '2.5', '-1'])}"]
                            + (["p0"] if "p0" in fn.vars["bool"] else []))
            other = f"{acc} = {acc} + {r.choice(['1', '2', '-1'])}"
            step = [f"if {cond}:"] + indent(step) + ["else:", f"    {other}"]
        start = r.choice(["1", "1", "3", "-2", "2", "0.5"])
        return [f"{acc} = {start}"] + self._grad_loop(fn, step), acc

    def grad_list(self, fn: Func) -> tuple[list[str], str]:
        """A float list made before a loop, changed in it by index writes and methods
        (append, insert, pop, reverse) and reduced to the result: reverse mode's adjoint
        list undoes each change, forward mode mirrors it on a tangent list."""
        r = self.rng
        lst, acc, x, y = self.fresh(fn, "xs"), self.fresh(fn, "acc"), self._x(fn), self._x(fn)
        start = r.choice([f"[{x}, {x} * {y}]", f"[{x}] * 2", "[0.0] * 3", f"[{y}, 0.5, {x}]"])
        ops = [f"{lst}.append({x} * {{i}} + {y})", f"{lst}[{{i}} % len({lst})] = {lst}[-1] * {x} + 0.5",
               f"{lst}.insert({{i}} % 3 - 1, {y} * {x})", f"{lst}.reverse()",
               f"if len({lst}) > 2:\n    {lst}.pop({{i}} % 2)", f"{lst}[0] = {lst}[0] * {y} - {lst}[-1]"]
        step = [line for op in r.sample(ops, r.choice([1, 2, 3])) for line in op.split("\n")]
        end = r.choice([f"{acc} = sum({lst}) * {x}", f"{acc} = {lst}[0] * {lst}[-1] + len({lst})",
                        f"{acc} = 0.0\nfor v_{lst} in {lst}:\n    {acc} = {acc} + v_{lst} * v_{lst}"])
        return [f"{lst} = {start}"] + self._grad_loop(fn, step) + end.split("\n"), acc

    def grad_array(self, fn: Func) -> tuple[list[str], str]:
        """A float array made from the parameters, a whole-array chain of it (maybe updated
        in place) reduced by ``np.sum`` or ``np.mean``: son.grad differentiates the loops
        the chain and numpy's pairwise sum become."""
        r = self.rng
        t, acc = self.fresh(fn, "ts"), self.fresh(fn, "acc")
        # float(): an unannotated parameter is son's 'number' at parse time, which an array refuses
        x, y = f"float({self._x(fn)})", f"float({self._x(fn)})"
        k = r.randint(2, 6)
        lines = [f"{t} = " + r.choice([f"np.arange({k}) * {x} + {y}", f"np.ones({k}) * {x}",
                                       f"np.arange({k}) * 0.25 - {x} * {y}"])]
        if r.random() < 0.4:
            lines.append(r.choice([f"{t} *= {y}", f"{t}[1:] += {t}[:-1] * {x}", f"{t} -= {t}.mean()"]))
        chain = r.choice([f"np.sqrt({t} * {t} + 0.25) * {y}", f"np.where({t} > 0.5, {t} * {x}, -{t})",
                          f"({t} - {t}.mean()) ** 2", f"{t} ** 2 * {x} - abs({t})", f"{t}[1:] * {t}[:-1]",
                          f"{t}[::-1] / ({t} * {t} + 1.0)"])
        end = r.choice([f"np.sum({chain})", f"({chain}).sum()", f"np.mean({chain})"])
        return lines + [f"{acc} = {end}"], acc

    def grad_coupled(self, fn: Func) -> tuple[list[str], str]:
        """Two int-started accumulators that feed each other."""
        r = self.rng
        p, q, x = self.fresh(fn, "acc"), self.fresh(fn, "acc"), self._x(fn)
        step = r.choice([[f"{p}, {q} = {q} * {x}, {p} + {x}"],
                         [f"{p} = {p} * {x} + {q}", f"{q} = {q} - {p} * 0.25"],
                         [f"{q} = max({p}, {q}) * {x}", f"{p} = {p} + 1"]])
        lines = [f"{p} = {r.choice(['1', '3'])}", f"{q} = {r.choice(['0', '2', '-2'])}"]
        return lines + self._grad_loop(fn, step), p

    def grad_inf(self, fn: Func) -> tuple[list[str], str]:
        """An infinite constant: a non-finite partial on a path whose adjoint is zero."""
        r = self.rng
        v, x = self.fresh(fn, "u"), self._x(fn)
        y = self._x(fn)
        inf = r.choice(["math.inf", "-math.inf"])
        first = r.choice([f"{v} = {x} * {inf}", f"{v} = {inf} if {x} > 3.0 else {x} * {y}",
                          f"{v} = min({x} * {inf}, {y})", f"{v} = {x} / 1e-320"])
        lines = [first]
        if "n0" in fn.vars["int"] and r.random() < 0.4:
            lines += ["if n0 > 2:", f"    return {v}"]
        lines.append(r.choice([f"{v} = 10.0 + float({x} > {v})", f"{v} = float({v} < {y}) * {y}",
                               f"{v} = {y} if {v} > {x} else {x}", f"{v} = max({v}, {y}) * 0.0 + {x}",
                               f"{v} = 2.0 * {x} if math.isinf({v}) else {v}"]))
        return lines, v

    def grad_cmp(self, fn: Func) -> tuple[list[str], str]:
        """A comparison of floats turned into a float."""
        r = self.rng
        v, x, y = self.fresh(fn, "c"), self._x(fn), self._x(fn)
        return [r.choice([f"{v} = float({x} > {y}) * {x}", f"{v} = {x} if {x} > {y} else {y} * 0.5",
                          f"{v} = {x} * float({x} > 0.3) + int({y} < {x})",
                          f"{v} = float({x} <= 1.2) + {y} * float(not {x} > {y})",
                          f"{v} = abs({x} - {y}) + max({x}, {y})"])], v

    def grad_branch(self, fn: Func) -> tuple[list[str], str]:
        """A branch on a float: a kink between two smooth pieces."""
        r = self.rng
        v, x, y = self.fresh(fn, "b"), self._x(fn), self._x(fn)
        c = r.choice(["0.5", "-0.2", "1.2", y])
        return [f"if {x} > {c}:", f"    {v} = {x} * {x} - {y}",
                f"elif {x} < -{c}:" if c != y else f"elif {x} < {y} - 1.0:", f"    {v} = -{x} * {y}",
                "else:", f"    {v} = 3 * {x} + 1"], v

    def grad_math(self, fn: Func) -> tuple[list[str], str]:
        """``math`` calls inside their domain."""
        r = self.rng
        v, x, y = self.fresh(fn, "m"), self._x(fn), self._x(fn)
        return [f"{v} = " + r.choice([f"math.sin({x} * {y})", f"math.exp({x} * 0.5) - {y}",
                                      f"math.tanh({x}) * {y}", f"math.sqrt({x} * {x} + 0.25)",
                                      f"math.log(abs({x}) + 0.5)", f"math.atan2({x}, {y})",
                                      f"math.hypot({x}, {y})", f"abs({x}) ** 1.5", f"math.cos({x}) ** 2",
                                      f"{x} ** 3 - 2 * {y}"])], v


def helper_parameters(names: list[str], kinds: list[str]) -> list[str]:
    """A helper's parameter list as written: a float first parameter of several is
    positional-only, a bool last parameter of several keyword-only (``h(q0, /, q1, *, q2)``),
    decided by the kinds alone so that the random streams stay as they were."""
    out = list(names)
    if len(kinds) >= 2 and kinds[-1] == "bool":
        out.insert(len(out) - 1, "*")
    if len(kinds) >= 2 and kinds[0] == "float":
        out.insert(1, "/")
    return out


def helper_args(kinds: list[str], args: list[str]) -> str:
    """The arguments of a call of a helper of parameter ``kinds`` (``helper_parameters``):
    a keyword-only last parameter by keyword."""
    if len(kinds) >= 2 and kinds[-1] == "bool":
        args = args[:-1] + [f"q{len(kinds) - 1}={args[-1]}"]
    return ", ".join(args)
