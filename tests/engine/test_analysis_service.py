"""The analysis process's protocol: positions and snapshots as plain data, one job at a time, stopped by the next."""

from __future__ import annotations

import io
import json
import os
import threading

from engine.analysis import PositionAnalysis, Stage
from engine.analysis_service import DECODERS, board_from, item_data, position_data, serve
from engine.board import Board
from engine.formats import parse_grid
from engine.geometry import Geometry
from engine.review import MoveReview
from engine.score import Score
from tests.waiting import wait_until


def test_a_position_travels_as_plain_data_even_one_begun_from_a_grid():
    grid = "\n".join(["-------"] * 4 + ["---O---", "--XX---"])
    board = parse_grid(grid)
    board.play(4)
    board.play(4)
    data = json.loads(json.dumps(position_data(board)))
    again = board_from(data)
    assert again == board and again.history == board.history == (4, 4)
    wide = Board.from_moves("1234", Geometry(9, 8, 5))
    assert board_from(json.loads(json.dumps(position_data(wide)))) == wide


def test_snapshots_travel_as_plain_data():
    analysis = PositionAnalysis((Score.pons(3), None, Score.estimate(-0.25)), Stage.SOLVE, 1.5, 2)
    review = MoveReview(7, 2, "blunder", 18, -18, 0)
    for job, item in (("analyze", analysis), ("review", review)):
        back = DECODERS[job](json.loads(json.dumps(item_data(item))))
        assert back == item and type(getattr(back, "stage", None)) is type(getattr(item, "stage", None))


class Pipe:
    """The child's standard input, written line by line by the test."""

    def __init__(self) -> None:
        read, write = os.pipe()
        self.reader = os.fdopen(read, "r", encoding="utf-8")
        self.writer = os.fdopen(write, "w", encoding="utf-8")

    def send(self, message: object) -> None:
        self.writer.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
        self.writer.flush()


class Output(io.StringIO):
    """What the child writes, readable while it runs."""

    def messages(self) -> list[dict]:
        return [json.loads(line) for line in self.getvalue().splitlines()]

    def wait_for(self, condition, timeout: float = 60.0) -> list[dict]:
        wait_until(lambda: condition(self.messages()), timeout, lambda: f"such an answer: {self.getvalue()[-500:]}")
        return self.messages()


def job(number: int, kind: str, moves: str) -> dict:
    return {"id": number, "job": kind, "position": position_data(Board.from_moves(moves))}


def test_jobs_are_answered_and_a_new_one_stops_the_one_under_way():
    pipe, out = Pipe(), Output()
    thread = threading.Thread(target=serve, args=(pipe.reader, out), daemon=True)
    thread.start()
    pipe.send("not json")  # ignored
    pipe.send({"id": 1, "job": "analyze", "position": {"cols": 7}})  # answered with a one-line error
    messages = out.wait_for(lambda got: len(got) == 1)
    assert messages[0]["id"] == 1 and messages[0]["error"].startswith("KeyError")
    pipe.send(job(2, "analyze", "4444"))
    messages = out.wait_for(lambda got: any(m["id"] == 2 and "end" in m for m in got))
    items = [DECODERS["analyze"](m["item"]) for m in messages if m["id"] == 2 and "item" in m]
    assert items[-1].finished and all(value is None or value.is_exact for value in items[-1].values)

    pipe.send(job(3, "analyze", "74677651"))  # replies to 8 stones are not in the book: seconds of solving
    out.wait_for(lambda got: any(m["id"] == 3 and m.get("item", {}).get("stage") == "solve" for m in got))
    pipe.send(job(4, "review", "12121232"))
    # the review's second pass may go on for minutes on the early moves: the blunder is known before
    messages = out.wait_for(lambda got: any(m["id"] == 4 and m.get("item", {}).get("ply") == 7 for m in got))
    three = [m for m in messages if m["id"] == 3]
    assert "end" in three[-1] and three[-2]["item"]["stage"] != "done"  # stopped in the middle
    reviews = [DECODERS["review"](m["item"]) for m in messages if m["id"] == 4 and "item" in m]
    by_ply = {item.ply: item for item in reviews}
    assert (by_ply[7].label, by_ply[7].better) == ("blunder", 0)

    pipe.send({**job(5, "analyze", "1"), "seconds": "many"})  # a bad bound: one line, and the next job runs
    messages = out.wait_for(lambda got: any(m["id"] == 5 and "error" in m for m in got))
    said = next(m for m in messages if m["id"] == 5)["error"]
    assert said == "ValueError: seconds must be a positive number, not 'many'"

    pipe.writer.close()  # the game went away: the child ends
    thread.join(10)
    assert not thread.is_alive()


def test_a_bounded_analysis_ends_by_itself_and_says_unsolved():
    """An early 8x8 position: the solve stage stops at its bound, the job ends, nothing keeps running."""
    pipe, out = Pipe(), Output()
    thread = threading.Thread(target=serve, args=(pipe.reader, out), daemon=True)
    thread.start()
    board = Board.from_moves("45", Geometry(8, 8, 4))
    pipe.send({"id": 1, "job": "analyze", "position": position_data(board), "seconds": 1})
    messages = out.wait_for(lambda got: any(m["id"] == 1 and "end" in m for m in got), timeout=120)
    items = [DECODERS["analyze"](m["item"]) for m in messages if "item" in m]
    assert items[-1].stage == "unsolved" and items[-1].exact_count < items[-1].playable
    assert any(item.stage == "solve" for item in items)
    pipe.writer.close()
    thread.join(10)
    assert not thread.is_alive()


def test_a_lessons_job_sends_the_puzzles_of_the_mistakes_it_is_given():
    """The plies of a game's mistakes in, checked puzzles out (a bad list of plies is one error line)."""
    from engine.puzzles.mistakes import lesson
    from engine.solver.solver import Solver

    geometry = Geometry(6, 5)
    board = Board.from_moves("3344556", geometry)  # the 4th move gives a draw away
    pipe, out = Pipe(), Output()
    thread = threading.Thread(target=serve, args=(pipe.reader, out), daemon=True)
    thread.start()
    pipe.send({"id": 9, "job": "review", "position": position_data(board)})  # as in the game: the review first
    out.wait_for(lambda got: any(m["id"] == 9 and "end" in m for m in got), timeout=120)
    pipe.send({"id": 1, "job": "lessons", "position": position_data(board), "plies": [4, 4]})
    messages = out.wait_for(lambda got: any(m["id"] == 1 and "end" in m for m in got), timeout=120)
    puzzles = [DECODERS["lessons"](m["item"]) for m in messages if m["id"] == 1 and "item" in m]
    solver = Solver(geometry, 16)
    assert puzzles == [lesson(Board.from_moves("334", geometry), solver)]  # once, though asked twice
    pipe.send({"id": 2, "job": "lessons", "position": position_data(board), "plies": "all"})
    messages = out.wait_for(lambda got: any(m["id"] == 2 for m in got))
    assert next(m for m in messages if m["id"] == 2)["error"].startswith("ValueError: plies")
    pipe.writer.close()
    thread.join(10)
    assert not thread.is_alive()


def test_explain_sends_the_reason_and_answer_plays_it():
    """What the game's Why screen asks: the reason of a position, then the moves of its strategy (Show me)."""
    moves = "3324524346452572767551333257727114"  # Red to move cannot win: Yellow's claimeven in columns 1, 6
    pipe, out = Pipe(), Output()
    thread = threading.Thread(target=serve, args=(pipe.reader, out), daemon=True)
    thread.start()
    pipe.send({**job(1, "explain", moves), "names": ["Red", "Yellow"]})
    messages = out.wait_for(lambda got: any(m["id"] == 1 and "end" in m for m in got), timeout=120)
    why = DECODERS["explain"](next(m for m in messages if m["id"] == 1 and "item" in m)["item"])
    assert (why.claim, why.brief, why.strategist, why.defender) == (
        "mover cannot win",
        "Red cannot win: claimeven in columns 1 and 6",
        1,
        1,
    )
    assert {cell for mark in why.marks if mark.kind == "claim" for cell in mark.cells} == {(0, 5), (5, 3), (5, 5)}
    pipe.send({**job(2, "answer", moves + "6"), "from": len(moves)})  # Red plays f3: Yellow answers on top
    messages = out.wait_for(lambda got: any(m["id"] == 2 and "end" in m for m in got), timeout=120)
    assert DECODERS["answer"](next(m for m in messages if m["id"] == 2)["item"]) == (5, "claimeven")
    pipe.send({**job(3, "answer", moves), "from": 99})  # a bad request: one line
    messages = out.wait_for(lambda got: any(m["id"] == 3 and "error" in m for m in got))
    assert next(m for m in messages if m["id"] == 3)["error"].startswith("ValueError: from must be")
    pipe.writer.close()
    thread.join(10)
    assert not thread.is_alive()
