"""The C++ rendering of every pass spec (generated/tilelang/cpp) against the Python rendering.

Every pass runs in both renderings on the same input, at every stage of the pipelines, for every kernel the
Tenstorrent tests lower (and the CPU kernels for the CPU-only passes); the results must be structurally equal.
The whole Tenstorrent pipeline in C++ must produce byte-identical Metalium artifacts, and the bad kernels must
fail with the same error class and message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tvm
from test_language_llvm import elementwise_add, matmul
from test_tt_errors import CASES as BAD_KERNELS
from test_tt_errors import _load_many_inputs
from tt_kernels import CORPUS

import tilelang
import tilelang.cpp
from tilelang import transform
from tilelang.engine import pipelines
from tilelang.engine.cpu_lowering import host_llvm_target
from tilelang.engine.registry import BACKENDS
from tilelang.transform import cpp as cpp_transform

TT_TARGET = BACKENDS["tenstorrent"].make_target(None)

# Pass options the Tenstorrent tests also lower with (each switches on different engine paths).
OPTION_VARIANTS: dict[str, dict[str, dict[str, Any]]] = {
    "default": {},
    "global_partition": {"PartitionTTWork": {"mode": "global"}},
    "no_multicast": {"PlanTTMulticast": {"enabled": False}},
    "grid_4x2_stages_3": {"PartitionTTWork": {"core_grid": (4, 2)}, "BuildTTTileDataflow": {"stages": 3}},
}
CPU_CORPUS = {
    "matmul_256": lambda: matmul(256, 256, 256, 64, 64, 32),
    "matmul_ragged": lambda: matmul(100, 70, 50, 32, 32, 16),
    "matmul_fp32": lambda: matmul(64, 64, 64, 32, 32, 32, "float32", "float32"),
    "add_ragged": lambda: elementwise_add(100, 60, 32, 32),
}


@pytest.fixture(scope="session", autouse=True)
def cpp_library() -> Path:
    return tilelang.cpp.load()


def _assert_same_step(name: str, mod: tvm.IRModule, options: dict[str, Any], where: str) -> tvm.IRModule:
    """Run pass `name` in both renderings on `mod`; return the Python result after checking equality."""
    expected = getattr(transform, name)(**options)(mod)
    actual = getattr(cpp_transform, name)(**options)(mod)
    try:
        tvm.ir.assert_structural_equal(actual, expected, map_free_vars=True)  # new runtime-argument vars
    except ValueError as exc:
        raise AssertionError(f"{where}: {name} differs between C++ and Python:\n{exc}") from None
    return expected


def _step_through(mod: tvm.IRModule, steps: tuple[str, ...], target: Any, options: dict[str, dict[str, Any]],
                  where: str) -> tvm.IRModule:
    with target:
        for name in steps:
            args = dict(options.get(name, {}))
            if name == "BindTarget":
                args["target"] = target
            mod = _assert_same_step(name, mod, args, where)
    return mod


# Every kernel with the default options; the GEMMs (whose lowering the options change) with every variant.
STAGE_CASES = [(k, v) for k in sorted(CORPUS) for v in sorted(OPTION_VARIANTS)
               if v == "default" or k.startswith("gemm_")]


@pytest.mark.parametrize("kernel,variant", STAGE_CASES, ids=[f"{k}-{v}" for k, v in STAGE_CASES])
def test_every_tt_pass_is_equal_at_every_stage(kernel: str, variant: str) -> None:
    mod = tvm.IRModule({"main": CORPUS[kernel]()})
    steps = pipelines.PIPELINE_STEPS["lower_and_legalize_tt"] + pipelines.PIPELINE_STEPS["optimize_tenstorrent"]
    _step_through(mod, steps, TT_TARGET, OPTION_VARIANTS[variant], f"{kernel} [{variant}]")


@pytest.mark.parametrize("kernel", sorted(CPU_CORPUS))
def test_every_cpu_pass_is_equal_at_every_stage(kernel: str) -> None:
    mod = tvm.IRModule({"main": CPU_CORPUS[kernel]()})
    steps = pipelines.PIPELINE_STEPS["lower_and_legalize"] + pipelines.PIPELINE_STEPS["optimize_cpu"]
    _step_through(mod, steps, host_llvm_target(), {}, kernel)


def test_the_stage_tests_reach_every_pass_spec() -> None:
    assert set(transform.PASSES) == set(cpp_transform.PASSES)
    reached = {name for pipeline in ("lower_and_legalize_tt", "optimize_tenstorrent", "lower_and_legalize",
                                     "optimize_cpu") for name in pipelines.PIPELINE_STEPS[pipeline]}
    assert sorted(set(transform.PASSES) - reached) == []


@pytest.mark.parametrize("kernel", sorted(CORPUS))
def test_cpp_pipeline_writes_byte_identical_artifacts(kernel: str, tmp_path: Path) -> None:
    python = tilelang.lower(CORPUS[kernel](), target="tenstorrent", pass_impl="python").rt_mod
    cpp = tilelang.lower(CORPUS[kernel](), target="tenstorrent", pass_impl="cpp").rt_mod
    python_dir, cpp_dir = python.save(tmp_path / "python"), cpp.save(tmp_path / "cpp")
    names = sorted(p.name for p in python_dir.iterdir())
    assert names == sorted(p.name for p in cpp_dir.iterdir())
    assert "tt.plan.json" in names and "reader.cpp" in names
    for name in names:
        assert (cpp_dir / name).read_bytes() == (python_dir / name).read_bytes(), f"{name} differs"


def _bad_kernel(factory: Any, tmp_path: Path) -> Any:
    func = factory()
    return _load_many_inputs(tmp_path, 17) if func == "many_inputs" else func


@pytest.mark.parametrize("factory", [c[1] for c in BAD_KERNELS], ids=[c[0] for c in BAD_KERNELS])
def test_bad_kernels_fail_the_same_way(factory: Any, tmp_path: Path) -> None:
    errors = []
    for impl in ("python", "cpp"):
        with pytest.raises(Exception) as info:
            tilelang.lower(_bad_kernel(factory, tmp_path), target="tenstorrent", pass_impl=impl)
        errors.append((type(info.value), str(info.value)))
    assert errors[1] == errors[0]


def test_pass_impl_is_checked() -> None:
    with pytest.raises(tilelang.language.TileLangError, match="pass_impl is 'rust'; expected one of 'python', 'cpp'"):
        tilelang.lower(CORPUS["eltwise_add"](), target="tenstorrent", pass_impl="rust")


def test_pass_impl_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from tilelang.engine.pass_config import pass_impl

    monkeypatch.setenv("TILELANG_PASS_IMPL", "cpp")
    assert pass_impl() == "cpp"
    monkeypatch.setenv("TILELANG_PASS_IMPL", "fortran")
    with pytest.raises(tilelang.language.TileLangError, match=r"\$TILELANG_PASS_IMPL is 'fortran'"):
        pass_impl()


def test_cpu_kernel_lowered_by_the_cpp_passes_runs() -> None:
    import numpy as np

    kernel = tilelang.compile(matmul(100, 70, 50, 32, 32, 16), out_idx=[-1], target="llvm", pass_impl="cpp")
    rng = np.random.default_rng(0)
    a, b = rng.random((100, 50)).astype("float16"), rng.random((50, 70)).astype("float16")
    np.testing.assert_allclose(kernel(a, b), a.astype("float32") @ b.astype("float32"), rtol=1e-2, atol=1e-1)
