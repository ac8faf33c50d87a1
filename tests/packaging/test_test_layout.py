"""The tests are sorted by layer: every test module sits in one of the folders tests/layers.py names."""

from __future__ import annotations

from layers import LAYERS

from projects import TESTS


def test_every_test_module_sits_in_a_layer_folder() -> None:
    strays = sorted(p.name for p in TESTS.glob("test_*.py"))
    assert not strays, f"tests/ holds test modules outside a layer folder (one of {sorted(LAYERS)}): {strays}"
    unknown = sorted(p.parent.name for p in TESTS.glob("*/test_*.py") if p.parent.name not in LAYERS)
    assert not unknown, f"test folders not listed in tests/layers.py LAYERS: {sorted(set(unknown))}"


def test_every_layer_holds_tests() -> None:
    empty = sorted(name for name in LAYERS if not list((TESTS / name).glob("test_*.py")))
    assert not empty, f"layers without a test module: {empty}"
