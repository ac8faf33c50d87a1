"""The Tenstorrent backend: intrinsic table (generated), passes, codegen and emulator driver."""

from __future__ import annotations

from .._layout import merged_path

__path__ = merged_path(__path__, __name__)

from .intrinsics import INTRINSICS, PROFILES  # noqa: E402

__all__ = ["INTRINSICS", "PROFILES"]
