"""The computer's side of a match: its players, what they were asked, and the answer waiting to be shown.

One :class:`~game.jobs.Lane` carries the computer's moves and the hints, so only
the newest request is ever answered: after a new game, an undo or leaving the
screen (each cancels the request) a late answer is dropped. A move that came
back waits in :attr:`ComputerTurn.ready` until the disc before it has landed
and the pace allows it. It draws nothing and knows nothing of the board on
screen: the turn controller (:mod:`game.match.turns`) decides when to ask and
what an answer means.
"""

from __future__ import annotations

from contextlib import closing
from typing import TYPE_CHECKING

from engine.limits import Limits
from game.jobs import Job, JobState, Kind, Lane
from game.model import Colour

if TYPE_CHECKING:
    from engine.agents.base import Agent, SearchResult
    from engine.board import Board
    from game.match.services import Services
    from game.players import MatchConfig

HINT_SECONDS = 2.0  # time limit of a hint search


class ComputerTurn:
    """The computer players of a match and the one lane of their moves and hints."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self.agents: dict[Colour, Agent] = {}
        self.setup_error: str | None = None  # an agent that could not be made: the match cannot go on
        self.lane: Lane[str] = Lane(services.worker)
        self.asked_at = 0.0  # (game time) when the newest request was made
        self.ready: SearchResult | None = None  # a move back from its search, waiting to be shown
        self._hinter: Agent | None = None

    # -- the players -------------------------------------------------------------------------------
    def make(self, config: MatchConfig) -> None:
        """Make the match's computer players; one that cannot be made is :attr:`setup_error`."""
        for colour in Colour:
            spec = config.player(colour).spec
            if spec is None:
                continue
            try:
                self.agents[colour] = self.services.make_agent(spec)
            except Exception as exc:
                self.setup_error = f"Cannot create the {colour.value} player ({spec}): {exc}"

    def close(self) -> None:
        """The search stops; the players are closed on the worker thread (after what it is doing)."""
        self.lane.cancel()
        for agent in [*self.agents.values(), self._hinter]:
            if agent is not None:
                self.services.worker.run_later(agent.close)
        self.agents.clear()

    def new_game(self) -> None:
        """Each player forgets the game before (a search tree kept from it, a student's process)."""
        for agent in self.agents.values():
            self.services.worker.run_later(agent.new_game)

    def swap(self) -> None:
        """The players change sides, each starting afresh (what it kept belongs to the other side)."""
        self.agents = {colour.other: agent for colour, agent in self.agents.items()}
        self.new_game()

    def replace(self, colour: Colour, spec: str) -> str | None:
        """``colour`` is played by a new agent of ``spec``; what went wrong if it cannot be made."""
        try:
            agent = self.services.make_agent(spec)
        except Exception as exc:
            return f"Cannot use {spec}: {exc}"
        self.forget()
        old = self.agents.pop(colour, None)
        if old is not None:
            self.services.worker.run_later(old.close)
        self.agents[colour] = agent
        self.setup_error = None
        return None

    # -- the requests -------------------------------------------------------------------------------
    @property
    def moving(self) -> bool:
        """A move is being searched for."""
        return self.lane.kind == Kind.MOVE

    @property
    def hinting(self) -> bool:
        return self.lane.kind == Kind.HINT

    @property
    def preparing(self) -> bool:
        """The move asked for waits for its player's kernels to be compiled (the first start of a version)."""
        job = self.lane.current
        return job is not None and job.kind == Kind.MOVE and job.state is JobState.PREPARING

    def forget(self) -> None:
        """Whatever was asked is no longer wanted (a new position, a pause, a new player)."""
        self.lane.cancel()
        self.ready = None

    def ask_move(self, colour: Colour, board: Board, spec: str, now: float) -> None:
        """Ask ``colour``'s player for a move on (a copy of) ``board``."""
        agent, board, catalog = self.agents[colour], board.copy(), self.services.catalog

        def move(job: Job[str]) -> SearchResult:
            assert job.stop is not None  # the worker gives every job its stop flag
            catalog.wait_until_prepared(spec, board, job.stop)  # a first start: compiled elsewhere, first
            job.prepared()
            return agent.choose(board, Limits(stop=job.stop))

        # A first start: the move says it waits for its player's kernels until the worker says it searches.
        self.lane.submit(move, kind=Kind.MOVE, preparing=catalog.waits_for(spec, board))
        self.asked_at = now

    def ask_hint(self, board: Board, now: float) -> str | None:
        """Ask the strongest preset for the move it would play here; what went wrong if it cannot."""
        catalog = self.services.catalog
        if self._hinter is None:
            try:
                self._hinter = self.services.make_agent(catalog.hint_spec())
            except Exception as exc:
                return f"No hint: {exc}"
        agent, board, spec = self._hinter, board.copy(), catalog.hint_spec()

        def hint(job: Job[str]) -> SearchResult:
            assert job.stop is not None  # the worker gives every job its stop flag
            catalog.wait_until_prepared(spec, board, job.stop)
            with job.stop.deadline(HINT_SECONDS) as limit, closing(agent):  # (its tables go until the next hint)
                return agent.choose(board, Limits(stop=limit))

        self.lane.submit(hint, kind=Kind.HINT)
        self.asked_at = now
        return None

    def answer(self) -> Job[str] | None:
        """The newest request's job once it has finished, handed over once."""
        return self.lane.poll()
