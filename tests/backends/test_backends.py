"""The backend interface contract: registry from backend specs, lower() per backend, pipelines from specs."""

from __future__ import annotations

import dataclasses
import importlib
import re
from pathlib import Path

import numpy as np
import pytest
import tvm
from test_language_llvm import elementwise_add, matmul

import tilelang
from generator import Project, load_project
from projects import REPO
from tilelang import CompiledArtifact, KernelParam, TargetError
from tilelang import transform as tl_transform
from tilelang.engine import pipelines
from tilelang.engine.lowering import lower_phases
from tilelang.engine.registry import BACKENDS

MODEL = load_project(Project.at(REPO))
RNG = np.random.default_rng(7)


def test_registry_holds_every_backend_spec() -> None:
    assert sorted(BACKENDS) == sorted(b.name for b in MODEL.backends)
    assert {"llvm", "c", "cuda", "hip", "webgpu", "tenstorrent"} <= set(BACKENDS)


@pytest.mark.parametrize("name", [b.name for b in MODEL.lowering_backends])
def test_each_backend_package_follows_the_contract(name: str) -> None:
    module = importlib.import_module(f"tilelang.engine.{name}.lower")
    camel = "".join(part.capitalize() for part in name.split("_"))
    for attr in ("lower", "LowerAndLegalize", f"OptimizeFor{camel}", f"Split{camel}Kernels"):
        assert callable(getattr(module, attr)), f"{name}: {attr}"


def test_unknown_target_lists_the_registered_ones() -> None:
    registered = ", ".join(sorted(BACKENDS))  # the registry, whatever backends were added to it
    with pytest.raises(TargetError, match=rf"unknown target 'tpu'; registered targets: {re.escape(registered)}$"):
        tilelang.lower(matmul(64, 64, 64, 32, 32, 32, "float32"), target="tpu")


def test_tvm_target_objects_dispatch_by_keys_then_kind() -> None:
    from tilelang.engine.backend import resolve

    assert resolve(tvm.target.Target("cuda"), BACKENDS).name == "cuda"
    assert resolve(tvm.target.Target({"kind": "llvm"}), BACKENDS).name == "llvm"
    assert resolve(tvm.target.Target({"kind": "ext_dev", "keys": ["tenstorrent"]}), BACKENDS).name == "tenstorrent"
    with pytest.raises(TargetError, match="no backend for target kind 'opencl'"):
        resolve(tvm.target.Target("opencl"), BACKENDS)


def test_llvm_artifact_executes() -> None:
    artifact = tilelang.lower(matmul(128, 96, 64, 32, 32, 32, "float32"), target="llvm")
    assert isinstance(artifact, CompiledArtifact)
    assert artifact.params == [KernelParam("A", "float32", (128, 64)), KernelParam("B", "float32", (64, 96)),
                               KernelParam("C", "float32", (128, 96))]
    a, b = RNG.standard_normal((128, 64), "float32"), RNG.standard_normal((64, 96), "float32")
    c = np.zeros((128, 96), "float32")
    arrays = [tvm.runtime.tensor(x) for x in (a, b, c)]
    artifact.rt_mod[artifact.entry_name](*arrays)
    np.testing.assert_allclose(arrays[2].numpy(), a @ b, rtol=1e-4, atol=1e-4)
    assert "define" in artifact.kernel_source  # LLVM IR text


def test_runtime_only_and_host_codegen_flags() -> None:
    kernel = matmul(64, 64, 64, 32, 32, 32, "float32")
    only = tilelang.lower(kernel, target="llvm", runtime_only=True)
    assert only.rt_mod is not None and only.device_mod is None and only.host_mod is None
    no_device = tilelang.lower(kernel, target="c", enable_device_compile=False)
    assert no_device.kernel_source == "" and no_device.device_mod is not None


def test_c_backend_emits_c_with_the_kernel_loops() -> None:
    artifact = tilelang.lower(elementwise_add(64, 64, 32, 32), target="c")
    source = artifact.kernel_source
    assert artifact.rt_mod is None
    assert "int32_t main(" in source or "main(" in source
    assert source.count("for (int32_t") >= 3  # block loops and the element loops
    kernel = tilelang.compile(elementwise_add(64, 64, 32, 32), target="c")
    with pytest.raises(tilelang.TileLangError, match="produces source only"):
        kernel(np.zeros((64, 64), "float32"), np.zeros((64, 64), "float32"), np.zeros((64, 64), "float32"))


def test_cuda_backend_emits_a_global_kernel() -> None:
    artifact = tilelang.lower(matmul(64, 64, 64, 32, 32, 32, "float16", "float"), target="cuda")
    source = artifact.kernel_source
    assert 'extern "C" __global__ void' in source
    assert "blockIdx.x" in source and "blockIdx.y" in source
    assert "__shared__" in source
    if not tvm.cuda(0).exist:
        assert artifact.rt_mod is None


@pytest.mark.parametrize("name", ["hip", "webgpu"])
def test_other_gpu_backends_work_or_say_they_are_unavailable(name: str) -> None:
    try:
        artifact = tilelang.lower(matmul(64, 64, 64, 32, 32, 32, "float32"), target=name)
    except TargetError as exc:
        assert f"backend '{name}' is not available in this TVM build: " in str(exc)
    else:
        assert "main_kernel" in artifact.kernel_source


def test_passes_are_tvm_passes_named_from_their_specs() -> None:
    for pass_ in MODEL.passes:
        factory = tl_transform.PASSES[pass_.name]
        made = factory(tvm.target.Target("llvm")) if pass_.context_args else factory()
        assert isinstance(made, tvm.transform.Pass)
        assert made.info.name == f"tl.{pass_.name}"


def test_pipelines_run_their_spec_steps_in_order() -> None:
    seen: list[str] = []

    @tvm.ir.instrument.pass_instrument
    class Record:
        def run_before_pass(self, mod: tvm.IRModule, info: tvm.transform.PassInfo) -> None:
            seen.append(info.name)

    mod = tvm.IRModule({"main": matmul(64, 64, 64, 32, 32, 32, "float32")})
    target = BACKENDS["llvm"].make_target()
    with tvm.transform.PassContext(instruments=[Record()]), target:
        pipelines.lower_and_legalize(mod, target)
    spec = next(p for p in MODEL.pipelines if p.name == "lower_and_legalize")
    # A hook pass runs inside its Sequential of the same name: count each name once per run.
    ours = [name for i, name in enumerate(seen) if name.startswith("tl.") and (i == 0 or seen[i - 1] != name)]
    assert ours == [f"tl.{s.pass_name}" for s in spec.steps]


def test_jit_factory_uses_the_registry(tmp_path: object) -> None:
    @tilelang.jit(out_idx=[-1], target="llvm")
    def add(M: int, N: int):  # noqa: ANN202
        return elementwise_add(M, N, 32, 32)

    kernel = add(64, 96)
    assert add(64, 96) is kernel and add(32, 32) is not kernel
    a, b = RNG.standard_normal((64, 96), "float32"), RNG.standard_normal((64, 96), "float32")
    np.testing.assert_allclose(kernel(a, b), a + b, rtol=1e-6)


# ------------------------------------------------------------------------------------- backend spec mistakes


def test_target_attributes_take_tvm_spellings_and_lists(project: Path) -> None:
    """Any attribute TVM's target kind declares can be written as TVM spells it: hyphens, Array values."""
    spec = project / "specs" / "backends" / "llvm.yaml"
    text = spec.read_text("utf-8")
    attrs_line = 'attrs: {mcpu: $host_cpu, opt-level: 2, mattr: ["+sse2"]}'
    spec.write_text(text.replace("attrs: {mcpu: $host_cpu}", attrs_line))
    backend = next(b for b in load_project(Project.at(project)).backends if b.name == "llvm")
    attrs = (("mattr", ("+sse2",)), ("mcpu", "$host_cpu"), ("opt-level", 2))
    assert backend.target.attrs == attrs
    target = dataclasses.replace(BACKENDS["llvm"], target_attrs=attrs).make_target()
    assert target.attrs["opt-level"] == 2 and list(target.attrs["mattr"]) == ["+sse2"]
    artifact = tilelang.lower(elementwise_add(64, 64, 32, 32), target=target)  # and it compiles
    assert "define" in artifact.kernel_source


def test_a_target_attribute_tvm_rejects_names_the_backend_spec() -> None:
    wrong = dataclasses.replace(BACKENDS["llvm"], target_attrs=(("opt_level", 2),))
    with pytest.raises(TargetError, match=r"^backend 'llvm': TVM rejects the target of specs/backends/llvm\.yaml: "
                                          r"Unknown config option 'opt_level'"):
        wrong.make_target()


@pytest.mark.parametrize(("name", "pipeline", "why"), [
    ("llvm", "optimize_gpu", r"codegen 'llvm' compiles blocks as serial loops, but the pipeline left the launches "
                             r"blockIdx\.x, blockIdx\.y"),
    ("c", "optimize_gpu", r"codegen 'c' compiles blocks as serial loops"),
    ("cuda", "optimize_cpu", r"codegen 'cuda' compiles each block launch .* into a device kernel, but the pipeline "
                             r"left none"),
])
def test_a_codegen_its_pipeline_does_not_fit_is_named_as_such(name: str, pipeline: str, why: str) -> None:
    """Issue 20: such a pairing was reported as "not available in this TVM build"."""
    backend = dataclasses.replace(BACKENDS[name], pipeline=pipeline)
    module = backend.load()
    camel = name.capitalize()
    message = rf"^backend '{name}': codegen '{name}' does not fit its pipeline '{pipeline}' \({backend.spec}\): {why}"
    with pytest.raises(tilelang.TileLangError, match=message):
        lower_phases(backend, matmul(64, 64, 64, 32, 32, 32, "float32"), name, None,
                     legalize=module.LowerAndLegalize, optimize=getattr(pipelines, pipeline),
                     split=getattr(module, f"Split{camel}Kernels"), runtime_only=False, enable_host_codegen=True,
                     enable_device_compile=True)
