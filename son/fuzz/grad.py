"""The gradient oracle: reverse mode against forward mode, both against finite differences.

``check_grad(source, args)`` differentiates the program's function ``f`` with
respect to its float parameters (annotated ``float``, or unannotated with a float
argument) at every argument tuple where CPython's instrumented run returns a
float, with the reference interpreter running the derivative graphs:

* ``son.grad`` (reverse mode) against ``son.jvp`` with each basis tangent
  (forward mode).  Both take their partial derivatives from one rule table
  (son/grad/rules.py), so they must agree wherever both are finite, kinks and
  branches included: to ``MODES_RTOL`` relative (the two modes only sum the same
  products in another order), and exactly in NaN-ness and inf-ness;
* both against the central difference
  ``d(h) = (f(x + h e_j) - f(x - h e_j)) / 2h``, ``h = 1e-6 max(1, |x_j|)``, where
  the function is smooth there: every evaluation of the stencil returns a finite
  float, ``d(h)`` agrees with ``d(2h)`` and the two one-sided differences agree
  (no branch, kink or discontinuity inside the stencil or at the point
  itself), all differentiated arguments lie between 1e-6 and 1e6 in magnitude,
  and the point is not singular;
* the value ``son.value_and_grad`` and ``son.jvp`` return against CPython's, bit
  for bit (``oracle.canon``); ``son.value_and_grad``'s gradient against
  ``son.grad``'s;
* with ``compiled``, the Numba kernel of ``son.grad`` against the interpreted
  gradient, outcome for outcome.

A point is *singular* where CPython's run met a non-finite float (an argument,
``math.inf``, an operator's or call's result: ``_Runtime.nonfinite``) or returned
one, or where a differentiated argument lies outside 1e-6..1e6 in magnitude (0.0
and subnormals included: partial derivatives such as ``1/x`` overflow there while
the primal stays finite).  There the modes may legitimately differ in how an
infinity or a rounding propagates, so a disagreement is counted apart
(``counts['singular-partials']``), not as a failure -- unless the stencil of
finite differences (computed wherever the value and the arguments are moderate,
singular or not) sides with one mode: a NaN next to a forward derivative the
stencil confirms is a wrong answer (DESIGN.md, Gradients: an adjoint that is
exactly zero contributes exactly zero).  Two equal infinities or two NaNs are
singular too.  At a point that is not singular the modes must agree, kinks and
branches included, whether the stencil can tell anything or not.

Outcomes: ``GradResult.status`` 'ok' (something was compared), 'skipped' (no
float parameter, no float result, fallback regions), 'refused' (``son.grad`` raised ``SonError``:
an operation without a derivative rule, ``detail`` says which); ``failures``
with stage ``GRAD_STAGES``: 'grad-vs-jvp' (the modes disagree; reverse mode is
off where finite differences can tell), 'jvp-vs-fd' (forward mode is the one the
stencil contradicts), 'grad-vs-fd' (the modes agree, finite differences do not:
a shared rule is wrong), 'grad-value'
/ 'jvp-value' (a transformed function's value is not CPython's), 'grad-kernel'
(the compiled gradient is not the interpreted one) and 'grad' (an exception that
is no outcome: a crash).  ``counts``: the points differentiated ('points'),
those that were singular ('singular'), partial derivatives compared between the
modes ('modes') and with finite differences too ('fd'), singular partials
('singular-partials'), values compared ('value'), points compared with the
kernel ('kernel', 'kernel-refused'), and points where son raised a documented
``NotImplementedError`` ('declined': skipped, as the primal oracle skips them).

Cost per program: per differentiated point one CPython run, ``4 x`` float
parameters more for the stencil, one interpreted ``grad``, one ``value_and_grad``
and one ``jvp`` per float parameter; three transforms per set of float
parameters (cached); with ``compiled`` one Numba compile (~0.2-0.5 s).
"""

from __future__ import annotations

import contextlib
import linecache
import math
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

import son
from son.errors import SonError
from son.nodes import MATH_NODES, Add, Constant, IEEEDiv, IEEEPow, Mul, Neg, Sub, ZMul

from .oracle import REFUSALS, Failure, _Runtime, canon, instrument
from .regioncheck import fallback_of

__all__ = ["GRAD_STAGES", "MODES_RTOL", "GradResult", "available", "check_grad"]

#: failure stages of the gradient oracle (see the module docstring)
GRAD_STAGES = ("grad-vs-jvp", "jvp-vs-fd", "grad-vs-fd", "grad-value", "jvp-value", "grad-kernel", "grad")
#: relative tolerance between reverse and forward mode where both are finite
MODES_RTOL = 1e-12
#: exceptions a derivative program may raise as an outcome (anything else is a crash)
_OUTCOME_ERRORS = (ArithmeticError, ValueError, IndexError)

_COUNTER = [0]


def available() -> bool:
    return callable(getattr(son, "grad", None)) and callable(getattr(son, "jvp", None))


@dataclass
class GradResult:
    """What the gradient oracle found on one program (see the module docstring)."""

    status: str = "skipped"
    failures: list[Failure] = field(default_factory=list)
    counts: Counter = field(default_factory=Counter)
    detail: str = ""


class _Refused(Exception):
    pass


def _functions(source: str, name: str):
    """The program's function as written (for son), instrumented (CPython, counting
    non-finite intermediates) and the instrumented copy's runtime."""
    _COUNTER[0] += 1
    filename = f"<son-fuzz-grad-{_COUNTER[0]}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    plain: dict = {"__name__": "__son_fuzz_grad__"}
    exec(compile(source, filename, "exec", dont_inherit=True), plain)  # noqa: S102 - generated program
    rt = _Runtime()
    inst: dict = {"__rt": rt, "__name__": "__son_fuzz__"}
    exec(compile(instrument(source, track=True), "<son-fuzz>", "exec", dont_inherit=True), inst)  # noqa: S102
    return plain[name], inst[name], rt


def _copy(args) -> list:
    return [x.copy() if isinstance(x, np.ndarray) else x for x in args]


def _value(fn, args) -> float | None:
    try:
        with np.errstate(all="ignore"):
            v = fn(*_copy(args))
    except Exception:  # noqa: BLE001 - not a smooth point
        return None
    return v if type(v) is float and math.isfinite(v) else None


#: the node classes whose results are the terms (and partial sums) of a derivative
_TERM_NODES = (Add, Sub, Mul, ZMul, Neg)
#: the node classes the partials are built from besides the terms' (son.grad.rules)
_PARTIAL_NODES = (IEEEDiv, IEEEPow, *MATH_NODES.values())


@contextlib.contextmanager
def _terms():
    """Watch the derivative's arithmetic while the interpreter runs a transformed graph:
    yields ``[peak, singular]``, the largest magnitude of a finite float a term
    (``_TERM_NODES``) computes, and whether the derivative computed a non-finite value
    from finite operands: a term that overflowed, or a partial taken where it does not
    exist (``atan2``'s at the origin is 0/0).  Two modes that sum terms of 1e16
    (``x + 1e16 * (x - x)``: reverse mode adds 1, 1e16 and -1e16 to x's adjoint,
    forward mode multiplies 1e16 by 1 - 1) agree only to that scale's rounding; where
    a term overflows or a partial is nan, one mode may meet it times an exact zero
    (forward mode's ``1 - 1``, a strong zero) and the other times a non-zero adjoint."""
    seen = [0.0, False]
    plain = {cls: cls.eval for cls in (*_TERM_NODES, *_PARTIAL_NODES)}

    def watch(ev, term: bool):
        def eval(self, *xs):
            r = ev(self, *xs)
            if type(r) is float:
                if math.isfinite(r):
                    if term and abs(r) > seen[0]:
                        seen[0] = abs(r)
                elif all(type(x) is not float or math.isfinite(x) for x in xs):
                    seen[1] = True
            return r

        return eval

    for cls, ev in plain.items():
        cls.eval = watch(ev, cls in _TERM_NODES)
    try:
        yield seen
    finally:
        for cls, ev in plain.items():
            cls.eval = ev


def _call(run) -> tuple:
    """``('ok', value)`` or ``('raise', exception type name)``; ``_Refused`` for a
    ``SonError``; any other exception propagates (a crash)."""
    try:
        with np.errstate(all="ignore"):
            return ("ok", run())
    except SonError as e:
        raise _Refused(str(e)) from e
    except _OUTCOME_ERRORS as e:
        return ("raise", type(e).__name__)


def _differentiable(fn, a: tuple) -> tuple[int, ...]:
    code = fn.__code__
    ann = fn.__annotations__
    # a trailing parameter left to its default (``fn0=h0``) is not differentiated
    return tuple(i for i, p in enumerate(code.co_varnames[:min(code.co_argcount, len(a))])
                 if type(a[i]) is float and ann.get(p, float) is float)


def check_grad(source: str, args: list[tuple], name: str = "f", compiled: bool = False) -> GradResult:
    """The gradient oracle on one program (see the module docstring)."""
    res = GradResult()
    if fallback_of(source) == "region":  # issue 23: son.grad refuses regions on differentiated values
        res.detail = "a program with fallback regions (son.fuzz.fallbackgen)"
        return res
    fn, cpython, rt = _functions(source, name)
    transforms: dict[tuple, tuple] = {}
    try:
        for k, a in enumerate(args):
            wrt = _differentiable(fn, a)
            if wrt:
                _check_point(res, fn, cpython, rt, transforms, k, a, wrt, compiled)
    except _Refused as e:
        res.status, res.detail = "refused", str(e)
        return res
    if res.counts["points"]:
        res.status = "ok"
    return res


def _transforms(fn, transforms: dict, wrt: tuple, compiled: bool) -> tuple:
    t = transforms.get(wrt)
    if t is None:
        t = transforms[wrt] = (son.grad(fn, wrt, interpret=True), son.value_and_grad(fn, wrt, interpret=True),
                               son.jvp(fn, wrt, interpret=True), son.grad(fn, wrt) if compiled else None)
    return t


def _folded_overflow(graph, fn) -> bool:
    """Does the derivative's graph hold an infinite or NaN float constant that the
    function's own graph does not (a partial the transforms folded from finite constants,
    ``x / 1e-320``'s ``1/1e-320``, which ``_terms`` cannot watch at run time)?  O(nodes).
    False for a derivative without a graph (a stand-in a test passes) or a function son
    cannot parse alone."""
    if graph is None:
        return False
    try:
        own = _nonfinite_constants(son.parse(fn))
    except Exception:  # noqa: BLE001 - then nothing is excused
        return False
    return bool(_nonfinite_constants(graph) - own)


def _nonfinite_constants(graph) -> set:
    return {repr(n.type.con) for n in graph.nodes()
            if type(n) is Constant and type(n.type.con) is float and not math.isfinite(n.type.con)}


def _check_point(res: GradResult, fn, cpython, rt: _Runtime, transforms: dict, k: int, a: tuple,
                 wrt: tuple, compiled: bool) -> None:
    rt.nonfinite, rt.peak, rt.coarse = 0, 0.0, 0
    try:
        with np.errstate(all="ignore"):
            v0 = cpython(*_copy(a))
    except Exception:  # noqa: BLE001 - the primal raises: the primal oracle compares that
        return
    if type(v0) is not float:  # an int-or-float function that returned an int here
        return
    singular = rt.nonfinite > 0 or not math.isfinite(v0) or any(
        type(x) is float and not math.isfinite(x) for x in a) or not all(1e-6 < abs(a[i]) < 1e6 for i in wrt)
    grad, vg, jvp, kernel = _transforms(fn, transforms, wrt, compiled)
    fail = res.failures.append
    try:
        with _terms() as terms:
            rev = _call(lambda: grad(*_copy(a)))
        val = _call(lambda: vg(*_copy(a)))
        fwd = []
        for j in range(len(wrt)):
            basis = tuple(1.0 if m == j else 0.0 for m in range(len(wrt)))
            with _terms() as more:
                fwd.append(_call(lambda basis=basis: jvp(_copy(a), basis)))
            terms[0] = max(terms[0], more[0])
            terms[1] = terms[1] or more[1]
        # the transforms fold constant terms while they are built (at the first point):
        # the largest term seen at any point of this program stands for all of them, and a
        # partial folded to an infinity (``x / 1e-320``'s 1/1e-320) overflowed at every point
        folded = ("terms", wrt) not in transforms and _folded_overflow(getattr(grad, "graph", None), fn)
        seen = transforms.setdefault(("terms", wrt), [0.0, folded])
        seen[0] = terms[0] = max(seen[0], terms[0])
        terms[1] = terms[1] or seen[1]
    except _Refused:
        raise
    except NotImplementedError:  # a documented run-time refusal (a NaN's place after a sort, ...):
        res.counts["declined"] += 1  # as the primal oracle counts it, never an agreement
        return
    except Exception as e:  # noqa: BLE001 - son failing is a finding, not a campaign crash
        fail(Failure("crash", "grad", k, got=f"{type(e).__name__}: {e}"))
        return
    # the stencil also where the point is singular: it arbitrates a NaN against a finite value
    moderate = math.isfinite(v0) and all(1e-6 < abs(a[i]) < 1e6 for i in wrt)
    diffs = [_difference(cpython, a, i, v0) if moderate and not rt.coarse else None for i in wrt]
    res.counts["points"] += 1
    res.counts["singular"] += singular

    # derivatives: an exception where CPython returned a value
    outcomes = (rev, val, *fwd)
    raised = [o for o in outcomes if o[0] == "raise"]
    if raised:
        if not (all(o == raised[0] for o in outcomes) or singular or any(d is None for d in diffs)):
            fail(Failure("mismatch", "grad-vs-jvp", k, expected="a derivative (finite differences: "
                         f"{diffs})", got=f"grad {rev}, value_and_grad {val[0]}, jvp {[o[0] for o in fwd]}"))
        return
    for pos, i in enumerate(wrt):
        r, t, d = rev[1][pos], fwd[pos][1][1], diffs[pos]
        verdict = _classify(r, t, d, singular, a[i], v0, max(rt.peak, terms[0] * abs(a[i])), terms[1])
        if verdict == "modes":
            res.counts["modes"] += 1
        elif verdict == "fd":
            res.counts["modes"] += 1
            res.counts["fd"] += 1
        elif verdict == "singular":
            res.counts["singular-partials"] += 1
        else:
            stage, expected = verdict
            fail(Failure("mismatch", stage, k, expected=f"d/d{i}: {expected}",
                         got=f"son.grad {r!r}, son.jvp {t!r}"))
            break
    # values: CPython's, bit for bit
    if val[0] == "ok":
        res.counts["value"] += 1
        if canon(val[1][0]) != canon(v0):
            fail(Failure("mismatch", "grad-value", k, expected=repr(v0), got=repr(val[1][0])))
        elif rev[0] == "ok" and canon(val[1][1]) != canon(rev[1]):
            fail(Failure("mismatch", "grad-value", k, expected=f"son.grad's {rev[1]!r}",
                         got=f"value_and_grad's {val[1][1]!r}"))
    for f in fwd:
        if f[0] == "ok" and canon(f[1][0]) != canon(v0):
            fail(Failure("mismatch", "jvp-value", k, expected=repr(v0), got=repr(f[1][0])))
            break

    if kernel is not None:
        _check_kernel(res, kernel, k, a, rev)


def _close(x: float, y: float, rtol: float, atol: float = 0.0) -> bool:
    return abs(x - y) <= rtol * max(abs(x), abs(y)) + atol


def _fd_close(g: float, d: float, x: float, v0: float, peak: float = 0.0) -> bool:
    """Does ``g`` agree with the central difference ``d``?  Its error is the truncation
    (relative 1e-4) plus the rounding of ``f``'s values over ``2h``; ``f`` is rounded
    at the scale of its largest intermediate (``peak``: ``a + x - (a - m)`` with a
    huge ``a`` is O(1) with the rounding of ``a``)."""
    return abs(g - d) <= 1e-4 * max(1.0, abs(d)) + 1e-8 * max(abs(v0), peak) / (1e-6 * max(1.0, abs(x)))


def _classify(r, t, d: float | None, singular: bool, x: float, v0: float, peak: float = 0.0,
              overflow: bool = False):
    """How one partial derivative compares: 'modes' (reverse and forward agree), 'fd'
    (and finite differences too), 'singular', or (failing stage, what was expected).

    Reverse and forward mode sum the same terms in different orders, so where the
    terms cancel (``2 / x**3 * x**3``: -6/x and 6/x) they agree only to the rounding
    of the terms, not of the result: the absolute tolerance is ``MODES_RTOL`` times
    the largest term's scale, estimated as ``peak`` (the largest float intermediate of
    CPython's run) over ``|x|``.  Where the derivative computed a non-finite value
    from finite operands (``overflow``: ``1e308 * (1/x)`` in reverse mode, where
    forward mode scales by 1e308 last; atan2's partial at the origin), a mode that is
    inf or nan next to a finite one is singular too (see ``_terms``)."""
    if type(r) is not float or type(t) is not float:
        return "grad-vs-jvp", f"two floats (finite differences: {d!r})"
    fr, ft = math.isfinite(r), math.isfinite(t)
    scale = max(abs(v0), peak) / max(abs(x), 1e-300) if math.isfinite(v0) else 0.0
    if fr and ft and _close(r, t, MODES_RTOL, max(1e-300, MODES_RTOL * scale)):
        if d is None or singular:
            return "modes"
        if not _fd_close(r, d, x, v0, peak):
            return "grad-vs-fd", f"~ {d!r} (finite differences; the modes agree: a shared rule)"
        return "fd"
    if not (fr or ft) and ((math.isnan(r) and math.isnan(t)) or r == t):  # two NaNs, equal infinities
        return "singular"
    # the modes disagree: finite differences tell which one is wrong where they can
    if d is not None and not (overflow and not (fr and ft)):
        rd, td = fr and _fd_close(r, d, x, v0, peak), ft and _fd_close(t, d, x, v0, peak)
        if td and not rd:
            return "grad-vs-jvp", f"son.jvp's {t!r} (finite differences: {d!r})"
        if rd and not td:
            return "jvp-vs-fd", f"son.grad's {r!r} (finite differences: {d!r})"
    if singular or (overflow and not (fr and ft)):
        return "singular"
    return "grad-vs-jvp", f"reverse == forward, in value, NaN-ness and inf-ness (finite differences: {d!r})"


def _check_kernel(res: GradResult, kernel, k: int, a: tuple, rev: tuple) -> None:
    """The compiled son.grad against the interpreted one at one point."""
    try:
        got = _call(lambda: kernel(*_copy(a)))
    except _Refused as e:
        if any(s in str(e) for s in REFUSALS):
            res.counts["kernel-refused"] += 1
            return
        res.failures.append(Failure("crash", "grad-kernel", k, got=f"SonError: {e}"))
        return
    except Exception as e:  # noqa: BLE001
        res.failures.append(Failure("crash", "grad-kernel", k, got=f"{type(e).__name__}: {e}"))
        return
    res.counts["kernel"] += 1
    norm = (lambda o: (o[0], canon(tuple(o[1])) if o[0] == "ok" else o[1]))
    if norm(got) != norm(rev):
        res.failures.append(Failure("mismatch", "grad-kernel", k, expected=f"interpreted {rev[1]!r}",
                                    got=repr(got[1])))


def _difference(fn, a: tuple, i: int, f0: float) -> float | None:
    """The central difference in argument ``i`` at ``a`` (where ``f`` is ``f0``), or None
    where it is not smooth: d(h) and d(2h) disagree, or the one-sided differences do
    (a kink at ``a`` itself, where d(h) and d(2h) both give the mean of the slopes)."""
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
    tol = 1e-3 * max(1.0, abs(d1))
    if abs(d1 - d2) > tol or abs((vals[0] - f0) / h - (f0 - vals[1]) / h) > tol:
        return None
    return d1
