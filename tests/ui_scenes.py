"""Matches brought by rules commands to the moment just before a restart, written as journals
the app resumes (Home's "Resume" button): the UI tests then play the restart itself only by
what the screen shows (tests/ui_play_restart.py). Each scene is named "<game>:<restart>"."""

from __future__ import annotations

from pathlib import Path

from companion.journal import Journal
from companion.match import Match

# --- Fußball-Liga ---------------------------------------------------------------------------------


def _liga_turn_two():
    from fussball_liga_kit import to_turn_two

    from companion.fussball_liga.model import PhaseLimit
    return to_turn_two(phase_limit=PhaseLimit.NONE)


def _liga_out(target, origin, home=None, away=None):
    """Home's #11 kicks the ball out of play from ``origin`` (Away lets it go)."""
    from fussball_liga_kit import DEEP, H, scene

    from companion.fussball_liga import commands as c
    from companion.teams import Team
    m = _liga_turn_two()
    scene(m, {11: origin, **(home or {})}, {**DEEP, **(away or {})}, ball=origin, holder=H(11))
    m.submit(c.Kick(H(11), target))
    if m.state.flight is not None:
        m.submit(c.PassTurn(Team.AWAY))
    return m


def _liga_foul(square, attacker, defender):
    """Away's #4 fouls Home's #11 in a dribbling interception (a roll of 2): Home chooses."""
    from fussball_liga_kit import A, H, die, kicked_off, scene

    from companion.fussball_liga import commands as c
    from companion.fussball_liga.model import PhaseLimit
    from companion.teams import Team
    m = kicked_off(phase_limit=PhaseLimit.NONE)
    scene(m, {11: attacker, 9: (10, 4), 7: (9, 14)}, {4: defender, 1: (29, 10), 2: (28, 3)}, ball=square,
          holder=H(11))
    m.submit(c.PassTurn(Team.HOME))
    m.submit(c.Tackle(A(4)))
    die(m, Team.AWAY, 2)
    return m


def liga(restart: str) -> Match:
    if restart == "throw_in":   # out over the touch line past Away's #4; Home's #7 stands too near
        return _liga_out((10, -1), (10, 10), home={7: (11, 1)}, away={4: (10, 1), 5: (16, 4)})
    if restart == "corner":     # out over Home's own goal line: Away's corner
        return _liga_out((-1, 1), (8, 10), away={9: (6, 3), 8: (3, 7)})
    if restart == "goal_kick":  # out over Away's goal line, wide of the goal; Home's #9 in the area
        return _liga_out((30, 15), (25, 10), home={9: (27, 12)})
    if restart == "free_kick":
        return _liga_foul((14, 10), (13, 10), (14, 11))
    if restart == "penalty":
        return _liga_foul((26, 10), (25, 10), (26, 11))
    raise KeyError(restart)


# --- Football Leader ------------------------------------------------------------------------------


def _fl_plain():
    from football_leader_kit import new_match, plain_team, to_kick_off
    m = new_match(home=plain_team("Home"), away=plain_team("Away"))
    to_kick_off(m)
    return m


def _fl_away_turn(m) -> None:
    from football_leader_kit import H, pass_turn
    pass_turn(m, avoid=(H(9),))


def _fl_shootout() -> Match:
    """Both halves played out 0-0 (no extra time): the penalty kick series is next."""
    from football_leader_kit import new_match, play_out_period, plain_team, to_kick_off

    from companion.football_leader import commands as c
    m = new_match(home=plain_team("Home"), away=plain_team("Away"), extra_time=False, shootout=True)
    to_kick_off(m)
    play_out_period(m)
    for team in (m.state.restart.team.other, m.state.restart.team):
        if m.state.phase.value == "set_up" and team not in m.state.ready:
            m.submit(c.ConfirmSetUp(team))
    m.submit(c.KickOff(next(p.ref for p in m.state.players.values() if p.ref.team is m.state.restart.team
                            and p.space is not None and m.state.components.board.space(p.space).central)))
    play_out_period(m)
    return m


def football_leader(restart: str) -> Match:
    from football_leader_kit import A, H, place
    if restart == "shootout":
        return _fl_shootout()
    m = _fl_plain()
    if restart in ("direct", "penalty"):   # #9 and Away's #10 in a shooting space or the goal area
        space = (5, 2) if restart == "direct" else (6, 2)
        place(m, H(9), space)
        place(m, A(10), space)
    if restart in ("indirect", "direct", "penalty"):
        _fl_away_turn(m)          # Away's turn: #10 may tackle #9 (the foul comes by the UI)
        return m
    if restart == "goal_kick":    # Home's #9 in F3, to shoot (and miss) by the UI
        place(m, H(9), (5, 2))
        return m
    raise KeyError(restart)


def build(name: str) -> Match:
    game, restart = name.split(":")
    if game != "fussball_liga":
        return football_leader(restart)
    m = liga(restart)
    # The half clock stands still while the scene waits on disk: no time-up on resume.
    from companion.fussball_liga import commands as c
    if m.state.clocks.half_on and not m.state.clocks.paused:
        m.submit(c.PauseClock("a scene for a test"))
    return m


def write(name: str, data_dir: Path) -> Path:
    """The scene's journal in ``data_dir``'s matches folder, for the app to resume."""
    m = build(name)
    game = m.ruleset.game
    folder = data_dir / "matches"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{game}-scene-{name.split(':')[1]}.sqlite"
    path.unlink(missing_ok=True)
    journal = Journal.create(path, game)
    journal.append(m.events)
    journal.close()
    # Played on this tablet: the app resumes only a match its own record names (ui/played_here.py).
    from ui.played_here import note_played
    note_played(data_dir, path)
    return path
