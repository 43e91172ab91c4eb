"""Hostile students for the sandbox tests: each tries one attack and reports by its move.

Every ``probe_*`` function plays column 1 (0-based) when its attack worked and
column 0 when it failed, so a test reads the outcome from the move alone:
the student has no other way out. The other functions attack and then play
as usual. :func:`write_attacks` formats the source with the test's own
targets (a secret file, a decoy of the engine's source, a port, its pid).
"""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SOURCE = '''
import os
import resource
import signal
import socket
import sys
import time

TARGETS = {targets!r}  # files outside the scratch folder that no student may write
SECRET_FILES = {secret_files!r}  # files of the user's that no student may read
SECRET = {secret!r}  # a value in the parent's environment
PORT = {port!r}  # a listener of the test's on 127.0.0.1
PARENT = {parent!r}  # the test's own process id
SOCKETS = {sockets!r}  # Unix sockets of the test's, listening: one beside the student's file, one elsewhere
MEMORY_MB = 256  # the memory_mb the tests give the memory probe


def first_free(board):
    return int((board[0] == 0).argmax())


def agent(board, player=1):
    return first_free(board)


def probe_write_outside(board, player=1):
    """Opens each target for writing without creating it ("r+"): only the real file would open."""
    for target in TARGETS:
        try:
            with open(target, "r+"):
                return 1
        except OSError:
            pass
    return 0


def probe_scratch(board, player=1):
    """The one place a student may write: its scratch folder (also its HOME and TMPDIR)."""
    try:
        for folder in (os.environ.get("TMPDIR", "/tmp"), os.path.expanduser("~")):
            with open(os.path.join(folder, "scratch-{tag}.txt"), "w") as file:
                file.write("notes")
        return 1
    except OSError:
        return 0


def probe_read_secrets(board, player=1):
    for path in SECRET_FILES:
        try:
            with open(path, "rb") as file:
                file.read(1)
            return 1
        except OSError:
            pass
    return 0


def probe_environment(board, player=1):
    """The parent's environment, through our own or through /proc."""
    if any(SECRET in value for value in os.environ.values()):
        return 1
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        try:
            with open(f"/proc/{{entry}}/environ", "rb") as file:
                if SECRET.encode() in file.read():
                    return 1
        except OSError:
            pass
    return 0


def probe_see_parent(board, player=1):
    """Any process outside: the test's pid, or any process whose command line does not name this file."""
    try:
        os.kill(PARENT, 0)  # signal 0: only asks whether the process exists and may be signalled
        return 1
    except OSError:
        pass
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        try:
            with open(f"/proc/{{entry}}/cmdline", "rb") as file:
                command = file.read()
        except OSError:
            continue
        if command and os.path.basename(__file__).encode() not in command:
            return 1
    return 0


def probe_stop_parent(board, player=1):
    """SIGSTOP to the test and to its own parent (a watchdog of the test's sends SIGCONT)."""
    stopped = 0
    for pid in {{PARENT, os.getppid()}} - {{0, 1, os.getpid()}}:
        try:
            os.kill(pid, signal.SIGSTOP)
            stopped = 1
        except OSError:
            pass
    return stopped


def probe_connect(board, player=1):
    try:
        with socket.create_connection(("127.0.0.1", PORT), timeout=2):
            return 1
    except OSError:
        return 0


def probe_raise_limits(board, player=1):
    try:
        resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        return 1
    except (ValueError, OSError):
        return 0


def probe_unix_socket(board, player=1):
    """Connects to a socket file of the user's (as to tmux's, ssh-agent's or the X server's)."""
    for path in SOCKETS:
        try:
            with socket.socket(socket.AF_UNIX) as client:
                client.settimeout(2)
                client.connect(path)
                return 1
        except OSError:
            pass
    return 0


def probe_memory_files(board, player=1):
    """Writes to every memory file system it can find: 1 if it could store more than its memory limit."""
    total = 0
    for folder in ("/dev/shm", "/dev", "/", "/sandbox", "/sandbox/student", os.environ.get("TMPDIR", "/tmp")):
        name = os.path.join(folder, "fill-{tag}")
        try:
            with open(name, "wb") as file:
                for _ in range(MEMORY_MB + 1):
                    file.write(b"x" * 2**20)
                    file.flush()
                    total += 1
        except (OSError, MemoryError):
            pass
        finally:
            try:
                os.unlink(name)
            except OSError:
                pass
        if total > MEMORY_MB:
            return 1
    return 0


def probe_fork_bomb(board, player=1):
    """Starts sleepers until refused: 1 if it got more than the sandbox's 64 processes."""
    made = 0
    while made < 300:
        try:
            if os.fork() == 0:
                time.sleep(60)
                os._exit(0)
        except OSError:
            break
        made += 1
    return int(made > 64)


LEFT = []


def probe_leftover(board, player=1):
    """First move: leaves a busy process behind. Later moves: 1 if it still runs (it ran through the rival's turn)."""
    if not LEFT:
        pid = os.fork()
        if pid == 0:
            os.setsid()
            while True:
                pass
        LEFT.append(pid)
        return 0
    try:
        with open(f"/proc/{{LEFT[0]}}/stat") as file:
            return int(file.read().rsplit(")", 1)[1].split()[0] != "Z")  # killed, not yet waited for: a zombie
    except OSError:
        return 0


def probe_system_calls(board, player=1):
    """ptrace, the key store, bpf, a memory file, a new user namespace: 1 if any of them is allowed."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    numbers = {{"x86_64": (250, 321), "aarch64": (219, 280)}}.get(os.uname().machine, (250, 321))
    if libc.ptrace(0, 0, 0, 0) == 0:  # PTRACE_TRACEME
        return 1
    if libc.syscall(numbers[0], 0, -3, 0, 0) >= 0:  # keyctl(KEYCTL_GET_KEYRING_ID, session keyring)
        return 1
    if libc.syscall(numbers[1], 0, 0, 0) >= 0 or ctypes.get_errno() not in (1, 38):  # bpf
        return 1
    if libc.unshare(0x10000000) == 0:  # CLONE_NEWUSER
        return 1
    try:
        os.close(os.memfd_create("x"))
        return 1
    except (OSError, AttributeError):
        return 0


def daemon(board, player=1):
    """Leaves a sleeper in a session of its own, twice forked, then plays on."""
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            os.setpgid(0, 0)
            time.sleep(600)
        os._exit(0)
    time.sleep(0.2)
    return first_free(board)


def rival_killer(board, player=1):
    """Kills every other student's process it can find before it moves."""
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{{entry}}/cmdline", "rb") as file:
                command = file.read()
        except OSError:
            continue
        if b"child.py" in command and b"attacks_{tag}.py" not in command:
            try:
                os.kill(int(entry), signal.SIGKILL)
            except OSError:
                pass
    return first_free(board)


def killed_by_sigkill(board, player=1):
    os.kill(os.getpid(), signal.SIGKILL)
'''


def write_attacks(
    folder: Path,
    *,
    targets: list[Path],
    secret_files: list[Path],
    secret: str,
    port: int,
    parent: int,
    tag: str,
    sockets: list[Path] = (),  # type: ignore[assignment]
) -> Path:
    """The hostile student's file in ``folder``; ``tag`` names it apart from its rivals."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"attacks_{tag}.py"
    source = SOURCE.format(
        targets=[str(t) for t in targets],
        secret_files=[str(s) for s in secret_files],
        secret=secret,
        port=port,
        parent=parent,
        tag=tag,
        sockets=[str(path) for path in sockets],
    )
    path.write_text(textwrap.dedent(source))
    return path


HONEST = """
def agent(board, player=1):
    return int((board[0] == 0).argmax())
"""


def as_nobody(command: list[str], folders: list[Path], uid: int = 65534) -> list[str]:
    """``command`` run as the unprivileged user ``nobody`` (for a test running as root, as CI does), or as
    another unprivileged ``uid`` where the kernel's count of the user's processes must be this test's alone.

    ``folders`` are opened to others. Python or the project may sit below a folder that only root
    may enter (/root): in a mount namespace of this command only, such a folder is replaced by an
    empty one that everybody may enter, with just the paths needed bound back into it.
    """
    for path in folders:
        os.chmod(path, 0o755)
        for parent in path.parents:
            if str(parent).startswith("/tmp/"):
                os.chmod(parent, 0o755)
    needed = [Path(sys.prefix), Path(sys.base_prefix), ROOT, *folders]
    script = ["set -e"]
    for number, hidden in enumerate(_hidden_ancestors(needed)):
        keep = [path for path in needed if hidden in path.parents]
        script += [f"mkdir -p /tmp/.hold{number}", f"mount --bind {hidden} /tmp/.hold{number}"]
        script += [f"mount -t tmpfs -o mode=755 none {hidden}"]
        for path in keep:
            inner = path.relative_to(hidden)
            script += [f"mkdir -p {path}", f"mount --bind /tmp/.hold{number}/{inner} {path}"]
    script.append(f'exec setpriv --reuid={uid} --regid={uid} --clear-groups --inh-caps=-all "$@"')
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", "\n".join(script), "sh", *command]


def _hidden_ancestors(paths: list[Path]) -> list[Path]:
    """The topmost folders above ``paths`` that others may not enter (e.g. /root, where Python may live), and
    pytest's own temporary folder, which a pytest session starting beside this one closes again (0700)."""
    hidden: list[Path] = []
    for path in paths:
        for ancestor in reversed(path.parents):
            if not os.stat(ancestor).st_mode & 0o001 or ancestor.name.startswith("pytest-of-"):
                if ancestor not in hidden:
                    hidden.append(ancestor)
                break
    return hidden
