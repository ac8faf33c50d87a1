"""Metalium artifacts of lowered Tenstorrent kernels.

Static checks (the plan against the schema of specs/records/tt_plan.yaml, kernels calling only the spellings of the
selected API profile, the host program's per-core arguments), then run in the emulator and compared with numpy (every
corpus program compiled with `-Wall -Werror`: tests/tenstorrent/test_tt_corpus_compiles.py).

Tolerances (bf16 results of inputs drawn from U(-1, 1)): with fp32 accumulation, |got - ref| <= 2^-7 * max|ref|
(the final rounding to bf16 plus fp32 sums in a different order); with bf16 accumulation in DST every one of the
K/32 tile steps rounds the partial sums to bf16, so the bound is (K/32 + 1) * 2^-8 * max|ref|. Element-wise
results: 2^-7 relative (one bf16 rounding of the inputs' exact result, exp in fp32).
"""

from __future__ import annotations

import copy
import json
import re
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import ml_dtypes
import numpy as np
import pytest
from checkout_edits import PROFILE_SPEC, SECOND_PROFILE_LINE, TenstorrentEdits, run_in
from tt_ir import calls
from tt_kernels import GEMMS, elementwise_binary, elementwise_unary, gemm_id, matmul, matmul_bias_relu
from tt_profiles import PROFILE, accessor_args, protocol_calls, spelling

import tilelang
from tilelang.tenstorrent import host_args, intrinsics
from tilelang.tenstorrent.kernel_cpp import TTCodegenError, kernel_source
from tilelang.tenstorrent.metalium import validate_plan
from tilelang.tenstorrent.plan_schema import SCHEMAS
from tilelang.tenstorrent.records import COUNTERS
from tilelang.tenstorrent.roles import KERNEL_ROLES

BF16 = ml_dtypes.bfloat16

def random(shape: tuple[int, ...], dtype: str, seed: int, low: float = -1.0, high: float = 1.0) -> np.ndarray:
    values = np.random.default_rng(seed).uniform(low, high, shape).astype(np.float32)
    return values.astype(BF16 if dtype == "bfloat16" else np.dtype(dtype))


def f32(a: np.ndarray) -> np.ndarray:
    return a.astype(np.float32)


# ------------------------------------------------------------------------------------------- static checks

@pytest.fixture(scope="module")
def gemm_program() -> Any:
    art = tilelang.lower(matmul(256, 256, 256, 64, 64, 32, dtype="bfloat16"), target="tenstorrent")
    return art.rt_mod


def test_artifacts_are_the_eight_files(gemm_program: Any, tmp_path: Path) -> None:
    """Seven under a profile whose ttnn wheel has no generic_op: then there is no ttnn host program to write."""
    out = gemm_program.save(tmp_path / "gemm")
    script = ["run_ttnn.py"] if intrinsics.PROFILES[PROFILE].ttnn_generic_op else []
    assert sorted(p.name for p in out.iterdir()) == sorted(
        ["reader.cpp", "compute.cpp", "writer.cpp", "main.cpp", "CMakeLists.txt", "tt.plan.json", host_args.FILE,
         *script])
    assert "find_package(TT-Metalium REQUIRED)" in (out / "CMakeLists.txt").read_text()


def test_plan_matches_the_schema_of_its_record_spec(gemm_program: Any) -> None:
    schema = SCHEMAS["tt_plan"]  # rendered from specs/records/tt_plan.yaml
    plan = json.loads(gemm_program.files["tt.plan.json"])
    jsonschema.Draft202012Validator(schema).validate(plan)
    assert {t["name"]: t["role"] for t in plan["tensors"]} == {"A": "input", "B": "input", "C": "output"}
    assert [t["shape"] for t in plan["tensors"]] == [[256, 256]] * 3
    cores = [tuple(w["core"]) for w in plan["work_partition"]]
    assert len(cores) == 16 and sum(w["count"] for w in plan["work_partition"]) == 16
    for role in ("reader", "compute", "writer"):
        assert [tuple(r["core"]) for r in plan["kernels"][role]["runtime_arg_values"]] == cores
    assert plan["kernels"]["compute"]["fp32_dest_acc"] is True  # the float32 accumulator, though packed out as bf16


def test_plan_schema_errors_name_the_path(gemm_program: Any) -> None:
    plan = json.loads(gemm_program.files["tt.plan.json"])
    plan["cbs"][0]["index"] = "zero"
    with pytest.raises(TTCodegenError, match=r"tt.plan.json does not match its schema at cbs/0/index: 'zero'"):
        validate_plan(plan)


def test_save_checks_the_plan_against_its_schema(gemm_program: Any, tmp_path: Path) -> None:
    broken = copy.deepcopy(gemm_program)
    broken.plan["cbs"][0]["index"] = "zero"
    with pytest.raises(TTCodegenError, match=r"tt.plan.json does not match its schema at cbs/0/index"):
        broken.save(tmp_path / "broken")
    assert not (tmp_path / "broken").exists()


def test_host_builds_are_keyed_by_content_not_by_folder(emulator: Any, gemm_program: Any, tmp_path: Path) -> None:
    """Every run writes its artifacts to a new folder; the same main.cpp must not be compiled again."""
    first = emulator.build_host(gemm_program.save(tmp_path / "a") / "main.cpp")
    second = emulator.build_host(gemm_program.save(tmp_path / "b") / "main.cpp")
    assert first == second


def test_every_shape_of_a_kernel_shares_one_host_program(gemm_program: Any) -> None:
    """main.cpp reads what follows from the shapes (sizes, core ranges, runtime arguments, layouts) from tt.host_args,
    so another shape renders the same main.cpp (one cached build) with other host arguments."""
    other = tilelang.lower(matmul(100, 200, 72, 64, 64, 32, dtype="bfloat16"), target="tenstorrent").rt_mod
    assert other.files["main.cpp"] == gemm_program.files["main.cpp"]
    assert other.files[host_args.FILE] != gemm_program.files[host_args.FILE]
    assert "A.layout 1 100 72 128 96 1 1 1 1" in other.files[host_args.FILE].splitlines()


@pytest.mark.parametrize("edit,message", [
    (lambda text: text.replace("core_ranges ", "core_range "), r"tt.host_args has no line 'core_ranges'"),
    (lambda text: re.sub(r"^(compute\.fp32_dest_acc_en \d)$", r"\1 1", text, flags=re.M),
     r"'compute.fp32_dest_acc_en' is not one value in the range"),
    (lambda text: re.sub(r"^(cbs 16 \d+) \d+", r"\1 eight", text, flags=re.M),
     r"'cbs' holds a value that is no integer"),
    (lambda text: re.sub(r"^(cbs 16 \d+ \d+) \d+$", r"\1", text, flags=re.M), r"'cbs' is not lines of 4 values"),
    (lambda text: re.sub(r"^cbs 16 \d+", "cbs 16 77", text, flags=re.M),
     r"data format 77 is none of the device spec's"),
], ids=["a-line-missing", "two-values-for-one", "not-an-integer", "a-cb-cut-short", "an-unknown-data-format"])
def test_host_arguments_that_do_not_fit_main_cpp_are_named(emulator: Any, gemm_program: Any, tmp_path: Path,
                                                           edit: Any, message: str) -> None:
    """A tt.host_args that does not fit the main.cpp reading it stops the program with a message naming the file and
    the line (exit code 1: no kernel ran)."""
    out = gemm_program.save(tmp_path / "gemm")
    (out / host_args.FILE).write_text(edit((out / host_args.FILE).read_text()))
    with emulator.host_program(out / "main.cpp") as exe:
        with pytest.raises(emulator.TTEmulatorError, match=message):
            emulator.run(exe, [str(out), str(out / "data")])


def test_kernels_that_differ_in_cbs_semaphores_and_flags_share_one_host_program(gemm_program: Any) -> None:
    """The CBs, the semaphores and fp32_dest_acc_en are tt.host_args lines (issue 35): a float16 GEMM (its CBs in
    another data format) and an element-wise add (no semaphore, 16-bit DST) render the main.cpp of the bfloat16
    multicast GEMM (4 semaphores, fp32 DST) but for comments, so the emulator's cache builds one host program."""
    from tilelang.tenstorrent.host_source import canonical

    fp16 = tilelang.lower(matmul(256, 256, 256, 64, 64, 32, dtype="float16"), target="tenstorrent").rt_mod
    add = tilelang.lower(elementwise_binary(64, 64, 32, 32, "add"), target="tenstorrent").rt_mod
    plans = [gemm_program.plan, fp16.plan, add.plan]
    assert [{cb["data_format"] for cb in p["cbs"]} for p in plans] == [{"Float16_b"}, {"Float16"}, {"Float16_b"}]
    assert [len(p["semaphores"]) for p in plans] == [4, 4, 0]
    assert [p["kernels"]["compute"]["fp32_dest_acc"] for p in plans] == [True, True, False]
    main = canonical(gemm_program.files["main.cpp"])
    assert canonical(fp16.files["main.cpp"]) == main and canonical(add.files["main.cpp"]) == main


def _called_names(source: str) -> set[str]:
    code = re.sub(r"//[^\n]*", "", source)
    names = set(re.findall(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*(?:<[^;(){}]*>)?\s*[({]", code))
    return names - {"for", "if", "else", "while", "static_cast", "kernel_main", "MAIN", "NAMESPACE", "void",
                    "int32_t", "uint32_t"}


def test_kernels_call_only_the_spellings_of_the_profile(gemm_program: Any) -> None:
    spelled = {s.callee.split("<")[0] for i in intrinsics.INTRINSICS.values() for p, s in i.cpp.items()
               if p == PROFILE}
    headers = {h for i in intrinsics.INTRINSICS.values() for p, s in i.cpp.items() if p == PROFILE
               for _, h in s.headers}
    for name in ("reader.cpp", "compute.cpp", "writer.cpp"):
        text = gemm_program.files[name]
        assert _called_names(text) <= spelled, (name, _called_names(text) - spelled)
        assert set(re.findall(r'#include "([^"]+)"', text)) <= headers
    compute = gemm_program.files["compute.cpp"]
    startup = protocol_calls("compute_startup", branch='family == "matmul"')[0]  # the profile's, from the spec
    callee, arity = intrinsics.INTRINSICS[startup].cpp[PROFILE].callee, len(intrinsics.INTRINSICS[startup].args)
    assert f"{callee}({', '.join(['0', '1', '16'][:arity])});" in compute
    reader = gemm_program.files["reader.cpp"]  # offsets chained as tt-metal does, none hard-coded after the first
    if accessor_args():
        assert "constexpr auto accessor_args = TensorAccessorArgs<0>();" in reader
        assert ("constexpr auto accessor_args_1 = TensorAccessorArgs<accessor_args.next_compile_time_args_offset()>"
                "();" in reader)
    else:  # addressed without compile-time arguments
        assert "TensorAccessorArgs" not in reader
        assert reader.count(f"{spelling(protocol_calls('tensor_accessor')[-1])}") == 2


def test_main_cpp_sets_the_arguments_of_every_core(gemm_program: Any) -> None:
    """main.cpp sets every core's runtime arguments from tt.host_args (a line per core: x, y, the count, then per
    argument a (kind, a, b) triple), so that one build of it serves every shape."""
    main, lines = gemm_program.files["main.cpp"], gemm_program.files[host_args.FILE].splitlines()
    assert main.count("SetRuntimeArgs(") == 1
    assert [sum(line.startswith(f"{role}.runtime_args ") for line in lines) for role in KERNEL_ROLES] == [16] * 3
    # 4x4 blocks on 4x4 cores (shard): core (3, 1) has block row 1, column 3; it receives A from core (0, 1)
    # (multicast to cores 1..3 of row 1) and B from core (3, 3) (the last column's sender: to rows 0..2 of column
    # 3), at NoC coordinates.
    kind = host_args.ARG_KINDS
    tensor, sem = (lambda i: [kind["tensor"], i, 0]), (lambda i: [kind["semaphore"], i, 0])
    const = lambda *vs: [v for value in vs for v in (kind["constant"], value, 0)]  # noqa: E731
    noc = lambda x, y: [kind["noc_x"], x, y, kind["noc_y"], x, y]  # noqa: E731
    row = [3, 1, 24, *tensor(0), *tensor(1), *const(1, 3, 1, 1, 0), *noc(0, 1), *noc(1, 1), *noc(3, 1), *sem(0),
           *sem(1), *const(0), *noc(3, 3), *noc(3, 0), *noc(3, 2), *sem(2), *sem(3)]
    assert "reader.runtime_args " + " ".join(map(str, row)) in lines
    host = {"mesh": "mesh", "device": "device"}[intrinsics.PROFILES[PROFILE].host_api]  # main.cpp.j2's handle
    assert f"return {host}->worker_core_from_logical_core(CoreCoord{{x, y}});" in main
    bf16 = host_args.DATA_FORMAT_VALUES["Float16_b"]
    assert f"cbs 16 {bf16} 8 2048" in lines  # index, data format, depth, page bytes
    assert main.count("TensorAccessorArgs(*") == (3 if accessor_args() else 0)


def test_a_call_without_a_spelling_in_the_profile_is_an_error() -> None:
    art = tilelang.lower(matmul(64, 64, 64, 32, 32, 32, dtype="bfloat16"), target="tenstorrent",
                         enable_device_compile=False)
    # The first call of a kernel that some other profile cannot spell, and that profile.
    kernel, missing, other = next((k, name, p) for k in ("main_reader", "main_compute", "main_writer")
                                  for name in calls(art.device_mod[k]) for p in sorted(intrinsics.PROFILES)
                                  if p not in intrinsics.INTRINSICS[name].cpp)
    with pytest.raises(TTCodegenError, match=f"intrinsic '{missing}' has no C.. spelling in API profile '{other}'"):
        kernel_source(art.device_mod[kernel], kernel, other)


# ------------------------------------------------------------------------------- compile and run (emulator)

@pytest.fixture(scope="session")
def emulator() -> Any:
    from tilelang.tenstorrent import emulator as emu

    if shutil.which("g++") is None:
        pytest.fail("g++ is required: the README lists a C++ compiler as a requirement")
    emu.library()
    return emu


@pytest.mark.parametrize("shape", GEMMS, ids=gemm_id)
def test_gemm_matches_numpy(emulator: Any, shape: tuple[Any, ...]) -> None:
    m, n, k, _, _, _, dtype, acc = shape
    kernel = tilelang.compile(matmul(*shape), out_idx=[-1], target="tenstorrent")
    a, b = random((m, k), dtype, 1), random((k, n), dtype, 2)
    c = kernel(a, b)
    ref = f32(a) @ f32(b)
    scale = float(np.abs(ref).max())
    bound = 2.0**-7 * scale if acc == "float" else (k / 32 + 1) * 2.0**-8 * scale
    assert c.dtype == a.dtype and c.shape == (m, n)
    err = float(np.abs(f32(c) - ref).max())
    assert err <= bound, f"max error {err} > {bound}"
    report = kernel.last_report
    jsonschema.Draft202012Validator(SCHEMAS["tt_report"]).validate(report)  # specs/records/tt_report.yaml
    assert report["status"] == "ok"
    assert report["total"][COUNTERS.MATMUL_TILES] == (m // 32) * (n // 32) * (k // 32)


def test_multicast_gemm_reads_each_input_tile_once_and_equals_the_unicast_run(emulator: Any) -> None:
    """Blocks 64x64 on a 8x4 block grid (8x4 cores, shard): A rows are multicast along core rows and B columns
    down core columns. Same arithmetic as the run with multicast off, so the results are bit-identical; DRAM
    reads drop from one copy per core to exactly one read of every tile of A and B."""
    shape = (256, 512, 128, 64, 64, 32, "bfloat16", "float")
    m, n, k, bm, bn = shape[:5]
    shared = tilelang.compile(matmul(*shape), out_idx=[-1], target="tenstorrent")
    unicast = tilelang.compile(matmul(*shape), out_idx=[-1], target="tenstorrent",
                               pass_configs={"tl.PlanTTMulticast.enabled": False})
    a, b = random((m, k), "bfloat16", 5), random((k, n), "bfloat16", 6)
    c_shared, c_unicast = shared(a, b), unicast(a, b)
    assert np.array_equal(c_shared.view(np.uint16), c_unicast.view(np.uint16))
    assert float(np.abs(f32(c_shared) - f32(a) @ f32(b)).max()) <= 2.0**-7 * float(np.abs(f32(a) @ f32(b)).max())
    plan, total = shared.artifact.rt_mod.plan, shared.last_report["total"]
    assert plan["partition_mode"] == "shard" and len(plan["work_partition"]) == (m // bm) * (n // bn)
    assert [s["name"] for s in plan["semaphores"]] == ["A_sender_sem", "A_receiver_sem", "B_sender_sem",
                                                       "B_receiver_sem"]
    assert total[COUNTERS.DRAM_BYTES_READ] == a.nbytes + b.nbytes
    assert unicast.last_report["total"][COUNTERS.DRAM_BYTES_READ] == a.nbytes * (n // bn) + b.nbytes * (m // bm)
    # every tile sent once, to its whole row/column, in a linked transaction the valid flag closes
    assert total[COUNTERS.NOC_MULTICAST_LINKED_BYTES] == a.nbytes + b.nbytes
    assert total[COUNTERS.NOC_MULTICAST_BYTES] == 0
    main = shared.artifact.rt_mod.files["main.cpp"]
    assert "CreateSemaphore(program, cores, " in main and "worker_core_from_logical_core" in main
    assert "semaphores 0 0 0 0" in shared.artifact.rt_mod.files[host_args.FILE].splitlines()  # their initial values


@pytest.mark.parametrize("pattern,replacement,message", [
    # the block lands unreserved, or, first on some schedules, the receivers' ready signal races the sender's reset
    # (reported at the receivers' increment or at the sender's set, whichever the schedule runs second)
    (r"\n *noc_semaphore_wait\(sender_sem_ptr(_1)?, 1\);", "",
     "which it has not reserved|races with its last set|races with an earlier write"),
    (r"(noc_semaphore_inc\(.*), 1\);", r"\1, 0);", "deadlock"),
])
def test_a_generated_multicast_without_its_handshake_is_caught(emulator: Any, tmp_path: Path, pattern: str,
                                                               replacement: str, message: str) -> None:
    """Every step of the handshake matters: without the sender's wait for ready receivers the block lands in
    L1 a receiver has not reserved; when receivers never signal ready the sender waits forever."""
    program = tilelang.lower(matmul(64, 64, 64, 32, 32, 32, dtype="bfloat16"), target="tenstorrent").rt_mod
    reader, count = re.subn(pattern, replacement, program.files["reader.cpp"])
    assert count == 2  # once for A, once for B
    program.files["reader.cpp"] = reader
    a = b = np.ones((64, 64), BF16)
    with pytest.raises(emulator.TTEmulatorError, match=message):
        program.run([a, b, np.zeros((64, 64), BF16)], workdir=tmp_path)


@pytest.mark.parametrize("op", ["add", "sub", "mul"])
def test_eltwise_binary_matches_numpy(emulator: Any, op: str) -> None:
    kernel = tilelang.compile(elementwise_binary(64, 128, 32, 64, op), out_idx=[-1], target="tenstorrent")
    a, b = random((64, 128), "bfloat16", 3), random((64, 128), "bfloat16", 4)
    ref = {"add": np.add, "sub": np.subtract, "mul": np.multiply}[op](f32(a), f32(b))
    c = kernel(a, b)
    np.testing.assert_allclose(f32(c), ref, rtol=2.0**-7, atol=2.0**-10)


@pytest.mark.parametrize("op", ["exp", "relu"])
def test_sfpu_unary_matches_numpy(emulator: Any, op: str) -> None:
    kernel = tilelang.compile(elementwise_unary(64, 64, 32, 32, op), out_idx=[-1], target="tenstorrent")
    a = random((64, 64), "bfloat16", 5, -2.0, 2.0)
    ref = np.exp(f32(a)) if op == "exp" else np.maximum(f32(a), 0)
    np.testing.assert_allclose(f32(kernel(a)), ref, rtol=2.0**-7, atol=2.0**-10)


def test_gemm_bias_relu_matches_numpy(emulator: Any) -> None:
    kernel = tilelang.compile(matmul_bias_relu(128, 128, 64, 64, 64, 32), out_idx=[-1], target="tenstorrent")
    a, b, bias = random((128, 64), "bfloat16", 6), random((64, 128), "bfloat16", 7), random((128, 128), "bfloat16", 8)
    ref = np.maximum(f32(a) @ f32(b) + f32(bias), 0)
    d = kernel(a, b, bias)
    err = float(np.abs(f32(d) - ref).max())
    assert err <= 2.0**-6 * float(np.abs(ref).max()), err
    assert float(f32(d).min()) >= 0.0


def test_jit_decorator_runs_on_the_emulator(emulator: Any, tmp_path: Path) -> None:
    jit_matmul = tilelang.jit(out_idx=[-1], target="tenstorrent")(matmul)
    kernel = jit_matmul(64, 64, 64, 32, 32, 32, "bfloat16", "float")
    a, b = random((64, 64), "bfloat16", 9), random((64, 64), "bfloat16", 10)
    c = kernel(a, b)
    assert float(np.abs(f32(c) - f32(a) @ f32(b)).max()) <= 2.0**-7 * float(np.abs(f32(a) @ f32(b)).max())
    saved = kernel.save(tmp_path / "artifacts")
    assert (saved / "tt.plan.json").is_file()


SECOND_PROFILE_RUN = """
import sys
import ml_dtypes, numpy as np
import tilelang
from tt_kernels import elementwise_binary, matmul
a = np.random.default_rng(1).uniform(-1, 1, (64, 96)).astype(ml_dtypes.bfloat16)
b = np.random.default_rng(2).uniform(-1, 1, (96, 64)).astype(ml_dtypes.bfloat16)
gemm = tilelang.compile(matmul(64, 64, 96, 32, 32, 32, "bfloat16", "float"), out_idx=[-1], target="tenstorrent")
c = gemm(a, b)
ref = a.astype(np.float32) @ b.astype(np.float32)
assert np.abs(c.astype(np.float32) - ref).max() <= 2.0**-7 * np.abs(ref).max()
add = tilelang.compile(elementwise_binary(64, 64, 32, 32, "add"), out_idx=[-1], target="tenstorrent")
d = add(a[:, :64].copy(), b[:64, :].copy())
assert np.allclose(d.astype(np.float32), a[:, :64].astype(np.float32) + b[:64, :].astype(np.float32), rtol=2**-7)
gemm.save(sys.argv[1])
"""


@pytest.mark.slow  # builds both C++ libraries of a checkout copy (shared: tests/checkout_edits.py)
@pytest.mark.xdist_group("tenstorrent_edits")
def test_the_second_api_profile_is_one_line_of_the_backend_spec(tenstorrent_edits: TenstorrentEdits,
                                                                 tmp_path: Path) -> None:
    """Switch specs/backends/tenstorrent.yaml's `api_profile` line, regenerate, and the same kernels compile
    to the 2025 API (namespace MAIN, mm_init, InterleavedAddrGenFast, the single-device host API) and run."""
    assert (tenstorrent_edits.root / PROFILE_SPEC).read_text("utf-8").count(SECOND_PROFILE_LINE) == 1
    out = tmp_path / "artifacts"
    done = run_in(tenstorrent_edits, "second_profile", SECOND_PROFILE_RUN, str(out))
    assert done.returncode == 0, done.stdout + done.stderr
    compute, reader = (out / "compute.cpp").read_text(), (out / "reader.cpp").read_text()
    assert "namespace NAMESPACE {\nvoid MAIN {" in compute and "mm_init(0, 1, 16);" in compute
    assert re.search(r"matmul_tiles\(0, 1, [^;]*, 0\);", compute)  # the 2025 API's 6th argument, transpose
    assert '#include "compute_kernel_api/matmul.h"' in compute
    assert "InterleavedAddrGenFast<true>{A_addr, 2048, get_dataformat(0)}" in reader
    assert "noc_async_read_tile(" in reader and '#include "dataflow_api.h"' in reader
    main = (out / "main.cpp").read_text()
    assert "IDevice* device = CreateDevice(0);" in main and "EnqueueProgram(cq, program, false);" in main
    assert "TensorAccessorArgs" not in main
