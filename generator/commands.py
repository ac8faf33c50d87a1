"""The commands of `python -m generator` that load the specs (generator/cli.py parses the command line and answers
a no-op `generate` before this module, and with it jsonschema and jinja2, is imported)."""

from __future__ import annotations

import argparse
import sys

from . import incremental, writer
from .diagnostics import GeneratorError
from .model import SpecSet
from .new_backend import NewBackendError, new_backend, parse_answers, template_dir, template_variables
from .project import Project, load_project
from .render import Output, render_all
from .render_cache import RenderCache
from .schema import Validations


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


def cmd_generate(project: Project, dry_run: bool, quiet: bool, last: incremental.State, digest: str) -> int:
    """Validate the specs the last run did not, render the outputs whose inputs changed, write what differs, and
    record the run (`digest`: of the inputs as they were before loading; '' records nothing)."""
    validations = Validations(known=set(last.validated))
    model = load_project(project, validations)
    cache = RenderCache(model, project.out, last, incremental.code_digest())
    outputs = render_all(project, model, cache)
    the_plan = writer.plan(project.out, outputs)
    if not dry_run:
        writer.apply(project.out, the_plan)
        if digest:
            written = outputs + [writer.manifest_output(outputs)]
            hashes = {o.path: incremental.file_hash(o.content.encode("utf-8")) for o in written}
            incremental.save_state(project, incremental.State(digest, hashes, cache.renders,
                                                              sorted(validations.passed)))
    if not quiet:
        kept = len(outputs) - cache.rendered
        print(f"  rendered {cache.rendered} of {len(outputs)} outputs"
              + (f" ({kept} read back: their inputs are those of the last run)" if kept else ""))
        for line in _describe(project, the_plan):
            print(line)
    print(incremental.summary(project, dry_run, len(the_plan.writes), len(the_plan.deletes), the_plan.unchanged))
    return 0


def cmd_check(project: Project) -> int:
    """Renders everything, never reading the generator's record: the arbiter of what the specs produce."""
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


def _summary(model: SpecSet) -> list[str]:
    """One screen: how many of each kind, and the backends (what `tilelang.lower(target=...)` takes)."""
    counts = [(len(model.backends), "backends"), (len(model.pipelines), "pipelines"), (len(model.passes), "passes"),
              (len(model.protocols), "protocols"), (len(model.intrinsics), "intrinsics"),
              (len(model.families), "intrinsic families"), (len(model.eltwise_ops), "element-wise ops"),
              (len(model.ir_nodes), "IR views"), (sum(len(lang.tile_ops) for lang in model.languages), "T.* tile ops")]
    return [f"{len(model.files)} spec files: " + ", ".join(f"{n} {what}" for n, what in counts),
            "backends: " + ", ".join(f"{b.name} ({b.target.kind})" for b in model.backends),
            "every spec: python -m generator list --all"]


def cmd_list(project: Project, everything: bool) -> int:
    model = load_project(project)
    if not everything:
        print("\n".join(_summary(model)))
        return 0
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


def run(project: Project, args: argparse.Namespace, last: incremental.State, digest: str) -> int:
    try:
        if args.command == "generate":
            return cmd_generate(project, args.dry_run, args.quiet, last, digest)
        if args.command == "check":
            return cmd_check(project)
        if args.command == "list":
            return cmd_list(project, args.all)
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
