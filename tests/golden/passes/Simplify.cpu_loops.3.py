# ruff: noqa
# Golden of Simplify, case cpu_loops (lower_and_legalize + optimize_cpu, its 3rd run):
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
        A_s = T.alloc_shared((128,), layout=None)
        R_1 = T.alloc_local((16,), layout=None)
        A_1 = T.decl_buffer((2400,), data=A.data, layout=None)
        B_1 = T.decl_buffer((2400,), data=B.data, layout=None)
        for bx, by in T.grid(5, 4):
            for i, j in T.grid(16, 8):
                A_s[i * 8 + j] = T.if_then_else((by * 4 + i // 4) // 15 < 1, A_1[by * 640 + i * 40 + bx * 8 + j], T.float32(0.0))
            for i in range(16):
                A_s[i * 8:i * 8 + 8] = T.max(A_s[T.Ramp(i * 8, 1, 8)], T.Broadcast(T.float32(0.0), 8))
            R_1[0] = A_s[T.Mul(0, 8)]
            R_1[1] = A_s[T.Mul(1, 8)]
            R_1[2] = A_s[T.Mul(2, 8)]
            R_1[3] = A_s[T.Mul(3, 8)]
            R_1[4] = A_s[T.Mul(4, 8)]
            R_1[5] = A_s[T.Mul(5, 8)]
            R_1[6] = A_s[T.Mul(6, 8)]
            R_1[7] = A_s[T.Mul(7, 8)]
            R_1[8] = A_s[T.Mul(8, 8)]
            R_1[9] = A_s[T.Mul(9, 8)]
            R_1[10] = A_s[T.Mul(10, 8)]
            R_1[11] = A_s[T.Mul(11, 8)]
            R_1[12] = A_s[T.Mul(12, 8)]
            R_1[13] = A_s[T.Mul(13, 8)]
            R_1[14] = A_s[T.Mul(14, 8)]
            R_1[15] = A_s[T.Mul(15, 8)]
            for i in range(16):
                T.evaluate(0)
            for i, j in T.grid(16, 8):
                A_s[i * 8 + j] = T.if_then_else(0 < bx, A_s[i * 8 + j] - R_1[i], A_s[i * 8 + j])
            for i, j in T.grid(16, 8):
                if (by * 4 + i // 4) // 15 < 1:
                    B_1[by * 640 + i * 40 + bx * 8 + j] = A_s[i * 8 + j]

# ---------------------------------------- after Simplify
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((60, 40), "float32"), B: T.Buffer((60, 40), "float32")):
        T.func_attr({"target": T.target({"keys": ["cpu"], "kind": "llvm", "mcpu": "x86-64", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}), "tl.threads": 128})
        A_s = T.alloc_shared((128,), layout=None)
        R_1 = T.alloc_local((16,), layout=None)
        A_1 = T.decl_buffer((2400,), data=A.data, layout=None)
        B_1 = T.decl_buffer((2400,), data=B.data, layout=None)
        for bx, by in T.grid(5, 4):
            for i, j in T.grid(16, 8):
                A_s[i * 8 + j] = T.if_then_else(by * 4 + i // 4 < 15, A_1[by * 640 + i * 40 + bx * 8 + j], T.float32(0.0))
            for i in range(16):
                A_s[i * 8:i * 8 + 8] = T.max(A_s[T.Ramp(i * 8, 1, 8)], T.Broadcast(T.float32(0.0), 8))
            R_1[0] = A_s[0]
            R_1[1] = A_s[8]
            R_1[2] = A_s[16]
            R_1[3] = A_s[24]
            R_1[4] = A_s[32]
            R_1[5] = A_s[40]
            R_1[6] = A_s[48]
            R_1[7] = A_s[56]
            R_1[8] = A_s[64]
            R_1[9] = A_s[72]
            R_1[10] = A_s[80]
            R_1[11] = A_s[88]
            R_1[12] = A_s[96]
            R_1[13] = A_s[104]
            R_1[14] = A_s[112]
            R_1[15] = A_s[120]
            for i in range(16):
                T.evaluate(0)
            for i, j in T.grid(16, 8):
                A_s[i * 8 + j] = T.if_then_else(0 < bx, A_s[i * 8 + j] - R_1[i], A_s[i * 8 + j])
            for i, j in T.grid(16, 8):
                if by * 4 + i // 4 < 15:
                    B_1[by * 640 + i * 40 + bx * 8 + j] = A_s[i * 8 + j]
