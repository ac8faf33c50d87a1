# ruff: noqa
# Golden of Simplify, case cpu_loops (lower_and_legalize + optimize_cpu):
# guarded_rows(60, 40, 16, 8) for llvm: partial blocks, vectorized and unrolled loops.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((60, 40), "float32"), B: T.Buffer((60, 40), "float32")):
        T.func_attr({"target": T.target({"keys": ["cpu"], "kind": "llvm", "mcpu": "x86-64", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}), "tl.threads": 128})
        bx = T.launch_thread("blockIdx.x", 5)
        by = T.launch_thread("blockIdx.y", 4)
        A_s = T.alloc_shared((16, 8))
        R_1 = T.alloc_local((16,))
        for i, j in T.grid(16, 8):
            A_s[i, j] = T.if_then_else(by * 16 + i < 60, A[by * 16 + i, bx * 8 + j], T.float32(0.0))
        for i in range(16):
            for j in T.vectorized(8):
                A_s[i, j] = T.max(A_s[i, j], T.float32(0.0))
        for i in T.unroll(16):
            R_1[i] = A_s[i, 0]
        for i in range(16):
            R_1[i] = R_1[i]
        for i, j in T.grid(16, 8):
            A_s[i, j] = T.if_then_else(bx > 0, A_s[i, j] - R_1[i], A_s[i, j])
        for i, j in T.grid(16, 8):
            if by * 16 + i < 60:
                B[by * 16 + i, bx * 8 + j] = A_s[i, j]

# ---------------------------------------- after Simplify
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((60, 40), "float32"), B: T.Buffer((60, 40), "float32")):
        T.func_attr({"target": T.target({"keys": ["cpu"], "kind": "llvm", "mcpu": "x86-64", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}), "tl.threads": 128})
        bx = T.launch_thread("blockIdx.x", 5)
        by = T.launch_thread("blockIdx.y", 4)
        A_s = T.alloc_shared((16, 8))
        R_1 = T.alloc_local((16,))
        for i, j in T.grid(16, 8):
            A_s[i, j] = T.if_then_else(by * 16 + i < 60, A[by * 16 + i, bx * 8 + j], T.float32(0.0))
        for i in range(16):
            for j in T.vectorized(8):
                A_s[i, j] = T.max(A_s[i, j], T.float32(0.0))
        for i in T.unroll(16):
            R_1[i] = A_s[i, 0]
        for i in range(16):
            T.evaluate(0)
        for i, j in T.grid(16, 8):
            A_s[i, j] = T.if_then_else(0 < bx, A_s[i, j] - R_1[i], A_s[i, j])
        for i, j in T.grid(16, 8):
            if by * 16 + i < 60:
                B[by * 16 + i, bx * 8 + j] = A_s[i, j]
