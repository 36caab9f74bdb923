"""JIT fallback per region: statements son cannot express become one ``PyRegion`` node
each (son/nodes/opaque.py) that CPython runs, and the rest of the function stays a graph.

How a parse finds its regions (``parse_with_regions``): it parses; when a statement of
the compiled function fails with a ``SonSyntaxError`` (``Statements.stmts`` tags the
error with the innermost such statement), that statement is marked *opaque* and the
whole function is parsed again.  So a parse costs one attempt per unsupported
statement, and no half-built graph is ever patched.  Consecutive opaque statements are
one region.  Statements that read or write a name the function declares ``global`` or
``nonlocal`` are opaque from the start: son's graph would take such a name for a local.

What crosses a region's boundary (``Regions.python_region``):

- *live-ins*: the function's variables the region reads or may assign, as they are
  where it starts (ints, floats, bools, arrays; tuples, complex numbers, slices and n-D
  arrays as their leaves, from which the region rebuilds them; lists of numbers as
  copies, whose items come back when the region changes them in place (see
  ``lists_in``); an array is shared, so writes into it or into a view of it inside the
  region are seen after it);
- *live-outs*: the variables it may assign that code outside regions uses, typed by an
  annotation in the region (``x: float = ...``), else by the kind the variable has
  where the region starts, else by what the syntax of every value the region assigns
  it says (``0.0``, ``len(s)``, ``a < b``, arithmetic on typed variables); a variable
  whose kind none of these gives is a located error asking for an annotation.
  ``run_region`` checks each kind at run time and names the variable if CPython gave
  another one;
- variables only regions use (a dict, a string) stay Python objects in the call's frame.

A recursive function has no regions (its calls would share one frame).  Control may
leave a region: a ``return X`` (X typed by the function's annotation ``-> int`` or by
its syntax), a ``break`` or ``continue`` of a loop around it; the region then gives a
status and the graph branches on it as the statement would.  A bare ``return``, a
``yield``, and a value of another kind crossing the boundary (a list the region
rebinds or hands to other code, a function, a range) stay a located ``SonSyntaxError``.
O(statements) per region; a parse is repeated once per unsupported statement.
"""

from __future__ import annotations

import ast
import copy
import hashlib
import types

from ..errors import SonSyntaxError
from ..nodes import EQ, Call, ListOp, Loop, NewList, Node, Phi, Proj, Raise, Start, kept
from ..nodes.opaque import RAISED, RERAISE, PyOut, PyRegion, PyRegionMem, RegionCode, register
from ..nodes.types import BOOL, FLOAT, INT, TOP, ArrayType, ScalarType
from .core import is_list
from .scope import Aggregate, ArrayList, Conflict, Cplx, Grid, Pack, Strided, View, describe, flag, shape

#: ``FunctionParser.learned`` key: id(statement) -> (statement, why son refused it)
OPAQUE = "opaque statements"
#: ``learned`` keys: the names used outside opaque statements, and the function's
#: ``global``/``nonlocal`` declarations (each computed once per parse)
GRAPH_NAMES, DECLARED = "graph names", "declared names"

_KINDS = {"int": INT, "float": FLOAT, "bool": BOOL}
#: the names the graph gives a region's status and returned value while it branches on them
STATUS, RESULT = "__son_status__", "__son_result__"


class Opaque(dict):
    """id(statement) -> (statement, why son refused it), and the errors found while the
    regions of the last parse were made (``deferred``): a variable's kind may be unknown
    only because a later statement that will be opaque too was not yet, so they are
    raised only by a parse that fails nowhere else."""

    def __init__(self, items: dict):
        super().__init__(items)
        self.deferred: list[SonSyntaxError] = []
        #: variables a region gave a value of a kind son cannot tell: Python objects in
        #: the call's frame, so every statement that binds one runs with CPython too
        self.python_only: set[str] = set()


def parse_with_regions(build, src):
    """``build(opaque)`` until it succeeds, marking each statement it fails on opaque."""
    opaque = Opaque(_declared_name_statements(src.tree))
    for _ in range(_count_statements(src.tree) + 1):
        opaque.deferred = []
        try:
            g = build(opaque)
            if opaque.deferred:
                raise opaque.deferred[0]
            binding = _compiled_bindings(src.tree, opaque.python_only, opaque)
            if binding:  # compiled code would bind a variable whose value lives in the frame
                for s in binding:
                    why = _cannot_fall_back(s)
                    if why:
                        raise SonSyntaxError(f"son runs the code that gives variable(s) "
                                             f"{', '.join(sorted(opaque.python_only))} a value with CPython, "
                                             f"and so this statement that assigns one too, but cannot: {why}",
                                             src.filename, s.lineno + src.line0, s.col_offset, "fallback")
                    opaque[id(s)] = (s, "it assigns a variable that code son runs with CPython gives a value "
                                        "of a kind son cannot tell")
                continue
            _refuse_recursion(g, src)
            return g
        except SonSyntaxError as e:
            if e in opaque.deferred:
                raise
            s = getattr(e, "statement", None)
            if s is None or id(s) in opaque:
                raise
            why = _cannot_fall_back(s) or _SHARED_CELLS.get(e.construct)
            if why:
                raise SonSyntaxError(f"{e.message} (and son cannot run it with CPython in the middle of "
                                     f"compiled code: {why})", e.filename, e.lineno, e.col,
                                     e.construct) from None
            opaque[id(s)] = (s, e.message)
    raise AssertionError("a parse failed twice on the same statement")


class Regions:
    """FunctionParser's fallback regions (a mixin)."""

    def opaque_statements(self) -> dict | None:
        """The opaque statements, when this parser parses the compiled function itself
        (an inlined helper's statements are never regions: its caller's statement is)."""
        return self.learned.get(OPAQUE) if len(self.stack) == 1 else None

    def python_region(self, run: list[ast.stmt]) -> None:
        """Make the region of consecutive opaque statements ``run``.  Where control may
        leave it (a ``return``, a ``break`` or ``continue`` of a loop around it), the
        region gives a status (0: on, 1: return, 2: break, 3: continue; see
        ``_region_code``) and the graph branches on it as the statements would."""
        if self.dead(self.scope):
            return
        opaque = self.learned[OPAQUE]
        why = "; ".join(dict.fromkeys(opaque[id(s)][1] for s in run))
        exits = _exits(run)
        self.region_of(run, exits, why)
        if not exits:
            return
        at = run[0]

        def status_is(k: int, body: list[ast.stmt], orelse: list[ast.stmt]) -> ast.If:
            test = ast.Compare(ast.Name(STATUS, ast.Load()), [ast.Eq()], [ast.Constant(k)])
            return ast.If(test, body, orelse)

        # a region whose last statement returns never goes on (status 0): its return is
        # the last alternative, untested, so the function does not seem to fall off its end
        ends = isinstance(run[-1], ast.Return)
        branch: list[ast.stmt] = [ast.Return(ast.Name(RESULT, ast.Load()))] if ends else []
        for k, stmt in ((3, ast.Continue()), (2, ast.Break()), (1, ast.Return(ast.Name(RESULT, ast.Load())))):
            if k in exits and not (ends and k == 1):
                branch = [status_is(k, [stmt], branch)]
        tree = ast.Module(branch, [])
        for n in ast.walk(tree):
            ast.copy_location(n, at)
        self.stmts(tree.body)
        for name in (STATUS, RESULT):
            if self.scope.get(name) is not None:
                self.scope.remove(name)

    def region_of(self, run: list[ast.stmt], exits: dict, why: str) -> None:
        graph_names = self.learned.get(GRAPH_NAMES)
        if graph_names is None:
            graph_names = self.learned[GRAPH_NAMES] = _graph_names(self.src.tree, self.learned[OPAQUE])
        reads, writes = _names_in(run)
        decl = self.learned.get(DECLARED)
        if decl is None:
            decl = self.learned[DECLARED] = _declarations(self.src.tree)
        local = self.local_names - decl["global"] - decl["nonlocal"]
        # Python-only variables: those no compiled code uses, and those a region gave a
        # value of a kind son cannot tell (a Conflict in the scope, so that compiled code
        # reading one fails there and becomes a region too, parse after parse)
        frame = {n for n in (reads | writes) & local
                 if n not in graph_names or isinstance(self.scope.get(n), Conflict)}
        ins, vals, unbound, rebuilds = [], [], [], []
        lists: list = []  # (name, node, changed) of each list going in
        for name in sorted((reads | writes) & local - frame):
            if self.scope.get(name) is None or name not in reads and self.scope.get(flag(name)) is not None:
                # unbound, or maybe unbound and only assigned: a local of the region's function
                # without a value (CPython's UnboundLocalError if the region ends without one)
                unbound.append(name)
                continue
            v = self.read(name, run[0])  # maybe unbound and read: raises here, as the region would
            use = _list_use(run, name) if is_list(v) and isinstance(v.type.dtype, str) else None
            if use == "reads" and name not in writes or use == "changes":
                lists.append((name, v, use == "changes"))
                continue
            if isinstance(v, (Pack, Cplx, Strided)):  # its leaves go in, the region rebuilds it
                leaves: list = []
                text = _rebuilt(v, name, leaves)
                if all(self.crosses(run[0], name, x, why) for _, x in leaves):
                    ins += [p for p, _ in leaves]
                    vals += [x for _, x in leaves]
                    rebuilds.append(f"{name} = {text}")
                continue
            if not self.crosses(run[0], name, v, why):
                continue
            ins.append(name)
            vals.append(v)
        changed = self.lists_in(run[0], lists, why, ins, vals, rebuilds)
        outs, kinds, unknown = [], [], []
        for name in sorted(writes & graph_names - frame - {name for name, _, _ in lists}):
            kind = self.live_out_kind(run, name)
            if kind is not None:
                outs.append(name)
                kinds.append(kind)
            else:
                unknown.append(name)
                self.learned[OPAQUE].python_only.add(name)
        if 1 in exits:  # the value a `return` in the region gives: the last live-out
            kind = self.result_kind(exits[1])
            if kind is None:
                self.learned[OPAQUE].deferred.append(self.error(
                    exits[1][0], f"son runs this code with CPython ({why}), but cannot tell the kind of the "
                                 "value it returns: annotate the function's result ('-> float')", "fallback"))
                kind = FLOAT  # for the rest of this parse
            outs.append(RESULT)
            kinds.append(kind)
        backs = [(i, ArrayType(v.type.dtype)) for i, _, v in changed]
        code = _region_code(self.src, run, ins, outs, kinds, sorted(frame | set(unknown)), unbound, why,
                            decl, bool(exits), rebuilds, backs)
        with kept(*vals):
            region = self.op(run[0], PyRegion, self.scope.ctrl, self.scope.mem, *vals, code=register(code))
        with kept(region):
            self.scope.mem = self.op(run[0], PyRegionMem, region)
            for i, name in enumerate(outs):
                self.scope.set(name, self.op(run[0], PyOut, region, index=i + 1))
            if exits or changed:
                self.scope.set(STATUS, self.op(run[0], PyOut, region, index=0))
            for j, (_, _, lst) in enumerate(changed):
                self.give_back(run[0], lst, self.op(run[0], PyOut, region, index=len(outs) + 1 + j))
        for name in unknown:
            self.scope.set(name, Conflict(self.g))
        if changed:  # an exception the region raised after changing them: raised again now
            self.reraise(run[0])
            if not exits:
                self.scope.remove(STATUS)

    def give_back(self, at: ast.stmt, lst: Node, items: Node) -> None:
        """Make list ``lst`` hold ``items`` (an array the region gave back): cleared, then
        extended, so every name for it sees the region's changes.  O(1) nodes, a loop."""
        with kept(lst, items):
            self.scope.mem = self.op(at, ListOp, self.scope.ctrl, self.scope.mem, lst, method="clear")
            self.extend(at, lst, self.array_items(at, items))

    def reraise(self, at: ast.stmt) -> None:
        """``if status == RAISED: raise`` the exception the region caught (see
        ``run_region``) once its lists have their items back."""
        pred = self.op(at, EQ, self.scope.get(STATUS), self.con(RAISED))
        t, f = self.branch(pred)
        with kept(f):
            again = self.op(at, PyRegion, t, self.scope.mem, code=RERAISE)
            with kept(again):
                mem = self.op(at, PyRegionMem, again)
            self.exit(Raise(self.g, t, mem, RuntimeError, "a fallback region's exception was lost"))
        self.scope.ctrl = f

    def lists_in(self, at: ast.stmt, lists: list, why: str, ins: list, vals: list, rebuilds: list) -> list:
        """Pass the lists of numbers a region uses, each (name, node, changed) in
        ``lists``; returns (position in ``ins``, name, node) of each list it changes.

        Names for one node are one list: it goes in once and the other names are bound
        to it in the region.  A list the region only reads goes in as a copy; one it
        changes as itself, which ``run_region`` copies into a list and gives back as an
        array of its items.  The region must then know which other lists it is given
        are that list: lists made by two different ``NewList`` are not; any other pair
        (two parameters, a list chosen by a branch) might be, a deferred located error.
        O(lists^2)."""
        groups: dict[int, list] = {}
        for name, v, changes in lists:
            groups.setdefault(id(v), []).append((name, v, changes))
        changed = []
        for group in groups.values():
            name, v = group[0][0], group[0][1]
            if any(c for _, _, c in group):
                changed.append((len(ins), name, v))
                ins.append(name)
            else:
                param = f"__son_list_{name}"  # a copy (a numpy array in a kernel), made a list again
                ins.append(param)
                rebuilds.append(f"{name} = {param}.tolist() if hasattr({param}, 'tolist') else list({param})")
            vals.append(v)
            rebuilds += [f"{other} = {name}" for other, _, _ in group[1:]]
        for _, name, v in changed:
            for group in groups.values():
                w = group[0][1]
                if w is not v and not _distinct(v, w):
                    self.learned[OPAQUE].deferred.append(self.error(
                        at, f"{why} (son would run this code with CPython, which changes list {name!r}, "
                            f"but cannot tell whether {group[0][0]!r} is the same list: give the code one "
                            "of them)", "fallback"))
        return changed

    def crosses(self, at: ast.stmt, name: str, v: Node, why: str) -> bool:
        """May ``v`` be passed into a region?  If not, a deferred error (see ``Opaque``)."""
        ok = not isinstance(v, Aggregate) and (
            isinstance(v.type, ArrayType) or v.type is TOP
            or isinstance(v.type, ScalarType) and v.type.kind in ("int", "float", "bool"))
        if not ok:
            what = (f"a {len(v.dims)}-D array" if isinstance(v, Grid) else describe(shape(v))
                    if isinstance(v, Aggregate) else str(v.type.widen()))
            self.learned[OPAQUE].deferred.append(self.error(
                at, f"{why} (son would run this code with CPython, but variable {name!r} is {what}, and son "
                    "passes into such code only numbers, arrays, tuples, and lists it only reads or "
                    "changes in place: their methods, items, +=)",
                "fallback"))
        return ok

    def live_out_kind(self, run: list[ast.stmt], name: str):
        """The declared kind of live-out ``name``: an annotation in the region, else the
        kind it has where the region starts, else the kind every value the region assigns
        it has by its syntax (``expression_kind``), else None (unknown).  A variable a
        loop binds first has, where the region starts in that loop's body, a placeholder
        whose kind is the loop's guess, made to be corrected by the value the back edge
        brings: it says nothing (the region's value would be the back edge's, so the
        guess confirmed itself, and a float was refused at run time as an int)."""
        seen = set()
        for s in run:
            for n in ast.walk(s):
                if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and n.target.id == name:
                    ann = n.annotation
                    if isinstance(ann, ast.Name) and ann.id in _KINDS:
                        return _KINDS[ann.id]
                    raise self.error(n, f"annotation of {name!r}: son takes int, float or bool for a "
                                        "variable assigned in code it runs with CPython", "fallback")
                if isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name
                                                     for t in n.targets):
                    seen.add(self.expression_kind(n.value))
        before = self.scope.get(name)
        if _guessed_in_loop(before, self.scope.get(flag(name))):
            before = None
        if before is not None and before.type is not TOP:
            if isinstance(before, Aggregate) or isinstance(before.type, ArrayType) \
                    or before.type.widen().kind not in _KINDS:
                return None  # a value son cannot take back from CPython
            return _KINDS[before.type.widen().kind]
        if len(seen) == 1 and None not in seen:
            return _KINDS[seen.pop()]
        return None

    def result_kind(self, returns: list[ast.Return]):
        """The kind of what the region's ``return`` statements give: the function's
        annotation (``-> int``), else their values' syntax when it agrees, else None."""
        ann = self.src.tree.returns
        if isinstance(ann, ast.Name) and ann.id in _KINDS:
            return _KINDS[ann.id]
        seen = {self.expression_kind(r.value) for r in returns}
        return _KINDS[seen.pop()] if len(seen) == 1 and None not in seen else None

    def expression_kind(self, e: ast.expr) -> str | None:
        """The kind CPython gives ``e`` when the syntax says it (a literal, ``len(...)``,
        ``int(...)``, a comparison, arithmetic on those and on the function's variables);
        None when it does not.  O(size of e)."""
        if isinstance(e, ast.Constant):
            k = type(e.value).__name__
            return k if k in _KINDS else None
        if isinstance(e, ast.Compare) or isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.Not):
            return "bool"
        if isinstance(e, ast.BoolOp):  # `a or b` is one of its operands
            kinds = {self.expression_kind(v) for v in e.values}
            return kinds.pop() if len(kinds) == 1 else None
        if isinstance(e, ast.Call) and isinstance(e.func, ast.Name):
            return _CALL_KINDS.get(e.func.id) if not (e.func.id == "round" and len(e.args) > 1) else None
        if isinstance(e, ast.Name):
            v = self.scope.get(e.id)
            if v is not None and not isinstance(v, Aggregate) and v.type is not TOP:
                k = v.type.widen().kind
                return k if k in _KINDS else None
            return None
        if isinstance(e, ast.UnaryOp):
            k = self.expression_kind(e.operand)
            return "int" if k == "bool" and not isinstance(e.op, ast.Not) else k
        if isinstance(e, ast.BinOp):
            a, b = self.expression_kind(e.left), self.expression_kind(e.right)
            if a is None or b is None:
                return None
            if isinstance(e.op, ast.Div) or "float" in (a, b):
                return "float"
            if isinstance(e.op, ast.Pow):
                return None  # an int to a negative power is a float
            return "bool" if a == b == "bool" and isinstance(e.op, (ast.BitAnd, ast.BitOr, ast.BitXor)) \
                else "int"
        return None


#: builtins whose result has one kind
_CALL_KINDS = {"len": "int", "int": "int", "ord": "int", "round": "int", "hash": "int", "id": "int",
               "float": "float", "bool": "bool", "isinstance": "bool", "callable": "bool",
               "hasattr": "bool", "all": "bool", "any": "bool"}


# ---------------------------------------------------------------- the region's function
def _guessed_in_loop(v: Node | None, bound: Node | None) -> bool:
    """Is ``v`` the Phi, in a loop being parsed, of a variable unbound where the loop
    (or one around it) was entered, so that its kind is a placeholder's?"""
    def entry(x):
        while type(x) is Phi and type(x.inputs[0]) is Loop and x.inputs[2] is None:
            x = x.inputs[1]
        return x

    return (type(v) is Phi and type(v.inputs[0]) is Loop and v.inputs[2] is None and bound is not None
            and entry(bound).type.is_con(False))


def _region_code(src, run, ins, outs, kinds, frame, unbound, why, decl: dict, exits: bool = False,
                 rebuilds: list[str] = (), backs: list = ()) -> RegionCode:
    """Compile the region's function: ``fn(frame, *ins)`` returning ``(0, *outs)``, or
    where control leaves it ``(1, value)`` (a return), ``(2, locals())`` (a break),
    ``(3, locals())`` (a continue); run_region pads those to the declared tuple.  Frame variables are saved
    in a ``finally``, so also when control leaves."""
    first, last = run[0].lineno + src.line0, run[-1].end_lineno + src.line0
    reads, writes = _names_in(run)
    lines = []
    for kw, names in (("global", decl["global"]), ("nonlocal", decl["nonlocal"])):
        if names & (reads | writes):
            lines.append(f"{kw} {', '.join(sorted(names & (reads | writes)))}")
    lines += [f"if False:\n    {u} = None" for u in unbound]  # local, as in the function
    lines += list(rebuilds)  # tuples and complex numbers from their leaves
    lines += [f"if {p!r} in __son_frame:\n    {p} = __son_frame[{p!r}]" for p in frame]
    saves = [f"try:\n    __son_frame[{p!r}] = {p}\nexcept NameError:\n    __son_frame.pop({p!r}, None)"
             for p in frame if p in writes]
    lines.append("try:\n    __son_body__\nfinally:\n" + "\n".join("    " + x for t in saves + ["pass"]
                                                                  for x in t.split("\n")))
    lines.append(f"return (0, {''.join(o + ', ' for o in outs if o != RESULT)})")
    free = tuple(getattr(getattr(src.pyfunc, "__code__", None), "co_freevars", ()))
    inner = "\n".join("        " + x for text in lines for x in text.split("\n"))
    text = ("def __son_make__():\n"
            + (f"    {' = '.join(free)} = None\n" if free else "")
            + f"    def __son_region__({', '.join(['__son_frame', *ins])}):\n{inner}\n"
            + "    return __son_region__\n")
    module = ast.parse(text)
    for n in ast.walk(module):
        if hasattr(n, "lineno"):
            n.lineno = n.end_lineno = first
            n.col_offset = n.end_col_offset = 0
    fn_def = module.body[0].body[-2]
    holder = next(s for s in fn_def.body if isinstance(s, ast.Try))
    body = [ast.copy_location(ast.Pass(), s) if isinstance(s, (ast.Global, ast.Nonlocal))  # declared above
            else copy.deepcopy(s) for s in run]
    for s in body:
        ast.increment_lineno(s, src.line0)
    if exits:
        body = _leave_with_status(body)
    holder.body = body
    ast.fix_missing_locations(module)
    namespace: dict = {}
    exec(compile(module, src.filename, "exec"), namespace)  # noqa: S102 - the user's own statements
    made = namespace["__son_make__"]()
    cells = dict(zip(free, getattr(src.pyfunc, "__closure__", None) or ()))
    fn = types.FunctionType(made.__code__, src.globals, f"{src.name}:{first}", None,
                            tuple(cells[n] for n in made.__code__.co_freevars) or None)
    source = "\n".join(ast.unparse(s) for s in run)
    key = hashlib.sha1(repr((src.filename, src.name, first, source, ins, outs, [str(t) for t in kinds],
                             frame, [i for i, _ in backs])).encode()).hexdigest()[:16]
    return RegionCode(key, fn, ins, outs, kinds, src.filename, (first, last), source, why, tuple(backs))


#: what a region may do with a list it is given: calls that only read their argument and
#: keep nothing of it, calls whose result keeps the list (an iterator over it: only where
#: it is consumed at once), and the list methods that do not change it / that do
_READING_CALLS = frozenset({"print", "len", "str", "repr", "sum", "min", "max", "sorted", "list", "tuple",
                            "any", "all", "set", "format"})
_LAZY_CALLS = frozenset({"enumerate", "zip", "reversed", "iter"})
_READING_METHODS = frozenset({"count", "index", "copy"})
_CHANGING_METHODS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse"})


def _list_use(run: list[ast.stmt], name: str) -> str | None:
    """How ``run`` uses list ``name``: "reads" (never changes it nor lets anything keep
    it), "changes" (also changes it in place: its methods, item and slice assignment
    and deletion, ``+=``/``*=``), or None (anything else: handed to other code, kept in
    another variable or in an iterator that outlives the statement, rebound).
    Syntactic: every use is an argument of a reading builtin, an f-string value, an
    item or slice read, an iteration, a comparison, a test (``if xs``, ``not xs``), an
    operand of ``+``/``*``, a method.  O(size of run)."""
    parents: dict[ast.AST, ast.AST] = {}
    for s in run:
        for p in ast.walk(s):
            for c in ast.iter_child_nodes(p):
                parents[c] = p

    def consumed(e: ast.expr) -> bool:
        """Is the iterator ``e`` makes used up where it is made: iterated by a ``for``
        or an eager comprehension, or given to a reading call (through lazy ones)?"""
        while True:
            p = parents.get(e)
            if isinstance(p, ast.comprehension) and p.iter is e:
                e = parents[p]
                if not isinstance(e, ast.GeneratorExp):
                    return True
            elif isinstance(p, ast.For) and p.iter is e:
                return True
            elif isinstance(p, ast.Call) and e in p.args and isinstance(p.func, ast.Name) \
                    and p.func.id in _READING_CALLS | _LAZY_CALLS:
                if p.func.id in _READING_CALLS:
                    return True
                e = p
            else:
                return False

    use = "reads"
    for s in run:
        for n in ast.walk(s):
            if not (isinstance(n, ast.Name) and n.id == name):
                continue
            p = parents.get(n)
            call = parents.get(p)
            method = isinstance(p, ast.Attribute) and isinstance(call, ast.Call) and call.func is p
            if (isinstance(p, ast.Call) and n in p.args and isinstance(p.func, ast.Name)
                    and (p.func.id in _READING_CALLS or p.func.id in _LAZY_CALLS and consumed(p))
                    or isinstance(p, ast.FormattedValue)
                    or isinstance(p, ast.Subscript) and p.value is n and isinstance(p.ctx, ast.Load)
                    or isinstance(p, (ast.For, ast.comprehension)) and p.iter is n and consumed(n)
                    or isinstance(p, ast.Compare)
                    or isinstance(p, (ast.If, ast.IfExp, ast.While)) and p.test is n
                    or isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.Not)
                    or isinstance(p, ast.BinOp) and isinstance(p.op, (ast.Add, ast.Mult))
                    or method and p.attr in _READING_METHODS):
                continue
            item = isinstance(p, ast.Subscript) and p.value is n
            if (method and p.attr in _CHANGING_METHODS or item and isinstance(p.ctx, (ast.Store, ast.Del))
                    or isinstance(p, ast.AugAssign) and p.target is n
                    and isinstance(p.op, (ast.Add, ast.Mult))):
                use = "changes"
                continue
            return None
    return use


def _distinct(v: Node, w: Node) -> bool:
    """Are list nodes ``v`` and ``w`` surely two objects?  A list made by a ``NewList``
    is a new object: not another ``NewList``'s, nor a parameter's."""
    def param(x):
        return type(x) is Proj and type(x.inputs[0]) is Start
    return type(v) is NewList and (type(w) is NewList or param(w)) \
        or type(w) is NewList and param(v)


def _rebuilt(v, name: str, leaves: list) -> str:
    """The Python expression that rebuilds tuple, complex or array view ``v`` from
    parameters named after its leaves (appended to ``leaves`` as (parameter, node));
    recursive in the tuple's nesting, which the source text bounds.  A view (a 1-D
    slice, an n-D array) is numpy's view of the same base array, so the region's writes
    into it are seen after it."""
    if isinstance(v, Strided):
        base, start = _rebuilt(v.base, name, leaves), _rebuilt(v.start, name, leaves)
        dims, strides = ((v.length,), (v.step,)) if isinstance(v, View) else (v.dims, v.strides)
        shape = "".join(_rebuilt(x, name, leaves) + ", " for x in dims)
        steps = "".join(f"{_rebuilt(x, name, leaves)} * {base}.itemsize, " for x in strides)
        return f"__import__('numpy').lib.stride_tricks.as_strided({base}[{start}:], ({shape}), ({steps}))"
    if isinstance(v, Cplx):
        return f"complex({_rebuilt(v.re, name, leaves)}, {_rebuilt(v.im, name, leaves)})"
    if isinstance(v, ArrayList):  # numpy's list of arrays: a list in CPython's code
        return "[" + "".join(_rebuilt(x, name, leaves) + ", " for x in v.elems) + "]"
    if isinstance(v, Pack):
        return "(" + "".join(_rebuilt(x, name, leaves) + ", " for x in v.elems) + ")"
    param = f"__son_{name}_{len(leaves)}"
    leaves.append((param, v))
    return param


def _exit_sites(body: list[ast.stmt]):
    """Each way control leaves ``body``, as (statement list, position, status): a
    ``return`` (1), a ``break`` (2) or ``continue`` (3) of a loop outside ``body``; not
    inside nested functions or classes, whose returns are their own."""
    stack = [(body, 0)]
    while stack:
        items, loops = stack.pop()
        for k, n in enumerate(items):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if isinstance(n, ast.Return):
                yield items, k, 1
            elif isinstance(n, (ast.Break, ast.Continue)) and loops == 0:
                yield items, k, 2 if isinstance(n, ast.Break) else 3
            else:
                for f, v in ast.iter_fields(n):
                    if isinstance(v, list) and v and isinstance(v[0], ast.stmt):
                        in_body = isinstance(n, (ast.For, ast.While, ast.AsyncFor)) and f == "body"
                        stack.append((v, loops + in_body))
                stack += [(h.body, loops) for h in getattr(n, "handlers", [])]
                stack += [(c.body, loops) for c in getattr(n, "cases", [])]


def _exits(run: list[ast.stmt]) -> dict:
    """How control may leave ``run``: {1: [its returns], 2: [breaks], 3: [continues]}."""
    out: dict = {}
    for items, k, status in _exit_sites(run):
        out.setdefault(status, []).append(items[k])
    return out


def _leave_with_status(body: list[ast.stmt]) -> list[ast.stmt]:
    """``body`` with each way out of it leaving with its status: ``return (1, X)``
    for a return; a ``break`` or ``continue`` sets ``__son_leave`` to 2 or 3 and breaks
    out of a one-round loop around ``body``, after which ``return (status, locals())``
    gives the variables the loop goes on with (run_region takes the live-outs from
    them; one still unbound there stays unbound).  The locals are read after the
    ``finally`` blocks the jump ran through, which may assign them (a ``return`` of
    the locals in place of the ``continue`` read them before: the finally's
    assignments were lost)."""
    leaves = False
    for items, k, status in list(_exit_sites(body)):
        n = items[k]
        if status == 1:
            items[k] = ast.copy_location(ast.Return(ast.Tuple([ast.Constant(1), n.value], ast.Load())), n)
        else:
            items[k] = _located(ast.parse(f"if True:\n    __son_leave = {status}\n    break").body[0], n)
            leaves = True
    if not leaves:
        return body
    text = ("__son_leave = 0\nfor __son_once in (0,):\n    pass\n"
            "if __son_leave:\n    return (__son_leave, locals())")
    wrapped = [_located(s, body[0]) for s in ast.parse(text).body]
    wrapped[1].body = body
    return wrapped


def _located(made: ast.AST, at: ast.AST) -> ast.AST:
    """Statements son made, every node of them located at ``at``."""
    for n in ast.walk(made):
        ast.copy_location(n, at)
    return made


# ---------------------------------------------------------------- syntax
def _names_in(run: list[ast.stmt]) -> tuple[set[str], set[str]]:
    """The names ``run`` reads (nested functions included: their free names) and may
    bind (not inside nested functions, whose bindings are their own)."""
    reads, writes = set(), set()
    for s in run:
        for n in ast.walk(s):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                reads.add(n.id)
    for s in run:
        for n in _walk_binding_scope(s):
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                writes.add(n.id)
            elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                reads.add(n.target.id)
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                writes.add(n.name)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                writes |= {(a.asname or a.name).split(".")[0] for a in n.names}
            elif isinstance(n, ast.ExceptHandler) and n.name:
                writes.add(n.name)
    return reads, writes


def _walk_binding_scope(node: ast.AST):
    """``ast.walk`` that does not enter nested functions, lambdas, classes or
    comprehensions (their bindings are their own)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        if n is not node and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
                                            ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        stack.extend(ast.iter_child_nodes(n))


def _graph_names(tree: ast.FunctionDef, opaque: dict) -> set[str]:
    """Every name used outside opaque statements (parameters included)."""
    out = {a.arg for a in tree.args.args}
    stack = list(tree.body)
    while stack:
        s = stack.pop()
        if id(s) in opaque:
            continue
        for _field, value in ast.iter_fields(s):
            items = value if isinstance(value, list) else [value]
            for x in items:
                if isinstance(x, ast.stmt):
                    stack.append(x)
                elif isinstance(x, ast.AST):
                    for n in ast.walk(x):
                        if isinstance(n, ast.stmt):
                            stack.append(n)
                        elif isinstance(n, ast.Name):
                            out.add(n.id)
    return out


def _declarations(tree: ast.FunctionDef) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {"global": set(), "nonlocal": set()}
    for n in _walk_binding_scope(tree):
        if isinstance(n, ast.Global):
            out["global"] |= set(n.names)
        elif isinstance(n, ast.Nonlocal):
            out["nonlocal"] |= set(n.names)
    return out


def _declared_name_statements(tree: ast.FunctionDef) -> dict:
    """The innermost statements that use a name declared ``global``/``nonlocal``, as
    opaque statements."""
    decl = _declarations(tree)
    names = decl["global"] | decl["nonlocal"]
    out: dict = {}
    if not names:
        return out
    stack = list(tree.body)
    while stack:
        s = stack.pop()
        inner = [x for f in ("body", "orelse", "finalbody") for x in getattr(s, f, []) or []
                 if isinstance(x, ast.stmt)]
        header = [x for f, v in ast.iter_fields(s) if f not in ("body", "orelse", "finalbody")
                  for x in (v if isinstance(v, list) else [v]) if isinstance(x, ast.AST)]
        declares = isinstance(s, (ast.Global, ast.Nonlocal))
        if declares or _uses(header, names) or (not inner and _uses([s], names)):
            out[id(s)] = (s, "it uses a name the function declares global or nonlocal")
        else:
            stack.extend(inner)
    return out


def _uses(trees: list[ast.AST], names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for t in trees for n in ast.walk(t))


def _refuse_recursion(g, src) -> None:
    """Regions of a recursive call would share its caller's frame: refused (a call of a
    recursive helper's graph is a call of another function, whose frame is its own)."""
    nodes = g.nodes()
    region = next((n for n in nodes if type(n) is PyRegion), None)
    if region is not None and any(type(n) is Call and n.target is None for n in nodes):
        raise SonSyntaxError(f"{src.name}() calls itself and has code son runs with CPython (a fallback "
                             f"region at {region.code.where}: {region.code.why}); son does not run such "
                             "code in recursive functions", region.code.filename, region.code.lines[0], 0,
                             "fallback")


def _compiled_bindings(tree: ast.FunctionDef, names: set[str], opaque: dict) -> list[ast.stmt]:
    """The innermost statements outside opaque ones that bind a name of ``names``
    (compiled code giving a frame variable a value the frame would not see: a region
    then read the frame's stale value).  O(statements)."""
    out: list[ast.stmt] = []
    if not names:
        return out
    stack = list(tree.body)
    while stack:
        s = stack.pop()
        if id(s) in opaque:
            continue
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if s.name in names:
                out.append(s)
            continue
        handlers = getattr(s, "handlers", []) or []
        inner = [x for f in ("body", "orelse", "finalbody") for x in getattr(s, f, []) or []
                 if isinstance(x, ast.stmt)] + [x for h in handlers for x in h.body]
        header = [x for f, v in ast.iter_fields(s) if f not in ("body", "orelse", "finalbody", "handlers")
                  for x in (v if isinstance(v, list) else [v]) if isinstance(x, ast.AST)]
        caught = any(h.name in names for h in handlers)
        if caught or _binds(header, names) or (not inner and _binds([s], names)):
            out.append(s)
        else:
            stack.extend(inner)
    return out


def _binds(nodes: list[ast.AST], names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)) and n.id in names
               for x in nodes for n in ast.walk(x))


def _count_statements(tree: ast.FunctionDef) -> int:
    return sum(isinstance(n, ast.stmt) for n in ast.walk(tree))


#: refusals about variables a nested function shares with its enclosing one, which a
#: region cannot fix: a function made (or called) in a region would read or write the
#: region's own copy of the variable, not the one compiled code goes on changing (a
#: closure over a rebound variable read its first value: a silent wrong answer)
_SHARED_CELLS = {"closure": "a function made there would keep the variable's value of that moment, "
                            "where Python reads the variable as it changes",
                 "nonlocal statement": "the nested function would change a copy of the variable"}


def _cannot_fall_back(s: ast.stmt) -> str | None:
    """Why statement ``s`` cannot be a region, or None: a bare ``return`` (the region's
    status gives a value back) or a ``yield`` (not inside nested functions)."""
    stack = [s]
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(n, ast.Return) and n.value is None:
            return "it returns None from the function"
        if isinstance(n, (ast.Yield, ast.YieldFrom, ast.Await)):
            return "it yields"
        stack.extend(ast.iter_child_nodes(n))
    return None
