"""Sounds: what the match plays and when, the mute key, and silence without an audio device."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import numpy as np
import pygame
import pytest

from engine.geometry import Geometry
from game import synth
from game.sound import Sounds
from tests.game.test_match import config, open_match

#: A 4x4 connect-4 game that fills the board without a line.
DRAWN_4X4 = "1113233214423442"


def dominant_frequency(samples: np.ndarray, rate: int) -> float:
    spectrum = np.abs(np.fft.rfft(samples.astype(float)))
    return float(np.fft.rfftfreq(len(samples), 1 / rate)[np.argmax(spectrum)])


@pytest.mark.parametrize("event", synth.EVENTS)
def test_every_event_has_a_short_audible_sound(event):
    samples = synth.synthesise(event, 0, 44100)
    assert samples.dtype == np.int16
    assert 0.05 < len(samples) / 44100 < 1.0  # short enough not to get in the way
    assert np.abs(samples).max() > 3000
    assert abs(int(samples[-1])) < 500  # fades out: no click at the end


def test_a_disc_landing_higher_sounds_higher():
    pitches = [dominant_frequency(synth.synthesise("land", row, 44100), 44100) for row in range(9)]
    assert pitches == sorted(pitches) and pitches[-1] > 2 * pitches[0]


def test_the_match_plays_drop_land_illegal_and_win(start):
    driver = start()
    sounds = driver.app.sounds
    assert not sounds.started  # the device is opened after the first frame, not before
    match = open_match(driver, config(None, None, Geometry(4, 4, 3)))
    assert sounds.available  # the dummy driver counts as a device
    driver.click_column(0)
    assert list(sounds.played)[-1] == "drop"
    driver.settle()
    assert list(sounds.played)[-1] == "land:0"
    driver.click_column(0)
    driver.settle()
    assert list(sounds.played)[-2:] == ["drop", "land:1"]
    driver.click_column(0)
    driver.click_column(0)
    driver.settle()
    driver.click_column(0)  # the column is full
    assert list(sounds.played)[-1] == "illegal" and match.turns.model.moves_played == 4
    for column in (1, 2, 1, 2, 1):  # red stacks three in column 2
        driver.click_column(column)
    driver.settle()
    driver.step()
    assert match.turns.model.winner is not None
    assert list(sounds.played)[-1] == "win"


def test_a_drawn_game_sounds_like_a_draw(start):
    driver = start()
    match = open_match(driver, config(None, None, Geometry(4, 4, 4)))
    for move in DRAWN_4X4:
        driver.click_column(int(move) - 1)
    driver.settle()
    driver.step()
    assert match.turns.model.board.is_draw
    assert list(driver.app.sounds.played)[-1] == "draw"


def test_m_mutes_and_the_choice_is_remembered(start, settings_file):
    driver = start()
    driver.step()
    driver.key(pygame.K_m, unicode="m")
    assert driver.app.sounds.muted and driver.app.settings.muted
    assert json.loads(settings_file.read_text(encoding="utf-8"))["muted"] is True
    assert any("Sound off" in message for message in driver.app.messages)
    driver.app.sounds.play("win")
    assert not pygame.mixer.get_busy()  # muted: nothing plays
    driver.key(pygame.K_m, unicode="m")
    driver.app.sounds.play("win")
    assert pygame.mixer.get_busy()
    driver.key(pygame.K_m, unicode="m")
    driver.app.close()
    again = start(muted=True)
    assert again.app.sounds.muted


def test_no_audio_device_means_silence_not_an_error(monkeypatch):
    pygame.mixer.quit()
    monkeypatch.setenv("SDL_AUDIODRIVER", "no-such-driver")
    sounds = Sounds()
    sounds.start()
    assert not sounds.available
    for event in synth.EVENTS:
        sounds.play(event, 3)  # nothing happens, nothing fails
    assert list(sounds.played)[-1] == "illegal"
    sounds.stop()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="thread priorities are read from /proc")
def test_the_mixing_thread_does_not_keep_a_raised_priority():
    pygame.mixer.quit()
    sounds = Sounds()
    sounds.start()
    assert sounds.available
    threads = [task for task in Path("/proc/self/task").iterdir() if (task / "comm").read_text().startswith("SDLAudio")]
    assert threads  # SDL's audio thread, which it asks to run at nice -20
    assert all(os.getpriority(os.PRIO_PROCESS, int(task.name)) >= 0 for task in threads)
    sounds.stop()
