"""How many distinct host programs (main.cpp) the Tenstorrent test corpus builds, and what tells them apart.

The emulator's cache builds one host program per distinct main.cpp text with its comments blanked
(`tilelang.tenstorrent.host_source.canonical`); each build is about 2 CPU-s of a cold test run (docs/building.md).

    python tools/host_programs.py                    # compile the corpus (tools/artifacts_digest.py's variants)
    python tools/host_programs.py --artifacts DIR    # or read the folders `artifacts_digest.py --out DIR` kept

Prints the programs, the distinct ones, and the lines that most often tell a distinct program from its closest
other one (numbers shown as N), with how many programs each line separates.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(REPO / "tools"))


def distinct(root: Path) -> dict[str, list[str]]:
    """Canonical main.cpp text -> the program folders under `root` that have it."""
    from tilelang.tenstorrent.host_source import canonical

    groups: dict[str, list[str]] = defaultdict(list)
    for folder in sorted(p for p in root.iterdir() if (p / "main.cpp").is_file()):
        text = (folder / "main.cpp").read_text()
        groups[canonical(text) or text].append(folder.name)
    return groups


def separating_lines(texts: list[str]) -> Counter[str]:
    """Per distinct text, the lines that differ from its closest other text (numbers as N), counted."""
    lines = [[line.strip() for line in t.splitlines() if line.strip()] for t in texts]
    counts: Counter[str] = Counter()
    for i, mine in enumerate(lines):
        best: list[str] | None = None
        for j, other in enumerate(lines):
            if i == j:
                continue
            ops = difflib.SequenceMatcher(None, mine, other, autojunk=False).get_opcodes()
            diff = [line for tag, i1, i2, j1, j2 in ops if tag != "equal" for line in mine[i1:i2] + other[j1:j2]]
            if best is None or len(diff) < len(best):
                best = diff
        counts.update({re.sub(r"\b\d+\b", "N", line)[:140] for line in best or []})
    return counts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", type=Path, help="the folder `tools/artifacts_digest.py --out` wrote")
    parser.add_argument("--top", type=int, default=25, help="lines of the separating-line table")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = args.artifacts
        if root is None:
            from artifacts_digest import digests

            root = Path(tmp)
            digests(root)
        groups = distinct(root)
    print(f"{sum(map(len, groups.values()))} programs, {len(groups)} distinct main.cpp (comments blanked)")
    for line, count in separating_lines(list(groups)).most_common(args.top):
        print(f"{count:4d}  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
