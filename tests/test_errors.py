"""The frontend's error catalog: every construct outside son's Python subset
(DESIGN.md, "Frontend subset") raises ``SonSyntaxError`` -- never another
exception -- at the exact line and column of the offending AST node, naming the
construct.  Bad parameter types and example arguments raise ``SonError``.

Expected positions are counted by hand from the source text: ``lineno`` is
1-based, ``col`` is the 0-based ``col_offset`` Python's ``ast`` gives the node.
"""

from __future__ import annotations

import math
import re
import textwrap

import numpy as np
import pytest

import son
from son import SonError, SonSyntaxError

ROOT = __import__('pathlib').Path(__file__).resolve().parent.parent

FILE = "cat.py"
ARR = "float64[]"


def _src(text: str) -> str:
    """Dedent a triple-quoted source; its first line (``def ...``) is line 1."""
    return textwrap.dedent(text).lstrip("\n")


def _raises(thunk, line: int, col: int, construct: str, message: str, filename: str = FILE):
    """Run ``thunk``; it must raise exactly a SonSyntaxError at (line, col)."""
    try:
        thunk()
    except SonSyntaxError as e:
        err = e
    except BaseException as e:  # noqa: BLE001 - any other exception is the failure we test for
        pytest.fail(f"expected SonSyntaxError, got {type(e).__name__}: {e}")
    else:
        pytest.fail("expected SonSyntaxError, nothing was raised")
    assert (err.lineno, err.col) == (line, col), str(err)
    assert err.filename == filename
    assert err.construct is not None and construct in err.construct.lower(), err.construct
    assert message in err.message.lower(), err.message
    assert str(err) == f"{filename}:{line}:{col}: {err.message}"
    return err


# (id, source, argtypes, line, col, word in construct, word in message)
CATALOG = [
    ("try_except", """
        def f(a):
            x = a
            try:
                x = 1
            except ValueError:
                pass
            return x
        """, None, 3, 4, "try", "try statement"),
    ("with", """
        def f(a):
            with open("x") as h:
                pass
            return a
        """, None, 2, 4, "with", "with statement"),
    ("class_definition", """
        def f(a):
            class C:
                pass
            return a
        """, None, 2, 4, "class", "class definition"),
    ("closure_over_rebound_variable", """
        def f(a):
            k = a
            g = lambda y: y + k
            k = 2
            return g(1)
        """, None, 3, 8, "closure", "binds more than once"),
    ("yield_statement", """
        def f(a):
            yield a
        """, None, 2, 4, "yield", "yield"),
    ("yield_value", """
        def f(a):
            x = 1
            y = yield x
            return y
        """, None, 3, 8, "yield", "yield"),
    ("list_of_arrays", """
        def f(a):
            return [np.zeros(a) for i in range(a)]
        """, None, 2, 11, "in a list", "stack the arrays in a 2-d one"),
    ("dict_comprehension", """
        def f(a):
            d = {i: i for i in range(a)}
            return a
        """, None, 2, 8, "dict comprehension", "dict comprehension"),
    ("set_comprehension", """
        def f(a):
            if a > 0:
                s = {i * 2 for i in range(a)}
            return a
        """, None, 3, 12, "set comprehension", "set comprehension"),
    ("generator_expression", """
        def f(a):
            g = (i for i in range(a))
            return a
        """, None, 2, 8, "generator expression", "generator expression"),
    ("string_literal", """
        def f(a):
            s = "hello"
            return a
        """, None, 2, 8, "string", "string literal"),
    ("f_string", """
        def f(a):
            s = f"{a}!"
            return a
        """, None, 2, 8, "f-string", "f-string"),
    ("star_args", """
        def f(*args):
            return 0
        """, None, 1, 7, "parameters", "*args"),
    ("star_star_kwargs", """
        def f(a, **kw):
            return a
        """, None, 1, 11, "parameters", "**kwargs"),
    ("method_son_lacks_on_a_2d_array", """
        def f(n: int):
            z = np.zeros((n, n))
            return z.tolist()
        """, None, 3, 11, "z.tolist", "2-d array has no method tolist()"),
    ("helper_with_star_star_kwargs", """
        def h(a, **kw):
            return a
        def f(a):
            return h(a)
        """, None, 4, 11, "call", "**kwargs"),
    ("positional_only_parameter_by_keyword", """
        def h(a, /, b):
            return a + b
        def f(a):
            return h(a=a, b=1)
        """, None, 4, 11, "call", "positional-only"),
    ("global_statement", """
        G = 1
        def f(a):
            global G
            G = a
            return a
        """, None, 3, 4, "global", "global statement"),
    ("nested_recursive_function_as_a_value", """
        def f(a: int):
            def g(b):
                h = g
                return 0 if b <= 0 else h(b - 1)
            return g(a) + 1
        """, None, 3, 12, "recursion", "reads its own name other than to call it"),
    ("cycle_between_recursive_helpers", """
        def g(a):
            return 0 if a <= 0 else g(a - 2) + h(a - 1)

        def h(a):
            return 0 if a <= 0 else h(a - 2) + g(a - 1)

        def f(a):
            return g(a)
        """, None, 5, 39, "recursion", "does not link such cycles"),
    ("lambda_in_list_then_called", """
        def f(a):
            fs = [lambda x: x + 1]
            return fs[0](a)
        """, None, 2, 9, "list", "list"),
    ("lambda_returned", """
        def f(a):
            return lambda x: x + a
        """, None, 2, 4, "function", "a function in the function's result"),
    ("call_of_local_variable", """
        def f(a):
            g = a
            return g(1)
        """, None, 3, 11, "call", "is not a function"),
    ("call_of_parameter", """
        def f(a, b):
            return b + a(1)
        """, None, 2, 15, "call", "is not a function"),
    ("np_fft", """
        def f(a):
            return np.fft.fft(a)
        """, [ARR], 2, 11, "np.fft.fft", "np.fft.fft"),
    ("np_sum_with_an_initial_value", """
        def f(a):
            s = 0.0
            s += np.sum(a, initial=1.0)
            return s
        """, [ARR], 3, 9, "np.sum", "np.sum"),
    ("builtin_print", """
        def f(a):
            print(a)
            return a
        """, None, 2, 4, "print", "print"),
    ("builtin_frozenset", """
        def f(a):
            b = frozenset(a)
            return a[0]
        """, [ARR], 2, 8, "frozenset", "frozenset"),
    ("for_over_a_float", """
        def f(a):
            s = 0.0
            for x in a:
                s += x
            return s
        """, [float], 3, 13, "range", "for loop over a float value"),
    ("slice_of_a_number", """
        def f(a):
            b = a[1:3]
            return a[0]
        """, [float], 2, 10, "slice", "slice of a float value"),
    ("two_dimensional_index", """
        def f(a, i, j):
            return a[i, j]
        """, [ARR, int, int], 2, 11, "subscript", "too many indices"),
    ("is_comparison", """
        def f(a, b):
            if a is b:
                return 0
            return a
        """, None, 2, 7, "'is' between values other than none", "'is' between values other than none"),
    ("optional_and_tuple_merged", """
        def f(a, b):
            t = None
            if a > b:
                t = (a, (b, b))
            return t
        """, None, 5, 11, "variable", "variable 't' holds values of different types"),
    ("is_not_comparison", """
        def f(a, b):
            return a < b is not a
        """, None, 2, 11, "'is' between", "'is' between values other than none"),
    ("in_comparison", """
        def f(a, b):
            if a in b:
                return 1
            return 0
        """, [int, float], 2, 7, "'in' on a", "'in' on a float value"),
    ("walrus", """
        def f(a):
            if (y := a) > 0:
                return y
            return 0
        """, None, 2, 8, ":=", "assignment expression"),
    ("del_statement", """
        def f(a):
            x = a
            del x
            return a
        """, None, 3, 4, "del", "del statement"),
    ("import_statement", """
        def f(a):
            import os
            return a
        """, None, 2, 4, "import", "import statement"),
    ("import_from_statement", """
        def f(a):
            from math import sin
            return sin(a)
        """, None, 2, 4, "import", "import statement"),
    ("match_statement", """
        def f(a):
            match a:
                case 1:
                    return 1
            return 0
        """, None, 2, 4, "match", "match statement"),
    ("attribute_of_local_value", """
        def f(a):
            return a.numerator
        """, [float], 2, 11, "attribute", ".numerator"),
    ("attribute_of_attribute_of_local_value", """
        def f(a):
            x = 1
            return a.real.numerator + x
        """, [float], 3, 11, "attribute", "attribute .numerator of a float value"),
    ("tuple_used_as_a_number", """
        def f(a, b):
            t = (a, b)
            return t - 1
        """, None, 3, 11, "operator", "unsupported operand type(s) for -: tuple of 2 and int"),
    ("empty_tuple_returned", """
        def f(a, b):
            t = (a, b)
            return t[:0]
        """, None, 3, 4, "an empty tuple as the function's result", "an empty tuple as"),
    ("tuple_and_number_merged", """
        def f(a, b):
            t = (a, b)
            if a > b:
                t = a
            return t[0]
        """, None, 5, 11, "variable", "variable 't' holds values of different types"),
    ("tuple_changes_length_in_a_loop", """
        def f(a, n: int):
            t = (a,)
            for i in range(n):
                t = t + (a,)
            return t[0]
        """, None, 3, 4, "variable", "variable 't' is a tuple of 1 when the loop starts and a tuple of 2"),
    ("list_literal_of_two_kinds", """
        def f(a):
            xs = [1, (2, 3)]
            return a
        """, None, 2, 9, "list", "cannot put a tuple into a list[int]"),
    ("dict_literal", """
        def f(a):
            d = {1: a}
            return a
        """, None, 2, 8, "dict", "dict"),
    ("array_plus_tuple", """
        def f(a):
            return a + (1, 2)
        """, [ARR], 2, 11, "operator", "unsupported operand"),
    ("float_range_bound", """
        def f(a):
            s = 0
            for i in range(a):
                s += i
            return s
        """, [float], 3, 19, "int", "float"),
    ("float_array_index", """
        def f(a):
            return a[1.5]
        """, [ARR], 2, 13, "subscript", "float"),
    ("float_variable_array_index", """
        def f(a, x):
            a[x] = 1.0
            return a[0]
        """, [ARR, float], 2, 6, "subscript", "float"),
    ("subscript_of_number", """
        def f(a):
            return a[0]
        """, [int], 2, 11, "subscript", "subscript"),
    ("int_literal_beyond_int64", """
        def f(a):
            return a + 9223372036854775808
        """, None, 2, 15, "int literal", "int64"),
    ("matmul_operator", """
        def f(a, b):
            return a @ b
        """, None, 2, 11, "@", "@"),
    ("matmul_augmented", """
        def f(a, b):
            a @= b
            return a
        """, None, 2, 4, "@", "@"),
    ("starred_call", """
        def f(a):
            return abs(*a)
        """, None, 2, 15, "starred", "son unpacks tuples only"),
    ("complex_ordered", """
        def f(a):
            z = complex(a, 1.0)
            return z < 1
        """, None, 3, 11, "comparison", "not supported between complex numbers"),
    ("round_digits_inexact", """
        def f(a, n: int):
            z = float(a)
            return round(z, 30)
        """, None, 3, 11, "round() with ndigits", "exactly"),
    ("list_in_loop_of_the_last_of_two_defs", """
        def f(a):
            x = 1
            return a
        async def h(a):
            return await a
        def f(a):
            if a:
                pass
            while a > 0:
                a = a - 1
                x = [None]
            return a
        """, None, 11, 12, "list", "none"),
    ("return_arity_mismatch", """
        def f(a):
            if a > 0:
                return a, 1
            return a
        """, None, 4, 4, "return", "gives a single value but the return at line 3 gives a tuple of 2"),
    ("call_returning_tuple", """
        def g(a):
            return a, a

        def f(a):
            x = g(a)
            return x / 2
        """, None, 6, 11, "operator", "unsupported operand type(s) for /"),
    ("a_kind_that_differs_by_path", """
        def f(a, i: int):
            t = (a, 1.0)
            return t[i] + 1
        """, [ARR, int], 3, 11, "operator", "a value whose kind differs by path and int"),
    ("a_result_that_differs_by_path", """
        def f(i: int):
            t = ((1.0, 2.0), 3.0)
            return t[i]
        """, None, 3, 4, "different kinds", "values of different kinds on different paths"),
    ("python_syntax_error", """
        def f(a):
            x = (1, 2
            return a
        """, None, 2, 8, "syntax", "never closed"),
    ("indentation_error", """
        def f(a):
            x = 1
              y = 2
            return a
        """, None, 3, 5, "syntax", "indent"),  # CPython's offset 6, 1-based
]


@pytest.mark.parametrize("peephole", [True, False], ids=["peep", "raw"])
@pytest.mark.parametrize("case", CATALOG, ids=[c[0] for c in CATALOG])
def test_catalog_raises_son_syntax_error_at_the_construct(case, peephole):
    _id, text, argtypes, line, col, construct, message = case
    source = _src(text)
    _raises(lambda: son.parse_source(source, filename=FILE, argtypes=argtypes, peephole=peephole),
            line, col, construct, message)


def test_catalog_is_large_and_positions_are_inside_the_source():
    assert len(CATALOG) >= 30
    for _id, text, _a, line, col, construct, _m in CATALOG:
        lines = _src(text).splitlines()
        assert 1 <= line <= len(lines), _id
        assert 0 <= col < len(lines[line - 1]), _id
        if construct != "syntax":  # an AST node's position is on a token, never on indentation
            assert lines[line - 1][col] != " ", _id


# ---------------------------------------------------------------------------------------------
# Constructs CPython's compiler rejects although ``ast.parse`` accepts them: still son's error.

@pytest.mark.parametrize("text,line,col", [
    ("def f(a):\n    nonlocal a\n    return a\n", 2, 4),
    ("def f(a):\n    break\n", 2, 4),
    ("def f(a):\n    if a:\n        continue\n    return a\n", 3, 8),
], ids=["nonlocal_without_enclosing_function", "break_outside_loop", "continue_outside_loop"])
def test_compile_time_errors_are_son_syntax_errors(text, line, col):
    try:
        son.parse_source(text, filename=FILE)
    except SonSyntaxError as e:
        assert (e.filename, e.lineno, e.col) == (FILE, line, col), str(e)
    except BaseException as e:  # noqa: BLE001
        pytest.fail(f"expected SonSyntaxError, got {type(e).__name__}: {e}")
    else:
        pytest.fail("expected SonSyntaxError")


def test_no_function_in_source():
    _raises(lambda: son.parse_source("x = 1\n", filename=FILE), 1, 0, "function", "no function")


def test_named_function_missing():
    _raises(lambda: son.parse_source("def f(a):\n    return a\n", name="g", filename=FILE),
            1, 0, "function", "'g'")


# ---------------------------------------------------------------------------------------------
# Real functions in this file: positions are this file's line numbers and columns.

def _with_fn(a):
    x = a
    with open("x") as h:  # line +2, col 4
        x = h
    return x


def _nonlocal_outer():
    y = 1

    def inner(a):
        nonlocal y  # line +1 from inner's def, col 8
        y = a
        return a

    return inner


def _rec_ping(a):
    if a <= 0:
        return 0
    return _rec_pong(a - 1) + _rec_ping(a - 2)


def _rec_pong(a):
    return _rec_ping(a) + _rec_pong(a - 1)  # line +1, col 11


def _entry(a):
    return _rec_ping(a)


class _Holder:
    def method(self, a):
        s = 0
        for x in a:  # line +2, col 17 (the iterable)
            s += x
        return s

    @staticmethod
    def decorated(a):
        b = a
        return b[1:2]  # line +3 from the decorator, col 17 (the slice)

    def documented(a):
        """A docstring whose continuation line is
less indented than the method (textwrap.dedent cannot strip it)."""
        return a.numerator  # line +3, col 15


def _line(fn) -> int:
    return fn.__code__.co_firstlineno


def test_module_function_positions_are_file_positions():
    _raises(lambda: son.parse(_with_fn), _line(_with_fn) + 2, 4, "with", "with statement",
            filename=__file__)


def test_nonlocal_in_real_closure():
    inner = _nonlocal_outer()
    _raises(lambda: son.parse(inner), _line(inner) + 1, 8, "nonlocal", "nonlocal statement",
            filename=__file__)


def test_a_cycle_between_recursive_module_functions_points_at_the_call_that_closes_it():
    _raises(lambda: son.parse(_entry), _line(_rec_pong) + 1, 11, "recursion", "does not link such cycles",
            filename=__file__)


def test_indented_method_columns_are_file_columns():
    _raises(lambda: son.parse(_Holder.method, argtypes=[int, float]), _line(_Holder.method) + 2, 17,
            "range", "range", filename=__file__)


def test_decorated_method_line_counts_from_the_decorator():
    fn = _Holder.decorated
    assert _line(fn) == _line(_Holder.method) + 6  # co_firstlineno is the decorator's line
    _raises(lambda: son.parse(fn, argtypes=[float]), _line(fn) + 3, 17, "slice", "slice",
            filename=__file__)


def test_method_with_unindented_docstring_line():
    fn = _Holder.documented
    _raises(lambda: son.parse(fn, argtypes=[float]), _line(fn) + 3, 15, "attribute", ".numerator",
            filename=__file__)


def test_lambda_on_a_continuation_line():
    """A lambda compiles (son reads it from its file): an error in it is at its place in the
    file, on the line it is written on."""
    def thunk():
        return son.parse(
            lambda x: x[1:3], argtypes=[float])

    _raises(thunk, _line(test_lambda_on_a_continuation_line) + 5, 24, "slice", "slice of a float value",
            filename=__file__)


def test_lambda_on_its_own_line():
    fn = lambda x: x.numerator  # noqa: E731
    _raises(lambda: son.parse(fn, argtypes=[float]), _line(test_lambda_on_its_own_line) + 1, 19, "attribute",
            ".numerator", filename=__file__)


def test_builtin_function_is_not_parsed():
    with pytest.raises(SonSyntaxError):
        son.parse(len)


# ---------------------------------------------------------------------------------------------
# Bad parameter types and example arguments: SonError (the message says what son takes).

_TWO = "def f(a, b):\n    return a + b\n"


@pytest.mark.parametrize("kwargs,needle", [
    ({"argtypes": [int]}, "argtypes"),
    ({"argtypes": [int, int, int]}, "argtypes"),
    ({"argtypes": [str, int]}, "unsupported parameter type"),
    ({"argtypes": [int, "complex64"]}, "unknown type name"),
    ({"argtypes": {"a": int, "c": int}}, "unknown parameters"),
    ({"args": [1]}, "example arguments"),
    ({"args": [np.zeros((1, 1, 1, 1)), 1]}, "4-d"),
    ({"args": [np.zeros(3, dtype=np.float32), 1]}, "float32"),
    ({"args": ["x", 1]}, "str"),
    ({"args": [1, 2], "argtypes": [int, int]}, "not both"),
], ids=["too_few_argtypes", "too_many_argtypes", "str_argtype", "unknown_type_name",
        "argtypes_dict_unknown_name", "too_few_args", "four_dimensional_array_arg",
        "float32_array_arg", "str_arg", "args_and_argtypes"])
def test_bad_arguments_raise_son_error(kwargs, needle):
    with pytest.raises(SonError) as info:
        son.parse_source(_TWO, filename=FILE, **kwargs)
    assert needle in str(info.value).lower()


def test_bad_annotation_raises_son_error():
    text = "def f(a: str, b):\n    return b\n"
    with pytest.raises(SonError) as info:
        son.parse_source(text, filename=FILE)
    assert "str" in str(info.value)


def test_errors_are_son_errors_and_exceptions():
    assert issubclass(SonSyntaxError, SonError)
    assert issubclass(SonError, Exception)


def test_the_subset_still_parses_after_errors():
    """A failed parse leaves nothing behind that breaks the next one."""
    for _ in range(2):
        with pytest.raises(SonSyntaxError):
            son.parse_source("def f(a):\n    return {a}\n", filename=FILE)
    g = son.parse_source("def f(a, b):\n    return a * b + 1\n", filename=FILE)
    g.verify()
    assert son.interpret(g, 3, 4) == 13


# ---------------------------------------------------------------------------------------------
# Globals read as constants: an int outside int64 is refused as a literal is (it used to
# fold to its int64 wrap: ``K = 2**64 - 1; return K`` gave -1), so is a numpy scalar whose
# arithmetic is not son's.

BEYOND_INT64 = 2**64 - 1
BELOW_INT64 = -(2**63) - 1
FLOAT32_GLOBAL = np.float32(0.1)
UINT64_GLOBAL = np.uint64(5)
INT64_GLOBAL = np.int64(7)


def returns_beyond_int64():
    return BEYOND_INT64


def adds_below_int64(x: float):
    return x + BELOW_INT64


def scales_by_float32(x: float):
    return x * FLOAT32_GLOBAL


def reads_uint64():
    return UINT64_GLOBAL


@pytest.mark.parametrize("fn, name, col, needle", [
    (returns_beyond_int64, "BEYOND_INT64", 11, "outside int64"),
    (adds_below_int64, "BELOW_INT64", 15, "outside int64"),
    (scales_by_float32, "FLOAT32_GLOBAL", 15, "float32"),
    (reads_uint64, "UINT64_GLOBAL", 11, "uint64"),
], ids=["int_above", "int_below_in_an_expression", "np_float32", "np_uint64"])
def test_global_outside_sons_numbers_is_refused_where_it_is_read(fn, name, col, needle):
    line = fn.__code__.co_firstlineno + 1
    for stage in (lambda: son.parse(fn), lambda: son.parse(fn, peephole=False), lambda: son.jit(
            fn, fallback="error")(*([1.0] * fn.__code__.co_argcount))):
        with pytest.raises(SonSyntaxError) as info:
            stage()
        e = info.value
        assert (e.filename, e.lineno, e.col) == (__file__, line, col), str(e)
        assert name in str(e) and needle in str(e)


def test_global_int64_numpy_scalar_is_a_constant():
    def f():
        return INT64_GLOBAL + 1

    r = son.interpret(son.parse(f))
    assert r == 8 and type(r) is int


def fmod_of_ints(a: int, b: int):
    return np.fmod(a, b)


def floor_of_a_number(a):
    return np.floor(a) + 1.0


@pytest.mark.parametrize("fn, col", [(fmod_of_ints, 11), (floor_of_a_number, 11)])
def test_numpy_integer_loops_son_does_not_compute_are_refused_where_called(fn, col):
    """``np.fmod`` of ints is C's integer remainder and ``np.floor`` of a value that may
    be an int keeps its dtype: refused at the call, never a float that looks right."""
    line = fn.__code__.co_firstlineno + 1
    with pytest.raises(SonSyntaxError) as info:
        son.parse(fn)
    e = info.value
    assert (e.filename, e.lineno, e.col) == (__file__, line, col), str(e)
    assert "float(" in str(e)


def _unannotated(a):
    return len(a)


def test_an_array_operation_on_an_unannotated_parameter_says_what_to_write():
    with pytest.raises(SonSyntaxError, match="annotate 'a: np.ndarray'"):
        son.parse(_unannotated)
    assert son.interpret(son.parse(_unannotated, argtypes=["float64[]"]), np.zeros(3)) == 3


_ARRAY_USES = {"len": "len(x)", "subscript": "x[0]", "store": "x[0] = 1.0", "for": "for v in x: pass",
               "slice": "x[1:]", "shape": "x.shape", "method": "x.sum()", "sum": "sum(x)",
               "builtin_of_array": "np.sum(x) + len(x)"}


@pytest.mark.parametrize("use", list(_ARRAY_USES.values()), ids=list(_ARRAY_USES))
def test_every_array_use_of_an_unannotated_parameter_names_it_and_every_fix(use):
    text = f"def f(n, x):\n    {use}\n    return n\n"
    with pytest.raises(SonSyntaxError) as info:
        son.parse_source(text, filename="<hint>")
    m = info.value.message
    assert "x has no type" in m and "n has" not in m, m  # only the parameter the line reads
    for fix in ("'x: np.ndarray'", "argtypes=", "args=", "--argtypes x=f64[]"):
        assert fix in m, (fix, m)
    assert m.count("annotate") == 1, m  # one hint, not the generic one beside it
    son.parse_source(text, argtypes={"n": "int", "x": "float64[]"})  # the fix works


def test_an_annotated_parameter_gets_no_hint_about_annotations():
    with pytest.raises(SonSyntaxError) as info:
        son.parse_source("def f(x: float):\n    return len(x)\n")
    assert "annotate" not in info.value.message and "--argtypes" not in info.value.message


def test_the_readmes_saxpy_under_son_ir_says_how_to_type_its_arrays(capsys):
    from son.__main__ import main

    saxpy = f"{ROOT}/docs/examples.py:saxpy"
    assert main(["ir", saxpy]) == 2
    err = capsys.readouterr().err
    assert err.startswith("son: error: ") and "len() of a number value" in err and "--argtypes x=f64[]" in err
    assert main(["ir", saxpy, "--argtypes", "x=f64[],y=f64[]"]) == 0


def test_a_function_without_python_source_names_itself_without_a_position():
    with pytest.raises(SonSyntaxError) as e:
        son.parse(math.sin)
    m = str(e.value)
    assert m.startswith("math.sin is not a Python function") and "def f(x): return math.sin(x)" in m
    assert "no Python source" in m and "<unknown>" not in m and ":0:0" not in m
    with pytest.raises(SonSyntaxError, match="built into Python or a C extension"):
        son.parse(len)


def test_parsing_a_value_that_is_no_function_says_what_it_is():
    with pytest.raises(SonSyntaxError) as e:
        son.parse(5)
    assert str(e.value) == "son parses a Python function, not 5 (an int)"


@pytest.mark.parametrize("text, instead", [
    ("def f(n):\n    xs = {0: n}\n    return xs[0]\n", "arrays indexed by int keys"),
    ("def f(n):\n    return {i for i in range(n)}\n", "test membership"),
    ("def f(n):\n    try:\n        return 1 // n\n    except ZeroDivisionError:\n        return 0\n",
     "test before"),
    ("def f(n: int):\n    return len(range(n)[1:])\n", "write the range with the bounds"),
    ("def f(a: float):\n    return a @ a\n", "@ multiplies 1-D and 2-D arrays"),
    ("def f(a: int):\n    @staticmethod\n    def g(x):\n        return x\n    return g(a)\n", "without one"),
    ("def f(a: int):\n    def g(**kw):\n        return 1\n    return g(a=a)\n", "give it named parameters"),
    ("def f(a: int):\n    assert a > 0, a\n    return a\n", "write the message as one"),
    ("def f(a: int):\n    if a:\n        raise ValueError('x', a)\n    return a\n",
     "raise ValueError('the message')"),
    ("class E(Exception):\n    pass\n\ndef f(a: int):\n    if a:\n        raise E\n    return a\n",
     "such as ValueError"),
    ("def f(a: int, n: int):\n    t = (a,) * n\n    return len(t)\n", "use a list: [v] * n"),
    ("def f(a: float):\n    import math\n    return math.sin(a)\n", "import at module level"),
    ("def f(a: int):\n    return (b := a) + b\n", "on a line of its own"),
    ("def f(a: int):\n    match a:\n        case 1:\n            return 1\n    return 0\n", "if/elif"),
    ("def f(a: int):\n    f.x = a\n    return a\n", "son assigns to names"),
    ("def f(a: int):\n    xs = [1, 2]\n    ys = [*xs, a]\n    return len(ys)\n", "join lists with"),
    ("def f(a: complex):\n    return a.foo\n", ".real and .imag"),
    ("def f(a: int):\n    for t[0] in range(a):\n        pass\n    return a\n", "assign from it in the body"),
], ids=["dict", "set", "try", "range_slice", "matmul", "nested_decorator", "nested_kwargs", "assert_message",
        "raise_arguments", "raise_class", "tuple_times_n", "import", "walrus", "match",
        "attribute_assignment", "starred_list_item", "complex_attribute", "for_target"])
def test_an_unsupported_construct_says_what_to_write_instead(text, instead):
    with pytest.raises(SonSyntaxError, match=re.escape(instead)) as info:
        son.parse_source(text)
    assert info.value.message.startswith("unsupported construct: "), info.value.message
    assert instead not in (info.value.construct or ""), "the construct is its name only"
