"""The time-up chime: a short WAV written here (no sound file ships), mutable in Settings."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import wave
from pathlib import Path

from ui.sound import RATE, TONES, chime_file, chime_wav

ROOT = Path(__file__).resolve().parent.parent


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


def test_a_linux_desktop_without_a_card_or_a_sound_server_has_no_output(tmp_path, monkeypatch):
    import ui.launch
    from ui.sound import audio_output

    monkeypatch.setattr(ui.launch, "platform", lambda: "linux")
    none = tmp_path / "none"
    none.write_text("--- no soundcards ---\n")
    card = tmp_path / "card"
    card.write_text(" 0 [PCH            ]: HDA-Intel - HDA Intel PCH\n")
    runtime = tmp_path / "run"
    (runtime / "pulse").mkdir(parents=True)
    assert audio_output(none, env={}) is False
    assert audio_output(tmp_path / "missing", env={"XDG_RUNTIME_DIR": str(runtime)}) is False
    assert audio_output(card, env={}) is True
    assert audio_output(none, env={"PULSE_SERVER": "tcp:host"}) is True
    (runtime / "pulse" / "native").write_text("")
    assert audio_output(none, env={"XDG_RUNTIME_DIR": str(runtime)}) is True
    monkeypatch.setattr(ui.launch, "platform", lambda: "android")
    assert audio_output(none, env={}) is True


# The chime played in a child process (Kivy's audio opens once a process), with the sound
# output found or not: either way nothing from ALSA's C library reaches the console.
CHIME = """
import sys
from ui.app import prepare_environment
prepare_environment(headless=True)
import ui.sound
ui.sound.audio_output = lambda *args, **kwargs: {found}
played = ui.sound.play_time_up(sys.argv[1])
print("played" if played else "silent", "audio loaded" if "kivy.core.audio" in sys.modules else "no audio")
"""


def chime_in_a_child(tmp_path, found: bool):
    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), KIVY_NO_ARGS="1")
    return subprocess.run([sys.executable, "-c", CHIME.format(found=found), str(tmp_path)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def test_no_sound_output_plays_nothing_and_says_nothing(tmp_path):
    proc = chime_in_a_child(tmp_path, found=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["silent", "no", "audio"]
    assert "ALSA" not in proc.stderr and proc.stderr.strip() == ""


def test_opening_the_sound_keeps_alsa_off_the_console(tmp_path):
    # On a machine without a sound card this is where ALSA would print its eight lines.
    proc = chime_in_a_child(tmp_path, found=True)
    assert proc.returncode == 0, proc.stderr
    assert "ALSA lib" not in proc.stderr, proc.stderr
