"""Print what building the C++ libraries needs, one requirement a line, read from pyproject.toml: its
`build-system.requires` plus CMake and Ninja at the versions `[tool.scikit-build]` asks for.

`make install` installs them into .venv and installs the project without pip's build isolation, so that the
checkout's build directory (build/cpp) keeps pointing at tools that still exist after pip exits.
"""

from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    from pip._vendor import tomli as tomllib  # type: ignore[no-redef]

project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text("utf-8"))
scikit_build = project["tool"]["scikit-build"]
print(*project["build-system"]["requires"], f"cmake{scikit_build['cmake']['version']}",
      f"ninja{scikit_build['ninja']['version']}", sep="\n")
