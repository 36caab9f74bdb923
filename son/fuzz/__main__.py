"""``python -m son.fuzz --n 100000 --seed S --jobs J``: a differential fuzzing campaign.

Prints a progress bar, then the number of programs, mismatches, crashes,
generator rejects, refusals (kernels son.compile declined, run-time
NotImplementedError), programs that met int64 wrap-around, the seconds spent
in each stage, how many programs reached each comparison of the gradient oracle
(reverse vs forward mode, finite differences, singular points, the gradient
kernel, refusals), and one line per failure with the regression
case its shrunk program was written to (``--out``).  Exit status 1 when
anything failed.  The gradient oracle is on by default (``--no-grad`` switches
it off and generates the primal-only program mix; ``--grad`` is accepted for old
command lines).  ``--show I`` prints program I of the seed and its arguments.

``--engine dask`` runs the programs on a Dask ``LocalCluster`` of ``--workers`` (the
same as ``--jobs``) workers, ``--scheduler ADDRESS`` on a running Dask cluster; the
outcome of each program is the one a local run gives.  ``--table PATH`` writes one row
per program as Parquet (``.parquet``) or CSV (``.csv``).  The campaign stops (exit
status 2) if son's source files change while it runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m son.fuzz", description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000, help="number of programs (default 1000)")
    ap.add_argument("--seed", type=int, default=0, help="campaign seed (default 0)")
    ap.add_argument("--start", type=int, default=0, help="first program index (default 0)")
    ap.add_argument("--jobs", "--workers", dest="jobs", type=int, default=1,
                    help="worker processes (local: 0 runs in this process) or Dask workers")
    ap.add_argument("--engine", choices=("local", "dask"), default="local",
                    help="local worker processes (the default) or a Dask cluster")
    ap.add_argument("--scheduler", metavar="ADDRESS",
                    help="a running Dask scheduler (tcp://host:8786): implies --engine dask")
    ap.add_argument("--table", type=Path, metavar="PATH",
                    help="write one row per program to PATH (.parquet or .csv)")
    ap.add_argument("--no-kernel", action="store_true", help="skip the Numba kernel stage")
    ap.add_argument("--no-shrink", action="store_true", help="report failures without shrinking them")
    ap.add_argument("--no-grad", dest="grad", action="store_false",
                    help="skip the gradient oracle (son.grad vs son.jvp vs finite differences) and "
                         "generate the primal-only program mix")
    ap.add_argument("--grad", dest="grad", action="store_true",
                    help="the gradient oracle (the default; kept for old command lines)")
    ap.set_defaults(grad=True)
    ap.add_argument("--out", type=Path, default=Path("fuzz-failures"),
                    help="directory for shrunk failing programs (default ./fuzz-failures)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per program (default 60)")
    ap.add_argument("--show", type=int, metavar="I", help="print program I of the seed and exit")
    a = ap.parse_args(argv)

    if a.show is not None:
        from .generator import generate
        from .shrinker import args_literal

        p = generate(a.seed, a.show, grad=a.grad)
        print(p.source)
        print(f"ARGS = {args_literal(p.args)}")
        return 0

    from tqdm import tqdm

    from ..errors import SonError
    from .campaign import run
    from .provenance import SourceChanged

    if a.table is not None and a.table.suffix.lower() not in (".parquet", ".csv"):
        ap.error(f"--table {a.table}: name a .parquet or a .csv file")

    bad = 0
    with tqdm(total=a.n, unit="prog", smoothing=0.05, file=sys.stderr) as bar:
        def progress(item: dict) -> None:
            nonlocal bad
            bar.update(1)
            if item["status"] in ("mismatch", "crash"):
                bad += 1
                bar.write(f"FAIL {item['label']}: {item['failure']}")
                bar.set_postfix(failures=bad)
            if item.get("grad", {}).get("failure"):
                bad += 1
                bar.write(f"GRAD {item['label']}: {item['grad']['failure']}")
                bar.set_postfix(failures=bad)

        try:
            totals = run(a.n, a.seed, a.jobs, a.start, kernel=not a.no_kernel,
                         out=None if a.no_shrink else a.out, shrink_failures=not a.no_shrink,
                         timeout=a.timeout, progress=progress, grad=a.grad, engine=a.engine,
                         scheduler=a.scheduler)
            stopped = None
        except SourceChanged as e:
            totals, stopped = e.totals, e
        except (OSError, SonError) as e:  # a Dask scheduler that cannot be reached
            print(f"error: {e}", file=sys.stderr)
            return 2
    engine = (f" --scheduler {a.scheduler}" if a.scheduler
              else " --engine dask" if a.engine == "dask" else "")
    print(f"python -m son.fuzz --n {a.n} --seed {a.seed} --start {a.start} --jobs {a.jobs}" + engine
          + (" --no-kernel" if a.no_kernel else "") + ("" if a.grad else " --no-grad"))
    print(totals.report())
    if a.table is not None:
        print(f"table: {totals.save_table(a.table)} ({totals.programs} rows)")
    if stopped is not None:
        print(f"error: {stopped}", file=sys.stderr)
        return 2
    return 1 if totals.failed else 0


if __name__ == "__main__":
    sys.exit(main())
