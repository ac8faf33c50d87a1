"""The structure of the `tilelang` package (both trees of a checkout: python/tilelang, hand-written, and
generated/tilelang, rendered), read from the source with `ast`, imports inside functions included:

- no import circles between its modules;
- the backend-neutral modules (engine, jit, profiler, autotuner, the package itself, cpp) reach a backend only
  through the runtime interface (tilelang.engine.interface): they import no backend's package and name no backend
  that has a runtime of its own (tenstorrent), nor its code generator;
- `import tilelang` appears nowhere inside the package, and a function-level import says why it is one.

Imports under `if TYPE_CHECKING:` are not executed and are not counted. `from .. import x` depends on module x (not on
the package it is taken from); an import of a module depends on that module only (Python runs the package's
`__init__` first, which is not a dependency the importing module chose).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tilelang.engine.interface import BackendRuntime, runtime_of
from tilelang.engine.registry import BACKENDS

ROOT = Path(__file__).resolve().parents[2]
TREES = (ROOT / "python", ROOT / "generated")
NEUTRAL = ("tilelang", "tilelang.engine.backend", "tilelang.engine.interface", "tilelang.engine.lower",
           "tilelang.engine.lowering", "tilelang.engine.param", "tilelang.engine.pass_config", "tilelang.jit",
           "tilelang.profiler", "tilelang.autotuner", "tilelang.cpp")
DEFAULT_RUNTIME = "tilelang.engine.tvm_runtime"


def modules() -> dict[str, tuple[Path, bool]]:
    """Module name -> (file, is a package's __init__)."""
    found: dict[str, tuple[Path, bool]] = {}
    for tree in TREES:
        for path in sorted((tree / "tilelang").rglob("*.py")):
            parts = list(path.relative_to(tree).with_suffix("").parts)
            package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def _executed(tree: ast.AST) -> Iterator[tuple[ast.stmt, bool]]:
    """Every import statement run at some point (not those under `if TYPE_CHECKING:`), and whether it is inside a
    function."""
    def walk(node: ast.AST, in_function: bool) -> Iterator[tuple[ast.stmt, bool]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                yield from (pair for orelse in child.orelse for pair in walk(orelse, in_function))
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child, in_function
            yield from walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))
    yield from walk(tree, False)


def imports(found: dict[str, tuple[Path, bool]]) -> dict[str, dict[str, tuple[int, bool]]]:
    """Module -> {module of the package it imports: (line, inside a function)}."""
    graph: dict[str, dict[str, tuple[int, bool]]] = {}
    for name, (path, package) in found.items():
        base = name if package else name.rpartition(".")[0]
        deps: dict[str, tuple[int, bool]] = {}
        for node, in_function in _executed(ast.parse(path.read_text("utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                parts = base.split(".")
                origin = ".".join(parts[:len(parts) - node.level + 1] + [node.module or ""]).strip(".") \
                    if node.level else node.module or ""
                targets = [f"{origin}.{a.name}" if f"{origin}.{a.name}" in found else origin for a in node.names]
            for target in targets:
                if target in found and target != name:
                    deps.setdefault(target, (node.lineno, in_function))
        graph[name] = deps
    return graph


def circles(graph: dict[str, dict[str, tuple[int, bool]]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


@pytest.fixture(scope="module")
def graph() -> dict[str, dict[str, tuple[int, bool]]]:
    return imports(modules())


def _shown(graph: dict[str, dict[str, tuple[int, bool]]], component: list[str]) -> str:
    return "; ".join(f"{a} -> {b} (line {graph[a][b][0]})" for a in component for b in graph[a] if b in component)


def test_the_checker_finds_a_circle_and_a_hidden_import() -> None:
    """The checker itself, on a made-up graph: a -> b at module level, b -> a inside a function."""
    graph = {"a": {"b": (1, False)}, "b": {"a": (7, True)}, "c": {"a": (2, False)}}
    assert circles(graph) == [["a", "b"]]
    source = "import os\nif TYPE_CHECKING:\n    from . import hidden\ndef f():\n    from . import late\n"
    found = [(type(n).__name__, n.names[0].name, inside) for n, inside in _executed(ast.parse(source))]
    assert found == [("Import", "os", False), ("ImportFrom", "late", True)]


def test_the_package_has_no_import_circles(graph: dict[str, dict[str, tuple[int, bool]]]) -> None:
    assert len(graph) > 60  # both trees were read
    found = circles(graph)
    assert not found, "import circles: " + " | ".join(_shown(graph, c) for c in found)


def _in(module: str, packages: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in packages)


def _backend_packages() -> tuple[str, ...]:
    """The packages of the backends: each backend's generated `tilelang.engine.<name>`, and the package of a runtime
    other than the one TVM's code generators share (tilelang.tenstorrent)."""
    own = {b.runtime.rpartition(".")[0] for b in BACKENDS.values() if b.runtime != DEFAULT_RUNTIME}
    return (*(f"tilelang.engine.{name}" for name in BACKENDS), DEFAULT_RUNTIME, *sorted(own))


def test_backend_neutral_modules_import_no_backend(graph: dict[str, dict[str, tuple[int, bool]]]) -> None:
    packages = _backend_packages()
    assert "tilelang.tenstorrent" in packages
    neutral = [m for m in graph if m in NEUTRAL or _in(m, ("tilelang.jit", "tilelang.profiler", "tilelang.autotuner",
                                                          "tilelang.cpp"))]
    assert len(neutral) >= 15
    found = [f"{m} imports {d} (line {line})" for m in sorted(neutral) for d, (line, _) in graph[m].items()
             if _in(d, packages)]
    assert not found, "; ".join(found)


def _strings(tree: ast.AST) -> Iterator[ast.Constant]:
    """String constants that are not docstrings."""
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node


def test_backend_neutral_modules_name_no_backend() -> None:
    """No string of a neutral module names a backend with a runtime of its own, or its code generator: they branch
    on what the backend spec and the runtime interface say, never on which backend it is."""
    own = [b for b in BACKENDS.values() if b.runtime != DEFAULT_RUNTIME]
    words = {w for b in own for w in (b.name, b.codegen)}
    assert {"tenstorrent", "metalium"} <= words
    found = []
    for name, (path, _) in modules().items():
        if not (name in NEUTRAL or _in(name, ("tilelang.jit", "tilelang.profiler", "tilelang.autotuner",
                                               "tilelang.cpp"))):
            continue
        for node in _strings(ast.parse(path.read_text("utf-8"))):
            hits = [w for w in words if w in node.value.lower()]
            found += [f"{path.relative_to(ROOT)}:{node.lineno}: '{w}'" for w in hits]
    assert not found, "; ".join(found)


def test_no_import_of_tilelang_inside_the_package_and_function_level_imports_say_why(
        graph: dict[str, dict[str, tuple[int, bool]]]) -> None:
    found = modules()
    assert all("tilelang" not in deps for deps in graph.values()), [m for m, d in graph.items() if "tilelang" in d]
    unexplained = []
    for path, _ in found.values():
        lines = path.read_text("utf-8").splitlines()
        for node, in_function in _executed(ast.parse("\n".join(lines))):
            if in_function and "#" not in lines[node.lineno - 1] and "#" not in lines[node.lineno - 2]:
                unexplained.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not unexplained, "function-level imports without a comment saying why: " + ", ".join(unexplained)


def test_every_backend_names_a_runtime_that_implements_the_interface() -> None:
    """Each backend spec's `runtime` module has a RUNTIME with every member of the interface, and the split_<kind>
    its generated lower.py imports; the backend-neutral modules find it through the registry."""
    members = [m for m in vars(BackendRuntime) if not m.startswith("_")] + ["execution_backends"]
    assert {"build", "runner", "run", "save", "report", "profile"} <= set(members)
    for backend in BACKENDS.values():
        runtime = runtime_of(backend)
        missing = [m for m in members if not hasattr(runtime, m)]
        assert not missing, f"{backend.runtime} (backend {backend.name}): RUNTIME lacks {missing}"
        assert callable(backend.load().lower)  # imports split_<kind> from the runtime module
    assert runtime_of(BACKENDS["tenstorrent"]).execution_backends == ("emulator", "ttnn")
