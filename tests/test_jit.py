"""``son.jit`` and ``son.compile`` (son/driver/kernels.py, son/exec/kernel.py): every corpus function
through a Numba kernel gives CPython's outcome; arguments are checked; the decorator API;
kernels are cached in memory and on disk across processes.

Kernels are compiled into a temporary cache directory (``SON_CACHE_DIR``).
"""

from __future__ import annotations

import copy
import json
import math
import os
import subprocess
import sys
import textwrap
import warnings

import corpus
import corpus_suites
import numpy as np
import pytest
from conftest import _outcome, run_python
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import son
from son.exec.kernel import Kernel, forget_kernels

CASES = corpus.CASES + corpus_suites.CASES
JIT_SETTINGS = settings(max_examples=6, deadline=None, derandomize=True, database=None,
                        suppress_health_check=list(HealthCheck))

#: corpus functions son.jit refuses.  None: a variable that is an int on one path and a
#: float on another (``s = 0`` then ``s += 0.5`` in a loop that may not run; 17 corpus
#: functions) is compiled as a mixed value (son/exec/mixed.py) and returns CPython's
#: int or float.
MIXED_KINDS: set[str] = set()
MIXED_MESSAGES = ("not a single int, float, bool", "on different paths")

#: a NaN's sign bit is not Python-visible semantics (conftest.canon) except through
#: math.copysign; LLVM may flip it (``x * -1.0`` becomes ``-x``): NaN inputs are skipped
NAN_SIGN = {"neg_zero_arith"}


def _has_nan(args) -> bool:
    return any(isinstance(a, float) and math.isnan(a) for a in args)


def _examples(case) -> list:
    exs = list(case.examples)

    @JIT_SETTINGS
    @given(st.tuples(*case.strategies))
    def collect(args):
        exs.append(args)

    collect()
    return exs


def _fits(args) -> bool:
    return all(not isinstance(a, int) or -(1 << 63) <= a < (1 << 63) for a in args)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES])
def test_corpus_function_agrees_with_cpython(case):
    """CPython's value (or exception type) and array contents, through the kernel, on
    the case's edge inputs and a few hypothesis inputs (NaN, inf, -0.0, empty arrays and
    negative indices are in the strategies)."""
    f = son.jit(case.fn)
    refused = 0
    for args in _examples(case):
        if not _fits(args) or (case.id in NAN_SIGN and _has_nan(args)):
            continue
        expected = run_python(case.fn, args)
        try:
            got = _outcome(f, args)
        except son.SonError as e:
            assert case.id in MIXED_KINDS, f"{case.id}{args!r}: {e}"
            assert any(m in str(e) for m in MIXED_MESSAGES), str(e)
            refused += 1
            continue
        assert got == expected, f"{case.id}{args!r}: kernel {got} != CPython {expected}\n{f.source}"
    if case.id in MIXED_KINDS:
        assert refused, f"{case.id} is listed as mixing int and float but compiled every time"


# ====================================================================== arrays
def scale_inplace(a, k):
    for i in range(len(a)):
        a[i] = a[i] * k
    return len(a)


def running_max(a):
    out = np.empty(len(a))
    m = -math.inf
    for i in range(len(a)):
        m = max(m, a[i])
        out[i] = m
    return out


def last_items(a, n):
    s = 0
    for i in range(1, n + 1):
        s = s * 10 + a[-i]
    return s


def test_writes_to_argument_arrays_are_visible():
    f = son.jit(scale_inplace)
    a = np.array([1.0, -2.0, 0.5])
    assert f(a, 2.0) == 3
    assert a.tolist() == [2.0, -4.0, 1.0]
    b = np.arange(10.0)[::2]  # a strided view: numba compiles another layout, writes reach the base
    f(b, 3.0)
    assert b.tolist() == [0.0, 6.0, 12.0, 18.0, 24.0]


def test_new_array_is_returned():
    f = son.jit(running_max)
    got = f(np.array([1.0, 3.0, 2.0, 5.0]))
    assert isinstance(got, np.ndarray) and got.dtype == np.float64
    assert got.tolist() == [1.0, 3.0, 3.0, 5.0]
    assert f(np.zeros(0)).tolist() == []


def test_negative_indices_and_bounds():
    f = son.jit(last_items)
    a = np.array([1, 2, 3], dtype=np.int64)
    assert f(a, 3) == last_items(a, 3) == 321
    with pytest.raises(IndexError):
        f(a, 4)
    unchecked = son.jit(last_items, boundscheck=False)
    assert unchecked(a, 3) == 321
    assert "IndexError" in f.source and "IndexError" not in unchecked.source


def flat_index_sum(a, n):
    s = 0.0
    for i in range(n):
        for k in range(n):
            s += a[i * n + k]
    return s


def successor_is_larger(n):
    return n + 1 > n


def test_wrap_false_is_numbas_no_overflow_assumption():
    """Default kernels wrap: ``n + 1 > n`` is False at INT64_MAX, as the interpreter says.
    ``wrap=False`` compiles ``+`` with LLVM's ``nsw`` (numba.njit's assumption), so LLVM
    folds the test to True: the same results wherever nothing overflows, and at an
    overflow whatever LLVM made of it."""
    exact, fast = son.jit(successor_is_larger), son.jit(successor_is_larger, wrap=False)
    top = 2**63 - 1
    assert exact(5) is fast(5) is True
    assert exact(top) is son.interpret(son.parse(successor_is_larger, args=[top]), top) is False
    assert fast(top) is True
    assert "never overflows" in fast.source and "wraps" in exact.source
    a = np.arange(16.0)
    assert son.jit(flat_index_sum, wrap=False)(a, 4) == flat_index_sum(a, 4) == 120.0


def ieee_math(x, y, d):
    return math.log(x) + math.sqrt(y) * math.exp(x) + x ** 1000.0 + 1.0 / d


def test_math_errors_false_gives_numbas_ieee_values():
    """``math_errors=False`` drops exactly the guards that make math and ``int(float)``
    raise: log(0.0), sqrt(-1.0), exp overflow and ``**`` overflow give numba.njit's
    IEEE values, while a division by zero (numba raises it too) still raises."""
    import numba

    exact, ieee = son.jit(ieee_math), son.jit(ieee_math, math_errors=False)
    reference = numba.njit(ieee_math)
    for args in [(0.0, 4.0, 1.0), (1.0, -1.0, 2.0), (800.0, 1.0, 1.0), (2.0, 9.0, 4.0)]:
        if args[0] > 0 and args[1] >= 0 and args[0] < 700:
            assert exact(*args) == ieee(*args) == ieee_math(*args)
        else:
            with pytest.raises((ValueError, OverflowError)):
                exact(*args)
        got, want = ieee(*args), reference(*args)
        assert got == want or (math.isnan(got) and math.isnan(want)), args
    with pytest.raises(ZeroDivisionError):
        ieee(2.0, 1.0, 0.0)
    assert "math domain error" in exact.source and "math domain error" not in ieee.source
    assert "range error" not in ieee.source and "out of range" not in ieee.source
    assert "ZeroDivisionError" in ieee.source


def test_math_errors_false_converts_floats_unchecked():
    def to_bin(x, n):
        return int(x * n)

    exact, ieee = son.jit(to_bin), son.jit(to_bin, math_errors=False)
    assert exact(0.5, 10) == ieee(0.5, 10) == 5
    with pytest.raises(ValueError):
        exact(math.nan, 10)
    assert "NaN" in exact.source and "NaN" not in ieee.source and "raise" not in ieee.source
    assert isinstance(ieee(math.nan, 10), int)  # numba's unspecified int, not an exception


def test_wrap_keeps_int64_overflow_exact():
    def f(n):
        return n * 3 + 1

    big = 2**62
    want = ((big * 3 + 1 + 2**63) % 2**64) - 2**63  # DESIGN.md: int64 wrap-around
    assert son.jit(f)(big) == son.interpret(son.parse(f, args=[big]), big) == want


# ====================================================================== arguments
def add(x, y):
    return x + y


@pytest.mark.parametrize("args, message", [
    (({1: 2}, 1), "unsupported argument dict"),
    (([1, 2.5], 1), "a list of float and int"),
    ((np.zeros((1, 1, 1, 1)), 1), "4-D"),
    ((np.zeros(3, dtype=np.float32), 1), "float32"),
    (("a", 1), "unsupported argument str"),
    (({1, 2}, 1), "unsupported argument set"),
    (((1.0, "a"), 1), "unsupported argument str"),
])
def test_unsupported_argument_types_are_son_errors(args, message):
    with pytest.raises(son.SonError, match=message):
        son.jit(add, fallback="error")(*args)


def test_none_is_an_argument_and_cpythons_type_error_where_it_is_added():
    """None is a constant of the graph (control.NONE_ARG); ``None + 1`` is CPython's TypeError."""
    with pytest.raises(TypeError):
        son.jit(add, fallback="error")(None, 1)
    with pytest.raises(TypeError):
        add(None, 1)


def test_tuple_and_complex_arguments_are_flattened():
    f = son.jit(add)
    assert f((1.0, 2), (3, 4.5)) == add((1.0, 2), (3, 4.5)) == (1.0, 2, 3, 4.5)
    assert f(1 + 2j, 1) == add(1 + 2j, 1)
    assert f((1, (2.5, 3j)), (4,)) == add((1, (2.5, 3j)), (4,))
    g = son.parse(add, args=[(1.0, 2.0), (3,)])
    assert son.interpret(g, (1.0, 2.0), (3,)) == (1.0, 2.0, 3)
    with pytest.raises(son.SonError, match="expected a tuple of 2"):
        son.interpret(g, (1.0,), (3,))


def test_argument_count_and_range_are_checked():
    f = son.jit(add)
    assert f(1, 2) == 3
    with pytest.raises(son.SonError, match="does not fit in int64"):
        f(1 << 70, 1)
    with pytest.raises(TypeError, match="missing a required argument"):  # as CPython's add(1)
        f(1)


def test_compile_checks_arguments_against_the_graph():
    g = son.parse_source("def h(n: int, x: float, a: IntArray):\n    return n + x + len(a)\n",
                         globals={"IntArray": corpus.IntArray})
    k = son.compile(g)
    assert isinstance(k, Kernel) and "h(" in repr(k)
    a = np.zeros(2, dtype=np.int64)
    assert k(1, 2, a) == 5.0  # an int where the graph takes a float is converted, as in Python
    assert k(np.int64(1), np.float64(0.5), a) == 3.5
    with pytest.raises(son.SonError, match="argument 'n' must be int"):
        k(1.5, 2.0, a)
    with pytest.raises(son.SonError, match="int64 array"):
        k(1, 2.0, np.zeros(2))
    with pytest.raises(son.SonError, match="takes 3 arguments"):
        k(1, 2.0)


def test_compile_refuses_an_untyped_graph():
    g = son.parse_source("def u(x):\n    return x + 1\n")
    with pytest.raises(son.SonError, match="argtypes"):
        son.compile(g)


# ====================================================================== the decorator
def test_decorator_forms_and_attributes():
    @son.jit
    def poly(x):
        return 3 * x * x + 1

    @son.jit(pipeline="peephole", boundscheck=False)
    def first(a):
        return a[0]

    with pytest.raises(son.SonError, match="not been called"):
        poly.graph  # noqa: B018
    assert poly(2) == 13 and poly(0.5) == 1.75
    assert len(poly.kernels) == 2  # one specialization per argument types
    assert poly.__name__ == "poly"
    assert isinstance(poly.graph, son.Graph) and poly.schedule.graph is poly.graph
    assert "def poly(x):" in poly.source
    keys = {"schedule_s", "codegen_s", "compile_s", "parse_s", "optimize_s", "nodes", "cache"}
    assert keys <= set(poly.stats)
    assert poly.stats["pipeline"] == son.driver.DEFAULT_PIPELINE
    assert first(np.array([4.0, 5.0])) == 4.0
    assert first.stats["pipeline"] == "peephole"


def test_pipeline_changes_the_kernel():
    """The optimistic pipeline proves x == 1 (so the multiply disappears); the
    pessimistic one cannot."""
    def alternating(a):
        x = 1
        s = 0.0
        for i in range(len(a)):
            s += a[i] * x
            x = 2 - x
        return s

    opt, pess = son.jit(alternating, pipeline="sccp"), son.jit(alternating, pipeline="peephole")
    a = np.array([1.0, 2.0, 4.0])
    assert opt(a) == pess(a) == 7.0
    assert "2 - " not in opt.source and "2 - " in pess.source


def test_kernel_cache_in_memory():
    g = son.parse_source("def sq(x: float):\n    return x * x\n")
    k1, k2 = son.compile(g), son.compile(g.copy())
    assert k2.stats["cache"] == "memory" and k2.dispatcher is k1.dispatcher
    assert k2(3.0) == 9.0



def _copy_second_to_first(xs):
    xs[0] = xs[1]


def _sum_first_two(a):
    return a[0] + a[1]


@pytest.mark.parametrize("fn, first, second", [
    (_copy_second_to_first, [1.5, 2.5], [1, 2]),
    (_copy_second_to_first, [1, 2], [True, False]),
    (_sum_first_two, np.array([1.5, 2.0]), np.array([1, 2])),
    (_sum_first_two, [1.5, 2.0], [1, 2]),
])
def test_one_kernel_text_for_two_signatures_keeps_each_signature(fn, first, second):
    # the two signatures generate the same module text: the memory cache must not hand
    # the second call the first one's kernel (numba converted the list of ints to floats
    # and reflected the floats back into the caller's list)
    for args in (first, second):
        want, got = copy.deepcopy(args), copy.deepcopy(args)
        r_want, r_got = fn(want), son.jit(fn)(got)
        assert _number_kind(r_got) == _number_kind(r_want) and r_got == r_want
        assert [_number_kind(x) for x in got] == [_number_kind(x) for x in want] and list(got) == list(want)


def _number_kind(v) -> str:
    """bool, int or float, numpy's scalars as Python's."""
    return "bool" if isinstance(v, (bool, np.bool_)) else "int" if isinstance(v, (int, np.integer)) else \
        "float" if isinstance(v, (float, np.floating)) else type(v).__name__

_CHILD = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {tests!r})
    import numpy as np
    import son
    from corpus import horner
    f = son.jit(horner)
    r = f(np.array([1.0, 2.0, 3.0]), 2.0)
    print(json.dumps({{"r": r, "cache": f.stats["cache"], "hits": f.stats["numba_cache_hits"]}}))
""")


def test_disk_cache_is_used_by_a_second_process(tmp_path):
    """The first process compiles; the second finds the module and Numba's cache."""
    env = dict(os.environ, SON_CACHE_DIR=str(tmp_path))
    code = _CHILD.format(tests=os.path.dirname(__file__))
    runs = []
    for _ in range(2):
        p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
        assert p.returncode == 0, p.stderr
        runs.append(json.loads(p.stdout.strip().splitlines()[-1]))
    first, second = runs
    assert first["r"] == second["r"] == 11.0  # ((1 * 2) + 2) * 2 + 3
    assert first["cache"] == "compiled" and first["hits"] == 0
    assert second["cache"] == "disk" and second["hits"] >= 1
    assert any(p.suffix == ".py" for p in tmp_path.iterdir())


def test_forget_kernels_reloads_from_disk():
    g = son.parse_source("def cube(x: int):\n    return x * x * x\n")
    son.compile(g)
    forget_kernels()
    k = son.compile(g)
    assert k.stats["cache"] == "disk" and k(3) == 27


def defaulted(x, n=3, s=0.5):
    return x * n + s


def test_keywords_and_defaults_bind_as_in_python():
    f = son.jit(add)
    assert f(1, y=2) == add(1, y=2) == 3
    g = son.jit(defaulted)
    for args, kw in [((1.5,), {}), ((1.5, 2), {}), ((1.5,), {"s": 2.0}), ((), {"x": 2, "n": 4})]:
        assert g(*args, **kw) == defaulted(*args, **kw)
    assert son.grad(defaulted)(1.5, s=2.0) == 3.0
    for bad in [((1.0, 2, 3.0, 4), {}), ((1.0,), {"q": 2}), ((), {})]:
        with pytest.raises(TypeError):
            g(*bad[0], **bad[1])


_DEPS_MODULE = '''
K = 2


def helper(x):
    return x * K


def f(x):
    return helper(x) + 1
'''


def _fresh_jit(fn):
    forget_kernels()
    j = son.jit(fn)
    return j


def test_index_skips_the_parse_and_sees_changed_globals_and_helpers(tmp_path, monkeypatch):
    """A kernel found by the index is reused only while every global and inlined helper
    the parse read is unchanged; a change recompiles."""
    import importlib.util

    monkeypatch.setattr(son, "debug", False)  # the index is off while the verifier is on

    src = tmp_path / "son_deps_mod.py"
    src.write_text(_DEPS_MODULE)
    spec = importlib.util.spec_from_file_location("son_deps_mod", src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    first = _fresh_jit(mod.f)
    assert first(3) == 7 and "index" not in first.stats
    again = _fresh_jit(mod.f)
    assert again(3) == 7 and again.stats["index"] and "def f(x):" in again.source
    assert isinstance(again.graph, son.Graph)  # rebuilt on demand
    mod.K = 5  # a changed global constant read by the inlined helper
    changed = _fresh_jit(mod.f)
    assert changed(3) == 16 and "index" not in changed.stats
    mod.K = 2.5  # same value class, different type: still a new kernel
    assert _fresh_jit(mod.f)(2) == 6.0
    mod.K = 2

    def other(x):
        return x - 1

    mod.helper = other  # a changed helper function
    swapped = _fresh_jit(mod.f)
    assert swapped(3) == 3 and "index" not in swapped.stats
    del mod.helper  # now undefined: the parse reports it, the index does not hide it
    forget_kernels()
    with pytest.raises(son.SonError, match="'helper' is not defined"):
        son.jit(mod.f, fallback="error")(3)
    with pytest.warns(son.FallbackWarning, match="'helper' is not defined"), pytest.raises(NameError):
        _fresh_jit(mod.f)(3)  # CPython's own error, where it meets the name


# ====================================================================== mixed int/float values
def total(a):
    s = 0
    for i in range(len(a)):
        s += a[i]  # a float array: s is the int 0 if the loop never runs, else a float
    return s


def test_accumulator_returns_int_zero_for_an_empty_array_and_a_float_otherwise():
    f = son.jit(total)
    for a in (np.zeros(0), np.array([1.5, 2.25]), np.array([-0.0]), np.array([math.inf, -math.inf])):
        for _ in range(2):  # the second call takes the fast dispatch path
            assert _outcome(f, (a,)) == run_python(total, (a,)), a
    assert type(f(np.zeros(0))) is int and type(f(np.ones(2))) is float
    assert "v" in f.source and "_f = False" in f.source  # held as tag and slots
    ints = son.jit(total)
    assert ints(np.arange(4)) == 6 and "_f" not in ints.source  # all ints: an ordinary variable


def at_mixed(a, n, flag):
    k = n
    if flag:
        k = 0.5
    return a[k]  # CPython: IndexError for the float index


def classify(n, x, flag):
    k = n if flag else x
    if k > 9007199254740992.0:  # 2**53: an int beyond it compares exactly
        return 2
    if k == 9007199254740992.0:
        return 1
    return -1 if k < -0.5 else 0


def test_mixed_value_as_an_index_and_in_exact_comparisons():
    f = son.jit(at_mixed)
    a = np.array([1.0, 2.0, 3.0])
    for args in ((a, 1, False), (a, -3, False), (a, 3, False), (a, 1, True), (a[:0], 0, True)):
        assert _outcome(f, args) == run_python(at_mixed, args), args
    g = son.jit(classify)
    big = 1 << 53
    for n in (big, big + 1, big - 1, -1, 0, (1 << 63) - 1):
        for x in (float(big), math.nan, -math.inf, -0.75):
            for flag in (False, True):
                assert _outcome(g, (n, x, flag)) == run_python(classify, (n, x, flag)), (n, x, flag)


def nested_mixed(a, m):
    s = 0
    for i in range(m):
        for j in range(len(a)):
            if a[j] < 0:
                break
            if j % 2:
                s += a[j]  # a float
            else:
                s = int(s) + i  # an int again
        if s > 50:
            break
    return s


def test_mixed_values_across_nested_loops_and_breaks():
    f = son.jit(nested_mixed)
    arrays = (np.zeros(0), np.array([1.0]), np.array([1.0, 2.5]), np.array([1.0, 2.5, 3.0, -1.0, 7.0]),
              np.array([4.0, 30.5, 1.0, 12.25]), np.array([-1.0, 3.0]))
    for a in arrays:
        for m in (0, 1, 3, 20):
            assert _outcome(f, (a, m)) == run_python(nested_mixed, (a, m)), (a, m)


def scaled(n, x, flag):
    s = n
    if flag:
        s = x
    return s * 4611686018427387904 + 1  # 2**62: the int path wraps in int64


def _wrap(v: int) -> int:
    return (v + (1 << 63)) % (1 << 64) - (1 << 63)


def test_int_path_of_a_mixed_value_wraps_like_int64():
    f = son.jit(scaled)
    g = son.parse(scaled, args=[1, 1.0, True])
    for n in (3, -3, 1, 0):
        assert f(n, 2.0, False) == _wrap(n * (1 << 62) + 1) == son.interpret(g, n, 2.0, False)
        assert type(f(n, 2.0, False)) is int
    assert f(3, 2.0, True) == scaled(3, 2.0, True) and type(f(3, 2.0, True)) is float


def reciprocals(x, flag):
    s = 0
    if flag:
        s = x
    return 1 / s + 7 // s + 7 % s


def test_division_by_a_mixed_zero_raises_on_both_paths():
    f = son.jit(reciprocals)
    for args in ((0.0, False), (0.0, True), (-0.0, True), (2.0, True), (-3.5, True), (math.inf, True)):
        assert _outcome(f, args) == run_python(reciprocals, args), args
    with pytest.raises(ZeroDivisionError):
        f(5.0, False)


def test_mixed_value_returned_alongside_others():
    """A graph returning three values (as derivative graphs do): the mixed ones come
    back as the Python int or float, position by position."""
    from son.nodes import Return

    g = son.parse(total, args=[np.zeros(1)])
    n = g.param(0)
    for i, r in enumerate(list(g.stop.inputs)):
        if type(r) is Return:
            length = son.nodes.ArrayLen(g, n)
            g.stop.set_input(i, Return(g, r.inputs[0], r.inputs[1], r.value, length, r.value))
    k = son.compile(g)
    assert "# son: mixed returns 3 at 0 2" in k.source
    for a in (np.zeros(0), np.array([0.5, 2.0])):
        got = k(a)
        want = (total(a), len(a), total(a))
        assert got == want and [isinstance(v, float) for v in got] == [isinstance(v, float) for v in want]


def test_kernel_found_by_the_index_converts_mixed_returns(tmp_path, monkeypatch):
    """A kernel the index reuses (no graph, no codegen in this process) learns from its
    source that it returns a mixed value."""
    import importlib.util

    monkeypatch.setattr(son, "debug", False)  # the index is off while the verifier is on
    src = tmp_path / "son_mixed_mod.py"
    src.write_text("def acc(a):\n    s = 0\n    for i in range(len(a)):\n        s += a[i]\n    return s\n")
    spec = importlib.util.spec_from_file_location("son_mixed_mod", src)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert _fresh_jit(mod.acc)(np.zeros(0)) == 0
    again = _fresh_jit(mod.acc)
    for a in (np.zeros(0), np.array([0.25, 0.5])):
        assert _outcome(again, (a,)) == run_python(mod.acc, (a,))
    assert again.stats["index"]


def positive_or_none(x: float):
    if x > 0:
        return x
    return None


def int_or_none(n):
    if n > 0:
        return n
    return None


@pytest.mark.parametrize("fn, args", [(positive_or_none, (1.5,)), (positive_or_none, (-1.5,)),
                                     (int_or_none, (3,)), (int_or_none, (-3,))])
def test_a_number_or_none_is_returned_by_kernels(fn, args):
    """A function that returns a number or None: a Return of each (the value that may
    be None is decided before the Return), and the kernel returns what CPython does."""
    argtypes = [type(a) for a in args]
    assert son.interpret(son.parse(fn, argtypes=argtypes), *args) == fn(*args)
    assert _outcome(son.jit(fn), args) == run_python(fn, args)


# ---------------------------------------------------------------------------------------------
# Fallback: what son cannot compile runs in CPython (fallback="function"), or raises ("error").

def uses_a_dict(n):
    d = {}
    for i in range(n):
        d[i] = i * i
    return sum(d.values())


def test_a_function_son_cannot_compile_runs_in_cpython_and_warns_once():
    f = son.jit(uses_a_dict, fallback="function")
    with pytest.warns(son.FallbackWarning, match=r"son.jit\(uses_a_dict\) runs in CPython .*test_jit.py:\d+"):
        assert f(4) == uses_a_dict(4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the same argument types: no second warning
        assert f(5) == uses_a_dict(5)
    (reason,) = f.fallbacks.values()
    assert "dict" in reason and not f.kernels


def exp_or_zero(x):
    d = {0: 1.0}
    return math.exp(x) * d[0]


def test_a_function_run_in_cpython_raises_its_own_overflow_error():
    """An OverflowError of the function itself is not taken for numba's refusal of an
    argument (which looked for a kernel there is none of: KeyError)."""
    f = son.jit(exp_or_zero, fallback="function")
    with pytest.warns(son.FallbackWarning):
        assert f(1.0) == math.exp(1.0)
    with pytest.raises(OverflowError):
        f(1000.0)


def transposed_product(a, b):
    return np.sum(a.T * b)  # numpy's result order is a's: son refuses it at run time


def transposed_product_into(a, out):
    out[0] = 1.0  # writes an argument before the refusal
    return np.sum(a.T * 2.0)


def local_work(a, n):
    t = np.zeros(n)
    t[0] = 2.0
    xs = [1.0]
    xs.append(a[0, 1])
    return np.sum(a.T * t[0]) + xs[-1]


def test_a_kernel_refusing_at_run_time_is_run_again_in_cpython_when_it_wrote_no_argument(monkeypatch):
    """NotImplementedError from a kernel (son's refusal where numpy's answer depends on
    what son does not model) runs the call in CPython, with one warning, where the
    kernel writes only memory it allocates; else, and with fallback="error", it raises."""
    a, b = np.arange(6.0).reshape(2, 3), np.arange(6.0).reshape(3, 2)
    f = son.jit(transposed_product)
    with pytest.warns(son.FallbackWarning, match="ran a call in CPython"):
        assert f(a, b) == transposed_product(a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert f(a, b) == transposed_product(a, b)
    with pytest.warns(son.FallbackWarning, match="ran a call in CPython"):
        assert son.jit(local_work)(a, 3) == local_work(a, 3)  # writes only its own array and list
    out = np.zeros(1)
    with pytest.raises(NotImplementedError, match="memory order"):
        son.jit(transposed_product_into)(a, out)
    with pytest.raises(NotImplementedError, match="memory order"):
        son.jit(transposed_product, fallback="error")(a, b)
    monkeypatch.setattr(son.config, "fallback", "error")
    with pytest.raises(NotImplementedError):
        son.jit(transposed_product)(a, b)


def powers(x, y, i, j):
    return x ** y + i ** j


@pytest.mark.parametrize("args", [(-2.5, 0.5, 2, 1), (-8.0, -1 / 3, 1, 2), (2.0, 2.0, 2, -1),
                                  (1.5, 2.0, -3, -2)],
                         ids=["complex", "complex_negative_exponent", "int_to_negative", "negatives"])
def test_powers_of_another_kind_are_refused_at_run_time_and_son_jit_gives_cpythons(args):
    """CPython's ``**`` gives a complex number (a negative float to a fractional power)
    or a float (an int to a negative int met at run time) where son's typed graph has a
    float or an int: son raises NotImplementedError, an exception CPython never raises
    (it raised ValueError before), and son.jit runs the call in CPython."""
    g = son.parse(powers, argtypes=[float, float, int, int])
    with pytest.raises(NotImplementedError, match="in CPython"):
        son.interpret(g, *args)
    with pytest.raises(NotImplementedError, match="in CPython"):
        son.compile(g)(*args)
    with pytest.warns(son.FallbackWarning, match="ran a call in CPython"):
        got = son.jit(powers)(*args)
    assert type(got) is type(powers(*args)) and got == powers(*args)
    assert son.jit(powers)(2.5, 0.5, 2, 3) == powers(2.5, 0.5, 2, 3)  # the kernel's own answer


class NegativeInput(ValueError):
    pass


def checked_total(a):
    for i in range(len(a)):
        if a[i] < 0.0:
            raise NegativeInput("negative")
        if a[i] > 1e9:
            raise np.linalg.LinAlgError("too large")
    return a.sum()


def test_kernels_raise_exception_classes_they_can_import():
    """numpy's LinAlgError, or a class at the top of the caller's module: the kernel
    imports it by name (its module is on disk, maybe loaded by another process)."""
    f = son.jit(checked_total, fallback="error")
    assert f(np.ones(3)) == 3.0
    with pytest.raises(NegativeInput, match="negative"):
        f(np.array([1.0, -1.0]))
    with pytest.raises(np.linalg.LinAlgError, match="too large"):
        f(np.array([2e9]))
    g = son.parse(checked_total, argtypes=["float64[]"])
    with pytest.raises(NegativeInput):
        son.interpret(g, np.array([-1.0]))

    class Local(Exception):
        pass

    def local_raise(x):
        if x > 0:
            raise Local("no")
        return x

    with pytest.raises(son.SonSyntaxError, match="import"):
        son.jit(local_raise, fallback="error")(1.0)


def test_fallback_error_raises_sons_located_error(monkeypatch):
    with pytest.raises(son.SonSyntaxError, match="dict"):
        son.jit(uses_a_dict, fallback="error")(3)
    monkeypatch.setattr(son.config, "fallback", "error")
    with pytest.raises(son.SonSyntaxError, match="dict"):
        son.jit(uses_a_dict)(3)
    with pytest.raises(son.SonError, match="fallback must be"):
        son.jit(uses_a_dict, fallback="regions")


def row_sums(a):
    return a.sum(axis=1)


def test_argument_types_son_does_not_take_fall_back_per_types():
    f = son.jit(row_sums)
    a3 = np.arange(24.0, dtype=np.float32).reshape(2, 3, 4)  # son has no float32 arrays
    with pytest.warns(son.FallbackWarning, match="float32"):
        np.testing.assert_array_equal(f(a3), row_sums(a3))
    assert len(f.fallbacks) == 1


def _tail_view(a):
    return a[1:]


def _every_other(a):
    return a[::2]


@pytest.mark.parametrize("fn", [_tail_view, _every_other])
@pytest.mark.parametrize("step", [-2, 2, -1, 3])
def test_a_returned_view_of_a_strided_argument_is_numpys(fn, step):
    """The result is rebuilt from the argument's own memory step: with the element size
    it read past the argument (a silent wrong answer, found by a helper on issue 19)."""
    x = np.arange(12.0)
    v = x[::step]
    want = fn(v).copy()
    for got in (son.interpret(son.parse(fn, args=(v,)), v), son.jit(fn, fallback="error")(v)):
        assert np.array_equal(got, want) and np.shares_memory(got, x)
        got[0] = -1.0  # a view of the caller's array, as numpy's
        assert np.flatnonzero(x == -1.0).size == 1
        x[x == -1.0] = want[0]
