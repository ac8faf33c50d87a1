# ruff: noqa
# Golden of BindTarget, case cpu_gemm (lower_and_legalize + optimize_cpu):
# matmul(64, 64, 64, 32, 32, 32, dtype='float32') for llvm.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"tl.threads": 128})
        bx = T.launch_thread("blockIdx.x", 2)
        by = T.launch_thread("blockIdx.y", 2)
        A_shared = T.alloc_shared((32, 32))
        B_shared = T.alloc_shared((32, 32))
        C_local = T.alloc_buffer((32, 32), scope="local.fragment")
        T.tile.fill(C_local[0:32, 0:32], T.float32(0.0))
        for k in T.serial(2, annotations={"num_stages": 3}):
            T.tile.copy(A_shared[0:32, 0:32], A[by * 32:by * 32 + 32, k * 32:k * 32 + 32])
            T.tile.copy(B_shared[0:32, 0:32], B[k * 32:k * 32 + 32, bx * 32:bx * 32 + 32])
            T.tile.gemm(C_local[0:32, 0:32], A_shared[0:32, 0:32], B_shared[0:32, 0:32], C_local[0:32, 0:32], False, False, T.float32(1.0), T.float32(1.0))
        T.tile.copy(C[by * 32:by * 32 + 32, bx * 32:bx * 32 + 32], C_local[0:32, 0:32])

# ---------------------------------------- after BindTarget
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["cpu"], "kind": "llvm", "mcpu": "x86-64", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}), "tl.threads": 128})
        bx = T.launch_thread("blockIdx.x", 2)
        by = T.launch_thread("blockIdx.y", 2)
        A_shared = T.alloc_shared((32, 32))
        B_shared = T.alloc_shared((32, 32))
        C_local = T.alloc_buffer((32, 32), scope="local.fragment")
        T.tile.fill(C_local[0:32, 0:32], T.float32(0.0))
        for k in T.serial(2, annotations={"num_stages": 3}):
            T.tile.copy(A_shared[0:32, 0:32], A[by * 32:by * 32 + 32, k * 32:k * 32 + 32])
            T.tile.copy(B_shared[0:32, 0:32], B[k * 32:k * 32 + 32, bx * 32:bx * 32 + 32])
            T.tile.gemm(C_local[0:32, 0:32], A_shared[0:32, 0:32], B_shared[0:32, 0:32], C_local[0:32, 0:32], False, False, T.float32(1.0), T.float32(1.0))
        T.tile.copy(C[by * 32:by * 32 + 32, bx * 32:bx * 32 + 32], C_local[0:32, 0:32])
