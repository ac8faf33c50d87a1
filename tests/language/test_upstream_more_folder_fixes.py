"""What the examples of tools/upstream_cases_more_folders.py (deepseek_nsa, gdn, kda, the sparse GQA decodes) needed:

- Tenstorrent: a gemm outside loops accumulating onto a value that is not a zero fill, the result of an earlier K
  loop (kda's chunk output `O = (Q g) h` over DK, then `O += A V`) or an element-wise rescale of it (gdn's
  `O *= exp(g)`), runs as a product plus an element-wise add; checked against the numpy reference the case uses;
- `tilelang.engine.callback.register_cuda_postproc_callback` (gdn's chunk_delta_h imports it): the registered
  function rewrites the CUDA source this package generates;
- tools/upstream_examples stubs `triton` and `fla` as it stubs `torch`, and the stub answers the device probes kda's
  FLA_KDA makes at import (`"NVIDIA H" in torch.cuda.get_device_name(0)`, `torch.__version__`).
"""

import shutil
import textwrap
from pathlib import Path

import numpy as np
import pytest

import tilelang
import tilelang.language as T
from tilelang.engine import callback
from tilelang.errors import TileLangError
from tools import upstream_examples as tool
from tools.upstream_cases_more_folders import _gates, _kda_o_ref

RNG = np.random.default_rng(2830)


def chunk_output(S, DK, DV, chunk, scale, rescale):  # noqa: N803
    """kda's chunk_o as its example writes it (one batch and head, so its tensors are 2-D): the inter-chunk product
    over DK blocks into O_fragment, then the intra-chunk `A V` accumulated onto it; `rescale` halves O between them
    (gdn's `O *= exp(g)` there)."""

    @T.prim_func
    def main(Q: T.Tensor((S, DK), "float16"), V: T.Tensor((S, DV), "float16"),  # noqa: N803
             GK: T.Tensor((S, DK), "float32"), A: T.Tensor((S, chunk), "float16"),  # noqa: N803
             HIDDEN: T.Tensor((S // chunk, DK, DV), "float16"), O: T.Tensor((S, DV), "float16")):  # noqa: N803, E741
        with T.Kernel(S // chunk, threads=128) as bs:
            Q_shared = T.alloc_shared((chunk, 32), "float16")
            GK_shared = T.alloc_shared((chunk, 32), "float32")
            GQ_shared = T.alloc_shared((chunk, 32), "float16")
            H_shared = T.alloc_shared((32, DV), "float16")
            V_shared = T.alloc_shared((chunk, DV), "float16")
            A_shared = T.alloc_shared((chunk, chunk), "float16")
            O_fragment = T.alloc_fragment((chunk, DV), "float32")
            T.clear(O_fragment)
            for i_k in T.Pipelined(DK // 32, num_stages=1):
                T.copy(Q[bs * chunk:(bs + 1) * chunk, i_k * 32:(i_k + 1) * 32], Q_shared)
                T.copy(GK[bs * chunk:(bs + 1) * chunk, i_k * 32:(i_k + 1) * 32], GK_shared)
                T.copy(HIDDEN[bs, i_k * 32:(i_k + 1) * 32, :], H_shared)
                for i, j in T.Parallel(chunk, 32):
                    Q_shared[i, j] = Q_shared[i, j] * scale
                    GQ_shared[i, j] = Q_shared[i, j] * T.exp2(GK_shared[i, j])
                T.gemm(GQ_shared, H_shared, O_fragment)
            if rescale:
                for i, j in T.Parallel(chunk, DV):
                    O_fragment[i, j] = O_fragment[i, j] * 0.5
            T.copy(V[bs * chunk:(bs + 1) * chunk, :], V_shared)
            T.copy(A[bs * chunk:(bs + 1) * chunk, :], A_shared)
            for i, j in T.Parallel(chunk, chunk):
                A_shared[i, j] = T.if_then_else(i < j, 0, A_shared[i, j])
            T.gemm(A_shared, V_shared, O_fragment)
            T.copy(O_fragment, O[bs * chunk:(bs + 1) * chunk, :])

    return main


@pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
@pytest.mark.parametrize("rescale", [False, True])
def test_tt_gemm_outside_loops_accumulates_onto_a_k_loop_result_or_its_rescale(rescale: bool) -> None:
    s, dk, dv, c = 64, 64, 32, 32
    q, v = RNG.uniform(-1, 1, (s, dk)).astype("float16"), RNG.uniform(-1, 1, (s, dv)).astype("float16")
    gk = _gates(1, s, 1, c, dk)[0, :, 0]
    a = RNG.uniform(-0.2, 0.2, (s, c)).astype("float16")
    hidden = RNG.uniform(-0.2, 0.2, (s // c, dk, dv)).astype("float16")
    kernel = tilelang.compile(chunk_output(s, dk, dv, c, 0.125, rescale), out_idx=[-1], target="tenstorrent")
    got = kernel(q, v, gk, a, hidden).astype("float32")

    def ref(gates: np.ndarray) -> np.ndarray:  # the case's reference on (1, S, 1, D) views
        return _kda_o_ref(q[None, :, None], v[None, :, None], gates[None, :, None], a[None, :, None],
                          hidden[None, :, None], c, 0.125)[0, :, 0]

    want = ref(gk)
    if rescale:  # the inter-chunk part halved; exp2(-1e4) = 0 leaves the intra-chunk `A V` alone
        intra = ref(gk - 1e4)
        want = (want - intra) * 0.5 + intra
    np.testing.assert_allclose(got, want, atol=2e-2, rtol=2e-2)


@pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
def test_tt_gemm_onto_a_constant_fill_is_the_product_plus_the_constant() -> None:
    """`T.fill(C, 1.0)` then `T.gemm(A, B, C)`: refused before the gemm-onto-a-value lowering, now 1 + A B."""

    @T.prim_func
    def main(A: T.Tensor((64, 64), "float16"), B: T.Tensor((64, 64), "float16"), C: T.Tensor((64, 64), "float32")):  # noqa: N803
        with T.Kernel(1, 1, threads=128) as (bx, by):
            a_s = T.alloc_shared((64, 64), "float16")
            b_s = T.alloc_shared((64, 64), "float16")
            c_l = T.alloc_fragment((64, 64), "float32")
            T.fill(c_l, 1.0)
            T.copy(A[0, 0], a_s)
            T.copy(B[0, 0], b_s)
            T.gemm(a_s, b_s, c_l)
            T.copy(c_l, C[0, 0])

    a, b = RNG.uniform(-1, 1, (64, 64)).astype("float16"), RNG.uniform(-1, 1, (64, 64)).astype("float16")
    got = tilelang.compile(main, out_idx=[-1], target="tenstorrent")(a, b)
    np.testing.assert_allclose(got, 1 + a.astype("float32") @ b.astype("float32"), atol=2e-2, rtol=2e-2)


def test_a_registered_cuda_postproc_callback_rewrites_the_generated_source() -> None:
    @T.prim_func
    def add_one(A: T.Tensor((128,), "float32"), B: T.Tensor((128,), "float32")):  # noqa: N803
        with T.Kernel(1, threads=128) as _:
            for i in T.Parallel(128):
                B[i] = A[i] + 1.0

    seen = []

    @callback.register_cuda_postproc_callback
    def mark(code: str, target: object) -> str:
        seen.append(target)
        return "// marked by the callback\n" + code

    try:
        source = tilelang.lower(add_one, target="cuda").kernel_source
        assert source.startswith("// marked by the callback\n") and "__global__" in source and seen
        with pytest.raises(TileLangError, match="already registered"):
            callback.register_cuda_postproc_callback(override=False)(lambda code, target: code)
        callback.register_cuda_postproc_callback(True)(lambda code, target: None)  # type: ignore[arg-type,return-value]
        with pytest.raises(TileLangError, match="returned NoneType, not the source text"):
            tilelang.lower(add_one, target="cuda")
    finally:
        callback.unregister_cuda_postproc()
    assert "marked by the callback" not in tilelang.lower(add_one, target="cuda").kernel_source


def test_the_tool_stubs_triton_and_fla_and_answers_device_probes(tmp_path: Path) -> None:
    (tmp_path / "examples" / "kdaish").mkdir(parents=True)
    (tmp_path / "examples" / "kdaish" / "example_kdaish.py").write_text(textwrap.dedent('''
        import torch
        import triton
        import triton.language as tl
        import fla
        from packaging import version

        HOPPER = "NVIDIA H" in torch.cuda.get_device_name(0) or torch.cuda.get_device_capability()[0] >= 9
        NEW_TORCH = version.parse(torch.__version__) >= version.parse("2.4")
        FLA_FILE = fla.__file__


        @triton.autotune(configs=[triton.Config({"BK": 32})], key=["K"])
        @triton.jit
        def reference(x, BK: tl.constexpr):
            return x
    '''))
    module = tool.load_example(tmp_path, "examples/kdaish/example_kdaish.py")
    assert "_upstream_import_error" not in module.__dict__
    assert (module.HOPPER, module.NEW_TORCH, module.FLA_FILE) == (False, False, "<fla stub>")
    assert module.reference(3, 32) == 3  # the decorators hand back the function


def causal_scores_times_v(S, D):  # noqa: N803
    """linear attention's intra-chunk part as example_linear_attn_fwd.py writes it: fp32 scores selected under the
    causal index mask straight into a float16 shared buffer, then multiplied by V."""

    @T.prim_func
    def main(Q: T.Tensor((S, D), "float16"), K: T.Tensor((S, D), "float16"), V: T.Tensor((S, D), "float16"),  # noqa: N803
             O: T.Tensor((S, D), "float32")):  # noqa: N803, E741
        with T.Kernel(1, threads=128) as _:
            q = T.alloc_shared((S, D), "float16")
            k = T.alloc_shared((S, D), "float16")
            v = T.alloc_shared((S, D), "float16")
            s = T.alloc_fragment((S, S), "float32")
            s_shared = T.alloc_shared((S, S), "float16")
            o = T.alloc_fragment((S, D), "float32")
            T.copy(Q[0, 0], q)
            T.copy(K[0, 0], k)
            T.copy(V[0, 0], v)
            T.gemm(q, k, s, clear_accum=True, transpose_B=True)
            for row, col in T.Parallel(S, S):
                s_shared[row, col] = T.if_then_else(row >= col, s[row, col], 0)
            T.gemm(s_shared, v, o, clear_accum=True)
            T.copy(o, O[0, 0])

    return main


@pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
def test_tt_an_index_mask_select_stored_in_another_dtype_is_masked_then_converted() -> None:
    q, k, v = (RNG.uniform(-0.5, 0.5, (64, 32)).astype("float16") for _ in range(3))
    got = tilelang.compile(causal_scores_times_v(64, 32), out_idx=[-1], target="tenstorrent")(q, k, v)
    scores = np.tril(q.astype("float32") @ k.astype("float32").T).astype("float16").astype("float32")
    np.testing.assert_allclose(got, scores @ v.astype("float32"), atol=1e-2, rtol=1e-2)


def test_the_more_folder_cases_are_in_the_tools_table_once() -> None:
    from tools.upstream_cases_more_folders import MORE_FOLDER_CASES

    names = [c.name for c in tool.CASES]
    assert len(names) == len(set(names))
    assert {c.name for c in MORE_FOLDER_CASES} <= set(names)
    assert {c.file.split("/")[1] for c in MORE_FOLDER_CASES} >= {"deepseek_nsa", "gdn", "kda", "deepseek_mla"}
