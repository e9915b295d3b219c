"""Regenerate the screenshot gallery in docs/screens/: every screen, each game's live screen
mid-match, every screen a coach meets with a match of each game (also in large text and high
contrast), the box editor (each game's first page, a refused value, export and import), the
calibration wizard, the matches folder (Home's unfinished matches, a match named, made a
friendly, deleted; a saved report; Undo naming its step), photographed by the same touch
scenarios the UI tests play (tests/ui_scenario.py, tests/ui_box_editor.py, tests/ui_matches.py),
at 1280x800. One command, from the project
folder:

    .venv/bin/python tests/gallery.py [--out docs/screens] [--size 1280x800]

Each screen is also checked for layout faults (ui/layout_check.py: text under 18 sp, on the
board too; text cut or spilling out of its box; small touch targets; targets that move within
one step; a coach's words); any found are printed and the command exits 1.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# scenario mode -> (screenshot name -> gallery file and caption). "editor:..." modes are played
# by tests/ui_box_editor.py, the others by tests/ui_scenario.py; "*first:GAME" is the first
# screenshot of that game's pages, "*live" a game's last live screenshot (mid-match).
PICKS = {
    "full": {"home": ("home", "Home"), "setup": ("setup-fublet", "Match setup (Fublet)"),
             "live_kickoff": ("live-fublet-kickoff", "Fublet: kick-off, figures placed by touch"),
             "live_save": ("live-fublet-mid-match", "Fublet mid-match: the keeper's roll, keypad filled for Home"),
             "live_goal": ("live-fublet-goal", "Fublet: after the goal"),
             "live_more": ("live-more-menu", "The live bar's More menu: Line-up, Report, Rules"),
             "settings": ("settings", "Settings")},
    "deadends": {"home_nothing_to_resume": ("home-first-start", "Home with no match to resume"),
                 "home_back_to_match": ("home-back-to-match", "Home during a match: back to it, by name"),
                 "calibrate_no_camera": ("calibrate-no-camera", "Calibration wizard before any camera is chosen")},
    "calibrate": {"calibrate_markers": ("calibrate-markers", "Calibration from the corner markers (demo table)"),
                  "calibrate_taps": ("calibrate-taps", "Calibration by four tapped corners"),
                  "camera_check": ("camera-check", "Camera check: what the camera reads of each marker, and what to do")},
    "baddata": {"live_bad_data_folder": ("live-data-folder-problem", "A data folder the app cannot write: said, with what to do")},
    "game:futboard": {"setup": ("setup-futboard", "Match setup (Futboard)"), "*live": ("live-futboard", "Futboard")},
    "game:football_leader": {"setup": ("setup-football-leader", "Match setup (Football Leader)"),
                             "*live": ("live-football-leader", "Football Leader")},
    "game:fussball_liga": {"setup": ("setup-fussball-liga", "Match setup (Fußball-Liga)"),
                           "setup_more": ("setup-fussball-liga-more", "Fußball-Liga's more options: optional rules, tournament"),
                           "*live": ("live-fussball-liga", "Fußball-Liga")},
    # Every screen a coach meets with a match of each game, then in large text and high contrast.
    **{f"screens:{game}": {"*all": (f"{game.replace('_', '-')}-", title)}
       for game, title in (("fublet", "Fublet"), ("futboard", "Futboard"), ("football_leader", "Football Leader"),
                           ("fussball_liga", "Fußball-Liga"))},
    "editor:tour": {f"*first:{game}": (f"box-editor-{game.replace('_', '-')}", f"Box editor: {title}'s first page")
                    for game, title in (("fublet", "Fublet"), ("futboard", "Futboard"),
                                        ("football_leader", "Football Leader"), ("fussball_liga", "Fußball-Liga"))},
    "editor:enter": {"enter-bad-speed": ("box-editor-refused", "Box editor: a value out of range, refused with its field and range"),
                     "enter-colours": ("box-editor-colours", "Box editor: team colours (Harbour's blue clashes with Rovers')"),
                     "enter-exported": ("box-editor-exported", "Box editor: the box exported to one file"),
                     "live-banner": ("live-fublet-team-colours", "A match in the box's colours, lined up by a preset: Harbour in its white second colours"),
                     "banner-opened": ("box-editor-from-banner", "The live screen's placeholder line opens the editor")},
    "editor:import": {"imported": ("box-editor-imported", "Box editor: a box imported on another tablet"),
                      "import-refused": ("box-editor-import-refused", "Box editor: a damaged box file refused, with why")},
    "matches:several": {"home_several": ("home-unfinished-matches",
                                         "Home: back to the match, and the other unfinished matches played here")},
    "matches:manage": {"edit_friendly": ("matches-edit", "Matches and league: a match named and made a friendly"),
                       "league_friendly": ("matches-league-friendly", "The league table without the friendly"),
                       "deleted_undo": ("matches-deleted-undo", "A match deleted, with its undo"),
                       "deleted_tab": ("matches-deleted-tab", "Deleted matches, restorable for 30 days")},
    "matches:saved": {"report_saved": ("report-saved", "A report saved as one web page, and where")},
    "matches:undo": {"live_undo_named": ("live-undo-named", "Undo says what it takes back")},
}


def run(mode: str, size: str, work: Path) -> dict:
    out = work / mode.replace(":", "-")
    data = work / f"data-{mode.replace(':', '-')}"
    data.mkdir(parents=True, exist_ok=True)
    if mode == "baddata":
        data = data / "not-a-folder"
        data.write_text("a file where the data folder should be")
    script, arg = "ui_scenario.py", mode
    if mode.startswith("matches:"):   # tests/ui_matches.py: the matches folder, resume, Undo and Redo
        script, arg = "ui_matches.py", mode.partition(":")[2]
    if mode.startswith("editor:"):
        script, arg = "ui_box_editor.py", mode.partition(":")[2]
        if arg == "import":   # the box the "enter" run exported, on a fresh tablet
            exported = sorted((work / "data-editor-enter" / "exports").glob("*.json"))
            if not exported:
                return {"error": f"{mode}: no exported box to import", "screenshots": [], "layout": []}
            arg = f"import:{exported[-1]}"
    env = dict(os.environ, TOUCHLINE_HEADLESS="1", KIVY_WINDOW="sdl2", KIVY_HOME=str(work / "kivy"),
               TOUCHLINE_DATA_DIR=str(data), TOUCHLINE_EXPORT_DIR=str(work / "exported"))
    subprocess.run([sys.executable, str(ROOT / "tests" / script), str(out), size, arg], env=env,
                   capture_output=True, text=True, timeout=600)
    result = out / "result.json"
    if not result.exists():
        return {"error": f"{mode}: the app did not finish", "screenshots": [], "layout": []}
    found = json.loads(result.read_text())
    # The editor's driver measures text and targets itself.
    found.setdefault("layout", found.get("small_text", []) + found.get("small_targets", []))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screens")
    parser.add_argument("--size", default="1280x800")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for picks in PICKS.values():   # only the gallery's own pictures (web-*.png and others stay)
        for name, (target, _caption) in picks.items():
            if name == "*all":
                for old in args.out.glob(f"{target}*.png"):
                    old.unlink()
            else:
                (args.out / f"{target}.png").unlink(missing_ok=True)
    rows, problems = [], []
    with tempfile.TemporaryDirectory(prefix="touchline-gallery-") as tmp:
        for mode, picks in PICKS.items():
            result = run(mode, args.size, Path(tmp))
            if result.get("error"):
                problems.append(f"{mode}: {result['error'].strip().splitlines()[-1]}")
            layout = result.get("layout", [])
            problems += layout + [m for m in result.get("moved", []) if m not in layout]
            shots = {Path(p).stem.rstrip("0123456789"): Path(p) for p in result.get("screenshots", [])}
            if "*all" in picks:   # every screen of the mode, named after its screenshot
                prefix, title = picks["*all"]
                for name, source in shots.items():
                    if source.exists():
                        shutil.copyfile(source, args.out / f"{prefix}{name.replace('_', '-')}.png")
                        rows.append((f"{prefix}{name.replace('_', '-')}", f"{title}: {name.replace('_', ' ')}"))
                print(f"gallery: {mode}: {len(shots)} screens", flush=True)
                continue
            for name, (target, caption) in picks.items():
                if name == "*live":   # the game's last live screenshot: mid-match
                    live = [s for n, s in shots.items() if n.startswith(("live", "fl_", "liga_", "fb_"))]
                    source = live[-1] if live else None
                elif name.startswith("*first:"):   # a game's first page in the editor
                    pages = [s for n, s in shots.items() if n.startswith(name.partition(":")[2] + "-")]
                    source = pages[0] if pages else None
                else:
                    source = shots.get(name)
                if source is None or not source.exists():
                    problems.append(f"{mode}: no screenshot {name}")
                    continue
                shutil.copyfile(source, args.out / f"{target}.png")
                rows.append((target, caption))
            print(f"gallery: {mode}: {len(picks)} screens", flush=True)
    index = ["# Screens", "", f"The tablet app at {args.size}, regenerated by `.venv/bin/python tests/gallery.py`",
             "(the UI tests' touch scenarios, each screen checked for layout faults).", ""]
    index += [f"## {caption}\n\n![{caption}]({target}.png)\n" for target, caption in rows]
    (args.out / "README.md").write_text("\n".join(index), encoding="utf-8")
    for line in problems:
        print(f"gallery: {line}", file=sys.stderr)
    print(f"gallery: {len(rows)} screenshots in {args.out}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
