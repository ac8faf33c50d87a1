# ruff: noqa
# Golden of PartitionTTMesh, case tt_gemm_mesh (lower_and_legalize_tt + optimize_tenstorrent):
# matmul(64, 128, 64, 32, 32, 32, dtype='bfloat16') on a 1x2 mesh: the grid's 4 x-blocks split 2 per device, B and C sharded by columns, A replicated.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 128), "bfloat16"), C: T.Buffer((64, 128), "bfloat16")):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128})
        bx = T.launch_thread("blockIdx.x", 4)
        by = T.launch_thread("blockIdx.y", 2)
        A_shared = T.alloc_shared((32, 32), "bfloat16")
        B_shared = T.alloc_shared((32, 32), "bfloat16")
        C_local = T.alloc_buffer((32, 32), scope="local.fragment")
        T.tile.fill(C_local[0:32, 0:32], T.float32(0.0))
        for k in T.serial(2, annotations={"num_stages": 3}):
            T.tile.copy(A_shared[0:32, 0:32], A[by * 32:by * 32 + 32, k * 32:k * 32 + 32])
            T.tile.copy(B_shared[0:32, 0:32], B[k * 32:k * 32 + 32, bx * 32:bx * 32 + 32])
            T.tile.gemm(C_local[0:32, 0:32], A_shared[0:32, 0:32], B_shared[0:32, 0:32], C_local[0:32, 0:32], False, False, T.float32(1.0), T.float32(1.0))
        T.tile.copy(C[by * 32:by * 32 + 32, bx * 32:bx * 32 + 32], C_local[0:32, 0:32])

# ---------------------------------------- after PartitionTTMesh
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16", layout=None), C: T.Buffer((64, 64), "bfloat16", layout=None)):
        T.func_attr({"target": T.target({"keys": ["tenstorrent"], "kind": "ext_dev", "model": "wormhole_b0", "tag": ""}), "tl.threads": 128, "tt.mesh": {"grid_axes": "yx", "restacked": [], "restacked_rows": [], "shape": [1, 2], "shards": {"A": [1, 1], "B": [1, 2], "C": [1, 2]}}})
        bx = T.launch_thread("blockIdx.x", 2)
        by = T.launch_thread("blockIdx.y", 2)
        A_shared = T.alloc_shared((32, 32), "bfloat16")
        B_shared = T.alloc_shared((32, 32), "bfloat16")
        C_local = T.alloc_buffer((32, 32), scope="local.fragment")
        T.tile.fill(C_local[0:32, 0:32], T.float32(0.0))
        for k in T.serial(2, annotations={"num_stages": 3}):
            T.tile.copy(A_shared[0:32, 0:32], A[by * 32:by * 32 + 32, k * 32:k * 32 + 32])
            T.tile.copy(B_shared[0:32, 0:32], B[k * 32:k * 32 + 32, bx * 32:bx * 32 + 32])
            T.tile.gemm(C_local[0:32, 0:32], A_shared[0:32, 0:32], B_shared[0:32, 0:32], C_local[0:32, 0:32], False, False, T.float32(1.0), T.float32(1.0))
        T.tile.copy(C[by * 32:by * 32 + 32, bx * 32:bx * 32 + 32], C_local[0:32, 0:32])
