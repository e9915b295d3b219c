"""Build a match report: the numbers of one match, as plain JSON-ready data.

``build_report(ruleset, events)`` walks the active events again (see engine.py) and returns
a dict: who played, the score and result, goals (when, who, how), each side's counts (shots,
saves, passes, tackles, fouls, cards, injuries, substitutions; None where the game's journal
cannot know one), a row per round or turn with the game's own counters and who had the
ball, possession, a timeline, the luck meter and where each side's figures stood.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Sequence

from ..errors import TouchlineError
from ..events import Event, format_time
from ..naming import named_line
from ..ruleset import Ruleset
from .engine import STATS, TEAMS, Adapter, heat_rows, possession, walk
from .luck import luck_report


class ReportError(TouchlineError):
    """A match cannot be reported (no events, a game without a report, events that do not replay)."""


def adapter_for(game: str) -> Adapter:
    if game == "fublet":
        from .fublet import FubletReport
        return FubletReport()
    if game == "football_leader":
        from .football_leader import FootballLeaderReport
        return FootballLeaderReport()
    if game == "fussball_liga":
        from .fussball_liga import FussballLigaReport
        return FussballLigaReport()
    if game == "futboard":
        from .futboard import FutboardReport
        return FutboardReport()
    raise ReportError(f"no match report for the game {game!r} (reports exist for fublet, football_leader, "
                      f"fussball_liga and futboard)")


def build_report(ruleset: Ruleset, events: Sequence[Event]) -> dict[str, Any]:
    """The report of the match these active events make; raises ReportError."""
    if not events:
        raise ReportError("the match holds no events: nothing to report")
    adapter = adapter_for(ruleset.game)
    try:
        rec, state = walk(ruleset, adapter, events, finished=lambda st: _finished(ruleset, st))
    except TouchlineError:
        raise
    except Exception as exc:  # a stored event the rules cannot apply
        raise ReportError(f"the events do not replay ({type(exc).__name__}: {exc})") from None
    try:
        summary = ruleset.summary(state)
    except Exception as exc:  # a state the summary cannot word (a match cut inside a command)
        raise ReportError(f"the match's last state cannot be summed up ({type(exc).__name__}: {exc}); "
                          f"report an export that ends where a command ends") from None
    if summary.get("created") is False:
        raise ReportError("the match was never set up (no teams yet): nothing to report")

    stats = {t.value: dict(rec.stats[t]) for t in TEAMS}
    for side in stats.values():
        if not adapter.saves_known:
            side["saves"] = None
            side["shots_on_target"] = None
        if not adapter.injuries_known:
            side["injuries"] = None

    goals = adapter.goals(state)
    for goal, how in zip(goals, rec.goal_hows):
        goal.setdefault("how", how or "")
    for goal in goals:
        goal.setdefault("how", "")

    pos = possession(rec.ticks)
    ticks = []
    for tick, side in zip(rec.ticks, pos["per_tick"]):
        row = {adapter.unit: tick.number, "period": tick.period, "clock": tick.clock, "possession": side}
        row.update({k: tick.counters.get(k, 0) for k in adapter.counters})
        ticks.append(row)

    heat: dict[str, Any] = {"rows": heat_rows(rec.heat), "samples": len(rec.ticks)}
    squares = [(x, y) for t in TEAMS for (x, y) in rec.heat[t]] + board_corners(ruleset, state)
    if squares:
        heat["bounds"] = {"x": [min(x for x, _ in squares), max(x for x, _ in squares)],
                          "y": [min(y for _, y in squares), max(y for _, y in squares)]}

    result = summary.get("result")
    players = {p["player"]: p.get("name") or "" for p in summary.get("players") or () if isinstance(p, dict)}
    counted = pos["ticks_counted"]
    return {
        "game": ruleset.game,
        "teams": summary.get("teams"),
        "score": summary.get("score"),
        "result": result,
        "finished": result is not None,
        "shootout": summary.get("shootout"),
        "started": format_time(events[0].at),
        "last_event": format_time(events[-1].at),
        "events": len(events),
        "unit": adapter.unit,
        "goals": goals,
        "stats": stats,
        "stat_names": list(STATS),
        "shots": [{"team": a.team.value, "player": str(a.player) if a.player else None, "how": a.how,
                   "outcome": outcome, adapter.unit: a.tick} for a, outcome in zip(rec.shots, rec.shot_outcomes)],
        "counters": list(adapter.counters),
        "ticks": ticks,
        "players": players,
        "possession": {"percent": pos["percent"],
                       "ticks_counted": int(counted) if float(counted).is_integer() else counted},
        # Said as the goals table says them: "foul by Harbour Athletic #9 Zed", never "away#9".
        "timeline": [{**e, "text": named_line(e["text"], summary.get("teams"), players)} for e in rec.timeline],
        "luck": luck_report(rec.dice, adapter.high_is_lucky),
        "heat": heat,
        "in_flight": [{"kind": a.kind, "team": a.team.value, "player": str(a.player) if a.player else None,
                       "how": a.how, adapter.unit: a.tick} for a in rec.in_flight],
        "notes": notes(adapter) + in_flight_note(rec.in_flight, adapter.unit),
    }


def _finished(ruleset: Ruleset, state: Any) -> bool:
    """The match is over (a result stands): what is still under way at the end is decided."""
    try:
        return ruleset.summary(state).get("result") is not None
    except Exception:   # a state the summary cannot word: as before, everything is decided
        return True


def in_flight_note(rec_in_flight: list, unit: str) -> list[str]:
    """What the journal ends in the middle of, said once under the numbers."""
    if not rec_in_flight:
        return []
    kinds = Counter(a.kind for a in rec_in_flight)
    words = ", ".join(f"{n} {kind}{'es' if kind == 'pass' and n > 1 else 's' if n > 1 else ''}"
                      for kind, n in sorted(kinds.items()))
    return [f"The match is not finished: {words} still under way when the journal ends, counted as tried, "
            f"neither made nor lost (nor saved or missed) until the match goes on."]


def board_corners(ruleset: Ruleset, state: Any) -> list[tuple[int, int]]:
    """The first and last squares of the game's board, so a heat map shows the whole pitch:
    a grid of movement squares (Fublet, Futboard), of squares (Fußball-Liga), or the keys of
    Football Leader's spaces. Empty when the board cannot be read."""
    try:
        board = ruleset.board(state)
        if board is None:
            return []
        if hasattr(board, "ms_cols"):
            return [(0, 0), (board.ms_cols - 1, board.ms_rows - 1)]
        if hasattr(board, "cols") and hasattr(board, "rows"):
            return [(0, 0), (board.cols - 1, board.rows - 1)]
        if hasattr(board, "spaces"):
            keys = [tuple(sp.key) for sp in board.spaces]
            return [(min(k[0] for k in keys), min(k[1] for k in keys)), (max(k[0] for k in keys),
                                                                         max(k[1] for k in keys))]
    except Exception:  # a board without these: the heat map spans what was seen
        return []
    return []


def notes(adapter: Adapter) -> list[str]:
    """What the numbers mean, and what this game's journal cannot know."""
    out = [f"Possession: each {adapter.unit} goes to the side that held the ball after more of its commands; "
           f"the shares count the {adapter.unit}s in which somebody held it.",
           "Passes are made when a teammate next holds the ball, lost otherwise; tackles are won when the "
           "tackler's side next holds it.",
           f"Heat map: every figure on the pitch, counted where it stood as each {adapter.unit} began."]
    if not adapter.saves_known:
        out.append("This game decides a shot with one roll against a difficulty that counts the goalkeeper: "
                   "the journal does not tell a save from a miss, so saves are not counted.")
    if not adapter.injuries_known:
        out.append("This game's rules have no injuries.")
    return out
