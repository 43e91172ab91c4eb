"""Where tasks run: here, in local processes (``--jobs``), or on a Dask cluster (``--cluster``).

Every executor is a :class:`concurrent.futures.Executor`, so the runner does
not care which. ``distributed`` is an optional extra (``pip install -r
requirements-cluster.txt``); docs/cluster.md says how to start a scheduler and
workers that can import this project.

**Trust.** The scheduler and the workers run this project's code (they unpickle
the tasks) and see every task and result: they must be trusted, and so must
the network between them and this process. This process, the client, goes
further and does not run code that the cluster sends back:

- results come back as msgpack, never as pickle (``deserializers=["msgpack"]``:
  Dask then asks the scheduler and the workers for msgpack), and each one is
  checked to be plain JSON-like data (:func:`plain_data`) before it is used;
- the other pickles that Dask's client loads on its own (a failed task's
  exception and traceback, a result's type, ``__Pickled__`` frames) go through
  a data-only unpickler (:func:`data_only_loads`) while the client is open:
  it builds containers, numbers, strings and exception classes, and every
  other global a pickle names (``os.system``, ``builtins.exec``, ...) becomes
  an inert :class:`NotLoaded` that runs nothing;
- the ``print`` and ``warn`` events that workers may publish are not
  subscribed to (Dask's own handler unpickles them with the standard pickle).

Dask's client offers no switch for the last two, hence the patch of
``distributed.protocol.pickle.loads`` and ``distributed.client.loads`` for as
long as a cluster executor is open: this process must then not host a Dask
scheduler or worker of its own. A hostile worker can still fail or stall a run.

Every failure to use the cluster is one :class:`EngineError` line naming the
address and the reason: a bad address, a scheduler that does not answer, no
worker, a worker that cannot import this project, a result that is not data.
"""

from __future__ import annotations

import builtins
import io
import ipaddress
import logging
import math
import multiprocessing
import os
import pickle
import re
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, InvalidStateError, ProcessPoolExecutor
from contextlib import contextmanager, suppress
from typing import Any

from engine.errors import EngineError
from engine.validate import shown

#: Seconds that ``--cluster`` may take to reach the scheduler, see a worker there
#: and get a first task back; :data:`CLUSTER_TIMEOUT_VARIABLE` overrides it.
CLUSTER_TIMEOUT = 30.0
#: The environment variable that sets the cluster timeout (seconds, more than 0, at most 3600).
CLUSTER_TIMEOUT_VARIABLE = "ENGINE_CLUSTER_TIMEOUT"
#: How long closing the client may take before this process goes on without it (seconds).
CLOSE_TIMEOUT = 5.0
#: How long a local worker told to stop may take before it is killed (seconds).
STOP_SECONDS = 5.0
#: The longest piece of a remote message that goes into an error line.
MAX_REASON = 300


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _ignore_interrupt() -> None:
    # Ctrl-C reaches every process of the terminal's group: only the parent handles it (see _stop_now).
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_now(executor: ProcessPoolExecutor) -> None:
    """After Ctrl-C or an error: cancel what waits and end the workers at once.

    Their games in progress are not waited for (nobody would collect them; a resumed run plays them
    again). A polite ``shutdown(wait=True)`` here hung in about half of the runs interrupted on this
    machine (Python 3.11): the workers never received the pool's stop signal while the parent joined them.
    A student's process under a worker ends with it (its parent-death signal).
    """
    processes = list((executor._processes or {}).values())  # (no public list of the workers before Python 3.14)
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(STOP_SECONDS)
        if process.is_alive():
            process.kill()
            process.join()


@contextmanager
def open_executor(jobs: int | None = None, cluster: str | None = None) -> Iterator[Executor | None]:
    """The executor for ``--jobs``/``--cluster``; None means "run here, in order" (one job).

    ``cluster`` None runs locally; any string is a scheduler's address (the
    empty string is an error, not "run here"). The cluster is checked before
    this yields: reachable, with a worker, able to run this project's tasks,
    all within :func:`cluster_timeout` seconds.
    """
    if cluster is not None:
        address = cluster_address(cluster)
        with _cluster_client(address, cluster_timeout()) as client:
            yield ClusterExecutor(client, address)
        return
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise EngineError("--jobs must be at least 1")
    if jobs == 1:
        yield None
        return
    context = multiprocessing.get_context("spawn")  # no fork of a process with threads (tqdm, numba)
    executor = ProcessPoolExecutor(jobs, mp_context=context, initializer=_ignore_interrupt)
    try:
        yield executor
    except BaseException:
        _stop_now(executor)
        raise
    executor.shutdown(wait=True, cancel_futures=True)


# --- the address and the timeout ----------------------------------------------------------------

_ADDRESS = re.compile(r"(?:\[(?P<ipv6>[^\]]*)\]|(?P<host>[^:]*)):(?P<port>[^:]*)")
_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]{0,251}[A-Za-z0-9])?")
_EXAMPLE = "give the scheduler's address as tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786 (docs/cluster.md)"


def cluster_address(text: str) -> str:
    """``--cluster``'s address as ``tcp://HOST:PORT`` or ``tls://HOST:PORT``, or one EngineError line.

    Checked before anything connects: Dask answers an unknown scheme, a
    missing port or a stray character with a traceback or a long wait.
    ``HOST:PORT`` alone means ``tcp://HOST:PORT``, as it does for Dask.
    """
    name = shown(text)
    address = text.strip()
    if not address:
        raise EngineError(f"--cluster {name}: no address; leave --cluster out to run here, or {_EXAMPLE}")
    if any(char.isspace() or not char.isprintable() or not char.isascii() for char in address):
        raise EngineError(f"--cluster {name}: an address has no spaces, control or non-ASCII characters; {_EXAMPLE}")
    scheme, separator, rest = address.partition("://")
    if not separator:
        scheme, rest = "tcp", address
    scheme = scheme.lower()
    if scheme not in ("tcp", "tls"):
        raise EngineError(
            f"--cluster {name}: the {scheme}:// protocol is not supported; {_EXAMPLE}, "
            "or tls://HOST:PORT with certificates"
        )
    match = _ADDRESS.fullmatch(rest)
    if match is None:
        reason = "no port" if ":" not in rest or rest.endswith("]") else "not HOST:PORT"
        raise EngineError(f"--cluster {name}: {reason}; {_EXAMPLE}")
    port_text = match["port"]
    if not port_text:
        raise EngineError(f"--cluster {name}: no port; {_EXAMPLE}")
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise EngineError(f"--cluster {name}: the port {shown(port_text)} is not a number from 1 to 65535")
    if match["ipv6"] is not None:
        try:
            host = f"[{ipaddress.IPv6Address(match['ipv6'])}]"
        except ValueError:
            raise EngineError(f"--cluster {name}: {shown(match['ipv6'])} is not an IPv6 address") from None
    else:
        host = match["host"]
        if not host:
            raise EngineError(f"--cluster {name}: no host; {_EXAMPLE}")
        if not _HOST.fullmatch(host):
            raise EngineError(f"--cluster {name}: {shown(host)} is not a host name or an IP address")
    return f"{scheme}://{host}:{int(port_text)}"


def cluster_argument(text: str) -> str:
    """argparse ``type=`` of ``--cluster``: :func:`cluster_address`, its error as argparse's one line."""
    import argparse

    try:
        return cluster_address(text)
    except EngineError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--cluster ")) from None


def cluster_timeout() -> float:
    """The cluster timeout in seconds: :data:`CLUSTER_TIMEOUT`, or :data:`CLUSTER_TIMEOUT_VARIABLE` if set."""
    text = os.environ.get(CLUSTER_TIMEOUT_VARIABLE, "").strip()
    if not text:
        return CLUSTER_TIMEOUT
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and 0 < value <= 3600):
        raise EngineError(f"{CLUSTER_TIMEOUT_VARIABLE}={shown(text)}: give seconds, more than 0 and at most 3600")
    return value


# --- what comes back is data ---------------------------------------------------------------------


def plain_data(value: Any, _depth: int = 0) -> Any:
    """``value`` as JSON-like data (None, bool, int, float, str, lists, dicts with str keys).

    Tuples become lists (msgpack sends lists as tuples). Anything else (an
    object, bytes, a deeper nest than 32) is an EngineError: what a worker sent
    is checked before the runner stores it.
    """
    kind = type(value)
    if value is None or kind in (bool, int, float, str):
        return value
    if _depth >= 32:
        raise EngineError("a result from the cluster is nested too deeply to be plain data")
    if kind in (list, tuple):
        return [plain_data(item, _depth + 1) for item in value]
    if kind is dict:
        plain = {}
        for key, item in value.items():
            if type(key) is not str:
                raise EngineError(f"a result from the cluster has a key that is not a string: {shown(key)}")
            plain[key] = plain_data(item, _depth + 1)
        return plain
    raise EngineError(f"a result from the cluster is not plain data: it holds a {kind.__name__}")


class NotLoaded(Exception):
    """What a global refused by :func:`data_only_loads` becomes: a class whose instances do nothing.

    A pickle names functions and classes by module and name and calls them
    while it loads. Each name outside the data-only list (see
    :class:`_DataOnlyUnpickler`) is replaced by a fresh subclass of this one,
    so ``os.system("...")`` in a pickle builds an inert ``NotLoaded`` holding
    its arguments, and nothing runs.
    """

    origin = "?"

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args)

    def __setstate__(self, state: object) -> None:
        """State from the pickle is ignored."""

    def __str__(self) -> str:
        return f"{self.origin}{self.args!r} (not loaded)"


class RemoteError(Exception):
    """An exception of the cluster whose class is not loaded here: its class name and arguments, as text."""


class UnloadablePickle(TypeError):
    """A pickle from the cluster that is not data (a TypeError: the callers in Dask expect one)."""


_PLAIN_TYPES = frozenset(
    {"bool", "bytearray", "bytes", "complex", "dict", "float", "frozenset", "int", "list", "set", "str", "tuple"}
)


def _exception(
    func: Any,
    args: Any = (),
    cause: Any = None,
    tb: Any = None,
    context: Any = None,
    suppress_context: Any = False,
    notes: Any = None,
) -> BaseException:
    """tblib's ``unpickle_exception`` (how Dask sends exceptions), keeping the class, arguments and cause."""
    if not isinstance(args, tuple):
        args = (args,)
    exception: BaseException
    if isinstance(func, type) and issubclass(func, NotLoaded):
        exception = RemoteError(f"{func.origin}: {', '.join(str(arg) for arg in args)}")
    elif isinstance(func, type) and issubclass(func, BaseException):
        try:
            exception = func(*args)
        except Exception:
            exception = RemoteError(f"{func.__name__}: {', '.join(str(arg) for arg in args)}")
    else:
        exception = RemoteError(f"{getattr(func, '__name__', '?')}: {', '.join(str(arg) for arg in args)}")
    if isinstance(cause, BaseException):
        exception.__cause__ = cause
    return exception


def _exception_with_attrs(
    func: Any,
    attrs: Any,
    cause: Any = None,
    tb: Any = None,
    context: Any = None,
    suppress_context: Any = False,
    notes: Any = None,
    args: Any = (),
) -> BaseException:
    """tblib's ``unpickle_exception_with_attrs``: only the arguments are kept."""
    given = attrs.get("args", args) if isinstance(attrs, dict) else args
    return _exception(func, given, cause)


def _no_traceback(*args: object) -> None:
    """tblib's ``unpickle_traceback``: a remote traceback is not rebuilt here."""
    return None


_TBLIB = {
    ("tblib.pickling_support", "unpickle_exception"): _exception,
    ("tblib.pickling_support", "unpickle_exception_with_attrs"): _exception_with_attrs,
    ("tblib.pickling_support", "unpickle_traceback"): _no_traceback,
}


class _DataOnlyUnpickler(pickle.Unpickler):
    """An unpickler that builds data and exceptions, and nothing that could run code.

    Allowed: the builtin containers, numbers, strings and bytes, every builtin
    exception class and those of :mod:`engine.errors` (their constructors only
    store their arguments), and tblib's exception helpers (replaced by
    :func:`_exception`). Every other name becomes a :class:`NotLoaded` subclass.
    """

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _TBLIB:
            return _TBLIB[module, name]
        if module in ("builtins", "engine.errors"):
            namespace = builtins if module == "builtins" else _engine_errors()
            value = getattr(namespace, name, None) if name.isidentifier() else None
            if module == "builtins" and name in _PLAIN_TYPES:
                return value
            if isinstance(value, type) and issubclass(value, BaseException):
                return value
        return type("NotLoaded", (NotLoaded,), {"origin": f"{module}.{name}", "__module__": __name__})


def _engine_errors() -> Any:
    import engine.errors

    return engine.errors


def data_only_loads(data: Any, *, buffers: Any = ()) -> Any:
    """``pickle.loads`` that builds data only (see :class:`_DataOnlyUnpickler`); what Dask loads while a cluster runs.

    A pickle whose top is a refused name (a call of ``os.system``, a class of
    the worker's) is an :class:`UnloadablePickle`, which Dask's client handles
    as it handles a pickle it cannot load.
    """
    try:
        value = _DataOnlyUnpickler(io.BytesIO(data), buffers=buffers).load()
    except Exception as exc:
        raise UnloadablePickle(f"a pickle from the cluster was not loaded: {type(exc).__name__}: {exc}") from None
    if isinstance(value, NotLoaded) or (isinstance(value, type) and issubclass(value, NotLoaded)):
        raise UnloadablePickle(f"a pickle from the cluster names {value.origin}, which is not loaded")
    return value


_guard_lock = threading.Lock()
_guard_depth = 0
_guard_saved: list[tuple[Any, str, Any]] = []


@contextmanager
def _data_only_pickles() -> Iterator[None]:
    """While open: Dask's client loads pickles with :func:`data_only_loads` and subscribes to no events.

    Process-wide (the patch is of module attributes); nested uses share it.
    """
    global _guard_depth
    import distributed
    import distributed.client
    import distributed.protocol.pickle

    patches: tuple[tuple[Any, str, Any], ...] = (
        (distributed.protocol.pickle, "loads", data_only_loads),
        (distributed.client, "loads", data_only_loads),
        # "print" and "warn" events: Dask's handler for "warn" unpickles them with the standard pickle.
        (distributed.Client, "_default_event_handlers", {}),
    )
    with _guard_lock:
        if _guard_depth == 0:
            for owner, attribute, _ in patches:
                if attribute not in vars(owner):
                    raise EngineError(
                        f"--cluster cannot guard this version of distributed ({distributed.__version__}): "
                        f"{owner.__name__}.{attribute} is gone; see requirements-cluster.txt"
                    )
            for owner, attribute, replacement in patches:
                _guard_saved.append((owner, attribute, vars(owner)[attribute]))
                setattr(owner, attribute, replacement)
        _guard_depth += 1
    try:
        yield
    finally:
        with _guard_lock:
            _guard_depth -= 1
            if _guard_depth == 0:
                for owner, attribute, original in reversed(_guard_saved):
                    setattr(owner, attribute, original)
                _guard_saved.clear()


@contextmanager
def _quiet_dask() -> Iterator[None]:
    """No log lines while the client is open: Dask logs tracebacks on standard error, and every failure
    here is one EngineError line instead (the project itself does not use :mod:`logging`)."""
    previous = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(previous)


# --- the client ----------------------------------------------------------------------------------


def _reason(exc: BaseException) -> str:
    """One line about an exception: its innermost cause first, whitespace folded, cut to :data:`MAX_REASON`."""
    chain = [exc]
    while chain[-1].__cause__ is not None and chain[-1].__cause__ not in chain and len(chain) < 8:
        chain.append(chain[-1].__cause__)
    text = "; in ".join(_one(item) for item in reversed(chain))
    text = " ".join(text.split())
    return text if len(text) <= MAX_REASON else text[: MAX_REASON - 3] + "..."


def _one(exc: BaseException) -> str:
    """``Class: message`` of one exception (a remote one's text as it came)."""
    try:
        message = str(exc)
    except Exception:
        message = repr(getattr(exc, "args", ()))
    if isinstance(exc, (NotLoaded, RemoteError)):
        return message
    if len(exc.args) == 1 and isinstance(exc.args[0], (bytes, bytearray)):  # Dask's stand-in for an unloadable one
        return f"{type(exc).__name__} (a pickle that is not data: not loaded)"
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


def _connect_reason(exc: BaseException, timeout: float) -> str:
    """Why a client could not start: the innermost cause (refused, no such host) or the silence of the peer."""
    root = exc
    for _ in range(8):
        if root.__cause__ is None or root.__cause__ is root:
            break
        root = root.__cause__
    if root is exc and isinstance(exc, TimeoutError):  # the deadline of BoundedClient.start
        return f"no answer within {timeout:g} s (is a Dask scheduler listening there?)"
    if root is not exc and "Timed out" in str(exc):
        return f"no connection within {timeout:g} s ({_one(root)})"
    return _one(root)


def _hint(reason: str) -> str:
    """Where the usual cause of a failing first task is explained."""
    if "No module named 'engine" in reason or "deserialization of the task graph" in reason:
        return (
            "; the scheduler and every worker must be able to import this project's engine package "
            "(start them with PYTHONPATH set to its folder: docs/cluster.md)"
        )
    return ""


def _cluster_probe() -> str:
    """The first task sent to a cluster: it runs only where ``engine`` imports, and its answer is msgpack."""
    return "ok"


@contextmanager
def _cluster_client(address: str, timeout: float) -> Iterator[Any]:
    """A Dask client of the scheduler at ``address``, checked to run a task within ``timeout`` seconds."""
    try:
        import distributed
        from distributed.security import Security
    except ImportError:
        raise EngineError(
            "--cluster needs the Dask 'distributed' package: pip install -r requirements-cluster.txt"
        ) from None
    with _data_only_pickles(), _quiet_dask():
        security = Security()  # TLS certificates come from Dask's configuration (docs/cluster.md)
        if address.startswith("tls://") and not (
            getattr(security, "tls_ca_file", None) and getattr(security, "tls_client_cert", None)
        ):
            raise EngineError(
                f"cannot use the Dask scheduler at {address}: tls:// needs the client's certificates in Dask's "
                "configuration (distributed.comm.tls.ca-file, .client.cert, .client.key; docs/cluster.md)"
            )
        deadline = time.monotonic() + timeout

        class BoundedClient(distributed.Client):
            """A client whose start has a deadline: Dask waits for the scheduler's handshake without one."""

            def start(self, **kwargs: Any) -> None:
                try:
                    # A second more than Dask's own connect timeout, so that its reason (refused, no such host) wins.
                    super().start(callback_timeout=timeout + 1, **kwargs)
                except BaseException:
                    with suppress(Exception):
                        self.close(timeout=CLOSE_TIMEOUT)
                    raise

        try:
            client = BoundedClient(
                address,
                timeout=timeout,
                set_as_default=False,
                security=security,
                deserializers=["msgpack"],  # results as msgpack only, asked of the scheduler and workers
                direct_to_workers=False,  # this process talks to the scheduler alone
                name="connect-four",
            )
        except Exception as exc:
            raise EngineError(f"cannot use the Dask scheduler at {address}: {_connect_reason(exc, timeout)}") from None
        try:
            _check_cluster(client, address, timeout, deadline)
            yield client
        finally:
            with suppress(Exception):
                client.close(timeout=CLOSE_TIMEOUT)


def _check_cluster(client: Any, address: str, timeout: float, deadline: float) -> None:
    """A worker is there and runs a first task, before ``deadline``; one EngineError line otherwise."""
    left = max(deadline - time.monotonic(), 0.01)
    try:
        # Dask's wait_for_workers, bounded as a whole (each of its calls to the scheduler is not).
        client.sync(client._wait_for_workers, 1, timeout=left, callback_timeout=left + 1)
    except Exception:
        raise EngineError(
            f"the Dask scheduler at {address} has no workers after {timeout:g} s "
            f"(start one: docs/cluster.md; {CLUSTER_TIMEOUT_VARIABLE} sets the wait)"
        ) from None
    probe = client.submit(_cluster_probe, pure=False)
    try:
        answer = probe.result(timeout=max(deadline - time.monotonic(), 0.01))
    except TimeoutError:
        raise EngineError(
            f"no worker of the Dask scheduler at {address} ran a first task within {timeout:g} s (a worker "
            f"that cannot import this project's engine package stops at its first task: docs/cluster.md; "
            f"{CLUSTER_TIMEOUT_VARIABLE} sets the wait)"
        ) from None
    except Exception as exc:
        reason = _reason(exc)
        raise EngineError(
            f"the Dask cluster at {address} cannot run this project's tasks: {reason}{_hint(reason)}"
        ) from None
    finally:
        probe.release()
    if answer != "ok":
        raise EngineError(f"the Dask cluster at {address} answered a first task with {shown(answer)}, not 'ok'")


class ClusterExecutor(Executor):
    """``Client.submit`` as an Executor whose futures hold plain data or one EngineError line.

    Each Dask future is relayed to a :class:`concurrent.futures.Future`: its
    result passes :func:`plain_data`; a failed task, a result that cannot be
    read (pickle refused), a task dropped by the scheduler all become an
    :class:`EngineError` naming the address. Cancelling the returned future
    cancels the Dask task.
    """

    def __init__(self, client: Any, address: str) -> None:
        self._client = client
        self._address = address

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        outer: Future[Any] = Future()
        inner = self._client.submit(fn, *args, pure=False, **kwargs)

        def cancel_inner(future: Future[Any]) -> None:
            if future.cancelled():
                with suppress(Exception):
                    inner.cancel()

        outer.add_done_callback(cancel_inner)
        inner.add_done_callback(lambda done: self._relay(done, outer))
        return outer

    def _relay(self, done: Any, outer: Future[Any]) -> None:
        """Runs in Dask's callback thread when the task ends: settles ``outer`` with data or an EngineError."""
        if outer.done():
            return
        value: Any = None
        error: EngineError | None = None
        try:
            if done.status == "finished":
                try:
                    value = plain_data(done.result())
                except EngineError as exc:
                    error = EngineError(f"the Dask cluster at {self._address} sent back {exc}")
                except Exception as exc:
                    error = EngineError(
                        f"the Dask cluster at {self._address} sent back a result that is not plain data "
                        f"({_reason(exc)}); nothing of it was loaded"
                    )
            elif done.status == "cancelled":
                error = EngineError(
                    f"the Dask scheduler at {self._address} dropped a task (did it restart, or lose this client?)"
                )
            else:
                exception = done.exception()
                reason = _reason(exception) if isinstance(exception, BaseException) else "an error that is not data"
                error = EngineError(f"a task failed on the Dask cluster at {self._address}: {reason}{_hint(reason)}")
        except BaseException as exc:
            error = EngineError(f"lost a task of the Dask cluster at {self._address}: {_reason(exc)}")
        with suppress(InvalidStateError):
            if error is None:
                outer.set_result(value)
            else:
                outer.set_exception(error)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Nothing to stop here: :func:`open_executor` closes the client, which releases every task."""
