"""The small expression language of specs: parsed with `ast`, whitelisted, rendered to C++.

Expressions appear in protocol steps, pass rules and verification checks. They are Python syntax restricted
to integer/boolean arithmetic over named values:

    literals      1  2.5  true  "Float16_b"        (`true`/`false` also accepted as Python's True/False)
    names         cb  tiles  buffer                 (which names exist depends on where the expression is)
    fields        buffer.shape[0]  device.l1_bytes  (attribute access and constant indexing)
    arithmetic    + - * // %   and unary -
    comparisons   == != < <= > >=   (one operator per comparison)
    logic         and  or  not  `a if cond else b`
    functions     the names of FUNCTIONS below, called with positional arguments

Anything else (true division, lambdas, comprehensions, keyword arguments, chained comparisons, ...) is an
error that points at the spec line. Everything renders as calls into the C++ runtime `tl::fn`
(src/transform/expr_runtime.h), which folds constant operands and builds TIR for symbolic ones.

Error messages of checks are format strings whose `{name.field[index]}` fields name the same values
(`parse_message`).
"""

from __future__ import annotations

import ast
import difflib
import json
import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

# Function name -> (min args, max args, doc). `tl::fn` (src/transform/expr_runtime.h) implements each one.
FUNCTIONS: dict[str, tuple[int, int, str]] = {
    "ceildiv": (2, 2, "ceil(a / b) for non-negative integers"),
    "min": (2, 2, "the smaller of two values"),
    "max": (2, 2, "the larger of two values"),
    "prod": (1, 1, "product of a list"),
    "len": (1, 1, "length of a list"),
    "data_format": (1, 1, "tt::DataFormat name of a dtype (from the backend's data_formats)"),
    "dtype_bytes": (1, 1, "bytes per element of a dtype (from the backend's data_formats)"),
    "supported_dtype": (1, 1, "whether the backend has a data format for a dtype"),
    "dram_format": (2, 2, "the block-float DRAM format chosen for tensor `name` in a map of tensor names to "
                          "format names (InferTTLayout's dram_format option), or \"\""),
    "tensor_option": (2, 2, "the value a per-tensor pass option (a map of tensor names, e.g. InferTTLayout's "
                            "memory_config) gives tensor `name`, or \"\""),
    "known_dram_format": (1, 1, "whether a name is one of the backend's block-float dram_formats"),
    "block_format": (1, 1, "tt::DataFormat name of a block-float DRAM format (\"\" for no such format)"),
    "block_tile_bytes": (1, 1, "bytes of one tile of a block-float DRAM format (0 for no such format)"),
    "is_const": (1, 1, "whether a value is a compile-time constant"),
    "largest_divisor": (2, 2, "the largest divisor of n that is at most cap"),
    "aligned": (2, 2, "whether an index expression is provably a multiple of n"),
    "noc_x": (2, 2, "the NoC x coordinate of logical core (x, y), a runtime argument the host fills in"),
    "infinity": (0, 0, "positive infinity (a float; -infinity() for the negative one)"),
    "noc_y": (2, 2, "the NoC y coordinate of logical core (x, y), a runtime argument the host fills in"),
}

_ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%"}
_COMPARE = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}
_LITERAL_NAMES = {"true": "True", "false": "False"}


class ExpressionError(ValueError):
    """A rejected expression; `column` is 0-based within the expression text."""

    def __init__(self, message: str, column: int = 0) -> None:
        super().__init__(message)
        self.column = column


@dataclass(frozen=True)
class Parsed:
    text: str
    tree: ast.expr
    names: frozenset[str]  # free names (roots of field accesses included)


@dataclass(frozen=True)
class MessagePiece:
    literal: str  # text before the field
    name: str  # the field's name, "" when no field follows the text
    path: tuple[str | int, ...]  # the field's attribute names and indices


@dataclass(frozen=True)
class Message:
    """An error message: `str.format` text whose `{name.field[index]}` fields are filled from a check's names."""

    text: str
    pieces: tuple[MessagePiece, ...]


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """' (did you mean 'x'?)' for the closest of `known`, or ''."""
    close = difflib.get_close_matches(name, sorted(known), n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _unknown_name(name: str, where: str, allowed: set[str]) -> str:
    hint = did_you_mean(name, allowed)
    hint += f"; available here: {', '.join(sorted(allowed))}" if allowed else ""
    return f"unknown name '{name}' in {where}{hint}"


def parse(text: str | int | float | bool, allowed: Iterable[str] | None = None) -> Parsed:
    """Parse and whitelist `text`; `allowed` (if given) is the set of names it may use."""
    source = _source(text)
    try:
        tree = ast.parse(source, mode="eval").body
    except SyntaxError as exc:
        raise ExpressionError(f"invalid expression '{source}': {exc.msg}", max((exc.offset or 1) - 1, 0)) from None
    names: set[str] = set()
    _check(tree, names)
    if allowed is not None:
        allowed_set = set(allowed)
        unknown = sorted(names - allowed_set)
        if unknown:
            raise ExpressionError(_unknown_name(unknown[0], f"expression '{source}'", allowed_set),
                                  max(source.find(unknown[0]), 0))
    return Parsed(source, tree, frozenset(names))


_FIELD_NAME = re.compile(r"[A-Za-z_0-9]*")
_FIELD_STEP = re.compile(r"\.([A-Za-z_][A-Za-z0-9_]*)|\[([^\]]+)\]")


def parse_message(text: str, allowed: Iterable[str] | None = None) -> Message:
    """Split a message into its literal text and fields; `allowed` (if given) is the set of names fields use."""
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise ExpressionError(f"invalid message '{text}': {exc}") from None
    pieces = []
    for literal, field, _spec, _conversion in parts:
        name, path = ("", ()) if field is None else _split_field(field)
        if name and allowed is not None and name not in set(allowed):
            raise ExpressionError(_unknown_name(name, f"message '{text}'", set(allowed)))
        pieces.append(MessagePiece(literal, name, path))
    return Message(text, tuple(pieces))


def _split_field(field: str) -> tuple[str, tuple[str | int, ...]]:
    """'buffer.shape[0]' -> ('buffer', ('shape', 0)) (str.format's field grammar)."""
    match = _FIELD_NAME.match(field)
    name = match.group(0) if match else ""
    steps = _FIELD_STEP.findall(field[len(name):])
    return name, tuple(a if a else (int(b) if b.isdigit() else b) for a, b in steps)


def to_cpp(expr: Parsed | str | int | float | bool, ctx: str = "c", bound: Mapping[str, str] | None = None) -> str:
    """C++ source for the expression over the context `ctx` (a tl::Ctx; "" reads names from local variables
    `v_<name>`), calling the runtime of src/transform/expr_runtime.h; a name of `bound` is its C++ expression
    instead (pass rules bind `device` and `options` where they are rendered). Pass rules hand in the expression
    they parsed when the model was built; protocol steps still hand in their text."""
    return _cpp((expr if isinstance(expr, Parsed) else parse(expr)).tree, ctx, bound or {})


def cpp_literal(value: object) -> str:
    """A C++ tl::Any for a plain YAML value (str, int, float, bool, list, dict)."""
    if isinstance(value, bool):
        return f"tl::boolean({'true' if value else 'false'})"
    if isinstance(value, int):
        return f"tl::num({value})"
    if isinstance(value, float):
        return f"tl::real({value!r})"
    if isinstance(value, str):
        return f"tl::str({cpp_string(value)})"
    if isinstance(value, (list, tuple)):
        return "tl::Any(tl::list({" + ", ".join(cpp_literal(v) for v in value) + "}))"
    if isinstance(value, dict):
        items = ", ".join(f"{{{cpp_literal(k)}, {cpp_literal(v)}}}" for k, v in value.items())
        return "tl::Any(tl::dict({" + items + "}))"
    if value is None:
        return "tl::Any(nullptr)"
    raise TypeError(f"no C++ literal for {value!r}")


def cpp_string(text: str) -> str:
    """A C++ string literal (JSON escapes are valid C++ escapes for the characters specs use)."""
    return json.dumps(text, ensure_ascii=False)


def _source(text: str | int | float | bool) -> str:
    if isinstance(text, bool):
        return "True" if text else "False"
    if isinstance(text, (int, float)):
        return repr(text)
    return " ".join(text.split())


def _check(node: ast.expr, names: set[str]) -> None:
    col = getattr(node, "col_offset", 0)
    if isinstance(node, ast.Constant):
        if not isinstance(node.value, (int, float, str, bool)):
            raise ExpressionError(f"literal {node.value!r} is not allowed", col)
    elif isinstance(node, ast.Name):
        if node.id not in _LITERAL_NAMES:
            names.add(node.id)
    elif isinstance(node, ast.Attribute):
        if node.attr.startswith("_"):
            raise ExpressionError(f"field '{node.attr}' is not allowed (spec expressions read the fields of their "
                                  "namespaces, never Python's own attributes)", col)
        _check_rooted(node, col)
        _check(node.value, names)
    elif isinstance(node, ast.Subscript):
        _check_rooted(node, col)
        if not (isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, (int, str))) and not (
                isinstance(node.slice, ast.UnaryOp) and isinstance(node.slice.op, ast.USub)
                and isinstance(node.slice.operand, ast.Constant)):
            raise ExpressionError("indexing takes a constant integer or string", col)
        _check(node.value, names)
    elif isinstance(node, ast.BinOp):
        if type(node.op) not in _ARITH:
            symbol = "/" if isinstance(node.op, ast.Div) else type(node.op).__name__
            hint = " (use // for integer division)" if symbol == "/" else ""
            raise ExpressionError(f"operator {symbol} is not allowed{hint}", col)
        _check(node.left, names)
        _check(node.right, names)
    elif isinstance(node, ast.UnaryOp):
        if not isinstance(node.op, (ast.USub, ast.Not)):
            raise ExpressionError(f"operator {type(node.op).__name__} is not allowed", col)
        _check(node.operand, names)
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            _check(value, names)
    elif isinstance(node, ast.Compare):
        if len(node.ops) != 1 or type(node.ops[0]) not in _COMPARE:
            raise ExpressionError("a comparison takes exactly one of == != < <= > >=", col)
        _check(node.left, names)
        _check(node.comparators[0], names)
    elif isinstance(node, ast.IfExp):
        for part in (node.test, node.body, node.orelse):
            _check(part, names)
    elif isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            called = node.func.id if isinstance(node.func, ast.Name) else "this"
            raise ExpressionError(f"function '{called}' is not available; expressions may call "
                                  f"{', '.join(sorted(FUNCTIONS))}", col)
        low, high, _ = FUNCTIONS[node.func.id]
        if node.keywords or not low <= len(node.args) <= high:
            raise ExpressionError(f"{node.func.id}() takes {low} positional argument(s)", col)
        for arg in node.args:
            _check(arg, names)
    else:
        raise ExpressionError(f"{type(node).__name__} is not allowed in spec expressions", col)


def _check_rooted(node: ast.expr, col: int) -> None:
    """Field access and indexing start from a name (a namespace or a parameter), never from a literal."""
    root: ast.expr = node
    while isinstance(root, (ast.Attribute, ast.Subscript)):
        root = root.value
    if not isinstance(root, ast.Name):
        raise ExpressionError("field access and indexing must start from a name", col)


_CPP_ARITH = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.FloorDiv: "floordiv", ast.Mod: "mod"}


def _cpp(node: ast.expr, ctx: str, bound: Mapping[str, str]) -> str:
    def sub(child: ast.expr) -> str:
        return _cpp(child, ctx, bound)

    if isinstance(node, ast.Constant):
        return cpp_literal(node.value)
    if isinstance(node, ast.Name):
        if node.id in _LITERAL_NAMES:
            return cpp_literal(node.id == "true")
        if node.id in bound:
            return bound[node.id]
        return f"{ctx}.get({cpp_string(node.id)})" if ctx else f"v_{node.id}"
    if isinstance(node, ast.Attribute):
        return f"tl::attr({sub(node.value)}, {cpp_string(node.attr)})"
    if isinstance(node, ast.Subscript):
        key = ast.literal_eval(node.slice)
        return f"tl::item({sub(node.value)}, {cpp_literal(key)})"
    if isinstance(node, ast.BinOp):
        return f"tl::fn::{_CPP_ARITH[type(node.op)]}({sub(node.left)}, {sub(node.right)})"
    if isinstance(node, ast.UnaryOp):
        name = "neg" if isinstance(node.op, ast.USub) else "not_"
        return f"tl::fn::{name}({sub(node.operand)})"
    if isinstance(node, ast.BoolOp):
        joiner = "and_" if isinstance(node.op, ast.And) else "or_"
        return f"tl::fn::{joiner}({{{', '.join(sub(v) for v in node.values)}}})"
    if isinstance(node, ast.Compare):
        return f"tl::fn::{_COMPARE[type(node.ops[0])]}({sub(node.left)}, {sub(node.comparators[0])})"
    if isinstance(node, ast.IfExp):
        return f"tl::fn::select({sub(node.test)}, {sub(node.body)}, {sub(node.orelse)})"
    if isinstance(node, ast.Call):
        assert isinstance(node.func, ast.Name)
        return f"tl::fn::{node.func.id}({', '.join(sub(a) for a in node.args)})"
    raise AssertionError(f"unchecked node {type(node).__name__}")
