"""Which parameters each rule kind's C++ engine takes, derived from schema/pass.schema.json.

The schema states each engine's parameters once: their names in the engine's argument order (`$defs/<kind>_params`'s
`properties`), which are required, and each one's shape (`$ref: #/$defs/<shape>`); the kinds are the rule kinds whose
`if kind == K` condition requires `params` of `$defs/<K>_params`. This module adds only what JSON Schema cannot say:
the names each parameter's expressions see, what the keys of case-like parameters name, and which parameters also
see the replaced op's arguments. A parameter added to the schema therefore reaches the build, the parameter struct of
generated/cpp/engine_decls.h and the rendered engine call; an annotation naming a parameter the schema lacks is an
error here (tests/generator/test_schemas.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The schema of this checkout: the one its C++ engines (src/transform) are written against. An installed wheel has
# no checkout around it and carries that schema in the package (CMakeLists.txt installs it there).
_CHECKOUT_SCHEMA = Path(__file__).resolve().parent.parent / "schema" / "pass.schema.json"
PASS_SCHEMA = _CHECKOUT_SCHEMA if _CHECKOUT_SCHEMA.is_file() else Path(__file__).resolve().parent / "pass.schema.json"

# Parameter shapes; each is one definition of schema/pass.schema.json (#/$defs/<shape>).
SHAPES = ("name", "names", "name_pairs", "expression", "expression_map", "checks", "cases", "op_expressions",
          "op_expression_maps", "modes")
# Rule kinds that configure no engine (they name a TVM transform or a hand-written hook).
NO_ENGINE = ("tvm", "hook")

# What a multicast rule sees of a block read besides its arguments: the partition and the sharing direction.
MULTICAST_FACTS = ("partition_mode", "uniform", "cores_x", "cores_y", "along", "receivers")
_GRID = ("grid_x", "grid_y", "cores_x", "cores_y")

# kind -> parameter -> the names its expressions see (besides rules.COMMON_NAMES).
SEES: dict[str, dict[str, tuple[str, ...]]] = {
    "annotate": {"fields": ("buffer",), "require": ("buffer",)},
    "partition": {"require": _GRID, "auto_shard": _GRID},
    "dataflow": {"depth": ("pages", "stages"),
                 "partial": ("mt", "nt", "k_count", "pages", "dst_capacity", "transposed", "tilized",
                             "shares_dst")},
    "accessors": {"args": ("tensor", "position", "address", "cb", "previous"), "address_arg": ("name",)},
    "multicast": {"when": MULTICAST_FACTS, "runtime_args": MULTICAST_FACTS + ("x", "y"), "args": MULTICAST_FACTS,
                  "prefix": MULTICAST_FACTS},
    "constants": {"filled": ("row",)},
    "verify": {"checks": ("cbs", "l1_bytes", "largest_cb", "runtime_args", "kernel")},
}
# (kind, parameter) of case-like parameters -> what their keys name, "tile_ops" or "intrinsics".
SUBJECTS: dict[tuple[str, str], str] = {
    ("lower_tiles", "cases"): "tile_ops",
    ("rewrite", "cases"): "intrinsics",
    ("compute_init", "families"): "intrinsics",
    ("compute_init", "operands"): "intrinsics",
}
# Parameters whose expressions also see the arguments of the op the rule replaces.
SEES_OP_ARGS = frozenset({("multicast", "when"), ("multicast", "runtime_args"), ("multicast", "args"),
                          ("multicast", "prefix")})


@dataclass(frozen=True)
class Param:
    shape: str  # one of SHAPES
    names: tuple[str, ...] = ()  # names the expressions of expression/expression_map/checks see
    required: bool = True
    subjects: str = ""  # cases, op_*: what their keys name, "tile_ops" or "intrinsics" (whose arguments they see)
    sees_op_args: bool = False  # multicast: expressions also see the arguments of the op the rule replaces


class EngineTableError(ValueError):
    """The schema and this module's annotations disagree (a project defect, named with its place)."""


def _kinds(schema: dict[str, Any]) -> list[tuple[str, str]]:
    """(kind, name of its params definition), in the order of the rule kinds' enum."""
    rule = schema["$defs"]["rule"]
    refs: dict[str, str] = {}
    for condition in rule.get("allOf", []):
        kind = condition.get("if", {}).get("properties", {}).get("kind", {}).get("const")
        ref = condition.get("then", {}).get("properties", {}).get("params", {}).get("$ref", "")
        if kind is not None:
            refs[kind] = ref.removeprefix("#/$defs/")
    kinds = [k for k in rule["properties"]["kind"]["enum"] if k not in NO_ENGINE]
    missing = [k for k in kinds if k not in refs]
    if missing:
        raise EngineTableError(f"{PASS_SCHEMA.name}: rule kind '{missing[0]}' has no `if kind == '{missing[0]}'` "
                               "condition naming its $defs/<kind>_params")
    return [(kind, refs[kind]) for kind in kinds]


def engine_table(schema: dict[str, Any]) -> dict[str, dict[str, Param]]:
    """The engines' parameters as `schema` (the pass schema's document) states them, with this module's annotations."""
    table: dict[str, dict[str, Param]] = {}
    for kind, definition in _kinds(schema):
        params = schema["$defs"][definition]
        required = set(params.get("required", []))
        table[kind] = {}
        for key, described in params.get("properties", {}).items():
            shape = described.get("$ref", "").removeprefix("#/$defs/")
            if shape not in SHAPES:
                raise EngineTableError(f"{PASS_SCHEMA.name}: $defs/{definition}/{key} is no parameter shape "
                                       f"(its $ref must be #/$defs/ one of {', '.join(SHAPES)})")
            table[kind][key] = Param(shape, SEES.get(kind, {}).get(key, ()), key in required,
                                     SUBJECTS.get((kind, key), ""), (kind, key) in SEES_OP_ARGS)
    annotated = {(k, p) for k, names in SEES.items() for p in names} | set(SUBJECTS) | SEES_OP_ARGS
    stray = sorted((k, p) for k, p in annotated if p not in table.get(k, {}))
    if stray:
        raise EngineTableError(f"generator/engine_table.py annotates parameter '{stray[0][1]}' of rule kind "
                               f"'{stray[0][0]}', which {PASS_SCHEMA.name} does not declare")
    return table


def load_engine_table(path: Path = PASS_SCHEMA) -> dict[str, dict[str, Param]]:
    try:
        schema = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as exc:
        raise EngineTableError(f"cannot read the engines' parameters from {path}: {exc}") from exc
    return engine_table(schema)
