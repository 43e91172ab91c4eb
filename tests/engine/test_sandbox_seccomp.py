"""The system-call filter: its numbers are the kernel's, and inside a real sandbox each rule holds."""

from __future__ import annotations

import ctypes
import ctypes.util
import struct
import textwrap
from pathlib import Path

import numpy as np
import pytest

from engine.sandbox import boundary, seccomp
from engine.sandbox.process import StudentProcess
from engine.stop import StopFlag


def _libseccomp() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("seccomp")
    try:
        return ctypes.CDLL(name or "libseccomp.so.2")
    except OSError:
        return None


LIBSECCOMP = _libseccomp()


@pytest.mark.skipif(LIBSECCOMP is None, reason="libseccomp is not installed to check the numbers against")
@pytest.mark.parametrize("arch", list(seccomp.ARCHITECTURES))
def test_the_numbers_are_the_kernels(arch: str) -> None:
    assert LIBSECCOMP is not None
    LIBSECCOMP.seccomp_arch_resolve_name.restype = ctypes.c_uint32
    LIBSECCOMP.seccomp_syscall_resolve_name_arch.argtypes = [ctypes.c_uint32, ctypes.c_char_p]
    token = LIBSECCOMP.seccomp_arch_resolve_name(arch.encode())
    audit_arch, numbers = seccomp.ARCHITECTURES[arch]
    assert token == audit_arch
    for name, number in numbers.items():
        assert LIBSECCOMP.seccomp_syscall_resolve_name_arch(token, name.encode()) == number, name
    absent = [name for name in seccomp.REFUSED if name not in numbers]
    assert all(LIBSECCOMP.seccomp_syscall_resolve_name_arch(token, name.encode()) < 0 for name in absent), absent


def test_the_program_checks_the_architecture_first_and_ends_in_verdicts() -> None:
    code = seccomp.program("x86_64")
    assert code is not None and len(code) % 8 == 0
    instructions = [struct.unpack("=HBBI", code[at : at + 8]) for at in range(0, len(code), 8)]
    assert instructions[0] == (seccomp.LD_W_ABS, 0, 0, seccomp.ARCH)
    assert instructions[1][0] == seccomp.JEQ_K and instructions[1][3] == 0xC000003E
    assert instructions[-1] == (seccomp.RET_K, 0, 0, seccomp.KILL_PROCESS)
    assert seccomp.program("sparc") is None


#: A student that tries each refused call and prints what the kernel said.
PROBE = """
import ctypes, os, socket, threading

libc = ctypes.CDLL(None, use_errno=True)
NUMBERS = {numbers!r}


def agent(board, player=1):
    results = {{}}
    for name in NUMBERS:
        if name in ("socket", "socketpair", "ioctl", "clone", "clone3"):
            continue
        ctypes.set_errno(0)
        libc.syscall(NUMBERS[name], 0, 0, 0, 0, 0, 0)
        results[name] = ctypes.get_errno()
    for family in ("AF_UNIX", "AF_NETLINK", "AF_PACKET", "AF_INET", "AF_INET6"):
        try:
            kind = socket.SOCK_RAW if family == "AF_PACKET" else socket.SOCK_DGRAM
            socket.socket(getattr(socket, family), kind).close()
            results[family] = 0
        except OSError as exc:
            results[family] = exc.errno
    try:
        socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
        results["dgram pair"] = 0
    except OSError as exc:
        results["dgram pair"] = exc.errno
    a, b = socket.socketpair()  # a stream pair: what multiprocessing uses
    ran = []
    thread = threading.Thread(target=lambda: ran.append(1))
    thread.start()
    thread.join()
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    print("results", sorted(results.items()), "thread", ran)
    return 0
"""


@pytest.mark.skipif(not boundary.current().confined or boundary.current().filter is None, reason="no filter here")
def test_inside_the_sandbox_every_rule_holds_and_threads_and_forks_still_work(tmp_path: Path) -> None:
    numbers = seccomp.ARCHITECTURES[seccomp.machine()][1]
    path = tmp_path / "probe.py"
    path.write_text(textwrap.dedent(PROBE.format(numbers=numbers)))
    said: list[str] = []
    student = StudentProcess(str(path), "agent", memory_mb=1024, output_bytes=100_000, echo=said.append)
    try:
        student.start(StopFlag(), 30)
        assert student.ask(np.zeros((6, 7), dtype=np.int64), 1, StopFlag(), 20) == "MOVE 0"
    finally:
        student.close()
    line = next(line for line in said if "results" in line)
    results = dict(eval(line.split("results ", 1)[1].split(" thread")[0]))  # our own probe's repr of a list
    refused = {name: results[name] for name in seccomp.REFUSED if name in numbers}
    assert refused == {name: 1 for name in refused}  # EPERM, each one
    assert results["AF_UNIX"] == results["AF_NETLINK"] == results["AF_PACKET"] == 97  # EAFNOSUPPORT
    assert results["AF_INET"] == results["AF_INET6"] == 0
    assert results["dgram pair"] == 1
    assert line.endswith("thread [1]")
