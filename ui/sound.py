"""The time-up call: a short two-tone chime, written here as a WAV file on first use (no
sound file ships), played through Kivy's audio. A tablet without sound still shows time up
on screen; a sound that cannot play is logged, never raised.

The console stays quiet on a machine without sound: a Linux desktop with no sound card and
no sound server is not asked to open one (SDL's audio would try ALSA, whose C library writes
its configuration errors straight to stderr), and ALSA's messages go to a handler that drops
them whenever a sound is opened."""

from __future__ import annotations

import ctypes
import ctypes.util
import io
import logging
import math
import os
import struct
import sys
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


def audio_output(cards: Path = Path("/proc/asound/cards"), env: dict | None = None) -> bool:
    """Whether there is a sound output to open. On a Linux desktop: a sound card that ALSA
    lists, or a PulseAudio or PipeWire server; Android, Windows and macOS always have one."""
    from .launch import platform

    if platform() != "linux":
        return True
    env = os.environ if env is None else env
    try:
        listed = cards.read_text(encoding="utf-8", errors="replace")
    except OSError:
        listed = ""
    if listed.strip() and "no soundcards" not in listed:
        return True
    if env.get("PULSE_SERVER"):
        return True
    runtime = env.get("XDG_RUNTIME_DIR")
    return bool(runtime) and any((Path(runtime) / name).exists() for name in ("pulse/native", "pipewire-0"))


_alsa_handler = None   # kept alive: ALSA calls it from C for as long as the process runs


def quiet_alsa() -> bool:
    """ALSA's library prints its errors ("ALSA lib conf.c:5180: ...") on stderr from C, where
    Python's logging cannot reach them: give it an error handler that drops them. True when
    the handler is in place (a Linux machine with libasound)."""
    global _alsa_handler
    if _alsa_handler is not None:
        return True
    if not sys.platform.startswith("linux"):
        return False
    name = ctypes.util.find_library("asound")
    if not name:
        return False
    try:
        lib = ctypes.CDLL(name)   # the library SDL opens too: one copy in the process, one handler
    except OSError:
        return False
    handler_type = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                                    ctypes.c_char_p)
    handler = handler_type(lambda *_args: None)
    lib.snd_lib_error_set_handler(handler)
    _alsa_handler = handler
    return True


def play_time_up(folder: Path) -> bool:
    """Play the chime; False when this tablet cannot (no audio device, a read-only folder)."""
    try:
        path = str(chime_file(folder))
        sound = _sounds.get(path)
        if sound is None:
            if not audio_output():
                log.info("time up: no sound card or sound server here; time up is on screen only")
                _sounds[path] = False
                return False
            quiet_alsa()
            from kivy.core.audio import SoundLoader
            sound = _sounds[path] = SoundLoader.load(path)
        if sound is False:
            return False
        if sound is None:
            log.info("time up: no audio output to play %s", path)
            return False
        sound.stop()
        sound.play()
        return True
    except Exception as exc:  # sound is a courtesy: the screen says time up anyway
        log.info("time up: cannot play the sound (%s)", exc)
        return False
