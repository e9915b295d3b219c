"""The club's PostgreSQL store (companion/club/postgres.py) on a real, throwaway PostgreSQL
cluster the test starts itself (initdb and pg_ctl, as an unprivileged user, in a temporary
folder, on a free loopback port): the same checks as on SQLite, and two club servers sharing
one database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.pg_cluster import missing, new_database, throwaway_cluster
from companion.club.folder import open_club
from tests.club_kit import GAMES, Club, Stream, chunks, http, match_journal, wire_rows
from ui.web.club_server import ClubServer

pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[test]')")
pytestmark = pytest.mark.skipif(bool(missing()), reason=missing() or "-")


@pytest.fixture(scope="module")
def cluster():
    with throwaway_cluster() as address:
        yield address


@pytest.fixture
def database(cluster):
    """A fresh database of its own for each test."""
    return new_database(cluster)


class PgClub(Club):
    def __init__(self, folder: Path, database: str) -> None:
        self.folder, self.database = folder, database
        self.ledger = open_club(folder, database)
        self.server = ClubServer(self.ledger, "127.0.0.1", 0)

    def restart(self) -> None:
        self.stop()
        self.ledger = open_club(self.folder, self.database)
        self.server = ClubServer(self.ledger, "127.0.0.1", 0)


def test_the_postgres_store_checks_publishes_confirms_and_keeps_everything(tmp_path, database):
    from tests.test_club_server import result_of

    club = PgClub(tmp_path / "club", database)
    try:
        assert club.ledger.store.version() == 6
        journals = {game: match_journal(tmp_path, game) for game in GAMES}
        tablet = club.tablet()
        for game, journal in journals.items():
            match, rows = wire_rows(journal)
            for part in reversed(chunks(rows, 400)):          # out of order: waits, then fills
                assert tablet.upload(match, part).status == 200
            assert club.get(f"/matches/{match}").json["held"] == len(rows)
            again = tablet.upload(match, rows[:300])
            assert again.status == 200 and again.json["added"] == 0
        match, rows = wire_rows(journals["futboard"])
        forked = dict(rows[9], at="2000-01-01T00:00:00.000000Z")
        assert tablet.upload(match, [forked]).status == 409
        assert [f["seq"] for f in club.ledger.forks()] == [10]
        fublet, _ = wire_rows(journals["fublet"])
        assert tablet.post(f"/matches/{fublet}/result", result_of(tablet.key, journals["fublet"])).status == 200
        tables, league = club.get("/tables"), club.get("/league")
        assert list(league.json["games"]) == ["fublet"] and len(league.json["unconfirmed"]) == 3
        assert club.get("/tables", {"If-None-Match": tables.headers["etag"]}).status == 304
        club.restart()
        assert club.get("/tables").body == tables.body and club.get("/league").body == league.body
    finally:
        club.stop()


def test_two_servers_share_one_database(tmp_path, database):
    first = PgClub(tmp_path / "a", database)
    second = PgClub(tmp_path / "b", database)     # another folder: the database's tokens all the same
    try:
        assert second.ledger.join_token == first.ledger.join_token
        tablet = first.tablet()
        match, rows = wire_rows(match_journal(tmp_path, "fussball_liga"))
        on_second = type(tablet)(second, tablet.key)   # the same tablet, reaching the other server
        for i, part in enumerate(chunks(rows, 100)):
            reply = (tablet if i % 2 else on_second).upload(match, part)
            assert reply.status == 200, reply.body
        assert reply.json["held"] == len(rows)
        assert first.get("/tables").body == second.get("/tables").body
        assert json.loads(first.get("/tables").body)["tables"][0]["status"] == "finished"

        spectator = Stream(second)                 # watching the second server...
        try:
            assert spectator.next()["tables"][0]["events"] == len(rows)
            other, other_rows = wire_rows(match_journal(tmp_path, "futboard"))
            assert tablet.upload(other, other_rows[:25]).status == 200   # ...a table changes on the first
            seen = spectator.next()["tables"]
            assert {t["match"]: t["events"] for t in seen} == {match: len(rows), other: 25}
        finally:
            spectator.close()
    finally:
        first.stop()
        second.stop()


def test_the_servers_carry_on_when_postgresql_restarts(tmp_path):
    """PostgreSQL restarted mid-round: a write under way fails (and the tablet's outbox tries
    again), the next reaches the database again, and spectators hear the other server again."""
    from companion.club.client import Outbox
    from companion.club.keys import TabletKey

    with throwaway_cluster() as cluster:      # a cluster of its own: it is restarted
        database = new_database(cluster)
        first, second = PgClub(tmp_path / "a", database), PgClub(tmp_path / "b", database)
        spectator = None
        try:
            clock = [1_000.0]
            outbox = Outbox(tmp_path / "outbox.sqlite", TabletKey.generate(), clock=lambda: clock[0])
            outbox.join(first.url, first.ledger.join_token, "Table 1")
            journal = match_journal(tmp_path, "futboard")
            match, rows = wire_rows(journal)
            spectator = Stream(second)
            assert spectator.next() == {"tables": []}
            cluster.restart()                                   # every connection to it is gone
            outbox.add(journal)
            left = outbox.send_due()                             # the server answers 500 once, or sends
            while left:
                assert not left[0].refused, left[0].refused
                clock[0] = left[0].next_try
                left = outbox.send_due()
            assert first.get(f"/matches/{match}").json["held"] == len(rows)
            assert second.get(f"/matches/{match}").json["held"] == len(rows)
            seen = spectator.next()["tables"]                   # the second server heard it again
            while seen[0]["events"] < len(rows):
                seen = spectator.next()["tables"]
            assert seen[0]["match"] == match
        finally:
            if spectator is not None:
                spectator.close()
            first.stop()
            second.stop()


def test_a_swiss_tournament_on_postgresql_shown_alike_by_two_servers(tmp_path, database):
    """The whole tournament through one server while a second shares the database: both show
    the same tournament, and a round stored again (another server pairing it at the same time)
    is dropped: the round published first stands."""
    from companion.club.store import SwissRound
    from tests.test_club_swiss import drive_tournament

    first, second = PgClub(tmp_path / "a", database), PgClub(tmp_path / "b", database)
    try:
        view = drive_tournament(first, tmp_path, ["Rovers", "Athletic", "Rangers", "United", "Wanderers"], 3,
                                ["Table 1", "Table 2"])
        assert view["finished"] is True and len({r["bye"] for r in view["rounds"]}) == 3
        assert second.get("/swiss/weekend-swiss").body == first.get("/swiss/weekend-swiss").body
        organiser = {"Authorization": f"Bearer {second.ledger.organiser_token}"}
        late = http("POST", second.url + "/swiss/weekend-swiss/next", b"", organiser)
        assert late.status == 409 and "All 3 rounds are played" in late.json["error"]
        kept = second.ledger.store.swiss_rounds("weekend-swiss")
        assert [r.round for r in kept] == [1, 2, 3]
        assert second.ledger.store.add_swiss_round(SwissRound("weekend-swiss", 3, (("A", "B"),), "later")) is False
        assert second.ledger.store.swiss_rounds("weekend-swiss") == kept
    finally:
        first.stop()
        second.stop()
