"""TileLang's own softmax, online softmax, rms_norm and layer_norm kernels (tests/language/test_tilelang_examples.py,
the bodies copied unmodified, without the CPU jit decorator) for the Tenstorrent backend: row reductions, broadcast
arithmetic of [block_M] column vectors, element-wise math on column vectors and nested expressions."""

from typing import Any

import tilelang.language as T

__all__ = ["rms_norm", "layer_norm", "layer_norm_stats", "layer_norm_bwd", "softmax", "online_softmax",
           "softmax_kernel", "nested", "row_broadcast", "row_tensor", "NESTED", "NORM_CORPUS"]


def rms_norm(M, N, blk_m, eps=1e-6):
    dtype = "float"

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            A_shared = T.alloc_shared((blk_m, N), dtype)
            A_pow_local = T.alloc_fragment((blk_m, N), dtype)
            A_local = T.alloc_fragment((blk_m, N), dtype)
            A_powsum = T.alloc_fragment((blk_m,), dtype)

            T.copy(A[bx * blk_m:(bx + 1) * blk_m, :], A_shared)
            T.copy(A_shared, A_local)
            for i, j in T.Parallel(blk_m, N):
                A_pow_local[i, j] = A_local[i, j] * A_local[i, j]
            T.reduce_sum(A_pow_local, A_powsum, dim=1)
            for i in T.Parallel(blk_m):
                A_powsum[i] = T.rsqrt(A_powsum[i] / N + eps)
            for i, j in T.Parallel(blk_m, N):
                A_local[i, j] *= A_powsum[i]
            T.copy(A_local, B[bx * blk_m:(bx + 1) * blk_m, :])

    return main


def layer_norm(M, N, blk_m, eps=1e-5):
    dtype = "float"

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), W: T.Tensor((N,), dtype), Bias: T.Tensor((N,), dtype),
             Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            x = T.alloc_fragment((blk_m, N), dtype)
            sq = T.alloc_fragment((blk_m, N), dtype)
            mean = T.alloc_fragment((blk_m,), dtype)
            var = T.alloc_fragment((blk_m,), dtype)
            T.copy(X[bx * blk_m, 0], x)
            T.reduce_sum(x, mean, dim=1)
            for i in T.Parallel(blk_m):
                mean[i] = mean[i] / N
            for i, j in T.Parallel(blk_m, N):
                sq[i, j] = (x[i, j] - mean[i]) * (x[i, j] - mean[i])
            T.reduce_sum(sq, var, dim=1)
            for i, j in T.Parallel(blk_m, N):
                x[i, j] = (x[i, j] - mean[i]) * T.rsqrt(var[i] / N + eps) * W[j] + Bias[j]
            T.copy(x, Y[bx * blk_m, 0])

    return main


def softmax(M, N, blk_m):
    dtype = "float"
    scale = 1.44269504  # log2(e)

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            x = T.alloc_fragment((blk_m, N), dtype)
            row_max = T.alloc_fragment((blk_m,), dtype)
            row_sum = T.alloc_fragment((blk_m,), dtype)
            T.copy(X[bx * blk_m, 0], x)
            T.reduce_max(x, row_max, dim=1)
            for i, j in T.Parallel(blk_m, N):
                x[i, j] = T.exp2(x[i, j] * scale - row_max[i] * scale)
            T.reduce_sum(x, row_sum, dim=1)
            for i, j in T.Parallel(blk_m, N):
                x[i, j] = x[i, j] / row_sum[i]
            T.copy(x, Y[bx * blk_m, 0])

    return main


def online_softmax(M, N, blk_m, blk_n):
    dtype = "float"
    scale = 1.44269504

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            x = T.alloc_fragment((blk_m, blk_n), dtype)
            lse = T.alloc_fragment((blk_m,), dtype)
            max_x = T.alloc_fragment((blk_m,), dtype)
            max_prev = T.alloc_fragment((blk_m,), dtype)
            exp_sum = T.alloc_fragment((blk_m,), dtype)
            T.fill(lse, 0)
            T.fill(max_x, -T.infinity(dtype))
            for k in T.Pipelined(T.ceildiv(N, blk_n), num_stages=1):
                T.copy(X[bx * blk_m, k * blk_n], x)
                T.copy(max_x, max_prev)
                T.reduce_max(x, max_x, dim=1, clear=False)
                for i, j in T.Parallel(blk_m, blk_n):
                    x[i, j] = T.exp2(x[i, j] * scale - max_x[i] * scale)
                T.reduce_sum(x, exp_sum, dim=1)
                for i in T.Parallel(blk_m):
                    lse[i] = lse[i] * T.exp2(max_prev[i] * scale - max_x[i] * scale) + exp_sum[i]
            for k in T.serial(T.ceildiv(N, blk_n)):
                T.copy(X[bx * blk_m, k * blk_n], x)
                for i, j in T.Parallel(blk_m, blk_n):
                    x[i, j] = T.exp2(x[i, j] * scale - max_x[i] * scale) / lse[i]
                T.copy(x, Y[bx * blk_m, k * blk_n])

    return main


def softmax_kernel(M, N, BLOCK_M=1, BLOCK_N=8192, dtype=T.float16):
    """The current upstream examples/online_softmax/online_softmax.py (tile-ai/tilelang a35008a): the body unmodified,
    its eager signature (`X: T.Tensor([M, N], dtype)` in the body, `Y = T.empty(...)` returned, M and N module
    globals) written as a prim_func of X and Y. The log-sum-exp runs in base 2: T.log2 of a [BLOCK_M] vector."""
    accum_dtype = T.float32

    scale = 1.44269504  # log2(e)

    @T.prim_func
    def main(X: T.Tensor([M, N], dtype), Y: T.Tensor([M, N], dtype)):
        with T.Kernel(T.ceildiv(M, BLOCK_M), threads=128) as (i_m):
            x = T.alloc_fragment([BLOCK_M, BLOCK_N], dtype)
            y = T.alloc_fragment([BLOCK_M, BLOCK_N], dtype)
            lse = T.alloc_fragment([BLOCK_M], accum_dtype)
            max_x = T.alloc_fragment([BLOCK_M], dtype)
            exp_x = T.alloc_fragment([BLOCK_M, BLOCK_N], accum_dtype)
            sum_exp_x = T.alloc_fragment([BLOCK_M], accum_dtype)
            T.fill(lse, -T.infinity(accum_dtype))

            for i_n in T.Pipelined(T.ceildiv(N, BLOCK_N)):
                T.copy(X[i_m * BLOCK_M, i_n * BLOCK_N], x)
                T.reduce_max(x, max_x, dim=1, clear=True)

                for i, j in T.Parallel(BLOCK_M, BLOCK_N):
                    exp_x[i, j] = T.exp2(x[i, j] * scale - max_x[i] * scale)

                T.reduce_sum(exp_x, sum_exp_x, dim=1, clear=True)

                for i in T.Parallel(BLOCK_M):
                    lse[i] = max_x[i] * scale + T.log2(T.exp2(lse[i] - max_x[i] * scale) + sum_exp_x[i])

            for i_n in T.Pipelined(T.ceildiv(N, BLOCK_N)):
                T.copy(X[i_m * BLOCK_M, i_n * BLOCK_N], x)

                for i, j in T.Parallel(BLOCK_M, BLOCK_N):
                    y[i, j] = T.exp2(x[i, j] * scale - lse[i])

                T.copy(y, Y[i_m * BLOCK_M, i_n * BLOCK_N])

    return main


def nested(M, N, block, form, dtype="bfloat16"):
    """C = a store nesting several operations of A's and B's blocks (split into one tile op per operation)."""

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), B: T.Tensor((M, N), dtype), C: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(N, block), T.ceildiv(M, block), threads=128) as (bx, by):
            A_s = T.alloc_shared((block, block), dtype)
            B_s = T.alloc_shared((block, block), dtype)
            C_l = T.alloc_fragment((block, block), dtype)
            T.copy(A[by * block, bx * block], A_s)
            T.copy(B[by * block, bx * block], B_s)
            for i, j in T.Parallel(block, block):
                if form == "a*b+a":
                    C_l[i, j] = A_s[i, j] * B_s[i, j] + A_s[i, j]
                elif form == "a/b":
                    C_l[i, j] = A_s[i, j] / B_s[i, j]
                elif form == "exp(a)+b":
                    C_l[i, j] = T.exp(A_s[i, j]) + B_s[i, j]
                else:  # sqrt((a - b) * 0.5 + 1) * a
                    C_l[i, j] = T.sqrt((A_s[i, j] - B_s[i, j]) * 0.5 + 1.0) * A_s[i, j]
            T.copy(C_l, C[by * block, bx * block])

    return main


def row_broadcast(M, N, block_M, op, dtype="bfloat16", accum_dtype="float"):
    """C[i, j] = A[i, j] op R[i] with R = the rows' maxima (a [block_M] column vector) scaled: add, sub, mul, div;
    rsub and rdiv with the vector on the left: R[i] - A[i, j], R[i] / A[i, j]."""

    @T.prim_func
    def main(A: T.Tensor((M, N), dtype), C: T.Tensor((M, N), accum_dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as by:
            A_s = T.alloc_shared((block_M, N), dtype)
            R = T.alloc_fragment((block_M,), accum_dtype)
            C_l = T.alloc_fragment((block_M, N), accum_dtype)
            T.copy(A[by * block_M, 0], A_s)
            T.reduce_max(A_s, R, dim=1)
            for i, j in T.Parallel(block_M, N):
                if op == "add":
                    C_l[i, j] = A_s[i, j] + R[i] * 2.0
                elif op == "sub":
                    C_l[i, j] = A_s[i, j] - R[i]
                elif op == "mul":
                    C_l[i, j] = R[i] * A_s[i, j]
                elif op == "rsub":
                    C_l[i, j] = R[i] - A_s[i, j]
                elif op == "rdiv":
                    C_l[i, j] = R[i] / A_s[i, j]
                else:
                    C_l[i, j] = A_s[i, j] / R[i]
            T.copy(C_l, C[by * block_M, 0])

    return main


def row_tensor(M, N, block_M, form, dtype="float"):
    """Y[i, j] = X[i, j] op W[j] with W a 1-D tensor read whole in the store (a row vector): add, mul; sub is refused
    (no sub_tiles_bcast_rows in every API profile)."""

    @T.prim_func
    def main(X: T.Tensor((M, N), dtype), W: T.Tensor((N,), dtype), Y: T.Tensor((M, N), dtype)):
        with T.Kernel(T.ceildiv(M, block_M), threads=128) as bx:
            x = T.alloc_fragment((block_M, N), dtype)
            T.copy(X[bx * block_M, 0], x)
            for i, j in T.Parallel(block_M, N):
                if form == "add":
                    x[i, j] = W[j] + x[i, j]
                elif form == "mul":
                    x[i, j] = x[i, j] * W[j] * 0.5
                else:
                    x[i, j] = x[i, j] - W[j]
            T.copy(x, Y[bx * block_M, 0])

    return main


def layer_norm_stats(M, N, blk_m, eps=1e-5):
    """Layer norm of bf16 rows (fp32 math) that also writes each row's mean and 1 / std to DRAM, in the style of
    TileLang's current examples/norm/layernorm.py: T.Parallel bodies of several stores (the statistics computed and
    written out in one body over the block's rows), a value named per element (`centred`), and blk_m = 1 row blocks."""
    acc = "float32"

    @T.prim_func
    def main(X: T.Tensor((M, N), "bfloat16"), W: T.Tensor((N,), "bfloat16"), Bias: T.Tensor((N,), "bfloat16"),
             Y: T.Tensor((M, N), "bfloat16"), Mean: T.Tensor((M,), acc), Rstd: T.Tensor((M,), acc)):
        with T.Kernel(T.ceildiv(M, blk_m), threads=128) as bx:
            x_in = T.alloc_shared((blk_m, N), "bfloat16")
            w = T.alloc_shared((N,), "bfloat16")
            b = T.alloc_shared((N,), "bfloat16")
            x = T.alloc_fragment((blk_m, N), acc)
            sq = T.alloc_fragment((blk_m, N), acc)
            total = T.alloc_fragment((blk_m,), acc)
            total_sq = T.alloc_fragment((blk_m,), acc)
            mu = T.alloc_fragment((blk_m,), acc)
            r = T.alloc_fragment((blk_m,), acc)
            T.copy(X[bx * blk_m, 0], x_in)
            T.copy(W, w)
            T.copy(Bias, b)
            for i, j in T.Parallel(blk_m, N):
                x[i, j] = T.Cast(acc, x_in[i, j])
                sq[i, j] = x[i, j] * x[i, j]
            T.reduce_sum(x, total, dim=1)
            T.reduce_sum(sq, total_sq, dim=1)
            for i in T.Parallel(blk_m):
                mu[i] = total[i] * (1.0 / N)
                Mean[bx * blk_m + i] = mu[i]
                r[i] = T.rsqrt(total_sq[i] * (1.0 / N) - mu[i] * mu[i] + eps)
                Rstd[bx * blk_m + i] = r[i]
            for i, j in T.Parallel(blk_m, N):
                centred = x[i, j] - mu[i]
                x_in[i, j] = T.Cast("bfloat16", centred * r[i] * T.Cast(acc, w[j]) + T.Cast(acc, b[j]))
            T.copy(x_in, Y[bx * blk_m, 0])

    return main


def layer_norm_bwd(N, D, blk_m):
    """Layer norm backward in the form of TileLang's current examples/norm/layernorm.py `_layernorm_bwd`: a serial
    loop over the block's rows ([1, D] row blocks, the row's Mean and Rstd read from DRAM as scalars), column sums
    accumulated into [D] fragments, and dgamma/dbeta added onto fp32 vectors by two element-wise T.atomic_adds in
    one T.Parallel loop (every program adds onto the same vectors)."""
    acc = "float32"

    @T.prim_func
    def main(DY: T.Tensor((N, D), "bfloat16"), X: T.Tensor((N, D), "bfloat16"), G: T.Tensor((D,), "bfloat16"),
             Mean: T.Tensor((N,), acc), Rstd: T.Tensor((N,), acc), DX: T.Tensor((N, D), "bfloat16"),
             DGamma: T.Tensor((D,), acc), DBeta: T.Tensor((D,), acc)):
        with T.Kernel(T.ceildiv(N, blk_m), threads=128) as bx:
            dy_s = T.alloc_shared((1, D), "bfloat16")
            x_s = T.alloc_shared((1, D), "bfloat16")
            g_s = T.alloc_shared((D,), "bfloat16")
            dx_s = T.alloc_shared((1, D), "bfloat16")
            x_hat = T.alloc_fragment((1, D), acc)
            dx_hat = T.alloc_fragment((1, D), acc)
            prod = T.alloc_fragment((1, D), acc)
            s1 = T.alloc_fragment((1,), acc)
            s2 = T.alloc_fragment((1,), acc)
            dg = T.alloc_fragment((D,), acc)
            db = T.alloc_fragment((D,), acc)
            T.copy(G, g_s)
            T.clear(dg)
            T.clear(db)
            inv_d = T.float32(1.0) / T.Cast(acc, D)
            for k in T.serial(blk_m):
                row = bx * blk_m + k
                T.copy(DY[row, 0], dy_s)
                T.copy(X[row, 0], x_s)
                mu = Mean[row]
                r = Rstd[row]
                for i, j in T.Parallel(1, D):
                    x_hat[i, j] = (T.Cast(acc, x_s[i, j]) - mu) * r
                    dx_hat[i, j] = T.Cast(acc, dy_s[i, j]) * T.Cast(acc, g_s[j])
                    prod[i, j] = dx_hat[i, j] * x_hat[i, j]
                T.reduce_sum(dx_hat, s1, dim=1)
                T.reduce_sum(prod, s2, dim=1)
                for i, j in T.Parallel(1, D):
                    dx_s[i, j] = T.Cast("bfloat16", r * (dx_hat[i, j] - s1[0] * inv_d - x_hat[i, j] * (s2[0] * inv_d)))
                    dg[j] += T.Cast(acc, dy_s[i, j]) * x_hat[i, j]
                    db[j] += T.Cast(acc, dy_s[i, j])
                T.copy(dx_s, DX[row, 0])
            for j in T.Parallel(D):
                T.atomic_add(DGamma[j], dg[j])
                T.atomic_add(DBeta[j], db[j])

    return main


# The nested forms of `nested`, by corpus name.
NESTED = {"mul_add": "a*b+a", "div": "a/b", "exp_add": "exp(a)+b", "sqrt_affine": "sqrt"}

# The norm kernels of the codegen corpus (tests/tt_kernels.py CORPUS).
NORM_CORPUS: dict[str, Any] = {
    "softmax": lambda: softmax(64, 128, 32),
    "rms_norm": lambda: rms_norm(64, 128, 32),
    "online_softmax": lambda: online_softmax(64, 256, 32, 128),
    "online_softmax_log2_ragged": lambda: softmax_kernel(100, 200, 1, 64),  # upstream's current body: T.log2
    "layer_norm": lambda: layer_norm(64, 128, 32),
    "layer_norm_stats": lambda: layer_norm_stats(100, 200, 1),
    "layer_norm_bwd": lambda: layer_norm_bwd(64, 200, 32),
    **{f"row_tensor_{form}": (lambda form=form: row_tensor(64, 96, 32, form)) for form in ("add", "mul")},
    **{f"nested_{name}": (lambda f=f: nested(64, 64, 32, f)) for name, f in NESTED.items()},
    **{f"row_broadcast_{op}": (lambda op=op: row_broadcast(64, 64, 32, op)) for op in ("add", "sub", "mul", "div")},
}
