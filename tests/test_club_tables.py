"""Each table's scoreboard on the club server (issue 33, item 5): /tables/<match>/ is the same
page as a tablet's (page.html), its snapshots the ones a tablet's own server builds of the same
journal, fed from the club's copy; every card on the page of every table links to it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.journal import Journal
from companion.jsonl import read_file
from tests.club_kit import DATA, Club, http, wire_rows
from ui.web.club_tables import NoRoom, TableScoreboards
from ui.web.follow import read_match
from ui.web.hub import Hub
from ui.web.pages import page_html


@pytest.fixture
def club(tmp_path):
    club = Club(tmp_path / "club")
    yield club
    club.stop()


def command_ends(raw) -> list[int]:
    """How many events the journal holds after each command (a tablet's journal between commands)."""
    return [i for i in range(1, len(raw) + 1) if i == len(raw) or raw[i].batch == raw[i].seq]


def tablet_snapshot(folder: Path, game: str, events: int) -> dict:
    """What a tablet's own scoreboard shows of its journal after ``events`` events: the journal
    read as `touchline serve` reads it (follow.py), built by its hub."""
    raw = read_file(DATA / f"{game}_full_match.jsonl").raw
    path = folder / f"tablet-{game}-{events}.sqlite"
    Journal.create_with(path, game, raw[:events]).close()
    folded = read_match(path)
    hub = Hub()
    try:
        hub.offer_match(folded.ruleset, folded.state, folded.log, folded.last)
        assert hub.wait_version(1, 60)
        return hub.snapshot.data
    finally:
        hub.stop()


def without_version(data: dict) -> dict:
    return {k: v for k, v in data.items() if k != "version"}


@pytest.mark.parametrize("game", ["fublet", "football_leader"])
def test_a_tables_scoreboard_shows_what_the_tablets_own_page_shows(club, tmp_path, game):
    tablet = club.tablet()
    raw = read_file(DATA / f"{game}_full_match.jsonl").raw
    journal = tmp_path / f"{game}.sqlite"
    Journal.create_with(journal, game, raw).close()
    match, rows = wire_rows(journal)
    ends = command_ends(raw)
    middle = ends[len(ends) // 2]
    tablet.upload_all(match, rows[:middle])
    page = club.get(f"/tables/{match}/")
    assert page.status == 200 and page.headers["content-type"].startswith("text/html")
    assert b'new EventSource(base + "events")' in page.body and b"&larr; Every table" in page.body
    state = club.get(f"/tables/{match}/state.json")
    assert state.status == 200
    assert without_version(state.json) == without_version(tablet_snapshot(tmp_path, game, middle))
    if state.json["board_key"]:
        board = club.get(f"/tables/{match}/board?k={state.json['board_key']}")
        assert board.status == 200 and board.body.startswith(b"<")
    tablet.upload_all(match, rows)
    # The scoreboard is refreshed on a thread of its own after the upload: wait (bounded) for it.
    board = club.server.app.scoreboards.get(match)
    while board.hub.snapshot.data["seq"] < len(rows):
        assert board.hub.wait_version(board.hub.snapshot.version + 1, 60), "the scoreboard did not follow"
    data = club.get(f"/tables/{match}/state.json").json
    assert without_version(data) == without_version(tablet_snapshot(tmp_path, game, len(rows)))
    assert data["over"] is True


def test_addresses_that_are_no_table_get_a_page_that_says_so(club, tmp_path):
    assert club.get("/tables/" + "0" * 64 + "/").status == 404
    assert b"No such table" in club.get("/tables/" + "0" * 64 + "/").body
    assert club.get("/tables/not-a-match/state.json").status == 404
    journal = tmp_path / "fublet.sqlite"
    Journal.create_with(journal, "fublet", read_file(DATA / "fublet_full_match.jsonl").raw[:40]).close()
    match, rows = wire_rows(journal)
    assert club.tablet().upload(match, rows).status == 200
    assert club.get(f"/tables/{match}/nothing-here").status == 404
    moved = http("GET", club.url + f"/tables/{match}")      # urllib follows the 301 to the page
    assert moved.status == 200 and moved.body == club.get(f"/tables/{match}/").body
    assert http("POST", club.url + f"/tables/{match}/", b"").status == 405
    rules = club.get(f"/tables/{match}/rules")
    assert rules.status == 200 and b"back to the scoreboard" in rules.body


def test_an_undo_on_the_tablet_takes_the_event_back_on_the_club_scoreboard(club, tmp_path):
    raw = read_file(DATA / "fublet_full_match.jsonl").raw
    journal = tmp_path / "fublet.sqlite"
    Journal.create_with(journal, "fublet", raw).close()
    match, rows = wire_rows(journal)
    ends = command_ends(raw)
    cut = ends[30]
    tablet = club.tablet()
    assert tablet.upload(match, rows[:cut]).status == 200
    boards = club.server.app.scoreboards
    board = boards.get(match)
    assert board.hub.wait_version(1, 60) and board.hub.snapshot.data["seq"] == cut
    last_batch = rows[cut - 1]["batch"]
    version = board.hub.snapshot.version
    assert tablet.upload(match, [], rev=1, undone=[last_batch]).status == 200
    boards.changed()
    assert board.hub.wait_version(version + 1, 60)
    assert without_version(board.hub.snapshot.data) == without_version(
        tablet_snapshot(tmp_path, "fublet", ends[29]))


def test_scoreboards_kept_are_bounded_and_one_with_viewers_is_never_dropped(club, tmp_path):
    tablet = club.tablet()
    matches = []
    for number in range(3):
        raw = list(read_file(DATA / "futboard_full_match.jsonl").raw)
        raw[0] = raw[0]._replace(at=raw[0].at.replace(".000000Z", f".{number + 1:06d}Z"))   # its own match
        journal = tmp_path / f"futboard-{number}.sqlite"
        Journal.create_with(journal, "futboard", raw[:20]).close()
        match, rows = wire_rows(journal)
        assert tablet.upload(match, rows).status == 200
        matches.append(match)
    boards = TableScoreboards(club.ledger.store, limit=2)
    try:
        first = boards.get(matches[0])
        first.viewers = 1                      # a spectator is on it
        second = boards.get(matches[1])
        third = boards.get(matches[2])         # the idle second makes room, not the watched first
        assert boards.get(matches[0]) is first and boards.get(matches[2]) is third
        assert second.hub.stopping and not first.hub.stopping
        third.viewers = 1
        with pytest.raises(NoRoom):
            boards.get(matches[1])
        assert boards.get("f" * 64) is None
    finally:
        boards.close()


def test_the_club_serves_the_tablets_page_itself():
    from ui.web.pages import club_page_html

    club_page, tablet_page = club_page_html(), page_html()
    assert club_page.replace(b"&larr; Every table", b"").count(b"<script>") == tablet_page.count(b"<script>") == 1
    script = lambda page: page[page.index(b"<script>"):]
    assert script(club_page) == script(tablet_page)       # the same page, only its footer differs


def test_clicking_a_card_opens_that_tables_scoreboard_live(club, tmp_path):
    from tests import web_browser

    why = web_browser.available()
    if why:
        pytest.skip(why)
    from selenium.webdriver.support.ui import WebDriverWait

    raw = read_file(DATA / "fublet_full_match.jsonl").raw
    journal = tmp_path / "fublet.sqlite"
    Journal.create_with(journal, "fublet", raw).close()
    match, rows = wire_rows(journal)
    ends = command_ends(raw)
    middle = ends[len(ends) // 2]
    other_raw = read_file(DATA / "futboard_full_match.jsonl").raw
    other_journal = tmp_path / "futboard.sqlite"
    Journal.create_with(other_journal, "futboard", other_raw[:60]).close()
    other, other_rows = wire_rows(other_journal)
    club.tablet("Table 2").upload(other, other_rows)
    table = club.tablet("Table 1")
    assert table.upload(match, rows[:middle]).status == 200
    expected = tablet_snapshot(tmp_path, "fublet", middle)
    final = tablet_snapshot(tmp_path, "fublet", len(rows))
    assert (expected["score"], expected["clock"]) != (final["score"], final["clock"])
    shots = tmp_path
    with web_browser.chromium(1280, 800) as driver:
        driver.get(club.url + "/")
        cards = lambda d: d.find_elements("css selector", "a.table")
        WebDriverWait(driver, 60).until(lambda d: len(cards(d)) == 2)
        card = next(c for c in cards(driver) if c.text.startswith("Table 1"))
        assert "Open the scoreboard" in card.text
        driver.save_screenshot(str(shots / "club-every-table.png"))
        card.click()
        WebDriverWait(driver, 60).until(lambda d: d.current_url.endswith(f"/tables/{match}/"))
        text = lambda id_: driver.find_element("id", id_).text
        words = lambda line: " ".join(line.split())          # as the browser lays out the text
        WebDriverWait(driver, 60).until(lambda d: text("score") == words(expected["score"]))
        assert text("clock") == words(expected["clock"]) and text("game") == words(expected["title"])
        home, away = expected["teams"]["home"], expected["teams"]["away"]
        assert home in text("score") and away in text("score")
        WebDriverWait(driver, 60).until(lambda d: text("live") == "live")
        driver.save_screenshot(str(shots / "club-table-scoreboard.png"))
        table.upload_all(match, rows)                        # the tablet publishes the rest of the match
        WebDriverWait(driver, 60).until(lambda d: text("score") == words(final["score"]))
        WebDriverWait(driver, 60).until(lambda d: text("live") == "full time")
        assert text("clock") == words(final["clock"])
        assert driver.find_element("id", "log").get_attribute("data-seq") == str(len(rows))
        driver.save_screenshot(str(shots / "club-table-full-time.png"))
        driver.find_element("link text", "\u2190 Every table").click()
        WebDriverWait(driver, 60).until(lambda d: len(cards(d)) == 2)
