"""The generated `tilelang` package: every tt.* op registered, T.tt.* round-trips through TVMScript."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
import tvm
from tvm import tirx
from tvm.ir import Op

import tilelang
import tilelang.language as T
from generator import Project, load_project
from projects import REPO
from tilelang.tenstorrent import INTRINSICS, PROFILES

MODEL = load_project(Project.at(REPO))


def test_package_is_the_checkout_one() -> None:
    """Hand-written modules are imported where they are edited, rendered ones from generated/."""
    import tilelang.transform

    assert Path(tilelang.__file__).resolve().parent == REPO / "python" / "tilelang"
    assert Path(tilelang.transform.__file__).resolve().parent == REPO / "generated" / "tilelang" / "transform"


def test_every_spec_intrinsic_is_a_registered_op() -> None:
    assert sorted(INTRINSICS) == sorted(i.name for i in MODEL.intrinsics)
    for intrinsic in MODEL.intrinsics:
        op = Op.get(intrinsic.op_name)
        effect = getattr(tirx.CallEffectKind, intrinsic.tvm_effect).value
        assert int(op.get_attr("TCallEffectKind")) == effect, intrinsic.name
        assert op.get_attr("TScriptPrinterName") == intrinsic.op_name


def test_registration_is_idempotent() -> None:
    importlib.reload(tilelang)
    assert Op.get("tt.matmul_tiles").get_attr("TScriptPrinterName") == "tt.matmul_tiles"


def test_conflicting_registration_is_refused() -> None:
    from tilelang import _ops

    record = INTRINSICS["get_dataformat"]  # registered as Pure
    clash = type(record)(**{**record.__dict__, "effect": "Opaque"})
    with pytest.raises(RuntimeError, match="already registered with effect"):
        _ops.register_op(clash)


def test_spellings_match_the_specs() -> None:
    for intrinsic in MODEL.intrinsics:
        record = INTRINSICS[intrinsic.name]
        assert sorted(record.cpp) == [c.profile for c in intrinsic.cpp]
        for spelling in intrinsic.cpp:
            assert record.cpp[spelling.profile].callee == spelling.spelling
    assert INTRINSICS["compute_kernel_hw_startup_matmul"].cpp["metal_d5f9bc4a"].callee == (
        "compute_kernel_hw_startup<SrcOrder::Reverse>")
    assert "mm_init" in INTRINSICS and "metal_d5f9bc4a" not in INTRINSICS["mm_init"].cpp
    assert set(PROFILES) == {p.name for b in MODEL.backends for p in b.profiles}  # every profile a spec declares
    assert INTRINSICS["add_tiles_init"].cpp["ttnn_0_81"].callee == "add_init"  # renamed in ttnn 0.81
    assert PROFILES["ttnn_0_81"].ttnn_wheel == "0.81.1" and PROFILES["ttnn_0_81"].accessor_compile_time_args == 2


def _sample(arg_type: str, buffer: tvm.ir.Var) -> object:
    samples = {
        "int32": tirx.const(3, "int32"),
        "uint32": tirx.const(4, "uint32"),
        "uint64": tirx.const(5, "uint64"),
        "bool": tirx.const(True, "bool"),
        "float32": tirx.const(1.5, "float32"),
        "string": "Float16_b",
        "handle": buffer,
        "accessor": buffer,
        "l1_ptr": buffer,
    }
    return samples[arg_type]


def test_every_intrinsic_round_trips_through_tvmscript() -> None:
    A = tirx.decl_buffer((64, 64), "bfloat16", name="A")
    stmts = []
    for name, record in sorted(INTRINSICS.items()):
        call = getattr(T.tt, name)(*(_sample(a.type, A) for a in record.args))
        stmts.append(tirx.Evaluate(call))
    func = tirx.PrimFunc([A], tirx.SeqStmt(stmts))
    module = tvm.IRModule({"main": func})
    text = module.script()
    for name in INTRINSICS:
        assert f"T.tt.{name}(" in text
    parsed = tvm.script.from_source(text)
    tvm.ir.assert_structural_equal(parsed, module)


def test_script_kernel_with_tt_calls_parses_and_prints() -> None:
    from tvm.script import tirx as S  # the tt namespace is registered on TVMScript itself

    @S.prim_func
    def reader(A: S.Buffer((64, 64), "bfloat16")):
        for t in range(4):
            S.tt.cb_reserve_back(0, 1)
            S.tt.read_block(0, A, t // 2 * 2 + t % 2, 1, 1, 2, 2048)
            S.tt.cb_push_back(0, 1)

    text = tvm.IRModule({"main": reader}).script()
    assert re.search(r"T\.tt\.read_block\(0, A, t // 2 \* 2 \+ t % 2, 1, 1, 2, 2048\)", text)
    tvm.ir.assert_structural_equal(tvm.script.from_source(text), tvm.IRModule({"main": reader}))


def test_wrong_arity_is_a_python_error() -> None:
    with pytest.raises(TypeError):
        T.tt.cb_reserve_back(0)


def test_reference_page_lists_every_intrinsic_per_profile() -> None:
    page = (REPO / "generated" / "docs" / "intrinsics.md").read_text("utf-8")
    header = next(line for line in page.splitlines() if line.startswith("| intrinsic |"))
    assert "metal_d5f9bc4a" in header and "tilelang_tt_2025" in header
    profiles = sorted(PROFILES)
    for name, record in INTRINSICS.items():
        row = next(line for line in page.splitlines() if line.startswith(f"| `tt.{name}` |"))
        cells = [c.strip() for c in row.strip().strip("|").split(" | ")]
        assert len(cells) == 6 + len(profiles), name
        for column, profile in enumerate(profiles, start=5):
            if profile in record.cpp:
                assert cells[column].startswith(f"`{record.cpp[profile].callee}`"), (name, profile)
            else:
                assert cells[column] == "-", (name, profile)
