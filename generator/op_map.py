"""The `op_map` spec kind (specs/ops/*.yaml): which TIR expression of an element-wise store becomes which tile op.

Each entry names the TIR form it matches, the unit that runs it and its two intrinsic calls (init, tile). The
C++ recogniser reads the rendered table (generated/cpp/eltwise_ops.h); protocol parameters declared with `ops:
<unit>` take the entries of that unit as their choices and call `{param.init}` / `{param.tile}`; the emulator's
SFPU call codes and the kernel API forwarding of those calls are rendered from the SFPU entries.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .diagnostics import Diagnostics, Location
from .expressions import did_you_mean
from .naming import camel

if TYPE_CHECKING:
    from .ir_nodes import IrNode
    from .loader import SpecFile
    from .model import Intrinsic, SpecSet


@dataclass(frozen=True)
class Unit:
    """What runs an entry: the argument types its init and tile calls take, the match forms it accepts and how the
    emulator's kernel API forwards its tile call ("" for FPU calls, which the emulator implements by hand)."""

    init_args: tuple[str, ...]
    tile_args: tuple[str, ...]
    forms: tuple[str, ...]
    emulator: str
    shares_tile: bool = False  # its entries are one tile call with other arguments (clamp_tile's two bounds)


# Match forms: "call" (T.exp(x)), "binary" (a node of two buffers), "scalar" (a node of a buffer and any constant),
# "special" (a node of a buffer and one constant value: Max(x, 0), 1 / x), "literal" (a constant store).
UNITS: dict[str, Unit] = {
    "fpu_binary": Unit(("uint32", "uint32"), ("uint32",) * 5, ("binary",), ""),
    "fpu_bcast_cols": Unit(("uint32", "uint32"), ("uint32",) * 5, ("binary",), ""),
    "fpu_bcast_rows": Unit(("uint32", "uint32"), ("uint32",) * 5, ("binary",), ""),
    "fpu_bcast_scalar": Unit(("uint32", "uint32"), ("uint32",) * 5, ("binary",), ""),
    "sfpu_binary": Unit((), ("uint32",) * 3, ("binary",), "binary"),
    "sfpu_unary": Unit((), ("uint32",), ("call", "special"), "unary"),
    "sfpu_scalar": Unit((), ("uint32", "uint32"), ("scalar",), "scalar_bits"),
    "sfpu_clamp": Unit((), ("uint32", "uint32", "uint32"), ("scalar",), "bounds_bits", shares_tile=True),
    "fill": Unit((), ("uint32", "float32"), ("literal",), "value"),
}
# The arithmetic nodes an entry may match, as kernel authors write them (for messages and the docs).
NODE_SYMBOLS = {"Add": "+", "Sub": "-", "Mul": "*", "Div": "/", "Max": "T.max", "Min": "T.min", "EQ": "==", "NE": "!=",
                "GT": ">", "GE": ">=", "LT": "<", "LE": "<="}


def unit_enum(unit: str) -> str:
    """The C++ enumerator of a unit in generated/cpp/eltwise_ops.h (tl::eltwise::Unit)."""
    return "k" + camel(unit)


@dataclass(frozen=True)
class EltwiseOp:
    name: str
    unit: str
    call: str  # TVM op name of a call form, else ""
    node: str  # ir view of a node form, else ""
    constant: str  # "", "left", "right" or "either"
    value: float | None  # the constant a special form requires
    literal: bool
    by_name: bool  # never matched by a store: tile ops name it
    init: str
    tile: str
    doc: str
    source: str
    location: Location
    init_location: Location
    tile_location: Location
    scale: float | None = None  # the function is the tile call's result times this (another entry's calls)

    @property
    def form(self) -> str:
        """The match form (a key of the forms of UNITS)."""
        if self.by_name:
            return "by_name"
        if self.literal:
            return "literal"
        if self.call:
            return "call"
        if not self.constant:
            return "binary"
        return "scalar" if self.value is None else "special"

    @property
    def written(self) -> str:
        """How a kernel author writes it, e.g. T.exp(x), x * c, T.max(x, 0), a + b ("" for a by_name entry)."""
        if self.by_name:
            return ""
        if self.literal:
            return "a constant"
        if self.call:
            return f"T.{self.call.split('.')[-1]}(x)"
        c = "c" if self.value is None else f"{self.value:g}"
        left, right = ("a", "b") if not self.constant else (c, "x") if self.constant == "left" else ("x", c)
        symbol = NODE_SYMBOLS.get(self.node, self.node)
        return f"{symbol}({left}, {right})" if symbol[0].isalpha() else f"{left} {symbol} {right}"


@dataclass(frozen=True)
class OpMap:
    name: str
    doc: str
    ops: tuple[EltwiseOp, ...]
    source: str
    location: Location


def build_op_map(spec: SpecFile) -> OpMap:
    ops = []
    for index, raw in enumerate(spec.data["ops"]):
        where = ("ops", index)
        match: dict[str, Any] = raw["match"]
        value = match.get("value")
        ops.append(EltwiseOp(
            name=raw["name"], unit=raw["unit"], call=match.get("call", ""), node=match.get("node", ""),
            constant=match.get("constant", ""), value=float(value) if value is not None else None,
            literal=bool(match.get("literal", False)), by_name=bool(match.get("by_name", False)), init=raw["init"],
            tile=raw["tile"], doc=raw["doc"],
            source=spec.path, location=spec.at(where), init_location=spec.at(where + ("init",)),
            tile_location=spec.at(where + ("tile",)), scale=float(raw["scale"]) if "scale" in raw else None,
        ))
    return OpMap(spec.data["name"], spec.data["doc"], tuple(ops), spec.path, spec.at(("name",)))


def _match_problem(op: EltwiseOp, nodes: dict[str, IrNode]) -> str | None:
    """Why the entry's match is malformed for its unit (None when it is fine)."""
    keys = [k for k, v in (("call", op.call), ("node", op.node), ("literal", op.literal), ("by_name", op.by_name))
            if v]
    if len(keys) != 1:
        return "a match names exactly one of 'call', 'node', 'literal' and 'by_name'"
    if op.by_name:
        return None  # any unit: its calls are checked as the unit's
    if op.constant and not op.node or op.value is not None and not op.constant:
        return "'constant' goes with 'node', and 'value' with 'constant'"
    if op.scale is not None and (op.unit != "sfpu_unary" or op.form != "call"):
        return "'scale' goes with an sfpu_unary call form"
    if op.form not in UNITS[op.unit].forms:
        wanted = {"binary": "a node of two buffers ({node: Add})", "call": "a call ({call: tirx.exp})",
                  "special": "a node with a constant of one value ({node: Max, constant: either, value: 0})",
                  "scalar": "a node with a constant ({node: Mul, constant: either})",
                  "literal": "a constant store ({literal: true})"}
        return f"{op.unit} ops match {' or '.join(wanted[f] for f in UNITS[op.unit].forms)}"
    if op.node:
        if op.node not in NODE_SYMBOLS:
            return f"node '{op.node}' is not an element-wise arithmetic node (one of: {', '.join(NODE_SYMBOLS)})"
        fields = {f.name: f.type for f in nodes[op.node].fields} if op.node in nodes else {}
        if fields.get("a") != "Expr" or fields.get("b") != "Expr":
            return f"node '{op.node}' needs a view with Expr fields a and b in an ir spec (specs/ir)"
    return None


def _phase(op: EltwiseOp) -> int:
    """When the recogniser tries an entry: the outer SFPU function first, then an operation with a constant, then
    one of two buffers, then a buffer and a column or row vector or a scalar (constant stores are recognised before
    all of them)."""
    return {"sfpu_unary": 1, "sfpu_scalar": 2, "sfpu_clamp": 2, "fill": 0, "fpu_bcast_cols": 4, "fpu_bcast_rows": 5,
            "fpu_bcast_scalar": 6}.get(op.unit, 3)


def _shadows(earlier: EltwiseOp, op: EltwiseOp) -> bool:
    """Whether `earlier` matches everything `op` matches (so the recogniser never reaches `op`)."""
    if earlier.by_name or op.by_name:
        return False
    if _phase(earlier) != _phase(op) or earlier.form == "call" or op.form == "call":
        return _phase(earlier) == _phase(op) and (earlier.call, earlier.literal) == (op.call, op.literal)
    sides = earlier.constant in ("either", op.constant)
    return earlier.node == op.node and sides and (earlier.value is None or earlier.value == op.value)


def _call_problem(op: EltwiseOp, which: str, wanted: tuple[str, ...], intrinsics: dict[str, Intrinsic],
                  profiles: tuple[str, ...]) -> str | None:
    name = op.init if which == "init" else op.tile
    target = intrinsics.get(name)
    if target is None:
        return f"{which} call of '{op.name}': unknown intrinsic '{name}'{did_you_mean(name, intrinsics)}"
    types = tuple(a.type for a in target.args)
    if types != wanted:
        return (f"{which} call '{name}' of {op.unit} op '{op.name}' must take ({', '.join(wanted)}); it takes "
                f"({', '.join(types)})")
    if target.level != "concrete" or "compute" not in target.roles:
        return f"{which} call '{name}' must be a concrete intrinsic of compute kernels"
    missing = [p for p in profiles if target.spelling_in(p) is None]
    if missing:
        return (f"{which} call '{name}' of '{op.name}' is not offered by API profile '{missing[0]}' (every "
                "element-wise op runs in every profile)")
    return None


def check_op_maps(model: SpecSet, diagnostics: Diagnostics) -> set[EltwiseOp]:
    """Check the op map; returns the entries found wrong (protocols skip them rather than report them again)."""
    bad: set[EltwiseOp] = set()
    for extra in model.op_maps[1:]:
        diagnostics.error(extra.location, f"a project has one op_map spec; '{model.op_maps[0].name}' is defined at "
                          f"{model.op_maps[0].location}")
    intrinsics = {i.name: i for i in model.intrinsics}
    nodes = {n.view: n for n in model.ir_nodes}
    device = model.device_backend
    profiles = tuple(p.name for p in (device.profiles if device else model.profiles))
    seen: dict[tuple[str, str], Location] = {}
    tiles: dict[str, EltwiseOp] = {}
    problems = {op: _match_problem(op, nodes) for op in model.eltwise_ops}
    for op in model.eltwise_ops:
        if (op.unit, op.name) in seen:
            diagnostics.error(op.location, f"{op.unit} op '{op.name}' is defined twice (first at "
                              f"{seen[(op.unit, op.name)]})")
        seen.setdefault((op.unit, op.name), op.location)
        problem = problems[op]
        earlier = model.eltwise_ops[:model.eltwise_ops.index(op)]
        shadow = next((e for e in earlier if problems[e] is None and _shadows(e, op)), None)
        if problem is None and shadow is not None:
            problem = f"never matches: '{shadow.name}' ({shadow.location}) matches every {op.written} first"
        if problem:
            diagnostics.error(op.location, f"op '{op.name}': {problem}")
        unit = UNITS[op.unit]
        for which, wanted, location in (("init", unit.init_args, op.init_location),
                                        ("tile", unit.tile_args, op.tile_location)):
            call_problem = _call_problem(op, which, wanted, intrinsics, profiles)
            if call_problem:
                diagnostics.error(location, call_problem)
                bad.add(op)
        if op.scale is not None:  # another entry's calls, then a product with the constant
            base = tiles.get(op.tile)
            if base is None or base.scale is not None or base.unit != op.unit or base.init != op.init:
                diagnostics.error(op.tile_location, f"'{op.name}' has a scale, so its tile call '{op.tile}' must be "
                                  "the tile call of an earlier entry of its unit without one, with the same init")
            continue
        shared = op.tile in tiles and tiles[op.tile].unit == op.unit and unit.shares_tile
        if op.tile in tiles and not shared:
            diagnostics.error(op.tile_location, f"tile call '{op.tile}' already computes '{tiles[op.tile].name}' "
                              f"({tiles[op.tile].location}); each op has a tile call of its own")
        tiles.setdefault(op.tile, op)
        if op.init in tiles:
            diagnostics.error(op.init_location, f"'{op.init}' is the tile call of '{tiles[op.init].name}'")
    return bad


@dataclass(frozen=True)
class SfpuCall:
    """An SFPU call of the emulator: its code, and for a tile call the init it needs and how it is forwarded."""

    name: str
    code: int
    init: str  # "" for an init
    emulator: str  # "" for an init; a key of UNITS' emulator forms for a tile call


def sfpu_calls(model: SpecSet) -> tuple[SfpuCall, ...]:
    """The SFPU inits and tile calls of the op map, numbered from 1 in name order (0 is no call)."""
    found: dict[str, tuple[str, str]] = {}
    for op in model.eltwise_ops:
        unit = UNITS[op.unit]
        if unit.emulator:
            found[op.init] = ("", "")
            found[op.tile] = (op.init, unit.emulator)
    return tuple(SfpuCall(name, code, *found[name]) for code, name in enumerate(sorted(found), start=1))
