"""The game's sounds as waveforms, synthesised with numpy: no sound files, so no licences to credit.

Each sound is a few lines of arithmetic on a time axis: sine tones, a
falling glide, a percussive knock, with envelopes that rise quickly and die
away (and end at zero, so that nothing clicks).
"""

from __future__ import annotations

import numpy as np

EVENTS = ("drop", "land", "win", "draw", "illegal")
LOWEST_LAND = 196.0  # Hz: the note of a disc landing on the bottom row (G3)
LAND_STEP = 2 / 12  # octaves between two rows (a whole tone)


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
