"""What is printed and where it sits: marker ids and sizes (:class:`MarkerSet`) and which figure
each marker belongs to (:class:`MarkerMap`, read from a small JSON file)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from calibration.layout import CornerLayout
from companion.teams import PlayerRef, Team

from .errors import VisionError

DEFAULT_CAP_HEIGHT_MM = 35.0


@dataclass(frozen=True, slots=True)
class MarkerSet:
    """The printed markers. Figure caps: ``figure_marker_mm`` markers on ``cap_mm`` white caps
    ``cap_height_mm`` above the board; the ball token: ``ball_marker_mm`` on ``ball_token_mm``,
    ``ball_height_mm`` thick; the corner markers: ``corners``. ``dictionary`` names an OpenCV
    ArUco dictionary."""

    figure_ids: tuple[int, ...] = tuple(range(32))
    ball_id: int = 32
    corners: CornerLayout = CornerLayout()
    figure_marker_mm: float = 17.0
    cap_mm: float = 20.0
    cap_height_mm: float = DEFAULT_CAP_HEIGHT_MM
    ball_marker_mm: float = 17.0
    ball_token_mm: float = 20.0
    ball_height_mm: float = 2.0
    dictionary: str = "DICT_4X4_50"

    def __post_init__(self) -> None:
        ids = list(self.figure_ids) + [self.ball_id] + list(self.corners.ids)
        if len(ids) != len(set(ids)):
            raise ValueError("figure, ball and corner markers need different ids")
        if min(ids) < 0 or max(ids) >= 50 and self.dictionary.endswith("_50"):
            raise ValueError(f"{self.dictionary} has ids 0..49 only")
        if not (0 < self.figure_marker_mm < self.cap_mm and 0 < self.ball_marker_mm < self.ball_token_mm):
            raise ValueError("a marker must be smaller than the cap or token it is printed on")
        if self.cap_height_mm < 0 or self.ball_height_mm < 0:
            raise ValueError("marker heights are millimetres above the board, not negative")

    def with_marker_sizes(self, figure_mm: float | None = None, ball_mm: float | None = None) -> "MarkerSet":
        """These markers printed at other sides (mm; None keeps one): the cap or token around
        each keeps this sheet's proportions (its white margin scales with the marker)."""
        from dataclasses import replace

        kw: dict = {}
        if figure_mm is not None:
            kw.update(figure_marker_mm=figure_mm, cap_mm=figure_mm * self.cap_mm / self.figure_marker_mm)
        if ball_mm is not None:
            kw.update(ball_marker_mm=ball_mm, ball_token_mm=ball_mm * self.ball_token_mm / self.ball_marker_mm)
        return replace(self, **kw) if kw else self

    def height_of(self, marker: int) -> float:
        if marker == self.ball_id:
            return self.ball_height_mm
        if marker in self.corners.ids:
            return 0.0
        return self.cap_height_mm

    def side_of(self, marker: int) -> float:
        if marker == self.ball_id:
            return self.ball_marker_mm
        if marker in self.corners.ids:
            return self.corners.side_mm
        return self.figure_marker_mm

    def kind_of(self, marker: int) -> str:
        """"figure", "ball", "corner" or "unknown"."""
        if marker == self.ball_id:
            return "ball"
        if marker in self.corners.ids:
            return "corner"
        return "figure" if marker in self.figure_ids else "unknown"


@dataclass(frozen=True, slots=True)
class MapEntry:
    """A figure marker's owner and how its printed top edge relates to the way the figure faces
    (``facing_offset_deg`` is added to the top edge's direction)."""

    player: PlayerRef
    facing_offset_deg: float = 0.0


@dataclass(frozen=True, slots=True)
class MarkerMap:
    """Marker id -> figure. A figure marker missing here is a conflict, never a figure."""

    entries: dict[int, MapEntry] = field(default_factory=dict)
    source: str = "default"

    def __post_init__(self) -> None:
        players = [e.player for e in self.entries.values()]
        if len(players) != len(set(players)):
            dup = next(p for p in players if players.count(p) > 1)
            raise VisionError(f"{self.source}: two markers belong to {dup}: each figure carries one marker")

    def __repr__(self) -> str:
        return f"MarkerMap(<{len(self.entries)} figures>, source={self.source!r})"

    def get(self, marker: int) -> MapEntry | None:
        return self.entries.get(marker)

    def to_json(self) -> dict:
        return {"markers": {str(m): ({"player": str(e.player), "facing_offset_deg": e.facing_offset_deg}
                                     if e.facing_offset_deg else str(e.player))
                            for m, e in sorted(self.entries.items())}}

    @classmethod
    def default(cls, markers: MarkerSet = MarkerSet()) -> "MarkerMap":
        """The first half of the figure ids are home's jerseys 1, 2, ..., the second half away's."""
        ids = sorted(markers.figure_ids)
        half = len(ids) // 2
        entries = {m: MapEntry(PlayerRef(Team.HOME if i < half else Team.AWAY, i % half + 1))
                   for i, m in enumerate(ids)}
        return cls(entries, "default")

    @classmethod
    def from_json(cls, obj: object, source: str) -> "MarkerMap":
        """``{"facing_offset_deg": 0, "markers": {"0": "home#1", "5": {"player": "home#6",
        "facing_offset_deg": 90}, ...}}``; the top-level offset applies to every entry without its own."""
        if not isinstance(obj, dict) or not isinstance(obj.get("markers"), dict):
            raise VisionError(f"{source}: a marker map is an object with \"markers\": {{\"ID\": \"home#8\", ...}}")
        default_offset = obj.get("facing_offset_deg", 0.0)
        entries: dict[int, MapEntry] = {}
        for key, value in obj["markers"].items():
            try:
                marker = int(key)
                if isinstance(value, dict):
                    entry = MapEntry(PlayerRef.parse(value["player"]),
                                     float(value.get("facing_offset_deg", default_offset)))
                else:
                    entry = MapEntry(PlayerRef.parse(value), float(default_offset))
            except (ValueError, KeyError, TypeError) as exc:
                raise VisionError(f"{source}: marker {key!r}: {exc}; write entries like \"8\": \"home#9\"") from None
            entries[marker] = entry
        return cls(entries, source)

    @classmethod
    def load(cls, path: Path) -> "MarkerMap":
        try:
            obj = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise VisionError(f"{path}: no such marker map; check the path") from None
        except (OSError, ValueError) as exc:
            raise VisionError(f"{path}: cannot be read as JSON ({exc})") from None
        return cls.from_json(obj, str(path))
