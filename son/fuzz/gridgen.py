"""The generator's 2-D arrays (a mixin of ``son.fuzz.generator._Gen``, beside
``arraygen.ArrayPrograms``): whole-array expressions of two dimensions built from the
program's 1-D chains by numpy's broadcasting, reduced back to 1-D chains and scalars.

A grid of groups ``(g1, g2)`` (son.fuzz.arraygen: a group is a set of arrays of one
length) has ``len(g1)`` rows and ``len(g2)`` columns:

* made by broadcasting a column against a row (``c1.reshape(-1, 1) * c2``,
  ``c1[:, None] * c2[None, :]``, ``np.expand_dims(c1, 1) * np.atleast_2d(c2)``), by
  ``np.outer``, or by a matrix product of two grids through a middle group (``G @ H``);
* combined elementwise with grids of its shape, with 1-D chains of ``g2`` (broadcast
  over the rows), with scalars, ``np.sqrt``/``abs``/``-``/``np.where``; rolled
  (``np.roll`` with and without axes), flipped (``np.flip``, ``fliplr``, ``flipud``; axes
  known at run time, alone or in a tuple, with numpy's AxisError and repeated-axis
  ValueError), turned half around (``np.rot90(G, 2)``) and centred on a reduction kept
  as a 1 x 1 array (``G - np.mean(G, keepdims=True)``);
* read back as 1-D chains of a group (``G.sum(axis=1)``, ``G.prod(axis=1)``,
  ``np.cumsum(G, axis=1)[:, -1]``, ``np.argmax(G, axis=1)``, ``np.sort(G)[:, 0]``, ``np.mean(G, axis=0)``,
  ``np.var(G, axis=1)``, ``np.median(G, axis=1)``, ``np.linalg.norm(G, ord, axis=1)``,
  ``np.diff(G, n, axis=1)`` summed (``n`` known only at run time too), traces and
  diagonals at offsets (small, known only at run time, outside a C int: numpy's
  OverflowError), new arrays of run-time dimensions (numpy's ValueErrors for a negative one
  and for too many bytes), a square grid's reductions along an axis known only at run time
  (``G.sum(axis=n % 2)``, ``np.argmax(G, n % 5 - 2)``: numpy's AxisError out of range), the
  rows or columns of two grids joined (``np.concatenate``, ``np.append(G, H, axis=0)``)
  and summed,
  ``G @ c``, ``G.dot(c)``, ``c @ G``, ``G.T @ c``, a row ``G[0]``, a column ``G[:, -1]``) and as
  scalars (``np.sum(G)``, ``G.max()``, ``np.var(G)``, ``np.sum(G, keepdims=True)[0, 0]``, ``np.unique(G)``'s,
  ``c1 @ c2``, ``c1.dot(c2)``, ``G[0, -1]``, ``np.sum(np.append(c, G))``,
  ``np.einsum`` of products, sums, traces and diagonals (``'ij,jk->ik'``, ``'ii'``, ``'ii->i'``),
  ``np.any(G > k, axis=0)[0]``, matrix norms of orders ±1 and ±inf...).

Statements (``grid_stmt``): a 2-D local made from a grid, its views assigned (a number,
a row broadcast down, a column across, an overlapping view of itself, a grid, a row or a
column as a 1-D view, a slice of a ravel of it, of its transpose or of a view: numpy's view
of a C-contiguous array, else a copy) or the elements a 2-D mask selects set or updated (its
read-only diagonal, taken before, seeing the writes), and a scalar
local set to its reduction, an element or the sum of a selection.

A chain's operand from another group (``MISFIT``) gives numpy's broadcasting or core
dimension ValueError; an empty group numpy's IndexError or empty reductions.  Float
products are compared with son's documented sums in index order (the oracle's
son/fuzz/products.py).  Transposes (``.T``, ``np.transpose``, ``np.swapaxes``/``np.moveaxis``
at run-time axes) are read only by products (son refuses an escaping result of transposed
operands at run time, numpy giving it another memory order).
O(size of the program)."""

from __future__ import annotations

from .gradgen import Func, choice

#: the probability that a chain of a float or int dtype is read back from a grid
GRID_CHAINS = 0.06
#: the probability that a reduction reduces a grid
GRID_SCALARS = 0.08
#: the probability that a statement setting a scalar local assigns a 2-D local's view first
GRID_STATEMENTS = 0.3
_OPS = {"float64": ["+", "-", "*", "/", "+", "*"], "int64": ["+", "-", "*", "+", "*"]}


class GridPrograms:
    """2-D whole-array expressions (``rng``, ``chain``, ``scalar``, ``pick_group`` are the
    generator's and arraygen's)."""

    def grid(self, fn: Func, dt: str, g1: str, g2: str, d: int) -> str:
        """A 2-D expression of dtype ``dt`` (float64 or int64) of shape ``(g1, g2)``."""
        r = self.rng
        op = r.choice(_OPS[dt])
        if d <= 0 or r.random() < 0.4:
            form = choice(r, [("bcast", 5), ("outer", 2), ("product", 1 if d > 0 else 0)])
            if form == "bcast":  # a column (three spellings) against a row (three)
                col = r.choice(["({}).reshape(-1, 1)", "({})[:, None]", "np.expand_dims({}, 1)"])
                row = r.choice(["{}", "{}", "({})[None, :]", "np.atleast_2d({})"])
                col, row = col.format(self.made(fn, dt, g1, d)), row.format(self.chain(fn, dt, g2, d))
                return f"({col} {op} {row})"
            if form == "outer":
                spelled = "np.einsum('i,j->ij', {}, {})" if r.random() < 0.2 else "np.outer({}, {})"
                return spelled.format(self.chain(fn, dt, g1, d), self.chain(fn, dt, g2, d))
            mid = self.pick_group(fn)
            left = self.grid(fn, dt, g1, mid, d - 1) if r.random() < 0.7 else \
                f"({self.grid(fn, dt, mid, g1, d - 1)}).T"
            right = self.grid(fn, dt, mid, g2, d - 1)
            if r.random() < 0.2:  # the product spelled as numpy's einsum (explicit or implicit)
                return f"np.einsum({r.choice(['ij,jk->ik', 'ij,jk', 'ab,bc'])!r}, {left}, {right})"
            return f"({left} @ {right})"
        g = lambda: self.grid(fn, dt, g1, g2, d - 1)  # noqa: E731
        form = choice(r, [("arith", 4), ("row", 3), ("scalar", 3), ("unary", 2), ("where", 1),
                          ("rearranged", 1)])
        if form == "rearranged":  # new arrays (np.roll) and reversed views of the same shape
            k = self.scalar(fn, "int")
            return r.choice([f"np.roll({g()}, {k}, axis={r.choice([0, 1, -1])})", f"np.roll({g()}, {k})",
                             f"np.roll({g()}, ({k}, 1), (0, 1))", f"np.flip({g()}, {r.choice([0, 1])})",
                             f"np.flipud({g()})", f"np.fliplr({g()})", f"np.rot90({g()}, 2)",
                             f"np.flip({g()}, ({r.choice([0, 1])}, ({k}) % 2 - 1))",  # repeated: ValueError
                             f"np.flip({g()}, (({k}) % 4 - 1,))",  # 1 in 4 an axis out of range
                             f"np.roll({g()}, 1, (({k}) % 2, 1))",
                             f"({g()} {op} np.{'mean' if dt == 'float64' else 'max'}({g()}, keepdims=True))"])
        if form == "arith":
            return f"({g()} {op} {g()})"
        if form == "row":
            return f"({g()} {op} {self.chain(fn, dt, g2, d - 1)})"
        if form == "scalar":
            return f"({g()} {op} {self.scalar(fn, 'float' if dt == 'float64' else 'int')})"
        if form == "unary":
            if dt == "float64":
                return r.choice([f"np.sqrt(np.abs({g()}))", f"(-{g()})", f"abs({g()})"])
            return r.choice([f"(-{g()})", f"np.abs({g()})"])
        kind = "float" if dt == "float64" else "int"
        return f"np.where({g()} > {self.scalar(fn, kind)}, {g()}, {self.scalar(fn, kind)})"

    def from_grid(self, fn: Func, dt: str, g: str, d: int) -> str:
        """A 1-D chain of dtype ``dt`` and group ``g`` read from a grid."""
        r = self.rng
        other = self.pick_group(fn)
        forms = [("rows", 3), ("cols", 3), ("matvec", 2), ("vecmat", 2), ("transposed", 1), ("row", 1),
                 ("col", 1)] + ([("mean", 1)] if dt == "float64" else [])
        form = choice(r, forms)
        if form == "rows":
            if r.random() < 0.15:  # numpy's 1-D functions along the rows
                grid = self.grid(fn, dt, g, other, d)
                return r.choice([f"np.cumsum({grid}, axis=1)[:, -1]", f"np.argmax({grid}, axis=1)",
                                 f"np.diff({grid}, axis=1).sum(axis=1)", f"np.sort({grid})[:, 0]",
                                 f"np.diff({grid}, {r.choice([0, 2, 3])}, axis=1).sum(axis=1)",
                                 f"np.diff({grid}, ({self.scalar(fn, 'int')}) % 4, axis=1).sum(axis=1)",
                                 f"np.concatenate(({grid}, {self.grid(fn, dt, g, other, d)}), 1).sum(1)"])
            if r.random() < 0.2:  # a square grid along a run-time axis (AxisError out of range)
                sq = self.grid(fn, dt, g, g, d)
                ax = f"({self.scalar(fn, 'int')}) % {r.choice(['2', '5 - 2'])}"
                return r.choice([f"({sq}).sum(axis={ax})", f"np.argmax({sq}, {ax})",
                                 f"np.cumsum({sq}, axis={ax})[:, -1]",
                                 f"np.max({sq}, axis={ax}, keepdims=True)[0]"])
            if r.random() < 0.1:  # summed by einsum, or a square grid's diagonal (a view)
                return r.choice([f"np.einsum('ij->i', {self.grid(fn, dt, g, other, d)})",
                                 f"np.einsum('ii->i', {self.grid(fn, dt, g, g, d)})",
                                 f"np.einsum('ij,ij->i', {self.grid(fn, dt, g, other, d)}, "
                                 f"{self.grid(fn, dt, g, other, d)})"])
            return f"({self.grid(fn, dt, g, other, d)}).{'prod' if r.random() < 0.15 else 'sum'}(axis=1)"
        if form == "cols":
            if r.random() < 0.15:  # the rows of two grids joined (np.append along an axis)
                x, y = self.grid(fn, dt, other, g, d), self.grid(fn, dt, self.pick_group(fn), g, d)
                return r.choice([f"np.sum(np.concatenate(({x}, {y})), axis=0)",
                                 f"np.append({x}, {y}, axis=0).sum(axis=0)"])
            return f"np.sum({self.grid(fn, dt, other, g, d)}, axis=0)"
        if form == "mean":
            x = self.grid(fn, dt, g, other, d)
            return r.choice([f"np.mean({x}, axis={r.choice([1, -1])})", f"np.var({x}, axis=1)",
                             f"({x}).std(axis=-1, ddof={r.choice([0, 1])})", f"np.median({x}, axis=1)",
                             f"np.linalg.norm({x}, {r.choice(['1', 'np.inf', '0', '2'])}, axis=1)"])
        if form == "matvec":
            a, x = self.grid(fn, dt, g, other, d), self.chain(fn, dt, other, d)
            return r.choice([f"({a} @ {x})"] * 5 + [f"({a}).dot({x})"] * 2
                            + [f"np.einsum('ij,j->i', {a}, {x})"])
        if form == "vecmat":
            x, a = self.chain(fn, dt, other, d), self.grid(fn, dt, other, g, d)
            return f"np.einsum('j,ji', {x}, {a})" if r.random() < 0.15 else f"({x} @ {a})"
        if form == "transposed":
            ax = f"({self.scalar(fn, 'int')}) % {r.choice(['2', '5 - 3', '3'])}"  # 2: numpy's AxisError
            t = r.choice([lambda x: f"({x}).T", lambda x: f"np.transpose({x})",
                          lambda x: f"({x}).transpose()", lambda x: f"np.transpose({x}, (1, 0))",
                          lambda x: f"np.swapaxes({x}, 0, {ax})", lambda x: f"np.moveaxis({x}, {ax}, 0)",
                          lambda x: f"np.transpose({x}, ({ax}, 1 - {ax}))"])
            return f"np.dot({t(self.grid(fn, dt, other, g, d))}, {self.chain(fn, dt, other, d)})"
        if form == "row":
            return f"({self.grid(fn, dt, other, g, d)})[{r.choice(['0', '-1'])}]"
        return f"({self.grid(fn, dt, g, other, d)})[:, {r.choice(['0', '-1'])}]"

    def grid_reduced(self, fn: Func, kind: str, g: str, d: int) -> str:
        """A scalar of ``kind`` reduced from a grid (or a vector product) of group ``g``."""
        r = self.rng
        other = self.pick_group(fn)
        if kind == "bool":
            x = self.grid(fn, r.choice(["float64", "int64"]), g, other, d)
            truth = f"np.{r.choice(['any', 'all'])}({x} > {self.scalar(fn, 'int')}"
            if r.random() < 0.3:  # along an axis, then one of the truths
                return f"{truth}, axis={r.choice([0, 1])})[0]"
            if r.random() < 0.2:  # over every axis, kept: a 1 x 1 array
                return f"{truth}, {r.choice(['keepdims=True', 'axis=None, keepdims=True'])})[0, 0]"
            return f"{truth})"
        dt = "float64" if kind == "float" else "int64"
        if r.random() < 0.25:
            x, y = self.chain(fn, dt, g, d), self.chain(fn, dt, g, d)
            return r.choice([f"({x} @ {y})"] * 5 + [f"({x}).dot({y})"] * 2 + [f"np.einsum('i,i', {x}, {y})"])
        if r.random() < 0.05:  # numpy's einsum: a trace, a sum of products, a sum
            return r.choice([f"np.einsum('ii', {self.grid(fn, dt, g, g, d)})",
                             f"np.einsum('ij,ij', {self.grid(fn, dt, g, other, d)}, "
                             f"{self.grid(fn, dt, g, other, d)})",
                             f"np.einsum('ij->', {self.grid(fn, dt, g, other, d)})"])
        x = self.grid(fn, dt, g, other, d)
        if kind == "int" and r.random() < 0.03:  # a new n-D array of run-time dims: numpy's ValueErrors
            n = f"({self.scalar(fn, 'int')}) % 7 - 2"  # small, or negative: never a real allocation
            m = r.choice(["2**63 // 3", "2**61", "2**33", "-1", "0", "3"])
            return r.choice([f"np.zeros(({n}, {m})).size", f"np.ones(({m}, {n}, 2), dtype=bool).shape[0]",
                             f"len(np.full(({n}, {m}), 1.5))"])
        if r.random() < 0.05:  # a diagonal at an offset: small, known at run time, or past a C int
            off = r.choice(["0", "1", "-2", f"({self.scalar(fn, 'int')}) % 7 - 3", "2**31", "-2**31 - 1",
                            "2**40"])
            return r.choice([f"np.trace({x}, {off})", f"np.sum(np.diagonal({x}, {off}))",
                             f"len(({x}).diagonal({off}))"])
        if kind == "float":
            return r.choice([f"np.sum({x})", f"({x}).mean()", f"np.max({x})", f"({x}).min()", f"np.var({x})",
                             f"({x})[0, -1]", f"np.sum(({x}) * ({self.grid(fn, dt, g, other, d)}))",
                             f"np.sum({x}, axis=None)", f"np.max({x}, axis=(0, 1))",
                             f"np.sum({x}, keepdims=True)[0, 0]",
                             f"np.var({x}, axis=(0, 1), keepdims=True)[0, -1]",
                             f"({x}).mean(axis=None, keepdims=True)[-1, 0]",
                             f"np.sum(np.append({self.chain(fn, dt, g, d)}, {x}))",
                             f"np.linalg.norm({x}, {r.choice(['1', 'np.inf', '-np.inf', '-1'])})",
                             f"np.sum(np.unique({x}, return_index=True)[{r.choice([0, 1])}])"])
        return r.choice([f"np.sum({x})", f"({x}).max()", f"np.argmax({x})", f"({x})[-1, 0]", f"np.prod({x})",
                         f"np.prod({x}, keepdims=True)[0, 0]", f"({x}).min(keepdims=True)[0, 0]",
                         f"np.argmin({x}, axis=None, keepdims=True)[0, 0]",
                         f"np.argmax({x}, axis=1, keepdims=True)[0, 0]",
                         f"len(np.unique({x}))", f"np.sum(np.unique({x}, return_inverse=True)[1][0])",
                         f"np.unique({x}, return_counts=True)[1][-1]"])

    def grid_stmt(self, fn: Func, dt: str, g: str, d: int, v: str, kind: str) -> list[str]:
        """A 2-D local ``q`` of group ``(g, other)`` made from a grid, a view of it assigned,
        and scalar local ``v`` (of ``kind``) set to a reduction or an element of it."""
        r = self.rng
        other = self.pick_group(fn)
        q = self.fresh(fn, "mq")
        out = [f"{q} = {self.grid(fn, dt, g, other, d)}"]
        rows = r.choice([":", ":", "1:", ":-1", "::2", "::-1", "-1:"])
        cols = r.choice([":", ":", "1:", "::-1"])
        sk = "float" if dt == "float64" else "int"
        form = choice(r, [("scalar", 3), ("row", 2), ("col", 2), ("self", 2), ("grid", 1), ("line", 2),
                          ("mask", 2), ("ravel", 2)])
        if form == "scalar":
            out.append(f"{q}[{rows}, {cols}] = {self.scalar(fn, sk)}")
        elif form == "row":  # broadcast down the rows (numpy's ValueError for a misfit's length)
            out.append(f"{q}[{rows}, :] = {self.chain(fn, dt, other, d)}")
        elif form == "col":
            out.append(f"{q}[:, {cols}] = ({self.chain(fn, dt, g, d)})[:, None]")
        elif form == "self":  # overlapping views of q: numpy reads the value first
            out.append(r.choice([f"{q}[1:, :] = {q}[:-1, :]", f"{q}[:, ::-1] = {q}",
                                 f"{q}[::-1, 1:] = {q}[:, :-1]",
                                 f"{q}[...] = {q}.T" if g == other else f"{q}[...] = {q}[::-1]"]))
        elif form == "grid":
            out.append(f"{q}[...] = {self.grid(fn, dt, g, other, d)}")
        elif form == "ravel":  # numpy's view of a C-contiguous array, else a copy: q changes or not
            src = r.choice([q, f"{q}.T", f"{q}[::-1]", f"{q}[:, ::2]"])
            flat = f"np.ravel({src})" if r.random() < 0.5 else f"({src}).ravel()"
            out.append(f"{flat}[{r.choice([':1', '-1:', '1:3'])}] = {self.scalar(fn, sk)}")
        elif form == "mask":  # a mask of q's shape (or, for a misfit, another's: IndexError)
            m = q if r.random() < 0.8 else self.grid(fn, dt, other, g, d)
            op = r.choice(["", "", "+", "*"])
            out.append(f"{q}[{m} > {self.scalar(fn, sk)}] {op}= {self.scalar(fn, sk)}")
        else:  # a row or a column: a 1-D view
            out.append(r.choice([f"{q}[{r.choice(['0', '-1'])}] = {self.chain(fn, dt, other, d)}",
                                 f"{q}[:, {r.choice(['0', '-1'])}] = {self.chain(fn, dt, g, d)}"]))
        if kind == "float" and dt == "float64":
            use = r.choice([f"np.sum({q})", f"{q}.max()", f"{q}[-1, 0]", f"np.sum({q}, axis=0)[0]",
                            f"np.sum({q}[{q} < {self.scalar(fn, sk)}])"])
        else:
            use = r.choice([f"np.sum({q})", f"{q}.min()", f"{q}[0, -1]", f"np.argmax({q})"])
        if r.random() < 0.2:  # numpy's read-only diagonal, taken before the writes: it sees them
            out.insert(1, f"d{q} = {r.choice([f'np.diagonal({q})', f'{q}.diagonal()', f'np.diag({q})'])}")
            use = f"({use} + np.sum(d{q}))"
        return out + [f"{v} = {use}" if kind != "bool" else f"{v} = bool({use} > 0)"]
