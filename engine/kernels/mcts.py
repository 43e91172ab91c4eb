"""Monte Carlo tree search (UCT) with MCTS-Solver backups, on a preallocated tree.

Each iteration walks from the root down the tree, choosing children by the
UCB1 rule; at a leaf it adds the leaf's children (expansion) and finishes the
game from there with a playout; then it adds the result to every node on the
way back (backup). Over many iterations the tree grows towards the moves that
keep winning, and the most visited move at the root is the one to play.

**The tree** is a set of parallel arrays (:class:`Tree`) indexed by node
number, allocated once with room for a fixed number of nodes. A node's
children occupy consecutive slots, ``first_child .. first_child +
num_children - 1``, created all at once when the node is expanded (on its
second visit), central columns first. When the tree is full it stops growing
and the iterations go on from its leaves. The root is always slot 0
(:data:`ROOT`); between moves the subtree that is still useful is copied to a
fresh tree with its root in slot 0 (:func:`copy_subtree`). Positions are not
stored: the walk replays ``move`` from the root.

**Points of view.** ``points`` and ``status`` of a node are seen by the
player who made the move *into* that node, because that player chooses among
the children of the parent: the parent simply picks the child with the best
mean. A result scores 2 points for a win, 1 for a draw and 0 for a loss, so
that a draw counts half a win and the sums stay exact integers; the mean
result, a win rate in ``[0, 1]``, is ``points / (2 * visits)``.

**MCTS-Solver** (Winands, Björnsson and Saito, 2008). ``status`` holds a
proven outcome (``WIN``, ``DRAW`` or ``LOSS`` for the player who moved into
the node) or ``UNPROVEN``. A move that completes a line is a proven ``WIN``
from the moment it is created, a move that fills the board a ``DRAW``. A node
is proven as soon as one child is a proven ``WIN`` for the side to move there
(it will play it), or when all its children are proven (it gets the best of
them); this is checked again on the way back of every iteration that reaches
a proven node, so proofs climb the tree. Selection never enters a child that
is a proven loss, and an iteration that reaches a proven node backs up its
exact outcome without a playout. Once the root is proven the search stops.
Without the solver (``solver`` off) only the moves that end the game have a
known outcome, as in plain UCT.

**Implicit minimax backups** (Lanctot, Winands, Pepels and Sturtevant, 2014).
Playouts see threats only as far as chance takes them, so every node also
carries ``heuristic``, a value in ``[-1, 1]`` for the player who moved into
it: a new node gets the threat evaluation of its move (squashed by ``tanh``),
an expanded node minus the best of its children's values (negamax over the
tree built so far), refreshed on the way back of every iteration. Selection
blends the two::

    (1 - alpha) * (mean + c * sqrt(ln(parent visits) / visits)) + alpha * (heuristic + 1) / 2

and among children not visited yet it tries the best by the heuristic first
(seed 004's heuristic-guided expansion, ``guided``). ``alpha = 0`` is plain
UCT. Two details make the blend work. Without them the visits at the root
came out nearly uniform and the most visited opening was noise: at 10,000
iterations the empty board opened in columns 2 5 3 1 1 6 7 2 6 2 (seeds 1 to
10), while column 4 had the best mean every time.

- *Parity.* The threat evaluation favours the side that has just moved
  (alpha-beta with it on the empty board scores +28, -12, +36, -8, +36, -8,
  +44, -16 at depths 1 to 8), so a move's value swung by about 0.33 each time
  its subtree grew by a ply (column 4: +0.23 as a leaf, -0.10 once its replies
  were added), and the iterations went in bursts of about a thousand to
  whichever move's subtree had stopped at the favourable parity.
  So a move's value is the mean of the evaluations of the positions before and
  after it, both for its player: one position of each parity, so that growing
  the tree changes a value by less than the gaps between moves (``parity``;
  off: the position after the move alone, as in the paper).
- *The margin.* UCB1's margin bounds the error of the mean, the only sampled
  part of the blend, so it is weighed by ``1 - alpha`` like the mean. Added in
  full (the paper's form) it swamped the differences between means, which
  ``alpha = 0.7`` scales down to 30 %: as if ``c`` were 4.7 for plain UCT.

Measured (``python -m engine bench mcts``; docs/mcts.md has the tables):
100 games per figure, alternating colours, at 1,000 / 10,000 iterations per
move for both sides. Against plain UCT with random playouts and the solver,
the default scored 84 / 70 % before these two details and 87.5 / 91 % with
them. Against textbook UCT (no solver either), each enhancement alone:
smart playouts 76.5 / 66 %, the threat blend 88 / 91 %, guided expansion 48 /
50.5 % (worth nothing), the solver 57 / 84.5 %; all of them 85.5 / 92 %.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from engine.kernels.evaluation import threats
from engine.kernels.jit import inner
from engine.kernels.montecarlo import SMART, smart_playout
from engine.kernels.rules import DRAW, LOSS, WIN, can_play, is_winning_move, play, random_playout, stones
from engine.kernels.stop import stop_requested

#: ``status`` of a node whose outcome is not known yet.
UNPROVEN = 2

#: The slot of the root.
ROOT = 0
# The root's slot as the kernels pass it on: an int64, like every other slot. The
# literal 0 would make numba compile a second version of each helper it reaches.
_ROOT = np.int64(ROOT)

#: The search stops when the root has this many visits, far from where the
#: int32 counters (points are up to twice the visits) would overflow.
MAX_VISITS = 2**30 - 1

#: Bytes one node takes in the arrays of a :class:`Tree`.
NODE_BYTES = 4 + 4 + 4 + 1 + 1 + 1 + 4

#: The threat evaluation is divided by this before ``tanh``: a good threat (60) is worth about 0.5.
HEURISTIC_SCALE = 120.0


class Settings(NamedTuple):
    """How the search chooses, evaluates and proves (make one with :func:`make_settings`, which fixes the types)."""

    c: float  # exploration constant of UCB1
    alpha: float  # weight of the heuristic value beside the win rate (0: plain UCT)
    policy: int  # the playouts' policy (engine.kernels.montecarlo.RANDOM or SMART)
    guided: bool  # unvisited children are tried best heuristic value first (else central columns first)
    solver: bool  # MCTS-Solver: prove nodes from their children (else only the game's end is known)
    parity: bool  # a move's heuristic value weighs the position before it and after it (else after it only)


def make_settings(c=1.4, alpha=0.7, policy=SMART, guided=True, solver=True, parity=True) -> Settings:
    """:class:`Settings` with the types the kernels are compiled for (every call site gives the same ones)."""
    return Settings(float(c), float(alpha), int(policy), bool(guided), bool(solver), bool(parity))


class Tree(NamedTuple):
    """The search tree: one slot per node in each array, plus a fill counter."""

    visits: np.ndarray  # int32: iterations that passed through the node
    points: np.ndarray  # int32: their results summed (win 2, draw 1), for the player who moved into the node
    first_child: np.ndarray  # int32: slot of the first child, -1 while not expanded
    num_children: np.ndarray  # int8
    move: np.ndarray  # int8: the column played to reach the node (-1 at a root)
    status: np.ndarray  # int8: WIN, DRAW or LOSS once proven, else UNPROVEN
    heuristic: np.ndarray  # float32: the evaluation's minimax value in [-1, 1], for the player who moved into the node
    used: np.ndarray  # int64[1]: slots in use (the next free slot)


def new_tree(capacity: int) -> Tree:
    """An empty tree with room for ``capacity`` nodes and its root in slot 0.

    The arrays come from ``np.zeros``, whose memory the operating system only
    hands out when it is first written, so a small search in a big tree stays
    small. A node's fields are all written when the node is created.
    """
    tree = Tree(
        visits=np.zeros(capacity, dtype=np.int32),
        points=np.zeros(capacity, dtype=np.int32),
        first_child=np.zeros(capacity, dtype=np.int32),
        num_children=np.zeros(capacity, dtype=np.int8),
        move=np.zeros(capacity, dtype=np.int8),
        status=np.zeros(capacity, dtype=np.int8),
        heuristic=np.zeros(capacity, dtype=np.float32),
        used=np.ones(1, dtype=np.int64),
    )
    tree.first_child[ROOT] = -1
    tree.move[ROOT] = -1
    tree.status[ROOT] = UNPROVEN
    return tree


def new_path(cells: int) -> np.ndarray:
    """Room for the nodes of one walk from the root of a board of ``cells`` cells (a scratch array of the search)."""
    return np.empty(cells + 1, dtype=np.int64)


# -- the four steps -------------------------------------------------------------
@inner
def central_column(g, k):
    """The k-th column counted from the centre outwards: 3, 4, 2, 5, 1, 6, 0 on 7 columns."""
    offset = (k + 1) // 2
    return (g.cols - 1) // 2 + (offset if k % 2 == 1 else -offset)


@inner
def evaluation(current, mask, g):
    """The threat evaluation of the position squashed into ``(-1, 1)``, for the side to move."""
    return np.tanh(threats(current, mask, g) / HEURISTIC_SCALE)


@njit(cache=True, nogil=True)  # callable from Python too: a first start compiles it beside the playouts
def expand(tree, node, current, mask, g, settings):
    """Give ``node`` (at position ``current, mask``) one child per legal column.

    Children that end the game are proven at once (with the solver, so may
    ``node``). With ``alpha > 0`` or guided expansion each child gets a
    heuristic value from the threat evaluation: of the position after the
    move, averaged with the position before it when ``parity`` is on (see the
    module docstring). Returns False, and changes nothing, when the tree has
    no room left.
    """
    first = tree.used[0]
    legal = 0
    for col in range(g.cols):
        legal += can_play(mask, g, col)
    if first + legal > len(tree.visits):
        return False
    fills_board = stones(mask) + 1 == g.cols * g.rows
    evaluate = settings.alpha > 0 or settings.guided
    # The position before the move, seen by the side about to move: the player who moves into every child.
    before = evaluation(current, mask, g) if evaluate and settings.parity else 0.0
    child = first
    for k in range(g.cols):
        col = central_column(g, k)
        if not can_play(mask, g, col):
            continue
        tree.visits[child] = 0
        tree.points[child] = 0
        tree.first_child[child] = -1
        tree.num_children[child] = 0
        tree.move[child] = col
        tree.heuristic[child] = 0.0
        if is_winning_move(current, mask, g, col):
            tree.status[child] = WIN
            tree.heuristic[child] = 1.0
        elif fills_board:
            tree.status[child] = DRAW
        else:
            tree.status[child] = UNPROVEN
            if evaluate:
                after_current, after_mask = play(current, mask, g, col)
                # The evaluation is for the side to move after the move: the opponent, hence the minus.
                after = -evaluation(after_current, after_mask, g)
                tree.heuristic[child] = (before + after) / 2 if settings.parity else after
        child += 1
    tree.first_child[node] = first
    tree.num_children[node] = legal
    tree.used[0] = first + legal
    if settings.solver:
        update_status(tree, node)
    update_heuristic(tree, node)
    return True


@inner
def update_heuristic(tree, node):
    """Negamax: the node's value is minus the best of its children's (they are seen by the other side)."""
    best = -1.0
    first = tree.first_child[node]
    for child in range(first, first + tree.num_children[node]):
        if tree.heuristic[child] > best:
            best = tree.heuristic[child]
    tree.heuristic[node] = -best


@inner
def update_status(tree, node):
    """Prove ``node`` from its children if they allow it; True if it is proven.

    The children's statuses are seen by the side to move at ``node``; the
    node's own status is seen by the other side, hence the minus sign.
    """
    best = LOSS
    all_proven = True
    first = tree.first_child[node]
    for child in range(first, first + tree.num_children[node]):
        outcome = tree.status[child]
        if outcome == WIN:  # a winning move: the side to move at ``node`` will play it
            tree.status[node] = -WIN
            return True
        if outcome == UNPROVEN:
            all_proven = False
        elif outcome > best:
            best = outcome
    if all_proven:
        tree.status[node] = -best
    return all_proven


@inner
def select_child(tree, node, settings):
    """The child of ``node`` with the highest UCB1 score.

    ``(1 - alpha) * (mean + c * sqrt(ln(parent visits) / child visits)) +
    alpha * heuristic``: the mean result and its confidence margin (the first
    favours moves that did well so far, the second the moves tried least),
    blended with the heuristic value mapped to ``[0, 1]`` (see the module
    docstring). Unvisited children come first: the best by the heuristic
    value first if ``guided``, else in slot order (central columns first). A
    proven loss is never chosen.
    """
    c, alpha = settings.c, settings.alpha
    log_parent = np.log(max(tree.visits[node], 1))
    best, best_score = -1, -np.inf
    fresh = -1
    first = tree.first_child[node]
    for child in range(first, first + tree.num_children[node]):
        if tree.status[child] == LOSS:
            continue
        visits = tree.visits[child]
        if visits == 0:
            if fresh < 0 or (settings.guided and tree.heuristic[child] > tree.heuristic[fresh]):
                fresh = child
            continue
        mean = tree.points[child] / (2.0 * visits)
        margin = c * np.sqrt(log_parent / visits)
        score = (1.0 - alpha) * (mean + margin) + alpha * (tree.heuristic[child] + 1.0) / 2.0
        if score > best_score:
            best, best_score = child, score
    return fresh if fresh >= 0 else best


@inner
def backup(tree, path, depth, result, solver):
    """Add ``result`` (for the player who moved into ``path[depth]``) up the path.

    With the ``solver``, where the node below is proven, the node itself may
    now be proven too. The heuristic values on the path are refreshed.
    """
    proven = solver and tree.status[path[depth]] != UNPROVEN
    for d in range(depth, -1, -1):
        node = path[d]
        if proven and d < depth:
            proven = update_status(tree, node)
        if d < depth:
            update_heuristic(tree, node)
        tree.visits[node] += 1
        tree.points[node] += 1 + result  # win 2, draw 1, loss 0
        result = -result  # the parent was reached by the other player's move


@njit(cache=True, nogil=True)
def search(tree, current, mask, g, rng, settings, max_iterations, flag, max_depth, path):
    """Run iterations from the root (position ``current, mask``) until one limit is met.

    Limits: ``max_iterations`` (-1: none), the stop ``flag`` (polled every 16
    iterations, a few microseconds each), a proven root, and
    :data:`MAX_VISITS`. The root is expanded first, even when stopped at
    once, so a win in one is always seen. ``max_depth[0]`` is raised to the
    deepest iteration; ``path`` (``cells + 1`` int64) holds the nodes of the
    walk under way; ``settings`` is a :class:`Settings`. Returns the number
    of iterations.
    """
    if tree.first_child[ROOT] < 0:
        expand(tree, _ROOT, current, mask, g, settings)
    done = 0
    while tree.status[ROOT] == UNPROVEN and tree.visits[ROOT] < MAX_VISITS:
        if max_iterations >= 0 and done >= max_iterations:
            break
        if done % 16 == 0 and stop_requested(flag):
            break
        # One iteration: select, expand, play out, back up. (Written out here rather than in
        # a kernel of its own: one kernel less to compile on a first start.)
        node, depth = _ROOT, np.int64(0)  # not the literal 0 (see _ROOT)
        walk_current, walk_mask = current, mask
        path[0] = node
        while True:
            if tree.status[node] != UNPROVEN:
                result = tree.status[node]  # a known outcome needs no playout
                break
            if tree.first_child[node] < 0:
                # A leaf: expand it on its second visit (the first only plays out), so
                # that the tree grows by about one node per iteration.
                if tree.visits[node] == 0 or not expand(tree, node, walk_current, walk_mask, g, settings):
                    # The playout's side to move is not the one who moved into the leaf. (Each policy's
                    # kernel called directly, not through montecarlo.playout: one kernel less to compile.)
                    if settings.policy == SMART:
                        result = -smart_playout(walk_current, walk_mask, g, rng)
                    else:
                        result = -random_playout(walk_current, walk_mask, g, rng)
                    break
                if tree.status[node] != UNPROVEN:
                    continue
            node = select_child(tree, node, settings)
            walk_current, walk_mask = play(walk_current, walk_mask, g, np.int64(tree.move[node]))  # int8: one play
            depth += 1
            path[depth] = node
        backup(tree, path, depth, result, settings.solver)
        max_depth[0] = max(max_depth[0], depth)
        done += 1
    return done


# -- keeping the tree between moves --------------------------------------------------
@njit(cache=True, nogil=True)
def copy_subtree(source, root, target):
    """Copy the subtree of ``source`` under ``root`` into the empty ``target``.

    ``root`` lands in slot :data:`ROOT`. Nodes are copied breadth first, each family of
    children into consecutive slots, so the copy is a valid tree with no gaps
    and everything outside the subtree is dropped. Returns the nodes copied.
    """
    origin = np.empty(source.used[0], dtype=np.int32)  # the source slot of each target slot
    origin[ROOT] = root
    _copy_node(source, root, target, _ROOT)
    target.move[ROOT] = -1
    free = 1
    done = 0
    while done < free:
        first, count = source.first_child[origin[done]], source.num_children[origin[done]]
        if first >= 0:
            target.first_child[done] = free
            target.num_children[done] = count
            for k in range(count):
                _copy_node(source, first + k, target, free + k)
                origin[free + k] = first + k
            free += count
        done += 1
    target.used[0] = free
    return free


@inner
def _copy_node(source, i, target, j):
    target.visits[j] = source.visits[i]
    target.points[j] = source.points[i]
    target.first_child[j] = -1
    target.num_children[j] = 0
    target.move[j] = source.move[i]
    target.status[j] = source.status[i]
    target.heuristic[j] = source.heuristic[i]
