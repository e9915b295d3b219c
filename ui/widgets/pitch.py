"""The pitch, drawn from the board geometry, with the figures where the books have them.

Any game's board: the widget draws a ``Geometry`` (ui/games/base.py: printed shapes and
touchable cells in board millimetres) and a list of ``Figure``. Touching a figure dispatches
``on_figure``; touching anything else ``on_square`` with the cell under the finger. The
screen (and the game's face) decide what a touch means.
"""

from __future__ import annotations

import logging
from collections import defaultdict

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Fbo, InstructionGroup, Line, Rectangle, Translate
from kivy.metrics import dp, sp
from kivy.properties import DictProperty, ListProperty, ObjectProperty
from kivy.uix.widget import Widget

from companion.teams import PlayerRef, Team

from .. import theme
from ..games.base import TARGET_KINDS
from ..looks.base import BallMark, Geometry
from ..theme import DEFAULT_KITS

log = logging.getLogger(__name__)
SEGMENTS = 48   # a figure's disc: round at any size a board draws it, a quarter of Kivy's 180 triangles
INK = 0.15          # of a printed label's texture height, above and below its ink
OVERPRINT_PX = 3.0  # pixels two printed labels may share (their glyphs' side bearings)


def ink_box(x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
    """A printed label's ink: its texture less the line's room above the capitals and below
    the baseline (digits and capitals fill about the middle 70% of it)."""
    return x, y + INK * h, w, h * (1 - 2 * INK)


def ink_overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> tuple[float, float]:
    """How far two printed labels' ink overlaps (x, y; a side <= 0: apart), from their
    textures' boxes (x, y, w, h). The board skips a label that would overprint another by more
    than OVERPRINT_PX both ways, and ui/layout_check.py flags one that does."""
    ax, ay, aw, ah = ink_box(*a)
    bx, by, bw, bh = ink_box(*b)
    return min(ax + aw, bx + bw) - max(ax, bx), min(ay + ah, by + bh) - max(ay, by)


class PitchView(Widget):
    """Draws the board and its figures; maps touches to cells and figures."""

    geometry = ObjectProperty(None, allownone=True)   # ui.games.base.Geometry
    state = ObjectProperty(None, allownone=True)      # the folded match state (what the figures come from)
    figures = ListProperty([])                        # ui.games.base.Figure
    ball = ObjectProperty(BallMark())
    selected = ObjectProperty(None, allownone=True)   # PlayerRef
    reach = ListProperty([])                          # cells the selected figure can reach
    reach_kinds = DictProperty({})                    # cell -> a kind of games.base.TARGET_KINDS (its colour)
    marked = ListProperty([])                         # cells to outline (a declared target, say)
    tints = ListProperty([])                          # (cell, rgba): where the ball may go, coloured by meaning
    # Places a text names, shown where they are: (letter, (x0, y0, x1, y1) drawing mm), the
    # letter the text calls the place by ("square A"), ringed on the board (ui/places.py).
    tags = ListProperty([])
    kits = DictProperty(dict(DEFAULT_KITS))           # Team -> theme.Kit: shirt, number colour, ring

    __events__ = ("on_figure", "on_square")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._labels: dict[str, object] = {}
        self.smallest_label: float | None = None   # the smallest board label drawn (px), for the layout check
        self.ball_px: float | None = None          # how wide the ball was drawn (px), for the layout check
        self.printed: list[tuple[str, float, float, float, float]] = []   # the board's labels: text, x, y, w, h
        self._spots: list[tuple[PlayerRef, float, float, object]] = []   # where each figure was drawn, its cell
        # The printed board changes only with the widget's size: it is drawn once into a texture
        # (hundreds of squares, lines and labels), and every frame shows that one picture;
        # the figures change with every view.
        self._board_layer = InstructionGroup()
        self._board_fbo: Fbo | None = None
        self.board_draws = 0   # how often the printed board was drawn (tests, benchmarks)
        # Each figure keeps its own instructions (a Sprite): a figure that moved only moves
        # them, and one that did not costs nothing; they are made again only when its look
        # (colours, marks, size) changes.
        self._mark_layer = InstructionGroup()
        self._figure_layer = InstructionGroup()
        self._tag_layer = InstructionGroup()   # the letters of ringed places, over everything
        self._sprites: dict[PlayerRef, Sprite] = {}
        self.sprites_made = 0   # how many figures' instructions were made (tests, benchmarks)
        self.canvas.add(self._board_layer)
        self.canvas.add(self._mark_layer)
        self.canvas.add(self._figure_layer)
        self.canvas.add(self._tag_layer)
        self.bind(pos=self.redraw, size=self.redraw, geometry=self.redraw)
        self.bind(figures=self._redraw_sprites, ball=self._redraw_sprites, selected=self._redraw_sprites,
                  kits=self._redraw_sprites)
        self.bind(reach=self._redraw_marks, reach_kinds=self._redraw_marks, marked=self._redraw_marks,
                  tints=self._redraw_marks, tags=self._redraw_marks)

    # --- geometry -----------------------------------------------------------------------------
    def frame(self) -> tuple[float, float, float, float]:
        """x, y, width, height of the board inside the widget, keeping its shape."""
        g: Geometry = self.geometry
        margin = min(self.width, self.height) * 0.03
        w, h = self.width - 2 * margin, self.height - 2 * margin
        scale = min(w / g.length_mm, h / g.width_mm)
        pw, ph = g.length_mm * scale, g.width_mm * scale
        return self.x + (self.width - pw) / 2, self.y + (self.height - ph) / 2, pw, ph

    def _scale(self) -> tuple[float, float, float]:
        x, y, w, _h = self.frame()
        return x, y, w / self.geometry.length_mm

    def to_px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        x, y, s = self._scale()
        return x + x_mm * s, y + y_mm * s

    def to_mm(self, px: float, py: float) -> tuple[float, float]:
        x, y, s = self._scale()
        return (px - x) / s, (py - y) / s

    def cell_rect(self, cell) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = self.geometry.cell_rect(cell)
        ax, ay = self.to_px(x0, y0)
        bx, by = self.to_px(x1, y1)
        return ax, ay, bx - ax, by - ay

    def cell_centre(self, cell) -> tuple[float, float]:
        return self.to_px(*self.geometry.cell_centre(cell))

    ms_centre = cell_centre   # the name the Fublet tests first used

    def square_at(self, px: float, py: float):
        if self.geometry is None:
            return None
        return self.geometry.cell_at(*self.to_mm(px, py))

    def figure_near(self, px: float, py: float) -> PlayerRef | None:
        """The figure touched: of the figures standing in the cell under the finger, the one
        drawn nearest (a cell may hold several). Not by radius: a Fublet figure is drawn wider
        than its square, and the square next to it must stay touchable."""
        cell = self.square_at(px, py)
        here = [s for s in self._spots if s[3] == cell]
        if cell is None or not here:
            return None
        return min(here, key=lambda s: (s[1] - px) ** 2 + (s[2] - py) ** 2)[0]

    def figure_at(self, cell) -> PlayerRef | None:
        for f in self.figures:
            if f.cell == cell:
                return f.ref
        return None

    # --- touches ------------------------------------------------------------------------------
    def on_touch_down(self, touch) -> bool:
        if not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        if self.geometry is None:
            return True
        ref = self.figure_near(*touch.pos)
        if ref is not None:
            self.dispatch("on_figure", ref)
            return True
        cell = self.square_at(*touch.pos)
        if cell is not None:
            self.dispatch("on_square", cell)
        return True

    def on_figure(self, ref: PlayerRef) -> None:
        pass

    def on_square(self, cell) -> None:
        pass

    # --- drawing ------------------------------------------------------------------------------
    def _label(self, text: str, size: float):
        """A printed number or letter on the board: never under theme.BOARD_MIN sp."""
        size = max(size, sp(theme.BOARD_MIN))
        self.smallest_label = size if self.smallest_label is None else min(self.smallest_label, size)
        key = f"{text}:{int(size)}"
        tex = self._labels.get(key)
        if tex is None:
            lab = CoreLabel(text=text, font_size=size, bold=True)
            lab.refresh()
            tex = self._labels[key] = lab.texture
        return tex

    def _radius(self) -> float:
        """A figure's radius in pixels: the board's, but never too small for its two-digit
        number at the smallest readable size (a figure may then overlap its neighbour's
        square; touches go by square, and numbers are drawn over every disc)."""
        fits = self._label("88", sp(theme.BOARD_MIN)).width / 2 + dp(3)
        return max(self.geometry.figure_radius_mm() * self._scale()[2], fits)

    def redraw(self, *_args) -> None:
        """The printed board (only when the size or the board changes)."""
        self._board_layer.clear()
        self.smallest_label = None
        self.printed = []
        g: Geometry | None = self.geometry
        self._sprites.clear()   # their size and places were the old board's
        if g is None or self.width < 10 or self.height < 10:
            self._mark_layer.clear()
            self._figure_layer.clear()
            self._tag_layer.clear()
            return
        layer = InstructionGroup()   # drawn in the widget's coordinates, baked below
        add = layer.add
        add(Color(0.05, 0.2, 0.08))
        add(Rectangle(pos=self.pos, size=self.size))
        for shape in g.shapes():
            add(Color(*shape.rgba))
            if shape.kind == "fill":
                ax, ay = self.to_px(shape.data[0], shape.data[1])
                bx, by = self.to_px(shape.data[2], shape.data[3])
                add(Rectangle(pos=(ax, ay), size=(bx - ax + 0.5, by - ay + 0.5)))
            elif shape.kind == "outline":
                ax, ay = self.to_px(shape.data[0], shape.data[1])
                bx, by = self.to_px(shape.data[2], shape.data[3])
                add(Line(rectangle=(ax, ay, bx - ax, by - ay), width=shape.width))
            elif shape.kind == "line":
                points = []
                for i in range(0, len(shape.data) - 1, 2):
                    points.extend(self.to_px(shape.data[i], shape.data[i + 1]))
                add(Line(points=points, width=shape.width))
            elif shape.kind == "text":
                if theme.BOARD_TEXT_ALPHA:   # high contrast: printed numbers opaque
                    add(Color(*shape.rgba[:3], max(shape.rgba[3], theme.BOARD_TEXT_ALPHA)))
                tex = self._label(shape.text, self._scale()[2] * shape.width)
                cx, cy = self._inside_cell(shape.data[0], shape.data[1], tex.size)
                # A label grown to its minimum size stays inside the widget (not cut at its edge).
                cx = min(max(cx, self.x + tex.width / 2), self.right - tex.width / 2)
                cy = min(max(cy, self.y + tex.height / 2), self.top - tex.height / 2)
                if self._overprints(cx - tex.width / 2, cy - tex.height / 2, tex.width, tex.height):
                    continue   # a board too small for all its numbers prints every other one, as a ruler does
                self.printed.append((shape.text, cx - tex.width / 2, cy - tex.height / 2, tex.width, tex.height))
                add(Rectangle(texture=tex, pos=(cx - tex.width / 2, cy - tex.height / 2), size=tex.size))
        self._bake(layer)
        self.redraw_figures()

    def _overprints(self, x: float, y: float, w: float, h: float) -> bool:
        """A label here would be printed over one already drawn (see ``ink_overlap``)."""
        for _text, *box in self.printed:
            dx, dy = ink_overlap((x, y, w, h), tuple(box))
            if dx > OVERPRINT_PX and dy > OVERPRINT_PX:
                return True
        return False

    def _inside_cell(self, x_mm: float, y_mm: float, size) -> tuple[float, float]:
        """Where a printed label is drawn: at its point, but kept inside the cell the point
        lies in when it fits there (a label grown to the smallest readable size would
        otherwise reach over into the next space, onto that space's own label)."""
        cx, cy = self.to_px(x_mm, y_mm)
        cell = self.geometry.cell_at(x_mm, y_mm)
        rect = self._known_rect(cell) if cell is not None else None
        if rect is None:
            return cx, cy
        rx, ry, rw, rh = rect
        w, h = size
        if w <= rw:
            cx = min(max(cx, rx + w / 2), rx + rw - w / 2)
        if h <= rh:
            cy = min(max(cy, ry + h / 2), ry + rh - h / 2)
        return cx, cy

    def _bake(self, layer: InstructionGroup) -> None:
        """Draw the board's instructions once into a texture the size of the widget, and show
        that texture: a frame then draws one rectangle for the whole board."""
        w, h = max(1, int(round(self.width))), max(1, int(round(self.height)))
        fbo = self._board_fbo
        if fbo is None or tuple(fbo.size) != (w, h):
            # A stencil: Kivy draws a translucent line wider than 1 px through it (without one,
            # the board's white outlines came out as filled rectangles).
            fbo = self._board_fbo = Fbo(size=(w, h), with_stencilbuffer=True)
        fbo.clear()
        with fbo:
            Translate(-self.x, -self.y)
        fbo.add(layer)
        fbo.bind()
        fbo.clear_buffer()
        fbo.release()
        fbo.draw()
        self.board_draws += 1
        self._board_layer.add(Color(1, 1, 1, 1))
        self._board_layer.add(Rectangle(texture=fbo.texture, pos=self.pos, size=(w, h)))

    def redraw_figures(self, *_args) -> None:
        """The movement range, marked cells, the figures and the ball."""
        self._redraw_marks()
        self._redraw_sprites()

    def _drawable(self) -> bool:
        return self.geometry is not None and self.width >= 10 and self.height >= 10

    def _redraw_marks(self, *_args) -> None:
        """Where the ball may go (tints), the selected figure's reach, each target in its
        kind's colour, and marked cells."""
        layer = self._mark_layer
        layer.clear()
        self._tag_layer.clear()
        if not self._drawable():
            return
        add = layer.add
        for cell, rgba in self.tints:
            rect = self._known_rect(cell)
            if rect is not None:
                add(Color(*rgba))
                add(Rectangle(pos=rect[:2], size=rect[2:]))
        if self.reach:
            add(Color(1, 1, 0.3, 0.28))
            kinds = self.reach_kinds
            for cell in self.reach:
                rect = self._known_rect(cell)
                if rect is not None:
                    # Each kind of target in its own colour (a pass, a shot, a move...).
                    kind = kinds.get(tuple(cell) if isinstance(cell, list) else cell)
                    if kind in TARGET_KINDS:
                        add(Color(*TARGET_KINDS[kind][0]))
                    add(Rectangle(pos=rect[:2], size=rect[2:]))
                    if kind in TARGET_KINDS:
                        add(Color(1, 1, 0.3, 0.28))
        if self.marked:
            add(Color(1, 1, 1, 0.9))
            for cell in self.marked:
                rect = self._known_rect(cell)
                if rect is not None:
                    add(Line(rectangle=rect, width=2))
        self._draw_rings(add)
        self._draw_tags(self._tag_layer.add)

    def _draw_rings(self, add) -> None:
        """The places a text names, ringed in the accent colour (under the figures: a figure
        standing there stays readable)."""
        for _letter, (x0, y0, x1, y1) in self.tags:
            ax, ay = self.to_px(x0, y0)
            bx, by = self.to_px(x1, y1)
            add(Color(0, 0, 0, 0.9))
            add(Line(rectangle=(ax - 2, ay - 2, bx - ax + 4, by - ay + 4), width=dp(2.4)))
            add(Color(*theme.ACCENT))
            add(Line(rectangle=(ax - 2, ay - 2, bx - ax + 4, by - ay + 4), width=dp(1.6)))

    def _draw_tags(self, add) -> None:
        """Each ringed place's letter, over everything, at the ring's top right corner."""
        for letter, (x0, y0, x1, y1) in self.tags:
            bx, by = self.to_px(x1, y1)
            tex = self._label(letter, sp(theme.BOARD_MIN))
            w, h = tex.width + dp(6), tex.height
            # Above the place's top right corner, kept on the widget.
            x = min(max(bx + 2, self.x), self.right - w)
            y = min(max(by + 2, self.y), self.top - h)
            add(Color(*theme.ACCENT))
            add(Rectangle(pos=(x, y), size=(w, h)))
            add(Color(0, 0, 0, 1))
            add(Rectangle(texture=tex, pos=(x + dp(3), y), size=tex.size))

    def _known_rect(self, cell):
        """A cell's rectangle in pixels, or None for a cell this board does not have (a
        figure or mark left from another board is not drawn; it never stops the app)."""
        try:
            return self.cell_rect(tuple(cell) if isinstance(cell, list) else cell)
        except (KeyError, ValueError, TypeError, IndexError):
            log.debug("pitch: no cell %r on this board", cell)
            return None

    def _positions(self) -> list[tuple[object, float, float]]:
        """Where each figure is drawn: at its point, or its cell's centre, side by side when a
        cell holds several (Football Leader's spaces hold up to four counters)."""
        by_cell: dict[object, list] = defaultdict(list)
        out = []
        for f in self.figures:
            if f.at is not None:
                out.append((f, *self.to_px(*f.at)))
            else:
                by_cell[f.cell].append(f)
        r = self._radius()
        for cell, group in by_cell.items():
            rect = self._known_rect(cell)
            if rect is None:
                continue
            _x, _y, cw, ch = rect
            cx, cy = self.cell_centre(cell)
            if len(group) == 1:
                out.append((group[0], cx, cy))
                continue
            step = min(2.1 * r, cw / len(group)) if cw >= ch else 0
            vstep = 0 if step else min(2.1 * r, ch / len(group))
            for i, f in enumerate(sorted(group, key=lambda f: (f.ref.team.value, f.ref.number))):
                off = i - (len(group) - 1) / 2
                out.append((f, cx + off * step, cy + off * vstep))
        return out

    def _redraw_sprites(self, *_args) -> None:
        """The figures and the ball: each figure's sprite moved, or made when its look
        changed; the layer lists them in drawing order (every disc, then every number over
        them: a neighbour's disc never hides a number)."""
        layer = self._figure_layer
        layer.clear()
        self._spots = []
        self.ball_px = None
        if not self._drawable():
            self._sprites.clear()
            return
        radius = self._radius()
        carrier = self.ball.carrier
        sprites: dict[PlayerRef, Sprite] = {}
        for f, cx, cy in self._positions():
            self._spots.append((f.ref, cx, cy, f.cell))
            kit = self.kits.get(f.ref.team) or DEFAULT_KITS[f.ref.team]
            look = (f.dim, f.crossed, f.goalkeeper, f.manual, f.badge, f.ref == self.selected,
                    f.ref == carrier, kit, radius, theme.BALL_MIN_DP)
            sprite = self._sprites.get(f.ref)
            if sprite is None or sprite.look != look:
                sprite = self._make_sprite(f, look, kit, radius, f.ref == carrier)
            sprite.move(cx, cy)
            sprites[f.ref] = sprite
            if f.ref == carrier:
                self.ball_px = 2 * self._carried_ball(radius)[1]
        self._sprites = sprites
        for sprite in sprites.values():
            layer.add(sprite.base)
        if carrier is None:   # a loose ball over the discs, under the numbers (one it lies on stays read)
            spot = None
            if self.ball.at is not None:
                spot = self.to_px(*self.ball.at)
            elif self.ball.cell is not None:
                spot = self.cell_centre(self.ball.cell) if self._known_rect(self.ball.cell) is not None else None
            if spot is not None:
                self._draw_ball(layer.add, spot[0], spot[1], radius * 0.55)
        for sprite in sprites.values():
            layer.add(sprite.top)

    def _carried_ball(self, radius: float) -> tuple[float, float]:
        """The carried ball's offset from the figure's centre and its radius: at the figure's
        shoulder, clear of its number, never under theme.BALL_MIN_DP wide."""
        half = self._label("88", radius * 1.1).width / 2
        ball_r = max(radius * 0.45, dp(theme.BALL_MIN_DP) / 2)
        return max(radius * 0.8, half + ball_r * 0.75), ball_r

    def _make_sprite(self, f, look, kit, radius: float, carries: bool) -> Sprite:
        """A figure drawn about (0, 0) into its sprite: the disc and its rings below, the
        number, a card and the carried ball above."""
        self.sprites_made += 1
        sprite = Sprite(look)
        add = sprite.add
        colour = kit.shirt
        if look[5]:   # selected
            add(Color(1, 1, 0.2, 1))
            add(Ellipse(pos=(-radius - 3, -radius - 3), size=(2 * radius + 6, 2 * radius + 6), segments=SEGMENTS))
        shade = 0.55 if f.dim else 1.0
        # The side's trim (or its number colour) round every figure: a dark shirt shows on
        # the green, and two similar shirts differ by their rings. The ring is a disc under
        # the shirt's (a wide Line costs a renderer many times more).
        add(Color(*kit.ring[:3], 1))
        add(Ellipse(pos=(-radius - 1.3, -radius - 1.3), size=(2 * radius + 2.6, 2 * radius + 2.6), segments=SEGMENTS))
        add(Color(colour[0] * shade, colour[1] * shade, colour[2] * shade, 1))
        add(Ellipse(pos=(-radius + 0.7, -radius + 0.7), size=(2 * radius - 1.4, 2 * radius - 1.4), segments=SEGMENTS))
        if f.crossed:
            add(Color(0, 0, 0, 0.6))
            add(Line(circle=(0, 0, radius - 1), width=2))
        if f.goalkeeper:
            add(Color(1, 1, 1, 1))
            add(Line(circle=(0, 0, radius + 2.5), width=1.4))
        if f.manual:
            add(Color(1, 0.6, 0, 1))
            add(Line(circle=(0, 0, radius + 5), width=1.5, dash_length=3, dash_offset=3))
        top = sprite.add_top
        tex = self._label(str(f.ref.number), radius * 1.1)
        top(Color(*kit.text))
        top(Rectangle(texture=tex, pos=(-tex.width / 2, -tex.height / 2), size=tex.size))
        # A card and the carried ball at the figure's shoulders, clear of its number.
        half = self._label("88", radius * 1.1).width / 2
        reach = radius + 8
        if f.badge:
            badge_w = self._label(f.badge, radius * 0.8).width + 4
            bx = max(radius * 0.75, half + badge_w / 2 - 2)
            self._draw_badge(top, f.badge, bx, radius * 0.75, radius)
            reach = max(reach, bx + badge_w / 2 + 2, radius * 0.75 + self._label(f.badge, radius * 0.8).height / 2 + 2)
        if carries:
            off, ball_r = self._carried_ball(radius)
            self._draw_ball(top, off, -off, ball_r)
            reach = max(reach, off + ball_r + 3)
        # Room for the widest mark: a manual ring, a card at the shoulder, the carried ball.
        sprite.close(int(reach) + 3)
        return sprite

    def _draw_badge(self, add, text: str, x: float, y: float, radius: float) -> None:
        """A card-coloured tag: yellow for Y, red when the text has an R."""
        tex = self._label(text, radius * 0.8)
        w, h = tex.width + 4, tex.height
        add(Color(0.9, 0.1, 0.1, 1) if "R" in text else Color(1, 0.85, 0.1, 1))
        add(Rectangle(pos=(x - w / 2, y - h / 2), size=(w, h)))
        add(Color(0, 0, 0, 1))
        add(Rectangle(texture=tex, pos=(x - tex.width / 2, y - h / 2), size=tex.size))

    def _draw_ball(self, add, x: float, y: float, r: float) -> None:
        """White with a black ring and a black patch: at least theme.BALL_MIN_DP wide, so it
        is seen from a chair, on grass or on a shirt."""
        r = max(r, dp(theme.BALL_MIN_DP) / 2)
        self.ball_px = 2 * r
        add(Color(0, 0, 0, 1))
        add(Ellipse(pos=(x - r - 1.5, y - r - 1.5), size=(2 * r + 3, 2 * r + 3)))
        add(Color(1, 1, 1, 1))
        add(Ellipse(pos=(x - r, y - r), size=(2 * r, 2 * r)))
        add(Color(0, 0, 0, 1))
        p = r * 0.38
        add(Ellipse(pos=(x - p, y - p), size=(2 * p, 2 * p)))


class Sprite:
    """One figure, drawn once about (0, 0) into two small textures of its own (``base``: the
    disc and its rings; ``top``: the number, a card, the carried ball), each shown as one
    rectangle: moving the figure moves those rectangles, nothing is drawn again (a frame then
    costs a figure two textured squares). ``look`` is what it was drawn from (a new look
    makes a new sprite)."""

    __slots__ = ("look", "base", "top", "_draw", "_draw_top", "_rects", "_half", "_fbos", "_where")

    def __init__(self, look: tuple) -> None:
        self.look = look
        self._draw = InstructionGroup()
        self._draw_top = InstructionGroup()
        self.base = InstructionGroup()
        self.top = InstructionGroup()
        self._rects: list[Rectangle] = []
        self._fbos: list[Fbo] = []
        self._half = 0
        self._where = (0.0, 0.0)

    def add(self, instruction) -> None:
        self._draw.add(instruction)

    def add_top(self, instruction) -> None:
        self._draw_top.add(instruction)

    def close(self, half: int) -> None:
        """Draw what was added, within ``half`` px of (0, 0) every way, into the textures."""
        self._half = half
        for drawing, shown in ((self._draw, self.base), (self._draw_top, self.top)):
            fbo = Fbo(size=(2 * half, 2 * half), with_stencilbuffer=True)
            with fbo:
                Translate(half, half)
            fbo.add(drawing)
            fbo.bind()
            fbo.clear_buffer()
            fbo.release()
            fbo.draw()
            self._fbos.append(fbo)
            rect = Rectangle(texture=fbo.texture, pos=(-half, -half), size=(2 * half, 2 * half))
            self._rects.append(rect)
            shown.add(Color(1, 1, 1, 1))
            shown.add(rect)

    def move(self, x: float, y: float) -> None:
        if (x, y) != self._where:
            self._where = (x, y)
            pos = (round(x) - self._half, round(y) - self._half)
            for rect in self._rects:
                rect.pos = pos
