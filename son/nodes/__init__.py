"""Sea-of-Nodes core: node classes by family, the Graph, the type lattice,
the text printer and the verifier."""

from .arith import (
    EQ,
    GE,
    GT,
    LE,
    LT,
    NE,
    SWAPPED,
    ULT,
    Add,
    Binary,
    BitAnd,
    BitOr,
    BitXor,
    Compare,
    Constant,
    Div,
    FloorDiv,
    GradVia,
    IEEEDiv,
    IEEEPow,
    Invert,
    IsFloat,
    Mod,
    Mul,
    Neg,
    Not,
    Pow,
    Shl,
    Shr,
    Sub,
    ToBool,
    ToFloat,
    ToInt,
    Unary,
    ZMul,
)
from .control import CFGNode, CProj, If, Loop, Never, Phi, Proj, Raise, Region, Return, Start, Stop, XCtrl
from .graph import Graph
from .lists import LIST_METHODS, ListLen, ListOp, NewList, list_converter
from .mathfn import (
    MATH_FUNCTIONS,
    MATH_NODES,
    Abs,
    IsFinite,
    IsInf,
    IsNan,
    MathCall,
    MathError,
    Max,
    Min,
)
from .memory import ArrayLen, Call, CallMem, CallOut, Load, NewArray, OutOfBounds, Overlaps, Store
from .node import Node, TupleOut, kept
from .opaque import PyOut, PyRegion, PyRegionMem
from .pairwise import PairwiseSum
from .printer import format_graph, ir
from .refine import Refine, implied_facts, unrefined, without_refinements
from .types import (
    BOOL,
    BOTTOM,
    CTRL,
    FLOAT,
    INT,
    MEM,
    NONE,
    NUMBER,
    TOP,
    XCTRL,
    ArrayType,
    ListType,
    ScalarType,
    TupleType,
    Type,
    constant,
    wrap64,
)
from .verifier import VerifyError, verify

globals().update(MATH_NODES)

__all__ = [name for name in dir() if not name.startswith("_")]
