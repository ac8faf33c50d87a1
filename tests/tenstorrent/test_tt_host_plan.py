"""The host program is checked against tt.plan.json, and math fidelity is modelled (issue 29, item 3).

Each drift is seeded into a compiled GEMM's tt.host_args (the CBs, fp32_dest_acc_en and math fidelity main.cpp reads
there) or main.cpp; before, each ran with status ok (wrong numbers for the CB format and page size, a doubled error
without fp32_dest_acc_en, bit-identical results at LoFi). Now the run stops at
the host call with a report naming the CB or setting and both values. With the plan and the host both at LoFi, the
matrix unit's phases are modelled (tt-metal tech_reports/matrix_engine: SrcA 1 + 4 mantissa bits, SrcB 1 + 6 at
LoFi), so LoFi and HiFi4 differ as on hardware.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_tt_sanitizer import GEMM, gemm_arrays, program, seeded, sub

from tilelang.tenstorrent import host_args


@pytest.fixture(scope="module")
def emulator() -> Any:
    from tilelang.tenstorrent import emulator as emu

    emu.library()
    return emu


PLAN = r".*tt\.plan\.json"
LOFI = host_args.MATH_FIDELITIES.index("LoFi")  # a `compute.math_fidelity` line holds the position


def test_cb_data_format_differs_from_the_plan(emulator: Any, tmp_path: Path) -> None:
    formats = host_args.DATA_FORMAT_VALUES  # a `cbs` line: index, data format, depth, page bytes
    edit = sub(rf"^cbs 0 {formats['Float16_b']} ", f"cbs 0 {formats['Float16']} ")
    message = seeded(emulator, tmp_path, program(GEMM), host_args.FILE, edit, gemm_arrays())
    assert re.search(r"host: \w+: CB c_0 on core \(\d,\d\) \(A_shared\) has data format Float16 in the host "
                     rf"program, but Float16_b in {PLAN}", message), message


def test_cb_page_size_differs_from_the_plan(emulator: Any, tmp_path: Path) -> None:
    edit = sub(r"^(cbs 1 \d+) (\d+) 2048$", r"\1 \2 1024")
    message = seeded(emulator, tmp_path, program(GEMM), host_args.FILE, edit, gemm_arrays())
    assert re.search(rf"CB c_1 on core \(\d,\d\) \(B_shared\) has pages of 1024 B in the host program, but 2048 B in "
                     rf"{PLAN}", message), message


def test_fp32_dest_acc_off_while_the_plan_says_on(emulator: Any, tmp_path: Path) -> None:
    edit = sub(r"^compute\.fp32_dest_acc_en 1$", "compute.fp32_dest_acc_en 0")
    message = seeded(emulator, tmp_path, program(GEMM), host_args.FILE, edit, gemm_arrays())
    assert re.search(rf"ComputeConfig of \w+: fp32_dest_acc_en is false, but {PLAN} says true", message), message


def test_math_fidelity_lofi_while_the_plan_says_hifi4(emulator: Any, tmp_path: Path) -> None:
    edit = sub(r"^compute\.math_fidelity \d+$", f"compute.math_fidelity {LOFI}")
    message = seeded(emulator, tmp_path, program(GEMM), host_args.FILE, edit, gemm_arrays())
    assert re.search(rf"ComputeConfig of \w+: math_fidelity is MathFidelity::LoFi, but {PLAN} says HiFi4",
                     message), message


def test_unpack_to_dest_mode_the_plan_does_not_have(emulator: Any, tmp_path: Path) -> None:
    edit = sub(r"(\.fp32_dest_acc_en = .*),$", r"\1, .unpack_to_dest_mode = "
               "std::vector<UnpackToDestMode>(32, UnpackToDestMode::UnpackToDestFp32),")
    message = seeded(emulator, tmp_path, program(GEMM), "main.cpp", edit, gemm_arrays())
    assert re.search(rf"unpack_to_dest_mode\[0\] is UnpackToDestFp32, but {PLAN} plans every CB with "
                     r"UnpackToDestMode::Default", message), message


def keep_bits(x: np.ndarray, bits: int) -> np.ndarray:
    """fp32 values with the top `bits` significand bits kept (hidden bit included), the rest truncated."""
    u = x.astype(np.float32).view(np.uint32) & np.uint32(~((1 << (24 - bits)) - 1) & 0xFFFFFFFF)
    return u.view(np.float32)


def test_lofi_matmul_uses_the_phase_bits_and_differs_from_hifi4(emulator: Any, tmp_path: Path) -> None:
    a, b, c = gemm_arrays()
    prog = program(GEMM)
    assert prog.run([a, b, c], workdir=tmp_path / "hifi4")["status"] == "ok"
    lofi = program(GEMM)
    lofi.files[host_args.FILE] = sub(r"^compute\.math_fidelity \d+$", f"compute.math_fidelity {LOFI}")(
        lofi.files[host_args.FILE])
    plan = json.loads(lofi.files["tt.plan.json"])
    plan["kernels"]["compute"]["math_fidelity"] = "LoFi"
    lofi.files["tt.plan.json"] = json.dumps(plan)
    c_lofi = np.zeros_like(c)
    assert lofi.run([a, b, c_lofi], workdir=tmp_path / "lofi")["status"] == "ok"
    got = c_lofi.astype(np.float32)
    # in0 (A) is SrcB: 1 + 6 mantissa bits; in1 (B) is SrcA: 1 + 4.
    want_lofi = keep_bits(a.astype(np.float32), 7) @ keep_bits(b.astype(np.float32), 5)
    exact = a.astype(np.float32) @ b.astype(np.float32)
    scale = float(np.abs(exact).max())
    assert float(np.abs(got - want_lofi).max()) <= 2.0**-7 * scale  # the LoFi model, to bf16 output rounding
    assert float(np.abs(got - exact).max()) > 4 * float(np.abs(c.astype(np.float32) - exact).max())
    assert int((c_lofi.view(np.uint16) != c.view(np.uint16)).sum()) > 1000  # LoFi and HiFi4 differ
