"""Seed 003 (CS 4100 Homework 04): ``dropPiece``, ``checkWin``, ``eval``, ``minMax`` and ``player`` on an 8x8 board.

The board is the seed's: an 8x8 numpy array of ints, row 0 on top, 0 blank,
1 X, 2 O; columns count from 0. The points follow the seed: Problem One's 30
points go to ``dropPiece`` and ``checkWin`` (10 each; its Part C, the
interactive game, is played by a person), Problem Two's 60 to ``eval``,
``minMax`` and ``player`` (20 each).

``minMax`` is marked the CS188 way: it runs with the seed's move order
(``for move in range(8)``) from real positions, with the seed's globals
(``maxDepth``, ``countNodes``, ``maxNodeLimit``), and every call it makes is
recorded, since the seed counts a node per call. The student's ``eval`` and
``checkWin`` are replaced during the question by the reference's values for
every position of the tree, so a mistake in ``eval`` costs marks once, in
``eval``. Two readings of the seed's "leaf node or depth limit" are right: a
search that stops on a board someone has won, and one that stops at
``maxDepth`` only.
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np

from engine.grade import values
from engine.grade.cases import drawn, equal_int, random_cells, request_array, rng, winning_columns
from engine.grade.model import Assignment, Case, Play, Question, Reply, Verdict
from engine.grade.reference import seed003 as ref
from engine.grade.trees import GameTree, Reference, first_divergence
from engine.tree import Player

MAXSIZE = sys.maxsize
SYMBOLS = {0: ".", 1: "X", 2: "O"}
NAMES = {1: "X", 2: "O"}


def _board(cells: Any) -> str:
    return drawn(cells, SYMBOLS)


#: The reference's 130 windows as indices into a flattened board, for :func:`facts`.
_WINDOWS = np.array([[r * 8 + c for r, c in line] for line in ref.LINES])


@functools.lru_cache(maxsize=200_000)
def facts(digits: str) -> tuple[int, int, int]:
    """``(eval, checkWin(X), checkWin(O))`` of the position ``digits`` (its 64 cells): the reference's
    values, computed with numpy (a test holds them equal to :mod:`engine.grade.reference.seed003`'s)."""
    cells = np.frombuffer(digits.encode("ascii"), dtype=np.uint8)[_WINDOWS] - ord("0")
    os, xs, blanks = (cells == ref.O).sum(axis=1), (cells == ref.X).sum(axis=1), (cells == ref.blank).sum(axis=1)
    o_won, x_won = bool((os == 4).any()), bool((xs == 4).any())
    if o_won:
        value = ref.OWIN
    elif x_won:
        value = ref.XWIN
    else:
        threes = int(((os == 3) & (blanks == 1)).sum()) - int(((xs == 3) & (blanks == 1)).sum())
        twos = int(((os == 2) & (blanks == 2)).sum()) - int(((xs == 2) & (blanks == 2)).sum())
        value = ref.THREE_SCORE * threes + ref.TWO_SCORE * twos
    return value, ref.X if x_won else 0, ref.O if o_won else 0


def _example(moves: list[int]) -> np.ndarray:
    board = ref.makeExample(moves)
    assert isinstance(board, np.ndarray)
    return board


# -- dropPiece ------------------------------------------------------------------------------------
def drop_cases(seed: int) -> list[Case]:
    cases = [_drop_case("seed 003's range test: dropPiece(X, 100, getEmptyBoard())", ref.X, 100, ref.getEmptyBoard())]
    board = ref.getEmptyBoard()
    steps = [(ref.X, 3), (ref.O, 4), (ref.X, 0), (ref.O, 7), (ref.X, 5), (ref.O, 3), (ref.X, 4), (ref.O, 5), (ref.X, 5)]
    for number, (piece, move) in enumerate(steps, start=1):
        label = f"seed 003's test, drop {number} of {len(steps)}: dropPiece({NAMES[piece]}, {move}, B)"
        cases.append(_drop_case(label, piece, move, board.copy()))
        ref.dropPiece(piece, move, board)
    full = _example((list(range(8)) + list(range(7, -1, -1))) * 4)
    cases.append(_drop_case("seed 003's full board: dropPiece(X, 4, fullBoard)", ref.X, 4, full))
    generator = rng(seed, "seed003", "dropPiece")
    for number in range(1, 9):
        cells, _, _ = random_cells(generator, 8, 8, generator.randint(0, 50), stop_at_win=False)
        board = np.array(cells)
        move = generator.choice([*range(8), *range(8), -1, 8, 9])
        piece = generator.choice((ref.X, ref.O))
        cases.append(_drop_case(f"hidden {number}: dropPiece({NAMES[piece]}, {move}, B)", piece, move, board, True))
    return cases


def _drop_case(label: str, piece: int, move: int, board: np.ndarray, hidden: bool = False) -> Case:
    after = ref.dropPiece(piece, move, board.copy())
    expected = None if ref.isError(after) else np.asarray(after).tolist()
    request = {"function": "dropPiece", "args": [piece, move, request_array(board)], "after": [2]}
    return Case(label, request, {"board": expected, "move": move}, hidden, _board(board))


def check_drop(case: Case, reply: Reply) -> Verdict:
    expected, move = case.expected["board"], case.expected["move"]
    before = case.request["args"][2]["array"]
    after = values.array(reply["after"][0])
    changed = after is None or after.tolist() != before
    if expected is None:
        why = f"column {move} is outside 0..7" if not 0 <= move <= 7 else f"column {move} is full"
        if values.integer(reply.get("value")) == ref.ERROR and values.type_name(reply.get("value")) == "int":
            return Verdict.wrong("returned ERROR but changed the board") if changed else Verdict.right()
        got = values.shown(reply.get("value"))
        if values.integer(reply.get("value")) == ref.ERROR:
            return Verdict(
                0.5, f"returned -1 as a {values.type_name(reply.get('value'))}: isError() needs the int ERROR"
            )
        return Verdict.wrong(f"returned {got} where ERROR (-1) is due: {why}")
    if reply.get("same") != 2:
        copy = values.array(reply.get("value"))
        if copy is not None and copy.tolist() == expected:
            note = "" if changed else " and left the board as it was"
            return Verdict(
                0.5,
                f"returned a new board (a copy){note}: the seed asks for the move to be made IN PLACE and the same "
                "board returned",
            )
        return Verdict.wrong(f"returned {values.shown(reply.get('value'))}, not the board with the piece dropped")
    if after is None or after.tolist() != expected:
        return Verdict.wrong("the board after the drop is not the reference's:\n" + _board(expected))
    return Verdict.right()


# -- checkWin -------------------------------------------------------------------------------------
#: Hand-made lines: (what, cells of the line), for each direction at the board's edges and inside.
LINES = (
    ("a row at the bottom left", [(7, 0), (7, 1), (7, 2), (7, 3)]),
    ("a row at the top right", [(0, 4), (0, 5), (0, 6), (0, 7)]),
    ("a column on the left edge", [(4, 0), (5, 0), (6, 0), (7, 0)]),
    ("a column reaching the top", [(0, 7), (1, 7), (2, 7), (3, 7)]),
    ("a rising diagonal (/) from the bottom left", [(7, 0), (6, 1), (5, 2), (4, 3)]),
    ("a rising diagonal (/) at the top right", [(3, 4), (2, 5), (1, 6), (0, 7)]),
    ("a falling diagonal (\\) from the top left", [(0, 0), (1, 1), (2, 2), (3, 3)]),
    ("a falling diagonal (\\) at the bottom right", [(4, 4), (5, 5), (6, 6), (7, 7)]),
)


def win_cases(seed: int) -> list[Case]:
    generator = rng(seed, "seed003", "checkWin")
    cases: list[Case] = []
    for number, (what, cells) in enumerate(LINES, start=1):
        piece = ref.X if number % 2 else ref.O
        board = _filler(generator, piece, cells)
        for asked in (piece, 3 - piece):
            label = f"hidden {len(cases) + 1}: {NAMES[piece]} has {what}; checkWin({NAMES[asked]}, B)"
            cases.append(_win_case(label, asked, board))
        broken = board.copy()
        r, c = cells[generator.randrange(4)]
        broken[r][c] = 0  # three of the four: no line (floating pieces do not matter to checkWin)
        cases.append(
            _win_case(f"hidden {len(cases) + 1}: {what} with a gap; checkWin({NAMES[piece]}, B)", piece, broken)
        )
    cases.append(_win_case(f"hidden {len(cases) + 1}: the empty board; checkWin(X, B)", ref.X, ref.getEmptyBoard()))
    return cases


def _filler(generator: Any, piece: int, line: list[tuple[int, int]]) -> np.ndarray:
    """A board with ``piece`` on ``line`` and a few scattered pieces that make no other line."""
    board = ref.getEmptyBoard()
    for r, c in line:
        board[r][c] = piece
    for _ in range(10):
        r, c = generator.randrange(8), generator.randrange(8)
        if board[r][c] == 0:
            board[r][c] = generator.choice((1, 2))
            if _lines_of(board) != 1:
                board[r][c] = 0
    return board


def _lines_of(board: np.ndarray) -> int:
    return sum(1 for line in ref.LINES if len({int(board[r][c]) for r, c in line}) == 1 and board[line[0]] != 0)


def _win_case(label: str, asked: int, board: np.ndarray) -> Case:
    expected = ref.checkWin(asked, board)
    request = {"function": "checkWin", "args": [asked, request_array(board)]}
    return Case(label, request, expected, True, _board(board))


def check_win(case: Case, reply: Reply) -> Verdict:
    got = reply.get("value")
    if values.truth(got) is not None:
        return Verdict.wrong(f"returned {values.shown(got)}: checkWin returns the player (1 or 2) or 0")
    expected = case.expected
    if values.integer(got) == expected:
        return Verdict.right()
    what = f"{expected} (the player has four in a line)" if expected else "0 (no line of four for that player)"
    return Verdict.wrong(f"returned {values.shown(got)}; the reference gives {what}")


# -- eval -------------------------------------------------------------------------------------------
#: Seed 003's Part A tests (makeExample lists) and the values its appendix prints for them.
EVAL_TESTS: tuple[tuple[list[int], int], ...] = (
    ([3, 0, 4, 2, 5, 2, 4], -80),
    ([6, 5, 1], 0),
    ([0, 2, 6, 1, 2, 1], 20),
    ([2, 6, 6, 1, 4, 0, 3, 3, 3, 2], -20),
    ([4, 3, 2, 6, 5, 3, 7, 5, 4, 4, 1, 2], 90),
    ([3, 5, 6, 2, 2, 5, 7, 3, 6, 6, 5, 4, 6, 4, 4], -10),
    ([5, 1, 7, 0, 3, 6, 1, 4, 2, 2, 5, 0, 4, 5, 4, 2, 3, 6, 6, 1, 1, 2, 2, 7, 6, 7, 2, 0, 0, 5, 4, 7, 7, 4, 2], -30),
    ([7, 1, 1, 5, 6, 1, 7, 6, 1, 3, 1, 2, 6, 0, 6], MAXSIZE),
    ([7, 7, 7, 4, 0, 0, 7, 6, 7, 2, 6, 6, 7, 6, 1], -MAXSIZE),
)
#: The seed's full board, r1 = [2, 1]*4 and r2 = [1, 2]*4: eval 0.
FULL_ROWS = ([2, 1] * 4, [1, 2] * 4, [1, 2] * 4, [2, 1] * 4, [1, 2] * 4, [1, 2] * 4, [2, 1] * 4, [1, 2] * 4)
EVAL_GLOBALS = {"THREE_SCORE": ref.THREE_SCORE, "TWO_SCORE": ref.TWO_SCORE}


def eval_cases(seed: int) -> list[Case]:
    cases = []
    boards = [(f"makeExample({moves})", _example(moves), printed) for moves, printed in EVAL_TESTS[:7]]
    boards.append(("the full board np.array([r1,r2,r2,r1,r2,r2,r1,r2])", np.array(FULL_ROWS), 0))
    boards += [(f"makeExample({moves})", _example(moves), printed) for moves, printed in EVAL_TESTS[7:]]
    for number, (what, board, printed) in enumerate(boards, start=1):
        assert ref.eval(board) == printed, what  # the reference agrees with the seed's appendix
        cases.append(_eval_case(f"seed 003's test {number}: {what} (the appendix prints {printed})", board))
    generator = rng(seed, "seed003", "eval")
    for number in range(1, 11):
        cells, _, _ = random_cells(generator, 8, 8, generator.randint(4, 40))
        cases.append(_eval_case(f"hidden {number}", np.array(cells), hidden=True))
    return cases


def _eval_case(label: str, board: np.ndarray, hidden: bool = False) -> Case:
    key = _digits(board)
    _, x_won, o_won = facts(key)
    wins = {f"{ref.X}|{key}": x_won, f"{ref.O}|{key}": o_won}  # a mistake in checkWin costs marks in checkWin only
    request = {
        "function": "eval",
        "args": [request_array(board)],
        "globals": EVAL_GLOBALS,
        "patch": {"checkWin": {"kind": "table", "board": 1, "key": [0], "table": wins}},
    }
    return Case(label, request, int(ref.eval(board)), hidden, _board(board))


def windows(board: np.ndarray) -> str:
    """The reference's count, in words: ``2 threes and 5 twos of O, 1 three of X``."""
    counts = {(p, k): 0 for p in (ref.O, ref.X) for k in (3, 2)}
    for line in ref.LINES:
        cells = [board[r][c] for r, c in line]
        for piece in (ref.O, ref.X):
            for k in (3, 2):
                if cells.count(piece) == k and cells.count(ref.blank) == 4 - k:
                    counts[(piece, k)] += 1
    parts = []
    for piece in (ref.O, ref.X):
        three, two = counts[(piece, 3)], counts[(piece, 2)]
        parts.append(f"{three} window{'s' * (three != 1)} of three {NAMES[piece]} and {two} of two")
    return "the reference counts " + "; ".join(parts) + " (a window: four cells in a line, the rest blank)"


def check_eval(case: Case, reply: Reply) -> Verdict:
    board = np.array(case.request["args"][0]["array"])
    return equal_int(case.expected, "eval", lambda _: windows(board))(reply)


# -- minMax ----------------------------------------------------------------------------------------
#: Seed 003's Part B tests: the makeExample list, maxDepth, and what the appendix prints.
MINMAX_TESTS = (
    ([3, 4, 2, 5, 2, 6, 2], 1, "(9223372036854775807, 7)"),
    ([3, 4, 2, 5, 2, 0, 2], 1, "(10, 2)"),
    ([3, 4, 2, 5, 2, 0, 2], 2, "(-50, 2)"),
    ([3, 0, 4, 4, 3, 4, 5], 2, "(-9223372036854775807, 7)"),
)
#: The two right readings of "leaf node or depth limit reached" (see the module docstring).
VARIANTS = ("stops on a won board", "stops at maxDepth only")


def minmax_cases(seed: int) -> list[Case]:
    cases = []
    for number, (moves, depth, printed) in enumerate(MINMAX_TESTS, start=1):
        label = f"seed 003's test {number}: makeExample({moves}), maxDepth {depth} (the appendix prints {printed})"
        cases.append(_minmax_case(label, _example(moves), ref.O, depth))
    generator = rng(seed, "seed003", "minMax")
    depths = (1, 2, 2, 2, 3, 2, 3, 2)
    for number, depth in enumerate(depths, start=1):
        cells, _, _ = random_cells(generator, 8, 8, generator.randint(6, 24))
        board = np.array(cells)
        if ref.checkWin(ref.X, board) or ref.checkWin(ref.O, board):
            board = _example([3, 4, 3, 4])
        mover = ref.O if int((board != 0).sum()) % 2 else ref.X
        cases.append(
            _minmax_case(f"hidden {number}: maxDepth {depth}, {NAMES[mover]} to move", board, mover, depth, True)
        )
    cells, _, _ = random_cells(generator, 8, 8, 10)
    cases.append(_minmax_case("hidden: maxNodeLimit 20, maxDepth 2", np.array(cells), ref.X, 2, True, limit=20))
    return cases


def game_tree(board: np.ndarray, mover: int, depth: int, stop_on_win: bool) -> GameTree:
    """The tree ``minMax`` searches from ``board``: moves in column order, leaves at ``depth`` (and wins)."""

    def children(position: Any) -> list[tuple[int, Any]]:
        cells, player = position
        found: list[tuple[int, Any]] = []
        for move in range(8):
            if cells[0][move] == 0:
                child = cells.copy()
                child[max(r for r in range(8) if cells[r][move] == 0)][move] = player
                found.append((move, (child, 3 - player)))
        return found

    def leaf(position: Any, level: int) -> tuple[float, str] | None:
        value, x_won, o_won = facts(_digits(position[0]))
        if level == depth:
            return value, f"depth {depth} (maxDepth) is reached"
        if stop_on_win and (x_won or o_won):
            return value, f"{NAMES[x_won or o_won]} has already won there"
        if all(position[0][0] != 0):
            return value, "the board is full"
        return None

    def key(position: Any) -> Hashable:
        return _digits(position[0])

    return GameTree.build((board.copy(), mover), children, leaf, key)


def _digits(cells: np.ndarray) -> str:
    return np.asarray(cells, dtype=np.uint8).tobytes().translate(_DIGITS).decode("ascii")


_DIGITS = bytes.maketrans(bytes(range(10)), b"0123456789")


def _minmax_case(
    label: str, board: np.ndarray, mover: int, depth: int, hidden: bool = False, limit: int = 10000
) -> Case:
    trees = [game_tree(board, mover, depth, stop) for stop in (True, False)]
    root_player = Player.MAX if mover == ref.O else Player.MIN
    references = [Reference.of(tree, root_player, (-MAXSIZE, MAXSIZE)) for tree in trees]
    eval_table: dict[str, Any] = {}
    win_table: dict[str, Any] = {}
    for tree in trees:
        for key in tree.keys.values():
            value, x_won, o_won = facts(str(key))
            eval_table[str(key)] = value
            win_table[f"{ref.X}|{key}"], win_table[f"{ref.O}|{key}"] = x_won, o_won
    limited = [seed_minmax(tree, root_player, limit) for tree in trees]
    request = {
        "function": "minMax",
        "args": [request_array(board), mover, 0, -MAXSIZE, MAXSIZE],
        "globals": {"maxDepth": depth, "countNodes": 0, "maxNodeLimit": limit, **EVAL_GLOBALS},
        "read": ["countNodes"],
        "after": [0],
        "patch": {
            "eval": {"kind": "table", "board": 0, "table": eval_table},
            "checkWin": {"kind": "table", "board": 1, "key": [0], "table": win_table},
        },
        "trace": {"kind": "calls", "function": "minMax", "board": 0},
    }
    expected = {"references": references, "limited": limited, "limit": limit, "depth": depth, "mover": mover}
    return Case(label, request, expected, hidden, _board(board))


def seed_minmax(tree: GameTree, root_player: Player, limit: int) -> tuple[float, int | None, list[str]]:
    """The seed's ``minMax`` on a tree, node limit included: ``(score, move, the nodes it is called on)``.

    Every call counts; a call past ``limit`` returns ``(0, None)`` at once; the first strictly better
    child is kept. (Without a limit this visits what :func:`engine.tree.alphabeta` visits.)
    """
    calls: list[str] = []

    def search(node: Any, maximise: bool, alpha: float, beta: float) -> tuple[float, int | None]:
        calls.append(node.path)
        if len(calls) > limit:
            return 0, None
        if node.is_leaf:
            return node.value, None
        best, move = (-math.inf, None) if maximise else (math.inf, None)
        for child in node.children:
            score, _ = search(child, not maximise, alpha, beta)
            if (score > best) if maximise else (score < best):
                best, move = score, tree.moves[child.path][-1]
            if maximise:
                alpha = max(alpha, score)
            else:
                beta = min(beta, score)
            if alpha >= beta:
                break
        return best, move

    score, move = search(tree.root, root_player is Player.MAX, -MAXSIZE, MAXSIZE)
    return score, move, calls


def student_paths(case: Case, trace: list[Any]) -> tuple[list[tuple[int, ...] | None], list[str]]:
    """The student's calls as lines of moves from the root (None where a call's board is not one move
    from its caller's), and each in words."""
    lines: list[tuple[int, ...] | None] = []
    texts: list[str] = []
    stack: list[tuple[set[tuple[int, int, int]], tuple[int, ...] | None]] = []
    for entry in trace:
        level, diff = entry[0], entry[1]
        cells = {(int(r), int(c), int(v)) for r, c, v in diff} if isinstance(diff, list) else None
        del stack[level:]
        line: tuple[int, ...] | None = None
        text = "a call whose board is not an 8x8 board"
        if cells is not None:
            if level == 0:
                line = () if not cells else None
                text = "the starting board" if not cells else "a changed starting board"
            elif stack and stack[-1][1] is not None:
                parent_cells, parent_line = stack[-1]
                added = cells - parent_cells
                if parent_cells <= cells and len(added) == 1:
                    _, column, _ = next(iter(added))
                    line = (*parent_line, column)  # type: ignore[misc]
                    text = _line_text(line, case.expected["mover"])
                else:
                    text = f"a board that is not its caller's board plus one piece ({len(added)} cells differ)"
        stack.append((cells or set(), line))
        lines.append(line)
        texts.append(text)
    return lines, texts


def _line_text(line: tuple[int, ...], mover: int) -> str:
    if not line:
        return "the starting board"
    players = [NAMES[mover if i % 2 == 0 else 3 - mover] for i in range(len(line))]
    return "the board after " + ", ".join(f"{p} {c}" for p, c in zip(players, line, strict=True))


def check_minmax(case: Case, reply: Reply) -> Verdict:
    """Result 40 %, the calls 40 %, the count 10 %, the board left as it was 10 %."""
    expected = case.expected
    references: list[Reference] = expected["references"]
    trace = reply.get("trace") or []
    lines, texts = student_paths(case, trace)
    messages: list[str] = []
    score = 0.0
    # the result
    result = values.items(reply.get("value"))
    got_score = values.number(result[0]) if result and len(result) == 2 else None
    got_move = values.integer(result[1]) if result and len(result) == 2 else None
    limited = expected["limited"]
    if expected["limit"] < 10000:
        right = any(
            got_score == s and (got_move == m or (m is None and result and result[1] is None)) for s, m, _ in limited
        )
        wanted = f"({_score(limited[0][0])}, {limited[0][1]})"
    else:
        right = any(got_score == r.value and got_move in r.best_moves() for r in references)
        best = sorted(references[0].best_moves())
        wanted = f"({_score(references[0].value)}, {' or '.join(map(str, best))})"
    if right:
        score += 0.4
    else:
        messages.append(f"returned {values.shown(reply.get('value'))}; the reference gives {wanted}")
    # the calls
    divergence = None
    if expected["limit"] < 10000:
        made = [
            [reference.tree.moves[p] for p in calls]
            for reference, (_, _, calls) in zip(references, limited, strict=True)
        ]
        if any(lines == calls for calls in made):
            score += 0.4
        else:
            messages.append(
                f"made {len(trace)} calls of minMax; the reference makes {len(made[0])} with maxNodeLimit "
                f"{expected['limit']} (every call counts, and a call past the limit returns (0, None) at once)"
            )
    else:
        found = []
        for variant, reference in zip(VARIANTS, references, strict=True):
            paths = [reference.tree.path_of(line) for line in lines]
            found.append(
                (
                    variant,
                    reference,
                    first_divergence(
                        reference,
                        paths,
                        _describer(reference, expected["mover"]),
                        lambda i: texts[i],
                        "calls of minMax",
                    ),
                )
            )
        if any(d is None for _, _, d in found):
            score += 0.4
        else:
            variant, reference, divergence = max(found, key=lambda f: f[2].index)  # type: ignore[union-attr]
            messages.append(f"its calls leave the reference's ({variant}): {divergence.said}")  # type: ignore[union-attr]
    if reply.get("truncated"):
        messages.append(f"(only its first {len(trace):,} calls were recorded)")
    # the count
    count = values.integer(reply.get("globals", {}).get("countNodes"))
    if count == len(trace):
        score += 0.1
    else:
        messages.append(
            f"countNodes is {values.shown(reply.get('globals', {}).get('countNodes'))} after {len(trace)} calls: "
            "the seed counts one node per call of minMax"
        )
    # the board
    after = values.array(reply["after"][0])
    if after is not None and after.tolist() == case.request["args"][0]["array"]:
        score += 0.1
    else:
        messages.append("the board is not as it was after the search: undo every move you make")
    payload = None
    if divergence is not None:
        payload = {"variant": VARIANTS.index(variant), "ours": divergence.ours, "theirs": divergence.theirs}
    return Verdict(round(score, 6), " ".join(messages), payload)


def _describer(reference: Reference, mover: int) -> Any:
    def describe(path: str) -> str:
        return _line_text(reference.tree.moves[path], mover)

    return describe


def _score(value: float) -> str:
    if value == MAXSIZE:
        return "9223372036854775807"
    if value == -MAXSIZE:
        return "-9223372036854775807"
    return str(int(value)) if float(value).is_integer() else str(value)


def draw_minmax(case: Case, divergence: Mapping[str, Any], path: Any) -> None:
    from engine.grade.pictures import draw_divergence

    reference: Reference = case.expected["references"][divergence["variant"]]
    mover = case.expected["mover"]
    names = {p: f"{NAMES[mover if len(m) % 2 else 3 - mover]} {m[-1]}" for p, m in reference.tree.moves.items() if m}
    title = f"minMax, {case.label.split(':')[0]}"
    draw_divergence(reference, divergence.get("ours"), divergence.get("theirs"), names, path, title)


# -- player ------------------------------------------------------------------------------------------
PLAYER_GLOBALS = {"maxDepth": 2, **EVAL_GLOBALS}
#: The depth every student's player searches in the class tournament: the same for all, and quick.
TOURNAMENT_DEPTH = 2


def player_cases(seed: int) -> list[Case]:
    cases = []
    for number, (moves, _, _) in enumerate(MINMAX_TESTS[:2], start=1):
        cases.append(_player_case(f"seed 003's board{number}: makeExample({moves})", _example(moves)))
    generator = rng(seed, "seed003", "player")
    wins = blocks = others = 0
    while wins + blocks + others < 8:
        cells, _, winner = random_cells(generator, 8, 8, generator.randrange(7, 40, 2))
        if winner or sum(v != 0 for row in cells for v in row) % 2 == 0:
            continue
        board = np.array(cells)
        can_win = winning_columns(cells, ref.O)
        threats = winning_columns(cells, ref.X)
        if can_win and wins < 3:
            wins += 1
            cases.append(_player_case(f"hidden {len(cases) - 1}: O can win at once", board, True))
        elif not can_win and len(threats) == 1 and blocks < 3:
            blocks += 1
            cases.append(_player_case(f"hidden {len(cases) - 1}: X threatens to win", board, True))
        elif not can_win and not threats and others < 2:
            others += 1
            cases.append(_player_case(f"hidden {len(cases) - 1}: a quiet position", board, True))
    return cases


def _player_case(label: str, board: np.ndarray, hidden: bool = False) -> Case:
    cells = board.tolist()
    expected = {"wins": winning_columns(cells, ref.O), "threats": winning_columns(cells, ref.X)}
    request = {"function": "player", "args": [request_array(board)], "globals": PLAYER_GLOBALS, "after": [0]}
    return Case(label, request, expected, hidden, _board(board))


def check_player(case: Case, reply: Reply) -> Verdict:
    cells = case.request["args"][0]["array"]
    move = values.integer(reply.get("value"))
    if move is None or not 0 <= move <= 7 or cells[0][move] != 0:
        what = "a column outside 0..7" if move is None or not 0 <= move <= 7 else f"column {move}, which is full"
        return Verdict.wrong(f"returned {values.shown(reply.get('value'))}: {what}")
    wins, threats = case.expected["wins"], case.expected["threats"]
    if wins and move not in wins:
        return Verdict.wrong(f"played {move}; O wins at once in {' or '.join(map(str, wins))}")
    if not wins and len(threats) == 1 and move != threats[0]:
        return Verdict.wrong(f"played {move}; X wins next in {threats[0]} unless O blocks it")
    after = values.array(reply["after"][0])
    if after is None or after.tolist() != cells:
        return Verdict(0.5, f"played {move} but left the board changed: undo the moves of the search")
    return Verdict.right()


def play_request(cells: list[list[int]], mover: int) -> dict[str, Any]:
    """``player(board)`` plays O, searching :data:`TOURNAMENT_DEPTH` plies: when the agent moved first, its
    pieces (1) are shown as O (2)."""
    board = np.array(cells)
    if mover == 1:
        board = np.where(board == 1, 2, np.where(board == 2, 1, 0))
    return {"function": "player", "args": [request_array(board)], "globals": {"maxDepth": TOURNAMENT_DEPTH}}


ASSIGNMENT = Assignment(
    name="seed003",
    title="CS 4100 Homework 04: Connect Four on an 8x8 board",
    source="seeds/003",
    questions=(
        Question(
            "dropPiece",
            10,
            "dropPiece(player, move, board)",
            "drop player's piece (1 X, 2 O) into column move of the 8x8 board IN PLACE and return the same board; "
            "return ERROR (-1, an int) for a move outside 0..7 or into a full column, leaving the board as it was",
            drop_cases,
            check_drop,
        ),
        Question(
            "checkWin",
            10,
            "checkWin(player, board)",
            "return player (1 or 2) if it has four in a row, a column or either diagonal, else 0",
            win_cases,
            check_win,
        ),
        Question(
            "eval",
            20,
            "eval(board)",
            "score the board from O's point of view: sys.maxsize for four O in a line, -sys.maxsize for four X, else "
            "THREE_SCORE (50) per window of four cells with three O and a blank, TWO_SCORE (10) per window with two "
            "O and two blanks, the same subtracted for X",
            eval_cases,
            check_eval,
        ),
        Question(
            "minMax",
            20,
            "minMax(board, player, depth, alpha, beta)",
            "alpha-beta returning (score, move): O maximises, X minimises; every call adds one to the global "
            "countNodes; a call past maxNodeLimit returns (0, None); a call at depth == maxDepth (or on a won "
            "board) returns (eval(board), None); moves are tried in order 0..7, made on the board and undone; "
            "stop trying moves once alpha >= beta",
            minmax_cases,
            check_minmax,
            seconds=10.0,
            draw=draw_minmax,
        ),
        Question(
            "player",
            20,
            "player(board)",
            "return O's move (a column with room) chosen by minMax from depth 0 (maxDepth is set to 2 here): it must "
            "take a win at once and block X's only winning column",
            player_cases,
            check_player,
            seconds=20.0,
        ),
    ),
    play=Play("player", "player(board)", 8, 8, play_request),
    notes=(
        "Problem One Part C (the interactive game) is played by a person; its 10 points are not marked here.",
        "eval and minMax run with THREE_SCORE = 50 and TWO_SCORE = 10, the seed's test values.",
    ),
)
