# ruff: noqa
# Golden of LowerTTLoopsToTileOps, case tt_gemm_schedule (lower_and_legalize_tt + optimize_tenstorrent):
# gemm_schedule(64, 64, 64, 32, 32, 32): B's block read by a T.Parallel loop (a T.copy).
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "float16"), B: T.Buffer((64, 64), "float16"), C: T.Buffer((64, 64), "float16")):
        T.func_attr({"global_symbol": "gemm_schedule", "target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128})
        bx = T.launch_thread("blockIdx.x", 2)
        by = T.launch_thread("blockIdx.y", 2)
        A_shared = T.alloc_shared((32, 32), "float16")
        B_shared = T.alloc_shared((32, 32), "float16")
        C_local = T.alloc_buffer((32, 32), scope="local.fragment")
        T.tile.fill(C_local[0:32, 0:32], T.float32(0.0))
        for ko in T.serial(2, annotations={"num_stages": 3}):
            T.tile.copy(A_shared[0:32, 0:32], A[by * 32:by * 32 + 32, ko * 32:ko * 32 + 32])
            for k, j in T.grid(32, 32):
                B_shared[k, j] = B[ko * 32 + k, bx * 32 + j]
            T.tile.gemm(C_local[0:32, 0:32], A_shared[0:32, 0:32], B_shared[0:32, 0:32], C_local[0:32, 0:32], False, False, T.float32(1.0), T.float32(1.0))
        T.tile.copy(C[by * 32:by * 32 + 32, bx * 32:bx * 32 + 32], C_local[0:32, 0:32])

# ---------------------------------------- after LowerTTLoopsToTileOps
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "float16"), B: T.Buffer((64, 64), "float16"), C: T.Buffer((64, 64), "float16")):
        T.func_attr({"global_symbol": "gemm_schedule", "target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128})
        bx = T.launch_thread("blockIdx.x", 2)
        by = T.launch_thread("blockIdx.y", 2)
        A_shared = T.alloc_shared((32, 32), "float16")
        B_shared = T.alloc_shared((32, 32), "float16")
        C_local = T.alloc_buffer((32, 32), scope="local.fragment")
        T.tile.fill(C_local[0:32, 0:32], T.float32(0.0))
        for ko in T.serial(2, annotations={"num_stages": 3}):
            T.tile.copy(A_shared[0:32, 0:32], A[by * 32:by * 32 + 32, ko * 32:ko * 32 + 32])
            T.tile.copy(B_shared[0:32, 0:32], B[ko * 32:ko * 32 + 32, bx * 32:bx * 32 + 32])
            T.tile.gemm(C_local[0:32, 0:32], A_shared[0:32, 0:32], B_shared[0:32, 0:32], C_local[0:32, 0:32], False, False, T.float32(1.0), T.float32(1.0))
        T.tile.copy(C[by * 32:by * 32 + 32, bx * 32:bx * 32 + 32], C_local[0:32, 0:32])
