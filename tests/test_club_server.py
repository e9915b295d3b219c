"""The club server end to end (issue 33): a real server on 127.0.0.1 port 0, tablets with
their own Ed25519 keys, the journals of the shipped scripted matches."""

from __future__ import annotations

import json
import os

import pytest

from companion.club.client import ClubClient, RefusedByClub
from companion.club.keys import TabletKey, b64, result_message, statuses_text
from companion.journal_chain import chain_hash
from companion.report.history import read_entry
from tests.club_kit import GAMES, Club, chunks, http, match_journal, wire_rows


@pytest.fixture(scope="module")
def journals(tmp_path_factory):
    folder = tmp_path_factory.mktemp("journals")
    return {game: match_journal(folder, game) for game in GAMES}


@pytest.fixture
def club(tmp_path):
    club = Club(tmp_path / "club")
    yield club
    club.stop()


def without_times(tables: dict) -> list[dict]:
    return [{k: v for k, v in t.items() if k != "updated"} for t in tables["tables"]]


def result_of(tablet_key: TabletKey, journal, last_seq=None):
    """A result as a tablet signs it once both coaches confirmed it."""
    from companion.club.client import read_journal

    read = read_journal(journal)
    seq = read.last_seq if last_seq is None else last_seq
    head = read.rows[seq - 1][7]
    return {"match": read.match, "last_seq": seq, "head": head, "statuses": read.statuses,
            "signature": b64(tablet_key.sign(result_message(read.match, seq, head, read.statuses)))}


def test_every_game_is_published_checked_and_shown_as_the_league_reads_it(club, journals):
    tablet = club.tablet()
    for game, journal in journals.items():
        match, rows = wire_rows(journal)
        for part in chunks(rows, 400):
            reply = tablet.upload(match, part)
            assert reply.status == 200, reply.body
        assert reply.json == {"match": match, "held": len(rows), "head": rows[-1]["hash"], "added": len(part),
                              "waiting": 0}
    tables = club.get("/tables").json["tables"]
    assert len(tables) == 4
    for game, journal in journals.items():
        entry = read_entry(journal)   # what `touchline league` reads of the same journal
        shown = next(t for t in tables if t["game"] == game)
        assert shown["teams"] == {"home": entry.home, "away": entry.away}
        assert shown["score"] == {"home": entry.home_goals, "away": entry.away_goals}
        assert shown["status"] == "finished" and shown["winner"] == entry.winner
        assert shown["confirmed"] is False and shown["tablet"] == "Table 1"


def test_the_same_upload_again_reordered_or_resumed_changes_nothing(club, journals):
    tablet = club.tablet()
    match, rows = wire_rows(journals["futboard"])
    parts = chunks(rows, 50)
    for part in reversed(parts):          # the last batch first: it waits for the gap to fill
        reply = tablet.upload(match, list(reversed(part)))
        assert reply.status == 200, reply.body
    assert reply.json["held"] == len(rows) and reply.json["waiting"] == 0
    first = club.get("/tables")
    for part in parts + [rows[:120], rows[100:]]:    # again, and resumed from the middle
        again = tablet.upload(match, part)
        assert again.status == 200 and again.json["added"] == 0 and again.json["held"] == len(rows)
    second = club.get("/tables")
    assert second.body == first.body and second.headers["etag"] == first.headers["etag"]
    assert club.get("/tables", {"If-None-Match": first.headers["etag"]}).status == 304

    other = Club(club.folder.parent / "in-order")    # the same journal sent in order: the same club
    try:
        in_order = other.tablet()
        for part in parts:
            assert in_order.upload(match, part).status == 200
        assert without_times(other.get("/tables").json) == without_times(second.json)
    finally:
        other.stop()


def test_a_fork_is_refused_recorded_for_the_organiser_and_changes_nothing(club, journals, caplog):
    tablet = club.tablet()
    match, rows = wire_rows(journals["futboard"])
    assert tablet.upload(match, rows[:100]).status == 200
    before = club.get("/tables").json["tables"]
    forked = [dict(r) for r in rows[:60]]
    forked[49]["at"] = forked[49]["at"].replace("T19", "T20")          # event 50, recorded differently
    for i in range(49, 60):                                            # a chain of its own: a real fork
        r = forked[i]
        r["hash"] = chain_hash(forked[i - 1]["hash"], r["seq"], r["batch"], r["at"], r["source"], r["type"], r["data"])
    reply = tablet.upload(match, forked)
    assert reply.status == 409 and "fork" in reply.json["error"] and "event 50" in reply.json["error"]
    # Nothing of the match changed; its card says, loudly, that another version was refused.
    after = club.get("/tables").json["tables"]
    assert [dict(t, forks_refused=0) for t in after] == before and after[0]["forks_refused"] == 1
    assert any("refused a fork" in r.getMessage() and "at event 50" in r.getMessage() and match in r.getMessage()
               for r in caplog.records), [r.getMessage() for r in caplog.records]
    organiser = {"Authorization": f"Bearer {club.ledger.organiser_token}"}
    forks = club.get("/forks", organiser).json["forks"]
    assert [(f["match"], f["seq"], f["held_hash"], f["sent_hash"]) for f in forks] == [
        (match, 50, rows[49]["hash"], forked[49]["hash"])]
    assert club.get("/forks").status == 401
    assert club.get("/forks", {"Authorization": "Bearer " + club.ledger.join_token}).status == 401


def test_a_broken_chain_is_refused_with_its_reason_and_nothing_is_stored(club, journals):
    tablet = club.tablet()
    match, rows = wire_rows(journals["fublet"])
    assert tablet.upload(match, rows[:100]).status == 200
    edited = [dict(r) for r in rows[100:200]]
    edited[30]["at"] = "2026-11-30T23:59:59.000000Z"                 # event 131 edited, its hash kept
    reply = tablet.upload(match, edited)
    assert reply.status == 422, reply.body
    assert "event 131" in reply.json["error"] and "chain" in reply.json["error"]
    assert club.get(f"/matches/{match}").json["held"] == 100
    assert tablet.upload(match, rows[100:200]).json["held"] == 200    # the true events still go in

    fresh = club.tablet("Table 2")
    match2, rows2 = wire_rows(journals["futboard"])
    reply = fresh.upload(match2, rows2[:5] + rows2[6:20])    # event 6 missing: the rest waits, unchecked
    assert reply.status == 200 and reply.json["held"] == 5 and reply.json["waiting"] == 14
    assert next(t for t in club.get("/tables").json["tables"] if t["match"] == match2)["events"] == 5


def test_unknown_keys_and_bad_signatures_are_refused(club, journals):
    match, rows = wire_rows(journals["futboard"])
    stranger = club.tablet(join=False)
    reply = stranger.upload(match, rows[:10])
    assert reply.status == 403 and "not registered" in reply.json["error"]
    member = club.tablet()
    forged = member.post(f"/matches/{match}/events", {"match": match, "events": rows[:10]}, key=stranger.key)
    assert forged.status == 403 and "signature does not verify" in forged.json["error"]
    unsigned = http("POST", club.url + f"/matches/{match}/events", json.dumps({"match": match}).encode())
    assert unsigned.status == 401
    with pytest.raises(RefusedByClub, match="join token"):
        ClubClient(club.url, TabletKey.generate()).join("not-the-token", "Table 9")
    assert club.get("/tables").json == {"tables": []}


def test_only_results_the_tablet_signed_count_in_the_league(club, journals):
    tablet = club.tablet()
    other = club.tablet("Table 2")
    for game in ("fublet", "futboard"):
        match, rows = wire_rows(journals[game])
        tablet.upload_all(match, rows[:-1])
    fublet_match, fublet_rows = wire_rows(journals["fublet"])
    signed = result_of(tablet.key, journals["fublet"])
    early = tablet.post(f"/matches/{fublet_match}/result", signed)
    assert early.status == 409 and "publish the rest" in early.json["error"]
    assert tablet.upload(fublet_match, fublet_rows[-1:]).status == 200

    cut = result_of(tablet.key, journals["fublet"], last_seq=len(fublet_rows) - 1)
    reply = tablet.post(f"/matches/{fublet_match}/result", cut)
    assert reply.status == 422 and "cut short" in reply.json["error"]
    by_other = tablet.post(f"/matches/{fublet_match}/result", result_of(other.key, journals["fublet"]))
    assert by_other.status == 422 and "does not verify" in by_other.json["error"]
    assert other.post(f"/matches/{fublet_match}/result", result_of(other.key, journals["fublet"])).status == 403
    rewritten = dict(signed, head="0" * 64)
    rewritten["signature"] = b64(tablet.key.sign(result_message(fublet_match, signed["last_seq"], "0" * 64,
                                                                 signed["statuses"])))
    assert tablet.post(f"/matches/{fublet_match}/result", rewritten).status == 422
    assert club.get("/league").json["games"] == {}

    assert tablet.post(f"/matches/{fublet_match}/result", signed).status == 200
    league = club.get("/league").json
    assert list(league["games"]) == ["fublet"]           # the futboard match is finished but unconfirmed
    table = league["games"]["fublet"]["table"]
    assert [(r["team"], r["points"]) for r in table] == [("Touchline Rovers", 3), ("Harbour Athletic", 0)]
    # Head to head and each team's record, as `touchline league` computes them, for the whole club.
    (h2h,) = league["games"]["fublet"]["head_to_head"]
    assert (h2h["first"], h2h["second"], h2h["played"]) == ("Harbour Athletic", "Touchline Rovers", 1)
    assert (h2h["first_wins"], h2h["draws"], h2h["second_wins"]) == (0, 0, 1)
    rovers = league["records"]["Touchline Rovers"]
    assert rovers["fublet"]["won"] == rovers["all"]["won"] == 1 and rovers["all"]["form"] == "W"
    assert league["records"]["Harbour Athletic"]["all"]["lost"] == 1
    assert [u["game"] for u in league["unconfirmed"]] == []   # futboard's last event is not held yet
    futboard_match, futboard_rows = wire_rows(journals["futboard"])
    assert tablet.upload(futboard_match, futboard_rows[-1:]).status == 200
    league = club.get("/league").json
    assert [u["game"] for u in league["unconfirmed"]] == ["futboard"]
    tables = {t["game"]: t["confirmed"] for t in club.get("/tables").json["tables"]}
    assert tables == {"fublet": True, "futboard": False}


def test_a_result_is_confirmed_only_after_the_final_whistle(club, journals):
    tablet = club.tablet()
    match, rows = wire_rows(journals["futboard"])
    assert tablet.upload(match, rows[:100]).status == 200
    head = rows[99]["hash"]
    statuses = statuses_text((), ())
    body = {"match": match, "last_seq": 100, "head": head, "statuses": statuses,
            "signature": b64(tablet.key.sign(result_message(match, 100, head, statuses)))}
    reply = tablet.post(f"/matches/{match}/result", body)
    assert reply.status == 422 and "not finished" in reply.json["error"]


def test_etag_304_until_something_changes(club, journals):
    tablet = club.tablet()
    first = club.get("/tables")
    assert first.status == 200 and first.headers["etag"]
    assert club.get("/tables", {"If-None-Match": first.headers["etag"]}).status == 304
    league = club.get("/league")
    assert club.get("/league", {"If-None-Match": league.headers["etag"]}).status == 304
    match, rows = wire_rows(journals["futboard"])
    assert tablet.upload(match, rows[:30]).status == 200
    changed = club.get("/tables", {"If-None-Match": first.headers["etag"]})
    assert changed.status == 200 and changed.headers["etag"] != first.headers["etag"]


def test_a_restarted_server_keeps_everything(club, journals):
    tablet = club.tablet()
    match, rows = wire_rows(journals["fublet"])
    tablet.upload_all(match, rows)
    assert tablet.post(f"/matches/{match}/result", result_of(tablet.key, journals["fublet"])).status == 200
    other, other_rows = wire_rows(journals["futboard"])
    assert tablet.upload(other, other_rows[:100]).status == 200
    assert tablet.upload(other, other_rows[150:200]).json["waiting"] == 50   # waiting beyond a gap
    tables, league = club.get("/tables"), club.get("/league")
    club.restart()
    assert club.get("/tables").body == tables.body and club.get("/league").body == league.body
    again = tablet.upload(match, rows[-10:])                      # the same tablet, known still
    assert again.status == 200 and again.json["added"] == 0
    filled = tablet.upload(other, other_rows[100:150])           # the gap filled after the restart
    assert filled.json == {"match": other, "held": 200, "head": other_rows[199]["hash"], "added": 50, "waiting": 0}
    assert club.ledger.store.version() == 6


@pytest.mark.parametrize("method, path, body, headers, status, words", [
    ("POST", "/tablets", b"{not json", {}, 400, "not JSON"),
    ("POST", "/tablets", b"[]", {}, 400, "JSON object"),
    ("GET", "/nowhere", None, {}, 404, "no such address"),
    ("PUT", "/tablets", None, {}, 405, "not allowed"),
    ("GET", "/tablets", None, {}, 401, "organiser"),
    ("GET", "/matches/abc", None, {}, 404, "no such match"),
    ("POST", "/matches/" + "a" * 64 + "/events", b"{}", {"X-Touchline-Tablet": "zz",
                                                          "X-Touchline-Signature": "!!"}, 403, "not registered"),
])
def test_bad_requests_get_a_one_line_reason(club, method, path, body, headers, status, words):
    reply = http(method, club.url + path, body, headers)
    assert reply.status == status, reply.body
    error = reply.json["error"]
    assert words in error and "\n" not in error and "Traceback" not in error


def test_bad_uploads_from_a_member_get_a_one_line_reason(club, journals):
    tablet = club.tablet()
    match, rows = wire_rows(journals["futboard"])
    cases = [
        ({"match": match, "events": "x"}, 400, "events must be a list"),
        ({"match": match, "events": [{"seq": 0}]}, 400, "seq must be"),
        ({"match": match, "events": [dict(rows[0], hash="xyz")]}, 400, "hash must be"),
        ({"match": match, "events": [dict(rows[0], data=7)]}, 400, "data must be text"),
        ({"match": match, "events": [rows[0], dict(rows[0], at="2020")]}, 409, "two different events"),
        ({"match": match, "events": rows[:3], "statuses": {"rev": -1}}, 400, "rev"),
        ({"match": "b" * 64, "events": rows[:3]}, 400, "not the one in the address"),
    ]
    for value, status, words in cases:
        reply = tablet.post(f"/matches/{match}/events", value)
        assert reply.status == status and words in reply.json["error"], (value, reply.body)
    empty = tablet.upload("e" * 64, [])                                # nothing to hold: no match made
    assert empty.status == 200 and empty.json["held"] == 0
    wrong_match = tablet.upload("c" * 64, rows[:3])
    assert wrong_match.status == 422 and "event 1's hash" in wrong_match.json["error"]
    assert club.get("/tables").json == {"tables": []}


def test_a_body_over_the_limit_is_refused_before_it_is_read(club):
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", club.server.port, timeout=60)
    try:
        conn.putrequest("POST", "/tablets")
        conn.putheader("Content-Length", str(4 * 1024 * 1024 + 1))
        conn.endheaders()
        resp = conn.getresponse()
        assert resp.status == 413 and "larger than" in json.loads(resp.read())["error"]
    finally:
        conn.close()


def test_writes_beyond_the_rate_limit_get_429_and_the_outbox_tries_again_later(tmp_path, journals):
    from companion.club.client import Outbox
    from ui.web.club_app import Limiter
    from ui.web.club_server import ClubServer

    now, tablet_clock = [0.0], [5_000.0]
    club = Club(tmp_path / "limited")
    club.server.stop()
    club.server = ClubServer(club.ledger, "127.0.0.1", 0, limiter=Limiter(rate=1.0, burst=4, clock=lambda: now[0]))
    try:
        tablet = club.tablet()                                          # joining: the address's allowance
        outbox = Outbox(tmp_path / "outbox.sqlite", tablet.key, clock=lambda: tablet_clock[0])
        outbox.join(club.url, club.ledger.join_token, "Table 1")        # (the same key: the same tablet)
        match, rows = wire_rows(journals["futboard"])
        for i in range(4):                                              # the tablet's 4 writes at once
            assert tablet.upload(match, rows[i * 10:i * 10 + 10]).status == 200
        limited = tablet.upload(match, rows[40:50])
        assert limited.status == 429 and limited.headers["retry-after"] == "1"
        assert "too many writes from this tablet" in limited.json["error"]
        other = club.tablet("Table 2")                                  # another tablet at the same address
        other_match, other_rows = wire_rows(journals["fublet"])
        assert other.upload(other_match, other_rows[:10]).status == 200   # has its own allowance
        assert tablet.upload("d" * 64, []).status == 429                # (still none left for the first)
        assert club.get("/tables").status == 200                        # reading is never limited
        outbox.add(journals["futboard"])
        left = outbox.send_due()
        assert len(left) == 1 and left[0].failures == 1 and not left[0].refused   # later, not refused
        now[0] += 10.0                                                  # the bucket refills (the test's clock)
        tablet_clock[0] = left[0].next_try
        assert outbox.send_due() == []
        assert club.get(f"/matches/{match}").json["held"] == len(rows)
        assert "d" * 64 not in [t["match"] for t in club.get("/tables").json["tables"]]
        outbox.close()
    finally:
        club.stop()


def test_spectators_get_the_tables_at_once_then_each_change_on_one_stream(club, journals):
    from tests.club_kit import Stream

    first, second = Stream(club), Stream(club)
    try:
        assert first.next() == second.next() == {"tables": []}
        tablet = club.tablet()
        match, rows = wire_rows(journals["futboard"])
        assert tablet.upload(match, rows[:40]).status == 200
        seen = first.next()["tables"]
        assert [(t["match"], t["events"]) for t in seen] == [(match, 40)]
        assert second.next()["tables"] == seen          # the same bytes for every viewer
        version = club.server.app.hub.current()[0]
        assert tablet.upload(match, rows[:40]).status == 200   # nothing new: no new event
        assert club.server.app.hub.current()[0] == version
        tablet.upload_all(match, rows)
        assert first.next()["tables"][0]["status"] == "finished"
    finally:
        first.close()
        second.close()


def test_the_page_of_every_table_shows_them_live_with_the_league(club, journals):
    from tests import web_browser

    why = web_browser.available()
    if why:
        pytest.skip(why)
    from selenium.webdriver.support.ui import WebDriverWait

    first, second = club.tablet("Table 2"), club.tablet("Table 10")
    organiser = {"Authorization": f"Bearer {club.ledger.organiser_token}", "Content-Type": "application/json"}
    season = {"name": "Autumn League", "game": "fublet", "teams": ["Touchline Rovers", "Harbour Athletic", "Dock FC"],
              "tables": ["Table 2"], "starts": "2026-11-01"}
    assert http("POST", club.url + "/seasons", json.dumps(season).encode(), organiser).status == 200
    fublet, fublet_rows = wire_rows(journals["fublet"])
    second.upload_all(fublet, fublet_rows)
    assert second.post(f"/matches/{fublet}/result", result_of(second.key, journals["fublet"])).status == 200
    with web_browser.chromium(1280, 800) as driver:
        driver.get(club.url + "/")
        cards = lambda d: [c.text for c in d.find_elements("css selector", ".table")]
        WebDriverWait(driver, 60).until(lambda d: len(cards(d)) == 1 and d.find_elements("css selector", "table.league"))
        assert "Touchline Rovers" in cards(driver)[0] and "confirmed" in cards(driver)[0]
        league = driver.find_element("css selector", "table.league").text
        assert "Touchline Rovers" in league.splitlines()[1] and league.splitlines()[1].endswith("3 W")
        driver.find_element("css selector", "details.h2h summary").click()   # head to head, folded under the table
        pairs = driver.find_elements("css selector", "details.h2h table.league")[0].text.splitlines()
        assert pairs[1].startswith("Harbour Athletic Touchline Rovers 1 0 0 1"), pairs
        if os.environ.get("TOUCHLINE_SHOTS"):
            driver.save_screenshot(os.path.join(os.environ["TOUCHLINE_SHOTS"], "club-league.png"))
        WebDriverWait(driver, 60).until(lambda d: d.find_elements("css selector", ".season h3"))
        part = driver.find_element("css selector", ".season").text
        assert "Autumn League" in part and "Next: round" in part and "Dock FC" in part
        futboard, rows = wire_rows(journals["futboard"])
        assert first.upload(futboard, rows[:60]).status == 200     # a table starts: the page shows it, unasked
        WebDriverWait(driver, 60).until(lambda d: len(cards(d)) == 2)
        assert cards(driver)[0].startswith("Table 2") and "Estrela FC" in cards(driver)[0]   # 2 before 10
        assert "not confirmed" not in cards(driver)[0]
        forked = [dict(r) for r in rows[:60]]                      # another version of that match: refused,
        forked[49]["at"] = forked[49]["at"].replace("T19", "T20")   # and said on its card at once
        for i in range(49, 60):
            r = forked[i]
            r["hash"] = chain_hash(forked[i - 1]["hash"], r["seq"], r["batch"], r["at"], r["source"], r["type"],
                                   r["data"])
        assert first.upload(futboard, forked).status == 409
        WebDriverWait(driver, 60).until(lambda d: "1 other version of this match refused" in cards(d)[0])
        if os.environ.get("TOUCHLINE_SHOTS"):
            driver.save_screenshot(os.path.join(os.environ["TOUCHLINE_SHOTS"], "club-fork.png"))


def test_the_organiser_removes_a_lost_tablet_and_it_can_write_no_more(club, journals):
    lost, kept = club.tablet("Table 1"), club.tablet("Table 2")
    match, rows = wire_rows(journals["fublet"])
    lost.upload_all(match, rows)
    assert lost.post(f"/matches/{match}/result", result_of(lost.key, journals["fublet"])).status == 200
    organiser = {"Authorization": f"Bearer {club.ledger.organiser_token}"}
    assert http("POST", f"{club.url}/tablets/{lost.key.id}/remove", b"").status == 401
    removed = http("POST", f"{club.url}/tablets/{lost.key.id}/remove", b"", organiser)
    assert removed.status == 200 and removed.json == {"tablet": lost.key.id, "removed": True}
    assert http("POST", f"{club.url}/tablets/{'0' * 16}/remove", b"", organiser).status == 404
    other, other_rows = wire_rows(journals["futboard"])
    refused = lost.upload(other, other_rows[:10])
    assert refused.status == 403 and "removed from the club" in refused.json["error"]
    with pytest.raises(RefusedByClub, match="removed from the club"):
        lost.client().join(club.ledger.join_token, "Table 1 again")     # the same key cannot rejoin
    assert kept.upload(other, other_rows[:10]).status == 200
    listed = {t["name"]: t["removed"] for t in club.get("/tablets", organiser).json["tablets"]}
    assert listed["Table 2"] is None and listed["Table 1"]
    assert list(club.get("/league").json["games"]) == ["fublet"]         # what it confirmed before stays


def test_a_tablet_is_renamed_by_itself_or_the_organiser_and_its_card_follows(club, journals):
    first, second = club.tablet("Table 1"), club.tablet("Table 2")
    match, rows = wire_rows(journals["futboard"])
    first.upload_all(match, rows[:20])
    organiser = {"Authorization": f"Bearer {club.ledger.organiser_token}", "Content-Type": "application/json"}

    def names() -> dict[str, str]:
        return {t["tablet"]: t["name"] for t in club.get("/tablets", organiser).json["tablets"]}

    renamed = first.post(f"/tablets/{first.key.id}/name", {"name": "  Table   4 "})
    assert renamed.status == 200 and renamed.json == {"tablet": first.key.id, "name": "Table 4"}
    assert names()[first.key.id] == "Table 4"
    assert [t["tablet"] for t in club.get("/tables").json["tables"]] == ["Table 4"]   # the card follows
    assert first.client().rename("Table 5") == "Table 5"                              # the client's way
    # Refused, each with its reason, changing nothing:
    assert second.post(f"/tablets/{first.key.id}/name", {"name": "Mine"}).status == 403    # another tablet's
    clash = second.post(f"/tablets/{second.key.id}/name", {"name": "table 5"})
    assert clash.status == 409 and '"Table 5"' in clash.json["error"]
    assert first.post(f"/tablets/{first.key.id}/name", {"name": " "}).status == 400
    assert first.post(f"/tablets/{first.key.id}/name", ["Table 9"]).status == 400
    assert first.post(f"/tablets/{first.key.id}/name", {"name": "x" * 81}).status == 400
    forged = first.post(f"/tablets/{second.key.id}/name", {"name": "Forged"}, tablet_id=second.key.id)
    assert forged.status in (401, 403)                                                # not its key
    assert http("POST", f"{club.url}/tablets/{first.key.id}/name", b'{"name": "Anon"}').status == 401
    assert names() == {first.key.id: "Table 5", second.key.id: "Table 2"}
    # The organiser renames any tablet; an unknown or removed one is refused.
    by_organiser = http("POST", f"{club.url}/tablets/{second.key.id}/name", b'{"name": "Table 6"}', organiser)
    assert by_organiser.status == 200 and names()[second.key.id] == "Table 6"
    assert http("POST", f"{club.url}/tablets/{'0' * 16}/name", b'{"name": "Ghost"}', organiser).status == 404
    assert http("POST", f"{club.url}/tablets/{second.key.id}/remove", b"", organiser).status == 200
    gone = http("POST", f"{club.url}/tablets/{second.key.id}/name", b'{"name": "Table 7"}', organiser)
    assert gone.status == 403 and "removed" in gone.json["error"]


def test_joining_again_under_another_name_renames_the_tablet(club, tmp_path):
    from companion.club.client import Outbox
    from companion.club.keys import TabletKey
    outbox = Outbox(tmp_path / "tablet" / "outbox.sqlite", TabletKey.load_or_create(tmp_path / "tablet" / "key.pem"))
    outbox.join(club.url, club.ledger.join_token, "Table 1")
    outbox.join(club.url, club.ledger.join_token, "Table 8")     # the coach typed a new name
    organiser = {"Authorization": f"Bearer {club.ledger.organiser_token}"}
    assert outbox.name == "Table 8"
    assert [t["name"] for t in club.get("/tablets", organiser).json["tablets"]] == ["Table 8"]
    assert outbox.rename("Table 9") == "Table 9" and outbox.name == "Table 9"
    outbox.close()


@pytest.mark.parametrize("game", GAMES)
def test_uploads_checked_and_folded_from_where_they_left_give_what_a_whole_replay_gives(club, journals, game):
    """Each upload is checked from the command it continues and folded onto the kept state; cut
    anywhere (mid-command too) the club's summary is the whole journal's, refolded from event 1."""
    from companion.club.ledger import fold, summary_of
    from companion.journal_chain import check_rows
    from companion.journal_domains import domain_checker

    tablet = club.tablet()
    match, rows = wire_rows(journals[game])
    parts = chunks(rows, 37)
    for i, part in enumerate(parts):
        assert tablet.upload(match, part).status == 200
        if i % 6 == 5 or i == len(parts) - 1:
            upto = part[-1]["seq"]
            checked = check_rows([(r["seq"], r["batch"], r["at"], r["source"], r["type"], r["data"], "active",
                                   r["hash"]) for r in rows[:upto]], chained=True, domain=domain_checker(game))
            ruleset, state = fold(game, checked)
            whole = summary_of(ruleset, state, checked.events[0].at.strftime("%Y-%m-%d %H:%M"), game)
            assert json.loads(club.ledger.store.match(match).summary) == json.loads(json.dumps(whole)), upto
    assert club.ledger.refolds == 1      # only the first upload was folded from event 1
