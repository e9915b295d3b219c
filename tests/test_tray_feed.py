"""Rolls from every source into a real Fublet match through the feed: accepted rolls are
journaled with their device; rolls that do not fit are refused by the rules core's own
message, never retried or guessed; a tray roll already journaled is not counted twice.
Then the whole chain over a pty: simulated tray, session, feed, match."""

from __future__ import annotations

import queue

import pytest

from companion.dice import Die, DieKind, DieResult, Roll
from companion.errors import DataFileError
from companion.events import Source
from companion.fublet import commands as c
from companion.fublet.components import Action
from companion.journal import Journal
from companion.match import Match
from companion.ruleset import Request
from companion.teams import Team
from firmware_bridge.feed import Feed, Refusal
from firmware_bridge.notices import RollReceived, TrayConnected
from firmware_bridge.owners import FUBLET, DiceOwners
from firmware_bridge.session import TraySession
from firmware_bridge.sim import TraySim
from firmware_bridge.sources import EntryError, KeypadSource, SoftwareSource, colours_for, parse_faces

from fublet_kit import A, fixed_match, to_first_round

WAIT = 20.0


def awaiting_away_pass(journal=None) -> Match:
    """Away's #8 has declared a short pass: the rules wait for Away's 2d10."""
    m = fixed_match(journal=journal)
    to_first_round(m)
    m.submit(c.Declare(A(8), Action.SHORT_PASS, target_ps=(9, 6)))
    [request] = m.pending()
    assert request.kind == "dice" and request.dice.describe() == "2d10" and request.team is Team.AWAY
    return m


def tray_roll(owner: Team | None, *faces: int, kind=DieKind.D10, label="tray T boot=00000001#5") -> Roll:
    colours = ("black", "white")
    return Roll(tuple(DieResult(Die(kind, colours[i], owner), f) for i, f in enumerate(faces)), Source.TRAY, label)


class Seen:
    def __init__(self) -> None:
        self.refused: list[Refusal] = []
        self.accepted: list[Roll] = []
        self.other: list = []

    def feed(self, match: Match, notices: queue.Queue) -> Feed:
        return Feed(match, notices, on_refused=self.refused.append,
                    on_accepted=lambda roll, events: self.accepted.append(roll), on_notice=self.other.append)


def test_a_tray_roll_that_fits_is_journaled_with_its_device():
    m, q, seen = awaiting_away_pass(), queue.Queue(), Seen()
    q.put(RollReceived(tray_roll(Team.AWAY, 1, 2)))
    assert seen.feed(m, q).pump() == 1
    assert seen.refused == [] and len(seen.accepted) == 1
    rolled = [e for e in m.events if e.source is Source.TRAY]
    assert len(rolled) == 1 and rolled[0].payload.roll.device == "tray T boot=00000001#5"


@pytest.mark.parametrize("roll, words", [
    (tray_roll(None, 3, kind=DieKind.D8), ["needs 2d10", "1d8"]),
    (tray_roll(Team.AWAY, 3), ["needs 2d10", "1d10"]),
    (tray_roll(Team.HOME, 1, 2), ["Away's roll", "Home"]),
], ids=["wrong kind", "wrong count", "the other coach's dice"])
def test_a_roll_that_does_not_fit_is_refused_with_the_rules_message(roll, words):
    m, q, seen = awaiting_away_pass(), queue.Queue(), Seen()
    before = len(m.events)
    q.put(RollReceived(roll))
    seen.feed(m, q).pump()
    [refusal] = seen.refused
    assert refusal.roll == roll and seen.accepted == []
    for word in words:
        assert word in refusal.message
    assert len(m.events) == before and m.pending()[0].team is Team.AWAY  # nothing changed, still waiting


def test_a_tray_roll_already_in_the_journal_is_not_counted_twice(tmp_path):
    path = tmp_path / "match.sqlite"
    m = awaiting_away_pass(Journal.create(path, "fublet"))
    q, seen = queue.Queue(), Seen()
    q.put(RollReceived(tray_roll(Team.AWAY, 1, 2)))
    seen.feed(m, q).pump()
    m.close()
    # The app restarts before the tray heard the ACK: the tray sends the same roll again.
    resumed = Match.open(path)
    events = len(resumed.events)
    q.put(RollReceived(tray_roll(Team.AWAY, 1, 2)))
    seen.feed(resumed, q).pump()
    assert len(resumed.events) == events and seen.refused == [] and len(seen.accepted) == 1
    resumed.close()


def test_other_notices_go_to_on_notice_and_pump_can_wait():
    m, q, seen = awaiting_away_pass(), queue.Queue(), Seen()
    feed = seen.feed(m, q)
    assert feed.pump(block=True, timeout=0.01) == 0
    q.put(TrayConnected("p", "T", "1", "00000001", ()))
    assert feed.pump(block=True, timeout=WAIT) == 1 and seen.other == [TrayConnected("p", "T", "1", "00000001", ())]


def test_a_roll_is_kept_when_submitting_fails_for_another_reason():
    m, q, seen = awaiting_away_pass(), queue.Queue(), Seen()
    feed = seen.feed(m, q)
    real = m.submit
    calls = []

    def flaky(command, source):
        calls.append(command)
        if len(calls) == 1:
            raise OSError("disk full")
        return real(command, source)

    m.submit = flaky
    q.put(RollReceived(tray_roll(Team.AWAY, 1, 2)))
    with pytest.raises(OSError):
        feed.pump()
    assert feed.pump() == 1 and len(seen.accepted) == 1


# --- keypad and software dice ----------------------------------------------------------------------------

def test_keypad_answers_the_request_it_was_typed_for():
    m, q, seen = awaiting_away_pass(), queue.Queue(), Seen()
    request = m.pending()[0]
    roll = KeypadSource(q).enter(request, "4 0")
    assert [d.die for d in roll.dice] == [Die(DieKind.D10, "black", Team.AWAY), Die(DieKind.D10, "white", Team.AWAY)]
    seen.feed(m, q).pump()
    assert seen.accepted == [roll] and seen.refused == []
    assert [e.payload.request for e in m.events if getattr(e.payload, "roll", None) == roll] == [request.id]


@pytest.mark.parametrize("text, faces", [("4 0", (4, 0)), ("4,0", (4, 0)), ("40", (4, 0)), (" 0 0 ", (0, 0))])
def test_keypad_reads_faces(text, faces):
    assert parse_faces(text, (DieKind.D10, DieKind.D10)) == faces


@pytest.mark.parametrize("text, kinds, words", [
    ("", (DieKind.D10, DieKind.D10), ["nothing typed", "tens first"]),
    ("4 0 1", (DieKind.D10, DieKind.D10), ["3 faces typed", "type 2 faces"]),
    ("100", (DieKind.D10, DieKind.D10), ["1 face typed"]),
    ("4 x", (DieKind.D10, DieKind.D10), ["'x' is not a face"]),
    ("4 12", (DieKind.D10, DieKind.D10), ["2nd die", "0..9, not 12"]),
    ("9", (DieKind.D8,), ["1st die", "1..8, not 9"]),
    ("0", (DieKind.D6,), ["1..6, not 0"]),
    ("1112", (DieKind.D12, DieKind.D12), ["1 face typed"]),  # two-digit dice need a separator
])
def test_keypad_says_what_to_type_instead(text, kinds, words):
    with pytest.raises(EntryError) as caught:
        parse_faces(text, kinds)
    for word in words:
        assert word in str(caught.value)


def test_keypad_refuses_a_request_that_wants_no_dice():
    request = Request("declare", "action", Team.HOME, "Home: declare an action")
    with pytest.raises(EntryError, match="asks for no dice"):
        KeypadSource(queue.Queue()).enter(request, "1")


def test_software_dice_are_seeded_journaled_and_resume():
    m, q, seen = awaiting_away_pass(), queue.Queue(), Seen()
    source = SoftwareSource(q, seed=42)
    roll = source.roll_for(m.pending()[0])
    assert roll.device == "software seed=42#1" and roll.source is Source.SOFTWARE
    seen.feed(m, q).pump()
    assert seen.accepted == [roll]
    again = SoftwareSource.resume(queue.Queue(), m, seed=42)
    assert again.dice.count == 1
    assert SoftwareSource.resume(queue.Queue(), m, seed=7).dice.count == 0


def test_colours_follow_the_percentile_convention():
    assert colours_for((DieKind.D10, DieKind.D10)) == ("black", "white")
    assert colours_for((DieKind.D8,)) == ("green",)
    assert colours_for((DieKind.D12,)) == ("",)


# --- the dice file --------------------------------------------------------------------------------------

def test_the_shipped_example_file_is_the_default(tmp_path):
    from pathlib import Path
    import json

    shipped = Path(__file__).resolve().parents[1] / "firmware_bridge" / "fublet_dice.json"
    assert json.loads(shipped.read_text(encoding="utf-8")) == FUBLET
    assert DiceOwners.load(shipped).dice == DiceOwners.fublet().dice


@pytest.mark.parametrize("content, words", [
    ("{", ["not valid JSON", "line 1"]),
    ("[]", ["expected a JSON object"]),
    ('{"version": 2}', ["version", "expected 1"]),
    ('{"version": 1, "colours": {}}', ["colours", "unknown field"]),
    ('{"version": 1, "dice": {"Home Black": {"owner": "home"}}}', ["dice/Home Black", "lower-case word"]),
    ('{"version": 1, "dice": {"hb": {"colour": "black"}}}', ["dice/hb", "owner", "missing"]),
    ('{"version": 1, "dice": {"hb": {"owner": "hom"}}}', ["dice/hb", "owner", "'hom'"]),
    ('{"version": 1, "dice": {"hb": {"owner": "home", "kind": "d20"}}}', ["dice/hb", "kind", "d20"]),
    ('{"version": 1, "dice": {"hb": {"owner": "home", "size": 3}}}', ["dice/hb", "size", "unknown field"]),
    ('{"version": 1, "trays": {"T-1": "visitors"}}', ["trays/T-1", "'visitors'"]),
])
def test_a_bad_dice_file_names_the_file_the_entry_and_the_problem(tmp_path, content, words):
    path = tmp_path / "dice.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DataFileError) as caught:
        DiceOwners.load(path)
    message = str(caught.value)
    assert str(path) in message
    for word in words:
        assert word in message


def test_a_missing_dice_file_says_so(tmp_path):
    with pytest.raises(DataFileError, match="no such file"):
        DiceOwners.load(tmp_path / "nope.json")


def test_owners_by_die_then_by_tray_and_kind_mismatches_are_reported():
    owners = DiceOwners.from_json({"version": 1, "dice": {"red": {"owner": "home", "kind": "d6"}},
                                   "trays": {"AWAY-TRAY": "away"}}, "t.json")
    assert owners.die("ANY", "red", DieKind.D6) == Die(DieKind.D6, "red", Team.HOME)
    assert owners.die("AWAY-TRAY", "blue", DieKind.D6, "blue") == Die(DieKind.D6, "blue", Team.AWAY)
    assert owners.die("ANY", "red", DieKind.D8) == Die(DieKind.D8, "red", None)  # the file's kind is wrong
    [problem] = owners.check_tray("ANY", {"red": DieKind.D8})
    assert "t.json" in problem and "d6" in problem and "d8" in problem


# --- the whole chain -------------------------------------------------------------------------------------

def test_simulated_tray_to_match_over_a_pty():
    m, seen = awaiting_away_pass(), Seen()
    with TraySim(seed=3) as sim:
        session = TraySession(str(sim.link)).start()
        feed = seen.feed(m, session.notices)
        try:
            assert session.connected.wait(WAIT)
            sim.roll("scatter")              # not what the rules wait for: refused, with their reason
            sim.roll("away", [1, 2])         # Away's pass: accepted
            assert sim.wait_settled(2, WAIT)
            while len(seen.accepted) + len(seen.refused) < 2:
                assert feed.pump(block=True, timeout=WAIT)
        finally:
            session.stop()
    [refused] = seen.refused
    assert "needs 2d10" in refused.message
    [accepted] = seen.accepted
    assert accepted.faces == (1, 2) and {d.die.owner for d in accepted.dice} == {Team.AWAY}
    assert accepted.device.startswith(f"tray {sim.device_id} boot=")


def test_the_tray_source_feeds_the_same_queue_as_the_keypad():
    from firmware_bridge.sources import TraySource

    m, q, seen = awaiting_away_pass(), queue.Queue(), Seen()
    with TraySim(seed=8) as sim:
        tray = TraySource(q, str(sim.link))
        try:
            assert tray.session.connected.wait(WAIT)
            sim.roll("away", [5, 5])
            assert sim.wait_settled(1, WAIT)
        finally:
            tray.close()
    feed = seen.feed(m, q)
    while not seen.accepted:
        assert feed.pump(block=True, timeout=WAIT)
    assert seen.accepted[0].faces == (5, 5) and seen.accepted[0].source is Source.TRAY
