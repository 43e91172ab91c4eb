"""Between moves: a student's process stopped through its rival's turn, and resumed when it is asked again.

A student may leave threads computing after it answers, or a process its
move did not end, and take the CPU its rival's time limit counts on. So once
an answer is in, the parent stops the student's process (``SIGSTOP``: every
thread of it), waits until each thread has stopped (then no ``fork`` of
theirs is under way) and kills every other process of its sandbox, until
each is dead (a killed process dies when it next gets a core); before the
next question it resumes it (``SIGCONT``), and the move's time limit counts
from there.

Inside the sandbox the student's Python is process 2 of its PID namespace
(``bwrap``'s init is 1; the first process it starts is 2). The parent
reaches it, and the rest, through the sandbox's own ``/proc`` as seen from
outside (``/proc/INIT/root/proc``): a ``/proc/PID`` folder opened there is a
handle that signals that very process (``pidfd_send_signal``), so no process
id of the host is looked up or raced with, and listing it costs a few
entries, not the machine's whole process table. Outside the sandbox (the
fallback, POSIX) the student's process group is stopped and resumed instead.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time

#: How long :meth:`Pause.hold` waits at most for the student's threads to stop, and then for the other
#: processes of its sandbox to be dead (a thread in the kernel stops when it leaves it, a killed process dies
#: when it next runs: on a busy machine either may wait its turn for a core).
STOP_WAIT = 1.0
_DIRECTORY = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)


class Pause:
    """Stops a student's processes between its moves; this base class does nothing (where nothing can)."""

    def hold(self) -> None:
        """The student answered: nothing of it runs until :meth:`release`."""

    def release(self) -> None:
        """The student is asked again: it runs from now."""

    def close(self) -> None:
        """The student's process is ending: let go of what this holds."""


class SandboxPause(Pause):
    """The student's Python (process 2 of its sandbox) stopped, every other process of its sandbox killed."""

    def __init__(self, init: int) -> None:
        """``init``: the host's process id of the sandbox's first process (bwrap reports it)."""
        self._proc = os.open(f"/proc/{init}/root/proc", _DIRECTORY)
        self._student = -1
        try:
            self._student = os.open("2", _DIRECTORY, dir_fd=self._proc)
            if _stat(self._student)[1] != "1":  # started by the sandbox's init: the child script, nothing else
                raise OSError("process 2 of the sandbox is not the student's")
            signal.pidfd_send_signal(self._student, 0)  # the kernel can (Linux 5.1 and later)
        except OSError:
            self.close()
            raise

    def hold(self) -> None:
        if not _signal(self._student, signal.SIGSTOP):
            return  # it ended: the next question finds out
        # A thread stops on its way back from the kernel: once all have, no fork of theirs is under way,
        # and every process they started is there to be found.
        started = time.monotonic()
        waits = 0
        while not _stopped(self._student) and time.monotonic() < started + STOP_WAIT:
            waits += 1
            if waits % 50 == 0:
                self._kill_others()  # a thread waiting for a child of its (vfork) stops once that child is gone
            time.sleep(0.0002)
        deadline = time.monotonic() + STOP_WAIT
        while self._kill_others() and time.monotonic() < deadline:  # until the rest is dead, not only killed
            time.sleep(0.0002)

    def release(self) -> None:
        _signal(self._student, signal.SIGCONT)

    def close(self) -> None:
        for fd in (self._student, self._proc):
            with contextlib.suppress(OSError):
                if fd >= 0:
                    os.close(fd)

    def _kill_others(self) -> bool:
        """Kill every process of the sandbox but its init and the student's; whether any was still alive (one
        killed before that has not died yet is killed again)."""
        found = False
        for entry in os.listdir(self._proc):
            if not entry.isdigit() or entry in ("1", "2"):
                continue
            try:
                fd = os.open(entry, _DIRECTORY, dir_fd=self._proc)
            except OSError:
                continue  # gone meanwhile
            try:
                if _stat(fd)[0] not in ("Z", "X", ""):
                    found = _signal(fd, signal.SIGKILL) or found
            finally:
                os.close(fd)
        return found


class GroupPause(Pause):
    """Outside the sandbox: the student's process group (it leads its own), stopped and resumed."""

    def __init__(self, group: int) -> None:
        self._group = group

    def hold(self) -> None:
        with contextlib.suppress(OSError):
            os.killpg(self._group, signal.SIGSTOP)
        try:
            leader = os.open(f"/proc/{self._group}", _DIRECTORY)  # Linux: wait until it has stopped
        except OSError:
            return
        try:
            deadline = time.monotonic() + STOP_WAIT
            while not _stopped(leader) and time.monotonic() < deadline:
                time.sleep(0.001)
        finally:
            os.close(leader)

    def release(self) -> None:
        with contextlib.suppress(OSError):
            os.killpg(self._group, signal.SIGCONT)


def _signal(process: int, number: int) -> bool:
    """Send signal ``number`` to the process whose ``/proc`` folder ``process`` is open; False if it is gone."""
    try:
        signal.pidfd_send_signal(process, number)
    except ProcessLookupError:
        return False
    return True


def _stopped(process: int) -> bool:
    """Whether every thread of the process whose ``/proc`` folder ``process`` is open has stopped (or it ended)."""
    try:
        tasks = os.open("task", _DIRECTORY, dir_fd=process)
    except OSError:
        return True
    try:
        for entry in os.listdir(tasks):
            try:
                thread = os.open(entry, _DIRECTORY, dir_fd=tasks)
            except OSError:
                continue
            try:
                if _stat(thread)[0] not in ("T", "t", "Z", "X", ""):
                    return False
            finally:
                os.close(thread)
        return True
    finally:
        os.close(tasks)


def _stat(process: int) -> tuple[str, str]:
    """``(state, parent)`` of the process whose ``/proc`` folder ``process`` is open (``("", "")``: gone)."""
    try:
        fd = os.open("stat", os.O_RDONLY | getattr(os, "O_CLOEXEC", 0), dir_fd=process)
    except OSError:
        return "", ""
    try:
        fields = os.read(fd, 4096).rsplit(b")", 1)[-1].split()  # the name before ")" may hold anything
    except OSError:
        return "", ""
    finally:
        os.close(fd)
    return (fields[0].decode(), fields[1].decode()) if len(fields) > 1 else ("", "")
