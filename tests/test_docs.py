"""The documents' code runs as written: README.md and docs/extending.md, block by block.

Each fenced block of a checked document is preceded by a marker comment saying what
it is (a test fails on an unmarked block):

- ``<!-- doc-test: run -->`` a Python block is written to a file (named by a first line
  ``# NAME.py``, else ``snippet_LINE.py``) and run as ``python FILE``; a shell block runs
  line by line under ``bash``; each must exit 0.  A trailing comment on a ``print(...)``
  or on a bare expression that starts like a value (``# 1``, ``# [1. 3.]``,
  ``# (24.375, ...)``; words after ``: `` are a note) is that line's expected output.
  ``run, slow`` blocks run only under ``-m slow``.
- ``<!-- doc-test: file -->`` a Python block is only written (a module or a test file that
  a later block imports or runs).
- ``<!-- doc-test: output -->`` is the whole stdout of the run block before it;
  ``output, excerpt`` lines that appear in it consecutively; ``times vary`` masks
  decimal numbers on both sides.
- ``<!-- doc-test: skip: REASON -->`` is not run (the reason says why).

One document runs in one temporary folder (blocks in order, so a later block can
import an earlier file) that holds links to the repository's top-level entries, so
commands such as ``son ir docs/examples.py:twins`` find their files and what they
write stays out of the repository.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ["README.md", "docs/extending.md"]

_BLOCK = re.compile(r"(?:<!-- doc-test: (?P<marker>[^>]*?) -->\n)?```(?P<lang>\w*)\n(?P<body>.*?)```",
                    re.S)
_VALUE_START = re.compile(r"[-\d(\['\"]|True\b|False\b|None\b")


@dataclass
class Block:
    line: int
    lang: str
    body: str
    marker: str | None

    @property
    def kind(self) -> str | None:
        return None if self.marker is None else re.split(r"[,:]", self.marker)[0].strip()

    def has(self, word: str) -> bool:
        return self.marker is not None and word in self.marker


def blocks(doc: str) -> list[Block]:
    text = (ROOT / doc).read_text()
    return [Block(text[:m.start("lang")].count("\n") + 1, m["lang"], m["body"], m["marker"])
            for m in _BLOCK.finditer(text)]


def _expected_inline(body: str) -> tuple[str, list[str]]:
    """``body`` with each bare expression carrying an expected value printed as its repr,
    and the expected output lines, in order."""
    lines = body.splitlines()
    expected = []
    for stmt in ast.parse(body).body:
        if not isinstance(stmt, ast.Expr) or stmt.lineno != stmt.end_lineno:
            continue
        line = lines[stmt.lineno - 1]
        code = line[:stmt.end_col_offset]
        comment = line[stmt.end_col_offset:].strip()
        if not comment.startswith("#"):
            continue
        value = comment[1:].strip()
        if not _VALUE_START.match(value):
            continue
        call = stmt.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "print":
            expected.append(value)
        else:
            expected.append(value.split(": ")[0])
            lines[stmt.lineno - 1] = f"print(repr({code.strip()}))"
    return "\n".join(lines) + "\n", expected


def _mask(text: str, times_vary: bool) -> str:
    """``text`` with decimal numbers (times) masked, and the widths of a table's columns
    with them, if ``times_vary``."""
    if not times_vary:
        return text
    return re.sub(r" +", " ", re.sub(r"-{2,}", "--", re.sub(r"\d+\.\d+", "T", text)))


def _folder(tmp_path: Path) -> Path:
    """A folder that sees the repository's files (docs/ copied: commands write there)."""
    for entry in ROOT.iterdir():
        if entry.name in (".git", "docs"):
            continue
        (tmp_path / entry.name).symlink_to(entry)
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    return tmp_path


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
    env.setdefault("MPLBACKEND", "Agg")
    return env


def _run(cmd: list[str], cwd: Path, where: str) -> str:
    r = subprocess.run(cmd, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, f"{where}: {' '.join(cmd)} exited {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r.stdout


def run_document(doc: str, tmp_path: Path, slow: bool) -> int:
    """Run ``doc``'s blocks; the number of blocks run."""
    folder = _folder(tmp_path)
    stdout = None
    ran = 0
    for b in blocks(doc):
        where = f"{doc}:{b.line}"
        if b.kind == "output":
            assert stdout is not None, f"{where}: an output block follows no run block"
            got, want = _mask(stdout, b.has("times vary")), _mask(b.body, b.has("times vary"))
            if b.has("excerpt"):
                assert want in got, f"{where}: not in the output:\n{b.body}\n--- the output:\n{stdout}"
            else:
                assert got == want, f"{where}: the output differs:\n--- README:\n{b.body}\n--- now:\n{stdout}"
            continue
        stdout = None
        if b.kind not in ("run", "file") or (b.has("slow") and not slow):
            continue
        ran += 1
        if b.lang == "python":
            first = b.body.splitlines()[0]
            name = first[2:].strip() if re.fullmatch(r"# \w+\.py", first) else f"snippet_{b.line}.py"
            source, expected = _expected_inline(b.body)
            (folder / name).write_text(source)
            if b.kind == "file":
                continue
            stdout = _run([sys.executable, name], folder, where)
            lines = iter(stdout.splitlines())
            for value in expected:
                assert any(line == value for line in lines), f"{where}: no output line {value!r}:\n{stdout}"
        else:
            stdout = ""
            for line in b.body.splitlines():
                if line.strip():
                    stdout += _run(["bash", "-c", line], folder, where)
    return ran


@pytest.mark.parametrize("doc", DOCS)
def test_every_code_block_is_marked(doc):
    unmarked = [b.line for b in blocks(doc) if b.kind not in ("run", "file", "output", "skip")]
    assert not unmarked, f"{doc}: blocks at lines {unmarked} have no <!-- doc-test: ... --> marker"
    for b in blocks(doc):
        if b.kind == "skip":
            assert b.marker.partition(":")[2].strip(), f"{doc}:{b.line}: a skip says why"


@pytest.mark.parametrize("doc", DOCS)
def test_document_code_runs_as_written(doc, tmp_path):
    assert run_document(doc, tmp_path, slow=False) > 0


@pytest.mark.slow
@pytest.mark.parametrize("doc", DOCS)
def test_document_code_runs_as_written_slow_blocks_too(doc, tmp_path):
    run_document(doc, tmp_path, slow=True)


def test_the_readme_links_the_extending_guide():
    assert "(docs/extending.md)" in (ROOT / "README.md").read_text()


def test_files_named_by_readme_commands_exist():
    """Inline commands (``python benchmarks/kernels.py``) name files that exist (or that a
    block of the README writes: ``# example.py``)."""
    text = (ROOT / "README.md").read_text()
    written = {b.body.splitlines()[0][2:].strip() for b in blocks("README.md")
               if b.lang == "python" and re.fullmatch(r"# \w+\.py", b.body.splitlines()[0])}
    missing = []
    for code in re.findall(r"`([^`\n]+)`", text):
        if re.match(r"(python|son|bash) ", code):
            for token in re.findall(r"[\w./-]+\.(?:py|sh|ipynb)", code):
                if not (ROOT / token).exists() and token not in written:
                    missing.append((code, token))
    assert not missing


def test_the_notebook_extra_installs_a_jupyter_front_end():
    """The README says ``jupyter lab notebooks/``: the notebooks extra must bring it."""
    from configparser import ConfigParser

    cfg = ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    extra = cfg["options.extras_require"]["notebooks"].split()
    assert any(r.startswith("jupyterlab") for r in extra), extra
    assert "jupyter lab notebooks/" in (ROOT / "README.md").read_text()
    assert shutil.which("jupyter-lab"), "jupyterlab is not installed (pip install -e '.[notebooks]')"
