# ruff: noqa
# Golden of SplitTTPrograms, case tt_programs (written by hand in tests/pass_goldens.py):
# split_then_combine(64, 64, 128, 32, 32, 32, 2): two T.Kernel launches, a T.alloc_global workspace the first writes and the second reads.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 128), "bfloat16"), B: T.Buffer((128, 64), "bfloat16"), C: T.Buffer((64, 64), "float32")):
        T.func_attr({"tl.threads": 128})
        partial = T.alloc_buffer((2, 64, 64))
        with T.launch_thread("blockIdx.x", 2) as bx:
            by = T.launch_thread("blockIdx.y", 2)
            bz = T.launch_thread("blockIdx.z", 2)
            A_shared = T.alloc_shared((32, 32), "bfloat16")
            B_shared = T.alloc_shared((32, 32), "bfloat16")
            acc = T.alloc_buffer((32, 32), scope="local.fragment")
            T.tile.fill(acc[0:32, 0:32], T.float32(0.0))
            for ko in T.serial(2, annotations={"num_stages": 2}):
                T.tile.copy(A_shared[0:32, 0:32], A[by * 32:by * 32 + 32, bz * 64 + ko * 32:bz * 64 + ko * 32 + 32])
                T.tile.copy(B_shared[0:32, 0:32], B[bz * 64 + ko * 32:bz * 64 + ko * 32 + 32, bx * 32:bx * 32 + 32])
                T.tile.gemm(acc[0:32, 0:32], A_shared[0:32, 0:32], B_shared[0:32, 0:32], acc[0:32, 0:32], False, False, T.float32(1.0), T.float32(1.0))
            T.tile.copy(partial[bz, by * 32:by * 32 + 32, bx * 32:bx * 32 + 32], acc[0:32, 0:32])
        with T.launch_thread("blockIdx.x", 2) as bx:
            by = T.launch_thread("blockIdx.y", 2)
            part_shared = T.alloc_shared((32, 32))
            total = T.alloc_buffer((32, 32), scope="local.fragment")
            T.tile.fill(total[0:32, 0:32], T.float32(0.0))
            for s in range(2):
                T.tile.copy(part_shared[0:32, 0:32], partial[s, by * 32:by * 32 + 32, bx * 32:bx * 32 + 32])
                for i, j in T.grid(32, 32):
                    total[i, j] = total[i, j] + part_shared[i, j]
            T.tile.copy(C[by * 32:by * 32 + 32, bx * 32:bx * 32 + 32], total[0:32, 0:32])

# ---------------------------------------- after SplitTTPrograms
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main_program0(A: T.Buffer((64, 128), "bfloat16"), B: T.Buffer((128, 64), "bfloat16"), C: T.Buffer((64, 64), "float32"), partial: T.Buffer((2, 64, 64), "float32")):
        T.func_attr({"tl.threads": 128, "tt.program": 0, "tt.program_count": 2, "tt.workspaces": ["partial"]})
        bx = T.launch_thread("blockIdx.x", 2)
        by = T.launch_thread("blockIdx.y", 2)
        bz = T.launch_thread("blockIdx.z", 2)
        A_shared = T.alloc_shared((32, 32), "bfloat16")
        B_shared = T.alloc_shared((32, 32), "bfloat16")
        acc = T.alloc_buffer((32, 32), scope="local.fragment")
        T.tile.fill(acc[0:32, 0:32], T.float32(0.0))
        for ko in T.serial(2, annotations={"num_stages": 2}):
            T.tile.copy(A_shared[0:32, 0:32], A[by * 32:by * 32 + 32, bz * 64 + ko * 32:bz * 64 + ko * 32 + 32])
            T.tile.copy(B_shared[0:32, 0:32], B[bz * 64 + ko * 32:bz * 64 + ko * 32 + 32, bx * 32:bx * 32 + 32])
            T.tile.gemm(acc[0:32, 0:32], A_shared[0:32, 0:32], B_shared[0:32, 0:32], acc[0:32, 0:32], False, False, T.float32(1.0), T.float32(1.0))
        T.tile.copy(partial[bz, by * 32:by * 32 + 32, bx * 32:bx * 32 + 32], acc[0:32, 0:32])

    @T.prim_func
    def main_program1(A: T.Buffer((64, 128), "bfloat16"), B: T.Buffer((128, 64), "bfloat16"), C: T.Buffer((64, 64), "float32"), partial: T.Buffer((2, 64, 64), "float32")):
        T.func_attr({"tl.threads": 128, "tt.program": 1, "tt.program_count": 2, "tt.workspaces": ["partial"]})
        bx = T.launch_thread("blockIdx.x", 2)
        by = T.launch_thread("blockIdx.y", 2)
        part_shared = T.alloc_shared((32, 32))
        total = T.alloc_buffer((32, 32), scope="local.fragment")
        T.tile.fill(total[0:32, 0:32], T.float32(0.0))
        for s in range(2):
            T.tile.copy(part_shared[0:32, 0:32], partial[s, by * 32:by * 32 + 32, bx * 32:bx * 32 + 32])
            for i, j in T.grid(32, 32):
                total[i, j] = total[i, j] + part_shared[i, j]
        T.tile.copy(C[by * 32:by * 32 + 32, bx * 32:bx * 32 + 32], total[0:32, 0:32])
