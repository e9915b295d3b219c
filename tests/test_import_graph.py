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
