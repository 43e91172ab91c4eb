"""Panels drawn beside the board on the match screen, one module each."""
