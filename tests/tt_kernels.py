"""TileLang kernels the Tenstorrent tests lower: the two standard ones of test_language_llvm, more in their style."""

from __future__ import annotations

from typing import Any

import layers  # noqa: F401  (the layer folders on the import path: the kernels below are test modules')
from test_language_llvm import elementwise_add, matmul
from tt_attention_kernels import ATTENTION_CORPUS
from tt_attention_variant_kernels import VARIANT_CORPUS
from tt_block_float_kernels import BLOCK_FLOAT_CORPUS
from tt_conv_kernels import CONV_CORPUS
from tt_data_kernels import DATA_CORPUS
from tt_dram_loop_kernels import DRAM_LOOP_CORPUS
from tt_l1_kernels import L1_CORPUS
from tt_loop_kernels import LOOP_CORPUS
from tt_mask_kernels import MASK_CORPUS
from tt_mesh_kernels import MESH_CORPUS
from tt_norm_kernels import NORM_CORPUS
from tt_shape_kernels import SHAPE_CORPUS
from tt_split_k_kernels import SPLIT_K_CORPUS

import tilelang.language as T

__all__ = ["matmul", "elementwise_add", "elementwise_binary", "elementwise_unary", "matmul_bias_relu",
           "batched_matmul", "attention_pv", "attention_scores", "matmul_transposed", "scalar_kernel", "dram_copy",
           "row_reduce", "col_reduce", "sfpu_kernel", "cast_kernel", "fill_max_kernel", "SFPU_FORMS", "GEMMS",
           "gemm_id", "CORPUS"]


def elementwise_binary(M, N, block_M, block_N, op, dtype="bfloat16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_N), dtype)
            B_shared = T.alloc_shared((block_M, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), dtype)
            T.copy(A[by * block_M, bx * block_N], A_shared)
            T.copy(B[by * block_M, bx * block_N], B_shared)
            for (i, j) in T.Parallel(block_M, block_N):
                if op == "add":
                    C_local[i, j] = A_shared[i, j] + B_shared[i, j]
                elif op == "sub":
                    C_local[i, j] = A_shared[i, j] - B_shared[i, j]
                else:
                    C_local[i, j] = A_shared[i, j] * B_shared[i, j]
            T.copy(C_local, C[by * block_M, bx * block_N])
    return main


def elementwise_unary(M, N, block_M, block_N, op, dtype="bfloat16"):
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), dtype)
            T.copy(A[by * block_M, bx * block_N], A_shared)
            for (i, j) in T.Parallel(block_M, block_N):
                if op == "exp":
                    C_local[i, j] = T.exp(A_shared[i, j])
                else:
                    C_local[i, j] = T.max(A_shared[i, j], T.cast(0, dtype))
            T.copy(C_local, C[by * block_M, bx * block_N])
    return main


def scalar_kernel(M, N, block, form, dtype="bfloat16"):
    """C = A op constant on the SFPU (form: mul, add, sub, rsub, div, exp_scaled = exp(A * log2(e)), clamp)."""
    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block, block), dtype)
            C_local = T.alloc_fragment((block, block), dtype)
            T.copy(A[by * block, bx * block], A_shared)
            for i, j in T.Parallel(block, block):
                if form == "mul":
                    C_local[i, j] = A_shared[i, j] * -0.375
                elif form == "add":
                    C_local[i, j] = A_shared[i, j] + 1.5
                elif form == "sub":
                    C_local[i, j] = A_shared[i, j] - 0.25
                elif form == "rsub":
                    C_local[i, j] = 1.0 - A_shared[i, j]
                elif form == "div":
                    C_local[i, j] = A_shared[i, j] / 64.0
                elif form == "clamp":
                    C_local[i, j] = T.clamp(A_shared[i, j] * 2, -0.5, 0.75)
                else:
                    C_local[i, j] = T.exp(A_shared[i, j] * 1.4426950408889634)
            T.copy(C_local, C[by * block, bx * block])
    return main


def row_reduce(M, N, block_M, kind, accumulate=False, dtype="bfloat16", accum_dtype="float"):
    """Out[i] = reduce over j of A[i, j] (kind "sum", "max" or "min"), as TileLang writes a row reduction: a block of
    rows on chip, T.reduce_* into a [block_M] fragment, the fragment copied to the 1-D output. With `accumulate`, the
    reduction of B's block is added on (sum, max; clear=False): Out = rowsum(A) + rowsum(B)."""

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), Out: T.Tensor((M,), accum_dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            A_shared = T.alloc_shared((block_M, N), dtype)
            B_shared = T.alloc_shared((block_M, N), dtype)
            row = T.alloc_fragment((block_M,), accum_dtype)
            T.copy(A[bx * block_M, 0], A_shared)
            if kind == "sum":
                T.reduce_sum(A_shared, row, dim=1)
            elif kind == "max":
                T.reduce_max(A_shared, row, dim=1)
            else:
                T.reduce_min(A_shared, row, dim=1)
            if accumulate:
                T.copy(B[bx * block_M, 0], B_shared)
                if kind == "sum":
                    T.reduce_sum(B_shared, row, dim=1, clear=False)
                else:
                    T.reduce_max(B_shared, row, dim=1, clear=False)
            T.copy(row, Out[bx * block_M:(bx + 1) * block_M])
    return main


def col_reduce(M, N, block_N, kind, accumulate=False, dtype="bfloat16", accum_dtype="float"):
    """Out[j] = reduce over i of A[i, j]: TileLang's column reduction (dim=0) of a block of columns on chip into a
    [block_N] fragment; with `accumulate`, B's block is reduced onto it (clear=False)."""

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), Out: T.Tensor((N,), accum_dtype)):
        with T.Kernel(T.ceildiv(N, block_N), threads=128) as bx:
            A_shared = T.alloc_shared((M, block_N), dtype)
            B_shared = T.alloc_shared((M, block_N), dtype)
            col = T.alloc_fragment((block_N,), accum_dtype)
            T.copy(A[0, bx * block_N], A_shared)
            if kind == "sum":
                T.reduce_sum(A_shared, col, dim=0)
            else:
                T.reduce_max(A_shared, col, dim=0)
            if accumulate:
                T.copy(B[0, bx * block_N], B_shared)
                if kind == "sum":
                    T.reduce_sum(B_shared, col, dim=0, clear=False)
                else:
                    T.reduce_max(B_shared, col, dim=0, clear=False)
            T.copy(col, Out[bx * block_N:(bx + 1) * block_N])
    return main


# Element-wise forms of the op map (specs/ops/eltwise.yaml) beyond the FPU ops: name -> (operands, the store).
SFPU_FORMS = {
    "exp2": (1, lambda a, b: T.exp2(a)),
    "log": (1, lambda a, b: T.log(a)),
    "sqrt": (1, lambda a, b: T.sqrt(a)),
    "rsqrt": (1, lambda a, b: T.rsqrt(a)),
    "recip": (1, lambda a, b: 1.0 / a),
    "sigmoid": (1, lambda a, b: T.sigmoid(a)),
    "tanh": (1, lambda a, b: T.tanh(a)),
    "max": (2, lambda a, b: T.max(a, b)),
    "min": (2, lambda a, b: T.min(a, b)),
    "max_exp": (2, lambda a, b: T.exp(T.max(a, b))),
    "sqrt_scaled": (1, lambda a, b: T.sqrt(a * 4.0)),
}


def sfpu_kernel(M, N, block, form, dtype="bfloat16"):
    """C = SFPU_FORMS[form] of A (and B), block by block."""
    arity, store = SFPU_FORMS[form]
    if arity == 1:

        @T.prim_func
        def unary(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
            with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=128) as (bx, by):
                A_shared = T.alloc_shared((block, block), dtype)
                C_local = T.alloc_fragment((block, block), dtype)
                T.copy(A[by * block, bx * block], A_shared)
                for i, j in T.Parallel(block, block):
                    C_local[i, j] = store(A_shared[i, j], None)
                T.copy(C_local, C[by * block, bx * block])
        return unary

    @T.prim_func
    def binary(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block, block), dtype)
            B_shared = T.alloc_shared((block, block), dtype)
            C_local = T.alloc_fragment((block, block), dtype)
            T.copy(A[by * block, bx * block], A_shared)
            T.copy(B[by * block, bx * block], B_shared)
            for i, j in T.Parallel(block, block):
                C_local[i, j] = store(A_shared[i, j], B_shared[i, j])
            T.copy(C_local, C[by * block, bx * block])
    return binary


def cast_kernel(M, N, block, dtype, out_dtype, then_exp=False):
    """C = T.Cast(out_dtype, A) block by block (after exp in A's dtype with then_exp: two ops, two formats)."""

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), out_dtype)):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block, block), dtype)
            E_local = T.alloc_fragment((block, block), dtype)
            C_local = T.alloc_fragment((block, block), out_dtype)
            T.copy(A[by * block, bx * block], A_shared)
            if then_exp:
                for i, j in T.Parallel(block, block):
                    E_local[i, j] = T.exp(A_shared[i, j])
                for i, j in T.Parallel(block, block):
                    C_local[i, j] = T.Cast(out_dtype, E_local[i, j])
            else:
                for i, j in T.Parallel(block, block):
                    C_local[i, j] = T.Cast(out_dtype, A_shared[i, j])
            T.copy(C_local, C[by * block, bx * block])
    return main


def fill_max_kernel(M, N, block, value, dtype="bfloat16"):
    """C = T.max(A, F) where F[i, j] = value is a constant store (a fill)."""

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block, block), dtype)
            F_local = T.alloc_fragment((block, block), dtype)
            C_local = T.alloc_fragment((block, block), dtype)
            T.copy(A[by * block, bx * block], A_shared)
            for i, j in T.Parallel(block, block):
                F_local[i, j] = value
            for i, j in T.Parallel(block, block):
                C_local[i, j] = T.max(A_shared[i, j], F_local[i, j])
            T.copy(C_local, C[by * block, bx * block])
    return main


def dram_copy(M, N, block_M, block_N, dtype="bfloat16"):
    """B = A block by block, tensor to tensor (a DRAM-to-DRAM T.copy: through a CB of its own)."""

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            T.copy(A[by * block_M:(by + 1) * block_M, bx * block_N:(bx + 1) * block_N],
                   B[by * block_M:(by + 1) * block_M, bx * block_N:(bx + 1) * block_N])
    return main


def matmul_bias_relu(M, N, K, block_M, block_N, block_K, dtype="bfloat16", accum_dtype="float"):
    """D = relu(A @ B + Bias), Bias of the output's shape (a residual-style bias)."""

    @T.prim_func
    def main(A: T.Tensor((M, K), dtype), B: T.Tensor((K, N), dtype), Bias: T.Tensor((M, N), dtype),
             D: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            Bias_shared = T.alloc_shared((block_M, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            D_local = T.alloc_fragment((block_M, block_N), dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[by * block_M, k * block_K], A_shared)
                T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(Bias[by * block_M, bx * block_N], Bias_shared)
            for (i, j) in T.Parallel(block_M, block_N):
                D_local[i, j] = T.max(C_local[i, j] + Bias_shared[i, j], T.cast(0, accum_dtype))
            T.copy(D_local, D[by * block_M, bx * block_N])
    return main


def batched_matmul(batch, M, N, K, block_M, block_N, block_K, dtype="bfloat16", accum_dtype="float"):
    """C[b] = A[b] @ B[b] on a 3-D grid (the batch is blockIdx.z), 3-D tensors."""

    @T.prim_func
    def main(A: T.Tensor((batch, M, K), dtype), B: T.Tensor((batch, K, N), dtype),
             C: T.Tensor((batch, M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), batch, threads=128) as (bx, by, bz):
            A_shared = T.alloc_shared((block_M, block_K), dtype)
            B_shared = T.alloc_shared((block_K, block_N), dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                T.copy(A[bz, by * block_M, k * block_K], A_shared)
                T.copy(B[bz, k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local)
            T.copy(C_local, C[bz, by * block_M, bx * block_N])
    return main


def attention_pv(batch, heads, seq_len, dim, block_M, block_N, dtype="bfloat16", accum_dtype="float"):
    """O = P @ V per (batch, head) in flash attention's BHSD layout and grid (seq blocks, heads, batch), the
    slices written as TileLang's example_mha_fwd_bhsd writes them (`Q[bz, by, rows, :]`)."""

    @T.prim_func
    def main(P: T.Tensor((batch, heads, seq_len, seq_len), dtype), V: T.Tensor((batch, heads, seq_len, dim), dtype),
             Output: T.Tensor((batch, heads, seq_len, dim), dtype)):
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=128) as (bx, by, bz):
            P_shared = T.alloc_shared((block_M, block_N), dtype)
            V_shared = T.alloc_shared((block_N, dim), dtype)
            acc_o = T.alloc_fragment((block_M, dim), accum_dtype)
            T.clear(acc_o)
            for k in T.Pipelined(T.ceildiv(seq_len, block_N), num_stages=2):
                T.copy(P[bz, by, bx * block_M:(bx + 1) * block_M, k * block_N:(k + 1) * block_N], P_shared)
                T.copy(V[bz, by, k * block_N:(k + 1) * block_N, :], V_shared)
                T.gemm(P_shared, V_shared, acc_o)
            T.copy(acc_o, Output[bz, by, bx * block_M:(bx + 1) * block_M, :])
    return main


def attention_scores(batch, heads, seq_len, dim, block_M, block_N, dtype="bfloat16", accum_dtype="float"):
    """S = Q @ K^T per (batch, head), block by block over the keys, each block one product (clear_accum=True,
    transpose_B=True) as flash attention's first GEMM computes it; the scores are written out."""

    @T.prim_func
    def main(Q: T.Tensor((batch, heads, seq_len, dim), dtype), K: T.Tensor((batch, heads, seq_len, dim), dtype),
             S: T.Tensor((batch, heads, seq_len, seq_len), dtype)):
        with T.Kernel(T.ceildiv(seq_len, block_M), heads, batch, threads=128) as (bx, by, bz):
            Q_shared = T.alloc_shared((block_M, dim), dtype)
            K_shared = T.alloc_shared((block_N, dim), dtype)
            acc_s = T.alloc_fragment((block_M, block_N), accum_dtype)
            acc_s_cast = T.alloc_fragment((block_M, block_N), dtype)
            for k in T.Pipelined(T.ceildiv(seq_len, block_N), num_stages=2):
                T.copy(Q[bz, by, bx * block_M:(bx + 1) * block_M, :], Q_shared)
                T.copy(K[bz, by, k * block_N:(k + 1) * block_N, :], K_shared)
                T.gemm(Q_shared, K_shared, acc_s, transpose_B=True, clear_accum=True)
                T.copy(acc_s, acc_s_cast)
                T.copy(acc_s_cast, S[bz, by, bx * block_M:(bx + 1) * block_M, k * block_N:(k + 1) * block_N])
    return main


def matmul_transposed(M, N, K, block_M, block_N, block_K, trans_A, trans_B, dtype="bfloat16", accum_dtype="float"):
    """C = op(A) @ op(B) as TileLang's GEMM tests write it: A is (K, M) when trans_A, B is (N, K) when trans_B."""
    A_shape = (K, M) if trans_A else (M, K)
    B_shape = (N, K) if trans_B else (K, N)
    A_shared_shape = (block_K, block_M) if trans_A else (block_M, block_K)
    B_shared_shape = (block_N, block_K) if trans_B else (block_K, block_N)

    @T.prim_func
    def main(A: T.Tensor(A_shape, dtype), B: T.Tensor(B_shape, dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=128) as (bx, by):
            A_shared = T.alloc_shared(A_shared_shape, dtype)
            B_shared = T.alloc_shared(B_shared_shape, dtype)
            C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
            T.clear(C_local)
            for k in T.Pipelined(T.ceildiv(K, block_K), num_stages=2):
                if trans_A:
                    T.copy(A[k * block_K, by * block_M], A_shared)
                else:
                    T.copy(A[by * block_M, k * block_K], A_shared)
                if trans_B:
                    T.copy(B[bx * block_N, k * block_K], B_shared)
                else:
                    T.copy(B[k * block_K, bx * block_N], B_shared)
                T.gemm(A_shared, B_shared, C_local, trans_A, trans_B)
            T.copy(C_local, C[by * block_M, bx * block_N])
    return main


# (M, N, K, block_M, block_N, block_K, dtype, accum_dtype): non-square, 1 to 64 cores, K from 32 to 1024,
# fp32 and bf16 accumulation, the DST-resident and the spilled (partials in a CB) matmul protocols.
GEMMS = [
    (32, 32, 32, 32, 32, 32, "bfloat16", "float"),
    (64, 128, 64, 32, 64, 32, "bfloat16", "float"),
    (96, 160, 96, 32, 32, 32, "bfloat16", "float"),
    (256, 256, 256, 64, 64, 32, "bfloat16", "float"),
    (128, 64, 1024, 64, 32, 128, "bfloat16", "float"),
    (128, 256, 128, 128, 128, 32, "bfloat16", "float"),
    (64, 64, 256, 64, 64, 64, "bfloat16", "bfloat16"),
    (64, 96, 64, 32, 32, 32, "float16", "float"),
]


def gemm_id(shape: tuple[Any, ...]) -> str:
    m, n, k, bm, bn, bk, dtype, acc = shape
    return f"{m}x{n}x{k}_b{bm}x{bn}x{bk}_{dtype}_{acc}"


# The kernels the codegen tests compile and run (tools/artifacts_digest.py records their artifacts).
CORPUS = {
    **{f"gemm_{gemm_id(s)}": (lambda s=s: matmul(*s)) for s in GEMMS},
    **{f"eltwise_{op}": (lambda op=op: elementwise_binary(64, 128, 32, 64, op)) for op in ("add", "sub", "mul")},
    **{f"unary_{op}": (lambda op=op: elementwise_unary(64, 64, 32, 32, op)) for op in ("exp", "relu")},
    "gemm_bias_relu": lambda: matmul_bias_relu(128, 128, 64, 64, 64, 32),
    "gemm_multicast_8x4": lambda: matmul(256, 512, 128, 64, 64, 32),
    "gemm_batched_3d_grid": lambda: batched_matmul(3, 64, 64, 96, 32, 32, 32),
    "attention_pv_bhsd": lambda: attention_pv(2, 2, 128, 64, 64, 32),
    "attention_scores_bhsd": lambda: attention_scores(2, 2, 64, 64, 32, 32),
    **{f"scalar_{f}": (lambda f=f: scalar_kernel(64, 64, 32, f)) for f in ("mul", "rsub", "exp_scaled", "clamp")},
    "dram_to_dram_copy": lambda: dram_copy(64, 96, 32, 32),
    **{f"row_reduce_{kind}": (lambda kind=kind: row_reduce(128, 64, 64, kind, accumulate=kind == "sum"))
       for kind in ("sum", "max", "min")},
    "col_reduce_max": lambda: col_reduce(64, 128, 64, "max", accumulate=True),
    **{f"sfpu_{form}": (lambda form=form: sfpu_kernel(64, 64, 32, form)) for form in SFPU_FORMS},
    "cast_bf16_to_fp32": lambda: cast_kernel(64, 64, 32, "bfloat16", "float32"),
    "cast_fp32_to_bf16_after_exp": lambda: cast_kernel(64, 64, 32, "float32", "bfloat16", then_exp=True),
    "fill_then_max": lambda: fill_max_kernel(64, 64, 32, 0.25),
    **{f"gemm_{name}": (lambda ta=ta, tb=tb: matmul_transposed(64, 96, 128, 32, 96, 64, ta, tb))
       for name, ta, tb in (("nt", False, True), ("tn", True, False), ("tt", True, True))},
    "cast_int32_to_fp32": lambda: cast_kernel(64, 64, 32, "int32", "float32"),
    "cast_fp32_to_int32": lambda: cast_kernel(64, 64, 32, "float32", "int32"),
    **DATA_CORPUS, **SHAPE_CORPUS, **LOOP_CORPUS, **DRAM_LOOP_CORPUS, **NORM_CORPUS, **SPLIT_K_CORPUS, **L1_CORPUS,
    **ATTENTION_CORPUS, **VARIANT_CORPUS, **MASK_CORPUS, **CONV_CORPUS, **BLOCK_FLOAT_CORPUS, **MESH_CORPUS,
}
