"""Command line: `python -m generator generate|check|list|docs|new-backend`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from . import writer
from .diagnostics import GeneratorError
from .model import SpecSet
from .new_backend import NewBackendError, new_backend, parse_answers, template_dir, template_variables
from .project import Project, load_project
from .render import Output, render_all

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
    sub.add_parser("list", help="list specs, intrinsics, passes, pipelines and backends")
    sub.add_parser("docs", help="print the generated intrinsic reference (Markdown)")
    new = sub.add_parser("new-backend", help="scaffold a backend (specs + tests) from templates/backend (cookiecutter)")
    new.add_argument("name", help="backend name: the target users pass to tilelang.lower(target=...)")
    new.add_argument("--set", dest="answers", action="append", default=[], metavar="KEY=VALUE",
                     help="answer a template variable (repeatable; for example --set split=ir)")
    new.add_argument("--output-dir", type=Path, default=Path("."), help="bake into DIR/NAME/ (default: .)")
    new.add_argument("--no-input", action="store_true", help="do not prompt; defaults for unanswered variables")
    new.add_argument("--overwrite", action="store_true", help="bake over an existing DIR/NAME/")
    return parser


def _render(project: Project) -> tuple[SpecSet, list[Output]]:
    model = load_project(project)
    return model, render_all(project, model)


def _describe(project: Project, the_plan: writer.Plan) -> list[str]:
    out = project.rel(project.out)
    lines = []
    for output in the_plan.writes:
        mark = "A" if output.path in the_plan.added else "M"
        lines.append(f"  {mark} {out}/{output.path}")
    lines += [f"  D {out}/{path}" for path in the_plan.deletes]
    return lines


def cmd_generate(project: Project, dry_run: bool, quiet: bool) -> int:
    _, outputs = _render(project)
    the_plan = writer.plan(project.out, outputs)
    if not dry_run:
        writer.apply(project.out, the_plan)
    if not quiet:
        for line in _describe(project, the_plan):
            print(line)
    verb = "would write" if dry_run else "wrote"
    print(f"{project.rel(project.out)}/: {verb} {len(the_plan.writes)}, removed {len(the_plan.deletes)}, "
          f"unchanged {the_plan.unchanged}")
    return 0


def cmd_check(project: Project) -> int:
    _, outputs = _render(project)
    the_plan = writer.plan(project.out, outputs)
    if the_plan.empty:
        print(f"{project.rel(project.out)}/ is up to date ({the_plan.unchanged} files)")
        return 0
    print(f"{project.rel(project.out)}/ differs from what specs/ and templates/ produce:", file=sys.stderr)
    for line in _describe(project, the_plan):
        print(line, file=sys.stderr)
    print("Run `make generate` and commit the result (never edit generated/ by hand).", file=sys.stderr)
    return 1


def cmd_list(project: Project) -> int:
    model = load_project(project)
    print(f"{len(model.files)} spec files")
    for backend in model.backends:
        print(f"backend  {backend.name:<14} target={backend.target.kind} pipeline={backend.pipeline or '-'}"
              f" profile={backend.profile or '-'}")
    for pipeline in model.pipelines:
        print(f"pipeline {pipeline.name:<14} {len(pipeline.steps)} steps")
    for pass_ in model.passes:
        print(f"pass     {pass_.name:<14} stage={pass_.stage}")
    for protocol in model.protocols:
        print(f"protocol {protocol.name:<14} {len(protocol.steps)} steps")
    for intrinsic in model.intrinsics:
        profiles = ",".join(c.profile for c in intrinsic.cpp) or "-"
        print(f"intrinsic tt.{intrinsic.name:<28} {intrinsic.level:<8} roles={','.join(intrinsic.roles)}"
              f" profiles={profiles}")
    return 0


def cmd_docs(project: Project) -> int:
    _, outputs = _render(project)
    for output in outputs:
        if output.path.startswith("docs/"):
            sys.stdout.write(output.content)
    return 0


def cmd_new_backend(project: Project, args: argparse.Namespace) -> int:
    answers = parse_answers(args.answers, template_variables(template_dir(project)))
    new_backend(project, args.name, output_dir=args.output_dir, answers=answers, no_input=args.no_input,
                overwrite=args.overwrite)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    project = Project.at(args.root, args.out)
    missing = [p.name for p in (project.specs, project.schema, project.templates) if not p.is_dir()]
    if len(missing) == 3:  # one of them missing is a broken checkout: the loader names what is wrong
        # Installed from the wheel, the generator has no project beside it: it works on a checkout's specs.
        print(f"error: {project.root} is not a tilelang-declarative checkout (no {', '.join(missing)}/ there); "
              "run the generator in a checkout of the project, or give its folder with --root", file=sys.stderr)
        return 2
    try:
        if args.command == "generate":
            return cmd_generate(project, args.dry_run, args.quiet)
        if args.command == "check":
            return cmd_check(project)
        if args.command == "list":
            return cmd_list(project)
        if args.command == "new-backend":
            return cmd_new_backend(project, args)
        return cmd_docs(project)
    except GeneratorError as exc:
        print(exc.diagnostics.render(), file=sys.stderr)
        count = len(exc.diagnostics)
        print(f"{count} error{'s' if count != 1 else ''}; nothing was written.", file=sys.stderr)
        return 1
    except NewBackendError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"error: {exc}; generated/ was left as it was.", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
