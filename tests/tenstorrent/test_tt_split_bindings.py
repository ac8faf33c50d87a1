"""A value each kernel reads its own way (issue 28: a data branch's flag, read by the reader and writer with l1_word,
by the compute kernel with read_tile_value) is one variable bound once per role; SplitTTKernels keeps in each kernel
the binding whose intrinsic has its role, so the three kernels test the same condition on their own value."""

from __future__ import annotations

import tvm
from tt_ir import gemm, run_until
from tvm import tirx

from tilelang import transform
from tilelang.language import tt
from tilelang.tenstorrent.lowered import intrinsic_of


def bound(func: tirx.PrimFunc) -> list[str]:
    """The intrinsics whose results the kernel binds, in order."""
    stmts = list(func.body.seq) if isinstance(func.body, tirx.SeqStmt) else [func.body]
    return [intrinsic_of(s.value.value).name for s in stmts if isinstance(s, tirx.Bind)]


def test_each_kernel_keeps_the_binding_of_its_role() -> None:
    mod = run_until(gemm(), "LowerTileOpsToTT")
    func = mod["main"]
    flag = tirx.Var("flag", "int32")
    body = tirx.SeqStmt([tirx.Bind(flag, tirx.Cast("int32", tt.l1_word(tt.get_write_ptr(3), 0))),
                         tirx.Bind(flag, tirx.Cast("int32", tt.read_tile_value(3, 0, 0))),
                         tirx.IfThenElse(flag != 0, func.body, None)])
    split = transform.SplitTTKernels()(tvm.IRModule({"main": func.with_body(body)}))
    assert bound(split["main_reader"]) == ["l1_word"]
    assert bound(split["main_compute"]) == ["read_tile_value"]
    assert bound(split["main_writer"]) == ["l1_word"]
