"""Campaigns: many generated programs through the oracle, in parallel, with totals.

``run(n, seed, jobs)`` checks programs ``start .. start+n-1`` of ``seed``.  With
``jobs == 0`` it runs in this process (the tests do); otherwise ``jobs`` worker
processes (spawned, so none inherits a half-initialised Numba) take program
indices from a queue and write the index they are working on into shared
memory, so a worker killed by a signal (a kernel that crashes the process)
costs only that program, which is counted as a crash, and a new worker takes
over; a worker also ends after a program that ran out of time (the timeout's
exception may have interrupted Numba mid-compile), a worker that gives no answer
``HANG_TIMEOUTS`` timeouts after it took a program (a compiled kernel that never
returns: the deadline's signal cannot reach it) is killed and the program
counted as a crash, and after
``PROGRAMS_PER_WORKER`` programs (every compiled kernel stays loaded, about
1 MB each: 10,000 programs grew a worker to 6 GB), and a new one takes over.
Kernels are compiled into a temporary ``SON_CACHE_DIR`` (one per worker,
removed at the end: every program is new, so a disk cache only costs time, and
the user's cache stays untouched); the verifier is on; each failing program is
shrunk (``shrink.shrink``) into ``out`` as a regression case named by seed and
index.  With ``grad`` (the default) every program on which the interpreter stages
agreed with CPython also goes through the gradient oracle (``son.fuzz.grad``; one
in ``GRAD_KERNEL_EVERY`` with its gradient compiled), and a gradient failure is
shrunk into ``out`` as ``..._grad.py``.

``engine="dask"`` runs the same programs on a Dask cluster instead (``son.fuzz.cluster``:
a ``LocalCluster`` of ``jobs`` workers, or the running one at ``scheduler``), with the
same outcome for every program.  Either way the campaign records the source it started
on (``son.fuzz.provenance``: the git revision, a hash of son's files) and stops with
``SourceChanged`` if the files change while it runs; ``Totals.to_pandas()`` is the
table of the programs (one row each), ``Totals.save_table`` writes it as Parquet or CSV.

Cost: the sum of the programs' oracle runs divided by ``jobs``; Numba's compile
of one kernel per program dominates (see ``Totals.report``); the gradient oracle
adds a few ms per program, plus a compile for one in ``GRAD_KERNEL_EVERY``.
"""

from __future__ import annotations

import os
import queue
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import SonError
from .provenance import Source, SourceChanged

__all__ = ["ENGINES", "Totals", "check_one", "run"]

#: where a campaign's programs run: local worker processes, or a Dask cluster
ENGINES = ("local", "dask")


#: one program in this many (by index) also compiles its gradient with Numba (``check_grad``'s
#: ``compiled``) and compares the kernel with the interpreted gradient
GRAD_KERNEL_EVERY = 20

#: program-level gradient outcomes, in the order the report prints them
GRAD_REACHED = (("checked", "checked"), ("modes", "compared reverse vs forward"),
                ("fd", "compared with finite differences"), ("singular", "had singular points"),
                ("kernel", "compared the gradient kernel"), ("refused", "refused"), ("skipped", "skipped"),
                ("failed", "failed"))


@dataclass
class Totals:
    """What a campaign found: counts by status, seconds by stage, the failures; ``grad``
    counts programs by how far the gradient oracle got with them (``GRAD_REACHED``),
    ``grad_points`` the points and partial derivatives (``son.fuzz.grad``'s counts)."""

    counts: Counter = field(default_factory=Counter)
    times: Counter = field(default_factory=Counter)
    wrapped: int = 0
    failures: list[dict] = field(default_factory=list)
    rejects: list[dict] = field(default_factory=list)
    grad: Counter = field(default_factory=Counter)
    grad_points: Counter = field(default_factory=Counter)
    grad_failures: list[dict] = field(default_factory=list)
    wall: float = 0.0
    #: the program indices checked, in the order their results came
    indices: list[int] = field(default_factory=list)
    #: every program's result (``check_one``'s dict), in the order they came
    items: list[dict] = field(default_factory=list)
    seed: int = 0
    engine: str = "local"
    #: the source the campaign started on (None: not recorded)
    source: Source | None = None

    def add(self, item: dict) -> None:
        self.counts[item["status"]] += 1
        self.indices.append(item["index"])
        self.items.append(item)
        g = item.get("grad")
        if g is not None:
            self.grad["checked"] += 1
            self.grad[g["status"]] += g["status"] in ("refused", "skipped")
            for key in ("modes", "fd", "singular", "kernel"):
                self.grad[key] += g["counts"].get(key, 0) > 0
            self.grad_points.update(g["counts"])
            if g["failure"]:
                self.grad["failed"] += 1
                self.grad_failures.append(item)
        self.times.update(item["times"])
        self.wrapped += item["wraps"] > 0
        if item["status"] in ("mismatch", "crash"):
            self.failures.append(item)
        elif item["status"] == "reject":
            self.rejects.append(item)

    @property
    def programs(self) -> int:
        return sum(self.counts.values())

    @property
    def failed(self) -> bool:
        """Whether any stage or the gradient oracle failed."""
        return bool(self.failures or self.grad_failures)

    def report(self) -> str:
        n = max(self.programs, 1)
        c = self.counts
        lines = [f"programs {self.programs}  ok {c['ok']}  mismatches {c['mismatch']}  crashes {c['crash']}  "
                 f"generator rejects {c['reject']}  refused {c['refused']}  "
                 f"int64 wrap-around met {self.wrapped}  wall {self.wall:.1f} s  engine {self.engine}"
                 + (f"  source {self.source.short}" if self.source else ""),
                 "stage        total s   ms/program"]
        for stage, s in sorted(self.times.items(), key=lambda kv: -kv[1]):
            lines.append(f"{stage:<10} {s:9.1f} {1000 * s / n:10.2f}")
        for f in self.failures:
            where = f"  -> {f['file']}" if f.get("file") else ""
            lines.append(f"FAIL {f['label']}: {f['failure']}{where}")
        if self.grad:
            lines.append("gradient oracle, programs that " + ",  ".join(
                f"{what} {self.grad[key]} ({100 * self.grad[key] / n:.1f}%)" for key, what in GRAD_REACHED))
            p = self.grad_points
            lines.append(f"gradient oracle, points {p['points']}  singular {p['singular']}  values compared "
                         f"{p['value']}  partials reverse vs forward {p['modes']}  with finite differences "
                         f"{p['fd']}  singular partials {p['singular-partials']}  "
                         f"kernel points {p['kernel']}")
            kinds = Counter(f["grad"]["stage"] for f in self.grad_failures)
            if kinds:
                lines.append("gradient failures by stage: "
                             + "  ".join(f"{k} {v}" for k, v in kinds.most_common()))
            for f in self.grad_failures:
                where = f"  -> {f['grad_file']}" if f.get("grad_file") else ""
                lines.append(f"GRAD {f['label']}: {f['grad']['failure']}{where}")
        for f in self.rejects[:10]:
            lines.append(f"REJECT {f['label']}: {f['detail']}")
        return "\n".join(lines)

    def to_pandas(self):
        """A ``pandas.DataFrame`` with one row per program, by index: ``index``, ``seed``,
        ``outcome`` (ok, mismatch, crash, reject, refused), ``reason`` (the first failure,
        or why it was rejected or refused), ``wraps``, the gradient oracle's ``grad_outcome``,
        ``grad_failure`` and ``grad_stage`` (None where it did not run), the regression
        files written, ``engine``, ``revision`` and ``source_digest``, and ``time_STAGE``
        for each stage (seconds; NaN where a program did not reach it)."""
        try:
            import pandas as pd
        except ImportError as e:
            raise SonError("Totals.to_pandas needs pandas: pip install pandas") from e
        src = self.source
        rows, stages = [], set()
        for it in sorted(self.items, key=lambda i: i["index"]):
            g = it.get("grad")
            row = {"index": it["index"], "seed": self.seed, "outcome": it["status"],
                   "reason": it["failure"] or it["detail"], "wraps": it["wraps"],
                   "grad_outcome": g["status"] if g else None, "grad_failure": g["failure"] if g else None,
                   "grad_stage": g["stage"] if g else None, "file": it.get("file"),
                   "grad_file": it.get("grad_file"), "engine": self.engine,
                   "revision": src.short if src else None, "source_digest": src.digest if src else None}
            for stage, seconds in it["times"].items():
                row[f"time_{stage}"] = seconds
                stages.add(stage)
            rows.append(row)
        columns = ["index", "seed", "outcome", "reason", "wraps", "grad_outcome", "grad_failure",
                   "grad_stage", "file", "grad_file", "engine", "revision", "source_digest"]
        return pd.DataFrame(rows, columns=columns + [f"time_{s}" for s in sorted(stages)])

    def save_table(self, path: Path | str) -> Path:
        """Write ``to_pandas()`` to ``path``: Parquet (``.parquet``, through pyarrow) or CSV
        (``.csv``), chosen by the extension."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix not in (".parquet", ".csv"):
            raise SonError(f"cannot write a campaign table as {path.name!r}: name a .parquet or a .csv file")
        table = self.to_pandas()
        if suffix == ".parquet":
            table.to_parquet(path, index=False)
        else:
            table.to_csv(path, index=False)
        return path


def check_one(seed: int, index: int, kernel: bool = True, out: Path | None = None,
              shrink_failures: bool = True, timeout: float = 60.0, grad: bool = True,
              before_shrink: Callable[[], None] | None = None) -> dict:
    """Generate and check one program; a plain dict (it crosses process boundaries).
    ``grad``: also the gradient oracle (``son.fuzz.grad``) where every interpreter stage
    agreed with CPython, reported in ``item['grad']`` (status, counts, first failure);
    one program in ``GRAD_KERNEL_EVERY`` compiles its gradient too (when ``kernel``).
    ``before_shrink()`` is called before a failure is shrunk (a worker lifts its watchdog:
    shrinking runs the oracle many times)."""
    from .generator import generate
    from .oracle import check

    p = generate(seed, index, grad=grad)
    r = check(p.source, p.args, kernel=kernel, timeout=timeout)
    item = {"label": p.label, "index": index, "status": r.status, "times": dict(r.times),
            "wraps": r.wraps, "detail": r.detail[:300], "failure": str(r.failures[0]) if r.failures else ""}
    if grad and r.status in ("ok", "refused"):  # 'refused': the kernel only; the interpreter agreed
        from .grad import available

        if available():
            compiled = kernel and index % GRAD_KERNEL_EVERY == 0
            item["grad"] = _grad_one(p.source, p.args, compiled, item["times"], timeout)
    shrinking = shrink_failures and out is not None
    if before_shrink and shrinking and (r.failed or item.get("grad", {}).get("failure")):
        before_shrink()
    if r.failed and shrinking:
        try:
            item["file"] = str(save_failure(p.source, p.args, f"seed={seed} index={index}",
                                            f"fuzz_s{seed}_i{index}", out, kernel))
        except Exception as e:  # noqa: BLE001 - report the failure unshrunk rather than lose it
            item["file"] = f"(not shrunk: {type(e).__name__}: {e})"
    if item.get("grad", {}).get("failure") and shrinking:
        try:
            item["grad_file"] = str(save_failure(p.source, p.args, f"seed={seed} index={index}",
                                                 f"fuzz_s{seed}_i{index}_grad", out, kernel, grad=True,
                                                 compiled=item["grad"]["compiled"]))
        except Exception as e:  # noqa: BLE001
            item["grad_file"] = f"(not shrunk: {type(e).__name__}: {e})"
    return item


def _grad_one(source: str, args: list, compiled: bool, times: dict, timeout: float) -> dict:
    """The gradient oracle on one program, as a plain dict; ``stage`` names the first
    failure's stage ('timeout' when it ran out of time)."""
    from .grad import check_grad
    from .oracle import _deadline, _Timeout

    t0 = time.perf_counter()
    status, counts, failure, stage = "crash", {}, "", ""
    try:
        with _deadline(timeout):
            g = check_grad(source, args, compiled=compiled)
        status, counts = g.status, dict(g.counts)
        if g.failures:
            failure, stage = str(g.failures[0]), g.failures[0].stage
    except _Timeout as e:
        failure, stage = f"crash in timeout (gradient oracle): {e}", "timeout"
    except Exception as e:  # noqa: BLE001 - son.grad failing is a finding, not a campaign crash
        failure, stage = f"crash in grad: {type(e).__name__}: {e}", "grad"
    times["grad-kernel" if compiled else "grad"] = time.perf_counter() - t0
    return {"status": status, "counts": counts, "failure": failure, "stage": stage, "compiled": compiled}


def save_failure(source: str, args: list, origin: str, stem: str, out: Path, kernel: bool = True,
                 grad: bool = False, compiled: bool = False) -> Path:
    """Shrink a failing program and write it to ``out/stem.py``; ``grad``: a failure of the
    gradient oracle (``compiled``: with the gradient kernel)."""
    from .shrinker import regression_text, shrink, write_regression

    small, small_args, failure = shrink(source, args, kernel=kernel, grad=grad, compiled=compiled)
    oracle = ("grad-kernel" if compiled else "grad") if grad else None
    return write_regression(Path(out), stem, regression_text(small, small_args, failure, origin, oracle))


#: programs one worker process checks before a fresh one takes over (bounds its memory)
PROGRAMS_PER_WORKER = 500


def _setup_worker(cache: str) -> None:
    import son
    import son.exec.numba_ext  # noqa: F401 - imports numba now, never under a program's deadline

    son.debug = True
    os.environ["SON_CACHE_DIR"] = tempfile.mkdtemp(prefix="worker-", dir=cache)


#: a worker that gives no answer this many program timeouts after it took a program
#: (shrinking aside) is killed and the program counted as a crash: a compiled kernel that
#: never returns, or a compile that never ends, cannot be interrupted by the deadline's signal
HANG_TIMEOUTS = 4


def _worker(tasks, results, slots, slot: int, seed: int, kernel: bool, out: str | None,
            shrink_failures: bool, timeout: float, grad: bool, cache: str, quota: int,
            source: dict | None, started=None) -> None:
    _setup_worker(cache)
    src = Source.from_dict(source) if source else None
    for _ in range(quota):
        index = tasks.get()
        if index is None:
            return
        slots[slot] = index  # shared memory, written at once: survives a crash of this process
        if started is not None:
            started[slot] = time.time()
        try:
            if src:  # before: what this process imported; after: what it imported while checking
                src.check(f"worker {slot} before program {index}")
            lift = None if started is None else lambda: started.__setitem__(slot, 0.0)
            item = check_one(seed, index, kernel, Path(out) if out else None, shrink_failures, timeout, grad,
                             before_shrink=lift)
            if src:
                src.check(f"worker {slot} after program {index}")
        except SourceChanged as e:
            results.put((-1, str(e)))
            slots[slot] = -1
            return
        results.put((index, item))
        slots[slot] = -1
        if ran_out_of_time(item):
            # the deadline's exception may have left numba half-way through a compile (its
            # locks, caches, a module import): end this worker, the driver starts a new one
            return


def ran_out_of_time(item: dict) -> bool:
    """Whether a program's deadline fired: in the oracle, in the gradient oracle, or in a
    Numba compile, which son reports as a kernel it could not compile ('_Timeout')."""
    g = item.get("grad") or {}
    return (item["failure"].startswith("crash in timeout") or "_Timeout" in item["failure"]
            or g.get("stage") == "timeout" or "_Timeout" in g.get("failure", ""))


def run(n: int, seed: int = 0, jobs: int = 0, start: int = 0, kernel: bool = True,
        out: Path | None = None, shrink_failures: bool = True, timeout: float = 60.0,
        progress: Callable[[dict], None] | None = None, grad: bool = True,
        per_worker: int = PROGRAMS_PER_WORKER, engine: str = "local", scheduler: str | None = None,
        source: Source | None = None) -> Totals:
    """Check programs ``start .. start+n-1`` of ``seed``; ``progress(item)`` after each;
    with ``jobs``, each worker process checks at most ``per_worker`` programs; ``grad``
    (the default): the gradient oracle too, on the generator's gradient-biased mix.

    ``engine``: ``"local"`` (``jobs`` worker processes, or this process if 0) or
    ``"dask"`` (a ``LocalCluster`` of ``jobs`` workers, or the cluster at ``scheduler``).
    ``source``: what the campaign checks son's files against (default: captured now);
    when they change, ``SourceChanged`` is raised, its ``totals`` the programs done."""
    if engine not in ENGINES:
        raise SonError(f"unknown campaign engine {engine!r}: use one of {', '.join(ENGINES)}")
    if scheduler is not None:
        engine = "dask"
    source = source or Source.capture()
    totals = Totals(seed=seed, engine=engine, source=source)
    t0 = time.perf_counter()
    try:
        with tempfile.TemporaryDirectory(prefix="son-fuzz-") as cache:  # kernels: never the user's cache
            _run(totals, n, seed, jobs, start, kernel, out, shrink_failures, timeout, progress, grad,
                 cache, per_worker, engine, scheduler, source)
    except SourceChanged as e:
        totals.wall = time.perf_counter() - t0
        e.totals = totals
        raise
    totals.wall = time.perf_counter() - t0
    return totals


def _run(totals, n, seed, jobs, start, kernel, out, shrink_failures, timeout, progress, grad, cache,
         per_worker, engine, scheduler, source: Source) -> None:
    if engine == "dask":
        from .cluster import run_dask

        run_dask(totals, n, seed, jobs, start, kernel, out, shrink_failures, timeout, progress, grad,
                 cache, per_worker, scheduler, source)
    elif jobs > 0:
        _run_parallel(totals, n, seed, jobs, start, kernel, out, shrink_failures, timeout, progress,
                      grad, cache, per_worker, source)
    else:
        _run_here(totals, n, seed, start, kernel, out, shrink_failures, timeout, progress, grad, cache,
                  source)


def _run_here(totals, n, seed, start, kernel, out, shrink_failures, timeout, progress, grad, cache,
              source: Source) -> None:
    import son

    old = son.debug, os.environ.get("SON_CACHE_DIR")
    son.debug = True
    os.environ["SON_CACHE_DIR"] = cache
    try:
        for i in range(start, start + n):
            source.check(f"the campaign before program {i}")
            item = check_one(seed, i, kernel, out, shrink_failures, timeout, grad)
            source.check(f"the campaign after program {i}")
            totals.add(item)
            if progress:
                progress(item)
    finally:
        son.debug = old[0]
        if old[1] is None:
            del os.environ["SON_CACHE_DIR"]
        else:
            os.environ["SON_CACHE_DIR"] = old[1]


def crash_item(seed: int, index: int, why: str) -> dict:
    """The result of a program whose worker process died while checking it."""
    return {"label": f"seed={seed} index={index}", "index": index, "status": "crash", "times": {},
            "wraps": 0, "detail": "", "failure": why}


def _run_parallel(totals, n, seed, jobs, start, kernel, out, shrink_failures, timeout, progress,
                  grad, cache: str, per_worker: int, source: Source, worker: Callable = _worker) -> None:
    """``jobs`` processes running ``worker`` (``_worker``'s signature) on the programs.  The
    driver polls the results each second and replaces a worker that ended, died or hung."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    tasks, results = ctx.Queue(), ctx.Queue()
    slots = ctx.Array("q", [-1] * jobs, lock=False)
    started = ctx.Array("d", [0.0] * jobs, lock=False)  # when each took its program (0: no watchdog)
    hang = HANG_TIMEOUTS * timeout
    for i in range(start, start + n):
        tasks.put(i)
    workers: list = [None] * jobs
    checked = source.to_dict()

    def spawn(slot: int) -> None:
        w = ctx.Process(target=worker, args=(tasks, results, slots, slot, seed, kernel,
                                               str(out) if out else None, shrink_failures, timeout, grad,
                                               cache, per_worker, checked, started),
                        daemon=True)
        w.start()
        workers[slot] = w

    done = 0

    def record(item: dict) -> None:
        nonlocal done
        totals.add(item)
        done += 1
        if progress:
            progress(item)

    try:
        for slot in range(jobs):
            spawn(slot)
        while done < n:
            try:
                index, item = results.get(timeout=1.0)
                if index < 0:  # a worker found son's files changed
                    raise SourceChanged(item)
                source.check("the driver")
                record(item)
            except queue.Empty:
                source.check("the driver")
            for slot, w in enumerate(workers):  # ended (its quota, a timeout) or died: replace it
                if w.is_alive() and slots[slot] >= 0 and 0.0 < started[slot] < time.time() - hang:
                    w.kill()  # hung where the deadline's signal cannot reach (compiled code, a compile)
                    w.join()
                    record(crash_item(seed, slots[slot], f"no answer {hang:.0f} s after the worker took the "
                                      "program: killed (a kernel that never returns, or a compile that "
                                      "never ends)"))
                    slots[slot] = -1
                if w.is_alive():
                    continue
                index = slots[slot]
                slots[slot] = -1
                if index >= 0:  # it died inside a program: a crash of that program
                    record(crash_item(seed, index, f"worker process died (exit code {w.exitcode})"))
                if done < n:
                    spawn(slot)
    except BaseException:
        for w in workers:  # stopped (changed source, Ctrl-C): no worker goes on checking programs
            if w is not None and w.is_alive():
                w.terminate()
        raise
    for _ in workers:
        tasks.put(None)
    for w in workers:
        w.join(timeout=5)
