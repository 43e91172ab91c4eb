"""The screens on top of each other: opened by name, closed with a result, changed between phases of a frame.

The app owns one :class:`ScreenStack`. The top screen gets the input; the
screens under overlays keep drawing. A screen asks for another by its name
in :mod:`game.screens` (:meth:`ScreenStack.open`) and may pass a callback,
which gets what that screen is dismissed with (:meth:`ScreenStack.dismiss`),
once it has closed - as Textual's ``push_screen(screen, callback)`` and
``dismiss(result)``. Changes never happen while the stack is being walked:
they wait for :meth:`ScreenStack.apply`, which the app calls between the
phases of a frame.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from game import screens

if TYPE_CHECKING:
    from game.scene import Host, Scene

Callback = Callable[[Any], object]


class ScreenStack:
    """The screens of the app ``host``, bottom first."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.screens: list[Scene] = []
        self._callbacks: dict[Scene, Callback] = {}
        self._transitions: list[Callable[[], None]] = []

    @property
    def top(self) -> Scene:
        return self.screens[-1]

    def visible(self) -> list[Scene]:
        """The top screen and, under overlays, the screens that still show."""
        start = len(self.screens) - 1
        while start > 0 and self.screens[start].overlay:
            start -= 1
        return self.screens[start:]

    def open(self, name: str, *args: Any, callback: Callback | None = None, **kwargs: Any) -> None:
        """Open the screen called ``name``, made with these arguments after the app; ``callback`` gets what
        it is dismissed with."""
        self._transitions.append(lambda: self._show(screens.make(name, self.host, *args, **kwargs), callback))

    def push(self, scene: Scene, callback: Callback | None = None) -> None:
        """Open a screen already made (a test's or a tool's)."""
        self._transitions.append(lambda: self._show(scene, callback))

    def _show(self, scene: Scene, callback: Callback | None) -> None:
        self.screens.append(scene)
        if callback is not None:
            self._callbacks[scene] = callback
        scene.resize(self.host.screen.get_size())
        scene.enter()

    def dismiss(self, scene: Scene, result: Any = None) -> None:
        """Close ``scene`` if it is on top, then hand ``result`` to its callback (the bottom screen stays)."""

        def apply() -> None:
            if len(self.screens) > 1 and self.screens[-1] is scene:
                self.screens.pop().exit()
                self.screens[-1].resume()
                callback = self._callbacks.pop(scene, None)
                if callback is not None:
                    callback(result)

        self._transitions.append(apply)

    def reset(self, *names: str) -> None:
        """Replace every screen by new screens of these names (the first at the bottom)."""

        def apply() -> None:
            self.close_all()
            for name in names:
                self._show(screens.make(name, self.host), None)

        self._transitions.append(apply)

    def apply(self) -> bool:
        """Make the changes asked for since the last call (a change may ask for more); True if there were any."""
        if not self._transitions:
            return False
        while self._transitions:
            self._transitions.pop(0)()
        return True

    def close_all(self) -> None:
        """Every screen is removed, the top one first (the game quits, or starts again from the menu)."""
        while self.screens:
            self.screens.pop().exit()
        self._callbacks.clear()
