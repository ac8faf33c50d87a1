"""Pass options chosen by the user.

Options: `tilelang.compile(..., pass_configs={"tl.<Pass>.<option>": value})`, or the key an option's spec names
(`key`, e.g. `{"tl.tt.dram_format": {"B": "bfloat8_b"}}` for InferTTLayout's dram_format).

Every option of a pass spec (specs/passes/*.yaml `options`) can be set this way for one compilation; the
pipelines read them through `pass_options` when they construct their passes. A key that names one of our
passes is checked (unknown option, wrong type, value outside the spec's choices are errors); other keys, such
as TileLang's CUDA-specific `tl.disable_tma_lower`, are accepted and ignored so unmodified TileLang scripts run.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from ..errors import TileLangError
from .pass_options import PASS_OPTIONS

PREFIX = "tl."
_CONFIGS: ContextVar[Mapping[str, Mapping[str, Any]] | None] = ContextVar("tilelang_pass_configs", default=None)
# Options the target sets (a mesh target's PartitionTTMesh.mesh), below the user's pass_configs.
_TARGET: ContextVar[Mapping[str, Mapping[str, Any]] | None] = ContextVar("tilelang_target_options", default=None)
_TYPES: dict[str, tuple[type, ...]] = {"bool": (bool,), "int": (int,), "float": (float, int), "string": (str,),
                                       "int_list": (list, tuple), "map": (dict,), "list": (list, tuple),
                                       "str_map": (dict,)}
# pass_configs keys outside the tl.<Pass>.<option> scheme (an option's spec `key`, e.g. tl.tt.dram_format).
KEYS: dict[str, tuple[str, str]] = {o["key"]: (name, option) for name, options in PASS_OPTIONS.items()
                                    for option, o in options.items() if o.get("key")}


def check_option(name: str, option: str, value: Any, key: str | None = None) -> None:
    """Raise TileLangError unless `value` suits option `option` of pass `name` (its spec's type and choices)."""
    where = f"pass_configs key '{key}'" if key else f"{name}({option}=...)"
    options = PASS_OPTIONS[name]
    if option not in options:
        raise TileLangError(f"{where}: pass {name} has no option '{option}' "
                            f"(options: {', '.join(options) or 'none'})")
    spec = options[option]
    if value is None and spec.get("device_default"):
        return  # the device's fact (filled in when the pass is constructed)
    kinds = _TYPES[spec["type"]]
    items = list(value) if spec["type"] == "int_list" and isinstance(value, (list, tuple)) else [value]
    numbers = spec["type"] in ("int", "float", "int_list")
    item_kinds = (int,) if spec["type"] == "int_list" else kinds
    if not isinstance(value, kinds) or (numbers and any(isinstance(v, bool) or not isinstance(v, item_kinds)
                                                        for v in items)):
        raise TileLangError(f"{where}: expected a {spec['type']} value, got {value!r}")
    if spec["type"] == "str_map" and not (isinstance(value, dict)
                                          and all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())):
        raise TileLangError(f"{where}: expected a map of names to strings, got {value!r}")
    if spec["choices"] and value not in spec["choices"]:
        raise TileLangError(f"{where}: {value!r} is not one of {', '.join(map(repr, spec['choices']))}")
    if spec["length"] is not None and len(items) != spec["length"]:
        raise TileLangError(f"{where}: expected {spec['length']} items, got {value!r}")
    if spec["minimum"] is not None and any(v < spec["minimum"] for v in items):
        raise TileLangError(f"{where}: every value must be at least {spec['minimum']}, got {value!r}")


def _parse(pass_configs: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    chosen: dict[str, dict[str, Any]] = {}
    for key, value in (pass_configs or {}).items():
        if str(key) in KEYS:
            name, option = KEYS[str(key)]
            check_option(name, option, value, key)
            chosen.setdefault(name, {})[option] = dict(value) if isinstance(value, dict) else value
            continue
        parts = str(getattr(key, "value", key)).split(".")
        if len(parts) != 3 or parts[0] + "." != PREFIX or not _names_a_pass(parts[1]):
            continue  # not one of our passes: a TileLang option for another backend (tl.disable_tma_lower)
        if parts[1] not in PASS_OPTIONS:
            close = difflib.get_close_matches(parts[1], PASS_OPTIONS, n=1)
            hint = f"; did you mean {PREFIX}{close[0]}.{parts[2]}?" if close else ""
            raise TileLangError(f"pass_configs key '{key}' names pass {parts[1]}, which does not exist{hint} (the "
                                f"passes are listed in generated/docs/passes.md)")
        name, option = parts[1], parts[2]
        check_option(name, option, value, key)
        chosen.setdefault(name, {})[option] = value
    return chosen


def _names_a_pass(part: str) -> bool:
    """`tl.<Pass>.<option>` keys name a pass in CamelCase (TileLang's own keys are `tl.snake_case`)."""
    return part[:1].isupper() and part.isidentifier()


@contextmanager
def configured(pass_configs: Mapping[str, Any] | None) -> Iterator[None]:
    """Within the block, pipelines construct passes with these options (checked first)."""
    token = _CONFIGS.set(_parse(pass_configs))
    try:
        yield
    finally:
        _CONFIGS.reset(token)


@contextmanager
def target_options(options: Mapping[str, Mapping[str, Any]], target: str) -> Iterator[None]:
    """Within the block, passes get these options of the target (`target`, named in errors); a pass_configs key
    choosing another value for one of them is a TileLangError."""
    for name, chosen in options.items():
        for option, value in chosen.items():
            user = (_CONFIGS.get() or {}).get(name, {}).get(option)
            if user is not None and list(user) != list(value):
                raise TileLangError(f"pass_configs key 'tl.{name}.{option}' is {user!r}, but the target {target} sets "
                                    f"{list(value)!r}; leave the option to the target or name a target with it")
    token = _TARGET.set(options)
    try:
        yield
    finally:
        _TARGET.reset(token)


def pass_options(name: str, **pipeline_options: Any) -> dict[str, Any]:
    """Keyword options of pass `name` for a pipeline step: the step's own options, then the target's, overridden by
    the user's."""
    return {**pipeline_options, **(_TARGET.get() or {}).get(name, {}), **(_CONFIGS.get() or {}).get(name, {})}
