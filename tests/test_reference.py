"""The rules reference: its data files validate, every refusal and every pending request of the
four scripted matches finds its section, summaries are written here (no long copies of a
rulebook), and the readings it cites exist in docs/assumptions.md."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.errors import DataFileError
from companion.reference import for_game, games, parse, parse_readings, readings_by_id

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = {"fublet": "fublet.txt", "football_leader": "football-leader.txt", "futboard": "futboard.txt",
             "fussball_liga": "fussball-liga-variant.txt"}
GAMES = tuple(RULEBOOKS)


def rulebook_text(game: str) -> str | None:
    for folder in (ROOT.parent.parent / "shared" / "rulebooks", ROOT.parent / "shared" / "rulebooks",
                   Path("/work/shared/rulebooks")):
        path = folder / RULEBOOKS[game]
        if path.exists():
            return path.read_text(encoding="utf-8")
    return None


def test_every_game_has_a_reference():
    assert set(games()) == set(GAMES)


def sections_named_in_code(game: str) -> set[str]:
    """Every rulebook section a refusal in the game's rules names: refuse("Title", ...) and the
    module constants passed to refuse."""
    names = set()
    for path in (ROOT / "companion" / game).glob("*.py"):
        source = path.read_text(encoding="utf-8")
        constants = dict(re.findall(r'^([A-Z][A-Z_]*) = ["\'](.+?)["\']\s*(?:#.*)?$', source, re.M))
        names |= set(re.findall(r'refuse\(\s*"([^"]+)"', source))
        for const in re.findall(r"refuse\(\s*([A-Z][A-Z_]*)\b", source):
            if const in constants:
                names.add(constants[const])
    return names


@pytest.mark.parametrize("game", GAMES)
def test_every_section_a_refusal_names_is_in_the_reference(game):
    ref = for_game(game)
    names = sections_named_in_code(game)
    assert len(names) >= 5
    missing = sorted(n for n in names if ref.for_rule(ref.rule_prefix + n) is None)
    assert not missing, f"{game}: no reference section for {missing}"


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_refusal_message_finds_its_section(game):
    from companion.errors import RuleViolation

    ref = for_game(game)
    section = ref.sections[3]
    err = RuleViolation(ref.rule_prefix + section.title, "not now: try it after the kick-off")
    assert ref.for_rule(str(err)) == section
    assert ref.for_rule(err.rule) == section
    assert ref.for_rule("Somewhere else entirely") is None


@pytest.mark.parametrize("game", GAMES)
def test_every_pending_request_of_a_full_match_links_to_a_section(game):
    from companion.games import ruleset_for
    from tests.web_kit import batches, full_match

    ruleset = ruleset_for(game)
    ref = for_game(game)
    state = ruleset.initial_state()
    seen, unlinked = 0, set()
    for batch in batches(full_match(game)):
        for event in batch:
            state = ruleset.evolve(state, event)
        for request in ruleset.pending(state):
            seen += 1
            if ref.for_request(request.id, request.text) is None:
                unlinked.add((request.id, request.text[:60]))
    assert seen > 50
    assert not unlinked, sorted(unlinked)[:10]


@pytest.mark.parametrize("game", GAMES)
def test_summaries_are_written_here_not_copied(game):
    text = rulebook_text(game)
    if text is None:
        pytest.skip("the rulebooks are not beside this checkout")
    flat = re.sub(r"\s+", " ", text.lower())
    for section in for_game(game).sections:
        words = re.findall(r"[\w'-]+", section.summary.lower())
        for i in range(len(words) - 9):
            run = " ".join(words[i:i + 10])
            assert run not in flat, f"{game} {section.id}: '{run}' is copied from the rulebook"


@pytest.mark.parametrize("game", GAMES)
def test_every_reading_cited_exists_in_the_assumptions(game):
    known = readings_by_id()
    assert len(known) > 100
    for section in for_game(game).sections:
        for reading in section.readings:
            assert reading in known, f"{game} {section.id}: reading {reading} is not in docs/assumptions.md"


def test_readings_are_parsed_with_their_text():
    text = ("## Game\n\n**F1. Grid size.** \"divided into 384 PASS SQUARES\" vs\nmore text.\n\n"
            "**F2. Zones.** Lines.\n### Next\n")
    readings = parse_readings(text)
    assert readings["F1"].title == "Grid size" and "384 PASS SQUARES" in readings["F1"].text
    assert readings["F1"].text.endswith("more text.") and readings["F2"].text == "Lines."


def test_search_finds_by_words_titles_first():
    ref = for_game("fublet")
    found = ref.search("corner")
    assert found[0].id == "restarts"
    assert [s.id for s in ref.search("offside trap")][0] == "offside"
    assert ref.search("") == list(ref.sections)
    assert ref.search("zzzz nothing") == []


GOOD = {"game": "g", "rulebook": "G rulebook", "rule_prefix": "G rulebook, ",
        "sections": [{"id": "a", "title": "A", "summary": "About A."}],
        "requests": [{"id": "t*", "section": "a"}]}


@pytest.mark.parametrize("change, where", [
    (lambda d: d["sections"].append(dict(d["sections"][0])), "section 'a' / id: is used twice"),
    (lambda d: d["sections"][0].pop("summary"), "summary"),
    (lambda d: d["sections"][0].update(summary="x" * 700), "no copies of the rulebook"),
    (lambda d: d["sections"][0].update(readings=["twelve"]), "readings"),
    (lambda d: d["sections"][0].update(colour="red"), "colour"),
    (lambda d: d["requests"].append({"id": "x", "section": "nope"}), "request rule 2 / section"),
    (lambda d: d.update(sections=[]), "sections"),
])
def test_bad_data_is_refused_naming_the_entry_and_field(change, where):
    data = json.loads(json.dumps(GOOD))
    parse(data, "g.json")
    change(data)
    with pytest.raises(DataFileError) as err:
        parse(data, "g.json")
    assert where in str(err.value) and str(err.value).startswith("g.json")
