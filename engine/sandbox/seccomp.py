"""The system-call filter of a student's process: a classic BPF program for the kernel's seccomp.

``bwrap --seccomp FD`` loads it just before it starts the student's Python,
so it holds for the student's code and everything that code starts. The
program is assembled here (a few dozen instructions: no library to find at
run time), the way Flatpak and the Chromium sandbox filter:

1. the processor architecture must be this machine's (``AUDIT_ARCH_*``):
   a call through another ABI (32-bit ``int 0x80`` on x86-64) kills the
   process, and the x32 ABI's numbers are refused;
2. :data:`REFUSED` calls fail with ``EPERM``: ways out of the sandbox or
   into the kernel that game code never needs;
3. ``socket`` succeeds only for IPv4 and IPv6 (an empty network namespace:
   nothing to reach); every other family, ``AF_UNIX`` first, fails with
   ``EAFNOSUPPORT``, so a socket file of the user's (tmux, ssh-agent, the X
   server, D-Bus) cannot be connected to even if one were in view;
   ``socketpair`` only makes a connected stream pair (a datagram pair could be
   pointed at a socket file);
4. ``clone`` with a namespace flag fails; ``clone3`` (whose flags the filter
   cannot read) says ``ENOSYS``, so the C library falls back to ``clone``;
5. ``ioctl`` ``TIOCSTI`` and ``TIOCLINUX`` (typing into a terminal) fail.

docs/sandbox.md lists the calls; ``tests/engine/test_sandbox_seccomp.py``
checks the numbers against libseccomp where it is installed, and every rule
from inside a real sandbox.
"""

from __future__ import annotations

import platform
import struct
import sys
from collections.abc import Iterator

# -- the parts of a classic BPF instruction (linux/filter.h, linux/bpf_common.h) ------------------
LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS: load 32 bits of struct seccomp_data at offset k
AND_K = 0x54  # BPF_ALU | BPF_AND | BPF_K: A &= k
JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K: A == k ?
JGE_K = 0x35  # BPF_JMP | BPF_JGE | BPF_K: A >= k ?
JSET_K = 0x45  # BPF_JMP | BPF_JSET | BPF_K: A & k != 0 ?
RET_K = 0x06  # BPF_RET | BPF_K: the verdict k

# -- verdicts (linux/seccomp.h) and errors -----------------------------------------------------------
ALLOW = 0x7FFF0000
KILL_PROCESS = 0x80000000
ERRNO = 0x00050000  # | errno: the call fails with that error
EPERM, ENOSYS, EAFNOSUPPORT = 1, 38, 97

# -- struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6] (little-endian) ---
NR, ARCH = 0, 4


def _argument(index: int) -> int:
    """Offset of the low 32 bits of argument ``index`` (the part an ``int`` argument lives in)."""
    return 16 + 8 * index


AF_INET, AF_INET6 = 2, 10
SOCK_STREAM, SOCK_TYPE_MASK = 1, 0xF  # the type without SOCK_NONBLOCK / SOCK_CLOEXEC
TIOCSTI, TIOCLINUX = 0x5412, 0x541C  # push a character into a terminal's input; the console's extras
#: CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET
NAMESPACE_FLAGS = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000
X32_BIT = 0x40000000  # x86-64: system-call numbers of the x32 ABI carry this bit

#: Calls that fail with EPERM, and why a student's code is better off without them.
REFUSED = {
    "ptrace": "read or steer another process",
    "process_vm_readv": "read another process's memory",
    "process_vm_writev": "write another process's memory",
    "pidfd_getfd": "take another process's open files",
    "kcmp": "compare other processes' kernel objects",
    "mount": "change what files are in view",
    "umount2": "change what files are in view",
    "pivot_root": "change what files are in view",
    "chroot": "change what files are in view",
    "move_mount": "change what files are in view",
    "open_tree": "change what files are in view",
    "fsopen": "change what files are in view",
    "fsconfig": "change what files are in view",
    "fsmount": "change what files are in view",
    "fspick": "change what files are in view",
    "mount_setattr": "change what files are in view",
    "unshare": "new namespaces",
    "setns": "enter other namespaces",
    "keyctl": "the kernel's key store",
    "add_key": "the kernel's key store",
    "request_key": "the kernel's key store",
    "bpf": "load programs into the kernel",
    "perf_event_open": "performance counters (a window on other processes)",
    "userfaultfd": "a tool of kernel exploits",
    "io_uring_setup": "io_uring, whose operations the filter cannot see",
    "io_uring_enter": "io_uring, whose operations the filter cannot see",
    "io_uring_register": "io_uring, whose operations the filter cannot see",
    "init_module": "kernel modules",
    "finit_module": "kernel modules",
    "delete_module": "kernel modules",
    "kexec_load": "replace the kernel",
    "kexec_file_load": "replace the kernel",
    "reboot": "restart the machine",
    "swapon": "swap space",
    "swapoff": "swap space",
    "syslog": "the kernel's log",
    "acct": "process accounting",
    "quotactl": "disk quotas",
    "quotactl_fd": "disk quotas",
    "name_to_handle_at": "open files by handle, past the folders in view",
    "open_by_handle_at": "open files by handle, past the folders in view",
    "lookup_dcookie": "kernel profiling",
    "uselib": "an old way to load code",
    "memfd_create": "memory files outside the memory limit",
    "memfd_secret": "memory files outside the memory limit",
    "shmget": "shared memory that outlives the process, outside the memory limit",
}

#: System-call numbers (from the kernel's tables; the test checks them against libseccomp).
_X86_64 = {
    "ptrace": 101, "process_vm_readv": 310, "process_vm_writev": 311, "pidfd_getfd": 438, "kcmp": 312,
    "mount": 165, "umount2": 166, "pivot_root": 155, "chroot": 161, "move_mount": 429, "open_tree": 428,
    "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442, "unshare": 272,
    "setns": 308, "keyctl": 250, "add_key": 248, "request_key": 249, "bpf": 321, "perf_event_open": 298,
    "userfaultfd": 323, "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
    "init_module": 175, "finit_module": 313, "delete_module": 176, "kexec_load": 246, "kexec_file_load": 320,
    "reboot": 169, "swapon": 167, "swapoff": 168, "syslog": 103, "acct": 163, "quotactl": 179,
    "quotactl_fd": 443, "name_to_handle_at": 303, "open_by_handle_at": 304, "lookup_dcookie": 212,
    "uselib": 134, "memfd_create": 319, "memfd_secret": 447, "shmget": 29,
    "socket": 41, "socketpair": 53, "ioctl": 16, "clone": 56, "clone3": 435,
}  # fmt: skip
_AARCH64 = {
    "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271, "pidfd_getfd": 438, "kcmp": 272,
    "mount": 40, "umount2": 39, "pivot_root": 41, "chroot": 51, "move_mount": 429, "open_tree": 428,
    "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442, "unshare": 97,
    "setns": 268, "keyctl": 219, "add_key": 217, "request_key": 218, "bpf": 280, "perf_event_open": 241,
    "userfaultfd": 282, "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
    "init_module": 105, "finit_module": 273, "delete_module": 106, "kexec_load": 104, "kexec_file_load": 294,
    "reboot": 142, "swapon": 224, "swapoff": 225, "syslog": 116, "acct": 89, "quotactl": 60,
    "quotactl_fd": 443, "name_to_handle_at": 264, "open_by_handle_at": 265, "lookup_dcookie": 18,
    "memfd_create": 279, "memfd_secret": 447, "shmget": 194,  # no uselib on arm64
    "socket": 198, "socketpair": 199, "ioctl": 29, "clone": 220, "clone3": 435,
}  # fmt: skip

#: machine name -> (AUDIT_ARCH value, system-call numbers); little-endian 64-bit Linux only.
ARCHITECTURES = {
    "x86_64": (0xC000003E, _X86_64),  # AUDIT_ARCH_X86_64 = EM_X86_64 | 64-bit | little-endian
    "aarch64": (0xC00000B7, _AARCH64),  # AUDIT_ARCH_AARCH64 = EM_AARCH64 | 64-bit | little-endian
}


def machine() -> str:
    """This machine's architecture as the table names it (``arm64`` is ``aarch64``)."""
    name = platform.machine().lower()
    return {"amd64": "x86_64", "arm64": "aarch64"}.get(name, name)


def program(arch: str | None = None) -> bytes | None:
    """The filter for ``arch`` (this machine's by default) as ``struct sock_filter`` bytes, or None without one."""
    if not sys.platform.startswith("linux") or sys.byteorder != "little":
        return None
    name = arch or machine()
    if name not in ARCHITECTURES:
        return None
    audit_arch, numbers = ARCHITECTURES[name]
    return _assemble(list(_instructions(audit_arch, numbers, x32=name == "x86_64")))


Instruction = tuple[int, int, str | None, str | None]  # code, k, label if true, label if false; or a label


def _instructions(audit_arch: int, numbers: dict[str, int], x32: bool) -> Iterator[Instruction | str]:
    yield (LD_W_ABS, ARCH, None, None)
    yield (JEQ_K, audit_arch, None, "kill")  # another ABI's numbers mean other calls: never guess
    yield (LD_W_ABS, NR, None, None)
    if x32:
        yield (JGE_K, X32_BIT, "deny", None)
    yield (JEQ_K, numbers["socket"], "socket", None)
    yield (JEQ_K, numbers["socketpair"], "socketpair", None)
    yield (JEQ_K, numbers["ioctl"], "ioctl", None)
    yield (JEQ_K, numbers["clone"], "clone", None)
    yield (JEQ_K, numbers["clone3"], "nosys", None)
    for name in REFUSED:
        if name in numbers:
            yield (JEQ_K, numbers[name], "deny", None)
    yield (RET_K, ALLOW, None, None)
    yield "socket"  # socket(domain, type, protocol): IPv4 and IPv6 only
    yield (LD_W_ABS, _argument(0), None, None)
    yield (JEQ_K, AF_INET, "allow", None)
    yield (JEQ_K, AF_INET6, "allow", None)
    yield (RET_K, ERRNO | EAFNOSUPPORT, None, None)
    yield "socketpair"  # socketpair(domain, type, protocol, sv): a connected stream pair only
    yield (LD_W_ABS, _argument(1), None, None)
    yield (AND_K, SOCK_TYPE_MASK, None, None)
    yield (JEQ_K, SOCK_STREAM, "allow", "deny")
    yield "ioctl"  # ioctl(fd, request, ...): no typing into a terminal
    yield (LD_W_ABS, _argument(1), None, None)
    yield (JEQ_K, TIOCSTI, "deny", None)
    yield (JEQ_K, TIOCLINUX, "deny", "allow")
    yield "clone"  # clone(flags, ...) on both architectures: threads and processes, no namespaces
    yield (LD_W_ABS, _argument(0), None, None)
    yield (JSET_K, NAMESPACE_FLAGS, "deny", "allow")
    yield "allow"
    yield (RET_K, ALLOW, None, None)
    yield "deny"
    yield (RET_K, ERRNO | EPERM, None, None)
    yield "nosys"
    yield (RET_K, ERRNO | ENOSYS, None, None)
    yield "kill"
    yield (RET_K, KILL_PROCESS, None, None)


def _assemble(listing: list[Instruction | str]) -> bytes:
    """``struct sock_filter {u16 code; u8 jt; u8 jf; u32 k}`` for each instruction, labels made into skips."""
    places: dict[str, int] = {}
    code: list[Instruction] = []
    for item in listing:
        if isinstance(item, str):
            places[item] = len(code)
        else:
            code.append(item)

    def skip(at: int, label: str | None) -> int:
        if label is None:
            return 0  # the next instruction
        distance = places[label] - at - 1
        assert 0 <= distance <= 255, f"jump to {label} out of reach"  # BPF jumps only forward, by a byte
        return distance

    return b"".join(
        struct.pack("=HBBI", op, skip(at, yes), skip(at, no), k) for at, (op, k, yes, no) in enumerate(code)
    )
