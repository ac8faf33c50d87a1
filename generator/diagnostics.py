"""Diagnostics: every problem the generator finds is a `path:LINE:COL: message` record.

Errors are collected, never raised one at a time, so a run reports all of them together and
then stops before anything is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, order=True)
class Location:
    """A 1-based position in a spec file (path is relative to the project root)."""

    path: str
    line: int = 1
    col: int = 1

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"


@dataclass(frozen=True, order=True)
class Diagnostic:
    location: Location
    message: str

    def __str__(self) -> str:
        return f"{self.location}: {self.message}"


@dataclass
class Diagnostics:
    """An ordered, de-duplicated collection of errors."""

    items: list[Diagnostic] = field(default_factory=list)

    def error(self, location: Location, message: str) -> None:
        diagnostic = Diagnostic(location, message)
        if diagnostic not in self.items:
            self.items.append(diagnostic)

    def extend(self, other: Diagnostics) -> None:
        for item in other.items:
            self.error(item.location, item.message)

    def __bool__(self) -> bool:
        return bool(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def sorted(self) -> list[Diagnostic]:
        return sorted(self.items)

    def render(self) -> str:
        return "\n".join(str(d) for d in self.sorted())


class GeneratorError(Exception):
    """Raised at a phase boundary when diagnostics were collected; carries all of them."""

    def __init__(self, diagnostics: Diagnostics) -> None:
        super().__init__(diagnostics.render())
        self.diagnostics = diagnostics
