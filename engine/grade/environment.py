"""The questions seeds 000 and 001 share: a game environment on numpy boards of any size, a random player, alpha-beta.

The two seeds are the same course's assignment, written differently: seed 000
uses boards of 1 / -1 / 0 and the functions ``actions(s)``, ``result(s, a)``,
``terminal(s)``, ``utility(s)``; seed 001 arrays of ``'x'`` / ``'o'`` /
``' '`` and ``get_actions(board)``, ``result(state, player, action)``,
``is_terminal(state)``, ``utility(state, player)``. A :class:`Form` says how
one seed writes boards and players; the questions here are built from it, and
the cases are worked out on signed boards (1 moves first) and shown to the
student in its seed's form.

The alpha-beta question is marked the CS188 way: the student's search runs on
a small position to the end of the game, its environment functions replaced
by the reference's answers for every position of the tree (so the moves come
left to right, and a bug in ``terminal`` is not counted twice), and every
position it looks at, in the order it first sees each, is compared with the
positions alpha-beta examines.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.grade import values
from engine.grade.cases import drawn, random_cells, rng
from engine.grade.model import Case, Question, Reply, Verdict
from engine.grade.reference import seed000 as ref
from engine.grade.trees import GameTree, Reference, first_divergence
from engine.tree import Player


@dataclass(frozen=True)
class Form:
    """How a seed writes a board and a player."""

    seed: str  # "seed000"
    cells: Mapping[int, Any]  # signed value -> the seed's cell (1 -> 1 or 'x')
    dtype: str  # the request's array type: "int64" or "<U1"
    names: Mapping[int, str]  # signed player -> its name in messages ("1", "'x'")

    def board(self, signed: np.ndarray) -> dict[str, Any]:
        """A signed board as the request's argument in the seed's form."""
        return {"array": [[self.cells[int(v)] for v in row] for row in np.asarray(signed)], "dtype": self.dtype}

    def player(self, signed: int) -> Any:
        return self.cells[signed]

    def signed(self, array: np.ndarray) -> np.ndarray | None:
        """A board the student returned, as signed numbers; None if a cell is no cell of the form."""
        back = {str(cell): value for value, cell in self.cells.items()}
        try:
            return np.vectorize(lambda cell: back[str(cell)], otypes=[int])(array)
        except KeyError:
            return None

    def drawn(self, signed: np.ndarray) -> str:
        symbols = {1: "X", -1: "O", 0: "."}
        return drawn(signed, symbols) + "\n(X: " + self.names[1] + ", O: " + self.names[-1] + ")"

    def key(self, signed: np.ndarray) -> str:
        """A position's key in the child's tables: :func:`engine.grade.child.board_digits` of the seed's array."""
        return "".join(str(self.cells[int(v)]) for v in np.asarray(signed).flat)


SIGNED = Form("seed000", {1: 1, -1: -1, 0: 0}, "int64", {1: "1", -1: "-1"})
CHARACTERS = Form("seed001", {1: "x", -1: "o", 0: " "}, "<U1", {1: "'x'", -1: "'o'"})


def to_signed(cells: list[list[int]]) -> np.ndarray:
    """Cells of 1 (first player) / 2 (second) / 0 as a signed board."""
    board = np.array(cells)
    return np.where(board == 2, -1, board)


def random_boards(seed: int, form: Form, question: str, count: int, finished: bool | None = None) -> list[np.ndarray]:
    """``count`` signed positions of random games on boards of 4 to 7 rows and 4 to 8 columns; with
    ``finished`` True only games that are over, False only games still going."""
    generator = rng(seed, form.seed, question)
    boards: list[np.ndarray] = []
    while len(boards) < count:
        rows, cols = generator.randint(4, 7), generator.randint(4, 8)
        plies = generator.randint(0, rows * cols) if finished is not True else rows * cols
        cells, _, _ = random_cells(generator, rows, cols, plies)
        board = to_signed(cells)
        over = ref.terminal(board)
        if finished is None or over == finished:
            boards.append(board)
    return boards


def draw_boards(seed: int, form: Form, question: str, count: int) -> list[np.ndarray]:
    """``count`` full boards without a line (draws), of 4 rows and 4 to 6 columns."""
    generator = rng(seed, form.seed, question, "draws")
    boards: list[np.ndarray] = []
    while len(boards) < count:
        rows, cols = 4, generator.randint(4, 6)
        cells, _, _ = random_cells(generator, rows, cols, rows * cols, stop_at_win=False)
        board = to_signed(cells)
        if not ref.winner(board):
            boards.append(board)
    return boards


# -- actions --------------------------------------------------------------------------------------
def actions_question(
    form: Form, name: str, signature: str, points: float, seed_boards: list[tuple[str, np.ndarray]]
) -> Question:
    def cases(seed: int) -> list[Case]:
        found = [_case(label, board, name, form) for label, board in seed_boards]
        found += [
            _case(f"hidden {k}", b, name, form, True) for k, b in enumerate(random_boards(seed, form, name, 10), 1)
        ]
        return found

    def _case(label: str, board: np.ndarray, function: str, form: Form, hidden: bool = False) -> Case:
        request = {"function": function, "args": [form.board(board)]}
        return Case(label, request, ref.actions(board), hidden, form.drawn(board))

    def check(case: Case, reply: Reply) -> Verdict:
        got = values.columns(reply.get("value"))
        if got is None:
            return Verdict.wrong(
                f"returned {values.shown(reply.get('value'))}: {name} returns the columns, e.g. [0, 2, 3]"
            )
        if len(set(got)) != len(got):
            return Verdict.wrong(f"returned {got}: a column is there twice")
        if set(got) != set(case.expected):
            return Verdict.wrong(f"returned {sorted(got)}; the columns with room are {case.expected}")
        return Verdict.right()

    return Question(
        name,
        points,
        signature,
        "the columns (counted from 0) whose top cell is empty, in any order, on boards of any size",
        cases,
        check,
    )


# -- result -----------------------------------------------------------------------------------------
def result_question(
    form: Form,
    name: str,
    signature: str,
    points: float,
    arguments: Callable[[np.ndarray, int, int], list[Any]],
    mover_given: bool,
) -> Question:
    """``arguments(board, column, mover)`` makes the call's arguments; ``mover_given``: the call names the player."""

    def cases(seed: int) -> list[Case]:
        generator = rng(seed, form.seed, name, "columns")
        found = []
        for k, board in enumerate(random_boards(seed, form, name, 12, finished=False), start=1):
            column = generator.choice(ref.actions(board))
            mover = generator.choice((1, -1)) if mover_given else ref.to_move(board)
            request = {"function": name, "args": arguments(board, column, mover), "after": [0]}
            expected = ref.play(board, column, mover)
            found.append(
                Case(
                    f"hidden {k}: column {column}, {form.names[mover]} to move",
                    request,
                    expected,
                    True,
                    form.drawn(board),
                )
            )
        return found

    def check(case: Case, reply: Reply) -> Verdict:
        before = case.request["args"][0]["array"]
        got = values.array(reply.get("value"))
        signed = None if got is None else form.signed(got)
        after = values.array(reply["after"][0])
        if signed is None or signed.shape != case.expected.shape:
            return Verdict.wrong(f"returned {values.shown(reply.get('value'))}, not a board of the same size")
        if not np.array_equal(signed, case.expected):
            return Verdict.wrong("returned a board that is not the reference's:\n" + form.drawn(case.expected))
        if after is None or after.tolist() != before or reply.get("same") == 0:
            return Verdict(0.5, "changed the board it was given: the transition model returns a new board")
        return Verdict.right()

    what = "the player to move (the one with fewer discs; 1 when both have as many)" if not mover_given else "player"
    return Question(
        name,
        points,
        signature,
        f"a new board with a disc of {what} in the lowest empty cell of the column; the board given is not changed",
        cases,
        check,
    )


# -- terminal and utility ----------------------------------------------------------------------------
def terminal_question(form: Form, name: str, signature: str, points: float) -> Question:
    def cases(seed: int) -> list[Case]:
        boards = random_boards(seed, form, name, 6, finished=True) + random_boards(seed, form, name + "+", 8, False)
        boards += draw_boards(seed, form, name, 2)
        order = rng(seed, form.seed, name, "order")
        order.shuffle(boards)
        return [
            Case(f"hidden {k}", {"function": name, "args": [form.board(b)]}, ref.terminal(b), True, form.drawn(b))
            for k, b in enumerate(boards, start=1)
        ]

    def check(case: Case, reply: Reply) -> Verdict:
        got = values.truth(reply.get("value"))
        if got is None:
            return Verdict.wrong(
                f"returned {values.shown(reply.get('value'))} ({values.type_name(reply.get('value'))}): "
                f"{name} returns True or False"
            )
        if got != case.expected:
            why = _over(case.expected, case)
            return Verdict.wrong(f"returned {got}; {why}")
        return Verdict.right()

    return Question(
        name,
        points,
        signature,
        "True once a player has four in a row, a column or a diagonal, or the board is full; else False",
        cases,
        check,
    )


def _over(expected: bool, case: Case) -> str:
    return "the game is over (a line of four, or a full board)" if expected else "the game goes on (no line, room left)"


def utility_question(
    form: Form,
    name: str,
    signature: str,
    points: float,
    arguments: Callable[[np.ndarray, int], list[Any]],
    ongoing: bool,
) -> Question:
    """``arguments(board, player)``; ``ongoing``: boards where the game goes on are asked too (None is due)."""

    def cases(seed: int) -> list[Case]:
        generator = rng(seed, form.seed, name, "players")
        boards = random_boards(seed, form, name, 8, finished=True) + draw_boards(seed, form, name, 2)
        if ongoing:
            boards += random_boards(seed, form, name + "+", 4, finished=False)
        found = []
        for k, board in enumerate(boards, start=1):
            player = generator.choice((1, -1)) if ongoing else 1
            value = ref.utility(board)
            expected = None if value is None else value * player
            label = f"hidden {k}" + (f", for {form.names[player]}" if ongoing else "")
            found.append(
                Case(label, {"function": name, "args": arguments(board, player)}, expected, True, form.drawn(board))
            )
        return found

    def check(case: Case, reply: Reply) -> Verdict:
        value = reply.get("value")
        if case.expected is None:
            return (
                Verdict.right()
                if value is None
                else Verdict.wrong(f"returned {values.shown(value)}; the game goes on: None")
            )
        got = values.number(value)
        if got is None or values.truth(value) is not None:
            return Verdict.wrong(f"returned {values.shown(value)}; the utility is a number: 1, -1 or 0")
        if got != case.expected:
            return Verdict.wrong(f"returned {values.shown(value)}; the reference gives {case.expected}")
        return Verdict.right()

    whose = "for player 1 (red)" if not ongoing else "for the player given"
    return Question(
        name,
        points,
        signature,
        f"on a board where the game is over: 1 for a win {whose}, -1 for a loss, 0 for a draw"
        + ("; None while the game goes on" if ongoing else ""),
        cases,
        check,
    )


# -- random player --------------------------------------------------------------------------------------
#: Calls per case of the random player.
RANDOM_CALLS = 40


def random_question(form: Form, name: str, signature: str, points: float, player_arg: bool) -> Question:
    def cases(seed: int) -> list[Case]:
        boards = [("the empty 6x7 board", np.zeros((6, 7), dtype=int))]
        one = np.zeros((4, 4), dtype=int)
        one[:, :3] = [[1, -1, 1], [-1, 1, -1], [1, -1, 1], [-1, 1, -1]]
        boards.append(("a 4x4 board with one column left", one))
        boards += [(f"hidden {k}", b) for k, b in enumerate(random_boards(seed, form, name, 4, finished=False), 1)]
        found = []
        for k, (label, board) in enumerate(boards):
            args: list[Any] = [form.board(board)]
            if player_arg:
                args.append(form.player(ref.to_move(board)))
            request = {"function": name, "args": args, "repeat": RANDOM_CALLS, "seed": seed * 1000 + k}
            found.append(Case(label, request, ref.actions(board), label.startswith("hidden"), form.drawn(board)))
        return found

    def check(case: Case, reply: Reply) -> Verdict:
        answers = values.items(reply.get("value")) or []
        moves = [values.integer(answer) for answer in answers]
        bad = next((answers[i] for i, m in enumerate(moves) if m is None or m not in case.expected), None)
        if bad is not None or not moves:
            return Verdict.wrong(f"returned {values.shown(bad)}: the columns with room are {case.expected}")
        distinct = len(set(moves))
        if len(case.expected) >= 4 and distinct < 3:
            played = sorted({m for m in moves if m is not None})
            return Verdict(0.5, f"played only {played} in {len(moves)} calls: that is not random")
        return Verdict.right()

    return Question(
        name,
        points,
        signature,
        f"a legal column chosen at random (called {RANDOM_CALLS} times a board: all legal, and varied)",
        cases,
        check,
    )


# -- alpha-beta ---------------------------------------------------------------------------------------
def game_tree(board: np.ndarray, player: int) -> GameTree:
    """The whole game below ``board``, ``player`` to move, moves left to right, a leaf worth the utility
    for ``player`` (1 a win, -1 a loss, 0 a draw)."""

    def children(position: Any) -> list[tuple[int, Any]]:
        cells, mover = position
        return [(a, (ref.play(cells, a, mover), -mover)) for a in ref.actions(cells)]

    def leaf(position: Any, depth: int) -> tuple[float, str] | None:
        cells, _ = position
        value = ref.utility(cells)
        if value is None:
            return None
        reason = "the board is full" if not ref.winner(cells) else f"{'1' if ref.winner(cells) == 1 else '-1'} has won"
        return value * player, f"the game is over there ({reason})"

    def key(position: Any) -> Hashable:
        return np.asarray(position[0], dtype=np.int64).tobytes()

    return GameTree.build((board.copy(), player), children, leaf, key)


@dataclass(frozen=True)
class Patch:
    """An environment function the search question answers from the reference's table.

    ``board``: which argument holds the board; ``key``: which other arguments the answer depends on;
    ``keys(cells)``: every value of those arguments a search may pass at a position; ``answer(cells,
    key values, mover)``: the reference's answer, as a request value (see :func:`engine.grade.child.decode`).
    """

    board: int
    key: list[int]
    keys: Callable[[np.ndarray], list[list[Any]]]
    answer: Callable[[np.ndarray, list[Any], int], Any]


def no_keys(cells: np.ndarray) -> list[list[Any]]:
    return [[]]


@dataclass(frozen=True)
class Search:
    """The alpha-beta question's form: the function, how it is called, and what it returns."""

    name: str
    signature: str
    arguments: Callable[[Form, np.ndarray, int], list[Any]]
    returns_value: bool  # (value, move) rather than a move
    patches: Mapping[str, Patch]


def search_question(form: Form, search: Search, points: float, seed_boards: list[tuple[str, np.ndarray]]) -> Question:
    def cases(seed: int) -> list[Case]:
        found = [_search_case(form, search, label, board, 1) for label, board in seed_boards]
        generator = rng(seed, form.seed, search.name)
        while len(found) < len(seed_boards) + 6:
            rows, cols = generator.choice(((4, 4), (4, 5), (5, 4)))
            cells, _, _ = random_cells(generator, rows, cols, rows * cols - generator.randint(5, 7))
            board = to_signed(cells)
            if ref.terminal(board):
                continue
            label = f"hidden {len(found) - len(seed_boards) + 1}: {rows}x{cols}"
            found.append(_search_case(form, search, label, board, ref.to_move(board), hidden=True))
        return found

    def check(case: Case, reply: Reply) -> Verdict:
        reference: Reference = case.expected
        messages, score = [], 0.0
        answer = reply.get("value")
        if search.returns_value:
            pair = values.items(answer)
            value, move = (values.number(pair[0]), values.integer(pair[1])) if pair and len(pair) == 2 else (None, None)
        else:
            value, move = None, values.integer(answer)
        best = sorted(reference.best_moves())
        right_value = not search.returns_value or value == reference.value
        if move in best and right_value:
            score += 0.5
        else:
            wanted = (
                f"({reference.value:g}, {' or '.join(map(str, best))})"
                if search.returns_value
                else " or ".join(map(str, best))
            )
            messages.append(f"returned {values.shown(answer)}; the reference gives {wanted}")
        seen = [_position(entry, case) for entry in reply.get("trace") or []]
        ours = _first_seen(reference)
        index: dict[Hashable, str] = {}
        for path in [*ours, *reference.tree.keys]:  # a position reached twice: where alpha-beta first sees it
            index.setdefault(reference.tree.keys[path], path)
        paths = [index.get(key) for key in seen]
        divergence = first_divergence(
            reference, paths, _describer(reference), lambda i: _text(paths[i], reference), "positions", ours
        )
        payload = None
        if divergence is None:
            score += 0.5
        else:
            messages.append(f"the positions it looks at leave alpha-beta's: {divergence.said}")
            payload = {"ours": divergence.ours, "theirs": divergence.theirs}
        return Verdict(score, " ".join(messages), payload)

    def draw(case: Case, divergence: Mapping[str, Any], path: Any) -> None:
        from engine.grade.pictures import draw_divergence

        reference: Reference = case.expected
        names = {p: f"col {m[-1]}" for p, m in reference.tree.moves.items() if m}
        title = f"{search.name}, {case.label.split(':')[0]}"
        draw_divergence(reference, divergence.get("ours"), divergence.get("theirs"), names, path, title)

    returns = "(value, move): the value +1 / 0 / -1 for the player" if search.returns_value else "the move (a column)"
    return Question(
        search.name,
        points,
        search.signature,
        f"minimax with alpha-beta cuts to the end of the game, returning {returns}; marked on the move (any "
        "best move is right) and on the positions it looks at: with the moves left to right, every position "
        "alpha-beta examines, in order, and no other",
        cases,
        check,
        seconds=20.0,
        draw=draw,
    )


def _search_case(form: Form, search: Search, label: str, board: np.ndarray, player: int, hidden: bool = False) -> Case:
    tree = game_tree(board, player)
    reference = Reference.of(tree, Player.MAX)
    patches = {}
    positions = {}
    for path, line in tree.moves.items():
        cells = board.copy()
        mover = player
        for column in line:
            cells = ref.play(cells, column, mover)
            mover = -mover
        positions[path] = (cells, mover)
    for name, patch in search.patches.items():
        table: dict[str, Any] = {}
        for cells, mover in positions.values():
            for extra in patch.keys(cells):
                table["|".join([*(str(x) for x in extra), form.key(cells)])] = patch.answer(cells, extra, mover)
        patches[name] = {"kind": "table", "board": patch.board, "key": patch.key, "table": table}
    request = {
        "function": search.name,
        "args": search.arguments(form, board, player),
        "patch": patches,
        "trace": {"kind": "positions", "board": 0},
    }
    return Case(label + f", {form.names[player]} to move", request, reference, hidden, form.drawn(board))


def _position(entry: list[Any], case: Case) -> bytes | None:
    """The position of a recorded entry (its cells that differ from the root's), as the tree keys it."""
    diff = entry[0]
    if not isinstance(diff, list):
        return None
    board = _root_board(case)
    for row, col, value in diff:
        board[row][col] = SIGNED_OF.get(value, 0) if isinstance(value, str) else value
    return board.tobytes()


#: Seed 001's characters as signed numbers.
SIGNED_OF = {"x": 1, "o": -1, " ": 0}


def _root_board(case: Case) -> np.ndarray:
    cells = case.request["args"][0]["array"]
    return np.array([[SIGNED_OF.get(c, 0) if isinstance(c, str) else c for c in row] for row in cells], dtype=np.int64)


def _first_seen(reference: Reference) -> list[str]:
    """The reference's visits, each position once (at its first visit)."""
    seen: set[Hashable] = set()
    order = []
    for path in reference.visited():
        key = reference.tree.keys[path]
        if key not in seen:
            seen.add(key)
            order.append(path)
    return order


def _describer(reference: Reference) -> Callable[[str], str]:
    def describe(path: str) -> str:
        line = reference.tree.moves[path]
        return "the starting board" if not line else "the board after columns " + ", ".join(map(str, line))

    return describe


def _text(path: str | None, reference: Reference) -> str:
    return (
        "a board that is not in the game tree below the starting board" if path is None else _describer(reference)(path)
    )


def infinite() -> dict[str, str]:
    return {"float": str(math.inf)}
