"""Control-flow nodes: Start, Region, Loop, If, CProj, Return, Raise, Stop, XCtrl,
and the data nodes pinned to a Region: Phi, and Start's data projections.

Layout (Click's convention):
  Start()                         type (ctrl, mem, arg0, arg1, ...)
  CProj(src, i)                   control projection: Start's ctrl (0), If's true (0) / false (1)
  Proj(start, i, name)            data projection: memory (1) or argument (2+k)
  Region(None, c1, ..., ck)       merge; ``inputs[0]`` is None so a Phi's i-th value
  Loop(None, entry, back)         matches the Region's i-th control input
  Phi(region, v1, ..., vk)
  If(ctrl, pred)                  type (true?, false?) as a tuple of CTRL/XCTRL
  Return(ctrl, mem, v1, ..., vk), Raise(ctrl, mem)   (exception class in the payload)
  Stop(r1, ..., rk)               gathers Returns and Raises
  XCtrl(start)                    the dead-control constant
"""

from __future__ import annotations

import re

import numpy as np

from .node import Node
from .rows import columns, rows, rows_arity
from .types import (
    BOOL,
    BOTTOM,
    CTRL,
    IF_BOTH,
    IF_FALSE,
    IF_NEITHER,
    IF_TRUE,
    MEM,
    TOP,
    XCTRL,
    TupleType,
    Type,
)


class CFGNode(Node):
    __slots__ = ()
    is_cfg = True
    is_gvn = False

    def compute(self) -> Type:
        c = self.inputs[0]
        return c.type if c is not None else XCTRL

    def eval(self, *values):
        raise TypeError(f"{self.label} is control, not a value")


class Start(CFGNode):
    __slots__ = ("arg_types",)

    def __init__(self, graph, arg_types):
        self.arg_types = tuple(arg_types)
        super().__init__(graph)

    def payload(self):
        return (self.arg_types,)

    def compute(self) -> Type:
        return TupleType((CTRL, MEM, *self.arg_types))


class CProj(CFGNode):
    """A control projection of a multi-valued CFG node (Start or If)."""

    __slots__ = ("index",)

    def __init__(self, graph, src, index: int):
        self.index = index
        super().__init__(graph, src)

    def payload(self):
        return (self.index,)

    @property
    def label(self) -> str:
        if isinstance(self.inputs[0], If):
            return "True" if self.index == 0 else "False"
        return "Ctrl"

    def compute(self) -> Type:
        t = self.inputs[0].type
        if t is TOP:
            return XCTRL
        if isinstance(t, TupleType):
            return t.elems[self.index]
        return BOTTOM


class Proj(Node):
    """A data projection of Start: memory (index 1) or an argument (index 2+k)."""

    __slots__ = ("index", "name")

    def __init__(self, graph, src, index: int, name: str):
        self.index = index
        self.name = name
        super().__init__(graph, src)

    def payload(self):
        return (self.index, self.name)

    @property
    def label(self) -> str:
        return self.name

    def compute(self) -> Type:
        t = self.inputs[0].type
        if isinstance(t, TupleType):
            return t.elems[self.index]
        return TOP if t is TOP else BOTTOM


class Region(CFGNode):
    """A control merge. ``inputs[0]`` is None; inputs 1.. are predecessors."""

    __slots__ = ()

    def __init__(self, graph, *preds):
        super().__init__(graph, None, *preds)

    def compute(self) -> Type:
        for c in self.inputs[1:]:
            if c is not None and c.type is CTRL:
                return CTRL
        return XCTRL

    def phis(self) -> list[Phi]:
        return [u for u in self.outputs if type(u) is Phi]

    @property
    def building(self) -> bool:
        """True while a predecessor is still missing (a Loop before its back edge)."""
        return any(c is None for c in self.inputs[1:])


class Loop(Region):
    """A loop header: ``inputs = [None, entry, back_edge]``."""

    __slots__ = ()

    def __init__(self, graph, entry, back=None):
        CFGNode.__init__(self, graph, None, entry, back)

    def compute(self) -> Type:
        # Control reaches a loop only through its entry.
        return self.inputs[1].type if self.inputs[1].type is CTRL else XCTRL

    @property
    def entry(self) -> Node:
        return self.inputs[1]

    @property
    def back(self) -> Node | None:
        return self.inputs[2]


class If(CFGNode):
    __slots__ = ()

    def __init__(self, graph, ctrl, pred):
        super().__init__(graph, ctrl, pred)

    @property
    def pred(self) -> Node:
        return self.inputs[1]

    def compute(self) -> Type:
        if self.inputs[0].type is not CTRL:
            return IF_NEITHER
        p = self.inputs[1].type
        if p is TOP:
            return IF_NEITHER
        if p.is_constant and p.kind is not None:
            return IF_TRUE if p.con else IF_FALSE
        return IF_BOTH

    def proj(self, index: int) -> CProj | None:
        for u in self.outputs:
            if type(u) is CProj and u.index == index:
                return u
        return None


class Return(CFGNode):
    """``Return(ctrl, mem, v1, ..., vk)``: the function returns ``v1`` when k == 1 and the
    tuple ``(v1, ..., vk)`` otherwise (derivative graphs return several values).  Every
    Return of a graph has the same number of values.

    ``form`` (None for those two) is the shape of a result the values only flatten: a
    complex number, a range, a tuple nested in the result, a tuple of one; ``rebuild``
    makes the Python value from the values (son.frontend.statements writes it)."""

    __slots__ = ("form",)

    def __init__(self, graph, ctrl, mem, *values, form=None):
        self.form = form
        super().__init__(graph, ctrl, mem, *values)

    def payload(self):
        return (self.form,)

    @property
    def values(self) -> list[Node]:
        return self.inputs[2:]

    @property
    def value(self) -> Node:
        """The returned value of a single-value Return."""
        if len(self.inputs) != 3:
            raise TypeError(f"{self!r} returns {len(self.inputs) - 2} values; read .values")
        return self.inputs[2]


class Raise(CFGNode):
    """Raise ``exc(message)``: how every runtime fault is made explicit."""

    __slots__ = ("exc", "message")

    def __init__(self, graph, ctrl, mem, exc: type, message: str):
        self.exc = exc
        self.message = message
        super().__init__(graph, ctrl, mem)

    def payload(self):
        return (self.exc, self.message)

    @property
    def label(self) -> str:
        return f"Raise {self.exc.__name__}"


class Stop(CFGNode):
    __slots__ = ()

    def compute(self) -> Type:
        return CTRL


class XCtrl(CFGNode):
    """Dead control: the constant that unreachable paths hang from."""

    __slots__ = ()
    is_gvn = True

    def compute(self) -> Type:
        return XCTRL


class Phi(Node):
    """``Phi(region, v1, ..., vk)``: vi flows in when control arrives by input i.

    While a loop body is parsed its back-edge value is None and ``assumed`` is
    the type the frontend assumes for it (the entry's kind, widened if a first
    attempt proved that wrong); it is unused once the loop is closed.
    """

    __slots__ = ("assumed",)

    def __init__(self, graph, region, *values, assumed: Type | None = None):
        self.assumed = assumed
        super().__init__(graph, region, *values)

    @property
    def region(self) -> Region:
        return self.inputs[0]

    def compute(self) -> Type:
        r = self.inputs[0]
        t = TOP
        for c, v in zip(r.inputs[1:], self.inputs[1:]):
            if c is not None and c.type is XCTRL:
                continue  # values on dead paths do not count
            if v is None:  # a loop phi before its back edge
                a = self.assumed if self.assumed is not None else self.inputs[1].type.widen()
                t = t.meet(a)
                continue
            t = t.meet(v.type)
        return t

    def eval(self, *values):
        raise TypeError("Phi takes its value from the path taken")


class Never(Node):
    """The predicate of the exit that Click adds to an infinite loop so that Stop
    still reaches it: typed as an unknown bool, it is false at run time."""

    __slots__ = ()

    def __init__(self, graph):
        super().__init__(graph, None)

    @property
    def label(self) -> str:
        return "never"

    def compute(self) -> Type:
        return BOOL

    def eval(self):
        return False


#: leaves of a Return's ``form``: one value, or the values a complex (2) or range (3) takes,
#: or a value that may be None (its is-None flag and its value)
LEAF, COMPLEX, RANGE, OPTIONAL = 0, "complex", "range", "optional"
#: a parameter given None: no value in the graph, which reads the constant None
NONE_ARG = "none"


def array_form(ndim: int) -> str:
    """The form of an n-D array parameter (C-contiguous): its elements as a 1-D array,
    then its ``ndim`` dimensions."""
    return f"array{ndim}"


def grid_form(ndim: int) -> str:
    """The form of a returned n-D array or view: a 1-D base array, the index of the first
    element in it, ``ndim`` dimensions, then ``ndim`` strides (in elements)."""
    return f"grid{ndim}"


def form_ndim(form) -> int | None:
    """The number of dimensions of an ``array_form`` or a ``grid_form``, else None."""
    m = re.fullmatch(r"(?:array|grid)(\d)", form) if isinstance(form, str) else None
    return int(m.group(1)) if m else None


class KindedTuple(tuple):
    """A tuple that stands for a value of one Python kind (``kind``: a slice's three
    parts), never equal to a plain tuple nor to another kind's, so that what is built for
    one is never taken for the other."""

    kind = ""

    def __eq__(self, other):
        return type(other) is type(self) and tuple.__eq__(self, other)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((self.kind, *self))

    def __repr__(self):
        return f"{self.kind}{tuple.__repr__(self)}"


class SliceForm(KindedTuple):
    """The form of a slice parameter: its start, stop and step, each ``LEAF`` (an int) or
    ``NONE_ARG`` (None); a tuple of forms for what counts values (``form_size``)."""

    kind = "slice"


class FunctionForm:
    """The form of a parameter that is a function (``integrate(f, a, b, n)`` called with
    a helper): the graph is specialized for that function, bound as a constant function
    value where the parameter is read, and the argument carries no value to the graph.
    ``digest`` names the function and its code (``function_digest``): an argument of
    another digest is refused, never run as the function the graph was built for.  Its
    ``repr`` is the digest's, so a kernel's source keeps it (``flatten`` reads either)."""

    __slots__ = ("fn", "digest")

    def __init__(self, fn):
        self.fn = fn
        self.digest = function_digest(fn)

    def __eq__(self, other) -> bool:
        return isinstance(other, FunctionForm) and other.fn is self.fn

    def __hash__(self) -> int:
        return hash(self.digest)

    def __repr__(self) -> str:
        return repr(self.digest)


#: prefix of a ``FunctionForm``'s digest
_FN = "function "


def function_digest(fn) -> str:
    """``'function <module>.<qualname> <hash>'``: the hash covers what the function
    computes with (its bytecode, constants, names, defaults and the values it captures),
    so two functions of one name but other bodies or closures differ.  A numba or son
    dispatcher is its ``py_func``.  O(size of the code); cached on a function that
    captures nothing, for as long as its code and defaults are the same objects."""
    import hashlib

    f = getattr(fn, "py_func", fn)
    code = getattr(f, "__code__", None)
    cached = getattr(f, "__son_digest__", None)
    if cached is not None and cached[0] is code and cached[1] is f.__defaults__ \
            and cached[2] is f.__kwdefaults__:
        return cached[3]
    name = f"{getattr(f, '__module__', None) or ''}.{getattr(f, '__qualname__', None) or type(f).__name__}"
    if code is None:  # a builtin, a class, a callable object: its name and type are all it is
        return f"{_FN}{name} {type(f).__name__}"
    cells = []
    for c in f.__closure__ or ():
        try:
            cells.append(repr(c.cell_contents))
        except ValueError:  # a cell not yet filled
            cells.append("<empty>")
    text = repr((_code_text(code), cells, f.__defaults__, f.__kwdefaults__))
    digest = f"{_FN}{name} {hashlib.sha1(text.encode()).hexdigest()[:16]}"
    if not f.__closure__:  # a captured value may be rebound: hashed again at each call
        try:
            f.__son_digest__ = (code, f.__defaults__, f.__kwdefaults__, digest)
        except (AttributeError, TypeError):
            pass
    return digest


class GlobalForm:
    """The form of a parameter the graph takes from a module's global, an array the
    function reads (``TABLE[i]`` with ``TABLE = np.array(...)`` at module level): the
    caller passes nothing for it, each call reads ``namespace[name]`` then, as CPython
    reads the global at each call, and passes the array itself (writes reach it).
    ``form`` is the value's own (``LEAF`` for a 1-D array, ``array_form(ndim)``),
    ``dtype`` and ``ndim`` what the graph was built for: another value is a ``SonError``."""

    __slots__ = ("name", "namespace", "form", "dtype", "ndim")

    def __init__(self, name: str, namespace: dict, form, dtype: str, ndim: int):
        self.name, self.namespace, self.form, self.dtype, self.ndim = name, namespace, form, dtype, ndim

    def key(self) -> tuple:
        return id(self.namespace), self.name

    def __eq__(self, other) -> bool:
        return isinstance(other, GlobalForm) and other.key() == self.key() and other.form == self.form

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return repr(f"global {self.name}")

    def value(self, where: str):
        """The global's value now, checked against what the graph was built for."""
        from ..errors import SonError

        v = self.namespace.get(self.name)
        if type(v) is not np.ndarray or v.ndim != self.ndim or v.dtype.name != self.dtype:
            what = f"a {v.ndim}-D {v.dtype} array" if type(v) is np.ndarray else type(v).__name__
            raise SonError(f"{where}(): the global {self.name!r} was a {self.ndim}-D {self.dtype} array "
                           f"when this graph was built and is {what} now: build it again")
        return v


def _code_text(code) -> str:
    """What a code object computes, nested functions' code included (a lambda's constant
    edited in a redefined function changes it).  Iterative, O(size of the code)."""
    parts, work = [], [code]
    while work:
        c = work.pop()
        parts.append(repr((c.co_code.hex(), c.co_names, c.co_varnames)))
        for k in c.co_consts:
            if hasattr(k, "co_code"):
                work.append(k)
            else:
                parts.append(repr(k))
    return "|".join(parts)


def _is_function_form(form) -> bool:
    return isinstance(form, FunctionForm) or isinstance(form, str) and form.startswith(_FN)


def form_size(form) -> int:
    """How many values a Return (or a parameter) of ``form`` carries."""
    if _is_function_form(form):
        return 0
    if isinstance(form, GlobalForm):
        return form_size(form.form)
    if isinstance(form, tuple):
        return sum(form_size(f) for f in form)
    k = form_ndim(form)
    if k is not None:
        return 1 + k if form.startswith("array") else 2 + 2 * k
    if rows_arity(form) is not None:
        return rows_arity(form)
    return {LEAF: 1, COMPLEX: 2, RANGE: 3, OPTIONAL: 2, NONE_ARG: 0}[form]


def rebuild(form, values):
    """The Python value a Return of ``form`` gives for its (flat) ``values``: ``form`` is
    ``LEAF``, ``COMPLEX``, ``RANGE``, ``OPTIONAL`` or a tuple of forms.  O(len(values)); recursive in
    the nesting of the result's tuple display in the source only."""
    it = iter(values)

    def build(f):
        if f == LEAF:
            return next(it)
        if f == COMPLEX:
            return complex(next(it), next(it))
        if f == RANGE:
            return range(next(it), next(it), next(it))
        if f == OPTIONAL:
            none, v = next(it), next(it)
            return None if none else v
        if isinstance(f, str) and f.startswith("grid"):
            k = form_ndim(f)
            base, start = next(it), next(it)
            dims = [next(it) for _ in range(k)]
            strides = [next(it) for _ in range(k)]
            return view_of(base, start, dims, strides)
        if rows_arity(f) is not None:  # a list of tuples: its columns (son/nodes/rows.py)
            return rows([next(it) for _ in range(rows_arity(f))])
        return tuple(build(x) for x in f)

    return build(form)


def view_of(base, start: int, dims: list, strides: list):
    """The numpy view of ``base`` (1-D) whose element ``(i, j, ...)`` is
    ``base[start + i * strides[0] + j * strides[1] + ...]``: as numpy would return it."""
    if start == 0 and list(dims) == [len(base)] and list(strides) == [1]:
        return base
    size = base.strides[0]  # a 1-D array argument may itself be a strided view: its own step
    return np.lib.stride_tricks.as_strided(base[start:] if start < len(base) else base[:0], shape=tuple(dims),
                                           strides=tuple(s * size for s in strides))


def strided_parts(a: np.ndarray, where: str) -> list:
    """The values of ``grid_form(a.ndim)`` for the numpy array ``a`` of any strides: a
    1-D array over the memory ``a`` spans (from its lowest element to its highest, a
    view: writes through it reach ``a``), the index of ``a[0, 0, ...]`` in it, ``a``'s
    dimensions and its strides in elements (any sign); the inverse of ``view_of``.
    ``SonError`` for strides that are not whole elements.  O(ndim)."""
    from ..errors import SonError

    size = a.itemsize
    if any(s % size for s in a.strides):
        raise SonError(f"{where}(): an array argument whose strides {a.strides} are not whole elements of "
                       f"{size} bytes (np.ascontiguousarray(a) copies it)")
    steps = [s // size for s in a.strides]
    if a.size == 0:
        return [a.reshape(-1), 0, *a.shape, *steps]
    low = a[tuple(slice(None, None, -1) if s < 0 else slice(None) for s in steps)]
    span = 1 + sum((d - 1) * abs(s) for d, s in zip(a.shape, steps))
    flat = np.lib.stride_tricks.as_strided(low, shape=(span,), strides=(size,))
    return [flat, sum((d - 1) * -s for d, s in zip(a.shape, steps) if s < 0), *a.shape, *steps]


def flatten(forms: list, args, where: str) -> list:
    """The flat argument list of a graph whose parameters have ``forms`` (``Graph.
    arg_forms``: a tuple or complex argument is its elements, its parts, a function
    nothing; a ``GlobalForm`` takes no argument but the global's value), from the Python
    arguments ``args`` (the trailing function parameters may
    be omitted: they are the functions the graph was built for, its defaults); ``SonError``
    for an argument of another shape.  O(number of values)."""
    from ..errors import SonError

    given = [f for f in forms if not isinstance(f, GlobalForm)]  # a global: read, never passed
    if len(args) < len(given) and all(isinstance(f, FunctionForm) for f in given[len(args):]):
        args = [*args, *(f.fn for f in given[len(args):])]  # omitted: the functions it was built for
    if len(args) != len(given):
        raise SonError(f"{where}() takes {len(given)} arguments ({len(args)} given)")
    out: list = []
    it = iter(args)
    pairs = [(f.form, f.value(where)) if isinstance(f, GlobalForm) else (f, next(it)) for f in forms]
    stack = pairs[::-1]
    while stack:
        f, a = stack.pop()
        if f == LEAF:
            out.append(a)
        elif _is_function_form(f):
            digest = f.digest if isinstance(f, FunctionForm) else f
            if not callable(a) or function_digest(a) != digest:
                raise SonError(f"{where}(): built for the function {digest.split()[1]} as this argument, "
                               f"called with {getattr(a, '__qualname__', None) or repr(a)}")
        elif f == NONE_ARG:
            if a is not None:
                raise SonError(f"{where}(): built for None as this argument, called with "
                               f"{type(a).__name__} {a!r}")
        elif f == COMPLEX:
            if type(a) is not complex:
                raise SonError(f"{where}(): expected a complex argument, got {type(a).__name__} {a!r}")
            out += [a.real, a.imag]
        elif isinstance(f, str) and f.startswith("array"):
            k = form_ndim(f)
            if type(a) is not np.ndarray or a.ndim != k:
                raise SonError(f"{where}(): expected a {k}-D numpy array, got {type(a).__name__}")
            if not a.flags.c_contiguous:
                raise SonError(f"{where}(): a {k}-D array argument must be C-contiguous (son reads it "
                               "as its elements in order: np.ascontiguousarray(a) copies it)")
            out += [a.reshape(-1), *a.shape]
        elif isinstance(f, str) and f.startswith("grid"):  # an n-D array of any strides
            k = form_ndim(f)
            if type(a) is not np.ndarray or a.ndim != k:
                raise SonError(f"{where}(): expected a {k}-D numpy array, got {type(a).__name__}")
            out += strided_parts(a, where)
        elif rows_arity(f) is not None:
            out += columns(a, rows_arity(f), where)
        elif isinstance(f, SliceForm):
            if type(a) is not slice:
                raise SonError(f"{where}(): expected a slice, got {type(a).__name__} {a!r}")
            stack.extend(zip(reversed(f), reversed((a.start, a.stop, a.step))))
        else:
            if type(a) is not tuple or len(a) != len(f):
                raise SonError(f"{where}(): expected a tuple of {len(f)}, got {type(a).__name__} {a!r}")
            stack.extend(zip(reversed(f), reversed(a)))
    return out
