"""Cases of tools/upstream_examples.py from the example folders the first 99 cases left out (issue 28): quickstart,
grouped GEMM, block-sparse and MLA-decode attention, GDN's chunk cumsum, and testing/python/kernel's GEMM tests.
Each reference is numpy written from the example's own reference function (torch_gmm, ref_program, the tests'
`ref_program`). Folders whose kernels are tied to a GPU-only feature are listed in docs/tenstorrent.md instead."""

from __future__ import annotations

from typing import Any

import numpy as np

from .upstream_cases import BF16, F16, F32, RNG, Case, _f, _softmax


def _grouped_inputs(sizes: tuple[int, ...], k: int, n: int, block_m: int, trans_b: bool) -> list[np.ndarray]:
    """construct_inputs of example_grouped_gemm_fwd.py: A (sum(sizes), K), B (G, K, N) or (G, N, K), the sizes, their
    offsets and their offsets padded to block_M."""
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int32)
    padded = np.concatenate([[0], np.cumsum([-(-s // block_m) * block_m for s in sizes])[:-1]]).astype(np.int32)
    b_shape = (len(sizes), n, k) if trans_b else (len(sizes), k, n)
    return [_f((sum(sizes), k), F16), _f(b_shape, F16), np.array(sizes, np.int32), offsets, padded]


def _grouped_ref(a: np.ndarray, b: np.ndarray, sizes: np.ndarray, offsets: np.ndarray, padded: np.ndarray,
                 trans_b: bool) -> np.ndarray:
    """torch_gmm: each group's rows of A times its B."""
    out, start = [], 0
    for i, size in enumerate(sizes):
        part_b = b[i].T if trans_b else b[i]
        out.append(a[start:start + size].astype(F32) @ part_b.astype(F32))
        start += size
    return np.concatenate(out)


def _grouped_cases() -> list[Case]:
    cases = []
    for sizes, trans_b in (((64, 128), False), ((40, 100, 64), True)):
        cases.append(Case(
            f"grouped_gemm fwd sizes={sizes} trans_b={trans_b}", "examples/grouped_gemm/example_grouped_gemm_fwd.py",
            "grouped_gemm", lambda sizes=sizes, tb=trans_b: _grouped_inputs(sizes, 64, 64, 64, tb),
            lambda *x, tb=trans_b: _grouped_ref(*x, tb),
            lambda kern, x, sizes=sizes, tb=trans_b: kern(*x, sizes, 64, 64, 32, tb, 2, 128), atol=2e-2))
    return cases


def _block_mask(batch: int, heads: int, blocks: int, keep: float) -> np.ndarray:
    """A causal block mask whose first column is always kept (the examples force it through x_ds[..., 0] = 100), so
    every query row sees at least one key block."""
    mask = RNG.random((batch, heads, blocks, blocks)) < keep
    mask[..., 0] = True
    return np.tril(mask)


def _block_sparse_ref(q: np.ndarray, k: np.ndarray, v: np.ndarray, mask: np.ndarray, block: int) -> np.ndarray:
    """The examples' reference: the block mask expanded to elements (kron), causal (tril), softmax(q k^T * scale) v."""
    q, k, v = (x.astype(F32) for x in (q, k, v))
    sq, sk = q.shape[2], k.shape[2]
    full = np.kron(mask.astype(F32), np.ones((block, block), F32))[..., :sq, :sk] > 0
    full &= np.tril(np.ones((sq, sk), bool), sk - sq)
    scores = np.einsum("bhsd,bhtd->bhst", q, k) / np.sqrt(q.shape[-1])
    return np.einsum("bhst,bhtd->bhsd", _softmax(np.where(full, scores, -np.inf)), v)


def _attention_cases() -> list[Case]:
    cases = []
    for seq in (128, 256):
        blocks = seq // 64
        cases.append(Case(
            f"seer_attention blocksparse_flashattn causal S={seq} (int8 block mask)",
            "examples/seer_attention/block_sparse_attn_tilelang.py", "blocksparse_flashattn",
            lambda seq=seq, blocks=blocks: [*(_f((1, 2, seq, 64), F16) for _ in range(3)),
                                            _block_mask(1, 2, blocks, 0.5).astype(np.int8)],
            lambda q, k, v, m: _block_sparse_ref(q, k, v, m, 64),
            lambda kern, x, seq=seq, blocks=blocks: kern(1, 2, seq, seq, 64, blocks, True)(*x)))
        cases.append(Case(
            f"blocksparse_attention blocksparse_flashattn causal S={seq} (bool block mask)",
            "examples/blocksparse_attention/example_tilelang_block_sparse_attn.py", "blocksparse_flashattn",
            lambda seq=seq, blocks=blocks: [*(_f((1, 2, seq, 64), F16) for _ in range(3)),
                                            _block_mask(1, 2, blocks, 0.5)],
            lambda q, k, v, m: _block_sparse_ref(q, k, v, m, 64),
            lambda kern, x, seq=seq, blocks=blocks: kern(1, 2, seq, 64, blocks, True)(*x)))
    for heads, ctx in ((32, 128), (64, 256)):
        cases.append(Case(
            f"deepseek_mla decode (no split) heads={heads} kv_ctx={ctx} dim=64 pe_dim=32",
            "examples/deepseek_mla/example_mla_decode.py", "flashattn",
            lambda heads=heads, ctx=ctx: [_f((1, heads, 64), F16), _f((1, heads, 32), F16),
                                          _f((1, ctx, 1, 64), F16), _f((1, ctx, 1, 32), F16)],
            _mla_ref, lambda kern, x, heads=heads, ctx=ctx: kern(1, heads, 1, ctx, 64, 32, 32, 32, 1, 96 ** -0.5)(*x),
            atol=2e-2, rtol=2e-2))
    return cases


def _mla_ref(q: np.ndarray, q_pe: np.ndarray, kv: np.ndarray, k_pe: np.ndarray) -> np.ndarray:
    """ref_program of example_mla_decode.py (one KV head): softmax([q, q_pe] [kv, k_pe]^T / sqrt(dim + pe_dim)) kv."""
    query = np.concatenate([q, q_pe], -1).astype(F32)
    key = np.concatenate([kv[:, :, 0], k_pe[:, :, 0]], -1).astype(F32)
    scores = np.einsum("bhd,bsd->bhs", query, key) / np.sqrt(query.shape[-1])
    return np.einsum("bhs,bsd->bhd", _softmax(scores), kv[:, :, 0].astype(F32))


def _chunk_cumsum(g: np.ndarray, chunk: int, reverse: bool, head_first: bool) -> np.ndarray:
    """The GDN example's reference (fla's chunk_local_cumsum): cumulative sums along S within each chunk."""
    x = g.astype(F32)
    axis = 2 if head_first else 1
    out = np.empty_like(x)
    for s in range(0, x.shape[axis], chunk):
        part = np.take(x, range(s, s + chunk), axis)
        part = np.flip(part, axis) if reverse else part
        total = np.cumsum(part, axis)
        idx: list[Any] = [slice(None)] * 3
        idx[axis] = slice(s, s + chunk)
        out[tuple(idx)] = np.flip(total, axis) if reverse else total
    return out


def _gdn_cases() -> list[Case]:
    cases = []
    for head_first, reverse, fragment in ((False, False, False), (True, True, False), (False, False, True)):
        cases.append(Case(
            f"gdn chunk_local_cumsum B=1 S=128 H=2 head_first={head_first} reverse={reverse} fragment={fragment}",
            "examples/gdn/example_cumsum.py", "tilelang_chunk_local_cumsum_scalar",
            lambda hf=head_first: [_f((1, 2, 128) if hf else (1, 128, 2), F16)],
            lambda g, hf=head_first, r=reverse: _chunk_cumsum(g, 64, r, hf),
            lambda kern, x, hf=head_first, r=reverse, fr=fragment: kern(
                1, 128, 2, 64, False, hf, r, "float16", "float32", 64, 256, fr)(*x), atol=1e-3, rtol=1e-3))
    return cases


def _kernel_test_cases() -> list[Case]:
    """testing/python/kernel: the GEMM tests' prim_func factories (run_gemm's shapes made small)."""
    cases = []
    gemm = "testing/python/kernel/test_tilelang_kernel_gemm.py"
    for trans_a, trans_b, dtypes in ((False, False, ("float16", "float16", "float32")),
                                     (True, False, ("float16", "float16", "float16")),
                                     (False, True, ("bfloat16", "bfloat16", "float32")),
                                     (False, False, ("float32", "float32", "float32"))):
        np_in = {"float16": F16, "bfloat16": BF16, "float32": F32}[dtypes[0]]
        cases.append(Case(
            f"kernel gemm {dtypes[0]}->{dtypes[1]} trans_A={trans_a} trans_B={trans_b} 128x128x64",
            gemm, "matmul",
            lambda ta=trans_a, tb=trans_b, t=np_in: [_f((64, 128) if ta else (128, 64), t),
                                                     _f((128, 64) if tb else (64, 128), t)],
            lambda a, b, ta=trans_a, tb=trans_b: (a.T if ta else a).astype(F32) @ (b.T if tb else b).astype(F32),
            lambda kern, x, ta=trans_a, tb=trans_b, d=dtypes: kern(128, 128, 64, 64, 64, 32, ta, tb, *d, 2, 128)(*x),
            atol=5e-2, rtol=2e-2, out_idx=[2]))
    cases.append(Case(
        "kernel gemm_batched f16 batch=2 64x64x64 (batched shared buffers)",
        "testing/python/kernel/test_tilelang_kernel_gemm_batched.py", "matmul_batched",
        lambda: [_f((2, 64, 64), F16), _f((2, 64, 64), F16)],
        lambda a, b: np.einsum("bmk,bkn->bmn", a.astype(F32), b.astype(F32)),
        lambda kern, x: kern(2, 64, 64, 64, 32, 32, 32, False, False, "float16", "float16", "float32", 2, 128)(*x),
        atol=2e-2, out_idx=[2]))
    cases.append(Case(
        "kernel gemm_with_stride 128x128x64 (gemm on shared-buffer slices)",
        "testing/python/kernel/test_tilelang_kernel_gemm_with_stride.py", "matmul",
        lambda: [_f((128, 64), F16), _f((64, 128), F16)], lambda a, b: a.astype(F32) @ b.astype(F32),
        lambda kern, x: kern(128, 128, 64, 64, 64, 32)(*x), atol=2e-2, out_idx=[2]))
    return cases


def _moe_shared_ref(x: np.ndarray, w_gate: np.ndarray, w_up: np.ndarray, w_down: np.ndarray, up: np.ndarray,
                    out: np.ndarray) -> list[np.ndarray]:
    """The shared expert of example_fusedmoe_torch.py: down(silu(gate(x)) * up(x)), the middle stored as float16."""
    x32 = x.astype(F32)
    gate = x32 @ w_gate.astype(F32).T
    mid = (gate / (1 + np.exp(-gate)) * (x32 @ w_up.astype(F32).T)).astype(F16)
    return [mid, mid.astype(F32) @ w_down.astype(F32).T]


def _moe_cases() -> list[Case]:
    return [Case(
        "fusedmoe shared expert tokens=64 dhidden=64 dexpert=96 (two T.Kernel launches)",
        "examples/fusedmoe/example_fusedmoe_tilelang.py", "moe_forward_tilelang_shared",
        lambda: [_f((64, 64), F16), _f((96, 64), F16, -0.3, 0.3), _f((96, 64), F16, -0.3, 0.3),
                 _f((64, 96), F16, -0.3, 0.3), np.zeros((64, 96), F16), np.zeros((64, 64), F16)],
        _moe_shared_ref, lambda kern, x: (kern(*x, "float16", 32, 32, 32, 128, 1), [x[4], x[5]])[1], atol=3e-2,
        rtol=3e-2)]


def _quickstart_cases() -> list[Case]:
    return [Case(
        f"quickstart matmul + relu {m}x{n}x{k}", "examples/quickstart.py", "matmul",
        lambda m=m, n=n, k=k: [_f((m, k), F16), _f((k, n), F16)],
        lambda a, b: np.maximum(a.astype(F32) @ b.astype(F32), 0), lambda kern, x: kern(*x, 64, 64, 32), atol=2e-2)
        for m, n, k in ((128, 128, 64), (100, 200, 72))]


FOLDER_CASES: list[Case] = [*_quickstart_cases(), *_grouped_cases(), *_attention_cases(), *_gdn_cases(),
                            *_kernel_test_cases(), *_moe_cases()]
