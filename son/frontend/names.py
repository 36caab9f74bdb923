"""Name resolution: locals, globals, closure cells, builtins and module attributes.

A local is read from the scope, behind an ``UnboundLocalError`` guard while it may be
unbound; a name outside the function is looked up in its globals and closure
(``FunctionSource.lookup``) and read as a constant, or resolved to the Python object
a call or an attribute denotes.  Every outside read is reported to ``note``, which
the kernel index uses to tell when a cached kernel is stale (``MISSING`` for a
name that is not defined).  O(length of the dotted name) per read."""

from __future__ import annotations

import ast
import contextvars

import numpy as np

from ..errors import SonSyntaxError
from ..nodes import Node, Not, kept
from ..nodes.types import BOTTOM, ArrayType
from .core import assigned_names
from .scope import Fn, View, flag
from .source import parameters_bound

#: what ``FunctionParser.note`` records for a name that is not defined
MISSING = object()

#: learned: the ``GlobalForm`` of each global array the function reads, in the order found
GLOBALS = "global arrays"
#: learned: (id of the globals, name) -> the value bound to that global's parameter
GLOBAL_VALUES = "global array values"
#: set while son parses a helper into a graph of its own (recursion.py ``module_graph``)
SEPARATE_PARSE: contextvars.ContextVar[bool] = contextvars.ContextVar("son_separate_parse", default=False)


class GlobalArrayLearned(Exception):
    """The parse read a global array it has no parameter for: the parser starts again
    with one (son/frontend/parser.py)."""

    def __init__(self, form, spec):
        super().__init__(form.name)
        self.form, self.spec = form, spec


class Names:
    """FunctionParser's name resolution and the record of outside reads (a mixin)."""

    def note(self, name: str, value) -> None:
        """Record that the parse read ``name`` (in this function's namespace) as ``value``."""
        if self.deps is not None:
            self.deps.append((self.path, name, value))

    def read(self, name: str, at: ast.AST) -> Node:
        v = self.scope.get(name)
        if v is not None:
            if v.type is BOTTOM:
                raise self.error(at, f"variable {name!r} holds values of different types on "
                                     "different paths", "variable")
            bound = self.scope.get(flag(name))
            if bound is not None:
                with kept(v):
                    self.guard(self.op(at, Not, bound), *self._unbound(name))
                    self.scope.remove(flag(name))  # bound from here on
            return v
        if name in self.scope.undefined:
            if self.dead(self.scope):  # unreachable (after a raise): any value will do
                return self.dead_value()
            raise self.error(at, f"variable {name!r} may be used before it is assigned", "variable")
        if name in self.local_names:  # bound on no path here: CPython raises when it gets here
            return self.fault(*self._unbound(name))
        return self.global_value(name, at)

    def _unbound(self, name: str) -> tuple[type, str]:
        """CPython's exception for reading ``name`` while it is unbound: UnboundLocalError
        for a local, NameError for the enclosing function's variable read inside a
        generator expression (a free variable of the generator's own scope)."""
        free = self.generator_names
        if free is not None and name not in free:
            return NameError, (f"cannot access free variable {name!r} where it is not associated with "
                               "a value in enclosing scope")
        return UnboundLocalError, (f"cannot access local variable {name!r} where it is not associated "
                                   "with a value")

    @property
    def local_names(self) -> set[str]:
        names = self._locals
        if names is None:
            names = set(assigned_names(self.src.tree.body))
            names |= parameters_bound(self.src.tree.args)
            self._locals = names
        return names

    def global_value(self, name: str, at: ast.AST) -> Node:
        try:
            v = self.src.lookup(name)
        except KeyError:
            self.note(name, MISSING)
            return self.fault(NameError, f"name {name!r} is not defined")  # where it is reached
        self.note(name, v)
        if type(v) is np.ndarray and name not in self.src.closure:
            return self.global_array(name, v, at)
        return self.constant_value(v, name, at)

    def global_array(self, name: str, v: np.ndarray, at: ast.AST) -> Node:
        """A module's global array read by the function: a parameter of the graph the
        caller never passes (``GlobalForm``: each call reads the global then, as CPython
        does), found by the first parse that reads it, which starts again with it
        (``GlobalArrayLearned``); the same global is one parameter however often and
        from whichever inlined helper it is read."""
        from ..errors import SonError
        from ..nodes.control import LEAF, GlobalForm, array_form
        from .signature import NDArraySpec, ViewSpec, type_of_value

        key = (id(self.src.globals), name)
        bound = self.learned.get(GLOBAL_VALUES, {})
        if key in bound:
            return bound[key]
        if SEPARATE_PARSE.get():
            raise self.error(at, f"{name!r} is a global array read in a helper son parses into a graph "
                                 "of its own (one that calls itself): son passes global arrays to the "
                                 "compiled function only; pass it as an argument", "global")
        try:
            spec = type_of_value(v, f"global {name!r}")
        except SonError as e:
            raise self.error(at, str(e), "global") from None
        if isinstance(spec, ViewSpec):  # passed as its elements in order, at every call
            raise self.error(at, f"global {name!r} is a {spec.ndim}-D array that is not C-contiguous "
                                 "(son reads a global n-D array as its elements in order: "
                                 "np.ascontiguousarray copies it, or pass it as an argument)", "global")
        ndim = spec.ndim if isinstance(spec, NDArraySpec) else 1
        form = array_form(ndim) if ndim > 1 else LEAF
        raise GlobalArrayLearned(GlobalForm(name, self.src.globals, form, spec.dtype, ndim), spec)

    def constant_value(self, v, name: str, at: ast.AST) -> Node:
        """A global (or module attribute) read as a constant (a tuple or a complex number as
        the aggregate of its constant elements): an int must fit int64, as a
        literal must (folded, it would wrap silently), and a numpy scalar must be one whose
        arithmetic is son's (int64, float64, bool): an ``np.float32`` or ``np.uint64``
        global computes in its own dtype under CPython."""
        if isinstance(v, np.generic) and type(v) not in (np.int64, np.float64, np.bool_) \
                and isinstance(v, (np.integer, np.floating, np.bool_)):
            raise self.error(at, f"global {name!r} is a numpy {type(v).__name__}; son computes only with "
                                 "int64, float64 and bool (convert it: int(...), float(...))", "global")
        if isinstance(v, (bool, int, float, np.bool_, np.integer, np.floating)) or v is None:
            v = v.item() if isinstance(v, np.generic) else v
            if type(v) is int and not -(1 << 63) <= v < (1 << 63):
                raise self.error(at, f"global {name!r} is the int {v}, which is outside int64 (son's "
                                     "ints are int64; a literal that large is refused too)", "global")
            return self.con(v)
        if type(v) is complex:
            return self.cplx(self.con(v.real), self.con(v.imag))
        if callable(v):
            return Fn(self.g, (v,))  # a function as a value: calls through it are calls of v
        if type(v) is tuple:  # elements are pinned until the tuple holds them
            elems = []
            try:
                for x in v:
                    elems.append(self.constant_value(x, name, at).keep())
            finally:
                for x in elems:
                    x.unkeep()
            return self.pack(elems)
        raise self.error(at, f"{name!r} is a {type(v).__name__}; son reads only numbers, None, tuples "
                             "of them and functions as global values", "global")

    def expr_Name(self, e):
        return self.read(e.id, e)

    def expr_Attribute(self, e):
        if e.attr == "$selector":  # written by Functions.call_chosen: which function a value is
            return self.read(e.value.id, e).selector
        if (part := self.slice_attribute(e)) is not None:  # s.start of a slice value
            return part
        root = e.value
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name) and root is not e.value and (
                self.scope.get(root.id) is not None or root.id in self.local_names):
            return self.value_attribute(e)  # x.real.real: an attribute of a local's attribute
        if isinstance(e.value, ast.Name) and self.scope.get(e.value.id) is not None:
            arr = self.read(e.value.id, e.value)
            if (isinstance(arr.type, ArrayType) or isinstance(arr, View)) and e.attr == "size":
                return self.length(e, arr)
            return self.value_attribute(e)
        if self.is_value(e.value):
            return self.value_attribute(e)
        obj = self.resolve(e)
        return self.constant_value(obj, ast.unparse(e), e)

    def is_value(self, e: ast.expr) -> bool:
        """Does ``e`` compute a value (a local, a global array, or any expression but a
        dotted global name), rather than name a module, class or function outside the
        function?"""
        root = e
        while isinstance(root, ast.Attribute):
            root = root.value
        if isinstance(root, ast.Name):  # x, or an attribute of a local's (x.real.imag)
            if self.scope.get(root.id) is not None or root.id in self.local_names:
                return True
            try:  # a global array is a value too (``global_array``): ``TABLE.sum()``
                return type(self.src.lookup(root.id)) is np.ndarray
            except KeyError:
                return False
        return not isinstance(root, ast.Attribute)

    def resolve_quiet(self, e: ast.expr):
        try:
            return self.resolve(e)
        except SonSyntaxError:
            return None

    def resolve(self, e: ast.expr):
        """The Python object a (dotted) name outside the function denotes."""
        if isinstance(e, ast.Name):
            if self.scope is not None and (self.scope.get(e.id) is not None or e.id in self.local_names):
                raise self.error(e, f"{e.id!r} is a local variable, not a function or module", "call")
            try:
                v = self.src.lookup(e.id)
            except KeyError:
                self.note(e.id, MISSING)
                raise self.error(e, f"name {e.id!r} is not defined", "name") from None
            self.note(e.id, v)
            return v
        if isinstance(e, ast.Attribute):
            base = self.resolve(e.value)
            try:
                v = getattr(base, e.attr)
            except AttributeError:
                self.note(ast.unparse(e), MISSING)
                raise self.error(e, f"{ast.unparse(e.value)} has no attribute {e.attr!r}",
                                 "attribute") from None
            self.note(ast.unparse(e), v)
            return v
        raise self.unsupported(e, f"call of a {type(e).__name__.lower()} expression",
                               instead="bind the function to a name first and call the name")
