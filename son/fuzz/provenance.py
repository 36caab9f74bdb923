"""What source a campaign runs: the git revision and a hash of son's files, checked as it goes.

A campaign's worker processes import son's modules when they start and lazily while
they run, and a replacement worker (after a crash, a timeout or its quota) imports
them again: if someone edits a file of son meanwhile, the later programs run a
different son than the earlier ones, and a half-edited file shows up as a false
failure.  ``Source.capture()`` records, at the start, the revision (``git rev-parse
HEAD``, and whether son's files differ from it) and a SHA-256 of every ``.py`` file
under the package; ``Source.check()`` raises ``SourceChanged`` when the files no
longer hash to it.  The campaign checks in each worker before and after every
program and in the driver as results come, so a result computed on other source is
never counted.

Cost: ``capture`` reads every file (about 100 files, 5 ms); ``check`` stats them
(about 2 ms) and hashes them again only when a size or a modification time differs
from the last files it found good (a touched file that hashes the same is accepted).
"""

from __future__ import annotations

import hashlib
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import SonError

__all__ = ["Source", "SourceChanged", "file_hashes", "file_stamp"]

#: the package whose files are hashed (son/)
PACKAGE = Path(__file__).resolve().parent.parent


class SourceChanged(SonError):
    """son's source files changed while a campaign ran: the campaign stops."""


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def file_stamp(root: Path = PACKAGE) -> tuple:
    """The files' paths, sizes and modification times: cheap, changes with any edit."""
    out = []
    for p in _files(root):
        st = p.stat()
        out.append((str(p.relative_to(root)), st.st_size, st.st_mtime_ns))
    return tuple(out)


def file_hashes(root: Path = PACKAGE) -> dict[str, str]:
    """SHA-256 of each ``.py`` file under ``root``, by path relative to it."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() for p in _files(root)}


def _digest(hashes: dict[str, str]) -> str:
    return hashlib.sha256("".join(f"{k}\0{v}\n" for k, v in sorted(hashes.items())).encode()).hexdigest()


def _git(root: Path, *args: str) -> str:
    try:
        r = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return r.stdout.strip() if r.returncode == 0 else ""


@dataclass
class Source:
    """The source a campaign started on: ``revision`` (empty outside a git checkout),
    ``dirty`` (son's files differ from that revision), ``digest`` (one hash of all of
    son's files) and the hash of each file; ``root`` is the package hashed."""

    revision: str
    dirty: bool
    digest: str
    hashes: dict[str, str]
    root: Path = PACKAGE
    _good: tuple = field(default=(), repr=False, compare=False)

    @classmethod
    def capture(cls, root: Path = PACKAGE) -> Source:
        stamp = file_stamp(root)
        hashes = file_hashes(root)
        revision = _git(root, "rev-parse", "HEAD")
        dirty = bool(revision and _git(root, "status", "--porcelain", "--", "."))
        return cls(revision, dirty, _digest(hashes), hashes, root, stamp)

    @property
    def short(self) -> str:
        """The revision as a campaign's report prints it: 12 digits, ``+`` if dirty."""
        return (self.revision[:12] or "no-git") + ("+" if self.dirty else "")

    def check(self, where: str = "the campaign") -> None:
        """Raise ``SourceChanged`` when son's files (under ``root``, as this process sees
        them) no longer hash to ``digest``; ``where`` says who found it."""
        stamp = file_stamp(self.root)
        if stamp == self._good:
            return
        hashes = file_hashes(self.root)
        if _digest(hashes) != self.digest:
            changed = sorted(k for k in hashes.keys() | self.hashes.keys()
                             if hashes.get(k) != self.hashes.get(k))
            shown = ", ".join(f"son/{k}" for k in changed[:5]) + (" ..." if len(changed) > 5 else "")
            raise SourceChanged(
                f"son's source changed while the campaign ran ({shown}; found by {where}): later "
                f"programs would run other code than the earlier ones (started on {self.short}), so "
                "the campaign stopped. Run campaigns from a checkout nobody edits, e.g. "
                "`git worktree add ../son-campaign HEAD --detach` and PYTHONPATH=../son-campaign")
        self._good = stamp

    def to_dict(self) -> dict:
        """What crosses to a worker process (which checks its own copy of the files)."""
        return {"revision": self.revision, "dirty": self.dirty, "digest": self.digest, "hashes": self.hashes}

    @classmethod
    def from_dict(cls, d: dict, root: Path = PACKAGE) -> Source:
        return cls(d["revision"], d["dirty"], d["digest"], dict(d["hashes"]), root)
