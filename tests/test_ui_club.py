"""The app's side of a club (ui/club.py), without a window: the outbox's state in a coach's
words, both coaches' confirmation, the next pairing at this table, and the desk's thread
against a real club server on loopback (joined by its link, fed a journal, the result signed
once both coaches said it is right). No sleeps: the desk is waited for by its own queue."""

from __future__ import annotations

import json

import pytest

from companion.club.client import Unreachable, Waiting, urllib_transport
from companion.club.keys import join_link
from tests.club_kit import Club, http, match_journal
from ui.club import ClubDesk, ClubState, Pairing, next_pairing, queue_words, result_words, status_words


def row(path="/m/a.sqlite", sent=10, last=10, failures=0, next_try=0.0, refused="", result=False, result_sent=False):
    return Waiting(path, "m", sent, last, failures, next_try, refused, result, result_sent)


def test_the_queue_in_words():
    assert queue_words([], 100.0) == "Nothing to send yet: matches are sent while they are played"
    assert queue_words([row()], 100.0) == "All sent"
    assert queue_words([row(sent=3), row(path="b", sent=0), row(path="c")], 100.0) == "2 matches waiting to send"
    assert queue_words([row(sent=3)], 100.0) == "1 match waiting to send"
    offline = [row(sent=3, failures=2, next_try=140.0), row(path="b", sent=0, failures=1, next_try=300.0)]
    assert queue_words(offline, 100.0) == "The club cannot be reached: trying again in 40 s (2 matches waiting to send)"
    assert queue_words(offline, 140.0).startswith("The club cannot be reached: trying again now")
    assert "in 5 min" in queue_words([row(sent=0, failures=8, next_try=400.0)], 100.0)
    refused = queue_words([row(), row(path="b", refused="the club refused it (409): a fork at seq 12")], 100.0)
    assert refused == "Nothing else to send. The club refused 1 match: a fork at seq 12"
    broken = queue_words([row(refused="/data/matches/x.sqlite: holds no chained events to publish")], 100.0)
    assert broken == "Nothing else to send. The club refused 1 match: holds no chained events to publish"
    # a confirmed result not sent yet keeps its match waiting
    assert queue_words([row(result=True)], 100.0) == "1 match waiting to send"


def test_settings_line_with_no_club_is_one_short_sentence_and_joined_names_the_club():
    assert status_words(ClubState(ready=True), 0.0) == "This tablet is in no club."
    joined = ClubState(joined=True, server="http://192.168.1.20:8790", name="Table 3", waiting=(row(),))
    assert status_words(joined, 0.0) == 'In the club at 192.168.1.20:8790 as "Table 3". All sent.'
    assert status_words(ClubState(busy="Joining the club..."), 0.0) == "Joining the club..."


def test_both_coaches_confirm_before_the_result_is_signed():
    teams = {"home": "Rovers", "away": "Athletic"}
    path = "/tmp/x/match.sqlite"
    nobody = ClubState(joined=True)
    assert result_words(nobody, path, teams, 0.0).startswith("For the club's league, both coaches confirm")
    one = ClubState(joined=True, agreed=frozenset({(path, "home")}))
    assert result_words(one, path, teams, 0.0) == "Rovers' coach confirmed. Athletic's coach: is the result right?"
    other = ClubState(joined=True, agreed=frozenset({(path, "away")}))
    assert result_words(other, path, teams, 0.0).startswith("Athletic's coach confirmed. Rovers' coach")
    signed = ClubState(joined=True, waiting=(row(path=path, result=True),))
    assert result_words(signed, path, teams, 0.0) == "Result confirmed by both coaches; sending it to the club..."
    offline = ClubState(joined=True, waiting=(row(path=path, result=True, failures=1, next_try=40.0),))
    assert result_words(offline, path, teams, 0.0) == ("Result confirmed by both coaches; not sent yet: the club "
                                                       "cannot be reached. This tablet keeps trying by itself.")
    sent = ClubState(joined=True, waiting=(row(path=path, result=True, result_sent=True),))
    assert "sent to the club" in result_words(sent, path, teams, 0.0)


SEASON = {"name": "Autumn League", "game": "fublet", "starts": "2026-09-01", "rounds": [
    {"round": 1, "games": [{"sitting": 1, "table": "Table 1", "home": "A", "away": "B", "result": {"score": "1-0"}},
                           {"sitting": 1, "table": "Table 2", "home": "C", "away": "D", "result": None}]},
    {"round": 2, "games": [{"sitting": 1, "table": "Table 1", "home": "Rovers", "away": "Athletic", "result": None}]},
    {"round": 3, "games": [{"sitting": 1, "table": "Table 1", "home": "A", "away": "C", "result": None}]}]}


def test_the_next_pairing_is_the_earliest_open_game_at_this_table():
    found = next_pairing([SEASON], "Table 1")
    assert found == Pairing("Rovers", "Athletic", "Autumn League", "fublet", 2)
    assert found.words == "Next at this table: Rovers v Athletic (Autumn League, round 2)"
    assert next_pairing([SEASON], "Table 9") is None
    cup = {"name": "Cup", "game": "fublet", "starts": "2026-10-01", "rounds": [
        {"round": 1, "games": [{"table": "Table 9", "home": "A", "away": None, "bye": True, "winner": None},
                               {"table": "Table 9", "home": "B", "away": "C", "bye": False, "winner": None}]}]}
    assert next_pairing([SEASON, cup], "Table 9") == Pairing("B", "C", "Cup", "fublet", 1)


@pytest.fixture
def club(tmp_path):
    club = Club(tmp_path / "club")
    yield club
    club.stop()


class Net:
    def __init__(self) -> None:
        self.down = False

    def __call__(self, method, url, body, headers):
        if self.down:
            raise Unreachable(f"{url}: cannot reach the club (network is unreachable)")
        return urllib_transport(method, url, body, headers)


def test_the_desk_joins_by_the_link_sends_a_match_and_its_result_once_both_coaches_confirm(tmp_path, club):
    posted: list[ClubState] = []
    net = Net()
    desk = ClubDesk(tmp_path / "tablet", posted.append, transport=net, poll_s=0.2)
    try:
        assert desk.wait()
        assert desk.state.ready and not desk.state.joined
        desk.join("http://nowhere/no-link", "Table 3")
        assert desk.wait()
        assert "not a club's join link" in desk.state.problem and not desk.state.joined
        desk.join(join_link(club.url, "wrong-token"), "Table 3")
        assert desk.wait()
        assert "refused to let this tablet join" in desk.state.problem
        desk.join(join_link(club.url, club.ledger.join_token), "  Table   3 ")
        assert desk.wait()
        assert desk.state.joined and desk.state.name == "Table 3" and desk.state.problem == ""
        assert any(s.busy == "Joining the club..." for s in posted)

        journal = match_journal(tmp_path, "fublet")
        net.down = True
        desk.journal_grew(str(journal))
        assert desk.wait()
        assert queue_words(desk.state.waiting, 0.0).startswith("The club cannot be reached")
        net.down = False
        desk.agree(str(journal), "home")
        assert desk.wait()
        teams = {"home": "Rovers", "away": "Athletic"}
        assert not desk.state.row(str(journal)).result                  # one coach is not enough
        assert result_words(desk.state, str(journal), teams, 0.0).startswith("Rovers' coach confirmed")
        desk.agree(str(journal), "away")
        assert desk.wait()
        assert desk.state.row(str(journal)).result                      # signed, sent now: confirm says now
        assert desk.state.row(str(journal)).result_sent and desk.state.row(str(journal)).done
        assert "sent to the club" in result_words(desk.state, str(journal), teams, 0.0)
        tables = club.get("/tables").json["tables"]
        assert len(tables) == 1 and tables[0]["confirmed"] is True
        league = club.get("/league").json
        rows = league["games"]["fublet"]["table"]
        assert [r["played"] for r in rows] == [1, 1] and league["unconfirmed"] == []   # counted, once
    finally:
        desk.close()
    # A restart of the tablet: the desk opens the same outbox, still in the club, all sent.
    again = ClubDesk(tmp_path / "tablet", transport=net, poll_s=0.2)
    try:
        assert again.wait()
        assert again.state.joined and queue_words(again.state.waiting, 0.0) == "All sent"
        again.leave()
        assert again.wait()
        assert not again.state.joined and status_words(again.state, 0.0) == "This tablet is in no club."
    finally:
        again.close()


def test_the_desk_finds_the_next_pairing_for_its_table(tmp_path):
    club = Club(tmp_path / "club")
    organiser = {"Authorization": f"Bearer {club.ledger.organiser_token}", "Content-Type": "application/json"}
    body = {"name": "Autumn League", "game": "fublet", "teams": ["Rovers", "Athletic", "Rangers", "United"],
            "tables": ["Table 1", "Table 2"], "starts": "2026-09-01"}
    assert http("POST", club.url + "/seasons", json.dumps(body).encode(), organiser).status == 200
    desk = ClubDesk(tmp_path / "tablet", poll_s=0.2)
    try:
        desk.join(join_link(club.url, club.ledger.join_token), "Table 2")
        assert desk.wait()
        pairing = desk.state.pairing
        assert pairing is not None and pairing.season == "Autumn League" and pairing.round == 1
        assert pairing.words.startswith("Next at this table: ") and pairing.game == "fublet"
        # a Swiss tournament at another table: the desk finds it for a tablet named after it
        swiss = {"name": "Weekend Swiss", "game": "fussball_liga", "teams": ["A", "B", "C", "D"],
                 "tables": ["Table 7"], "rounds": 3, "starts": "2026-01-01"}
        assert http("POST", club.url + "/swiss", json.dumps(swiss).encode(), organiser).status == 200
        desk.leave()
        desk.join(join_link(club.url, club.ledger.join_token), "Table 7")
        assert desk.wait()
        assert desk.state.name == "Table 7"       # joined again under another name: renamed at the club
        found = desk.state.pairing
        assert found is not None and found.season == "Weekend Swiss" and found.round == 1
        assert {found.home, found.away} <= {"A", "B", "C", "D"} and found.game == "fussball_liga"
        desk.rename("  Table  2 ")                # Settings' Rename: the pairing follows the name
        assert desk.wait()
        assert (desk.state.name, desk.state.rename_problem, desk.state.renames) == ("Table 2", "", 1)
        assert desk.state.pairing is not None and desk.state.pairing.season == "Autumn League"
        other = ClubDesk(tmp_path / "tablet-7", poll_s=0.2)
        try:
            other.join(join_link(club.url, club.ledger.join_token), "Table 7")
            assert other.wait()
            other.rename("table 2")               # another tablet's name: refused, said, nothing changed
            assert other.wait()
            assert other.state.rename_problem == ('The club refused the new name: another tablet of the club is '
                                                  'called "Table 2": choose another name.')
            assert other.state.name == "Table 7" and other.state.renames == 1 and other.state.problem == ""
        finally:
            other.close()
    finally:
        desk.close()
        club.stop()
    desk = ClubDesk(tmp_path / "tablet", poll_s=0.2)   # the club gone: a quiet miss, never a hang
    try:
        desk.look_for_pairing()
        assert desk.wait(60)
        assert desk.state.pairing is None and desk.state.joined
        desk.rename("Table 9")
        assert desk.wait(60)
        assert desk.state.rename_problem.startswith('The club cannot be reached: this tablet is still called "Table 2"')
        assert desk.state.name == "Table 2"
    finally:
        desk.close()


def test_a_step_undone_after_both_confirmed_drops_the_signed_result_and_asks_again(tmp_path, club):
    from companion.match import Match

    net = Net()
    now = [1_000.0]
    desk = ClubDesk(tmp_path / "tablet", transport=net, poll_s=0.2, clock=lambda: now[0])
    try:
        desk.join(join_link(club.url, club.ledger.join_token), "Table 1")
        journal = str(match_journal(tmp_path, "fublet"))
        net.down = True
        desk.journal_grew(journal)
        desk.agree(journal, "home")
        desk.agree(journal, "away")
        assert desk.wait()
        assert desk.state.row(journal).result and not desk.state.row(journal).result_sent
        match = Match.open(journal)
        assert match.undo(1)                      # a coach takes the last step back: no longer that result
        match.close()
        net.down = False
        now[0] += 3_600                           # the backoff is over (the clock is the test's)
        desk.journal_grew(journal)
        assert desk.wait()
        row = desk.state.row(journal)
        assert not row.refused and not row.result and row.sent == row.last_seq   # the events went, no result
        assert desk.state.sides_agreed(journal) == set()                         # both are asked again
        assert club.get("/tables").json["tables"][0]["confirmed"] is False
    finally:
        desk.close()


def test_the_clubs_qr_code_is_read_from_a_frame_and_a_frame_without_one_is_bounded():
    import io

    import cv2
    import numpy as np
    import segno

    from ui.club_scan import first_join_link, join_link_in

    link = join_link("http://192.168.1.20:8790", "3q8R-token_x")
    png = io.BytesIO()
    segno.make(link, error="m").save(png, kind="png", scale=8, border=4)
    image = cv2.imdecode(np.frombuffer(png.getvalue(), np.uint8), cv2.IMREAD_COLOR)
    frame = np.full((480, 640, 3), 200, np.uint8)      # the printed code held in front of the camera
    frame[40:40 + image.shape[0], 100:100 + image.shape[1]] = image
    assert join_link_in(frame) == link
    other = io.BytesIO()
    segno.make("https://example.org/menu", error="m").save(other, kind="png", scale=8, border=4)
    assert join_link_in(cv2.imdecode(np.frombuffer(other.getvalue(), np.uint8), cv2.IMREAD_COLOR)) == ""
    blank = np.zeros((120, 160, 3), np.uint8)
    looked = []

    def frames():
        while True:                                     # a camera that never shows a code
            looked.append(1)
            yield blank
    assert first_join_link(frames(), max_frames=7) == ""
    assert len(looked) == 7
    assert first_join_link(iter([None, blank, frame, blank])) == link


def test_a_tablet_in_no_club_writes_nothing_and_a_damaged_outbox_is_said_not_fatal(tmp_path):
    desk = ClubDesk(tmp_path / "tablet", poll_s=0.2)
    try:
        desk.journal_grew(str(tmp_path / "some.sqlite"))
        assert desk.wait()
        assert desk.state.ready and not desk.state.joined
        assert not (tmp_path / "tablet").exists()          # no key, no outbox until it joins
    finally:
        desk.close()
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "outbox.sqlite").write_bytes(b"not a database at all" * 100)
    desk = ClubDesk(tmp_path / "bad", poll_s=0.2)
    try:
        assert desk.wait()
        assert desk.state.ready and "cannot be opened" in desk.state.problem
        assert status_words(desk.state, 0.0).startswith("The club's data on this tablet cannot be opened")
    finally:
        desk.close()


def test_what_waited_when_the_app_closed_is_sent_after_it_starts_again(tmp_path, club):
    net = Net()
    desk = ClubDesk(tmp_path / "tablet", transport=net, poll_s=0.2)
    try:
        desk.join(join_link(club.url, club.ledger.join_token), "Table 1")
        journal = str(match_journal(tmp_path, "fublet"))
        net.down = True
        desk.journal_grew(journal)
        assert desk.wait()
        assert queue_words(desk.state.waiting, 0.0).endswith("(1 match waiting to send)")
    finally:
        desk.close()                                    # the app closed, the club out of reach
    net.down = False
    now = [10_000_000_000.0]                            # long after the backoff (the test's clock)
    again = ClubDesk(tmp_path / "tablet", transport=net, poll_s=0.2, clock=lambda: now[0])
    try:
        assert again.wait()                             # no journal grew: the outbox on disk is enough
        assert queue_words(again.state.waiting, now[0]) == "All sent"
        assert club.get("/tables").json["tables"][0]["events"] == again.state.row(journal).last_seq
    finally:
        again.close()
