"""Where the programs of a saved kernel lie: a function with several T.Kernel launches is one program per launch
(tilelang.tenstorrent.programs), each in its own folder of the saved artifacts, program0, program1, ..."""

from __future__ import annotations

from pathlib import Path

PLAN_FILE = "tt.plan.json"
PREFIX = "program"


def directory(index: int) -> str:
    """The artifact folder of program `index`."""
    return f"{PREFIX}{index}"


def program_folders(folder: str | Path) -> list[Path]:
    """The folders of a saved kernel's programs: the folder itself (one launch), or its program0, program1, ... in
    launch order (several)."""
    out = Path(folder)
    if (out / PLAN_FILE).exists() or not (out / directory(0)).is_dir():
        return [out]
    found = [p for p in out.iterdir() if p.name.startswith(PREFIX) and p.name[len(PREFIX):].isdigit()]
    return sorted(found, key=lambda p: int(p.name[len(PREFIX):]))
