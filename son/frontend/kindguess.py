"""A first guess at the kind of a loop variable that the loop binds before reading it.

A variable unbound when a loop starts enters the loop as a placeholder (its flag says
it is unbound, son/frontend/loops.py); the placeholder must have a kind before the
body is parsed, and a wrong kind costs the whole loop a second parse (and a loop
around it one more parse of each loop inside).  Most such variables are floats read
from an array or computed with a float (``x = xs[i]``, ``nr = 0.5 * (r + x / r)``),
so the loop first guesses, from the syntax and the kinds of the names already bound,
which of them are floats (or bools).

A guess only saves time: the loop checks every placeholder against what the body
computed and parses again under the right kind when they differ, as it does without
a guess.  So the rules below are those that are right for nearly all code, not a
type system: ``/`` of two scalars is a float, an operation with a float operand is a
float, an element of a float64 array is a float, ``math`` functions and ``float()``
give floats.  O(AST nodes of the loop body)."""

from __future__ import annotations

import ast

from ..nodes.types import ArrayType, ListType
from .scope import Aggregate, Grid, View

#: ``math`` functions whose result is an int (every other one returns a float)
_MATH_INTS = frozenset({"floor", "ceil", "trunc", "factorial", "gcd", "lcm", "comb", "perm", "isqrt"})


def guess_kinds(stmts: list[ast.stmt], names, scope) -> dict[str, str]:
    """{name: 'float' or 'bool'} for the names among ``names`` (unbound on entry to the
    loop whose body is ``stmts``) whose first assignment in the body, in source order,
    looks like a float or a bool (the others are guessed ints, the loop's default).
    ``scope`` gives the values of the names bound before the loop."""
    wanted, kinds = set(names), {}
    stack = list(reversed(stmts))
    while stack:
        s = stack.pop()
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
            n = s.targets[0].id
            if n in wanted and n not in kinds:
                kinds[n] = _kind(s.value, kinds, scope)
        elif isinstance(s, ast.For) and isinstance(s.target, ast.Name) and isinstance(s.iter, ast.Call) \
                and isinstance(s.iter.func, ast.Name) and s.iter.func.id == "range":
            kinds.setdefault(s.target.id, "int")
        elif isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name) and s.value is not None:
            if s.target.id in wanted and s.target.id not in kinds:
                kinds[s.target.id] = _kind(s.value, kinds, scope)
        for field in ("orelse", "finalbody", "body"):  # pushed reversed: body first
            sub = getattr(s, field, None)
            if isinstance(sub, list):
                stack.extend(reversed([x for x in sub if isinstance(x, ast.stmt)]))
    return {n: k for n, k in kinds.items() if n in wanted and k in ("float", "bool")}


def _kind(e: ast.expr, kinds: dict, scope) -> str | None:
    """'float', 'int', 'bool' or None (no guess) for expression ``e``, from its own node
    and the kinds of its operands (a left-deep chain ``a + b + c + ...`` is walked by
    ``_binop``, without recursion along it)."""
    if isinstance(e, ast.Constant):
        v = e.value
        return "bool" if isinstance(v, bool) else "int" if isinstance(v, int) else \
            "float" if isinstance(v, float) else None
    if isinstance(e, ast.Name):
        if e.id in kinds:
            return kinds[e.id]
        return _bound_kind(scope.get(e.id))
    if isinstance(e, ast.UnaryOp):
        inner = _kind(e.operand, kinds, scope)
        return "bool" if isinstance(e.op, ast.Not) else ("int" if inner == "bool" else inner)
    if isinstance(e, ast.BinOp):
        return _binop(e, kinds, scope)
    if isinstance(e, ast.IfExp):
        a, b = _kind(e.body, kinds, scope), _kind(e.orelse, kinds, scope)
        return a if a == b else None
    if isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name) \
            and not isinstance(e.slice, (ast.Slice, ast.Tuple)):
        v = scope.get(e.value.id) if e.value.id not in kinds else None
        t = v.base.type if isinstance(v, View) else v.type if v is not None and not isinstance(v, Aggregate) \
            else None
        if isinstance(t, (ArrayType, ListType)) and not isinstance(v, Grid):
            return _scalar(t.elem.kind)  # a list of lists has no scalar element
        return None
    if isinstance(e, ast.Call):
        f = e.func
        if isinstance(f, ast.Name) and f.id == "float":
            return "float"
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "math" \
                and scope.get("math") is None and "math" not in kinds:
            return "int" if f.attr in _MATH_INTS or f.attr.startswith("is") else "float"
        if isinstance(f, ast.Name) and f.id in ("abs", "min", "max") and e.args and not e.keywords:
            ks = {_kind(a, kinds, scope) for a in e.args}
            return ks.pop() if len(ks) == 1 else None
    return None


def _binop(e: ast.BinOp, kinds: dict, scope) -> str | None:
    chain = []
    while isinstance(e, ast.BinOp):
        chain.append(e)
        e = e.left
    k = _kind(e, kinds, scope)
    for b in reversed(chain):
        k = _arith(b.op, k, _kind(b.right, kinds, scope))
    return k


def _arith(op: ast.operator, left: str | None, right: str | None) -> str | None:
    """The kind of ``left op right``: a float where either side is one (an unknown
    side is most often a number) or where ``/`` divides two numbers."""
    if "float" in (left, right) or isinstance(op, ast.Div) and left and right:
        return "float"
    return None


def _bound_kind(v) -> str | None:
    return None if v is None or isinstance(v, Aggregate) else _scalar(v.type.kind)


def _scalar(kind: str | None) -> str | None:
    return kind if kind in ("int", "float", "bool") else None
