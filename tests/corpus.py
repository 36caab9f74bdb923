"""A corpus of ordinary Python functions inside son's frontend subset.

Every function is defined at module level so ``inspect`` can read its source,
and is paired in ``CASES`` with one hypothesis strategy per parameter (and a
few hand-picked edge arguments).  ``tests/test_oracle.py`` runs each function
with CPython as the oracle against ``son.interpret(son.parse(fn))``.

Inputs stay inside the semantics son shares with CPython (DESIGN.md,
"Semantics"): ints small enough that CPython never leaves int64, no
``int ** negative int`` with a run-time exponent, no negative float raised to
a fractional power, no float-to-int conversion beyond int64, and no division
of a *numpy scalar* (an array element) by zero — numpy returns inf/nan there
where son, like Python floats, raises ZeroDivisionError.  Array elements are
turned into Python numbers with ``float()``/``int()`` wherever a function may
divide by zero.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

# ---------------------------------------------------------------- global constants
LIMIT = 100
SCALE = 2.5
DEBUG_MODE = False
MASK = 0xFFFF
NAN = math.nan
INF = math.inf
HALF = np.float64(0.5)
VERBOSE = True


# ================================================================ classic kernels
def gcd(a: int, b: int):
    while b:
        a, b = b, a % b
    return abs(a)


def collatz_steps(n: int):
    steps = 0
    while n != 1 and steps < 200:
        if n % 2 == 0:
            n //= 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def fibonacci(n: int):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def isqrt_newton(n: int):
    if n < 0:
        raise ValueError("isqrt of a negative number")
    if n < 2:
        return n
    x = n
    y = (x + 1) // 2
    while y < x:
        x = y
        y = (x + n // x) // 2
    return x


def horner(coeffs: np.ndarray, x: float):
    acc = 0.0
    for i in range(len(coeffs)):
        acc = acc * x + coeffs[i]
    return acc


def dot_prefix(a: np.ndarray, b: np.ndarray):
    n = min(a.shape[0], b.shape[0])
    s = 0.0
    for i in range(n):
        s += a[i] * b[i]
    return s


def dot_strict(a: np.ndarray, b: np.ndarray):
    if len(a) != len(b):
        raise ValueError("length mismatch")
    s = 0.0
    for i in range(a.shape[0]):
        s = s + a[i] * b[i]
    return s


def prefix_sum(a: np.ndarray):
    out = np.empty(len(a))
    s = 0.0
    for i in range(len(a)):
        s += a[i]
        out[i] = s
    return out


def prefix_sum_inplace(a: IntArray):
    for i in range(1, len(a)):
        a[i] += a[i - 1]


def histogram(x: IntArray, nbins: int):
    h = np.zeros(nbins, dtype=np.int64)
    for i in range(len(x)):
        k = int(x[i]) % nbins
        h[k] += 1
    return h


def bubble_sort_copy(a: np.ndarray):
    b = np.empty(a.size)
    for i in range(len(a)):
        b[i] = a[i]
    n = len(b)
    for i in range(n):
        swapped = False
        for j in range(0, n - i - 1):
            if b[j] > b[j + 1]:
                b[j], b[j + 1] = b[j + 1], b[j]
                swapped = True
        if not swapped:
            break
    return b


def binary_search(a: IntArray, x: int):
    lo, hi = 0, len(a) - 1
    while lo <= hi:
        mid = (lo + hi) // 2
        v = a[mid]
        if v == x:
            return mid
        elif v < x:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


def mandelbrot(cr: float, ci: float, maxiter: int):
    zr = zi = 0.0
    for k in range(maxiter):
        if zr * zr + zi * zi > 4.0:
            return k
        zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
    return maxiter


def stencil3(a: np.ndarray):
    n = len(a)
    out = np.zeros(n)
    for i in range(1, n - 1):
        out[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1]
    if n > 0:
        out[0] = a[0]
        out[-1] = a[-1]
    return out


def count_primes(n: int):
    count = 0
    for k in range(2, n):
        d = 2
        while d * d <= k:
            if k % d == 0:
                break
            d += 1
        else:
            count += 1
    return count


# ================================================================ optimistic constants, dead code
def sccp_loop_constant(n: int):
    x = 1
    y = 0
    i = 0
    while i < n:
        if x == 1:
            y = y + 1
        else:
            x = 100  # never runs: only an optimistic pass proves x == 1
        i += 1
    return x * 1000 + y


def sccp_flip_flop(n: int):
    a = 3
    b = 3
    for _ in range(n):
        t = a
        a = b
        b = t
        if a != b:
            return -1
    return a + b + n


def dead_branches(x: int):
    if DEBUG_MODE:
        x = x // 0  # dead: DEBUG_MODE is a global False
    while False:
        x = x + 1
    if LIMIT > 50:
        return x + LIMIT
    else:
        return x - 1


def global_constants(x: float):
    y = x * SCALE + LIMIT
    if y > LIMIT * SCALE:
        y = y - (MASK & 0xFF)
    return y


# ================================================================ faults
def divmod_pair(a: int, b: int):
    """Two results from one function: a Return with several values."""
    return a // b, a % b


def running_stats(a: np.ndarray, limit: float):
    """A tuple returned from inside a loop and at its end (the same arity everywhere)."""
    s = 0.0
    top = -math.inf
    for i in range(len(a)):
        s += a[i]
        top = max(top, a[i])
        if s > limit:
            return s, top, i
    return s, top, len(a)


def int_div_mod(a: int, b: int):
    return a // b * 7 + a % b


def int_true_div(a: int, b: int):
    return a / b


def checked_div(a: int, b: int):
    assert b != 0, "b must not be zero"
    return a / b


def checked_sqrt(x: float):
    if x < 0:
        raise ValueError("negative")
    assert x == x
    return math.sqrt(x)


def read_index(a: np.ndarray, i: int):
    return a[i] + a[-1]


def first_minus_last(a: IntArray):
    return a[-len(a)] - a[len(a) - 1]


def mean(a: np.ndarray):
    s = 0.0
    for i in range(len(a)):
        s += float(a[i])
    return s / len(a)


def float_to_int(x: float):
    return int(x) + math.floor(x) * 2 + math.ceil(x) * 3


def exp_overflow(x: float):
    return math.exp(x) - math.expm1(x / 2)


def sinh_cosh(x: float):
    return math.sinh(x) + math.cosh(x)


def log_domain(x: float):
    return math.log(x) + math.log10(x) + math.log2(x) + math.log1p(x)


def log_with_base(x: float, base: float):
    return math.log(x, base)


def asin_domain(x: float):
    return math.asin(x) + math.acos(x) + math.atan(x)


def float_pow(x: float, y: float):
    return x**y


def float_square(x: float):
    return x**2 + pow(x, 3)


def negative_alloc(n: int):
    a = np.ones(n, dtype=np.int64)
    s = 0
    for i in range(n):
        s += a[i] * i
    return s


def range_step(a: int, b: int, step: int):
    s = 0
    c = 0
    for i in range(a, b, step):
        s += i * (c + 1)
        c += 1
    return s * 1000 + c


def shifts(a: int, s: int):
    return (a << s) + (a >> s)


# ================================================================ float arithmetic (IEEE)
def float_div(x: float, y: float):
    return x / y


def float_floordiv(x: float, y: float):
    return x // y


def float_mod(x: float, y: float):
    return x % y


def float_ops(x: float, y: float):
    z = x + y
    z -= x * y
    z *= 0.5
    return -z + (+x)


def compare_all(x: float, y: float):
    return ((x < y) + (x <= y) * 2 + (x == y) * 4 + (x != y) * 8 + (x > y) * 16
            + (x >= y) * 32)


def float_min(x: float, y: float):
    return min(x, y)


def float_max3(x: float, y: float, z: float):
    return max(x, y, z)


def truthy_float(x: float):
    r = 1 if x else 0
    r += bool(x) * 100
    if not x:
        r += 10
    return r


def sign(x: float):
    return 1 if x > 0 else (-1 if x < 0 else 0)


def math_mix(x: float):
    return (math.sin(x) * math.cos(x) + math.tanh(x) + math.atan2(x, 1.5) + math.hypot(x, 2.0)
            + math.fabs(x) + math.copysign(1.0, x) + math.trunc(x / 8.0 if abs(x) < 1e15 else 0.0))


def math_fmod(x: float, y: float):
    return math.fmod(x, y)


def math_predicates(x: float):
    return math.isnan(x) * 1 + math.isinf(x) * 2 + math.isfinite(x) * 4 + np.isnan(x) * 8


def numpy_scalars(x: float):
    return np.sqrt(x) + np.exp(x) + np.log(x) + np.abs(x) + np.floor(x) + np.sin(x)


def numpy_log_sqrt(x: float):
    if np.sqrt(x) != np.sqrt(x):
        return np.log(x) * 0.0 - 1.0
    return np.log(x)


# ================================================================ int arithmetic and bits
def int_arith(a: int, b: int):
    return a + b * 3 - (a - b) * (a + 1) + a**2 + pow(b, 3) - (-a) + (+b)


def int_pow(a: int, b: int):
    return a**b


def int_negative_const_pow(n: int):
    return n**-2


def bitwise(a: int, b: int):
    return ((a & b) | (a ^ b)) + (a << (b & 7)) - (a >> (b % 5)) + ~a + (a | MASK)


def aug_ops(a: int, b: int):
    x = a
    x += b
    x -= 1
    x *= 3
    x //= b or 1
    x %= 97
    x **= 2
    x <<= 2
    x >>= 1
    x &= MASK
    x |= 1
    x ^= b
    y = x
    y /= 4
    return y


def unary_ops(x: int, y: float, p: bool):
    return -x + (+y) + ~x + (not p) + (-y) + (+p) * 3


def bool_arith(p: bool, q: bool):
    return p + q * 2 - (p & q) + ((p | q) ^ q) * 4 + (p - q) * 8


def bool_division(p: bool, q: bool):
    return p / q


# ================================================================ control flow
def classify(x: int):
    if x < -10:
        r = 0
    elif x < 0:
        r = 1
    elif x == 0:
        r = 2
    elif 0 < x <= 10:
        r = 3
    else:
        r = 4
    return r


def chained(a: float, b: float, c: float):
    return a <= b <= c != a


def in_range(x: int):
    return 0 < x <= 10


def or_default(x: int):
    y = x or 5
    z = x and 7
    return y * 100 + z


def bool_or_int(p: bool, x: int):
    return p or x


def float_or_int(x: float):
    return x or 5


def logic(p: bool, q: bool, x: int):
    r = (p and not q) or (x > 3 and q)
    return not r if x % 2 else r


def cond_mixed(x: int):
    return x / 2 if x % 2 else x // 2


def mixed_loop(n: int):
    x = 0
    for _ in range(n):
        x = x + 0.5
    return x


def harmonic(n: int):
    s = 0
    for k in range(1, n + 1):
        s += 1 / k
    return s


def alternating_mix(n: int):
    x = 1
    for i in range(n):
        x = x * 1.5 if i % 2 else x * 2
    return x


def countdown(n: int):
    s = 0
    for i in range(n, 0, -2):
        s += i
    for j in range(n, -n, -3):
        s -= j
    return s


def range2(a: int, b: int):
    s = 0
    for i in range(a, b):
        if i % 3 == 0:
            continue
        s = s * 2 + i
        if s > 10000:
            break
    return s


# range's values are exact in CPython even where the step past the last one leaves
# int64: bounds and steps near INT64_MIN/INT64_MAX
def range_walk(a: int, b: int, c: int):
    n = first = last = 0
    for i in range(a, b, c):
        if n == 0:
            first = i
        last = i
        n += 1
        if n == 12:
            break
    return n, first, last


def range_by_three(a: int, b: int):
    n = last = 0
    for i in range(a, b, 3):
        last = i
        n += 1
        if n == 12:
            break
    return n, last


def range_down_by_seven(a: int, b: int):
    n = last = 0
    for i in range(a, b, -7):
        last = i
        n += 1
        if n == 12:
            break
    return n, last


def range_half_int64_steps(a: int):
    n = last = 0
    for i in range(a, 9223372036854775807, 4611686018427387904):
        last = i
        n += 1
    return n, last


# CPython rounds the exact quotient of two ints once; numba's float(a) / float(b) rounds
# each operand beyond 2**53 first
def int_true_division(a: int, b: int):
    return a / b, (a // 7) / 3, -(2**53 + 1) / b


def while_true(n: int):
    i = 0
    while True:
        i += 1
        if i * i > n:
            break
    return i


def skip_odd(n: int):
    s = 0
    i = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        if i > 50:
            break
        s += i
    return s


def find_factor(n: int):
    d = 2
    while d * d <= n:
        if n % d == 0:
            break
        d += 1
    else:
        return n
    return d


def first_multiple(a: IntArray, k: int):
    for i in range(len(a)):
        if int(a[i]) % k == 0:
            break
    else:
        return -1
    return i


def find_pair(a: IntArray, target: int):
    for i in range(len(a)):
        for j in range(i + 1, len(a)):
            if a[i] + a[j] == target:
                return i * 100 + j
    return -1


def search2d(n: int, target: int):
    i = 0
    while i < n:
        j = 0
        while j < n:
            if i * j == target:
                return i - j
            j += 1
        i += 1
    return -999


def nested_break_continue(n: int):
    total = 0
    for i in range(n):
        if i % 2:
            continue
        for j in range(i, -1, -1):
            if j == 3:
                break
            total += j
        else:
            total += 100
    return total


# ================================================================ arrays
def scale_inplace(a: np.ndarray, s: float):
    for i in range(len(a)):
        a[i] *= s


def reverse_inplace(a: IntArray):
    i, j = 0, len(a) - 1
    while i < j:
        a[i], a[j] = a[j], a[i]
        i += 1
        j -= 1
    return len(a)


def mask_positive(a: np.ndarray):
    m = np.zeros(len(a), dtype=bool)
    for i in range(len(a)):
        m[i] = a[i] > 0.0
    return m


def count_true(m: BoolArray):
    c = 0
    for i in range(len(m)):
        if m[i]:
            c += 1
    return c


def flip_bools(m: BoolArray):
    for i in range(len(m)):
        m[i] = not m[i]
    return len(m) > 0


def count_nans(a: np.ndarray):
    c = 0
    for i in range(len(a)):
        if math.isnan(a[i]):
            c += 1
    return c


def ones_reduce(n: int):
    a = np.ones(n)
    b = np.zeros(n, dtype=np.int64)
    s = 0.0
    for i in range(n):
        b[i] = i * i
        s += a[i] * b[i]
    return s


def array_argmax(a: IntArray):
    if len(a) == 0:
        raise ValueError("empty")
    best = 0
    for i in range(1, len(a)):
        if a[i] > a[best]:
            best = i
    return best


def add_one_everywhere(a: np.ndarray):
    for i in range(-len(a), 0):
        a[i] += 1
    return a


# ================================================================ inlined helpers, unannotated parameters
def _clamp(x, lo=0, hi=10):
    return max(lo, min(x, hi))


def _square(x):
    return x * x


def _sum_upto(n):
    s = 0
    for i in range(n):
        s += _square(i)
    return s


def use_helpers(x: int):
    return _clamp(x) + _clamp(x, hi=5) * 10 + _clamp(x, -3, 3) * 100 + _clamp(lo=-1, x=x) * 1000


def nested_helpers(n: int):
    return _sum_upto(_clamp(n, 0, 12)) + _square(n)


def unannotated(a, b):
    if a > b:
        return a * 2 + b
    return b - a


def unannotated_loop(x, n):
    acc = x
    for _ in range(n):
        acc = acc * 0.5 + 1
    return acc


def builtins_mix(x: int, y: float, a: np.ndarray):
    return (abs(x) + min(x, y, 3) + max(y, -x) + float(x) + int(y) + bool(x) + len(a)
            + abs(y) + max(x, 2))


# ================================================================ short-circuit guards; memory order
def linear_search(a: IntArray, x: int):
    i = 0
    while i < len(a) and a[i] != x:
        i += 1
    return i


def guarded_division(x: int):
    r = 0
    if x and 10 // x > 2:
        r += 1
    if x == 0 or 100 % x == 0:
        r += 10
    return r + (7 / x if x else 0.0)


def chained_guard(x: int):
    return 0 < x < 10 // x


def load_store_order(a: IntArray):
    if len(a) == 0:
        return 0
    t = a[0]
    a[0] = 5
    u = a[0]
    a[0] = t + 1
    return t * 100 + u * 10 + a[0]


def store_float_in_int(a: IntArray, x: float):
    if len(a) > 0:
        a[-1] = x
    return len(a)


def weighted_true(m: BoolArray):
    s = 0
    for i in range(len(m)):
        s += m[i] * (i + 1)
    return s


def _fill(a, v):
    for i in range(len(a)):
        a[i] = v * i


def _total(a):
    s = 0.0
    for i in range(len(a)):
        if a[i] < 0.0:
            return -1.0
        s += a[i]
    return s


def fill_via_helper(a: np.ndarray, v: float):
    _fill(a, v)
    return _total(a) + HALF


# ================================================================ types that change along the way
def min_mixed(x: int, y: float):
    return min(x, y)


def branch_types(c: bool, x: int):
    if c:
        y = x
    else:
        y = x * 0.5
    return y


def bool_to_int_loop(n: int):
    flag = False
    for _ in range(n):
        flag = flag + 1
    return flag


def halve(n: int):
    x = n
    steps = 0
    while x > 1:
        x /= 2
        steps += 1
    return x + steps


def pow2(n: int):
    return 2**n + (-2) ** n


def bool_neg(p: bool, q: bool):
    r = -p + int(q) + float(p)
    if VERBOSE and not DEBUG_MODE:
        r = r * 2
    return r


# ================================================================ the case table

# ---- variables bound on some paths only: CPython raises UnboundLocalError when
# ---- such a read is reached; son guards the read with a definedness flag
def last_index(n: int):
    for i in range(n):  # noqa: B007 - i is read after the loop
        pass
    return i


def bound_in_branch(c: bool, x: float):
    if c:
        y = x * 2
    return y


def argmax_index(a: np.ndarray):
    best = -math.inf
    for i in range(len(a)):
        if a[i] > best:
            best = a[i]
            idx = i
    return idx


def bound_in_while(n: int):
    k = 0
    while k < n:
        t = k * 0.5
        k += 1
    return t


def read_before_bind(a: int):
    if a > 0:
        return a
    y = x + 1  # noqa: F821, F823 - x is a local bound below: UnboundLocalError here
    x = a  # noqa: F841
    return y


def undefined_global(a: int):
    if a > 0:
        return a
    return a + zzz_undefined  # noqa: F821 - NameError when reached, as in CPython


def bound_in_nested_loops(n: int):
    for i in range(n):
        for j in range(i):
            z = i + j
            if z > 5:
                w = z
    return w + z


@dataclass
class Case:
    """A corpus function, one strategy per parameter, and fixed edge arguments."""

    fn: Callable
    strategies: tuple
    examples: list = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.fn.__name__


small = st.integers(-50, 50)
#: ints anywhere in int64, often within 20 of its ends (range bounds and steps only)
int64_edges = st.one_of(st.integers(-2**63, -2**63 + 20), st.integers(-30, 30),
                        st.integers(2**63 - 21, 2**63 - 1), st.integers(-2**63, 2**63 - 1))
count = st.integers(0, 30)
ieee = st.floats(allow_nan=True, allow_infinity=True, width=64)
bounded = st.floats(-100.0, 100.0, allow_nan=False, allow_infinity=False)
number = st.one_of(st.integers(-20, 20), st.floats(-20.0, 20.0))
specials = st.sampled_from([0.0, -0.0, 1.0, -1.0, NAN, INF, -INF, 5e-324, 1.7976931348623157e308])
ieee_or_special = st.one_of(ieee, specials)
sizes = st.integers(0, 8)
f64 = hnp.arrays(np.float64, sizes, elements=bounded)
f64_ieee = hnp.arrays(np.float64, sizes, elements=ieee)
i64 = hnp.arrays(np.int64, sizes, elements=st.integers(-20, 20))
i64_sorted = i64.map(np.sort)
b8 = hnp.arrays(np.bool_, sizes)
#: bases whose power is real for every exponent (CPython gives a complex for (-1.0) ** 0.5)
pow_base = st.one_of(st.floats(0.0, 100.0), st.sampled_from([0.0, -0.0, 1.0, NAN, INF, -INF, 5e-324]))
int_safe_float = st.one_of(st.floats(-1e15, 1e15), st.sampled_from([NAN, INF, -INF, -0.0, 0.5, -0.5]))


def fa(*xs):
    return np.array(xs, dtype=np.float64)


def ia(*xs):
    return np.array(xs, dtype=np.int64)


CASES = [
    Case(gcd, (small, small), [(0, 0), (0, -7), (-12, 18)]),
    Case(divmod_pair, (small, small), [(7, 0), (-7, 2), (7, -2)]),
    Case(running_stats, (f64, st.floats(-10.0, 10.0)), [(fa(), 1.0), (fa(1, 2, 3), 2.5), (fa(-1, 5), 100.0)]),
    Case(collatz_steps, (st.integers(-20, 100),), [(1,), (0,), (27,), (-5,)]),
    Case(fibonacci, (st.integers(-3, 40),), [(0,), (1,), (40,)]),
    Case(isqrt_newton, (st.integers(-10, 10**6),), [(-1,), (0,), (1,), (2,), (10**6,)]),
    Case(horner, (f64, st.floats(-3.0, 3.0)), [(fa(), 2.0), (fa(1, 2, 3), -0.5)]),
    Case(dot_prefix, (f64, f64), [(fa(), fa(1.0))]),
    Case(dot_strict, (f64, f64), [(fa(1, 2), fa(3, 4)), (fa(1), fa())]),
    Case(prefix_sum, (f64_ieee,), [(fa(),), (fa(1, NAN, 2),)]),
    Case(prefix_sum_inplace, (i64,), [(ia(),), (ia(1, 2, 3),)]),
    Case(histogram, (i64, st.integers(-2, 6)),
         [(ia(), 0), (ia(1), 0), (ia(), -1), (ia(-3, 4, 5), 4)]),
    Case(bubble_sort_copy, (f64_ieee,), [(fa(3, 1, 2),), (fa(),), (fa(-0.0, 0.0, NAN, -1),)]),
    Case(binary_search, (i64_sorted, st.integers(-25, 25)), [(ia(), 3), (ia(1, 3, 5), 5)]),
    Case(mandelbrot, (st.floats(-2.0, 2.0), st.floats(-2.0, 2.0), st.integers(0, 50)),
         [(0.0, 0.0, 50), (1.0, 1.0, 10), (0.3, 0.5, 0)]),
    Case(stencil3, (f64,), [(fa(),), (fa(1.0),), (fa(1, 2, 3, 4),)]),
    Case(count_primes, (st.integers(-5, 60),), [(0,), (3,), (60,)]),
    Case(sccp_loop_constant, (st.integers(-5, 30),), [(0,), (10,)]),
    Case(sccp_flip_flop, (st.integers(-5, 30),), [(0,), (7,)]),
    Case(dead_branches, (small,), [(0,)]),
    Case(global_constants, (ieee,), [(200.0,), (NAN,), (-INF,)]),
    Case(int_div_mod, (small, st.integers(-6, 6)), [(7, 0), (-7, 2), (7, -2), (0, -3)]),
    Case(int_true_div, (small, st.integers(-6, 6)), [(1, 0), (-7, 2), (0, -3)]),
    Case(checked_div, (small, st.integers(-3, 3)), [(1, 0), (0, -1)]),
    Case(checked_sqrt, (ieee,), [(-1.0,), (-0.0,), (NAN,), (INF,)]),
    Case(read_index, (f64, st.integers(-10, 10)), [(fa(), 0), (fa(1, 2), -2), (fa(1, 2), 2)]),
    Case(first_minus_last, (i64,), [(ia(),), (ia(5),), (ia(1, 2, 3),)]),
    Case(mean, (f64,), [(fa(),), (fa(1, 2),)]),
    Case(float_to_int, (int_safe_float,), [(NAN,), (INF,), (-INF,), (-0.5,), (2.5,)]),
    Case(exp_overflow, (st.one_of(st.floats(-800.0, 800.0), specials),),
         [(709.0,), (710.0,), (-INF,), (INF,), (NAN,), (1500.0,)]),
    Case(sinh_cosh, (st.one_of(st.floats(-800.0, 800.0), specials),), [(710.0,), (-711.0,), (INF,)]),
    Case(log_domain, (ieee_or_special,), [(0.0,), (-0.0,), (-1.0,), (1.0,), (INF,), (NAN,)]),
    Case(log_with_base, (ieee_or_special, ieee_or_special),
         [(8.0, 2.0), (8.0, 1.0), (1.0, 1.0), (0.0, 2.0), (2.0, -1.0), (INF, INF)]),
    Case(asin_domain, (st.one_of(st.floats(-1.5, 1.5), specials),), [(1.0,), (1.0000001,), (NAN,), (INF,)]),
    Case(float_pow, (pow_base, st.one_of(st.floats(-200.0, 200.0), specials)),
         [(0.0, -1.0), (-0.0, -3.0), (10.0, 400.0), (INF, 2.0), (NAN, 0.0), (1.0, NAN), (-1.0, 3.0),
          (-INF, 2.5), (-INF, -0.5), (-INF, 3.0), (-2.0, -INF), (-0.5, INF), (0.0, -INF),
          (-0.0, -INF)]),
    Case(float_square, (ieee,), [(1e200,), (-1e103,), (INF,), (NAN,), (-0.0,)]),
    Case(negative_alloc, (st.integers(-3, 20),), [(-1,), (0,), (5,)]),
    Case(range_step, (st.integers(-20, 20), st.integers(-20, 20), st.integers(-4, 4)),
         [(0, 10, 0), (10, 0, -3), (0, 10, 3), (5, 5, 1), (-5, 5, -1)]),
    Case(shifts, (st.integers(-1000, 1000), st.integers(-3, 40)), [(1, -1), (-7, 0), (-1, 40)]),
    Case(float_div, (ieee_or_special, ieee_or_special),
         [(1.0, 0.0), (0.0, -0.0), (NAN, 0.0), (-1.0, INF), (INF, INF)]),
    Case(float_floordiv, (ieee_or_special, ieee_or_special),
         [(1.0, 0.0), (7.5, -2.0), (-0.0, 3.0), (INF, 1.0), (1.0, INF), (-1.0, INF), (NAN, 1.0)]),
    Case(float_mod, (ieee_or_special, ieee_or_special),
         [(1.0, 0.0), (7.5, -2.0), (-0.0, 3.0), (0.0, -3.0), (INF, 1.0), (1.0, INF), (-1.0, INF),
          (-6.0, 3.0)]),
    Case(float_ops, (ieee_or_special, ieee_or_special), [(-0.0, 0.0), (INF, -INF), (NAN, 1.0)]),
    Case(compare_all, (ieee_or_special, ieee_or_special), [(NAN, NAN), (-0.0, 0.0), (INF, INF)]),
    Case(float_min, (ieee_or_special, ieee_or_special),
         [(0.0, -0.0), (-0.0, 0.0), (NAN, 1.0), (1.0, NAN)]),
    Case(float_max3, (ieee_or_special, ieee_or_special, ieee_or_special),
         [(0.0, -0.0, 0.0), (NAN, 1.0, 2.0), (1.0, NAN, 2.0)]),
    Case(truthy_float, (ieee_or_special,), [(NAN,), (-0.0,), (0.0,), (5e-324,)]),
    Case(sign, (ieee_or_special,), [(NAN,), (-0.0,), (-INF,)]),
    Case(math_mix, (ieee_or_special,), [(INF,), (-INF,), (NAN,), (-0.0,), (1e308,)]),
    Case(math_fmod, (ieee_or_special, ieee_or_special),
         [(1.0, 0.0), (INF, 1.0), (-5.5, 2.0), (5.5, -2.0), (1.0, INF), (NAN, 0.0), (-0.0, 1.0)]),
    Case(math_predicates, (ieee_or_special,), [(NAN,), (INF,), (-INF,), (0.0,)]),
    Case(numpy_scalars, (ieee_or_special,), [(-1.0,), (0.0,), (-0.0,), (800.0,), (NAN,), (-INF,)]),
    Case(numpy_log_sqrt, (ieee_or_special,), [(-1.0,), (0.0,), (NAN,), (INF,)]),
    Case(int_arith, (small, small), [(0, 0), (-50, 50)]),
    Case(int_pow, (st.integers(-10, 10), st.integers(0, 12)), [(0, 0), (-2, 11), (10, 12)]),
    Case(int_negative_const_pow, (small,), [(0,), (-3,), (1,)]),
    Case(bitwise, (st.integers(-1000, 1000), st.integers(-50, 50)), [(0, 0), (-1, -1), (MASK, 7)]),
    Case(aug_ops, (small, small), [(0, 0), (-50, -1), (3, 0)]),
    Case(unary_ops, (small, bounded, st.booleans()), [(0, -0.0, True)]),
    Case(bool_arith, (st.booleans(), st.booleans())),
    Case(bool_division, (st.booleans(), st.booleans()), [(True, False), (False, True)]),
    Case(classify, (st.integers(-20, 20),), [(-11,), (-10,), (-1,), (0,), (1,), (10,), (11,)]),
    Case(chained, (ieee_or_special, ieee_or_special, ieee_or_special),
         [(1.0, 2.0, 3.0), (1.0, 2.0, 1.0), (NAN, 1.0, 2.0), (1.0, 1.0, 1.0)]),
    Case(in_range, (st.integers(-5, 15),), [(0,), (10,), (11,)]),
    Case(or_default, (small,), [(0,), (3,)]),
    Case(bool_or_int, (st.booleans(), small), [(True, 0), (False, 0), (False, 7)]),
    Case(float_or_int, (ieee_or_special,), [(0.0,), (-0.0,), (NAN,), (2.5,)]),
    Case(logic, (st.booleans(), st.booleans(), small)),
    Case(cond_mixed, (small,), [(3,), (4,), (-3,), (0,)]),
    Case(mixed_loop, (st.integers(-2, 12),), [(0,), (1,), (5,)]),
    Case(harmonic, (st.integers(-2, 30),), [(0,), (1,), (30,)]),
    Case(alternating_mix, (st.integers(-2, 12),), [(0,), (1,), (2,)]),
    Case(countdown, (st.integers(-10, 30),), [(0,), (1,), (-4,), (7,)]),
    Case(range2, (st.integers(-20, 20), st.integers(-20, 30)), [(0, 0), (-20, 30)]),
    Case(range_walk, (int64_edges, int64_edges, int64_edges.filter(bool)),
         [(0, 2**63 - 1, 2**63 - 1), (2**31 - 1, 2**63 - 1, 2**63 - 1), (-2**63, 2**63 - 1, 2**62),
          (2**63 - 1, -2**63, -2**63), (5, -2**63, -2**63 + 1), (-2**63, 2**63 - 1, 1), (0, 5, 0)]),
    Case(range_by_three, (int64_edges, int64_edges),
         [(2**63 - 4, 2**63 - 1), (2**63 - 2, 2**63 - 1), (-2**63, -2**63 + 2)]),
    Case(range_down_by_seven, (int64_edges, int64_edges),
         [(-2**63 + 6, -2**63), (-2**63 + 13, -2**63), (2**63 - 1, 2**63 - 8)]),
    Case(range_half_int64_steps, (int64_edges,), [(-2**63,), (0,), (2**63 - 2,), (-1,)]),
    Case(int_true_division, (int64_edges, int64_edges.filter(bool)),
         [(2**53 + 1, 2), (-2**63, 3), (2**63 - 1, -2**63), (0, -5), (1, -2**63 + 1000003), (9, 4)]),
    Case(while_true, (st.integers(-5, 500),), [(0,), (-1,), (100,)]),
    Case(skip_odd, (st.integers(-5, 80),), [(0,), (51,), (80,)]),
    Case(find_factor, (st.integers(-5, 200),), [(0,), (1,), (2,), (97,), (91,)]),
    Case(first_multiple, (i64, st.integers(-4, 4)), [(ia(), 0), (ia(3), 0), (ia(1, 2, 4), 2), (ia(1), 2)]),
    Case(find_pair, (i64, st.integers(-40, 40)), [(ia(), 0), (ia(1, 2, 3), 5)]),
    Case(search2d, (st.integers(0, 12), st.integers(-5, 100)), [(0, 0), (5, 0), (10, 81), (10, 7)]),
    Case(nested_break_continue, (st.integers(-2, 20),), [(0,), (3,), (10,)]),
    Case(scale_inplace, (f64_ieee, ieee_or_special), [(fa(), 2.0), (fa(1, -0.0), -0.0)]),
    Case(reverse_inplace, (i64,), [(ia(),), (ia(1),), (ia(1, 2, 3, 4),)]),
    Case(mask_positive, (f64_ieee,), [(fa(),), (fa(-0.0, 0.0, NAN, 1.0),)]),
    Case(count_true, (b8,), [(np.array([], dtype=bool),), (np.array([True, False, True]),)]),
    Case(flip_bools, (b8,), [(np.array([], dtype=bool),), (np.array([True, False]),)]),
    Case(count_nans, (f64_ieee,), [(fa(NAN, 1.0, NAN),)]),
    Case(ones_reduce, (st.integers(-2, 20),), [(-1,), (0,), (4,)]),
    Case(array_argmax, (i64,), [(ia(),), (ia(3, 3),), (ia(1, 5, 2, 5),)]),
    Case(add_one_everywhere, (f64,), [(fa(),), (fa(1, 2),)]),
    Case(use_helpers, (st.integers(-15, 15),), [(-4,), (4,), (12,)]),
    Case(nested_helpers, (st.integers(-5, 20),), [(-1,), (0,), (20,)]),
    Case(unannotated, (number, number), [(1, 2.0), (2.5, 1), (3, 3)]),
    Case(unannotated_loop, (number, st.integers(-1, 10)), [(1, 0), (1.0, 0), (3, 4)]),
    Case(builtins_mix, (small, bounded, f64), [(0, -0.0, fa()), (-3, 2.5, fa(1.0))]),
    Case(linear_search, (i64, st.integers(-20, 20)), [(ia(), 1), (ia(1, 2), 2), (ia(1, 2), 3)]),
    Case(guarded_division, (st.integers(-20, 20),), [(0,), (3,), (-3,), (50,)]),
    Case(chained_guard, (st.integers(-5, 5),), [(0,), (1,), (3,), (4,)]),
    Case(load_store_order, (i64,), [(ia(),), (ia(7),), (ia(7, 8),)]),
    Case(store_float_in_int, (i64, st.one_of(bounded, specials)),
         [(ia(1, 2), 2.7), (ia(1, 2), -2.7), (ia(1), NAN), (ia(1), INF), (ia(), NAN)]),
    Case(weighted_true, (b8,), [(np.array([True, True, False, True]),)]),
    Case(fill_via_helper, (f64, st.one_of(bounded, specials)),
         [(fa(), 1.0), (fa(1, 2, 3), -1.0), (fa(1, 2), NAN)]),
    Case(min_mixed, (small, st.one_of(bounded, specials)), [(0, -0.0), (0, 0.0), (1, NAN), (-1, -1.0)]),
    Case(branch_types, (st.booleans(), small), [(True, 3), (False, 3)]),
    Case(bool_to_int_loop, (st.integers(-2, 10),), [(0,), (1,), (3,)]),
    Case(halve, (st.integers(-5, 1000),), [(0,), (1,), (2,), (1000,)]),
    Case(pow2, (st.integers(0, 61),), [(0,), (1,), (61,)]),
    Case(bool_neg, (st.booleans(), st.booleans())),
    Case(last_index, (st.integers(-2, 5),), [(0,), (1,), (4,)]),
    Case(bound_in_branch, (st.booleans(), bounded), [(True, 1.5), (False, 1.5)]),
    Case(argmax_index, (f64,), [(fa(),), (fa(1, 3, 2),), (fa(NAN),)]),
    Case(bound_in_while, (st.integers(-1, 6),), [(0,), (3,)]),
    Case(bound_in_nested_loops, (st.integers(0, 8),), [(0,), (3,), (5,), (8,)]),
    Case(read_before_bind, (st.integers(-3, 3),), [(0,), (1,)]),
    Case(undefined_global, (st.integers(-3, 3),), [(0,), (1,)]),
]
