"""C's libm, as CPython's own C code calls it: IEEE results (an infinity, a NaN), never
an exception.

``pylib`` writes CPython's C algorithms (``math.gamma``, complex power, ``round`` with
ndigits) in Python; where the C code calls ``exp`` or ``pow`` and inspects the result
itself, ``pylib`` calls these.  Parsed, each is its math node with libm's rounding and
no ``MathError`` guard (``builtins.call_libm``); run by CPython (tests call ``pylib``
directly), each is ``math``'s function with its exception turned back into the IEEE
value, as ``MathCall.eval`` does.
"""

import math

import numpy as np


def _ieee(name: str, np_name: str):
    def f(*xs):
        try:
            return getattr(math, name)(*xs)
        except (ValueError, OverflowError):
            with np.errstate(all="ignore"):
                return float(getattr(np, np_name)(*(float(x) for x in xs)))
    f.__name__ = f.__qualname__ = name
    return f


exp = _ieee("exp", "exp")
log = _ieee("log", "log")
pow = _ieee("pow", "power")  # noqa: A001 - C's name
sin = _ieee("sin", "sin")
cos = _ieee("cos", "cos")
atan2 = _ieee("atan2", "arctan2")
tan = _ieee("tan", "tan")
sinh = _ieee("sinh", "sinh")
cosh = _ieee("cosh", "cosh")
tanh = _ieee("tanh", "tanh")

#: function -> the node it parses to: a MATH_NODES class (libm's rounding), or
#: IEEEPow for C's pow
NODES = {exp: "Exp", log: "Log", pow: "IEEEPow", sin: "Sin", cos: "Cos", atan2: "Atan2", tan: "Tan",
         sinh: "Sinh", cosh: "Cosh", tanh: "Tanh"}
