"""Swiss tournaments (issue 33): the pairing through py4swiss's FIDE Dutch system and the
standings' tie-breaks (companion/club/swiss.py), against hand-worked examples; and a whole
tournament on a real club server, driven over HTTP with results both coaches confirmed."""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from pathlib import Path

import pytest

from companion.club.swiss import Game, Score, SwissProblem, check, max_rounds, pair, standings
from tests.club_kit import DATA, Club, http, wire_rows
from tests.journal_fixtures import journal_of


def games(*pairs) -> list:
    """A round as (Game, Score): ("A", "B", 1, 0) a game, ("C",) a bye."""
    return [(Game(p[0]), None) if len(p) == 1 else (Game(p[0], p[1]), Score(p[2], p[3])) for p in pairs]


# --- pairing -------------------------------------------------------------------------------------------

def test_round_1_is_the_dutch_top_half_against_the_bottom_half_colours_alternating():
    teams = ["A", "B", "C", "D", "E", "F"]
    assert pair(teams, 3, []) == [Game("A", "D"), Game("E", "B"), Game("C", "F")]
    odd = pair(teams[:5], 3, [])           # the lowest seed sits out
    assert odd[-1] == Game("E") and odd[:-1] == [Game("A", "C"), Game("D", "B")]


@pytest.mark.parametrize("n", range(3, 13))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_seeded_tournaments_pair_everyone_once_a_round_never_twice_and_balance_home_and_away(n, seed):
    rng = random.Random(seed * 100 + n)
    teams = [f"Team {i}" for i in range(1, n + 1)]
    rounds = max(2, math.ceil(math.log2(n)))     # what a field of n supports (6 teams: 3 rounds)
    history: list = []
    for _ in range(rounds):
        next_round = pair(teams, rounds, history)
        playing = [t for g in next_round for t in (g.home, g.away) if t is not None]
        assert sorted(playing) == sorted(teams)                                  # each team once a round
        assert [g.bye for g in next_round].count(True) == n % 2                  # a bye only when odd, last
        assert not any(g.bye for g in next_round[:-1])
        history.append([(g, None if g.bye else Score(rng.randint(0, 3), rng.randint(0, 3))) for g in next_round])
    met = Counter(frozenset((g.home, g.away)) for r in history for g, _ in r if not g.bye)
    assert max(met.values()) == 1                                                # no two teams meet twice
    byes = Counter(g.home for r in history for g, _ in r if g.bye)
    assert all(v == 1 for v in byes.values())                                    # nobody sits out twice
    home = Counter(g.home for r in history for g, _ in r if not g.bye)
    away = Counter(g.away for r in history for g, _ in r if not g.bye)
    assert all(abs(home[t] - away[t]) <= 2 for t in teams)                       # FIDE's colour limit
    for t in teams:                                                              # never three at home running
        sides = ["h" if g.home == t else "a" for r in history for g, _ in r if not g.bye and t in (g.home, g.away)]
        assert "hhh" not in "".join(sides) and "aaa" not in "".join(sides)


def test_a_draw_is_half_a_point_for_pairing_and_the_winners_meet_next():
    teams = ["A", "B", "C", "D"]
    r1 = games(("A", "C", 2, 0), ("D", "B", 1, 1))
    r2 = pair(teams, 3, [r1])
    assert r2[0] in (Game("A", "B"), Game("B", "A"), Game("A", "D"), Game("D", "A"))   # A (1) meets a ½
    assert all({g.home, g.away} != {"A", "C"} for g in r2)


def test_a_round_no_pairing_is_left_for_is_refused_with_its_reason():
    teams = ["A", "B", "C", "D", "E", "F"]
    history: list = []
    for _ in range(3):                              # the home side wins every game
        history.append([(g, Score(1, 0)) for g in pair(teams, 5, history)])
    with pytest.raises(SwissProblem, match="round 4 cannot be paired.*ends after round 3"):
        pair(teams, 5, history)
    assert "1 to 5" in check(teams, 6) and "at least 3 teams" in check(["A", "B"], 1) and check(teams, 5) == ""


# --- standings: hand-worked ----------------------------------------------------------------------------

def table(rows) -> list[tuple]:
    return [(s.rank, s.team, s.points, s.buchholz, s.buchholz_cut1, s.sonneborn_berger, s.goal_difference,
             s.goals_for, s.head_to_head) for s in rows]


def test_points_then_buchholz_with_every_tie_break_worked_by_hand():
    # R1 A 1-0 B, C 1-1 D, E 2-0 F; R2 A 0-0 C, B 1-0 E, D 0-1 F; R3 A 0-1 D, B 2-0 F, C 0-0 E.
    # Points: A W D L 4, B L W W 6, C D D D 3, D D L W 4, E W L D 4, F L W L 3.
    # Buchholz (the opponents' points): A B6+C3+D4 13, B A4+E4+F3 11, C D4+A4+E4 12, D C3+F3+A4 10,
    # E F3+B6+C3 12, F E4+D4+B6 14; cut-1 drops the lowest: A 10, B 8, C 8, D 7, E 9, F 10.
    # Sonneborn-Berger (beaten opponents' points, half a drawn one's): A 6+1.5 7.5, B 4+3 7, C 2+2+2 6,
    # D 1.5+4 5.5, E 3+1.5 4.5, F 4.
    rounds = [games(("A", "B", 1, 0), ("C", "D", 1, 1), ("E", "F", 2, 0)),
              games(("A", "C", 0, 0), ("B", "E", 1, 0), ("D", "F", 0, 1)),
              games(("A", "D", 0, 1), ("B", "F", 2, 0), ("C", "E", 0, 0))]
    assert table(standings(list("ABCDEF"), rounds)) == [
        (1, "B", 6, 11, 8, 7.0, 2, 3, None),
        (2, "A", 4, 13, 10, 7.5, 0, 1, None),    # A, E, D level on 4: Buchholz 13, 12, 10 decides (head
        (3, "E", 4, 12, 9, 4.5, 1, 2, None),      # to head only counts among teams level on all before it)
        (4, "D", 4, 10, 7, 5.5, 0, 2, None),
        (5, "F", 3, 14, 10, 4.0, -3, 1, None),    # F, C level on 3: Buchholz 14 before 12
        (6, "C", 3, 12, 8, 6.0, 0, 1, None),
    ]


def test_sonneborn_berger_then_goal_difference_then_head_to_head_decide_in_that_order():
    # Sonneborn-Berger: a round robin of four. R1 A 1-0 B, C 0-1 D; R2 A 0-1 C, B 0-0 D; R3 A 0-0 D, B 1-0 C.
    # A and B: 4 points, Buchholz 12 (B4+C3+D5, A4+D5+C3), cut-1 9; SB A 4 + 2.5 = 6.5, B 2.5 + 3 = 5.5.
    rr = [games(("A", "B", 1, 0), ("C", "D", 0, 1)), games(("A", "C", 0, 1), ("B", "D", 0, 0)),
          games(("A", "D", 0, 0), ("B", "C", 1, 0))]
    assert [row[:6] for row in table(standings(list("ABCD"), rr))] == [
        (1, "D", 5, 11, 8, 7.0), (2, "A", 4, 12, 9, 6.5), (3, "B", 4, 12, 9, 5.5), (4, "C", 3, 13, 9, 4.0)]
    # Goal difference and head to head: R1 A 1-0 B, C 1-0 D, E 1-0 F; R2 A 1-0 C, B 0-0 E, D 1-0 F;
    # R3 A 0-1 D, B 2-0 F, C 1-0 E. A and C: 6 points, Buchholz 16, cut-1 12, SB 10, +1, 2 goals: A beat C.
    # B and E: 4 points, Buchholz 10, cut-1 10, SB 2; goal difference +1 against 0.
    rounds = [games(("A", "B", 1, 0), ("C", "D", 1, 0), ("E", "F", 1, 0)),
              games(("A", "C", 1, 0), ("B", "E", 0, 0), ("D", "F", 1, 0)),
              games(("A", "D", 0, 1), ("B", "F", 2, 0), ("C", "E", 1, 0))]
    assert table(standings(list("CABDEF"), rounds)) == [     # C seeded first: head to head still puts A first
        (1, "A", 6, 16, 12, 10.0, 1, 2, 3),
        (2, "C", 6, 16, 12, 10.0, 1, 2, 0),
        (3, "D", 6, 12, 12, 6.0, 1, 2, None),
        (4, "B", 4, 10, 10, 2.0, 1, 2, None),
        (5, "E", 4, 10, 10, 2.0, 0, 1, None),
        (6, "F", 0, 14, 10, 0.0, -4, 0, None),
    ]


def test_goals_scored_and_level_teams_share_the_place():
    # All draws: 2 points each, Buchholz 4, cut-1 2, SB 2, goal difference 0; goals scored A 3, B 2, C 1, D 0.
    draws = [games(("A", "B", 2, 2), ("C", "D", 0, 0)), games(("A", "C", 1, 1), ("B", "D", 0, 0))]
    assert [(s.rank, s.team, s.goals_for) for s in standings(list("DCBA"), draws)] == [
        (1, "A", 3), (2, "B", 2), (3, "C", 1), (4, "D", 0)]
    # A cycle (A beat B, B beat C, C beat A, each drew D): level on everything; the seeding lists them.
    cycle = [games(("A", "B", 1, 0), ("C", "D", 0, 0)), games(("C", "A", 1, 0), ("B", "D", 0, 0)),
             games(("A", "D", 0, 0), ("B", "C", 1, 0))]
    assert [(s.rank, s.team, s.head_to_head) for s in standings(list("ABCD"), cycle)] == [
        (1, "A", 3), (1, "B", 3), (1, "C", 3), (4, "D", None)]


def test_a_bye_is_a_win_without_goals_and_counts_the_teams_own_points_in_buchholz():
    rounds = [games(("A", "B", 2, 1), ("C",))]
    rows = {s.team: s for s in standings(["A", "B", "C"], rounds)}
    assert (rows["C"].points, rows["C"].byes, rows["C"].played, rows["C"].goals_for, rows["C"].buchholz) == (3, 1, 0, 0, 3)
    assert rows["A"].buchholz == 0 and rows["B"].buchholz == 3
    assert [s.team for s in standings(["A", "B", "C"], rounds)] == ["C", "A", "B"]   # Buchholz 3 before 0
    unplayed = [[(Game("A", "B"), None), (Game("C"), None)]]                        # paired, not played yet
    assert [(s.team, s.played, s.points) for s in standings(["A", "B", "C"], unplayed)] == [
        ("C", 0, 3), ("A", 0, 0), ("B", 0, 0)]


# --- on the club server --------------------------------------------------------------------------------

def won_by(folder: Path, winner: str, loser: str) -> Path:
    """The shipped Fußball-Liga match (its home side wins 2-0) with ``winner`` at home, as a journal."""
    lines = (DATA / "fussball_liga_full_match.jsonl").read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["data"]["home"]["name"], first["data"]["away"]["name"] = winner, loser
    lines[0] = json.dumps(first, ensure_ascii=False, separators=(",", ":"))
    source = folder / f"{winner}-{loser}.jsonl".replace(" ", "_")
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return journal_of(source, folder / (source.stem + ".sqlite"))


def play(club: Club, tablet, folder: Path, winner: str, loser: str) -> int:
    """A match played, published and confirmed at the table; the confirmation's status."""
    from tests.test_club_server import result_of

    journal = won_by(folder, winner, loser)
    match, rows = wire_rows(journal)
    tablet.upload_all(match, rows)
    return tablet.post(f"/matches/{match}/result", result_of(tablet.key, journal)).status


def organiser_of(club: Club) -> dict[str, str]:
    return {"Authorization": f"Bearer {club.ledger.organiser_token}", "Content-Type": "application/json"}


def drive_tournament(club: Club, folder: Path, teams: list[str], rounds: int, tables: list[str]) -> dict:
    """Create a tournament and play it to the end over HTTP: in each game the better seed wins,
    set up at home on the tablet (the pairing's home or away side); returns the last view."""
    organiser = organiser_of(club)
    body = {"name": "Weekend Swiss", "game": "fussball_liga", "teams": teams, "tables": tables, "rounds": rounds,
            "starts": "2026-11-01"}
    assert http("POST", club.url + "/swiss", json.dumps(body).encode()).status == 401
    made = http("POST", club.url + "/swiss", json.dumps(body).encode(), organiser)
    assert made.status == 200, made.body
    view = made.json
    assert view["round"] == 1 and view["rounds_total"] == rounds and view["finished"] is False
    assert http("POST", club.url + "/swiss", json.dumps(body).encode(), organiser).status == 409
    tablet = club.tablet()
    seed = {t: i for i, t in enumerate(teams)}
    for number in range(1, rounds + 1):
        current = view["rounds"][-1]
        assert current["round"] == number and current["complete"] is False
        assert len(current["games"]) == len(teams) // 2 and (current["bye"] is not None) == (len(teams) % 2 == 1)
        for k, g in enumerate(current["games"]):
            assert (g["board"], g["table"], g["sitting"]) == (k + 1, tables[k % len(tables)], k // len(tables) + 1)
        for k, g in enumerate(current["games"]):
            early = http("POST", club.url + "/swiss/weekend-swiss/next", b"", organiser)
            assert early.status == 409 and f"Round {number} is under way" in early.json["error"]
            for missing in current["games"][k:]:        # the games still to confirm, by table, named
                assert f"{missing['table']}: {missing['home']} v {missing['away']}" in early.json["error"]
            better, worse = sorted((g["home"], g["away"]), key=seed.get)
            assert play(club, tablet, folder, better, worse) == 200
        view = club.get("/swiss/weekend-swiss").json
        assert view["rounds"][number - 1]["complete"] is True
        assert view["round"] == min(number + 1, rounds)      # the next round was paired by the last confirmation
    return view


@pytest.fixture
def club(tmp_path):
    club = Club(tmp_path / "club")
    yield club
    club.stop()


def test_a_whole_swiss_tournament_on_the_club_server(club, tmp_path):
    teams = ["Rovers", "Athletic", "Rangers", "United", "Wanderers", "Albion"]
    tables = ["Table 1", "Table 2"]
    bad = http("POST", club.url + "/swiss", json.dumps({"name": "X", "game": "fussball_liga", "teams": teams,
                                                       "rounds": 6}).encode(), organiser_of(club))
    assert bad.status == 400 and "1 to 5 Swiss rounds" in bad.json["error"]
    view = drive_tournament(club, tmp_path, teams, 3, tables)
    assert view["finished"] is True and view["missing"] == [] and "standings are final" in view["next"]
    games = [g for r in view["rounds"] for g in r["games"]]
    assert len(games) == 9 and all(g["result"] is not None for g in games)
    assert len({frozenset((g["home"], g["away"])) for g in games}) == 9                    # no pair twice
    # Each result turned to the pairing's sides: the better seed won every game 2-0, home or away.
    seed = {t: i for i, t in enumerate(teams)}
    for g in games:
        better = min(g["home"], g["away"], key=seed.get)
        assert g["result"]["winner"] == better
        assert g["result"]["score"] == ("2-0" if g["home"] == better else "0-2")
    home = Counter(g["home"] for g in games)
    assert all(1 <= home[t] <= 2 for t in teams)                                           # home and away turn about
    wins = Counter(g["result"]["winner"] for g in games)
    standings_ = view["standings"]
    assert [r["points"] for r in standings_] == sorted((3 * wins[t] for t in teams), reverse=True)
    assert standings_[0]["team"] == "Rovers" and standings_[0]["points"] == 9
    assert view["tiebreaks"] == ["points", "buchholz", "buchholz_cut1", "sonneborn_berger", "goal_difference",
                                 "goals_for", "head_to_head"]
    done = http("POST", club.url + "/swiss/weekend-swiss/next", b"", organiser_of(club))
    assert done.status == 409 and "All 3 rounds are played" in done.json["error"]
    again = club.get("/swiss/weekend-swiss")
    assert club.get("/swiss/weekend-swiss", {"If-None-Match": again.headers["etag"]}).status == 304
    assert club.get("/swiss").json["tournaments"] == [{"tournament": "weekend-swiss", "name": "Weekend Swiss",
                                                      "game": "fussball_liga", "teams": 6, "rounds": 3,
                                                      "starts": "2026-11-01"}]
    assert club.get("/swiss/nothing").status == 404
    club.restart()                                     # the rounds as they were paired, kept
    assert club.get("/swiss/weekend-swiss").body == again.body


def test_an_odd_number_of_teams_gives_a_bye_each_round_to_a_different_team(club, tmp_path):
    teams = ["Rovers", "Athletic", "Rangers", "United", "Wanderers"]
    view = drive_tournament(club, tmp_path, teams, 3, ["Table 1"])
    byes = [r["bye"] for r in view["rounds"]]
    assert None not in byes and len(set(byes)) == 3
    rows = {r["team"]: r for r in view["standings"]}
    assert all(rows[t]["byes"] == 1 and rows[t]["played"] == 2 for t in byes)
    assert all(g["sitting"] == k + 1 for r in view["rounds"] for k, g in enumerate(r["games"]))   # one table: sittings


def test_the_page_of_every_table_shows_the_tournament(club, tmp_path):
    from tests import web_browser

    why = web_browser.available()
    if why:
        pytest.skip(why)
    from selenium.webdriver.support.ui import WebDriverWait

    teams = ["Rovers", "Athletic", "Rangers", "United", "Wanderers"]
    body = {"name": "Weekend Swiss", "game": "fussball_liga", "teams": teams, "tables": ["Table 1", "Table 2"],
            "rounds": 3, "starts": "2026-11-01"}
    first = http("POST", club.url + "/swiss", json.dumps(body).encode(), organiser_of(club)).json["rounds"][0]
    game = first["games"][0]
    better, worse = sorted((game["home"], game["away"]), key=teams.index)
    assert play(club, club.tablet(), tmp_path, better, worse) == 200
    with web_browser.chromium(1280, 800) as driver:
        driver.get(club.url + "/")
        WebDriverWait(driver, 60).until(lambda d: d.find_elements("css selector", "#swiss .season table.league"))
        part = driver.find_element("css selector", "#swiss .season")
        text = part.text
        assert "Swiss" in text and "Weekend Swiss" in text and "round 1 of 3" in text
        assert f"Table 2: {first['games'][1]['home']} v {first['games'][1]['away']}" in text   # still to play
        assert f"{first['bye']} sits out this round" in text
        rows = part.find_element("css selector", "table.league").text.splitlines()
        assert rows[0].split()[-3:] == ["Bh", "Bh-1", "SB"]
        assert rows[1].startswith(f"1 {first['bye']} 0 0 0 0 1 ") and rows[2].startswith(f"2 {better} 1 1 0 0 0 ")


def test_a_round_that_cannot_be_paired_ends_the_tournament_in_words(club, tmp_path):
    teams = ["Rovers", "Athletic", "Rangers", "United", "Wanderers", "Albion"]
    body = {"name": "Long Swiss", "game": "fussball_liga", "teams": teams, "tables": ["Table 1"], "rounds": 5,
            "starts": "2026-11-01"}
    view = http("POST", club.url + "/swiss", json.dumps(body).encode(), organiser_of(club)).json
    tablet = club.tablet()
    for number in range(1, 4):                      # the home side wins every game: round 4 has no pairing left
        for g in view["rounds"][-1]["games"]:
            assert play(club, tablet, tmp_path, g["home"], g["away"]) == 200
        view = club.get("/swiss/long-swiss").json
    assert view["round"] == 3 and view["finished"] is True
    assert view["next"].startswith("Round 4 cannot be paired") and "ends after round 3" in view["next"]
    refused = http("POST", club.url + "/swiss/long-swiss/next", b"", organiser_of(club))
    assert refused.status == 409 and "round 4 cannot be paired" in refused.json["error"]
