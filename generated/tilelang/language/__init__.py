# Copied unchanged from templates/runtime/tilelang/language/__init__.py by `python -m generator` - do not edit here;
# edit templates/runtime/tilelang/language/__init__.py and run `make generate`.
"""`import tilelang.language as T`: the TileLang kernel language.

`T.tt` is the generated namespace of Tenstorrent intrinsics (tilelang/language/tt.py).
"""

from __future__ import annotations

from . import tt

__all__ = ["tt"]
