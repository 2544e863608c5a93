"""The ladder of layers (DESIGN.md, "Layout"): an import only goes down, never up and never sideways.

Every module of the package is read with :mod:`ast`; every import of ``alfred_gen`` in it counts,
at module level or inside a function, except those under ``if TYPE_CHECKING:`` (they never run).
A module may import its own unit freely (``alfred_gen.sim.lite`` -> ``alfred_gen.sim.world``), and
any unit on a lower rung. Two units on the same rung never import each other: ``sim`` and
``planner`` do not know each other, nor do ``scenes`` and ``replay``, nor the dataset families.

Rung 0 holds the leaves. Among them ``errors`` comes first (every layer raises its UserError), then
``atomic`` and ``progress``, then ``traj``; so rung 0 is written as three sub-rungs below.
"""

from __future__ import annotations

import ast
import configparser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Units of the package by rung, lowest first (a unit is a top-level name under alfred_gen).
RUNGS: list[tuple[str, ...]] = [
    ("errors",),  # 0: leaves
    ("atomic", "progress", "parallel"),
    ("traj",),
    ("domains",),  # 1: data about THOR and ALFRED
    ("sim", "planner"),  # 2: simulators | planning
    ("scenes", "replay"),  # 3: rooms | running actions on a simulator
    ("demo", "thorbuild"),  # 4: one demonstration | lite as a THOR build
    ("sample", "derive", "eqa", "actthor", "export", "fidelity", "annotate", "env", "data"),  # 5: families
    ("eval",),  # 6: scoring agents on any family's data
    ("cli",),  # 7
]
RUNG_OF = {unit: rung for rung, units in enumerate(RUNGS) for unit in units}
#: The rung numbers DESIGN.md uses (rung 0's three sub-rungs are all 0).
DESIGN_RUNG = [0, 0, 0, 1, 2, 3, 4, 5, 6, 7]


def package_dirs() -> dict[str, Path]:
    """setup.cfg's package_dir: import name -> folder."""
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    mapping = {}
    for line in config["options"]["package_dir"].strip().splitlines():
        name, folder = (part.strip() for part in line.split("="))
        mapping[name] = ROOT / folder
    return mapping


def package_modules() -> dict[str, Path]:
    """Every module of the installed namespace: dotted name -> file."""
    modules: dict[str, Path] = {}
    for package, folder in sorted(package_dirs().items(), key=lambda item: -len(item[0])):
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            name = ".".join([package, *parts])
            modules.setdefault(name, path)
    return modules


def unit_of(module: str) -> str:
    """``alfred_gen.sim.lite`` -> ``sim``; the root package itself is a leaf (``__version__``)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "errors"


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, imported module) for every ``alfred_gen`` import that runs, relative ones resolved;
    a name imported from the root package that is not a unit (``__version__``) is the root."""
    tree = ast.parse(source)
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            skipped.update(id(child) for stmt in node.body for child in ast.walk(stmt))
    found = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = module.split(".")
                package = parts[: len(parts) - node.level + (1 if is_package else 0)]
                base = ".".join([*package, *([base] if base else [])])
            for alias in node.names:
                from_root = base == "alfred_gen" and alias.name in RUNG_OF
                found.append((node.lineno, f"alfred_gen.{alias.name}" if from_root else base))
    return [(line, name) for line, name in found if name == "alfred_gen" or name.startswith("alfred_gen.")]


def violations(module: str, source: str, is_package: bool = False) -> list[str]:
    """One line per import of ``module`` that goes up or sideways on the ladder."""
    own = unit_of(module)
    problems = []
    for line, target in imports_of(source, module, is_package):
        other = unit_of(target)
        if other == own:
            continue
        if other not in RUNG_OF or own not in RUNG_OF:
            problems.append(f"{module}:{line} imports {target}: unit {other if other not in RUNG_OF else own!r} "
                            "has no rung (add it to RUNGS)")
        elif RUNG_OF[other] >= RUNG_OF[own]:
            how = "sideways" if RUNG_OF[other] == RUNG_OF[own] else "up"
            problems.append(f"{module}:{line} imports {target} ({how}: {own} is on rung "
                            f"{DESIGN_RUNG[RUNG_OF[own]]}, {other} on rung {DESIGN_RUNG[RUNG_OF[other]]})")
    return problems


def test_every_import_goes_down_the_ladder() -> None:
    modules = package_modules()
    assert len(modules) > 80, "the package was not found where setup.cfg says"
    problems = [problem for name, path in sorted(modules.items())
                for problem in violations(name, path.read_text(encoding="utf-8"), path.name == "__init__.py")]
    assert not problems, "imports against the ladder:\n" + "\n".join(problems)


def test_every_unit_of_the_package_has_a_rung() -> None:
    units = {unit_of(name) for name in package_modules()}
    assert units <= set(RUNG_OF), f"units without a rung: {sorted(units - set(RUNG_OF))}"


@pytest.mark.parametrize(("module", "source", "expected"), [
    ("alfred_gen.sim.lite", "from alfred_gen.scenes import get_scene\n", "up"),
    ("alfred_gen.sim.lite", "def f():\n    from alfred_gen.planner.solve import solve\n", "sideways"),
    ("alfred_gen.replay.vet", "import alfred_gen.demo.generate\n", "up"),
    ("alfred_gen.planner.encode", "from alfred_gen import cli\n", "up"),
    ("alfred_gen.traj.format", "from alfred_gen.domains import tasks\n", "up"),
    ("alfred_gen.sample.run", "from alfred_gen.fidelity.measure import x\n", "sideways"),
    ("alfred_gen.sim.world", "from .. import demo\n", "up"),
])
def test_the_check_catches_imports_against_the_ladder(module: str, source: str, expected: str) -> None:
    """Broken on purpose: each source breaks the rule once, and the check names how."""
    found = violations(module, source)
    assert len(found) == 1 and f"({expected}:" in found[0], found


@pytest.mark.parametrize("source", [
    "from alfred_gen.errors import UserError\n",
    "from alfred_gen.sim.scene import Scene\n",
    "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from alfred_gen.demo.generate import X\n",
    "from alfred_gen.replay.vet import vet_trajectory\n",  # its own unit
])
def test_the_check_lets_downward_and_type_only_imports_pass(source: str) -> None:
    assert violations("alfred_gen.replay.rerender", source) == []
