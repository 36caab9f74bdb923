"""The documented deviations of son from CPython, as hooks an instrumented copy of a
program calls (``instrument``): the expected outcome the oracle (oracle.py) compares
every stage against is CPython's on that copy.  Each entry of ``DEVIATIONS`` is a small
named hook with the entry of docs/decisions.md or DESIGN.md it implements.

Cost: the instrumented copy runs at CPython's speed plus one hook call per operation
it wraps."""

from __future__ import annotations

import ast
import builtins
import math
import operator

import numpy as np

from .products import documented_einsum, documented_product

INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1

#: the comparison operators ``_Runtime.compare`` evaluates, by ``ast`` class name
_COMPARE = {"Eq": operator.eq, "NotEq": operator.ne, "Lt": operator.lt, "LtE": operator.le,
            "Gt": operator.gt, "GtE": operator.ge}


class _Runtime:
    """Hooks the instrumented CPython copy calls; ``wraps`` counts int64 wrap-arounds,
    ``nonfinite`` the float intermediates that were inf or NaN (what makes a point
    singular for the gradient oracle, ``son.fuzz.grad``), ``peak`` the largest
    magnitude of a finite float operator result (the scale of the rounding errors two
    ways of summing the same derivative terms may differ by), ``coarse`` the float
    ``//``, ``%`` and ``fmod`` whose steps are finer than a finite difference's stencil
    (``check_coarse``): there the stencil sees the quotient's slope, or a sawtooth,
    where son's documented derivatives are those of the pieces (son.grad.rules)."""

    def __init__(self):
        self.wraps = 0
        self.nonfinite = 0
        self.peak = 0.0
        self.coarse = 0

    def wrap(self, v):
        """DESIGN.md, Semantics: ``int`` is int64 with two's-complement wrap-around."""
        if type(v) is int and not INT64_MIN <= v <= INT64_MAX:
            self.wraps += 1
            v = (v - INT64_MIN) % 2 ** 64 + INT64_MIN
        elif type(v) is float:
            if not math.isfinite(v):
                self.nonfinite += 1
            elif abs(v) > self.peak:
                self.peak = abs(v)
        return v

    @staticmethod
    def product(name: str, a, b):
        """``np.dot(a, b)`` and the others as son computes them; a number as a Python
        scalar (decisions.md, as numpy's reductions)."""
        v = documented_product(name, a, b)
        return v.item() if isinstance(v, np.generic) else v

    @staticmethod
    def einsum(subscripts: str, *operands):
        """``np.einsum`` as son computes it (products.py); a number as a Python scalar."""
        v = documented_einsum(subscripts, *operands)
        return v.item() if isinstance(v, np.generic) else v

    def seen(self, v):
        """Count a non-finite float (a call's result or a constant such as ``math.inf``)."""
        if type(v) is float and not math.isfinite(v):
            self.nonfinite += 1
        return v

    def binop(self, op: str, a, b):
        if op == "<<" and type(a) is int and type(b) is int and b >= 64:
            return 0  # a * 2**b is 0 modulo 2**64: no need to build the huge int
        if op == "**" or (op == "**-" and isinstance(a, np.ndarray)):
            return self.power(a, b)  # an array to a negative power: numpy's ValueError for ints
        if op == "**-":  # a constant negative int exponent: float(a) ** b, as CPython
            return self.power(a if type(a) is complex else float(a), b)
        if op in ("//", "%"):
            self.check_coarse(a, b)
        return self.wrap(_BINOPS[op](a, b))

    def check_coarse(self, a, b) -> None:
        """Count a float ``a // b``, ``a % b`` or ``fmod(a, b)`` whose steps no finite
        difference resolves: a quotient beyond 2**52 (every such float is an integer,
        so flooring is the identity) or a divisor below a thousandth of ``a`` (the
        sawtooth's period is within the stencil)."""
        if float in (type(a), type(b)) and np.ndarray not in (type(a), type(b)) and b \
                and math.isfinite(a) and math.isfinite(b) \
                and (abs(a / b) >= 2.0 ** 52 or abs(b) < 1e-3 * max(1.0, abs(a))):
            self.coarse += 1

    def compare(self, op: str, a, b):
        """``a op b``; a float compared with an equal value is a tie, where the branch it
        decides switches under any perturbation: the derivatives son gives are those of
        the branch taken (JAX's too), finite differences may see the other side's, so
        it counts as ``coarse`` (``x if x != y else y`` at ``x == y`` is ``x``
        everywhere, with slope 1 in x, where the branch taken has slope 0)."""
        if float in (type(a), type(b)) and np.ndarray not in (type(a), type(b)) and a == b:
            self.coarse += 1
        return _COMPARE[op](a, b)

    def fmod(self, fn, a, b):
        self.check_coarse(a, b)
        return self.seen(fn(a, b))

    def periodic(self, fn, x):
        """``sin``/``cos``/``tan`` (period 2pi, pi) or ``gamma``/``lgamma`` of a negative
        argument (a pole at every integer): coarse where the period is below a thousandth
        of ``x``, as ``check_coarse`` says of ``%`` (the stencil then spans whole periods
        and sees an average slope: seed 44125 i1862, ``lgamma(2**32 / x)``)."""
        name = getattr(fn, "__name__", "")
        period = {"sin": 2 * math.pi, "cos": 2 * math.pi, "tan": math.pi}.get(name)
        if period is None and name in ("gamma", "lgamma") and type(x) is float and x < 0:
            period = 1.0
        if period is not None and type(x) in (int, float) and math.isfinite(x) \
                and period < 1e-3 * abs(x):
            self.coarse += 1
        return self.seen(fn(x))

    def power(self, a, b):
        """decisions.md: ``int ** negative int`` met at run time and a negative float to a
        fractional power raise NotImplementedError (CPython: a float, a complex number)."""
        if complex in (type(a), type(b)) or np.ndarray in (type(a), type(b)):
            return a ** b  # CPython's complex power (son: constant integer exponents only), numpy's
        ints = type(a) in (int, bool) and type(b) in (int, bool)
        if ints:
            if b < 0:
                raise NotImplementedError("negative int exponent")
            return self.wrap(pow(a, b, 2 ** 64))
        if a < 0 and math.isfinite(a) and math.isfinite(b) and b != math.floor(b):
            raise NotImplementedError("complex result")  # before CPython's complex pow can overflow
        return a ** b

    def inplace(self, op: str, a, b):
        """``a op= b``: a list changes in place (``+=`` extends it by any iterable, an
        array's items read as ``iterable`` reads them), an array too (numpy's in-place
        ufunc); anything else is ``a = a op b``."""
        if type(a) is np.ndarray:
            return _INPLACE[op](a, b)
        if type(a) is list:
            return _INPLACE[op](a, self.iterable(b) if op == "+" else b)
        return self.binop(op, a, b)

    def item_inplace(self, op: str, obj, key, value):
        """``obj[key] op= value()``: the element is read before the value is evaluated,
        as CPython does; a list's element wraps as an int64 (an array wraps its own).
        The thunk makes a local of the function a free variable: reading it unbound is
        NameError there, where the program itself raises UnboundLocalError."""
        old = obj[key]
        try:
            new = value()
        except NameError as e:
            if type(e) is NameError and "free variable" in str(e):
                raise UnboundLocalError(str(e)) from None
            raise
        obj[key] = self.binop(op, old, new) if type(obj) is list else _INPLACE[op](old, new)

    def neg(self, a):
        return self.wrap(-a)

    def fold(self, op: str, xs, start):
        """``sum(xs, start)`` and ``math.prod(xs, start=start)``: a left fold of the
        operator, each step wrapping as the operator does."""
        acc = start
        for x in xs:
            acc = self.binop(op, acc, x)
        return acc

    def abs(self, a):
        """decisions.md: ``abs`` of a complex number with a NaN part and no infinite
        part is NaN (CPython may raise OverflowError on a stale ``errno`` there)."""
        if type(a) is complex and not math.isinf(a.real) and not math.isinf(a.imag) \
                and (math.isnan(a.real) or math.isnan(a.imag)):
            return math.nan
        return self.wrap(abs(a))

    def to_int(self, v):
        """decisions.md: ``int(x)`` (and floor/ceil/trunc) of a float outside int64 raises
        OverflowError."""
        r = int(v)
        if not INT64_MIN <= r <= INT64_MAX:
            raise OverflowError("beyond int64")
        return r

    def int_valued(self, fn):
        """``fn`` (``math.floor`` passed as a value) with its result through ``to_int``."""
        return lambda v: self.to_int(fn(v))

    def item(self, v):
        """decisions.md: an array element is read as a Python scalar (as Numba does)."""
        return self.seen(v.item() if isinstance(v, np.generic) else v)

    def iterable(self, v):
        """decisions.md: an array iterated gives its elements as Python scalars too, each
        read when the iteration reaches it (a write in the loop's body is seen)."""
        return _Items(v, self) if isinstance(v, np.ndarray) else v


class _Items:
    """An array as son iterates it: CPython's sequence protocol, elements through
    ``_Runtime.item``."""

    def __init__(self, a: np.ndarray, rt: _Runtime):
        self.a, self.rt = a, rt

    def __len__(self):
        return len(self.a)

    def __getitem__(self, i):
        return self.rt.item(self.a[i])

    def __iter__(self):
        for i in range(len(self.a)):
            yield self.rt.item(self.a[i])


#: documented deviation -> the _Runtime hook that implements it
DEVIATIONS = {
    "int64 wrap-around": "wrap",
    "int ** negative int raises NotImplementedError": "power",
    "negative float ** fractional raises NotImplementedError": "power",
    "int(float) outside int64 raises OverflowError": "to_int",
    "math.floor/ceil/trunc, int and round as values: their int results checked too": "int_valued",
    "array elements are Python scalars": "item",
    "array elements iterated are Python scalars": "iterable",
    "abs of a complex NaN is NaN, never a stale-errno OverflowError": "abs",
    "list elements wrap as int64": "item_inplace",
}

_BINOPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
           "//": operator.floordiv, "%": operator.mod, "<<": operator.lshift, ">>": operator.rshift,
           "&": operator.and_, "|": operator.or_, "^": operator.xor, "**": operator.pow,
           "@": lambda a, b: _Runtime.product("matmul", a, b)}
_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
        ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
        ast.Pow: "**", ast.MatMult: "@"}
_INPLACE = {"+": operator.iadd, "-": operator.isub, "*": operator.imul, "/": operator.itruediv,
            "//": operator.ifloordiv, "%": operator.imod, "<<": operator.ilshift, ">>": operator.irshift,
            "&": operator.iand, "|": operator.ior, "^": operator.ixor, "**": operator.ipow}
#: calls rewritten to a hook: dotted name -> hook (``int(x)`` becomes ``to_int(x)``, the
#: others keep their call inside the hook: ``to_int(math.floor(x))``)
_CALL_HOOKS = {"abs": "abs", "int": "to_int", "round": "to_int", "math.floor": "to_int",
               "math.ceil": "to_int",
               "math.trunc": "to_int", "math.fmod": "fmod", "np.fmod": "fmod",
               "math.factorial": "wrap", "math.lcm": "wrap", "math.gcd": "wrap", "math.comb": "wrap",
               "math.perm": "wrap",
               **dict.fromkeys(("math.sin", "math.cos", "math.tan", "np.sin", "np.cos", "np.tan",
                                "math.gamma", "math.lgamma"), "periodic")}


#: numpy's products, computed as son documents them (son/fuzz/products.py)
_PRODUCTS = ("np.dot", "np.matmul", "np.inner", "np.vdot")


def _int_valued_arguments(call: ast.Call, shadowed: frozenset = frozenset()) -> None:
    """``int`` and ``round`` passed as values (``key=int``, ``map(round, xs)``) give son's
    int64 results, checked as their calls are: ``to_int`` and ``int_valued(round)``
    (not where the program binds the name itself: ``shadowed``)."""
    def hooked(e: ast.expr) -> ast.expr:
        if isinstance(e, ast.Name) and isinstance(e.ctx, ast.Load) and e.id in ("int", "round") \
                and e.id not in shadowed:
            if e.id == "int":
                return ast.copy_location(ast.Attribute(ast.Name("__rt", ast.Load()), "to_int", ast.Load()), e)
            return _hook("int_valued", e)
        return e

    if _is_hook(call) or ast.unparse(call.func) in ("isinstance", "issubclass"):
        return
    if isinstance(call.func, ast.Attribute) and call.func.attr == "astype":
        return  # a.astype(int): int is a dtype there, numpy's int64
    call.args = [hooked(a) for a in call.args]
    for k in call.keywords:
        if k.arg != "dtype":
            k.value = hooked(k.value)


def _negative_int_constant(e: ast.expr) -> bool:
    """Is ``e`` an expression of int literals only (son folds it while parsing) whose
    value is negative?  ``a ** -1`` is then CPython's ``float(a) ** -1`` in son too."""
    if any(isinstance(x, (ast.Name, ast.Call, ast.Attribute, ast.Subscript)) for x in ast.walk(e)):
        return False
    try:
        v = eval(compile(ast.Expression(e), "<exponent>", "eval"), {})  # noqa: S307 - literals only
    except Exception:  # noqa: BLE001 - not a constant son folds
        return False
    return type(v) is int and v < 0


#: ``operator`` functions of one arithmetic operator -> its ast class
_OPERATOR_CALLS = {"add": ast.Add, "sub": ast.Sub, "mul": ast.Mult, "truediv": ast.Div,
                   "floordiv": ast.FloorDiv, "mod": ast.Mod, "pow": ast.Pow, "lshift": ast.LShift,
                   "rshift": ast.RShift, "and_": ast.BitAnd, "or_": ast.BitOr, "xor": ast.BitXor,
                   "neg": ast.USub}


def _hook(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(ast.Attribute(ast.Name("__rt", ast.Load()), name, ast.Load()), list(args), [])


class _Instrument(ast.NodeTransformer):
    """Rewrites int-producing operators, casts and array reads into ``_Runtime`` hooks;
    with ``track``, also every other call's result and every ``math.*`` constant go
    through ``seen`` (operators and array reads always count non-finite floats)."""

    def __init__(self, track: bool = False, shadowed: frozenset = frozenset()):
        self.track = track
        #: names the program binds itself (``from numpy import round``): not the builtins
        self.shadowed = shadowed

    def visit_BinOp(self, node):
        negative = isinstance(node.op, ast.Pow) and _negative_int_constant(node.right)
        self.generic_visit(node)
        op = "**-" if negative else _OPS[type(node.op)]
        return _hook("binop", ast.Constant(op), node.left, node.right)

    def visit_Compare(self, node):
        """With ``track``, ``a < b`` (one operator of an order or equality) becomes
        ``__rt.compare('Lt', a, b)``, which counts a tie between floats.  The container of
        ``in`` is iterated as son iterates arrays."""
        self.generic_visit(node)
        node.comparators = [_hook("iterable", c) if isinstance(op, (ast.In, ast.NotIn)) else c
                            for op, c in zip(node.ops, node.comparators)]
        if not self.track or len(node.ops) != 1 or type(node.ops[0]).__name__ not in _COMPARE:
            return node
        return _hook("compare", ast.Constant(type(node.ops[0]).__name__), node.left, node.comparators[0])

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.USub):
            return _hook("neg", node.operand)
        return node

    def visit_AugAssign(self, node):
        """``v op= x`` becomes ``v = __rt.inplace(op, v, x)`` (a list changes in place);
        ``xs[i] op= x`` becomes ``__rt.item_inplace(op, xs, i, lambda: x)``."""
        self.generic_visit(node)
        op = ast.Constant(_OPS[type(node.op)])
        t = node.target
        if isinstance(t, ast.Subscript) and not isinstance(t.slice, ast.Slice):
            thunk = ast.Lambda(ast.arguments([], [], None, [], [], None, []), node.value)
            return ast.copy_location(ast.Expr(_hook("item_inplace", op, t.value, t.slice, thunk)), node)
        if not isinstance(t, ast.Name):
            return node
        # the statement's own lines (``reached_lines``), not the enclosing function's span
        value = _hook("inplace", op, ast.Name(t.id, ast.Load()), node.value)
        return ast.copy_location(ast.Assign([t], value), node)

    def visit_For(self, node):
        self.generic_visit(node)
        node.iter = _hook("iterable", node.iter)
        return node

    def visit_comprehension(self, node):
        self.generic_visit(node)
        node.iter = _hook("iterable", node.iter)
        return node

    def visit_Call(self, node):
        if isinstance(node.func, ast.Name) and node.func.id in self.shadowed:  # not a builtin's call
            self.generic_visit(node)
            return _hook("seen", node) if self.track else node
        func = ast.unparse(node.func)
        iterated = _ITERATED.get(func)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "extend":  # xs.extend(array)
            iterated = _ITERATED["list"]
        if iterated is not None and not (func in ("min", "max") and len(node.args) != 1):
            node.args = [_hook("iterable", a) if iterated(i) else a for i, a in enumerate(node.args)]
        if func.startswith("operator.") and func[9:] in _OPERATOR_CALLS and not node.keywords:
            # operator.add(a, b) is a + b: instrumented as the operator (its int64 wrap)
            op = _OPERATOR_CALLS[func[9:]]()
            if isinstance(op, ast.unaryop):
                expr = ast.UnaryOp(op, *node.args)
            else:
                expr = ast.BinOp(node.args[0], op, node.args[1])
            return self.visit(ast.copy_location(expr, node))
        _int_valued_arguments(node, self.shadowed)
        self.generic_visit(node)
        method = isinstance(node.func, ast.Attribute) and node.func.attr in _NP_METHODS \
            and getattr(node.func.value, "id", None) not in ("np", "math", "operator")
        if method and node.func.attr == "dot" and len(node.args) == 1 and not node.keywords:
            return _hook("product", ast.Constant("dot"), node.func.value, node.args[0])  # a.dot(b)
        if func in _NP_SCALARS or method:
            return _hook("item", node)  # decisions.md: numpy's reductions give Python scalars
        hook = _CALL_HOOKS.get(func)
        if func in ("sum", "math.prod") and len(node.args) in (1, 2):
            start = (node.args[1:] + [k.value for k in node.keywords if k.arg == "start"]
                     or [ast.Constant(0 if func == "sum" else 1)])[0]
            return _hook("fold", ast.Constant("+" if func == "sum" else "*"), node.args[0], start)
        if hook == "abs":
            return _hook("abs", *node.args)
        if hook == "wrap":  # an int function whose exact result may leave int64
            return _hook("wrap", node)
        if hook == "fmod" and len(node.args) == 2:
            return _hook("fmod", node.func, *node.args)
        if hook == "periodic" and len(node.args) == 1 and not node.keywords:
            return _hook("periodic", node.func, node.args[0])
        if func == "round" and len(node.args) + len(node.keywords) == 2:
            return _hook("wrap", node)  # round(x, ndigits): x's kind; an int's multiple may wrap
        if func in _PRODUCTS and len(node.args) == 2 and not node.keywords:
            return _hook("product", ast.Constant(func[3:]), *node.args)
        if func == "np.einsum" and node.args and isinstance(node.args[0], ast.Constant) and not node.keywords:
            return _hook("einsum", *node.args)
        if hook == "to_int":
            inner = node if func != "int" else node.args[0]
            return _hook("to_int", inner)
        return _hook("seen", node) if self.track and not _is_hook(node) else node

    def visit_Name(self, node):
        """``abs`` passed as a value (``key=abs``, ``map(abs, t)``) is the hook too: its
        result wraps as son's int64 ``abs`` does (a call ``abs(x)`` is hooked in
        ``visit_Call``)."""
        if node.id == "abs" and isinstance(node.ctx, ast.Load):
            return ast.copy_location(ast.Attribute(ast.Name("__rt", ast.Load()), "abs", ast.Load()), node)
        return node

    def visit_Attribute(self, node):
        """``math.floor``/``ceil``/``trunc`` as values (``key=math.floor``) are ``to_int`` of
        themselves too, as their calls are (``visit_Call``)."""
        self.generic_visit(node)
        if isinstance(node.ctx, ast.Load) and getattr(node.value, "id", None) == "math" \
                and node.attr in ("floor", "ceil", "trunc"):
            return _hook("int_valued", node)
        if self.track and isinstance(node.ctx, ast.Load) and getattr(node.value, "id", None) == "math" \
                and node.attr in ("inf", "nan"):
            return _hook("seen", node)
        return node

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if isinstance(node.ctx, ast.Load):
            return _hook("item", node)
        return node


#: numpy reductions whose results son reads as Python scalars, as functions and methods
_NP_SCALARS = ("np.sum", "np.argmax", "np.argmin", "np.any", "np.all", "np.mean", "np.max", "np.min",
               "np.amax", "np.amin", "np.prod", "np.var", "np.std", "np.median", "np.count_nonzero",
               "np.searchsorted", "np.trace", "np.ptp", "np.average", "np.polyval", "np.isclose",
               "np.allclose", "np.round", "np.around", "np.sign", "np.square", "np.negative",
               "np.linalg.norm", "np.interp", "np.percentile", "np.quantile", "np.nanvar", "np.nanstd",
               "np.nansum", "np.nanmean", "np.nanmax", "np.nanmin", "np.trapezoid", "np.take")
_NP_METHODS = ("sum", "argmax", "argmin", "any", "all", "mean", "max", "min", "prod", "var", "std", "dot",
               "searchsorted", "trace")

#: calls that iterate their arguments -> which positional ones
_ITERATED = {"enumerate": lambda i: i == 0, "zip": lambda i: True, "reversed": lambda i: i == 0,
             "sum": lambda i: i == 0, "math.prod": lambda i: i == 0, "min": lambda i: i == 0,
             "max": lambda i: i == 0, "any": lambda i: i == 0, "all": lambda i: i == 0,
             "map": lambda i: i > 0, "functools.reduce": lambda i: i == 1, "list": lambda i: i == 0,
             "sorted": lambda i: i == 0, "iter": lambda i: i == 0}


def _is_hook(node: ast.Call) -> bool:
    return isinstance(node.func, ast.Attribute) and getattr(node.func.value, "id", None) == "__rt"


def instrument(source: str, track: bool = False) -> ast.Module:
    """The program's syntax tree with son's documented semantics as calls of ``__rt``
    hooks (``ast.unparse`` shows it); ``track``: count every non-finite float
    intermediate in ``_Runtime.nonfinite``."""
    tree = ast.parse(source)
    return ast.fix_missing_locations(_Instrument(track, _bound_names(tree)).visit(tree))


def _bound_names(tree: ast.Module) -> frozenset:
    """The builtins' names the program binds itself (imports, definitions, assignments,
    parameters): not the builtins there (``from numpy import round``)."""
    out = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in n.names)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(n.name)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
        elif isinstance(n, ast.arg):
            out.add(n.arg)
    return frozenset(out & set(dir(builtins)))


# ====================================================================== outcomes
