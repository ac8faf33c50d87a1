"""The language spec's model (`specs/language/*.yaml`): which T.* names exist and what each becomes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .diagnostics import Location

if TYPE_CHECKING:
    from .loader import SpecFile


@dataclass(frozen=True)
class TileOpParam:
    name: str
    default: Any
    has_default: bool
    type: str = ""  # bool, int, float or string for a compile-time value; "" for tensors and expressions


@dataclass(frozen=True)
class TileOp:
    name: str
    primitive: str
    params: tuple[TileOpParam, ...]
    fixed: tuple[tuple[str, Any], ...]
    doc: str
    location: Location


@dataclass(frozen=True)
class Allocation:
    name: str
    scope: str
    doc: str


@dataclass(frozen=True)
class DtypeFunction:
    name: str
    params: tuple[str, ...]
    dtype_param: str
    location: Location


@dataclass(frozen=True)
class Function:
    """A T.* function implemented by the frontend engine (`_frontend.<name>`), with its TileLang signature."""

    name: str
    params: tuple[TileOpParam, ...]
    variadic: bool  # takes *args / **kwargs after its named parameters (hints accept anything)
    doc: str


@dataclass(frozen=True)
class Hint:
    """A T.* name that only informs GPU backends: accepted with any arguments, emits nothing here."""

    name: str
    doc: str


@dataclass(frozen=True)
class Enum:
    name: str
    members: tuple[str, ...]
    doc: str


@dataclass(frozen=True)
class Language:
    name: str
    doc: str
    dtypes: tuple[str, ...]
    dtype_aliases: tuple[tuple[str, str], ...]
    default_dtype: str
    default_threads: int
    reexports: tuple[str, ...]
    dtype_functions: tuple[DtypeFunction, ...]
    allocations: tuple[Allocation, ...]
    tile_ops: tuple[TileOp, ...]
    functions: tuple[Function, ...]
    hints: tuple[Hint, ...]
    enums: tuple[Enum, ...]
    pass_config_keys: tuple[tuple[str, str], ...]
    source: str
    location: Location
    locations: tuple[tuple[str, Location], ...]  # T.* name -> where the spec defines it

    @property
    def names(self) -> tuple[tuple[str, Location], ...]:
        return self.locations

    @property
    def constructor_aliases(self) -> tuple[tuple[str, str], ...]:
        """dtype aliases usable as T.<alias> constructors (T.float(1.0) is T.float32(1.0))."""
        return tuple((a, d) for a, d in self.dtype_aliases if a not in self.reexports)


def _params(raw: list[dict[str, Any]]) -> tuple[TileOpParam, ...]:
    return tuple(TileOpParam(p["name"], p.get("default"), "default" in p, p.get("type", "")) for p in raw)


def build_language(spec: SpecFile) -> Language:
    data = spec.data
    locations: list[tuple[str, Location]] = []
    for key in ("dtype_functions", "allocations", "tile_ops", "functions", "hints", "enums"):
        locations += [(item["name"], spec.at((key, i, "name"))) for i, item in enumerate(data.get(key, []))]
    locations += [(name, spec.at(("reexports", i))) for i, name in enumerate(data.get("reexports", []))]
    locations.sort(key=lambda item: item[1])
    return Language(
        name=data["name"],
        doc=data["doc"],
        dtypes=tuple(data["dtypes"]),
        dtype_aliases=tuple(sorted((data.get("dtype_aliases") or {}).items())),
        default_dtype=data["defaults"]["dtype"],
        default_threads=data["defaults"]["threads"],
        reexports=tuple(data.get("reexports", [])),
        dtype_functions=tuple(DtypeFunction(f["name"], tuple(f["params"]), f["dtype_param"],
                                            spec.at(("dtype_functions", i, "name")))
                              for i, f in enumerate(data.get("dtype_functions", []))),
        allocations=tuple(Allocation(a["name"], a["scope"], a["doc"]) for a in data["allocations"]),
        tile_ops=tuple(
            TileOp(op["name"], op["primitive"], _params(op["params"]),
                   tuple(sorted((op.get("fixed") or {}).items())), op["doc"], spec.at(("tile_ops", i, "name")))
            for i, op in enumerate(data["tile_ops"])
        ),
        functions=tuple(Function(f["name"], _params(f.get("params", [])), f.get("variadic", False), f["doc"])
                        for f in data.get("functions", [])),
        hints=tuple(Hint(h["name"], h["doc"]) for h in data.get("hints", [])),
        enums=tuple(Enum(e["name"], tuple(e["members"]), e["doc"]) for e in data.get("enums", [])),
        pass_config_keys=tuple((data.get("pass_config_keys") or {}).items()),
        source=spec.path,
        location=spec.at(("name",)),
        locations=tuple(locations),
    )
