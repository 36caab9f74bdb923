"""The differential oracle: CPython against every stage of son, on one program.

``check(source, args)`` runs the program's function ``f``

* under CPython, on an *instrumented* copy that carries son's documented
  semantics (``DEVIATIONS``: each a small named hook with the entry of
  docs/decisions.md or DESIGN.md it implements), which gives the expected
  outcome of every argument tuple;
* under son's reference interpreter on the raw parse, the parse with the
  parse-time peephole, and after each pipeline of ``PIPELINES``;
* as a Numba kernel (``son.compile`` with bounds checks) of one optimized graph;

and compares outcomes: ``("ok", value, arrays after the call)`` or
``("raise", exception type name)``.  The verifier runs after every parse and
pass when ``son.debug`` is on (the campaign and the tests turn it on).

Outcome of a program (``Result.status``): ``ok``; ``reject`` (son refused the
program with ``SonSyntaxError``: a generator bug, counted apart); ``refused``
(``son.compile`` declined a graph Numba cannot type, a documented limit of
code generation; a stage raised ``NotImplementedError`` where CPython's answer
depends on its object identities, and that argument tuple is not compared; or son
refused a line CPython never reaches, ``reached_lines``); ``mismatch`` (a stage
disagrees with CPython) or ``crash``
(a stage raised something that is not an outcome: ``SonError``, an internal
exception while parsing, optimizing or compiling, or a timeout).

Cost: one CPython run, ``len(PIPELINES) + 2`` interpreter runs per argument
tuple and one Numba compile (dominant: ~0.1-0.3 s) per program.
"""

from __future__ import annotations

import io
import math
import signal
import sys
import time
import warnings
import zlib
from contextlib import contextmanager, redirect_stdout
from dataclasses import dataclass, field

import numpy as np

import son
from son.errors import SonError, SonSyntaxError
from son.nodes.types import BOOL, FLOAT, INT, ArrayType

from .arguments import fresh_copy
from .deviations import DEVIATIONS, _Runtime, instrument  # noqa: F401 - the oracle's, for its users

__all__ = ["DEVIATIONS", "PIPELINES", "STAGES", "Failure", "Result", "canon", "check", "instrument"]


#: stage name -> the pipeline whose graph that stage interprets
PIPELINES: dict[str, son.Pipeline] = {
    "raw": son.Pipeline.of("none"),
    "parsed": son.Pipeline.of("none").but(name="parsed", peephole=True),
    "peephole": son.Pipeline.of("peephole").but(peephole=False),
    "sccp": son.Pipeline.of("sccp"),
    "combined": son.Pipeline.of("combined"),
    "user": son.Pipeline.of("sccp,combined,dce"),
    # the user's helpers kept as calls of their own graphs, then inlined by the pass
    "calls": son.Pipeline.of("sccp", inline=False),
    "inlined": son.Pipeline.of("inline,peephole,sccp", inline=False).but(peephole=True),
}
#: the graph stage the kernel is compiled from
KERNEL_FROM = "combined"
#: the graph stage a second kernel is compiled from where it keeps calls the first inlines,
#: for one program in CALLS_KERNEL_EVERY (by its text) whose first kernel compiled in under
#: 3 s: a second Numba compile per program would make campaigns a third slower, and a
#: huge kernel's twice as slow (the fixed campaign's i339: 13 s, then 11 s more)
CALLS_FROM = "calls"
CALLS_KERNEL_EVERY = 3
STAGES = ("python", *PIPELINES, "kernel", "kernel-calls", "jit")

#: ``son.compile`` refusals that are documented limits, not bugs (son/exec/mixed.py
#: ``_check_types``, emit.py ``_is_float``)
REFUSALS = ("on different paths", "unknown at compile time", "has no single type",
            "is not a single int, float, bool or array type", "cannot hold an optional value",
            "a recursive function whose values may be an int or a float")


def canon(v):
    """A comparable form of a value: floats by bit pattern (any NaN alike), ints by value,
    bools as bools (a kernel returns CPython's object: ``True``, not ``1``), arrays by
    dtype and elements (a 0-d array by dtype and its element), tuples and lists element
    by element.  The tests use it too (tests/conftest.py)."""
    if isinstance(v, np.ndarray):  # a 0-d one's tolist() is its element
        items = v.tolist()
        return ("array", str(v.dtype), tuple(canon(x) for x in items) if v.ndim else canon(items))
    if isinstance(v, np.generic):
        v = v.item()
    if v is None:
        return None
    if isinstance(v, tuple):  # a function returning several values
        return ("tuple", tuple(canon(x) for x in v))
    if isinstance(v, list):  # numpy's scalars in it read as son reads them: Python scalars
        return ("list", tuple(canon(x) for x in v))
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, int):
        return ("int", v)
    if isinstance(v, float):
        return ("float", "nan" if math.isnan(v) else v.hex())
    return ("other", type(v).__name__, repr(v))


def _copy(args) -> list:
    return [fresh_copy(a) if isinstance(a, np.ndarray) else a.copy() if isinstance(a, list) else a
            for a in args]


#: the outcome of a documented run-time refusal (``Result.declined``)
_DECLINED = ("raise", "NotImplementedError")


class _Crash(Exception):
    """A stage failed in a way that is not an outcome of the program."""


def _outcome(call, args) -> tuple:
    args = _copy(args)
    try:  # numpy's warnings are not outcomes (np.mean of an empty array warns through warnings)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            value = call(*args)
    except _Timeout:
        raise
    except SonError as e:
        raise _Crash(f"{type(e).__name__}: {e}") from e
    except Exception as e:  # noqa: BLE001 - the exception type is the outcome
        return ("raise", type(e).__name__)
    return ("ok", canon(value), tuple(canon(a) for a in args if isinstance(a, (np.ndarray, list))))


class _Timeout(BaseException):
    """A program's deadline: a BaseException, so that no ``except Exception`` on its way
    (son's own, numba's, the program's) takes it for an error of the code it interrupted
    (a Numba compile reported as a bug in son's code generator)."""


@contextmanager
def _deadline(seconds: float):
    """Raise ``_Timeout`` in the main thread after ``seconds`` (Unix; elsewhere no limit)."""
    if not hasattr(signal, "setitimer") or seconds <= 0:
        yield
        return

    def fire(signum, frame):
        raise _Timeout(f"no result after {seconds} s")

    try:
        old = signal.signal(signal.SIGALRM, fire)
    except ValueError:  # not the main thread
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


# ====================================================================== checking
@dataclass
class Failure:
    """One disagreement: ``kind`` 'mismatch' or 'crash', the stage, the argument tuple's
    index (None for a crash before running), what was expected and what came."""

    kind: str
    stage: str
    args_index: int | None
    expected: object = None
    got: object = None

    @property
    def signature(self) -> tuple:
        """What a shrunk program must keep to fail 'the same way'."""
        if self.kind == "crash":
            return ("crash", self.stage, str(self.got).split(":")[0])
        return ("mismatch", self.stage)

    def __str__(self) -> str:
        where = f" on args #{self.args_index}" if self.args_index is not None else ""
        if self.kind == "crash":
            return f"crash in {self.stage}{where}: {self.got}"
        return f"mismatch in {self.stage}{where}: expected {self.expected}, got {self.got}"


@dataclass
class Result:
    status: str = "ok"
    failures: list[Failure] = field(default_factory=list)
    times: dict[str, float] = field(default_factory=dict)
    wraps: int = 0
    detail: str = ""
    #: the argument tuples on which a stage raised NotImplementedError where CPython did not
    #: (son/frontend/lists.py: a question only CPython's object identity answers); not compared
    declined: set[int] = field(default_factory=set)

    @property
    def failed(self) -> bool:
        return self.status in ("mismatch", "crash")


def _timed(times: dict, stage: str, t0: float) -> float:
    t1 = time.perf_counter()
    times[stage] = times.get(stage, 0.0) + t1 - t0
    return t1


def expected_outcomes(source: str, args: list[tuple], name: str = "f") -> tuple[list[tuple], int]:
    """CPython's outcomes of ``name(*a)`` for each ``a`` in ``args`` (instrumented: see
    ``DEVIATIONS``) and the number of int64 wrap-arounds the runs met."""
    rt = _Runtime()
    ns = {"__rt": rt, "__name__": "__son_fuzz__"}
    exec(compile(instrument(source), "<son-fuzz>", "exec", dont_inherit=True), ns)  # noqa: S102 - generated program
    fn = ns[name]
    return [_outcome(fn, a) for a in args], rt.wraps


def reached_lines(source: str, args: list[tuple], name: str = "f") -> set[int]:
    """The lines of ``source`` CPython runs on some argument tuple.  son refuses some
    constructs on paths its types prove dead (a list merged after a statement that always
    raises, son/frontend/core.py ``_kind``'s TOP): that is son's limit, not a generator
    bug, and ``check`` counts it as ``refused``, not ``reject``."""
    lines: set[int] = set()

    def tracer(frame, event, arg):
        if frame.f_code.co_filename != "<son-fuzz>":
            return None
        if event == "line":
            lines.add(frame.f_lineno)
        return tracer

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        with redirect_stdout(io.StringIO()):  # a program's prints (fallback regions)
            expected_outcomes(source, args, name)
    finally:
        sys.settrace(old)
    return lines


def _kernel_stage(stage: str, graph, compare, res: Result, times: dict, effects) -> bool:
    """Compile ``graph`` (``son.compile`` with bounds checks) and compare it as ``stage``;
    False where it could not be compiled."""
    from . import regioncheck as rc

    t = time.perf_counter()
    try:
        k = son.compile(graph, boundscheck=True)
    except SonError as e:
        _timed(times, stage, t)
        if any(s in str(e) for s in REFUSALS):
            res.status, res.detail = "refused", str(e)
        else:
            res.failures.append(Failure("crash", stage, None, got=f"SonError: {e}"))
        return False
    except Exception as e:  # noqa: BLE001
        if isinstance(e, _Timeout):
            raise
        _timed(times, stage, t)
        res.failures.append(Failure("crash", stage, None, got=f"{type(e).__name__}: {e}"))
        return False
    compare(stage, k, effects and rc.namespace_of(graph))
    _timed(times, stage, t)
    return True


def check(source: str, args: list[tuple], name: str = "f", kernel: bool = True,
          timeout: float = 60.0, stop_at_first: bool = False) -> Result:
    """Run the program through CPython and every stage (see the module docstring)."""
    res = Result()
    times = res.times
    try:
        with _deadline(timeout), warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)  # shrunk programs may index a constant
            _check(source, args, name, kernel, res, times, stop_at_first)
    except _Timeout as e:
        if not any(f.got.startswith("Timeout") for f in res.failures if isinstance(f.got, str)):
            res.failures.append(Failure("crash", "timeout", None, got=f"Timeout: {e}"))
    if res.failures and res.status == "ok":
        res.status = "crash" if any(f.kind == "crash" for f in res.failures) else "mismatch"
    elif res.declined and res.status == "ok":
        res.status = "refused"
        res.detail = (f"son raised NotImplementedError on args #{min(res.declined)}: a documented refusal "
                      "at run time (a NaN's identity or place after a sort, a value of another kind "
                      "than its list's)")
    return res


def _check(source, args, name, kernel, res: Result, times: dict, stop_at_first: bool) -> None:
    from . import regioncheck as rc  # fallback regions: stdout, messages and globals compared too

    t = time.perf_counter()
    fallback, effects = rc.fallback_of(source), None
    try:
        if fallback == "region":
            expected, res.wraps, effects = rc.expected(source, args, name)
        else:
            expected, res.wraps = expected_outcomes(source, args, name)
    except _Timeout:  # a program that does not terminate: the generator's (or shrinker's) fault
        res.status, res.detail = "reject", "CPython did not finish in time"
        return
    except Exception as e:  # noqa: BLE001 - the module itself does not run: not a son program
        res.status, res.detail = "reject", f"the module does not run: {type(e).__name__}: {e}"
        return
    t = _timed(times, "python", t)
    graphs: dict[str, son.Graph] = {}
    parses: dict[tuple, son.Graph] = {}

    def compare(stage: str, run, ns=None) -> bool:
        outcome = _outcome if effects is None else effects.outcome(ns)
        for i, a in enumerate(args):
            try:
                got = outcome(run, a)
            except _Timeout as e:  # the deadline is the whole check's: no stage runs after it
                res.failures.append(Failure("crash", stage, i, got=f"Timeout: {e}"))
                raise
            except _Crash as e:
                res.failures.append(Failure("crash", stage, i, got=str(e)))
                return False
            if got[:2] == _DECLINED and expected[i][:2] != _DECLINED:  # a documented run-time refusal
                res.declined.add(i)
                continue
            if got != expected[i]:
                res.failures.append(Failure("mismatch", stage, i, expected[i], got))
                return False
        return True

    helpers = sum(line.startswith("def ") for line in source.splitlines()) > 1
    for stage, pipeline in PIPELINES.items():
        if not pipeline.inline and not helpers:
            continue  # no module helper to keep as a call: the default parse's graph again
        t = time.perf_counter()
        try:
            how = (pipeline.peephole, pipeline.inline)
            if how not in parses:
                parses[how] = pipeline.parse(source, name=name, fallback=fallback)
            g = parses[how]
            if stage == CALLS_FROM:  # and the callees' graphs, as son.jit optimizes them
                g = pipeline.optimize_module(g.copy())
            elif pipeline.passes:
                g, _ = pipeline.optimize(g)
        except SonSyntaxError as e:
            res.status, res.detail = "reject", str(e)
            if effects is not None and rc.is_refusal(e):
                res.status, res.detail = "refused", f"son refused a fallback region: {e}"
            elif e.lineno and e.lineno not in reached_lines(source, args, name):
                res.status, res.detail = "refused", f"son refused a line CPython never reaches: {e}"
            _timed(times, stage, t)
            return
        except Exception as e:  # noqa: BLE001 - any other failure to build the graph is a crash
            if isinstance(e, _Timeout):
                raise
            res.failures.append(Failure("crash", stage, None, got=f"{type(e).__name__}: {e}"))
            _timed(times, stage, t)
            if stop_at_first:
                return
            continue
        graphs[stage] = g
        ok = compare(stage, lambda *a, g=g: son.interpret(g, *a), effects and rc.namespace_of(g))
        _timed(times, stage, t)
        if not ok and stop_at_first:
            return
    if not kernel or KERNEL_FROM not in graphs:
        return
    if not all(isinstance(t, ArrayType) or t in (INT, FLOAT, BOOL) for _, t in graphs[KERNEL_FROM].params):
        res.detail = "kernel skipped: parameters of unknown kind"  # son.compile needs their types
        return
    if not _kernel_stage("kernel", graphs[KERNEL_FROM], compare, res, times, effects):
        return
    calls = graphs.get(CALLS_FROM)
    if calls is not None and len(calls.callees()) > len(graphs[KERNEL_FROM].callees()) \
            and zlib.crc32(source.encode()) % CALLS_KERNEL_EVERY == 0 and times.get("kernel", 0.0) < 3.0:
        _kernel_stage("kernel-calls", calls, compare, res, times, effects)
    t = time.perf_counter()
    if effects is not None:  # son.jit as a user calls it, its default fallback="region"
        with rc.jitted(source, name) as (jf, ns):
            n = len(res.failures)
            compare("jit", jf, ns)
            if jf.replayed:  # a kernel refused at run time and son.jit ran the call in CPython:
                del res.failures[n:]  # CPython's own result, not son's documented deviations
            if not jf.kernels and jf.fallbacks:  # son ran the whole function in CPython: not compared
                del res.failures[n:]
                why = "; ".join(jf.fallbacks.values())
                res.failures.append(Failure("crash", "jit", None, got=f"SonError: son.jit ran f in CPython: "
                                                                      f"{why}"))
        _timed(times, "jit", t)
