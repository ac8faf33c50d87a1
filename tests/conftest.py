"""Shared fixtures: a pristine copy of the project's inputs, made once per test session (per worker under
pytest-xdist: `make test` runs the suite on every core, `pytest -n auto --dist loadgroup`). Tests that take half a
minute or more (marked `slow`) are started first, so that the run does not end with one of them alone on one core.

Each test process gets an address-space limit (TILELANG_TEST_MEMORY_GB, default 8): a test that runs away with
memory then fails with MemoryError, named, instead of being killed by the kernel, which leaves pytest-xdist
waiting forever for the dead worker's tests.

TILELANG_TEST_CPU_LOG=<file>: each test phase (setup, call, teardown) appends "<CPU-s> <phase> <node id>" to the
file, CPU-s being user+sys of the test process and of the subprocesses it waited for (compilers, checkout builds),
so that a run's cost can be ranked in CPU seconds, which a loaded machine does not distort as it does wall time;
a session fixture's cost lands on the setup of the first test that uses it. `python tools/test_cpu.py <file>`
ranks the tests and fixtures (docs/building.md, "CI time")."""

from __future__ import annotations

import os
import resource
import shutil
from pathlib import Path

import layers  # noqa: F401  (tests/ and its layer folders on the import path, before any test is collected)
import pytest
from checkout_edits import TenstorrentEdits
from checkout_edits import tenstorrent_edits as make_tenstorrent_edits

from projects import copy_project


@pytest.fixture(scope="session")
def base_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generator's inputs copied once; tests copy this tree, never the live one."""
    return copy_project(tmp_path_factory.mktemp("base") / "project")


@pytest.fixture
def project(base_project: Path, tmp_path: Path) -> Path:
    """A private copy of the base project that a test may change freely."""
    root = tmp_path / "project"
    shutil.copytree(base_project, root)
    return root


@pytest.fixture(scope="session")
def tenstorrent_edits(tmp_path_factory: pytest.TempPathFactory) -> TenstorrentEdits:
    """A checkout copy with a new SFPU op, two spec-only passes and the second API profile, built once for the tests
    of each (tests/checkout_edits.py; they share an xdist_group)."""
    return make_tenstorrent_edits(tmp_path_factory.mktemp("tenstorrent_edits"))


_CPU_LOG = os.environ.get("TILELANG_TEST_CPU_LOG")


def _cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _log_cpu(phase: str, item: pytest.Item, start: float) -> None:
    if _CPU_LOG:
        with open(_CPU_LOG, "a", encoding="utf-8") as log:
            log.write(f"{_cpu_seconds() - start:.2f} {phase} {item.nodeid}\n")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item):  # type: ignore[no-untyped-def]
    start = _cpu_seconds()
    try:
        return (yield)
    finally:
        _log_cpu("setup", item, start)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):  # type: ignore[no-untyped-def]
    start = _cpu_seconds()
    try:
        return (yield)
    finally:
        _log_cpu("call", item, start)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):  # type: ignore[no-untyped-def]
    start = _cpu_seconds()
    try:
        return (yield)
    finally:
        _log_cpu("teardown", item, start)


def pytest_configure(config: pytest.Config) -> None:
    limit = int(float(os.environ.get("TILELANG_TEST_MEMORY_GB", "8")) * 2**30)
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if limit > 0 and (hard == resource.RLIM_INFINITY or limit <= hard):
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Slow tests first (a stable sort: the order among the others stays as collected); under `--dist loadgroup`
    each test marked `xdist_group` gets its group in its node id."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
    if getattr(config.option, "loadgroup", False):
        for item in items:
            _group_node_id(item)


def _group_node_id(item: pytest.Item) -> None:
    """'<node id>@<group>', which pytest-xdist's loadgroup scheduler sends to one worker. pytest-xdist (3.8) writes
    it into `item._nodeid`, which pytest 9 no longer reads (the node id is `item._id`), so every test of a group
    went to any worker: a group's shared build or fixture was made once per worker."""
    groups = sorted({str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
                     for mark in item.iter_markers("xdist_group")})
    node_id = getattr(item, "_id", None)
    if groups and node_id is not None and "@" not in item.nodeid:
        item._id = type(node_id).parse(f"{item.nodeid}@{'_'.join(groups)}")
