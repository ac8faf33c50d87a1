"""Cross-spec checks: what JSON Schema cannot see because it looks at one file at a time."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any
from typing import Protocol as TypingProtocol

from . import expressions
from .diagnostics import Diagnostics, Location
from .expressions import did_you_mean
from .model import (
    DEFAULT_RUNTIME,
    FRONTEND_CONSTRUCTS,
    PROCESSOR_CLASS,
    Intrinsic,
    Protocol,
    ProtocolStep,
    SpecSet,
)
from .op_map import EltwiseOp, check_op_maps
from .params import Value
from .pass_checks import check_hooks, check_passes, check_pipelines
from .records import check_attribute_records

__all__ = ["check_hooks", "check_model"]  # check_hooks lives with the pass checks; callers find it here too


class _Named(TypingProtocol):
    @property
    def name(self) -> str: ...

    @property
    def location(self) -> Location: ...


def _duplicates(what: str, objects: Iterable[_Named], diagnostics: Diagnostics) -> None:
    first: dict[str, Location] = {}
    for obj in sorted(objects, key=lambda o: o.location):
        if obj.name in first:
            diagnostics.error(obj.location, f"duplicate {what} '{obj.name}' (first defined at {first[obj.name]})")
        else:
            first[obj.name] = obj.location


def check_model(model: SpecSet, diagnostics: Diagnostics) -> None:
    _duplicates("intrinsic", model.intrinsics, diagnostics)
    _duplicates("protocol", model.protocols, diagnostics)
    _duplicates("pass", model.passes, diagnostics)
    _duplicates("pipeline", model.pipelines, diagnostics)
    _duplicates("backend", model.backends, diagnostics)
    _duplicates("API profile", model.profiles, diagnostics)
    _check_intrinsics(model, diagnostics)
    bad_ops = check_op_maps(model, diagnostics)
    _check_protocols(model, bad_ops, diagnostics)
    check_passes(model, diagnostics)
    check_pipelines(model, diagnostics)
    check_attribute_records(model, diagnostics)
    _check_backends(model, diagnostics)
    _check_languages(model, diagnostics)


def _check_intrinsics(model: SpecSet, diagnostics: Diagnostics) -> None:
    profiles = {p.name for p in model.profiles}
    for intrinsic in model.intrinsics:
        if intrinsic.level == "abstract" and intrinsic.cpp:
            diagnostics.error(intrinsic.cpp[0].location,
                              f"abstract intrinsic '{intrinsic.name}' cannot have a C++ spelling; passes lower it "
                              "to concrete intrinsics")
        if intrinsic.level == "concrete" and not intrinsic.cpp:
            diagnostics.error(intrinsic.location,
                              f"concrete intrinsic '{intrinsic.name}' needs a 'cpp' entry for at least one API profile")
        for spelling in intrinsic.cpp:
            if spelling.profile not in profiles:
                diagnostics.error(spelling.location, f"unknown API profile '{spelling.profile}'"
                                  f"{did_you_mean(spelling.profile, profiles)}; profiles are declared by backend specs")
                continue
            for _, header in spelling.headers:
                if "{" in header or "}" in header:
                    diagnostics.error(spelling.location, f"header '{header}' of '{intrinsic.name}' has an unfilled "
                                      "placeholder (only 'foreach' keys can be used)")
            consts = {a.name for a in intrinsic.args if a.const}
            for name in spelling.template_args:
                if name not in consts:
                    diagnostics.error(spelling.location, f"template argument '{name}' of '{intrinsic.name}' must be "
                                      "an argument marked 'const: true'")
            for role in intrinsic.roles:
                processor = PROCESSOR_CLASS[role]
                if spelling.header_for(processor) is None:
                    diagnostics.error(spelling.location,
                                      f"intrinsic '{intrinsic.name}' runs in {role} kernels but profile "
                                      f"'{spelling.profile}' gives no '{processor}' header")


def _check_protocols(model: SpecSet, bad_ops: set[EltwiseOp], diagnostics: Diagnostics) -> None:
    intrinsics = {i.name: i for i in model.intrinsics}
    protocols = {p.name: p for p in model.protocols}
    # Protocols run on the device backend, so a step without `profiles` must work in each of its profiles.
    device = model.device_backend
    all_profiles = tuple(p.name for p in device.profiles) if device else tuple(p.name for p in model.profiles)
    for protocol in model.protocols:
        choices = {p.name: p.choices for p in protocol.params if p.choices}
        for param in protocol.params:
            if param.ops and len(param.choices) == 1:
                diagnostics.error(protocol.location, f"parameter '{param.name}' names {param.ops} ops, but the op map "
                                  "has none")
            if param.ops:  # {param}, {param.init}, {param.tile}: each entry of the unit ("none" is never called)
                choices[param.name] = param.choices[:-1]
                for attr in ("init", "tile"):
                    choices[f"{param.name}.{attr}"] = tuple(dict.fromkeys(
                        getattr(op, attr) for op in model.eltwise_ops if op.unit == param.ops and op not in bad_ops))
        scope = {p.name for p in protocol.params}
        _check_steps(protocol, protocol.steps, scope, choices, intrinsics, protocols, all_profiles, diagnostics)
    _check_protocol_cycles(model, diagnostics)
    _check_protocol_references(model, protocols, diagnostics)


def _check_protocol_references(model: SpecSet, protocols: dict[str, Protocol], diagnostics: Diagnostics) -> None:
    """The protocols pass rules insert (rewrite cases, accessors, compute_init) exist: the C++ engines look them up
    by name when a kernel is lowered."""
    for pass_ in model.passes:
        for rule in pass_.rules:
            named = [case.protocol for _, cases in getattr(dict(rule.params).get("cases"), "items", ())
                     for case in cases if case.protocol]
            named += [v.value for key, v in rule.params if key in ("protocol", "chain_protocol")
                      and isinstance(v, Value) and isinstance(v.value, str)]
            for name in dict.fromkeys(named):
                if name not in protocols:
                    diagnostics.error(rule.location, f"pass '{pass_.name}' inserts unknown protocol '{name}'"
                                      f"{did_you_mean(name, protocols)}")


def _expression(value: Any, scope: set[str], location: Location, diagnostics: Diagnostics) -> None:
    try:
        expressions.parse(value, scope)
    except expressions.ExpressionError as exc:
        diagnostics.error(location, str(exc))


def _expansions(name: str, choices: dict[str, tuple[str, ...]]) -> list[str] | None:
    """Every intrinsic name a call with {param} placeholders can produce (None: a placeholder has no choices)."""
    pattern = r"\{([a-z_][a-z0-9_]*(?:\.(?:init|tile))?)\}"
    used = re.findall(pattern, name)
    if any(u not in choices for u in used) or any(c in re.sub(pattern, "", name) for c in "{}."):
        return None
    names = [name]
    for param in dict.fromkeys(used):
        names = [n.replace("{" + param + "}", value) for n in names for value in choices[param]]
    return names


def _check_steps(protocol: Protocol, steps: tuple[ProtocolStep, ...], scope: set[str],
                 choices: dict[str, tuple[str, ...]], intrinsics: dict[str, Intrinsic],
                 protocols: dict[str, Protocol], all_profiles: tuple[str, ...], diagnostics: Diagnostics) -> None:
    scope = set(scope)
    for step in steps:
        for profile in step.profiles:
            if profile not in all_profiles:
                diagnostics.error(step.location,
                                  f"unknown API profile '{profile}'{did_you_mean(profile, all_profiles)}")
        if step.kind == "call":
            _check_call(protocol, step, scope, choices, intrinsics, all_profiles, diagnostics)
            if step.bind:
                scope.add(step.bind)
        elif step.kind == "use":
            used = protocols.get(step.name)
            if used is None:
                diagnostics.error(step.location, f"protocol '{protocol.name}' uses unknown protocol '{step.name}'"
                                  f"{did_you_mean(step.name, protocols)}")
                continue
            wanted = [p.name for p in used.params]
            given = [name for name, _ in step.named_args]
            for name in wanted:
                if name not in given:
                    diagnostics.error(step.location, f"use of '{used.name}' does not give its parameter '{name}'")
            for name, value in step.named_args:
                if name not in wanted:
                    diagnostics.error(step.location, f"'{used.name}' has no parameter '{name}'"
                                      f"{did_you_mean(name, wanted)}")
                _expression(value, scope, step.location, diagnostics)
        elif step.kind == "repeat":
            _expression(step.expr, scope, step.location, diagnostics)
            _check_steps(protocol, step.steps, scope | {step.var}, choices, intrinsics, protocols, all_profiles,
                         diagnostics)
        else:  # when
            _expression(step.expr, scope, step.location, diagnostics)
            for branch in (step.steps, step.otherwise):
                _check_steps(protocol, branch, scope, choices, intrinsics, protocols, all_profiles, diagnostics)
        if step.kind != "when" and step.otherwise:
            diagnostics.error(step.location, "'otherwise' belongs to a 'when' step")
        if step.kind not in ("repeat", "when") and step.steps:
            diagnostics.error(step.location, "nested 'steps' belong to a 'repeat' or 'when' step")


def _check_call(protocol: Protocol, step: ProtocolStep, scope: set[str], choices: dict[str, tuple[str, ...]],
                intrinsics: dict[str, Intrinsic], all_profiles: tuple[str, ...], diagnostics: Diagnostics) -> None:
    names = _expansions(step.name, choices)
    if names is None:
        diagnostics.error(step.location, f"call '{step.name}' uses a placeholder that is not a string parameter "
                          "with 'choices' ({param}), or with 'ops' ({param}, {param.init}, {param.tile})")
        return
    for arg in step.args:
        _expression(arg, scope, step.location, diagnostics)
    for name in names:
        target = intrinsics.get(name)
        if target is None:
            diagnostics.error(step.location, f"protocol '{protocol.name}' calls unknown intrinsic "
                              f"'{name}'{did_you_mean(name, intrinsics)}")
            continue
        if step.has_args and len(step.args) != len(target.args):
            diagnostics.error(step.location, f"'{name}' takes {len(target.args)} argument(s), got {len(step.args)}")
        if protocol.role and protocol.role not in target.roles:
            diagnostics.error(step.location, f"'{name}' is not legal in {protocol.role} kernels "
                              f"(roles: {', '.join(target.roles)})")
        if step.bind and target.returns == "void":
            diagnostics.error(step.location, f"'{name}' returns nothing, so 'bind: {step.bind}' has no value")
        if target.level == "concrete":
            offered = {c.profile for c in target.cpp}
            for profile in step.profiles or all_profiles:
                if profile not in offered:
                    diagnostics.error(step.location, f"'{name}' is not offered by API profile '{profile}' "
                                      f"(offered by: {', '.join(sorted(offered))}); limit the step with 'profiles'")


def _check_protocol_cycles(model: SpecSet, diagnostics: Diagnostics) -> None:
    uses = {p.name: [s.name for s in p.walk() if s.kind == "use"] for p in model.protocols}
    locations = {p.name: p.location for p in model.protocols}

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in uses.get(start, []):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    for name in sorted(uses):
        if reaches(name, name, {name}):
            diagnostics.error(locations[name], f"protocol '{name}' uses itself (directly or through others)")


def _check_backends(model: SpecSet, diagnostics: Diagnostics) -> None:
    pipelines = {p.name for p in model.pipelines}
    for backend in model.backends:
        if backend.pipeline and backend.pipeline not in pipelines:
            diagnostics.error(backend.pipeline_location,
                              f"backend '{backend.name}' uses unknown pipeline '{backend.pipeline}'"
                              f"{did_you_mean(backend.pipeline, pipelines)}")
        if backend.legalize and backend.legalize not in pipelines:
            diagnostics.error(backend.legalize_location,
                              f"backend '{backend.name}' uses unknown pipeline '{backend.legalize}'"
                              f"{did_you_mean(backend.legalize, pipelines)}")
        passes = {p.name for p in model.passes}
        if backend.programs and backend.programs not in passes:
            diagnostics.error(backend.location, f"backend '{backend.name}' names unknown pass '{backend.programs}' "
                              f"as its programs{did_you_mean(backend.programs, passes)}")
        own = {p.name for p in backend.profiles}
        if backend.profile and backend.profile not in own:
            diagnostics.error(backend.profile_location,
                              f"api_profile '{backend.profile}' is not one of this backend's api_profiles"
                              f"{did_you_mean(backend.profile, own)}")
        if own and not backend.profile:
            diagnostics.error(backend.location, f"backend '{backend.name}' declares api_profiles but selects none "
                              "with 'api_profile'")
        if backend.split not in ("", "none") and backend.runtime == DEFAULT_RUNTIME:
            diagnostics.error(backend.location, f"backend '{backend.name}' splits its kernels by '{backend.split}', "
                              f"which {DEFAULT_RUNTIME} does not do: name the module that defines "
                              f"split_{backend.split} in 'runtime'")


def _check_languages(model: SpecSet, diagnostics: Diagnostics) -> None:
    if not model.languages:  # tilelang.language, which every kernel imports, is rendered from it
        diagnostics.error(Location("specs/"), "no language spec (kind: language): the package's tilelang.language "
                          "is rendered from it, and `import tilelang` needs it")
    for extra in model.languages[1:]:
        diagnostics.error(extra.location, f"a project has one language spec; '{model.languages[0].name}' is "
                          f"defined at {model.languages[0].location}")
    for language in model.languages:
        first: dict[str, Location] = {}
        for name, location in language.names:
            if name in FRONTEND_CONSTRUCTS:
                diagnostics.error(location, f"T.{name} is provided by the frontend engine and cannot be redefined")
            elif name in first:
                diagnostics.error(location, f"T.{name} is defined twice (first at {first[name]})")
            else:
                first[name] = location
        dtypes = set(language.dtypes)
        for alias, dtype in language.dtype_aliases:
            if dtype not in dtypes:
                diagnostics.error(language.location, f"dtype alias '{alias}' maps to '{dtype}', which is not in "
                                  "'dtypes'")
        if language.default_dtype not in dtypes:
            diagnostics.error(language.location, f"default dtype '{language.default_dtype}' is not in 'dtypes'")
        for function in language.dtype_functions:
            if function.dtype_param not in function.params:
                diagnostics.error(function.location, f"T.{function.name}: dtype_param '{function.dtype_param}' "
                                  "is not one of its params")
        for op in language.tile_ops:
            names = [p.name for p in op.params]
            for index, param in enumerate(op.params):
                if param.name in names[:index]:
                    diagnostics.error(op.location, f"T.{op.name}: parameter '{param.name}' is listed twice")
                elif not param.has_default and any(p.has_default for p in op.params[:index]):
                    diagnostics.error(op.location, f"T.{op.name}: parameter '{param.name}' without a default "
                                      "follows one with a default")
                elif param.has_default and not _of_type(param.default, param.type):
                    diagnostics.error(param.location or op.location, f"T.{op.name}: the default "
                                      f"{param.default!r} of parameter '{param.name}' is not a {param.type}")
            for key, _ in op.fixed:
                if key in names:
                    diagnostics.error(op.location, f"T.{op.name}: '{key}' is both a parameter and fixed")


_PARAM_TYPES: dict[str, tuple[type, ...]] = {"bool": (bool,), "int": (int,), "float": (int, float), "string": (str,)}


def _of_type(value: Any, kind: str) -> bool:
    """Whether a language parameter's default is a value of its declared type (any value when it has none); a bool
    is no int here, so a flag's default of 7 or an int's default of true is an error."""
    if not kind:
        return True
    return isinstance(value, _PARAM_TYPES[kind]) and (kind == "bool" or not isinstance(value, bool))
