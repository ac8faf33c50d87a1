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
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .kernel_cpp import TTCodegenError
from .records import CORE_ARGS, HOST_TENSOR, NOC_X, NOC_Y, SEMAPHORE, SEMAPHORE_ID, TENSOR, TENSOR_ADDRESS

FILE = "tt.host_args"
# A runtime argument in tt.host_args: a (kind, a, b) triple; main.cpp's runtime_arg switches on the kind.
# The keys: the runtime-argument records' own (a plain number is a constant).
ARG_KINDS = {"constant": 0, TENSOR_ADDRESS.TENSOR: 1, SEMAPHORE_ID.SEMAPHORE: 2, NOC_X.NOC_X: 3, NOC_Y.NOC_Y: 4}
LAYOUT = (HOST_TENSOR.LEAD, HOST_TENSOR.ROWS, HOST_TENSOR.COLS, HOST_TENSOR.PROWS, HOST_TENSOR.PCOLS, HOST_TENSOR.ER,
          HOST_TENSOR.PR, HOST_TENSOR.EC, HOST_TENSOR.PC)  # the order of a `<tensor>.layout` line (tensor_layout)


class HostArgs:
    """The values main.cpp.j2 records while it renders (name -> integers), and the C++ that reads each."""

    def __init__(self, kernel: str) -> None:
        self.kernel = kernel
        self.values: dict[str, list[int]] = {}
        self.lines: dict[str, list[list[int]]] = {}  # how the file splits a value list (one line per core)
        self.comments: dict[str, str] = {}  # a comment line above a name's lines

    def scalar(self, name: str, value: int, ctype: str) -> str:
        self._record(name, [value])
        return f'host_args.get<{ctype}>("{name}")'

    def list(self, name: str, values: Iterable[int]) -> str:
        self._record(name, list(values))
        return f'host_args.list("{name}")'

    def rows(self, name: str, rows: Sequence[Sequence[int]], names: Sequence[str] = ()) -> str:
        """A list written one row a line (main.cpp reads the lines of one name as one list), under a comment with
        the `names` of what each row holds."""
        self._record(name, [v for row in rows for v in row])
        self.lines[name] = [list(row) for row in rows]
        if names:
            self.comments[name] = f"# {name}: {', '.join(names)}"
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


def semaphore_names(plan_semaphores: Sequence[Mapping[str, Any]]) -> list[str]:
    return [str(sem[SEMAPHORE.NAME]) for sem in plan_semaphores]
