"""Generation speed: full run, no-op re-run, and the same specs replicated 10x.

Prints figures as ratios against a baseline measured in the same run (the 1x full generation).
Targets: full generation <= 1 s here, linear scaling (10x specs ~ 10x time or less), no-op writes 0 files.

Run: .venv/bin/python benchmarks/bench_generate.py
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from generator import writer  # noqa: E402
from generator.project import Project, load_project  # noqa: E402
from generator.render import render_all  # noqa: E402

REPEATS = 5


def copy_inputs(destination: Path) -> Path:
    for part in ("specs", "schema", "templates"):
        shutil.copytree(REPO / part, destination / part)
    return destination


def replicate_intrinsics(root: Path, copies: int) -> None:
    """Add copies-1 renamed copies of every intrinsic family (names get a suffix so they stay unique)."""
    folder = root / "specs" / "intrinsics"
    for spec in sorted(folder.glob("*.yaml")):
        text = spec.read_text("utf-8")
        for n in range(1, copies):
            renamed = re.sub(r"^family: (\w+)", rf"family: \1_r{n}", text, flags=re.M)
            renamed = re.sub(r"^  - name: \"?([\w{}]+)\"?", rf'  - name: "\1_r{n}"', renamed, flags=re.M)
            renamed = re.sub(r"^  - \{name: (\w+),", rf"  - {{name: \1_r{n},", renamed, flags=re.M)
            (folder / f"{spec.stem}_r{n}.yaml").write_text(renamed, "utf-8")


def generate(root: Path) -> tuple[float, int]:
    """Seconds for one full load -> render -> write, and the number of files written."""
    start = time.perf_counter()
    project = Project.at(root)
    outputs = render_all(project, load_project(project))
    plan = writer.plan(project.out, outputs)
    writer.apply(project.out, plan)
    return time.perf_counter() - start, len(plan.writes)


def best(root: Path, fresh: bool) -> tuple[float, int]:
    results = []
    for _ in range(REPEATS):
        if fresh:
            shutil.rmtree(root / "generated", ignore_errors=True)
        results.append(generate(root))
    return min(results)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        one = copy_inputs(Path(tmp) / "x1")
        ten = copy_inputs(Path(tmp) / "x10")
        replicate_intrinsics(ten, 10)
        generate(one)  # warm imports and caches once
        full, files = best(one, fresh=True)
        noop, noop_writes = best(one, fresh=False)
        full10, files10 = best(ten, fresh=True)
        intrinsics1 = len(load_project(Project.at(one)).intrinsics)
        intrinsics10 = len(load_project(Project.at(ten)).intrinsics)
    print(f"full generation (1x, {intrinsics1} intrinsics, {files} files): {full * 1000:.1f} ms "
          f"(target <= 1000 ms: {'ok' if full <= 1.0 else 'MISSED'})")
    print(f"no-op regeneration: {noop * 1000:.1f} ms = {noop / full:.2f}x of full; files written: {noop_writes} "
          f"(target 0: {'ok' if noop_writes == 0 else 'MISSED'})")
    scale = full10 / full
    print(f"10x specs ({intrinsics10} intrinsics, {files10} files): {full10 * 1000:.1f} ms = {scale:.2f}x of full "
          f"(linear would be <= 10x: {'ok' if scale <= 10.0 else 'MISSED'})")


if __name__ == "__main__":
    main()
