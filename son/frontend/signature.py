"""Parameter types: from ``argtypes=``, example arguments, annotations, or NUMBER.

Accepted type specifications: ``int``, ``float``, ``bool``, ``np.ndarray``
(float64 elements), ``numpy.typing.NDArray[np.int64]`` (and float64/bool), ``list[float]``
(``list[int]``, ``list[bool]``; also as strings),
a numpy dtype or scalar type (``np.float64`` means float), a son ``Type``, or
the strings ``"int" "float" "bool" "number" "float64[]" "int64[]" "bool[]"``; for a
parameter that is a complex number ``complex`` or ``"complex"``, for a tuple
``tuple[float, int]`` or a Python tuple of specs (``("float", "int")``), for a list of
tuples ``list[tuple[int, float]]`` (a ``RowsSpec``: the parser makes it one list per
tuple position, son/nodes/rows.py).  An example argument that is a function (a helper
passed to ``integrate(f, a, b, n)``) is a ``FunctionForm``: the graph is built for that
function, which becomes a constant function value, as a global function is; so is a
function given as a type (``argtypes=[math.cos, float, float, int]``).
"""

from __future__ import annotations

import inspect
import re
import typing
from dataclasses import dataclass

import numpy as np

from ..errors import SonError
from ..nodes.control import FunctionForm, KindedTuple
from ..nodes.types import BOOL, FLOAT, INT, NONE, NUMBER, ArrayType, ListType, Type

_NAMES = {"int": INT, "float": FLOAT, "bool": BOOL, "number": NUMBER,
          "float64[]": ArrayType("float64"), "int64[]": ArrayType("int64"), "bool[]": ArrayType("bool"),
          "list[float]": ListType("float64"), "list[int]": ListType("int64"), "list[bool]": ListType("bool")}


@dataclass(frozen=True)
class NDArraySpec:
    """An n-D array parameter (2 or 3 dimensions; 1-D arrays are ``ArrayType``): the
    parser binds it to a view of its elements (son/frontend/ndarrays.py)."""

    dtype: str
    ndim: int

    def __str__(self) -> str:
        return f"{self.dtype}[{', '.join(':' * self.ndim)}]"


@dataclass(frozen=True)
class ViewSpec:
    """An array view parameter of a recursive helper's graph (son/frontend/recursion.py):
    1-D, four values, the base array, the view's first index in it, its length and its
    step (``grid_form(1)``), which the parser binds to a ``View``; n-D, the base array,
    the first index, the ``ndim`` dimensions and the ``ndim`` strides (``grid_form(ndim)``),
    bound to a ``Grid``; never a user's argtype."""

    dtype: str
    ndim: int = 1

    def __str__(self) -> str:
        return f"a view of {self.dtype}[{', '.join([':'] * self.ndim) if self.ndim > 1 else ''}]"


@dataclass(frozen=True)
class RowsSpec:
    """A list of tuples parameter: the element dtype of each tuple position."""

    dtypes: tuple

    def __str__(self) -> str:
        return "list[tuple[" + ", ".join({"float64": "float", "int64": "int", "bool": "bool"}[d]
                                         for d in self.dtypes) + "]]"


_SCALAR_DTYPES = {float: "float64", int: "int64", bool: "bool"}
_ND_NAME = re.compile(r"(float64|int64|bool)\[\s*:\s*(?:,\s*:\s*){1,2}\]")
_1D_NAME = re.compile(r"(float64|int64|bool)\[\s*:\s*\]")


def _dtype_name(dt) -> str | None:
    try:
        d = np.dtype(dt)
    except TypeError:
        return None
    if d == np.float64:
        return "float64"
    if d == np.int64:
        return "int64"
    if d == np.bool_:
        return "bool"
    return None


class SliceSpec(KindedTuple):
    """A slice argument's type: the types of its start, stop and step (INT or NONE), a
    signature of its own (never a tuple's)."""

    kind = "slice"


def type_from_spec(spec, where: str):
    """The lattice type for one parameter type specification; for a complex number
    ``"complex"``, for a tuple the tuple of its elements' (a parameter's *spec*, which
    the parser flattens into values)."""
    if isinstance(spec, Type):
        return spec
    if spec is complex or spec == "complex":
        return "complex"
    if type(spec) is tuple:  # argtypes=[("float", "int")]: a tuple's element specs (none: ())
        return tuple(type_from_spec(x, where) for x in spec)
    if typing.get_origin(spec) is tuple:
        elems = typing.get_args(spec)
        if Ellipsis in elems or not elems:
            raise SonError(f"{where}: a tuple parameter needs its element types (tuple[float, int]), "
                           f"not {spec!r}")
        return tuple(type_from_spec(x, where) for x in elems)
    if isinstance(spec, (NDArraySpec, RowsSpec, ViewSpec, FunctionForm, SliceSpec)):
        return spec
    if inspect.isroutine(spec) or hasattr(spec, "py_func"):  # argtypes=[bump, ...]: built for it
        return FunctionForm(spec)
    if isinstance(spec, str):
        if spec in _NAMES:
            return _NAMES[spec]
        if _ND_NAME.fullmatch(spec):
            return NDArraySpec(spec[:spec.index("[")], spec.count(":"))
        if _1D_NAME.fullmatch(spec):  # numba's spelling of a 1-D array
            return _NAMES[spec[:spec.index("[")] + "[]"]
        raise SonError(f"{where}: unknown type name {spec!r} (use one of {', '.join(_NAMES)})")
    if spec is bool or spec is np.bool_:
        return BOOL
    if spec is int or spec is np.int64:
        return INT
    if spec is float or spec is np.float64:
        return FLOAT
    if spec is np.ndarray:
        return ArrayType("float64")
    if typing.get_origin(spec) is list and len(typing.get_args(spec)) == 1:
        inner = typing.get_args(spec)[0]
        dtype = _SCALAR_DTYPES.get(inner)
        if dtype:
            return ListType(dtype)
        elems = typing.get_args(inner) if typing.get_origin(inner) is tuple else ()
        if elems and all(x in _SCALAR_DTYPES for x in elems):
            return RowsSpec(tuple(_SCALAR_DTYPES[x] for x in elems))
    origin = typing.get_origin(spec)
    if origin is np.ndarray:  # numpy.typing.NDArray[X] == ndarray[Any, dtype[X]]
        args = typing.get_args(spec)
        dt = typing.get_args(args[1])[0] if len(args) == 2 and typing.get_args(args[1]) else None
        name = _dtype_name(dt) if dt is not None else None
        if name:
            return ArrayType(name)
    raise SonError(f"{where}: unsupported parameter type {spec!r}; son takes int, float, bool, "
                   "complex, tuples of them, numpy arrays of float64, int64 or bool, lists of ints, "
                   "floats or bools and lists of tuples of them")


def type_of_value(v, where: str):
    """The lattice type of an example argument (the spec of a tuple or complex one, as
    ``type_from_spec``)."""
    if type(v) is tuple:  # the empty tuple too: a parameter of no values, () where read
        return tuple(type_of_value(x, where) for x in v)
    if v is None:  # a constant of the graph: one per call's kinds, as a function argument is
        return NONE
    if type(v) is slice:  # its parts: ints, or None (a constant of the graph)
        parts = (v.start, v.stop, v.step)
        if not all(x is None or isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in parts):
            raise SonError(f"{where}: a slice of {parts!r} (son takes slices of ints and None)")
        return SliceSpec(type_of_value(x, where) for x in parts)
    if type(v) is complex:
        return "complex"
    if isinstance(v, (bool, np.bool_)):
        return BOOL
    if isinstance(v, (int, np.integer)):
        return INT
    if isinstance(v, (float, np.floating)):
        return FLOAT
    if type(v) is list and v and type(v[0]) is tuple:
        return _rows_of_value(v, where)
    if type(v) is list:  # an empty list: of floats (a guess; argtypes= says otherwise)
        kinds = {type(x) for x in v} or {float}
        if len(kinds) == 1 and kinds <= {float, int, bool}:
            return ListType({float: "float64", int: "int64", bool: "bool"}[kinds.pop()])
        raise SonError(f"{where}: a list of {' and '.join(sorted(k.__name__ for k in kinds))}; son's lists "
                       "hold ints, floats or bools, one kind per list")
    if isinstance(v, np.ndarray):
        name = _dtype_name(v.dtype)
        if v.ndim == 1 and name:
            return ArrayType(name)
        if v.ndim in (2, 3) and name:  # C order: its elements in order; other strides: a view
            return NDArraySpec(name, v.ndim) if v.flags.c_contiguous else ViewSpec(name, v.ndim)
        raise SonError(f"{where}: unsupported array ({v.ndim}-D, dtype {v.dtype}); son takes 1-D "
                       "to 3-D arrays of float64, int64 or bool")
    if _is_function(v) or callable(v) and isinstance(v, type):  # a FunctionForm parameter
        return FunctionForm(v)
    raise SonError(f"{where}: unsupported argument {type(v).__name__} {v!r}; son takes int, "
                   "float, bool, complex, tuples of them and 1-D to 3-D numpy arrays")


def _rows_of_value(v: list, where: str) -> RowsSpec:
    """The spec of an example list of tuples: one length, one kind per position."""
    k = len(v[0])
    if not k or any(type(t) is not tuple or len(t) != k for t in v):
        raise SonError(f"{where}: a list of tuples of different lengths (or of tuples and other "
                       "values); son's lists of tuples hold tuples of one length")
    dtypes = []
    for j in range(k):
        kinds = {type(t[j]) for t in v}
        if len(kinds) != 1 or not kinds <= set(_SCALAR_DTYPES):
            raise SonError(f"{where}: position {j} of the tuples holds "
                           f"{' and '.join(sorted(x.__name__ for x in kinds))}; son's lists of tuples "
                           "hold ints, floats or bools, one kind per position")
        dtypes.append(_SCALAR_DTYPES[kinds.pop()])
    return RowsSpec(tuple(dtypes))


def _empty_list_type(spec, where: str):
    """The type an annotation gives an empty example list (``list[int]``,
    ``list[tuple[int, float]]``), else None (the list is then a guess: of floats)."""
    if spec is None or typing.get_origin(spec) is not list:
        return None
    try:
        t = type_from_spec(spec, where)
    except SonError:
        return None
    return t if isinstance(t, (ListType, RowsSpec)) else None


def function_defaults(fn) -> dict:
    """Parameter name -> default value of a Python function (``{}`` for anything else)."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return {}
    positional = code.co_varnames[:code.co_argcount]
    defaults = getattr(fn, "__defaults__", None) or ()
    out = dict(zip(positional[len(positional) - len(defaults):], defaults))
    out.update(getattr(fn, "__kwdefaults__", None) or {})
    return out


def param_types(names: list[str], annotations: dict, argtypes=None, args=None,
                where: str = "", defaults: dict | None = None) -> list:
    """One type per parameter name, by the precedence of DESIGN.md; a parameter that
    nothing types but whose default is a function (``f=bump``) is built for it (a
    ``FunctionForm``), as an example argument that is a function is."""
    if argtypes is not None and args is not None:
        raise SonError("give argtypes= or example args=, not both")
    if args is not None:
        missing = names[len(args):]
        if missing and all(n in (defaults or {}) for n in missing):  # omitted: typed by the default
            args = list(args) + [defaults[n] for n in missing]
        if len(args) != len(names):
            raise SonError(f"{where}: {len(names)} parameters but {len(args)} example arguments")
        return [_empty_list_type(annotations.get(n), where) if type(a) is list and not a
                and _empty_list_type(annotations.get(n), where) is not None
                else type_of_value(a, f"{where}: argument {n!r}") for n, a in zip(names, args)]
    if argtypes is not None:
        if isinstance(argtypes, dict):
            unknown = set(argtypes) - set(names)
            if unknown:
                raise SonError(f"{where}: argtypes names unknown parameters {sorted(unknown)}")
            specs = [argtypes.get(n) for n in names]
        else:
            if len(argtypes) != len(names):
                raise SonError(f"{where}: {len(names)} parameters but {len(argtypes)} argtypes")
            specs = list(argtypes)
    else:
        specs = [None] * len(names)
    out = []
    for n, spec in zip(names, specs):
        if spec is None:
            spec = annotations.get(n)
        if spec is None and _is_function((defaults or {}).get(n)):
            spec = FunctionForm(defaults[n])
        out.append(NUMBER if spec is None else type_from_spec(spec, f"{where}: parameter {n!r}"))
    return out


def _is_function(v) -> bool:
    """A value a parameter may be built for: callable, not a class or a number."""
    return callable(v) and not isinstance(v, (type, int, float, complex, np.generic, np.ndarray))
