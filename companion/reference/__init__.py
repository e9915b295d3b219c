"""The rules reference: each game's rulebook sections, summarised here, with the readings of
docs/assumptions.md that apply, and which section a refusal or a pending request rests on.

The data are files (``data/<game>.json``), validated on load: every section has an id, the
rulebook's own title and a short summary written for Touchline (never the rulebook's text);
``requests`` maps a pending request (its id, as a glob, and optionally words of its text) to a
section. A refusal names its section (``RuleViolation.rule``: "Fublet rulebook, Offside"),
which is found by title. Pure Python, no UI.
"""

from __future__ import annotations

import fnmatch
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from ..errors import DataFileError

READING_ID = re.compile(r"^[A-Z]{1,3}\d+[a-z]?$")
MAX_SUMMARY = 600          # a summary, not a copy of the rulebook


@dataclass(frozen=True, slots=True)
class Section:
    """One rulebook section as the reference shows it."""

    id: str
    title: str
    summary: str
    readings: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()

    def text(self) -> str:
        return " ".join((self.title, self.summary, " ".join(self.keywords)))


@dataclass(frozen=True, slots=True)
class RequestRule:
    id: str           # a glob over the request's id ("t*", "restart*")
    section: str
    text: str = ""    # words the request's text must hold (case-insensitive), or ""

    def matches(self, request_id: str, request_text: str) -> bool:
        if not fnmatch.fnmatchcase(request_id, self.id):
            return False
        return not self.text or self.text.lower() in request_text.lower()


@dataclass(frozen=True, slots=True)
class Reading:
    """One entry of docs/assumptions.md: its id, title and text."""

    id: str
    title: str
    text: str


@dataclass(frozen=True)
class Reference:
    game: str
    rulebook: str
    rule_prefix: str
    sections: tuple[Section, ...]
    requests: tuple[RequestRule, ...] = ()
    _by_id: dict[str, Section] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_id.update({s.id: s for s in self.sections})

    def section(self, section_id: str) -> Section | None:
        return self._by_id.get(section_id)

    def for_rule(self, rule: str) -> Section | None:
        """The section a refusal names: ``RuleViolation.rule`` or a whole refusal message
        ("Fublet rulebook, Offside: ..."). Titles match exactly first, then by their start
        ("3.6 Tackle (Hard Tackle)" is "3.6 Tackle")."""
        name = rule.strip()
        if name.startswith(self.rule_prefix):
            name = name[len(self.rule_prefix):]
        candidates = [name]
        if ":" in name:   # a whole message: the title is before the first ": " that ends one
            candidates += [name[:m.start()] for m in re.finditer(r": ", name)]
        for candidate in candidates:
            c = candidate.strip().lower()
            for s in self.sections:
                if s.title.lower() == c:
                    return s
        for candidate in candidates:
            c = candidate.strip().lower()
            best = None
            for s in self.sections:
                t = s.title.lower()
                if c.startswith(t) and (best is None or len(t) > len(best.title)):
                    best = s
            if best is not None:
                return best
        return None

    def for_request(self, request_id: str, text: str = "") -> Section | None:
        for rule in self.requests:
            if rule.matches(request_id, text):
                return self._by_id.get(rule.section)
        return None

    def search(self, query: str) -> list[Section]:
        """Sections whose title, summary, keywords or readings hold every word of ``query``,
        titles first; an empty query lists them all in rulebook order."""
        words = [w for w in re.split(r"\s+", query.strip().lower()) if w]
        if not words:
            return list(self.sections)
        readings = readings_by_id()
        scored = []
        for order, s in enumerate(self.sections):
            title = s.title.lower()
            body = s.text().lower() + " " + " ".join(
                f"{r} {readings[r].title} {readings[r].text}" for r in s.readings if r in readings).lower()
            if all(w in body for w in words):
                score = sum(3 for w in words if w in title) + sum(1 for w in words if w in " ".join(s.keywords).lower())
                scored.append((-score, order, s))
        return [s for _, _, s in sorted(scored, key=lambda t: (t[0], t[1]))]

    def readings(self, section: Section) -> list[Reading]:
        known = readings_by_id()
        return [known[r] for r in section.readings if r in known]


# --- loading -----------------------------------------------------------------------------------

def _str(value: object, file: str, entry: str, name: str, required: bool = True) -> str:
    if not isinstance(value, str) or (required and not value.strip()):
        raise DataFileError(file, entry, name, "must be a non-empty text" if required else "must be a text")
    return value.strip()


def _list(value: object, file: str, entry: str, name: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise DataFileError(file, entry, name, "must be a list of non-empty texts")
    return tuple(v.strip() for v in value)


def parse(data: object, file: str) -> Reference:
    """A reference from a data file's JSON, or DataFileError naming the entry and field."""
    if not isinstance(data, dict):
        raise DataFileError(file, "", "", "must be a JSON object with 'game', 'sections' and 'requests'")
    game = _str(data.get("game"), file, "", "game")
    rulebook = _str(data.get("rulebook"), file, "", "rulebook")
    prefix = data.get("rule_prefix", "")
    if not isinstance(prefix, str):
        raise DataFileError(file, "", "rule_prefix", "must be a text")
    raw = data.get("sections")
    if not isinstance(raw, list) or not raw:
        raise DataFileError(file, "", "sections", "must be a non-empty list")
    sections, ids, titles = [], set(), set()
    for n, item in enumerate(raw, start=1):
        if not isinstance(item, dict):
            raise DataFileError(file, f"section {n}", "", "must be an object")
        sid = _str(item.get("id"), file, f"section {n}", "id")
        entry = f"section {sid!r}"
        if sid in ids:
            raise DataFileError(file, entry, "id", "is used twice")
        title = _str(item.get("title"), file, entry, "title")
        if title.lower() in titles:
            raise DataFileError(file, entry, "title", f"{title!r} is used twice")
        summary = _str(item.get("summary"), file, entry, "summary")
        if len(summary) > MAX_SUMMARY:
            raise DataFileError(file, entry, "summary", f"is {len(summary)} characters; a summary stays under "
                                                        f"{MAX_SUMMARY} (no copies of the rulebook)")
        readings = _list(item.get("readings"), file, entry, "readings")
        for r in readings:
            if not READING_ID.match(r):
                raise DataFileError(file, entry, "readings", f"{r!r} is not a reading id like 'F12' or 'LV3'")
        unknown = set(item) - {"id", "title", "summary", "readings", "keywords"}
        if unknown:
            raise DataFileError(file, entry, sorted(unknown)[0], "is not a field of a section")
        ids.add(sid)
        titles.add(title.lower())
        sections.append(Section(sid, title, summary, readings, _list(item.get("keywords"), file, entry, "keywords")))
    rules = []
    raw_rules = data.get("requests", [])
    if not isinstance(raw_rules, list):
        raise DataFileError(file, "", "requests", "must be a list")
    for n, item in enumerate(raw_rules, start=1):
        entry = f"request rule {n}"
        if not isinstance(item, dict):
            raise DataFileError(file, entry, "", "must be an object")
        target = _str(item.get("section"), file, entry, "section")
        if target not in ids:
            raise DataFileError(file, entry, "section", f"{target!r} is no section of this file")
        rules.append(RequestRule(_str(item.get("id"), file, entry, "id"), target,
                                 _str(item.get("text", ""), file, entry, "text", required=False)))
    return Reference(game, rulebook, prefix, tuple(sections), tuple(rules))


def load_file(path: Path) -> Reference:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataFileError(str(path), "", "", f"cannot be read ({exc.strerror or exc})") from None
    except ValueError as exc:
        raise DataFileError(str(path), "", "", f"is not valid JSON ({exc})") from None
    return parse(data, str(path))


@lru_cache(maxsize=None)
def for_game(game: str) -> Reference:
    """The shipped reference of a game; KeyError when there is none."""
    ref = resources.files(__package__).joinpath("data", f"{game}.json")
    if not ref.is_file():
        raise KeyError(f"no rules reference for game {game!r}")
    reference = parse(json.loads(ref.read_text(encoding="utf-8")), f"companion/reference/data/{game}.json")
    if reference.game != game:
        raise DataFileError(f"companion/reference/data/{game}.json", "", "game", f"says {reference.game!r}")
    return reference


# --- the readings of docs/assumptions.md --------------------------------------------------------

def assumptions_path() -> Path | None:
    """docs/assumptions.md of this source tree, or the copy shipped beside the data."""
    here = Path(__file__).resolve()
    for candidate in (here.parents[2] / "docs" / "assumptions.md", here.parent / "data" / "assumptions.md"):
        if candidate.is_file():
            return candidate
    return None


ENTRY = re.compile(r"^\*\*([A-Z]{1,3}\d+[a-z]?)\.\s+(.+?)\*\*\s*(.*)$")


def parse_readings(text: str) -> dict[str, Reading]:
    """Entries "**F12. Title.** text..." up to the next entry or heading."""
    out: dict[str, Reading] = {}
    current: list | None = None
    for line in text.splitlines():
        m = ENTRY.match(line)
        if m or line.startswith("#"):
            if current is not None:
                out[current[0]] = Reading(current[0], current[1], " ".join(current[2]).strip())
            current = [m.group(1), m.group(2).rstrip("."), [m.group(3)]] if m else None
        elif current is not None:
            current[2].append(line.strip())
    if current is not None:
        out[current[0]] = Reading(current[0], current[1], " ".join(current[2]).strip())
    return out


@lru_cache(maxsize=1)
def readings_by_id() -> dict[str, Reading]:
    path = assumptions_path()
    if path is None:
        return {}
    try:
        return parse_readings(path.read_text(encoding="utf-8"))
    except OSError:
        return {}


def games() -> list[str]:
    folder = resources.files(__package__).joinpath("data")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".json"))


__all__ = ["Reference", "Section", "Reading", "RequestRule", "for_game", "load_file", "parse", "readings_by_id",
           "parse_readings", "games"]
