"""The errors users see. Registered with tvm-ffi so that raised inside a TVM pass (Python or C++, where the
C++ engines throw them by kind name) they reach the caller as themselves."""

from __future__ import annotations

import tvm_ffi


@tvm_ffi.register_error
class TileLangError(ValueError):
    """A TileLang kernel or call is invalid (bad dtype, shapes, regions, arguments ...)."""


@tvm_ffi.register_error
class TTLoweringError(TileLangError):
    """A kernel the Tenstorrent backend cannot lower; the message names the buffer/op and the limit."""
