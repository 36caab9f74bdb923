"""The ``son`` command line, end to end: ``python -m son ...`` in a subprocess on a
temporary file, results checked against CPython and the text IR, errors as one line."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

PROGRAM = '''
import math

import numpy as np

SCALE = 2


def poly(a: int):
    return (2 * 3 + a - a) * 1 + 0


def total(x: np.ndarray, n: int):
    s = 0.0
    for i in range(n):
        s += x[i] * SCALE
    return s


def mixed(a, b, flag):
    if flag:
        return a // b
    return a - b


def count_true(m: np.ndarray):
    k = 0
    for i in range(len(m)):
        if m[i]:
            k += 1
    return k


def flip_flop(n: int):
    x = 1
    i = 0
    while i < n:
        x = 2 - x
        i += 1
    return x


def uses_set(a: int):
    return {a}


def scale_in_place(x, k):
    for i in range(len(x)):
        x[i] = x[i] * k
    return len(x)


def zero_first_negative(x, flags):
    for i in range(len(x)):
        if x[i] < 0:
            x[i] = 0
            return i
    return -1


def untyped_total(x, n):
    s = 0.0
    for i in range(n):
        s += x[i]
    return s


def escape(x, c):
    s = 0.0
    while x < 10.0:
        x = x * 1.5 + math.sin(c)
        s += x * c
    return s


def weighted(w, x):
    s = 0.0
    for i in range(len(x)):
        s += w[i] * x[i] * x[i]
    return s


NOT_A_FUNCTION = 3
'''


@pytest.fixture(scope="module")
def prog(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    p = d / "prog.py"
    p.write_text(PROGRAM)
    return p


def son_cli(*args, cwd=None, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "son", *map(str, args)], capture_output=True, text=True,
                          timeout=300, cwd=cwd, env=env)


def assert_user_error(r: subprocess.CompletedProcess, *fragments: str) -> None:
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stderr.startswith("son: error: ") and r.stderr.count("\n") == 1, r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    for f in fragments:
        assert f in r.stderr, r.stderr


# ---------------------------------------------------------------- son ir
def test_ir_prints_the_peephole_graph_by_default_and_the_raw_one_on_request(prog):
    r = son_cli("ir", f"{prog}:poly")
    assert r.returncode == 0, r.stderr
    assert r.stdout == "def poly(a: int) -> 6:\n  return 6\n"
    r = son_cli("ir", f"{prog}:poly", "--pipeline", "none")
    assert r.stdout.splitlines() == ["def poly(a: int) -> int:", "  return (((((2*3)+a)-a)*1)+0)"]


def test_ir_pipeline_sccp_finds_what_the_peephole_cannot(prog):
    peep = son_cli("ir", f"{prog}:flip_flop").stdout
    sccp = son_cli("ir", f"{prog}:flip_flop", "-p", "sccp").stdout
    assert "phi" in peep and "return 1" not in peep  # x = 2 - x is a loop phi to the pessimist
    # optimistically x is always 1
    assert sccp.startswith("def flip_flop(n: int) -> 1:\n") and "return 1  [from" in sccp


def test_ir_types_shows_lattice_types(prog):
    plain = son_cli("ir", f"{prog}:total").stdout
    typed = son_cli("ir", f"{prog}:total", "--types").stdout
    assert plain != typed and "float" in typed


# ---------------------------------------------------------------- son run
def test_run_interp_agrees_with_cpython(prog):
    r = son_cli("run", f"{prog}:total", "[1.0, 2.0, 3.5]", "3", "--interp")
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"{(1.0 + 2.0 + 3.5) * 2!r}\n"
    r = son_cli("run", f"{prog}:mixed", "-7", "2", "True", "--interp")
    assert r.stdout == f"{-7 // 2}\n"
    r = son_cli("run", f"{prog}:mixed", "1.5", "0.25", "False", "--interp")
    assert r.stdout == f"{1.5 - 0.25!r}\n"
    r = son_cli("run", f"{prog}:count_true", "[True, False, True]", "--interp")
    assert r.stdout == "2\n"


def test_run_compiles_with_numba_by_default(prog):
    r = son_cli("run", f"{prog}:total", "[0.5, -1.0, 4.0]", "2")
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"{(0.5 - 1.0) * 2!r}\n"


def test_run_reports_the_programs_exception_with_status_1(prog):
    r = son_cli("run", f"{prog}:mixed", "7", "0", "True", "--interp")
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith("son: mixed raised ZeroDivisionError: ") and r.stderr.count("\n") == 1
    r = son_cli("run", f"{prog}:total", "[1.0]", "3", "--interp")
    assert r.returncode == 1 and "raised IndexError" in r.stderr


@pytest.mark.parametrize("arg, fragment", [
    ("'a'", "cannot read argument"),
    ("[[1, 2]]", "cannot read argument"),
    ("None", "cannot read argument"),
    ("99999999999999999999", "does not fit in int64"),
])
def test_run_rejects_bad_arguments(prog, arg, fragment):
    assert_user_error(son_cli("run", f"{prog}:poly", arg, "--interp"), fragment)


def test_run_with_the_wrong_number_of_arguments_is_a_user_error(prog):
    assert_user_error(son_cli("run", f"{prog}:poly", "1", "2", "--interp"))


def python_run(fn_name: str, *args):
    """CPython's result and arguments after calling ``fn_name`` of PROGRAM."""
    ns: dict = {}
    exec(PROGRAM, ns)  # noqa: S102 - the test's own program
    args = [a.copy() if hasattr(a, "copy") else a for a in args]
    return ns[fn_name](*args), args


@pytest.mark.parametrize("mode", ["--interp", "--pipeline=sccp"])
def test_run_prints_the_arrays_the_function_changed(prog, mode):
    import numpy as np

    result, (x, _) = python_run("scale_in_place", np.array([1.0, -2.5, np.inf]), 2.0)
    r = son_cli("run", f"{prog}:scale_in_place", "[1.0, -2.5, inf]", "2.0", mode)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"{result}\nx = [{float(x[0])!r}, {float(x[1])!r}, inf]\n"
    # the printed array reads back as an argument: the output can be fed to the next run
    again = son_cli("run", f"{prog}:scale_in_place", r.stdout.splitlines()[1][4:], "0.5", "--interp")
    assert again.stdout.splitlines()[1] == "x = [1.0, -2.5, inf]"


def test_run_prints_only_the_arrays_that_changed(prog):
    import numpy as np

    result, (x, flags) = python_run("zero_first_negative", np.array([3, -4, -1]), np.array([True]))
    r = son_cli("run", f"{prog}:zero_first_negative", "[3, -4, -1]", "[True]", "--interp")
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"{result}\nx = {x.tolist()}\n"  # flags is unchanged: not printed
    r = son_cli("run", f"{prog}:zero_first_negative", "[3, 4]", "[True]", "--interp")
    assert r.stdout == "-1\n"  # nothing changed: the result only


# ---------------------------------------------------------------- --argtypes
def test_argtypes_type_unannotated_array_parameters(prog):
    r = son_cli("ir", f"{prog}:untyped_total")
    assert r.returncode == 2 and "Traceback" not in r.stderr  # x is an unknown number: x[i] is refused
    r = son_cli("ir", f"{prog}:untyped_total", "--argtypes", "x=f64[],n=int", "--types")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("def untyped_total(x: float64[], n: int) -> float:")
    r = son_cli("ir", f"{prog}:untyped_total", "--argtypes", " x = float[] , n = int ")
    assert r.returncode == 0 and r.stdout.startswith("def untyped_total(x: float64[], n: int)"), r.stderr


def test_argtypes_reach_compare_and_dot(prog):
    r = son_cli("compare", f"{prog}:untyped_total", "--argtypes", "x=i64[],n=int", "--pipelines",
                "none,sccp")
    assert r.returncode == 0, r.stderr
    assert [line.split()[0] for line in r.stdout.splitlines()[2:]] == ["none", "sccp"]
    r = son_cli("dot", f"{prog}:untyped_total", "--argtypes", "x=f64[],n=int", "--types")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith('digraph "untyped_total"') and "float64[]" in r.stdout
    r = son_cli("dot", f"{prog}:untyped_total", "--argtypes", "x=f64[],n=int", "--diff", "none,peephole")
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("spec, fragment", [
    ("x:f64[]", "--argtypes expects NAME=TYPE pairs joined by commas"),
    ("x=f64[],", "cannot read ''"),
    ("x=f32[]", "unknown type 'f32[]' for 'x'"),
    ("x=int,x=float", "names 'x' twice"),
    ("y=int", "unknown parameters ['y']"),
])
def test_bad_argtypes_are_one_line_user_errors(prog, spec, fragment):
    assert_user_error(son_cli("ir", f"{prog}:untyped_total", "--argtypes", spec), fragment)


def test_help_documents_argtypes(prog):
    for command in ("ir", "dot", "compare"):
        out = son_cli(command, "--help").stdout
        assert "--argtypes T" in out and "a=f64[],n=int" in out.replace("\n", " ").replace("  ", "")


# ---------------------------------------------------------------- son compare
def test_compare_prints_one_row_per_pipeline(prog):
    r = son_cli("compare", f"{prog}:flip_flop")
    assert r.returncode == 0, r.stderr
    rows = {line.split()[0]: line.split() for line in r.stdout.splitlines()[2:]}
    assert list(rows) == ["none", "peephole", "sccp", "combined"]
    header = r.stdout.splitlines()[0].split()
    phis = header.index("phis")
    # the pessimist keeps the phis of x and i; SCCP proves x == 1, i's phi stays
    assert int(rows["peephole"][phis]) == 2 and int(rows["sccp"][phis]) == 1
    r = son_cli("compare", f"{prog}:poly", "--pipelines", "none,peephole")
    assert [line.split()[0] for line in r.stdout.splitlines()[2:]] == ["none", "peephole"]


# ---------------------------------------------------------------- son dot
def test_dot_timeout_is_a_user_error_naming_the_size(prog, tmp_path):
    import os

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "dot"  # a Graphviz that never finishes
    fake.write_text("#!/bin/sh\nsleep 30\n")
    fake.chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    r = son_cli("dot", f"{prog}:total", "-o", tmp_path / "g.svg", "--timeout", "0.5", env=env)
    assert_user_error(r, "did not finish drawing total (", "within 0.5 s", "--cfg-only", "--hide-constants")
    assert not (tmp_path / "g.svg").exists()
    assert_user_error(son_cli("dot", f"{prog}:total", "--timeout", "0"), "--timeout is a number of seconds")


def test_dot_writes_svg_png_and_dot_by_suffix(prog, tmp_path):
    r = son_cli("dot", f"{prog}:total", "-o", tmp_path / "g.svg", "--types")
    assert r.returncode == 0, r.stderr
    root = ET.fromstring((tmp_path / "g.svg").read_bytes())
    assert root.tag.endswith("svg")
    assert son_cli("dot", f"{prog}:total", "-o", tmp_path / "g.png").returncode == 0
    assert (tmp_path / "g.png").read_bytes().startswith(b"\x89PNG")
    assert son_cli("dot", f"{prog}:total", "-o", tmp_path / "g.dot").returncode == 0
    text = (tmp_path / "g.dot").read_text()
    assert text.startswith('digraph "total" {') and "style=bold" in text
    assert son_cli("dot", f"{prog}:total").stdout == text  # no -o: the dot text on stdout


def test_dot_options_reach_the_drawing(prog):
    full = son_cli("dot", f"{prog}:total").stdout
    cfg = son_cli("dot", f"{prog}:total", "--cfg-only").stdout
    noconst = son_cli("dot", f"{prog}:total", "--hide-constants").stdout
    sched = son_cli("dot", f"{prog}:total", "--schedule").stdout
    blocks = son_cli("dot", f"{prog}:total", "--blocks").stdout
    count = lambda t: len(re.findall(r"^\s*n\d+ \[label=", t, re.M))
    assert count(cfg) < count(noconst) < count(full) == count(sched)
    assert "shape=ellipse" not in cfg
    assert "subgraph cluster_B0" in sched and "cluster" not in full
    assert re.search(r'B1 -> B\d+ \[label="T"\]', blocks) and "back" in blocks


def test_dot_diff_colours_what_the_peephole_removed(prog):
    r = son_cli("dot", f"{prog}:poly", "--diff", "none,peephole")
    assert r.returncode == 0, r.stderr
    removed = re.findall(r'^\s*n\d+ \[label="%\d+ ([^"]*)".*color="#c62828"', r.stdout, re.M)
    added = re.findall(r'^\s*n\d+ \[label="%\d+ ([^"]*)".*color="#2e7d32"', r.stdout, re.M)
    assert sorted(removed) == sorted(["a", "2", "3", "*", "+", "-", "1", "*", "0", "+"])
    assert added == ["6"]


@pytest.mark.parametrize("args, fragment", [
    (["dot", "{prog}:poly", "-o", "x.gif2"], "name it .svg, .png, .pdf or .dot"),
    (["dot", "{prog}:poly", "--diff", "none"], "--diff expects A,B"),
    (["dot", "{prog}:poly", "--diff", "none,peephole", "--pipeline", "sccp"], "drop --pipeline"),
    (["dot", "{prog}:poly", "--diff", "none,nosuchpass"], "unknown pipeline or pass 'nosuchpass'"),
    (["ir", "{prog}:poly", "--pipeline", "nosuchpass"], "unknown pipeline or pass 'nosuchpass'"),
    (["ir", "{dir}/missing.py:f"], "no such file"),
    (["ir", "{prog}:nope"],
     "has no function 'nope' at module level; it defines: count_true, escape, flip_flop"),
    (["ir", "{prog}:NOT_A_FUNCTION"], "is not a function defined with 'def' (its type is int)"),
    (["ir", "{prog}"], "expected FILE:FUNC"),
    (["ir", "{prog}:poly", "--bogus"], "unrecognized arguments: --bogus"),
    (["ir"], "the following arguments are required: FILE:FUNC"),
    (["nosuchcommand"], "invalid choice: 'nosuchcommand'"),
    (["compare", "{prog}:poly", "--pipelines", ","], "at least one pipeline"),
])
def test_user_errors_are_one_line_with_status_2(prog, args, fragment):
    args = [a.format(prog=prog, dir=prog.parent) for a in args]
    assert_user_error(son_cli(*args), fragment)


def test_unsupported_syntax_points_at_file_line_col(prog):
    r = son_cli("ir", f"{prog}:uses_set")
    line = PROGRAM.splitlines().index("    return {a}") + 1
    assert_user_error(r, f"{prog}:{line}:11: ")
    assert "set" in r.stderr


def test_broken_files_are_user_errors(tmp_path):
    (tmp_path / "bad.py").write_text("def f(:\n    pass\n")
    assert_user_error(son_cli("ir", tmp_path / "bad.py:f"), "bad.py:1:6: Python syntax error")
    (tmp_path / "boom.py").write_text("import no_such_module_here\n\ndef f(a):\n    return a\n")
    assert_user_error(son_cli("ir", tmp_path / "boom.py:f"), "raised ModuleNotFoundError")


def test_the_file_can_import_its_neighbours(tmp_path):
    (tmp_path / "helper.py").write_text("K = 5\n\ndef inc(x):\n    return x + K\n")
    (tmp_path / "main.py").write_text("from helper import inc\n\ndef f(a: int):\n    return inc(a) * 2\n")
    r = son_cli("run", tmp_path / "main.py:f", "4", "--interp", cwd="/")
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"{(4 + 5) * 2}\n"


# ---------------------------------------------------------------- son grad
def _escape_grad(x, c, h=1e-7):
    """CPython's own central differences of escape (the loop's trip count is locally constant)."""
    ns: dict = {}
    exec(PROGRAM, ns)
    f = ns["escape"]
    return ((f(x + h, c) - f(x - h, c)) / (2 * h), (f(x, c + h) - f(x, c - h)) / (2 * h), f(x, c))


@pytest.mark.parametrize("mode", ["--interp", None])
def test_grad_prints_derivatives_through_a_data_dependent_loop(prog, mode):
    extra = [mode] if mode else []
    r = son_cli("grad", f"{prog}:escape", "1.5", "2.0", "--argnums", "0,1", "--value", *extra)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert [ln.split(" = ")[0] for ln in lines] == ["value", "d/dx", "d/dc"]
    dx, dc, v = _escape_grad(1.5, 2.0)
    got = [float(ln.split(" = ")[1]) for ln in lines]
    assert got[0] == v
    assert got[1] == pytest.approx(dx, rel=1e-6) and got[2] == pytest.approx(dc, rel=1e-6)


def test_grad_of_an_array_parameter_with_a_finite_difference_check(prog):
    r = son_cli("grad", f"{prog}:weighted", "[1.0, 2.0, -1.0]", "[0.5, 3.0, 2.0]",
                "--argnums", "1", "--check", "--interp")
    assert r.returncode == 0, r.stderr
    grad_line, fd_line = r.stdout.splitlines()
    assert grad_line == f"d/dx = [{2 * 1.0 * 0.5!r}, {2 * 2.0 * 3.0!r}, {2 * -1.0 * 2.0!r}]"
    assert fd_line.startswith("finite differences d/dx = [")
    assert float(fd_line.rsplit(" ", 1)[1].rstrip(")")) < 1e-6


def test_grad_source_prints_the_gradient_kernel(prog):
    r = son_cli("grad", f"{prog}:escape", "1.5", "2.0", "--source")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("d/dx = ") and "def " in r.stdout and "while" in r.stdout


@pytest.mark.parametrize("args, fragment", [
    (["1", "2.0"], "parameter 'x' of type int"),
    (["1.5", "2.0", "--argnums", "2"], "called with 2 argument(s)"),
    (["1.5", "2.0", "--argnums", "x"], "--argnums takes parameter numbers"),
])
def test_grad_user_errors(prog, args, fragment):
    assert_user_error(son_cli("grad", f"{prog}:escape", *args, "--interp"), fragment)


@pytest.mark.parametrize("command", ["ir", "dot", "compare", "run", "grad"])
def test_help_describes_each_command_with_an_example(command):
    r = son_cli(command, "--help")
    assert r.returncode == 0
    assert r.stdout.startswith(f"usage: son {command}") and "FILE:FUNC" in r.stdout
    assert f"examples:\n  son {command} prog.py:" in r.stdout


def test_console_script_is_son_main():
    import importlib.metadata as md

    from son.__main__ import main

    eps = [e for e in md.entry_points(group="console_scripts") if e.name == "son"]
    assert eps and eps[0].load() is main
