"""docs/journal.md documents every Football Leader event type with a real example line, and
docs/assumptions.md keeps Football Leader's readings, each with the sentence it rests on.

(tests/test_docs_journal.py checks the types registered when it is collected; this file
imports the Football Leader rules first, so its types are always checked.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import companion.football_leader.rules  # noqa: F401  (registers the event types)
from companion.events import Event, EventPayload

DOCS = Path(__file__).resolve().parents[1] / "docs"
TEXT = (DOCS / "journal.md").read_text(encoding="utf-8")
SECTION = TEXT.split("### Football Leader events", 1)[1].split("\n### ", 1)[0]
TYPES = sorted(n for n in EventPayload.registry if n.startswith("football_leader."))
EXAMPLES = [line for line in SECTION.splitlines() if line.startswith('{"seq"')]


def test_there_are_types_and_examples():
    assert len(TYPES) >= 40
    assert len(EXAMPLES) == len(TYPES)  # match_created too: abridged for reading, then whole


@pytest.mark.parametrize("name", TYPES)
def test_every_type_has_a_paragraph_and_its_own_example(name):
    assert f"#### `{name}`" in SECTION, f"docs/journal.md does not document {name}"
    body = SECTION.split(f"#### `{name}`", 1)[1].split("####", 1)[0]
    lines = [line for line in body.splitlines() if line.startswith('{"seq"')]
    assert len(lines) == 1 and Event.from_line(lines[0]).type == name


@pytest.mark.parametrize("line", EXAMPLES)
def test_every_example_line_decodes_and_round_trips(line):
    event = Event.from_line(line)
    assert Event.from_line(event.to_line()) == event


def test_the_examples_are_lines_of_the_scripted_match():
    match = (Path(__file__).parent / "data" / "football_leader_full_match.jsonl").read_text(encoding="utf-8")
    lines = set(match.splitlines())
    assert all(line in lines for line in EXAMPLES)


def test_assumptions_are_numbered_and_quote_the_rulebook():
    text = (DOCS / "assumptions.md").read_text(encoding="utf-8")
    section = text.split("## Football Leader", 1)[1].split("\n## ", 1)[0]
    entries = re.findall(r"\*\*FL(\d+)\.", section)
    assert len(entries) >= 20
    assert [int(n) for n in entries] == list(range(1, len(entries) + 1))
    rulebook = (Path(__file__).resolve().parents[2] / "shared" / "rulebooks" / "football-leader.txt")
    if rulebook.exists():  # every quotation is a sentence of the rulebook
        book = " ".join(rulebook.read_text(encoding="utf-8").split())
        for quote in re.findall(r'"([^"]{12,})"', section):
            fragment = quote.split("...")[0].strip()
            assert " ".join(fragment.split()) in book, quote
