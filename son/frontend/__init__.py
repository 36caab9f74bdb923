"""Python source -> Sea-of-Nodes graph, folded by the peephole as it is built."""

from .api import parse, parse_source

__all__ = ["parse", "parse_source"]
