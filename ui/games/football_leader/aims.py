"""Where a selected counter may go, lit in the colour of what each space would mean (a move,
a move with dodges, a pass, a shot, a tackle), and the touches on it: a lit pass opens the
pass with its receiver filled in, a lit goal the shot, a lit carrier's space the tackle; an
unlit touch is answered here in a coach's words, nothing sent. The spaces are the rules'
(companion/football_leader/targets.py)."""

from __future__ import annotations

from typing import Any

from companion.errors import RuleViolation
from companion.football_leader import commands as c
from companion.football_leader import queries as q
from companion.football_leader import targets as tg
from companion.football_leader.model import Phase
from companion.teams import PlayerRef

from ..base import TARGET_KINDS

ORDER = tuple(TARGET_KINDS)


def summary(state: Any, ref: PlayerRef, found: dict) -> str:
    """The lit spaces of a selected counter, in one sentence."""
    parts = []
    passes = sorted({r.number for t in found.values() if t.kind == "pass" for r in t.players})
    if passes:
        parts.append("pass to " + ", ".join(f"#{n}" for n in passes))
    shot = [t for t in found.values() if t.kind == "shot"]
    if shot:
        parts.append(shot[0].text)
    tackle = [t for t in found.values() if t.kind == "tackle"]
    if tackle:
        parts.append(tackle[0].text.replace("on #", "tackle #", 1) if tackle[0].text.startswith("on #")
                     else tackle[0].text)
    moves = sum(1 for t in found.values() if t.kind in ("move", "dodge"))
    if moves:
        parts.append(f"move to {moves} lit space{'s' if moves != 1 else ''}")
    if any(t.kind == "kicker" for t in found.values()):
        parts.append("carry the ball at the kick-off (touch his space)")
    return f"#{ref.number} may " + "; ".join(parts) + "." if parts else ""


class Aims:
    """The face's ``targets`` and the touches on lit spaces."""

    def targets(self, ruleset: Any, state: Any, player: PlayerRef) -> dict:
        return {sp: t.kind for sp, t in self.found(state, player).items()}

    def found(self, state: Any, player: PlayerRef) -> dict:
        key = (id(state), player)
        cache = getattr(self, "_found", None)
        if cache is None or cache[0] != key or cache[1] is not state:
            try:
                result = kick_off_spots(state, player) if state.phase is Phase.KICK_OFF else tg.targets(state, player)
            except (KeyError, ValueError, TypeError, RuleViolation):
                result = {}
            cache = self._found = (key, state, result)
        return cache[2]

    def selection_rows(self, screen: Any, state: Any, add) -> None:
        from ...widgets.keypad import wrap_label
        from ...widgets.legend import legend

        sel = screen.selected
        if sel is None or screen.mode:
            return
        found = self.found(state, sel)
        text = summary(state, sel, found)
        if not text:
            return
        add(wrap_label(text + " Touch a lit space.", 18, bold=True))
        add(legend(sorted({t.kind for t in found.values()}, key=ORDER.index)))

    @staticmethod
    def refuse_tap(screen: Any, text: str) -> None:
        screen.error_text = text[:1].upper() + text[1:]

    def lit_tap(self, screen: Any, view: Any, space, touched: PlayerRef | None = None) -> bool | None:
        """A touch on ``space`` with a counter selected: what its light says (True: done here),
        None when the space is a lit move (the usual movement goes on), False when nothing is
        lit for him (the screen decides as ever)."""
        state = view.state
        sel = screen.selected
        if sel is None or screen.override:
            return False
        found = self.found(state, sel)
        if not found:
            return False
        t = found.get(tuple(space))
        if t is None:
            if touched is not None and touched.team is sel.team:
                return False   # another of his side: the selection moves to him
            self.refuse_tap(screen, self.why_not(state, sel, tuple(space), found))
            screen.selected = None
            return True
        team = sel.team
        if t.kind == "pass":
            receiver = touched if touched in t.players else (t.players[0] if len(t.players) == 1 else None)
            form = {"team": team, **({"receiver": receiver} if receiver is not None else {})}
            self._start(screen, "pass", form)
            return True
        if t.kind == "shot":
            self._start(screen, "shoot", {"team": team})
            return True
        if t.kind == "tackle":
            here = state.players[sel].space == t.space
            self._start(screen, "tackle" if here else "move_tackle", {"team": team, "tackler": sel})
            return True
        if t.kind == "kicker":
            self._submit(screen, c.KickOff(sel))
            return True
        return None

    def why_not(self, state: Any, ref: PlayerRef, space, found: dict) -> str:
        """Why the selected counter may not go to ``space``, in the rules' words, and what is lit."""
        reason = ""
        try:
            tg._RULES.decide(state, c.Move(ref, space))   # noqa: SLF001 (the rules' own words)
        except RuleViolation as exc:
            reason = exc.reason
        board = q.board(state)
        where = board.label(space) if board.has(space) else "that space"
        if not reason or state.phase is Phase.KICK_OFF:
            reason = "the rules offer him nothing there now"
        lit = summary(state, ref, found)
        return f"#{ref.number} cannot go to {where}: {reason}. {lit} Only the lit spaces are open."


def kick_off_spots(state: Any, ref: PlayerRef) -> dict:
    """At the kick-off: a counter of the kicking side in a central space may carry the ball
    (3.9): his space lit."""
    p = state.players.get(ref)
    if p is None or p.space is None:
        return {}
    try:
        tg._RULES.decide(state, c.KickOff(ref))   # noqa: SLF001 (the kick-off's own checks)
    except RuleViolation:
        return {}
    return {p.space: tg.Target(p.space, "kicker", f"kick off to #{ref.number}: he carries the ball")}


RECEIVING = ("pass", "pass_dodge", "vision", "kick_pass")


class SlotLights:
    """The spaces an action form's next touch may choose, lit while the form waits for it."""

    def light_slot(self, screen: Any, state: Any, key: str, form: dict) -> None:
        pitch = screen.ids.get("pitch") if hasattr(screen, "ids") else None
        if pitch is None:
            return
        slot = self._slot(form, key)
        found: dict = {}
        if slot == "receiver" and key in RECEIVING and state.ball is not None:
            found = tg.pass_targets(state, state.ball)
        elif slot == "space" and form.get("mover") is not None:
            found = tg.move_targets(state, form["mover"])
        else:
            return
        pitch.reach_kinds = {sp: t.kind for sp, t in found.items()}
        pitch.reach = list(found)

    def refuse_receiver(self, screen: Any, state: Any, key: str, slot: str, ref: PlayerRef) -> bool:
        """A receiver touched who cannot take the pass: said why (the rules' words), nothing filled."""
        if slot != "receiver" or key not in RECEIVING or state.ball is None or ref == state.ball:
            return False
        found = tg.pass_targets(state, state.ball)
        if any(ref in t.players for t in found.values()):
            return False
        reason = "the rules do not take that pass now"
        for card in tg._cards(state, ref.team):   # noqa: SLF001 (a card the deck still holds)
            try:
                tg._RULES.decide(state, c.Pass(ref, card))   # noqa: SLF001
            except RuleViolation as exc:
                reason = exc.reason
                break
        mates = sorted({r.number for t in found.values() for r in t.players})
        then = ("Touch a lit teammate: " + ", ".join(f"#{n}" for n in mates) + ".") if mates else \
            "No teammate can take a pass now."
        Aims.refuse_tap(screen, f"#{ref.number} cannot take this pass: {reason}. {then}")
        return True
