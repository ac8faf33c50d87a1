"""The ttnn host program of a compiled Tenstorrent kernel (run by `execution_backend="ttnn"`, ttnn_runner.py).

`render_ttnn(plan)` fills metalium/run_ttnn.py.j2 from the plan (tt.plan.json), as main.cpp is filled: a self-contained
Python script that runs the same reader/compute/writer kernels through `ttnn.generic_op(tensors, ProgramDescriptor)`.
It is written for API profiles whose ttnn wheel has generic_op (`ttnn_generic_op` in specs/backends/tenstorrent.yaml)
and kernels whose data formats have a ttnn DataType (`TTNN_DATA_TYPES`, from the spec's data_formats).

`ttnn_runner.TTNNProgram` runs a compiled kernel on a device through that script; `ttnn_program` refuses, with the
reason, when the script cannot be written, ttnn is not importable or no device is present. Nothing falls back to
the emulator.
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2

from . import device, intrinsics
from .host import host_layout, role_kernels
from .records import (
    CB,
    DEVICE,
    HOST_TENSOR,
    KERNEL,
    MESH,
    NOC_X,
    NOC_Y,
    PLAN,
    SEMAPHORE_ID,
    TENSOR,
    TENSOR_ADDRESS,
    TTNN_CB,
    TTNN_TENSOR,
    Plan,
)
from .roles import KERNEL_ROLES
from .templates import HERE

SCRIPT = "run_ttnn.py"


@lru_cache(maxsize=1)
def _templates() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(HERE / "metalium")), undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=True, trim_blocks=True, lstrip_blocks=True, autoescape=False)
    env.filters["py_arg"] = _py_arg
    env.filters["py_literal"] = _py_literal
    env.filters["tuple_text"] = lambda items: "(" + ", ".join(map(str, items)) + ("," if len(items) == 1 else "") + ")"
    return env


def _py_arg(value: Any) -> str:
    """One runtime argument in run_ttnn.py: a 32-bit constant, or what only the device knows (`v`: DeviceValues)."""
    if not isinstance(value, dict):
        return str(int(value) & 0xFFFFFFFF)
    if TENSOR_ADDRESS.TENSOR in value:
        return f'v.address("{value[TENSOR_ADDRESS.TENSOR]}")'
    if SEMAPHORE_ID.SEMAPHORE in value:
        return f'v.semaphore("{value[SEMAPHORE_ID.SEMAPHORE]}")'
    axis, (x, y) = ("x", value[NOC_X.NOC_X]) if NOC_X.NOC_X in value else ("y", value[NOC_Y.NOC_Y])
    return f"v.noc_{axis}({x}, {y})"


def unsupported(plan: Plan) -> str | None:
    """Why no ttnn host program can be written for this plan, or None."""
    profile = intrinsics.PROFILES[plan[PLAN.DEVICE][DEVICE.PROFILE]]
    if PLAN.MESH in plan:
        odd = [t[TENSOR.NAME] for t in plan[PLAN.TENSORS] if TENSOR.TRANSPOSED in t]
        if odd:
            return (f"tensor(s) {', '.join(odd)} on a mesh are transposed in DRAM, which run_ttnn.py's mesh mappers "
                    "do not deal out (main.cpp runs them)")
    if not profile.ttnn_generic_op:
        return (f"API profile {profile.name} has no ttnn host program (its ttnn {profile.ttnn_wheel} wheel has no "
                "ttnn.generic_op with ProgramDescriptor; ttnn_generic_op in specs/backends/tenstorrent.yaml)")
    with_defines = [role for role, k in role_kernels(plan).items() if k.get(KERNEL.DEFINES)]
    if with_defines:  # only the 2025 profile's reduce.h needs defines, and its wheel has no generic_op
        return f"the {', '.join(with_defines)} kernel needs compile defines, which run_ttnn.py does not pass yet"
    known = device.TTNN_DATA_TYPES
    lacking = [f"tensor {t[TENSOR.NAME]}" for t in plan[PLAN.TENSORS] if t[TENSOR.DATA_FORMAT] not in known]
    lacking += [f"CB {c[CB.INDEX]} ({c[CB.BUFFER]})" for c in plan[PLAN.CBS] if c[CB.DATA_FORMAT] not in known]
    if lacking:
        formats = sorted(({t[TENSOR.DATA_FORMAT] for t in plan[PLAN.TENSORS]}
                          | {c[CB.DATA_FORMAT] for c in plan[PLAN.CBS]}) - set(known))
        have = ", ".join(f"{f} (ttnn.{d})" for f, d in sorted(known.items()))
        return f"ttnn has no DataType for {', '.join(formats)} ({', '.join(lacking)}); ttnn has {have}"
    inout = [t[TENSOR.NAME] for t in plan[PLAN.TENSORS] if t[TENSOR.ROLE] == "inout"]
    if inout:  # generic_op's outputs are tensors it allocates, so a T.atomic_add target would start from garbage
        return (f"tensor(s) {', '.join(inout)} are read and written by the kernel (T.atomic_add adds onto what they "
                "hold), and run_ttnn.py passes only fresh output tensors to ttnn.generic_op")
    if len(plan[PLAN.TENSORS]) < 2:
        return "ttnn.generic_op needs at least one input and one output tensor"
    return None


def _py_literal(value: Any) -> str:
    """A plan value as Python source (an index-mask table's -inf is float("-inf"), which repr cannot spell)."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_py_literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_py_literal(v) for v in value) + "]"
    if isinstance(value, float) and not math.isfinite(value):
        return f'float("{value}")'
    return repr(value)


def _host_dtype(dtype: str) -> str:
    """The numpy dtype run_ttnn.py moves a tensor in: float32 for the float formats, an integer tensor's own dtype."""
    if dtype in ("bool", "int8"):
        return "uint8"  # their UInt8 format (int8: its two's complement bytes; numpy's astype wraps both ways)
    return dtype if dtype.startswith(("int", "uint")) else "float32"


def render_ttnn(plan: Plan) -> str:
    """run_ttnn.py of a plan for which `unsupported(plan)` is None."""
    order = {"input": 0, "unused": 1, "output": 2}  # generic_op takes the output tensors last
    # An N-D tensor is tiled as its (prod(leading dims) * rows, cols) matrix, a 1-D one as row 0 of a tile row, each
    # padded as InferTTLayout lays it out, as in main.cpp (host_layout). Float tensors travel as float32 arrays (ttnn
    # rounds them to the format); integer ones as their own integers (a bool tensor as uint8, its format), which
    # float32 would not hold exactly beyond 2**24.
    tensors = []
    h, tt = HOST_TENSOR, TTNN_TENSOR
    for t in sorted(plan[PLAN.TENSORS], key=lambda t: order[t[TENSOR.ROLE]]):
        lay = host_layout(t, plan[PLAN.DEVICE][DEVICE.TILE])
        pad = t.get(TENSOR.PAD_VALUE, 0)
        tensors.append({**t, tt.ROWS: lay[h.LEAD] * lay[h.PROWS], tt.COLS: lay[h.PCOLS],
                        tt.LAYOUT: tuple(lay[k] for k in (h.LEAD, h.ROWS, h.COLS, h.PROWS, h.PCOLS, h.ER, h.PR, h.EC,
                                                           h.PC)),
                        tt.PAD: f'float("{pad}")' if isinstance(pad, str) else repr(float(pad)),
                        tt.TTNN: device.TTNN_DATA_TYPES[t[TENSOR.DATA_FORMAT]],
                        TENSOR.CONSTANT: t.get(TENSOR.CONSTANT), tt.HOST_DTYPE: _host_dtype(t[TENSOR.DTYPE])})
    cbs = [{**c, TTNN_CB.TTNN: device.TTNN_DATA_TYPES[c[CB.DATA_FORMAT]]} for c in plan[PLAN.CBS]]
    mesh, mesh_tensors = _mesh_literals(plan)
    profile = intrinsics.PROFILES[plan[PLAN.DEVICE][DEVICE.PROFILE]]
    return _templates().get_template("run_ttnn.py.j2").render(
        plan={**plan, PLAN.CBS: cbs}, roles=KERNEL_ROLES, tensors=tensors, version=profile.ttnn_wheel,
        accessor_args=profile.accessor_compile_time_args, mesh=mesh, mesh_tensors=mesh_tensors,
        inputs=[t for t in tensors if t[TENSOR.ROLE] == "input" and not t[TENSOR.CONSTANT]],
        outputs=[t for t in tensors if t[TENSOR.ROLE] == "output"])


def _mesh_literals(plan: Plan) -> tuple[str, str]:
    """run_ttnn.py's MESH and MESH_TENSORS (Python literals; None on a single chip): the mesh's shape and split-K
    axis, and per tensor its shards and whether it is restacked / partial (tilelang.tenstorrent.mesh)."""
    mesh = plan.get(PLAN.MESH)
    if mesh is None:
        return "None", "None"
    shape = tuple(mesh[MESH.SHAPE])
    tensors = {t[TENSOR.NAME]: {"shards": tuple(t.get(TENSOR.MESH_SHARDS, (1, 1))),
                                "restacked": bool(t.get(TENSOR.MESH_RESTACKED)),
                                "restacked_rows": bool(t.get(TENSOR.MESH_RESTACKED_ROWS)),
                                "partial": bool(t.get(TENSOR.MESH_PARTIAL))}
               for t in plan[PLAN.TENSORS]}
    return repr({MESH.SHAPE: shape, MESH.REDUCE_AXIS: mesh.get(MESH.REDUCE_AXIS)}), repr(tensors)


def load_script(path: Path) -> Any:
    """The saved run_ttnn.py as a module (it imports ttnn only when asked to)."""
    name = "tilelang_run_ttnn_" + hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
