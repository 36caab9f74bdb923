"""Shared test setup: the verifier runs after every parse, and ``run_both``
runs one function under CPython and under son and returns comparable outcomes.

An outcome is a plain tuple, so two outcomes compare with ``==`` and pytest
prints a readable difference:

* ``("ok", value, arrays)`` — ``value`` is the canonical form of the return
  value and ``arrays`` the canonical forms of the array arguments after the
  call (writes must be visible to the caller);
* ``("raise", ExceptionType)`` — only the exception's type is compared.

Canonical forms (``canon``):

* floats compare exactly by bit pattern except for NaN: ``float.hex`` keeps
  ``-0.0`` apart from ``0.0`` and writes every NaN as ``'nan'`` (a NaN's sign
  and payload are not Python-visible semantics);
* ints and bools compare by value: ``True`` and ``1`` are the same outcome.
  A typed graph may carry a bool where CPython has an int (``p or x``); that
  is a difference only when the values differ.  Ints and floats are *not*
  interchangeable: ``0`` and ``0.0`` are different outcomes (CPython returns
  ``0`` from ``x = 0; for ...: x += 0.5`` when the loop does not run);
* numpy scalars count as the Python number they hold;
* arrays compare by dtype and element-wise canonical form (so NaN equals NaN
  and ``-0.0`` differs from ``0.0`` inside arrays too).
"""

from __future__ import annotations

import os

# Kernels are compiled at LLVM level 1 in the tests (numba reads NUMBA_OPT when it is
# imported, below): what a kernel computes does not depend on the level (no fast-math
# flags), and a test suite of a few thousand kernels spends most of its time in Numba
# (-25%: a kernel of many n-D reductions, 217 s at level 3, 161 s at 1).  The speed of
# kernels is measured in benchmarks/, at numba's default level.
os.environ.setdefault("NUMBA_OPT", "1")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

import son  # noqa: E402
from son.fuzz.arguments import fresh_copy  # noqa: E402 - a copy laid out as the argument is
from son.fuzz.oracle import canon  # noqa: F401 - one canonical value comparison, shared with the fuzzer

son.debug = True


@pytest.fixture(autouse=True, scope="session")
def _son_debug():
    """Keep the verifier on for the whole session (set at import too, for hypothesis)."""
    old = son.debug
    son.debug = True
    yield
    son.debug = old


@pytest.fixture(autouse=True, scope="session")
def _son_cache_dir(tmp_path_factory):
    """Kernels compiled by any test (subprocesses included: they inherit the
    environment) go to a temporary cache directory, never the user's."""
    import os

    old = os.environ.get("SON_CACHE_DIR")
    os.environ["SON_CACHE_DIR"] = str(tmp_path_factory.mktemp("son-cache"))
    yield
    if old is None:
        del os.environ["SON_CACHE_DIR"]
    else:
        os.environ["SON_CACHE_DIR"] = old


def copy_args(args) -> list:
    """Fresh copies of the array and list arguments, each array laid out as it was (a
    strided or transposed argument stays one)."""
    return [fresh_copy(a) if isinstance(a, np.ndarray) else a.copy() if isinstance(a, list) else a
            for a in args]


def _outcome(call, args):
    args = copy_args(args)
    try:
        value = call(*args)
    except son.SonError:
        raise  # son failing to run a graph is a bug, not an outcome: show the traceback
    except Exception as e:  # noqa: BLE001 - the exception type is the outcome
        return ("raise", type(e))
    arrays = tuple(canon(a) for a in args if isinstance(a, (np.ndarray, list)))  # changed in place
    return ("ok", canon(value), arrays)


def run_python(fn, args):
    """CPython's outcome of ``fn(*args)`` (numpy's IEEE warnings silenced)."""
    with np.errstate(all="ignore"):
        return _outcome(fn, args)


def run_son(graph, args):
    """son's outcome of interpreting ``graph`` on ``args``."""
    return _outcome(lambda *a: son.interpret(graph, *a), args)


def run_both(fn, args, graph=None, peephole: bool = True):
    """``(CPython outcome, son outcome)`` of ``fn`` on ``args``; each run gets its own
    copies of the array arguments.  ``graph`` defaults to ``son.parse(fn, peephole)``."""
    if graph is None:
        graph = son.parse(fn, peephole=peephole)
    return run_python(fn, args), run_son(graph, args)


STAGES = ("peephole", "sccp", "combined")


#: ``kernel`` for the tests whose kernel takes Numba minutes to compile (a function of
#: many n-D reductions): the default run checks every stage but the kernel, the slow
#: suite (``python -m pytest -m slow``) the kernel too
KERNEL_IN_SLOW = [pytest.param(False, id="stages"), pytest.param(True, id="kernel", marks=pytest.mark.slow)]

#: The default run's heaviest tests (measured with ``--durations``: each over 45 s on one
#: core of a 2-core machine, most of it Numba compiles and every stage's interpreter on
#: 50 examples of 3-D arrays) run in the slow suite instead, so that the default run stays
#: well inside CI's hour; what they check is checked there, by ``python -m pytest -m slow``.
#: A node id, or a test's name for all its parameters.
SLOW_BY_DURATION = {
    "tests/test_axis_reductions.py::test_int_means_variances_and_truths_over_an_axis_are_numpys[stages]",
    "tests/test_axis_reductions.py::test_numpys_1_d_functions_along_an_axis_are_numpys_in_every_stage[stages]",
    "tests/test_axis_reductions.py::test_float_sums_and_means_over_an_axis_of_a_3_d_array_are_numpys_bit_for_bit"
    "[stages]",
    "tests/test_fuzz_regions.py::test_oracle_agrees_with_cpython_on_generated_programs_with_regions",
    "tests/test_setops.py::test_union_intersection_and_difference_are_numpys[float64-int64]",
    "tests/test_cov_norm.py::test_the_kernel_agrees",
    "tests/test_ndarrays.py::test_gradients_of_n_d_arrays_have_their_shape[_assigned_views-shapes3-False]",
    "tests/test_arrayfns.py::test_every_stage_agrees_with_cpython[with_dtypes-float64[]-int64[]-bool[]]",
    "tests/test_ufuncs.py::test_whole_array_expressions_match_numpy_in_every_stage[reductions-float64[]]",
    "tests/test_solvers.py::test_solve_inv_det_agree_with_numpy_in_every_stage",
    "tests/test_fuzz.py::test_generator_makes_most_programs_gradient_comparable",
    "tests/test_fuzz.py::test_generator_writes_recursive_helpers_that_return_arrays",
    "tests/test_array_build.py::test_gradients_go_through_built_functions",
    "tests/test_array_build.py::test_trapezoid_is_numpys",
    "tests/test_tuple_lists.py::test_lists_of_tuples_agree_with_cpython_in_every_stage[sorting]",
    "tests/test_array_misc.py::test_nanvar_and_nanstd_are_numpys[bool[]]",
    "tests/test_scale.py::test_5000_sequential_ifs_and_loops",
    "tests/test_scale.py::test_straight_line_20000_statements",
    "tests/test_solvers.py::test_gradients_go_through_the_factorization",
    "tests/test_grad_calls.py::test_tangents_follow_the_writes_of_a_recursive_sort",
    "tests/test_unique_split.py::test_unique_of_an_nd_array_is_numpys_of_its_elements[float64]",
    "tests/test_slices.py::test_constant_bounds_take_numpys_values_for_every_length",
    "tests/test_axis_reductions.py::test_diff_of_order_n_is_diff_applied_n_times",
    "tests/test_axis_reductions.py::test_the_kernel_keeps_every_axis_too",
    "tests/test_array_more.py::test_percentile_and_quantile_of_an_array_of_q_are_numpys",
    "tests/test_axes.py::test_reductions_keep_their_axis_where_asked",
}


def pytest_collection_modifyitems(config, items):
    """Mark ``SLOW_BY_DURATION``'s tests slow (before ``-m`` deselects)."""
    for item in items:
        if item.nodeid in SLOW_BY_DURATION or item.nodeid.split("[")[0] in SLOW_BY_DURATION:
            item.add_marker(pytest.mark.slow)


def check_every_stage(fn, argtypes, strategy, max_examples: int = 40, expected=run_python, adjust=None,
                      kernel: bool = True):
    """Hypothesis: on every input ``strategy`` draws, the interpreter on the graph of each
    named pipeline and of the raw parse, and ``son.jit``'s kernel (unless not
    ``kernel``), give ``expected``'s outcome (CPython's by default; None skips the
    input); ``adjust`` rewrites an input first.  ``argtypes`` as ``son.parse`` takes them."""
    from hypothesis import given, settings

    graphs = {p: son.optimize(son.parse(fn, argtypes=argtypes), p)[0] for p in STAGES}
    graphs["none"] = son.parse(fn, argtypes=argtypes, peephole=False)
    compiled = son.jit(fn, fallback="error") if kernel else None  # the kernel itself, not a fallback

    @settings(max_examples=max_examples, deadline=None)
    @given(strategy)
    def check(args):
        if adjust is not None:
            args = adjust(args)
        want = expected(fn, args)
        if want is None:
            return
        for name, g in graphs.items():
            assert run_both(fn, args, graph=g)[1] == want, name
        if compiled is not None:
            assert run_python(compiled, args) == want, "kernel"

    check()


def check_stages(fn, argtypes, strategy, max_examples: int = 8, expected=run_python):
    """``check_every_stage`` without the kernel: the interpreter on the raw parse and on
    each named pipeline's graph.  Compiling a kernel of long inlined loops takes numba 20 s
    or more, so a test module checks its kernels once, on one function gathering them."""
    from hypothesis import given, settings

    graphs = {p: son.optimize(son.parse(fn, argtypes=argtypes), p)[0] for p in STAGES}
    graphs["none"] = son.parse(fn, argtypes=argtypes, peephole=False)

    @settings(max_examples=max_examples, deadline=None)
    @given(strategy)
    def check(args):
        want = expected(fn, args)
        for name, g in graphs.items():
            assert run_both(fn, args, graph=g)[1] == want, name

    check()


def function_from_text(tmp_path, text: str, name: str = "f"):
    """Function ``name`` of module source ``text`` (numpy imported as np), written to a
    file under ``tmp_path`` so that son can read its source."""
    path = tmp_path / "case.py"
    path.write_text("import numpy as np\n\n\n" + text)
    ns: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), ns)  # noqa: S102 - the test's own source
    return ns[name]


def finite_differences(f, args, k, h=1e-6):
    """Central differences of ``f(*args)`` in argument ``k`` (a number or an array: one
    per element, in its shape)."""
    a = args[k]
    if not isinstance(a, np.ndarray):
        return (f(*args[:k], a + h, *args[k + 1:]) - f(*args[:k], a - h, *args[k + 1:])) / (2 * h)
    out = np.zeros_like(a)
    for idx in np.ndindex(a.shape):
        up, down = a.copy(), a.copy()
        up[idx] += h
        down[idx] -= h
        out[idx] = (f(*args[:k], up, *args[k + 1:]) - f(*args[:k], down, *args[k + 1:])) / (2 * h)
    return out


def check_reverse_against_forward(fn, a: np.ndarray, w: float) -> None:
    """``son.grad`` of ``fn(a, w)`` in both arguments equals ``son.jvp``'s directional
    derivatives, one unit tangent at a time (to 12 digits)."""
    grad_a, grad_w = son.grad(fn, argnums=(0, 1))(a.copy(), w)
    for k in range(a.size):
        tangent = np.zeros_like(a)
        tangent.flat[k] = 1.0
        assert grad_a.flat[k] == pytest.approx(son.jvp(fn)((a.copy(), w), (tangent, 0.0))[1], rel=1e-12)
    assert grad_w == pytest.approx(son.jvp(fn)((a.copy(), w), (np.zeros_like(a), 1.0))[1], rel=1e-12)
