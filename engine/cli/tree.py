"""``tree``: minimax and alpha-beta on an abstract game tree (seed 002, Exercise 3.1)."""

from __future__ import annotations

import argparse

from engine.console import emit
from engine.errors import EngineError
from engine.files import check_picture_target
from engine.tree import (
    EXAMPLE_BRANCHING,
    MAX_DEPTH,
    MAX_NODES,
    ORDERS,
    AlphaBetaResult,
    Bound,
    Cut,
    Enter,
    Leaf,
    MinimaxResult,
    Node,
    Player,
    Return,
    alphabeta,
    example_tree,
    fmt,
    minimax,
    parse_branching,
    parse_leaves,
    parse_tree,
    player_at,
    shape,
    tree_from_branching,
)

EPILOG = f"""\
A tree is typed in nested brackets, one pair per inner node, numbers on the
leaves (commas or spaces between items; quote it for the shell):
  python -m engine tree '[[3,12,8],[2,4,6],[14,5,2]]'
or as a branching (children per level, root first) and the leaves left to right:
  python -m engine tree --branching 2x2x2 --leaves 3,5,6,9,1,2,0,-1
(with spaces between the values and a minus sign first, write --leaves='-3 5 ...').
Nodes are named by their path: A is the root, A.2 its second child, A.2.1 the
first child of that. At most {MAX_NODES:,} nodes and {MAX_DEPTH} levels below the root.

Without a tree it uses an example with the shape of seed 002's Exercise 3.1
({"x".join(map(str, EXAMPLE_BRANCHING))}); the seed's own leaf values are in a figure that its text does
not hold, so type them in to check your answer to the exercise."""


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "tree",
        help="minimax and alpha-beta on an abstract game tree, with every cut explained (seed 002, 3.1)",
        description="Minimax and alpha-beta on an abstract game tree: every node's value, every cut "
        "with the alpha and beta that caused it, and the nodes each search visits.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("tree", nargs="?", metavar="TREE", help="the tree in nested brackets (default: the example)")
    parser.add_argument("--branching", metavar="BxBx...", help="children per level, root first, e.g. 3x3x3")
    parser.add_argument("--leaves", metavar="V,V,...", help="the leaf values left to right (with --branching)")
    parser.add_argument(
        "--order",
        choices=ORDERS,
        default="given",
        help="the order alpha-beta visits children: as given (default), best first for the player "
        "to move (by their true minimax values: alpha-beta's best case) or worst first",
    )
    parser.add_argument("--min-first", action="store_true", help="MIN moves at the root (default: MAX)")
    parser.add_argument("--png", metavar="FILE", help="also draw the tree, its values and its cuts into this PNG file")
    parser.set_defaults(run=run)


def read_tree(args: argparse.Namespace) -> tuple[Node, bool]:
    """The tree the arguments describe, and whether it is the built-in example."""
    if args.branching is not None or args.leaves is not None:
        if args.tree is not None:
            raise EngineError("give the tree either in brackets or with --branching and --leaves, not both")
        if args.branching is None or args.leaves is None:
            raise EngineError("--branching and --leaves go together: the shape and the leaf values")
        return tree_from_branching(parse_branching(args.branching), parse_leaves(args.leaves)), False
    if args.tree is None:
        return example_tree(), True
    return parse_tree(args.tree), False


def run(args: argparse.Namespace) -> int:
    picture = None if args.png is None else check_picture_target(args.png, "--png")
    tree, is_example = read_tree(args)
    root_player = Player.MIN if args.min_first else Player.MAX
    plain = minimax(tree, root_player)
    result = alphabeta(tree, root_player, args.order)
    if picture is not None:  # drawn first: a tree too large to draw is one error line
        from engine.tree_drawing import draw

        draw(tree, root_player, args.order, plain, result, picture)
    for line in report(tree, root_player, args.order, plain, result, is_example):
        emit(line)
    if args.png is not None:
        emit(f"drawing written to {args.png}")
    return 0


ORDER_WORDS = {
    "given": "as given",
    "best": "best first (by their true minimax values)",
    "worst": "worst first (by their true minimax values)",
}


def report(
    tree: Node, root_player: Player, order: str, plain: MinimaxResult, result: AlphaBetaResult, is_example: bool
) -> list[str]:
    """Everything ``tree`` prints: the trace, every node's value and the counts."""
    lines = [
        f"Tree: {shape(tree)}, {plain.nodes} nodes, {plain.leaves} leaves; "
        f"{root_player.value} moves at the root A; children visited {ORDER_WORDS[order]}.",
    ]
    if is_example:
        lines.append(
            "(Example values on the shape of seed 002's Exercise 3.1: the seed's own values are in a "
            "figure its text does not hold. Type yours: see --help.)"
        )
    lines += ["", "Alpha-beta, in the order it visits the nodes (alpha and beta as each node is entered):"]
    lines += trace_lines(result, plain)
    lines += ["", "Minimax value of every node (* = never visited by alpha-beta):"]
    lines += value_lines(tree, root_player, plain, set(result.visited))
    saved = plain.nodes - result.nodes
    cuts = len(result.cuts)
    lines += [
        "",
        f"{'':12}{'nodes':>7}{'leaves evaluated':>18}",
        f"{'minimax':12}{plain.nodes:>7}{plain.leaves:>18}",
        f"{'alpha-beta':12}{result.nodes:>7}{result.leaves:>18}",
        f"Alpha-beta visits {saved} fewer nodes ({saved / plain.nodes:.0%}) with {cuts} cut{'s' * (cuts != 1)}, "
        f"and finds the same value.",
    ]
    if result.best_child is not None:
        lines.append(f"Root value {fmt(result.value)}: {root_player.value} moves to {result.best_child}.")
    else:
        lines.append(f"Root value {fmt(result.value)}: the root is a leaf, there is no move.")
    return lines


def trace_lines(result: AlphaBetaResult, plain: MinimaxResult) -> list[str]:
    depth = {path: path.count(".") for path in result.visited}
    width = max(2 * d + len(path) for path, d in depth.items()) + 2
    lines = []
    for event in result.events:
        indent = "  " * event.path.count(".")
        name = f"{indent}{event.path}".ljust(width)
        if isinstance(event, Enter):
            lines.append(f"{name}{event.player.value}  alpha={fmt(event.alpha.value)} beta={fmt(event.beta.value)}")
        elif isinstance(event, Leaf):
            lines.append(f"{name}leaf {fmt(event.value)}")
        elif isinstance(event, Cut):
            lines.append(f"{indent}  {cut_text(event)}")
        elif isinstance(event, Return):
            true = plain.values[event.path]
            if event.low == event.high:
                lines.append(f"{name}{event.player.value}  = {fmt(event.value)}")
            else:
                bound = f"returns {fmt(event.value)}, a bound: {event.known}"
                lines.append(f"{name}{event.player.value}  {bound} (minimax {fmt(true)})")
    return lines


def cut_text(cut: Cut) -> str:
    """``cut at A.2 after child A.2.1: value 5 <= alpha 6 (...); not visited: A.2.2, A.2.3``."""
    return (
        f"cut at {cut.path} after child {cut.after}: {cut.reason} "
        f"(alpha {fmt(cut.alpha.value)}, beta {fmt(cut.beta.value)}; {bound_origin(cut)}); "
        f"not visited: {', '.join(cut.pruned)}"
    )


def bound_origin(cut: Cut) -> str:
    """Where the bound that caused the cut was set, in words."""
    bound: Bound = cut.bound
    name = "alpha" if cut.player is Player.MIN else "beta"
    return f"{name} set at {bound.at} by {bound.via}"


def value_lines(tree: Node, root_player: Player, plain: MinimaxResult, visited: set[str]) -> list[str]:
    """One line per inner node, in tree order: ``A.1  MIN  6 = min(12, 6, 14*)``."""

    def shown(node: Node) -> str:
        return f"{fmt(plain.values[node.path])}{'' if node.path in visited else '*'}"

    inner = [node for node in tree.walk() if not node.is_leaf]
    if not inner:
        return [f"A{'' if 'A' in visited else '*'}  leaf  {shown(tree)}"]
    width = max(len(node.path) for node in inner) + 1
    lines = []
    for node in inner:
        player = player_at(node, root_player)
        name = f"{node.path}{'' if node.path in visited else '*'}".ljust(width)
        children = ", ".join(shown(child) for child in node.children)
        lines.append(f"{name}  {player.value}  {fmt(plain.values[node.path]):>4} = {player.value.lower()}({children})")
    return lines
