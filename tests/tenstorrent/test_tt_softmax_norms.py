"""TileLang's softmax and norm kernels on Tenstorrent (issue 16): the bodies of tests/language/test_tilelang_examples.py
unmodified (tests/tt_norm_kernels.py), lowered through row reductions, broadcast arithmetic with [block_M] column
vectors (`*_tiles_bcast_cols`), element-wise math on column vectors and stores that nest several operations (split
into one tile op per operation through new on-chip values), run in the emulator and compared with numpy.

Tolerances: the fp32 kernels ("float", fp32 CBs and DST) are compared within 1e-5 relative + 1e-6 absolute (the
emulator computes in fp32; the reductions sum in another order than numpy). bf16 kernels within 2^-7 relative to
the largest magnitude of the reference (one bf16 rounding of the inputs and of each intermediate value)."""

from __future__ import annotations

import shutil

import ml_dtypes
import numpy as np
import pytest
from tt_bad_kernels import eltwise as bad_eltwise
from tt_norm_kernels import NESTED, layer_norm, nested, online_softmax, rms_norm, row_broadcast, row_tensor, softmax

import tilelang

BF16 = ml_dtypes.bfloat16
pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _close(got: np.ndarray, want: np.ndarray) -> None:
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("m,n", [(64, 128), (128, 256)])
def test_softmax_matches_numpy(m: int, n: int) -> None:
    x = np.random.default_rng(m + n).standard_normal((m, n)).astype(np.float32) * 3
    kernel = tilelang.compile(softmax(m, n, 32), out_idx=[-1], target="tenstorrent")
    _close(kernel(x), _softmax(x))
    assert kernel.last_report["status"] == "ok"


@pytest.mark.parametrize("m,n,blk_n", [(64, 256, 128), (128, 256, 64)])
def test_online_softmax_matches_numpy(m: int, n: int, blk_n: int) -> None:
    """The running maximum is read after its rewrite in the same iteration (a `_next` value copied back at the end of
    the loop body), and the kernel has more intermediate values than intermediate CBs (dead ones share)."""
    x = np.random.default_rng(m * n).standard_normal((m, n)).astype(np.float32) * 3
    kernel = tilelang.compile(online_softmax(m, n, 32, blk_n), out_idx=[-1], target="tenstorrent")
    _close(kernel(x), _softmax(x))
    cbs = kernel.artifact.rt_mod.plan["cbs"]
    assert any(cb.get("shares") for cb in cbs) and len({cb["index"] for cb in cbs}) == len(cbs)


def test_rms_norm_matches_numpy() -> None:
    a = np.random.default_rng(7).standard_normal((128, 128)).astype(np.float32)
    kernel = tilelang.compile(rms_norm(128, 128, 32), out_idx=[-1], target="tenstorrent")
    _close(kernel(a), a / np.sqrt((a * a).mean(1, keepdims=True) + 1e-6))


def test_layer_norm_matches_numpy() -> None:
    """W[j] and Bias[j] are 1-D tensors read in the store: row vectors (mul/add_tiles_bcast_rows)."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((128, 256)).astype(np.float32)
    w, b = rng.standard_normal(256).astype(np.float32), rng.standard_normal(256).astype(np.float32)
    kernel = tilelang.compile(layer_norm(128, 256, 32), out_idx=[-1], target="tenstorrent")
    mean = x.mean(1, keepdims=True)
    want = (x - mean) / np.sqrt(((x - mean) ** 2).mean(1, keepdims=True) + 1e-5) * w + b
    np.testing.assert_allclose(kernel(x, w, b), want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("form", ["add", "mul"])
def test_row_vector_of_a_1d_tensor_matches_numpy(form: str) -> None:
    rng = np.random.default_rng(5)
    x, w = rng.standard_normal((64, 96)).astype(np.float32), rng.standard_normal(96).astype(np.float32)
    kernel = tilelang.compile(row_tensor(64, 96, 32, form), out_idx=[-1], target="tenstorrent")
    _close(kernel(x, w), w + x if form == "add" else x * w * 0.5)


def test_on_chip_vector_read_at_the_column_index_broadcasts_along_rows() -> None:
    """C[i, j] = B[i, j] * R[j] with R = the row maxima of A (a column vector on chip), transposed into row tiles."""
    rng = np.random.default_rng(8)
    a, b = (rng.uniform(-1, 1, (64, 64)).astype(BF16) for _ in range(2))
    kernel = tilelang.compile(bad_eltwise("x*v[j]"), out_idx=[-1], target="tenstorrent")
    want = b.astype(np.float32) * a.astype(np.float32).max(1)[None, :]
    got = kernel(a, b).astype(np.float32)
    assert float(np.abs(got - want).max()) <= 2.0**-8  # one bf16 rounding of a product of magnitude < 1
    assert "mul_tiles_bcast_rows(" in kernel.artifact.rt_mod.files["compute.cpp"]


def _nested_reference(form: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return {"a*b+a": lambda: a * b + a, "a/b": lambda: a / b, "exp(a)+b": lambda: np.exp(a) + b,
            "sqrt": lambda: np.sqrt((a - b) * 0.5 + 1.0) * a}[form]()


@pytest.mark.parametrize("form", list(NESTED.values()), ids=list(NESTED))
def test_nested_store_matches_numpy(form: str) -> None:
    rng = np.random.default_rng(16)
    a = rng.uniform(0.5, 1.5, (64, 64)).astype(BF16)
    b = rng.uniform(0.5, 1.5, (64, 64)).astype(BF16)
    kernel = tilelang.compile(nested(64, 64, 32, form), out_idx=[-1], target="tenstorrent")
    want = _nested_reference(form, a.astype(np.float32), b.astype(np.float32))
    got = kernel(a, b).astype(np.float32)
    assert float(np.abs(got - want).max()) <= 2.0**-7 * float(np.abs(want).max())


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "rsub", "rdiv"])
def test_column_vector_broadcast_matches_numpy(op: str) -> None:
    """rsub: v - x as -(x - v) (a broadcast difference, then 0 minus it); rdiv: v times recip(x)."""
    a = np.random.default_rng(3).uniform(0.5, 2.0, (64, 96)).astype(BF16)
    kernel = tilelang.compile(row_broadcast(64, 96, 32, op), out_idx=[-1], target="tenstorrent")
    x = a.astype(np.float32)
    r = x.max(1, keepdims=True)
    want = {"add": x + r * 2.0, "sub": x - r, "mul": r * x, "div": x / r, "rsub": r - x, "rdiv": r / x}[op]
    np.testing.assert_allclose(kernel(a), want, rtol=1e-6, atol=1e-6)


def test_broadcast_uses_the_bcast_calls() -> None:
    art = tilelang.lower(softmax(64, 128, 32), target="tenstorrent")
    compute = art.rt_mod.files["compute.cpp"]
    assert "sub_tiles_bcast_cols(" in compute and "mul_tiles_bcast_cols(" in compute and "recip_tile(" in compute
