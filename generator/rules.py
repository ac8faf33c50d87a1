"""Declarative pass rules run by the C++ engines of src/transform/engines.h: parameter shapes and rendering.

A rule `{kind: K, params: {...}}` of a pass spec becomes a call `engines::K(<pass name>, options, <params>)`
in the pass's generated C++ source. Each parameter has a shape: a name or list of names, an expression
(rendered as a lambda over a tl::Ctx), a map of expressions, a list of checks, rewrite cases, or persistent
modes. Which parameters each engine takes, in the engine's argument order, is stated once, by
schema/pass.schema.json (for editors and the validation too); ENGINES below is read from it
(generator/engine_table.py). The build (build_pass.py) turns a rule's params into the typed values of params.py,
with every expression parsed and checked once; this module only renders them.
"""

from __future__ import annotations

from .engine_table import MULTICAST_FACTS as MULTICAST_FACTS  # re-exported: the names the engines' context offers
from .engine_table import SHAPES as SHAPES
from .engine_table import Param, load_engine_table
from .expressions import Message, Parsed, cpp_literal, cpp_string, to_cpp
from .params import (
    Cases,
    Checks,
    ExprMap,
    Modes,
    OpExpressionMaps,
    OpExpressions,
    ParamValue,
    Value,
)

# Names every expression and message may use besides the context of its parameter, with their C++ values. They
# are bound where a rule is rendered (in its pass's `make(options)`), never read from an engine's context, so
# every engine supplies them.
COMMON_VALUES = {"device": "tl::Any(tl::device())", "options": "tl::Any(options)"}
COMMON_NAMES = tuple(COMMON_VALUES)

# Options an engine reads itself (src/transform/<kind>.cc, `option(options, "<name>")`), besides what its
# expressions read: a pass with a rule of the kind must declare each, of this type.
ENGINE_OPTIONS: dict[str, dict[str, str]] = {
    "partition": {"core_grid": "int_list", "mode": "string"},
    "dataflow": {"stages": "int"},
}

# Fields of each recognised TileLang tile op (src/transform/tile_ops.cc) that lower_tiles cases see.
TILE_OP_FIELDS: dict[str, tuple[str, ...]] = {
    "copy_in": ("tensor", "row", "col", "rows", "cols", "row_tiles"),
    "copy_out": ("tensor", "row", "col", "rows", "cols", "row_tiles"),
    "rows_in": ("tensor", "first_page", "page_stride", "row_bytes", "rows", "cols"),
    "rows_out": ("tensor", "first_page", "page_stride", "row_bytes", "rows", "cols"),
    "im2col_in": ("tensor", "zeros", "first_row", "first_col", "rows", "cols", "row_bytes", "seg", "seg_bytes",
                  "elem_bytes", "img_n", "img_h", "img_w", "img_c", "out_h", "out_w", "filter", "conv_stride",
                  "dilation", "conv_pad"),
    "tilize": ("rows", "cols"),
    "untilize": ("rows", "cols"),
    "atomic_in": ("tensor", "row", "col", "rows", "cols", "row_tiles", "member", "step"),
    "atomic_out": ("tensor", "row", "col", "rows", "cols", "row_tiles", "member", "members"),
    "copy_local": (),
    "fill": ("value", "tiles", "int32", "bits"),
    "select": ("tiles", "int32"),
    "mask": ("origin", "row_step", "col_step", "pages", "rows", "cols", "tiles"),
    "gemm": ("mt", "nt", "kt", "k", "k_count", "transposed", "tilized", "clear", "flag", "flag_word", "flag_scale",
             "flag_modulus", "flag_lo", "flag_hi", "flag_inside"),
    "transpose": ("rows", "cols"),
    "cumsum": ("rows", "cols", "reverse"),
    "typecast": ("tiles", "cast_from", "cast_to"),
    "eltwise": ("binary", "sfpu_binary", "sfpu", "tiles", "scalar_op", "scalar_bits", "bcast", "bcast_dim", "rows",
                "cols", "where", "where_value"),
    "reduce": ("pool", "rows", "cols", "clear", "sfpu_int32"),
    "hold": ("pages",),
    "release": ("pages",),
    "turn_pass": ("tensor", "member", "step", "members"),
}
TILE_OP_CONTEXT = ("out", "ins", "waits", "pops", "page_bytes", "partial", "absorbed")
# What cases keyed by an intrinsic see besides the call's arguments (dst_capacity: DST tiles of one section
# with the kernel's accumulation width).
KERNEL_FACTS = ("fp32_acc", "profile", "dst_capacity")
# Names a persistent mode's expressions see: its args see the core's work, its bindings the loop.
MODE_WORK = ("work",)
MODE_LOOP = ("i", "grid_x", "grid_y", "grid_z")

# The engines and their parameters: stated by schema/pass.schema.json, read from it (generator/engine_table.py).
ENGINES: dict[str, dict[str, Param]] = load_engine_table()

# ------------------------------------------------------------------------------------ C++ engine declarations
# Each engine takes the pass name, its options and one struct of the rule's parameters (generated/cpp/
# engine_decls.h), with the members of the table above in its order, typed by their shape; an optional
# parameter defaults to empty. A new parameter therefore reaches the code that uses it without any signature in
# between changing.

_CPP_TYPES = {"name": "Any", "names": "Any", "name_pairs": "Any", "expression": "Expr", "expression_map": "ExprMap",
              "checks": "Checks", "cases": "Cases", "op_expressions": "std::vector<std::pair<std::string, Expr>>",
              "op_expression_maps": "std::vector<std::pair<std::string, ExprMap>>",
              "modes": "std::vector<std::pair<std::string, Mode>>"}


def cpp_params_type(kind: str) -> str:
    """The name of a rule kind's parameter struct: lower_tiles -> LowerTilesParams."""
    return "".join(part.title() for part in kind.split("_")) + "Params"


def cpp_params_struct(kind: str) -> str:
    """`struct KParams { ... };` for one rule kind."""
    members = []
    for key, param in ENGINES[kind].items():
        cpp = _CPP_TYPES[param.shape]
        if param.required:
            members.append(f"  {cpp} {key};")
        elif cpp == "Expr":
            members.append(f"  std::optional<Expr> {key} = std::nullopt;")
        else:
            members.append(f"  {cpp} {key} = {'Any(nullptr)' if cpp == 'Any' else '{}'};")
    return f"struct {cpp_params_type(kind)} {{\n" + "\n".join(members) + "\n};"


def cpp_declaration(kind: str) -> str:
    """`Any kind(const std::string& name, const Dict& options, const KParams& params);`"""
    return f"Any {kind}(const std::string& name, const Dict& options, const {cpp_params_type(kind)}& params);"


# ------------------------------------------------------------------------------------------- C++ rendering
# A rule's parameter struct is initialised positionally, in the order of ENGINES: an absent optional parameter
# keeps its default member initializer, or is rendered as its empty value when a later one is given.

_CPP_DEFAULTS = {"name": "tl::Any(nullptr)", "names": "tl::Any(nullptr)", "name_pairs": "tl::Any(nullptr)",
                 "expression": "std::nullopt", "checks": "tl::Checks{}", "expression_map": "tl::ExprMap{}"}
_INDENT = "        "


def cpp_lambda(expr: Parsed) -> str:
    capture = "options" if "options" in expr.names else ""
    return f"[{capture}](const tl::Ctx& c) -> tl::Any {{ return {to_cpp(expr, bound=COMMON_VALUES)}; }}"


def cpp_message(message: Message) -> str:
    """A tl::Message: the literal text and `{name.field[index]}` fields of the message, piece by piece (a field
    of a common name carries its value)."""
    pieces = []
    for p in message.pieces:
        value = f", {COMMON_VALUES[p.name]}" if p.name in COMMON_VALUES else ""
        path = ", ".join(cpp_literal(s) for s in p.path)
        pieces.append(f"{{{cpp_string(p.literal)}, {cpp_string(p.name)}, {{{path}}}{value}}}")
    return "tl::Message{{" + ", ".join(pieces) + "}}"


def _expr_map(value: ExprMap | None, indent: str) -> str:
    if value is None or not value.items:
        return "tl::ExprMap{}"
    rows = [f"{indent}    {{{cpp_string(k)}, {cpp_lambda(v)}}}," for k, v in value.items]
    return "tl::ExprMap{\n" + "\n".join(rows) + f"\n{indent}}}"


def _checks(value: Checks, indent: str) -> str:
    if not value.items:
        return "tl::Checks{}"
    rows = [f"{indent}    tl::Check{{{cpp_lambda(c.expr)},\n{indent}              {cpp_message(c.message)}}},"
            for c in value.items]
    return "tl::Checks{\n" + "\n".join(rows) + f"\n{indent}}}"


def _modes(value: Modes, indent: str) -> str:
    inner = indent + "        "
    rows = [f"{indent}    {{{cpp_string(mode)}, tl::Mode{{\n"
            f"{inner}{_expr_map(spec.args, inner)},\n"
            f"{inner}{cpp_lambda(spec.iterations)},\n"
            f"{inner}{_expr_map(spec.bindings, inner)},\n"
            f"{indent}    }}}},"
            for mode, spec in value.items]
    return "std::vector<std::pair<std::string, tl::Mode>>{\n" + "\n".join(rows) + f"\n{indent}}}"


def _cases(value: Cases, indent: str) -> str:
    inner = indent + "        "
    rows = []
    for subject, cases in value.items:
        items = []
        for case in cases:
            when = cpp_lambda(case.when) if case.when is not None else "std::nullopt"
            args = _expr_map(case.args, inner + "    ") if case.args is not None else "std::nullopt"
            sets = _expr_map(case.set, inner + "    ") if case.set is not None else "std::nullopt"
            items.append(f"{inner}tl::Case{{{when},\n{inner}    {_checks(case.require, inner + '    ')},\n"
                         f"{inner}    {cpp_string(case.emit)}, {cpp_string(case.protocol)},\n"
                         f"{inner}    {args},\n{inner}    {sets}}},")
        rows.append(f"{indent}    {{{cpp_string(subject)}, {{\n" + "\n".join(items) + f"\n{indent}    }}}},")
    return "tl::Cases{\n" + "\n".join(rows) + f"\n{indent}}}"


def _op_expressions(value: OpExpressions, indent: str) -> str:
    rows = [f"{indent}    {{{cpp_string(s)}, {cpp_lambda(e)}}}," for s, e in value.items]
    return "std::vector<std::pair<std::string, tl::Expr>>{\n" + "\n".join(rows) + f"\n{indent}}}"


def _op_expression_maps(value: OpExpressionMaps, indent: str) -> str:
    rows = [f"{indent}    {{{cpp_string(s)}, {_expr_map(m, indent + '    ')}}}," for s, m in value.items]
    return "std::vector<std::pair<std::string, tl::ExprMap>>{\n" + "\n".join(rows) + f"\n{indent}}}"


def _cpp_param(value: ParamValue) -> str:
    match value:
        case Value():
            return cpp_literal(value.value)
        case Parsed():
            return cpp_lambda(value)
        case ExprMap():
            return _expr_map(value, _INDENT)
        case Checks():
            return _checks(value, _INDENT)
        case Cases():
            return _cases(value, _INDENT)
        case OpExpressions():
            return _op_expressions(value, _INDENT)
        case OpExpressionMaps():
            return _op_expression_maps(value, _INDENT)
        case Modes():
            return _modes(value, _INDENT)


def render_rule_cpp(kind: str, params: dict[str, ParamValue]) -> str:
    """C++ arguments of the engine call for one rule (after the pass name and options): its parameter struct,
    from the typed parameters the build checked."""
    table = ENGINES[kind]
    keys = list(table)
    last = max((keys.index(k) for k in keys if k in params), default=-1)
    members = ", ".join(_cpp_param(params[key]) if key in params else _CPP_DEFAULTS[table[key].shape]
                        for key in keys[:last + 1])
    return f"tl::engines::{cpp_params_type(kind)}{{{members}}}"
