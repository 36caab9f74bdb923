"""JIT fallback per region (issue 23): statements son cannot express run in CPython as
``PyRegion`` nodes, the rest compiled.  CPython is the oracle: every function here runs
through the raw parse, each pipeline (interpreter) and son.jit's kernel, and must give
CPython's result, printed output, array contents and exception.

PYTEST_DONT_REWRITE: CPython must run the functions' ``assert`` statements as written."""

from __future__ import annotations

import contextlib
import io
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import son
from son.nodes import PyRegion

PIPELINES = ("none", "peephole", "sccp", "combined")
COUNTER = 0


class Box:
    def __init__(self, v):
        self.v = v


class TooBig(Exception):
    pass


# ---------------------------------------------------------------- the functions
def prints_in_a_loop(a: np.ndarray, n: int) -> float:
    s = 0.0
    for i in range(n):
        s += float(a[i]) * 2.0
        if i % 2 == 0:
            print("at", i, f"{s:.3f}")
    return s


def dict_memo_across_iterations(a: np.ndarray, n: int) -> float:
    seen = {}
    t = 0.0
    for i in range(n):
        k = int(a[i]) % 3
        if k not in seen:
            seen[k] = i
        t += seen[k] * 0.5
    return t


def try_around_a_division(x: float, y: float) -> float:
    try:
        r = x / y
    except ZeroDivisionError:
        r = -1.0
    return r * 2.0 + x


def raises_a_custom_exception(x: float) -> float:
    y = x * 2.0 + 1.0
    if y > 3.0:
        raise TooBig(f"too big: {y}")
    return y


def strings_then_numbers(n: int) -> int:
    s = ""
    for i in range(n):
        s += str(i)
    k = len(s)
    return k * 3 + n


def global_counter(x: int) -> int:
    global COUNTER
    COUNTER += x
    return x * 2


def writes_an_array_in_a_region(a: np.ndarray) -> float:
    before = a[0]
    a[:] = np.sort(a)[::-1].copy()  # n-D-free numpy son does not take as a statement
    after = a[0]
    return float(before) * 10.0 + float(after)


def objects_and_attributes(x: float) -> float:
    b = Box(x)
    b.v = b.v * 3.0
    y: float = b.v
    return y + 1.0


def assert_with_a_message(x: int) -> int:
    assert x >= 0, f"negative: {x}"
    return x + 1


def returns_from_a_region(n: int) -> int:
    d = {i: i * i for i in range(n)}
    return sum(d.values())


def with_statement(x: float) -> float:
    with contextlib.suppress(ValueError):
        x = x + float("1.5")
    return x * 2.0


def try_returns(a: float, b: float) -> float:
    try:
        return a / b
    except ZeroDivisionError:
        return math.copysign(math.inf, a)


def try_breaks_and_continues(a: np.ndarray) -> int:
    t = 0
    for i in range(len(a)):
        try:
            v = int(10.0 // float(a[i]))
        except ZeroDivisionError:
            if i > 3:
                break
            continue
        t += v
    else:
        t = -t
    return t


def prints_tuples_and_complex_numbers(x: float, n: int) -> float:
    pair = (x, (n, x > 1.0))
    z = complex(x, -1.5)
    print("pair", pair, "z", z, f"{z * z}")
    return pair[0] * 2.0 + z.real


def prints_lists(n: int) -> float:
    xs = [0.5 * i for i in range(n)]
    flags = [i % 2 == 0 for i in range(n)]
    print("xs", xs, f"{len(xs)} items, {sum(flags)} even", xs[1:3], 1.0 in xs)
    xs.append(2.0)
    return xs[-1] + len(flags)


def views_and_grids_cross_into_regions(a: np.ndarray, n: int) -> float:
    m = np.zeros((n, 3))
    for i in range(n):
        m[i, 0] = a[i] + 1.0
    v = a[len(a) - 1:0:-2]  # a reversed view
    t = m[:, 1:]  # a 2-D view with a start and strides
    print("shapes", m.shape, t.shape, v.shape, f"{v.sum():.1f}", t.strides == (24, 8))
    v[0] = 99.0  # writes into the views' bases, seen by compiled code after
    t[-1, -1] = -v[-1]
    np.copyto(m[0], 2.5)
    s = 0.0
    for i in range(n):
        s += m[i, 0] * 3.0 + m[i, 1] + m[i, 2] * 5.0 + a[i]
    return s


def changes_a_list_in_a_region(n: int) -> int:
    xs = [1, 2, 3]
    ys = [0.5] * n  # surely another list than xs: both may go into a region that changes one
    print(xs.pop(), ys.pop() if ys else None)  # changed in CPython, the items given back after
    return len(xs) * 10 + xs[-1] + n + len(ys)


def changes_a_list_argument(xs: list[float], k: int) -> float:
    xs.append(0.5 * k)
    ys = xs  # one list, two names: the region is given it once
    try:
        ys.insert(0, -1.5)
        xs[1] = xs[1] * 2.0
        del xs[-1]
        xs += [float(k)]
        xs.sort(reverse=True)
        if k > 2:
            raise TooBig(f"{len(xs)} items")  # raised after the items are back: the caller sees them
    finally:
        ys.append(9.0)
    s = 0.0
    for i in range(len(xs)):
        s += xs[i] * (i + 1)
    return s


def changes_a_list_and_leaves_the_loop(n: int) -> int:
    xs = [1]
    for i in range(n):
        try:
            xs.append(i * 2)
            if i == 3:
                break
            if i == 1:
                continue
        finally:
            xs.insert(0, -i)
        xs.append(100)
    return sum(xs) * 1000 + len(xs)


def changes_a_row_of_a_list_of_lists(n: int) -> float:
    rows = [[0.5 * i] * 2 for i in range(n)]
    r = rows[n - 1]
    print("last", r.pop(), r.append(7.0), r)
    return sum(rows[n - 1]) + len(rows[n - 1]) * 100.0


CASES = [
    (prints_lists, [(0,), (4,)]),
    (prints_tuples_and_complex_numbers, [(2.0, 3), (-0.5, 0)]),
    (try_returns, [(1.0, 0.0), (-2.0, 0.0), (3.0, 4.0)]),
    (try_breaks_and_continues, [(np.array([1.0, 0.0, 2.0, 3.0, 5.0, 0.0, 7.0]),),
                                (np.array([2.0, 0.0, 4.0]),)]),
    (prints_in_a_loop, [(np.arange(6.0), 6), (np.arange(3.0), 0)]),
    (dict_memo_across_iterations, [(np.array([4.0, 1.0, 7.0, 2.0, 5.0]), 5)]),
    (try_around_a_division, [(1.0, 0.0), (3.0, 2.0), (-0.0, 0.0)]),
    (raises_a_custom_exception, [(0.5,), (5.0,)]),
    (strings_then_numbers, [(0,), (12,)]),
    (global_counter, [(3,)]),
    (writes_an_array_in_a_region, [(np.array([1.0, 3.0, 2.0]),)]),
    (objects_and_attributes, [(2.0,)]),
    (assert_with_a_message, [(3,), (-1,)]),
    (returns_from_a_region, [(5,)]),
    (with_statement, [(1.0,)]),
    (views_and_grids_cross_into_regions, [(np.arange(6.0), 4), (np.arange(3.0), 2), (np.arange(2.0), 1)]),
    (changes_a_list_in_a_region, [(0,), (2,)]),
    (changes_a_list_argument, [([1.0, 2.0], 1), ([3.0], 5), ([], 2)]),
    (changes_a_list_and_leaves_the_loop, [(0,), (2,), (6,)]),
    (changes_a_row_of_a_list_of_lists, [(1,), (3,)]),
]


def outcome(fn, args):
    """(result or exception, printed text, arrays and lists after): what a caller can see."""
    args = [a.copy() if isinstance(a, (np.ndarray, list)) else a for a in args]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            r = ("ok", _plain(fn(*args)))
        except Exception as e:  # noqa: BLE001 - compared with CPython's
            r = ("raise", type(e), str(e))
    return r, out.getvalue(), [a.tolist() if isinstance(a, np.ndarray) else a for a in args
                               if isinstance(a, (np.ndarray, list))]


def _plain(v):
    """A numpy scalar as the Python number it equals (son computes array elements as Python
    floats; CPython keeps numpy's scalar type)."""
    return v.item() if isinstance(v, np.generic) else v


def stages(fn):
    for name in PIPELINES:
        p = son.Pipeline.of(name)
        g, _ = son.optimize(p.parse(fn, fallback="region"), name)
        yield name, (lambda g: lambda *a: son.interpret(g, *a))(g)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", son.FallbackWarning)
        yield "jit", son.jit(fn)


@pytest.mark.parametrize("fn,argsets", CASES, ids=[f.__name__ for f, _ in CASES])
def test_every_stage_gives_cpythons_result_output_and_exception(fn, argsets):
    for args in argsets:
        want = outcome(fn, args)
        for name, run in stages(fn):
            assert outcome(run, args) == want, (name, args)


def test_the_jit_kernel_runs_regions_and_reports_them_once():
    f = son.jit(prints_in_a_loop)
    with pytest.warns(son.FallbackWarning, match=r"runs 1 region\(s\) in CPython: .*test_regions.py:\d+"):
        f(np.arange(4.0), 4)
    assert f.kernels, "compiled, not run as a whole in CPython"
    assert "_son_objmode" in f.source
    (where, why), = f.stats["fallback_regions"]
    assert "print" in why and where.endswith(str(prints_in_a_loop.__code__.co_firstlineno + 5))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the same types: no second warning
        f(np.arange(4.0), 4)


def changes_one_of_two_lists(xs: list[float], ys: list[float]) -> int:
    print(xs.pop(), ys)  # xs and ys may be one list (f(a, a))
    return len(xs)


def hands_a_list_to_a_dict(xs: list[float]) -> int:
    d = {"xs": xs}  # kept: later changes to xs must be seen through d
    xs.append(1.0)
    print(d)
    return len(xs)


def keeps_an_iterator(xs: list[float]) -> int:
    it = iter(xs)  # kept in the frame: it would iterate a copy
    xs.append(1.0)
    print(list(it))
    return len(xs)


def puts_an_int_into_a_float_list(xs: list[float]) -> int:
    print(xs.append(1))
    return len(xs)


def test_a_list_goes_into_a_region_as_a_copy_and_its_items_come_back_if_it_changes():
    g = son.parse(prints_lists, fallback="region")
    (r,) = [n for n in g.nodes() if type(n) is PyRegion]
    assert r.code.ins == ["__son_list_flags", "__son_list_xs"] and not r.code.backs
    g = son.parse(changes_a_list_argument, fallback="region")
    (r,) = [n for n in g.nodes() if type(n) is PyRegion and n.code.backs]
    assert r.code.ins == ["k", "xs"], "xs and ys: one list, given once"
    assert [i for i, _ in r.code.backs] == [1]
    assert "py items of xs" in str(g)
    with pytest.raises(son.SonSyntaxError, match=r"changes list 'xs', but cannot tell whether 'ys' is the "):
        son.parse(changes_one_of_two_lists, fallback="region")
    with pytest.raises(son.SonSyntaxError, match=r"variable 'xs' is list\[float\].* lists it only reads "
                                                 r"or changes in place"):
        son.parse(hands_a_list_to_a_dict, fallback="region")
    with pytest.raises(son.SonSyntaxError, match=r"variable 'it' is an iterator, and son passes into such "
                                                 r"code only numbers"):
        son.parse(keeps_an_iterator, fallback="region")
    for _, run in stages(puts_an_int_into_a_float_list):
        with pytest.raises(son.SonError, match=r"list 'xs', changed in code son runs with CPython .* holds "
                                               r"int 1 at index 2 where son compiled it as a list of floats"):
            with contextlib.redirect_stdout(io.StringIO()):
                run([0.5, 1.5])


def runs_whole_in_cpython(fn, args, warning: str, printed: str) -> None:
    """son.jit(fn) warns (``warning``) and runs ``fn`` as a whole in CPython: CPython's
    result and output, no kernel."""
    f = son.jit(fn)
    out = io.StringIO()
    with pytest.warns(son.FallbackWarning, match=warning), contextlib.redirect_stdout(out):
        assert f(*args) == fn(*args)
    assert out.getvalue() == printed * 2 and not f.kernels


def reads_a_rebound_variable(n):
    s = 0.0

    def g():
        return s

    t = 0.0
    for i in range(n):
        s = i + 1.0
        t += g()
    print("t", t)
    return t


def changes_a_nonlocal(n):
    c = 0

    def inc(k):
        nonlocal c
        c += k

    for i in range(n):
        inc(i)
    print("c", c)
    return c


def test_a_closure_over_a_rebound_or_nonlocal_variable_runs_whole_in_cpython():
    """A function made or called in a region would see the region's copy of a variable
    compiled code goes on changing (it returned 3.0 for 6.0, silently): such refusals
    make no region, the function runs in CPython."""
    for fn in (reads_a_rebound_variable, changes_a_nonlocal):
        with pytest.raises(son.SonSyntaxError, match="cannot run it with CPython in the middle"):
            son.parse(fn, fallback="region")
    runs_whole_in_cpython(reads_a_rebound_variable, (3,), "binds more than once", "t 6.0\n")
    runs_whole_in_cpython(changes_a_nonlocal, (4,), "nonlocal", "c 6\n")


def test_fallback_modes():
    with pytest.raises(son.SonSyntaxError, match="print"):
        son.parse(prints_in_a_loop)  # son.parse's default is "error"
    with pytest.raises(son.SonSyntaxError, match="print"):
        son.jit(prints_in_a_loop, fallback="error")(np.arange(2.0), 2)
    whole = son.jit(prints_in_a_loop, fallback="function")
    with pytest.warns(son.FallbackWarning, match="runs in CPython for these argument types"):
        whole(np.arange(2.0), 2)
    assert not whole.kernels


def test_a_region_is_one_node_that_the_ir_names_by_its_lines():
    g = son.parse(try_around_a_division, fallback="region")
    (r,) = [n for n in g.nodes() if type(n) is PyRegion]
    first = try_around_a_division.__code__.co_firstlineno + 1
    assert r.code.lines == (first, first + 3) and r.code.outs == ["r"]
    assert f"python {first}-{first + 3}" in str(g)


def moves_nothing_across_a_region(a: np.ndarray) -> float:
    x = a[0]
    a[1] = x + 1.0
    print("region")  # a full barrier: the load above and the store below stay on their side
    a[0] = 5.0
    print(a[0] + a[1])
    return x + a[0] + a[1]


@pytest.mark.parametrize("pipeline", PIPELINES)
def test_no_load_or_store_moves_across_a_region(pipeline):
    """A region sees memory as the program left it (the store before it done, the one
    after it not yet), and compiled code after it sees what it wrote."""
    args = (np.array([1.0, 2.0, 3.0]),)
    want = outcome(moves_nothing_across_a_region, args)
    assert want[1] == "region\n7.0\n"
    g, _ = son.optimize(son.parse(moves_nothing_across_a_region, fallback="region"), pipeline)
    assert outcome(lambda *a: son.interpret(g, *a), args) == want
    k = son.compile(g)
    assert outcome(k, args) == want


def region_writes_what_compiled_code_reads(a: np.ndarray) -> float:
    s = 0.0
    for i in range(len(a)):
        a[i] = math.fsum([a[i], 0.5])  # a region inside a loop, writing the array
        s += a[i]
    return s


def test_array_writes_in_a_region_inside_a_loop_are_seen_after_it():
    args = (np.array([1.0, 2.0, 3.0]),)
    want = outcome(region_writes_what_compiled_code_reads, args)
    for _, run in stages(region_writes_what_compiled_code_reads):
        assert outcome(run, args) == want


@settings(max_examples=60, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True), st.floats(allow_nan=True, allow_infinity=True))
def test_try_around_a_division_on_any_floats(x, y):
    want = outcome(try_around_a_division, (x, y))
    f = _JITS.setdefault("div", son.jit(try_around_a_division))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", son.FallbackWarning)
        assert repr(outcome(f, (x, y))) == repr(want)


_JITS: dict = {}


def caller_catches(x: float) -> str:
    try:
        return f"{raises_a_custom_exception_jit(x):.1f}"
    except TooBig as e:
        return f"caught {e}"


raises_a_custom_exception_jit = son.jit(raises_a_custom_exception)


def test_an_exception_raised_in_a_region_reaches_the_caller_through_the_kernel():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", son.FallbackWarning)
        assert caller_catches(0.5) == "2.0"
        assert caller_catches(5.0) == "caught too big: 11.0"


def kind_changes(x: float) -> float:
    y: float = eval("1 + 1")  # noqa: S307 - an int where the annotation says float
    return y + x


def unknown_result(n: int):
    d = {0: n}
    return d[0]


def bare_return(x: float) -> float:
    try:
        x = x / 2.0
    except ZeroDivisionError:
        return
    return x


def test_located_errors_and_run_time_kind_checks():
    with pytest.raises(son.SonError, match=r"variable 'y'.* is int where son compiled it as float"):
        son.interpret(son.parse(kind_changes, fallback="region"), 1.0)
    with pytest.raises(son.SonSyntaxError, match=r"test_regions.py:\d+:\d+: .*kind of the value it returns: "
                                                 r"annotate the function's result"):
        son.parse(unknown_result, fallback="region")
    with pytest.raises(son.SonSyntaxError,
                       match=r"try statement .*cannot run it with CPython .*returns None from the function"):
        son.parse(bare_return, fallback="region")


def logs_then_squares(x: float, n: int) -> float:
    print("n =", n)
    return x * x * 3.0


def region_feeds_the_loss(x: float) -> float:
    s = str(x)
    y: float = float(s) * 2.0
    return y * x


def test_gradients_keep_regions_without_derivatives_and_refuse_the_others():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", son.FallbackWarning)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert son.grad(logs_then_squares)(2.0, 3) == pytest.approx(12.0)
        assert "n = 3" in out.getvalue()
        with pytest.raises(son.SonError, match=r"cannot differentiate through code son runs with CPython "
                                               r"\(the fallback region at .*test_regions.py:\d+"):
            son.grad(region_feeds_the_loss)(2.0)
        with pytest.raises(son.SonError, match="cannot differentiate through code son runs with CPython"):
            son.jvp(region_feeds_the_loss)((2.0,), (1.0,))


def counts_down(n: int) -> int:
    if n <= 1:
        return 1
    print("n", n)
    return n * counts_down(n - 1)


def test_a_recursive_function_has_no_regions_and_runs_whole_in_cpython():
    with pytest.raises(son.SonSyntaxError, match=r"calls itself and has code son runs with CPython"):
        son.parse(counts_down, fallback="region")
    runs_whole_in_cpython(counts_down, (4,), "calls itself", "n 4\nn 3\nn 2\n")


def test_drawings_show_a_region_as_the_code_cpython_runs():
    g = son.parse(try_around_a_division, fallback="region")
    dot = son.viz.dot.to_dot(g)
    (line,) = [x for x in dot.splitlines() if "shape=note" in x]
    assert "python" in line and "try: r = x / y" in line
    assert "code CPython runs" in son.viz.dot.legend()
    nodes = g.to_networkx().nodes(data=True)
    assert any(d["kind"] == "PyRegion" and d["label"].startswith("python") for _, d in nodes)


def test_the_command_line_draws_regions_when_asked(capsys):
    from son.__main__ import main

    target = f"{__file__}:try_around_a_division"
    assert main(["ir", target, "--fallback", "region"]) == 0
    assert "= python" in capsys.readouterr().out
    assert main(["ir", target]) != 0  # son.parse's default: the located error
    assert "try statement" in capsys.readouterr().err


def test_compare_trace_and_explore_take_the_fallback_switch():
    c = son.compare(try_around_a_division, fallback="region")
    assert all(any(type(n) is PyRegion for n in row.graph.nodes()) for row in c.rows)
    t = son.trace(try_around_a_division, "sccp", fallback="region")
    assert any(type(n) is PyRegion for n in t.final.nodes())
    page = son.explore(try_around_a_division, fallback="region").html()
    assert "python" in page and "try:" in page
