"""A live match: a ruleset, its journal, the folded state, undo and redo.

Devices and people propose commands; ``submit`` asks the ruleset to decide, journals the
accepted events durably, and only then folds them into the state. A refused command
raises (RuleViolation and its kin) and changes nothing. Undo drops the last command's
events from the fold (they stay in the journal, redoable); a new command clears redo.
"""

from __future__ import annotations

import threading
from operator import attrgetter
from datetime import datetime
from typing import Any, Callable, Sequence

from .anchors import AnchorBook
from .errors import JournalError, ReplayError
from .events import Event, Source, now
from .games import ruleset_for
from .final_record import fields_of
from .journal import Journal
from .journal_chain import gc_paused
from .records import UNSHARED, in_place
from .ruleset import Command, GameRules, Request, Ruleset
from .sightings import Sighting


_seq = attrgetter("seq")


def _payload_fold(ruleset: Ruleset) -> Callable[[Any, Any], Any] | None:
    """The game's fold of one payload, when the ruleset's ``evolve`` is the standard one
    (which only hands the payload to it): a replay then skips that step per event."""
    if getattr(type(ruleset), "evolve", None) is GameRules.evolve:
        return ruleset.transaction.evolve
    return None


def _handlers(fold: Callable[[Any, Any], Any] | None) -> dict[type, Callable[[Any, Any], Any]]:
    """The table a payload fold dispatches on by the payload's type (``handlers`` on the
    function; the games' ``evolve_payload`` has one), else an empty table. A replay calls
    the handler itself; a type missing there goes through the fold, which says why."""
    table = getattr(fold, "handlers", None)
    return table if isinstance(table, dict) else {}


CHECKPOINT = 64  # batches between kept states (undo refolds at most this many less one)


class Match:
    """One match in play. Thread-safe: device threads and the UI may submit concurrently."""

    def __init__(self, ruleset: Ruleset, journal: Journal | None = None,
                 clock: Callable[[], datetime] = now) -> None:
        self.ruleset = ruleset
        self.journal = journal
        self._clock = clock
        self._lock = threading.RLock()
        self._events: list[Event] = []
        self._batch_starts: list[int] = []          # index into _events where each batch starts
        self._state: Any = ruleset.initial_state()  # the fold of every active batch
        # The state after every CHECKPOINT-th batch (key: how many batches it folds; 0 is the
        # empty match). Undo refolds from the nearest one below, at most CHECKPOINT - 1
        # batches, instead of keeping a state per batch: a replay then builds and keeps a
        # few dozen states, not thousands (less to allocate and for the collector to walk).
        self._saved: dict[int, Any] = {0: self._state}
        self._redo: list[tuple[Event, ...]] = []     # most recently undone last
        self._next_seq = 1

    # --- building from stored events -------------------------------------------------------
    @classmethod
    def from_events(cls, ruleset: Ruleset, events: Sequence[Event], redo: Sequence[Sequence[Event]] = (),
                    journal: Journal | None = None, clock: Callable[[], datetime] = now) -> "Match":
        match = cls(ruleset, journal, clock)
        match._fold_all(events)
        match._redo = [tuple(b) for b in reversed(redo)]
        highest = max(max(map(_seq, events), default=0), max((e.seq for b in redo for e in b), default=0))
        match._next_seq = highest + 1
        return match

    @classmethod
    def open(cls, path, rulesets: dict[str, Ruleset] | None = None,
             clock: Callable[[], datetime] = now, anchors: AnchorBook | None = None) -> "Match":
        """Resume a match from its journal file (``clock``: what its new events say is now;
        ``anchors``: the app's, which anchor each append outside the journal)."""
        # One pause of the cyclic collector over the whole replay (reading, checking, folding):
        # it builds thousands of acyclic objects, and a pass between its steps would walk
        # them all for nothing. The collector runs as usual once the match is open.
        with gc_paused():
            return cls._open(path, rulesets, clock, anchors)

    @classmethod
    def _open(cls, path, rulesets: dict[str, Ruleset] | None, clock: Callable[[], datetime],
              anchors: AnchorBook | None = None) -> "Match":
        journal = Journal.open(path, anchors)
        try:
            ruleset = (rulesets or {}).get(journal.game) or ruleset_for(journal.game)
            loaded = journal.load()  # after the ruleset: its import registers the game's event types
        except KeyError as exc:
            journal.close()
            raise JournalError(f"{path}: {exc.args[0]}") from None
        except BaseException:
            journal.close()
            raise
        try:
            return cls.from_events(ruleset, loaded.events, loaded.redo, journal, clock)
        except ReplayError as exc:
            journal.close()
            raise JournalError(f"{path}: {exc}; the journal was left untouched") from exc
        except Exception as exc:
            journal.close()
            raise JournalError(f"{path}: the stored events do not replay ({exc})") from exc

    def _fold_all(self, events: Sequence[Event]) -> None:
        """Fold stored events, keeping the state after every CHECKPOINT-th batch (what undo
        refolds from). One pass, with little per event: a replay runs this per event."""
        fold_payload = _payload_fold(self.ruleset)
        if fold_payload is None:  # a ruleset with its own evolve: hand it each event
            evolve = self.ruleset.evolve
            handlers: dict[type, Callable[[Any, Any], Any]] = {}
        else:
            handlers = _handlers(fold_payload)
            envelope = getattr(self.ruleset, "envelope", None)  # applied after the payload
        saved, starts = self._saved, self._batch_starts
        state, batch, index = self._state, None, len(self._events) - 1
        unshared = UNSHARED  # what records.in_place sets, set here without a call per event
        try:
            for event in events:
                index += 1
                if event.batch != batch:
                    if batch is not None and not len(starts) % CHECKPOINT:
                        saved[len(starts)] = state
                        unshared[0] = None  # kept: the next step copies it
                    starts.append(index)
                    batch = event.batch
                try:
                    if fold_payload is None:
                        new = evolve(state, event)
                    else:
                        payload = event.payload
                        try:
                            handler = handlers[type(payload)]
                        except KeyError:  # not in the table: the fold says why
                            handler = fold_payload
                        new = handler(state, payload)
                        if envelope is not None:
                            new = envelope(state, new, event)
                except Exception as exc:  # a stored event the rules cannot apply: name it
                    raise ReplayError(event.seq, event.type, str(exc) or type(exc).__name__) from exc
                if new is not state:
                    # Made by this step and seen by no one else: the next step may change it
                    # in place instead of copying it (companion/records.py).
                    unshared[0] = state = new
        finally:
            in_place(None)
        self._events.extend(events)
        self._state = state
        self._keep()

    def _keep(self) -> None:
        """Save the current state if the batch count is at a checkpoint."""
        if not len(self._batch_starts) % CHECKPOINT:
            self._saved[len(self._batch_starts)] = self._state

    def _refold(self) -> None:
        """After undo dropped batches: the state folded from the nearest checkpoint at or
        below the remaining batches, over the batches after it (what the journal's active
        events fold to, as they were folded before)."""
        n = len(self._batch_starts)
        for k in [k for k in self._saved if k > n]:
            del self._saved[k]
        base = n - n % CHECKPOINT
        state = self._saved[base]
        if base < n:
            evolve = self.ruleset.evolve
            for event in self._events[self._batch_starts[base]:]:
                state = evolve(state, event)
        self._state = state

    # --- reading -----------------------------------------------------------------------------
    @property
    def state(self) -> Any:
        return self._state

    @property
    def events(self) -> tuple[Event, ...]:
        with self._lock:
            return tuple(self._events)

    @property
    def last_seq(self) -> int:
        return self._next_seq - 1

    def pending(self) -> tuple[Request, ...]:
        return self.ruleset.pending(self.state)

    def summary(self) -> dict[str, Any]:
        return self.ruleset.summary(self.state)

    @property
    def can_undo(self) -> int:
        """How many steps can be undone (never the match's creation)."""
        return len(self._batch_starts) - self._kept()

    def _kept(self) -> int:
        """Batches undo never drops: the one that created the match. Undoing it would leave
        a match with no teams, no board and no way on but redo."""
        created = getattr(self.ruleset, "created_type", None)
        if created is not None and self._events and isinstance(self._events[0].payload, created):
            return 1
        return 0

    @property
    def can_redo(self) -> int:
        return len(self._redo)

    @property
    def undo_batch(self) -> tuple[Event, ...]:
        """The events of the command one undo would drop (empty: nothing to undo)."""
        with self._lock:
            if len(self._batch_starts) <= self._kept():
                return ()
            return tuple(self._events[self._batch_starts[-1]:])

    @property
    def redo_batch(self) -> tuple[Event, ...]:
        """The events of the command one redo would bring back (empty: nothing to redo)."""
        with self._lock:
            return tuple(self._redo[-1]) if self._redo else ()

    # --- changing ----------------------------------------------------------------------------
    def submit(self, command: Command, source: Source = Source.MANUAL,
               at: datetime | None = None) -> tuple[Event, ...]:
        """Decide, journal, fold. Returns the accepted events; raises if refused.

        ``at``: when it happened, for a fact recorded late (the clocks stopped when the app
        died, recorded at the next start as of the last event); never before the last event
        nor after now. By default, now."""
        if source is Source.RULES:
            raise ValueError("commands come from devices or people; the rules source is for derived events")
        with self._lock:
            state = self.state
            if at is not None:
                last = self._events[-1].at if self._events else None
                if (last is not None and at < last) or at > self._clock():
                    raise ValueError(f"an event's time {at.isoformat()} must lie between the last event's and now")
            payloads = list(self.ruleset.decide(state, command))
            if not payloads:
                return ()
            at = at or self._clock()
            first = self._next_seq
            events = tuple(
                Event(seq=first + i, batch=first, at=at,
                      source=Source.RULES if p.DERIVED else source, payload=p)
                for i, p in enumerate(payloads)
            )
            new_state = state
            for event in events:  # fold before storing: a fold error must not reach the disk
                new_state = self.ruleset.evolve(new_state, event)
            if self.journal is not None:
                self.journal.append(events, self._result(new_state), len(self._events) + len(events))
            self._batch_starts.append(len(self._events))
            self._events.extend(events)
            self._state = new_state
            self._keep()
            self._redo.clear()
            self._next_seq = first + len(events)
            return events

    def sight(self, sighting: Sighting) -> tuple[Event, ...]:
        """Propose what the camera saw: the ruleset says which command it stands for, and
        that command is submitted with the source ``vision`` (refused like any other)."""
        with self._lock:
            command = self.ruleset.command_for(self.state, sighting)
            if command is None:
                return ()
            return self.submit(command, Source.VISION)

    def undo(self, steps: int = 1) -> int:
        """Drop the last ``steps`` commands from the fold; returns how many were undone. The
        match's creation is never undone (a new match is started instead)."""
        done = 0
        with self._lock:
            try:
                while done < steps and len(self._batch_starts) > self._kept():
                    start = self._batch_starts[-1]
                    batch = tuple(self._events[start:])
                    if self.journal is not None:  # removes the final record: the listing replays the match
                        self.journal.mark_undone(batch[0].batch)
                    del self._events[start:]
                    self._batch_starts.pop()
                    self._redo.append(batch)
                    done += 1
            finally:  # also when the journal refused a later step: the state follows what was undone
                if done:
                    self._refold()
        return done

    def redo(self, steps: int = 1) -> int:
        done = 0
        with self._lock:
            while done < steps and self._redo:
                batch = self._redo[-1]
                new_state = self.state
                for event in batch:
                    new_state = self.ruleset.evolve(new_state, event)
                if self.journal is not None:
                    self.journal.mark_redone(batch[0].batch, self._result(new_state), len(self._events) + len(batch))
                self._redo.pop()
                self._batch_starts.append(len(self._events))
                self._events.extend(batch)
                self._state = new_state
                self._keep()
                done += 1
        return done

    def _result(self, state: Any) -> dict[str, Any] | None:
        """What the journal keeps of a finished match for listings (companion/final_record.py)."""
        if getattr(state, "result", True) is None:  # every game's state says so while play goes on:
            return None                             # no summary (0.1-0.4 ms) made at every command
        return fields_of(self.ruleset.summary(state))

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()
