"""The backend template (templates/backend): baked with pytest-cookies for several answer combinations, invalid
answers rejected, baked specs loaded by the generator, and - in copies of the project - `python -m generator
generate` plus the baked backends' own tests, and the "Add a backend" walkthrough of docs/add-backend.md as written.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from checkout_edits import ADD_A_BACKEND, BakedBackends, baked_backends, readme_walkthrough
from cookiecutter.exceptions import FailedHookException

from generator import Project, load_project
from generator.cli import main as generator_main
from projects import REPO, copy_env, copy_project

TEMPLATE = REPO / "templates" / "backend"
LEFTOVER = re.compile(r"{{\s*cookiecutter\.|{%|%}|{#")
TAKEN = {b.name for b in load_project(Project.at(REPO)).backends}


def fresh(name: str) -> str:
    """`name`, or `name_2`, `name_3`, ... when the checkout already has a backend of that name: the tests bake
    backends next to whatever backends the checkout has, so adding one (of any name) keeps them green."""
    return next(n for n in (name if i == 1 else f"{name}_{i}" for i in itertools.count(1)) if n not in TAKEN)


def camel(name: str) -> str:
    return "".join(part.capitalize() for part in name.split("_"))


NIMBUS, CIRRUS, ZEPHYR = fresh("nimbus"), fresh("cirrus"), fresh("zephyr")

# Answer combinations that must bake into specs the generator accepts (ids name them).
SUPPORTED = {
    "defaults": {},
    "ir-gpu": {"split": "ir"},
    "ir-common-c-two-keys": {"split": "ir", "pipeline": "optimize_common", "target_kind": "c",
                             "target_keys": f"{NIMBUS}, accel"},
    "codegen-cpu-llvm": {"pipeline": "optimize_cpu", "target_kind": "llvm"},
    "codegen-common-opencl": {"pipeline": "optimize_common", "target_kind": "opencl", "author": "A. Person"},
}
# (answers, part of the hook's message); the name defaults to NIMBUS.
UNSUPPORTED = {
    "digit-first": ({"backend_name": "1accel"}, "is not a lower-case identifier"),
    "dash": ({"backend_name": "my-accel"}, "is not a lower-case identifier"),
    "upper": ({"backend_name": "MyAccel"}, "is not a lower-case identifier"),
    "leading-underscore": ({"backend_name": "_accel"}, "is not a lower-case identifier"),
    "double-underscore": ({"backend_name": "my__accel"}, "is not a lower-case identifier"),
    "too-long": ({"backend_name": "a" * 33}, "longer than 32 characters"),
    "keyword": ({"backend_name": "class"}, "is a Python keyword"),
    "soft-keyword": ({"backend_name": "match"}, "is a Python keyword"),
    "llvm": ({"backend_name": "llvm"}, "is an existing backend"),
    "c": ({"backend_name": "c"}, "is an existing backend"),
    "cuda": ({"backend_name": "cuda"}, "is an existing backend"),
    "hip": ({"backend_name": "hip"}, "is an existing backend"),
    "webgpu": ({"backend_name": "webgpu"}, "is an existing backend"),
    "tenstorrent": ({"backend_name": "tenstorrent"}, "is an existing backend"),
    "target-kind-name": ({"backend_name": "ext_dev"}, "is a TVM target kind"),
    "default-key-name": ({"backend_name": "gpu"}, "is a default TVM target key"),
    "engine-module": ({"backend_name": "registry"}, "is a module of tilelang.engine"),
    "keys-without-name": ({"target_keys": "accel"}, f"must include the backend name '{NIMBUS}'"),
    "bad-key": ({"target_keys": f"{NIMBUS}, Accel"}, "'Accel' is not a lower-case identifier"),
    "ir-on-cpu-pipeline": ({"split": "ir", "pipeline": "optimize_cpu"}, "split 'ir' needs block launches"),
    "two-line-author": ({"author": "A\nB"}, "author must be one non-empty line"),
}


@pytest.fixture
def cookiecutter_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Cookiecutter runs outside pytest-cookies read their config (replay dir) from here, not from ~."""
    config = tmp_path / "cookiecutter.yaml"
    config.write_text(f"replay_dir: {tmp_path / 'replay'}\ncookiecutters_dir: {tmp_path / 'cookiecutters'}\n")
    monkeypatch.setenv("COOKIECUTTER_CONFIG", str(config))
    return config


def bake(cookies: Any, answers: dict[str, str], name: str = NIMBUS) -> Path:
    result = cookies.bake(extra_context={"backend_name": name, **answers}, template=str(TEMPLATE))
    assert result.exit_code == 0, result.exception
    path: Path = result.project_path
    return path


def baked_files(baked: Path) -> dict[str, str]:
    return {p.relative_to(baked).as_posix(): p.read_text("utf-8") for p in sorted(baked.rglob("*")) if p.is_file()}


def overlay(baked: Path, root: Path) -> None:
    """Copy a baked backend's specs/ and tests/ onto a project tree (docs/add-backend.md's `cp -R`)."""
    for part in ("specs", "tests"):
        shutil.copytree(baked / part, root / part, dirs_exist_ok=True)


# ------------------------------------------------------------------------------------------ bake + static checks


@pytest.mark.parametrize("answers", SUPPORTED.values(), ids=SUPPORTED.keys())
def test_bakes_complete_specs_the_generator_accepts(cookies: Any, answers: dict[str, str], tmp_path: Path) -> None:
    baked = bake(cookies, answers)
    files = baked_files(baked)
    assert sorted(files) == [".cruft.json", f"specs/backends/{NIMBUS}.yaml",
                             f"specs/passes/{NIMBUS}_prepare_codegen.yaml", f"specs/pipelines/{NIMBUS}_optimize.yaml",
                             f"tests/backends/test_backend_{NIMBUS}.py"]
    for path, text in files.items():
        assert not LEFTOVER.search(path) and not LEFTOVER.search(text), path
    compile(files[f"tests/backends/test_backend_{NIMBUS}.py"], f"test_backend_{NIMBUS}.py", "exec")
    root = copy_project(tmp_path / "project")
    overlay(baked, root)
    model = load_project(Project.at(root))  # schema + cross-spec checks, as `make generate` runs them
    backend = next(b for b in model.backends if b.name == NIMBUS)
    split_in_ir = answers.get("split") == "ir"
    assert backend.pipeline == f"{NIMBUS}_optimize" and backend.legalize == "lower_and_legalize"
    assert (backend.split, backend.codegen, backend.runs_on) == ("none", "tvmscript", "never")
    assert backend.target.kind == answers.get("target_kind", "ext_dev")
    assert backend.target.host == ("llvm" if split_in_ir else "")
    assert list(backend.target.keys) == [k.strip() for k in answers.get("target_keys", NIMBUS).split(",")]
    pipeline = next(p for p in model.pipelines if p.name == f"{NIMBUS}_optimize")
    assert [s.pipeline or s.pass_name for s in pipeline.steps] == [answers.get("pipeline", "optimize_gpu"),
                                                                f"{camel(NIMBUS)}PrepareCodegen"]
    the_pass = next(p for p in model.passes if p.name == f"{camel(NIMBUS)}PrepareCodegen")
    transforms = [r.transform for r in the_pass.rules]
    assert transforms == (["AnnotateEntryFunc", "SplitHostDevice"] if split_in_ir else ["AnnotateEntryFunc"])


def test_baked_python_and_the_hooks_are_lint_clean(cookies: Any) -> None:
    baked = bake(cookies, {"split": "ir"})
    ruff = str(Path(sys.executable).with_name("ruff"))
    paths = [str(baked / "tests"), str(TEMPLATE / "hooks")]  # the hooks are Python with Jinja inside one string
    done = subprocess.run([ruff, "check", "--config", str(REPO / "pyproject.toml"), *paths],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout


def test_answers_are_recorded_in_a_cruft_file(cookies: Any) -> None:
    answers = {"split": "ir", "pipeline": "optimize_common", "author": "A. Person"}
    state = json.loads((bake(cookies, answers) / ".cruft.json").read_text("utf-8"))
    assert set(state) == {"template", "commit", "checkout", "context", "directory", "skip"}
    context = state["context"]["cookiecutter"]
    assert {k: context[k] for k in answers} == answers and context["backend_name"] == NIMBUS
    assert context["_template"] == state["template"]
    assert not {"_output_dir", "_repo_dir"} & set(context)  # where this run happened is not an answer
    toplevel = subprocess.run(["git", "-C", str(TEMPLATE), "rev-parse", "--show-toplevel"], capture_output=True,
                              text=True)
    if toplevel.returncode == 0:  # the project is a git checkout: cruft can clone it at the recorded commit
        assert Path(state["template"]) == Path(toplevel.stdout.strip()).resolve()
        assert state["directory"] == "templates/backend" and re.fullmatch(r"[0-9a-f]{40}", state["commit"])


@pytest.mark.parametrize(("answers", "message"), UNSUPPORTED.values(), ids=UNSUPPORTED.keys())
def test_invalid_answers_are_rejected(cookies: Any, capfd: pytest.CaptureFixture[str], answers: dict[str, str],
                                      message: str) -> None:
    result = cookies.bake(extra_context={"backend_name": NIMBUS, **answers}, template=str(TEMPLATE))
    assert result.exit_code != 0 and isinstance(result.exception, FailedHookException)
    assert result.project_path is None or not Path(result.project_path).exists()
    err = capfd.readouterr().err
    assert f"ERROR: {message}" in err or message in err, err
    assert "nothing was generated" in err


def test_an_empty_name_makes_no_project(cookies: Any) -> None:
    result = cookies.bake(extra_context={"backend_name": ""}, template=str(TEMPLATE))
    assert result.exit_code != 0 and result.project_path is None  # the project folder would have no name


def test_plain_cookiecutter_with_a_relative_template_path(tmp_path: Path, cookiecutter_config: Path) -> None:
    """`cookiecutter templates/backend` from the project root: the hooks find the project through $PWD."""
    cli = str(Path(sys.executable).with_name("cookiecutter"))
    env = {**os.environ, "PWD": str(REPO)}  # what a shell sets; subprocess(cwd=...) alone does not
    args = [cli, "--no-input", "-o", str(tmp_path), "templates/backend"]
    done = subprocess.run([*args, f"backend_name={ZEPHYR}"], cwd=REPO, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "Next: copy specs/ and tests/" in done.stdout and "make generate" in done.stdout
    state = json.loads((tmp_path / ZEPHYR / ".cruft.json").read_text("utf-8"))
    assert state["context"]["cookiecutter"]["backend_name"] == ZEPHYR
    refused = subprocess.run([*args, "backend_name=llvm"], cwd=REPO, env=env, capture_output=True, text=True)
    assert refused.returncode != 0 and "'llvm' is an existing backend" in refused.stderr


# ----------------------------------------------------------------------------------------------- the CLI wrapper


def test_cli_bakes_the_same_files_as_cookiecutter(cookies: Any, tmp_path: Path, cookiecutter_config: Path,
                                                  capfd: pytest.CaptureFixture[str]) -> None:
    answers = {"split": "ir", "target_kind": "vulkan"}
    argv = ["new-backend", NIMBUS, "--no-input", "--output-dir", str(tmp_path / "out")]
    assert generator_main([*argv, *(f"--set={k}={v}" for k, v in answers.items())]) == 0
    assert f"Backend '{NIMBUS}' scaffolded" in capfd.readouterr().out
    by_cli, by_cookies = baked_files(tmp_path / "out" / NIMBUS), baked_files(bake(cookies, answers))
    assert {p: t for p, t in by_cli.items() if p != ".cruft.json"} == \
        {p: t for p, t in by_cookies.items() if p != ".cruft.json"}
    assert generator_main(argv) == 1  # the folder exists now
    assert "already exists; choose another --output-dir or pass --overwrite" in capfd.readouterr().err
    assert generator_main([*argv, "--overwrite", "--set", "pipeline=optimize_cpu"]) == 0  # answers re-recorded
    state = json.loads((tmp_path / "out" / NIMBUS / ".cruft.json").read_text("utf-8"))
    assert (state["context"]["cookiecutter"]["pipeline"], state["context"]["cookiecutter"]["split"]) == \
        ("optimize_cpu", "codegen")


@pytest.mark.parametrize(("argv", "message"), [
    (["--set", "splt=ir"], "'splt' is not a variable of the template; variables: description, target_kind"),
    (["--set", "split"], "'split' is not KEY=VALUE"),
    (["--set", "backend_name=x"], "the backend name is the NAME argument"),
    (["--set", "target_kind=tpu"], "tpu provided for choice variable target_kind"),
    (["--set", "split=ir", "--set", "split=ir"], "'split' is answered twice"),
])
def test_cli_rejects_bad_answers(argv: list[str], message: str, tmp_path: Path, cookiecutter_config: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert generator_main(["new-backend", NIMBUS, "--no-input", "--output-dir", str(tmp_path), *argv]) == 1
    assert message in capsys.readouterr().err
    assert not (tmp_path / NIMBUS).exists()


@pytest.mark.parametrize("name", ["../nimbus", "a/b", ".."])
def test_cli_refuses_a_name_that_is_a_path(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert generator_main(["new-backend", name, "--no-input", "--output-dir", str(tmp_path / "out")]) == 1
    assert "is a path, not a backend name" in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_cli_reports_the_hooks_refusal(tmp_path: Path, cookiecutter_config: Path,
                                       capfd: pytest.CaptureFixture[str]) -> None:
    assert generator_main(["new-backend", "cuda", "--no-input", "--output-dir", str(tmp_path)]) == 1
    err = capfd.readouterr().err
    assert "ERROR: backend_name 'cuda' is an existing backend" in err
    assert "error: the template rejected the answers" in err and "Traceback" not in err


# ----------------------------------------------------------------- end to end: generate, then the baked tests pass


def walkthrough_here() -> tuple[str, str]:
    """The walkthrough (docs/add-backend.md) as written, unless this checkout has a backend of its name already
    (its reader followed it here): then with a free name in its place."""
    script, name = readme_walkthrough()
    free = fresh(name)
    return re.sub(rf"\b{name}\b", free, script), free


def test_the_readme_walkthrough_bakes_a_backend_this_checkout_accepts(tmp_path: Path, cookiecutter_config: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    _, name = readme_walkthrough()
    assert name not in {"nimbus", "cirrus", "zephyr"}  # the names the other tests bake
    script, free = walkthrough_here()
    argv = re.search(r"new-backend .*", script)
    assert argv is not None and free not in TAKEN
    args = argv.group(0).replace("../backends", str(tmp_path / "backends")).split()
    assert generator_main(args) == 0, capsys.readouterr().err
    assert (tmp_path / "backends" / free / ".cruft.json").is_file()


# The project tests that once pinned the registry (issue 20), run in a copy with baked backends.
PROJECT_TESTS = (
    "tests/passes/test_pass_golden.py::test_every_pass_spec_runs_in_a_registered_backend",
    "tests/passes/test_pass_golden.py::test_every_pass_a_backend_runs_has_a_golden",
    "tests/backends/test_backends.py::test_registry_holds_every_backend_spec",
    "tests/backends/test_backends.py::test_each_backend_package_follows_the_contract",
    "tests/backends/test_backends.py::test_unknown_target_lists_the_registered_ones",
    "tests/backends/test_backends.py::test_passes_are_tvm_passes_named_from_their_specs",
    "tests/language/test_language_surface.py::test_unsupported_names_are_clear_errors_naming_construct_and_backends",
    "tests/backends/test_backend_template.py",  # its fast tests: they bake backends next to those of the copy
)


@pytest.fixture(scope="session")
def baked_copy(tmp_path_factory: pytest.TempPathFactory) -> BakedBackends:
    """One checkout copy for the two tests below (one generate, one C++ build): two backends baked onto it, named
    as the tests name their own (which then take other names), then the walkthrough run there as written, which
    bakes the third."""
    script, name = walkthrough_here()
    return baked_backends(tmp_path_factory.mktemp("baked"), {NIMBUS: {}, CIRRUS: {"pipeline": "optimize_cpu",
                                                                                 "target_kind": "vulkan"}},
                          script, name)


@pytest.mark.slow  # the walkthrough's `make generate` builds the C++ libraries of a checkout copy
@pytest.mark.xdist_group("baked_copy")
def test_readme_walkthrough_runs_as_written(baked_copy: BakedBackends) -> None:
    """The walkthrough's commands, verbatim, in a checkout copy (with two more baked backends) whose .venv is this
    one (its editable install is replaced by PYTHONPATH so that the copy's generated `tilelang` is imported)."""
    assert baked_copy.installed  # make would not reinstall
    done, name = baked_copy.done, baked_copy.walkthrough
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert (baked_copy.backends / name / ".cruft.json").is_file()  # ../backends from the checkout
    assert (baked_copy.root / "generated" / "tilelang" / "engine" / name / "lower.py").is_file()
    assert "7 passed" in done.stdout
    assert not (REPO / "generated" / "tilelang" / "engine" / name).exists()  # the live tree was not touched


@pytest.mark.slow  # runs project tests in the checkout copy the walkthrough built
@pytest.mark.xdist_group("baked_copy")
def test_baked_backends_keep_the_project_tests_green(baked_copy: BakedBackends) -> None:
    """Three backends baked into a copy of the checkout, as a user would: the walkthrough's and two more combinations.
    Their own tests pass, and so do the project tests that used to pin the registry, run in the copy."""
    root, names = baked_copy.root, (baked_copy.walkthrough, *baked_copy.baked)
    assert baked_copy.done.returncode == 0, baked_copy.done.stderr[-4000:]  # generated and built
    for name in names:
        assert (root / "generated" / "tilelang" / "engine" / name / "lower.py").is_file()
        assert f"'{name}': Backend(" in (root / "generated" / "tilelang" / "engine" / "registry.py").read_text()
    baked = [f"tests/backends/test_backend_{name}.py" for name in names]
    env = copy_env(root)
    env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], str(root)])
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow", "-rA",
                           *baked, *PROJECT_TESTS], cwd=root, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    for test_file in baked:
        assert done.stdout.count(f"PASSED {test_file}::") == 7, done.stdout[-3000:]


def test_readme_add_a_backend_section_sits_before_the_design_notes() -> None:
    pages = re.findall(r"^  - [^:]+: (\S+\.md)$", (REPO / "mkdocs.yml").read_text("utf-8"), re.M)
    assert pages[pages.index("add-backend.md") + 1] == "design.md"
    assert ".cruft.json" in ADD_A_BACKEND.split("\n## Add a backend\n", 1)[1].split("\n## ", 1)[0]
