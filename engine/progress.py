"""What a running search has found so far: a snapshot any thread may ask for.

A search publishes its progress at no per-node cost: the kernels already
count nodes (or iterations) in numpy arrays that another thread can read at
any moment, and the Python driver of a search writes what changes rarely
(the depth of the iteration under way, the best move and line of the last
finished one) into plain attributes as it goes. :meth:`Agent.progress
<engine.agents.base.Agent.progress>` reads both into a :class:`Progress` on
the caller's thread, while :meth:`~engine.agents.base.Agent.choose` runs on
another. Reading a counter that is being written yields its old or its new
value, never a wrong one (aligned 64-bit words), so a snapshot may lag by a
few nodes but is never torn.

The game draws the snapshots (the thinking view); ``python -m engine move
--verbose`` prints them as ``info`` lines (:meth:`Progress.line`).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.formats import format_moves
from engine.score import Score


@dataclass(frozen=True)
class Progress:
    """One look at a running search.

    ``nodes`` are positions searched, or playouts / iterations for Monte Carlo
    agents (``unit`` says which). ``best_column`` and ``pv`` are the search's
    current choice and line (0-based columns); ``visit_shares`` the fraction
    of the iterations spent under each column (None: a full column), for
    agents that sample. ``exact`` marks a solve that gives a proven answer
    and has no time limit (the perfect agent on connect-4 boards of up to 42 cells):
    the one kind of search that may go on for a minute, so it says so.
    """

    seconds: float
    nodes: int
    unit: str = "nodes"
    depth: int | None = None
    best_column: int | None = None
    pv: tuple[int, ...] = ()
    score: Score | None = None  # the value of the best move so far, in the search's own unit
    visit_shares: tuple[float | None, ...] | None = None
    exact: bool = False  # an exact solve: it ends with a proven answer, never an estimate, however long it takes

    @property
    def rate(self) -> float:
        """Nodes (or iterations) per second so far."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def fields(self) -> dict[str, object]:
        """``key -> value`` for an ``info`` line; columns are 1-based as everywhere outside Python."""
        out: dict[str, object] = {"time_ms": round(self.seconds * 1000), self.unit: self.nodes}
        out["nps" if self.unit == "nodes" else "per_s"] = round(self.rate)
        if self.depth is not None:
            out["depth"] = self.depth
        if self.best_column is not None:
            out["best"] = self.best_column + 1
        if self.score is not None:
            out["score"] = str(self.score)
        if self.pv:
            out["pv"] = format_moves(self.pv)
        if self.exact:
            out["solving"] = "exact"
        if self.visit_shares is not None:
            out["shares"] = ",".join("x" if s is None else f"{s:.2f}" for s in self.visit_shares)
        return out

    def line(self) -> str:
        return " ".join(f"{key}={value}" for key, value in self.fields().items())
