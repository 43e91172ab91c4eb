"""The grading child: one student's module, loaded inside the sandbox, and the calls the grader asks of it.

Run as a script (``python child.py FILE MEMORY_MB USER PROCESSES PARENT_PID
PARENT_PID_NAMESPACE SEED [SITE ...]``, the sandbox's first three arguments
then the grader's), it switches to the uid ``USER`` (-1: stays), sets its
limits, loads ``FILE`` as a module named ``student`` (so code under ``if
__name__ == "__main__":`` does not run), then answers requests until its input
ends. After each answer, inside the sandbox's own PID namespace, every other
process the student left running is killed. It imports nothing of the engine, only the standard library and
numpy: the reference answers never enter the sandbox. The parent imports this
file as a module too, for the value encoding both sides share.

**Protocol**: UTF-8 JSON, one object a line each way. The child says first
``{"ready": true, "names": [...]}`` (the functions and classes the file
defines) or ``{"ready": false, "error": ..., "where": ...}`` (the file does not
load: a syntax error, an exception, ``input()`` at import). Then, per request
``{"op": "call", "function": NAME, "args": [...], ...}`` it answers
``{"value": ..., "same": I, "after": [...], "globals": {...}, "trace": [...]}``
or ``{"error": "TypeError: ...", "where": "line 12 of alice.py"}``, or
``{"missing": NAME}``. A request may also carry:

- ``globals``: module globals set before the call (``maxDepth``, ``countNodes``);
- ``read``: module globals read back after it;
- ``after``: indices of arguments whose value after the call is sent back (an
  in-place move, an input that must not change);
- ``attrs``: the attributes sent back for objects of the student's classes;
- ``seed``: ``random`` and ``numpy.random`` are seeded with it first;
- ``repeat``: the call is made this many times, the values sent as a list;
- ``patch``: module functions replaced for the call by a lookup in a table
  of the grader's answers (``eval`` and ``checkWin`` in a search question,
  so that a search is marked on its own), falling back to the student's own
  function for a position the table does not hold; ``{"kind": "tree_value"}``
  makes ``evalFunct(state)`` the number of a tree's leaf;
- ``trace``: what the call does is recorded, as the assignment counts it:
  ``calls`` (every call of one function, with the position its board
  argument holds), ``positions`` (every position first seen among the
  arguments of any function of the module), ``tree`` (every state of an
  abstract tree a function is called on).

Values are encoded with their types (:func:`encode`): ``{"int": 3}``,
``{"bool": true}``, ``{"array": [...], "dtype": "int64"}``, ``{"tuple": [...]}``,
``{"object": "State", "attrs": {...}}``; the parent parses JSON only and never
evaluates anything it gets. Whatever the student prints goes to standard
error (the parent drains and caps it), never into the answers.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import inspect
import json
import math
import os
import random
import sys
import traceback
from pathlib import Path
from typing import Any, BinaryIO

#: The longest request line read, in bytes (a search's table of positions is about 60 KB).
MAX_REQUEST = 8 * 2**20
#: Calls recorded at most per request; a search that goes on is no longer recorded.
MAX_TRACE = 20_000
#: Items of a list, cells of an array and characters of a string sent back at most.
MAX_ITEMS = 4096
MAX_TEXT = 300
#: Nesting of values sent back at most.
MAX_DEPTH = 6


# -- values: both sides --------------------------------------------------------------------
def encode(value: Any, attrs: tuple[str, ...] = (), depth: int = 0, classes: tuple[type, ...] = ()) -> Any:
    """``value`` as JSON with its type: see the module docstring. Never runs the value's own methods
    (no ``repr`` of a student's object), and never sends more than :data:`MAX_ITEMS` items of anything."""
    import numpy as np

    if value is None:
        return None
    if isinstance(value, bool | np.bool_):
        return {"bool": bool(value), "type": type(value).__name__}
    if isinstance(value, int | np.integer):
        number = int(value)
        if number.bit_length() > 256:
            return {"other": "int", "note": f"a {number.bit_length()}-bit number"}
        return {"int": number, "type": type(value).__name__}
    if isinstance(value, float | np.floating):
        real = float(value)
        return {"float": real if math.isfinite(real) else str(real), "type": type(value).__name__}
    if isinstance(value, str | np.str_):
        text = str(value)
        return {"str": text[:MAX_TEXT], "cut": len(text) > MAX_TEXT}
    if depth >= MAX_DEPTH:
        return {"other": type(value).__name__, "note": "nested too deep"}
    if isinstance(value, np.ndarray):
        if value.size > MAX_ITEMS or value.ndim > 3:
            return {"other": "ndarray", "note": f"shape {value.shape}"}
        cells = value.tolist()
        return {"array": _plain(cells), "dtype": str(value.dtype), "shape": list(value.shape)}
    if isinstance(value, list | tuple):
        kind = "list" if isinstance(value, list) else "tuple"
        items = [encode(item, attrs, depth + 1, classes) for item in list(value)[:MAX_ITEMS]]
        return {kind: items, "cut": len(value) > MAX_ITEMS}
    if isinstance(value, dict):
        pairs = [[encode(k, attrs, depth + 1, classes), encode(v, attrs, depth + 1, classes)] for k, v in value.items()]
        return {"dict": pairs[:MAX_ITEMS]}
    if classes and isinstance(value, classes):
        found = {}
        for name in attrs:
            try:
                found[name] = encode(inspect.getattr_static(value, name), attrs, depth + 1, classes)
            except AttributeError:
                found[name] = {"missing": True}
        return {"object": type(value).__name__, "attrs": found}
    return {"other": type(value).__name__}


def _plain(cells: Any) -> Any:
    """Array cells from ``tolist()`` as JSON: numbers and strings as they are, infinities as strings."""
    if isinstance(cells, list):
        return [_plain(cell) for cell in cells]
    if isinstance(cells, float) and not math.isfinite(cells):
        return str(cells)
    if isinstance(cells, bool | int | float | str) or cells is None:
        return cells
    return str(type(cells).__name__)


#: The array types a request may ask for.
DTYPES = ("int64", "int32", "int8", "float64", "<U1")


def decode(value: Any, module: Any = None) -> Any:
    """A request's argument as the object the student's function gets (the inverse of the parent's encoding)."""
    import numpy as np

    if not isinstance(value, dict):
        return value  # plain JSON: an int, a string, a bool, None, a finite float
    if "float" in value:
        return float(value["float"])  # "inf", "-inf", "nan" too
    if "array" in value:
        if value.get("dtype") not in DTYPES:
            raise ValueError(f"unknown array type {value.get('dtype')!r}")
        return np.array(value["array"], dtype=value["dtype"])
    if "list" in value:
        return [decode(item, module) for item in value["list"]]
    if "tuple" in value:
        return tuple(decode(item, module) for item in value["tuple"])
    if "tree" in value:
        return TreeState.build(value["tree"], "A")
    if "state002" in value:
        return SeedState(**{name: decode(item, module) for name, item in value["state002"].items()})
    if "new" in value:
        return _construct(module, value["new"], {name: decode(item, module) for name, item in value["attrs"].items()})
    raise ValueError(f"unknown argument {sorted(value)}")


class Missing(Exception):
    """The file has no function (or class) of the name asked for."""


class TreeState:
    """A node of an abstract game tree as seed 002's ``minimax`` expects a state: ``isEndState()``, ``validMoves()``."""

    def __init__(self, path: str, children: list[TreeState], value: float | None) -> None:
        self.path, self.children, self.value = path, children, value

    @classmethod
    def build(cls, tree: Any, path: str) -> TreeState:
        if isinstance(tree, list):
            return cls(path, [cls.build(child, f"{path}.{i}") for i, child in enumerate(tree, start=1)], None)
        return cls(path, [], decode(tree))

    def isEndState(self) -> bool:
        return not self.children

    def validMoves(self) -> list[TreeState]:
        return list(self.children)

    def __repr__(self) -> str:
        return f"<state {self.path}>"


class SeedState:
    """Seed 002's ``State``: ``board[HEI][WID]`` (row 0 at the bottom), ``player``, ``nmoves``, the last move."""

    def __init__(self, board: list[list[int]], player: int = 1, nmoves: int = 0) -> None:
        self.board, self.player, self.nmoves = board, player, nmoves
        self.lastMoveX = self.lastMoveY = -1


def _construct(module: Any, name: str, attrs: dict[str, Any]) -> Any:
    """An object of the student's class ``name`` made with no arguments, its attributes then set to ``attrs``."""
    cls = getattr(module, name, None)
    if not isinstance(cls, type):
        raise Missing(name)
    state = cls()
    for attr, item in attrs.items():
        setattr(state, attr, item)
    return state


# -- the child's side ------------------------------------------------------------------------
def _limit(memory_mb: int, processes: int) -> None:
    """Cap the address space and the processes, soft and hard alike, so that the student cannot raise them."""
    try:
        import resource
    except ImportError:  # Windows
        return
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if memory_mb > 0:
        resource.setrlimit(resource.RLIMIT_AS, (memory_mb * 2**20, memory_mb * 2**20))
    if processes > 0:
        resource.setrlimit(resource.RLIMIT_NPROC, (processes, processes))


def _die_with_parent(parent: int) -> None:
    """Ask Linux to end this process when its parent dies (needed only outside the sandbox)."""
    if parent <= 0 or not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:
        os._exit(1)


def _private_streams() -> tuple[BinaryIO, BinaryIO]:
    """The protocol's streams moved off descriptors 0 and 1: ``input()`` meets an empty file, ``print`` goes to 2."""
    requests = os.fdopen(os.dup(0), "rb", buffering=0)
    answers = os.fdopen(os.dup(1), "wb", buffering=0)
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    os.dup2(2, 1)
    sys.stdin = open(os.devnull)  # noqa: SIM115 - for the life of the process
    return requests, answers


def where(exc: BaseException, folder: Path) -> str:
    """``line 12 of alice.py``: the last line of the student's own files the error passed through."""
    if isinstance(exc, SyntaxError) and exc.filename and exc.lineno:
        return f"line {exc.lineno} of {Path(exc.filename).name}"
    frames = traceback.extract_tb(exc.__traceback__)
    own = [frame for frame in frames if _inside(frame.filename, folder)]
    if not own:
        return ""
    return f"line {own[-1].lineno} of {Path(own[-1].filename).name}"


def _inside(filename: str, folder: Path) -> bool:
    try:
        return Path(filename).resolve().is_relative_to(folder)
    except (OSError, ValueError):
        return False


def describe(exc: BaseException) -> str:
    message = exc.msg if isinstance(exc, SyntaxError) and exc.msg else exc  # where() says the line
    text = " ".join(f"{type(exc).__name__}: {message}".split())
    if isinstance(exc, EOFError):
        text += " (the file asks for input when it is loaded: put the game under if __name__ == '__main__':)"
    return text[:MAX_TEXT]


def load(path: str) -> Any:
    file = Path(path)
    sys.path.insert(0, str(file.resolve().parent))  # the student's own helper modules
    spec = importlib.util.spec_from_file_location("student", file)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {file.name}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["student"] = module
    spec.loader.exec_module(module)
    return module


def defined_names(module: Any) -> list[str]:
    names = []
    for name, value in vars(module).items():
        if not name.startswith("__") and (inspect.isfunction(value) or inspect.isclass(value)):
            names.append(name)
    return sorted(names)[:500]


def resolve(module: Any, name: str) -> Any:
    """``name`` or ``Class.method`` in the student's module."""
    head, _, method = name.partition(".")
    found = getattr(module, head, None)
    if found is None:
        raise Missing(head)
    if method:
        found = inspect.getattr_static(found, method, None)
        if found is None:
            raise Missing(name)
    if not callable(found):
        raise Missing(name)
    return found


def board_digits(board: Any) -> str:
    """A position as one string of its cells (the key of the grader's tables)."""
    import numpy as np

    return "".join(str(int(cell)) for cell in np.asarray(board).flat)


class Recorder:
    """What a call does, as the assignment counts it (see ``trace`` in the module docstring)."""

    def __init__(self, spec: dict[str, Any], root: Any) -> None:
        import numpy as np

        self.kind = spec["kind"]
        self.root = None if root is None else np.array(root)
        self.entries: list[list[Any]] = []
        self.seen: set[bytes] = set()
        self.truncated = False
        self.level = 0  # how deep in the recorded function's own recursion the call under way is

    def diff(self, board: Any) -> list[list[Any]] | None:
        """The cells where ``board`` differs from the root's position: ``[[row, col, value], ...]``."""
        import numpy as np

        try:
            now = np.asarray(board)
        except Exception:
            return None
        if self.root is None or now.shape != self.root.shape:
            return None
        rows, cols = np.nonzero(now != self.root)
        return [[int(r), int(c), _plain(now[r, c].item())] for r, c in zip(rows, cols, strict=True)]

    def add(self, entry: list[Any]) -> int:
        if len(self.entries) >= MAX_TRACE:
            self.truncated = True
            return -1
        self.entries.append(entry)
        return len(self.entries) - 1


def _wrap_calls(module: Any, name: str, board_index: int, recorder: Recorder) -> list[tuple[str, Any]]:
    """Record every call of ``name``: ``[nesting level, the position of its board argument (cells that differ
    from the root's), its other arguments, what it returned]``."""
    original = getattr(module, name)

    @functools.wraps(original)
    def recorded(*args: Any, **kwargs: Any) -> Any:
        board = args[board_index] if len(args) > board_index else None
        others = [encode(arg) for i, arg in enumerate(args) if i != board_index]
        index = recorder.add([recorder.level, recorder.diff(board), others, None])
        recorder.level += 1
        try:
            value = original(*args, **kwargs)
        finally:
            recorder.level -= 1
        if index >= 0:
            recorder.entries[index][3] = encode(value)
        return value

    setattr(module, name, recorded)
    return [(name, original)]


def _wrap_positions(module: Any, recorder: Recorder) -> list[tuple[str, Any]]:
    """Record every position first seen among the arguments of any function of the module."""
    import numpy as np

    replaced = []
    shape = None if recorder.root is None else recorder.root.shape

    def note(args: tuple[Any, ...]) -> None:
        for arg in args:
            if isinstance(arg, np.ndarray) and arg.shape == shape:
                key = arg.tobytes()
                if key not in recorder.seen:
                    recorder.seen.add(key)
                    recorder.add([recorder.diff(arg)])

    for name, value in list(vars(module).items()):
        if inspect.isfunction(value) and getattr(value, "__module__", None) == module.__name__:

            def recorded(*args: Any, __original: Any = value, **kwargs: Any) -> Any:
                note(args)
                return __original(*args, **kwargs)

            functools.update_wrapper(recorded, value)
            replaced.append((name, value))
            setattr(module, name, recorded)
    return replaced


def _wrap_tree(module: Any, name: str, recorder: Recorder) -> list[tuple[str, Any]]:
    """Record the tree state of every call of ``name``, with its depth, player and window."""
    original = getattr(module, name)

    @functools.wraps(original)
    def recorded(*args: Any, **kwargs: Any) -> Any:
        state = args[0] if args else None
        path = state.path if isinstance(state, TreeState) else None
        index = recorder.add([path, [encode(arg) for arg in args[1:]], None])
        value = original(*args, **kwargs)
        if index >= 0:
            recorder.entries[index][2] = encode(value)
        return value

    setattr(module, name, recorded)
    return [(name, original)]


def _patch(module: Any, name: str, spec: dict[str, Any]) -> list[tuple[str, Any]]:
    """Replace ``name`` by the grader's table (see ``patch`` in the module docstring)."""
    original = getattr(module, name, None)
    replaced = [(name, original)]
    if spec["kind"] == "tree_value":

        def leaf_value(state: Any, *args: Any, **kwargs: Any) -> Any:
            if isinstance(state, TreeState) and state.value is not None:
                return state.value
            raise ValueError(f"{name} was called on {state!r}, which is not a leaf of the tree")

        setattr(module, name, leaf_value)
        return replaced
    table = {key: decode(value) for key, value in spec["table"].items()}
    board_index, key_indices = spec["board"], spec.get("key", [])

    def looked_up(*args: Any, **kwargs: Any) -> Any:
        try:
            key = "|".join([*(str(args[i]) for i in key_indices), board_digits(args[board_index])])
        except Exception:
            key = None
        if key in table:
            return table[key]
        if original is None:
            raise LookupError(f"{name} is not defined")
        return original(*args, **kwargs)

    setattr(module, name, looked_up)
    return replaced


def call(module: Any, request: dict[str, Any], folder: Path) -> dict[str, Any]:
    """Answer one ``call`` request (see the module docstring).

    The module's globals stay as the student's code leaves them (a count of
    nodes goes on from call to call, as in a game); only the functions that a
    patch or a trace replaced are put back afterwards.
    """
    replaced: list[tuple[str, Any]] = []
    try:
        return _call(module, request, folder, replaced)
    finally:
        for name, original in reversed(replaced):
            if original is None:
                vars(module).pop(name, None)
            else:
                setattr(module, name, original)


def _call(module: Any, request: dict[str, Any], folder: Path, replaced: list[tuple[str, Any]]) -> dict[str, Any]:
    import numpy as np

    function_name = request["function"]
    try:
        resolve(module, function_name)
        args = [decode(arg, module) for arg in request.get("args", [])]
    except Missing as missing:
        return {"missing": str(missing)}
    except Exception as exc:  # the student's constructor failed
        return {"error": describe(exc), "where": where(exc, folder)}
    for name, value in request.get("globals", {}).items():
        setattr(module, name, decode(value))
    for name, spec in request.get("patch", {}).items():
        replaced += _patch(module, name, spec)
    recorder = None
    trace = request.get("trace")
    if trace:
        recorder = Recorder(trace, args[trace["board"]] if "board" in trace else None)
        if trace["kind"] == "calls":
            replaced += _wrap_calls(module, trace["function"], trace["board"], recorder)
        elif trace["kind"] == "positions":
            replaced += _wrap_positions(module, recorder)
        elif trace["kind"] == "tree":
            replaced += _wrap_tree(module, trace["function"], recorder)
    function = resolve(module, function_name)  # (wrapped, if the trace wraps it)
    classes = tuple(value for value in vars(module).values() if inspect.isclass(value))
    attrs = tuple(request.get("attrs", ()))
    values = []
    if "seed" in request:
        random.seed(request["seed"])
        np.random.seed(request["seed"] % 2**32)
    for _ in range(int(request.get("repeat", 1))):
        try:
            values.append(function(*args))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # SystemExit too: the student's sys.exit() ends the call, not the child
            return {"error": describe(exc), "where": where(exc, folder)}
    value = values if "repeat" in request else values[0]
    reply: dict[str, Any] = {
        "value": encode(value, attrs, classes=classes),
        "same": next((i for i, arg in enumerate(args) if arg is value), None),
        "after": [encode(args[i], attrs, classes=classes) for i in request.get("after", [])],
        "globals": {name: encode(vars(module).get(name)) for name in request.get("read", [])},
    }
    if recorder is not None:
        reply["trace"] = recorder.entries
        reply["truncated"] = recorder.truncated
    return reply


def main(argv: list[str]) -> int:
    path, memory_mb, user, processes, parent, namespace, seed, *sites = argv
    _die_with_parent(int(parent))
    _become(int(user))
    confined = bool(namespace) and _pid_namespace() not in ("", namespace)
    sys.path.pop(0)  # this script's folder is no place to import from
    sys.path.extend(site for site in sites if site not in sys.path)
    requests, answers = _private_streams()
    _limit(int(memory_mb), int(processes) if confined else 0)
    folder = Path(path).resolve().parent
    random.seed(int(seed))

    def send(reply: dict[str, Any]) -> None:
        _end_leftovers(confined)
        answers.write((json.dumps(reply, ensure_ascii=True, allow_nan=False) + "\n").encode("ascii"))

    try:
        import numpy as np

        np.random.seed(int(seed) % 2**32)
        module = load(path)
    except BaseException as exc:
        send({"ready": False, "error": describe(exc), "where": where(exc, folder)})
        return 1
    send({"ready": True, "names": defined_names(module)})
    while True:
        line = requests.readline(MAX_REQUEST)
        if not line:
            return 0
        request = json.loads(line)
        try:
            reply = call(module, request, folder)
        except RecursionError as exc:
            reply = {"error": describe(exc), "where": ""}
        except MemoryError:
            reply = {"error": "MemoryError: the question's memory limit was reached", "where": ""}
        reply["id"] = request.get("id")
        try:
            send(reply)
        except (TypeError, ValueError) as exc:  # a value JSON cannot carry (it should not happen: encode is total)
            send({"id": request.get("id"), "error": f"the answer could not be sent back: {exc}"[:MAX_TEXT]})


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
    """Kill every process of the sandbox's PID namespace but its first and this one: what the student left."""
    if confined:
        import signal

        with contextlib.suppress(ProcessLookupError):  # nothing to kill
            os.kill(-1, signal.SIGKILL)


def _pid_namespace() -> str:
    try:
        return os.readlink("/proc/self/ns/pid")
    except OSError:
        return ""


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
