# Copied unchanged from templates/runtime/tilelang/tenstorrent/__init__.py by `python -m generator` - do not edit here;
# edit templates/runtime/tilelang/tenstorrent/__init__.py and run `make generate`.
"""The Tenstorrent backend: intrinsic table (generated), passes, codegen and emulator driver."""

from __future__ import annotations

from .intrinsics import INTRINSICS, PROFILES

__all__ = ["INTRINSICS", "PROFILES"]
