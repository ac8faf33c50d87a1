"""Tenstorrent's production kernels on the emulator: the `ttnn` wheel of the spec's default API profile ships
ttnn's kernels as source (`ttnn/cpp/ttnn/operations/**/device/kernels/**.cpp`, compiled by the JIT at run time);
these tests run them, unmodified, from the wheel (unzipped into $TILELANG_TTNN_CACHE, as `make check-metal` fetches
it), with host programs of the project's own (tests/ttnn_kernels/) that follow the program factories' CBs,
compile-time and runtime arguments, and compare the results with numpy. Any report of the emulator's checks fails
the run (a report on Tenstorrent's code is a bug of the emulator).

Without network the wheel cannot be fetched: the tests fail saying so, unless TILELANG_CHECK_METAL_OFFLINE_OK=1
says to skip them (as `make check-metal` does)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import pytest

from projects import REPO, TESTS
from tilelang.tenstorrent import PROFILES, emulator
from tilelang.tenstorrent.emulator import DEFAULT_PROFILE

sys.path.insert(0, str(REPO))
from tools.check_metal import wheels  # noqa: E402

VERSION = PROFILES[DEFAULT_PROFILE].ttnn_wheel
HOST = TESTS / "ttnn_kernels" / "main.cpp"


@pytest.fixture(scope="module")
def ttnn_home() -> Path:
    """The wheel's package folder: tt-metal's root to the kernels' paths (TT_METAL_HOME)."""
    try:
        return wheels.ttnn_kernels(VERSION)
    except wheels.Offline as exc:
        if os.environ.get("TILELANG_CHECK_METAL_OFFLINE_OK") == "1":
            pytest.skip(f"offline: {exc}")
        pytest.fail(f"the ttnn {VERSION} wheel is needed for ttnn's kernels and cannot be fetched ({exc}); set "
                    "TILELANG_CHECK_METAL_OFFLINE_OK=1 to skip these tests without network")


@pytest.fixture(scope="module")
def host() -> Path:
    return emulator.build_host(HOST)


def bf16(x: np.ndarray) -> np.ndarray:
    """float32 -> bf16 bits, rounded to nearest even (as the host's bfloat16 is)."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def f32(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def run_case(host: Path, home: Path, tmp_path: Path, family: str, variant: str, inputs: dict[str, np.ndarray],
             out_shape: tuple[int, int], *extra: str) -> np.ndarray:
    """Writes the inputs as bf16, runs the family's program and returns its output (float32 of the bf16 result)."""
    rows, cols = next(iter(inputs.values())).shape
    for name, value in inputs.items():
        bf16(value).tofile(tmp_path / f"{name}.bin")
    report = emulator.run(host, [family, variant, str(rows), str(cols), str(tmp_path), *extra],
                          env={"TT_METAL_HOME": str(home)})
    assert "done:" in report["stdout"]
    return f32(np.fromfile(tmp_path / "out.bin", dtype=np.uint16)).reshape(out_shape)


def rounded(x: np.ndarray) -> np.ndarray:
    return f32(bf16(x))


@pytest.mark.parametrize(("op", "fn"), [("add", np.add), ("sub", np.subtract), ("mul", np.multiply)])
def test_eltwise_binary(host: Path, ttnn_home: Path, tmp_path: Path, op: str, fn: object) -> None:
    """eltwise_binary_kernel.cpp with reader_binary_interleaved_start_id.cpp and writer_unary_interleaved_start_id.cpp
    on 6 tiles (6 cores of the grid, split_work_to_cores): bf16 in, bf16 out, as numpy of the rounded inputs."""
    rng = np.random.default_rng(1)
    a, b = (rounded(rng.uniform(-2, 2, (64, 96)).astype(np.float32)) for _ in range(2))
    out = run_case(host, ttnn_home, tmp_path, "eltwise_binary", op, {"a": a, "b": b}, a.shape)
    np.testing.assert_allclose(out, rounded(fn(a, b)), rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize(("op", "fn", "low"), [
    ("div", np.divide, 0.5),  # a * recip(b): the recip SFPU op on the second input (c_4)
    ("logaddexp", np.logaddexp, -2.0),  # exp on both inputs (c_3, c_4), add, then log in DST
])
def test_eltwise_binary_with_sfpu_ops(host: Path, ttnn_home: Path, tmp_path: Path, op: str, fn: object,
                                      low: float) -> None:
    """The same kernel with ttnn's SFPU pre- and post-processing defines (SFPU_OP_INIT/FUNC_PRE_IN0_0, _PRE_IN1_0,
    _0 and the SFPU_OP_*_INCLUDE families, spelled as ttnn spells them: `exp_tile<0u>(i)`, `recip_tile<false>(i)`):
    the pre-processed inputs go through the interim CBs and back, as on hardware."""
    rng = np.random.default_rng(2)
    a, b = (rounded(rng.uniform(low, 2, (32, 64)).astype(np.float32)) for _ in range(2))
    out = run_case(host, ttnn_home, tmp_path, "eltwise_binary", op, {"a": a, "b": b}, a.shape)
    # Each pre-processed input is packed to bf16 before the FPU op; the result is packed once more.
    np.testing.assert_allclose(out, fn(a, b), rtol=3e-2, atol=3e-2)


@pytest.mark.parametrize("variant", ["wh", "metal2"])
def test_transpose_wh(host: Path, ttnn_home: Path, tmp_path: Path, variant: str) -> None:
    """wh: transpose_wh.cpp with reader_unary_transpose_wh_interleaved.cpp (tiles in W-major order) and
    writer_unary_interleaved_start_id.cpp on one core; metal2: ttnn 0.81.1's own transpose_wh ProgramSpec
    (reader_unary_transpose_wh_interleaved_start_id.cpp, transpose's transpose_wh_metal2.cpp,
    writer_unary_interleaved_start_id_metal2.cpp; 6 tiles over 6 cores). A 64 x 96 matrix transposed, exactly."""
    a = rounded(np.random.default_rng(3).uniform(-2, 2, (64, 96)).astype(np.float32))
    out = run_case(host, ttnn_home, tmp_path, "transpose", variant, {"a": a}, (96, 64))
    np.testing.assert_array_equal(out, a.T)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


@pytest.mark.parametrize(("op", "fn", "low"), [
    ("exp", np.exp, -2.0), ("log", np.log, 0.25), ("recip", np.reciprocal, 0.5), ("tanh", np.tanh, -2.0),
    ("sigmoid", _sigmoid, -4.0), ("relu", lambda x: np.maximum(x, 0), -2.0),
])
def test_eltwise_unary_sfpu(host: Path, ttnn_home: Path, tmp_path: Path, op: str, fn: object, low: float) -> None:
    """eltwise_sfpu.cpp with reader_unary_interleaved_start_id.cpp and writer_unary_interleaved_start_id.cpp, the op
    as ttnn's SFPU_OP_CHAIN_0 (`exp_tile<0u>(0)`, `recip_tile<false>(0)`, ...): 5 tiles over 5 cores. The kernel also
    includes trigonometry.h, mul_int_sfpu.h, rpow.h and rdiv.h, whose operations the emulator lacks (declared, refused
    where called)."""
    a = rounded(np.random.default_rng(4).uniform(low, 2, (32, 160)).astype(np.float32))
    out = run_case(host, ttnn_home, tmp_path, "eltwise_unary", op, {"a": a}, a.shape)
    np.testing.assert_allclose(out, fn(a), rtol=2e-2, atol=1e-2)


def test_tilize_metal2(host: Path, ttnn_home: Path, tmp_path: Path) -> None:
    """ttnn 0.81.1's Metal 2.0 tilize (tilize_multi_core_default's ProgramSpec): reader_unary_stick_layout_split_rows_
    multicore.cpp reads row-major sticks through `dfb::in` and `tensor::src`, kernel/compute/tilize_metal2.cpp
    (kernel_lib's tilize, in its fast mode) tilizes, writer_unary_interleaved_start_id_metal2.cpp writes the tiles; 3
    tile rows over 2 cores (a full core of 2 blocks and a cliff of 1, one compute KernelSpec each). Exact."""
    a = rounded(np.random.default_rng(5).uniform(-2, 2, (96, 64)).astype(np.float32))
    out = run_case(host, ttnn_home, tmp_path, "tilize", "default", {"a": a}, a.shape)
    np.testing.assert_array_equal(out, a)


def test_untilize_metal2(host: Path, ttnn_home: Path, tmp_path: Path) -> None:
    """ttnn 0.81.1's Metal 2.0 untilize for interleaved tensors (untilize_multi_core's ProgramSpec):
    reader_unary_start_id_metal2.cpp, untilize_variable_num_blocks_metal2.cpp (kernel_lib's untilize: pack_untilize
    of a tile row) and writer_unary_stick_layout_split_rows_multi_core.cpp writing row-major sticks; 3 tile rows over
    2 cores (full and cliff compute KernelSpecs). Exact."""
    a = rounded(np.random.default_rng(6).uniform(-2, 2, (96, 64)).astype(np.float32))
    out = run_case(host, ttnn_home, tmp_path, "untilize", "multi_core", {"a": a}, a.shape)
    np.testing.assert_array_equal(out, a)


@pytest.mark.parametrize("variant", ["sum_w", "max_w", "sum_h", "max_h"])
def test_reduce_metal2(host: Path, ttnn_home: Path, tmp_path: Path, variant: str) -> None:
    """ttnn 0.81.1's Metal 2.0 reduce (reduction/generic) over W and H, SUM and MAX. W: reader_unary_reduce_universal_
    start_id.cpp builds the scaler tile with kernel_lib's prepare_reduce_scaler (async_write_zeros, then row 0 of each
    face stored through an L1 pointer; its format and tile size constexpr from the DFB descriptors) and streams the
    tiles; H: reader_unary_transpose_wh_universal_input_cols_partitioned.cpp reads tile columns in DEST_AUTO_LIMIT
    chunks. compute/reduce.cpp runs kernel_lib's reduce<REDUCE_OP, REDUCE_ROW or REDUCE_COL> (its CB-interface page-size
    ASSERT reads 16-byte units, as a TRISC's interface holds them) and writer_unary_interleaved_start_id_metal2.cpp
    writes the output tiles, whose column 0 (W) or row 0 (H) the packer's edge mask keeps, the rest zero. A 64 x 96
    matrix over 2 cores. SUM accumulates in bf16 DST; MAX is exact."""
    a = rounded(np.random.default_rng(8).uniform(-2, 2, (64, 96)).astype(np.float32))
    axis = 1 if variant.endswith("_w") else 0
    shape = (64, 32) if axis == 1 else (32, 96)
    tiles = run_case(host, ttnn_home, tmp_path, "reduce", variant, {"a": a}, shape)
    out, rest = (tiles[:, 0], tiles[:, 1:]) if axis == 1 else (tiles[0], tiles[1:])
    np.testing.assert_array_equal(rest, 0)
    if variant.startswith("max"):
        np.testing.assert_array_equal(out, a.max(axis=axis))
    else:
        np.testing.assert_allclose(out, a.sum(axis=axis), rtol=2e-2, atol=0.15)


@pytest.mark.parametrize("variant", ["stable", "plain"])
def test_softmax(host: Path, ttnn_home: Path, tmp_path: Path, variant: str) -> None:
    """ttnn 0.81.1's attention-optimized softmax (normalization/softmax, no mask, no padding; "stable": NUMERIC_STABLE):
    reader_unary_interleaved_sm.cpp, compute/softmax.cpp (stable: kernel_lib's reduce MAX, the eltwise chain's
    x - max(x) broadcast by column and exp; plain: exp; then reduce SUM with the reciprocal as its post-op and the
    product with 1/sum broadcast by column) and writer_unary_interleaved_start_id_blocked_sm.cpp, with the factory's
    DFBs and arguments. A 64 x 64 matrix, a tile row per core on 2 cores. Every intermediate is bf16 and the row sum
    accumulates in a bf16 DST: measured within 2.6e-2 relative (stable) and 1e-3 absolute of numpy's float32 softmax."""
    a = rounded(np.random.default_rng(9).uniform(-3, 3, (64, 64)).astype(np.float32))
    out = run_case(host, ttnn_home, tmp_path, "softmax", variant, {"a": a}, a.shape)
    e = np.exp(a - a.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=3e-2, atol=2e-3)


def test_softmax_causal_scale_mask(host: Path, ttnn_home: Path, tmp_path: Path) -> None:
    """compute/softmax.cpp's fused scale-mask path with a causal mask (FUSED_SCALE_MASK, CAUSAL_MASK; the reader's
    generate_bcast_unary_scalar of pre_scale into fused_scale and the mask's tiles into fused_attn, a tile row per
    row of x): softmax(0.5 * x + mask) through kernel_lib's mul by the scalar tile into scale_mask and the chain's
    add of the mask's tiles (no broadcast) fused with exp. A 64 x 64 x and mask (0 on and below the diagonal,
    -10000 above), a tile row per core on 2 cores; bf16 intermediates as in test_softmax."""
    a = rounded(np.random.default_rng(10).uniform(-3, 3, (64, 64)).astype(np.float32))
    m = np.triu(np.full((64, 64), -10000.0, np.float32), 1)
    out = run_case(host, ttnn_home, tmp_path, "softmax", "causal", {"a": a, "m": m}, a.shape)
    e = np.exp(0.5 * a + m)
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=3e-2, atol=2e-3)


@pytest.mark.parametrize(("batches", "m"), [(1, 128), (4, 32)])
def test_matmul_reuse(host: Path, ttnn_home: Path, tmp_path: Path, batches: int, m: int) -> None:
    """ttnn 0.81.1's multi-core reuse matmul (MatmulMultiCoreReuseOptimizedProgramFactory's ProgramSpec, no multicast):
    reader_bmm_tile_layout_in0.cpp, reader_writer_bmm_tile_layout_in1.cpp and bmm_large_block_zm_fused_bias_
    activation_metal2.cpp (matmul_block on 1 x 2 subblocks, the partial sums of the first K block spilled to the
    Float32 intermed0 and reloaded with copy_block, fp32 DST accumulation). `batches` products of m x 128 by 128 x 128
    bf16 in 4 output blocks of 32 x 128 over 3 cores (split_work_to_cores: one core runs 2 blocks, two cores 1; a
    compute KernelSpec per core group); with 4 batches every block is a batch of its own, so the core with 2 blocks
    walks on to the next batch of A, B and C. Against numpy's product of the rounded inputs."""
    rng = np.random.default_rng(9)
    a = rounded(rng.uniform(-1, 1, (batches, m, 128)).astype(np.float32))
    b = rounded(rng.uniform(-1, 1, (batches, 128, 128)).astype(np.float32))
    out = run_case(host, ttnn_home, tmp_path, "matmul", "reuse", {"a": a.reshape(-1, 128), "b": b.reshape(-1, 128)},
                   (batches * m, 128), "128", str(batches))
    np.testing.assert_allclose(out, rounded(a @ b).reshape(-1, 128), rtol=1e-2, atol=2e-2)


def _norm(x: np.ndarray, rms: bool, eps: float) -> np.ndarray:
    xmm = x if rms else x - x.mean(axis=1, keepdims=True)
    return xmm / np.sqrt((xmm * xmm).mean(axis=1, keepdims=True) + eps)


@pytest.mark.parametrize("variant", ["layernorm", "rmsnorm", "layernorm_plain"])
def test_layernorm(host: Path, ttnn_home: Path, tmp_path: Path, variant: str) -> None:
    """ttnn 0.81.1's interleaved multi-core layernorm (LayerNormMultiCoreProgramFactory's ProgramSpec, the small
    kernel): reader_unary_interleaved_ln.cpp (the reduce scaler by kernel_lib, the epsilon tile's column 0, gamma
    and beta read once), compute/layernorm.cpp (numeric.h's row_wise_mean: reduce_tile SUM over rows scaled by 1/W
    with mul_unary_tile; kernel_lib's eltwise chain for x - E[x], the square, + eps and rsqrt, the product broadcast
    by column, gamma and beta broadcast by row; under RMSNORM no mean) and writer_unary_interleaved_start_id_blocked
    .cpp. 2 tile rows of 4 tiles (a tile row per core on 2 cores; block_size 8, so each row is one block whose tail
    of 4 pages is pushed and popped unwritten), gamma and beta as one tile row whose row 0 holds the weights. Every
    intermediate is bf16, the row sums accumulate in a bf16 DST."""
    rng = np.random.default_rng(10)
    a = rounded(rng.uniform(-2, 2, (64, 128)).astype(np.float32))
    inputs = {"a": a}
    eps = float((np.array([1e-5], np.float32).view(np.uint32) & 0xFFFF0000).view(np.float32)[0])  # bf16, truncated
    expected = _norm(a, variant == "rmsnorm", eps)
    if variant != "layernorm_plain":
        gamma, beta = (rounded(rng.uniform(lo, 2, (1, 128)).astype(np.float32)) for lo in (0.5, -1))
        inputs["gamma"], inputs["beta"] = (np.vstack([w, np.zeros((31, 128), np.float32)]) for w in (gamma, beta))
        expected = expected * gamma + beta
    out = run_case(host, ttnn_home, tmp_path, "layernorm", variant, inputs, a.shape)
    np.testing.assert_allclose(out, expected, rtol=3e-2, atol=3e-2)


def test_matmul_reuse_fused_bias(host: Path, ttnn_home: Path, tmp_path: Path) -> None:
    """The reuse matmul of test_matmul_reuse with FUSE_BIAS (and BIAS_FULL_BLOCK, as the reuse factory loads the bias):
    reader_writer_bmm_tile_layout_in1.cpp reads the bias block (one tile row of 4 tiles, the values in row 0) into
    `bias` once, the compute kernel packs the last K block's sums into the Float32 intermed0 and adds the bias
    broadcast by row (add_bcast_rows_init, add_tiles_bcast_rows) on the way to `out`; the bias stays resident across a
    core's blocks (the core with 2 blocks). 128 x 128 by 128 x 128 bf16, against numpy's A B + bias."""
    rng = np.random.default_rng(11)
    a, b = (rounded(rng.uniform(-1, 1, (128, 128)).astype(np.float32)) for _ in range(2))
    bias = rounded(rng.uniform(-1, 1, (1, 128)).astype(np.float32))
    inputs = {"a": a, "b": b, "bias": np.vstack([bias, np.zeros((31, 128), np.float32)])}
    out = run_case(host, ttnn_home, tmp_path, "matmul", "reuse_bias", inputs, (128, 128), "128", "1")
    np.testing.assert_allclose(out, rounded(a @ b + bias), rtol=1e-2, atol=2e-2)


@pytest.mark.parametrize(("variant", "atol"), [("mcast2d", 2e-2), ("mcast2d_bf16", 8e-2), ("mcast2d_bias", 2e-2)])
def test_matmul_mcast_2d(host: Path, ttnn_home: Path, tmp_path: Path, variant: str, atol: float) -> None:
    """ttnn 0.81.1's 2-D multicast matmul, the legacy kernels unmodified (MatmulMultiCoreReuseMcast2DProgramFactory,
    tests/ttnn_kernels/matmul_mcast*.hpp): reader_bmm_tile_layout_in0_sender_padding.cpp on the left column
    multicasts in0 blocks along each row (NOC_1, the rectangle from its larger corner) to
    reader_bmm_tile_layout_in0_receiver.cpp; reader_bmm_tile_layout_in1_sender_writer_padding.cpp on the top row
    multicasts in1 blocks down each column (NOC_0) to reader_bmm_tile_layout_in1_receiver_writer_padding.cpp, both
    writing their core's output; bmm_large_block_zm_fused_bias_activation.cpp on every core. 128 x 128 by 128 x 192
    over a 3 x 4 grid of 12 cores (per_core_M 1, per_core_N 2, in0_block_w 2: 2 K blocks; 1 x 2 subblocks), the
    split-half setup (the receivers right of the middle column on the other NoCs). mcast2d: fp32_dest_acc_en
    (intermed0 Float32, its own CB); mcast2d_bf16: bf16 partial sums in intermed0, one CB config shared with out
    (one L1 block, as the factory shares them); mcast2d_bias: FUSE_BIAS, the bias row multicast with in1. Every
    semaphore and multicast checked by the emulator; no report."""
    rng = np.random.default_rng(12)
    a = rounded(rng.uniform(-1, 1, (128, 128)).astype(np.float32))
    b = rounded(rng.uniform(-1, 1, (128, 192)).astype(np.float32))
    inputs, expected = {"a": a, "b": b}, a @ b
    if variant == "mcast2d_bias":
        bias = rounded(rng.uniform(-1, 1, (1, 192)).astype(np.float32))
        inputs["bias"], expected = np.vstack([bias, np.zeros((31, 192), np.float32)]), expected + bias
    out = run_case(host, ttnn_home, tmp_path, "matmul", variant, inputs, (128, 192), "192")
    np.testing.assert_allclose(out, rounded(expected), rtol=1e-2, atol=atol)


@pytest.mark.parametrize("variant", ["mcast2d_l1acc", "mcast2d_l1acc_bias"])
def test_matmul_mcast_2d_packer_l1_acc(host: Path, ttnn_home: Path, tmp_path: Path, variant: str) -> None:
    """test_matmul_mcast_2d's kernels with PACKER_L1_ACC defined, as the factory defines it for packer_l1_acc (intermed0
    Float32 under fp32_dest_acc_en, its own CB): K of 3 blocks, so the packer accumulates into intermed0 in L1. Without
    bias, block 0 packs plainly (pack_reconfig_l1_acc(0)) and its pages are popped in place, block 1 packs onto them
    with L1 accumulation and is reloaded into DST for the last block, which packs to out; with FUSE_BIAS every block
    packs into intermed0 (accumulating from block 1 on) and the bias is added on the way to out. 128 x 192 by
    192 x 192 on the 3 x 4 grid, against numpy."""
    rng = np.random.default_rng(13)
    a = rounded(rng.uniform(-1, 1, (128, 192)).astype(np.float32))
    b = rounded(rng.uniform(-1, 1, (192, 192)).astype(np.float32))
    inputs, expected = {"a": a, "b": b}, a @ b
    if variant.endswith("_bias"):
        bias = rounded(rng.uniform(-1, 1, (1, 192)).astype(np.float32))
        inputs["bias"], expected = np.vstack([bias, np.zeros((31, 192), np.float32)]), expected + bias
    out = run_case(host, ttnn_home, tmp_path, "matmul", variant, inputs, (128, 192), "192")
    np.testing.assert_allclose(out, rounded(expected), rtol=1e-2, atol=2e-2)


@pytest.mark.parametrize(("variant", "grid", "atol"), [("mcast1d", "row", 2e-2), ("mcast1d", "column", 2e-2),
                                                      ("mcast1d_bf16", "row", 8e-2)])
def test_matmul_mcast_1d(host: Path, ttnn_home: Path, tmp_path: Path, variant: str, grid: str, atol: float) -> None:
    """ttnn 0.81.1's 1-D multicast matmul (mcast_in0), the Metal 2.0 forks its factory binds, unmodified
    (tests/ttnn_kernels/matmul_mcast1d.hpp, after MatmulMultiCoreReuseMcast1DProgramFactory): a ProgramSpec with the
    SemaphoreSpecs in0_mcast_sender and in0_mcast_receiver on a 1 x 4 row or a 4 x 1 column, bound by name
    (`sem::in0_mcast_sender` in reader_bmm_tile_layout_in0_sender_padding_metal2.cpp and
    reader_bmm_tile_layout_in0_receiver_metal2.cpp, and as `sem::in1_mcast_*` in the in1 sender/writer, SKIP_MCAST);
    core (0,0) reads A's blocks and multicasts them over NOC_1 to the others (itself inside the rectangle, excluded);
    every core reads its 2 columns of B's tiles and writes its output; bmm_large_block_zm_fused_bias_activation_
    metal2.cpp with fp32_dest_acc_en. 128 x 128 by 128 x 256 (per_core_M 4, per_core_N 2, in0_block_w 2: 2 K
    blocks), against numpy; every semaphore and multicast checked by the emulator, no report. The two grids compile
    the same kernels (the rectangle is a runtime argument). mcast1d_bf16: without fp32_dest_acc_en the partial sums
    are bf16 and the DFBs out and intermed0 share one L1 block (`alias_with`, as the factory aliases them)."""
    rng = np.random.default_rng(14)
    a = rounded(rng.uniform(-1, 1, (128, 128)).astype(np.float32))
    b = rounded(rng.uniform(-1, 1, (128, 256)).astype(np.float32))
    out = run_case(host, ttnn_home, tmp_path, "matmul", variant, {"a": a, "b": b}, (128, 256), "256", "2", grid)
    np.testing.assert_allclose(out, rounded(a @ b), rtol=1e-2, atol=atol)
