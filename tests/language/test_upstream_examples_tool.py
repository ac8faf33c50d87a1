"""tools/upstream_examples: an example module written as TileLang's are (importing torch, `@tilelang.jit` eager and
classic kernels) is imported from a source folder, re-targeted and checked against numpy; each outcome is named."""

from __future__ import annotations

import shutil
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from projects import TESTS
from tools import upstream_examples as tool

EXAMPLE = textwrap.dedent('''
    import torch
    import tilelang
    import tilelang.language as T


    @tilelang.jit
    def add(A, B, block_M, block_N):
        M, N = T.const("M, N")
        A: T.Tensor((M, N), T.float32)
        B: T.Tensor((M, N), T.float32)
        C = T.empty((M, N), T.float32)
        with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M)) as (bx, by):
            a = T.alloc_shared((block_M, block_N), T.float32)
            b = T.alloc_shared((block_M, block_N), T.float32)
            T.copy(A[by * block_M, bx * block_N], a)
            T.copy(B[by * block_M, bx * block_N], b)
            for i, j in T.Parallel(block_M, block_N):
                a[i, j] = a[i, j] + b[i, j]
            T.copy(a, C[by * block_M, bx * block_N])
        return C


    @tilelang.jit(out_idx=[-1])
    def erf(M, N):
        @T.prim_func
        def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32")):
            with T.Kernel(1) as bx:
                a = T.alloc_fragment((M, N), "float32")
                T.copy(A[0, 0], a)
                for i, j in T.Parallel(M, N):
                    a[i, j] = T.erf(a[i, j])
                T.copy(a, B[0, 0])
        return main


    x = torch.zeros(4, device="cuda")  # module-level CUDA code, as the examples have


    class _attention(torch.autograd.Function):  # a torch class the module subclasses (example_mha_bwd_bhsd.py)
        @staticmethod
        def forward(ctx, q):
            return q


    X = torch.zeros(64, 64, device="cuda")
    Y = add(X, X, 32, 32)  # a kernel run at module level (online_softmax); without torch, what precedes it stays
''')


@pytest.fixture
def source(tmp_path: Path) -> Path:
    (tmp_path / "examples" / "demo").mkdir(parents=True)
    (tmp_path / "examples" / "demo" / "example_demo.py").write_text(EXAMPLE)
    return tmp_path


def _case(name: str, attr: str, ref, run, atol: float = 0.0) -> tool.Case:
    return tool.Case(name, "examples/demo/example_demo.py", attr, lambda: [np.ones((64, 64), "float32")] * 2,
                     ref, run, atol=atol, rtol=0.0)


@pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
def test_an_example_runs_on_both_targets_and_each_outcome_is_named(source: Path) -> None:
    ok = _case("add", "add", lambda a, b: a + b, lambda k, x: k(*x, 32, 32))
    assert tool.run_case(source, ok, "llvm") == "ok"
    assert tool.run_case(source, ok, "tenstorrent") == "ok"
    wrong = _case("add wrong ref", "add", lambda a, b: a - b, lambda k, x: k(*x, 32, 32))
    assert tool.run_case(source, wrong, "llvm") == "wrong: max error 2"
    refused = _case("erf", "erf", lambda a, b: a, lambda k, x: k(64, 64)(x[0]))
    assert tool.run_case(source, refused, "tenstorrent").startswith("refused: ")
    broken = _case("no such kernel", "missing", lambda a, b: a, lambda k, x: k(*x))
    assert tool.run_case(source, broken, "llvm").startswith("error: AttributeError")


def test_the_table_lists_every_case(source: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tool, "CASES", [_case("no such kernel", "missing", lambda a, b: a, lambda k, x: k(*x))])
    table = tmp_path / "table.md"
    assert tool.main([str(source), "--targets", "llvm", "--table", str(table)]) == 0
    assert table.read_text().splitlines()[2].startswith("| no such kernel | error: AttributeError")


# The test modules holding TileLang's kernel bodies as upstream writes them (the README calls them unmodified) are
# modules as upstream's are: without `from __future__ import annotations` (which turns annotations into strings; real
# tilelang 0.1.15, installed in a venv of its own, parses every kernel of these modules: see the issue 28 report).
UPSTREAM_BODIES = ["tt_attention_kernels.py", "tt_norm_kernels.py", "tt_split_k_kernels.py", "tt_dram_loop_kernels.py",
                   "tt_streamk_kernel.py", "language/test_tilelang_examples.py"]


@pytest.mark.parametrize("name", UPSTREAM_BODIES)
def test_modules_with_upstream_kernel_bodies_keep_annotations_objects(name: str) -> None:
    import ast

    tree = ast.parse((TESTS / name).read_text())
    futures = [a.name for node in tree.body if isinstance(node, ast.ImportFrom) and node.module == "__future__"
               for a in node.names]
    assert "annotations" not in futures


def test_a_cached_example_leaves_no_stub_behind(source: Path) -> None:
    """The second load of a module returns the cached one before any stub goes in (a stub left on sys.meta_path
    made torch importable for every later example, whose module-level CUDA code then raised)."""
    (source / "examples" / "demo" / "example_einops.py").write_text("from einops import rearrange\n\nR = rearrange\n")
    first = tool.load_example(source, "examples/demo/example_einops.py")
    assert tool.load_example(source, "examples/demo/example_einops.py") is first
    assert not any(isinstance(f, tool._StubFinder) for f in sys.meta_path)


def test_the_torch_stub_gives_factory_tensors_their_shapes(source: Path) -> None:
    """stream-K's module computes its work split from `A.shape` of `torch.rand(m, k, device="cuda") * 2 - 1` at import,
    and testing/python/language/test_tilelang_language_copy.py prints `torch.__version__`."""
    (source / "examples" / "demo" / "example_shapes.py").write_text(
        "import torch\n\nprint(torch.__version__)\nA = torch.rand(6, 4, device='cuda', dtype=torch.float16) * 2 - 1\n"
        "M, K = A.shape\nZ = torch.zeros((3, 2)).cuda()\n")
    module = tool.load_example(source, "examples/demo/example_shapes.py")
    assert "_upstream_import_error" not in module.__dict__
    assert (module.M, module.K, tuple(module.Z.shape)) == (6, 4, (3, 2))
