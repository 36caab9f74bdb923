"""The ``son`` command line: ``python -m son COMMAND`` or the ``son`` console script.

Commands::

    son tour                                   one example through every stage
    son ir FILE:FUNC [--pipeline P] [--types] [--argtypes T]   text IR
    son dot FILE:FUNC [-o OUT] [--pipeline P | --diff A,B] [--schedule | --blocks]
            [--cfg-only] [--hide-constants] [--types] [--no-legend] [--argtypes T] [--timeout S]
    son compare FILE:FUNC [--pipelines none,peephole,sccp,combined] [--argtypes T]
    son run FILE:FUNC ARGS... [--pipeline P] [--interp]
    son grad FILE:FUNC ARGS... [--argnums 0,1] [--value] [--check] [--source] [--interp]
    son explore FILE:FUNC [-o OUT.html] [--pipeline P] [--argtypes T]   every phase, interactive

``FILE:FUNC`` names a function defined at module level in a Python file; the
file is loaded by path as a fresh module (its folder first on ``sys.path``, as
``python FILE`` does).  A pipeline is a name of ``son.compare``
(``none`` the raw parse, ``peephole`` the peephole, ``sccp`` and
``combined`` an optimistic pass after it) or a comma-separated list of
registered passes run on the raw parse.

Parameter types come from annotations; ``--argtypes a=f64[],n=int`` gives
them for unannotated parameters (``ARGTYPES`` below lists the names; a
parameter not named keeps its annotation, or is an unknown number).  ``son
run`` takes the types of its arguments, and after the call prints, below the
result, each array argument the function changed as ``name = [...]``.

Every error the user can cause (a missing file, an unknown function, a bad
option or argument, a construct outside son's subset) prints one line
``son: error: ...`` on stderr and exits with status 2; a program that raises
at run time (``son run``) prints ``son: FUNC raised Exc: message`` and exits
with status 1.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import itertools
import math
import sys
from pathlib import Path
from typing import Any, Callable, NoReturn

from .errors import SonError
from .viz.dot import RENDER_TIMEOUT


class _Parser(argparse.ArgumentParser):
    """argparse with son's one-line error format (usage errors exit 2, no usage dump)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"son: error: {message} (see '{self.prog} --help')\n")


# ---------------------------------------------------------------- loading FILE:FUNC
_MODULES = itertools.count()


def load_function(spec: str) -> Callable:
    """The function ``FUNC`` defined at module level in Python file ``FILE`` (``FILE:FUNC``)."""
    file, sep, name = spec.rpartition(":")
    if not sep or not file or not name:
        raise SonError(f"expected FILE:FUNC (a Python file and a function defined in it), got {spec!r}")
    path = Path(file)
    if not path.is_file():
        raise SonError(f"no such file: {file!r}")
    if not name.isidentifier():
        raise SonError(f"{name!r} is not a function name; FUNC must name a function defined at module "
                       "level (methods and nested functions are not supported)")
    module_name = f"_son_cli_{next(_MODULES)}_{path.stem if path.stem.isidentifier() else 'file'}"
    loader_spec = importlib.util.spec_from_file_location(module_name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise SonError(f"cannot load {file!r} as a Python module (is it a .py file?)")
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[module_name] = module
    folder = str(path.resolve().parent)
    sys.path.insert(0, folder)
    try:
        loader_spec.loader.exec_module(module)
    except SyntaxError as e:
        raise SonError(f"{file}:{e.lineno}:{(e.offset or 1) - 1}: Python syntax error: {e.msg}") from None
    except (SystemExit, KeyboardInterrupt):
        raise
    except BaseException as e:  # noqa: BLE001 - the user's module failed while being loaded
        raise SonError(f"loading {file} raised {type(e).__name__}: {e}") from None
    finally:
        if sys.path and sys.path[0] == folder:
            del sys.path[0]
    fn = getattr(module, name, None)
    if fn is None:
        defined = sorted(k for k, v in vars(module).items()
                         if callable(v) and getattr(v, "__module__", None) == module_name
                         and hasattr(v, "__code__"))
        hint = f"; it defines: {', '.join(defined)}" if defined else "; it defines no functions"
        raise SonError(f"{file} has no function {name!r} at module level{hint}")
    if not hasattr(fn, "__code__"):
        raise SonError(f"{file}: {name!r} is not a function defined with 'def' (its type is "
                       f"{type(fn).__name__})")
    return fn


def build_graph(fn: Callable, pipeline: str | None, args: list | None = None, argtypes: dict | None = None,
                fallback: str = "error"):
    """Parse ``fn`` and optimize it as ``pipeline`` says (``son.Pipeline.of``); ``fallback``
    is ``son.parse``'s."""
    from .driver import Pipeline

    return Pipeline.of(pipeline).build(fn, args=args, argtypes=argtypes, fallback=fallback)


def _fallback(p: argparse.ArgumentParser) -> None:
    p.add_argument("--fallback", choices=("error", "region"), default="error",
                   help="what a statement son cannot express does: 'error' (default) reports it; "
                        "'region' makes it a node that CPython runs (a fallback region)")


# ---------------------------------------------------------------- --argtypes
#: the type names of --argtypes -> the names ``son.parse``'s argtypes= takes
ARGTYPES = {"int": "int", "float": "float", "bool": "bool", "number": "number",
            "f64[]": "float64[]", "float64[]": "float64[]", "float[]": "float64[]",
            "i64[]": "int64[]", "int64[]": "int64[]", "int[]": "int64[]", "bool[]": "bool[]"}

ARGTYPES_HELP = ("parameter types NAME=TYPE,... for unannotated parameters, e.g. a=f64[],n=int; TYPE is "
                 "int, float, bool, number, or an array f64[] (float64[], float[]), i64[] (int64[], int[]) "
                 "or bool[]")


def parse_argtypes(text: str | None) -> dict | None:
    """``a=f64[],n=int`` as ``{"a": "float64[]", "n": "int"}`` (None for None)."""
    if text is None:
        return None
    out: dict[str, str] = {}
    for item in text.split(","):
        name, sep, tname = (part.strip() for part in item.partition("="))
        if not sep or not name.isidentifier() or not tname:
            raise SonError(f"--argtypes expects NAME=TYPE pairs joined by commas, such as a=f64[],n=int; "
                           f"cannot read {item.strip()!r}")
        if tname not in ARGTYPES:
            raise SonError(f"--argtypes: unknown type {tname!r} for {name!r}; use one of "
                           f"{', '.join(ARGTYPES)}")
        if name in out:
            raise SonError(f"--argtypes names {name!r} twice")
        out[name] = ARGTYPES[tname]
    return out


# ---------------------------------------------------------------- run's arguments
_NAMES = {"inf": math.inf, "nan": math.nan, "True": True, "False": False}


def parse_argument(text: str) -> Any:
    """A command-line argument as a value: an int, float or bool Python literal (``inf`` and
    ``nan`` allowed), or a flat list of them, which becomes a 1-D numpy array (bool if all
    are bools, int64 if all are ints, float64 otherwise)."""
    import numpy as np

    def scalar(node: ast.expr) -> Any:
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = scalar(node.operand)
            if type(v) is not bool:
                return -v if isinstance(node.op, ast.USub) else v
        elif isinstance(node, ast.Name) and node.id in _NAMES:
            return _NAMES[node.id]
        elif isinstance(node, ast.Constant) and type(node.value) in (int, float, bool):
            return node.value
        raise ValueError

    try:
        tree = ast.parse(text.strip(), mode="eval").body
        if isinstance(tree, (ast.List, ast.Tuple)):
            items = [scalar(e) for e in tree.elts]
            if items and all(type(v) is bool for v in items):
                return np.array(items, dtype=np.bool_)
            if items and all(type(v) is int for v in items):
                if any(not -(2**63) <= v < 2**63 for v in items):
                    raise OverflowError
                return np.array(items, dtype=np.int64)
            return np.array(items, dtype=np.float64)
        v = scalar(tree)
        if type(v) is int and not -(2**63) <= v < 2**63:
            raise OverflowError
        return v
    except OverflowError:
        raise SonError(f"argument {text!r} does not fit in int64") from None
    except (SyntaxError, ValueError):
        raise SonError(f"cannot read argument {text!r}: use an int, float or bool literal (inf, nan "
                       "allowed) or a list of them such as [1.0, 2.5] for an array") from None


def _show(value: Any) -> str:
    import numpy as np

    if isinstance(value, np.generic):
        value = value.item()
    return repr(value)


# ---------------------------------------------------------------- commands
def _tour(args: argparse.Namespace) -> int:
    from .tour import run

    return run(args.out)


def _ir(args: argparse.Namespace) -> int:
    from .nodes.printer import format_graph

    g = build_graph(load_function(args.target), args.pipeline, argtypes=parse_argtypes(args.argtypes),
                    fallback=args.fallback)
    print(format_graph(g, types=args.types))
    return 0


_FORMATS = {".svg": "svg", ".png": "png", ".pdf": "pdf", ".dot": "dot", ".gv": "dot"}


def _dot(args: argparse.Namespace) -> int:
    from .viz import diff, schedule_dot, to_dot

    fmt = None
    if args.out is not None:
        fmt = _FORMATS.get(Path(args.out).suffix.lower())
        if fmt is None:
            raise SonError(f"cannot tell the format of {args.out!r}: name it .svg, .png, .pdf or .dot")
    if args.schedule and args.blocks:
        raise SonError("--schedule (clusters in the graph) and --blocks (the block CFG) exclude each other")
    fn = load_function(args.target)
    argtypes = parse_argtypes(args.argtypes)
    if args.timeout <= 0:
        raise SonError(f"--timeout is a number of seconds above 0, not {args.timeout:g}")
    if args.diff is not None:
        if args.pipeline is not None:
            raise SonError("--diff A,B names the pipeline A itself; drop --pipeline")
        if args.schedule or args.blocks or args.cfg_only or args.hide_constants:
            raise SonError("--diff draws both whole graphs; drop --schedule, --blocks, --cfg-only and "
                           "--hide-constants")
        before_name, sep, passes = args.diff.partition(",")
        if not sep or not before_name.strip() or not passes.strip():
            raise SonError(f"--diff expects A,B (a pipeline and the passes run after it, joined by "
                           f"'+': none,peephole or peephole,sccp), got {args.diff!r}")
        from .driver import optimize

        before = build_graph(fn, before_name.strip(), argtypes=argtypes, fallback=args.fallback)
        after, _ = optimize(before, passes.replace("+", ","))
        text = diff(before, after).to_dot(types=args.types)
    else:
        g = build_graph(fn, args.pipeline or "peephole", argtypes=argtypes, fallback=args.fallback)
        if args.schedule or args.blocks:
            from .schedule import schedule

            s = schedule(g)
            text = schedule_dot(s) if args.blocks else to_dot(
                g, args.types, args.hide_constants, args.cfg_only, schedule=s, legend=args.legend)
        else:
            text = to_dot(g, args.types, args.hide_constants, args.cfg_only, legend=args.legend)
    if args.out is None:
        sys.stdout.write(text)
    else:
        from .viz.dot import write

        write(text, args.out, fmt, timeout=args.timeout)
        print(f"wrote {args.out}")
    return 0


def _compare(args: argparse.Namespace) -> int:
    from .driver import compare

    pipelines = [p.strip() for p in args.pipelines.split(",") if p.strip()]
    if not pipelines:
        raise SonError("--pipelines lists at least one pipeline, such as none,peephole,sccp")
    print(compare(load_function(args.target), pipelines=pipelines, argtypes=parse_argtypes(args.argtypes)))
    return 0


def _run(args: argparse.Namespace) -> int:
    fn = load_function(args.target)
    values = [parse_argument(a) for a in args.args]
    originals = [v.copy() if hasattr(v, "copy") else v for v in values]
    if args.interp:
        from .exec.interp import interpret

        g = build_graph(fn, args.pipeline or "peephole", args=values)
        call = lambda: interpret(g, *values)
    else:
        from .driver import compile as compile_kernel

        g = build_graph(fn, args.pipeline, args=values)
        kernel = compile_kernel(g)
        kernel.check(tuple(values))
        call = lambda: kernel(*values)
    try:
        result = call()
    except SonError:
        raise
    except Exception as e:  # noqa: BLE001 - the program's own exception is its outcome
        print(f"son: {fn.__name__} raised {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    print(_show(result))
    for name, after in _changed_arrays(fn, values, originals):
        print(f"{name} = {_show_array(after)}")
    return 0


def _grad(args: argparse.Namespace) -> int:
    from .driver import grad, value_and_grad

    fn = load_function(args.target)
    values = [parse_argument(a) for a in args.args]
    try:
        argnums = tuple(int(k) for k in args.argnums.split(",") if k.strip())
    except ValueError:
        raise SonError("--argnums takes parameter numbers joined by commas, such as 0,2; "
                       f"not {args.argnums!r}") from None
    if not argnums:
        raise SonError("--argnums names at least one parameter")
    if any(not 0 <= k < len(values) for k in argnums):
        raise SonError(f"--argnums {args.argnums}: {fn.__name__} is called with {len(values)} argument(s)")
    df = (value_and_grad if args.value else grad)(fn, argnums=argnums, interpret=args.interp)
    try:
        out = df(*values)
    except SonError:
        raise
    except Exception as e:  # noqa: BLE001 - the program's own exception is its outcome
        print(f"son: {fn.__name__} raised {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    value, grads = out if args.value else (None, out)
    names = fn.__code__.co_varnames[:fn.__code__.co_argcount]
    if args.value:
        print(f"value = {_show(value)}")
    for k, g in zip(argnums, grads):
        print(f"d/d{names[k]} = {_show_array(g) if hasattr(g, 'tolist') else _literal(g)}")
    if args.check:
        for k, g in zip(argnums, grads):
            fd = _central_difference(fn, values, k)
            err = max((abs(a - b) / max(1.0, abs(b)) for a, b in zip(_flat(g), _flat(fd))), default=0.0)
            shown = _show_array(fd) if hasattr(fd, "tolist") else _literal(fd)
            print(f"finite differences d/d{names[k]} = {shown}  (largest relative difference {err:.1e})")
    if args.source:
        print(df.source)
    return 0


def _explore(args: argparse.Namespace) -> int:
    from .driver import explore

    out = args.out or f"{args.target.rpartition(':')[2]}.html"
    if not out.lower().endswith((".html", ".htm")):
        raise SonError(f"the explorer is an HTML page: name the output .html, not {out!r}")
    x = explore(load_function(args.target), args.pipeline, argtypes=parse_argtypes(args.argtypes))
    x.save(out)
    phases = ", ".join(p["name"] for p in x.phases)
    print(f"wrote {out} ({len(x.phases)} phases: {phases}); open it in a browser")
    return 0


def _flat(v) -> list:
    return [float(x) for x in v.tolist()] if hasattr(v, "tolist") else [float(v)]


def _central_difference(fn: Callable, values: list, k: int):
    """d fn / d values[k] by central differences run by CPython (step 1e-6 relative)."""
    import numpy as np

    def at(x):
        args = [v.copy() if isinstance(v, np.ndarray) else v for v in values]
        args[k] = x
        return float(fn(*args))

    x = values[k]
    if isinstance(x, np.ndarray):
        out = np.empty(len(x))
        for i in range(len(x)):
            h = 1e-6 * max(1.0, abs(float(x[i])))
            up, down = x.astype(float), x.astype(float)
            up[i] += h
            down[i] -= h
            out[i] = (at(up) - at(down)) / (2 * h)
        return out
    h = 1e-6 * max(1.0, abs(float(x)))
    return (at(float(x) + h) - at(float(x) - h)) / (2 * h)


def _changed_arrays(fn: Callable, values: list, originals: list) -> list[tuple[str, Any]]:
    """``(parameter name, array)`` for each array argument that the call changed."""
    import numpy as np

    names = fn.__code__.co_varnames[:fn.__code__.co_argcount]
    return [(name, new) for name, old, new in zip(names, originals, values)
            if isinstance(new, np.ndarray) and not np.array_equal(old, new, equal_nan=new.dtype.kind == "f")]


def _show_array(a) -> str:
    """An array as the list literal that ``son run`` reads back (``[1.0, nan, -inf]``)."""
    return "[" + ", ".join(_literal(v) for v in a.tolist()) + "]"


def _literal(v: Any) -> str:
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return repr(v)


# ---------------------------------------------------------------- the parser
def _command(sub, name: str, run: Callable, help: str, description: str, examples: list[str]):
    p = sub.add_parser(name, help=help, description=description,
                       epilog="examples:\n  " + "\n  ".join(examples),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.set_defaults(run=run)
    return p


def _target(p: argparse.ArgumentParser) -> None:
    p.add_argument("target", metavar="FILE:FUNC", help="a function defined at module level in a Python file")


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="son", description="Sea-of-Nodes optimizer research toolkit")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    tour = sub.add_parser("tour", help="one example function through every stage of son",
                          description="Run one example function through every stage and print what "
                          "each does: the raw parse and the parse-time peephole (both graphs as text "
                          "IR, and the rules that fired), the pessimistic and optimistic pipelines "
                          "compared (son.compare), the optimized graph drawn to DIR/tour.svg, its Global "
                          "Code Motion schedule and the Numba kernel son.jit compiles from it (source "
                          "printed), and the two graphs (interpreter) and the kernel run against "
                          "CPython. Exits 1 if any of them disagrees with CPython.")
    tour.add_argument("--out", metavar="DIR", default="out", help="where tour.svg goes (default: out)")
    tour.set_defaults(run=_tour)

    pipe_help = ("none (raw parse), peephole (parse-time peephole, the default), sccp, combined, or "
                 "passes run on the raw parse such as peephole,sccp")
    ir = _command(sub, "ir", _ir, "print a function's graph as text IR",
                  "Parse FUNC from FILE, run the pipeline and print the graph as text IR.",
                   ["son ir prog.py:f", "son ir prog.py:f --pipeline sccp --types",
                    "son ir prog.py:total --argtypes x=f64[],n=int   # unannotated parameters"])
    _target(ir)
    ir.add_argument("--pipeline", "-p", default="peephole", metavar="P", help=pipe_help)
    ir.add_argument("--types", action="store_true", help="show every node's lattice type")
    ir.add_argument("--argtypes", metavar="T", help=ARGTYPES_HELP)
    _fallback(ir)

    dot = _command(sub, "dot", _dot, "draw a function's graph with Graphviz",
                   "Draw FUNC's graph (control flow bold, anchors dotted, data thin, memory dashed; CFG "
                   "nodes boxed; a key below, unless --no-legend). The "
                   "format follows the suffix of -o (.svg, .png, .pdf, .dot); without -o the dot "
                   "text goes to stdout.",
                   ["son dot prog.py:f -o f.svg --types",
                    "son dot prog.py:f -o f.png --pipeline sccp --hide-constants",
                    "son dot prog.py:f -o diff.svg --diff none,peephole   # what the peephole changes",
                    "son dot prog.py:f -o sched.svg --schedule            # nodes clustered by block",
                    "son dot prog.py:f -o blocks.svg --blocks             # the schedule's block CFG"])
    _target(dot)
    dot.add_argument("-o", "--out", metavar="OUT", help="output file: .svg, .png, .pdf or .dot")
    dot.add_argument("--pipeline", "-p", metavar="P", help=pipe_help)
    dot.add_argument("--diff", metavar="A,B",
                     help="draw what passes B (joined by '+') change in pipeline A's graph: removed "
                          "nodes red, added green, retyped orange")
    dot.add_argument("--schedule", action="store_true", help="cluster nodes by scheduled block")
    dot.add_argument("--blocks", action="store_true",
                     help="draw the schedule as a CFG of blocks listing their instructions")
    dot.add_argument("--cfg-only", action="store_true", help="draw only CFG nodes")
    dot.add_argument("--hide-constants", action="store_true", help="leave constants out")
    dot.add_argument("--types", action="store_true", help="show every node's lattice type")
    dot.add_argument("--no-legend", dest="legend", action="store_false",
                     help="leave out the key to edge styles and node colours drawn below the graph")
    dot.add_argument("--argtypes", metavar="T", help=ARGTYPES_HELP)
    _fallback(dot)
    dot.add_argument("--timeout", type=float, default=RENDER_TIMEOUT, metavar="S",
                     help=f"give up drawing after S seconds (default: {RENDER_TIMEOUT:g}); large graphs "
                          "draw faster with --cfg-only or --hide-constants")

    cmp = _command(sub, "compare", _compare, "compare pipelines on a function",
                   "Parse FUNC once per pipeline and print nodes, CFG nodes, constants, phis, loops "
                   "and branches left by each, and the time taken.",
                   ["son compare prog.py:f", "son compare prog.py:f --pipelines peephole,combined",
                    "son compare prog.py:total --argtypes x=f64[],n=int"])
    _target(cmp)
    cmp.add_argument("--pipelines", default="none,peephole,sccp,combined", metavar="P1,P2,...",
                     help="pipeline names (default: none,peephole,sccp,combined)")
    cmp.add_argument("--argtypes", metavar="T", help=ARGTYPES_HELP)

    run = _command(sub, "run", _run, "run a function compiled by son (or interpreted)",
                   "Parse FUNC specialized to the argument types, optimize it, compile it with Numba "
                   "and print what it returns, then each array argument it changed as NAME = [...]. "
                   "Arguments are Python literals: ints, floats (inf, nan), bools, and lists, which "
                   "become numpy arrays (their types are the parameter types). Put '--' before a first "
                   "argument that starts with '-' and is not a number.",
                   ["son run prog.py:f 3 2.5", "son run prog.py:total '[1.0, 2.0, 3.5]' --interp",
                    "son run prog.py:f -- -inf"])
    _target(run)
    run.add_argument("args", nargs="*", metavar="ARGS", help="the arguments, as Python literals")
    run.add_argument("--pipeline", "-p", metavar="P",
                     help="as for 'son ir' (default: what son.jit runs; with --interp: peephole)")
    run.add_argument("--interp", action="store_true",
                     help="run the reference interpreter instead of the compiled kernel")

    gr = _command(sub, "grad", _grad, "differentiate a function (reverse mode) and print its gradient",
                  "Differentiate FUNC at the given arguments with son.grad (reverse mode on the graph; "
                  "loops stay loops) and print d/dPARAM for each parameter in --argnums: a float, or a "
                  "list for an array parameter. Arguments are read as for 'son run'; differentiated "
                  "ones must be floats or float lists (write 2.0, not 2).",
                  ["son grad prog.py:f 1.5 2.0", "son grad prog.py:f 1.5 2.0 --argnums 0,1 --value",
                   "son grad prog.py:dot '[1.0, 2.0]' '[3.0, 4.0]' --argnums 0 --check",
                   "son grad prog.py:f 1.5 --source      # the gradient kernel's Python source"])
    _target(gr)
    gr.add_argument("args", nargs="*", metavar="ARGS", help="the arguments, as Python literals")
    gr.add_argument("--argnums", default="0", metavar="K1,K2,...",
                    help="which parameters to differentiate, by position (default: 0)")
    gr.add_argument("--value", action="store_true", help="print the function's value too")
    gr.add_argument("--check", action="store_true",
                    help="also print central finite differences computed by CPython, and the difference")
    gr.add_argument("--source", action="store_true", help="print the generated gradient kernel")
    gr.add_argument("--interp", action="store_true",
                    help="run the gradient graph in the reference interpreter instead of a Numba kernel")

    ex = _command(sub, "explore", _explore, "write an interactive page of every phase of a compilation",
                  "Parse FUNC and run the pipeline, recording every phase (the raw parse, each batch of "
                  "parse-time rewrites, each pass, the schedule, the kernel source), and write one "
                  "self-contained HTML page to explore them in a browser (no network needed): click a node "
                  "for its inputs, users, type, origin and source line; diff a phase against the one "
                  "before; hide constants, show control only, collapse a loop, show one block or the "
                  "neighbourhood of a node.",
                  ["son explore prog.py:f -o f.html", "son explore prog.py:f --pipeline combined",
                   "son explore prog.py:total --argtypes x=f64[],n=int"])
    _target(ex)
    ex.add_argument("-o", "--out", metavar="OUT", help="the page to write (default: FUNC.html)")
    ex.add_argument("--pipeline", "-p", metavar="P",
                    help="as for 'son ir' (default: sccp, what son.jit runs)")
    ex.add_argument("--argtypes", metavar="T", help=ARGTYPES_HELP)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return args.run(args)
    except SonError as e:
        print(f"son: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
