"""The game's sounds, synthesised with numpy when first needed: no sound files, no licences.

Five events make a sound: a disc is dropped, a disc lands (the higher it
lands, the higher the note: a full column sounds different from an empty
one), a game is won, a game is drawn, and a move is refused. The audio device
is opened once, after the first frame has been shown; a machine without one
(or a failing driver) leaves the game silent, never slower and never with an
error. Only the main thread calls this module, like the rest of pygame.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pygame

RATE = 44100  # samples per second asked of the device (it may choose another)
LOWEST_LAND = 196.0  # Hz: the note of a disc landing on the bottom row (G3)
LAND_STEP = 2 / 12  # octaves between two rows (a whole tone)
BUFFER = 1024  # samples per mixing round: 23 ms of latency, few wake-ups
EVENTS = ("drop", "land", "win", "draw", "illegal")


class Sounds:
    """Plays the game's sounds at the player's volume; silent until :meth:`start` found a device."""

    def __init__(self, volume: int = 70, muted: bool = False) -> None:
        self.volume = volume
        self.muted = muted
        self.available = False
        self.started = False
        self.played: deque[str] = deque(maxlen=32)  # the last sounds asked for (played or not)
        self._rate = RATE
        self._channels = 1
        self._cache: dict[tuple[str, int], pygame.mixer.Sound] = {}

    def start(self) -> None:
        """Open the audio device; without one the game simply stays silent."""
        if self.started:
            return
        self.started = True
        try:
            with _quiet_stderr():  # ALSA prints its own complaints when there is no sound card
                pygame.mixer.init(frequency=RATE, size=-16, channels=2, buffer=BUFFER)
            rate, size, channels = pygame.mixer.get_init()
        except (pygame.error, TypeError, OSError):  # no device, no driver, or get_init() gave None
            return
        if size != -16:
            pygame.mixer.quit()  # a format this module does not write: stay silent
            return
        self._rate, self._channels, self.available = rate, channels, True
        _calm_audio_thread()

    def stop(self) -> None:
        if self.available:
            pygame.mixer.quit()
        self.available = False

    def set_volume(self, percent: int) -> None:
        self.volume = min(100, max(10, percent))

    def play(self, event: str, level: int = 0) -> None:
        """Play ``event`` (one of :data:`EVENTS`); ``level`` is the row a disc landed on (0: bottom)."""
        self.played.append(event if event != "land" else f"land:{level}")
        if self.muted or not self.available:
            return
        key = (event, level if event == "land" else 0)
        sound = self._cache.get(key)
        if sound is None:
            samples = synthesise(event, level, self._rate)
            stereo = np.repeat(samples[:, None], self._channels, axis=1)  # the same wave on every channel
            sound = pygame.mixer.Sound(buffer=np.ascontiguousarray(stereo).tobytes())
            self._cache[key] = sound
        sound.set_volume(min(100, max(10, self.volume)) / 100)
        sound.play()


# -- synthesis ---------------------------------------------------------------------------------
def synthesise(event: str, level: int, rate: int) -> np.ndarray:
    """The sound of ``event`` as 16-bit mono samples."""
    if event == "drop":  # a short airy swish: a falling glide
        wave = glide(880.0, 520.0, 0.07, rate) * envelope(0.07, rate, attack=0.005, decay=0.05) * 0.25
    elif event == "land":  # a wooden knock, higher for a higher row
        wave = knock(LOWEST_LAND * 2 ** (level * LAND_STEP), rate)
    elif event == "win":  # a rising major arpeggio, the last note held
        notes = [(523.25, 0.09), (659.25, 0.09), (783.99, 0.09), (1046.5, 0.45)]
        wave = np.concatenate([bell(freq, seconds, rate) for freq, seconds in notes])
    elif event == "draw":  # two even notes, neither up nor down in mood
        wave = np.concatenate([bell(392.0, 0.16, rate), bell(392.0, 0.3, rate)]) * 0.8
    elif event == "illegal":  # a low, short buzz
        t = times(0.16, rate)
        wave = (np.sign(np.sin(2 * np.pi * 110.0 * t)) * 0.18 + np.sin(2 * np.pi * 220 * t) * 0.2) * envelope(
            0.16, rate, attack=0.005, decay=0.1
        )
    else:
        raise ValueError(f"no sound for {event!r}")
    return (np.clip(wave, -1.0, 1.0) * 32767 * 0.8).astype(np.int16)


def times(seconds: float, rate: int) -> np.ndarray:
    return np.arange(round(seconds * rate)) / rate


def envelope(seconds: float, rate: int, *, attack: float, decay: float) -> np.ndarray:
    """A linear rise over ``attack`` seconds, then an exponential fall with time constant ``decay``."""
    t = times(seconds, rate)
    rise = np.minimum(1.0, t / attack)
    fall = np.exp(-np.maximum(0.0, t - attack) / decay)
    tail = np.minimum(1.0, (seconds - t) / 0.005)  # end at zero: no click
    return rise * fall * tail


def glide(start: float, end: float, seconds: float, rate: int) -> np.ndarray:
    """A sine whose pitch slides from ``start`` to ``end`` Hz."""
    t = times(seconds, rate)
    frequency = start + (end - start) * t / seconds
    return np.sin(2 * np.pi * np.cumsum(frequency) / rate)


def knock(frequency: float, rate: int) -> np.ndarray:
    """A percussive note: a fundamental and an inharmonic overtone that dies away faster."""
    t = times(0.18, rate)
    body = np.sin(2 * np.pi * frequency * t) * np.exp(-t / 0.05)
    click = np.sin(2 * np.pi * frequency * 2.76 * t) * np.exp(-t / 0.012) * 0.5
    return (body + click) * 0.7 * np.minimum(1.0, t / 0.002)


def bell(frequency: float, seconds: float, rate: int) -> np.ndarray:
    """A soft note with a little brightness (a second and third harmonic)."""
    t = times(seconds, rate)
    wave = np.sin(2 * np.pi * frequency * t) + 0.3 * np.sin(4 * np.pi * frequency * t)
    wave += 0.12 * np.sin(6 * np.pi * frequency * t)
    return wave * 0.45 * envelope(seconds, rate, attack=0.008, decay=max(0.06, seconds * 0.6))


def _calm_audio_thread() -> None:
    """Give SDL's mixing thread the normal priority back (Linux, when SDL could raise it).

    SDL asks for the highest priority (nice -20) for its audio thread, and gets it
    when the game runs with the rights to: on a busy two-core machine that thread
    then held up the frame loop (99th percentile of frame times 90-170 ms against
    40-50 ms without it). A few short sounds need no such priority.
    """
    tasks = Path("/proc/self/task")
    if not sys.platform.startswith("linux") or not tasks.is_dir():
        return
    for task in tasks.iterdir():
        with contextlib.suppress(OSError, ValueError):
            if (task / "comm").read_text().startswith("SDLAudio") and os.getpriority(
                os.PRIO_PROCESS, int(task.name)
            ) < 0:
                os.setpriority(os.PRIO_PROCESS, int(task.name), 0)


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Send what C libraries write to standard error to the null device for a moment."""
    try:
        saved = os.dup(2)
    except OSError:  # no standard error at all (a windowed program on Windows)
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
