"""Where a selected figure or a kick may go, lit on the board in the colour of what each
square would mean, and every tap checked against it before anything is sent: a tap the rules
would refuse is answered here, in a coach's words (what was asked, why it cannot be, what
would be taken). The targets themselves are the rules' (companion/fussball_liga/targets.py).
"""

from __future__ import annotations

from typing import Any

from companion.errors import RuleViolation
from companion.fussball_liga import commands as c
from companion.fussball_liga import targets as tg
from companion.fussball_liga.model import LigaState
from companion.fussball_liga.pitch import dist
from companion.teams import PlayerRef

from ..base import TARGET_KINDS

ORDER = tuple(TARGET_KINDS)

# Why a figure may not stand on an unlit square before a kick-off or a penalty (the rules place
# him freely there and check the whole line-up at the kick, so the reason is the kick's rule).
PLACE_WHY = {
    "line_up": "at the kick-off every player stands in his own half, and no defender inside the centre circle or on "
               "a square it touches (the kicker on one of the two squares by the centre mark)",
    "penalty": "at a penalty-kick only the kicker (behind the penalty mark) and the goalkeeper (on goal square 1-4) "
               "stand in the penalty area or on the penalty circle's squares, and the defenders stay out of the "
               "attacker's end",
    "shootout": "the goalkeeper faces each kick on one of the goal squares numbered 1 to 4",
}


def kinds_of(found: dict) -> dict:
    return {sq: t.kind for sq, t in found.items()}


def receivers_of(found: dict) -> list[PlayerRef]:
    """Every teammate some lit square passes to, by shirt number."""
    return sorted({r for t in found.values() for r in t.receivers}, key=lambda r: r.number)


def kick_summary(kicker: PlayerRef, found: dict) -> str:
    """What the lit squares of a kick offer, in one or two sentences."""
    if not found:
        return f"#{kicker.number} has no legal kick from here."
    parts = []
    mates = receivers_of(found)
    if mates:
        parts.append("pass to " + _or([f"#{r.number}" for r in mates]) + " (touch him or a green square)")
    if any(t.kind == "shot" for t in found.values()):
        parts.append("shoot at goal (pink squares)")
    if any(t.kind == "loose" for t in found.values()):
        parts.append("kick into space (blue)")
    if not parts:
        parts.append("only kick the ball away (to an opponent or out of play)")
    return f"#{kicker.number} may " + "; ".join(parts) + "."


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def best_square(found: dict, mate: PlayerRef, state: LigaState) -> Any:
    """The lit square a pass to ``mate`` goes to when the coach touches the figure: his own
    square (close control) if it is lit, else the one fewest defenders can reach, then the
    shortest."""
    own = state.players[mate].square
    mine = [sq for sq, t in found.items() if mate in t.receivers]
    if not mine:
        return None
    if own in mine:
        return own
    return min(mine, key=lambda sq: (found[sq].risk, dist(sq, own), sq))


class Aims:
    """The face's ``targets`` and the kick mode's touches, checked before they are sent."""

    def targets(self, ruleset: Any, state: Any, player: PlayerRef) -> dict:
        return kinds_of(self.found(state, player))

    def found(self, state: LigaState, player: PlayerRef, drop=None, kick: bool = False) -> dict:
        """The rules' targets for ``player`` now (``kick``: his kick, whatever the phase's
        default), kept for the state on show: the panel and the touches ask again."""
        key = (id(state), player, drop, kick)
        cache = getattr(self, "_found", None)
        if cache is None or cache[0] != key or cache[1] is not state:
            try:
                result = tg.kick_targets(state, player, drop) if kick or drop is not None else tg.targets(state, player)
            except (KeyError, ValueError, TypeError, RuleViolation):
                result = {}
            cache = self._found = (key, state, result)
        return cache[2]

    @staticmethod
    def _light(screen: Any, found: dict) -> None:
        pitch = screen.ids.get("pitch") if hasattr(screen, "ids") else None
        if pitch is not None:
            pitch.reach_kinds = kinds_of(found)
            pitch.reach = list(found)

    @staticmethod
    def refuse_tap(screen: Any, text: str) -> None:
        """A tap answered on the tablet, nothing sent: said where refusals are said."""
        screen.error_text = text[:1].upper() + text[1:]

    def kick_found(self, screen: Any, state: LigaState) -> dict:
        drop = screen.form.get("drop")
        return self.found(state, screen.action, tuple(drop) if drop else None, kick=True)

    def legend_rows(self, screen: Any, found: dict, add) -> None:
        from ...widgets.legend import legend

        kinds = sorted({t.kind for t in found.values()}, key=ORDER.index)
        if kinds:
            add(legend(kinds))

    # --- touches in the kick mode ------------------------------------------------------------------
    def kick_at_figure(self, screen: Any, view: Any, ref: PlayerRef) -> None:
        """A figure touched while aiming: a teammate is "pass to him" (his best lit square), an
        opponent or any other figure is the square he stands on."""
        state: LigaState = view.state
        kicker = screen.action
        found = self.kick_found(screen, state)
        p = state.players[ref]
        if ref == kicker:
            self.refuse_tap(screen, f"That is #{kicker.number} himself, the kicker: touch where the ball should go "
                                    f"(a lit square), or a teammate to pass to him.")
            return
        if ref.team is kicker.team:
            sq = best_square(found, ref, state)
            if sq is None:
                self.refuse_tap(screen, self.why_not_mate(state, kicker, ref, found))
                return
            t = found[sq]
            screen.submit(c.Kick(kicker, sq, receiver=ref if len(t.receivers) > 1 else None,
                                 drop=self._drop(screen)))
            return
        self.kick_at(screen, view, p.square)

    def kick_at(self, screen: Any, view: Any, sq) -> None:
        state: LigaState = view.state
        kicker = screen.action
        found = self.kick_found(screen, state)
        t = found.get(tuple(sq))
        if t is None:
            self.refuse_tap(screen, self.why_not_square(state, kicker, tuple(sq), found, self._drop(screen)))
            return
        if len(t.receivers) > 1:
            self._enter(screen, "receiver", kicker, target=tuple(sq), mates=list(t.receivers), drop=self._drop(screen))
            return
        screen.submit(c.Kick(kicker, tuple(sq), drop=self._drop(screen)))

    @staticmethod
    def _drop(screen: Any):
        drop = screen.form.get("drop")
        return tuple(drop) if drop else None

    # --- refusals in a coach's words -----------------------------------------------------------------
    def why_not_mate(self, state: LigaState, kicker: PlayerRef, mate: PlayerRef, found: dict) -> str:
        others = [f"#{r.number}" for r in receivers_of(found)]
        limit = self._limit(state)
        from companion.fussball_liga.model import Phase

        lead = "the kick-off is a pass, not a shot, but " if state.phase is Phase.LINE_UP else ""
        why = (f"{lead}a kick travels in a straight line (along a row, a column or a diagonal) and carries at most {limit} "
               f"squares, and neither #{mate.number}'s square nor any square next to him lies on such a line from "
               f"the ball within reach")
        then = f"Touch a green square: {_or(others)} can take a pass now." if others else \
            "No teammate can take a pass from here; the lit squares show what he can do."
        return f"#{mate.number} cannot take a pass from #{kicker.number} now: {why}. {then}"

    def why_not_square(self, state: LigaState, kicker: PlayerRef, sq, found: dict, drop) -> str:
        try:
            tg._RULES.decide(state, c.Kick(kicker, sq, drop=drop))   # noqa: SLF001 (the rules' own words)
            reason = "the rules would not take it"
        except RuleViolation as exc:
            reason = exc.reason
        hint = kick_summary(kicker, found)
        return f"#{kicker.number} cannot kick the ball to that square: {reason}. {hint} Only the lit squares are " \
               f"open."

    @staticmethod
    def _limit(state: LigaState) -> int:
        from companion.fussball_liga import queries as q
        from companion.fussball_liga.model import Phase, RestartKind

        limits = q.limits(state)
        r = state.restart
        if state.phase is Phase.LINE_UP:
            return limits.max_kick_off
        if r is not None and r.kind is RestartKind.THROW_IN:
            return limits.max_throw_in
        if r is not None and r.kind in (RestartKind.CORNER, RestartKind.GOAL_KICK):
            return limits.max_corner
        if state.kicked:
            return limits.max_follow_up
        return limits.max_shot

    # --- touches with a figure selected (no mode) ------------------------------------------------------
    def selected_tap(self, screen: Any, view: Any, cell) -> bool:
        """A square touched with a figure selected: a lit kick square is his kick; an unlit
        square is answered here with the rules' reason. False: the screen moves him (a lit
        move or placement square)."""
        state: LigaState = view.state
        sel = screen.selected
        if sel is None or screen.override:
            return False
        found = self.found(state, sel)
        cell = tuple(cell)
        if cell in found:
            if self.is_kick(state, sel):
                screen.action = sel
                screen.form = {}
                self.kick_at(screen, view, cell)
                return True
            return False
        if not found:
            return False   # nothing lit (a correction, a figure off the board): the rules answer as ever
        self.refuse_tap(screen, self.why_not_move(screen, state, sel, cell, found))
        screen.selected = None
        return True

    def selected_figure(self, screen: Any, view: Any, ref: PlayerRef) -> bool:
        """A teammate touched while the ball's holder is selected in the shot phase: a pass to him."""
        state: LigaState = view.state
        sel = screen.selected
        if sel is None or ref == sel or ref.team is not sel.team or screen.override or not self.is_kick(state, sel):
            return False
        screen.action = sel
        screen.form = {}
        self.kick_at_figure(screen, view, ref)
        return True

    @staticmethod
    def is_kick(state: LigaState, ref: PlayerRef) -> bool:
        from companion.fussball_liga.model import Phase

        return state.phase is Phase.SHOT and state.flight is None and ref.team is state.attacking

    def why_not_move(self, screen: Any, state: LigaState, ref: PlayerRef, cell, found: dict) -> str:
        """Why the selected figure may not go to ``cell``: the rules' own reason for the command
        the tap would send, and what is lit instead."""
        from companion.sightings import Sighting

        kinds = {t.kind for t in found.values()}
        if self.is_kick(state, ref):
            return self.why_not_square(state, ref, cell, found, None)
        reason = ""
        geometry = screen.ids.pitch.geometry if hasattr(screen, "ids") and "pitch" in screen.ids else None
        if geometry is not None:
            x, y = geometry.point(cell)
            command = tg._RULES.command_for(state, Sighting(ref, x, y))   # noqa: SLF001
            if command is not None:
                try:
                    tg._RULES.decide(state, command)   # noqa: SLF001
                except RuleViolation as exc:
                    reason = exc.reason
        if kinds <= {"place", "kicker", "keeper"}:
            r = state.restart
            key = "penalty" if r is not None and r.kind.value == "penalty_kick" else state.phase.value
            reason = PLACE_WHY.get(key, reason) or reason
        if not reason:
            reason = "the rules do not allow it"
        what = "stand" if kinds <= {"place", "kicker", "keeper"} else "go"
        return f"#{ref.number} cannot {what} on that square: {reason}. The lit squares are where he may {what} now."
