"""Command line: `python -m generator generate|check|list|docs|new-backend`.

This module imports the standard library and the generator's record of its last run only: a `generate` with nothing
to do (inputs and outputs as the last run left them, generator/incremental.py) answers here, in the time of a Python
start, without importing the validating and rendering phases (generator/commands.py: jsonschema, jinja2).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from . import incremental
from .layout import Project

DEFAULT_ROOT = Path(__file__).resolve().parent.parent


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m generator",
                                     description="Render specs/ through templates/ into generated/.")
    parser.add_argument("--root", type=Path, default=DEFAULT_ROOT,
                        help="project root (holds specs/, schema/, templates/)")
    parser.add_argument("--out", type=Path, default=None, help="output folder (default: <root>/generated)")
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="validate specs and write generated/ (only changed files)")
    gen.add_argument("--dry-run", action="store_true", help="show what would change, write nothing")
    gen.add_argument("-q", "--quiet", action="store_true", help="print only the summary line")
    sub.add_parser("check", help="fail when generated/ differs from what specs and templates produce")
    listing = sub.add_parser("list", help="what the specs define: a count per kind and the backends")
    listing.add_argument("--all", action="store_true",
                         help="list every backend, pipeline, pass, protocol and intrinsic (one line each)")
    sub.add_parser("docs", help="print the generated intrinsic reference (Markdown)")
    new = sub.add_parser("new-backend", help="scaffold a backend (specs + tests) from templates/backend (cookiecutter)")
    new.add_argument("name", help="backend name: the target users pass to tilelang.lower(target=...)")
    new.add_argument("--set", dest="answers", action="append", default=[], metavar="KEY=VALUE",
                     help="answer a template variable (repeatable; for example --set split=ir)")
    new.add_argument("--output-dir", type=Path, default=Path("."), help="bake into DIR/NAME/ (default: .)")
    new.add_argument("--no-input", action="store_true", help="do not prompt; defaults for unanswered variables")
    new.add_argument("--overwrite", action="store_true", help="bake over an existing DIR/NAME/")
    return parser


def _up_to_date(project: Project, args: argparse.Namespace) -> tuple[incremental.State, str, bool]:
    """The last run's record, the inputs' digest ('' when an input cannot be read: the full run reports it), and
    whether a `generate` has nothing to do."""
    if args.command != "generate":
        return incremental.State(), "", False
    last = incremental.load_state(project)
    try:
        digest = incremental.input_digest(project)
    except OSError:
        return last, "", False
    return last, digest, incremental.up_to_date(project, last, digest)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    project = Project.at(args.root, args.out)
    missing = [p.name for p in (project.specs, project.schema, project.templates) if not p.is_dir()]
    if len(missing) == 3:  # one of them missing is a broken checkout: the loader names what is wrong
        # Installed from the wheel, the generator has no project beside it: it works on a checkout's specs.
        print(f"error: {project.root} is not a tilelang-declarative checkout (no {', '.join(missing)}/ there); "
              "run the generator in a checkout of the project, or give its folder with --root", file=sys.stderr)
        return 2
    last, digest, nothing_to_do = _up_to_date(project, args)
    if nothing_to_do:
        print(incremental.summary(project, args.dry_run, 0, 0, len(last.outputs)))
        return 0
    # Imported here, not above: a no-op `generate` (answered above) must not pay for jsonschema and jinja2.
    from . import commands
    return commands.run(project, args, last, digest)


if __name__ == "__main__":
    raise SystemExit(main())
