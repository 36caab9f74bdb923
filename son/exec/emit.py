"""The EMIT table: how each node class is written in a generated kernel.

``EMIT`` maps a node class to an ``Emit`` entry whose ``role`` says how the node
appears in the code ('expr': a value written as an expression, 'stmt': a
statement, 'alloc': a value always kept in a variable, 'literal', 'param', 'phi'
(assigned by the moves on the edges into its block), 'control' (the structurer's
business, ``structure.py``), 'none' (no code: memory tokens, dead control)).
Every expression has exactly son's semantics (``eval`` of the node class,
DESIGN.md "Semantics"); where numba alone differs the template says so
(``INT64_MIN // -1``, shift counts of 64 and more, ``~True``, ``float(bool)``,
``np.floor`` of an int, ``math.fmod``, ``float ** int``, an int64 compared with a
float beyond 2**53, a float stored into an int64 array, ``int / int`` with an
operand beyond 2**53, which CPython rounds once and numba three times).  Where
plain numba has no exact equivalent, the template calls one of the ``HELPERS``
(``_int_truediv``, ``_hypot``, ``_store_int64``, ``_tape_grow``), written into
the kernel's module before it.  Also here: the ``literal`` of a constant as
numba types it, and the parenthesization of operand texts.

The templates read two facts about the function being generated, held in
``EMIT_STATE`` (a ``threading.local``: functions may be generated on several
threads at once): ``kinds``, the run-time kind of each value the lattice types
'number' (found by ``mixed.MixedValues.refine_kinds``; an int-or-bool is an int;
while one case of a mixed operand is written, the kind of that case), and
``helpers``, the names of the ``HELPERS`` its code calls.  ``codegen.generate``
sets them and resets them after.  This is the lowest module of the code
generator: it imports none of the others.

Costs: a template is O(1) (O(arguments) for a math call); ``literal`` and the
parenthesization are linear in the text.
"""

from __future__ import annotations

import inspect
import math
import operator
import re
import threading
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..errors import SonError
from ..nodes import (
    EQ,
    GE,
    GT,
    LE,
    LT,
    MATH_NODES,
    NE,
    ULT,
    Abs,
    Add,
    ArrayLen,
    BitAnd,
    BitOr,
    BitXor,
    Call,
    CallMem,
    CallOut,
    Constant,
    CProj,
    Div,
    FloorDiv,
    GradVia,
    IEEEDiv,
    IEEEPow,
    If,
    Invert,
    IsFinite,
    IsFloat,
    IsInf,
    IsNan,
    ListLen,
    ListOp,
    Load,
    Loop,
    MathCall,
    MathError,
    Max,
    Min,
    Mod,
    Mul,
    Neg,
    Never,
    NewArray,
    NewList,
    Node,
    Not,
    OutOfBounds,
    Overlaps,
    PairwiseSum,
    Phi,
    Pow,
    Proj,
    PyOut,
    PyRegion,
    PyRegionMem,
    Raise,
    Refine,
    Region,
    Return,
    Shl,
    Shr,
    Start,
    Stop,
    Store,
    Sub,
    ToBool,
    ToFloat,
    ToInt,
    XCtrl,
    ZMul,
)
from ..nodes.memory import TapeGrow
from ..nodes.pairwise import block_sum, pairwise_blocks, pairwise_sum
from ..nodes.types import INT64_MIN, ArrayType, bounds
from .hypot import HYPOT as _HYPOT
from .scratch import FILL_HELPER, hoisted_array, scratch_array


# ====================================================================== the table
@dataclass(frozen=True)
class Emit:
    """How one node class appears in the generated code.

    ``fn(n, ops)`` writes the expression (role 'expr'/'alloc') or statement
    ('stmt') of node ``n`` from the texts ``ops`` of ``n.inputs[1:]``.
    ``atoms`` lists the operand positions (indices into ``ops``) the text uses
    more than once: those operands are never inlined expressions.
    """

    role: str
    fn: Callable[[Node, list[str]], str] | None = None
    atoms: tuple[int, ...] | Callable[[Node], tuple[int, ...]] = ()

    def atoms_of(self, n: Node) -> tuple[int, ...]:
        return self.atoms(n) if callable(self.atoms) else self.atoms


#: what the templates read about the function being generated on this thread: ``kinds``
#: (node -> run-time kind of a 'number' value, ``mixed.MixedValues.refine_kinds``) and
#: ``helpers`` (names of the HELPERS its code calls); see the module docstring
EMIT_STATE = threading.local()


def _callee(n: Node) -> str:
    """The function a ``Call`` calls: the one being written, or a module graph's."""
    return EMIT_STATE.fname if n.target is None else EMIT_STATE.callees[n.target]


def _depth_argument() -> list[str]:
    """The depth a call passes on: none in the copy that a proven bound frees of counting
    (codegen's ``recursion_bound``)."""
    return [] if getattr(EMIT_STATE, "uncounted", False) else ["_depth + 1"]


def _kind(n: Node) -> str | None:
    """The run-time kind of ``n``: its type's kind, or for a value the lattice calls
    'number' the kind found by ``refine_kinds`` (an int-or-bool is an int)."""
    k = n.type.kind
    if k == "number":
        return EMIT_STATE.kinds.get(n, k)
    return k


def _as_int(n: Node, text: str) -> str:
    """Bools count as ints in arithmetic (numba's ``~True`` is ``False``)."""
    return f"int({text})" if _kind(n) == "bool" else text


def _as_float(n: Node, text: str) -> str:
    """A float operand (numba has no ``float(bool)``)."""
    k = _kind(n)
    return text if k == "float" else f"float(int({text}))" if k == "bool" else f"float({text})"


def _binop(symbol: str) -> Callable[[Node, list[str]], str]:
    def fn(n: Node, ops: list[str]) -> str:
        a, b = n.inputs[1], n.inputs[2]
        return f"{_as_int(a, ops[0])} {symbol} {_as_int(b, ops[1])}"

    return fn


def _bitop(symbol: str) -> Callable[[Node, list[str]], str]:
    """``&``, ``|``, ``^``: bool with bool stays bool, anything else is int arithmetic."""

    def fn(n: Node, ops: list[str]) -> str:
        a, b = n.inputs[1], n.inputs[2]
        if _kind(a) == "bool" and _kind(b) == "bool":
            return f"{ops[0]} {symbol} {ops[1]}"
        return f"{_as_int(a, ops[0])} {symbol} {_as_int(b, ops[1])}"

    return fn


_MIRROR = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
_TWO63 = "9223372036854775808.0"


def _int_float_compare(symbol: str, i: str, f: str) -> str:
    """``i symbol f`` for an int64 ``i`` and a float ``f``, exactly as Python compares.

    ``float(i)`` rounds, but monotonically: when it differs from ``f`` it orders
    like ``i``; when equal, ``f`` is an integer in [-2**63, 2**63] and the ints
    decide (2**63 itself is above every int64)."""
    d = f"float({i})"
    if symbol in ("<", "<="):
        return f"{d} < {f} or ({d} == {f} and ({f} >= {_TWO63} or {i} {symbol} int({f})))"
    if symbol in (">", ">="):
        return f"{d} > {f} or ({d} == {f} and {f} < {_TWO63} and {i} {symbol} int({f}))"
    eq = f"{d} == {f} and {f} < {_TWO63} and {i} == int({f})"
    return eq if symbol == "==" else f"not ({eq})"


def _exact_float(n: Node) -> str | None:
    """The float literal of an int constant that a float represents exactly."""
    c = _const(n)
    if type(c) is int and abs(c) <= 1 << 53:
        return literal(float(c))
    return None


def _compare(symbol: str) -> Callable[[Node, list[str]], str]:
    """Comparisons; an int64 against a float compares exactly, as Python does (numba
    rounds the int to a float first: ``2**53 + 1 == 2.0**53`` would be true)."""

    def fn(n: Node, ops: list[str]) -> str:
        a, b = n.inputs[1], n.inputs[2]
        ka, kb = _kind(a), _kind(b)
        if ka == "int" and kb == "float":
            exact = _exact_float(a)
            return f"{exact} {symbol} {ops[1]}" if exact else _int_float_compare(symbol, ops[0], ops[1])
        if ka == "float" and kb == "int":
            exact = _exact_float(b)
            if exact:
                return f"{ops[0]} {symbol} {exact}"
            return _int_float_compare(_MIRROR[symbol], ops[1], ops[0])
        if ka == "bool" and kb == "bool":
            return f"{ops[0]} {symbol} {ops[1]}"
        return f"{_as_int(a, ops[0])} {symbol} {_as_int(b, ops[1])}"

    return fn


def _compare_atoms(n: Node) -> tuple[int, ...]:
    """A mixed int/float comparison reads both operands several times."""
    kinds = {_kind(n.inputs[1]), _kind(n.inputs[2])}
    return (0, 1) if kinds == {"int", "float"} else ()


# ---------------------------------------------------------------- helper functions
#: functions a kernel may call, written into its module before it (only those used)


#: numpy's float sum, compiled from the very source the frontend inlines (son/nodes/pairwise.py)
_PAIRWISE = {f.__name__: inspect.getsource(f) for f in (pairwise_sum, pairwise_blocks, block_sum)}


def _pairwise_sum(n: Node, ops: list[str]) -> str:
    for h in ("block_sum", "pairwise_blocks"):
        _helper(h)
    return f"{_helper('pairwise_sum')}({ops[1]}[{ops[2]}::{ops[3]}][:{ops[4]}])"


HELPERS = {
    **_PAIRWISE,
    "_son_fill": FILL_HELPER,
    "_tape_grow": '''
def _tape_grow(a, n):
    if n < len(a):
        return a
    b = np.empty(max(2 * len(a) + 16, n + 1), dtype=a.dtype)
    b[:len(a)] = a
    return b
''',
    "_int_truediv": '''
def _int_truediv(a, b):
    """int / int correctly rounded, as CPython divides ints: float(a) / float(b) rounds
    twice once an operand is beyond 2**53.  Beyond it, the quotient of the magnitudes
    is developed in uint64 to 54 bits plus a sticky bit and rounded half to even."""
    if a == 0 or (-9007199254740992 <= a <= 9007199254740992 and -9007199254740992 <= b <= 9007199254740992):
        return a / b  # both exact as floats: one rounding (a zero keeps the divisor's sign)
    one, zero = np.uint64(1), np.uint64(0)
    big, top = np.uint64(9007199254740992), np.uint64(18014398509481984)
    x = np.uint64(a) if a >= 0 else np.uint64(-a)  # -INT64_MIN wraps to 2**63 as a uint64
    y = np.uint64(b) if b >= 0 else np.uint64(-b)
    m = x // y
    r = x - m * y
    e = 0
    sticky = False
    while m >= top:
        sticky |= (m & one) != zero
        m >>= one
        e += 1
    while m < big:
        r <<= one
        m <<= one
        if r >= y:
            r -= y
            m |= one
        e -= 1
    sticky |= r != zero
    guard = (m & one) != zero
    m >>= one
    if guard and (sticky or (m & one) != zero):
        m += one
    q = float(m) * 2.0 ** (e + 1)
    return -q if (a < 0) != (b < 0) else q
''',
    "_hypot": _HYPOT,
    "_int_pow": '''
def _int_pow(a, b):
    """a ** b of int64s wrapping around (b >= 0: the graph guards it), by squaring.
    numba's own int ** int switches to float pow for b > 65536."""
    r = 1
    while b > 0:
        if b & 1:
            r *= a
        a *= a
        b >>= 1
    return r
''',
    "_overlaps": '''
def _overlaps(a, b):
    """numpy's may_share_memory of two arrays: their byte ranges meet."""
    if a.size == 0 or b.size == 0:
        return False
    return a.ctypes.data < b.ctypes.data + b.nbytes and b.ctypes.data < a.ctypes.data + a.nbytes
''',
    "_store_int64": '''
def _store_int64(v):
    """A float stored into an int64 array, as numpy does it: NaN and values outside int64 raise."""
    if v != v:
        raise ValueError("cannot convert float NaN to integer")
    if not -9223372036854775808.0 <= v < 9223372036854775808.0:
        raise OverflowError("float does not fit in an int64 array element")
    return int(v)
''',
}


def _helper(name: str) -> str:
    EMIT_STATE.helpers.add(name)
    return name


def _region(n: Node) -> str:
    """The name of the helper that runs fallback region ``n`` (son/exec/pyregions.py)."""
    name = f"_son_region_{n.code.key}"
    EMIT_STATE.regions[name] = n
    return name


def _const(n: Node):
    t = n.type
    return t.con if t.is_constant and t.kind is not None else None


def _zmul(n: Node, ops: list[str]) -> str:
    """A partial times a derivative, an exact zero absorbing the other factor (``ZMul``);
    only the partial is tested on the common path (a loop-invariant partial's test is
    hoisted, and the derivative's loop-carried chain carries no test)."""
    p, d = _as_float(n.inputs[1], ops[0]), _as_float(n.inputs[2], ops[1])
    return f"({p} * {d} if math.isfinite({p}) and {p} != 0 else (0.0 if {p} == 0 or {d} == 0 else {p} * {d}))"


def _truediv(n: Node, ops: list[str]) -> str:
    """``/``; two ints are divided by ``_int_truediv`` (CPython rounds their quotient
    once, where numba's ``float(a) / float(b)`` rounds three times)."""
    a, b = n.inputs[1], n.inputs[2]
    if _kind(a) == "int" and _kind(b) == "int":
        return f"{_helper('_int_truediv')}({ops[0]}, {ops[1]})"
    return _binop("/")(n, ops)


def _floordiv(n: Node, ops: list[str]) -> str:
    """Python's floor division; for ints numba gives 0 for ``INT64_MIN // -1`` where
    son (int64 wrap-around) gives INT64_MIN, so a divisor that may be -1 is tested."""
    a, b = n.inputs[1], n.inputs[2]
    x, y = _as_int(a, ops[0]), _as_int(b, ops[1])
    if _kind(n) != "int":
        return f"{x} // {y}"
    c = _const(b)
    if c is not None and c != -1:
        return f"{x} // {y}"
    # -INT64_MIN wraps to itself; written as a negated literal, CPython's constant folder
    # makes it 2**63, which numba types as a float (found by son.fuzz)
    neg = x if _const(a) == INT64_MIN else f"-{x}"
    if c == -1:
        return neg
    return f"({x} // {y} if {y} != -1 else {neg})"


def _pow(n: Node, ops: list[str]) -> str:
    """Ints: wrap-around power (the graph guards negative exponents), by squaring in
    ``_int_pow`` unless the exponent is a constant numba squares by itself (numba's
    ``int ** int`` takes a float ``pow`` for an exponent above 65536: ``(-1) ** (2**53 + 1)``
    was 1, and ``3 ** 65537`` INT64_MIN, in kernels where CPython gives -1 and son's
    interpreter the wrapped value; son.fuzz's ``big_power`` draws them).  Floats: both
    operands as floats, so that numba calls ``pow`` as CPython does (numba's
    ``float ** int`` multiplies repeatedly and can differ in the last bit), and a
    constant operand through ``opaque`` (son.exec.numba_ext), so that LLVM does
    not rewrite ``pow(x, 2.0)`` as ``x * x`` (correctly rounded, where the C library's
    ``pow`` that CPython calls is not always)."""
    a, b = n.inputs[1], n.inputs[2]
    if _kind(n) == "int":
        c = _const(b)
        if c is not None and 0 <= c <= 0x10000:  # numba squares too up to there (inline)
            return f"{_as_int(a, ops[0])} ** {_as_int(b, ops[1])}"
        return f"{_helper('_int_pow')}({_as_int(a, ops[0])}, {_as_int(b, ops[1])})"
    return _float_pow(n, ops)


def _unsigned(x) -> int:
    """numba's intrinsic ``unsigned`` in CPython: an int's 64-bit pattern read unsigned."""
    return operator.index(x) & 0xFFFF_FFFF_FFFF_FFFF


#: the globals generated source needs when CPython itself runs it (tests do): numba's
#: intrinsic ``opaque`` is, outside a kernel, the identity on a float, ``negate`` is ``-x``
#: and ``unsigned`` the bits of an int read unsigned (an index the lattice proves
#: non-negative is itself)
PYTHON_GLOBALS = {"math": math, "np": np, "opaque": float, "negate": operator.neg, "unsigned": _unsigned}


def _float_pow(n: Node, ops: list[str]) -> str:
    """``a ** b`` on floats as the C library's ``pow`` computes it, a constant operand
    hidden from LLVM's rewrites (see ``_pow``)."""
    a, b = n.inputs[1], n.inputs[2]
    x, y = _as_float(a, ops[0]), _as_float(b, ops[1])
    x = f"opaque({_strip(literal(float(_const(a))))})" if _const(a) is not None else x
    y = f"opaque({_strip(literal(float(_const(b))))})" if _const(b) is not None else y
    return f"{x} ** {y}"


def _neg(n: Node, ops: list[str]) -> str:
    """``-x``: an int as is, anything else through the intrinsic ``negate``
    (son.exec.numba_ext), which flips a NaN's sign as CPython does."""
    if _kind(n) in ("int", "bool"):
        return f"-{_as_int(n.inputs[1], ops[0])}"
    return f"negate({_strip(ops[0])})"


def _shl(n: Node, ops: list[str]) -> str:
    """``a << b`` for 0 <= b (guarded): counts of 64 and more give 0 (LLVM: poison).  A
    negative count gives 0 too: the graph raises there, but a fused guard may compute the
    shift before its test (``(b < 0) | ((a << b) ...)``), and a negative count is
    undefined behaviour in LLVM (a kernel crashed: son.fuzz seed 6125 i4756)."""
    x, y = _as_int(n.inputs[1], ops[0]), _as_int(n.inputs[2], ops[1])
    c = _const(n.inputs[2])
    if c is not None:
        return "0" if c >= 64 or c < 0 else f"{x} << {y}"
    return f"({x} << {y} if 0 <= {y} < 64 else 0)"


def _shr(n: Node, ops: list[str]) -> str:
    """``a >> b``: an arithmetic shift by 63 already gives Python's 0 or -1.  A negative
    count (guarded by the graph, but maybe computed early by a fused guard: see
    ``_shl``) shifts by 63, never by an undefined amount."""
    x, y = _as_int(n.inputs[1], ops[0]), _as_int(n.inputs[2], ops[1])
    c = _const(n.inputs[2])
    if c is not None:
        return f"{x} >> {min(int(c), 63) if c >= 0 else 63}"
    return f"{x} >> ({y} if 0 <= {y} < 63 else 63)"


def _unary(template: str, cast: Callable[[Node, str], str] | None = None) -> Callable[[Node, list[str]], str]:
    def fn(n: Node, ops: list[str]) -> str:
        x = cast(n.inputs[1], ops[0]) if cast else ops[0]
        return template.format(_strip(x) if template.endswith("({})") else x)

    return fn


def _float_predicate(name: str, for_ints: str) -> Callable[[Node, list[str]], str]:
    def fn(n: Node, ops: list[str]) -> str:
        if _kind(n.inputs[1]) in ("int", "bool"):
            return for_ints
        return f"math.{name}({ops[0]})"

    return fn


#: math functions numba lacks or types differently: written with numpy's equivalent, which
#: numba computes with the same C function (numba's np.cbrt is libm's cbrt, as math.cbrt)
_MATH_ALIASES = {"fmod": "np.fmod", "cbrt": "np.cbrt"}
#: math functions CPython computes with its own algorithm instead of libm's (which numba
#: calls): written with a port of CPython's, in HELPERS
_MATH_HELPERS = {"hypot": "_hypot"}


def _math_call(n: Node, ops: list[str]) -> str:
    """The library function the user called (``math.exp`` or ``np.exp``: they may
    round differently), on float arguments (numba's ``np.floor(int)`` is an int);
    CPython's own algorithm where it does not call libm (``math.hypot``)."""
    if not n.np and n.math_name in _MATH_HELPERS:
        name = _helper(_MATH_HELPERS[n.math_name])
    else:
        name = f"np.{n.np_name}" if n.np else _MATH_ALIASES.get(n.math_name, f"math.{n.math_name}")
    args = ", ".join(_as_float(x, t) for x, t in zip(n.inputs[1:], ops))
    return f"{name}({args})"


def _isnan(x: Node, text: str) -> str:
    return "False" if _kind(x) in ("int", "bool") else f"math.isnan({text})"


def _isfinite(x: Node, text: str) -> str:
    return "True" if _kind(x) in ("int", "bool") else f"math.isfinite({text})"


def _math_error(n: Node, ops: list[str]) -> str:
    """CPython's rule: NaN from non-NaN arguments is a domain error, an infinity from
    finite arguments a range error (bitwise ``&``/``|`` on bools: no branches)."""
    r, xs = ops[0], list(zip(n.inputs[2:], ops[1:]))
    domain = f"math.isnan({r})"
    if xs:
        tests = [_isnan(x, t) for x, t in xs]
        domain += f" & (not {tests[0]})" if len(tests) == 1 else " & (not (" + " | ".join(tests) + "))"
    rng = f"math.isinf({r})"
    if xs:
        rng += " & " + " & ".join(_isfinite(x, t) for x, t in xs)
    if n.which == "domain":
        return domain
    if n.which == "range":
        return rng
    return f"({domain}) | ({rng})"


def _minmax(name: str) -> Callable[[Node, list[str]], str]:
    """Python's ``min``/``max`` of two (numba keeps the argument order for NaN and -0.0)."""

    def fn(n: Node, ops: list[str]) -> str:
        a, b = n.inputs[1], n.inputs[2]
        if _kind(n) == "int":  # an int and a bool: the value is what counts
            return f"{name}({_as_int(a, ops[0])}, {_as_int(b, ops[1])})"
        return f"{name}({ops[0]}, {ops[1]})"

    return fn


def _index(n: Node, op: str) -> str:
    """An array index as numba should read it: numba wraps a negative index once, as
    Python does, with a test per access that also keeps LLVM from vectorizing a loop;
    an index the lattice proves non-negative (a view's ``start + k * step``, a counter)
    is passed unsigned, which numba reads without that test."""
    b = bounds(n.type)
    if b is not None and b[0] >= 0 and not n.type.is_constant:
        return f"unsigned({_strip(op)})"
    return op


def _load(n: Node, ops: list[str]) -> str:
    return f"{ops[1]}[{_index(n.inputs[3], ops[2])}]"


def _store(n: Node, ops: list[str]) -> str:
    """``a[i] = v``; a float into an int64 array is checked as numpy checks it (numba
    would store INT64_MIN for NaN)."""
    arr, v = n.inputs[2].type, n.inputs[4]
    value = ops[3]
    if isinstance(arr, ArrayType) and arr.dtype == "int64" and _kind(v) == "float":
        value = f"{_helper('_store_int64')}({_strip(value)})"
    return f"{ops[1]}[{_index(n.inputs[3], ops[2])}] = {_strip(value)}"


_NP_DTYPE = {"float64": "np.float64", "int64": "np.int64", "bool": "np.bool_"}


def _new_array(n: Node, ops: list[str]) -> str:
    length = _as_int(n.inputs[1], ops[0])
    return (hoisted_array(n, EMIT_STATE) or scratch_array(n, length, EMIT_STATE)
            or f"np.{n.fill}({length}, dtype={_NP_DTYPE[n.dtype]})")


def _new_list(n: Node, ops: list[str]) -> str:
    """``[value] * length``, the value cast so numba types the list as son does (an
    empty list's element type comes from it too)."""
    if not isinstance(n.dtype, str):  # a list of lists: the row object, repeated
        return f"[{ops[1]}] * {_as_int(n.inputs[1], ops[0])}"
    cast = "bool" if n.dtype == "bool" else _NP_DTYPE[n.dtype]
    return f"[{cast}({_strip(ops[1])})] * {_as_int(n.inputs[1], ops[0])}"


def _list_op(n: Node, ops: list[str]) -> str:
    if n.method == "sort_reverse":
        return f"{ops[1]}.sort(reverse=True)"
    if n.method == "grow":  # k copies of a value appended (reverse mode's undoing of a clear)
        return f"{ops[1]}.extend([{_strip(ops[3])}] * {_strip(ops[2])})"
    return f"{ops[1]}.{n.method}({', '.join(_strip(o) for o in ops[2:])})"


def _out_of_bounds(n: Node, ops: list[str]) -> str:
    """``not (-length <= index < length)``, branch-free; ``index >= length`` where the
    lattice proves the index non-negative (a length is too): one compare less to run and
    for numba to compile."""
    i, m = ops[0], ops[1]
    b = bounds(n.inputs[1].type)
    if b is not None and b[0] >= 0:
        return f"{i} >= {m}"
    return f"({i} >= {m}) | ({i} < -{m})"


def _is_float(n: Node, ops: list[str]) -> str:
    k = _kind(n.inputs[1])
    if k in ("int", "bool", "float"):
        return "True" if k == "float" else "False"
    raise SonError(f"{n!r}: the kind of {n.inputs[1]!r} is unknown at compile time (int or float); "
                   "give the parameter a type (son.jit does this from the call's arguments)")


_CONTROL = Emit("control")

#: node class -> how it is written; see ``Emit``.  One entry per class that can reach
#: code generation (tests/test_codegen.py checks that no class is missing).
EMIT: dict[type, Emit] = {
    # control: the structurer writes these
    Start: _CONTROL, CProj: _CONTROL, Region: _CONTROL, Loop: _CONTROL, If: _CONTROL,
    Return: _CONTROL, Raise: _CONTROL, Stop: _CONTROL,
    XCtrl: Emit("none"),
    Phi: Emit("phi"),
    Constant: Emit("literal"),
    Proj: Emit("param"),
    # arithmetic
    Add: Emit("expr", _binop("+")),
    Sub: Emit("expr", _binop("-")),
    Mul: Emit("expr", _binop("*")),
    Div: Emit("expr", _truediv),
    FloorDiv: Emit("expr", _floordiv, atoms=(0, 1)),
    Mod: Emit("expr", _binop("%")),  # numba: INT64_MIN % -1 == 0, as son
    Pow: Emit("expr", _pow),
    # derivative rules' total arithmetic: kernels use error_model="numpy", so float `/` and
    # `**` already give inf/nan where Python raises
    IEEEDiv: Emit("expr", lambda n, ops: f"{_as_float(n.inputs[1], ops[0])} / "
                                         f"{_as_float(n.inputs[2], ops[1])}"),
    IEEEPow: Emit("expr", lambda n, ops: _float_pow(n, ops)),
    # a partial times an adjoint or tangent: an exact zero derivative absorbs inf and nan
    ZMul: Emit("expr", _zmul, atoms=(0, 1)),
    Neg: Emit("expr", _neg),
    BitAnd: Emit("expr", _bitop("&")),
    BitOr: Emit("expr", _bitop("|")),
    BitXor: Emit("expr", _bitop("^")),
    Shl: Emit("expr", _shl, atoms=(1,)),
    Shr: Emit("expr", _shr, atoms=(1,)),
    Invert: Emit("expr", _unary("~{}", _as_int)),
    EQ: Emit("expr", _compare("=="), atoms=_compare_atoms),
    NE: Emit("expr", _compare("!="), atoms=_compare_atoms),
    LT: Emit("expr", _compare("<"), atoms=_compare_atoms),
    LE: Emit("expr", _compare("<="), atoms=_compare_atoms),
    GT: Emit("expr", _compare(">"), atoms=_compare_atoms),
    GE: Emit("expr", _compare(">="), atoms=_compare_atoms),
    ULT: Emit("expr", lambda n, ops: f"unsigned({_strip(ops[0])}) < unsigned({_strip(ops[1])})"),
    Not: Emit("expr", _unary("not {}")),
    # casts
    ToFloat: Emit("expr", lambda n, ops: _as_float(n.inputs[1], ops[0])),
    ToInt: Emit("expr", _unary("int({})")),
    ToBool: Emit("expr", _unary("bool({})")),
    IsFloat: Emit("expr", _is_float),
    # math
    MathError: Emit("expr", _math_error, atoms=(0, 1, 2, 3)),
    IsNan: Emit("expr", _float_predicate("isnan", "False")),
    IsInf: Emit("expr", _float_predicate("isinf", "False")),
    IsFinite: Emit("expr", _float_predicate("isfinite", "True")),
    Abs: Emit("expr", _unary("abs({})", _as_int)),
    Min: Emit("expr", _minmax("min")),
    Max: Emit("expr", _minmax("max")),
    # memory
    Call: Emit("alloc", lambda n, ops: f"{_callee(n)}({', '.join(ops[1:] + _depth_argument())})"),
    CallMem: Emit("none"),
    CallOut: Emit("expr", lambda n, ops: f"{ops[0]}[{n.index}]"),
    # a fallback region: a helper that runs it in numba's object mode (region_helper)
    PyRegion: Emit("alloc", lambda n, ops: f"{_region(n)}({', '.join(_strip(o) for o in ops[1:])})"),
    PyRegionMem: Emit("none"),
    PyOut: Emit("expr", lambda n, ops: f"{ops[0]}[{n.index}]"),
    Load: Emit("expr", _load),
    Store: Emit("stmt", _store),
    NewArray: Emit("alloc", _new_array),
    # the capacity check inline, the copy out of line: a push costs a compare while it fits
    TapeGrow: Emit("alloc", lambda n, ops: f"({ops[1]} if {ops[2]} < len({ops[1]}) else "
                   f"{_helper('_tape_grow')}({ops[1]}, {ops[2]}))", atoms=(1, 2)),
    ArrayLen: Emit("expr", _unary("len({})")),
    NewList: Emit("alloc", _new_list),
    ListLen: Emit("expr", lambda n, ops: f"len({ops[1]})"),
    ListOp: Emit("stmt", _list_op),
    OutOfBounds: Emit("expr", _out_of_bounds, atoms=(0, 1)),
    Overlaps: Emit("expr", lambda n, ops: f"{_helper('_overlaps')}({ops[0]}, {ops[1]})"),
    Never: Emit("expr", lambda n, ops: "False"),
    Refine: Emit("expr", lambda n, ops: ops[0]),  # x itself: only its type is narrower
    GradVia: Emit("expr", lambda n, ops: ops[0]),  # its value (the transforms use the surrogate)
    PairwiseSum: Emit("expr", _pairwise_sum),
}
EMIT.update({cls: Emit("expr", _math_call) for cls in MATH_NODES.values()})

#: base classes that never appear in a graph themselves
ABSTRACT = frozenset({MathCall})


# ====================================================================== literals
def literal(value) -> str:
    """A Python literal numba types as son does (int64, float64, bool)."""
    if value is None:
        return "None"
    if type(value) is bool:
        return "True" if value else "False"
    if type(value) is int:
        if value == INT64_MIN:
            return "(-9223372036854775807 - 1)"
        return f"({value})" if value < 0 else str(value)
    if type(value) is float:
        if math.isnan(value):
            return "negate(math.nan)" if math.copysign(1.0, value) < 0 else "math.nan"
        if math.isinf(value):
            return "math.inf" if value > 0 else "(-math.inf)"
        if value == 0.0 and math.copysign(1.0, value) < 0:
            return "(-0.0)"
        return f"({value!r})" if value < 0 else repr(value)
    raise SonError(f"no literal for {value!r}")


_ATOM = re.compile(r"^(?:[A-Za-z_][A-Za-z_0-9.]*(?:\[[^\[\]]*\])?|\d[\w.+]*|\(.*\))$")


def _paren(text: str) -> str:
    """Wrap an inlined expression so it can be an operand anywhere."""
    if _ATOM.match(text) and (not text.startswith("(") or _balanced_outer(text)):
        return text
    if re.match(r"^[A-Za-z_][\w.]*\(", text) and _balanced_outer(text[text.index("("):]):
        return text  # a call
    return f"({text})"


def _balanced_outer(text: str) -> bool:
    """Is ``text`` one parenthesized group ``( ... )`` (the first paren closes last)?"""
    if not text.startswith("("):
        return False
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return i == len(text) - 1
    return False


def _unparen(text: str) -> str:
    """An argument of a call needs no outer parentheses (``range(n, -1, -1)``)."""
    return text[1:-1] if _balanced_outer(text) else text


def _strip(text: str) -> str:
    """Drop one pair of outer parentheses (a whole right-hand side needs none)."""
    if _balanced_outer(text) and not text.startswith("(-"):
        return text[1:-1]
    return text
