"""Every number of the match report, checked against counts made here, independently, from
the scripted full matches of each game (tests/data/*_full_match.jsonl): the raw JSON lines
are read with ``json`` and counted by their own signals (outcome words, declared actions,
the ball's holder as the public summary shows it), not by the report's code."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from companion.games import ruleset_for
from companion.jsonl import read_file
from companion.report import build_report

DATA = Path(__file__).parent / "data"
GAMES = ("fublet", "football_leader", "fussball_liga", "futboard")
SIDES = ("home", "away")


def rows_of(game: str) -> list[dict]:
    rows = [json.loads(line) for line in (DATA / f"{game}_full_match.jsonl").read_text(encoding="utf-8").splitlines()]
    return [r for r in rows if "status" not in r]  # undone events are not part of the match


def kind(row: dict) -> str:
    return row["type"].partition(".")[2]


def side(ref: str) -> str:
    return ref.partition("#")[0]


@pytest.fixture(scope="module", params=GAMES)
def case(request):
    game = request.param
    imported = read_file(DATA / f"{game}_full_match.jsonl")
    return game, rows_of(game), build_report(ruleset_for(game), imported.events)


def test_goals_cards_and_substitutions(case):
    game, rows, report = case
    goals = Counter(r["data"]["team"] for r in rows if kind(r) == "goal_scored")
    yellow, red = Counter(), Counter()
    for r in rows:
        if kind(r) == "card_shown":
            d = r["data"]
            colour = d.get("colour", "yellow")
            if colour.startswith("yellow"):
                yellow[side(d["player"])] += 1
            if d["sent_off"] or colour == "red":
                red[side(d["player"])] += 1
    subs = Counter(side(r["data"]["off"]) for r in rows if kind(r) in ("substitution_made", "player_replaced"))
    for s in SIDES:
        st = report["stats"][s]
        assert (st["goals"], st["yellow_cards"], st["red_cards"], st["substitutions"]) == \
               (goals[s], yellow[s], red[s], subs[s]), s
    assert report["score"] == {s: goals[s] for s in SIDES}
    scorers = [(r["data"]["team"], r["data"]["scorer"]) for r in rows if kind(r) == "goal_scored"]
    assert [(g["team"], g["scorer"]) for g in report["goals"]] == scorers
    assert report["finished"] is any(kind(r) == "match_ended" for r in rows)


def shots_of(game: str, rows: list[dict]) -> list[tuple[str, str]]:
    """(team, player) of every shot at goal, by each game's own declaration."""
    out = []
    if game == "fublet":
        for r in rows:
            if kind(r) == "action_declared" and r["data"]["declaration"]["action"] in ("long_shot", "finalization"):
                d = r["data"]["declaration"]
                out.append((d["team"], d["player"]))
    elif game == "football_leader":
        out = [(side(r["data"]["shooter"]), r["data"]["shooter"]) for r in rows if kind(r) == "shot_declared"]
    elif game == "fussball_liga":
        pitch = json.loads((Path(__file__).parents[1] / "companion/fussball_liga/data/pitch.json").read_text("utf-8"))
        goal_squares = goal_squares_of(pitch)
        for r in rows:
            d = r["data"]
            if kind(r) == "kick_taken" and d["receiver"] is None and tuple(d["target"]) in goal_squares:
                out.append((side(d["player"]), d["player"]))
            elif kind(r) == "penalty_taken":
                out.append((side(d["kicker"]), d["kicker"]))
    else:
        for r in rows:
            if kind(r) == "kick_taken":
                out.append((side(r["data"]["kicker"]), r["data"]["kicker"]))
            elif kind(r) == "pending_opened" and r["data"]["item"]["tests"][0]["label"].startswith("Penalty kick"):
                kicker = r["data"]["item"]["tests"][0]["player"]
                out.append((side(kicker), kicker))
    return out


def goal_squares_of(pitch: dict) -> set[tuple[int, int]]:
    """The squares behind each goal line that are the goal, read from the pitch file."""
    found = set()

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "goal" and isinstance(value, list):
                    for sq in value:
                        found.add(tuple(sq))
                else:
                    walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)
    walk(pitch)
    return found


def saves_of(game: str, rows: list[dict], goals: Counter) -> Counter | None:
    """Saves credited to each side's goalkeeper, by each game's own words for them."""
    saves = Counter()
    if game == "football_leader":
        return None
    if game == "fublet":
        on_target = Counter(r["data"]["outcome"].split()[0].lower() for r in rows if kind(r) == "contest_resolved"
                            and "the shot is on target" in r["data"]["outcome"])
        for s in SIDES:
            saves[{"home": "away", "away": "home"}[s]] = on_target[s] - goals[s]
        return saves
    if game == "fussball_liga":
        keepers = {"home#1", "away#1"}
        for r in rows:
            if kind(r) == "roll_resolved" and r["data"]["outcome"].endswith("saved"):
                kicker = re.search(r"by (\w+#\d+)", r["data"]["outcome"]).group(1)
                saves[{"home": "away", "away": "home"}[side(kicker)]] += 1
            if kind(r) == "flight_ended" and r["data"]["reason"].endswith("intercepted the ball"):
                who = r["data"]["reason"].split()[0]
                if who in keepers:
                    saves[side(who)] += 1
        return saves
    for r in rows:  # futboard: the goalkeeper rolled and it was no goal
        if kind(r) == "contest_resolved":
            text = r["data"]["outcome"]
            keeper_rolled = re.match(r"(\w+#\d+) kicks \d+ .*; (\w+#\d+) rolls", text) or text.startswith("penalty:")
            if keeper_rolled and not text.endswith("GOAL"):
                kicker = re.search(r"(\w+)#\d+", text).group(1)
                saves[{"home": "away", "away": "home"}[kicker]] += 1
    return saves


def test_shots_and_saves(case):
    game, rows, report = case
    shots = shots_of(game, rows)
    assert [(s["team"], s["player"]) for s in report["shots"]] == shots
    goals = Counter(r["data"]["team"] for r in rows if kind(r) == "goal_scored")
    saves = saves_of(game, rows, goals)
    for s in SIDES:
        st = report["stats"][s]
        assert st["shots"] == sum(1 for t, _ in shots if t == s)
        if saves is None:
            assert st["saves"] is None and st["shots_on_target"] is None
        else:
            assert st["saves"] == saves[s], s
            other = {"home": "away", "away": "home"}[s]
            assert st["shots_on_target"] == goals[s] + saves[other]
    outcomes = Counter(s["outcome"] for s in report["shots"])
    assert outcomes["goal"] == sum(goals.values())


def test_fouls_and_injuries(case):
    game, rows, report = case
    fouls = Counter()
    if game == "fublet":
        fouls = Counter(side(r["data"]["reason"].split()[-1]) for r in rows
                        if kind(r) == "round_stopped" and r["data"]["reason"].startswith("foul by"))
    elif game == "football_leader":
        tackler = None
        for r in rows:
            if kind(r) == "tackle_declared":
                tackler = r["data"]["tackler"]
            if kind(r) == "roll_resolved" and re.match(r"Foul check \d+: foul", r["data"]["outcome"]):
                fouls[side(tackler)] += 1
    else:
        key = "player" if game == "fussball_liga" else "fouler"
        fouls = Counter(side(r["data"][key]) for r in rows if kind(r) == "foul_committed")
    injuries = Counter(side(r["data"]["player"]) for r in rows if kind(r) == "player_injured")
    for s in SIDES:
        assert report["stats"][s]["fouls"] == fouls[s], s
        expected_injuries = injuries[s] if game == "fublet" else None
        assert report["stats"][s]["injuries"] == expected_injuries


def summary_holder(game: str, summary: dict) -> str | None:
    ball = summary.get("ball") or {}
    return ball.get("holder") if game == "fussball_liga" else ball.get("carrier")


def holders_at_command_ends(game: str, events) -> dict[int, str | None]:
    """{index of a command's last event: who holds the ball then}, from the public summary."""
    ruleset = ruleset_for(game)
    state = ruleset.initial_state()
    out = {}
    for i, event in enumerate(events):
        state = ruleset.evolve(state, event)
        if i + 1 == len(events) or events[i + 1].batch != event.batch:
            out[i] = summary_holder(game, ruleset.summary(state)) if getattr(state, "created", False) else None
    return out


def previous_end(ends: dict[int, str | None], i: int) -> str | None:
    earlier = [j for j in ends if j < i]
    return ends[max(earlier)] if earlier else None


def test_passes_and_tackles(case):
    game, rows, report = case
    events = read_file(DATA / f"{game}_full_match.jsonl").events
    carrier_after = holders_at_command_ends(game, events)
    # The attempts, by each game's own declaration; shots are counted elsewhere.
    attempts = []  # (index, kind, team, player)
    shot_players = {p for _, p in shots_of(game, rows)}
    for i, r in enumerate(rows):
        d, k = r["data"], kind(r)
        if game == "fublet" and k == "action_declared" and d["declaration"]["action"] in ("short_pass", "long_pass",
                                                                                           "cross"):
            attempts.append((i, "pass", d["declaration"]["team"], d["declaration"]["player"]))
        elif game == "fublet" and k == "pending_opened" and d["item"].get("ctx", {}).get("kind") == "engagement":
            holder = previous_end(carrier_after, i)
            t = next(t for t in d["item"]["tests"] if t["team"] != side(holder))
            attempts.append((i, "tackle", t["team"], t["player"]))
        elif game == "football_leader" and k == "pass_declared":
            attempts.append((i, "pass", side(d["passer"]), d["passer"]))
        elif game == "football_leader" and k == "tackle_declared":
            attempts.append((i, "tackle", side(d["tackler"]), d["tackler"]))
        elif game == "fussball_liga" and k == "kick_taken":
            attempts.append((i, "kick", side(d["player"]), d["player"]))
        elif game == "fussball_liga" and k == "penalty_taken":
            attempts.append((i, "kick", side(d["kicker"]), d["kicker"]))
        elif game == "fussball_liga" and k == "tackle_called":
            attempts.append((i, "tackle", side(d["principal"]), d["principal"]))
        elif game == "futboard" and k == "ball_passed":
            attempts.append((i, "pass", side(d["passer"]), d["passer"]))
        elif game == "futboard" and k == "take_attempted":
            attempts.append((i, "tackle", side(d["player"]), d["player"]))
        elif game == "futboard" and (k == "kick_taken" or (k == "pending_opened" and d["item"]["tests"][0]["label"]
                                                           .startswith("Penalty kick"))):
            attempts.append((i, "kick", None, None))
        elif game in ("fublet", "football_leader") and k in ("action_declared", "shot_declared"):
            attempts.append((i, "kick", None, None))
        if k in ("goal_scored", "period_started"):
            attempts.append((i, "stop", d.get("team"), None))
    passes = {s: Counter() for s in SIDES}
    tackles = {s: Counter() for s in SIDES}
    liga_shot_count = 0
    for n, (i, what, team, player) in enumerate(attempts):
        if what in ("kick", "stop") and not (game == "fussball_liga" and what == "kick"):
            continue
        if game == "fussball_liga" and what == "kick":
            d = rows[i]["data"]
            is_shot = kind(rows[i]) == "penalty_taken" or (d["receiver"] is None and player in shot_players and
                                                          tuple(d["target"]) in goal_squares_of(json.loads(
                                                              (Path(__file__).parents[1] /
                                                               "companion/fussball_liga/data/pitch.json").read_text(
                                                                  "utf-8"))))
            if is_shot:
                liga_shot_count += 1
                continue
            what = "pass"
        end = attempts[n + 1][0] if n + 1 < len(attempts) else len(rows)
        stop = attempts[n + 1] if n + 1 < len(attempts) else None
        outcome = None
        for j in range(i, end):
            if j not in carrier_after:
                continue  # halfway through a command: nobody saw this state
            now = carrier_after[j]
            prev = previous_end(carrier_after, j)
            if now is not None and now != prev:
                if what == "pass":
                    outcome = "made" if side(now) == team and now != player else "lost"
                else:
                    outcome = "won" if side(now) == team else "lost"
                break
        if outcome is None and stop is not None and stop[1] == "stop" and stop[2] is not None:
            outcome = "made" if (what == "pass" and stop[2] == team) else "lost"  # a goal ends it
        (passes if what == "pass" else tackles)[team][outcome or "lost"] += 1
    for s in SIDES:
        st = report["stats"][s]
        assert (st["passes"], st["passes_made"], st["passes_lost"]) == (
            sum(passes[s].values()), passes[s]["made"], passes[s]["lost"]), s
        assert (st["tackles"], st["tackles_won"]) == (sum(tackles[s].values()), tackles[s]["won"]), s


def test_round_and_turn_counters(case):
    game, rows, report = case
    ticks = report["ticks"]
    if game == "fublet":
        paces = [r["data"]["pace"] for r in rows if kind(r) == "pace_set"]
        assert [t["round_pace"] for t in ticks] == paces
        rounds = sorted({r["data"]["round"] for r in rows if kind(r) == "phase_started" and r["data"]["round"] > 0})
        assert [t["round"] for t in ticks] == rounds
        for s in SIDES:
            deltas = [r["data"]["delta"] for r in rows if kind(r) == "mp_changed" and r["data"]["team"] == s]
            assert sum(t[f"mp_earned_{s}"] for t in ticks) == sum(d for d in deltas if d > 0)
            assert sum(t[f"mp_spent_{s}"] for t in ticks) == -sum(d for d in deltas if d < 0)
    elif game == "football_leader":
        assert len(ticks) == sum(1 for r in rows if kind(r) == "turn_started")
        assert [t["team"] for t in ticks] == [r["data"]["team"] for r in rows if kind(r) == "turn_started"]
        final = ruleset_for(game).summary(replayed_state(game))["decks"]
        for s in SIDES:
            played = sum(1 for r in rows if kind(r) == "card_played" and r["data"]["team"] == s)
            assert sum(t[f"cards_played_{s}"] for t in ticks) == played
            assert ticks[-1][f"cards_left_{s}"] == final[s]["deck"] + final[s]["hand"]
    elif game == "fussball_liga":
        turns = []
        for r in rows:
            if kind(r) == "phase_started" and (not turns or r["data"]["turn"] != turns[-1]):
                turns.append(r["data"]["turn"])
        assert [t["turn"] for t in ticks] == turns
        for s in SIDES:
            spent = sum(r["data"]["cost"] for r in rows if kind(r) in ("player_moved", "ball_moved")
                        and side(r["data"]["player"]) == s)
            assert sum(t[f"mp_spent_{s}"] for t in ticks) == spent
    else:
        started = [r for r in rows if kind(r) == "turn_started"]
        assert [t["team"] for t in ticks] == [r["data"]["team"] for r in started]
        # Actions used: the turn's actions less what the summary says is left when the next begins.
        ruleset = ruleset_for(game)
        state = ruleset.initial_state()
        left_before_next, allowed = [], []
        for row, event in zip(rows, read_file(DATA / f"{game}_full_match.jsonl").events):
            if kind(row) == "turn_started":
                if allowed:
                    left_before_next.append(ruleset.summary(state)["actions_left"])
                allowed.append(row["data"]["actions"])
            state = ruleset.evolve(state, event)
        left_before_next.append(ruleset.summary(state)["actions_left"])
        assert [t["actions_used"] for t in ticks] == [max(0, a - left) for a, left in zip(allowed,
                                                                                            left_before_next)]


def replayed_state(game: str):
    ruleset = ruleset_for(game)
    state = ruleset.initial_state()
    for event in read_file(DATA / f"{game}_full_match.jsonl").events:
        state = ruleset.evolve(state, event)
    return state


def test_possession_and_heat_map(case):
    """Possession and the heat map, recounted from the public summary after every event."""
    game, rows, report = case
    ruleset = ruleset_for(game)
    state = ruleset.initial_state()
    held: list[Counter] = []
    heat = {s: Counter() for s in SIDES}
    last_tick = None
    events = read_file(DATA / f"{game}_full_match.jsonl").events
    started = False
    for i, event in enumerate(events):
        state = ruleset.evolve(state, event)
        row = rows[i]
        if kind(row) == "turn_started" and game in ("football_leader", "futboard"):
            started = True
            held.append(Counter())
        elif kind(row) == "phase_started" and game in ("fublet", "fussball_liga"):
            number = row["data"]["round" if game == "fublet" else "turn"]
            if number not in (last_tick, 0):
                last_tick = number
                started = True
                held.append(Counter())
        if i + 1 < len(events) and events[i + 1].batch == event.batch:
            continue  # only the states at the end of a command are read
        summary = ruleset.summary(state) if getattr(state, "created", False) else {}
        if started:
            started = False
            for p in summary["players"]:
                where = p.get("ms") or p.get("square") or p.get("space")
                if isinstance(where, dict):
                    where = where["key"]
                on = p["where"] in ("pitch", "field")
                if on and where is not None:
                    heat[side(p["player"])][tuple(where)] += 1
        holder = summary_holder(game, summary) if summary else None
        if holder and held:
            held[-1][side(holder)] += 1
    assert len(held) == len(report["ticks"])
    won = Counter()
    for c in held:
        if c["home"] > c["away"]:
            won["home"] += 1
        elif c["away"] > c["home"]:
            won["away"] += 1
        elif c["home"]:
            won["home"] += 0.5
            won["away"] += 0.5
    total = won["home"] + won["away"]
    for s in SIDES:
        assert report["possession"]["percent"][s] == pytest.approx(100 * won[s] / total, abs=0.05)
        got = {(r["x"], r["y"]): r["count"] for r in report["heat"]["rows"] if r["team"] == s}
        assert got == dict(heat[s]), s
    assert report["heat"]["samples"] == len(held) == len(report["ticks"]) > 0


def test_luck_meter_counts_each_coachs_dice(case):
    game, rows, report = case
    faces = {s: Counter() for s in SIDES}
    unowned = Counter()
    for r in rows:
        if kind(r) == "dice_rolled":
            for d in r["data"]["roll"]["dice"]:
                owner = d["die"].get("owner")
                (faces[owner] if owner else unowned)[(d["die"]["kind"], d["face"])] += 1
    for s in SIDES:
        coach = report["luck"]["coaches"][s]
        got = Counter()
        for k in coach["kinds"]:
            for face, n in k["faces"].items():
                if n:
                    got[(k["die"], int(face))] = n
        assert got == faces[s], s
        assert coach["dice"] == sum(faces[s].values())
        # The meter by hand: each face standardised against a fair die, summed, over sqrt(n).
        z = 0.0
        for (die, face), n in faces[s].items():
            lo, hi = (0, 9) if die == "d10" else (1, int(die[1:]))
            mean, sd = (lo + hi) / 2, ((hi - lo + 1) ** 2 - 1) ** 0.5 / 12 ** 0.5
            z += n * (face - mean) / sd
        z /= sum(faces[s].values()) ** 0.5
        assert coach["z"] == pytest.approx(z, abs=1e-3)
        lucky = report["luck"]["high_is_lucky"]
        if lucky is not None:
            assert coach["luck"] == pytest.approx(z if lucky else -z, abs=1e-3)
    assert sum(k["count"] for k in report["luck"]["unowned"]) == sum(unowned.values())


def test_timeline_is_in_order_and_names_every_goal_and_card(case):
    game, rows, report = case
    ticks = [e["tick"] for e in report["timeline"]]
    assert ticks == sorted(ticks)
    kinds = Counter(e["kind"] for e in report["timeline"])
    assert kinds["goal"] == sum(1 for r in rows if kind(r) == "goal_scored")
    assert kinds["yellow_card"] + kinds["red_card"] == sum(1 for r in rows if kind(r) == "card_shown")
    assert kinds["shot"] == len(report["shots"])
    # Figures by name, as the goals table names them: never "away#9".
    texts = [e["text"] for e in report["timeline"]]
    assert not [t for t in texts if re.search(r"\b(home|away)#\d", t)], texts[:20]
    teams = report["teams"]
    if kinds["goal"] or kinds["yellow_card"]:
        assert any(teams["home"] in t or teams["away"] in t for t in texts), texts[:20]


def test_each_goal_says_when_and_how(case):
    """When: the game's own record of the goal (the public summary). How: the shot that
    scored it, found here from the declarations before each goal."""
    game, rows, report = case
    summary_goals = ruleset_for(game).summary(replayed_state(game))["goals"]
    for goal, recorded in zip(report["goals"], summary_goals, strict=True):
        if game == "fublet":
            assert goal["when"] == f"{recorded['minute']}'"
        elif game == "fussball_liga":
            assert goal["when"].endswith(f"(turn {recorded['turn']})")
        else:
            assert goal["when"] == f"turn {recorded['turn']}"
    hows = []
    last = ""
    for r in rows:
        d, k = r["data"], kind(r)
        if game == "fublet" and k == "action_declared" and d["declaration"]["action"] in ("long_shot", "finalization"):
            last = d["declaration"]["action"].replace("_", " ")
        elif game == "football_leader" and k == "shot_declared":
            last = "?"
        elif game == "football_leader" and k == "card_played" and last == "?":
            last = d["purpose"]
        elif game == "fussball_liga" and k == "kick_taken":
            last = d["kind"].replace("_", " ")
        elif game == "fussball_liga" and k == "penalty_taken":
            last = "penalty kick"
        elif k == "goal_scored":
            hows.append(d.get("how") or last)
    assert len(hows) == len(report["goals"])
    for goal, how in zip(report["goals"], hows):
        assert goal["how"].startswith(how if how != "shot" else "kick"), (goal, how)
