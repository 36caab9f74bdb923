"""The generator's recursive helpers that return arrays (a mixin of
``son.fuzz.arraygen.ArrayPrograms``, issue 19): son compiles them as graphs of their own
whose ``Call`` gives the array back (son/frontend/recursion.py).

In a share ``RECURSIVE_ARRAY_SHARE`` of the programs whose ``f`` has a float64 or int64
array (a parameter or ``m0``) and that are neither mixed-kind, unannotated nor
recursive themselves, a module helper ``ra0(a, n)`` is written before ``f``, and ``f``
binds ``rv0 = ra0(arr, k)`` (``k`` the array's length, a small literal or an int
variable of any size: every form bounds its depth by ``len(a)`` or a small constant)
and sometimes writes through ``rv0``.  ``rv0`` joins ``f``'s arrays (in ``arr``'s group:
every form keeps the length), so later statements read, update and return it.  The
forms: ``fresh`` (a cumulative combination into ``np.zeros``), ``argument`` (``a``
changed in place and returned: ``rv0`` *is* ``arr``, and the oracle sees the writes
through either name), ``mixed`` (a fresh array on some paths, ``a`` on others) and
``merge`` (a merge sort of the halves, views or copies, into ``np.empty``, or their
``np.concatenate``) and ``swap`` (the ends swapped through a view the recursive call is
given, strided or reversed, the caller seeing the writes; a copy returned); the forms
that return a view of their argument: ``turn`` (``a`` changed and given on reversed or
whole, the view returned), ``turn mixed`` (``mixed`` whose base case is a view: a fresh
array meets a view) and ``tail`` (``a[1:]`` of the turned argument, one shorter: ``rv0``
in the group of ``arr[1:]``), and ``grid`` (``rb0`` given ``a`` as a 2-D view of one row,
turned, written and passed on turned, or made fresh: 2-D views as arguments and
results, ``ra0`` returning the row of the result).  Every form is sometimes given
``arr[::-1]``, a view, and then ``rv0`` may be a view of it written through.  Int arrays
combine with ``^`` and ``|`` (no wrap-around).

The draws come from a stream of their own, seeded by the main stream's state without
consuming it, so a program without the helper is exactly what it was before.  O(1).
"""

from __future__ import annotations

import random

from .gradgen import Func

#: the share of the eligible programs that get a recursive helper returning an array
RECURSIVE_ARRAY_SHARE = 0.5

_FRESH = """def ra0(a, n):
    if n <= 0 or n > len(a):
        return np.zeros(len(a){dts})
    out = ra0(a, n - 1)
    out[n - 1] = a[n - 1] {op} (out[n - 2] if n > 1 else {zero})
    return out
"""
_ARGUMENT = """def ra0(a, n):
    if n <= 0 or n > len(a):
        return a
    a[n - 1] = a[n - 1] {op} {k}
    return ra0(a, n - 1)
"""
_MIXED = """def ra0(a, n):
    if n <= 0:
        return a
    if n % 3 == 0 or n > 6:
        return a {new}
    r = ra0(a, n - 1)
    if len(r) > 0:
        r[0] = r[0] {op} {k}
    return r
"""
_MERGE = """def ra0(a, n):
    if len(a) <= 1 or n <= 0:
        return a.copy()
    m = len(a) // 2
    lo = ra0(a[:m]{cp}, n - 1)
    hi = ra0(a[m:]{cp}, n - 1)
    out = np.empty(len(a){dts})
    i = 0
    j = 0
    while i + j < len(a):
        if j >= len(hi) or (i < len(lo) and lo[i] <= hi[j]):
            out[i + j] = lo[i]
            i += 1
        else:
            out[i + j] = hi[j]
            j += 1
    return out
"""
_CONCATENATE = """def ra0(a, n):
    if len(a) <= 1 or n <= 0:
        return a.copy()
    m = len(a) // 2
    return np.concatenate((ra0(a[m:]{cp}, n - 1), ra0(a[:m]{cp}, n - 1)))
"""
_SWAP = """def ra0(a, n):
    if len(a) < 2 or n <= 0:
        return a.copy()
    a[0], a[-1] = a[-1], a[0] {op} {k}
    ra0(a{view}, n - 1)
    return a.copy()
"""
_TURN = """def ra0(a, n):
    if n <= 0 or len(a) == 0:
        return a
    a[0] = a[0] {op} {k}
    return ra0(a{turn}, n - 1)
"""
_TURN_MIXED = """def ra0(a, n):
    if n <= 0:
        return a{turn}
    if n % 3 == 0 or n > 6:
        return a {new}
    r = ra0(a, n - 1)
    if len(r) > 0:
        r[-1] = r[-1] {op} {k}
    return r
"""
_TAIL = """def ra0(a, n):
    if n <= 0 or len(a) <= 1:
        return a[1:]
    a[-1] = a[-1] {op} {k}
    return ra0(a{turn}, n - 1)
"""
_GRID = """def rb0(m, n):
    if n <= 0 or m.shape[1] == 0:
        return m
    if n % 4 == 3:
        return m {new}
    m[0, -1] = m[0, -1] {op} {k}
    return rb0(m{gturn}, n - 1)


def ra0(a, n):
    return rb0(a.reshape(1, -1){gturn0}, n)[0]
"""
_FORMS = {"fresh": _FRESH, "argument": _ARGUMENT, "mixed": _MIXED, "merge": _MERGE,
          "concatenate": _CONCATENATE, "swap": _SWAP, "turn": _TURN, "turn mixed": _TURN_MIXED,
          "tail": _TAIL, "grid": _GRID}
#: the views a recursive call passes (``{cp}`` empty, ``{view}``), and the views of all of
#: ``a`` that a view form returns or passes (``{turn}``)
_VIEWS = ["[1:-1]", "[1:]", "[::2]", "[::-1][1:]", "[-2::-3]"]
_TURNS = ["[::-1]", "[:]", "[::-1][::-1]"]
#: the same for the 2-D view of one row that ``grid`` passes (``{gturn}``, ``{gturn0}``)
_GRID_TURNS = ["[:, ::-1]", ".T.T", "[::-1, ::-1]", "[:, :]"]
#: by dtype: the combining operators, the constants, ``zero`` and a new array of ``a``
_DTYPES = {"float64": (["+", "-", "*"], ["0.5", "-1.25", "3.0"], "0.0", ["* 2.0", "+ 0.5", "* -1.0"], ""),
           "int64": (["^", "|"], ["1", "6", "-3"], "0", ["* 1", "| 2", "^ 5"], ", dtype=np.int64")}


class RecursiveArrays:
    """``ra0`` and its call (``rng`` and the flags are the generator's)."""

    #: the text of ``ra0`` where this program has it, written before ``f``
    array_helpers = ""

    def recursive_array(self, fn: Func) -> list[str]:
        """Maybe (module docstring) write ``ra0`` and return ``f``'s lines that call it."""
        r = random.Random(f"son-fuzz-recarray:{self.rng.getstate()[1][:8]}")
        eligible = [(a, dt) for a, dt in fn.arrays if dt in _DTYPES and (a[0] in "ab" or a == "m0")]
        if not eligible or self.mixed or self.untyped or self.recursive \
                or r.random() >= RECURSIVE_ARRAY_SHARE:
            return []
        arr, dt = r.choice(eligible)
        ops, constants, zero, news, dts = _DTYPES[dt]
        form = r.choice(list(_FORMS))
        self.array_helpers = _FORMS[form].format(dts=dts, op=r.choice(ops), zero=zero, k=r.choice(constants),
                                                 new=r.choice(news), view=r.choice(_VIEWS),
                                                 cp=r.choice(["", ".copy()"]), turn=r.choice(_TURNS),
                                                 gturn=r.choice(_GRID_TURNS),
                                                 gturn0=r.choice(_GRID_TURNS + [""])) + "\n\n"
        depth = [f"len({arr})", str(r.randint(0, 4))] + fn.vars["int"][:2]
        given = f"{arr}[::-1]" if r.random() < 0.4 else arr  # as long as arr
        out = [f"rv0 = ra0({given}, {r.choice(depth)})"]
        if r.random() < 0.6:  # a write through the result: into arr too where rv0 is arr
            out += ["if len(rv0) > 1:", "    rv0[0] = rv0[-1]"]
        fn.arrays.append(("rv0", dt))
        self.result_group = ("rv0", self.group_of(arr) + ("-1" if form == "tail" else ""))
        return out
