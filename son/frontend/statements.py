"""Statements: assignment, ``return``, ``if``, ``assert``, ``raise``, ``break`` and
``continue`` (loops are in ``loops.py``).

``if`` splits the scope in two at an ``If`` and merges the arms at a ``Region``;
``return``, ``break`` and ``continue`` save a copy of the scope for the merge at the
function's exit or the loop's and make the rest of the block dead (XCtrl).  A block
is read only while its control is live: CPython never runs the rest, so a construct
son refuses there does not refuse the function (docs/decisions.md, "Dead code is not
read").  O(1) per statement besides its expressions and merges."""

from __future__ import annotations

import ast
import copy
import sys

from ..errors import SonSyntaxError
from ..nodes import Node, Not, Raise, Return, kept
from ..nodes.control import COMPLEX, LEAF, OPTIONAL, RANGE, grid_form
from ..nodes.rows import rows_form
from ..nodes.types import TOP
from .core import is_list
from .lists import annotated_dtype
from .scope import (
    Aggregate,
    ArrayList,
    Cplx,
    Grid,
    Opt,
    Pack,
    Rng,
    Scope,
    TupleList,
    View,
    compatible,
    describe,
    shape,
)
from .selection import is_selector


class Statements:
    """FunctionParser's statements (a mixin)."""

    def parse_body(self) -> Scope:
        """Parse the whole function; returns the merged exit scope (value in '$ret')."""
        self.stmts(self.src.tree.body)
        if not self.dead(self.scope):
            self.scope.set("$ret", self.con(None))
            self.returns.append(self.scope)
            self.arities.append((None, self.src.tree.body[-1]))  # falling off the end: None
        else:
            self.scope.drop()
        self.scope = None
        if not self.returns:
            s = Scope(self.g, self.xctrl(), self.g.start)
            # never returns: the value of a call that cannot return is dead (any value)
            s.set("$ret", self.dead_value() if self.path else self.con(None))
            return s
        return self.merge(self.returns)

    def stmts(self, body: list[ast.stmt]) -> None:
        """Parse ``body``; a run of statements marked opaque is one fallback region
        (regions.py), and an error is tagged with the innermost statement of the compiled
        function it happened in (so that ``parse_with_regions`` can mark it)."""
        outer = self.g.line
        opaque = self.opaque_statements()
        i = 0
        while i < len(body):
            if self.skip_dead and self.dead(self.scope):
                break  # unreachable: CPython never runs the rest, so son reads none of it
            s = body[i]
            if not self.path:  # the function's own statement (an inlined one keeps the call's line)
                self.g.line = s.lineno + self.src.line0
            try:
                if opaque and id(s) in opaque:
                    j = i + 1
                    while j < len(body) and id(body[j]) in opaque:
                        j += 1
                    self.python_region(body[i:j])
                    i = j
                    continue
                run = fused_generator(s, body[i + 1], self.src.tree) if i + 1 < len(body) and not (
                    opaque and id(body[i + 1]) in opaque) else None
                if run is not None:  # gen = (... for ...) passed first by the next statement
                    i += 1
                    s = body[i]  # (the statement an error is tagged with)
                else:
                    run = s
                method = getattr(self, "stmt_" + type(run).__name__, None)
                if method is None:
                    raise self.unsupported(run)
                method(run)
            except SonSyntaxError as e:
                if opaque is not None and not hasattr(e, "statement"):
                    e.statement = s
                raise
            finally:
                self.g.line = outer
            i += 1

    def stmt_Pass(self, s):
        pass

    def stmt_Expr(self, s):
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return  # a docstring
        v = self.expr(s.value)
        if v.is_unused():
            v.kill()

    def stmt_Assign(self, s):
        if isinstance(s.value, ast.GeneratorExp) and any(
                isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Slice) for t in s.targets):
            raise self.unsupported(s.value, "a generator expression assigned to a slice (CPython runs it "
                                            "after reading the bounds: write list(...))")
        v = self.expr_any(s.value)
        with kept(v):
            for t in s.targets:
                self.assign(t, v)

    def stmt_AnnAssign(self, s):
        if s.value is None:
            return
        dtype = annotated_dtype(s.annotation)
        if dtype is not None and isinstance(s.value, ast.List) and not s.value.elts:
            self.assign(s.target, self.empty_list(s.value, dtype))  # xs: list[int] = []
            return
        self.assign(s.target, self.expr_any(s.value))

    def assign(self, target: ast.expr, v: Node) -> None:
        if isinstance(target, ast.Subscript) and (spelled := self.spelled_slices(target)) is not target:
            try:  # x[s] = v of a slice value s: x[lo:hi:step] = v
                with kept(v):
                    self.assign(spelled, v)
                return
            finally:
                self.drop_spelled(spelled)
        if isinstance(target, ast.Name):
            self.scope.set(target.id, v)
        elif isinstance(target, ast.Subscript):
            with kept(v):
                base = self.expr(target.value)
            with kept(v, base):
                if isinstance(base, Grid):
                    self.store_grid(target, base, v)
                elif isinstance(target.slice, ast.Slice) and is_list(base):
                    self.list_store_slice(target, v, base)
                elif isinstance(target.slice, ast.Slice):
                    self.store_slice(target, v, base)
                else:  # a value that may be None: read in store()
                    arr, idx = self.subscript_parts(target, base, selections=True)
                    if is_selector(idx):
                        self.store_selection(target, arr, idx, v)
                    else:
                        self.store(target, arr, idx, v)
        elif isinstance(target, (ast.Tuple, ast.List)):
            self.unpack(target, v, target)
        else:
            raise self.unsupported(target, f"assignment to {type(target).__name__.lower()}",
                                   instead="son assigns to names, items of arrays and lists, and tuples "
                                           "of them")

    def stmt_Delete(self, s):
        for t in s.targets:
            if not isinstance(t, ast.Subscript):
                raise self.unsupported(s, "del statement of anything but list items (son deletes xs[i] "
                                          "and xs[i:j:k])")
            if isinstance(t.slice, ast.Slice):
                lst = self.expr(t.value)
                if not (is_list(lst) or isinstance(lst, TupleList)):
                    raise self.error(t, f"del of a slice of a {lst.type.widen()} value (son deletes list "
                                        "items)", "del")
                self.list_delete_slice(t, lst)
                continue
            lst, i = self.subscript_parts(t)
            if not (is_list(lst) or isinstance(lst, TupleList)):
                raise self.error(t, f"del of an item of a {lst.type.widen()} value (son deletes list "
                                    "items)", "del")
            with kept(lst, i):
                v = self.remove_at(t, lst, i, "list assignment index out of range")
            if v.is_unused():
                v.kill()

    def stmt_AugAssign(self, s):
        if isinstance(s.target, ast.Name):
            cur = self.read(s.target.id, s.target)
            if isinstance(cur, Opt):
                cur = self.unwrap(cur, s.target)
            if is_list(cur):  # in place: every name for the list sees it
                self.list_augassign(s, cur)
                return
            new = self.binop(s, type(s.op), cur, s.value)  # may replace self.scope
            self.scope.set(s.target.id, new)
        elif isinstance(s.target, ast.Subscript):
            base = self.expr(s.target.value)
            if isinstance(base, Grid):
                self.aug_grid(s, base)
                return
            with kept(base):
                arr, idx = self.subscript_parts(s.target, base, selections=True)
            with kept(arr, idx):
                if is_selector(idx):
                    self.aug_selection(s, arr, idx)
                    return
                cur = self.load(s.target, arr, idx)
                new = self.binop(s, type(s.op), cur, s.value)
                self.store(s.target, arr, idx, new)
        else:
            raise self.unsupported(s.target, "augmented assignment target",
                                   instead="son updates names and items of arrays and lists")

    def stmt_Return(self, s):
        v = self.expr_any(s.value) if s.value is not None else self.con(None)
        r = self.scope.dup()
        r.set("$ret", v)
        self.returns.append(r)
        if not (v.type is TOP and not isinstance(v, Aggregate)):  # a dead value: any shape
            self.arities.append((shape(v), s))
        self.scope.ctrl = self.xctrl()

    def return_value(self, out: Scope) -> Node:
        """The value the merged exit scope ``out`` returns (a ``Pack`` for a tuple).  Every
        ``return`` of a function gives a value of one shape (a typed graph has one result
        type), else ``SonSyntaxError`` at the first that differs."""
        k, first = self.arities[0] if self.arities else (None, None)
        for n, s in self.arities:
            if not compatible(n, k):  # None and a value merge: one that may be None
                raise self.error(s, f"this return gives {describe(n)} but the return at line "
                                 f"{first.lineno + self.src.line0} gives {describe(k)}; son needs one "
                                 "result type", "return")
        return out.get("$ret")

    def return_values(self, out: Scope) -> tuple[list[Node], object]:
        """The values a Return of the whole function carries and the ``form`` that makes
        the result from them (``Return.form``; None for one value or a flat tuple of
        several): a complex number is its parts, a range its bounds, a value that may be
        None inside a tuple its flag and its value, a nested tuple its elements in order."""
        v = self.return_value(out)
        if not isinstance(v, Aggregate) or isinstance(v, Opt):  # a value that may be None: exit_returns
            return [v], None
        return self.flat_form(v)

    def flat_form(self, v: Aggregate) -> tuple[list[Node], object]:
        """The values a Return of the aggregate ``v`` carries and its ``form``."""
        at = self.arities[0][1] if self.arities else self.src.tree
        flat: list[Node] = []
        stack: list = [v]  # flatten in order; the form is built from the same walk
        forms: list = []
        while stack:
            x = stack.pop()
            if isinstance(x, tuple):  # the end of a Pack: close its form
                n = x[1]
                forms[len(forms) - n:] = [tuple(forms[len(forms) - n:])]
            elif isinstance(x, Opt):  # its flag and its value (a placeholder where it is None)
                if isinstance(x.value, Aggregate):
                    raise self.unsupported(at, f"{describe(shape(x.value))} or None in the function's result")
                flat.extend(x.elems)
                forms.append(OPTIONAL)
            elif isinstance(x, Cplx) or isinstance(x, Rng):
                flat.extend(x.elems)
                forms.append(COMPLEX if isinstance(x, Cplx) else RANGE)
            elif isinstance(x, Grid):  # an n-D array or view: numpy's view of its base
                flat.extend(x.elems)
                forms.append(grid_form(x.ndim))
            elif isinstance(x, View):
                flat.extend([x.base, x.start, x.length, x.step])
                forms.append(grid_form(1))
            elif isinstance(x, TupleList):  # its columns (son/nodes/rows.py)
                flat.extend(x.elems)
                forms.append(rows_form(len(x.elems)))
            elif isinstance(x, ArrayList):
                raise self.unsupported(at, "numpy's list of arrays (np.split's) in the function's result "
                                           "(son holds it as a tuple)",
                                       instead="return tuple(...) of it, or its arrays")
            elif isinstance(x, Pack):
                stack.append(("end", len(x.elems)))
                stack.extend(reversed(x.elems))
            elif isinstance(x, Aggregate):
                raise self.unsupported(at, f"{describe(shape(x))} in the function's result")
            else:
                flat.append(x)
                forms.append(LEAF)
        (form,) = forms
        if form == ():
            raise self.unsupported(at, "an empty tuple as the function's result")
        if isinstance(form, tuple) and len(form) >= 2 and all(f == LEAF for f in form):
            form = None  # a flat tuple: the Return of several values is one
        return flat, form

    def exit_returns(self, out: Scope) -> None:
        """Hook the function's way out to Stop: a Return of its value (of a tuple's
        elements); for a value that may be None, a Return of None where it is None and a
        Return of the value elsewhere."""
        rets, form = self.return_values(out)
        if self.dead(out):
            return
        if not isinstance(rets[0], Opt):
            self.exit(Return(self.g, out.ctrl, out.mem, *rets, form=form))
            return
        opt = rets[0]
        self.scope = out
        with kept(opt):
            t, f = self.branch(opt.is_none)
            with kept(t, f):
                self.exit(Return(self.g, t, out.mem, self.con(None)))
                if isinstance(opt.value, Aggregate):  # a tuple or None
                    flat, form = self.flat_form(opt.value)
                    self.exit(Return(self.g, f, out.mem, *flat, form=form))
                else:
                    self.exit(Return(self.g, f, out.mem, opt.value))
        self.scope = None

    def stmt_If(self, s):
        cond = self.condition(s.test)
        t, f = self.branch(cond)
        other = self.scope.dup()
        other.ctrl = f
        self.scope.ctrl = t
        self.refine(self.scope, cond, True)
        self.refine(other, cond, False)
        self.stmts(s.body)
        then = self.scope
        self.scope = other
        self.stmts(s.orelse)
        self.scope = self.merge([then, self.scope])

    def stmt_Assert(self, s):
        msg = ""
        if s.msg is not None:
            if not (isinstance(s.msg, ast.Constant) and isinstance(s.msg.value, str)):
                raise self.unsupported(s.msg, "assert message that is not a string literal",
                                       instead="write the message as one")
            msg = s.msg.value
        ok = self.condition(s.test)
        self.guard(self.op(s, Not, ok), AssertionError, msg)

    def stmt_Raise(self, s):
        exc, msg = s.exc, ""
        if isinstance(exc, ast.Call):
            if len(exc.args) > 1 or exc.keywords or (exc.args and not (
                    isinstance(exc.args[0], ast.Constant) and isinstance(exc.args[0].value, str))):
                raise self.unsupported(exc, "raise with arguments other than one string literal",
                                       instead="write raise ValueError('the message')")
            msg = exc.args[0].value if exc.args else ""
            exc = exc.func
        cls = self.resolve(exc) if exc is not None else None
        if not (isinstance(cls, type) and issubclass(cls, Exception) and _importable(cls)):
            raise self.unsupported(s, "raise of anything but an exception class a kernel can import (a "
                                      "builtin one, or one defined at the top of an importable module)",
                                   instead="raise one such as ValueError or IndexError")
        self.exit(Raise(self.g, self.scope.ctrl, self.scope.mem, cls, msg))
        self.scope.ctrl = self.xctrl()

    def stmt_Break(self, s):
        if not self.loops:
            raise self.error(s, "'break' outside loop", "break")
        self.loops[-1].breaks.append(self.scope.dup())
        self.scope.ctrl = self.xctrl()

    def stmt_Continue(self, s):
        if not self.loops:
            raise self.error(s, "'continue' not properly in loop", "continue")
        self.loops[-1].continues.append(self.scope.dup())
        self.scope.ctrl = self.xctrl()


def _importable(cls: type) -> bool:
    """Can a kernel module (loaded from the disk cache, maybe by another process) import
    exception class ``cls`` by name?  A builtin, or a top-level class of a module other
    than ``__main__`` (numpy.linalg.LinAlgError, a library's or the user's own)."""
    if cls.__module__ == "builtins":
        return True
    mod = sys.modules.get(cls.__module__)
    return (mod is not None and cls.__module__ != "__main__" and cls.__qualname__.isidentifier()
            and getattr(mod, cls.__qualname__, None) is cls)


def fused_generator(s: ast.stmt, nxt: ast.stmt, tree: ast.AST) -> ast.stmt | None:
    """``gen = (elt for x in xs)`` followed by a statement whose first evaluation passes
    ``gen`` to a call (``return sum(gen)``, ``total = max(gen, default=0) + 1``), and
    ``gen`` read nowhere else: that statement with the generator expression in place of
    the name, which CPython runs alike (nothing is evaluated between making the generator
    and reading it; its items are computed as the reader asks, in both).  None otherwise.
    O(size of the function) per candidate."""
    if not (isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)
            and isinstance(s.value, ast.GeneratorExp)):
        return None
    name = s.targets[0].id
    if sum(isinstance(n, ast.Name) and n.id == name for n in ast.walk(tree)) != 2:
        return None  # read twice, rebound, or read in another block
    if not (isinstance(nxt, (ast.Return, ast.Assign, ast.AugAssign, ast.Expr)) and nxt.value is not None):
        return None
    holder = _first_read(nxt.value, name)
    if holder is None:
        return None
    fused = copy.copy(nxt)
    path = _path_to(nxt.value, holder)  # copy the nodes from the value down to the holder
    value = copy.copy(nxt.value)
    fused.value = node = value
    for step in path:
        child = copy.copy(getattr(node, step[0]) if step[1] is None else getattr(node, step[0])[step[1]])
        if step[1] is None:
            setattr(node, step[0], child)
        else:
            items = list(getattr(node, step[0]))
            items[step[1]] = child
            setattr(node, step[0], items)
        node = child
    args = list(node.args)
    args[0] = s.value
    node.args = args
    return fused


def _is_name(x: ast.AST, name: str) -> bool:
    return isinstance(x, ast.Name) and x.id == name


def _first_read(e: ast.expr, name: str):
    """The call whose first argument is ``name`` where ``e`` evaluates that argument
    before anything else (down the first operand of operators and calls of plain
    names); None otherwise."""
    while True:
        if isinstance(e, ast.Call):
            if not isinstance(e.func, (ast.Name, ast.Attribute)) or not e.args \
                    or isinstance(e.args[0], ast.Starred):
                return None
            if isinstance(e.func, ast.Attribute) and not isinstance(e.func.value, ast.Name):
                return None
            if _is_name(e.args[0], name):
                return e
            e = e.args[0]
        elif isinstance(e, ast.BinOp):
            e = e.left
        elif isinstance(e, ast.UnaryOp):
            e = e.operand
        elif isinstance(e, ast.Compare):
            e = e.left
        else:
            return None


def _path_to(e: ast.expr, target: ast.expr) -> list[tuple[str, int | None]]:
    """The fields from ``e`` down to ``target`` along ``_first_read``'s way."""
    path = []
    while e is not target:
        if isinstance(e, ast.Call):
            path.append(("args", 0))
            e = e.args[0]
        else:
            f = "left" if isinstance(e, (ast.BinOp, ast.Compare)) else "operand"
            path.append((f, None))
            e = getattr(e, f)
    return path
