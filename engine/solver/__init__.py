"""Perfect play: an exact solver for every board size, per-column analysis, opening books.

One idea per module:

* :mod:`~engine.solver.table` - the transposition table (exact keys on every board, buckets kept by work);
* :mod:`~engine.solver.settings` - the table sizes commands offer, the move order's weights;
* :mod:`~engine.solver.arrays` - the arrays the kernels work in (table, scratch) and their SolveContext, without numba;
* :mod:`~engine.solver.moves` - which moves to search, and in what order;
* :mod:`~engine.solver.claimeven` - the second player's follow-up strategy bounds the first's score;
* :mod:`~engine.solver.symmetry` - mirror images share table entries in the opening;
* :mod:`~engine.solver.negamax` - the search kernels: negamax and the null-window driver;
* :mod:`~engine.solver.questions` - which null-window question a solve asks next;
* :mod:`~engine.solver.auto` - :class:`AutoSolver`: the one way in, the quickest solver that can answer;
* :mod:`~engine.solver.results` - what every solver answers: :class:`Solution`, :class:`Analysis`, ...;
* :mod:`~engine.solver.solver` - :class:`Solver`: numba's solve, analyze, best move, with limits;
* :mod:`~engine.solver.replay` - move strings straight into bitboards, for many positions;
* :mod:`~engine.solver.parallel` - one question shared out on any number of threads;
* :mod:`~engine.solver.quick` - small positions in plain Python, before numba is loaded;
* :mod:`~engine.solver.aot` - the search built ahead of time: real searches before numba is loaded;
* :mod:`~engine.solver.book` and :mod:`~engine.solver.book_builder` - opening books.

Every caller goes in through :class:`AutoSolver`::

    from engine import AutoSolver, Board, Limits

    solver = AutoSolver()                              # 7x6 with the opening book
    solver.solve(Board.from_moves("4453")).score       # Score.pons(-2): exact, Pons's convention
    solver.analyze("4453", Limits(seconds=5)).scores   # one exact Score per column (None: full)
    solver.best_move("4453").column                    # a best column, the centre-most of the equal ones
"""

from typing import TYPE_CHECKING

from engine.lazy import lazy_exports

if TYPE_CHECKING:  # (what the names below are, for type checkers)
    from engine.solver.auto import AutoSolver
    from engine.solver.book import Book, load_default
    from engine.solver.results import Analysis, BestMove, Solution, Ties
    from engine.solver.solver import Solver

#: Where each public name lives; imported on first use, so that importing one module of the
#: package (its settings, the quick solver) does not load numba and the compiled search.
_HOMES = {
    "Analysis": "engine.solver.results",
    "AutoSolver": "engine.solver.auto",
    "BestMove": "engine.solver.results",
    "Book": "engine.solver.book",
    "Solution": "engine.solver.results",
    "Solver": "engine.solver.solver",
    "Ties": "engine.solver.results",
    "load_default": "engine.solver.book",
}

__all__ = [
    "Analysis",
    "AutoSolver",
    "BestMove",
    "Book",
    "Solution",
    "Solver",
    "Ties",
    "load_default",
]
__getattr__ = lazy_exports(__name__, _HOMES)
