"""Fallback regions in a kernel: the helper that runs one in numba's object mode.

A ``PyRegion`` (son/nodes/opaque.py) is written as a call of a small helper,
``_son_region_<key>(...)``, that opens ``numba.objmode`` and calls ``run_region`` with
the region's key and live-ins, and gives back the tuple ``(status, *live_outs)`` typed
as son declared it.  numba passes no list into object mode, so a list live-in goes in
as a copy in a numpy array (and the items of one the region changes come back as one).
O(live-ins) text per region.
"""

from __future__ import annotations

from ..nodes import Node
from ..nodes.types import ArrayType, ListType

__all__ = ["REGION_IMPORTS", "region_helper"]

#: what a kernel module with fallback regions imports
REGION_IMPORTS = ["from numba import objmode as _son_objmode",
                  "from son.nodes.opaque import run_region as _son_run_region"]

_OBJMODE_TYPES = {"int": "int64", "float": "float64", "bool": "boolean"}
_NP_DTYPES = {"float64": "np.float64", "int64": "np.int64", "bool": "np.bool_"}


def region_helper(name: str, n: Node) -> list[str]:
    """The lines of the helper (decorated by the caller) that runs ``PyRegion`` ``n``."""
    ts = ", ".join(f"{_OBJMODE_TYPES[t.elem.kind]}[:]" if isinstance(t, ArrayType) else _OBJMODE_TYPES[t.kind]
                   for t in n.type.elems)
    args = [f"a{i}" for i in range(len(n.inputs) - 2)]
    lines = [f"def {name}({', '.join(args)}):"]
    passed = []
    for a, x in zip(args, n.inputs[2:]):
        if isinstance(x.type, ListType):  # a copy, as an array
            lines += [f"    c{a} = np.empty(len({a}), dtype={_NP_DTYPES[x.type.dtype]})",
                      f"    for k in range(len({a})):",
                      f"        c{a}[k] = {a}[k]"]
            a = f"c{a}"
        passed.append(a)
    return lines + [f"    with _son_objmode(_r='Tuple(({ts},))'):",
                    f"        _r = _son_run_region({n.code.key!r}{''.join(', ' + a for a in passed)})",
                    "    return _r"]
