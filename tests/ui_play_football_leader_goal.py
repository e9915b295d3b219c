"""A Football Leader newcomer from the opening roll to the first goal (run by tests/ui_scenario.py
in mode ``game:football_leader_goal``), touching only what the screen shows (tests/ui_newcomer.py):
preset sheets, the opening roll on the keypad, "confirm the set-up", the kick-off by touching
the carrier's lit space, then turn after turn the carrier's lit spaces: a lit goal is a shot,
else the pass to the teammate who stands farthest forward (touching him opens the pass with
its card grid), else a move forward; the dice on the keypad. Away ends its turns."""

from __future__ import annotations

from ui_newcomer import H, check, has_button, lit, roll, tap_cell, tap_figure, view

from kivy.uix.button import Button  # noqa: E402

from ui_harness import widgets


def new_match(sc, shots: bool = True):
    yield from sc.new_match("Football Leader") if shots else sc.start_match("Football Leader")
    sc.press("Home 4-4-2")
    yield "settle"
    sc.press("Away 4-4-2")
    yield "settle"
    sc.keypad("7")     # the opening roll: Home 7, Away 3: Home kicks off
    yield "settle"
    sc.keypad("3")
    yield "settle"
    sc.press("Home: confirm the set-up")
    yield "settle"
    sc.press("Away: confirm the set-up")
    yield "settle"
    check(sc, sc.state.phase.value == "kick_off", "both set up")


def kick_off(sc, ref, shots: bool = True):
    """Touch the carrier: his space lights up (he may carry the ball); touch it."""
    tap_figure(sc, ref)
    yield "settle"
    spaces = [c for c, k in lit(sc).items() if k == "kicker"]
    check(sc, bool(spaces), f"#{ref.number}'s kick-off space is not lit")
    if shots:
        sc.screenshot("fl_kick_off_lit")
    tap_space(sc, spaces[0], avoid=ref)
    yield "settle"
    check(sc, sc.state.ball == ref and sc.state.phase.value == "turn", "the kick-off")


def tap_space(sc, space, avoid=None) -> None:
    """Touch a space where no counter is drawn (a space holds several): its free corner."""
    pitch = sc.screen().ids.pitch
    x, y, w, h = pitch.cell_rect(space)
    r = pitch._radius() + 4   # noqa: SLF001
    spots = [(s[1], s[2]) for s in pitch._spots]   # noqa: SLF001
    for fx, fy in ((0.5, 0.5), (0.15, 0.15), (0.85, 0.85), (0.15, 0.85), (0.85, 0.15), (0.5, 0.12), (0.5, 0.88)):
        px, py = x + fx * w, y + fy * h
        if all((px - sx) ** 2 + (py - sy) ** 2 > r * r for sx, sy in spots):
            from ui_harness import tap
            tap(*pitch.to_window(px, py))
            sc.log.append(f"tap space {space}")
            return
    tap_cell(sc, space)


def best_card(sc, colour) -> str:
    """The card button of ``colour`` with the highest bonus (the card grid shows each card)."""
    texts = [w.text for w in widgets(sc.screen().ids.panel) if isinstance(w, Button) and not w.disabled
             and w.text.startswith(colour.value.upper() + " ")]
    check(sc, bool(texts), f"no {colour.value} card to play")
    return max(texts, key=lambda t: (int(t.split("-")[1]), t))


def play_card(sc, colour):
    sc.press(best_card(sc, colour))
    yield "settle"


def ahead(sc, team):
    """Spaces ordered by the ground they gain toward the goal ``team`` attacks."""
    from companion.football_leader import queries as q
    up = q.towards_high(sc.state, team)
    return (lambda sp: -sp[0]) if up else (lambda sp: sp[0])


def home_turn(sc, shots: bool = True):
    """One attacking turn: shoot when the goal is lit, else pass forward, else move forward."""
    s = sc.state
    carrier = s.ball
    score = dict(s.score)
    if carrier is None or carrier.team is not s.turn.team or s.players[carrier].goalkeeper:
        return
    tap_figure(sc, carrier)
    yield "settle"
    found = lit(sc)
    counter = sc.state.players[carrier].counter
    key = ahead(sc, carrier.team)
    if "shot" in found.values():
        goal = next(c for c, k in found.items() if k == "shot")
        if shots:
            sc.screenshot("fl_shot_lit")
        tap_space(sc, goal)
        yield "settle"
        yield from play_card(sc, counter.shoot.colour)
        roll(sc, "12")
        yield "settle"
        return
    mine = sc.state.players[carrier].space
    passes = sorted((c for c, k in found.items() if k == "pass" and key(c) < key(mine)), key=key)
    if passes:
        mates = [p.ref for p in sc.state.players.values() if p.space == passes[0] and p.ref.team is carrier.team]
        if shots:
            sc.screenshot("fl_pass_lit")
        tap_figure(sc, mates[0])
        yield "settle"
        check(sc, sc.screen().mode == "pass", "touching a lit teammate opens the pass")
        yield from play_card(sc, counter.passing.colour)
        roll(sc, "12")
        yield "settle"
        receiver = sc.state.ball
        if receiver is not None and receiver.team is carrier.team and receiver != carrier:
            tap_figure(sc, receiver)   # pass and shoot, when the goal lights up for him
            yield "settle"
            if "shot" in lit(sc).values():
                if shots:
                    sc.screenshot("fl_shot_lit")
                tap_space(sc, next(c for c, k in lit(sc).items() if k == "shot"))
                yield "settle"
                yield from play_card(sc, sc.state.players[receiver].counter.shoot.colour)
                roll(sc, "12")
                yield "settle"
                return
            tap_figure(sc, receiver)   # let go of him
            yield "settle"
    else:
        # No pass gains ground: another counter runs ahead to take the next one.
        tap_figure(sc, carrier)   # let go of the carrier
        yield "settle"
        yield from run_ahead(sc, carrier.team, key, exclude=carrier)
    if sc.state.score != score:
        return
    yield from end_turn(sc)


def run_ahead(sc, team, key, exclude=None, backward: bool = False):
    """One counter of ``team`` moves over the lit spaces: the one farthest forward moves
    farther (``backward``: the one nearest the ball steps back, as a defender would), the card
    asked afterwards from the choice."""
    mates = sorted((p for p in sc.state.players.values() if p.on_pitch and p.ref.team is team and not p.goalkeeper
                    and p.space is not None and p.ref != exclude and p.markers == 0), key=lambda p: key(p.space))
    for p in (reversed(mates) if backward else mates):
        tap_figure(sc, p.ref)
        yield "settle"
        moves = sorted((c for c, k in lit(sc).items() if k == "move"), key=key, reverse=backward)
        if moves:
            tap_space(sc, moves[0])
            yield "settle"
            yield from answer_card(sc)
            return
        tap_figure(sc, p.ref)   # nothing lit for him: let go
        yield "settle"


def answer_card(sc):
    """The card of a move asked afterwards: the first the choice offers."""
    from ui.screens.live import choice_text

    choice = next((r for r in view(sc).pending if r.kind == "choice"), None)
    if choice is not None:
        sc.press(choice_text(view(sc).summary, choice.options[0]))
        yield "settle"


def away_turn(sc):
    """The defending coach's turn: a counter steps back (a card must be played), then the end."""
    s = sc.state
    if not has_button(sc, f"{s.turn.team.label}: end the turn"):
        yield from run_ahead(sc, s.turn.team, ahead(sc, s.turn.team), backward=True)
    yield from end_turn(sc)


def end_turn(sc):
    for _ in range(3):
        s = sc.state
        if s.phase.value != "turn" or s.turn is None:
            return
        text = f"{s.turn.team.label}: end the turn"
        if not has_button(sc, text):
            return
        sc.press(text)
        yield "settle"
        return


def play_to_goal(sc, turns: int = 30, shots: bool = True):
    start = dict(sc.state.score)
    for _ in range(turns):
        if sc.state.score != start:
            return
        s = sc.state
        check(sc, s.phase.value == "turn", f"a turn expected, not {s.phase.value}")
        if s.ball is not None and s.turn.team is s.ball.team and not s.players[s.ball].goalkeeper:
            yield from home_turn(sc, shots)
        else:
            yield from away_turn(sc)
    check(sc, sc.state.score != start, f"no goal in {turns} turns")


def play(sc):
    yield from new_match(sc)
    yield from kick_off(sc, H(9))
    yield from play_to_goal(sc)
    check(sc, sc.state.score[H(1).team] == 1, "Home's first goal")
    sc.screenshot("fl_first_goal")
    check(sc, sc.state.phase.value in ("set_up", "kick_off") and sc.state.restart.team.label == "Away",
          "after the goal Away kicks off")
