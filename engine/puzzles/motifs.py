"""The motifs of a puzzle: what its solution does, each read off the board and its proven line.

Every tag states a fact about the position and the line the solver proved,
never a guess:

- ``win-in-N``: the solution wins with the player's N-th move from now;
- ``forced-block``: the solution (not itself a win at once) fills the cell
  where the opponent would win with their next stone;
- ``double-threat``: after one of the winner's moves on the line, the
  defender faces two threats one stone cannot stop (two cells where the
  winner's next stone wins, both playable, or one directly above the other);
- ``odd-threat`` (odd threat and zugzwang): the first player wins on an odd
  row (the 1st, 3rd... from the bottom) in a cell that was already a threat
  of theirs, not yet playable, after the solution, and the defender's last
  move was the stone directly below it: with nothing else left to play, the
  defender had to give it;
- ``claimeven``: after the solution, the opponent cannot win, and Allis's
  claimeven rule proves it (:mod:`engine.solver.claimeven`: answering every
  move on top of it keeps every line of the opponent's closed).
"""

from __future__ import annotations

from engine.board import Board, Side, has_line
from engine.geometry import Geometry
from engine.solver.claimeven import claimeven_bound


def motifs_of(board: Board, kind: str, line: tuple[int, ...], win_moves: int | None = None) -> tuple[str, ...]:
    """The motifs of the puzzle at ``board`` with its solution's ``line``, in a fixed order.

    ``win_moves``: the N of a win in N whose ``line`` is its first move only (else the line says it).
    """
    found = []
    if kind == "win":
        found.append(f"win-in-{win_moves or (len(line) + 1) // 2}")
    if not board.is_winning_move(line[0]) and blocks(board, line[0]):
        found.append("forced-block")
    if kind == "win" and len(line) > 1 and double_threat(board, line):
        found.append("double-threat")
    if kind == "win" and len(line) > 1 and odd_threat(board, line):
        found.append("odd-threat")
    if claimeven_holds(board, line[0], kind):
        found.append("claimeven")
    return tuple(found)


def landing(board: Board, col: int) -> int:
    """The bit of the cell a stone dropped in ``col`` lands on."""
    return board.geometry.cell(col, board.height(col))


def blocks(board: Board, col: int) -> bool:
    """Does a stone in ``col`` fill the cell where the opponent's next stone would win?"""
    opponent = board.stones(board.turn.other)
    return has_line(opponent | landing(board, col), board.geometry)


def threats(stones: int, mask: int, geometry: Geometry) -> list[tuple[int, int]]:
    """The empty cells ``(col, row)`` where one more stone of ``stones`` makes a line."""
    cells = []
    for col in range(geometry.cols):
        for row in range(geometry.rows):
            cell = geometry.cell(col, row)
            if not mask & cell and has_line(stones | cell, geometry):
                cells.append((col, row))
    return cells


def double_threat(board: Board, line: tuple[int, ...]) -> bool:
    """After one of the winner's moves before the last, can the defender not stop every threat with one stone?"""
    board = board.copy()
    winner, g = board.turn, board.geometry
    for index, col in enumerate(line[:-1]):
        board.play(col)
        if index % 2:
            continue
        cells = threats(board.stones(winner), board.mask, g)
        playable = [(c, r) for c, r in cells if r == board.height(c)]
        stacked = any((c, r + 1) in cells for c, r in playable)
        if len(playable) >= 2 or stacked:
            return True
    return False


def odd_threat(board: Board, line: tuple[int, ...]) -> bool:
    """Does the first player win on an odd row in a threat held since the solution, given by the defender's
    last move below it (see the module)?"""
    if board.turn is not Side.FIRST or len(line) < 3:
        return False
    final = line[-1]
    start = board.copy()
    start.play(line[0])
    before_last = board.copy()
    for col in line[:-1]:
        before_last.play(col)
    row = before_last.height(final)
    held = (final, row) in threats(start.stones(Side.FIRST), start.mask, board.geometry)
    return row % 2 == 0 and held and start.height(final) < row and line[-2] == final


def claimeven_holds(board: Board, col: int, kind: str) -> bool:
    """After ``col``, does claimeven prove the opponent cannot win (a save), or loses (a win)?"""
    after = board.copy()
    after.play(col)
    if after.is_over:
        return False
    current, mask = after.kernel_state()
    bound = int(claimeven_bound(current, mask, after.ply, board.geometry.kernel))
    return bound <= 0 if kind == "save" else bound < 0
