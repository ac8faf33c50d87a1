"""Index masks of more forms on Tenstorrent (issue 28), in the emulator against numpy: TileLang's if_range test (a
guard 16 < row < 96 in a loop over DRAM: the store T.if_then_else(guard, A * 2, A * 0.5), A times a 2/0.5 table).
Ragged shapes included."""

from __future__ import annotations

import numpy as np
import pytest
import tt_mask_kernels as mk

import tilelang


def _tables(kernel: object) -> dict:
    plan = kernel.artifact.rt_mod.plan  # type: ignore[attr-defined]
    return {t["name"]: t["constant"]["mask"] for t in plan["tensors"] if "mask" in t.get("constant", {})}


@pytest.mark.parametrize(("m", "n"), [(128, 128), (100, 200)])
def test_if_range_guard_on_dram_matches_numpy(m: int, n: int) -> None:
    a = np.random.default_rng(m + n).standard_normal((m, n)).astype(np.float16)
    b = np.zeros_like(a)
    kernel = tilelang.compile(mk.guarded_rows(m, n, 32, 32), target="tenstorrent")
    kernel(a, b)
    rows = np.arange(m)[:, None]
    want = np.where((rows > 16) & (rows < 96), a.astype(np.float32) * 2, a.astype(np.float32) * 0.5)
    np.testing.assert_allclose(b.astype(np.float32), want, rtol=1e-3, atol=1e-7)  # fp16 subnormals round
    # row - 17 >= 0, and row < 96 as the analyzer leaves it, by < 3 (free of i: an offset no row reaches elsewhere);
    # A times a 2/0.5 table
    (table,) = _tables(kernel).values()
    assert (table["p"], table["q"], table["div"], table["on_true"], table["on_false"]) == (1, 0, 1, 2.0, 0.5)
