"""TIR's floor division and modulus in the Metalium kernels (python/tilelang/tenstorrent/kernel_cpp.py): C++'s `/` and
`%` truncate toward zero, so they print as such only where TVM's analyzer proves both operands non-negative, and as
the floor helpers (defined at the top of the kernel) elsewhere. The helpers are compiled with g++ and run on negative
operands against Python's `//` and `%` (TIR's semantics)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import tvm
from tvm import tirx

from tilelang.tenstorrent.kernel_cpp import FLOOR_HELPERS, _Printer
from tilelang.tenstorrent.roles import KERNEL_ROLES


def _printer(*variables: tirx.Var) -> _Printer:
    printer = _Printer(KERNEL_ROLES[0], "ttnn_0_81", "k")
    printer.names.update({v: str(v.name) for v in variables})
    return printer


def test_a_value_that_may_be_negative_prints_the_floor_helpers() -> None:
    word = tirx.Var("word", "int32")
    printer = _printer(word)
    text = printer.expr(tirx.floormod(tirx.floordiv(word, 16777216), 256))
    assert text == "tl_floormod<int32_t>(tl_floordiv<int32_t>(word, 16777216), 256)"
    assert printer.floor_helpers == {tirx.FloorDiv, tirx.FloorMod}


def test_a_signed_cast_of_an_unsigned_word_is_not_taken_for_non_negative() -> None:
    """`static_cast<int32_t>(read_tile_value(...))` wraps; TVM's analyzer bounds the cast by the uint32's range. A
    word read from memory (a Var the kernel bound to a read_state intrinsic) is not trusted; a runtime argument is."""
    word, arg = tirx.Var("word", "uint32"), tirx.Var("arg", "uint32")
    printer = _printer(word, arg)
    printer.data_vars.add(word)
    assert printer.expr(tirx.floordiv(tirx.Cast("int32", arg), 256)) == "static_cast<int32_t>(arg) / 256"
    assert printer.expr(tirx.floordiv(tirx.Cast("int32", word), 256)) == \
        "tl_floordiv<int32_t>(static_cast<int32_t>(word), 256)"


def test_operands_proved_non_negative_print_as_cpp_division() -> None:
    """An unsigned value, a loop counter (its range bound by the For) and a value bound to one stay `/` and `%`."""
    word, i = tirx.Var("word", "uint32"), tirx.Var("i", "int32")
    printer = _printer(word, i)
    assert printer.expr(tirx.floormod(tirx.floordiv(word, tirx.const(256, "uint32")), tirx.const(7, "uint32"))) == \
        "word / 256u % 7u"
    printer.analyzer.bind(i, tvm.ir.Range.from_min_extent(0, 8))
    assert printer.expr(tirx.floordiv(i * 4 + 3, 2)) == "(i * 4 + 3) / 2"
    assert not printer.floor_helpers


@pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")
def test_the_floor_helpers_compute_tirs_floor_division_and_modulus(tmp_path: Path) -> None:
    pairs = [(a, b) for a in (-16711423, -257, -256, -255, -7, -1, 0, 1, 7, 255, 256, 16711423)
             for b in (-256, -7, -1, 1, 7, 256, 16777216)]
    checks = "".join(f"    std::printf(\"%d %d\\n\", tl_floordiv<int32_t>({a}, {b}), tl_floormod<int32_t>({a}, {b}));\n"
                     for a, b in pairs)
    helpers = "".join(text for _, text in FLOOR_HELPERS.values())
    source = tmp_path / "floor.cpp"
    source.write_text(f"#include <cstdint>\n#include <cstdio>\n{helpers}int main() {{\n{checks}}}\n")
    subprocess.run(["g++", "-std=c++17", "-Wall", "-Werror", "-o", str(tmp_path / "floor"), str(source)], check=True)
    out = subprocess.run([str(tmp_path / "floor")], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[:-1] == [f"{a // b} {a % b}" for a, b in pairs]
