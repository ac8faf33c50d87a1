"""The Tenstorrent backend: intrinsic table (generated), passes, codegen and emulator driver."""

from __future__ import annotations

from .intrinsics import INTRINSICS, PROFILES

__all__ = ["INTRINSICS", "PROFILES"]
