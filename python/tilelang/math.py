"""`tilelang.math`: integer helpers TileLang's examples use to size grids and tiles."""

from __future__ import annotations

from typing import Any


def cdiv(a: Any, b: Any) -> Any:
    """Ceiling division `(a + b - 1) // b` (ints, or TIR expressions)."""
    return (a + b - 1) // b


def next_power_of_2(x: int) -> int:
    """The smallest power of two >= x (1 for x <= 1)."""
    x = int(x)
    return 1 if x <= 1 else 1 << (x - 1).bit_length()
