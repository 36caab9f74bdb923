"""Campaigns on a Dask cluster: ``run(..., engine="dask")``, ``python -m son.fuzz --engine dask``.

The driver submits one Dask task per program index (``check_program``) to a
``distributed.LocalCluster`` of ``jobs`` single-threaded workers that it starts, or
to the running cluster at ``scheduler``, and counts the results as they complete.
A Dask worker does not check the program itself: it hands the index to a *sandbox*,
a child process it keeps (``serve``, one per worker thread), because the oracle's
deadline is a ``SIGALRM`` that only a process's main thread can take, and a kernel
that crashes must take down a sandbox, not the Dask worker.  A sandbox is set up as
a local campaign's worker process (the verifier on, kernels into a temporary
``SON_CACHE_DIR``) and, as one, is replaced after a program that ran out of time and
after ``per_worker`` programs; one that dies inside a program makes that program a
crash.  So each program gets the outcome a local run gives it: the same
``check_one`` on the same seed and index, in the same kind of process.

Each sandbox checks son's files against the campaign's ``Source`` before and after
every program, and the driver as each result comes; a change stops the campaign
(``SourceChanged``).  A remote cluster's workers must import the same son (their
own checkout at the same revision: the digest is compared, not the path), and
regression files (``out``) are written on the worker's machine.

Cost: a Dask task per program (about a millisecond of scheduling) and a JSON line
each way to the sandbox, against the tens of milliseconds to seconds a program
takes; a sandbox pays one import of son (and Numba) when it starts.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import uuid
from pathlib import Path

from .provenance import PACKAGE, Source, SourceChanged

__all__ = ["check_program", "close_sandboxes", "run_dask", "serve"]


# ------------------------------------------------------------------ the sandbox process
def serve() -> None:
    """A sandbox's main loop: one JSON request per line on stdin, one JSON answer per line
    on the original stdout (the programs' own output goes to stderr); ends at EOF."""
    from .campaign import _setup_worker, check_one

    answers = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    src = None
    try:
        for line in sys.stdin:
            req = json.loads(line)
            if src is None:
                cache = req["cache"] if os.path.isdir(req["cache"]) else None
                _setup_worker(cache or _tempdir())
                src = Source.from_dict(req["source"])
            index = req["index"]
            try:
                src.check(f"a Dask worker's sandbox before program {index}")
                item = check_one(req["seed"], index, req["kernel"], Path(req["out"]) if req["out"] else None,
                                 req["shrink"], req["timeout"], req["grad"])
                src.check(f"a Dask worker's sandbox after program {index}")
                answers.write(json.dumps({"item": item}) + "\n")
            except SourceChanged as e:
                answers.write(json.dumps({"source_changed": str(e)}) + "\n")
    finally:
        if src is not None:
            shutil.rmtree(os.environ["SON_CACHE_DIR"], ignore_errors=True)


def _tempdir() -> str:
    import tempfile

    return tempfile.gettempdir()


class Sandbox:
    """A Dask worker thread's child process running ``serve``; replaced as a local
    campaign replaces its worker processes."""

    def __init__(self):
        self.proc: subprocess.Popen | None = None
        self.programs = 0

    def start(self) -> None:
        env = dict(os.environ)  # the child imports the son this worker imported
        env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE.parent)] + [p for p in [env.get("PYTHONPATH")] if p])
        self.proc = subprocess.Popen([sys.executable, "-c", "from son.fuzz.cluster import serve; serve()"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True)
        self.programs = 0

    def close(self) -> None:
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        try:
            proc.stdin.close()
            proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()

    def check(self, req: dict) -> dict:
        """``req``'s program checked in the sandbox: ``{"item": ...}`` or ``{"source_changed": ...}``."""
        from .campaign import crash_item, ran_out_of_time

        if self.proc is None or self.proc.poll() is not None:
            self.start()
        try:
            self.proc.stdin.write(json.dumps(req) + "\n")
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except OSError:
            line = ""
        if not line:  # it died inside the program: a crash of that program
            code = self.proc.wait()
            self.proc = None
            return {"item": crash_item(req["seed"], req["index"], f"worker process died (exit code {code})")}
        answer = json.loads(line)
        self.programs += 1
        item = answer.get("item")
        if item is not None and (self.programs >= req["per_worker"] or ran_out_of_time(item)):
            self.close()  # its quota, or a deadline that may have interrupted Numba: a fresh one
        return answer


_SANDBOXES: dict[int, Sandbox] = {}
_LOCK = threading.Lock()


def check_program(req: dict) -> dict:
    """The Dask task: program ``req["index"]`` checked in this worker thread's sandbox."""
    with _LOCK:
        box = _SANDBOXES.setdefault(threading.get_ident(), Sandbox())
    return box.check(req)


def close_sandboxes() -> int:
    """End this Dask worker's sandboxes (at the end of a campaign); how many there were."""
    with _LOCK:
        boxes = list(_SANDBOXES.values())
        _SANDBOXES.clear()
    for box in boxes:
        box.close()
    return len(boxes)


# ------------------------------------------------------------------ the driver
def run_dask(totals, n, seed, jobs, start, kernel, out, shrink_failures, timeout, progress, grad,
             cache: str, per_worker: int, scheduler: str | None, source: Source) -> None:
    """Check programs ``start .. start+n-1`` on Dask, adding each result to ``totals``."""
    from contextlib import ExitStack

    from distributed import Client, LocalCluster, as_completed
    from distributed.scheduler import KilledWorker

    from .campaign import crash_item

    with ExitStack() as stack:
        if scheduler is None:
            cluster = stack.enter_context(LocalCluster(n_workers=max(jobs, 1), threads_per_worker=1,
                                                       dashboard_address=None))
            client = stack.enter_context(Client(cluster))
        else:
            client = stack.enter_context(Client(scheduler))
        base = {"seed": seed, "kernel": kernel, "out": str(out) if out else None, "shrink": shrink_failures,
                "timeout": timeout, "grad": grad, "cache": cache, "per_worker": per_worker,
                "source": source.to_dict()}
        run_id = uuid.uuid4().hex[:8]
        futures = {client.submit(check_program, {**base, "index": i}, key=f"son-fuzz-{run_id}-{i}",
                                 pure=False): i for i in range(start, start + n)}
        try:
            for fut in as_completed(futures):
                try:
                    answer = fut.result()
                except KilledWorker as e:  # the Dask worker itself died, more than once, on it
                    answer = {"item": crash_item(seed, futures[fut], f"Dask worker died: {e}")}
                if "source_changed" in answer:
                    raise SourceChanged(answer["source_changed"])
                source.check("the driver")
                totals.add(answer["item"])
                if progress:
                    progress(answer["item"])
        finally:
            client.cancel(list(futures))
            try:
                client.run(close_sandboxes)
            except Exception:  # noqa: BLE001 - a worker already gone has no sandbox left to close
                pass
