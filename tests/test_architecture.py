"""The layering of son's packages (docs/architecture.md), checked on the source.

Every module under ``son/`` is parsed with ``ast`` (nothing is imported), and
each import -- at module level or inside a function, ``import_module("son.x")``
included -- becomes an edge between *units*: a subpackage (``nodes``,
``exec``, ``driver``, ...) or a top-level module (``examples``, ``config``, ...), with
``son`` for the root package.  The tests fail on

* an edge that ``MAY_IMPORT`` does not allow (a lower layer importing a higher
  one);
* a cycle between units;
* a private name (``_x``) taken from another unit, by import or by attribute;
* ``import son`` (the root package) outside ``ROOT_CLIENTS``;

and the last tests keep docs/architecture.md true.  O(size of son's source).
"""

from __future__ import annotations

import ast
import importlib
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SON = REPO / "son"
DOC = REPO / "docs" / "architecture.md"

# ---------------------------------------------------------------- the layers
#: the bottom: switches, errors and helpers that import nothing else of son
BASE = {"errors", "_util", "config"}

#: unit -> the units it may import (besides itself)
MAY_IMPORT: dict[str, set[str]] = {
    **{u: set() for u in BASE},
    "nodes": BASE,
    "peephole": BASE | {"nodes"},
    "frontend": BASE | {"nodes", "peephole"},
    "schedule": BASE | {"nodes"},
    "sccp": BASE | {"nodes", "peephole", "schedule"},
    "exec": BASE | {"nodes", "peephole", "schedule", "sccp"},
    "grad": BASE | {"nodes", "peephole", "schedule", "sccp", "exec"},
}
#: the compiler proper; viz draws it and may import all of it, and nothing in it imports viz
CORE = set(MAY_IMPORT) - BASE
MAY_IMPORT["viz"] = BASE | CORE
#: the driver: the user-facing API (pipelines, son.jit, son.grad, compare, trace, the index)
MAY_IMPORT["driver"] = BASE | CORE | {"viz"}
#: what users run: each may import everything below and the others here, without a cycle
TOP = {"examples", "tour", "fuzz", "__main__", "son"}
for _u in TOP:
    MAY_IMPORT[_u] = BASE | CORE | {"viz", "driver"} | (TOP - {_u})

#: the units that may ``import son``: they use son's public API as a user does
ROOT_CLIENTS = {"__main__", "fuzz"}

#: the most lines a module of son may have: past it, split the module by concept
MAX_LINES = 800


# ---------------------------------------------------------------- the import graph
@dataclass(frozen=True)
class Import:
    importer: str  # module, e.g. "son.driver.kernels"
    target: str  # module, e.g. "son.exec.kernel"; "son" for the root package
    name: str | None  # the name taken from ``target`` (None: the module itself)
    bound: str | None  # the importer's local name for it (None: ``import_module``)
    where: str  # "son/driver/kernels.py:61"


def modules(root: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every module under the package ``root``."""
    out = {}
    for p in sorted(root.rglob("*.py")):
        parts = [root.name, *p.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = p
    return out


def unit(module: str) -> str:
    """``son.exec.kernel`` -> ``exec``; ``son.examples`` -> ``examples``; ``son`` -> ``son``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def imports(root: Path) -> list[Import]:
    """Every import of a module of ``root`` by a module of ``root``."""
    mods = modules(root)
    top = root.name
    out = []
    for m, p in mods.items():
        tree = ast.parse(p.read_text(), str(p))
        package = m if p.name == "__init__.py" else m.rpartition(".")[0]
        for n in ast.walk(tree):
            where = f"{p.relative_to(root.parent)}:{getattr(n, 'lineno', 0)}"
            if isinstance(n, ast.Import):
                for a in n.names:
                    if a.name.split(".")[0] != top:
                        continue
                    if a.asname is None and a.name != top:  # ``import son.x`` binds ``son``
                        out.append(Import(m, a.name, None, None, where))
                        out.append(Import(m, top, None, top, where))
                    else:
                        out.append(Import(m, a.name, None, a.asname or top, where))
            elif isinstance(n, ast.ImportFrom):
                if n.level:
                    base = package.split(".")[: len(package.split(".")) - (n.level - 1)]
                    target = ".".join(base + ([n.module] if n.module else []))
                else:
                    target = n.module or ""
                if target.split(".")[0] != top:
                    continue
                for a in n.names:
                    sub = f"{target}.{a.name}"
                    out.append(Import(m, sub, None, a.asname or a.name, where) if sub in mods
                               else Import(m, target, a.name, a.asname or a.name, where))
            elif (isinstance(n, ast.Call) and isinstance(n.func, (ast.Name, ast.Attribute))
                  and (n.func.id if isinstance(n.func, ast.Name) else n.func.attr) == "import_module"
                  and n.args and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str)
                  and n.args[0].value.split(".")[0] == top):
                out.append(Import(m, n.args[0].value, None, None, where))
    return out


#: hooks named by IPython's display protocol (``_repr_svg_``, ``_ipython_display_``): public
DISPLAY_PROTOCOL = re.compile(r"_(repr|ipython)_\w+_")


def is_private(name: str) -> bool:
    return (name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
            and not DISPLAY_PROTOCOL.fullmatch(name))


def upward(root: Path) -> list[str]:
    """Edges ``MAY_IMPORT`` does not allow."""
    bad = []
    for i in imports(root):
        a, b = unit(i.importer), unit(i.target)
        if a == b or b == "son":  # the root package is ``root_imports``' business
            continue
        if a not in MAY_IMPORT or b not in MAY_IMPORT:
            bad.append(f"{i.where}: {a!r} or {b!r} is in no layer: place it in MAY_IMPORT "
                       "(tests/test_architecture.py) and in docs/architecture.md")
        elif b not in MAY_IMPORT[a]:
            bad.append(f"{i.where}: {a} imports {i.target} ({b} is not below {a})")
    return bad


def unit_graph(root: Path) -> dict[str, set[str]]:
    """unit -> the units it imports."""
    g: dict[str, set[str]] = {}
    for i in imports(root):
        a, b = unit(i.importer), unit(i.target)
        g.setdefault(a, set())
        g.setdefault(b, set())
        if a != b:
            g[a].add(b)
    return g


def cycles(root: Path) -> list[list[str]]:
    """The strongly connected components of more than one unit, sorted."""
    g = unit_graph(root)
    reach = {}
    for u in g:
        seen, stack = set(), [u]
        while stack:
            for v in g[stack.pop()]:
                if v not in seen:
                    seen.add(v)
                    stack.append(v)
        reach[u] = seen
    comps = {frozenset(v for v in g if v == u or (v in reach[u] and u in reach[v])) for u in g}
    return sorted(sorted(c) for c in comps if len(c) > 1)


def private_imports(root: Path) -> list[str]:
    """Private names taken from another unit: ``from x import _y``, a private module of
    another unit, or ``mod._y`` on a name imported from another unit."""
    bad = []
    found = imports(root)
    for i in found:
        if unit(i.importer) == unit(i.target):
            continue
        if i.name is not None and is_private(i.name):
            bad.append(f"{i.where}: {i.importer} imports {i.target}.{i.name}")
        elif any(is_private(part) for part in i.target.split(".")[2:]):
            bad.append(f"{i.where}: {i.importer} imports the private module {i.target}")
    for m, p in modules(root).items():
        # local names bound to another unit's module or object
        foreign = {i.bound for i in found if i.importer == m and unit(i.target) != unit(m) and i.bound}
        for n in ast.walk(ast.parse(p.read_text(), str(p))):
            if (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id in foreign
                    and is_private(n.attr)):
                bad.append(f"{p.relative_to(root.parent)}:{n.lineno}: {m} reads {n.value.id}.{n.attr}")
    return bad


def root_imports(root: Path) -> list[str]:
    """Imports of the root package by a unit outside ``ROOT_CLIENTS``."""
    return [f"{i.where}: {i.importer} imports the root package {i.target}"
            + (f" (for {i.name})" if i.name else "")
            for i in imports(root)
            if i.target == root.name and unit(i.importer) not in ROOT_CLIENTS | {root.name}]


# ---------------------------------------------------------------- son obeys them
def test_no_module_imports_a_higher_layer():
    assert upward(SON) == []


def test_no_cycle_between_packages():
    assert cycles(SON) == []


def test_no_module_takes_another_packages_private_names():
    assert private_imports(SON) == []


def test_library_modules_never_import_the_root_package():
    assert root_imports(SON) == []


def test_no_module_is_over_the_line_limit():
    """A module past ``MAX_LINES`` holds more than one concept: split it."""
    long = {str(p.relative_to(REPO)): n for p in SON.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}


def test_no_function_shadows_a_module():
    """``son.x.y`` is the module ``son/x/y.py`` (or package): a function or object of the
    same name in ``son.x`` would hide it from attribute access (``son.grad`` and
    ``son.schedule`` are the packages themselves, made callable)."""
    names = sorted(modules(SON))
    for m in names:
        importlib.import_module(m)
    parent = {m: m.rpartition(".") for m in names if "." in m}
    shadowed = [m for m, (up, _, name) in parent.items()
                if getattr(sys.modules[up], name, None) is not sys.modules[m]]
    assert shadowed == []


def test_every_unit_has_a_layer():
    assert sorted({unit(m) for m in modules(SON)} - set(MAY_IMPORT)) == []


# ---------------------------------------------------------------- the checker itself
@pytest.fixture
def son_copy(tmp_path) -> Path:
    """A copy of son's source to break on purpose."""
    shutil.copytree(SON, tmp_path / "son", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path / "son"


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text() + "\n" + text + "\n")


def test_checker_catches_the_core_importing_viz(son_copy):
    graph = son_copy / "nodes" / "graph.py"
    _append(graph, "from ..viz import to_dot  # noqa")
    line = len(graph.read_text().splitlines())
    assert upward(son_copy) == [f"son/nodes/graph.py:{line}: nodes imports son.viz (viz is not below nodes)"]
    assert any({"nodes", "viz"} <= set(c) for c in cycles(son_copy))


def test_checker_catches_lazy_upward_imports(son_copy):
    _append(son_copy / "schedule" / "gcm.py", "def f():\n    from ..sccp import sccp  # noqa\n")
    _append(son_copy / "exec" / "kernel.py", "def g():\n    from ..driver.tracing import trace  # noqa\n")
    found = upward(son_copy)
    assert len(found) == 2
    assert "schedule imports son.sccp" in found[0] or "schedule imports son.sccp" in found[1]
    assert any("exec imports son.driver.tracing" in f for f in found)


def test_checker_catches_private_names_and_the_root_package(son_copy):
    _append(son_copy / "sccp" / "rewrite.py", "from ..schedule.gcm import _order_block  # noqa")
    _append(son_copy / "examples.py", "from .driver import passes as p  # noqa\nX = p._secret")
    _append(son_copy / "nodes" / "node.py", "def h():\n    import son\n    return son.debug\n")
    assert len(private_imports(son_copy)) == 2
    found = [r.split(": ", 1)[1] for r in root_imports(son_copy)]
    assert found == ["son.nodes.node imports the root package son"]


def test_checker_catches_a_new_unit(son_copy):
    (son_copy / "newunit").mkdir()
    (son_copy / "newunit" / "__init__.py").write_text("from ..driver import optimize  # noqa\n")
    assert any("'newunit'" in f for f in upward(son_copy))


# ---------------------------------------------------------------- the switches and the hooks
def test_son_debug_forwards_to_config_and_takes_effect(monkeypatch):
    import son
    from son import config
    from son.nodes import Graph

    calls = []
    monkeypatch.setattr(Graph, "verify", lambda self: calls.append(self.name))
    old = son.debug
    try:
        son.debug = False
        assert config.debug is False
        son.parse(_one)
        assert calls == []
        son.debug = True
        assert config.debug is True and son.debug is True
        son.parse(_one)
        assert calls == ["_one"]
    finally:
        son.debug = old


def _one(x):
    return x + 1


def test_import_son_is_enough_for_viz_and_its_hooks():
    code = ("import son\n"
            "assert callable(son.viz.render)\n"
            "assert callable(son.Graph._repr_svg_) and callable(son.Graph.to_networkx)\n"
            "from son.schedule import Schedule\n"
            "assert callable(Schedule._repr_svg_)\n")
    subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True)


# ---------------------------------------------------------------- docs/architecture.md
DOC_PATH = re.compile(r"\bson/[\w/]*(?:\.py\b|/)")
DOC_DOTTED = re.compile(r"`(son(?:\.\w+)+)")


def test_architecture_doc_names_only_paths_that_exist():
    text = DOC.read_text()
    missing = sorted({p for p in DOC_PATH.findall(text) if not (REPO / p).exists()})
    assert missing == []


def test_architecture_doc_names_only_files_that_exist_in_the_package_it_describes():
    """A paragraph ``**Concept** (`son/pkg/`)`` names that package's files by their bare names."""
    missing = []
    for para in DOC.read_text().split("\n\n"):
        pkg = re.match(r"\*\*[^*]+\*\* \(`(son/\w+/)`\)", para)
        if pkg:
            names = re.findall(r"`(\w+\.py)`", para)
            assert names, para[:60]
            missing += [pkg[1] + n for n in names if not (REPO / pkg[1] / n).exists()]
    assert missing == []


def _resolve(dotted: str) -> bool:
    obj = None
    parts = dotted.split(".")
    for k in range(1, len(parts) + 1):
        try:
            obj = importlib.import_module(".".join(parts[:k]))
            continue
        except ImportError:
            pass
        if not hasattr(obj, parts[k - 1]):
            return False
        obj = getattr(obj, parts[k - 1])
    return True


def test_architecture_doc_names_only_modules_and_names_that_exist():
    names = sorted(set(DOC_DOTTED.findall(DOC.read_text())))
    assert names and [n for n in names if not _resolve(n)] == []


def test_architecture_doc_places_every_unit():
    text = DOC.read_text()
    assert [u for u in sorted(MAY_IMPORT) if f"`{u}`" not in text] == []


def test_parser_mixins_override_a_method_only_to_extend_it():
    """FunctionParser is ~25 mixins: a method defined in two of them silently replaces
    the later one unless the earlier calls super() (son.fuzz seed 11 i2: numpy's isclose
    took math.isclose's ``call_isclose``, and every math.isclose crashed)."""
    import inspect

    from son.frontend.parser import FunctionParser

    #: whole replacements, each saying what takes over the replaced method's work
    replaced = {"expr_BinOp": "Ufuncs.ew_binop evaluates the operands and calls Expressions' binop "
                              "for numbers"}
    owners: dict[str, list[type]] = {}
    for cls in FunctionParser.__mro__[1:]:
        for name, v in vars(cls).items():
            if inspect.isfunction(v) and not name.startswith("__"):
                owners.setdefault(name, []).append(cls)
    clashes = [f"{name}: {', '.join(c.__name__ for c in classes)}" for name, classes in owners.items()
               if len(classes) > 1 and name not in replaced
               and "super()." not in inspect.getsource(vars(classes[0])[name])]
    assert not clashes, clashes
