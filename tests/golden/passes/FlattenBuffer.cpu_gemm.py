# ruff: noqa
# Golden of FlattenBuffer, case cpu_gemm (lower_and_legalize + optimize_cpu):
# matmul(64, 64, 64, 32, 32, 32, dtype='float32') for llvm.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["cpu"], "kind": "llvm", "mcpu": "x86-64", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}), "tl.threads": 128})
        for bx, by in T.grid(2, 2):
            A_shared = T.alloc_shared((32, 32))
            B_shared = T.alloc_shared((32, 32))
            C_local = T.alloc_buffer((32, 32), scope="local.fragment")
            for i, j in T.grid(32, 32):
                C_local[i, j] = T.float32(0.0)
            for k in T.serial(2, annotations={"num_stages": 3}):
                for i, j in T.grid(32, 32):
                    A_shared[i, j] = A[by * 32 + i, k * 32 + j]
                for i, j in T.grid(32, 32):
                    B_shared[i, j] = B[k * 32 + i, bx * 32 + j]
                for i, k_1, j in T.grid(32, 32, 32):
                    C_local[i, j] = C_local[i, j] + A_shared[i, k_1] * B_shared[k_1, j]
            for i, j in T.grid(32, 32):
                C[by * 32 + i, bx * 32 + j] = C_local[i, j]

# ---------------------------------------- after FlattenBuffer
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"target": T.target({"keys": ["cpu"], "kind": "llvm", "mcpu": "x86-64", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}), "tl.threads": 128})
        A_1 = T.decl_buffer((4096,), data=A.data, layout=None)
        B_1 = T.decl_buffer((4096,), data=B.data, layout=None)
        C_1 = T.decl_buffer((4096,), data=C.data, layout=None)
        for bx, by in T.grid(2, 2):
            A_shared = T.alloc_shared((1024,), layout=None)
            B_shared = T.alloc_shared((1024,), layout=None)
            C_local = T.alloc_buffer((1024,), scope="local.fragment", layout=None)
            for i, j in T.grid(32, 32):
                C_local[i * 32 + j] = T.float32(0.0)
            for k in T.serial(2, annotations={"num_stages": 3}):
                for i, j in T.grid(32, 32):
                    A_shared[i * 32 + j] = A_1[by * 2048 + i * 64 + k * 32 + j]
                for i, j in T.grid(32, 32):
                    B_shared[i * 32 + j] = B_1[k * 2048 + i * 64 + bx * 32 + j]
                for i, k_1, j in T.grid(32, 32, 32):
                    C_local[i * 32 + j] = C_local[i * 32 + j] + A_shared[i * 32 + k_1] * B_shared[k_1 * 32 + j]
            for i, j in T.grid(32, 32):
                C_1[by * 2048 + i * 64 + bx * 32 + j] = C_local[i * 32 + j]
