"""A second corpus, written in the spirit of other compilers' and AD tools' test
suites: Simple's chapter tests (loops, ifs, phis, constants that fold), LLVM's
SCCP and InstCombine tests (phis that are constant only optimistically, folds
that are wrong for NaN or -0.0), Numba's loop, math and operator tests
(ranges with computed and negative steps, loop-else, bool arithmetic, float
specials, domain errors), and small 1-D numeric kernels (Livermore loops,
PolyBench-like sweeps, n-body pieces, sorting, hashing).

The format is the one of ``tests/corpus.py``: module-level functions and a
``CASES`` list of ``Case(fn, strategies, examples)``; ``tests/test_oracle_suites.py``
runs them with CPython as the oracle.

Inputs stay inside the semantics son shares with CPython (see ``corpus.py``):
small ints, no ``int ** negative int`` at run time, no negative float to a
fractional power, and array elements are turned into Python numbers with
``float()``/``int()``/``bool()`` wherever numpy scalars would behave unlike
Python numbers (division by zero, ``**``, bool arithmetic).
"""

import math

import numpy as np
from corpus import (
    INF,
    NAN,
    BoolArray,
    Case,
    IntArray,
    b8,
    bounded,
    f64,
    f64_ieee,
    fa,
    i64,
    ia,
    ieee_or_special,
    int_safe_float,
    number,
    small,
    specials,
)
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

# ---------------------------------------------------------------- global constants
MASK32 = 0xFFFFFFFF
FNV_OFFSET = 2166136261
FNV_PRIME = 16777619
STEPS = 4
TOL = 1e-9
ENABLED = True
NEG_STEP = -3


# ================================================================ Simple-style: ifs, loops, phis that fold
def two_breaks(arg: int):
    while arg < 10:
        arg = arg + 1
        if arg == 5:
            break
        if arg == 6:
            break
    return arg


def nested_while_sum(arg: int):
    total = 0
    i = 0
    while i < arg:
        i = i + 1
        j = 0
        while j < arg:
            total = total + j
            j = j + 1
    return total


def if_in_loop_scope(arg: int):
    a = 1
    b = 2
    while a < arg:
        if a == 2:
            a = 3
        else:
            b = 4
        b = b + 1
        a = a + 1
    return a * 100 + b


def if_if_fold(arg: int):
    a = 1
    if arg != 1:
        a = 2
    else:
        a = 3
    b = 4
    if a == 2:
        b = 42
    else:
        b = 5
    return b


def merge_three_ways(arg: int):
    a = 1
    if arg == 1:
        if 1 == 2:
            a = 2
        else:
            a = 3
    elif arg == 3:
        a = 4
    else:
        a = 5
    return a


def demo_sum_of_phis(arg: int):
    a = 0
    b = 1
    c = 0
    if arg:
        a = 1
        if arg == 2:
            c = 2
        else:
            c = 3
        if arg:
            b = 2
        else:
            b = 3
    return a + b + c


def runs_exactly_once(n: int):
    # SCCP's "edgefailure": the loop body runs once, the back edge never
    i = 0
    k = n
    while True:
        i2 = i + 1
        k = k * 2 + i
        if i2 <= 0:
            i = i2
        else:
            break
    return k + i


def sccp_phi_j_stays_one(limit: int):
    # j is 1 on every path that can reach the loop head; only an optimistic
    # analysis sees it
    j = 1
    k = 0
    while k < limit:
        if j < 20:
            j = 1
            k = k + 1
        else:
            j = k
            k = k + 1
    return j * 1000 + k


def phi_with_param_on_back_edge(a: int, c: int):
    v = 0
    n = 0
    while n < 3:
        if c > n:
            v = a
        n += 1
    return v


def dead_loop_by_global(x: int):
    s = x
    while not ENABLED:
        s += 1
    for _ in range(STEPS if ENABLED else 0):
        s = s * 2 - 1
    return s


# ================================================================ range corners
def range_computed_step(n: int, k: int):
    s = 0
    c = 0
    for i in range(n, -n, k - 2):
        s += i
        c += 1
    return s * 1000 + c


def range_bool_bounds(p: bool, q: bool):
    s = 0
    for i in range(p, q + 3, 1 + p):
        s = s * 10 + i
    for j in range(q):
        s += 100 * (j + 1)
    return s


def loop_var_rebound(n: int):
    s = 0
    for i in range(n):
        i = i * 3
        s += i
    return s * 1000 + i


def loop_var_keeps_old_value(n: int):
    i = -7
    for i in range(n, 0):  # noqa: B007 - i is read after the loop
        pass
    return i


def range_stop_changes_in_body(n: int):
    m = n
    s = 0
    for i in range(m):
        m -= 1
        s += m * i
    return s * 100 + m


def negative_global_step(n: int):
    s = 0
    for i in range(n, -n - 1, NEG_STEP):
        s = s * 3 + i
    return s


def step_from_sign(a: int, b: int):
    step = 1 if a <= b else -1
    c = 0
    last = a
    for i in range(a, b, step):
        c += 1
        last = i
    return c * 1000 + last


def nested_ranges_dependent(n: int):
    t = 0
    for i in range(n):
        for j in range(i, -1, -2):
            for k in range(j, i + 1):
                t += (i - j) * k
    return t


# ================================================================ break / continue / else
def for_else_empty(n: int):
    r = 0
    for i in range(n):
        if i * i > 20:
            break
        r += i
    else:
        r = -r
    return r


def while_else_continue(n: int):
    i = 0
    s = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        if i > 40:
            break
        s += i
    else:
        s += 1000
    return s


def triple_nested_break(n: int, target: int):
    hits = 0
    for i in range(n):
        for j in range(n):
            for k in range(n):
                if i + j + k == target:
                    hits += 1
                    break
                if k > j:
                    break
            else:
                hits += 100
            if j > i:
                break
        else:
            hits += 10000
    return hits


def continue_in_else_of_inner(n: int):
    out = 0
    for i in range(n):
        for j in range(i):
            if (i * j) % 7 == 3:
                break
        else:
            continue
        out += i
    return out


def while_true_many_exits(n: int):
    i = 0
    acc = 0
    while True:
        i += 1
        if i > n:
            break
        if i % 5 == 0:
            continue
        acc += i
        if acc > 60:
            return -acc
        if acc == 28:
            break
    return acc * 10 + i


def loop_in_else_branch(c: bool, n: int):
    r = 1
    if c:
        r = -1
    else:
        k = 0
        while k < n:
            r *= 2
            k += 1
            if r > 1000:
                break
    return r


def return_from_for_else(n: int, d: int):
    for i in range(2, n):
        if i % d == 0:
            break
    else:
        return -1
    return i


# ================================================================ variables bound on some paths
def bound_on_break_path(a: IntArray, x: int):
    for i in range(len(a)):
        if a[i] == x:
            found = i
            break
    return found


def read_before_bind_in_loop(n: int):
    for i in range(n):
        if i > 1:
            s = s + prev  # noqa: F821 - bound in an earlier iteration
        elif i == 1:
            s = prev  # noqa: F821 - bound in an earlier iteration
        prev = i * i  # noqa: F841 - read in the next iteration
    return s


def bound_in_for_else(n: int):
    for i in range(n):
        if i == 3:
            break
    else:
        tail = n * 10
    return tail + i


def bound_in_elif_no_else(x: int):
    if x < 0:
        r = -1
    elif x > 0:
        r = 1
    return r * x


def _maybe_bound(c, x):
    if c:
        y = x + 1
    return y


def unbound_in_helper(c: bool, x: int):
    return _maybe_bound(c, x) * 2


def bound_in_inner_while(n: int):
    i = 0
    while i < n:
        j = i
        while j > 2:
            last = j
            j -= 2
        i += 1
    return last


# ================================================================ int / float mixing across iterations
def int_becomes_float_midloop(n: int):
    x = 1
    for i in range(n):
        if i == 3:
            x = x / 2
        else:
            x = x * 2
    return x


def kind_alternates(n: int):
    x = 0
    for i in range(n):
        x = x + 1 if i % 2 else x + 0.5
        if x > 4:
            x = int(x)
    return x


def bool_int_float_chain(n: int):
    v = False
    for i in range(n):
        if i == 0:
            v = v + 1
        elif i == 1:
            v = v * 1.5
        else:
            v = v > 2
    return v


def int_float_exact_compare(x: int, y: float):
    return (x == y) + (x < y) * 2 + (x > y) * 4 + (x <= y) * 8 + (y != x) * 16 + (y >= x) * 32


def minmax_kind_ties(x: int, y: float):
    a = max(x, y)
    b = min(y, x)
    c = max(y, x, 0)
    return a * 3 + b * 5 + c


def number_floor_mod(x, y):
    return (x // y) * 7 + x % y + (x < y) - (y <= x)


def accumulate_from_array(a: np.ndarray):
    s = 0
    for i in range(len(a)):
        s = s + float(a[i])
    return s


# ================================================================ bool arithmetic
def bool_ops_all(p: bool, q: bool):
    r = p + q * 2 + (p - q) * 4 + p * 3 + abs(p) + (-q) * 5 + (+p) * 7
    r += (p ^ q) * 11 + (p & q) * 13 + (p | q) * 17 + (p << 2) + (q >> p)
    r += p**q + q**2 + p % 2 * 19 + (q // (p + 1)) * 23
    r += max(p, q) * 29 + min(p, 0) * 31 + int(p) * 37 + float(q) * 0.5
    return r


def bool_comparisons(p: bool, q: bool, x: int):
    return (p < q) + (p == x) * 2 + (q >= x) * 4 + (p != (x > 0)) * 8 + (True == p) * 16  # noqa: E712


def bool_flag_counter(m: BoolArray):
    c = 0
    flips = 0
    prev = False
    for i in range(len(m)):
        cur = bool(m[i])
        c += cur
        flips += cur != prev
        prev = cur
    return c * 100 + flips + prev * 1000


# ================================================================ int64-safe hashing loops
def fnv1a(a: IntArray):
    h = FNV_OFFSET
    for i in range(len(a)):
        h ^= int(a[i]) & 0xFF
        h = (h * FNV_PRIME) & MASK32
    return h


def xorshift32(seed: int, n: int):
    x = seed & MASK32
    if x == 0:
        x = 1
    acc = 0
    for _ in range(n):
        x ^= (x << 13) & MASK32
        x ^= x >> 17
        x ^= (x << 5) & MASK32
        acc = (acc + x) & MASK32
    return acc


def popcount_clear_lowest(x: int):
    x &= MASK32
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


def djb2(a: IntArray):
    h = 5381
    for i in range(len(a)):
        h = ((h << 5) + h + int(a[i])) & MASK32
    return h


def bit_reverse(x: int, bits: int):
    r = 0
    for _ in range(bits):
        r = (r << 1) | (x & 1)
        x >>= 1
    return r * 2 + (x < 0)


def lcg_minstd(seed: int, n: int):
    m = 2147483647
    x = seed % m or 1
    for _ in range(n):
        x = (48271 * x) % m
    return x


def arith_shift_negative(x: int, s: int):
    return (x >> s) * 1000 + ((x & 0xFF) << (s & 31)) - (~x >> (s % 7))


# ================================================================ float specials
def minmax_specials(x: float, y: float):
    a = min(max(x, y), abs(x))
    b = max(min(y, x), -abs(y))
    return math.copysign(1.0, a) * 10 + math.copysign(1.0, b) + (a != a) * 100 + (b != b) * 1000


def copysign_signs(x: float, y: float):
    return (math.copysign(1.0, y) * 4 + math.copysign(1.0, -y) * 2 + math.copysign(1.0, x * 0.0)
            + math.copysign(2.0, -x) * 8)


def float_not_compare(x: float, y: float):
    r = 0
    if not x < y:
        r += 1
    if not x <= y:
        r += 2
    if not x > y:
        r += 4
    if not x >= y:
        r += 8
    if not x == y:
        r += 16
    if not x != y:
        r += 32
    if not (x < y or y < x):
        r += 64
    return r


def neg_zero_arith(x: float):
    a = -(x - x)
    b = 0.0 - x
    c = -x + 0.0
    d = x * -1.0
    e = x - 0.0
    f = x + -0.0
    g = -(-x)  # noqa: B002
    h = x * 1.0
    k = x / 1.0
    return (math.copysign(1.0, a) + 2 * math.copysign(1.0, b) + 4 * math.copysign(1.0, c)
            + 8 * math.copysign(1.0, d) + 16 * math.copysign(1.0, e) + 32 * math.copysign(1.0, f)
            + 64 * math.copysign(1.0, g) + 128 * math.copysign(1.0, h)
            + 256 * math.copysign(1.0, k))


def inf_arith(x: float):
    a = x - x
    b = x * 0.0
    c = x / x if x != 0.0 else 0.5
    d = x + x - x
    return (a != a) + (b != b) * 2 + (c != c) * 4 + (d == x) * 8 + math.isinf(d) * 16


def float_floor_mod_signs(x: float, y: float):
    q = x // y
    r = x % y
    return math.copysign(1.0, q) * 10 + math.copysign(1.0, r) + (q * y + r == x) * 100


def int_floor_mod_signs(a: int, b: int):
    q = a // b
    r = a % b
    ok = q * b + r == a
    return q * 1000 + r * 10 + ok


def int_float_floordiv(a: int, y: float):
    return (a // y) * 3 + a % y - (-a) // y


def math_domain_some(x: float):
    r = math.sqrt(abs(x)) + math.atan(x)
    if x >= 0.0:
        r += math.acosh(x + 0.5)
    else:
        r += math.atanh(x / 4.0)
    return r + math.log1p(x)


def math_range_errors(x: float):
    return math.exp(x) + math.cosh(x / 2) + math.exp2(x / 3) - math.expm1(x / 4)


def numpy_vs_math(x: float):
    a = np.log(x) + np.sqrt(x) + np.arccos(x) + np.arcsinh(x)
    if x > 0.0:
        a += math.log(x)
    return a


def np_rounding_zero(x: float):
    return (math.copysign(1.0, np.ceil(x)) + 2 * math.copysign(1.0, np.trunc(x))
            + 4 * math.copysign(1.0, np.floor(x)) + 8 * np.ceil(x) + 16 * np.floor(x))


def math_rounding_ints(x: float):
    return math.floor(x) * 100 + math.ceil(x) * 10 + math.trunc(x) + int(x) * 1000


def erf_and_atan2(x: float, y: float):
    return math.erf(x) + math.erfc(y) + math.atan2(y, x) + math.hypot(x, y)


def fmod_signs(x: float, y: float):
    r = math.fmod(x, y)
    return math.copysign(1.0, r) * 2 + (r == 0.0) + (r != r) * 4


def nan_truthiness(x: float):
    r = 0
    if x:
        r += 1
    if not x:
        r += 2
    if x and x > 0:
        r += 4
    r += bool(x) * 8 + (x or 3.0 == 3.0) * 16
    return r


# ================================================================ arrays: index edges, writes in loops
def index_edges(a: np.ndarray, i: int):
    n = len(a)
    return a[i] + a[-n] * 2 + a[n - 1]


def write_negative_index(a: IntArray, k: int):
    a[-k] = 7
    return a[k - 1]


def shift_right_inplace(a: np.ndarray):
    for i in range(len(a) - 1, 0, -1):
        a[i] = a[i - 1]
    if len(a) > 0:
        a[0] = -0.0


def ping_pong_smooth(a: np.ndarray, steps: int):
    n = len(a)
    src = a
    dst = np.zeros(n)
    for _ in range(steps):
        for i in range(n):
            left = src[i - 1] if i > 0 else src[i]
            right = src[i + 1] if i < n - 1 else src[i]
            dst[i] = (left + 2.0 * src[i] + right) * 0.25
        src, dst = dst, src
    return src


def choose_array(a: np.ndarray, b: np.ndarray, c: bool):
    out = a if c else b
    if len(out) > 0:
        out[0] = 42.0
    return out


def alias_write(a: IntArray):
    b = a
    if len(b) == 0:
        return -1
    b[0] += 1
    b[-1] = b[0] * 2
    return a[0] * 100 + a[-1]


def running_max(a: np.ndarray):
    out = np.empty(len(a))
    m = -math.inf
    for i in range(len(a)):
        m = max(m, a[i])
        out[i] = m
    return out


def hydro_fragment(y: np.ndarray, z: np.ndarray, q: float, r: float, t: float):
    n = len(z) - 11
    x = np.zeros(max(n, 0))
    for k in range(n):
        x[k] = q + y[k] * (r * z[k + 10] + t * z[k + 11])
    return x


def tridiag_recurrence(x: np.ndarray, y: np.ndarray, z: np.ndarray):
    for i in range(1, len(x)):
        x[i] = z[i] * (y[i] - x[i - 1])
    return x[-1] if len(x) else 0.0


def first_difference(y: np.ndarray):
    n = len(y)
    x = np.zeros(n - 1 if n > 0 else 0)
    for k in range(n - 1):
        x[k] = y[k + 1] - y[k]
    return x


def nbody_potential_1d(pos: np.ndarray, mass: np.ndarray):
    e = 0.0
    n = min(len(pos), len(mass))
    for i in range(n):
        for j in range(i + 1, n):
            d = abs(float(pos[i]) - float(pos[j]))
            e -= float(mass[i]) * float(mass[j]) / d
    return e


def store_into_bool(a: np.ndarray):
    m = np.zeros(len(a), dtype=np.bool_)
    for i in range(len(a)):
        if i % 3 == 0:
            m[i] = a[i]
        elif i % 3 == 1:
            m[i] = int(a[i])
        else:
            m[i] = a[i] > 0
    return m


def int_array_from_bools(n: int):
    b = np.zeros(n, dtype=np.int64)
    for i in range(n):
        b[i] = i % 3 == 0
        b[i] += i > 2
    return b


def histogram_negative_values(x: IntArray, nbins: int):
    h = np.zeros(nbins, dtype=int)
    for i in range(len(x)):
        h[int(x[i]) % nbins] += 1
    return h


def alloc_from_param(n: int):
    a = np.ones(n - 3, dtype=np.int64)
    return len(a) + a[0] if len(a) else -1


def reverse_copy(a: IntArray):
    n = len(a)
    out = np.empty(n, dtype=np.int64)
    for i in range(n):
        out[n - 1 - i] = a[i]
    return out


def argmin_first_nan(a: np.ndarray):
    best = 0
    for i in range(len(a)):
        if a[i] != a[i]:
            return i
        if a[i] < a[best]:
            best = i
    return best if len(a) else -1


def sieve_count(n: int):
    if n < 2:
        return 0
    is_p = np.ones(n + 1, dtype=bool)
    is_p[0] = False
    is_p[1] = False
    i = 2
    while i * i <= n:
        if is_p[i]:
            for j in range(i * i, n + 1, i):
                is_p[j] = False
        i += 1
    c = 0
    for k in range(n + 1):
        c += bool(is_p[k])
    return c


def insertion_sort(a: IntArray):
    for i in range(1, len(a)):
        key = a[i]
        j = i - 1
        while j >= 0 and a[j] > key:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = key
    return a


def early_return_after_writes(a: IntArray, t: int):
    n = len(a)
    for i in range(n):
        a[i] = a[i] * 2
        for j in range(i):
            if a[i] + a[j] == t:
                a[j] = -1
                return i * 100 + j
    return -1


def read_after_write_same_iteration(a: np.ndarray):
    s = 0.0
    for i in range(len(a)):
        a[i] = a[i] + 1.0
        s += a[i]
        a[i] = s
    return s


# ================================================================ inlined helpers in loops
def _poly(x, c0=1.0, c1=0.0, c2=0.0):
    return c0 + x * (c1 + x * c2)


def _safe_div(a, b, default=0.0):
    return a / b if b else default


def _find(a, x, start=0):
    for i in range(start, len(a)):
        if a[i] == x:
            return i
    return -1


def _count_until(n, stop):
    c = 0
    for i in range(n):
        if i == stop:
            break
        c += 1
    return c


def _fill_pattern(out, k):
    for i in range(len(out)):
        out[i] = (i * k) % 5


def helper_kwargs_in_loop(n: int, x: float):
    s = 0.0
    for i in range(n):
        s += _poly(x, c2=0.5) + _poly(i, 2.0, c1=-1.0) + _poly(c1=x, x=0.5)
    return s


def helper_safe_div_loop(n: int, d: int):
    s = 0.0
    for i in range(-n, n):
        s += _safe_div(i, d - i) + _safe_div(1, i % 3, default=-1.0)
    return s


def helper_find_all(a: IntArray, x: int):
    count = 0
    pos = _find(a, x)
    while pos >= 0:
        count += 1
        pos = _find(a, x, start=pos + 1)
    return count


def helper_break_inside_break(n: int, stop: int):
    t = 0
    for i in range(n):
        c = _count_until(i, stop)
        if c > 5:
            break
        t += c
    return t


def helper_mutates_array(n: int, k: int):
    out = np.zeros(n, dtype=np.int64)
    _fill_pattern(out, k)
    s = 0
    for i in range(n):
        s += out[i]
    return s


# ================================================================ deep expressions, long chains
def deep_expr(x: int, y: int):
    return ((((((((x + 1) * 2 - y) * 3 + x) - (y - (x - (y + 1)))) * 2) + ((x * y) - (y * x)))
             - (((x - y) + (y - x)) * 5)) + (((x + y) + (x + y)) - 2 * (x + y)) + x)


def long_elif(x: int):
    if x < -40:
        r = 0
    elif x < -30:
        r = 1
    elif x < -20:
        r = 2
    elif x < -10:
        r = 3
    elif x < -5:
        r = 4
    elif x < 0:
        r = 5
    elif x == 0:
        r = 6
    elif x < 3:
        r = 7
    elif x < 7:
        r = 8
    elif x % 2 == 0 and x < 20:
        r = 9
    elif x % 3 == 0 or x > 45:
        r = 10
    elif 20 <= x < 30:
        r = 11
    elif not x % 5:
        r = 12
    else:
        r = 13
    return r


def nested_ternary(x: float):
    return (-2 if x < -1.0 else -1 if x < 0.0 else 0 if x == 0.0 else 1 if x <= 1.0
            else 2 if x < INF else 3)


def chained_compare_mixed(a: int, b: int, c: int):
    return (a < b == c) + (a <= b < c > a) * 2 + (a != b != c) * 4 + (a == b == c) * 8


def short_circuit_values(x: int, y: float):
    a = x and y or -1
    b = (x or y) and x
    c = not x or y
    return a + b * 10 + c * 100


# ================================================================ assert / raise
def assert_in_loop(a: np.ndarray):
    s = 0.0
    for i in range(len(a)):
        assert a[i] >= -50.0, "too small"
        s += a[i]
    return s


def raise_in_nested(n: int, bad: int):
    s = 0
    for i in range(n):
        for j in range(i):
            if i * j == bad:
                raise ValueError("bad product")
            s += j
    return s


def assert_not_nan(x: float):
    assert x == x
    if x > 1e300:
        raise OverflowError("too large")
    return x * 2.0


# ================================================================ module constants
def module_constants(x: float):
    return x * math.pi + np.pi - math.e + math.tau * (x > 0) + (math.inf > x) + np.e


# ================================================================ the case table
MASK32_INTS = st.integers(-(2**31), 2**32)
f64_small = hnp.arrays(np.float64, st.integers(0, 6), elements=st.floats(-10.0, 10.0))
f64_len12 = hnp.arrays(np.float64, st.integers(0, 14), elements=st.floats(-5.0, 5.0))
f64_distinct = hnp.arrays(np.float64, st.integers(0, 6), elements=st.floats(-10.0, 10.0), unique=True)
i64_small = hnp.arrays(np.int64, st.integers(0, 6), elements=st.integers(-5, 5))
float_or_special = st.one_of(bounded, specials)
f64_int_safe = hnp.arrays(np.float64, st.integers(0, 8),
                          elements=st.one_of(bounded, st.sampled_from([NAN, INF, -INF, -0.0])))


def ba(*xs):
    return np.array(xs, dtype=np.bool_)


CASES = [
    # Simple-style
    Case(two_breaks, (small,), [(0,), (4,), (5,), (6,), (10,), (-3,)]),
    Case(nested_while_sum, (st.integers(-3, 15),), [(0,), (1,), (15,)]),
    Case(if_in_loop_scope, (st.integers(-3, 20),), [(1,), (2,), (3,), (10,)]),
    Case(if_if_fold, (small,), [(1,), (2,)]),
    Case(merge_three_ways, (st.integers(-2, 5),), [(1,), (2,), (3,)]),
    Case(demo_sum_of_phis, (st.integers(-3, 3),), [(0,), (1,), (2,)]),
    Case(runs_exactly_once, (small,), [(0,), (-50,)]),
    Case(sccp_phi_j_stays_one, (st.integers(-5, 120),), [(0,), (100,)]),
    Case(phi_with_param_on_back_edge, (small, st.integers(-2, 5)), [(7, 0), (7, 1), (7, 5)]),
    Case(dead_loop_by_global, (small,), [(0,), (1,)]),
    # range corners
    Case(range_computed_step, (st.integers(-12, 12), st.integers(-3, 6)),
         [(5, 2), (5, 1), (5, 3), (-5, 5), (0, 0), (10, -1)]),
    Case(range_bool_bounds, (st.booleans(), st.booleans())),
    Case(loop_var_rebound, (st.integers(-2, 10),), [(0,), (1,), (5,)]),
    Case(loop_var_keeps_old_value, (st.integers(-5, 5),), [(0,), (-1,), (1,)]),
    Case(range_stop_changes_in_body, (st.integers(-3, 12),), [(0,), (5,)]),
    Case(negative_global_step, (st.integers(-5, 12),), [(0,), (3,), (-1,)]),
    Case(step_from_sign, (st.integers(-10, 10), st.integers(-10, 10)), [(0, 0), (3, -3), (-3, 3)]),
    Case(nested_ranges_dependent, (st.integers(-2, 9),), [(0,), (1,), (6,)]),
    # break / continue / else
    Case(for_else_empty, (st.integers(-3, 10),), [(0,), (5,), (6,)]),
    Case(while_else_continue, (st.integers(-2, 60),), [(0,), (3,), (40,), (41,)]),
    Case(triple_nested_break, (st.integers(0, 6), st.integers(-1, 12)), [(0, 0), (1, 0), (4, 3), (5, 20)]),
    Case(continue_in_else_of_inner, (st.integers(-2, 20),), [(0,), (10,)]),
    Case(while_true_many_exits, (st.integers(-2, 30),), [(0,), (7,), (8,), (30,)]),
    Case(loop_in_else_branch, (st.booleans(), st.integers(-2, 14)), [(True, 3), (False, 0), (False, 12)]),
    Case(return_from_for_else, (st.integers(-2, 20), st.integers(1, 9)), [(2, 1), (10, 7), (5, 9)]),
    # bound on some paths
    Case(bound_on_break_path, (i64_small, st.integers(-5, 5)), [(ia(), 0), (ia(1, 2), 2), (ia(1, 2), 3)]),
    Case(read_before_bind_in_loop, (st.integers(-1, 8),), [(0,), (1,), (2,), (3,), (8,)]),
    Case(bound_in_for_else, (st.integers(-1, 8),), [(0,), (3,), (4,)]),
    Case(bound_in_elif_no_else, (small,), [(0,), (3,), (-3,)]),
    Case(unbound_in_helper, (st.booleans(), small), [(True, 1), (False, 1)]),
    Case(bound_in_inner_while, (st.integers(-1, 9),), [(0,), (3,), (4,), (9,)]),
    # int / float mixing
    Case(int_becomes_float_midloop, (st.integers(-1, 10),), [(0,), (3,), (4,), (10,)]),
    Case(kind_alternates, (st.integers(-1, 14),), [(0,), (1,), (2,), (9,)]),
    Case(bool_int_float_chain, (st.integers(-1, 6),), [(0,), (1,), (2,), (3,)]),
    Case(int_float_exact_compare, (st.integers(-(2**60), 2**60), float_or_special),
         [(2**53 + 1, 2.0**53), (2**53, 2.0**53), (-(2**53) - 1, -(2.0**53)), (0, -0.0), (1, NAN),
          (2**62, INF), (3, 3.0000000000000004)]),
    Case(minmax_kind_ties, (small, float_or_special), [(2, 2.0), (0, -0.0), (-1, NAN), (0, 0.0)]),
    Case(number_floor_mod, (number, number), [(7, -2), (-7, 2), (7.5, -2), (-7, 2.5), (1, 0), (1.0, 0),
                                              (0, 0.0), (-0.0, 3)]),
    Case(accumulate_from_array, (f64,), [(fa(),), (fa(-0.0),), (fa(1.5, 2.5),)]),
    # bool arithmetic
    Case(bool_ops_all, (st.booleans(), st.booleans())),
    Case(bool_comparisons, (st.booleans(), st.booleans(), st.integers(-2, 2))),
    Case(bool_flag_counter, (b8,), [(ba(),), (ba(True, False, True, True),)]),
    # hashing
    Case(fnv1a, (hnp.arrays(np.int64, st.integers(0, 10), elements=st.integers(-1000, 1000)),),
         [(ia(),), (ia(0),), (ia(255, -1, 256),)]),
    Case(xorshift32, (MASK32_INTS, st.integers(-1, 30)), [(0, 5), (1, 1), (MASK32, 30), (-1, 3)]),
    Case(popcount_clear_lowest, (MASK32_INTS,), [(0,), (-1,), (MASK32,), (2**31,)]),
    Case(djb2, (hnp.arrays(np.int64, st.integers(0, 12), elements=st.integers(-300, 300)),), [(ia(),)]),
    Case(bit_reverse, (st.integers(-1000, 1000), st.integers(-1, 40)), [(1, 40), (-1, 8), (6, 3), (5, 0)]),
    Case(lcg_minstd, (st.integers(-(2**31), 2**31), st.integers(-1, 25)), [(0, 10), (1, 1), (-5, 3)]),
    Case(arith_shift_negative, (st.integers(-(2**40), 2**40), st.integers(0, 100)),
         [(-1, 100), (-5, 63), (7, 64), (-(2**40), 3)]),
    # float specials
    Case(minmax_specials, (ieee_or_special, ieee_or_special),
         [(0.0, -0.0), (-0.0, 0.0), (NAN, 1.0), (1.0, NAN), (-INF, NAN), (-0.0, -0.0)]),
    Case(copysign_signs, (ieee_or_special, ieee_or_special),
         [(NAN, NAN), (-NAN, -NAN), (-0.0, 0.0), (INF, -INF), (-1.0, -0.0)]),
    Case(float_not_compare, (ieee_or_special, ieee_or_special),
         [(NAN, 1.0), (1.0, NAN), (NAN, NAN), (-0.0, 0.0), (INF, INF)]),
    Case(neg_zero_arith, (ieee_or_special,), [(0.0,), (-0.0,), (NAN,), (INF,), (-INF,), (-1.0,)]),
    Case(inf_arith, (ieee_or_special,), [(INF,), (-INF,), (NAN,), (0.0,), (1e308,)]),
    Case(float_floor_mod_signs, (ieee_or_special, ieee_or_special),
         [(-0.0, 5.0), (0.0, -5.0), (-7.5, 2.0), (7.5, -2.0), (-1.0, INF), (1.0, -INF), (5.0, 0.0),
          (INF, 2.0), (-0.0, -5.0)]),
    Case(int_floor_mod_signs, (small, st.integers(-7, 7)), [(-7, 2), (7, -2), (-7, -2), (0, -3), (5, 0)]),
    Case(int_float_floordiv, (small, float_or_special),
         [(7, 2.5), (-7, 2.5), (7, -0.0), (0, -2.0), (-3, INF), (3, NAN), (0, -INF)]),
    Case(math_domain_some, (ieee_or_special,),
         [(0.0,), (-0.0,), (0.5,), (-4.0,), (-3.999,), (-1.0,), (INF,), (-INF,), (NAN,)]),
    Case(math_range_errors, (st.one_of(st.floats(-3000.0, 3000.0), specials),),
         [(709.0,), (710.0,), (1023.0 * 3,), (1024.0 * 3,), (-INF,), (INF,), (NAN,), (1420.0,)]),
    Case(numpy_vs_math, (ieee_or_special,), [(0.0,), (-0.0,), (-1.0,), (2.0,), (1.0,), (INF,), (NAN,)]),
    Case(np_rounding_zero, (ieee_or_special,), [(-0.5,), (0.5,), (-0.0,), (NAN,), (-INF,), (2.5,)]),
    Case(math_rounding_ints, (int_safe_float,), [(-0.5,), (0.5,), (-0.0,), (NAN,), (INF,), (-2.5,)]),
    Case(erf_and_atan2, (ieee_or_special, ieee_or_special),
         [(INF, NAN), (NAN, INF), (-0.0, -0.0), (-1.0, 0.0), (-1.0, -0.0), (-INF, INF)]),
    Case(fmod_signs, (ieee_or_special, ieee_or_special),
         [(-6.0, 3.0), (6.0, -3.0), (-0.0, 1.0), (INF, 1.0), (1.0, 0.0), (1.0, INF), (NAN, 1.0)]),
    Case(nan_truthiness, (ieee_or_special,), [(NAN,), (0.0,), (-0.0,), (-1.0,), (3.0,)]),
    # arrays
    Case(index_edges, (f64_small, st.integers(-8, 8)),
         [(fa(), 0), (fa(1.0), -1), (fa(1.0), 1), (fa(1.0, 2.0), -2), (fa(1.0, 2.0), -3), (fa(1, 2), 2)]),
    Case(write_negative_index, (i64_small, st.integers(-7, 7)),
         [(ia(), 0), (ia(1, 2), 0), (ia(1, 2), 2), (ia(1, 2), 3), (ia(1, 2), -2), (ia(1, 2), -1)]),
    Case(shift_right_inplace, (f64,), [(fa(),), (fa(1.0),), (fa(1, 2, 3),)]),
    Case(ping_pong_smooth, (f64_small, st.integers(-1, 4)), [(fa(), 2), (fa(1.0), 1), (fa(0, 4, 0), 2)]),
    Case(choose_array, (f64_small, f64_small, st.booleans()),
         [(fa(), fa(1.0), True), (fa(), fa(1.0), False)]),
    Case(alias_write, (i64,), [(ia(),), (ia(3),), (ia(3, 4),)]),
    Case(running_max, (f64_ieee,), [(fa(),), (fa(1.0, NAN, 2.0),), (fa(NAN, 1.0),), (fa(-0.0, 0.0),)]),
    Case(hydro_fragment, (f64_len12, f64_len12, bounded, bounded, bounded),
         [(fa(), fa(), 1.0, 1.0, 1.0), (fa(*range(12)), fa(*range(12)), 1.0, 2.0, 3.0),
          (fa(1.0), fa(*range(13)), 1.0, 2.0, 3.0)]),
    Case(tridiag_recurrence, (f64_small, f64_small, f64_small),
         [(fa(), fa(), fa()), (fa(1, 2, 3), fa(1, 2, 3), fa(1, 2)), (fa(1, 2), fa(1, 2, 3), fa(1, 2, 3))]),
    Case(first_difference, (f64_small,), [(fa(),), (fa(1.0),), (fa(1, 4, 9),)]),
    Case(nbody_potential_1d, (f64_distinct, f64_small),
         [(fa(), fa()), (fa(1, 2), fa(3, 4)), (fa(1, 1), fa(1, 1))]),
    Case(store_into_bool, (f64_int_safe,), [(fa(),), (fa(0.5, 0.5, 0.5),), (fa(NAN, -0.0, NAN),)]),
    Case(int_array_from_bools, (st.integers(-2, 9),), [(-1,), (0,), (7,)]),
    Case(histogram_negative_values, (i64, st.integers(-3, 6)), [(ia(-3, -1, 4), 3), (ia(), -2), (ia(1), 0)]),
    Case(alloc_from_param, (st.integers(-1, 8),), [(2,), (3,), (4,)]),
    Case(reverse_copy, (i64,), [(ia(),), (ia(1, 2, 3),)]),
    Case(argmin_first_nan, (f64_ieee,), [(fa(),), (fa(2.0, NAN, 1.0),), (fa(3.0, -0.0, 0.0),)]),
    Case(sieve_count, (st.integers(-2, 120),), [(0,), (1,), (2,), (3,), (100,)]),
    Case(insertion_sort, (i64,), [(ia(),), (ia(3, 1, 2),), (ia(5, 4, 3, 2, 1),)]),
    Case(early_return_after_writes, (i64_small, st.integers(-12, 12)), [(ia(), 0), (ia(1, 2, 3), 6)]),
    Case(read_after_write_same_iteration, (f64,), [(fa(),), (fa(1, 2, 3),)]),
    # helpers
    Case(helper_kwargs_in_loop, (st.integers(-1, 8), bounded), [(0, 1.0), (3, -2.0)]),
    Case(helper_safe_div_loop, (st.integers(-1, 6), st.integers(-6, 6)), [(0, 0), (3, 0), (3, 2)]),
    Case(helper_find_all, (i64_small, st.integers(-5, 5)), [(ia(), 1), (ia(1, 1, 1), 1)]),
    Case(helper_break_inside_break, (st.integers(-1, 12), st.integers(-1, 10)), [(10, 3), (12, 20)]),
    Case(helper_mutates_array, (st.integers(-1, 9), st.integers(-4, 4)), [(-1, 1), (0, 0), (6, 3)]),
    # deep expressions
    Case(deep_expr, (small, small), [(0, 0), (-50, 50)]),
    Case(long_elif, (st.integers(-45, 50),),
         [(-41,), (-40,), (-6,), (-5,), (0,), (3,), (7,), (8,), (9,), (21,), (25,), (46,), (29,)]),
    Case(nested_ternary, (ieee_or_special,), [(NAN,), (INF,), (-0.0,), (1.0,), (-1.0,)]),
    Case(chained_compare_mixed, (st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3))),
    Case(short_circuit_values, (st.integers(-2, 2), float_or_special),
         [(0, 0.0), (1, 0.0), (0, NAN), (2, -0.0), (-1, 2.5)]),
    # assert / raise
    Case(assert_in_loop, (f64,), [(fa(),), (fa(1.0, -60.0),), (fa(-50.0),)]),
    Case(raise_in_nested, (st.integers(-1, 8), st.integers(-1, 30)), [(0, 0), (5, 0), (5, 2), (5, 13)]),
    Case(assert_not_nan, (ieee_or_special,), [(NAN,), (INF,), (1e301,), (-INF,)]),
    Case(module_constants, (ieee_or_special,), [(NAN,), (INF,), (-0.0,), (0.0,)]),
]
