"""Kernels the tenstorrent backend must reject with a clear error (test_tt_errors.py)."""

from __future__ import annotations

import tilelang.language as T


def gemm_without_clear(fill_value=None):  # with a fill value it runs: the product plus the fill
    @T.prim_func
    def main(A: T.Tensor((64, 64), "bfloat16"), B: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
        with T.Kernel(1, 1, threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 64), "bfloat16")
            B_s = T.alloc_shared((64, 64), "bfloat16")
            C_l = T.alloc_fragment((64, 64), "float")
            if fill_value is not None:
                T.fill(C_l, fill_value)
            T.copy(A[0, 0], A_s)
            T.copy(B[0, 0], B_s)
            T.gemm(A_s, B_s, C_l)
            T.copy(C_l, C[0, 0])
    return main


def unaligned_block_offset():
    @T.prim_func
    def main(A: T.Tensor((128, 64), "bfloat16"), C: T.Tensor((128, 64), "bfloat16")):
        with T.Kernel(1, 2, threads=128) as (bx, by):
            A_s = T.alloc_shared((32, 64), "bfloat16")
            C_l = T.alloc_fragment((32, 64), "bfloat16")
            T.copy(A[by * 48 + 16, 0], A_s)
            for (i, j) in T.Parallel(32, 64):
                C_l[i, j] = T.exp(A_s[i, j])
            T.copy(C_l, C[by * 32, 0])
    return main


def eltwise(expr: str, dtype="bfloat16"):
    """A 64x64 element-wise kernel whose store is `expr` (over A_s, B_s, i, j)."""

    @T.prim_func
    def main(A: T.Tensor((64, 64), dtype), B: T.Tensor((64, 64), dtype), C: T.Tensor((64, 64), dtype)):
        with T.Kernel(1, 1, threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 64), dtype)
            B_s = T.alloc_shared((64, 64), dtype)
            C_l = T.alloc_fragment((64, 64), dtype)
            R_s = T.alloc_fragment((64,), dtype)
            T.copy(A[0, 0], A_s)
            T.copy(B[0, 0], B_s)
            if expr in ("v-x", "x*v[j]"):
                T.reduce_max(A_s, R_s, dim=1)
            for (i, j) in T.Parallel(64, 64):
                if expr == "a*b+a":
                    C_l[i, j] = A_s[i, j] * B_s[i, j] + A_s[i, j]
                elif expr == "a/b":
                    C_l[i, j] = A_s[i, j] / B_s[i, j]
                elif expr == "copy":
                    C_l[i, j] = A_s[i, j]
                elif expr == "transpose":
                    C_l[i, j] = A_s[j, i] + B_s[i, j]
                elif expr == "erf":
                    C_l[i, j] = T.erf(A_s[i, j])
                elif expr == "v-x":
                    C_l[i, j] = R_s[i] - B_s[i, j]
                elif expr == "x*v[j]":
                    C_l[i, j] = B_s[i, j] * R_s[j]
                elif expr == "or":
                    C_l[i, j] = T.if_then_else(A_s[i, j] <= B_s[i, j] or i > j, A_s[i, j], 0)
                elif expr == "exp+b":
                    C_l[i, j] = T.exp(A_s[i, j]) + B_s[i, j]
                else:
                    C_l[i, j] = A_s[i, j] * B_s[i, j] + 1.0
            T.copy(C_l, C[0, 0])
    return main


def gemm_alpha():
    """D = 2 * A @ B through the TVM tile primitive (TileLang's T.gemm has no alpha)."""
    from tvm.script import tirx

    @T.prim_func
    def main(A: T.Tensor((64, 64), "bfloat16"), B: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
        with T.Kernel(1, 1, threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 64), "bfloat16")
            B_s = T.alloc_shared((64, 64), "bfloat16")
            C_l = T.alloc_fragment((64, 64), "float")
            T.clear(C_l)
            T.copy(A[0, 0], A_s)
            T.copy(B[0, 0], B_s)
            tirx.tile.gemm(C_l, A_s, B_s, C_l, False, False, 2.0, 1.0)
            T.copy(C_l, C[0, 0])
    return main


def unused_input():
    @T.prim_func
    def main(A: T.Tensor((64, 64), "bfloat16"), B: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
        with T.Kernel(1, 1, threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 64), "bfloat16")
            B_s = T.alloc_shared((64, 64), "bfloat16")
            C_l = T.alloc_fragment((64, 64), "bfloat16")
            T.copy(A[0, 0], A_s)
            T.copy(B[0, 0], B_s)
            for (i, j) in T.Parallel(64, 64):
                C_l[i, j] = T.exp(A_s[i, j])
            T.copy(C_l, C[0, 0])
    return main


def read_before_write():
    @T.prim_func
    def main(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
        with T.Kernel(1, 1, threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 64), "bfloat16")
            C_l = T.alloc_fragment((64, 64), "bfloat16")
            for (i, j) in T.Parallel(64, 64):
                C_l[i, j] = T.exp(A_s[i, j])
            T.copy(C_l, C[0, 0])
    return main


def conditional_copy():
    @T.prim_func
    def main(A: T.Tensor((128, 64), "bfloat16"), C: T.Tensor((128, 64), "bfloat16")):
        with T.Kernel(1, 2, threads=128) as (bx, by):
            A_s = T.alloc_shared((64, 64), "bfloat16")
            if by > 0:
                T.copy(A[by * 64, 0], A_s)
            T.copy(A_s, C[by * 64, 0])
    return main


def block_across_heads():
    """A (batch, seq, heads, dim) tensor sliced at one element of dim: the block spans seq and heads, neither the last
    two dims (tiles) nor whole rows of the last dim (a row-major layout; (B, S, H, D) per head is that)."""
    @T.prim_func
    def main(Q: T.Tensor((1, 64, 32, 32), "bfloat16"), C: T.Tensor((1, 64, 32, 32), "bfloat16")):
        with T.Kernel(2, 32, 1, threads=128) as (bx, by, bz):
            Q_s = T.alloc_shared((32, 32), "bfloat16")
            T.copy(Q[bz, bx * 32:(bx + 1) * 32, 0:32, by], Q_s)
            T.copy(Q_s, C[bz, bx * 32:(bx + 1) * 32, 0:32, by])
    return main


def two_block_extents():
    """A tensor copied in blocks of 8 rows and of 16 rows: blocks smaller than a tile each get a run of tiles, which
    needs one extent per dim."""
    @T.prim_func
    def main(A: T.Tensor((64, 64), "bfloat16"), C: T.Tensor((64, 64), "bfloat16")):
        with T.Kernel(4, threads=128) as bx:
            a = T.alloc_shared((8, 64), "bfloat16")
            b = T.alloc_shared((16, 64), "bfloat16")
            T.copy(A[bx * 8, 0], a)
            T.copy(A[bx * 16, 0], b)
            T.copy(a, C[bx * 8, 0])
            T.copy(b, C[bx * 16 + 8, 0])
    return main


def many_inputs(count: int):
    """`count` tensors each copied through its own shared buffer to the output tensor's rows (input CBs)."""
    ns: dict = {}
    params = ", ".join(f"A{n}: T.Tensor((32, 32), 'bfloat16')" for n in range(count))
    body = "\n".join(f"            S{n} = T.alloc_shared((32, 32), 'bfloat16')\n"
                     f"            T.copy(A{n}[0, 0], S{n})\n"
                     f"            T.copy(S{n}, C[{n} * 32, 0])" for n in range(count))
    source = (f"import tilelang.language as T\n\n\n@T.prim_func\n"
              f"def main({params}, C: T.Tensor(({count} * 32, 32), 'bfloat16')):\n"
              f"        with T.Kernel(1, 1, threads=128) as (bx, by):\n{body}\n")
    return source, ns


def many_vectors(count: int):
    """`count` row maxima of one block (each a [32] column vector in a CB of its own), all read by one final store:
    they are live together, so no intermediate CB can be shared."""
    allocs = "\n".join(f"            V{n} = T.alloc_fragment((32,), 'float')\n"
                       f"            T.reduce_max(A_s, V{n}, dim=1)" for n in range(count))
    total = " + ".join(f"V{n}[i]" for n in range(count))
    source = ("import tilelang.language as T\n\n\n@T.prim_func\n"
              "def main(A: T.Tensor((32, 32), 'float'), C: T.Tensor((32, 32), 'float')):\n"
              "        with T.Kernel(1, 1, threads=128) as (bx, by):\n"
              "            A_s = T.alloc_shared((32, 32), 'float')\n"
              "            C_l = T.alloc_fragment((32, 32), 'float')\n"
              "            T.copy(A[0, 0], A_s)\n"
              f"{allocs}\n"
              "            for i, j in T.Parallel(32, 32):\n"
              f"                C_l[i, j] = A_s[i, j] * ({total})\n"
              "            T.copy(C_l, C[0, 0])\n")
    return source, {}


def sum_of_sqrt_offset(m: int, n: int):
    """A row sum of sqrt(x) + 1 over ragged columns: the padding holds sqrt(pad) + 1, which no pad value makes 0, and
    index_masks_padding.cc masks a sum only of values it folds at zero operands (x + 1) or that read a per-row vector,
    so the padding check refuses."""
    @T.prim_func
    def main(X: T.Tensor((m, n), "float"), S: T.Tensor((m,), "float")):
        with T.Kernel(T.ceildiv(m, 32), threads=128) as bx:
            x = T.alloc_fragment((32, n), "float")
            s = T.alloc_fragment((32,), "float")
            T.copy(X[bx * 32, 0], x)
            for i, j in T.Parallel(32, n):
                x[i, j] = T.sqrt(x[i, j]) + 1.0
            T.reduce_sum(x, s, dim=1)
            T.copy(s, S[bx * 32:(bx + 1) * 32])
    return main


def atomic_into_one_head():
    """T.atomic_add into one head of a (B, S, H, D) tensor (linear attention's O[i_b, rows, i_h, cols]): the block
    spans dims 1 and 3, which the tiled layout does not hold as tiles."""
    @T.prim_func
    def main(A: T.Tensor((64, 32), "float32"), Out: T.Tensor((1, 64, 2, 32), "float32")):
        with T.Kernel(1, 2, threads=128) as (bx, by):
            a = T.alloc_fragment((64, 32), "float32")
            T.copy(A[0, 0], a)
            T.atomic_add(Out[0, 0:64, by, 0:32], a)
    return main
