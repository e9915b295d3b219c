"""The pitch, drawn from the board geometry, with the figures where the books have them.

Touching a figure dispatches ``on_figure``; touching any other square ``on_square`` (the
movement square under the finger). The screen decides what a touch means.
"""

from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, InstructionGroup, Line, Rectangle
from kivy.properties import ListProperty, ObjectProperty
from kivy.uix.widget import Widget

from companion.board import GridBoard
from companion.teams import PlayerRef, Team

GRASS = ((0.16, 0.47, 0.22), (0.19, 0.53, 0.25), (0.22, 0.58, 0.28))
TEAM_COLOURS = {Team.HOME: (0.15, 0.35, 0.85), Team.AWAY: (0.85, 0.2, 0.2)}


class PitchView(Widget):
    """Draws the board and its figures; maps touches to squares and figures."""

    board = ObjectProperty(None, allownone=True)      # companion.board.GridBoard
    state = ObjectProperty(None, allownone=True)      # the folded match state
    selected = ObjectProperty(None, allownone=True)   # PlayerRef
    reach = ListProperty([])                          # MS the selected figure can reach
    marked = ListProperty([])                         # MS to outline (a declared target, say)

    __events__ = ("on_figure", "on_square")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._labels: dict[str, object] = {}
        # The printed board changes only with the widget's size; the figures with every view.
        self._board_layer = InstructionGroup()
        self._figure_layer = InstructionGroup()
        self.canvas.add(self._board_layer)
        self.canvas.add(self._figure_layer)
        self.bind(pos=self.redraw, size=self.redraw, board=self.redraw)
        self.bind(state=self.redraw_figures, selected=self.redraw_figures, reach=self.redraw_figures,
                  marked=self.redraw_figures)

    # --- geometry -----------------------------------------------------------------------------
    def frame(self) -> tuple[float, float, float, float]:
        """x, y, width, height of the pitch inside the widget, keeping the board's shape."""
        b: GridBoard = self.board
        margin = min(self.width, self.height) * 0.03
        w, h = self.width - 2 * margin, self.height - 2 * margin
        scale = min(w / b.length_mm, h / b.width_mm)
        pw, ph = b.length_mm * scale, b.width_mm * scale
        return self.x + (self.width - pw) / 2, self.y + (self.height - ph) / 2, pw, ph

    def ms_rect(self, ms: tuple[int, int]) -> tuple[float, float, float, float]:
        x, y, w, h = self.frame()
        b = self.board
        cw, ch = w / b.ms_cols, h / b.ms_rows
        return x + ms[0] * cw, y + ms[1] * ch, cw, ch

    def ms_centre(self, ms: tuple[int, int]) -> tuple[float, float]:
        x, y, w, h = self.ms_rect(ms)
        return x + w / 2, y + h / 2

    def square_at(self, px: float, py: float) -> tuple[int, int] | None:
        if self.board is None:
            return None
        x, y, w, h = self.frame()
        if not (x <= px < x + w and y <= py < y + h):
            return None
        b = self.board
        return (min(int((px - x) / w * b.ms_cols), b.ms_cols - 1), min(int((py - y) / h * b.ms_rows), b.ms_rows - 1))

    def figure_at(self, ms: tuple[int, int]) -> PlayerRef | None:
        if self.state is None:
            return None
        for p in self.state.players.values():
            if p.on_pitch and p.ms == ms:
                return p.ref
        return None

    # --- touches ------------------------------------------------------------------------------
    def on_touch_down(self, touch) -> bool:
        if not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        ms = self.square_at(*touch.pos)
        if ms is None:
            return True
        ref = self.figure_at(ms)
        if ref is not None:
            self.dispatch("on_figure", ref)
        else:
            self.dispatch("on_square", ms)
        return True

    def on_figure(self, ref: PlayerRef) -> None:
        pass

    def on_square(self, ms: tuple[int, int]) -> None:
        pass

    # --- drawing ------------------------------------------------------------------------------
    def _label(self, text: str, size: float):
        key = f"{text}:{int(size)}"
        tex = self._labels.get(key)
        if tex is None:
            lab = CoreLabel(text=text, font_size=size, bold=True)
            lab.refresh()
            tex = self._labels[key] = lab.texture
        return tex

    def redraw(self, *_args) -> None:
        """The printed board: grass, lines, areas (only when the size or the board changes)."""
        layer = self._board_layer
        layer.clear()
        b: GridBoard | None = self.board
        if b is None or self.width < 10 or self.height < 10:
            self._figure_layer.clear()
            return
        x, y, w, h = self.frame()
        add = layer.add
        add(Color(0.05, 0.2, 0.08))
        add(Rectangle(pos=self.pos, size=self.size))
        # Pass squares in three shades of grass, as printed.
        pw, ph = w / b.ps_cols, h / b.ps_rows
        for shade in range(3):
            add(Color(*GRASS[shade]))
            for c in range(b.ps_cols):
                for r in range(b.ps_rows):
                    if (c + r) % 3 == shade:
                        add(Rectangle(pos=(x + c * pw, y + r * ph), size=(pw + 0.5, ph + 0.5)))
        add(Color(1, 1, 1, 0.9))
        add(Line(rectangle=(x, y, w, h), width=1.5))
        add(Line(points=[x + w / 2, y, x + w / 2, y + h], width=1.2))
        for name in ("penalty_area_low", "penalty_area_high", "goal_area_low", "goal_area_high"):
            if b.has_area(name):
                for rect in b.area(name).rects:
                    add(Line(rectangle=(x + rect.col0 * pw, y + rect.row0 * ph, (rect.col1 - rect.col0 + 1) * pw,
                                        (rect.row1 - rect.row0 + 1) * ph), width=1.2))
        if b.has_area("third_mid"):  # the two zone lines
            add(Color(0.1, 0.35, 0.12, 0.9))
            rect = b.area("third_mid").rects[0]
            for col in (rect.col0, rect.col1 + 1):
                add(Line(points=[x + col * pw, y, x + col * pw, y + h], width=2))
        add(Color(1, 1, 1, 1))
        for name in ("goal_line_low", "goal_line_high"):
            if b.has_area(name):
                for rect in b.area(name).rects:
                    gx = x - 6 if name.endswith("low") else x + w
                    add(Rectangle(pos=(gx, y + rect.row0 * ph), size=(6, (rect.row1 - rect.row0 + 1) * ph)))
        self.redraw_figures()

    def redraw_figures(self, *_args) -> None:
        """The movement range, marked squares, the figures and the ball (on every new view)."""
        layer = self._figure_layer
        layer.clear()
        if self.board is None or self.width < 10 or self.height < 10:
            return
        add = layer.add
        if self.reach:
            add(Color(1, 1, 0.3, 0.28))
            for ms in self.reach:
                rx, ry, rw, rh = self.ms_rect(tuple(ms))
                add(Rectangle(pos=(rx, ry), size=(rw, rh)))
        if self.marked:
            add(Color(1, 1, 1, 0.9))
            for ms in self.marked:
                rx, ry, rw, rh = self.ms_rect(tuple(ms))
                add(Line(rectangle=(rx, ry, rw, rh), width=2))
        self._draw_figures(add)

    def _draw_figures(self, add) -> None:
        s = self.state
        if s is None:
            return
        cw = self.ms_rect((0, 0))[2]
        radius = max(cw * 0.9, 7)
        carrier = s.ball.carrier
        for p in s.players.values():
            if not p.on_pitch or p.ms is None:
                continue
            cx, cy = self.ms_centre(p.ms)
            colour = TEAM_COLOURS[p.ref.team]
            status = p.status.value
            if p.ref == self.selected:
                add(Color(1, 1, 0.2, 1))
                add(Ellipse(pos=(cx - radius - 3, cy - radius - 3), size=(2 * radius + 6, 2 * radius + 6)))
            shade = 1.0 if status == "ready" and not p.injured else 0.55
            add(Color(colour[0] * shade, colour[1] * shade, colour[2] * shade, 1))
            add(Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius)))
            if status == "stunned":
                add(Color(0, 0, 0, 0.6))
                add(Line(circle=(cx, cy, radius - 1), width=2))
            if p.goalkeeper:
                add(Color(1, 1, 1, 1))
                add(Line(circle=(cx, cy, radius + 1), width=1.2))
            if p.manual:
                add(Color(1, 0.6, 0, 1))
                add(Line(circle=(cx, cy, radius + 3), width=1.5, dash_length=3, dash_offset=3))
            tex = self._label(str(p.ref.number), radius * 1.1)
            add(Color(1, 1, 1, 1))
            add(Rectangle(texture=tex, pos=(cx - tex.width / 2, cy - tex.height / 2), size=tex.size))
            if p.ref == carrier:
                self._draw_ball(add, cx + radius * 0.8, cy - radius * 0.8, radius * 0.45)
        if carrier is None and s.ball.ps is not None and self.board is not None:
            cells = self.board.ps_cells(s.ball.ps)
            xs = [self.ms_centre(c) for c in cells]
            bx = sum(p[0] for p in xs) / len(xs)
            by = sum(p[1] for p in xs) / len(xs)
            self._draw_ball(add, bx, by, radius * 0.55)

    def _draw_ball(self, add, x: float, y: float, r: float) -> None:
        add(Color(1, 1, 1, 1))
        add(Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r)))
        add(Color(0, 0, 0, 1))
        add(Line(circle=(x, y, r), width=1))
