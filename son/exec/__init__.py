"""Execution: the reference interpreter (code generation and Numba kernels follow)."""

from .interp import interpret

__all__ = ["interpret"]
