"""Regression tests of issue 15's four defects: C codegen of T.exp2, CUDA codegen of a tile op inside an `if`,
code-generation errors reported as a missing backend, and `with tvm.target.Target("c")` ignored by lower()."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import tvm

import tilelang
import tilelang.language as T
from projects import REPO
from tilelang import TargetError
from tilelang.engine import codegen
from tilelang.language import TileLangError


def math_kernel(fn):
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
        with T.Kernel(2) as bx:
            for i in T.Parallel(32):
                B[bx * 32 + i] = fn(A[bx * 32 + i])

    return main


@pytest.mark.parametrize("name, c_call", [("exp2", "exp2f("), ("exp10", "exp10f("), ("abs", "fabsf(")])
def test_c_target_lowers_exp2_and_the_other_math_ops(name, c_call):
    source = tilelang.lower(math_kernel(getattr(T, name)), target="c").kernel_source
    assert c_call in source


def test_exp2_still_runs_on_llvm():
    a = np.linspace(-3, 3, 64, dtype="float32")
    np.testing.assert_allclose(tilelang.compile(math_kernel(T.exp2), out_idx=-1, target="llvm")(a), np.exp2(a),
                               rtol=1e-5)


def test_cuda_target_generates_a_tile_op_inside_an_if():
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), B: T.Tensor((64,), "float32")):
        with T.Kernel(2) as bx:
            S = T.alloc_shared((32,), "float32")
            if bx > 0:
                T.copy(A[bx * 32], S)
                T.copy(S, B[bx * 32])

    source = tilelang.lower(main, target="cuda").kernel_source
    assert "__shared__" in source and "if (0 < ((int)blockIdx.x))" in source


def test_a_code_generation_failure_is_reported_as_such(monkeypatch):
    def fail(*args, **kwargs):
        raise RuntimeError("Something the C codegen cannot do\nUnresolved call tirx.foo")

    monkeypatch.setattr(codegen, "build_tvm", fail)
    with pytest.raises(TileLangError, match=r"backend 'c' could not generate code for kernel 'main': "
                                            r"Unresolved call tirx.foo") as err:
        tilelang.lower(math_kernel(T.exp), target="c")
    assert not isinstance(err.value, TargetError) and "not available" not in str(err.value)


def test_only_a_missing_code_generator_is_not_available(monkeypatch):
    monkeypatch.setattr(codegen, "missing_codegen", lambda kind: f"this apache-tvm build has no '{kind}' code gen")
    with pytest.raises(TargetError, match=r"backend 'c' is not available in this TVM build: .* no 'c' code gen"):
        tilelang.lower(math_kernel(T.exp), target="c")


def test_the_enclosing_target_scope_selects_the_backend():
    with tvm.target.Target("c"):
        artifact = tilelang.lower(math_kernel(T.exp))
        kernel = tilelang.compile(math_kernel(T.exp))
    assert artifact.target == "c" and "#include" in artifact.kernel_source
    assert kernel.target == "c"
    assert tilelang.lower(math_kernel(T.exp)).target == "llvm"  # no scope: llvm


def test_atomic_add_is_refused_where_blocks_run_in_parallel() -> None:
    """The loop lowering of T.atomic_add is a plain read-modify-write, right only when blocks run one after another:
    hip (whose blocks run in parallel, and which has no atomic lowering here) refuses it, naming the construct, the
    backend and why; cuda lowers it to atomicAdd."""
    from test_tilelang_examples import splitk_matmul

    kernel = splitk_matmul(64, 64, 64, 32, 32, 32, 2)
    with pytest.raises(TileLangError, match=r"T.atomic_add \(tl.tile.atomic_add\) is not supported by the 'hip' "
                                            r"backend: its blocks run in parallel"):
        tilelang.lower(kernel, target="hip")
    assert "atomicAdd(" in tilelang.lower(kernel, target="cuda").kernel_source
    assert tilelang.lower(kernel, target="c").kernel_source  # sequential blocks: accepted


# ---------------------------------------------------------------------------------------------- issue 29, round 2

def _small_gemm(M: int, acc: str = "float32") -> Any:
    @T.prim_func
    def main(A: T.Tensor((M, 32), "float16"), B: T.Tensor((32, 32), "float16"), C: T.Tensor((M, 32), acc)):
        with T.Kernel(1):
            a = T.alloc_shared((M, 32), "float16")
            b = T.alloc_shared((32, 32), "float16")
            c = T.alloc_fragment((M, 32), acc)
            T.clear(c)
            T.copy(A[0, 0], a)
            T.copy(B[0, 0], b)
            T.gemm(a, b, c)
            T.copy(c, C[0, 0])

    return main


@pytest.mark.parametrize("target", ["llvm", "tenstorrent"])
def test_a_tensor_with_a_zero_dimension_is_refused_naming_it(target: str) -> None:
    with pytest.raises(TileLangError, match=r"tensor 'A' has shape \(0, 32\), with a zero-size dimension"):
        tilelang.lower(_small_gemm(0), target=target)


def test_an_unknown_execution_backend_is_refused() -> None:
    with pytest.raises(TileLangError, match="unknown execution_backend 'tnn' .*'emulator', 'ttnn'"):
        tilelang.compile(_small_gemm(32), out_idx=[-1], target="llvm", execution_backend="tnn")


def test_a_pass_configs_key_naming_a_pass_that_does_not_exist_is_refused() -> None:
    with pytest.raises(TileLangError, match=r"names pass PlanTTMultcast, which does not exist; did you mean "
                                            r"tl\.PlanTTMulticast\.enabled\?"):
        tilelang.compile(_small_gemm(32), out_idx=[-1], target="tenstorrent",
                         pass_configs={"tl.PlanTTMultcast.enabled": False})
    # TileLang's own keys (tl.snake_case) are still accepted and ignored
    tilelang.compile(_small_gemm(32), out_idx=[-1], target="llvm", pass_configs={"tl.disable_tma_lower": True})


def test_a_comparison_of_a_bf16_value_with_a_number_parses() -> None:
    """TVM's script parser gives a Python number the other operand's dtype only for IEEE floats; bf16 failed with
    "'int' object has no attribute 'expr_ty'"."""
    import ml_dtypes

    @T.prim_func
    def relu(A: T.Tensor((32, 32), "bfloat16"), B: T.Tensor((32, 32), "bfloat16")):
        with T.Kernel(1):
            a = T.alloc_fragment((32, 32), "bfloat16")
            T.copy(A[0, 0], a)
            for i, j in T.Parallel(32, 32):
                a[i, j] = T.if_then_else(a[i, j] > 0, a[i, j], 0)
            T.copy(a, B[0, 0])

    x = np.linspace(-1, 1, 1024).reshape(32, 32).astype(ml_dtypes.bfloat16)
    out = tilelang.compile(relu, out_idx=[-1], target="llvm")(x)
    np.testing.assert_array_equal(out.astype("float32"), np.maximum(x.astype("float32"), 0))


@pytest.mark.parametrize("value", ["inf", "1e300", "-1", "nan"])
def test_an_infinite_or_invalid_emulator_timeout_is_a_clear_error(value: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from tilelang.tenstorrent import emulator

    monkeypatch.setenv("TT_EMU_TIMEOUT", value)
    with pytest.raises(emulator.TTEmulatorError, match=f"TT_EMU_TIMEOUT='{value}' is not a positive number"):
        emulator.run_timeout()


def test_the_generator_outside_a_checkout_says_it_needs_one(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "generator", "--root", str(tmp_path), "list"], capture_output=True,
                          text=True, cwd=REPO)
    assert done.returncode == 2
    assert f"{tmp_path} is not a tilelang-declarative checkout (no specs, schema, templates/ there)" in done.stderr
