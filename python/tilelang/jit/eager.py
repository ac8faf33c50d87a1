"""The eager style of `@tilelang.jit`: a function that takes tensors and declares its kernel in its own body.

    @tilelang.jit
    def matmul(A, B, block_M, block_N, block_K, dtype=T.float16):
        M, N, K = T.const("M, N, K")
        A: T.Tensor((M, K), dtype)
        B: T.Tensor((K, N), dtype)
        C = T.empty((M, N), dtype)
        with T.Kernel(...) as (bx, by):
            ...
        return C

    C = matmul(a, b, 64, 64, 32)                           # constants bound from the tensors' shapes
    kernel = matmul.compile(M=256, N=256, K=256, block_M=64, block_N=64, block_K=32)

The statements before the first top-level `with` (the prelude) run in Python inside an `_eager.scope`; the
annotated parameters and the `T.empty` outputs become the buffer parameters of a prim_func whose body is the source
text of the remaining statements (without the final `return`), parsed by TVMScript with the prelude's values in
scope. Kernels are cached per (constants, scalar arguments, tensor dtypes).
"""

from __future__ import annotations

import ast
import functools
import inspect
import textwrap
from collections.abc import Callable
from typing import Any

from tvm.script.parser.core.entry import parse

from .. import language as T
from ..engine.compile_target import building_for
from ..errors import TileLangError
from ..language import _eager
from ..language._eager import TensorSpec
from ..language._frontend import normalize_dtype, parse_guarded
from .kernel import compile as compile_kernel
from .once import OnceCache
from .tensors import tensor_dtype, tensor_shape

ANNOTATE = "__tilelang_annotate__"


def is_eager(fn: Callable[..., Any]) -> bool:
    """An eager function has a top-level `with` block in its body (a kernel factory defines a nested prim_func)."""
    try:
        return _Source(fn).kernel_start is not None
    except (OSError, TypeError, SyntaxError):
        return False


class _Source:
    """The function's AST split into the prelude, the kernel statements and the returned names."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        lines, self.first_line = inspect.getsourcelines(fn)
        self.text = textwrap.dedent("".join(lines))
        self.filename = inspect.getsourcefile(fn) or "<eager>"
        tree = ast.parse(self.text)
        func = tree.body[0]
        if not isinstance(func, ast.FunctionDef):
            raise TypeError("not a function definition")
        self.func = func
        body = func.body
        self.kernel_start = next((i for i, s in enumerate(body) if isinstance(s, ast.With)), None)
        start = self.kernel_start if self.kernel_start is not None else len(body)
        self.prelude = body[:start]
        rest = body[start:]
        self.returns: list[str] = []
        if rest and isinstance(rest[-1], ast.Return):
            value = rest[-1].value
            elts = value.elts if isinstance(value, ast.Tuple) else [value] if value is not None else []
            if not all(isinstance(e, ast.Name) for e in elts):
                raise TileLangError(f"eager kernel '{func.name}' must return the names of its T.empty outputs")
            self.returns = [e.id for e in elts if isinstance(e, ast.Name)]
            rest = rest[:-1]
        self.kernel = rest
        self.tensor_params = [s.target.id for s in self.prelude if isinstance(s, ast.AnnAssign) and s.value is None
                              and isinstance(s.target, ast.Name)]

    def kernel_text(self) -> str:
        """The kernel statements' source lines, kept at their line numbers in the file."""
        lines = self.text.splitlines()
        start, end = self.kernel[0].lineno, self.kernel[-1].end_lineno or self.kernel[-1].lineno
        return "\n".join(lines[start - 1:end])

    def prelude_function(self) -> ast.Module:
        """`def __prelude__(<params>): <prelude>; return locals()` with `A: ann` turned into `annotate("A", ann)`."""
        stmts: list[ast.stmt] = []
        for s in self.prelude:
            if isinstance(s, ast.AnnAssign) and s.value is None and isinstance(s.target, ast.Name):
                call = ast.Call(ast.Name(ANNOTATE, ast.Load()), [ast.Constant(s.target.id), s.annotation], [])
                stmts.append(ast.copy_location(ast.Expr(call), s))
            else:
                stmts.append(s)
        ret = ast.Return(ast.Call(ast.Name("locals", ast.Load()), [], []))
        func = ast.FunctionDef(name="__prelude__", args=self.func.args, body=[*stmts, ret], decorator_list=[],
                               returns=None)
        module = ast.fix_missing_locations(ast.Module([func], []))
        ast.increment_lineno(module, self.first_line - 1)
        return module


def _closure(fn: Callable[..., Any]) -> dict[str, Any]:
    names = fn.__code__.co_freevars
    cells = fn.__closure__ or ()
    return {n: c.cell_contents for n, c in zip(names, cells, strict=False)}


class EagerFunction:
    """`@tilelang.jit` on an eager function: call it on tensors, or `.compile(**consts)` / `.get_tir(**consts)`."""

    def __init__(self, fn: Callable[..., Any], target: Any, target_host: Any, pass_configs: Any,
                 execution_backend: str = "auto") -> None:
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.target, self.target_host, self.pass_configs = target, target_host, pass_configs
        self.execution_backend = execution_backend
        self.source = _Source(fn)
        self.signature = inspect.signature(fn)
        self.cache: OnceCache[Any] = OnceCache()  # each key compiled once, also under concurrent callers

    # ---------------------------------------------------------------------------------------------- prelude
    def _run_prelude(self, arguments: dict[str, Any], bound: dict[str, int]) -> tuple[dict[str, Any], Any]:
        namespace = {**self.fn.__globals__, **_closure(self.fn)}
        annotated: dict[str, TensorSpec] = {}

        def annotate(name: str, spec: Any) -> None:
            if not isinstance(spec, TensorSpec):
                raise TileLangError(f"eager kernel '{self.fn.__name__}': parameter '{name}' must be annotated with "
                                    f"T.Tensor(shape, dtype), got {spec!r}")
            annotated[name] = spec

        namespace[ANNOTATE] = annotate
        exec(compile(self.source.prelude_function(), self.source.filename, "exec"), namespace)  # noqa: S102
        with _eager.scope(bound) as scope, building_for(self.target):
            values = namespace["__prelude__"](**arguments)
        values.update(annotated)
        return values, scope

    def _bind_shapes(self, arguments: dict[str, Any]) -> dict[str, int]:
        """The constants, matched from the shapes of the tensors the function is called with."""
        values, scope = self._run_prelude(arguments, {})
        bound: dict[str, int] = {}
        for name in self.source.tensor_params:
            spec, given = values[name], arguments.get(name)
            if given is None:
                raise TileLangError(f"eager kernel '{self.fn.__name__}': tensor argument '{name}' is missing")
            shape = tensor_shape(given)
            if len(shape) != len(spec.shape):
                raise TileLangError(f"eager kernel '{self.fn.__name__}': '{name}' must be {len(spec.shape)}-D, got "
                                    f"shape {tuple(shape)}")
            for dim, actual in zip(spec.shape, shape, strict=True):
                const = next((c for c, v in scope.shape_vars.items() if v is dim), None)
                if const is not None and bound.setdefault(const, actual) != actual:
                    raise TileLangError(f"eager kernel '{self.fn.__name__}': {const} is {bound[const]} from an "
                                        f"earlier tensor but '{name}' has shape {tuple(shape)}")
        return bound

    # ---------------------------------------------------------------------------------------------- building
    def _prim_func(self, arguments: dict[str, Any], consts: dict[str, int]) -> tuple[Any, list[str], list[int]]:
        if self.source.kernel_start is None or not self.source.kernel:
            raise TileLangError(f"eager kernel '{self.fn.__name__}' has no `with T.Kernel(...)` block")
        values, scope = self._run_prelude(arguments, consts)
        missing = [c for c in scope.consts if c not in consts]
        if missing:
            raise TileLangError(f"eager kernel '{self.fn.__name__}': no value for {', '.join(missing)} (call it on "
                                f"tensors, or give compile({', '.join(f'{m}=...' for m in missing)}))")
        outputs = self.source.returns
        for name in outputs:
            if not isinstance(values.get(name), TensorSpec) or not values[name].output:
                raise TileLangError(f"eager kernel '{self.fn.__name__}' returns '{name}', which is not a T.empty")
        names = self.source.tensor_params + outputs
        params = ", ".join(f"{n}: {ANNOTATE}_T.Tensor({tuple(values[n].shape)!r}, {values[n].dtype!r})"
                           for n in names)
        body = self.source.kernel_text()
        first = self.source.kernel[0].lineno + self.source.first_line - 1
        text = "\n" * max(first - 3, 0) + f"@{ANNOTATE}_T.prim_func\ndef {self.fn.__name__}({params}):\n" + body
        extra = {**self.fn.__globals__, **_closure(self.fn)}
        extra.update({k: v for k, v in values.items() if k not in names and not isinstance(v, TensorSpec)})
        extra[f"{ANNOTATE}_T"] = T
        func = parse_guarded(lambda: parse(textwrap.dedent(text), extra_vars=extra), self.fn.__name__)
        out_idx = list(range(len(self.source.tensor_params), len(names)))
        return func, names, out_idx

    def _arguments(self, args: tuple[Any, ...], kwargs: dict[str, Any], partial: bool) -> dict[str, Any]:
        try:
            bound = self.signature.bind_partial(*args, **kwargs) if partial else self.signature.bind(*args, **kwargs)
        except TypeError as err:
            raise TileLangError(f"eager kernel '{self.fn.__name__}': {err}") from err
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        for p in self.signature.parameters.values():
            arguments.setdefault(p.name, None)
        for name, value in arguments.items():  # `dtype: T.dtype = T.float16`: the name, which `.astype(dtype)` and
            if isinstance(getattr(value, "_dtype_str", None), str):  # tvm.DataType(dtype) take, as TileLang's do
                arguments[name] = normalize_dtype(value)
        return arguments

    def _kernel(self, arguments: dict[str, Any], consts: dict[str, int], dtypes: tuple[str, ...]) -> Any:
        scalars = tuple((k, v) for k, v in arguments.items() if k not in self.source.tensor_params)
        key: tuple[Any, ...] | None = (tuple(sorted(consts.items())), dtypes, scalars)
        try:
            hash(key)
        except TypeError:
            key = None
        def build() -> Any:
            func, _, out_idx = self._prim_func(arguments, consts)
            return compile_kernel(func, out_idx, self.target, self.target_host, self.pass_configs,
                                  self.execution_backend)

        return build() if key is None else self.cache.get(key, build)

    # ---------------------------------------------------------------------------------------------- user API
    def kernel_for(self, *args: Any, **kwargs: Any) -> tuple[Any, list[Any]]:
        """The kernel a call with these arguments runs, and the tensors it is given (in parameter order)."""
        arguments = self._arguments(args, kwargs, partial=False)
        consts = self._bind_shapes(arguments)
        dtypes = tuple(tensor_dtype(arguments[n]) for n in self.source.tensor_params)
        kernel = self._kernel(arguments, consts, dtypes)
        for name, dtype, param in zip(self.source.tensor_params, dtypes, kernel.params, strict=False):
            if normalize_dtype(param.dtype) != dtype:
                raise TileLangError(f"eager kernel '{self.fn.__name__}': '{name}' must be {param.dtype}, got {dtype}")
        return kernel, [arguments[n] for n in self.source.tensor_params]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        kernel, tensors = self.kernel_for(*args, **kwargs)
        return kernel(*tensors)

    def _split_consts(self, kwargs: dict[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
        params = set(self.signature.parameters)
        consts = {k: int(v) for k, v in kwargs.items() if k not in params}
        return self._arguments((), {k: v for k, v in kwargs.items() if k in params}, partial=True), consts

    def compile(self, **kwargs: Any) -> Any:  # noqa: A003
        """`matmul.compile(M=1024, N=1024, K=1024, block_M=128, ...)`: the JITKernel for these constants."""
        arguments, consts = self._split_consts(kwargs)
        return self._kernel(arguments, consts, ())

    def get_tir(self, **kwargs: Any) -> Any:
        """The prim_func for these constants and arguments (as `compile` takes them)."""
        arguments, consts = self._split_consts(kwargs)
        return self._prim_func(arguments, consts)[0]
