"""The ttnn names a ttnn host program (run_ttnn.py) uses, checked against the names the ttnn wheel's Python binding
exports: the wheel has no .pyi stubs, so these are the identifiers among the nanobind module's strings (classes,
functions, methods, properties, keyword arguments, enum members) and the names bound at the top of ttnn/__init__.py.

A name the script uses is every attribute it reads and every keyword of a call on `ttnn.<...>`, except the names it
defines itself and those of the Python objects it uses besides ttnn (numpy, pathlib, argparse, builtins)."""

from __future__ import annotations

import argparse
import ast
import json
import math
import re
import sys
from functools import cache
from pathlib import Path

import numpy as np

_IDENTIFIER = re.compile(rb"(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*(?=\x00)")  # NUL-terminated C strings
_PYTHON_OBJECTS = (np, np.ndarray, Path, str, bytes, dict, list, tuple, int, float, set, argparse,
                   argparse.ArgumentParser, argparse.Namespace, json, math, sys, RuntimeError)


@cache
def exported(binding: Path) -> frozenset[str]:
    """What the ttnn module of `binding` (wheels.ttnn_binding) exports, by name."""
    names: set[str] = set()
    for library in binding.glob("_ttnn.*.so"):
        names |= {m.decode() for m in _IDENTIFIER.findall(library.read_bytes())}
    for node in ast.parse((binding / "__init__.py").read_text()).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return frozenset(names)


def _on_ttnn(node: ast.expr) -> bool:
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return isinstance(node, ast.Name) and node.id == "ttnn"


def _defined(tree: ast.Module) -> set[str]:
    """Names the script defines: functions, classes, `self.<name>` attributes, argparse destinations."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_argument":
            names |= {a.value.lstrip("-").replace("-", "_") for a in node.args if isinstance(a, ast.Constant)}
    return names


def used(script: str) -> dict[str, int]:
    """The names of ttnn objects `script` uses -> the first line that uses each."""
    tree = ast.parse(script)
    python = {n for obj in _PYTHON_OBJECTS for n in dir(obj)} | _defined(tree)
    found: dict[str, int] = {}
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Attribute) and (_on_ttnn(node) or node.attr not in python):
            names.append(node.attr)
        if isinstance(node, ast.Call) and _on_ttnn(node.func):
            names += [k.arg for k in node.keywords if k.arg]
        for name in names:
            if not name.startswith("__"):
                found[name] = min(found.get(name, node.lineno), node.lineno)
    return found


def missing(script: str, binding: Path) -> list[str]:
    """`line N: name` for every ttnn name `script` uses that the binding does not export."""
    names = exported(binding)
    return [f"line {line}: {name}" for name, line in sorted(used(script).items(), key=lambda kv: (kv[1], kv[0]))
            if name not in names]
