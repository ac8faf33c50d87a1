"""Which outputs a run must render again: each output's key hashes what its template read last time.

An output's key is the hash of the generator's code (generator/incremental.py), the template and every template it
imports, the output's path, banner sources and subject (the pass, backend, ... it is rendered for), the project
files it is given, and each field of the model its last rendering read (recorded by `TrackedSpecSet`). A template
takes no other input, so an output whose key is unchanged would render the bytes it rendered then, and those are
reused when the file still holds them; a template whose control flow would change reads a field whose value
changed first, so the set of fields recorded is always enough.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import hashlib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .incremental import State, file_hash
from .model import SpecSet

FIELDS = tuple(f.name for f in dataclasses.fields(SpecSet))
_ALL = frozenset(FIELDS)


class Unhashable(TypeError):
    """A value of a kind `fingerprint` cannot hash canonically; its output is rendered every run."""


class TrackedSpecSet(SpecSet):
    """The model, noting which of its fields a template reads (the properties read them through it too)."""

    def __getattribute__(self, name: str) -> Any:
        if name in _ALL or name == "__dict__":
            object.__getattribute__(self, "_read").update(FIELDS if name == "__dict__" else (name,))
        return object.__getattribute__(self, name)

    @classmethod
    def of(cls, model: SpecSet) -> TrackedSpecSet:
        tracked = cls(**{name: getattr(model, name) for name in FIELDS})
        object.__setattr__(tracked, "_read", set())
        return tracked


    def take_reads(self) -> list[str]:
        read: set[str] = object.__getattribute__(self, "_read")
        names = sorted(read)
        read.clear()
        return names


# Named as the model in messages ("'generator.model.SpecSet object' has no attribute ..."): a template error reads the
# same from an incremental run as from a full one.
TrackedSpecSet.__module__, TrackedSpecSet.__name__ = SpecSet.__module__, SpecSet.__name__


def _feed(digest: Any, value: Any, seen: dict[int, tuple[Any, bytes]]) -> None:
    """A canonical serialization of model values into `digest` (repr is not one: the model holds parsed ASTs and
    sets, whose repr varies between processes)."""
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        digest.update(f"{type(value).__name__}:{value!r};".encode())
    elif isinstance(value, enum.Enum):
        digest.update(f"enum:{value!r};".encode())
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        known = seen.get(id(value))
        if known is None:
            inner = hashlib.sha256(type(value).__qualname__.encode())
            for item in dataclasses.fields(value):
                inner.update(f"{item.name}=".encode())
                _feed(inner, getattr(value, item.name), seen)
            known = seen[id(value)] = (value, inner.digest())  # the value held: its id is never reused meanwhile
        digest.update(b"dc:" + known[1])
    elif isinstance(value, (tuple, list)):
        digest.update(b"(" if isinstance(value, tuple) else b"[")
        for item in value:
            _feed(digest, item, seen)
        digest.update(b")")
    elif isinstance(value, dict):
        digest.update(b"{")
        for key, item in value.items():
            _feed(digest, key, seen)
            _feed(digest, item, seen)
        digest.update(b"}")
    elif isinstance(value, (set, frozenset)):
        digest.update(b"set{" + b"".join(sorted(fingerprint(item, seen).encode() for item in value)) + b"}")
    elif isinstance(value, ast.AST):
        digest.update(f"ast:{ast.dump(value, include_attributes=True)};".encode())
    else:
        raise Unhashable(f"cannot fingerprint a {type(value).__qualname__}")


def fingerprint(value: Any, seen: dict[int, tuple[Any, bytes]] | None = None) -> str:
    digest = hashlib.sha256()
    _feed(digest, value, {} if seen is None else seen)
    return digest.hexdigest()


class RenderCache:
    """Looks outputs up in the last run's record and records this run's renders (`state` is this run's record)."""

    def __init__(self, model: SpecSet, out: Path, last: State, code: str) -> None:
        self.model = model
        self.tracked = TrackedSpecSet.of(model)
        self.out = out
        self.last = last
        self.code = code
        self.renders: dict[str, dict[str, Any]] = {}
        self.rendered = 0
        self._fields: dict[str, str] = {}
        self._seen: dict[int, tuple[Any, bytes]] = {}  # object id -> (object, its fingerprint)

    def _field(self, name: str) -> str:
        if name not in self._fields:
            self._fields[name] = fingerprint(getattr(self.model, name), self._seen)
        return self._fields[name]

    def key(self, base: Iterable[str], subject: Any, fields: Iterable[str]) -> str | None:
        """The key of one output: `base` (path, banner, template texts, files) and the subject and fields it read."""
        digest = hashlib.sha256(self.code.encode())
        for part in base:
            digest.update(f"{len(part)}:{part}".encode())
        try:
            digest.update(fingerprint(subject, self._seen).encode())
            for name in fields:
                if name not in _ALL:
                    return None
                digest.update(f"{name}={self._field(name)}".encode())
        except Unhashable:
            return None
        return digest.hexdigest()

    def lookup(self, path: str, base: list[str], subject: Any) -> str | None:
        """The output's bytes from the last run when its key is unchanged and the file still holds them."""
        entry = self.last.renders.get(path)
        if not isinstance(entry, dict) or not isinstance(entry.get("fields"), list):
            return None
        key = self.key(base, subject, entry["fields"])
        expected = self.last.outputs.get(path)
        if key is None or key != entry.get("key") or expected is None:
            return None
        try:
            data = (self.out / path).read_bytes()
        except OSError:
            return None
        if file_hash(data) != expected:
            return None
        self.renders[path] = entry
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            return None

    def record(self, path: str, base: list[str], subject: Any) -> None:
        """After rendering `path` with `self.tracked` as the model: remember what it read."""
        self.rendered += 1
        fields = self.tracked.take_reads()
        key = self.key(base, subject, fields)
        if key is not None:
            self.renders[path] = {"key": key, "fields": fields}
