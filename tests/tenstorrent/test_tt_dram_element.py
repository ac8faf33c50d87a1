"""One element of a DRAM tensor read as a value in a loop (issue 28): TileLang's attention-sink forward fills a
fragment row with one element per head (`sinks[i] = Sinks[by]`), its layernorm backward reads a row statistic per
row (`m_v = Mean[row]`). LowerTTLoopsToTileOps copies the element on chip into a one-element buffer (the reader reads
the tile that holds it at (0, 0): a block of one element lays each element on a tile of its own) and the compute
kernel broadcasts it (`*_tiles_bcast_scalar`; a plain copy is a fill of 0 plus the broadcast), src/transform/
loop_dram_element.cc and tile_ops_tree.cc. Run in the emulator against numpy: one compile (float32, 2 heads, a
ragged m = 40 in blocks of 32)."""

import shutil

import numpy as np
import pytest
import tvm
from tt_dram_loop_kernels import alloc_multi_vars_with_initializer, dram_element, element_copy_kept

import tilelang
from tilelang import transform
from tilelang.errors import TTLoweringError

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def test_tt_broadcasts_one_dram_element_per_head() -> None:
    heads, m, n = 2, 40, 64
    rng = np.random.default_rng(28)
    x = rng.standard_normal((heads, m, n)).astype(np.float32)
    sinks = rng.standard_normal(heads).astype(np.float32)
    scale = rng.standard_normal(heads).astype(np.float32)
    kernel = tilelang.compile(dram_element(heads, m, n, 32), out_idx=[-1], target="tenstorrent")
    y = kernel(x, sinks, scale)
    np.testing.assert_allclose(y, x * scale[:, None, None] + sinks[:, None, None], rtol=1e-6, atol=1e-6)
    tensors = {t["name"]: t for t in kernel.artifact.rt_mod.plan["tensors"]}
    assert tensors["Sinks"]["padded_shape"] == [heads * 32]  # one tile per element, the element at (0, 0)
    assert kernel.last_report["status"] == "ok"


def test_tt_drops_a_dram_element_copy_its_loop_overwrites() -> None:
    """Upstream's alloc_var initializer test: `T.copy(A[bx * 64], B[bx * 64])` of one element, then a loop writing
    B[bx * 64 + i] for every i. The element's last value is the loop's, so LowerTTLoopsToTileOps drops the copy
    (loop_views.cc drop_overwritten); ragged N = 200 in blocks of 64, int32."""
    n = 200
    a = np.arange(n, dtype=np.int32) - 100
    kernel = tilelang.compile(alloc_multi_vars_with_initializer(n, 64, "int32"), out_idx=[1], target="tenstorrent")
    np.testing.assert_array_equal(kernel(a), np.full(n, 3, np.int32))
    assert kernel.last_report["status"] == "ok"


def test_tt_keeps_a_dram_element_copy_no_block_overwrites() -> None:
    """The loop writes B[bx * 64 + 1 + i], never B[bx * 64]: the element copy stays, and is refused by name."""
    mod = tvm.IRModule({"main": element_copy_kept(200, 64, "int32")})
    lowered = transform.LowerTTLoopsToTileOps()(transform.SerializeThreads()(mod))
    assert "B[bx * 64] = A[bx * 64]" in lowered.script()
    with pytest.raises(TTLoweringError, match="B"):
        tilelang.compile(element_copy_kept(200, 64, "int32"), target="tenstorrent")
