"""The time-up chime: a short WAV written here (no sound file ships), mutable in Settings."""

from __future__ import annotations

import io
import wave

from ui.sound import RATE, TONES, chime_file, chime_wav


def test_the_chime_is_a_short_mono_wav_of_its_tones():
    with wave.open(io.BytesIO(chime_wav())) as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, RATE)
        seconds = w.getnframes() / RATE
    assert abs(seconds - sum(t for _f, t in TONES)) < 0.01 and seconds < 1.5


def test_the_chime_is_written_once_beside_the_data(tmp_path):
    path = chime_file(tmp_path)
    assert path.read_bytes() == chime_wav()
    stamp = path.stat().st_mtime_ns
    assert chime_file(tmp_path) == path and path.stat().st_mtime_ns == stamp
