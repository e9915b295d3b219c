"""Helpers for driving a Football Leader match in tests: sheets, rolls by value, cards, set-ups."""

from __future__ import annotations

from dataclasses import replace

from companion.commands import Choose, PlaceFigure, SubmitRoll
from companion.dice import DieKind, roll_of
from companion.football_leader import commands as c
from companion.football_leader.components import (Ability, Card, Counter, TeamRoster, Trait, load_components,
                                                  shipped_team)
from companion.football_leader.model import Options, Phase, StrategySheet
from companion.football_leader.rules import FootballLeaderRules
from companion.match import Match
from companion.teams import PlayerRef, Team


def H(n: int) -> PlayerRef:
    return PlayerRef(Team.HOME, n)


def A(n: int) -> PlayerRef:
    return PlayerRef(Team.AWAY, n)


def C(text: str) -> Card:
    return Card.parse(text)


# Home defends x = 0: rows 0..3 are its half (row 3 is the middle row). Away is the mirror.
HOME_KICK_OFF = {2: (0, 1), 3: (0, 3), 4: (1, 1), 5: (1, 4), 6: (2, 0), 7: (2, 4), 8: (2, 2), 9: (3, 2), 10: (3, 3),
                 11: (3, 1)}
HOME_GOAL_KICK = {2: (0, 1), 3: (0, 3), 4: (1, 2), 5: (1, 3), 6: (2, 1), 7: (2, 3), 8: (2, 2), 9: (3, 2), 10: (3, 3),
                  11: (3, 4)}


def mirror(space):
    r, lane = space
    return (6 - r, (4 if r % 2 == 0 else 5) - lane)


def sheet(kick_off=None, goal_kick=None, mirrored=False, goalkeeper=1) -> StrategySheet:
    ko = dict(kick_off or HOME_KICK_OFF)
    gk = dict(goal_kick or HOME_GOAL_KICK)
    if mirrored:
        ko = {n: mirror(sp) for n, sp in ko.items()}
        gk = {n: mirror(sp) for n, sp in gk.items()}
    return StrategySheet(goalkeeper, gk, ko)


def with_counter(roster: TeamRoster, number: int, **changes) -> TeamRoster:
    """A roster with one counter changed: traits as strings ("gold-5"), abilities as names."""
    counters = []
    for cnt in roster.counters:
        if cnt.number == number:
            fields = {}
            for key, value in changes.items():
                if key == "abilities":
                    fields[key] = tuple(Ability(a) for a in value)
                elif isinstance(value, str) and key != "name":
                    fields[key] = Trait.from_json(value)
                else:
                    fields[key] = value
            cnt = replace(cnt, **fields)
        counters.append(cnt)
    return replace(roster, counters=tuple(counters))


def plain_team(name: str = "Plain") -> TeamRoster:
    """A team without special abilities and with simple numbers, for rule tests."""
    counters = [Counter(1, "Keeper", goalkeeper=True, parry=Trait.from_json("gold-10"),
                        defence=Trait.from_json("silver-8"))]
    for n in range(2, 15):
        counters.append(Counter(n, f"Player {n}", shoot=Trait.from_json("gold"), dodge=Trait.from_json("gold"),
                                passing=Trait.from_json("silver"), movement=Trait.from_json("gold"),
                                defence=Trait.from_json("gold-6")))
    return TeamRoster(name, tuple(counters))


def new_match(home: TeamRoster | None = None, away: TeamRoster | None = None, journal=None, clock=None,
              components=None, **options) -> Match:
    kwargs = {"clock": clock} if clock else {}
    m = Match(FootballLeaderRules(), journal, **kwargs)
    m.submit(c.CreateMatch(home or shipped_team("lions"), away or shipped_team("blues"),
                           components or load_components(), Options(**options)))
    return m


def d12(m: Match, team: Team, *faces: int, request: str | None = None):
    """Roll one d12, or two (the first is the black die)."""
    colours = ("black", "white") if len(faces) == 2 else ()
    return m.submit(SubmitRoll(roll_of(DieKind.D12, *faces, owner=team, colours=colours), request))


def choose(m: Match, option: str):
    req = next(r for r in m.pending() if r.kind == "choice")
    return m.submit(Choose(req.id, option))


def write_sheets(m: Match, home: StrategySheet | None = None, away: StrategySheet | None = None) -> None:
    m.submit(c.WriteStrategy(Team.HOME, home or sheet()))
    m.submit(c.WriteStrategy(Team.AWAY, away or sheet(mirrored=True)))


def confirm(m: Match) -> None:
    for team in (Team.HOME, Team.AWAY):
        if m.state.phase is Phase.SET_UP and team not in m.state.ready:
            m.submit(c.ConfirmSetUp(team))


def to_kick_off(m: Match, home_roll: int = 7, away_roll: int = 3, kicker: int = 9) -> None:
    """Sheets, the opening roll (Home 7, Away 3: Home kicks off), the set-up, the kick-off."""
    write_sheets(m)
    d12(m, Team.HOME, home_roll)
    d12(m, Team.AWAY, away_roll)
    confirm(m)
    team = m.state.restart.team
    m.submit(c.KickOff(PlayerRef(team, kicker)))
    assert m.state.phase is Phase.TURN


def place(m: Match, ref: PlayerRef, space) -> None:
    """Put a counter somewhere by hand (a correction), to build a situation."""
    m.submit(PlaceFigure(ref, square=space, correction=True))


def give_ball(m: Match, ref: PlayerRef) -> None:
    """Test helper: hand the ball over through the fold, as a correction would (no rule)."""
    from companion.football_leader import events as ev
    from companion.events import Event, Source, now
    event = Event(m.last_seq + 1, m.last_seq + 1, now(), Source.RULES, ev.BallSet(ref, "test"))
    m._state = m.ruleset.evolve(m.state, event)  # noqa: SLF001  (test set-up only)


def lowest_card(m: Match, team: Team, colour: str | None = None) -> Card:
    """The lowest card of a colour the deck still holds (cards the tests do not care about)."""
    from companion.football_leader import queries as q
    left = sorted(q.cards_left(m.state, team), key=lambda cd: cd.sort_key, reverse=True)
    return next(cd for cd in left if colour is None or cd.colour.value == colour)


def free_move(m: Match, team: Team, avoid=()) -> c.Move:
    """A legal one-space move of a counter without the ball (none of ``avoid``)."""
    from companion.football_leader import queries as q
    s = m.state
    b = q.board(s)
    for p in sorted(q.outfield(s, team), key=lambda p: p.ref.number):
        if p.ref == s.ball or p.ref in avoid or not q.can_take_marker(s, p.ref) or p.space is None:
            continue
        for space, _ in sorted(b.neighbours(p.space)):
            if not b.space(space).goal and q.room(s, space, team) > 0:
                return c.Move(p.ref, space, lowest_card(m, team))
    raise AssertionError(f"{team.label} has no free move")


def pass_turn(m: Match, avoid=()) -> None:
    """The coach whose turn it is moves one counter and ends his turn."""
    team = m.state.turn.team
    m.submit(free_move(m, team, avoid))
    if m.state.turn is not None and m.state.turn.team is team:
        m.submit(c.EndTurn(team))


def play_out_period(m: Match, limit: int = 400) -> None:
    """Turns of one movement each until the period changes (decks run out)."""
    period = m.state.period
    for _ in range(limit):
        if m.state.period is not period or m.state.phase is not Phase.TURN:
            return
        team = m.state.turn.team
        if m.state.cards[team].hand == 0:
            m.submit(c.EndTurn(team))
        else:
            pass_turn(m)
    raise AssertionError("the period did not end")
