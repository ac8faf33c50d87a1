"""The numbers a generated main.cpp reads at run time (tt.host_args, written beside it).

main.cpp.j2 writes no number that follows from a kernel's shapes (buffer sizes, CB depths and page sizes, the core
ranges, the runtime arguments per core, the tensors' host layouts, an index mask's coefficients, a constant's rows):
it calls `host_scalar(name, value, ctype)`, `host_list(name, values)`, `host_rows(name, rows, names)` or
`host_layout(tensor)` (the methods of HostArgs), which record the value under its name and return the C++ that reads
it from the file. So the file and the program are written by the same template line, and every shape of a kernel
renders the same main.cpp: the emulator's cache (keyed by main.cpp's text) builds one host program for all of them,
as a real host program reads its sizes instead of being recompiled.

The file is text, `name value...` lines (integers), read by main.cpp's host_args_file; the lines of one name make
one list (the runtime arguments: a line per core, under a `#` comment naming the arguments).

Nor does main.cpp write what differs between kernels of the same host code (issue 35: each distinct main.cpp is a
host build of about 2 CPU-s): the circular buffers (a `cbs` line each, the fields CB_FIELDS of the plan's cb record,
read by main.cpp's cb_config, which the template renders from CB_FIELDS), the semaphores' initial values, the padding
and constant fill values (`host_value`: the bits of the host vector's element), the compute kernel's math fidelity
and fp32_dest_acc_en, and a mesh's shape. What the C++ types need stays in the source: a tensor's element type, its
kind of page and host transforms, the kernels' defines.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, get_args

import numpy as np

from . import device
from .kernel_cpp import TTCodegenError
from .records import (
    CB,
    COMPUTE_KERNEL,
    CORE_ARGS,
    HOST_TENSOR,
    NOC_X,
    NOC_Y,
    SEMAPHORE,
    SEMAPHORE_ID,
    TENSOR,
    TENSOR_ADDRESS,
    Cb,
    ComputeKernel,
)

FILE = "tt.host_args"
# A runtime argument in tt.host_args: a (kind, a, b) triple; main.cpp's runtime_arg switches on the kind.
# The keys: the runtime-argument records' own (a plain number is a constant).
ARG_KINDS = {"constant": 0, TENSOR_ADDRESS.TENSOR: 1, SEMAPHORE_ID.SEMAPHORE: 2, NOC_X.NOC_X: 3, NOC_Y.NOC_Y: 4}
LAYOUT = (HOST_TENSOR.LEAD, HOST_TENSOR.ROWS, HOST_TENSOR.COLS, HOST_TENSOR.PROWS, HOST_TENSOR.PCOLS, HOST_TENSOR.ER,
          HOST_TENSOR.PR, HOST_TENSOR.EC, HOST_TENSOR.PC)  # the order of a `<tensor>.layout` line (tensor_layout)
CB_FIELDS = (CB.INDEX, CB.DATA_FORMAT, CB.DEPTH, CB.PAGE_BYTES)  # a `cbs` line: main.cpp's cb_config, in this order
# tt::DataFormat name -> its value (the device spec's formats: what a `cbs` line holds; main.cpp's data_format_of)
DATA_FORMAT_VALUES = dict(sorted({name: value for name, _, value in
                                  [*device.DATA_FORMATS.values(), *device.DRAM_FORMATS.values()]}.items(),
                                 key=lambda kv: kv[1]))
# MathFidelity names (the plan's compute_kernel record), a `compute.math_fidelity` line holding the position
MATH_FIDELITIES = get_args(ComputeKernel.__annotations__[COMPUTE_KERNEL.MATH_FIDELITY])
HOST_INT_TYPES = {"int32": "int32_t", "uint32": "uint32_t", "uint16": "uint16_t", "uint8": "uint8_t",
                  "bool": "uint8_t", "int8": "int8_t"}  # integer dtypes: their own C type (bool: bytes of 0 and 1)


class HostArgs:
    """The values main.cpp.j2 records while it renders (name -> integers), and the C++ that reads each."""

    def __init__(self, kernel: str) -> None:
        self.kernel = kernel
        self.values: dict[str, list[int]] = {}
        self.lines: dict[str, list[list[int]]] = {}  # how the file splits a value list (one line per core)
        self.comments: dict[str, str] = {}  # a comment line above a name's lines

    def scalar(self, name: str, value: int, ctype: str, comment: str = "") -> str:
        self._record(name, [value])
        if comment:
            self.comments[name] = f"# {name}: {comment}"
        return f'host_args.get<{ctype}>("{name}")'

    def value(self, name: str, bits: int, ctype: str) -> str:
        """A value of a host vector's element type (its bits, as `element_bits` gives them): main.cpp's host_value."""
        self._record(name, [bits])
        return f'host_value<{ctype}>(host_args, "{name}")'

    def list(self, name: str, values: Iterable[int], comment: str = "") -> str:
        self._record(name, list(values))
        if comment:
            self.comments[name] = f"# {name}: {comment}"
        return f'host_args.list("{name}")'

    def rows(self, name: str, rows: Sequence[Sequence[int]], names: Sequence[str] = (),
             notes: Sequence[str] = ()) -> str:
        """A list written one row a line (main.cpp reads the lines of one name as one list), under a comment with
        the `names` of what each row holds and a comment line per row of `notes` (what row i is)."""
        self._record(name, [v for row in rows for v in row])
        self.lines[name] = [list(row) for row in rows]
        if names or notes:
            self.comments[name] = "\n".join([f"# {name}: {', '.join(names)}", *(f"#   {n}" for n in notes)])
        return f'host_args.list("{name}")'

    def layout(self, tensor: Mapping[str, Any]) -> str:
        """A tensor's host layout (tilelang.tenstorrent.host.host_layout, merged into the template's tensor)."""
        name = tensor[TENSOR.NAME]
        self._record(f"{name}.layout", [tensor[key] for key in LAYOUT])
        return f'layout_of(host_args, "{name}")'

    def _record(self, name: str, values: Sequence[Any]) -> None:
        if not name or any(c.isspace() for c in name):
            raise TTCodegenError(f"kernel '{self.kernel}': host argument name {name!r} is empty or holds a space")
        if any(int(v) != v for v in values):
            raise TTCodegenError(f"kernel '{self.kernel}': host argument '{name}' holds a non-integer: {values}")
        ints = [int(v) for v in values]
        known = self.values.setdefault(name, ints)
        if known != ints:
            raise TTCodegenError(f"kernel '{self.kernel}': host argument '{name}' recorded twice with different "
                                 f"values ({known} and {ints})")

    def text(self) -> str:
        out = [f"# Host arguments of kernel '{self.kernel}': what its main.cpp reads at run time (tilelang.tenstorrent."
               "host_args).\n"]
        for name, values in self.values.items():
            if name in self.comments:
                out.append(self.comments[name] + "\n")
            out += [" ".join([name, *map(str, line)]) + "\n" for line in self.lines.get(name, [values])]
        return "".join(out)


def runtime_rows(rows: Sequence[Mapping[str, Any]], tensors: Sequence[str],
                 semaphores: Sequence[str]) -> list[list[int]]:
    """A kernel's runtime arguments per core (the plan's runtime_arg_values) as main.cpp's set_runtime_args reads
    them: a row per core, its x, y, its number of arguments, then per argument a (kind, a, b) triple (ARG_KINDS)."""
    out: list[list[int]] = []
    for row in rows:
        core, args = row[CORE_ARGS.CORE], row[CORE_ARGS.ARGS]
        out.append([int(core[0]), int(core[1]), len(args), *(v for a in args for v in _arg(a, tensors, semaphores))])
    return out


def _arg(value: Any, tensors: Sequence[str], semaphores: Sequence[str]) -> list[int]:
    if not isinstance(value, dict):
        return [ARG_KINDS["constant"], int(value) & 0xFFFFFFFF, 0]
    if TENSOR_ADDRESS.TENSOR in value:
        return [ARG_KINDS[TENSOR_ADDRESS.TENSOR], tensors.index(value[TENSOR_ADDRESS.TENSOR]), 0]
    if SEMAPHORE_ID.SEMAPHORE in value:
        return [ARG_KINDS[SEMAPHORE_ID.SEMAPHORE], semaphores.index(value[SEMAPHORE_ID.SEMAPHORE]), 0]
    kind = NOC_X.NOC_X if NOC_X.NOC_X in value else NOC_Y.NOC_Y
    x, y = value[kind]
    return [ARG_KINDS[kind], int(x), int(y)]


def cb_notes(cbs: Sequence[Cb]) -> list[str]:
    """What each `cbs` line is (a comment line of tt.host_args): its buffer, producer and consumer."""
    return [f"c_{cb[CB.INDEX]}: {cb[CB.BUFFER]}, {cb[CB.DATA_FORMAT]}, {cb[CB.PRODUCER]} -> {cb[CB.CONSUMER]}"
            for cb in cbs]


def cb_rows(cbs: Sequence[Cb]) -> list[list[int]]:
    """The plan's CBs as the `cbs` lines main.cpp creates them from: CB_FIELDS, the data format as its value."""
    return [[DATA_FORMAT_VALUES[cb[CB.DATA_FORMAT]] if key == CB.DATA_FORMAT else int(cb[key])  # type: ignore[literal-required]
             for key in CB_FIELDS] for cb in cbs]


def element_bits(value: float | str, dtype: str) -> int:
    """A value as the bits of a host vector's element of `dtype` (float32: its IEEE bits; bfloat16 / float16: their
    16 bits; an integer dtype: the value, -inf / +inf (a maximum's / minimum's identity) its least / greatest)."""
    value = float(value)
    if dtype in HOST_INT_TYPES:
        info = np.iinfo(np.uint8 if dtype == "bool" else np.dtype(dtype))
        return int(min(max(value, float(info.min)), float(info.max)))
    if dtype == "float32":
        return int(np.array(value, dtype=np.float32).view(np.uint32))
    return int(np.array(value, dtype=_bits_dtype(dtype)).view(np.uint16))


def _bits_dtype(dtype: str) -> Any:
    import ml_dtypes  # numpy's bfloat16, as KernelParam.numpy_dtype imports it: only for bf16/fp16 values

    return ml_dtypes.bfloat16 if dtype == "bfloat16" else np.float16


def semaphore_names(plan_semaphores: Sequence[Mapping[str, Any]]) -> list[str]:
    return [str(sem[SEMAPHORE.NAME]) for sem in plan_semaphores]
