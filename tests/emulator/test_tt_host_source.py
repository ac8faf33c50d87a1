"""Host programs are built from their source with the comments blanked (tilelang.tenstorrent.host_source, issue 35):
main.cpps that differ only in comments (a kernel's name, its buffers' names) share one cached build, and a
diagnostic still names the source's own file and line."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from projects import TESTS
from tilelang.tenstorrent import emulator, host_source
from tilelang.tenstorrent.emulator import TTEmulatorError

needs_cxx = pytest.mark.skipif(shutil.which("g++") is None, reason="no C++ compiler")


def test_comments_are_blanked_and_code_is_kept() -> None:
    source = ('// Host program for kernel \'gemm\'\nint x = 1\'000;  // a "quoted" word\n'
              'const char* s = "a // b /* c */";  /* two\nlines */ char q = \'"\';\nchar u = u8\'/\';  \n')
    assert host_source.canonical(source) == ('\nint x = 1\'000;\nconst char* s = "a // b /* c */";\n'
                                             ' char q = \'"\';\nchar u = u8\'/\';\n')
    renamed = source.replace("'gemm'", "'add'").replace('"quoted"', "other")
    assert host_source.canonical(renamed) == host_source.canonical(source)
    assert host_source.canonical(source.replace("1'000", "1000")) != host_source.canonical(source)


@pytest.mark.parametrize("source", ['auto s = R"(// not a comment)";\n', "// continued \\\nint x;\n",
                                    'auto s = "cut\n";\n', "/* never closed\n"],
                         ids=["raw-string", "continued-comment", "cut-literal", "open-comment"])
def test_what_the_scan_does_not_model_is_built_as_it_is(source: str) -> None:
    assert host_source.canonical(source) is None
    assert host_source.build_text(source, "main.cpp") == source


@needs_cxx
def test_main_cpps_that_differ_only_in_comments_share_one_build(tmp_path: Path) -> None:
    """Two copies of a host program with other comments (the first line's, one added at the end of a line) get one
    cached program, which runs as the original does."""
    original = TESTS / "emulator_cases" / "tilize_check.cpp"
    text = original.read_text()
    variants = [text.replace("// Prints", "// Writes"), text.replace("int main() {", "int main() {  // the check")]
    exes = set()
    for i, variant in enumerate(variants):
        (tmp_path / str(i)).mkdir()
        (tmp_path / str(i) / "main.cpp").write_text(variant)
        exes.add(emulator.build_host(tmp_path / str(i) / "main.cpp"))
    assert len(exes) == 1
    assert emulator.run(exes.pop(), [])["stdout"].split()[:3] == ["0", "1", "2"]  # tilize_nfaces: row 0 first


@needs_cxx
def test_a_compile_error_names_the_sources_file_and_line(tmp_path: Path) -> None:
    main = tmp_path / "main.cpp"
    main.write_text("// a program\n#include <cstdint>\n/* two\n   lines */\nint main() { return undeclared_name; }\n")
    with pytest.raises(TTEmulatorError, match=rf"{main}:5:\d+: error: .undeclared_name. was not declared"):
        emulator.build_host(main)
