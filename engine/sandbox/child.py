"""The student's process, and the line protocol both sides speak.

Run as a script (``python child.py FILE MEMORY_MB USER FUNCTION INTERFACE
PROCESSES PARENT_PID PARENT_PID_NAMESPACE [SITE ...]``), this switches to the
uid ``USER`` (-1: stays), sets its limits, loads ``FUNCTION`` from ``FILE``
and answers boards until its input ends. After each answer is computed and
before it is sent, whatever the student printed is flushed and, inside the
sandbox's own PID namespace, every other process the student left is killed:
nothing of it runs through its rival's turn. The function is called the classroom way,
``agent(board, player)`` with a numpy array, the Kaggle ConnectX way,
``agent(observation, configuration)`` (:func:`kaggle_arguments`, trimmed to
the parameters it declares, with Kaggle's ``actTimeout`` and overage bank:
:class:`KaggleClock`), the PettingZoo way, ``policy(observation)`` with
``connect_four_v3``'s dict, or as an OpenSpiel bot (``bot.step(state)``:
:class:`OpenSpielPlayer`); a bare ``FILE.py`` plays its last callable, as
Kaggle takes a submission's agent:
``INTERFACE`` says which, or ``auto`` to tell from its parameters' names. It imports
nothing of the engine (only the standard library and numpy), so it starts
fast and the student's code sees no engine internals.

**Protocol** (UTF-8 text, one line each way, ``\\n``-terminated):

- child, once: ``READY <interface>`` (``classroom``, ``kaggle``, ``pettingzoo`` or ``openspiel``) or
  ``ERROR <message>`` (the file could not be loaded);
- parent, per move: ``BOARD <player> <rows> <cols> <connect> <seconds> <cell> ...``
  (row 0 first, as the array the student receives; a Kaggle agent gets the
  board with 1 for the first player and 2 for the second, top row first);
- child, per move: ``MOVE <column>``, ``ERROR <message>`` (the function raised)
  or ``BAD <short repr>`` (it returned something that is not a whole number).

Messages are cut to :data:`MAX_MESSAGE` characters and never span lines; the
parent reads at most :data:`MAX_LINE` bytes of a line and refuses the rest.

The protocol runs over private copies of the standard streams: the child
moves its real stdin/stdout aside at start and points file descriptors 0 and
1 at ``/dev/null`` and at stderr, so whatever the student prints goes to the
output pipe that the parent drains (and caps), never into the answers.
"""

from __future__ import annotations

import contextlib
import importlib.util
import operator
import os
import reprlib
import sys
import time
import traceback
from pathlib import Path
from typing import Any, BinaryIO, NamedTuple

#: The longest line either side accepts, in bytes (a 9x9 board is about 200).
MAX_LINE = 4096
#: Columns further from 0 than this are refused without printing them.
MAX_COLUMN = 10**6
#: The longest message (an exception, a repr) put into a line.
MAX_MESSAGE = 300


# -- both sides: the lines --------------------------------------------------------
def one_line(text: str) -> str:
    """``text`` on one line, cut to :data:`MAX_MESSAGE` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= MAX_MESSAGE else flat[: MAX_MESSAGE - 3] + "..."


def encode_board(cells: Any, player: int, connect: int = 4, seconds: float = 10.0) -> bytes:
    """The request line for a ``rows x cols`` integer array, the player to move, connect-N and the move's time."""
    rows, cols = cells.shape
    values = " ".join(str(int(value)) for value in cells.flat)
    return f"BOARD {int(player)} {rows} {cols} {int(connect)} {float(seconds):g} {values}\n".encode("ascii")


class Request(NamedTuple):
    """One request as the child reads it."""

    board: Any  # a rows x cols numpy int64 array
    player: int
    connect: int
    seconds: float


def decode_board(line: bytes) -> Request:
    """The inverse of :func:`encode_board` (the child's side)."""
    import numpy as np

    kind, player, rows, cols, connect, seconds, *values = line.decode("ascii").split()
    if kind != "BOARD":
        raise ValueError(f"unexpected request {kind!r}")
    board = np.array([int(value) for value in values], dtype=np.int64).reshape(int(rows), int(cols))
    return Request(board, int(player), int(connect), float(seconds))


# -- Kaggle ConnectX ----------------------------------------------------------------
class Struct(dict[str, Any]):
    """A dict whose keys are also attributes, as Kaggle's ``observation`` and ``configuration`` are."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


#: First parameter names that mark a Kaggle agent, ``agent(observation, configuration)``.
KAGGLE_NAMES = frozenset({"observation", "obs", "configuration", "config", "conf", "cfg"})


def interface_of(fn: Any) -> str:
    """``kaggle`` for ``f(observation, configuration)`` (by its parameters' names), else ``classroom``."""
    import inspect

    try:
        names = list(inspect.signature(fn).parameters)[:2]
    except (TypeError, ValueError):  # a builtin or a callable object without a signature
        return "classroom"
    return "kaggle" if any(name.lower() in KAGGLE_NAMES for name in names) else "classroom"


#: Kaggle ConnectX's time per move and its overage bank for a game, in seconds (a move past both loses).
ACT_TIMEOUT = 2
OVERAGE = 60.0


class KaggleClock:
    """Kaggle's clock for one game (the child lives for one game): the overage bank left, told truly."""

    def __init__(self) -> None:
        self.overage = OVERAGE

    def spend(self, seconds: float) -> bool:
        """Count a move of ``seconds``; False once it went past ``actTimeout`` and the bank."""
        self.overage -= max(0.0, seconds - ACT_TIMEOUT)
        return self.overage >= 0


def trimmed(fn: Any, arguments: tuple[Any, ...]) -> tuple[Any, ...]:
    """The first arguments as many as ``fn`` declares, as Kaggle passes them (``def agent(observation)``)."""
    code = getattr(fn, "__code__", None)
    count = getattr(code, "co_argcount", None)
    return arguments if not isinstance(count, int) else arguments[:count]


def kaggle_arguments(request: Request, overage: float = OVERAGE) -> tuple[Struct, Struct]:
    """Kaggle's ``observation`` and ``configuration`` for a board given with 1 (first) / 2 (second) / 0."""
    rows, cols = request.board.shape
    cells = [int(value) for value in request.board.flat]  # plain ints, row-major, top row first
    observation = Struct(
        board=cells,
        mark=request.player,
        step=sum(1 for value in cells if value),
        remainingOverageTime=overage,
    )
    configuration = Struct(
        columns=cols,
        rows=rows,
        inarow=request.connect,
        timeout=ACT_TIMEOUT,
        actTimeout=ACT_TIMEOUT,
        agentTimeout=60,
        runTimeout=1200,
        episodeSteps=rows * cols + 1,
    )
    return observation, configuration


# -- PettingZoo and OpenSpiel -------------------------------------------------------------
def pettingzoo_observation(request: Request) -> dict[str, Any]:
    """``connect_four_v3``'s observation of a board given with 1 / 2 / 0, top row first: the mover's stones
    in plane 0, the other's in plane 1, and the mask of the free columns."""
    import numpy as np

    board = request.board
    mine, theirs = board == request.player, (board != 0) & (board != request.player)
    return {
        "observation": np.stack([mine, theirs], axis=2).astype(np.int8),
        "action_mask": (board[0] == 0).astype(np.int8),
    }


def _has_line(cells: list[list[int]], who: int, connect: int) -> bool:
    rows, cols = len(cells), len(cells[0])
    for row in range(rows):
        for col in range(cols):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = row + dr * (connect - 1), col + dc * (connect - 1)
                inside = 0 <= end_r < rows and 0 <= end_c < cols
                if inside and all(cells[row + dr * k][col + dc * k] == who for k in range(connect)):
                    return True
    return False


def move_order(board: Any, connect: int) -> list[int]:
    """A move order (0-based columns) that reaches ``board`` (1 moved first, top row first) without passing
    through a finished game: the last stone of the side that moved last is taken off, one that leaves no line,
    back to the empty board (backtracking where a choice leads nowhere)."""
    cells = [[int(value) for value in row] for row in board]

    def back(stones: int) -> list[int] | None:
        if stones == 0:
            return []
        who = 1 if stones % 2 else 2
        for col in range(len(cells[0])):
            row = next((r for r in range(len(cells)) if cells[r][col]), None)
            if row is None or cells[row][col] != who:
                continue
            cells[row][col] = 0
            try:
                if not _has_line(cells, 1, connect) and not _has_line(cells, 2, connect):
                    before = back(stones - 1)
                    if before is not None:
                        return [*before, col]
            finally:
                cells[row][col] = who
        return None

    order = back(sum(1 for row in cells for value in row if value))
    if order is None:
        raise ValueError("no game reaches this board")
    return order


class OpenSpielPlayer:
    """A ``pyspiel.Bot`` (or ``make_bot(game, player_id)``, called once) asked with the state of each board."""

    def __init__(self, target: Any) -> None:
        self.target: Any = target
        self.bot: Any = None

    def __call__(self, request: Request) -> Any:
        import pyspiel  # (open_spiel, where the student's Python has it)

        rows, cols = request.board.shape
        game = pyspiel.load_game("connect_four", {"columns": cols, "rows": rows, "x_in_row": request.connect})
        state = game.new_initial_state()
        for col in move_order(request.board, request.connect):
            state.apply_action(col)
        if self.bot is None:
            self.bot = self.target if hasattr(self.target, "step") else self.target(game, state.current_player())
        return self.bot.step(state)


# -- the child's side -------------------------------------------------------------
def _limit(memory_mb: int, processes: int, confined: bool) -> None:
    """Cap the address space and the number of processes, soft and hard alike (POSIX only).

    A runaway allocation then fails in the student's own code (``MemoryError``)
    instead of waking the machine's out-of-memory killer, and a fork bomb
    stops at ``processes``. An unprivileged process may lower a hard limit
    but never raise it again, so the student cannot undo either. Outside the
    sandbox the kernel counts all of the user's processes (threads included),
    so the limit is that count plus ``processes``.
    """
    try:
        import resource
    except ImportError:  # Windows: no resource limits
        return
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # no core dumps of a crash in the student's folder
    if memory_mb > 0:
        limit = memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    if processes > 0 and not confined:
        processes += _threads_of(os.getuid())
    if processes > 0:  # counted per user namespace (Linux 5.14+) inside the sandbox
        resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))


def _threads_of(uid: int) -> int:
    """How many threads the user ``uid`` runs now (Linux /proc; a large number where unknown)."""
    if not os.path.isdir("/proc/self"):
        return 2**20
    total = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/status", "rb") as file:
                    fields = dict(line.split(b":", 1) for line in file if b":" in line)
                if int(fields[b"Uid"].split()[0]) == uid:
                    total += int(fields[b"Threads"])
            except (OSError, KeyError, ValueError, IndexError):
                continue
    return total


def _become(uid: int) -> None:
    """Switch to the unprivileged ``uid`` for good (the sandbox maps it when the program runs as root)."""
    if uid < 0:
        return
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise OSError("could not leave root")


def _end_leftovers(confined: bool) -> None:
    """Kill every process of this PID namespace but its first and this one: what the student left running."""
    if confined:
        import signal

        with contextlib.suppress(ProcessLookupError):  # nothing to kill
            os.kill(-1, signal.SIGKILL)


def _flush_printed() -> None:
    """Pass on what the student printed and left in a buffer (it may have replaced ``sys.stdout``)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()


def _die_with_parent(parent: int) -> None:
    """Ask Linux to kill this process when its parent dies (needed only outside the sandbox)."""
    if parent <= 0 or not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    set_parent_death_signal = 1  # PR_SET_PDEATHSIG in <linux/prctl.h>
    ctypes.CDLL(None, use_errno=True).prctl(set_parent_death_signal, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the request: nobody would send the signal
        os._exit(1)


def _private_streams() -> tuple[BinaryIO, BinaryIO]:
    """The protocol's input and output, moved away from descriptors 0 and 1."""
    requests = os.fdopen(os.dup(0), "rb", buffering=0)
    answers = os.fdopen(os.dup(1), "wb", buffering=0)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)  # print() and os.write(1, ...) of the student go to stderr, which the parent caps
    return requests, answers


def _load(path: str, function: str) -> Any:
    file = Path(path)
    sys.path.insert(0, str(file.resolve().parent))  # the student's own helper modules
    spec = importlib.util.spec_from_file_location(f"student_{file.stem}", file)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if not function:  # a bare FILE.py: its last callable, as Kaggle takes a submission's agent
        defined = [value for name, value in vars(module).items() if not name.startswith("__") and callable(value)]
        if not defined:
            raise AttributeError(f"{path} defines no function")
        return defined[-1]
    fn = getattr(module, function, None)
    if not callable(fn) and not hasattr(fn, "step"):  # (an OpenSpiel bot: an object with step(state))
        raise AttributeError(f"{path} has no function {function!r}")
    return fn


def _where(exc: BaseException, source: str = "") -> str:
    """`` (line 7 of bot.py)``: the last line of the student's own file ``source`` that the error passed
    through (a library it called may have raised it), else the last line of all."""
    frames = traceback.extract_tb(exc.__traceback__)
    own = [frame for frame in frames if source and Path(frame.filename) == Path(source)]
    if not frames:
        return ""
    frame = (own or frames)[-1]
    return f" (line {frame.lineno} of {Path(frame.filename).name})"


def _answer(fn: Any, request: Request, interface: str, source: str = "", clock: KaggleClock | None = None) -> str:
    clock = clock or KaggleClock()
    started = time.perf_counter()
    try:
        if interface == "kaggle":
            value = fn(*trimmed(fn, kaggle_arguments(request, clock.overage)))
        elif interface == "pettingzoo":
            value = fn(pettingzoo_observation(request))
        elif interface == "openspiel":
            value = fn(request)  # (an OpenSpielPlayer)
        else:
            value = fn(request.board, request.player)
    except BaseException as exc:
        return "ERROR " + one_line(f"{type(exc).__name__}: {exc}{_where(exc, source)}")
    if interface == "kaggle" and not clock.spend(time.perf_counter() - started):
        bank = f"Kaggle's actTimeout ({ACT_TIMEOUT} s) and its overage bank ({OVERAGE:g} s a game)"
        return f"ERROR DeadlineExceeded: took longer than {bank}"
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return f"BAD {bool(value)!r}"  # True == 1, but True is no column
    try:
        column = operator.index(value)  # int, numpy integers, 0-d integer arrays
    except Exception:
        return "BAD " + _short_repr(value)
    if not -MAX_COLUMN <= column <= MAX_COLUMN:
        return f"BAD a {column.bit_length()}-bit number"
    return f"MOVE {column}"


#: Values whose repr is shown (cut short); any other object is named by its type, its own __repr__ never runs.
_PLAIN = (str, bytes, float, complex, list, tuple, dict, set, type(None))


def _short_repr(value: Any) -> str:
    if type(value) not in _PLAIN:
        return f"an object of type {type(value).__name__}"
    try:
        return one_line(reprlib.repr(value))
    except Exception:  # e.g. a list holding an int too long to print
        return f"an object of type {type(value).__name__}"


def main(argv: list[str]) -> int:
    path, memory_mb, user, function, interface, processes, parent, namespace, *sites = argv
    _die_with_parent(int(parent))
    _become(int(user))
    # Only in a PID namespace of its own may the child kill "every process it can" after a move.
    confined = bool(namespace) and _pid_namespace() not in ("", namespace)
    sys.path.pop(0)  # this script's folder is no place to import from
    sys.path.extend(site for site in sites if site not in sys.path)  # numpy, where it lives
    requests, answers = _private_streams()
    _limit(int(memory_mb), int(processes), confined)
    try:
        fn = _load(path, function)
    except BaseException as exc:
        answers.write(("ERROR " + one_line(f"loading {path}: {type(exc).__name__}: {exc}") + "\n").encode())
        return 1
    if interface == "auto":
        interface = interface_of(fn)
    if interface == "openspiel":
        fn = OpenSpielPlayer(fn)
    _flush_printed()
    _end_leftovers(confined)
    answers.write(f"READY {interface}\n".encode())
    clock = KaggleClock()  # (one game per process)
    while True:
        line = requests.readline(MAX_LINE)
        if not line:
            return 0
        answer = _answer(fn, decode_board(line), interface, path, clock)
        _flush_printed()
        _end_leftovers(confined)
        answers.write((answer + "\n").encode("utf-8", "replace"))


def _pid_namespace() -> str:
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return ""


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
