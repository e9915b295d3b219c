"""The controller's dice: software dice, the keypad and the tray all put rolls on one queue,
and the bridge's feed submits them on the controller's worker thread.

``DiceDesk`` is a part of ``ui.controller.Controller`` (a mixin): it reads and writes the
controller's match, log and device health, and runs only on its worker."""

from __future__ import annotations

import logging
import random
import re

from companion.dice import Roll, rolls_in
from companion.events import Source
from firmware_bridge import notices as tray_notices
from firmware_bridge.feed import Feed, Refusal
from firmware_bridge.sources import SoftwareSource, TraySource

from .status import NO_MATCH, Health

log = logging.getLogger("ui.controller")


class DiceDesk:
    """Rolls in, refusals and tray notices out (part of the Controller)."""

    def _software_seed(self) -> int:
        """The seed of the software dice this match used last, or a new one."""
        for roll in reversed(rolls_in(self.match.events)):
            found = re.fullmatch(r"software seed=(\d+)#(\d+)", roll.device)
            if roll.source is Source.SOFTWARE and found:
                return int(found.group(1))
        return random.SystemRandom().randrange(10**9)

    def _attach_dice(self, seed: int) -> None:
        self.software = SoftwareSource.resume(self.notices, self.match, seed)
        self.feed = Feed(self.match, self.notices, on_refused=self._refused, on_accepted=self._accepted,
                         on_notice=self._tray_notice)

    def _refused(self, refusal: Refusal) -> None:
        self._refusal = refusal.message

    def _accepted(self, roll: Roll, events: tuple) -> None:
        self._log_events(self._state_before_roll, events)
        if events:
            self._forced_steps(roll.source)

    @staticmethod
    def roll_line(roll: Roll, teams: dict) -> str:
        owner = next((d.die.owner for d in roll.dice if d.die.owner is not None), None)
        who = (teams.get(owner.value) or owner.label) if owner is not None else "The table"
        faces = ", ".join(f"{d.die.colour} {d.face}" if d.die.colour else str(d.face) for d in roll.dice)
        how = {"tray": "tray", "manual": "keypad", "software": "software dice"}.get(roll.source.value, roll.source.value)
        return f"{who} rolled {faces} ({how})"

    def _pump(self) -> str | None:
        """Submit the rolls waiting in the queue (on this worker thread)."""
        if self.feed is None:
            return NO_MATCH
        self._refusal = ""
        while True:
            self._state_before_roll = self.match.state
            if not self.feed.pump(limit=1):
                break
        return self._refusal or None

    def wake_tray(self) -> None:
        """The tray's thread put notices on the queue: pump them on the worker."""
        self._queue(self._pump)

    def _tray_notice(self, notice) -> None:
        if isinstance(notice, tray_notices.TrayConnected):
            self._health["tray"] = Health.OK
            self._log.append(f"Dice tray {notice.device} connected on {notice.port}")
        elif isinstance(notice, tray_notices.TrayDisconnected) and notice.reason == "stopped":
            return   # the tablet let go of the tray itself (stop_tray): nothing was lost
        elif isinstance(notice, tray_notices.TrayDisconnected):
            self._health["tray"] = Health.LOST
            self._log.append(f"Dice tray lost ({notice.reason}): use the keypad until it is back")
        elif isinstance(notice, tray_notices.TrayProblem):
            self._health["tray"] = Health.LOST
            self._refusal = notice.message
            line = f"Dice tray: {notice.message}; type the rolls on the keypad meanwhile"
            if not self._log or self._log[-1] != line:   # said once, not at every retry
                self._log.append(line)
        elif isinstance(notice, tray_notices.BatteryReport) and notice.percent <= 15:
            self._log.append(f"Dice tray battery at {notice.percent}%")

    def start_tray(self, port: str = "", **options) -> None:
        """Connect a dice tray (found by its USB id when ``port`` is empty); its rolls are
        pumped on this worker as they arrive, and it reconnects by itself."""
        def job() -> str | None:
            self.stop_tray()
            self._health["tray"] = Health.DEGRADED
            if not port:
                from firmware_bridge.discovery import discovering_opener
                options.setdefault("opener", discovering_opener())
            if "owners" not in options:
                options["owners"] = self._dice_owners()
            try:
                self.tray = TraySource(self.notices, port or "auto", wake=self.wake_tray, **options)
            except Exception as exc:   # a port that does not exist or is not ours: said, the keypad works
                log.warning("dice tray: %s", exc, exc_info=True)
                self._health["tray"] = Health.LOST
                return (f"The dice tray cannot start on {port or 'its USB port'} ({exc}). Check the cable and "
                        f"the port name in match setup; until then type the rolls on the keypad.")
            return None
        self._queue(job)

    def _dice_owners(self):
        """Whose die is whose: the table's own dice.json beside the matches, else the game's
        convention for the reference tray."""
        from companion.errors import DataFileError
        from firmware_bridge.owners import DiceOwners

        own = self.data_dir / "dice.json"
        if own.exists():
            try:
                return DiceOwners.load(own)
            except DataFileError as exc:
                self._log.append(f"Dice tray: {exc}; the game's usual dice are assumed")
        return DiceOwners.for_game(self.match.ruleset.game if self.match is not None else "fublet")

    def release_tray(self, then=None) -> None:
        """Let go of the dice tray (queued on the worker, as its rolls are), then ``then()``
        (unplugging it: a tray unplugged before it is let go reads as lost). The keypad and
        the software dice go on."""
        def job() -> None:
            self.stop_tray()
            if then is not None:
                then()
        self._queue(job)

    def stop_tray(self) -> None:
        if self.tray is not None:
            self.tray.close()
            self.tray = None
            self._health["tray"] = Health.OFF
