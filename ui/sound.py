"""The time-up call: a short two-tone chime, written here as a WAV file on first use (no
sound file ships), played through Kivy's audio. A tablet without sound still shows time up
on screen; a sound that cannot play is logged, never raised."""

from __future__ import annotations

import io
import logging
import math
import struct
import wave
from pathlib import Path

log = logging.getLogger(__name__)

RATE = 22050
TONES = ((880.0, 0.22), (0.0, 0.06), (660.0, 0.22), (0.0, 0.06), (880.0, 0.35))   # Hz, seconds
_sounds: dict[str, object] = {}


def chime_wav() -> bytes:
    """16-bit mono PCM: the tones above, each faded in and out (no clicks)."""
    frames = bytearray()
    for freq, seconds in TONES:
        n = int(RATE * seconds)
        fade = max(1, int(RATE * 0.015))
        for i in range(n):
            envelope = min(1.0, i / fade, (n - 1 - i) / fade)
            value = 0.45 * envelope * math.sin(2 * math.pi * freq * i / RATE) if freq else 0.0
            frames += struct.pack("<h", int(value * 32767))
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(bytes(frames))
    return out.getvalue()


def chime_file(folder: Path) -> Path:
    path = Path(folder) / "sounds" / "time_up.wav"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(chime_wav())
    return path


def play_time_up(folder: Path) -> bool:
    """Play the chime; False when this tablet cannot (no audio device, a read-only folder)."""
    try:
        path = str(chime_file(folder))
        sound = _sounds.get(path)
        if sound is None:
            from kivy.core.audio import SoundLoader
            sound = _sounds[path] = SoundLoader.load(path)
        if sound is None:
            log.info("time up: no audio output to play %s", path)
            return False
        sound.stop()
        sound.play()
        return True
    except Exception as exc:  # sound is a courtesy: the screen says time up anyway
        log.info("time up: cannot play the sound (%s)", exc)
        return False
