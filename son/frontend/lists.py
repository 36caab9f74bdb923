"""Lists: Python lists of one element kind, objects in the graph's memory.

A list is a node of type ``list[float]`` (``list[int]``, ``list[bool]``): ``NewList``
makes one, ``ListLen`` reads its length, ``Load``/``Store`` its elements behind the
arrays' bounds guards, and ``ListOp`` calls a method that changes it
(son/nodes/lists.py).  Every read and write goes through the one memory state, so two
names for one list (``ys = xs``, a list passed to an inlined helper) see each other's
changes, as in CPython.

Element kinds.  A list holds one kind: putting an int into a list of floats (which
CPython would keep as an int) is a located error, never a silent conversion.  An empty
list (``[]``, ``list()``, a comprehension) takes the kind of what is first put into it:
the parse guesses float, and when an element of another kind arrives it records the
kind for that source position and parses the function again (``ListKindLearned``); an
annotation ``xs: list[int] = []`` fixes it at once.

Iteration follows CPython's list iterator: the length is read again before each step,
so appending in the body makes the loop longer, and ``reversed`` stops when the list
shrinks below its index.  ``x in xs``, ``xs.index(x)``, ``xs.count(x)`` and ``==``
compare as CPython (``x is y or x == y``); son's floats are values, not objects, so a
NaN compared with a NaN raises ``NotImplementedError`` rather than guess whether they
are one object (CPython's answer).  ``sort`` and ``sorted`` are the list's own sort
(numba's port of CPython's timsort), ``key=`` unsupported.  O(1) nodes per operation,
one loop per copy, comparison or search."""

from __future__ import annotations

import ast

from ..nodes import (
    EQ,
    LT,
    Add,
    BitAnd,
    IsFloat,
    IsNan,
    ListLen,
    ListOp,
    Load,
    Max,
    NewList,
    Node,
    Not,
    Phi,
    Refine,
    Store,
    Sub,
    ToFloat,
    ToInt,
    kept,
)
from ..nodes.types import NONE, TOP, ListType
from .core import _kind, is_array_value, is_list
from .iteration import Counted
from .scope import Aggregate, Chain, Cplx, Grid, Opt, Pack, TupleList

#: a scalar kind -> the element dtype of a list of it
DTYPE_OF_KIND = {"float": "float64", "int": "int64", "bool": "bool"}
_KIND_OF_DTYPE = {v: k for k, v in DTYPE_OF_KIND.items()}
_ZERO = {"float64": 0.0, "int64": 0, "bool": False}
#: the list methods son builds (``copy`` and the searches make values, the rest change the list)
LIST_METHOD_NAMES = ("append", "extend", "insert", "pop", "remove", "clear", "reverse", "sort",
                     "index", "count", "copy")
#: learned[(_LEARNED, site)] is the element dtype an empty list made at ``site`` holds;
#: learned[LIST_GUESSES] maps each empty list of the parse to its site and whether its
#: kind is a guess
_LEARNED = "list kind"
LIST_GUESSES = "list guesses"
#: learned[GUESSED_PARAMS]: the parameters given as empty example lists, kind not yet learned
GUESSED_PARAMS = "guessed list parameters"


def param_site(name: str) -> tuple:
    """The key under which ``learned`` holds the element kind of list parameter ``name``."""
    return (_LEARNED, "parameter", name)


class ListKindLearned(Exception):
    """An empty list met its first element of another kind than guessed: the kind is
    recorded in ``learned`` and the function is parsed again (son/frontend/parser.py)."""


def annotated_dtype(ann: ast.expr | None) -> str | tuple | None:
    """The element dtype of an annotation ``list[float]`` (``int``, ``bool``), the
    positions' dtypes of ``list[tuple[int, float]]`` (a list of tuples), else None."""
    if not (isinstance(ann, ast.Subscript) and isinstance(ann.value, ast.Name)
            and ann.value.id in ("list", "List")):
        return None
    inner = ann.slice
    if isinstance(inner, ast.Name):
        return DTYPE_OF_KIND.get(inner.id)
    if isinstance(inner, ast.Subscript) and isinstance(inner.value, ast.Name) \
            and inner.value.id in ("tuple", "Tuple"):
        elts = inner.slice.elts if isinstance(inner.slice, ast.Tuple) else [inner.slice]
        dtypes = tuple(DTYPE_OF_KIND.get(x.id) if isinstance(x, ast.Name) else None for x in elts)
        return dtypes if dtypes and None not in dtypes else None
    return None


class Lists:
    """FunctionParser's lists (a mixin)."""

    # -- making lists -----------------------------------------------------------------
    def expr_List(self, e: ast.List):
        if not isinstance(e.ctx, ast.Load):
            raise self.unsupported(e, "a list as an assignment target (write a tuple)")
        if any(isinstance(x, ast.Starred) for x in e.elts):
            raise self.unsupported(e, "a starred item in a list display", instead="join lists with +")
        return self.list_display(e, self.exprs(e.elts))

    def list_display(self, e: ast.List, vals: list[Node]) -> Node:
        """The new list ``[v0, v1, ...]`` of the display ``e``'s values ``vals``."""
        if not vals:
            return self.empty_list(e)
        if all(v.type is TOP for v in vals):  # values of dead code: any list will do
            return self.empty_list(e)
        with kept(*vals):
            first = next(v for v in vals if v.type is not TOP)
            dtype = self.element_dtype(e, first)
            fill = self.one_kind(e, first, dtype) if _kind(first) == "number" else first
            lst = self.op(e, NewList, self.scope.ctrl, self.con(len(vals)), fill, dtype=dtype)
            with kept(lst):
                for i, v in enumerate(vals):
                    if v is first:
                        continue
                    if v.type is not TOP:
                        self.element_dtype(e, v)  # a value that is no number: refused first
                    v = self.check_element(e, lst, v)
                    self.scope.mem = self.op(e, Store, self.scope.ctrl, self.scope.mem, lst, self.con(i), v)
        return lst

    def empty_list(self, at: ast.AST, dtype: str | None = None) -> Node:
        """A new empty list made at ``at``: of ``dtype`` if given, else of the kind an
        earlier parse learned for this site, else float (a guess, see the module doc)."""
        site = (_LEARNED, self.path, at.lineno, at.col_offset)
        guess = dtype is None and site not in self.learned
        dtype = dtype or self.learned.get(site, "float64")
        lst = self.op(at, NewList, self.scope.ctrl, self.con(0), self.filler(at, dtype), dtype=dtype)
        self.learned.setdefault(LIST_GUESSES, {})[lst] = (site, guess)
        return lst

    def filler(self, at: ast.AST, dtype) -> Node:
        """A value of element kind ``dtype`` (an empty list for a list of lists)."""
        if isinstance(dtype, str):
            return self.con(_ZERO[dtype])
        inner = self.filler(at, dtype.dtype)
        return self.op(at, NewList, self.scope.ctrl, self.con(0), inner, dtype=dtype.dtype)

    def element_dtype(self, at: ast.AST, v: Node):
        """The element kind of a list that holds ``v``: a dtype name, or the ``ListType``
        of a list of lists; a located refusal for anything else."""
        if is_list(v):
            return v.type
        k = _kind(v)
        if isinstance(v, Opt) or v.type is NONE:
            raise self.unsupported(at, "None (or a value that may be None) in a list (son's lists hold "
                                       "numbers of one kind)")
        if k == "number":  # an int or a float decided at run time: checked where it is put
            return "float64"
        if k not in DTYPE_OF_KIND:
            what = ("a tuple" if isinstance(v, Pack)
                    else "a complex number" if isinstance(v, Cplx) else "a list" if is_list(v)
                    else f"a {v.type.widen()} value")
            arrays = isinstance(v, (Grid, Chain)) or is_array_value(v)
            raise self.unsupported(at, f"{what} in a list (son's lists hold ints, floats or bools, one "
                                       "kind per list)",
                                   instead="stack the arrays in a 2-D one, a = np.empty((k, n)), and read "
                                           "its rows a[i]" if arrays else None)
        return DTYPE_OF_KIND[k]

    def check_element(self, at: ast.AST, lst: Node, v: Node) -> Node:
        """``v`` as it goes into ``lst``: of its element kind, else the kind is learned for
        an empty list that was guessed (and the function parsed again) or a located error.
        A value that is an int or a float decided at run time goes into a list of floats
        (ints) only where it is one: elsewhere son raises ``NotImplementedError``, as a
        list of one kind cannot hold what CPython would put there."""
        if v.type is TOP or self.dead(self.scope):  # dead code: nothing is put anywhere
            return v
        have, want = self.element_dtype(at, v), lst.type.dtype
        if _kind(v) == "number" and want in ("float64", "int64"):
            return self.one_kind(at, v, want)
        if have == want:
            return v
        made = [self.learned.get(LIST_GUESSES, {}).get(n) for n in _origins(lst)]
        sites = [site for site, guess in filter(None, made) if guess]
        learns = have
        if not sites and is_list(v) and isinstance(want, ListType):  # `rows.append([])`: the
            # empty row's kind was the guess, the rows' is known: the row learns it
            inner = [self.learned.get(LIST_GUESSES, {}).get(n) for n in _origins(v)]
            sites, learns = [site for site, guess in filter(None, inner) if guess], want.dtype
        if sites:
            for site in sites:
                self.learned[site] = learns
                self.learned[(site, "from")] = f"line {at.lineno + self.src.line0}"
            raise ListKindLearned()
        h, w = _kind_name(have), _kind_name(want)
        learned = [self.learned.get((m[0], "from")) for m in made if m is not None]
        origin = next((f" (it holds the {w}s put into it at {x})" for x in learned if x), "")
        raise self.error(at, f"cannot put {_a(h)} into a {lst.type}{origin}: son's lists hold one kind of "
                             f"element; convert it with {w}(...), or annotate an empty list: "
                             f"xs: list[{h}] = []", "list")

    def refuse_at_run_time(self, pred: Node, why: str) -> None:
        """Where ``pred`` holds, CPython's answer depends on what son does not model (an
        object's identity, its sort's order of comparisons, a list holding two kinds):
        son raises ``NotImplementedError(why)`` there, a documented refusal that is
        never a different answer (docs/decisions.md, Lists; tests/test_lists.py, and the
        fuzz oracle counts it as a refusal of that argument tuple).  Where ``pred`` is
        false, which is almost everywhere, the program runs on unchanged."""
        self.guard(pred, NotImplementedError, why)

    def one_kind(self, at: ast.AST, v: Node, dtype: str) -> Node:
        """``v`` (an int or a float decided at run time) as a ``dtype`` element: a guard
        that it is one (``NotImplementedError`` where not), then a cast that is its value."""
        with kept(v):
            is_float = self.op(at, IsFloat, v)
            wrong = is_float if dtype == "int64" else self.op(at, Not, is_float)
            kind = "an int" if dtype == "float64" else "a float"
            self.refuse_at_run_time(wrong, f"son's list of {_KIND_OF_DTYPE[dtype]}s cannot hold {kind} "
                                           "(CPython's lists hold any kinds)")
            return self.op(at, ToFloat if dtype == "float64" else ToInt, v)

    def unify_list_kinds(self, lists: list[Node]) -> None:
        """Lists of different kinds merging at a branch or a loop: an empty list whose
        kind was a guess learns the kind of one that was not (and the function is parsed
        again); else nothing (the merge is refused where the variable is read)."""
        made = self.learned.get(LIST_GUESSES, {})

        def guessed(lst):
            return any(made.get(n, (None, False))[1] for n in _origins(lst))

        known = [v.type.dtype for v in lists if not guessed(v)]
        if not known:
            return
        learn = [made[n][0] for v in lists if v.type.dtype != known[0] and guessed(v)
                 for n in _origins(v) if made.get(n, (None, False))[1]]
        if learn:
            for site in learn:
                self.learned[site] = known[0]
            raise ListKindLearned()

    def list_len(self, at: ast.AST, lst: Node) -> Node:
        return self.op(at, ListLen, self.scope.ctrl, self.scope.mem, lst)

    def append(self, at: ast.AST, lst: Node, v: Node) -> None:
        with kept(lst, v):
            v = self.check_element(at, lst, v)
            with kept(v):
                self.scope.mem = self.op(at, ListOp, self.scope.ctrl, self.scope.mem, lst, v, method="append")

    def list_of(self, at: ast.AST, src: Counted, dtype: str | None = None) -> Node:
        """A new list of ``src``'s items (``list(it)``, a copy, a comprehension's loop)."""
        out = self.empty_list(at, dtype).keep()
        item = self.temp()
        self.counted_loop(at, at, src, lambda x: self.scope.set(item, x),
                          lambda: self.append(at, out, self.scope.get(item)), [item])
        self.scope.remove(item)
        return out.unkeep()

    def list_items(self, at: ast.AST, lst: Node) -> Counted:
        """A list's items as CPython's iterator gives them: item k while k is below the
        length read at that step."""
        lst.keep()
        return Counted(None, lambda k: self.op(at, Load, self.scope.ctrl, self.scope.mem, lst, k), [lst],
                       alive=lambda k: self.op(at, LT, k, self.list_len(at, lst)), lst=lst)

    def expr_ListComp(self, e: ast.ListComp):
        out = self.empty_list(e).keep()
        self.extend_by(e, out, ast.copy_location(ast.GeneratorExp(e.elt, e.generators), e))
        return out.unkeep()

    def extend_by(self, at: ast.AST, lst: Node, it: ast.expr) -> None:
        """Append the items of iterable ``it`` (a generator expression too) to ``lst``."""
        if not isinstance(it, ast.GeneratorExp):
            self.extend(at, lst, self.counted(it, self.iteration_source(it)))
            return
        it = self.flat_generator(it)
        with kept(lst):
            first = self.iteration_source(it.generators[0].iter)
            if not isinstance(first, list):
                first = self.counted(it.generators[0].iter, first)
            self.generator_loops(it, lambda x: self.append(at, lst, x), [], None, first)

    # -- subscripts -------------------------------------------------------------------
    def list_slice(self, e: ast.Subscript, lst: Node) -> Node:
        """``xs[i:j:k]``: a new list of the view's items."""
        with kept(lst):
            v = self.slice_view(e, lst)
        with kept(v):
            src = Counted(v.length.keep(), lambda k: self.op(e, Load, self.scope.ctrl, self.scope.mem, lst,
                                                            self.view_index(e, v, k)), [v.length])
            return self.list_of(e, src, lst.type.dtype)

    # -- methods ----------------------------------------------------------------------
    def list_or_array_method(self, e: ast.Call) -> Node | None:
        """A list's method, or an array's (``copy`` is both); None where ``e`` calls
        neither on a value."""
        f = e.func
        if not (isinstance(f, ast.Attribute) and f.attr in LIST_METHOD_NAMES and self.is_value(f.value)):
            return self.array_method(e)
        v = self.expr(f.value)
        if v.type is TOP and not isinstance(v, Aggregate):  # a value of dead code: any result
            return v
        if is_list(v) or isinstance(v, TupleList):
            return self.list_method(e, v)
        if isinstance(v, Pack) and f.attr in ("index", "count"):
            return self.tuple_search(e, v)
        with kept(v):
            r = self.array_method(e, v)
        if r is None:
            what = f"a {v.ndim}-D array" if isinstance(v, Grid) else str(v.type.widen())
            raise self.error(e, f"{what} has no method {f.attr}() in son", ast.unparse(f))
        return r

    def list_method(self, e: ast.Call, lst: Node) -> Node:
        name = e.func.attr
        with kept(lst):
            return getattr(self, "_list_" + name)(e, lst)

    def _margs(self, e: ast.Call, lo: int, hi: int) -> list[Node]:
        return self.args(e, ast.unparse(e.func), lo, hi)

    def _list_append(self, e, lst):
        (v,) = self.exprs(self._arity_checked(e, 1, 1))
        self.append(e, lst, v)
        return self.con(None)

    def _arity_checked(self, e, lo, hi):
        self.arity(e, ast.unparse(e.func), lo, hi)
        return e.args

    def _list_extend(self, e, lst):
        (it,) = self._arity_checked(e, 1, 1)
        if not (isinstance(it, ast.List) and not it.elts):  # xs.extend([]): nothing, of any kind
            self.extend_by(e, lst, it)
        return self.con(None)

    def extend(self, at, lst: Node, src: Counted) -> None:
        """Append ``src``'s items; a list extended by itself takes the items it had (its
        length read once, as CPython copies it first)."""
        if src.lst is lst or (src.lst is not None and src.alive is not None):
            n = self.list_len(at, src.lst).keep()
            src = Counted(n, src.item, src.held + [n])
        item = self.temp()
        self.counted_loop(at, at, src, lambda x: self.scope.set(item, x),
                          lambda: self.append(at, lst, self.scope.get(item)), [item])
        self.scope.remove(item)

    def _list_insert(self, e, lst):
        i, v = self.exprs(self._arity_checked(e, 2, 2))
        with kept(i, v):
            i = self.as_int_argument(e.args[0], i)
            with kept(i):
                v = self.check_element(e, lst, v)
                with kept(v):
                    self.scope.mem = self.op(e, ListOp, self.scope.ctrl, self.scope.mem, lst, i, v,
                                             method="insert")
        return self.con(None)

    def _list_pop(self, e, lst):
        args = self._arity_checked(e, 0, 1)
        n = self.list_len(e, lst)
        with kept(n):
            if args:
                i = self.int_value(args[0])
            else:
                i = self.op(e, Sub, n, self.con(1))
            with kept(i):
                self.guard(self.op(e, EQ, n, self.con(0)), IndexError, "pop from empty list")
                return self.remove_at(e, lst, i, "pop index out of range")

    def remove_at(self, at, lst: Node, i: Node, message: str) -> Node:
        """The item at index ``i`` (a negative one wraps once; ``IndexError`` with
        ``message`` out of range), removed from the list."""
        with kept(lst, i):
            ctrl, _, i = self.element(at, lst, i, message)
            v = self.op(at, Load, ctrl, self.scope.mem, lst, i)
            with kept(v):
                self.scope.mem = self.op(at, ListOp, ctrl, self.scope.mem, lst, i, method="pop")
        return v

    def _list_clear(self, e, lst):
        self._arity_checked(e, 0, 0)
        self.scope.mem = self.op(e, ListOp, self.scope.ctrl, self.scope.mem, lst, method="clear")
        return self.con(None)

    def _list_reverse(self, e, lst):
        self._arity_checked(e, 0, 0)
        self.scope.mem = self.op(e, ListOp, self.scope.ctrl, self.scope.mem, lst, method="reverse")
        return self.con(None)

    def _list_sort(self, e, lst):
        self.sort(e, lst)
        return self.con(None)

    def sort_reverse(self, at: ast.expr) -> Node:
        """The truth of ``reverse=``, which CPython takes as an integer: a float (or None,
        or anything else) is its TypeError when the sort is called."""
        r = self.expr(at)
        if r.type is TOP and not isinstance(r, Aggregate):
            return r  # dead code
        message = "'{}' object cannot be interpreted as an integer"
        kind = None if isinstance(r, Aggregate) else r.type.widen().kind
        if kind in ("int", "bool"):
            return self.truth(r, at)
        if kind == "number":  # an int or a float, decided at run time
            with kept(r):
                self.guard(self.op(at, IsFloat, r), TypeError, message.format("float"))
                return self.truth(r, at)
        what = ("tuple" if isinstance(r, Pack) else "complex" if isinstance(r, Cplx)
                else "NoneType" if r.type is NONE else "list" if is_list(r) else "float" if kind == "float"
                else None)
        if what is None:
            raise self.unsupported(at, f"reverse= of a {r.type.widen()} value")
        return self.fault(TypeError, message.format(what))

    def sort(self, e: ast.Call, lst: Node, first: int = 0) -> None:
        """``lst.sort(reverse=...)`` with the call's keywords (``sorted``'s after ``first``
        positional arguments)."""
        if len(e.args) > first:
            raise self.error(e, f"{ast.unparse(e.func)}() takes no positional arguments", "sort")
        reverse = key = None
        for k in e.keywords:
            if k.arg == "key" and not (isinstance(k.value, ast.Constant) and k.value.value is None):
                key = k.value
            elif k.arg == "reverse":
                reverse = k.value
            elif k.arg != "key":
                raise self.error(e, f"sort() got an unexpected keyword argument {k.arg!r}", "sort")
        if is_list(lst) and not isinstance(lst.type.dtype, str):
            raise self.unsupported(e, "sorting a list of lists (son sorts numbers)")
        with kept(lst):
            flip = self.sort_reverse(reverse) if reverse is not None else self.con(False)
        if key is not None:
            self.key_sort(e, lst, key, flip, fresh=first > 0)
            return
        if isinstance(lst, TupleList):
            self.sort_rows(e, lst, flip)  # son/frontend/tuplelists.py
            return
        if lst.type.dtype == "float64":
            self.no_nan_sort(e, lst)
        if flip.type.is_constant:
            method = "sort_reverse" if flip.type.con else "sort"
            self.scope.mem = self.op(e, ListOp, self.scope.ctrl, self.scope.mem, lst, method=method)
            return
        with kept(flip):
            t, f = self.branch(flip)
            other = self.scope.dup()
            other.ctrl = f
            self.scope.ctrl = t
            self.scope.mem = self.op(e, ListOp, self.scope.ctrl, self.scope.mem, lst, method="sort_reverse")
            keep, self.scope = self.scope, other
            self.scope.mem = self.op(e, ListOp, self.scope.ctrl, self.scope.mem, lst, method="sort")
            self.scope = self.merge([keep, self.scope])

    def no_nan_sort(self, at, lst: Node, why: str = "son does not sort a list of floats that holds a "
                    "NaN (CPython's order then depends on its sort algorithm's comparisons)") -> None:
        """A float list with a NaN sorts as CPython's timsort happens to leave it (every
        comparison with NaN is false); numba's port may differ there, so son refuses
        that case at run time: ``NotImplementedError`` before the sort."""
        found = self.temp()
        self.scope.set(found, self.con(False))
        item = self.temp()

        def body():
            nan = self.op(at, IsNan, self.scope.get(item))
            self.scope.set(found, nan)
            self.break_if(nan)

        self.counted_loop(at, at, self.list_items(at, lst), lambda x: self.scope.set(item, x), body,
                          [found, item])
        self.refuse_at_run_time(self.scope.get(found), why)
        self.scope.remove(found)
        self.scope.remove(item)

    def _list_copy(self, e, lst):
        self._arity_checked(e, 0, 0)
        return self.list_of(e, self.list_items(e, lst), self.list_dtype(lst))

    def list_dtype(self, lst: Node):
        """The element kind of a list (a tuple of kinds for a list of tuples)."""
        return lst.dtype if isinstance(lst, TupleList) else lst.type.dtype

    def _list_index(self, e, lst):
        if len(e.args) <= 1 or isinstance(lst, TupleList):
            return self._search(e, lst, "index")
        x, *bounds = self.exprs(self._arity_checked(e, 2, 3))
        with kept(x, *bounds):
            if _kind(x) not in ("int", "float", "bool", "number"):
                raise self.unsupported(e, "index() of a value that is not a number")
            bounds = [self.as_int_argument(at, b) for at, b in zip(e.args[1:], bounds)]
        with kept(x, *bounds):
            stop = bounds[1] if len(bounds) == 2 else self.con(2**63 - 1)
            return self.inline(e, list_index_between, [lst, x, bounds[0], stop])

    def _list_count(self, e, lst):
        return self._search(e, lst, "count")

    def _list_remove(self, e, lst):
        i = self._search(e, lst, "remove")
        with kept(i):
            self.remove_at(e, lst, i, "list.remove(x): x not in list")
        return self.con(None)

    def _search(self, e, lst, how: str) -> Node:
        """``index`` (the first position, ValueError if none), ``count`` (how many), and
        ``remove``'s position: a loop comparing as CPython's ``==`` with identity."""
        (x,) = self.exprs(self._arity_checked(e, 1, 1))
        with kept(x):
            if _kind(x) is None and not isinstance(x, Pack):  # a tuple: in a list of tuples
                raise self.unsupported(e, f"{how}() of a value that is not a number")
            acc, pos, item = self.temp(), self.temp(), self.temp()
            self.scope.set(acc, self.con(-1 if how != "count" else 0))
            self.scope.set(pos, self.con(0))

            def body():
                eq = self.element_equal(e, x, self.scope.get(item), lst)
                with kept(eq):
                    p = self.scope.get(pos)
                    if how == "count":
                        self.scope.set(acc, self.op(e, Add, self.scope.get(acc), eq))
                    else:
                        v = self.choose(eq, p, self.scope.get(acc))  # a new scope: set after
                        self.scope.set(acc, v)
                    self.scope.set(pos, self.op(e, Add, p, self.con(1)))
                    if how != "count":
                        self.break_if(eq)

            self.counted_loop(e, e, self.list_items(e, lst), lambda v: self.scope.set(item, v), body,
                              [acc, pos, item])
        r = self.scope.get(acc)
        with kept(r):
            for n in (acc, pos, item):
                self.scope.remove(n)
            if how != "count":
                self.guard(self.op(e, LT, r, self.con(0)), ValueError,
                           "list.remove(x): x not in list" if how == "remove" else "x is not in list")
        return r

    def element_equal(self, at, x: Node, y: Node, lst: Node) -> Node:
        """CPython's ``x is y or x == y`` for an element: a NaN meeting a NaN (equal only
        if one object) raises NotImplementedError."""
        with kept(x, y):
            if "float" in (_kind(x), _kind(y)) or "number" in (_kind(x), _kind(y)):
                both = self.op(at, BitAnd, self.nan_test(at, x), self.nan_test(at, y))
                self.refuse_at_run_time(both, "son cannot tell whether two NaNs in a list comparison are "
                                              "one object (CPython's answer)")
            return self.compare(at, EQ, x, y)

    def nan_test(self, at, x: Node) -> Node:
        return self.op(at, IsNan, x) if _kind(x) in ("float", "number") else self.con(False)

    # -- operators --------------------------------------------------------------------
    def list_arith(self, at, op: type, a: Node, b: Node) -> Node:
        """``xs + ys`` (a new list), ``xs * n`` and ``n * xs``."""
        if op is ast.Add and is_list(a) and is_list(b):
            if a.type != b.type:  # an empty list learns the other's kind, else a located error
                guessed = a if _origins_guessed(self, a) else b
                self.check_element(at, guessed, self.filler(at, (b if guessed is a else a).type.dtype))
            with kept(a, b):
                out = self.list_of(at, self.list_items(at, a), a.type.dtype).keep()
                self.extend(at, out, self.list_items(at, b))
                return out.unkeep()
        if op is ast.Mult and (is_list(a) != is_list(b)):
            lst, n = (a, b) if is_list(a) else (b, a)
            with kept(lst):
                n = self.as_int_argument(at, n)
            with kept(lst, n):
                return self.repeat(at, lst, n)
        raise self.error(at, f"unsupported operand types for list arithmetic: {a.type.widen()} and "
                             f"{b.type.widen()}", "operator")

    def repeat(self, at, lst: Node, n: Node) -> Node:
        """``lst * n``: ``n`` copies of its items (none for ``n <= 0``)."""
        if type(lst) is NewList and not lst.outputs and lst.inputs[1].type.is_con(1):
            # [v] * n of a list untouched since it was made with one element: v repeated
            return self.op(at, NewList, self.scope.ctrl, self.op(at, Max, n, self.con(0)), lst.inputs[2],
                           dtype=lst.dtype)
        out = self.empty_list(at, lst.type.dtype).keep()
        length = self.list_len(at, lst).keep()
        counter = self.temp()

        def body():
            self.extend(at, out, Counted(length, lambda k: self.op(at, Load, self.scope.ctrl, self.scope.mem,
                                                                   lst, k), []))

        self.range_loop(at, at, self.con(0).keep(), self.op(at, Max, n, self.con(0)).keep(),
                        self.con(1).keep(), bind=lambda k: self.scope.set(counter, k), body=body,
                        names=[counter])
        self.scope.remove(counter)
        length.unkeep()
        return out.unkeep()

    def list_augassign(self, s: ast.AugAssign, lst: Node) -> None:
        """``xs += it`` extends in place (every name for the list sees it); ``xs *= n``
        repeats in place."""
        with kept(lst):
            if isinstance(s.op, ast.Add):
                self.extend(s, lst, self.counted(s.value, self.iteration_source(s.value)))
                return
            if isinstance(s.op, ast.Mult):
                n = self.int_value(s.value)
                with kept(n):
                    copy = self.list_of(s, self.list_items(s, lst), lst.type.dtype).keep()
                    self.scope.mem = self.op(s, ListOp, self.scope.ctrl, self.scope.mem, lst, method="clear")
                    rep = self.repeat(s, copy, n)
                    copy.unkeep()
                    with kept(rep):
                        self.extend(s, lst, self.list_items(s, rep))
                return
        raise self.unsupported(s, "this augmented assignment of a list")

    def list_equal(self, at, a: Node, b: Node, negate: bool) -> Node:
        """``xs == ys``: the same length and equal items (CPython's identity-or-equality)."""
        if not (is_list(a) and is_list(b)):
            return self.con(negate)  # a list never equals a number or a tuple

        def pair(k):
            return self.pack([self.op(at, Load, self.scope.ctrl, self.scope.mem, a, k),
                              self.op(at, Load, self.scope.ctrl, self.scope.mem, b, k)])
        return self.equal_items(at, a, b, pair, negate)

    def equal_items(self, at, a: Node, b: Node, pair, negate: bool) -> Node:
        """Whether lists ``a`` and ``b`` (or lists of tuples) have one length and equal
        items, ``pair(k)`` packing their items k: a loop that stops at the first unequal
        pair, after a length test.  ``negate``: ``!=``."""
        with kept(a, b):
            na = self.list_len(at, a).keep()
            same = self.temp()
            self.scope.set(same, self.op(at, EQ, na, self.list_len(at, b)))
            item = self.temp()

            def body():
                x, y = self.scope.get(item).elems
                ok = self.element_equal(at, x, y, a)
                self.scope.set(same, ok)
                self.break_if(self.op(at, Not, ok))

            t, f = self.branch(self.scope.get(same))
            other = self.scope.dup()
            other.ctrl = f
            self.scope.ctrl = t
            self.counted_loop(at, at, Counted(na, pair, [na]), lambda v: self.scope.set(item, v), body,
                              [same, item])
            self.scope = self.merge([self.scope, other])
            r = self.scope.get(same)
            with kept(r):
                self.scope.remove(same)
                self.scope.remove(item)
            return self.op(at, Not, r) if negate else r

    def list_contains(self, at, x: Node, lst: Node) -> Node:
        found, item = self.temp(), self.temp()
        self.scope.set(found, self.con(False))
        if _kind(x) is None and not isinstance(x, Pack):  # a tuple: in a list of tuples
            raise self.unsupported(at, "'in' of a value that is not a number")

        def body():
            eq = self.element_equal(at, x, self.scope.get(item), lst)
            self.scope.set(found, eq)
            self.break_if(eq)

        with kept(x):
            self.counted_loop(at, at, self.list_items(at, lst), lambda v: self.scope.set(item, v), body,
                              [found, item])
        r = self.scope.get(found)
        with kept(r):
            self.scope.remove(found)
            self.scope.remove(item)
        return r

    # -- builtins ---------------------------------------------------------------------
    def call_list(self, e: ast.Call, name: str) -> Node:
        self.arity(e, name, 0, 1)
        return self.list_from(e, e.args[0] if e.args else None)

    def list_from(self, e: ast.Call, it: ast.expr | None) -> Node:
        """A new list of the items of ``it`` (none if None): ``list(it)``, ``sorted(it)``."""
        if it is None:
            return self.empty_list(e)
        if isinstance(it, ast.GeneratorExp):
            out = self.empty_list(e).keep()
            self.extend_by(e, out, it)
            return out.unkeep()
        src = self.counted(it, self.iteration_source(it))
        return self.list_of(e, src, self.list_dtype(src.lst) if src.lst is not None else None)

    def call_sorted(self, e: ast.Call, name: str) -> Node:
        if not e.args:
            raise self.error(e, "sorted() takes an iterable", name)
        out = self.list_from(e, e.args[0])
        with kept(out):
            self.sort(e, out, first=1)
        return out


def _origins_guessed(p, lst: Node) -> bool:
    made = p.learned.get(LIST_GUESSES, {})
    return any(made.get(n, (None, False))[1] for n in _origins(lst))


def _kind_name(dtype) -> str:
    return _KIND_OF_DTYPE[dtype] if isinstance(dtype, str) else str(dtype)


def _a(kind: str) -> str:
    return ("an " if kind[0] in "aeiou" else "a ") + kind


def _origins(lst: Node) -> list[Node]:
    """The nodes a list value may come from, through Phis and refinements."""
    out, seen, work = [], set(), [lst]
    while work:
        n = work.pop()
        if n is None or n in seen:
            continue
        seen.add(n)
        if type(n) is Phi:
            work.extend(n.inputs[1:])
        elif type(n) is Refine:
            work.append(n.inputs[1])
        else:
            out.append(n)
    return out


LIST_CALLS = {list: Lists.call_list, sorted: Lists.call_sorted}


def list_index_between(xs, x, start, stop):
    """``xs.index(x, start, stop)``: CPython's bounds (a negative one counts from the end,
    then at least 0), its identity-or-equality per item (two NaNs: son's refusal where
    the call runs, as ``element_equal``)."""
    n = len(xs)
    if start < 0:
        start = max(start + n, 0)
    if stop < 0:
        stop = max(stop + n, 0)
    for i in range(start, min(stop, len(xs))):
        if xs[i] == x:
            return i
        if xs[i] != xs[i] and x != x:
            raise NotImplementedError("son cannot tell whether two NaNs in a list comparison are one object "
                                      "(CPython's answer)")
    raise ValueError("x is not in list")
