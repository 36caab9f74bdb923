"""Random programs of son's frontend subset, as Python source, with their arguments.

``generate(seed, index)`` is a pure function of its two integers: the same pair gives the same
``Program`` in every process (``random.Random`` seeded with a string is independent of
``PYTHONHASHSEED``).  A program is a module text with 0-2 helper functions (inlined by son,
or, when one calls itself, a graph of its own; in a share ``NESTED_SHARE`` nested in ``f``
and reading one of its values, sometimes two levels in through a lambda, lambda-lifted by
son where one calls itself) and
the function ``f``; its parameters are annotated (``int``, ``float``, ``bool``, ``np.ndarray``
for float64 and ``npt.NDArray[np.int64]``), and ``args`` holds a few argument tuples (ints at
the int64 extremes, NaN, infinities, -0.0, empty arrays).

What the generator covers: nested ``if/elif/else``; ``while`` and ``for ... in range`` with 1-3
arguments and negative steps, ``for`` over arrays and ``enumerate``/``zip``/``reversed`` of
them, reductions of arrays and generator expressions (``loopgen.py``); ``break``, ``continue``
and early ``return`` at any depth; int/float/bool mixes; wrap-around-prone int arithmetic (large
constants, ``*``, shifts, ``**``, exponents past 65536 too); ``/ // %`` whose divisor may be
zero; ``math`` calls in and out of their domain, a quarter of them on an argument whose sign its
shape decides (``x * x``, ``-x * x``, ``1.0 + x * x``, ``tanh(x)``: the float bounds that fold
guards) or under a test of it (``log(x) if x > 0.0 else ...``); chained comparisons,
``and/or/not``, conditional expressions; array reads and writes with negative and out-of-range
indices; ``np.zeros/ones/empty`` (an ``np.empty`` array is filled before it is read); ``len``;
helper calls; tuple assignment; tuple, optional and complex locals; ``math``, ``operator``,
``cmath`` (``sinh``... ``tan`` too) and builtins son writes in Python (``round(x, k)``, ``gamma``,
``fsum``, ``dist``, ``remainder``, ``ulp``, complex powers...); function values (lambdas,
helpers chosen at run time, ``map``, ``functools.reduce``, a helper as ``f``'s own parameter ``fn0=h0``); a
module-level array ``G0`` that ``f`` reads; complex and nested-tuple results; list locals of one
element kind, their methods, indexing, slicing, searches, reductions, loops over them and lists
returned (``listgen.py``); numpy's whole-array expressions, reductions and in-place updates,
arrays returned (``arraygen.py``), recursive helpers returning arrays (``recarraygen.py``);
statements son runs with CPython (fallback regions: ``print``, dicts, ``try``, a global counter,
``fallbackgen.py``). It is biased towards what optimizers prove: constants carried through loop
phis, dead branches, congruent expressions, twin induction variables, loop-invariant expressions.

With the gradient oracle on (``generate(..., grad=True)``, the default) a share ``GRAD_SHARE``
of the indices (drawn from the pair by a stream of its own, so the other indices give exactly
the programs of ``grad=False``) are *gradient programs* (``_Gen.grad_main``): one to three float
parameters with moderate non-integral arguments (``GRAD_FLOAT_ARGS``, a few
``GRAD_SPECIAL_ARGS``), maybe a small int and a bool, a float result, and a body of the shapes
where reverse mode has gone wrong: accumulators started at an int and updated in loops (``for``,
``while``, nested, with ``*``, ``/``, ``max``, ``min``, ``abs``, ``**``, an ``if`` choosing
between ``*x`` and ``+1``, two coupled accumulators, an early ``break``), infinite constants,
float comparisons turned into floats, branches on floats and ``math`` calls in their domain,
mixed with a few of the ordinary statements above.

Termination is by construction: a ``for`` over a literal range is short, and every other loop
counts a hidden ``fuel`` local and breaks once it passes ``FUEL`` (after which every loop breaks
on its first iteration).

Kinds are kept exact in most programs so that a program is valid for a typed graph: each local
has one kind for its whole life; every ``return`` of ``f`` returns one kind.  One program in ten
lets int locals take float values, and about one in eight leaves its int and float parameters
unannotated (both give son's ``number`` kind; the kernel stage needs annotated parameters).
Cost: O(size of the program) per call.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .arguments import FLOAT_ARGS, float_literal, generate_args
from .arraygen import ARRAY_RETURNS, ARRAY_SHARE, ArrayPrograms, common_lengths
from .fallbackgen import REGION_SHARE, FallbackPrograms
from .gradgen import KINDS, GradPrograms, helper_args, helper_parameters
from .gradgen import Func as _Func
from .gradgen import choice as _choice
from .gradgen import indent as _indent
from .listgen import LIST_RETURNS, ListPrograms
from .loopgen import FUEL, LoopPrograms
from .pairgen import PairPrograms

__all__ = ["FUEL", "Program", "generate", "generate_args"]

INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1

#: int literals, biased to wrap-around and to values rules special-case
INT_LITERALS = ["0", "1", "2", "3", "-1", "7", "10", "255", "-13", "2147483647", "4294967296",
                "4611686018427387904", "9223372036854775807", "(-9223372036854775807 - 1)",
                "1000003", "-4"]
FLOAT_LITERALS = ["0.0", "-0.0", "1.0", "0.5", "2.5", "-1.5", "1e308", "1e-320", "3.0",
                  "1e16", "math.pi", "math.inf", "-math.inf", "math.nan", "0.1"]
#: ndigits of round(x, ndigits) on floats: son rounds exactly for |ndigits| <= 22 (one known at run time)
ROUND_DIGITS = ["0", "1", "2", "3", "-1", "-2", "15", "22", "-22", "(int({y}) % 7 - 3)"]

#: the share of programs that are gradient programs when the gradient oracle is on
GRAD_SHARE = 0.5
#: the share of the other programs whose helpers are nested in ``f``, reading a value
#: of ``f``'s (a closure; lambda-lifted by son where the helper calls itself)
NESTED_SHARE = 0.2
#: the share of the other programs (with a helper at the top level) whose ``f`` takes a
#: function, ``fn0=h0``: called without it, so son builds the graph for the default
#: (son/nodes/control.py ``FunctionForm``), and ``f`` calls it as it calls helpers
FN_PARAM_SHARE = 0.15
GLOBAL_LENGTH = 5
#: programs get ``G0`` and ``fn0`` only where their region draw is at least this (above
#: ``REGION_SHARE``: never a program with regions)
PLAIN_DRAW = 0.5
#: the share of the other programs with a module-level array ``G0`` that ``f`` reads
#: (never writes: the oracle's stages share a parse, and so its global)
GLOBAL_SHARE = 0.12

#: math functions of one float argument (domain errors included on purpose)
MATH1 = ["math.sqrt", "math.exp", "math.log", "math.sin", "math.cos", "math.tan", "math.tanh",
         "math.atan", "math.log10", "math.fabs", "math.asin", "math.cosh", "math.log1p", "math.expm1",
         "math.cbrt"]
MATH2 = ["math.atan2", "math.hypot", "math.fmod", "math.copysign"]

INT_BINOPS = [("+", 6), ("-", 5), ("*", 5), ("//", 2), ("%", 2), ("<<", 1), (">>", 1),
              ("&", 1), ("|", 1), ("^", 1)]
FLOAT_BINOPS = [("+", 5), ("-", 4), ("*", 4), ("/", 3), ("//", 1), ("%", 1)]
COMPARES = ["<", "<=", ">", ">=", "==", "!="]


@dataclass
class Program:
    """One generated program: module text, the entry function's name, argument tuples."""

    seed: int
    index: int
    source: str
    args: list[tuple] = field(default_factory=list)
    name: str = "f"

    @property
    def label(self) -> str:
        return f"seed={self.seed} index={self.index}"


class _Gen(ArrayPrograms, ListPrograms, LoopPrograms, PairPrograms, GradPrograms, FallbackPrograms):
    """The generator's state for one program (see ``generate``)."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.helpers: list[tuple[str, list[str], str]] = []   # (name, param kinds, return kind)
        self.budget = 0
        #: some programs let an int variable take float values (the frontend's 'number' kind)
        self.mixed = rng.random() < 0.1
        #: main's int and float parameters unannotated (drawn by ``main``)
        self.untyped = False
        #: (main's scope, the decreasing int parameter, the parameters) while ``f`` may call
        #: itself (``LoopPrograms.recursion``)
        self.recursive = None
        #: the lines of helpers nested in ``f`` (``generate``), reading ``f``'s ``k9``
        self.nested: list[str] = []
        #: the helper ``f`` takes as its parameter ``fn0`` by default (``generate``), or None
        self.fn_param: tuple[str, list[str], str] | None = None
        #: the program has the global array ``G0`` (``generate``); ``f`` reads it (``main``)
        self.global_array = False
        self.in_main = False

    # ------------------------------------------------------------------ expressions
    def expr(self, fn: _Func, kind: str, depth: int) -> str:
        r = self.rng
        if self.recursive and self.recursive[0] is fn and not fn.loops and (
                kind == fn.ret or isinstance(fn.ret, tuple) and kind in fn.ret) \
                and r.random() < 0.1:  # not in a loop: calls per level stay few, the work small
            call = self.recursive_call(fn, depth)
            return call if kind == fn.ret else f"{call}[{fn.ret.index(kind)}]"
        if fn.lists and depth > 0 and r.random() < 0.1 and (got := self.list_scalar(fn, kind, depth - 1)):
            return got
        if depth > 0 and self.arrays_on(fn) and r.random() < 0.1 \
                and (got := self.array_scalar(fn, kind, depth - 1)):
            return got
        if depth <= 0 or r.random() < 0.25:
            return self.leaf(fn, kind)
        return getattr(self, f"expr_{kind}")(fn, depth - 1)

    def leaf(self, fn: _Func, kind: str) -> str:
        r = self.rng
        maybe = [o for o, k in fn.optionals if k == kind]
        if maybe and r.random() < 0.15:  # a local that may be None, read behind a test
            o = r.choice(maybe)
            other = r.choice(fn.vars[kind]) if fn.vars[kind] else self.literal(kind)
            return r.choice([f"({o} if {o} is not None else {other})", f"({other} if {o} is None else {o})",
                             f"({o} or {other})", o])
        if (item := self.pair_leaf(fn, kind)) is not None:  # an element of a tuple local
            return item
        names = fn.vars[kind]
        if names and r.random() < 0.7:
            return r.choice(names)
        return self.literal(kind)

    def literal(self, kind: str) -> str:
        r = self.rng
        if kind == "int":
            return r.choice(INT_LITERALS) if r.random() < 0.5 else str(r.randint(-5, 12))
        if kind == "float":
            return r.choice(FLOAT_LITERALS)
        return r.choice(["True", "False"])

    def index(self, fn: _Func, arr: str, depth: int) -> str:
        i = self._index(fn, arr, depth)
        # a bare local that may be None: numpy reads a[None] as a new axis, which son refuses
        return f"({i} or 0)" if any(i == o for o, _ in fn.optionals) else i

    def _index(self, fn: _Func, arr: str, depth: int) -> str:
        r = self.rng
        x = r.random()
        loopvars = [v for v in fn.vars["int"] if v.startswith("i")]
        if (x < 0.3 or self.mixed) and loopvars:
            iv = r.choice(loopvars)
            if self.mixed or r.random() < 0.5:
                return iv
            # affine in the counter, as loop versioning and difference bounds read them
            c = r.choice(["1", "-1", "2", "-2"])
            k = r.choice(loopvars + ["2", "3", "-1", f"len({arr})"])
            return r.choice([f"{iv} + {c}", f"{iv} * {k} + {c}", f"{iv} * {k}",
                             f"{c} + {iv}", f"{iv} + {self.expr(fn, 'int', depth)}"])
        if self.mixed:  # an int local may hold a float here: son refuses a float index
            return r.choice(["-1", "0", "1", f"len({arr}) - 1"])
        if x < 0.55:
            return f"{self.expr(fn, 'int', depth)} % len({arr})"
        if x < 0.7:
            return r.choice(["-1", "0", "1", "-2", f"len({arr}) - 1", f"-len({arr})"])
        return self.expr(fn, "int", depth)

    def array_read(self, fn: _Func, dtype: str, depth: int) -> str | None:
        arrs = [a for a, d in fn.arrays if d == dtype]
        if not arrs:
            return None
        a = self.rng.choice(arrs)
        return f"{a}[{self.index(fn, a, depth)}]"

    def call(self, fn: _Func, kind: str, depth: int) -> str | None:
        """A call of a helper, directly or as a function value (one of two helpers chosen
        by a test), or of a lambda on its argument."""
        r = self.rng
        if kind != "bool" and r.random() < 0.35:
            return f"({self.lambda_of(kind, [kind], depth)})({self.expr(fn, kind, depth)})"
        cands = [h for h in self.helpers if h[2] == kind]
        if not cands:
            return None
        name, params, _ = r.choice(cands)
        if r.random() < 0.3:  # a function value: the helpers of one signature, picked at run time
            other = r.choice([h[0] for h in cands if h[1] == params])
            name = f"({name} if {self.expr(fn, 'bool', depth)} else {other})"
        return f"{name}({helper_args(params, [self.expr(fn, k, depth) for k in params])})"

    def lambda_of(self, kind: str, params: list[str], depth: int) -> str:
        """``lambda u0, u1: <an expression of kind over them>`` (no other variables: a
        closure over the enclosing function's may read one it rebinds)."""
        sub = _Func(kind)
        names = [f"u{i}" for i in range(len(params))]
        for n, k in zip(names, params):
            sub.vars[k].append(n)
        return f"lambda {', '.join(names)}: {self.expr(sub, kind, max(depth - 1, 0))}"

    def expr_int(self, fn: _Func, depth: int) -> str:
        r = self.rng
        e = self.expr
        form = _choice(r, [("bin", 10), ("neg", 1), ("abs", 1), ("minmax", 2), ("cast", 2),
                           ("len", 1), ("read", 3), ("cond", 2), ("call", 3), ("pow", 1),
                           ("floor", 1), ("bool", 1), ("shift", 1), ("round", 1), ("operator", 1),
                           ("intfn", 1), ("tuple", 1), ("reduce", 1 if fn.arrays else 0)])
        if form == "reduce" and (got := self.reduction(fn, "int", depth)):
            return got
        ints = [t for t, ks in fn.pairs if ks == ("int", "int")]
        if form == "tuple" and ints:
            t = r.choice(ints)
            if r.random() < 0.3:  # function values over tuples: map and reduce
                return r.choice([f"sum(map({self.lambda_of('int', ['int'], depth)}, {t}))",
                                 f"functools.reduce({self.lambda_of('int', ['int', 'int'], depth)}, {t})",
                                 f"functools.reduce({self.lambda_of('int', ['int', 'int'], depth)}, {t}, 3)"])
            return r.choice([f"sum({t})", f"min({t})", f"max({t})", f"len({t})", f"sum({t}, 1)",
                             f"math.prod({t})"])
        if form == "intfn" and not self.mixed:
            i = e(fn, "int", depth)
            return r.choice([f"math.gcd({i}, {e(fn, 'int', depth)})", f"math.lcm({i} & 1023, 12)",
                             f"({i}).bit_length()", f"math.isqrt(abs({i}) & 281474976710655)",
                             f"math.factorial({i} & 15)", f"math.gcd({i})",
                             f"math.comb({i} & 63, {e(fn, 'int', depth)} & 63)",
                             f"math.perm({i} & 31, {e(fn, 'int', depth)} & 7)", f"math.perm({i} & 15)",
                             f"round(int({i}), {r.choice(['-1', '-2', '-5', '-18', '-19', '-20', '3'])})"])
        if form == "shift" and self.mixed:
            form = "bin"
        if form == "round":  # float(): son refuses round() of what may be an int or a float
            return f"round(float({e(fn, 'float', depth)}))"
        if form == "operator":
            op = r.choice(["add", "sub", "mul"] + ([] if self.mixed else ["floordiv", "mod"]))
            return f"operator.{op}({e(fn, 'int', depth)}, {e(fn, 'int', depth)})"
        if form == "bin":
            op = _choice(r, INT_BINOPS[:5] if self.mixed else INT_BINOPS)  # bit operators refuse floats
            return f"({e(fn, 'int', depth)} {op} {e(fn, 'int', depth)})"
        if form == "neg":
            return f"(-{e(fn, 'int', depth)})"
        if form == "abs":
            return f"abs({e(fn, 'int', depth)})"
        if form == "minmax":
            return f"{r.choice(['min', 'max'])}({e(fn, 'int', depth)}, {e(fn, 'int', depth)})"
        if form == "cast":
            return f"int({e(fn, 'float', depth)})"
        if form == "len" and fn.arrays:
            return f"len({r.choice(fn.arrays)[0]})"
        if form == "read":
            got = self.array_read(fn, "int64", depth)
            if got:
                return got
        if form == "cond":
            return self.conditional(fn, "int", depth)
        if form == "call":
            got = self.call(fn, "int", depth)
            if got:
                return got
        if form == "pow":  # exponents past 65536 too, where numba's own int power is a float pow
            base, mask = e(fn, 'int', depth), r.choice(["262143", str(INT64_MAX), None, None, None, None])
            exp = f"({e(fn, 'int', depth)} & {mask})" if mask else r.randint(0, 4)
            return f"({base} ** {exp})"
        if form == "floor":
            return f"math.{r.choice(['floor', 'ceil', 'trunc'])}({e(fn, 'float', depth)})"
        if form == "bool":
            return f"int({e(fn, 'bool', depth)})"
        if form == "shift":
            return f"({e(fn, 'int', depth)} {r.choice(['<<', '>>'])} ({e(fn, 'int', depth)} & 63))"
        return self.leaf(fn, "int")

    def expr_float(self, fn: _Func, depth: int) -> str:
        r = self.rng
        e = self.expr
        form = _choice(r, [("bin", 10), ("mixed", 3), ("neg", 1), ("abs", 1), ("minmax", 1),
                           ("cast", 2), ("math1", 4), ("math2", 1), ("read", 3), ("cond", 2),
                           ("call", 3), ("pow", 1), ("intdiv", 1), ("angle", 1), ("operator", 1),
                           ("special", 1), ("complex", 2 if fn.complexes else 1),
                           ("reduce", 1 if fn.arrays else 0),
                           ("global", 2 if self.global_array and self.in_main else 0)])
        if form == "reduce" and (got := self.reduction(fn, "float", depth)):
            return got
        if form == "global":  # the module's array, read only
            return r.choice([f"G0[({e(fn, 'int', depth)}) % {GLOBAL_LENGTH}]", f"G0[{r.randint(-5, 4)}]",
                             "float(np.sum(G0))", "G0.max()", f"G0[1:{r.randint(1, 5)}].sum()"])
        if form == "complex":
            c = self.complex_expr(fn, depth)
            return r.choice([f"({c}).real", f"({c}).imag", f"abs({c})", f"cmath.phase({c})"])
        if form == "angle":
            if r.random() < 0.3:
                y = r.choice(["2.0", "0.5", "-1.0", e(fn, "float", depth)])
                return f"math.pow({e(fn, 'float', depth)}, {y})"
            return f"math.{r.choice(['degrees', 'radians'])}({e(fn, 'float', depth)})"
        if form == "operator":
            op = r.choice(["add", "sub", "mul", "truediv", "neg"])
            args = e(fn, "float", depth) + ("" if op == "neg" else f", {e(fn, 'float', depth)}")
            return f"operator.{op}({args})"
        if form == "special":
            if r.random() < 0.3 and not self.mixed:
                return f"({e(fn, 'float', depth)}).{r.choice(['real', 'conjugate()'])}"
            if r.random() < 0.4:  # the float functions son writes in Python (pylib)
                x, y = e(fn, "float", depth), e(fn, "float", depth)
                return r.choice([f"math.frexp({x})[0]", f"math.modf({x})[{r.randint(0, 1)}]",
                                 f"math.nextafter({x}, {y})", f"math.gamma({x})", f"math.lgamma({x})",
                                 f"math.fsum(({x}, {y}, 1e16, -{x}))", f"math.dist(({x}, {y}), (0.5, {x}))",
                                 f"math.remainder({x}, {y})", f"math.ulp({x})",
                                 f"round(float({x}), {r.choice(ROUND_DIGITS).format(y=y)})",
                                 f"math.ldexp({x}, {r.choice(['-1074', '3', '-2', '1023', '1100'])})"])
            return f"float({r.choice(['inf', '-inf', 'nan', '-0.0', '1e308'])!r})"
        if form == "bin":
            op = _choice(r, FLOAT_BINOPS)
            return f"({e(fn, 'float', depth)} {op} {e(fn, 'float', depth)})"
        if form == "mixed":
            op = _choice(r, FLOAT_BINOPS)
            a, b = e(fn, "float", depth), e(fn, "int", depth)
            return f"({a} {op} {b})" if r.random() < 0.5 else f"({b} {op} {a})"
        if form == "neg":
            return f"(-{e(fn, 'float', depth)})"
        if form == "abs":
            return f"abs({e(fn, 'float', depth)})"
        if form == "minmax":
            return f"{r.choice(['min', 'max'])}({e(fn, 'float', depth)}, {e(fn, 'float', depth)})"
        if form == "cast":
            return f"float({e(fn, 'int', depth)})"
        if form == "math1":
            x = e(fn, "float", depth)
            if r.random() < 0.15:  # under a test of its argument, which may decide the guard
                op, c = r.choice([">", ">=", "<", "<=", "!="]), r.choice(["0.0", "1.0", "-1.0", "700.0"])
                return f"({r.choice(MATH1)}({x}) if {x} {op} {c} else {e(fn, 'float', depth)})"
            if r.random() < 0.25:  # a shape whose sign decides the guard (son/nodes/fbounds.py)
                y = e(fn, "float", depth)
                x = r.choice([f"({x} * {x})", f"(-{x} * {x})", f"({x} * {x} + {y} * {y})",
                              f"(1.0 + {x} * {x})", f"({x} * {x} - 1.0)", f"math.tanh({x})"])
            return f"{r.choice(MATH1)}({x})"
        if form == "math2":
            return f"{r.choice(MATH2)}({e(fn, 'float', depth)}, {e(fn, 'float', depth)})"
        if form == "read":
            got = self.array_read(fn, "float64", depth)
            if got:
                return got
        if form == "cond":
            return self.conditional(fn, "float", depth)
        if form == "call":
            got = self.call(fn, "float", depth)
            if got:
                return got
        if form == "pow":
            k = r.choice(["2.0", "0.5", "-1.0", "3.0", e(fn, "float", depth)])
            return f"({e(fn, 'float', depth)} ** {k})"
        if form == "intdiv":
            return f"({e(fn, 'int', depth)} / {e(fn, 'int', depth)})"
        return self.leaf(fn, "float")

    def complex_expr(self, fn: _Func, depth: int) -> str:
        """A complex-valued expression: built from floats, complex locals and literals by
        CPython's complex arithmetic (powers by small constant integers)."""
        r = self.rng
        if depth <= 0 or r.random() < 0.3:
            if fn.complexes and r.random() < 0.6:
                return r.choice(fn.complexes)
            return r.choice([f"complex({self.expr(fn, 'float', 0)}, {self.expr(fn, 'float', 0)})",
                             f"({self.expr(fn, r.choice(KINDS), 0)} * 1j)", "1j", "(2-0.5j)", "0j"])
        c = self.complex_expr(fn, depth - 1)
        form = _choice(r, [("bin", 6), ("mixed", 2), ("pow", 2), ("neg", 1), ("conj", 1), ("cmath", 2)])
        if form == "cmath":
            x, y = self.expr(fn, "float", depth - 1), self.expr(fn, "float", depth - 1)
            return r.choice([f"cmath.sqrt({c})", f"cmath.exp({c})", f"cmath.log({c})", f"cmath.log10({c})",
                             f"cmath.rect({x}, {y})", f"cmath.log({c}, {self.complex_expr(fn, depth - 1)})",
                             f"cmath.{r.choice(['sinh', 'cosh', 'tanh', 'sin', 'cos', 'tan'])}({c})"])
        if form == "bin":
            return f"({c} {r.choice(['+', '-', '*', '/'])} {self.complex_expr(fn, depth - 1)})"
        if form == "mixed":
            x = self.expr(fn, r.choice(["float", "int"]), depth - 1)
            return f"({x} {r.choice(['+', '-', '*', '/'])} {c})" if r.random() < 0.5 \
                else f"({c} {r.choice(['+', '-', '*', '/'])} {x})"
        if form == "pow":
            if r.random() < 0.3:  # CPython's complex_pow: the exponent's value picks the algorithm
                k = r.choice([self.complex_expr(fn, depth - 1), self.expr(fn, "float", depth - 1),
                              self.expr(fn, "int", depth - 1), "0.5", "(0.5+1j)", "101"])
                return f"({c} ** {k})"
            return f"({c} ** {r.choice(['2', '3', '-1', '0', '-2', '2.0'])})"
        return f"(-{c})" if form == "neg" else f"({c}).conjugate()"

    def expr_bool(self, fn: _Func, depth: int) -> str:
        r = self.rng
        e = self.expr
        form = _choice(r, [("cmp", 8), ("chain", 2), ("not", 2), ("andor", 3), ("isnan", 1),
                           ("cast", 1), ("call", 1), ("isclose", 1), ("isinstance", 1), ("tuple", 1),
                           ("reduce", 1 if fn.arrays else 0)])
        if form == "reduce" and (got := self.reduction(fn, "bool", depth)):
            return got
        pairs = fn.pairs  # float pairs too: two NaNs meeting are son's run-time refusal
        if form == "tuple" and r.random() < 0.25:  # complex: == and the cmath tests
            c = self.complex_expr(fn, depth)
            return r.choice([f"({c} {r.choice(['==', '!='])} {self.complex_expr(fn, depth)})",
                             f"cmath.{r.choice(['isnan', 'isinf', 'isfinite'])}({c})", f"bool({c})"])
        if form == "tuple" and fn.optionals and r.random() < 0.4:
            o, k = r.choice(fn.optionals)
            return r.choice([f"({o} is None)", f"({o} is not None)", f"({o} == None)",
                             f"({o} is not None and {o} {r.choice(COMPARES)} {e(fn, k, depth)})",
                             f"({o} is None or {e(fn, k, depth)} {r.choice(COMPARES)} {o})"])
        if form == "tuple" and pairs and not (self.mixed or self.untyped):
            t, ks = r.choice(pairs)
            if r.random() < 0.4:
                return f"({e(fn, r.choice(ks), depth)} {r.choice(['in', 'not in'])} {t})"
            ops = ["==", "!="] if fn.optionals else COMPARES  # a None element: orders may raise
            return f"({t} {r.choice(ops)} {self.pair(fn, ks, depth)})"
        if form == "isclose":
            tol = r.choice(["", ", rel_tol=0.5", ", abs_tol=1e-3", f", abs_tol={e(fn, 'float', depth)}"])
            return f"math.isclose({e(fn, 'float', depth)}, {e(fn, 'float', depth)}{tol})"
        if form == "isinstance":
            if r.random() < 0.3 and not self.mixed:
                return f"float({e(fn, 'float', depth)}).is_integer()"
            return f"isinstance({e(fn, r.choice(['int', 'float']), depth)}, float)"
        if form in ("cmp", "chain"):
            k = r.choice(["int", "int", "float", "mixed"])
            kinds = ["int", "float"] if k == "mixed" else [k, k]
            a, b = e(fn, kinds[0], depth), e(fn, kinds[1], depth)
            s = f"{a} {r.choice(COMPARES)} {b}"
            if form == "chain":
                s += f" {r.choice(COMPARES)} {e(fn, r.choice(kinds), depth)}"
            return f"({s})"
        if form == "not":
            return f"(not {e(fn, 'bool', depth)})"
        if form == "andor":
            return f"({e(fn, 'bool', depth)} {r.choice(['and', 'or'])} {e(fn, 'bool', depth)})"
        if form == "isnan":
            return f"math.{r.choice(['isnan', 'isinf', 'isfinite'])}({e(fn, 'float', depth)})"
        if form == "cast":
            return f"bool({e(fn, r.choice(['int', 'float']), depth)})"
        if form == "call":
            got = self.call(fn, "bool", depth)
            if got:
                return got
        return self.leaf(fn, "bool")

    # ------------------------------------------------------------------ statements
    def fresh(self, fn: _Func, prefix: str) -> str:
        fn.fresh += 1
        return f"{prefix}{fn.fresh}"

    def block(self, fn: _Func, depth: int, n: int) -> list[str]:
        out: list[str] = []
        for _ in range(n):
            if self.budget <= 0:
                break
            out.extend(self.stmt(fn, depth))
        return out or ["pass"]

    def stmt(self, fn: _Func, depth: int) -> list[str]:
        r = self.rng
        self.budget -= 1
        opts = [("assign", 8), ("aug", 4), ("tuple", 2), ("store", 2 if fn.arrays else 0),
                ("if", 4 if depth > 0 else 0), ("for", 2 if depth > 0 else 0),
                ("while", 1 if depth > 0 else 0), ("twins", 1 if depth > 0 else 0),
                ("return", 1), ("jump", 3 if fn.loops else 0),
                ("pair", 3 if fn.pairs or fn.maybe_pairs else 0),
                ("optional", 2 if fn.optionals else 0), ("complex", 2 if fn.complexes else 0),
                ("list", 5 if fn.lists else 0), ("array", 4 if self.arrays_on(fn) else 0),
                ("region", self.region_weight(fn))]
        kind = _choice(r, opts)
        ed = r.randint(1, 3)
        targets = [v for v in fn.mutable]
        if kind in ("assign", "aug", "tuple") and not targets:
            kind = "return"
        if kind == "assign":
            v = r.choice(targets)
            k = self.kind_of(fn, v)
            if self.mixed and k == "int" and r.random() < 0.2:
                k = "float"  # the variable changes kind: a 'number' phi, loops parsed again
            return [f"{v} = {self.expr(fn, k, ed)}"]
        if kind == "aug":
            v = r.choice(targets)
            k = self.kind_of(fn, v)
            if k == "bool":
                return [f"{v} = {self.expr(fn, 'bool', ed)}"]
            ops = ["+", "-", "*"] + (["//", "%"] if k == "int" else ["/"])
            if k == "int" and not self.mixed:
                ops += ["&", "|", "^"]
            return [f"{v} {r.choice(ops)}= {self.expr(fn, k, ed)}"]
        if kind == "tuple":
            pairs = [h for h in self.helpers if isinstance(h[2], tuple)]
            if pairs and r.random() < 0.6:  # a, b = h(...): a helper's pair unpacked
                name, hparams, (k1, k2) = r.choice(pairs)
                firsts = [v for v in targets if self.kind_of(fn, v) == k1]
                seconds = [v for v in targets if self.kind_of(fn, v) == k2]
                if firsts and seconds and (a := r.choice(firsts)) != (b := r.choice(seconds)):
                    args = helper_args(hparams, [self.expr(fn, k, ed) for k in hparams])
                    return [f"{a}, {b} = {name}({args})"]
            a, b = r.choice(targets), r.choice(targets)
            if a == b:
                return [f"{a} = {self.expr(fn, self.kind_of(fn, a), ed)}"]
            if self.kind_of(fn, a) == self.kind_of(fn, b) and r.random() < 0.4:
                return [f"{a}, {b} = {b}, {a}"]
            if self.kind_of(fn, a) == self.kind_of(fn, b) == "int" and not self.mixed and r.random() < 0.3:
                return [f"{a}, {b} = divmod({self.expr(fn, 'int', ed)}, {self.expr(fn, 'int', ed)})"]
            return [f"{a}, {b} = {self.expr(fn, self.kind_of(fn, a), ed)}, "
                    f"{self.expr(fn, self.kind_of(fn, b), ed)}"]
        if kind == "pair":
            return self.pair_stmt(fn, depth, ed)
        if kind == "complex":
            z = r.choice(fn.complexes)
            return [r.choice([f"{z} = {self.complex_expr(fn, ed)}",
                              f"{z} = {z} * {z} + {self.complex_expr(fn, 1)}",
                              f"{z} += {self.complex_expr(fn, 1)}"])]
        if kind == "optional":
            o, k = r.choice(fn.optionals)
            return [r.choice([f"{o} = None", f"{o} = {self.expr(fn, k, ed)}",
                              f"{o} = {self.expr(fn, k, ed)} if {self.expr(fn, 'bool', 1)} else None",
                              f"{o} = None if {o} is None else {o}"])]
        if kind == "store" and r.random() < 0.2:
            return self.slice_store(fn, ed)
        if kind == "store":
            a, dt = r.choice(fn.arrays)
            k = "int" if dt == "int64" else r.choice(["float", "float", "int"])
            return [f"{a}[{self.index(fn, a, 1)}] = {self.expr(fn, k, ed)}"]
        if kind == "list":
            return self.list_stmt(fn, depth, ed)
        if kind == "array":
            return self.array_stmt(fn, ed)
        if kind == "region":
            return self.region_stmt(fn, depth)
        if kind == "if":
            return self.if_stmt(fn, depth)
        if kind == "for":
            return self.for_stmt(fn, depth)
        if kind == "while":
            return self.while_stmt(fn, depth)
        if kind == "twins":
            return self.twins(fn, depth)
        if kind == "jump":
            j = r.choice(["break", "continue"])
            return [f"if {self.expr(fn, 'bool', 2)}:", f"    {j}"] if r.random() < 0.8 or fn.lists else [j]
        # return
        ret = f"return {self.returned(fn, ed)}"
        # no dead code after it in a program with lists: son refuses lists merged there (listgen.py)
        return [f"if {self.expr(fn, 'bool', 2)}:", f"    {ret}"] if r.random() < 0.8 or fn.lists else [ret]

    def returned(self, fn: _Func, depth: int, kind=None) -> str:
        """What a ``return`` gives: a value of the function's kind (a complex number, a
        tuple of kinds, nested or of one, written as a tuple display)."""
        kind = fn.ret if kind is None else kind
        if kind == "complex":
            return self.complex_expr(fn, depth)
        if kind in LIST_RETURNS:
            return self.list_value(fn, LIST_RETURNS[kind], depth)
        if kind in ARRAY_RETURNS:
            return self.array_value(fn, kind, depth)
        if isinstance(kind, tuple):
            inner = ", ".join(self.returned(fn, depth, k) for k in kind)
            return f"({inner},)" if len(kind) == 1 else f"({inner})"
        return self.expr(fn, kind, depth)

    def kind_of(self, fn: _Func, v: str) -> str:
        for k, names in fn.vars.items():
            if v in names:
                return k
        raise AssertionError(v)

    def if_stmt(self, fn: _Func, depth: int) -> list[str]:
        r = self.rng
        cond = self.expr(fn, "bool", 2)
        if r.random() < 0.15 and not fn.lists:  # a dead branch the peephole or SCCP can prove
            cond = r.choice(["False", "1 > 2", "(3 * 0 != 0)", "True"])
        elif r.random() < 0.3 and fn.vars.get("int"):
            # an int tested against a value near a range limit: both arms refine it
            # (son/nodes/refine.py), and arithmetic on it there may or may not wrap
            v = r.choice(fn.vars["int"])
            lit = r.choice(INT_LITERALS) if r.random() < 0.6 else str(r.randint(-3, 3))
            cond = f"{v} {r.choice(['<', '<=', '>', '>=', '==', '!='])} {lit}"
        out = [f"if {cond}:"] + _indent(self.block(fn, depth - 1, r.randint(1, 3)))
        for _ in range(r.choice([0, 0, 1, 2])):
            out += [f"elif {self.expr(fn, 'bool', 2)}:"] + _indent(self.block(fn, depth - 1, r.randint(1, 2)))
        if r.random() < 0.6:
            out += ["else:"] + _indent(self.block(fn, depth - 1, r.randint(1, 2)))
        return out

    def twins(self, fn: _Func, depth: int) -> list[str]:
        """Two variables that stay equal (or a constant carried round a loop): what the
        combined analysis proves and the pessimistic peephole cannot."""
        r = self.rng
        j, k = self.fresh(fn, "t"), self.fresh(fn, "t")
        init = self.expr(fn, "int", 1)
        fn.loops += 1  # the step, the update and the test run every round
        step = self.expr(fn, "int", 1) if r.random() < 0.5 else str(r.randint(1, 3))
        v = r.choice(fn.mutable) if fn.mutable else None
        use = f"{v} = {self.expr(fn, self.kind_of(fn, v), 1)}" if v else "pass"
        head = [f"{j} = {init}", f"{k} = {init}"]
        body = self.fuel() + [f"{j} = {j} + {step}", f"if {j} != {k} + {step}:", f"    {use}",
                              f"{k} = {k} + {step}"]
        cond = self.expr(fn, "bool", 1)
        fn.loops -= 1
        out = head + [f"while {cond}:"] + _indent(body)
        fn.vars["int"].extend([j, k])  # readable afterwards: bound before the loop
        return out

    # ------------------------------------------------------------------ functions
    def helper(self, idx: int, recursive: bool = True, captured: str | None = None) -> list[str]:
        """Helper ``h<idx>``; it may call itself (with a smaller int) where ``recursive``;
        ``captured``: an int variable of the enclosing ``f`` it reads (a nested helper)."""
        r = self.rng
        params = [r.choice(["int", "int", "float", "bool"]) for _ in range(r.randint(1, 3))]
        ret = r.choice(["int", "float", "bool"])
        if r.random() < 0.35:  # a pair, unpacked where it is called: a, b = h(...)
            ret = (r.choice(["int", "float"]), r.choice(["int", "float"]))
        fn = _Func(ret)
        names = []
        for i, k in enumerate(params):
            names.append(f"q{i}")
            fn.vars[k].append(f"q{i}")
        lines = [f"def h{idx}({', '.join(helper_parameters(names, params))}):"]
        body = []
        if captured is not None:  # w9: a closure's read of f's value
            body.append(f"w9 = {captured}")
            if r.random() < 0.3:  # and a lambda in it reading f's value two levels in
                body.append(f"w9 = (lambda u9: u9 + {captured})(w9) - {captured}")
            fn.vars["int"].append("w9")
            fn.mutable.append("w9")
        for i, k in enumerate(params):
            if r.random() < 0.5:
                body.append(f"w{i} = q{i}")
                fn.vars[k].append(f"w{i}")
                fn.mutable.append(f"w{i}")
        share = 0.3 if recursive else 0.0
        body = self.recursion(fn, list(zip(names, params)), f"h{idx}", share) + body + ["fuel = 0"]
        self.budget = r.randint(1, 5)
        body += self.block(fn, 2, self.budget)
        body.append(f"return {self.returned(fn, 2)}")
        self.recursive = None
        self.helpers.append((f"h{idx}", params, ret))
        return lines + _indent(body)

    def main(self) -> tuple[list[str], list[tuple[str, str]]]:
        self.in_main = True
        r = self.rng
        ret = r.choice(["int", "int", "float", "float", "bool"])
        if r.random() < 0.08:  # results that are a Return.form: the kernel rebuilds them
            ret = r.choice(["complex", ("float", ("int", "complex")), ("bool",)])
        fn = _Func(ret)
        self.untyped = r.random() < 0.12  # unannotated scalars: unknown-kind ('number') parameters
        params: list[tuple[str, str]] = []
        counts = {"int": r.randint(0, 3), "float": r.randint(0, 2), "bool": r.randint(0, 1),
                  "float64": r.choice([0, 0, 1]), "int64": r.choice([0, 0, 1])}
        if not any(counts.values()):
            counts["int"] = 1
        prefix = {"int": "n", "float": "x", "bool": "p", "float64": "a", "int64": "b"}
        for k, c in counts.items():
            for i in range(c):
                params.append((f"{prefix[k]}{i}", k))
        r.shuffle(params)
        ann = {"int": "int", "float": "float", "bool": "bool", "float64": "np.ndarray",
               "int64": "npt.NDArray[np.int64]"}
        body = ["fuel = 0"]
        for name, k in params:
            if k in ("float64", "int64"):
                fn.arrays.append((name, k))
            else:
                fn.vars[k].append(name)
                if r.random() < 0.3:
                    fn.mutable.append(name)
        if self.nested:  # k9: bound once, before the nested helpers that read it (calling none)
            helpers, self.helpers = self.helpers, []
            body.append(f"k9 = {self.expr(fn, 'int', 1)}")
            self.helpers = helpers
            fn.vars["int"].append("k9")
            body += self.nested
        for i in range(r.randint(1, 4)):  # locals, each of one kind for its whole life
            k = r.choice(KINDS)
            v = f"v{i}"
            body.append(f"{v} = {self.expr(fn, k, 2)}")
            fn.vars[k].append(v)
            fn.mutable.append(v)
        body += self.pair_locals(fn)
        for i in range(r.choice([0, 0, 0, 1])):  # complex locals
            body.append(f"z{i} = {self.complex_expr(fn, 1)}")
            fn.complexes.append(f"z{i}")
        for i in range(r.choice([0, 0, 0, 1, 2])):  # locals that may be None
            k = r.choice(KINDS)
            body.append(f"o{i} = None" if r.random() < 0.6 else f"o{i} = {self.expr(fn, k, 1)}")
            fn.optionals.append((f"o{i}", k))
        if r.random() < 0.3:  # a constant a loop carries unchanged
            body.append(f"c0 = {r.randint(1, 9)}")
            fn.vars["int"].append("c0")
        if r.random() < 0.3:
            kind = r.choice(["zeros", "ones", "empty"])
            dt = r.choice(["float64", "int64"])
            length = r.choice([f"int({self.expr(fn, 'int', 1)}) % 7", str(r.randint(0, 5)), "-1"])
            dts = "" if dt == "float64" else ", dtype=np.int64"
            body.append(f"m0 = np.{kind}({length}{dts})")
            if kind == "empty":  # never read an uninitialised element
                fill = "0.5" if dt == "float64" else "3"
                body += ["for j0 in range(len(m0)):", f"    m0[j0] = {fill}"]
            fn.arrays.append(("m0", dt))
        body += self.list_locals(fn, body)
        body += self.recursion(fn, params)
        body += self.array_locals(fn)
        self.budget = r.randint(3, 14)
        if self.fn_param:  # callable in the body like the helper it stands for
            self.helpers.append(("fn0", *self.fn_param[1:]))
        body += self.block(fn, 3, self.budget)
        body.append(f"return {self.returned(fn, 2)}")
        self.recursive = None
        sig = ", ".join(n if self.untyped and k in ("int", "float") else f"{n}: {ann[k]}" for n, k in params)
        if self.fn_param:
            self.helpers.pop()
            sig += f", fn0={self.fn_param[0]}"
        self.in_main = False
        return [f"def f({sig}):"] + _indent(body), params

HEADER = ("import cmath\nimport functools\nimport math\nimport operator\n\nimport numpy as np\n"
          "import numpy.typing as npt\n")


def generate(seed: int, index: int, grad: bool = True) -> Program:
    """Program number ``index`` of the campaign with ``seed`` (deterministic); ``grad``:
    the mix for the gradient oracle, where a share ``GRAD_SHARE`` of the indices are
    gradient programs and the others are the programs of ``grad=False``."""
    rng = random.Random(f"son-fuzz:{seed}:{index}")
    g = _Gen(rng)
    parts = [HEADER]
    g.whole = not g.mixed and random.Random(f"son-fuzz-array:{seed}:{index}").random() < ARRAY_SHARE
    if grad and random.Random(f"son-fuzz-grad:{seed}:{index}").random() < GRAD_SHARE:
        g.mixed = False
        if rng.random() < 0.3:
            parts.append("\n".join(g.helper(0)) + "\n")
        lines, params = g.grad_main()
        parts.append("\n".join(lines) + "\n")
        return Program(seed, index, "\n\n".join(parts),
                       generate_args(rng, params, rng.randint(3, 5), grad=True))
    region_draw = random.Random(f"son-fuzz-region:{seed}:{index}").random()
    fallback = region_draw < REGION_SHARE
    # G0 and fn0 only where the draw is past any region share the tests set (regions never
    # read them), so a program without regions is the same whatever REGION_SHARE is
    plain = region_draw >= PLAIN_DRAW
    table = random.Random(f"son-fuzz-global:{seed}:{index}")
    if plain and table.random() < GLOBAL_SHARE:
        g.global_array = True
        values = ", ".join(float_literal(table.choice(FLOAT_ARGS)) for _ in range(GLOBAL_LENGTH))
        parts.append(f"G0 = np.array([{values}])\n")
    nested = not fallback and random.Random(f"son-fuzz-nested:{seed}:{index}").random() < NESTED_SHARE
    for h in range(rng.choice([0, 0, 1, 1, 2])):
        if nested:  # defined at the top of f's body, after the value it reads
            g.nested.extend(g.helper(h, captured="k9"))
        else:
            parts.append("\n".join(g.helper(h)) + "\n")
    g.fallback = fallback  # f's only: the helpers are written without regions
    if g.helpers and plain and not nested and \
            random.Random(f"son-fuzz-fnparam:{seed}:{index}").random() < FN_PARAM_SHARE:
        which = random.Random(f"son-fuzz-fnparam-which:{seed}:{index}")
        g.fn_param = g.helpers[which.randrange(len(g.helpers))]
    lines, params = g.main()
    parts.append(g.fallback_header() + g.array_helpers + "\n".join(lines) + "\n")
    args = generate_args(rng, params, rng.randint(3, 5))
    return Program(seed, index, "\n\n".join(parts), common_lengths(rng, args) if g.whole else args)
