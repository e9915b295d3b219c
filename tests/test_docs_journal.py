"""docs/journal.md documents every event type, and its example lines are real events.

A new event type without a paragraph and an example in docs/journal.md fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.events import Event, EventPayload
from companion.games import ruleset_for
from companion.journal import APPLICATION_ID, SCHEMA_VERSION

# Every game registers its event types here.
for game in ("fublet", "futboard", "football_leader", "fussball_liga"):
    ruleset_for(game)

DOC = Path(__file__).resolve().parents[1] / "docs" / "journal.md"
TEXT = DOC.read_text(encoding="utf-8")
EXAMPLES = [line for line in TEXT.splitlines() if line.startswith('{"seq"')]
# Only the project's own types: tests register toy ones in the same registry.
TYPES = sorted(name for name, cls in EventPayload.registry.items() if cls.__module__.startswith("companion."))
ABRIDGED = {"fublet.match_created"}  # ~19 KB on one line: shown abridged, the full line is in the demo match


def test_there_are_types_and_examples():
    assert len(TYPES) > 30
    assert len(EXAMPLES) >= len(TYPES) - len(ABRIDGED)


@pytest.mark.parametrize("name", TYPES)
def test_every_event_type_is_documented(name):
    assert f"`{name}`" in TEXT, f"docs/journal.md does not document {name}: add a paragraph and an example line"


@pytest.mark.parametrize("number, line", list(enumerate(EXAMPLES, 1)))
def test_every_example_line_decodes(number, line):
    event = Event.from_line(line)
    assert event.to_json()["data"] == Event.from_line(event.to_line()).to_json()["data"]


def test_every_type_has_an_example_line():
    shown = {Event.from_line(line).type for line in EXAMPLES}
    missing = [name for name in TYPES if name not in shown and name not in ABRIDGED]
    assert not missing, f"no example line for {missing} in docs/journal.md"


def test_each_example_sits_under_its_own_heading():
    for name in TYPES:
        if name in ABRIDGED:
            continue
        section = TEXT.split(f"#### `{name}`", 1)[1].split("####", 1)[0]
        lines = [line for line in section.splitlines() if line.startswith('{"seq"')]
        assert lines and all(Event.from_line(line).type == name for line in lines), name


def test_the_file_marks_match_the_code():
    assert f"{APPLICATION_ID:#x}".upper().replace("X", "x") in TEXT
    assert re.search(rf"currently \*\*{SCHEMA_VERSION}\*\*", TEXT)
