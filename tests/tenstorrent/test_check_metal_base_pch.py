"""tools/check_metal/base_pch.py: what the core's base PCH holds is read off the include tree, stops before the
first file that differs between kernels, and is used only where it preprocesses to exactly the unit alone. No
wheel and no compiler needed: -E output is written here."""

from __future__ import annotations

import sys
from pathlib import Path

from projects import REPO

sys.path.insert(0, str(REPO))
from tools.check_metal import base_pch  # noqa: E402


def marker(path: Path | str, *flags: int) -> str:
    return f'# 1 "{path}"' + "".join(f" {f}" for f in flags)


def test_the_base_holds_the_complete_subtrees_entered_before_the_first_tainted_file(tmp_path: Path) -> None:
    generated, wheel = tmp_path / "unit", tmp_path / "wheel"
    generated.mkdir(), wheel.mkdir()
    files = {"a.h": "#pragma once\n", "b.h": "#pragma once\n", "c.h": "#pragma once\n",
             "args.h": "auto x = {KERNEL_COMPILE_TIME_ARGS};\n", "late.h": "#pragma once\n"}
    for name, text in files.items():
        (wheel / name).write_text(text)
    (generated / "chlkc_descriptors.h").write_text("#pragma once\nconstexpr int f[1] = {5};\n")
    (generated / "kernel_args_generated.h").write_text(base_pch.EMPTY)
    prefix = tmp_path / "prefix.h"
    w = {name: wheel / name for name in files}
    output = "\n".join([
        marker(prefix), marker("<built-in>", 1), marker("<command line>", 1), marker("<built-in>", 2),
        marker(prefix, 2), marker(w["a.h"], 1, 3), "int a;", marker(prefix, 2),
        marker(w["b.h"], 1, 3), marker(generated / "kernel_args_generated.h", 1, 3), marker(w["b.h"], 2, 3),
        marker(w["c.h"], 1, 3), marker(w["b.h"], 2, 3),
        marker(w["args.h"], 1, 3), marker(w["b.h"], 2, 3), marker(w["late.h"], 1, 3), marker(w["b.h"], 2, 3),
        marker(prefix, 2), marker(generated / "chlkc_descriptors.h", 1, 3), marker(prefix, 2)])
    tree = base_pch.include_tree(output, str(prefix))
    kept = [Path(n.path).name for n in base_pch.hoisted(tree, generated)]
    # b.h reaches args.h (it reads the -D KERNEL_COMPILE_TIME_ARGS): its children before it, not b.h itself
    assert kept == ["a.h", "kernel_args_generated.h", "c.h"]
    dirs = [generated, wheel]
    assert base_pch.spelling(str(w["c.h"]), dirs) == "#include <c.h>"
    (generated / "c.h").write_text("#pragma once\n")  # a file of that name earlier on the search path
    assert base_pch.spelling(str(w["c.h"]), dirs) is None


def test_the_base_is_used_only_where_it_preprocesses_like_the_unit_alone(tmp_path: Path) -> None:
    header, wheel = tmp_path / "base.h", tmp_path / "a.h"
    wheel.write_text("#pragma once\n")
    alone = "\n".join([marker("w.cc"), marker(wheel, 1, 3), "int a;", marker("w.cc", 2), "int k;"])
    included = "\n".join([marker(header, 1), marker(wheel, 1, 3), "int a;", marker(header, 2), "int k;"])
    assert base_pch.same_as_alone(alone, included, header)
    reordered = included.replace("int a;", "int b;")  # a #define the hoisted header missed, say
    assert not base_pch.same_as_alone(alone, reordered, header)
    not_system = included.replace(f'"{wheel}" 1 3', f'"{wheel}" 1')  # warnings there would become errors
    assert not base_pch.same_as_alone(alone, not_system, header)
