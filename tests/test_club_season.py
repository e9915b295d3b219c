"""A club's round-robin season (companion/club/season.py): the pairings' properties for every
size, the tables, and a season on a real club server filled by confirmed results only."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from companion.club.season import Fixture, assign_tables, check_season, knockout, round_robin, seeding
from companion.report.history import Entry
from tests.club_kit import Club, http, match_journal, wire_rows
from tests.test_club_server import result_of


@pytest.mark.parametrize("n", range(2, 17))
@pytest.mark.parametrize("home_and_away", [False, True])
def test_every_team_meets_every_other_once_a_round_and_home_as_often_as_away(n, home_and_away):
    teams = [f"Team {i}" for i in range(n)]
    rounds = round_robin(teams, home_and_away)
    legs = 2 if home_and_away else 1
    assert len(rounds) == legs * (n - 1 if n % 2 == 0 else n)
    meetings, home, away = Counter(), Counter(), Counter()
    for pairs in rounds:
        playing = [t for pair in pairs for t in pair]
        assert len(playing) == len(set(playing)) and len(playing) >= n - 1   # once a round; one sits out if odd
        for h, a in pairs:
            meetings[(h, a)] += 1
            home[h] += 1
            away[a] += 1
    if home_and_away:   # each pair meets twice, once at each's home
        assert all(meetings[(a, b)] == 1 for a in teams for b in teams if a != b)
    else:
        assert all(meetings[(a, b)] + meetings[(b, a)] == 1 for a in teams for b in teams if a < b)
    assert max(abs(home[t] - away[t]) for t in teams) <= (0 if n % 2 or home_and_away else 1)


def test_games_go_to_the_tables_in_sittings_when_tables_are_few():
    rounds = round_robin(["A", "B", "C", "D", "E", "F"])
    fixtures = assign_tables(rounds, ["Table 1", "Table 2"])
    first = [f for f in fixtures if f.round == 1]
    assert [(f.sitting, f.table) for f in first] == [(1, "Table 1"), (1, "Table 2"), (2, "Table 1")]
    assert all(isinstance(f, Fixture) for f in fixtures) and len(fixtures) == 15


@pytest.mark.parametrize("teams, tables, words", [
    (["A"], ["T"], "2 to 64 teams"),
    (["A", "a"], ["T"], "named twice"),
    (["A", "B"], [], "1 to 128 tables"),
    (["A", "B"], ["T", "T"], "table is named twice"),
])
def test_a_season_that_cannot_be_is_refused_with_its_reason(teams, tables, words):
    assert words in check_season(teams, tables)


@pytest.fixture
def club(tmp_path):
    club = Club(tmp_path / "club")
    yield club
    club.stop()


def test_a_season_on_the_club_server_counts_confirmed_results_at_their_fixtures(club, tmp_path):
    organiser = {"Authorization": f"Bearer {club.ledger.organiser_token}", "Content-Type": "application/json"}
    body = {"name": "Autumn League", "game": "fublet", "teams": ["Touchline Rovers", "Harbour Athletic", "Dock Rangers"],
            "tables": ["Table 1"], "starts": "2026-11-01"}
    assert http("POST", club.url + "/seasons", json.dumps(body).encode()).status == 401
    made = http("POST", club.url + "/seasons", json.dumps(body).encode(), organiser)
    assert made.status == 200, made.body
    season = made.json
    assert season["season"] == "autumn-league" and len(season["rounds"]) == 3
    assert all(len(r["games"]) == 1 and r["games"][0]["table"] == "Table 1" for r in season["rounds"])
    assert [r["played"] for r in season["standings"]] == [0, 0, 0]
    again = http("POST", club.url + "/seasons", json.dumps(body).encode(), organiser)
    assert again.status == 409 and "already" in again.json["error"]
    bad = http("POST", club.url + "/seasons", json.dumps(dict(body, name="X", game="chess")).encode(), organiser)
    assert bad.status == 400 and "game must be one of" in bad.json["error"]

    journal = match_journal(tmp_path, "fublet")
    tablet = club.tablet()
    match, rows = wire_rows(journal)
    tablet.upload_all(match, rows)
    unconfirmed = club.get("/seasons/autumn-league").json
    assert all(g["result"] is None for r in unconfirmed["rounds"] for g in r["games"])
    assert tablet.post(f"/matches/{match}/result", result_of(tablet.key, journal)).status == 200
    season = club.get("/seasons/autumn-league")
    results = [g for r in season.json["rounds"] for g in r["games"] if g["result"]]
    assert len(results) == 1 and {results[0]["home"], results[0]["away"]} == {"Touchline Rovers", "Harbour Athletic"}
    assert results[0]["result"]["match"] == match and results[0]["result"]["score"] == "1-1 (4-2 pens)"
    table = {r["team"]: (r["played"], r["points"]) for r in season.json["standings"]}
    assert table == {"Touchline Rovers": (1, 3), "Harbour Athletic": (1, 0), "Dock Rangers": (0, 0)}
    assert club.get("/seasons/autumn-league", {"If-None-Match": season.headers["etag"]}).status == 304
    assert club.get("/seasons").json["seasons"] == [{"season": "autumn-league", "name": "Autumn League",
                                                     "game": "fublet", "format": "round_robin", "teams": 3,
                                                     "starts": "2026-11-01"}]
    later = dict(body, name="Winter", starts="2026-12-31")          # a season that starts later: not counted
    http("POST", club.url + "/seasons", json.dumps(later).encode(), organiser)
    assert all(g["result"] is None for r in club.get("/seasons/winter").json["rounds"] for g in r["games"])
    assert club.get("/seasons/nothing").status == 404



@pytest.mark.parametrize("size", [2, 4, 8, 16, 32])
def test_the_bracket_keeps_the_top_seeds_apart_until_the_end(size):
    order = seeding(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(a + b == size + 1 for a, b in zip(order[::2], order[1::2]))      # 1 v n, 2 v n-1...
    if size >= 4:
        half = size // 2
        assert (1 in order[:half]) != (2 in order[:half])                         # 1 and 2 meet in the final


def entry(name, home, away, winner, date="2026-11-30 18:00"):
    return Entry(Path(name), game="fublet", home=home, away=away, finished=True, winner=winner, date=date)


def test_a_knockout_goes_on_with_the_winners_byes_for_the_top_seeds_and_a_draw_decides_nothing():
    teams = ["A", "B", "C", "D", "E"]            # 5 teams: a bracket of 8, the top 3 seeds have byes
    rounds = knockout(teams, [])
    assert [(t.home, t.away, t.bye) for t in rounds[0]] == [("A", None, True), ("D", "E", False),
                                                           ("B", None, True), ("C", None, True)]
    assert len(rounds) == 3 and rounds[-1][0].winner is None
    played = [entry("m1", "E", "D", None),                          # level: they play again
              entry("m2", "D", "E", "away", "2026-11-30 19:00"),    # E win (after a shoot-out, say)
              entry("m3", "C", "B", "home"),                         # C beat B
              entry("m4", "A", "E", "home", "2026-12-01 10:00"),
              entry("m5", "C", "A", "away", "2026-12-02 10:00")]
    rounds = knockout(teams, played)
    assert rounds[0][1].winner == "E" and rounds[0][1].drawn == ("m1",) and rounds[0][1].entry.path.name == "m2"
    assert [(t.home, t.away, t.winner) for t in rounds[1]] == [("A", "E", "A"), ("B", "C", "C")]
    assert (rounds[2][0].home, rounds[2][0].away, rounds[2][0].winner) == ("A", "C", "A")


def test_a_cup_on_the_club_server(club, tmp_path):
    organiser = {"Authorization": f"Bearer {club.ledger.organiser_token}", "Content-Type": "application/json"}
    cup = {"name": "Winter Cup", "game": "fublet", "format": "knockout", "starts": "2026-11-01",
           "teams": ["Touchline Rovers", "Dock Rangers", "Harbour Athletic"], "tables": ["Table 1", "Table 2"]}
    made = http("POST", club.url + "/seasons", json.dumps(cup).encode(), organiser)
    assert made.status == 200, made.body
    first = made.json["rounds"][0]["games"]
    assert [(g["home"], g["away"], g["bye"]) for g in first] == [("Touchline Rovers", None, True),
                                                                ("Dock Rangers", "Harbour Athletic", False)]
    assert first[1]["table"] == "Table 1" and made.json["champion"] is None
    legs = http("POST", club.url + "/seasons", json.dumps(dict(cup, name="Two legs", home_and_away=True)).encode(),
                organiser)
    assert legs.status == 400 and "one match" in legs.json["error"]

    journal = match_journal(tmp_path, "fublet")       # Touchline Rovers v Harbour Athletic, won on penalties
    tablet = club.tablet()
    match, rows = wire_rows(journal)
    tablet.upload_all(match, rows)
    assert tablet.post(f"/matches/{match}/result", result_of(tablet.key, journal)).status == 200
    final = club.get("/seasons/winter-cup").json["rounds"][-1]["games"][0]
    assert (final["home"], final["away"]) == ("Touchline Rovers", None)   # Harbour Athletic not through yet
    cup2 = dict(cup, name="Final Only", teams=["Touchline Rovers", "Harbour Athletic"])
    final = http("POST", club.url + "/seasons", json.dumps(cup2).encode(), organiser).json
    assert final["champion"] == "Touchline Rovers"
    assert final["rounds"][0]["games"][0]["result"]["decided_by"] == "shoot-out"
