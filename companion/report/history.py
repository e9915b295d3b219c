"""Match history and league tables: every match in the data folder, read but never changed.

``scan(folder)`` lists each file of the matches folder: a journal or a JSON Lines export is
replayed (a journal through a private copy) to its game, teams, score, date and result; a
damaged or foreign file is listed with what is wrong, never raised. From the finished
matches: a league table per game (3 points a win, 1 a draw: Fublet's championship rule and
the Fußball-Liga tournament rule; Football Leader and Futboard are silent, so the same;
a result that carries its own points, as the Fußball-Liga's does, keeps them), head-to-head
records, and each side's record. Journals do not name the coaches, so a side is its team
(roster) name. Pure Python: no plotting, no UI.
"""

from __future__ import annotations

import json
import logging
import os
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable

from .. import outfiles
from ..errors import TouchlineError
from ..events import format_time

log = logging.getLogger(__name__)

MATCH_SUFFIXES = (".sqlite", ".sqlite3", ".db", ".jsonl")
IGNORED_SUFFIXES = ("-wal", "-shm", "-journal", ".partial")
GAME_NAMES = {"fublet": "Fublet", "football_leader": "Football Leader", "fussball_liga": "Fußball-Liga",
              "futboard": "Futboard"}
WIN, DRAW = 3, 1


@dataclass(frozen=True)
class Entry:
    """One file of the matches folder. ``problem`` says why it is not a readable match."""

    path: Path
    game: str = ""
    home: str = ""
    away: str = ""
    home_goals: int = 0
    away_goals: int = 0
    date: str = ""
    finished: bool = False
    winner: str | None = None            # "home", "away", or None (a draw, or not finished)
    decided_by: str = ""
    points: tuple[int, int] | None = None  # (home, away) when the result carries them
    shootout: tuple[int, int] | None = None
    events: int = 0
    problem: str = ""
    copies: tuple[str, ...] = ()          # other files of the same match (an export, an older copy)

    @property
    def ok(self) -> bool:
        return not self.problem

    @property
    def status(self) -> str:
        if self.problem:
            return "unreadable"
        return "finished" if self.finished else "not finished"

    @property
    def score(self) -> str:
        if self.problem:
            return ""
        text = f"{self.home_goals}-{self.away_goals}"
        if self.shootout:
            text += f" ({self.shootout[0]}-{self.shootout[1]} pens)"
        return text

    def to_json(self) -> dict[str, Any]:
        return {"file": self.path.name, "game": self.game, "home": self.home, "away": self.away,
                "score": {"home": self.home_goals, "away": self.away_goals} if self.ok else None,
                "date": self.date, "status": self.status, "winner": self.winner, "decided_by": self.decided_by,
                "events": self.events, "problem": self.problem or None, "copies": list(self.copies)}


def read_entry(path: Path) -> Entry:
    """Replay one file to its entry; anything wrong becomes the entry's problem."""
    from ..cli import load_match  # the same reading as `touchline replay`

    try:
        match = load_match(path)
        events = match.events
        summary = match.summary()
    except (TouchlineError, OSError, ValueError) as exc:
        return Entry(path, problem=_without_path(_first_line(exc), path))
    except Exception as exc:  # a file no reader foresaw: listed as such, the scan goes on
        log.warning("%s: unreadable", path, exc_info=True)
        return Entry(path, problem=f"cannot be read ({type(exc).__name__}: {_first_line(exc)})")
    teams, score = summary.get("teams"), summary.get("score")
    if not isinstance(teams, dict) or not isinstance(score, dict):
        return Entry(path, game=match.ruleset.game, events=len(events), date=_date(events),
                     problem="the match was never set up (no teams)")
    result = summary.get("result") if isinstance(summary.get("result"), dict) else None
    shootout = summary.get("shootout") if isinstance(summary.get("shootout"), dict) else None
    points = None
    if result and isinstance(result.get("points"), dict):
        points = (int(result["points"]["home"]), int(result["points"]["away"]))
    return Entry(
        path, game=match.ruleset.game, home=str(teams.get("home")), away=str(teams.get("away")),
        home_goals=int(score.get("home", 0)), away_goals=int(score.get("away", 0)), date=_date(events),
        finished=result is not None, winner=(result or {}).get("winner"),
        decided_by=str((result or {}).get("decided_by", "")), points=points,
        shootout=(int(shootout["home"]), int(shootout["away"])) if shootout and result else None,
        events=len(events))


def _without_path(text: str, path: Path) -> str:
    """The reason alone: the listing names the file already."""
    for sep in (": ", ", "):
        if text.startswith(str(path) + sep):
            return text[len(str(path)) + len(sep):]
    return text


def _date(events) -> str:
    return format_time(events[0].at) if events else ""


def _first_line(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text.splitlines()[0]


def scan(folder: Path, cache: Path | None = None) -> list[Entry]:
    """Every match file in ``folder`` (not its subfolders), newest first; unreadable ones last.

    With ``cache`` (a JSON file), a file whose size and time (and its write-ahead log's) have
    not changed since the last scan is not replayed again: a tablet with a season of matches
    lists them at once. A cache that cannot be read or written is only slower."""
    if not folder.is_dir():
        return []
    known = _load_cache(cache)
    fresh: dict[str, Any] = {}
    entries = []
    for path in sorted(folder.iterdir()):
        if path.is_dir() or path.name.startswith(".") or path.name.endswith(IGNORED_SUFFIXES):
            continue
        if path.suffix.lower() not in MATCH_SUFFIXES:
            entries.append(Entry(path, problem="not a match file (a journal .sqlite or an export .jsonl)"))
            continue
        stamp = _stamp(path)
        hit = known.get(path.name)
        entry = _from_cache(path, hit["entry"]) if hit and hit.get("stamp") == stamp else None
        if entry is None:
            entry = read_entry(path)
        fresh[path.name] = {"stamp": stamp, "entry": _to_cache(entry)}
        entries.append(entry)
    if cache is not None and fresh != known:
        _save_cache(cache, fresh)
    return dedupe(entries)


CACHE_VERSION = 1


def _stamp(path: Path) -> list[int]:
    out = []
    for p in (path, Path(f"{path}-wal")):
        try:
            st = p.stat()
            out += [st.st_size, st.st_mtime_ns]
        except OSError:
            out += [-1, -1]
    return out


def _to_cache(e: Entry) -> dict[str, Any]:
    return {"game": e.game, "home": e.home, "away": e.away, "home_goals": e.home_goals, "away_goals": e.away_goals,
            "date": e.date, "finished": e.finished, "winner": e.winner, "decided_by": e.decided_by,
            "points": list(e.points) if e.points else None, "shootout": list(e.shootout) if e.shootout else None,
            "events": e.events, "problem": e.problem}


def _from_cache(path: Path, d: Any) -> Entry | None:
    try:
        return Entry(path, game=str(d["game"]), home=str(d["home"]), away=str(d["away"]),
                     home_goals=int(d["home_goals"]), away_goals=int(d["away_goals"]), date=str(d["date"]),
                     finished=bool(d["finished"]), winner=d["winner"] if d["winner"] in ("home", "away") else None,
                     decided_by=str(d["decided_by"]),
                     points=(int(d["points"][0]), int(d["points"][1])) if d["points"] else None,
                     shootout=(int(d["shootout"][0]), int(d["shootout"][1])) if d["shootout"] else None,
                     events=int(d["events"]), problem=str(d["problem"]))
    except (KeyError, TypeError, ValueError, IndexError):
        return None  # an entry of another shape: read the file again


def _load_cache(cache: Path | None) -> dict[str, Any]:
    if cache is None:
        return {}
    try:
        data = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != CACHE_VERSION or not isinstance(data.get("files"), dict):
        return {}
    return data["files"]


def _save_cache(cache: Path, files: dict[str, Any]) -> None:
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_name(cache.name + ".partial")
        tmp.write_text(json.dumps({"version": CACHE_VERSION, "files": files}), encoding="utf-8")
        os.replace(tmp, cache)
    except OSError as exc:
        log.info("history cache %s not written: %s", cache, exc)


def _neg(date: str) -> tuple:
    return tuple(-ord(c) for c in date)


def dedupe(entries: list[Entry]) -> list[Entry]:
    """Files of one match (its journal, an export of it, taken then or earlier: same game, teams
    and first event) are listed once: the copy that went furthest, a journal before an export;
    the entry names the others."""
    groups: dict[tuple, list[Entry]] = {}
    out: list[Entry] = []
    for e in entries:
        if e.ok and e.date:
            groups.setdefault((e.game, e.date, e.home, e.away), []).append(e)
        else:
            out.append(e)
    for group in groups.values():
        group.sort(key=lambda e: (-e.events, e.path.suffix.lower() == ".jsonl", e.path.name))
        best = group[0]
        if len(group) > 1:
            best = replace(best, copies=tuple(e.path.name for e in group[1:]))
        out.append(best)
    return sorted(out, key=lambda e: (not e.ok, _neg(e.date), e.path.name))


def select(entries: Iterable[Entry], game: str | None = None, team: str | None = None) -> list[Entry]:
    """The entries of one game and/or with a team whose name contains ``team`` (any case)."""
    out = []
    needle = (team or "").strip().casefold()
    for e in entries:
        if game and e.game != game:
            continue
        if needle and needle not in e.home.casefold() and needle not in e.away.casefold():
            continue
        out.append(e)
    return out


@dataclass
class Record:
    """A side's record: played, won, drawn, lost, goals for and against, points."""

    team: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    goals_for: int = 0
    goals_against: int = 0
    points: int = 0
    form: list[str] = field(default_factory=list)   # W/D/L, oldest first

    @property
    def goal_difference(self) -> int:
        return self.goals_for - self.goals_against

    def add(self, scored: int, conceded: int, outcome: str, points: int) -> None:
        self.played += 1
        self.goals_for += scored
        self.goals_against += conceded
        self.points += points
        self.form.append(outcome)
        if outcome == "W":
            self.won += 1
        elif outcome == "D":
            self.drawn += 1
        else:
            self.lost += 1

    def row(self) -> list[Any]:
        return [self.team, self.played, self.won, self.drawn, self.lost, self.goals_for, self.goals_against,
                self.goal_difference, self.points]


RECORD_HEADER = ["team", "P", "W", "D", "L", "GF", "GA", "GD", "Pts"]


def outcomes(e: Entry) -> tuple[tuple[str, int], tuple[str, int]]:
    """((home outcome, home points), (away outcome, away points)) of a finished match."""
    if e.winner == "home":
        result = ("W", "L")
    elif e.winner == "away":
        result = ("L", "W")
    else:
        result = ("D", "D")
    default = {"W": WIN, "D": DRAW, "L": 0}
    points = e.points or (default[result[0]], default[result[1]])
    return (result[0], points[0]), (result[1], points[1])


def finished(entries: Iterable[Entry], game: str | None = None) -> list[Entry]:
    """Finished, readable matches of ``game``, oldest first."""
    return sorted((e for e in entries if e.ok and e.finished and (game is None or e.game == game)),
                  key=lambda e: (e.date, e.path.name))


def league(entries: Iterable[Entry], game: str) -> list[Record]:
    """The league table of one game: points, then goal difference, goals scored, name."""
    table: dict[str, Record] = {}
    for e in finished(entries, game):
        (ho, hp), (ao, ap) = outcomes(e)
        table.setdefault(e.home, Record(e.home)).add(e.home_goals, e.away_goals, ho, hp)
        table.setdefault(e.away, Record(e.away)).add(e.away_goals, e.home_goals, ao, ap)
    return sorted(table.values(), key=lambda r: (-r.points, -r.goal_difference, -r.goals_for, r.team.casefold()))


def records(entries: Iterable[Entry]) -> dict[str, dict[str, Record]]:
    """Each side's record in every game it played, and over all games ("all")."""
    out: dict[str, dict[str, Record]] = defaultdict(dict)
    for e in finished(entries):
        (ho, hp), (ao, ap) = outcomes(e)
        for team, scored, conceded, outcome, pts in ((e.home, e.home_goals, e.away_goals, ho, hp),
                                                     (e.away, e.away_goals, e.home_goals, ao, ap)):
            for key in (e.game, "all"):
                out[team].setdefault(key, Record(team)).add(scored, conceded, outcome, pts)
    return dict(sorted(out.items(), key=lambda kv: kv[0].casefold()))


@dataclass
class HeadToHead:
    game: str
    first: str
    second: str
    played: int = 0
    first_wins: int = 0
    draws: int = 0
    second_wins: int = 0
    first_goals: int = 0
    second_goals: int = 0

    def row(self) -> list[Any]:
        return [GAME_NAMES.get(self.game, self.game), self.first, self.second, self.played, self.first_wins,
                self.draws, self.second_wins, f"{self.first_goals}-{self.second_goals}"]


H2H_HEADER = ["game", "team", "opponent", "P", "team wins", "draws", "opponent wins", "goals"]


def head_to_head(entries: Iterable[Entry], game: str | None = None) -> list[HeadToHead]:
    """Every pair of sides that met, per game, the names in alphabetical order."""
    pairs: dict[tuple[str, str, str], HeadToHead] = {}
    for e in finished(entries, game):
        first, second = sorted((e.home, e.away), key=str.casefold)
        h = pairs.setdefault((e.game, first, second), HeadToHead(e.game, first, second))
        h.played += 1
        goals = {e.home: e.home_goals, e.away: e.away_goals}
        if e.home == e.away:  # a side against itself: goals as played
            h.first_goals += e.home_goals
            h.second_goals += e.away_goals
        else:
            h.first_goals += goals[first]
            h.second_goals += goals[second]
        win = e.home if e.winner == "home" else e.away if e.winner == "away" else None
        if win is None:
            h.draws += 1
        elif win == first:
            h.first_wins += 1
        else:
            h.second_wins += 1
    return sorted(pairs.values(), key=lambda h: (h.game, h.first.casefold(), h.second.casefold()))


HISTORY_HEADER = ["date", "game", "home", "away", "home goals", "away goals", "status", "result", "file", "problem"]


def history_rows(entries: Iterable[Entry]) -> list[list[Any]]:
    rows = []
    for e in entries:
        result = ""
        if e.ok and e.finished:
            who = e.home if e.winner == "home" else e.away if e.winner == "away" else None
            result = (f"{who} win" if who else "draw") + (f" ({e.decided_by})" if e.decided_by else "")
        rows.append([e.date, GAME_NAMES.get(e.game, e.game), e.home, e.away,
                     e.home_goals if e.ok else "", e.away_goals if e.ok else "", e.status, result, e.path.name,
                     e.problem])
    return rows


def write_csv(path: Path, header: list[str], rows: Iterable[list[Any]], force: bool = False) -> None:
    """One table through the project's one CSV writer (inert cells, never through a link)."""
    outfiles.write_csv(path, header, rows, force)


def games_in(entries: Iterable[Entry]) -> list[str]:
    return sorted({e.game for e in entries if e.ok and e.game})
