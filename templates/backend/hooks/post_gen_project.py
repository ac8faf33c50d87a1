"""Record the answers in a cruft-compatible `.cruft.json` and print the next step.

`.cruft.json` holds what `cruft create` would write: the template repository, its commit, the sub-directory of the
template and the answers, so `cruft check`, `cruft diff` and `cruft update` work in the baked folder. It is written
only when cookiecutter says where the template lives (`_repo_dir`); cruft, which renders the template without it,
writes and maintains the file itself, and its re-renders (cruft diff, cruft update) print nothing here.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

ANSWERS = json.loads(r'''{{ cookiecutter | tojson }}''')
# Where this run happened: not part of the answers (cruft does not record them either).
RUN_KEYS = ("_output_dir", "_repo_dir", "_checkout")


def template_dir() -> Path | None:
    """Where the template lives, when cookiecutter says so (cruft re-renders without `_repo_dir`).

    Hooks run inside the new project, so a relative `_repo_dir` (plain `cookiecutter templates/backend`) is
    resolved against the shell's working directory ($PWD).
    """
    repo_dir = ANSWERS.get("_repo_dir") or ""
    if not repo_dir:
        return None
    path = Path(repo_dir)
    if not path.is_absolute():
        path = Path(os.environ.get("PWD", ".")) / path
    return path.resolve() if (path / "cookiecutter.json").is_file() else None


def git(repo_dir: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(repo_dir), *args], capture_output=True, text=True, check=False)
    except OSError:
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def cruft_state(repo_dir: Path) -> dict[str, object]:
    """The template's git repository, commit and sub-directory (plain paths when it is not in git)."""
    top = git(repo_dir, "rev-parse", "--show-toplevel")
    commit = git(repo_dir, "rev-parse", "HEAD") if top else None
    template = top if top else str(repo_dir)
    directory = repo_dir.relative_to(Path(top).resolve()).as_posix() if top else None
    context = {key: value for key, value in ANSWERS.items() if key not in RUN_KEYS}
    context["_template"] = template
    return {"template": template, "commit": commit, "checkout": ANSWERS.get("_checkout"),
            "context": {"cookiecutter": context}, "directory": directory, "skip": []}


def main() -> None:
    here = Path.cwd()
    name = ANSWERS["backend_name"]
    template = template_dir()
    if template is None:  # cruft re-rendering the template to compute a diff: no record, no chatter
        return
    record = here / ".cruft.json"  # rewritten on every bake (--overwrite included): the answers of this one
    text = json.dumps(cruft_state(template), ensure_ascii=False, indent=2, separators=(",", ": "))
    record.write_text(text + "\n", "utf-8")
    files = sorted(p.relative_to(here).as_posix() for p in here.rglob("*") if p.is_file() and p != record)
    print(f"Backend '{name}' scaffolded in {here}:")
    for file in files:
        print(f"  {file}")
    print("Next: copy specs/ and tests/ onto a checkout of the project, regenerate, run the backend's tests:")
    print(f"  cp -R {here}/specs {here}/tests <checkout>/")
    print("  make generate")
    print(f"  .venv/bin/pytest -q tests/backends/test_backend_{name}.py")
    print(f"Answers are recorded in {record} (cruft check / cruft update in {here} pull template changes).")
    print("The copies on the checkout are the ones to edit; docs/add-backend.md ('Add a backend') says how to take "
          "template changes into them (and what to do with a .rej file).")


if __name__ == "__main__":
    main()
