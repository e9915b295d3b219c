"""Imports among Touchline's own modules run one way: no cycles anywhere, and no imports
tucked inside functions in the game packages (the way cycles used to be held together).
benchmarks/import_graph.py counts them; before issue 15 there were 8 cycles over 34 modules
and 73 such imports."""

from __future__ import annotations

import ast

import pytest

from benchmarks.import_graph import ROOT, build, cycles, game_inner_imports


@pytest.fixture(scope="module")
def graph():
    return build()


def test_no_import_cycles_among_the_projects_modules(graph):
    assert len(graph.edges) > 150  # the whole project was read, not an empty folder
    assert cycles(graph) == []


def test_no_imports_inside_functions_in_the_game_packages(graph):
    found = {m: lines for m, lines in graph.inner.items() if m.startswith("companion.") and m.count(".") == 2
             and m.split(".")[1] in ("fublet", "football_leader", "futboard", "fussball_liga")}
    assert game_inner_imports(graph) == 0, found


def test_the_counter_sees_a_cycle_held_by_an_import_inside_a_function(tmp_path):
    for package in ("companion", "vision", "calibration", "firmware_bridge", "ui"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    game = tmp_path / "companion" / "fublet"
    game.mkdir()
    (game / "__init__.py").write_text("")
    (game / "flow.py").write_text("def advance(tx):\n    from .shots import save\n    save(tx)\n")
    (game / "shots.py").write_text("from . import flow\n\n\ndef save(tx):\n    flow.advance(tx)\n")
    (game / "model.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .flow import advance\n")
    graph = build(tmp_path)
    assert cycles(graph) == [["companion.fublet.flow", "companion.fublet.shots"]]
    assert game_inner_imports(graph) == 1
    assert "companion.fublet.flow" not in graph.edges["companion.fublet.model"]  # TYPE_CHECKING never runs


def test_the_dispatch_tables_are_built_in_each_games_rules_module():
    """No module fills a table it does not own (the old ``RESOLVERS[X] = f`` last lines)."""
    for path in sorted((ROOT / "companion").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Subscript) for t in node.targets):
                raise AssertionError(f"{path.relative_to(ROOT)}:{node.lineno} fills a table at import time")


def _private_names_taken(root, package: str) -> list[str]:
    """``from <one of the project's modules> import _name`` in the files under ``root/package``."""
    ours = ("companion", "vision", "calibration", "ui", "firmware_bridge")
    found = []
    for path in sorted((root / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] in ours):
                found += [f"{path.relative_to(root)}:{node.lineno} {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    return found


@pytest.mark.parametrize("package", ["vision", "companion/report"])
def test_no_private_names_taken_across_modules(package):
    """What two modules share is public (issue 32: the vision modules took each other's
    ``_read_jittered``, ``_likeness``, ``_sample_xy``, ``_cell_grid``; the league command
    took the history command's ``_common``)."""
    assert list((ROOT / package).rglob("*.py"))  # the folder was read
    assert _private_names_taken(ROOT, package) == []


def test_the_private_name_check_sees_one(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("from .b import _helper, shared\nfrom os import _exit\n"
                                            "from vision.refine import _sample\nfrom . import __version__\n")
    assert _private_names_taken(tmp_path, "pkg") == ["pkg/a.py:1 _helper", "pkg/a.py:3 _sample"]
