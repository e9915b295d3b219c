"""Every state a journal passes through can be shown: the summary (and its typed reading for
the screens), the pending requests and the open actions of each game answer for the state after every single event of the four
shipped full matches, not only after each command (a screen or a report may fold a journal
event by event, and a crash may leave one mid-decision)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games import ruleset_for
from companion.jsonl import read_file
from companion.view import summary_of

DATA = Path(__file__).parent / "data"
MATCHES = {"fublet": "fublet_full_match.jsonl", "futboard": "futboard_full_match.jsonl",
           "football_leader": "football_leader_full_match.jsonl",
           "fussball_liga": "fussball_liga_full_match.jsonl"}


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_every_state_between_events_is_summarised(game):
    rules = ruleset_for(game)
    state = rules.initial_state()
    events = read_file(DATA / MATCHES[game]).events
    assert len(events) > 100
    for i, event in enumerate(events):
        state = rules.evolve(state, event)
        for ask in (rules.summary, rules.pending, rules.open_actions, lambda s: summary_of(rules.summary(s))):
            try:
                ask(state)
            except Exception as exc:   # named with the event, so the failing state is found
                pytest.fail(f"{game}: {ask.__name__} after event {i} ({event.type}): {type(exc).__name__}: {exc}")


def test_a_football_leader_turn_whose_ball_was_just_lost_asks_for_the_rest_of_the_turn():
    # Event 163 of the shipped match: the carrier's ball is lost (BallSet to nobody) while the
    # turn still reads "carrier moved"; the stage moves on only with the next event.
    rules = ruleset_for("football_leader")
    state = rules.initial_state()
    events = read_file(DATA / MATCHES["football_leader"]).events
    for event in events[:163]:
        state = rules.evolve(state, event)
    assert state.ball is None and state.turn is not None and state.turn.stage.value == "carrier_moved"
    (request,) = rules.pending(state)
    assert request.id == "turn" and "extra movement" in request.text
    assert rules.summary(state)["turn"]["stage"] == "carrier_moved"
