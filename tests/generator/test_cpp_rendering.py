"""How pass specs render to C++ (generator), and how the C++ libraries built at install time are found and
checked against a checkout's sources (tilelang.cpp)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import tvm_ffi
from checkout_edits import PARTITION_PASS, VERIFY_PASS

import tilelang.cpp as cpp
from generator import expressions, rules
from generator.cli import main as generate
from generator.outputs import TEMPLATED_OUTPUTS
from projects import REPO
from tilelang import _layout
from tilelang.cpp import build
from tilelang.errors import TileLangError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    from pip._vendor import tomli as tomllib


@pytest.mark.parametrize("text,expected", [
    ("buffer.shape[0] // device.TILE[0]",
     'tl::fn::floordiv(tl::item(tl::attr(c.get("buffer"), "shape"), tl::num(0)), '
     'tl::item(tl::attr(c.get("device"), "TILE"), tl::num(0)))'),
    ("a if x == 'metal' else -b", 'tl::fn::select(tl::fn::eq(c.get("x"), tl::str("metal")), c.get("a"), '
                                  'tl::fn::neg(c.get("b")))'),
    ("not (p and q or r)", 'tl::fn::not_(tl::fn::or_({tl::fn::and_({c.get("p"), c.get("q")}), c.get("r")}))'),
    ("ceildiv(n, 32) % 2", 'tl::fn::mod(tl::fn::ceildiv(c.get("n"), tl::num(32)), tl::num(2))'),
    ("device.DST_TILES[16]", 'tl::item(tl::attr(c.get("device"), "DST_TILES"), tl::num(16))'),
    ("name + '_addr'", 'tl::fn::add(c.get("name"), tl::str("_addr"))'),
    (True, "tl::boolean(true)"),
    (2.5, "tl::real(2.5)"),
])
def test_expressions_render_to_cpp(text: object, expected: str) -> None:
    assert expressions.to_cpp(text) == expected  # type: ignore[arg-type]


def test_protocol_expressions_read_locals() -> None:
    assert expressions.to_cpp("tiles * 2", ctx="") == "tl::fn::mul(v_tiles, tl::num(2))"


def test_messages_keep_their_fields() -> None:
    """A field of a common name carries its value: the engine whose check fails need not provide it."""
    assert rules.cpp_message(expressions.parse_message("'{buffer.shape}' x {device.TILE[1]} {options.mode}!")) == (
        'tl::Message{{{"\'", "buffer", {tl::str("shape")}}, '
        '{"\' x ", "device", {tl::str("TILE"), tl::num(1)}, tl::Any(tl::device())}, '
        '{" ", "options", {tl::str("mode")}, tl::Any(options)}, {"!", "", {}}}}')


def test_rule_expressions_bind_device_and_options_where_they_are_rendered() -> None:
    """No engine has to put `device` or `options` into its context: the lambda captures the pass's options."""
    expr = expressions.parse("cores_x <= device.CORE_GRID[0] and options.enabled")
    assert rules.cpp_lambda(expr) == (
        '[options](const tl::Ctx& c) -> tl::Any { return tl::fn::and_({tl::fn::le(c.get("cores_x"), '
        'tl::item(tl::attr(tl::Any(tl::device()), "CORE_GRID"), tl::num(0))), '
        'tl::attr(tl::Any(options), "enabled")}); }')
    assert rules.cpp_lambda(expressions.parse("device.TILE[0]")).startswith("[](const tl::Ctx& c)")


def test_every_pass_spec_has_a_registered_cpp_source() -> None:
    sources = {p.stem: p.read_text("utf-8") for p in (REPO / "generated/cpp/passes").glob("*.cc")}
    specs = sorted(p.stem for p in (REPO / "specs/passes").glob("*.yaml"))
    assert sorted(sources) == specs
    layout = sources["infer_tt_layout"]
    assert 'GlobalDef().def("tl.transform.InferTTLayout", make)' in layout
    assert ('engines::annotate("InferTTLayout", options, tl::engines::AnnotateParams{tl::str("tt.buffers"), '
            'tl::str("tensors")') in layout
    assert 'call("tirx.transform.VectorizeLoop", tl::boolean(true))' in sources["vectorize_loop"]
    assert "hooks::lower_tile_primitives()" in sources["lower_tile_ops_to_loops"]


# ------------------------------------------------------------------------ the built libraries (tilelang.cpp)


def record(root: Path, inputs: str, library: Path, facts: str = "") -> None:
    """Write `library`'s build record for the tree `root` as the CMake build does (cmake/BuildRecord.cmake)."""
    cmake = build.tool("cmake")
    assert cmake is not None, "CMake is a build requirement (make install installs it into .venv)"
    done = subprocess.run([cmake, f"-DROOT={root}", f"-DINPUTS={inputs}", f"-DLIBRARY={library}",
                           f"-DFACTS={facts}", "-P", str(REPO / "cmake" / "BuildRecord.cmake")],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_checkout_libraries_are_built_from_its_sources() -> None:
    """`make test` builds them first (`python -m tilelang.cpp`); the library loaded is the checkout's build."""
    assert _layout.IN_CHECKOUT and _layout.library_dir() == REPO / "build" / "cpp" / "lib"
    assert cpp.load() == cpp.passes_library() == REPO / "build" / "cpp" / "lib" / cpp.PASSES
    for name in (cpp.PASSES, cpp.EMULATOR):
        assert cpp.differences(_layout.library_dir() / name, {"tvm-ffi": tvm_ffi.__version__}) == []


def test_the_build_directory_is_the_one_pip_builds() -> None:
    settings = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))["tool"]["scikit-build"]
    assert REPO / settings["build-dir"] == _layout.BUILD_DIR


def test_a_missing_library_says_what_to_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(_layout, "BUILD_DIR", tmp_path / "build")
    with pytest.raises(cpp.CppLibraryMissing, match=r"the C\+\+ library libtt_emu.so is not built \(.*/build/lib/"
                                                    r"libtt_emu.so does not exist\): run `make install` .* or "
                                                    r"`python -m tilelang.cpp` in "):
        cpp.library(cpp.EMULATOR)
    assert issubclass(cpp.CppLibraryMissing, TileLangError) and issubclass(cpp.CppLibraryStale, TileLangError)


def test_a_stale_library_names_what_changed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The record CMake writes and the check in Python agree: same files, same digests; every kind of change
    (edited, new, removed source, another tvm-ffi) is named."""
    root = tmp_path / "checkout"
    for part in ("src/transform", "generated/cpp"):
        shutil.copytree(REPO / part, root / part, ignore=shutil.ignore_patterns("__pycache__"))
    library = root / "build" / "cpp" / "lib" / cpp.PASSES
    library.parent.mkdir(parents=True)
    library.write_bytes(b"")
    record(root, "TILELANG_PASSES_INPUTS", library, "tvm-ffi=0.1.0")
    facts = {"tvm-ffi": "0.1.0"}
    assert cpp.differences(library, facts, root) == []
    header, source = (sorted((root / "src/transform").glob(pattern))[0] for pattern in ("*.h", "*.cc"))
    edited = sorted((root / "generated/cpp/passes").glob("*.cc"))[-1]
    (root / "src/transform/notes.txt").write_text("not a source\n")  # outside the input patterns
    with edited.open("a") as f:
        f.write("// edited\n")
    (root / "generated/cpp/passes/a_new_pass.cc").write_text("// a new pass spec\n")
    header.unlink()
    assert cpp.differences(library, {"tvm-ffi": "0.2.0"}, root) == [
        "built against tvm-ffi 0.1.0, this process has 0.2.0", "new: generated/cpp/passes/a_new_pass.cc",
        f"changed: generated/cpp/passes/{edited.name}", f"removed: src/transform/{header.name}"]
    record(root, "TILELANG_PASSES_INPUTS", library, "tvm-ffi=0.1.0")  # rebuilt
    assert cpp.differences(library, facts, root) == []
    cpp.record_path(library).unlink()
    assert cpp.differences(library, facts, root) == ["it has no build record (libtilelang_passes.so.inputs)"]

    monkeypatch.setattr(_layout, "CHECKOUT", root)
    monkeypatch.setattr(_layout, "BUILD_DIR", root / "build" / "cpp")
    record(root, "TILELANG_PASSES_INPUTS", library, "tvm-ffi=0.1.0")
    source.write_text("// edited\n")
    with pytest.raises(cpp.CppLibraryStale, match=r"the C\+\+ library build/cpp/lib/libtilelang_passes.so is "
                                                  r"stale, the checkout changed since it was built \(changed: "
                                                  rf"src/transform/{source.name}\): run `python -m tilelang.cpp`"):
        cpp.library(cpp.PASSES, facts)


def test_the_build_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert build.main(["everything"]) == 2
    assert "usage: python -m tilelang.cpp [passes|emulator ...]" in capsys.readouterr().err
    assert build.PARTS == {"passes": ("tilelang_passes_record",), "emulator": ("tt_emu_record",)}


def test_the_build_directory_is_configured_anew_when_its_tools_are_gone(monkeypatch: pytest.MonkeyPatch,
                                                                         tmp_path: Path) -> None:
    """E.g. configured by pip in a build-isolation environment that no longer exists."""
    monkeypatch.setattr(_layout, "CHECKOUT", tmp_path)
    assert build._needs_configure(tmp_path) == "not configured yet"
    cache = tmp_path / "CMakeCache.txt"
    cache.write_text(f"// comment\nCMAKE_COMMAND:INTERNAL={sys.executable}\nCMAKE_HOME_DIRECTORY:INTERNAL={tmp_path}\n")
    assert build._needs_configure(tmp_path) is None
    cache.write_text(f"CMAKE_COMMAND:INTERNAL={tmp_path}/gone/cmake\nCMAKE_HOME_DIRECTORY:INTERNAL={tmp_path}\n")
    gone = f"configured with CMAKE_COMMAND={tmp_path}/gone/cmake, which no longer exists"
    assert build._needs_configure(tmp_path) == gone
    cache.write_text(f"CMAKE_COMMAND:INTERNAL={sys.executable}\nCMAKE_HOME_DIRECTORY:INTERNAL={REPO / 'elsewhere'}\n")
    assert build._needs_configure(tmp_path) == f"configured for another source tree ({REPO / 'elsewhere'})"


def _code_lines(text: str) -> list[str]:
    """A C++ file's lines with their `//` comments cut off: what the preprocessor passes on, line for line."""
    return [line.split("//", 1)[0].rstrip() for line in text.split("\n")]


def test_pass_specs_added_leave_the_engine_headers_compiling_alike(project: Path) -> None:
    """The generated headers every hand-written engine includes (through builder.h) keep their code on the same
    lines when pass specs that declare no new key are added (as a checkout copy of the tests or a baked backend
    does): ccache then finds the engines' objects of the checkout's own build (its preprocessed text is the same),
    and a copy compiles only the rendered pass sources. Their banners name the specs' folders, not each spec."""
    headers = [out.path for out in TEMPLATED_OUTPUTS if out.banner_folders]
    assert {"cpp/attr_keys.h", "cpp/intrinsics.h", "cpp/ir_nodes.h", "cpp/eltwise_ops.h"} <= set(headers)
    out = project / "generated"
    assert generate(["--root", str(project), "--out", str(out), "generate", "--quiet"]) == 0
    before = {path: (out / path).read_text("utf-8") for path in headers}
    assert "// Spec: specs/passes/*.yaml\n" in before["cpp/attr_keys.h"]
    (project / "specs" / "passes" / "check_tt_kernel_budget.yaml").write_text(VERIFY_PASS, "utf-8")
    (project / "specs" / "passes" / "partition_tt_work_capped.yaml").write_text(PARTITION_PASS, "utf-8")
    assert generate(["--root", str(project), "--out", str(out), "generate", "--quiet"]) == 0
    assert (out / "cpp" / "passes" / "check_tt_kernel_budget.cc").is_file()
    after = {path: (out / path).read_text("utf-8") for path in headers}
    assert "CheckTTKernelBudget reads" in after["cpp/attr_keys.h"]  # its comments name the new readers
    for path in headers:
        assert _code_lines(after[path]) == _code_lines(before[path]), path


def test_the_build_configures_the_compiler_scikit_build_core_picks(monkeypatch: pytest.MonkeyPatch) -> None:
    """ccache keys an object by the compiler's name: `python -m tilelang.cpp` configures sysconfig's CXX (without
    its flags) as scikit-build-core does for `make install` and wheels, so all three share the cache."""
    monkeypatch.delenv("CXX", raising=False)
    monkeypatch.setattr(build.sysconfig, "get_config_var", lambda name: {"CXX": "ccache g++ -pthread"}.get(name))
    assert build._configure_env()["CXX"] == "ccache g++"
    monkeypatch.setenv("CXX", "clang++")
    assert build._configure_env()["CXX"] == "clang++"
    monkeypatch.delenv("CXX")
    monkeypatch.setattr(build.sysconfig, "get_config_var", lambda name: None)
    assert "CXX" not in build._configure_env()
