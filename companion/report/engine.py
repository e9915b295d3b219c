"""The walk behind a match report: fold the events again, one by one, and let the game's
adapter say what each one means (a shot, a pass, a foul...). Pure Python, no plotting.

Attempts (passes, shots, tackles) are resolved by what the ball did next, the same way for
every game: a pass is made when a teammate next holds the ball and lost otherwise; a tackle
is won when the tackler's side next holds it; a shot is a goal, saved (the goalkeeper had to
act, by the game's own signal for it) or missed. The holder and the figures are read only
where a command's events end.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Protocol, Sequence

from ..events import Event, EventPayload
from ..ruleset import Ruleset
from ..teams import PlayerRef, Team
from .luck import DiceTally

TEAMS = (Team.HOME, Team.AWAY)

# The per-team numbers every report has; None where a game's journal cannot know one.
STATS = ("goals", "shots", "shots_on_target", "saves", "passes", "passes_made", "passes_lost", "tackles",
         "tackles_won", "fouls", "yellow_cards", "red_cards", "injuries", "substitutions")


class Adapter(Protocol):
    """What the report needs to know of one game."""

    game: str
    unit: str                 # what a tick is: "round" or "turn"
    saves_known: bool         # does the journal tell a save from a miss?
    injuries_known: bool
    high_is_lucky: bool | None  # do high faces help the roller? (None: neither way)
    counters: tuple[str, ...]  # the per-tick columns the game adds

    def holder(self, s: Any) -> PlayerRef | None: ...

    def figures(self, s: Any) -> Iterable[tuple[PlayerRef, tuple[int, int]]]: ...

    def new_tick(self, before: Any, after: Any, payload: EventPayload) -> bool: ...

    def tick_label(self, s: Any) -> tuple[int, str, str]:
        """(number, period label, clock label) of the tick that starts in ``s``."""
        ...

    def observe(self, payload: EventPayload, before: Any, after: Any, rec: "Recorder") -> None: ...

    def end_counters(self, s: Any, row: dict[str, Any]) -> None:
        """Fill the columns known only when a tick ends (cards left...)."""
        ...

    def goals(self, s: Any) -> list[dict[str, Any]]: ...


@dataclass(slots=True)
class Attempt:
    kind: str                 # "pass", "shot", "tackle"
    team: Team
    player: PlayerRef | None
    how: str = ""
    tick: int = 0
    keeper_tested: bool = False


@dataclass
class Tick:
    number: int
    period: str
    clock: str
    held: Counter = field(default_factory=Counter)      # commands after which each team held the ball
    counters: dict[str, Any] = field(default_factory=dict)


class Recorder:
    """Collects what the adapter observes while the events are walked."""

    def __init__(self, adapter: Adapter) -> None:
        self.adapter = adapter
        self.stats: dict[Team, dict[str, int]] = {t: {k: 0 for k in STATS} for t in TEAMS}
        self.open: list[Attempt] = []
        self.shots: list[Attempt] = []         # resolved shots, in order, with their outcome in .how
        self.shot_outcomes: list[str] = []
        self.goal_hows: list[str] = []
        self.in_flight: list[Attempt] = []    # attempts the journal ends in the middle of (unfinished match)
        self.ticks: list[Tick] = []
        self.timeline: list[dict[str, Any]] = []
        self.heat: dict[Team, Counter] = {t: Counter() for t in TEAMS}
        self.dice = DiceTally()
        self.roll_team: Team | None = None     # whose dice the event being observed rolled
        self.state: Any = None                 # the state after the event being observed

    # --- counting -----------------------------------------------------------------------------
    def count(self, team: Team, stat: str, n: int = 1) -> None:
        self.stats[team][stat] += n

    def counter(self, key: str, n: int | float = 1) -> None:
        """Add to a column of the current tick's row."""
        if self.ticks:
            row = self.ticks[-1].counters
            row[key] = row.get(key, 0) + n

    def set_counter(self, key: str, value: Any) -> None:
        if self.ticks:
            self.ticks[-1].counters[key] = value

    def note(self, team: Team | None, kind: str, text: str) -> None:
        """A timeline entry, at the current tick, with the game's clock as it reads now."""
        tick = self.ticks[-1] if self.ticks else Tick(0, "", "")
        _, period, clock = self.adapter.tick_label(self.state) if self.state is not None else (0, "", "")
        self.timeline.append({"tick": tick.number, "period": period, "clock": clock if self.ticks else "",
                              "team": team.value if team else None, "kind": kind, "text": text})

    # --- attempts ------------------------------------------------------------------------------
    def attempt(self, kind: str, team: Team, player: PlayerRef | None, how: str = "") -> Attempt:
        """A pass, shot or tackle begins; any attempt still open is resolved first."""
        self.close_all()
        a = Attempt(kind, team, player, how, self.ticks[-1].number if self.ticks else 0)
        self.open.append(a)
        if kind == "pass":
            self.count(team, "passes")
        elif kind == "tackle":
            self.count(team, "tackles")
        elif kind == "shot":
            self.count(team, "shots")
            who = f" by {player}" if player else ""
            self.note(team, "shot", f"{how or 'shot'}{who}")
        return a

    def keeper_tested(self) -> None:
        """The open shot reached the goalkeeper's own test (it was on target)."""
        for a in self.open:
            if a.kind == "shot":
                a.keeper_tested = True

    def current_shot(self) -> Attempt | None:
        return next((a for a in self.open if a.kind == "shot"), None)

    def goal(self, team: Team) -> None:
        shot = next((a for a in self.open if a.kind == "shot" and a.team is team), None)
        self.goal_hows.append(shot.how if shot else "")
        if shot is not None:
            self._finish(shot, "goal")
        for a in list(self.open):
            self._finish(a, "made" if a.team is team else "lost")

    def holder_changed(self, holder: PlayerRef) -> None:
        for a in list(self.open):
            if a.kind == "pass":
                if holder.team is a.team and holder != a.player:
                    self._finish(a, "made")
                elif holder.team is not a.team:
                    self._finish(a, "lost")
            elif a.kind == "tackle":
                self._finish(a, "won" if holder.team is a.team else "lost")

    def close_all(self) -> None:
        for a in list(self.open):
            self._finish(a, "")

    def leave_open(self) -> None:
        """The journal ends here with the match still on (an unfinished match): what is under
        way (a pass still rolling, a shot not yet decided) is neither made nor lost, only
        counted as tried."""
        self.in_flight, self.open = list(self.open), []

    def _finish(self, a: Attempt, outcome: str) -> None:
        self.open.remove(a)
        if a.kind == "pass":
            self.count(a.team, "passes_made" if outcome == "made" else "passes_lost")
        elif a.kind == "tackle":
            if outcome == "won":
                self.count(a.team, "tackles_won")
        elif a.kind == "shot":
            if outcome != "goal":
                saved = self.adapter.saves_known and a.keeper_tested
                outcome = "saved" if saved else "missed"
            if outcome in ("goal", "saved"):
                self.count(a.team, "shots_on_target")
            if outcome == "saved":
                self.count(a.team.other, "saves")
            self.shots.append(a)
            self.shot_outcomes.append(outcome)


def walk(ruleset: Ruleset, adapter: Adapter, events: Sequence[Event],
         finished: Callable[[Any], bool] | None = None) -> tuple[Recorder, Any]:
    """Fold ``events`` again and record what each means; returns the recorder and the last state.

    Events are observed one by one, but the ball's holder and the figures are read only where
    a command's events end (the states a coach saw), never halfway through a command. Where
    the events end, attempts still under way are resolved (lost, missed) only when
    ``finished(state)`` says the match is over; in an unfinished match they stay in flight."""
    rec = Recorder(adapter)
    state = ruleset.initial_state()
    holder = None
    sample = False
    for i, event in enumerate(events):
        before = state
        state = ruleset.evolve(before, event)
        payload = event.payload
        rec.roll_team = None
        rec.state = state
        if adapter.new_tick(before, state, payload):
            if rec.ticks:
                adapter.end_counters(before, rec.ticks[-1].counters)
            number, period, clock = adapter.tick_label(state)
            rec.ticks.append(Tick(number, period, clock))
            sample = True
        roll = getattr(payload, "roll", None)
        if roll is not None and hasattr(roll, "dice"):
            rec.roll_team = _request_team(ruleset, before, getattr(payload, "request", None))
            rec.dice.add(roll, rec.roll_team)
        adapter.observe(payload, before, state, rec)
        if i + 1 < len(events) and events[i + 1].batch == event.batch:
            continue  # halfway through a command
        if sample:
            for ref, square in adapter.figures(state):
                rec.heat[ref.team][square] += 1
            sample = False
        now = adapter.holder(state)
        if now is not None and now != holder:
            rec.holder_changed(now)
        holder = now
        if now is not None and rec.ticks:
            rec.ticks[-1].held[now.team] += 1
    if rec.ticks:
        adapter.end_counters(state, rec.ticks[-1].counters)
    if finished is None or finished(state):
        rec.close_all()
    else:
        rec.leave_open()
    return rec, state


def _request_team(ruleset: Ruleset, state: Any, request: str | None) -> Team | None:
    """The coach a dice request was addressed to, for rolls typed in without dice owners."""
    if request is None:
        return None
    try:
        for r in ruleset.pending(state):
            if r.id == request:
                return r.team
    except Exception:  # a state the summary cannot word: the roll still counts, as nobody's
        return None
    return None


def possession(ticks: Sequence[Tick]) -> dict[str, Any]:
    """Each tick goes to the side that held the ball after more of its commands; the shares
    count the ticks in which somebody held it."""
    per_tick = []
    won = Counter()
    for t in ticks:
        h, a = t.held[Team.HOME], t.held[Team.AWAY]
        side = "home" if h > a else "away" if a > h else None if h == 0 else "shared"
        per_tick.append(side)
        if side in ("home", "away"):
            won[side] += 1
        elif side == "shared":
            won["home"] += 0.5
            won["away"] += 0.5
    total = won["home"] + won["away"]
    share = {s: (round(100.0 * won[s] / total, 1) if total else None) for s in ("home", "away")}
    return {"percent": share, "ticks_counted": total, "per_tick": per_tick}


def heat_rows(heat: dict[Team, Counter]) -> list[dict[str, Any]]:
    rows = []
    for team in TEAMS:
        for (x, y), n in sorted(heat[team].items()):
            rows.append({"team": team.value, "x": x, "y": y, "count": n})
    return rows
