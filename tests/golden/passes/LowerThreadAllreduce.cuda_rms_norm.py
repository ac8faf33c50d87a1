# ruff: noqa
# Golden of LowerThreadAllreduce, case cuda_rms_norm (lower_and_legalize + optimize_cuda):
# rms_norm(8, 256, 1) for cuda: a row sum across 128 threads (per-thread partial sums, tvm_thread_allreduce lowered to warp shuffles and shared memory).
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((8, 256), "float32"), B: T.Buffer((8, 256), "float32")):
        T.func_attr({"target": T.target({"arch": "sm_90", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}), "tl.threads": 128})
        bx = T.launch_thread("blockIdx.x", 8)
        tx = T.launch_thread("threadIdx.x", 128)
        A_shared = T.alloc_shared((1, 256))
        A_pow_local = T.alloc_local((2,), layout=None)
        A_local = T.alloc_local((2,), layout=None)
        A_powsum = T.alloc_local((1,), layout=None)
        for it in range(1):
            for v in T.vectorized(2):
                A_shared[0, (it * 128 + tx) * 2 + v] = A[bx, (it * 128 + tx) * 2 + v]
        T.tvm_storage_sync("shared", T.bool(False), -1)
        for it in range(1):
            for v in T.vectorized(2):
                A_local[it * 2 + v] = A_shared[0, (it * 128 + tx) * 2 + v]
        for it in range(1):
            for v in T.vectorized(2):
                A_pow_local[it * 2 + v] = A_local[it * 2 + v] * A_local[it * 2 + v]
        A_powsum[0] = T.float32(0.0)
        acc = T.alloc_local((1,), layout=None)
        acc[0] = T.float32(0.0)
        for it, v in T.grid(1, 2):
            acc[0] = acc[0] + A_pow_local[it * 2 + v]
        T.tvm_storage_sync("shared", T.bool(False), -1)
        red = T.alloc_local((1,), layout=None)
        with T.attr(T.comm_reducer(lambda x, y: x + y, [T.float32(0.0)]), "reduce_scope", T.reinterpret(T.handle().ty, T.uint64(0))):
            T.tvm_thread_allreduce(T.uint32(1), acc[0], T.bool(True), red[0], tx)
        A_powsum[0] = A_powsum[0] + red[0]
        for i in range(1):
            A_powsum[0] = T.rsqrt(A_powsum[0] / T.float32(256.0) + T.float32(9.9999999999999995e-07))
        for it in range(1):
            for v in T.vectorized(2):
                A_local[it * 2 + v] = A_local[it * 2 + v] * A_powsum[0]
        for it in range(1):
            for v in T.vectorized(2):
                B[bx, (it * 128 + tx) * 2 + v] = A_local[it * 2 + v]

# ---------------------------------------- after LowerThreadAllreduce
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((8, 256), "float32"), B: T.Buffer((8, 256), "float32")):
        T.func_attr({"target": T.target({"arch": "sm_90", "keys": ["cuda", "gpu"], "kind": "cuda", "max_num_threads": 1024, "tag": "", "thread_warp_size": 32}), "tl.threads": 128})
        bx = T.launch_thread("blockIdx.x", 8)
        tx = T.launch_thread("threadIdx.x", 128)
        A_shared = T.alloc_shared((1, 256))
        A_pow_local = T.alloc_local((2,), layout=None)
        A_local = T.alloc_local((2,), layout=None)
        A_powsum = T.alloc_local((1,), layout=None)
        for it in range(1):
            for v in T.vectorized(2):
                A_shared[0, (it * 128 + tx) * 2 + v] = A[bx, (it * 128 + tx) * 2 + v]
        T.tvm_storage_sync("shared", T.bool(False), -1)
        for it in range(1):
            for v in T.vectorized(2):
                A_local[it * 2 + v] = A_shared[0, (it * 128 + tx) * 2 + v]
        for it in range(1):
            for v in T.vectorized(2):
                A_pow_local[it * 2 + v] = A_local[it * 2 + v] * A_local[it * 2 + v]
        A_powsum[0] = T.float32(0.0)
        acc = T.alloc_local((1,), layout=None)
        acc[0] = T.float32(0.0)
        for it, v in T.grid(1, 2):
            acc[0] = acc[0] + A_pow_local[it * 2 + v]
        T.tvm_storage_sync("shared", T.bool(False), -1)
        red_result = T.alloc_shared((1,), layout=None, annotations={"tirx.volatile": True})
        with T.attr(T.comm_reducer(lambda x, y: x + y, [T.float32(0.0)]), "reduce_scope", T.reinterpret(T.handle().ty, T.uint64(0))):
            red_buf_staging = T.alloc_shared((4,), layout=None)
            t0 = T.alloc_local((1,), layout=None)
            mask = T.alloc_local((1,), "uint32", layout=None)
            red_buf0 = T.alloc_local((1,), layout=None)
            t0_1 = T.alloc_local((1,), layout=None)
            mask_1 = T.alloc_local((1,), "uint32", layout=None)
            red_buf0_1 = T.alloc_local((1,), layout=None)
            red_buf0[0] = acc[0]
            mask[0] = T.tvm_warp_activemask()
            t0[0] = T.tvm_warp_shuffle_down(mask[0], red_buf0[0], 16, 32, 32)
            red_buf0[0] = red_buf0[0] + t0[0]
            t0[0] = T.tvm_warp_shuffle_down(mask[0], red_buf0[0], 8, 32, 32)
            red_buf0[0] = red_buf0[0] + t0[0]
            t0[0] = T.tvm_warp_shuffle_down(mask[0], red_buf0[0], 4, 32, 32)
            red_buf0[0] = red_buf0[0] + t0[0]
            t0[0] = T.tvm_warp_shuffle_down(mask[0], red_buf0[0], 2, 32, 32)
            red_buf0[0] = red_buf0[0] + t0[0]
            t0[0] = T.tvm_warp_shuffle_down(mask[0], red_buf0[0], 1, 32, 32)
            red_buf0[0] = red_buf0[0] + t0[0]
            if tx % 32 == 0:
                red_buf_staging[tx // 32] = red_buf0[0]
            T.tvm_storage_sync("shared")
            if tx < 4:
                red_buf0_1[0] = red_buf_staging[tx]
            mask_1[0] = T.tvm_warp_activemask()
            t0_1[0] = T.tvm_warp_shuffle_down(mask_1[0], red_buf0_1[0], 2, 32, 32)
            red_buf0_1[0] = red_buf0_1[0] + t0_1[0]
            t0_1[0] = T.tvm_warp_shuffle_down(mask_1[0], red_buf0_1[0], 1, 32, 32)
            red_buf0_1[0] = red_buf0_1[0] + t0_1[0]
            if tx == 0:
                red_result[0] = red_buf0_1[0]
            T.tvm_storage_sync("shared")
        A_powsum[0] = A_powsum[0] + red_result[0]
        for i in range(1):
            A_powsum[0] = T.rsqrt(A_powsum[0] / T.float32(256.0) + T.float32(9.9999999999999995e-07))
        for it in range(1):
            for v in T.vectorized(2):
                A_local[it * 2 + v] = A_local[it * 2 + v] * A_powsum[0]
        for it in range(1):
            for v in T.vectorized(2):
                B[bx, (it * 128 + tx) * 2 + v] = A_local[it * 2 + v]
