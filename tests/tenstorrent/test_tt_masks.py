"""Index masks on Tenstorrent (issue 28): `T.if_then_else(cond, a, b)` stores whose condition is affine in the element
indices, run in the emulator against numpy.

- Upstream's current flash attention (examples/flash_attention/example_mha_fwd_bhsd.py and _bshd.py, bodies
  unmodified in tests/tt_attention_kernels.py): the key bound `k * block_N + j >= seq_kv` is folded by the
  arithmetic analyzer where block_N divides seq_kv (a zero fill the gemm absorbs: no table, no read); the causal
  `q_idx >= k_idx` (seq_q == seq_kv, and past_len > 0) is copied per tile from its pattern table (read once per
  kernel block) and the gemm's product added onto it.
- Mask kernels of each form (tests/tt_mask_kernels.py): column bound mixed inside a tile (a buffer against -inf: an
  added 0/-inf table), lower triangle (a buffer against 0: a multiplied 1/0 table), anti-diagonal constants (the
  table holds the values), row bound with `<=` against +inf, an in-place mask folded away. Masked outputs are
  compared exactly (the table adds 0 or +-inf, or multiplies by 1 or 0).
- Refusals name the condition and why.

Attention tolerance: 2^-7 of the largest magnitude of the reference (fp16 P and output, exp2, fp32 sums in another
order; tests/tenstorrent/test_tt_flash_attention.py)."""

import json
import shutil
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tt_mask_kernels as mk
from tt_attention_kernels import flashattn, flashattn_bshd

import tilelang
import tilelang.language as T
from tilelang.errors import TileLangError
from tilelang.tenstorrent import host_args, ttnn_host
from tilelang.tenstorrent.records import COUNTERS

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def _attention(q: np.ndarray, k: np.ndarray, v: np.ndarray, causal: bool) -> np.ndarray:
    """BHSD attention in fp32; causal as upstream's ref_program (tril with offset seq_kv - seq_q)."""
    q, k, v = (x.astype(np.float32) for x in (q, k, v))
    scores = np.einsum("bhqd,bhkd->bhqk", q, k) / np.sqrt(q.shape[-1])
    if causal:
        seq_q, seq_kv = q.shape[2], k.shape[2]
        scores = np.where(np.tril(np.ones((seq_q, seq_kv), bool), seq_kv - seq_q), scores, -np.inf)
    e = np.exp(scores - scores.max(-1, keepdims=True))
    return np.einsum("bhqk,bhkd->bhqd", e / e.sum(-1, keepdims=True), v)


def _tables(kernel: object) -> dict[str, dict]:
    plan = kernel.artifact.rt_mod.plan  # type: ignore[attr-defined]
    return {t["name"]: t["constant"]["mask"] for t in plan["tensors"] if "mask" in t.get("constant", {})}


@pytest.mark.parametrize(("seq_q", "seq_kv", "causal", "block_M", "block_N"), [
    (128, 128, False, 64, 64),  # the key bound folded (64 divides 128)
    (128, 128, True, 64, 64),   # causal, seq_q == seq_kv: diagonal tiles inside the 2x2 block
    (128, 128, True, 32, 32),
    (64, 128, True, 32, 64),    # past_len = 64
    (96, 128, True, 32, 32),    # past_len = 32
])
def test_upstream_bhsd_flash_attention_matches_numpy(seq_q: int, seq_kv: int, causal: bool, block_M: int,
                                                      block_N: int) -> None:
    b, h, d = 1, 2, 64
    rng = np.random.default_rng(seq_q + seq_kv + block_M)
    q = rng.standard_normal((b, h, seq_q, d)).astype(np.float16)
    k, v = (rng.standard_normal((b, h, seq_kv, d)).astype(np.float16) for _ in range(2))
    kernel = tilelang.compile(flashattn(b, h, seq_q, seq_kv, d, causal, block_M, block_N), out_idx=[3],
                              target="tenstorrent")
    got = kernel(q, k, v).astype(np.float32)
    want = _attention(q, k, v, causal)
    assert float(np.abs(got - want).max()) <= 2.0**-7 * float(np.abs(want).max())
    assert kernel.last_report["status"] == "ok"
    tables = _tables(kernel)
    if not causal:
        assert tables == {}  # folded: the store is a zero fill the gemm starts from
        return
    # q_idx >= k_idx is i - j + (bx * block_M + past_len - k * block_N) >= 0; block sizes and past_len are
    # multiples of 32, so every tile's offset is too: the table holds offsets -32 (all false), 0 and 32 (all true)
    assert tables == {"index_mask_0": {"p": 1, "q": -1, "div": 1, "width": -1, "first": -32, "step": 32, "on_true": 0.0,
                                       "on_false": -np.inf}}
    compute = kernel.artifact.rt_mod.files["compute.cpp"]
    assert "? " in compute and "copy_tile(" in compute  # the clamped table tile of each block tile


@pytest.mark.parametrize("causal", [False, True])
def test_upstream_bshd_flash_attention_matches_numpy(causal: bool) -> None:
    b, h, s, d = 1, 2, 128, 64
    rng = np.random.default_rng(7)
    q, k, v = (rng.standard_normal((b, s, h, d)).astype(np.float16) for _ in range(3))
    kernel = tilelang.compile(flashattn_bshd(b, h, s, d, causal, 64, 64), out_idx=[3], target="tenstorrent")
    got = kernel(q, k, v).astype(np.float32)
    to_bhsd = (0, 2, 1, 3)
    want = _attention(*(x.transpose(to_bhsd) for x in (q, k, v)), causal).transpose(to_bhsd)
    assert float(np.abs(got - want).max()) <= 2.0**-7 * float(np.abs(want).max())
    assert bool(_tables(kernel)) == causal


@pytest.mark.parametrize("layout", ["bhsd", "bshd"])
@pytest.mark.parametrize("causal", [False, True])
def test_upstream_flash_attention_at_a_ragged_sequence_matches_numpy(layout: str, causal: bool) -> None:
    """S = 200 with blocks of 64: the last query and key blocks hang over the sequence's end. Upstream's key bound
    `k * block_N + j >= seq_kv` is not constant over the last key block, so it gets a table; it is -inf on exactly the
    columns K's padding puts into acc_s, which is what the reductions need there (the padding engine reads the mask
    over the padding: masks::over_box). Causal, the diagonal is -inf there in every row that is not padding. BSHD
    tensors (row-major) are padded in their sequence dim to 256 rows per head and cropped by the host."""
    b, h, s, d = 1, 2, 200, 64
    rng = np.random.default_rng(200 + causal)
    shape = (b, h, s, d) if layout == "bhsd" else (b, s, h, d)
    q, k, v = (rng.standard_normal(shape).astype(np.float16) for _ in range(3))
    f = flashattn(b, h, s, s, d, causal, 64, 64) if layout == "bhsd" else flashattn_bshd(b, h, s, d, causal, 64, 64)
    kernel = tilelang.compile(f, out_idx=[3], target="tenstorrent")
    got = kernel(q, k, v).astype(np.float32)
    to_bhsd = (0, 1, 2, 3) if layout == "bhsd" else (0, 2, 1, 3)
    want = _attention(*(x.transpose(to_bhsd) for x in (q, k, v)), causal).transpose(to_bhsd)
    assert got.shape == shape
    assert float(np.abs(got - want).max()) <= 2.0**-7 * float(np.abs(want).max())
    plan = {t["name"]: t for t in kernel.artifact.rt_mod.plan["tensors"]}
    assert plan["Q"]["padded_shape"] == ([b, h, 256, d] if layout == "bhsd" else [b, 256, h, d])
    assert plan["K"]["pad_value"] == 0.0  # its padded rows give 0 scores, onto which the mask adds -inf
    # the key bound j + 64 k - 200 >= 0: offsets 24 modulo 32 (not folded); causal, the diagonal instead
    assert list(_tables(kernel).values())[0]["p"] == (1 if causal else 0)


def test_a_causal_block_reads_its_mask_table_once() -> None:
    """The table (3 fp32 tiles) is read once per kernel block and held across the key loop; the compute kernel copies
    the acc_s block's 2x2 tiles from it per key block. The loop bound skips the key blocks that are entirely masked:
    block bx = 0 runs 1 key block, bx = 1 runs 2."""
    kernel = tilelang.compile(flashattn(1, 1, 128, 128, 64, True, 64, 64), out_idx=[3], target="tenstorrent")
    rng = np.random.default_rng(3)
    q, k, v = (rng.standard_normal((1, 1, 128, 64)).astype(np.float16) for _ in range(3))
    kernel(q, k, v)
    fp16_tile, fp32_tile, bf16_tile = 32 * 32 * 2, 32 * 32 * 4, 32 * 32 * 2
    cores, key_blocks, tiles = 2, 1 + 2, 4
    expected = (cores * (tiles * fp16_tile + bf16_tile + 3 * fp32_tile)  # Q, the reduce scaler and the mask table
                + key_blocks * tiles * 2 * fp16_tile)  # K and V per key block
    assert kernel.last_report["total"][COUNTERS.DRAM_BYTES_READ] == expected


@pytest.mark.parametrize("bound", [80, 96, 128])
def test_a_column_bound_selects_a_buffer_against_minus_infinity(bound: int) -> None:
    """80: mixed inside a tile; 96: on a tile edge; 128: never holds (folded, the store a copy: one CB for both)."""
    a = np.random.default_rng(bound).standard_normal((64, 128)).astype(np.float32)
    out = np.zeros_like(a)
    kernel = tilelang.compile(mk.bound_select(64, 128, 64, bound), target="tenstorrent")
    kernel(a, out)
    np.testing.assert_array_equal(out, np.where(np.arange(128)[None, :] >= bound, -np.inf, a))
    assert bool(_tables(kernel)) == (bound < 128)


def test_a_lower_triangle_selects_a_buffer_against_zero() -> None:
    a = np.random.default_rng(2).standard_normal((64, 64)).astype(np.float32)
    out = np.zeros_like(a)
    kernel = tilelang.compile(mk.tril_select(64, 32), target="tenstorrent")
    kernel(a, out)
    np.testing.assert_array_equal(out, np.tril(a))
    assert _tables(kernel) == {"index_mask_0": {"p": 1, "q": -1, "div": 1, "width": -1, "first": -32, "step": 32,
                                                "on_true": 1.0, "on_false": 0.0}}
    assert "mul_tiles(" in kernel.artifact.rt_mod.files["compute.cpp"]


def test_an_anti_diagonal_mask_of_two_constants() -> None:
    out = np.zeros((64, 64), np.float32)
    kernel = tilelang.compile(mk.antidiagonal_constants(64, 32, 50), target="tenstorrent")
    kernel(out)
    r, c = np.indices((64, 64))
    np.testing.assert_array_equal(out, np.where(r + c < 50, 1.5, -2.0))
    # -(i + j) + 49 - 32 * (by + bx) >= 0: offsets 17 modulo 32, from -15 (all false) to 81 (all true)
    assert _tables(kernel) == {"index_mask_0": {"p": -1, "q": -1, "div": 1, "width": -1, "first": -15, "step": 32,
                                                "on_true": 1.5, "on_false": -2.0}}


def test_a_row_bound_against_plus_infinity() -> None:
    a = np.random.default_rng(4).standard_normal((128, 64)).astype(np.float32)
    out = np.zeros_like(a)
    kernel = tilelang.compile(mk.row_bound(128, 64, 64, 70), target="tenstorrent")
    kernel(a, out)
    np.testing.assert_array_equal(out, np.where(np.arange(128)[:, None] <= 70, a, np.inf))
    assert _tables(kernel)["index_mask_0"]["q"] == 0


def test_an_in_place_mask_constant_over_the_block_is_folded_away() -> None:
    a = np.random.default_rng(5).standard_normal((64, 128)).astype(np.float32)
    out = np.zeros_like(a)
    kernel = tilelang.compile(mk.in_place_bound(64, 128, 64, 128), target="tenstorrent")
    kernel(a, out)
    np.testing.assert_allclose(out, np.exp(a), rtol=1e-5)
    assert _tables(kernel) == {}
    mixed = tilelang.compile(mk.in_place_bound(64, 128, 64, 100), target="tenstorrent")
    mixed(a, out)
    np.testing.assert_allclose(out, np.where(np.arange(128)[None, :] < 100, np.exp(a), -np.inf), rtol=1e-5)
    assert "add_tiles(" in mixed.artifact.rt_mod.files["compute.cpp"]


def _masked(expr: str) -> object:
    @T.prim_func
    def main(A: T.Tensor((64, 64), "float32"), B: T.Tensor((64, 64), "float32"), Out: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=128):
            A_s = T.alloc_shared((64, 64), "float32")
            B_s = T.alloc_shared((64, 64), "float32")
            acc = T.alloc_fragment((64, 64), "float32")
            T.copy(A[0, 0], A_s)
            T.copy(B[0, 0], B_s)
            for i, j in T.Parallel(64, 64):
                if expr == "product":
                    acc[i, j] = T.if_then_else(i * j >= 5, A_s[i, j], 0)
                elif expr == "slope":
                    acc[i, j] = T.if_then_else(2 * i >= j, A_s[i, j], 0)
                elif expr == "not_equal":
                    acc[i, j] = T.if_then_else(i != j, A_s[i, j], 0)
                elif expr == "two_buffers":
                    acc[i, j] = T.if_then_else(i >= j, A_s[i, j], B_s[i, j])
                elif expr == "constant":
                    acc[i, j] = T.if_then_else(i >= j, A_s[i, j], 0.5)
            T.copy(acc, Out[0, 0])

    return main


@pytest.mark.parametrize(("expr", "message"), [
    ("product", r"condition .*i \* j.* is not affine in the element indices i, j"),
    ("slope", r"condition .* has coefficient 2 on an element index; .*magnitude up to 1"),
    ("not_equal", r"condition i != j compares with != .*a conjunction of two opposite ones"),
    ("two_buffers", r"selects between two buffer values; .*between a buffer value and -inf, \+inf or 0"),
    ("constant", r"selects a buffer value against the constant .*0\.5"),
])
def test_unsupported_masks_are_refused_naming_the_condition(expr: str, message: str) -> None:
    with pytest.raises(TileLangError, match=r"element-wise store 'acc\[\.\.\.\] = T\.if_then_else\(.*" + message):
        tilelang.lower(_masked(expr), target="tenstorrent")


def test_run_ttnn_fills_the_table_main_cpp_fills(tmp_path: Path) -> None:
    """run_ttnn.py (ttnn.generic_op) uploads the same table main.cpp fills (the emulator runs main.cpp above): for the
    lower triangle, tile 1 (offset 0) is the triangle with its diagonal, tile 0 (offset -32) all 0, tile 2 all 1."""
    folder = tilelang.compile(mk.tril_select(64, 32), target="tenstorrent").save(tmp_path / "tril")
    script = ttnn_host.load_script(folder / ttnn_host.SCRIPT)

    class Tensor:  # what ttnn.Tensor and allocate_tensor_on_device are given
        def __init__(self, tensor: Any = None, data_type: str = "", **_: Any) -> None:
            self.data, self.data_type = tensor, data_type

        def buffer_page_size(self) -> int:
            return 1024 * (4 if self.data_type == "fp32" else 2)

    fake = types.SimpleNamespace(DRAM_MEMORY_CONFIG=None, TILE_LAYOUT=None, ROW_MAJOR_LAYOUT=None, Tensor=Tensor,
                                 Shape=list, bfloat16="bf16", float32="fp32", float16="fp16",
                                 allocate_tensor_on_device=lambda shape, data_type, *_: Tensor(np.zeros(shape),
                                                                                               data_type))
    plan = json.loads((folder / "tt.plan.json").read_text())
    values = {t["name"]: np.zeros(t["shape"], np.float32) for t in plan["tensors"]
              if t["role"] == "input" and "constant" not in t}
    table = script.device_tensors(fake, None, values)["index_mask_0"].data
    assert table.shape == (3 * 32, 32)
    tiles = table.reshape(3, 32, 32)
    np.testing.assert_array_equal(tiles[1], np.tril(np.ones((32, 32))))
    assert np.all(tiles[0] == 0.0) and np.all(tiles[2] == 1.0)
    lines = (folder / host_args.FILE).read_text().splitlines()  # main.cpp reads the mask and its values there
    assert "index_mask_0.mask 1 -1 -32 32 1 -1" in lines  # p q first step div width: p * ii + q * jj + ... >= 0:
    bits = [host_args.element_bits(v, "float32") for v in (1.0, 0.0)]  # on_true, on_false as the float's bits
    assert f"index_mask_0.on_true {bits[0]}" in lines and f"index_mask_0.on_false {bits[1]}" in lines


def test_causal_blocks_are_paired_x_and_last_minus_x_on_a_core() -> None:
    """Causal attention's key loop runs bx + 1 blocks: auto partitions it zigzag (x and gx - 1 - x on one core, equal
    work per core) where it would shard; block x is where the persistent loop's binding unfolds it."""
    b, h, s, d = 1, 1, 128, 64
    rng = np.random.default_rng(11)
    q, k, v = (rng.standard_normal((b, h, s, d)).astype(np.float16) for _ in range(3))
    configs = {"tl.PartitionTTWork.core_grid": [2, 1]}
    kernel = tilelang.compile(flashattn(b, h, s, s, d, True, 32, 32), out_idx=[3], target="tenstorrent",
                              pass_configs=configs)
    got = kernel(q, k, v).astype(np.float32)
    want = _attention(q, k, v, True)
    assert float(np.abs(got - want).max()) <= 2.0**-7 * float(np.abs(want).max())
    plan = kernel.artifact.rt_mod.plan
    assert plan["partition_mode"] == "zigzag"
    assert [(w["col0"], w["cols"]) for w in plan["work_partition"]] == [(0, 2), (2, 2)]  # x = (0, 3) and (1, 2)
    full = tilelang.compile(flashattn(b, h, s, s, d, False, 32, 32), out_idx=[3], target="tenstorrent",
                            pass_configs=configs)
    assert full.artifact.rt_mod.plan["partition_mode"] == "shard"


def test_causal_key_blocks_every_core_of_a_row_runs_are_multicast() -> None:
    """Causal attention's key loop runs bx + 1 blocks, which differ across a core row (PlanTTMulticast): the row's
    cores read the key blocks they all run (the least bx + 1 over the row) by multicast, and the rest alone. On 2x2
    cores, 4 query blocks of 32 per head in zigzag pairs (bx 0 and 3 on one core, 1 and 2 on the other): 1 then 3
    shared key blocks, 0 + 1 and 1 + 0 read alone. Each multicast CB is one block deep, so the cores' CBs stay at one
    address while their own reads differ in number (what a multicast needs); the result matches numpy."""
    b, h, s, d = 1, 2, 128, 64
    kernel = tilelang.compile(flashattn(b, h, s, s, d, True, 32, 32), out_idx=[3], target="tenstorrent",
                              pass_configs={"tl.PartitionTTWork.core_grid": [2, 2]})
    rng = np.random.default_rng(11)
    q, k, v = (rng.standard_normal((b, h, s, d)).astype(np.float16) for _ in range(3))
    want = _attention(q, k, v, True)
    got = kernel(q, k, v).astype(np.float32)
    assert float(np.abs(got - want).max()) <= 2.0**-7 * float(np.abs(want).max())
    plan = kernel.artifact.rt_mod.plan
    assert plan["partition_mode"] == "zigzag"
    assert {c["buffer"]: c["depth"] for c in plan["cbs"] if c["buffer"] in ("K_shared", "V_shared")} == \
        {"K_shared": 2, "V_shared": 2}
    reader = kernel.artifact.rt_mod.files["reader.cpp"]
    assert reader.count("noc_async_write_multicast(") == 2  # K and V, in the shared loop only
    fp16_tile, fp32_tile, bf16_tile = 32 * 32 * 2, 32 * 32 * 4, 32 * 32 * 2
    work, tiles = 4 * 2, 2  # 4 cores x 2 query blocks; 1 x 2 tiles a block
    key_reads = h * ((1 + 3) + (0 + 1) + (1 + 0))  # per head: shared blocks once, the rest per core
    expected = work * (tiles * fp16_tile + bf16_tile + 3 * fp32_tile) + key_reads * tiles * 2 * fp16_tile
    assert kernel.last_report["total"][COUNTERS.DRAM_BYTES_READ] == expected
