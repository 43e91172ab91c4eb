"""Which numba kernels a piece of work compiles, and what each one cost.

numba compiles a kernel the first time it is called with new argument types
(or loads it from its on-disk cache), and compiling a kernel first compiles
every kernel it calls that is not compiled yet. :class:`CompileLog` listens to
numba's compile events and records each compile with its processor time,
*without* the time of the kernels compiled inside it, so that the figures add
up and show where a first start's seconds go:
``python -m engine.warmup --kernels --opening 7x6x4 expert`` in an empty cache.
Only the thread that started the log is recorded.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from numba.core import event


@dataclass(frozen=True)
class Compiled:
    """One kernel compiled for one signature, and the processor seconds it took on its own."""

    name: str  # module and qualified name, e.g. engine.kernels.mcts.search
    signature: str  # the argument types
    seconds: float


@dataclass
class CompileLog:
    """The kernels compiled while :meth:`recording`, in the order they finished."""

    compiled: list[Compiled] = field(default_factory=list)

    @contextmanager
    def recording(self) -> Iterator[CompileLog]:
        listener = _Listener(self.compiled, threading.get_ident())
        event.register("numba:compile", listener)
        try:
            yield self
        finally:
            event.unregister("numba:compile", listener)

    @property
    def seconds(self) -> float:
        return sum(item.seconds for item in self.compiled)

    def names(self) -> list[str]:
        return [item.name for item in self.compiled]

    def table(self) -> str:
        """One line per compile, the costliest first, and the total."""
        lines = [
            f"{item.seconds:7.2f} s  {item.name}{item.signature}"
            for item in sorted(self.compiled, key=lambda item: -item.seconds)
        ]
        lines.append(f"{self.seconds:7.2f} s  in all, {len(self.compiled)} compiles")
        return "\n".join(lines)


class _Listener(event.Listener):
    """numba's event listener: a stack of the compiles under way, each with the time of its inner ones."""

    def __init__(self, out: list[Compiled], thread: int) -> None:
        self._out = out
        self._thread = thread
        self._stack: list[tuple[float, float]] = []  # (start, seconds spent in inner compiles)

    def on_start(self, event: Any) -> None:
        if threading.get_ident() == self._thread:
            self._stack.append((time.thread_time(), 0.0))

    def on_end(self, event: Any) -> None:
        if threading.get_ident() != self._thread:
            return
        started, inner = self._stack.pop()
        total = time.thread_time() - started
        if self._stack:
            outer_start, outer_inner = self._stack[-1]
            self._stack[-1] = (outer_start, outer_inner + total)
        function = event.data["dispatcher"].py_func
        signature = ", ".join(str(arg) for arg in event.data["args"])
        self._out.append(Compiled(f"{function.__module__}.{function.__qualname__}", f"({signature})", total - inner))
