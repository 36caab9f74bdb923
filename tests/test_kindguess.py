"""A loop's first guess at the kinds of the variables it binds before reading them
(son/frontend/kindguess.py): right guesses save whole parses of the loop, wrong ones
cost one more, and neither changes what the function computes."""

import ast
import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

import son
from son.frontend import loops
from son.frontend.kindguess import guess_kinds


class _Scope(dict):
    """Stands for a parse scope: no name is bound before the loop."""


def _guess(src: str, names) -> dict:
    body = ast.parse(src).body
    return guess_kinds(body, names, _Scope())


def test_guesses_floats_and_bools_from_the_syntax():
    src = ("x = 0.5\n"
           "r = x\n"
           "nr = 0.5 * (r + x / r)\n"
           "q = 3 / 4\n"
           "k = 0\n"
           "done = False\n"
           "m = math.sqrt(k)\n"
           "f = math.floor(x)\n"
           "s = k + k + k + x\n"
           "for j in range(3):\n"
           "    t = j / 2\n"
           "u = abs(-x)\n"
           "w = x if done else 1\n")
    names = ["x", "r", "nr", "q", "k", "done", "m", "f", "s", "j", "t", "u", "w"]
    assert _guess(src, names) == {"x": "float", "r": "float", "nr": "float", "q": "float", "done": "bool",
                                  "m": "float", "s": "float", "t": "float", "u": "float"}


def test_the_first_assignment_in_source_order_decides():
    src = ("if c:\n"
           "    y = 1\n"
           "else:\n"
           "    y = 2.5\n"
           "z = 2.5\n"
           "z = 1\n")
    assert _guess(src, ["y", "z"]) == {"z": "float"}


def _attempts(fn, *args) -> int:
    """How many times son's parse of ``fn`` parsed a loop body."""
    cls = next(c for c in vars(loops).values() if isinstance(c, type) and "_loop_once" in vars(c))
    seen = [0]
    orig = cls._loop_once

    def counted(self, *a, **k):
        seen[0] += 1
        return orig(self, *a, **k)

    mp = pytest.MonkeyPatch()
    mp.setattr(cls, "_loop_once", counted)
    try:
        son.parse(fn, args=args)
    finally:
        mp.undo()
    return seen[0]


def _benchmark_kernel(name: str):
    """A kernel of benchmarks/kernels.py, whose latency the parse adds to."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "kernels.py"
    spec = importlib.util.spec_from_file_location("son_benchmark_kernels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


@pytest.mark.parametrize("name", ["newton_sqrt", "bubble_sort"])
def test_each_loop_is_parsed_once(name):
    # two loops, each parsed once: the outer loop's floats (bools) are guessed right, so
    # neither it nor the loop inside it is parsed again under the right kinds
    assert _attempts(_benchmark_kernel(name), np.array([2.0, 9.0, 1.0])) == 2


def counts_up(n):
    for i in range(n):
        c = True  # guessed a bool; an int after the body: parsed again, same answer
        c += i
    return c


def float_then_int(n):
    total = 0
    for i in range(n):
        v = 0.5  # guessed a float; a float on every path: no second parse
        if i % 2:
            v = v * i
        total += int(v * 4)
    return total


def reads_before_binding(n):
    out = 0.0
    for i in range(n):
        if i > 0:
            out += prev  # noqa: F821 - bound by the previous iteration
        prev = i / 3  # noqa: F841 - read by the next iteration
    return out


@pytest.mark.parametrize("fn", [counts_up, float_then_int, reads_before_binding])
@pytest.mark.parametrize("n", [0, 1, 2, 7])
def test_guesses_right_or_wrong_agree_with_cpython(fn, n):
    try:
        want = fn(n)
    except Exception as e:  # noqa: BLE001 - the oracle's exception is the expectation
        with pytest.raises(type(e)):
            son.interpret(son.parse(fn, args=(n,)), n)
        with pytest.raises(type(e)):
            son.jit(fn)(n)
        return
    for got in (son.interpret(son.parse(fn, args=(n,)), n), son.jit(fn)(n)):
        assert type(got) is type(want) and (got == want or math.isnan(got) and math.isnan(want))
