"""The game's sounds: played at the player's volume, made by :mod:`game.synth` when first needed.

Five events make a sound (:data:`game.synth.EVENTS`): a disc is dropped, a
disc lands (the higher it lands, the higher the note), a game is won, a game
is drawn, and a move is refused. The audio device
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

import pygame

RATE = 44100  # samples per second asked of the device (it may choose another)
BUFFER = 1024  # samples per mixing round: 23 ms of latency, few wake-ups


class Sounds:
    """Plays the game's sounds at the player's volume; silent until :meth:`start` found a device."""

    def __init__(self, volume: int = 70, muted: bool = False) -> None:
        self.set_volume(volume)
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
            found = pygame.mixer.get_init()
        except (pygame.error, OSError):  # no device, no driver
            return
        if found is None:  # the mixer did not start after all
            return
        rate, size, channels = found
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
        """``percent`` of full loudness; a saved value out of range takes the nearest allowed one."""
        self.volume = min(100, max(10, percent))

    def play(self, event: str, level: int = 0) -> None:
        """Play ``event`` (one of :data:`game.synth.EVENTS`); ``level`` is the row a disc landed on (0: bottom)."""
        self.played.append(event if event != "land" else f"land:{level}")
        if self.muted or not self.available:
            return
        key = (event, level if event == "land" else 0)
        sound = self._cache.get(key)
        if sound is None:
            from game.synth import synthesise  # numpy: loaded by the engine by now, not before the first frame

            samples = synthesise(event, level, self._rate)
            frames = samples.repeat(self._channels)  # interleaved: the same wave on every channel
            sound = pygame.mixer.Sound(buffer=frames.tobytes())
            self._cache[key] = sound
        sound.set_volume(self.volume / 100)
        sound.play()


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
