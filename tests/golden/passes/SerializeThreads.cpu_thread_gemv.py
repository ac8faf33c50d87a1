# ruff: noqa
# Golden of SerializeThreads, case cpu_thread_gemv (lower_and_legalize + optimize_cpu):
# gemv_split_k(8, 16, 4, 2, 4) for llvm: T.get_thread_binding's threads (4, 2) as loops around each thread-dependent statement, per-thread arrays, the shared atomic as an add.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float16"), B: T.Buffer((8, 16), "float16"), C: T.Buffer((8,), "float16")):
        T.func_attr({"target": T.target({"keys": ["cpu"], "kind": "llvm", "mcpu": "x86-64", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}), "tl.threads": [4, 2]})
        bn = T.launch_thread("blockIdx.x", 2)
        tn = T.launch_thread("threadIdx.x", 4)
        tk = T.launch_thread("threadIdx.y", 2)
        _: T.int32 = 0
        a_local = T.alloc_local((4,), "float16")
        b_local = T.alloc_local((4,), "float16")
        sums = T.alloc_shared((4,))
        acc: T.float32
        if tk == 0:
            sums[tn] = T.float32(0.0)
        acc = T.float32(0.0)
        for ko in range(2):
            for j in range(4):
                a_local[j] = A[ko * 8 + tk * 4 + j]
                b_local[j] = B[bn * 4 + tn, ko * 8 + tk * 4 + j]
            for j in range(4):
                acc = acc + T.Cast("float32", a_local[j]) * T.Cast("float32", b_local[j])
        sums[tn] = sums[tn] + acc
        C[bn * 4 + tn] = T.Cast("float16", sums[tn])

# ---------------------------------------- after SerializeThreads
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float16"), B: T.Buffer((8, 16), "float16"), C: T.Buffer((8,), "float16")):
        T.func_attr({"target": T.target({"keys": ["cpu"], "kind": "llvm", "mcpu": "x86-64", "mtriple": "x86_64-unknown-linux-gnu", "tag": ""}), "tl.threads": [4, 2]})
        bn = T.launch_thread("blockIdx.x", 2)
        _: T.int32 = 0
        a_local = T.alloc_buffer((2, 4, 4), "float16", scope="local.fragment", layout=None)
        b_local = T.alloc_buffer((2, 4, 4), "float16", scope="local.fragment", layout=None)
        sums = T.alloc_shared((4,))
        acc = T.alloc_buffer((2, 4), scope="local.fragment", layout=None)
        for tk, tn in T.grid(2, 4):
            if tk == 0:
                sums[tn] = T.float32(0.0)
        for tk, tn in T.grid(2, 4):
            acc[tk, tn] = T.float32(0.0)
        for ko in range(2):
            for j in range(4):
                for tk, tn in T.grid(2, 4):
                    a_local[tk, tn, j] = A[ko * 8 + tk * 4 + j]
                for tk, tn in T.grid(2, 4):
                    b_local[tk, tn, j] = B[bn * 4 + tn, ko * 8 + tk * 4 + j]
            for j, tk, tn in T.grid(4, 2, 4):
                acc[tk, tn] = acc[tk, tn] + T.Cast("float32", a_local[tk, tn, j]) * T.Cast("float32", b_local[tk, tn, j])
        for tk, tn in T.grid(2, 4):
            sums[tn] = sums[tn] + acc[tk, tn]
        for tk, tn in T.grid(2, 4):
            C[bn * 4 + tn] = T.Cast("float16", sums[tn])
