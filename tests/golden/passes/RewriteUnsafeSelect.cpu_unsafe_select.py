# ruff: noqa
# Golden of RewriteUnsafeSelect, case cpu_unsafe_select (written by hand in tests/pass_goldens.py):
# hand-written: a T.Select whose taken branch reads memory the other branch guards.
# Written by `TILELANG_UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/passes/test_pass_golden.py`; do not edit by hand. The pass's input, then its output.
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((8,), "float32")):
        for i in range(8):
            B[i] = T.Select(i < 4, A[i * 4], T.float32(0.0))

# ---------------------------------------- after RewriteUnsafeSelect
# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.tirx.layout import Axis

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "float32"), B: T.Buffer((8,), "float32")):
        for i in range(8):
            B[i] = T.if_then_else(i < 4, A[i * 4], T.float32(0.0))
