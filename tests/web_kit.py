"""Journals that grow as a tablet writes them, from the scripted full matches in tests/data."""

from __future__ import annotations

import os
from pathlib import Path

from companion.events import Event
from companion.journal import Journal
from companion.jsonl import read_file

DATA = Path(__file__).resolve().parent / "data"
GAMES = ("fublet", "football_leader", "futboard", "fussball_liga")


def full_match(game: str = "fublet") -> tuple[Event, ...]:
    """The active events of a game's scripted full match (its ruleset imported first)."""
    from companion.games import ruleset_for

    ruleset_for(game)
    return read_file(DATA / f"{game}_full_match.jsonl").events


def batches(events: tuple[Event, ...]) -> list[tuple[Event, ...]]:
    out: list[list[Event]] = []
    for event in events:
        if out and out[-1][0].batch == event.batch:
            out[-1].append(event)
        else:
            out.append([event])
    return [tuple(b) for b in out]


class GrowingJournal:
    """A journal being written the way the tablet writes it (WAL, fsync per command), one
    command's events at a time, from a scripted match."""

    def __init__(self, path: Path, game: str = "fublet", upto: int = 10) -> None:
        self.path = path
        self.batches = batches(full_match(game))
        self.journal = Journal.create(path, game)
        self.done = 0
        self.grow(upto)

    def grow(self, count: int = 1) -> Event:
        for _ in range(count):
            self.journal.append(self.batches[self.done])
            self.done += 1
        return self.batches[self.done - 1][-1]

    @property
    def last(self) -> Event:
        return self.batches[self.done - 1][-1]

    def next_logged(self) -> tuple[int, str]:
        """How many commands until one whose events write a line in the log, and that line."""
        from companion.games import ruleset_for

        ruleset = ruleset_for(self.journal.game)
        state = ruleset.initial_state()
        for batch in self.batches[:self.done]:
            for event in batch:
                state = ruleset.evolve(state, event)
        for n, batch in enumerate(self.batches[self.done:], start=1):
            lines = []
            for event in batch:
                line = ruleset.log_line(state, event)
                state = ruleset.evolve(state, event)
                if line:
                    lines.append(line)
            if lines:
                return n, lines[-1]
        raise ValueError("no more logged commands")

    def undo(self) -> None:
        self.done -= 1
        self.journal.mark_undone(self.batches[self.done][0].batch)

    def redo(self) -> None:
        self.journal.mark_redone(self.batches[self.done][0].batch)
        self.done += 1

    def close(self) -> None:
        self.journal.close()


def files_of(path: Path) -> dict[str, bytes]:
    """The journal's file and its companions, byte for byte (to check nothing was written)."""
    out = {}
    for name in os.listdir(path.parent):
        if name.startswith(path.name):
            out[name] = (path.parent / name).read_bytes()
    return out
