"""Scale: generated functions far larger or deeper than hand-written code.

Each generated source is parsed with the peephole on and off, verified, run by
the interpreter and compared with CPython executing the same source.  All
values stay well inside int64 (masks), so CPython's big ints are an exact
oracle; floats only add and halve, so they are exact too.  Nothing here may
raise RecursionError: graph walks are iterative and the frontend recurses only
over the syntax tree, whose depth CPython bounds (< 100 indentation levels, 20
nested loops).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import son


def straight_line_source(n_stmts: int) -> str:
    """``n_stmts`` assignments in one block, chained through four variables and two params."""
    lines = ["def f(a, b):", "    x = a", "    y = b", "    z = a - b", "    t = 0.5"]
    for i in range(n_stmts - 4):
        k = i % 6
        if k == 0:
            lines.append(f"    x = (x * 3 + {i}) & 65535")
        elif k == 1:
            lines.append(f"    y = (y ^ x) + {i % 97} - b")
        elif k == 2:
            lines.append("    z = (z + x - y) & 1048575")
        elif k == 3:
            lines.append("    t = t * 0.5 + x")
        elif k == 4:
            lines.append(f"    y = (y + a * {i % 13}) & 262143")
        else:
            lines.append("    x = x ^ (z >> 3)")
    lines.append("    return x + y + z + t")
    return "\n".join(lines) + "\n"


def branches_and_loops_source(n_constructs: int) -> str:
    """``n_constructs`` sequential ``if``s, ``for`` loops and ``while`` loops."""
    lines = ["def f(a, b):", "    x = a & 4095", "    s = 0", "    t = 0"]
    for k in range(n_constructs):
        kind = k % 4
        if kind == 0:
            lines += [f"    if x > {k % 1000}:", f"        x = x - {k % 1000}"]
        elif kind == 1:
            lines += [f"    for i in range({1 + k % 3}):", f"        s = (s + x * i + {k}) & 65535"]
        elif kind == 2:
            lines += ["    t = 0", "    while t < b:", "        x = (x + t + 1) & 4095",
                      "        t = t + 1"]
        else:
            lines += [f"    if (s ^ {k}) & 1:", "        s = s + x", "    else:",
                      f"        x = (x * 3 + {k % 7}) & 4095"]
    lines.append("    return x * 100000 + s + t")
    return "\n".join(lines) + "\n"


def deep_nesting_source(depth: int, max_loops: int = 19) -> str:
    """One function whose blocks nest ``depth`` levels, at most ``max_loops`` of them loops.

    The innermost block turns int ``t`` into a float, so every enclosing loop's
    phi for ``t`` must widen (the parser re-parses each loop once).
    """
    lines = ["def f(a, b):", "    x = a & 1023", "    s = 0", "    t = 0"]
    loops = 0
    for level in range(1, depth):
        pad = "    " * level
        lines.append(f"{pad}x = (x * 3 + {level}) & 1023")
        if level % 4 == 0 and loops < max_loops:
            loops += 1
            if loops % 2:
                lines.append(f"{pad}for i{level} in range(b):")
            else:
                lines += [f"{pad}c{level} = 0", f"{pad}while c{level} < b:",
                          f"{pad}    c{level} = c{level} + 1"]
        elif level % 3 == 0:
            lines += [f"{pad}if x & 1:", f"{pad}    s = s + x", f"{pad}else:",
                      f"{pad}    s = s - {level}", f"{pad}if x > {level}:"]
        else:
            lines.append(f"{pad}if x != {level * 7 % 1000}:")
    pad = "    " * depth
    lines += [f"{pad}t = t + 0.5", f"{pad}s = (s + x) & 65535"]
    for level in range(depth - 1, 0, -1):
        lines.append("    " * level + f"x = x ^ {level}")
    lines.append("    return x * 100000 + s + t")
    return "\n".join(lines) + "\n"


def cpython(source: str):
    namespace = {"math": math, "np": np}
    exec(compile(source, "<scale>", "exec"), namespace)  # noqa: S102 - generated test source
    return namespace["f"]


def check(source: str, inputs, argtypes=(int, int)):
    """Parse with and without peephole; verify; interpret; compare with CPython."""
    expected = [cpython(source)(*args) for args in inputs]
    sizes = {}
    for peephole in (True, False):
        try:
            g = son.parse_source(source, peephole=peephole, argtypes=list(argtypes))
            g.verify()
            got = [son.interpret(g, *args) for args in inputs]
        except RecursionError as e:  # pragma: no cover - the failure this file guards against
            pytest.fail(f"RecursionError with peephole={peephole}: {e}")
        assert got == expected, f"peephole={peephole}"
        assert all(type(a) is type(b) for a, b in zip(got, expected, strict=True))
        sizes[peephole] = len(g)
    assert sizes[True] <= sizes[False]
    return sizes


INPUTS = [(7, 3), (-12345, 2), (1 << 40, 0)]


def test_generators_make_the_sizes_asked_for():
    assert straight_line_source(20_000).count("\n") == 20_000 + 2
    src = branches_and_loops_source(5_000)
    assert src.count("    if ") + src.count("    for ") + src.count("    while ") == 5_000
    deep = deep_nesting_source(90)
    indents = [len(line) - len(line.lstrip()) for line in deep.splitlines()]
    assert max(indents) // 4 == 90
    assert deep.count(" for ") + deep.count(" while ") == 19  # CPython allows 20 nested blocks


def test_straight_line_20000_statements():
    sizes = check(straight_line_source(20_000), INPUTS)
    assert sizes[False] > 20_000  # nothing folded away wholesale: the chain depends on a and b


def test_5000_sequential_ifs_and_loops():
    sizes = check(branches_and_loops_source(5_000), INPUTS)
    assert sizes[True] > 5_000


@pytest.mark.parametrize("inputs", [[(5, 1), (-7, 1), (3, 0)], [(2, 1), (1000, 0)]])
def test_function_nested_90_levels(inputs):
    sizes = check(deep_nesting_source(90), inputs)
    assert sizes[True] > 90


def test_deep_nesting_keeps_loops_as_loops():
    g = son.parse_source(deep_nesting_source(90), argtypes=[int, int])
    assert sum(type(n).__name__ == "Loop" for n in g.nodes()) == 19


def test_deep_chain_of_operators_in_one_expression():
    """``a + a + ... + a`` (2,000 terms): a left-leaning BinOp tree 2,000 levels deep.

    CPython's own compiler handles it; son must report it or parse it, never
    overflow the Python stack with a RecursionError."""
    source = "def f(a):\n    return " + " + ".join(["a"] * 2_000) + "\n"
    try:
        g = son.parse_source(source, argtypes=[int])
    except RecursionError as e:
        pytest.fail(f"RecursionError: {e}")
    except son.SonSyntaxError:
        return  # a clear refusal is acceptable
    assert son.interpret(g, 3) == cpython(source)(3)


def test_long_elif_chain():
    """``if/elif`` x 500 nests 500 ``If`` nodes in the AST (each elif is an orelse)."""
    lines = ["def f(a):"]
    for k in range(500):
        lines.append(f"    {'if' if k == 0 else 'elif'} a == {k}:")
        lines.append(f"        return {k * 3}")
    lines.append("    return -1")
    source = "\n".join(lines) + "\n"
    try:
        check(source, [(0,), (257,), (499,), (500,)], argtypes=(int,))
    except RecursionError as e:  # pragma: no cover
        pytest.fail(f"RecursionError: {e}")
