"""Helpers for driving a Fublet match in tests: a line-up, rolls by value, turn passing."""

from __future__ import annotations

from dataclasses import replace

from companion.commands import Choose, PlaceFigure, SubmitRoll
from companion.dice import DieKind, roll_of
from companion.fublet import commands as c
from companion.fublet.components import Skill, TeamRoster, load_components, shipped_team
from companion.fublet.model import Phase
from companion.fublet.rules import FubletRules
from companion.match import Match
from companion.teams import PlayerRef, Team


def H(n: int) -> PlayerRef:
    return PlayerRef(Team.HOME, n)


def A(n: int) -> PlayerRef:
    return PlayerRef(Team.AWAY, n)


# Home defends x = 0 (MS columns 0..23 are its half); Away is mirrored.
HOME_LINEUP = {1: (1, 15), 2: (8, 4), 3: (8, 12), 4: (8, 19), 5: (8, 27), 6: (16, 4), 7: (16, 12),
               8: (18, 19), 10: (16, 27), 9: (22, 12), 11: (22, 19)}


def mirror(ms):
    return (47 - ms[0], 31 - ms[1])


AWAY_LINEUP = {n: mirror(ms) for n, ms in HOME_LINEUP.items()}


def with_skills(roster: TeamRoster, number: int, speed: int | None = None, **skills: int) -> TeamRoster:
    cards = []
    for card in roster.players:
        if card.number == number:
            new_skills = dict(card.skills)
            for name, value in skills.items():
                new_skills[Skill(name)] = value
            card = replace(card, skills=new_skills, speed=speed if speed is not None else card.speed)
        cards.append(card)
    return replace(roster, players=tuple(cards))


def new_match(home: TeamRoster | None = None, away: TeamRoster | None = None, journal=None, **options) -> Match:
    from companion.fublet.model import Options
    m = Match(FubletRules(), journal)
    m.submit(c.CreateMatch(home or shipped_team("rovers"), away or shipped_team("harbour"), load_components(),
                           Options(**options)))
    return m


def die(m: Match, team: Team | None, face: int, kind: DieKind = DieKind.D10, request: str | None = None):
    return m.submit(SubmitRoll(roll_of(kind, face, owner=team), request))


def pct(m: Match, team: Team, value: int, request: str | None = None):
    """Roll 2d10 reading ``value`` (1..100) with the default reading (black die = tens)."""
    tens, units = (0, 0) if value == 100 else divmod(value, 10)
    return m.submit(SubmitRoll(roll_of(DieKind.D10, tens, units, owner=team, colours=("black", "white")), request))


def scatter(m: Match, face: int):
    return m.submit(SubmitRoll(roll_of(DieKind.D8, face)))


def choose(m: Match, option: str):
    req = next(r for r in m.pending() if r.kind == "choice")
    return m.submit(Choose(req.id, option))


def lineup(m: Match, home=None, away=None) -> None:
    for n, ms in (home or HOME_LINEUP).items():
        m.submit(PlaceFigure(H(n), square=ms, facing=0))
    for n, ms in (away or AWAY_LINEUP).items():
        m.submit(PlaceFigure(A(n), square=ms, facing=180))


def to_kick_off(m: Match, home_board="high_short_offensive", away_board="low_short_defensive",
                place=True) -> None:
    """Opening roll (Home 7, Away 3: Home picks first, Away kicks off), boards, line-up."""
    die(m, Team.HOME, 7)
    die(m, Team.AWAY, 3)
    m.submit(c.ChooseBoard(Team.HOME, home_board))
    m.submit(c.ChooseBoard(Team.AWAY, away_board))
    if place:
        lineup(m)
    assert m.state.phase is Phase.KICK_OFF


def pass_phase(m: Match) -> None:
    """Both coaches pass until the phase changes."""
    phase, rnd = m.state.phase, m.state.round
    for _ in range(4):
        if m.state.phase is not phase or m.state.round != rnd or m.state.queue:
            return
        team = m.state.turn or Team.HOME
        m.submit(c.PassTurn(team))


def move_to(m: Match, ref: PlayerRef, ms) -> None:
    m.submit(PlaceFigure(ref, square=ms, correction=True))


def board_entry(id: str, name: str, attack: dict, defence: dict, outcome_boosts=None, event_boosts=None,
                costs=(2, 4, 3, 2)):
    from companion.fublet.components import Action, MovementCosts, MpGain, TacticalBoard
    mp = {a: MpGain(attack.get(a.value, 3), defence.get(a.value, 3)) for a in Action}
    return TacticalBoard(id=id, name=name, mp=mp, costs=MovementCosts(*costs),
                         outcome_boosts={Skill(k): v for k, v in (outcome_boosts or {}).items()},
                         event_boosts={Skill(k): v for k, v in (event_boosts or {}).items()})


def kit_components(boards=None):
    """Shipped board geometry, with tactical boards and pace bar fixed here so the tests do
    not depend on the placeholder values a table may replace."""
    from companion.fublet.components import Action, RoundPaceBar
    comps = load_components()
    boards = boards or (
        board_entry("paul", "Paul's board", {"short_pass": 5}, {"short_pass": 4}),
        board_entry("bruce", "Bruce's board", {"short_pass": 4}, {"short_pass": 3}),
    )
    bar = RoundPaceBar(small={p: (p + 1) // 2 for p in range(1, 21)},
                       min_pace_for_mp={Action.SHORT_PASS: 3, Action.KEEP_AND_RUN: 4, Action.SPEED_DRIBBLING: 4})
    return replace(comps, tactical_boards=tuple(boards), pace_bar=bar)


def fixed_match(home: TeamRoster | None = None, away: TeamRoster | None = None, boards=None, journal=None,
                **options) -> Match:
    """A match on the test components; Home picks 'bruce', Away picks 'paul' and kicks off."""
    from companion.fublet.model import Options
    m = Match(FubletRules(), journal)
    m.submit(c.CreateMatch(home or shipped_team("rovers"), away or shipped_team("harbour"), kit_components(boards),
                           Options(**options)))
    return m


def to_first_round(m: Match, home=None, away=None, kicker: int = 8) -> None:
    """Opening roll, boards (Home 'bruce', Away 'paul'), line-up, Away kicks off to #kicker."""
    die(m, Team.HOME, 7)
    die(m, Team.AWAY, 3)
    m.submit(c.ChooseBoard(Team.HOME, "bruce"))
    m.submit(c.ChooseBoard(Team.AWAY, "paul"))
    lineup(m, home, away)
    m.submit(c.KickOff(A(kicker)))
    assert m.state.phase is Phase.DECLARATION
