"""The Numba compiler pipeline son's kernels are compiled with (a separate module so that
``import son`` does not import numba; the generated kernel modules import it)."""

from __future__ import annotations

from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.untyped_passes import DeadBranchPrune

__all__ = ["KernelPipeline"]


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
