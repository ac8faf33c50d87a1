"""TileLang's own examples, run unmodified from a tile-ai/tilelang source folder on llvm and on Tenstorrent.

    python -m tools.upstream_examples TILELANG_SRC [--only SUBSTRING] [--targets llvm,tenstorrent] [--table FILE.md]

TILELANG_SRC is a checkout (or an export) of tile-ai/tilelang holding `examples/` and `testing/python/`. Each case
below imports one example module as upstream wrote it (with `import tilelang` resolving to this project; `torch`,
which the examples' `main()` uses for CUDA tensors, is replaced by a stub because only the kernels are called),
takes its `@tilelang.jit` kernel, re-targets it, calls it on numpy inputs at a small shape and compares with a numpy
reference. Every result is one of:

- `ok`: matches numpy within the case's tolerance;
- `refused: <first line>`: a TileLangError (what the backend does not lower, or a hardware limit);
- `wrong: <max error>`: ran but does not match (a bug);
- `error: <exception>`: anything else (a bug).

Nothing of TileLang is committed here: the folder is read at run time. docs/tenstorrent.md gives the
commit this table was measured at.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import traceback
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .upstream_cases import CASES as _BASE_CASES
from .upstream_cases import F32, Case
from .upstream_cases_folders import FOLDER_CASES
from .upstream_cases_more import MORE_CASES
from .upstream_cases_more_folders import MORE_FOLDER_CASES
from .upstream_cases_rest import REST_CASES
from .upstream_cases_rest_bwd import REST_BWD_CASES

CASES = [*_BASE_CASES, *MORE_CASES, *FOLDER_CASES, *MORE_FOLDER_CASES, *REST_CASES, *REST_BWD_CASES]

__all__ = ["CASES", "Case", "load_example", "main", "retarget", "run_case"]


# packages the examples import at module level for their references and demos (kda's FLA_KDA references are
# triton kernels, decorated at import; deepseek_nsa's varlen example imports fla, flash-linear-attention;
# deepseek_mhc's backward imports tqdm's progress bar for its main())
_STUBBED = ("torch", "einops", "triton", "fla", "tqdm")


# The stub's objects: any attribute, call or subscript of them is another such object.
class _Any:
    def __init__(self, name: str = "torch") -> None:
        self._name = name

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _Any(f"{self._name}.{name}")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return args[0]  # used as a decorator (torch.no_grad(), torch.compile)
        return _Any(self._name + "()")

    def __repr__(self) -> str:
        return self._name

    # Module-level probes of the device (`"NVIDIA H" in torch.cuda.get_device_name(0)`,
    # `torch.cuda.get_device_capability()[0] >= 9` in kda's FLA_KDA) answer "no such device".
    def __contains__(self, item: Any) -> bool:
        return False

    def __getitem__(self, key: Any) -> Any:
        return _Any(f"{self._name}[{key!r}]")

    def __lt__(self, other: Any) -> bool:
        return False

    __le__ = __gt__ = __ge__ = __lt__

    def __mro_entries__(self, bases: tuple[Any, ...]) -> tuple[type, ...]:
        return (_Base,)  # a base class (`class F(torch.autograd.Function)`; its `F.apply` read at import)

class _Meta(type):
    def __getattr__(cls, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return _Any(f"{cls.__name__}.{name}")

_Base = _Meta("_Base", (), {})

class _Tensor(_Any):
    """A factory's tensor (`torch.rand(m, k, device="cuda")`): its shape is real (stream-K computes its work split
    from `A.shape` at import); arithmetic and methods give a tensor of the same shape."""

    def __init__(self, shape: tuple[int, ...]) -> None:
        super().__init__("torch.Tensor")
        self.shape = shape

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return lambda *args, **kwargs: self  # .cuda(), .half(), .to(...), .contiguous()

    def _same(self, *other: Any) -> Any:
        return self

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = __neg__ = _same


def _torch_stub(package: str = "torch") -> types.ModuleType:
    """Enough of `torch` (or `einops`) for the examples' module level (dtype names, decorators, seeding, `from
    einops import rearrange`) to import."""

    def factory(name: str) -> Any:
        def make(*size: Any, **kwargs: Any) -> Any:
            dims = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
            if name in ("rand", "randn", "zeros", "ones", "empty") and all(isinstance(d, int) for d in dims):
                return _Tensor(tuple(dims))
            return _Any(f"{package}.{name}()")
        return make

    def module_getattr(name: str) -> Any:
        if package == "torch" and name in _FACTORIES:
            return factory(name)
        if name.startswith("__"):
            raise AttributeError(name)  # module protocol (__file__, __wrapped__, ...): absent, as on a plain module
        return _Any(f"{package}.{name}")

    stub = types.ModuleType(package)
    stub.__getattr__ = module_getattr  # type: ignore[method-assign]
    stub.__path__ = []  # a package: `import torch.nn.functional as F` finds the stub's submodules
    # printed at import by some of TileLang's tests; version checks (`version.parse(torch.__version__) >= ...`)
    stub.__version__ = "0.0.0"
    stub.__file__ = f"<{package} stub>"  # `print(fla.__file__)` after `import fla` (the gdn examples)
    return stub


class _StubFinder:
    """Serves `torch`, `einops` and their submodules from the stub (only those not installed)."""

    def __init__(self, packages: Sequence[str]) -> None:
        self.packages = tuple(packages)

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        if name.split(".")[0] in self.packages:
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec: Any) -> types.ModuleType:
        return _torch_stub(spec.name.split(".")[0])

    def exec_module(self, module: types.ModuleType) -> None:
        pass


_FACTORIES = ("rand", "randn", "randint", "zeros", "ones", "empty", "full", "tensor", "arange", "zeros_like",
              "ones_like", "empty_like", "randn_like", "rand_like")


def _cuda_on_cpu(torch: Any) -> None:
    """Real torch without a GPU: the examples' module-level `torch.rand(..., device="cuda")` and `.cuda()` make CPU
    tensors (stream-K computes its work split from such tensors' shapes at import)."""
    if getattr(torch, "_tilelang_cuda_on_cpu", False) or torch.cuda.is_available():
        return

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            if str(kwargs.get("device", "")).startswith("cuda"):
                kwargs["device"] = "cpu"
            return fn(*args, **kwargs)
        return call

    for name in _FACTORIES:
        setattr(torch, name, wrap(getattr(torch, name)))
    torch.Tensor.cuda = lambda self, *a, **k: self
    torch._tilelang_cuda_on_cpu = True


def load_example(root: Path, relative: str) -> types.ModuleType:
    """The example module, imported from the TileLang source folder under a private name."""
    import tilelang  # noqa: F401  (first: TVM's FFI probes sys.modules for torch as it loads)

    name = "upstream_" + relative.replace("/", "_").removesuffix(".py")
    if name in sys.modules:  # before the stub goes in: only the import below may find it
        return sys.modules[name]
    path = root / relative
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise FileNotFoundError(path)
    missing = [p for p in _STUBBED if p not in sys.modules and importlib.util.find_spec(p) is None]
    stub = _StubFinder(missing) if missing else None  # only while the example imports: other code probing for
    if stub is not None:                               # torch must not find it
        sys.meta_path.insert(0, stub)
    if "torch" not in missing:
        import torch

        _cuda_on_cpu(torch)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    except Exception as err:
        # Module-level demo code that runs a kernel on CUDA tensors (online_softmax's `softmax_kernel(X)`) cannot
        # run on the stub: the definitions made before it stay, and a case whose kernel is missing names this error
        # (a missing `tilelang.carver`, say).
        if "torch" not in missing:
            raise
        module.__dict__["_upstream_import_error"] = err
    finally:
        sys.path.remove(str(path.parent))
        if stub is not None:
            sys.meta_path.remove(stub)
            for stubbed in [n for n in sys.modules if n.split(".")[0] in missing]:
                del sys.modules[stubbed]
    sys.modules[name] = module
    return module


def retarget(kernel: Any, target: str, out_idx: Any = None) -> Any:
    """The same `@tilelang.jit` kernel (factory, eager function, or one under `@autotune`) compiled for `target`;
    a plain prim_func factory (the tests' style) is jit-compiled with `out_idx`."""
    from tilelang.autotuner import _Autotuned
    from tilelang.jit.eager import EagerFunction
    from tilelang.jit.kernel import KernelFactory

    if out_idx is not None:
        return KernelFactory(kernel, out_idx, target, None)

    while isinstance(kernel, _Autotuned):
        kernel = kernel.fn
    if isinstance(kernel, EagerFunction):
        return EagerFunction(kernel.fn, target, kernel.target_host, kernel.pass_configs)
    if isinstance(kernel, KernelFactory):
        return KernelFactory(kernel.factory, kernel.out_idx, target, kernel.target_host, kernel.pass_configs)
    raise TypeError(f"not a @tilelang.jit kernel: {kernel!r}")




def _compare(got: Any, want: Any, case: Case) -> str:
    got_list = list(got) if isinstance(got, (list, tuple)) else [got]
    want_list = list(want) if isinstance(want, (list, tuple)) else [want]
    if len(got_list) != len(want_list):
        return f"wrong: {len(got_list)} outputs, expected {len(want_list)}"
    worst = 0.0
    for g, w in zip(got_list, want_list, strict=True):
        g, w = np.asarray(g).astype(F32), np.asarray(w).astype(F32)
        if g.shape != w.shape:
            return f"wrong: shape {g.shape}, expected {w.shape}"
        if not np.allclose(g, w, atol=case.atol, rtol=case.rtol):
            return f"wrong: max error {float(np.nanmax(np.abs(g - w))):.3g}"
        worst = max(worst, float(np.max(np.abs(g - w))) if g.size else 0.0)
    return "ok"


def run_case(root: Path, case: Case, target: str) -> str:
    from tilelang.errors import TileLangError

    try:
        module = load_example(root, case.file)
        for name, value in case.module_globals.items():
            setattr(module, name, value)
        if not hasattr(module, case.attr) and "_upstream_import_error" in module.__dict__:
            err = module.__dict__["_upstream_import_error"]
            raise AttributeError(f"no {case.attr!r}: the import stopped at {type(err).__name__}: {err}")
        kernel = retarget(getattr(module, case.attr), target, case.out_idx)
        inputs = case.inputs()
        want = case.ref(*[x.copy() for x in inputs])
        got = case.run(kernel, inputs)
    except TileLangError as err:
        return "refused: " + str(err).strip().splitlines()[0]
    except Exception as err:  # noqa: BLE001 - the table records every failure
        last = traceback.extract_tb(err.__traceback__)[-1]
        return f"error: {type(err).__name__}: {str(err).strip().splitlines()[0] if str(err).strip() else ''} " \
               f"({Path(last.filename).name}:{last.lineno})"
    return _compare(got, want, case)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="a tile-ai/tilelang source folder (examples/, testing/python/)")
    parser.add_argument("--only", default="", help="run the cases whose name contains this")
    parser.add_argument("--targets", default="llvm,tenstorrent")
    parser.add_argument("--table", type=Path, help="also write the table as Markdown to this file")
    args = parser.parse_args(argv)
    targets = args.targets.split(",")
    rows = []
    for case in CASES:
        if args.only not in case.name:
            continue
        results = [run_case(args.root, case, t) for t in targets]
        rows.append((case.name, results))
        print(f"{case.name:48s} " + " | ".join(f"{t}: {r[:110]}" for t, r in zip(targets, results, strict=True)),
              flush=True)
    counts = {t: sum(r[i] == "ok" for _, r in rows) for i, t in enumerate(targets)}
    print("ok: " + ", ".join(f"{t} {counts[t]}/{len(rows)}" for t in targets))
    if args.table:
        lines = ["| example | " + " | ".join(targets) + " |", "|---|" + "---|" * len(targets)]
        lines += [f"| {name} | " + " | ".join(r.replace("|", "\\|") for r in res) + " |" for name, res in rows]
        args.table.write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
