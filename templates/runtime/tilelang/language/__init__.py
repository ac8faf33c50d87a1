"""`import tilelang.language as T`: the TileLang kernel language.

`T.tt` is the generated namespace of Tenstorrent intrinsics (tilelang/language/tt.py).
"""

from __future__ import annotations

from . import tt

__all__ = ["tt"]
