"""The reference answers the grader marks against, each in its seed's own form (names, arguments, boards).

A student may import them to compare: ``from engine.grade.reference.seed003
import dropPiece, makeExample, printBoard``. They are plain Python and numpy,
written to be read, and they never run inside a student's sandbox.
"""
