"""Mixed-kind values in generated kernels: int-or-float values held as a tag and slots.

A value that is an int on one path and a float on another (``s = 0`` then
``s += a[i]`` in a loop that may not run; ``min(1, x)``) is *mixed*: numba needs
one type per variable, so it is held in three, assigned together (phi moves
included): ``v7_f`` (bool: a float now), ``v7_i`` (int64) and ``v7_x``
(float64); the slot not in use holds 0.  A node with mixed operands is written
once per combination of their kinds, each with the ordinary ``EMIT`` template
for those concrete kinds, under tests of the tags (``(v7_x < y if v7_f else
<exact int/float compare of v7_i and y>)``): so a comparison, ``int()``,
``math.*`` or a store keeps its exact semantics on either path.  Where the
node's own kind depends on the combination (``s + 1``) it is mixed too and each
case assigns its slots; ``min``/``max`` of an int and a float pick an operand,
slots included, by Python's comparison.  A combination the node's
``result_type`` rejects (a float shifted, masked) and a float at a position that
must be an int (an index, a length) cannot happen at run time -- the frontend's
``IsFloat`` guard raised ``TypeError`` before it -- and is not written.  A mixed
returned value leaves the kernel as the tuple ``(is_float, int, float)`` (per
position of a multi-value return); the generated source says so in a ``# son:
mixed returns`` line, which ``return_converter`` reads to build the Python-side
conversion (``Kernel`` applies it).  Functions without mixed values generate
exactly as before.

A returned value that may be a bool on one path and an int or a float on another
(``return True`` / ``return n``; ``max(p, 0)``) would come back as numba's int:
its position is marked ``<i>b`` and returned as ``(is_float, int, float,
is_bool)``, and the Phis, ``min``/``max`` and ``&|^`` on its way carry a run-time
tag ``v7_b`` (``MixedValues._bool_tags``), so ``Kernel`` rebuilds CPython's
``True``.

Which values are mixed is decided before any code is written:
``refine_kinds`` gives each value the lattice types 'number' its run-time kind
(an int-or-bool is an int), ``_check_types`` refuses what numba cannot type and
collects the mixed values, ``_bool_tags`` the tagged ones.  ``MixedValues`` is
mixed into the generator (``codegen._Codegen``) and reads its ``g``,
``block_of`` and ``text`` (the text of a value that is not mixed).

Costs: ``refine_kinds`` and ``_bool_tags`` are fixpoints over the 'number'
values, a few passes in practice; ``_check_types`` is O(N + returns).  A node
with k mixed operands is written in at most 2**k cases (k <= 2 for every
operator but a math call's error test).  ``return_converter`` is O(length of the
source).
"""

from __future__ import annotations

import ast
import itertools
import re
from typing import Callable

from ..errors import SonError
from ..nodes import (
    BitAnd,
    BitOr,
    BitXor,
    Call,
    CallMem,
    Load,
    Max,
    Min,
    NewArray,
    Node,
    OutOfBounds,
    Phi,
    Proj,
    PyRegion,
    PyRegionMem,
    Return,
    Store,
)
from ..nodes.control import form_size, rebuild
from ..nodes.memory import TapeGrow
from ..nodes.types import BOOL, FLOAT, INT, MEM, NONE, NUMBER, TOP, ArrayType, ListType, TupleType, Type
from .emit import EMIT, EMIT_STATE, _as_int, _balanced_outer, _compare, _kind, _strip
from .render import _If

# ---------------------------------------------------------------- mixed values
#: operand positions (in ``inputs[1:]``) that only an int reaches at run time: a mixed
#: value there is read from its int slot (a float raised TypeError at an IsFloat guard)
_INT_OPERANDS: dict[type, tuple[int, ...]] = {
    Load: (2,), Store: (2,), NewArray: (0,), OutOfBounds: (0,), TapeGrow: (2,),
}
#: the result kind of ``min``/``max`` of an int and a float depends on the values
_PICKS = {Min: "<", Max: ">"}  # Python: min(a, b) is b if b < a else a; max likewise with >
_BY_KIND = {"int": INT, "float": FLOAT, "bool": BOOL}
#: nodes whose value is one of their operands (a bool stays a bool), and those whose
#: value is a bool only when both operands are: the carriers of a returned bool's tag
_BOOL_THROUGH = (Phi, Min, Max)
_BOOL_IF_BOTH = (BitAnd, BitOr, BitXor)
#: first line of a kernel that returns mixed values: ``# son: mixed returns <n> at <i> <j>b...``
#: (``<j>b``: a value that may be a bool, returned with its tag)
_MIXED_MARK = "# son: mixed returns "
#: line of a kernel whose result is a ``Return.form``: ``# son: result form <repr of the form>``
_FORM_MARK = "# son: result form "
#: line of a kernel with tuple or complex parameters: ``# son: argument forms <Graph.arg_forms>``
ARGS_MARK = "# son: argument forms "


def argument_forms(source: str) -> list | None:
    """The ``Graph.arg_forms`` a kernel's ``source`` was generated for (None: none)."""
    m = re.search("^" + re.escape(ARGS_MARK) + "(.+)$", source, re.M)
    return ast.literal_eval(m.group(1)) if m else None


#: nodes whose value is an effect's (memory, a region's tuple), never an int or float
_EFFECTS = (Store, CallMem, PyRegion, PyRegionMem)

class _View:
    """Stands for a node that is not in the graph (``b < a`` of a ``min``) when a
    template is asked to write it: templates read only ``inputs``."""

    __slots__ = ("inputs",)

    def __init__(self, *inputs: Node):
        self.inputs = [None, *inputs]


def return_converter(source: str) -> Callable | None:
    """For generated ``source`` whose function returns mixed values, or a result whose
    values only flatten it (a ``Return.form``: ``# son: result form <form>``), the
    function that turns the kernel's result into the Python value (each ``(is_float, int,
    float)`` into an int or a float, each ``(is_float, int, float, is_bool)`` -- a
    position marked ``<i>b`` -- into a bool, an int or a float; then the form's complex
    numbers, ranges and nested tuples); None if it needs none.  O(length of the source)."""
    f = re.search("^" + re.escape(_FORM_MARK) + "(.+)$", source, re.M)
    form = ast.literal_eval(f.group(1)) if f else None
    m = re.search("^" + re.escape(_MIXED_MARK) + r"(\d+) at ([\db ]+)$", source, re.M)
    if m is None:
        if form is None:
            return None
        return (lambda r: rebuild(form, (r,))) if form_size(form) == 1 else (lambda rs: rebuild(form, rs))
    count = int(m.group(1))
    at = {int(x.rstrip("b")): _one_tagged if x.endswith("b") else _one_mixed for x in m.group(2).split()}
    if count == 1:
        one = at[0]
        return one if form is None else lambda r: rebuild(form, (one(r),))
    flat = lambda rs: tuple(at[k](r) if k in at else r for k, r in enumerate(rs))  # noqa: E731
    return flat if form is None else lambda rs: rebuild(form, flat(rs))


def _one_mixed(r):
    """``(is_float, int, float)`` (or None) as the Python value."""
    return r if r is None else r[2] if r[0] else r[1]


def _one_tagged(r):
    """``(is_float, int, float, is_bool)`` (or None) as the Python value."""
    return r if r is None else bool(r[1]) if r[3] else r[2] if r[0] else r[1]


# ====================================================================== the generator's mixed-value part
class MixedValues:
    """The mixed-value part of the code generator (``codegen._Codegen``): which values
    are mixed or carry a bool tag, found once per function, and the code that holds,
    tests and assigns them.  Reads the generator's ``g``, ``block_of`` and ``text``."""

    def refine_kinds(self) -> dict[Node, str]:
        """The run-time kind of each value the lattice types 'number' (a Phi of an int and
        a bool, and what is computed from it), from the nodes' own ``result_type``: an
        int-or-bool is kept as an int (numba unifies them; values agree, True == 1);
        'number' stays only where an int meets a float (a mixed value, written as a tag and
        two slots).  A fixpoint over those nodes:
        O(passes * their number), a few passes in practice."""
        todo = [n for n in self.block_of if not n.is_cfg and n.type.kind == "number"]
        kinds: dict[Node, str] = {}
        if not todo:
            return kinds
        by_kind = {"int": INT, "float": FLOAT, "bool": BOOL, "number": NUMBER}

        def ty(x: Node) -> Type:
            k = x.type.kind
            if k == "number":
                return by_kind[kinds[x]] if x in kinds else TOP
            return x.type.widen() if k else x.type

        for _ in range(len(todo) + 2):
            changed = False
            for n in todo:
                if type(n) is Phi:
                    r = None
                    for v in n.inputs[1:]:
                        if v is not None and ty(v) is not TOP:
                            r = _join_kind(r, ty(v).kind)
                else:
                    ts = [ty(x) for x in n.inputs[1:] if x is not None]
                    if TOP in ts:
                        continue
                    r = n.result_type(*ts).kind or "number"
                    if r == "number" and all(t.kind in ("int", "bool") for t in ts if t.kind):
                        r = "int"  # an int or a bool (min(True, 0)): the same value as an int
                if r is not None and kinds.get(n) != r:
                    kinds[n] = r if kinds.get(n) is None else _join_kind(kinds[n], r)
                    changed = True
            if not changed:
                break
        return kinds

    def _check_types(self) -> None:
        """Every value numba sees must have one concrete kind, or be mixed (an int or a
        float, decided at run time: ``self.mixed``, held in three variables).  A
        parameter without a type and a value that is no number are refused with a clear
        message; so is a returned value that is an array on one path and a number (or
        another array) on another.  O(N + returns)."""
        for n in self.block_of:
            if type(n) is Proj and n.index >= 2 and not isinstance(n.type, (ArrayType, ListType)) \
                    and _kind(n) not in ("int", "float", "bool"):
                raise SonError(f"{self.g.name}: parameter {n.name!r} has no single type ({n.type}); give it "
                               "one (son.jit takes it from the call's arguments; son.parse(argtypes=...))")
        for n in self.block_of:
            if n.is_cfg or type(n) in _EFFECTS or (type(n) is Proj and n.index < 2):
                continue
            t = n.type
            if t is MEM or isinstance(t, (ArrayType, ListType)) or t is NONE \
                    or _kind(n) in ("int", "float", "bool") \
                    or type(n) is Call and isinstance(t, TupleType):  # CallOut reads its values
                continue
            if _kind(n) == "number":
                self.mixed.add(n)
                continue
            if type(n) is Phi and (kinds := _phi_kinds(n)) and "None" in kinds and len(kinds) > 1:
                what = " or ".join(sorted(kinds - {"None"}))
                what = ("an " if what[0] in "aeiou" else "a ") + what
                used = "returned " if any(type(u) is Return for u in n.outputs) else ""
                raise SonError(f"{self.g.name}: a {used}value is None on one path and {what} on "
                               "another; kernels cannot hold an optional value yet (son.interpret runs "
                               f"it): return {what} on every path (e.g. math.nan, or a flag with the "
                               "value, for 'no value') or raise")
            raise SonError(f"{self.g.name}: {n!r} has type {t}, which is not a single int, float, bool or "
                           "array type; numba cannot compile it (give the parameters types)")
        kinds: dict[int, set] = {}  # position of a returned value -> its kinds
        for r in self.g.returns():
            if r in self.block_of:
                for i, v in enumerate(r.values):
                    t, k = v.type, _kind(v)
                    kinds.setdefault(i, set()).add(
                        "array " + t.dtype if isinstance(t, ArrayType) else
                        str(t) if isinstance(t, ListType) else
                        "none" if t is NONE else "int" if k == "bool" else str(k))
        for i, ks in kinds.items():
            values = ks - {"none"}
            if len(values) > 1 and values <= {"int", "float", "number"} or values == {"number"}:
                self.mixed_at.append(i)
            elif len(values) > 1:
                what = "returns" if len(kinds) == 1 else f"returns as value {i + 1}"
                raise SonError(f"{self.g.name}: {what} {' and '.join(sorted(values))} on different paths; "
                               "numba needs one type: return one kind of value")

    def _bool_tags(self) -> None:
        """Which returned values may be a bool on one path and an int or a float on another
        (``return True`` here, ``return n`` there; ``x = p`` then ``x += 1`` in a loop;
        ``max(p, 0)``): numba holds such a value as an int (or a mixed value), so CPython's
        ``True`` would come back as ``1``.  Their positions (``self.bool_at``) leave the
        kernel as ``(is_float, int, float, is_bool)``; the values on the way to them whose
        bool-ness is decided at run time (``self.booltag``: Phis, and ``min``/``max``/``&``
        ``|`` ``^``, which may pass a bool on) carry a tag variable ``v<id>_b`` assigned with
        them.  Only returned values need it: elsewhere a bool and its int are the same value.
        A fixpoint over the 'number' values, then one walk back from the returns:
        O(passes * those values + returns)."""
        cands = [n for n in self.block_of if not n.is_cfg and n.type.kind == "number"
                 and type(n) in _BOOL_THROUGH + _BOOL_IF_BOTH]
        may: set[Node] = set()  # values that may be a bool at run time (and may be another kind)

        def maybe(x: Node | None) -> bool:
            return x is not None and (x.type.kind == "bool" or x in may)

        changed = bool(cands)
        while changed:
            changed = False
            for n in cands:
                if n not in may and (any if type(n) in _BOOL_THROUGH else all)(
                        maybe(x) for x in n.inputs[1:] if x is not None):
                    may.add(n)
                    changed = True
        classes: dict[int, set] = {}  # position -> 'bool' / 'other' / 'dyn' over the returns
        returned: list[Node] = []
        for r in self.g.returns():
            if r in self.block_of:
                for i, v in enumerate(r.values):
                    if v.type is not NONE:
                        c = "bool" if v.type.kind == "bool" else "dyn" if v in may else "other"
                        classes.setdefault(i, set()).add(c)
                        returned.append((i, v))
        self.bool_at = sorted(i for i, cs in classes.items() if "dyn" in cs or {"bool", "other"} <= cs)
        stack = [v for i, v in returned if i in self.bool_at and v in may]
        while stack:
            n = stack.pop()
            if n not in self.booltag:
                self.booltag.add(n)
                stack.extend(x for x in n.inputs[1:] if x in may)

    def tag(self, x: Node) -> str:
        """The text of "``x`` is a bool now" (see ``_bool_tags``)."""
        if x.type.kind == "bool":
            return "True"
        return f"v{x.nid}_b" if x in self.booltag else "False"

    def _tag_code(self, n: Node) -> str:
        """``v<id>_b = ...`` for a tagged ``min``/``max`` (the tag of the operand it picks,
        by the same comparison) or ``&``/``|``/``^`` (a bool only if both operands are)."""
        a, b = n.inputs[1], n.inputs[2]
        ta, tb = self.tag(a), self.tag(b)
        if type(n) in _BOOL_IF_BOTH:
            return f"v{n.nid}_b = " + (ta if tb == "True" else tb if ta == "True" else f"{ta} and {tb}")
        if ta == tb:
            return f"v{n.nid}_b = {ta}"

        def leaf(ops: list[str]) -> str:
            test = _compare(_PICKS[type(n)])(_View(b, a), [ops[1], ops[0]])
            return f"{tb} if {_strip(test)} else {ta}"

        return f"v{n.nid}_b = {_strip(self._cases_text(self._cases(n, leaf)))}"

    # ------------------------------------------------------------------ mixed values
    def slots(self, x: Node) -> tuple[str, str, str]:
        """The texts ``(is_float, int, float)`` of numeric value ``x`` held as a mixed value."""
        if x in self.mixed:
            return f"v{x.nid}_f", f"v{x.nid}_i", f"v{x.nid}_x"
        return self._case_slots(x, self.text(x))

    def _cases(self, n: Node, leaf: Callable[[list[str]], object]):
        """The decision tree of node ``n`` over the kinds of its mixed operands: a leaf is
        ``leaf(ops)`` written with the operands' texts and kinds of that case (the kinds are
        set in ``EMIT_STATE.kinds`` while it runs; ``n``'s own kind too, where ``n`` is mixed:
        ``_kind(n)`` then says which case), an inner node ``(x, if_float, if_int)`` tests
        operand ``x``'s tag.  Cases that cannot happen (see the module docstring) are left
        out; None if none is left.  At most 2**k leaves for k mixed operands."""
        operands = n.inputs[1:]
        fixed = {operands[k] for k in _INT_OPERANDS.get(type(n), ()) if operands[k] in self.mixed}
        ms = [x for x in dict.fromkeys(operands) if x in self.mixed and x not in fixed]
        checked = type(n).result_type is not Node.result_type and type(n) not in _INT_OPERANDS
        kinds = EMIT_STATE.kinds
        trees: dict[tuple, object] = {}
        # bottom-up over the prefixes of the kind assignment (no recursion)
        for depth in range(len(ms), -1, -1):
            for combo in itertools.product(("float", "int"), repeat=depth):
                if depth < len(ms):
                    f, i = trees.pop(combo + ("float",)), trees.pop(combo + ("int",))
                    trees[combo] = i if f is None or f == i else f if i is None else (ms[depth], f, i)
                    continue
                assign = dict(zip(ms, combo))
                assign.update({x: "int" for x in fixed})
                ts = [_BY_KIND.get(assign.get(x) or _kind(x)) if x is not None else None for x in operands]
                r = _kind(n)  # None for a Store: no value
                if checked and None not in ts:
                    r = n.result_type(*ts).kind
                    if r is None:  # a type error at run time: cannot happen (a guard raised)
                        trees[combo] = None
                        continue
                    if r == "number" and all(t.kind != "float" for t in ts):
                        r = "int"  # an int-or-bool min/max: the same value as an int
                saved = {x: kinds.get(x) for x in (*assign, n)}
                kinds.update(assign)
                if n in self.mixed:
                    kinds[n] = r
                try:
                    ops = [("_mem" if x is None or x.type is MEM else
                            self.slots(x)[1 if assign[x] == "int" else 2] if x in assign else self.text(x))
                           for x in operands]
                    trees[combo] = leaf(ops)
                finally:
                    for x, k in saved.items():
                        if k is None:
                            kinds.pop(x, None)
                        else:
                            kinds[x] = k
        if trees[()] is None:
            raise SonError(f"code generation: no kind of the mixed operands of {n!r} is valid (a bug in son)")
        return trees[()]

    def _cases_text(self, tree) -> str:
        """A decision tree of expression texts as one conditional expression."""
        if type(tree) is not tuple:
            return tree
        parts: list = [tree]
        out: list[str] = []
        while parts:  # iterative: (x, f, i) expands to "(f if x_f else i)"
            p = parts.pop()
            if type(p) is tuple:
                tag = f"v{p[0].nid}_f"
                if (p[1], p[2]) == ("True", "False"):  # IsFloat
                    out.append(tag)
                elif (p[1], p[2]) == ("False", "True"):
                    out.append(f"(not {tag})")
                else:
                    parts.extend([[")"], p[2], [f" if {tag} else "], p[1], ["("]])
            elif type(p) is list:  # our own punctuation
                out.append(p[0])
            else:  # a template's conditional expression must not swallow the test after it
                out.append(f"({p})" if " if " in p and not _balanced_outer(p) else p)
        return "".join(out)

    def _cases_code(self, tree, out: list) -> None:
        """A decision tree of statement lists as nested ``if`` statements on the tags."""
        stack = [(tree, out)]
        while stack:
            t, lst = stack.pop()
            if type(t) is tuple:
                node = _If(f"v{t[0].nid}_f")
                lst.append(node)
                stack.append((t[1], node.then))
                stack.append((t[2], node.orelse))
            elif t is not None:
                lst.extend(t)

    def _mixed_code(self, n: Node, out: list) -> None:
        """The statements that assign mixed value ``n``'s three variables."""
        names = ", ".join(self.slots(n))
        pick = _PICKS.get(type(n))
        a, b = (n.inputs[1], n.inputs[2]) if pick else (None, None)

        def leaf(ops: list[str]) -> list:
            ks = {_kind(a), _kind(b)} if pick else set()
            if len(ks) == 2 and "float" in ks:  # min/max of an int (or a bool) and a float
                view = _View(b, a)
                test = _compare(pick)(view, [ops[1], ops[0]])
                node = _If(_strip(test))
                node.then.append(f"{names} = {', '.join(self._case_slots(b, ops[1]))}")
                node.orelse.append(f"{names} = {', '.join(self._case_slots(a, ops[0]))}")
                return [node]
            if _kind(n) not in ("int", "float", "bool"):
                raise SonError(f"code generation: no kind for mixed value {n!r} (a bug in son)")
            return [f"{names} = {', '.join(self._case_slots(n, EMIT[type(n)].fn(n, ops)))}"]

        self._cases_code(self._cases(n, leaf), out)

    def _case_slots(self, x: Node, text: str) -> tuple[str, str, str]:
        """``(is_float, int, float)`` texts of ``x`` written as ``text`` in a case where
        ``_kind(x)`` is concrete."""
        t = _strip(text)
        if _kind(x) == "float":
            return "True", "0", t
        return "False", _strip(_as_int(x, t)), "0.0"


def _phi_kinds(phi: Node) -> set[str]:
    """The kinds ('int', 'float', 'bool', 'None', or the type's name) of the values that
    reach ``phi`` through Phis: what a 'bottom' Phi mixes.  O(Phis and values reached)."""
    kinds: set[str] = set()
    seen = {phi}
    stack = [phi]
    while stack:
        for v in stack.pop().inputs[1:]:
            if v is None or v in seen:
                continue
            seen.add(v)
            if type(v) is Phi and v.type.kind is None and v.type is not NONE:
                stack.append(v)
            else:
                kinds.add("None" if v.type is NONE else "int-or-float number" if v.type.kind == "number"
                          else v.type.kind or str(v.type))
    return kinds


def _join_kind(a: str | None, b: str) -> str:
    """The kind of a variable holding an ``a`` or a ``b`` (None: nothing yet)."""
    if a is None or a == b:
        return b
    if {a, b} == {"int", "bool"}:
        return "int"
    return "number"
