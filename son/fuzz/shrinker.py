"""Shrinking a failing program to a small one that fails the same way, and writing it
as a regression case.

``shrink(source, args)`` first keeps only the argument tuple that fails, then
greedily applies the first of these reductions that keeps the failure's
signature (same kind, same stage; for a crash the same exception type), and
starts over until none applies or the budget of checks is spent:

* delete a statement (an emptied body gets ``pass``); replace an ``if`` by its
  body or its ``else``; replace a loop by its body; delete a helper function;
* replace an expression by one of its operands, or by ``0``, ``1``, ``0.0``
  or ``True``;
* make an argument simpler (``0``, ``1``, ``0.0``, ``1.0``, an array shorter;
  for a gradient failure the floats ``1.5``, ``0.5``, ``-1.5``: integral values
  would hide a derivative truncated to an int).

A failure of the gradient oracle (``shrink(..., grad=True)``) is shrunk the same
way against ``son.fuzz.grad.check_grad``; a candidate counts only where the
interpreter stages still agree with CPython, so the case stays a gradient case.

Candidates are enumerated in breadth-first order of the syntax tree (outer
statements first, so big cuts are tried first) and a candidate that is not
valid Python is skipped without running the oracle, and so is an edit of the hidden
fuel counter (it keeps every loop finite; a candidate that still runs too long
counts as not failing the same way).  A timeout is not shrunk at all: whether a
candidate runs out of time says as much about the machine's load as about the
program, and every such candidate would cost a whole timeout.  Cost: at most
``max_checks`` oracle runs (each O(program) plus a Numba compile when the
failing stage is the kernel); everything here is iterative.
"""

from __future__ import annotations

import ast
import math
import warnings
from pathlib import Path

import numpy as np

from .arguments import step_of
from .oracle import Failure, check

__all__ = ["args_literal", "regression_text", "shrink", "write_regression"]

_STMT_LISTS = ("body", "orelse")
_EXPR_TYPES = (ast.BinOp, ast.BoolOp, ast.Compare, ast.Call, ast.IfExp, ast.UnaryOp, ast.Subscript)
_CONSTANTS = (0, 1, 0.0, True)


def _nodes(tree: ast.AST) -> list[ast.AST]:
    return list(ast.walk(tree))  # breadth-first, iterative


def _candidates(source: str):
    """Yield reduced sources, biggest cuts first."""
    tree = ast.parse(source)
    count = len(_nodes(tree))
    for k in range(count):
        for edit in ("delete", "body", "orelse", "child", "const"):
            for variant in range(4 if edit in ("child", "const") else 1):
                t = ast.parse(source)
                node = _nodes(t)[k]
                if id(node) not in _protected(t) and _apply(t, node, edit, variant):
                    try:
                        text = ast.unparse(ast.fix_missing_locations(t))
                        with warnings.catch_warnings():
                            warnings.simplefilter("ignore", SyntaxWarning)
                            compile(text, "<shrink>", "exec")
                    except (SyntaxError, ValueError, RecursionError):
                        continue
                    if text != source:
                        yield text


def _protected(tree: ast.AST) -> set[int]:
    """Ids of the nodes no edit may touch: the hidden fuel counter's statements
    (``fuel += 1``, ``if fuel > FUEL: break``: an edit could make a loop run forever)
    and the parameters with their annotations."""
    ids: set[int] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.FunctionDef):  # parameters and their annotations stay
            ids.update(id(x) for x in ast.walk(n.args))
        if isinstance(n, ast.stmt) and not isinstance(n, (ast.FunctionDef, ast.For, ast.While)):
            head = n.test if isinstance(n, ast.If) else n
            if any(isinstance(x, ast.Name) and x.id == "fuel" for x in ast.walk(head)):
                ids.update(id(x) for x in ast.walk(n))
    return ids


def _parent_list(tree: ast.AST, node: ast.AST):
    for p in ast.walk(tree):
        for field in _STMT_LISTS:
            lst = getattr(p, field, None)
            if isinstance(lst, list) and any(x is node for x in lst):
                return p, lst
    return None, None


def _apply(tree: ast.AST, node: ast.AST, edit: str, variant: int) -> bool:
    """Edit ``tree`` in place at ``node``; False when the edit does not apply."""
    if edit in ("delete", "body", "orelse"):
        if not isinstance(node, ast.stmt):
            return False
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            return False
        parent, lst = _parent_list(tree, node)
        if lst is None:
            return False
        i = next(j for j, x in enumerate(lst) if x is node)
        if edit == "delete":
            if isinstance(node, ast.FunctionDef) and node.name == "f":
                return False
            repl: list[ast.stmt] = []
        elif isinstance(node, (ast.If, ast.For, ast.While)):
            repl = list(getattr(node, edit))
            if not repl or (edit == "orelse" and not isinstance(node, ast.If)):
                return False
        else:
            return False
        lst[i:i + 1] = repl
        if not lst and not isinstance(parent, ast.Module):
            lst.append(ast.Pass())
        return True
    if not isinstance(node, ast.expr):
        return False
    if edit == "child":
        if not isinstance(node, _EXPR_TYPES):
            return False
        kids = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)
                and not (isinstance(node, ast.Call) and c is node.func)]
        if variant >= len(kids):
            return False
        return _replace(tree, node, kids[variant])
    if isinstance(node, ast.Constant) or (isinstance(node, ast.Name) and node.id in ("True", "False")):
        return False
    if not isinstance(node, (*_EXPR_TYPES, ast.Name, ast.Attribute)) or not isinstance(
            getattr(node, "ctx", ast.Load()), ast.Load):
        return False
    if isinstance(node, ast.Attribute) and getattr(node.value, "id", None) in ("np", "npt"):
        return False  # a dtype or an annotation
    return _replace(tree, node, ast.Constant(_CONSTANTS[variant]))


def _replace(tree: ast.AST, old: ast.AST, new: ast.AST) -> bool:
    for p in ast.walk(tree):
        for field, value in ast.iter_fields(p):
            if value is old:
                if isinstance(p, ast.Call) and field == "func":
                    return False
                setattr(p, field, new)
                return True
            if isinstance(value, list):
                for i, x in enumerate(value):
                    if x is old:
                        value[i] = new
                        return True
    return False


def _simpler(v, grad: bool = False):
    if isinstance(v, np.ndarray):
        return [v[:k] for k in range(len(v))]
    if isinstance(v, bool):
        return [False] if v else []
    if isinstance(v, int):
        return [c for c in (0, 1, -1) if c != v]
    if isinstance(v, float):  # a gradient: 0, 1 and 2 would hide a derivative truncated to int
        return [c for c in ((1.5, 0.5, -1.5) if grad else (0.0, 1.0, -1.0)) if c.hex() != v.hex()]
    return []


def _grad_failures(source: str, args: list[tuple], name: str, compiled: bool,
                   timeout: float) -> list[Failure]:
    """The gradient oracle's failures on a program the primal oracle passes (interpreter
    stages), else none: a shrunk gradient case must not turn into a primal one."""
    from .grad import check_grad
    from .oracle import _deadline, _Timeout

    if check(source, args, name, kernel=False, timeout=timeout, stop_at_first=True).status != "ok":
        return []
    try:
        with _deadline(timeout):
            return check_grad(source, args, name, compiled=compiled).failures
    except _Timeout:
        return []
    except Exception as e:  # noqa: BLE001 - the gradient oracle itself crashing is a failure too
        return [Failure("crash", "grad", None, got=f"{type(e).__name__}: {e}")]


def shrink(source: str, args: list[tuple], name: str = "f", kernel: bool = True,
           max_checks: int = 300, timeout: float = 10.0, grad: bool = False,
           compiled: bool = False) -> tuple[str, list[tuple], Failure | None]:
    """A smaller ``(source, args, failure)`` that fails like ``source`` on ``args`` does;
    ``failure`` None when the program does not fail at all.  ``grad``: shrink a failure
    of the gradient oracle (``son.fuzz.grad.check_grad``, with its kernel when
    ``compiled``) on a program every interpreter stage still runs as CPython does."""
    if grad:
        found = _grad_failures(source, args, name, compiled, 6 * timeout)
    else:
        found = check(source, args, name, kernel, timeout=6 * timeout, stop_at_first=True).failures
    if not found:
        return source, args, None
    target = found[0]
    if str(target.got).startswith("Timeout"):  # whether a candidate runs out of time depends on
        return source, args, target           # the machine's load: shrinking would keep noise
    sig = target.signature
    use_kernel = kernel and target.stage.startswith("kernel")
    budget = [max_checks]

    def fails(src: str, a: list[tuple]) -> Failure | None:
        budget[0] -= 1
        if grad:
            found = _grad_failures(src, a, name, compiled, timeout)
        else:
            found = check(src, a, name, use_kernel, timeout=timeout, stop_at_first=True).failures
        return next((f for f in found if f.signature == sig), None)

    if target.args_index is not None:
        one = [args[target.args_index]]
        got = fails(source, one)
        if got:
            args, target = one, got
    progress = True
    while progress and budget[0] > 0:
        progress = False
        for text in _candidates(source):
            if budget[0] <= 0:
                break
            got = fails(text, args)
            if got:
                source, target, progress = text, got, True
                break
    if len(args) == 1:  # simpler arguments
        for pos in range(len(args[0])):
            for v in _simpler(args[0][pos], grad):
                if budget[0] <= 0:
                    break
                a = [args[0][:pos] + (v,) + args[0][pos + 1:]]
                got = fails(source, a)
                if got:
                    args, target = a, got
                    break
    return source, args, target


# ====================================================================== regression files
def _literal(v) -> str:
    if isinstance(v, np.ndarray):
        step = step_of(v)
        values = v[::-1] if step < 0 else v
        text = f"np.array([{', '.join(_literal(x) for x in values.tolist())}], dtype=np.{v.dtype})"
        return text if step == 1 else f"np.repeat({text}, {abs(step)})[::{step}]"  # a strided view
    if isinstance(v, float):
        if math.isnan(v):
            return "math.nan"
        if math.isinf(v):
            return "math.inf" if v > 0 else "-math.inf"
        return repr(v)
    return repr(v)


def args_literal(args: list[tuple]) -> str:
    """Python text for a list of argument tuples (NaN, infinities and arrays included)."""
    return "[" + ", ".join("(" + "".join(_literal(v) + ", " for v in a) + ")" for a in args) + "]"


def regression_text(source: str, args: list[tuple], failure: Failure | None, origin: str,
                    oracle: str | None = None) -> str:
    """A regression case file: docstring, the program (entry ``f``), ``ARGS`` and, for a
    failure of the gradient oracle, ``ORACLE = 'grad'`` (``'grad-kernel'``: with the
    gradient's Numba kernel), which tests/regressions/test_regressions.py reads."""
    lines = [f'"""Found by son.fuzz ({origin}): {str(failure).replace(chr(34) * 3, "")}"""', "",
             "# ruff: noqa  (a generated program)"]
    body = source.strip()
    for imp in ("import cmath", "import math", "import operator", "import numpy as np",
                "import numpy.typing as npt"):
        if imp not in body.splitlines():
            lines.append(imp)
    lines += ["", body, "", f"ARGS = {args_literal(args)}", ""]
    if oracle:
        lines[-1:-1] = [f"ORACLE = {oracle!r}"]
    return "\n".join(lines)


def write_regression(directory: Path, stem: str, text: str) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{stem}.py"
    path.write_text(text)
    return path
