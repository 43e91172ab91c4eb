"""Mirror images, as the solver's table uses them."""

from __future__ import annotations

import random

import pytest

from engine.board import Board
from engine.geometry import Geometry
from engine.solver.symmetry import mirror, mirror_cell, smaller_image
from tests.engine.exhaustive import random_position


@pytest.mark.parametrize("geometry", [Geometry(), Geometry(8, 8, 4), Geometry(5, 4, 3)])
def test_mirror_and_the_mirror_of_a_child_follow_the_mirrored_game(geometry: Geometry) -> None:
    rng, g = random.Random(7), geometry.kernel
    for _ in range(50):
        board = Board.from_moves(random_position(geometry, rng.randrange(0, 12), rng), geometry)
        current, mask = board.kernel_state()
        image = board.mirrored()
        assert geometry.from_kernel(mirror(current, g)) == image.current
        assert geometry.from_kernel(mirror(mask, g)) == image.mask
        for col in board.legal_columns():
            # What the solver does for a child: update the parent's image instead of mirroring afresh.
            cell = geometry.to_kernel(geometry.cell(col, board.height(col)))
            image_current, image_mask = geometry.from_kernel(mirror(current, g)), geometry.from_kernel(mirror(mask, g))
            child_current = image_current ^ image_mask
            child_mask = image_mask | geometry.from_kernel(mirror_cell(cell, col, g))
            board.play(col)
            expected = board.mirrored()
            board.undo()
            assert (child_current, child_mask) == (expected.current, expected.mask)


def test_the_smaller_image_is_the_same_for_a_position_and_its_mirror() -> None:
    geometry, rng = Geometry(), random.Random(3)
    g = geometry.kernel
    for _ in range(50):
        board = Board.from_moves(random_position(geometry, rng.randrange(1, 10), rng), geometry)
        current, mask = board.kernel_state()
        image_current, image_mask = mirror(current, g), mirror(mask, g)
        one = smaller_image(current, mask, image_current, image_mask)
        other = smaller_image(image_current, image_mask, current, mask)
        assert (int(one[0]), int(one[1])) == (int(other[0]), int(other[1]))
        assert one[2] != other[2] or (int(current), int(mask)) == (int(image_current), int(image_mask))
