# ruff: noqa
# Golden of BindCudaThreads, case cuda_add (lower_and_legalize + optimize_cuda):
# elementwise_add(64, 64, 32, 32, 'bfloat16', 'bfloat16') for cuda, on 128 threads.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), C: T.Buffer((64, 64), "bfloat16")):
        T.func_attr({"target": T.target({"arch": "sm_90", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}), "tl.threads": 128})
        bx = T.launch_thread("blockIdx.x", 2)
        by = T.launch_thread("blockIdx.y", 2)
        A_shared = T.alloc_shared((32, 32), "bfloat16")
        B_shared = T.alloc_shared((32, 32), "bfloat16")
        C_local = T.alloc_buffer((32, 32), "bfloat16", scope="local.fragment")
        C_shared = T.alloc_shared((32, 32), "bfloat16")
        for i, j in T.grid(32, 32):
            A_shared[i, j] = A[by * 32 + i, bx * 32 + j]
        for i, j in T.grid(32, 32):
            B_shared[i, j] = B[by * 32 + i, bx * 32 + j]
        for local_y, local_x in T.grid(32, 32):
            C_local[local_y, local_x] = A_shared[local_y, local_x] + B_shared[local_y, local_x]
        for i, j in T.grid(32, 32):
            C_shared[i, j] = C_local[i, j]
        for i, j in T.grid(32, 32):
            C[by * 32 + i, bx * 32 + j] = C_shared[i, j]

# ---------------------------------------- after BindCudaThreads
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((64, 64), "bfloat16"), B: T.Buffer((64, 64), "bfloat16"), C: T.Buffer((64, 64), "bfloat16")):
        T.func_attr({"target": T.target({"arch": "sm_90", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}), "tl.threads": 128})
        bx = T.launch_thread("blockIdx.x", 2)
        by = T.launch_thread("blockIdx.y", 2)
        tx = T.launch_thread("threadIdx.x", 128)
        A_shared = T.alloc_shared((32, 32), "bfloat16")
        B_shared = T.alloc_shared((32, 32), "bfloat16")
        C_local = T.alloc_local((8,), "bfloat16", layout=None)
        C_shared = T.alloc_shared((32, 32), "bfloat16")
        for it in range(1):
            for v in T.vectorized(8):
                A_shared[((it * 128 + tx) * 8 + v) // 32, ((it * 128 + tx) * 8 + v) % 32] = A[by * 32 + ((it * 128 + tx) * 8 + v) // 32, bx * 32 + ((it * 128 + tx) * 8 + v) % 32]
        T.tvm_storage_sync("shared", T.bool(False), -1)
        for it in range(1):
            for v in T.vectorized(8):
                B_shared[((it * 128 + tx) * 8 + v) // 32, ((it * 128 + tx) * 8 + v) % 32] = B[by * 32 + ((it * 128 + tx) * 8 + v) // 32, bx * 32 + ((it * 128 + tx) * 8 + v) % 32]
        T.tvm_storage_sync("shared", T.bool(False), -1)
        for it in range(1):
            for v in T.vectorized(8):
                C_local[it * 8 + v] = A_shared[((it * 128 + tx) * 8 + v) // 32, ((it * 128 + tx) * 8 + v) % 32] + B_shared[((it * 128 + tx) * 8 + v) // 32, ((it * 128 + tx) * 8 + v) % 32]
        T.tvm_storage_sync("shared", T.bool(False), -1)
        for it in range(1):
            for v in T.vectorized(8):
                C_shared[((it * 128 + tx) * 8 + v) // 32, ((it * 128 + tx) * 8 + v) % 32] = C_local[it * 8 + v]
        T.tvm_storage_sync("shared", T.bool(False), -1)
        for it in range(1):
            for v in T.vectorized(8):
                C[by * 32 + ((it * 128 + tx) * 8 + v) // 32, bx * 32 + ((it * 128 + tx) * 8 + v) % 32] = C_shared[((it * 128 + tx) * 8 + v) // 32, ((it * 128 + tx) * 8 + v) % 32]
