"""The tablet's outbox (companion/club/client.py) against a real club server: nothing waits on
the network, what cannot be sent is tried again with a growing backoff (driven by a clock the
test sets, never by waiting), and the queue survives a restart of the tablet."""

from __future__ import annotations

import json
import random

import pytest

from companion.club.client import MAX_BACKOFF_S, ClubError, Outbox, Unreachable, urllib_transport
from companion.club.keys import TabletKey
from companion.journal import Journal
from companion.jsonl import read_file
from tests.club_kit import DATA, Club, match_journal, wire_rows


class Network:
    """The real transport, with a switch that takes the network away, and a log of uploads."""

    def __init__(self) -> None:
        self.down = False
        self.calls: list[tuple[str, str, int]] = []

    def __call__(self, method, url, body, headers):
        if self.down:
            self.calls.append((method, url, -1))
            raise Unreachable(f"{url}: cannot reach the club (network is unreachable)")
        events = len(json.loads(body).get("events", [])) if body else 0
        self.calls.append((method, url, events))
        return urllib_transport(method, url, body, headers)


@pytest.fixture
def club(tmp_path):
    club = Club(tmp_path / "club")
    yield club
    club.stop()


@pytest.fixture
def clock():
    return [1_000.0]


def outbox_at(tmp_path, net, clock, key=None) -> Outbox:
    key = key or TabletKey.load_or_create(tmp_path / "tablet" / "key.pem")
    return Outbox(tmp_path / "tablet" / "outbox.sqlite", key, net, clock=lambda: clock[0], rng=random.Random(7))


def test_offline_the_outbox_backs_off_survives_a_restart_then_sends_everything(tmp_path, club, clock):
    journal = match_journal(tmp_path, "fublet")
    net = Network()
    outbox = outbox_at(tmp_path, net, clock)
    outbox.join(club.url, club.ledger.join_token, "Table 3")
    net.down = True
    outbox.add(journal)                         # only written down: no call yet
    assert net.calls == [("POST", club.url + "/tablets", 0)]
    left = outbox.send_due()
    assert len(left) == 1 and left[0].failures == 1 and 1_001.0 <= left[0].next_try <= 1_002.0
    tries = len(net.calls)
    clock[0] = left[0].next_try - 0.01
    assert outbox.send_due()[0].failures == 1 and len(net.calls) == tries     # not due yet: not tried
    delays = []
    for _ in range(12):
        clock[0] = outbox.waiting()[0].next_try
        before = clock[0]
        delays.append(outbox.send_due()[0].next_try - before)
    assert delays[0] >= 2.0 and delays[1] >= 4.0 and max(delays) <= MAX_BACKOFF_S   # doubling, capped
    waiting = outbox.waiting()[0].next_try
    outbox.add(journal)                         # the next command's add does not cut the backoff short
    assert outbox.waiting()[0].next_try == waiting
    assert outbox.state_in_words() == "1 match waiting to send"
    outbox.close()

    again = outbox_at(tmp_path, net, clock)     # the tablet restarted: the queue is still there
    assert again.waiting()[0].failures == 13 and again.server == club.url
    net.down = False
    clock[0] = again.waiting()[0].next_try
    assert again.send_due() == []
    match, rows = wire_rows(journal)
    assert club.get(f"/matches/{match}").json["held"] == len(rows)
    assert again.state_in_words() == "nothing waiting to send"
    sent = sum(n for method, url, n in net.calls if url.endswith("/events"))
    assert sent == len(rows)                    # every event once
    again.close()


def test_a_new_outbox_resumes_from_what_the_club_holds(tmp_path, club, clock):
    journal = match_journal(tmp_path, "futboard")
    match, rows = wire_rows(journal)
    key = TabletKey.load_or_create(tmp_path / "tablet" / "key.pem")
    net = Network()
    first = outbox_at(tmp_path, net, clock, key)
    first.join(club.url, club.ledger.join_token, "Table 4")
    first.add(journal)
    assert first.send_due() == []
    first.close()
    (tmp_path / "tablet" / "outbox.sqlite").unlink()   # the outbox lost (a reinstall), the key kept
    net.calls.clear()
    second = outbox_at(tmp_path, net, clock, key)
    second.join(club.url, club.ledger.join_token, "Table 4")
    second.add(journal)
    assert second.send_due() == []
    assert sum(n for _, url, n in net.calls if url.endswith("/events")) == 0   # nothing sent twice
    assert club.get(f"/matches/{match}").json["held"] == len(rows)
    second.close()


def test_the_confirmed_result_goes_after_the_events_and_counts(tmp_path, club, clock):
    journal = match_journal(tmp_path, "fussball_liga")
    outbox = outbox_at(tmp_path, Network(), clock)
    outbox.join(club.url, club.ledger.join_token, "Table 5")
    outbox.confirm(journal)
    assert outbox.send_due() == []
    tables = club.get("/tables").json["tables"]
    assert [(t["game"], t["confirmed"]) for t in tables] == [("fussball_liga", True)]
    assert list(club.get("/league").json["games"]) == ["fussball_liga"]
    outbox.close()


def test_a_result_confirmed_offline_after_every_event_went_is_sent_and_its_backoff_forgotten(tmp_path, club, clock):
    # The live app's order: the events went while the match was played, the network dropped,
    # then both coaches confirmed. Only the result is left to send; once it goes, the row is
    # done with no failure left behind (a stale count would double the next match's first wait).
    journal = match_journal(tmp_path, "fussball_liga")
    net = Network()
    outbox = outbox_at(tmp_path, net, clock)
    outbox.join(club.url, club.ledger.join_token, "Table 6")
    outbox.add(journal)
    assert outbox.send_due() == []
    net.down = True
    outbox.confirm(journal)
    [row] = outbox.send_due()
    assert row.failures == 1 and not row.result_sent
    net.down = False
    clock[0] = row.next_try
    assert outbox.send_due() == []
    [row] = outbox.waiting()
    assert row.done and row.result_sent and row.failures == 0
    assert [t["confirmed"] for t in club.get("/tables").json["tables"]] == [True]
    outbox.close()


def prefix_journal(tmp_path, game: str, upto: int):
    """A journal of the scripted match's first commands, ending at a command's end near ``upto``."""
    raw = read_file(DATA / f"{game}_full_match.jsonl").raw
    end = next(i for i in range(upto, len(raw)) if raw[i].batch == raw[i].seq)
    path = tmp_path / f"{game}-part.sqlite"
    Journal.create_with(path, game, raw[:end]).close()
    return path, raw[end - 1].batch


def test_undo_and_redo_reach_the_club_and_a_finished_match_is_not_needed_to_publish(tmp_path, club, clock):
    journal, last_batch = prefix_journal(tmp_path, "futboard", 100)
    outbox = outbox_at(tmp_path, Network(), clock)
    outbox.join(club.url, club.ledger.join_token, "Table 6")
    outbox.add(journal)
    assert outbox.send_due() == []
    match, _ = wire_rows(journal)
    with Journal.open(journal) as j:
        j.mark_undone(last_batch)
    outbox.add(journal)
    assert outbox.send_due() == []
    held = club.ledger.store.match(match)
    assert held.undone == (last_batch,) and held.status_rev == 1
    with Journal.open(journal) as j:
        j.mark_redone(last_batch)
    outbox.add(journal)
    assert outbox.send_due() == []
    assert club.ledger.store.match(match).undone == () and club.ledger.store.match(match).status_rev == 2
    with pytest.raises(ClubError, match="not finished"):
        outbox.confirm(journal)
    outbox.close()


def test_a_refusal_is_kept_with_its_reason_and_not_retried(tmp_path, club, clock):
    part, _ = prefix_journal(tmp_path, "futboard", 100)
    owner = outbox_at(tmp_path / "a", Network(), clock)
    owner.join(club.url, club.ledger.join_token, "Table 7")
    owner.add(part)
    assert owner.send_due() == []
    net = Network()
    other = outbox_at(tmp_path / "b", net, clock)       # another tablet with the whole of that match
    other.join(club.url, club.ledger.join_token, "Table 8")
    other.add(match_journal(tmp_path, "futboard"))
    assert other.send_due() == []                        # nothing left to try...
    assert "another tablet" in other.waiting()[0].refused   # ...because it was refused, with its reason
    calls = len(net.calls)
    clock[0] += 10_000
    other.send_due()
    assert len(net.calls) == calls
    assert other.state_in_words() == "nothing waiting to send; 1 refused by the club"
    owner.close()
    other.close()
