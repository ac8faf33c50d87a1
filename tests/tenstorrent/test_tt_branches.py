"""Tile operations inside an if/else on Tenstorrent (issue 28): a condition computed from block indices, loop
variables and index scalars (stream-K's `if start_iter % iters_per_tile == 0 and ...`) is evaluated by the reader,
compute and writer alike, so all three take the same branch; each branch makes the values it reads and balances its
CBs on its own. Run in the emulator against numpy at a ragged shape where neighbouring blocks take different branches;
a value crossing the branch boundary and a condition read from a buffer are refused naming them."""

import shutil
from typing import Any

import ml_dtypes
import numpy as np
import pytest
import tvm
import tvm_ffi
from tt_ir import run_until
from tt_loop_kernels import branch_blocks, branch_on_index_scalar
from tvm import tirx

import tilelang
import tilelang.language as T
from tilelang import transform
from tilelang.errors import TileLangError

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def _branch_on_scalar(m: int, n: int, steps: int):
    """Stream-K's shape of control: a while loop over an index scalar, and in it a branch on that scalar."""
    @T.prim_func
    def main(A: T.Tensor((m, n), "float32"), B: T.Tensor((m, n), "float32")):
        with T.Kernel(T.ceildiv(T.ceildiv(m, 32), steps), threads=128) as bx:
            a = T.alloc_shared((32, n), "float32")
            b = T.alloc_fragment((32, n), "float32")
            row = T.alloc_var("int32")
            row = bx * steps
            while row < T.min(bx * steps + steps, T.ceildiv(m, 32)):
                T.copy(A[row * 32, 0], a)
                if row % 3 == 0:
                    T.copy(a, B[row * 32, 0])
                else:
                    for i, j in T.Parallel(32, n):
                        b[i, j] = a[i, j] * 3.0
                    T.copy(b, B[row * 32, 0])
                row = row + 1

    return main


def _gemm_or_zero(m: int, n: int, k: int):
    """Block columns of C: even ones the product over a K loop (its CBs planned in the branch), odd ones zero."""
    @T.prim_func
    def main(A: T.Tensor((m, k), "bfloat16"), B: T.Tensor((k, n), "bfloat16"), C: T.Tensor((m, n), "float")):
        with T.Kernel(T.ceildiv(n, 32), T.ceildiv(m, 32), threads=128) as (bx, by):
            A_s = T.alloc_shared((32, 32), "bfloat16")
            B_s = T.alloc_shared((32, 32), "bfloat16")
            C_l = T.alloc_fragment((32, 32), "float")
            if bx % 2 == 0:
                T.clear(C_l)
                for ko in T.Pipelined(T.ceildiv(k, 32), num_stages=2):
                    T.copy(A[by * 32, ko * 32], A_s)
                    T.copy(B[ko * 32, bx * 32], B_s)
                    T.gemm(A_s, B_s, C_l)
                T.copy(C_l, C[by * 32, bx * 32])
            else:
                T.clear(C_l)
                T.copy(C_l, C[by * 32, bx * 32])

    return main


def test_blocks_take_different_branches_of_an_if_elif_else() -> None:
    """Ragged (100, 72) in row blocks of 32: blocks 0 and 2 double, block 1 adds 1, block 3 (4 rows) copies."""
    m, n = 100, 72
    a = np.random.default_rng(1).standard_normal((m, n)).astype(np.float32)
    kernel = tilelang.compile(branch_blocks(m, n, 32), out_idx=[-1], target="tenstorrent")
    want = a.copy()
    want[0:32] *= 2
    want[64:96] *= 2
    want[32:64] += 1
    np.testing.assert_allclose(kernel(a), want, rtol=1e-6, atol=1e-6)
    for role in ("reader", "compute", "writer"):
        assert "if (" in kernel.artifact.rt_mod.files[f"{role}.cpp"], role


def _read_in_one_branch(m: int, n: int):
    @T.prim_func
    def main(A: T.Tensor((m, n), "float32"), B: T.Tensor((m, n), "float32")):
        with T.Kernel(T.ceildiv(m, 32), threads=128) as bx:
            a = T.alloc_shared((32, n), "float32")
            T.copy(A[bx * 32, 0], a)
            if bx % 2 == 0:
                T.copy(a, B[bx * 32, 0])

    return main


def test_a_branch_on_an_index_scalar_inside_a_while_loop() -> None:
    """Ragged (100, 40) in ranges of 3 row blocks: rows 0 and 3 are copied, rows 1 and 2 tripled; the value `a` made
    before the if is read in both branches (waited for and freed in each; the then branch copies it on chip for the
    writer), or made anew in each."""
    m, n = 100, 40
    a = np.random.default_rng(2).standard_normal((m, n)).astype(np.float32)
    want = a * 3
    want[0:32] = a[0:32]
    want[96:] = a[96:]
    for make in (_branch_on_scalar, branch_on_index_scalar):
        kernel = tilelang.compile(make(m, n, 3), out_idx=[-1], target="tenstorrent")
        np.testing.assert_allclose(kernel(a), want, rtol=1e-6, atol=1e-6)


def test_a_value_made_before_an_if_and_read_in_one_branch_is_refused() -> None:
    """The branch not reading it would leave its block in the CB (a consumer kernel frees a block once)."""
    with pytest.raises(TileLangError, match=r"on-chip buffer 'a' is written outside the if/else by T.copy from 'A' "
                                            r"and read in the then branch of \(if .*\) by T.copy to 'B'; "
                                            r"the else branch does not read it"):
        tilelang.lower(_read_in_one_branch(64, 32), target="tenstorrent")


def _branch_on_data(n: int = 64):
    @T.prim_func
    def main(A: T.Tensor((32, n), "float32"), B: T.Tensor((32, n), "float32")):
        with T.Kernel(1, threads=128):
            a = T.alloc_fragment((32, n), "float32")
            T.copy(A, a)
            if a[0, 0] < 10.0:
                T.copy(a, B)

    return main


def test_a_condition_read_from_on_chip_data_is_refused_naming_the_buffer() -> None:
    """The reader and writer kernels never see on-chip values, so they could not take the compute kernel's branch."""
    with pytest.raises(TileLangError, match=r"a condition around tile operations \(a\[0, 0\] < T.float32\(10.0\)\) "
                                            r"reads 'a'"):
        tilelang.lower(_branch_on_data(), target="tenstorrent")


def test_verify_balances_each_arm_of_a_branch_on_its_own() -> None:
    """The writer's pop moved from the then arm to the else arm: the kernel's totals still balance, each arm does not
    (a block taking the then arm would leave its page in the CB)."""
    mod = run_until(branch_blocks(100, 72, 32), "VerifyTTKernels")
    writer = mod["main_writer"]
    pops = []

    def is_pop(stmt: Any) -> bool:
        return isinstance(stmt, tirx.Evaluate) and "cb_pop_front" in str(stmt)

    def without_pop(stmt: Any) -> Any:
        if is_pop(stmt):
            pops.append(stmt)
            return tirx.Evaluate(tirx.const(0, "int32"))
        return stmt

    def move_pop(branch: Any) -> Any:
        if pops or branch.else_case is None or "cb_pop_front" not in str(branch.then_case):
            return branch
        then = tvm_ffi.structural_map(branch.then_case, (tirx.Evaluate, without_pop), order="post")
        return tirx.IfThenElse(branch.condition, then, tirx.SeqStmt([branch.else_case, pops[0]]))

    broken = writer.with_body(tvm_ffi.structural_map(writer.body, (tirx.IfThenElse, move_pop), order="post"))
    assert len(pops) == 1
    transform.VerifyTTKernels()(tvm.IRModule({"main_writer": writer}))
    with pytest.raises(TileLangError, match=r"main_writer: branch of \(if .*\): CB \d+ is unbalanced per iteration: "
                                            r"cb_wait_front \d+ page\(s\), cb_pop_front 0"):
        transform.VerifyTTKernels()(tvm.IRModule({"main_writer": broken}))



def test_a_gemm_with_its_k_loop_inside_a_branch() -> None:
    """Ragged 40x100x72 (two block rows, four block columns, three K steps): columns 0 and 2 the product, 1 and 3
    zero."""
    m, n, k = 40, 100, 72
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (m, k)).astype(ml_dtypes.bfloat16)
    b = rng.uniform(-1, 1, (k, n)).astype(ml_dtypes.bfloat16)
    kernel = tilelang.compile(_gemm_or_zero(m, n, k), out_idx=[-1], target="tenstorrent")
    want = a.astype(np.float32) @ b.astype(np.float32)
    for col in (32, 96):
        want[:, col:col + 32] = 0
    np.testing.assert_allclose(kernel(a, b), want, rtol=1e-5, atol=1e-5)



def _step_in_one_arm(n: int):
    """Block-sparse attention's shape of control under an index condition: `a` made before the loop and read in a
    one-armed if inside it (as `Q_shared`), `acc` carried across the loop and rewritten only in that arm (`acc_o`)."""
    @T.prim_func
    def main(A: T.Tensor((32, 32), "float32"), X: T.Tensor((32, n), "float32"), B: T.Tensor((32, 32), "float32")):
        with T.Kernel(1, threads=128):
            a = T.alloc_shared((32, 32), "float32")
            x = T.alloc_shared((32, 32), "float32")
            y = T.alloc_fragment((32, 32), "float32")
            acc = T.alloc_fragment((32, 32), "float32")
            T.copy(A, a)
            T.clear(acc)
            for k in T.serial(n // 32):
                if k % 3 != 1:
                    T.copy(X[0, k * 32], x)
                    for i, j in T.Parallel(32, 32):
                        y[i, j] = x[i, j] * a[i, j]
                    for i, j in T.Parallel(32, 32):
                        acc[i, j] = acc[i, j] + y[i, j]
            T.copy(acc, B)

    return main


def test_a_step_in_one_arm_holds_a_loop_invariant_and_carries_a_value() -> None:
    """Steps 0, 2, 3 of 4 run: `a` is waited for before the loop and freed after it, `acc`'s old block is freed and
    the new one pushed in the arm, and the arm not taken leaves it at the CB's front."""
    rng = np.random.default_rng(4)
    a = rng.standard_normal((32, 32)).astype(np.float32)
    x = rng.standard_normal((32, 128)).astype(np.float32)
    kernel = tilelang.compile(_step_in_one_arm(128), out_idx=[-1], target="tenstorrent")
    want = sum(x[:, k * 32:(k + 1) * 32] * a for k in (0, 2, 3))
    np.testing.assert_allclose(kernel(a, x), want, rtol=1e-5, atol=1e-5)
