"""Undo and redo with states kept only at checkpoints (every CHECKPOINT-th batch): after any
undo or redo the match's state equals the fold of the events that remain active, on a full
match of each game, at every step and across every checkpoint boundary."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import match as match_module
from companion.football_leader.rules import FootballLeaderRules
from companion.fublet.rules import FubletRules
from companion.fussball_liga.rules import FussballLigaRules
from companion.futboard.rules import FutboardRules
from companion.jsonl import read_file
from companion.match import Match

DATA = Path(__file__).parent / "data"
GAMES = [
    ("fublet", FubletRules),
    ("football_leader", FootballLeaderRules),
    ("fussball_liga", FussballLigaRules),
    ("futboard", FutboardRules),
]


def folds_by_batch(rules, events) -> list:
    """The state after each batch, folded one event at a time (the reference: no checkpoints)."""
    states, state, batch = [rules.initial_state()], rules.initial_state(), None
    for event in events:
        if event.batch != batch and batch is not None:
            states.append(state)
        batch = event.batch
        state = rules.evolve(state, event)
    states.append(state)
    return states


@pytest.fixture(params=GAMES, ids=[g for g, _ in GAMES])
def full(request):
    game, rules_cls = request.param
    events = read_file(DATA / f"{game}_full_match.jsonl").events
    rules = rules_cls()
    return rules, events, folds_by_batch(rules, events)


@pytest.mark.parametrize("checkpoint", [match_module.CHECKPOINT, 5])
def test_every_undo_and_redo_gives_the_fold_of_what_remains(full, checkpoint, monkeypatch):
    monkeypatch.setattr(match_module, "CHECKPOINT", checkpoint)
    rules, events, expected = full
    m = Match.from_events(rules, events)
    batches = len(expected) - 1
    assert batches > 2 * checkpoint  # the match crosses several checkpoints
    starts = sorted({e.batch for e in events})
    counts = [sum(1 for e in events if e.batch < b) for b in starts] + [len(events)]  # events in n batches
    assert m.state == expected[-1]
    for n in range(batches - 1, 0, -1):  # one step at a time down to the match's creation
        assert m.undo() == 1
        assert m.state == expected[n], f"after undo to {n} batches"
        assert len(m.events) == counts[n]
    assert m.undo() == 0 and m.can_undo == 0
    for n in range(2, batches + 1):
        assert m.redo() == 1
        assert m.state == expected[n], f"after redo to {n} batches"
    assert m.redo() == 0


@pytest.mark.parametrize("checkpoint", [match_module.CHECKPOINT, 5])
def test_multi_step_undo_and_redo_across_checkpoints(full, checkpoint, monkeypatch):
    monkeypatch.setattr(match_module, "CHECKPOINT", checkpoint)
    rules, events, expected = full
    m = Match.from_events(rules, events)
    batches = len(expected) - 1
    n = batches
    for undo, redo in [(1, 0), (checkpoint, 1), (2 * checkpoint + 3, checkpoint), (checkpoint - 1, 0),
                       (3, 2 * checkpoint), (checkpoint + 1, 0)]:
        n -= m.undo(undo)
        assert m.state == expected[n]
        n += m.redo(redo)
        assert m.state == expected[n]
    # The active events replayed afresh give the same state; a further undo still folds right.
    assert m.can_redo
    assert Match.from_events(rules, m.events).state == m.state
    n -= m.undo(checkpoint + 2)
    assert m.state == expected[n]


def test_a_reopened_journal_undoes_across_checkpoints(tmp_path):
    """Through the journal: undo many steps, reopen, the state and redo are as before."""
    rules = FubletRules()
    events = read_file(DATA / "fublet_full_match.jsonl").events
    expected = folds_by_batch(rules, events)
    from companion.journal import Journal

    path = tmp_path / "m.sqlite"
    journal = Journal.create(path, "fublet")
    batches: dict[int, list] = {}
    for e in events:
        batches.setdefault(e.batch, []).append(e)
    for b in batches.values():
        journal.append(b)
    journal.close()
    m = Match.open(path)
    steps = match_module.CHECKPOINT + 7
    assert m.undo(steps) == steps
    n = len(expected) - 1 - steps
    assert m.state == expected[n]
    m.close()
    m = Match.open(path)
    assert m.state == expected[n] and m.can_redo == steps
    assert m.redo(3) == 3 and m.state == expected[n + 3]
    assert m.undo(10) == 10 and m.state == expected[n - 7]
    m.close()
