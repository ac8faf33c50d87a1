"""Block-float DRAM formats (issue 31): pass_configs={"tl.tt.dram_format": {"B": "bfloat8_b"}} stores B as
Bfp8_b tiles in DRAM. The user still passes and gets bfloat16 arrays: the host packs B into block-float pages and
the unpacker converts its tiles into DST, so C = A @ bfp(B) (bfp: tt_block_float_kernels.bfp_values, computed from
the documented layout); a block-float C is packed by the packer and unpacked by the host. The CBs the blocks pass
take the tensors' formats, and the DRAM byte counters charge the smaller tiles (1088 and 576 bytes against 2048).
One compile and one emulated run per GEMM of the corpus (B and C bfloat8_b; B bfloat4_b), without multicast, so
that every core reads its own blocks."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest
from tt_block_float_kernels import BLOCK_FLOAT_GEMM, BLOCK_FLOAT_GEMMS, bfp_values, block_float_gemm

import tilelang
from tilelang.errors import TileLangError
from tilelang.tenstorrent.records import COUNTERS

BF16 = ml_dtypes.bfloat16
# DRAM format -> (tt::DataFormat, tile bytes, mantissa bits)
FORMATS = {"bfloat8_b": ("Bfp8_b", 1088, 7), "bfloat4_b": ("Bfp4_b", 576, 3), None: ("Float16_b", 2048, 0)}
NO_MULTICAST = {"tl.PlanTTMulticast.enabled": False}
Run = tuple[dict[str, str], Any, np.ndarray, np.ndarray, np.ndarray]  # formats, kernel, A, B, C


@pytest.fixture(scope="module", params=list(BLOCK_FLOAT_GEMMS))
def run(request: pytest.FixtureRequest) -> Run:
    formats = BLOCK_FLOAT_GEMMS[request.param]
    factory = block_float_gemm(formats)
    kernel = tilelang.compile(factory(), out_idx=[-1], target="tenstorrent",
                              pass_configs={**NO_MULTICAST, **factory.pass_configs})
    M, N, K = BLOCK_FLOAT_GEMM[:3]
    rng = np.random.default_rng(31)
    a = rng.uniform(-1, 1, (M, K)).astype(BF16)
    b = (rng.standard_normal((K, N)) * np.exp2(rng.integers(-4, 4, (K, N)))).astype(BF16)
    return formats, kernel, a, b, kernel(a, b)


def test_gemm_with_block_float_tensors_matches_numpy(run: Run) -> None:
    """A @ bfp(B) within bf16 output rounding, or within a mantissa step of each C face row's largest value when C
    is a block float too; the quantization is real (bfloat4_b: far from A @ B)."""
    formats, _, a, b, c = run
    ref = a.astype(np.float32) @ bfp_values(b, FORMATS[formats["B"]][2])
    got = c.astype(np.float32)
    if "C" in formats:
        row_max = np.abs(ref).reshape(ref.shape[0], -1, 16).max(axis=2, keepdims=True)
        step = np.exp2(np.floor(np.log2(row_max)) - (FORMATS[formats["C"]][2] - 1))
        assert np.all(np.abs(got - ref).reshape(step.shape[0], -1, 16) <= step + 2.0**-8 * row_max)
        assert np.array_equal(got, bfp_values(got, FORMATS[formats["C"]][2]))  # C holds block-float values
    err = float(np.abs(got - ref).max())
    assert err <= 2.0**-6 * float(np.abs(ref).max()), err
    exact = a.astype(np.float32) @ b.astype(np.float32)
    assert not np.array_equal(ref, exact)
    if formats["B"] == "bfloat4_b":
        assert float(np.abs(got - exact).max()) > 8 * err


def test_block_float_tensors_are_stored_and_moved_in_their_tiles(run: Run) -> None:
    formats, kernel, *_ = run
    plan = kernel.artifact.rt_mod.plan
    tensors = {t["name"]: t for t in plan["tensors"]}
    cbs = {cb["buffer"]: cb["data_format"] for cb in plan["cbs"]}
    main = kernel.artifact.rt_mod.files["main.cpp"]
    for name, onchip in (("A", "A_shared"), ("B", "B_shared"), ("C", "C_local")):
        fmt = formats.get(name)
        data_format, tile_bytes, _ = FORMATS[fmt]
        assert (tensors[name].get("dram_format"), tensors[name]["data_format"], tensors[name]["page_bytes"]) == (
            fmt, data_format, tile_bytes)
        if name != "C":
            assert cbs[onchip] == data_format
    assert ("pack_as_bfp8_tiles<float>" in main) == (formats["B"] == "bfloat8_b")
    assert ("unpack_bfp8_tiles_into_float_vec" in main) == ("C" in formats)
    # 2x2 output blocks on 4 cores, 4 K steps of a 2x1-tile A block and a 1x2-tile B block each; C is 16 tiles.
    cores = kernel.last_report["cores"]
    assert len(cores) == 4
    b_tile, c_tile = FORMATS[formats["B"]][1], FORMATS[formats.get("C")][1]
    assert sum(c[COUNTERS.DRAM_BYTES_READ] for c in cores) == 4 * 4 * 2 * (2048 + b_tile)
    assert sum(c[COUNTERS.DRAM_BYTES_WRITTEN] for c in cores) == 16 * c_tile


@pytest.mark.parametrize("configs,message", [
    ({"B": "bfloat9_b"}, r"tensor 'B' has a DRAM format \(pass_configs 'tl.tt.dram_format': .*bfloat9_b.*\) that is "
                         r"not one of the backend's block-float dram_formats"),
    ({"X": "bfloat8_b"}, r"pass_configs 'tl.tt.dram_format' names 'X', which is no tensor parameter of the kernel"),
    ("bfloat8_b", r"pass_configs key 'tl.tt.dram_format': expected a str_map value, got 'bfloat8_b'"),
])
def test_bad_dram_formats_are_refused_naming_the_tensor(configs: Any, message: str) -> None:
    with pytest.raises(TileLangError, match=message):
        tilelang.compile(block_float_gemm({})(), target="tenstorrent",
                         pass_configs={"tl.tt.dram_format": configs})


def test_a_block_float_tensor_of_another_dtype_is_refused() -> None:
    from test_language_llvm import matmul

    with pytest.raises(TileLangError, match=r"tensor 'B' has dtype float16 and is stored as a block float in DRAM"):
        tilelang.compile(matmul(*BLOCK_FLOAT_GEMM, dtype="float16"), target="tenstorrent",
                         pass_configs={"tl.tt.dram_format": {"B": "bfloat8_b"}})
