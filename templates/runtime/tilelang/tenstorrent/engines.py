"""The generic pass engines of the Tenstorrent pipeline.

Generated pass modules (tilelang/transform) call one engine per rule of a pass spec, passing the rule's
parameters: plain values, and spec expressions rendered as lambdas. Each engine returns a TVM pass.
What to compute lives in the specs; the engines only know how to walk and rebuild the IR.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from types import SimpleNamespace
from typing import Any

import tvm
import tvm_ffi
from tvm import tirx

from . import device, fn, intrinsics, tileops
from .builder import Builder, seq, tt_call
from .ir import (
    TTLoweringError,
    flatten,
    get_attr,
    intrinsic_of,
    map_evaluates,
    named_args,
    onchip_buffers,
    tensor_params,
    tt_calls,
    with_attrs,
)
from .protocols import PROTOCOLS

Expr = Callable[..., Any]
ROLES = ("reader", "compute", "writer")


def _profile() -> str:
    return device.PROFILE


def _func_pass(name: str, body: Callable[[tirx.PrimFunc], tirx.PrimFunc]) -> tvm.transform.Pass:
    def run(func: tirx.PrimFunc, mod: Any, ctx: Any) -> tirx.PrimFunc:
        return body(func)

    return tirx.transform.prim_func_pass(run, opt_level=0, name=f"tl.{name}")


def _check(checks: Sequence[tuple[Expr, str]], where: str, **ctx: Any) -> None:
    for expr, message in checks:
        if not expr(**ctx):
            text = message.format(**ctx)
            raise TTLoweringError(f"{where} {text}" if where else text)


def _ns(value: Any) -> Any:
    if isinstance(value, Mapping):
        return SimpleNamespace(**{k: _ns(v) for k, v in value.items()})
    return value


# --------------------------------------------------------------------------------------------- annotate


def annotate(name: str, *, options: dict[str, Any], attr: str, foreach: str, fields: dict[str, Expr],
             require: Sequence[tuple[Expr, str]] = ()) -> tvm.transform.Pass:
    """attr = {item name: {field: expr}} for each tensor parameter or on-chip buffer."""

    def body(func: tirx.PrimFunc) -> tirx.PrimFunc:
        items = tensor_params(func) if foreach == "tensors" else onchip_buffers(func)
        what = "tensor" if foreach == "tensors" else "on-chip buffer"
        table = {}
        for item in items:
            ctx = {"buffer": item, "device": device, "options": _ns(options)}
            _check(require, f"{what} '{item.name}'", **ctx)
            table[item.name] = {key: expr(**ctx) for key, expr in fields.items()}
        return with_attrs(func, {attr: table})

    return _func_pass(name, body)


# -------------------------------------------------------------------------------------------- partition


def _balanced(total: int, parts: int) -> list[tuple[int, int]]:
    base, rem = divmod(total, parts)
    out, start = [], 0
    for i in range(parts):
        size = base + (1 if i < rem else 0)
        out.append((start, size))
        start += size
    return out


def _launch_extents(func: tirx.PrimFunc) -> dict[str, int]:
    extents: dict[str, int] = {}

    def visit(stmt: Any) -> None:
        if stmt.attr_key == "thread_extent" and isinstance(stmt.node, tirx.IterVar):
            tag = str(stmt.node.thread_tag)
            if not isinstance(stmt.value, tirx.IntImm):
                raise TTLoweringError(f"launch extent of {tag} is dynamic ({stmt.value})")
            extents[tag] = int(stmt.value.value)

    tvm_ffi.structural_walk(func.body, [(tirx.AttrStmt, visit)])
    return extents


def partition(name: str, *, options: dict[str, Any], require: Sequence[tuple[Expr, str]] = (),
              auto_shard: Expr | None = None) -> tvm.transform.Pass:
    """Distribute the T.Kernel block grid over the core grid: contiguous balanced ranges (global) or
    rectangles of blocks (shard); mode `auto` picks shard where the spec's `auto_shard` holds."""

    def body(func: tirx.PrimFunc) -> tirx.PrimFunc:
        extents = _launch_extents(func)
        unknown = sorted(t for t in extents if not t.startswith("blockIdx.") or t == "blockIdx.z")
        if unknown:
            raise TTLoweringError(f"launch dimension {unknown[0]} is not supported by the tenstorrent backend "
                                  "(T.Kernel grids are 1-D or 2-D)")
        gx, gy = extents.get("blockIdx.x", 1), extents.get("blockIdx.y", 1)
        cx, cy = (int(v) for v in options["core_grid"])
        _check(require, "", grid_x=gx, grid_y=gy, cores_x=cx, cores_y=cy, device=device)
        mode = options["mode"]
        if mode == "auto":
            shard = auto_shard is not None and auto_shard(grid_x=gx, grid_y=gy, cores_x=cx, cores_y=cy, device=device)
            mode = "shard" if shard else "global"
        work: list[dict[str, Any]] = []
        if mode == "global":
            total = gx * gy
            used = min(total, cx * cy)
            for i, (start, count) in enumerate(_balanced(total, used)):
                work.append({"core": [i % cx, i // cx], "start": start, "count": count})
        else:
            rows = _balanced(gy, min(gy, cy))
            cols = _balanced(gx, min(gx, cx))
            for y, (row0, nrows) in enumerate(rows):
                for x, (col0, ncols) in enumerate(cols):
                    work.append({"core": [x, y], "row0": row0, "col0": col0, "rows": nrows, "cols": ncols,
                                 "count": nrows * ncols})
        return with_attrs(func, {
            "tt.core_grid": [cx, cy],
            "tt.grid_blocks": [gx, gy],
            "tt.partition_mode": mode,
            "tt.work_partition": work,
            "tt.core_ranges": _core_ranges([w["core"] for w in work]),
        })

    return _func_pass(name, body)


def _core_ranges(cores: list[list[int]]) -> list[list[int]]:
    """Row-wise maximal ranges [x0, y0, x1, y1] covering the used cores."""
    by_row: dict[int, list[int]] = {}
    for x, y in cores:
        by_row.setdefault(y, []).append(x)
    ranges = []
    for y in sorted(by_row):
        xs = sorted(by_row[y])
        start = prev = xs[0]
        for x in xs[1:] + [None]:  # type: ignore[list-item]
            if x is not None and x == prev + 1:
                prev = x
                continue
            ranges.append([start, y, prev, y])
            if x is not None:
                start = prev = x
    merged: list[list[int]] = []
    for r in ranges:  # merge identical x-spans of consecutive rows
        if merged and merged[-1][0] == r[0] and merged[-1][2] == r[2] and merged[-1][3] + 1 == r[1]:
            merged[-1][3] = r[3]
        else:
            merged.append(r)
    return merged


# ------------------------------------------------------------------------------------------- persistent


def persistent(name: str, *, options: dict[str, Any], modes: dict[str, dict[str, Any]]) -> tvm.transform.Pass:
    """Replace the blockIdx launches by a per-core loop over the core's work; the loop bounds and block
    coordinates are runtime arguments whose per-core values come from the work partition."""

    def body(func: tirx.PrimFunc) -> tirx.PrimFunc:
        mode = get_attr(func, "tt.partition_mode")
        spec = modes[mode]
        gx, gy = get_attr(func, "tt.grid_blocks")
        args = {arg: tirx.Var(arg, "int32") for arg in spec["args"]}
        values = [{arg: int(expr(work=_ns(w))) for arg, expr in spec["args"].items()}
                  for w in get_attr(func, "tt.work_partition")]
        i = tirx.Var("i", "int32")
        launches: dict[str, Any] = {}

        def strip(stmt: Any) -> Any:
            if stmt.attr_key == "thread_extent" and isinstance(stmt.node, tirx.IterVar):
                launches[str(stmt.node.thread_tag)] = stmt.node.var
                return stmt.body
            return stmt

        inner = tvm_ffi.structural_map(func.body, (tirx.AttrStmt, strip), order="post")
        ctx = dict(args, i=i, grid_x=gx, grid_y=gy)
        binds = [tirx.Bind(var, fn._expr(spec["bindings"][tag](**ctx))) for tag, var in sorted(launches.items())]
        loop = tirx.For(i, tirx.const(0, "int32"), spec["iterations"](**ctx), tirx.ForKind.SERIAL,
                        seq(binds + flatten(inner)), annotations={tileops.PERSISTENT_LOOP: 1})
        return with_attrs(func.with_body(loop), {"tt.work_args": list(spec["args"]), "tt.work_values": values,
                                                 "tt.launch_vars": {tag: var.name for tag, var in launches.items()}})

    return _func_pass(name, body)


# --------------------------------------------------------------------------------------------- dataflow


def dataflow(name: str, *, options: dict[str, Any], depth: dict[str, Expr]) -> tvm.transform.Pass:
    """Streams of on-chip values -> CB descriptors (index, class, pages, depth, page size, data format)."""

    def body(func: tirx.PrimFunc) -> tirx.PrimFunc:
        streams = tileops.dataflow(tileops.tile_ops(func.body), int(options["stages"]), depth)
        cbs = []
        for s in sorted(streams, key=lambda s: s.index):
            page = device.TILE[0] * device.TILE[1] * fn.dtype_bytes(s.dtype) if fn.supported_dtype(s.dtype) else 0
            if not page:
                raise TTLoweringError(f"on-chip buffer '{s.buffer.name}' has dtype {s.dtype}; the tenstorrent backend "
                                      f"supports {', '.join(sorted(device.DATA_FORMATS))}")
            cbs.append({"index": s.index, "stream": s.key, "buffer": s.buffer.name, "buffer_dtype": s.buffer.dtype,
                        "class": s.cls, "dtype": s.dtype, "data_format": fn.data_format(s.dtype), "page_bytes": page,
                        "block_pages": s.pages, "depth": s.pages_depth, "producer": s.producer,
                        "consumer": s.consumers[0]})
        return with_attrs(func, {"tt.cbs": cbs})

    return _func_pass(name, body)


# ---------------------------------------------------------------------------------------- tile op rewrite


def _cases(cases: Sequence[dict[str, Any]], ctx: dict[str, Any], where: str) -> dict[str, Any] | None:
    for case in cases:
        if "when" in case and not case["when"](**ctx):
            continue
        _check(case.get("require", ()), where, **ctx)
        return case
    return None


def lower_tiles(name: str, *, options: dict[str, Any], cases: dict[str, list[dict[str, Any]]]) -> tvm.transform.Pass:
    """TileLang tile ops -> abstract block intrinsics, with arguments computed by the spec's expressions over
    the op's fields and its CB descriptors."""

    def body(func: tirx.PrimFunc) -> tirx.PrimFunc:
        cbs = {cb["stream"]: cb for cb in get_attr(func, "tt.cbs")}
        ops = tileops.tile_ops(func.body)
        tileops.dataflow(ops, 2, {c: (lambda pages, stages: pages) for c in ("input", "output", "intermediate")})
        absorbed = {k for k in (op.writes for op in ops if op.kind == "fill") if k not in cbs}
        replacement: dict[Any, Any] = {}
        for op in ops:
            ctx = dict(op.fields, device=device, absorbed=op.writes in absorbed)
            ctx["out"] = cbs[op.writes]["index"] if op.writes in cbs else -1
            ctx["ins"] = [cbs[k]["index"] for k in op.reads]
            known = [cbs[k] for k in [op.writes, *op.reads] if k in cbs]
            ctx["page_bytes"] = known[0]["page_bytes"] if known else 0
            ctx["partial"] = cbs[op.partial]["index"] if op.partial else -1
            case = _cases(cases.get(op.kind, []), ctx, f"{op.kind.replace('_', ' ')}:")
            if case is None:
                raise TTLoweringError(f"no rule of {name} lowers a {op.kind} tile op")
            if "emit" not in case:
                replacement[op.stmt] = tirx.Evaluate(tirx.const(0, "int32"))
                continue
            record = intrinsics.INTRINSICS[case["emit"]]
            args = [case["args"][a.name](**ctx) for a in record.args]
            replacement[op.stmt] = tirx.Evaluate(tt_call(case["emit"], *args))

        def swap(stmt: Any) -> Any:
            for old, new in replacement.items():
                if stmt.same_as(old):
                    return new
            return stmt

        new_body = tvm_ffi.structural_map(func.body, [(tirx.TilePrimitiveCall, swap), (tirx.For, swap)], order="pre")
        return func.with_body(tileops.strip_onchip_allocs(new_body))

    return _func_pass(name, body)


# ------------------------------------------------------------------------------------------------ split


def _keep(stmt: Any, role: str) -> Any | None:
    """The part of `stmt` that belongs to kernel `role` (None when nothing does)."""
    if isinstance(stmt, tirx.SeqStmt):
        kept = [k for k in (_keep(s, role) for s in stmt.seq) if k is not None]
        return _drop_unused_binds(kept)
    if isinstance(stmt, tirx.For):
        inner = _keep(stmt.body, role)
        if inner is None:
            return None
        return tirx.For(stmt.loop_var, stmt.min, stmt.extent, stmt.kind, inner, annotations=stmt.annotations)
    if isinstance(stmt, tirx.IfThenElse):
        then = _keep(stmt.then_case, role)
        other = _keep(stmt.else_case, role) if stmt.else_case is not None else None
        if then is None and other is None:
            return None
        return tirx.IfThenElse(stmt.condition, then or tirx.Evaluate(tirx.const(0, "int32")), other)
    if isinstance(stmt, tirx.Bind):
        return stmt
    if isinstance(stmt, tirx.Evaluate):
        record = intrinsic_of(stmt.value)
        if record is not None:
            return stmt if role in record.roles else None
        if isinstance(stmt.value, tirx.IntImm):
            return None
    raise TTLoweringError(f"statement left after tile-op lowering cannot be split into kernels: {stmt}")


def _drop_unused_binds(stmts: list[Any]) -> Any | None:
    out: list[Any] = []
    for index, stmt in enumerate(stmts):
        if isinstance(stmt, tirx.Bind):
            rest = stmts[index + 1:]
            used = any(_uses(s, stmt.var) for s in rest)
            if not used:
                continue
        out.append(stmt)
    if not out or all(isinstance(s, tirx.Bind) for s in out):
        return None
    return seq(out)


def _uses(stmt: Any, var: Any) -> bool:
    found = []
    tvm_ffi.structural_walk(stmt, [(tirx.Var, lambda v: found.append(v) if v.same_as(var) else None)])
    return bool(found)


def split(name: str, *, options: dict[str, Any], roles: Sequence[str]) -> tvm.transform.Pass:
    """One PrimFunc -> <name>_reader/_compute/_writer, each keeping the calls legal in its role (from the
    intrinsic specs) and the loops and bindings around them."""

    def run(mod: tvm.IRModule, ctx: Any) -> tvm.IRModule:
        out = {}
        for gvar, func in mod.functions.items():
            if not isinstance(func, tirx.PrimFunc) or get_attr(func, "tt.kernel_role"):
                out[gvar.name_hint] = func
                continue
            for role in roles:
                kept = _keep(func.body, role)
                kernel_name = f"{gvar.name_hint}_{role}"
                kernel = func.with_body(kept if kept is not None else tirx.Evaluate(tirx.const(0, "int32")))
                out[kernel_name] = with_attrs(kernel, {"global_symbol": kernel_name, "tt.kernel_role": role})
        return tvm.IRModule(out)

    return tvm.transform.module_pass(run, opt_level=0, name=f"tl.{name}")


def _role_pass(name: str, roles: Sequence[str],
               body: Callable[[tirx.PrimFunc], tirx.PrimFunc]) -> tvm.transform.Pass:
    def run(func: tirx.PrimFunc) -> tirx.PrimFunc:
        return body(func) if get_attr(func, "tt.kernel_role") in roles else func

    return _func_pass(name, run)


# -------------------------------------------------------------------------------------------- multicast


def _shared_along(expr: Any, launch: dict[str, str], step_vars: set[str]) -> str:
    """'row' when a block index depends on blockIdx.y and step loops only (every core of a core row needs the
    same block at the same step), 'column' for blockIdx.x, 'none' otherwise (anything else may differ)."""
    names: set[str] = set()
    tvm_ffi.structural_walk(expr, [(tirx.Var, lambda v: names.add(str(v.name)))])
    for along, tag, other in (("row", "blockIdx.y", "blockIdx.x"), ("column", "blockIdx.x", "blockIdx.y")):
        mine = launch.get(tag)
        if mine in names and launch.get(other) not in names and names <= {mine} | step_vars:
            return along
    return "none"


def _block_reads(stmt: Any, op: str, loops: tuple[str, ...] = ()) -> Iterator[tuple[Any, tuple[str, ...]]]:
    """Calls of `op` with the step loops around them (constant-extent loops inside the per-core loop); calls
    under a condition or a loop of runtime extent are not yielded (cores might not run them in step)."""
    if isinstance(stmt, tirx.SeqStmt):
        for s in stmt.seq:
            yield from _block_reads(s, op, loops)
    elif isinstance(stmt, tirx.For):
        if tileops.PERSISTENT_LOOP in stmt.annotations:
            yield from _block_reads(stmt.body, op, loops)
        elif isinstance(stmt.extent, tirx.IntImm):
            yield from _block_reads(stmt.body, op, loops + (str(stmt.loop_var.name),))
    elif isinstance(stmt, tirx.Evaluate):
        record = intrinsic_of(stmt.value)
        if record is not None and record.name == op:
            yield stmt.value, loops


def multicast(name: str, *, options: dict[str, Any], op: str, tensor: str, index: str, emit: str, when: Expr,
              runtime_args: dict[str, Expr], semaphores: Sequence[str], args: dict[str, Expr]) -> tvm.transform.Pass:
    """Replace each `op` whose block (`index`: its argument holding the block's tile index; `tensor`: the one
    naming the tensor) a whole row (or column) of cores reads at the same step by `emit`, whose
    per-core runtime arguments (sender flag, NoC coordinates) and semaphores are added to the kernel's work
    arguments; other arguments of `emit` come from `args` or from `op`'s arguments of the same name."""
    target = intrinsics.INTRINSICS[emit]

    def body(func: tirx.PrimFunc) -> tirx.PrimFunc:
        work = get_attr(func, "tt.work_partition") or []
        cores = [tuple(w["core"]) for w in work]
        cores_x, cores_y = len({c[0] for c in cores}), len({c[1] for c in cores})
        uniform = (len({w["count"] for w in work}) == 1
                   and sorted(cores) == sorted((x, y) for x in range(cores_x) for y in range(cores_y)))
        launch = get_attr(func, "tt.launch_vars") or {}
        facts = {"partition_mode": get_attr(func, "tt.partition_mode"), "uniform": uniform, "cores_x": cores_x,
                 "cores_y": cores_y, "device": device, "options": _ns(options)}
        replaced: dict[Any, Any] = {}
        new_args: list[str] = []
        values: list[dict[str, Any]] = [dict(v) for v in get_attr(func, "tt.work_values") or []]
        sems: list[dict[str, Any]] = []
        for call, loops in _block_reads(func.body, op):
            record = intrinsic_of(call)
            named = named_args(record, call)
            along = _shared_along(named[index], launch, set(loops))
            receivers = {"row": cores_x - 1, "column": cores_y - 1}.get(along, 0)
            ctx = dict(named, **facts, along=along, receivers=receivers)
            if not when(**ctx):
                continue
            source = str(named[tensor].name)
            bound: dict[str, Any] = {}
            for arg in runtime_args:
                var = tirx.Var(f"{source}_{arg}", "int32")
                bound[arg] = var
                new_args.append(var.name)
                for core_values, (x, y) in zip(values, cores, strict=True):
                    core_values[var.name] = fn.runtime_value(runtime_args[arg](**ctx, x=x, y=y))
            for sem in semaphores:
                var = tirx.Var(f"{source}_{sem}", "int32")
                bound[sem] = var
                new_args.append(var.name)
                sems.append({"name": var.name, "initial_value": 0})
                for core_values in values:
                    core_values[var.name] = {"semaphore": var.name}
            bound.update({k: e(**ctx) for k, e in args.items()})
            missing = [a.name for a in target.args if a.name not in bound and a.name not in named]
            if missing:
                raise TTLoweringError(f"{name}: no value for argument(s) {', '.join(missing)} of tt.{emit}")
            replaced[call] = tt_call(emit, *(bound.get(a.name, named.get(a.name)) for a in target.args))
        if not replaced:
            return func

        def swap(ev: Any) -> Any:
            for old, new in replaced.items():
                if ev.value.same_as(old):
                    return tirx.Evaluate(new)
            return None

        return with_attrs(func.with_body(map_evaluates(func.body, swap)), {
            "tt.work_args": list(get_attr(func, "tt.work_args") or []) + new_args,
            "tt.work_values": values, "tt.semaphores": sems})

    return _role_pass(name, ("reader",), body)


# -------------------------------------------------------------------------------------------- accessors


def accessors(name: str, *, options: dict[str, Any], protocol: str, args: dict[str, Expr],
              address_arg: Expr) -> tvm.transform.Pass:
    """In reader and writer kernels, build one tensor accessor per tensor the kernel moves (protocol of the
    spec, at the top of the kernel) and make the block ops address it instead of the tensor."""

    def body(func: tirx.PrimFunc) -> tirx.PrimFunc:
        tensors = {t.name: t for t in tensor_params(func)}
        layouts = get_attr(func, "tt.accessors")
        used: dict[str, tuple[Any, int]] = {}  # tensor name -> (var, cb of its first block op)
        for record, call in tt_calls(func.body):
            for arg, value in zip(record.args, call.args, strict=True):
                if arg.type == "handle" and value.name in tensors and value.name not in used:
                    used[value.name] = (value, int(named_args(record, call).get("cb", -1)))
        b = Builder(_profile())
        swap: dict[str, Any] = {}
        compile_args, tensor_args = [], {}
        for position, tensor in enumerate(sorted(used, key=lambda n: tensors[n].index)):
            var, cb = used[tensor]
            addr = tirx.Var(str(address_arg(name=tensor)), "uint32")
            ctx = {"tensor": _ns(layouts[tensor]), "position": position, "address": addr, "cb": cb,
                   "device": device}
            bound = PROTOCOLS[protocol](b, **{k: e(**ctx) for k, e in args.items()})
            swap[tensor] = bound["accessor"]
            if layouts[tensor]["compile_time_args"]:  # the profile's accessor reads compile-time arguments
                compile_args.append({"tensor": tensor, "offset": int(args["cta_offset"](**ctx))})
            tensor_args[addr.name] = tensor

        tensor_vars = {name: var for name, (var, _) in used.items()}

        def rewrite(ev: Any) -> Any:
            record = intrinsic_of(ev.value)
            if record is None:
                return None
            args = []
            for value in ev.value.args:
                match = next((n for n, v in tensor_vars.items() if value.same_as(v)), None)
                args.append(swap[match] if match else value)
            return tirx.Evaluate(tt_call(record.name, *args))

        new_body = map_evaluates(func.body, rewrite)
        prologue = flatten(b.finish()) if used else []
        return with_attrs(func.with_body(seq(prologue + flatten(new_body))),
                          {"tt.compile_time_args": compile_args, "tt.tensor_args": tensor_args})

    return _role_pass(name, ("reader", "writer"), body)


# ---------------------------------------------------------------------------------- abstract op rewrite


def kernel_facts(func: tirx.PrimFunc) -> dict[str, Any]:
    cbs = get_attr(func, "tt.cbs") or []
    # The compute results' own dtype (a float32 accumulator packed out as bf16 still accumulates in fp32).
    acc_dtypes = {cb["buffer_dtype"] for cb in cbs if cb["class"] != "input" and cb["producer"] == "compute"}
    fp32 = any(fn.dtype_bytes(d) == 4 for d in acc_dtypes if fn.supported_dtype(d))
    return {"fp32_acc": fp32, "profile": _profile(), "device": device}


def rewrite(name: str, *, options: dict[str, Any], cases: dict[str, list[dict[str, Any]]],
            roles: Sequence[str] = ROLES) -> tvm.transform.Pass:
    """Replace abstract ops: `set` updates arguments in place, `emit` makes another intrinsic call,
    `protocol` inserts the named protocol's statements."""

    def body(func: tirx.PrimFunc) -> tirx.PrimFunc:
        facts = kernel_facts(func)

        def visit(ev: Any) -> Any:
            record = intrinsic_of(ev.value)
            if record is None or record.name not in cases:
                return None
            ctx = dict(named_args(record, ev.value), **facts)
            case = _cases(cases[record.name], ctx, f"tt.{record.name}:")
            if case is None:
                return None
            if "set" in case:
                values = {a.name: v for a, v in zip(record.args, ev.value.args, strict=True)}
                values.update({k: fn._expr(e(**ctx)) for k, e in case["set"].items()})
                return tirx.Evaluate(tt_call(record.name, *(values[a.name] for a in record.args)))
            if "emit" in case:
                target = intrinsics.INTRINSICS[case["emit"]]
                return tirx.Evaluate(tt_call(case["emit"], *(case["args"][a.name](**ctx) for a in target.args)))
            b = Builder(_profile())
            PROTOCOLS[case["protocol"]](b, **{k: e(**ctx) for k, e in case["args"].items()})
            return b.finish()

        return func.with_body(map_evaluates(func.body, visit))

    return _role_pass(name, roles, body)


def compute_init(name: str, *, options: dict[str, Any], protocol: str, families: dict[str, Expr],
                 operands: dict[str, dict[str, Expr]]) -> tvm.transform.Pass:
    """Hardware start-up at the top of the compute kernel for the family of its first tile op; when the
    kernel mixes families, every op gets init=1 so it re-initialises the engines it uses."""

    def body(func: tirx.PrimFunc) -> tirx.PrimFunc:
        ops = [(r, c) for r, c in tt_calls(func.body) if r.name in families]
        if not ops:
            return func
        record, call = ops[0]
        ctx = named_args(record, call)
        b = Builder(_profile())
        PROTOCOLS[protocol](b, family=families[record.name](**ctx),
                            **{k: e(**ctx) for k, e in operands[record.name].items()})
        mixed = len({families[r.name](**named_args(r, c)) for r, c in ops}) > 1

        def mark(ev: Any) -> Any:
            rec = intrinsic_of(ev.value)
            if not mixed or rec is None or rec.name not in families:
                return None
            args = [tirx.const(1, "int32") if a.name == "init" else v
                    for a, v in zip(rec.args, ev.value.args, strict=True)]
            return tirx.Evaluate(tt_call(rec.name, *args))

        return func.with_body(seq(flatten(b.finish()) + flatten(map_evaluates(func.body, mark))))

    return _role_pass(name, ("compute",), body)


# --------------------------------------------------------------------------------------------- finalize


def finalize(name: str, *, options: dict[str, Any], order: Sequence[str]) -> tvm.transform.Pass:
    """Bind every runtime argument a kernel uses to get_arg_val(index) at its top, in the spec's order
    (tensor addresses, then work arguments), and record the names and per-core values."""

    def body(func: tirx.PrimFunc) -> tirx.PrimFunc:
        free = {str(v.name): v for v in tirx.analysis.undefined_vars(func.body, [])}
        tensor_args = get_attr(func, "tt.tensor_args") or {}
        work_args = get_attr(func, "tt.work_args") or []
        groups = {"tensors": [a for a in tensor_args if a in free], "work": [a for a in work_args if a in free]}
        names = [a for group in order for a in groups[group]]
        unknown = sorted(set(free) - set(names))
        if unknown:
            raise TTLoweringError(f"{get_attr(func, 'global_symbol')}: value(s) {', '.join(unknown)} are neither "
                                  "runtime arguments nor defined in the kernel")
        binds = []
        for index, arg in enumerate(names):
            value = tt_call("get_arg_val", index)
            var = free[arg]
            dtype = str(var.ty.dtype)
            binds.append(tirx.Bind(var, value if dtype == "uint32" else tirx.Cast(dtype, value)))
        per_core = []
        for work in get_attr(func, "tt.work_values") or []:
            per_core.append([{"tensor": tensor_args[a]} if a in tensor_args else work[a] for a in names])
        cores = [w["core"] for w in get_attr(func, "tt.work_partition") or []]
        new = tirx.PrimFunc([], seq(binds + flatten(func.body)), attrs=func.attrs)
        return with_attrs(new, {"tt.runtime_args": names,
                                "tt.runtime_arg_values": [{"core": c, "args": v}
                                                          for c, v in zip(cores, per_core, strict=True)]})

    return _role_pass(name, ROLES, body)


# ----------------------------------------------------------------------------------------------- verify


def _cb_balance(func: tirx.PrimFunc, pairs: Sequence[Sequence[str]]) -> None:
    """Per loop body, each CB's reserves equal its pushes and its waits equal its pops (counted with
    constant trip counts); a kernel that leaves pages reserved or unpopped per iteration would deadlock."""
    kernel = get_attr(func, "global_symbol")

    def count(stmt: Any, scale: int, totals: dict[tuple[int, str], int]) -> None:
        if isinstance(stmt, tirx.SeqStmt):
            for s in stmt.seq:
                count(s, scale, totals)
        elif isinstance(stmt, tirx.For):
            inner: dict[tuple[int, str], int] = {}
            count(stmt.body, 1, inner)
            _balanced_or_raise(inner, pairs, f"{kernel}: loop over '{stmt.loop_var}'")
            if isinstance(stmt.extent, tirx.IntImm):
                for key, value in inner.items():
                    totals[key] = totals.get(key, 0) + value * int(stmt.extent.value) * scale
        elif isinstance(stmt, tirx.IfThenElse):
            for branch in (stmt.then_case, stmt.else_case):
                if branch is not None:
                    count(branch, scale, totals)
        elif isinstance(stmt, tirx.Evaluate):
            record = intrinsic_of(stmt.value)
            if record is not None and any(record.name in pair for pair in pairs):
                cb, pages = stmt.value.args
                if isinstance(cb, tirx.IntImm) and isinstance(pages, tirx.IntImm):
                    key = (int(cb.value), record.name)
                    totals[key] = totals.get(key, 0) + int(pages.value) * scale

    totals: dict[tuple[int, str], int] = {}
    count(func.body, 1, totals)


def _balanced_or_raise(totals: dict[tuple[int, str], int], pairs: Sequence[Sequence[str]], where: str) -> None:
    for cb in sorted({k[0] for k in totals}):
        for give, take in pairs:
            a, b = totals.get((cb, give), 0), totals.get((cb, take), 0)
            if a != b:
                raise TTLoweringError(f"{where}: CB {cb} is unbalanced per iteration: {give} {a} page(s), {take} {b}")


def verify(name: str, *, options: dict[str, Any], structural: Sequence[str],
           checks: Sequence[tuple[Expr, str]] = (), balance: Sequence[Sequence[str]] = ()) -> tvm.transform.Pass:
    """Structural checks of the split kernels plus the spec's limit checks (CB count, L1, runtime args)."""

    def body(func: tirx.PrimFunc) -> tirx.PrimFunc:
        role = get_attr(func, "tt.kernel_role")
        kernel = get_attr(func, "global_symbol")
        for record, _ in tt_calls(func.body):
            if "no_abstract_ops" in structural and record.level == "abstract":
                raise TTLoweringError(f"{kernel}: abstract op tt.{record.name} was not lowered")
            if "role_legal_calls" in structural and role not in record.roles:
                raise TTLoweringError(f"{kernel}: tt.{record.name} is not legal in a {role} kernel "
                                      f"(roles: {', '.join(record.roles)})")
        if "cb_balance" in structural:
            _cb_balance(func, balance)
        cbs = get_attr(func, "tt.cbs") or []
        biggest = max(cbs, key=lambda cb: cb["depth"] * cb["page_bytes"], default=None)
        largest = (f"'{biggest['buffer']}' (CB {biggest['index']}): {biggest['depth']} pages x "
                   f"{biggest['page_bytes']} B" if biggest else "none")
        _check(checks, f"{kernel}:", cbs=len(cbs), l1_bytes=sum(cb["depth"] * cb["page_bytes"] for cb in cbs),
               largest_cb=largest, runtime_args=len(get_attr(func, "tt.runtime_args") or []), device=device,
               kernel=kernel)
        return func

    return _role_pass(name, ROLES, body)
