"""Records per opponent: every pair's won, drawn and lost and the current series, shown on the Records
screen, kept across restarts (a score against Medium survives a hotseat game), taken back with an undone
last move; the file is untrusted data (a damaged one is set aside with a message, a student kept by name)."""

from __future__ import annotations

import json
from dataclasses import replace

import pygame
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.geometry import Geometry
from game import autosave, records
from game.model import Colour, Mode
from game.players import MatchConfig, player_for
from game.scenes.confirm import Confirm
from game.scenes.menu import MainMenu
from game.scenes.records import RecordsScene
from game.scenes.result import ResultOverlay
from game.tally import Tally
from tests.game.test_match import open_match
from tests.game.untrusted_files import STUDENT_SOURCE

SMALL = Geometry(4, 4, 3)
FIELDS = ["players", "board", "wins", "draws", "series", "last"]


def people(red: str, yellow: str) -> MatchConfig:
    return MatchConfig(
        player_for(Colour.RED, None, Mode.HOTSEAT, red), player_for(Colour.YELLOW, None, Mode.HOTSEAT, yellow), SMALL
    )


def red_wins(driver, match) -> None:
    for column in (0, 1, 0, 1, 0):
        driver.click_column(column)
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), what="the result banner")


def saved(settings_file) -> list[dict]:
    assert autosave.KEEPER.flush(5)
    return json.loads(records.path_for(settings_file).read_text(encoding="utf-8"))["records"]


def open_records(driver) -> RecordsScene:
    driver.app.reset("menu")
    driver.step()
    menu = driver.scene
    assert isinstance(menu, MainMenu)
    driver.press(menu.screens["records"])
    assert isinstance(driver.scene, RecordsScene)
    return driver.scene


def test_each_pair_keeps_its_record_and_series_and_the_screen_shows_them(start, settings_file):
    driver = start()
    match = open_match(driver, people("Ann", "Bob"))
    red_wins(driver, match)
    driver.key(pygame.K_r)  # rematch: Bob starts, and the same clicks make him win
    red_wins(driver, match)
    match = open_match(driver, people("Ann", "Cid"))  # someone else: the tally starts again, not the records
    red_wins(driver, match)
    assert driver.app.tally.games == 1
    match = open_match(driver, people("Bob", "Ann"))  # Ann and Bob again, colours changed: their record goes on
    red_wins(driver, match)
    # the banner's score starts again with the pair, and their record over all games stands beside it
    assert driver.scene.score() == "Score: Bob 1 – 0 Ann   ·   all games: 2 – 1"
    rows = {tuple(entry["players"][1]): entry for entry in saved(settings_file)}
    assert rows[("person", "Bob")]["wins"] == [1, 2] and rows[("person", "Bob")]["series"] == [1, 2]
    assert rows[("person", "Cid")]["wins"] == [1, 0]
    screen = open_records(driver)
    assert [(records.name_of(r.players[0]), records.name_of(r.players[1])) for r in screen.rows] == [
        ("Ann", "Bob"),  # the most recently played first
        ("Ann", "Cid"),
    ]
    assert screen.rows[0].series_text() == "Bob won the last 2"
    assert screen.rows[1].series_text() == "Ann won the last one"


def test_a_score_against_a_level_survives_a_hotseat_game_and_a_restart(start, settings_file):
    driver = start()
    computer = player_for(Colour.YELLOW, "random:seed=5", Mode.HUMAN_VS_AI)
    against = MatchConfig(player_for(Colour.RED, None, Mode.HUMAN_VS_AI), computer, SMALL)
    match = open_match(driver, against)
    while not match.turns.model.board.is_over:  # the person plays the leftmost open column each turn
        if match.turns.model.human_to_move:
            driver.click_column(match.turns.model.board.legal_columns()[0])
        driver.step()
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), what="the result banner")
    red_wins(driver, open_match(driver, people("Ann", "Bob")))
    driver.app.close()
    records._OPEN.clear()  # a new run reads the file again
    again = start()
    screen = open_records(again)
    level = next(r for r in screen.rows if r.players == (("person", "You"), ("computer", "random:seed=5")))
    assert level.games == 1 and records.name_of(level.players[1]) == "Random · seed=5"


def test_an_undone_last_move_takes_the_game_back(start, settings_file):
    driver = start()
    match = open_match(driver, people("Ann", "Bob"))
    red_wins(driver, match)
    assert saved(settings_file)[0]["wins"] == [1, 0]
    driver.key(pygame.K_ESCAPE)
    driver.key(pygame.K_u)
    driver.step()
    assert saved(settings_file) == []  # their only game is no longer over: they have no record
    driver.click_column(0)
    driver.settle()
    driver.step()
    assert saved(settings_file)[0]["wins"] == [1, 0]  # counted once when won again


def test_the_records_are_cleared_only_after_a_yes(start, settings_file):
    driver = start()
    match = open_match(driver, people("Ann", "Bob"))
    red_wins(driver, match)
    match = open_match(driver, people("Ann", "Cid"))
    red_wins(driver, match)
    screen = open_records(driver)
    assert len(screen.rows) == 2 and screen.clear.enabled
    driver.press(screen.clear)
    assert isinstance(driver.scene, Confirm) and "2 pairs" in driver.scene.detail
    driver.key(pygame.K_RETURN)  # Enter by habit: the focus is on "Keep them"
    assert driver.scene is screen and len(screen.rows) == 2 and len(saved(settings_file)) == 2
    driver.press(screen.clear)
    driver.key(pygame.K_y)
    assert driver.scene is screen and screen.rows == [] and not screen.clear.enabled
    assert saved(settings_file) == [] and "Records cleared." in driver.app.messages
    driver.app.reset("menu")  # the next run reads the empty file
    records._OPEN.clear()
    assert open_records(driver).rows == []


def test_each_board_keeps_its_own_record_and_one_from_before_stays_apart(start, settings_file):
    """An 8x8 draw against Perfect was counted with the 7x6 games; a record written before boards were told
    apart is shown as "all sizes" and takes no new game."""
    path = records.path_for(settings_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    older = {"players": [["person", "Ann"], ["person", "Bob"]], "wins": [5, 5], "draws": 2, "series": [None, 2]}
    path.write_text(json.dumps({"format": records.FORMAT, "records": [older]}), encoding="utf-8")
    driver = start()
    match = open_match(driver, people("Ann", "Bob"))  # on 4x4, three in a row
    red_wins(driver, match)
    assert driver.scene.score() == "Score: Ann 1 – 0 Bob"  # not "all games: 6 – 5, 2 draws": those were all sizes
    match = open_match(driver, replace(people("Ann", "Bob"), geometry=Geometry(5, 4, 3)))
    red_wins(driver, match)
    assert "all games" not in driver.scene.score()  # the 4x4 game is not one of this board's
    screen = open_records(driver)
    shown = [(r.board_text(), r.wins, r.draws) for r in screen.rows]
    assert shown == [("5×4, 3 in a row", [1, 0], 0), ("4×4, 3 in a row", [1, 0], 0), ("all sizes", [5, 5], 2)]
    assert [entry.get("board") for entry in saved(settings_file)] == [[5, 4, 3], [4, 4, 3], None]


def test_a_game_counted_before_the_records_were_cleared_stays_out(tmp_path):
    """Undoing the last move of a game counted before a clearing takes it out of the score only."""
    settings_file = tmp_path / "settings.json"
    tally = Tally()
    config = people("Ann", "Bob")
    for _ in range(2):  # the second game's record before it is the first's: what a take-back would restore
        counted = records.Counted(tally, settings_file, notify=lambda *args, **kwargs: None)
        assert counted.count(config, Colour.RED)
    kept = records.records_at(records.path_for(settings_file))[0]
    assert kept.find(records.pair_of(config)[0], records.board_of(config)) is not None
    kept.clear()
    counted.take_back(config)
    assert kept.entries == [] and tally.games == 1


def test_a_damaged_records_file_is_set_aside_with_a_message(start, settings_file):
    path = records.path_for(settings_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"format": "connect-four records", "records": [', encoding="utf-8")
    driver = start()
    screen = open_records(driver)
    assert screen.rows == [] and any("could not be read" in m and "records.json.bak" in m for m in driver.app.messages)
    assert path.with_name("records.json.bak").exists() and not path.exists()


def test_damaged_entries_are_left_out_and_a_student_is_kept_by_file_name(tmp_path):
    student = tmp_path / "course" / "student.py"
    student.parent.mkdir()
    student.write_text(STUDENT_SOURCE, encoding="utf-8")
    good = {"players": [["person", "Ann"], ["computer", "hard"]], "wins": [1, 2], "draws": 0, "series": [1, 2]}
    bad = [{**good, "wins": [-1, 0]}, {**good, "players": [["robot", "x"], ["person", "Ann"]]}, "2-1", {}]
    bad += [{**good, "board": board} for board in ([7, 6], [3, 3, 3], [7, 6, True], "7x6", [10, 6, 4])]
    path = tmp_path / "records.json"
    path.write_text(json.dumps({"format": "connect-four records", "records": [good, *bad]}), encoding="utf-8")
    book, problem = records.Records.load(path)
    assert len(book.entries) == 1 and problem == "9 damaged records were left out."
    config = MatchConfig(
        player_for(Colour.RED, None, Mode.HUMAN_VS_AI, "Ann"),
        player_for(Colour.YELLOW, f"{student}:agent", Mode.HUMAN_VS_AI),
        SMALL,
    )
    book.count(config, Colour.YELLOW)
    assert autosave.KEEPER.flush(5)
    text = path.read_text(encoding="utf-8")
    assert ["student", "student.py"] in [who for entry in json.loads(text)["records"] for who in entry["players"]]
    assert str(student.parent) not in text and not (student.parent / "RAN").exists()


RECORD_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 10**7) | st.sampled_from(["person", "computer", "student", "Ann", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(FIELDS), inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(entries=st.lists(RECORD_JSON, max_size=5), raw=st.binary(max_size=200))
def test_any_records_file_loads_cleanly_or_is_set_aside(tmp_path, entries, raw):
    """Whatever the file holds, loading raises nothing, keeps only sound records, and they can be shown."""
    path = tmp_path / "records.json"
    for text in (json.dumps({"format": records.FORMAT, "records": entries}).encode(), raw):
        path.write_bytes(text)
        book, problem = records.Records.load(path)
        assert "\n" not in problem
        for record in book.entries:
            assert record.games >= 0 and isinstance(records.name_of(record.players[0]), str)
            record.series_text()
            record.board_text()
        if path.with_name("records.json.bak").exists():  # set aside, never deleted
            assert not path.exists() and problem
            path.with_name("records.json.bak").unlink()


def test_a_long_list_of_records_scrolls(start, settings_file):
    path = records.path_for(settings_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [
        {"players": [["person", f"Player {n:02}"], ["computer", "hard"]], "wins": [n, 1], "draws": 0, "series": [0, 1]}
        for n in range(30)
    ]
    path.write_text(json.dumps({"format": records.FORMAT, "records": rows}), encoding="utf-8")
    driver = start()
    screen = open_records(driver)
    assert len(screen.rows) == 30 and screen.visible < 30 and screen.first == 0
    driver.key(pygame.K_DOWN)
    assert screen.first == 1
    driver.key(pygame.K_PAGEDOWN)
    driver.key(pygame.K_PAGEDOWN)
    driver.key(pygame.K_PAGEDOWN)
    assert screen.first == 30 - screen.visible  # the last row shows, and no further
    pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=2, flipped=False))
    driver.step()
    assert screen.first == 30 - screen.visible - 2


def test_a_saved_game_opened_over_is_not_counted_again_until_it_ends_anew(start, settings_file):

    driver = start()
    match = open_match(driver, people("Ann", "Bob"))
    red_wins(driver, match)
    assert driver.app.tally.games == 1
    finished = replace(people("Ann", "Bob"), replay="12121")  # the same game, opened from its saved file
    for _ in range(2):
        match = open_match(driver, finished)
        driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), what="the result banner")
        assert match.turns.model.board.is_over and driver.app.tally.games == 1
        assert [entry["wins"] for entry in saved(settings_file)] == [[1, 0]]
    driver.key(pygame.K_ESCAPE)
    driver.key(pygame.K_u)  # taken back: it leaves nothing to subtract
    assert driver.app.tally.games == 1 and [entry["wins"] for entry in saved(settings_file)] == [[1, 0]]
    driver.click_column(0)  # and ended again, it is a game played now
    driver.run_until(lambda: isinstance(driver.scene, ResultOverlay), what="the result banner")
    assert driver.app.tally.games == 2 and [entry["wins"] for entry in saved(settings_file)] == [[2, 0]]
