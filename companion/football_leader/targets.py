"""Where a selected counter may go now, and what each space would mean: the spaces the tablet
lights when a coach selects a counter (a move, a pass to a teammate, a shot at goal, a
tackle on the ball carrier).

Every space is checked by the rules themselves: the command a tap there would start is
decided (``FootballLeaderRules.decide``, which changes nothing) with a card the coach's
deck still holds, and a refused one is left out; the roll it would open gives the
difficulty said beside it. Kinds: "move", "dodge" (the carrier moves and must dodge), "pass",
"shot", "tackle", "kicker" (a kick-off carrier's space).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import RuleViolation
from ..teams import PlayerRef, Team
from . import commands as c
from . import events as ev
from . import queries as q
from .components import Card
from .model import FootballLeaderState, Phase, Stage
from .movement import plan_move
from .ranges import reachable
from .rules import FootballLeaderRules

_RULES = FootballLeaderRules()


@dataclass(frozen=True, slots=True)
class Target:
    """One space a tap may choose, and what choosing it means."""

    space: tuple
    kind: str
    text: str                                   # in a coach's words: "pass to #10: difficulty 9"
    players: tuple[PlayerRef, ...] = ()         # a pass: the teammates there who may take it


def _decide(s: FootballLeaderState, command) -> tuple | None:
    try:
        return tuple(_RULES.decide(s, command))
    except RuleViolation:
        return None


def _difficulty(events: tuple) -> int | None:
    for e in events:
        if isinstance(e, ev.PendingOpened):
            tests = getattr(e.item, "tests", ())
            if tests and tests[0].difficulty:
                return tests[0].difficulty
    return None


def _cards(s: FootballLeaderState, team: Team) -> list[Card]:
    """One card of each colour the coach may still hold, highest first."""
    out: dict = {}
    for card in sorted(q.cards_left(s, team), key=lambda cd: cd.sort_key):
        out.setdefault(card.colour, card)
    return list(out.values())


def _first(s: FootballLeaderState, team: Team, make) -> tuple | None:
    """The events of the first of the coach's cards that the rules take for ``make(card)``."""
    for card in _cards(s, team):
        events = _decide(s, make(card))
        if events is not None:
            return events
    return None


def pass_targets(s: FootballLeaderState, passer: PlayerRef) -> dict[tuple, Target]:
    """The teammates' spaces a pass by the ball carrier may go to now."""
    if s.ball != passer or s.turn is None or s.turn.team is not passer.team:
        return {}
    found: dict[tuple, list] = {}
    for p in q.on_pitch(s, passer.team):
        if p.ref == passer or p.space is None:
            continue
        events = _first(s, passer.team, lambda card, r=p.ref: c.Pass(r, card))
        if events is None:
            continue
        found.setdefault(p.space, []).append((p.ref, _difficulty(events)))
    out = {}
    for space, mates in found.items():
        names = " or ".join(f"#{r.number}" for r, _d in sorted(mates, key=lambda m: m[0].number))
        hardest = max((d for _r, d in mates if d), default=None)
        text = f"pass to {names}" + (f": difficulty {hardest}" if hardest else "")
        out[space] = Target(space, "pass", text, tuple(sorted(r for r, _d in mates)))
    return out


def shot_target(s: FootballLeaderState, shooter: PlayerRef) -> dict[tuple, Target]:
    """The goal he would shoot at, lit when the rules take a shot from where he stands."""
    if s.ball != shooter or s.turn is None or s.turn.team is not shooter.team:
        return {}
    events = _first(s, shooter.team, lambda card: c.Shoot(card))
    if events is None:
        return {}
    goal = q.goal_space(s, shooter.team.other)
    d = _difficulty(events)
    return {goal: Target(goal, "shot", "shoot at goal" + (f": difficulty {d}" if d else ""))}


def tackle_targets(s: FootballLeaderState, tackler: PlayerRef) -> dict[tuple, Target]:
    """The ball carrier's space, lit for a counter of the side in turn who may tackle him
    there (a tackle or a hard tackle) or from next to it (move and tackle)."""
    carrier = s.ball
    if carrier is None or s.turn is None or carrier.team is tackler.team or s.turn.team is not tackler.team:
        return {}
    space = s.players[carrier].space
    texts = []
    for hard, what in ((False, "tackle"), (True, "hard tackle")):
        events = _first(s, tackler.team, lambda card, h=hard: c.Tackle(tackler, card, hard=h))
        if events is not None:
            d = _difficulty(events)
            texts.append(f"{what}" + (f" (difficulty {d})" if d else ""))
    if not texts:
        events = None
        for move_card in _cards(s, tackler.team):
            events = _first(s, tackler.team, lambda card, m=move_card: c.Tackle(tackler, card, hard=True,
                                                                              move_card=m))
            if events is not None:
                break
        if events is not None:
            d = _difficulty(events)
            texts.append("move and tackle" + (f" (difficulty {d})" if d else ""))
    if not texts:
        return {}
    return {space: Target(space, "tackle", f"on #{carrier.number}: " + " or ".join(texts))}


def move_targets(s: FootballLeaderState, ref: PlayerRef) -> dict[tuple, Target]:
    """The spaces he may move to with the best card his coach may hold (a card is asked when
    he moves); the ball carrier's spaces that need dodges say so."""
    out = {}
    for space in reachable(s, ref):
        if _decide(s, c.Move(ref, space)) is None:
            continue
        plan = plan_move(s, ref, space)
        dodges = plan.dodges if plan is not None else ()
        if dodges:
            hardest = max(d.difficulty for d in dodges)
            n = len(dodges)
            out[space] = Target(space, "dodge", f"move and dodge ({n} dodge{'s' if n > 1 else ''}, difficulty up to "
                                                f"{hardest})")
        else:
            out[space] = Target(space, "move", "move here" + (" with the ball" if s.ball == ref else ""))
    return out


def targets(s: FootballLeaderState, ref: PlayerRef) -> dict[tuple, Target]:
    """What selecting ``ref`` offers now: in his side's turn, his moves, and for the ball
    carrier his passes and his shot; a tackle on the carrier for a defender."""
    if not s.created or s.queue or ref not in s.players or s.phase is not Phase.TURN or s.turn is None:
        return {}
    if s.turn.team is not ref.team:
        return {}
    out = dict(move_targets(s, ref))
    if s.ball == ref:
        out.update(pass_targets(s, ref))
        out.update(shot_target(s, ref))
    elif s.ball is not None and s.ball.team is not ref.team and s.turn.stage is Stage.START:
        out.update(tackle_targets(s, ref))
    return out
