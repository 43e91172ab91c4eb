"""Every hand-made test board of the five seeds, transcribed as the seeds write them.

Each :class:`SeedBoard` keeps a board in its seed's own encoding, untouched:

- ``signed``: seed 000's and seed 001's numpy arrays, 1 / -1 / 0, top row first;
- ``xo``: seed 001's arrays of the characters ``'x'``, ``'o'`` and ``' '``;
- ``moves``: seed 003's ``makeExample([...])`` lists, 0-based columns, X (1) first;
- ``012``: seed 003's arrays of 1 (X) / 2 (O) / 0;
- ``grid``: seed 004's text grids (``X``, ``0`` for O, ``-`` empty), top row first.

``player`` is the side the seed asks to move, in its encoding (seeds 000 and 001
always call their agents for player 1 / ``'x'``); ``None`` means "whoever moves
next by the disc counts" (seeds 003 and 004 read it from the board). ``where``
names the notebook cells that use the board; ``seed_says`` is what the seed
printed or claimed there, quoted (its columns are 0-based in seeds 000, 001 and
003), and ``seed_moves`` the same columns as numbers. Nothing here is
corrected: several boards cannot arise in a game, and
:mod:`engine.experiments.seed_boards` reads them with a lenient reader and says
so. Boards the seeds only draw (a picture of a finished game, a full board in a
drawing test) are left out unless a test of the seed uses them.

Seed 002 has no board (its exercise 3.1 is an abstract tree, see ``engine
tree``). Seed 003's ``NoWins``, ``XWins`` and ``OWins`` lists, its tests of
``checkWin``, are cut off at the right margin in the seed's text (each row
stops after a few cells), so they cannot be transcribed; its tests of ``eval``
and ``minMax`` are complete and are here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Encoding = Literal["signed", "xo", "moves", "012", "grid"]


@dataclass(frozen=True)
class SeedBoard:
    seed: str  # "000" .. "004"
    name: str  # short and unique within its seed
    purpose: str  # what the seed tests with it
    encoding: Encoding
    data: object  # as the seed writes it
    player: int | str | None  # the side the seed asks to move (None: by the disc counts)
    where: str  # the seed's cells
    seed_says: str  # what the seed printed or claimed, quoted
    #: The columns the seed's agents chose here, 0-based as seeds 000, 001 and 003 print them
    #: (seed 004 prints none: read off its grids after each move), by the seed's name for the
    #: agent; "claim" is the column the seed's text says is the right one.
    seed_moves: tuple[tuple[str, int], ...] = ()

    @property
    def label(self) -> str:
        return f"{self.seed} {self.name}"


# -- seed 000 (numpy arrays, 1 / -1 / 0, its agents always play 1) ------------------------------
_S000_A = [[0, 0, 0, 0], [0, 1, -1, 1], [1, -1, -1, 1], [-1, -1, 1, 1]]
_S000_B = [[0, 0, 0, 0], [0, 0, 1, -1], [-1, 1, -1, 1], [1, -1, 1, -1]]
_S000_C = [[0, 0, 0, 0], [-1, 1, 1, -1], [-1, -1, 1, -1], [1, -1, 1, 1]]
_S000_D = [[0, 0, 0, 0], [-1, 0, 0, 0], [-1, -1, -1, 0], [1, 1, 1, 0]]
_S000_E = [[1, 0, 0, 0], [-1, 0, 0, 0], [1, -1, 1, 0], [-1, 1, 1, 1]]
_S000_F = [[-1, 0, 0, 0], [-1, 0, 0, 0], [-1, -1, 1, 0], [1, 1, 1, 0]]
_S000_G = [[0, 0, 0, 0], [-1, 1, -1, 1], [1, -1, -1, 1], [1, -1, 1, 1]]
_S000_H = [[0, 0, 0, 0], [-1, 1, 1, -1], [1, 1, -1, 1], [1, -1, 1, 1]]
_S000_BLOCK = [[0, 0, 0, 1], [1, -1, -1, -1], [-1, 1, -1, 1], [1, -1, 1, -1]]

SEED_000 = (
    SeedBoard(
        "000",
        "4x4 a",
        "win",
        "signed",
        _S000_A,
        1,
        "In [104], [139]",
        "alpha-beta: 3, 'winner is Player: 1'",
        seed_moves=(("alpha-beta", 3),),
    ),
    SeedBoard(
        "000",
        "4x4 b",
        "win",
        "signed",
        _S000_B,
        1,
        "In [103], [142], [158]",
        "alpha-beta: 3, cutoff 5: 3, both 'winner is Player: 1'",
        seed_moves=(("alpha-beta", 3), ("cutoff 5", 3)),
    ),
    SeedBoard(
        "000",
        "4x4 c",
        "win",
        "signed",
        _S000_C,
        1,
        "In [102], [144], [159]",
        "alpha-beta: 0, cutoff 5: 2, both 'winner is Player: 1'",
        seed_moves=(("alpha-beta", 0), ("cutoff 5", 2)),
    ),
    SeedBoard(
        "000",
        "4x4 d",
        "win",
        "signed",
        _S000_D,
        1,
        "In [101], [145], [160]",
        "alpha-beta: 3, cutoff 5: 3, both 'winner is Player: 1'",
        seed_moves=(("alpha-beta", 3), ("cutoff 5", 3)),
    ),
    SeedBoard(
        "000",
        "4x4 e",
        "win",
        "signed",
        _S000_E,
        1,
        "In [100], [149], [161]",
        "alpha-beta: 1, 'winner is Player: 1'; cutoff 42: 2, 'could not find terminal state' (wins next turn)",
        seed_moves=(("alpha-beta", 1), ("cutoff 42", 2)),
    ),
    SeedBoard(
        "000",
        "4x4 f",
        "win",
        "signed",
        _S000_F,
        1,
        "In [99], [151], [162]",
        "alpha-beta: 2, 'could not find terminal state'; cutoff 5: 3, 'winner is Player: 1'",
        seed_moves=(("alpha-beta", 2), ("cutoff 5", 3)),
    ),
    SeedBoard(
        "000",
        "4x4 g",
        "win",
        "signed",
        _S000_G,
        1,
        "In [152], [212]",
        "cutoff 5: 3, 'winner is Player: 1'",
        seed_moves=(("cutoff 5", 3),),
    ),
    SeedBoard(
        "000",
        "4x4 h",
        "win",
        "signed",
        _S000_H,
        1,
        "In [153]",
        "cutoff 5: 3, 'winner is Player: 1'",
        seed_moves=(("cutoff 5", 3),),
    ),
    SeedBoard(
        "000",
        "4x4 block",
        "block",
        "signed",
        _S000_BLOCK,
        1,
        "In [154]",
        "cutoff 5: 0, 'it can block the opponent'",
        seed_moves=(("cutoff 5", 0),),
    ),
    SeedBoard(
        "000",
        "5x4 eval a",
        "evaluation",
        "signed",
        [[-1, 0, 0, 0, 0], [1, 1, -1, 1, -1], [1, -1, 1, -1, -1], [1, 1, -1, 1, 1]],
        1,
        "In [135]",
        "heuristic_evaluation(board, 1) = (0.9, False)",
    ),
    SeedBoard(
        "000",
        "5x4 eval b",
        "evaluation",
        "signed",
        [[-1, 0, 0, 0, 0], [1, 1, 0, 1, -1], [1, -1, -1, 1, -1], [1, 1, -1, 1, 1]],
        1,
        "In [136]",
        "heuristic_evaluation(board, 1) = (0.9, False)",
    ),
    SeedBoard(
        "000",
        "5x4 eval c",
        "evaluation",
        "signed",
        [[-1, 0, 0, 0, 0], [1, -1, -1, 1, -1], [1, -1, -1, 1, -1], [1, 1, -1, 1, 1]],
        1,
        "In [137]",
        "heuristic_evaluation(board, 1) = (-0.9, False)",
    ),
    # The timing boards: In [185] repeats them with move ordering, but its 5-column board
    # has a first row of four cells there (a typo numpy refuses); In [182] has it whole.
    SeedBoard(
        "000",
        "4x4 timing",
        "timing",
        "signed",
        [[0, 0, 0, 0], [1, -1, 1, -1], [-1, 1, -1, -1], [1, 1, -1, 1]],
        1,
        "In [182], [185]",
        "alpha-beta to depth 11: 3 (ordered: 3)",
        seed_moves=(("alpha-beta", 3), ("alpha-beta, ordered", 3)),
    ),
    SeedBoard(
        "000",
        "5x4 timing",
        "timing",
        "signed",
        [[0, 0, 0, 0, 0], [-1, 1, -1, 1, -1], [1, -1, 1, 1, -1], [1, 1, -1, -1, 1]],
        1,
        "In [182]",
        "alpha-beta to depth 13: 4 (ordered: 4)",
        seed_moves=(("alpha-beta", 4), ("alpha-beta, ordered", 4)),
    ),
    SeedBoard(
        "000",
        "6x4 timing",
        "timing",
        "signed",
        [[0, 0, 0, 0, 0, 0], [0, 1, -1, -1, -1, 1], [1, -1, -1, 1, -1, -1], [1, 1, -1, 1, -1, 1]],
        1,
        "In [182], [185]",
        "alpha-beta to depth 15: 0 (ordered: 3)",
        seed_moves=(("alpha-beta", 0), ("alpha-beta, ordered", 3)),
    ),
    SeedBoard(
        "000",
        "7x4 timing",
        "timing",
        "signed",
        [[0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0], [0, -1, -1, 1, 1, -1, -1], [1, -1, 1, 1, 1, -1, 1]],
        1,
        "In [182], [185]",
        "alpha-beta to depth 21: 2 in 99 s (ordered: 3 in 1.26 s)",
        seed_moves=(("alpha-beta", 2), ("alpha-beta, ordered", 3)),
    ),
    SeedBoard(
        "000",
        "7x6 ordering",
        "move ordering",
        "signed",
        [
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 1, 0, 0, 0],
            [0, 0, 0, 1, 0, 0, 0],
            [0, -1, -1, 1, -1, 0, 0],
        ],
        1,
        "In [184]",
        "actions(board) = [3, 2, 4, 1, 5, 0, 6]",
    ),
    SeedBoard(
        "000",
        "5x4 opening",
        "first moves",
        "signed",
        [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, -1, 0, 0]],
        1,
        "In [190]",
        "'Selected Action is 2' (the centre, hard-coded for the first two moves)",
        seed_moves=(("alpha-beta", 2),),
    ),
    SeedBoard(
        "000",
        "7x7 empty",
        "first moves",
        "signed",
        [[0] * 7 for _ in range(7)],
        1,
        "In [191]",
        "'Selected Action is 3' (seven rows of seven drawn as its 'empty board')",
        seed_moves=(("alpha-beta", 3),),
    ),
    SeedBoard(
        "000",
        "7x6 empty",
        "first moves",
        "signed",
        [[0] * 7 for _ in range(6)],
        1,
        "In [163]",
        "pmcs(board, 3000, 1) = 3",
        seed_moves=(("pmcs", 3),),
    ),
)

# -- seed 001 (7 columns, 7 rows; x moves first and is the player asked) ------------------------
SEED_001 = (
    SeedBoard(
        "001",
        "7x7 a (numbers)",
        "win",
        "signed",
        [
            [0, 0, 0, 0, 0, 0, 0],
            [1, 0, 0, -1, 0, -1, 1],
            [-1, 1, -1, 1, -1, 1, -1],
            [1, -1, 1, -1, 1, 1, -1],
            [1, -1, 1, -1, 1, 1, 1],
            [1, -1, -1, -1, 1, -1, -1],
            [-1, 1, -1, 1, -1, 1, -1],
        ],
        1,
        "first board of Task 3",
        "'x is about to win (play in column 2)'",
        seed_moves=(("claim", 2),),
    ),
    SeedBoard(
        "001",
        "7x7 a (x/o)",
        "win",
        "xo",
        [
            [" ", " ", " ", " ", " ", " ", " "],
            ["x", " ", " ", "o", " ", "o", "x"],
            ["o", "x", "o", "x", "o", "x", "o"],
            ["x", "o", "x", "o", "x", "x", "o"],
            ["x", "o", "x", "o", "x", "x", "x"],
            ["x", "o", "o", "o", "x", "o", "o"],
            ["o", "x", "o", "x", "o", "x", "o"],
        ],
        "x",
        "second board of Task 3",
        "'x is about to win (play in column 2)'",
        seed_moves=(("claim", 2),),
    ),
    SeedBoard(
        "001",
        "7x7 b",
        "win",
        "xo",
        [
            [" ", " ", " ", " ", " ", " ", "x"],
            ["x", "o", "o", "o", "x", "o", "x"],
            ["o", "x", "o", "x", "o", "x", "o"],
            ["x", "o", "x", "o", "x", "x", "o"],
            ["x", "o", "x", "o", "x", "x", "x"],
            ["x", "o", "o", "o", "x", "o", "o"],
            ["o", "x", "o", "x", "o", "x", "o"],
        ],
        "x",
        "third board of Task 3",
        "'x is about to win (play in column 5)'",
        seed_moves=(("claim", 5),),
    ),
    SeedBoard(
        "001",
        "7x7 c",
        "draw",
        "xo",
        [
            [" ", " ", " ", " ", "x", "o", "x"],
            ["x", "o", "o", "o", "x", "o", "x"],
            ["o", "x", "o", "x", "o", "x", "o"],
            ["x", "o", "x", "o", "x", "x", "o"],
            ["x", "o", "x", "o", "x", "x", "x"],
            ["x", "o", "o", "o", "x", "o", "o"],
            ["o", "x", "o", "x", "o", "x", "o"],
        ],
        "x",
        "fourth board of Task 3",
        "'x can draw if it chooses 0.'",
        seed_moves=(("claim", 0),),
    ),
    SeedBoard(
        "001",
        "7x7 d",
        "win by blocking",
        "xo",
        [
            [" ", " ", " ", " ", " ", " ", " "],
            [" ", " ", " ", " ", " ", "o", " "],
            [" ", "x", "o", "x", " ", "x", " "],
            ["x", "o", "x", "o", " ", "o", "x"],
            ["o", "o", "x", "o", "x", "o", "x"],
            ["x", "x", "o", "o", "x", "o", "o"],
            ["o", "x", "o", "x", "o", "x", "x"],
        ],
        "x",
        "fifth board of Task 3",
        "'x can win if it chooses 3', 'preventing o from winning this turn'",
        seed_moves=(("claim", 3),),
    ),
    SeedBoard(
        "001",
        "7x7 e",
        "win",
        "xo",
        [
            [" ", " ", " ", " ", " ", " ", " "],
            [" ", " ", " ", " ", " ", " ", " "],
            [" ", " ", " ", " ", " ", "x", " "],
            ["x", "o", " ", " ", " ", "o", " "],
            ["o", "o", "x", " ", "x", "o", "x"],
            ["x", "x", "o", "o", "x", "o", "o"],
            ["o", "x", "o", "x", "o", "x", "x"],
        ],
        "x",
        "sixth board of Task 3",
        "'x can win if it chooses ?.'",
    ),
)

# -- seed 003 (8x8; makeExample: 0-based columns, X = 1 first, O = 2; O is minMax's max player) ---
SEED_003 = (
    SeedBoard(
        "003",
        "minMax board1",
        "win",
        "moves",
        [3, 4, 2, 5, 2, 6, 2],
        None,
        "Part B tests, maxDepth 1",
        "minMax: (922... (cut off; O wins in column 7)",
    ),
    SeedBoard(
        "003",
        "minMax board2",
        "block",
        "moves",
        [3, 4, 2, 5, 2, 0, 2],
        None,
        "Part B tests, maxDepth 1 and 2",
        "minMax: (10, ... at depth 1, (-50 ... at depth 2 (cut off)",
    ),
    SeedBoard(
        "003",
        "minMax board3",
        "block",
        "moves",
        [3, 0, 4, 4, 3, 4, 5],
        None,
        "Part B tests, maxDepth 2",
        "minMax: (-9223372036854775807, 7)",
        seed_moves=(("minMax", 7),),
    ),
    SeedBoard(
        "003", "eval 1", "evaluation", "moves", [3, 0, 4, 2, 5, 2, 4], None, "Part A testEval", "eval(B) printed"
    ),
    SeedBoard("003", "eval 2", "evaluation", "moves", [6, 5, 1], None, "Part A testEval", "eval(B) printed"),
    SeedBoard("003", "eval 3", "evaluation", "moves", [0, 2, 6, 1, 2, 1], None, "Part A testEval", "eval(B) printed"),
    SeedBoard(
        "003",
        "eval 4",
        "evaluation",
        "moves",
        [2, 6, 6, 1, 4, 0, 3, 3, 3, 2],
        None,
        "Part A testEval",
        "eval(B) printed",
    ),
    SeedBoard(
        "003",
        "eval 5",
        "evaluation",
        "moves",
        [4, 3, 2, 6, 5, 3, 7, 5, 4, 4, 1, 2],
        None,
        "Part A testEval",
        "eval(B) printed",
    ),
    SeedBoard(
        "003",
        "eval 6",
        "evaluation",
        "moves",
        [3, 5, 6, 2, 2, 5, 7, 3, 6, 6, 5, 4, 6, 4, 4],
        None,
        "Part A testEval",
        "eval(B) printed",
    ),
    SeedBoard(
        "003",
        "eval 7",
        "evaluation",
        "moves",
        [5, 1, 7, 0, 3, 6, 1, 4, 2, 2, 5, 0, 4, 5, 4, 2, 3, 6, 6, 1, 1, 2, 2, 7, 6, 7, 2, 0, 0, 5, 4, 7, 7, 4, 2],
        None,
        "Part A testEval",
        "eval(B) printed",
    ),
    SeedBoard(
        "003",
        "eval 8 (full)",
        "evaluation",
        "012",
        [[2, 1] * 4, [1, 2] * 4, [1, 2] * 4, [2, 1] * 4, [1, 2] * 4, [1, 2] * 4, [2, 1] * 4, [1, 2] * 4],
        None,
        "Part A testEval (r1 = [2, 1]*4; r2 = [1, 2]*4)",
        "eval(B) printed",
    ),
    SeedBoard(
        "003",
        "eval 9",
        "evaluation",
        "moves",
        [7, 1, 1, 5, 6, 1, 7, 6, 1, 3, 1, 2, 6, 0, 6],
        None,
        "Part A testEval",
        "eval(B) printed",
    ),
    SeedBoard(
        "003",
        "eval 10",
        "evaluation",
        "moves",
        [7, 7, 7, 4, 0, 0, 7, 6, 7, 2, 6, 6, 7, 6, 1],
        None,
        "Part A testEval",
        "eval(B) printed",
    ),
)

# -- seed 004 (text grids; read_state gives the move to whoever has fewer discs) -----------------
# The seed's text lost cells in its drawings: its empty rows show five cells, and two rows of
# state 3 six. Its board is 7 columns by 6 rows ("a grid of 7 columns by 6 rows"), and the
# grids after each algorithm's move place the new disc as these seven-cell rows do.
SEED_004 = (
    SeedBoard(
        "004",
        "state 1",
        "first moves",
        "grid",
        "# ----- #\n" + "| - - - - - - - |\n" * 6 + "# ----- #\n",
        None,
        "Game State 1 (In [19], [20])",
        "A*: column 0 (left corner); MiniMax: column 2; MCTS: column 3 (the centre)",
        seed_moves=(("A*", 0), ("MiniMax", 2), ("MCTS", 3)),
    ),
    SeedBoard(
        "004",
        "state 2",
        "block",
        "grid",
        "# ----- #\n" + "| - - - - - - - |\n" * 5 + "| X X X - - 0 0 |\n# ----- #\n",
        None,
        "Game State 2 (In [21], [22])",
        "A*: column 0; MiniMax: column 3; MCTS: column 3 ('block him')",
        seed_moves=(("A*", 0), ("MiniMax", 3), ("MCTS", 3)),
    ),
    SeedBoard(
        "004",
        "state 3",
        "block",
        "grid",
        "# ----- #\n"
        + "| - - - - - - - |\n" * 3
        + "| 0 - X X - - - |\n| 0 X 0 X - - - |\n| X X 0 0 X 0 - |\n# ----- #\n",
        None,
        "Game State 3 (In [23], [24])",
        "A*: column 0 (a 3-piece sequence); MiniMax: column 3; MCTS: column 3 (block)",
        seed_moves=(("A*", 0), ("MiniMax", 3), ("MCTS", 3)),
    ),
)

BOARDS: tuple[SeedBoard, ...] = SEED_000 + SEED_001 + SEED_003 + SEED_004
