"""The fuzz generator's fallback regions (son/fuzz/fallbackgen.py) and the oracle's checks
of them (son/fuzz/regioncheck.py): printed text, exception messages and module globals
compared with CPython's, through every interpreter stage, the kernel and son.jit."""

from __future__ import annotations

import contextlib
import io

import pytest

import son
from son.fuzz import check, generate
from son.fuzz import generator as gen
from son.fuzz.regioncheck import expected, fallback_of
from son.nodes import opaque

SEED = 46125


def _region_programs(n: int, seed: int = SEED):
    out, i = [], 0
    while len(out) < n:
        p = generate(seed, i, grad=False)
        if fallback_of(p.source) == "region":
            out.append(p)
        i += 1
    return out, i


def test_generator_writes_regions_in_its_share_of_programs():
    n = 1200
    programs = [generate(SEED, i, grad=False) for i in range(n)]
    with_regions = [p for p in programs if fallback_of(p.source) == "region"]
    # REGION_SHARE of the indices, less the mixed-kind, unannotated and recursive programs
    assert 0.6 * gen.REGION_SHARE * n <= len(with_regions) <= 1.1 * gen.REGION_SHARE * n, len(with_regions)
    text = "\n".join(p.source for p in with_regions)
    for construct in ("print(", 'print(f"', "seen[", "last.get(", "try:", "except ZeroDivisionError",
                      "raise FuzzError(f", "global CALLS", "CALLS += 1", "len(str(", "cnt_py: int = ",
                      "assert ", "    return len(", " = vw"):
        assert construct in text, construct
    assert not any("print(" in p.source or "CALLS" in p.source for p in programs if p not in with_regions)


def test_programs_without_regions_do_not_change(monkeypatch):
    before = [generate(SEED, i, grad=False).source for i in range(80)]
    monkeypatch.setattr(gen, "REGION_SHARE", 0.0)
    after = [generate(SEED, i, grad=False).source for i in range(80)]
    changed = [i for i, (a, b) in enumerate(zip(before, after)) if a != b]
    assert changed and all(fallback_of(before[i]) == "region" for i in changed)


def test_oracle_agrees_with_cpython_on_generated_programs_with_regions():
    """60 programs with regions through CPython and every interpreter stage (prints,
    messages and the global counter compared); son refuses only with located errors."""
    programs, _ = _region_programs(60)
    status = {}
    for p in programs:
        r = check(p.source, p.args, kernel=False)
        assert not r.failed and r.status in ("ok", "refused"), (p.label, r.failures, p.source)
        if r.status == "refused":
            # a region son cannot compile, or a documented refusal where it runs (r.declined)
            assert "son refused a fallback region" in r.detail or r.declined, (p.label, r.detail)
        status[r.status] = status.get(r.status, 0) + 1
    assert status["ok"] >= 48, status


def test_oracle_compiles_programs_with_regions_as_kernels_and_with_son_jit():
    programs, _ = _region_programs(4, seed=7)
    for p in programs:
        r = check(p.source, p.args)
        assert r.status in ("ok", "refused") and not r.failures, (p.label, r.failures, p.source)
        if r.status == "ok":
            assert "kernel" in r.times and "jit" in r.times, r.times


PROGRAM = '''
SON_FALLBACK = "region"
CALLS = 0


class FuzzError(Exception):
    pass


def f(n: int, x: float):
    global CALLS
    CALLS += 1
    seen = {}
    total = 0
    for i in range(n):
        seen[i % 3] = seen.get(i % 3, 0) + 1
        total += i
    print(f"n={n} x={x:.3f}", total)
    try:
        q = x / n
    except ZeroDivisionError:
        q = -1.0
    if n == 7:
        raise FuzzError(f"seven: {x}")
    k: int = len(seen)
    return q + k + total
'''
ARGS = [(4, 1.5), (0, 2.0), (7, 0.25)]


def test_oracle_expects_prints_messages_and_globals_of_each_call():
    outcomes, _, effects = expected(PROGRAM, ARGS)
    assert effects.initial == {"SON_FALLBACK": "region", "CALLS": 0}
    ok, zero, raised = outcomes
    assert ok[0] == "ok" and ok[-2] == "n=4 x=1.500 6\n" and ("CALLS", ("int", 1)) in ok[-1]
    assert zero[-2] == "n=0 x=2.000 0\n"
    # each call starts from the module's state: the counter is 1 after every call
    assert raised[:3] == ("raise", "FuzzError", "seven: 0.25") and ("CALLS", ("int", 1)) in raised[-1]
    r = check(PROGRAM, ARGS)
    assert r.status == "ok", r.failures
    assert {"raw", "combined", "kernel", "jit"} <= set(r.times)


def _patched_regions(monkeypatch, change):
    """Every region the interpreter runs goes through ``change(run, key, values)``."""
    run = opaque.run_region
    monkeypatch.setattr(opaque, "run_region", lambda key, *values: change(run, key, values))


def test_oracle_catches_a_region_that_drops_its_print(monkeypatch):
    def silent(run, key, values):
        with contextlib.redirect_stdout(io.StringIO()):
            return run(key, *values)

    _patched_regions(monkeypatch, silent)
    r = check(PROGRAM, ARGS, kernel=False)
    assert r.status == "mismatch" and r.failures[0].stage == "raw", r.failures
    assert "n=4 x=1.500 6" in str(r.failures[0].expected) and "n=4" not in str(r.failures[0].got)


def test_oracle_catches_a_wrong_exception_message(monkeypatch):
    def reworded(run, key, values):
        try:
            return run(key, *values)
        except Exception as e:
            raise type(e)("another message") from None

    _patched_regions(monkeypatch, reworded)
    r = check(PROGRAM, ARGS, kernel=False)
    assert r.status == "mismatch" and r.failures[0].args_index == 2, r.failures
    assert "another message" in str(r.failures[0].got)


def test_oracle_catches_a_global_written_twice(monkeypatch):
    def twice(run, key, values):
        out = run(key, *values)
        if "CALLS" in opaque._REGISTRY[key].text:
            run(key, *values)
        return out

    _patched_regions(monkeypatch, twice)
    r = check(PROGRAM, ARGS, kernel=False)
    assert r.status == "mismatch" and r.failures[0].args_index == 0, r.failures
    assert ("CALLS", ("int", 2)) in r.failures[0].got[-1]


@pytest.mark.parametrize("body", ["    print(t)\n    return n",  # a value that may be None cannot cross
                                  "    u = {1: 2}.get(n, 0)\n    return u + n"])  # u: no kind
def test_regions_son_must_refuse_are_refusals(body):
    src = f'SON_FALLBACK = "region"\n\n\ndef f(n: int):\n    t = None if n > 2 else n\n{body}\n'
    r = check(src, [(1,), (3,)], kernel=False)
    assert r.status == "refused" and "son refused a fallback region" in r.detail, (r.status, r.detail)
    # without the marker the same program is a generator reject
    plain = check(src.replace('SON_FALLBACK = "region"', ""), [(1,)], kernel=False)
    assert plain.status == "reject"


def test_gradient_oracle_leaves_programs_with_regions_out():
    from son.fuzz.grad import check_grad

    g = check_grad(PROGRAM.replace("n: int, x: float", "x: float, n: int"), [(1.5, 3)])
    assert g.status == "skipped" and "fallback regions" in g.detail
    assert son.fuzz.oracle.STAGES[-1] == "jit"
