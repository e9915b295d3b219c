"""Halves ended by the decks, extra time with 25-card decks, and the penalty kick series."""

from __future__ import annotations

import pytest

from companion.errors import RuleViolation
from companion.football_leader import commands as c
from companion.football_leader import events as ev
from companion.football_leader.model import Period, Phase, RestartKind
from companion.teams import Team
from football_leader_kit import (A, C, H, confirm, d12, free_move, lowest_card, new_match, play_out_period, place,
                                 plain_team, to_kick_off)


def plain_match(**options):
    m = new_match(home=plain_team("Home"), away=plain_team("Away"), **options)
    to_kick_off(m)
    return m


def payloads(m, kind):
    return [e.payload for e in m.events if isinstance(e.payload, kind)]


def next_period(m):
    play_out_period(m)
    if m.state.phase is Phase.SET_UP:
        confirm(m)
        m.submit(c.KickOff(m.state.players[H(9)].ref if m.state.restart.team is Team.HOME else A(10)))


def test_a_half_ends_after_both_coaches_played_the_turn_their_last_card_gives_them():
    """2.2: "A player has one turn left in a half when he picks the last card from his deck.
    The half ends when both players have played their last turn." Both decks hold 45 after
    the five-card hands; each turn plays one card and draws one (four in hand: "just one").
    Home kicks off and plays the odd turns: he picks his last card closing turn 89, Away his
    closing turn 90. Home's last turn is 91, Away's is 92, and the half ends after 92."""
    m = plain_match()
    play_out_period(m)
    events = [e.payload for e in m.events]
    lasts = [p for p in events if isinstance(p, ev.LastTurnSet)]
    assert [(p.team, p.turn) for p in lasts] == [(Team.HOME, 91), (Team.AWAY, 92)]
    at = events.index(lasts[0])
    ran_out = next(p for p in events[at:] if isinstance(p, ev.TurnFinished))
    assert (ran_out.team, ran_out.number) == (Team.HOME, 89)
    second = events.index(next(p for p in events if isinstance(p, ev.PeriodStarted) and p.period is
                               Period.SECOND_HALF))
    finished = [(p.team, p.number) for p in events[at:second] if isinstance(p, ev.TurnFinished)]
    assert finished == [(Team.HOME, 89), (Team.AWAY, 90), (Team.HOME, 91), (Team.AWAY, 92)]


def test_when_the_other_deck_has_cards_left_the_half_ends_after_one_more_turn_each():
    """The text is silent on a coach whose deck has not run out: he plays one more turn
    (the one between), and the half ends after the last turn of the coach who ran out (FL11).
    Home plays a movement and an extra movement in his first turn (three in hand: he draws
    two), so his deck runs out closing turn 87; Away still has a card after turn 88."""
    m = plain_match()
    m.submit(free_move(m, Team.HOME))
    m.submit(free_move(m, Team.HOME))   # the extra movement ends the turn
    assert m.state.turn.team is Team.AWAY and m.state.cards[Team.HOME].deck == 43
    play_out_period(m)
    events = [e.payload for e in m.events]
    lasts = [p for p in events if isinstance(p, ev.LastTurnSet)]
    assert [(p.team, p.turn) for p in lasts] == [(Team.HOME, 89)]
    at = events.index(lasts[0])
    second = events.index(next(p for p in events if isinstance(p, ev.PeriodStarted) and p.period is
                               Period.SECOND_HALF))
    finished = [(p.team, p.number) for p in events[at:second] if isinstance(p, ev.TurnFinished)]
    assert finished == [(Team.HOME, 87), (Team.AWAY, 88), (Team.HOME, 89)]


def test_the_second_half_reshuffles_and_the_other_coach_kicks_off():
    m = plain_match()
    play_out_period(m)
    s = m.state
    assert s.period is Period.SECOND_HALF and s.restart.kind is RestartKind.KICK_OFF and s.restart.team is Team.AWAY
    assert {t: (s.cards[t].deck, s.cards[t].hand, s.cards[t].played) for t in Team} == {
        Team.HOME: (45, 5, {}), Team.AWAY: (45, 5, {})}
    confirm(m)
    assert all(p.markers == 0 for p in m.state.players.values())
    m.submit(c.KickOff(A(10)))
    assert m.state.turn.team is Team.AWAY


def test_a_level_match_goes_to_extra_time_with_25_card_decks_then_penalties():
    m = plain_match()
    next_period(m)                      # second half
    next_period(m)                      # extra time, first part
    s = m.state
    assert s.period is Period.EXTRA_FIRST and s.cards[Team.HOME].size == 25 and s.cards[Team.HOME].deck == 20
    assert s.turn.team is Team.HOME     # the first player kicks off again
    next_period(m)
    s = m.state
    assert s.period is Period.EXTRA_SECOND and s.turn.team is Team.AWAY
    shuffles = payloads(m, ev.DeckShuffled)[-2:]
    assert [(p.size, p.fresh) for p in shuffles] == [(25, False), (25, False)]
    play_out_period(m)
    assert m.state.phase is Phase.SHOOTOUT and m.state.shootout_first is Team.HOME


def test_without_extra_time_or_penalties_a_level_match_is_a_draw():
    m = plain_match(extra_time=False, shootout=False)
    next_period(m)
    play_out_period(m)
    assert m.state.result.decided_by == "draw" and m.state.result.winner is None


def test_without_extra_time_a_level_match_goes_to_penalties():
    m = plain_match(extra_time=False)
    next_period(m)
    play_out_period(m)
    assert m.state.phase is Phase.SHOOTOUT


def test_a_winner_at_full_time():
    m = plain_match()
    place(m, H(9), (5, 2))
    m.submit(c.Shoot(C("gold-4-12")))
    d12(m, Team.HOME, 6)
    confirm(m)
    m.submit(c.KickOff(A(10)))
    next_period(m)
    play_out_period(m)
    r = m.state.result
    assert (r.winner, r.home, r.away, r.decided_by) == (Team.HOME, 1, 0, "full time")
    with pytest.raises(RuleViolation, match="the match is over"):
        m.submit(c.EndTurn(Team.HOME))


def shootout_match():
    m = plain_match(extra_time=False)
    next_period(m)
    play_out_period(m)
    return m


def test_the_series_needs_both_orders_and_alternates():
    m = shootout_match()
    with pytest.raises(RuleViolation, match="order of their kickers"):
        m.submit(c.TakeShootoutKick(Team.HOME, C("gold-4-12")))
    with pytest.raises(RuleViolation, match="at least 5"):
        m.submit(c.SetShootoutOrder(Team.HOME, (H(9), H(10))))
    with pytest.raises(RuleViolation, match="different counters"):
        m.submit(c.SetShootoutOrder(Team.HOME, (H(9), H(9), H(10), H(11), A(2))))
    m.submit(c.SetShootoutOrder(Team.HOME, (H(9), H(10), H(11), H(8), H(7))))
    m.submit(c.SetShootoutOrder(Team.AWAY, (A(9), A(10), A(11), A(8), A(7))))
    with pytest.raises(RuleViolation, match="Home's kick"):
        m.submit(c.TakeShootoutKick(Team.AWAY, C("gold-4-12")))
    m.submit(c.TakeShootoutKick(Team.HOME, C("gold-4-12")))
    assert "penalty kick by #9" in m.pending()[0].text and "difficulty 14" in m.pending()[0].text
    d12(m, Team.HOME, 5)
    s = m.state
    assert s.shootout[-1].scored and s.cards[Team.HOME].hand == 5   # a new card after the kick


def kick(m, team, scored):
    m.submit(c.TakeShootoutKick(team, lowest_card(m, team, "gold")))
    d12(m, team, 12 if scored else 1)


def test_the_series_stops_when_one_side_cannot_be_caught():
    m = shootout_match()
    m.submit(c.SetShootoutOrder(Team.HOME, (H(9), H(10), H(11), H(8), H(7))))
    m.submit(c.SetShootoutOrder(Team.AWAY, (A(9), A(10), A(11), A(8), A(7))))
    for _ in range(2):
        kick(m, Team.HOME, True)
        kick(m, Team.AWAY, False)
    kick(m, Team.HOME, True)
    assert m.state.phase is Phase.SHOOTOUT
    kick(m, Team.AWAY, False)                   # 3-0 with two kicks left each
    r = m.state.result
    assert (r.winner, r.decided_by) == (Team.HOME, "penalty kicks")


def test_sudden_death_the_first_to_miss_loses_if_the_other_scores():
    m = shootout_match()
    m.submit(c.SetShootoutOrder(Team.HOME, (H(9), H(10), H(11), H(8), H(7))))
    m.submit(c.SetShootoutOrder(Team.AWAY, (A(9), A(10), A(11), A(8), A(7))))
    for _ in range(5):
        kick(m, Team.HOME, True)
        kick(m, Team.AWAY, True)
    kick(m, Team.HOME, False)
    assert m.state.phase is Phase.SHOOTOUT
    kick(m, Team.AWAY, True)
    assert m.state.result.winner is Team.AWAY
    assert [k.kicker for k in m.state.shootout if k.team is Team.HOME][-1] == H(9)  # the order starts again
