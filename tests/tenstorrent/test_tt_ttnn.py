"""run_ttnn.py, the ttnn host program kernel.save writes next to main.cpp, and execution_backend="ttnn".

No Tenstorrent device is here. What is checked:
- the script, main.cpp and the kernels agree on every kernel's compile-time arguments (one plan, three readings);
- every ttnn name the script uses is exported by the Python binding of the profile's ttnn wheel (its module strings;
  the wheel is fetched as make check-metal fetches it: offline, the test fails unless
  TILELANG_CHECK_METAL_OFFLINE_OK=1 says to skip it);
- with a Python that has the ttnn 0.81.1 wheel installed ($TILELANG_TTNN_PYTHON, default ../.peers/ttnn-venv next to
  the checkout; skipped without it), `run_ttnn.py --dry-run` builds every descriptor with the real ttnn module, and
  reading them back gives the plan; without a device the script says so;
- execution_backend="ttnn" refuses, with the reason, what it cannot run.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from tt_kernels import CORPUS, matmul, matmul_bias_relu

import tilelang
from projects import REPO
from tilelang.errors import TileLangError
from tilelang.tenstorrent import PROFILES, ttnn_host
from tilelang.tenstorrent.metalium import MetaliumProgram

sys.path.insert(0, str(REPO))
from tools.check_metal import jit, ttnn_names, wheels  # noqa: E402

TTNN_PYTHON = Path(os.environ.get("TILELANG_TTNN_PYTHON", REPO.parent / ".peers" / "ttnn-venv" / "bin" / "python"))
KERNELS = ("gemm_bias_relu", "gemm_256x256x256_b64x64x32_bfloat16_float", "attention_pv_bhsd", "dram_to_dram_copy",
           "unary_relu", "row_reduce_sum", "int32_block_copy", "gemm_ragged_100x200x72", "softmax_ragged_rows_of_1")


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Kernels of the corpus saved by kernel.save (bf16 GEMMs with multicast, fp32 partial sums, N-D, no compute)."""
    out = tmp_path_factory.mktemp("ttnn")
    return {name: tilelang.compile(CORPUS[name](), target="tenstorrent").save(out / name) for name in KERNELS}


def plan_of(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "tt.plan.json").read_text())


def kernel_accessors(folder: Path, role: str, plan: dict[str, Any]) -> list[str]:
    """The tensors of a kernel's chained accessors, in chain order, as its C++ binds them."""
    text = (folder / f"{role}.cpp").read_text()
    chain = re.findall(r"constexpr auto (accessor_args\w*) = TensorAccessorArgs<([^>]*)>\(\);", text)
    previous = None
    for name, offset in chain:  # the first at 0, each next at its predecessor's next_compile_time_args_offset()
        assert offset == ("0" if previous is None else f"{previous}.next_compile_time_args_offset()"), text
        previous = name
    kernel = plan["kernels"][role]
    values = kernel["runtime_arg_values"][0]["args"]
    bound = dict(re.findall(r"TensorAccessor\((accessor_args\w*), (\w+),", text))
    return [values[kernel["runtime_args"].index(bound[name])]["tensor"] for name, _ in chain]


@pytest.mark.parametrize("name", KERNELS)
def test_script_main_cpp_and_kernels_agree_on_compile_time_args(saved: dict[str, Path], name: str) -> None:
    folder = saved[name]
    plan = plan_of(folder)
    script = ttnn_host.load_script(folder / ttnn_host.SCRIPT)
    main_cpp = (folder / "main.cpp").read_text()
    pages = {t["name"]: t["page_bytes"] for t in plan["tensors"]}
    for role in ("reader", "compute", "writer"):
        appended = re.findall(rf"TensorAccessorArgs\(\*(\w+)\)\.append_to\({role}_compile_args\)", main_cpp)
        assert [n for n, _ in script.ACCESSORS[role]] == appended == kernel_accessors(folder, role, plan)
        # tt-metal's interleaved DRAM accessor as check-metal compiles the kernels with: [IsDram, page bytes]
        interleaved = script.compile_time_args(role, lambda t: [2, pages[t]])
        assert interleaved == jit.compile_time_args(plan, role)
        assert len(interleaved) == len(appended) * PROFILES[plan["device"]["profile"]].accessor_compile_time_args


def test_script_refuses_offsets_its_accessors_do_not_produce(saved: dict[str, Path], tmp_path: Path) -> None:
    plan = plan_of(saved["gemm_bias_relu"])
    plan["kernels"]["reader"]["compile_time_args"][1]["offset"] = 3  # B read at 3; A's accessor ends at 2
    (tmp_path / "run_ttnn.py").write_text(ttnn_host.render_ttnn(plan))
    script = ttnn_host.load_script(tmp_path / "run_ttnn.py")
    with pytest.raises(script.ProgramError, match="reader kernel: the accessor of B would start at compile-time "
                                                  "argument 2, the kernel reads it at 3"):
        script.compile_time_args("reader", lambda t: [2, 2048])


def test_what_has_no_ttnn_host_program_says_why(saved: dict[str, Path]) -> None:
    plan = plan_of(saved["unary_relu"])
    assert ttnn_host.unsupported(plan) is None
    old = dict(plan, device=dict(plan["device"], profile="tilelang_tt_2025"))
    assert ttnn_host.unsupported(old) == (
        "API profile tilelang_tt_2025 has no ttnn host program (its ttnn 0.65.0 wheel has no ttnn.generic_op with "
        "ProgramDescriptor; ttnn_generic_op in specs/backends/tenstorrent.yaml)")
    fp16 = tilelang.compile(matmul(64, 64, 64, 32, 32, 32, "float16"), target="tenstorrent")
    assert ttnn_host.SCRIPT not in fp16.artifact.rt_mod.files
    with pytest.raises(TileLangError, match=r"execution_backend='ttnn': ttnn has no DataType for Float16 \(tensor "
                                            r"A, tensor B, tensor C, CB 0 \(A_shared\).*ttnn has .*Float16_b "
                                            r"\(ttnn.bfloat16\)"):
        tilelang.compile(matmul(64, 64, 64, 32, 32, 32, "float16"), target="tenstorrent", execution_backend="ttnn")


def test_split_k_atomic_add_has_no_ttnn_host_program() -> None:
    """T.atomic_add adds onto what C holds, but generic_op's outputs are tensors it allocates: refused, named."""
    split_k = tilelang.compile(CORPUS["split_k_gemm_tile_atomic"](), target="tenstorrent")
    assert ttnn_host.SCRIPT not in split_k.artifact.rt_mod.files
    with pytest.raises(TileLangError, match=r"execution_backend='ttnn': tensor\(s\) C are read and written by the "
                                            r"kernel \(T.atomic_add adds onto what they hold\)"):
        tilelang.compile(CORPUS["split_k_gemm_tile_atomic"](), target="tenstorrent", execution_backend="ttnn")


def test_execution_backend_ttnn_refuses_what_it_cannot_run(monkeypatch: pytest.MonkeyPatch) -> None:
    func = matmul_bias_relu(64, 64, 64, 32, 32, 32)
    default = tilelang.compile(func, target="tenstorrent")
    assert type(default.artifact.rt_mod) is MetaliumProgram  # the emulator stays the default
    monkeypatch.setitem(sys.modules, "ttnn", None)  # `import ttnn` raises ImportError
    with pytest.raises(TileLangError, match=r"kernel 'main': execution_backend='ttnn': the ttnn package is not "
                                            r"importable \(.*\); install the wheel the kernels were checked against: "
                                            r"pip install ttnn==0\.81\.1"):
        tilelang.compile(func, target="tenstorrent", execution_backend="ttnn")
    factory = tilelang.jit(target="tenstorrent", execution_backend="ttnn")(matmul_bias_relu)
    with pytest.raises(TileLangError, match="execution_backend='ttnn': the ttnn package is not importable"):
        factory(64, 64, 64, 32, 32, 32)
    # ttnn 0.81.1 without a chip: GetNumAvailableDevices raises TT_FATAL (seen with the real wheel, test below)
    fake = types.ModuleType("ttnn")

    def no_chip() -> int:
        raise RuntimeError("TT_FATAL @ tt_cluster.cpp:129: num_chips > 0\ninfo:\nNo chips detected in the cluster\n")

    fake.GetNumAvailableDevices = no_chip  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ttnn", fake)
    with pytest.raises(TileLangError, match=r"execution_backend='ttnn': no Tenstorrent device 0 \(No chips detected "
                                            r"in the cluster\)$"):
        tilelang.compile(func, target="tenstorrent", execution_backend="ttnn")
    with pytest.raises(TileLangError, match="execution_backend='ttnn' runs kernels of backend 'tenstorrent'; this one "
                                            "was compiled for target 'llvm'"):
        tilelang.compile(matmul(64, 64, 64, 32, 32, 32), target="llvm", execution_backend="ttnn")


@pytest.fixture(scope="module")
def bindings() -> dict[str, Path]:
    """The Python binding of each generic_op profile's ttnn wheel."""
    try:
        return {p.ttnn_wheel: wheels.ttnn_binding(p.ttnn_wheel) for p in PROFILES.values() if p.ttnn_generic_op}
    except wheels.Offline as exc:
        if os.environ.get("TILELANG_CHECK_METAL_OFFLINE_OK") == "1":
            pytest.skip(f"offline: {exc}")
        raise


@pytest.mark.parametrize("profile", sorted(p.name for p in PROFILES.values() if p.ttnn_generic_op))
def test_every_ttnn_name_the_script_uses_is_exported(saved: dict[str, Path], bindings: dict[str, Path],
                                                     profile: str) -> None:
    plan = plan_of(saved["gemm_bias_relu"])  # semaphores, NoC coordinates, a Float32 CB: every part of the template
    script = ttnn_host.render_ttnn(dict(plan, device=dict(plan["device"], profile=profile)))
    used = ttnn_names.used(script)
    assert {"generic_op", "ProgramDescriptor", "CBFormatDescriptor", "buffer_index", "SemaphoreDescriptor",
            "RuntimeArgs", "TensorAccessorArgs", "get_compile_time_args", "worker_core_from_logical_core"} <= set(used)
    assert not {"items", "reshape", "add_argument", "dry_run", "accessor_args"} & set(used)  # Python's and its own
    assert ttnn_names.missing(script, bindings[PROFILES[profile].ttnn_wheel]) == []


def test_misspelt_ttnn_names_are_reported(saved: dict[str, Path], bindings: dict[str, Path]) -> None:
    script = (saved["gemm_bias_relu"] / ttnn_host.SCRIPT).read_text()
    for right, wrong in [("buffer_index=", "buffer_idx="), ("ttnn.CBDescriptor(", "ttnn.CBDescriptors("),
                         (".get_compile_time_args()", ".compile_time_arguments()"),
                         ("NOC.RISCV_1_default", "NOC.RISCV_1_dflt")]:
        assert right in script
        name = re.sub(r"\W", "", wrong.split(".")[-1].split("=")[0].split("(")[0])
        assert [m for m in ttnn_names.missing(script.replace(right, wrong), bindings["0.81.1"])
                if m.endswith(f": {name}")], wrong


def ttnn_python() -> Path:
    if not TTNN_PYTHON.exists():
        pytest.skip(f"no Python with the ttnn 0.81.1 wheel at {TTNN_PYTHON} (create it: python3.12 -m venv "
                    f"{TTNN_PYTHON.parents[1]} && {TTNN_PYTHON.parent}/pip install ttnn==0.81.1; or set "
                    "TILELANG_TTNN_PYTHON)")
    done = subprocess.run([str(TTNN_PYTHON), "-c", "import importlib.metadata as m; print(m.version('ttnn'))"],
                          capture_output=True, text=True)
    if done.returncode != 0 or done.stdout.strip() != "0.81.1":
        pytest.skip(f"{TTNN_PYTHON} has no ttnn 0.81.1 ({(done.stdout + done.stderr).strip()[-200:]})")
    return TTNN_PYTHON


def run_script(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ttnn_python()), str(folder / ttnn_host.SCRIPT), *args], capture_output=True,
                          text=True, timeout=300, cwd=folder)


def expected_args(values: list[Any], semaphores: list[str]) -> list[int]:
    """A plan's runtime arguments as a dry run passes them: device values 0, semaphores their ids."""
    return [v if isinstance(v, int) else semaphores.index(v["semaphore"]) if "semaphore" in v else 0 for v in values]


@pytest.mark.parametrize("name", ["gemm_bias_relu", "attention_pv_bhsd", "row_reduce_sum", "gemm_ragged_100x200x72"])
def test_dry_run_builds_every_descriptor_with_the_real_ttnn(saved: dict[str, Path], name: str) -> None:
    folder = saved[name]
    done = run_script(folder, "--dry-run")
    assert done.returncode == 0, done.stderr[-2000:]
    built, plan = json.loads(done.stdout), plan_of(folder)
    cores = sum((r[2] - r[0] + 1) * (r[3] - r[1] + 1) for r in plan["core_ranges"])
    assert [(k["source"], k["config"], k["cores"]) for k in built["kernels"]] == [
        ("reader.cpp", "DataMovementConfigDescriptor", cores), ("compute.cpp", "ComputeConfigDescriptor", cores),
        ("writer.cpp", "DataMovementConfigDescriptor", cores)]
    semaphores = [s["name"] for s in plan["semaphores"]]
    for kernel, role in zip(built["kernels"], ("reader", "compute", "writer"), strict=True):
        width = PROFILES[plan["device"]["profile"]].accessor_compile_time_args
        assert kernel["compile_time_args"] == [0] * width * len(plan["kernels"][role]["compile_time_args"])
        assert kernel["runtime_args"] == {f"{r['core'][0]},{r['core'][1]}": expected_args(r["args"], semaphores)
                                          for r in plan["kernels"][role]["runtime_arg_values"]}
    assert built["cbs"] == [{"total_size": c["depth"] * c["page_bytes"], "cores": cores, "formats": [
        {"index": c["index"], "data_format": jit.FORMAT_CODES[c["data_format"]], "page_size": c["page_bytes"]}]}
        for c in plan["cbs"]]
    assert built["semaphores"] == [{"id": i, "initial_value": s["initial_value"], "cores": cores}
                                   for i, s in enumerate(plan["semaphores"])]


def test_without_a_device_the_script_says_so(saved: dict[str, Path]) -> None:
    if Path("/dev/tenstorrent").exists():
        pytest.skip("a Tenstorrent device is present")
    folder = saved["unary_relu"]
    (folder / "data").mkdir(exist_ok=True)
    (folder / "data" / "A.bin").write_bytes(bytes(64 * 64 * 2))
    done = run_script(folder)
    assert done.returncode == 1
    last = done.stderr.strip().splitlines()[-1]
    assert last == "run_ttnn.py: no Tenstorrent device 0 (No chips detected in the cluster)"
    assert "Traceback" not in done.stderr


def test_script_fills_constants_and_pads_1d_tensors(saved: dict[str, Path]) -> None:
    """The tensors run_ttnn.py uploads for a row reduction: the input as its matrix, the reduce scaler filled from the
    plan (its rows, zero elsewhere), and the 1-D output read back from row 0 of its padded tile row."""
    import numpy as np

    script = ttnn_host.load_script(saved["row_reduce_sum"] / ttnn_host.SCRIPT)
    plan = plan_of(saved["row_reduce_sum"])
    scaler = next(t for t in plan["tensors"] if "constant" in t)
    user_inputs = [t for t in plan["tensors"] if t["role"] == "input" and "constant" not in t]
    output = next(t for t in plan["tensors"] if t["role"] == "output")

    class Tensor:  # what ttnn.Tensor and allocate_tensor_on_device are given
        def __init__(self, tensor: Any = None, data_type: str = "", **_: Any) -> None:
            self.data, self.data_type = tensor, data_type

        def buffer_page_size(self) -> int:
            return 1024 * (4 if self.data_type == "fp32" else 2)

    fake = types.SimpleNamespace(DRAM_MEMORY_CONFIG=None, TILE_LAYOUT=None, Tensor=Tensor, Shape=list,
                                 bfloat16="bf16", float32="fp32",
                                 allocate_tensor_on_device=lambda shape, data_type, *_: Tensor(np.zeros(shape),
                                                                                               data_type))
    values = {t["name"]: np.arange(np.prod(t["shape"]), dtype=np.float32).reshape(t["shape"]) + i
              for i, t in enumerate(user_inputs)}
    tensors = script.device_tensors(fake, None, values)
    order = [t["name"] for t in plan["tensors"] if t["role"] == "input"] + [output["name"]]
    assert list(tensors) == order  # generic_op's order: inputs (the constant among them), then outputs
    for name, array in values.items():
        np.testing.assert_array_equal(tensors[name].data, array)
    filled = tensors[scaler["name"]].data
    expected = np.zeros(filled.shape, np.float32)
    expected[scaler["constant"]["rows"], :] = scaler["constant"]["value"]
    np.testing.assert_array_equal(filled, expected)
    assert len(output["shape"]) == 1 and tensors[output["name"]].data.shape == (32, output["shape"][0])
    padded = np.zeros((32, output["shape"][0]), np.float32)
    padded[0] = np.arange(output["shape"][0])
    np.testing.assert_array_equal(script.logical(output["name"], padded), np.arange(output["shape"][0]))


def test_script_pads_and_crops_ragged_tensors(saved: dict[str, Path]) -> None:
    """A softmax over 37 x 72 in row blocks of 1 (issue 28): run_ttnn.py uploads X as InferTTLayout pads it (each row
    on a tile row of its own, 72 columns padded to 96) with its pad_value (-inf, which the row maximum needs) and reads
    the user's 37 x 72 back out of Y's padded matrix, as main.cpp does."""
    import numpy as np

    folder = saved["softmax_ragged_rows_of_1"]
    script = ttnn_host.load_script(folder / ttnn_host.SCRIPT)
    x = next(t for t in plan_of(folder)["tensors"] if t["name"] == "X")
    assert (x["shape"], x["padded_shape"], x["blocks"], x["pad_value"]) == ([37, 72], [37 * 32, 96], [1, 0], "-inf")

    class Tensor:
        def __init__(self, tensor: Any = None, data_type: str = "", **_: Any) -> None:
            self.data, self.data_type = tensor, data_type

        def buffer_page_size(self) -> int:
            return 1024 * (4 if self.data_type == "fp32" else 2)

    fake = types.SimpleNamespace(DRAM_MEMORY_CONFIG=None, TILE_LAYOUT=None, Tensor=Tensor, Shape=list,
                                 bfloat16="bf16", float32="fp32",
                                 allocate_tensor_on_device=lambda shape, data_type, *_: Tensor(np.zeros(shape),
                                                                                               data_type))
    values = np.arange(37 * 72, dtype=np.float32).reshape(37, 72)
    uploaded = script.device_tensors(fake, None, {"X": values})["X"].data
    assert uploaded.shape == (37 * 32, 96)
    np.testing.assert_array_equal(uploaded[::32, :72], values)  # row r at row 32 r, its first 72 columns
    assert np.isneginf(uploaded[1:32]).all() and np.isneginf(uploaded[:, 72:]).all()
    np.testing.assert_array_equal(script.logical("X", uploaded), values)
