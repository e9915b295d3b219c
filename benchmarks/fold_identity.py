"""Every state a replay can show is the same as another revision's: the check behind speed work
on the journal and the folds (issue 11).

    .venv/bin/python benchmarks/fold_identity.py [--against main] [--keep FOLDER]

Plays matches of all four games with their drivers (several seeds; Fußball-Liga with its
egg timer, its chess clock, no phase limit, and extra time with every optional rule), journals
them, then replays each journal with this tree's code and with ``--against``'s (a git
revision, exported to a temporary folder) in separate processes, and compares by repr:

- each decoded event;
- the state after every event, folded event by event with ``ruleset.evolve`` (what a view
  between events shows);
- ``Match.open``'s state and every undo checkpoint it keeps (the in-place replay);
- the state after undoing up to five commands and redoing them (a refold from a checkpoint).

Exit status 0 when everything is identical, 1 with the first difference of each kind.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

PLAY = r"""
import sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from benchmarks.journal_bench import journal_of
from benchmarks.driver import AutoDriver, long_match
from benchmarks.futboard_driver import FutboardDriver
from benchmarks.football_leader_driver import AutoDriver as FLDriver
from benchmarks.fussball_liga_driver import LigaDriver
from companion.fussball_liga.model import PhaseLimit
out = Path(sys.argv[2])
def save(name, game, d):
    d.play()
    journal_of(out / f"{name}.sqlite", game, d.match.events)
save("fublet-long", "fublet", long_match(5000))
for seed in (1, 2):
    save(f"fublet-{seed}", "fublet", AutoDriver.new(seed=seed))
for seed in (0, 1, 4):
    save(f"futboard-{seed}", "futboard", FutboardDriver.new(seed=seed))
for seed in (0, 1, 5):
    save(f"football_leader-{seed}", "football_leader", FLDriver.new(seed=seed))
save("liga-45min-1", "fussball_liga", LigaDriver.new(seed=1, half_minutes=45))
save("liga-egg-0", "fussball_liga", LigaDriver.new(seed=0))
save("liga-chess-2", "fussball_liga", LigaDriver.new(seed=2, phase_limit=PhaseLimit.CHESS_CLOCK))
save("liga-chess-extra-3", "fussball_liga", LigaDriver.new(seed=3, phase_limit=PhaseLimit.CHESS_CLOCK,
                                                             extra_time=True, shootout=True))
save("liga-none-4", "fussball_liga", LigaDriver.new(seed=4, phase_limit=PhaseLimit.NONE))
save("liga-optional-5", "fussball_liga", LigaDriver.new(seed=5, extra_time=True, shootout=True, bonus_points=True,
                                                          goalkeeper_save=True, taking_a_pass=True, goal_posts=True))
"""

DUMP = r"""
import hashlib, json, shutil, sys, tempfile
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from companion.games import ruleset_for
from companion.journal import load_file
from companion.match import Match

def digest(value):
    return hashlib.sha1(repr(value).encode()).hexdigest()

out, scratch = {}, Path(tempfile.mkdtemp())
try:
    for source in sorted(Path(sys.argv[2]).glob("*.sqlite")):
        path = scratch / source.name  # undo and redo write to the journal: work on a copy
        shutil.copyfile(source, path)
        loaded = load_file(path)
        rules = ruleset_for(loaded.game)
        state, steps = rules.initial_state(), []
        for event in loaded.events:
            state = rules.evolve(state, event)
            steps.append(digest(state))
        match = Match.open(path)
        record = {"events": [digest(e) for e in loaded.events], "steps": steps, "open": digest(match.state),
                  "checkpoints": {str(k): digest(v) for k, v in match._saved.items()}, "undo_redo": []}
        undone = 0
        while undone < 5 and match.can_undo:
            match.undo()
            undone += 1
            record["undo_redo"].append(digest(match.state))
        for _ in range(undone):
            match.redo()
            record["undo_redo"].append(digest(match.state))
        match.close()
        out[source.name] = record
finally:
    shutil.rmtree(scratch, ignore_errors=True)
json.dump(out, sys.stdout)
"""


def dump(code_root: Path, journals: Path) -> dict:
    done = subprocess.run([sys.executable, "-c", DUMP, str(code_root), str(journals)], capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Compare every replayed state with another revision's.")
    parser.add_argument("--against", default="main", help="git revision to compare with (default main)")
    parser.add_argument("--keep", type=Path, default=None, help="keep the played journals in this folder")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="touchline-fold-identity-"))
    try:
        journals = args.keep or work / "journals"
        journals.mkdir(parents=True, exist_ok=True)
        if not any(journals.glob("*.sqlite")):
            subprocess.run([sys.executable, "-c", PLAY, str(ROOT), str(journals)], check=True)
        other = work / "other"
        other.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.against, "companion"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(other)], input=archive, check=True)
        ours, theirs = dump(ROOT, journals), dump(other, journals)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    differ = 0
    for name in sorted(ours):
        for kind, value in ours[name].items():
            if value == theirs[name][kind]:
                continue
            differ += 1
            if isinstance(value, list) and len(value) == len(theirs[name][kind]):
                at = next(i for i, (a, b) in enumerate(zip(value, theirs[name][kind])) if a != b)
                print(f"{name}: {kind} differ from position {at}")
            else:
                print(f"{name}: {kind} differ")
    states = sum(len(r["steps"]) for r in ours.values())
    print(f"{len(ours)} replays, {states} states event by event, each replay's open, checkpoints and undo/redo: "
          + ("identical to " if not differ else f"{differ} differences from ") + args.against)
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
