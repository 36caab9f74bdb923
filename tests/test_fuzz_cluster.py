"""Campaigns beyond one process: on Dask, checked against changing source, as tables.

A Dask campaign (``engine="dask"``) on a small ``LocalCluster`` gives every program
the outcome the local runner gives it; a campaign stops with ``SourceChanged`` when
son's files change under it, whether the driver or a worker notices; the results
are a ``pandas.DataFrame`` written as Parquet or CSV.
"""

from __future__ import annotations

import json
import re
import shutil

import pandas as pd
import pytest

from son.errors import SonError
from son.fuzz.__main__ import main
from son.fuzz.campaign import run
from son.fuzz.cluster import Sandbox
from son.fuzz.provenance import PACKAGE, Source, SourceChanged, _digest

distributed = pytest.importorskip("distributed")


def _same_in_any_process(text: str) -> str:
    """``text`` without what names a process's own things: its count of parsed sources
    (``<son-source-12>``) and its kernel cache's temporary files."""
    text = re.sub(r"<son-source-\d+>", "<son-source>", text)
    return re.sub(r"/tmp/son-fuzz-\w+/worker-\w+/\w+\.py", "KERNEL.py", text)


def outcomes(totals) -> dict:
    """Each program's outcome, timings left out."""
    out = {}
    for it in totals.items:
        g = it.get("grad")
        out[it["index"]] = (it["status"], _same_in_any_process(it["failure"]),
                            _same_in_any_process(it["detail"]), it["wraps"],
                            (g["status"], _same_in_any_process(g["failure"]), g["counts"]) if g else None)
    return out


@pytest.fixture(scope="module")
def cluster():
    """Two single-threaded Dask workers in this process (their sandboxes are processes)."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as c:
        yield c


def test_a_dask_campaign_gives_every_program_its_local_outcome(cluster):
    local = run(6, seed=777, start=3, jobs=0, kernel=False, out=None)
    dask = run(6, seed=777, start=3, kernel=False, out=None, scheduler=cluster.scheduler_address)
    assert dask.engine == "dask" and sorted(dask.indices) == list(range(3, 9)), dask.report()
    assert outcomes(dask) == outcomes(local)
    assert dask.grad["checked"] == local.grad["checked"] >= 4  # the gradient oracle ran there too
    assert "engine dask" in dask.report() and dask.source.digest == local.source.digest


def test_the_command_line_runs_a_local_dask_cluster_and_writes_the_table(tmp_path, capsys):
    """``--engine dask --workers 2``: a LocalCluster of worker processes, started and closed."""
    table = tmp_path / "c.csv"
    assert main(["--n", "4", "--seed", "3", "--engine", "dask", "--workers", "2", "--no-kernel",
                 "--no-grad", "--table", str(table)]) == 0
    assert "engine dask" in capsys.readouterr().out
    df = pd.read_csv(table)
    local = run(4, seed=3, jobs=0, kernel=False, out=None, grad=False)
    assert list(df["index"]) == [0, 1, 2, 3] and set(df["engine"]) == {"dask"}
    assert list(df["outcome"]) == [local.items[i]["status"] for i in range(4)]


def test_a_sandbox_that_dies_inside_a_program_makes_it_a_crash():
    box = Sandbox()
    req = {"seed": 3, "index": 5, "kernel": False, "out": None, "shrink": False, "timeout": "soon",
           "grad": False, "cache": "/nonexistent", "per_worker": 10, "source": Source.capture().to_dict()}
    answer = box.check(req)  # the oracle's deadline fails on "soon": the child process ends with a traceback
    assert answer["item"]["status"] == "crash" and answer["item"]["index"] == 5
    assert answer["item"]["failure"] == "worker process died (exit code 1)"
    assert box.proc is None


def test_source_check_accepts_a_touched_file_and_names_an_edited_one(tmp_path):
    tree = tmp_path / "son"
    shutil.copytree(PACKAGE, tree, ignore=shutil.ignore_patterns("__pycache__"))
    src = Source.capture(tree)
    assert src.hashes.keys() == Source.capture().hashes.keys()
    src.check()
    node = tree / "nodes" / "node.py"
    node.write_text(node.read_text())  # a new modification time, the same bytes
    src.check()
    node.write_text(node.read_text() + "\n# edited\n")
    with pytest.raises(SourceChanged, match=r"son/nodes/node\.py; found by me\b.*worktree"):
        src.check("me")


def _edit_after_first(tree):
    calls = []

    def progress(item):
        if not calls:
            (tree / "fuzz" / "oracle.py").write_text("# half-edited\n")
        calls.append(item)
    return progress


@pytest.mark.parametrize("jobs", [0, 2])
def test_a_campaign_stops_when_son_changes_under_it(tmp_path, jobs):
    """The driver notices: the source it checks (a copy of son/) is edited after the
    first program; the campaign raises, with the programs done before."""
    tree = tmp_path / "son"
    shutil.copytree(PACKAGE, tree, ignore=shutil.ignore_patterns("__pycache__"))
    with pytest.raises(SourceChanged, match=r"son/fuzz/oracle\.py") as e:
        run(12, seed=3, jobs=jobs, kernel=False, out=None, grad=False, source=Source.capture(tree),
            progress=_edit_after_first(tree))
    assert 1 <= e.value.totals.programs < 12


def _stale_source() -> Source:
    """The source a campaign started on, if node.py had been edited since: this process
    has seen the files as they are (its cheap check passes), a worker hashes them."""
    src = Source.capture()
    src.hashes["nodes/node.py"] = "0" * 64
    src.digest = _digest(src.hashes)
    src.check("the driver")
    return src


def test_local_workers_refuse_files_that_differ_from_the_campaigns():
    with pytest.raises(SourceChanged, match=r"son/nodes/node\.py; found by worker \d before program"):
        run(4, seed=3, jobs=2, kernel=False, out=None, grad=False, source=_stale_source())


def test_dask_workers_refuse_files_that_differ_from_the_campaigns(cluster):
    with pytest.raises(SourceChanged, match=r"node\.py; found by a Dask worker's sandbox before program"):
        run(4, seed=3, kernel=False, out=None, grad=False, source=_stale_source(),
            scheduler=cluster.scheduler_address)


def test_the_campaign_table_has_one_row_per_program_in_both_formats(tmp_path):
    t = run(5, seed=777, jobs=0, kernel=False, out=None)
    df = t.to_pandas()
    assert list(df["index"]) == list(range(5)) and set(df["seed"]) == {777}
    assert list(df["outcome"]) == [it["status"] for it in sorted(t.items, key=lambda i: i["index"])]
    ran = df["grad_outcome"].notna()
    assert ran.sum() == t.grad["checked"] >= 3
    assert set(df["revision"]) == {t.source.short} and set(df["source_digest"]) == {t.source.digest}
    assert (df["time_raw"] > 0).all() and "time_grad" in df
    for name in ("t.parquet", "t.csv"):
        back = pd.read_parquet(t.save_table(tmp_path / name)) if name.endswith("parquet") \
            else pd.read_csv(t.save_table(tmp_path / name))
        assert list(back["index"]) == list(df["index"]) and list(back["outcome"]) == list(df["outcome"])
        assert back["time_raw"].tolist() == pytest.approx(df["time_raw"].tolist())
    with pytest.raises(SonError, match=r"\.parquet or a \.csv"):
        t.save_table(tmp_path / "t.xlsx")
    json.dumps(t.items)  # plain values: what a sandbox sends back as JSON


def test_a_deadline_that_fired_inside_a_numba_compile_ends_the_worker():
    """Seen in a loaded 2,000-program campaign (seed 44125, programs 80 and 647): the
    deadline interrupted Numba, and son reported a kernel it could not compile; the worker
    (or sandbox) must be replaced as after any timeout, not go on with Numba half-way."""
    from son.fuzz.campaign import ran_out_of_time

    compile_ = ("crash in kernel: SonError: numba could not compile the kernel son generated for f: "
                "_Timeout: no result after 60.0 s. This is a bug in son's code generator")
    ok = {"failure": "", "grad": {"stage": "", "failure": ""}}
    assert not ran_out_of_time(ok) and not ran_out_of_time({"failure": "mismatch in raw"})
    assert ran_out_of_time({"failure": compile_})
    assert ran_out_of_time({"failure": "", "grad": {"stage": "kernel", "failure": compile_}})
    assert ran_out_of_time({"failure": "crash in timeout: no result after 60.0 s"})
    assert ran_out_of_time({"failure": "", "grad": {"stage": "timeout", "failure": "crash in timeout"}})
