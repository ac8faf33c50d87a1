"""The Tenstorrent backend: intrinsic table (generated), passes, codegen and emulator driver."""

from __future__ import annotations

from .._layout import merged_path

__path__ = merged_path(__path__, __name__)

from .. import cpp  # noqa: E402
from .intrinsics import INTRINSICS, PROFILES  # noqa: E402


def api_profile() -> str:
    """The API profile kernels are lowered and emitted for: the backend spec's `api_profile`, or the one
    $TILELANG_TT_API_PROFILE names (the pass library reads it once per process, and is asked here)."""
    return str(cpp.call("tl.tt.ApiProfile"))


__all__ = ["INTRINSICS", "PROFILES", "api_profile"]
