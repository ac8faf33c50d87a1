"""Pass options and the pass implementation chosen by the user.

Options: `tilelang.compile(..., pass_configs={"tl.<Pass>.<option>": value})`.

Every option of a pass spec (specs/passes/*.yaml `options`) can be set this way for one compilation; the
pipelines read them through `pass_options` when they construct their passes. A key that names one of our
passes is checked (unknown option, wrong type, value outside the spec's choices are errors); other keys, such
as TileLang's CUDA-specific `tl.disable_tma_lower`, are accepted and ignored so unmodified TileLang scripts run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import ModuleType
from typing import Any

from ..language._frontend import TileLangError

PREFIX = "tl."
_CONFIGS: ContextVar[Mapping[str, Mapping[str, Any]] | None] = ContextVar("tilelang_pass_configs", default=None)
_TYPES: dict[str, tuple[type, ...]] = {"bool": (bool,), "int": (int,), "string": (str,),
                                       "int_list": (list, tuple), "map": (dict,), "list": (list, tuple)}


def _parse(pass_configs: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    from ..transform import PASS_OPTIONS

    chosen: dict[str, dict[str, Any]] = {}
    for key, value in (pass_configs or {}).items():
        parts = str(key).split(".")
        if len(parts) != 3 or parts[0] + "." != PREFIX or parts[1] not in PASS_OPTIONS:
            continue  # not one of our passes: a TileLang option for another backend
        name, option = parts[1], parts[2]
        options = PASS_OPTIONS[name]
        if option not in options:
            raise TileLangError(f"pass_configs key '{key}': pass {name} has no option '{option}' "
                                f"(options: {', '.join(options) or 'none'})")
        spec = options[option]
        kinds = _TYPES[spec["type"]]
        if not isinstance(value, kinds) or (spec["type"] == "int" and isinstance(value, bool)):
            raise TileLangError(f"pass_configs key '{key}': expected a {spec['type']} value, got {value!r}")
        if spec["choices"] and value not in spec["choices"]:
            raise TileLangError(f"pass_configs key '{key}': {value!r} is not one of "
                                f"{', '.join(map(repr, spec['choices']))}")
        chosen.setdefault(name, {})[option] = value
    return chosen


@contextmanager
def configured(pass_configs: Mapping[str, Any] | None) -> Iterator[None]:
    """Within the block, pipelines construct passes with these options (checked first)."""
    token = _CONFIGS.set(_parse(pass_configs))
    try:
        yield
    finally:
        _CONFIGS.reset(token)


def pass_options(name: str, **pipeline_options: Any) -> dict[str, Any]:
    """Keyword options of pass `name` for a pipeline step: the step's own options, overridden by the user's."""
    return {**pipeline_options, **(_CONFIGS.get() or {}).get(name, {})}


# Which rendering of the pass specs the pipelines run: the Python modules (tilelang.transform) or the C++ sources
# (tilelang.transform.cpp, built on first use). `pass_impl=` of tilelang.lower/compile/jit, else this variable.
PASS_IMPLS = ("python", "cpp")
PASS_IMPL_ENV = "TILELANG_PASS_IMPL"
_IMPL: ContextVar[str | None] = ContextVar("tilelang_pass_impl", default=None)


def _checked_impl(value: str, where: str) -> str:
    if value not in PASS_IMPLS:
        raise TileLangError(f"{where} is {value!r}; expected one of {', '.join(map(repr, PASS_IMPLS))}")
    return value


def pass_impl() -> str:
    """The implementation in effect: the innermost `implementation(...)`, else $TILELANG_PASS_IMPL, else python."""
    chosen = _IMPL.get()
    if chosen is not None:
        return chosen
    return _checked_impl(os.environ.get(PASS_IMPL_ENV) or "python", f"${PASS_IMPL_ENV}")


@contextmanager
def implementation(impl: str | None) -> Iterator[None]:
    """Within the block, pipelines build their passes from `impl` (None keeps the current choice)."""
    token = _IMPL.set(_checked_impl(impl, "pass_impl") if impl is not None else _IMPL.get())
    try:
        yield
    finally:
        _IMPL.reset(token)


def passes() -> ModuleType:
    """The module whose pass constructors the pipelines call (same names and signatures in both)."""
    from .. import transform

    if pass_impl() == "cpp":
        from ..transform import cpp

        return cpp
    return transform
