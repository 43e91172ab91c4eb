"""``engine.tree`` and ``python -m engine tree``: minimax and alpha-beta on an abstract tree (seed 002, 3.1).

The values and cuts are checked against two small searches written here on
plain nested lists (read with ``json``, not with the module's reader): a
brute-force minimax, and a textbook alpha-beta (Russell and Norvig's, which
returns as soon as a value reaches the bound) that records its cuts.
"""

from __future__ import annotations

import json
import math
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.tree import (
    EXAMPLE_BRANCHING,
    EXAMPLE_LEAVES,
    MAX_DEPTH,
    MAX_NODES,
    Player,
    TreeError,
    alphabeta,
    example_tree,
    minimax,
    parse_tree,
    tree_from_branching,
)

ROOT = Path(__file__).resolve().parents[2]

# -- independent references, on nested lists ------------------------------------------


def nested(branching: tuple[int, ...], leaves: list[int]) -> list | int:
    """A regular tree as nested lists, built by slicing the leaves (not by the module)."""
    if not branching:
        assert len(leaves) == 1
        return leaves[0]
    size = len(leaves) // branching[0]
    return [nested(branching[1:], leaves[i * size : (i + 1) * size]) for i in range(branching[0])]


def brute_force(tree, maximizing: bool = True, path: str = "A", out: dict | None = None) -> dict[str, float]:
    """The minimax value of every node, by trying everything."""
    out = {} if out is None else out
    if isinstance(tree, list):
        values = [
            brute_force(child, not maximizing, f"{path}.{i}", out)[f"{path}.{i}"] for i, child in enumerate(tree, 1)
        ]
        out[path] = max(values) if maximizing else min(values)
    else:
        out[path] = tree
    return out


def textbook_alphabeta(tree, maximizing: bool = True):
    """Alpha-beta as textbooks write it; returns (value, leaves in visiting order, cuts).

    A cut is (node, child after which it stops, value, "alpha"/"beta", bound, children skipped).
    """
    leaves: list[str] = []
    cuts: list[tuple] = []

    def search(t, path, alpha, beta, maximizing):
        if not isinstance(t, list):
            leaves.append(path)
            return t
        v = -math.inf if maximizing else math.inf
        for i, child in enumerate(t, 1):
            w = search(child, f"{path}.{i}", alpha, beta, not maximizing)
            skipped = [f"{path}.{j}" for j in range(i + 1, len(t) + 1)]
            if maximizing:
                v = max(v, w)
                if v >= beta:
                    if skipped:
                        cuts.append((path, f"{path}.{i}", v, "beta", beta, skipped))
                    return v
                alpha = max(alpha, v)
            else:
                v = min(v, w)
                if v <= alpha:
                    if skipped:
                        cuts.append((path, f"{path}.{i}", v, "alpha", alpha, skipped))
                    return v
                beta = min(beta, v)
        return v

    value = search(tree, "A", -math.inf, math.inf, maximizing)
    return value, leaves, cuts


def count_nodes(tree) -> tuple[int, int]:
    """(nodes, leaves) of a nested list."""
    if not isinstance(tree, list):
        return 1, 1
    counts = [count_nodes(child) for child in tree]
    return 1 + sum(n for n, _ in counts), sum(leaf for _, leaf in counts)


def shown(value) -> str:
    return "+inf" if value == math.inf else "-inf" if value == -math.inf else str(value)


EXAMPLE = nested(EXAMPLE_BRANCHING, list(EXAMPLE_LEAVES))

trees = st.recursive(st.integers(-30, 30), lambda children: st.lists(children, min_size=1, max_size=4), max_leaves=40)


def program_cuts(result) -> list[tuple]:
    return [
        (c.path, c.after, c.value, "alpha" if c.player is Player.MIN else "beta", c.bound.value, list(c.pruned))
        for c in result.cuts
    ]


# -- the example: seed 002's shape --------------------------------------------------------


def test_the_example_has_the_seeds_shape() -> None:
    tree = example_tree()
    first_child, first_grandchild = tree.children[0], tree.children[0].children[0]
    assert (len(tree.children), len(first_child.children), len(first_grandchild.children)) == EXAMPLE_BRANCHING
    assert EXAMPLE_BRANCHING == (3, 3, 3)  # "a branch factor of 3 at the top level, 3 at the second ... 3 at the final"
    assert len(tree.leaves()) == 27 == len(EXAMPLE_LEAVES)
    assert [leaf.value for leaf in tree.leaves()] == list(EXAMPLE_LEAVES)  # left to right, as typed


def test_every_node_of_the_example_has_its_brute_force_value() -> None:
    for root in (Player.MAX, Player.MIN):
        expected = brute_force(EXAMPLE, maximizing=root is Player.MAX)
        assert minimax(example_tree(), root).values == expected


def test_the_examples_cuts_are_the_textbook_ones() -> None:
    for root in (Player.MAX, Player.MIN):
        value, leaves, cuts = textbook_alphabeta(EXAMPLE, maximizing=root is Player.MAX)
        result = alphabeta(example_tree(), root)
        assert result.value == value == brute_force(EXAMPLE, root is Player.MAX)["A"]
        assert program_cuts(result) == cuts
        assert [path for path in result.visited if path.count(".") == 3] == leaves
        assert cuts, "the example should show at least one cut"


def test_the_example_cuts_at_both_kinds_of_node() -> None:
    kinds = {cut[3] for cut in textbook_alphabeta(EXAMPLE)[2]}
    assert kinds == {"alpha", "beta"}  # a cut at a MIN node and one at a MAX node: both rules are shown


# -- any tree ------------------------------------------------------------------------------


@given(trees, st.booleans())
def test_minimax_gives_every_node_its_brute_force_value(tree, max_first) -> None:
    root = Player.MAX if max_first else Player.MIN
    assert minimax(parse_tree(json.dumps(tree)), root).values == brute_force(tree, max_first)


@given(trees, st.booleans())
def test_alphabeta_finds_the_minimax_value_with_the_textbook_cuts(tree, max_first) -> None:
    root = Player.MAX if max_first else Player.MIN
    parsed = parse_tree(json.dumps(tree))
    plain = minimax(parsed, root)
    result = alphabeta(parsed, root)
    value, leaves, cuts = textbook_alphabeta(tree, max_first)
    assert result.value == plain.root == value
    assert program_cuts(result) == cuts
    assert result.leaves == len(leaves) <= plain.leaves
    assert result.nodes <= plain.nodes == count_nodes(tree)[0]


@given(trees, st.booleans(), st.sampled_from(["given", "best", "worst"]))
def test_every_order_finds_the_value_and_what_it_returns_brackets_the_truth(tree, max_first, order) -> None:
    root = Player.MAX if max_first else Player.MIN
    parsed = parse_tree(json.dumps(tree))
    truth = brute_force(tree, max_first)
    result = alphabeta(parsed, root, order)
    assert result.value == truth["A"]
    assert result.leaves <= minimax(parsed, root).leaves
    for path, back in result.returns.items():
        assert back.low <= truth[path] <= back.high  # what the search claims to know is true
        assert back.low <= back.value <= back.high
        if back.low == back.high:
            assert back.value == truth[path]
    if result.best_child is not None:
        assert truth[result.best_child] == truth["A"]  # the move it picks is a best move


@given(st.integers(2, 4), st.integers(1, 4), st.randoms(use_true_random=False))
def test_best_first_reaches_the_knuth_moore_minimum_and_no_order_does_better(b, d, rng) -> None:
    """On a uniform tree with distinct leaves, perfect ordering evaluates b^ceil(d/2) + b^floor(d/2) - 1
    leaves (Knuth and Moore, 1975), the fewest any search can prove the value with."""
    leaves = list(range(b**d))
    rng.shuffle(leaves)
    tree = tree_from_branching((b,) * d, leaves)
    minimum = b ** math.ceil(d / 2) + b ** (d // 2) - 1
    assert alphabeta(tree, order="best").leaves == minimum
    assert minimum <= alphabeta(tree, order="given").leaves <= b**d
    assert minimum <= alphabeta(tree, order="worst").leaves <= b**d
    assert alphabeta(tree, order="best").value == alphabeta(tree, order="worst").value == minimax(tree).root


# -- reading trees -------------------------------------------------------------------------


@given(trees)
def test_commas_spaces_and_newlines_read_the_same_tree(tree) -> None:
    text = json.dumps(tree)
    assert parse_tree(text.replace(",", " ")) == parse_tree(text) == parse_tree(text.replace(", ", ",\n  "))


def test_the_two_ways_of_typing_a_tree_agree() -> None:
    assert tree_from_branching((3, 3, 3), list(EXAMPLE_LEAVES)) == parse_tree(json.dumps(EXAMPLE))


def test_values_may_be_negative_or_decimal() -> None:
    tree = parse_tree("[ -3, [+2.5 , 1e1], .5 ]")
    assert [leaf.value for leaf in tree.leaves()] == [-3, 2.5, 10.0, 0.5]
    assert minimax(tree).root == 2.5  # max(-3, min(2.5, 10), 0.5)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the tree is empty"),
        ("[[3,12,8],[2,4,6]", "'[' at character 1 is never closed"),
        ("[3,12]]", "character 7: unbalanced brackets: this ']' closes nothing"),
        ("[3,x]", "character 4: 'x' is not a number"),
        ("[[],1]", "character 3: an empty subtree '[]' (opened at character 2)"),
        ("[]", "an empty subtree"),
        ("[1,,2]", "character 4: a comma with no item before it"),
        ("[1,2,]", "a comma with no item after it"),
        ("[,1]", "a comma with no item before it"),
        ("[1 2][3]", "after the end of the tree"),
        ("[1[2]]", "a comma or space is missing"),
        ("1,2", "a comma outside the brackets"),
        ("[1e999]", "too large a number"),
        ("[nan, 1]", "'nan' is not a number"),
        ("[\u0661, 1]", "is not a number"),  # an Arabic-Indic digit: only ASCII digits are numbers
        ("[" + "9" * 30 + "]", "at most 24 characters"),
        ("[" * (MAX_DEPTH + 1) + "1" + "]" * (MAX_DEPTH + 1), f"deeper than {MAX_DEPTH} levels"),
        ("[" * 10**6, "characters; at most"),
        ("[" + ",".join(["1"] * (MAX_NODES + 1)) + "]", f"more than {MAX_NODES:,} nodes"),
    ],
)
def test_bad_trees_are_one_clear_error(text, message) -> None:
    with pytest.raises(TreeError, match=None) as caught:
        parse_tree(text)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_deep_tree_within_the_bound_is_read() -> None:
    text = "[" * MAX_DEPTH + "1" + "]" * MAX_DEPTH
    assert max(leaf.depth for leaf in parse_tree(text).leaves()) == MAX_DEPTH


# -- the command ---------------------------------------------------------------------------


def test_the_command_prints_the_textbook_cuts_values_and_counts(cli) -> None:
    status, out, err = cli(["tree"])
    assert status == 0 and err == ""
    value, leaves, cuts = textbook_alphabeta(EXAMPLE)
    lines = out.splitlines()
    cut_lines = [line.strip() for line in lines if line.strip().startswith("cut at")]
    assert len(cut_lines) == len(cuts)
    for line, (node, after, v, name, bound, skipped) in zip(cut_lines, cuts, strict=True):
        relation = "<=" if name == "alpha" else ">="
        assert line.startswith(f"cut at {node} after child {after}: value {v} {relation} {name} {shown(bound)} (")
        assert line.endswith(f"not visited: {', '.join(skipped)}")
    # leaves appear in the order alpha-beta visits them
    assert [line.split()[0] for line in lines if " leaf " in line] == leaves
    # every inner node's minimax value, with MAX/MIN, in the value table
    truth = brute_force(EXAMPLE)
    for path, v in truth.items():
        if path.count(".") < 3:
            player = "MAX" if path.count(".") % 2 == 0 else "MIN"
            rows = ([path, player, str(v)], [f"{path}*", player, str(v)])  # * marks a node alpha-beta skipped
            assert any(line.split()[:3] in rows for line in lines), path
    nodes, all_leaves = count_nodes(EXAMPLE)
    assert any(line.split() == ["minimax", str(nodes), str(all_leaves)] for line in lines)
    visited = sum(1 for line in lines if ("MAX  alpha=" in line or "MIN  alpha=" in line or " leaf " in line))
    assert any(line.split() == ["alpha-beta", str(visited), str(len(leaves))] for line in lines)
    assert f"Root value {value}: MAX moves to " in out
    assert "seed 002" in out  # the example says whose shape it has, and that its values are not the seed's


def test_brackets_and_branching_give_the_same_output(cli) -> None:
    _, bracketed, _ = cli(["tree", json.dumps(EXAMPLE)])
    leaves = ",".join(map(str, EXAMPLE_LEAVES))
    _, branched, _ = cli(["tree", "--branching", "3x3x3", "--leaves", leaves])
    _, example, _ = cli(["tree"])
    assert bracketed == branched
    # the example adds one note line under the first
    assert example.splitlines()[:1] + example.splitlines()[2:] == bracketed.splitlines()


def test_min_first_and_best_order_change_what_is_printed(cli) -> None:
    _, out, _ = cli(["tree", "--min-first", "[[3,12,8],[2,4,6],[14,5,2]]"])
    assert out.splitlines()[3].split()[:2] == ["A", "MIN"]
    assert f"Root value {brute_force([[3, 12, 8], [2, 4, 6], [14, 5, 2]], False)['A']}: MIN moves" in out
    _, best, _ = cli(["tree", "--order", "best"])
    first_leaf = next(line.split()[0] for line in best.splitlines() if " leaf " in line)
    truth = brute_force(EXAMPLE)
    assert truth[first_leaf] == truth["A"]  # best first: the first leaf reached is on the principal line


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tree", "[[3,12,8],[2,4,6]"], "never closed"),
        (["tree", "[3,a]"], "'a' is not a number"),
        (["tree", "[[]]"], "empty subtree"),
        (["tree", "--branching", "3x3", "--leaves", "1,2,3"], "a 3x3 tree has 9 leaves, but 3 values were given"),
        (["tree", "--branching", "3xq", "--leaves", "1"], "a branching is written like 3x3x3"),
        (["tree", "--branching", "3x0", "--leaves", "1"], "needs at least one child"),
        (["tree", "--branching", "10x10x10x10", "--leaves", "1"], "more than 10,000 nodes"),
        (["tree", "--branching", "3x3"], "--branching and --leaves go together"),
        (["tree", "[1,2]", "--branching", "2", "--leaves", "1,2"], "not both"),
        (["tree", "--order", "sideways"], "invalid choice"),
        (["tree", "--png", ""], "--png needs a file name"),
        (
            ["tree", "--branching", "2x2x2x2x2x2x2x2x2", "--leaves", ",".join(["1"] * 512), "--png", "x.png"],
            "a drawing holds at most 256 leaves",
        ),
    ],
)
def test_bad_input_is_one_error_line_and_no_output(cli, argv, message) -> None:
    status, out, err = cli(argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err
    assert "Traceback" not in err


def test_a_png_path_that_cannot_be_written_is_named_in_one_line(cli, tmp_path) -> None:
    status, out, err = cli(["tree", "--png", str(tmp_path / "missing" / "tree.png")])
    assert status == 2 and out == ""
    assert err == f"error: --png {tmp_path / 'missing' / 'tree.png'}: cannot write there: No such file or directory\n"


def test_a_picture_is_written_only_over_a_picture(cli, tmp_path) -> None:
    """A file of the user's under the name is kept; a name that is not .png is refused; a PNG is replaced."""
    (tmp_path / "notes.png").write_text("my notes")
    (tmp_path / "notes.txt").write_text("my notes")
    for name, message in (("notes.png", "that file is not a PNG"), ("notes.txt", "should end in .png")):
        status, out, err = cli(["tree", "--png", str(tmp_path / name)])
        assert (status, out) == (2, "") and message in err
        assert (tmp_path / name).read_text() == "my notes"
    status, _, _ = cli(["tree", "--png", str(tmp_path / "tree.png")])
    first = (tmp_path / "tree.png").read_bytes()
    status, _, _ = cli(["tree", "--min-first", "--png", str(tmp_path / "tree.png")])
    assert status == 0 and (tmp_path / "tree.png").read_bytes() != first  # the earlier drawing is replaced


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk, after checking the signature."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--order", "best", "--min-first"],
        ["--branching", "2x2x2x2x2", "--leaves", ",".join(str((7 * i) % 11) for i in range(32))],
        ["--branching", "4x4x3", "--leaves", ",".join(str((5 * i) % 13) for i in range(48))],
        ["[[1,[2,3]],[4,[5,[6,7,-8]]],9.5]"],
        ["7"],
    ],
)
def test_the_drawing_is_a_png_of_plausible_size(cli, tmp_path, argv) -> None:
    target = tmp_path / "tree.png"
    status, out, err = cli(["tree", *argv, "--png", str(target)])
    assert status == 0 and err == ""
    assert out.splitlines()[-1] == f"drawing written to {target}"
    data = target.read_bytes()
    width, height = png_size(data)
    assert 700 <= width <= 12_000 and 300 <= height <= 3_000
    assert len(data) > 10_000  # a picture, not an empty canvas
    assert [p.name for p in tmp_path.iterdir()] == ["tree.png"]  # no temporary file left beside it


def test_the_command_is_listed_in_the_help() -> None:
    done = subprocess.run([sys.executable, "-m", "engine", "--help"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0 and "\n    tree " in done.stdout


def test_the_cut_shown_in_the_docs_is_what_the_command_prints(cli) -> None:
    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    shown_cuts = [line for line in page.splitlines() if line.startswith("cut at ")]
    _, out, _ = cli(["tree"])
    printed = {line.strip() for line in out.splitlines()}
    assert shown_cuts and all(line in printed for line in shown_cuts)
