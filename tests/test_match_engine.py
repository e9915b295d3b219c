"""The match engine's semantics (submit, refuse, undo, redo, reopen) on a toy counter game."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.errors import RuleViolation
from companion.events import Source
from companion.journal import Journal
from companion.match import Match
from toy_game import RULESETS, Add, ResetCounter, Start, ToyRules, ToyState


def started(journal: Journal | None = None) -> Match:
    m = Match(ToyRules(), journal)
    m.submit(Start())
    return m


def journal_rows(path: Path) -> list[tuple[int, str, str]]:
    j = Journal.open(path)
    try:
        return [(e.seq, e.type, status) for e, status in j.rows()]
    finally:
        j.close()


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# --- submitting ----------------------------------------------------------------------------------

def test_accepted_command_appends_its_events_as_one_batch():
    m = started()
    events = m.submit(Add(4))
    assert [e.type for e in events] == ["toy.added"]
    events = m.submit(Add(6))
    assert [e.type for e in events] == ["toy.added", "toy.full"]
    assert {e.batch for e in events} == {events[0].seq}
    assert events[1].source is Source.RULES  # derived events always carry the rules source
    assert events[0].source is Source.MANUAL
    assert m.state == ToyState(True, 10, 2, 1)


def test_rejected_command_changes_nothing(tmp_path):
    path = tmp_path / "m.sqlite"
    m = started(Journal.create(path, "toy"))
    m.submit(Add(7))
    state, events, seq = m.state, m.events, m.last_seq
    m.journal.close()
    before = digest(path)
    m.journal = Journal.open(path)
    with pytest.raises(RuleViolation, match="would pass 10"):
        m.submit(Add(5))
    assert m.state == state and m.events == events and m.last_seq == seq
    assert m.can_undo == 1 and m.can_redo == 0  # the Add; never the Start
    m.close()
    assert digest(path) == before
    reopened = Match.open(path, RULESETS)
    assert reopened.state == state
    reopened.close()


def test_rejected_command_keeps_redo():
    m = started()
    m.submit(Add(3))
    m.undo()
    with pytest.raises(RuleViolation):
        m.submit(Add(11))
    assert m.can_redo == 1


def test_rules_source_is_refused_for_commands():
    with pytest.raises(ValueError):
        started().submit(Add(1), Source.RULES)


# --- undo and redo ---------------------------------------------------------------------------------

def test_undo_and_redo_any_number_of_steps():
    m = started()
    states = [m.state]
    for n in (1, 2, 3, 4):
        m.submit(Add(n))
        states.append(m.state)
    assert m.undo(3) == 3
    assert m.state == states[1]
    assert m.undo(10) == 1  # only what there is: never the match's creation
    assert m.state == states[0] and m.state.started
    assert m.undo() == 0 and m.can_undo == 0
    assert m.redo(1) == 1
    assert m.state == states[1]
    assert m.redo(99) == 3
    assert m.state == states[-1]
    assert m.redo() == 0


def test_undo_never_undoes_the_creation_of_the_match():
    m = started()
    assert m.can_undo == 0
    assert m.undo() == 0
    assert m.state.started and m.can_redo == 0


def test_new_command_clears_redo():
    m = started()
    m.submit(Add(1))
    m.submit(Add(2))
    m.undo()
    assert m.can_redo == 1
    m.submit(Add(5))
    assert m.can_redo == 0
    assert m.state.total == 6
    assert m.redo() == 0


def test_seq_keeps_growing_after_undo():
    m = started()
    m.submit(Add(1))
    m.undo()
    events = m.submit(Add(2))
    assert events[0].seq == 3  # seq 2 stays used by the undone (now discarded) batch


def test_undo_and_redo_survive_reopening(tmp_path):
    path = tmp_path / "m.sqlite"
    m = started(Journal.create(path, "toy"))
    for n in (1, 2, 3):
        m.submit(Add(n))
    m.undo(2)
    m.close()

    m = Match.open(path, RULESETS)
    assert m.state.total == 1 and m.can_redo == 2 and m.can_undo == 1
    assert m.redo() == 1
    assert m.state.total == 3
    m.close()

    m = Match.open(path, RULESETS)
    assert m.state.total == 3 and m.can_redo == 1
    m.submit(Add(4))  # clears the remaining redo, also on disk
    m.close()
    assert [s for _, _, s in journal_rows(path)] == ["active", "active", "active", "discarded", "active"]

    m = Match.open(path, RULESETS)
    assert m.state.total == 7 and m.can_redo == 0
    m.close()


# --- properties ------------------------------------------------------------------------------------

ops = st.lists(st.one_of(
    st.tuples(st.just("add"), st.integers(min_value=0, max_value=6)),
    st.tuples(st.just("reset"), st.just(0)),
    st.tuples(st.just("undo"), st.integers(min_value=1, max_value=4)),
    st.tuples(st.just("redo"), st.integers(min_value=1, max_value=4)),
), max_size=30)


def play(m: Match, operations) -> None:
    for op, n in operations:
        if op in ("add", "reset"):
            try:
                m.submit(Add(n) if op == "add" else ResetCounter())
            except RuleViolation:  # refused (over the limit, or the start was undone)
                pass
        elif op == "undo":
            m.undo(n)
        else:
            m.redo(n)


@settings(max_examples=150, deadline=None)
@given(ops, st.integers(min_value=0, max_value=40))
def test_undo_then_redo_is_identity(operations, steps):
    m = started()
    play(m, operations)
    state, events, redo = m.state, m.events, m.can_redo
    undone = m.undo(steps)
    assert m.redo(undone) == undone
    assert m.state == state and m.events == events
    assert m.can_redo == redo


@settings(max_examples=150, deadline=None)
@given(ops)
def test_fold_from_scratch_equals_live_state(operations):
    m = started()
    play(m, operations)
    fresh = Match.from_events(ToyRules(), m.events)
    assert fresh.state == m.state
    assert fresh.can_undo == m.can_undo


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops)
def test_reopened_journal_gives_the_same_state(operations):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.sqlite"
        m = started(Journal.create(path, "toy"))
        play(m, operations)
        state, events, can_redo = m.state, m.events, m.can_redo
        m.close()
        reopened = Match.open(path, RULESETS)
        try:
            assert reopened.state == state
            assert reopened.events == events
            assert reopened.can_redo == can_redo
            memory = started()  # the same game without a journal, redone to the end
            play(memory, operations)
            memory.redo(can_redo)
            assert reopened.redo(can_redo) == can_redo
            assert reopened.state == memory.state
        finally:
            reopened.close()
