"""Registers intrinsic records as TVM ops and builds calls to them.

Registration is guarded: importing twice (or after another copy registered the same ops) is a no-op,
and an op that exists with a different effect kind is an error instead of a silent mismatch.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

import tvm
import tvm_ffi
from tvm import tirx
from tvm.ir import Op
from tvm.tirx.script.builder.ir import register_script_namespace as _register

from ._intrinsic_table import Intrinsic

_REGISTERED: dict[str, Intrinsic] = {}


def _lookup_op(name: str) -> Op | None:
    try:
        return Op.get(name)
    except Exception:  # TVM raises a generic error for unknown ops
        return None


def register_op(record: Intrinsic) -> Op:
    name = record.op_name
    effect = int(getattr(tirx.CallEffectKind, record.effect).value)
    op = _lookup_op(name)
    if op is None:
        tvm_ffi.get_global_func("ir.RegisterOp")(name, record.doc)
        op = Op.get(name)
    current = op.get_attr("TCallEffectKind")
    if current is None:
        # A plain int is required; PrimFunc construction reads it (IsPureFunction).
        tvm.ir.register_op_attr(name, "TCallEffectKind", effect, level=20)
    elif int(current) != effect:
        raise RuntimeError(f"op {name} is already registered with effect {int(current)}, expected {effect}")
    if op.get_attr("TScriptPrinterName") is None:
        tvm.ir.register_op_attr(name, "TScriptPrinterName", name, level=20)
    return op


def register_intrinsics(table: Mapping[str, Intrinsic]) -> None:
    for record in table.values():
        register_op(record)
        _REGISTERED[record.name] = record


def call(name: str, *args: Any) -> Any:
    """A call of intrinsic `name` (used by the generated T.tt.* functions)."""
    record = _REGISTERED[name]
    return tirx.call_intrin(record.dtype, record.op_name, *args)


def register_script_namespace(prefix: str, namespace: ModuleType) -> None:
    """Expose `namespace` as `T.<prefix>` in TVMScript (printing and parsing)."""
    _register(prefix, namespace)
