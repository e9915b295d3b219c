"""What the tablet reads: the summary's fields, the pending requests a coach acts on at each
moment, and the event log's lines."""

from __future__ import annotations

from companion.commands import Choose
from companion.fussball_liga import commands as c
from companion.fussball_liga.rules import FussballLigaRules
from companion.match import Match
from companion.teams import Team

from fussball_liga_kit import DEEP, A, H, Clock, kicked_off, new_match, scene, to_turn_two, toss


def test_before_the_match_the_only_request_is_to_create_it():
    m = Match(FussballLigaRules())
    assert [r.id for r in m.pending()] == ["setup"]
    assert m.summary() == {"game": "fussball_liga", "created": False, "pending": [m.pending()[0].to_json()]}


def test_the_summary_has_what_the_tablet_shows():
    clock = Clock()
    m = kicked_off(clock=clock)
    clock.tick(12)
    m.submit(c.Move(H(2), (6, 3)))
    s = m.summary()
    for key in ("teams", "score", "period", "half", "turn", "phase", "attacking", "ends", "clock", "ball", "kick",
                "restart", "holding", "movement", "substitutions_used", "goals", "cards", "fouls", "players",
                "options", "pending", "placeholders", "result"):
        assert key in s, key
    assert s["teams"] == {"home": "SV Rotstein", "away": "FC Gruenwald"}
    assert s["phase"] == "movement" and s["turn"] == 1 and s["attacking"] == "home"
    assert s["movement"]["spent"] == {"home": 2, "away": 0} and s["movement"]["defender_may_spend"] == 2
    assert s["clock"]["half"]["elapsed_s"] == 12.0 and s["clock"]["phase"]["elapsed_s"] == 12.0
    assert s["ball"] == {"square": [12, 11], "holder": "home#11", "control": "loose", "no_touch": None}
    players = {p["player"]: p for p in s["players"]}
    assert players["home#2"]["square"] == [6, 3] and players["home#2"]["moved_points"] == 2
    assert players["home#1"]["goalkeeper"] and players["home#12"]["where"] == "bench"


def test_requests_name_the_coach_and_what_to_do():
    m = new_match()
    req = m.pending()[0]
    assert req.kind == "choice" and req.team is None and req.options == ("home", "away")
    toss(m)
    req = m.pending()[0]
    assert req.id == "kick_off" and req.team is Team.HOME and "kick off" in req.text
    m = to_turn_two()
    scene(m, {11: (10, 10), 7: (18, 10)}, {**DEEP, 4: (13, 11)}, ball=(10, 10), holder=H(11))
    assert m.pending()[0].id == "shoot"
    m.submit(c.Kick(H(11), (18, 10)))
    req = m.pending()[0]
    assert req.id == "intercept" and req.team is Team.AWAY
    m.submit(c.Intercept(A(4), (13, 10)))
    req = m.pending()[0]
    assert req.kind == "dice" and req.dice.owner is Team.AWAY and req.to_json()["dice"] == "1d6"
    assert "needs 5+" in req.text and "-2 more than 2 squares" in req.text


def test_log_lines_for_the_tablet():
    m = to_turn_two()
    scene(m, {11: (26, 10)}, {}, ball=(26, 10), holder=H(11))
    m.submit(c.Kick(H(11), (30, 10)))
    from fussball_liga_kit import die
    die(m, Team.HOME, 6)
    rules = m.ruleset
    state = rules.initial_state()
    lines = []
    for e in m.events:
        line = rules.log_line(state, e)
        if line:
            lines.append(line)
        state = rules.evolve(state, e)
    assert "home#11: shot (26, 10) -> (30, 10)" in lines
    assert "goal shot from 4 squares rolled 6: GOAL" in lines and "GOAL for Home (home#11)" in lines
    assert "--- 1st half ---" in lines and "Turn 2: Home attacks" in lines


def test_a_choice_refused_when_it_is_not_the_answer():
    m = new_match()
    import pytest
    from companion.errors import RuleViolation
    with pytest.raises(RuleViolation, match="not an answer"):
        m.submit(Choose("c1", "draw"))
    with pytest.raises(RuleViolation, match="not pending"):
        m.submit(Choose("c9", "home"))
