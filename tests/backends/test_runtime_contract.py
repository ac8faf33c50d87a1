"""The hand-written runtime names IR fields, IR types and attribute keys only through what the specs render.

C++ engines read IR through the typed views of generated/cpp/ir_nodes.h (specs/ir), never by a field or type name
in a string; attribute keys come from generated/cpp/attr_keys.h and tilelang/tenstorrent/attr_keys.py (the pass
specs' reads/writes), so no `tt.*` key is spelt in runtime code.
"""

from __future__ import annotations

import re
import tokenize
from pathlib import Path

import pytest
import yaml

from projects import REPO

CPP = sorted(p for p in (REPO / "src" / "transform").iterdir() if p.suffix in (".h", ".cc"))
PYTHON = sorted((REPO / "python" / "tilelang").rglob("*.py"))
# A string literal starting with `tt.`; the names of artifact files (tt.plan.json, tt.report.json, tt.host_args) are
# no IR keys.
TT_LITERAL = re.compile(r"""^[rbfuRBFU]*('''|\"\"\"|'|")tt\.(?![a-z_]+\.json|host_args\b)""")


def _rel(path: Path) -> str:
    return path.relative_to(REPO).as_posix()


@pytest.mark.parametrize("path", CPP, ids=_rel)
def test_cpp_reads_ir_through_typed_views(path: Path) -> None:
    text = path.read_text("utf-8")
    by_string = re.findall(r"\b(?:field|is_a)\([^;]*?\"[^\"]*\"\)", text)
    assert not by_string, f"{_rel(path)}: IR read by string: {by_string[:3]}"
    keys = re.findall(r"\"tt\.[^\"]*\"", text)
    assert not keys, f"{_rel(path)}: `tt.*` literals {keys[:3]}; use tl::keys (generated/cpp/attr_keys.h)"


@pytest.mark.parametrize("path", PYTHON, ids=_rel)
def test_python_spells_no_tt_keys(path: Path) -> None:
    with path.open("rb") as f:
        strings = [t.string for t in tokenize.tokenize(f.readline) if t.type == tokenize.STRING]
    found = [literal[:40] for literal in strings if TT_LITERAL.match(literal)]
    assert not found, f"{_rel(path)}: `tt.*` literals {found[:3]}; use tilelang.tenstorrent.attr_keys"


def test_attribute_constants_are_the_declared_keys() -> None:
    from tilelang.tenstorrent import attr_keys

    declared = {v for k, v in vars(attr_keys).items() if k.isupper()}
    specs = "\n".join(p.read_text("utf-8") for p in sorted((REPO / "specs").rglob("*.yaml")))
    assert declared
    for key in declared:
        assert f"key: {key}," in specs, key


def test_role_tables_are_the_generators() -> None:
    import json

    from generator.model import KERNEL_ROLES, PROCESSOR_CLASS
    from tilelang.tenstorrent import roles

    assert roles.KERNEL_ROLES == KERNEL_ROLES and roles.PROCESSOR_CLASS == PROCESSOR_CLASS
    defs = json.loads((REPO / "schema" / "defs.schema.json").read_text("utf-8"))["$defs"]
    assert set(defs["role"]["enum"]) == set(PROCESSOR_CLASS)
    header = (REPO / "generated" / "cpp" / "engine_names.h").read_text("utf-8")
    assert "kKernelRoles = {" + ", ".join(f"k{r.capitalize()}" for r in KERNEL_ROLES) + "}" in header


def test_the_cpp_intrinsic_record_is_a_view_of_the_python_one() -> None:
    import dataclasses

    from tilelang._intrinsic_table import Intrinsic

    header = (REPO / "generated" / "cpp" / "intrinsics.h").read_text("utf-8")
    struct = header[header.index("struct Intrinsic {"):header.index("};", header.index("struct Intrinsic {"))]
    members = re.findall(r"^  [\w:<>, ]+ (\w+);", struct, re.M)
    assert members and set(members) <= {f.name for f in dataclasses.fields(Intrinsic)}


def test_engines_read_exactly_the_options_the_generator_requires() -> None:
    """generator/rules.py's ENGINE_OPTIONS makes every pass with a partition or dataflow rule declare the options
    the engine reads itself; the table must name exactly those the engines read."""
    from generator.rules import ENGINE_OPTIONS, ENGINES

    read: dict[str, set[str]] = {}
    for path in CPP:
        for name in re.findall(r'\boption\(options, "([a-z_]+)"\)', path.read_text("utf-8")):
            read.setdefault(path.stem, set()).add(name)
    # A hook (a pass's own C++ function, e.g. mesh.cc's partition_tt_mesh) reads the options its pass spec declares.
    hook_options = set()
    for spec in (REPO / "specs" / "passes").glob("*.yaml"):
        doc = yaml.safe_load(spec.read_text("utf-8"))
        if any(rule.get("kind") == "hook" for rule in doc.get("rules", [])):
            hook_options |= set(doc.get("options", {}))
    hooks = {stem: names for stem, names in read.items() if stem not in ENGINE_OPTIONS}
    assert all(names <= hook_options for names in hooks.values()), hooks
    assert {k: v for k, v in read.items() if k in ENGINE_OPTIONS} == {
        kind: set(options) for kind, options in ENGINE_OPTIONS.items()}
    assert set(ENGINE_OPTIONS) <= set(ENGINES)


def test_the_device_facts_of_cpp_and_python_have_the_same_names() -> None:
    """Pass specs see the facts of generated/cpp/device.cc (generator/device.py's table); the Python module states
    the same ones (the default device's; device.cc has them for every device), besides the facts only Python code
    reads: PERF* (the performance model's), TTNN_DATA_TYPES (the ttnn host program's), DRAM_FORMAT_HOST (the host
    program's block-float packing), DEVICES (every device's record) and SYSTEMS, LINKS* (the per-mesh model's)."""
    from generator.device import DEVICE_FACT_NAMES
    from tilelang.tenstorrent import device

    python = {k for k in vars(device) if k.isupper() and not k.startswith(("PERF", "LINK"))
              and k not in ("TTNN_DATA_TYPES", "DRAM_FORMAT_HOST", "DEVICES", "SYSTEMS")}
    assert python == set(DEVICE_FACT_NAMES) - {"ACCESSOR_CT_ARGS"}
    header = (REPO / "generated" / "cpp" / "device.cc").read_text("utf-8")
    assert re.findall(r'\{str\("([A-Z_0-9]+)"\), ', header) == list(DEVICE_FACT_NAMES) * len(device.DEVICES)
