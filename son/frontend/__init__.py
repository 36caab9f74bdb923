"""Python source -> Sea-of-Nodes graph, folded by the peephole as it is built."""

from .api import parse, parse_source
from .arrayfns import gradient_surrogates

__all__ = ["gradient_surrogates", "parse", "parse_source"]
