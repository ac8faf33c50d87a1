"""What ttnn 0.81.1's matmul kernels needed beyond the emulator's API, each on kernels of the project's own
(tests/emulator_cases/block_matmul/): matmul_block_init and matmul_block (an rt_dim x ct_dim output block, A's rows
kt_dim tiles apart), copy_block and pack_block, a DFB bound twice under one name (the compute kernel fills and drains
its partial sums, as ttnn's matmul factory binds its intermediate), noc_parameters.h's DRAM_ALIGNMENT, tt-llk's
ckernel::load_blocking and mod_div_lib.h. What is not emulated is named: transposed B tiles (at run time), the
BRISC-to-TRISC mailbox and untilize from DST (at compile time); one accessor name for two DFBs is a host error."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tilelang.tenstorrent import emulator

CASES = Path(__file__).resolve().parents[1] / "emulator_cases" / "block_matmul"


@pytest.fixture(scope="module")
def host() -> Path:
    return emulator.build_host(CASES / "host.cpp")


def bf16(x: np.ndarray) -> np.ndarray:
    return (np.ascontiguousarray(x, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)


def f32(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def tiles(x: np.ndarray) -> np.ndarray:
    """Row-major tiles of 32 x 32 elements, each as its 4 faces of 16 x 16 (tt-metal's tile layout)."""
    r, c = x.shape[0] // 32, x.shape[1] // 32
    t = x.reshape(r, 2, 16, c, 2, 16).transpose(0, 3, 1, 4, 2, 5)
    return t.reshape(-1)


def untile(flat: np.ndarray, rows: int, cols: int) -> np.ndarray:
    t = flat.reshape(rows // 32, cols // 32, 2, 2, 16, 16).transpose(0, 2, 4, 1, 3, 5)
    return t.reshape(rows, cols)


def run(host: Path, tmp_path: Path, fault: str = "") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(11)
    a = f32(bf16(rng.uniform(-1, 1, (64, 128))))
    b = f32(bf16(rng.uniform(-1, 1, (128, 64))))
    bf16(tiles(a)).tofile(tmp_path / "a.bin")
    bf16(tiles(b)).tofile(tmp_path / "b.bin")
    emulator.run(host, [str(CASES), str(tmp_path), *([fault] if fault else [])])
    return a, b, untile(f32(np.fromfile(tmp_path / "c.bin", dtype=np.uint16)), 64, 64)


def test_matmul_block_with_partials_through_one_dfb(host: Path, tmp_path: Path) -> None:
    """C = A x B in two K blocks: the partial sums packed to bf16 once, reloaded, the result packed to bf16."""
    a, b, c = run(host, tmp_path)
    partial = f32(bf16(a[:, :64] @ b[:64]))
    # DST is 16-bit (bf16): each inner step of a block rounds its sums too.
    np.testing.assert_allclose(c, partial + a[:, 64:] @ b[64:], rtol=2e-2, atol=6e-2)


@pytest.mark.parametrize(("fault", "message"), [
    ("TRANSPOSE", "compute: matmul_init(0, 1): transposed matmul is not emulated"),
    ("MAILBOX", "mailbox_read (ckernel.h) is not emulated: the emulator has no BRISC-to-TRISC mailbox"),
    ("UNTILIZE_DEST", "pack_untilize_dest_init (api/compute/pack_untilize.h) is not emulated"),
    ("NAME_TWO_DFBS", "kernel 'compute': DFB accessor name 'partial' is bound twice"),
])
def test_what_is_not_emulated_is_named(host: Path, tmp_path: Path, fault: str, message: str) -> None:
    with pytest.raises(emulator.TTEmulatorError, match=re.escape(message)):
        run(host, tmp_path, fault)
