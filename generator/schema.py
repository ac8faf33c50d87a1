"""JSON Schema validation of spec files, with every error mapped back to its YAML node."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from .diagnostics import Diagnostics, Location
from .loader import JsonPath, SpecFile

KINDS = ("backend", "intrinsic", "ir", "language", "op_map", "pass", "pipeline", "protocol", "record")
SHARED_SCHEMAS = ("defs",)


@dataclass(frozen=True)
class SchemaSet:
    """The loaded schemas of one project: a validator per spec kind."""

    root: Path  # the schema/ folder
    validators: dict[str, jsonschema.Draft202012Validator]
    digest: str = ""  # of the schema texts: with a spec's data, the key of a validation already passed

    def modeline_for(self, kind: str, spec_rel: str, project_root: Path) -> str:
        schema_rel = (self.root / f"{kind}.schema.json").relative_to(project_root).as_posix()
        return posixpath.relpath(schema_rel, posixpath.dirname(spec_rel) or ".")


def _check_schema(document: Any, text: str) -> None:
    """Draft202012Validator.check_schema, skipped for a text already found valid by this jsonschema version: a
    marker file named by their hash under $XDG_CACHE_HOME (or ~/.cache)/tilelang/schemas records it."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    version = _jsonschema_version()
    marker = Path(base, "tilelang", "schemas", hashlib.sha256(f"{version}\0{text}".encode()).hexdigest()[:32])
    if marker.exists():
        return
    jsonschema.Draft202012Validator.check_schema(document)
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass  # an unwritable cache only costs the check next time


@functools.cache
def _jsonschema_version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("jsonschema")
    except PackageNotFoundError:
        return "unknown"


def load_schemas(schema_dir: Path, project_root: Path, diagnostics: Diagnostics) -> SchemaSet | None:
    resources: list[tuple[str, Resource[Any]]] = []
    documents: dict[str, dict[str, Any]] = {}
    texts = hashlib.sha256()
    for name in SHARED_SCHEMAS + KINDS:
        file = schema_dir / f"{name}.schema.json"
        rel = file.relative_to(project_root).as_posix() if file.is_relative_to(project_root) else str(file)
        try:
            text = file.read_text("utf-8")
            texts.update(f"{name}\0{text}\0".encode())
            document = json.loads(text)
            _check_schema(document, text)
        except OSError as exc:
            diagnostics.error(Location(rel), f"cannot read schema: {exc.strerror}")
            continue
        except json.JSONDecodeError as exc:
            diagnostics.error(Location(rel, exc.lineno, exc.colno), f"schema is not valid JSON: {exc.msg}")
            continue
        except jsonschema.SchemaError as exc:
            diagnostics.error(Location(rel), f"invalid JSON Schema: {exc.message}")
            continue
        documents[name] = document
        resources.append((f"{name}.schema.json", Resource.from_contents(document, default_specification=DRAFT202012)))
    if diagnostics:
        return None
    registry: Registry[Any] = Registry().with_resources(resources)
    validators = {kind: jsonschema.Draft202012Validator(documents[kind], registry=registry) for kind in KINDS}
    return SchemaSet(schema_dir, validators, texts.hexdigest())


# Validations that passed in this process, by key (`validation_key`): a process that loads a project many times (the
# tests, an editor integration) validates each unchanged spec once. Only passes are kept: a spec with errors is
# validated again to report them.
_PASSED: set[str] = set()
_PASSED_LIMIT = 4096


@dataclass
class Validations:
    """Validations that passed in an earlier run (`known`, generator/incremental.py keeps them under build/) and
    the keys of this run's specs that passed (`passed`, for the next run)."""

    known: set[str] = field(default_factory=set)
    passed: set[str] = field(default_factory=set)


def validation_key(schemas: SchemaSet, kind: str, data: Any) -> str:
    """What a spec's validation depends on: the jsonschema version, the schema texts and the spec's data."""
    text = f"{_jsonschema_version()}\0{schemas.digest}\0{kind}\0{data!r}"
    return hashlib.sha256(text.encode()).hexdigest()


def validate_spec(spec: SpecFile, schemas: SchemaSet, project_root: Path, diagnostics: Diagnostics,
                  validations: Validations | None = None) -> str | None:
    """Validate one spec against the schema of its kind; returns the kind when it is known."""
    kind = spec.data.get("kind")
    if "kind" not in spec.data:
        diagnostics.error(spec.at(()), "missing required key 'kind'")
        return None
    if not isinstance(kind, str) or kind not in schemas.validators:
        diagnostics.error(spec.at(("kind",)), f"unknown spec kind {show(kind)}; expected one of: {', '.join(KINDS)}")
        return None
    expected = schemas.modeline_for(kind, spec.path, project_root)
    if spec.schema_ref is not None and spec.schema_ref != expected:
        diagnostics.error(Location(spec.path),
                          f"modeline names schema '{spec.schema_ref}'; a {kind} spec here must use '{expected}'")
    flagged: set[JsonPath] = set()
    key = validation_key(schemas, kind, spec.data) if schemas.digest else ""
    if key not in _PASSED and (validations is None or key not in validations.known):
        for error in schemas.validators[kind].iter_errors(spec.data):
            flagged.add(tuple(error.absolute_path))
            for location, message in _explain(error, spec):
                diagnostics.error(location, message)
        if not flagged and key:
            if len(_PASSED) >= _PASSED_LIMIT:
                _PASSED.clear()
            _PASSED.add(key)
    if not flagged and key and validations is not None:
        validations.passed.add(key)
    for path, value in _integers(spec.data, ()):
        if path not in flagged and not INT64_MIN <= value <= INT64_MAX:
            diagnostics.error(spec.at(path), f"{show(value)} does not fit in 64 bits (the C++ engines and the "
                                             "emulator hold spec integers in 64 or fewer bits)")
    return kind


INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def _integers(value: Any, path: JsonPath) -> Iterable[tuple[JsonPath, int]]:
    """Every integer of a spec document with its path (booleans are not integers here)."""
    if isinstance(value, int) and not isinstance(value, bool):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _integers(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _integers(item, (*path, index))


def _explain(error: ValidationError, spec: SpecFile) -> Iterable[tuple[Location, str]]:
    path: JsonPath = tuple(error.absolute_path)
    value = error.instance
    schema = error.schema if isinstance(error.schema, dict) else {}
    validator = error.validator
    rule: Any = error.validator_value  # typed `Any | Unset`; always set on errors from iter_errors()
    if "propertyNames" in error.schema_path and isinstance(value, str):
        yield spec.key_at(path + (value,)), f"invalid key {show(value)}: {_constraint(error, schema)}"
    elif validator == "required":
        missing = [key for key in rule if isinstance(value, dict) and key not in value]
        for key in missing:
            yield spec.at(path), f"missing required key '{key}'"
    elif validator == "additionalProperties" and isinstance(value, dict):
        allowed = sorted(schema.get("properties", {}))
        # A closed object without properties (the params of a tvm rule) says in its description why.
        why = schema.get("description", "").rstrip(".")
        for key in sorted(set(value) - set(allowed)):
            hint = f"; expected one of: {', '.join(allowed)}" if allowed else f": {why}" if why else ""
            yield spec.key_at(path + (key,)), f"unknown key {show(key)}{hint}"
    elif validator == "oneOf":
        alternatives = [alt.get("required", []) for alt in rule if isinstance(alt, dict)]
        if all(len(keys) == 1 for keys in alternatives):
            names = ", ".join(f"'{keys[0]}'" for keys in alternatives)
            yield spec.at(path), f"expected exactly one of the keys {names}"
        else:
            yield spec.at(path), "does not match exactly one of the allowed forms"
    else:
        yield spec.at(path), f"{_where(path)}{_constraint(error, schema)}"


def _where(path: JsonPath) -> str:
    return f"{show(path[-1])}: " if path and isinstance(path[-1], str) else ""


def _constraint(error: ValidationError, schema: dict[str, Any]) -> str:
    value: Any = error.instance  # both typed `Any | Unset`; always set on errors from iter_errors()
    expected: Any = error.validator_value
    match error.validator:
        case "type":
            wanted = expected if isinstance(expected, list) else [expected]
            return f"expected {' or '.join(_article(t) for t in wanted)}, got {_kind_of(value)}"
        case "enum":
            return f"{show(value)} is not one of: {', '.join(str(v) for v in expected)}"
        case "const":
            return f"expected {show(expected)}, got {show(value)}"
        case "pattern":
            what = schema.get("description", "the required form").rstrip(".")
            return f"{show(value)} is not valid: expected {what[0].lower() + what[1:]}"
        case "minLength":
            return "must not be empty" if expected == 1 else f"must be at least {expected} characters long"
        case "maxLength":
            return f"is too long ({len(value)} characters; at most {expected})"
        case "minItems":
            return f"expected at least {expected} item(s), got {len(value)}"
        case "maxItems":
            return f"expected at most {expected} item(s), got {len(value)}"
        case "uniqueItems":
            return "items must be unique"
        case "minProperties":
            return f"expected at least {expected} key(s)"
        case "dependentRequired":
            return error.message.replace("is a dependency of", "is required together with")
        case "maxProperties":
            return f"expected at most {expected} key(s), got {len(value)}"
        case "minimum":
            return f"must be at least {expected}, got {show(value)}"
        case "maximum":
            return f"must be at most {expected}, got {show(value)}"
        case "not":  # the schemas use `not` only to keep keywords out of names ($defs/reserved_word)
            return f"{show(value)} is a Python or C++ keyword, which cannot be a name in generated code"
        case _:
            return error.message


_ARTICLES = {"object": "a mapping", "array": "a list", "string": "a string", "integer": "an integer",
             "number": "a number", "boolean": "a boolean", "null": "null"}


def _article(json_type: str) -> str:
    return _ARTICLES.get(json_type, json_type)


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return f"a boolean ({value})"
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, float):
        return f"a number ({value})"
    if isinstance(value, str):
        return f"a string ({show(value)})"
    if value is None:
        return "null"
    return "a mapping" if isinstance(value, dict) else "a list"


def show(value: Any, limit: int = 60) -> str:
    text = repr(value) if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."

