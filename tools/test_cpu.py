"""Rank a test run's cost in CPU seconds, from the log that TILELANG_TEST_CPU_LOG=<file> makes tests/conftest.py
write ("<CPU-s> <phase> <node id>" per test phase; a session fixture's cost is in the setup of the first test that
used it). Wall times (`pytest --durations`) mean little on a loaded machine; CPU seconds add up to what a CI run
on 2 cores pays.

    TILELANG_TEST_CPU_LOG=/tmp/cpu.log TT_EMU_CACHE=$(mktemp -d) python -m pytest -n 2 --dist loadgroup ...
    python tools/test_cpu.py /tmp/cpu.log [--top 25]

Prints the total, the top tests and fixtures (a test's setup, call and teardown apart: a slow setup is usually a
shared fixture) and the CPU seconds per test file.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path


def read(log: Path) -> list[tuple[float, str, str]]:
    """(CPU-s, phase, node id) per line of `log`; a line of another form (pytest's output appended to the same file,
    a line cut short by a killed run) is skipped and counted on stderr."""
    rows, skipped = [], 0
    for line in log.read_text().splitlines():
        fields = line.split(" ", 2)
        try:
            cpu = float(fields[0])
        except ValueError:
            cpu = -1.0
        if len(fields) != 3 or cpu < 0 or fields[1] not in ("setup", "call", "teardown"):
            skipped += 1
            continue
        rows.append((cpu, fields[1], fields[2]))
    if skipped:
        print(f"{log}: {skipped} lines not of the form '<CPU-s> <phase> <node id>' skipped", file=sys.stderr)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log", type=Path)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    rows = read(args.log)
    per_file: dict[str, float] = defaultdict(float)
    for cpu, _, node in rows:
        per_file[node.split("::")[0]] += cpu
    print(f"{sum(cpu for cpu, _, _ in rows):.0f} CPU-s in {len({node for _, _, node in rows})} tests")
    print("\n| CPU-s | phase | test (a setup: the fixtures it made) |\n|---:|---|---|")
    for cpu, phase, node in sorted(rows, reverse=True)[:args.top]:
        print(f"| {cpu:.1f} | {phase} | {node} |")
    print("\n| CPU-s | file |\n|---:|---|")
    for name, cpu in sorted(per_file.items(), key=lambda item: -item[1])[:args.top]:
        print(f"| {cpu:.1f} | {name} |")


if __name__ == "__main__":
    main()
