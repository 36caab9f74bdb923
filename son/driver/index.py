"""The kernels' disk index: a second process calling a ``son.jit`` function skips the
parse, the passes, the schedule and codegen when the kernel is on disk.

``index_key`` hashes what a kernel depends on besides the function's outside reads
(son's files, versions, the function's source file, argument types, the pipeline
with its semantics); its record lists those reads (``FunctionParser.note``: every
global, closure cell, builtin and module attribute the parse resolved, in the
root function and in each inlined callee, with a fingerprint of the value, an
inlined function's being its source file text and defaults).  A record is used
only if every read resolves to the same fingerprint now; anything else (or
anything that cannot be fingerprinted) takes the full path.

Costs: a key is O(1) after the first (a stat of son's files once per process);
storing and loading are O(reads) plus the kernel file and Numba's cache load.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .. import config
from ..exec.kernel import NJIT_OPTIONS, Kernel, cache_dir, load_kernel
from ..frontend.parser import MISSING
from ..frontend.signature import type_of_value
from ..frontend.source import closure_of, lookup
from .pipeline import Pipeline

__all__ = ["index_key", "index_load", "index_store"]

_MISSING_FP = "missing"
_STAMP: list[str] = []


def _son_stamp() -> str:
    """A hash of son's source files (path, size, mtime, as Numba's cache stamps its
    sources), the versions of Python, NumPy, Numba and son, and the njit options.
    Computed once per process: O(son's files) stat calls."""
    if not _STAMP:
        import numba

        root = Path(__file__).parents[1]  # son/
        h = hashlib.sha256(repr((sys.version, np.__version__, numba.__version__, config.__version__,
                                 NJIT_OPTIONS, 1)).encode())
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for f in sorted(filenames):
                if f.endswith(".py"):
                    st = os.stat(os.path.join(dirpath, f))
                    h.update(f"{dirpath}/{f}:{st.st_size}:{st.st_mtime_ns}\n".encode())
        _STAMP.append(h.hexdigest())
    return _STAMP[0]


def _function_fp(fn) -> str | None:
    """A Python function's fingerprint: file, first line, name, the whole text of its file
    (as ``inspect`` reads it) and its defaults; None if it has none.  O(file size)."""
    import linecache

    code = fn.__code__
    linecache.checkcache(code.co_filename)
    lines = linecache.getlines(code.co_filename, fn.__globals__)
    defaults = [_fingerprint(d) for d in fn.__defaults__ or ()]
    if not lines or None in defaults or fn.__kwdefaults__:
        return None
    h = hashlib.sha256(repr((code.co_filename, code.co_firstlineno, fn.__qualname__, code.co_freevars,
                             defaults)).encode())
    h.update("".join(lines).encode("utf-8", "surrogatepass"))
    return "function:" + h.hexdigest()


def _fingerprint(v) -> str | None:
    """A string equal in two processes only for values the parse treats alike: numbers by
    type and exact value, modules by name, functions by source, other objects (builtins,
    numpy functions and types) by the name they are found under; None: not fingerprintable."""
    import types as pytypes

    t = type(v)
    if v is MISSING:
        return _MISSING_FP
    if v is None or t in (bool, int, str):
        return f"{t.__name__}:{v!r}"
    if t is float:
        return f"float:{v.hex()}"
    if isinstance(v, np.generic):
        x = v.item()
        return f"np.{t.__name__}:{x.hex() if type(x) is float else repr(x)}"
    if t is pytypes.ModuleType:
        return f"module:{v.__name__}" if sys.modules.get(v.__name__) is v else None
    if t is pytypes.FunctionType:
        return _function_fp(v)
    mod = getattr(v, "__module__", None)
    qual = getattr(v, "__qualname__", None) or getattr(v, "__name__", None)
    if not isinstance(mod, str) or not isinstance(qual, str):
        return None
    found = sys.modules.get(mod)
    for part in qual.split("."):
        found = getattr(found, part, None)
    return f"named:{mod}:{qual}" if found is v else None


def _resolve(fn, dotted: str):
    """What dotted name ``dotted`` denotes in function ``fn`` (as the parser resolves it),
    or the parser's MISSING."""
    first, *rest = dotted.split(".")
    try:
        v = lookup(closure_of(fn), fn.__globals__, first)
        for a in rest:
            v = getattr(v, a)
    except (KeyError, AttributeError):
        return MISSING
    return v


def index_key(fn, key: tuple, pipeline: Pipeline) -> str | None:
    """The index key of one specialization (``key``: the argument types), or None where
    the index is not used (son.debug on, passes or rules that are not son's own,
    annotations, no source file)."""
    if config.debug or getattr(fn, "__annotations__", None):
        return None
    code = getattr(fn, "__code__", None)
    if code is None or not pipeline.is_son_own():
        return None
    material = repr((_son_stamp(), fn.__module__, fn.__qualname__, code.co_filename, code.co_firstlineno,
                     key, pipeline.key()))
    return hashlib.sha256(material.encode()).hexdigest()[:32]


def _index_file(ikey: str) -> Path:
    return cache_dir() / "index" / f"{ikey}.json"


def index_store(ikey: str, fn, deps: list, k: Kernel) -> None:
    """Record kernel ``k`` under ``ikey`` with the fingerprints of the parse's reads
    (nothing if one cannot be fingerprinted).  O(reads)."""
    import json

    record: dict[tuple, str] = {}
    root = _function_fp(fn)
    if root is None:
        return
    for path, name, value in deps:
        if (path, name) not in record:
            fp = _fingerprint(value)
            if fp is None:
                return
            record[(path, name)] = fp
    data = {"module": k.path.name, "name": k.dispatcher.__name__, "root": root,
            "deps": [[list(p), n, fp] for (p, n), fp in record.items()],
            "params": [n for n, _ in k.params], "nodes": k.stats["nodes"], "blocks": k.stats["blocks"],
            "replayable": k.stats.get("replayable", False)}
    f = _index_file(ikey)
    try:
        f.parent.mkdir(exist_ok=True)
        tmp = f.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, f)
    except OSError:
        pass  # the index is an optimization: a read-only cache still works without it


def index_load(ikey: str, fn, args: tuple, rebuild: Callable) -> Kernel | None:
    """The kernel the index records under ``ikey`` if every read it lists still resolves
    to the same fingerprint, else None; ``rebuild(params) -> (graph, schedule)`` makes
    its graph when asked.  O(reads + kernel file) plus Numba's cache load."""
    import json

    try:
        data = json.loads(_index_file(ikey).read_text())
    except (OSError, ValueError):
        return None
    if _function_fp(fn) != data["root"]:
        return None
    owners: dict[tuple, Any] = {(): fn}
    for p, name, fp in data["deps"]:
        p = tuple(p)
        owner = owners.get(p)
        if owner is None:  # an inlined callee: resolved from its caller, step by step
            owner = fn
            for i, step in enumerate(p):
                owner = owners.get(p[:i + 1]) or _resolve(owner, step)
                if type(owner) is not type(fn):
                    return None
                owners[p[:i + 1]] = owner
        if _fingerprint(_resolve(owner, name)) != fp:
            return None
    if len(data["params"]) != len(args):
        return None
    params = [(n, type_of_value(a, n)) for n, a in zip(data["params"], args)]
    stats = {"nodes": data["nodes"], "blocks": data["blocks"], "index": True,
             "replayable": data.get("replayable", False)}
    return load_kernel(cache_dir() / data["module"], data["name"], fn.__name__, params, stats, rebuild)
