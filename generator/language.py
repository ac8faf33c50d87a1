"""The language spec's model (`specs/language/*.yaml`): which T.* names exist and what each becomes."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .diagnostics import Diagnostics, Location

if TYPE_CHECKING:
    from .loader import SpecFile


@dataclass(frozen=True)
class TileOpParam:
    name: str
    default: Any
    has_default: bool
    type: str = ""  # bool, int, float or string for a compile-time value; "" for tensors and expressions
    location: Location | None = field(default=None, compare=False)  # of its default, else of its name


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


def _params(spec: SpecFile, path: tuple[str | int, ...], raw: list[dict[str, Any]]) -> tuple[TileOpParam, ...]:
    return tuple(TileOpParam(p["name"], p.get("default"), "default" in p, p.get("type", ""),
                             spec.at((*path, i, "default" if "default" in p else "name")))
                 for i, p in enumerate(raw))


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
            TileOp(op["name"], op["primitive"], _params(spec, ("tile_ops", i, "params"), op["params"]),
                   tuple(sorted((op.get("fixed") or {}).items())), op["doc"], spec.at(("tile_ops", i, "name")))
            for i, op in enumerate(data["tile_ops"])
        ),
        functions=tuple(Function(f["name"], _params(spec, ("functions", i, "params"), f.get("params", [])),
                                 f.get("variadic", False), f["doc"])
                        for i, f in enumerate(data.get("functions", []))),
        hints=tuple(Hint(h["name"], h["doc"]) for h in data.get("hints", [])),
        enums=tuple(Enum(e["name"], tuple(e["members"]), e["doc"]) for e in data.get("enums", [])),
        pass_config_keys=tuple((data.get("pass_config_keys") or {}).items()),
        source=spec.path,
        location=spec.at(("name",)),
        locations=tuple(locations),
    )


def _builders(package: Path) -> dict[str, tuple[set[str], set[str], bool]]:
    """build_* functions of the frontend engine's modules, read with `ast` (never imported): name -> (parameters,
    those without a default, whether it takes **kwargs)."""
    found: dict[str, tuple[set[str], set[str], bool]] = {}
    for module in sorted(package.glob("*.py")):
        try:
            tree = ast.parse(module.read_text("utf-8"))
        except (OSError, SyntaxError, ValueError):
            continue
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("build_"):
                args = node.args.posonlyargs + node.args.args
                required = {a.arg for a in args[: len(args) - len(node.args.defaults)]}
                required |= {a.arg for a, d in zip(node.args.kwonlyargs, node.args.kw_defaults, strict=True)
                             if d is None}
                names = {a.arg for a in args + node.args.kwonlyargs}
                found[node.name] = (names, required, node.args.kwarg is not None)
    return found


def check_builders(languages: tuple[Language, ...], package: Path, diagnostics: Diagnostics) -> None:
    """Each T.<tile op> calls `build_<primitive>` of the frontend engine (python/tilelang/language) with its
    parameters and fixed values by name: the builder must exist and take exactly those (skipped without the
    hand-written package, as in a copy of the specs alone)."""
    if not package.is_dir():
        return
    builders = _builders(package)
    for language in languages:
        for op in language.tile_ops:
            builder = f"build_{op.primitive}"
            if builder not in builders:
                diagnostics.error(op.location, f"T.{op.name}: the frontend engine has no {builder}")
                continue
            names, required, any_keyword = builders[builder]
            passed = [p.name for p in op.params] + [key for key, _ in op.fixed]
            extra = [n for n in passed if n not in names and not any_keyword]
            missing = sorted(required - set(passed))
            if extra or missing:
                what = (f"passes {', '.join(map(repr, extra))}, which it does not take" if extra
                        else f"does not pass {', '.join(map(repr, missing))}, which it needs")
                diagnostics.error(op.location, f"T.{op.name} {what} ({builder} takes {', '.join(sorted(names))})")

