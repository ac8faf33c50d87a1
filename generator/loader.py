"""Safe YAML loading that keeps a line/column mark for every key and value.

PyYAML's composer gives us nodes with marks; we build plain JSON-like values from them ourselves so
that duplicate keys, merge keys, recursive aliases and non-string keys become diagnostics instead
of being silently accepted (PyYAML's own constructor keeps the last duplicate).

Nodes are composed by libyaml (`yaml.CSafeLoader`, about 10x faster) when PyYAML was built with it: its marks are
the same lines and columns as the pure-Python composer's (tests/generator/test_spec_errors.py compares them on every
spec and fixture). A file libyaml rejects is parsed again by the pure-Python composer, whose messages the diagnostics
quote, so a syntax error reads the same with or without libyaml.
"""

from __future__ import annotations

import hashlib
import marshal
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .diagnostics import Diagnostics, Location

JsonPath = tuple[str | int, ...]

MODELINE = re.compile(r"^# yaml-language-server: \$schema=(?P<ref>\S+)\s*$")

# Bounds a spec file must stay within, so that a hostile file fails fast with a location instead of exhausting
# time, memory or the Python stack: its size, how deep mappings and lists nest, and how many values it holds once
# its aliases are expanded (a 15-line "billion laughs" file expands to 10^9). The real specs are below 11 KB, nest
# 10 levels and hold 2,000 values.
MAX_FILE_BYTES = 1 << 20
MAX_DEPTH = 64
MAX_NODES = 100_000
# Spec text holds tabs and line breaks, but no other control character (an escape such as "\0" or "\e" would
# carry one into generated code) and no lone surrogate (not text: it cannot be written as UTF-8).
_BAD_CHARACTER = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")

# Scalars whose YAML 1.1 types have no JSON equivalent are kept as their source text.
_TEXT_TAGS = {"tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:binary"}
_INVALID = object()  # a scalar that could not be constructed (already reported)
# The fast composer when PyYAML has libyaml; the pure-Python one gives the error messages.
FAST_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# Spec files this process parsed without a problem, by a hash of their path and bytes (`_parsed_key`): a process
# that loads a project many times (the tests, an editor integration) parses each unchanged file once. The content
# is the key, never a modification time, so an edited file is parsed again. A hit rebuilds the data from its
# marshal form (each caller gets its own lists and dicts, so no caller's change reaches another) and copies the
# location maps (their Locations are frozen). A file with a problem is not kept: it is parsed again to report it.
_PARSED: dict[bytes, tuple[bytes, dict[JsonPath, Location], dict[JsonPath, Location], str | None]] = {}
_PARSED_LIMIT = 4096
_COLLECTION_TAGS: dict[type[yaml.Node], str] = {yaml.MappingNode: "tag:yaml.org,2002:map",
                                                 yaml.SequenceNode: "tag:yaml.org,2002:seq"}


@dataclass(frozen=True)
class SpecFile:
    """One parsed spec file: its data plus where every value and key came from."""

    path: str  # relative to the project root, used in every diagnostic
    data: dict[str, Any]
    values: dict[JsonPath, Location]
    keys: dict[JsonPath, Location]
    schema_ref: str | None

    def at(self, path: JsonPath) -> Location:
        """Location of the value at `path`, or of its nearest ancestor that has one."""
        while path not in self.values and path:
            path = path[:-1]
        return self.values.get(path, Location(self.path))

    def key_at(self, path: JsonPath) -> Location:
        """Location of the key that introduces `path` (falls back to the value)."""
        return self.keys.get(path) or self.at(path)


def _mark(path: str, mark: Any) -> Location:  # a yaml.Mark (or libyaml's), or None
    if mark is None:
        return Location(path)
    return Location(path, mark.line + 1, mark.column + 1)


def _position(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


class _Builder:
    def __init__(self, path: str, loader: yaml.SafeLoader, diagnostics: Diagnostics) -> None:
        self.path = path
        self.loader = loader
        self.diagnostics = diagnostics
        self.values: dict[JsonPath, Location] = {}
        self.keys: dict[JsonPath, Location] = {}
        self._active: set[int] = set()

    def build(self, node: yaml.Node, where: JsonPath) -> Any:
        self.values[where] = _mark(self.path, node.start_mark)
        if id(node) in self._active:
            self.diagnostics.error(self.values[where], "recursive YAML alias is not allowed")
            return None
        self._active.add(id(node))
        try:
            plain = _COLLECTION_TAGS.get(type(node))
            if plain is not None and node.tag != plain:  # e.g. !!python/object/apply on a list, or !!set
                self.diagnostics.error(self.values[where], f"unsupported YAML tag {node.tag!r}; "
                                       "specs use plain mappings and lists")
                return None
            if isinstance(node, yaml.MappingNode):
                return self._mapping(node, where)
            if isinstance(node, yaml.SequenceNode):
                return [self.build(item, where + (i,)) for i, item in enumerate(node.value)]
            value = self._scalar(node, self.values[where])
            return None if value is _INVALID else value
        finally:
            self._active.discard(id(node))

    def _scalar(self, node: yaml.Node, location: Location) -> Any:
        if node.tag in _TEXT_TAGS:
            return str(node.value)
        try:
            value = self.loader.construct_object(node, deep=True)
        except (ValueError, KeyError, yaml.constructor.ConstructorError):  # `!!int abc`, `!!bool maybe`, `!!foo x`
            known = node.tag in self.loader.yaml_constructors
            what = f"invalid {node.tag.rsplit(':', 1)[-1]} value {_clip(node.value)}" if known \
                else f"unsupported YAML tag {node.tag!r}"
            self.diagnostics.error(location, what)
            return _INVALID
        bad = _BAD_CHARACTER.search(value) if isinstance(value, str) else None
        if bad is not None:
            code = f"U+{ord(bad.group()):04X}"
            self.diagnostics.error(location, f"string holds a lone surrogate {code}, which is not Unicode text"
                                   if 0xD800 <= ord(bad.group()) <= 0xDFFF else f"string holds control character "
                                   f"{code}; spec text may hold tabs and line breaks, no other control characters")
            return _INVALID
        return value

    def _mapping(self, node: yaml.MappingNode, where: JsonPath) -> dict[str, Any]:
        result: dict[str, Any] = {}
        first_seen: dict[str, Location] = {}
        for key_node, value_node in node.value:
            key_loc = _mark(self.path, key_node.start_mark)
            if key_node.tag == "tag:yaml.org,2002:merge":
                self.diagnostics.error(key_loc, "YAML merge keys ('<<') are not supported; write the keys out")
                continue
            key = self._scalar(key_node, key_loc) if isinstance(key_node, yaml.ScalarNode) else None
            if key is _INVALID:
                continue
            if not isinstance(key, str):
                self.diagnostics.error(key_loc, f"mapping keys must be strings, got {_describe(key_node)}")
                continue
            if key in first_seen:
                first = first_seen[key]
                self.diagnostics.error(key_loc, f"duplicate key {key!r} (first defined at line {first.line})")
                continue
            first_seen[key] = key_loc
            self.keys[where + (key,)] = key_loc
            result[key] = self.build(value_node, where + (key,))
        return result


def _clip(text: str, limit: int = 40) -> str:
    shown = repr(text)
    return shown if len(shown) <= limit else shown[: limit - 4] + "...'"


def _describe(node: yaml.Node) -> str:
    if isinstance(node, yaml.ScalarNode):
        return f"{node.value!r}"
    return "a mapping" if isinstance(node, yaml.MappingNode) else "a sequence"


def _problem(exc: yaml.MarkedYAMLError) -> str:
    """PyYAML's message; the composer splits some sentences between `context` and `problem`."""
    problem = exc.problem or exc.context or "malformed YAML"
    if exc.context and exc.problem and exc.problem.startswith("but "):  # "expected a single document ..."
        return f"{exc.context}, {exc.problem}"
    if exc.context and exc.context.endswith("; first occurrence") and exc.context_mark is not None:
        return f"{exc.context} at line {exc.context_mark.line + 1}, {exc.problem} here"  # duplicate anchor
    return problem


def structure_problem(text: str, rel: str) -> tuple[Location, str] | None:
    """The first place where the document nests deeper than MAX_DEPTH or its aliases expand it beyond MAX_NODES
    values, measured on the parser's events: no recursion and no expansion, so a hostile file costs one pass. A
    syntax error ends the scan (the composer reports it)."""
    sizes: dict[str, tuple[int, int]] = {}  # anchor -> (values, nesting levels) of the anchored node
    open_nodes: list[list[Any]] = []  # per open collection: [anchor, values before it, deepest level below it]
    count = 0
    try:
        for event in yaml.parse(text, Loader=FAST_LOADER):
            if not isinstance(event, (yaml.NodeEvent, yaml.CollectionEndEvent)):
                continue
            if isinstance(event, yaml.CollectionEndEvent):
                anchor, before, below = open_nodes.pop()
                if anchor is not None:
                    sizes[anchor] = (count - before, below + 1)
                if open_nodes:
                    open_nodes[-1][2] = max(open_nodes[-1][2], below + 1)
                continue
            size, levels = sizes.get(event.anchor or "", (1, 0)) if isinstance(event, yaml.AliasEvent) else (1, 0)
            count += size
            levels += isinstance(event, yaml.CollectionStartEvent)
            if len(open_nodes) + levels > MAX_DEPTH:
                return _mark(rel, event.start_mark), f"mappings and lists nest more than {MAX_DEPTH} levels deep"
            if count > MAX_NODES:
                return _mark(rel, event.start_mark), (
                    f"the file holds more than {MAX_NODES} values once its YAML aliases are expanded; write the "
                    "values out instead of repeating aliases")
            if isinstance(event, yaml.CollectionStartEvent):
                open_nodes.append([event.anchor, count - 1, 0])
            else:
                if open_nodes:
                    open_nodes[-1][2] = max(open_nodes[-1][2], levels)
                if event.anchor is not None and isinstance(event, yaml.ScalarEvent):
                    sizes[event.anchor] = (1, 0)
    except yaml.YAMLError:
        return None
    return None


def _compose(text: str) -> tuple[yaml.SafeLoader, yaml.Node | None]:
    """The document's node tree and the loader that constructs its scalars; a YAML error is raised by the
    pure-Python composer, whose messages (and marks) the diagnostics quote."""
    if FAST_LOADER is not yaml.SafeLoader:
        try:
            fast = FAST_LOADER(text)
        except yaml.YAMLError:
            pass
        else:
            try:
                return fast, fast.get_single_node()
            except yaml.YAMLError:
                fast.dispose()
    loader = yaml.SafeLoader(text)
    try:
        return loader, loader.get_single_node()
    except BaseException:
        loader.dispose()
        raise


def load_spec(file: Path, rel: str, diagnostics: Diagnostics) -> SpecFile | None:
    """Parse one spec file; problems are added to `diagnostics` and None is returned."""
    try:
        size = file.stat().st_size
        if size > MAX_FILE_BYTES:
            diagnostics.error(Location(rel), f"file is {size} bytes, more than the {MAX_FILE_BYTES} bytes (1 MiB) a "
                              "spec file may have; split it")
            return None
        raw = file.read_bytes()
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = exc.object[: exc.start].decode("utf-8", "replace")  # exc.start counts bytes, columns count characters
        line, col = _position(before, len(before))
        diagnostics.error(Location(rel, line, col), "file is not valid UTF-8")
        return None
    except OSError as exc:
        diagnostics.error(Location(rel), f"cannot read file: {exc.strerror}")
        return None
    key = _parsed_key(rel, raw)
    cached = _PARSED.get(key)
    if cached is not None:
        blob, values, keys, schema_ref = cached
        return SpecFile(rel, marshal.loads(blob), dict(values), dict(keys), schema_ref)
    first_line = text.split("\n", 1)[0]
    modeline = MODELINE.match(first_line)
    problem = structure_problem(text, rel)
    if problem is not None:
        diagnostics.error(*problem)
        return None
    local = Diagnostics()
    loader: yaml.SafeLoader | None = None
    try:
        loader, node = _compose(text)
        if node is None:
            diagnostics.error(Location(rel), "spec file is empty")
            return None
        builder = _Builder(rel, loader, local)
        data = builder.build(node, ())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        diagnostics.error(_mark(rel, mark), f"YAML syntax error: {_problem(exc)}")
        return None
    except yaml.reader.ReaderError as exc:
        line, col = _position(text, exc.position)
        diagnostics.error(Location(rel, line, col), f"YAML syntax error: unacceptable character #x{exc.character:04x}")
        return None
    except yaml.YAMLError as exc:  # any other PyYAML failure still gets a location
        diagnostics.error(Location(rel), f"YAML error: {exc}")
        return None
    finally:
        if loader is not None:
            loader.dispose()
    if local:
        diagnostics.extend(local)
        return None
    if not isinstance(data, dict):
        diagnostics.error(builder.values[()], "a spec file must be a YAML mapping with a 'kind' key")
        return None
    if modeline is None:
        diagnostics.error(
            Location(rel), "first line must be the modeline '# yaml-language-server: $schema=<path to schema>'"
        )
        return SpecFile(rel, data, builder.values, builder.keys, None)
    spec = SpecFile(rel, data, builder.values, builder.keys, modeline.group("ref"))
    _remember(key, spec)
    return spec


def _parsed_key(rel: str, raw: bytes) -> bytes:
    """What a parse depends on besides the loader's code: the path the diagnostics and marks name, and the bytes."""
    return hashlib.sha256(rel.encode("utf-8", "surrogatepass") + b"\0" + raw).digest()


def _remember(key: bytes, spec: SpecFile) -> None:
    try:
        blob = marshal.dumps(spec.data)
    except ValueError:  # a value marshal cannot write (none a spec holds today): such a file is parsed every time
        return
    if len(_PARSED) >= _PARSED_LIMIT:
        _PARSED.clear()
    _PARSED[key] = (blob, dict(spec.values), dict(spec.keys), spec.schema_ref)
