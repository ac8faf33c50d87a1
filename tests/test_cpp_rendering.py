"""How pass specs render to C++ (generator) and how the C++ library is built and cached (tilelang.cpp)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import tilelang.cpp as cpp
from generator import expressions, rules
from projects import REPO


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
    assert rules.cpp_message("'{buffer.shape}' x {device.TILE[1]}!") == (
        'tl::Message{{{"\'", "buffer", {tl::str("shape")}}, '
        '{"\' x ", "device", {tl::str("TILE"), tl::num(1)}}, {"!", "", {}}}}')


def test_every_pass_spec_has_a_registered_cpp_source() -> None:
    sources = {p.stem: p.read_text("utf-8") for p in (REPO / "generated/cpp/passes").glob("*.cc")}
    specs = sorted(p.stem for p in (REPO / "specs/passes").glob("*.yaml"))
    assert sorted(sources) == specs
    layout = sources["infer_tt_layout"]
    assert 'GlobalDef().def("tl.transform.InferTTLayout", make)' in layout
    assert 'engines::annotate("InferTTLayout", options, tl::str("tt.buffers"), tl::str("tensors")' in layout
    assert 'call("tirx.transform.VectorizeLoop", tl::boolean(true))' in sources["vectorize_loop"]
    assert "hooks::lower_tile_primitives()" in sources["lower_tile_ops_to_loops"]


def test_missing_compiler_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CXX", "/nonexistent/c++")
    with pytest.raises(cpp.CppBuildError, match=r"needs a C\+\+17 compiler .* \$CXX='/nonexistent/c\+\+' was not "
                                                  r"found on PATH; .* or use pass_impl='python'"):
        cpp.compiler()
    monkeypatch.delenv("CXX")
    monkeypatch.setenv("PATH", "")
    with pytest.raises(cpp.CppBuildError, match="g\\+\\+, clang\\+\\+ or c\\+\\+ was not found"):
        cpp.compiler()


def test_a_compiler_error_is_reported_with_its_output(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cc"
    bad.write_text("int main() { return undefined_name; }\n")
    with pytest.raises(cpp.CppBuildError, match="building the C\\+\\+ passes failed:(.|\n)*undefined_name"):
        cpp._run([cpp.compiler(), "-c", str(bad), "-o", str(tmp_path / "bad.o")])


def test_the_cache_key_follows_the_sources(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    copy = tmp_path / "cpp"
    shutil.copytree(cpp.SOURCE_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cpp, "SOURCE_DIR", copy)
    first = cpp._digest("g++")
    assert cpp._digest("g++") == first
    (copy / "__init__.py").write_text("# Python files do not change the library\n")
    assert cpp._digest("g++") == first
    with (copy / "passes" / "simplify.cc").open("a") as f:
        f.write("// edited\n")
    assert cpp._digest("g++") != first
    assert cpp._digest("clang++") != cpp._digest("g++")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert str(cpp._cache_root()).startswith(str(tmp_path / "cache"))
