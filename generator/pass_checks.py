"""Checks of pass and pipeline specs across files: rule kinds, `requires`, hooks, options and attribute flow.

The parameters of engine rules are typed and checked when the model is built (build_pass.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .build_pass import option_value_error
from .device import DEVICE_FACT_NAMES
from .diagnostics import Diagnostics, Location
from .expressions import did_you_mean
from .model import CONTEXT_VALUES, Option, Pass, Pipeline, PipelineStep, SpecSet
from .rules import ENGINE_OPTIONS, ENGINES
from .schema import show


def _check_device_facts(model: SpecSet, diagnostics: Diagnostics) -> None:
    """The Tenstorrent engines plan CBs, DST and the grid from one backend's `device` section."""
    if model.device_backend is not None:
        return
    for p in model.passes:
        rule = next((r for r in p.rules if r.kind not in ("tvm", "hook")), None)
        if rule is not None:
            diagnostics.error(rule.location, f"pass '{p.name}' uses the '{rule.kind}' engine, which needs the device "
                                             "facts of a backend spec with a `device` section; no backend has one")
            return


# Fields each rule kind needs (the schema lists them all as optional because they differ per kind).
RULE_FIELDS = {"tvm": ("transform", "module"), "hook": ("hook",)}


def _check_rules(pass_: Pass, diagnostics: Diagnostics) -> None:
    """What the schema leaves to us; the parameters of engine rules were checked when the model was built."""
    for rule in pass_.rules:
        for field in RULE_FIELDS.get(rule.kind, ()):
            if not getattr(rule, field):
                diagnostics.error(rule.location, f"a '{rule.kind}' rule needs '{field}'")
        if rule.kind not in RULE_FIELDS and rule.kind not in ENGINES:
            diagnostics.error(rule.location, f"pass '{pass_.name}': rule kind '{rule.kind}' has no pass engine yet; "
                              f"available: {', '.join(sorted(set(RULE_FIELDS) | set(ENGINES)))}")
        declared = {o.name: o.type for o in pass_.options}
        for option, kind in ENGINE_OPTIONS.get(rule.kind, {}).items():
            if declared.get(option) != kind:
                what = "does not declare it" if option not in declared else f"declares it as {declared[option]}"
                diagnostics.error(rule.location, f"a '{rule.kind}' rule reads the option '{option}' ({kind}) of its "
                                  f"pass; pass '{pass_.name}' {what}")
        for key, value in rule.args:
            if isinstance(value, str) and value.startswith("$") and value not in CONTEXT_VALUES:
                diagnostics.error(rule.location, f"argument '{key}' names unknown run-time value '{value}'; "
                                  f"known: {', '.join(CONTEXT_VALUES)}")


def _check_option_bounds(model: SpecSet, pass_: Pass, diagnostics: Diagnostics) -> None:
    """An option's default within the device fact its `at_most` names, on every device (a default grid larger than a
    device's)."""
    device = model.device_backend
    for option in pass_.options:
        if option.at_most is None or device is None or option.location is None or option.default is None:
            continue
        for name, facts in (device.devices or {"": device.device}).items():
            if _default_exceeds(option, facts.get(option.at_most), f"{name} " if name else "", device.source,
                                diagnostics):
                break


def _default_exceeds(option: Option, fact: Any, device_name: str, source: str, diagnostics: Diagnostics) -> bool:
    """Reports (and says whether) `option`'s default breaks its at_most fact `fact` of one device."""
    assert option.location is not None and option.at_most is not None
    if not isinstance(fact, (int, list)) or isinstance(fact, bool):
        diagnostics.error(option.location, f"option '{option.name}': at_most names '{option.at_most}', which is "
                          f"not an integer or integer-list fact of the {device_name}device in {source}")
        return True
    limit, default = (fact if isinstance(fact, list) else [fact]), option.default
    values = default if isinstance(default, list) else [default]
    if len(values) != len(limit):
        diagnostics.error(option.location, f"option '{option.name}': at_most names '{option.at_most}', "
                          f"{show(fact)} in {source}, which does not have the default's {len(values)} item(s)")
        return True
    if any(v > m for v, m in zip(values, limit, strict=True)):
        diagnostics.error(option.location, f"option '{option.name}': default {show(default)} exceeds the "
                          f"{device_name}device's {option.at_most} {show(fact)} ({source}: device.{option.at_most}); "
                          f"lower the default or correct the device record")
        return True
    return False


def _check_device_defaults(model: SpecSet, pass_: Pass, diagnostics: Diagnostics) -> None:
    """An option's `device_default` names a fact every device has, and one the C++ passes see (`device.NAME`)."""
    device = model.device_backend
    for option in pass_.options:
        if option.device_default is None or option.location is None or device is None:
            continue  # without a device section, the engines that need one say so
        lacking = [name for name, facts in device.devices.items() if option.device_default not in facts]
        if lacking or option.device_default.upper() not in DEVICE_FACT_NAMES:
            diagnostics.error(option.location, f"option '{option.name}': device_default names "
                              f"'{option.device_default}', which is not a device fact of every device"
                              f"{' (' + ', '.join(lacking) + ' lack it)' if lacking else ''} the C++ passes see "
                              f"(generator/device.py: {', '.join(n.lower() for n in DEVICE_FACT_NAMES)})")


def _check_option_keys(model: SpecSet, diagnostics: Diagnostics) -> None:
    """An option's pass_configs `key` names that option only."""
    owners: dict[str, str] = {}
    for pass_ in model.passes:
        for option in pass_.options:
            if option.key and option.key in owners:
                diagnostics.error(option.location or pass_.location, f"option '{option.name}': pass_configs key "
                                  f"'{option.key}' sets {owners[option.key]} already")
            elif option.key:
                owners[option.key] = f"{pass_.name}.{option.name}"


def check_passes(model: SpecSet, diagnostics: Diagnostics) -> None:
    _check_device_facts(model, diagnostics)
    _check_option_keys(model, diagnostics)
    for pass_ in model.passes:
        _check_option_bounds(model, pass_, diagnostics)
        _check_device_defaults(model, pass_, diagnostics)
    passes = {p.name: p for p in model.passes}
    for pass_ in model.passes:
        _check_rules(pass_, diagnostics)
    for pass_ in model.passes:
        for required in pass_.requires:
            if required not in passes:
                diagnostics.error(pass_.requires_location, f"pass '{pass_.name}' requires unknown pass "
                                  f"'{required}'{did_you_mean(required, passes)}")
    # Cycles in `requires`: depth-first search, each cycle reported once at its smallest member.
    state: dict[str, int] = {}
    reported: set[frozenset[str]] = set()

    def visit(name: str, stack: list[str]) -> None:
        state[name] = 1
        stack.append(name)
        for nxt in passes[name].requires:
            if nxt not in passes:
                continue
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):]
                key = frozenset(cycle)
                if key not in reported:
                    reported.add(key)
                    start = cycle.index(min(cycle))
                    ordered = cycle[start:] + cycle[:start]
                    diagnostics.error(passes[ordered[0]].requires_location,
                                      "cycle in pass 'requires': " + " -> ".join(ordered + [ordered[0]]))
            elif state.get(nxt) is None:
                visit(nxt, stack)
        stack.pop()
        state[name] = 2

    for name in sorted(passes):
        if name not in state:
            visit(name, [])


def check_pipelines(model: SpecSet, diagnostics: Diagnostics) -> None:
    passes = {p.name: p for p in model.passes}
    pipelines = {p.name: p for p in model.pipelines}
    for pipeline in model.pipelines:
        for step in pipeline.steps:
            if step.pass_name and step.pass_name not in passes:
                diagnostics.error(step.location,
                                  f"unknown pass '{step.pass_name}'{did_you_mean(step.pass_name, passes)}")
            if step.pass_name in passes:
                _check_step_options(step, passes[step.pass_name], diagnostics)
            if step.pipeline and step.pipeline not in pipelines:
                diagnostics.error(step.location,
                                  f"unknown pipeline '{step.pipeline}'{did_you_mean(step.pipeline, pipelines)}")
    for pipeline in model.pipelines:
        _check_dataflow(pipeline, pipelines, passes, diagnostics)


def _check_dataflow(pipeline: Pipeline, pipelines: dict[str, Pipeline], passes: dict[str, Pass],
                    diagnostics: Diagnostics) -> None:
    """Attributes must be produced before they are consumed; required passes must run earlier."""
    produced = set(pipeline.provides)
    ran: set[str] = set()

    def run(current: Pipeline, trail: tuple[str, ...], top_location: Location | None) -> bool:
        for step in current.steps:
            location = top_location or step.location
            if step.pipeline:
                if step.pipeline in trail:
                    diagnostics.error(step.location, "pipeline includes itself: "
                                      + " -> ".join(trail + (step.pipeline,)))
                    return False
                inner = pipelines.get(step.pipeline)
                if inner is not None:
                    produced.update(inner.provides)
                    if not run(inner, trail + (step.pipeline,), location):
                        return False
                continue
            pass_ = passes.get(step.pass_name)
            if pass_ is None:
                continue
            for attr in pass_.reads:
                if not attr.optional and attr.key not in produced:
                    diagnostics.error(location, f"pass '{pass_.name}' reads '{attr.key}' but no earlier step "
                                      f"of pipeline '{pipeline.name}' writes it")
            for required in pass_.requires:
                if required in passes and required not in ran:
                    diagnostics.error(location, f"pass '{pass_.name}' requires '{required}', which does not run "
                                      f"before it in pipeline '{pipeline.name}'")
            produced.update(attr.key for attr in pass_.writes)
            ran.add(pass_.name)
        return True

    run(pipeline, (pipeline.name,), None)

def _check_step_options(step: PipelineStep, pass_: Pass, diagnostics: Diagnostics) -> None:
    """A pipeline step sets options its pass has, to values of their type (and among their choices)."""
    options = {o.name: o for o in pass_.options}
    for name, value in step.options:
        option = options.get(name)
        if option is None:
            diagnostics.error(step.location, f"pass '{pass_.name}' has no option '{name}'{did_you_mean(name, options)}")
            continue
        problem = option_value_error(option.type, value)
        if problem is None and option.choices and value not in option.choices:
            problem = f"is not one of its choices ({', '.join(map(show, option.choices))})"
        if problem:
            diagnostics.error(step.location, f"pass '{pass_.name}' option '{name}': {show(value)} {problem}")


def check_hooks(model: SpecSet, header: Path, header_rel: str, diagnostics: Diagnostics) -> None:
    """A hook rule must name a C++ hook declared in `header` (namespace tl::hooks)."""
    try:
        text = header.read_text("utf-8")
    except OSError:
        text = ""
    for pass_ in model.passes:
        for rule in pass_.rules:
            if rule.hook and f"Any {rule.hook_function}({'const Dict& options' if pass_.options else ''});" not in text:
                diagnostics.error(rule.location, f"hook '{rule.hook_function}' is not declared in {header_rel}")
