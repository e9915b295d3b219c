"""The import graph of Touchline's own modules: cycles, and imports hidden inside functions.

    .venv/bin/python benchmarks/import_graph.py [--list]

Reads the source (nothing is imported) of the shipped packages and counts:

1. strongly connected groups of two or more modules (each a cycle of imports), and the
   modules in them; an import inside a function counts as much as one at the top, since
   it ties the two modules together all the same;
2. imports placed inside functions (or methods) in the four game packages, which is how
   cycles there were held together.

``from pkg import name`` is an edge to ``pkg.name`` when that is a module, else to ``pkg``.
Importing a submodule also runs its package's ``__init__``; those edges are left out, as
every ``__init__`` here is a docstring. Imports under ``if TYPE_CHECKING:`` never run and
are left out too. Imports named as strings are not edges: they are
the deliberate late bindings by which the core reaches what sits above it (companion/games.py's
table of games; the CLI's plugins and the demo, which live in the tablet app and the devices).
tests/test_import_graph.py keeps the counts where they are.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("companion", "vision", "calibration", "firmware_bridge", "ui")
GAMES = ("fublet", "football_leader", "futboard", "fussball_liga")


@dataclass
class Graph:
    edges: dict[str, set[str]] = field(default_factory=dict)
    inner: dict[str, list[tuple[int, str]]] = field(default_factory=dict)  # module -> (line, target)


def module_files(root: Path = ROOT) -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base.pop()
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _targets(module: str, is_package: bool, node: ast.AST, known: set[str]) -> list[str]:
    out = []
    if isinstance(node, ast.Import):
        for alias in node.names:
            name = alias.name
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name:
                out.append(name)
    elif isinstance(node, ast.ImportFrom):
        base = _resolve(module, is_package, node)
        for alias in node.names:
            if f"{base}.{alias.name}" in known:
                out.append(f"{base}.{alias.name}")
            elif base in known:
                out.append(base)
    return out


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of import nodes under ``if TYPE_CHECKING:``: read by type checkers, never run."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for inner in node.body:
                out.update(id(n) for n in ast.walk(inner) if isinstance(n, (ast.Import, ast.ImportFrom)))
    return out


def _in_function(tree: ast.AST) -> set[int]:
    """The ids of import nodes that sit inside a function body."""
    inside: set[int] = set()
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for node in ast.walk(fn):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    inside.add(id(node))
    return inside


def build(root: Path = ROOT) -> Graph:
    files = module_files(root)
    known = set(files)
    graph = Graph()
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        inside = _in_function(tree)
        never_run = _type_checking_only(tree)
        edges = graph.edges.setdefault(module, set())
        for node in ast.walk(tree):
            if not isinstance(node, (ast.Import, ast.ImportFrom)) or id(node) in never_run:
                continue
            targets = _targets(module, is_package, node, known)
            edges.update(t for t in targets if t != module)
            if targets and id(node) in inside:  # one count a statement
                graph.inner.setdefault(module, []).append((node.lineno, ", ".join(sorted(set(targets)))))
    return graph


def cycles(graph: Graph) -> list[list[str]]:
    """Strongly connected groups of two or more modules (Tarjan, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for start in sorted(graph.edges):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.edges.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        out.append(sorted(group))
    return sorted(out)


def game_inner_imports(graph: Graph, same_game: bool = False) -> int:
    """Import statements inside functions in the game packages (``same_game``: only those
    that import from the game's own package, the kind that hold a game's cycles)."""
    count = 0
    for module, found in graph.inner.items():
        game = next((g for g in GAMES if module.startswith(f"companion.{g}.")), None)
        if game is None:
            continue
        count += sum(1 for _, target in found
                     if not same_game or target.startswith(f"companion.{game}."))
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", action="store_true", help="name the modules of each cycle and every inner import")
    args = parser.parse_args(argv)
    graph = build()
    groups = cycles(graph)
    print(f"modules: {len(graph.edges)}")
    print(f"import cycles (strongly connected groups): {len(groups)}, "
          f"modules in them: {sum(len(g) for g in groups)}")
    print(f"imports inside functions in the game packages: {game_inner_imports(graph)} "
          f"({game_inner_imports(graph, same_game=True)} of them from the game's own modules)")
    if args.list:
        for group in groups:
            print("cycle: " + " ".join(group))
        for module, found in sorted(graph.inner.items()):
            for line, target in found:
                print(f"inner import: {module}:{line} -> {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
