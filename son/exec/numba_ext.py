"""What son's kernels need from Numba beyond ``njit``: the compiler pipeline they are
compiled with and the intrinsics ``opaque``, ``negate`` and ``unsigned`` (a separate
module so that ``import son`` does not import numba; the generated kernel modules
import it)."""

from __future__ import annotations

import platform

from llvmlite import ir
from numba.core import types
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.untyped_passes import DeadBranchPrune
from numba.extending import intrinsic

__all__ = ["KernelPipeline", "negate", "opaque", "unsigned"]

#: an inline-asm operand constraint that keeps a double in its register, by machine
_SAME_REGISTER = {"x86_64": "=x,0", "AMD64": "=x,0", "aarch64": "=w,0",
                  "arm64": "=w,0"}.get(platform.machine())


@intrinsic
def opaque(typingctx, x):
    """``x`` itself, through an empty inline-asm statement LLVM cannot see into: a
    constant operand of ``**`` stays unknown to LLVM, which would otherwise rewrite
    ``pow(x, 2.0)`` as ``x * x``, ``pow(x, -1.0)`` as ``1 / x``, ``pow(x, 0.5)`` as
    ``sqrt`` and ``pow(2.0, y)`` as ``exp2``: each correctly rounded, where CPython
    calls the C library's ``pow``, which is not always (glibc: up to 0.52 ulp), so the
    kernel was an ulp off CPython (son.fuzz seed 6125 i3151).  On a machine without a
    known constraint it is the identity and the rewrite may happen.  O(1), no
    instruction emitted."""
    if x is not types.float64:
        return None
    sig = types.float64(types.float64)

    def codegen(context, builder, signature, args):
        if _SAME_REGISTER is None:
            return args[0]
        fnty = ir.FunctionType(ir.DoubleType(), [ir.DoubleType()])
        return builder.asm(fnty, "", _SAME_REGISTER, args, False, name="opaque")

    return sig, codegen


@intrinsic
def negate(typingctx, x):
    """``-x`` as CPython computes it: a float's sign bit flipped, a NaN's included
    (LLVM's ``fneg``); an int64 wraps.  numba writes a float's ``-x`` as
    ``fsub -0.0, x``, whose NaN LLVM may fold with either sign, so
    ``copysign(0, -(nan + x))`` was 0.0 where CPython gives -0.0 (son.fuzz seed 10125
    i4449).  O(1), one instruction."""
    if x is types.float64:
        def codegen(context, builder, signature, args):
            return builder.fneg(args[0])
    elif x is types.int64:
        def codegen(context, builder, signature, args):
            return builder.neg(args[0])
    else:
        return None
    return x(x), codegen


@intrinsic
def unsigned(typingctx, x):
    """``x`` as a uint64, for an array index the lattice proves non-negative: numba
    reads an unsigned index without its wrap-around test for negative ones.  The same
    as ``np.uint64(x)``, whose typing (a call resolved through numba's NumPy scalar
    constructors) costs each kernel about 3 ms of compile time per index
    (benchmarks/kernels.py's first-call latency).  O(1), no instruction for an int64."""
    if not isinstance(x, (types.Integer, types.Boolean)):
        return None

    def codegen(context, builder, signature, args):
        return context.cast(builder, args[0], signature.args[0], types.uint64)

    return types.uint64(x), codegen


class KernelPipeline(CompilerBase):
    """Numba's nopython pipeline without its ``DeadBranchPrune`` passes.

    son has folded every branch it can prove before writing the source, so numba's
    pruning finds little; and where it does (a test of a variable assigned a literal on
    the only path codegen wrote, because the structurer decided a guard that the graph
    still has), pruning it can cut a loop's back edge, prune again, and leave a variable
    read after the loop with no definition: numba then refuses the kernel ("Unsupported
    assignment ... Undefined").  Found by son.fuzz
    (tests/regressions/cases/kernel_pruned_loop_leaves_value_undefined.py)."""

    def define_pipelines(self):
        pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
        pm.passes = [p for p in pm.passes if p[0] is not DeadBranchPrune]
        pm.finalize()
        return [pm]
