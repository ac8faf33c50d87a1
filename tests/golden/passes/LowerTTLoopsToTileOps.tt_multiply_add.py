# ruff: noqa
# Golden of LowerTTLoopsToTileOps, case tt_multiply_add (lower_and_legalize_tt + optimize_tenstorrent):
# TileLang's CPU-test matmul(64, 64, 64, 32, 32, 32): the multiply-add loop C_local[i, j] += A_local[i, k] * B_local[k, j] (a T.gemm).
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "float16"), B: T.Buffer((64, 64), "float16"), C: T.Buffer((64, 64), "float16")):
        T.func_attr({"global_symbol": "matmul", "target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128})
        bx = T.launch_thread("blockIdx.x", 2)
        by = T.launch_thread("blockIdx.y", 2)
        A_local = T.alloc_local((32, 32), "float16")
        B_local = T.alloc_local((32, 32), "float16")
        C_local = T.alloc_local((32, 32))
        T.tile.fill(C_local[0:32, 0:32], T.float32(0.0))
        for ko in range(2):
            T.tile.copy(A_local[0:32, 0:32], A[by * 32:by * 32 + 32, ko * 32:ko * 32 + 32])
            T.tile.copy(B_local[0:32, 0:32], B[ko * 32:ko * 32 + 32, bx * 32:bx * 32 + 32])
            for i, j, k in T.grid(32, 32, 32):
                C_local[i, j] = C_local[i, j] + T.Cast("float32", A_local[i, k] * B_local[k, j])
        T.tile.copy(C[by * 32:by * 32 + 32, bx * 32:bx * 32 + 32], C_local[0:32, 0:32])

# ---------------------------------------- after LowerTTLoopsToTileOps
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "float16"), B: T.Buffer((64, 64), "float16"), C: T.Buffer((64, 64), "float16")):
        T.func_attr({"global_symbol": "matmul", "target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128})
        bx = T.launch_thread("blockIdx.x", 2)
        by = T.launch_thread("blockIdx.y", 2)
        A_local = T.alloc_local((32, 32), "float16")
        B_local = T.alloc_local((32, 32), "float16")
        C_local = T.alloc_local((32, 32))
        T.tile.fill(C_local[0:32, 0:32], T.float32(0.0))
        for ko in range(2):
            T.tile.copy(A_local[0:32, 0:32], A[by * 32:by * 32 + 32, ko * 32:ko * 32 + 32])
            T.tile.copy(B_local[0:32, 0:32], B[ko * 32:ko * 32 + 32, bx * 32:bx * 32 + 32])
            T.tile.gemm(C_local[0:32, 0:32], A_local[0:32, 0:32], B_local[0:32, 0:32], C_local[0:32, 0:32], T.bool(False), T.bool(False), T.float32(1.0), T.float32(1.0))
        T.tile.copy(C[by * 32:by * 32 + 32, bx * 32:bx * 32 + 32], C_local[0:32, 0:32])
