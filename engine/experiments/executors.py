"""Where tasks run: here, in local processes (``--jobs``), or on a Dask cluster (``--cluster``).

Every executor is a :class:`concurrent.futures.Executor`, so the runner does
not care which. A Dask ``distributed`` client gives one with
``Client.get_executor()``; its workers need this project importable (the same
checkout or package on each machine). ``distributed`` is an optional extra:
``pip install -r requirements-cluster.txt``.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager

from engine.errors import EngineError


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _ignore_interrupt() -> None:
    # Ctrl-C reaches every process of the terminal's group: only the parent
    # handles it (cancelling what has not started), the workers finish their game.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def open_executor(jobs: int | None = None, cluster: str | None = None) -> Iterator[Executor | None]:
    """The executor for ``--jobs``/``--cluster``; None means "run here, in order" (one job)."""
    if cluster:
        try:
            from distributed import Client
        except ImportError:
            raise EngineError(
                "--cluster needs the Dask 'distributed' package: pip install -r requirements-cluster.txt"
            ) from None
        try:
            client = Client(cluster, timeout="10s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise EngineError(f"cannot reach the Dask scheduler at {cluster!r}: {exc}") from None
        try:
            yield client.get_executor()
        finally:
            client.close()
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
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
