"""Generation speed: full run, no-op re-run, and the same specs replicated 10x; and `python -m generator generate`
as a process: a no-op (the inputs and outputs the generator's record under build/generator names, issue 35), one
spec edited (only what depends on it is validated and rendered), and a full run (no record) as the baseline.

Prints figures as ratios against a baseline measured in the same run (the 1x full generation; for the processes, the
full run as a process, and the same command without the generator's caches and with the pure-Python YAML composer, as
before issue 18). Targets: full generation <= 1 s here, linear scaling (10x specs ~ 10x time or less), no-op writes
0 files, the no-op process <= 0.3 s.

Run: .venv/bin/python benchmarks/bench_generate.py
"""

from __future__ import annotations

import os
import re
import resource
import shutil
import subprocess
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
# The process with the pure-Python YAML composer (what the generator used before it took libyaml's).
PURE_PYTHON_YAML = ("import sys, yaml; import generator.loader as l; l.FAST_LOADER = yaml.SafeLoader; "
                    "from generator.cli import main; sys.argv[0] = 'generator'; raise SystemExit(main())")


def copy_inputs(destination: Path) -> Path:
    for part in ("specs", "schema", "templates", "src"):  # src: the hooks header the checks read
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


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def process(root: Path, cache: Path, pure_yaml: bool = False, mode: str = "no-op") -> tuple[float, float]:
    """Best wall seconds of `python -m generator --root ROOT generate -q` with its caches in `cache`; ROOT is
    generated already. `mode`: "no-op" (the generator's record is kept), "full" (the record under build/ removed
    first), "edit" (one pass spec edited first, a different text each time). Also its CPU seconds (user + system)
    in that run: on a loaded machine the wall time is the CPU time stretched by the load."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": os.pathsep.join([str(REPO), *sys.path[1:]])}
    head = ["-c", PURE_PYTHON_YAML] if pure_yaml else ["-m", "generator"]
    spec = root / "specs" / "passes" / "simplify.yaml"
    text = spec.read_text("utf-8")
    results = []
    for repeat in range(REPEATS):
        if pure_yaml:  # without caches, as before: every run compiles the templates and checks the schemas
            shutil.rmtree(cache, ignore_errors=True)
        if pure_yaml or mode == "full":
            shutil.rmtree(root / "build" / "generator", ignore_errors=True)
        if mode == "edit":
            spec.write_text(text.replace("doc: >-\n", f"doc: >-\n  Edit {repeat}.\n", 1), "utf-8")
        start, cpu = time.perf_counter(), _children_cpu()
        subprocess.run([sys.executable, *head, "--root", str(root), "generate", "-q"], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        results.append((time.perf_counter() - start, _children_cpu() - cpu))
    spec.write_text(text, "utf-8")
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
        before = process(one, Path(tmp) / "cold-cache", pure_yaml=True)
        whole = process(one, Path(tmp) / "cache", mode="full")
        edit = process(one, Path(tmp) / "cache", mode="edit")
        process(one, Path(tmp) / "cache", mode="full")  # the spec as it was, and the record of it
        now = process(one, Path(tmp) / "cache")
    print(f"full generation (1x, {intrinsics1} intrinsics, {files} files): {full * 1000:.1f} ms "
          f"(target <= 1000 ms: {'ok' if full <= 1.0 else 'MISSED'})")
    print(f"in-process re-run of the whole pipeline: {noop * 1000:.1f} ms = {noop / full:.2f}x of full; "
          f"files written: {noop_writes} "
          f"(target 0: {'ok' if noop_writes == 0 else 'MISSED'})")
    scale = full10 / full
    print(f"10x specs ({intrinsics10} intrinsics, {files10} files): {full10 * 1000:.1f} ms = {scale:.2f}x of full "
          f"(linear would be <= 10x: {'ok' if scale <= 10.0 else 'MISSED'})")
    print(f"`python -m generator generate` as a process, full run (no record under build/generator; the baseline): "
          f"{whole[0] * 1000:.0f} ms ({whole[1] * 1000:.0f} ms CPU) = {whole[0] / before[0]:.2f}x of the same process "
          f"with pure-Python YAML and no template/schema caches ({before[0] * 1000:.0f} ms)")
    print(f"  one pass spec edited: {edit[0] * 1000:.0f} ms ({edit[1] * 1000:.0f} ms CPU) = {edit[0] / whole[0]:.2f}x "
          "of the full run")
    print(f"  no-op: {now[0] * 1000:.0f} ms ({now[1] * 1000:.0f} ms CPU) = {now[0] / whole[0]:.2f}x of the full run "
          f"(target <= 300 ms: {'ok' if now[0] <= 0.3 else 'MISSED'})")


if __name__ == "__main__":
    main()
