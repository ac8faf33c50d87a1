"""T.macro: TVMScript's hygienic macro, with the macro's own parameters shadowing the globals of its module.

TVM 0.27's macro captures every global of the defining module and binds the call's arguments beside them in one
scope, so a parameter named as a module global (deepseek_mhc's backward: `n_stream = 16` at module level and
`def matvec_A(..., n_stream)`) fails with "Variable n_stream already defined". In Python, and in TileLang's own
macro, the parameter hides the global; here the captured globals leave out the parameters' names.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from tvm.script.parser.core import utils
from tvm.tirx.script.parser.entry import TIRMacro, scan_macro


def _define(func: Callable[..., Any], hygienic: bool) -> Callable[..., Any]:
    params = inspect.signature(func).parameters
    captured = {name: value for name, value in utils.inspect_function_capture(func).items() if name not in params}
    source, closure_vars = scan_macro(func, captured)
    expand = TIRMacro(source, closure_vars, func, hygienic)

    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        return expand(*args, **kwargs)

    return call


def macro(func: Callable[..., Any] | None = None, hygienic: bool = True) -> Any:
    """`@T.macro`, `@T.macro()` or `@T.macro(hygienic=False)`."""
    if func is None:
        return lambda f: _define(f, hygienic)
    if not inspect.isfunction(func):
        raise TypeError("T.macro decorates a function: @T.macro, @T.macro() or @T.macro(hygienic=...)")
    return _define(func, hygienic)
