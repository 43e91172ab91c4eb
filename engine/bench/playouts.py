"""``bench playouts``: random playouts per second, public API against kernel."""

from __future__ import annotations

import random

from numba import njit

from engine.bench.timing import rate
from engine.board import Board
from engine.console import add_geometry_arguments, emit, geometry_from
from engine.geometry import Geometry
from engine.kernels.rng import make_rng
from engine.kernels.rules import random_playout
from engine.validate import MAX_SECONDS, float_arg


@njit(cache=True, nogil=True)
def _many_playouts(current, mask, g, rng, count):
    total = 0
    for _ in range(count):
        total += random_playout(current, mask, g, rng)
    return total


def api_playout(geometry: Geometry, rng: random.Random) -> Board:
    """One random game through the public :class:`Board` API; the final board."""
    board = Board(geometry)
    while not board.is_over:
        board.play(rng.choice(board.legal_columns()))
    return board


def add_parser(benches) -> None:
    parser = benches.add_parser("playouts", help="random playouts per second through the API and the numba kernel")
    add_geometry_arguments(parser)
    parser.add_argument(
        "--seconds", type=float_arg(0.001, MAX_SECONDS), default=3.0, help="time per measurement (default 3)"
    )
    parser.set_defaults(run=run)


def run(args) -> int:
    geometry = geometry_from(args)
    python_rng, rng = random.Random(1), make_rng(1)
    empty = geometry.to_kernel(0)

    def api_batch(games: int = 50) -> int:
        for _ in range(games):
            api_playout(geometry, python_rng)
        return games

    def kernel_batch(games: int = 20_000) -> int:
        _many_playouts(empty, empty, geometry.kernel, rng, games)
        return games

    api_games, api_time = rate(api_batch, args.seconds)
    kernel_games, kernel_time = rate(kernel_batch, args.seconds)
    api_rate, kernel_rate = api_games / api_time, kernel_games / kernel_time
    emit(f"board {geometry}")
    emit(f"api playouts/s {api_rate:,.0f}")
    emit(f"kernel playouts/s {kernel_rate:,.0f}")
    emit(f"kernel/api ratio {kernel_rate / api_rate:,.1f}")
    return 0
