"""A table's own box data: which files each game's box holds, reading, checking, saving,
exporting and importing them.

Every value the rulebooks leave to the printed components lives in a game's data files
(``companion/<game>/data``). A table keeps its own copies in ``<data folder>/components/<game>``
(``load_components(folder)`` prefers them); the tablet's box editor writes them through this
module. Checking a value never uses rules of its own: a document is checked by the very loader
that reads the file at match start, so an error names the same file, entry and field.

A page of the editor is a ``BoxItem``: one file, its title, and the type its content decodes
to (the editor's form is generated from that type). Nothing here imports Kivy.
"""

from __future__ import annotations

import importlib
import json
import logging
import os
import re
import tempfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Callable

from .codec import to_json
from .datafiles import MAX_DATA_BYTES, MAX_DEPTH, decode, file_name, read_json, shown
from .outfiles import Staged
from .errors import DataFileError
from .teams import check_colours

log = logging.getLogger(__name__)

BUNDLE_FORMAT = "touchline-box"
BUNDLE_VERSION = 1
TEAMS = "teams/"


COLOURS = "colours.json"


@dataclass(frozen=True, slots=True)
class TeamColours:
    """Each team's printed colours (shirt first, then trim or numbers), by team file key: what
    the tablet paints a side's figures and scoreboard in. Display only: the rules never read it,
    so it is not part of a match's journal."""

    teams: dict[str, tuple[str, ...]]

    def __post_init__(self) -> None:
        for key, colours in self.teams.items():
            try:
                check_colours(colours)
            except ValueError as exc:
                raise ValueError(f"{key}: {exc}") from None

    def of(self, key: str) -> tuple[str, ...]:
        return self.teams.get(key, ())


def load_colours(path: Any) -> TeamColours:
    return decode(TeamColours, read_json(path), file_name(path))


def colours(game: str, folder: Path | None = None) -> TeamColours:
    """The table's team colours for a game (none entered: no colours)."""
    own = Path(folder) / COLOURS if folder is not None else None
    if own is not None and own.exists():
        return load_colours(own)
    return TeamColours({})


class MemoryFile:
    """A data file that is not on disk yet: the loaders read it like a Path."""

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self._text = text

    def read_text(self, encoding: str = "utf-8") -> str:
        return self._text


@dataclass(frozen=True)
class BoxItem:
    """One file of a game's box, as one page of the editor."""

    game: str
    file: str          # relative to the game's data folder: "board.json", "teams/rovers.json"
    title: str
    schema: Any        # the type the file's content decodes to (the form is built from it)
    loader: str        # the components module's function that reads the file

    @property
    def is_team(self) -> bool:
        return self.file.startswith(TEAMS)

    @property
    def key(self) -> str:
        """The team's key ("rovers"), or the file name."""
        return self.file[len(TEAMS):-5] if self.is_team else self.file

    def load(self, source: Any) -> Any:
        if self.file == COLOURS:
            return load_colours(source)
        return getattr(components(self.game), self.loader)(source)


def components(game: str):
    return importlib.import_module(f"companion.{game}.components")


def _catalogue(game: str) -> list[tuple[str, str, Any, str]]:
    """(file, title, schema, loader) of a game's component files, in the order a coach
    meets them; teams are listed separately."""
    mod = components(game)
    if game == "fublet":
        from .board import GridBoard
        return [("tactical_boards.json", "Tactical boards", tuple[mod.TacticalBoard, ...], "load_tactical_boards"),
                ("round_pace_bar.json", "Round pace bar", mod.RoundPaceBar, "load_pace_bar"),
                ("referee_call_board.json", "Referee's call board", mod.RefereeCallBoard, "load_referee"),
                ("board.json", "Board geometry", GridBoard, "load_board")]
    if game == "football_leader":
        from .football_leader.pitch import SpaceBoard
        return [("action_cards.json", "Action cards", mod.Deck, "load_deck"),
                ("board.json", "Board layout and geometry", SpaceBoard, "load_board")]
    if game == "futboard":
        return [("board.json", "Board geometry", mod.Pitch, "load_pitch"),
                ("street_board.json", "Street board geometry", mod.Pitch, "load_pitch"),
                ("ruler.json", "Pass ruler", mod.Ruler, "load_ruler")]
    if game == "fussball_liga":
        return [("tables.json", "Tables", mod.Tables, "load_tables"),
                ("rules.json", "Rule values", mod.RuleValues, "load_rule_values"),
                ("pitch.json", "Board geometry", mod.Pitch, "load_pitch")]
    raise KeyError(f"no box data for game {game!r}")


# The type each game's team files decode to.
TEAM_TYPES = {"fublet": "TeamRoster", "football_leader": "TeamRoster", "futboard": "TeamTiles",
              "fussball_liga": "Roster"}

# A file whose content is a list kept under one key (its loader also takes a file-wide
# "placeholder" default, which the saved file no longer needs: every entry carries its own).
WRAPPED = {("fublet", "tactical_boards.json"): "boards"}


def shipped_dir(game: str) -> Path:
    return Path(str(components(game).DATA))


def table_dir(data_dir: Path, game: str) -> Path:
    """Where a table keeps its own box data for a game (beside its matches)."""
    return Path(data_dir) / "components" / game


def team_keys(game: str, folder: Path | None = None) -> list[str]:
    """The teams a table can field: the shipped ones and those the table entered."""
    keys = set(components(game).shipped_teams())
    if folder is not None and (Path(folder) / "teams").is_dir():
        keys |= {p.stem for p in (Path(folder) / "teams").glob("*.json")}
    return sorted(keys)


def team(game: str, key: str, folder: Path | None = None) -> Any:
    """A team's cards: the table's own file where it has one, else the shipped one."""
    mod = components(game)
    own = Path(folder) / "teams" / f"{key}.json" if folder is not None else None
    if own is not None and own.exists():
        return mod.load_team(own)
    return mod.shipped_team(key)


def items(game: str, folder: Path | None = None) -> list[BoxItem]:
    """Every page of a game's box: its component files, then one page per team."""
    mod = components(game)
    out = [BoxItem(game, file, title, schema, loader) for file, title, schema, loader in _catalogue(game)]
    team_type = getattr(mod, TEAM_TYPES[game])
    for key in team_keys(game, folder):
        out.append(BoxItem(game, f"{TEAMS}{key}.json", "Team", team_type, "load_team"))
    out.append(BoxItem(game, COLOURS, "Team colours", TeamColours, "load_colours"))
    return out


def item(game: str, file: str, folder: Path | None = None) -> BoxItem:
    for it in items(game, folder):
        if it.file == file:
            return it
    if file.startswith(TEAMS) and file.endswith(".json"):   # a team not saved yet
        return BoxItem(game, file, "Team", getattr(components(game), TEAM_TYPES[game]), "load_team")
    raise KeyError(f"{game} has no box file {file!r}")


# --- documents --------------------------------------------------------------------------------

def _source(it: BoxItem, folder: Path | None) -> Any:
    own = Path(folder) / it.file if folder is not None else None
    if own is not None and own.exists():
        return own
    return shipped_dir(it.game).joinpath(it.file)


def is_own(it: BoxItem, folder: Path | None) -> bool:
    """The table has its own copy of this file."""
    return folder is not None and (Path(folder) / it.file).exists()


def document(it: BoxItem, folder: Path | None = None) -> Any:
    """The file's content as the editor edits it: the loaded value written back as JSON, so
    every entry has every field (and its own placeholder flag)."""
    if it.file == COLOURS:   # no shipped file: a row per team, blank until entered
        entered = colours(it.game, folder)
        return {"teams": {key: list(entered.of(key)) for key in team_keys(it.game, folder)}}
    source = _source(it, folder)
    value = it.load(source)
    doc = to_json(value)
    raw = read_json(source)
    wrap = WRAPPED.get((it.game, it.file))
    _inherit_flags(doc, raw.get(wrap) if wrap and isinstance(raw, dict) else raw, False)
    return doc


def _inherit_flags(doc: Any, raw: Any, flagged: bool) -> None:
    """An entry the file gives no flag of its own has its parent's (a team file flags the
    team, and so every card in it); an entry is cleared only when it is entered itself."""
    if isinstance(doc, dict):
        own = isinstance(raw, dict) and "placeholder" in raw
        if "placeholder" in doc:
            flagged = doc["placeholder"] = bool(doc["placeholder"]) if own else (bool(doc["placeholder"]) or flagged)
        for k, v in doc.items():
            _inherit_flags(v, raw.get(k) if isinstance(raw, dict) else None, flagged)
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            _inherit_flags(v, raw[i] if isinstance(raw, list) and i < len(raw) else None, flagged)


def comment(it: BoxItem, folder: Path | None = None) -> str:
    """The shipped file's ``_comment`` (kept in saved files for whoever opens them)."""
    if it.file == COLOURS:
        return "Each team's printed colours, shirt first, as #rrggbb (display only: the rules never read them)."
    try:
        raw = json.loads(shipped_dir(it.game).joinpath(it.file).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    return raw.get("_comment", "") if isinstance(raw, dict) else ""


def file_content(it: BoxItem, doc: Any, note: str = "") -> dict:
    """What is written to the file for an edited document."""
    wrap = WRAPPED.get((it.game, it.file))
    content = {wrap: doc} if wrap else dict(doc)
    return ({"_comment": note} if note else {}) | content


def check(it: BoxItem, doc: Any, folder: Path | None = None) -> Any:
    """The value a document decodes to, checked by the game's own loader and, for a component
    file, together with the table's other files (a Fublet box needs two tactical boards...).
    Raises DataFileError naming the file, the entry and the field."""
    name = Path(it.file).name
    text = json.dumps(file_content(it, doc))
    value = it.load(MemoryFile(name, text))
    if not it.is_team and it.file != COLOURS:
        with tempfile.TemporaryDirectory(prefix="touchline-box-") as tmp:
            overlay = Path(tmp)
            for other in items(it.game, None):
                if other.is_team or other.file == it.file:
                    continue
                if is_own(other, folder):
                    (overlay / other.file).write_bytes((Path(folder) / other.file).read_bytes())
            (overlay / it.file).write_text(text, encoding="utf-8")
            _load_all(it.game, overlay)
    return value


def _load_all(game: str, folder: Path) -> None:
    mod = components(game)
    try:
        if game == "futboard":
            for board in mod.BOARDS:
                mod.load_components(folder, board=board)
        else:
            mod.load_components(folder)
    except ValueError as exc:   # a components-wide check (DataFileError is not a ValueError)
        raise DataFileError("box", "", "", str(exc)) from None


def save(it: BoxItem, doc: Any, folder: Path) -> Any:
    """Check a document and write it to the table's folder (atomically: a crash leaves the
    old file or the new one, never half of one). Returns the checked value."""
    value = check(it, doc, folder)
    _write(Path(folder) / it.file, file_content(it, doc, comment(it)))
    return value


def _write(path: Path, content: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(content, fh, indent=1, ensure_ascii=False)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def remove(it: BoxItem, folder: Path) -> None:
    """Drop the table's copy: the shipped file is used again."""
    (Path(folder) / it.file).unlink(missing_ok=True)


# --- placeholders -------------------------------------------------------------------------------

def placeholder_paths(doc: Any, path: tuple = ()) -> list[tuple]:
    """Where a document still carries ``"placeholder": true`` (the path of each flagged entry)."""
    out: list[tuple] = []
    if isinstance(doc, dict):
        if doc.get("placeholder") is True:
            out.append(path)
        for k, v in doc.items():
            if k != "placeholder":
                out += placeholder_paths(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += placeholder_paths(v, path + (i,))
    return out


def flagged_entries(doc: Any) -> int:
    """How many entries of a document carry a placeholder flag at all (flagged or not): a
    page's "3 of 16" counts against this."""
    if isinstance(doc, dict):
        return ("placeholder" in doc) + sum(flagged_entries(v) for k, v in doc.items() if k != "placeholder")
    if isinstance(doc, list):
        return sum(flagged_entries(v) for v in doc)
    return 0


@dataclass(frozen=True)
class ItemStatus:
    item: BoxItem
    label: str          # the page's title with its team's name
    placeholders: int   # entries still flagged
    own: bool           # the table has its own copy
    error: str = ""     # the file cannot be read (the message says why)
    entries: int = 0    # entries that can be flagged: "placeholders of entries" still to enter


def status(game: str, folder: Path | None = None) -> list[ItemStatus]:
    out = []
    for it in items(game, folder):
        try:
            doc = document(it, folder)
        except DataFileError as exc:
            out.append(ItemStatus(it, it.title, 0, is_own(it, folder), str(exc)))
            continue
        label = f"Team: {doc.get('name', it.key)}" if it.is_team else it.title
        out.append(ItemStatus(it, label, len(placeholder_paths(doc)), is_own(it, folder),
                              entries=flagged_entries(doc)))
    return out


def still_placeholders(game: str, folder: Path | None = None) -> list[ItemStatus]:
    """The pages that still hold a placeholder value (or cannot be read), in page order."""
    return [s for s in status(game, folder) if s.placeholders or s.error]


# --- export and import --------------------------------------------------------------------------

def export_box(game: str, folder: Path | None, target: Path) -> Path:
    """Write a game's whole box (the table's files, else the shipped ones) to one file."""
    files = {}
    for it in items(game, folder):
        if it.file == COLOURS and not is_own(it, folder):
            continue
        files[it.file] = file_content(it, document(it, folder))
    bundle = {"format": BUNDLE_FORMAT, "version": BUNDLE_VERSION, "game": game,
              "exported": datetime.now().isoformat(timespec="seconds"), "files": files}
    _write(Path(target), bundle)
    return Path(target)


# Bounds on a box file (see companion/datafiles.py for those of each data file in it).
MAX_BOX_BYTES = 8_000_000
MAX_TEAM_FILES = 200   # a club's teams for one game; 2,000 was accepted once and made the editor crawl


def read_bundle(path: Path) -> dict:
    name = Path(path).name
    obj = read_json(Path(path), MAX_BOX_BYTES, MAX_DEPTH + 2)  # the bundle, "files", then each file
    if not isinstance(obj, dict) or obj.get("format") != BUNDLE_FORMAT:
        raise DataFileError(name, "", "", "not a Touchline box file (export one with Export box on a tablet)")
    if obj.get("version") != BUNDLE_VERSION:
        raise DataFileError(name, "", "version", f"box file version {shown(obj.get('version'))} is not one this "
                                                 f"Touchline reads ({BUNDLE_VERSION}): update Touchline")
    if not isinstance(obj.get("game"), str) or obj["game"] not in TEAM_TYPES:
        raise DataFileError(name, "", "game", f"unknown game {shown(obj.get('game'))}")
    if not isinstance(obj.get("files"), dict):
        raise DataFileError(name, "", "files", "expected an object of files")
    teams = sum(1 for f in obj["files"] if f.startswith(TEAMS))
    if teams > MAX_TEAM_FILES:
        raise DataFileError(name, "", "files", f"{teams} team files; a box holds at most {MAX_TEAM_FILES}")
    return obj


_SAFE = re.compile(r"(teams/)?[a-z0-9_\-]{1,64}\.json")

# What a game's loader may raise on a document of a shape it never expected: turned into a
# refusal naming the file, so no shape of box file reaches the coach as a fault.
_SHAPE_ERRORS = (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError, OverflowError)


def _checked_file(game: str, file: str, content: Any, box_name: str) -> tuple[BoxItem, Any, str]:
    """One file of a box file: its page, its document, and the text to stage. Raises
    DataFileError naming the box file, the file and, where the loader says, the field."""
    known = {it.file for it in items(game, None) if not it.is_team} | {COLOURS}
    if not _SAFE.fullmatch(file) or not (file in known or file.startswith(TEAMS)):
        raise DataFileError(box_name, shown(file), "", f"not a {game} box file name")
    it = item(game, file, None)
    wrap = WRAPPED.get((game, file))
    doc = content.get(wrap) if wrap and isinstance(content, dict) else content
    doc = {k: v for k, v in doc.items() if not k.startswith("_")} if isinstance(doc, dict) else doc
    if not wrap and not isinstance(doc, dict):  # dict() would take a list of pairs, or [] for {}
        raise DataFileError(box_name, file, "", f"expected an object of fields, not {type(doc).__name__}")
    try:
        text = json.dumps(file_content(it, doc))
        if len(text) > MAX_DATA_BYTES:
            raise DataFileError(box_name, file, "", f"is {len(text):,} bytes; a box data file holds at most "
                                                     f"{MAX_DATA_BYTES:,}")
        it.load(MemoryFile(Path(file).name, text))
    except DataFileError as exc:  # the loader names the entry and the field inside the file
        raise DataFileError(box_name, " / ".join(p for p in (file, exc.entry) if p), exc.field, exc.reason) from None
    except _SHAPE_ERRORS as exc:
        raise DataFileError(box_name, file, "", f"cannot be used ({type(exc).__name__}: "
                                                f"{shown(exc)})") from None
    return it, doc, text


def import_box(path: Path, data_dir: Path) -> tuple[str, list[str]]:
    """Check every file of a box file, then write them all to the table's folder for its game.
    Nothing is written unless every file passes: any problem, whatever the file's shape, is a
    DataFileError naming the box file, the file in it and the field. Returns the game and the
    files written."""
    box_name = Path(path).name
    bundle = read_bundle(path)
    game = bundle["game"]
    folder = table_dir(data_dir, game)
    checked: list[tuple[BoxItem, Any]] = []
    with tempfile.TemporaryDirectory(prefix="touchline-import-") as tmp:
        staging = Path(tmp)
        for file, content in bundle["files"].items():
            it, doc, text = _checked_file(game, file, content, box_name)
            (staging / file).parent.mkdir(parents=True, exist_ok=True)
            (staging / file).write_text(text, encoding="utf-8")
            checked.append((it, doc))
        try:
            _load_all(game, staging)
        except DataFileError as exc:  # a check across files: the file it names, if one
            inner = exc.file if exc.file != "box" and not exc.file.startswith(str(staging)) else ""
            entry = " / ".join(p for p in (inner, exc.entry) if p)
            raise DataFileError(box_name, entry, exc.field, exc.reason) from None
        except _SHAPE_ERRORS as exc:
            raise DataFileError(box_name, "", "", f"the files do not fit together ({type(exc).__name__}: "
                                                  f"{shown(exc)})") from None
    groups: dict[Path, Staged] = {}
    try:
        for it, doc in checked:  # staged beside their places, then renamed in together
            target = folder / it.file
            target.parent.mkdir(parents=True, exist_ok=True)
            staged = groups.setdefault(target.parent, Staged(target.parent, force=True))
            staged.write_text(target.name, json.dumps(file_content(it, doc, comment(it)), indent=1,
                                                      ensure_ascii=False) + "\n")
    except BaseException:
        for staged in groups.values():
            staged.discard()
        raise
    for staged in groups.values():
        staged.commit()
    return game, [it.file for it, _ in checked]


def new_team_file(game: str, name: str, folder: Path | None) -> str:
    """A free team file name for a team called ``name``."""
    stem = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "team"
    taken = set(team_keys(game, folder))
    key, n = stem, 1
    while key in taken:
        n += 1
        key = f"{stem}_{n}"
    return f"{TEAMS}{key}.json"


