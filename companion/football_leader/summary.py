"""What the tablet and ``touchline replay`` show: the state as plain JSON, and the requests
the rules core is waiting for, worded for the coaches."""

from __future__ import annotations

from typing import Any

from ..ruleset import Request
from ..teams import Team
from . import events as ev
from . import queries as q
from .components import Ability
from .model import MARKERS, POSITION_CHANGES, REPLACEMENTS, Choice, FootballLeaderState, Phase, Stage, request_id
from .resolve import describe_test
from .shootout import next_kicker, next_team


def pending(s: FootballLeaderState) -> tuple[Request, ...]:
    if not s.created:
        return (Request("setup", "action", None, "Create the match: teams, components, options"),)
    if s.queue:
        head = s.queue[0]
        if isinstance(head, Choice):
            return (Request(f"c{head.id}", "choice", head.team, head.question, options=head.options),)
        return tuple(Request(request_id(head, i), "dice", t.team, describe_test(s, t), dice=t.dice)
                     for i, t in enumerate(head.tests) if t.result is None)
    return tuple(_phase_requests(s))


def _left(s: FootballLeaderState, team: Team) -> str:
    return (f"position changes left {POSITION_CHANGES - s.changes_used[team]}, replacements left "
            f"{REPLACEMENTS - s.replacements_used[team]}")


def _phase_requests(s: FootballLeaderState) -> list[Request]:
    phase = s.phase
    if phase is Phase.STRATEGY:
        return [Request(f"strategy_{t.value}", "action", t, f"{t.label}: write the strategy sheet: where ten outfield "
                                                              f"counters stand for a goal kick and for a kick-off")
                for t in (Team.HOME, Team.AWAY) if t not in s.sheets]
    if phase is Phase.SET_UP and s.restart is not None:
        kind = s.restart.kind.label
        return [Request(f"set_up_{t.value}", "action", t, f"{t.label}: set the counters up for the {kind} by the "
                                                          f"strategy sheet ({_left(s, t)}), then confirm")
                for t in (Team.HOME, Team.AWAY) if t not in s.ready]
    if phase is Phase.KICK_OFF and s.restart is not None:
        team = s.restart.team
        b = q.board(s)
        central = [p.ref for p in q.outfield(s, team) if p.space is not None and b.space(p.space).central]
        who = ", ".join(f"#{r.number}" for r in central) or "any counter"
        return [Request("kick_off", "action", team, f"{team.label}: kick off: give the ball to a counter on the "
                                                    f"central spaces ({who})")]
    if phase is Phase.TURN and s.turn is not None:
        return [_turn_request(s)]
    if phase is Phase.SHOOTOUT:
        missing = [t for t in (Team.HOME, Team.AWAY) if t not in s.shootout_order]
        if missing:
            return [Request(f"order_{t.value}", "action", t, f"{t.label}: name the order of your penalty kickers")
                    for t in missing]
        team = next_team(s)
        kicker = next_kicker(s, team)
        return [Request("penalty", "action", team, f"{team.label}: penalty kick by {q.label(kicker, s)}: play a card "
                                                   f"(hand {s.cards[team].hand})")]
    return []


def _turn_request(s: FootballLeaderState) -> Request:
    t = s.turn
    team = t.team
    hand = s.cards[team].hand
    head = f"{team.label} (turn {t.number}, hand {hand})"
    carrier = s.ball
    where = q.where(s, q.carrier_space(s))
    no_cards = " You hold no card: end the turn." if hand == 0 else ""
    stage = t.stage
    if carrier is None and stage in (Stage.FREE_KICK, Stage.CARRIER_MOVED, Stage.PASSED, Stage.VISION_PASSED):
        # Between the events of one decision (the ball just lost, the stage not yet moved on)
        # nobody holds the ball: what is left of the turn is the extra movement.
        stage = Stage.AFTER_MAIN
    if stage is Stage.FREE_KICK:
        text = f"{head}: indirect free kick: #{carrier.number} passes from {where}"
    elif stage is Stage.DIRECT_KICK:
        kind = s.restart.kind.label if s.restart else "direct kick"
        text = f"{head}: {kind} from {q.where(s, s.restart.space if s.restart else None)}: choose the taker and shoot"
    elif stage is Stage.GOAL_KICK:
        text = f"{head}: goal kick: the goalkeeper passes to any counter (a card of any colour)"
    elif stage is Stage.START and carrier is not None and carrier.team is team:
        if s.players[carrier].goalkeeper:
            text = f"{head}: the goalkeeper has the ball: pass (a card of any colour), or call a goal kick"
        else:
            startup = " (it moves one space at most)" if t.startup == carrier else ""
            text = (f"{head}: #{carrier.number} has the ball in {where}{startup}: move, pass, dodge or shoot, "
                    f"with a card")
    elif stage is Stage.START:
        target = f" or tackle #{carrier.number} in {where}" if carrier is not None else ""
        text = f"{head}: move a counter{target}"
    elif stage is Stage.CARRIER_MOVED:
        text = f"{head}: #{carrier.number} may shoot (move and shoot, +4), or make the extra movement, or end the turn"
    elif stage is Stage.PASSED:
        text = (f"{head}: #{carrier.number} may shoot (pass and shoot, +4), or make the extra movement with another "
                f"counter, or end the turn")
    elif stage is Stage.VISION_PASSED:
        text = f"{head}: #{carrier.number} may shoot (pass and shoot, +4), or end the turn"
    else:
        vision = ""
        if (carrier is not None and carrier.team is team and q.has(s, carrier, Ability.GAME_VISION)
                and carrier not in t.moved and carrier not in t.markers):
            vision = f", or a Game Vision pass by #{carrier.number}"
        text = f"{head}: make the extra movement (not with the ball carrier){vision}, or end the turn"
    return Request("turn", "action", team, text + no_cards)


def placeholders(s: FootballLeaderState) -> list[str]:
    if s.components is None:
        return []
    notes = list(s.components.placeholders())
    for team in (Team.HOME, Team.AWAY):
        roster = s.roster(team)
        if roster.placeholder or any(c.placeholder for c in roster.counters):
            notes.append(f"{team.label} ({roster.name}): counters hold placeholder characteristics and abilities; "
                         f"enter the printed ones in the box editor (the team's page)")
    return notes


def _space(s: FootballLeaderState, space) -> dict[str, Any] | None:
    if space is None:
        return None
    return {"key": list(space), "label": q.where(s, space)}


def _player(s: FootballLeaderState, p) -> dict[str, Any]:
    c = p.counter
    traits = {name: str(getattr(c, name)) for name in ("shoot", "dodge", "passing", "movement", "defence", "parry")
              if getattr(c, name) is not None}
    if p.acting_keeper:
        traits.update(parry=str(p.parry), defence=str(p.keeper_defence))
    return {"player": str(p.ref), "name": c.name, "where": p.where.value, "space": _space(s, p.space),
            "goalkeeper": p.goalkeeper, "acting_keeper": p.acting_keeper, "markers": p.markers,
            "unmarked": q.is_unmarked(s, p.ref), "yellow_cards": p.yellow, "sent_off": p.sent_off,
            "replaced": p.replaced, "characteristics": traits, "abilities": [a.value for a in c.abilities]}


def summary(s: FootballLeaderState) -> dict[str, Any]:
    if not s.created:
        return {"game": "football_leader", "created": False, "pending": [r.to_json() for r in pending(s)]}
    turn = None
    if s.turn is not None:
        t = s.turn
        turn = {"number": t.number, "team": t.team.value, "stage": t.stage.value,
                "moved": [str(r) for r in t.moved], "receiver": str(t.receiver) if t.receiver else None,
                "dodged": str(t.dodged) if t.dodged else None, "startup": str(t.startup) if t.startup else None,
                "supported_dodge_used": t.supported}
    decks = {}
    for team in (Team.HOME, Team.AWAY):
        book = s.cards[team]
        played = sorted(book.played.items(), key=lambda item: item[0].sort_key)
        decks[team.value] = {"deck": book.deck, "hand": book.hand, "size": book.size,
                             "played": {card.to_json(): n for card, n in played},
                             "markers_on_board": sum(p.markers for p in q.on_pitch(s, team)),
                             "markers_total": MARKERS}
    shootout = None
    if s.shootout_first is not None:
        shootout = {t.value: sum(1 for k in s.shootout if k.team is t and k.scored) for t in (Team.HOME, Team.AWAY)}
        shootout["first"] = s.shootout_first.value
        shootout["order"] = {t.value: [str(r) for r in o] for t, o in s.shootout_order.items()}
        shootout["kicks"] = [{"team": k.team.value, "kicker": str(k.kicker), "scored": k.scored} for k in s.shootout]
    result = None
    if s.result is not None:
        r = s.result
        result = {"winner": r.winner.value if r.winner else None, "home": r.home, "away": r.away,
                  "decided_by": r.decided_by}
    r = s.restart
    return {
        "game": "football_leader",
        "teams": {"home": s.home.name, "away": s.away.name},
        "score": {"home": s.score[Team.HOME], "away": s.score[Team.AWAY]},
        "period": s.period.value,
        "half": s.period.label,
        "minute": None,  # Football Leader has no clock: a half lasts as long as the decks
        "round": s.turn.number if s.turn else s.turns,
        "phase": s.phase.value,
        "turn": turn,
        "last_turn": s.last_turn,
        "first_player": s.first_player.value if s.first_player else None,
        "attacking": s.attacking.value if s.attacking else None,
        "ball": {"carrier": str(s.ball) if s.ball else None, "space": _space(s, q.carrier_space(s))},
        "movement": ({"player": str(s.movement.player), "from": _space(s, s.movement.start),
                      "path": [_space(s, sp) for sp in s.movement.path], "at": s.movement.at,
                      "card": s.movement.card.to_json()} if s.movement else None),
        "unmarked": ({"player": str(s.unmarked.player), "until_turn": s.unmarked.until_turn}
                     if s.unmarked and q.is_unmarked(s, s.unmarked.player) else None),
        "restart": ({"kind": r.kind.value, "team": r.team.value, "space": _space(s, r.space),
                     "player": str(r.player) if r.player else None} if r else None),
        "decks": decks,
        "set_up_confirmed": [t.value for t in s.ready] if s.phase is Phase.SET_UP else [],
        "position_changes_used": {"home": s.changes_used[Team.HOME], "away": s.changes_used[Team.AWAY]},
        "replacements_used": {"home": s.replacements_used[Team.HOME], "away": s.replacements_used[Team.AWAY]},
        "goals": [{"team": g.team.value, "scorer": str(g.scorer) if g.scorer else None, "turn": g.turn,
                   "period": g.period.value} for g in s.goals],
        "cards": [{"player": str(b.player), "colour": b.colour, "sent_off": b.sent_off, "turn": b.turn,
                   "period": b.period.value} for b in s.bookings],
        "players": [_player(s, p) for p in sorted(s.players.values(), key=lambda p: (p.ref.team.value, p.ref.number))],
        "last_outcome": s.last_outcome,
        "pending": [req.to_json() for req in pending(s)],
        "placeholders": placeholders(s),
        "shootout": shootout,
        "result": result,
    }


def log_line(before: FootballLeaderState, payload) -> str | None:
    """A line for the tablet's event log, or None for bookkeeping events nobody reads."""

    s = before
    if isinstance(payload, ev.RollResolved):
        return payload.outcome
    if isinstance(payload, ev.MoveDeclared):
        card = f" ({payload.card})" if payload.card else ""
        return f"{payload.player} moves to {q.where(s, payload.path[-1])}{card}"
    if isinstance(payload, ev.PassDeclared):
        how = " (pass and dodge)" if payload.dodge_card else ""
        return f"{payload.passer} passes to {payload.receiver}{how} ({payload.card})"
    if isinstance(payload, ev.DodgeDeclared):
        sup = f", supported by {payload.supporter}" if payload.supporter else ""
        return f"{payload.player} dodges ({payload.card}){sup}"
    if isinstance(payload, ev.ShotDeclared):
        return f"{payload.shooter} shoots ({payload.card})"
    if isinstance(payload, ev.TackleDeclared):
        how = "moves and tackles" if payload.move_card else ("hard tackles" if payload.hard else "tackles")
        return f"{payload.tackler} {how} ({payload.card})"
    if isinstance(payload, ev.GoalScored):
        who = f" ({payload.scorer})" if payload.scorer else ""
        return f"GOAL for {payload.team.label}{who}"
    if isinstance(payload, ev.CardShown):
        second = "Second yellow" if payload.colour == "yellow" and payload.sent_off else payload.colour.capitalize()
        return f"{second} card: {payload.player}" + (", sent off" if payload.sent_off else "")
    if isinstance(payload, ev.KeeperAssigned):
        return f"{payload.player} goes in goal (BRONZE-8 parry and defence)"
    if isinstance(payload, ev.PlayerReplaced):
        return f"Replacement: {payload.off} off, {payload.on} on"
    if isinstance(payload, ev.StrategyChanged):
        return f"Strategy change: {payload.player}"
    if isinstance(payload, ev.PeriodStarted):
        return f"--- {payload.period.label} ---"
    if isinstance(payload, ev.TurnStarted):
        return f"Turn {payload.number}: {payload.team.label}"
    if isinstance(payload, ev.RestartSet) and payload.restart is not None:
        return f"{payload.restart.kind.label.capitalize()} for {payload.restart.team.label} ({payload.reason})"
    if isinstance(payload, ev.LastTurnSet):
        return f"{payload.team.label}'s deck is empty: the half ends after turn {payload.turn}"
    if isinstance(payload, ev.BallSet) and "never fails" in payload.reason:
        return f"{payload.player} has the ball: {payload.reason}"
    if isinstance(payload, ev.ShootoutKickResolved):
        return f"Penalty by {payload.kicker}: {'scored' if payload.scored else 'missed'}"
    if isinstance(payload, ev.MatchEnded):
        r = payload.result
        return f"Final: {r.home}-{r.away}" + (f", {r.winner.label} win ({r.decided_by})" if r.winner else " (draw)")
    if isinstance(payload, ev.FigurePlaced) and payload.correction:
        return f"Correction: {payload.player} placed in {q.where(s, payload.space)}"
    return None
