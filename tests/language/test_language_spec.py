"""`tilelang.language` is generated from specs/language/*.yaml: its names, scopes, dtypes and tile primitives."""

from __future__ import annotations

import inspect

import tvm

import tilelang.language as T
from generator import Project, load_project
from projects import REPO
from tilelang.language import dtypes

LANGUAGE = load_project(Project.at(REPO)).languages[0]


def test_every_declared_name_exists() -> None:
    for name, _ in LANGUAGE.names:
        assert callable(getattr(T, name)) or getattr(T, name) is not None, name
        assert name in T.__all__


def test_reexports_are_the_tirx_objects() -> None:
    from tvm.script import tirx

    for name in LANGUAGE.reexports:
        assert getattr(T, name) is getattr(tirx, name), name


def test_dtype_tables_come_from_the_spec() -> None:
    assert dtypes.SUPPORTED_DTYPES == LANGUAGE.dtypes
    assert dtypes.DTYPE_ALIASES == dict(LANGUAGE.dtype_aliases)
    assert T.normalize_dtype("float") == "float32" and T.normalize_dtype("bf16") == "bfloat16"


def test_tile_op_signatures_follow_the_spec() -> None:
    for op in LANGUAGE.tile_ops:
        signature = inspect.signature(getattr(T, op.name))
        declared = [p.name for p in op.params]
        assert [n for n in signature.parameters if n != "ignored"] == declared, op.name
        for param in op.params:
            if param.has_default:
                assert signature.parameters[param.name].default == param.default


def _kernel() -> tvm.IRModule:
    @T.prim_func
    def main(A: T.Tensor((64, 64), "float"), B: T.Tensor((64, 64), "float"), C: T.Tensor((64, 64), "float")):
        with T.Kernel(2, 2, threads=64) as (bx, by):
            A_s = T.alloc_shared((32, 32), "float")
            B_s = T.alloc_shared((32, 32), "float")
            C_f = T.alloc_fragment((32, 32), "float")
            S = T.alloc_local((32, 32), "float")
            T.clear(C_f)
            T.fill(S, 1.5)
            T.copy(A[by * 32, 0], A_s)
            T.copy(B[0, bx * 32], B_s)
            T.gemm(A_s, B_s, C_f, transpose_B=False)
            T.copy(C_f, C[by * 32, bx * 32])

    return tvm.IRModule({"main": main})


def test_tile_ops_become_the_declared_primitives_and_scopes() -> None:
    text = _kernel().script()
    primitives = {op.name: op.primitive for op in LANGUAGE.tile_ops}
    assert primitives == {"copy": "copy", "gemm": "gemm", "fill": "fill", "clear": "fill", "reduce_sum": "reduce",
                          "reduce_max": "reduce", "reduce_min": "reduce", "reduce_abssum": "reduce",
                          "reduce_absmax": "reduce", "cumsum": "cumsum", "transpose": "transpose",
                          "atomic_add": "atomic_add", "im2col": "im2col", "c2d_im2col": "im2col"}
    assert text.count("T.tile.fill(") == 2 and text.count("T.tile.copy(") == 3 and text.count("T.tile.gemm(") == 1
    assert "T.tile.fill(C_f[0:32, 0:32], T.float32(0.0))" in text  # T.clear fixes value 0
    scopes = {a.name: a.scope for a in LANGUAGE.allocations}
    assert 'T.alloc_shared((32, 32))' in text and scopes["alloc_shared"] == "shared"
    assert f'scope="{scopes["alloc_fragment"]}"' in text
    assert '"tl.threads": 64' in text


def test_reductions_follow_the_shared_tile_primitive_convention() -> None:
    """T.reduce_* become TVM's T.tile.sum/max/min(dst, src, axes=(dim >= 0,), accum=not clear), abs in the config."""

    @T.prim_func
    def main(A: T.Tensor((8, 16), "float"), B: T.Tensor((8,), "float")):
        with T.Kernel(1) as _:
            A_f = T.alloc_fragment((8, 16), "float")
            B_f = T.alloc_fragment((8,), "float")
            T.copy(A, A_f)
            T.reduce_sum(A_f, B_f, dim=-1)
            T.reduce_max(A_f, B_f, 1, False)
            T.reduce_absmax(A_f, B_f)
            T.reduce_min(A_f, B_f, dim=1)
            T.copy(B_f, B)

    text = main.script()
    assert "T.tile.sum(B_f[0:8], A_f[0:8, 0:16], [1], False)" in text
    assert "T.tile.max(B_f[0:8], A_f[0:8, 0:16], [1], True)" in text
    assert "T.tile.max(B_f[0:8], A_f[0:8, 0:16], [1], False, abs=True)" in text
    assert "T.tile.min(B_f[0:8], A_f[0:8, 0:16], [1], False)" in text


def test_every_name_is_in_the_generated_language_reference() -> None:
    reference = (REPO / "generated" / "docs" / "language.md").read_text()
    for name, _ in LANGUAGE.names:
        assert f"`T.{name}" in reference, name
