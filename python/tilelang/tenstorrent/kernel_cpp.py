"""Print a role kernel (a PrimFunc after the Tenstorrent pipeline) as TT-Metalium C++.

Every callee, template argument, brace form and include comes from the intrinsic table of the selected API
profile (generated from specs/intrinsics/*.yaml); the entry form (`void kernel_main()` or
`namespace NAMESPACE { void MAIN }`) comes from the profile. Nothing here names a Metalium function.

TIR's floor division and modulus print as C++ `/` and `%` (which truncate toward zero) where TVM's arithmetic
analyzer proves both operands non-negative (tile ids, loop counters, L1 offsets: nearly all index arithmetic here),
else as calls of the floor helpers FLOOR_HELPERS (a value of a word read at run time: a mask's byte at the top of a
word read as an int32 is negative), defined at the top of the kernels that call them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import tvm
import tvm_ffi
from tvm import sym, tirx

from .._intrinsic_table import Spelling
from ..errors import TileLangError
from . import attr_keys, intrinsics
from .lowered import get_attr, intrinsic_of
from .roles import KERNEL_ROLES, PROCESSOR_CLASS

C_TYPES = {"int32": "int32_t", "uint32": "uint32_t", "int64": "int64_t", "uint64": "uint64_t", "bool": "bool",
           "float32": "float", "int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "uint16": "uint16_t"}

# C++ precedence (higher binds tighter) of the binary operators TIR uses.
BINARY: dict[type, tuple[str, int]] = {
    tirx.Mul: ("*", 13), tirx.FloorDiv: ("/", 13), tirx.FloorMod: ("%", 13), tirx.Div: ("/", 13),
    tirx.Mod: ("%", 13), tirx.Add: ("+", 12), tirx.Sub: ("-", 12), tirx.LT: ("<", 10), tirx.LE: ("<=", 10),
    tirx.GT: (">", 10), tirx.GE: (">=", 10), tirx.EQ: ("==", 9), tirx.NE: ("!=", 9), tirx.And: ("&&", 5),
    tirx.Or: ("||", 4),
}


# TIR's floordiv/floormod where an operand may be negative (C++'s `/` and `%` truncate toward zero): name, definition.
FLOOR_HELPERS = {
    tirx.FloorDiv: ("tl_floordiv", "template <typename T>\ninline T tl_floordiv(T a, T b) {\n    T q = a / b;\n"
                                   "    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;\n}\n"),
    tirx.FloorMod: ("tl_floormod", "template <typename T>\ninline T tl_floormod(T a, T b) {\n    T r = a % b;\n"
                                   "    return (r != 0 && (r < 0) != (b < 0)) ? r + b : r;\n}\n"),
}

# Spec result types that are C++ objects or enums, not the TIR scalar that carries them: declared `auto`.
OBJECT_RESULTS = ("accessor", "handle", "l1_ptr", "data_format")

CPP_RESERVED = frozenset(
    "alignas alignof and asm auto bool break case catch char class const constexpr continue default delete do "
    "double else enum explicit export extern false float for friend goto if inline int long mutable namespace new "
    "noexcept not nullptr operator or private protected public register return short signed sizeof static struct "
    "switch template this throw true try typedef typeid typename union unsigned using virtual void volatile while "
    "xor NAMESPACE MAIN kernel_main".split())


class TTCodegenError(TileLangError):
    """IR the Metalium code generator cannot print (names the kernel and the construct)."""


def _dtype(expr: Any) -> str:
    ty = getattr(expr, "ty", None)
    return str(ty.dtype) if ty is not None and hasattr(ty, "dtype") else "handle"


@dataclass
class KernelSource:
    role: str
    text: str
    headers: tuple[str, ...]
    calls: tuple[str, ...]  # intrinsics the kernel calls, sorted
    defines: tuple[tuple[str, str], ...] = ()  # compile defines its calls need (the kernel config's defines)


@dataclass
class _Printer:
    role: str
    profile: str
    kernel: str
    lines: list[str] = field(default_factory=list)
    headers: set[str] = field(default_factory=set)
    defines: set[tuple[str, str]] = field(default_factory=set)
    calls: set[str] = field(default_factory=set)
    used: set[Any] = field(default_factory=set)
    names: dict[Any, str] = field(default_factory=dict)  # Var -> its unique C++ name in this kernel
    analyzer: Any = field(default_factory=sym.Analyzer)  # loop ranges and pure bindings seen so far
    floor_helpers: set[type] = field(default_factory=set)  # FLOOR_HELPERS the kernel calls
    data_vars: set[Any] = field(default_factory=set)  # Vars bound to values read from memory at run time
    # Index scalars (loop-carried, starting at 0) not known non-negative: the others are taken for non-negative, a
    # hypothesis every store to them checks (by induction: each stores a non-negative value if all hold one).
    signed_scalars: set[Any] = field(default_factory=set)
    proxies: dict[Any, Any] = field(default_factory=dict)  # index scalar -> a Var in [0, 2^31 - 1) for the analyzer

    def name(self, var: Any) -> str:
        """Unique per kernel: TIR reuses names across scopes (two `accessor`s, nested `i` loops)."""
        if var not in self.names:
            base = str(var.name) if str(var.name).isidentifier() else "v"
            if base in CPP_RESERVED or base.startswith("__"):
                base += "_"
            taken = set(self.names.values())
            chosen, n = base, 0
            while chosen in taken:
                n += 1
                chosen = f"{base}_{n}"
            self.names[var] = chosen
        return self.names[var]

    # ------------------------------------------------------------------ statements

    def stmt(self, node: Any, depth: int) -> None:
        pad = "    " * depth
        if isinstance(node, tirx.SeqStmt):
            for child in node.seq:
                self.stmt(child, depth)
        elif isinstance(node, tirx.Bind):
            if node.var not in self.used:  # a pure value nobody reads (e.g. block coordinates in a reader)
                return
            value = self.expr(node.value)
            if _reads_data(node.value, self.data_vars):
                self.data_vars.add(node.var)
            pure = intrinsic_of(node.value) is None and not _may_wrap(node.value, self.data_vars)
            if pure and _dtype(node.var).startswith(("int", "uint")):  # an index: its bounds are the analyzer's
                self.analyzer.bind(node.var, node.value, allow_override=True)
            self.lines.append(f"{pad}{self.decl(node.var, node.value)} = {value};")
        elif isinstance(node, tirx.For):
            var = node.loop_var
            ctype = C_TYPES.get(_dtype(var), "int32_t")
            start = self.expr(node.min)
            end = node.min + node.extent if not _is_zero(node.min) else node.extent
            stop = self.expr(end, 11)  # the right operand of `<`: a ?: bound (block-causal's step count) in parens
            name = self.name(var)
            self.analyzer.bind(var, tvm.ir.Range.from_min_extent(node.min, node.extent), allow_override=True)
            self.lines.append(f"{pad}for ({ctype} {name} = {start}; {name} < {stop}; ++{name}) {{")
            self.stmt(node.body, depth + 1)
            self.lines.append(f"{pad}}}")
        elif isinstance(node, tirx.While):  # a work range walked by index scalars (every kernel runs it alike)
            self.lines.append(f"{pad}while ({self.expr(node.condition)}) {{")
            self.stmt(node.body, depth + 1)
            self.lines.append(f"{pad}}}")
        elif isinstance(node, tirx.IfThenElse):
            self.lines.append(f"{pad}if ({self.expr(node.condition)}) {{")
            self.stmt(node.then_case, depth + 1)
            if node.else_case is not None:
                self.lines.append(f"{pad}}} else {{")
                self.stmt(node.else_case, depth + 1)
            self.lines.append(f"{pad}}}")
        elif isinstance(node, tirx.Evaluate):
            if isinstance(node.value, tirx.IntImm):  # no-op
                return
            self.lines.append(f"{pad}{self.expr(node.value)};")
        elif isinstance(node, tirx.AllocBuffer) and _index_scalar(node.buffer):  # a loop-carried index
            ctype = C_TYPES[str(node.buffer.ty.dtype)]
            self.lines.append(f"{pad}{ctype} {self.name(node.buffer)} = 0;")
        elif isinstance(node, tirx.BufferStore) and _index_scalar(node.buffer):
            if node.buffer not in self.signed_scalars and not self.non_negative(node.value):
                self.signed_scalars.add(node.buffer)  # kernel_source prints the kernel again without the hypothesis
            self.lines.append(f"{pad}{self.expr(node.buffer)} = {self.expr(node.value)};")
        else:
            raise TTCodegenError(f"kernel '{self.kernel}': cannot print {type(node).__name__} statements as "
                                 "Metalium C++ (the Tenstorrent pipeline should have lowered them)")

    def decl(self, var: Any, value: Any) -> str:
        dtype = _dtype(var)
        record = intrinsic_of(value)
        # `constexpr` when computed from compile-time arguments only, as tt-metal writes them (TensorAccessorArgs,
        # next_compile_time_args_offset()): a later template argument may use the value.
        const = record is not None and bool(record.args) and all(a.const for a in record.args)
        if dtype in C_TYPES and (record is None or record.returns not in OBJECT_RESULTS):
            return f"{'constexpr ' if const else ''}{C_TYPES[dtype]} {self.name(var)}"
        if const:
            return f"constexpr auto {self.name(var)}"
        return f"const auto {self.name(var)}"

    # ------------------------------------------------------------------ expressions

    def expr(self, node: Any, parent: int = 0) -> str:
        if isinstance(node, tirx.Var):
            if node not in self.names:
                raise TTCodegenError(f"kernel '{self.kernel}': variable '{node.name}' is used but never defined "
                                     "(the role kernel must bind all its inputs from runtime arguments)")
            return self.names[node]
        if isinstance(node, tirx.IntImm):
            dtype = _dtype(node)
            if dtype == "bool":
                return "true" if node.value else "false"
            return f"{node.value}u" if dtype.startswith("uint") else str(node.value)
        if isinstance(node, tirx.FloatImm):
            value = float(node.value)
            if math.isinf(value):  # T.fill(x, -T.infinity(...)): C++ has no infinity literal
                return "__builtin_inff()" if value > 0 else "-__builtin_inff()"
            return f"{value!r}f"
        if isinstance(node, tirx.Cast):
            dtype = _dtype(node)
            if dtype not in C_TYPES:
                raise TTCodegenError(f"kernel '{self.kernel}': cast to {dtype} has no C++ type here")
            return f"static_cast<{C_TYPES[dtype]}>({self.expr(node.value)})"
        if type(node) in FLOOR_HELPERS and not self.non_negative(node.a, node.b):
            self.floor_helpers.add(type(node))
            ctype = C_TYPES.get(_dtype(node), "int32_t")
            return f"{FLOOR_HELPERS[type(node)][0]}<{ctype}>({self.expr(node.a)}, {self.expr(node.b)})"
        if type(node) in BINARY:
            op, prec = BINARY[type(node)]
            left = self.expr(node.a, prec)
            right = self.expr(node.b, prec + 1)  # left-associative: a right operand of equal rank needs parens
            text = f"{left} {op} {right}"
            return f"({text})" if prec < parent else text
        if isinstance(node, (tirx.Min, tirx.Max)):  # a clamped page index (an index mask's table page)
            a, b = self.expr(node.a, 10), self.expr(node.b, 10)
            text = f"{a} {'<' if isinstance(node, tirx.Min) else '>'} {b} ? {a} : {b}"
            return f"({text})" if parent > 2 else text
        if isinstance(node, tirx.Not):
            return f"!{self.expr(node.a, 14)}"
        if isinstance(node, tirx.Select) or _is_if_then_else(node):  # a flag (block-causal's `is_noisy_diag`)
            parts = (node.condition, node.true_value, node.false_value) if isinstance(node, tirx.Select) else node.args
            cond, yes, no = (self.expr(e, 3) for e in parts)
            text = f"{cond} ? {yes} : {no}"
            return f"({text})" if parent > 2 else text
        if isinstance(node, tvm.ir.TensorLoad) and _index_scalar(node.source):
            return self.expr(node.source)
        if isinstance(node, tvm.ir.Call):
            return self.call(node)
        raise TTCodegenError(f"kernel '{self.kernel}': cannot print {type(node).__name__} expressions as Metalium C++")

    def non_negative(self, *operands: Any) -> bool:
        """Whether the analyzer proves every operand >= 0 (then C++'s truncating `/` and `%` are TIR's floor ones)."""
        return all(_dtype(x).startswith("uint") or (not _may_wrap(x, self.data_vars) and self.analyzer.can_prove(
            tirx.GE(self.with_proxies(x), tirx.const(0, _dtype(x))))) for x in operands)

    def with_proxies(self, expr: Any) -> Any:
        """`expr` with each index scalar taken for non-negative read as its proxy Var (the analyzer's to bound)."""
        def proxy(load: Any) -> Any:
            buffer = load.source
            if not _index_scalar(buffer) or buffer in self.signed_scalars:
                return load
            if buffer not in self.proxies:
                var = tirx.Var(f"{buffer.name}_value", str(buffer.ty.dtype))
                self.analyzer.bind(var, tvm.ir.Range.from_min_extent(0, 2**31 - 1), allow_override=True)
                self.proxies[buffer] = var
            return self.proxies[buffer]

        return tvm_ffi.structural_map(expr, (tvm.ir.TensorLoad, proxy), order="post")

    def call(self, node: Any) -> str:
        record = intrinsic_of(node)
        if record is None:
            op = getattr(node.op, "name", node.op)
            raise TTCodegenError(f"kernel '{self.kernel}': call to '{op}' is not a Metalium intrinsic")
        spelling = record.cpp.get(self.profile)
        if spelling is None:
            raise TTCodegenError(f"kernel '{self.kernel}': intrinsic '{record.name}' has no C++ spelling in API "
                                 f"profile '{self.profile}' (specs/intrinsics, family '{record.family}')")
        header = spelling.header_for(self.role)
        if header is None:
            raise TTCodegenError(f"kernel '{self.kernel}': intrinsic '{record.name}' names no "
                                 f"{PROCESSOR_CLASS[self.role]} header in API profile '{self.profile}'")
        self.headers.add(header)
        self.defines.update(spelling.defines)
        self.calls.add(record.name)
        named = dict(zip((a.name for a in record.args), node.args, strict=True))
        template = [self.expr(named[name]) for name in spelling.template_args]
        args = [self.expr(value) for name, value in named.items() if name not in spelling.template_args]
        return spelled_call(spelling, args, template)


def spelled_call(spelling: Spelling, args: list[str], template: list[str] | None = None) -> str:
    """The C++ text of a call of `spelling` (one profile's) with printed arguments `args` (by its form)."""
    callee = spelling.callee + (f"<{', '.join(template)}>" if template else "")
    if spelling.form == "member":  # a member function of the first argument's object
        callee, args = f"{args[0]}.{callee}", args[1:]
    if spelling.form == "subscript":  # an element of the pointer the cast makes of the first argument
        return f"{callee}({args[0]})[{', '.join(args[1:])}]"
    open_, close = ("{", "}") if spelling.form == "braces" else ("(", ")")
    return f"{callee}{open_}{', '.join(args)}{close}"


def _is_if_then_else(node: Any) -> bool:
    """Whether `node` is a scalar T.if_then_else (printed as C++'s ?:, as a Select)."""
    return isinstance(node, tvm.ir.Call) and getattr(node.op, "name", None) == "prim.if_then_else"


def _index_scalar(buffer: Any) -> bool:
    """An integer one-element local buffer: an index scalar each kernel keeps as a variable (src/transform/ir.h)."""
    ty = buffer.ty
    dims = [int(d) for d in ty.shape] if all(isinstance(d, tirx.IntImm) for d in ty.shape) else []
    return str(ty.storage_scope) == "local" and dims == [1] and str(ty.dtype).startswith(("int", "uint"))


def _may_wrap(expr: Any, data_vars: set[Any]) -> bool:
    """Whether `expr` casts a value read from memory at run time (a uint32 word of a mask, by a read_state intrinsic)
    to a signed type that may not hold it: TVM's analyzer takes a cast for the value unchanged (a uint32 word's bounds,
    so never negative). The pure intrinsics' values (runtime and compile-time arguments: counts, ids, offsets the host
    sets) fit."""
    found: list[bool] = []

    def cast(node: Any) -> None:
        src, dst = node.value.ty.dtype, node.ty.dtype
        if str(src).startswith(("int", "uint")) and str(dst).startswith("int") and (
                src.bits > dst.bits or (str(src).startswith("uint") and src.bits >= dst.bits)):
            found.append(_reads_data(node.value, data_vars))

    tvm_ffi.structural_walk(expr, [(tirx.Cast, cast)])
    return any(found)


def _reads_data(expr: Any, data_vars: set[Any]) -> bool:
    """Whether `expr` calls an intrinsic that is not pure (reads memory) or reads a Var bound to such a value."""
    found: list[bool] = []

    def call(node: Any) -> None:
        record = intrinsic_of(node)
        found.append(record is None or record.effect != "Pure")

    tvm_ffi.structural_walk(expr, [(tvm.ir.Call, call), (tirx.Var, lambda v: found.append(v in data_vars))])
    return any(found)


def _is_zero(expr: Any) -> bool:
    return isinstance(expr, tirx.IntImm) and expr.value == 0


def _used_vars(body: Any) -> set[Any]:
    """Vars read anywhere, iterated so a Bind only feeding dead Binds is dead too."""
    binds: list[Any] = []
    tvm_ffi.structural_walk(body, [(tirx.Bind, binds.append)])
    values = {b.var: b.value for b in binds}

    def reads(node: Any) -> set[Any]:
        found: set[Any] = set()
        tvm_ffi.structural_walk(node, [(tirx.Var, found.add)])
        return found

    # Reads outside Bind values: statements with the Bind values blanked out.
    outside = set()
    stripped = tvm_ffi.structural_map(body, (tirx.Bind, lambda b: tirx.Evaluate(tirx.IntImm("int32", 0))),
                                      order="post")
    outside |= reads(stripped)
    live = set(outside)
    changed = True
    while changed:
        changed = False
        for var, value in values.items():
            if var in live:
                new = reads(value) - live
                if new:
                    live |= new
                    changed = True
    # Binds with side effects (an opaque call) stay even when unread.
    for var, value in values.items():
        record = intrinsic_of(value)
        if record is not None and record.effect not in ("Pure", "ReadState", "ExprAnnotation"):
            live.add(var)
    return live


def kernel_source(func: tirx.PrimFunc, kernel: str, profile: str | None = None) -> KernelSource:
    """The C++ source of one role kernel (its kernel-role attribute: reader/compute/writer)."""
    role = get_attr(func, attr_keys.TT_KERNEL_ROLE)
    if role not in KERNEL_ROLES:
        raise TTCodegenError(f"kernel '{kernel}' has no {'/'.join(KERNEL_ROLES)} role "
                             f"({attr_keys.TT_KERNEL_ROLE} = {role!r}); "
                             "run the Tenstorrent pipeline first")
    profile = profile or intrinsics.TENSTORRENT_PROFILE
    used, signed = _used_vars(func.body), set[Any]()
    while True:  # again while a store disproves that an index scalar is non-negative
        printer = _Printer(role, profile, kernel, used=used, signed_scalars=set(signed))
        printer.stmt(func.body, 1)
        if printer.signed_scalars == signed:
            break
        signed = printer.signed_scalars
    entry = intrinsics.PROFILES[profile].kernel_entry
    body = "\n".join(printer.lines)
    headers = set(printer.headers)
    if role == "compute" and entry == "namespace_main":
        headers.add(intrinsics.PROFILES[profile].compute_entry_header)  # MAIN, also for a kernel calling nothing
    includes = "\n".join(f'#include "{h}"' for h in sorted(headers))
    helpers = "".join(FLOOR_HELPERS[op][1] + "\n" for op in BINARY if op in printer.floor_helpers)
    head = f"// {role} kernel of '{kernel}' (API profile {profile}).\n#include <cstdint>\n{includes}\n\n{helpers}"
    if role == "compute" and entry == "namespace_main":
        text = f"{head}namespace NAMESPACE {{\nvoid MAIN {{\n{body}\n}}\n}}  // namespace NAMESPACE\n"
    else:
        text = f"{head}void kernel_main() {{\n{body}\n}}\n"
    defines = dict(sorted(printer.defines))
    if len(defines) != len(printer.defines):
        raise TTCodegenError(f"kernel '{kernel}': its calls need conflicting defines {sorted(printer.defines)}")
    return KernelSource(role, text, tuple(sorted(printer.headers)), tuple(sorted(printer.calls)),
                        tuple(defines.items()))
