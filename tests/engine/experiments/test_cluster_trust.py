"""``--cluster`` against real Dask processes: the docs' recipe works, every failure is one line, and a
hostile worker cannot run code in the client.

Everything listens on 127.0.0.1 only, on free ports. Each scheduler and worker is started in a session
of its own and its whole process group is killed at the end; the tests check in /proc that none survives.
"""

from __future__ import annotations

import contextlib
import csv
import os
import pickle
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.errors import EngineError
from engine.experiments import executors
from engine.experiments.executors import (
    NotLoaded,
    RemoteError,
    UnloadablePickle,
    cluster_address,
    data_only_loads,
    open_executor,
    plain_data,
)
from engine.validate import shown
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[3]

#: What a hostile pickle runs when it is loaded: it leaves ``ran-in-PID`` in $HOSTILE_MARKERS.
PAYLOAD = (
    "import os\n"
    "d = os.environ.get('HOSTILE_MARKERS')\n"
    "d and open(os.path.join(d, 'ran-in-%d' % os.getpid()), 'w').close()\n"
)


class _Evil:
    def __reduce__(self):
        return (exec, (PAYLOAD,))


EVIL = pickle.dumps(_Evil())

#: A worker preload (``dask worker --preload FILE``) that attacks the client, in the way $HOSTILE_MARKERS/mode says.
HOSTILE_PRELOAD = f'''
"""A hostile Dask worker for the tests: its answers carry pickles that run code when loaded."""
import os
from pathlib import Path

PAYLOAD = {PAYLOAD!r}


class Evil:
    def __reduce__(self):
        return (exec, (PAYLOAD,))


def _mode():
    return Path(os.environ["HOSTILE_MARKERS"], "mode").read_text().strip()


def dask_setup(worker):
    import pickle

    import distributed.worker
    import distributed.worker_state_machine as state_machine
    from distributed.protocol import to_serialize

    import engine.tasks as runner

    evil = pickle.dumps(Evil())
    real_run = runner._run

    def hostile_run(task):
        mode = _mode()
        if mode == "exception":
            raise ValueError("replaced by the hostile error message")
        rows = real_run(task)
        if mode == "side-channels":
            worker.log_event("warn", {{"message": evil, "category": evil}})
            worker.log_event("print", {{"args": ("a hostile print",)}})
        return Evil() if mode == "result" else rows

    runner._run = hostile_run  # the tasks name engine.tasks._run: they get this one

    real_error_message = distributed.worker.error_message

    def error_message(exception, status="error"):
        message = real_error_message(exception, status)
        message["exception"] = to_serialize(evil)
        message["traceback"] = to_serialize(evil)
        return message

    distributed.worker.error_message = error_message

    real_get_data = worker.handlers["get_data"]

    async def get_data(comm, keys=(), who=None, serializers=None):
        if _mode() == "result" and not any("probe" in str(key) for key in keys):
            serializers = None  # pickle, whatever the client asked for (msgpack)
        return await real_get_data(comm, keys=keys, who=who, serializers=serializers)

    worker.handlers["get_data"] = get_data

    real_finished = state_machine.WorkerState._get_task_finished_msg

    def finished(self, ts, run_id, stimulus_id):
        message = real_finished(self, ts, run_id, stimulus_id)
        if _mode() == "side-channels":
            message.type = evil  # the client loads a result's type with pickle
        return message

    state_machine.WorkerState._get_task_finished_msg = finished
'''


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _process_groups_alive(groups: set[int]) -> list[int]:
    """The processes of this machine whose process group is one of ``groups``, read from /proc."""
    alive = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if fields[0] != "Z" and int(fields[2]) in groups:
            alive.append(int(entry.name))
    return alive


class _Processes:
    """Dask processes of one test, each the leader of its own session and process group."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.started: list[subprocess.Popen[bytes]] = []

    def start(self, name: str, argv: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
        log = (self.logs / f"{name}.log").open("wb")
        process = subprocess.Popen(
            argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True
        )
        log.close()
        self.started.append(process)
        return process

    def stop(self) -> None:
        groups = {process.pid for process in self.started}
        for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
            for group in groups:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(group, sig)
            deadline = time.monotonic() + grace
            while _process_groups_alive(groups) and time.monotonic() < deadline:
                for process in self.started:
                    process.poll()  # reap the leaders
                time.sleep(0.1)
        for process in self.started:
            process.wait(timeout=5)
        assert not _process_groups_alive(groups), "a Dask process of the test survived"


@pytest.fixture
def processes(tmp_path: Path) -> Iterator[_Processes]:
    started = _Processes(tmp_path)
    try:
        yield started
    finally:
        started.stop()


def _env(**extra: str) -> dict[str, str]:
    """The environment the docs give: PYTHONPATH is the project's folder."""
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DASK_", "HOSTILE_"))}
    env.update(PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1", **extra)
    return env


def _start_scheduler(processes: _Processes, port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    # docs/cluster.md: python -m dask scheduler --host 127.0.0.1 --port 8786 --no-dashboard
    argv = [sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"]
    return processes.start("scheduler", argv, env)


def _wait_until_listening(port: int, process: subprocess.Popen[bytes], seconds: float = 60) -> None:
    """Until something accepts on 127.0.0.1:port (the scheduler is up), at most ``seconds``."""

    def listening() -> bool:
        assert process.poll() is None, "the scheduler stopped"
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", port)) == 0

    wait_until(listening, seconds, f"something to listen on port {port}", every=0.2)


def _start_worker(processes: _Processes, port: int, env: dict[str, str], *extra: str) -> subprocess.Popen[bytes]:
    # docs/cluster.md: python -m dask worker tcp://127.0.0.1:8786 --host 127.0.0.1 --nworkers 1 --nthreads 1 ...
    argv = [sys.executable, "-m", "dask", "worker", f"tcp://127.0.0.1:{port}", "--host", "127.0.0.1"]
    argv += ["--nworkers", "1", "--nthreads", "1", "--no-dashboard", *extra]
    return processes.start("worker", argv, env)


def _engine(args: list[str], env: dict[str, str], timeout: float = 120) -> tuple[int, str, str, int]:
    """``python -m engine ARGS`` in its own process: status, stdout, stderr and its pid."""
    process = subprocess.Popen(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        out, err = process.communicate(timeout=timeout)
    finally:
        process.kill()
        process.wait()
    return process.returncode, out, err, process.pid


def _tournament(address: str, out: Path) -> list[str]:
    """The command line of a two-game tournament on the cluster at ``address``, rows to ``out``."""
    return ["tournament", "random", "greedy", "--games", "2", "--no-progress", "--cluster", address, "--out", str(out)]


def _untimed(path: Path) -> list[dict[str, str]]:
    with path.open() as source:
        return [{k: v for k, v in row.items() if "_ms" not in k} for row in csv.DictReader(source)]


# --- addresses: one line before anything connects -----------------------------------------------------------


@pytest.mark.parametrize(
    "address",
    [
        "",
        "   ",
        "ucx://127.0.0.1:8786",
        "inproc://127.0.0.1/1/2",
        "ws://127.0.0.1:8786",
        "garbage",
        "tcp://127.0.0.1",
        "127.0.0.1:",
        "tcp://:8786",
        "tcp://127.0.0.1:0",
        "tcp://127.0.0.1:99999",
        "tcp://127.0.0.1:8786/path",
        "tcp://[zz]:8786",
        "tcp://user@127.0.0.1:8786",
        "tcp://127.0.0.1:87\n86",
        "tcp://-bad-:8786",
    ],
)
def test_a_bad_address_is_one_line(cli, tmp_path, address):
    status, out, err = cli(["tournament", "random", "greedy", "--cluster", address, "--out", str(tmp_path / "out")])
    assert status == 2 and not out
    assert err.startswith("error: argument --cluster: ") and len(err.strip().splitlines()) == 1
    assert shown(address) in err
    assert not (tmp_path / "out").exists()  # refused before the output folder was made


def test_tls_without_certificates_is_one_line(cli, tmp_path, monkeypatch):
    for name in list(os.environ):
        if name.startswith("DASK_DISTRIBUTED__COMM__TLS"):
            monkeypatch.delenv(name)
    status, _, err = cli(_tournament("tls://127.0.0.1:8786", tmp_path))
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "tls://127.0.0.1:8786" in err and "certificates" in err


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("tcp://127.0.0.1:8786", "tcp://127.0.0.1:8786"),
        ("127.0.0.1:8786", "tcp://127.0.0.1:8786"),
        (" TCP://Scheduler.example:8786 ", "tcp://Scheduler.example:8786"),
        ("tcp://[::1]:8786", "tcp://[::1]:8786"),
        ("tls://10.0.0.2:8786", "tls://10.0.0.2:8786"),
    ],
)
def test_good_addresses_are_normalised(text, address):
    assert cluster_address(text) == address


def test_the_empty_address_is_an_error_from_python_too():
    with pytest.raises(EngineError, match="no address"), open_executor(cluster=""):
        pass


@pytest.mark.parametrize("value", ["abc", "0", "-1", "nan", "inf", "3601"])
def test_a_bad_timeout_is_one_line(cli, tmp_path, monkeypatch, value):
    monkeypatch.setenv(executors.CLUSTER_TIMEOUT_VARIABLE, value)
    status, _, err = cli(["tournament", "random", "greedy", "--cluster", "tcp://127.0.0.1:1", "--out", str(tmp_path)])
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert err.startswith(f"error: {executors.CLUSTER_TIMEOUT_VARIABLE}=")


# --- what comes back is data --------------------------------------------------------------------------------


def test_plain_data_keeps_json_and_refuses_the_rest():
    assert plain_data(({"a": 1, "b": (1.5, None, True, "x")},)) == [{"a": 1, "b": [1.5, None, True, "x"]}]
    for bad in [b"bytes", {1: "x"}, [object()], {"a": {1, 2}}, _Evil()]:
        with pytest.raises(EngineError):
            plain_data(bad)
    deep: list = []
    for _ in range(40):
        deep = [deep]
    with pytest.raises(EngineError, match="nested"):
        plain_data(deep)


def test_a_hostile_pickle_runs_nothing_here(tmp_path, monkeypatch):
    monkeypatch.setenv("HOSTILE_MARKERS", str(tmp_path))
    # The payload is live: the standard pickle, in a process of its own, runs it.
    subprocess.run(
        [sys.executable, "-c", "import pickle, sys; pickle.loads(bytes.fromhex(sys.argv[1]))", EVIL.hex()],
        check=True,
        env={**os.environ, "HOSTILE_MARKERS": str(tmp_path)},
        timeout=60,
    )
    assert len(list(tmp_path.glob("ran-in-*"))) == 1
    with pytest.raises(UnloadablePickle, match=r"builtins\.exec"):
        data_only_loads(EVIL)
    inert = data_only_loads(pickle.dumps([1, "two", _Evil(), {"k": (3.0, None)}]))
    assert inert[0] == 1 and isinstance(inert[2], NotLoaded) and inert[3] == {"k": (3.0, None)}
    with pytest.raises(UnloadablePickle):
        data_only_loads(pickle.dumps(os.system))  # a function by name: not loaded either
    with pytest.raises(UnloadablePickle):
        data_only_loads(b"not a pickle")
    assert not list(tmp_path.glob(f"ran-in-{os.getpid()}"))


def test_exceptions_from_the_cluster_keep_their_class_and_message():
    from distributed.core import clean_exception, error_message

    def fail() -> None:
        try:
            raise ModuleNotFoundError("No module named 'engine'")
        except ModuleNotFoundError as exc:
            raise RuntimeError("Error during deserialization of the task graph") from exc

    try:
        fail()
    except RuntimeError as exc:
        message = error_message(exc)  # what a worker or the scheduler sends, tblib and all
    exception = data_only_loads(message["exception"].data)
    assert type(exception) is RuntimeError and "deserialization" in str(exception)
    assert isinstance(exception.__cause__, ModuleNotFoundError)
    assert data_only_loads(message["traceback"].data) is None  # tracebacks are not rebuilt
    assert "No module named 'engine'; in RuntimeError" in executors._reason(exception)

    class Custom(Exception):
        pass

    exception = data_only_loads(error_message(Custom("of a class not loaded here"))["exception"].data)
    assert isinstance(exception, RemoteError) and "of a class not loaded here" in str(exception)
    with executors._data_only_pickles():  # Dask's own cleaning of an exception, as the client does it
        _, exception, traceback = clean_exception(EVIL, EVIL)
    assert traceback is None and isinstance(exception, Exception)


def test_the_guard_is_lifted_when_the_client_closes():
    import distributed
    import distributed.client
    import distributed.protocol.pickle

    before = (distributed.protocol.pickle.loads, distributed.client.loads, distributed.Client._default_event_handlers)
    with executors._data_only_pickles(), executors._data_only_pickles():
        assert distributed.protocol.pickle.loads is data_only_loads
        assert distributed.client.loads is data_only_loads
        assert distributed.Client._default_event_handlers == {}
    after = (distributed.protocol.pickle.loads, distributed.client.loads, distributed.Client._default_event_handlers)
    assert after == before


# --- peers that do not help ----------------------------------------------------------------------------------


def test_a_silent_peer_is_one_line_within_the_timeout(tmp_path):
    """A listener that accepts and never says a word (Dask waits for its handshake without a limit)."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        for _ in range(600):  # at most about 2 minutes
            if stop.is_set():
                return
            with contextlib.suppress(OSError):
                accepted.append(listener.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    port = listener.getsockname()[1]
    try:
        start = time.monotonic()
        status, out, err, _ = _engine(
            _tournament(f"tcp://127.0.0.1:{port}", tmp_path),
            _env(ENGINE_CLUSTER_TIMEOUT="2"),
            timeout=60,
        )
        elapsed = time.monotonic() - start
    finally:
        stop.set()
        thread.join(5)
        for connection in accepted:
            connection.close()
        listener.close()
    assert accepted, "the client never connected"
    assert status == 2 and not out and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"error: cannot use the Dask scheduler at tcp://127.0.0.1:{port}: no answer within 2 s")
    assert elapsed < 30  # the process's start (imports) and the 2 s, not an endless wait


def test_a_closed_port_is_one_line_within_the_timeout(cli, tmp_path, monkeypatch):
    monkeypatch.setenv(executors.CLUSTER_TIMEOUT_VARIABLE, "1")
    port = _free_port()  # nothing listens there: Dask retries until the timeout
    start = time.monotonic()
    status, out, err = cli(_tournament(f"tcp://127.0.0.1:{port}", tmp_path))
    assert status == 2 and not out and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"error: cannot use the Dask scheduler at tcp://127.0.0.1:{port}: no connection within 1 s")
    assert time.monotonic() - start < 20  # a bound on waiting for ever, not a speed test
    # The cause named is Dask's last attempt: refused, or cancelled when the time ran out mid-attempt (loaded machine).
    assert "ConnectionRefusedError" in err or "CancelledError" in err, err


def test_a_scheduler_without_workers_is_one_line(processes, tmp_path):
    port = _free_port()
    _wait_until_listening(port, _start_scheduler(processes, port, _env()))
    status, out, err, _ = _engine(
        _tournament(f"tcp://127.0.0.1:{port}", tmp_path / "out"),
        _env(ENGINE_CLUSTER_TIMEOUT="3"),
    )
    assert status == 2 and not out and len(err.strip().splitlines()) == 1, err
    assert f"the Dask scheduler at tcp://127.0.0.1:{port} has no workers after 3 s" in err


# --- the docs' recipe, and a hostile worker ------------------------------------------------------------------


@pytest.mark.slow
def test_the_docs_recipe_runs_a_tournament(processes, tmp_path):
    port = _free_port()
    env = _env()
    _start_scheduler(processes, port, env)
    _start_worker(processes, port, env)
    same = ["tournament", "random", "greedy", "--games", "2", "--seed", "5", "--no-progress"]
    status, out, err, _ = _engine(
        [*same, "--cluster", f"tcp://127.0.0.1:{port}", "--out", str(tmp_path / "dask")],
        _env(ENGINE_CLUSTER_TIMEOUT="90"),
    )
    assert status == 0, err
    assert "elo" in out and "greedy" in out
    status, _, err, _ = _engine([*same, "--jobs", "1", "--out", str(tmp_path / "here")], _env())
    assert status == 0, err
    assert _untimed(tmp_path / "dask" / "games.csv") == _untimed(tmp_path / "here" / "games.csv")


def test_a_hostile_worker_runs_no_code_in_the_client(processes, tmp_path):
    markers = tmp_path / "markers"
    markers.mkdir()
    preload = tmp_path / "hostile_worker.py"
    preload.write_text(HOSTILE_PRELOAD)
    (markers / "mode").write_text("result")
    port = _free_port()
    env = _env(HOSTILE_MARKERS=str(markers))
    scheduler = _start_scheduler(processes, port, env)
    _start_worker(processes, port, env, "--preload", str(preload))
    address = f"tcp://127.0.0.1:{port}"
    for mode, expected in [
        ("result", "sent back a result that is not plain data"),
        ("exception", "a task failed on the Dask cluster"),
        ("side-channels", None),
    ]:
        (markers / "mode").write_text(mode)
        status, out, err, pid = _engine(
            _tournament(address, tmp_path / mode),
            _env(HOSTILE_MARKERS=str(markers), ENGINE_CLUSTER_TIMEOUT="90"),
        )
        assert not (markers / f"ran-in-{pid}").exists(), f"{mode}: the client ran the worker's code"
        assert not (markers / f"ran-in-{scheduler.pid}").exists(), f"{mode}: the scheduler ran the worker's code"
        if expected is None:  # a result's type and the warn/print events: ignored, the games are fine
            assert status == 0, err
            assert "elo" in out and "a hostile print" not in out + err
        else:
            assert status == 2 and not out, (mode, err)
            assert len(err.strip().splitlines()) == 1, (mode, err)
            assert err.startswith("error: ") and expected in err and address in err, (mode, err)


@pytest.mark.slow  # an extra beside the tcp:// recipe: 10 to 20 s
@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command to make a certificate")
def test_tls_with_certificates_runs_a_tournament(processes, tmp_path):
    """docs/cluster.md's tls:// line: certificates in the scheduler's and worker's flags, the client's in Dask's
    variables; a tcp:// client of that scheduler is one line."""
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out", str(cert)),
            *("-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    flags = ["--tls-ca-file", str(cert), "--tls-cert", str(cert), "--tls-key", str(key)]
    port = _free_port()
    env = _env()
    argv = [sys.executable, "-m", "dask", "scheduler", "--protocol", "tls", "--host", "127.0.0.1"]
    processes.start("scheduler", [*argv, "--port", str(port), "--no-dashboard", *flags], env)
    argv = [sys.executable, "-m", "dask", "worker", f"tls://127.0.0.1:{port}", "--host", "127.0.0.1"]
    processes.start("worker", [*argv, "--nworkers", "1", "--nthreads", "1", "--no-dashboard", *flags], env)
    client_env = _env(
        ENGINE_CLUSTER_TIMEOUT="90",
        DASK_DISTRIBUTED__COMM__TLS__CA_FILE=str(cert),
        DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT=str(cert),
        DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY=str(key),
    )
    status, out, err, _ = _engine(_tournament(f"tls://127.0.0.1:{port}", tmp_path / "tls"), client_env)
    assert status == 0, err
    assert "elo" in out
    plain = _tournament(f"tcp://127.0.0.1:{port}", tmp_path / "tcp")
    status, out, err, _ = _engine(plain, _env(ENGINE_CLUSTER_TIMEOUT="5"))
    assert status == 2 and not out and len(err.strip().splitlines()) == 1, err
    assert f"cannot use the Dask scheduler at tcp://127.0.0.1:{port}: " in err
