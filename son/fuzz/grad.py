"""The gradient oracle: ``son.grad`` against central finite differences.

Used only where ``son.grad`` exists (``available()``).  For a generated program
whose function returns a float, ``check_grad`` differentiates with respect to
its float parameters at the argument tuples where each of them has a magnitude
between 1e-6 and 1e6 (``son.grad(f, argnums, interpret=True)``: the reference
interpreter runs the derivative graph) at each argument tuple where CPython's
instrumented run (``oracle.expected_outcomes``) returns a finite float, and
compares each partial derivative with the central difference

    d(h) = (f(x + h e_j) - f(x - h e_j)) / 2h,   h = 1e-6 max(1, |x_j|).

A point is skipped where the function is not smooth enough for the difference
to mean anything: some evaluation raises or is not finite, or d(h) and d(2h)
disagree (a branch, a kink or a discontinuity inside the stencil).  A
``SonError`` from ``son.grad`` is a refusal (an operation without a derivative
rule), counted apart; an arithmetic exception of the derivative program at a
point where the stencil is smooth is a mismatch, any other exception a crash.

Cost per program: 1 + 4 CPython runs per float parameter and point, one
transform and one interpreted gradient per point.
"""

from __future__ import annotations

import linecache
import math

import numpy as np

import son
from son.errors import SonError

from .oracle import Failure, _Runtime, instrument

__all__ = ["available", "check_grad"]

_COUNTER = [0]


def available() -> bool:
    return callable(getattr(son, "grad", None))


def _functions(source: str, name: str):
    """The program's function twice: as written (for son.grad) and instrumented (CPython)."""
    _COUNTER[0] += 1
    filename = f"<son-fuzz-grad-{_COUNTER[0]}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    plain: dict = {"__name__": "__son_fuzz_grad__"}
    exec(compile(source, filename, "exec", dont_inherit=True), plain)  # noqa: S102 - generated program
    inst: dict = {"__rt": _Runtime(), "__name__": "__son_fuzz__"}
    exec(compile(instrument(source), "<son-fuzz>", "exec", dont_inherit=True), inst)  # noqa: S102
    return plain[name], inst[name]


def _copy(args) -> list:
    return [x.copy() if isinstance(x, np.ndarray) else x for x in args]


def _value(fn, args) -> float | None:
    try:
        v = fn(*_copy(args))
    except Exception:  # noqa: BLE001 - not a smooth point
        return None
    return v if type(v) is float and math.isfinite(v) else None


def check_grad(source: str, args: list[tuple], name: str = "f") -> tuple[str, list[Failure]]:
    """(``'ok'``, ``'skipped'`` or ``'refused: ...'``, failures) for one program."""
    fn, cpython = _functions(source, name)
    floats = [i for i, p in enumerate(fn.__code__.co_varnames[:fn.__code__.co_argcount])
              if fn.__annotations__.get(p) is float]
    if not floats:
        return "skipped", []
    try:
        df = son.grad(fn, tuple(floats), interpret=True)
    except SonError as e:
        return f"refused: {e}", []
    compared = 0
    failures: list[Failure] = []
    for k, a in enumerate(args):
        if any(not 1e-6 < abs(a[i]) < 1e6 for i in floats):  # extreme magnitudes: a derivative
            continue  # formula may overflow (atan2 at subnormals: inf - inf) where f is smooth
        f0 = _value(cpython, a)
        if f0 is None:
            continue
        try:
            got = df(*_copy(a))
        except SonError as e:
            return f"refused: {e}", failures
        except (ArithmeticError, ValueError) as e:
            got = e
        except Exception as e:  # noqa: BLE001 - anything else is son failing
            failures.append(Failure("crash", "grad", k, got=f"{type(e).__name__}: {e}"))
            continue
        for pos, i in enumerate(floats):
            d = _difference(cpython, a, i)
            if d is None:
                continue
            compared += 1
            if isinstance(got, Exception):
                failures.append(Failure("mismatch", "grad", k, expected=d, got=type(got).__name__))
                break
            g = got[pos]
            tol = 1e-4 * max(1.0, abs(d)) + 1e-8 * abs(f0) / (1e-6 * max(1.0, abs(a[i])))
            if not (type(g) is float and abs(g - d) <= tol):
                failures.append(Failure("mismatch", "grad", k, expected=f"d/d{i} ~ {d!r}", got=repr(g)))
                break
    return ("ok" if compared else "skipped"), failures


def _difference(fn, a: tuple, i: int) -> float | None:
    """The central difference in argument ``i`` at ``a``, or None where it is not smooth."""
    h = 1e-6 * max(1.0, abs(a[i]))
    vals = []
    for step in (h, -h, 2 * h, -2 * h):
        b = list(a)
        b[i] = a[i] + step
        v = _value(fn, b)
        if v is None:
            return None
        vals.append(v)
    d1 = (vals[0] - vals[1]) / (2 * h)
    d2 = (vals[2] - vals[3]) / (4 * h)
    if abs(d1 - d2) > 1e-3 * max(1.0, abs(d1)):
        return None
    return d1
