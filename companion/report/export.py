"""A report's numbers as files for spreadsheets: report.json (everything) and CSV tables."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from .. import outfiles
from ..outfiles import Staged

LABELS = {
    "goals": "Goals", "shots": "Shots", "shots_on_target": "Shots on target", "saves": "Saves",
    "passes": "Passes", "passes_made": "Passes made", "passes_lost": "Passes lost", "tackles": "Tackles",
    "tackles_won": "Tackles won", "fouls": "Fouls", "yellow_cards": "Yellow cards", "red_cards": "Sent off",
    "injuries": "Injuries", "substitutions": "Substitutions",
}


def write_csv(path: Path, header: list[str], rows: Iterable[list[Any]], force: bool = False) -> None:
    """One table through the project's one CSV writer (inert cells, never through a link)."""
    outfiles.write_csv(path, header, rows, force)


def stats_rows(report: dict[str, Any]) -> list[list[Any]]:
    return [[LABELS.get(k, k), report["stats"]["home"][k], report["stats"]["away"][k]] for k in report["stat_names"]]


def write_all(report: dict[str, Any], out: Staged) -> list[Path]:
    """Stage report.json and the CSV tables in ``out`` (put in place by its commit); returns
    the files staged."""
    files = [out.write_text("report.json", json.dumps(report, indent=1, ensure_ascii=False) + "\n")]
    teams = report["teams"] or {"home": "Home", "away": "Away"}
    tables = {
        "stats.csv": (["stat", f"home ({teams['home']})", f"away ({teams['away']})"], stats_rows(report)),
        "goals.csv": (["team", "scorer", "when", "period", "how"],
                      [[g["team"], g["scorer"], g["when"], g["period"], g["how"]] for g in report["goals"]]),
        "shots.csv": (["team", "player", "how", "outcome", report["unit"]],
                      [[s["team"], s["player"], s["how"], s["outcome"], s[report["unit"]]] for s in report["shots"]]),
        f"{report['unit']}s.csv": ([report["unit"], "period", "clock", "possession"] + report["counters"],
                                   [[t[report["unit"]], t["period"], t["clock"], t["possession"]]
                                    + [t[c] for c in report["counters"]] for t in report["ticks"]]),
        "timeline.csv": ([report["unit"], "period", "clock", "team", "kind", "text"],
                         [[e["tick"], e["period"], e["clock"], e["team"], e["kind"], e["text"]]
                          for e in report["timeline"]]),
        "dice.csv": (["coach", "die", "face", "count", "expected"],
                     [[coach, k["die"], face, n, k["expected_per_face"]]
                      for coach, c in report["luck"]["coaches"].items() for k in c["kinds"]
                      for face, n in k["faces"].items()]),
        "heat.csv": (["team", "x", "y", "count"],
                     [[r["team"], r["x"], r["y"], r["count"]] for r in report["heat"]["rows"]]),
    }
    for name, (header, rows) in tables.items():
        files.append(out.write_csv(name, header, rows))
    return files
