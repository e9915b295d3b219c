"""Typed readings of a game's summary for the screens: the scoreline, the turn, the restart,
the result, per-side counters and the game clock.

A ruleset's ``summary(state)`` is plain JSON for the report, the web scoreboard and
``touchline replay``; the tablet reads the same facts typed, through ``summary_of`` and
``clock_of``, the one place that knows how each game spells them. The four games' clocks:

* Fublet: no running clock; the match minute follows the rounds (``minute``).
* Football Leader: no clock at all; a half lasts as long as the decks.
* Futboard: one match clock against a time limit (``match``), or none for a goal limit.
* Fußball-Liga: the half's clock (``match``), and the phase limit: one egg timer
  (``phase``) or each coach's chess clock (``chess``); the tablet calls time up itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .events import parse_time
from .teams import Team


@dataclass(frozen=True, slots=True)
class Watch:
    """One clock as of the last clock event: ``elapsed_s`` then, and since ``since`` when it
    runs; ``limit_s`` its limit (None: it only counts)."""

    elapsed_s: float = 0.0
    limit_s: float | None = None
    running: bool = False
    since: datetime | None = None

    def elapsed_at(self, now: datetime | None) -> float:
        """Its reading at ``now`` (the reading as of the last event when ``now`` is None)."""
        if self.running and self.since is not None and now is not None:
            return self.elapsed_s + max(0.0, (now - self.since).total_seconds())
        return self.elapsed_s

    def left_at(self, now: datetime | None) -> float | None:
        return None if self.limit_s is None else max(0.0, self.limit_s - self.elapsed_at(now))

    def runs_out_by(self, now: datetime) -> bool:
        """Running, with a limit, and reached it by ``now``."""
        return self.running and bool(self.limit_s) and self.elapsed_at(now) >= self.limit_s

    def __repr__(self) -> str:
        since = f", since={self.since.isoformat()!r}" if self.since is not None else ""
        return f"Watch({self.elapsed_s!r}, limit_s={self.limit_s!r}, running={self.running!r}{since})"


@dataclass(frozen=True, slots=True)
class GameClock:
    """A match's clock as the screens show it. ``period`` is the period's words ("1st half"),
    ``minute`` a match minute counted by the rules (Fublet's rounds); ``match`` the clock the
    match or half runs against, ``phase`` the Liga's egg timer, ``chess`` each coach's chess
    clock; ``time_up`` the match's (or half's) time is up, ``phase_time_up`` the phase's."""

    period: str = ""
    minute: int | None = None
    match: Watch | None = None
    phase: Watch | None = None
    chess: tuple[tuple[Team, Watch], ...] = ()
    time_up: bool = False
    phase_time_up: bool = False
    paused: bool = False
    as_of: str | None = None          # the instant of the clock reading (the Liga's last clock event)

    @property
    def real_time(self) -> bool:
        """Some clock here runs in real time (the tablet refreshes and may call time up)."""
        return self.match is not None or self.phase is not None or bool(self.chess)

    def chess_of(self, team: Team) -> Watch | None:
        return next((w for t, w in self.chess if t is team), None)

    def expired(self, now: datetime) -> list[tuple[str, Team | None]]:
        """The Liga's time-up calls due at ``now``: ("half", None), ("phase", None) for the egg
        timer, ("phase", team) for a coach's chess clock; never one already taken."""
        due: list[tuple[str, Team | None]] = []
        if self.match is not None and not self.time_up and self.match.runs_out_by(now):
            due.append(("half", None))
        if self.phase_time_up:
            return due
        if self.phase is not None and self.phase.runs_out_by(now):
            due.append(("phase", None))
        for team, watch in sorted(self.chess, key=lambda tw: tw[0].value):
            if watch.runs_out_by(now):
                due.append(("phase", team))
        return due


def _time(value: Any) -> datetime | None:
    return parse_time(value) if isinstance(value, str) and value else None


def _watch(raw: Mapping[str, Any], since: Any = None, limit_s: float | None = None) -> Watch:
    limit = raw.get("limit_s", limit_s)
    return Watch(float(raw.get("elapsed_s") or 0.0), float(limit) if limit else None, bool(raw.get("running")),
                 _time(since if since is not None else raw.get("since")))


def clock_of(summary: Mapping[str, Any]) -> GameClock:
    """The clock in a game's JSON summary, typed."""
    period = str(summary.get("half") or "")
    raw = summary.get("clock")
    if not isinstance(raw, Mapping):
        minute = summary.get("match_minute", summary.get("minute"))
        return GameClock(period=period, minute=int(minute) if isinstance(minute, (int, float)) else None,
                         time_up=bool(summary.get("time_up")))
    if "half" in raw or "phase_limit" in raw:   # the Fußball-Liga: half, egg timer or chess clocks
        as_of = raw.get("as_of")
        half = raw.get("half")
        phase = raw.get("phase")
        chess = raw.get("chess") or {}
        return GameClock(period=period, match=_watch(half, as_of) if isinstance(half, Mapping) else None,
                         phase=_watch(phase, as_of) if isinstance(phase, Mapping) else None,
                         chess=tuple((Team(t), _watch(w, as_of)) for t, w in sorted(chess.items())),
                         time_up=bool(raw.get("half_time_up")), phase_time_up=bool(raw.get("phase_time_up")),
                         paused=bool(raw.get("paused")), as_of=as_of)
    limits = summary.get("limits") or {}        # Futboard: one match clock against a time limit
    minutes = limits.get("time_min")
    return GameClock(period=period, match=_watch(raw, limit_s=minutes * 60.0 if minutes else None),
                     time_up=bool(summary.get("time_up")))


# --- the summary ----------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Result:
    """The final result: ``decided_by`` says how ("full time", "penalties", ...)."""

    winner: Team | None
    home: int
    away: int
    decided_by: str = ""


@dataclass(frozen=True, slots=True)
class Restart:
    """A restart under way: its kind ("kick_off", "corner_kick", ...) and the side taking it."""

    kind: str
    team: Team


@dataclass(frozen=True, slots=True)
class Turn:
    """The turn in play: its number (Fublet: the round's), whose it is (the Liga and Fublet:
    the attacking side), where it stands (Football Leader's stage, Fublet's round kind) and
    the actions left (Futboard)."""

    number: int
    team: Team | None = None
    step: str = ""
    actions_left: int | None = None
    actions_per_turn: int | None = None


@dataclass(frozen=True, slots=True)
class Counter:
    """A count a bar shows: ``value`` out of ``maximum`` (None: the rules set no maximum)."""

    value: float
    maximum: float | None = None


@dataclass(frozen=True, slots=True)
class Summary:
    """What the screens read of a match, typed. ``counters`` are the per-side counts each
    game keeps, by key: Fublet "pace" (team None) and "mp"; Football Leader "deck", "hand"
    and "markers"; the Liga "mp" and "defender_mp" while a movement phase runs."""

    game: str = ""
    created: bool = False
    teams: tuple[str, str] = ("Home", "Away")
    score: tuple[int, int] = (0, 0)
    shootout: tuple[int, int] | None = None
    phase: str = ""
    clock: GameClock = GameClock()
    round: int | None = None            # Fublet's and Futboard's rounds
    turn: Turn | None = None
    last_turn: int | None = None        # Football Leader: the half ends after this turn
    restart: Restart | None = None
    result: Result | None = None
    variant: str = ""                   # Futboard: "street" for the Street variant
    goal_limit: int | None = None       # Futboard: the match ends at this many goals
    last_outcome: str = ""
    placeholders: tuple[str, ...] = ()
    counters: tuple[tuple[str, Team | None, Counter], ...] = ()

    @property
    def over(self) -> bool:
        return self.phase == "over" or self.result is not None

    def name(self, team: Team | str) -> str:
        """A side's team name (for a Team or its value "home"/"away")."""
        side = Team(getattr(team, "value", team))
        return self.teams[0] if side is Team.HOME else self.teams[1]

    def goals(self, team: Team) -> int:
        return self.score[0] if team is Team.HOME else self.score[1]

    def counter(self, key: str, team: Team | None = None) -> Counter | None:
        return next((c for k, t, c in self.counters if k == key and t is team), None)


def _team(value: Any) -> Team | None:
    return Team(value) if value in ("home", "away") else None


def _pair(raw: Any, default: int = 0) -> tuple[int, int]:
    raw = raw if isinstance(raw, Mapping) else {}
    return int(raw.get("home", default) or 0), int(raw.get("away", default) or 0)


def _turn(game: str, d: Mapping[str, Any]) -> Turn | None:
    raw = d.get("turn")
    if game == "football_leader":
        if not isinstance(raw, Mapping):
            return None
        return Turn(int(raw.get("number") or 0), _team(raw.get("team")), str(raw.get("stage") or ""))
    if game == "futboard":
        return Turn(int(d.get("turn_no") or 0), _team(raw), actions_left=int(d.get("actions_left") or 0),
                    actions_per_turn=int(d.get("actions_per_turn") or 0))
    if game == "fublet":
        return Turn(int(d.get("round") or 0), _team(d.get("attacking")), str(d.get("round_kind") or ""))
    if isinstance(raw, int):   # the Liga: the turn's number, the attacking side
        return Turn(raw, _team(d.get("attacking")))
    return None


def _counters(game: str, d: Mapping[str, Any]) -> tuple[tuple[str, Team | None, Counter], ...]:
    out: list[tuple[str, Team | None, Counter]] = []
    if game == "fublet":
        out.append(("pace", None, Counter(int(d.get("round_pace") or 0))))
        mp = d.get("mp") or {}
        out += [("mp", t, Counter(int(mp.get(t.value, 0) or 0))) for t in (Team.HOME, Team.AWAY)]
    elif game == "football_leader":
        for t in (Team.HOME, Team.AWAY):
            deck = (d.get("decks") or {}).get(t.value)
            if deck:
                out += [("deck", t, Counter(deck["deck"], deck.get("size") or None)),
                        ("hand", t, Counter(deck["hand"])),
                        ("markers", t, Counter(deck["markers_on_board"], deck["markers_total"]))]
    elif game == "fussball_liga":
        mv = d.get("movement")
        if isinstance(mv, Mapping):
            per_side = mv.get("per_side", 18)
            spent = mv.get("spent") or {}
            out += [("mp", t, Counter(per_side - spent.get(t.value, 0), per_side)) for t in (Team.HOME, Team.AWAY)]
            if d.get("attacking"):
                out.append(("defender_mp", None, Counter(mv.get("defender_may_spend", 0), per_side)))
    return tuple(out)


def summary_of(d: Mapping[str, Any]) -> Summary:
    """A game's JSON summary (``Ruleset.summary``), typed for the screens."""
    game = str(d.get("game") or "")
    if d.get("created") is False:
        return Summary(game=game)
    teams = d.get("teams") if isinstance(d.get("teams"), Mapping) else {}
    shoot = d.get("shootout")
    r = d.get("restart")
    res = d.get("result")
    limits = d.get("limits") if isinstance(d.get("limits"), Mapping) else {}
    return Summary(
        game=game, created=True,
        teams=(str(teams.get("home") or "Home"), str(teams.get("away") or "Away")),
        score=_pair(d.get("score")),
        shootout=_pair(shoot) if isinstance(shoot, Mapping) else None,
        phase=str(d.get("phase") or ""),
        clock=clock_of(d),
        round=d.get("round") if game in ("fublet", "futboard") and isinstance(d.get("round"), int) else None,
        turn=_turn(game, d),
        last_turn=d.get("last_turn") if isinstance(d.get("last_turn"), int) else None,
        restart=(Restart(str(r["kind"]), Team(r["team"])) if isinstance(r, Mapping) and r.get("kind")
                 and _team(r.get("team")) else None),
        result=(Result(_team(res.get("winner")), int(res.get("home", 0)), int(res.get("away", 0)),
                       str(res.get("decided_by") or "")) if isinstance(res, Mapping) else None),
        variant=str(d.get("variant") or ""),
        goal_limit=limits.get("goals") or None,
        last_outcome=str(d.get("last_outcome") or ""),
        placeholders=tuple(d.get("placeholders") or ()),
        counters=_counters(game, d),
    )
