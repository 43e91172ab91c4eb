"""The screens, one module each, in the order a player meets them.

menu -> mode_select -> agent_select (when a computer plays) -> board_setup
-> match, with result on top of the match when a game ends, and help, settings
and saved games from the menu. A screen opens another by its name
(:mod:`game.screens`), never by importing it; modules are imported when their
screen is first opened, so that the menu shows up before the engine is loaded.
"""
